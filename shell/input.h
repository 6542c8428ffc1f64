/* Reading commands: files, stdin, the interactive loop. */
#ifndef SBSH_INPUT_H
#define SBSH_INPUT_H

#include <stdbool.h>
#include <stddef.h>

#include "shell/shell.h"

/* Runs commands from an fd until EOF (scripts, stdin, interactive). Returns
 * the last status. */
int input_run_fd(struct shell *sh, int fd, const char *source_name);
/* Runs a file (. and source, scripts) one command at a time, each parsed
 * just before it runs. */
int input_run_file(struct shell *sh, const char *path, bool must_exist);
int input_run_interactive(struct shell *sh);
/* Runs a file if it exists (profile, rc files); silent when missing. */
int input_run_optional_file(struct shell *sh, const char *path);
/* A prompt string with its backslash escapes done, then parameter and
 * command expansion (PS1, ${x@P}); markers: \[ \] become \001 \002 for
 * the line editor, else they are dropped. */
char *input_expand_prompt(struct shell *sh, const char *ps, bool markers);

#endif
