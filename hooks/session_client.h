/* A nested sbsh's side of its session's socket (trusted/session_socket.h):
 * its questions go to the broker of the session it runs in, so the human
 * is asked once whatever the depth. Runs inside the sandbox; it only
 * connects, sends frames and reads answers. */
#ifndef SBSH_SESSION_CLIENT_H
#define SBSH_SESSION_CLIENT_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "trusted/prompt.h"

/* Whether the socket at path can be trusted, checked through the kernel:
 * it is listened on by a process of our user that is one of our
 * ancestors and was made outside the sandbox that confines us (an agent's
 * stand-in, made inside it, can be neither). Returns that process, or 0. */
pid_t session_client_trust(const char *path);

/* Puts q to the session broker server at path (re-checked as it is
 * connected). Returns a broker_answer, or -1 with the broker's reason (or
 * that it is gone) in why (size bytes). */
int session_client_ask(const char *path, pid_t server, const struct approval_question *q, char *why,
                       size_t size);

/* This process's line is over: the yes it got no longer answers what
 * runs inside it. */
void session_client_release(const char *path, pid_t server);

#endif
