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

#include "shell/ast.h"
#include "lib/util.h"

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
	bool xpg_echo; /* echo interprets backslash escapes by default */
	bool extglob;  /* @( ) *( ) +( ) ?( ) !( ) in words and patterns */
	bool extdebug; /* declare -F NAME also tells where NAME was defined */
	bool globskipdots; /* globs never match . and .. (bash 5.2's default) */
	bool inherit_errexit; /* command substitutions keep set -e */
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
	/* bash's answer to some errors (an assignment to a read-only
	 * variable, extra operands to break): the rest of the command line is
	 * abandoned, up to the nearest eval, sourced file or top level, which
	 * go on with the next line (status exit_status, 1 mostly). With
	 * discard_text set, -c and eval text end there instead, as in bash. */
	JUMP_DISCARD,
};

/* Opaque tables, each owned by its module. */
struct var_table;   /* vars.c */
struct func_table;  /* funcs.c */
struct alias_table; /* alias.c */
struct job_table;   /* jobs.c */
struct trap_table;  /* trap.c */
struct hash_table;  /* cmdhash.c: the command hash */
struct job;         /* jobs.c: one pipeline or async list */
struct policy;      /* hooks/approve.c */
struct sandbox_state; /* sandbox/sandbox.h */
struct parse_error;  /* parser.h */

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
	/* The process running the top shell: the supervisor's start
	 * (trusted/supervisor.h) moves it to a child, and $$ with it. */
	pid_t top_pid;
	pid_t parent_pid;     /* $PPID */
	pid_t last_bg_pid;    /* $!, 0 if none yet */
	char *arg0;           /* $0 */
	char *last_arg;       /* $_: the last word of the last simple command (NULL: "") */
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
	bool discard_text;    /* JUMP_DISCARD also ends -c and eval text */

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
	/* The simple command being run: what the static pass knew of it binds
	 * its run-time check (hooks/approve.c). Never dereferenced there. */
	const struct node *running_simple;
	/* In a pipeline stage after the first: the stage that writes its
	 * standard input (what an interpreter there reads may be known). */
	const struct node *stdin_producer;
	/* The standard input of the command being checked, when a here-document
	 * or here-string gives it: expanded once, for the check and then for
	 * the redirection (shell/redir.c). */
	struct {
		const struct redir *redir;
		char *body;
		size_t len;
	} expanded_stdin;

	unsigned alias_generation; /* bumped by alias/unalias: the reader reparses */
	unsigned lineno;           /* $LINENO: line of the command being run */

	/* getopts: position inside a bundle of short options (-abc). */
	size_t getopts_offset;

	time_t start_time;   /* $SECONDS base */
	uint32_t random_state; /* $RANDOM */

	int tty_fd;          /* the shell's terminal when job control is on, else -1 */
	int broker_fd;       /* socket to the unsandboxed broker, -1 when nobody can be asked */
	bool quiet;          /* sbsh -c whose text needed nobody as written: no broker
	                      * was forked, nobody can be asked (frontend/startup.c) */
	bool nested_session; /* inside a session: its broker asks the human, and
	                      * nothing here can run outside the sandbox */
	const char *pinned_env; /* "NAME=value" every command gets, whatever the variable
	                         * NAME says by then (frontend/main.c), or NULL */
	bool session_leader; /* on the broker's pty, in a session of our own: our exit
	                      * hangs up the terminal's foreground process group */
	int history_fd;      /* the history file, opened before confinement, or -1 */
	char **sandbox_grants; /* writable folders while the sandbox is on, else NULL */
	const char *sandbox_project; /* the one of them that is the project, or NULL */
	char **sandbox_roots; /* the same resolved, on first need (denial.c), else NULL */
	char **sandbox_hidden; /* what the sandbox hides from reads (resolved paths), else NULL */
	const char *sandbox_config; /* the config file that could unhide them, or NULL */
	struct policy *policy; /* hooks/approve.c: classification and approvals, NULL when off */
	/* The sandbox whose terminal guard waits for the first program
	 * (shell_guard_before_program), else NULL. */
	struct sandbox_state *pending_guard;
	pid_t shell_pgid;    /* the shell's own process group, for job control */

	/* exec.c: fds of the process substitutions of the command being run;
	 * they stay open until it finishes. */
	int *procsub_fds;
	size_t nprocsub_fds, procsub_cap;
	/* exec.c: $BASH_COMMAND, the simple command, [[ ]] or (( )) running
	 * (borrowed from its tree while it runs), else the text of the last
	 * one started, kept only while a trap could read it. */
	const struct node *current_command;
	char *last_command_text;
	/* exec.c: while a declaration builtin runs, a flag per argv entry,
	 * true for a NAME=(...) array literal (shell/assign.c); else NULL. */
	const bool *decl_array_args;
	/* exec.c: the command whose DEBUG trap the shell ran before forking
	 * it; the child does not run it again. */
	const struct node *debug_ran;
	/* exec.c: how the last status may still trigger errexit and the ERR
	 * trap (EXEC_STATUS_* bits in exec.c): exempt after a failed left side
	 * of && / || or a ! pipeline, handled once an inner command acted. */
	unsigned status_flags;
	/* exec.c: counts command substitutions, so a command without a name
	 * knows whether its status comes from one. */
	unsigned cmdsub_count;
	/* exec.c: nesting of command substitutions, for xtrace.c's prefixes. */
	unsigned cmdsub_depth;
	/* exec.c: an interactive shell's foreground job died of SIGINT, or a
	 * nesting limit was hit: the rest of the command line is abandoned. */
	bool interrupted;
	/* builtins/control.c: an interactive `exit` was refused once because
	 * of stopped jobs; the next one in a row exits. */
	bool exit_warned;
	/* exec.c, jobs.c: the statuses of the last pipeline (one for a simple
	 * command), read by the computed array $PIPESTATUS. */
	int *pipestatus;
	size_t npipestatus, pipestatus_cap;
	/* shell.c: the files behind the descriptors sbsh held for itself when
	 * the shell was made (the event stream, the warden's socket...), so a
	 * path such as /dev/fd/N or /proc/self/fd/N cannot reopen one. */
	struct shell_own_file *own_files;
	size_t nown_files;
};

struct shell_own_file {
	dev_t dev;
	ino_t ino;
};

/* ---- shell.c: the context and error reporting ------------------------- */

void shell_init(struct shell *sh, char **envp);
void shell_free(struct shell *sh);
/* Prints "sbsh: " [source:LINE: ] message "\n" to stderr. The one place
 * messages are formatted; call it once, where the error is handled. */
void shell_error(struct shell *sh, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* A syntax error from the parser, at its line, "syntax error" in front. */
void shell_syntax_error(struct shell *sh, const struct parse_error *e);
/* After an error bash answers by abandoning the command line
 * (JUMP_DISCARD); under set -o posix a non-interactive shell exits
 * instead, as POSIX 2.8.1 and dash have it. Does nothing when a jump is
 * already under way. */
void shell_abandon_line(struct shell *sh);
/* Like shell_error but without the source position (usage messages). */
void shell_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Writes sb to stderr in one write, after flushing stdout: messages, set -x
 * lines, `time` reports. */
void shell_write_message(const struct strbuf *sb);
/* The call stack (struct call_frame): a frame per function call and per
 * sourced file, pushed before it runs and popped after. */
void shell_push_frame(struct shell *sh, const char *name, const char *file, unsigned line);
void shell_pop_frame(struct shell *sh);
/* A script now runs as the shell's main program: the stack starts anew. */
void shell_set_main_script(struct shell *sh, const char *path);
/* The descriptor is one sbsh holds for itself, which no redirection may
 * name, move or close: above 2 and close-on-exec. Every descriptor user code
 * can have is not close-on-exec (inherited ones, those redirections make),
 * while the shell opens each of its own with O_CLOEXEC (broker and warden
 * sockets, inotify, the event stream, the terminal, saved copies). */
bool shell_fd_reserved(int fd);
struct stat;
/* The file (after symlinks, /dev/fd/N and /proc/PID/fd/N) is one behind a
 * descriptor of the shell's own (sh->own_files). */
bool shell_file_reserved(const struct shell *sh, const struct stat *st);
/* Replaces $1.. with a copy of args[0..n). */
void shell_set_positional(struct shell *sh, char *const *args, size_t n);

#endif
