/* Word expansion, field splitting, globbing and pattern matching. Words
 * are built by hand so these tests do not depend on the parser. */
#include <criterion/criterion.h>

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "shell/shell.h"
#include "shell/parser.h"
#include "shell/vars.h"
#include "shell/options.h"
#include "shell/expand.h"
#include "shell/pattern.h"

static struct shell sh;

static void setup(void)
{
	char *env[] = {"HOME=/home/tester", NULL};
	shell_init(&sh, env);
}

static void teardown(void)
{
	shell_free(&sh);
}

/* ---- building words ------------------------------------------------------- */

static struct word_part lit_part(const char *text, enum quote_style q)
{
	struct word_part p;
	memset(&p, 0, sizeof p);
	p.kind = WORD_LITERAL;
	p.u.literal.text = strdup(text);
	p.u.literal.len = strlen(text);
	p.u.literal.quote = q;
	return p;
}

static struct word *word_of(size_t n, const struct word_part *parts)
{
	struct word *w = calloc(1, sizeof *w);
	w->parts = calloc(n ? n : 1, sizeof *w->parts);
	memcpy(w->parts, parts, n * sizeof *parts);
	w->nparts = n;
	return w;
}

static struct word_part param_part(const char *name, enum param_op op, bool colon, struct word *arg,
                                   struct word *arg2)
{
	struct word_part p;
	memset(&p, 0, sizeof p);
	p.kind = WORD_PARAM;
	p.u.param = calloc(1, sizeof *p.u.param);
	p.u.param->name = strdup(name);
	p.u.param->op = op;
	p.u.param->colon = colon;
	p.u.param->braced = true;
	p.u.param->arg = arg;
	p.u.param->arg2 = arg2;
	return p;
}

static struct word_part dq_part(size_t n, const struct word_part *parts)
{
	struct word_part p;
	memset(&p, 0, sizeof p);
	p.kind = WORD_DQUOTE;
	p.u.dquote = word_of(n, parts);
	return p;
}

static struct word *lit(const char *text)
{
	struct word_part p = lit_part(text, QUOTE_NONE);
	return word_of(1, &p);
}

static struct word *sq(const char *text)
{
	struct word_part p = lit_part(text, QUOTE_SINGLE);
	return word_of(1, &p);
}

static struct word *var(const char *name)
{
	struct word_part p = param_part(name, PARAM_PLAIN, false, NULL, NULL);
	return word_of(1, &p);
}

static struct word *dq_var(const char *name)
{
	struct word_part p = param_part(name, PARAM_PLAIN, false, NULL, NULL);
	struct word_part d = dq_part(1, &p);
	return word_of(1, &d);
}

static struct word *op(const char *name, enum param_op o, bool colon, struct word *arg, struct word *arg2)
{
	struct word_part p = param_part(name, o, colon, arg, arg2);
	return word_of(1, &p);
}

/* Expands one word into fields joined as "[a][b]" for easy comparison. */
static char *fields_of(struct word *w)
{
	struct strvec out;
	strvec_init(&out);
	struct word *ws[] = {w};
	int r = expand_words(&sh, ws, 1, &out);
	cr_assert_eq(r, 0);
	struct strbuf sb;
	strbuf_init(&sb);
	for (size_t i = 0; i < out.len; i++)
		strbuf_addf(&sb, "[%s]", out.items[i]);
	strvec_free(&out);
	return strbuf_detach(&sb);
}

#define assert_fields(w, expected) do { \
		char *got_ = fields_of(w); \
		cr_assert_str_eq(got_, expected); \
		free(got_); \
	} while (0)

static void set_params(size_t n, ...)
{
	char *args[16];
	va_list ap;
	va_start(ap, n);
	for (size_t i = 0; i < n; i++)
		args[i] = va_arg(ap, char *);
	va_end(ap);
	shell_set_positional(&sh, args, n);
}

TestSuite(expand, .init = setup, .fini = teardown);

Test(expand, literals_and_quotes)
{
	assert_fields(lit("hello"), "[hello]");
	assert_fields(sq(""), "[]");
	assert_fields(sq("a b"), "[a b]");
	vars_set(&sh, "empty", "", 0);
	assert_fields(var("empty"), "");
	assert_fields(dq_var("empty"), "[]");
	assert_fields(var("unset_var"), "");
}

Test(expand, field_splitting_default_ifs)
{
	vars_set(&sh, "x", "  a  b\tc \n", 0);
	assert_fields(var("x"), "[a][b][c]");
	assert_fields(dq_var("x"), "[  a  b\tc \n]");
}

Test(expand, field_splitting_custom_ifs)
{
	vars_set(&sh, "IFS", ":", 0);
	vars_set(&sh, "x", "a::b:", 0);
	assert_fields(var("x"), "[a][][b]");
	vars_set(&sh, "x", ":a", 0);
	assert_fields(var("x"), "[][a]");
	vars_set(&sh, "IFS", ": ", 0);
	vars_set(&sh, "x", "a : b  c", 0);
	assert_fields(var("x"), "[a][b][c]");
	vars_set(&sh, "IFS", "", 0);
	vars_set(&sh, "x", "a b", 0);
	assert_fields(var("x"), "[a b]");
	vars_unset(&sh, "IFS");
	vars_set(&sh, "x", "a\tb", 0);
	assert_fields(var("x"), "[a][b]");
}

Test(expand, split_joins_with_adjacent_text)
{
	vars_set(&sh, "x", "1 2", 0);
	struct word_part parts[] = {lit_part("a", QUOTE_NONE), param_part("x", PARAM_PLAIN, false, NULL, NULL),
	                            lit_part("b", QUOTE_NONE)};
	assert_fields(word_of(3, parts), "[a1][2b]");
	/* a quoted empty string before IFS whitespace makes its own field */
	vars_set(&sh, "y", " a", 0);
	struct word_part parts2[] = {lit_part("", QUOTE_DOUBLE), param_part("y", PARAM_PLAIN, false, NULL, NULL)};
	assert_fields(word_of(2, parts2), "[][a]");
}

Test(expand, positional_at_and_star)
{
	set_params(3, "a b", "", "c");
	assert_fields(dq_var("@"), "[a b][][c]");
	assert_fields(var("@"), "[a][b][c]");
	assert_fields(dq_var("*"), "[a b  c]");
	vars_set(&sh, "IFS", ",", 0);
	assert_fields(dq_var("*"), "[a b,,c]");
	set_params(0);
	assert_fields(dq_var("@"), "");
	assert_fields(dq_var("*"), "[]");
	set_params(2, "x", "y");
	struct word_part inner[] = {lit_part("<", QUOTE_DOUBLE), param_part("@", PARAM_PLAIN, false, NULL, NULL),
	                            lit_part(">", QUOTE_DOUBLE)};
	struct word_part d = dq_part(3, inner);
	assert_fields(word_of(1, &d), "[<x][y>]");
	assert_fields(var("#"), "[2]");
	assert_fields(var("1"), "[x]");
}

Test(expand, defaults_and_alternates)
{
	vars_set(&sh, "e", "", 0);
	vars_set(&sh, "s", "val", 0);
	assert_fields(op("u", PARAM_DEFAULT, false, lit("d"), NULL), "[d]");
	assert_fields(op("e", PARAM_DEFAULT, false, lit("d"), NULL), "");
	assert_fields(op("e", PARAM_DEFAULT, true, lit("d"), NULL), "[d]");
	assert_fields(op("s", PARAM_DEFAULT, true, lit("d"), NULL), "[val]");
	assert_fields(op("s", PARAM_ALTERNATE, false, lit("alt"), NULL), "[alt]");
	assert_fields(op("u", PARAM_ALTERNATE, false, lit("alt"), NULL), "");
	assert_fields(op("e", PARAM_ALTERNATE, true, lit("alt"), NULL), "");
	assert_fields(op("new", PARAM_ASSIGN, true, lit("assigned"), NULL), "[assigned]");
	cr_assert_str_eq(vars_get(&sh, "new"), "assigned");
	/* the word of ${x:-a b} is split when unquoted */
	struct word_part two = lit_part("a b", QUOTE_SINGLE);
	assert_fields(op("u", PARAM_DEFAULT, false, word_of(1, &two), NULL), "[a b]");
	vars_set(&sh, "ab", "1 2", 0);
	assert_fields(op("u", PARAM_DEFAULT, false, var("ab"), NULL), "[1][2]");
}

Test(expand, error_operator)
{
	sh.opt.interactive = false;
	struct strvec out;
	strvec_init(&out);
	struct word *ws[] = {op("nope", PARAM_ERROR, false, lit("custom message"), NULL)};
	cr_assert_eq(expand_words(&sh, ws, 1, &out), -1);
	cr_assert_eq(sh.jump, JUMP_EXIT);
	cr_assert_eq(sh.exit_status, 1);
	strvec_free(&out);
}

Test(expand, nounset)
{
	sh.opt.nounset = true;
	sh.opt.interactive = true;
	struct strvec out;
	strvec_init(&out);
	struct word *ws[] = {var("nope")};
	cr_assert_eq(expand_words(&sh, ws, 1, &out), -1);
	struct word *ok[] = {var("@"), op("nope", PARAM_DEFAULT, false, lit("x"), NULL)};
	cr_assert_eq(expand_words(&sh, ok, 2, &out), 0);
	cr_assert_eq(out.len, 1);
	strvec_free(&out);
}

Test(expand, length_and_substring)
{
	vars_set(&sh, "s", "hello", 0);
	assert_fields(op("s", PARAM_LENGTH, false, NULL, NULL), "[5]");
	vars_set(&sh, "u", "h\xc3\xa9llo", 0);
	assert_fields(op("u", PARAM_LENGTH, false, NULL, NULL), "[5]");
	assert_fields(op("s", PARAM_SUBSTRING, false, lit("1"), lit("3")), "[ell]");
	assert_fields(op("s", PARAM_SUBSTRING, false, lit("-3"), NULL), "[llo]");
	assert_fields(op("s", PARAM_SUBSTRING, false, lit("1"), lit("-1")), "[ell]");
	assert_fields(op("s", PARAM_SUBSTRING, false, lit("9"), NULL), "");
	assert_fields(op("u", PARAM_SUBSTRING, false, lit("1"), lit("1")), "[\xc3\xa9]");
	set_params(3, "a", "b", "c");
	assert_fields(op("@", PARAM_SUBSTRING, false, lit("2"), NULL), "[b][c]");
	assert_fields(op("@", PARAM_SUBSTRING, false, lit("-1"), NULL), "[c]");
}

Test(expand, pattern_removal)
{
	vars_set(&sh, "p", "/usr/local/bin/file.tar.gz", 0);
	assert_fields(op("p", PARAM_REMOVE_SMALL_PREFIX, false, lit("*/"), NULL), "[usr/local/bin/file.tar.gz]");
	assert_fields(op("p", PARAM_REMOVE_LARGE_PREFIX, false, lit("*/"), NULL), "[file.tar.gz]");
	assert_fields(op("p", PARAM_REMOVE_SMALL_SUFFIX, false, lit(".*"), NULL), "[/usr/local/bin/file.tar]");
	assert_fields(op("p", PARAM_REMOVE_LARGE_SUFFIX, false, lit(".*"), NULL), "[/usr/local/bin/file]");
	/* a quoted pattern is literal */
	vars_set(&sh, "q", "a*b", 0);
	assert_fields(op("q", PARAM_REMOVE_SMALL_PREFIX, false, sq("a*"), NULL), "[b]");
	assert_fields(op("q", PARAM_REMOVE_SMALL_PREFIX, false, sq("*"), NULL), "[a*b]");
}

Test(expand, replacement)
{
	vars_set(&sh, "s", "banana", 0);
	assert_fields(op("s", PARAM_REPLACE, false, lit("an"), lit("AN")), "[bANana]");
	assert_fields(op("s", PARAM_REPLACE_ALL, false, lit("an"), lit("AN")), "[bANANa]");
	assert_fields(op("s", PARAM_REPLACE_PREFIX, false, lit("ba"), lit("X")), "[Xnana]");
	assert_fields(op("s", PARAM_REPLACE_SUFFIX, false, lit("na"), lit("X")), "[banaX]");
	assert_fields(op("s", PARAM_REPLACE_ALL, false, lit("a"), NULL), "[bnn]");
	assert_fields(op("s", PARAM_REPLACE_PREFIX, false, NULL, lit("pre-")), "[pre-banana]");
	assert_fields(op("s", PARAM_REPLACE, false, lit("n*"), lit("<&>")), "[ba<nana>]");
	assert_fields(op("s", PARAM_REPLACE, false, lit("b"), sq("&")), "[&anana]");
}

Test(expand, case_conversion)
{
	vars_set(&sh, "s", "hello World", 0);
	assert_fields(dq_var("s"), "[hello World]");
	struct word_part p = param_part("s", PARAM_UPPER_ALL, false, NULL, NULL);
	struct word_part d = dq_part(1, &p);
	assert_fields(word_of(1, &d), "[HELLO WORLD]");
	p = param_part("s", PARAM_UPPER_FIRST, false, NULL, NULL);
	d = dq_part(1, &p);
	assert_fields(word_of(1, &d), "[Hello World]");
	p = param_part("s", PARAM_LOWER_ALL, false, NULL, NULL);
	d = dq_part(1, &p);
	assert_fields(word_of(1, &d), "[hello world]");
}

Test(expand, arrays)
{
	char *vals[] = {"x", "y z", "w"};
	vars_set_array(&sh, "a", vals, 3, false);
	struct word_part p = param_part("a", PARAM_PLAIN, false, NULL, NULL);
	p.u.param->index = lit("@");
	struct word_part d = dq_part(1, &p);
	assert_fields(word_of(1, &d), "[x][y z][w]");
	assert_fields(var("a"), "[x]");
	p = param_part("a", PARAM_LENGTH, false, NULL, NULL);
	p.u.param->index = lit("@");
	assert_fields(word_of(1, &p), "[3]");
	p = param_part("a", PARAM_PLAIN, false, NULL, NULL);
	p.u.param->index = lit("1");
	assert_fields(word_of(1, &p), "[y][z]");
	p.u.param->index = lit("-1");
	assert_fields(word_of(1, &p), "[w]");
	vars_unset_element(&sh, "a", 1);
	p = param_part("a", PARAM_KEYS, false, NULL, NULL);
	p.u.param->index = lit("@");
	assert_fields(word_of(1, &p), "[0][2]");
}

Test(expand, indirect)
{
	vars_set(&sh, "target", "value", 0);
	vars_set(&sh, "ref", "target", 0);
	struct word_part p = param_part("ref", PARAM_PLAIN, false, NULL, NULL);
	p.u.param->indirect = true;
	assert_fields(word_of(1, &p), "[value]");
}

Test(expand, prefix_names)
{
	vars_set(&sh, "pre_a", "1", 0);
	vars_set(&sh, "pre_b", "2", 0);
	struct word_part p = param_part("pre_", PARAM_PREFIX_NAMES, false, NULL, NULL);
	p.u.param->at = true;
	assert_fields(word_of(1, &p), "[pre_a][pre_b]");
}

Test(expand, tilde)
{
	assert_fields(lit("~"), "[/home/tester]");
	assert_fields(lit("~/x"), "[/home/tester/x]");
	assert_fields(lit("a~"), "[a~]");
	assert_fields(sq("~"), "[~]");
	assert_fields(lit("~no_such_user_here/x"), "[~no_such_user_here/x]");
	char *s = expand_word_str(&sh, lit("a:~/b"), EXPAND_ASSIGN);
	cr_assert_str_eq(s, "a:/home/tester/b");
	free(s);
	s = expand_word_str(&sh, lit("x=~/b"), EXPAND_ASSIGN);
	cr_assert_str_eq(s, "x=/home/tester/b");
	free(s);
	s = expand_word_str(&sh, lit("a:~/b"), 0);
	cr_assert_str_eq(s, "a:~/b");
	free(s);
}

Test(expand, braces)
{
	assert_fields(lit("{a,b,c}"), "[a][b][c]");
	assert_fields(lit("x{a,b}y"), "[xay][xby]");
	assert_fields(lit("{a,{b,c}}"), "[a][b][c]");
	assert_fields(lit("{1..4}"), "[1][2][3][4]");
	assert_fields(lit("{4..1..2}"), "[4][2]");
	assert_fields(lit("{a..c}"), "[a][b][c]");
	assert_fields(lit("{01..03}"), "[01][02][03]");
	assert_fields(lit("{-1..1}"), "[-1][0][1]");
	assert_fields(lit("{a}"), "[{a}]");
	assert_fields(lit("{a,b"), "[{a,b]");
	assert_fields(lit("{}"), "[{}]");
	assert_fields(lit("{a..}"), "[{a..}]");
	assert_fields(lit("{a,b}{1,2}"), "[a1][a2][b1][b2]");
	assert_fields(lit("{,x}"), "[x]");
	/* quoted braces are literal */
	assert_fields(sq("{a,b}"), "[{a,b}]");
	struct word_part parts[] = {lit_part("{a,", QUOTE_NONE), lit_part("b c", QUOTE_SINGLE), lit_part("}", QUOTE_NONE)};
	assert_fields(word_of(3, parts), "[a][b c]");
}

Test(expand, globbing)
{
	char dir[] = "/tmp/sbsh_glob_XXXXXX";
	cr_assert_not_null(mkdtemp(dir));
	char *cwd = getcwd(NULL, 0);
	cr_assert_eq(chdir(dir), 0);
	fclose(fopen("b.txt", "w"));
	fclose(fopen("a.txt", "w"));
	fclose(fopen(".hidden.txt", "w"));
	mkdir("sub", 0755);
	fclose(fopen("sub/c.txt", "w"));
	assert_fields(lit("*.txt"), "[a.txt][b.txt]");
	assert_fields(lit("*/*.txt"), "[sub/c.txt]");
	assert_fields(lit("*/"), "[sub/]");
	assert_fields(lit("?.txt"), "[a.txt][b.txt]");
	assert_fields(lit("[a].txt"), "[a.txt]");
	assert_fields(lit("*.none"), "[*.none]");
	assert_fields(sq("*.txt"), "[*.txt]");
	vars_set(&sh, "pat", "*.txt", 0);
	assert_fields(var("pat"), "[a.txt][b.txt]");
	assert_fields(dq_var("pat"), "[*.txt]");
	sh.opt.dotglob = true;
	assert_fields(lit("*.txt"), "[.hidden.txt][a.txt][b.txt]");
	sh.opt.dotglob = false;
	sh.opt.nullglob = true;
	assert_fields(lit("*.none"), "");
	sh.opt.nullglob = false;
	sh.opt.noglob = true;
	assert_fields(lit("*.txt"), "[*.txt]");
	sh.opt.noglob = false;
	unlink("sub/c.txt");
	rmdir("sub");
	unlink("a.txt");
	unlink("b.txt");
	unlink(".hidden.txt");
	cr_assert_eq(chdir(cwd), 0);
	rmdir(dir);
	free(cwd);
}

Test(expand, word_str_pattern_escapes_quoted)
{
	struct word_part parts[] = {lit_part("*", QUOTE_NONE), lit_part("*?", QUOTE_SINGLE)};
	char *s = expand_word_str(&sh, word_of(2, parts), EXPAND_PATTERN);
	cr_assert_str_eq(s, "*\\*\\?");
	free(s);
	set_params(2, "a", "b");
	s = expand_word_str(&sh, dq_var("@"), 0);
	cr_assert_str_eq(s, "a b");
	free(s);
}

/* ---- words from the real parser --------------------------------------- */

static struct node *parsed;

/* The words of `text` parsed as one simple command (freed at teardown). */
static struct word *const *parse_words(const char *text, size_t *n)
{
	struct parser_options opts = {.first_line = 1};
	struct parse_error err = {0};
	if (parsed)
		ast_node_free(parsed);
	parsed = NULL;
	char *line = xasprintf("echo %s", text);
	cr_assert_eq(parse_program(line, strlen(line), &opts, &parsed, &err), 0, "parse error in %s", text);
	free(line);
	const struct node *node = parsed;
	while (node->kind != NODE_SIMPLE) {
		if (node->kind == NODE_LIST)
			node = node->u.list.items[0].node;
		else if (node->kind == NODE_PIPELINE)
			node = node->u.pipeline.cmds[0];
		else if (node->kind == NODE_AND_OR)
			node = node->u.and_or.left;
		else
			cr_assert_fail("not a simple command: %s", text);
	}
	*n = node->u.simple.nwords - 1;
	return node->u.simple.words + 1;
}

static char *expand_text(const char *text)
{
	size_t n;
	struct word *const *words = parse_words(text, &n);
	struct strvec out;
	strvec_init(&out);
	cr_assert_eq(expand_words(&sh, words, n, &out), 0, "expansion failed: %s", text);
	struct strbuf sb;
	strbuf_init(&sb);
	for (size_t i = 0; i < out.len; i++)
		strbuf_addf(&sb, "[%s]", out.items[i]);
	strvec_free(&out);
	return strbuf_detach(&sb);
}

#define assert_expands(text, expected) do { \
		char *got_ = expand_text(text); \
		cr_assert_str_eq(got_, expected, "%s -> %s", text, got_); \
		free(got_); \
	} while (0)

static void parsed_teardown(void)
{
	if (parsed)
		ast_node_free(parsed);
	parsed = NULL;
	shell_free(&sh);
}

TestSuite(parsed, .init = setup, .fini = parsed_teardown);

Test(parsed, command_substitution_strips_newlines_and_sets_status)
{
	sh.last_status = 0;
	assert_expands("x$(printf 'out\\n\\n'; exit 3)y", "[xouty]");
	cr_assert_eq(sh.last_status, 3);
	assert_expands("\"$(printf ' a  b ')\"", "[ a  b ]");
	assert_expands("$(printf ' a  b ')", "[a][b]");
}

Test(parsed, quoting_inside_braces)
{
	vars_set(&sh, "x", "a*b", 0);
	assert_expands("\"${x#a*}\"", "[*b]");
	assert_expands("\"${x#\"a*\"}\"", "[b]");
	assert_expands("${x#a\\*}", "[b]");
	assert_expands("\"${x/\\*/-}\"", "[a-b]");
	assert_expands("\"${u:-a b}\"", "[a b]");
	assert_expands("${u:-a b}", "[a][b]");
	vars_set(&sh, "y", "abc", 0);
	assert_expands("\"${y/b/[&]}\"", "[a[b]c]");
	assert_expands("\"${y/b/\\&}\"", "[a&c]");
}

Test(parsed, arithmetic_and_nesting)
{
	vars_set(&sh, "n", "4", 0);
	assert_expands("$((n * 2 + $n))", "[12]");
	assert_expands("${u:-$((1 + 1))}", "[2]");
	assert_expands("\"$(( $(echo 3) + 1 ))\"", "[4]");
}

Test(parsed, braces_with_expansions)
{
	vars_set(&sh, "v", "V", 0);
	assert_expands("{$v,x}", "[V][x]");
	assert_expands("a{1..3}b", "[a1b][a2b][a3b]");
	assert_expands("\"{a,b}\"", "[{a,b}]");
	assert_expands("~/{a,b}", "[/home/tester/a][/home/tester/b]");
	assert_expands("x=~/{a,b}", "[x=/home/tester/a][x=/home/tester/b]");
}

Test(parsed, array_subscripts)
{
	char *vals[] = {"zero", "one two", "three"};
	vars_set_array(&sh, "arr", vals, 3, false);
	vars_set(&sh, "i", "1", 0);
	assert_expands("\"${arr[@]}\"", "[zero][one two][three]");
	assert_expands("${arr[i+1]}", "[three]");
	assert_expands("\"${arr[$i]}\"", "[one two]");
	assert_expands("${#arr[@]} ${#arr[1]}", "[3][7]");
	assert_expands("\"${arr[@]:1}\"", "[one two][three]");
	assert_expands("\"${!arr[@]}\"", "[0][1][2]");
}

Test(expand, split_ifs_for_read)
{
	struct strvec out;
	strvec_init(&out);
	expand_split_ifs(&sh, "  one two\tthree  ", &out);
	cr_assert_eq(out.len, 3);
	cr_assert_str_eq(out.items[2], "three");
	strvec_free(&out);
}

/* ---- pattern_match --------------------------------------------------------- */

Test(pattern, basics)
{
	cr_assert(pattern_match("abc", "abc", 0));
	cr_assert_not(pattern_match("abc", "abd", 0));
	cr_assert(pattern_match("*", "", 0));
	cr_assert(pattern_match("a*c", "abbbc", 0));
	cr_assert(pattern_match("a?c", "abc", 0));
	cr_assert_not(pattern_match("a?c", "ac", 0));
	cr_assert(pattern_match("*.c", "x.c", 0));
	cr_assert_not(pattern_match("*.c", "x.h", 0));
	cr_assert(pattern_match("a\\*", "a*", 0));
	cr_assert_not(pattern_match("a\\*", "ab", 0));
}

Test(pattern, brackets)
{
	cr_assert(pattern_match("[abc]", "b", 0));
	cr_assert_not(pattern_match("[abc]", "d", 0));
	cr_assert(pattern_match("[!abc]", "d", 0));
	cr_assert(pattern_match("[^abc]", "d", 0));
	cr_assert(pattern_match("[a-z]x", "qx", 0));
	cr_assert(pattern_match("[]]", "]", 0));
	cr_assert(pattern_match("[!]]", "a", 0));
	cr_assert(pattern_match("[[:digit:]]*", "7up", 0));
	cr_assert_not(pattern_match("[[:alpha:]]", "1", 0));
	cr_assert(pattern_match("[a-]", "-", 0));
	cr_assert(pattern_match("[", "[", 0));
	cr_assert(pattern_match("[ab", "[ab", 0));
}

Test(pattern, flags)
{
	cr_assert(pattern_match("ABC", "abc", PATTERN_NOCASE));
	cr_assert(pattern_match("[A-C]", "b", PATTERN_NOCASE));
	cr_assert_not(pattern_match("*", ".hidden", PATTERN_PERIOD));
	cr_assert(pattern_match(".*", ".hidden", PATTERN_PERIOD));
	cr_assert(pattern_match("*", ".hidden", 0));
}

Test(pattern, no_exponential_blowup)
{
	char s[200];
	memset(s, 'a', sizeof s - 1);
	s[sizeof s - 1] = '\0';
	cr_assert_not(pattern_match("*a*a*a*a*a*a*a*a*a*a*a*a*b", s, 0));
}

Test(pattern, magic_and_unescape)
{
	cr_assert(pattern_has_magic("a*"));
	cr_assert(pattern_has_magic("[x]"));
	cr_assert_not(pattern_has_magic("a\\*"));
	cr_assert_not(pattern_has_magic("plain"));
	char s[] = "a\\*b\\\\c";
	pattern_unescape(s);
	cr_assert_str_eq(s, "a*b\\c");
}

/* ---- variables, scopes, environment, options ----------------------------- */

TestSuite(vars, .init = setup, .fini = teardown);

static bool env_has(struct shell *s, const char *entry)
{
	for (char **e = vars_environ(s); *e; e++) {
		if (strcmp(*e, entry) == 0)
			return true;
	}
	return false;
}

Test(vars, defaults)
{
	cr_assert_str_eq(vars_get(&sh, "IFS"), " \t\n");
	cr_assert_str_eq(vars_get(&sh, "OPTIND"), "1");
	cr_assert_str_eq(vars_get(&sh, "PS2"), "> ");
	cr_assert_str_eq(vars_get(&sh, "PS4"), "+ ");
	cr_assert_not_null(vars_get(&sh, "PWD"));
	cr_assert(env_has(&sh, "HOME=/home/tester"));
}

Test(vars, scopes_and_locals)
{
	vars_set(&sh, "x", "global", 0);
	sh.func_depth = 1;
	vars_push_scope(&sh);
	cr_assert_eq(vars_make_local(&sh, "x"), 0);
	cr_assert_null(vars_get(&sh, "x"));
	vars_set(&sh, "x", "local", 0);
	vars_set(&sh, "y", "new global", 0);
	cr_assert_str_eq(vars_get(&sh, "x"), "local");
	vars_pop_scope(&sh);
	sh.func_depth = 0;
	cr_assert_str_eq(vars_get(&sh, "x"), "global");
	cr_assert_str_eq(vars_get(&sh, "y"), "new global");
	cr_assert_eq(vars_make_local(&sh, "z"), -1);
}

Test(vars, temporary_assignments_are_exported)
{
	vars_push_scope(&sh);
	vars_set_temp(&sh, "TMPV", "1");
	cr_assert(env_has(&sh, "TMPV=1"));
	vars_pop_scope(&sh);
	cr_assert_not(env_has(&sh, "TMPV=1"));
	cr_assert_null(vars_get(&sh, "TMPV"));
}

Test(vars, export_and_cache)
{
	vars_set(&sh, "E", "1", VAR_EXPORT);
	cr_assert(env_has(&sh, "E=1"));
	vars_set(&sh, "E", "2", 0);
	cr_assert(env_has(&sh, "E=2"));
	vars_set_flags(&sh, "E", 0, VAR_EXPORT);
	cr_assert_not(env_has(&sh, "E=2"));
	sh.opt.allexport = true;
	vars_set(&sh, "AUTO", "x", 0);
	cr_assert(env_has(&sh, "AUTO=x"));
}

Test(vars, readonly_and_names)
{
	vars_set(&sh, "R", "1", VAR_READONLY);
	cr_assert_eq(vars_set(&sh, "R", "2", 0), -1);
	cr_assert_eq(vars_unset(&sh, "R"), -1);
	cr_assert_str_eq(vars_get(&sh, "R"), "1");
	cr_assert_eq(vars_set(&sh, "1abc", "x", 0), -1);
	cr_assert_eq(vars_set(&sh, "a-b", "x", 0), -1);
}

Test(vars, case_conversion_and_arrays)
{
	vars_set_flags(&sh, "L", VAR_LOWER, 0);
	vars_set(&sh, "L", "MiXeD", 0);
	cr_assert_str_eq(vars_get(&sh, "L"), "mixed");
	vars_set_element(&sh, "A", 3, "three");
	struct var *v = vars_lookup(&sh, "A");
	cr_assert(v->flags & VAR_ARRAY);
	cr_assert_eq(v->array_len, 4);
	cr_assert_null(v->array[0]);
	vars_set_element(&sh, "A", -1, "last");
	cr_assert_str_eq(v->array[3], "last");
	cr_assert_eq(vars_set_element(&sh, "A", -9, "bad"), -1);
	char *more[] = {"four"};
	vars_set_array(&sh, "A", more, 1, true);
	cr_assert_str_eq(vars_lookup(&sh, "A")->array[4], "four");
}

Test(vars, dynamic_variables)
{
	const char *r1 = vars_get(&sh, "RANDOM");
	cr_assert_not_null(r1);
	long n = strtol(r1, NULL, 10);
	cr_assert(n >= 0 && n < 32768);
	vars_set(&sh, "RANDOM", "42", 0);
	char *a = xstrdup(vars_get(&sh, "RANDOM"));
	vars_set(&sh, "RANDOM", "42", 0);
	cr_assert_str_eq(vars_get(&sh, "RANDOM"), a);
	free(a);
	sh.lineno = 17;
	cr_assert_str_eq(vars_get(&sh, "LINENO"), "17");
	vars_set(&sh, "SECONDS", "100", 0);
	cr_assert(strtol(vars_get(&sh, "SECONDS"), NULL, 10) >= 100);
}

Test(vars, quoting_for_reuse)
{
	struct strbuf sb;
	strbuf_init(&sb);
	vars_quote(&sb, "plain");
	strbuf_addc(&sb, ' ');
	vars_quote(&sb, "a b");
	strbuf_addc(&sb, ' ');
	vars_quote(&sb, "it's");
	strbuf_addc(&sb, ' ');
	vars_quote(&sb, "");
	cr_assert_str_eq(sb.data, "plain 'a b' 'it'\\''s' ''");
	strbuf_free(&sb);
}

Test(vars, options)
{
	cr_assert_eq(options_set_letter(&sh, 'e', true), 0);
	cr_assert(sh.opt.errexit);
	cr_assert_eq(options_set_name(&sh, "pipefail", true), 0);
	cr_assert(sh.opt.pipefail);
	cr_assert_eq(options_set_name(&sh, "nosuch", true), -1);
	cr_assert_eq(options_set_letter(&sh, 'Z', true), -1);
	char *dash = options_dollar_dash(&sh);
	cr_assert_not_null(strchr(dash, 'e'));
	free(dash);
}

Test(vars, prompt_expansion)
{
	vars_set(&sh, "NAME", "world", 0);
	sh.last_status = 5;
	char *p = expand_prompt(&sh, "hi $NAME \"q\" $(echo sub) $((1+1))> ");
	cr_assert_str_eq(p, "hi world \"q\" sub 2> ");
	free(p);
	cr_assert_eq(sh.last_status, 5);
	p = expand_prompt(&sh, "bad ${");
	cr_assert_str_eq(p, "bad ${");
	free(p);
}
