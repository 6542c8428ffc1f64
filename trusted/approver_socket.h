/* Where the approver listens: $XDG_RUNTIME_DIR/sbsh/approver.sock. Shared
 * by the approver (trusted/approver.c), which makes the socket there, and
 * its clients (trusted/approver_client.c), which check it and connect. */
#ifndef SBSH_APPROVER_SOCKET_H
#define SBSH_APPROVER_SOCKET_H

#include <stdbool.h>
#include <sys/types.h>

#include "lib/proc_status.h"

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

/* Who is at the other end of a connected unix socket, from the kernel:
 * its pid (SO_PEERCRED: the process that connected, or that called
 * listen() for a client's end) and how confined it is. False when it runs
 * as another uid or is gone: a pid whose process ended may name another
 * by now, so its /proc is read only while a pidfd says it still lives. */
bool approver_peer_of(int fd, pid_t *pid, struct proc_confinement *out);

#endif
