/* Arithmetic evaluation: a recursive-descent evaluator over the C operator
 * set (plus bash's **). A "skip" depth evaluates nothing in the branches
 * that && || ?: do not take, so they have no side effects. */
#include "shell/shell.h"
#include "shell/vars.h"
#include "shell/expand.h"
#include "shell/arith.h"

#include <ctype.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum {
	ARITH_MAX_DEPTH = 1000,      /* parentheses and operators nested */
	ARITH_MAX_RECURSION = 100,   /* variables whose values are expressions */
};

struct arith {
	struct shell *sh;
	const char *expr; /* the whole text, for messages */
	const char *p;
	unsigned depth;
	unsigned recursion;
	unsigned skip; /* > 0: parse only, no evaluation or assignment */
	bool failed;
	const char *last_op; /* start of the last operator read, for messages */
};

/* An operand that may be assigned to: a variable, maybe with a subscript. */
struct lvalue {
	char *name; /* NULL when the operand is not a variable */
	bool has_index;
	intmax_t index;
	char *key;  /* an associative array's subscript, as written; else NULL */
	char small[32]; /* holds short names: no allocation per operand */
};

static void lvalue_free(struct lvalue *lv)
{
	if (lv->name != lv->small)
		free(lv->name);
	lv->name = NULL;
	free(lv->key);
	lv->key = NULL;
}

static int eval_comma(struct arith *a, intmax_t *out);
static int eval_assign(struct arith *a, intmax_t *out);

static int fail(struct arith *a, const char *what, const char *token)
{
	if (!a->failed) {
		/* Long texts are cut: a message must stay readable. */
		while (*a->expr == ' ' || *a->expr == '\t' || *a->expr == '\n')
			a->expr++;
		int elen = strlen(a->expr) > 80 ? 80 : (int)strlen(a->expr);
		const char *more = strlen(a->expr) > 80 ? "..." : "";
		if (token) {
			int tlen = strlen(token) > 40 ? 40 : (int)strlen(token);
			shell_error(a->sh, "%.*s%s: %s (error token is \"%.*s%s\")", elen, a->expr, more, what,
			            tlen, token, strlen(token) > 40 ? "..." : "");
		} else {
			shell_error(a->sh, "%.*s%s: %s", elen, a->expr, more, what);
		}
	}
	a->failed = true;
	return -1;
}

static void skip_space(struct arith *a)
{
	while (*a->p == ' ' || *a->p == '\t' || *a->p == '\n')
		a->p++;
}

static bool is_name_start(char c)
{
	return c == '_' || isalpha((unsigned char)c);
}

static bool is_name_char(char c)
{
	return c == '_' || isalnum((unsigned char)c);
}

/* Reports a malformed constant: the token is the whole alphanumeric run. */
static int number_error(struct arith *a, const char *what, const char *start)
{
	const char *q = start;
	while (is_name_char(*q) || *q == '#' || *q == '@')
		q++;
	char *token = xstrndup(start, (size_t)(q - start));
	fail(a, what, token);
	free(token);
	return -1;
}

/* Parses an integer constant; returns -1 (after reporting) when malformed. */
static int parse_number(struct arith *a, const char *start, const char **end, intmax_t *out)
{
	const char *p = start;
	uintmax_t base = 10;
	uintmax_t value = 0;

	if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X')) {
		base = 16;
		p += 2;
		if (!isxdigit((unsigned char)*p) && is_name_char(*p))
			return number_error(a, "invalid number", start);
	} else if (p[0] == '0' && isdigit((unsigned char)p[1])) {
		base = 8;
		p++;
	} else {
		const char *h = p;
		uintmax_t b = 0;
		while (isdigit((unsigned char)*h)) {
			if (b <= 64)
				b = b * 10 + (uintmax_t)(*h - '0');
			h++;
		}
		if (*h == '#') {
			if (b < 2 || b > 64)
				return number_error(a, "invalid arithmetic base", start);
			base = b;
			p = h + 1;
			if (!is_name_char(*p) && *p != '@')
				return number_error(a, "invalid integer constant", start);
		} else if (!is_name_char(*h)) {
			/* plain decimal: the common case */
			for (; p < h; p++)
				value = value * 10 + (uintmax_t)(*p - '0');
			*end = h;
			*out = (intmax_t)value;
			return 0;
		}
	}
	for (;;) {
		char c = *p;
		uintmax_t d;
		if (isdigit((unsigned char)c))
			d = (uintmax_t)(c - '0');
		else if (c >= 'a' && c <= 'z')
			d = (uintmax_t)(c - 'a') + 10;
		else if (c >= 'A' && c <= 'Z')
			d = base <= 36 ? (uintmax_t)(c - 'A') + 10 : (uintmax_t)(c - 'A') + 36;
		else if (c == '@' && base > 36)
			d = 62;
		else if (c == '_' && base > 36)
			d = 63;
		else
			break;
		if (d >= base)
			return number_error(a, "value too great for base", start);
		value = value * base + d;
		p++;
	}
	if (is_name_char(*p))
		return number_error(a, "value too great for base", start);
	*end = p;
	*out = (intmax_t)value;
	return 0;
}

size_t arith_format(intmax_t value, char *buf)
{
	char tmp[ARITH_FORMAT_SIZE];
	size_t n = 0;
	uintmax_t u = value < 0 ? (uintmax_t)0 - (uintmax_t)value : (uintmax_t)value;
	do {
		tmp[n++] = (char)('0' + u % 10);
		u /= 10;
	} while (u);
	size_t len = 0;
	if (value < 0)
		buf[len++] = '-';
	while (n)
		buf[len++] = tmp[--n];
	buf[len] = '\0';
	return len;
}

/* The value of a variable: empty or unset is 0; anything else is itself
 * evaluated as an expression (bounded recursion). */
static int value_of_text(struct arith *a, const char *text, intmax_t *out)
{
	if (!text)
		text = "";
	const char *p = text;
	while (*p == ' ' || *p == '\t' || *p == '\n')
		p++;
	if (*p == '\0') {
		*out = 0;
		return 0;
	}
	/* Fast path: a plain decimal number. */
	const char *q = p;
	if (*q == '-' || *q == '+')
		q++;
	if (isdigit((unsigned char)*q) && *q != '0') {
		const char *r = q;
		while (isdigit((unsigned char)*r))
			r++;
		const char *t = r;
		while (*t == ' ' || *t == '\t' || *t == '\n')
			t++;
		if (*t == '\0' && r - q < 19) {
			intmax_t v = 0;
			for (const char *d = q; d < r; d++)
				v = v * 10 + (*d - '0');
			*out = *p == '-' ? -v : v;
			return 0;
		}
	}
	if (a->recursion >= ARITH_MAX_RECURSION)
		return fail(a, "expression recursion level exceeded", text);
	struct arith sub = {
		.sh = a->sh, .expr = text, .p = text, .depth = a->depth,
		.recursion = a->recursion + 1, .skip = 0, .failed = false,
	};
	skip_space(&sub);
	if (eval_comma(&sub, out) < 0) {
		a->failed = true;
		return -1;
	}
	skip_space(&sub);
	if (*sub.p != '\0') {
		fail(&sub, "syntax error in expression", sub.p);
		a->failed = true;
		return -1;
	}
	return 0;
}

static int read_variable(struct arith *a, const struct lvalue *lv, intmax_t *out)
{
	if (a->skip) {
		*out = 0;
		return 0;
	}
	const char *text = NULL;
	if (lv->key) {
		text = vars_assoc_get(vars_lookup(a->sh, lv->name), lv->key);
	} else if (lv->has_index) {
		struct var *v = vars_lookup(a->sh, lv->name);
		if (v && (v->flags & VAR_ARRAY)) {
			intmax_t i = lv->index;
			if (i < 0)
				i += (intmax_t)v->array_len;
			if (i >= 0 && (size_t)i < v->array_len)
				text = v->array[i];
		} else if (v && lv->index == 0) {
			text = vars_get(a->sh, lv->name);
		}
	} else {
		text = vars_get(a->sh, lv->name);
	}
	if (!text && a->sh->opt.nounset) {
		shell_error(a->sh, "%s: unbound variable", lv->name);
		a->failed = true;
		return -1;
	}
	return value_of_text(a, text, out);
}

static int write_variable(struct arith *a, const struct lvalue *lv, intmax_t value)
{
	if (a->skip)
		return 0;
	char buf[ARITH_FORMAT_SIZE];
	arith_format(value, buf);
	int r;
	if (lv->key)
		r = vars_assoc_set(a->sh, lv->name, lv->key, buf, false);
	else if (lv->has_index)
		r = vars_set_element(a->sh, lv->name, (long)lv->index, buf);
	else
		r = vars_set(a->sh, lv->name, buf, 0);
	if (r < 0)
		a->failed = true;
	return r;
}

/* Reads NAME or NAME[expr] at the current position into lv. */
static int parse_lvalue(struct arith *a, struct lvalue *lv)
{
	lv->key = NULL;
	const char *start = a->p;
	while (is_name_char(*a->p))
		a->p++;
	size_t len = (size_t)(a->p - start);
	if (len < sizeof lv->small) {
		memcpy(lv->small, start, len);
		lv->small[len] = '\0';
		lv->name = lv->small;
	} else {
		lv->name = xstrndup(start, len);
	}
	lv->has_index = false;
	lv->index = 0;
	lv->key = NULL;
	if (*a->p == '[') {
		struct var *v = vars_lookup(a->sh, lv->name);
		if (v && (v->flags & VAR_ASSOC)) {
			/* An associative array's key is the text up to the
			 * matching bracket, not an expression (as in bash). */
			const char *start_key = ++a->p;
			int depth = 0;
			while (*a->p && !(*a->p == ']' && depth == 0)) {
				depth += *a->p == '[' ? 1 : *a->p == ']' ? -1 : 0;
				a->p++;
			}
			if (*a->p != ']')
				return fail(a, "syntax error: missing `]'", a->p);
			lv->key = xstrndup(start_key, (size_t)(a->p - start_key));
			/* Quotes around the key are removed, as bash does:
			 * (( n = m['k'] )). */
			if (strpbrk(lv->key, "'\"\\")) {
				char *unquoted = expand_subscript_text(a->sh, lv->key);
				free(lv->key);
				lv->key = unquoted;
			}
			a->p++;
			lv->has_index = true;
			return 0;
		}
		a->p++;
		skip_space(a);
		intmax_t idx = 0;
		if (eval_comma(a, &idx) < 0)
			return -1;
		skip_space(a);
		if (*a->p != ']')
			return fail(a, "syntax error: missing `]'", a->p);
		a->p++;
		lv->has_index = true;
		lv->index = idx;
	}
	return 0;
}

static intmax_t wrap_add(intmax_t x, intmax_t y)
{
	return (intmax_t)((uintmax_t)x + (uintmax_t)y);
}

static intmax_t wrap_sub(intmax_t x, intmax_t y)
{
	return (intmax_t)((uintmax_t)x - (uintmax_t)y);
}

static intmax_t wrap_mul(intmax_t x, intmax_t y)
{
	return (intmax_t)((uintmax_t)x * (uintmax_t)y);
}

/* Applies a binary operator; the one place division by zero is caught. */
static int apply_binary(struct arith *a, const char *op, intmax_t x, intmax_t y, intmax_t *out)
{
	if (a->skip) {
		*out = 0;
		return 0;
	}
	char c0 = op[0], c1 = op[1];
	if (c0 == '+') {
		*out = wrap_add(x, y);
	} else if (c0 == '-') {
		*out = wrap_sub(x, y);
	} else if (c0 == '*' && c1 == '\0') {
		*out = wrap_mul(x, y);
	} else if (c0 == '/' || c0 == '%') {
		if (y == 0) {
			char buf[32];
			snprintf(buf, sizeof buf, "%" PRIdMAX, y);
			return fail(a, "division by 0", buf);
		}
		if (x == INTMAX_MIN && y == -1)
			*out = c0 == '/' ? INTMAX_MIN : 0;
		else
			*out = c0 == '/' ? x / y : x % y;
	} else if (c0 == '*') {
		if (y < 0)
			return fail(a, "exponent less than 0", NULL);
		intmax_t r = 1;
		while (y > 0) {
			if (y & 1)
				r = wrap_mul(r, x);
			x = wrap_mul(x, x);
			y >>= 1;
		}
		*out = r;
	} else if (c0 == '<') {
		*out = (intmax_t)((uintmax_t)x << (y & 63));
	} else if (c0 == '>') {
		*out = x >> (y & 63);
	} else if (c0 == '&') {
		*out = x & y;
	} else if (c0 == '|') {
		*out = x | y;
	} else if (c0 == '^') {
		*out = x ^ y;
	} else {
		return fail(a, "unknown operator", op);
	}
	return 0;
}

static bool enter(struct arith *a)
{
	if (++a->depth > ARITH_MAX_DEPTH) {
		fail(a, "expression nested too deeply", NULL);
		return false;
	}
	return true;
}

static int eval_unary(struct arith *a, intmax_t *out);

static int eval_primary(struct arith *a, intmax_t *out)
{
	skip_space(a);
	const char *c = a->p;
	if (*c == '(') {
		if (!enter(a))
			return -1;
		a->p++;
		skip_space(a);
		if (eval_comma(a, out) < 0)
			return -1;
		skip_space(a);
		if (*a->p != ')')
			return fail(a, "missing `)'", *a->p ? a->p : NULL);
		a->p++;
		a->depth--;
		return 0;
	}
	if (isdigit((unsigned char)*c)) {
		const char *end = c;
		if (parse_number(a, c, &end, out) < 0)
			return -1;
		a->p = end;
		return 0;
	}
	if (is_name_start(*c)) {
		struct lvalue lv;
		if (parse_lvalue(a, &lv) < 0) {
			lvalue_free(&lv);
			return -1;
		}
		skip_space(a);
		int r;
		if ((a->p[0] == '+' && a->p[1] == '+') || (a->p[0] == '-' && a->p[1] == '-')) {
			/* postfix ++ / -- */
			bool inc = a->p[0] == '+';
			a->p += 2;
			intmax_t v = 0;
			r = read_variable(a, &lv, &v);
			if (r == 0)
				r = write_variable(a, &lv, inc ? wrap_add(v, 1) : wrap_sub(v, 1));
			*out = v;
		} else {
			r = read_variable(a, &lv, out);
		}
		lvalue_free(&lv);
		return r;
	}
	/* At the end, bash names the dangling operator. */
	return fail(a, "syntax error: operand expected", *c == '\0' && a->last_op ? a->last_op : c);
}

static int eval_unary(struct arith *a, intmax_t *out)
{
	skip_space(a);
	const char *c = a->p;
	if ((c[0] == '+' && c[1] == '+') || (c[0] == '-' && c[1] == '-')) {
		bool inc = c[0] == '+';
		const char *after = c + 2;
		while (*after == ' ' || *after == '\t')
			after++;
		if (is_name_start(*after)) {
			a->p = after;
			struct lvalue lv;
			if (parse_lvalue(a, &lv) < 0) {
				lvalue_free(&lv);
				return -1;
			}
			intmax_t v = 0;
			int r = read_variable(a, &lv, &v);
			if (r == 0) {
				v = inc ? wrap_add(v, 1) : wrap_sub(v, 1);
				r = write_variable(a, &lv, v);
			}
			lvalue_free(&lv);
			*out = v;
			return r;
		}
		/* "--5" is minus minus five, as in bash. */
	}
	if (*c == '+' || *c == '-' || *c == '!' || *c == '~') {
		if (!enter(a))
			return -1;
		a->last_op = a->p;
		a->p++;
		intmax_t v;
		if (eval_unary(a, &v) < 0)
			return -1;
		a->depth--;
		switch (*c) {
		case '+': *out = v; break;
		case '-': *out = wrap_sub(0, v); break;
		case '!': *out = !v; break;
		default: *out = ~v; break;
		}
		return 0;
	}
	return eval_primary(a, out);
}

static int eval_power(struct arith *a, intmax_t *out)
{
	if (eval_unary(a, out) < 0)
		return -1;
	skip_space(a);
	if (a->p[0] == '*' && a->p[1] == '*' && a->p[2] != '=') {
		a->last_op = a->p;
		a->p += 2;
		if (!enter(a))
			return -1;
		intmax_t rhs;
		if (eval_power(a, &rhs) < 0) /* right associative */
			return -1;
		a->depth--;
		return apply_binary(a, "**", *out, rhs, out);
	}
	return 0;
}

/* Binary operator levels, loosest first after the logical ones. Each entry
 * lists operators that must not be followed by '=' (that would be an
 * assignment) and must not be a prefix of a longer operator at this spot. */
enum level {
	LEVEL_BITOR,
	LEVEL_BITXOR,
	LEVEL_BITAND,
	LEVEL_EQUALITY,
	LEVEL_RELATIONAL,
	LEVEL_SHIFT,
	LEVEL_ADDITIVE,
	LEVEL_MULTIPLICATIVE,
};

/* Returns the operator at p for this level (copied into op), or 0. */
static size_t match_operator(const char *p, enum level level, char op[3])
{
	op[0] = op[1] = op[2] = '\0';
	switch (level) {
	case LEVEL_BITOR:
		if (p[0] == '|' && p[1] != '|' && p[1] != '=')
			return op[0] = '|', 1;
		return 0;
	case LEVEL_BITXOR:
		if (p[0] == '^' && p[1] != '=')
			return op[0] = '^', 1;
		return 0;
	case LEVEL_BITAND:
		if (p[0] == '&' && p[1] != '&' && p[1] != '=')
			return op[0] = '&', 1;
		return 0;
	case LEVEL_EQUALITY:
		if ((p[0] == '=' || p[0] == '!') && p[1] == '=')
			return op[0] = p[0], op[1] = '=', 2;
		return 0;
	case LEVEL_RELATIONAL:
		if ((p[0] == '<' || p[0] == '>') && p[1] == '=')
			return op[0] = p[0], op[1] = '=', 2;
		if ((p[0] == '<' || p[0] == '>') && p[1] != p[0])
			return op[0] = p[0], 1;
		return 0;
	case LEVEL_SHIFT:
		if ((p[0] == '<' || p[0] == '>') && p[1] == p[0] && p[2] != '=')
			return op[0] = p[0], op[1] = p[1], 2;
		return 0;
	case LEVEL_ADDITIVE:
		/* "1--1" is 1 - -1; postfix ++/-- were taken by the operand. */
		if ((p[0] == '+' || p[0] == '-') && p[1] != '=')
			return op[0] = p[0], 1;
		return 0;
	case LEVEL_MULTIPLICATIVE:
		if ((p[0] == '*' && p[1] != '*' && p[1] != '=') || ((p[0] == '/' || p[0] == '%') && p[1] != '='))
			return op[0] = p[0], 1;
		return 0;
	}
	return 0;
}

/* The binary operator at p (any level): its level, or -1 for none. Only
 * the level its first character allows is tried. */
static int find_operator(const char *p, char op[3], size_t *len)
{
	int level;
	switch (p[0]) {
	case '|': level = LEVEL_BITOR; break;
	case '^': level = LEVEL_BITXOR; break;
	case '&': level = LEVEL_BITAND; break;
	case '=': case '!': level = LEVEL_EQUALITY; break;
	case '<': case '>':
		level = p[1] == p[0] ? LEVEL_SHIFT : LEVEL_RELATIONAL;
		break;
	case '+': case '-': level = LEVEL_ADDITIVE; break;
	case '*': case '/': case '%': level = LEVEL_MULTIPLICATIVE; break;
	default: return -1;
	}
	*len = match_operator(p, (enum level)level, op);
	return *len ? level : -1;
}

/* Binary operators of level min_level and tighter, by precedence
 * climbing: one call per operand instead of one per level. */
static int eval_level(struct arith *a, int min_level, intmax_t *out)
{
	if (eval_power(a, out) < 0)
		return -1;
	for (;;) {
		skip_space(a);
		char op[3];
		size_t n = 0;
		int level = find_operator(a->p, op, &n);
		if (level < min_level)
			return 0;
		a->last_op = a->p;
		a->p += n;
		intmax_t rhs;
		if (eval_level(a, level + 1, &rhs) < 0) /* left associative */
			return -1;
		if (a->skip) {
			*out = 0;
			continue;
		}
		if (level == LEVEL_EQUALITY) {
			*out = op[0] == '=' ? *out == rhs : *out != rhs;
		} else if (level == LEVEL_RELATIONAL) {
			if (op[0] == '<')
				*out = op[1] ? *out <= rhs : *out < rhs;
			else
				*out = op[1] ? *out >= rhs : *out > rhs;
		} else if (apply_binary(a, op, *out, rhs, out) < 0) {
			return -1;
		}
	}
}

static int eval_logical_and(struct arith *a, intmax_t *out)
{
	if (eval_level(a, LEVEL_BITOR, out) < 0)
		return -1;
	for (;;) {
		skip_space(a);
		if (!(a->p[0] == '&' && a->p[1] == '&'))
			return 0;
		a->last_op = a->p;
		a->p += 2;
		bool skip_rhs = !a->skip && *out == 0;
		if (skip_rhs)
			a->skip++;
		intmax_t rhs;
		int r = eval_level(a, LEVEL_BITOR, &rhs);
		if (skip_rhs)
			a->skip--;
		if (r < 0)
			return -1;
		*out = skip_rhs ? 0 : (*out != 0 && rhs != 0);
	}
}

static int eval_logical_or(struct arith *a, intmax_t *out)
{
	if (eval_logical_and(a, out) < 0)
		return -1;
	for (;;) {
		skip_space(a);
		if (!(a->p[0] == '|' && a->p[1] == '|'))
			return 0;
		a->last_op = a->p;
		a->p += 2;
		bool skip_rhs = !a->skip && *out != 0;
		if (skip_rhs)
			a->skip++;
		intmax_t rhs;
		int r = eval_logical_and(a, &rhs);
		if (skip_rhs)
			a->skip--;
		if (r < 0)
			return -1;
		*out = skip_rhs ? 1 : (*out != 0 || rhs != 0);
	}
}

static int eval_conditional(struct arith *a, intmax_t *out)
{
	if (eval_logical_or(a, out) < 0)
		return -1;
	skip_space(a);
	if (*a->p != '?')
		return 0;
	a->last_op = a->p;
	a->p++;
	if (!enter(a))
		return -1;
	bool cond = *out != 0;
	intmax_t then_value = 0, else_value = 0;
	if (!cond)
		a->skip++;
	int r = eval_comma(a, &then_value);
	if (!cond)
		a->skip--;
	if (r < 0)
		return -1;
	skip_space(a);
	if (*a->p != ':')
		return fail(a, "syntax error: `:' expected for conditional expression", *a->p ? a->p : NULL);
	a->last_op = a->p;
	a->p++;
	if (cond)
		a->skip++;
	r = eval_assign(a, &else_value);
	if (cond)
		a->skip--;
	if (r < 0)
		return -1;
	a->depth--;
	*out = cond ? then_value : else_value;
	return 0;
}

/* Recognises an assignment operator at p: "=", "+=", "<<=" ...; returns its
 * length and the binary operator in op ("" for plain =), or 0. */
static size_t match_assign_op(const char *p, char op[3])
{
	op[0] = op[1] = op[2] = '\0';
	if (p[0] == '=')
		return p[1] != '=' ? 1 : 0;
	switch (p[0]) {
	case '+': case '-': case '*': case '/': case '%': case '&': case '^': case '|':
		if (p[1] == '=') {
			op[0] = p[0];
			return 2;
		}
		break;
	default:
		break;
	}
	/* <<= >>= **= */
	if ((p[0] == '<' || p[0] == '>' || p[0] == '*') && p[1] == p[0] && p[2] == '=') {
		op[0] = op[1] = p[0];
		return 3;
	}
	return 0;
}

static int eval_assign(struct arith *a, intmax_t *out)
{
	skip_space(a);
	if (is_name_start(*a->p)) {
		const char *save = a->p;
		struct lvalue lv;
		unsigned saved_skip = a->skip;
		/* Parse the subscript without side effects first: we may not be
		 * looking at an assignment at all. */
		a->skip++;
		int r = parse_lvalue(a, &lv);
		a->skip = saved_skip;
		if (r < 0) {
			lvalue_free(&lv);
			return -1;
		}
		skip_space(a);
		char op[3];
		size_t n = match_assign_op(a->p, op);
		if (n > 0) {
			if (lv.has_index) {
				/* Re-evaluate the subscript for real. */
				lvalue_free(&lv);
				a->p = save;
				if (parse_lvalue(a, &lv) < 0) {
					lvalue_free(&lv);
					return -1;
				}
				skip_space(a);
			}
			a->p += n;
			if (!enter(a)) {
				lvalue_free(&lv);
				return -1;
			}
			intmax_t rhs;
			if (eval_assign(a, &rhs) < 0) {
				lvalue_free(&lv);
				return -1;
			}
			a->depth--;
			intmax_t value = rhs;
			if (op[0] != '\0') {
				intmax_t old = 0;
				if (read_variable(a, &lv, &old) < 0 || apply_binary(a, op, old, rhs, &value) < 0) {
					lvalue_free(&lv);
					return -1;
				}
			}
			r = write_variable(a, &lv, value);
			lvalue_free(&lv);
			*out = value;
			return r;
		}
		lvalue_free(&lv);
		a->p = save;
	}
	return eval_conditional(a, out);
}

static int eval_comma(struct arith *a, intmax_t *out)
{
	if (eval_assign(a, out) < 0)
		return -1;
	for (;;) {
		skip_space(a);
		if (*a->p != ',')
			return 0;
		a->last_op = a->p;
		a->p++;
		if (eval_assign(a, out) < 0)
			return -1;
	}
}

int arith_eval(struct shell *sh, const char *expr, intmax_t *result)
{
	struct arith a = {.sh = sh, .expr = expr, .p = expr};
	*result = 0;
	skip_space(&a);
	if (*a.p == '\0')
		return 0; /* $(( )) is 0 */
	intmax_t value = 0;
	if (eval_comma(&a, &value) < 0)
		return -1;
	skip_space(&a);
	if (*a.p != '\0') {
		fail(&a, "syntax error in expression", a.p);
		return -1;
	}
	*result = value;
	return 0;
}
