/* Traps and the shell's own signal handling. */
#ifndef SBSH_TRAP_H
#define SBSH_TRAP_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>

#include "shell/shell.h"

/* The trap slots: 0 is EXIT, then the signals, then bash's conditions. */
enum trap_condition {
	TRAP_DEBUG = NSIG, /* before each simple command, for, case, (( )), [[ ]] */
	TRAP_ERR,          /* after a command fails, where errexit would act */
	TRAP_RETURN,       /* when a function or a sourced file ends */
	TRAP_SLOTS,
};

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
/* A trap's action is running. */
bool trap_running(const struct shell *sh);
/* The DEBUG trap is set and not running (checked before each command). */
bool trap_debug_set(const struct shell *sh);
/* Runs the DEBUG trap before a command starting at line. */
void trap_run_debug(struct shell *sh, unsigned line);
/* Runs the RETURN trap, if set, as a function or sourced file ends. */
void trap_run_return(struct shell *sh);
/* Around a function call: the DEBUG, ERR and RETURN traps the function
 * must not see (without -T / -E) are set aside, and put back after it
 * unless it set its own. */
struct trap_frame {
	char *action[3];
	bool hidden[3];
};
void trap_enter_function(struct shell *sh, struct trap_frame *saved);
void trap_leave_function(struct shell *sh, struct trap_frame *saved);
/* What `trap` lists for sig: in a subshell where no trap was changed
 * yet, the parent's action. */
const char *trap_get_listed(struct shell *sh, int sig);
/* A trap changed: the parent's actions are no longer listed. */
void trap_forget_inherited(struct shell *sh);
/* Signal names without "SIG" ("INT"; "EXIT" for 0, "DEBUG", "ERR" and
 * "RETURN" for the conditions) and back. The number parser accepts "INT",
 * "SIGINT", "int", "2", "EXIT"; -1 when unknown. */
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
