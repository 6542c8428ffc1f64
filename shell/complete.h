/* In-shell completion for the line editors: commands (builtins, functions,
 * aliases, programs on PATH) in command position, variables after `$`,
 * ~user; file names are left to the line editor's own completer. The
 * compgen builtin prints the same listings (complete_add). */
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

/* What compgen and the completer list. */
enum complete_kind {
	COMPLETE_ALIASES,
	COMPLETE_BUILTINS,
	COMPLETE_FUNCTIONS,
	COMPLETE_KEYWORDS,
	COMPLETE_PROGRAMS,    /* executables on PATH */
	COMPLETE_COMMANDS,    /* all of the above, in bash's order */
	COMPLETE_VARIABLES,   /* set ones: not those declared without a value */
	COMPLETE_EXPORTS,
	COMPLETE_ARRAYS,
	COMPLETE_USERS,
	COMPLETE_GROUPS,
	COMPLETE_SIGNALS,     /* as trap takes them: EXIT, SIGHUP..., ERR */
	COMPLETE_SETOPT,      /* set -o names */
	COMPLETE_FILES,       /* in the folder the prefix names, or . */
	COMPLETE_DIRECTORIES,
};
/* Appends to out the names of one kind that start with prefix, each kind
 * sorted (aliases, keywords: their own order), duplicates kept. */
void complete_add(struct shell *sh, enum complete_kind kind, const char *prefix, struct strvec *out);

/* Installs the completer in the configured line editor (no-op without
 * one). Readline's callbacks carry no context, so the shell is kept in a
 * file-level pointer, set once here. */
void complete_install(struct shell *sh);

#endif
