/* The broker: the unsandboxed process sbsh forks before confining itself.
 * It owns the human's terminal (the shell never holds it), asks the human
 * when the shell requests something only a human may allow, runs approved
 * `escape` commands outside the sandbox, forwards signals to the shell and
 * leaves with the shell's exit status. */
#ifndef SBSH_BROKER_H
#define SBSH_BROKER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct events;

#define BROKER_MAGIC 0x53424252u /* "SBBR" */
#define BROKER_PAYLOAD_MAX 16384

enum broker_type {
	BROKER_ESCAPE = 1, /* shell -> broker: argv (value = argc), fds 0 1 2 cwd */
	BROKER_SIGNAL = 2, /* shell -> broker: forward value to the running escape */
	BROKER_RESULT = 3, /* broker -> shell: value = exit status */
	BROKER_REFUSED = 4, /* broker -> shell: payload = why */
	BROKER_APPROVE = 5, /* shell -> broker: payload = verdict NUL command NUL reason NUL */
	BROKER_CHECK = 6,    /* shell or broker -> warden: compare the protected files
	                      * (value 1: the session's last check) */
	BROKER_RESTORED = 7, /* warden -> asker: value = count, payload = paths NUL-separated */
};

/* Answers to BROKER_APPROVE, in a BROKER_RESULT's value. */
enum broker_answer {
	BROKER_NO = 0,
	BROKER_YES_ONCE = 1,
	BROKER_YES_SESSION = 2,
};

/* One datagram: a fixed header, then len payload bytes. */
struct broker_frame {
	uint32_t magic;
	uint32_t type;
	int32_t value;
	uint32_t len;
	char payload[BROKER_PAYLOAD_MAX];
};

#define BROKER_HEADER_SIZE (4 * sizeof(uint32_t))

/* Checks a received frame: magic, known type, len within what arrived.
 * Returns 0 or -1. Kept separate so it can be fuzzed. */
int broker_frame_check(const struct broker_frame *f, size_t received);
/* Splits an ESCAPE payload into argv (pointers into the frame, which must
 * have room for the terminating NUL). Returns argc, or -1 when malformed. */
int broker_frame_argv(struct broker_frame *f, char **argv, size_t max);
/* Splits an APPROVE payload into its three NUL-terminated strings
 * (pointers into the frame). Returns 0, or -1 when malformed. */
int broker_frame_fields(const struct broker_frame *f, const char *out[3]);

struct broker_options {
	bool pty;            /* give the shell a pty and relay (stdio was a terminal) */
	unsigned timeout_s;  /* a prompt nobody answers in time is a no */
	char **writable;     /* folders the sandbox can write (for the swap warning) */
	bool headless;       /* nobody to ask: no terminal is opened, requests are refused */
	int protect_fd;      /* the broker's socket to the protection warden, or -1 */
	int protect_shell_fd;/* the shell's socket to it (the broker closes it), or -1 */
	struct events *events; /* the event stream, or NULL */
};

/* Forks. In the broker (parent) never returns: it serves requests and
 * exits with the shell's status. In the shell (child) returns the socket
 * fd (CLOEXEC) and, when a pty was made, *pty_path (malloc'd); -1 when no
 * broker could be made (no terminal: nobody could be asked anyway). */
int broker_start(const struct broker_options *opts, char **pty_path);
/* Headless (opts->headless) the broker is forked only to hold the pid the
 * caller waits on while the protection warden makes its last check. */

/* Shell side: asks to run argv outside the sandbox; returns its exit
 * status, or -1 with *why set (static text) when refused. */
int broker_request_escape(int fd, char *const *argv, const char **why);

/* Shell side: asks the human to approve a command the classifier flagged.
 * Returns a broker_answer, or -1 with *why set when nobody could answer. */
int broker_request_approval(int fd, const char *verdict, const char *command, const char *reason,
                            const char **why);

/* Encodes a waitpid() status as a shell exit status. */
int broker_wait_status(int wstatus);

#endif
