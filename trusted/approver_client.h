/* Asking the approver (`sbsh --approver`, trusted/approver.h): brokers do,
 * after checking it is trustworthy; a shell never does (the approver
 * answers only processes made outside the sandbox), and a socket made
 * inside a sandbox is not taken for the approver. Answers are the
 * broker_answer values of trusted/broker_proto.h. */
#ifndef SBSH_APPROVER_CLIENT_H
#define SBSH_APPROVER_CLIENT_H

#include <stdbool.h>
#include <stddef.h>

#include "trusted/prompt.h"

struct pollfd;

/* Whether an approver's socket is there: one lstat, no connect (startup
 * asks this of every sbsh without a terminal, and a connect wakes the
 * approver: ~90 us). A socket left by an approver that was killed makes
 * a session fork a broker whose questions are then refused, as headless. */
bool approver_present(void);

/* Whether an approver seems to listen: one connect attempt, no checks
 * (sbsh --doctor). */
bool approver_listening(void);

/* Connects to the approver after checking it can be trusted: the socket's
 * folder is ours, not group- or world-writable and not inside any of
 * writable (the sandbox's folders), and the listener runs as our uid and
 * is no more confined than we are (made outside any sandbox we are not in).
 * Returns the socket, or -1 with *why NULL when none runs, or set (static
 * text) when one runs but must not be used. */
int approver_connect(char *const *writable, const char **why);

/* Sends q on fd (connected to the approver) and waits for the answer, a
 * little longer than the approver's own limit (then BROKER_TIMEOUT).
 * others (nothers, at most 3) are polled meanwhile, and tend(ctx, others)
 * called with their revents when any is ready: false gives up (a no).
 * Closes fd. Returns a broker_answer (BROKER_BUSY, BROKER_ONLY_BROKERS: it
 * would not ask), or -1 when the approver went away without an answer. */
int approver_await(int fd, const struct approval_question *q, struct pollfd *others, size_t nothers,
                   bool (*tend)(void *ctx, const struct pollfd *others), void *ctx);

/* Sends q on a connected socket. Returns 0, or -1 (too long, or gone). */
int approver_send(int fd, const struct approval_question *q);
/* Reads the answer once the socket is readable (or a refusal waiting on
 * it): a broker_answer, or -1 when the approver went away without one. */
int approver_receive(int fd);

#endif
