/* The parser: shell text to the AST of ast.h, by recursive descent.
 *
 * Memory: every tree is built in an arena (ast.h) that the root owns, so a
 * word costs no malloc of its own. Arrays whose length is not known yet are
 * grown in scratch vectors that the parser reuses, then copied to the arena
 * at their final size; literal text is gathered in one reused buffer.
 *
 * Tokens are lexed on demand by the grammar, because what a token is depends
 * on where it appears (reserved words, `((`, assignments, here-document
 * bodies after a newline, the regex after `=~`). Input is read from a stack
 * of frames: the text itself at the bottom and, above it, alias values being
 * re-read. Errors are recorded once in the parser and every function returns
 * NULL/false after one, so the caller unwinds and frees. */
#include "shell/parser.h"

#include <limits.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "shell/lexer.h"

#define END_OF_INPUT (-1)
#define DEFAULT_MAX_DEPTH 1000

enum tok_kind {
	TK_EOF,
	TK_NEWLINE,
	TK_WORD,
	TK_IO_NUMBER,
	TK_SEMI,
	TK_DSEMI,
	TK_SEMI_AND,
	TK_DSEMI_AND,
	TK_AMP,
	TK_AND_IF,
	TK_PIPE,
	TK_OR_IF,
	TK_PIPE_AMP,
	TK_LPAREN,
	TK_RPAREN,
	TK_LESS,
	TK_GREAT,
	TK_DGREAT,
	TK_CLOBBER,
	TK_LESSGREAT,
	TK_LESSAND,
	TK_GREATAND,
	TK_DLESS,
	TK_DLESSDASH,
	TK_TLESS,
	TK_AND_GREAT,
	TK_AND_DGREAT,
};

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

/* Plain words up to this length stay inside the token until taken, so the
 * keywords (`then`, `fi`, `done`...) never become struct words. */
#define TOKEN_TEXT_MAX 23

struct token {
	enum tok_kind kind;
	struct src_range range;
	/* TK_WORD (NULL for array assignments, and for a short plain word
	 * until take_word() makes it: see `text`). */
	struct word *word;
	int io_number;
	/* A single unquoted literal: candidate reserved word or alias. */
	bool plain;
	bool alias_checked; /* peek_command_word() found no alias for it */
	/* A short plain word not made yet: its text and its literal's range. */
	bool lazy;
	char text[TOKEN_TEXT_MAX + 1];
	size_t text_len;
	struct src_range lit_range;
	/* NAME=value / NAME[i]=value / NAME+=value: word holds the whole text;
	 * its first asg_prefix parts are the `NAME=` part. */
	bool is_asg;
	bool asg_append;
	bool asg_array;
	size_t asg_prefix;
	char *asg_name;
	struct word *asg_index;
	struct word **asg_elems;
	size_t asg_nelems;
	/* Where the raw text is, for here-document delimiters and messages. */
	size_t raw_frame;
	unsigned raw_frame_id;
	size_t raw_begin, raw_end;
};

struct frame {
	const char *text;
	size_t len;
	size_t pos;
	char *owned;  /* alias value copy */
	char *alias;  /* alias name while its value is being read */
	unsigned id;
};

/* A growable scratch array, reused from parse to parse. */
struct vec {
	char *data;
	size_t cap; /* bytes */
	struct vec *next_free;
};

/* An array being built: its elements live in a scratch vec until
 * bld_finish() copies them to the arena. */
struct builder {
	struct vec *v;
	size_t n;
};

struct pending_heredoc {
	struct word *body; /* owned by the redirection, filled in place */
	char *delim;
	bool strip;
	bool quoted;
	struct src_pos pos;
};

struct parser {
	struct parser_options opts;
	struct frame *frames;
	size_t nframes, capframes;
	unsigned next_frame_id;
	/* Position tracking of frame 0. */
	unsigned line;
	size_t line_start;
	size_t base_offset; /* added to offsets (sub-parsers of extracted text) */
	unsigned first_col; /* column of the first byte of the text */

	unsigned depth, max_depth;
	struct token tok;
	bool have_tok;
	struct src_pos last_end;

	struct pending_heredoc *hd;
	size_t nhd, caphd;

	bool alias_next;     /* the previous alias ended in a blank */
	bool whole_program;  /* parse_program: the text is all there is */

	bool failed;
	struct parse_error err;

	/* Where nodes and words go: a new arena per parser_next() call, or
	 * the parent's (sub-parsers) or parse_program()'s for a whole text. */
	struct ast_arena *arena;
	bool arena_shared;
	/* Literal text being gathered; nested words stack theirs on top. */
	struct strbuf lit;
	struct vec **vecs; /* every scratch vec, for parser_destroy() */
	size_t nvecs, capvecs;
	struct vec *free_vecs;
};

struct cursor {
	size_t f;
	size_t pos;
};

/* ---- errors ------------------------------------------------------------- */

static struct src_pos cur_pos(const struct parser *p);

static void fail_at(struct parser *p, struct src_pos pos, bool incomplete, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static void fail_at(struct parser *p, struct src_pos pos, bool incomplete, const char *fmt, ...)
{
	if (p->failed)
		return;
	struct strbuf sb;
	strbuf_init(&sb);
	va_list ap;
	va_start(ap, fmt);
	strbuf_vaddf(&sb, fmt, ap);
	va_end(ap);
	p->failed = true;
	p->err.message = strbuf_detach(&sb);
	p->err.pos = pos;
	p->err.incomplete = incomplete;
}

static bool enter(struct parser *p)
{
	if (++p->depth > p->max_depth) {
		fail_at(p, cur_pos(p), false, "too deeply nested");
		return false;
	}
	return true;
}

static void leave(struct parser *p)
{
	p->depth--;
}

/* ---- the reader --------------------------------------------------------- */

static struct src_pos cur_pos(const struct parser *p)
{
	const struct frame *f = &p->frames[0];
	struct src_pos pos;
	pos.line = p->line;
	pos.col = (unsigned)(f->pos - p->line_start + 1);
	if (p->line == p->opts.first_line)
		pos.col += p->first_col - 1;
	pos.offset = p->base_offset + f->pos;
	return pos;
}

static struct cursor cur_top(const struct parser *p)
{
	struct cursor c = {p->nframes - 1, p->frames[p->nframes - 1].pos};
	return c;
}

/* The raw byte at c, moving c down exhausted alias frames. */
static int cur_raw(const struct parser *p, struct cursor *c)
{
	for (;;) {
		const struct frame *fr = &p->frames[c->f];
		if (c->pos < fr->len)
			return (unsigned char)fr->text[c->pos];
		if (c->f == 0)
			return END_OF_INPUT;
		c->f--;
		c->pos = p->frames[c->f].pos;
	}
}

/* The byte at c after skipping backslash-newline pairs; c ends on it. */
static int cur_peek(const struct parser *p, struct cursor *c)
{
	for (;;) {
		int ch = cur_raw(p, c);
		if (ch != '\\')
			return ch;
		struct cursor n = *c;
		n.pos++;
		if (cur_raw(p, &n) != '\n')
			return ch;
		*c = n;
		c->pos++;
	}
}

/* Returns the logical character at c and moves past it. */
static int cur_next(const struct parser *p, struct cursor *c)
{
	int ch = cur_peek(p, c);
	if (ch != END_OF_INPUT)
		c->pos++;
	return ch;
}

/* The k-th logical character ahead (line continuations removed). */
static int la(const struct parser *p, size_t k)
{
	if (k == 0 && p->nframes == 1) {
		const struct frame *f = &p->frames[0];
		if (f->pos < f->len && f->text[f->pos] != '\\')
			return (unsigned char)f->text[f->pos];
	}
	const struct frame *top = &p->frames[p->nframes - 1];
	if (p->nframes == 1 && top->pos + k < top->len) {
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
	struct cursor c = cur_top(p);
	for (size_t i = 0; i < k; i++)
		if (cur_next(p, &c) == END_OF_INPUT)
			return END_OF_INPUT;
	return cur_peek(p, &c);
}

static void pop_frame(struct parser *p)
{
	struct frame *f = &p->frames[--p->nframes];
	free(f->owned);
	free(f->alias);
	f->owned = NULL;
	f->alias = NULL;
}

static int raw_peek(const struct parser *p)
{
	struct cursor c = cur_top(p);
	return cur_raw(p, &c);
}

/* Consumes one raw byte. Exhausted alias frames are popped only here, so an
 * alias stays "being expanded" until its text has been read past. */
static void raw_advance(struct parser *p)
{
	if (p->nframes == 1) {
		struct frame *f = &p->frames[0];
		if (f->pos < f->len) {
			if (f->text[f->pos] == '\n') {
				p->line++;
				p->line_start = f->pos + 1;
			}
			f->pos++;
		}
		return;
	}
	while (p->nframes > 1 && p->frames[p->nframes - 1].pos >= p->frames[p->nframes - 1].len)
		pop_frame(p);
	struct frame *f = &p->frames[p->nframes - 1];
	if (f->pos >= f->len)
		return;
	if (p->nframes == 1 && f->text[f->pos] == '\n') {
		p->line++;
		p->line_start = f->pos + 1;
	}
	f->pos++;
}

/* Consumes one logical character (and the line continuations before it). */
static void advance(struct parser *p)
{
	if (p->nframes == 1) {
		/* Fast path: the text itself, no line continuation here. */
		struct frame *f = &p->frames[0];
		if (f->pos < f->len && f->text[f->pos] != '\\') {
			if (f->text[f->pos] == '\n') {
				p->line++;
				p->line_start = f->pos + 1;
			}
			f->pos++;
			return;
		}
	}
	for (;;) {
		struct cursor c = cur_top(p);
		int ch = cur_raw(p, &c);
		if (ch == '\\') {
			c.pos++;
			if (cur_raw(p, &c) == '\n') {
				raw_advance(p);
				raw_advance(p);
				continue;
			}
		}
		raw_advance(p);
		return;
	}
}

static void push_frame(struct parser *p, const char *text, size_t len, char *owned, char *alias)
{
	if (p->nframes == p->capframes) {
		p->capframes = p->capframes ? p->capframes * 2 : 4;
		p->frames = xreallocarray(p->frames, p->capframes, sizeof *p->frames);
	}
	struct frame *f = &p->frames[p->nframes++];
	f->text = text;
	f->len = len;
	f->pos = 0;
	f->owned = owned;
	f->alias = alias;
	f->id = p->next_frame_id++;
}

static bool alias_active(const struct parser *p, const char *name)
{
	for (size_t i = 1; i < p->nframes; i++)
		if (p->frames[i].alias && strcmp(p->frames[i].alias, name) == 0)
			return true;
	return false;
}

/* ---- scratch arrays ----------------------------------------------------- */

static struct vec *vec_get(struct parser *p)
{
	struct vec *v = p->free_vecs;
	if (v) {
		p->free_vecs = v->next_free;
		return v;
	}
	v = xcalloc(1, sizeof *v);
	if (p->nvecs == p->capvecs) {
		p->capvecs = p->capvecs ? p->capvecs * 2 : 16;
		p->vecs = xreallocarray(p->vecs, p->capvecs, sizeof *p->vecs);
	}
	p->vecs[p->nvecs++] = v;
	return v;
}

/* Gives the builder's vec back; a builder abandoned on an error path is
 * freed with the parser instead. */
static void bld_release(struct parser *p, struct builder *b)
{
	if (b->v) {
		b->v->next_free = p->free_vecs;
		p->free_vecs = b->v;
	}
	b->v = NULL;
	b->n = 0;
}

/* A new zeroed element at the end; valid until the next push to b. */
static void *bld_push(struct parser *p, struct builder *b, size_t size)
{
	if (!b->v)
		b->v = vec_get(p);
	struct vec *v = b->v;
	if ((b->n + 1) * size > v->cap) {
		size_t cap = v->cap ? v->cap * 2 : 8 * size;
		while (cap < (b->n + 1) * size)
			cap *= 2;
		v->data = xrealloc(v->data, cap);
		v->cap = cap;
	}
	void *e = v->data + b->n * size;
	memset(e, 0, size);
	b->n++;
	return e;
}

static void *bld_at(const struct builder *b, size_t i, size_t size)
{
	return b->v->data + i * size;
}

/* The elements, copied to the arena (NULL when there are none). */
static void *bld_finish(struct parser *p, struct builder *b, size_t size, size_t *n)
{
	void *r = NULL;
	*n = b->n;
	if (b->n) {
		r = ast_arena_alloc(p->arena, b->n * size);
		memcpy(r, b->v->data, b->n * size);
	}
	bld_release(p, b);
	return r;
}

static char *arena_str(struct parser *p, const char *s, size_t len)
{
	return ast_arena_strndup(p->arena, s, len);
}

/* ---- word building ------------------------------------------------------ */

/* A word being built. Its literal run is the top of p->lit from lit_start:
 * every nested construct flushes the run before it starts, so nested
 * words stack their text above it. */
struct parts {
	struct builder v; /* struct word_part */
	bool have_lit;
	size_t lit_start;
	enum quote_style lit_quote;
	struct src_pos lit_begin;
};

static void parts_init(struct parts *ps)
{
	memset(ps, 0, sizeof *ps);
}

static struct word_part *parts_push(struct parser *p, struct parts *ps, enum word_part_kind kind)
{
	struct word_part *wp = bld_push(p, &ps->v, sizeof *wp);
	wp->kind = kind;
	return wp;
}

static void parts_flush(struct parser *p, struct parts *ps)
{
	if (!ps->have_lit)
		return;
	size_t len = p->lit.len - ps->lit_start;
	char *text = arena_str(p, p->lit.data + ps->lit_start, len);
	strbuf_truncate(&p->lit, ps->lit_start);
	struct word_part *wp = parts_push(p, ps, WORD_LITERAL);
	wp->u.literal.text = text;
	wp->u.literal.len = len;
	wp->u.literal.quote = ps->lit_quote;
	wp->range.begin = ps->lit_begin;
	wp->range.end = cur_pos(p);
	ps->have_lit = false;
}

static void parts_lit_start(struct parser *p, struct parts *ps, enum quote_style q)
{
	if (ps->have_lit && ps->lit_quote != q)
		parts_flush(p, ps);
	if (!ps->have_lit) {
		ps->have_lit = true;
		ps->lit_quote = q;
		ps->lit_start = p->lit.len;
		ps->lit_begin = cur_pos(p);
	}
}

/* Adds c to the current literal run; call before consuming c. */
static void parts_addc(struct parser *p, struct parts *ps, int c, enum quote_style q)
{
	parts_lit_start(p, ps, q);
	strbuf_addc(&p->lit, (char)c);
}

/* A literal part of its own; text is copied. */
static void parts_add_literal(struct parser *p, struct parts *ps, const char *text, size_t len,
                              enum quote_style q, struct src_pos begin, struct src_pos end)
{
	struct word_part *wp = parts_push(p, ps, WORD_LITERAL);
	wp->u.literal.text = arena_str(p, text ? text : "", len);
	wp->u.literal.len = len;
	wp->u.literal.quote = q;
	wp->range.begin = begin;
	wp->range.end = end;
}

/* The word and its parts in one piece of the arena. */
static struct word *word_from_parts(struct parser *p, const struct word_part *v, size_t n,
                                    struct src_pos begin, struct src_pos end)
{
	struct word *w = ast_arena_alloc(p->arena, sizeof *w + n * sizeof *w->parts);
	w->parts = n ? (struct word_part *)(w + 1) : NULL;
	if (n)
		memcpy(w->parts, v, n * sizeof *v);
	w->nparts = n;
	w->range.begin = begin;
	w->range.end = end;
	return w;
}

static struct word *parts_finish(struct parser *p, struct parts *ps, struct src_pos begin)
{
	parts_flush(p, ps);
	struct word *w = word_from_parts(p, ps->v.n ? bld_at(&ps->v, 0, sizeof(struct word_part)) : NULL,
	                                 ps->v.n, begin, cur_pos(p));
	bld_release(p, &ps->v);
	return w;
}

static void parts_discard(struct parser *p, struct parts *ps)
{
	if (ps->have_lit && ps->lit_start <= p->lit.len)
		strbuf_truncate(&p->lit, ps->lit_start);
	ps->have_lit = false;
	bld_release(p, &ps->v);
}

/* ---- words -------------------------------------------------------------- */

enum wmode {
	WM_NORMAL,    /* an unquoted shell word */
	WM_DQUOTE,    /* inside "..." (up to the closing quote) */
	WM_HEREDOC,   /* an unquoted here-document body (to the end of text) */
	WM_PARAM,     /* the operand of ${x op ...} (up to `}` or `stop`) */
	WM_ARITH,     /* inside $(( )) / (( )) (up to an unbalanced `)` or `stop`) */
	WM_SUBSCRIPT, /* inside a[...] (up to an unbalanced `]`) */
	WM_REGEX,     /* the right side of =~ in [[ ]] */
};

struct wopts {
	enum wmode mode;
	bool dq;  /* WM_PARAM: the ${ } itself is inside double quotes */
	int stop; /* WM_PARAM / WM_ARITH: another terminating character, or 0 */
};

static bool lex_parts(struct parser *p, struct parts *ps, const struct wopts *wo);
static struct node *parse_subprogram(struct parser *p, size_t *text_end_frame,
                                     unsigned *text_end_id, size_t *text_end);
static struct node *parse_text_program(struct parser *p, const char *text, size_t len,
                                       struct src_pos at);
static void lex_token(struct parser *p, struct token *t);
static struct parser *sub_parser(struct parser *p, const char *text, size_t len,
                                 unsigned first_line);

static void unexpected_eof(struct parser *p, const char *what)
{
	fail_at(p, cur_pos(p), true, "unexpected EOF while looking for matching `%s'", what);
}

static bool lex_single_quote(struct parser *p, struct parts *ps)
{
	struct src_pos begin = cur_pos(p);
	parts_flush(p, ps);
	advance(p); /* the opening quote */
	size_t start = p->lit.len;
	const char *q = NULL;
	if (p->nframes == 1)
		q = memchr(p->frames[0].text + p->frames[0].pos, '\'', p->frames[0].len - p->frames[0].pos);
	if (q) {
		/* Fast path: straight from the text. */
		struct frame *f = &p->frames[0];
		const char *s = f->text + f->pos;
		for (const char *nl = memchr(s, '\n', (size_t)(q - s)); nl;
		     nl = memchr(nl + 1, '\n', (size_t)(q - nl - 1))) {
			p->line++;
			p->line_start = f->pos + (size_t)(nl - s) + 1;
		}
		f->pos += (size_t)(q - s) + 1;
		parts_add_literal(p, ps, s, (size_t)(q - s), QUOTE_SINGLE, begin, cur_pos(p));
		return true;
	}
	for (;;) {
		int c = raw_peek(p);
		if (c == END_OF_INPUT) {
			strbuf_truncate(&p->lit, start);
			unexpected_eof(p, "'");
			return false;
		}
		raw_advance(p);
		if (c == '\'')
			break;
		strbuf_addc(&p->lit, (char)c);
	}
	parts_add_literal(p, ps, p->lit.data + start, p->lit.len - start, QUOTE_SINGLE, begin, cur_pos(p));
	strbuf_truncate(&p->lit, start);
	return true;
}

static bool lex_dollar_single(struct parser *p, struct parts *ps)
{
	struct src_pos begin = cur_pos(p);
	parts_flush(p, ps);
	advance(p); /* $ */
	advance(p); /* ' */
	struct strbuf raw, out;
	strbuf_init(&raw);
	for (;;) {
		int c = raw_peek(p);
		if (c == END_OF_INPUT) {
			strbuf_free(&raw);
			unexpected_eof(p, "'");
			return false;
		}
		raw_advance(p);
		if (c == '\'')
			break;
		strbuf_addc(&raw, (char)c);
		if (c == '\\') {
			int n = raw_peek(p);
			if (n == END_OF_INPUT)
				continue;
			strbuf_addc(&raw, (char)n);
			raw_advance(p);
		}
	}
	strbuf_init(&out);
	lex_decode_dollar_text(raw.data ? raw.data : "", raw.len, &out);
	strbuf_free(&raw);
	parts_add_literal(p, ps, out.data, out.len, QUOTE_DOLLAR, begin, cur_pos(p));
	strbuf_free(&out);
	return true;
}

/* "..." as a WORD_DQUOTE part; at the opening quote. */
static bool lex_dquote(struct parser *p, struct parts *ps)
{
	struct src_pos begin = cur_pos(p);
	parts_flush(p, ps);
	if (!enter(p))
		return false;
	advance(p);
	struct parts inner;
	parts_init(&inner);
	struct wopts wo = {WM_DQUOTE, true, 0};
	if (!lex_parts(p, &inner, &wo)) {
		parts_discard(p, &inner);
		leave(p);
		return false;
	}
	if (la(p, 0) != '"') {
		parts_discard(p, &inner);
		leave(p);
		unexpected_eof(p, "\"");
		return false;
	}
	advance(p);
	struct word *w = parts_finish(p, &inner, begin);
	struct word_part *wp = parts_push(p, ps, WORD_DQUOTE);
	wp->u.dquote = w;
	wp->range.begin = begin;
	wp->range.end = cur_pos(p);
	leave(p);
	return true;
}

/* Scans ahead from c (just after `((`) to decide whether the parentheses
 * close as arithmetic, `))`, like bash does before falling back to a
 * command substitution or subshell. */
static bool arith_closes(const struct parser *p, struct cursor c)
{
	int depth = 0;
	for (;;) {
		int ch = cur_next(p, &c);
		switch (ch) {
		case END_OF_INPUT:
			return true; /* let the arithmetic parser report it */
		case '(':
			depth++;
			break;
		case ')':
			if (depth == 0)
				return cur_peek(p, &c) == ')';
			depth--;
			break;
		case '\\':
			cur_next(p, &c);
			break;
		case '\'':
			while ((ch = cur_raw(p, &c)) != END_OF_INPUT && ch != '\'')
				c.pos++;
			if (ch == '\'')
				c.pos++;
			break;
		case '"':
			while ((ch = cur_next(p, &c)) != END_OF_INPUT && ch != '"')
				if (ch == '\\')
					cur_next(p, &c);
			break;
		default:
			break;
		}
	}
}

/* Text of frame f from begin up to end when both are in the same frame. */
static char *frame_slice(struct parser *p, size_t f, unsigned id, size_t begin,
                         size_t end_f, unsigned end_id, size_t end)
{
	if (f != end_f || id != end_id || f >= p->nframes || p->frames[f].id != id || end < begin)
		return NULL;
	return arena_str(p, p->frames[f].text + begin, end - begin);
}

/* $( ... ) and <( ... ) / >( ... ): at the `(`. */
static bool lex_cmdsub_body(struct parser *p, struct node **program, char **text)
{
	if (!enter(p))
		return false;
	advance(p); /* ( */
	size_t f = p->nframes - 1;
	unsigned id = p->frames[f].id;
	size_t begin = p->frames[f].pos;
	bool saved_alias_next = p->alias_next;
	p->alias_next = false;
	size_t end_f = 0;
	unsigned end_id = 0;
	size_t end = 0;
	*program = parse_subprogram(p, &end_f, &end_id, &end);
	p->alias_next = saved_alias_next;
	leave(p);
	if (p->failed)
		return false;
	*text = frame_slice(p, f, id, begin, end_f, end_id, end);
	if (!*text) {
		struct strbuf sb;
		strbuf_init(&sb);
		if (*program)
			ast_print_node(&sb, *program);
		*text = arena_str(p, sb.data, sb.len);
		strbuf_free(&sb);
	}
	return true;
}

static bool lex_arith_body(struct parser *p, struct word **expr, int stop)
{
	struct src_pos begin = cur_pos(p);
	struct parts inner;
	parts_init(&inner);
	struct wopts wo = {WM_ARITH, true, stop};
	if (!lex_parts(p, &inner, &wo)) {
		parts_discard(p, &inner);
		return false;
	}
	*expr = parts_finish(p, &inner, begin);
	return true;
}

/* At `((`-less position just after `$((`: the expression and `))`. */
static bool lex_arith_close(struct parser *p)
{
	if (la(p, 0) == ')' && la(p, 1) == ')') {
		advance(p);
		advance(p);
		return true;
	}
	if (la(p, 0) == END_OF_INPUT)
		unexpected_eof(p, ")");
	else
		fail_at(p, cur_pos(p), false, "syntax error: missing `))'");
	return false;
}

/* `...`: the body with \$ \` \\ (and \" inside double quotes) unescaped,
 * then parsed as a program of its own. */
static bool lex_backquote(struct parser *p, struct parts *ps, bool dq)
{
	struct src_pos begin = cur_pos(p);
	parts_flush(p, ps);
	if (!enter(p))
		return false;
	advance(p);
	struct src_pos body_pos = cur_pos(p);
	struct strbuf sb;
	strbuf_init(&sb);
	for (;;) {
		int c = la(p, 0);
		if (c == END_OF_INPUT) {
			strbuf_free(&sb);
			leave(p);
			unexpected_eof(p, "`");
			return false;
		}
		advance(p);
		if (c == '`')
			break;
		if (c == '\\') {
			int n = la(p, 0);
			if (n == '$' || n == '`' || n == '\\' || (dq && n == '"')) {
				strbuf_addc(&sb, (char)n);
				advance(p);
				continue;
			}
		}
		strbuf_addc(&sb, (char)c);
	}
	struct node *program = parse_text_program(p, sb.data ? sb.data : "", sb.len, body_pos);
	leave(p);
	if (p->failed) {
		strbuf_free(&sb);
		return false;
	}
	struct word_part *wp = parts_push(p, ps, WORD_CMDSUB);
	wp->u.cmdsub.program = program;
	wp->u.cmdsub.text = arena_str(p, sb.data, sb.len);
	strbuf_free(&sb);
	wp->u.cmdsub.backquote = true;
	wp->range.begin = begin;
	wp->range.end = cur_pos(p);
	return true;
}

/* A parameter name at the current position for ${...}; NULL if none. */
static char *lex_param_name(struct parser *p)
{
	int c = la(p, 0);
	size_t start = p->lit.len;
	if (lex_is_name_start(c)) {
		while (lex_is_name_char(c = la(p, 0))) {
			strbuf_addc(&p->lit, (char)c);
			advance(p);
		}
	} else if (lex_is_digit(c)) {
		while (lex_is_digit(c = la(p, 0))) {
			strbuf_addc(&p->lit, (char)c);
			advance(p);
		}
	} else if (c != END_OF_INPUT && strchr("@*#?-$!", c)) {
		strbuf_addc(&p->lit, (char)c);
		advance(p);
	} else {
		return NULL;
	}
	char *name = arena_str(p, p->lit.data + start, p->lit.len - start);
	strbuf_truncate(&p->lit, start);
	return name;
}

/* After skipping a parameter name starting at c: the next character. */
static int char_after_name(const struct parser *p, struct cursor c)
{
	int ch = cur_peek(p, &c);
	if (lex_is_name_start(ch)) {
		while (lex_is_name_char(cur_peek(p, &c)))
			cur_next(p, &c);
	} else if (lex_is_digit(ch)) {
		while (lex_is_digit(cur_peek(p, &c)))
			cur_next(p, &c);
	} else if (ch != END_OF_INPUT && strchr("@*#?-$!", ch)) {
		cur_next(p, &c);
	} else {
		return -2; /* no name here */
	}
	return cur_peek(p, &c);
}

static bool lex_param_word(struct parser *p, struct word **out, bool dq, int stop)
{
	struct src_pos begin = cur_pos(p);
	struct parts inner;
	parts_init(&inner);
	struct wopts wo = {WM_PARAM, dq, stop};
	if (!lex_parts(p, &inner, &wo)) {
		parts_discard(p, &inner);
		return false;
	}
	*out = parts_finish(p, &inner, begin);
	return true;
}

static void bad_substitution(struct parser *p, struct src_pos pos)
{
	if (la(p, 0) == END_OF_INPUT)
		fail_at(p, cur_pos(p), true, "unexpected EOF while looking for matching `}'");
	else
		fail_at(p, pos, false, "bad substitution");
}

/* ${...}: at the `$`. */
static bool lex_braced_param(struct parser *p, struct parts *ps, bool dq)
{
	struct src_pos begin = cur_pos(p);
	parts_flush(p, ps);
	if (!enter(p))
		return false;
	advance(p); /* $ */
	advance(p); /* { */
	struct word_param wp;
	memset(&wp, 0, sizeof wp);
	wp.braced = true;
	wp.op = PARAM_PLAIN;
	int c = la(p, 0);
	bool length = false;
	if (c == '#' || c == '!') {
		struct cursor cur = cur_top(p);
		cur_next(p, &cur);
		int after = char_after_name(p, cur);
		int next = la(p, 1);
		bool prefix_form = false;
		if (c == '!' && lex_is_name_start(next)) {
			/* ${!prefix*} / ${!prefix@} */
			prefix_form = after == '*' || after == '@';
		}
		if (next != '}' && (after == '}' || after == '[' || prefix_form ||
		                    (c == '!' && after != -2))) {
			advance(p);
			if (c == '#')
				length = true;
			else
				wp.indirect = true;
		}
	}
	wp.name = lex_param_name(p);
	if (!wp.name) {
		bad_substitution(p, begin);
		goto fail;
	}
	if (wp.indirect && (la(p, 0) == '*' || la(p, 0) == '@') && la(p, 1) == '}') {
		wp.indirect = false;
		wp.op = PARAM_PREFIX_NAMES;
		wp.at = la(p, 0) == '@';
		advance(p);
	}
	if (lex_is_name_start((unsigned char)wp.name[0]) && la(p, 0) == '[') {
		struct src_pos ib = cur_pos(p);
		advance(p);
		struct parts inner;
		parts_init(&inner);
		struct wopts wo = {WM_SUBSCRIPT, true, 0};
		if (!lex_parts(p, &inner, &wo)) {
			parts_discard(p, &inner);
			goto fail;
		}
		if (la(p, 0) != ']') {
			parts_discard(p, &inner);
			unexpected_eof(p, "]");
			goto fail;
		}
		wp.index = parts_finish(p, &inner, ib);
		advance(p);
		if (wp.indirect && wp.index->nparts == 1 && wp.index->parts[0].kind == WORD_LITERAL &&
		    wp.index->parts[0].u.literal.len == 1 &&
		    (wp.index->parts[0].u.literal.text[0] == '@' ||
		     wp.index->parts[0].u.literal.text[0] == '*') &&
		    la(p, 0) == '}') {
			wp.indirect = false;
			wp.op = PARAM_KEYS;
		}
	}
	if (length) {
		wp.op = PARAM_LENGTH;
		if (la(p, 0) != '}') {
			bad_substitution(p, begin);
			goto fail;
		}
	}
	c = la(p, 0);
	if (c != '}' && wp.op == PARAM_PLAIN) {
		int stop = 0;
		switch (c) {
		case ':':
			advance(p);
			c = la(p, 0);
			if (c == '-' || c == '=' || c == '?' || c == '+') {
				wp.colon = true;
				goto simple_op;
			}
			wp.op = PARAM_SUBSTRING;
			if (!lex_param_word(p, &wp.arg, dq, ':'))
				goto fail;
			if (la(p, 0) == ':') {
				advance(p);
				if (!lex_param_word(p, &wp.arg2, dq, 0))
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
			advance(p);
			if (!lex_param_word(p, &wp.arg, dq, 0))
				goto fail;
			break;
		case '%':
		case '#':
			advance(p);
			if (la(p, 0) == c) {
				advance(p);
				wp.op = c == '%' ? PARAM_REMOVE_LARGE_SUFFIX : PARAM_REMOVE_LARGE_PREFIX;
			} else {
				wp.op = c == '%' ? PARAM_REMOVE_SMALL_SUFFIX : PARAM_REMOVE_SMALL_PREFIX;
			}
			if (!lex_param_word(p, &wp.arg, dq, 0))
				goto fail;
			break;
		case '/':
			advance(p);
			wp.op = PARAM_REPLACE;
			c = la(p, 0);
			if (c == '/') {
				wp.op = PARAM_REPLACE_ALL;
				advance(p);
			} else if (c == '#') {
				wp.op = PARAM_REPLACE_PREFIX;
				advance(p);
			} else if (c == '%') {
				wp.op = PARAM_REPLACE_SUFFIX;
				advance(p);
			}
			stop = '/';
			if (!lex_param_word(p, &wp.arg, dq, stop))
				goto fail;
			if (la(p, 0) == '/') {
				advance(p);
				if (!lex_param_word(p, &wp.arg2, dq, 0))
					goto fail;
			}
			break;
		case '@':
			/* bash's transformations; the others it has (@A @a @K @k
			 * @P) need what this shell does not keep */
			advance(p);
			c = la(p, 0);
			if (c == END_OF_INPUT || !strchr("QEUuL", c) || la(p, 1) != '}') {
				bad_substitution(p, begin);
				goto fail;
			}
			advance(p);
			wp.op = PARAM_TRANSFORM;
			wp.transform = (char)c;
			break;
		case '^':
		case ',':
			advance(p);
			if (la(p, 0) == c) {
				advance(p);
				wp.op = c == '^' ? PARAM_UPPER_ALL : PARAM_LOWER_ALL;
			} else {
				wp.op = c == '^' ? PARAM_UPPER_FIRST : PARAM_LOWER_FIRST;
			}
			if (la(p, 0) != '}' && !lex_param_word(p, &wp.arg, dq, 0))
				goto fail;
			break;
		default:
			bad_substitution(p, begin);
			goto fail;
		}
	}
	if (la(p, 0) != '}') {
		bad_substitution(p, begin);
		goto fail;
	}
	advance(p);
	struct word_part *part = parts_push(p, ps, WORD_PARAM);
	part->u.param = wp;
	part->range.begin = begin;
	part->range.end = cur_pos(p);
	leave(p);
	return true;
fail:
	leave(p); /* what was built stays in the arena, dropped with it */
	return false;
}

/* At a `$`: an expansion, or a literal dollar. */
static bool lex_dollar(struct parser *p, struct parts *ps, bool quoted)
{
	struct src_pos begin = cur_pos(p);
	int c1 = la(p, 1);
	if (c1 == '{')
		return lex_braced_param(p, ps, quoted);
	if (c1 == '(') {
		parts_flush(p, ps);
		if (la(p, 2) == '(') {
			struct cursor c = cur_top(p);
			cur_next(p, &c);
			cur_next(p, &c);
			cur_next(p, &c);
			if (arith_closes(p, c)) {
				if (!enter(p))
					return false;
				advance(p);
				advance(p);
				advance(p);
				struct word *expr = NULL;
				bool ok = lex_arith_body(p, &expr, 0) && lex_arith_close(p);
				leave(p);
				if (!ok)
					return false;
				struct word_part *wp = parts_push(p, ps, WORD_ARITH);
				wp->u.arith.expr = expr;
				wp->range.begin = begin;
				wp->range.end = cur_pos(p);
				return true;
			}
		}
		advance(p); /* $ */
		struct node *program = NULL;
		char *text = NULL;
		if (!lex_cmdsub_body(p, &program, &text))
			return false;
		struct word_part *wp = parts_push(p, ps, WORD_CMDSUB);
		wp->u.cmdsub.program = program;
		wp->u.cmdsub.text = text;
		wp->range.begin = begin;
		wp->range.end = cur_pos(p);
		return true;
	}
	if (c1 == '\'' && !quoted)
		return lex_dollar_single(p, ps);
	if (c1 == '"' && !quoted) {
		/* $"..." (locale translation) is taken as "...". */
		advance(p);
		return lex_dquote(p, ps);
	}
	if (lex_is_name_start(c1) || lex_is_digit(c1) ||
	    (c1 != END_OF_INPUT && strchr("@*#?-$!", c1))) {
		parts_flush(p, ps);
		advance(p);
		char *name;
		if (lex_is_name_start(c1)) {
			name = lex_param_name(p);
		} else {
			name = arena_str(p, (char[]){(char)c1}, 1);
			advance(p);
		}
		struct word_part *wp = parts_push(p, ps, WORD_PARAM);
		wp->u.param.name = name;
		wp->u.param.op = PARAM_PLAIN;
		wp->range.begin = begin;
		wp->range.end = cur_pos(p);
		return true;
	}
	parts_addc(p, ps, '$', quoted ? QUOTE_DOUBLE : QUOTE_NONE);
	advance(p);
	return true;
}

static bool lex_procsub(struct parser *p, struct parts *ps)
{
	struct src_pos begin = cur_pos(p);
	bool output = la(p, 0) == '>';
	parts_flush(p, ps);
	advance(p);
	struct node *program = NULL;
	char *text = NULL;
	if (!lex_cmdsub_body(p, &program, &text))
		return false;
	struct word_part *wp = parts_push(p, ps, WORD_PROCSUB);
	wp->u.procsub.program = program;
	wp->u.procsub.text = text;
	wp->u.procsub.output = output;
	wp->range.begin = begin;
	wp->range.end = cur_pos(p);
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

/* The loop at the heart of the lexer: word parts until the mode's end. The
 * terminator is not consumed. */
static bool lex_parts(struct parser *p, struct parts *ps, const struct wopts *wo)
{
	int depth = 0;
	enum wmode mode = wo->mode;
	bool quoted = mode == WM_DQUOTE || mode == WM_HEREDOC || mode == WM_ARITH ||
	              mode == WM_SUBSCRIPT || (mode == WM_PARAM && wo->dq);
	enum quote_style litq = quoted ? QUOTE_DOUBLE : QUOTE_NONE;
	bool bulk = mode == WM_NORMAL || mode == WM_DQUOTE || mode == WM_HEREDOC;
	for (;;) {
		if (bulk && p->nframes == 1) {
			/* Fast path: a run of ordinary characters straight from the
			 * text (newlines excluded: they are counted one by one). */
			struct frame *f = &p->frames[0];
			const char *s = f->text + f->pos;
			size_t avail = f->len - f->pos, k = 0;
			if (mode == WM_NORMAL)
				while (k < avail && !normal_special((unsigned char)s[k]))
					k++;
			else
				while (k < avail && !dquote_special((unsigned char)s[k]))
					k++;
			if (k > 0) {
				parts_lit_start(p, ps, litq);
				strbuf_addmem(&p->lit, s, k);
				f->pos += k;
				continue;
			}
		}
		int c = la(p, 0);
		if (c == END_OF_INPUT) {
			switch (mode) {
			case WM_DQUOTE:
				unexpected_eof(p, "\"");
				return false;
			case WM_PARAM:
				unexpected_eof(p, "}");
				return false;
			case WM_ARITH:
				unexpected_eof(p, ")");
				return false;
			case WM_SUBSCRIPT:
				unexpected_eof(p, "]");
				return false;
			default:
				return true;
			}
		}
		switch (mode) {
		case WM_NORMAL:
			if (c == ' ' || c == '\t' || c == '\n' || c == ';' || c == '&' || c == '|' ||
			    c == '(' || c == ')')
				return true;
			if (c == '<' || c == '>') {
				if (la(p, 1) != '(')
					return true;
				if (!lex_procsub(p, ps))
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
				parts_addc(p, ps, c, QUOTE_NONE);
				advance(p);
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
			if (c == '}') {
				if (depth == 0)
					return true;
				depth--;
			} else if (c == '{') {
				depth++;
			} else if (c == wo->stop && depth == 0) {
				return true;
			}
			break;
		case WM_ARITH:
			if (c == ')') {
				if (depth == 0)
					return true;
				depth--;
			} else if (c == '(') {
				depth++;
			} else if (c == wo->stop && depth == 0) {
				return true;
			}
			break;
		case WM_SUBSCRIPT:
			if (c == ']') {
				if (depth == 0)
					return true;
				depth--;
			} else if (c == '[') {
				depth++;
			}
			break;
		}

		if (c == '$') {
			if (!lex_dollar(p, ps, quoted))
				return false;
			continue;
		}
		if (c == '`') {
			if (!lex_backquote(p, ps, mode == WM_DQUOTE || (mode == WM_PARAM && wo->dq)))
				return false;
			continue;
		}
		if (c == '\\') {
			int n = la(p, 1);
			if (quoted) {
				bool esc = n == '$' || n == '`' || n == '\\' ||
				           (n == '"' && mode != WM_HEREDOC) ||
				           (n == '}' && mode == WM_PARAM);
				if (esc) {
					advance(p);
					parts_addc(p, ps, n, QUOTE_DOUBLE);
					advance(p);
				} else {
					parts_addc(p, ps, '\\', QUOTE_DOUBLE);
					advance(p);
				}
				continue;
			}
			parts_flush(p, ps);
			struct src_pos b = cur_pos(p);
			advance(p);
			char ch = n == END_OF_INPUT ? '\\' : (char)n;
			if (n != END_OF_INPUT)
				advance(p);
			parts_add_literal(p, ps, &ch, 1, QUOTE_BACKSLASH, b, cur_pos(p));
			continue;
		}
		if (c == '\'' && !quoted) {
			if (!lex_single_quote(p, ps))
				return false;
			continue;
		}
		if (c == '"' && mode != WM_HEREDOC) {
			if (!lex_dquote(p, ps))
				return false;
			continue;
		}
		parts_addc(p, ps, c, litq);
		advance(p);
	}
}

/* ---- tokens ------------------------------------------------------------- */

/* A token's words are in the arena: dropping it frees nothing. */
static void token_clear(struct token *t)
{
	t->kind = TK_EOF;
	t->word = NULL;
	t->plain = t->lazy = t->is_asg = t->asg_array = false;
	t->asg_name = NULL;
	t->asg_index = NULL;
	t->asg_elems = NULL;
	t->asg_nelems = 0;
}

static bool word_is_plain(const struct word *w)
{
	return w && w->nparts == 1 && w->parts[0].kind == WORD_LITERAL &&
	       w->parts[0].u.literal.quote == QUOTE_NONE;
}

static const char *plain_text(const struct token *t)
{
	if (!t->plain)
		return NULL;
	return t->lazy ? t->text : t->word->parts[0].u.literal.text;
}

/* The shape NAME=, NAME+=, NAME[...]=, NAME[...]+= at the cursor. */
static bool assignment_ahead(const struct parser *p)
{
	struct cursor c = cur_top(p);
	int ch = cur_next(p, &c);
	if (!lex_is_name_start(ch))
		return false;
	if (c.f == 0) {
		/* Fast path over the name, up to anything else (a backslash
		 * included: the slow loop below takes it from there). */
		const struct frame *f = &p->frames[0];
		while (c.pos < f->len && lex_is_name_char((unsigned char)f->text[c.pos]))
			c.pos++;
	}
	while (lex_is_name_char(ch = cur_next(p, &c)))
		;
	if (ch == '[') {
		int depth = 0;
		for (;;) {
			ch = cur_next(p, &c);
			if (ch == '\\') {
				if (cur_next(p, &c) == END_OF_INPUT)
					return false;
				continue;
			}
			if (ch == '\'' || ch == '"') {
				/* a quoted key: m["a b"]=1 */
				int q = ch;
				while ((ch = cur_next(p, &c)) != q) {
					if (ch == END_OF_INPUT)
						return false;
					if (q == '"' && ch == '\\' && cur_next(p, &c) == END_OF_INPUT)
						return false;
				}
				continue;
			}
			if (ch == END_OF_INPUT || ch == ' ' || ch == '\t' || ch == '\n' || ch == ';' ||
			    ch == '&' || ch == '|' || ch == '<' || ch == '>')
				return false;
			if (ch == '[')
				depth++;
			else if (ch == ']' && depth-- == 0)
				break;
		}
		ch = cur_next(p, &c);
	}
	if (ch == '+')
		ch = cur_next(p, &c);
	return ch == '=';
}

static bool lex_assignment(struct parser *p, struct token *t, struct parts *ps,
                           struct src_pos begin)
{
	t->asg_name = lex_param_name(p);
	/* The prefix literal: NAME, then `]` after a subscript, `+`, `=`. */
	char buf[4];
	size_t blen = 0;
	const char *prefix = t->asg_name;
	size_t plen = strlen(t->asg_name);
	if (la(p, 0) == '[') {
		struct src_pos ib = cur_pos(p);
		advance(p);
		struct parts inner;
		parts_init(&inner);
		struct wopts wo = {WM_SUBSCRIPT, true, 0};
		if (!lex_parts(p, &inner, &wo) || la(p, 0) != ']') {
			parts_discard(p, &inner);
			if (!p->failed)
				unexpected_eof(p, "]");
			return false;
		}
		t->asg_index = parts_finish(p, &inner, ib);
		advance(p);
		/* The whole word keeps the subscript too (its parts shared: all
		 * of it is in the arena). */
		char *head = ast_arena_alloc(p->arena, plen + 2);
		memcpy(head, prefix, plen);
		head[plen] = '[';
		head[plen + 1] = '\0';
		struct word_part *lp = parts_push(p, ps, WORD_LITERAL);
		lp->u.literal.text = head;
		lp->u.literal.len = plen + 1;
		lp->u.literal.quote = QUOTE_NONE;
		lp->range.begin = begin;
		lp->range.end = ib;
		for (size_t i = 0; i < t->asg_index->nparts; i++)
			*parts_push(p, ps, WORD_LITERAL) = t->asg_index->parts[i];
		buf[blen++] = ']';
		prefix = NULL;
	}
	if (la(p, 0) == '+') {
		t->asg_append = true;
		buf[blen++] = '+';
		advance(p);
	}
	buf[blen++] = '=';
	advance(p); /* = */
	if (prefix) {
		char *text = ast_arena_alloc(p->arena, plen + blen + 1);
		memcpy(text, prefix, plen);
		memcpy(text + plen, buf, blen);
		text[plen + blen] = '\0';
		struct word_part *lp = parts_push(p, ps, WORD_LITERAL);
		lp->u.literal.text = text;
		lp->u.literal.len = plen + blen;
		lp->u.literal.quote = QUOTE_NONE;
		lp->range.begin = begin;
		lp->range.end = cur_pos(p);
	} else {
		parts_add_literal(p, ps, buf, blen, QUOTE_NONE, begin, cur_pos(p));
	}
	t->asg_prefix = ps->v.n;
	t->is_asg = true;
	if (la(p, 0) == '(') {
		t->asg_array = true;
		advance(p);
		struct builder elems = {0};
		int c;
		for (;;) {
			c = la(p, 0);
			if (c == ' ' || c == '\t' || c == '\n') {
				advance(p);
				continue;
			}
			if (c == '#') {
				while ((c = raw_peek(p)) != END_OF_INPUT && c != '\n')
					raw_advance(p);
				continue;
			}
			if (c == ')') {
				advance(p);
				break;
			}
			if (c == END_OF_INPUT) {
				bld_release(p, &elems);
				unexpected_eof(p, ")");
				return false;
			}
			if (lex_is_word_break(c) && !((c == '<' || c == '>') && la(p, 1) == '(')) {
				bld_release(p, &elems);
				fail_at(p, cur_pos(p), false, "syntax error near unexpected token `%c'", c);
				return false;
			}
			struct src_pos eb = cur_pos(p);
			struct parts elem;
			parts_init(&elem);
			struct wopts wo = {WM_NORMAL, false, 0};
			if (!lex_parts(p, &elem, &wo)) {
				parts_discard(p, &elem);
				bld_release(p, &elems);
				return false;
			}
			struct word *w = parts_finish(p, &elem, eb);
			*(struct word **)bld_push(p, &elems, sizeof w) = w;
		}
		t->asg_elems = bld_finish(p, &elems, sizeof *t->asg_elems, &t->asg_nelems);
		return true;
	}
	struct wopts wo = {WM_NORMAL, false, 0};
	return lex_parts(p, ps, &wo);
}

static void lex_word_token(struct parser *p, struct token *t)
{
	struct src_pos begin = t->range.begin;
	/* An IO number: digits right before a redirection operator. */
	struct cursor c = cur_top(p);
	int ch = 0;
	size_t ndigits = 0;
	long value = 0;
	if (lex_is_digit(la(p, 0))) { /* most words start with no digit */
		while (lex_is_digit(ch = cur_next(p, &c))) {
			value = value * 10 + (ch - '0');
			if (value > INT_MAX)
				value = (long)INT_MAX + 1; /* too large: an ordinary word */
			ndigits++;
		}
	}
	if (ndigits > 0 && (ch == '<' || ch == '>') && cur_peek(p, &c) != '(' && value <= INT_MAX) {
		for (size_t i = 0; i < ndigits; i++)
			advance(p);
		t->kind = TK_IO_NUMBER;
		t->io_number = (int)value;
		t->range.end = cur_pos(p);
		return;
	}
	t->kind = TK_WORD;
	struct parts ps;
	parts_init(&ps);
	bool ok;
	if (assignment_ahead(p)) {
		ok = lex_assignment(p, t, &ps, begin);
	} else {
		struct wopts wo = {WM_NORMAL, false, 0};
		ok = lex_parts(p, &ps, &wo);
	}
	if (!ok) {
		parts_discard(p, &ps);
		return;
	}
	if (t->asg_array) {
		parts_discard(p, &ps);
	} else if (!t->is_asg && ps.v.n == 0 && ps.have_lit && ps.lit_quote == QUOTE_NONE &&
	           p->lit.len - ps.lit_start <= TOKEN_TEXT_MAX) {
		/* A short plain word: kept in the token until taken. */
		t->text_len = p->lit.len - ps.lit_start;
		memcpy(t->text, p->lit.data + ps.lit_start, t->text_len);
		t->text[t->text_len] = '\0';
		t->lit_range.begin = ps.lit_begin;
		t->lit_range.end = cur_pos(p);
		parts_discard(p, &ps);
		t->lazy = true;
		t->plain = true;
	} else {
		t->word = parts_finish(p, &ps, begin);
		t->plain = !t->is_asg && word_is_plain(t->word);
	}
	t->range.end = cur_pos(p);
}

static void read_heredocs(struct parser *p, bool at_end);

static void lex_token(struct parser *p, struct token *t)
{
	/* Everything but the inline text (cheaper than clearing it all). */
	memset(t, 0, offsetof(struct token, text));
	t->text[0] = '\0';
	t->text_len = 0;
	memset(&t->lit_range, 0, sizeof *t - offsetof(struct token, lit_range));
	for (;;) {
		int c = la(p, 0);
		if (c == ' ' || c == '\t') {
			advance(p);
			continue;
		}
		if (c == '#') {
			while ((c = raw_peek(p)) != END_OF_INPUT && c != '\n')
				raw_advance(p);
			continue;
		}
		break;
	}
	t->range.begin = cur_pos(p);
	/* Raw position of the first character (after line continuations). */
	struct cursor rc = cur_top(p);
	int c = cur_peek(p, &rc);
	t->raw_frame = rc.f;
	t->raw_frame_id = p->frames[rc.f].id;
	t->raw_begin = rc.pos;
	int c1 = END_OF_INPUT, c2 = END_OF_INPUT;
	if (c == ';' || c == '&' || c == '|' || c == '<' || c == '>') {
		c1 = la(p, 1);
		c2 = c1 == END_OF_INPUT ? END_OF_INPUT : la(p, 2);
	}
	size_t oplen = 1;
	switch (c) {
	case END_OF_INPUT:
		t->kind = TK_EOF;
		t->range.end = t->range.begin;
		if (p->nhd)
			read_heredocs(p, true);
		return;
	case '\n':
		t->kind = TK_NEWLINE;
		advance(p);
		t->range.end = cur_pos(p);
		if (p->nhd)
			read_heredocs(p, false);
		return;
	case ';':
		if (c1 == ';') {
			t->kind = c2 == '&' ? TK_DSEMI_AND : TK_DSEMI;
			oplen = c2 == '&' ? 3 : 2;
		} else if (c1 == '&') {
			t->kind = TK_SEMI_AND;
			oplen = 2;
		} else {
			t->kind = TK_SEMI;
		}
		break;
	case '&':
		if (c1 == '&') {
			t->kind = TK_AND_IF;
			oplen = 2;
		} else if (c1 == '>') {
			t->kind = c2 == '>' ? TK_AND_DGREAT : TK_AND_GREAT;
			oplen = c2 == '>' ? 3 : 2;
		} else {
			t->kind = TK_AMP;
		}
		break;
	case '|':
		if (c1 == '|') {
			t->kind = TK_OR_IF;
			oplen = 2;
		} else if (c1 == '&') {
			t->kind = TK_PIPE_AMP;
			oplen = 2;
		} else {
			t->kind = TK_PIPE;
		}
		break;
	case '(':
		t->kind = TK_LPAREN;
		break;
	case ')':
		t->kind = TK_RPAREN;
		break;
	case '<':
		if (c1 == '(')
			goto word;
		if (c1 == '<') {
			if (c2 == '<') {
				t->kind = TK_TLESS;
				oplen = 3;
			} else if (c2 == '-') {
				t->kind = TK_DLESSDASH;
				oplen = 3;
			} else {
				t->kind = TK_DLESS;
				oplen = 2;
			}
		} else if (c1 == '&') {
			t->kind = TK_LESSAND;
			oplen = 2;
		} else if (c1 == '>') {
			t->kind = TK_LESSGREAT;
			oplen = 2;
		} else {
			t->kind = TK_LESS;
		}
		break;
	case '>':
		if (c1 == '(')
			goto word;
		if (c1 == '>') {
			t->kind = TK_DGREAT;
			oplen = 2;
		} else if (c1 == '&') {
			t->kind = TK_GREATAND;
			oplen = 2;
		} else if (c1 == '|') {
			t->kind = TK_CLOBBER;
			oplen = 2;
		} else {
			t->kind = TK_GREAT;
		}
		break;
	default:
		goto word;
	}
	for (size_t i = 0; i < oplen; i++)
		advance(p);
	t->range.end = cur_pos(p);
	t->raw_end = p->frames[p->nframes - 1].pos;
	return;
word:
	lex_word_token(p, t);
	/* The raw text is usable only if the word ended in the frame where it
	 * started. */
	if (p->nframes - 1 == t->raw_frame && p->frames[t->raw_frame].id == t->raw_frame_id)
		t->raw_end = p->frames[t->raw_frame].pos;
	else
		t->raw_frame_id = (unsigned)-1;
}

static struct token *peek(struct parser *p)
{
	if (!p->have_tok) {
		if (p->failed) {
			token_clear(&p->tok);
			p->tok.kind = TK_EOF;
			return &p->tok;
		}
		/* Lexing may recurse into the grammar ($( ) bodies), which uses
		 * p->tok: build the token aside. */
		struct token t;
		lex_token(p, &t);
		if (p->have_tok) /* left by a nested parse that failed */
			token_clear(&p->tok);
		p->tok = t;
		p->have_tok = true;
		if (p->failed) {
			token_clear(&p->tok);
			p->tok.kind = TK_EOF;
		}
	}
	return &p->tok;
}

static void consume(struct parser *p)
{
	p->last_end = p->tok.range.end;
	p->have_tok = false;
}

/* A short plain word kept in the token, made into a struct word. */
static struct word *token_word(struct parser *p, const struct token *t)
{
	if (!t->lazy)
		return t->word;
	struct word_part part;
	memset(&part, 0, sizeof part);
	part.kind = WORD_LITERAL;
	part.u.literal.text = arena_str(p, t->text, t->text_len);
	part.u.literal.len = t->text_len;
	part.u.literal.quote = QUOTE_NONE;
	part.range = t->lit_range;
	return word_from_parts(p, &part, 1, t->range.begin, t->range.end);
}

/* Takes the word out of the current token and consumes it. */
static struct word *take_word(struct parser *p)
{
	struct word *w = token_word(p, &p->tok);
	p->tok.word = NULL;
	p->tok.lazy = false;
	consume(p);
	return w;
}

static bool is_kw(const struct token *t, const char *kw)
{
	const char *s = t->kind == TK_WORD ? plain_text(t) : NULL;
	return s && strcmp(s, kw) == 0;
}

static char *token_text(const struct parser *p, const struct token *t)
{
	if (t->kind != TK_WORD && t->kind != TK_IO_NUMBER)
		return xstrdup(tok_names[t->kind]);
	if (t->raw_frame < p->nframes && p->frames[t->raw_frame].id == t->raw_frame_id &&
	    t->raw_end >= t->raw_begin)
		return xstrndup(p->frames[t->raw_frame].text + t->raw_begin, t->raw_end - t->raw_begin);
	if (t->kind == TK_IO_NUMBER)
		return xasprintf("%d", t->io_number);
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

static void fail_unexpected(struct parser *p, const struct token *t)
{
	if (p->failed)
		return;
	if (t->kind == TK_EOF) {
		fail_at(p, t->range.begin, true, "syntax error: unexpected end of file");
		return;
	}
	char *s = token_text(p, t);
	fail_at(p, t->range.begin, false, "syntax error near unexpected token `%s'", s);
	free(s);
}

/* ---- here-documents ----------------------------------------------------- */

static void heredoc_warn(const struct parser *p, const struct pending_heredoc *h)
{
	if (p->opts.source_name)
		fprintf(stderr, "sbsh: %s: line %u: ", p->opts.source_name, p->line);
	else
		fprintf(stderr, "sbsh: line %u: ", p->line);
	fprintf(stderr, "warning: here-document at line %u delimited by end-of-file (wanted `%s')\n",
	        h->pos.line, h->delim);
}

static void fill_heredoc(struct parser *p, struct pending_heredoc *h, struct strbuf *body,
                         struct src_pos begin)
{
	struct word *w = h->body;
	if (h->quoted) {
		size_t len = body->len;
		struct word_part *v = ast_arena_zalloc(p->arena, sizeof *v);
		v->kind = WORD_LITERAL;
		v->u.literal.text = arena_str(p, body->data, len);
		strbuf_free(body);
		v->u.literal.len = len;
		v->u.literal.quote = QUOTE_SINGLE;
		v->range.begin = begin;
		v->range.end = cur_pos(p);
		w->parts = v;
		w->nparts = 1;
		w->range = v->range;
		return;
	}
	struct parser *s = sub_parser(p, body->data ? body->data : "", body->len, begin.line);
	s->base_offset = begin.offset;
	s->first_col = begin.col;
	s->depth = p->depth + 1;
	struct parts ps;
	parts_init(&ps);
	struct wopts wo = {WM_HEREDOC, true, 0};
	if (!lex_parts(s, &ps, &wo)) {
		parts_discard(s, &ps);
		p->failed = true;
		p->err = s->err;
		s->err.message = NULL;
		s->failed = false;
	} else {
		struct word *bw = parts_finish(s, &ps, begin);
		w->parts = bw->parts;
		w->nparts = bw->nparts;
		w->range = bw->range;
	}
	parser_destroy(s);
	strbuf_free(body);
}

/* Reads the bodies of the pending here-documents, right after a newline (or
 * at the end of the text). */
static void read_heredocs(struct parser *p, bool at_end)
{
	struct strbuf line, body;
	strbuf_init(&line);
	for (size_t i = 0; i < p->nhd && !p->failed; i++) {
		struct pending_heredoc *h = &p->hd[i];
		strbuf_init(&body);
		struct src_pos begin = cur_pos(p);
		for (;;) {
			if (at_end || raw_peek(p) == END_OF_INPUT) {
				if (!p->opts.at_eof) {
					strbuf_free(&body);
					fail_at(p, h->pos, true, "unterminated here-document (wanted `%s')",
					        h->delim);
					break;
				}
				heredoc_warn(p, h);
				fill_heredoc(p, h, &body, begin);
				break;
			}
			strbuf_truncate(&line, 0);
			int c;
			while ((c = raw_peek(p)) != END_OF_INPUT && c != '\n') {
				strbuf_addc(&line, (char)c);
				raw_advance(p);
			}
			bool had_newline = c == '\n';
			if (had_newline)
				raw_advance(p);
			const char *s = line.data ? line.data : "";
			size_t n = line.len;
			if (h->strip)
				while (n && *s == '\t') {
					s++;
					n--;
				}
			if (n == strlen(h->delim) && memcmp(s, h->delim, n) == 0) {
				fill_heredoc(p, h, &body, begin);
				break;
			}
			strbuf_addmem(&body, s, n);
			strbuf_addc(&body, '\n');
			(void)had_newline;
		}
	}
	strbuf_free(&line);
	for (size_t i = 0; i < p->nhd; i++)
		free(p->hd[i].delim);
	p->nhd = 0;
}

/* ---- the grammar -------------------------------------------------------- */

/* The text ends in an unescaped backslash-newline: a line-by-line reader
 * must read more before running the command. */
static bool ends_with_continuation(const struct parser *p)
{
	const struct frame *f = &p->frames[0];
	if (f->len < 2 || f->text[f->len - 1] != '\n')
		return false;
	size_t n = 0;
	while (n < f->len - 1 && f->text[f->len - 2 - n] == '\\')
		n++;
	return n % 2 == 1;
}

static struct node *parse_and_or(struct parser *p);
static struct node *parse_command(struct parser *p);
static struct node *parse_compound_list(struct parser *p, bool allow_empty);

static struct node *new_node(struct parser *p, enum node_kind kind, struct src_pos begin)
{
	struct node *n = ast_arena_zalloc(p->arena, sizeof *n);
	n->arena = p->arena;
	n->kind = kind;
	n->range.begin = begin;
	n->range.end = begin;
	return n;
}

static void finish_node(struct parser *p, struct node *n)
{
	n->range.end = p->last_end;
}

static struct list_item *list_add(struct parser *p, struct builder *items, struct node *item)
{
	struct list_item *li = bld_push(p, items, sizeof *li);
	li->node = item;
	return li;
}

static void list_finish(struct parser *p, struct node *list, struct builder *items)
{
	list->u.list.items = bld_finish(p, items, sizeof *list->u.list.items, &list->u.list.nitems);
}

static void skip_newlines(struct parser *p)
{
	while (peek(p)->kind == TK_NEWLINE)
		consume(p);
}

static bool is_redir_token(enum tok_kind k)
{
	return k >= TK_LESS && k <= TK_AND_DGREAT;
}

/* s is one of the n words of kws (compared first by their first byte: most
 * words are no keyword at all). */
static bool in_words(const char *s, const char *const *kws, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (kws[i][0] == s[0] && strcmp(s, kws[i]) == 0)
			return true;
	return false;
}

static bool is_closing_kw(const struct token *t)
{
	static const char *const kws[] = {"then", "else", "elif", "fi", "do", "done", "esac", "}"};
	const char *s = t->kind == TK_WORD ? plain_text(t) : NULL;
	return s && in_words(s, kws, sizeof kws / sizeof kws[0]);
}

static bool can_start_command(const struct token *t)
{
	switch (t->kind) {
	case TK_WORD:
		return !is_closing_kw(t);
	case TK_IO_NUMBER:
	case TK_LPAREN:
		return true;
	default:
		return is_redir_token(t->kind);
	}
}

static bool is_reserved(const char *s)
{
	static const char *const kws[] = {"if", "then", "else", "elif", "fi", "do", "done",
	                                  "case", "esac", "while", "until", "for", "{", "}",
	                                  "!", "in", "function", "select", "[[", "]]", "time"};
	return in_words(s, kws, sizeof kws / sizeof kws[0]);
}

/* Peeks the token in command position, replacing aliases. */
static struct token *peek_command_word(struct parser *p, bool check)
{
	for (;;) {
		struct token *t = peek(p);
		if (!check || !p->opts.alias_lookup || t->kind != TK_WORD || !t->plain ||
		    t->alias_checked)
			return t;
		const char *name = plain_text(t);
		const char *value = NULL;
		if (!is_reserved(name) && !alias_active(p, name))
			value = p->opts.alias_lookup(p->opts.alias_ctx, name);
		if (!value) {
			t->alias_checked = true; /* the grammar peeks it again */
			return t;
		}
		size_t len = strlen(value);
		char *alias = xstrdup(name);
		char *owned = xstrndup(value, len);
		token_clear(&p->tok);
		p->have_tok = false;
		push_frame(p, owned, len, owned, alias);
		p->alias_next = len > 0 && (value[len - 1] == ' ' || value[len - 1] == '\t');
	}
}

static bool expect_kw(struct parser *p, const char *kw)
{
	struct token *t = peek(p);
	if (!is_kw(t, kw)) {
		fail_unexpected(p, t);
		return false;
	}
	consume(p);
	return true;
}

/* A redirection, at an IO number or operator. */
static bool parse_redirect(struct parser *p, struct redir *r)
{
	memset(r, 0, sizeof *r);
	struct token *t = peek(p);
	r->range.begin = t->range.begin;
	r->fd = -1;
	if (t->kind == TK_IO_NUMBER) {
		r->fd = t->io_number;
		consume(p);
		t = peek(p);
		if (!is_redir_token(t->kind)) {
			fail_unexpected(p, t);
			return false;
		}
	}
	switch (t->kind) {
	case TK_LESS: r->op = REDIR_IN; break;
	case TK_GREAT: r->op = REDIR_OUT; break;
	case TK_DGREAT: r->op = REDIR_APPEND; break;
	case TK_CLOBBER: r->op = REDIR_CLOBBER; break;
	case TK_LESSGREAT: r->op = REDIR_RDWR; break;
	case TK_LESSAND: r->op = REDIR_DUP_IN; break;
	case TK_GREATAND: r->op = REDIR_DUP_OUT; break;
	case TK_DLESS: r->op = REDIR_HEREDOC; break;
	case TK_DLESSDASH: r->op = REDIR_HEREDOC_STRIP; break;
	case TK_TLESS: r->op = REDIR_HERESTRING; break;
	case TK_AND_GREAT: r->op = REDIR_OUT_ERR; break;
	case TK_AND_DGREAT: r->op = REDIR_APPEND_ERR; break;
	default:
		fail_unexpected(p, t);
		return false;
	}
	consume(p);
	t = peek(p);
	if (t->kind != TK_WORD || t->asg_array) {
		fail_unexpected(p, t);
		return false;
	}
	if (r->op == REDIR_HEREDOC || r->op == REDIR_HEREDOC_STRIP) {
		char *raw = token_text(p, t);
		bool quoted;
		char *delim = lex_heredoc_delimiter(raw, strlen(raw), &quoted);
		free(raw);
		if (p->nhd == p->caphd) {
			p->caphd = p->caphd ? p->caphd * 2 : 4;
			p->hd = xreallocarray(p->hd, p->caphd, sizeof *p->hd);
		}
		struct pending_heredoc *h = &p->hd[p->nhd++];
		h->delim = delim;
		h->quoted = quoted;
		h->strip = r->op == REDIR_HEREDOC_STRIP;
		h->pos = t->range.begin;
		h->body = ast_arena_zalloc(p->arena, sizeof *h->body);
		h->body->range.begin = h->body->range.end = t->range.end;
		r->heredoc = h->body;
		r->heredoc_quoted = quoted;
	}
	r->target = take_word(p);
	r->range.end = p->last_end;
	return true;
}

static bool add_redirect(struct parser *p, struct builder *redirs)
{
	struct redir r;
	if (!parse_redirect(p, &r))
		return false;
	*(struct redir *)bld_push(p, redirs, sizeof r) = r;
	return true;
}

static bool parse_trailing_redirects(struct parser *p, struct node *n)
{
	struct token *t = peek(p);
	if (t->kind != TK_IO_NUMBER && !is_redir_token(t->kind))
		return true;
	struct builder redirs = {0};
	for (size_t i = 0; i < n->nredirs; i++)
		*(struct redir *)bld_push(p, &redirs, sizeof *n->redirs) = n->redirs[i];
	for (;;) {
		t = peek(p);
		if (t->kind != TK_IO_NUMBER && !is_redir_token(t->kind))
			break;
		if (!add_redirect(p, &redirs)) {
			bld_release(p, &redirs);
			return false;
		}
		finish_node(p, n);
	}
	n->redirs = bld_finish(p, &redirs, sizeof *n->redirs, &n->nredirs);
	return true;
}

static bool is_declaration_command(const struct builder *words)
{
	static const char *const names[] = {"declare", "typeset", "local", "export", "readonly"};
	if (words->n == 0)
		return false;
	const struct word *w = *(struct word **)bld_at(words, 0, sizeof w);
	if (!word_is_plain(w))
		return false;
	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
		if (strcmp(w->parts[0].u.literal.text, names[i]) == 0)
			return true;
	return false;
}

/* `declare a=(x y)`: the array as one word "a=(x y)" for the builtin. */
static struct word *array_as_word(struct parser *p, struct token *t)
{
	struct parts ps;
	parts_init(&ps);
	struct src_pos b = t->range.begin, e = t->range.end;
	char *head = xasprintf("%s%s=(", t->asg_name, t->asg_append ? "+" : "");
	parts_add_literal(p, &ps, head, strlen(head), QUOTE_NONE, b, e);
	free(head);
	for (size_t i = 0; i < t->asg_nelems; i++) {
		if (i)
			parts_add_literal(p, &ps, " ", 1, QUOTE_SINGLE, b, e);
		struct word *w = t->asg_elems[i];
		for (size_t j = 0; j < w->nparts; j++)
			*parts_push(p, &ps, w->parts[j].kind) = w->parts[j];
	}
	t->asg_elems = NULL;
	t->asg_nelems = 0;
	parts_add_literal(p, &ps, ")", 1, QUOTE_NONE, b, e);
	struct word *w = word_from_parts(p, bld_at(&ps.v, 0, sizeof(struct word_part)), ps.v.n, b, e);
	bld_release(p, &ps.v);
	return w;
}

static void take_assignment(struct parser *p, struct assign *a)
{
	struct token *t = &p->tok;
	a->name = t->asg_name;
	t->asg_name = NULL;
	a->index = t->asg_index;
	t->asg_index = NULL;
	a->append = t->asg_append;
	a->range = t->range;
	if (t->asg_array) {
		a->is_array = true;
		a->array = t->asg_elems;
		a->narray = t->asg_nelems;
		t->asg_elems = NULL;
		t->asg_nelems = 0;
	} else {
		/* The value is the word's parts after the prefix, shared. */
		struct word *w = t->word;
		size_t k = t->asg_prefix;
		size_t nv = w->nparts - k;
		struct word *v = ast_arena_alloc(p->arena, sizeof *v);
		v->parts = nv ? w->parts + k : NULL;
		v->nparts = nv;
		v->range.begin = k < w->nparts ? w->parts[k].range.begin : t->range.end;
		v->range.end = t->range.end;
		a->value = v;
	}
	consume(p);
}

/* A simple command; n is NULL or a new NODE_SIMPLE, first NULL or the
 * command name already taken. */
static struct node *parse_simple_rest(struct parser *p, struct node *n, struct word *first)
{
	struct builder assigns = {0}, words = {0}, redirs = {0};
	if (!n)
		n = new_node(p, NODE_SIMPLE, peek(p)->range.begin);
	if (first)
		*(struct word **)bld_push(p, &words, sizeof first) = first;
	for (;;) {
		bool check = words.n == 0 || p->alias_next;
		if (words.n > 0)
			p->alias_next = false;
		struct token *t = peek_command_word(p, check);
		if (p->failed)
			goto fail;
		if (t->kind == TK_IO_NUMBER || is_redir_token(t->kind)) {
			if (!add_redirect(p, &redirs))
				goto fail;
			continue;
		}
		if (t->kind != TK_WORD)
			break;
		if (t->is_asg && words.n == 0) {
			take_assignment(p, bld_push(p, &assigns, sizeof(struct assign)));
			continue;
		}
		struct word *w;
		if (t->asg_array) {
			if (!is_declaration_command(&words)) {
				fail_at(p, t->range.begin, false,
				        "syntax error near unexpected token `('");
				goto fail;
			}
			w = array_as_word(p, t);
			consume(p);
		} else {
			w = take_word(p);
		}
		*(struct word **)bld_push(p, &words, sizeof w) = w;
	}
	n->u.simple.assigns = bld_finish(p, &assigns, sizeof *n->u.simple.assigns, &n->u.simple.nassigns);
	n->u.simple.words = bld_finish(p, &words, sizeof *n->u.simple.words, &n->u.simple.nwords);
	n->redirs = bld_finish(p, &redirs, sizeof *n->redirs, &n->nredirs);
	finish_node(p, n);
	return n;
fail:
	bld_release(p, &assigns);
	bld_release(p, &words);
	bld_release(p, &redirs);
	return NULL;
}

static struct node *parse_brace_or_subshell(struct parser *p, bool subshell)
{
	struct node *n = new_node(p, subshell ? NODE_SUBSHELL : NODE_BRACE_GROUP, peek(p)->range.begin);
	consume(p);
	n->u.group.body = parse_compound_list(p, false);
	if (!n->u.group.body)
		goto fail;
	struct token *t = peek(p);
	if (subshell ? t->kind != TK_RPAREN : !is_kw(t, "}")) {
		fail_unexpected(p, t);
		goto fail;
	}
	consume(p);
	finish_node(p, n);
	return n;
fail:
	ast_node_free(n);
	return NULL;
}

static struct node *parse_if(struct parser *p)
{
	struct node *top = NULL;
	struct node **slot = &top;
	/* elif chains are built iteratively: a long chain is not deep nesting. */
	for (;;) {
		struct node *n = new_node(p, NODE_IF, peek(p)->range.begin);
		*slot = n;
		consume(p); /* if / elif */
		n->u.if_.cond = parse_compound_list(p, false);
		if (!n->u.if_.cond || !expect_kw(p, "then"))
			goto fail;
		n->u.if_.then_part = parse_compound_list(p, false);
		if (!n->u.if_.then_part)
			goto fail;
		struct token *t = peek(p);
		if (is_kw(t, "elif")) {
			slot = &n->u.if_.else_part;
			continue;
		}
		if (is_kw(t, "else")) {
			consume(p);
			n->u.if_.else_part = parse_compound_list(p, false);
			if (!n->u.if_.else_part)
				goto fail;
		}
		if (!expect_kw(p, "fi"))
			goto fail;
		break;
	}
	/* Every node of the chain ends at the `fi`. */
	for (struct node *n = top; n; n = n->u.if_.else_part) {
		finish_node(p, n);
		if (n->u.if_.else_part && n->u.if_.else_part->kind != NODE_IF)
			break;
	}
	return top;
fail:
	ast_node_free(top);
	return NULL;
}

static struct node *parse_loop(struct parser *p, bool until)
{
	struct node *n = new_node(p, NODE_LOOP, peek(p)->range.begin);
	n->u.loop.until = until;
	consume(p);
	n->u.loop.cond = parse_compound_list(p, false);
	if (!n->u.loop.cond || !expect_kw(p, "do"))
		goto fail;
	n->u.loop.body = parse_compound_list(p, false);
	if (!n->u.loop.body || !expect_kw(p, "done"))
		goto fail;
	finish_node(p, n);
	return n;
fail:
	ast_node_free(n);
	return NULL;
}

/* `do list done`, or bash's `{ list }` form, as a for-loop body. */
static struct node *parse_do_group(struct parser *p)
{
	struct token *t = peek(p);
	if (is_kw(t, "{")) {
		consume(p);
		struct node *body = parse_compound_list(p, false);
		if (!body || !expect_kw(p, "}")) {
			ast_node_free(body);
			return NULL;
		}
		return body;
	}
	if (!expect_kw(p, "do"))
		return NULL;
	struct node *body = parse_compound_list(p, false);
	if (!body || !expect_kw(p, "done")) {
		ast_node_free(body);
		return NULL;
	}
	return body;
}

static bool parse_arith_clause(struct parser *p, struct word **out, int stop)
{
	struct word *w = NULL;
	if (!lex_arith_body(p, &w, stop))
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

static struct node *parse_for(struct parser *p)
{
	struct node *n = new_node(p, NODE_FOR, peek(p)->range.begin);
	consume(p); /* for */
	struct token *t = peek(p);
	if (t->kind == TK_LPAREN && la(p, 0) == '(') {
		n->kind = NODE_ARITH_FOR;
		consume(p);
		if (!enter(p))
			goto fail;
		advance(p);
		bool ok = parse_arith_clause(p, &n->u.arith_for.init, ';');
		if (ok && la(p, 0) != ';') {
			fail_at(p, cur_pos(p), la(p, 0) == END_OF_INPUT,
			        "syntax error: `;' expected in arithmetic for");
			ok = false;
		}
		if (ok) {
			advance(p);
			ok = parse_arith_clause(p, &n->u.arith_for.cond, ';');
		}
		if (ok && la(p, 0) != ';') {
			fail_at(p, cur_pos(p), la(p, 0) == END_OF_INPUT,
			        "syntax error: `;' expected in arithmetic for");
			ok = false;
		}
		if (ok) {
			advance(p);
			ok = parse_arith_clause(p, &n->u.arith_for.step, 0) && lex_arith_close(p);
		}
		leave(p);
		if (!ok)
			goto fail;
		p->last_end = cur_pos(p);
		t = peek(p);
		if (t->kind == TK_SEMI)
			consume(p);
		skip_newlines(p);
		n->u.arith_for.body = parse_do_group(p);
		if (!n->u.arith_for.body)
			goto fail;
		finish_node(p, n);
		return n;
	}
	if (t->kind != TK_WORD || !t->plain || !parse_is_name(plain_text(t), strlen(plain_text(t)))) {
		if (t->kind == TK_WORD) {
			char *s = token_text(p, t);
			fail_at(p, t->range.begin, false, "`%s': not a valid identifier", s);
			free(s);
		} else {
			fail_unexpected(p, t);
		}
		goto fail;
	}
	n->u.for_.var = arena_str(p, plain_text(t), strlen(plain_text(t)));
	consume(p);
	skip_newlines(p);
	t = peek(p);
	if (is_kw(t, "in")) {
		n->u.for_.has_in = true;
		consume(p);
		struct builder words = {0};
		for (;;) {
			t = peek(p);
			if (t->kind != TK_WORD)
				break;
			if (t->asg_array) {
				bld_release(p, &words);
				fail_unexpected(p, t);
				goto fail;
			}
			struct word *w = take_word(p);
			*(struct word **)bld_push(p, &words, sizeof w) = w;
		}
		n->u.for_.words = bld_finish(p, &words, sizeof *n->u.for_.words, &n->u.for_.nwords);
		if (t->kind != TK_SEMI && t->kind != TK_NEWLINE) {
			fail_unexpected(p, t);
			goto fail;
		}
		consume(p);
	} else if (t->kind == TK_SEMI) {
		consume(p);
	}
	skip_newlines(p);
	n->u.for_.body = parse_do_group(p);
	if (!n->u.for_.body)
		goto fail;
	finish_node(p, n);
	return n;
fail:
	ast_node_free(n);
	return NULL;
}

static struct node *parse_case(struct parser *p)
{
	struct node *n = new_node(p, NODE_CASE, peek(p)->range.begin);
	struct builder items = {0}, patterns = {0}; /* before any goto fail */
	consume(p); /* case */
	struct token *t = peek(p);
	if (t->kind != TK_WORD || t->asg_array) {
		fail_unexpected(p, t);
		goto fail;
	}
	n->u.case_.subject = take_word(p);
	skip_newlines(p);
	if (!expect_kw(p, "in"))
		goto fail;
	skip_newlines(p);
	for (;;) {
		t = peek(p);
		if (is_kw(t, "esac")) {
			consume(p);
			break;
		}
		struct case_item *ci = bld_push(p, &items, sizeof *ci);
		ci->range.begin = t->range.begin;
		if (t->kind == TK_LPAREN) {
			consume(p);
			t = peek(p);
		}
		for (;;) {
			if (t->kind != TK_WORD || t->asg_array) {
				fail_unexpected(p, t);
				goto fail;
			}
			struct word *w = take_word(p);
			*(struct word **)bld_push(p, &patterns, sizeof w) = w;
			t = peek(p);
			if (t->kind != TK_PIPE)
				break;
			consume(p);
			t = peek(p);
		}
		ci->patterns = bld_finish(p, &patterns, sizeof *ci->patterns, &ci->npatterns);
		if (t->kind != TK_RPAREN) {
			fail_unexpected(p, t);
			goto fail;
		}
		consume(p);
		ci->body = parse_compound_list(p, true);
		if (p->failed)
			goto fail;
		t = peek(p);
		ci->terminator = CASE_BREAK;
		if (t->kind == TK_DSEMI || t->kind == TK_SEMI_AND || t->kind == TK_DSEMI_AND) {
			ci->terminator = t->kind == TK_DSEMI ? CASE_BREAK
			               : t->kind == TK_SEMI_AND ? CASE_FALLTHROUGH : CASE_CONTINUE;
			consume(p);
			ci->range.end = p->last_end;
			skip_newlines(p);
			continue;
		}
		ci->range.end = p->last_end;
		if (is_kw(t, "esac")) {
			consume(p);
			break;
		}
		fail_unexpected(p, t);
		goto fail;
	}
	n->u.case_.items = bld_finish(p, &items, sizeof *n->u.case_.items, &n->u.case_.nitems);
	finish_node(p, n);
	return n;
fail:
	bld_release(p, &items);
	bld_release(p, &patterns);
	return NULL;
}

/* ---- [[ ]] -------------------------------------------------------------- */

static struct cond_expr *parse_cond_or(struct parser *p);

static struct cond_expr *new_cond(struct parser *p, enum cond_kind kind, struct src_pos begin)
{
	struct cond_expr *c = ast_arena_zalloc(p->arena, sizeof *c);
	c->kind = kind;
	c->range.begin = begin;
	c->range.end = begin;
	return c;
}

static bool is_cond_unary(const char *s)
{
	return s[0] == '-' && s[1] && !s[2] && strchr("abcdefghknoprstuvwxzGLNORS", s[1]);
}

static bool is_cond_binary(const char *s)
{
	static const char *const ops[] = {"=", "==", "!=", "=~", "-eq", "-ne", "-lt",
	                                  "-le", "-gt", "-ge", "-nt", "-ot", "-ef"};
	for (size_t i = 0; i < sizeof ops / sizeof ops[0]; i++)
		if (strcmp(s, ops[i]) == 0)
			return true;
	return false;
}

static void fail_cond(struct parser *p, const struct token *t)
{
	if (t->kind == TK_EOF) {
		fail_unexpected(p, t);
		return;
	}
	char *s = token_text(p, t);
	fail_at(p, t->range.begin, false, "syntax error in conditional expression: unexpected token `%s'", s);
	free(s);
}

static bool cond_operand_ok(const struct token *t)
{
	return t->kind == TK_WORD && !t->asg_array && !is_kw(t, "]]");
}

static struct cond_expr *parse_cond_primary(struct parser *p)
{
	skip_newlines(p);
	struct token *t = peek(p);
	struct src_pos begin = t->range.begin;
	if (is_kw(t, "!")) {
		consume(p);
		if (!enter(p))
			return NULL;
		struct cond_expr *inner = parse_cond_primary(p);
		leave(p);
		if (!inner)
			return NULL;
		struct cond_expr *c = new_cond(p, COND_NOT, begin);
		c->left = inner;
		c->range.end = p->last_end;
		return c;
	}
	if (t->kind == TK_LPAREN) {
		consume(p);
		if (!enter(p))
			return NULL;
		struct cond_expr *inner = parse_cond_or(p);
		leave(p);
		if (!inner)
			return NULL;
		skip_newlines(p);
		t = peek(p);
		if (t->kind != TK_RPAREN) {
			fail_cond(p, t);
			return NULL;
		}
		consume(p);
		return inner;
	}
	if (!cond_operand_ok(t)) {
		fail_cond(p, t);
		return NULL;
	}
	struct word *first = take_word(p);
	struct token *next = peek(p);
	/* Unary test: an operator word followed by an operand. */
	if (word_is_plain(first) && is_cond_unary(first->parts[0].u.literal.text) &&
	    cond_operand_ok(next)) {
		const char *nt = plain_text(next);
		if (!(nt && is_cond_binary(nt))) {
			struct cond_expr *c = new_cond(p, COND_UNARY, begin);
			c->op = first->parts[0].u.literal.text;
			c->lhs = take_word(p);
			c->range.end = p->last_end;
			return c;
		}
	}
	const char *op = NULL;
	if (next->kind == TK_LESS)
		op = "<";
	else if (next->kind == TK_GREAT)
		op = ">";
	else if (next->kind == TK_WORD && plain_text(next) && is_cond_binary(plain_text(next)))
		op = plain_text(next);
	if (!op) {
		struct cond_expr *c = new_cond(p, COND_WORD, begin);
		c->lhs = first;
		c->range.end = p->last_end;
		return c;
	}
	struct cond_expr *c = new_cond(p, COND_BINARY, begin);
	c->op = arena_str(p, op, strlen(op));
	c->lhs = first;
	consume(p);
	if (strcmp(c->op, "=~") == 0) {
		while (la(p, 0) == ' ' || la(p, 0) == '\t')
			advance(p);
		struct src_pos rb = cur_pos(p);
		struct parts ps;
		parts_init(&ps);
		struct wopts wo = {WM_REGEX, false, 0};
		if (!lex_parts(p, &ps, &wo)) {
			parts_discard(p, &ps);
			return NULL;
		}
		struct word *rx = parts_finish(p, &ps, rb);
		if (rx->nparts == 0 || (word_is_plain(rx) && strcmp(rx->parts[0].u.literal.text, "]]") == 0)) {
			fail_cond(p, peek(p));
			return NULL;
		}
		c->rhs = rx;
		p->last_end = cur_pos(p);
	} else {
		t = peek(p);
		if (!cond_operand_ok(t)) {
			fail_cond(p, t);
			return NULL;
		}
		c->rhs = take_word(p);
	}
	c->range.end = p->last_end;
	return c;
}

static struct cond_expr *parse_cond_and(struct parser *p)
{
	struct cond_expr *left = parse_cond_primary(p);
	if (!left)
		return NULL;
	for (;;) {
		skip_newlines(p);
		if (peek(p)->kind != TK_AND_IF)
			break;
		consume(p);
		struct cond_expr *right = parse_cond_primary(p);
		if (!right)
			return NULL;
		struct cond_expr *c = new_cond(p, COND_AND, left->range.begin);
		c->left = left;
		c->right = right;
		c->range.end = p->last_end;
		left = c;
	}
	return left;
}

static struct cond_expr *parse_cond_or(struct parser *p)
{
	struct cond_expr *left = parse_cond_and(p);
	if (!left)
		return NULL;
	for (;;) {
		skip_newlines(p);
		if (peek(p)->kind != TK_OR_IF)
			break;
		consume(p);
		struct cond_expr *right = parse_cond_and(p);
		if (!right)
			return NULL;
		struct cond_expr *c = new_cond(p, COND_OR, left->range.begin);
		c->left = left;
		c->right = right;
		c->range.end = p->last_end;
		left = c;
	}
	return left;
}

static struct node *parse_cond_command(struct parser *p)
{
	struct node *n = new_node(p, NODE_COND, peek(p)->range.begin);
	consume(p); /* [[ */
	n->u.cond.expr = parse_cond_or(p);
	if (!n->u.cond.expr)
		goto fail;
	skip_newlines(p);
	struct token *t = peek(p);
	if (!is_kw(t, "]]")) {
		fail_cond(p, t);
		goto fail;
	}
	consume(p);
	finish_node(p, n);
	return n;
fail:
	ast_node_free(n);
	return NULL;
}

/* ---- commands ----------------------------------------------------------- */

static struct node *parse_funcdef_body(struct parser *p, struct node *f)
{
	skip_newlines(p);
	struct node *body = parse_command(p);
	if (!body)
		return NULL;
	switch (body->kind) {
	case NODE_SIMPLE:
	case NODE_PIPELINE:
	case NODE_AND_OR:
	case NODE_LIST:
	case NODE_FUNCDEF:
		/* Only compound commands make function bodies. */
		fail_at(p, body->range.begin, false, "syntax error: function body must be a compound command");
		ast_node_free(body);
		return NULL;
	default:
		break;
	}
	f->u.funcdef.body = body;
	finish_node(p, f);
	return f;
}

static struct node *parse_function_keyword(struct parser *p)
{
	struct node *n = new_node(p, NODE_FUNCDEF, peek(p)->range.begin);
	n->u.funcdef.keyword = true;
	consume(p); /* function */
	struct token *t = peek(p);
	if (t->kind != TK_WORD || !t->plain) {
		fail_unexpected(p, t);
		goto fail;
	}
	n->u.funcdef.name = arena_str(p, plain_text(t), strlen(plain_text(t)));
	consume(p);
	t = peek(p);
	if (t->kind == TK_LPAREN) {
		consume(p);
		t = peek(p);
		if (t->kind != TK_RPAREN) {
			fail_unexpected(p, t);
			goto fail;
		}
		consume(p);
	}
	if (parse_funcdef_body(p, n))
		return n;
fail:
	ast_node_free(n);
	return NULL;
}

static struct node *parse_arith_command(struct parser *p)
{
	struct node *n = new_node(p, NODE_ARITH, peek(p)->range.begin);
	consume(p); /* the first ( */
	advance(p); /* the second */
	if (!lex_arith_body(p, &n->u.arith.expr, 0) || !lex_arith_close(p)) {
		ast_node_free(n);
		return NULL;
	}
	p->last_end = cur_pos(p);
	finish_node(p, n);
	return n;
}

static struct node *parse_command(struct parser *p)
{
	struct token *t = peek_command_word(p, true);
	if (p->failed)
		return NULL;
	struct node *n = NULL;
	if (t->kind == TK_LPAREN) {
		if (!enter(p))
			return NULL;
		if (la(p, 0) == '(') {
			struct cursor c = cur_top(p);
			cur_next(p, &c);
			if (arith_closes(p, c))
				n = parse_arith_command(p);
			else
				n = parse_brace_or_subshell(p, true);
		} else {
			n = parse_brace_or_subshell(p, true);
		}
		leave(p);
	} else if (t->kind == TK_WORD && t->plain) {
		const char *s = plain_text(t);
		bool compound = true;
		if (!enter(p))
			return NULL;
		if (strcmp(s, "{") == 0)
			n = parse_brace_or_subshell(p, false);
		else if (strcmp(s, "if") == 0)
			n = parse_if(p);
		else if (strcmp(s, "while") == 0)
			n = parse_loop(p, false);
		else if (strcmp(s, "until") == 0)
			n = parse_loop(p, true);
		else if (strcmp(s, "for") == 0)
			n = parse_for(p);
		else if (strcmp(s, "case") == 0)
			n = parse_case(p);
		else if (strcmp(s, "[[") == 0)
			n = parse_cond_command(p);
		else if (strcmp(s, "function") == 0)
			n = parse_function_keyword(p);
		else
			compound = false;
		leave(p);
		if (!compound) {
			if (is_closing_kw(t)) {
				fail_unexpected(p, t);
				return NULL;
			}
			/* name ( ) compound: look past the word for `(`. */
			struct token saved = *t;
			p->have_tok = false;
			p->last_end = saved.range.end;
			struct token *next = peek(p);
			if (next->kind == TK_LPAREN && !p->failed) {
				consume(p);
				next = peek(p);
				if (next->kind != TK_RPAREN) {
					fail_unexpected(p, next);
					return NULL;
				}
				consume(p);
				n = new_node(p, NODE_FUNCDEF, saved.range.begin);
				n->u.funcdef.name = arena_str(p, plain_text(&saved), strlen(plain_text(&saved)));
				if (!enter(p)) {
					ast_node_free(n);
					return NULL;
				}
				struct node *r = parse_funcdef_body(p, n);
				leave(p);
				if (!r)
					ast_node_free(n);
				return r;
			}
			if (p->failed)
				return NULL;
			/* Put the word back in front: a simple command. */
			struct node *simple = new_node(p, NODE_SIMPLE, saved.range.begin);
			struct word *w = token_word(p, &saved);
			return parse_simple_rest(p, simple, w);
		}
	} else if (t->kind == TK_WORD || t->kind == TK_IO_NUMBER || is_redir_token(t->kind)) {
		return parse_simple_rest(p, NULL, NULL);
	} else {
		fail_unexpected(p, t);
		return NULL;
	}
	if (!n)
		return NULL;
	if (!parse_trailing_redirects(p, n)) {
		ast_node_free(n);
		return NULL;
	}
	return n;
}

static struct node *parse_pipeline(struct parser *p)
{
	struct token *t = peek_command_word(p, true);
	struct src_pos begin = t->range.begin;
	bool bang = false, timed = false;
	for (;;) {
		if (!timed && !bang && is_kw(t, "time")) {
			timed = true;
			consume(p);
			t = peek(p);
			if (is_kw(t, "-p")) /* POSIX output format: accepted */
				consume(p);
		} else if (is_kw(t, "!")) {
			bang = !bang;
			consume(p);
		} else {
			break;
		}
		t = peek_command_word(p, true);
	}
	if (p->failed)
		return NULL;
	struct node *first;
	if ((bang || timed) && !can_start_command(t)) {
		/* `!` or `time` alone: an empty command, as bash allows. */
		first = new_node(p, NODE_SIMPLE, t->range.begin);
	} else {
		first = parse_command(p);
		if (!first)
			return NULL;
	}
	t = peek(p);
	if (t->kind != TK_PIPE && t->kind != TK_PIPE_AMP && !bang && !timed)
		return first;
	struct node *n = new_node(p, NODE_PIPELINE, begin);
	n->u.pipeline.bang = bang;
	n->u.pipeline.timed = timed;
	struct builder cmds = {0}, stderr_too = {0};
	*(struct node **)bld_push(p, &cmds, sizeof first) = first;
	bld_push(p, &stderr_too, sizeof(bool));
	while (t->kind == TK_PIPE || t->kind == TK_PIPE_AMP) {
		*(bool *)bld_at(&stderr_too, stderr_too.n - 1, sizeof(bool)) = t->kind == TK_PIPE_AMP;
		consume(p);
		skip_newlines(p);
		struct node *cmd = parse_command(p);
		if (!cmd) {
			bld_release(p, &cmds);
			bld_release(p, &stderr_too);
			return NULL;
		}
		*(struct node **)bld_push(p, &cmds, sizeof cmd) = cmd;
		bld_push(p, &stderr_too, sizeof(bool));
		t = peek(p);
	}
	n->u.pipeline.cmds = bld_finish(p, &cmds, sizeof *n->u.pipeline.cmds, &n->u.pipeline.ncmds);
	size_t nst;
	n->u.pipeline.stderr_too = bld_finish(p, &stderr_too, sizeof(bool), &nst);
	finish_node(p, n);
	return n;
}

static struct node *parse_and_or(struct parser *p)
{
	struct node *left = parse_pipeline(p);
	if (!left)
		return NULL;
	for (;;) {
		struct token *t = peek(p);
		if (t->kind != TK_AND_IF && t->kind != TK_OR_IF)
			break;
		bool is_or = t->kind == TK_OR_IF;
		consume(p);
		skip_newlines(p);
		struct node *right = parse_pipeline(p);
		if (!right) {
			ast_node_free(left);
			return NULL;
		}
		struct node *n = new_node(p, NODE_AND_OR, left->range.begin);
		n->u.and_or.is_or = is_or;
		n->u.and_or.left = left;
		n->u.and_or.right = right;
		finish_node(p, n);
		left = n;
	}
	return left;
}

/* A list inside a compound command: and-or lists separated by ; & and
 * newlines, up to a token that cannot start a command. */
static struct node *parse_compound_list(struct parser *p, bool allow_empty)
{
	skip_newlines(p);
	struct src_pos begin = peek(p)->range.begin;
	struct builder items = {0};
	for (;;) {
		struct token *t = peek(p);
		if (p->failed)
			goto fail;
		if (!can_start_command(t))
			break;
		struct node *item = parse_and_or(p);
		if (!item)
			goto fail;
		struct list_item *li = list_add(p, &items, item);
		t = peek(p);
		if (t->kind == TK_SEMI || t->kind == TK_AMP) {
			li->async = t->kind == TK_AMP;
			consume(p);
			skip_newlines(p);
			continue;
		}
		if (t->kind == TK_NEWLINE) {
			skip_newlines(p);
			continue;
		}
		break;
	}
	if (p->failed)
		goto fail;
	if (items.n == 0) {
		if (!allow_empty) {
			fail_unexpected(p, peek(p));
			goto fail;
		}
		bld_release(p, &items);
		return NULL;
	}
	struct node *list = new_node(p, NODE_LIST, begin);
	list_finish(p, list, &items);
	finish_node(p, list);
	return list;
fail:
	bld_release(p, &items);
	return NULL;
}

/* The body of $( ) or <( ): up to the closing `)`, which is consumed. The
 * raw position of the `)` is returned for the body's text. */
static struct node *parse_subprogram(struct parser *p, size_t *end_frame, unsigned *end_id,
                                     size_t *end)
{
	struct node *body = parse_compound_list(p, true);
	if (p->failed)
		return NULL;
	struct token *t = peek(p);
	if (t->kind != TK_RPAREN) {
		if (t->kind == TK_EOF)
			unexpected_eof(p, ")");
		else
			fail_unexpected(p, t);
		ast_node_free(body);
		return NULL;
	}
	*end_frame = t->raw_frame;
	*end_id = t->raw_frame_id;
	*end = t->raw_begin;
	consume(p);
	return body;
}

/* One line's worth: and-or lists up to a newline or the end of the text,
 * appended to items; *end gets where the line's list ends. */
static bool parse_line(struct parser *p, struct builder *items, struct src_pos *end)
{
	for (;;) {
		struct node *item = parse_and_or(p);
		if (!item)
			return false;
		struct list_item *li = list_add(p, items, item);
		struct token *t = peek(p);
		if (t->kind == TK_SEMI || t->kind == TK_AMP) {
			li->async = t->kind == TK_AMP;
			consume(p);
			t = peek(p);
			if (t->kind == TK_NEWLINE || t->kind == TK_EOF)
				break;
			continue;
		}
		break;
	}
	struct token *t = peek(p);
	if (p->failed)
		return false;
	if (t->kind == TK_NEWLINE) {
		*end = p->last_end;
		consume(p);
		return true;
	}
	if (t->kind != TK_EOF) {
		fail_unexpected(p, t);
		return false;
	}
	if (ends_with_continuation(p) && !p->opts.at_eof && !p->whole_program) {
		fail_at(p, t->range.begin, true, "syntax error: unexpected end of file");
		return false;
	}
	*end = p->last_end;
	return true;
}

/* The next complete command's items appended to items, with the position
 * of its first token and of its end: 1, 0 at the end of the text, -1 on
 * error. */
static int next_line(struct parser *p, struct builder *items, struct src_pos *begin,
                     struct src_pos *end)
{
	if (p->failed)
		return -1;
	for (;;) {
		struct token *t = peek(p);
		if (p->failed)
			return -1;
		if (t->kind == TK_NEWLINE) {
			consume(p);
			continue;
		}
		if (t->kind == TK_EOF) {
			if (ends_with_continuation(p) && !p->opts.at_eof && !p->whole_program) {
				fail_at(p, t->range.begin, true, "syntax error: unexpected end of file");
				return -1;
			}
			return 0;
		}
		*begin = t->range.begin;
		break;
	}
	return parse_line(p, items, end) ? 1 : -1;
}

/* A sub-parser of text extracted from p's: same options, same arena. */
static struct parser *sub_parser(struct parser *p, const char *text, size_t len,
                                 unsigned first_line)
{
	struct parser_options o = p->opts;
	o.first_line = first_line ? first_line : 1;
	o.at_eof = true;
	struct parser *s = parser_create(text, len, &o);
	s->arena = p->arena;
	s->arena_shared = true;
	return s;
}

/* Parses extracted text (the body of `...`) as a program: errors are copied
 * into p. Returns NULL for an empty program or on error. */
static struct node *parse_text_program(struct parser *p, const char *text, size_t len,
                                       struct src_pos at)
{
	struct parser *s = sub_parser(p, text, len, at.line);
	s->base_offset = at.offset;
	s->first_col = at.col ? at.col : 1;
	s->depth = p->depth;
	s->whole_program = true;
	struct builder items = {0};
	struct src_pos begin, end = at;
	for (;;) {
		int r = next_line(s, &items, &begin, &end);
		if (r < 0) {
			p->failed = true;
			p->err = s->err;
			s->err.message = NULL;
			p->err.incomplete = false;
			bld_release(s, &items);
			parser_destroy(s);
			return NULL;
		}
		if (r == 0)
			break;
	}
	struct node *out = NULL;
	if (items.n) {
		out = new_node(s, NODE_LIST, at);
		list_finish(s, out, &items);
		out->range.end = end;
	}
	parser_destroy(s);
	return out;
}

/* ---- the interface ------------------------------------------------------ */

bool parse_is_name(const char *s, size_t len)
{
	if (len == 0 || !lex_is_name_start((unsigned char)s[0]))
		return false;
	for (size_t i = 1; i < len; i++)
		if (!lex_is_name_char((unsigned char)s[i]))
			return false;
	return true;
}

struct parser *parser_create(const char *text, size_t len, const struct parser_options *opts)
{
	struct parser *p = xcalloc(1, sizeof *p);
	if (opts)
		p->opts = *opts;
	if (p->opts.first_line == 0)
		p->opts.first_line = 1;
	p->max_depth = p->opts.max_depth ? p->opts.max_depth : DEFAULT_MAX_DEPTH;
	p->line = p->opts.first_line;
	p->first_col = 1;
	strbuf_init(&p->lit);
	push_frame(p, text ? text : "", text ? len : 0, NULL, NULL);
	p->last_end = cur_pos(p);
	return p;
}

void parser_destroy(struct parser *p)
{
	if (!p)
		return;
	while (p->nframes > 0)
		pop_frame(p);
	free(p->frames);
	for (size_t i = 0; i < p->nhd; i++)
		free(p->hd[i].delim);
	free(p->hd);
	free(p->err.message);
	strbuf_free(&p->lit);
	for (size_t i = 0; i < p->nvecs; i++) {
		free(p->vecs[i]->data);
		free(p->vecs[i]);
	}
	free(p->vecs);
	/* A per-call arena left by a failed parser_next() is gone already; a
	 * shared one belongs to someone else. */
	free(p);
}

int parser_next(struct parser *p, struct node **out)
{
	*out = NULL;
	if (p->failed)
		return -1;
	bool own = !p->arena_shared;
	if (own)
		p->arena = ast_arena_create();
	struct builder items = {0};
	struct src_pos begin, end;
	int r = next_line(p, &items, &begin, &end);
	if (r <= 0) {
		bld_release(p, &items);
		if (own) {
			ast_arena_destroy(p->arena);
			p->arena = NULL;
		}
		return r;
	}
	struct node *list = new_node(p, NODE_LIST, begin);
	list_finish(p, list, &items);
	list->range.end = end;
	if (own) {
		ast_arena_set_root(p->arena, list);
		p->arena = NULL;
	}
	*out = list;
	return 1;
}

const struct parse_error *parser_error(const struct parser *p)
{
	return p->failed ? &p->err : NULL;
}

size_t parser_offset(const struct parser *p)
{
	return p->base_offset + p->frames[0].pos;
}

unsigned parser_line(const struct parser *p)
{
	return p->line;
}

int parse_program(const char *text, size_t len, const struct parser_options *opts,
                  struct node **out, struct parse_error *err)
{
	struct parser *p = parser_create(text, len, opts);
	p->whole_program = true;
	p->arena = ast_arena_create();
	p->arena_shared = true;
	struct src_pos begin = cur_pos(p), line_begin, end = begin;
	struct builder items = {0};
	*out = NULL;
	for (;;) {
		int r = next_line(p, &items, &line_begin, &end);
		if (r < 0) {
			if (err) {
				*err = p->err;
				p->err.message = NULL;
			}
			bld_release(p, &items);
			ast_arena_destroy(p->arena);
			parser_destroy(p);
			return -1;
		}
		if (r == 0)
			break;
	}
	struct node *all = new_node(p, NODE_LIST, begin);
	list_finish(p, all, &items);
	all->range.end = end;
	ast_arena_set_root(p->arena, all);
	parser_destroy(p);
	if (err)
		memset(err, 0, sizeof *err);
	*out = all;
	return 0;
}
