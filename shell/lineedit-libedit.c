/* The line editor with libedit's readline compatibility layer. */
#include "shell/lineedit.h"

#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>
#include "shell/shell.h"
#include "shell/trap.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <editline/readline.h>

struct lineedit {
	char *history_path;
	int history_fd; /* opened before the sandbox, which cannot write its folder */
	int history_size;
};

struct lineedit *lineedit_open(const char *history_path, int history_size, int history_fd)
{
	struct lineedit *le = xcalloc(1, sizeof *le);
	le->history_path = history_path ? xstrdup(history_path) : NULL;
	le->history_fd = history_fd;
	le->history_size = history_size > 0 ? history_size : 500;
	rl_readline_name = "sbsh";
	using_history();
	stifle_history(le->history_size);
	if (le->history_path)
		read_history(le->history_path);
	return le;
}

char *lineedit_read(struct lineedit *le, const char *prompt, bool *interrupted)
{
	(void)le;
	*interrupted = false;
	char *line = readline(prompt);
	/* An interrupted read comes back as NULL; SIGINT tells it from EOF. */
	if (trap_take_sigint()) {
		*interrupted = true;
		fputc('\n', stderr);
		free(line);
		return xstrdup("");
	}
	if (!line)
		return NULL;
	char *copy = xstrdup(line);
	free(line);
	return copy;
}

void lineedit_add_history(struct lineedit *le, const char *line)
{
	(void)le;
	if (*line)
		add_history(line);
}

void lineedit_close(struct lineedit *le)
{
	if (!le)
		return;
	if (le->history_fd >= 0) {
		/* libedit writes its own format straight to a path: give it an
		 * in-memory file, then copy that into the real one. */
		int mem = memfd_create("sbsh-history", MFD_CLOEXEC);
		if (mem >= 0) {
			char path[64];
			snprintf(path, sizeof path, "/proc/self/fd/%d", mem);
			if (write_history(path) == 0) {
				struct strbuf sb;
				strbuf_init(&sb);
				char buf[8192];
				ssize_t n;
				off_t off = 0;
				while ((n = pread(mem, buf, sizeof buf, off)) > 0) {
					strbuf_addmem(&sb, buf, (size_t)n);
					off += n;
				}
				util_replace_fd_contents(le->history_fd, sb.data ? sb.data : "", sb.len);
				strbuf_free(&sb);
			}
			close(mem);
		}
	} else if (le->history_path) {
		write_history(le->history_path);
	}
	free(le->history_path);
	free(le);
}

const char *lineedit_name(void)
{
	return "libedit";
}

bool lineedit_prompt_markers(void)
{
	return false;
}
