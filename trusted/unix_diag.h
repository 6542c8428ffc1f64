/* What the kernel says of a unix socket (sock_diag), asked by its inode:
 * where it is bound, and who is at the other end. */
#ifndef SBSH_UNIX_DIAG_H
#define SBSH_UNIX_DIAG_H

#include <stdint.h>
#include <sys/types.h>

/* The file a socket is bound to: its device and the low 32 bits of its
 * inode (all sock_diag gives). 0, or -1 when it is not bound to a file or
 * no longer exists. */
int unix_diag_bound_file(uint64_t sock_ino, dev_t *dev, uint64_t *ino32);

/* The inode of the socket connected to this one. 0, or -1. */
int unix_diag_peer(uint64_t sock_ino, uint64_t *peer_ino);

#endif
