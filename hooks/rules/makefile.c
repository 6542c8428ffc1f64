/* Makefile text the agent wrote, read as make would run it: the recipes of
 * the goals asked (and of what they need), with make's variables expanded,
 * so that `$(CC) -o app app.c` is judged as `cc -o app app.c` and
 * `$(RM) -r data` as `rm -f -r data`. Only what judging needs is read:
 * rules matched by name, variables, `define`, `$(shell ...)`. */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "hooks/rules/internal.h"
#include "lib/util.h"

/* One rule of makefile text: its targets' line and its recipe. */
struct make_rule {
	const char *targets, *prereqs; /* within the line, up to the ends below */
	size_t targets_len, prereqs_len;
	struct strbuf recipe; /* raw make text: expanded when wanted */
	bool wanted;
};

struct make_var {
	const char *name, *value;
};

struct makefile {
	struct make_rule *rules;
	size_t nrules;
	struct make_var *vars;
	size_t nvars, cap;
	struct strbuf parse_time; /* $(shell ...) outside recipes: run as make reads the file */
	const char *dir;          /* the folder make runs in (-C), or NULL */
	struct strvec files;      /* the makefiles read: make remakes each first */
	bool include_unknown;     /* an agent's include make cannot be told before it runs */
	unsigned depth;           /* of nested includes */
	struct strvec current;    /* targets found up to date (make_target_current) */
	unsigned current_steps;   /* its calls: a wide graph of rules is not walked past a budget */
};

#define MAKE_RULES_MAX 256
#define MAKE_VARS_MAX 512
#define MAKE_EXPAND_DEPTH 16
#define MAKE_EXPANDED_MAX (256u << 10)

/* What make defines itself (its built-in rules' variables). */
static const char *const make_defaults[] = {
	"CC", "cc", "CXX", "g++", "CPP", "$(CC) -E", "AR", "ar", "AS", "as", "LD", "ld", "RM", "rm -f",
	"MAKE", "make", "SHELL", "/bin/sh", "INSTALL", "install", "FC", "f77", "LEX", "lex", "YACC", "yacc",
	"MAKEINFO", "makeinfo", "TEX", "tex", "CO", "co", "GET", "get", "PC", "pc", "M2C", "m2c", NULL,
};

/* Whether word is one of list's words; make takes ./x for x. */
static bool make_word_in(const char *list, size_t len, const char *word, size_t wlen)
{
	while (wlen > 2 && word[0] == '.' && word[1] == '/')
		word += 2, wlen -= 2;
	for (size_t i = 0; i < len;) {
		while (i < len && (list[i] == ' ' || list[i] == '\t'))
			i++;
		while (i + 2 < len && list[i] == '.' && list[i + 1] == '/' && list[i + 2] != ' ' && list[i + 2] != '\t')
			i += 2;
		size_t start = i;
		while (i < len && list[i] != ' ' && list[i] != '\t')
			i++;
		if (i - start == wlen && memcmp(list + start, word, wlen) == 0)
			return true;
	}
	return false;
}

/* Marks the rules that make target, and what they need, as wanted. */
static void make_want(struct make_rule *rules, size_t n, const char *target, size_t len, unsigned depth)
{
	for (size_t i = 0; i < n && depth < 32; i++) {
		struct make_rule *r = &rules[i];
		if (r->wanted || !make_word_in(r->targets, r->targets_len, target, len))
			continue;
		r->wanted = true;
		for (size_t k = 0; k < r->prereqs_len;) {
			while (k < r->prereqs_len && (r->prereqs[k] == ' ' || r->prereqs[k] == '\t' || r->prereqs[k] == '|'))
				k++;
			size_t start = k;
			while (k < r->prereqs_len && r->prereqs[k] != ' ' && r->prereqs[k] != '\t')
				k++;
			if (k > start)
				make_want(rules, n, r->prereqs + start, k - start, depth + 1);
		}
	}
}

static const char *var_find(const struct makefile *m, const char *name, size_t len)
{
	for (size_t i = m->nvars; i-- > 0;)
		if (strlen(m->vars[i].name) == len && memcmp(m->vars[i].name, name, len) == 0)
			return m->vars[i].value;
	return NULL;
}

static void var_set(struct cctx *c, struct makefile *m, const char *name, size_t nlen, const char *value,
                    size_t vlen, char op)
{
	const char *old = var_find(m, name, nlen);
	if (op == '?' && old)
		return;
	const char *v = op == '+' && old ? cl_printf(c, "%s %.*s", old, (int)vlen, value) : cl_strndup(c, value, vlen);
	if (m->nvars == m->cap) {
		if (m->cap >= MAKE_VARS_MAX)
			return;
		m->cap = m->cap ? 2 * m->cap : 16;
		m->vars = xreallocarray(m->vars, m->cap, sizeof *m->vars);
	}
	m->vars[m->nvars].name = cl_strndup(c, name, nlen);
	m->vars[m->nvars].value = v;
	m->nvars++;
}

static size_t skip_blanks(const char *p, size_t i, size_t len)
{
	while (i < len && (p[i] == ' ' || p[i] == '\t'))
		i++;
	return i;
}

/* A variable assignment line (NAME = v, NAME := v, NAME ?= v, NAME += v,
 * with `export` or `override` before it): true when it was one. */
static bool read_assignment(struct cctx *c, struct makefile *m, const char *p, size_t len)
{
	size_t i = skip_blanks(p, 0, len);
	for (;;) {
		if (len - i > 7 && strncmp(p + i, "export ", 7) == 0)
			i = skip_blanks(p, i + 7, len);
		else if (len - i > 9 && strncmp(p + i, "override ", 9) == 0)
			i = skip_blanks(p, i + 9, len);
		else
			break;
	}
	size_t name = i;
	while (i < len && p[i] != '=' && p[i] != ':' && p[i] != '?' && p[i] != '+' && p[i] != '!' && p[i] != ' ' &&
	       p[i] != '\t' && p[i] != '$')
		i++;
	size_t name_end = i;
	i = skip_blanks(p, i, len);
	if (name_end == name || i >= len)
		return false;
	char op = '=';
	if (p[i] == '=') {
		i++;
	} else if (len - i >= 2 && strchr("?+!", p[i]) && p[i + 1] == '=') {
		op = p[i];
		i += 2;
	} else if (len - i >= 2 && p[i] == ':' && p[i + 1] == '=') {
		i += 2;
	} else if (len - i >= 3 && strncmp(p + i, "::=", 3) == 0) {
		i += 3;
	} else {
		return false;
	}
	i = skip_blanks(p, i, len);
	if (op == '!') /* NAME != command: a shell command run as make reads the file */
		strbuf_addf(&m->parse_time, "%.*s\n", (int)(len - i), p + i);
	var_set(c, m, p + name, name_end - name, p + i, len - i, op == '!' ? '=' : op);
	return true;
}

static void expand_into(struct cctx *c, const struct makefile *m, const char *s, size_t len, struct strbuf *out,
                        unsigned depth);

/* The end of a $( ) or ${ } reference that opens at s[i] (the '(' or '{'),
 * counting nested parentheses as make does; len when it does not close. */
static size_t reference_end(const char *s, size_t i, size_t len)
{
	char open = s[i], close = open == '(' ? ')' : '}';
	int level = 0;
	for (; i < len; i++) {
		if (s[i] == open)
			level++;
		else if (s[i] == close && --level == 0)
			return i;
	}
	return len;
}

/* The value a variable reference stands for: the makefile's (or the
 * command line's, set first), then the environment, then make's own. */
static void expand_variable(struct cctx *c, const struct makefile *m, const char *name, size_t len,
                            struct strbuf *out, unsigned depth)
{
	/* $(NAME:a=b), a substitution reference: the variable's words */
	const char *colon = memchr(name, ':', len);
	if (colon)
		len = (size_t)(colon - name);
	const char *v = var_find(m, name, len);
	bool known = true;
	if (!v) {
		char *key = cl_strndup(c, name, len);
		v = cl_env_get(c, key, &known);
		if (!known)
			v = NULL;
		if (!v || !*v) {
			v = NULL;
			for (size_t i = 0; make_defaults[i]; i += 2)
				if (strcmp(make_defaults[i], key) == 0)
					v = make_defaults[i + 1];
		}
	}
	if (v)
		expand_into(c, m, v, strlen(v), out, depth + 1);
}

/* A function call $(fn args): $(shell cmd) runs cmd, so it becomes the
 * shell's own $( ); $(call var,...) is var's text; the others (wildcard,
 * patsubst...) yield file names, read as a stand-in name. */
static void expand_function(struct cctx *c, const struct makefile *m, const char *s, size_t len,
                            struct strbuf *out, unsigned depth)
{
	size_t fn = strcspn(s, " \t");
	if (fn > len)
		fn = len;
	size_t args = skip_blanks(s, fn, len);
	if (fn == 5 && strncmp(s, "shell", 5) == 0) {
		strbuf_adds(out, "$(");
		expand_into(c, m, s + args, len - args, out, depth + 1);
		strbuf_adds(out, ")");
	} else if (fn == 4 && strncmp(s, "call", 4) == 0) {
		size_t comma = args;
		while (comma < len && s[comma] != ',')
			comma++;
		expand_variable(c, m, s + args, comma - args, out, depth);
	} else if ((fn == 4 && strncmp(s, "eval", 4) == 0) || (fn == 5 && strncmp(s, "value", 5) == 0)) {
		expand_into(c, m, s + args, len - args, out, depth + 1);
	} else {
		strbuf_adds(out, "FILE");
	}
}

/* Make text to the shell text make hands to the shell: $$ is $, $(x) and
 * ${x} and $x are expanded, automatic variables ($@ $< $^ ...) stand for
 * a file name. Past the depth or size bound (a variable that refers to
 * itself) what is left is dropped: make itself refuses such a makefile. */
static void expand_into(struct cctx *c, const struct makefile *m, const char *s, size_t len, struct strbuf *out,
                        unsigned depth)
{
	if (depth > MAKE_EXPAND_DEPTH)
		return;
	for (size_t i = 0; i < len && out->len < MAKE_EXPANDED_MAX; i++) {
		if (s[i] != '$' || i + 1 >= len) {
			strbuf_addc(out, s[i]);
			continue;
		}
		char n = s[++i];
		if (n == '$') {
			strbuf_addc(out, '$');
		} else if (n == '(' || n == '{') {
			size_t end = reference_end(s, i, len);
			const char *inner = s + i + 1;
			size_t ilen = end > i ? end - i - 1 : 0;
			if (memchr(inner, ' ', ilen) || memchr(inner, '\t', ilen))
				expand_function(c, m, inner, ilen, out, depth);
			else
				expand_variable(c, m, inner, ilen, out, depth);
			i = end;
		} else if (strchr("@<^?*+|%", n)) {
			strbuf_adds(out, "FILE");
			if (i + 1 < len && (s[i + 1] == 'D' || s[i + 1] == 'F'))
				i++;
		} else {
			expand_variable(c, m, &s[i], 1, out, depth);
		}
	}
}

/* Reads the rules, the variables and the parse-time commands of makefile
 * text; variables set on make's command line (NAME=value) come first and
 * win over the file's, as in make. */
static void read_makefile_text(struct cctx *c, struct makefile *m, const char *text);

/* Whether a line ends in an odd number of backslashes: it goes on. */
static bool continued(const char *p, size_t len)
{
	size_t k = 0;
	while (k < len && p[len - 1 - k] == '\\')
		k++;
	return k % 2 == 1;
}

/* include, -include, sinclude: the files named are read there, as make
 * does. The agent's are read as the line's own text; the human's are the
 * project's code, opaque; one whose name is only known when make runs
 * ($(wildcard), a function) cannot be judged, unless it is a compiler's
 * dependency file (.d). True when the line was one. */
static bool read_include(struct cctx *c, struct makefile *m, const char *p, size_t len)
{
	size_t i = skip_blanks(p, 0, len), kw;
	if (len - i > 8 && strncmp(p + i, "include", 7) == 0 && (p[i + 7] == ' ' || p[i + 7] == '\t'))
		kw = 7;
	else if (len - i > 9 && (strncmp(p + i, "-include", 8) == 0 || strncmp(p + i, "sinclude", 8) == 0) &&
	         (p[i + 8] == ' ' || p[i + 8] == '\t'))
		kw = 8;
	else
		return false;
	struct strbuf names;
	strbuf_init(&names);
	expand_into(c, m, p + i + kw, len - i - kw, &names, 0);
	const char *q = names.data ? names.data : "";
	while (*q) {
		q += strspn(q, " \t");
		size_t wl = strcspn(q, " \t");
		if (!wl)
			break;
		char *word = cl_strndup(c, q, wl);
		q += wl;
		if (strstr(word, "FILE") || strpbrk(word, "*?[$")) {
			size_t l = strlen(word);
			if (!(l > 2 && strcmp(word + l - 2, ".d") == 0))
				m->include_unknown = true;
			continue;
		}
		const char *path = word[0] == '/' || !m->dir ? word : cl_printf(c, "%s/%s", m->dir, word);
		const char *inc = NULL;
		struct sarg file = {.text = path, .known = true};
		struct stdin_src none = {STDIN_NONE, NULL};
		int w = code_operand_text(c, &file, &none, &inc);
		if (w >= 0 || m->depth >= 8)
			strvec_push(&m->files, word);
		if (w == 0)
			m->include_unknown = true;
		if (w == 1 && m->depth < 8) {
			m->depth++;
			read_makefile_text(c, m, inc);
			m->depth--;
		}
	}
	strbuf_free(&names);
	return true;
}

static void read_makefile(struct cctx *c, struct makefile *m, const char *text, const char *dir, const char *name,
                          const struct sarg *a, size_t n)
{
	memset(m, 0, sizeof *m);
	m->rules = xcalloc(MAKE_RULES_MAX, sizeof *m->rules);
	strbuf_init(&m->parse_time);
	strvec_init(&m->files);
	strvec_init(&m->current);
	m->dir = dir;
	if (name)
		strvec_push(&m->files, name);
	read_makefile_text(c, m, text);
	for (size_t i = 1; i < n; i++)
		if (a[i].known && a[i].text[0] != '-' && strchr(a[i].text, '='))
			read_assignment(c, m, cl_printf(c, "override %s", a[i].text), strlen(a[i].text) + 9);
}

static void read_makefile_text(struct cctx *c, struct makefile *m, const char *text)
{
	const char *define = NULL;
	size_t define_len = 0;
	struct strbuf body;
	strbuf_init(&body);
	for (const char *next = text; *next;) {
		const char *p = next;
		size_t len = strcspn(p, "\n");
		next = p + len + (p[len] == '\n');
		/* Outside recipes and defines a backslash at the end of a line
		 * joins the next one, with one space, as make reads them. */
		if (!define && !(*p == '\t' && m->nrules > 0) && continued(p, len) && *next) {
			struct strbuf joined;
			strbuf_init(&joined);
			strbuf_addmem(&joined, p, len - 1);
			bool more = true;
			while (more && *next) {
				const char *q = next + strspn(next, " \t");
				size_t ql = strcspn(q, "\n");
				next = q + ql + (q[ql] == '\n');
				more = continued(q, ql);
				strbuf_addc(&joined, ' ');
				strbuf_addmem(&joined, q, more ? ql - 1 : ql);
			}
			p = cl_strndup(c, joined.data ? joined.data : "", joined.len);
			len = joined.len;
			strbuf_free(&joined);
		}
		size_t t = skip_blanks(p, 0, len);
		if (define) {
			if (len - t >= 5 && strncmp(p + t, "endef", 5) == 0) {
				var_set(c, m, define, define_len, body.data ? body.data : "", body.len, '=');
				define = NULL;
				strbuf_truncate(&body, 0);
			} else {
				strbuf_addmem(&body, p, len);
				strbuf_addc(&body, '\n');
			}
		} else if (len - t > 7 && strncmp(p + t, "define ", 7) == 0) {
			size_t s = skip_blanks(p, t + 7, len);
			define = p + s;
			define_len = strcspn(define, " \t=:?+\n");
		} else if (*p == '\t' && m->nrules > 0) {
			size_t k = 1; /* @ (silent), - (errors ignored), + (always run) */
			while (k < len && strchr("@-+ \t", p[k]))
				k++;
			strbuf_addmem(&m->rules[m->nrules - 1].recipe, p + k, len - k);
			strbuf_addc(&m->rules[m->nrules - 1].recipe, '\n');
		} else if (p[t] != '#' && !read_include(c, m, p, len) && !read_assignment(c, m, p, len) &&
		           m->nrules < MAKE_RULES_MAX) {
			const char *colon = memchr(p, ':', len);
			if (colon && colon[1] != '=') {
				struct make_rule *r = &m->rules[m->nrules++];
				r->targets = p;
				r->targets_len = (size_t)(colon - p);
				r->prereqs = colon + 1 + (colon[1] == ':');
				const char *semi = memchr(r->prereqs, ';', len - (size_t)(r->prereqs - p));
				r->prereqs_len = (size_t)((semi ? semi : p + len) - r->prereqs);
				strbuf_init(&r->recipe);
				if (semi) {
					strbuf_addmem(&r->recipe, semi + 1, (size_t)(p + len - semi - 1));
					strbuf_addc(&r->recipe, '\n');
				}
			}
		}
		/* $(shell ...) outside a recipe runs while make reads the file */
		if (*p != '\t' || m->nrules == 0) {
			for (const char *q = p; (q = strstr(q, "$(shell")) && q < p + len; q++) {
				size_t end = reference_end(q, 1, (size_t)(p + len - q));
				strbuf_addmem(&m->parse_time, q, end + 1 <= (size_t)(p + len - q) ? end + 1 : (size_t)(p + len - q));
				strbuf_addc(&m->parse_time, '\n');
			}
		}
	}
	strbuf_free(&body);
}

/* A path of a makefile's word, in the folder make runs in. */
static const char *make_path(struct cctx *c, const struct makefile *m, const char *word)
{
	return word[0] == '/' || !m->dir ? word : cl_printf(c, "%s/%s", m->dir, word);
}

static bool make_newer(const struct stat *a, const struct stat *b)
{
	return a->st_mtim.tv_sec > b->st_mtim.tv_sec ||
	       (a->st_mtim.tv_sec == b->st_mtim.tv_sec && a->st_mtim.tv_nsec > b->st_mtim.tv_nsec);
}

/* Whether make would leave target as it is: it exists, is not phony, and
 * every rule naming it has prerequisites that exist, are no newer, and are
 * current themselves. Anything this cannot tell (a word still holding $, a
 * pattern, VPATH's search, a double-colon rule with nothing after it)
 * counts as remade. make decides the same way on the same times, so the
 * rules it would run to remake a makefile are judged, and an up-to-date
 * Makefile (automake's, after configure) does not drag its rules in. */
static bool make_target_current(struct cctx *c, struct makefile *m, const char *target, size_t len,
                                unsigned depth)
{
	if (depth > 16 || len == 0 || ++m->current_steps > 4096)
		return false; /* past telling: counts as remade */
	const char *name = cl_strndup(c, target, len);
	for (size_t i = 0; i < m->current.len; i++)
		if (strcmp(m->current.items[i], name) == 0)
			return true; /* each target is looked at once */
	struct stat tst;
	if (strpbrk(name, "$%*?[") || stat(make_path(c, m, name), &tst) != 0)
		return false;
	for (size_t i = 0; i < m->nrules; i++) {
		const struct make_rule *r = &m->rules[i];
		bool phony = r->targets_len == 6 && memcmp(r->targets, ".PHONY", 6) == 0;
		struct strbuf targets;
		strbuf_init(&targets);
		expand_into(c, m, r->targets, r->targets_len, &targets, 0);
		bool names = make_word_in(targets.data ? targets.data : "", targets.len, name, len);
		strbuf_free(&targets);
		if (!phony && !names)
			continue;
		struct strbuf pre;
		strbuf_init(&pre);
		expand_into(c, m, r->prereqs, r->prereqs_len, &pre, 0);
		const char *q = pre.data ? pre.data : "";
		bool current = true;
		if (phony) {
			current = !make_word_in(q, pre.len, name, len);
		} else {
			bool double_colon = (size_t)(r->prereqs - r->targets) == r->targets_len + 2;
			bool order_only = false, any = false;
			for (size_t k = 0; current && k < pre.len;) {
				k = skip_blanks(q, k, pre.len);
				size_t start = k;
				while (k < pre.len && q[k] != ' ' && q[k] != '\t')
					k++;
				if (k == start)
					break;
				if (k - start == 1 && q[start] == '|') {
					order_only = true;
					continue;
				}
				any = true;
				const char *word = cl_strndup(c, q + start, k - start);
				struct stat pst;
				if (strpbrk(word, "$%*?[") || stat(make_path(c, m, word), &pst) != 0)
					current = false;
				else if (!order_only && make_newer(&pst, &tst))
					current = false;
				else if (!make_target_current(c, m, word, k - start, depth + 1))
					current = false;
			}
			if (double_colon && !any)
				current = false; /* make always runs such a rule */
		}
		strbuf_free(&pre);
		if (!current)
			return false;
	}
	strvec_push(&m->current, name);
	return true;
}

/* The shell commands make would run from makefile text for goals (the
 * operands; none: the first target): what runs as the file is read, then
 * the recipes of those rules and of what they need, expanded. Rules are
 * matched by name only. */
const char *make_recipes(struct cctx *c, const char *text, const char *dir, const char *name, const struct sarg *a,
                         size_t n, bool *unknown)
{
	struct makefile m;
	read_makefile(c, &m, text, dir, name, a, n);
	*unknown = m.include_unknown;
	/* Each makefile read is remade first when a rule makes it and it is out
	 * of date, and read again: those rules run whatever the goals. */
	for (size_t i = 0; i < m.files.len; i++)
		if (!make_target_current(c, &m, m.files.items[i], strlen(m.files.items[i]), 0))
			make_want(m.rules, m.nrules, m.files.items[i], strlen(m.files.items[i]), 0);
	bool goal = false;
	for (size_t i = 1; i < n; i++)
		if (a[i].known && a[i].text[0] != '-' && !strchr(a[i].text, '=') &&
		    !(a[i - 1].known && (eq(a[i - 1].text, "-f") || eq(a[i - 1].text, "-C") || eq(a[i - 1].text, "--eval") ||
		                         eq(a[i - 1].text, "-E") || eq(a[i - 1].text, "--file") || eq(a[i - 1].text, "--makefile")))) {
			goal = true;
			make_want(m.rules, m.nrules, a[i].text, strlen(a[i].text), 0);
		}
	for (size_t i = 0; !goal && i < m.nrules; i++)
		if (m.rules[i].targets_len && m.rules[i].targets[0] != '.' &&
		    !memchr(m.rules[i].targets, '%', m.rules[i].targets_len)) {
			size_t len = strcspn(m.rules[i].targets, " \t:");
			make_want(m.rules, m.nrules, m.rules[i].targets, len, 0);
			goal = true;
		}
	struct strbuf out;
	strbuf_init(&out);
	if (m.parse_time.len)
		expand_into(c, &m, m.parse_time.data, m.parse_time.len, &out, 0);
	for (size_t i = 0; i < m.nrules; i++) {
		if (m.rules[i].wanted && m.rules[i].recipe.len)
			expand_into(c, &m, m.rules[i].recipe.data, m.rules[i].recipe.len, &out, 0);
		strbuf_free(&m.rules[i].recipe);
	}
	free(m.rules);
	free(m.vars);
	strvec_free(&m.files);
	strvec_free(&m.current);
	strbuf_free(&m.parse_time);
	const char *recipes = cl_strndup(c, out.data ? out.data : "", out.len);
	strbuf_free(&out);
	return recipes;
}
