/* The prompt text both the approver and the broker's own terminal show:
 * the question, its marked words, and everything the agent wrote escaped
 * so that it cannot act on the human's terminal. */
#include "trusted/prompt.h"

#include <stdint.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>
#include <unistd.h>

#include "trusted/broker_proto.h"

static bool is_invisible_control(unsigned long cp)
{
	/* C1 controls (a terminal may take U+009B as CSI) and the format
	 * characters that reorder or hide text (bidi overrides, zero widths). */
	return (cp >= 0x80 && cp <= 0x9f) || cp == 0x061c || (cp >= 0x200b && cp <= 0x200f) ||
	       (cp >= 0x2028 && cp <= 0x202e) || (cp >= 0x2060 && cp <= 0x206f) || cp == 0xfeff ||
	       (cp >= 0xfff9 && cp <= 0xfffb);
}

/* Columns a printable code point takes: a rough table, enough to keep the
 * caret line under the right word for common scripts. */
static size_t columns_of(unsigned long cp)
{
	if ((cp >= 0x0300 && cp <= 0x036f) || (cp >= 0xfe00 && cp <= 0xfe0f))
		return 0;
	if ((cp >= 0x1100 && cp <= 0x115f) || (cp >= 0x2e80 && cp <= 0xa4cf) ||
	    (cp >= 0xac00 && cp <= 0xd7a3) || (cp >= 0xf900 && cp <= 0xfaff) ||
	    (cp >= 0xfe30 && cp <= 0xfe4f) || (cp >= 0xff00 && cp <= 0xff60) ||
	    (cp >= 0xffe0 && cp <= 0xffe6) || (cp >= 0x1f300 && cp <= 0x1f64f) ||
	    (cp >= 0x1f900 && cp <= 0x1f9ff) || (cp >= 0x20000 && cp <= 0x3fffd))
		return 2;
	return 1;
}

/* Decodes one UTF-8 sequence at s (n bytes left). Returns its length, or 0
 * when the bytes there are not valid UTF-8. */
static size_t utf8_decode(const unsigned char *s, size_t n, unsigned long *cp)
{
	size_t len;
	unsigned long min;
	if (s[0] >= 0xc2 && s[0] <= 0xdf) {
		len = 2, min = 0x80, *cp = s[0] & 0x1fu;
	} else if (s[0] >= 0xe0 && s[0] <= 0xef) {
		len = 3, min = 0x800, *cp = s[0] & 0x0fu;
	} else if (s[0] >= 0xf0 && s[0] <= 0xf4) {
		len = 4, min = 0x10000, *cp = s[0] & 0x07u;
	} else {
		return 0;
	}
	if (n < len)
		return 0;
	for (size_t i = 1; i < len; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		*cp = (*cp << 6) | (s[i] & 0x3fu);
	}
	if (*cp < min || *cp > 0x10ffff || (*cp >= 0xd800 && *cp <= 0xdfff))
		return 0;
	return len;
}

/* Appends n bytes of s so that none of them can act on the terminal:
 * control characters, invalid UTF-8 and invisible format characters are
 * shown as escapes. Returns the columns the text takes. */
static size_t add_visible(struct strbuf *sb, const char *s, size_t n)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t cols = 0;
	for (size_t i = 0; i < n;) {
		unsigned long cp;
		size_t len;
		if (p[i] >= 0x20 && p[i] < 0x7f) {
			strbuf_addc(sb, (char)p[i]);
			cols++;
			i++;
		} else if (p[i] < 0x80 || (len = utf8_decode(p + i, n - i, &cp)) == 0) {
			strbuf_addf(sb, "\\x%02x", p[i]);
			cols += 4;
			i++;
		} else if (is_invisible_control(cp)) {
			strbuf_addf(sb, "\\u%04lx", cp);
			cols += 6;
			i += len;
		} else {
			strbuf_addmem(sb, s + i, len);
			cols += columns_of(cp);
			i += len;
		}
	}
	return cols;
}

void approval_add_visible(struct strbuf *sb, const char *s)
{
	add_visible(sb, s, strlen(s));
}

/* The command on its own line, its marked words in reverse video when the
 * terminal can show it, and a caret line under them either way. */
static void add_marked_command(struct strbuf *sb, const char *command, const char *marks, bool attrs)
{
	struct broker_mark m[BROKER_MARKS_MAX];
	size_t len = strlen(command);
	int n = marks && *marks ? broker_frame_marks(marks, len, m, BROKER_MARKS_MAX) : 0;
	if (n < 0)
		n = 0; /* checked where it was received; here it is only drawn */
	struct strbuf carets;
	strbuf_init(&carets);
	size_t col = 0, at = 0;
	strbuf_adds(sb, "    ");
	for (int i = 0; i < n; i++) {
		col += add_visible(sb, command + at, m[i].at - at);
		while (carets.len < col)
			strbuf_addc(&carets, ' ');
		if (attrs)
			strbuf_adds(sb, "\033[7m");
		size_t width = add_visible(sb, command + m[i].at, m[i].len);
		if (attrs)
			strbuf_adds(sb, "\033[27m");
		col += width;
		for (size_t k = 0; k < (width ? width : 1); k++)
			strbuf_addc(&carets, '^');
		at = m[i].at + m[i].len;
	}
	add_visible(sb, command + at, len - at);
	strbuf_addc(sb, '\n');
	if (n > 0)
		strbuf_addf(sb, "    %s\n", carets.data);
	strbuf_free(&carets);
}

void approval_prompt(struct strbuf *sb, const struct approval_question *q, pid_t from,
                     const char *code, size_t waiting, bool attrs)
{
	if (q->escape)
		strbuf_adds(sb, "\nsbsh: the agent asks to run a command OUTSIDE the sandbox:\n");
	else
		strbuf_adds(sb, "\nsbsh: the agent wants to run a command that needs your approval:\n");
	add_marked_command(sb, q->command, q->marks, attrs);
	if (q->escape) {
		strbuf_adds(sb, "  program: ");
		approval_add_visible(sb, q->program);
	} else {
		strbuf_adds(sb, "  verdict: ");
		approval_add_visible(sb, q->verdict);
		strbuf_adds(sb, " — ");
		approval_add_visible(sb, q->reason);
	}
	strbuf_adds(sb, "\n  in: ");
	approval_add_visible(sb, q->folder);
	strbuf_addc(sb, '\n');
	if (from > 0)
		strbuf_addf(sb, "  session: sbsh pid %ld\n", (long)from);
	if (q->escape && q->warning && *q->warning) {
		strbuf_adds(sb, "  WARNING: ");
		approval_add_visible(sb, q->warning);
		strbuf_addc(sb, '\n');
	}
	if (waiting)
		strbuf_addf(sb, "  (%zu more waiting)\n", waiting);
	if (approval_needs_code(q))
		strbuf_addf(sb, "Type %s and Enter to run it; anything else refuses (%u s): ",
		            code ? code : "?", q->timeout_s);
	else
		strbuf_addf(sb, "Allow? [y]es once, yes for this [s]ession, [n]o (%u s): ", q->timeout_s);
}

bool approval_needs_code(const struct approval_question *q)
{
	return q->escape || (q->verdict && strcmp(q->verdict, "ESCAPE") == 0);
}

int approval_parse_answer(const char *typed)
{
	if (strcmp(typed, "y") == 0 || strcmp(typed, "yes") == 0)
		return BROKER_YES_ONCE;
	if (strcmp(typed, "s") == 0 || strcmp(typed, "session") == 0)
		return BROKER_YES_SESSION;
	return BROKER_NO;
}

void approval_make_code(char *code, size_t size)
{
	static const char alphabet[] = "abcdefghjkmnpqrstuvwxyz23456789";
	unsigned char rnd[16];
	if (getrandom(rnd, sizeof rnd, 0) != (ssize_t)sizeof rnd) {
		uint64_t t = (uint64_t)time(NULL) ^ ((uint64_t)getpid() << 32);
		memcpy(rnd, &t, sizeof t);
		memcpy(rnd + 8, &t, sizeof t);
	}
	for (size_t i = 0; i + 1 < size; i++)
		code[i] = alphabet[rnd[i % sizeof rnd] % (sizeof alphabet - 1)];
	code[size - 1] = '\0';
}

bool approval_terminal_attrs(const char *term)
{
	return term && *term && strcmp(term, "dumb") != 0;
}
