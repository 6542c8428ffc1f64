/* The subcommand matcher: a tool_spec's rules against the words of an
 * argv (the tools that are just "these subcommands, these flags"). */
#include <string.h>

#include "hooks/rules/internal.h"

static bool match_word(const char *pat, size_t plen, const char *w)
{
	if (plen && pat[plen - 1] == '*')
		return strncmp(pat, w, plen - 1) == 0;
	return strlen(w) == plen && strncmp(pat, w, plen) == 0;
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
	for (const struct subrule *r = sp->rules; r->operands; r++) {
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
				if (match_word(r->operands, strlen(r->operands), w))
					best = judgement_max(best, J(r->verdict, r->reason, idx[k]));
			}
			continue;
		}
		/* Match the rule's words against the first words. */
		const char *p = r->operands;
		size_t k = 0;
		bool ok = true;
		while (*p) {
			size_t len = strcspn(p, " ");
			if (k >= nw) {
				ok = false;
				break;
			}
			const struct sarg *x = &a[idx[k]];
			if (!x->known) {
				if (best.v < VERDICT_ASK)
					best = J(VERDICT_ASK, cl_printf(c, "%s subcommand is not known before it runs", name), idx[k]);
				ok = false;
				break;
			}
			if (!match_word(p, len, x->text)) {
				ok = false;
				break;
			}
			k++;
			p += len;
			while (*p == ' ')
				p++;
		}
		if (ok)
			best = judgement_max(best, J(r->verdict, r->reason, k ? idx[k - 1] : 0));
	}
	return best;
}
