/* Traps and the shell's own signal handling. */
#ifndef SBSH_TRAP_H
#define SBSH_TRAP_H

#include <stdbool.h>
#include <stddef.h>

#include "shell/shell.h"

void trap_init(struct shell *sh);
void trap_free(struct shell *sh);
/* Runs the actions of signals caught since the last call. Called between
 * commands and while waiting. */
void trap_run_pending(struct shell *sh);
bool trap_signal_pending(void);
/* In a forked subshell: traps that were set become default (ignored stay
 * ignored). */
void trap_reset_for_subshell(struct shell *sh);
/* Runs the EXIT trap if set (once). */
void trap_run_exit(struct shell *sh);
/* Runs the ERR trap, if set, after a command failed. */
void trap_run_err(struct shell *sh);
/* Signal names without "SIG" ("INT"; "EXIT" for 0) and back. The number
 * parser accepts "INT", "SIGINT", "int", "2", "EXIT"; -1 when unknown. */
int trap_signal_number(const char *name);
const char *trap_signal_name(int sig);
int trap_signal_count(void); /* one past the highest signal number */
/* action: NULL resets to default, "" ignores. Returns -1 (no message) when
 * the signal cannot be trapped (KILL, STOP, ignored at entry). */
int trap_set(struct shell *sh, int sig, const char *action);
/* The action set for sig, or NULL when default. */
const char *trap_get(struct shell *sh, int sig);
/* Interactive shells and job control: which signals the shell itself
 * ignores or catches (SIGINT cancels the line, TERM/QUIT ignored, TSTP,
 * TTIN, TTOU ignored with job control). */
void trap_setup_interactive(struct shell *sh, bool interactive, bool job_control);
/* True once after SIGINT reached an interactive shell (clears it). */
bool trap_take_sigint(void);
/* While on, caught signals interrupt blocking calls (the wait builtin);
 * otherwise they restart them. */
void trap_set_interruptible(struct shell *sh, bool on);
/* The lowest caught signal not yet handled by trap_run_pending, or 0. */
int trap_pending_signal(void);
/* Dispositions for a child about to exec: caught signals back to default,
 * the shell's own interactive handling undone. */
void trap_reset_for_exec(struct shell *sh);
/* True when any trap (EXIT or a signal) is set: the last command of a
 * process must not replace it. */
bool trap_any_set(struct shell *sh);

#endif
