/* test and [: POSIX rules by argument count for 0-4 arguments (so that
 * `[ "$x" = -n ]` means what it says), a recursive-descent parser with the
 * XSI -a -o ( ) beyond that, and the bash operators agents use. */
#include "builtins/builtins.h"
#include "shell/expand.h"
#include "shell/vars.h"
#include "shell/arith.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

struct test_state {
	struct shell *sh;
	const char *name;  /* "test" or "[" for messages */
	char **argv;       /* operands only (no command name, no closing ]) */
	int argc;
	int pos;
	bool error;        /* a message was printed: status 2 */
};

static void test_error(struct test_state *ts, const char *fmt, const char *arg)
{
	if (ts->error)
		return;
	ts->error = true;
	if (arg)
		shell_error(ts->sh, "%s: %s: %s", ts->name, arg, fmt);
	else
		shell_error(ts->sh, "%s: %s", ts->name, fmt);
}

static bool is_unary_op(const char *s)
{
	return s[0] == '-' && s[1] != '\0' && s[2] == '\0' && strchr("abcdefghknoprstuvwxzGLNOS", s[1]);
}

/* The binary operators, recognised by hand: this runs for every `[`. */
enum binary_op {
	OP_NONE, OP_EQ_STR, OP_NE_STR, OP_LT_STR, OP_GT_STR, OP_AND, OP_OR, OP_NT, OP_OT, OP_EF,
	OP_EQ, OP_NE, OP_GT, OP_GE, OP_LT, OP_LE,
};

static enum binary_op binary_op_code(const char *s)
{
	if (s[0] == '=')
		return s[1] == '\0' || (s[1] == '=' && s[2] == '\0') ? OP_EQ_STR : OP_NONE;
	if (s[0] == '!')
		return s[1] == '=' && s[2] == '\0' ? OP_NE_STR : OP_NONE;
	if (s[0] == '<' || s[0] == '>')
		return s[1] != '\0' ? OP_NONE : s[0] == '<' ? OP_LT_STR : OP_GT_STR;
	if (s[0] != '-' || s[1] == '\0')
		return OP_NONE;
	if (s[2] == '\0') {
		if (s[1] == 'a')
			return OP_AND;
		if (s[1] == 'o')
			return OP_OR;
		return OP_NONE;
	}
	if (s[3] != '\0')
		return OP_NONE;
	static const struct {
		char text[3];
		enum binary_op op;
	} ops[] = {
		{"eq", OP_EQ}, {"ne", OP_NE}, {"gt", OP_GT}, {"ge", OP_GE}, {"lt", OP_LT},
		{"le", OP_LE}, {"nt", OP_NT}, {"ot", OP_OT}, {"ef", OP_EF},
	};
	for (size_t i = 0; i < sizeof ops / sizeof ops[0]; i++)
		if (ops[i].text[0] == s[1] && ops[i].text[1] == s[2])
			return ops[i].op;
	return OP_NONE;
}

static bool is_binary_op(const char *s)
{
	return binary_op_code(s) != OP_NONE;
}

/* Integers as bash's test takes them: blanks around, optional sign,
 * decimal digits; anything else (or overflow) is an error. */
static bool parse_integer(struct test_state *ts, const char *s, intmax_t *value)
{
	const char *p = s;
	while (*p == ' ' || *p == '\t' || *p == '\n')
		p++;
	const char *digits = p;
	if (*digits == '+' || *digits == '-')
		digits++;
	if (*digits < '0' || *digits > '9') {
		test_error(ts, "integer expression expected", s);
		return false;
	}
	/* Accumulated negatively: INTMAX_MIN is representable. */
	bool negative = *p == '-';
	intmax_t v = 0;
	const char *end = digits;
	bool overflow = false;
	for (; *end >= '0' && *end <= '9'; end++) {
		int d = *end - '0';
		if (v < (INTMAX_MIN + d) / 10)
			overflow = true;
		else
			v = v * 10 - d;
	}
	if (!negative) {
		if (v == INTMAX_MIN)
			overflow = true;
		else
			v = -v;
	}
	while (*end == ' ' || *end == '\t' || *end == '\n')
		end++;
	if (*end != '\0' || overflow) {
		test_error(ts, "integer expression expected", s);
		return false;
	}
	*value = v;
	return true;
}

/* One of the shell options test -o knows by name. */
static bool option_is_set(struct shell *sh, const char *name)
{
	const struct {
		const char *name;
		const bool *flag;
	} options[] = {
		{"allexport", &sh->opt.allexport}, {"errexit", &sh->opt.errexit},
		{"noclobber", &sh->opt.noclobber}, {"noglob", &sh->opt.noglob},
		{"noexec", &sh->opt.noexec},       {"nounset", &sh->opt.nounset},
		{"verbose", &sh->opt.verbose},     {"xtrace", &sh->opt.xtrace},
		{"pipefail", &sh->opt.pipefail},   {"monitor", &sh->opt.monitor},
		{"notify", &sh->opt.notify},       {"hashall", &sh->opt.hashall},
		{"ignoreeof", &sh->opt.ignoreeof}, {"posix", &sh->opt.posix},
		{"vi", &sh->opt.vi},               {"emacs", &sh->opt.emacs},
		{"nolog", &sh->opt.nolog},
	};
	for (size_t i = 0; i < sizeof options / sizeof options[0]; i++)
		if (strcmp(options[i].name, name) == 0)
			return *options[i].flag;
	return false;
}

/* -v NAME or -v NAME[INDEX]: the variable (element) has a value. */
static bool variable_is_set(struct test_state *ts, const char *spec)
{
	const char *bracket = strchr(spec, '[');
	size_t len = strlen(spec);
	if (!bracket || spec[len - 1] != ']')
		return vars_get(ts->sh, spec) != NULL;
	char *name = xstrndup(spec, (size_t)(bracket - spec));
	char *text = xstrndup(bracket + 1, len - (size_t)(bracket - spec) - 2);
	/* The subscript is shell text, expanded: test -v 'a[$k]' (bash). */
	char *index_text = strcmp(text, "@") == 0 || strcmp(text, "*") == 0 ? xstrdup(text)
	                                                                     : expand_subscript_text(ts->sh, text);
	free(text);
	bool set = false;
	struct var *v = vars_lookup(ts->sh, name);
	if (v && !(v->flags & VAR_NOVALUE)) {
		if (strcmp(index_text, "@") == 0 || strcmp(index_text, "*") == 0) {
			set = v->flags & VAR_ARRAY ? v->array_len > 0 : v->value != NULL;
		} else if (v->flags & VAR_ASSOC) {
			set = vars_assoc_get(v, index_text) != NULL;
		} else {
			intmax_t index;
			if (arith_eval(ts->sh, index_text, &index) == 0) {
				if (v->flags & VAR_ARRAY) {
					if (index < 0)
						index += (intmax_t)v->array_len;
					set = index >= 0 && (uintmax_t)index < v->array_len && v->array[index];
				} else {
					set = index == 0 && v->value;
				}
			}
		}
	}
	free(name);
	free(index_text);
	return set;
}

static bool unary_test(struct test_state *ts, char op, const char *arg)
{
	struct stat st;
	switch (op) {
	case 'n': return arg[0] != '\0';
	case 'z': return arg[0] == '\0';
	case 'o': return option_is_set(ts->sh, arg);
	case 'v': return variable_is_set(ts, arg);
	case 't': {
		/* bash: a non-number is simply not a terminal, not an error. */
		char *end;
		long fd = strtol(arg, &end, 10);
		if (end == arg || *end != '\0')
			return false;
		return fd >= 0 && fd <= INT32_MAX && isatty((int)fd);
	}
	case 'h':
	case 'L': return lstat(arg, &st) == 0 && S_ISLNK(st.st_mode);
	case 'r': return faccessat(AT_FDCWD, arg, R_OK, AT_EACCESS) == 0;
	case 'w': return faccessat(AT_FDCWD, arg, W_OK, AT_EACCESS) == 0;
	case 'x': return faccessat(AT_FDCWD, arg, X_OK, AT_EACCESS) == 0;
	default: break;
	}
	if (stat(arg, &st) != 0)
		return false;
	switch (op) {
	case 'a':
	case 'e': return true;
	case 'b': return S_ISBLK(st.st_mode);
	case 'c': return S_ISCHR(st.st_mode);
	case 'd': return S_ISDIR(st.st_mode);
	case 'f': return S_ISREG(st.st_mode);
	case 'p': return S_ISFIFO(st.st_mode);
	case 'S': return S_ISSOCK(st.st_mode);
	case 'g': return (st.st_mode & S_ISGID) != 0;
	case 'u': return (st.st_mode & S_ISUID) != 0;
	case 'k': return (st.st_mode & S_ISVTX) != 0;
	case 's': return st.st_size > 0;
	case 'O': return st.st_uid == geteuid();
	case 'G': return st.st_gid == getegid();
	case 'N':
		return st.st_mtim.tv_sec > st.st_atim.tv_sec ||
		       (st.st_mtim.tv_sec == st.st_atim.tv_sec && st.st_mtim.tv_nsec > st.st_atim.tv_nsec);
	default: return false;
	}
}

/* Compares modification times: <0, 0, >0; a missing file is the oldest. */
static int compare_mtime(const char *a, const char *b, bool *a_exists, bool *b_exists)
{
	struct stat sa, sb;
	*a_exists = stat(a, &sa) == 0;
	*b_exists = stat(b, &sb) == 0;
	if (!*a_exists || !*b_exists)
		return *a_exists - *b_exists;
	if (sa.st_mtim.tv_sec != sb.st_mtim.tv_sec)
		return sa.st_mtim.tv_sec < sb.st_mtim.tv_sec ? -1 : 1;
	if (sa.st_mtim.tv_nsec != sb.st_mtim.tv_nsec)
		return sa.st_mtim.tv_nsec < sb.st_mtim.tv_nsec ? -1 : 1;
	return 0;
}

static bool binary_test(struct test_state *ts, const char *left, const char *op_text, const char *right)
{
	enum binary_op op = binary_op_code(op_text);
	switch (op) {
	case OP_EQ_STR: return strcmp(left, right) == 0;
	case OP_NE_STR: return strcmp(left, right) != 0;
	case OP_LT_STR: return strcmp(left, right) < 0;
	case OP_GT_STR: return strcmp(left, right) > 0;
	case OP_AND: return left[0] && right[0];
	case OP_OR: return left[0] || right[0];
	case OP_NT:
	case OP_OT: {
		bool a_exists, b_exists;
		int cmp = compare_mtime(left, right, &a_exists, &b_exists);
		return op == OP_NT ? cmp > 0 : cmp < 0;
	}
	case OP_EF: {
		struct stat sa, sb;
		return stat(left, &sa) == 0 && stat(right, &sb) == 0 && sa.st_dev == sb.st_dev &&
		       sa.st_ino == sb.st_ino;
	}
	default:
		break;
	}
	intmax_t a, b;
	if (!parse_integer(ts, left, &a) || !parse_integer(ts, right, &b))
		return false;
	switch (op) {
	case OP_EQ: return a == b;
	case OP_NE: return a != b;
	case OP_GT: return a > b;
	case OP_GE: return a >= b;
	case OP_LT: return a < b;
	default: return a <= b; /* -le: is_binary_op admitted nothing else */
	}
}

/* ---- the general grammar, for more than four operands ---------------- */

static bool parse_or(struct test_state *ts);

static const char *peek(struct test_state *ts, int ahead)
{
	int i = ts->pos + ahead;
	return i < ts->argc ? ts->argv[i] : NULL;
}

static bool parse_primary(struct test_state *ts)
{
	const char *a = peek(ts, 0);
	if (!a) {
		test_error(ts, "argument expected", NULL);
		return false;
	}
	const char *b = peek(ts, 1);
	const char *c = peek(ts, 2);
	/* Past four operands `!` and `(` come first, as in bash: in
	 * `[ 0 -eq 0 -a ( = ) ]` the parentheses group. (Up to four,
	 * test_args's POSIX rules compare `[ ( = ) ]` as strings.) */
	if (strcmp(a, "!") == 0) {
		ts->pos++;
		return !parse_primary(ts);
	}
	if (strcmp(a, "(") == 0) {
		ts->pos++;
		bool v = parse_or(ts);
		const char *close = peek(ts, 0);
		if (!close || strcmp(close, ")") != 0) {
			test_error(ts, "`)' expected", NULL);
			return false;
		}
		ts->pos++;
		return v;
	}
	if (b && c && is_binary_op(b) && strcmp(b, "-a") != 0 && strcmp(b, "-o") != 0) {
		ts->pos += 3;
		return binary_test(ts, a, b, c);
	}
	if (is_unary_op(a) && b) {
		ts->pos += 2;
		return unary_test(ts, a[1], b);
	}
	ts->pos++;
	return a[0] != '\0';
}

static bool parse_and(struct test_state *ts)
{
	bool v = parse_primary(ts);
	while (!ts->error && peek(ts, 0) && strcmp(peek(ts, 0), "-a") == 0) {
		ts->pos++;
		bool r = parse_primary(ts);
		v = v && r;
	}
	return v;
}

static bool parse_or(struct test_state *ts)
{
	bool v = parse_and(ts);
	while (!ts->error && peek(ts, 0) && strcmp(peek(ts, 0), "-o") == 0) {
		ts->pos++;
		bool r = parse_and(ts);
		v = v || r;
	}
	return v;
}

/* ---- POSIX rules by operand count ------------------------------------- */

static bool test_args(struct test_state *ts, char **args, int n);

static bool test_general(struct test_state *ts, char **args, int n)
{
	ts->argv = args;
	ts->argc = n;
	ts->pos = 0;
	bool v = parse_or(ts);
	if (!ts->error && ts->pos < ts->argc)
		test_error(ts, "too many arguments", NULL);
	return v;
}

static bool test_args(struct test_state *ts, char **args, int n)
{
	switch (n) {
	case 0:
		return false;
	case 1:
		return args[0][0] != '\0';
	case 2:
		if (strcmp(args[0], "!") == 0)
			return !test_args(ts, args + 1, 1);
		if (is_unary_op(args[0]))
			return unary_test(ts, args[0][1], args[1]);
		test_error(ts, "unary operator expected", args[0]);
		return false;
	case 3:
		if (is_binary_op(args[1]))
			return binary_test(ts, args[0], args[1], args[2]);
		if (strcmp(args[0], "!") == 0)
			return !test_args(ts, args + 1, 2);
		if (strcmp(args[0], "(") == 0 && strcmp(args[2], ")") == 0)
			return test_args(ts, args + 1, 1);
		test_error(ts, "binary operator expected", args[1]);
		return false;
	case 4:
		if (strcmp(args[0], "!") == 0)
			return !test_args(ts, args + 1, 3);
		if (strcmp(args[0], "(") == 0 && strcmp(args[3], ")") == 0)
			return test_args(ts, args + 1, 2);
		return test_general(ts, args, n);
	default:
		return test_general(ts, args, n);
	}
}

int builtin_test(struct shell *sh, int argc, char **argv)
{
	struct test_state ts = {.sh = sh, .name = argv[0]};
	if (strcmp(argv[0], "[") == 0) {
		if (argc < 2 || strcmp(argv[argc - 1], "]") != 0) {
			shell_error(sh, "[: missing `]'");
			return 2;
		}
		argc--;
	}
	bool result = test_args(&ts, argv + 1, argc - 1);
	if (ts.error)
		return 2;
	return result ? 0 : 1;
}
