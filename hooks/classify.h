/* The command classifier: judges a whole parsed command line (static pass)
 * and the final argv of each command about to run (dynamic pass). Pure:
 * AST or argv in, verdicts out; it never runs anything. The rules of
 * judgement are in docs/policy.md. */
#ifndef SBSH_CLASSIFY_H
#define SBSH_CLASSIFY_H

#include <stdbool.h>
#include <time.h>
#include <stddef.h>
#include <sys/types.h>

#include "shell/ast.h"

/* Ordered by severity: when a line holds several, the highest wins. */
enum verdict {
	VERDICT_SAFE,
	VERDICT_ASK,
	VERDICT_DELETE,
	VERDICT_PUBLISH,
	VERDICT_FORCE_PUSH,
	VERDICT_ESCAPE,
};

/* "SAFE", "ASK", "DELETE", "PUBLISH", "FORCE_PUSH", "ESCAPE". */
const char *verdict_name(enum verdict v);

/* One judged command. */
struct classify_item {
	enum verdict verdict;
	char *reason;   /* "rm deletes files"; "" when nothing applies */
	char *command;  /* the normalised command text */
	char *word;     /* the word that decided it, or NULL */
	size_t word_at; /* where word starts in command (prompts mark it there) */
	struct src_range range; /* of that word (static pass), when has_range */
	bool has_range;
	unsigned depth; /* 0 for the line itself, > 0 inside sh -c / eval text */
	/* A word is a pattern pathname expansion may change, or starts with
	 * ~: what it names is known only when it runs. */
	bool globbed;
};

/* Where a command's standard input comes from, as far as it is known. */
enum stdin_kind {
	STDIN_NONE,    /* the terminal or nothing in particular */
	STDIN_TEXT,    /* known text (here-doc, here-string, echo |) */
	STDIN_UNKNOWN, /* a download, a variable, another program's output */
	STDIN_FILE,    /* an existing file: opaque project code */
};

struct stdin_src {
	enum stdin_kind kind;
	const char *text;
};

/* What the static pass knew of one simple command of the line's own AST
 * (not of text parsed on the way), which its final argv no longer shows:
 * where its standard input comes from, the programs of its <( ) words.
 * The run-time check judges the argv with these (hooks/approve.c). */
struct classify_binding {
	const struct node *node;
	enum verdict verdict;   /* the static pass's, for the answers given up front */
	enum stdin_kind stdin_kind;
	char *stdin_text;       /* owned; NULL when not known */
	const struct node **procsubs; /* of its <( ) words, in order (the line's AST) */
	size_t nprocsubs;
	size_t first, end;      /* its items: items[first..end) */
};

/* What the run-time check is told besides the argv. */
struct classify_facts {
	struct stdin_src in;
	const struct node *const *procsubs; /* what /dev/fd/N operands read, in order */
	size_t nprocsubs;
	char *const *written; /* files written earlier on the line: read when run as scripts */
	size_t nwritten;
	/* When the line began: a file changed since (its ctime, which nothing
	 * sets back) and named by a word of the line was written on the line
	 * too, by whatever wrote it (cp, tee, a python one-liner). A file the
	 * line changed without naming it (configure's output, git pull's) is
	 * the project's. */
	struct timespec line_start;
	char *const *words;
	const struct node *const *word_nodes;
	size_t nwords;
	const struct node *self; /* the command judged: its own words name nothing */
};

/* An agent's script judged as shell code, as it was when judged: the
 * program reads it as it runs, so it must stay so (shell/exec.c). */
struct classify_sealed {
	char *path; /* resolved */
	dev_t dev;
	ino_t ino;
	off_t size;
	struct timespec ctime;
};

struct classify_result {
	enum verdict verdict; /* the line's: the highest of its items */
	struct classify_item *items;
	size_t nitems, cap;
	struct classify_binding *bindings; /* classify_static only */
	size_t nbindings, bcap;
	size_t *bind_slots; /* open addressing by node address: index + 1, 0 free */
	size_t nslots;
	char **written; /* classify_static: files the line writes (names as written) */
	size_t nwritten;
	char **words;   /* classify_static: the known words of the line's commands (bounded) */
	const struct node **word_nodes; /* the command each is a word of */
	size_t nwords;
	/* classify_argv: the agent's scripts the program will read as shell
	 * code as it runs (sh FILE, what that sources), and whether the shell
	 * code it reads from standard input was judged from its text. */
	struct classify_sealed *sealed;
	size_t nsealed;
	bool seal_stdin;
};

/* The binding of a simple command node, or NULL. */
const struct classify_binding *classify_binding_of(const struct classify_result *r, const struct node *n);

void classify_result_init(struct classify_result *r);
void classify_result_free(struct classify_result *r);

/* Where the classifier finds git configuration (aliases, mirror remotes).
 * NULL fields fall back to the process environment / working directory at
 * the time of each lookup (so after `cd`, leave cwd NULL). */
struct classify_env {
	const char *home;            /* $HOME */
	const char *xdg_config_home; /* $XDG_CONFIG_HOME */
	const char *cwd;             /* the shell's working directory */
	bool no_git_config;          /* do not read git config files at all */
};

/* Long-lived state: the git config cache (by path and mtime). One per
 * shell; not thread-safe. */
struct classifier;

struct classifier *classifier_create(const struct classify_env *env);
void classifier_destroy(struct classifier *cl);
/* Extra rules from the config file, `classify = VERDICT PROGRAM [OPERAND...]`:
 * a command whose program has PROGRAM's basename, and whose first operands
 * (the arguments that are not options) match the OPERANDs (`*` globs), gets
 * at least VERDICT (DELETE, PUBLISH, FORCE_PUSH, ESCAPE or ASK; a rule never
 * lowers a verdict: pre-approval is the allow-list's job). Wrapped commands
 * (`sudo`, `env`, `xargs`...) are matched too. Returns 0, or -1 with *error
 * (malloc'd) when spec is not a rule; cl may be NULL to only check. */
int classifier_add_rule(struct classifier *cl, const char *spec, char **error);
/* A classifier for this process's environment with the config file's rules
 * (already checked when the config was read; NULL-terminated, or NULL). */
struct classifier *classifier_with_rules(char *const *rules);

/* The shell changed directory or HOME: later git lookups use these. The
 * strings are copied. */
void classifier_set_env(struct classifier *cl, const struct classify_env *env);
/* The folders the sandbox lets the shell write (copied): a program found
 * there is judged by what it is, not only by its name (a copy of rm is rm,
 * a script runs its #! line). NULL: the project, the temp folders and the
 * sandbox's caches, as the sandbox grants them. */
void classifier_set_writable(struct classifier *cl, char *const *folders);

/* Where the classifier reads the variables git will find in its
 * environment (GIT_DIR, GIT_CONFIG_*, HOME...): the shell's exported
 * variables, which differ from this process's environ after an `export`.
 * Without one, getenv(). */
typedef const char *classify_lookup_fn(void *ctx, const char *name);
/* Whether a command inside shell text (sh -c '...', a here-document for a
 * shell) is pre-approved at verdict v: then it counts as SAFE there, so an
 * allow entry for `rm -r build` covers `bash -c 'rm -r build'` too. */
typedef bool classify_approved_fn(void *ctx, char *const *argv, enum verdict v);
void classifier_set_approved(struct classifier *cl, classify_approved_fn *approved, void *ctx);
void classifier_set_lookup(struct classifier *cl, classify_lookup_fn *lookup, void *ctx);
/* Whether a program file a command runs (sh FILE, ./FILE, python3 FILE,
 * source FILE, the Makefile of make, the package.json of npm run) is the
 * agent's: new or changed since the human accepted the project, or in a
 * folder every session writes. Its text is then judged, in both passes, as
 * the line's own would be; the human's stays opaque project code (rule 10). */
typedef bool classify_agent_file_fn(void *ctx, const char *name);
void classifier_set_agent_file(struct classifier *cl, classify_agent_file_fn *agent_file, void *ctx);

/* Static pass over the AST of a whole command line (every node, nested
 * programs and shell text included). Appends items to *out and raises
 * out->verdict. Returns the line's verdict. */
enum verdict classify_static(struct classifier *cl, const struct node *program,
                             struct classify_result *out);

/* Parses text with sbsh's parser and judges it statically. Returns -1 on a
 * syntax error (with *err_message set, caller frees; the result is then
 * ASK, never SAFE), else 0. */
int classify_text(struct classifier *cl, const char *text, size_t len,
                  struct classify_result *out, char **err_message);

/* What the dynamic pass is looking at. */
enum classify_target {
	CLASSIFY_PROGRAM,  /* an external program (resolved_path is its path) */
	CLASSIFY_BUILTIN,  /* a builtin: argv[0] is its name */
	CLASSIFY_FUNCTION, /* a shell function: its body is judged as it runs */
};

/* Dynamic pass: the final, expanded argv of a simple command the shell is
 * about to run. For programs pass the resolved path (after PATH lookup and
 * realpath): its basename names the tool too, so a ./ls linking to rm is rm
 * (argv[0] is judged as well: busybox applets, npm-cli.js launchers).
 * Standard input is not looked at here: the static pass judged where it
 * comes from. Appends one item (plus nested ones) to *out; returns the
 * verdict. The evaluator calls it at the hook in exec.c with
 * CLASSIFY_PROGRAM, and for builtins with CLASSIFY_BUILTIN (eval, trap,
 * command, exec, escape... are judged through their arguments); functions
 * need no call, their commands are judged as they run. */
enum verdict classify_argv(struct classifier *cl, char *const *argv, const char *resolved_path,
                           enum classify_target target, struct classify_result *out);
/* The same, told what the static pass knew (NULL: nothing). */
enum verdict classify_argv_facts(struct classifier *cl, char *const *argv, const char *resolved_path,
                                 enum classify_target target, const struct classify_facts *facts,
                                 struct classify_result *out);

/* What a pipeline stage writes when it is a constant (echo or printf of
 * known words, cat of a here-document): *text (malloc'd), true; else false. */
bool classify_producer_output(struct classifier *cl, const struct node *producer, char **text);

#endif
