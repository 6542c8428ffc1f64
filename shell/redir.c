/* Redirections. Every fd the shell keeps for itself (saved copies, the
 * terminal) lives at 10 or above with close-on-exec, so commands never
 * inherit them. */
#include "shell/redir.h"
#include "sandbox/denial.h"
#include "shell/vars.h"
#include "shell/expand.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Bodies up to this size go through a pipe written before the command
 * starts; the kernel's default pipe buffer (64 KiB) holds them without
 * blocking. Larger ones use a temporary file. */
#define REDIR_PIPE_MAX 60000

/* Keeps a copy of fd for redir_restore. Returns false after reporting
 * when no copy can be made (no fd left): the redirection must not happen,
 * or restoring would close the fd instead of putting it back. */
static bool save_fd(struct shell *sh, struct redir_saved *save, int fd)
{
	if (!save)
		return true;
	int copy = fcntl(fd, F_DUPFD_CLOEXEC, 10);
	if (copy < 0 && errno != EBADF) {
		shell_error(sh, "redirection error: cannot duplicate fd %d: %s", fd,
		            strerror(errno == EINVAL ? EMFILE : errno));
		return false;
	}
	if (save->len == save->cap) {
		save->cap = save->cap ? save->cap * 2 : 4;
		save->items = xreallocarray(save->items, save->cap, sizeof *save->items);
	}
	save->items[save->len].fd = fd;
	save->items[save->len].saved = copy; /* -1 (EBADF): it was closed */
	save->len++;
	return true;
}

void redir_restore(struct redir_saved *save)
{
	while (save->len > 0) {
		struct redir_saved_fd *s = &save->items[--save->len];
		if (s->saved >= 0) {
			dup2(s->saved, s->fd);
			close(s->saved);
		} else {
			close(s->fd);
		}
	}
	free(save->items);
	save->items = NULL;
	save->cap = 0;
}

static bool write_all(int fd, const char *data, size_t len)
{
	while (len > 0) {
		ssize_t n = write(fd, data, len);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			return false;
		}
		data += n;
		len -= (size_t)n;
	}
	return true;
}

int redir_data_fd(struct shell *sh, const char *data, size_t len)
{
	if (len <= REDIR_PIPE_MAX) {
		/* The writer must never block (nobody reads yet): a pipe can be
		 * one page when the user's pipe quota is used up, so write
		 * without blocking and fall back to a file when it is full. */
		int p[2];
		if (pipe2(p, O_CLOEXEC) == 0) {
			fcntl(p[1], F_SETFL, O_NONBLOCK);
			bool ok = write_all(p[1], data, len);
			close(p[1]);
			if (ok)
				return p[0];
			close(p[0]);
		}
	}
	const char *dir = getenv("TMPDIR");
	if (sh) {
		const char *v = vars_get(sh, "TMPDIR");
		if (v && *v)
			dir = v;
	}
	if (!dir || !*dir)
		dir = "/tmp";
	char *path = xasprintf("%s/sbsh-heredoc-XXXXXX", dir);
	int fd = mkostemp(path, O_CLOEXEC);
	if (fd < 0 && strcmp(dir, "/tmp") != 0) {
		free(path);
		path = xstrdup("/tmp/sbsh-heredoc-XXXXXX");
		fd = mkostemp(path, O_CLOEXEC);
	}
	if (fd < 0) {
		shell_error(sh, "cannot create temporary file for here-document: %s", strerror(errno));
		free(path);
		return -1;
	}
	unlink(path);
	free(path);
	if (!write_all(fd, data, len) || lseek(fd, 0, SEEK_SET) < 0) {
		shell_error(sh, "cannot write here-document: %s", strerror(errno));
		close(fd);
		return -1;
	}
	return fd;
}

/* A redirection naming one of sbsh's own descriptors (shell_fd_reserved)
 * fails before touching it, as bash refuses its internal ones: the event
 * stream, the warden's and broker's sockets and the inotify watches must
 * not be written, read, moved or closed by the code they watch. */
static bool refuse_reserved(struct shell *sh, int fd)
{
	if (!shell_fd_reserved(fd))
		return false;
	shell_error(sh, "%d: bad file descriptor (reserved by sbsh)", fd);
	return true;
}

/* A path that reaches one of those descriptors' files (/dev/fd/N,
 * /proc/self/fd/N, a symlink to either, the event file itself): refused
 * before open() can truncate it, and checked again on what was opened. */
static bool refuse_reserved_path(struct shell *sh, const char *path, int opened)
{
	struct stat st;
	if ((opened >= 0 ? fstat(opened, &st) : stat(path, &st)) != 0 || !shell_file_reserved(sh, &st))
		return false;
	shell_error(sh, "%s: bad file descriptor (reserved by sbsh)", path);
	if (opened >= 0)
		close(opened);
	return true;
}

/* Moves newfd onto fd (newfd is consumed). */
static int install_fd(struct shell *sh, int newfd, int fd)
{
	if (newfd == fd) {
		fcntl(fd, F_SETFD, 0);
		return 0;
	}
	if (dup2(newfd, fd) < 0) {
		shell_error(sh, "%d: %s", fd, strerror(errno));
		close(newfd);
		return -1;
	}
	close(newfd);
	return 0;
}

static int open_for_output(struct shell *sh, const char *path, enum redir_op op)
{
	if (refuse_reserved_path(sh, path, -1))
		return -1;
	int fd;
	if (op == REDIR_APPEND || op == REDIR_APPEND_ERR) {
		fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0666);
	} else if (sh->opt.noclobber && op != REDIR_CLOBBER) {
		/* noclobber: never truncate an existing regular file, but
		 * devices like /dev/null stay writable. */
		fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
		if (fd < 0 && errno == EEXIST) {
			struct stat st;
			if (stat(path, &st) == 0 && !S_ISREG(st.st_mode)) {
				fd = open(path, O_WRONLY | O_CLOEXEC);
			} else {
				shell_error(sh, "%s: cannot overwrite existing file", path);
				return -1;
			}
		}
	} else {
		fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
	}
	if (fd < 0) {
		int err = errno;
		shell_error(sh, "%s: %s", path, strerror(err));
		denial_hint_redirect(sh, path, err);
	} else if (refuse_reserved_path(sh, path, fd)) {
		return -1;
	}
	return fd;
}

/* Parses "N" or "N-" (move) for <& and >&. */
static bool parse_fd_word(const char *s, int *fd, bool *move)
{
	if (*s < '0' || *s > '9')
		return false;
	long n = 0;
	for (; *s >= '0' && *s <= '9'; s++) {
		n = n * 10 + (*s - '0');
		if (n > 1 << 20)
			return false;
	}
	*move = false;
	if (*s == '-') {
		*move = true;
		s++;
	}
	if (*s)
		return false;
	*fd = (int)n;
	return true;
}

/* The text a here-document or here-string gives its reader, expanded. */
static int here_body(struct shell *sh, const struct redir *r, char **body, size_t *len)
{
	if (r->op == REDIR_HERESTRING) {
		char *s = expand_word_str(sh, r->target, 0);
		if (!s)
			return -1;
		*len = strlen(s);
		*body = xrealloc(s, *len + 2);
		(*body)[(*len)++] = '\n';
		(*body)[*len] = '\0';
	} else if (!r->heredoc) {
		*body = xstrdup("");
		*len = 0;
	} else if (r->heredoc_quoted && r->heredoc->nparts == 1 && r->heredoc->parts[0].kind == WORD_LITERAL) {
		*body = xstrndup(r->heredoc->parts[0].u.literal.text, r->heredoc->parts[0].u.literal.len);
		*len = r->heredoc->parts[0].u.literal.len;
	} else {
		*body = expand_word_str(sh, r->heredoc, EXPAND_NOTILDE);
		if (!*body)
			return -1;
		*len = strlen(*body);
	}
	return 0;
}

/* Whether expanding w changes nothing in the shell (no arithmetic,
 * assignment or error; a command substitution runs in a child of its
 * own either way): then expanding it in the shell rather than in the
 * command's child, as bash does, makes no difference. */
static bool word_is_pure(const struct word *w)
{
	for (size_t i = 0; w && i < w->nparts; i++) {
		const struct word_part *p = &w->parts[i];
		switch (p->kind) {
		case WORD_LITERAL:
		case WORD_CMDSUB:
			break;
		case WORD_DQUOTE:
			if (!word_is_pure(p->u.dquote))
				return false;
			break;
		case WORD_PARAM:
			if (p->u.param->index || p->u.param->op == PARAM_ASSIGN || p->u.param->op == PARAM_ERROR ||
			    p->u.param->op == PARAM_SUBSTRING || !word_is_pure(p->u.param->arg) ||
			    !word_is_pure(p->u.param->arg2))
				return false;
			break;
		default:
			return false;
		}
	}
	return true;
}

int redir_expand_stdin(struct shell *sh, const struct redir *redirs, size_t n)
{
	redir_forget_stdin(sh);
	const struct redir *last = NULL;
	for (size_t i = 0; i < n; i++) {
		const struct redir *r = &redirs[i];
		bool input = r->op == REDIR_HEREDOC || r->op == REDIR_HEREDOC_STRIP || r->op == REDIR_HERESTRING ||
		             r->op == REDIR_IN || r->op == REDIR_RDWR || r->op == REDIR_DUP_IN;
		if (input && r->fd <= 0 && !r->fd_var)
			last = r;
	}
	if (!last || !(last->op == REDIR_HEREDOC || last->op == REDIR_HEREDOC_STRIP || last->op == REDIR_HERESTRING))
		return 0;
	if (!word_is_pure(last->op == REDIR_HERESTRING ? last->target : last->heredoc))
		return 0; /* judged as the static pass found it */
	if (here_body(sh, last, &sh->expanded_stdin.body, &sh->expanded_stdin.len) != 0)
		return -1;
	sh->expanded_stdin.redir = last;
	return 0;
}

void redir_forget_stdin(struct shell *sh)
{
	free(sh->expanded_stdin.body);
	sh->expanded_stdin.body = NULL;
	sh->expanded_stdin.redir = NULL;
	sh->expanded_stdin.len = 0;
}

/* The file a redirection names. Outside posix mode the word is expanded
 * as a command word, as bash does: `> one-*` opens the one file the glob
 * finds, and a word giving no field or several is ambiguous. POSIX (and
 * bash --posix) neither split nor glob it. */
static char *file_target(struct shell *sh, const struct word *w)
{
	if (sh->opt.posix)
		return expand_word_str(sh, w, 0);
	struct word *words[1] = {(struct word *)w};
	struct strvec fields;
	strvec_init(&fields);
	if (expand_words(sh, words, 1, &fields) != 0) {
		strvec_free(&fields);
		return NULL;
	}
	char *name = NULL;
	if (fields.len == 1) {
		name = fields.items[0];
		fields.items[0] = NULL;
		fields.len = 0;
	} else {
		struct strbuf text;
		strbuf_init(&text);
		ast_print_word(&text, w);
		shell_error(sh, "%s: ambiguous redirect", text.data ? text.data : "");
		strbuf_free(&text);
	}
	strvec_free(&fields);
	return name;
}

/* The descriptor a {NAME} redirection works on: for {NAME}>&- the one NAME
 * holds, otherwise the lowest free one from 10 up, as bash picks, so the
 * user's 0-9 stay theirs. -1 after reporting. */
static int named_fd(struct shell *sh, const struct redir *r)
{
	char *text = NULL;
	bool close_it = (r->op == REDIR_DUP_IN || r->op == REDIR_DUP_OUT) &&
	                ast_word_literal_value(r->target, &text) && strcmp(text, "-") == 0;
	free(text);
	if (close_it) {
		const char *v = vars_get(sh, r->fd_var);
		char *end = NULL;
		long n = v && *v ? strtol(v, &end, 10) : -1;
		if (n < 0 || *end || n > INT_MAX) {
			shell_error(sh, "%s: ambiguous redirect", r->fd_var);
			return -1;
		}
		return (int)n;
	}
	long max = sysconf(_SC_OPEN_MAX);
	for (int fd = 10; fd < max && fd < INT_MAX; fd++) {
		if (fcntl(fd, F_GETFD) < 0 && errno == EBADF && !shell_fd_reserved(fd)) {
			char num[16];
			snprintf(num, sizeof num, "%d", fd);
			return vars_set(sh, r->fd_var, num, 0) == 0 ? fd : -1;
		}
	}
	shell_error(sh, "redirection error: cannot duplicate fd: %s", strerror(EMFILE));
	return -1;
}

static int apply_one(struct shell *sh, const struct redir *r, struct redir_saved *save)
{
	int fd = r->fd;
	if (r->fd_var) {
		/* The picked descriptor outlives the command, as in bash. */
		fd = named_fd(sh, r);
		if (fd < 0)
			return -1;
		save = NULL;
	}
	if (fd < 0) {
		switch (r->op) {
		case REDIR_IN:
		case REDIR_RDWR:
		case REDIR_DUP_IN:
		case REDIR_HEREDOC:
		case REDIR_HEREDOC_STRIP:
		case REDIR_HERESTRING:
			fd = 0;
			break;
		default:
			fd = 1;
			break;
		}
	}

	if (refuse_reserved(sh, fd))
		return -1;
	if (r->op == REDIR_HEREDOC || r->op == REDIR_HEREDOC_STRIP || r->op == REDIR_HERESTRING) {
		char *body;
		size_t len;
		if (sh->expanded_stdin.redir == r) {
			/* Expanded already, for the check before the command: once. */
			body = sh->expanded_stdin.body;
			len = sh->expanded_stdin.len;
			sh->expanded_stdin.body = NULL;
			sh->expanded_stdin.redir = NULL;
		} else if (here_body(sh, r, &body, &len) != 0) {
			return -1;
		}
		/* Saved before the new fd exists: it may take fd's number when
		 * fd is closed, and then would be "restored" instead of closed. */
		if (!save_fd(sh, save, fd)) {
			free(body);
			return -1;
		}
		int dfd = redir_data_fd(sh, body, len);
		free(body);
		if (dfd < 0)
			return -1;
		return install_fd(sh, dfd, fd);
	}

	bool dup = r->op == REDIR_DUP_IN || r->op == REDIR_DUP_OUT;
	char *target = dup ? expand_word_str(sh, r->target, 0) : file_target(sh, r->target);
	if (!target)
		return -1;
	int rc = 0;
	/* As for here-documents: fds are saved before the file is opened. */
	switch (r->op) {
	case REDIR_IN:
	case REDIR_RDWR: {
		if (!save_fd(sh, save, fd)) {
			rc = -1;
			break;
		}
		int flags = r->op == REDIR_IN ? O_RDONLY : O_RDWR | O_CREAT;
		if (refuse_reserved_path(sh, target, -1)) {
			rc = -1;
			break;
		}
		int nfd = open(target, flags | O_CLOEXEC, 0666);
		if (nfd < 0) {
			int err = errno;
			shell_error(sh, "%s: %s", target, strerror(err));
			denial_hint_read(sh, target, err);
			rc = -1;
			break;
		}
		if (refuse_reserved_path(sh, target, nfd)) {
			rc = -1;
			break;
		}
		rc = install_fd(sh, nfd, fd);
		break;
	}
	case REDIR_OUT:
	case REDIR_CLOBBER:
	case REDIR_APPEND: {
		if (!save_fd(sh, save, fd)) {
			rc = -1;
			break;
		}
		int nfd = open_for_output(sh, target, r->op);
		if (nfd < 0) {
			rc = -1;
			break;
		}
		rc = install_fd(sh, nfd, fd);
		break;
	}
	case REDIR_OUT_ERR:
	case REDIR_APPEND_ERR: {
		if (!save_fd(sh, save, 1) || !save_fd(sh, save, 2)) {
			rc = -1;
			break;
		}
		int nfd = open_for_output(sh, target, r->op);
		if (nfd < 0) {
			rc = -1;
			break;
		}
		if (dup2(nfd, 2) < 0) {
			shell_error(sh, "2: %s", strerror(errno));
			close(nfd);
			rc = -1;
			break;
		}
		rc = install_fd(sh, nfd, 1);
		break;
	}
	case REDIR_DUP_IN:
	case REDIR_DUP_OUT: {
		if (strcmp(target, "-") == 0) {
			if (!save_fd(sh, save, fd)) {
				rc = -1;
				break;
			}
			close(fd);
			break;
		}
		int src;
		bool move;
		if (!parse_fd_word(target, &src, &move)) {
			if (r->op == REDIR_DUP_OUT && r->fd < 0) {
				/* `>& file`: the csh form of &> */
				if (!save_fd(sh, save, 1) || !save_fd(sh, save, 2)) {
					rc = -1;
					break;
				}
				int nfd = open_for_output(sh, target, REDIR_OUT);
				if (nfd < 0) {
					rc = -1;
					break;
				}
				if (dup2(nfd, 2) < 0) {
					close(nfd);
					rc = -1;
					break;
				}
				rc = install_fd(sh, nfd, 1);
				break;
			}
			shell_error(sh, "%s: ambiguous redirect", target);
			rc = -1;
			break;
		}
		if (refuse_reserved(sh, src)) {
			rc = -1;
			break;
		}
		if (fcntl(src, F_GETFD) < 0) {
			shell_error(sh, "%d: %s", src, strerror(errno));
			rc = -1;
			break;
		}
		if (src == fd)
			break; /* n>&n: nothing to do, but the fd must be open */
		if (!save_fd(sh, save, fd)) {
			rc = -1;
			break;
		}
		if (dup2(src, fd) < 0) {
			shell_error(sh, "%d: %s", fd, strerror(errno));
			rc = -1;
			break;
		}
		if (move) {
			if (!save_fd(sh, save, src)) {
				rc = -1;
				break;
			}
			close(src);
		}
		break;
	}
	default:
		break;
	}
	free(target);
	return rc;
}

int redir_apply(struct shell *sh, const struct redir *redirs, size_t n, struct redir_saved *save)
{
	for (size_t i = 0; i < n; i++) {

		if (apply_one(sh, &redirs[i], save) != 0)
			return -1;
	}
	return 0;
}
