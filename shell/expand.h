/* Word expansion: brace, tilde, parameter, command substitution,
 * arithmetic, field splitting, pathname expansion, quote removal. */
#ifndef SBSH_EXPAND_H
#define SBSH_EXPAND_H

#include <stdbool.h>
#include <stddef.h>

#include "lib/util.h"
#include "shell/ast.h"
#include "shell/shell.h"

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
/* Appends the sorted pathname expansion of pattern (backslash quotes)
 * to out; returns how many (compgen -G). */
size_t expand_glob(struct shell *sh, const char *pattern, struct strvec *out);
/* A subscript given as text at run time (${!ref} with ref='a[$k]', unset
 * 'a["k"]'), expanded as one written in a[...] would be: quotes removed,
 * parameters and arithmetic expanded. Text whose expansion would run a
 * command, or that does not parse, comes back as it is. */
char *expand_subscript_text(struct shell *sh, const char *text);
/* Splits s by $IFS as field splitting does (for `read`). */
void expand_split_ifs(struct shell *sh, const char *s, struct strvec *out);

#endif
