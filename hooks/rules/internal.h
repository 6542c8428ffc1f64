/* Internal to the rules (hooks/rules.c and hooks/rules/): the data shapes
 * of the table (table.c), the argument helpers (args.c), and what each
 * family of handlers offers the table and the other families. */
#ifndef SBSH_RULES_INTERNAL_H
#define SBSH_RULES_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <string.h>

#include "hooks/rules.h"

#define J(v, r, at) judgement_make((v), (r), (at))
#define SAFE_J J(VERDICT_SAFE, NULL, -1)

/* ---- the shapes of the data (table.c) ---- */

/* A handler: judges a command named name (a basename) by reading its
 * arguments. Each family below declares the handlers the table names. */
typedef struct judgement tool_fn(struct cctx *c, const char *name, const struct sarg *a, size_t n,
                                 const struct stdin_src *in);

/* Ends a spec's rules (struct operand_rule: hooks/rules.h). */
#define RULES_END {.operands = NULL}

enum {
	SPEC_ANYWHERE = 1 << 0, /* rules match any word (make-like goals and tasks) */
	SPEC_TASKPATH = 1 << 1, /* words may be written :project:task */
};

/* A tool that is just "these subcommands, these flags". */
struct tool_spec {
	const char *short_arg; /* options taking an argument */
	const char *long_arg;
	unsigned flags;
	const char *dry_run;   /* flags that make every rule SAFE */
	const struct operand_rule *rules;
};

enum wrap_mode {
	WRAP_ARGV,     /* the rest is a command's argv */
	WRAP_TEXT,     /* the rest, joined with spaces, is shell text */
	WRAP_XARGS,    /* argv, plus arguments read from stdin */
	WRAP_DASHDASH, /* only after "--" (before it: the wrapper's own words) */
};

struct wrapper {
	const char *sub;         /* "run" for `poetry run`, or NULL */
	const char *short_arg;   /* short options taking an argument */
	const char *long_arg;    /* long options taking an argument ("--user|--group") */
	unsigned npos;           /* operands before the command (timeout: the duration) */
	enum wrap_mode mode;     /* WRAP_ARGV when not given */
	const char *text_opts;   /* options whose argument is shell text ("-c|--command") */
	const char *safe_opts;   /* options meaning no command runs ("-v|-V|-l") */
	const char *shell_opts;  /* options that make the rest shell text (sudo -s) */
};

/* node, deno, bun, perl, ruby, php, lua, Rscript: code options and stdin. */
struct interp {
	const char *lang;
	const char *code_opts;  /* "-e|--eval|-p|--print" */
	const char *short_code; /* letters that end a cluster with code (perl -ne) */
	const char *arg_opts;   /* options taking a non-code argument */
};

struct dbclient {
	const char *sql_opts;   /* options whose argument is SQL / script text */
	const char *arg_opts;   /* other options with an argument */
	const char *file_opts;  /* options naming a script file (opaque) */
	unsigned sql_operand;   /* operands from this (1-based) on are SQL; 0 none */
	bool words_are_command; /* redis-cli: the operands are the command */
};

/* A row of the table: a name and one of the ways to judge it. */
struct tool {
	const char *name;
	tool_fn *fn;                  /* a handler */
	const struct tool_spec *spec; /* subcommands and flags */
	const struct wrapper *wrap;   /* options, then another command */
	const struct interp *interp;  /* code in options or on standard input */
	const struct dbclient *db;    /* SQL in options, operands or standard input */
};

/* The tool of that name (a basename), or NULL. */
const struct tool *rules_tool_find(const char *name);
/* For the unit tests: NULL when the table is sorted for bsearch, each row
 * names one way to judge its tool, and no rule repeats its spec's dry run
 * flags; else the name of the first row that does not. */
const char *rules_table_check(void);

/* Data that handlers use directly. */
extern const struct interp interp_php;
extern const struct wrapper w_watch_text, w_watch_argv, w_perf_stat, w_perf_record, w_perf_trace, w_ldso;
extern const struct tool_spec spec_pypi;
extern const struct tool_spec spec_terraform;
extern const struct tool_spec spec_dbtools;
extern const struct tool_spec spec_kubectl;
extern const struct tool_spec spec_compose;
extern const struct tool_spec spec_cloud;

/* ---- argument helpers (args.c) ---- */

static inline bool eq(const char *a, const char *b)
{
	return strcmp(a, b) == 0;
}

static inline bool starts(const char *s, const char *prefix)
{
	return strncmp(s, prefix, strlen(prefix)) == 0;
}

static inline bool kn(const struct sarg *a, const char *s)
{
	return a->known && strcmp(a->text, s) == 0;
}

bool in_list(const char *list, const char *s, size_t slen);
bool in_lists(const char *list, const char *s);
int find_word(const struct sarg *a, size_t from, size_t n, const char *words);
size_t dashdash(const struct sarg *a, size_t from, size_t n);
bool options_end(const char *t, size_t *i);
bool arg_is_flag(const struct sarg *a, const char *flags, bool clusters);
bool long_abbrev_of(const char *t, size_t len, const char *flags);
int gfind(const struct sarg *a, size_t from, size_t n, const char *flags);
bool ghas(const struct sarg *a, size_t from, size_t n, const char *flags);
int find_flag(const struct sarg *a, size_t from, size_t n, const char *flags);
bool has_flag(const struct sarg *a, size_t from, size_t n, const char *flags);
bool dry_run(const struct sarg *a, size_t from, size_t n, const char *flags);
int first_unknown(const struct sarg *a, size_t from, size_t n);
int first_splitting_unknown(const struct sarg *a, size_t from, size_t n);
bool name_says_publish(const char *s, bool release);
const char *base_name(const char *s);
const char *join_args(struct cctx *c, const struct sarg *a, size_t n);
bool all_known(const struct sarg *a, size_t n);
struct judgement judge_partial_text(struct cctx *c, const char *what, const char *text, int at);
struct judgement judge_shell_text(struct cctx *c, const char *what, const struct sarg *text,
                                  const struct sarg *pos, size_t npos, int at);
struct judgement judge_shell_text_in(struct cctx *c, const char *what, const struct sarg *text,
                                     const struct sarg *pos, size_t npos, int at, const struct stdin_src *in);
struct judgement judge_rest(struct cctx *c, const char *what, const struct sarg *a, size_t n,
                            const struct stdin_src *in, int at);
struct judgement judge_as_command(struct cctx *c, const char *prog, const struct sarg *a, size_t from, size_t n,
                                  const struct stdin_src *in);
size_t skip_options(const struct sarg *a, size_t from, size_t n, const char *value_opts);
size_t operand_indexes(const struct sarg *a, size_t n, const char *value_opts, int *idx, size_t max);
/* "NAME subcommand is not known before it runs" (ASK) at a. */
struct judgement judge_unknown_subcommand(struct cctx *c, const char *name, size_t at);
/* True when there is no subcommand at s (*j SAFE) or it is not known (*j ASK). */
bool no_known_subcommand(struct cctx *c, const char *name, const struct sarg *a, size_t s, size_t n,
                         struct judgement *j);
size_t builtin_operands(const struct sarg *a, size_t n);
bool contains(const char *hay, const char *needle);
size_t git_split_alias(struct cctx *c, const char *v, struct sarg *out, size_t max);

/* ---- the subcommand matcher (spec.c) ---- */

struct judgement judge_spec(struct cctx *c, const char *name, const struct tool_spec *sp,
                            const struct sarg *a, size_t n);

/* ---- interpreters, shells, inline code (interp.c) ---- */

bool ci_word_then(const char *text, const char *w, const char *next_list);
bool data_destroying_text(const char *t);
struct judgement judge_code_arg(struct cctx *c, const char *lang, const struct sarg *a, int at);
/* NODE_OPTIONS, PERL5OPT, RUBYOPT, PYTHONPATH set to value: the agent's
 * files they make every such interpreter load first, judged (interp.c). */
struct judgement rules_judge_env_loads(struct cctx *c, const char *name, const char *value);
/* The shell commands make runs for its goals from makefile text (makefile.c). */
const char *make_recipes(struct cctx *c, const char *text, const char *dir, const char *name, const struct sarg *a,
                         size_t n, bool *unknown);
/* A program's code operand: 1 with *text when it is text to judge (the
 * agent's), 0 when its text is not known, -1 for the human's project file. */
int code_operand_text(struct cctx *c, const struct sarg *x, const struct stdin_src *in, const char **text);
/* A shell's script, a file (its operands after it in pos: $0 is the file)
 * or standard input. */
struct judgement judge_script_source(struct cctx *c, const char *what, const struct sarg *file,
                                     const struct sarg *pos, size_t npos, const struct stdin_src *in, int at);
struct judgement judge_interp(struct cctx *c, const struct interp *ip, const struct sarg *a, size_t n,
                              const struct stdin_src *in);
tool_fn judge_shell, judge_python, judge_awk, judge_eval, judge_trap, judge_compgen, judge_source, judge_deno,
	judge_php, judge_editor, judge_task_runner;

/* ---- inline code that builds names (code.c) ---- */

/* code with its string literals joined as the language joins them. */
const char *code_fold(struct cctx *c, const char *code);
/* DELETE when the code reaches a delete function by a literal name
 * (getattr(os, "unlink")), ASK when it reaches a function or code by a
 * value, or builds the text of a command it runs (runs: the calls that
 * run one); else SAFE. */
struct judgement code_computed(struct cctx *c, const char *lang, const char *code, const char *folded,
                               const char *const *runs);

/* ---- wrappers (wrappers.c) ---- */

struct judgement judge_wrapper(struct cctx *c, const char *name, const struct wrapper *w,
                               const struct sarg *a, size_t n, const struct stdin_src *in);
tool_fn judge_find, judge_fd, judge_env, judge_busybox, judge_coreutils, judge_parallel,
	judge_watch, judge_nix, judge_runner_misc;

/* ---- files and disks (files.c) ---- */

tool_fn judge_sed, judge_rm_like, judge_rsync, judge_writer, judge_archiver, judge_disk, judge_cmake, judge_make, judge_tar,
	judge_rg;

/* ---- git and gh (git.c) ---- */

tool_fn judge_git, judge_gh;

/* ---- package managers and publishing (pkg.c) ---- */

struct judgement judge_pkg_runner(struct cctx *c, const char *what, const struct sarg *a, size_t s, size_t n,
                                  const struct stdin_src *in);
tool_fn judge_pm, judge_npx, judge_pyrunner, judge_gradle;

/* ---- containers and clusters (containers.c) ---- */

tool_fn judge_docker, judge_skopeo, judge_kubectl;

/* ---- cloud, deploy, data stores, databases (cloud.c) ---- */

tool_fn judge_surge, judge_aws, judge_gsutil, judge_http, judge_restore, judge_mysqladmin;
struct judgement judge_db(struct cctx *c, const char *name, const struct dbclient *d, const struct sarg *a,
                          size_t n, const struct stdin_src *in);

/* ---- host bridges (host.c) ---- */

tool_fn judge_at, judge_screen, judge_systemctl, judge_ssh, judge_escape, judge_terminal;

#endif
