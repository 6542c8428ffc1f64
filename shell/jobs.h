/* Jobs: pipelines and async lists, waiting, job control, $PIPESTATUS. */
#ifndef SBSH_JOBS_H
#define SBSH_JOBS_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "shell/shell.h"

void jobs_init(struct shell *sh);
void jobs_free(struct shell *sh);
/* Registers a started job: pids of its processes, its group, command text. */
struct job *jobs_add(struct shell *sh, pid_t pgid, const pid_t *pids, size_t npids, const char *text, bool background);
/* Waits for a foreground job; returns its status (pipefail rules applied). */
int jobs_wait_foreground(struct shell *sh, struct job *job);
/* Reaps finished children without blocking; reports done jobs when interactive. */
void jobs_reap(struct shell *sh);
/* Job control: gives the terminal to pgid (or back to the shell with 0). */
void jobs_set_terminal(struct shell *sh, pid_t pgid);
/* Turns job control on (takes the terminal, own process group) or off. */
void jobs_set_monitor(struct shell *sh, bool on);
/* Waits for one child pid that is not part of a job (command
 * substitution); returns the raw wait status, or -1. */
int jobs_wait_pid(struct shell *sh, pid_t pid);
/* Decodes a wait status into a shell status (128+N for signals). */
int jobs_status_of(int wstatus);
/* $PIPESTATUS: starts the list anew (reset) or appends to it. */
void jobs_pipestatus_push(struct shell *sh, int status, bool reset);
/* Sends SIGHUP (and SIGCONT) to every job that is not done: the terminal
 * of an interactive shell went away (trap.c). */
void jobs_hangup(struct shell *sh);
/* True when some job is stopped (exit warns first, as bash does). */
bool jobs_any_stopped(struct shell *sh);
/* kill: sends sig to a job spec (%1 %+ %- %% %str %?str) or a pid
 * (negative: a process group). Returns 0, or -1 after reporting. */
int jobs_signal(struct shell *sh, const char *spec, int sig, const char *cmd);
/* Job builtins live beside the table: wait, jobs, fg, bg (see builtins.h). */

#endif
