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
 * folder, verdict, command, reason, marks, program, warning, argv0, stdio. */
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
	const char *argv0;   /* escape: the name it is run as; else "" */
	const char *stdio;   /* escape: "stdin: a pipe" lines for its fds that are
	                      * not the terminal, '\n'-separated; else "" */
	const char *away;    /* escape: a folder the agent cannot write, offered to
	                      * run it in instead (CODE~); else "" */
	unsigned timeout_s;  /* no answer by then is a no */
};

/* The terminal a question is shown on: its size decides how much of a long
 * command is shown, and whether the question fits at all. */
struct approval_screen {
	unsigned rows, cols;
	bool attrs; /* it can show reverse video (and takes escape sequences) */
};

/* The size of the terminal on fd (24x80 when it does not say). */
void approval_screen_of(int fd, bool attrs, struct approval_screen *screen);

/* Appends the prompt for q, laid out for screen. from: the asking broker's
 * pid (shown by the approver; 0 on the session's own terminal); code: what
 * the human must type for an escape; waiting: how many more questions are
 * queued. Long fields are shown capped (head, "... N more characters ...",
 * tail, the marked words kept), runs of blanks collapsed; control
 * characters are always shown escaped. Returns false when the question
 * does not fit on the screen: sb then holds only the refusal to show. */
bool approval_prompt(struct strbuf *sb, const struct approval_question *q, pid_t from,
                     const char *code, size_t waiting, const struct approval_screen *screen);

/* What puts the terminal in a known state before a question, whatever was
 * written to it before (an unfinished escape sequence or string, scroll
 * region, origin mode, charsets, attributes, colours...): with alt, on the
 * alternate screen, cleared; without, in place (for a refusal). */
void approval_screen_enter(struct strbuf *sb, bool attrs, bool alt);

/* Leaves the alternate screen entered above: the screen from before the
 * question comes back. */
void approval_screen_leave(struct strbuf *sb, bool attrs);

/* Appends s so that none of it can act on the terminal: control
 * characters, invalid UTF-8 and invisible format characters are shown as
 * escapes. */
void approval_add_visible(struct strbuf *sb, const char *s);

/* The answer typed to an approval prompt: a broker_answer (anything but
 * y, yes, s, session is no). */
int approval_parse_answer(const char *typed);

/* The answer to a question that needs the code: BROKER_YES_ONCE for the
 * code, BROKER_YES_AWAY for the code and `~` where q offers a folder away
 * from the agent, else BROKER_NO. */
int approval_check_code(const struct approval_question *q, const char *code, const char *typed);

/* Whether the answer must be the typed code: an escape, or any command
 * judged ESCAPE (it runs something outside the sandbox). Never y or s. */
bool approval_needs_code(const struct approval_question *q);

/* Fills code (size bytes, NUL-terminated) with an easy-to-type random code. */
void approval_make_code(char *code, size_t size);

/* Whether reverse video may be used on this terminal ($TERM not dumb). */
bool approval_terminal_attrs(const char *term);

#endif
