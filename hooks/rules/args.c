/* The argument helpers every rule family shares: flags, "--", dry runs,
 * unknown words, and judging the text or argv a command hands on. */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "hooks/rules/internal.h"
#include "lib/util.h"

/* Is s one of the "|"-separated words of list? */
bool in_list(const char *list, const char *s, size_t slen)
{
	if (!list)
		return false;
	const char *p = list;
	while (*p) {
		const char *end = strchr(p, '|');
		size_t len = end ? (size_t)(end - p) : strlen(p);
		if (len == slen && strncmp(p, s, len) == 0)
			return true;
		if (!end)
			break;
		p = end + 1;
	}
	return false;
}

bool in_lists(const char *list, const char *s)
{
	return in_list(list, s, strlen(s));
}

/* The first argument in a[from..n) that is known and one of words
 * ("a|b"), or -1. */
int find_word(const struct sarg *a, size_t from, size_t n, const char *words)
{
	for (size_t i = from; i < n; i++)
		if (a[i].known && in_lists(words, a[i].text))
			return (int)i;
	return -1;
}

/* In a loop over options, where they end: at an operand (a word not
 * starting with "-", or "-" alone) or at "--", which *i then moves past. */
bool options_end(const char *t, size_t *i)
{
	if (eq(t, "--")) {
		(*i)++;
		return true;
	}
	return t[0] != '-' || !t[1];
}

/* Index of the first "--" at or after from, or n. */
size_t dashdash(const struct sarg *a, size_t from, size_t n)
{
	for (size_t i = from; i < n; i++)
		if (kn(&a[i], "--"))
			return i;
	return n;
}

/* Does the argument spell one of flags ("--long|-s")? Long flags match
 * exactly or as --long=value; a short one matches inside a cluster (-xvf)
 * unless shortok is false. */
bool arg_is_flag(const struct sarg *a, const char *flags, bool clusters)
{
	if (!a->known || a->text[0] != '-' || a->text[1] == '\0')
		return false;
	const char *t = a->text;
	if (t[1] == '-') {
		size_t len = strcspn(t, "=");
		return in_list(flags, t, len);
	}
	if (in_lists(flags, t))
		return true;
	if (!clusters)
		return false;
	for (const char *p = t + 1; *p; p++) {
		char one[3] = {'-', *p, '\0'};
		if (in_list(flags, one, 2))
			return true;
		if (!isalnum((unsigned char)*p))
			return false;
	}
	return false;
}

/* Git accepts any unambiguous prefix of a long option (--forc, --ha): is
 * t[0..len) such a prefix (at least "--xy") of one of the long flags? */
bool long_abbrev_of(const char *t, size_t len, const char *flags)
{
	if (len < 4 || t[0] != '-' || t[1] != '-')
		return false;
	const char *p = flags;
	while (*p) {
		size_t fl = strcspn(p, "|");
		if (fl >= len && strncmp(p, t, len) == 0 && p[0] == '-' && p[1] == '-')
			return true;
		p += fl;
		if (*p == '|')
			p++;
	}
	return false;
}

static bool arg_is_git_flag(const struct sarg *a, const char *flags)
{
	if (arg_is_flag(a, flags, true))
		return true;
	return a->known && long_abbrev_of(a->text, strcspn(a->text, "="), flags);
}

/* The first argument before "--" that spells one of flags (git: also an
 * abbreviated long one), or -1. */
static int find_flag_before_dashdash(const struct sarg *a, size_t from, size_t n, const char *flags, bool git)
{
	size_t end = dashdash(a, from, n);
	for (size_t i = from; i < end; i++)
		if (git ? arg_is_git_flag(&a[i], flags) : arg_is_flag(&a[i], flags, true))
			return (int)i;
	return -1;
}

int gfind(const struct sarg *a, size_t from, size_t n, const char *flags)
{
	return find_flag_before_dashdash(a, from, n, flags, true);
}

bool ghas(const struct sarg *a, size_t from, size_t n, const char *flags)
{
	return gfind(a, from, n, flags) >= 0;
}

int find_flag(const struct sarg *a, size_t from, size_t n, const char *flags)
{
	return find_flag_before_dashdash(a, from, n, flags, false);
}

bool has_flag(const struct sarg *a, size_t from, size_t n, const char *flags)
{
	return find_flag(a, from, n, flags) >= 0;
}

/* A dry run counts only as the literal flag before "--", and the last of
 * --dry-run / --no-dry-run / --dry-run=false wins. */
bool dry_run(const struct sarg *a, size_t from, size_t n, const char *flags)
{
	size_t end = dashdash(a, from, n);
	bool on = false;
	for (size_t i = from; i < end; i++) {
		if (!a[i].known)
			continue;
		const char *t = a[i].text;
		if (starts(t, "--no-dry-run") || eq(t, "--dry-run=false") || eq(t, "--dry-run=0") || eq(t, "--dry-run=none"))
			on = false;
		else if (arg_is_flag(&a[i], flags, true))
			on = true;
	}
	return on;
}

int first_unknown(const struct sarg *a, size_t from, size_t n)
{
	for (size_t i = from; i < n; i++)
		if (!a[i].known)
			return (int)i;
	return -1;
}

/* An argument that may expand to several words, none of them known. */
int first_splitting_unknown(const struct sarg *a, size_t from, size_t n)
{
	for (size_t i = from; i < n; i++)
		if (!a[i].known && a[i].splits && !*a[i].text)
			return (int)i;
	return -1;
}

/* Policy rule 10: a make target, package script or script file named for
 * publishing is PUBLISH even though its code is opaque. "release" counts
 * only when release is set: the public corpus keeps `npm run release` SAFE. */
bool name_says_publish(const char *s, bool release)
{
	static const char *const words[] = {"publish", "deploy", "upload", "release"};
	size_t len = strlen(s);
	for (size_t w = 0; w < sizeof words / sizeof words[0] - !release; w++) {
		size_t wl = strlen(words[w]);
		for (size_t i = 0; i + wl <= len; i++)
			if (strncasecmp(s + i, words[w], wl) == 0)
				return true;
	}
	return false;
}

const char *base_name(const char *s)
{
	const char *b = strrchr(s, '/');
	return b && b[1] ? b + 1 : s;
}

/* Arguments joined with spaces: how sh -c, eval, watch and ssh see them. */
const char *join_args(struct cctx *c, const struct sarg *a, size_t n)
{
	struct strbuf sb;
	strbuf_init(&sb);
	for (size_t i = 0; i < n; i++) {
		if (i)
			strbuf_addc(&sb, ' ');
		strbuf_adds(&sb, a[i].text);
	}
	char *s = cl_strndup(c, sb.data, sb.len);
	strbuf_free(&sb);
	return s;
}

bool all_known(const struct sarg *a, size_t n)
{
	return first_unknown(a, 0, n) < 0;
}

/* Known text around unknown parts: only a verdict above ASK counts, since
 * what is missing could change anything else. */
struct judgement judge_partial_text(struct cctx *c, const char *what, const char *text, int at)
{
	if (!text || !*text)
		return SAFE_J;
	struct judgement j = cl_judge_text(c, text, NULL, 0, false);
	if (j.v <= VERDICT_ASK)
		return SAFE_J;
	j.reason = cl_printf(c, "%s: %s", what, j.reason ? j.reason : "");
	j.at = at;
	return j;
}

/* The verdict of text run by a shell, named for the reason. */
struct judgement judge_shell_text(struct cctx *c, const char *what, const struct sarg *text,
                                  const struct sarg *pos, size_t npos, int at)
{
	struct stdin_src none = {STDIN_NONE, NULL};
	return judge_shell_text_in(c, what, text, pos, npos, at, &none);
}

struct judgement judge_shell_text_in(struct cctx *c, const char *what, const struct sarg *text,
                                     const struct sarg *pos, size_t npos, int at, const struct stdin_src *in)
{
	if (!text->known) {
		/* The known beginning may already be decisive: sh -c "rm -rf $d". */
		struct judgement ask = J(VERDICT_ASK, cl_printf(c, "%s runs text that is not known before it runs", what), at);
		return judgement_max(ask, judge_partial_text(c, what, text->text, at));
	}
	struct judgement j = cl_judge_text_in(c, text->text, pos, npos, false, in);
	if (j.v != VERDICT_SAFE)
		j.reason = cl_printf(c, "%s: %s", what, j.reason ? j.reason : "");
	j.at = at;
	return j;
}

struct judgement judge_rest(struct cctx *c, const char *what, const struct sarg *a, size_t n,
                            const struct stdin_src *in, int at)
{
	if (n == 0)
		return SAFE_J;
	struct judgement j = cl_judge_argv(c, a, n, in);
	if (j.v != VERDICT_SAFE && what)
		j.reason = cl_printf(c, "%s %s", what, j.reason ? j.reason : "");
	j.at = at;
	return j;
}

/* Judges a[from..n) as the command prog (a[from] is its name as written):
 * what a launcher or runner really runs. */
struct judgement judge_as_command(struct cctx *c, const char *prog, const struct sarg *a, size_t from, size_t n,
                                  const struct stdin_src *in)
{
	struct sarg *v = xcalloc(n - from, sizeof *v);
	for (size_t k = from; k < n; k++)
		v[k - from] = a[k];
	v[0].text = prog;
	struct judgement j = judge_rest(c, NULL, v, n - from, in, (int)from);
	free(v);
	return j;
}

/* The first argument at or after from that is not a known option (a word
 * starting with "-"); the options in value_opts ("-o|--config") take the
 * next argument as their value. */
size_t skip_options(const struct sarg *a, size_t from, size_t n, const char *value_opts)
{
	size_t i = from;
	while (i < n && a[i].known && a[i].text[0] == '-') {
		if (value_opts && in_lists(value_opts, a[i].text))
			i++;
		i++;
	}
	return i;
}

/* The indexes (max at most) of the words from a[1] on that are not known
 * options, the options in value_opts taking the next word as their value:
 * a tool's service, operation and operands. Returns how many. */
size_t operand_indexes(const struct sarg *a, size_t n, const char *value_opts, int *idx, size_t max)
{
	size_t nw = 0;
	for (size_t i = 1; i < n && nw < max; i++) {
		if (a[i].known && a[i].text[0] == '-') {
			if (in_lists(value_opts, a[i].text))
				i++;
			continue;
		}
		idx[nw++] = (int)i;
	}
	return nw;
}

struct judgement judge_unknown_subcommand(struct cctx *c, const char *name, size_t at)
{
	return J(VERDICT_ASK, cl_printf(c, "%s subcommand is not known before it runs", name), (int)at);
}

bool no_known_subcommand(struct cctx *c, const char *name, const struct sarg *a, size_t s, size_t n,
                         struct judgement *j)
{
	if (s >= n)
		*j = SAFE_J;
	else if (!a[s].known)
		*j = judge_unknown_subcommand(c, name, s);
	else
		return false;
	return true;
}

/* A builtin's first operand: after one leading "--". */
size_t builtin_operands(const struct sarg *a, size_t n)
{
	return n > 1 && kn(&a[1], "--") ? 2 : 1;
}

bool contains(const char *hay, const char *needle)
{
	return strstr(hay, needle) != NULL;
}

/* Splits a git alias value into words the way git does (quotes, backslash). */
size_t git_split_alias(struct cctx *c, const char *v, struct sarg *out, size_t max)
{
	size_t n = 0;
	struct strbuf sb;
	strbuf_init(&sb);
	const char *p = v;
	while (*p && n < max) {
		while (*p == ' ' || *p == '\t' || *p == '\n')
			p++;
		if (!*p)
			break;
		char q = 0;
		strbuf_truncate(&sb, 0);
		while (*p && (q || (*p != ' ' && *p != '\t' && *p != '\n'))) {
			if (q && *p == q) {
				q = 0;
			} else if (!q && (*p == '"' || *p == '\'')) {
				q = *p;
			} else if (*p == '\\' && p[1] && q != '\'') {
				p++;
				strbuf_addc(&sb, *p);
			} else {
				strbuf_addc(&sb, *p);
			}
			p++;
		}
		memset(&out[n], 0, sizeof out[n]);
		out[n].text = cl_strndup(c, sb.data ? sb.data : "", sb.len);
		out[n].known = true;
		n++;
	}
	strbuf_free(&sb);
	return n;
}
