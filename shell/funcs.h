/* Shell functions: the table of definitions, and how one is printed. */
#ifndef SBSH_FUNCS_H
#define SBSH_FUNCS_H

#include <stdbool.h>

#include "lib/util.h"
#include "shell/ast.h"
#include "shell/shell.h"

/* A definition in the table. A call holds it (funcs_hold) while the body
 * runs, so that a redefinition or unset meanwhile frees it only at
 * funcs_release. */
struct func {
	char *name;
	char *source;    /* the file it was defined in (BASH_SOURCE), or NULL */
	struct node *body;
	unsigned refs;   /* calls in progress: a redefinition must not free it */
	bool unlinked;
	struct func *next;
};

const struct node *funcs_lookup(struct shell *sh, const char *name);
/* The definition itself, for a call; NULL when there is none. */
struct func *funcs_find(struct shell *sh, const char *name);
void funcs_hold(struct func *f);
void funcs_release(struct func *f);
void funcs_define(struct shell *sh, const char *name, const struct node *body);
int funcs_unset(struct shell *sh, const char *name);
/* Forgets every function (a script started by execve's ENOEXEC fallback). */
void funcs_clear(struct shell *sh);
void funcs_foreach(struct shell *sh, void (*fn)(const char *name, const struct node *body, void *ctx), void *ctx);
/* Prints a function definition as `type` and `declare -f` show it. */
void funcs_print(struct strbuf *out, const char *name, const struct node *body);

#endif
