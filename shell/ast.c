/* The AST module: freeing, deep copies, and the printer that turns a tree
 * back into shell text that parses to an equivalent tree. */
#include "shell/ast.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "shell/lexer.h"

/* ---- the arena ---------------------------------------------------------- */

#define ARENA_ALIGN AST_ARENA_ALIGN

struct arena_chunk {
	union {
		struct {
			struct arena_chunk *prev;
			size_t mapped; /* the length of its own mapping, or 0 when malloc'd */
		} h;
		union ast_arena_align align;
	};
};

/* Small first chunk: most trees are one short line; later chunks double. */
#define ARENA_FIRST_CHUNK 512
#define ARENA_MAX_CHUNK ((size_t)1024 * 1024)
/* A chunk this large is mapped with its pages populated: a bump arena
 * writes every page it is given, and one populating mmap costs far less
 * than a fault per 4 KiB page (a 1 MB script's tree took 5,600 faults, a
 * third of its parse time). Only a tree past about 256 KiB gets one. */
#define ARENA_POPULATE_CHUNK ((size_t)256 * 1024)

static struct arena_chunk *chunk_new(size_t size)
{
	size_t len = sizeof(struct arena_chunk) + size;
	if (size >= ARENA_POPULATE_CHUNK) {
		void *m = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);
		if (m != MAP_FAILED) {
			struct arena_chunk *c = m;
			c->h.mapped = len;
			return c;
		}
	}
	struct arena_chunk *c = xmalloc(len);
	c->h.mapped = 0;
	return c;
}

static void chunk_free(struct arena_chunk *c)
{
	if (c->h.mapped)
		munmap(c, c->h.mapped);
	else
		free(c);
}

struct ast_arena *ast_arena_create(void)
{
	struct ast_arena *a = xcalloc(1, sizeof *a);
	a->chunk_size = ARENA_FIRST_CHUNK;
	return a;
}

void ast_arena_destroy(struct ast_arena *a)
{
	if (!a)
		return;
	struct arena_chunk *c = a->chunks;
	while (c) {
		struct arena_chunk *prev = c->h.prev;
		chunk_free(c);
		c = prev;
	}
	free(a);
}

/* Memory that does not fit the current chunk. */
static void *arena_slow(struct ast_arena *a, size_t size)
{
#ifdef AST_ARENA_PER_OBJECT
	struct arena_chunk *c = xmalloc(sizeof *c + size);
	c->h.mapped = 0;
	c->h.prev = a->chunks;
	a->chunks = c;
	return c + 1;
#else
	if (size > a->chunk_size / 4) {
		/* A big object gets a chunk of its own, behind the current one,
		 * so the current one's free space is not lost. */
		struct arena_chunk *c = xmalloc(sizeof *c + size);
		c->h.mapped = 0;
		if (a->chunks) {
			c->h.prev = a->chunks->h.prev;
			a->chunks->h.prev = c;
		} else {
			c->h.prev = NULL;
			a->chunks = c;
		}
		return c + 1;
	}
	struct arena_chunk *c = chunk_new(a->chunk_size);
	c->h.prev = a->chunks;
	a->chunks = c;
	a->next = (char *)(c + 1);
	a->end = a->next + a->chunk_size;
	if (a->chunk_size < ARENA_MAX_CHUNK)
		a->chunk_size *= 2;
	void *r = a->next;
	a->next += size;
	return r;
#endif
}

void *ast_arena_alloc_slow(struct ast_arena *a, size_t size)
{
	if (size == 0)
		size = 1;
	return arena_slow(a, (size + ARENA_ALIGN - 1) & ~(ARENA_ALIGN - 1));
}

char *ast_arena_strndup_slow(struct ast_arena *a, const char *s, size_t len)
{
	char *r = arena_slow(a, len + 1);
	if (len)
		memcpy(r, s, len);
	r[len] = '\0';
	return r;
}

/* The bytes a node of the kind takes: the header and its member. */
static size_t node_size(enum node_kind kind)
{
	const struct node *n = NULL;
	size_t u = 0;
	switch (kind) {
	case NODE_SIMPLE: u = sizeof n->u.simple; break;
	case NODE_PIPELINE: u = sizeof n->u.pipeline; break;
	case NODE_AND_OR: u = sizeof n->u.and_or; break;
	case NODE_LIST: u = sizeof n->u.list; break;
	case NODE_SUBSHELL:
	case NODE_BRACE_GROUP: u = sizeof n->u.group; break;
	case NODE_IF: u = sizeof n->u.if_; break;
	case NODE_LOOP: u = sizeof n->u.loop; break;
	case NODE_FOR: /* parse_for() may make it a NODE_ARITH_FOR */
	case NODE_ARITH_FOR:
		u = sizeof n->u.for_ > sizeof n->u.arith_for ? sizeof n->u.for_ : sizeof n->u.arith_for;
		break;
	case NODE_CASE: u = sizeof n->u.case_; break;
	case NODE_FUNCDEF: u = sizeof n->u.funcdef; break;
	case NODE_COND: u = sizeof n->u.cond; break;
	case NODE_ARITH: u = sizeof n->u.arith; break;
	}
	return offsetof(struct node, u) + u;
}

struct node *ast_node_new(struct ast_arena *a, enum node_kind kind, unsigned line, bool root)
{
	size_t size = node_size(kind);
	struct node *n;
	if (root) {
		/* The arena is named just before its root, for ast_node_free(). */
		struct ast_arena **owner = ast_arena_alloc(a, sizeof *owner + size);
		*owner = a;
		n = (struct node *)(owner + 1);
	} else {
		n = ast_arena_alloc(a, size);
	}
	/* Node sizes are few and small: with the size a constant each clear
	 * is a few stores, where a clear of a size GCC knows only to be a
	 * multiple of 8 became a `rep stos`, slow to start for 40 bytes. */
	switch (size) {
	case 32: memset(n, 0, 32); break;
	case 40: memset(n, 0, 40); break;
	case 48: memset(n, 0, 48); break;
	case 56: memset(n, 0, 56); break;
	default: memset(n, 0, size); break;
	}
	n->kind = kind;
	n->line = line;
	n->root = root;
	return n;
}

/* ---- freeing ------------------------------------------------------------ */

static void part_free(struct word_part *wp)
{
	switch (wp->kind) {
	case WORD_LITERAL:
		free(wp->u.literal.text);
		break;
	case WORD_DQUOTE:
		ast_word_free(wp->u.dquote);
		break;
	case WORD_PARAM:
		if (wp->u.param) {
			free(wp->u.param->name);
			ast_word_free(wp->u.param->index);
			ast_word_free(wp->u.param->arg);
			ast_word_free(wp->u.param->arg2);
			free(wp->u.param);
		}
		break;
	case WORD_CMDSUB:
	case WORD_PROCSUB:
		if (wp->u.cmdsub) {
			ast_node_free(wp->u.cmdsub->program);
			free(wp->u.cmdsub->text);
			free(wp->u.cmdsub);
		}
		break;
	case WORD_ARITH:
		ast_word_free(wp->u.arith.expr);
		break;
	}
}

void ast_word_free(struct word *w)
{
	if (!w)
		return;
	for (size_t i = 0; i < w->nparts; i++)
		part_free(&w->parts[i]);
	free(w->parts);
	free(w);
}

void ast_cond_free(struct cond_expr *c)
{
	while (c) {
		free(c->op);
		ast_word_free(c->lhs);
		ast_word_free(c->rhs);
		ast_cond_free(c->right);
		struct cond_expr *left = c->left;
		free(c);
		c = left; /* left spines of && / || chains can be long */
	}
}

void ast_node_free(struct node *n)
{
	if (n && n->root)
		ast_arena_destroy(((struct ast_arena **)n)[-1]);
}

/* ---- copying ------------------------------------------------------------ */

/* ast_node_copy: everything in the new tree's arena. */
static struct node *node_copy_in(struct ast_arena *a, const struct node *n, bool root);

static char *str_in(struct ast_arena *a, const char *s)
{
	return s ? ast_arena_strndup(a, s, strlen(s)) : NULL;
}

static void *array_in(struct ast_arena *a, const void *v, size_t n, size_t size)
{
	if (!v)
		return NULL;
	void *c = ast_arena_alloc(a, (n ? n : 1) * size);
	if (n)
		memcpy(c, v, n * size);
	return c;
}

static struct word *word_copy_in(struct ast_arena *a, const struct word *w)
{
	if (!w)
		return NULL;
	/* The word and its parts in one piece, as the parser makes them. */
	struct word *c = ast_arena_alloc(a, sizeof *c + w->nparts * sizeof *c->parts);
	*c = *w;
	c->parts = w->nparts ? (struct word_part *)(c + 1) : NULL;
	for (size_t i = 0; i < w->nparts; i++) {
		const struct word_part *src = &w->parts[i];
		struct word_part *dst = &c->parts[i];
		*dst = *src;
		switch (src->kind) {
		case WORD_LITERAL:
			dst->u.literal.text = ast_arena_strndup(a, src->u.literal.text, src->u.literal.len);
			break;
		case WORD_DQUOTE:
			dst->u.dquote = word_copy_in(a, src->u.dquote);
			break;
		case WORD_PARAM: {
			struct word_param *p = ast_arena_alloc(a, sizeof *p);
			*p = *src->u.param;
			p->name = str_in(a, p->name);
			p->index = word_copy_in(a, p->index);
			p->arg = word_copy_in(a, p->arg);
			p->arg2 = word_copy_in(a, p->arg2);
			dst->u.param = p;
			break;
		}
		case WORD_CMDSUB:
		case WORD_PROCSUB: {
			struct word_subst *sub = ast_arena_alloc(a, sizeof *sub);
			*sub = *src->u.cmdsub;
			sub->program = node_copy_in(a, sub->program, false);
			sub->text = str_in(a, sub->text);
			dst->u.cmdsub = sub;
			break;
		}
		case WORD_ARITH:
			dst->u.arith.expr = word_copy_in(a, src->u.arith.expr);
			break;
		}
	}
	return c;
}

static struct word **words_copy_in(struct ast_arena *a, struct word *const *v, size_t n)
{
	if (!v)
		return NULL;
	struct word **c = ast_arena_alloc(a, (n ? n : 1) * sizeof *c);
	for (size_t i = 0; i < n; i++)
		c[i] = word_copy_in(a, v[i]);
	return c;
}

static struct cond_expr *cond_copy_in(struct ast_arena *a, const struct cond_expr *e)
{
	struct cond_expr *top = NULL;
	struct cond_expr **slot = &top;
	/* Left spines of && / || chains can be long: follow them in a loop. */
	while (e) {
		struct cond_expr *c = ast_arena_alloc(a, sizeof *c);
		*c = *e;
		c->op = str_in(a, e->op);
		c->lhs = word_copy_in(a, e->lhs);
		c->rhs = word_copy_in(a, e->rhs);
		c->right = cond_copy_in(a, e->right);
		c->left = NULL;
		*slot = c;
		slot = &c->left;
		e = e->left;
	}
	return top;
}

static struct node *node_copy_in(struct ast_arena *a, const struct node *n, bool root)
{
	struct node *top = NULL;
	struct node **slot = &top;
	/* Long spines (&& || chains, elif chains) are followed in a loop. */
	while (n) {
		const struct node *next = NULL;
		struct node *c = ast_node_new(a, n->kind, n->line, root);
		root = false;
		*slot = c;
		slot = NULL;
		memcpy(&c->u, &n->u, node_size(n->kind) - offsetof(struct node, u));
		c->nredirs = n->nredirs;
		c->redirs = array_in(a, n->redirs, n->nredirs, sizeof *n->redirs);
		for (size_t i = 0; i < n->nredirs; i++) {
			c->redirs[i].target = word_copy_in(a, n->redirs[i].target);
			c->redirs[i].heredoc = word_copy_in(a, n->redirs[i].heredoc);
			if (n->redirs[i].fd_var)
				c->redirs[i].fd_var = ast_arena_strndup(a, n->redirs[i].fd_var, strlen(n->redirs[i].fd_var));
		}
		switch (n->kind) {
		case NODE_SIMPLE:
			c->u.simple.assigns = array_in(a, n->u.simple.assigns, n->u.simple.nassigns,
			                               sizeof *n->u.simple.assigns);
			for (size_t i = 0; i < n->u.simple.nassigns; i++) {
				const struct assign *x = &n->u.simple.assigns[i];
				struct assign *y = &c->u.simple.assigns[i];
				y->name = str_in(a, x->name);
				y->index = word_copy_in(a, x->index);
				y->value = word_copy_in(a, x->value);
				y->array = words_copy_in(a, x->array, x->narray);
			}
			c->u.simple.words = words_copy_in(a, n->u.simple.words, n->u.simple.nwords);
			break;
		case NODE_PIPELINE: {
			size_t k = n->u.pipeline.ncmds;
			c->u.pipeline.cmds = ast_arena_alloc(a, (k ? k : 1) * sizeof *c->u.pipeline.cmds);
			c->u.pipeline.stderr_too = array_in(a, n->u.pipeline.stderr_too, k, sizeof(bool));
			for (size_t i = 0; i < k; i++)
				c->u.pipeline.cmds[i] = node_copy_in(a, n->u.pipeline.cmds[i], false);
			break;
		}
		case NODE_AND_OR:
			c->u.and_or.right = node_copy_in(a, n->u.and_or.right, false);
			c->u.and_or.left = NULL;
			slot = &c->u.and_or.left;
			next = n->u.and_or.left;
			break;
		case NODE_LIST:
			c->u.list.items = array_in(a, n->u.list.items, n->u.list.nitems,
			                           sizeof *n->u.list.items);
			for (size_t i = 0; i < n->u.list.nitems; i++)
				c->u.list.items[i].node = node_copy_in(a, n->u.list.items[i].node, false);
			break;
		case NODE_SUBSHELL:
		case NODE_BRACE_GROUP:
			c->u.group.body = node_copy_in(a, n->u.group.body, false);
			break;
		case NODE_IF:
			c->u.if_.cond = node_copy_in(a, n->u.if_.cond, false);
			c->u.if_.then_part = node_copy_in(a, n->u.if_.then_part, false);
			c->u.if_.else_part = NULL;
			slot = &c->u.if_.else_part;
			next = n->u.if_.else_part;
			break;
		case NODE_LOOP:
			c->u.loop.cond = node_copy_in(a, n->u.loop.cond, false);
			c->u.loop.body = node_copy_in(a, n->u.loop.body, false);
			break;
		case NODE_FOR:
			c->u.for_.var = str_in(a, n->u.for_.var);
			c->u.for_.words = words_copy_in(a, n->u.for_.words, n->u.for_.nwords);
			c->u.for_.body = node_copy_in(a, n->u.for_.body, false);
			break;
		case NODE_ARITH_FOR:
			c->u.arith_for.init = word_copy_in(a, n->u.arith_for.init);
			c->u.arith_for.cond = word_copy_in(a, n->u.arith_for.cond);
			c->u.arith_for.step = word_copy_in(a, n->u.arith_for.step);
			c->u.arith_for.body = node_copy_in(a, n->u.arith_for.body, false);
			break;
		case NODE_CASE:
			c->u.case_.subject = word_copy_in(a, n->u.case_.subject);
			c->u.case_.items = array_in(a, n->u.case_.items, n->u.case_.nitems,
			                            sizeof *n->u.case_.items);
			for (size_t i = 0; i < n->u.case_.nitems; i++) {
				const struct case_item *x = &n->u.case_.items[i];
				struct case_item *y = &c->u.case_.items[i];
				y->patterns = words_copy_in(a, x->patterns, x->npatterns);
				y->body = node_copy_in(a, x->body, false);
			}
			break;
		case NODE_FUNCDEF:
			c->u.funcdef.name = str_in(a, n->u.funcdef.name);
			c->u.funcdef.body = node_copy_in(a, n->u.funcdef.body, false);
			break;
		case NODE_COND:
			c->u.cond.expr = cond_copy_in(a, n->u.cond.expr);
			break;
		case NODE_ARITH:
			c->u.arith.expr = word_copy_in(a, n->u.arith.expr);
			break;
		}
		if (!slot)
			break;
		n = next;
	}
	return top;
}

struct node *ast_node_copy(const struct node *n)
{
	if (!n)
		return NULL;
	struct ast_arena *a = ast_arena_create();
	struct node *c = node_copy_in(a, n, true);
	return c;
}

/* ---- literal value ------------------------------------------------------ */

static bool literal_value(const struct word *w, struct strbuf *sb)
{
	for (size_t i = 0; i < w->nparts; i++) {
		const struct word_part *wp = &w->parts[i];
		if (wp->kind == WORD_LITERAL)
			strbuf_addmem(sb, wp->u.literal.text, wp->u.literal.len);
		else if (wp->kind == WORD_DQUOTE && wp->u.dquote)
			if (!literal_value(wp->u.dquote, sb))
				return false;
			else
				continue;
		else
			return false;
	}
	return true;
}

bool ast_word_literal_value(const struct word *w, char **out)
{
	if (!w)
		return false;
	struct strbuf sb;
	strbuf_init(&sb);
	if (!literal_value(w, &sb)) {
		strbuf_free(&sb);
		return false;
	}
	if (out)
		*out = strbuf_detach(&sb);
	else
		strbuf_free(&sb);
	return true;
}

/* ---- the printer -------------------------------------------------------- */

/* Where a word is printed: decides how literal text must be escaped. */
enum pctx {
	PC_NORMAL,    /* a plain shell word */
	PC_DQ,        /* inside "..." */
	PC_PARAM,     /* operand of an unquoted ${x op ...} */
	PC_PARAM_DQ,  /* operand of ${x op ...} inside "..." */
	PC_ARITH,     /* $(( )) / (( )) */
	PC_SUBSCRIPT, /* a[...] */
	PC_HEREDOC,   /* unquoted here-document body */
	PC_REGEX,     /* right of =~ */
};

struct printer {
	struct strbuf *out;
	const struct redir **hd; /* here-documents waiting for the next newline */
	size_t nhd, caphd;
	size_t limit; /* stop printing commands past this many bytes (0: never) */
	bool spaced;  /* `> file` rather than `>file` (bash's layout of functions) */
};

static void pr_node(struct printer *pr, const struct node *n);
static void pr_word(struct printer *pr, const struct word *w, enum pctx ctx);

static void pr_flush_heredocs(struct printer *pr)
{
	if (!pr->nhd)
		return;
	strbuf_addc(pr->out, '\n');
	for (size_t i = 0; i < pr->nhd; i++) {
		const struct redir *r = pr->hd[i];
		const struct word *body = r->heredoc;
		if (body) {
			if (r->heredoc_quoted) {
				for (size_t j = 0; j < body->nparts; j++)
					if (body->parts[j].kind == WORD_LITERAL)
						strbuf_addmem(pr->out, body->parts[j].u.literal.text,
						              body->parts[j].u.literal.len);
			} else {
				pr_word(pr, body, PC_HEREDOC);
			}
		}
		/* The delimiter line: quote removal of the printed target. */
		struct strbuf t;
		strbuf_init(&t);
		struct printer sub = {&t, NULL, 0, 0, 0, false};
		pr_word(&sub, r->target, PC_NORMAL);
		bool quoted;
		char *delim = lex_heredoc_delimiter(t.data ? t.data : "", t.len, &quoted);
		strbuf_free(&t);
		free(sub.hd);
		if (pr->out->len && pr->out->data[pr->out->len - 1] != '\n')
			strbuf_addc(pr->out, '\n');
		/* A delimiter with a newline never matches a line: such a body
		 * ran to the end of the text, and so does the printed one. */
		if (!strchr(delim, '\n')) {
			strbuf_adds(pr->out, delim);
			strbuf_addc(pr->out, '\n');
		}
		free(delim);
	}
	pr->nhd = 0;
}

static void pr_single_quoted(struct strbuf *out, const char *s, size_t len)
{
	if (memchr(s, '\0', len)) {
		lex_quote_dollar(out, s, len);
		return;
	}
	strbuf_add_single_quoted(out, s, len);
}

static bool is_dq_ctx(enum pctx ctx)
{
	return ctx == PC_DQ || ctx == PC_PARAM_DQ || ctx == PC_ARITH || ctx == PC_SUBSCRIPT ||
	       ctx == PC_HEREDOC;
}

/* Which characters need a backslash in front, by context: a table each,
 * so that runs of ordinary text are copied whole (the printer writes every
 * line's text for the records). */
enum { ESC_NORMAL = 1, ESC_PARAM = 2, ESC_REGEX = 4, ESC_DQ = 8, ESC_HEREDOC = 16, ESC_PARAM_DQ = 32 };

#define ESC_QUOTE (ESC_NORMAL | ESC_PARAM | ESC_REGEX)
static const unsigned char esc_table[256] = {
	[' '] = ESC_NORMAL, ['\t'] = ESC_NORMAL, ['\n'] = ESC_NORMAL, [';'] = ESC_NORMAL,
	['&'] = ESC_NORMAL, ['|'] = ESC_NORMAL, ['<'] = ESC_NORMAL, ['>'] = ESC_NORMAL,
	['('] = ESC_NORMAL, [')'] = ESC_NORMAL, ['\''] = ESC_QUOTE,
	['"'] = ESC_QUOTE | ESC_DQ | ESC_PARAM_DQ,
	['\\'] = ESC_QUOTE | ESC_DQ | ESC_PARAM_DQ | ESC_HEREDOC,
	['`'] = ESC_QUOTE | ESC_DQ | ESC_PARAM_DQ | ESC_HEREDOC,
	['$'] = ESC_DQ | ESC_PARAM_DQ | ESC_HEREDOC,
	['}'] = ESC_PARAM | ESC_PARAM_DQ,
};

/* Copies s[0..len), a backslash before each character whose table entry
 * has bit; the run-by-run copy keeps plain text cheap. */
static void add_escaped(struct strbuf *out, const char *s, size_t len, unsigned char bit)
{
	size_t run = 0;
	for (size_t i = 0; i < len; i++) {
		if (!(esc_table[(unsigned char)s[i]] & bit))
			continue;
		strbuf_addmem(out, s + run, i - run);
		strbuf_addc(out, '\\');
		run = i;
	}
	strbuf_addmem(out, s + run, len - run);
}

static void pr_literal(struct printer *pr, const struct word_part *wp, enum pctx ctx,
                       const struct word_part *next)
{
	struct strbuf *out = pr->out;
	const char *s = wp->u.literal.text;
	size_t len = wp->u.literal.len;
	switch (wp->u.literal.quote) {
	case QUOTE_NONE: {
		if (is_dq_ctx(ctx))
			goto dq_text;
		unsigned char bit = ctx == PC_NORMAL ? ESC_NORMAL : ctx == PC_PARAM ? ESC_PARAM : ctx == PC_REGEX ? ESC_REGEX : 0;
		size_t run = 0;
		for (size_t i = 0; i < len; i++) {
			char c = s[i];
			bool esc = c && (esc_table[(unsigned char)c] & bit);
			if (ctx == PC_NORMAL && c == '#' && i == 0 &&
			    (out->len == 0 || strchr(" \t\n(", out->data[out->len - 1])))
				esc = true;
			if (c == '$' && i + 1 == len && next)
				esc = true;
			if (!esc)
				continue;
			strbuf_addmem(out, s + run, i - run);
			run = i + 1;
			if (c == '\n') {
				pr_single_quoted(out, "\n", 1);
				continue;
			}
			strbuf_addc(out, '\\');
			strbuf_addc(out, c);
		}
		strbuf_addmem(out, s + run, len - run);
		return;
	}
	case QUOTE_BACKSLASH:
		if (is_dq_ctx(ctx))
			goto dq_text;
		for (size_t i = 0; i < len; i++) {
			if (s[i] == '\n') {
				pr_single_quoted(out, "\n", 1);
				continue;
			}
			strbuf_addc(out, '\\');
			strbuf_addc(out, s[i]);
		}
		return;
	case QUOTE_SINGLE:
		if (is_dq_ctx(ctx))
			goto dq_text;
		pr_single_quoted(out, s, len);
		return;
	case QUOTE_DOLLAR:
		if (is_dq_ctx(ctx))
			goto dq_text;
		lex_quote_dollar(out, s, len);
		return;
	case QUOTE_DOUBLE:
		if (is_dq_ctx(ctx))
			goto dq_text;
		strbuf_addc(out, '"');
		add_escaped(out, s, len, ESC_DQ);
		strbuf_addc(out, '"');
		return;
	}
	return;
dq_text:
	add_escaped(out, s, len, ctx == PC_HEREDOC ? ESC_HEREDOC : ctx == PC_PARAM_DQ ? ESC_PARAM_DQ : ESC_DQ);
}

static const char *param_op_text(const struct word_param *p)
{
	switch (p->op) {
	case PARAM_DEFAULT: return "-";
	case PARAM_ASSIGN: return "=";
	case PARAM_ERROR: return "?";
	case PARAM_ALTERNATE: return "+";
	case PARAM_REMOVE_SMALL_SUFFIX: return "%";
	case PARAM_REMOVE_LARGE_SUFFIX: return "%%";
	case PARAM_REMOVE_SMALL_PREFIX: return "#";
	case PARAM_REMOVE_LARGE_PREFIX: return "##";
	case PARAM_REPLACE: return "/";
	case PARAM_REPLACE_ALL: return "//";
	case PARAM_REPLACE_PREFIX: return "/#";
	case PARAM_REPLACE_SUFFIX: return "/%";
	case PARAM_SUBSTRING: return ":";
	case PARAM_UPPER_FIRST: return "^";
	case PARAM_UPPER_ALL: return "^^";
	case PARAM_LOWER_FIRST: return ",";
	case PARAM_LOWER_ALL: return ",,";
	default: return "";
	}
}

static bool starts_with_name_char(const struct word_part *wp)
{
	if (!wp || wp->kind != WORD_LITERAL || wp->u.literal.len == 0)
		return false;
	if (wp->u.literal.quote != QUOTE_NONE && wp->u.literal.quote != QUOTE_DOUBLE)
		return false;
	return lex_is_name_char((unsigned char)wp->u.literal.text[0]) ||
	       wp->u.literal.text[0] == '[';
}

static void pr_param(struct printer *pr, const struct word_param *p, enum pctx ctx,
                     const struct word_part *next)
{
	struct strbuf *out = pr->out;
	bool in_dq = is_dq_ctx(ctx);
	enum pctx arg_ctx = in_dq ? PC_PARAM_DQ : PC_PARAM;
	bool simple = p->op == PARAM_PLAIN && !p->index && !p->indirect;
	if (simple && !p->braced && !starts_with_name_char(next) && p->name &&
	    (strlen(p->name) == 1 || lex_is_name_start((unsigned char)p->name[0]))) {
		strbuf_addc(out, '$');
		strbuf_adds(out, p->name);
		return;
	}
	strbuf_adds(out, "${");
	if (p->op == PARAM_LENGTH)
		strbuf_addc(out, '#');
	if (p->indirect || p->op == PARAM_PREFIX_NAMES || p->op == PARAM_KEYS)
		strbuf_addc(out, '!');
	strbuf_adds(out, p->name ? p->name : "");
	if (p->index) {
		strbuf_addc(out, '[');
		pr_word(pr, p->index, PC_SUBSCRIPT);
		strbuf_addc(out, ']');
	}
	switch (p->op) {
	case PARAM_PLAIN:
	case PARAM_LENGTH:
	case PARAM_KEYS:
		break;
	case PARAM_PREFIX_NAMES:
		strbuf_addc(out, p->at ? '@' : '*');
		break;
	case PARAM_TRANSFORM:
		strbuf_addc(out, '@');
		strbuf_addc(out, p->transform);
		break;
	case PARAM_DEFAULT:
	case PARAM_ASSIGN:
	case PARAM_ERROR:
	case PARAM_ALTERNATE:
		if (p->colon)
			strbuf_addc(out, ':');
		strbuf_adds(out, param_op_text(p));
		if (p->arg)
			pr_word(pr, p->arg, arg_ctx);
		break;
	case PARAM_SUBSTRING:
		strbuf_addc(out, ':');
		if (p->arg) {
			/* ${x: -1}: keep the offset from reading as ${x:-1}. */
			const struct word_part *f = p->arg->nparts ? &p->arg->parts[0] : NULL;
			if (f && f->kind == WORD_LITERAL && f->u.literal.len &&
			    strchr("-=?+", f->u.literal.text[0]))
				strbuf_addc(out, ' ');
			pr_word(pr, p->arg, arg_ctx);
		}
		if (p->arg2) {
			strbuf_addc(out, ':');
			pr_word(pr, p->arg2, arg_ctx);
		}
		break;
	case PARAM_REPLACE:
	case PARAM_REPLACE_ALL:
	case PARAM_REPLACE_PREFIX:
	case PARAM_REPLACE_SUFFIX:
		strbuf_adds(out, param_op_text(p));
		if (p->arg)
			pr_word(pr, p->arg, arg_ctx);
		if (p->arg2) {
			strbuf_addc(out, '/');
			pr_word(pr, p->arg2, arg_ctx);
		}
		break;
	default:
		strbuf_adds(out, param_op_text(p));
		if (p->arg)
			pr_word(pr, p->arg, arg_ctx);
		break;
	}
	strbuf_addc(out, '}');
}

static void pr_program_in_parens(struct printer *pr, const struct node *program)
{
	struct printer sub = {pr->out, NULL, 0, 0, pr->limit, pr->spaced};
	size_t start = pr->out->len;
	if (program) {
		pr_node(&sub, program);
		if (sub.nhd)
			pr_flush_heredocs(&sub);
	}
	free(sub.hd);
	/* Keep `$( (x) )` from reading as arithmetic. */
	if (pr->out->len > start && pr->out->data[start] == '(') {
		strbuf_addc(pr->out, ' ');
		memmove(pr->out->data + start + 1, pr->out->data + start, pr->out->len - start - 1);
		pr->out->data[start] = ' ';
	}
	strbuf_addc(pr->out, ')');
}

/* An operand `name=(e1 e2)` of a declaration builtin, as the lexer keeps
 * it: `name=(`, the elements between one-blank markers (quoted blanks),
 * `)`, the three marked as array syntax. It prints as written. */
static bool pr_declaration_array(struct printer *pr, const struct word *w)
{
	if (w->nparts < 2)
		return false;
	const struct word_part *first = &w->parts[0], *last = &w->parts[w->nparts - 1];
	if (first->kind != WORD_LITERAL || first->u.literal.quote != QUOTE_NONE || last->kind != WORD_LITERAL ||
	    last->u.literal.quote != QUOTE_NONE || last->u.literal.len != 1 || last->u.literal.text[0] != ')' ||
	    first->u.literal.len < 3 || first->u.literal.text[first->u.literal.len - 1] != '(' ||
	    first->u.literal.text[first->u.literal.len - 2] != '=' || !first->array_syntax || !last->array_syntax)
		return false;
	strbuf_addmem(pr->out, first->u.literal.text, first->u.literal.len);
	size_t i = 1;
	while (i < w->nparts - 1) {
		size_t j = i;
		while (j < w->nparts - 1) {
			const struct word_part *m = &w->parts[j];
			if (m->kind == WORD_LITERAL && m->u.literal.quote == QUOTE_SINGLE && m->u.literal.len == 1 &&
			    m->u.literal.text[0] == ' ' && m->array_syntax)
				break;
			j++;
		}
		struct word elem = {.parts = (struct word_part *)&w->parts[i], .nparts = j - i, .range = w->range};
		if (i > 1)
			strbuf_addc(pr->out, ' ');
		pr_word(pr, &elem, PC_NORMAL);
		i = j + 1;
	}
	strbuf_addc(pr->out, ')');
	return true;
}

static void pr_word(struct printer *pr, const struct word *w, enum pctx ctx)
{
	if (!w)
		return;
	if (ctx == PC_NORMAL && w->nparts >= 2 && pr_declaration_array(pr, w))
		return;
	for (size_t i = 0; i < w->nparts; i++) {
		const struct word_part *wp = &w->parts[i];
		const struct word_part *next = i + 1 < w->nparts ? &w->parts[i + 1] : NULL;
		switch (wp->kind) {
		case WORD_LITERAL:
			pr_literal(pr, wp, ctx, next);
			break;
		case WORD_DQUOTE:
			if (ctx == PC_DQ || ctx == PC_HEREDOC) {
				/* Already inside double quotes: print the contents. */
				pr_word(pr, wp->u.dquote, ctx);
			} else {
				strbuf_addc(pr->out, '"');
				pr_word(pr, wp->u.dquote, PC_DQ);
				strbuf_addc(pr->out, '"');
			}
			break;
		case WORD_PARAM:
			pr_param(pr, wp->u.param, ctx, next);
			break;
		case WORD_CMDSUB:
			strbuf_adds(pr->out, "$(");
			pr_program_in_parens(pr, wp->u.cmdsub->program);
			break;
		case WORD_ARITH:
			strbuf_adds(pr->out, "$((");
			pr_word(pr, wp->u.arith.expr, PC_ARITH);
			strbuf_adds(pr->out, "))");
			break;
		case WORD_PROCSUB:
			strbuf_adds(pr->out, wp->u.procsub->output ? ">(" : "<(");
			pr_program_in_parens(pr, wp->u.procsub->program);
			break;
		}
	}
	if (w->nparts == 0 && (ctx == PC_NORMAL || ctx == PC_REGEX))
		strbuf_adds(pr->out, "''");
}

static const char *redir_op_text(enum redir_op op)
{
	switch (op) {
	case REDIR_IN: return "<";
	case REDIR_OUT: return ">";
	case REDIR_CLOBBER: return ">|";
	case REDIR_APPEND: return ">>";
	case REDIR_RDWR: return "<>";
	case REDIR_DUP_IN: return "<&";
	case REDIR_DUP_OUT: return ">&";
	case REDIR_HEREDOC: return "<<";
	case REDIR_HEREDOC_STRIP: return "<<-";
	case REDIR_HERESTRING: return "<<<";
	case REDIR_OUT_ERR: return "&>";
	case REDIR_APPEND_ERR: return "&>>";
	}
	return "?";
}

static void pr_redirs(struct printer *pr, const struct node *n, bool leading_space)
{
	for (size_t i = 0; i < n->nredirs; i++) {
		const struct redir *r = &n->redirs[i];
		if (leading_space || i > 0)
			strbuf_addc(pr->out, ' ');
		if (r->fd_var)
			strbuf_addf(pr->out, "{%s}", r->fd_var);
		else if (r->fd >= 0)
			strbuf_addf(pr->out, "%d", r->fd);
		strbuf_adds(pr->out, redir_op_text(r->op));
		if (pr->spaced && r->op != REDIR_DUP_IN && r->op != REDIR_DUP_OUT && r->op != REDIR_HEREDOC &&
		    r->op != REDIR_HEREDOC_STRIP)
			strbuf_addc(pr->out, ' ');
		pr_word(pr, r->target, PC_NORMAL);
		if (r->op == REDIR_HEREDOC || r->op == REDIR_HEREDOC_STRIP) {
			if (pr->nhd == pr->caphd) {
				pr->caphd = pr->caphd ? pr->caphd * 2 : 4;
				pr->hd = xreallocarray(pr->hd, pr->caphd, sizeof *pr->hd);
			}
			pr->hd[pr->nhd++] = r;
		}
	}
}

/* Ends a list before a closing keyword: `; ` or a newline with the pending
 * here-document bodies. */
static void pr_terminate(struct printer *pr, bool async)
{
	if (async)
		strbuf_adds(pr->out, " &");
	if (pr->nhd)
		pr_flush_heredocs(pr);
	else
		strbuf_adds(pr->out, async ? " " : "; ");
}

static void pr_list_items(struct printer *pr, const struct node *list, bool *last_async)
{
	*last_async = false;
	if (!list)
		return;
	if (list->kind != NODE_LIST) {
		pr_node(pr, list);
		return;
	}
	for (size_t i = 0; i < list->u.list.nitems; i++) {
		if (pr->limit && pr->out->len > pr->limit)
			break;
		if (i > 0)
			pr_terminate(pr, list->u.list.items[i - 1].async);
		pr_node(pr, list->u.list.items[i].node);
	}
	if (list->u.list.nitems)
		*last_async = list->u.list.items[list->u.list.nitems - 1].async;
}

/* A compound body followed by a keyword. */
static void pr_body(struct printer *pr, const struct node *list)
{
	bool async;
	pr_list_items(pr, list, &async);
	pr_terminate(pr, async);
}

static void pr_cond(struct printer *pr, const struct cond_expr *c, int parent)
{
	/* parent: 0 top, 1 inside ||, 2 inside &&, 3 inside ! */
	switch (c->kind) {
	case COND_WORD:
		pr_word(pr, c->lhs, PC_NORMAL);
		break;
	case COND_UNARY:
		strbuf_adds(pr->out, c->op);
		strbuf_addc(pr->out, ' ');
		pr_word(pr, c->lhs, PC_NORMAL);
		break;
	case COND_BINARY:
		pr_word(pr, c->lhs, PC_NORMAL);
		strbuf_addc(pr->out, ' ');
		strbuf_adds(pr->out, c->op);
		strbuf_addc(pr->out, ' ');
		pr_word(pr, c->rhs, strcmp(c->op, "=~") == 0 ? PC_REGEX : PC_NORMAL);
		break;
	case COND_NOT:
		strbuf_adds(pr->out, "! ");
		pr_cond(pr, c->left, 3);
		break;
	case COND_AND:
	case COND_OR: {
		int level = c->kind == COND_OR ? 1 : 2;
		bool parens = parent > level || (parent == level && parent != 0 && false);
		if (parens)
			strbuf_adds(pr->out, "( ");
		pr_cond(pr, c->left, level);
		strbuf_adds(pr->out, c->kind == COND_OR ? " || " : " && ");
		/* The right operand of a left-associative chain needs parentheses
		 * when it is the same operator. */
		if (c->right->kind == c->kind || (c->kind == COND_AND && c->right->kind == COND_OR)) {
			strbuf_adds(pr->out, "( ");
			pr_cond(pr, c->right, 0);
			strbuf_adds(pr->out, " )");
		} else {
			pr_cond(pr, c->right, level);
		}
		if (parens)
			strbuf_adds(pr->out, " )");
		break;
	}
	}
}

static void pr_words(struct printer *pr, struct word *const *v, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		strbuf_addc(pr->out, ' ');
		pr_word(pr, v[i], PC_NORMAL);
	}
}

static void pr_simple(struct printer *pr, const struct node *n)
{
	bool space = false;
	for (size_t i = 0; i < n->u.simple.nassigns; i++) {
		const struct assign *a = &n->u.simple.assigns[i];
		if (space)
			strbuf_addc(pr->out, ' ');
		space = true;
		strbuf_adds(pr->out, a->name);
		if (a->index) {
			strbuf_addc(pr->out, '[');
			pr_word(pr, a->index, PC_SUBSCRIPT);
			strbuf_addc(pr->out, ']');
		}
		strbuf_adds(pr->out, a->append ? "+=" : "=");
		if (a->is_array) {
			strbuf_addc(pr->out, '(');
			for (size_t j = 0; j < a->narray; j++) {
				if (j)
					strbuf_addc(pr->out, ' ');
				pr_word(pr, a->array[j], PC_NORMAL);
			}
			strbuf_addc(pr->out, ')');
		} else if (a->value && a->value->nparts) {
			pr_word(pr, a->value, PC_NORMAL);
		}
	}
	for (size_t i = 0; i < n->u.simple.nwords; i++) {
		if (space)
			strbuf_addc(pr->out, ' ');
		space = true;
		const struct word *w = n->u.simple.words[i];
		/* A command name that would read as an assignment or a reserved
		 * word must not be printed bare; the parser never makes one, but
		 * hand-built trees can. */
		pr_word(pr, w, PC_NORMAL);
	}
	pr_redirs(pr, n, space);
}

static void pr_node(struct printer *pr, const struct node *n)
{
	if (!n || (pr->limit && pr->out->len > pr->limit))
		return;
	struct strbuf *out = pr->out;
	bool async;
	switch (n->kind) {
	case NODE_SIMPLE:
		pr_simple(pr, n);
		return; /* redirections printed already */
	case NODE_PIPELINE:
		if (n->u.pipeline.timed)
			strbuf_adds(out, "time ");
		if (n->u.pipeline.bang)
			strbuf_adds(out, "! ");
		for (size_t i = 0; i < n->u.pipeline.ncmds; i++) {
			if (i > 0)
				strbuf_adds(out, n->u.pipeline.stderr_too[i - 1] ? " |& " : " | ");
			pr_node(pr, n->u.pipeline.cmds[i]);
		}
		break;
	case NODE_AND_OR: {
		/* Walk down the left spine without recursing. */
		size_t depth = 0;
		const struct node *l = n;
		while (l->kind == NODE_AND_OR && l->nredirs == 0) {
			depth++;
			l = l->u.and_or.left;
		}
		const struct node **spine = xreallocarray(NULL, depth, sizeof *spine);
		l = n;
		for (size_t i = depth; i-- > 0;) {
			spine[i] = l;
			l = l->u.and_or.left;
		}
		pr_node(pr, l);
		for (size_t i = 0; i < depth; i++) {
			strbuf_adds(out, spine[i]->u.and_or.is_or ? " || " : " && ");
			const struct node *r = spine[i]->u.and_or.right;
			if (r && r->kind == NODE_AND_OR) {
				strbuf_adds(out, "{ ");
				pr_node(pr, r);
				pr_terminate(pr, false);
				strbuf_adds(out, "}");
			} else {
				pr_node(pr, r);
			}
		}
		free(spine);
		break;
	}
	case NODE_LIST:
		pr_list_items(pr, n, &async);
		if (async)
			strbuf_adds(out, " &");
		break;
	case NODE_SUBSHELL:
		strbuf_addc(out, '(');
		pr_list_items(pr, n->u.group.body, &async);
		if (async)
			strbuf_adds(out, " &");
		if (pr->nhd)
			pr_flush_heredocs(pr);
		strbuf_addc(out, ')');
		break;
	case NODE_BRACE_GROUP:
		strbuf_adds(out, "{ ");
		pr_body(pr, n->u.group.body);
		strbuf_addc(out, '}');
		break;
	case NODE_IF: {
		const struct node *c = n;
		strbuf_adds(out, "if ");
		for (;;) {
			pr_body(pr, c->u.if_.cond);
			strbuf_adds(out, "then ");
			pr_body(pr, c->u.if_.then_part);
			const struct node *e = c->u.if_.else_part;
			if (e && e->kind == NODE_IF && e->nredirs == 0) {
				strbuf_adds(out, "elif ");
				c = e;
				continue;
			}
			if (e) {
				strbuf_adds(out, "else ");
				pr_body(pr, e);
			}
			break;
		}
		strbuf_adds(out, "fi");
		break;
	}
	case NODE_LOOP:
		strbuf_adds(out, n->u.loop.until ? "until " : "while ");
		pr_body(pr, n->u.loop.cond);
		strbuf_adds(out, "do ");
		pr_body(pr, n->u.loop.body);
		strbuf_adds(out, "done");
		break;
	case NODE_FOR:
		strbuf_adds(out, "for ");
		strbuf_adds(out, n->u.for_.var);
		if (n->u.for_.has_in) {
			strbuf_adds(out, " in");
			pr_words(pr, n->u.for_.words, n->u.for_.nwords);
		}
		strbuf_adds(out, "; do ");
		pr_body(pr, n->u.for_.body);
		strbuf_adds(out, "done");
		break;
	case NODE_ARITH_FOR:
		strbuf_adds(out, "for ((");
		pr_word(pr, n->u.arith_for.init, PC_ARITH);
		strbuf_addc(out, ';');
		pr_word(pr, n->u.arith_for.cond, PC_ARITH);
		strbuf_addc(out, ';');
		pr_word(pr, n->u.arith_for.step, PC_ARITH);
		strbuf_adds(out, ")); do ");
		pr_body(pr, n->u.arith_for.body);
		strbuf_adds(out, "done");
		break;
	case NODE_CASE:
		strbuf_adds(out, "case ");
		pr_word(pr, n->u.case_.subject, PC_NORMAL);
		strbuf_adds(out, " in ");
		for (size_t i = 0; i < n->u.case_.nitems; i++) {
			const struct case_item *ci = &n->u.case_.items[i];
			strbuf_addc(out, '(');
			for (size_t j = 0; j < ci->npatterns; j++) {
				if (j)
					strbuf_adds(out, " | ");
				pr_word(pr, ci->patterns[j], PC_NORMAL);
			}
			strbuf_adds(out, ") ");
			if (ci->body) {
				pr_list_items(pr, ci->body, &async);
				if (async)
					strbuf_adds(out, " &");
				if (pr->nhd)
					pr_flush_heredocs(pr);
				else
					strbuf_addc(out, ' ');
			}
			strbuf_adds(out, ci->terminator == CASE_FALLTHROUGH ? ";&"
			               : ci->terminator == CASE_CONTINUE ? ";;&" : ";;");
			strbuf_addc(out, ' ');
		}
		strbuf_adds(out, "esac");
		break;
	case NODE_FUNCDEF:
		if (n->u.funcdef.keyword) {
			strbuf_adds(out, "function ");
			strbuf_adds(out, n->u.funcdef.name);
			strbuf_adds(out, "() ");
		} else {
			strbuf_adds(out, n->u.funcdef.name);
			strbuf_adds(out, "() ");
		}
		pr_node(pr, n->u.funcdef.body);
		break;
	case NODE_COND:
		strbuf_adds(out, "[[ ");
		pr_cond(pr, n->u.cond.expr, 0);
		strbuf_adds(out, " ]]");
		break;
	case NODE_ARITH:
		strbuf_adds(out, "((");
		pr_word(pr, n->u.arith.expr, PC_ARITH);
		strbuf_adds(out, "))");
		break;
	}
	pr_redirs(pr, n, true);
}

/* ---- functions, laid out as bash shows them ------------------------------- */

static void pp_node(struct printer *pr, const struct node *n, unsigned indent);

static void pp_indent(struct printer *pr, unsigned indent)
{
	for (unsigned i = 0; i < indent; i++)
		strbuf_adds(pr->out, "    ");
}

/* The items of a list, one a line at indent; a line after a here-document
 * starts after its body. The last item has no terminator. */
static void pp_list(struct printer *pr, const struct node *list, unsigned indent, bool subshell)
{
	if (!list)
		return;
	if (list->kind != NODE_LIST) {
		pp_node(pr, list, indent);
		return;
	}
	for (size_t i = 0; i < list->u.list.nitems; i++) {
		const struct list_item *it = &list->u.list.items[i];
		if (i > 0) {
			const struct list_item *prev = &list->u.list.items[i - 1];
			if (prev->async) {
				strbuf_adds(pr->out, " & ");
			} else {
				if (pr->nhd)
					pr_flush_heredocs(pr);
				else
					strbuf_addc(pr->out, ';');
				strbuf_addc(pr->out, '\n');
				if (!subshell || indent)
					pp_indent(pr, indent);
			}
		}
		pp_node(pr, it->node, indent);
	}
	if (list->u.list.nitems && list->u.list.items[list->u.list.nitems - 1].async)
		strbuf_adds(pr->out, " &");
}

/* A body on its own lines, one level deeper than indent; semi: its last
 * command ends in `;` too (bash does so in if and loop bodies). */
static void pp_body(struct printer *pr, const struct node *body, unsigned indent, bool semi)
{
	pp_indent(pr, indent + 1);
	pp_list(pr, body, indent + 1, false);
	if (pr->nhd) {
		pr_flush_heredocs(pr);
		return;
	}
	if (semi && pr->out->len && pr->out->data[pr->out->len - 1] != '&')
		strbuf_addc(pr->out, ';');
	strbuf_addc(pr->out, '\n');
}

/* A list on one line (conditions of if and while). */
static void pp_inline(struct printer *pr, const struct node *list, unsigned indent)
{
	if (list && list->kind == NODE_LIST) {
		for (size_t i = 0; i < list->u.list.nitems; i++) {
			if (i > 0)
				strbuf_adds(pr->out, list->u.list.items[i - 1].async ? " & " : "; ");
			pp_node(pr, list->u.list.items[i].node, indent);
		}
	} else {
		pp_node(pr, list, indent);
	}
}

static void pp_group(struct printer *pr, const struct node *body, unsigned indent)
{
	strbuf_adds(pr->out, "{ \n");
	pp_body(pr, body, indent, false);
	pp_indent(pr, indent);
	strbuf_addc(pr->out, '}');
}

static void pp_node(struct printer *pr, const struct node *n, unsigned indent)
{
	if (!n)
		return;
	struct strbuf *out = pr->out;
	switch (n->kind) {
	case NODE_PIPELINE:
		if (n->u.pipeline.timed)
			strbuf_adds(out, "time ");
		if (n->u.pipeline.bang)
			strbuf_adds(out, "! ");
		for (size_t i = 0; i < n->u.pipeline.ncmds; i++) {
			if (i > 0)
				strbuf_adds(out, n->u.pipeline.stderr_too[i - 1] ? " |& " : " | ");
			pp_node(pr, n->u.pipeline.cmds[i], indent);
		}
		break;
	case NODE_AND_OR:
		pp_node(pr, n->u.and_or.left, indent);
		strbuf_adds(out, n->u.and_or.is_or ? " || " : " && ");
		pp_node(pr, n->u.and_or.right, indent);
		break;
	case NODE_LIST:
		pp_list(pr, n, indent, false);
		break;
	case NODE_SUBSHELL:
		strbuf_adds(out, "( ");
		pp_list(pr, n->u.group.body, indent, true);
		if (pr->nhd)
			pr_flush_heredocs(pr);
		strbuf_adds(out, " )");
		break;
	case NODE_BRACE_GROUP:
		pp_group(pr, n->u.group.body, indent);
		break;
	case NODE_IF:
		strbuf_adds(out, "if ");
		pp_inline(pr, n->u.if_.cond, indent);
		strbuf_adds(out, "; then\n");
		pp_body(pr, n->u.if_.then_part, indent, true);
		if (n->u.if_.else_part) {
			/* elif is shown as an if inside else, as bash does */
			pp_indent(pr, indent);
			strbuf_adds(out, "else\n");
			pp_body(pr, n->u.if_.else_part, indent, true);
		}
		pp_indent(pr, indent);
		strbuf_adds(out, "fi");
		break;
	case NODE_LOOP:
		strbuf_adds(out, n->u.loop.until ? "until " : "while ");
		pp_inline(pr, n->u.loop.cond, indent);
		strbuf_adds(out, "; do\n");
		pp_body(pr, n->u.loop.body, indent, true);
		pp_indent(pr, indent);
		strbuf_adds(out, "done");
		break;
	case NODE_FOR:
	case NODE_ARITH_FOR:
		if (n->kind == NODE_FOR) {
			strbuf_adds(out, "for ");
			strbuf_adds(out, n->u.for_.var);
			if (n->u.for_.has_in) {
				strbuf_adds(out, " in");
				pr_words(pr, n->u.for_.words, n->u.for_.nwords);
			}
			strbuf_adds(out, ";\n");
		} else {
			strbuf_adds(out, "for ((");
			pr_word(pr, n->u.arith_for.init, PC_ARITH);
			strbuf_adds(out, ";");
			pr_word(pr, n->u.arith_for.cond, PC_ARITH);
			strbuf_adds(out, ";");
			pr_word(pr, n->u.arith_for.step, PC_ARITH);
			strbuf_adds(out, "))\n");
		}
		pp_indent(pr, indent);
		strbuf_adds(out, "do\n");
		pp_body(pr, n->kind == NODE_FOR ? n->u.for_.body : n->u.arith_for.body, indent, true);
		pp_indent(pr, indent);
		strbuf_adds(out, "done");
		break;
	case NODE_CASE:
		strbuf_adds(out, "case ");
		pr_word(pr, n->u.case_.subject, PC_NORMAL);
		strbuf_adds(out, " in \n");
		for (size_t i = 0; i < n->u.case_.nitems; i++) {
			const struct case_item *ci = &n->u.case_.items[i];
			pp_indent(pr, indent + 1);
			for (size_t j = 0; j < ci->npatterns; j++) {
				if (j)
					strbuf_adds(out, " | ");
				pr_word(pr, ci->patterns[j], PC_NORMAL);
			}
			strbuf_adds(out, ")\n");
			if (ci->body)
				pp_body(pr, ci->body, indent + 1, false);
			pp_indent(pr, indent + 1);
			strbuf_adds(out, ci->terminator == CASE_FALLTHROUGH ? ";&"
			               : ci->terminator == CASE_CONTINUE ? ";;&" : ";;");
			strbuf_addc(out, '\n');
		}
		pp_indent(pr, indent);
		strbuf_adds(out, "esac");
		break;
	case NODE_FUNCDEF:
		strbuf_adds(out, "function ");
		strbuf_adds(out, n->u.funcdef.name);
		strbuf_adds(out, " () \n");
		pp_indent(pr, indent);
		pp_node(pr, n->u.funcdef.body, indent);
		return; /* the body printed its own redirections */
	case NODE_SIMPLE:
	case NODE_COND:
	case NODE_ARITH:
		pr_node(pr, n);
		return;
	}
	pr_redirs(pr, n, true);
}

void ast_print_function(struct strbuf *out, const char *name, const struct node *body)
{
	struct printer pr = {out, NULL, 0, 0, 0, true};
	strbuf_adds(out, name);
	strbuf_adds(out, " () \n");
	/* The body is a compound command: a brace group shows as bash's
	 * `{ ... }` block, anything else inside one. */
	if (body && body->kind == NODE_BRACE_GROUP) {
		pp_node(&pr, body, 0);
	} else {
		strbuf_adds(out, "{ \n");
		pp_indent(&pr, 1);
		pp_node(&pr, body, 1);
		strbuf_adds(out, "\n}");
	}
	if (pr.nhd)
		pr_flush_heredocs(&pr);
	strbuf_addc(out, '\n');
	free(pr.hd);
}

void ast_print_node(struct strbuf *out, const struct node *n)
{
	struct printer pr = {out, NULL, 0, 0, 0, false};
	pr_node(&pr, n);
	if (pr.nhd)
		pr_flush_heredocs(&pr);
	free(pr.hd);
}

void ast_print_word(struct strbuf *out, const struct word *w)
{
	struct printer pr = {out, NULL, 0, 0, 0, false};
	pr_word(&pr, w, PC_NORMAL);
	free(pr.hd);
}

char *ast_line_text(const struct node *n)
{
	struct strbuf sb;
	strbuf_init(&sb);
	if (n) {
		/* A record needs the head of a long line, not all of it (a
		 * script of one `if` a megabyte long). */
		struct printer pr = {&sb, NULL, 0, 0, AST_LINE_TEXT_MAX, false};
		pr_node(&pr, n);
		if (pr.nhd)
			pr_flush_heredocs(&pr);
		free(pr.hd);
		if (sb.len > AST_LINE_TEXT_MAX)
			strbuf_adds(&sb, " ...");
	}
	while (sb.len && (sb.data[sb.len - 1] == '\n' || sb.data[sb.len - 1] == ' '))
		strbuf_truncate(&sb, sb.len - 1);
	char *text = strbuf_detach(&sb);
	return text ? text : xstrdup("");
}
