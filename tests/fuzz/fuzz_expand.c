/* libFuzzer harness for word expansion (expand.c, arith.c, pattern.c):
 * the input is parsed as a script and every word in it is expanded the way
 * the evaluator would, without running anything. Command substitution
 * "outputs" the printed text of its program and process substitution
 * yields a fixed path (both stubbed below: nothing is forked or opened).
 * Pathname expansion is only on for inputs that cannot name a path outside
 * the harness's own scratch directory (no / $ ` ~ \ < >), expanded in
 * that directory; otherwise -f. (A crash found there lands in it unless
 * -artifact_prefix is absolute, as run.sh passes it; a fuzzer that dies
 * leaves the directory behind in /tmp.)
 * Checks: no crash or leak, and a word of literals expands to its value. */
#include <fcntl.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "shell/parser.h"
#include "shell/shell.h"
#include "shell/vars.h"
#include "shell/expand.h"
#include "shell/arith.h"
#include "shell/pattern.h"
#include "shell/exec.h"
#include "shell/cmdhash.h"

/* ---- stubs for what expand.c and vars.c call in the rest of the shell --- */

int exec_cmdsub(struct shell *sh, const struct node *program, struct strbuf *out)
{
	(void)sh;
	ast_print_node(out, program);
	strbuf_addc(out, '\n');
	return 0;
}

int exec_procsub(struct shell *sh, const struct node *program, bool output, char **path)
{
	(void)sh;
	(void)program;
	*path = xstrdup(output ? "/dev/fd/62" : "/dev/fd/63");
	return 0;
}

void exec_hash_clear(struct shell *sh)
{
	(void)sh;
}

/* ${x@P}: the prompt's escapes are input.c's, not what this fuzzes. */
char *input_expand_prompt(struct shell *sh, const char *ps, bool markers)
{
	(void)sh;
	(void)markers;
	return xstrdup(ps);
}

/* $BASH_COMMAND and $BASHOPTS: the evaluator's and the shopt builtin's. */
char *exec_command_text(struct shell *sh)
{
	(void)sh;
	return xstrdup("");
}

char *shopt_enabled_names(struct shell *sh)
{
	(void)sh;
	return xstrdup("");
}

/* ~user may start getent: the real one loads the terminal guard first. */
int shell_guard_before_program(struct shell *sh)
{
	(void)sh;
	return 0;
}

pid_t shell_pid_settled(struct shell *sh)
{
	return sh->shell_pid;
}

/* Formats the message, so its arguments are read (ASan sees a dangling
 * one), and drops it. */
void shell_error(struct shell *sh, const char *fmt, ...)
{
	(void)sh;
	char buf[256];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
}

/* ---- a scratch directory for pathname expansion ------------------------ */

static char scratch[] = "/tmp/sbsh-fuzz-expand-XXXXXX";
static int start_dir = -1; /* the fuzzer's own directory, to come back to */
static const char *const scratch_files[] = {"a", "b.c", ".hidden", "[x]", "A*b", "dir"};

static void scratch_remove(void)
{
	for (size_t i = 0; i < sizeof scratch_files / sizeof scratch_files[0]; i++) {
		char path[sizeof scratch + 16];
		snprintf(path, sizeof path, "%s/%s", scratch, scratch_files[i]);
		if (strcmp(scratch_files[i], "dir") == 0)
			rmdir(path);
		else
			unlink(path);
	}
	rmdir(scratch);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	start_dir = open(".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (start_dir < 0 || !mkdtemp(scratch))
		abort();
	for (size_t i = 0; i < sizeof scratch_files / sizeof scratch_files[0]; i++) {
		char path[sizeof scratch + 16];
		snprintf(path, sizeof path, "%s/%s", scratch, scratch_files[i]);
		if (strcmp(scratch_files[i], "dir") == 0) {
			if (mkdir(path, 0700) != 0)
				abort();
		} else {
			FILE *f = fopen(path, "w");
			if (!f)
				abort();
			fclose(f);
		}
	}
	atexit(scratch_remove);
	return 0;
}

/* ---- keeping each input cheap ------------------------------------------- */

/* Some inputs are slow for any shell: {1..999}{1..999} is a million words,
 * and a=$x$x b=$a$a ... doubles a value with each word. They are cut
 * short, so the fuzzer's time goes to code paths rather than to copying. */
enum { BRACE_BUDGET = 20000, VALUE_BUDGET = 8192 };

/* A bound on the words brace expansion can make of the whole input: the
 * product, over every brace, of its {A..B} span or its comma count. */
static bool braces_cheap(const uint8_t *data, size_t size)
{
	double words = 1;
	for (size_t i = 0; i < size; i++) {
		if (data[i] != '{')
			continue;
		size_t end = i + 1, commas = 0;
		while (end < size && data[end] != '{' && data[end] != '}')
			commas += data[end++] == ',';
		double n = (double)commas + 1;
		char seg[64];
		size_t len = end - i - 1;
		if (len < sizeof seg) {
			memcpy(seg, data + i + 1, len);
			seg[len] = '\0';
			char *dots = strstr(seg, "..");
			if (dots) {
				*dots = '\0';
				char *rhs = dots + 2, *e1, *e2;
				double lo = (double)strtoimax(seg, &e1, 10), hi = (double)strtoimax(rhs, &e2, 10);
				if (e1 != seg && e2 != rhs)
					n += hi > lo ? hi - lo : lo - hi;
				else
					n += 'z' - 'A'; /* a letter range at most */
			}
		} else if (memchr(data + i + 1, '.', len)) {
			n += 1e9; /* too long to look at: assume the worst */
		}
		words *= n;
		if (words > BRACE_BUDGET)
			return false;
	}
	return true;
}

static void measure_var(struct var *v, void *ctx)
{
	size_t *total = ctx;
	if (v->value)
		*total += strlen(v->value);
	*total += v->array_len; /* slots, set or not */
	for (size_t i = 0; v->array && i < v->array_len; i++)
		if (v->array[i])
			*total += strlen(v->array[i]);
}

/* Whether the variables are still small enough to go on. */
static bool values_cheap(struct shell *sh)
{
	size_t total = 0;
	vars_foreach(sh, measure_var, &total);
	return total <= VALUE_BUDGET;
}

/* ---- the walk ------------------------------------------------------------ */

static void check_literal(struct shell *sh, const struct word *w)
{
	char *literal;
	if (!ast_word_literal_value(w, &literal))
		return;
	char *s = expand_word_str(sh, w, EXPAND_NOTILDE);
	if (!s || strcmp(s, literal) != 0)
		abort(); /* quote removal alone must give the literal's value */
	free(s);
	free(literal);
}

/* One word as each kind of place expands it; the expander must not leave
 * the shell unwinding for the next word to see. */
static void expand_one(struct shell *sh, const struct word *w, const char *subject)
{
	if (!w || !values_cheap(sh))
		return;
	struct word *const one[] = {(struct word *)w};
	struct strvec fields;
	strvec_init(&fields);
	if (expand_words(sh, one, 1, &fields) == 0)
		for (size_t i = 0; i < fields.len; i++)
			if (!fields.items[i])
				abort();
	strvec_free(&fields);
	static const unsigned flags[] = {0, EXPAND_ASSIGN, EXPAND_NOTILDE};
	for (size_t i = 0; i < sizeof flags / sizeof flags[0]; i++)
		free(expand_word_str(sh, w, flags[i]));
	char *pat = expand_word_str(sh, w, EXPAND_PATTERN);
	if (pat) {
		pattern_match(pat, subject, 0);
		pattern_match(pat, subject, PATTERN_NOCASE | PATTERN_PERIOD);
		pattern_has_magic(pat);
		pattern_unescape(pat);
		free(pat);
	}
	check_literal(sh, w);
	sh->jump = JUMP_NONE;
}

static void walk_cond(struct shell *sh, const struct cond_expr *c)
{
	if (!c)
		return;
	expand_one(sh, c->lhs, "subject");
	expand_one(sh, c->rhs, "subject");
	walk_cond(sh, c->left);
	walk_cond(sh, c->right);
}

static void walk_arith(struct shell *sh, const struct word *w)
{
	if (!w || !values_cheap(sh))
		return;
	char *s = expand_word_str(sh, w, EXPAND_NOTILDE);
	if (s) {
		intmax_t value;
		arith_eval(sh, s, &value);
		free(s);
	}
	sh->jump = JUMP_NONE;
}

static void walk(struct shell *sh, const struct node *n, unsigned depth)
{
	if (!n || depth > 64 || !values_cheap(sh))
		return;
	for (size_t i = 0; i < n->nredirs; i++) {
		expand_one(sh, n->redirs[i].target, "file");
		if (n->redirs[i].heredoc && values_cheap(sh))
			free(expand_word_str(sh, n->redirs[i].heredoc, EXPAND_NOTILDE));
		sh->jump = JUMP_NONE;
	}
	switch (n->kind) {
	case NODE_SIMPLE:
		for (size_t i = 0; i < n->u.simple.nassigns; i++) {
			const struct assign *a = &n->u.simple.assigns[i];
			expand_one(sh, a->index, "0");
			expand_one(sh, a->value, "value");
			for (size_t k = 0; k < a->narray; k++)
				expand_one(sh, a->array[k], "value");
			/* Assign, as the evaluator would, so later words see it. */
			char *value = a->value && values_cheap(sh) ? expand_word_str(sh, a->value, EXPAND_ASSIGN) : NULL;
			if (value && !a->index && !a->is_array)
				vars_set(sh, a->name, value, 0);
			free(value);
			sh->jump = JUMP_NONE;
		}
		for (size_t i = 0; i < n->u.simple.nwords; i++)
			expand_one(sh, n->u.simple.words[i], "word");
		break;
	case NODE_PIPELINE:
		for (size_t i = 0; i < n->u.pipeline.ncmds; i++)
			walk(sh, n->u.pipeline.cmds[i], depth + 1);
		break;
	case NODE_AND_OR:
		walk(sh, n->u.and_or.left, depth + 1);
		walk(sh, n->u.and_or.right, depth + 1);
		break;
	case NODE_LIST:
		for (size_t i = 0; i < n->u.list.nitems; i++)
			walk(sh, n->u.list.items[i].node, depth + 1);
		break;
	case NODE_SUBSHELL:
	case NODE_BRACE_GROUP:
		walk(sh, n->u.group.body, depth + 1);
		break;
	case NODE_IF:
		walk(sh, n->u.if_.cond, depth + 1);
		walk(sh, n->u.if_.then_part, depth + 1);
		walk(sh, n->u.if_.else_part, depth + 1);
		break;
	case NODE_LOOP:
		walk(sh, n->u.loop.cond, depth + 1);
		walk(sh, n->u.loop.body, depth + 1);
		break;
	case NODE_FOR:
		for (size_t i = 0; i < n->u.for_.nwords; i++)
			expand_one(sh, n->u.for_.words[i], n->u.for_.var);
		walk(sh, n->u.for_.body, depth + 1);
		break;
	case NODE_ARITH_FOR:
		walk_arith(sh, n->u.arith_for.init);
		walk_arith(sh, n->u.arith_for.cond);
		walk_arith(sh, n->u.arith_for.step);
		walk(sh, n->u.arith_for.body, depth + 1);
		break;
	case NODE_CASE: {
		char *subject = values_cheap(sh) ? expand_word_str(sh, n->u.case_.subject, 0) : NULL;
		sh->jump = JUMP_NONE;
		for (size_t i = 0; i < n->u.case_.nitems; i++) {
			const struct case_item *it = &n->u.case_.items[i];
			for (size_t k = 0; k < it->npatterns; k++)
				expand_one(sh, it->patterns[k], subject ? subject : "");
			walk(sh, it->body, depth + 1);
		}
		free(subject);
		break;
	}
	case NODE_FUNCDEF:
		walk(sh, n->u.funcdef.body, depth + 1);
		break;
	case NODE_COND:
		walk_cond(sh, n->u.cond.expr);
		break;
	case NODE_ARITH:
		walk_arith(sh, n->u.arith.expr);
		break;
	}
}

/* ---- the shell the words are expanded in --------------------------------- */

static void shell_setup(struct shell *sh, bool glob, bool strict)
{
	static char *envp[] = {"HOME=/nonexistent/home", "PATH=/nonexistent/bin", "LC_ALL=C", NULL};
	memset(sh, 0, sizeof *sh);
	sh->shell_pid = 4242;
	sh->parent_pid = 4241;
	sh->last_bg_pid = 4243;
	sh->arg0 = xstrdup("sbsh");
	sh->start_time = 1000000000;
	sh->random_state = 12345;
	sh->tty_fd = sh->broker_fd = sh->history_fd = -1;
	sh->opt.hashall = true;
	sh->opt.braceexpand = true;
	sh->opt.noglob = !glob;
	sh->opt.nounset = strict;
	sh->opt.failglob = strict;
	sh->opt.dotglob = strict;
	sh->opt.nocaseglob = strict;
	sh->opt.nullglob = !strict;
	vars_init(sh, envp);
	static char *const args[] = {"one", "two words", "", " * ", "-e", NULL};
	sh->positional = xcalloc(6, sizeof *sh->positional);
	for (size_t i = 0; args[i]; i++)
		sh->positional[i] = xstrdup(args[i]);
	sh->npositional = 5;
	vars_set(sh, "x", "/usr/local/lib/file.tar.gz", 0);
	vars_set(sh, "e", "", 0);
	vars_set(sh, "s", " a  b\tc ", 0);
	vars_set(sh, "n", "42", 0);
	vars_set(sh, "p", "*.c", 0);
	vars_set(sh, "u", "\xc3\xa9t\xc3\xa9", 0); /* UTF-8 "été" */
	static char *const arr[] = {"a", "b c", "", "*"};
	vars_set_array(sh, "arr", arr, 4, false);
	vars_set(sh, "ref", "x", 0);
	vars_set(sh, "ro", "fixed", VAR_READONLY);
}

static void shell_teardown(struct shell *sh)
{
	vars_free(sh);
	strv_free(sh->positional);
	free(sh->arg0);
	free(sh->pipestatus);
}

static bool may_glob(const uint8_t *data, size_t size)
{
	for (size_t i = 0; i < size; i++)
		if (data[i] == '\0' || strchr("/$`~\\<>", data[i]))
			return false;
	return true;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (!braces_cheap(data, size))
		return 0;
	struct parser_options opts = {0};
	opts.at_eof = true;
	opts.max_depth = 100; /* sanitizer stack frames are big */
	struct node *tree = NULL;
	struct parse_error err;
	if (parse_program((const char *)data, size, &opts, &tree, &err) != 0) {
		free(err.message);
		return 0;
	}
	bool glob = may_glob(data, size);
	if (glob && chdir(scratch) != 0)
		abort();
	for (int strict = 0; strict < 2; strict++) {
		struct shell sh;
		shell_setup(&sh, glob, strict);
		walk(&sh, tree, 0);
		/* The whole input as a prompt string, and as `read` splits it. */
		char *text = xstrndup((const char *)data, size);
		if (values_cheap(&sh))
			free(expand_prompt(&sh, text));
		struct strvec fields;
		strvec_init(&fields);
		expand_split_ifs(&sh, text, &fields);
		strvec_free(&fields);
		free(text);
		shell_teardown(&sh);
	}
	if (glob && fchdir(start_dir) != 0)
		abort();
	ast_node_free(tree);
	return 0;
}
