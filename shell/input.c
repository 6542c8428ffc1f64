/* Reading commands: whole files (scripts, . and source), stdin line by line
 * without reading past what the commands parsed so far need, and the
 * interactive prompt. */
#include "shell/shell.h"
#include "hooks/approve.h"
#include "shell/complete.h"
#include "shell/lineedit.h"
#include "shell/parser.h"
#include "shell/users.h"
#include "shell/vars.h"
#include "shell/expand.h"
#include "shell/exec.h"
#include "shell/alias.h"
#include "shell/trap.h"
#include "shell/jobs.h"
#include "shell/input.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#ifndef PACKAGE_VERSION
#define PACKAGE_VERSION "0.1"
#endif

/* ---- whole files ------------------------------------------------------------ */

/* NUL bytes cannot be part of C strings in the shell: drop them, as bash
 * does, instead of cutting words short. */
static void drop_nul_bytes(struct strbuf *sb)
{
	char *nul = memchr(sb->data, '\0', sb->len);
	if (!nul)
		return;
	size_t out = (size_t)(nul - sb->data);
	for (size_t i = out; i < sb->len; i++)
		if (sb->data[i] != '\0')
			sb->data[out++] = sb->data[i];
	strbuf_truncate(sb, out);
}

/* Reads a file into memory; -1 after reporting with the status to use. */
static int slurp_file(struct shell *sh, const char *path, struct strbuf *out, int *status, bool quiet_missing)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		if (!(quiet_missing && errno == ENOENT))
			shell_warn("%s: %s", path, strerror(errno));
		*status = errno == ENOENT ? STATUS_NOTFOUND : STATUS_NOEXEC;
		return -1;
	}
	struct stat st;
	if (fstat(fd, &st) == 0 && S_ISDIR(st.st_mode)) {
		shell_warn("%s: Is a directory", path);
		close(fd);
		*status = STATUS_NOEXEC;
		return -1;
	}
	if (st.st_size > 0)
		strbuf_reserve(out, (size_t)st.st_size + 1);
	char buf[65536];
	for (;;) {
		ssize_t n = read(fd, buf, sizeof buf);
		if (n > 0) {
			strbuf_addmem(out, buf, (size_t)n);
			continue;
		}
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			shell_warn("%s: %s", path, strerror(errno));
			close(fd);
			*status = STATUS_NOEXEC;
			return -1;
		}
		break;
	}
	close(fd);
	(void)sh;
	drop_nul_bytes(out);
	return 0;
}

/* Runs a file's text one command at a time, each parsed just before it
 * runs, as bash and dash read a script: `shopt -s extglob` and aliases
 * defined by one command apply to the commands after it, and a syntax
 * error ends the file where it is, after what came before has run. */
static int run_text(struct shell *sh, const char *text, size_t len, const char *name)
{
	struct parser_options o = {
		.source_name = name,
		.first_line = 1,
		.alias_lookup = alias_lookup_for_parser,
		.alias_ctx = sh,
		.at_eof = true,
		.extglob = &sh->opt.extglob,
	};
	struct parser *p = parser_create(text, len, &o);
	int status = 0;
	size_t printed = 0; /* set -v: the text echoed so far */
	for (;;) {
		struct node *node = NULL;
		int rc = parser_next(p, &node);
		/* set -v: echo the input read for this command, as a reader going
		 * line by line would, before it runs (or is reported). */
		size_t end = rc < 0 ? len : parser_offset(p);
		if (sh->opt.verbose && end > printed) {
			fwrite(text + printed, 1, end - printed, stderr);
			fflush(stderr);
		}
		printed = end;
		if (rc == 0)
			break;
		if (rc < 0) {
			shell_syntax_error(sh, parser_error(p));
			status = STATUS_SYNTAX;
			sh->last_status = status;
			/* In a sourced file it ends a non-interactive shell under
			 * set -o posix, as in dash; bash returns from the file. */
			if (sh->source_depth > 0 && sh->opt.posix && !sh->opt.interactive) {
				sh->jump = JUMP_EXIT;
				sh->exit_status = status;
			}
			break;
		}
		policy_line_begin(sh, node);
		status = exec_node(sh, node);
		policy_line_end(sh);
		ast_node_free(node);
		/* A command abandoned by a nesting limit ends at the top level. */
		if (sh->eval_depth == 0 && sh->func_depth == 0 && sh->source_depth == 0 && !sh->opt.interactive)
			sh->interrupted = false;
		if (sh->jump == JUMP_DISCARD)
			status = exec_catch_discard(sh);
		if (sh->jump != JUMP_NONE || sh->interrupted)
			break;
	}
	parser_destroy(p);
	return status;
}

int input_run_file(struct shell *sh, const char *path, bool must_exist)
{
	struct strbuf text;
	strbuf_init(&text);
	int status = 0;
	if (slurp_file(sh, path, &text, &status, !must_exist) != 0) {
		strbuf_free(&text);
		return status;
	}
	const char *saved_name = sh->source_name;
	unsigned saved_line = sh->lineno;
	sh->source_name = path;
	status = run_text(sh, text.data ? text.data : "", text.len, path);
	sh->source_name = saved_name;
	sh->lineno = saved_line;
	strbuf_free(&text);
	return status;
}

int input_run_optional_file(struct shell *sh, const char *path)
{
	if (access(path, R_OK) != 0)
		return 0;
	return input_run_file(sh, path, false);
}

/* ---- line by line --------------------------------------------------------- */

struct reader {
	struct shell *sh;
	int fd;
	bool seekable;
	struct lineedit *le; /* interactive */
	bool interrupted;
	const char *name;
};

/* Appends one line (with its newline, if any) from an fd. The fd offset
 * ends right after the line, so commands reading stdin see the rest. */
static bool read_fd_line(struct reader *r, struct strbuf *out)
{
	size_t start = out->len;
	if (r->seekable) {
		char buf[4096];
		for (;;) {
			ssize_t n = read(r->fd, buf, sizeof buf);
			if (n < 0 && errno == EINTR)
				continue;
			if (n <= 0)
				return out->len > start;
			char *nl = memchr(buf, '\n', (size_t)n);
			size_t take = nl ? (size_t)(nl - buf) + 1 : (size_t)n;
			for (size_t i = 0; i < take; i++)
				if (buf[i] != '\0')
					strbuf_addc(out, buf[i]);
			if (nl) {
				if ((ssize_t)take < n)
					lseek(r->fd, (off_t)take - (off_t)n, SEEK_CUR);
				return true;
			}
		}
	}
	for (;;) {
		char c;
		ssize_t n = read(r->fd, &c, 1);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return out->len > start;
		if (c == '\0')
			continue;
		strbuf_addc(out, c);
		if (c == '\n')
			return true;
	}
}

static void add_home_relative(struct shell *sh, struct strbuf *sb, const char *dir)
{
	const char *home = vars_get(sh, "HOME");
	size_t hl = home ? strlen(home) : 0;
	if (hl > 1 && strncmp(dir, home, hl) == 0 && (dir[hl] == '/' || dir[hl] == '\0')) {
		strbuf_addc(sb, '~');
		strbuf_adds(sb, dir + hl);
	} else {
		strbuf_adds(sb, dir);
	}
}

char *input_expand_prompt(struct shell *sh, const char *ps, bool markers)
{
	struct strbuf sb;
	strbuf_init(&sb);
	for (const char *p = ps; *p; p++) {
		if (*p != '\\' || !p[1]) {
			strbuf_addc(&sb, *p);
			continue;
		}
		p++;
		switch (*p) {
		case 'u': {
			users_prepare();
			struct passwd *pw = getpwuid(geteuid());
			const char *u = vars_get(sh, "USER");
			strbuf_adds(&sb, pw ? pw->pw_name : (u ? u : "?"));
			break;
		}
		case 'h':
		case 'H': {
			char host[256];
			if (gethostname(host, sizeof host) != 0)
				strcpy(host, "localhost");
			host[sizeof host - 1] = '\0';
			if (*p == 'h') {
				char *dot = strchr(host, '.');
				if (dot)
					*dot = '\0';
			}
			strbuf_adds(&sb, host);
			break;
		}
		case 'w':
		case 'W': {
			const char *pwd = vars_get(sh, "PWD");
			if (!pwd)
				pwd = "";
			if (*p == 'W') {
				const char *home = vars_get(sh, "HOME");
				if (home && strcmp(pwd, home) == 0) {
					strbuf_addc(&sb, '~');
				} else {
					const char *slash = strrchr(pwd, '/');
					strbuf_adds(&sb, slash && slash[1] ? slash + 1 : pwd);
				}
			} else {
				add_home_relative(sh, &sb, pwd);
			}
			break;
		}
		case '$':
			strbuf_addc(&sb, geteuid() == 0 ? '#' : '$');
			break;
		case 'n':
			strbuf_addc(&sb, '\n');
			break;
		case 'r':
			strbuf_addc(&sb, '\r');
			break;
		case 'a':
			strbuf_addc(&sb, '\a');
			break;
		case 'e':
			strbuf_addc(&sb, '\033');
			break;
		case 's':
			strbuf_adds(&sb, "sbsh");
			break;
		case 'v':
		case 'V':
			strbuf_adds(&sb, PACKAGE_VERSION);
			break;
		case '\\':
			strbuf_addc(&sb, '\\');
			break;
		case 't':
		case 'T':
		case 'A': {
			time_t now = time(NULL);
			struct tm tm;
			localtime_r(&now, &tm);
			char buf[32];
			strftime(buf, sizeof buf, *p == 'A' ? "%H:%M" : (*p == 't' ? "%H:%M:%S" : "%I:%M:%S"), &tm);
			strbuf_adds(&sb, buf);
			break;
		}
		case 'd': {
			time_t now = time(NULL);
			struct tm tm;
			localtime_r(&now, &tm);
			char buf[32];
			strftime(buf, sizeof buf, "%a %b %d", &tm);
			strbuf_adds(&sb, buf);
			break;
		}
		case '[':
			if (markers)
				strbuf_addc(&sb, '\001');
			break;
		case ']':
			if (markers)
				strbuf_addc(&sb, '\002');
			break;
		default:
			strbuf_addc(&sb, '\\');
			strbuf_addc(&sb, *p);
			break;
		}
	}
	char *expanded = expand_prompt(sh, sb.data);
	strbuf_free(&sb);
	return expanded;
}

static bool reader_line(struct reader *r, struct strbuf *buf, bool continuation)
{
	struct shell *sh = r->sh;
	r->interrupted = false;
	if (!r->le) {
		size_t start = buf->len;
		bool ok = read_fd_line(r, buf);
		if (ok && sh->opt.verbose) {
			fwrite(buf->data + start, 1, buf->len - start, stderr);
			fflush(stderr);
		}
		return ok;
	}
	const char *ps = vars_get(sh, continuation ? "PS2" : "PS1");
	char *prompt = input_expand_prompt(sh, ps ? ps : "", lineedit_prompt_markers());
	fflush(stdout);
	char *line = lineedit_read(r->le, prompt, &r->interrupted);
	free(prompt);
	if (!line) {
		/* End of input from a terminal that hung up: the kernel's SIGHUP
		 * goes to the session's leader, which below a supervisor is not
		 * the shell (trusted/supervisor.c relays it, maybe after this
		 * end): the jobs hear of the hangup now, as from the signal. */
		if (sh->opt.monitor && sh->tty_fd >= 0 && tcgetpgrp(sh->tty_fd) < 0 && errno == EIO)
			jobs_hangup(sh);
		return false;
	}
	if (sh->opt.verbose) {
		fputs(line, stderr);
		fputc('\n', stderr);
	}
	strbuf_adds(buf, line);
	strbuf_addc(buf, '\n');
	free(line);
	return true;
}

static unsigned count_lines(const char *s, size_t n)
{
	unsigned c = 0;
	for (size_t i = 0; i < n; i++)
		if (s[i] == '\n')
			c++;
	return c;
}

/* An incomplete command is parsed again after every line until that has
 * cost this many times its length (some 16 lines), so a syntax error in a
 * short command an agent writes shows at once; past it, a script is
 * streaming in and only a line that could end the command is worth a
 * parse. The total stays linear in the input. */
#define WAIT_AFTER_WORK 8

/* Whether the line just read (s, n bytes) may complete a command whose
 * last parse ended incomplete waiting for w. Parsing again after every
 * line would make a long here-document or quoted string on stdin cost
 * time quadratic in its length. */
/* Words that are syntax where a command starts. */
static bool reserved_word(const char *w, size_t n)
{
	static const char *const words[] = {"!",    "{",    "}",     "case",  "do",       "done",   "elif",
	                                    "else", "esac", "fi",    "for",   "if",       "in",     "then",
	                                    "until", "while", "time", "[[",   "]]",       "function", "select",
	                                    "coproc"};
	for (size_t i = 0; i < sizeof words / sizeof words[0]; i++)
		if (strlen(words[i]) == n && memcmp(words[i], w, n) == 0)
			return true;
	return false;
}

/* Whether a line cannot complete a command still waiting for one after
 * `&&`, `||` or `|`: it is plain words (no quote, expansion, redirection,
 * assignment or other operator; the first no reserved word; none an alias)
 * and itself ends in one of those. Anything else may, and is parsed. */
static bool line_needs_command_too(struct shell *sh, const char *s, size_t n)
{
	while (n && (s[n - 1] == ' ' || s[n - 1] == '\t'))
		n--;
	if (n >= 2 && (memcmp(s + n - 2, "&&", 2) == 0 || memcmp(s + n - 2, "||", 2) == 0))
		n -= 2;
	else if (n >= 1 && s[n - 1] == '|')
		n--;
	else
		return false;
	bool first = true, any = false;
	size_t i = 0;
	while (i < n) {
		if (s[i] == ' ' || s[i] == '\t') {
			i++;
			continue;
		}
		size_t start = i;
		while (i < n && s[i] != ' ' && s[i] != '\t') {
			unsigned char c = (unsigned char)s[i];
			if (!(isalnum(c) || strchr("_-./:,+%@^~", c)) || c >= 0x80)
				return false;
			i++;
		}
		char word[256];
		size_t len = i - start;
		if (len >= sizeof word || (first && reserved_word(s + start, len)))
			return false;
		memcpy(word, s + start, len);
		word[len] = '\0';
		if (alias_lookup_for_parser(sh, word))
			return false;
		first = false;
		any = true;
	}
	return any;
}

static bool line_may_complete(struct shell *sh, const struct parse_error *w, const char *s, size_t n)
{
	if (n && s[n - 1] == '\n')
		n--;
	if (n && s[n - 1] == '\\')
		return true; /* a continuation joins it to what follows */
	if (w->wait_command)
		return !line_needs_command_too(sh, s, n);
	size_t k = strlen(w->wait_for);
	if (!w->wait_line)
		return memmem(s, n, w->wait_for, k) != NULL;
	if (w->wait_strip)
		while (n && *s == '\t') {
			s++;
			n--;
		}
	return n == k && memcmp(s, w->wait_for, k) == 0;
}

static int run_reader(struct reader *r)
{
	struct shell *sh = r->sh;
	bool interactive = r->le != NULL;
	struct strbuf buf;
	strbuf_init(&buf);
	unsigned line = 1;
	int status = 0;
	int eof_count = 0;
	struct parse_error wait = {0}; /* the last parse's, while waiting */
	bool waiting = false;
	size_t work = 0; /* bytes parsed since the buffer was last empty */
	for (;;) {
		if (interactive && buf.len == 0) {
			jobs_reap(sh);
			trap_run_pending(sh);
			if (sh->jump == JUMP_EXIT)
				break;
		}
		if (interactive && buf.len == 0) {
			trap_take_sigint(); /* a Ctrl-C already acted on */
			sh->interrupted = false;
		}
		size_t line_start = buf.len;
		bool eof = !reader_line(r, &buf, buf.len > 0);
		if (waiting && !eof && !(interactive && r->interrupted) &&
		    !line_may_complete(sh, &wait, buf.data + line_start, buf.len - line_start))
			continue;
		waiting = false;
		if (interactive && r->interrupted) {
			strbuf_truncate(&buf, 0);
			sh->last_status = 130;
			continue;
		}
		if (eof && interactive && buf.len == 0) {
			/* A hangup ended the read: the shell dies of it (trap.c). */
			trap_run_pending(sh);
			if (sh->opt.ignoreeof && ++eof_count < 10) {
				fputs("Use \"exit\" to leave the shell.\n", stderr);
				continue;
			}
			fputs("exit\n", stderr);
			break;
		}
		eof_count = 0;
		if (eof && buf.len == 0)
			break;
		struct parser_options o = {
			.source_name = r->name,
			.first_line = line,
			.alias_lookup = alias_lookup_for_parser,
			.alias_ctx = sh,
			.at_eof = eof,
			.extglob = &sh->opt.extglob,
		};
		work += buf.len;
		struct parser *p = parser_create(buf.data, buf.len, &o);
		size_t consumed = 0;
		bool added_history = false;
		for (;;) {
			struct node *node = NULL;
			int rc = parser_next(p, &node);
			if (rc == 0) {
				consumed = buf.len;
				break;
			}
			if (rc < 0) {
				const struct parse_error *e = parser_error(p);
				if (e->incomplete && !eof) {
					waiting = (e->wait_for[0] || e->wait_command) &&
					          work / WAIT_AFTER_WORK >= buf.len - consumed;
					if (waiting) {
						wait = *e;
						wait.message = NULL;
					}
					break;
				}
				if (interactive && !added_history) {
					char *h = xstrndup(buf.data, buf.len && buf.data[buf.len - 1] == '\n' ? buf.len - 1 : buf.len);
					lineedit_add_history(r->le, h);
					free(h);
				}
				shell_syntax_error(sh, e);
				status = STATUS_SYNTAX;
				sh->last_status = status;
				consumed = buf.len;
				if (!interactive) {
					sh->jump = JUMP_EXIT;
					sh->exit_status = status;
				}
				break;
			}
			if (interactive && !added_history) {
				/* The whole complete text so far is one history entry. */
				size_t end = buf.len;
				while (end > 0 && buf.data[end - 1] == '\n')
					end--;
				char *h = xstrndup(buf.data, end);
				lineedit_add_history(r->le, h);
				free(h);
				added_history = true;
			}
			consumed = parser_offset(p);
			policy_line_begin(sh, node);
			status = exec_node(sh, node);
			policy_line_end(sh);
			ast_node_free(node);
			/* A command line abandoned (Ctrl-C, a nesting limit) ends here. */
			sh->interrupted = false;
			if (sh->jump == JUMP_DISCARD)
				status = exec_catch_discard(sh);
			if (interactive) {
				if (sh->jump == JUMP_BREAK || sh->jump == JUMP_CONTINUE || sh->jump == JUMP_RETURN)
					sh->jump = JUMP_NONE;
			}
			if (sh->jump != JUMP_NONE)
				break;
		}
		parser_destroy(p);
		line += count_lines(buf.data, consumed);
		if (consumed > 0)
			work = 0; /* a command ended: the budget is the next one's */
		if (consumed >= buf.len) {
			strbuf_truncate(&buf, 0);
		} else {
			memmove(buf.data, buf.data + consumed, buf.len - consumed);
			strbuf_truncate(&buf, buf.len - consumed);
		}
		if (sh->jump == JUMP_EXIT)
			break;
		if (sh->jump != JUMP_NONE) {
			/* break / continue / return at the top level end nothing */
			sh->jump = JUMP_NONE;
		}
		if (eof && buf.len == 0)
			break;
		if (eof) {
			/* The parser could not use the rest even at EOF. */
			break;
		}
	}
	strbuf_free(&buf);
	return sh->jump == JUMP_EXIT ? sh->exit_status : status;
}

int input_run_fd(struct shell *sh, int fd, const char *source_name)
{
	struct reader r = {.sh = sh, .fd = fd, .name = source_name};
	r.seekable = lseek(fd, 0, SEEK_CUR) >= 0;
	const char *saved = sh->source_name;
	sh->source_name = source_name;
	int status = run_reader(&r);
	sh->source_name = saved;
	return status;
}

int input_run_interactive(struct shell *sh)
{
	char *hist = util_history_path(vars_get(sh, "XDG_STATE_HOME"), vars_get(sh, "HOME"));
	const char *hs = vars_get(sh, "HISTSIZE");
	int size = hs ? atoi(hs) : 0;
	users_prepare(); /* readline expands ~user itself */
	struct lineedit *le = lineedit_open(hist, size, sh->history_fd);
	complete_install(sh);
	struct reader r = {.sh = sh, .fd = 0, .le = le};
	int status = run_reader(&r);
	lineedit_close(le);
	free(hist);
	return status;
}
