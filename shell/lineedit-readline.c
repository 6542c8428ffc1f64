/* The line editor with GNU readline. */
#include "shell/lineedit.h"
#include "shell/shell.h"
#include "shell/trap.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <readline/history.h>
#include <readline/readline.h>

struct lineedit {
	char *history_path;
	int history_fd; /* opened before the sandbox, which cannot write its folder */
	int history_size;
};

/* Set by our key reader, which readline calls without context. */
static volatile sig_atomic_t line_cancelled;

/* readline's key reader, replaced so that Ctrl-C (noticed by the shell's
 * own SIGINT handler, which interrupts the read) ends the line at once:
 * the line is emptied and accepted, and lineedit_read reports it. */
static int read_key(FILE *in)
{
	for (;;) {
		unsigned char c;
		ssize_t n = read(fileno(in), &c, 1);
		if (n == 1)
			return c;
		if (n == 0)
			return EOF;
		if (errno != EINTR)
			return EOF;
		rl_check_signals(); /* readline's own, e.g. a window resize */
		if (trap_pending_signal() == SIGHUP)
			return EOF; /* the terminal went away: the shell ends (trap.c) */
		if (trap_take_sigint()) {
			line_cancelled = 1;
			rl_replace_line("", 0);
			return '\n';
		}
	}
}

struct lineedit *lineedit_open(const char *history_path, int history_size, int history_fd)
{
	struct lineedit *le = xcalloc(1, sizeof *le);
	le->history_path = history_path ? xstrdup(history_path) : NULL;
	le->history_fd = history_fd;
	le->history_size = history_size > 0 ? history_size : 500;
	rl_readline_name = "sbsh";
	/* The shell owns SIGINT; readline hears about it via read_key. */
	rl_catch_signals = 0;
	rl_getc_function = read_key;
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
	if (le->history_fd >= 0) {
		/* The library would write through a temp file beside the path,
		 * which the sandbox forbids: the entries are written here, in
		 * the plain format read_history reads. */
		struct strbuf sb;
		strbuf_init(&sb);
		int first = history_length > le->history_size ? history_length - le->history_size : 0;
		for (int i = first; i < history_length; i++) {
			HIST_ENTRY *e = history_get(history_base + i);
			if (e && e->line) {
				strbuf_adds(&sb, e->line);
				strbuf_addc(&sb, '\n');
			}
		}
		util_replace_fd_contents(le->history_fd, sb.data ? sb.data : "", sb.len);
		strbuf_free(&sb);
	} else if (le->history_path) {
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
