/* The parser: shell text to the AST of ast.h, by recursive descent over
 * the tokens of lexer.c (the grammar of [[ ]] is in cond_parse.c).
 *
 * Memory: every tree is built in an arena (ast.h) that the root owns.
 * Arrays whose length is not known yet are grown in the lexer's scratch
 * vectors (builder.h), then copied to the arena at their final size.
 *
 * Errors are recorded once, in the lexer, and every function returns
 * NULL/false after one, so the caller unwinds and frees. */
#include "shell/parser.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "shell/cond_parse.h"
#include "shell/grammar.h"
#include "shell/lexer.h"

/* ---- scratch arrays ----------------------------------------------------- */

static void *bld_push(struct parser *p, struct builder *b, size_t size)
{
	return builder_push(&p->lx.scratch, b, size);
}

/* The array in the arena, its count in *n: 32 bits in the tree, so more
 * elements than that (a text of gigabytes) are refused. */
static void *bld_finish(struct parser *p, struct builder *b, size_t size, unsigned *n)
{
	size_t k;
	void *v = builder_finish(&p->lx.scratch, p->lx.arena, b, size, &k);
	if (k > UINT_MAX) {
		lex_fail_at(&p->lx, lex_pos(&p->lx), false, "too many words in a command");
		k = 0;
	}
	*n = (unsigned)k;
	return v;
}

static void bld_release(struct parser *p, struct builder *b)
{
	builder_release(&p->lx.scratch, b);
}

static char *arena_str(struct parser *p, const char *s, size_t len)
{
	return ast_arena_strndup(p->lx.arena, s, len);
}

/* ---- tokens ------------------------------------------------------------- */

static bool expand_alias(struct parser *p, struct token *t);

struct token *parser_peek_lex(struct parser *p)
{
	/* The first word of an alias's text is checked for one too. */
	bool first_of_alias = false;
	while (!p->have_tok) {
		if (p->lx.failed) {
			lex_token_clear(&p->tok);
			p->tok.kind = TK_EOF;
			return &p->tok;
		}
		/* Lexed in place: a $( ) body met on the way is parsed with
		 * p->tok saved (grammar_subprogram). */
		lex_next_token(&p->lx, &p->tok);
		p->have_tok = true;
		if (p->lx.failed) {
			lex_token_clear(&p->tok);
			p->tok.kind = TK_EOF;
		} else if (first_of_alias || p->tok.after_blank_alias) {
			/* the word after `alias x='echo '` */
			first_of_alias = expand_alias(p, &p->tok);
		}
	}
	return &p->tok;
}

void parser_consume(struct parser *p)
{
	p->have_tok = false;
}

struct word *parser_take_word(struct parser *p)
{
	struct word *w = lex_token_word(&p->lx, &p->tok);
	p->tok.word = NULL;
	p->tok.lazy = false;
	parser_consume(p);
	return w;
}

void parser_fail_unexpected(struct parser *p, const struct token *t)
{
	if (p->lx.failed)
		return;
	if (t->kind == TK_EOF) {
		lex_fail_at(&p->lx, t->range.begin, true, "syntax error: unexpected end of file");
		lex_fail_wait(&p->lx, p->lx.expect, false, false);
		p->lx.err.wait_command = !p->lx.expect;
		return;
	}
	char *s = lex_token_text(&p->lx, t);
	lex_fail_at(&p->lx, t->range.begin, false, "syntax error near unexpected token `%s'", s);
	free(s);
}

/* ---- the grammar -------------------------------------------------------- */

static struct node *parse_and_or(struct parser *p);
static struct node *parse_command(struct parser *p);
static struct node *parse_compound_list(struct parser *p, bool allow_empty);

struct node *parser_new_node(struct parser *p, enum node_kind kind, struct src_pos begin)
{
	return ast_node_new(p->lx.arena, kind, begin.line, false);
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

void parser_skip_newlines(struct parser *p)
{
	while (parser_peek(p)->kind == TK_NEWLINE)
		parser_consume(p);
}

/* The reserved words, told apart by a switch on the first byte: most
 * words are none, and every command word is asked. */
enum keyword {
	KW_NONE,
	KW_BRACE, KW_IF, KW_WHILE, KW_UNTIL, KW_FOR, KW_CASE, KW_COND, KW_FUNCTION, /* open a command */
	KW_CLOSING,  /* then else elif fi do done esac } */
	KW_OTHER,    /* ! in select ]] time */
};

static enum keyword keyword_of(const char *s)
{
#define IS(w) (s[1] == (w)[1] && strcmp(s, w) == 0)
	switch (s[0]) {
	case '{': return s[1] ? KW_NONE : KW_BRACE;
	case '}': return s[1] ? KW_NONE : KW_CLOSING;
	case '!': return s[1] ? KW_NONE : KW_OTHER;
	case '[': return IS("[[") ? KW_COND : KW_NONE;
	case ']': return IS("]]") ? KW_OTHER : KW_NONE;
	case 'c': return IS("case") ? KW_CASE : KW_NONE;
	case 'd': return IS("do") || IS("done") ? KW_CLOSING : KW_NONE;
	case 'e': return IS("else") || IS("elif") || IS("esac") ? KW_CLOSING : KW_NONE;
	case 'f': return IS("for") ? KW_FOR : IS("fi") ? KW_CLOSING : IS("function") ? KW_FUNCTION : KW_NONE;
	case 'i': return IS("if") ? KW_IF : IS("in") ? KW_OTHER : KW_NONE;
	case 's': return IS("select") ? KW_OTHER : KW_NONE;
	case 't': return IS("then") ? KW_CLOSING : IS("time") ? KW_OTHER : KW_NONE;
	case 'u': return IS("until") ? KW_UNTIL : KW_NONE;
	case 'w': return IS("while") ? KW_WHILE : KW_NONE;
	default: return KW_NONE;
	}
#undef IS
}

/* A word that opens a compound command (or function's), else KW_NONE. */
static enum keyword compound_keyword(const char *s)
{
	enum keyword k = keyword_of(s);
	return k == KW_CLOSING || k == KW_OTHER ? KW_NONE : k;
}

static bool is_closing_kw(const struct token *t)
{
	const char *s = t->kind == TK_WORD ? lex_token_plain(t) : NULL;
	return s && keyword_of(s) == KW_CLOSING;
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
		return lex_is_redir_token(t->kind);
	}
}

static bool is_reserved(const char *s)
{
	return keyword_of(s) != KW_NONE;
}

/* Replaces t (the lookahead) by the alias it names, if any: its text is
 * pushed and the lookahead dropped, to be lexed from there. */
static bool expand_alias(struct parser *p, struct token *t)
{
	if (!p->opts.alias_lookup || t->kind != TK_WORD || !t->plain || t->alias_checked)
		return false;
	const char *name = lex_token_plain(t);
	const char *value = NULL;
	if (!is_reserved(name) && !lex_alias_active(&p->lx, name))
		value = p->opts.alias_lookup(p->opts.alias_ctx, name);
	if (!value) {
		t->alias_checked = true; /* the grammar peeks it again */
		return false;
	}
	lex_push_alias(&p->lx, name, value);
	lex_token_clear(&p->tok);
	p->have_tok = false;
	return true;
}

/* Peeks the token in command position, replacing aliases. */
static struct token *peek_command_word(struct parser *p, bool check)
{
	for (;;) {
		struct token *t = parser_peek(p);
		if (!check || !expand_alias(p, t))
			return t;
	}
}

static bool expect_kw(struct parser *p, const char *kw)
{
	struct token *t = parser_peek(p);
	if (!lex_token_is_kw(t, kw)) {
		parser_fail_unexpected(p, t);
		return false;
	}
	parser_consume(p);
	return true;
}

/* A redirection, at an IO number or operator. */
static bool parse_redirect(struct parser *p, struct redir *r)
{
	memset(r, 0, sizeof *r);
	struct token *t = parser_peek(p);
	r->fd = -1;
	if (t->kind == TK_IO_NUMBER) {
		r->fd = t->io_number;
		r->fd_var = t->io_name;
		parser_consume(p);
		t = parser_peek(p);
		if (!lex_is_redir_token(t->kind)) {
			parser_fail_unexpected(p, t);
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
		parser_fail_unexpected(p, t);
		return false;
	}
	parser_consume(p);
	t = parser_peek(p);
	if (t->kind != TK_WORD || t->asg_array) {
		parser_fail_unexpected(p, t);
		return false;
	}
	if (r->op == REDIR_HEREDOC || r->op == REDIR_HEREDOC_STRIP)
		r->heredoc = lex_add_heredoc(&p->lx, t, r->op == REDIR_HEREDOC_STRIP, &r->heredoc_quoted);
	r->target = parser_take_word(p);
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

static bool finish_redirs(struct parser *p, struct node *n, struct builder *redirs)
{
	n->redirs = bld_finish(p, redirs, sizeof *n->redirs, &n->nredirs);
	return !p->lx.failed;
}

static bool parse_trailing_redirects(struct parser *p, struct node *n)
{
	struct token *t = parser_peek(p);
	if (t->kind != TK_IO_NUMBER && !lex_is_redir_token(t->kind))
		return true;
	struct builder redirs = {0};
	for (size_t i = 0; i < n->nredirs; i++)
		*(struct redir *)bld_push(p, &redirs, sizeof *n->redirs) = n->redirs[i];
	for (;;) {
		t = parser_peek(p);
		if (t->kind != TK_IO_NUMBER && !lex_is_redir_token(t->kind))
			break;
		if (!add_redirect(p, &redirs)) {
			bld_release(p, &redirs);
			return false;
		}
	}
	return finish_redirs(p, n, &redirs);
}

static bool is_declaration_command(const struct builder *words)
{
	static const char *const names[] = {"declare", "typeset", "local", "export", "readonly"};
	if (words->n == 0)
		return false;
	const struct word *w = *(struct word **)builder_at(words, 0, sizeof w);
	if (!lex_word_is_plain(w))
		return false;
	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
		if (strcmp(w->parts[0].u.literal.text, names[i]) == 0)
			return true;
	return false;
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
		struct word *v = ast_arena_alloc(p->lx.arena, sizeof *v);
		v->parts = nv ? w->parts + k : NULL;
		v->nparts = nv;
		v->range.begin = t->asg_value_begin;
		v->range.end = t->range.end;
		a->value = v;
	}
	parser_consume(p);
}

/* A simple command; n is NULL or a new NODE_SIMPLE, first NULL or the
 * command name already taken. */
static struct node *parse_simple_rest(struct parser *p, struct node *n, struct word *first)
{
	struct builder assigns = {0}, words = {0}, redirs = {0};
	bool prefix = p->lx.cmd_prefix; /* restored on return: false only while arguments are read */
	if (!n)
		n = parser_new_node(p, NODE_SIMPLE, parser_peek(p)->range.begin);
	if (first)
		*(struct word **)bld_push(p, &words, sizeof first) = first;
	for (;;) {
		p->lx.cmd_prefix = words.n == 0;
		struct token *t = peek_command_word(p, words.n == 0);
		if (p->lx.failed)
			goto fail;
		if (t->kind == TK_IO_NUMBER || lex_is_redir_token(t->kind)) {
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
				lex_fail_at(&p->lx, t->range.begin, false,
				        "syntax error near unexpected token `('");
				goto fail;
			}
			w = lex_array_word(&p->lx, t);
			parser_consume(p);
		} else {
			w = parser_take_word(p);
		}
		*(struct word **)bld_push(p, &words, sizeof w) = w;
	}
	n->u.simple.assigns = bld_finish(p, &assigns, sizeof *n->u.simple.assigns, &n->u.simple.nassigns);
	n->u.simple.words = bld_finish(p, &words, sizeof *n->u.simple.words, &n->u.simple.nwords);
	finish_redirs(p, n, &redirs);
	p->lx.cmd_prefix = prefix;
	return n;
fail:
	p->lx.cmd_prefix = prefix;
	bld_release(p, &assigns);
	bld_release(p, &words);
	bld_release(p, &redirs);
	return NULL;
}

static struct node *parse_brace_or_subshell(struct parser *p, bool subshell)
{
	struct node *n = parser_new_node(p, subshell ? NODE_SUBSHELL : NODE_BRACE_GROUP, parser_peek(p)->range.begin);
	parser_consume(p);
	n->u.group.body = parse_compound_list(p, false);
	if (!n->u.group.body)
		goto fail;
	struct token *t = parser_peek(p);
	if (subshell ? t->kind != TK_RPAREN : !lex_token_is_kw(t, "}")) {
		parser_fail_unexpected(p, t);
		goto fail;
	}
	parser_consume(p);
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
		struct node *n = parser_new_node(p, NODE_IF, parser_peek(p)->range.begin);
		*slot = n;
		parser_consume(p); /* if / elif */
		n->u.if_.cond = parse_compound_list(p, false);
		if (!n->u.if_.cond || !expect_kw(p, "then"))
			goto fail;
		n->u.if_.then_part = parse_compound_list(p, false);
		if (!n->u.if_.then_part)
			goto fail;
		struct token *t = parser_peek(p);
		if (lex_token_is_kw(t, "elif")) {
			slot = &n->u.if_.else_part;
			continue;
		}
		if (lex_token_is_kw(t, "else")) {
			parser_consume(p);
			n->u.if_.else_part = parse_compound_list(p, false);
			if (!n->u.if_.else_part)
				goto fail;
		}
		if (!expect_kw(p, "fi"))
			goto fail;
		break;
	}
	return top;
fail:
	ast_node_free(top);
	return NULL;
}

static struct node *parse_loop(struct parser *p, bool until)
{
	struct node *n = parser_new_node(p, NODE_LOOP, parser_peek(p)->range.begin);
	n->u.loop.until = until;
	parser_consume(p);
	n->u.loop.cond = parse_compound_list(p, false);
	if (!n->u.loop.cond || !expect_kw(p, "do"))
		goto fail;
	n->u.loop.body = parse_compound_list(p, false);
	if (!n->u.loop.body || !expect_kw(p, "done"))
		goto fail;
	return n;
fail:
	ast_node_free(n);
	return NULL;
}

/* `do list done`, or bash's `{ list }` form, as a for-loop body. */
static struct node *parse_do_group(struct parser *p)
{
	bool brace = lex_token_is_kw(parser_peek(p), "{");
	if (!expect_kw(p, brace ? "{" : "do"))
		return NULL;
	struct node *body = parse_compound_list(p, false);
	if (!body || !expect_kw(p, brace ? "}" : "done")) {
		ast_node_free(body);
		return NULL;
	}
	return body;
}

static struct node *parse_for(struct parser *p)
{
	struct node *n = parser_new_node(p, NODE_FOR, parser_peek(p)->range.begin);
	parser_consume(p); /* for */
	struct token *t = parser_peek(p);
	if (t->kind == TK_LPAREN && lex_peek(&p->lx) == '(') {
		n->kind = NODE_ARITH_FOR;
		parser_consume(p);
		if (!lex_arith_for(&p->lx, &n->u.arith_for.init, &n->u.arith_for.cond, &n->u.arith_for.step))
			goto fail;
		t = parser_peek(p);
		if (t->kind == TK_SEMI)
			parser_consume(p);
		parser_skip_newlines(p);
		n->u.arith_for.body = parse_do_group(p);
		if (!n->u.arith_for.body)
			goto fail;
		return n;
	}
	if (t->kind != TK_WORD || !t->plain || !parse_is_name(lex_token_plain(t), strlen(lex_token_plain(t)))) {
		if (t->kind == TK_WORD) {
			char *s = lex_token_text(&p->lx, t);
			lex_fail_at(&p->lx, t->range.begin, false, "`%s': not a valid identifier", s);
			free(s);
		} else {
			parser_fail_unexpected(p, t);
		}
		goto fail;
	}
	n->u.for_.var = arena_str(p, lex_token_plain(t), strlen(lex_token_plain(t)));
	parser_consume(p);
	parser_skip_newlines(p);
	t = parser_peek(p);
	if (lex_token_is_kw(t, "in")) {
		n->u.for_.has_in = true;
		parser_consume(p);
		struct builder words = {0};
		for (;;) {
			t = parser_peek(p);
			if (t->kind != TK_WORD)
				break;
			if (t->asg_array) {
				bld_release(p, &words);
				parser_fail_unexpected(p, t);
				goto fail;
			}
			struct word *w = parser_take_word(p);
			*(struct word **)bld_push(p, &words, sizeof w) = w;
		}
		n->u.for_.words = bld_finish(p, &words, sizeof *n->u.for_.words, &n->u.for_.nwords);
		if (t->kind != TK_SEMI && t->kind != TK_NEWLINE) {
			parser_fail_unexpected(p, t);
			goto fail;
		}
		parser_consume(p);
	} else if (t->kind == TK_SEMI) {
		parser_consume(p);
	}
	parser_skip_newlines(p);
	n->u.for_.body = parse_do_group(p);
	if (!n->u.for_.body)
		goto fail;
	return n;
fail:
	ast_node_free(n);
	return NULL;
}

static struct node *parse_case(struct parser *p)
{
	struct node *n = parser_new_node(p, NODE_CASE, parser_peek(p)->range.begin);
	struct builder items = {0}, patterns = {0}; /* before any goto fail */
	parser_consume(p); /* case */
	struct token *t = parser_peek(p);
	if (t->kind != TK_WORD || t->asg_array) {
		parser_fail_unexpected(p, t);
		goto fail;
	}
	n->u.case_.subject = parser_take_word(p);
	parser_skip_newlines(p);
	if (!expect_kw(p, "in"))
		goto fail;
	parser_skip_newlines(p);
	for (;;) {
		t = parser_peek(p);
		if (lex_token_is_kw(t, "esac")) {
			parser_consume(p);
			break;
		}
		struct case_item *ci = bld_push(p, &items, sizeof *ci);
		if (t->kind == TK_LPAREN) {
			parser_consume(p);
			t = parser_peek(p);
		}
		for (;;) {
			if (t->kind != TK_WORD || t->asg_array) {
				parser_fail_unexpected(p, t);
				goto fail;
			}
			struct word *w = parser_take_word(p);
			*(struct word **)bld_push(p, &patterns, sizeof w) = w;
			t = parser_peek(p);
			if (t->kind != TK_PIPE)
				break;
			parser_consume(p);
			t = parser_peek(p);
		}
		ci->patterns = bld_finish(p, &patterns, sizeof *ci->patterns, &ci->npatterns);
		if (t->kind != TK_RPAREN) {
			parser_fail_unexpected(p, t);
			goto fail;
		}
		parser_consume(p);
		ci->body = parse_compound_list(p, true);
		if (p->lx.failed)
			goto fail;
		t = parser_peek(p);
		ci->terminator = CASE_BREAK;
		if (t->kind == TK_DSEMI || t->kind == TK_SEMI_AND || t->kind == TK_DSEMI_AND) {
			ci->terminator = t->kind == TK_DSEMI ? CASE_BREAK
			               : t->kind == TK_SEMI_AND ? CASE_FALLTHROUGH : CASE_CONTINUE;
			parser_consume(p);
			parser_skip_newlines(p);
			continue;
		}
		if (lex_token_is_kw(t, "esac")) {
			parser_consume(p);
			break;
		}
		parser_fail_unexpected(p, t);
		goto fail;
	}
	n->u.case_.items = bld_finish(p, &items, sizeof *n->u.case_.items, &n->u.case_.nitems);
	return n;
fail:
	bld_release(p, &items);
	bld_release(p, &patterns);
	return NULL;
}

/* ---- commands ----------------------------------------------------------- */

static struct node *parse_funcdef_body(struct parser *p, struct node *f)
{
	parser_skip_newlines(p);
	struct src_pos at = parser_peek(p)->range.begin;
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
		lex_fail_at(&p->lx, at, false, "syntax error: function body must be a compound command");
		ast_node_free(body);
		return NULL;
	default:
		break;
	}
	f->u.funcdef.body = body;
	return f;
}

static struct node *parse_function_keyword(struct parser *p)
{
	struct node *n = parser_new_node(p, NODE_FUNCDEF, parser_peek(p)->range.begin);
	n->u.funcdef.keyword = true;
	parser_consume(p); /* function */
	struct token *t = parser_peek(p);
	if (t->kind != TK_WORD || !t->plain) {
		parser_fail_unexpected(p, t);
		goto fail;
	}
	n->u.funcdef.name = arena_str(p, lex_token_plain(t), strlen(lex_token_plain(t)));
	parser_consume(p);
	t = parser_peek(p);
	if (t->kind == TK_LPAREN) {
		parser_consume(p);
		t = parser_peek(p);
		if (t->kind != TK_RPAREN) {
			parser_fail_unexpected(p, t);
			goto fail;
		}
		parser_consume(p);
	}
	if (parse_funcdef_body(p, n))
		return n;
fail:
	ast_node_free(n);
	return NULL;
}

static struct node *parse_arith_command(struct parser *p)
{
	struct node *n = parser_new_node(p, NODE_ARITH, parser_peek(p)->range.begin);
	parser_consume(p); /* the first ( */
	if (!lex_arith_command(&p->lx, &n->u.arith.expr)) {
		ast_node_free(n);
		return NULL;
	}
	return n;
}

static struct node *parse_command(struct parser *p)
{
	struct token *t = peek_command_word(p, true);
	if (p->lx.failed)
		return NULL;
	struct node *n = NULL;
	/* The word that must come before the command can end (for `for`,
	 * none of its own: its body may be `{ }`). */
	const char *outer_expect = p->lx.expect;
	if (t->kind == TK_LPAREN) {
		if (!lex_enter(&p->lx))
			return NULL;
		p->lx.expect = ")";
		if (lex_at_arith(&p->lx))
			n = parse_arith_command(p);
		else
			n = parse_brace_or_subshell(p, true);
		p->lx.expect = outer_expect;
		lex_leave(&p->lx);
	} else if (t->kind == TK_WORD && t->plain) {
		const char *s = lex_token_plain(t);
		bool compound = true;
		if (!lex_enter(&p->lx))
			return NULL;
		switch (compound_keyword(s)) {
		case KW_BRACE:
			p->lx.expect = "}";
			n = parse_brace_or_subshell(p, false);
			break;
		case KW_IF:
			p->lx.expect = "fi";
			n = parse_if(p);
			break;
		case KW_WHILE:
			p->lx.expect = "done";
			n = parse_loop(p, false);
			break;
		case KW_UNTIL:
			p->lx.expect = "done";
			n = parse_loop(p, true);
			break;
		case KW_FOR:
			n = parse_for(p);
			break;
		case KW_CASE:
			p->lx.expect = "esac";
			n = parse_case(p);
			break;
		case KW_COND:
			p->lx.expect = "]]";
			n = parse_cond_command(p);
			break;
		case KW_FUNCTION:
			n = parse_function_keyword(p);
			break;
		default:
			compound = false;
			break;
		}
		p->lx.expect = outer_expect;
		lex_leave(&p->lx);
		if (!compound) {
			if (is_closing_kw(t)) {
				parser_fail_unexpected(p, t);
				return NULL;
			}
			/* name ( ) compound: look past the word for `(`. */
			struct token saved = *t;
			p->have_tok = false;
			/* the word after a command name is no assignment */
			p->lx.cmd_prefix = false;
			struct token *next = parser_peek(p);
			p->lx.cmd_prefix = true;
			if (next->kind == TK_LPAREN && !p->lx.failed) {
				parser_consume(p);
				next = parser_peek(p);
				if (next->kind != TK_RPAREN) {
					parser_fail_unexpected(p, next);
					return NULL;
				}
				parser_consume(p);
				n = parser_new_node(p, NODE_FUNCDEF, saved.range.begin);
				n->u.funcdef.name = arena_str(p, lex_token_plain(&saved), strlen(lex_token_plain(&saved)));
				if (!lex_enter(&p->lx)) {
					ast_node_free(n);
					return NULL;
				}
				struct node *r = parse_funcdef_body(p, n);
				lex_leave(&p->lx);
				if (!r)
					ast_node_free(n);
				return r;
			}
			if (p->lx.failed)
				return NULL;
			/* Put the word back in front: a simple command. */
			struct node *simple = parser_new_node(p, NODE_SIMPLE, saved.range.begin);
			struct word *w = lex_token_word(&p->lx, &saved);
			return parse_simple_rest(p, simple, w);
		}
	} else if (t->kind == TK_WORD || t->kind == TK_IO_NUMBER || lex_is_redir_token(t->kind)) {
		return parse_simple_rest(p, NULL, NULL);
	} else {
		parser_fail_unexpected(p, t);
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
		if (!timed && !bang && lex_token_is_kw(t, "time")) {
			timed = true;
			parser_consume(p);
			t = parser_peek(p);
			if (lex_token_is_kw(t, "-p")) /* POSIX output format: accepted */
				parser_consume(p);
		} else if (lex_token_is_kw(t, "!")) {
			bang = !bang;
			parser_consume(p);
		} else {
			break;
		}
		t = peek_command_word(p, true);
	}
	if (p->lx.failed)
		return NULL;
	struct node *first;
	if ((bang || timed) && !can_start_command(t)) {
		/* `!` or `time` alone: an empty command, as bash allows. */
		first = parser_new_node(p, NODE_SIMPLE, t->range.begin);
	} else {
		first = parse_command(p);
		if (!first)
			return NULL;
	}
	t = parser_peek(p);
	if (t->kind != TK_PIPE && t->kind != TK_PIPE_AMP && !bang && !timed)
		return first;
	struct node *n = parser_new_node(p, NODE_PIPELINE, begin);
	n->u.pipeline.bang = bang;
	n->u.pipeline.timed = timed;
	struct builder cmds = {0}, stderr_too = {0};
	*(struct node **)bld_push(p, &cmds, sizeof first) = first;
	bld_push(p, &stderr_too, sizeof(bool));
	while (t->kind == TK_PIPE || t->kind == TK_PIPE_AMP) {
		*(bool *)builder_at(&stderr_too, stderr_too.n - 1, sizeof(bool)) = t->kind == TK_PIPE_AMP;
		parser_consume(p);
		parser_skip_newlines(p);
		struct node *cmd = parse_command(p);
		if (!cmd) {
			bld_release(p, &cmds);
			bld_release(p, &stderr_too);
			return NULL;
		}
		*(struct node **)bld_push(p, &cmds, sizeof cmd) = cmd;
		bld_push(p, &stderr_too, sizeof(bool));
		t = parser_peek(p);
	}
	n->u.pipeline.cmds = bld_finish(p, &cmds, sizeof *n->u.pipeline.cmds, &n->u.pipeline.ncmds);
	unsigned nst;
	n->u.pipeline.stderr_too = bld_finish(p, &stderr_too, sizeof(bool), &nst);
	return n;
}

static struct node *parse_and_or(struct parser *p)
{
	struct node *left = parse_pipeline(p);
	if (!left)
		return NULL;
	for (;;) {
		struct token *t = parser_peek(p);
		if (t->kind != TK_AND_IF && t->kind != TK_OR_IF)
			break;
		bool is_or = t->kind == TK_OR_IF;
		parser_consume(p);
		parser_skip_newlines(p);
		struct node *right = parse_pipeline(p);
		if (!right) {
			ast_node_free(left);
			return NULL;
		}
		struct node *n = ast_node_new(p->lx.arena, NODE_AND_OR, left->line, false);
		n->u.and_or.is_or = is_or;
		n->u.and_or.left = left;
		n->u.and_or.right = right;
		left = n;
	}
	return left;
}

/* A list inside a compound command: and-or lists separated by ; & and
 * newlines, up to a token that cannot start a command. */
static struct node *parse_compound_list(struct parser *p, bool allow_empty)
{
	parser_skip_newlines(p);
	struct src_pos begin = parser_peek(p)->range.begin;
	struct builder items = {0};
	for (;;) {
		struct token *t = parser_peek(p);
		if (p->lx.failed)
			goto fail;
		if (!can_start_command(t))
			break;
		struct node *item = parse_and_or(p);
		if (!item)
			goto fail;
		struct list_item *li = list_add(p, &items, item);
		t = parser_peek(p);
		if (t->kind == TK_SEMI || t->kind == TK_AMP) {
			li->async = t->kind == TK_AMP;
			parser_consume(p);
			parser_skip_newlines(p);
			continue;
		}
		if (t->kind == TK_NEWLINE) {
			parser_skip_newlines(p);
			continue;
		}
		break;
	}
	if (p->lx.failed)
		goto fail;
	if (items.n == 0) {
		if (!allow_empty) {
			parser_fail_unexpected(p, parser_peek(p));
			goto fail;
		}
		bld_release(p, &items);
		return NULL;
	}
	struct node *list = parser_new_node(p, NODE_LIST, begin);
	list_finish(p, list, &items);
	return list;
fail:
	bld_release(p, &items);
	return NULL;
}

/* One line's worth: and-or lists up to a newline or the end of the text,
 * appended to items. */
static bool parse_line(struct parser *p, struct builder *items)
{
	for (;;) {
		struct node *item = parse_and_or(p);
		if (!item)
			return false;
		struct list_item *li = list_add(p, items, item);
		struct token *t = parser_peek(p);
		if (t->kind == TK_SEMI || t->kind == TK_AMP) {
			li->async = t->kind == TK_AMP;
			parser_consume(p);
			t = parser_peek(p);
			if (t->kind == TK_NEWLINE || t->kind == TK_EOF)
				break;
			continue;
		}
		break;
	}
	struct token *t = parser_peek(p);
	if (p->lx.failed)
		return false;
	if (t->kind == TK_NEWLINE) {
		parser_consume(p);
		return true;
	}
	if (t->kind != TK_EOF) {
		parser_fail_unexpected(p, t);
		return false;
	}
	if (lex_ends_with_continuation(&p->lx) && !p->opts.at_eof && !p->whole_program) {
		lex_fail_at(&p->lx, t->range.begin, true, "syntax error: unexpected end of file");
		return false;
	}
	return true;
}

/* The next complete command's items appended to items, with the position
 * of its first token: 1, 0 at the end of the text, -1 on error. */
static int next_line(struct parser *p, struct builder *items, struct src_pos *begin)
{
	if (p->lx.failed)
		return -1;
	for (;;) {
		struct token *t = parser_peek(p);
		if (p->lx.failed)
			return -1;
		if (t->kind == TK_NEWLINE) {
			parser_consume(p);
			continue;
		}
		if (t->kind == TK_EOF) {
			if (lex_ends_with_continuation(&p->lx) && !p->opts.at_eof && !p->whole_program) {
				lex_fail_at(&p->lx, t->range.begin, true, "syntax error: unexpected end of file");
				return -1;
			}
			return 0;
		}
		*begin = t->range.begin;
		break;
	}
	return parse_line(p, items) ? 1 : -1;
}

/* ---- what the lexer asks of the grammar -------------------------------- */

/* The body of $( ) or <( ): up to the closing `)`, which is consumed; where
 * the `)` stands is returned for the body's text. */
static struct node *parse_subprogram(struct parser *p, struct lex_mark *close)
{
	struct node *body = parse_compound_list(p, true);
	if (p->lx.failed)
		return NULL;
	struct token *t = parser_peek(p);
	if (t->kind != TK_RPAREN) {
		if (t->kind == TK_EOF)
			lex_fail_eof(&p->lx, ")");
		else
			parser_fail_unexpected(p, t);
		ast_node_free(body);
		return NULL;
	}
	*close = lex_token_mark(t);
	parser_consume(p);
	return body;
}

/* The lexer is at $( or <( in p's text, in the middle of lexing a token
 * into p->tok (or between tokens): the body's tokens use p->tok too, so
 * what was there is put back after. */
static struct node *grammar_subprogram(void *ctx, struct lex_mark *close)
{
	struct parser *p = ctx;
	struct token outer = p->tok;
	bool had = p->have_tok;
	p->have_tok = false;
	struct node *body = parse_subprogram(p, close);
	p->tok = outer;
	p->have_tok = had;
	return body;
}

/* A sub-parser of text extracted from p's, which started at `at` there and
 * nests depth levels deep: same options, same arena. */
static struct parser *sub_parser(struct parser *p, const char *text, size_t len, struct src_pos at,
                                 unsigned depth)
{
	struct parser_options o = p->opts;
	o.first_line = at.line ? at.line : 1;
	o.at_eof = true;
	struct parser *s = parser_create(text, len, &o);
	lex_place(&s->lx, at, depth);
	s->lx.arena = p->lx.arena;
	s->arena_shared = true;
	return s;
}

/* Parses extracted text (the body of `...`) as a program: errors are copied
 * into p. Returns NULL for an empty program or on error. */
static struct node *grammar_text_program(void *ctx, const char *text, size_t len, struct src_pos at)
{
	struct parser *p = ctx;
	struct parser *s = sub_parser(p, text, len, at, p->lx.depth);
	s->whole_program = true;
	struct builder items = {0};
	struct src_pos begin;
	for (;;) {
		int r = next_line(s, &items, &begin);
		if (r < 0) {
			p->lx.failed = true;
			p->lx.err = s->lx.err;
			s->lx.err.message = NULL;
			p->lx.err.incomplete = false;
			bld_release(s, &items);
			parser_destroy(s);
			return NULL;
		}
		if (r == 0)
			break;
	}
	struct node *out = NULL;
	if (items.n) {
		out = parser_new_node(s, NODE_LIST, at);
		list_finish(s, out, &items);
	}
	parser_destroy(s);
	return out;
}

/* An unquoted here-document body: lexed by a sub-parser's lexer, so that
 * the $( ) in it have a grammar of their own text. */
static struct lexer *grammar_text_lexer(void *ctx, const char *text, size_t len, struct src_pos at)
{
	struct parser *p = ctx;
	return &sub_parser(p, text, len, at, p->lx.depth + 1)->lx;
}

static void grammar_text_lexer_free(void *sub_ctx)
{
	parser_destroy(sub_ctx);
}

static const struct lex_grammar grammar_hooks = {
	grammar_subprogram,
	grammar_text_program,
	grammar_text_lexer,
	grammar_text_lexer_free,
};

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
	lex_init(&p->lx, text, len, &p->opts, &grammar_hooks, p);
	return p;
}

void parser_destroy(struct parser *p)
{
	if (!p)
		return;
	lex_free(&p->lx);
	/* A per-call arena left by a failed parser_next() is gone already; a
	 * shared one belongs to someone else. */
	free(p);
}

int parser_next(struct parser *p, struct node **out)
{
	*out = NULL;
	if (p->lx.failed)
		return -1;
	bool own = !p->arena_shared;
	if (own)
		p->lx.arena = ast_arena_create();
	struct builder items = {0};
	struct src_pos begin;
	int r = next_line(p, &items, &begin);
	if (r <= 0) {
		bld_release(p, &items);
		if (own) {
			ast_arena_destroy(p->lx.arena);
			p->lx.arena = NULL;
		}
		return r;
	}
	struct node *list = ast_node_new(p->lx.arena, NODE_LIST, begin.line, own);
	list_finish(p, list, &items);
	if (own)
		p->lx.arena = NULL;
	*out = list;
	return 1;
}

const struct parse_error *parser_error(const struct parser *p)
{
	return p->lx.failed ? &p->lx.err : NULL;
}

size_t parser_offset(const struct parser *p)
{
	return lex_offset(&p->lx);
}

unsigned parser_line(const struct parser *p)
{
	return lex_line(&p->lx);
}

int parse_program(const char *text, size_t len, const struct parser_options *opts,
                  struct node **out, struct parse_error *err)
{
	struct parser *p = parser_create(text, len, opts);
	p->whole_program = true;
	p->lx.arena = ast_arena_create();
	p->arena_shared = true;
	struct src_pos begin = lex_pos(&p->lx), line_begin;
	struct builder items = {0};
	*out = NULL;
	for (;;) {
		int r = next_line(p, &items, &line_begin);
		if (r < 0) {
			if (err) {
				*err = p->lx.err;
				p->lx.err.message = NULL;
			}
			bld_release(p, &items);
			ast_arena_destroy(p->lx.arena);
			parser_destroy(p);
			return -1;
		}
		if (r == 0)
			break;
	}
	struct node *all = ast_node_new(p->lx.arena, NODE_LIST, begin.line, true);
	list_finish(p, all, &items);
	parser_destroy(p);
	if (err)
		memset(err, 0, sizeof *err);
	*out = all;
	return 0;
}
