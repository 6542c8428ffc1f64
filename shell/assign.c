/* Assignments: NAME=value and NAME=(...) before a command or alone, and the
 * NAME=value operands of the declaration builtins (declare, local...),
 * expanded as assignments are. */
#include "shell/assign.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "builtins/builtins.h"
#include "shell/arith.h"
#include "shell/expand.h"
#include "shell/vars.h"
#include "shell/xtrace.h"

/* For a=([i]=v ...): when w starts with an unquoted [index]= or
 * [index]+=, fills the index and value words (their parts point into w
 * and scratch) and *append, and returns true. */
static bool split_indexed_element(const struct word *w, struct word *index, struct word *value,
                                  struct word_part *scratch, bool *append)
{
	if (w->nparts == 0 || w->parts[0].kind != WORD_LITERAL || w->parts[0].u.literal.quote != QUOTE_NONE ||
	    w->parts[0].u.literal.len == 0 || w->parts[0].u.literal.text[0] != '[')
		return false;
	for (size_t k = 0; k < w->nparts; k++) {
		const struct word_part *p = &w->parts[k];
		if (p->kind != WORD_LITERAL || p->u.literal.quote != QUOTE_NONE)
			continue;
		const char *t = p->u.literal.text;
		size_t len = p->u.literal.len;
		size_t from = k == 0 ? 1 : 0;
		for (size_t j = from; j + 1 < len; j++) {
			if (t[j] != ']')
				continue;
			size_t op = t[j + 1] == '+' && j + 2 < len ? 2 : 1; /* ]= or ]+= */
			if (t[j + op] != '=')
				continue;
			*append = op == 2;
			/* scratch[0]: the index's last literal, scratch[1]: the
			 * value's first literal. */
			scratch[0] = *p;
			scratch[0].u.literal.text = (char *)t + (k == 0 ? 1 : 0);
			scratch[0].u.literal.len = j - (k == 0 ? 1 : 0);
			scratch[1] = *p;
			scratch[1].u.literal.text = (char *)t + j + op + 1;
			scratch[1].u.literal.len = len - j - op - 1;
			if (k == 0) {
				index->parts = &scratch[0];
				index->nparts = 1;
			} else {
				/* parts[0] without its '[', parts 1..k-1, then the head of k */
				struct word_part *ip = xcalloc(k + 1, sizeof *ip);
				ip[0] = w->parts[0];
				ip[0].u.literal.text++;
				ip[0].u.literal.len--;
				for (size_t m = 1; m < k; m++)
					ip[m] = w->parts[m];
				ip[k] = scratch[0];
				index->parts = ip;
				index->nparts = k + 1;
			}
			struct word_part *vp = xcalloc(w->nparts - k, sizeof *vp);
			vp[0] = scratch[1];
			for (size_t m = k + 1; m < w->nparts; m++)
				vp[m - k] = w->parts[m];
			value->parts = vp;
			value->nparts = w->nparts - k;
			index->range = value->range = w->range;
			return true;
		}
	}
	return false;
}

/* One element of a=(...) between the two passes. */
struct element {
	bool keyed;             /* [index]=value */
	bool append;            /* [index]+=value */
	struct word index;      /* keyed: not yet expanded */
	struct word_part scratch[2];
	char *value;            /* keyed: the expanded value */
	struct strvec words;    /* not keyed: the expanded words */
};

static void free_elements(struct element *el, size_t n)
{
	for (size_t k = 0; k < n; k++) {
		if (el[k].keyed && el[k].index.parts != &el[k].scratch[0])
			free(el[k].index.parts);
		free(el[k].value);
		strvec_free(&el[k].words);
	}
	free(el);
}

/* a=(...) with some [i]=v elements, or m=([k]=v ...) for an associative
 * array. As in bash, every value is expanded before the array changes
 * (a=([0]="${a[1]}") sees the old a), the subscripts after, one by one
 * as each element is stored. */
static int assign_keyed_array(struct shell *sh, const struct assign *a, bool assoc)
{
	struct element *el = xcalloc(a->narray ? a->narray : 1, sizeof *el);
	int rc = 0;
	for (size_t k = 0; k < a->narray && rc == 0; k++) {
		strvec_init(&el[k].words);
		struct word value;
		if (split_indexed_element(a->array[k], &el[k].index, &value, el[k].scratch, &el[k].append)) {
			el[k].keyed = true;
			el[k].value = expand_word_str(sh, &value, EXPAND_ASSIGN);
			free(value.parts);
			if (!el[k].value)
				rc = -1;
		} else if (assoc) {
			/* reported and skipped, as bash does */
			char *text = expand_word_str(sh, a->array[k], 0);
			shell_error(sh, "%s: %s: must use subscript when assigning associative array", a->name,
			            text ? text : "");
			free(text);
		} else if (expand_words(sh, &a->array[k], 1, &el[k].words) != 0) {
			rc = -1;
		}
	}
	long next = 0;
	struct var *v = vars_lookup(sh, a->name);
	if (a->append && v && (v->flags & VAR_ARRAY))
		next = (long)v->array_len;
	else if (a->append && v && v->value)
		next = 1;
	if (rc == 0 && !a->append && vars_set_array(sh, a->name, NULL, 0, false) != 0)
		rc = -1;
	for (size_t k = 0; k < a->narray && rc == 0; k++) {
		if (!el[k].keyed) {
			for (size_t m = 0; m < el[k].words.len && rc == 0; m++)
				rc = vars_set_element(sh, a->name, next++, el[k].words.items[m]);
			continue;
		}
		char *idx = expand_word_str(sh, &el[k].index, 0);
		if (!idx) {
			rc = -1;
			break;
		}
		if (assoc) {
			rc = vars_assoc_set(sh, a->name, idx, el[k].value, el[k].append);
			free(idx);
			continue;
		}
		intmax_t n = 0;
		rc = arith_eval(sh, idx, &n) != 0 ? -1 : 0;
		if (rc == 0 && n < 0) {
			shell_error(sh, "%s[%s]: bad array subscript", a->name, idx);
			rc = -1;
		}
		free(idx);
		if (rc != 0)
			break;
		const char *value = el[k].value;
		char *joined = NULL;
		v = el[k].append ? vars_lookup(sh, a->name) : NULL;
		if (v && (v->flags & VAR_ARRAY) && (size_t)n < v->array_len && v->array[n])
			value = joined = xasprintf("%s%s", v->array[n], value);
		rc = vars_set_element(sh, a->name, (long)n, value);
		free(joined);
		next = (long)n + 1;
	}
	free_elements(el, a->narray);
	return rc;
}

/* ref=v where ref is a reference to an element (declare -n ref='a[i]'):
 * the element is set, its subscript expanded now. */
static int assign_ref_element(struct shell *sh, const char *target, const char *value, bool append)
{
	const char *br = strchr(target, '[');
	char *name = xstrndup(target, (size_t)(br - target));
	char *sub = xstrndup(br + 1, strlen(br + 1) - 1);
	char *key = expand_subscript_text(sh, sub);
	free(sub);
	int rc;
	struct var *v = vars_lookup(sh, name);
	if (v && (v->flags & VAR_ASSOC)) {
		rc = vars_assoc_set(sh, name, key, value, append);
	} else {
		intmax_t n = 0;
		rc = arith_eval(sh, key, &n) != 0 ? -1 : 0;
		if (rc == 0 && n < 0 && v && (v->flags & VAR_ARRAY))
			n += (intmax_t)v->array_len;
		if (rc == 0 && n < 0) {
			shell_error(sh, "%s: bad array subscript", target);
			rc = -1;
		}
		char *joined = NULL;
		if (rc == 0 && append && v && (v->flags & VAR_ARRAY) && (size_t)n < v->array_len && v->array[n])
			value = joined = xasprintf("%s%s", v->array[n], value);
		else if (rc == 0 && append && v && !(v->flags & VAR_ARRAY) && n == 0 && v->value)
			value = joined = xasprintf("%s%s", v->value, value);
		if (rc == 0)
			rc = vars_set_element(sh, name, (long)n, value);
		free(joined);
	}
	free(key);
	free(name);
	return rc;
}

static bool has_indexed_element(const struct assign *a)
{
	for (size_t k = 0; k < a->narray; k++) {
		const struct word *w = a->array[k];
		if (w->nparts && w->parts[0].kind == WORD_LITERAL && w->parts[0].u.literal.quote == QUOTE_NONE &&
		    w->parts[0].u.literal.len && w->parts[0].u.literal.text[0] == '[')
			return true;
	}
	return false;
}

int assign_apply(struct shell *sh, const struct assign *as, size_t n, enum assign_mode mode)
{
	for (size_t i = 0; i < n; i++) {
		const struct assign *a = &as[i];
		if (mode == ASSIGN_TEMP && a->index) {
			/* bash refuses a[i]=v before a command name (an element
			 * cannot be put in a command's environment) and runs it */
			char *idx = expand_word_str(sh, a->index, 0);
			shell_error(sh, "`%s[%s]': not a valid identifier", a->name, idx ? idx : "");
			free(idx);
			continue;
		}
		struct var *target = a->is_array ? vars_lookup(sh, a->name) : NULL;
		bool to_assoc = target && (target->flags & VAR_ASSOC);
		if (to_assoc && a->narray > 0) {
			/* m=([k]=v ...) when the first element has its key; else
			 * m=(k v ...) pairs, through vars_set_array below */
			struct word index, value;
			struct word_part scratch[2];
			bool append;
			if (split_indexed_element(a->array[0], &index, &value, scratch, &append)) {
				if (index.parts != &scratch[0])
					free(index.parts);
				free(value.parts);
				if (assign_keyed_array(sh, a, true) != 0)
					return -1;
				continue;
			}
		}
		if (a->is_array && !to_assoc && has_indexed_element(a)) {
			if (assign_keyed_array(sh, a, false) != 0)
				return -1;
			continue;
		}
		if (a->is_array) {
			struct strvec vals;
			strvec_init(&vals);
			if (expand_words(sh, a->array, a->narray, &vals) != 0) {
				strvec_free(&vals);
				return -1;
			}
			if (sh->opt.xtrace)
				xtrace_array(sh, a->name, a->append, vals.items, vals.len);
			int rc = vars_set_array(sh, a->name, vals.items, vals.len, a->append);
			strvec_free(&vals);
			if (rc != 0)
				return -1;
			continue;
		}
		char *value = a->value ? expand_word_str(sh, a->value, EXPAND_ASSIGN) : xstrdup("");
		if (!value)
			return -1;
		const char *element = a->index ? NULL : vars_ref_element(sh, a->name);
		if (element) {
			int rc = assign_ref_element(sh, element, value, a->append);
			free(value);
			if (rc != 0)
				return -1;
			continue;
		}
		struct var *assoc = a->index ? vars_lookup(sh, a->name) : NULL;
		if (assoc && (assoc->flags & VAR_ASSOC)) {
			char *key = expand_word_str(sh, a->index, 0);
			if (key && sh->opt.xtrace)
				xtrace_value(sh, value, "%s[%s]%s=", a->name, key, a->append ? "+" : "");
			int rc = key ? vars_assoc_set(sh, a->name, key, value, a->append) : -1;
			free(key);
			free(value);
			if (rc != 0)
				return -1;
			continue;
		}
		if (a->index) {
			char *idx = expand_word_str(sh, a->index, 0);
			intmax_t k = 0;
			if (!idx || arith_eval(sh, idx, &k) != 0) {
				free(idx);
				free(value);
				return -1;
			}
			free(idx);
			if (k < 0) {
				struct var *v = vars_lookup(sh, a->name);
				if (v && (v->flags & VAR_ARRAY))
					k += (intmax_t)v->array_len;
				if (k < 0) {
					shell_error(sh, "%s[%jd]: bad array subscript", a->name, k - (intmax_t)(v ? v->array_len : 0));
					free(value);
					return -1;
				}
			}
			if (a->append) {
				struct var *v = vars_lookup(sh, a->name);
				if (v && (v->flags & VAR_ARRAY) && (size_t)k < v->array_len && v->array[k]) {
					char *joined = xasprintf("%s%s", v->array[k], value);
					free(value);
					value = joined;
				}
			}
			if (sh->opt.xtrace)
				xtrace_value(sh, value, "%s[%jd]=", a->name, k);
			int rc = vars_set_element(sh, a->name, (long)k, value);
			free(value);
			if (rc != 0)
				return -1;
			continue;
		}
		if (a->append) {
			struct var *v = vars_lookup(sh, a->name);
			if (v && (v->flags & VAR_INTEGER)) {
				char *expr = xasprintf("%s+(%s)", v->value ? v->value : "0", value);
				free(value);
				value = expr;
			} else {
				const char *old = vars_get(sh, a->name);
				if (old) {
					char *joined = xasprintf("%s%s", old, value);
					free(value);
					value = joined;
				}
			}
		}
		if (sh->opt.xtrace)
			xtrace_value(sh, value, "%s=", a->name);
		int rc = mode == ASSIGN_TEMP ? vars_set_temp(sh, a->name, value) : vars_set(sh, a->name, value, 0);
		free(value);
		if (rc != 0)
			return -1;
	}
	return 0;
}

/* ---- operands of declaration builtins ---------------------------------- */

/* Declaration builtins take NAME=value operands expanded like assignments. */
static bool is_declaration_word(const struct word *w)
{
	if (w->nparts != 1 || w->parts[0].kind != WORD_LITERAL || w->parts[0].u.literal.quote != QUOTE_NONE)
		return false;
	const char *t = w->parts[0].u.literal.text;
	size_t len = w->parts[0].u.literal.len;
	/* Cheap filter first: this runs for every simple command. */
	if (len < 5 || len > 8 || !strchr("delrt", t[0]))
		return false;
	char name[16];
	memcpy(name, t, len);
	name[len] = '\0';
	const struct builtin *b = builtin_find(name);
	return b && (b->flags & BUILTIN_DECLARATION);
}

/* An operand word of a declaration builtin that starts NAME= unquoted. */
static bool is_assignment_operand(const struct word *w)
{
	if (w->nparts == 0 || w->parts[0].kind != WORD_LITERAL || w->parts[0].u.literal.quote != QUOTE_NONE)
		return false;
	const char *t = w->parts[0].u.literal.text;
	size_t len = w->parts[0].u.literal.len;
	size_t i = 0;
	if (len == 0 || !((t[0] >= 'a' && t[0] <= 'z') || (t[0] >= 'A' && t[0] <= 'Z') || t[0] == '_'))
		return false;
	while (i < len && ((t[i] >= 'a' && t[i] <= 'z') || (t[i] >= 'A' && t[i] <= 'Z') || (t[i] >= '0' && t[i] <= '9') || t[i] == '_'))
		i++;
	if (i < len && t[i] == '[') {
		while (i < len && t[i] != ']')
			i++;
		if (i < len)
			i++;
	}
	if (i < len && t[i] == '+')
		i++;
	return i < len && t[i] == '=';
}

/* The parser hands `declare a=(x "y z")` over as one word: "a=(" then
 * the elements' parts separated by single-quoted " " parts, then ")";
 * those three pieces are marked as array syntax, which no part of an
 * element is. True when w has that shape. */
static bool is_declaration_array(const struct word *w)
{
	if (w->nparts < 2)
		return false;
	const struct word_part *first = &w->parts[0], *last = &w->parts[w->nparts - 1];
	if (first->kind != WORD_LITERAL || first->u.literal.quote != QUOTE_NONE || last->kind != WORD_LITERAL ||
	    last->u.literal.quote != QUOTE_NONE || last->u.literal.len != 1 || last->u.literal.text[0] != ')')
		return false;
	size_t len = first->u.literal.len;
	const char *t = first->u.literal.text;
	return len >= 3 && t[len - 2] == '=' && t[len - 1] == '(' && first->array_syntax && last->array_syntax;
}

static bool is_element_separator(const struct word_part *part)
{
	return part->kind == WORD_LITERAL && part->u.literal.quote == QUOTE_SINGLE && part->u.literal.len == 1 &&
	       part->u.literal.text[0] == ' ' && part->array_syntax;
}

/* Expands each element of a declaration array on its own (fields and all,
 * as in a=(...)) and passes NAME=('e1' 'e2') quoted for the builtin. */
static int expand_declaration_array(struct shell *sh, const struct word *w, struct strvec *out)
{
	struct strbuf sb;
	strbuf_init(&sb);
	strbuf_addmem(&sb, w->parts[0].u.literal.text, w->parts[0].u.literal.len);
	size_t i = 1, end = w->nparts - 1;
	bool first_element = true;
	while (i < end) {
		size_t j = i;
		while (j < end && !is_element_separator(&w->parts[j]))
			j++;
		struct word elem = {.parts = &w->parts[i], .nparts = j - i, .range = w->range};
		const struct word_part *p0 = &w->parts[i];
		/* [index]=value written unquoted keeps its subscript syntax. */
		const char *eq = NULL;
		if (elem.nparts > 0 && p0->kind == WORD_LITERAL && p0->u.literal.quote == QUOTE_NONE &&
		    p0->u.literal.len > 0 && p0->u.literal.text[0] == '[')
			eq = strstr(p0->u.literal.text, "]=");
		if (eq && (size_t)(eq - p0->u.literal.text) + 2 <= p0->u.literal.len) {
			char *value = expand_word_str(sh, &elem, EXPAND_ASSIGN);
			if (!value) {
				strbuf_free(&sb);
				return -1;
			}
			size_t prefix = (size_t)(eq - p0->u.literal.text) + 2;
			if (!first_element)
				strbuf_addc(&sb, ' ');
			/* The subscript is arithmetic: no quoting needed inside []. */
			strbuf_addmem(&sb, value, prefix);
			strbuf_add_single_quoted(&sb, value + prefix, strlen(value + prefix));
			free(value);
			first_element = false;
		} else if (elem.nparts > 0) {
			struct word *wp = &elem;
			struct strvec fields;
			strvec_init(&fields);
			if (expand_words(sh, &wp, 1, &fields) != 0) {
				strvec_free(&fields);
				strbuf_free(&sb);
				return -1;
			}
			for (size_t k = 0; k < fields.len; k++) {
				if (!first_element)
					strbuf_addc(&sb, ' ');
				strbuf_add_single_quoted(&sb, fields.items[k], strlen(fields.items[k]));
				first_element = false;
			}
			strvec_free(&fields);
		}
		i = j < end ? j + 1 : j;
	}
	strbuf_addc(&sb, ')');
	strvec_push_owned(out, strbuf_detach(&sb));
	return 0;
}

int assign_expand_argv(struct shell *sh, struct word *const *words, size_t nwords, struct strvec *out,
                       bool **array_args)
{
	*array_args = NULL;
	if (nwords == 0 || !is_declaration_word(words[0]))
		return expand_words(sh, words, nwords, out);
	/* Where the array literals land in out: such an operand is an array,
	 * a value that only looks like one (declare x='(a b)') a string. */
	size_t *at = NULL, nat = 0;
	int rc = 0;
	for (size_t i = 0; i < nwords && rc == 0; i++) {
		if (i > 0 && is_declaration_array(words[i])) {
			rc = expand_declaration_array(sh, words[i], out);
			if (rc == 0) {
				at = xreallocarray(at, nat + 1, sizeof *at);
				at[nat++] = out->len - 1;
			}
		} else if (i > 0 && is_assignment_operand(words[i])) {
			char *s = expand_word_str(sh, words[i], EXPAND_ASSIGN);
			if (!s)
				rc = -1;
			else
				strvec_push_owned(out, s);
		} else if (expand_words(sh, &words[i], 1, out) != 0) {
			rc = -1;
		}
	}
	if (rc == 0 && nat > 0) {
		bool *marks = xcalloc(out->len, sizeof *marks);
		for (size_t k = 0; k < nat; k++)
			marks[at[k]] = true;
		*array_args = marks;
	}
	free(at);
	return rc;
}
