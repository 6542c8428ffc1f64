/* Redirections: applying them to the process's fds, and undoing them after
 * builtins, functions and compound commands that ran in the shell itself. */
#ifndef SBSH_REDIR_H
#define SBSH_REDIR_H

#include "shell/shell.h"

struct redir_saved_fd {
	int fd;    /* the fd that was redirected */
	int saved; /* a close-on-exec copy of its old value, -1 if it was closed */
};

/* What to undo, most recent last. Zero-initialise. */
struct redir_saved {
	struct redir_saved_fd *items;
	size_t len, cap;
};

/* Performs n redirections in order. With save, the old fds are kept for
 * redir_restore; without (a child about to exec, `exec >file`), changes are
 * permanent. Returns 0, or -1 after reporting (the command must not run;
 * the caller still restores). */
int redir_apply(struct shell *sh, const struct redir *redirs, size_t n, struct redir_saved *save);
/* Puts every saved fd back, in reverse order, and empties save. */
void redir_restore(struct redir_saved *save);
/* Expands, before the check of the command they feed, the here-document or
 * here-string that will be its standard input, into sh->expanded_stdin
 * (redir_apply then uses that text: expanded once), when expanding it can
 * change nothing. Returns 0, or -1 after reporting. redir_forget_stdin
 * drops what was not used. */
int redir_expand_stdin(struct shell *sh, const struct redir *redirs, size_t n);
void redir_forget_stdin(struct shell *sh);
/* An fd whose reader gets exactly data (here-documents, here-strings):
 * a pipe for small bodies, an unlinked temporary file for large ones.
 * Returns the fd (close-on-exec), or -1 after reporting. */
int redir_data_fd(struct shell *sh, const char *data, size_t len);

#endif
