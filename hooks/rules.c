/* The rules: which commands delete, publish, force-push or escape, and how
 * to see through the wrappers that hide them. Tables where a tool is just
 * "these subcommands, these flags" (rules/table.c); a handler where a tool's
 * arguments need reading, one file per family under rules/ (git, package
 * managers, cloud, containers, interpreters and shells, wrappers, files,
 * host bridges). This file dispatches a command to its tool's rule. */
#include <stdlib.h>

#include "hooks/rules/internal.h"
#include "lib/util.h"

static const char *default_reason(struct cctx *c, const char *name, enum verdict v)
{
	switch (v) {
	case VERDICT_DELETE: return cl_printf(c, "%s deletes data", name);
	case VERDICT_PUBLISH: return cl_printf(c, "%s publishes", name);
	case VERDICT_FORCE_PUSH: return cl_printf(c, "%s rewrites remote history", name);
	case VERDICT_ESCAPE: return cl_printf(c, "%s runs outside the sandbox", name);
	case VERDICT_ASK: return cl_printf(c, "%s: cannot be decided before it runs", name);
	default: return NULL;
	}
}

struct judgement rules_judge(struct cctx *c, const char *name, const struct sarg *a, size_t n,
                             const struct stdin_src *in)
{
	const struct tool *t = rules_tool_find(name);
	struct judgement j = SAFE_J;
	if (!t) {
		if (starts(name, "git-") && name[4]) {
			/* git-push, /usr/lib/git-core/git-reset: git's own subcommands. */
			struct sarg *v = xcalloc(n + 1, sizeof *v);
			v[0].text = "git";
			v[0].known = true;
			v[1] = a[0];
			v[1].text = name + 4;
			for (size_t k = 1; k < n; k++)
				v[k + 1] = a[k];
			j = judge_git(c, "git", v, n + 1, in);
			free(v);
		} else if (starts(name, "mkfs.") || starts(name, "mkfs"))
			j = judge_disk(c, name, a, n, in);
		else if (starts(name, "python") || starts(name, "pypy"))
			j = judge_python(c, name, a, n, in);
		else if (starts(name, "terraform"))
			j = judge_spec(c, name, &spec_terraform, a, n);
		else if (starts(name, "ld-linux") || starts(name, "ld-musl") || starts(name, "ld64.so"))
			j = judge_wrapper(c, name, &w_ldso, a, n, in); /* /lib64/ld-linux-x86-64.so.2 PROG */
		/* The project's own script, named for publishing (policy rule 10). */
		if (j.v < VERDICT_PUBLISH && a[0].known && strchr(a[0].text, '/') &&
		    !starts(a[0].text, "/usr/") && !starts(a[0].text, "/bin/") && !starts(a[0].text, "/sbin/") &&
		    name_says_publish(name, true))
			j = J(VERDICT_PUBLISH, cl_printf(c, "%s: the script's name says it publishes", a[0].text), 0);
	} else if (t->fn) {
		j = t->fn(c, name, a, n, in);
	} else if (t->wrap && t->wrap->sub) {
		if (n > 1 && kn(&a[1], t->wrap->sub))
			j = judge_wrapper(c, name, t->wrap, a, n, in);
		else if (n > 1 && !a[1].known)
			j = judge_unknown_subcommand(c, name, (size_t)1);
		else if (t->spec)
			j = judge_spec(c, name, t->spec, a, n);
	} else if (t->wrap) {
		j = judge_wrapper(c, name, t->wrap, a, n, in);
	} else if (t->spec) {
		j = judge_spec(c, name, t->spec, a, n);
	} else if (t->interp) {
		j = judge_interp(c, t->interp, a, n, in);
	} else if (t->db) {
		j = judge_db(c, name, t->db, a, n, in);
	}
	if (j.v != VERDICT_SAFE && !j.reason)
		j.reason = default_reason(c, name, j.v);
	return j;
}

bool rules_name_known(const char *name)
{
	return rules_tool_find(name) || (starts(name, "git-") && name[4]) || starts(name, "mkfs") ||
	       starts(name, "python") || starts(name, "pypy") || starts(name, "terraform");
}

/* Environment variables whose value a program runs as a command. */
static const char env_runs[] =
	"GIT_PAGER|PAGER|GIT_EDITOR|EDITOR|VISUAL|GIT_SEQUENCE_EDITOR|GIT_SSH_COMMAND|GIT_SSH|"
	"GIT_EXTERNAL_DIFF|GIT_ASKPASS|SSH_ASKPASS|SUDO_ASKPASS|GIT_PROXY_COMMAND|LESSOPEN|LESSCLOSE|"
	"BROWSER|MANPAGER|SYSTEMD_PAGER|PROMPT_COMMAND|BASH_ENV|ENV|GIT_CONFIG_PARAMETERS|"
	"RSYNC_RSH|RSYNC_CONNECT_PROG|CVS_RSH|FCEDIT|TERMINAL|DIFF|NPM_CONFIG_SCRIPT_SHELL|"
	"npm_config_script_shell|npm_config_git|GIT_EXEC_PATH|LD_PRELOAD|LD_AUDIT|NODE_OPTIONS|PERL5OPT|RUBYOPT|"
	"PYTHONPATH";

/* A library the dynamic loader maps into every program started: code the
 * argv does not show, unless it is the system's own. */
static struct judgement judge_preload(struct cctx *c, const char *name, const char *value)
{
	const char *p = value;
	while (*p) {
		size_t len = strcspn(p, ": ");
		if (len && !(starts(p, "/usr/") || starts(p, "/lib/") || starts(p, "/lib64/")))
			return J(VERDICT_ASK, cl_printf(c, "%s loads %.*s into the programs it runs", name, (int)len, p), -1);
		p += len;
		if (*p)
			p++;
	}
	return SAFE_J;
}

struct judgement rules_judge_env_assignment(struct cctx *c, const char *name, const struct sarg *value)
{
	if (starts(name, "BASH_FUNC_") && value->known) {
		/* bash imports BASH_FUNC_f%%=() { ...; } as a function f. */
		const char *body = value->text;
		if (starts(body, "()"))
			body += 2;
		struct sarg t = {.text = body, .known = true};
		struct judgement j = judge_shell_text(c, name, &t, NULL, 0, -1);
		return j.v > VERDICT_ASK ? j : SAFE_J;
	}
	if (!in_lists(env_runs, name))
		return SAFE_J;
	if (!value->known)
		return J(VERDICT_ASK, cl_printf(c, "%s set to a command that is not known", name), -1);
	if (eq(name, "GIT_CONFIG_PARAMETERS") || eq(name, "GIT_EXEC_PATH"))
		return J(VERDICT_ASK, cl_printf(c, "%s changes what git runs", name), -1);
	if (eq(name, "LD_PRELOAD") || eq(name, "LD_AUDIT"))
		return judge_preload(c, name, value->text);
	if (in_lists("NODE_OPTIONS|PERL5OPT|RUBYOPT|PYTHONPATH", name))
		return rules_judge_env_loads(c, name, value->text); /* what the interpreter loads first */
	if (eq(name, "BASH_ENV") || eq(name, "ENV")) {
		struct stdin_src none = {STDIN_NONE, NULL};
		return judge_script_source(c, name, value, NULL, 0, &none, -1);
	}
	struct judgement j = judge_shell_text(c, name, value, NULL, 0, -1);
	return j.v > VERDICT_ASK ? j : SAFE_J;
}

/* The run-time check: what the environment a program is started with
 * (the shell's exported variables, its own assignments among them) makes
 * it run. Values the session started with are the human's. */
struct judgement rules_judge_environment(struct cctx *c)
{
	struct judgement j = SAFE_J;
	for (const char *p = env_runs; *p;) {
		size_t len = strcspn(p, "|");
		char *name = cl_strndup(c, p, len);
		bool known;
		const char *v = cl_env_get(c, name, &known);
		if (v && !cl_env_inherited(c, name)) {
			struct sarg val = {.text = v, .known = known};
			j = judgement_max(j, rules_judge_env_assignment(c, name, &val));
		}
		p += len;
		if (*p)
			p++;
	}
	return j;
}
