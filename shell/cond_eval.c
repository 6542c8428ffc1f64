/* The evaluator of [[ ]]: its expression tree (ast.h) to a status. */
#include "shell/cond_eval.h"

#include <regex.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "builtins/builtins.h"
#include "shell/arith.h"
#include "shell/expand.h"
#include "shell/pattern.h"
#include "shell/vars.h"

static void regex_escape(struct strbuf *out, const char *s)
{
	for (; *s; s++) {
		if (strchr("\\.[]()*+?{}|^$", *s))
			strbuf_addc(out, '\\');
		strbuf_addc(out, *s);
	}
}

/* The right side of =~: quoted parts match literally. */
static char *expand_regex_word(struct shell *sh, const struct word *w)
{
	struct strbuf out;
	strbuf_init(&out);
	for (size_t i = 0; i < w->nparts; i++) {
		const struct word_part *p = &w->parts[i];
		struct word one = {.parts = (struct word_part *)p, .nparts = 1, .range = w->range};
		bool quoted = p->kind == WORD_DQUOTE || (p->kind == WORD_LITERAL && p->u.literal.quote != QUOTE_NONE);
		if (p->kind == WORD_LITERAL && !quoted) {
			const char *t = p->u.literal.text;
			size_t len = p->u.literal.len, start = 0;
			if (i == 0 && len > 0 && t[0] == '~') {
				/* A tilde prefix expands, and matches as plain text
				 * (bash): [[ $HOME =~ ~ ]]. */
				size_t end = 1;
				while (end < len && t[end] != '/')
					end++;
				struct word_part tp = *p;
				tp.u.literal.text = xstrndup(t, end);
				tp.u.literal.len = end;
				struct word tw = {.parts = &tp, .nparts = 1, .range = w->range};
				char *home = (end < len || w->nparts == 1) ? expand_word_str(sh, &tw, 0) : NULL;
				free(tp.u.literal.text);
				if (home && strcmp(home, "~") != 0 && home[0] != '~') {
					regex_escape(&out, home);
					start = end;
				}
				free(home);
			}
			strbuf_addmem(&out, t + start, len - start);
			continue;
		}
		char *s = expand_word_str(sh, &one, EXPAND_NOTILDE);
		if (!s) {
			strbuf_free(&out);
			return NULL;
		}
		if (quoted)
			regex_escape(&out, s);
		else
			strbuf_adds(&out, s);
		free(s);
	}
	return strbuf_detach(&out);
}

static int cond_test_builtin(struct shell *sh, const char *a, const char *b, const char *c)
{
	char *argv[5] = {(char *)"test", (char *)a, (char *)b, (char *)c, NULL};
	int argc = c ? 4 : 3;
	return builtin_test(sh, argc, argv);
}

static bool option_is_on(struct shell *sh, const char *name)
{
	const struct {
		const char *name;
		size_t off;
	} opts[] = {
		{"allexport", offsetof(struct shell_options, allexport)},
		{"notify", offsetof(struct shell_options, notify)},
		{"noclobber", offsetof(struct shell_options, noclobber)},
		{"errexit", offsetof(struct shell_options, errexit)},
		{"noglob", offsetof(struct shell_options, noglob)},
		{"hashall", offsetof(struct shell_options, hashall)},
		{"monitor", offsetof(struct shell_options, monitor)},
		{"noexec", offsetof(struct shell_options, noexec)},
		{"nounset", offsetof(struct shell_options, nounset)},
		{"verbose", offsetof(struct shell_options, verbose)},
		{"xtrace", offsetof(struct shell_options, xtrace)},
		{"ignoreeof", offsetof(struct shell_options, ignoreeof)},
		{"pipefail", offsetof(struct shell_options, pipefail)},
		{"vi", offsetof(struct shell_options, vi)},
		{"emacs", offsetof(struct shell_options, emacs)},
		{"posix", offsetof(struct shell_options, posix)},
	};
	for (size_t i = 0; i < sizeof opts / sizeof opts[0]; i++)
		if (strcmp(opts[i].name, name) == 0)
			return *(const bool *)((const char *)&sh->opt + opts[i].off);
	return false;
}

int cond_eval(struct shell *sh, const struct cond_expr *c)
{
	switch (c->kind) {
	case COND_NOT: {
		int r = cond_eval(sh, c->left);
		return r == 2 ? 2 : !r;
	}
	case COND_AND: {
		int r = cond_eval(sh, c->left);
		return r != 0 ? r : cond_eval(sh, c->right);
	}
	case COND_OR: {
		int r = cond_eval(sh, c->left);
		return r == 1 ? cond_eval(sh, c->right) : r;
	}
	case COND_WORD: {
		char *s = expand_word_str(sh, c->lhs, 0);
		if (!s)
			return 2;
		int r = *s ? 0 : 1;
		free(s);
		return r;
	}
	case COND_UNARY: {
		char *s = expand_word_str(sh, c->lhs, 0);
		if (!s)
			return 2;
		int r;
		if (strcmp(c->op, "-o") == 0) {
			r = option_is_on(sh, s) ? 0 : 1;
		} else if (strcmp(c->op, "-z") == 0) {
			r = *s ? 1 : 0;
		} else if (strcmp(c->op, "-n") == 0) {
			r = *s ? 0 : 1;
		} else {
			const char *op = strcmp(c->op, "-a") == 0 ? "-e" : c->op;
			r = cond_test_builtin(sh, op, s, NULL);
		}
		free(s);
		return r;
	}
	case COND_BINARY:
		break;
	}
	const char *op = c->op;
	char *lhs = expand_word_str(sh, c->lhs, 0);
	if (!lhs)
		return 2;
	int r = 2;
	if (strcmp(op, "=") == 0 || strcmp(op, "==") == 0 || strcmp(op, "!=") == 0) {
		char *pat = expand_word_str(sh, c->rhs, EXPAND_PATTERN);
		if (pat) {
			/* [[ == ]] matches extglob groups whatever the option, as in bash */
			unsigned pf = PATTERN_EXTGLOB | (sh->opt.nocasematch ? PATTERN_NOCASE : 0);
			bool m = pattern_match(pat, lhs, pf);
			r = (m == (op[0] != '!')) ? 0 : 1;
			free(pat);
		}
	} else if (strcmp(op, "=~") == 0) {
		char *re = expand_regex_word(sh, c->rhs);
		if (re) {
			regex_t rx;
			int cflags = REG_EXTENDED | (sh->opt.nocasematch ? REG_ICASE : 0);
			if (regcomp(&rx, re, cflags) != 0) {
				r = 2;
			} else {
				size_t nm = rx.re_nsub + 1;
				regmatch_t *m = xcalloc(nm, sizeof *m);
				if (regexec(&rx, lhs, nm, m, 0) == 0) {
					r = 0;
					char **vals = xcalloc(nm + 1, sizeof *vals);
					for (size_t i = 0; i < nm; i++) {
						if (m[i].rm_so < 0)
							vals[i] = xstrdup("");
						else
							vals[i] = xstrndup(lhs + m[i].rm_so, (size_t)(m[i].rm_eo - m[i].rm_so));
					}
					vars_set_array(sh, "BASH_REMATCH", vals, nm, false);
					strv_free(vals);
				} else {
					r = 1;
					vars_set_array(sh, "BASH_REMATCH", NULL, 0, false);
				}
				free(m);
				regfree(&rx);
			}
			free(re);
		}
	} else {
		char *rhs = expand_word_str(sh, c->rhs, 0);
		if (rhs) {
			if (strcmp(op, "<") == 0) {
				r = strcoll(lhs, rhs) < 0 ? 0 : 1;
			} else if (strcmp(op, ">") == 0) {
				r = strcoll(lhs, rhs) > 0 ? 0 : 1;
			} else if (op[0] == '-' && (strcmp(op, "-nt") == 0 || strcmp(op, "-ot") == 0 || strcmp(op, "-ef") == 0)) {
				r = cond_test_builtin(sh, lhs, op, rhs);
			} else if (op[0] == '-') {
				intmax_t a, b;
				if (arith_eval(sh, lhs, &a) != 0 || arith_eval(sh, rhs, &b) != 0) {
					r = 2;
				} else if (strcmp(op, "-eq") == 0) {
					r = a == b ? 0 : 1;
				} else if (strcmp(op, "-ne") == 0) {
					r = a != b ? 0 : 1;
				} else if (strcmp(op, "-lt") == 0) {
					r = a < b ? 0 : 1;
				} else if (strcmp(op, "-le") == 0) {
					r = a <= b ? 0 : 1;
				} else if (strcmp(op, "-gt") == 0) {
					r = a > b ? 0 : 1;
				} else if (strcmp(op, "-ge") == 0) {
					r = a >= b ? 0 : 1;
				} else {
					shell_error(sh, "%s: unknown conditional operator", op);
				}
			} else {
				shell_error(sh, "%s: unknown conditional operator", op);
			}
			free(rhs);
		}
	}
	free(lhs);
	return r;
}
