/* The lexer: shell text to tokens, and words to their parts (ast.h).
 *
 * Tokens are lexed on demand by the grammar, because what a token is depends
 * on where it appears (reserved words, `((`, assignments, here-document
 * bodies after a newline, the regex after `=~`). Input is read from a stack
 * of frames: the text itself at the bottom and, above it, alias values being
 * re-read. Errors are recorded once in the lexer and every function returns
 * NULL/false after one, so the caller unwinds and frees.
 *
 * Memory: words are built in the owner's arena (ast.h), so a word costs no
 * malloc of its own; literal text is gathered in one reused buffer. */
#include "shell/lexer.h"

#include <limits.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define END_OF_INPUT (-1)
#define DEFAULT_MAX_DEPTH 1000

/* The tokens as messages name them; an operator's name is its spelling,
 * which match_operator() reads. */
static const char *const tok_names[] = {
	[TK_EOF] = "end of file", [TK_NEWLINE] = "newline", [TK_WORD] = "word",
	[TK_IO_NUMBER] = "number", [TK_SEMI] = ";", [TK_DSEMI] = ";;",
	[TK_SEMI_AND] = ";&", [TK_DSEMI_AND] = ";;&", [TK_AMP] = "&",
	[TK_AND_IF] = "&&", [TK_PIPE] = "|", [TK_OR_IF] = "||",
	[TK_PIPE_AMP] = "|&", [TK_LPAREN] = "(", [TK_RPAREN] = ")",
	[TK_LESS] = "<", [TK_GREAT] = ">", [TK_DGREAT] = ">>",
	[TK_CLOBBER] = ">|", [TK_LESSGREAT] = "<>", [TK_LESSAND] = "<&",
	[TK_GREATAND] = ">&", [TK_DLESS] = "<<", [TK_DLESSDASH] = "<<-",
	[TK_TLESS] = "<<<", [TK_AND_GREAT] = "&>", [TK_AND_DGREAT] = "&>>",
};

struct lex_frame {
	const char *text;
	size_t len;
	size_t pos;
	char *owned;  /* alias value copy */
	char *alias;  /* alias name while its value is being read */
	unsigned id;
};

struct lex_heredoc {
	struct word *body; /* owned by the redirection, filled in place */
	char *delim;
	bool strip;
	bool quoted;
	struct src_pos pos;
};

struct cursor {
	size_t f;
	size_t pos;
};

/* ---- characters --------------------------------------------------------- */

size_t lex_decode_dollar_escape(const char *s, size_t n, struct strbuf *out)
{
	if (n == 0) {
		strbuf_addc(out, '\\');
		return 0;
	}
	unsigned char c = (unsigned char)s[0];
	switch (c) {
	case 'n': strbuf_addc(out, '\n'); return 1;
	case 't': strbuf_addc(out, '\t'); return 1;
	case 'r': strbuf_addc(out, '\r'); return 1;
	case 'a': strbuf_addc(out, '\a'); return 1;
	case 'b': strbuf_addc(out, '\b'); return 1;
	case 'f': strbuf_addc(out, '\f'); return 1;
	case 'v': strbuf_addc(out, '\v'); return 1;
	case 'e':
	case 'E': strbuf_addc(out, 033); return 1;
	case '\\':
	case '\'':
	case '"':
	case '?': strbuf_addc(out, (char)c); return 1;
	case 'c':
		if (n >= 2) {
			unsigned char x = (unsigned char)s[1];
			strbuf_addc(out, x == '?' ? 0x7f : (char)(x & 0x1f));
			return 2;
		}
		strbuf_addmem(out, "\\c", 2);
		return 1;
	case 'x':
	case 'u':
	case 'U': {
		size_t max = c == 'x' ? 2 : c == 'u' ? 4 : 8;
		size_t i = 1;
		uint32_t v = 0;
		while (i <= max && i < n && hex_digit_value((unsigned char)s[i]) >= 0) {
			v = v * 16 + (uint32_t)hex_digit_value((unsigned char)s[i]);
			i++;
		}
		if (i == 1) {
			/* No digits: keep the text as written. */
			strbuf_addc(out, '\\');
			strbuf_addc(out, (char)c);
			return 1;
		}
		if (c == 'x')
			strbuf_addc(out, (char)v);
		else
			strbuf_add_utf8(out, v);
		return i;
	}
	default:
		if (c >= '0' && c <= '7') {
			size_t i = 0;
			unsigned v = 0;
			while (i < 3 && i < n && s[i] >= '0' && s[i] <= '7') {
				v = v * 8 + (unsigned)(s[i] - '0');
				i++;
			}
			strbuf_addc(out, (char)(v & 0xff));
			return i;
		}
		strbuf_addc(out, '\\');
		strbuf_addc(out, (char)c);
		return 1;
	}
}

void lex_decode_dollar_text(const char *s, size_t n, struct strbuf *out)
{
	for (size_t i = 0; i < n;) {
		if (s[i] == '\\') {
			i++;
			i += lex_decode_dollar_escape(s + i, n - i, out);
		} else {
			strbuf_addc(out, s[i++]);
		}
	}
}

char *lex_heredoc_delimiter(const char *raw, size_t len, bool *quoted)
{
	struct strbuf sb;
	strbuf_init(&sb);
	*quoted = false;
	size_t i = 0;
	while (i < len) {
		char c = raw[i];
		if (c == '\\') {
			if (i + 1 < len && raw[i + 1] == '\n') {
				i += 2;
				continue;
			}
			*quoted = true;
			if (i + 1 < len)
				strbuf_addc(&sb, raw[i + 1]);
			i += 2;
		} else if (c == '\'') {
			*quoted = true;
			i++;
			while (i < len && raw[i] != '\'')
				strbuf_addc(&sb, raw[i++]);
			i++;
		} else if (c == '"') {
			*quoted = true;
			i++;
			while (i < len && raw[i] != '"') {
				if (raw[i] == '\\' && i + 1 < len &&
				    strchr("$`\"\\\n", raw[i + 1])) {
					if (raw[i + 1] != '\n')
						strbuf_addc(&sb, raw[i + 1]);
					i += 2;
					continue;
				}
				strbuf_addc(&sb, raw[i++]);
			}
			i++;
		} else if (c == '$' && i + 1 < len && (raw[i + 1] == '\'' || raw[i + 1] == '"')) {
			/* $'..' and $".." delimiters: bash takes the quoted text as is. */
			i++;
		} else {
			strbuf_addc(&sb, c);
			i++;
		}
	}
	return strbuf_detach(&sb);
}

void lex_quote_dollar(struct strbuf *out, const char *text, size_t len)
{
	strbuf_adds(out, "$'");
	for (size_t i = 0; i < len; i++) {
		unsigned char c = (unsigned char)text[i];
		switch (c) {
		case '\\': strbuf_adds(out, "\\\\"); break;
		case '\'': strbuf_adds(out, "\\'"); break;
		case '\n': strbuf_adds(out, "\\n"); break;
		case '\t': strbuf_adds(out, "\\t"); break;
		case '\r': strbuf_adds(out, "\\r"); break;
		case '\a': strbuf_adds(out, "\\a"); break;
		case '\b': strbuf_adds(out, "\\b"); break;
		case '\f': strbuf_adds(out, "\\f"); break;
		case '\v': strbuf_adds(out, "\\v"); break;
		case 033: strbuf_adds(out, "\\E"); break;
		default:
			if (c < 0x20 || c == 0x7f)
				strbuf_addf(out, "\\%03o", c);
			else
				strbuf_addc(out, (char)c);
		}
	}
	strbuf_addc(out, '\'');
}

/* ---- errors ------------------------------------------------------------- */

void lex_fail_at(struct lexer *lx, struct src_pos pos, bool incomplete, const char *fmt, ...)
{
	if (lx->failed)
		return;
	struct strbuf sb;
	strbuf_init(&sb);
	va_list ap;
	va_start(ap, fmt);
	strbuf_vaddf(&sb, fmt, ap);
	va_end(ap);
	lx->failed = true;
	lx->err.message = strbuf_detach(&sb);
	lx->err.pos = pos;
	lx->err.incomplete = incomplete;
	lx->err.wait_for[0] = '\0';
	lx->err.wait_line = lx->err.wait_strip = lx->err.wait_command = false;
}

void lex_fail_wait(struct lexer *lx, const char *text, bool line, bool strip)
{
	size_t n = text ? strlen(text) : 0;
	if (n == 0 || n >= sizeof lx->err.wait_for)
		return;
	memcpy(lx->err.wait_for, text, n + 1);
	lx->err.wait_line = line;
	lx->err.wait_strip = strip;
}

bool lex_enter(struct lexer *lx)
{
	if (++lx->depth > lx->max_depth) {
		lex_fail_at(lx, lex_pos(lx), false, "too deeply nested");
		return false;
	}
	return true;
}

void lex_leave(struct lexer *lx)
{
	lx->depth--;
}

/* ---- the reader --------------------------------------------------------- */

/* Inline in this file: every token and part asks for its position. */
static inline struct src_pos pos_here(const struct lexer *lx)
{
	const struct lex_frame *f = &lx->frames[0];
	struct src_pos pos;
	pos.line = lx->line;
	pos.col = (unsigned)(f->pos - lx->line_start + 1);
	if (lx->line == lx->first_line)
		pos.col += lx->first_col - 1;
	pos.offset = (unsigned)(lx->base_offset + f->pos);
	return pos;
}

struct src_pos lex_pos(const struct lexer *lx)
{
	return pos_here(lx);
}
#define lex_pos(lx) pos_here(lx)

static struct cursor cur_top(const struct lexer *lx)
{
	struct cursor c = {lx->nframes - 1, lx->frames[lx->nframes - 1].pos};
	return c;
}

/* The raw byte at c, moving c down exhausted alias frames. */
static int cur_raw(const struct lexer *lx, struct cursor *c)
{
	for (;;) {
		const struct lex_frame *fr = &lx->frames[c->f];
		if (c->pos < fr->len)
			return (unsigned char)fr->text[c->pos];
		if (c->f == 0)
			return END_OF_INPUT;
		c->f--;
		c->pos = lx->frames[c->f].pos;
	}
}

/* The byte at c after skipping backslash-newline pairs; c ends on it. */
static int cur_peek(const struct lexer *lx, struct cursor *c)
{
	for (;;) {
		int ch = cur_raw(lx, c);
		if (ch != '\\')
			return ch;
		struct cursor n = *c;
		n.pos++;
		if (cur_raw(lx, &n) != '\n')
			return ch;
		*c = n;
		c->pos++;
	}
}

/* Returns the logical character at c and moves past it. */
static int cur_next(const struct lexer *lx, struct cursor *c)
{
	int ch = cur_peek(lx, c);
	if (ch != END_OF_INPUT)
		c->pos++;
	return ch;
}

static int la_slow(const struct lexer *lx, size_t k);

/* The k-th logical character ahead (line continuations removed). Inline:
 * the lexer asks for the next character at every step. */
static inline int la(const struct lexer *lx, size_t k)
{
	if (k == 0 && lx->nframes == 1) {
		const struct lex_frame *f = &lx->frames[0];
		if (f->pos < f->len && f->text[f->pos] != '\\')
			return (unsigned char)f->text[f->pos];
	}
	return la_slow(lx, k);
}

static int la_slow(const struct lexer *lx, size_t k)
{
	const struct lex_frame *top = &lx->frames[lx->nframes - 1];
	if (lx->nframes == 1 && top->pos + k < top->len) {
		/* Fast path: no backslash in the way. */
		const char *s = top->text + top->pos;
		bool simple = true;
		for (size_t i = 0; i <= k; i++)
			if (s[i] == '\\') {
				simple = false;
				break;
			}
		if (simple)
			return (unsigned char)s[k];
	}
	struct cursor c = cur_top(lx);
	for (size_t i = 0; i < k; i++)
		if (cur_next(lx, &c) == END_OF_INPUT)
			return END_OF_INPUT;
	return cur_peek(lx, &c);
}

static void pop_frame(struct lexer *lx)
{
	struct lex_frame *f = &lx->frames[--lx->nframes];
	free(f->owned);
	free(f->alias);
	f->owned = NULL;
	f->alias = NULL;
}

static int raw_peek(const struct lexer *lx)
{
	struct cursor c = cur_top(lx);
	return cur_raw(lx, &c);
}

/* Consumes one raw byte. Exhausted alias frames are popped only here, so an
 * alias stays "being expanded" until its text has been read past. */
static void raw_advance(struct lexer *lx)
{
	if (lx->nframes == 1) {
		struct lex_frame *f = &lx->frames[0];
		if (f->pos < f->len) {
			if (f->text[f->pos] == '\n') {
				lx->line++;
				lx->line_start = f->pos + 1;
			}
			f->pos++;
		}
		return;
	}
	while (lx->nframes > 1 && lx->frames[lx->nframes - 1].pos >= lx->frames[lx->nframes - 1].len)
		pop_frame(lx);
	struct lex_frame *f = &lx->frames[lx->nframes - 1];
	if (f->pos >= f->len)
		return;
	if (lx->nframes == 1 && f->text[f->pos] == '\n') {
		lx->line++;
		lx->line_start = f->pos + 1;
	}
	f->pos++;
}

/* Consumes one logical character (and the line continuations before it). */
static void advance_slow(struct lexer *lx);

static inline void advance(struct lexer *lx)
{
	if (lx->nframes == 1) {
		/* Fast path: the text itself, no line continuation here. */
		struct lex_frame *f = &lx->frames[0];
		if (f->pos < f->len && f->text[f->pos] != '\\') {
			if (f->text[f->pos] == '\n') {
				lx->line++;
				lx->line_start = f->pos + 1;
			}
			f->pos++;
			return;
		}
	}
	advance_slow(lx);
}

static void advance_slow(struct lexer *lx)
{
	for (;;) {
		struct cursor c = cur_top(lx);
		int ch = cur_raw(lx, &c);
		if (ch == '\\') {
			c.pos++;
			if (cur_raw(lx, &c) == '\n') {
				raw_advance(lx);
				raw_advance(lx);
				continue;
			}
		}
		raw_advance(lx);
		return;
	}
}

static void push_frame(struct lexer *lx, const char *text, size_t len, char *owned, char *alias)
{
	if (lx->nframes == lx->capframes) {
		lx->capframes = lx->capframes ? lx->capframes * 2 : 4;
		lx->frames = xreallocarray(lx->frames, lx->capframes, sizeof *lx->frames);
	}
	struct lex_frame *f = &lx->frames[lx->nframes++];
	f->text = text;
	f->len = len;
	f->pos = 0;
	f->owned = owned;
	f->alias = alias;
	f->id = lx->next_frame_id++;
}

bool lex_alias_active(const struct lexer *lx, const char *name)
{
	for (size_t i = 1; i < lx->nframes; i++)
		if (lx->frames[i].alias && strcmp(lx->frames[i].alias, name) == 0)
			return true;
	return false;
}


static char *arena_str(struct lexer *lx, const char *s, size_t len)
{
	return ast_arena_strndup(lx->arena, s ? s : "", s ? len : 0); /* an empty strbuf has no data */
}

/* ---- word building ------------------------------------------------------ */

/* A word being built. Its literal run is the top of lx->lit from lit_start:
 * every nested construct flushes the run before it starts, so nested
 * words stack their text above it. */
struct parts {
	struct builder v; /* struct word_part */
	bool have_lit;
	size_t lit_start;
	enum quote_style lit_quote;
};

static void parts_init(struct parts *ps)
{
	/* Not the builder's small buffer: only its first n elements are read,
	 * and clearing all of it (a `rep stos`) showed in the parse profile. */
	ps->v.v = NULL;
	ps->v.n = 0;
	ps->have_lit = false;
	ps->lit_start = 0;
	ps->lit_quote = QUOTE_NONE;
}

static struct word_part *parts_push(struct lexer *lx, struct parts *ps, enum word_part_kind kind)
{
	struct word_part *wp = builder_push(&lx->scratch, &ps->v, sizeof *wp);
	wp->kind = kind;
	return wp;
}

/* A literal part's text, copied to the arena. A text of 4 GiB or more
 * (the length is 32 bits) is refused rather than cut. */
static void set_literal(struct lexer *lx, struct word_part *wp, const char *text, size_t len,
                        enum quote_style q)
{
	if (len > UINT_MAX) {
		lex_fail_at(lx, lex_pos(lx), false, "word too long");
		len = 0;
	}
	wp->u.literal.text = arena_str(lx, text ? text : "", len);
	wp->u.literal.len = (unsigned)len;
	wp->u.literal.quote = q;
}

static void parts_flush(struct lexer *lx, struct parts *ps)
{
	if (!ps->have_lit)
		return;
	size_t len = lx->lit.len - ps->lit_start;
	struct word_part *wp = parts_push(lx, ps, WORD_LITERAL);
	set_literal(lx, wp, lx->lit.data + ps->lit_start, len, ps->lit_quote);
	strbuf_truncate(&lx->lit, ps->lit_start);
	ps->have_lit = false;
}

static void parts_lit_start(struct lexer *lx, struct parts *ps, enum quote_style q)
{
	if (ps->have_lit && ps->lit_quote != q)
		parts_flush(lx, ps);
	if (!ps->have_lit) {
		ps->have_lit = true;
		ps->lit_quote = q;
		ps->lit_start = lx->lit.len;
	}
}

/* Adds c to the current literal run; call before consuming c. */
static void parts_addc(struct lexer *lx, struct parts *ps, int c, enum quote_style q)
{
	parts_lit_start(lx, ps, q);
	strbuf_addc(&lx->lit, (char)c);
}

/* A literal part of its own; text is copied. */
static struct word_part *parts_add_literal(struct lexer *lx, struct parts *ps, const char *text, size_t len,
                                           enum quote_style q)
{
	struct word_part *wp = parts_push(lx, ps, WORD_LITERAL);
	set_literal(lx, wp, text, len, q);
	return wp;
}

/* The word and its parts in one piece of the arena. */
static struct word *word_from_parts(struct lexer *lx, const struct word_part *v, size_t n,
                                    struct src_pos begin, struct src_pos end)
{
	struct word *w = ast_arena_alloc(lx->arena, sizeof *w + n * sizeof *w->parts);
	w->parts = n ? (struct word_part *)(w + 1) : NULL;
	if (n)
		memcpy(w->parts, v, n * sizeof *v);
	w->nparts = n;
	w->range.begin = begin;
	w->range.end = end;
	return w;
}

static struct word *parts_finish(struct lexer *lx, struct parts *ps, struct src_pos begin)
{
	parts_flush(lx, ps);
	struct word *w = word_from_parts(lx, ps->v.n ? builder_at(&ps->v, 0, sizeof(struct word_part)) : NULL,
	                                 ps->v.n, begin, lex_pos(lx));
	builder_release(&lx->scratch, &ps->v);
	return w;
}

static void parts_discard(struct lexer *lx, struct parts *ps)
{
	if (ps->have_lit && ps->lit_start <= lx->lit.len)
		strbuf_truncate(&lx->lit, ps->lit_start);
	ps->have_lit = false;
	builder_release(&lx->scratch, &ps->v);
}

/* ---- words -------------------------------------------------------------- */

enum wmode {
	WM_NORMAL,    /* an unquoted shell word */
	WM_DQUOTE,    /* inside "..." (up to the closing quote) */
	WM_HEREDOC,   /* an unquoted here-document body (to the end of text) */
	WM_PARAM,     /* the operand of ${x op ...} (up to `}` or `stop`) */
	WM_ARITH,     /* inside $(( )) / (( )) (up to an unbalanced `)` or `stop`) */
	WM_ARITH_BRACKET, /* inside bash's old $[ ] (up to an unbalanced `]`) */
	WM_SUBSCRIPT, /* inside a[...] (up to an unbalanced `]`): quoted text, but
	               * quotes and backslashes are removed as in a plain word */
	WM_REGEX,     /* the right side of =~ in [[ ]] */
};

struct wopts {
	enum wmode mode;
	bool dq;  /* WM_PARAM: the ${ } itself is inside double quotes */
	int stop; /* WM_PARAM / WM_ARITH: another terminating character, or 0 */
	/* WM_PARAM in double quotes: the operand of # % / ^ , where bash still
	 * takes single quotes as quotes ("${x#'*'}" removes a star) */
	bool sq;
};

static bool lex_parts(struct lexer *lx, struct parts *ps, const struct wopts *wo);

/* A word of its own in the given mode, from the cursor (which stood at
 * begin) to the mode's end, not consumed. NULL on error. */
static struct word *lex_mode_word(struct lexer *lx, struct src_pos begin, enum wmode mode, bool dq,
                                  int stop)
{
	struct parts ps;
	parts_init(&ps);
	struct wopts wo = {mode, dq, stop, false};
	if (!lex_parts(lx, &ps, &wo)) {
		parts_discard(lx, &ps);
		return NULL;
	}
	return parts_finish(lx, &ps, begin);
}

/* At `[`: the subscript up to the matching `]`, both brackets consumed. */
static struct word *lex_subscript(struct lexer *lx)
{
	struct src_pos begin = lex_pos(lx);
	advance(lx);
	struct word *w = lex_mode_word(lx, begin, WM_SUBSCRIPT, true, 0);
	if (!w)
		return NULL;
	if (la(lx, 0) != ']') {
		lex_fail_eof(lx, "]");
		return NULL;
	}
	advance(lx);
	return w;
}

void lex_fail_eof(struct lexer *lx, const char *what)
{
	if (lx->failed)
		return;
	lex_fail_at(lx, lex_pos(lx), true, "unexpected EOF while looking for matching `%s'", what);
	lex_fail_wait(lx, what, false, false);
}

static bool lex_single_quote(struct lexer *lx, struct parts *ps)
{
	parts_flush(lx, ps);
	advance(lx); /* the opening quote */
	size_t start = lx->lit.len;
	const char *q = NULL;
	if (lx->nframes == 1)
		q = memchr(lx->frames[0].text + lx->frames[0].pos, '\'', lx->frames[0].len - lx->frames[0].pos);
	if (q) {
		/* Fast path: straight from the text. */
		struct lex_frame *f = &lx->frames[0];
		const char *s = f->text + f->pos;
		for (const char *nl = memchr(s, '\n', (size_t)(q - s)); nl;
		     nl = memchr(nl + 1, '\n', (size_t)(q - nl - 1))) {
			lx->line++;
			lx->line_start = f->pos + (size_t)(nl - s) + 1;
		}
		f->pos += (size_t)(q - s) + 1;
		parts_add_literal(lx, ps, s, (size_t)(q - s), QUOTE_SINGLE);
		return true;
	}
	for (;;) {
		int c = raw_peek(lx);
		if (c == END_OF_INPUT) {
			strbuf_truncate(&lx->lit, start);
			lex_fail_eof(lx, "'");
			return false;
		}
		raw_advance(lx);
		if (c == '\'')
			break;
		strbuf_addc(&lx->lit, (char)c);
	}
	parts_add_literal(lx, ps, lx->lit.data + start, lx->lit.len - start, QUOTE_SINGLE);
	strbuf_truncate(&lx->lit, start);
	return true;
}

static bool lex_dollar_single(struct lexer *lx, struct parts *ps)
{
	parts_flush(lx, ps);
	advance(lx); /* $ */
	advance(lx); /* ' */
	struct strbuf raw, out;
	strbuf_init(&raw);
	for (;;) {
		int c = raw_peek(lx);
		if (c == END_OF_INPUT) {
			strbuf_free(&raw);
			lex_fail_eof(lx, "'");
			return false;
		}
		raw_advance(lx);
		if (c == '\'')
			break;
		strbuf_addc(&raw, (char)c);
		if (c == '\\') {
			int n = raw_peek(lx);
			if (n == END_OF_INPUT)
				continue;
			strbuf_addc(&raw, (char)n);
			raw_advance(lx);
		}
	}
	strbuf_init(&out);
	lex_decode_dollar_text(raw.data ? raw.data : "", raw.len, &out);
	strbuf_free(&raw);
	parts_add_literal(lx, ps, out.data, out.len, QUOTE_DOLLAR);
	strbuf_free(&out);
	return true;
}

/* "..." as a WORD_DQUOTE part; at the opening quote. */
static bool lex_dquote(struct lexer *lx, struct parts *ps)
{
	struct src_pos begin = lex_pos(lx);
	parts_flush(lx, ps);
	if (!lex_enter(lx))
		return false;
	advance(lx);
	struct parts inner;
	parts_init(&inner);
	struct wopts wo = {WM_DQUOTE, true, 0, false};
	if (!lex_parts(lx, &inner, &wo)) {
		parts_discard(lx, &inner);
		lex_leave(lx);
		return false;
	}
	if (la(lx, 0) != '"') {
		parts_discard(lx, &inner);
		lex_leave(lx);
		lex_fail_eof(lx, "\"");
		return false;
	}
	advance(lx);
	struct word *w = parts_finish(lx, &inner, begin);
	struct word_part *wp = parts_push(lx, ps, WORD_DQUOTE);
	wp->u.dquote = w;
	lex_leave(lx);
	return true;
}

/* Scans ahead from c (just after `((`) to decide whether the parentheses
 * close as arithmetic, `))`, like bash does before falling back to a
 * command substitution or subshell. */
static bool arith_closes(const struct lexer *lx, struct cursor c)
{
	int depth = 0;
	for (;;) {
		int ch = cur_next(lx, &c);
		switch (ch) {
		case END_OF_INPUT:
			return true; /* let the arithmetic parser report it */
		case '(':
			depth++;
			break;
		case ')':
			if (depth == 0)
				return cur_peek(lx, &c) == ')';
			depth--;
			break;
		case '\\':
			cur_next(lx, &c);
			break;
		case '\'':
			while ((ch = cur_raw(lx, &c)) != END_OF_INPUT && ch != '\'')
				c.pos++;
			if (ch == '\'')
				c.pos++;
			break;
		case '"':
			while ((ch = cur_next(lx, &c)) != END_OF_INPUT && ch != '"')
				if (ch == '\\')
					cur_next(lx, &c);
			break;
		default:
			break;
		}
	}
}

/* The raw text from `from` up to `to` when both are in the same frame. */
static char *frame_slice(struct lexer *lx, struct lex_mark from, struct lex_mark to)
{
	if (from.frame != to.frame || from.frame_id != to.frame_id || from.frame >= lx->nframes ||
	    lx->frames[from.frame].id != from.frame_id || to.pos < from.pos)
		return NULL;
	return arena_str(lx, lx->frames[from.frame].text + from.pos, to.pos - from.pos);
}

static struct word_subst *new_subst(struct lexer *lx, struct node *program, char *text)
{
	struct word_subst *sub = ast_arena_zalloc(lx->arena, sizeof *sub);
	sub->program = program;
	sub->text = text;
	return sub;
}

/* $( ... ) and <( ... ) / >( ... ): at the `(`. */
static bool lex_cmdsub_body(struct lexer *lx, struct node **program, char **text)
{
	if (!lex_enter(lx))
		return false;
	advance(lx); /* ( */
	size_t f = lx->nframes - 1;
	struct lex_mark open = {f, lx->frames[f].id, lx->frames[f].pos};
	struct lex_mark close = {0, 0, 0};
	*program = lx->grammar->subprogram(lx->grammar_ctx, &close);
	lex_leave(lx);
	if (lx->failed)
		return false;
	*text = frame_slice(lx, open, close);
	if (!*text) {
		struct strbuf sb;
		strbuf_init(&sb);
		if (*program)
			ast_print_node(&sb, *program);
		*text = arena_str(lx, sb.data, sb.len);
		strbuf_free(&sb);
	}
	return true;
}

static bool lex_arith_body(struct lexer *lx, struct word **expr, int stop)
{
	*expr = lex_mode_word(lx, lex_pos(lx), WM_ARITH, true, stop);
	return *expr != NULL;
}

/* At `((`-less position just after `$((`: the expression and `))`. */
static bool lex_arith_close(struct lexer *lx)
{
	if (la(lx, 0) == ')' && la(lx, 1) == ')') {
		advance(lx);
		advance(lx);
		return true;
	}
	if (la(lx, 0) == END_OF_INPUT)
		lex_fail_eof(lx, ")");
	else
		lex_fail_at(lx, lex_pos(lx), false, "syntax error: missing `))'");
	return false;
}

/* `...`: the body with \$ \` \\ (and \" inside double quotes) unescaped,
 * then parsed as a program of its own. */
static bool lex_backquote(struct lexer *lx, struct parts *ps, bool dq)
{
	parts_flush(lx, ps);
	if (!lex_enter(lx))
		return false;
	advance(lx);
	struct src_pos body_pos = lex_pos(lx);
	struct strbuf sb;
	strbuf_init(&sb);
	for (;;) {
		int c = la(lx, 0);
		if (c == END_OF_INPUT) {
			strbuf_free(&sb);
			lex_leave(lx);
			lex_fail_eof(lx, "`");
			return false;
		}
		advance(lx);
		if (c == '`')
			break;
		if (c == '\\') {
			int n = la(lx, 0);
			if (n == '$' || n == '`' || n == '\\' || (dq && n == '"')) {
				strbuf_addc(&sb, (char)n);
				advance(lx);
				continue;
			}
		}
		strbuf_addc(&sb, (char)c);
	}
	const char *body = sb.data ? sb.data : "";
	struct node *program = lx->grammar->text_program(lx->grammar_ctx, body, sb.len, body_pos);
	lex_leave(lx);
	if (lx->failed) {
		strbuf_free(&sb);
		return false;
	}
	struct word_subst *sub = new_subst(lx, program, arena_str(lx, sb.data, sb.len));
	strbuf_free(&sb);
	sub->backquote = true;
	parts_push(lx, ps, WORD_CMDSUB)->u.cmdsub = sub;
	return true;
}

/* A parameter name at the current position for ${...}; NULL if none. */
static char *lex_param_name(struct lexer *lx)
{
	int c = la(lx, 0);
	size_t start = lx->lit.len;
	if (lex_is_name_start(c)) {
		while (lex_is_name_char(c = la(lx, 0))) {
			strbuf_addc(&lx->lit, (char)c);
			advance(lx);
		}
	} else if (lex_is_digit(c)) {
		while (lex_is_digit(c = la(lx, 0))) {
			strbuf_addc(&lx->lit, (char)c);
			advance(lx);
		}
	} else if (c != END_OF_INPUT && strchr("@*#?-$!", c)) {
		strbuf_addc(&lx->lit, (char)c);
		advance(lx);
	} else {
		return NULL;
	}
	char *name = arena_str(lx, lx->lit.data + start, lx->lit.len - start);
	strbuf_truncate(&lx->lit, start);
	return name;
}

/* After skipping a parameter name starting at c: the next character. */
static int char_after_name(const struct lexer *lx, struct cursor c)
{
	int ch = cur_peek(lx, &c);
	if (lex_is_name_start(ch)) {
		while (lex_is_name_char(cur_peek(lx, &c)))
			cur_next(lx, &c);
	} else if (lex_is_digit(ch)) {
		while (lex_is_digit(cur_peek(lx, &c)))
			cur_next(lx, &c);
	} else if (ch != END_OF_INPUT && strchr("@*#?-$!", ch)) {
		cur_next(lx, &c);
	} else {
		return -2; /* no name here */
	}
	return cur_peek(lx, &c);
}

/* The operand of ${x op ...}; pattern: op is one of # % / ^ , (see sq). */
static bool lex_param_word(struct lexer *lx, struct word **out, bool dq, int stop, bool pattern)
{
	struct src_pos begin = lex_pos(lx);
	struct parts ps;
	parts_init(&ps);
	struct wopts wo = {WM_PARAM, dq, stop, dq && pattern};
	if (!lex_parts(lx, &ps, &wo)) {
		parts_discard(lx, &ps);
		*out = NULL;
		return false;
	}
	*out = parts_finish(lx, &ps, begin);
	return true;
}

static void bad_substitution(struct lexer *lx, struct src_pos pos)
{
	if (la(lx, 0) == END_OF_INPUT)
		lex_fail_eof(lx, "}");
	else
		lex_fail_at(lx, pos, false, "bad substitution");
}

/* At the operator character c of ${x op...}: past it, and past a second c
 * when it is doubled (%% ## ^^ ,,), which the result tells. */
static bool op_doubled(struct lexer *lx, int c)
{
	advance(lx);
	if (la(lx, 0) != c)
		return false;
	advance(lx);
	return true;
}

/* ${...}: at the `$`. */
static bool lex_braced_param(struct lexer *lx, struct parts *ps, bool dq)
{
	struct src_pos begin = lex_pos(lx);
	parts_flush(lx, ps);
	if (!lex_enter(lx))
		return false;
	advance(lx); /* $ */
	advance(lx); /* { */
	struct word_param wp;
	memset(&wp, 0, sizeof wp);
	wp.braced = true;
	wp.op = PARAM_PLAIN;
	int c = la(lx, 0);
	bool length = false;
	if (c == '#' || c == '!') {
		struct cursor cur = cur_top(lx);
		cur_next(lx, &cur);
		int after = char_after_name(lx, cur);
		int next = la(lx, 1);
		bool prefix_form = false;
		if (c == '!' && lex_is_name_start(next)) {
			/* ${!prefix*} / ${!prefix@} */
			prefix_form = after == '*' || after == '@';
		}
		if (next != '}' && (after == '}' || after == '[' || prefix_form ||
		                    (c == '!' && after != -2))) {
			advance(lx);
			if (c == '#')
				length = true;
			else
				wp.indirect = true;
		}
	}
	wp.name = lex_param_name(lx);
	if (!wp.name) {
		bad_substitution(lx, begin);
		goto fail;
	}
	if (wp.indirect && (la(lx, 0) == '*' || la(lx, 0) == '@') && la(lx, 1) == '}') {
		wp.indirect = false;
		wp.op = PARAM_PREFIX_NAMES;
		wp.at = la(lx, 0) == '@';
		advance(lx);
	}
	if (lex_is_name_start((unsigned char)wp.name[0]) && la(lx, 0) == '[') {
		wp.index = lex_subscript(lx);
		if (!wp.index)
			goto fail;
		if (wp.indirect && wp.index->nparts == 1 && wp.index->parts[0].kind == WORD_LITERAL &&
		    wp.index->parts[0].u.literal.len == 1 &&
		    (wp.index->parts[0].u.literal.text[0] == '@' ||
		     wp.index->parts[0].u.literal.text[0] == '*') &&
		    la(lx, 0) == '}') {
			wp.indirect = false;
			wp.op = PARAM_KEYS;
		}
	}
	if (length) {
		wp.op = PARAM_LENGTH;
		if (la(lx, 0) != '}') {
			bad_substitution(lx, begin);
			goto fail;
		}
	}
	c = la(lx, 0);
	if (c != '}' && wp.op == PARAM_PLAIN) {
		int stop = 0;
		switch (c) {
		case ':':
			advance(lx);
			c = la(lx, 0);
			if (c == '-' || c == '=' || c == '?' || c == '+') {
				wp.colon = true;
				goto simple_op;
			}
			wp.op = PARAM_SUBSTRING;
			if (c == '}') {
				/* ${x:} has no offset, which bash refuses */
				bad_substitution(lx, begin);
				goto fail;
			}
			if (!lex_param_word(lx, &wp.arg, dq, ':', false))
				goto fail;
			if (la(lx, 0) == ':') {
				advance(lx);
				if (!lex_param_word(lx, &wp.arg2, dq, 0, false))
					goto fail;
			}
			break;
		case '-':
		case '=':
		case '?':
		case '+':
simple_op:
			wp.op = c == '-' ? PARAM_DEFAULT : c == '=' ? PARAM_ASSIGN
			      : c == '?' ? PARAM_ERROR : PARAM_ALTERNATE;
			advance(lx);
			if (!lex_param_word(lx, &wp.arg, dq, 0, false))
				goto fail;
			break;
		case '%':
		case '#':
			if (op_doubled(lx, c))
				wp.op = c == '%' ? PARAM_REMOVE_LARGE_SUFFIX : PARAM_REMOVE_LARGE_PREFIX;
			else
				wp.op = c == '%' ? PARAM_REMOVE_SMALL_SUFFIX : PARAM_REMOVE_SMALL_PREFIX;
			if (!lex_param_word(lx, &wp.arg, dq, 0, true))
				goto fail;
			break;
		case '/':
			advance(lx);
			wp.op = PARAM_REPLACE;
			c = la(lx, 0);
			if (c == '/') {
				wp.op = PARAM_REPLACE_ALL;
				advance(lx);
			} else if (c == '#') {
				wp.op = PARAM_REPLACE_PREFIX;
				advance(lx);
			} else if (c == '%') {
				wp.op = PARAM_REPLACE_SUFFIX;
				advance(lx);
			}
			stop = '/';
			if (wp.op == PARAM_REPLACE_ALL && la(lx, 0) == '/') {
				/* ${x///} ${x////r}: as bash reads them, a slash right
				 * after // is the pattern, not an empty one */
				struct src_pos pb = lex_pos(lx);
				struct parts pat;
				parts_init(&pat);
				parts_addc(lx, &pat, '/', dq ? QUOTE_DOUBLE : QUOTE_NONE);
				advance(lx);
				struct wopts wo = {WM_PARAM, dq, stop, dq};
				if (!lex_parts(lx, &pat, &wo)) {
					parts_discard(lx, &pat);
					goto fail;
				}
				wp.arg = parts_finish(lx, &pat, pb);
			} else if (!lex_param_word(lx, &wp.arg, dq, stop, true)) {
				goto fail;
			}
			if (la(lx, 0) == '/') {
				advance(lx);
				if (!lex_param_word(lx, &wp.arg2, dq, 0, true))
					goto fail;
			}
			break;
		case '@':
			/* bash's transformations */
			advance(lx);
			c = la(lx, 0);
			if (c == END_OF_INPUT || !strchr("QEUuLPaAKk", c) || la(lx, 1) != '}') {
				bad_substitution(lx, begin);
				goto fail;
			}
			advance(lx);
			wp.op = PARAM_TRANSFORM;
			wp.transform = (char)c;
			break;
		case '^':
		case ',':
			if (op_doubled(lx, c))
				wp.op = c == '^' ? PARAM_UPPER_ALL : PARAM_LOWER_ALL;
			else
				wp.op = c == '^' ? PARAM_UPPER_FIRST : PARAM_LOWER_FIRST;
			if (la(lx, 0) != '}' && !lex_param_word(lx, &wp.arg, dq, 0, true))
				goto fail;
			break;
		default:
			bad_substitution(lx, begin);
			goto fail;
		}
	}
	if (la(lx, 0) != '}') {
		bad_substitution(lx, begin);
		goto fail;
	}
	advance(lx);
	struct word_param *param = ast_arena_alloc(lx->arena, sizeof *param);
	*param = wp;
	parts_push(lx, ps, WORD_PARAM)->u.param = param;
	lex_leave(lx);
	return true;
fail:
	lex_leave(lx); /* what was built stays in the arena, dropped with it */
	return false;
}

/* At a `$`: an expansion, or a literal dollar. */
static bool lex_dollar(struct lexer *lx, struct parts *ps, bool quoted)
{
	int c1 = la(lx, 1);
	if (c1 == '{')
		return lex_braced_param(lx, ps, quoted);
	if (c1 == '(') {
		parts_flush(lx, ps);
		if (la(lx, 2) == '(') {
			struct cursor c = cur_top(lx);
			cur_next(lx, &c);
			cur_next(lx, &c);
			cur_next(lx, &c);
			if (arith_closes(lx, c)) {
				if (!lex_enter(lx))
					return false;
				advance(lx);
				advance(lx);
				advance(lx);
				struct word *expr = NULL;
				bool ok = lex_arith_body(lx, &expr, 0) && lex_arith_close(lx);
				lex_leave(lx);
				if (!ok)
					return false;
				parts_push(lx, ps, WORD_ARITH)->u.arith.expr = expr;
				return true;
			}
		}
		advance(lx); /* $ */
		struct node *program = NULL;
		char *text = NULL;
		if (!lex_cmdsub_body(lx, &program, &text))
			return false;
		parts_push(lx, ps, WORD_CMDSUB)->u.cmdsub = new_subst(lx, program, text);
		return true;
	}
	if (c1 == '[') {
		/* $[ expr ]: bash's old spelling of $(( expr )). */
		parts_flush(lx, ps);
		if (!lex_enter(lx))
			return false;
		advance(lx);
		advance(lx);
		struct word *expr = lex_mode_word(lx, lex_pos(lx), WM_ARITH_BRACKET, true, 0);
		bool ok = expr != NULL;
		if (ok && la(lx, 0) != ']') {
			lex_fail_eof(lx, "]");
			ok = false;
		}
		if (ok)
			advance(lx);
		lex_leave(lx);
		if (!ok)
			return false;
		parts_push(lx, ps, WORD_ARITH)->u.arith.expr = expr;
		return true;
	}
	if (c1 == '\'' && !quoted)
		return lex_dollar_single(lx, ps);
	if (c1 == '"' && !quoted) {
		/* $"..." (locale translation) is taken as "...". */
		advance(lx);
		return lex_dquote(lx, ps);
	}
	if (lex_is_name_start(c1) || lex_is_digit(c1) ||
	    (c1 != END_OF_INPUT && strchr("@*#?-$!", c1))) {
		parts_flush(lx, ps);
		advance(lx);
		char *name;
		if (lex_is_name_start(c1)) {
			name = lex_param_name(lx);
		} else {
			name = arena_str(lx, (char[]){(char)c1}, 1);
			advance(lx);
		}
		struct word_param *param = ast_arena_zalloc(lx->arena, sizeof *param);
		param->name = name;
		param->op = PARAM_PLAIN;
		parts_push(lx, ps, WORD_PARAM)->u.param = param;
		return true;
	}
	parts_addc(lx, ps, '$', quoted ? QUOTE_DOUBLE : QUOTE_NONE);
	advance(lx);
	return true;
}

static bool lex_procsub(struct lexer *lx, struct parts *ps)
{
	bool output = la(lx, 0) == '>';
	parts_flush(lx, ps);
	advance(lx);
	struct node *program = NULL;
	char *text = NULL;
	if (!lex_cmdsub_body(lx, &program, &text))
		return false;
	struct word_subst *sub = new_subst(lx, program, text);
	sub->output = output;
	parts_push(lx, ps, WORD_PROCSUB)->u.procsub = sub;
	return true;
}

/* Characters the word loop must look at in an unquoted word, and inside
 * double quotes or a here-document; the rest are copied as they are. */
static inline bool normal_special(unsigned char c)
{
	switch (c) {
	case ' ': case '\t': case '\n': case ';': case '&': case '|': case '(': case ')':
	case '<': case '>': case '$': case '`': case '\\': case '\'': case '"':
		return true;
	default:
		return false;
	}
}

static inline bool dquote_special(unsigned char c)
{
	return c == '"' || c == '$' || c == '`' || c == '\\' || c == '\n';
}

/* In a bracketed mode: whether c ends it, being an unbalanced closing
 * bracket or the stop character outside nested brackets; *depth counts
 * the nesting. */
static inline bool nesting_ends(int c, int open, int close, int stop, int *depth)
{
	if (c == close) {
		if (*depth == 0)
			return true;
		(*depth)--;
	} else if (c == open) {
		(*depth)++;
	} else if (c == stop && *depth == 0) {
		return true;
	}
	return false;
}

/* The loop at the heart of the lexer: word parts until the mode's end. The
 * terminator is not consumed. */
/* At `(` in a plain word: whether it opens an extglob group, the literal
 * run so far ending in one of its operators. */
static bool extglob_opens(const struct lexer *lx, const struct parts *ps)
{
	if (!ps->have_lit || ps->lit_quote != QUOTE_NONE || lx->lit.len <= ps->lit_start)
		return false;
	char op = lx->lit.data[lx->lit.len - 1];
	if (!strchr("@*+?!", op))
		return false;
	bool on = lx->extglob && *lx->extglob;
	/* In [[ ]] groups need no option, as in bash; `!(` is a negation
	 * there, except in the pattern after == or != (cond_pattern). */
	return on || (lx->in_cond && (op != '!' || lx->cond_pattern));
}

static bool lex_parts(struct lexer *lx, struct parts *ps, const struct wopts *wo)
{
	int depth = 0;
	int xdepth = 0; /* nesting of extglob groups: their ( | ) are the word's */
	enum wmode mode = wo->mode;
	bool quoted = mode == WM_DQUOTE || mode == WM_HEREDOC || mode == WM_ARITH || mode == WM_ARITH_BRACKET ||
	              mode == WM_SUBSCRIPT || (mode == WM_PARAM && wo->dq);
	enum quote_style litq = quoted ? QUOTE_DOUBLE : QUOTE_NONE;
	bool bulk = mode == WM_NORMAL || mode == WM_DQUOTE || mode == WM_HEREDOC;
	for (;;) {
		if (bulk && lx->nframes == 1) {
			/* Fast path: a run of ordinary characters straight from the
			 * text (newlines excluded: they are counted one by one). */
			struct lex_frame *f = &lx->frames[0];
			const char *s = f->text + f->pos;
			size_t avail = f->len - f->pos, k = 0;
			if (mode == WM_NORMAL)
				while (k < avail && !normal_special((unsigned char)s[k]))
					k++;
			else
				while (k < avail && !dquote_special((unsigned char)s[k]))
					k++;
			if (k > 0) {
				parts_lit_start(lx, ps, litq);
				strbuf_addmem(&lx->lit, s, k);
				f->pos += k;
				continue;
			}
		}
		int c = la(lx, 0);
		if (c == END_OF_INPUT) {
			switch (mode) {
			case WM_DQUOTE:
				lex_fail_eof(lx, "\"");
				return false;
			case WM_PARAM:
				lex_fail_eof(lx, "}");
				return false;
			case WM_ARITH:
				lex_fail_eof(lx, ")");
				return false;
			case WM_ARITH_BRACKET:
				lex_fail_eof(lx, "]");
				return false;
			case WM_SUBSCRIPT:
				lex_fail_eof(lx, "]");
				return false;
			default:
				return true;
			}
		}
		switch (mode) {
		case WM_NORMAL:
			if (c == '(' && (xdepth > 0 || extglob_opens(lx, ps))) {
				xdepth++;
				parts_addc(lx, ps, c, QUOTE_NONE);
				advance(lx);
				continue;
			}
			if (xdepth > 0 && (c == ')' || c == '|' || c == ' ' || c == '\t' || c == ';' ||
			                   c == '&' || c == '<' || c == '>')) {
				if (c == ')')
					xdepth--;
				parts_addc(lx, ps, c, QUOTE_NONE);
				advance(lx);
				continue;
			}
			if (c == ' ' || c == '\t' || c == '\n' || c == ';' || c == '&' || c == '|' ||
			    c == '(' || c == ')')
				return true;
			if (c == '<' || c == '>') {
				if (la(lx, 1) != '(')
					return true;
				if (!lex_procsub(lx, ps))
					return false;
				continue;
			}
			break;
		case WM_REGEX:
			if (depth == 0 && (c == ' ' || c == '\t' || c == '\n' || c == ';' || c == '&' ||
			                   c == '<' || c == '>'))
				return true;
			if (c == '(') {
				depth++;
			} else if (c == ')') {
				if (depth == 0)
					return true;
				depth--;
			}
			if (c == '(' || c == ')' || c == '|' || c == ' ' || c == '\t' || c == '\n' ||
			    c == '<' || c == '>' || c == ';' || c == '&') {
				parts_addc(lx, ps, c, QUOTE_NONE);
				advance(lx);
				continue;
			}
			break;
		case WM_DQUOTE:
			if (c == '"')
				return true;
			break;
		case WM_HEREDOC:
			break;
		case WM_PARAM:
			if (nesting_ends(c, '{', '}', wo->stop, &depth))
				return true;
			break;
		case WM_ARITH:
			if (nesting_ends(c, '(', ')', wo->stop, &depth))
				return true;
			break;
		case WM_ARITH_BRACKET:
			if (nesting_ends(c, '[', ']', END_OF_INPUT, &depth))
				return true;
			break;
		case WM_SUBSCRIPT:
			if (nesting_ends(c, '[', ']', END_OF_INPUT, &depth)) /* no stop character */
				return true;
			break;
		}

		if (c == '$' && ((mode == WM_PARAM && wo->dq) || mode == WM_SUBSCRIPT) && la(lx, 1) == '\'') {
			/* bash's extquote (on by default): $'...' is decoded in the
			 * operand even inside double quotes; and in a subscript,
			 * where quotes are removed from an associative key */
			if (!lex_dollar_single(lx, ps))
				return false;
			continue;
		}
		if (c == '$') {
			if (!lex_dollar(lx, ps, quoted))
				return false;
			continue;
		}
		if (c == '`') {
			if (!lex_backquote(lx, ps, mode == WM_DQUOTE || (mode == WM_PARAM && wo->dq)))
				return false;
			continue;
		}
		if (c == '\\') {
			int n = la(lx, 1);
			if (quoted && mode != WM_SUBSCRIPT) {
				bool esc = n == '$' || n == '`' || n == '\\' ||
				           (n == '"' && mode != WM_HEREDOC) ||
				           (n == '}' && mode == WM_PARAM) || (n == '\'' && wo->sq) ||
				           (n == '/' && mode == WM_PARAM && wo->stop == '/');
				if (esc) {
					advance(lx);
					parts_addc(lx, ps, n, QUOTE_DOUBLE);
					advance(lx);
				} else {
					parts_addc(lx, ps, '\\', QUOTE_DOUBLE);
					advance(lx);
				}
				continue;
			}
			parts_flush(lx, ps);
			advance(lx);
			char ch = n == END_OF_INPUT ? '\\' : (char)n;
			if (n != END_OF_INPUT)
				advance(lx);
			parts_add_literal(lx, ps, &ch, 1, QUOTE_BACKSLASH);
			continue;
		}
		if (c == '\'' && (!quoted || (mode == WM_PARAM && wo->sq) || mode == WM_SUBSCRIPT)) {
			if (!lex_single_quote(lx, ps))
				return false;
			continue;
		}
		if (c == '"' && mode != WM_HEREDOC) {
			if (!lex_dquote(lx, ps))
				return false;
			continue;
		}
		parts_addc(lx, ps, c, litq);
		advance(lx);
	}
}


/* ---- tokens ------------------------------------------------------------- */

void lex_token_clear(struct token *t)
{
	t->kind = TK_EOF;
	t->word = NULL;
	t->plain = t->lazy = t->is_asg = t->asg_array = false;
	t->asg_name = NULL;
	t->asg_index = NULL;
	t->asg_elems = NULL;
	t->asg_nelems = 0;
}

/* The shape NAME=, NAME+=, NAME[...]=, NAME[...]+= at the cursor. */
static bool assignment_ahead(const struct lexer *lx)
{
	struct cursor c = cur_top(lx);
	int ch = cur_next(lx, &c);
	if (!lex_is_name_start(ch))
		return false;
	if (c.f == 0) {
		/* Fast path over the name, up to anything else (a backslash
		 * included: the slow loop below takes it from there). */
		const struct lex_frame *f = &lx->frames[0];
		while (c.pos < f->len && lex_is_name_char((unsigned char)f->text[c.pos]))
			c.pos++;
	}
	while (lex_is_name_char(ch = cur_next(lx, &c)))
		;
	if (ch == '[') {
		int depth = 0;
		for (;;) {
			ch = cur_next(lx, &c);
			if (ch == '\\') {
				if (cur_next(lx, &c) == END_OF_INPUT)
					return false;
				continue;
			}
			if (ch == '\'' || ch == '"') {
				/* a quoted key: m["a b"]=1 */
				int q = ch;
				while ((ch = cur_next(lx, &c)) != q) {
					if (ch == END_OF_INPUT)
						return false;
					if (q == '"' && ch == '\\' && cur_next(lx, &c) == END_OF_INPUT)
						return false;
				}
				continue;
			}
			if ((ch == ' ' || ch == '\t') && lx->cmd_prefix && !lx->in_cond)
				continue;
			if (ch == END_OF_INPUT || ch == ' ' || ch == '\t' || ch == '\n' || ch == ';' ||
			    ch == '&' || ch == '|' || ch == '<' || ch == '>')
				return false;
			if (ch == '[')
				depth++;
			else if (ch == ']' && depth-- == 0)
				break;
		}
		ch = cur_next(lx, &c);
	}
	if (ch == '+')
		ch = cur_next(lx, &c);
	return ch == '=';
}

static bool lex_assignment(struct lexer *lx, struct token *t, struct parts *ps,
                           struct src_pos begin)
{
	t->asg_name = lex_param_name(lx);
	/* The prefix literal: NAME, then `]` after a subscript, `+`, `=`. */
	char buf[4];
	size_t blen = 0;
	const char *prefix = t->asg_name;
	size_t plen = strlen(t->asg_name);
	if (la(lx, 0) == '[') {
		t->asg_index = lex_subscript(lx);
		if (!t->asg_index)
			return false;
		/* The whole word keeps the subscript too (its parts shared: all
		 * of it is in the arena). */
		char *head = ast_arena_alloc(lx->arena, plen + 2);
		memcpy(head, prefix, plen);
		head[plen] = '[';
		head[plen + 1] = '\0';
		struct word_part *lp = parts_push(lx, ps, WORD_LITERAL);
		lp->u.literal.text = head;
		lp->u.literal.len = (unsigned)(plen + 1);
		lp->u.literal.quote = QUOTE_NONE;
		for (size_t i = 0; i < t->asg_index->nparts; i++)
			*parts_push(lx, ps, WORD_LITERAL) = t->asg_index->parts[i];
		buf[blen++] = ']';
		prefix = NULL;
	}
	if (la(lx, 0) == '+') {
		t->asg_append = true;
		buf[blen++] = '+';
		advance(lx);
	}
	buf[blen++] = '=';
	advance(lx); /* = */
	if (prefix) {
		char *text = ast_arena_alloc(lx->arena, plen + blen + 1);
		memcpy(text, prefix, plen);
		memcpy(text + plen, buf, blen);
		text[plen + blen] = '\0';
		struct word_part *lp = parts_push(lx, ps, WORD_LITERAL);
		lp->u.literal.text = text;
		lp->u.literal.len = (unsigned)(plen + blen);
		lp->u.literal.quote = QUOTE_NONE;
	} else {
		parts_add_literal(lx, ps, buf, blen, QUOTE_NONE);
	}
	t->asg_prefix = ps->v.n;
	t->asg_value_begin = lex_pos(lx);
	t->is_asg = true;
	if (la(lx, 0) == '(') {
		t->asg_array = true;
		advance(lx);
		struct builder elems = {0};
		int c;
		for (;;) {
			c = la(lx, 0);
			if (c == ' ' || c == '\t' || c == '\n') {
				advance(lx);
				continue;
			}
			if (c == '#') {
				while ((c = raw_peek(lx)) != END_OF_INPUT && c != '\n')
					raw_advance(lx);
				continue;
			}
			if (c == ')') {
				advance(lx);
				break;
			}
			if (c == END_OF_INPUT) {
				builder_release(&lx->scratch, &elems);
				lex_fail_eof(lx, ")");
				return false;
			}
			if (lex_is_word_break(c) && !((c == '<' || c == '>') && la(lx, 1) == '(')) {
				builder_release(&lx->scratch, &elems);
				lex_fail_at(lx, lex_pos(lx), false, "syntax error near unexpected token `%c'", c);
				return false;
			}
			struct word *w = lex_mode_word(lx, lex_pos(lx), WM_NORMAL, false, 0);
			if (!w) {
				builder_release(&lx->scratch, &elems);
				return false;
			}
			*(struct word **)builder_push(&lx->scratch, &elems, sizeof w) = w;
		}
		t->asg_elems = builder_finish(&lx->scratch, lx->arena, &elems, sizeof *t->asg_elems, &t->asg_nelems);
		return true;
	}
	struct wopts wo = {WM_NORMAL, false, 0, false};
	return lex_parts(lx, ps, &wo);
}

/* bash's {NAME} right before a redirection operator: the shell picks the
 * descriptor and stores it in NAME. Anything else is left to be a word. */
static bool lex_named_fd(struct lexer *lx, struct token *t)
{
	char name[256];
	size_t len = 0;
	struct cursor c = cur_top(lx);
	cur_next(lx, &c); /* { */
	int ch = cur_next(lx, &c);
	if (!lex_is_name_start(ch))
		return false;
	do {
		if (len == sizeof name - 1)
			return false;
		name[len++] = (char)ch;
	} while (lex_is_name_char(ch = cur_next(lx, &c)));
	if (ch != '}')
		return false;
	ch = cur_next(lx, &c);
	if ((ch != '<' && ch != '>') || cur_peek(lx, &c) == '(')
		return false;
	for (size_t i = 0; i < len + 2; i++)
		advance(lx);
	t->kind = TK_IO_NUMBER;
	t->io_number = -1;
	t->io_name = arena_str(lx, name, len);
	t->range.end = lex_pos(lx);
	return true;
}

/* A character a short plain word may hold on the fast path below: none
 * that starts quoting, an expansion, an operator or an assignment. */
static inline bool fast_word_char(unsigned char c)
{
	return !normal_special(c) && c != '=' && c != '[' && c != '\0';
}

/* The common word (a command name, an option, a file name): up to
 * TOKEN_TEXT_MAX plain characters straight from the text, ending where a
 * word ends. Lexed at once into the token; false leaves everything as it
 * was for the general way. */
static bool lex_fast_word(struct lexer *lx, struct token *t)
{
	if (lx->nframes != 1)
		return false;
	struct lex_frame *f = &lx->frames[0];
	const char *s = f->text + f->pos;
	size_t avail = f->len - f->pos, k = 0;
	while (k < avail && k <= TOKEN_TEXT_MAX && fast_word_char((unsigned char)s[k]))
		k++;
	if (k == 0 || k > TOKEN_TEXT_MAX || s[0] == '{')
		return false; /* {fd}> needs the general way */
	if (k < avail) {
		switch (s[k]) {
		case ' ': case '\t': case '\n': case ';': case '&': case '|': case ')':
			break;
		default:
			return false; /* a redirection (2>), a group (@( ), a quote... */
		}
	}
	memcpy(t->text, s, k);
	t->text[k] = '\0';
	t->text_len = k;
	f->pos += k;
	t->kind = TK_WORD;
	t->lazy = true;
	t->plain = true;
	t->range.end = lex_pos(lx);
	return true;
}

static void lex_word_token(struct lexer *lx, struct token *t)
{
	if (lex_fast_word(lx, t))
		return;
	struct src_pos begin = t->range.begin;
	/* An IO number: digits right before a redirection operator. */
	struct cursor c = cur_top(lx);
	int ch = 0;
	size_t ndigits = 0;
	long value = 0;
	if (lex_is_digit(la(lx, 0))) { /* most words start with no digit */
		while (lex_is_digit(ch = cur_next(lx, &c))) {
			value = value * 10 + (ch - '0');
			if (value > INT_MAX)
				value = (long)INT_MAX + 1; /* too large: an ordinary word */
			ndigits++;
		}
	}
	if (ndigits > 0 && (ch == '<' || ch == '>') && cur_peek(lx, &c) != '(' && value <= INT_MAX) {
		for (size_t i = 0; i < ndigits; i++)
			advance(lx);
		t->kind = TK_IO_NUMBER;
		t->io_number = (int)value;
		t->range.end = lex_pos(lx);
		return;
	}
	if (la(lx, 0) == '{' && lex_named_fd(lx, t))
		return;
	t->kind = TK_WORD;
	struct parts ps;
	parts_init(&ps);
	bool ok;
	if (assignment_ahead(lx)) {
		ok = lex_assignment(lx, t, &ps, begin);
	} else {
		struct wopts wo = {WM_NORMAL, false, 0, false};
		ok = lex_parts(lx, &ps, &wo);
	}
	if (!ok) {
		parts_discard(lx, &ps);
		return;
	}
	if (t->asg_array) {
		parts_discard(lx, &ps);
	} else if (!t->is_asg && ps.v.n == 0 && ps.have_lit && ps.lit_quote == QUOTE_NONE &&
	           lx->lit.len - ps.lit_start <= TOKEN_TEXT_MAX) {
		/* A short plain word: kept in the token until taken. */
		t->text_len = lx->lit.len - ps.lit_start;
		memcpy(t->text, lx->lit.data + ps.lit_start, t->text_len);
		t->text[t->text_len] = '\0';
		parts_discard(lx, &ps);
		t->lazy = true;
		t->plain = true;
	} else {
		t->word = parts_finish(lx, &ps, begin);
		t->plain = !t->is_asg && lex_word_is_plain(t->word);
	}
	t->range.end = lex_pos(lx);
}

/* The longest operator that tok_names spells from c, c1, c2 (the next
 * characters): its kind in *kind and its length, or 0 when there is none. */
static size_t match_operator(int c, int c1, int c2, enum tok_kind *kind)
{
	size_t best = 0;
	/* Unrolled, the names are constants: a chain of compares on c. */
#pragma GCC unroll 32
	for (int k = TK_SEMI; k <= TK_AND_DGREAT; k++) {
		const unsigned char *op = (const unsigned char *)tok_names[k];
		if (op[0] != c)
			continue;
		size_t n = !op[1] ? 1 : !op[2] ? 2 : 3;
		if (n > best && (n < 2 || op[1] == c1) && (n < 3 || op[2] == c2)) {
			best = n;
			*kind = (enum tok_kind)k;
		}
	}
	return best;
}

static void read_heredocs(struct lexer *lx, bool at_end);

/* Whether an exhausted alias frame above frame f (what is read next comes
 * from f) ended in a blank: it may be popped at the next advance, so this
 * is asked before each one while blanks are skipped. */
static bool blank_alias_above(const struct lexer *lx, size_t f)
{
	for (size_t i = f + 1; i < lx->nframes; i++) {
		const struct lex_frame *fr = &lx->frames[i];
		if (fr->alias && fr->len > 0 && (fr->text[fr->len - 1] == ' ' || fr->text[fr->len - 1] == '\t'))
			return true;
	}
	return false;
}

void lex_next_token(struct lexer *lx, struct token *t)
{
	/* Everything but the inline text (cheaper than clearing it all). */
	memset(t, 0, offsetof(struct token, text));
	t->text[0] = '\0';
	t->text_len = 0;
	/* Field by field: a memset of this tail compiles to `rep stos`, whose
	 * start-up cost was a fifth of this function's time. */
	t->is_asg = t->asg_append = t->asg_array = false;
	t->asg_prefix = 0;
	t->asg_value_begin = (struct src_pos){0};
	t->asg_name = NULL;
	t->asg_index = NULL;
	t->asg_elems = NULL;
	t->asg_nelems = 0;
	t->raw_frame = 0;
	t->raw_frame_id = 0;
	t->raw_begin = t->raw_end = 0;
	bool blank_alias = false;
	for (;;) {
		int c = la(lx, 0);
		if (c == ' ' || c == '\t') {
			if (lx->nframes > 1 && !blank_alias) {
				struct cursor bc = cur_top(lx);
				cur_peek(lx, &bc);
				blank_alias = blank_alias_above(lx, bc.f);
			}
			advance(lx);
			continue;
		}
		if (c == '#') {
			while ((c = raw_peek(lx)) != END_OF_INPUT && c != '\n')
				raw_advance(lx);
			continue;
		}
		break;
	}
	t->range.begin = lex_pos(lx);
	/* Raw position of the first character (after line continuations). */
	struct cursor rc = cur_top(lx);
	const struct lex_frame *top = &lx->frames[rc.f];
	int c = rc.pos < top->len && top->text[rc.pos] != '\\' ? (unsigned char)top->text[rc.pos] : cur_peek(lx, &rc);
	t->raw_frame = rc.f;
	t->raw_frame_id = lx->frames[rc.f].id;
	t->after_blank_alias = blank_alias || (lx->nframes > 1 && blank_alias_above(lx, rc.f));
	t->raw_begin = rc.pos;
	int c1 = END_OF_INPUT, c2 = END_OF_INPUT;
	switch (c) {
	case END_OF_INPUT:
		t->kind = TK_EOF;
		t->range.end = t->range.begin;
		if (lx->nhd)
			read_heredocs(lx, true);
		return;
	case '\n':
		t->kind = TK_NEWLINE;
		advance(lx);
		t->range.end = lex_pos(lx);
		if (lx->nhd)
			read_heredocs(lx, false);
		return;
	case ';':
	case '&':
	case '|':
	case '<':
	case '>':
		c1 = la(lx, 1);
		c2 = c1 == END_OF_INPUT ? END_OF_INPUT : la(lx, 2);
		if ((c == '<' || c == '>') && c1 == '(')
			goto word; /* process substitution */
		break;
	case '(':
	case ')':
		break;
	default:
		goto word;
	}
	size_t oplen = match_operator(c, c1, c2, &t->kind);
	for (size_t i = 0; i < oplen; i++)
		advance(lx);
	t->range.end = lex_pos(lx);
	t->raw_end = lx->frames[lx->nframes - 1].pos;
	return;
word:
	lex_word_token(lx, t);
	/* The raw text is usable only if the word ended in the frame where it
	 * started. */
	if (lx->nframes - 1 == t->raw_frame && lx->frames[t->raw_frame].id == t->raw_frame_id)
		t->raw_end = lx->frames[t->raw_frame].pos;
	else
		t->raw_frame_id = (unsigned)-1;
}


struct word *lex_token_word(struct lexer *lx, const struct token *t)
{
	if (!t->lazy)
		return t->word;
	/* The word, its part and its text in one piece of the arena. */
	struct word *w = ast_arena_alloc(lx->arena, sizeof *w + sizeof *w->parts + t->text_len + 1);
	struct word_part *part = (struct word_part *)(w + 1);
	char *text = (char *)(part + 1);
	memcpy(text, t->text, t->text_len + 1);
	*part = (struct word_part){.kind = WORD_LITERAL};
	part->u.literal.text = text;
	part->u.literal.len = (unsigned)t->text_len;
	part->u.literal.quote = QUOTE_NONE;
	w->parts = part;
	w->nparts = 1;
	w->range = t->range;
	return w;
}

char *lex_token_text(const struct lexer *lx, const struct token *t)
{
	if (t->kind != TK_WORD && t->kind != TK_IO_NUMBER)
		return xstrdup(tok_names[t->kind]);
	if (t->raw_frame < lx->nframes && lx->frames[t->raw_frame].id == t->raw_frame_id &&
	    t->raw_end >= t->raw_begin)
		return xstrndup(lx->frames[t->raw_frame].text + t->raw_begin, t->raw_end - t->raw_begin);
	if (t->kind == TK_IO_NUMBER)
		return t->io_name ? xasprintf("{%s}", t->io_name) : xasprintf("%d", t->io_number);
	struct strbuf sb;
	strbuf_init(&sb);
	if (t->lazy)
		strbuf_addmem(&sb, t->text, t->text_len);
	else if (t->word)
		ast_print_word(&sb, t->word);
	else if (t->asg_name)
		strbuf_addf(&sb, "%s=(", t->asg_name);
	return strbuf_detach(&sb);
}

/* `declare a=(x y)`: the array as one word "a=(x y)" for the builtin. */
struct word *lex_array_word(struct lexer *lx, struct token *t)
{
	struct parts ps;
	parts_init(&ps);
	struct src_pos b = t->range.begin, e = t->range.end;
	char *head = xasprintf("%s%s=(", t->asg_name, t->asg_append ? "+" : "");
	parts_add_literal(lx, &ps, head, strlen(head), QUOTE_NONE)->array_syntax = true;
	free(head);
	for (size_t i = 0; i < t->asg_nelems; i++) {
		if (i)
			parts_add_literal(lx, &ps, " ", 1, QUOTE_SINGLE)->array_syntax = true;
		struct word *w = t->asg_elems[i];
		for (size_t j = 0; j < w->nparts; j++)
			*parts_push(lx, &ps, w->parts[j].kind) = w->parts[j];
	}
	t->asg_elems = NULL;
	t->asg_nelems = 0;
	parts_add_literal(lx, &ps, ")", 1, QUOTE_NONE)->array_syntax = true;
	struct word *w = word_from_parts(lx, builder_at(&ps.v, 0, sizeof(struct word_part)), ps.v.n, b, e);
	builder_release(&lx->scratch, &ps.v);
	return w;
}

/* ---- here-documents ----------------------------------------------------- */

static void heredoc_warn(const struct lexer *lx, const struct lex_heredoc *h)
{
	if (lx->source_name)
		fprintf(stderr, "sbsh: %s: line %u: ", lx->source_name, lx->line);
	else
		fprintf(stderr, "sbsh: line %u: ", lx->line);
	fprintf(stderr, "warning: here-document at line %u delimited by end-of-file (wanted `%s')\n",
	        h->pos.line, h->delim);
}

static void fill_heredoc(struct lexer *lx, struct lex_heredoc *h, struct strbuf *body,
                         struct src_pos begin)
{
	struct word *w = h->body;
	if (h->quoted) {
		size_t len = body->len;
		struct word_part *v = ast_arena_zalloc(lx->arena, sizeof *v);
		v->kind = WORD_LITERAL;
		set_literal(lx, v, body->data, len, QUOTE_SINGLE);
		strbuf_free(body);
		w->parts = v;
		w->nparts = 1;
		w->range.begin = begin;
		w->range.end = lex_pos(lx);
		return;
	}
	/* Its $( ) need a grammar of their own text. */
	struct lexer *s = lx->grammar->text_lexer(lx->grammar_ctx, body->data ? body->data : "",
	                                          body->len, begin);
	struct word *bw = lex_mode_word(s, begin, WM_HEREDOC, true, 0);
	if (!bw) {
		lx->failed = true;
		lx->err = s->err;
		s->err.message = NULL;
		s->failed = false;
	} else {
		w->parts = bw->parts;
		w->nparts = bw->nparts;
		w->range = bw->range;
	}
	s->grammar->text_lexer_free(s->grammar_ctx);
	strbuf_free(body);
}

/* Reads the bodies of the pending here-documents, right after a newline (or
 * at the end of the text). */
static void read_heredocs(struct lexer *lx, bool at_end)
{
	struct strbuf line, body;
	strbuf_init(&line);
	for (size_t i = 0; i < lx->nhd && !lx->failed; i++) {
		struct lex_heredoc *h = &lx->hd[i];
		strbuf_init(&body);
		struct src_pos begin = lex_pos(lx);
		for (;;) {
			if (at_end || raw_peek(lx) == END_OF_INPUT) {
				if (!lx->at_eof) {
					strbuf_free(&body);
					bool first = !lx->failed;
					lex_fail_at(lx, h->pos, true, "unterminated here-document (wanted `%s')",
					        h->delim);
					if (first)
						lex_fail_wait(lx, h->delim, true, h->strip);
					break;
				}
				heredoc_warn(lx, h);
				fill_heredoc(lx, h, &body, begin);
				break;
			}
			strbuf_truncate(&line, 0);
			int c;
			while ((c = raw_peek(lx)) != END_OF_INPUT && c != '\n') {
				strbuf_addc(&line, (char)c);
				raw_advance(lx);
			}
			bool had_newline = c == '\n';
			if (had_newline)
				raw_advance(lx);
			const char *s = line.data ? line.data : "";
			size_t n = line.len;
			if (h->strip)
				while (n && *s == '\t') {
					s++;
					n--;
				}
			if (n == strlen(h->delim) && memcmp(s, h->delim, n) == 0) {
				fill_heredoc(lx, h, &body, begin);
				break;
			}
			strbuf_addmem(&body, s, n);
			strbuf_addc(&body, '\n');
			(void)had_newline;
		}
	}
	strbuf_free(&line);
	for (size_t i = 0; i < lx->nhd; i++)
		free(lx->hd[i].delim);
	lx->nhd = 0;
}


/* ---- what the grammar asks for ------------------------------------------ */

struct lex_mark lex_token_mark(const struct token *t)
{
	struct lex_mark m = {t->raw_frame, t->raw_frame_id, t->raw_begin};
	return m;
}

struct word *lex_add_heredoc(struct lexer *lx, const struct token *t, bool strip, bool *quoted)
{
	char *raw = lex_token_text(lx, t);
	char *delim = lex_heredoc_delimiter(raw, strlen(raw), quoted);
	free(raw);
	if (lx->nhd == lx->caphd) {
		lx->caphd = lx->caphd ? lx->caphd * 2 : 4;
		lx->hd = xreallocarray(lx->hd, lx->caphd, sizeof *lx->hd);
	}
	struct lex_heredoc *h = &lx->hd[lx->nhd++];
	h->delim = delim;
	h->quoted = *quoted;
	h->strip = strip;
	h->pos = t->range.begin;
	h->body = ast_arena_zalloc(lx->arena, sizeof *h->body);
	h->body->range.begin = h->body->range.end = t->range.end;
	return h->body;
}

bool lex_at_arith(const struct lexer *lx)
{
	if (la(lx, 0) != '(')
		return false;
	struct cursor c = cur_top(lx);
	cur_next(lx, &c);
	return arith_closes(lx, c);
}

bool lex_arith_command(struct lexer *lx, struct word **expr)
{
	advance(lx); /* the second ( */
	return lex_arith_body(lx, expr, 0) && lex_arith_close(lx);
}

/* One expression of for (( )): NULL when blank. */
static bool arith_clause(struct lexer *lx, struct word **out, int stop)
{
	struct word *w = NULL;
	if (!lex_arith_body(lx, &w, stop))
		return false;
	bool blank = true;
	for (size_t i = 0; i < w->nparts && blank; i++) {
		const struct word_part *wp = &w->parts[i];
		if (wp->kind != WORD_LITERAL) {
			blank = false;
			break;
		}
		for (size_t j = 0; j < wp->u.literal.len; j++)
			if (!strchr(" \t\n", wp->u.literal.text[j]))
				blank = false;
	}
	if (blank)
		w = NULL; /* left in the arena */
	*out = w;
	return true;
}

/* The `;` after an expression of for (( )). */
static bool arith_for_semicolon(struct lexer *lx)
{
	if (la(lx, 0) != ';') {
		lex_fail_at(lx, lex_pos(lx), la(lx, 0) == END_OF_INPUT,
		            "syntax error: `;' expected in arithmetic for");
		return false;
	}
	advance(lx);
	return true;
}

bool lex_arith_for(struct lexer *lx, struct word **init, struct word **cond, struct word **step)
{
	if (!lex_enter(lx))
		return false;
	advance(lx); /* the second ( */
	bool ok = arith_clause(lx, init, ';') && arith_for_semicolon(lx) && arith_clause(lx, cond, ';') &&
	          arith_for_semicolon(lx) && arith_clause(lx, step, 0) && lex_arith_close(lx);
	lex_leave(lx);
	return ok;
}

struct word *lex_regex_word(struct lexer *lx)
{
	while (la(lx, 0) == ' ' || la(lx, 0) == '\t')
		advance(lx);
	return lex_mode_word(lx, lex_pos(lx), WM_REGEX, false, 0);
}

int lex_peek(const struct lexer *lx)
{
	return la(lx, 0);
}

void lex_push_alias(struct lexer *lx, const char *name, const char *value)
{
	size_t len = strlen(value);
	char *alias = xstrdup(name);
	char *owned = xstrndup(value, len);
	push_frame(lx, owned, len, owned, alias);
}

/* ---- the lexer as a whole ------------------------------------------------ */

void lex_init(struct lexer *lx, const char *text, size_t len, const struct parser_options *opts,
              const struct lex_grammar *grammar, void *grammar_ctx)
{
	memset(lx, 0, sizeof *lx);
	lx->cmd_prefix = true; /* a text starts with a command */
	lx->grammar = grammar;
	lx->grammar_ctx = grammar_ctx;
	lx->source_name = opts->source_name;
	lx->first_line = opts->first_line ? opts->first_line : 1;
	lx->at_eof = opts->at_eof;
	lx->max_depth = opts->max_depth ? opts->max_depth : DEFAULT_MAX_DEPTH;
	lx->extglob = opts->extglob;
	lx->line = lx->first_line;
	lx->first_col = 1;
	strbuf_init(&lx->lit);
	push_frame(lx, text ? text : "", text ? len : 0, NULL, NULL);
}

void lex_place(struct lexer *lx, struct src_pos at, unsigned depth)
{
	lx->base_offset = at.offset;
	lx->first_col = at.col ? at.col : 1;
	lx->depth = depth;
}

void lex_free(struct lexer *lx)
{
	while (lx->nframes > 0)
		pop_frame(lx);
	free(lx->frames);
	for (size_t i = 0; i < lx->nhd; i++)
		free(lx->hd[i].delim);
	free(lx->hd);
	free(lx->err.message);
	strbuf_free(&lx->lit);
	scratch_free(&lx->scratch);
}

size_t lex_offset(const struct lexer *lx)
{
	return lx->base_offset + lx->frames[0].pos;
}

unsigned lex_line(const struct lexer *lx)
{
	return lx->line;
}

bool lex_ends_with_continuation(const struct lexer *lx)
{
	const struct lex_frame *f = &lx->frames[0];
	if (f->len < 2 || f->text[f->len - 1] != '\n')
		return false;
	size_t n = 0;
	while (n < f->len - 1 && f->text[f->len - 2 - n] == '\\')
		n++;
	return n % 2 == 1;
}
