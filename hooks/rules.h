/* Internal to the classifier: the argument model shared by the engine
 * (classify.c) and the rules: rules.c dispatches to the table and the tool
 * handlers under rules/. */
#ifndef SBSH_RULES_H
#define SBSH_RULES_H

#include <stdbool.h>
#include <stddef.h>

#include "shell/ast.h"
#include "hooks/classify.h"

/* One argument as far as the classifier can know it before it runs.
 * Pointers first, flags last (no padding between them); build one with
 * designated initializers, so the order never matters. */
struct sarg {
	const char *text;           /* the value; for an unknown one, its known prefix */
	const struct word *word;    /* static pass: the source word, else NULL */
	const struct node *procsub; /* the whole word is <( ): its program */
	bool known;                 /* no part of it depends on run-time values */
	bool splits;                /* an unknown part is unquoted: may become several words */
	bool pattern;               /* has unquoted * ? [: pathname expansion may change it */
};

/* What a command reads on standard input, when that is shell text or code. */
struct judgement {
	enum verdict v;
	const char *reason; /* static text or allocated in the context's arena */
	int at;             /* index of the deciding argument, -1 for none */
};

struct cctx;

/* ---- engine services for the handlers (classify.c) ---- */

/* Whether an operand names a descriptor (/dev/fd/N, /proc/self/fd/N)
 * rather than a file: what it reads is another program's output. */
bool cl_names_descriptor(const char *s);

/* Judges an argv (the first element names the command). */
struct judgement cl_judge_argv(struct cctx *c, const struct sarg *a, size_t n,
                               const struct stdin_src *in);
/* NAME=VALUE pairs in the environment of what is judged next (a command's
 * own assignments, env's operands), until cl_env_pop with the mark. */
struct cl_env_mark {
	const char *const *names;
	const struct sarg *values;
	size_t n;
};
struct cl_env_mark cl_env_push(struct cctx *c, const char *const *names, const struct sarg *values, size_t n);
void cl_env_pop(struct cctx *c, struct cl_env_mark mark);
/* Parses and judges shell text as a nested program, appending its items.
 * pos/npos: its positional parameters ($0 first) when known, else NULL. */
struct judgement cl_judge_text(struct cctx *c, const char *text, const struct sarg *pos,
                               size_t npos, bool share_state);
/* The verdict of text judged as cl_judge_text does, recording nothing (a
 * string in code that may not be a command at all). */
struct judgement cl_judge_text_quietly(struct cctx *c, const char *text);
/* The same, the text's commands reading in as their standard input (the
 * shell running the text was given it). */
struct judgement cl_judge_text_in(struct cctx *c, const char *text, const struct sarg *pos, size_t npos,
                                  bool share_state, const struct stdin_src *in);
/* Judges the program of a <( ) used as a script or as standard input. */
struct stdin_src cl_procsub_output(struct cctx *c, const struct node *program);
/* Text of a program file that is to be judged as text: 1 known (*text),
 * 0 such a file whose text is not known, -1 the human's project code. A
 * file is judged when written earlier on this line, or when it is the
 * agent's (new or changed since the human accepted the project, or in a
 * temp folder: see classifier_set_agent_file). */
int cl_written_file(struct cctx *c, const char *name, const char **text);
/* In the run-time check: name (a script whose text was just judged as
 * shell code) is read by the program as it runs, so it is kept from
 * changing while it does; "" for the program's standard input. */
void cl_seal(struct cctx *c, const char *name);
/* The same, counting only files written earlier on this line. */
int cl_written_on_line(struct cctx *c, const char *name, const char **text);
/* Whether the command being judged is run by this shell itself (the
 * line's own commands, a builtin at run time), so that what it sources
 * is judged command by command as it runs; false inside text parsed on
 * the way (sh -c, eval), which another shell may run. */
bool cl_runs_here(const struct cctx *c);
/* A variable in the environment the command being judged will get: its
 * own assignments (NAME=v cmd, env NAME=v cmd, and those of the commands
 * it runs under), then the line's, then the shell's exported variables.
 * NULL when unset; *known false when set to something not known before it
 * runs. */
const char *cl_env_get(struct cctx *c, const char *name, bool *known);
/* True when name is as sbsh found it at startup (with what sbsh itself
 * set then): neither this line nor an earlier one changed it. */
bool cl_env_inherited(struct cctx *c, const char *name);
/* The git alias value for name from the config files git would read, or
 * NULL. dir: the -C directory, gitdir: --git-dir, each NULL if not given.
 * *unread: one of those files, too big to read (what it says is not
 * known), or NULL. */
const char *cl_git_config_alias(struct cctx *c, const char *dir, const char *gitdir, const char *name,
                                const char **unread);
/* True when the config git would read makes a plain push destructive
 * (remote.*.mirror = true, or a forced / deleting remote.*.push); *unread
 * as above. */
bool cl_git_config_forces_push(struct cctx *c, const char *dir, const char *gitdir, const char **unread);
/* Arena memory and copies that live as long as the classification. */
void *cl_alloc(struct cctx *c, size_t n);
char *cl_strdup(struct cctx *c, const char *s);
char *cl_strndup(struct cctx *c, const char *s, size_t n);
char *cl_printf(struct cctx *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* ---- rules in the shape of a `classify =` line (rules/spec.c) ---- */

/* A verdict for a program whose first operands (the arguments that are not
 * options, nor their values) match: the built-in subcommand rules
 * (rules/table.c) and the config file's `classify = VERDICT PROGRAM
 * [OPERAND...]` lines (classify.c) alike. */
struct operand_rule {
	enum verdict verdict;
	const char *operands; /* space-separated globs ("publish", "dist-tag add", "deploy:*");
	                       * "" any; "^" none at all (built-in only) */
	const char *reason;   /* built-in only, like the two below */
	const char *unless;   /* flags that make it SAFE (the tool's dry runs) */
	const char *requires; /* flags without which the rule does not apply */
};

enum operands_match {
	OPERANDS_DIFFER,
	OPERANDS_MATCH,   /* *at: the last word matched (0 when the rule names none) */
	OPERANDS_UNKNOWN, /* *at: a word that decides is not known before it runs */
};

/* Matches r's operands, in order, against the words a[idx[0]], a[idx[1]]...
 * (nw of them: the operands as the caller reads its argv). */
enum operands_match rules_match_operands(const struct operand_rule *r, const struct sarg *a, const int *idx,
                                         size_t nw, int *at);

/* ---- the rules (rules.c, rules/) ---- */

/* Judges a command whose name (a basename) is known; args[0] is the name as
 * written. Unknown names and builtins that re-enter the shell are handled
 * here too. */
struct judgement rules_judge(struct cctx *c, const char *name, const struct sarg *a, size_t n,
                             const struct stdin_src *in);
/* An assignment NAME=value before a command: some programs run the value
 * (GIT_PAGER, GIT_SSH_COMMAND, EDITOR...). */
struct judgement rules_judge_environment(struct cctx *c);
struct judgement rules_judge_env_assignment(struct cctx *c, const char *name, const struct sarg *value);
/* Whether the rules know a program of that name (a basename): a copy of
 * such a system program can be what makes a command dangerous. */
bool rules_name_known(const char *name);
/* A program in a folder the sandbox can write that is neither a script nor
 * a copy of a system program (policy rule 8): ASK when it is called the
 * way rm is, else SAFE. */
struct judgement rules_judge_unknown_binary(struct cctx *c, const struct sarg *a, size_t n);
/* Known delete calls in inline code (python -c, node -e, perl -e ...). */
struct judgement rules_judge_code(struct cctx *c, const char *lang, const char *code);

static inline struct judgement judgement_make(enum verdict v, const char *reason, int at)
{
	struct judgement j = {v, reason, at};
	return j;
}

static inline struct judgement judgement_max(struct judgement a, struct judgement b)
{
	return b.v > a.v ? b : a;
}

#endif
