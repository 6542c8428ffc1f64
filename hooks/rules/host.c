/* Host bridges: what runs outside the sandbox (at, crontab, screen,
 * systemctl, ssh to this machine, escape, terminals driven remotely). */
#include <string.h>

#include "hooks/rules/internal.h"

struct judgement judge_at(struct cctx *c, const char *name, const struct sarg *a, size_t n,
                          const struct stdin_src *in)
{
	if (eq(name, "at") && has_flag(a, 1, n, "-l|-d|-r|-c|-V|--help"))
		return SAFE_J;
	if (eq(name, "crontab") && (has_flag(a, 1, n, "-l|-V|--help") || n == 1))
		return n == 1 ? J(VERDICT_ESCAPE, "crontab installs jobs that run outside the sandbox", 0) : SAFE_J;
	return J(VERDICT_ESCAPE, cl_printf(c, "%s schedules a job that runs outside the sandbox", name), 0);
}

struct judgement judge_screen(struct cctx *c, const char *name, const struct sarg *a, size_t n,
                              const struct stdin_src *in)
{
	bool detached = false;
	for (size_t i = 1; i < n; i++) {
		if (!a[i].known)
			continue;
		const char *t = a[i].text;
		if (eq(t, "-X") || eq(t, "-Q"))
			return J(VERDICT_ESCAPE, "screen -X sends a command to a session outside the sandbox", (int)i);
		if (in_lists("-ls|-list|-r|-R|-x|-v|--version|--help|-wipe", t))
			return SAFE_J;
		if (t[0] == '-' && strchr(t, 'd') && strchr(t, 'm'))
			detached = true;
		if (in_lists("-S|-c|-e|-h|-L|-Logfile|-p|-T|-t", t)) {
			i++;
			continue;
		}
		if (t[0] != '-' && detached)
			return J(VERDICT_ESCAPE, "screen -dm runs a command in a session outside the sandbox", (int)i);
	}
	return SAFE_J;
}

struct judgement judge_systemctl(struct cctx *c, const char *name, const struct sarg *a, size_t n,
                                 const struct stdin_src *in)
{
	for (size_t i = 1; i < n; i++) {
		if (!a[i].known)
			return J(VERDICT_ASK, cl_printf(c, "%s with a verb that is not known", name), (int)i);
		const char *t = a[i].text;
		if (t[0] == '-') {
			if (in_lists("-H|--host|-M|--machine|-t|--type|-p|--property|-n|--lines|-o|--output|--state|--root|-s|--signal|--job-mode|--kill-whom|--what|--timestamp", t))
				i++;
			if (eq(t, "--help") || eq(t, "--version"))
				return SAFE_J;
			continue;
		}
		if (in_lists("status|show|cat|help|is-active|is-enabled|is-failed|is-system-running|get-default|"
		             "show-environment|list-units|list-unit-files|list-sockets|list-timers|list-jobs|"
		             "list-dependencies|list-machines|list-automounts|list-paths|show-environment",
		             t))
			return SAFE_J;
		return J(VERDICT_ESCAPE, cl_printf(c, "%s %s acts on services outside the sandbox", name, t), (int)i);
	}
	return SAFE_J;
}

static bool local_host(const char *h)
{
	const char *at = strrchr(h, '@');
	if (at)
		h = at + 1;
	return eq(h, "localhost") || starts(h, "127.") || eq(h, "::1") || eq(h, "[::1]") || eq(h, "0.0.0.0") ||
	       eq(h, "localhost.localdomain") || starts(h, "localhost:");
}

struct judgement judge_ssh(struct cctx *c, const char *name, const struct sarg *a, size_t n,
                           const struct stdin_src *in)
{
	size_t i = skip_options(a, 1, n, "-b|-c|-D|-E|-e|-F|-I|-i|-J|-L|-l|-m|-O|-o|-p|-Q|-R|-S|-W|-w");
	if (i >= n)
		return SAFE_J;
	if (!a[i].known)
		return J(VERDICT_ASK, cl_printf(c, "%s to a host that is not known", name), (int)i);
	if (local_host(a[i].text))
		return J(VERDICT_ESCAPE, cl_printf(c, "%s to this machine runs outside the sandbox", name), (int)i);
	if (i + 1 < n) {
		struct sarg t = {.text = join_args(c, a + i + 1, n - i - 1), .known = all_known(a + i + 1, n - i - 1), .word = a[i + 1].word};
		struct judgement j = judge_shell_text(c, cl_printf(c, "%s %s runs", name, a[i].text), &t, NULL, 0, (int)i + 1);
		return j.v > VERDICT_ASK ? j : SAFE_J;
	}
	return SAFE_J;
}

struct judgement judge_escape(struct cctx *c, const char *name, const struct sarg *a, size_t n,
                              const struct stdin_src *in)
{
	if (n < 2)
		return SAFE_J;
	return J(VERDICT_ESCAPE, cl_printf(c, "escape runs a command outside the sandbox"), 0);
}

/* Terminal multiplexers and terminals driven from the command line. */
struct judgement judge_terminal(struct cctx *c, const char *name, const struct sarg *a, size_t n,
                                const struct stdin_src *in)
{
	int i = find_word(a, 1, n, "@|cli|run|action|launch|send-text|spawn|send-key|write-chars|new-pane|new-tab|remote");
	if (i < 0)
		return SAFE_J;
	return J(VERDICT_ESCAPE, cl_printf(c, "%s %s runs or types a command outside the sandbox", name, a[i].text), i);
}
