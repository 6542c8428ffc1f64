/* No line editor: plain reads from the terminal, no history. */
#include "shell/lineedit.h"
#include "shell/shell.h"
#include "shell/trap.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct lineedit {
	int unused;
};

struct lineedit *lineedit_open(const char *history_path, int history_size, int history_fd)
{
	(void)history_path;
	(void)history_size;
	return xcalloc(1, sizeof(struct lineedit));
}

char *lineedit_read(struct lineedit *le, const char *prompt, bool *interrupted)
{
	(void)le;
	*interrupted = false;
	fputs(prompt, stderr);
	fflush(stderr);
	struct strbuf sb;
	strbuf_init(&sb);
	for (;;) {
		char c;
		ssize_t n = read(0, &c, 1);
		if (n == 1) {
			if (c == '\n')
				break;
			strbuf_addc(&sb, c);
			continue;
		}
		if (n < 0 && errno == EINTR && trap_pending_signal() == SIGHUP) {
			strbuf_free(&sb); /* the terminal went away: the shell ends (trap.c) */
			return NULL;
		}
		if (n < 0 && errno == EINTR) {
			if (trap_take_sigint()) {
				*interrupted = true;
				fputc('\n', stderr);
				strbuf_truncate(&sb, 0);
				break;
			}
			continue;
		}
		if (sb.len == 0) {
			strbuf_free(&sb);
			return NULL;
		}
		break;
	}
	return strbuf_detach(&sb);
}

void lineedit_add_history(struct lineedit *le, const char *line)
{
	(void)le;
	(void)line;
}

void lineedit_close(struct lineedit *le)
{
	free(le);
}

const char *lineedit_name(void)
{
	return "none";
}

bool lineedit_prompt_markers(void)
{
	return false;
}
