/* One question for the human and the text that puts it: shared by the
 * approver (trusted/approver.c) and the broker's prompt on the session's
 * own terminal (trusted/broker.c), so both show the same words, escaped the
 * same way. Answers are the broker_answer values of trusted/broker_proto.h. */
#ifndef SBSH_PROMPT_H
#define SBSH_PROMPT_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "lib/util.h"

/* One question for the human. On the wire (a BROKER_ASK frame, value =
 * timeout_s) its strings go in this order: kind ("approval" or "escape"),
 * folder, verdict, command, reason, marks, program, warning. */
struct approval_question {
	bool escape;         /* run outside the sandbox: a typed code, never "session" */
	bool release;        /* not a question: the asker's line is over (approver grants end) */
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

/* Appends s so that none of it can act on the terminal: control
 * characters, invalid UTF-8 and invisible format characters are shown as
 * escapes. */
void approval_add_visible(struct strbuf *sb, const char *s);

/* The answer typed to an approval prompt: a broker_answer (anything but
 * y, yes, s, session is no). */
int approval_parse_answer(const char *typed);

/* Whether the answer must be the typed code: an escape, or any command
 * judged ESCAPE (it runs something outside the sandbox). Never y or s. */
bool approval_needs_code(const struct approval_question *q);

/* Fills code (size bytes, NUL-terminated) with an easy-to-type random code. */
void approval_make_code(char *code, size_t size);

/* Whether reverse video may be used on this terminal ($TERM not dumb). */
bool approval_terminal_attrs(const char *term);

#endif
