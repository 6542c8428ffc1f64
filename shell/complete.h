/* In-shell completion for the line editors: commands (builtins, functions,
 * aliases, programs on PATH) in command position, variables after `$`.
 * File names and ~user are left to the line editor's own completer. */
#ifndef SBSH_COMPLETE_H
#define SBSH_COMPLETE_H

#include <stdbool.h>
#include <stddef.h>

#include "shell/shell.h"

/* True when the word starting at offset start of line is in command
 * position (first word, or after ; | & ( and the like). */
bool complete_command_position(const char *line, size_t start);

/* Sorted, unique candidates for text, NULL-terminated (caller frees with
 * strv_free); NULL when the line editor should complete file names. */
char **complete_candidates(struct shell *sh, const char *text, bool command_position);

/* Installs the completer in the configured line editor (no-op without
 * one). Readline's callbacks carry no context, so the shell is kept in a
 * file-level pointer, set once here. */
void complete_install(struct shell *sh);

#endif
