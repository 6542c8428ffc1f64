/* set -o and shopt options, by letter and by name. */
#ifndef SBSH_OPTIONS_H
#define SBSH_OPTIONS_H

#include <stdbool.h>
#include <stddef.h>

#include "shell/shell.h"

/* Return 0, or -1 for an unknown option (no message: callers say it). */
int options_set_letter(struct shell *sh, char letter, bool on);
int options_set_name(struct shell *sh, const char *name, bool on);
/* "$-": the letters of the options that are on (malloc'd). */
char *options_dollar_dash(struct shell *sh);
/* `set -o` (reusable false) or `set +o` (reusable true) listing to stdout. */
void options_print(struct shell *sh, bool reusable);

#endif
