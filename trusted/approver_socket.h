/* Where the approver listens: $XDG_RUNTIME_DIR/sbsh/approver.sock. Shared
 * by the approver (trusted/approver.c), which makes the socket there, and
 * its clients (trusted/approver_client.c), which check it and connect. */
#ifndef SBSH_APPROVER_SOCKET_H
#define SBSH_APPROVER_SOCKET_H

#include <stdbool.h>

struct sockaddr_un;

#define APPROVER_SOCKET_NAME "approver.sock"

/* $XDG_RUNTIME_DIR/sbsh (malloc'd), or NULL when XDG_RUNTIME_DIR is not
 * an absolute path. */
char *approver_dir(void);

/* Fills addr with path; false when path is too long for a socket address. */
bool approver_fill_address(struct sockaddr_un *addr, const char *path);

/* Connects a SEQPACKET socket (CLOEXEC) to path. Returns it, or -1 with
 * errno. */
int approver_connect_path(const char *path);

#endif
