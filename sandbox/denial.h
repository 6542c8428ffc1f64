/* One-line hints after a command failed because of the sandbox. */
#ifndef SBSH_DENIAL_H
#define SBSH_DENIAL_H

#include <stdbool.h>

#include "shell/shell.h"

/* True when writing path needs a folder outside roots (resolved folders the
 * sandbox lets the shell write). */
bool denial_outside(char *const *roots, const char *path);
/* The folders the sandbox lets the shell write, resolved on first need
 * (sh->sandbox_roots); NULL when the sandbox is off. */
char *const *denial_sandbox_roots(struct shell *sh);
/* True when a program with this argv would get a hint if it failed: the
 * shell then waits for it instead of exec'ing it as its last command. */
bool denial_may_hint(struct shell *sh, char *const *argv);
/* After a program failed with status: a hint when one of its operands is
 * hidden from the sandbox, or when it was asked to write outside the
 * writable folders. */
void denial_hint_command(struct shell *sh, char *const *argv, int status);
/* After sbsh's own input redirection from path failed with err: a hint
 * when path is hidden from the sandbox (sh->sandbox_hidden). */
void denial_hint_read(struct shell *sh, const char *path, int err);
/* After sbsh's own redirection to path failed with err. */
void denial_hint_redirect(struct shell *sh, const char *path, int err);

/* What a well-known unix socket is ("D-Bus session bus", "Docker daemon"),
 * from its path, or NULL. */
const char *denial_socket_kind(const char *path);
/* The supervisor's lines (trusted/supervisor_calls.c), malloc'd, ending in
 * a newline: a connection or a datagram to path refused, and a metadata
 * change (call: "chmod", "chown", "touch", "setfattr", "chattr") refused. */
char *denial_socket_message(const char *path, const char *project, bool shared);
char *denial_metadata_message(const char *call, const char *path, const char *project);

#endif
