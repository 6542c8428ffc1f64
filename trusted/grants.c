#include "trusted/grants.h"

#include <signal.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "lib/proc_status.h"
#include "lib/util.h"

/* Whether every command of text ("; " between them) is one of list's. */
static bool commands_within(const char *text, const char *list)
{
	for (const char *p = text; *p;) {
		const char *end = strstr(p, "; ");
		size_t len = end ? (size_t)(end - p) : strlen(p);
		bool found = false;
		for (const char *q = list; *q && !found;) {
			const char *qend = strstr(q, "; ");
			size_t qlen = qend ? (size_t)(qend - q) : strlen(q);
			found = qlen == len && memcmp(p, q, len) == 0;
			q += qlen + (qend ? 2 : 0);
		}
		if (!found)
			return false;
		p += len + (end ? 2 : 0);
	}
	return true;
}

static void grant_forget(struct grant *g)
{
	free(g->folder);
	free(g->commands);
	free(g->cmdline);
	memset(g, 0, sizeof *g);
}

void grants_remember(struct grant_table *t, pid_t pid, const char *commands)
{
	char *folder = proc_cwd(pid);
	if (!folder)
		return;
	struct grant *slot = &t->grants[0];
	for (int i = 0; i < GRANTS_MAX; i++)
		if (t->grants[i].until_ms < slot->until_ms)
			slot = &t->grants[i];
	grant_forget(slot);
	*slot = (struct grant){.pid = pid, .folder = folder, .commands = xstrdup(commands),
	                       .cmdline = proc_cmdline(pid), .until_ms = util_now_ms() + GRANT_MS};
}

const struct grant *grants_find(struct grant_table *t, pid_t pid, const char *commands)
{
	char *folder = NULL;
	const struct grant *found = NULL;
	for (int i = 0; i < GRANTS_MAX && !found; i++) {
		struct grant *g = &t->grants[i];
		if (!g->commands)
			continue;
		if (g->until_ms <= util_now_ms() || kill(g->pid, 0) != 0) {
			grant_forget(g);
			continue;
		}
		if (!folder && !(folder = proc_cwd(pid)))
			break;
		if (strcmp(folder, g->folder) != 0 || !commands_within(commands, g->commands))
			continue;
		/* Inside what it let run: a process it started, or the asker itself
		 * once it exec'd the command (sbsh runs a line's last command so).
		 * The same shell asking again on a later line is asked again. */
		if (pid == g->pid) {
			char *now = proc_cmdline(pid);
			if (now && g->cmdline && strcmp(now, g->cmdline) != 0)
				found = g;
			free(now);
		} else if (proc_descends_from(pid, g->pid)) {
			found = g;
		}
	}
	free(folder);
	return found;
}

void grants_release(struct grant_table *t, pid_t pid)
{
	for (int i = 0; i < GRANTS_MAX; i++)
		if (t->grants[i].commands && t->grants[i].pid == pid)
			grant_forget(&t->grants[i]);
}

void grants_clear(struct grant_table *t)
{
	for (int i = 0; i < GRANTS_MAX; i++)
		grant_forget(&t->grants[i]);
}
