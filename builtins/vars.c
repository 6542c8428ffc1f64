/* Variable builtins: export, readonly, unset, set, shift, local,
 * declare/typeset, let, getopts, read and mapfile/readarray. */
#include "builtins/builtins.h"
#include "shell/expand.h"
#include "shell/parser.h"
#include "shell/vars.h"
#include "shell/options.h"
#include "shell/arith.h"
#include "shell/funcs.h"
#include "shell/trap.h"
#include "shell/jobs.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

static bool valid_name(const char *s, size_t len)
{
	if (len == 0 || !(*s == '_' || isalpha((unsigned char)*s)))
		return false;
	for (size_t i = 1; i < len; i++) {
		if (!(s[i] == '_' || isalnum((unsigned char)s[i])))
			return false;
	}
	return true;
}

/* Whether name is (or refers to) an associative array. */
static bool names_assoc(struct shell *sh, const char *name)
{
	const struct var *v = vars_lookup(sh, name);
	return v && (v->flags & VAR_ASSOC);
}

/* ---- printing ------------------------------------------------------------ */

static bool has_control(const char *value)
{
	for (const char *p = value; *p; p++) {
		if ((unsigned char)*p < 0x20 || *p == 0x7f)
			return true;
	}
	return false;
}

/* $'...' as bash's `set` and `declare -p` print control characters. */
static void add_ansi_c_quoted(struct strbuf *out, const char *value)
{
	vars_quote_ansi_c(out, value);
}

/* bash's declare -p quoting: "..." with \ " $ ` escaped; $'...' when
 * there are control characters. */
static void add_double_quoted(struct strbuf *out, const char *value)
{
	if (has_control(value)) {
		add_ansi_c_quoted(out, value);
		return;
	}
	strbuf_addc(out, '"');
	for (const char *p = value; *p; p++) {
		if (strchr("\\\"$`", *p))
			strbuf_addc(out, '\\');
		strbuf_addc(out, *p);
	}
	strbuf_addc(out, '"');
}

/* An associative array's key as bash prints it: bare when nothing in it
 * means anything to the shell, else double-quoted. */
static void add_key(struct strbuf *out, const char *key)
{
	bool bare = *key != '\0';
	for (const char *p = key; *p && bare; p++)
		bare = isalnum((unsigned char)*p) || strchr("_-./:@%+,", *p);
	if (bare)
		strbuf_adds(out, key);
	else
		add_double_quoted(out, key);
}

static void add_array_value(struct strbuf *out, const struct var *v)
{
	if (v->flags & VAR_ASSOC) {
		/* bash's form, with its space before the parenthesis */
		strbuf_addc(out, '(');
		for (size_t i = 0; i < v->array_len; i++) {
			strbuf_addc(out, '[');
			add_key(out, v->keys[i]);
			strbuf_adds(out, "]=");
			add_double_quoted(out, v->array[i]);
			strbuf_addc(out, ' ');
		}
		strbuf_addc(out, ')');
		return;
	}
	strbuf_addc(out, '(');
	bool first = true;
	for (size_t i = 0; i < v->array_len; i++) {
		if (!v->array[i])
			continue;
		if (!first)
			strbuf_addc(out, ' ');
		first = false;
		strbuf_addf(out, "[%zu]=", i);
		add_double_quoted(out, v->array[i]);
	}
	strbuf_addc(out, ')');
}

static void print_declare(const struct var *v)
{
	struct strbuf sb;
	strbuf_init(&sb);
	strbuf_adds(&sb, "declare -");
	size_t before = sb.len;
	if (v->flags & VAR_ASSOC)
		strbuf_addc(&sb, 'A');
	else if (v->flags & VAR_ARRAY)
		strbuf_addc(&sb, 'a');
	if (v->flags & VAR_INTEGER)
		strbuf_addc(&sb, 'i');
	if (v->flags & VAR_READONLY)
		strbuf_addc(&sb, 'r');
	if (v->flags & VAR_EXPORT)
		strbuf_addc(&sb, 'x');
	if (v->flags & VAR_LOWER)
		strbuf_addc(&sb, 'l');
	if (v->flags & VAR_UPPER)
		strbuf_addc(&sb, 'u');
	if (v->flags & VAR_NAMEREF)
		strbuf_addc(&sb, 'n');
	if (sb.len == before)
		strbuf_addc(&sb, '-');
	strbuf_addf(&sb, " %s", v->name);
	if (!(v->flags & VAR_NOVALUE)) {
		if (v->flags & VAR_ARRAY) {
			strbuf_addc(&sb, '=');
			add_array_value(&sb, v);
		} else if (v->value) {
			strbuf_addc(&sb, '=');
			add_double_quoted(&sb, v->value);
		}
	}
	strbuf_addc(&sb, '\n');
	fputs(sb.data, stdout);
	strbuf_free(&sb);
}

/* `set` with no arguments: name=value, reusable. */
static void print_assignment(struct var *v, void *ctx)
{
	(void)ctx;
	if (v->flags & VAR_NOVALUE)
		return;
	struct strbuf sb;
	strbuf_init(&sb);
	strbuf_adds(&sb, v->name);
	strbuf_addc(&sb, '=');
	if (v->flags & VAR_ARRAY)
		add_array_value(&sb, v);
	else if (v->value && has_control(v->value))
		add_ansi_c_quoted(&sb, v->value);
	else if (v->value && v->value[0])
		vars_quote(&sb, v->value);
	strbuf_addc(&sb, '\n');
	fputs(sb.data, stdout);
	strbuf_free(&sb);
}

struct print_ctx {
	unsigned flag;       /* only variables with this flag */
	const char *command; /* "export" / "readonly": POSIX form; NULL: declare -p */
	bool posix;          /* set -o posix: print the POSIX form */
};

static void print_with_flag(struct var *v, void *ctx)
{
	const struct print_ctx *pc = ctx;
	if (pc->flag && !(v->flags & pc->flag))
		return;
	if (pc->flag == VAR_ARRAY && (v->flags & VAR_ASSOC))
		return; /* declare -a lists the indexed ones */
	/* bash's listing (declare -x NAME="v") unless in POSIX mode, where
	 * the dash-like `export NAME='v'` form is used. */
	if (!pc->command || !pc->posix) {
		print_declare(v);
		return;
	}
	struct strbuf sb;
	strbuf_init(&sb);
	strbuf_addf(&sb, "%s %s", pc->command, v->name);
	if (!(v->flags & (VAR_NOVALUE | VAR_ARRAY)) && v->value) {
		/* dash's form: always single-quoted, reusable by any shell */
		strbuf_addc(&sb, '=');
		strbuf_add_single_quoted(&sb, v->value, strlen(v->value));
	} else if ((v->flags & VAR_ARRAY) && !(v->flags & VAR_NOVALUE)) {
		strbuf_addc(&sb, '=');
		add_array_value(&sb, v);
	}
	strbuf_addc(&sb, '\n');
	fputs(sb.data, stdout);
	strbuf_free(&sb);
}

/* ---- NAME=value and NAME=(a b c) arguments ------------------------------- */

/* Splits the inside of a literal "(a 'b c' [3]=d)" array value. */
static void split_array_literal(const char *s, struct strvec *out)
{
	const char *p = s;
	for (;;) {
		while (*p == ' ' || *p == '\t' || *p == '\n')
			p++;
		if (*p == '\0')
			return;
		struct strbuf item;
		strbuf_init(&item);
		while (*p && !(*p == ' ' || *p == '\t' || *p == '\n')) {
			if (*p == '\'') {
				const char *end = strchr(p + 1, '\'');
				if (!end)
					end = p + strlen(p);
				strbuf_addmem(&item, p + 1, (size_t)(end - p - 1));
				p = *end ? end + 1 : end;
			} else if (*p == '"') {
				p++;
				while (*p && *p != '"') {
					if (*p == '\\' && p[1] && strchr("\\\"$`", p[1]))
						p++;
					strbuf_addc(&item, *p++);
				}
				if (*p)
					p++;
			} else if (*p == '\\' && p[1]) {
				strbuf_addc(&item, p[1]);
				p += 2;
			} else {
				strbuf_addc(&item, *p++);
			}
		}
		strvec_push_owned(out, strbuf_detach(&item));
	}
}

/* Assigns "(...)" to name: [i]=v items set that index, others follow on. */
static int assign_array_literal(struct shell *sh, const char *name, const char *inside, bool append)
{
	struct strvec items;
	strvec_init(&items);
	split_array_literal(inside, &items);
	int r = 0;
	struct var *assoc = vars_lookup(sh, name);
	if (assoc && (assoc->flags & VAR_ASSOC) && items.len > 0 && items.items[0][0] == '[' &&
	    strstr(items.items[0], "]=")) {
		if (!append)
			r = vars_set_array(sh, name, NULL, 0, false);
		for (size_t i = 0; i < items.len && r == 0; i++) {
			char *item = items.items[i];
			char *close = item[0] == '[' ? strstr(item, "]=") : NULL;
			if (!close) {
				shell_error(sh, "%s: %s: must use subscript when assigning associative array", name, item);
				continue;
			}
			*close = '\0';
			r = vars_assoc_set(sh, name, item + 1, close + 2, false);
		}
		strvec_free(&items);
		return r;
	}
	bool indexed = false;
	for (size_t i = 0; i < items.len; i++) {
		if (items.items[i][0] == '[' && strstr(items.items[i], "]="))
			indexed = true;
	}
	if (!indexed) {
		r = vars_set_array(sh, name, items.items, items.len, append);
	} else {
		if (!append)
			r = vars_set_array(sh, name, NULL, 0, false);
		struct var *v = vars_lookup(sh, name);
		long next = v ? (long)v->array_len : 0;
		for (size_t i = 0; i < items.len && r == 0; i++) {
			char *item = items.items[i];
			char *close = item[0] == '[' ? strstr(item, "]=") : NULL;
			if (close) {
				*close = '\0';
				intmax_t idx;
				if (arith_eval(sh, item + 1, &idx) < 0) {
					r = -1;
					break;
				}
				next = (long)idx;
				r = vars_set_element(sh, name, next, close + 2);
			} else {
				r = vars_set_element(sh, name, next, item);
			}
			next++;
		}
	}
	strvec_free(&items);
	return r;
}

/* Splits "name=value", "name+=value" or "name"; *value is NULL without =.
 * Returns false for an invalid name (after reporting). */
static bool parse_assignment_arg(const char *cmd, const char *arg, char **name, const char **value, bool *append)
{
	const char *eq = strchr(arg, '=');
	size_t len = eq ? (size_t)(eq - arg) : strlen(arg);
	*append = false;
	if (eq && len > 0 && arg[len - 1] == '+') {
		*append = true;
		len--;
	}
	/* name[index]=value is allowed for declare/local: keep the subscript. */
	size_t name_len = len;
	const char *br = memchr(arg, '[', len);
	if (br && arg[len - 1] == ']')
		name_len = (size_t)(br - arg);
	if (!valid_name(arg, name_len)) {
		shell_warn("%s: `%s': not a valid identifier", cmd, arg);
		return false;
	}
	*name = xstrndup(arg, len);
	*value = eq ? eq + 1 : NULL;
	return true;
}

/* Whether argv[i] of the declaration builtin running was written as an
 * array literal NAME=(...). */
static bool builtin_array_arg(const struct shell *sh, int i)
{
	return sh->decl_array_args && sh->decl_array_args[i];
}

/* Assigns one NAME[=value] argument with the given flags. */
static int declare_one(struct shell *sh, const char *cmd, const char *arg, unsigned set, unsigned clear,
                       bool make_local, bool assoc, bool array_literal)
{
	char *name;
	const char *value;
	bool append;
	if (!parse_assignment_arg(cmd, arg, &name, &value, &append))
		return -1;
	char *subscript = NULL;
	char *br = strchr(name, '[');
	if (br) {
		subscript = xstrndup(br + 1, strlen(br + 1) - 1);
		*br = '\0';
	}
	int r = 0;
	if (make_local && vars_make_local(sh, name) < 0) {
		r = -1;
		goto done;
	}
	if (set & VAR_NAMEREF) {
		/* declare -n r=target: r itself, never what it named before; a
		 * plain r's value becomes its target, as in bash */
		struct var *self = vars_lookup_ref(sh, name);
		const char *target = value;
		if (!target && self && !(self->flags & (VAR_ARRAY | VAR_NOVALUE)))
			target = self->value;
		char *copy = target ? xstrdup(target) : NULL;
		r = subscript ? -1 : vars_set_nameref(sh, name, copy);
		if (subscript)
			shell_error(sh, "%s: %s: reference variable cannot be an array", cmd, name);
		free(copy);
		if (r == 0 && (set & VAR_READONLY))
			r = vars_set_flags(sh, name, VAR_READONLY, 0);
		goto done;
	}
	struct var *before = vars_lookup(sh, name);
	if (assoc && before && (before->flags & VAR_ARRAY) && !(before->flags & VAR_ASSOC)) {
		shell_error(sh, "%s: %s: cannot convert indexed to associative array", cmd, name);
		r = -1;
		goto done;
	}
	if (assoc && vars_declare_assoc(sh, name) < 0) {
		r = -1;
		goto done;
	}
	if (!assoc && (set & VAR_ARRAY) && before && (before->flags & VAR_ASSOC)) {
		shell_error(sh, "%s: %s: cannot convert associative to indexed array", cmd, name);
		r = -1;
		goto done;
	}
	if (set || clear) {
		/* Readonly goes on after the value is stored. */
		if (vars_set_flags(sh, name, set & ~(unsigned)VAR_READONLY, clear) < 0) {
			r = -1;
			goto done;
		}
	} else if (!value) {
		/* `export x` / `local x` alone: make sure the variable exists. */
		if (!vars_lookup(sh, name) && vars_set_flags(sh, name, 0, 0) < 0)
			r = -1;
	}
	if (value) {
		size_t vlen = strlen(value);
		/* NAME=(...) written so; a quoted '(a b)' is an array only for
		 * declare -a / -A, as in bash */
		bool array_syntax = array_literal || (set & VAR_ARRAY) || assoc;
		if (array_syntax && !subscript && value[0] == '(' && vlen >= 2 && value[vlen - 1] == ')') {
			char *inside = xstrndup(value + 1, vlen - 2);
			r = assign_array_literal(sh, name, inside, append);
			free(inside);
		} else if (subscript && names_assoc(sh, name)) {
			r = vars_assoc_set(sh, name, subscript, value, append);
		} else if (subscript) {
			intmax_t idx;
			if (arith_eval(sh, subscript, &idx) < 0) {
				r = -1;
			} else {
				char *joined = NULL;
				if (append) {
					struct var *v = vars_lookup(sh, name);
					const char *old = v && (v->flags & VAR_ARRAY) && idx >= 0 && (size_t)idx < v->array_len
					                  ? v->array[idx] : NULL;
					joined = xasprintf("%s%s", old ? old : "", value);
				}
				r = vars_set_element(sh, name, (long)idx, joined ? joined : value);
				free(joined);
			}
		} else if (append) {
			struct var *v = vars_lookup(sh, name);
			if (v && (v->flags & VAR_INTEGER)) {
				char *expr = xasprintf("%s+(%s)", name, value);
				intmax_t n;
				r = arith_eval(sh, expr, &n);
				free(expr);
				if (r == 0) {
					char buf[32];
					snprintf(buf, sizeof buf, "%" PRIdMAX, n);
					r = vars_set(sh, name, buf, 0);
				}
			} else {
				const char *old = vars_get(sh, name);
				char *joined = xasprintf("%s%s", old ? old : "", value);
				r = vars_set(sh, name, joined, 0);
				free(joined);
			}
		} else {
			r = vars_set(sh, name, value, 0);
		}
	}
	if (r == 0 && (set & VAR_READONLY))
		r = vars_set_flags(sh, name, VAR_READONLY, 0);
done:
	free(name);
	free(subscript);
	return r;
}

/* ---- export / readonly ---------------------------------------------------- */

static int export_or_readonly(struct shell *sh, int argc, char **argv, unsigned flag, const char *cmd)
{
	struct builtin_getopt g = {.index = 1};
	bool remove = false, assoc = false;
	unsigned kind = 0;
	int c;
	while ((c = builtin_getopt(&g, argc, argv, flag == VAR_EXPORT ? "fnp" : "aAfp", cmd)) != -1) {
		switch (c) {
		case 'p': break; /* listing is what no names does anyway */
		case 'n': remove = true; break;
		case 'f': break;
		case 'a': kind = VAR_ARRAY; break; /* readonly -a / -A: of an array kind */
		case 'A': assoc = true; break;
		default:
			shell_warn("usage: %s [-%sp] [name[=value] ...]", cmd, flag == VAR_EXPORT ? "fn" : "aAf");
			return 2;
		}
	}
	if (g.index >= argc) {
		struct print_ctx pc = {.flag = flag, .command = cmd, .posix = sh->opt.posix};
		vars_foreach(sh, print_with_flag, &pc);
		return 0;
	}
	int status = 0;
	for (int i = g.index; i < argc; i++) {
		if (remove) {
			/* export -n name=value: assigned, then no longer exported */
			const char *eq = strchr(argv[i], '=');
			char *name = eq ? xstrndup(argv[i], (size_t)(eq - argv[i])) : xstrdup(argv[i]);
			if ((eq && declare_one(sh, cmd, argv[i], 0, 0, false, false, false) < 0) ||
			    vars_set_flags(sh, name, 0, flag) < 0)
				status = 1;
			free(name);
			continue;
		}
		if (declare_one(sh, cmd, argv[i], flag | (assoc ? 0 : kind), 0, false, assoc, builtin_array_arg(sh, i)) < 0)
			status = 1;
	}
	return status;
}

BUILTIN_FN(export)
{
	return export_or_readonly(sh, argc, argv, VAR_EXPORT, "export");
}

BUILTIN_FN(readonly)
{
	return export_or_readonly(sh, argc, argv, VAR_READONLY, "readonly");
}

/* ---- unset ----------------------------------------------------------------- */

BUILTIN_FN(unset)
{
	struct builtin_getopt g = {.index = 1};
	bool functions = false, variables = false, reference = false;
	int c;
	while ((c = builtin_getopt(&g, argc, argv, "fvn", "unset")) != -1) {
		switch (c) {
		case 'f': functions = true; break;
		case 'v': variables = true; break;
		case 'n': reference = true; break;
		default:
			shell_warn("unset: usage: unset [-f] [-v] [name ...]");
			return 2;
		}
	}
	int status = 0;
	for (int i = g.index; i < argc; i++) {
		const char *arg = argv[i];
		if (functions) {
			funcs_unset(sh, arg);
			continue;
		}
		const char *br = strchr(arg, '[');
		size_t len = br ? (size_t)(br - arg) : strlen(arg);
		if (!valid_name(arg, len) || (br && arg[strlen(arg) - 1] != ']')) {
			shell_warn("unset: `%s': not a valid identifier", arg);
			status = 1;
			continue;
		}
		if (br) {
			char *name = xstrndup(arg, len);
			char *text = xstrndup(br + 1, strlen(br + 1) - 1);
			/* The subscript is shell text: unset 'a["$k"]' (bash). */
			char *sub = strcmp(text, "@") == 0 || strcmp(text, "*") == 0 ? xstrdup(text)
			                                                               : expand_subscript_text(sh, text);
			free(text);
			if (strcmp(sub, "@") == 0 || strcmp(sub, "*") == 0) {
				if (vars_unset(sh, name) < 0)
					status = 1;
			} else if (names_assoc(sh, name)) {
				if (vars_assoc_unset(sh, name, sub) < 0)
					status = 1;
			} else {
				intmax_t idx;
				if (arith_eval(sh, sub, &idx) < 0 || vars_unset_element(sh, name, (long)idx) < 0)
					status = 1;
			}
			free(name);
			free(sub);
			continue;
		}
		struct var *v = vars_lookup(sh, arg);
		if (!variables && !v && funcs_lookup(sh, arg)) {
			funcs_unset(sh, arg);
			continue;
		}
		if (v && (v->flags & VAR_READONLY)) {
			shell_error(sh, "unset: %s: cannot unset: readonly variable", arg);
			status = 1;
			continue;
		}
		/* -n: the reference itself, not what it names */
		struct var *self = vars_lookup_ref(sh, arg);
		bool just_ref = reference && self && (self->flags & VAR_NAMEREF);
		if ((just_ref ? vars_unset_ref(sh, arg) : vars_unset(sh, arg)) < 0)
			status = 1;
	}
	return status;
}

/* ---- set ------------------------------------------------------------------- */

static void set_monitor(struct shell *sh, bool before)
{
	if (sh->opt.monitor != before)
		jobs_set_monitor(sh, sh->opt.monitor);
}

BUILTIN_FN(set)
{
	if (argc == 1) {
		vars_foreach(sh, print_assignment, NULL);
		return 0;
	}
	bool monitor_before = sh->opt.monitor;
	int i = 1;
	bool set_positional = false;
	for (; i < argc; i++) {
		const char *a = argv[i];
		if (a[0] != '-' && a[0] != '+')
			break;
		if (strcmp(a, "--") == 0) {
			i++;
			set_positional = true;
			break;
		}
		if (strcmp(a, "-") == 0) {
			sh->opt.xtrace = false;
			sh->opt.verbose = false;
			i++;
			set_positional = i < argc;
			break;
		}
		if (strcmp(a, "+") == 0)
			continue;
		bool on = a[0] == '-';
		for (const char *p = a + 1; *p; p++) {
			if (*p == 'o') {
				if (i + 1 >= argc || argv[i + 1][0] == '-' || argv[i + 1][0] == '+') {
					/* bare -o / +o lists the options */
					options_print(sh, !on);
					continue;
				}
				const char *name = argv[++i];
				if (options_set_name(sh, name, on) < 0) {
					shell_error(sh, "set: %s: invalid option name", name);
					set_monitor(sh, monitor_before);
					return 2;
				}
				continue;
			}
			if (options_set_letter(sh, *p, on) < 0) {
				shell_error(sh, "set: %c%c: invalid option", on ? '-' : '+', *p);
				set_monitor(sh, monitor_before);
				return 2;
			}
		}
	}
	set_monitor(sh, monitor_before);
	if (i < argc || set_positional)
		shell_set_positional(sh, argv + i, (size_t)(argc - i));
	return 0;
}

/* ---- shift ----------------------------------------------------------------- */

BUILTIN_FN(shift)
{
	long n = 1;
	if (argc > 2) {
		shell_error(sh, "shift: too many arguments");
		return 1;
	}
	if (argc == 2) {
		char *end;
		n = strtol(argv[1], &end, 10);
		if (argv[1][0] == '\0' || *end != '\0') {
			shell_error(sh, "shift: %s: numeric argument required", argv[1]);
			return 1;
		}
		if (n < 0) {
			shell_error(sh, "shift: %s: shift count out of range", argv[1]);
			return 1;
		}
	}
	if ((size_t)n > sh->npositional) {
		/* silently, as bash does; set -o posix says why, as dash */
		if (sh->opt.posix)
			shell_error(sh, "shift: %ld: shift count out of range", n);
		return 1;
	}
	shell_set_positional(sh, sh->positional + n, sh->npositional - (size_t)n);
	return 0;
}

/* ---- declare / typeset / local ------------------------------------------ */

struct func_print_ctx {
	bool names_only;
};

static void print_function(const char *name, const struct node *body, void *ctx)
{
	const struct func_print_ctx *fc = ctx;
	if (fc->names_only) {
		printf("declare -f %s\n", name);
		return;
	}
	struct strbuf sb;
	strbuf_init(&sb);
	funcs_print(&sb, name, body);
	fputs(sb.data, stdout);
	strbuf_free(&sb);
}

static int declare_common(struct shell *sh, int argc, char **argv, const char *cmd, bool is_local)
{
	unsigned set = 0, clear = 0;
	bool print = false, funcs = false, func_names = false, global = false, assoc = false;
	int i = 1;
	for (; i < argc; i++) {
		const char *a = argv[i];
		if (strcmp(a, "--") == 0) {
			i++;
			break;
		}
		if ((a[0] != '-' && a[0] != '+') || a[1] == '\0')
			break;
		bool on = a[0] == '-';
		for (const char *p = a + 1; *p; p++) {
			unsigned f = 0;
			switch (*p) {
			case 'a': f = VAR_ARRAY; break;
			case 'i': f = VAR_INTEGER; break;
			case 'l': f = VAR_LOWER; break;
			case 'u': f = VAR_UPPER; break;
			case 'x': f = VAR_EXPORT; break;
			case 'r': f = VAR_READONLY; break;
			case 'p': print = true; break;
			case 'f': funcs = true; break;
			case 'F': funcs = func_names = true; break;
			case 'g': global = !is_local; break;
			case 't': break;
			case 'A':
				assoc = on;
				break;
			case 'n': f = VAR_NAMEREF; break;
			default:
				shell_error(sh, "%s: %c%c: invalid option", cmd, on ? '-' : '+', *p);
				return 2;
			}
			if (on)
				set |= f;
			else
				clear |= f;
		}
	}
	if (is_local && sh->func_depth == 0) {
		shell_error(sh, "%s: can only be used in a function", cmd);
		return 1;
	}
	if (assoc && i >= argc && !funcs) {
		struct print_ctx pc = {.flag = VAR_ASSOC, .command = NULL};
		vars_foreach(sh, print_with_flag, &pc);
		return 0;
	}
	if (assoc)
		set &= ~(unsigned)VAR_ARRAY; /* -A is an array of its own kind */
	if (funcs) {
		struct func_print_ctx fc = {.names_only = func_names};
		if (i >= argc) {
			funcs_foreach(sh, print_function, &fc);
			return 0;
		}
		int status = 0;
		for (; i < argc; i++) {
			const struct func *f = funcs_find(sh, argv[i]);
			const struct node *body = f ? f->body : NULL;
			if (!body) {
				status = 1;
				continue;
			}
			/* declare -F NAME: just the name, as bash; with shopt -s
			 * extdebug its line and file too (bash's "environment" for
			 * -c text, "main" for standard input). */
			if (func_names && sh->opt.extdebug)
				printf("%s %u %s\n", argv[i], body->line,
				       f->source ? f->source : sh->opt.cmd_string ? "environment" : "main");
			else if (func_names)
				printf("%s\n", argv[i]);
			else
				print_function(argv[i], body, &fc);
		}
		return status;
	}
	if (i >= argc) {
		if (is_local)
			return 0;
		struct print_ctx pc = {.flag = set, .command = NULL};
		if (print || set)
			vars_foreach(sh, print_with_flag, &pc);
		else
			vars_foreach(sh, print_assignment, NULL);
		return 0;
	}
	int status = 0;
	if (print) {
		for (; i < argc; i++) {
			/* a reference shows as one, not as what it names */
			struct var *v = vars_lookup_ref(sh, argv[i]);
			if (!v) {
				shell_error(sh, "%s: %s: not found", cmd, argv[i]);
				status = 1;
				continue;
			}
			print_declare(v);
		}
		return status;
	}
	bool make_local = is_local || (sh->func_depth > 0 && !global);
	for (; i < argc; i++) {
		if (strcmp(argv[i], "-") == 0 && is_local)
			continue; /* bash's `local -`: accepted, options are not saved */
		if (declare_one(sh, cmd, argv[i], set, clear, make_local, assoc, builtin_array_arg(sh, i)) < 0)
			status = 1;
	}
	return status;
}

BUILTIN_FN(declare)
{
	return declare_common(sh, argc, argv, argv[0], false);
}

BUILTIN_FN(local)
{
	return declare_common(sh, argc, argv, "local", true);
}

/* ---- let ------------------------------------------------------------------- */

BUILTIN_FN(let)
{
	if (argc < 2) {
		shell_error(sh, "let: expression expected");
		return 1;
	}
	intmax_t value = 0;
	for (int i = 1; i < argc; i++) {
		if (arith_eval(sh, argv[i], &value) < 0)
			return 1;
	}
	return value == 0 ? 1 : 0;
}

/* ---- getopts --------------------------------------------------------------- */

static void set_optind(struct shell *sh, long optind)
{
	char buf[32];
	size_t offset = sh->getopts_offset;
	snprintf(buf, sizeof buf, "%ld", optind);
	vars_set(sh, "OPTIND", buf, 0);
	sh->getopts_offset = offset; /* assigning OPTIND resets it; we keep ours */
}

BUILTIN_FN(getopts)
{
	if (argc < 3) {
		shell_error(sh, "getopts: usage: getopts optstring name [arg ...]");
		return 2;
	}
	const char *optstring = argv[1];
	const char *name = argv[2];
	if (!valid_name(name, strlen(name))) {
		shell_error(sh, "getopts: `%s': not a valid identifier", name);
		return 2;
	}
	char **args = argc > 3 ? argv + 3 : sh->positional;
	long nargs = argc > 3 ? argc - 3 : (long)sh->npositional;
	bool silent = optstring[0] == ':';
	if (silent)
		optstring++;
	const char *opterr = vars_get(sh, "OPTERR");
	bool report = !silent && !(opterr && strcmp(opterr, "0") == 0);

	const char *optind_text = vars_get(sh, "OPTIND");
	long optind = optind_text ? strtol(optind_text, NULL, 10) : 1;
	if (optind < 1) {
		optind = 1;
		sh->getopts_offset = 0;
	}
	size_t offset = sh->getopts_offset;
	if (offset == 0) {
		const char *arg = optind <= nargs ? args[optind - 1] : NULL;
		if (!arg || arg[0] != '-' || arg[1] == '\0') {
			vars_set(sh, name, "?", 0);
			vars_unset(sh, "OPTARG");
			/* past the end (new, shorter arguments): bash stops at $# + 1 */
			if (optind > nargs + 1)
				optind = nargs + 1;
			set_optind(sh, optind);
			return 1;
		}
		if (strcmp(arg, "--") == 0) {
			vars_set(sh, name, "?", 0);
			vars_unset(sh, "OPTARG");
			sh->getopts_offset = 0;
			set_optind(sh, optind + 1);
			return 1;
		}
		offset = 1;
	}
	if (optind > nargs) {
		sh->getopts_offset = 0;
		vars_set(sh, name, "?", 0);
		set_optind(sh, optind);
		return 1;
	}
	const char *arg = args[optind - 1];
	if (offset >= strlen(arg)) {
		/* OPTIND changed under us: start the next word. */
		sh->getopts_offset = 0;
		set_optind(sh, optind + 1);
		return builtin_getopts(sh, argc, argv);
	}
	char c = arg[offset++];
	bool at_end = arg[offset] == '\0';
	const char *spec = c != ':' ? strchr(optstring, c) : NULL;
	char opt[2] = {c, '\0'};
	if (!spec) {
		if (report)
			shell_error(sh, "illegal option -- %c", c);
		if (silent)
			vars_set(sh, "OPTARG", opt, 0);
		else
			vars_unset(sh, "OPTARG");
		vars_set(sh, name, "?", 0);
	} else if (spec[1] == ':') {
		if (!at_end) {
			vars_set(sh, "OPTARG", arg + offset, 0);
			at_end = true;
			vars_set(sh, name, opt, 0);
		} else if (optind + 1 <= nargs) {
			vars_set(sh, "OPTARG", args[optind], 0);
			optind++;
			vars_set(sh, name, opt, 0);
		} else {
			if (report)
				shell_error(sh, "option requires an argument -- %c", c);
			if (silent) {
				vars_set(sh, "OPTARG", opt, 0);
				vars_set(sh, name, ":", 0);
			} else {
				vars_unset(sh, "OPTARG");
				vars_set(sh, name, "?", 0);
			}
		}
	} else {
		vars_unset(sh, "OPTARG");
		vars_set(sh, name, opt, 0);
	}
	if (at_end) {
		sh->getopts_offset = 0;
		set_optind(sh, optind + 1);
	} else {
		sh->getopts_offset = offset;
		set_optind(sh, optind);
	}
	return 0;
}

/* ---- read and mapfile: input without consuming more than the line (or
 * record) asked for, so commands that run afterwards see the rest. ---- */

/* Reads byte by byte from pipes and terminals; from seekable files it
 * reads ahead and seeks back over what was not used. */
struct byte_reader {
	int fd;
	bool seekable;
	char buf[256];
	size_t pos, len;
	bool has_deadline;
	struct timespec deadline;
	bool timed_out;
};

static void reader_init(struct byte_reader *r, int fd)
{
	r->fd = fd;
	r->seekable = lseek(fd, 0, SEEK_CUR) >= 0;
	r->pos = r->len = 0;
	r->has_deadline = false;
	r->timed_out = false;
}

static int remaining_ms(const struct byte_reader *r)
{
	struct timespec now;
	clock_gettime(CLOCK_MONOTONIC, &now);
	double ms = (double)(r->deadline.tv_sec - now.tv_sec) * 1000.0 +
	            (double)(r->deadline.tv_nsec - now.tv_nsec) / 1e6;
	if (ms <= 0)
		return 0;
	return ms > INT_MAX ? INT_MAX : (int)ceil(ms);
}

/* 1: a byte; 0: end of input; -1: error or timeout (errno / timed_out). */
static int reader_next(struct byte_reader *r, char *c)
{
	if (r->pos < r->len) {
		*c = r->buf[r->pos++];
		return 1;
	}
	for (;;) {
		if (r->has_deadline) {
			struct pollfd pfd = {.fd = r->fd, .events = POLLIN};
			int n = poll(&pfd, 1, remaining_ms(r));
			if (n == 0) {
				r->timed_out = true;
				return -1;
			}
			if (n < 0 && errno == EINTR)
				continue;
		}
		ssize_t n = read(r->fd, r->buf, r->seekable ? sizeof r->buf : 1);
		if (n < 0 && errno == EINTR) {
			if (trap_signal_pending())
				return -1;
			continue;
		}
		if (n < 0)
			return -1;
		if (n == 0)
			return 0;
		r->pos = 1;
		r->len = (size_t)n;
		*c = r->buf[0];
		return 1;
	}
}

static void reader_finish(struct byte_reader *r)
{
	if (r->seekable && r->pos < r->len)
		lseek(r->fd, -(off_t)(r->len - r->pos), SEEK_CUR);
	r->pos = r->len = 0;
}

static bool parse_fd(const char *s, int *fd)
{
	char *end;
	long v = strtol(s, &end, 10);
	if (*s == '\0' || *end != '\0' || v < 0 || v > INT_MAX)
		return false;
	*fd = (int)v;
	return true;
}

/* ---- read ------------------------------------------------------------------- */

/* The line read, with a flag per byte: escaped by a backslash. */
struct line {
	struct strbuf text;
	struct strbuf escaped; /* one byte per text byte: 1 = escaped */
};

static bool is_ifs(const char *ifs, char c)
{
	return c != '\0' && strchr(ifs, c) != NULL;
}

static bool is_ifs_space(const char *ifs, char c)
{
	return (c == ' ' || c == '\t' || c == '\n') && is_ifs(ifs, c);
}

/* Splits line[*pos..] off one field the way field splitting does. */
static char *next_field(const struct line *l, const char *ifs, size_t *pos)
{
	size_t i = *pos, n = l->text.len;
	const char *t = l->text.data;
	const char *e = l->escaped.data;
	struct strbuf f;
	strbuf_init(&f);
	while (i < n && !(is_ifs(ifs, t[i]) && !e[i]))
		strbuf_addc(&f, t[i++]);
	/* consume the delimiter: IFS whitespace, at most one other IFS char,
	 * then IFS whitespace again */
	while (i < n && !e[i] && is_ifs_space(ifs, t[i]))
		i++;
	if (i < n && !e[i] && is_ifs(ifs, t[i]) && !is_ifs_space(ifs, t[i])) {
		i++;
		while (i < n && !e[i] && is_ifs_space(ifs, t[i]))
			i++;
	}
	*pos = i;
	return strbuf_detach(&f);
}

/* The rest of the line for the last name: trailing IFS whitespace goes;
 * when only one field and its delimiter are left, just that field (bash). */
static char *rest_of_line(const struct line *l, const char *ifs, size_t pos)
{
	const char *t = l->text.data;
	const char *e = l->escaped.data;
	size_t end = l->text.len;
	while (end > pos && !e[end - 1] && is_ifs_space(ifs, t[end - 1]))
		end--;
	size_t after = pos;
	char *field = next_field(l, ifs, &after);
	if (after >= end)
		return field;
	free(field);
	return xstrndup(t + pos, end - pos);
}

static int parse_timeout(const char *s, double *out)
{
	char *end;
	double v = strtod(s, &end);
	if (*s == '\0' || *end != '\0' || v < 0 || isnan(v))
		return -1;
	*out = v;
	return 0;
}

BUILTIN_FN(read)
{
	bool raw = false, silent = false;
	const char *prompt = NULL, *array = NULL;
	char delim = '\n';
	long nchars = -1;
	bool exact = false;
	int fd = 0;
	double timeout = -1;
	struct builtin_getopt g = {.index = 1};
	int c;
	while ((c = builtin_getopt(&g, argc, argv, "ra:d:n:N:p:st:u:ei:", "read")) != -1) {
		switch (c) {
		case 'r': raw = true; break;
		case 's': silent = true; break;
		case 'e': /* readline editing and its initial text: no line editor here */
		case 'i': break;
		case 'p': prompt = g.arg; break;
		case 'a': array = g.arg; break;
		case 'd': delim = g.arg[0]; break;
		case 'n':
		case 'N': {
			char *end;
			nchars = strtol(g.arg, &end, 10);
			if (*g.arg == '\0' || *end != '\0' || nchars < 0) {
				shell_error(sh, "read: %s: invalid number", g.arg);
				return 2;
			}
			exact = c == 'N';
			break;
		}
		case 't':
			if (parse_timeout(g.arg, &timeout) < 0) {
				shell_error(sh, "read: %s: invalid timeout specification", g.arg);
				return 2;
			}
			break;
		case 'u':
			if (!parse_fd(g.arg, &fd)) {
				shell_error(sh, "read: %s: invalid file descriptor specification", g.arg);
				return 2;
			}
			if (shell_fd_reserved(fd)) { /* the warden's socket, inotify... */
				shell_error(sh, "read: %d: bad file descriptor (reserved by sbsh)", fd);
				return 1;
			}
			break;
		default:
			shell_warn("read: usage: read [-ers] [-a array] [-d delim] [-n nchars] [-p prompt] [-t timeout] [-u fd] [name ...]");
			return 2;
		}
	}
	for (int i = g.index; i < argc; i++) {
		const char *n = argv[i];
		bool ok = (*n == '_' || (*n >= 'a' && *n <= 'z') || (*n >= 'A' && *n <= 'Z'));
		for (const char *p = n; ok && *p; p++)
			ok = *p == '_' || (*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9');
		if (!ok) {
			shell_error(sh, "read: `%s': not a valid identifier", n);
			return 1;
		}
	}

	bool tty = isatty(fd);
	if (prompt && tty) {
		fputs(prompt, stderr);
		fflush(stderr);
	}
	if (timeout == 0) {
		/* -t 0: only report whether input is waiting */
		struct pollfd pfd = {.fd = fd, .events = POLLIN};
		return poll(&pfd, 1, 0) > 0 ? 0 : 1;
	}
	struct termios saved;
	bool restore = false;
	if ((silent || nchars >= 0) && tty && tcgetattr(fd, &saved) == 0) {
		struct termios t = saved;
		if (silent)
			t.c_lflag &= ~(tcflag_t)ECHO;
		if (nchars >= 0) {
			t.c_lflag &= ~(tcflag_t)ICANON;
			t.c_cc[VMIN] = 1;
			t.c_cc[VTIME] = 0;
		}
		restore = tcsetattr(fd, TCSANOW, &t) == 0;
	}

	struct byte_reader r;
	reader_init(&r, fd);
	if (timeout > 0) {
		clock_gettime(CLOCK_MONOTONIC, &r.deadline);
		double whole = floor(timeout);
		r.deadline.tv_sec += (time_t)whole;
		r.deadline.tv_nsec += (long)((timeout - whole) * 1e9);
		if (r.deadline.tv_nsec >= 1000000000L) {
			r.deadline.tv_sec++;
			r.deadline.tv_nsec -= 1000000000L;
		}
		r.has_deadline = true;
	}

	struct line l;
	strbuf_init(&l.text);
	strbuf_init(&l.escaped);
	bool eof = false, failed = false;
	long count = 0;
	while (nchars < 0 || count < nchars) {
		char ch;
		int got = reader_next(&r, &ch);
		if (got == 0) {
			eof = true;
			break;
		}
		if (got < 0) {
			failed = true;
			break;
		}
		if (!exact && ch == delim)
			break;
		if (!raw && ch == '\\') {
			char next;
			got = reader_next(&r, &next);
			if (got <= 0) {
				eof = got == 0;
				failed = got < 0;
				break;
			}
			if (next == '\n')
				continue; /* line continuation, whatever the delimiter (bash) */
			strbuf_addc(&l.text, next);
			strbuf_addc(&l.escaped, 1);
			count++;
			continue;
		}
		if (ch == '\0' && delim != '\0')
			continue; /* NUL bytes are dropped, as bash does */
		strbuf_addc(&l.text, ch);
		strbuf_addc(&l.escaped, 0);
		count++;
	}
	reader_finish(&r);
	if (restore)
		tcsetattr(fd, TCSANOW, &saved);
	if (silent && tty)
		fputc('\n', stderr);
	if (!l.text.data) {
		strbuf_addc(&l.text, 'x');
		strbuf_truncate(&l.text, 0);
		strbuf_addc(&l.escaped, 0);
		strbuf_truncate(&l.escaped, 0);
	}

	int status = 0;
	if (failed) {
		status = r.timed_out ? 142 : 1;
		if (!r.timed_out && errno != EINTR)
			shell_error(sh, "read: read error: %s", strerror(errno));
	} else if (eof) {
		status = 1;
	}

	const char *ifs_var = vars_get(sh, "IFS");
	char *ifs = xstrdup(ifs_var ? ifs_var : " \t\n");
	int names = argc - g.index;
	if (failed && r.timed_out) {
		/* bash assigns nothing on a timeout */
	} else if (array) {
		struct strvec fields;
		strvec_init(&fields);
		size_t pos = 0;
		while (pos < l.text.len && !l.escaped.data[pos] && is_ifs_space(ifs, l.text.data[pos]))
			pos++;
		while (pos < l.text.len)
			strvec_push_owned(&fields, next_field(&l, ifs, &pos));
		struct var *target = vars_lookup(sh, array);
		if (target && (target->flags & VAR_ASSOC)) {
			shell_error(sh, "read: %s: not an indexed array", array);
			status = 1;
		} else if (vars_set_array(sh, array, fields.items, fields.len, false) < 0) {
			status = 1;
		}
		strvec_free(&fields);
	} else if (names == 0) {
		if (vars_set(sh, "REPLY", l.text.data, 0) < 0)
			status = 1;
	} else {
		size_t pos = 0;
		while (pos < l.text.len && !l.escaped.data[pos] && is_ifs_space(ifs, l.text.data[pos]))
			pos++;
		for (int i = 0; i < names; i++) {
			char *value;
			if (exact)
				/* -N: the characters read, unsplit, all in the first name */
				value = xstrdup(i == 0 ? l.text.data : "");
			else if (i + 1 == names)
				value = rest_of_line(&l, ifs, pos);
			else
				value = pos < l.text.len ? next_field(&l, ifs, &pos) : xstrdup("");
			if (vars_set(sh, argv[g.index + i], value, 0) < 0)
				status = 1;
			free(value);
		}
	}
	free(ifs);
	strbuf_free(&l.text);
	strbuf_free(&l.escaped);
	return status;
}

/* ---- mapfile / readarray ---------------------------------------------------- */

BUILTIN_FN(mapfile)
{
	char delim = '\n';
	long max = 0, origin = -1, skip = 0;
	bool strip = false;
	int fd = 0;
	struct builtin_getopt g = {.index = 1};
	int c;
	while ((c = builtin_getopt(&g, argc, argv, "d:n:O:s:tu:C:c:", argv[0])) != -1) {
		char *end;
		switch (c) {
		case 'd': delim = g.arg[0]; break;
		case 't': strip = true; break;
		case 'C': case 'c': break;
		case 'u':
			if (!parse_fd(g.arg, &fd)) {
				shell_error(sh, "%s: %s: invalid file descriptor specification", argv[0], g.arg);
				return 1;
			}
			if (shell_fd_reserved(fd)) {
				shell_error(sh, "%s: %d: bad file descriptor (reserved by sbsh)", argv[0], fd);
				return 1;
			}
			break;
		case 'n': case 'O': case 's': {
			long v = strtol(g.arg, &end, 10);
			if (*g.arg == '\0' || *end != '\0' || v < 0) {
				shell_error(sh, "%s: %s: invalid number", argv[0], g.arg);
				return 1;
			}
			if (c == 'n')
				max = v;
			else if (c == 'O')
				origin = v;
			else
				skip = v;
			break;
		}
		default:
			shell_warn("%s: usage: %s [-d delim] [-n count] [-O origin] [-s count] [-t] [-u fd] [array]", argv[0], argv[0]);
			return 2;
		}
	}
	const char *name = g.index < argc ? argv[g.index] : "MAPFILE";
	struct var *target = vars_lookup(sh, name);
	if (target && (target->flags & VAR_ASSOC)) {
		shell_error(sh, "%s: %s: not an indexed array", argv[0], name);
		return 1;
	}
	if (origin < 0) {
		if (vars_set_array(sh, name, NULL, 0, false) < 0)
			return 1;
		origin = 0;
	}
	struct byte_reader r;
	reader_init(&r, fd);
	struct strbuf line;
	strbuf_init(&line);
	long stored = 0, seen = 0;
	int status = 0;
	for (;;) {
		if (max > 0 && stored >= max)
			break;
		char ch;
		int got = reader_next(&r, &ch);
		if (got <= 0) {
			if (got < 0)
				status = 1;
			if (line.len == 0)
				break;
		} else {
			strbuf_addc(&line, ch);
			if (ch != delim)
				continue;
			if (strip)
				strbuf_truncate(&line, line.len - 1);
		}
		if (seen++ >= skip) {
			if (vars_set_element(sh, name, origin + stored, line.data ? line.data : "") < 0) {
				status = 1;
				break;
			}
			stored++;
		}
		strbuf_truncate(&line, 0);
		if (got <= 0)
			break;
	}
	reader_finish(&r);
	strbuf_free(&line);
	return status;
}
