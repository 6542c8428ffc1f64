/* The approver: `sbsh --approver`, started by the human in a terminal of
 * their own, answers the prompts of every sbsh of that user through a unix
 * socket in $XDG_RUNTIME_DIR/sbsh. Only brokers (unsandboxed) use it, after
 * checking it is trustworthy; the sandbox cannot create a socket there, so
 * it cannot pose as the approver. Also the prompt text shared with the
 * broker's own terminal prompt. */
#ifndef SBSH_APPROVER_H
#define SBSH_APPROVER_H

#include <stdbool.h>
#include <sys/types.h>

#include "lib/util.h"

/* One question for the human. On the wire (a BROKER_ASK frame, value =
 * timeout_s) its strings go in this order: kind ("approval" or "escape"),
 * folder, verdict, command, reason, marks, program, warning. */
struct approval_question {
	bool escape;         /* run outside the sandbox: a typed code, never "session" */
	const char *folder;  /* where it runs */
	const char *verdict; /* "DELETE"...; "" for an escape */
	const char *command; /* the normalised command (escape: its quoted argv) */
	const char *reason;  /* why it needs approval; "" for an escape */
	const char *marks;   /* "AT:LEN,..." ranges of command to mark, or "" */
	const char *program; /* escape: the resolved program; else "" */
	const char *warning; /* escape: a warning about the program, or "" */
	unsigned timeout_s;  /* no answer by then is a no */
};

/* Appends the prompt for q. from: the asking broker's pid (shown by the
 * approver; 0 on the session's own terminal); code: what the human must type
 * for an escape; waiting: how many more questions are queued; attrs: the
 * output is a terminal that can show the marked words in reverse video. The
 * marks are also drawn as a caret line, so they survive without attributes.
 * Control characters are always shown escaped. */
void approval_prompt(struct strbuf *sb, const struct approval_question *q, pid_t from,
                     const char *code, size_t waiting, bool attrs);

/* The answer typed to an approval prompt: a broker_answer (anything but
 * y, yes, s, session is no). */
int approval_parse_answer(const char *typed);

/* Fills code (size bytes, NUL-terminated) with an easy-to-type random code. */
void approval_make_code(char *code, size_t size);

/* Whether reverse video may be used on this terminal ($TERM not dumb). */
bool approval_terminal_attrs(const char *term);

/* `sbsh --approver`: serves prompts until Ctrl-C, end of input or a
 * signal. Returns the exit status (1 when it cannot start). */
int approver_main(void);

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
 * writable (the sandbox's folders), and the listener runs as our uid.
 * Returns the socket, or -1 with *why NULL when none runs, or set (static
 * text) when one runs but must not be used. */
int approver_connect(char *const *writable, const char **why);

/* Puts q to the approver from a session without a broker (one without a
 * terminal, whose text names no escape: a broker would only relay, at
 * the cost of a fork). The approver is checked as a broker checks it, and
 * the answer is kept by the asker, the shell, as a broker's would be.
 * Returns a broker_answer (no answer in time: BROKER_NO), or -1 with *why
 * (static text, or NULL when no approver runs). */
int approver_ask(const struct approval_question *q, char *const *writable, const char **why);

/* Sends q on fd (connected to the approver) and waits for the answer, a
 * little longer than the approver's own limit (then BROKER_NO). others
 * (nothers, at most 3) are polled meanwhile, and tend(ctx, others) called
 * with their revents when any is ready: false gives up (a no). Closes fd.
 * Returns a broker_answer, or -1 when q could not be sent. */
struct pollfd;
int approver_await(int fd, const struct approval_question *q, struct pollfd *others, size_t nothers,
                   bool (*tend)(void *ctx, const struct pollfd *others), void *ctx);

/* Sends q on a connected socket. Returns 0, or -1 (too long, or gone). */
int approver_send(int fd, const struct approval_question *q);
/* Reads the answer once the socket is readable: a broker_answer, or -1
 * when the approver went away without one. */
int approver_receive(int fd);

#endif
