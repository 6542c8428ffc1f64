/* The grammar of [[ ]]: the expression tree of ast.h, by recursive
 * descent over the parser's tokens (grammar.h). Newlines may stand
 * anywhere between the tokens; after =~ the lexer reads the regex as a
 * word of its own. */
#include "shell/cond_parse.h"

#include <stdlib.h>
#include <string.h>

static struct cond_expr *parse_cond_or(struct parser *p);

static struct cond_expr *new_cond(struct parser *p, enum cond_kind kind)
{
	struct cond_expr *c = ast_arena_zalloc(p->lx.arena, sizeof *c);
	c->kind = kind;
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
		parser_fail_unexpected(p, t);
		return;
	}
	char *s = lex_token_text(&p->lx, t);
	lex_fail_at(&p->lx, t->range.begin, false, "syntax error in conditional expression: unexpected token `%s'", s);
	free(s);
}

static bool cond_operand_ok(const struct token *t)
{
	return t->kind == TK_WORD && !t->asg_array && !lex_token_is_kw(t, "]]");
}

static struct cond_expr *parse_cond_primary(struct parser *p)
{
	parser_skip_newlines(p);
	struct token *t = parser_peek(p);
	if (lex_token_is_kw(t, "!")) {
		parser_consume(p);
		if (!lex_enter(&p->lx))
			return NULL;
		struct cond_expr *inner = parse_cond_primary(p);
		lex_leave(&p->lx);
		if (!inner)
			return NULL;
		struct cond_expr *c = new_cond(p, COND_NOT);
		c->left = inner;
		return c;
	}
	if (t->kind == TK_LPAREN) {
		parser_consume(p);
		if (!lex_enter(&p->lx))
			return NULL;
		struct cond_expr *inner = parse_cond_or(p);
		lex_leave(&p->lx);
		if (!inner)
			return NULL;
		parser_skip_newlines(p);
		t = parser_peek(p);
		if (t->kind != TK_RPAREN) {
			fail_cond(p, t);
			return NULL;
		}
		parser_consume(p);
		return inner;
	}
	if (!cond_operand_ok(t)) {
		fail_cond(p, t);
		return NULL;
	}
	struct word *first = parser_take_word(p);
	struct token *next = parser_peek(p);
	/* `[[ -z ]]`: a unary operator needs its operand (bash). */
	if (lex_word_is_plain(first) && is_cond_unary(first->parts[0].u.literal.text) &&
	    lex_token_is_kw(next, "]]")) {
		lex_fail_at(&p->lx, next->range.begin, false,
		            "syntax error: unexpected argument `]]' to conditional unary operator");
		return NULL;
	}
	/* Unary test: an operator word followed by an operand. */
	if (lex_word_is_plain(first) && is_cond_unary(first->parts[0].u.literal.text) &&
	    cond_operand_ok(next)) {
		const char *nt = lex_token_plain(next);
		if (!(nt && is_cond_binary(nt))) {
			struct cond_expr *c = new_cond(p, COND_UNARY);
			c->op = first->parts[0].u.literal.text;
			c->lhs = parser_take_word(p);
			return c;
		}
	}
	const char *op = NULL;
	if (next->kind == TK_LESS)
		op = "<";
	else if (next->kind == TK_GREAT)
		op = ">";
	else if (next->kind == TK_WORD && lex_token_plain(next) && is_cond_binary(lex_token_plain(next)))
		op = lex_token_plain(next);
	if (!op) {
		struct cond_expr *c = new_cond(p, COND_WORD);
		c->lhs = first;
		return c;
	}
	struct cond_expr *c = new_cond(p, COND_BINARY);
	c->op = ast_arena_strndup(p->lx.arena, op, strlen(op));
	c->lhs = first;
	struct word *op_word = next->kind == TK_WORD ? parser_take_word(p) : (parser_consume(p), NULL);
	/* `[[ -f == ]]`: with nothing after it the operator is the operand
	 * of the unary test, as bash reads it. */
	if (op_word && strcmp(c->op, "=~") != 0 && lex_word_is_plain(first) &&
	    is_cond_unary(first->parts[0].u.literal.text) && lex_token_is_kw(parser_peek(p), "]]")) {
		c->kind = COND_UNARY;
		c->op = first->parts[0].u.literal.text;
		c->lhs = op_word;
		return c;
	}
	if (strcmp(c->op, "=~") == 0) {
		struct word *rx = lex_regex_word(&p->lx);
		if (!rx)
			return NULL;
		if (rx->nparts == 0 || (lex_word_is_plain(rx) && strcmp(rx->parts[0].u.literal.text, "]]") == 0)) {
			fail_cond(p, parser_peek(p));
			return NULL;
		}
		c->rhs = rx;
	} else {
		p->lx.cond_pattern = c->op[0] == '=' || c->op[0] == '!';
		t = parser_peek(p);
		p->lx.cond_pattern = false;
		if (!cond_operand_ok(t)) {
			fail_cond(p, t);
			return NULL;
		}
		c->rhs = parser_take_word(p);
	}
	return c;
}

/* Operands joined by the operator token op (&& or ||) into kind nodes,
 * from the left. */
static struct cond_expr *parse_cond_chain(struct parser *p, enum tok_kind op, enum cond_kind kind,
                                          struct cond_expr *(*operand)(struct parser *p))
{
	struct cond_expr *left = operand(p);
	if (!left)
		return NULL;
	for (;;) {
		parser_skip_newlines(p);
		if (parser_peek(p)->kind != op)
			break;
		parser_consume(p);
		struct cond_expr *right = operand(p);
		if (!right)
			return NULL;
		struct cond_expr *c = new_cond(p, kind);
		c->left = left;
		c->right = right;
		left = c;
	}
	return left;
}

static struct cond_expr *parse_cond_and(struct parser *p)
{
	return parse_cond_chain(p, TK_AND_IF, COND_AND, parse_cond_primary);
}

static struct cond_expr *parse_cond_or(struct parser *p)
{
	return parse_cond_chain(p, TK_OR_IF, COND_OR, parse_cond_and);
}

struct node *parse_cond_command(struct parser *p)
{
	struct node *n = parser_new_node(p, NODE_COND, parser_peek(p)->range.begin);
	parser_consume(p); /* [[ */
	bool outer = p->lx.in_cond;
	p->lx.in_cond = true;
	n->u.cond.expr = parse_cond_or(p);
	p->lx.in_cond = outer;
	if (!n->u.cond.expr)
		goto fail;
	parser_skip_newlines(p);
	struct token *t = parser_peek(p);
	if (!lex_token_is_kw(t, "]]")) {
		fail_cond(p, t);
		goto fail;
	}
	parser_consume(p);
	return n;
fail:
	ast_node_free(n);
	return NULL;
}
