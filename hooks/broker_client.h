/* The shell's requests to the broker (trusted/broker.h), sent from inside
 * the sandbox on the socket broker_start returned. Answers are the
 * broker_answer values of trusted/broker_proto.h. */
#ifndef SBSH_BROKER_CLIENT_H
#define SBSH_BROKER_CLIENT_H

/* Asks to run argv outside the sandbox; returns its exit status, or -1
 * with *why set (static text) when refused. */
int broker_request_escape(int fd, char *const *argv, const char **why);

/* Asks the human to approve a command the classifier flagged; marks
 * ("AT:LEN,..." or NULL) are the words of command to point at. Returns a
 * broker_answer, or -1 with *why set when nobody could answer. */
int broker_request_approval(int fd, const char *verdict, const char *command, const char *reason,
                            const char *marks, const char **why);

/* The line is over: the human's yes to it no longer answers what runs
 * inside it (a nested sbsh). Sends only; no answer is awaited. */
void broker_request_release(int fd);

#endif
