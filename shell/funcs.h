/* Shell functions: the table of definitions, and how one is printed. */
#ifndef SBSH_FUNCS_H
#define SBSH_FUNCS_H

#include "lib/util.h"
#include "shell/ast.h"
#include "shell/shell.h"

const struct node *funcs_lookup(struct shell *sh, const char *name);
void funcs_define(struct shell *sh, const char *name, const struct node *body);
int funcs_unset(struct shell *sh, const char *name);
void funcs_foreach(struct shell *sh, void (*fn)(const char *name, const struct node *body, void *ctx), void *ctx);
/* Prints a function definition as `type` and `declare -f` show it. */
void funcs_print(struct strbuf *out, const char *name, const struct node *body);

#endif
