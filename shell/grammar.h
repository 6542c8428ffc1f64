/* What the files of the grammar share (parser.c, and cond_parse.c for
 * [[ ]]): the parser's state and its token stream. Not for other modules:
 * they use parser.h. */
#ifndef SBSH_GRAMMAR_H
#define SBSH_GRAMMAR_H

#include <stdbool.h>

#include "shell/ast.h"
#include "shell/lexer.h"
#include "shell/parser.h"

struct parser {
	struct lexer lx; /* the text; words, errors and the arena are there */
	struct parser_options opts;
	/* One token of lookahead. */
	struct token tok;
	bool have_tok;
	bool whole_program;  /* parse_program: the text is all there is */
	/* The arena is the parent's (sub-parsers) or parse_program()'s, not
	 * one of parser_next()'s own. */
	bool arena_shared;
};

/* The next token, lexed when needed (an EOF token after an error).
 * Inline: the grammar asks again and again for the one it holds. */
struct token *parser_peek_lex(struct parser *p);
static inline struct token *parser_peek(struct parser *p)
{
	return p->have_tok ? &p->tok : parser_peek_lex(p);
}
void parser_consume(struct parser *p);
/* Takes the word out of the current token and consumes it. */
struct word *parser_take_word(struct parser *p);
void parser_skip_newlines(struct parser *p);
/* "syntax error near unexpected token `t'" (or at the end of file). */
void parser_fail_unexpected(struct parser *p, const struct token *t);
/* A node in the arena, starting at begin. */
struct node *parser_new_node(struct parser *p, enum node_kind kind, struct src_pos begin);

#endif
