/* The shell's one context struct, and the interfaces between its modules.
 * Every function takes the context explicitly: no hidden globals except the
 * flags signal handlers set (trap.c). */
#ifndef SBSH_SHELL_H
#define SBSH_SHELL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <time.h>

#include "ast.h"
#include "util.h"

/* Exit statuses with a fixed meaning. */
enum {
	STATUS_SYNTAX = 2,        /* syntax error, builtin usage error */
	STATUS_SANDBOX = 7,       /* sandbox required but unavailable */
	STATUS_REFUSED = 121,     /* a command needing approval was refused (not 77: automake's SKIP) */
	STATUS_NOEXEC = 126,      /* found but not executable */
	STATUS_NOTFOUND = 127,    /* command not found */
};

struct shell_options {
	bool allexport;   /* -a */
	bool notify;      /* -b */
	bool noclobber;   /* -C */
	bool errexit;     /* -e */
	bool noglob;      /* -f */
	bool hashall;     /* -h */
	bool monitor;     /* -m: job control */
	bool noexec;      /* -n */
	bool nounset;     /* -u */
	bool verbose;     /* -v */
	bool xtrace;      /* -x */
	bool ignoreeof;   /* -o ignoreeof */
	bool pipefail;    /* -o pipefail */
	bool nolog;       /* -o nolog (accepted, no effect) */
	bool vi, emacs;   /* -o vi / emacs: line editor mode */
	bool posix;       /* -o posix */
	bool interactive; /* -i */
	bool login;       /* -l */
	bool stdin_mode;  /* -s */
	bool cmd_string;  /* -c */
	/* shopt */
	bool nullglob, failglob, dotglob, nocaseglob, nocasematch, globstar;
	bool expand_aliases; /* on when interactive or POSIX-ish scripts; see main.c */
	bool lastpipe;
	/* bash's -o names that snapshots of a bash session set: accepted and
	 * listed, without effect here (brace expansion is always on). */
	bool braceexpand, interactive_comments, histexpand, history, errtrace, functrace;
	bool physical, privileged, keyword, onecmd;
	unsigned shopt_noop; /* bash shopt names accepted without effect, a bit each */
};

/* How far a break / continue / return / exit unwinds: set by the builtin,
 * checked by the evaluator after every command, cleared where it lands. */
enum exec_jump {
	JUMP_NONE,
	JUMP_BREAK,
	JUMP_CONTINUE,
	JUMP_RETURN,
	JUMP_EXIT,
};

/* Opaque tables, each owned by its module. */
struct var_table;   /* vars.c */
struct func_table;  /* exec.c */
struct alias_table; /* alias.c */
struct job_table;   /* jobs.c */
struct trap_table;  /* trap.c */
struct hash_table;  /* exec.c: the command hash */
struct job;         /* jobs.c: one pipeline or async list */
struct policy;      /* hooks/approve.c */
struct sandbox_state; /* sandbox.c */

/* One level of the call stack bash shows in FUNCNAME, BASH_SOURCE and
 * BASH_LINENO: a function call, or a file being sourced. */
struct call_frame {
	/* Borrowed, not copied (a push per function call): the function's
	 * name and file live while it runs (it is held), the sourced file's
	 * path while the source builtin runs it. */
	const char *name; /* the function, or "source" */
	const char *file; /* where the function was defined, or the sourced file */
	unsigned line;    /* the line it was called from */
};

struct shell {
	struct shell_options opt;

	int last_status;      /* $? */
	pid_t shell_pid;      /* $$: the top shell's pid, also in subshells */
	pid_t parent_pid;     /* $PPID */
	pid_t last_bg_pid;    /* $!, 0 if none yet */
	char *arg0;           /* $0 */
	char **positional;    /* $1.. (NULL-terminated, owned) */
	size_t npositional;

	struct var_table *vars;
	struct func_table *funcs;
	struct alias_table *aliases;
	struct job_table *jobs;
	struct trap_table *traps;
	struct hash_table *cmd_hash;

	enum exec_jump jump;
	unsigned jump_count;  /* break N / continue N: levels still to unwind */
	int exit_status;      /* for JUMP_EXIT */

	unsigned loop_depth;  /* enclosing loops, for break / continue */
	unsigned func_depth;  /* function calls in progress */
	unsigned source_depth;/* . / source files in progress */
	unsigned eval_depth;  /* eval, command substitution and friends: recursion guard */
	/* > 0 while running a condition (if/while test, left of && ||, after !):
	 * errexit does not fire there. */
	unsigned errexit_ignored;

	bool in_subshell;     /* a forked copy of the shell (not the top level) */
	int subshell_level;   /* $BASH_SUBSHELL-like counter */

	const char *source_name; /* script or sourced file, for messages; NULL for -c/stdin */
	char *main_script;       /* the script file run (the stack's bottom), else NULL */
	struct call_frame *frames; /* innermost last */
	size_t nframes, frames_cap;
	unsigned lineno;         /* $LINENO: line of the command being run */

	unsigned alias_generation; /* bumped by alias/unalias: the reader reparses */

	/* getopts: position inside a bundle of short options (-abc). */
	size_t getopts_offset;

	time_t start_time;   /* $SECONDS base */
	uint32_t random_state; /* $RANDOM */

	int tty_fd;          /* the shell's terminal when job control is on, else -1 */
	int broker_fd;       /* socket to the unsandboxed broker, -1 when nobody can be asked */
	bool quiet;          /* sbsh -c whose text needed nobody as written: no broker
	                      * was forked, nobody can be asked (startup.c) */
	bool session_leader; /* on the broker's pty, in a session of our own: our exit
	                      * hangs up the terminal's foreground process group */
	int history_fd;      /* the history file, opened before confinement, or -1 */
	char **sandbox_grants; /* writable folders while the sandbox is on, else NULL */
	char **sandbox_roots; /* the same resolved, on first need (denial.c), else NULL */
	struct policy *policy; /* hooks/approve.c: classification and approvals, NULL when off */
	/* The sandbox whose terminal guard waits for the first program
	 * (shell_guard_before_program), else NULL. */
	struct sandbox_state *pending_guard;
	pid_t shell_pgid;    /* the shell's own process group, for job control */

	/* exec.c: fds of the process substitutions of the command being run;
	 * they stay open until it finishes. */
	int *procsub_fds;
	size_t nprocsub_fds, procsub_cap;
	/* exec.c: how the last status may still trigger errexit and the ERR
	 * trap (EXEC_STATUS_* bits in exec.c): exempt after a failed left side
	 * of && / || or a ! pipeline, handled once an inner command acted. */
	unsigned status_flags;
	/* exec.c: counts command substitutions, so a command without a name
	 * knows whether its status comes from one. */
	unsigned cmdsub_count;
	/* exec.c: nesting of command substitutions, for set -x prefixes. */
	unsigned cmdsub_depth;
	/* exec.c: an interactive shell's foreground job died of SIGINT, or a
	 * nesting limit was hit: the rest of the command line is abandoned. */
	bool interrupted;
	/* exec.c, jobs.c: the statuses of the last pipeline (one for a simple
	 * command), read by the computed array $PIPESTATUS. */
	int *pipestatus;
	size_t npipestatus, pipestatus_cap;
	/* builtins/control.c: an interactive `exit` was refused once because
	 * of stopped jobs; the next one in a row exits. */
	bool exit_warned;
};

/* ---- shell.c: the context and error reporting ------------------------- */

void shell_init(struct shell *sh, char **envp);
void shell_free(struct shell *sh);
/* Prints "sbsh: " [source:LINE: ] message "\n" to stderr. The one place
 * messages are formatted; call it once, where the error is handled. */
void shell_error(struct shell *sh, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Like shell_error but without the source position (usage messages). */
void shell_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* The call stack (struct call_frame): a frame per function call and per
 * sourced file, pushed before it runs and popped after. */
void shell_push_frame(struct shell *sh, const char *name, const char *file, unsigned line);
void shell_pop_frame(struct shell *sh);
/* A script now runs as the shell's main program: the stack starts anew. */
void shell_set_main_script(struct shell *sh, const char *path);
/* Replaces $1.. with a copy of args[0..n). */
void shell_set_positional(struct shell *sh, char *const *args, size_t n);

/* ---- vars.c: variables, scopes, the environment ------------------------ */

enum var_flags {
	VAR_EXPORT = 1 << 0,
	VAR_READONLY = 1 << 1,
	VAR_INTEGER = 1 << 2,  /* declare -i: assignments are evaluated */
	VAR_ARRAY = 1 << 3,    /* indexed array */
	VAR_LOWER = 1 << 4,    /* declare -l */
	VAR_UPPER = 1 << 5,    /* declare -u */
	VAR_NOVALUE = 1 << 6,  /* declared (export x, local x) but never given a value */
	VAR_ASSOC = 1 << 7,    /* declare -A: an associative array (VAR_ARRAY is set too) */
	VAR_NAMEREF = 1 << 8,  /* declare -n: value is the name every use goes to */
};

struct var {
	char *name;
	char *value;      /* scalar value; NULL for arrays and VAR_NOVALUE */
	char **array;     /* VAR_ARRAY: elements; NULL entries are unset. VAR_ASSOC:
	                   * the values, in the order their keys came, no NULLs */
	size_t array_len; /* one past the highest index (VAR_ASSOC: the count) */
	char **keys;      /* VAR_ASSOC: the keys, parallel to array */
	unsigned flags;
};

void vars_init(struct shell *sh, char **envp); /* imports envp, sets IFS, PS1.., PPID, PWD */
void vars_free(struct shell *sh);
/* The visible variable of that name (innermost scope), or NULL. */
struct var *vars_lookup(struct shell *sh, const char *name);
/* The scalar value (element 0 of an array); dynamic ones (RANDOM, SECONDS,
 * LINENO) computed. NULL when unset. The pointer is valid until the next
 * change to variables. */
const char *vars_get(struct shell *sh, const char *name);
/* Set a scalar (in the scope where the variable lives, else the global
 * one). Applies VAR_INTEGER/LOWER/UPPER and allexport; `flags` are added.
 * Returns 0, or -1 after shell_error() when readonly or not a valid name. */
int vars_set(struct shell *sh, const char *name, const char *value, unsigned flags);
int vars_set_array(struct shell *sh, const char *name, char *const *values, size_t n, bool append);
int vars_set_element(struct shell *sh, const char *name, long index, const char *value);
/* Whether v was named by a failed declare -A (then says so; v may be NULL). */
/* Associative arrays (declare -A). vars_declare_assoc makes name one (a
 * scalar's value becomes key "0"; an indexed array cannot be converted:
 * -1 after reporting). Keys stay in the order they were first set. */
int vars_declare_assoc(struct shell *sh, const char *name);
const char *vars_assoc_get(const struct var *v, const char *key);
/* Sets (append: appends to) the value of key in the associative array name. */
int vars_assoc_set(struct shell *sh, const char *name, const char *key, const char *value, bool append);
int vars_assoc_unset(struct shell *sh, const char *name, const char *key);
/* Name references (declare -n). Every vars_* call on a reference acts on
 * the variable it names (followed up to 8 deep; a loop is reported), but
 * these: vars_lookup_ref sees the reference itself, vars_set_nameref
 * makes name one (target NULL: none yet; the first assignment names it),
 * vars_unset_ref (unset -n) removes it. */
struct var *vars_lookup_ref(struct shell *sh, const char *name);
int vars_set_nameref(struct shell *sh, const char *name, const char *target);
int vars_unset_ref(struct shell *sh, const char *name);
/* Returns 0 (also when not set), -1 after shell_error() when readonly. */
int vars_unset(struct shell *sh, const char *name);
int vars_unset_element(struct shell *sh, const char *name, long index);
/* Scopes: a function call pushes one for `local`; a simple command with
 * assignments before a builtin or function pushes a temporary one. */
void vars_push_scope(struct shell *sh);
void vars_pop_scope(struct shell *sh);
/* Declares name in the innermost scope (local). Returns -1 outside a function. */
int vars_make_local(struct shell *sh, const char *name);
/* Sets a variable in the innermost scope (for `FOO=x builtin`). */
int vars_set_temp(struct shell *sh, const char *name, const char *value);
/* NAME=VALUE strings of exported variables, for execve (owned by vars.c,
 * valid until the next change). */
char **vars_environ(struct shell *sh);
/* Calls fn for every visible variable, sorted by name. */
void vars_foreach(struct shell *sh, void (*fn)(struct var *v, void *ctx), void *ctx);
/* Prints a value quoted for reuse as shell input. */
void vars_quote(struct strbuf *out, const char *value);
/* Prints value as $'...', with control characters as escapes. */
void vars_quote_ansi_c(struct strbuf *out, const char *value);
/* Adds and removes attributes (VAR_EXPORT, VAR_READONLY, VAR_INTEGER,
 * VAR_ARRAY...) of the visible variable, creating it without a value in
 * the global scope when there is none (export x, declare -i x). Returns 0,
 * or -1 after shell_error() (removing readonly, bad name). */
int vars_set_flags(struct shell *sh, const char *name, unsigned set, unsigned clear);

/* ---- options.c (vars side): set -o and friends -------------------------- */
/* Return 0, or -1 for an unknown option (no message: callers say it). */
int options_set_letter(struct shell *sh, char letter, bool on);
int options_set_name(struct shell *sh, const char *name, bool on);
/* "$-": the letters of the options that are on (malloc'd). */
char *options_dollar_dash(struct shell *sh);
/* `set -o` (reusable false) or `set +o` (reusable true) listing to stdout. */
void options_print(struct shell *sh, bool reusable);

/* ---- expand.c / arith.c / pattern.c: word expansion --------------------- */

enum expand_flags {
	EXPAND_ASSIGN = 1 << 0,  /* tilde after = and : too (assignment values) */
	EXPAND_PATTERN = 1 << 1, /* keep quoted pattern characters escaped with \ */
	EXPAND_NOTILDE = 1 << 2,
};

/* Full expansion of command words in POSIX order, plus brace expansion:
 * brace, tilde, parameter, command substitution, arithmetic, field
 * splitting, pathname expansion, quote removal. Appends fields to out.
 * Returns 0, or -1 after reporting (the command must not run). */
int expand_words(struct shell *sh, struct word *const *words, size_t nwords, struct strvec *out);
/* One word to one string: no field splitting, no pathname expansion (for
 * assignments, redirection targets, case subjects, here-docs, [[ ]]).
 * Returns a malloc'd string, or NULL after reporting. */
char *expand_word_str(struct shell *sh, const struct word *w, unsigned flags);
/* Expands a prompt string (PS1, PS2, PS4): parameter, command and
 * arithmetic expansion as in double quotes; never fails (returns the raw
 * text on error). Backslash prompt escapes are done by the caller. */
char *expand_prompt(struct shell *sh, const char *text);
/* Splits s by $IFS as field splitting does (for `read`). */
void expand_split_ifs(struct shell *sh, const char *s, struct strvec *out);

/* Evaluates an arithmetic expression (C operators, variables, assignment).
 * Returns 0, or -1 after reporting. */
int arith_eval(struct shell *sh, const char *expr, intmax_t *result);
/* Writes value in decimal into buf (at least ARITH_FORMAT_SIZE bytes);
 * returns the length. Cheaper than snprintf on hot paths. */
enum { ARITH_FORMAT_SIZE = 24 };
size_t arith_format(intmax_t value, char *buf);

/* Shell pattern matching (*, ?, [...], backslash quoting). */
enum pattern_flags {
	PATTERN_NOCASE = 1 << 0,
	PATTERN_PERIOD = 1 << 1, /* a leading . must be matched explicitly */
};
bool pattern_match(const char *pattern, const char *string, unsigned flags);
/* True when pattern has an unquoted *, ? or [. */
bool pattern_has_magic(const char *pattern);
/* Removes backslash quoting from a pattern-escaped string (in place). */
void pattern_unescape(char *s);

/* ---- exec.c: the evaluator -------------------------------------------- */

/* Runs a node; returns its exit status (also stored in sh->last_status). */
int exec_node(struct shell *sh, const struct node *n);
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
/* Runs argv as a simple command that is already expanded (command, xargs-
 * like builtins). Returns the exit status. */
int exec_argv(struct shell *sh, char **argv);
/* Forks: in the child returns 0 and resets traps/state for a subshell; in
 * the parent returns the pid; -1 after reporting. */
pid_t exec_fork(struct shell *sh, bool background);
/* Loads the sandbox's terminal guard if it still waits (sh->pending_guard):
 * every path that starts a program calls it first. Returns 0, or -1 after
 * reporting (then no program may start). */
int shell_guard_before_program(struct shell *sh);
/* Leaves the process: runs the EXIT trap (once), flushes, exits. */
_Noreturn void exec_exit(struct shell *sh, int status);

/* Functions (exec.c). */
const struct node *funcs_lookup(struct shell *sh, const char *name);
void funcs_define(struct shell *sh, const char *name, const struct node *body);
int funcs_unset(struct shell *sh, const char *name);
void funcs_foreach(struct shell *sh, void (*fn)(const char *name, const struct node *body, void *ctx), void *ctx);

/* Command search (exec.c): a malloc'd path for a program name, using and
 * filling the hash table; NULL when not found. */
char *exec_find_program(struct shell *sh, const char *name, const char *path_var);
void exec_hash_clear(struct shell *sh);

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
/* A PATH that finds the standard utilities (command -p). */
const char *exec_default_path(void);
/* The command hash, for the hash builtin: name, path, hits. */
void exec_hash_foreach(struct shell *sh, void (*fn)(const char *name, const char *path, unsigned hits, void *ctx), void *ctx);
/* Prints a function definition as `type` and `declare -f` show it. */
void funcs_print(struct strbuf *out, const char *name, const struct node *body);

/* ---- alias.c ------------------------------------------------------------ */
const char *alias_lookup(struct shell *sh, const char *name);
void alias_define(struct shell *sh, const char *name, const char *value);
int alias_remove(struct shell *sh, const char *name);
void alias_clear(struct shell *sh);
/* For the parser: ctx is the struct shell. */
const char *alias_lookup_for_parser(void *ctx, const char *name);
/* Calls fn for every alias, sorted by name. */
void alias_foreach(struct shell *sh, void (*fn)(const char *name, const char *value, void *ctx), void *ctx);

/* ---- trap.c ------------------------------------------------------------- */
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

/* ---- jobs.c -------------------------------------------------------------- */
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

/* ---- input.c: reading commands ------------------------------------------ */
/* Runs commands from an fd until EOF (scripts, stdin, interactive). Returns
 * the last status. */
int input_run_fd(struct shell *sh, int fd, const char *source_name);
/* Runs a whole file (. and source, scripts): syntax is checked for the whole
 * text before anything runs. */
int input_run_file(struct shell *sh, const char *path, bool must_exist);
int input_run_interactive(struct shell *sh);
/* Runs a file if it exists (profile, rc files); silent when missing. */
int input_run_optional_file(struct shell *sh, const char *path);

#endif
