/* Assignments: NAME=value and NAME=(...) before a command or alone, and the
 * NAME=value operands of the declaration builtins. */
#ifndef SBSH_ASSIGN_H
#define SBSH_ASSIGN_H

#include <stddef.h>

#include "lib/util.h"
#include "shell/ast.h"
#include "shell/shell.h"

enum assign_mode {
	ASSIGN_PERSIST, /* no command, or a special builtin */
	ASSIGN_TEMP,    /* in a pushed scope, exported to what runs */
};

/* Expands and performs the assignments in order (traced under set -x).
 * Returns 0, or -1 after reporting. */
int assign_apply(struct shell *sh, const struct assign *as, size_t n, enum assign_mode mode);
/* A simple command's words expanded into out, as expand_words does; but
 * when the command is a declaration builtin, its NAME=value and
 * NAME=(...) operands are expanded as assignments (no field splitting or
 * globbing of the value). *array_args: NULL, or a malloc'd flag per entry
 * of out, true where a NAME=(...) array literal was written. Returns 0,
 * or -1 after reporting. */
int assign_expand_argv(struct shell *sh, struct word *const *words, size_t nwords, struct strvec *out,
                       bool **array_args);

#endif
