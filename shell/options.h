/* set -o and shopt options, by letter and by name. */
#ifndef SBSH_OPTIONS_H
#define SBSH_OPTIONS_H

#include <stdbool.h>
#include <stddef.h>

#include "shell/shell.h"

/* Return 0, or -1 for an unknown option (no message: callers say it). */
int options_set_letter(struct shell *sh, char letter, bool on);
int options_set_name(struct shell *sh, const char *name, bool on);
/* 1 or 0 for an option's state, -1 when there is no such name. */
int options_get_name(struct shell *sh, const char *name);
/* The i-th long option name in listing order, NULL past the last. */
const char *options_name_at(size_t i);
/* "$-": the letters of the options that are on (malloc'd). */
char *options_dollar_dash(struct shell *sh);
/* `set -o` (reusable false) or `set +o` (reusable true) listing to stdout. */
void options_print(struct shell *sh, bool reusable);
/* $SHELLOPTS: the long names of the options that are on, colon-separated
 * (malloc'd). */
char *options_enabled_names(struct shell *sh);
/* Turns on the options a $SHELLOPTS from the environment names, as bash
 * does at startup; unknown names are skipped. */
void options_import(struct shell *sh, const char *list);

#endif
