/* git and its forge: global options, -c settings, aliases, the
 * subcommands that discard work or rewrite remote history, and gh. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "hooks/rules/internal.h"
#include "lib/gitconfig.h"
#include "lib/util.h"

static const char *const git_builtin_cmds =
	"add|am|annotate|apply|archive|bisect|blame|branch|bugreport|bundle|cat-file|check-attr|"
	"check-ignore|check-mailmap|check-ref-format|checkout|checkout-index|cherry|cherry-pick|citool|"
	"clean|clone|column|commit|commit-graph|commit-tree|config|count-objects|credential|describe|diff|"
	"diff-files|diff-index|diff-tree|difftool|fast-export|fast-import|fetch|fetch-pack|filter-branch|"
	"fmt-merge-msg|for-each-ref|for-each-repo|format-patch|fsck|gc|get-tar-commit-id|grep|gui|"
	"hash-object|help|hook|http-backend|index-pack|init|instaweb|interpret-trailers|log|ls-files|"
	"ls-remote|ls-tree|mailinfo|mailsplit|maintenance|merge|merge-base|merge-file|merge-index|"
	"merge-tree|mergetool|mktag|mktree|multi-pack-index|mv|name-rev|notes|pack-objects|pack-refs|"
	"patch-id|prune|prune-packed|pull|push|range-diff|read-tree|rebase|receive-pack|reflog|remote|"
	"repack|replace|request-pull|rerere|reset|restore|rev-list|rev-parse|revert|rm|send-email|"
	"send-pack|shortlog|show|show-branch|show-index|show-ref|sparse-checkout|stage|stash|status|"
	"stripspace|submodule|switch|symbolic-ref|tag|unpack-file|unpack-objects|update-index|"
	"update-ref|update-server-info|upload-archive|upload-pack|var|verify-commit|verify-pack|"
	"verify-tag|version|whatchanged|worktree|write-tree";

struct git_state {
	const struct sarg *aliases[16]; /* -c alias.X=... values, as sargs */
	size_t naliases;
	bool forces_push; /* from -c */
	const char *gc_expires; /* a -c gc.*Expire that makes gc drop objects or reflogs now */
	const char *dir, *gitdir;
	/* a variable git finds its config by, set to something not known
	 * before it runs: aliases and push config are unknown too */
	const char *env_unknown;
	const struct stdin_src *in; /* what git reads on its standard input */
};

static const char *git_lower_key(struct cctx *c, const char *kv, size_t len)
{
	char *k = cl_strndup(c, kv, len);
	/* Section and variable names are case-insensitive; subsections not. */
	char *first = strchr(k, '.');
	char *last = strrchr(k, '.');
	for (char *p = k; *p; p++)
		if ((!first || p < first || p > last) && *p >= 'A' && *p <= 'Z')
			*p = (char)(*p - 'A' + 'a');
	return k;
}

static struct judgement judge_git_config(struct cctx *c, struct git_state *gs, const struct sarg *x, int at)
{
	if (!x->known) {
		/* An unknown key=value could be an alias or a pager. */
		if (!*x->text || strchr(x->text, '=') == NULL)
			return J(VERDICT_ASK, "git -c with a setting that is not known", at);
	}
	const char *kv = x->text;
	size_t klen = strcspn(kv, "=");
	const char *key = git_lower_key(c, kv, klen);
	const char *val = kv[klen] == '=' ? kv + klen + 1 : "true";
	bool val_known = x->known;
	if (starts(key, "alias.")) {
		if (gs->naliases < 16)
			gs->aliases[gs->naliases++] = x;
		return SAFE_J;
	}
	if (starts(key, "remote.")) {
		const char *last = strrchr(key, '.');
		if (eq(last, ".mirror") && !eq(val, "false") && !eq(val, "0") && !eq(val, "no"))
			gs->forces_push = true;
		if (eq(last, ".push") && (!val_known || val[0] == '+' || val[0] == ':'))
			gs->forces_push = true;
	}
	/* gc prunes and expires reflogs by these; "now" or "all" loses work */
	if (in_lists("gc.pruneexpire|gc.reflogexpire|gc.reflogexpireunreachable|gc.worktreepruneexpire", key) &&
	    (!val_known || eq(val, "now") || eq(val, "all") || eq(val, "0")))
		gs->gc_expires = key;
	if (starts(key, "push.")) {
		const char *var = key + 5;
		bool harmless = in_lists("autosetupremote|followtags|gpgsign|recursesubmodules|pushoption|"
		                         "useforceifincludes|usebitmaps|negotiate",
		                         var) ||
		                (eq(var, "default") && val_known &&
		                 in_lists("simple|current|upstream|nothing|tracking|matching", val));
		if (!harmless)
			gs->forces_push = true;
	}
	enum gitconfig_effect effect = gitconfig_name_effect(key);
	if (effect != GITCONFIG_PLAIN) {
		if (!val_known)
			return J(VERDICT_ASK, cl_printf(c, "git -c %s runs a command that is not known", key), at);
		if (eq(key, "core.hookspath"))
			return J(VERDICT_ASK, "git -c core.hooksPath runs hooks from another folder", at);
		if (effect == GITCONFIG_ELSEWHERE)
			return J(VERDICT_ASK, cl_printf(c, "git -c %s takes settings from another file", key), at);
		/* of the protocols, only ext:: runs a command */
		if (effect == GITCONFIG_PROTOCOL)
			return (eq(key, "protocol.allow") || eq(key, "protocol.ext.allow")) && eq(val, "always")
			               ? J(VERDICT_ASK, "git -c protocol.*.allow=always lets URLs run commands", at)
			               : SAFE_J;
		const char *cmd = val;
		/* credential helpers and submodule.*.update are git's own words
		 * unless they start with "!" */
		if (effect == GITCONFIG_RUNS_BANG || contains(key, "credential") || contains(key, "helper")) {
			if (cmd[0] != '!')
				return SAFE_J;
		}
		if (cmd[0] == '!')
			cmd++;
		struct sarg t = {.text = cmd, .known = true, .word = x->word};
		return judge_shell_text(c, cl_printf(c, "git -c %s", key), &t, NULL, 0, at);
	}
	return SAFE_J;
}

static struct judgement judge_git_argv(struct cctx *c, const struct sarg *a, size_t n, unsigned alias_depth,
                                       const struct stdin_src *in);

static bool git_path_like(const char *t)
{
	if (eq(t, ".") || eq(t, "..") || eq(t, "*") || strchr(t, '*') || starts(t, "./") || starts(t, ":/"))
		return true;
	const char *slash = strrchr(t, '/');
	const char *dot = strrchr(slash ? slash : t, '.');
	if (!dot || dot == t || !dot[1])
		return false;
	for (const char *p = dot + 1; *p; p++)
		if (!isalpha((unsigned char)*p))
			return false;
	return true;
}

/* The folder git runs in: -C, else the shell's. */
static const char *git_dir_of(struct cctx *c, const struct git_state *gs, const char *rel)
{
	if (rel[0] == '/' || !gs->dir)
		return rel;
	return cl_printf(c, "%s/%s", gs->dir, rel);
}

static bool git_in_worktree(struct cctx *c, const struct git_state *gs, const char *t)
{
	struct stat st;
	return lstat(git_dir_of(c, gs, t), &st) == 0;
}

/* Whether name is a local branch or remote-tracking name git would pick
 * over a file: a ref file, or a line of packed-refs, in the common dir. */
static bool git_is_branch(struct cctx *c, const struct git_state *gs, const char *name)
{
	if (eq(name, "HEAD") || eq(name, "@") || eq(name, "-"))
		return true;
	const char *gd = gs->gitdir;
	if (!gd) {
		/* Walk up to the .git of the work tree. */
		char *d = realpath(gs->dir ? gs->dir : ".", NULL);
		if (!d)
			return false;
		struct stat st;
		for (;;) {
			const char *cand = cl_printf(c, "%s/.git", d);
			if (stat(cand, &st) == 0) {
				gd = cand;
				break;
			}
			char *sl = strrchr(d, '/');
			if (!sl || sl == d)
				break;
			*sl = '\0';
		}
		free(d);
		if (!gd)
			return false;
		if (S_ISREG(st.st_mode)) {
			/* a linked work tree: "gitdir: X", refs in X's commondir */
			FILE *fp = fopen(gd, "r");
			char line[4096];
			bool ok = fp && fgets(line, sizeof line, fp) && starts(line, "gitdir: ");
			if (fp)
				fclose(fp);
			if (!ok)
				return false;
			line[strcspn(line, "\n")] = '\0';
			gd = cl_strdup(c, line + 8);
			fp = fopen(cl_printf(c, "%s/commondir", gd), "r");
			if (fp) {
				if (fgets(line, sizeof line, fp)) {
					line[strcspn(line, "\n")] = '\0';
					gd = line[0] == '/' ? cl_strdup(c, line) : cl_printf(c, "%s/%s", gd, line);
				}
				fclose(fp);
			}
		}
	}
	static const char *const spaces[] = {"refs/heads/", "refs/tags/", "refs/remotes/", ""};
	struct stat st;
	for (size_t k = 0; k < sizeof spaces / sizeof spaces[0]; k++)
		if (stat(cl_printf(c, "%s/%s%s", gd, spaces[k], name), &st) == 0 && S_ISREG(st.st_mode))
			return true;
	FILE *fp = fopen(cl_printf(c, "%s/packed-refs", gd), "r");
	if (!fp)
		return false;
	char line[4096];
	bool found = false;
	while (!found && fgets(line, sizeof line, fp)) {
		line[strcspn(line, "\n")] = '\0';
		const char *ref = strchr(line, ' ');
		if (!ref)
			continue;
		ref++;
		for (size_t k = 0; k < 3 && !found; k++)
			found = starts(ref, spaces[k]) && eq(ref + strlen(spaces[k]), name);
	}
	fclose(fp);
	return found;
}

static struct judgement git_push(struct cctx *c, struct git_state *gs, const struct sarg *a, size_t s, size_t n)
{
	struct judgement j = SAFE_J;
	struct judgement unknown = SAFE_J;
	bool dry = false;
	size_t npositional = 0;
	bool opts_done = false;
	for (size_t i = s + 1; i < n; i++) {
		const struct sarg *x = &a[i];
		const char *t = x->text;
		if (!x->known) {
			if (t[0] == '+' || (t[0] == ':' && npositional >= 1))
				j = judgement_max(j, J(VERDICT_FORCE_PUSH,
				                       t[0] == '+' ? "git push +refspec force-updates the remote"
				                                   : "git push :ref deletes a remote ref",
				                       (int)i));
			else if (t[0] == '-' && !opts_done)
				; /* an option with an unknown value */
			else if (*t && !x->splits && npositional >= 1)
				; /* "HEAD:$b", "refs/heads/$b": cannot turn into +ref or :ref */
			else if (unknown.v == VERDICT_SAFE)
				unknown = J(VERDICT_ASK, "git push with a repository or refspec that is not known", (int)i);
			if (t[0] != '-' || opts_done)
				npositional++;
			continue;
		}
		if (!opts_done && eq(t, "--")) {
			opts_done = true;
			continue;
		}
		if (!opts_done && t[0] == '-' && t[1]) {
			if (t[1] == '-') {
				size_t len = strcspn(t, "=");
				if (in_list("--force|--force-with-lease|--mirror|--delete|--prune", t, len) ||
				    long_abbrev_of(t, len, "--force|--force-with-lease|--mirror|--delete|--prune"))
					j = judgement_max(j, J(VERDICT_FORCE_PUSH,
					                       cl_printf(c, "git push %.*s rewrites or deletes remote history",
					                                 (int)len, t),
					                       (int)i));
				else if (eq(t, "--dry-run")) /* only the literal flag counts */
					dry = true;
				else if (eq(t, "--no-dry-run"))
					dry = false;
				else if (eq(t, "--no-force-with-lease") && j.v == VERDICT_FORCE_PUSH && a[j.at].known &&
				         starts(a[j.at].text, "--force-with-lease"))
					j = SAFE_J;
				else if (in_list("--repo|--receive-pack|--exec|--push-option|--signed", t, len) && !t[len] &&
				         !eq(t, "--signed"))
					i++;
				continue;
			}
			for (const char *p = t + 1; *p; p++) {
				if (*p == 'f')
					j = judgement_max(j, J(VERDICT_FORCE_PUSH, "git push -f force-updates the remote", (int)i));
				else if (*p == 'd')
					j = judgement_max(j, J(VERDICT_FORCE_PUSH, "git push -d deletes a remote ref", (int)i));
				else if (*p == 'n')
					dry = true;
				else if (*p == 'o') {
					if (!p[1])
						i++;
					break;
				}
			}
			continue;
		}
		npositional++;
		if (npositional >= 2 || t[0] == '+' || t[0] == ':') {
			if (t[0] == '+')
				j = judgement_max(j, J(VERDICT_FORCE_PUSH, "git push +refspec force-updates the remote", (int)i));
			else if (t[0] == ':' && t[1])
				j = judgement_max(j, J(VERDICT_FORCE_PUSH, "git push :ref deletes a remote ref", (int)i));
		}
	}
	if (gs->forces_push)
		j = judgement_max(j, J(VERDICT_FORCE_PUSH, "git push with mirror or forced-refspec config", (int)s));
	else if (j.v == VERDICT_SAFE && gs->env_unknown)
		j = J(VERDICT_ASK, cl_printf(c, "git push reads its remote's config by %s, not known before it runs",
		                             gs->env_unknown), (int)s);
	const char *unread = NULL;
	if (j.v == VERDICT_SAFE && cl_git_config_forces_push(c, gs->dir, gs->gitdir, &unread))
		j = J(VERDICT_FORCE_PUSH, "git push to a remote configured as a mirror or with a forced refspec", (int)s);
	else if (j.v == VERDICT_SAFE && unread)
		j = J(VERDICT_ASK, cl_printf(c, "git push reads its remote's config from %s, too big to read", unread),
		      (int)s);
	if (dry)
		return SAFE_J;
	return judgement_max(j, unknown);
}

static struct judgement judge_git_sub(struct cctx *c, struct git_state *gs, const struct sarg *a, size_t s,
                                      size_t n)
{
	const char *sub = a[s].text;
	size_t f = s + 1;
	if (ghas(a, f, n, "--help|-h"))
		return SAFE_J;
#define DEL(reason, at) J(VERDICT_DELETE, reason, (int)(at))
	if (eq(sub, "push"))
		return git_push(c, gs, a, s, n);
	if (eq(sub, "reset")) {
		int k = gfind(a, f, n, "--hard");
		return k >= 0 ? DEL("git reset --hard discards uncommitted changes", k) : SAFE_J;
	}
	if (eq(sub, "checkout")) {
		if (ghas(a, f, n, "-b|-B|--orphan") && dashdash(a, f, n) == n)
			return SAFE_J;
		int k = gfind(a, f, n, "-f|--force|-p|--patch|--ours|--theirs");
		if (k >= 0)
			return DEL("git checkout overwrites uncommitted changes", k);
		size_t dd = dashdash(a, f, n);
		if (dd + 1 < n)
			return DEL("git checkout -- PATH discards changes to files", dd);
		k = gfind(a, f, n, "--pathspec-from-file");
		if (k >= 0)
			return DEL("git checkout --pathspec-from-file discards changes to files", k);
		/* Like git: a first operand that is not a branch but names a file
		 * is a path, and every operand after the tree-ish is a path. */
		int ops[2];
		size_t nops = 0;
		for (size_t i = f; i < dd && nops < 2; i++) {
			if (!a[i].known || a[i].text[0] == '-')
				continue;
			if (i > f && a[i - 1].known && in_lists("--conflict|--inter-hunk-context", a[i - 1].text))
				continue;
			ops[nops++] = (int)i;
		}
		if (nops >= 2)
			return DEL("git checkout TREE PATH discards changes to files", ops[1]);
		if (nops == 1) {
			const char *t = a[ops[0]].text;
			if (git_path_like(t) || (!git_is_branch(c, gs, t) && git_in_worktree(c, gs, t)))
				return DEL("git checkout PATH discards changes to files", ops[0]);
		}
		return SAFE_J;
	}
	if (eq(sub, "restore")) {
		bool staged = ghas(a, f, n, "--staged|-S");
		bool worktree = ghas(a, f, n, "--worktree|-W");
		if (staged && !worktree)
			return SAFE_J;
		return DEL("git restore discards changes to files", s);
	}
	if (eq(sub, "switch")) {
		int k = gfind(a, f, n, "--discard-changes|-f|--force");
		return k >= 0 ? DEL("git switch --discard-changes discards uncommitted changes", k) : SAFE_J;
	}
	if (eq(sub, "stash")) {
		for (size_t i = f; i < n; i++) {
			if (!a[i].known)
				continue;
			if (eq(a[i].text, "drop") || eq(a[i].text, "clear"))
				return DEL(cl_printf(c, "git stash %s deletes stashed changes", a[i].text), i);
			if (a[i].text[0] != '-')
				break;
		}
		return SAFE_J;
	}
	if (eq(sub, "clean") || eq(sub, "prune")) {
		if (dry_run(a, f, n, "--dry-run|-n"))
			return SAFE_J;
		return DEL(eq(sub, "clean") ? "git clean deletes untracked files" : "git prune drops unreachable objects", s);
	}
	if (eq(sub, "branch")) {
		int d = gfind(a, f, n, "-D");
		if (d >= 0)
			return DEL("git branch -D deletes an unmerged branch", d);
		int del = gfind(a, f, n, "-d|--delete");
		int force = gfind(a, f, n, "-f|--force");
		if (del >= 0 && force >= 0)
			return DEL("git branch -d --force deletes an unmerged branch", del);
		return SAFE_J;
	}
	if (eq(sub, "tag")) {
		int k = gfind(a, f, n, "-d|--delete");
		return k >= 0 ? DEL("git tag -d deletes a tag", k) : SAFE_J;
	}
	if (eq(sub, "update-ref")) {
		int k = gfind(a, f, n, "-d|--delete|--stdin");
		if (k >= 0)
			return DEL("git update-ref -d deletes a ref", k);
		/* A new value of all zeros deletes the ref too. */
		int ops[2];
		size_t nops = operand_indexes(a + f - 1, n - f + 1, "-m", ops, 2);
		if (nops == 2 && a[f - 1 + (size_t)ops[1]].known) {
			const char *v = a[f - 1 + (size_t)ops[1]].text;
			if (strlen(v) >= 4 && strspn(v, "0") == strlen(v))
				return DEL("git update-ref REF 000... deletes the ref", f - 1 + (size_t)ops[1]);
		}
		return SAFE_J;
	}
	if (eq(sub, "read-tree")) {
		int u = gfind(a, f, n, "-u");
		int r = gfind(a, f, n, "--reset");
		return u >= 0 && r >= 0 ? DEL("git read-tree -u --reset overwrites uncommitted changes", r) : SAFE_J;
	}
	if (eq(sub, "checkout-index")) {
		int k = gfind(a, f, n, "-f|--force");
		return k >= 0 ? DEL("git checkout-index -f overwrites uncommitted changes", k) : SAFE_J;
	}
	if (eq(sub, "send-pack")) {
		int k = gfind(a, f, n, "-f|--force|--mirror");
		if (k >= 0)
			return J(VERDICT_FORCE_PUSH, "git send-pack --force rewrites remote history", k);
		for (size_t i = f; i < n; i++)
			if (a[i].known && (a[i].text[0] == '+' || (a[i].text[0] == ':' && a[i].text[1])))
				return J(VERDICT_FORCE_PUSH, "git send-pack with a forcing or deleting refspec", (int)i);
		return SAFE_J;
	}
	if (eq(sub, "symbolic-ref")) {
		int k = gfind(a, f, n, "-d|--delete");
		return k >= 0 ? DEL("git symbolic-ref -d deletes a ref", k) : SAFE_J;
	}
	if (eq(sub, "reflog")) {
		int k = find_word(a, f, n, "expire|delete");
		return k >= 0 ? DEL(cl_printf(c, "git reflog %s drops recovery points", a[k].text), k) : SAFE_J;
	}
	if (eq(sub, "gc")) {
		for (size_t i = f; i < n; i++)
			if (a[i].known && strchr(a[i].text, '=') &&
			    long_abbrev_of(a[i].text, strcspn(a[i].text, "="), "--prune") && !strstr(a[i].text, "=2.weeks.ago"))
				return DEL("git gc --prune drops unreachable commits", i);
		if (gs->gc_expires)
			return DEL(cl_printf(c, "git gc with -c %s drops unreachable commits now", gs->gc_expires), s);
		return SAFE_J;
	}
	if (eq(sub, "rm")) {
		if (ghas(a, f, n, "--cached") || dry_run(a, f, n, "--dry-run|-n"))
			return SAFE_J;
		return DEL("git rm deletes files", s);
	}
	if (eq(sub, "filter-branch") || eq(sub, "filter-repo"))
		return DEL(cl_printf(c, "git %s rewrites history and drops the old", sub), s);
	if (eq(sub, "worktree")) {
		if (f < n && kn(&a[f], "remove") && ghas(a, f + 1, n, "-f|--force"))
			return DEL("git worktree remove --force deletes a working tree with its changes", f);
		return SAFE_J;
	}
	if (eq(sub, "submodule")) {
		for (size_t i = f; i < n; i++) {
			if (kn(&a[i], "deinit") && ghas(a, i + 1, n, "-f|--force"))
				return DEL("git submodule deinit --force discards submodule changes", i);
			if (kn(&a[i], "update") && ghas(a, i + 1, n, "-f|--force"))
				return DEL("git submodule update --force discards submodule changes", i);
			if (kn(&a[i], "foreach")) {
				size_t k = skip_options(a, i + 1, n, NULL);
				if (k >= n)
					return SAFE_J;
				struct sarg t = {.text = join_args(c, a + k, n - k), .known = all_known(a + k, n - k), .word = a[k].word};
				return judge_shell_text(c, "git submodule foreach", &t, NULL, 0, (int)k);
			}
		}
		return SAFE_J;
	}
	if (eq(sub, "rebase")) {
		struct judgement j = SAFE_J;
		for (size_t i = f; i < n; i++) {
			if (kn(&a[i], "-x") || kn(&a[i], "--exec")) {
				if (i + 1 < n)
					j = judgement_max(j, judge_shell_text(c, "git rebase --exec", &a[i + 1], NULL, 0, (int)i + 1));
				i++;
			} else if (a[i].known && starts(a[i].text, "--exec=")) {
				struct sarg t = {.text = a[i].text + 7, .known = true, .word = a[i].word};
				j = judgement_max(j, judge_shell_text(c, "git rebase --exec", &t, NULL, 0, (int)i));
			}
		}
		return j;
	}
	if (eq(sub, "bisect")) {
		if (f < n && kn(&a[f], "run")) {
			struct stdin_src none = {STDIN_NONE, NULL};
			return judge_rest(c, "git bisect run", a + f + 1, n - f - 1, &none, (int)f + 1);
		}
		return SAFE_J;
	}
	if (eq(sub, "send-email"))
		return J(VERDICT_PUBLISH, "git send-email sends patches to a mailing list", (int)s);
	if (eq(sub, "lfs") && f < n && kn(&a[f], "prune"))
		return dry_run(a, f, n, "--dry-run|-d") ? SAFE_J : DEL("git lfs prune deletes local LFS objects", f);
	return SAFE_J;
#undef DEL
}

/* What git's environment adds to its configuration: GIT_DIR (the
 * repository whose config it reads), the variables that choose the other
 * config files, and GIT_CONFIG_COUNT's settings, judged as -c ones. */
static struct judgement judge_git_env(struct cctx *c, struct git_state *gs)
{
	static const char *const chooses[] = {"GIT_DIR", "HOME", "XDG_CONFIG_HOME", "GIT_CONFIG_GLOBAL",
	                                      "GIT_CONFIG_SYSTEM"};
	bool known;
	for (size_t k = 0; k < sizeof chooses / sizeof chooses[0]; k++)
		if (cl_env_get(c, chooses[k], &known) && !known && !gs->env_unknown)
			gs->env_unknown = chooses[k];
	const char *gitdir = cl_env_get(c, "GIT_DIR", &known);
	if (gitdir && known && *gitdir)
		gs->gitdir = gitdir;
	/* git's own encoding of -c for its children: not read here */
	if (cl_env_get(c, "GIT_CONFIG_PARAMETERS", &known) && !cl_env_inherited(c, "GIT_CONFIG_PARAMETERS") &&
	    !gs->env_unknown)
		gs->env_unknown = "GIT_CONFIG_PARAMETERS";
	const char *count = cl_env_get(c, "GIT_CONFIG_COUNT", &known);
	if (!count || (known && !*count))
		return SAFE_J;
	char *end = NULL;
	long total = known ? strtol(count, &end, 10) : -1;
	if (!known || *end || total < 0 || total > 64)
		return J(VERDICT_ASK, "git takes settings from GIT_CONFIG_COUNT that are not known", 0);
	struct judgement j = SAFE_J;
	for (long k = 0; k < total; k++) {
		bool kk, vk;
		const char *key = cl_env_get(c, cl_printf(c, "GIT_CONFIG_KEY_%ld", k), &kk);
		const char *val = cl_env_get(c, cl_printf(c, "GIT_CONFIG_VALUE_%ld", k), &vk);
		if (!key || !val || !kk || !vk)
			return judgement_max(j, J(VERDICT_ASK, "git takes settings from GIT_CONFIG_* that are not known", 0));
		struct sarg *kv = cl_alloc(c, sizeof *kv);
		*kv = (struct sarg){.text = cl_printf(c, "%s=%s", key, val), .known = true};
		struct judgement kj = judge_git_config(c, gs, kv, 0);
		/* Settings sbsh started with (its own core.hooksPath among them)
		 * are the human's: they still define aliases, never a verdict. */
		if (!cl_env_inherited(c, cl_printf(c, "GIT_CONFIG_KEY_%ld", k)) ||
		    !cl_env_inherited(c, cl_printf(c, "GIT_CONFIG_VALUE_%ld", k)))
			j = judgement_max(j, kj);
	}
	return j;
}

/* Whether a patch's text removes a file: a deletion, or, applied in
 * reverse, a creation. */
static bool patch_deletes(const char *text, bool reverse)
{
	for (const char *l = text; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL) {
		if (reverse ? starts(l, "new file mode") || starts(l, "--- /dev/null")
		            : starts(l, "deleted file mode") || starts(l, "+++ /dev/null"))
			return true;
	}
	return false;
}

/* git apply changes the work tree, untracked files too, where no git
 * command can bring them back: a patch that removes a file is DELETE (git
 * diff --no-index FILE /dev/null | git apply), one not known before it
 * runs (another program's output) is ASK. */
static struct judgement git_apply(struct cctx *c, const struct git_state *gs, const struct sarg *a, size_t s,
                                  size_t n)
{
	size_t end = dashdash(a, s + 1, n);
	if (ghas(a, s + 1, end, "--check|--cached|--stat|--numstat|--summary") && !ghas(a, s + 1, end, "--apply|--index"))
		return SAFE_J;
	if (ghas(a, s + 1, end, "--cached"))
		return SAFE_J; /* the index only */
	bool reverse = ghas(a, s + 1, end, "-R|--reverse");
	size_t patches = 0;
	for (size_t i = s + 1; i < n; i++) {
		const struct sarg *x = &a[i];
		if (i < end && x->known && x->text[0] == '-' && x->text[1]) {
			if (in_lists("-p|-C|--directory|--exclude|--include|--whitespace|--build-fake-ancestor", x->text))
				i++;
			continue;
		}
		if (i == end && kn(x, "--"))
			continue;
		patches++;
		if (!x->known)
			return J(VERDICT_ASK, "git apply with a patch file that is not known", (int)i);
		const char *text = NULL;
		char *owned = NULL;
		if (eq(x->text, "-")) {
			patches--; /* standard input, below */
			continue;
		}
		if (cl_written_file(c, git_dir_of(c, gs, x->text), &text) == 0)
			return J(VERDICT_ASK, "git apply with a patch written on this line", (int)i);
		if (!text) {
			size_t len;
			owned = util_read_file(git_dir_of(c, gs, x->text), 0, 16u << 20, &len);
			text = owned;
		}
		bool deletes = text && patch_deletes(text, reverse);
		free(owned);
		if (deletes)
			return J(VERDICT_DELETE, cl_printf(c, "git apply %s removes files", x->text), (int)i);
	}
	if (patches > 0 && !ghas(a, s + 1, end, "-"))
		return SAFE_J;
	if (gs->in && gs->in->kind == STDIN_TEXT && gs->in->text)
		return patch_deletes(gs->in->text, reverse) ? J(VERDICT_DELETE, "git apply: the patch removes files", (int)s)
		                                             : SAFE_J;
	if (gs->in && gs->in->kind == STDIN_UNKNOWN)
		return J(VERDICT_ASK, "git apply reads a patch from another program, which may remove files", (int)s);
	if (gs->in && gs->in->kind == STDIN_FILE)
		return J(VERDICT_ASK, "git apply reads a patch on its standard input, which may remove files", (int)s);
	return SAFE_J;
}

/* The options of a subcommand whose value is a command git runs through
 * the shell: the transport's upload-pack or receive-pack, difftool's
 * command, grep's pager, instaweb's server and browser. values: the other
 * short options that take a value (a cluster ends there). optional: the
 * value only ever follows the option in the same word (grep -Oless). */
struct git_runs_opt {
	const char *sub, *longs, *shorts, *values;
	bool optional;
};

static const struct git_runs_opt git_runs_opts[] = {
	{.sub = "archive", .longs = "--exec", .values = "o"},
	{.sub = "clone", .longs = "--upload-pack", .shorts = "u", .values = "obcj"},
	{.sub = "difftool", .longs = "--extcmd", .shorts = "x", .values = "t"},
	{.sub = "fetch", .longs = "--upload-pack", .values = "jo"},
	{.sub = "fetch-pack", .longs = "--upload-pack|--exec"},
	{.sub = "grep", .longs = "--open-files-in-pager", .shorts = "O", .values = "efABCm", .optional = true},
	{.sub = "instaweb", .longs = "--httpd|--browser", .shorts = "db", .values = "p"},
	{.sub = "ls-remote", .longs = "--upload-pack", .shorts = "u", .values = "o"},
	{.sub = "pull", .longs = "--upload-pack", .values = "jo"},
	{.sub = "push", .longs = "--receive-pack|--exec", .values = "o"},
	{.sub = "send-pack", .longs = "--receive-pack|--exec"},
};

static struct judgement git_runs_value(struct cctx *c, const char *sub, const char *opt, const struct sarg *v,
                                       int at)
{
	return judge_shell_text(c, cl_printf(c, "git %s %s", sub, opt), v, NULL, 0, at);
}

/* What a subcommand's own options make git run or read (issue 18): a
 * command in an option's value; for clone and init, hooks copied from a
 * template folder and clone's settings for the new repository. */
static struct judgement git_option_programs(struct cctx *c, struct git_state *gs, const struct sarg *a, size_t s,
                                            size_t n)
{
	const char *sub = a[s].text;
	struct judgement j = SAFE_J;
	const struct git_runs_opt *o = NULL;
	for (size_t k = 0; k < sizeof git_runs_opts / sizeof *git_runs_opts; k++)
		if (eq(git_runs_opts[k].sub, sub))
			o = &git_runs_opts[k];
	bool templ = eq(sub, "clone") || eq(sub, "init");
	if (!o && !templ)
		return j;
	size_t end = dashdash(a, s + 1, n);
	for (size_t i = s + 1; i < end; i++) {
		const struct sarg *x = &a[i];
		const char *t = x->text;
		if (!x->known && x->splits && !*t)
			j = judgement_max(j, J(VERDICT_ASK, cl_printf(c, "git %s with arguments that are not known", sub), (int)i));
		/* an unknown word counts by its known beginning (-u"$x") */
		if (t[0] != '-' || !t[1])
			continue;
		size_t len = strcspn(t, "=");
		bool has_eq = t[len] == '=';
		struct sarg val = {.text = has_eq ? t + len + 1 : "", .known = x->known, .word = x->word};
		const struct sarg *value = has_eq ? &val : i + 1 < end ? &a[i + 1] : NULL;
		if (t[1] == '-') {
			if (templ && (eq(cl_strndup(c, t, len), "--template") || long_abbrev_of(t, len, "--template"))) {
				j = judgement_max(j, J(VERDICT_ASK, cl_printf(c, "git %s --template copies hooks from another folder", sub),
				                       (int)i));
			} else if (eq(sub, "clone") && (in_list("--config", t, len) || long_abbrev_of(t, len, "--config"))) {
				if (value)
					j = judgement_max(j, judge_git_config(c, gs, value, (int)i));
			} else if (o && (in_list(o->longs, t, len) || long_abbrev_of(t, len, o->longs))) {
				if (o->optional && !has_eq)
					continue; /* the pager git's config names */
				if (value)
					j = judgement_max(j, git_runs_value(c, sub, cl_strndup(c, t, len), value, (int)i));
			}
			continue;
		}
		for (const char *p = t + 1; *p; p++) {
			bool runs = o && o->shorts && strchr(o->shorts, *p);
			bool conf = eq(sub, "clone") && *p == 'c';
			if (runs || conf) {
				struct sarg rest = {.text = p + 1, .known = x->known, .word = x->word};
				/* -u"$x": the value is the unknown rest of the word */
				const struct sarg *v = p[1] || !x->known                  ? &rest
				                       : (o && o->optional) || i + 1 >= end ? NULL
				                                                            : &a[i + 1];
				if (v && conf)
					j = judgement_max(j, judge_git_config(c, gs, v, (int)i));
				else if (v)
					j = judgement_max(j, git_runs_value(c, sub, cl_printf(c, "-%c", *p), v, (int)i));
				break;
			}
			if (o && o->values && strchr(o->values, *p))
				break; /* the rest of the word, or the next, is that option's value */
		}
	}
	return j;
}

static struct judgement judge_git_argv(struct cctx *c, const struct sarg *a, size_t n, unsigned alias_depth,
                                       const struct stdin_src *in)
{
	struct git_state gs;
	memset(&gs, 0, sizeof gs);
	gs.in = in;
	struct judgement j = judge_git_env(c, &gs);
	size_t i = 1;
	for (; i < n; i++) {
		const struct sarg *x = &a[i];
		if (!x->known) {
			if (i > 1 && (kn(&a[i - 1], "-C") || kn(&a[i - 1], "--git-dir") || kn(&a[i - 1], "--work-tree")))
				continue;
			break;
		}
		const char *t = x->text;
		if (t[0] != '-')
			break;
		if (eq(t, "--help") || eq(t, "--version") || eq(t, "-h") || eq(t, "-v") || starts(t, "--list-cmds") ||
		    eq(t, "--exec-path") || eq(t, "--html-path") || eq(t, "--man-path") || eq(t, "--info-path"))
			return SAFE_J;
		if (eq(t, "-C")) {
			if (i + 1 < n)
				gs.dir = a[i + 1].known ? a[i + 1].text : NULL;
			i++;
		} else if (eq(t, "-c")) {
			if (i + 1 < n)
				j = judgement_max(j, judge_git_config(c, &gs, &a[i + 1], (int)i + 1));
			i++;
		} else if (starts(t, "--config-env")) {
			const char *v = t[12] == '=' ? t + 13 : (i + 1 < n ? a[++i].text : "");
			size_t klen = strcspn(v, "=");
			const char *key = git_lower_key(c, v, klen);
			if (gitconfig_name_effect(key) != GITCONFIG_PLAIN || starts(key, "alias.") || starts(key, "remote.") ||
			    starts(key, "push."))
				j = judgement_max(j, J(VERDICT_ASK, "git --config-env takes a setting from the environment", (int)i));
		} else if (eq(t, "--git-dir") || eq(t, "--work-tree") || eq(t, "--namespace") ||
		           eq(t, "--super-prefix") || eq(t, "--exec-path")) {
			if (eq(t, "--git-dir") && i + 1 < n && a[i + 1].known)
				gs.gitdir = a[i + 1].text;
			i++;
		} else if (starts(t, "--git-dir=")) {
			gs.gitdir = t + 10;
		} else if (starts(t, "--exec-path=")) {
			j = judgement_max(j, J(VERDICT_ASK, "git --exec-path runs git's commands from another folder", (int)i));
		}
	}
	if (i >= n)
		return j;
	if (!a[i].known)
		return judgement_max(j, judge_unknown_subcommand(c, "git", i));
	const char *sub = a[i].text;
	if (!in_lists(git_builtin_cmds, sub)) {
		/* Aliases never shadow git's own commands. */
		const char *alias = NULL;
		const struct sarg *alias_arg = NULL;
		for (size_t k = 0; k < gs.naliases; k++) {
			const char *kv = gs.aliases[k]->text;
			size_t klen = strcspn(kv, "=");
			if (klen > 6 && klen - 6 == strlen(sub) && strncasecmp(kv + 6, sub, klen - 6) == 0) {
				alias = kv[klen] ? kv + klen + 1 : "";
				alias_arg = gs.aliases[k];
			}
		}
		if (alias_arg && !alias_arg->known)
			return judgement_max(j, J(VERDICT_ASK, "git alias that is not known before it runs", (int)i));
		if (!alias && gs.env_unknown)
			return judgement_max(j, J(VERDICT_ASK, cl_printf(c, "git %s may be an alias, and %s is not known before it runs",
			                                                  sub, gs.env_unknown), (int)i));
		const char *unread = NULL;
		if (!alias)
			alias = cl_git_config_alias(c, gs.dir, gs.gitdir, sub, &unread);
		if (!alias && unread)
			return judgement_max(j, J(VERDICT_ASK, cl_printf(c, "git %s may be an alias in %s, too big to read",
			                                                  sub, unread), (int)i));
		if (alias) {
			if (alias_depth >= 8)
				return judgement_max(j, J(VERDICT_ASK, "git alias loop", (int)i));
			if (alias[0] == '!') {
				/* git runs it with sh -c 'ALIAS "$@"' ALIAS ARGS... */
				const char *text = cl_printf(c, "%s \"$@\"", alias + 1);
				struct sarg *pos = xcalloc(n - i, sizeof *pos);
				pos[0].text = alias + 1;
				pos[0].known = true;
				for (size_t k = i + 1; k < n; k++)
					pos[k - i] = a[k];
				struct sarg t = {.text = text, .known = true, .word = a[i].word};
				struct judgement aj = judge_shell_text(c, cl_printf(c, "git alias %s", sub), &t, pos, n - i, (int)i);
				free(pos);
				return judgement_max(j, aj);
			}
			struct sarg words[64];
			size_t nw = git_split_alias(c, alias, words, 64);
			struct sarg *v = xcalloc(i + nw + (n - i - 1) + 1, sizeof *v);
			size_t m = 0;
			for (size_t k = 0; k < i; k++)
				v[m++] = a[k];
			for (size_t k = 0; k < nw; k++)
				v[m++] = words[k];
			for (size_t k = i + 1; k < n; k++)
				v[m++] = a[k];
			struct judgement aj = judge_git_argv(c, v, m, alias_depth + 1, in);
			free(v);
			if (aj.v != VERDICT_SAFE)
				aj.reason = cl_printf(c, "git alias %s: %s", sub, aj.reason ? aj.reason : "");
			aj.at = (int)i;
			return judgement_max(j, aj);
		}
		if (eq(sub, "filter-repo"))
			return judgement_max(j, J(VERDICT_DELETE, "git filter-repo rewrites history and drops the old", (int)i));
		return j;
	}
	struct judgement sj = judgement_max(judge_git_sub(c, &gs, a, i, n), git_option_programs(c, &gs, a, i, n));
	if (eq(sub, "apply"))
		sj = judgement_max(sj, git_apply(c, &gs, a, i, n));
	if (sj.v == VERDICT_SAFE &&
	    in_lists("reset|checkout|switch|stash|branch|tag|update-ref|symbolic-ref|reflog|gc|prune|rm|worktree|"
	             "submodule|clean|restore|lfs|filter-branch|rebase|bisect",
	             sub)) {
		/* An unquoted unknown argument may expand to --hard, -D, -- paths... */
		int u = first_splitting_unknown(a, i + 1, n);
		if (u >= 0)
			sj = J(VERDICT_ASK, cl_printf(c, "git %s with arguments that are not known", sub), u);
	}
	return judgement_max(j, sj);
}

struct judgement judge_git(struct cctx *c, const char *name, const struct sarg *a, size_t n,
                           const struct stdin_src *in)
{
	return judge_git_argv(c, a, n, 0, in);
}

/* ---- gh --------------------------------------------------------------------------------- */

/* gh release create --draft (-d), the last of --draft and --draft=false
 * winning; not known when written through a variable. */
static bool gh_draft(const struct sarg *a, size_t n)
{
	bool draft = false;
	for (size_t i = 1; i < n && !kn(&a[i], "--"); i++) {
		if (!a[i].known)
			continue;
		const char *t = a[i].text;
		if (in_lists("-n|--notes|-t|--title|-F|--notes-file|-R|--repo|--target|--discussion-category|"
		             "--notes-start-tag|--notes-from-tag",
		             t)) {
			i++; /* its value, even one that starts with - */
			continue;
		}
		if (eq(t, "--draft") || eq(t, "--draft=true") || eq(t, "--draft=1"))
			draft = true;
		else if (starts(t, "--draft="))
			draft = false;
		else if (t[0] == '-' && t[1] != '-' && strchr(t, 'd') && strspn(t + 1, "dp") == strlen(t + 1))
			draft = true; /* -d, -dp: boolean flags only */
	}
	return draft;
}

struct judgement judge_gh(struct cctx *c, const char *name, const struct sarg *a, size_t n,
                          const struct stdin_src *in)
{
	int idx[2];
	size_t nw = operand_indexes(a, n, "-R|--repo|--hostname", idx, 2);
	if (has_flag(a, 1, n, "--help|-h|--version"))
		return SAFE_J;
	if (nw == 0)
		return SAFE_J;
	if (!a[idx[0]].known || (nw > 1 && !a[idx[1]].known && !eq(a[idx[0]].text, "api")))
		return judge_unknown_subcommand(c, "gh", (size_t)idx[0]);
	const char *g = a[idx[0]].text;
	const char *s = nw > 1 ? a[idx[1]].text : "";
	int at = nw > 1 ? idx[1] : idx[0];
	if (eq(g, "api")) {
		const char *method = NULL;
		bool fields = false;
		const char *endpoint = NULL;
		const char *query = NULL;
		for (size_t i = (size_t)idx[0] + 1; i < n; i++) {
			const char *t = a[i].text;
			if (!a[i].known) {
				if (i > 0 && a[i - 1].known && in_lists("-X|--method", a[i - 1].text))
					return J(VERDICT_ASK, "gh api with a method that is not known", (int)i);
				continue;
			}
			if (eq(t, "-X") || eq(t, "--method")) {
				method = i + 1 < n ? a[i + 1].text : "";
				i++;
			} else if (starts(t, "--method=")) {
				method = t + 9;
			} else if (starts(t, "-X") && t[2]) {
				method = t + 2;
			} else if (in_lists("-f|-F|--field|--raw-field|--input", t)) {
				fields = true;
				if (i + 1 < n && a[i + 1].known && starts(a[i + 1].text, "query="))
					query = a[i + 1].text;
				i++;
			} else if (starts(t, "--field=") || starts(t, "--raw-field=") || starts(t, "--input=")) {
				fields = true;
			} else if (in_lists("-H|--header|-q|--jq|-t|--template|--hostname|--cache|-p|--preview", t)) {
				i++;
			} else if (t[0] != '-' && !endpoint) {
				endpoint = t;
			}
		}
		if (method) {
			if (strcasecmp(method, "DELETE") == 0)
				return J(VERDICT_DELETE, "gh api -X DELETE deletes on GitHub", at);
			if (strcasecmp(method, "GET") != 0 && strcasecmp(method, "HEAD") != 0)
				return J(VERDICT_PUBLISH, cl_printf(c, "gh api -X %s changes GitHub", method), at);
			return SAFE_J;
		}
		if (fields) {
			if (endpoint && eq(endpoint, "graphql") && (!query || !contains(query, "mutation")))
				return SAFE_J;
			return J(VERDICT_PUBLISH, "gh api with fields sends a POST that changes GitHub", at);
		}
		return SAFE_J;
	}
	if (eq(g, "release")) {
		if (eq(s, "create") && gh_draft(a, n))
			return SAFE_J; /* a draft is seen by the repository's collaborators alone */
		if (in_lists("create|upload|edit|publish", s))
			return J(VERDICT_PUBLISH, cl_printf(c, "gh release %s publishes a release", s), at);
		if (in_lists("delete|delete-asset", s))
			return J(VERDICT_DELETE, cl_printf(c, "gh release %s deletes a release", s), at);
		return SAFE_J;
	}
	if (eq(g, "repo")) {
		if (eq(s, "delete"))
			return J(VERDICT_DELETE, "gh repo delete deletes a repository", at);
		if (eq(s, "create") || eq(s, "fork")) {
			int k = find_flag(a, 1, n, "--public");
			return k >= 0 ? J(VERDICT_PUBLISH, "gh repo create --public publishes a repository", k) : SAFE_J;
		}
		if (eq(s, "edit")) {
			for (size_t i = 1; i < n; i++) {
				if (kn(&a[i], "--visibility") && i + 1 < n &&
				    (!a[i + 1].known || eq(a[i + 1].text, "public")))
					return J(VERDICT_PUBLISH, "gh repo edit --visibility public publishes a repository", (int)i);
				if (kn(&a[i], "--visibility=public"))
					return J(VERDICT_PUBLISH, "gh repo edit --visibility public publishes a repository", (int)i);
			}
			return SAFE_J;
		}
		if (eq(s, "sync") && has_flag(a, 1, n, "--force"))
			return J(VERDICT_FORCE_PUSH, "gh repo sync --force overwrites the branch's history", at);
		if (eq(s, "archive") || eq(s, "rename") || eq(s, "unarchive"))
			return J(VERDICT_PUBLISH, cl_printf(c, "gh repo %s changes a published repository", s), at);
		return SAFE_J;
	}
	if (eq(g, "gist")) {
		if (eq(s, "delete"))
			return J(VERDICT_DELETE, "gh gist delete deletes a gist", at);
		int k = find_flag(a, 1, n, "--public|-p");
		if ((eq(s, "create") || eq(s, "new")) && k >= 0)
			return J(VERDICT_PUBLISH, "gh gist create --public publishes", k);
		return SAFE_J;
	}
	if (eq(g, "pr") && eq(s, "close")) {
		int k = find_flag(a, 1, n, "--delete-branch|-d");
		return k >= 0 ? J(VERDICT_FORCE_PUSH, "gh pr close --delete-branch deletes an unmerged remote branch", k) : SAFE_J;
	}
	if (in_lists("secret|variable|label|issue|run|ssh-key|gpg-key|codespace|project|ruleset|environment", g) &&
	    in_lists("delete|remove|rm", s))
		return J(VERDICT_DELETE, cl_printf(c, "gh %s %s deletes on GitHub", g, s), at);
	return SAFE_J;
}
