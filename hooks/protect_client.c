/* The shell's client of the protection warden (trusted/warden.c), inside
 * the sandbox: at the end of every top-level command line it reads its own
 * inotify watches on the protected set (made before confinement by
 * protect_start) and asks the warden for a check only when they saw
 * something; when the shell exits, the session's last check. It never
 * forks or execs: the warden puts the files back. */
#include "hooks/protect_client.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/inotify.h>
#include <unistd.h>

#include "lib/util.h"

static bool client_knows(const struct protect_watch *w, const char *name)
{
	for (char **n = w->names; n && *n; n++)
		if (strcmp(*n, name) == 0)
			return true;
	return false;
}

/* Whether the last line may have touched a protected file. *stale: the
 * watches may no longer cover them (a watched file or folder was renamed,
 * removed or replaced, or events were lost), so stop trusting them. */
static bool client_dirty(struct protect_client *c, bool *stale)
{
	bool dirty = false;
	char buf[4096] __attribute__((aligned(__alignof__(struct inotify_event))));
	ssize_t n;
	while ((n = read(c->inotify, buf, sizeof buf)) > 0 || (n < 0 && errno == EINTR)) {
		for (char *at = buf; n > 0 && at < buf + n;) {
			struct inotify_event *e = (struct inotify_event *)at;
			at += sizeof *e + e->len;
			if (e->mask & IN_Q_OVERFLOW) {
				dirty = *stale = true;
				continue;
			}
			const struct protect_watch *w = NULL;
			for (size_t i = 0; i < c->nwatches && !w; i++)
				if (c->watches[i].wd == e->wd)
					w = &c->watches[i];
			if (!w)
				continue;
			if (w->names_only && e->len && !client_knows(w, e->name))
				continue;
			dirty = true;
			if (e->mask & (IN_DELETE_SELF | IN_MOVE_SELF | IN_IGNORED | IN_UNMOUNT))
				*stale = true;
			/* a name in a watched folder added, replaced or removed: a
			 * protected file's watch is gone, or a submodule's git dir
			 * came that no watch covers */
			if (!w->is_file && (e->mask & (IN_CREATE | IN_DELETE | IN_MOVED_FROM | IN_MOVED_TO)))
				*stale = true;
		}
	}
	return dirty;
}

void protect_client_settle(struct protect_client *c)
{
	if (!c || c->inotify < 0)
		return;
	char buf[4096] __attribute__((aligned(__alignof__(struct inotify_event))));
	ssize_t n;
	while ((n = read(c->inotify, buf, sizeof buf)) > 0 || (n < 0 && errno == EINTR))
		continue;
}

void protect_line_end(struct protect_client *c)
{
	if (!c || c->fd < 0 || getpid() != c->pid)
		return;
	bool stale = false;
	/* The warden's own watches count too: the agent can blind ours
	 * (exec N</dev/null), not the page the warden writes. */
	bool warden_saw = c->warden_saw && __atomic_load_n(c->warden_saw, __ATOMIC_ACQUIRE);
	if (c->inotify >= 0 && !client_dirty(c, &stale) && !warden_saw)
		return;
	struct strvec restored;
	strvec_init(&restored);
	if (warden_ask_check(c->fd, BROKER_CHECK_LINE, &restored) != 0) {
		fprintf(stderr, "sbsh: the protection warden is gone: protected files are no longer checked\n");
		close(c->fd);
		c->fd = -1;
	}
	/* a restore writes new files: the watches saw the old ones */
	if (stale || restored.len)
		protect_client_unwatch(c);
	for (size_t i = 0; i < restored.len; i++)
		warden_print_restored(restored.items[i], "changed by the last command");
	strvec_free(&restored);
}

void protect_session_end(struct protect_client *c)
{
	if (!c || c->fd < 0 || getpid() != c->pid)
		return;
	/* What changes once the shell has exited is the human's, so the
	 * warden's last check must be over before that: a round trip, always.
	 * The shell's own watches cannot vouch for "nothing changed" (the
	 * agent can blind them), and a check the warden made after the exit
	 * would take the human's first change for the session's. */
	protect_final_check(c->fd);
	protect_client_unwatch(c);
	close(c->fd);
	c->fd = -1;
}
