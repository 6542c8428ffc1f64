/* Lexer tests: the character-level helpers of lexer.c, the lexer on its own
 * (tokens, words, here-documents), and token recognition as seen through
 * the parser (operators, quoting, IO numbers, comments, line
 * continuations, assignment words). */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "shell/ast.h"
#include "shell/lexer.h"
#include "shell/parser.h"

static char *decode(const char *s)
{
	struct strbuf out;
	strbuf_init(&out);
	lex_decode_dollar_text(s, strlen(s), &out);
	return strbuf_detach(&out);
}

Test(lexer, dollar_quote_escapes)
{
	struct { const char *in, *out; } cases[] = {
		{"a\\nb", "a\nb"}, {"\\t\\r\\v\\f\\a\\b", "\t\r\v\f\a\b"},
		{"\\e\\E", "\033\033"}, {"\\\\\\'\\\"\\?", "\\'\"?"},
		{"\\101\\60x", "A0x"}, {"\\x41\\x4a\\xg", "AJ\\xg"},
		{"\\u00e9", "\xc3\xa9"}, {"\\U0001F600", "\xf0\x9f\x98\x80"},
		{"\\u20ac", "\xe2\x82\xac"}, {"\\cA\\c?", "\001\177"},
		{"\\q", "\\q"}, {"\\1234", "S4"},
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		char *s = decode(cases[i].in);
		cr_expect_str_eq(s, cases[i].out, "[%s]", cases[i].in);
		free(s);
	}
}

Test(lexer, dollar_quote_round_trip)
{
	const char text[] = "a'b\\c\n\t\001\177\033 \xff";
	struct strbuf sb;
	strbuf_init(&sb);
	lex_quote_dollar(&sb, text, sizeof text - 1);
	cr_assert_eq(strncmp(sb.data, "$'", 2), 0);
	/* Strip $' and ' and decode again. */
	char *inner = strndup(sb.data + 2, sb.len - 3);
	char *back = decode(inner);
	cr_assert_str_eq(back, text);
	free(inner);
	free(back);
	strbuf_free(&sb);
}

Test(lexer, heredoc_delimiter_quote_removal)
{
	struct { const char *raw, *out; bool quoted; } cases[] = {
		{"EOF", "EOF", false}, {"'EOF'", "EOF", true}, {"\"E\"OF", "EOF", true},
		{"\\EOF", "EOF", true}, {"E\\\nOF", "EOF", false}, {"'a b'", "a b", true},
		{"$x", "$x", false}, {"\"a\\$b\"", "a$b", true},
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		bool quoted;
		char *d = lex_heredoc_delimiter(cases[i].raw, strlen(cases[i].raw), &quoted);
		cr_expect_str_eq(d, cases[i].out, "[%s]", cases[i].raw);
		cr_expect_eq(quoted, cases[i].quoted, "[%s]", cases[i].raw);
		free(d);
	}
}

Test(lexer, name_chars)
{
	cr_assert(lex_is_name_start('_'));
	cr_assert(lex_is_name_start('Z'));
	cr_assert_not(lex_is_name_start('1'));
	cr_assert(lex_is_name_char('1'));
	cr_assert_not(lex_is_name_char('-'));
	cr_assert(lex_is_word_break(';'));
	cr_assert_not(lex_is_word_break('{'));
}

/* ---- the lexer on its own --------------------------------------------- */

/* Texts without $( ) or `...` never call the grammar. */
static struct node *no_subprogram(void *ctx, struct lex_mark *close)
{
	(void)ctx;
	(void)close;
	cr_assert_fail("the lexer asked for a subprogram");
	return NULL;
}

static struct node *no_text_program(void *ctx, const char *text, size_t len, struct src_pos at)
{
	(void)ctx;
	(void)text;
	(void)len;
	(void)at;
	cr_assert_fail("the lexer asked for a text program");
	return NULL;
}

static struct lexer *no_text_lexer(void *ctx, const char *text, size_t len, struct src_pos at)
{
	(void)ctx;
	(void)text;
	(void)len;
	(void)at;
	cr_assert_fail("the lexer asked for a text lexer");
	return NULL;
}

static void no_text_lexer_free(void *ctx)
{
	(void)ctx;
}

static const struct lex_grammar no_grammar = {no_subprogram, no_text_program, no_text_lexer,
                                              no_text_lexer_free};

static void lexer_open(struct lexer *lx, const char *text)
{
	struct parser_options o = {0};
	lex_init(lx, text, strlen(text), &o, &no_grammar, NULL);
	lx->arena = ast_arena_create();
}

static void lexer_close(struct lexer *lx)
{
	ast_arena_destroy(lx->arena);
	lex_free(lx);
}

Test(lexer, token_kinds)
{
	static const enum tok_kind want[] = {
		TK_WORD, TK_AND_IF, TK_WORD, TK_OR_IF, TK_WORD, TK_PIPE_AMP, TK_WORD, TK_DSEMI_AND,
		TK_WORD, TK_SEMI_AND, TK_WORD, TK_AND_DGREAT, TK_WORD, TK_TLESS, TK_WORD, TK_CLOBBER,
		TK_WORD, TK_LESSGREAT, TK_WORD, TK_IO_NUMBER, TK_GREATAND, TK_WORD, TK_NEWLINE,
		TK_LPAREN, TK_WORD, TK_RPAREN, TK_EOF,
	};
	struct lexer lx;
	lexer_open(&lx, "a&&b||c|&d;;&e;&f&>>g<<<h>|i<>j 2>&1 # note\n(k)");
	for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
		struct token t;
		lex_next_token(&lx, &t);
		cr_expect_eq(t.kind, want[i], "token %zu: %d", i, (int)t.kind);
	}
	cr_assert_not(lx.failed);
	lexer_close(&lx);
}

Test(lexer, words_and_assignments)
{
	struct lexer lx;
	lexer_open(&lx, "echo a[1]+=x'y' \"q\"");
	struct token t;
	lex_next_token(&lx, &t);
	cr_assert(t.lazy && t.plain);
	cr_assert_str_eq(lex_token_plain(&t), "echo");
	struct word *w = lex_token_word(&lx, &t);
	cr_assert(lex_word_is_plain(w));
	cr_assert_eq(w->range.end.col, 5);
	lex_next_token(&lx, &t);
	cr_assert(t.is_asg && t.asg_append);
	cr_assert_str_eq(t.asg_name, "a");
	cr_assert_eq(t.asg_index->nparts, 1);
	char *raw = lex_token_text(&lx, &t);
	cr_assert_str_eq(raw, "a[1]+=x'y'");
	free(raw);
	lex_next_token(&lx, &t);
	cr_assert_not(t.plain);
	cr_assert_eq(t.word->parts[0].kind, WORD_DQUOTE);
	lexer_close(&lx);
}

Test(lexer, quoted_heredoc_and_errors)
{
	struct lexer lx;
	lexer_open(&lx, "cat <<'E'\n$x\nE\n'open");
	struct token t;
	lex_next_token(&lx, &t);
	lex_next_token(&lx, &t);
	cr_assert_eq(t.kind, TK_DLESS);
	lex_next_token(&lx, &t);
	bool quoted = false;
	struct word *body = lex_add_heredoc(&lx, &t, false, &quoted);
	cr_assert(quoted);
	lex_next_token(&lx, &t);
	cr_assert_eq(t.kind, TK_NEWLINE);
	char *text;
	cr_assert(ast_word_literal_value(body, &text));
	cr_assert_str_eq(text, "$x\n");
	free(text);
	lex_next_token(&lx, &t);
	cr_assert(lx.failed);
	cr_assert(lx.err.incomplete);
	cr_assert_eq(lx.err.pos.line, 4);
	lexer_close(&lx);
}

/* ---- tokens through the parser ---------------------------------------- */

static struct node *parse(const char *text)
{
	struct node *n = NULL;
	struct parse_error e;
	int r = parse_program(text, strlen(text), NULL, &n, &e);
	cr_assert_eq(r, 0, "[%s]: %s", text, r ? e.message : "");
	return n;
}

static struct node *only(struct node *l)
{
	cr_assert_eq(l->u.list.nitems, 1);
	return l->u.list.items[0].node;
}

Test(tokens, operators_without_spaces)
{
	struct node *l = parse("a&&b||c|d|&e;f&g");
	cr_assert_eq(l->u.list.nitems, 3);
	cr_assert_eq(l->u.list.items[0].node->kind, NODE_AND_OR);
	cr_assert(l->u.list.items[1].async);
	ast_node_free(l);
}

Test(tokens, continuation_inside_operators)
{
	struct node *l = parse("a &\\\n& b >\\\n> f");
	struct node *n = only(l);
	cr_assert_eq(n->kind, NODE_AND_OR);
	cr_assert_eq(n->u.and_or.right->redirs[0].op, REDIR_APPEND);
	ast_node_free(l);
}

Test(tokens, io_numbers)
{
	struct node *l = parse("cmd 2>x 10<y 3>>z a2>w 99999999999>v");
	struct node *n = only(l);
	cr_assert_eq(n->redirs[0].fd, 2);
	cr_assert_eq(n->redirs[1].fd, 10);
	cr_assert_eq(n->redirs[2].fd, 3);
	cr_assert_eq(n->redirs[3].fd, -1); /* a2 is a word */
	cr_assert_eq(n->redirs[4].fd, -1); /* too large: a word */
	cr_assert_eq(n->u.simple.nwords, 3);
	ast_node_free(l);
}

Test(tokens, quoted_operators_are_words)
{
	struct node *l = parse("echo ';' \"&&\" \\| '('");
	cr_assert_eq(only(l)->u.simple.nwords, 5);
	ast_node_free(l);
}

Test(tokens, hash_starts_comment_only_at_word_start)
{
	struct node *l = parse("echo a#b #c\necho ${#x} $# '#'");
	cr_assert_eq(l->u.list.nitems, 2);
	cr_assert_eq(l->u.list.items[0].node->u.simple.nwords, 2);
	cr_assert_eq(l->u.list.items[1].node->u.simple.nwords, 4);
	ast_node_free(l);
}

Test(tokens, assignment_shapes)
{
	struct node *l = parse("a=1 _b=2 c+=3 d[x]=4 e[$i+1]+=5 1f=6");
	struct node *n = only(l);
	cr_assert_eq(n->u.simple.nassigns, 5);
	cr_assert_eq(n->u.simple.nwords, 1); /* 1f=6 is not a name */
	cr_assert(n->u.simple.assigns[4].append);
	cr_assert_eq(n->u.simple.assigns[4].index->parts[0].kind, WORD_PARAM);
	ast_node_free(l);
}

Test(tokens, quoted_equals_is_not_assignment)
{
	struct node *l = parse("'a'=1 a\\=1 \"a=1\"");
	struct node *n = only(l);
	cr_assert_eq(n->u.simple.nassigns, 0);
	cr_assert_eq(n->u.simple.nwords, 3);
	ast_node_free(l);
}

Test(tokens, continuation_not_in_single_quotes)
{
	struct node *l = parse("echo 'a\\\nb' \"c\\\nd\" e\\\nf");
	struct node *n = only(l);
	char *s;
	cr_assert(ast_word_literal_value(n->u.simple.words[1], &s));
	cr_assert_str_eq(s, "a\\\nb");
	free(s);
	cr_assert(ast_word_literal_value(n->u.simple.words[2], &s));
	cr_assert_str_eq(s, "cd");
	free(s);
	cr_assert(ast_word_literal_value(n->u.simple.words[3], &s));
	cr_assert_str_eq(s, "ef");
	free(s);
	ast_node_free(l);
}

Test(tokens, double_quote_backslashes)
{
	struct node *l = parse("echo \"\\$a \\\\ \\\" \\x \\`\"");
	struct node *n = only(l);
	char *s;
	cr_assert(ast_word_literal_value(n->u.simple.words[1], &s));
	cr_assert_str_eq(s, "$a \\ \" \\x `");
	free(s);
	ast_node_free(l);
}

Test(tokens, utf8_and_high_bytes_are_word_chars)
{
	struct node *l = parse("echo h\xc3\xa9llo \xff\xfe");
	struct node *n = only(l);
	cr_assert_eq(n->u.simple.nwords, 3);
	ast_node_free(l);
}

Test(tokens, word_ranges_cover_quotes)
{
	struct node *l = parse("echo  'ab'\"c\"");
	const struct word *w = only(l)->u.simple.words[1];
	cr_assert_eq(w->range.begin.col, 7);
	cr_assert_eq(w->range.end.col, 14);
	cr_assert_eq(w->nparts, 2);
	cr_assert_eq(w->parts[1].kind, WORD_DQUOTE);
	ast_node_free(l);
}

Test(tokens, multiline_positions)
{
	struct node *l = parse("a\n  b c\n\n d");
	cr_assert_eq(l->u.list.nitems, 3);
	const struct node *b = l->u.list.items[1].node;
	cr_assert_eq(b->line, 2);
	cr_assert_eq(b->u.simple.words[0]->range.begin.col, 3);
	cr_assert_eq(b->u.simple.words[1]->range.begin.col, 5);
	const struct node *d = l->u.list.items[2].node;
	cr_assert_eq(d->line, 4);
	cr_assert_eq(d->u.simple.words[0]->range.begin.line, 4);
	cr_assert_eq(d->u.simple.words[0]->range.begin.col, 2);
	ast_node_free(l);
}
