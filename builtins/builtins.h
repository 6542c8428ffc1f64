/* The builtin table: name, the flags the evaluator needs, and
 * the function. One file per builtin or small family implements them. */
#ifndef SBSH_BUILTINS_H
#define SBSH_BUILTINS_H

#include "shell/shell.h"

/* A builtin prints with stdio (stdout/stderr); the evaluator flushes after
 * it and turns a write error into status 1. Errors are reported with
 * shell_error(). Usage errors return 2. */
typedef int builtin_fn(struct shell *sh, int argc, char **argv);

enum builtin_flags {
	BUILTIN_SPECIAL = 1 << 0,     /* POSIX special builtin: assignments persist, errors exit */
	BUILTIN_DECLARATION = 1 << 1, /* export/readonly/local/declare: NAME=value args expanded as assignments */
};

struct builtin {
	const char *name;
	builtin_fn *fn;
	unsigned flags;
};

/* NULL when name is not a builtin. */
const struct builtin *builtin_find(const char *name);
extern const struct builtin builtin_table[];
extern const size_t builtin_count;

/* A small getopt for builtins: no global state, stops at "--" or the first
 * non-option, understands +x where allowed. */
struct builtin_getopt {
	int index;      /* next argv index, starts at 1 */
	size_t offset;  /* position inside a bundle */
	int opt;        /* option character found */
	bool plus;      /* it was written +x */
	char *arg;      /* its argument */
};
/* optstring as getopt(3) ("ab:"), with a leading '+' allowing +x forms.
 * Returns the option char, -1 at the end, '?' after reporting an error. */
int builtin_getopt(struct builtin_getopt *g, int argc, char **argv, const char *optstring, const char *cmd);

/* Prints the numbered signal names, as trap -l and kill -l do (trap.c). */
void builtin_list_signals(void);
/* Prints s to stdout in single quotes, as listings print values for reuse. */
void builtin_print_single_quoted(const char *s);

#define BUILTIN_FN(name) int builtin_##name(struct shell *sh, int argc, char **argv)

/* Language and control (exec side). */
BUILTIN_FN(colon);
BUILTIN_FN(true);
BUILTIN_FN(false);
BUILTIN_FN(break);
BUILTIN_FN(continue);
BUILTIN_FN(return);
BUILTIN_FN(exit);
BUILTIN_FN(dot);      /* . and source */
BUILTIN_FN(eval);
BUILTIN_FN(exec);
BUILTIN_FN(trap);
BUILTIN_FN(times);
BUILTIN_FN(wait);
BUILTIN_FN(jobs);
BUILTIN_FN(fg);
BUILTIN_FN(bg);
BUILTIN_FN(kill);
BUILTIN_FN(command);
BUILTIN_FN(builtin);
BUILTIN_FN(type);
BUILTIN_FN(hash);
BUILTIN_FN(ulimit);
BUILTIN_FN(umask);
BUILTIN_FN(cd);
BUILTIN_FN(pwd);
BUILTIN_FN(alias);
BUILTIN_FN(unalias);
BUILTIN_FN(shopt);
BUILTIN_FN(help);
/* $BASHOPTS: the shopt options that are on, sorted, colon-separated (malloc'd). */
char *shopt_enabled_names(struct shell *sh);
BUILTIN_FN(escape);
BUILTIN_FN(compgen);

/* Variables and options (vars side). */
BUILTIN_FN(export);
BUILTIN_FN(readonly);
BUILTIN_FN(unset);
BUILTIN_FN(set);
BUILTIN_FN(shift);
BUILTIN_FN(getopts);
BUILTIN_FN(read);
BUILTIN_FN(local);
BUILTIN_FN(declare);  /* declare and typeset */
BUILTIN_FN(mapfile);  /* mapfile and readarray */
BUILTIN_FN(let);

/* Utilities. */
BUILTIN_FN(echo);
BUILTIN_FN(printf);
BUILTIN_FN(test);     /* test and [ */

#endif
