/* Word expansion in POSIX order (with bash's brace expansion first).
 *
 * A word expands into a buffer of characters, each with flags saying
 * whether it was quoted and whether it came from an unquoted expansion
 * (only those are field-split). Two zero-width entries carry structure:
 * a mark (the field exists even if empty: "" or "$x") and a break (a field
 * boundary that IFS does not decide: between the elements of "$@"). Field
 * splitting and pathname expansion then work on that buffer alone. */
#include "shell/shell.h"
#include "shell/parser.h"
#include "shell/lexer.h"
#include "shell/users.h"
#include "shell/vars.h"
#include "shell/options.h"
#include "shell/expand.h"
#include "shell/arith.h"
#include "shell/pattern.h"
#include "shell/exec.h"
#include "shell/input.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

enum char_flags {
	CF_QUOTED = 1 << 0, /* literal for globbing, never split */
	CF_SPLIT = 1 << 1,  /* produced by an unquoted expansion */
	CF_MARK = 1 << 2,   /* zero-width: the field exists even if empty */
	CF_BREAK = 1 << 3,  /* zero-width: the field ends here */
	CF_IFS = 1 << 4,    /* a multibyte IFS character, folded into one byte */
};

/* Most words are short: their buffer lives on the stack and only a long
 * one moves to the heap. */
enum { XBUF_INLINE = 128 };

struct xbuf {
	char *chars;
	unsigned char *flags;
	size_t len;
	size_t cap;
	char inline_chars[XBUF_INLINE];
	unsigned char inline_flags[XBUF_INLINE];
};

struct expander {
	struct shell *sh;
	unsigned flags;   /* EXPAND_* */
	bool fields;      /* producing fields (expand_words): lists stay separate */
	/* Expanding the pattern or replacement of ${x#pat} ${x/pat/rep}: text
	 * the parser marked as inside the enclosing "..." is still pattern
	 * text (bash), only quotes written inside the ${ } make it literal. */
	bool pattern_operand;
	/* Expanding the word of an unquoted ${x:-word}: its unquoted text is
	 * part of the expansion's result and so is field-split. */
	bool split_literals;
};

/* Which quoted characters a string conversion escapes with a backslash. */
static const char pattern_specials[] = "*?[]\\";
static const char replacement_specials[] = "*?[]\\&";

static void xbuf_init(struct xbuf *xb)
{
	xb->chars = xb->inline_chars;
	xb->flags = xb->inline_flags;
	xb->len = 0;
	xb->cap = XBUF_INLINE;
}

static void xbuf_free(struct xbuf *xb)
{
	if (xb->chars != xb->inline_chars) {
		free(xb->chars);
		free(xb->flags);
	}
	xbuf_init(xb);
}

static void xbuf_reserve(struct xbuf *xb, size_t extra)
{
	if (xb->len + extra <= xb->cap)
		return;
	size_t cap = xb->cap;
	while (cap < xb->len + extra)
		cap *= 2;
	if (xb->chars == xb->inline_chars) {
		xb->chars = xmalloc(cap);
		xb->flags = xmalloc(cap);
		memcpy(xb->chars, xb->inline_chars, xb->len);
		memcpy(xb->flags, xb->inline_flags, xb->len);
	} else {
		xb->chars = xrealloc(xb->chars, cap);
		xb->flags = xrealloc(xb->flags, cap);
	}
	xb->cap = cap;
}

static void xbuf_add(struct xbuf *xb, char c, unsigned char flags)
{
	xbuf_reserve(xb, 1);
	xb->chars[xb->len] = c;
	xb->flags[xb->len] = flags;
	xb->len++;
}

static void xbuf_addmem(struct xbuf *xb, const char *s, size_t n, unsigned char flags)
{
	if (n == 0)
		return;
	xbuf_reserve(xb, n);
	memcpy(xb->chars + xb->len, s, n);
	memset(xb->flags + xb->len, flags, n);
	xb->len += n;
}

static void xbuf_mark(struct xbuf *xb)
{
	xbuf_add(xb, '\0', CF_MARK);
}

static void xbuf_break(struct xbuf *xb)
{
	xbuf_add(xb, '\0', CF_BREAK);
}

/* Whether c is in escape (one of the two sets above), without strchr. */
static bool needs_escape(char c, const char *escape)
{
	switch (c) {
	case '*': case '?': case '[': case ']': case '\\':
		return true;
	/* Special inside brackets ([!a-z] [^]) and in extglob groups: quoted,
	 * they are plain characters ([x\-y], '@(a)'). */
	case '-': case '!': case '^': case '(': case ')': case '|': case '@': case '+':
		return true;
	case '&':
		return escape == replacement_specials;
	default:
		return false;
	}
}

/* The text after quote removal; quoted characters in `escape` get a
 * backslash (pattern contexts). */
static char *xbuf_to_string(const struct xbuf *xb, size_t from, size_t to, const char *escape)
{
	size_t extra = 0;
	if (escape) {
		for (size_t i = from; i < to; i++) {
			if ((xb->flags[i] & (CF_QUOTED | CF_MARK | CF_BREAK)) == CF_QUOTED &&
			    needs_escape(xb->chars[i], escape))
				extra++;
		}
	}
	char *out = xmalloc(to - from + extra + 1);
	size_t n = 0;
	size_t i = from;
	while (i < to) {
		if (xb->flags[i] & (CF_MARK | CF_BREAK)) {
			i++;
			continue;
		}
		if (!extra) {
			/* copy the whole run up to the next zero-width entry */
			size_t j = i + 1;
			while (j < to && !(xb->flags[j] & (CF_MARK | CF_BREAK)))
				j++;
			memcpy(out + n, xb->chars + i, j - i);
			n += j - i;
			i = j;
			continue;
		}
		char c = xb->chars[i];
		if ((xb->flags[i] & CF_QUOTED) && needs_escape(c, escape))
			out[n++] = '\\';
		out[n++] = c;
		i++;
	}
	out[n] = '\0';
	return out;
}

static const char *ifs_value(struct shell *sh)
{
	const char *ifs = vars_get(sh, "IFS");
	return ifs ? ifs : " \t\n";
}

/* ---- UTF-8 helpers: lengths and offsets count characters ------------- */

/* The bytes of the character at s: a whole UTF-8 sequence, or 1 for a
 * byte that starts none (a stray continuation, a truncated or overlong
 * sequence), which counts as a character of its own, as in bash. */
static size_t utf8_step(const char *s)
{
	unsigned char c = (unsigned char)s[0];
	size_t n = c >= 0xF0 && c <= 0xF4 ? 4 : c >= 0xE0 ? 3 : c >= 0xC2 && c < 0xE0 ? 2 : 1;
	if (c >= 0xF5)
		n = 1;
	for (size_t k = 1; k < n; k++)
		if (((unsigned char)s[k] & 0xC0) != 0x80)
			return 1;
	return n;
}

static size_t utf8_length(const char *s)
{
	size_t n = 0;
	while (*s) {
		s += (unsigned char)*s < 0x80 ? 1 : utf8_step(s);
		n++;
	}
	return n;
}

/* Byte offset of character number `index` (clamped to the end). */
static size_t utf8_offset(const char *s, size_t index)
{
	size_t i = 0;
	while (s[i] && index > 0) {
		i += (unsigned char)s[i] < 0x80 ? 1 : utf8_step(s + i);
		index--;
	}
	return i;
}

static bool is_char_start(const char *s, size_t i)
{
	return ((unsigned char)s[i] & 0xC0) != 0x80;
}

/* ---- errors that end a non-interactive shell ------------------------- */

static int fatal_expansion_error(struct shell *sh)
{
	if (!sh->opt.interactive) {
		sh->jump = JUMP_EXIT;
		sh->exit_status = 1;
	} else if (sh->jump == JUMP_NONE) {
		sh->jump = JUMP_DISCARD; /* an interactive shell drops the line */
		sh->exit_status = 1;
	}
	sh->last_status = 1;
	return -1;
}

/* ---- parameter values --------------------------------------------------- */

enum pval_kind { PV_UNSET, PV_SCALAR, PV_LIST };

struct pval {
	enum pval_kind kind;
	char *str;          /* PV_SCALAR */
	struct strvec list; /* PV_LIST */
	bool star;          /* from $* or [*]: joined when quoted */
	bool is_list;       /* the parameter is $@ $* or a[@] a[*], even if unset */
};

static void pval_free(struct pval *pv)
{
	free(pv->str);
	pv->str = NULL;
	strvec_free(&pv->list);
	pv->kind = PV_UNSET;
}

static void pval_scalar(struct pval *pv, char *owned)
{
	pv->kind = PV_SCALAR;
	pv->str = owned;
}

static int expand_parts(struct expander *ex, const struct word_part *parts, size_t nparts,
                        bool quoted, bool word_start, struct xbuf *xb);
static char *expand_to_string(struct expander *ex, const struct word *w, unsigned flags,
                              const char *escape);
static char *expand_pattern_operand(struct expander *outer, const struct word *w, const char *escape);

static bool word_is_literal(const struct word *w, const char *text)
{
	return w && w->nparts == 1 && w->parts[0].kind == WORD_LITERAL &&
	       strcmp(w->parts[0].u.literal.text, text) == 0;
}

static bool is_digits(const char *s)
{
	if (!*s)
		return false;
	for (; *s; s++) {
		if (!isdigit((unsigned char)*s))
			return false;
	}
	return true;
}

/* Evaluates a subscript given as text; -1 after reporting. */
static int eval_subscript(struct expander *ex, const char *text, intmax_t *index)
{
	return arith_eval(ex->sh, text, index);
}

static void positional_list(struct shell *sh, struct strvec *list)
{
	for (size_t i = 0; i < sh->npositional; i++)
		strvec_push(list, sh->positional[i]);
}

/* Splits "name[sub]" (the target of ${!x}) into its pieces. */
static void split_subscripted(const char *text, char **name, char **subscript)
{
	const char *br = strchr(text, '[');
	size_t len = strlen(text);
	if (br && br != text && len > 0 && text[len - 1] == ']') {
		*name = xstrndup(text, (size_t)(br - text));
		*subscript = xstrndup(br + 1, (size_t)(text + len - 1 - (br + 1)));
	} else {
		*name = xstrdup(text);
		*subscript = NULL;
	}
}

/* Looks up name[subscript] (subscript NULL: none; "@" / "*": all).
 * Returns 0 or -1 after reporting. */
static int lookup_param(struct expander *ex, const char *name, const char *subscript, struct pval *pv)
{
	struct shell *sh = ex->sh;
	pv->kind = PV_UNSET;
	if (!subscript && (name[0] == '_' || isalpha((unsigned char)name[0]))) {
		/* the common case: an ordinary variable */
		const char *v = vars_get(sh, name);
		if (v) {
			pval_scalar(pv, xstrdup(v));
			return 0;
		}
		const char *element = vars_ref_element(sh, name);
		if (element) {
			/* a reference to a[i]: its element */
			char *tname, *tsub;
			split_subscripted(element, &tname, &tsub);
			char *expanded = tsub ? expand_subscript_text(sh, tsub) : NULL;
			int r = lookup_param(ex, tname, expanded, pv);
			free(tname);
			free(tsub);
			free(expanded);
			return r;
		}
		return 0;
	}
	if (!subscript) {
		if (strcmp(name, "@") == 0 || strcmp(name, "*") == 0) {
			pv->is_list = true;
			pv->star = name[0] == '*';
			pv->kind = PV_LIST;
			positional_list(sh, &pv->list);
			return 0;
		}
		if (strcmp(name, "#") == 0) {
			pval_scalar(pv, xasprintf("%zu", sh->npositional));
		} else if (strcmp(name, "?") == 0) {
			pval_scalar(pv, xasprintf("%d", sh->last_status));
		} else if (strcmp(name, "-") == 0) {
			pval_scalar(pv, options_dollar_dash(sh));
		} else if (strcmp(name, "$") == 0) {
			pval_scalar(pv, xasprintf("%ld", (long)shell_pid_settled(sh)));
		} else if (strcmp(name, "!") == 0) {
			if (sh->last_bg_pid > 0)
				pval_scalar(pv, xasprintf("%ld", (long)sh->last_bg_pid));
		} else if (strcmp(name, "0") == 0) {
			pval_scalar(pv, xstrdup(sh->arg0 ? sh->arg0 : "sbsh"));
		} else if (is_digits(name)) {
			unsigned long n = strtoul(name, NULL, 10);
			if (n >= 1 && n <= sh->npositional)
				pval_scalar(pv, xstrdup(sh->positional[n - 1]));
		} else {
			const char *v = vars_get(sh, name);
			if (v)
				pval_scalar(pv, xstrdup(v));
		}
		return 0;
	}
	struct var *v = vars_valid_name(name) ? vars_lookup(sh, name) : NULL;
	if (strcmp(subscript, "@") == 0 || strcmp(subscript, "*") == 0) {
		pv->is_list = true;
		pv->star = subscript[0] == '*';
		if (!v || (v->flags & VAR_NOVALUE))
			return 0;
		pv->kind = PV_LIST;
		if (v->flags & VAR_ARRAY) {
			for (size_t i = 0; i < v->array_len; i++) {
				if (v->array[i])
					strvec_push(&pv->list, v->array[i]);
			}
		} else if (v->value) {
			strvec_push(&pv->list, v->value);
		}
		return 0;
	}
	if (v && (v->flags & VAR_ASSOC)) {
		/* the subscript, expanded, is the key: no arithmetic */
		const char *value = vars_assoc_get(v, subscript);
		if (value)
			pval_scalar(pv, xstrdup(value));
		return 0;
	}
	intmax_t index;
	if (eval_subscript(ex, subscript, &index) < 0)
		return -1;
	if (!v || (v->flags & VAR_NOVALUE))
		return 0;
	if (v->flags & VAR_ARRAY) {
		if (index < 0)
			index += (intmax_t)v->array_len;
		if (index < 0) {
			/* bash reports it and goes on with an empty value */
			shell_error(sh, "%s: bad array subscript", name);
			return 0;
		}
		if ((size_t)index < v->array_len && v->array[index])
			pval_scalar(pv, xstrdup(v->array[index]));
	} else if ((index == 0 || index == -1) && v->value) {
		pval_scalar(pv, xstrdup(v->value));
	}
	return 0;
}

/* The text of the subscript of p (NULL when there is none). */
static int subscript_text(struct expander *ex, const struct word_param *p, char **out)
{
	*out = NULL;
	if (!p->index)
		return 0;
	if (word_is_literal(p->index, "@") || word_is_literal(p->index, "*")) {
		*out = xstrdup(p->index->parts[0].u.literal.text);
		return 0;
	}
	*out = expand_to_string(ex, p->index, EXPAND_NOTILDE, NULL);
	return *out ? 0 : -1;
}

/* Joins a list as "$*" does (first char of IFS) or "$@" in a string
 * context (a space). */
static char *join_list(struct shell *sh, const struct strvec *list, bool star)
{
	char sep[2] = {' ', '\0'};
	if (star) {
		const char *ifs = ifs_value(sh);
		sep[0] = ifs[0];
	}
	struct strbuf sb;
	strbuf_init(&sb);
	for (size_t i = 0; i < list->len; i++) {
		if (i > 0 && sep[0])
			strbuf_addc(&sb, sep[0]);
		strbuf_adds(&sb, list->items[i]);
	}
	return strbuf_detach(&sb);
}

/* ---- emitting values ---------------------------------------------------- */

static void emit_text(struct xbuf *xb, const char *s, bool quoted)
{
	xbuf_addmem(xb, s, strlen(s), quoted ? CF_QUOTED : CF_SPLIT);
	if (quoted)
		xbuf_mark(xb);
}

/* The byte length of the UTF-8 character s starts with (1 for a stray
 * byte). */
static size_t char_length(const char *s)
{
	size_t n = 1;
	if ((unsigned char)s[0] >= 0xc0)
		while (n < 4 && ((unsigned char)s[n] & 0xc0) == 0x80)
			n++;
	return n;
}

static void emit_pval(struct expander *ex, const struct pval *pv, bool quoted, struct xbuf *xb)
{
	switch (pv->kind) {
	case PV_UNSET:
		/* "${u[*]}" of an unset array is one empty field, like "$*" */
		if (quoted && (!pv->is_list || pv->star))
			xbuf_mark(xb);
		return;
	case PV_SCALAR:
		emit_text(xb, pv->str, quoted);
		return;
	case PV_LIST:
		if (!ex->fields || (quoted && pv->star)) {
			if (pv->list.len == 0 && pv->is_list && !(quoted && pv->star))
				return;
			char *s = join_list(ex->sh, &pv->list, pv->star);
			emit_text(xb, s, quoted);
			free(s);
			return;
		}
		/* Unquoted, an empty element makes no field, whatever IFS (as
		 * dash; bash keeps it when IFS is not blank: POSIX allows both). */
		for (size_t i = 0; i < pv->list.len; i++) {
			if (i > 0)
				xbuf_break(xb);
			emit_text(xb, pv->list.items[i], quoted);
		}
		return;
	}
}

/* ---- pattern operations ----------------------------------------------- */

/* Matches pattern against s[from, to) without copying the whole string. */
static bool match_range(const char *pattern, char *s, size_t from, size_t to, unsigned pflags)
{
	char saved = s[to];
	s[to] = '\0';
	bool ok = pattern_match(pattern, s + from, pflags);
	s[to] = saved;
	return ok;
}

/* Removes the prefix or suffix in place: s is owned and returned. */
static char *remove_pattern(char *s, const char *pattern, enum param_op op, unsigned pf)
{
	size_t len = strlen(s);
	switch (op) {
	case PARAM_REMOVE_SMALL_PREFIX:
		for (size_t i = 0; i <= len; i++) {
			if (is_char_start(s, i) && match_range(pattern, s, 0, i, pf)) {
				memmove(s, s + i, len - i + 1);
				break;
			}
		}
		break;
	case PARAM_REMOVE_LARGE_PREFIX:
		for (size_t i = len + 1; i-- > 0;) {
			if (is_char_start(s, i) && match_range(pattern, s, 0, i, pf)) {
				memmove(s, s + i, len - i + 1);
				break;
			}
		}
		break;
	case PARAM_REMOVE_SMALL_SUFFIX:
		for (size_t i = len + 1; i-- > 0;) {
			if (is_char_start(s, i) && pattern_match(pattern, s + i, pf)) {
				s[i] = '\0';
				break;
			}
		}
		break;
	case PARAM_REMOVE_LARGE_SUFFIX:
		for (size_t i = 0; i <= len; i++) {
			if (is_char_start(s, i) && pattern_match(pattern, s + i, pf)) {
				s[i] = '\0';
				break;
			}
		}
		break;
	default:
		break;
	}
	return s;
}

/* Appends the replacement text for one match: an unquoted & stands for
 * the matched text (bash 5.2's patsub_replacement); \x is x. */
static void add_replacement(struct strbuf *out, const char *rep, const char *match, size_t match_len)
{
	for (const char *r = rep; *r; r++) {
		if (*r == '\\' && r[1] != '\0') {
			strbuf_addc(out, *++r);
		} else if (*r == '&') {
			strbuf_addmem(out, match, match_len);
		} else {
			strbuf_addc(out, *r);
		}
	}
}

static char *replace_pattern(const char *value, const char *pattern, const char *rep, enum param_op op,
                             unsigned pf)
{
	char *s = xstrdup(value);
	size_t len = strlen(s);
	struct strbuf out;
	strbuf_init(&out);
	if (op == PARAM_REPLACE_PREFIX) {
		for (size_t j = len + 1; j-- > 0;) {
			if (is_char_start(s, j) && match_range(pattern, s, 0, j, pf)) {
				add_replacement(&out, rep, s, j);
				strbuf_adds(&out, s + j);
				free(s);
				return strbuf_detach(&out);
			}
		}
		strbuf_free(&out);
		return s;
	}
	if (op == PARAM_REPLACE_SUFFIX) {
		for (size_t i = 0; i <= len; i++) {
			if (is_char_start(s, i) && pattern_match(pattern, s + i, pf)) {
				strbuf_addmem(&out, s, i);
				add_replacement(&out, rep, s + i, len - i);
				free(s);
				return strbuf_detach(&out);
			}
		}
		strbuf_free(&out);
		return s;
	}
	if (*pattern == '\0') {
		strbuf_free(&out);
		return s;
	}
	size_t i = 0;
	bool replaced = false;
	while (i < len) {
		size_t found = 0;
		if (!(replaced && op == PARAM_REPLACE)) {
			for (size_t j = len; j > i; j--) {
				if (is_char_start(s, j) && match_range(pattern, s, i, j, pf)) {
					found = j;
					break;
				}
			}
		}
		if (found) {
			add_replacement(&out, rep, s + i, found - i);
			i = found;
			replaced = true;
			continue;
		}
		do /* a whole character: no match starts inside one */
			strbuf_addc(&out, s[i++]);
		while (i < len && !is_char_start(s, i));
	}
	free(s);
	return strbuf_detach(&out);
}

/* Case mapping of the letters bash maps in a UTF-8 locale that are most
 * met: ASCII, Latin-1, Latin Extended-A, Greek and Cyrillic. */
static unsigned long case_map(unsigned long c, bool upper)
{
	if (upper) {
		if (c >= 'a' && c <= 'z')
			return c - 32;
		if (c < 0x80)
			return c;
		if ((c >= 0xe0 && c <= 0xfe && c != 0xf7) || (c >= 0x3b1 && c <= 0x3c9 && c != 0x3c2) ||
		    (c >= 0x430 && c <= 0x44f))
			return c - 0x20;
		if (c == 0xff)
			return 0x178;
		if (c == 0x131)
			return 'I';
		if (c == 0x3c2)
			return 0x3a3;
		if (c >= 0x450 && c <= 0x45f)
			return c - 0x50;
		if (((c >= 0x100 && c <= 0x137) || (c >= 0x14a && c <= 0x177)) && (c & 1))
			return c - 1;
		if (((c >= 0x139 && c <= 0x148) || (c >= 0x179 && c <= 0x17e)) && !(c & 1))
			return c - 1;
		return c;
	}
	if (c >= 'A' && c <= 'Z')
		return c + 32;
	if (c < 0x80)
		return c;
	if ((c >= 0xc0 && c <= 0xde && c != 0xd7) || (c >= 0x391 && c <= 0x3a9 && c != 0x3a2) ||
	    (c >= 0x410 && c <= 0x42f))
		return c + 0x20;
	if (c == 0x178)
		return 0xff;
	if (c == 0x130)
		return 'i';
	if (c >= 0x400 && c <= 0x40f)
		return c + 0x50;
	if (((c >= 0x100 && c <= 0x137) || (c >= 0x14a && c <= 0x177)) && !(c & 1))
		return c + 1;
	if (((c >= 0x139 && c <= 0x148) || (c >= 0x179 && c <= 0x17e)) && (c & 1))
		return c + 1;
	return c;
}

/* Decodes the UTF-8 character of n bytes at s (n from char_bytes). */
static unsigned long utf8_decode(const unsigned char *s, size_t n)
{
	if (n == 1)
		return s[0];
	unsigned long c = s[0] & (0x7f >> n);
	for (size_t k = 1; k < n; k++)
		c = (c << 6) | (s[k] & 0x3f);
	return c;
}

static void utf8_encode(struct strbuf *out, unsigned long c)
{
	if (c < 0x80) {
		strbuf_addc(out, (char)c);
	} else if (c < 0x800) {
		strbuf_addc(out, (char)(0xc0 | (c >> 6)));
		strbuf_addc(out, (char)(0x80 | (c & 0x3f)));
	} else {
		strbuf_addc(out, (char)(0xe0 | (c >> 12)));
		strbuf_addc(out, (char)(0x80 | ((c >> 6) & 0x3f)));
		strbuf_addc(out, (char)(0x80 | (c & 0x3f)));
	}
}

static char *convert_case_op(const char *value, enum param_op op, const char *pattern, unsigned pf)
{
	bool upper = op == PARAM_UPPER_FIRST || op == PARAM_UPPER_ALL;
	bool all = op == PARAM_UPPER_ALL || op == PARAM_LOWER_ALL;
	struct strbuf out;
	strbuf_init(&out);
	bool done = false;
	for (size_t i = 0; value[i];) {
		size_t n = 1;
		while (value[i + n] && !is_char_start(value, i + n))
			n++;
		const unsigned char *u = (const unsigned char *)value + i;
		/* only well-formed two- and three-byte characters are mapped,
		 * and ASCII alone under LC_ALL=C (PATTERN_BYTES), as in bash */
		bool valid = n == 1 ? u[0] < 0x80
		             : !(pf & PATTERN_BYTES) && ((n == 2 && u[0] >= 0xc2 && u[0] < 0xe0) ||
		                                         (n == 3 && u[0] >= 0xe0 && u[0] < 0xf0));
		bool applies = !done && valid;
		if (applies && pattern && *pattern) {
			char *one = xstrndup(value + i, n);
			applies = pattern_match(pattern, one, pf);
			free(one);
		}
		if (applies)
			utf8_encode(&out, case_map(utf8_decode(u, n), upper));
		else
			strbuf_addmem(&out, value + i, n);
		if (!all)
			done = true;
		i += n;
	}
	return strbuf_detach(&out);
}

static int substring_bounds(struct expander *ex, const struct word_param *p, intmax_t len,
                            intmax_t *start, intmax_t *end)
{
	char *off_text = expand_to_string(ex, p->arg, EXPAND_NOTILDE, NULL);
	if (!off_text)
		return -1;
	intmax_t off = 0;
	int r = arith_eval(ex->sh, off_text, &off);
	free(off_text);
	if (r < 0)
		return -1;
	if (off < 0)
		off += len;
	if (off < 0 || off > len) {
		*start = *end = -1; /* empty result */
		return 0;
	}
	intmax_t stop = len;
	if (p->arg2) {
		char *len_text = expand_to_string(ex, p->arg2, EXPAND_NOTILDE, NULL);
		if (!len_text)
			return -1;
		intmax_t count = 0;
		r = arith_eval(ex->sh, len_text, &count);
		if (r < 0) {
			free(len_text);
			return -1;
		}
		if (count < 0) {
			stop = len + count;
			if (stop < off) {
				shell_error(ex->sh, "%s: substring expression < 0", len_text);
				free(len_text);
				return -1;
			}
		} else {
			stop = count > len - off ? len : off + count;
		}
		free(len_text);
	}
	*start = off;
	*end = stop;
	return 0;
}

/* ${a[@]:off:len} and ${@:off:len}: off is an index (of an indexed array,
 * which may be sparse: elements from that index on; $0 is index 0 of $@),
 * a negative one counted from one past the last index; len counts
 * elements and must not be negative. */
static int slice_list(struct expander *ex, const struct word_param *p, const char *name, struct pval *pv)
{
	struct shell *sh = ex->sh;
	bool positional = !p->index && (strcmp(name, "@") == 0 || strcmp(name, "*") == 0);
	struct var *v = p->index && vars_valid_name(name) ? vars_lookup(sh, name) : NULL;
	bool indexed = v && (v->flags & VAR_ARRAY) && !(v->flags & VAR_ASSOC);
	struct strvec all;
	strvec_init(&all);
	intmax_t *idx = xcalloc(pv->list.len + 1, sizeof *idx);
	if (positional)
		strvec_push(&all, sh->arg0 ? sh->arg0 : "sbsh");
	for (size_t i = 0; i < pv->list.len; i++)
		strvec_push(&all, pv->list.items[i]);
	for (size_t i = 0; i < all.len; i++)
		idx[i] = (intmax_t)i;
	if (indexed) {
		size_t n = 0;
		for (size_t i = 0; i < v->array_len && n < all.len; i++) {
			if (v->array[i])
				idx[n++] = (intmax_t)i;
		}
	}
	intmax_t limit = all.len ? idx[all.len - 1] + 1 : 0;
	intmax_t off = 0, count = -1;
	int r = 0;
	char *text = expand_to_string(ex, p->arg, EXPAND_NOTILDE, NULL);
	if (!text || arith_eval(sh, text, &off) < 0)
		r = -1;
	free(text);
	if (r == 0 && p->arg2) {
		text = expand_to_string(ex, p->arg2, EXPAND_NOTILDE, NULL);
		if (!text || arith_eval(sh, text, &count) < 0) {
			r = -1;
		} else if (count < 0) {
			shell_error(sh, "%s: substring expression < 0", text);
			r = -1;
		}
		free(text);
	}
	if (off < 0)
		off += limit;
	strvec_free(&pv->list);
	for (size_t i = 0; r == 0 && off >= 0 && i < all.len && count != 0; i++) {
		if (idx[i] < off)
			continue;
		strvec_push(&pv->list, all.items[i]);
		if (count > 0)
			count--;
	}
	strvec_free(&all);
	free(idx);
	return r;
}

static int apply_substring(struct expander *ex, const struct word_param *p, const char *name, struct pval *pv)
{
	if (pv->kind == PV_SCALAR) {
		intmax_t len = (intmax_t)utf8_length(pv->str);
		intmax_t start, end;
		if (substring_bounds(ex, p, len, &start, &end) < 0)
			return -1;
		char *r;
		if (start < 0) {
			r = xstrdup("");
		} else {
			size_t a = utf8_offset(pv->str, (size_t)start);
			size_t b = utf8_offset(pv->str, (size_t)end);
			r = xstrndup(pv->str + a, b - a);
		}
		free(pv->str);
		pv->str = r;
		return 0;
	}
	if (pv->kind == PV_LIST)
		return slice_list(ex, p, name, pv);
	return 0;
}

/* Applies a per-value operation to a scalar or every list element; fn
 * gets the owned value and returns it (changed in place) or a new one. */
static void map_values(struct pval *pv, char *(*fn)(char *value, void *ctx), void *ctx)
{
	if (pv->kind == PV_SCALAR) {
		char *r = fn(pv->str, ctx);
		if (r != pv->str)
			free(pv->str);
		pv->str = r;
	} else if (pv->kind == PV_LIST) {
		for (size_t i = 0; i < pv->list.len; i++) {
			char *r = fn(pv->list.items[i], ctx);
			if (r != pv->list.items[i])
				free(pv->list.items[i]);
			pv->list.items[i] = r;
		}
	}
}

struct pattern_op_ctx {
	enum param_op op;
	const char *pattern;
	const char *replacement;
	char transform;
	unsigned pflags; /* PATTERN_EXTGLOB when the option is on */
	struct shell *sh; /* for ${x@P} */
};

/* ${x@Q} quotes for reuse as shell input ($'...' when there are control
 * characters), as do K and k for a value that is not an array's; ${x@E}
 * decodes backslash escapes as $'...' does, U u L change case as ^^ ^ ,,
 * do, P expands the value as a prompt. */
static char *transform_one(struct shell *sh, const char *value, char how)
{
	struct strbuf out;
	strbuf_init(&out);
	switch (how) {
	case 'P':
		strbuf_free(&out);
		return input_expand_prompt(sh, value, false);
	case 'K':
	case 'k':
	case 'Q': {
		bool control = false;
		for (const char *p = value; *p && !control; p++)
			control = (unsigned char)*p < 0x20 || *p == 0x7f;
		if (control) {
			vars_quote_ansi_c(&out, value);
			break;
		}
		strbuf_add_single_quoted(&out, value, strlen(value));
		break;
	}
	case 'E':
		lex_decode_dollar_text(value, strlen(value), &out);
		break;
	default:
		strbuf_free(&out);
		return convert_case_op(value, how == 'U' ? PARAM_UPPER_ALL : how == 'u' ? PARAM_UPPER_FIRST : PARAM_LOWER_ALL,
		                       NULL, vars_utf8_locale(sh) ? 0 : PATTERN_BYTES);
	}
	return strbuf_detach(&out);
}

/* A value as declare -p shows it: "..." with \ " $ ` escaped, or $'...'
 * when there are control characters. */
static void add_declare_quoted(struct strbuf *out, const char *value)
{
	bool control = false;
	for (const char *p = value; *p && !control; p++)
		control = (unsigned char)*p < 0x20 || *p == 0x7f;
	if (control) {
		vars_quote_ansi_c(out, value);
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

/* An array's subscripts and values for ${a[@]@K} and ${a[@]@A}: `k "v" ...`,
 * an associative array's keys quoted when they need it; each pair ends in
 * a space (bash keeps the last one only for associative arrays). */
static void add_array_pairs(struct strbuf *out, const struct var *v, bool brackets)
{
	bool assoc = (v->flags & VAR_ASSOC) != 0;
	size_t start = out->len;
	for (size_t i = 0; i < v->array_len; i++) {
		if (!assoc && !v->array[i])
			continue;
		if (brackets)
			strbuf_addc(out, '[');
		if (assoc) {
			const char *key = v->keys[i];
			bool bare = *key != '\0';
			for (const char *p = key; *p && bare; p++)
				bare = isalnum((unsigned char)*p) || strchr("_-./:@%+,", *p);
			if (bare)
				strbuf_adds(out, key);
			else
				add_declare_quoted(out, key);
		} else {
			strbuf_addf(out, "%zu", i);
		}
		strbuf_adds(out, brackets ? "]=" : " ");
		add_declare_quoted(out, v->array[i]);
		strbuf_addc(out, ' ');
	}
	if (!assoc && out->len > start)
		strbuf_truncate(out, out->len - 1);
}

/* ${x@a} ${x@A} ${x@K} ${x@k}, which look at the variable rather than at
 * its value: pv becomes their result. K and k of something other than a
 * whole array quote each value as Q does and are left to the caller, which
 * the result (false) tells. */
static bool transform_var(struct expander *ex, const char *name, const char *subscript, struct pval *pv,
                          char how)
{
	struct shell *sh = ex->sh;
	struct var *v = vars_valid_name(name) ? vars_lookup(sh, name) : NULL;
	bool whole = subscript && (strcmp(subscript, "@") == 0 || strcmp(subscript, "*") == 0);
	bool array = v && (v->flags & VAR_ARRAY) && !(v->flags & VAR_NOVALUE);
	if (how == 'a') {
		char letters[16];
		letters[0] = '\0';
		if (v)
			vars_attr_letters(v, letters);
		if (pv->kind == PV_LIST) {
			for (size_t i = 0; i < pv->list.len; i++) {
				free(pv->list.items[i]);
				pv->list.items[i] = xstrdup(letters);
			}
		} else if (pv->kind == PV_SCALAR || (v && !pv->is_list && letters[0])) {
			pval_free(pv);
			pval_scalar(pv, xstrdup(letters));
		}
		return true;
	}
	if (how == 'K' || how == 'k') {
		if (!whole || !array)
			return false;
		if (how == 'K') {
			struct strbuf out;
			strbuf_init(&out);
			add_array_pairs(&out, v, false);
			pval_free(pv);
			pv->is_list = false;
			pval_scalar(pv, strbuf_detach(&out));
			return true;
		}
		strvec_free(&pv->list);
		strvec_init(&pv->list);
		pv->kind = PV_LIST;
		for (size_t i = 0; i < v->array_len; i++) {
			if (!v->array[i])
				continue;
			if (v->flags & VAR_ASSOC)
				strvec_push(&pv->list, v->keys[i]);
			else
				strvec_push_owned(&pv->list, xasprintf("%zu", i));
			strvec_push(&pv->list, v->array[i]);
		}
		return true;
	}
	/* A: an assignment that would recreate the variable. bash gives its
	 * words separately for [@] and $@, joined for [*] and $*. */
	struct strvec words;
	strvec_init(&words);
	bool positional = !subscript && (strcmp(name, "@") == 0 || strcmp(name, "*") == 0);
	if (positional) {
		strvec_push(&words, "set");
		strvec_push(&words, "--");
		for (size_t i = 0; i < pv->list.len; i++)
			strvec_push_owned(&words, transform_one(sh, pv->list.items[i], 'Q'));
	} else if (v && (pv->kind != PV_UNSET || (!whole && (v->flags & ~VAR_NOVALUE)))) {
		char letters[16];
		vars_attr_letters(v, letters);
		if (letters[0]) {
			strvec_push(&words, "declare");
			strvec_push_owned(&words, xasprintf("-%s", letters));
		}
		struct strbuf out;
		strbuf_init(&out);
		strbuf_adds(&out, v->name); /* a name reference's target */
		const char *value = pv->kind == PV_SCALAR ? pv->str
		                    : pv->kind == PV_LIST && pv->list.len ? pv->list.items[0] : NULL;
		if (whole && array) {
			strbuf_adds(&out, "=(");
			add_array_pairs(&out, v, true);
			strbuf_addc(&out, ')');
		} else if (value) {
			char *q = transform_one(sh, value, 'Q');
			strbuf_addf(&out, "=%s", q);
			free(q);
		}
		strvec_push_owned(&words, strbuf_detach(&out));
	}
	bool star = pv->star;
	bool list = (whole || positional) && words.len > 0;
	pval_free(pv);
	if (list) {
		pv->kind = PV_LIST;
		pv->list = words;
		pv->star = star;
		pv->is_list = true;
		return true;
	}
	pv->is_list = false;
	if (words.len) {
		pval_scalar(pv, join_list(sh, &words, false));
	}
	strvec_free(&words);
	return true;
}

static char *pattern_op_one(char *value, void *ctx)
{
	struct pattern_op_ctx *c = ctx;
	switch (c->op) {
	case PARAM_TRANSFORM:
		return transform_one(c->sh, value, c->transform);
	case PARAM_REMOVE_SMALL_PREFIX:
	case PARAM_REMOVE_LARGE_PREFIX:
	case PARAM_REMOVE_SMALL_SUFFIX:
	case PARAM_REMOVE_LARGE_SUFFIX:
		return remove_pattern(value, c->pattern, c->op, c->pflags);
	case PARAM_REPLACE:
	case PARAM_REPLACE_ALL:
	case PARAM_REPLACE_PREFIX:
	case PARAM_REPLACE_SUFFIX:
		return replace_pattern(value, c->pattern, c->replacement, c->op, c->pflags);
	default:
		return convert_case_op(value, c->op, c->pattern, c->pflags);
	}
}

/* ---- ${...} ------------------------------------------------------------ */

/* The word of ${x:-word} / ${x:+word}, expanded in place. */
static int expand_operand_inline(struct expander *ex, const struct word *w, bool quoted, struct xbuf *xb)
{
	bool saved = ex->split_literals;
	ex->split_literals = !quoted;
	int r = expand_parts(ex, w->parts, w->nparts, quoted, true, xb);
	ex->split_literals = saved;
	return r;
}

static bool pval_is_null(struct shell *sh, const struct pval *pv)
{
	if (pv->kind == PV_UNSET)
		return true;
	if (pv->kind == PV_SCALAR)
		return pv->str[0] == '\0';
	char *joined = join_list(sh, &pv->list, pv->star);
	bool empty = joined[0] == '\0';
	free(joined);
	return empty;
}

static bool pval_is_set(const struct pval *pv)
{
	if (pv->kind == PV_LIST)
		return pv->list.len > 0;
	return pv->kind == PV_SCALAR;
}

static int unbound_error(struct expander *ex, const struct word_param *p, const char *subscript)
{
	if (subscript)
		shell_error(ex->sh, "%s[%s]: unbound variable", p->name, subscript);
	else if (is_digits(p->name) || strcmp(p->name, "!") == 0)
		shell_error(ex->sh, "$%s: unbound variable", p->name);
	else
		shell_error(ex->sh, "%s: unbound variable", p->name);
	return fatal_expansion_error(ex->sh);
}

static void collect_prefix_names(struct var *v, void *ctx)
{
	struct strvec *list = ctx;
	const char *prefix = list->items[0];
	if (strncmp(v->name, prefix, strlen(prefix)) == 0 && !(v->flags & VAR_NOVALUE))
		strvec_push(list, v->name);
}

static int expand_keys(struct expander *ex, const struct word_param *p, struct pval *pv)
{
	pv->is_list = true;
	pv->star = p->index && word_is_literal(p->index, "*");
	struct var *v = vars_lookup(ex->sh, p->name);
	if (!v || (v->flags & VAR_NOVALUE))
		return 0;
	pv->kind = PV_LIST;
	if (v->flags & VAR_ASSOC) {
		for (size_t i = 0; i < v->array_len; i++)
			strvec_push(&pv->list, v->keys[i]);
	} else if (v->flags & VAR_ARRAY) {
		for (size_t i = 0; i < v->array_len; i++) {
			if (v->array[i])
				strvec_push_owned(&pv->list, xasprintf("%zu", i));
		}
	} else if (v->value) {
		strvec_push(&pv->list, "0");
	}
	return 0;
}

static int assign_param(struct expander *ex, const struct word_param *p, const char *name,
                        const char *subscript, bool quoted, struct xbuf *xb)
{
	struct shell *sh = ex->sh;
	if (!vars_valid_name(name) || (subscript && (strcmp(subscript, "@") == 0 || strcmp(subscript, "*") == 0))) {
		shell_error(sh, "$%s: cannot assign in this way", name);
		fatal_expansion_error(sh);
		if (sh->jump == JUMP_EXIT)
			sh->exit_status = 2; /* as dash; bash goes on with status 1 */
		return -1;
	}
	char *value = p->arg ? expand_to_string(ex, p->arg, EXPAND_ASSIGN, NULL) : xstrdup("");
	if (!value)
		return -1;
	int r;
	struct var *v = subscript ? vars_lookup(sh, name) : NULL;
	if (v && (v->flags & VAR_ASSOC)) {
		r = vars_assoc_set(sh, name, subscript, value, false);
	} else if (subscript) {
		intmax_t index;
		r = eval_subscript(ex, subscript, &index);
		if (r == 0)
			r = vars_set_element(sh, name, (long)index, value);
	} else {
		r = vars_set(sh, name, value, 0);
	}
	if (r < 0) {
		free(value);
		return fatal_expansion_error(sh);
	}
	/* The result is the variable's new value (after -i, -l, -u). */
	struct pval pv = {0};
	strvec_init(&pv.list);
	if (lookup_param(ex, name, subscript, &pv) == 0)
		emit_pval(ex, &pv, quoted, xb);
	pval_free(&pv);
	free(value);
	return 0;
}

static int expand_param(struct expander *ex, const struct word_param *p, bool quoted, struct xbuf *xb)
{
	struct shell *sh = ex->sh;
	struct pval pv = {0};
	strvec_init(&pv.list);
	int result = 0;
	char *subscript = NULL;
	const char *name = NULL;
	char *owned_name = NULL;

	if (p->op == PARAM_PLAIN && !p->index && !p->indirect &&
	    (p->name[0] == '_' || isalpha((unsigned char)p->name[0]))) {
		/* The common case, $name set: no copies. Unset ones take the
		 * general path (set -u). */
		const char *v = vars_get(sh, p->name);
		if (v) {
			emit_text(xb, v, quoted);
			return 0;
		}
	}

	if (p->op == PARAM_PREFIX_NAMES) {
		struct strvec names;
		strvec_init(&names);
		strvec_push(&names, p->name);
		vars_foreach(sh, collect_prefix_names, &names);
		pv.kind = PV_LIST;
		pv.is_list = true;
		pv.star = !p->at;
		for (size_t i = 1; i < names.len; i++)
			strvec_push(&pv.list, names.items[i]);
		strvec_free(&names);
		emit_pval(ex, &pv, quoted, xb);
		pval_free(&pv);
		return 0;
	}
	if (p->op == PARAM_KEYS) {
		if (expand_keys(ex, p, &pv) < 0) {
			pval_free(&pv);
			return -1;
		}
		emit_pval(ex, &pv, quoted, xb);
		pval_free(&pv);
		return 0;
	}

	if (subscript_text(ex, p, &subscript) < 0)
		return -1;
	struct var *nameref = p->indirect && !subscript && vars_valid_name(p->name) ? vars_lookup_ref(sh, p->name) : NULL;
	bool looked_up = false;
	if (nameref && (nameref->flags & VAR_NAMEREF)) {
		/* ${!ref} of a name reference is the name it refers to */
		if (nameref->value && !(nameref->flags & VAR_NOVALUE))
			pval_scalar(&pv, xstrdup(nameref->value));
		name = p->name;
		looked_up = true;
	} else if (p->indirect) {
		struct pval ref = {0};
		strvec_init(&ref.list);
		if (lookup_param(ex, p->name, subscript, &ref) < 0) {
			free(subscript);
			return -1;
		}
		char *target = ref.kind == PV_SCALAR ? xstrdup(ref.str)
		               : ref.kind == PV_LIST ? join_list(sh, &ref.list, ref.star) : NULL;
		pval_free(&ref);
		free(subscript);
		subscript = NULL;
		if (!target) {
			if (sh->opt.nounset) {
				free(target);
				return unbound_error(ex, p, NULL);
			}
			shell_error(sh, "%s: invalid indirect expansion", p->name);
			return fatal_expansion_error(sh);
		}
		split_subscripted(target, &owned_name, &subscript);
		free(target);
		if (subscript && strcmp(subscript, "@") != 0 && strcmp(subscript, "*") != 0) {
			char *expanded = expand_subscript_text(sh, subscript);
			free(subscript);
			subscript = expanded;
		}
		name = owned_name;
		if (!(vars_valid_name(name) || is_digits(name) || (strlen(name) == 1 && strchr("@*#?-$!", name[0])))) {
			shell_error(sh, "%s: invalid variable name", name);
			free(owned_name);
			free(subscript);
			return fatal_expansion_error(sh);
		}
	} else {
		name = p->name;
	}

	if (!looked_up && lookup_param(ex, name, subscript, &pv) < 0) {
		result = -1;
		goto done;
	}

	switch (p->op) {
	case PARAM_DEFAULT:
	case PARAM_ASSIGN:
	case PARAM_ERROR:
	case PARAM_ALTERNATE: {
		bool use_word = p->colon ? pval_is_null(sh, &pv) || !pval_is_set(&pv) : !pval_is_set(&pv);
		if (p->op == PARAM_ALTERNATE) {
			if (use_word) {
				/* "${@+w}" and "${a[@]+w}" with nothing set are no
				 * word at all, as "$@" is */
				if (quoted && !(pv.is_list && !pv.star))
					xbuf_mark(xb);
			} else if (p->arg) {
				result = expand_operand_inline(ex, p->arg, quoted, xb);
				if (quoted)
					xbuf_mark(xb);
			} else if (quoted) {
				xbuf_mark(xb);
			}
			break;
		}
		if (!use_word) {
			emit_pval(ex, &pv, quoted, xb);
			break;
		}
		if (p->op == PARAM_DEFAULT) {
			if (p->arg)
				result = expand_operand_inline(ex, p->arg, quoted, xb);
			if (quoted)
				xbuf_mark(xb);
		} else if (p->op == PARAM_ASSIGN) {
			result = assign_param(ex, p, name, subscript, quoted, xb);
		} else {
			char *msg = p->arg ? expand_to_string(ex, p->arg, 0, NULL) : NULL;
			if (p->arg && !msg) {
				result = -1;
				break;
			}
			const char *text = msg && *msg ? msg : "parameter null or not set";
			if (subscript)
				shell_error(sh, "%s[%s]: %s", name, subscript, text);
			else
				shell_error(sh, "%s: %s", name, text);
			free(msg);
			result = fatal_expansion_error(sh);
		}
		break;
	}
	default: {
		/* set -u spares "$@", "${a[@]}" (even of an unset a) and the length
		 * of a declared empty array, as bash 4.4 and later do */
		bool spared = pv.is_list && (!p->index || p->op != PARAM_LENGTH || pv.kind == PV_LIST);
		if (!pval_is_set(&pv) && sh->opt.nounset && !spared) {
			result = unbound_error(ex, p, subscript);
			break;
		}
		if (p->op == PARAM_LENGTH) {
			size_t n;
			if (pv.is_list)
				n = pv.kind == PV_LIST ? pv.list.len : 0;
			else if (pv.kind == PV_SCALAR)
				/* characters in a UTF-8 locale, else bytes (bash) */
				n = vars_utf8_locale(sh) ? utf8_length(pv.str) : strlen(pv.str);
			else
				n = 0;
			char buf[32];
			snprintf(buf, sizeof buf, "%zu", n);
			emit_text(xb, buf, quoted);
			break;
		}
		if (p->op == PARAM_SUBSTRING) {
			if (apply_substring(ex, p, name, &pv) < 0) {
				result = fatal_expansion_error(sh);
				break;
			}
			emit_pval(ex, &pv, quoted, xb);
			break;
		}
		if (p->op == PARAM_TRANSFORM && strchr("aAKk", p->transform) &&
		    transform_var(ex, name, subscript, &pv, p->transform)) {
			emit_pval(ex, &pv, quoted, xb);
			break;
		}
		if (p->op != PARAM_PLAIN) {
			struct pattern_op_ctx ctx = {.op = p->op, .pattern = NULL, .replacement = "",
			                             .transform = p->transform, .sh = sh,
			                             .pflags = (ex->sh->opt.extglob ? PATTERN_EXTGLOB : 0) |
			                                       (vars_utf8_locale(sh) ? 0 : PATTERN_BYTES)};
			char *pattern = NULL, *replacement = NULL;
			if (p->arg) {
				pattern = expand_pattern_operand(ex, p->arg, pattern_specials);
				if (!pattern) {
					result = -1;
					break;
				}
			}
			if (p->arg2) {
				replacement = expand_pattern_operand(ex, p->arg2, replacement_specials);
				if (!replacement) {
					free(pattern);
					result = -1;
					break;
				}
			}
			ctx.pattern = pattern ? pattern : "";
			if (replacement)
				ctx.replacement = replacement;
			map_values(&pv, pattern_op_one, &ctx);
			free(pattern);
			free(replacement);
		}
		emit_pval(ex, &pv, quoted, xb);
		break;
	}
	}
done:
	pval_free(&pv);
	free(owned_name);
	free(subscript);
	return result;
}

/* ---- tilde -------------------------------------------------------------- */

/* The expansion of ~prefix, or NULL when it does not expand. */
static char *tilde_value(struct shell *sh, const char *user, size_t len)
{
	if (len == 0) {
		const char *home = vars_get(sh, "HOME");
		if (home)
			return xstrdup(home);
		users_prepare();
		struct passwd *pw = getpwuid(getuid());
		return pw && pw->pw_dir ? xstrdup(pw->pw_dir) : NULL;
	}
	if (len == 1 && user[0] == '+') {
		const char *pwd = vars_get(sh, "PWD");
		return pwd ? xstrdup(pwd) : NULL;
	}
	if (len == 1 && user[0] == '-') {
		const char *old = vars_get(sh, "OLDPWD");
		return old ? xstrdup(old) : NULL;
	}
	/* ~name may run getent (users.c), a program like any other. */
	if (shell_guard_before_program(sh) != 0)
		return NULL;
	char *name = xstrndup(user, len);
	char *home = users_home(name);
	free(name);
	return home;
}

/* Tries a tilde prefix at text[*i] ('~'); on success appends the quoted
 * result and advances *i past the prefix. */
static bool try_tilde(struct expander *ex, const char *text, size_t len, size_t *i, bool last_part,
                      bool assign, struct xbuf *xb)
{
	size_t j = *i + 1;
	while (j < len && text[j] != '/' && !(assign && text[j] == ':'))
		j++;
	if (j == len && !last_part)
		return false; /* the prefix would run into a quoted or expanded part */
	char *home = tilde_value(ex->sh, text + *i + 1, j - *i - 1);
	if (!home)
		return false;
	xbuf_addmem(xb, home, strlen(home), CF_QUOTED);
	xbuf_mark(xb);
	free(home);
	*i = j;
	return true;
}

static void expand_literal(struct expander *ex, const struct word_part *part, bool quoted,
                           bool word_start, bool last_part, struct xbuf *xb)
{
	const char *text = part->u.literal.text;
	size_t len = part->u.literal.len;
	if (ex->pattern_operand && !quoted && part->u.literal.quote == QUOTE_DOUBLE) {
		size_t i = 0;
		if (word_start && len > 0 && text[0] == '~' && !(ex->flags & EXPAND_NOTILDE))
			try_tilde(ex, text, len, &i, last_part, false, xb);
		xbuf_addmem(xb, text + i, len - i, 0);
		xbuf_mark(xb);
		return;
	}
	if (quoted || part->u.literal.quote != QUOTE_NONE) {
		xbuf_addmem(xb, text, len, CF_QUOTED);
		xbuf_mark(xb);
		return;
	}
	bool tilde_ok = !(ex->flags & EXPAND_NOTILDE);
	bool assign = (ex->flags & EXPAND_ASSIGN) != 0;
	/* In NAME=value arguments of declaration builtins, ~ after the first
	 * = expands too. */
	const char *first_eq = word_start ? memchr(text, '=', len) : NULL;
	/* bash expands ~ in arguments that look like assignments, too (not
	 * under set -o posix, as dash) */
	if (!assign && ex->fields && word_start && first_eq && first_eq > text && !ex->sh->opt.posix) {
		bool name = !isdigit((unsigned char)text[0]);
		for (const char *q = text; q < first_eq && name; q++)
			name = *q == '_' || isalnum((unsigned char)*q);
		assign = name;
	}
	size_t i = 0;
	while (i < len) {
		char c = text[i];
		if (c == '~' && tilde_ok) {
			bool at_start = i == 0 && word_start;
			bool after_sep = i > 0 && assign && (text[i - 1] == ':' || text + i - 1 == first_eq);
			if ((at_start || after_sep) && try_tilde(ex, text, len, &i, last_part, assign, xb))
				continue;
		}
		xbuf_add(xb, c, ex->split_literals ? CF_SPLIT : 0);
		i++;
	}
}

static int expand_cmdsub(struct expander *ex, const struct word_part *part, bool quoted, struct xbuf *xb)
{
	struct shell *sh = ex->sh;
	struct strbuf out;
	strbuf_init(&out);
	int status = 0;
	if (part->u.cmdsub->program)
		status = exec_cmdsub(sh, part->u.cmdsub->program, &out);
	sh->last_status = status;
	size_t len = out.len;
	while (len > 0 && out.data[len - 1] == '\n')
		len--;
	xbuf_reserve(xb, len);
	for (size_t i = 0; i < len; i++) {
		if (out.data[i] != '\0')
			xbuf_add(xb, out.data[i], quoted ? CF_QUOTED : CF_SPLIT);
	}
	if (quoted)
		xbuf_mark(xb);
	strbuf_free(&out);
	return 0;
}

static int expand_arith(struct expander *ex, const struct word_part *part, bool quoted, struct xbuf *xb)
{
	const struct word *w = part->u.arith.expr;
	intmax_t value;
	int r;
	if (w && w->nparts == 1 && w->parts[0].kind == WORD_LITERAL && w->parts[0].u.literal.text[w->parts[0].u.literal.len] == '\0') {
		/* Nothing to expand first (the parser's literals end in NUL). */
		r = arith_eval(ex->sh, w->parts[0].u.literal.text, &value);
	} else {
		char *text = w ? expand_to_string(ex, w, EXPAND_NOTILDE, NULL) : xstrdup("");
		if (!text)
			return -1;
		r = arith_eval(ex->sh, text, &value);
		free(text);
	}
	if (r < 0)
		return fatal_expansion_error(ex->sh);
	char buf[ARITH_FORMAT_SIZE];
	size_t len = arith_format(value, buf);
	xbuf_addmem(xb, buf, len, quoted ? CF_QUOTED : CF_SPLIT);
	if (quoted)
		xbuf_mark(xb);
	return 0;
}

static int expand_parts(struct expander *ex, const struct word_part *parts, size_t nparts,
                        bool quoted, bool word_start, struct xbuf *xb)
{
	for (size_t i = 0; i < nparts; i++) {
		const struct word_part *part = &parts[i];
		int r = 0;
		switch (part->kind) {
		case WORD_LITERAL: {
			/* The parser may cut unquoted text into several parts
			 * ("a=" "~"): tilde rules need them as one run. */
			size_t j = i + 1;
			if (!quoted && part->u.literal.quote == QUOTE_NONE) {
				while (j < nparts && parts[j].kind == WORD_LITERAL && parts[j].u.literal.quote == QUOTE_NONE)
					j++;
			}
			if (j == i + 1) {
				expand_literal(ex, part, quoted, word_start && i == 0, i + 1 == nparts, xb);
				break;
			}
			struct strbuf run;
			strbuf_init(&run);
			for (size_t k = i; k < j; k++)
				strbuf_addmem(&run, parts[k].u.literal.text, parts[k].u.literal.len);
			struct word_part merged = *part;
			merged.u.literal.text = run.data;
			merged.u.literal.len = run.len;
			expand_literal(ex, &merged, quoted, word_start && i == 0, j == nparts, xb);
			strbuf_free(&run);
			i = j - 1;
			break;
		}
		case WORD_DQUOTE:
			if (!part->u.dquote || part->u.dquote->nparts == 0)
				xbuf_mark(xb);
			else
				r = expand_parts(ex, part->u.dquote->parts, part->u.dquote->nparts, true, false, xb);
			break;
		case WORD_PARAM:
			r = expand_param(ex, part->u.param, quoted, xb);
			break;
		case WORD_CMDSUB:
			r = expand_cmdsub(ex, part, quoted, xb);
			break;
		case WORD_ARITH:
			r = expand_arith(ex, part, quoted, xb);
			break;
		case WORD_PROCSUB: {
			char *path = NULL;
			if (exec_procsub(ex->sh, part->u.procsub->program, part->u.procsub->output, &path) < 0)
				return -1;
			xbuf_addmem(xb, path, strlen(path), CF_QUOTED);
			xbuf_mark(xb);
			free(path);
			break;
		}
		}
		if (r < 0)
			return -1;
	}
	return 0;
}

/* Expands w in a string context: no field splitting, lists joined. */
static char *expand_to_string(struct expander *outer, const struct word *w, unsigned flags,
                              const char *escape)
{
	struct expander ex = {.sh = outer->sh, .flags = flags, .fields = false};
	struct xbuf xb;
	xbuf_init(&xb);
	if (w && expand_parts(&ex, w->parts, w->nparts, false, !(flags & EXPAND_NOTILDE), &xb) < 0) {
		xbuf_free(&xb);
		return NULL;
	}
	char *s = xbuf_to_string(&xb, 0, xb.len, escape);
	xbuf_free(&xb);
	return s;
}

/* The pattern or replacement operand of ${x#pat} / ${x/pat/rep}. */
static char *expand_pattern_operand(struct expander *outer, const struct word *w, const char *escape)
{
	/* bash expands a leading ~ here, inside double quotes too */
	struct expander ex = {.sh = outer->sh, .flags = 0, .fields = false, .pattern_operand = true};
	struct xbuf xb;
	xbuf_init(&xb);
	if (w && expand_parts(&ex, w->parts, w->nparts, false, true, &xb) < 0) {
		xbuf_free(&xb);
		return NULL;
	}
	char *s = xbuf_to_string(&xb, 0, xb.len, escape);
	xbuf_free(&xb);
	return s;
}

/* ---- pathname expansion ---------------------------------------------- */

struct glob_state {
	struct shell *sh;
	char **components;
	size_t ncomponents;
	struct strvec *results;
};

static void glob_walk(struct glob_state *g, struct strbuf *prefix, size_t index);

/* For globstar's "**": what an entry of the folder in prefix is. Symbolic
 * links to folders are folders to list, never to descend into (bash). */
static void entry_kind(const struct dirent *de, const char *path, bool *real_dir, bool *dir)
{
	struct stat st;
	*real_dir = de->d_type == DT_DIR ||
	            (de->d_type == DT_UNKNOWN && lstat(path, &st) == 0 && S_ISDIR(st.st_mode));
	*dir = *real_dir ||
	       ((de->d_type == DT_LNK || de->d_type == DT_UNKNOWN) && stat(path, &st) == 0 && S_ISDIR(st.st_mode));
}

static bool globstar_skips(const struct glob_state *g, const char *name)
{
	return strcmp(name, ".") == 0 || strcmp(name, "..") == 0 || (name[0] == '.' && !g->sh->opt.dotglob);
}

enum globstar_mode {
	GLOBSTAR_ALL,  /* "**" last: everything below the folder in prefix */
	GLOBSTAR_DIRS, /* "**" then a slash that ends the pattern: its folders, with the slash */
	GLOBSTAR_DEEP, /* "**" before more components: matched here and in every folder below */
};

static void globstar_walk(struct glob_state *g, struct strbuf *prefix, size_t index, enum globstar_mode mode)
{
	if (mode == GLOBSTAR_DEEP)
		glob_walk(g, prefix, index + 1); /* zero folders deep */
	size_t base_len = prefix->len;
	DIR *dir = opendir(base_len ? prefix->data : ".");
	if (!dir)
		return;
	struct dirent *de;
	while ((de = readdir(dir)) != NULL) {
		if (globstar_skips(g, de->d_name))
			continue;
		strbuf_truncate(prefix, base_len);
		strbuf_adds(prefix, de->d_name);
		bool real_dir, is_dir;
		entry_kind(de, prefix->data, &real_dir, &is_dir);
		if (mode == GLOBSTAR_ALL) {
			strvec_push(g->results, prefix->data);
		} else if (mode == GLOBSTAR_DIRS && is_dir) {
			strbuf_addc(prefix, '/');
			strvec_push(g->results, prefix->data);
			strbuf_truncate(prefix, prefix->len - 1);
		}
		if (real_dir) {
			strbuf_addc(prefix, '/');
			globstar_walk(g, prefix, index, mode);
		}
	}
	closedir(dir);
	strbuf_truncate(prefix, base_len);
}

static void glob_walk(struct glob_state *g, struct strbuf *prefix, size_t index)
{
	const char *comp = g->components[index];
	bool last = index + 1 == g->ncomponents;
	size_t base_len = prefix->len;

	if (g->sh->opt.globstar && strcmp(comp, "**") == 0) {
		bool dirs_only = index + 2 == g->ncomponents && g->components[index + 1][0] == '\0';
		if (last || dirs_only) {
			if (base_len)
				strvec_push(g->results, prefix->data); /* the folder itself, with its slash */
			globstar_walk(g, prefix, index, dirs_only ? GLOBSTAR_DIRS : GLOBSTAR_ALL);
		} else {
			globstar_walk(g, prefix, index, GLOBSTAR_DEEP);
		}
		return;
	}

	if (!pattern_has_magic(comp)) {
		char *plain = xstrdup(comp);
		pattern_unescape(plain);
		strbuf_adds(prefix, plain);
		free(plain);
		if (last) {
			struct stat st;
			if (lstat(prefix->data, &st) == 0)
				strvec_push(g->results, prefix->data);
		} else {
			strbuf_addc(prefix, '/');
			glob_walk(g, prefix, index + 1);
		}
		strbuf_truncate(prefix, base_len);
		return;
	}
	DIR *dir = opendir(base_len ? prefix->data : ".");
	if (!dir)
		return;
	unsigned pflags = 0;
	if (!g->sh->opt.dotglob)
		pflags |= PATTERN_PERIOD;
	if (g->sh->opt.nocaseglob)
		pflags |= PATTERN_NOCASE;
	if (g->sh->opt.extglob)
		pflags |= PATTERN_EXTGLOB;
	if (!vars_utf8_locale(g->sh))
		pflags |= PATTERN_BYTES;
	struct dirent *de;
	while ((de = readdir(dir)) != NULL) {
		const char *name = de->d_name;
		if ((strcmp(name, ".") == 0 || strcmp(name, "..") == 0) && g->sh->opt.globskipdots)
			continue;
		if (!pattern_match(comp, name, pflags))
			continue;
		strbuf_truncate(prefix, base_len);
		strbuf_adds(prefix, name);
		if (last) {
			strvec_push(g->results, prefix->data);
		} else {
			bool is_dir = de->d_type == DT_DIR;
			if (de->d_type == DT_UNKNOWN || de->d_type == DT_LNK) {
				struct stat st;
				is_dir = stat(prefix->data, &st) == 0 && S_ISDIR(st.st_mode);
			}
			if (is_dir) {
				strbuf_addc(prefix, '/');
				glob_walk(g, prefix, index + 1);
			}
		}
	}
	closedir(dir);
	strbuf_truncate(prefix, base_len);
}

static int compare_strings(const void *a, const void *b)
{
	return strcoll(*(char *const *)a, *(char *const *)b);
}

/* Appends the sorted matches of pattern to out; returns how many. */
static size_t glob_expand(struct shell *sh, const char *pattern, struct strvec *out)
{
	struct strvec comps;
	strvec_init(&comps);
	const char *p = pattern;
	struct strbuf prefix;
	strbuf_init(&prefix);
	while (*p == '/') {
		strbuf_addc(&prefix, '/');
		p++;
	}
	for (;;) {
		const char *slash = strchr(p, '/');
		if (!slash) {
			strvec_push(&comps, p);
			break;
		}
		strvec_push_owned(&comps, xstrndup(p, (size_t)(slash - p)));
		p = slash + 1;
		while (*p == '/')
			p++;
	}
	struct strvec results;
	strvec_init(&results);
	struct glob_state g = {.sh = sh, .components = comps.items, .ncomponents = comps.len, .results = &results};
	if (prefix.len == 0)
		strbuf_reserve(&prefix, 64);
	glob_walk(&g, &prefix, 0);
	strbuf_free(&prefix);
	strvec_free(&comps);
	size_t n = results.len;
	if (n > 1)
		qsort(results.items, n, sizeof *results.items, compare_strings);
	/* Two globstars in a row reach a path more than once: listed once. */
	size_t kept = 0;
	for (size_t i = 0; i < n; i++) {
		if (kept > 0 && strcmp(out->items[out->len - 1], results.items[i]) == 0) {
			free(results.items[i]);
			continue;
		}
		strvec_push_owned(out, results.items[i]);
		kept++;
	}
	free(results.items);
	return kept;
}

size_t expand_glob(struct shell *sh, const char *pattern, struct strvec *out)
{
	return glob_expand(sh, pattern, out);
}

/* ---- field splitting ---------------------------------------------------- */

static bool is_ifs_space(char c)
{
	return c == ' ' || c == '\t' || c == '\n';
}

/* One finished field: pathname expansion, then into out. */
static int finish_field(struct expander *ex, const struct xbuf *xb, size_t from, size_t to, struct strvec *out)
{
	struct shell *sh = ex->sh;
	bool magic = false;
	if (!sh->opt.noglob) {
		/* A '[' only counts with a ']' after it: "[" and "]" alone (the
		 * test command) must not cost a directory read. */
		bool open_bracket = false;
		for (size_t i = from; i < to && !magic; i++) {
			if (xb->flags[i] & (CF_QUOTED | CF_MARK | CF_BREAK))
				continue;
			char c = xb->chars[i];
			if (c == '*' || c == '?')
				magic = true;
			else if (c == '[')
				open_bracket = true;
			else if (c == ']' && open_bracket && i > from && xb->chars[i - 1] != '[')
				magic = true;
			else if (c == '(' && sh->opt.extglob && i > from && strchr("@+!", xb->chars[i - 1]) &&
			         !(xb->flags[i - 1] & CF_QUOTED))
				magic = true; /* an extglob group (*( and ?( have their * and ?) */
		}
	}
	if (magic) {
		char *pattern = xbuf_to_string(xb, from, to, pattern_specials);
		size_t n = glob_expand(sh, pattern, out);
		if (n == 0 && sh->opt.failglob) {
			shell_error(sh, "no match: %s", pattern);
			free(pattern);
			sh->last_status = 1;
			return -1;
		}
		free(pattern);
		if (n > 0 || sh->opt.nullglob)
			return 0;
	}
	strvec_push_owned(out, xbuf_to_string(xb, from, to, NULL));
	return 0;
}

/* IFS holds a character of several bytes and the locale is UTF-8: it
 * separates as a whole, never by its bytes. */
static bool utf8_ifs(struct shell *sh, const char *ifs)
{
	for (const char *c = ifs; *c; c++)
		if ((unsigned char)*c >= 0x80)
			return vars_utf8_locale(sh);
	return false;
}

/* Each splittable run of xb that is one of IFS's multibyte characters
 * becomes one byte flagged CF_IFS (separators never reach a field, so
 * their bytes need not survive); IFS's own bytes past 0x7f stop counting
 * one by one. */
static void fold_multibyte_ifs(struct xbuf *xb, const char *ifs, bool *is_ifs)
{
	for (const char *c = ifs; *c; c++)
		if ((unsigned char)*c >= 0x80)
			is_ifs[(unsigned char)*c] = false;
	size_t out = 0;
	for (size_t i = 0; i < xb->len;) {
		size_t clen = (unsigned char)xb->chars[i] >= 0xc0 ? char_length(xb->chars + i) : 1;
		bool sep = false;
		if (clen > 1 && i + clen <= xb->len) {
			bool splittable = true;
			for (size_t k = i; k < i + clen; k++)
				splittable = splittable && (xb->flags[k] & (CF_SPLIT | CF_QUOTED)) == CF_SPLIT;
			for (const char *c = ifs; splittable && !sep && *c;) {
				size_t l = char_length(c);
				sep = l == clen && memcmp(c, xb->chars + i, clen) == 0;
				c += l;
			}
		}
		if (sep) {
			xb->chars[out] = xb->chars[i];
			xb->flags[out++] = CF_SPLIT | CF_IFS;
			i += clen;
			continue;
		}
		xb->chars[out] = xb->chars[i];
		xb->flags[out++] = xb->flags[i];
		i++;
	}
	xb->len = out;
}

/* Splits the expanded word into fields and globs each one. Splitting
 * only removes characters between fields, so every field is a run
 * [start, i) of xb itself (zero-width entries inside it are skipped when
 * it is turned into a string). */
static int split_and_glob(struct expander *ex, struct xbuf *xb, struct strvec *out)
{
	const char *ifs = ifs_value(ex->sh);
	bool split = ifs[0] != '\0';
	/* Which bytes are IFS characters ('\0' never is). */
	bool is_ifs[256];
	if (split) {
		memset(is_ifs, 0, sizeof is_ifs);
		for (const char *c = ifs; *c; c++)
			is_ifs[(unsigned char)*c] = true;
	}
	if (split && utf8_ifs(ex->sh, ifs))
		fold_multibyte_ifs(xb, ifs, is_ifs);
	size_t n = xb->len;
	size_t i = 0;
	size_t start = 0;
	bool has_content = false;
	int result = 0;

#define SPLITTABLE(k) (split && (xb->flags[k] & (CF_SPLIT | CF_QUOTED)) == CF_SPLIT && \
                       ((xb->flags[k] & CF_IFS) || is_ifs[(unsigned char)xb->chars[k]]))
#define SPLIT_SPACE(k) (SPLITTABLE(k) && is_ifs_space(xb->chars[k]))

	while (i < n && SPLIT_SPACE(i))
		i++;
	start = i;
	while (i < n && result == 0) {
		unsigned char f = xb->flags[i];
		if (f & CF_BREAK) {
			if (has_content)
				result = finish_field(ex, xb, start, i, out);
			has_content = false;
			i++;
			while (i < n && SPLIT_SPACE(i))
				i++;
			start = i;
			continue;
		}
		if (f & CF_MARK) {
			has_content = true;
			i++;
			continue;
		}
		if (SPLITTABLE(i)) {
			result = finish_field(ex, xb, start, i, out);
			has_content = false;
			if (is_ifs_space(xb->chars[i])) {
				while (i < n && SPLIT_SPACE(i))
					i++;
				if (i < n && SPLITTABLE(i)) {
					i++;
					while (i < n && SPLIT_SPACE(i))
						i++;
				}
			} else {
				i++;
				while (i < n && SPLIT_SPACE(i))
					i++;
			}
			start = i;
			continue;
		}
		has_content = true;
		i++;
	}
#undef SPLITTABLE
#undef SPLIT_SPACE
	if (result == 0 && has_content)
		result = finish_field(ex, xb, start, n, out);
	return result;
}

/* ---- brace expansion ---------------------------------------------------- */

/* A word flattened for brace expansion: unquoted literal characters are
 * individual atoms (part == NULL); anything else is one opaque atom. */
struct atom {
	const struct word_part *part;
	char c;
};

struct atom_list {
	struct atom *items;
	size_t len, cap;
};

static void atoms_push(struct atom_list *l, struct atom a)
{
	if (l->len == l->cap) {
		l->cap = l->cap ? l->cap * 2 : 32;
		l->items = xreallocarray(l->items, l->cap, sizeof *l->items);
	}
	l->items[l->len++] = a;
}

static void atoms_append(struct atom_list *l, const struct atom *a, size_t n)
{
	for (size_t i = 0; i < n; i++)
		atoms_push(l, a[i]);
}

static bool atom_is(const struct atom *a, char c)
{
	return a->part == NULL && a->c == c;
}

/* A word built from atoms: literal runs are new parts (owned), other parts
 * are shallow copies of the original's. */
struct built_word {
	struct word word;
	bool *owned;
};

static void built_word_from_atoms(struct built_word *bw, const struct atom_list *l)
{
	size_t cap = l->len ? l->len : 1;
	bw->word.parts = xcalloc(cap, sizeof *bw->word.parts);
	bw->owned = xcalloc(cap, sizeof *bw->owned);
	bw->word.nparts = 0;
	memset(&bw->word.range, 0, sizeof bw->word.range);
	size_t i = 0;
	while (i < l->len) {
		struct word_part *part = &bw->word.parts[bw->word.nparts];
		if (l->items[i].part) {
			*part = *l->items[i].part;
			bw->owned[bw->word.nparts++] = false;
			i++;
			continue;
		}
		size_t j = i;
		while (j < l->len && !l->items[j].part)
			j++;
		char *text = xmalloc(j - i + 1);
		for (size_t k = i; k < j; k++)
			text[k - i] = l->items[k].c;
		text[j - i] = '\0';
		memset(part, 0, sizeof *part);
		part->kind = WORD_LITERAL;
		part->u.literal.text = text;
		part->u.literal.len = j - i;
		part->u.literal.quote = QUOTE_NONE;
		bw->owned[bw->word.nparts++] = true;
		i = j;
	}
}

static void built_word_free(struct built_word *bw)
{
	for (size_t i = 0; i < bw->word.nparts; i++) {
		if (bw->owned[i])
			free(bw->word.parts[i].u.literal.text);
	}
	free(bw->word.parts);
	free(bw->owned);
}

/* What one word may brace-expand to: bash has no limit and expands 22
 * groups of {a,b} (4M words); past these the expansion is an error, not a
 * word passed on as written nor the shell's memory gone
 * (docs/architecture.md, Limits). */
enum { BRACE_MAX_WORDS = 1 << 22, BRACE_MAX_DEPTH = 200 };
#define BRACE_MAX_BYTES ((size_t)128 << 20)

/* Each word is expanded as soon as it is made, so only the final fields
 * are kept: the atoms of 4M words would take gigabytes. */
struct brace_out {
	struct expander *ex;
	struct strvec *out;
	size_t words, bytes;
	int r;           /* -1 once an error is reported: stop */
};

static int expand_one_word(struct expander *ex, const struct word *w, struct strvec *out);

static void brace_too_many(struct brace_out *o, uintmax_t known)
{
	if (known)
		shell_error(o->ex->sh, "brace expansion of %ju words exceeds the limit of %d", known, BRACE_MAX_WORDS);
	else
		shell_error(o->ex->sh, "brace expansion exceeds the limit of %d words", BRACE_MAX_WORDS);
	o->r = -1;
}

static void brace_emit(struct brace_out *o, const struct atom *a, size_t n)
{
	if (++o->words > BRACE_MAX_WORDS) {
		brace_too_many(o, 0);
		return;
	}
	o->bytes += n + 1;
	if (o->bytes > BRACE_MAX_BYTES) {
		shell_error(o->ex->sh, "brace expansion exceeds the limit of %zu MiB of text", BRACE_MAX_BYTES >> 20);
		o->r = -1;
		return;
	}
	struct atom_list l = {.items = (struct atom *)a, .len = n, .cap = n};
	struct built_word bw;
	built_word_from_atoms(&bw, &l);
	if (expand_one_word(o->ex, &bw.word, o->out) < 0)
		o->r = -1;
	built_word_free(&bw);
}

enum seq { SEQ_NONE, SEQ_OK, SEQ_TOO_MANY };

/* Parses the inside of {a..b[..step]}; returns the generated items, or
 * SEQ_TOO_MANY with *count set when they would be past the limit. */
static enum seq brace_sequence(const struct atom *a, size_t n, struct strvec *items, uintmax_t *count)
{
	char buf[128];
	if (n == 0 || n >= sizeof buf)
		return SEQ_NONE;
	for (size_t i = 0; i < n; i++) {
		if (a[i].part)
			return SEQ_NONE;
		buf[i] = a[i].c;
	}
	buf[n] = '\0';
	char *dots = strstr(buf, "..");
	if (!dots)
		return SEQ_NONE;
	*dots = '\0';
	char *lhs = buf, *rhs = dots + 2;
	char *step_text = strstr(rhs, "..");
	intmax_t step = 1;
	if (step_text) {
		*step_text = '\0';
		step_text += 2;
		char *end;
		errno = 0;
		step = strtoimax(step_text, &end, 10);
		if (*step_text == '\0' || *end != '\0' || errno)
			return SEQ_NONE;
		if (step < 0)
			step = -step;
		if (step == 0)
			step = 1;
	}
	bool lhs_char = strlen(lhs) == 1 && isalpha((unsigned char)lhs[0]);
	bool rhs_char = strlen(rhs) == 1 && isalpha((unsigned char)rhs[0]);
	if (lhs_char && rhs_char) {
		int from = (unsigned char)lhs[0], to = (unsigned char)rhs[0];
		int dir = from <= to ? 1 : -1;
		for (int c = from; dir > 0 ? c <= to : c >= to; c += dir * (int)(step > 255 ? 255 : step)) {
			char one[2] = {(char)c, '\0'};
			strvec_push(items, one);
		}
		return SEQ_OK;
	}
	char *e1, *e2;
	errno = 0;
	intmax_t from = strtoimax(lhs, &e1, 10);
	intmax_t to = strtoimax(rhs, &e2, 10);
	if (*lhs == '\0' || *rhs == '\0' || *e1 != '\0' || *e2 != '\0' || errno)
		return SEQ_NONE;
	int width = 0;
	const char *l = lhs[0] == '-' || lhs[0] == '+' ? lhs + 1 : lhs;
	const char *r = rhs[0] == '-' || rhs[0] == '+' ? rhs + 1 : rhs;
	if ((l[0] == '0' && l[1] != '\0') || (r[0] == '0' && r[1] != '\0')) {
		size_t w1 = strlen(lhs), w2 = strlen(rhs);
		width = (int)(w1 > w2 ? w1 : w2);
	}
	uintmax_t span = from <= to ? (uintmax_t)to - (uintmax_t)from : (uintmax_t)from - (uintmax_t)to;
	if (span / (uintmax_t)step >= BRACE_MAX_WORDS) {
		*count = span / (uintmax_t)step == UINTMAX_MAX ? UINTMAX_MAX : span / (uintmax_t)step + 1;
		return SEQ_TOO_MANY;
	}
	for (uintmax_t k = 0; k <= span / (uintmax_t)step; k++) {
		intmax_t v = from <= to ? from + (intmax_t)(k * (uintmax_t)step) : from - (intmax_t)(k * (uintmax_t)step);
		if (width && v < 0)
			strvec_push_owned(items, xasprintf("-%0*" PRIdMAX, width - 1, -v));
		else
			strvec_push_owned(items, xasprintf("%0*" PRIdMAX, width, v));
	}
	return SEQ_OK;
}

/* How many words a[0..n) brace-expands to, counted without making them
 * (saturating past the limit), so that 23 groups of {a,b} are refused at
 * once instead of after 4M words: the groups side by side multiply, the
 * alternatives of one add up. */
static uintmax_t brace_count(const struct atom *a, size_t n, unsigned depth, uintmax_t *known)
{
	const uintmax_t cap = (uintmax_t)BRACE_MAX_WORDS + 1;
	uintmax_t total = 1;
	if (depth > BRACE_MAX_DEPTH)
		return 1; /* brace_expand reports the nesting */
	for (size_t i = 0; i < n && total < cap; i++) {
		if (!atom_is(&a[i], '{'))
			continue;
		size_t level = 0, close = 0, ncommas = 0;
		bool found = false;
		for (size_t j = i + 1; j < n && !found; j++) {
			if (atom_is(&a[j], '{'))
				level++;
			else if (atom_is(&a[j], '}') && level == 0)
				found = true, close = j;
			else if (atom_is(&a[j], '}'))
				level--;
			else if (atom_is(&a[j], ',') && level == 0)
				ncommas++;
		}
		if (!found)
			continue;
		uintmax_t group = 1;
		if (ncommas > 0) {
			group = 0;
			size_t start = i + 1;
			level = 0;
			for (size_t j = i + 1; j <= close && group < cap; j++) {
				if (atom_is(&a[j], '{'))
					level++;
				else if (atom_is(&a[j], '}') && level > 0)
					level--;
				else if (j == close || (atom_is(&a[j], ',') && level == 0)) {
					group += brace_count(a + start, j - start, depth + 1, known);
					start = j + 1;
				}
			}
		} else {
			struct strvec items;
			strvec_init(&items);
			uintmax_t count = 0;
			enum seq seq = brace_sequence(a + i + 1, close - i - 1, &items, &count);
			group = seq == SEQ_TOO_MANY ? cap : seq == SEQ_OK ? items.len : 1;
			if (seq == SEQ_TOO_MANY && *known == 0)
				*known = count; /* the error can name the sequence's size */
			strvec_free(&items);
		}
		total = group && total > cap / group ? cap : total * group;
		i = close;
	}
	return total < cap ? total : cap;
}

static void brace_expand(const struct atom *a, size_t n, struct brace_out *out, unsigned depth)
{
	if (out->r < 0)
		return;
	if (depth > BRACE_MAX_DEPTH) {
		shell_error(out->ex->sh, "brace expansion exceeds the limit of %d nested groups", BRACE_MAX_DEPTH);
		out->r = -1;
		return;
	}
	for (size_t i = 0; i < n; i++) {
		if (!atom_is(&a[i], '{'))
			continue;
		/* Find the matching close brace and the top-level commas. */
		size_t level = 0, close = 0, ncommas = 0;
		bool found = false;
		for (size_t j = i + 1; j < n; j++) {
			if (atom_is(&a[j], '{')) {
				level++;
			} else if (atom_is(&a[j], '}')) {
				if (level == 0) {
					close = j;
					found = true;
					break;
				}
				level--;
			} else if (atom_is(&a[j], ',') && level == 0) {
				ncommas++;
			}
		}
		if (!found)
			continue;
		if (ncommas > 0) {
			size_t start = i + 1;
			level = 0;
			for (size_t j = i + 1; j <= close; j++) {
				if (atom_is(&a[j], '{'))
					level++;
				else if (atom_is(&a[j], '}') && level > 0)
					level--;
				else if (j == close || (atom_is(&a[j], ',') && level == 0)) {
					struct atom_list l = {0};
					atoms_append(&l, a, i);
					atoms_append(&l, a + start, j - start);
					atoms_append(&l, a + close + 1, n - close - 1);
					brace_expand(l.items, l.len, out, depth + 1);
					free(l.items);
					if (out->r < 0)
						return;
					start = j + 1;
				}
			}
			return;
		}
		struct strvec items;
		strvec_init(&items);
		uintmax_t count = 0;
		enum seq seq = brace_sequence(a + i + 1, close - i - 1, &items, &count);
		if (seq == SEQ_TOO_MANY) {
			brace_too_many(out, count);
			return;
		}
		if (seq == SEQ_OK) {
			for (size_t k = 0; k < items.len && out->r == 0; k++) {
				struct atom_list l = {0};
				atoms_append(&l, a, i);
				for (const char *c = items.items[k]; *c; c++)
					atoms_push(&l, (struct atom){NULL, *c});
				atoms_append(&l, a + close + 1, n - close - 1);
				brace_expand(l.items, l.len, out, depth + 1);
				free(l.items);
			}
			strvec_free(&items);
			return;
		}
		strvec_free(&items);
	}
	brace_emit(out, a, n);
}

/* True when the word has an unquoted '{' worth trying. */
static bool word_has_brace(const struct word *w)
{
	for (size_t i = 0; i < w->nparts; i++) {
		const struct word_part *p = &w->parts[i];
		if (p->kind == WORD_LITERAL && p->u.literal.quote == QUOTE_NONE &&
		    memchr(p->u.literal.text, '{', p->u.literal.len))
			return true;
	}
	return false;
}

/* ---- the public entry points ------------------------------------------- */

static int expand_one_word(struct expander *ex, const struct word *w, struct strvec *out)
{
	struct xbuf xb;
	xbuf_init(&xb);
	int r = expand_parts(ex, w->parts, w->nparts, false, true, &xb);
	if (r == 0)
		r = split_and_glob(ex, &xb, out);
	xbuf_free(&xb);
	return r;
}

/* Plain unquoted text with nothing to expand: the common case. */
static bool word_is_plain(const struct word *w)
{
	if (w->nparts != 1 || w->parts[0].kind != WORD_LITERAL || w->parts[0].u.literal.quote != QUOTE_NONE)
		return false;
	const char *t = w->parts[0].u.literal.text;
	size_t len = w->parts[0].u.literal.len;
	if (len == 0 || strlen(t) != len)
		return false;
	return strpbrk(t, "{~*?[(") == NULL; /* ( only in an extglob group */
}

static int expand_word_fields(struct expander *ex, const struct word *w, struct strvec *out)
{
	if (word_is_plain(w)) {
		strvec_push(out, w->parts[0].u.literal.text);
		return 0;
	}
	if (!word_has_brace(w))
		return expand_one_word(ex, w, out);

	struct atom_list atoms = {0};
	for (size_t i = 0; i < w->nparts; i++) {
		const struct word_part *p = &w->parts[i];
		if (p->kind == WORD_LITERAL && p->u.literal.quote == QUOTE_NONE) {
			for (size_t k = 0; k < p->u.literal.len; k++)
				atoms_push(&atoms, (struct atom){NULL, p->u.literal.text[k]});
		} else {
			atoms_push(&atoms, (struct atom){p, 0});
		}
	}
	struct brace_out bo = {.ex = ex, .out = out};
	uintmax_t known = 0;
	uintmax_t words = brace_count(atoms.items, atoms.len, 0, &known);
	if (words > BRACE_MAX_WORDS)
		brace_too_many(&bo, known);
	else
		brace_expand(atoms.items, atoms.len, &bo, 0);
	free(atoms.items);
	return bo.r;
}

int expand_words(struct shell *sh, struct word *const *words, size_t nwords, struct strvec *out)
{
	struct expander ex = {.sh = sh, .flags = 0, .fields = true};
	for (size_t i = 0; i < nwords; i++) {
		if (expand_word_fields(&ex, words[i], out) < 0)
			return -1;
	}
	return 0;
}

char *expand_word_str(struct shell *sh, const struct word *w, unsigned flags)
{
	if (w && w->nparts == 1 && w->parts[0].kind == WORD_LITERAL &&
	    (w->parts[0].u.literal.quote != QUOTE_NONE || !memchr(w->parts[0].u.literal.text, '~', w->parts[0].u.literal.len))) {
		const struct word_part *p = &w->parts[0];
		if (!(flags & EXPAND_PATTERN) || p->u.literal.quote == QUOTE_NONE)
			return xstrndup(p->u.literal.text, p->u.literal.len);
	}
	struct expander ex = {.sh = sh, .flags = flags, .fields = false};
	return expand_to_string(&ex, w, flags, (flags & EXPAND_PATTERN) ? pattern_specials : NULL);
}

void expand_split_ifs(struct shell *sh, const char *s, struct strvec *out)
{
	struct expander ex = {.sh = sh, .flags = 0, .fields = true};
	struct xbuf xb;
	xbuf_init(&xb);
	xbuf_addmem(&xb, s, strlen(s), CF_SPLIT);
	bool noglob = sh->opt.noglob;
	sh->opt.noglob = true;
	split_and_glob(&ex, &xb, out);
	sh->opt.noglob = noglob;
	xbuf_free(&xb);
}

/* Finds the one word of a parsed `"..."` command. */
static const struct word *prompt_word(const struct node *n)
{
	while (n) {
		switch (n->kind) {
		case NODE_LIST:
			if (n->u.list.nitems != 1)
				return NULL;
			n = n->u.list.items[0].node;
			break;
		case NODE_AND_OR:
			return NULL;
		case NODE_PIPELINE:
			if (n->u.pipeline.ncmds != 1)
				return NULL;
			n = n->u.pipeline.cmds[0];
			break;
		case NODE_SIMPLE:
			if (n->u.simple.nwords != 1 || n->u.simple.nassigns != 0 || n->nredirs != 0)
				return NULL;
			return n->u.simple.words[0];
		default:
			return NULL;
		}
	}
	return NULL;
}

/* Whether expanding w could run a command ($( ), ` `, <( )). */
static bool word_runs_commands(const struct word *w)
{
	for (size_t i = 0; w && i < w->nparts; i++) {
		const struct word_part *wp = &w->parts[i];
		switch (wp->kind) {
		case WORD_CMDSUB:
		case WORD_PROCSUB:
			return true;
		case WORD_DQUOTE:
			if (word_runs_commands(wp->u.dquote))
				return true;
			break;
		case WORD_PARAM:
			if (word_runs_commands(wp->u.param->index) || word_runs_commands(wp->u.param->arg) ||
			    word_runs_commands(wp->u.param->arg2))
				return true;
			break;
		case WORD_ARITH:
			if (word_runs_commands(wp->u.arith.expr))
				return true;
			break;
		case WORD_LITERAL:
			break;
		}
	}
	return false;
}

char *expand_subscript_text(struct shell *sh, const char *text)
{
	struct strbuf src;
	strbuf_init(&src);
	strbuf_addf(&src, "a[%s]=", text);
	struct parser_options opts = {.source_name = NULL, .first_line = 1};
	struct node *tree = NULL;
	struct parse_error err = {0};
	char *result = NULL;
	if (parse_program(src.data, src.len, &opts, &tree, &err) == 0) {
		const struct node *n = tree;
		while (n && n->kind == NODE_LIST && n->u.list.nitems == 1)
			n = n->u.list.items[0].node;
		while (n && n->kind == NODE_PIPELINE && n->u.pipeline.ncmds == 1)
			n = n->u.pipeline.cmds[0];
		if (n && n->kind == NODE_SIMPLE && n->u.simple.nassigns == 1 && n->u.simple.nwords == 0 &&
		    n->nredirs == 0 && n->u.simple.assigns[0].index &&
		    !word_runs_commands(n->u.simple.assigns[0].index))
			result = expand_word_str(sh, n->u.simple.assigns[0].index, EXPAND_NOTILDE);
		ast_node_free(tree);
	} else {
		free(err.message);
	}
	strbuf_free(&src);
	return result ? result : xstrdup(text);
}

char *expand_prompt(struct shell *sh, const char *text)
{
	struct strbuf src;
	strbuf_init(&src);
	strbuf_addc(&src, '"');
	for (const char *p = text; *p; p++) {
		if (*p == '"')
			strbuf_addc(&src, '\\');
		strbuf_addc(&src, *p);
	}
	if (src.len > 1 && src.data[src.len - 1] == '\\' && (src.len < 3 || src.data[src.len - 2] != '\\'))
		strbuf_addc(&src, '\\');
	strbuf_addc(&src, '"');

	struct parser_options opts = {.source_name = NULL, .first_line = 1};
	struct node *tree = NULL;
	struct parse_error err = {0};
	char *result = NULL;
	if (parse_program(src.data, src.len, &opts, &tree, &err) == 0) {
		const struct word *w = prompt_word(tree);
		if (w) {
			/* A prompt must not change $? or end the shell. */
			int saved_status = sh->last_status;
			enum exec_jump saved_jump = sh->jump;
			int saved_exit = sh->exit_status;
			result = expand_word_str(sh, w, EXPAND_NOTILDE);
			sh->last_status = saved_status;
			sh->jump = saved_jump;
			sh->exit_status = saved_exit;
		}
		ast_node_free(tree);
	} else {
		free(err.message);
	}
	strbuf_free(&src);
	return result ? result : xstrdup(text);
}
