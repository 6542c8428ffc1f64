/* The evaluator: runs the AST. */
#ifndef SBSH_EXEC_H
#define SBSH_EXEC_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "lib/util.h"
#include "shell/ast.h"
#include "shell/shell.h"

/* Runs a node; returns its exit status (also stored in sh->last_status). */
int exec_node(struct shell *sh, const struct node *n);
/* Where a JUMP_DISCARD lands (an eval, a sourced file, the top level):
 * clears it and returns the status, 1; under set -e the shell exits. */
int exec_catch_discard(struct shell *sh);
/* $BASH_COMMAND's value, malloc'd. */
char *exec_command_text(struct shell *sh);
/* Parses and runs text (eval, ., -c, traps): command by command, so aliases
 * defined early apply later. A syntax error is reported and returns 2. */
int exec_string(struct shell *sh, const char *text, size_t len, const char *source_name,
                unsigned first_line);
/* Runs program in a subshell with stdout captured into out (trailing
 * newlines kept: expansion strips them). Returns the exit status. */
int exec_cmdsub(struct shell *sh, const struct node *program, struct strbuf *out);
/* Starts program in the background connected to a pipe; *path gets
 * "/dev/fd/N" (caller frees). Returns 0 or -1 after reporting. */
int exec_procsub(struct shell *sh, const struct node *program, bool output, char **path);
/* Loads the sandbox's terminal guard if it still waits (sh->pending_guard):
 * every path that starts a program calls it first. Returns 0, or -1 after
 * reporting (then no program may start). */
int shell_guard_before_program(struct shell *sh);
/* $$: the top shell's pid, once the supervisor (started with the guard, if
 * it still waits) has moved the shell to the process it stays in. */
pid_t shell_pid_settled(struct shell *sh);
/* Leaves the process: runs the EXIT trap (once), flushes, exits. */
_Noreturn void exec_exit(struct shell *sh, int status);

/* `sbsh -c`: like exec_string, but the last command may replace the
 * shell process (no fork when nothing follows). */
int exec_command_string(struct shell *sh, const char *text, size_t len);

/* Nesting limit for function calls, eval, source and command substitution. */
#define EXEC_MAX_DEPTH 1000

/* exec_argv_flags: how `command` and `builtin` look a name up. */
enum exec_argv_flags {
	EXEC_ARGV_NO_FUNCS = 1 << 0,     /* command: functions are skipped */
	EXEC_ARGV_BUILTIN_ONLY = 1 << 1, /* builtin: builtins only */
	EXEC_ARGV_DEFAULT_PATH = 1 << 2, /* command -p: the standard PATH */
};
int exec_argv_flags(struct shell *sh, char **argv, unsigned flags);
/* The exec builtin: replaces the process with argv (argv0, if not NULL,
 * becomes argv[0]). Returns 126/127 after reporting when it cannot. */
int exec_replace(struct shell *sh, char **argv, const char *argv0);
/* True for reserved words (if, then, [[, ...). */
bool exec_is_keyword(const char *word);
/* The reserved words, NULL-terminated. */
const char *const *exec_keyword_list(void);

#endif
