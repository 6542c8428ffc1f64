/* The prompt text both the approver and the broker's own terminal show:
 * the question, its marked words, and everything the agent wrote escaped
 * so that it cannot act on the human's terminal. */
#include "trusted/prompt.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/random.h>
#include <time.h>
#include <unistd.h>

#include "trusted/broker_proto.h"

static bool is_invisible_control(unsigned long cp)
{
	/* C1 controls (a terminal may take U+009B as CSI) and the characters
	 * that reorder or hide text or draw nothing: bidi overrides, zero
	 * widths, the soft hyphen, joiners, variation selectors, the tag
	 * characters (text no terminal shows), other format controls. */
	return (cp >= 0x80 && cp <= 0x9f) || cp == 0xad || cp == 0x34f || cp == 0x061c ||
	       (cp >= 0x0600 && cp <= 0x0605) || cp == 0x06dd || cp == 0x070f || cp == 0x08e2 ||
	       cp == 0x17b4 || cp == 0x17b5 || (cp >= 0x180b && cp <= 0x180f) || (cp >= 0x200b && cp <= 0x200f) ||
	       (cp >= 0x2028 && cp <= 0x202e) || (cp >= 0x2060 && cp <= 0x206f) || (cp >= 0xfe00 && cp <= 0xfe0f) ||
	       cp == 0xfeff || (cp >= 0xfff9 && cp <= 0xfffb) || (cp >= 0x13430 && cp <= 0x1343f) ||
	       (cp >= 0x1bca0 && cp <= 0x1bca3) || (cp >= 0x1d173 && cp <= 0x1d17a) ||
	       (cp >= 0xe0000 && cp <= 0xe0fff);
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

/* One thing drawn for a field: a character, an escape standing for one, a
 * collapsed run of blanks, or the marker of an elided middle. */
struct unit {
	size_t at, len; /* the bytes of the field it stands for */
	size_t width;   /* columns */
	bool marked;    /* inside a mark: drawn in reverse video, with carets */
	bool plain;     /* drawn as its own bytes; else as shown */
	char shown[48];
};

struct units {
	struct unit *u;
	size_t n, cap;
};

static struct unit *unit_add(struct units *v, size_t at, size_t len)
{
	if (v->n == v->cap) {
		v->cap = v->cap ? v->cap * 2 : 64;
		v->u = xrealloc(v->u, v->cap * sizeof *v->u);
	}
	struct unit *u = &v->u[v->n++];
	*u = (struct unit){.at = at, .len = len, .plain = true};
	return u;
}

/* Blanks: what a run of could push the rest of a command off the screen
 * while looking like nothing (the fillers and the blank braille pattern
 * are letters that draw as a space). */
static bool is_blank(unsigned long cp)
{
	return cp == ' ' || (cp >= '\t' && cp <= '\r') || cp == 0xa0 || cp == 0x1680 ||
	       (cp >= 0x2000 && cp <= 0x200a) || cp == 0x202f || cp == 0x205f || cp == 0x3000 || cp == 0x115f ||
	       cp == 0x1160 || cp == 0x2800 || cp == 0x3164 || cp == 0xffa0;
}

/* The code point at s[i] (n bytes), its length in *len; a byte that is not
 * valid UTF-8 is returned as itself with *bad set. */
static unsigned long cp_at(const unsigned char *s, size_t n, size_t i, size_t *len, bool *bad)
{
	unsigned long cp;
	*bad = false;
	if (s[i] < 0x80) {
		*len = 1;
		return s[i];
	}
	*len = utf8_decode(s + i, n - i, &cp);
	if (*len == 0) {
		*len = 1;
		*bad = true;
		return s[i];
	}
	return cp;
}

static const char *blank_name(unsigned long cp)
{
	switch (cp) {
	case ' ': return "spaces";
	case '\t': return "tabs";
	case '\n': return "newlines";
	case 0xa0: return "no-break spaces";
	default: return "blank characters";
	}
}

/* The units of n bytes of s: what add_visible shows, except that a run of
 * four or more blanks is one "<N spaces>", a blank that is not a plain
 * space is escaped, and a zero-width character is escaped where it would
 * mark ASCII (a stroke over `touch`) or stack on another. */
static void units_of(struct units *v, const char *s, size_t n)
{
	const unsigned char *p = (const unsigned char *)s;
	bool after_zero_width = false, after_ascii = true;
	for (size_t i = 0; i < n;) {
		size_t len;
		bool bad;
		unsigned long cp = cp_at(p, n, i, &len, &bad);
		if (!bad && is_blank(cp)) {
			size_t end = i, count = 0;
			bool same = true;
			while (end < n) {
				size_t l;
				bool b;
				unsigned long c = cp_at(p, n, end, &l, &b);
				if (b || !is_blank(c))
					break;
				same = same && c == cp;
				end += l;
				count++;
			}
			if (count >= 4) {
				struct unit *u = unit_add(v, i, end - i);
				u->plain = false;
				snprintf(u->shown, sizeof u->shown, "<%zu %s>", count, same ? blank_name(cp) : "blank characters");
				u->width = strlen(u->shown);
				i = end;
				after_zero_width = false;
				after_ascii = true;
				continue;
			}
		}
		struct unit *u = unit_add(v, i, len);
		size_t cols = bad || cp < 0x20 || cp == 0x7f ? 0 : columns_of(cp);
		if (cp == ' ') {
			u->width = 1;
		} else if (bad || cp < 0x20 || cp == 0x7f) {
			u->plain = false;
			snprintf(u->shown, sizeof u->shown, "\\x%02x", p[i]);
		} else if (cp >= 0x80 &&
		           (is_invisible_control(cp) || is_blank(cp) || (cols == 0 && (after_zero_width || after_ascii)))) {
			u->plain = false;
			snprintf(u->shown, sizeof u->shown, "\\u%04lx", cp);
		} else {
			u->width = cols;
		}
		if (!u->plain)
			u->width = strlen(u->shown);
		after_zero_width = u->plain && cols == 0 && cp >= 0x80;
		after_ascii = cp < 0x80;
		i += len;
	}
}

static void units_mark(struct units *v, const char *marks, size_t text_len)
{
	struct broker_mark m[BROKER_MARKS_MAX];
	int n = marks && *marks ? broker_frame_marks(marks, text_len, m, BROKER_MARKS_MAX) : 0;
	/* Checked where it was received; here it is only drawn. */
	for (int k = 0; k < n; k++)
		for (size_t i = 0; i < v->n; i++)
			if (v->u[i].at < m[k].at + m[k].len && m[k].at < v->u[i].at + v->u[i].len)
				v->u[i].marked = true;
}

/* Characters (not bytes) of s[at, at+len). */
static size_t chars_in(const char *s, size_t at, size_t len)
{
	size_t count = 0;
	for (size_t i = at; i < at + len; i++)
		count += ((unsigned char)s[i] & 0xc0) != 0x80;
	return count;
}

/* Of all units, those that fit in budget columns: the marked ones with a
 * little context, then as much of the head and the tail as there is room
 * for; each elided stretch becomes one "... N more characters ..." unit. */
static void units_cap(const struct units *all, const char *text, size_t budget, struct units *out)
{
	size_t total = 0;
	for (size_t i = 0; i < all->n; i++)
		total += all->u[i].width;
	out->n = 0;
	if (total <= budget) {
		for (size_t i = 0; i < all->n; i++)
			*unit_add(out, 0, 0) = all->u[i];
		return;
	}
	bool *keep = xcalloc(all->n ? all->n : 1, sizeof *keep);
	size_t kept = 0, markers = 0;
	for (size_t i = 0; i < all->n; i++) {
		if (!all->u[i].marked)
			continue;
		size_t lo = i, hi = i, ctx = 0;
		while (lo > 0 && ctx < 8)
			ctx += all->u[--lo].width;
		for (ctx = 0; hi + 1 < all->n && ctx < 8;)
			ctx += all->u[++hi].width;
		for (size_t k = lo; k <= hi; k++)
			if (!keep[k]) {
				keep[k] = true;
				kept += all->u[k].width;
			}
	}
	for (size_t i = 0; i < all->n; i++)
		markers += !keep[i] && (i == 0 || keep[i - 1]);
	markers = (markers + 2) * 32; /* room for the markers, with some slack */
	size_t rest = budget > kept + markers ? budget - kept - markers : 0;
	size_t head = rest * 2 / 3, tail = rest - head, w = 0;
	for (size_t i = 0; i < all->n && w + all->u[i].width <= head; i++) {
		w += keep[i] ? 0 : all->u[i].width;
		keep[i] = true;
	}
	w = 0;
	for (size_t i = all->n; i > 0 && w + all->u[i - 1].width <= tail; i--) {
		w += keep[i - 1] ? 0 : all->u[i - 1].width;
		keep[i - 1] = true;
	}
	for (size_t i = 0; i < all->n;) {
		if (keep[i]) {
			*unit_add(out, 0, 0) = all->u[i++];
			continue;
		}
		size_t at = all->u[i].at, end = i;
		while (end < all->n && !keep[end])
			end++;
		size_t len = all->u[end - 1].at + all->u[end - 1].len - at;
		struct unit *u = unit_add(out, at, len);
		u->plain = false;
		snprintf(u->shown, sizeof u->shown, "... %zu more characters ...", chars_in(text, at, len));
		u->width = strlen(u->shown);
		i = end;
	}
	free(keep);
}

/* Lays units out in lines that fit the screen: the first after prefix, the
 * next after as many spaces; a caret line under each line with marks.
 * Appends them to sb unless it is NULL; returns the rows they take. */
static size_t units_draw(struct strbuf *sb, const char *prefix, const struct units *v, const char *text,
                         const struct approval_screen *screen)
{
	size_t pw = strlen(prefix), cols = screen->cols > 1 ? screen->cols - 1 : 1;
	size_t width = cols > pw + 8 ? cols - pw : 8;
	size_t rows = 0;
	struct strbuf carets;
	strbuf_init(&carets);
	for (size_t i = 0; i < v->n || i == 0;) {
		size_t start = i, w = 0;
		while (i < v->n && (i == start || w + v->u[i].width <= width))
			w += v->u[i++].width;
		/* A line that must break breaks after a space near its end, so a
		 * word is not read as two. */
		for (size_t j = i; i < v->n && j > start + 1 && i - j < 24; j--) {
			const struct unit *u = &v->u[j - 1];
			if (u->plain && u->len == 1 && text[u->at] == ' ') {
				while (i > j)
					w -= v->u[--i].width;
				break;
			}
		}
		rows += (pw + w + cols - 1) / cols;
		bool marks = false, reverse = false;
		strbuf_truncate(&carets, 0);
		if (sb)
			start == 0 ? strbuf_adds(sb, prefix) : strbuf_addf(sb, "%*s", (int)pw, "");
		for (size_t k = start; k < i; k++) {
			const struct unit *u = &v->u[k];
			marks = marks || u->marked;
			for (size_t c = 0; c < u->width; c++)
				strbuf_addc(&carets, u->marked ? '^' : ' ');
			if (!sb)
				continue;
			if (screen->attrs && u->marked != reverse) {
				strbuf_adds(sb, u->marked ? "\033[7m" : "\033[27m");
				reverse = u->marked;
			}
			if (u->plain)
				strbuf_addmem(sb, text + u->at, u->len);
			else
				strbuf_adds(sb, u->shown);
		}
		if (sb && reverse)
			strbuf_adds(sb, "\033[27m");
		if (sb)
			strbuf_addc(sb, '\n');
		if (marks) {
			while (carets.len && carets.data[carets.len - 1] == ' ')
				strbuf_truncate(&carets, carets.len - 1);
			rows += (pw + carets.len + cols - 1) / cols;
			if (sb)
				strbuf_addf(sb, "%*s%s\n", (int)pw, "", carets.data);
		}
		if (i == 0)
			break;
	}
	strbuf_free(&carets);
	return rows;
}

/* Appends a field after prefix in at most max_rows rows, capped to fit.
 * Returns the rows taken, or 0 when even its capped form does not fit. */
static size_t add_field(struct strbuf *sb, const char *prefix, const char *text, const char *marks,
                        size_t max_rows, const struct approval_screen *screen)
{
	struct units all = {0}, shown = {0};
	size_t len = text ? strlen(text) : 0;
	units_of(&all, text ? text : "", len);
	units_mark(&all, marks, len);
	size_t cols = screen->cols > 1 ? screen->cols - 1 : 1;
	size_t width = cols > strlen(prefix) + 8 ? cols - strlen(prefix) : 8;
	size_t budget = max_rows * width, rows = 0;
	while (1) {
		units_cap(&all, text, budget, &shown);
		rows = units_draw(NULL, prefix, &shown, text, screen);
		if (rows <= max_rows)
			break;
		/* Whole units do not fill a line, and carets take rows: less. */
		if (budget < width / 2 + 40) {
			rows = 0;
			break;
		}
		budget -= width / 2;
	}
	if (rows)
		units_draw(sb, prefix, &shown, text, screen);
	free(all.u);
	free(shown.u);
	return rows;
}

/* Rows a line of plain ASCII text (plus room for typing) takes. */
static size_t rows_of(size_t width, const struct approval_screen *screen)
{
	size_t cols = screen->cols ? screen->cols : 1;
	return width ? (width + cols - 1) / cols : 1;
}

void approval_screen_of(int fd, bool attrs, struct approval_screen *screen)
{
	struct winsize ws;
	screen->attrs = attrs;
	screen->rows = 24;
	screen->cols = 80;
	if (ioctl(fd, TIOCGWINSZ, &ws) == 0 && ws.ws_row && ws.ws_col) {
		screen->rows = ws.ws_row;
		screen->cols = ws.ws_col;
	}
}

void approval_screen_enter(struct strbuf *sb, bool attrs, bool alt)
{
	/* CAN ends an escape sequence or string left unfinished (ST too,
	 * for terminals that only end strings with it). */
	strbuf_adds(sb, "\030\033\\");
	if (!attrs) {
		strbuf_adds(sb, "\r\n");
		return;
	}
	/* A printer controller mode would send the question to the printer
	 * and not show it. */
	strbuf_adds(sb, "\033[4i");
	if (alt)
		strbuf_adds(sb, "\033[?1049h");
	/* Soft reset, then each mode it may not cover: scroll region, left
	 * and right margins, origin, autowrap, insert, newline, UTF-8, the four
	 * charsets and SI, attributes, cursor, screen video, colours; and what
	 * the keys send (cursor keys, keypad, mouse reports, bracketed paste),
	 * so that a code typed or pasted reaches the answer as typed. */
	strbuf_adds(sb, "\033[!p\033[r\033[?69l\033[?6l\033[?7h\033[4l\033[20l\033%G"
	                "\033(B\033)B\033*B\033+B\017\033[0m\033[?25h\033[?5l"
	                "\033]104\033\\\033]110\033\\\033]111\033\\"
	                "\033[?1l\033>\033[?1000l\033[?1002l\033[?1003l\033[?1006l\033[?2004l");
	strbuf_adds(sb, alt ? "\033[H\033[J" : "\r\n"); /* clear: home, erase below */
}

void approval_screen_leave(struct strbuf *sb, bool attrs)
{
	if (attrs)
		strbuf_adds(sb, "\033[?1049l");
	else
		strbuf_adds(sb, "\r\n");
}

bool approval_prompt(struct strbuf *sb, const struct approval_question *q, pid_t from,
                     const char *code, size_t waiting, const struct approval_screen *screen)
{
	const char *header = q->escape ? "sbsh: the agent asks to run a command OUTSIDE the sandbox:\n"
	                               : "sbsh: the agent wants to run a command that needs your approval:\n";
	struct strbuf fields, answer, cmd;
	strbuf_init(&fields);
	strbuf_init(&answer);
	strbuf_init(&cmd);
	size_t used = rows_of(strlen(header) - 1, screen);
	size_t r = add_field(&fields, "  in: ", q->folder, NULL, 3, screen);
	bool fits = r > 0;
	used += r;
	if (from > 0) {
		size_t before = fields.len;
		strbuf_addf(&fields, "  session: sbsh pid %ld\n", (long)from);
		used += rows_of(fields.len - before - 1, screen);
	}
	/* Each of its fds that is not the terminal, on a line of its own. */
	for (const char *l = q->escape && q->stdio ? q->stdio : ""; *l && fits;) {
		size_t n = strcspn(l, "\n");
		char *line = xstrndup(l, n);
		r = add_field(&fields, "  ", line, NULL, 2, screen);
		free(line);
		fits = r > 0;
		used += r;
		l += n + (l[n] == '\n');
	}
	if (fits && q->escape && q->warning && *q->warning) {
		r = add_field(&fields, "  WARNING: ", q->warning, NULL, 3, screen);
		fits = r > 0;
		used += r;
	}
	if (waiting) {
		size_t before = fields.len;
		strbuf_addf(&fields, "  (%zu more waiting)\n", waiting);
		used += rows_of(fields.len - before - 1, screen);
	}
	/* Just above the answer: what runs (the program, the name it is
	 * given) or why it is asked, so the head of a long command cannot
	 * hide it. */
	struct strbuf what;
	strbuf_init(&what);
	if (q->escape) {
		strbuf_adds(&what, q->program ? q->program : "");
		if (q->argv0 && *q->argv0) {
			strbuf_adds(&what, " (argv[0]: ");
			strbuf_adds(&what, q->argv0);
			strbuf_adds(&what, ")");
		}
	} else {
		strbuf_adds(&what, q->verdict ? q->verdict : "");
		strbuf_adds(&what, " — ");
		strbuf_adds(&what, q->reason ? q->reason : "");
	}
	if (fits) {
		r = add_field(&fields, q->escape ? "  program: " : "  verdict: ", what.data, NULL, 3, screen);
		fits = r > 0;
		used += r;
	}
	strbuf_free(&what);
	if (approval_needs_code(q) && q->escape && q->away && *q->away) {
		/* The folder is one the agent can write: it may run what the
		 * agent left there (a Makefile, a module, a config file). */
		struct strbuf where;
		strbuf_init(&where);
		strbuf_addf(&where, "type %s~ and Enter to run it in ", code ? code : "?");
		approval_add_visible(&where, q->away);
		strbuf_adds(&where, " instead (the agent cannot write there)");
		if (fits) {
			r = add_field(&fields, "  or: ", where.data, NULL, 2, screen);
			fits = r > 0;
			used += r;
		}
		strbuf_free(&where);
	}
	if (approval_needs_code(q))
		strbuf_addf(&answer, "Type %s and Enter to run it; anything else refuses (%u s): ", code ? code : "?",
		            q->timeout_s);
	else
		strbuf_addf(&answer, "Allow? [y]es once, yes for this [s]ession, [n]o (%u s): ", q->timeout_s);
	used += rows_of(answer.len + 8, screen); /* and a short answer typed */
	if (fits && used < screen->rows)
		fits = add_field(&cmd, "    ", q->command, q->marks, screen->rows - used, screen) > 0;
	else
		fits = false;
	if (fits) {
		strbuf_adds(sb, header);
		strbuf_addmem(sb, cmd.data, cmd.len);
		strbuf_addmem(sb, fields.data, fields.len);
		strbuf_addmem(sb, answer.data, answer.len);
	} else {
		strbuf_addf(sb, "sbsh: refused: the question does not fit on this terminal (%u columns, %u rows);"
		                " make it larger for the agent to ask again.\n", screen->cols, screen->rows);
	}
	strbuf_free(&fields);
	strbuf_free(&answer);
	strbuf_free(&cmd);
	return fits;
}

int approval_check_code(const struct approval_question *q, const char *code, const char *typed)
{
	size_t n = strlen(code);
	if (strcmp(typed, code) == 0)
		return BROKER_YES_ONCE;
	if (q->escape && q->away && *q->away && strncmp(typed, code, n) == 0 && strcmp(typed + n, "~") == 0)
		return BROKER_YES_AWAY;
	return BROKER_NO;
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
