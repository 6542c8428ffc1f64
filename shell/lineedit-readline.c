/* The line editor with GNU readline. */
#include "lineedit.h"
#include "shell.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <readline/history.h>
#include <readline/readline.h>

struct lineedit {
	char *history_path;
	int history_size;
};

/* Set by the signal-event hook, which readline calls without context. */
static volatile sig_atomic_t line_cancelled;

/* readline calls this when a read is interrupted by a signal: Ctrl-C
 * (noticed by the shell's own SIGINT handler) abandons the line. */
static int on_signal_event(void)
{
	if (trap_take_sigint()) {
		line_cancelled = 1;
		rl_replace_line("", 0);
		rl_done = 1;
	}
	return 0;
}

struct lineedit *lineedit_open(const char *history_path, int history_size)
{
	struct lineedit *le = xcalloc(1, sizeof *le);
	le->history_path = history_path ? xstrdup(history_path) : NULL;
	le->history_size = history_size > 0 ? history_size : 500;
	rl_readline_name = "sbsh";
	/* The shell owns SIGINT; readline only hears about it via the hook. */
	rl_catch_signals = 0;
	rl_signal_event_hook = on_signal_event;
	using_history();
	stifle_history(le->history_size);
	if (le->history_path)
		read_history(le->history_path);
	return le;
}

char *lineedit_read(struct lineedit *le, const char *prompt, bool *interrupted)
{
	(void)le;
	line_cancelled = 0;
	*interrupted = false;
	char *line = readline(prompt);
	if (line_cancelled) {
		*interrupted = true;
		fputc('\n', stderr);
		free(line);
		return xstrdup("");
	}
	if (!line)
		return NULL;
	/* Hand back memory from our allocator. */
	char *copy = xstrdup(line);
	free(line);
	return copy;
}

void lineedit_add_history(struct lineedit *le, const char *line)
{
	(void)le;
	if (!*line)
		return;
	HIST_ENTRY *last = history_length > 0 ? history_get(history_base + history_length - 1) : NULL;
	if (last && strcmp(last->line, line) == 0)
		return;
	add_history(line);
}

void lineedit_close(struct lineedit *le)
{
	if (!le)
		return;
	if (le->history_path) {
		write_history(le->history_path);
		history_truncate_file(le->history_path, le->history_size);
	}
	free(le->history_path);
	free(le);
}

const char *lineedit_name(void)
{
	return "readline";
}

bool lineedit_prompt_markers(void)
{
	return true;
}
