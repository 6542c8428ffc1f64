/* The broker's wire format: fixed frames on SEQPACKET sockets, shared by
 * every end that speaks it (the shell's client in hooks/broker_client.c,
 * the broker, the protection warden, the approver and its clients). The
 * decoders (broker_frame.c) are all the sandboxed side can reach. */
#ifndef SBSH_BROKER_PROTO_H
#define SBSH_BROKER_PROTO_H

#include <stddef.h>
#include <stdint.h>

#define BROKER_MAGIC 0x53424252u /* "SBBR" */
#define BROKER_PAYLOAD_MAX 16384

enum broker_type {
	BROKER_ESCAPE = 1, /* shell -> broker: argv (value = argc), fds 0 1 2 cwd */
	BROKER_SIGNAL = 2, /* shell -> broker: forward value to the running escape */
	BROKER_RESULT = 3, /* broker -> shell: value = exit status */
	BROKER_REFUSED = 4, /* broker -> shell: payload = why */
	BROKER_APPROVE = 5, /* shell -> broker: payload = verdict NUL command NUL reason NUL marks NUL */
	BROKER_CHECK = 6,    /* shell or broker -> warden: compare the protected files
	                      * (value: a broker_check_kind) */
	BROKER_RESTORED = 7, /* warden -> asker: value = count, payload = paths NUL-separated */
	BROKER_ASK = 8,      /* broker -> approver, nested shell -> session broker: value =
	                      * seconds to answer, payload = BROKER_ASK_FIELDS strings
	                      * (see trusted/prompt.h) */
	BROKER_RELEASE = 9,  /* shell -> broker: the line is over, the human's yes to it
	                      * no longer answers what runs inside it */
};

/* What a BROKER_CHECK asks for, in its value. */
enum broker_check_kind {
	BROKER_CHECK_LINE = 0,  /* after a command line: answered */
	BROKER_CHECK_FINAL = 1, /* the session's last check: answered */
	BROKER_CHECK_QUIET = 2, /* the session's last, unanswered (no sbsh sends it
	                         * now): the warden checks once the shell has exited */
};

/* NUL-terminated strings in the payload of an APPROVE and of an ASK. */
#define BROKER_APPROVE_FIELDS 4
#define BROKER_ASK_FIELDS 11

/* A range of the command to mark in the prompt (the word that made the
 * verdict). On the wire, "AT:LEN" byte ranges joined by commas, in order
 * and not overlapping; "" marks nothing. */
struct broker_mark {
	size_t at, len;
};
#define BROKER_MARKS_MAX 16

/* Answers to BROKER_APPROVE, in a BROKER_RESULT's value. */
enum broker_answer {
	BROKER_NO = 0,
	BROKER_YES_ONCE = 1,
	BROKER_YES_SESSION = 2,
	BROKER_TIMEOUT = 3, /* nobody answered in time: not the human's no */
	/* The approver's refusals to ask at all (never the human's no): */
	BROKER_BUSY = 4,         /* too many connections, from the asker or overall */
	BROKER_ONLY_BROKERS = 5, /* the asker was made inside a sandbox */
	BROKER_YES_AWAY = 6,     /* an escape: yes, run in the folder the question offered */
	BROKER_TOO_TALL = 7,     /* the question does not fit on the approver's terminal */
	BROKER_SCREEN_HELD = 8,  /* a sandboxed process holding the approver's terminal
	                          * would not pause: the question could be drawn over */
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
/* Splits a payload of exactly n NUL-terminated strings (an APPROVE, an
 * ASK) into out (pointers into the frame). Returns 0, or -1 when malformed. */
int broker_frame_fields(const struct broker_frame *f, const char **out, size_t n);
/* Parses marks ("AT:LEN,...") for a command of command_len bytes into out.
 * Returns how many, or -1 when malformed, out of range or more than max. */
int broker_frame_marks(const char *spec, size_t command_len, struct broker_mark *out, size_t max);

#endif
