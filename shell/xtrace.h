/* set -x: each command about to run, after $PS4, on stderr. The callers
 * check sh->opt.xtrace. */
#ifndef SBSH_XTRACE_H
#define SBSH_XTRACE_H

#include <stdbool.h>
#include <stddef.h>

#include "shell/shell.h"

/* The words of a command, quoted where needed. */
void xtrace_argv(struct shell *sh, char *const *argv);
/* Text as it is: [[ ]] and (( )) commands. */
void xtrace_text(struct shell *sh, const char *text);
/* A head formatted as printf does, then value quoted where needed:
 * "NAME=value", "for x in value". */
void xtrace_value(struct shell *sh, const char *value, const char *head_fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* NAME=(v1 v2 ...), or NAME+=(...). */
void xtrace_array(struct shell *sh, const char *name, bool append, char *const *vals, size_t n);

#endif
