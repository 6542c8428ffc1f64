/* The session's socket: where a nested sbsh (one started inside this
 * session, such as an agent tool's `bash -c` through the shims) puts its
 * questions to the session's broker, so the human is asked once whatever
 * the depth, and a yes the human gave for a command answers the same
 * commands asked again from inside it. The broker listens; the nested
 * shell's side is hooks/session_client.h. The address is passed down in
 * SBSH_SESSION; nobody takes it on trust: the shell checks who listens,
 * the broker who connects, both through the kernel. */
#ifndef SBSH_SESSION_SOCKET_H
#define SBSH_SESSION_SOCKET_H

#include <sys/types.h>

#define SESSION_SOCKET_ENV "SBSH_SESSION"

/* Makes the listening socket (SEQPACKET, CLOEXEC, non-blocking) for the
 * broker pid in sbsh's state folder ($XDG_STATE_HOME/sbsh/sessions, out of
 * the sandbox's reach). Returns it and *path (malloc'd), or -1 when it
 * cannot be made (then nested shells ask on their own, as before). */
int session_socket_listen(pid_t broker, char **path);

#endif
