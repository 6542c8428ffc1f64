/* The line editor behind the interactive prompt. configure picks one
 * implementation: lineedit-readline.c, lineedit-libedit.c or
 * lineedit-none.c. */
#ifndef SBSH_LINEEDIT_H
#define SBSH_LINEEDIT_H

#include <stdbool.h>

struct lineedit;

/* history_path may be NULL (no history file); history_size <= 0: default. */
struct lineedit *lineedit_open(const char *history_path, int history_size, int history_fd);
/* Reads one line without its newline (malloc'd), or NULL at end of input.
 * Ctrl-C returns an empty line with *interrupted set. */
char *lineedit_read(struct lineedit *le, const char *prompt, bool *interrupted);
void lineedit_add_history(struct lineedit *le, const char *line);
/* Saves the history and frees le. */
void lineedit_close(struct lineedit *le);
/* "readline", "libedit" or "none", for --version. */
const char *lineedit_name(void);
/* True when prompts may carry \001 \002 around invisible sequences. */
bool lineedit_prompt_markers(void);

#endif
