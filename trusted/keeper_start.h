/* The front end's side of the keeper (trusted/keeper_start.c): found or
 * started before confinement; `sbsh --review` handed to it. */
#ifndef SBSH_KEEPER_START_H
#define SBSH_KEEPER_START_H

#include <stdbool.h>

#include "hooks/checkpoint_client.h"

/* Connects to the keeper of the project cwd belongs to, starting it when
 * none runs, and greets it. Returns 0, or with *why (malloc'd) -1 (it
 * failed) or -2 (none are made here by design: in / or $HOME, or with no state
 * folder); then this
 * session makes none. */
struct keeper_options {
	bool ephemeral;        /* --ephemeral */
	unsigned idle_s;       /* keeper-idle */
	unsigned keep_sessions; /* checkpoint-keep-sessions */
	unsigned keep_mib;     /* checkpoint-keep-mb */
};
int keeper_start(const char *cwd, const struct keeper_options *o, struct checkpoint_client *out, char **why);

/* The keeper's socket as an address can hold it: its path, or, when that
 * is too long, the same file through a descriptor of the state folder
 * (*dir_fd, to close once bound or connected; -1 otherwise). */
char *keeper_socket_name(const char *state, int *dir_fd);

/* The sbsh-keeper program: beside sbsh, or installed (malloc'd), or NULL. */
char *keeper_program(void);

/* sbsh --review ARGS (argv[at] is --review): execs sbsh-keeper review.
 * Returns only on failure, with the exit status. */
int keeper_exec_review(int argc, char **argv, int at);

/* What --doctor says of the checkpoints here (strings malloc'd or NULL). */
struct keeper_report {
	bool on;
	char *why_off;  /* when not on */
	char *project, *store;
	bool recorded;  /* the store exists */
	bool running;   /* a keeper answers */
	char *warning;  /* e.g. a state folder the sandbox can write */
};
void keeper_report(bool off, struct keeper_report *out);
void keeper_report_free(struct keeper_report *r);

/* Asks the keeper of the project whose state folder is state whether this
 * process was made outside the sandbox (it compares what the kernel says
 * of both). 1 yes, 0 no, -1 no keeper answered. */
int keeper_probe_outside(const char *state);

#endif
