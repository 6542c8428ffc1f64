/* Aliases: the table the parser consults. */
#ifndef SBSH_ALIAS_H
#define SBSH_ALIAS_H

#include "shell/shell.h"

const char *alias_lookup(struct shell *sh, const char *name);
void alias_define(struct shell *sh, const char *name, const char *value);
int alias_remove(struct shell *sh, const char *name);
void alias_clear(struct shell *sh);
/* For the parser: ctx is the struct shell. */
const char *alias_lookup_for_parser(void *ctx, const char *name);
/* Calls fn for every alias, sorted by name. */
void alias_foreach(struct shell *sh, void (*fn)(const char *name, const char *value, void *ctx), void *ctx);

#endif
