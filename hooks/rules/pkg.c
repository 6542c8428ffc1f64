/* Package managers and publishing: npm, pnpm, yarn, bun, npx and the
 * other package runners, uv and pipx, gradle. */
#include <ctype.h>
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "hooks/rules/internal.h"
#include "lib/util.h"

/* npx, pnpm dlx, yarn dlx, npm exec, bunx, uvx, pipx run: the package's
 * binary with the rest of the arguments. */
struct judgement judge_pkg_runner(struct cctx *c, const char *what, const struct sarg *a, size_t s, size_t n,
                                  const struct stdin_src *in)
{
	struct judgement j = SAFE_J;
	size_t i = s;
	for (; i < n; i++) {
		const struct sarg *x = &a[i];
		if (!x->known)
			break;
		const char *t = x->text;
		if (options_end(t, &i))
			break;
		size_t len = strcspn(t, "=");
		if (in_list("-c|--call", t, len)) {
			struct sarg tmp = {.text = t + len + 1, .known = true, .word = x->word};
			const struct sarg *txt = t[len] ? &tmp : (i + 1 < n ? &a[i + 1] : NULL);
			if (!t[len])
				i++;
			if (txt)
				j = judgement_max(j, judge_shell_text(c, what, txt, NULL, 0, (int)i));
			continue;
		}
		if (in_list("-p|--package|--from|--spec|--with|--python|--node-options|--registry|--index-url|--index|"
		            "--cache|--userconfig|--prefix|-w|--workspace|--pip-args|--pip|--python-version",
		            t, len)) {
			if (!t[len])
				i++;
			continue;
		}
	}
	if (i >= n)
		return j;
	if (!a[i].known)
		return judgement_max(j, J(VERDICT_ASK, cl_printf(c, "%s runs a package that is not known", what), (int)i));
	/* "@scope/name@1.2" runs the binary "name"; "@scope/cli" usually the scope's. */
	const char *pkg = a[i].text;
	const char *bin = pkg;
	if (bin[0] == '@') {
		const char *slash = strchr(bin, '/');
		if (slash) {
			if (starts(slash + 1, "cli") && (slash[4] == '\0' || slash[4] == '@')) {
				size_t sl = (size_t)(slash - bin - 1);
				if (sl > 1 && bin[sl] == 's')
					sl--;
				bin = cl_strndup(c, bin + 1, sl);
			} else {
				bin = slash + 1;
			}
		}
	}
	const char *at = strchr(bin + (bin[0] == '@'), '@');
	if (at)
		bin = cl_strndup(c, bin, (size_t)(at - bin));
	const char *eqv = strstr(bin, "==");
	if (eqv)
		bin = cl_strndup(c, bin, (size_t)(eqv - bin));
	return judgement_max(j, judge_as_command(c, bin, a, i, n, in));
}

static const char *const pm_builtins =
	"add|remove|rm|r|un|uninstall|unlink|install|i|ci|it|install-test|install-ci-test|update|up|upgrade|"
	"outdated|link|ln|why|info|view|v|show|list|ls|ll|la|init|create|cache|config|c|get|set|audit|"
	"licenses|pack|prune|rebuild|rb|store|env|setup|import|patch|patch-commit|patch-remove|fetch|dedupe|"
	"ddp|test|t|tst|start|stop|restart|build|version|login|logout|whoami|adduser|help|doctor|node|bin|"
	"global|plugin|constraints|check|generate-lock-entry|policies|autoclean|completion|explain|"
	"explore|find-dupes|fund|hook|edit|docs|home|bugs|repo|search|s|se|ping|prefix|profile|query|root|"
	"sbom|shrinkwrap|star|stars|unstar|team|token|org|diff|pkg|exec-env|recursive|licenses|"
	"upgrade-interactive|interactive|outdated|pm|x|dlx|exec|run|run-script|rum|urn|workspaces|"
	"workspace|npm|publish|unpublish|deprecate|undeprecate|dist-tag|dist-tags|tag|owner|author|access|"
	"set-script|sbom|approve-builds|ignored-builds|self-update|catalog";

/* npm's commands and its alias table (lib/utils/cmd-list.js): npm runs a
 * word that is an alias or a unique prefix of these, so `npm pub` is
 * publish. yarn and pnpm forward words they do not know to npm. */
static const char *const npm_commands =
	"access|adduser|audit|bugs|cache|ci|completion|config|dedupe|deprecate|diff|dist-tag|docs|doctor|"
	"edit|exec|explain|explore|find-dupes|fund|get|help|help-search|hook|init|install|install-ci-test|"
	"install-test|link|ll|login|logout|ls|org|outdated|owner|pack|ping|pkg|prefix|profile|prune|"
	"publish|query|rebuild|repo|restart|root|run-script|sbom|search|set|shrinkwrap|star|stars|start|"
	"stop|team|test|token|undeprecate|uninstall|unpublish|unstar|update|version|view|whoami";
static const char *const npm_aliases =
	"author=owner|home=docs|issues=bugs|info=view|show=view|find=search|add=install|unlink=uninstall|"
	"remove=uninstall|rm=uninstall|r=uninstall|un=uninstall|rb=rebuild|list=ls|ln=link|create=init|"
	"i=install|it=install-test|cit=install-ci-test|up=update|c=config|s=search|se=search|tst=test|"
	"t=test|ddp=dedupe|v=view|run=run-script|clean-install=ci|clean-install-test=install-ci-test|"
	"x=exec|why=explain|la=ll|verison=version|ic=ci|innit=init|isntall=install|install-clean=ci|"
	"isntall-clean=ci|dist-tags=dist-tag|upgrade=update|udpate=update|rum=run-script|sit=install-ci-test|"
	"urn=run-script|ogr=org|add-user=adduser";

/* The command an entry of npm_commands or npm_aliases (name, len) stands for. */
static const char *npm_target(struct cctx *c, const char *e, size_t len)
{
	const char *eqs = memchr(e, '=', len);
	return eqs ? cl_strndup(c, eqs + 1, (size_t)(e + len - eqs - 1)) : cl_strndup(c, e, len);
}

/* npm's own reading of a command word: camelCase to dashes, then an exact
 * name or alias, else a prefix that leads to one command only; NULL when
 * none (an ambiguous prefix, whose candidates differ). */
static const char *npm_deref(struct cctx *c, const char *w)
{
	size_t wl = strlen(w);
	char *d = cl_alloc(c, 2 * wl + 1);
	size_t k = 0;
	for (size_t i = 0; i < wl; i++) {
		if (isupper((unsigned char)w[i])) {
			d[k++] = '-';
			d[k++] = (char)tolower((unsigned char)w[i]);
		} else {
			d[k++] = w[i];
		}
	}
	d[k] = '\0';
	const char *found = NULL;
	const char *const lists[] = {npm_commands, npm_aliases};
	for (int exact = 1; exact >= 0; exact--) {
		for (size_t l = 0; l < 2; l++) {
			for (const char *p = lists[l]; *p;) {
				size_t len = strcspn(p, "|");
				size_t nl = strcspn(p, "=|");
				bool hit = exact ? (nl == k && strncmp(p, d, k) == 0) : (nl > k && strncmp(p, d, k) == 0);
				if (hit) {
					const char *t = npm_target(c, p, len);
					if (exact)
						return t;
					if (found && !eq(found, t))
						return NULL;
					found = t;
				}
				p += len + (p[len] == '|');
			}
		}
	}
	return found;
}

/* The scripts of package.json a command runs: the lifecycle of npm's
 * own commands, or the named script with its pre and post. */
static const char *lifecycle_scripts(struct cctx *c, const char *sub, const char *script)
{
	if (script)
		return cl_printf(c, "pre%s|%s|post%s", script, script, script);
	if (in_lists("install|i|ci|add|install-test|install-ci-test|it|cit|clean-install|rebuild|rb", sub))
		return "preinstall|install|postinstall|prepublish|preprepare|prepare|postprepare";
	if (in_lists("test|t|tst|start|stop|restart", sub)) {
		const char *full = eq(sub, "t") || eq(sub, "tst") ? "test" : sub;
		return cl_printf(c, "pre%s|%s|post%s", full, full, full);
	}
	if (eq(sub, "pack"))
		return "prepack|prepare|postpack";
	if (eq(sub, "publish")) /* --dry-run too: it packs, running these */
		return "prepublishOnly|prepack|prepare|postpack|publish|postpublish";
	if (eq(sub, "version"))
		return "preversion|version|postversion";
	return NULL;
}

/* package.json's scripts are opaque project code while the human's; when
 * package.json is the agent's text (written on this line, or changed
 * since the human accepted the project), the scripts the command runs
 * are judged as the shell text they are (policy rule 10). */
static struct judgement judge_package_scripts(struct cctx *c, const char *name, const struct sarg *a, size_t n,
                                              const char *which, const struct stdin_src *in, int at)
{
	/* The package's folder: --prefix (npm), -C/--dir (pnpm), --cwd (yarn, bun). */
	const char *dir = NULL;
	for (size_t i = 1; i < n; i++) {
		if (!a[i].known)
			continue;
		const char *t = a[i].text;
		size_t len = strcspn(t, "=");
		if (!in_list("--prefix|-C|--dir|--cwd", t, len))
			continue;
		if (t[len] == '=')
			dir = t + len + 1;
		else if (i + 1 < n && a[i + 1].known)
			dir = a[++i].text;
		else if (i + 1 < n)
			return J(VERDICT_ASK, cl_printf(c, "%s runs scripts of a package in a folder not known", name), (int)i + 1);
	}
	struct sarg file = {.text = dir ? cl_printf(c, "%s/package.json", dir) : "package.json", .known = true};
	const char *text = NULL;
	int w = which ? code_operand_text(c, &file, in, &text) : -1;
	if (w < 0)
		return SAFE_J;
	if (w == 0)
		return J(VERDICT_ASK, cl_printf(c, "%s runs scripts of a package.json that is not known", name), at);
	json_error_t err;
	json_t *root = json_loads(text, 0, &err);
	json_t *scripts = json_is_object(root) ? json_object_get(root, "scripts") : NULL;
	if (!root || (scripts && !json_is_object(scripts))) {
		json_decref(root);
		return J(VERDICT_ASK, cl_printf(c, "%s reads a package.json that does not parse", name), at);
	}
	struct judgement j = SAFE_J;
	for (const char *p = which; *p;) {
		size_t len = strcspn(p, "|");
		const char *key = cl_strndup(c, p, len);
		json_t *v = scripts ? json_object_get(scripts, key) : NULL;
		if (json_is_string(v)) {
			struct sarg t = {.text = cl_strndup(c, json_string_value(v), json_string_length(v)), .known = true};
			j = judgement_max(j, judge_shell_text(c, cl_printf(c, "%s: the agent's package.json script %s", name, key),
			                                      &t, NULL, 0, at));
		}
		p += len + (p[len] == '|');
	}
	json_decref(root);
	return j;
}

struct judgement judge_pm(struct cctx *c, const char *name, const struct sarg *a, size_t n,
                          const struct stdin_src *in)
{
	bool is_npm = eq(name, "npm"), is_yarn = eq(name, "yarn") || eq(name, "yarnpkg"), is_bun = eq(name, "bun");
	const char *long_arg = "-w|--workspace|--prefix|-C|--dir|--registry|--userconfig|--cache|--otp|--tag|"
	                       "--access|--loglevel|--scope|--filter|-F|--reporter|--workspace-dir|--cwd|"
	                       "--modules-folder|--cache-folder|--network-timeout|--config|--test-name-pattern|-t";
	size_t s = 1;
	for (; s < n; s++) {
		const struct sarg *x = &a[s];
		if (!x->known)
			break;
		const char *t = x->text;
		if (t[0] != '-' || !t[1])
			break;
		if (eq(t, "--help") || eq(t, "-h") || eq(t, "--version") || eq(t, "-v"))
			return SAFE_J;
		size_t len = strcspn(t, "=");
		if (is_bun && in_list("-e|--eval|-p|--print", t, len)) {
			struct sarg tmp = {.text = t + len + 1, .known = true, .word = x->word};
			return judge_code_arg(c, "bun", t[len] ? &tmp : (s + 1 < n ? &a[s + 1] : &tmp), (int)s);
		}
		if (!t[len] && in_list(long_arg, t, len))
			s++;
	}
	struct judgement none;
	if (no_known_subcommand(c, name, a, s, n, &none))
		return none;
	const char *sub = a[s].text;
	if (!in_lists(pm_builtins, sub)) {
		const char *full = npm_deref(c, sub);
		if (full && (is_npm || !eq(full, "run-script")))
			sub = full;
	}
	size_t f = s + 1;
	if (has_flag(a, f, n, "--help|-h"))
		return SAFE_J;
	bool dry = dry_run(a, 1, n, "--dry-run");
	/* The next word after the subcommand, skipping options. */
	size_t w = skip_options(a, f, n, NULL);
	const struct sarg *next = w < n ? &a[w] : NULL;

	if (eq(sub, "publish")) {
		struct judgement sj = judge_package_scripts(c, name, a, n, lifecycle_scripts(c, sub, NULL), in, (int)s);
		return dry ? sj
		           : judgement_max(sj, J(VERDICT_PUBLISH, cl_printf(c, "%s publish uploads a package to the registry", name),
		                                 (int)s));
	}
	if (eq(sub, "unpublish") || eq(sub, "deprecate") || eq(sub, "undeprecate"))
		return dry ? SAFE_J : J(VERDICT_PUBLISH, cl_printf(c, "%s %s changes what is published", name, sub), (int)s);
	if (eq(sub, "dist-tag") || eq(sub, "dist-tags") || eq(sub, "tag") || eq(sub, "owner") || eq(sub, "author") ||
	    eq(sub, "access")) {
		if (!next)
			return SAFE_J;
		if (!next->known)
			return J(VERDICT_ASK, cl_printf(c, "%s %s with an action that is not known", name, sub), (int)w);
		if (in_lists("add|rm|remove|set|grant|revoke|public|restricted|2fa-required|2fa-not-required", next->text))
			return dry ? SAFE_J : J(VERDICT_PUBLISH, cl_printf(c, "%s %s %s changes the registry", name, sub, next->text), (int)w);
		return SAFE_J;
	}
	if (eq(sub, "npm") && is_yarn) {
		if (next && next->known && eq(next->text, "publish"))
			return dry ? SAFE_J : J(VERDICT_PUBLISH, "yarn npm publish uploads a package to the registry", (int)w);
		if (next && next->known && eq(next->text, "tag") && w + 1 < n &&
		    in_lists("add|remove|rm", a[w + 1].text))
			return J(VERDICT_PUBLISH, "yarn npm tag changes the registry", (int)w);
		return SAFE_J;
	}
	if (eq(sub, "exec") || eq(sub, "x") || eq(sub, "dlx")) {
		if (is_npm || is_bun || eq(sub, "dlx") || eq(sub, "exec"))
			return judge_pkg_runner(c, cl_printf(c, "%s %s", name, sub), a, f, n, in);
	}
	if (eq(sub, "run") || eq(sub, "run-script") || eq(sub, "rum") || eq(sub, "urn")) {
		if (!next)
			return SAFE_J;
		if (!next->known)
			return J(VERDICT_ASK, cl_printf(c, "%s run with a script name that is not known", name), (int)w);
		if (name_says_publish(next->text, false))
			return J(VERDICT_PUBLISH, cl_printf(c, "%s run %s: the script's name says it publishes", name, next->text), (int)w);
		struct judgement sj = judge_package_scripts(c, name, a, n, lifecycle_scripts(c, sub, next->text), in, (int)w);
		if (!is_npm && !strchr(next->text, '/') && !strchr(next->text, '.')) {
			/* yarn/pnpm/bun run also run the package's binaries. */
			struct judgement b = judge_rest(c, NULL, a + w, n - w, in, (int)w);
			if (b.v > VERDICT_ASK)
				return judgement_max(b, sj);
		}
		return sj;
	}
	if (is_yarn && eq(sub, "workspaces") && next && next->known && eq(next->text, "foreach")) {
		size_t k = skip_options(a, w + 1, n, "--include|--exclude|--from|--jobs|-j|--since");
		if (k >= n)
			return SAFE_J;
		struct sarg *v = xcalloc(n - k + 1, sizeof *v);
		v[0] = a[0];
		for (size_t q = k; q < n; q++)
			v[q - k + 1] = a[q];
		struct judgement r = judge_pm(c, name, v, n - k + 1, in);
		free(v);
		if (r.v != VERDICT_SAFE)
			r.reason = cl_printf(c, "yarn workspaces foreach: %s", r.reason ? r.reason : "");
		r.at = (int)k;
		return r;
	}
	if (is_yarn && eq(sub, "workspace") && w + 1 < n) {
		struct sarg *v = xcalloc(n - w, sizeof *v);
		v[0] = a[0];
		for (size_t q = w + 1; q < n; q++)
			v[q - w] = a[q];
		struct judgement r = judge_pm(c, name, v, n - w, in);
		free(v);
		return r;
	}
	if (in_lists(pm_builtins, sub) || (eq(name, "pnpm") && eq(sub, "deploy")))
		return judge_package_scripts(c, name, a, n, lifecycle_scripts(c, sub, NULL), in, (int)s);
	if (is_npm)
		return SAFE_J;
	/* pnpm/yarn/bun run unknown words as scripts, then as binaries. */
	if (name_says_publish(sub, false))
		return J(VERDICT_PUBLISH, cl_printf(c, "%s %s: the script's name says it publishes", name, sub), (int)s);
	if (strchr(sub, '/') || strchr(sub, '.'))
		return SAFE_J; /* bun file.ts: opaque project code */
	struct judgement sj = judge_package_scripts(c, name, a, n, lifecycle_scripts(c, sub, sub), in, (int)s);
	struct judgement b = judge_rest(c, NULL, a + s, n - s, in, (int)s);
	return b.v > VERDICT_ASK ? judgement_max(b, sj) : sj;
}

struct judgement judge_npx(struct cctx *c, const char *name, const struct sarg *a, size_t n,
                           const struct stdin_src *in)
{
	return judge_pkg_runner(c, name, a, 1, n, in);
}

/* pipx run / uv tool run / uv run / corepack. */
struct judgement judge_pyrunner(struct cctx *c, const char *name, const struct sarg *a, size_t n,
                                const struct stdin_src *in)
{
	size_t s = skip_options(a, 1, n, "--directory|--project|--python|-p|--config-file|--cache-dir|--color|"
	                                  "--index|--index-url");
	struct judgement none;
	if (no_known_subcommand(c, name, a, s, n, &none))
		return none;
	const char *sub = a[s].text;
	if (eq(name, "pipx") && eq(sub, "run"))
		return judge_pkg_runner(c, "pipx run", a, s + 1, n, in);
	if (eq(name, "uv") && eq(sub, "tool") && s + 1 < n && kn(&a[s + 1], "run"))
		return judge_pkg_runner(c, "uv tool run", a, s + 2, n, in);
	if (eq(name, "uv") && eq(sub, "run")) {
		size_t k = s + 1;
		while (k < n && a[k].known && a[k].text[0] == '-') {
			if (eq(a[k].text, "--")) {
				k++;
				break;
			}
			size_t len = strcspn(a[k].text, "=");
			if (!a[k].text[len] && in_list("--with|--python|-p|--package|--extra|--group|--directory|--project|"
			                               "--env-file|--index|--with-requirements|--only-group|--no-group|-w",
			                               a[k].text, len))
				k++;
			k++;
		}
		return judge_rest(c, "uv run", a + k, n - k, in, (int)k);
	}
	if (eq(name, "uv") || eq(name, "pipx"))
		return judge_spec(c, name, &spec_pypi, a, n);
	if (eq(name, "corepack"))
		return judge_rest(c, NULL, a + s, n - s, in, (int)s);
	return SAFE_J;
}

/* ---- gradle ----------------------------------------------------------------------------- */

struct judgement judge_gradle(struct cctx *c, const char *name, const struct sarg *a, size_t n,
                              const struct stdin_src *in)
{
	if (has_flag(a, 1, n, "--dry-run|-m|--help|-h|--version|-v"))
		return SAFE_J;
	struct judgement j = SAFE_J;
	for (size_t i = 1; i < n; i++) {
		if (!a[i].known) {
			if (j.v < VERDICT_ASK)
				j = J(VERDICT_ASK, cl_printf(c, "%s with a task that is not known", name), (int)i);
			continue;
		}
		const char *t = a[i].text;
		if (t[0] == '-') {
			if (in_lists("-p|-b|-c|-g|-I|-x|--project-dir|--build-file|--settings-file|--gradle-user-home|"
			             "--init-script|--exclude-task|--console|--max-workers|--include-build",
			             t))
				i++;
			continue;
		}
		const char *task = strrchr(t, ':');
		task = task ? task + 1 : t;
		size_t len = strlen(task);
		bool local = len >= 12 && strcmp(task + len - 12, "ToMavenLocal") == 0;
		if (local || eq(task, "publishLocal"))
			continue;
		if (starts(task, "publish") || eq(task, "uploadArchives") || eq(task, "bintrayUpload") ||
		    starts(task, "closeAndRelease") || eq(task, "releaseRepository") || eq(task, "jreleaserDeploy") ||
		    eq(task, "jreleaserRelease") || eq(task, "jreleaserFullRelease"))
			j = judgement_max(j, J(VERDICT_PUBLISH, cl_printf(c, "%s %s publishes artifacts", name, t), (int)i));
	}
	return j;
}
