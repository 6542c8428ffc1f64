/* The subcommand matcher: a tool_spec's rules against the words of an
 * argv (the tools that are just "these subcommands, these flags"), and the
 * operand matching it shares with the config file's `classify =` rules. */
#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>

#include "hooks/rules/internal.h"
#include "lib/util.h"

/* One operand pattern (a glob, as in the shell's case) against a word. */
static bool operand_matches(const char *pat, size_t plen, const char *w)
{
	char buf[128];
	if (plen < sizeof buf) {
		memcpy(buf, pat, plen);
		buf[plen] = '\0';
		return fnmatch(buf, w, 0) == 0;
	}
	char *long_pat = xstrndup(pat, plen);
	bool m = fnmatch(long_pat, w, 0) == 0;
	free(long_pat);
	return m;
}

enum operands_match rules_match_operands(const struct operand_rule *r, const struct sarg *a, const int *idx,
                                         size_t nw, int *at)
{
	const char *p = r->operands;
	size_t k = 0;
	while (*p == ' ')
		p++;
	while (*p) {
		size_t len = strcspn(p, " ");
		if (k >= nw)
			return OPERANDS_DIFFER;
		const struct sarg *x = &a[idx[k]];
		if (!x->known) {
			*at = idx[k];
			return OPERANDS_UNKNOWN;
		}
		if (!operand_matches(p, len, x->text))
			return OPERANDS_DIFFER;
		k++;
		p += len;
		while (*p == ' ')
			p++;
	}
	*at = k ? idx[k - 1] : 0;
	return OPERANDS_MATCH;
}

struct judgement judge_spec(struct cctx *c, const char *name, const struct tool_spec *sp,
                            const struct sarg *a, size_t n)
{
	/* The words: arguments that are not options or their values. */
	int idx[64];
	size_t nw = 0;
	bool opts_done = false;
	for (size_t i = 1; i < n && nw < 64; i++) {
		const struct sarg *x = &a[i];
		const char *t = x->text;
		if (!opts_done && x->known && eq(t, "--")) {
			opts_done = true;
			continue;
		}
		if (!opts_done && x->known && t[0] == '-' && t[1]) {
			/* --version after a subcommand may be an option's name (cargo yank --version 1.0). */
			if (eq(t, "--help") || eq(t, "-h") || (eq(t, "--version") && nw == 0))
				return SAFE_J;
			size_t len = strcspn(t, "=");
			if (t[1] == '-') {
				if (!t[len] && in_list(sp->long_arg, t, len))
					i++;
			} else if (!t[2] && sp->short_arg && strchr(sp->short_arg, t[1])) {
				i++;
			} else if (in_list(sp->long_arg, t, len) && !t[len]) {
				i++; /* single-dash long options (-chdir, -Dx) */
			}
			continue;
		}
		idx[nw++] = (int)i;
	}
	if (nw > 0 && a[idx[0]].known && eq(a[idx[0]].text, "help"))
		return SAFE_J;

	struct judgement best = SAFE_J;
	for (const struct operand_rule *r = sp->rules; r->operands; r++) {
		if (r->requires && !has_flag(a, 1, n, r->requires)) {
			/* The required flag could be hiding in an unquoted unknown argument. */
			int u = first_splitting_unknown(a, 1, n);
			if (u >= 0 && best.v < VERDICT_ASK)
				best = J(VERDICT_ASK, cl_printf(c, "%s with arguments that are not known", name), u);
			continue;
		}
		if ((sp->dry_run && dry_run(a, 1, n, sp->dry_run)) || (r->unless && dry_run(a, 1, n, r->unless)))
			continue;
		if (eq(r->operands, "^")) {
			if (nw == 0)
				best = judgement_max(best, J(r->verdict, r->reason, 0));
			continue;
		}
		if (sp->flags & SPEC_ANYWHERE) {
			for (size_t k = 0; k < nw; k++) {
				const struct sarg *x = &a[idx[k]];
				if (!x->known) {
					if (best.v < VERDICT_ASK)
						best = J(VERDICT_ASK, cl_printf(c, "%s with a target that is not known", name), idx[k]);
					continue;
				}
				const char *w = x->text;
				if (sp->flags & SPEC_TASKPATH) {
					const char *colon = strrchr(w, ':');
					if (colon && w[0] == ':')
						w = colon + 1;
				}
				if (fnmatch(r->operands, w, 0) == 0)
					best = judgement_max(best, J(r->verdict, r->reason, idx[k]));
			}
			continue;
		}
		int at = 0;
		switch (rules_match_operands(r, a, idx, nw, &at)) {
		case OPERANDS_MATCH:
			best = judgement_max(best, J(r->verdict, r->reason, at));
			break;
		case OPERANDS_UNKNOWN:
			if (best.v < VERDICT_ASK)
				best = judge_unknown_subcommand(c, name, (size_t)at);
			break;
		case OPERANDS_DIFFER:
			break;
		}
	}
	return best;
}
