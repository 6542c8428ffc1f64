/* Parser tests: AST shapes for each construct, errors with positions and
 * the incomplete flag, aliases, and printer round trips. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "shell/ast.h"
#include "shell/parser.h"

static struct node *parse_ok_opts(const char *text, const struct parser_options *o)
{
	struct node *n = NULL;
	struct parse_error e;
	int r = parse_program(text, strlen(text), o, &n, &e);
	cr_assert_eq(r, 0, "parse of [%s] failed: %s", text, r ? e.message : "");
	cr_assert_not_null(n);
	cr_assert_eq(n->kind, NODE_LIST);
	return n;
}

static struct node *parse_ok(const char *text)
{
	struct parser_options o = {0};
	o.at_eof = true;
	return parse_ok_opts(text, &o);
}

/* The only command of a one-command program. */
static struct node *first(struct node *list)
{
	cr_assert_geq(list->u.list.nitems, 1);
	return list->u.list.items[0].node;
}

static struct parse_error parse_err(const char *text)
{
	struct node *n = NULL;
	struct parse_error e;
	memset(&e, 0, sizeof e);
	int r = parse_program(text, strlen(text), NULL, &n, &e);
	cr_assert_eq(r, -1, "parse of [%s] should fail", text);
	cr_assert_null(n);
	cr_assert_not_null(e.message);
	return e;
}

static char *lit(const struct word *w)
{
	char *s = NULL;
	cr_assert(ast_word_literal_value(w, &s), "word is not literal");
	return s;
}

static void assert_word(const struct word *w, const char *expect)
{
	char *s = lit(w);
	cr_assert_str_eq(s, expect);
	free(s);
}

static char *print(const struct node *n)
{
	struct strbuf sb;
	strbuf_init(&sb);
	ast_print_node(&sb, n);
	return strbuf_detach(&sb);
}

/* ---- simple commands ---------------------------------------------------- */

Test(simple, words_and_positions)
{
	struct node *l = parse_ok("echo  hello world");
	struct node *n = first(l);
	cr_assert_eq(n->kind, NODE_SIMPLE);
	cr_assert_eq(n->u.simple.nwords, 3);
	assert_word(n->u.simple.words[0], "echo");
	assert_word(n->u.simple.words[2], "world");
	cr_assert_eq(n->u.simple.words[1]->range.begin.col, 7);
	cr_assert_eq(n->u.simple.words[1]->range.end.col, 12);
	cr_assert_eq(n->u.simple.words[1]->range.begin.offset, 6);
	ast_node_free(l);
}

Test(simple, assignments_only_before_name)
{
	struct node *l = parse_ok("a=1 b+=2 c[3]=x cmd d=4");
	struct node *n = first(l);
	cr_assert_eq(n->u.simple.nassigns, 3);
	cr_assert_str_eq(n->u.simple.assigns[0].name, "a");
	assert_word(n->u.simple.assigns[0].value, "1");
	cr_assert(n->u.simple.assigns[1].append);
	cr_assert_str_eq(n->u.simple.assigns[2].name, "c");
	assert_word(n->u.simple.assigns[2].index, "3");
	assert_word(n->u.simple.assigns[2].value, "x");
	cr_assert_eq(n->u.simple.nwords, 2);
	assert_word(n->u.simple.words[1], "d=4");
	ast_node_free(l);
}

Test(simple, empty_assignment_value)
{
	struct node *l = parse_ok("x= y");
	struct node *n = first(l);
	cr_assert_eq(n->u.simple.nassigns, 1);
	cr_assert_eq(n->u.simple.assigns[0].value->nparts, 0);
	cr_assert_eq(n->u.simple.nwords, 1);
	ast_node_free(l);
}

Test(simple, array_assignment)
{
	struct node *l = parse_ok("a=(1 \"2 3\"\n 4) b=x");
	struct node *n = first(l);
	cr_assert_eq(n->u.simple.nassigns, 2);
	cr_assert(n->u.simple.assigns[0].is_array);
	cr_assert_eq(n->u.simple.assigns[0].narray, 3);
	assert_word(n->u.simple.assigns[0].array[1], "2 3");
	cr_assert_null(n->u.simple.assigns[0].value);
	ast_node_free(l);
}

Test(simple, declare_array_word)
{
	struct node *l = parse_ok("declare -a a=(x y)");
	struct node *n = first(l);
	cr_assert_eq(n->u.simple.nwords, 3);
	assert_word(n->u.simple.words[2], "a=(x y)");
	ast_node_free(l);
}

Test(simple, array_after_command_is_error)
{
	struct parse_error e = parse_err("echo a=(b)");
	cr_assert_str_eq(e.message, "syntax error near unexpected token `('");
	free(e.message);
}

Test(simple, reserved_words_only_in_command_position)
{
	struct node *l = parse_ok("echo if then fi { }");
	struct node *n = first(l);
	cr_assert_eq(n->kind, NODE_SIMPLE);
	cr_assert_eq(n->u.simple.nwords, 6);
	ast_node_free(l);
}

Test(simple, comments)
{
	struct node *l = parse_ok("# leading\necho a#b # trailing\n  # more");
	cr_assert_eq(l->u.list.nitems, 1);
	struct node *n = first(l);
	cr_assert_eq(n->u.simple.nwords, 2);
	assert_word(n->u.simple.words[1], "a#b");
	ast_node_free(l);
}

Test(simple, line_continuation)
{
	struct node *l = parse_ok("ec\\\nho a\\\nb 'x\\\ny'");
	struct node *n = first(l);
	assert_word(n->u.simple.words[0], "echo");
	assert_word(n->u.simple.words[1], "ab");
	assert_word(n->u.simple.words[2], "x\\\ny");
	ast_node_free(l);
}

/* ---- redirections ------------------------------------------------------- */

Test(redir, operators)
{
	struct node *l = parse_ok("cmd <a >b >>c >|d <>e 2<&3 >&- &>f &>>g <<<h 10>i");
	struct node *n = first(l);
	enum redir_op ops[] = {REDIR_IN, REDIR_OUT, REDIR_APPEND, REDIR_CLOBBER, REDIR_RDWR,
	                       REDIR_DUP_IN, REDIR_DUP_OUT, REDIR_OUT_ERR, REDIR_APPEND_ERR,
	                       REDIR_HERESTRING, REDIR_OUT};
	cr_assert_eq(n->nredirs, 11);
	for (size_t i = 0; i < 11; i++)
		cr_assert_eq(n->redirs[i].op, ops[i], "redir %zu", i);
	cr_assert_eq(n->redirs[0].fd, -1);
	cr_assert_eq(n->redirs[5].fd, 2);
	assert_word(n->redirs[5].target, "3");
	assert_word(n->redirs[6].target, "-");
	cr_assert_eq(n->redirs[10].fd, 10);
	ast_node_free(l);
}

Test(redir, anywhere_among_words)
{
	struct node *l = parse_ok(">out echo 2>&1 a");
	struct node *n = first(l);
	cr_assert_eq(n->u.simple.nwords, 2);
	cr_assert_eq(n->nredirs, 2);
	ast_node_free(l);
}

Test(redir, compound_redirs_attach)
{
	struct node *l = parse_ok("{ echo; } >x 2>y");
	struct node *n = first(l);
	cr_assert_eq(n->kind, NODE_BRACE_GROUP);
	cr_assert_eq(n->nredirs, 2);
	ast_node_free(l);
}

Test(redir, io_number_needs_adjacency)
{
	struct node *l = parse_ok("echo 2 >x");
	struct node *n = first(l);
	cr_assert_eq(n->u.simple.nwords, 2);
	cr_assert_eq(n->redirs[0].fd, -1);
	ast_node_free(l);
}

/* ---- here-documents ----------------------------------------------------- */

Test(heredoc, unquoted_body_has_expansions)
{
	struct node *l = parse_ok("cat <<EOF\nhello $x \\$y \"q\"\nEOF\necho after");
	cr_assert_eq(l->u.list.nitems, 2);
	struct node *n = first(l);
	cr_assert_eq(n->redirs[0].op, REDIR_HEREDOC);
	cr_assert_not(n->redirs[0].heredoc_quoted);
	const struct word *b = n->redirs[0].heredoc;
	cr_assert_eq(b->nparts, 3);
	cr_assert_eq(b->parts[0].kind, WORD_LITERAL);
	cr_assert_str_eq(b->parts[0].u.literal.text, "hello ");
	cr_assert_eq(b->parts[1].kind, WORD_PARAM);
	cr_assert_str_eq(b->parts[2].u.literal.text, " $y \"q\"\n");
	ast_node_free(l);
}

Test(heredoc, quoted_is_literal)
{
	struct node *l = parse_ok("cat <<'E O'\n$x `y`\nE O\n");
	struct node *n = first(l);
	cr_assert(n->redirs[0].heredoc_quoted);
	const struct word *b = n->redirs[0].heredoc;
	cr_assert_eq(b->nparts, 1);
	cr_assert_eq(b->parts[0].u.literal.quote, QUOTE_SINGLE);
	cr_assert_str_eq(b->parts[0].u.literal.text, "$x `y`\n");
	ast_node_free(l);
}

Test(heredoc, strip_tabs_and_several_on_a_line)
{
	struct node *l = parse_ok("cat <<-A; cat <<\"B\"\n\t\ta\n\tA\nb\nB\n");
	cr_assert_eq(l->u.list.nitems, 2);
	struct node *a = l->u.list.items[0].node, *b = l->u.list.items[1].node;
	cr_assert_str_eq(a->redirs[0].heredoc->parts[0].u.literal.text, "a\n");
	cr_assert_str_eq(b->redirs[0].heredoc->parts[0].u.literal.text, "b\n");
	ast_node_free(l);
}

Test(heredoc, inside_cmdsub_and_compound)
{
	struct node *l = parse_ok("x=$(cat <<E\nin\nE\n)\nif true; then cat <<E\nbody\nE\nfi");
	cr_assert_eq(l->u.list.nitems, 2);
	struct node *n = first(l);
	const struct word_part *wp = &n->u.simple.assigns[0].value->parts[0];
	cr_assert_eq(wp->kind, WORD_CMDSUB);
	struct node *inner = wp->u.cmdsub->program->u.list.items[0].node;
	cr_assert_str_eq(inner->redirs[0].heredoc->parts[0].u.literal.text, "in\n");
	ast_node_free(l);
}

Test(heredoc, incomplete_without_at_eof)
{
	struct parser_options o = {0};
	struct node *n = NULL;
	struct parse_error e;
	int r = parse_program("cat <<EOF\nabc\n", 14, &o, &n, &e);
	cr_assert_eq(r, -1);
	cr_assert(e.incomplete);
	free(e.message);
}

/* ---- pipelines and lists ------------------------------------------------ */

Test(pipeline, bang_time_and_stderr)
{
	struct node *l = parse_ok("time ! a | b |& c");
	struct node *n = first(l);
	cr_assert_eq(n->kind, NODE_PIPELINE);
	cr_assert(n->u.pipeline.timed);
	cr_assert(n->u.pipeline.bang);
	cr_assert_eq(n->u.pipeline.ncmds, 3);
	cr_assert_not(n->u.pipeline.stderr_too[0]);
	cr_assert(n->u.pipeline.stderr_too[1]);
	ast_node_free(l);
}

Test(pipeline, newline_after_pipe)
{
	struct node *l = parse_ok("a |\n\n b && \n c");
	struct node *n = first(l);
	cr_assert_eq(n->kind, NODE_AND_OR);
	cr_assert_eq(n->u.and_or.left->kind, NODE_PIPELINE);
	ast_node_free(l);
}

Test(list, and_or_left_assoc)
{
	struct node *l = parse_ok("a && b || c");
	struct node *n = first(l);
	cr_assert_eq(n->kind, NODE_AND_OR);
	cr_assert(n->u.and_or.is_or);
	cr_assert_eq(n->u.and_or.left->kind, NODE_AND_OR);
	cr_assert_not(n->u.and_or.left->u.and_or.is_or);
	ast_node_free(l);
}

Test(list, async_and_sequence)
{
	struct node *l = parse_ok("a & b; c &\nd");
	cr_assert_eq(l->u.list.nitems, 4);
	cr_assert(l->u.list.items[0].async);
	cr_assert_not(l->u.list.items[1].async);
	cr_assert(l->u.list.items[2].async);
	ast_node_free(l);
}

Test(list, parser_next_one_line_at_a_time)
{
	const char *text = "a; b\n\n# c\nc &\n";
	struct parser *p = parser_create(text, strlen(text), NULL);
	struct node *n;
	cr_assert_eq(parser_next(p, &n), 1);
	cr_assert_eq(n->u.list.nitems, 2);
	cr_assert_eq(parser_line(p), 2);
	cr_assert_eq(parser_offset(p), 5);
	ast_node_free(n);
	cr_assert_eq(parser_next(p, &n), 1);
	cr_assert_eq(n->u.list.nitems, 1);
	cr_assert(n->u.list.items[0].async);
	ast_node_free(n);
	cr_assert_eq(parser_next(p, &n), 0);
	parser_destroy(p);
}

/* ---- compound commands -------------------------------------------------- */

Test(compound, if_elif_else)
{
	struct node *l = parse_ok("if a; then b; elif c\nthen d; else e; fi");
	struct node *n = first(l);
	cr_assert_eq(n->kind, NODE_IF);
	cr_assert_eq(n->u.if_.cond->kind, NODE_LIST);
	struct node *e = n->u.if_.else_part;
	cr_assert_eq(e->kind, NODE_IF);
	cr_assert_eq(e->u.if_.else_part->kind, NODE_LIST);
	ast_node_free(l);
}

Test(compound, loops)
{
	struct node *l = parse_ok("while a; do b; done; until c; do d; done");
	cr_assert_eq(l->u.list.items[0].node->kind, NODE_LOOP);
	cr_assert_not(l->u.list.items[0].node->u.loop.until);
	cr_assert(l->u.list.items[1].node->u.loop.until);
	ast_node_free(l);
}

Test(compound, for_forms)
{
	struct node *l = parse_ok("for x in a b; do :; done\nfor y; do :; done\nfor z do :; done\n"
	                          "for w in; do :; done\nfor v\nin q\ndo :; done");
	struct node *n = l->u.list.items[0].node;
	cr_assert_eq(n->kind, NODE_FOR);
	cr_assert_str_eq(n->u.for_.var, "x");
	cr_assert(n->u.for_.has_in);
	cr_assert_eq(n->u.for_.nwords, 2);
	cr_assert_not(l->u.list.items[1].node->u.for_.has_in);
	cr_assert_not(l->u.list.items[2].node->u.for_.has_in);
	cr_assert(l->u.list.items[3].node->u.for_.has_in);
	cr_assert_eq(l->u.list.items[3].node->u.for_.nwords, 0);
	cr_assert_eq(l->u.list.items[4].node->u.for_.nwords, 1);
	ast_node_free(l);
}

Test(compound, arith_for)
{
	struct node *l = parse_ok("for ((i=0; i<3; i++)); do echo; done; for ((;;)) { :; }");
	struct node *n = first(l);
	cr_assert_eq(n->kind, NODE_ARITH_FOR);
	assert_word(n->u.arith_for.init, "i=0");
	assert_word(n->u.arith_for.cond, " i<3");
	struct node *m = l->u.list.items[1].node;
	cr_assert_null(m->u.arith_for.init);
	cr_assert_null(m->u.arith_for.cond);
	cr_assert_null(m->u.arith_for.step);
	ast_node_free(l);
}

Test(compound, case_items)
{
	struct node *l = parse_ok("case $x in\n(a|b) one;;\nc) two;&\n*) ;;&\nd) last\nesac");
	struct node *n = first(l);
	cr_assert_eq(n->kind, NODE_CASE);
	cr_assert_eq(n->u.case_.nitems, 4);
	cr_assert_eq(n->u.case_.items[0].npatterns, 2);
	cr_assert_eq(n->u.case_.items[0].terminator, CASE_BREAK);
	cr_assert_eq(n->u.case_.items[1].terminator, CASE_FALLTHROUGH);
	cr_assert_eq(n->u.case_.items[2].terminator, CASE_CONTINUE);
	cr_assert_null(n->u.case_.items[2].body);
	cr_assert_not_null(n->u.case_.items[3].body);
	ast_node_free(l);
}

Test(compound, empty_case)
{
	struct node *l = parse_ok("case x in esac");
	cr_assert_eq(first(l)->u.case_.nitems, 0);
	ast_node_free(l);
}

Test(compound, groups)
{
	struct node *l = parse_ok("(a; b) ; { c; }");
	cr_assert_eq(l->u.list.items[0].node->kind, NODE_SUBSHELL);
	cr_assert_eq(l->u.list.items[1].node->kind, NODE_BRACE_GROUP);
	ast_node_free(l);
}

Test(compound, functions)
{
	struct node *l = parse_ok("f() { :; }\nfunction g { :; } >x\nfunction h() ( : )\nk ()\n{ :; }");
	struct node *f = l->u.list.items[0].node;
	cr_assert_eq(f->kind, NODE_FUNCDEF);
	cr_assert_str_eq(f->u.funcdef.name, "f");
	cr_assert_not(f->u.funcdef.keyword);
	struct node *g = l->u.list.items[1].node;
	cr_assert(g->u.funcdef.keyword);
	cr_assert_eq(g->u.funcdef.body->nredirs, 1);
	cr_assert_eq(l->u.list.items[2].node->u.funcdef.body->kind, NODE_SUBSHELL);
	cr_assert_str_eq(l->u.list.items[3].node->u.funcdef.name, "k");
	ast_node_free(l);
}

Test(compound, arith_command)
{
	struct node *l = parse_ok("(( x = (1 + 2) * 3 ))");
	struct node *n = first(l);
	cr_assert_eq(n->kind, NODE_ARITH);
	assert_word(n->u.arith.expr, " x = (1 + 2) * 3 ");
	ast_node_free(l);
}

Test(compound, nested_subshells_not_arith)
{
	struct node *l = parse_ok("((echo a); (echo b))");
	struct node *n = first(l);
	cr_assert_eq(n->kind, NODE_SUBSHELL);
	ast_node_free(l);
}

/* ---- [[ ]] -------------------------------------------------------------- */

Test(cond, precedence_and_grouping)
{
	struct node *l = parse_ok("[[ -f x && ( a == b* || ! -z $c ) ]]");
	struct node *n = first(l);
	cr_assert_eq(n->kind, NODE_COND);
	struct cond_expr *c = n->u.cond.expr;
	cr_assert_eq(c->kind, COND_AND);
	cr_assert_eq(c->left->kind, COND_UNARY);
	cr_assert_str_eq(c->left->op, "-f");
	cr_assert_eq(c->right->kind, COND_OR);
	cr_assert_eq(c->right->left->kind, COND_BINARY);
	cr_assert_str_eq(c->right->left->op, "==");
	cr_assert_eq(c->right->right->kind, COND_NOT);
	ast_node_free(l);
}

Test(cond, regex_keeps_parens_and_bars)
{
	struct node *l = parse_ok("[[ $x =~ ^(a|b)+[0-9]$ ]]");
	struct cond_expr *c = first(l)->u.cond.expr;
	cr_assert_str_eq(c->op, "=~");
	assert_word(c->rhs, "^(a|b)+[0-9]$");
	ast_node_free(l);
}

Test(cond, less_greater_and_word)
{
	struct node *l = parse_ok("[[ a < b ]] && [[ $x ]] && [[ 1 -lt 2 ]]");
	struct node *n = first(l);
	struct node *a = n->u.and_or.left->u.and_or.left;
	cr_assert_str_eq(a->u.cond.expr->op, "<");
	cr_assert_eq(n->u.and_or.left->u.and_or.right->u.cond.expr->kind, COND_WORD);
	cr_assert_str_eq(n->u.and_or.right->u.cond.expr->op, "-lt");
	ast_node_free(l);
}

/* ---- words -------------------------------------------------------------- */

static const struct word_part *only_part(struct node *l, size_t word)
{
	struct node *n = first(l);
	cr_assert_gt(n->u.simple.nwords, word);
	const struct word *w = n->u.simple.words[word];
	cr_assert_eq(w->nparts, 1, "word has %zu parts", w->nparts);
	return &w->parts[0];
}

Test(words, quoting_styles)
{
	struct node *l = parse_ok("echo \\a 'b c' $'d\\te' \"f $g\" h");
	struct node *n = first(l);
	cr_assert_eq(n->u.simple.words[1]->parts[0].u.literal.quote, QUOTE_BACKSLASH);
	cr_assert_eq(n->u.simple.words[2]->parts[0].u.literal.quote, QUOTE_SINGLE);
	cr_assert_eq(n->u.simple.words[3]->parts[0].u.literal.quote, QUOTE_DOLLAR);
	cr_assert_str_eq(n->u.simple.words[3]->parts[0].u.literal.text, "d\te");
	const struct word_part *dq = &n->u.simple.words[4]->parts[0];
	cr_assert_eq(dq->kind, WORD_DQUOTE);
	cr_assert_eq(dq->u.dquote->nparts, 2);
	cr_assert_eq(dq->u.dquote->parts[0].u.literal.quote, QUOTE_DOUBLE);
	cr_assert_eq(dq->u.dquote->parts[1].kind, WORD_PARAM);
	cr_assert_eq(n->u.simple.words[5]->parts[0].u.literal.quote, QUOTE_NONE);
	ast_node_free(l);
}

Test(words, empty_quotes)
{
	struct node *l = parse_ok("echo '' \"\"");
	const struct word_part *a = only_part(l, 1);
	cr_assert_eq(a->kind, WORD_LITERAL);
	cr_assert_eq(a->u.literal.len, 0);
	const struct word_part *b = only_part(l, 2);
	cr_assert_eq(b->kind, WORD_DQUOTE);
	cr_assert_eq(b->u.dquote->nparts, 0);
	ast_node_free(l);
}

Test(words, special_params)
{
	const char *names[] = {"@", "*", "#", "?", "-", "$", "!", "0", "1"};
	struct node *l = parse_ok("echo $@ $* $# $? $- $$ $! $0 $1 $ x$");
	for (size_t i = 0; i < 9; i++) {
		const struct word_part *wp = only_part(l, i + 1);
		cr_assert_eq(wp->kind, WORD_PARAM);
		cr_assert_str_eq(wp->u.param->name, names[i]);
		cr_assert_not(wp->u.param->braced);
	}
	assert_word(first(l)->u.simple.words[10], "$");
	assert_word(first(l)->u.simple.words[11], "x$");
	ast_node_free(l);
}

Test(words, dollar_digit_is_one_char)
{
	struct node *l = parse_ok("echo $10 ${10}");
	struct node *n = first(l);
	cr_assert_eq(n->u.simple.words[1]->nparts, 2);
	cr_assert_str_eq(n->u.simple.words[1]->parts[0].u.param->name, "1");
	cr_assert_str_eq(only_part(l, 2)->u.param->name, "10");
	ast_node_free(l);
}

struct op_case {
	const char *text;
	enum param_op op;
	bool colon;
	const char *arg;
	const char *arg2;
};

Test(words, param_ops)
{
	const struct op_case cases[] = {
		{"${x}", PARAM_PLAIN, false, NULL, NULL},
		{"${#x}", PARAM_LENGTH, false, NULL, NULL},
		{"${x-w}", PARAM_DEFAULT, false, "w", NULL},
		{"${x:-w}", PARAM_DEFAULT, true, "w", NULL},
		{"${x=w}", PARAM_ASSIGN, false, "w", NULL},
		{"${x:=w}", PARAM_ASSIGN, true, "w", NULL},
		{"${x?w}", PARAM_ERROR, false, "w", NULL},
		{"${x:?}", PARAM_ERROR, true, "", NULL},
		{"${x+w}", PARAM_ALTERNATE, false, "w", NULL},
		{"${x:+w}", PARAM_ALTERNATE, true, "w", NULL},
		{"${x%w}", PARAM_REMOVE_SMALL_SUFFIX, false, "w", NULL},
		{"${x%%w}", PARAM_REMOVE_LARGE_SUFFIX, false, "w", NULL},
		{"${x#w}", PARAM_REMOVE_SMALL_PREFIX, false, "w", NULL},
		{"${x##w}", PARAM_REMOVE_LARGE_PREFIX, false, "w", NULL},
		{"${x/a/b}", PARAM_REPLACE, false, "a", "b"},
		{"${x/a}", PARAM_REPLACE, false, "a", NULL},
		{"${x//a/b}", PARAM_REPLACE_ALL, false, "a", "b"},
		{"${x/#a/b}", PARAM_REPLACE_PREFIX, false, "a", "b"},
		{"${x/%a/b}", PARAM_REPLACE_SUFFIX, false, "a", "b"},
		{"${x:1}", PARAM_SUBSTRING, false, "1", NULL},
		{"${x:1:2}", PARAM_SUBSTRING, false, "1", "2"},
		{"${x: -1}", PARAM_SUBSTRING, false, " -1", NULL},
		{"${x^}", PARAM_UPPER_FIRST, false, NULL, NULL},
		{"${x^^}", PARAM_UPPER_ALL, false, NULL, NULL},
		{"${x,}", PARAM_LOWER_FIRST, false, NULL, NULL},
		{"${x,,[ab]}", PARAM_LOWER_ALL, false, "[ab]", NULL},
		{"${!x*}", PARAM_PREFIX_NAMES, false, NULL, NULL},
		{"${!x@}", PARAM_PREFIX_NAMES, false, NULL, NULL},
		{"${!x[@]}", PARAM_KEYS, false, NULL, NULL},
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		char *text = NULL;
		text = malloc(strlen(cases[i].text) + 6);
		sprintf(text, "echo %s", cases[i].text);
		struct node *l = parse_ok(text);
		const struct word_part *wp = only_part(l, 1);
		cr_assert_eq(wp->kind, WORD_PARAM, "%s", text);
		cr_assert_str_eq(wp->u.param->name, "x", "%s", text);
		cr_assert_eq(wp->u.param->op, cases[i].op, "%s: op %d", text, wp->u.param->op);
		cr_assert_eq(wp->u.param->colon, cases[i].colon, "%s", text);
		cr_assert(wp->u.param->braced);
		if (cases[i].arg)
			assert_word(wp->u.param->arg, cases[i].arg);
		else
			cr_assert_null(wp->u.param->arg, "%s", text);
		if (cases[i].arg2)
			assert_word(wp->u.param->arg2, cases[i].arg2);
		else
			cr_assert_null(wp->u.param->arg2, "%s", text);
		ast_node_free(l);
		free(text);
	}
}

Test(words, param_special_forms)
{
	struct node *l = parse_ok("echo ${!x} ${#} ${#-w} ${a[1+$i]} ${#a[@]} ${!p@} ${@:2}");
	const struct word_part *wp = only_part(l, 1);
	cr_assert(wp->u.param->indirect);
	cr_assert_eq(wp->u.param->op, PARAM_PLAIN);
	wp = only_part(l, 2);
	cr_assert_str_eq(wp->u.param->name, "#");
	cr_assert_eq(wp->u.param->op, PARAM_PLAIN);
	wp = only_part(l, 3);
	cr_assert_str_eq(wp->u.param->name, "#");
	cr_assert_eq(wp->u.param->op, PARAM_DEFAULT);
	wp = only_part(l, 4);
	cr_assert_str_eq(wp->u.param->name, "a");
	cr_assert_eq(wp->u.param->index->nparts, 2);
	wp = only_part(l, 5);
	cr_assert_eq(wp->u.param->op, PARAM_LENGTH);
	assert_word(wp->u.param->index, "@");
	wp = only_part(l, 6);
	cr_assert_eq(wp->u.param->op, PARAM_PREFIX_NAMES);
	cr_assert(wp->u.param->at);
	wp = only_part(l, 7);
	cr_assert_str_eq(wp->u.param->name, "@");
	cr_assert_eq(wp->u.param->op, PARAM_SUBSTRING);
	ast_node_free(l);
}

Test(words, param_operand_quoting)
{
	struct node *l = parse_ok("echo ${x:-a b} \"${x:-\"q\" $y}\" ${x:-{a}}");
	const struct word_part *wp = only_part(l, 1);
	assert_word(wp->u.param->arg, "a b");
	cr_assert_eq(wp->u.param->arg->parts[0].u.literal.quote, QUOTE_NONE);
	wp = only_part(l, 2);
	const struct word_part *inner = &wp->u.dquote->parts[0];
	cr_assert_eq(inner->kind, WORD_PARAM);
	cr_assert_eq(inner->u.param->arg->parts[0].kind, WORD_DQUOTE);
	wp = only_part(l, 3);
	assert_word(wp->u.param->arg, "{a}");
	ast_node_free(l);
}

Test(words, cmdsub_forms)
{
	struct node *l = parse_ok("echo $(a; b) `c \\`d\\`` \"$(e \"f\")\" $( (g) )");
	const struct word_part *wp = only_part(l, 1);
	cr_assert_eq(wp->kind, WORD_CMDSUB);
	cr_assert_str_eq(wp->u.cmdsub->text, "a; b");
	cr_assert_eq(wp->u.cmdsub->program->u.list.nitems, 2);
	wp = only_part(l, 2);
	cr_assert(wp->u.cmdsub->backquote);
	cr_assert_str_eq(wp->u.cmdsub->text, "c `d`");
	const struct node *c = wp->u.cmdsub->program->u.list.items[0].node;
	cr_assert_eq(c->u.simple.words[1]->parts[0].kind, WORD_CMDSUB);
	wp = only_part(l, 4);
	cr_assert_eq(wp->kind, WORD_CMDSUB);
	cr_assert_eq(wp->u.cmdsub->program->u.list.items[0].node->kind, NODE_SUBSHELL);
	ast_node_free(l);
}

Test(words, empty_cmdsub)
{
	struct node *l = parse_ok("echo $( ) $(\n)");
	cr_assert_null(only_part(l, 1)->u.cmdsub->program);
	ast_node_free(l);
}

Test(words, cmdsub_with_case)
{
	struct node *l = parse_ok("x=$(case a in a) echo hi;; esac)");
	const struct word_part *wp = &first(l)->u.simple.assigns[0].value->parts[0];
	cr_assert_eq(wp->kind, WORD_CMDSUB);
	cr_assert_eq(wp->u.cmdsub->program->u.list.items[0].node->kind, NODE_CASE);
	ast_node_free(l);
}

Test(words, arith_and_fallback)
{
	struct node *l = parse_ok("echo $((1 + $x * (2))) $((echo a); (echo b))");
	const struct word_part *wp = only_part(l, 1);
	cr_assert_eq(wp->kind, WORD_ARITH);
	cr_assert_eq(wp->u.arith.expr->nparts, 3);
	cr_assert_eq(wp->u.arith.expr->parts[1].kind, WORD_PARAM);
	wp = only_part(l, 2);
	cr_assert_eq(wp->kind, WORD_CMDSUB);
	cr_assert_eq(wp->u.cmdsub->program->u.list.nitems, 2);
	ast_node_free(l);
}

Test(words, procsub)
{
	struct node *l = parse_ok("diff <(a) >(b) \"<(c)\"");
	cr_assert_eq(only_part(l, 1)->kind, WORD_PROCSUB);
	cr_assert_not(only_part(l, 1)->u.procsub->output);
	cr_assert(only_part(l, 2)->u.procsub->output);
	cr_assert_eq(only_part(l, 3)->kind, WORD_DQUOTE);
	ast_node_free(l);
}

Test(words, tilde_and_braces_stay_literal)
{
	struct node *l = parse_ok("echo ~/x {a,b}");
	assert_word(first(l)->u.simple.words[1], "~/x");
	cr_assert_eq(only_part(l, 2)->u.literal.quote, QUOTE_NONE);
	assert_word(first(l)->u.simple.words[2], "{a,b}");
	ast_node_free(l);
}

/* ---- aliases ------------------------------------------------------------ */

static const char *test_alias(void *ctx, const char *name)
{
	(void)ctx;
	static const char *const table[][2] = {
		{"ll", "ls -l"}, {"ls", "ls -F"}, {"a", "b"}, {"b", "a"},
		{"s", "sudo "}, {"sudo", "sudo "}, {"iff", "if true; then"}, {"q", "'quoted'"},
	};
	for (size_t i = 0; i < sizeof table / sizeof table[0]; i++)
		if (strcmp(name, table[i][0]) == 0)
			return table[i][1];
	return NULL;
}

static struct node *parse_alias(const char *text)
{
	struct parser_options o = {0};
	o.alias_lookup = test_alias;
	return parse_ok_opts(text, &o);
}

Test(alias, simple_and_recursive)
{
	struct node *l = parse_alias("ll x");
	struct node *n = first(l);
	cr_assert_eq(n->u.simple.nwords, 4);
	assert_word(n->u.simple.words[0], "ls");
	assert_word(n->u.simple.words[1], "-F");
	assert_word(n->u.simple.words[2], "-l");
	ast_node_free(l);
	l = parse_alias("a");
	assert_word(first(l)->u.simple.words[0], "a");
	ast_node_free(l);
}

Test(alias, trailing_blank_and_keywords)
{
	struct node *l = parse_alias("s ll; iff echo; fi");
	struct node *n = first(l);
	assert_word(n->u.simple.words[0], "sudo");
	assert_word(n->u.simple.words[1], "ls");
	cr_assert_eq(l->u.list.items[1].node->kind, NODE_IF);
	ast_node_free(l);
}

Test(alias, not_for_quoted_or_arguments)
{
	struct node *l = parse_alias("'ll' ll; \\ll");
	struct node *n = first(l);
	cr_assert_eq(n->u.simple.nwords, 2);
	assert_word(n->u.simple.words[1], "ll");
	cr_assert_eq(l->u.list.items[1].node->u.simple.nwords, 1);
	ast_node_free(l);
}

Test(alias, off_without_lookup)
{
	struct node *l = parse_ok("ll");
	assert_word(first(l)->u.simple.words[0], "ll");
	ast_node_free(l);
}

/* ---- errors ------------------------------------------------------------- */

struct err_case {
	const char *text;
	const char *message;
	unsigned line, col;
	bool incomplete;
};

Test(errors, messages_positions_incomplete)
{
	const struct err_case cases[] = {
		{"echo )", "syntax error near unexpected token `)'", 1, 6, false},
		{"if true; then\n", "syntax error: unexpected end of file", 2, 1, true},
		{"echo \"abc", "unexpected EOF while looking for matching `\"'", 1, 10, true},
		{"echo 'abc", "unexpected EOF while looking for matching `''", 1, 10, true},
		{"echo $(ls", "unexpected EOF while looking for matching `)'", 1, 10, true},
		{"a |", "syntax error: unexpected end of file", 1, 4, true},
		{"a &&", "syntax error: unexpected end of file", 1, 5, true},
		{"x\nfi", "syntax error near unexpected token `fi'", 2, 1, false},
		{"if; then fi", "syntax error near unexpected token `;'", 1, 3, false},
		{"{ }", "syntax error near unexpected token `}'", 1, 3, false},
		{"echo ${x", "unexpected EOF while looking for matching `}'", 1, 9, true},
		{"echo a;;", "syntax error near unexpected token `;;'", 1, 7, false},
		{"a; ;", "syntax error near unexpected token `;'", 1, 4, false},
		{"echo `ls", "unexpected EOF while looking for matching ``'", 1, 9, true},
		{"(a", "syntax error: unexpected end of file", 1, 3, true},
		{"case x in", "syntax error: unexpected end of file", 1, 10, true},
		{"echo ${x@Z}", "bad substitution", 1, 6, false},
		{"a\n\n  )", "syntax error near unexpected token `)'", 3, 3, false},
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		struct parse_error e = parse_err(cases[i].text);
		cr_expect_str_eq(e.message, cases[i].message, "[%s]", cases[i].text);
		cr_expect_eq(e.pos.line, cases[i].line, "[%s] line %u", cases[i].text, e.pos.line);
		cr_expect_eq(e.pos.col, cases[i].col, "[%s] col %u", cases[i].text, e.pos.col);
		cr_expect_eq(e.incomplete, cases[i].incomplete, "[%s]", cases[i].text);
		free(e.message);
	}
}

Test(errors, parser_next_stops_after_error)
{
	const char *text = "echo ok\necho )\necho never\n";
	struct parser *p = parser_create(text, strlen(text), NULL);
	struct node *n;
	cr_assert_eq(parser_next(p, &n), 1);
	ast_node_free(n);
	cr_assert_eq(parser_next(p, &n), -1);
	cr_assert_not_null(parser_error(p));
	cr_assert_eq(parser_error(p)->pos.line, 2);
	cr_assert_eq(parser_next(p, &n), -1);
	parser_destroy(p);
}

Test(errors, first_line_option)
{
	struct parser_options o = {0};
	o.first_line = 10;
	struct node *n;
	struct parse_error e;
	cr_assert_eq(parse_program("a\n)", 3, &o, &n, &e), -1);
	cr_assert_eq(e.pos.line, 11);
	free(e.message);
}

static char *repeat(const char *s, size_t n, const char *mid, const char *close)
{
	size_t ls = strlen(s), lc = strlen(close), lm = strlen(mid);
	char *out = malloc(n * (ls + lc) + lm + 1);
	char *q = out;
	for (size_t i = 0; i < n; i++, q += ls)
		memcpy(q, s, ls);
	memcpy(q, mid, lm);
	q += lm;
	for (size_t i = 0; i < n; i++, q += lc)
		memcpy(q, close, lc);
	*q = '\0';
	return out;
}

Test(errors, deep_nesting_is_an_error)
{
	const char *opens[] = {"( ", "$(", "{ ", "\"$(", "${x:-", "[[ ( "};
	const char *closes[] = {" )", ")", "; }", ")\"", "}", " ) ]]"};
	for (size_t i = 0; i < 6; i++) {
		char *text = repeat(opens[i], 10000, "true", closes[i]);
		if (i == 5) {
			/* One [[ with deeply nested parentheses. */
			free(text);
			char *inner = repeat("( ", 10000, "a", " )");
			text = malloc(strlen(inner) + 8);
			sprintf(text, "[[ %s ]]", inner);
			free(inner);
		}
		struct node *n = NULL;
		struct parse_error e;
		int r = parse_program(text, strlen(text), NULL, &n, &e);
		cr_assert_eq(r, -1, "%s", opens[i]);
		cr_expect_str_eq(e.message, "too deeply nested", "%s", opens[i]);
		free(e.message);
		free(text);
	}
}

Test(errors, nesting_below_the_limit_is_fine)
{
	char *text = repeat("( ", 200, "true", " )");
	struct node *l = parse_ok(text);
	ast_node_free(l);
	free(text);
}

Test(errors, nul_bytes_do_not_crash)
{
	const char text[] = "echo a\0b; (\0)";
	struct node *n = NULL;
	struct parse_error e;
	if (parse_program(text, sizeof text - 1, NULL, &n, &e) == 0)
		ast_node_free(n);
	else
		free(e.message);
}

Test(errors, incomplete_trailing_continuation)
{
	const char *text = "echo a \\\n";
	struct parser *p = parser_create(text, strlen(text), NULL);
	struct node *n;
	cr_assert_eq(parser_next(p, &n), -1);
	cr_assert(parser_error(p)->incomplete);
	parser_destroy(p);
}

/* What an incomplete parse waits for: a line-by-line reader parses again
 * only when a line holds it, so each must be truly needed to end it. */
Test(errors, incomplete_waits_for)
{
	struct {
		const char *text, *wait;
		bool line, strip;
	} cases[] = {
		{"cat <<EOF\nbody\n", "EOF", true, false},
		{"cat <<-'E O'\nbody\n", "E O", true, true},
		{"cat <<A <<B\na\nA\nb\n", "B", true, false},
		{"echo 'open\n", "'", false, false},
		{"echo $'open\n", "'", false, false},
		{"echo \"open\n", "\"", false, false},
		{"echo `open\n", "`", false, false},
		{"echo $(open\n", ")", false, false},
		{"echo ${x:-\n", "}", false, false},
		{"if true; then\n", "fi", false, false},
		{"if true; then echo \"$(\n", ")", false, false},
		{"while :; do\n", "done", false, false},
		{"until :; do\n", "done", false, false},
		{"case x in\n", "esac", false, false},
		{"{ echo\n", "}", false, false},
		{"( echo\n", ")", false, false},
		{"[[ -n x\n", "]]", false, false},
		{"if true; then for i in 1; do\n", "fi", false, false}, /* for: `{ }` may end it */
		{"echo a &&\n", "", false, false},
		{"echo a |\n", "", false, false},
		{"echo a \\\n", "", false, false},
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		struct parser_options o = {0};
		struct parser *p = parser_create(cases[i].text, strlen(cases[i].text), &o);
		struct node *n = NULL;
		cr_assert_eq(parser_next(p, &n), -1, "[%s]", cases[i].text);
		const struct parse_error *e = parser_error(p);
		cr_expect(e->incomplete, "[%s]", cases[i].text);
		cr_expect_str_eq(e->wait_for, cases[i].wait, "[%s]", cases[i].text);
		if (cases[i].wait[0]) {
			cr_expect_eq(e->wait_line, cases[i].line, "[%s]", cases[i].text);
			cr_expect_eq(e->wait_strip, cases[i].strip, "[%s]", cases[i].text);
		}
		parser_destroy(p);
	}
}

/* ---- printer and copies ------------------------------------------------- */

static const char *const round_trip_cases[] = {
	"echo hello world",
	"a=1 b[2]+=x c=(1 \"2 3\") cmd arg >out 2>&1 <in",
	"echo \"a $b ${c:-d e} $(f g) `h` $((1 + 2))\" 'x y' $'\\t\\n' \\$z",
	"if a; then b; elif c; then d; else e; fi",
	"while a; do b & done; until c; do d; done",
	"for x in a b c; do echo $x; done; for y; do :; done",
	"for ((i = 0; i < 3; i++)); do echo; done",
	"case $x in a | b) one ;; c) two ;& *) ;;& esac",
	"f() { echo; } >/dev/null; function g { :; }",
	"[[ -f x && ( a == b* || ! $c =~ ^(a|b)$ ) ]] || [[ a < b ]]",
	"(( x = (1 + 2) * 3 ))",
	"! time a | b |& c && d || e &",
	"cat <<EOF; cat <<-'X'\nbody $x \\$y\nEOF\nquoted $z\nX\necho after",
	"x=$(cat <<E\ninner\nE\n)",
	"echo ${#x} ${!x} ${!p*} ${!a[@]} ${a[$i + 1]} ${x: -1} ${x:1:2} ${x//a/b} ${x^^} ${x,}",
	"echo $( (sub) ) <(a) >(b) {a,b} ~/x",
	"echo \"$1\"x ${1}0 $a${b}c",
	"( a; b ) >x &",
	"declare -a a=(x y)",
	"echo '' \"\" a''b",
	"{ a && b; } || c",
	"echo \\# a\\ b '#'",
	"if cat <<EOF; then\nx\nEOF\necho; fi",
};

Test(printer, round_trip_is_stable)
{
	for (size_t i = 0; i < sizeof round_trip_cases / sizeof round_trip_cases[0]; i++) {
		struct node *a = parse_ok(round_trip_cases[i]);
		char *pa = print(a);
		struct node *b = parse_ok(pa);
		char *pb = print(b);
		cr_expect_str_eq(pa, pb, "case %zu: [%s]", i, round_trip_cases[i]);
		struct node *c = ast_node_copy(b);
		char *pc = print(c);
		cr_expect_str_eq(pb, pc, "copy of case %zu", i);
		ast_node_free(a);
		ast_node_free(b);
		ast_node_free(c);
		free(pa);
		free(pb);
		free(pc);
	}
}

Test(printer, exact_forms)
{
	struct { const char *in, *out; } cases[] = {
		{"echo   a\tb", "echo a b"},
		{"if a\nthen b\nfi", "if a; then b; fi"},
		{"a&&b||c", "a && b || c"},
		{"{ a; }", "{ a; }"},
		{"(a)", "(a)"},
		{"f(){ :;}", "f() { :; }"},
		{"cat <<E\nx\nE", "cat <<E\nx\nE\n"},
		{"echo ${x}y $x-", "echo ${x}y $x-"},
		{"x=$(a)", "x=$(a)"},
		{"echo `a`", "echo $(a)"},
		{"case x in a) b;; esac", "case x in (a) b ;; esac"},
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		struct node *n = parse_ok(cases[i].in);
		char *s = print(n);
		cr_expect_str_eq(s, cases[i].out, "[%s]", cases[i].in);
		free(s);
		ast_node_free(n);
	}
}

Test(printer, word_literal_value)
{
	struct node *l = parse_ok("echo a\"b\"'c'\\d $x");
	assert_word(first(l)->u.simple.words[1], "abcd");
	char *s = NULL;
	cr_assert_not(ast_word_literal_value(first(l)->u.simple.words[2], &s));
	ast_node_free(l);
	ast_node_free(NULL);
	ast_word_free(NULL);
	ast_cond_free(NULL);
}

Test(printer, long_and_or_chain)
{
	size_t n = 100000;
	char *text = malloc(n * 8 + 1);
	char *q = text;
	for (size_t i = 0; i < n; i++)
		q += sprintf(q, i ? " && true" : "true");
	struct node *l = parse_ok(text);
	char *s = print(l);
	cr_assert_str_eq(s, text);
	struct node *c = ast_node_copy(l);
	ast_node_free(c);
	free(s);
	ast_node_free(l);
	free(text);
}

Test(misc, parse_is_name)
{
	cr_assert(parse_is_name("a_1", 3));
	cr_assert(parse_is_name("_", 1));
	cr_assert_not(parse_is_name("1a", 2));
	cr_assert_not(parse_is_name("a-b", 3));
	cr_assert_not(parse_is_name("", 0));
}

Test(misc, huge_line_parses)
{
	size_t n = 1 << 20;
	char *text = malloc(n + 16);
	memcpy(text, "echo ", 5);
	memset(text + 5, 'a', n);
	text[n + 5] = '\0';
	struct node *l = parse_ok(text);
	cr_assert_eq(first(l)->u.simple.words[1]->parts[0].u.literal.len, n);
	ast_node_free(l);
	free(text);
}

/* A record's line text keeps the head of a very long line and says the
 * rest is left out; a short line is printed whole. */
Test(printer, line_text_of_a_long_line_is_cut)
{
	struct strbuf src;
	strbuf_init(&src);
	strbuf_adds(&src, "if false; then\n");
	for (int i = 0; i < 20000; i++)
		strbuf_addf(&src, "echo line%d\n", i);
	strbuf_adds(&src, "fi\n");
	struct node *n = parse_ok(src.data);
	char *text = ast_line_text(n);
	size_t len = strlen(text);
	cr_assert_gt(len, AST_LINE_TEXT_MAX);
	cr_assert_lt(len, AST_LINE_TEXT_MAX + 64);
	cr_assert_str_eq(text + len - 4, " ...");
	cr_assert_eq(strncmp(text, "if false; then echo line0; echo line1;", 38), 0, "%.60s", text);
	free(text);
	ast_node_free(n);
	strbuf_free(&src);

	n = parse_ok("echo a | tr a b");
	text = ast_line_text(n);
	cr_assert_str_eq(text, "echo a | tr a b");
	free(text);
	ast_node_free(n);
}
