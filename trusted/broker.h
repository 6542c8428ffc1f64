/* The broker: the unsandboxed process sbsh forks before confining itself.
 * It owns the human's terminal (the shell never holds it), asks the human
 * (through `sbsh --approver` when one runs, else on that terminal) when the
 * shell requests something only a human may allow, runs approved
 * `escape` commands outside the sandbox, forwards signals to the shell and
 * leaves with the shell's exit status. The shell's side of the socket is
 * hooks/broker_client.h; the frames both ends send, trusted/broker_proto.h. */
#ifndef SBSH_BROKER_H
#define SBSH_BROKER_H

#include <stdbool.h>

struct events;
struct sandbox_config;

struct broker_options {
	bool pty;            /* give the shell a pty and relay (stdio was a terminal) */
	unsigned timeout_s;  /* a prompt nobody answers in time is a no */
	/* the sandbox's settings, its writable folders opened ahead (for the
	 * swap warning and the approver's folder), named when first needed */
	const struct sandbox_config *sandbox;
	bool terminal;       /* the controlling terminal is stdio's: prompts may go there
	                      * (an approver, when one runs, is asked first) */
	int protect_fd;      /* the broker's socket to the protection warden, or -1 */
	int protect_shell_fd;/* the shell's socket to it (the broker closes it), or -1 */
	struct events *events; /* the event stream, or NULL */
	char *const *escape_env; /* NAME=VALUE set for escaped commands (git's pinning), or NULL */
	const char *protect_root; /* the project whose protected files the warden restores, or NULL */
};

/* Forks. In the broker (parent) never returns: it serves requests and
 * exits with the shell's status. In the shell (child) returns the socket
 * fd (CLOEXEC) and, when a pty was made, *pty_path (malloc'd); -1 when no
 * broker could be made (the terminal could not be opened, or no fork). */
int broker_start(const struct broker_options *opts, char **pty_path);

#endif
