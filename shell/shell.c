/* The shell context: creation, teardown, and the one error printer. */
#include "shell/shell.h"
#include "shell/parser.h"
#include "shell/vars.h"
#include "shell/trap.h"
#include "shell/jobs.h"

#include <dirent.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static void note_own_files(struct shell *sh);

void shell_init(struct shell *sh, char **envp)
{
	memset(sh, 0, sizeof *sh);
	sh->shell_pid = getpid();
	sh->top_pid = sh->shell_pid;
	sh->parent_pid = getppid();
	sh->arg0 = xstrdup("sbsh");
	/* $_ starts as the caller left it (bash: the shell's own path), never unset */
	const char *underscore = getenv("_");
	sh->last_arg = underscore ? xstrdup(underscore) : NULL;
	sh->positional = xcalloc(1, sizeof *sh->positional);
	sh->start_time = time(NULL);
	sh->random_state = (uint32_t)sh->shell_pid ^ (uint32_t)sh->start_time;
	sh->tty_fd = -1;
	sh->broker_fd = -1;
	sh->history_fd = -1;
	sh->opt.hashall = true;
	sh->opt.braceexpand = true;
	sh->opt.interactive_comments = true;
	sh->opt.globskipdots = true;
	vars_init(sh, envp);
	trap_init(sh);
	jobs_init(sh);
	note_own_files(sh);
}

void shell_abandon_line(struct shell *sh)
{
	sh->last_status = 1;
	if (sh->jump != JUMP_NONE)
		return;
	sh->jump = sh->opt.posix && !sh->opt.interactive ? JUMP_EXIT : JUMP_DISCARD;
	sh->exit_status = 1; /* the status the line ends with (a caller may raise it) */
}

bool shell_fd_reserved(int fd)
{
	if (fd <= 2)
		return false;
	int flags = fcntl(fd, F_GETFD);
	return flags >= 0 && (flags & FD_CLOEXEC);
}

/* Terminals, /dev/null and folders are files user code opens by name
 * anyway: only the others (the event stream, sockets, inotify) count. */
static bool own_file_kind(mode_t mode)
{
	return !S_ISCHR(mode) && !S_ISDIR(mode) && !S_ISBLK(mode);
}

static void note_own_files(struct shell *sh)
{
	DIR *d = opendir("/proc/self/fd");
	int limit = 1024;
	struct dirent *e = NULL;
	for (int fd = 3;; fd++) {
		/* /proc lists the open ones; without it, probe the first 1024. */
		if (d) {
			if (!(e = readdir(d)))
				break;
			char *end;
			long n = strtol(e->d_name, &end, 10);
			if (*end || n <= 2 || n == dirfd(d))
				continue;
			fd = (int)n;
		} else if (fd >= limit) {
			break;
		}
		struct stat st;
		if (!shell_fd_reserved(fd) || fstat(fd, &st) != 0 || !own_file_kind(st.st_mode))
			continue;
		sh->own_files = xreallocarray(sh->own_files, sh->nown_files + 1, sizeof *sh->own_files);
		sh->own_files[sh->nown_files++] = (struct shell_own_file){.dev = st.st_dev, .ino = st.st_ino};
	}
	if (d)
		closedir(d);
}

bool shell_file_reserved(const struct shell *sh, const struct stat *st)
{
	if (!own_file_kind(st->st_mode))
		return false;
	for (size_t i = 0; i < sh->nown_files; i++)
		if (sh->own_files[i].dev == st->st_dev && sh->own_files[i].ino == st->st_ino)
			return true;
	return false;
}

void shell_free(struct shell *sh)
{
	jobs_free(sh);
	trap_free(sh);
	vars_free(sh);
	free(sh->arg0);
	free(sh->last_arg);
	free(sh->last_command_text);
	sh->last_command_text = NULL;
	sh->last_arg = NULL;
	free(sh->pipestatus);
	free(sh->own_files);
	sh->pipestatus = NULL;
	sh->npipestatus = sh->pipestatus_cap = 0;
	strv_free(sh->positional);
	sh->arg0 = NULL;
	sh->positional = NULL;
	sh->nframes = 0;
	free(sh->frames);
	sh->frames = NULL;
	sh->frames_cap = 0;
	free(sh->main_script);
	sh->main_script = NULL;
}

void shell_push_frame(struct shell *sh, const char *name, const char *file, unsigned line)
{
	if (sh->nframes == sh->frames_cap) {
		sh->frames_cap = sh->frames_cap ? sh->frames_cap * 2 : 8;
		sh->frames = xreallocarray(sh->frames, sh->frames_cap, sizeof *sh->frames);
	}
	sh->frames[sh->nframes++] = (struct call_frame){.name = name, .file = file, .line = line};
}

void shell_pop_frame(struct shell *sh)
{
	if (sh->nframes > 0)
		sh->nframes--;
}

void shell_set_main_script(struct shell *sh, const char *path)
{
	sh->nframes = 0;
	free(sh->main_script);
	sh->main_script = xstrdup(path);
}

void shell_set_positional(struct shell *sh, char *const *args, size_t n)
{
	char **copy = xcalloc(n + 1, sizeof *copy);
	for (size_t i = 0; i < n; i++)
		copy[i] = xstrdup(args[i]);
	strv_free(sh->positional);
	sh->positional = copy;
	sh->npositional = n;
}

void shell_write_message(const struct strbuf *sb)
{
	/* One write, so concurrent shells do not interleave halves of lines. */
	fflush(stdout);
	size_t off = 0;
	while (off < sb->len) {
		ssize_t n = write(2, sb->data + off, sb->len - off);
		if (n <= 0)
			break;
		off += (size_t)n;
	}
}

/* "sbsh: " [source:LINE: ] message "\n", in one write; no position
 * without sh. */
static void vmessage(const struct shell *sh, const char *fmt, va_list ap)
	__attribute__((format(printf, 2, 0)));

static void vmessage(const struct shell *sh, const char *fmt, va_list ap)
{
	struct strbuf sb;
	strbuf_init(&sb);
	strbuf_adds(&sb, "sbsh: ");
	if (sh && !sh->opt.interactive) {
		if (sh->source_name)
			strbuf_addf(&sb, "%s:%u: ", sh->source_name, sh->lineno);
		else if (sh->opt.cmd_string)
			strbuf_addf(&sb, "-c:%u: ", sh->lineno);
		else if (sh->lineno > 0)
			strbuf_addf(&sb, "line %u: ", sh->lineno); /* a script on stdin, as bash says */
	}
	strbuf_vaddf(&sb, fmt, ap);
	strbuf_addc(&sb, '\n');
	shell_write_message(&sb);
	strbuf_free(&sb);
}

void shell_error(struct shell *sh, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vmessage(sh, fmt, ap);
	va_end(ap);
}

void shell_syntax_error(struct shell *sh, const struct parse_error *e)
{
	sh->lineno = e->pos.line;
	const char *msg = e->message ? e->message : "syntax error";
	if (strncmp(msg, "syntax error", 12) == 0)
		shell_error(sh, "%s", msg);
	else
		shell_error(sh, "syntax error: %s", msg);
}

void shell_warn(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vmessage(NULL, fmt, ap);
	va_end(ap);
}
