/* The keeper's serve loop (trusted/keeper.h): inotify over the kept folders
 * says which paths changed; sessions say when their lines begin and end;
 * the store (trusted/store.c) records each line's changes. */
#include "trusted/keeper.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/inotify.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>
#include <dirent.h>

#include "lib/proc_status.h"
#include "lib/util.h"
#include "trusted/approver_socket.h"
#include "trusted/baseline.h"
#include "trusted/keeper_start.h"
#include "trusted/store.h"

#define MAX_CLIENTS 128 /* a session holds two: its shell's and its warden's */
#define SWEEP_FOLDERS_MAX 20000 /* more named for a sweep: it walks everything */
#define UNWATCHED_MAX 4096      /* more folders not watched: likewise */
#define WATCH_MASK                                                                                        \
	(IN_CREATE | IN_DELETE | IN_MODIFY | IN_CLOSE_WRITE | IN_MOVED_FROM | IN_MOVED_TO | IN_ATTRIB |      \
	 IN_DELETE_SELF | IN_MOVE_SELF | IN_ONLYDIR | IN_DONT_FOLLOW | IN_EXCL_UNLINK)

struct client {
	int fd;
	bool greeted, ephemeral;
	bool in_line; /* between its B and its E */
	char *session;
};

/* A watched folder, by its watch descriptor. The times (CLOCK_MONOTONIC
 * ns, when the keeper read the event) tell a session's warden where its
 * end-of-session sweep must look (sweep_answer). */
struct watch {
	char *path;            /* root-relative; NULL: a free slot */
	int64_t touched;       /* the last event in it, 0: none */
	int64_t made;          /* made or moved in then; 0: there when walked */
	bool holds_sweep_name; /* it holds (or held) a name protect_sweep_name takes */
};

struct keeper {
	struct store *store;
	const char *root;
	int inotify, listen_fd;
	struct watch *watches; /* by watch descriptor */
	size_t nwd;
	int64_t watching_since; /* every kept folder has been watched since */
	struct strvec unwatched; /* folders below watched ones that are not watched */
	struct strvec dirty;
	bool all_dirty;     /* an overflow, or watches that could not be added */
	bool watch_failed;  /* then every checkpoint compares everything */
	bool root_gone;
	const char *sock_path;
	dev_t root_dev;     /* the project folder as the keeper found it: one */
	ino_t root_ino;     /* made anew at the same path is another project */
	struct client clients[MAX_CLIENTS];
	size_t nclients;
	struct proc_confinement self;
};

/* Whether the project folder is still the one the keeper watches. */
static bool root_same(const struct keeper *k)
{
	struct stat st;
	return stat(k->root, &st) == 0 && st.st_dev == k->root_dev && st.st_ino == k->root_ino;
}

static void dirty_add(struct keeper *k, const char *rel)
{
	for (size_t i = 0; i < k->dirty.len; i++) {
		const char *d = k->dirty.items[i];
		size_t n = strlen(d);
		/* already covered by a folder or the path itself */
		if (strcmp(d, rel) == 0 || (n && strncmp(rel, d, n) == 0 && rel[n] == '/'))
			return;
	}
	if (k->dirty.len > 4096) {
		k->all_dirty = true;
		return;
	}
	strvec_push(&k->dirty, rel);
}

static int64_t mono_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static bool path_within(const char *p, const char *rel, size_t n)
{
	return strncmp(p, rel, n) == 0 && (p[n] == 0 || p[n] == '/');
}

/* A folder below a watched one that is not watched itself (not kept, or
 * its watch failed): a sweep walks it whole. */
static void unwatched_add(struct keeper *k, const char *rel)
{
	for (size_t i = 0; i < k->unwatched.len; i++)
		if (strcmp(k->unwatched.items[i], rel) == 0)
			return;
	strvec_push(&k->unwatched, rel);
}

/* Forgets the unwatched folders at rel and below (it moved or went). */
static void unwatched_forget(struct keeper *k, const char *rel)
{
	size_t n = strlen(rel), kept = 0;
	for (size_t i = 0; i < k->unwatched.len; i++) {
		if (path_within(k->unwatched.items[i], rel, n))
			free(k->unwatched.items[i]);
		else
			k->unwatched.items[kept++] = k->unwatched.items[i];
	}
	k->unwatched.len = kept;
}

static void watch_set(struct keeper *k, int wd, const char *rel)
{
	if ((size_t)wd >= k->nwd) {
		size_t n = (size_t)wd + 64;
		k->watches = xreallocarray(k->watches, n, sizeof *k->watches);
		memset(k->watches + k->nwd, 0, (n - k->nwd) * sizeof *k->watches);
		k->nwd = n;
	}
	free(k->watches[wd].path);
	k->watches[wd] = (struct watch){.path = xstrdup(rel)};
}

/* Watches rel and every kept folder under it: the watch descriptor of
 * rel, or -1. Each folder is listed after its watch is set, so a name
 * made in it is either listed or seen as an event. */
static int watch_tree(struct keeper *k, const char *rel, int depth)
{
	char *abs = *rel ? xasprintf("%s/%s", k->root, rel) : xstrdup(k->root);
	int wd = inotify_add_watch(k->inotify, abs, WATCH_MASK);
	if (wd < 0) {
		if (errno == ENOSPC || errno == ENOMEM)
			k->watch_failed = true;
		/* gone, or a link now: its parent's listing tells */
		if (*rel && errno != ENOENT && errno != ENOTDIR)
			unwatched_add(k, rel);
		free(abs);
		return -1;
	}
	watch_set(k, wd, rel);
	DIR *d = opendir(abs);
	free(abs);
	if (!d)
		return wd;
	struct dirent *de;
	while ((de = readdir(d))) {
		if (strcmp(de->d_name, ".") == 0 || strcmp(de->d_name, "..") == 0)
			continue;
		if (protect_sweep_name(de->d_name))
			k->watches[wd].holds_sweep_name = true;
		bool dir = de->d_type == DT_DIR;
		if (de->d_type == DT_UNKNOWN) {
			struct stat st;
			dir = fstatat(dirfd(d), de->d_name, &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISDIR(st.st_mode);
		}
		if (!dir || depth > 256)
			continue;
		char *child = *rel ? xasprintf("%s/%s", rel, de->d_name) : xstrdup(de->d_name);
		const char *why;
		if (store_folder_kept(k->store, child, &why))
			watch_tree(k, child, depth + 1);
		else if (strcmp(de->d_name, ".git") != 0)
			unwatched_add(k, child);
		free(child);
	}
	closedir(d);
	return wd;
}

/* Forgets the watches of rel and the folders under it (it moved away). */
static void unwatch_tree(struct keeper *k, const char *rel)
{
	size_t n = strlen(rel);
	for (size_t wd = 0; wd < k->nwd; wd++) {
		char *p = k->watches[wd].path;
		if (p && path_within(p, rel, n)) {
			inotify_rm_watch(k->inotify, (int)wd);
			free(p);
			k->watches[wd] = (struct watch){0};
		}
	}
	unwatched_forget(k, rel);
}

/* Watches everything anew, after an overflow: events were lost, so the
 * folders' paths (a rename not seen) and the names they hold may be
 * wrong. Sessions begun before cannot be vouched for (sweep_answer). */
static void rewatch(struct keeper *k)
{
	for (size_t wd = 0; wd < k->nwd; wd++)
		free(k->watches[wd].path);
	free(k->watches);
	k->watches = NULL;
	k->nwd = 0;
	strvec_free(&k->unwatched);
	strvec_init(&k->unwatched);
	close(k->inotify);
	k->inotify = inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
	if (k->inotify < 0) {
		fprintf(stderr, "sbsh-keeper: inotify: %s\n", strerror(errno));
		k->watch_failed = true;
		return;
	}
	watch_tree(k, "", 0);
	k->watching_since = mono_ns();
}

/* Reads what inotify has queued, without waiting. */
static void drain_inotify(struct keeper *k)
{
	char buf[16384] __attribute__((aligned(__alignof__(struct inotify_event))));
	bool overflow = false;
	ssize_t n;
	while (!overflow && k->inotify >= 0 && (n = read(k->inotify, buf, sizeof buf)) > 0) {
		/* after the read: every event in it happened before */
		int64_t now = mono_ns();
		for (char *p = buf; p < buf + n;) {
			struct inotify_event *ev = (struct inotify_event *)p;
			p += sizeof *ev + ev->len;
			if (ev->mask & IN_Q_OVERFLOW) {
				k->all_dirty = true;
				overflow = true;
				break;
			}
			if (ev->wd < 0 || (size_t)ev->wd >= k->nwd || !k->watches[ev->wd].path)
				continue;
			int wd = ev->wd;
			k->watches[wd].touched = now;
			const char *dir = k->watches[wd].path;
			if (ev->mask & (IN_DELETE_SELF | IN_MOVE_SELF)) {
				if (*dir == 0)
					k->root_gone = true;
				continue;
			}
			if (ev->mask & IN_IGNORED) {
				/* the folder is gone: its slot is not used again */
				free(k->watches[wd].path);
				k->watches[wd] = (struct watch){0};
				continue;
			}
			if (ev->len == 0) {
				dirty_add(k, dir);
				continue;
			}
			if (protect_sweep_name(ev->name))
				k->watches[wd].holds_sweep_name = true;
			char *rel = *dir ? xasprintf("%s/%s", dir, ev->name) : xstrdup(ev->name);
			if (strcmp(ev->name, ".git") == 0 || strstr(ev->name, ".sbsh-restore-")) {
				free(rel);
				continue;
			}
			if ((ev->mask & IN_ISDIR) && (ev->mask & (IN_MOVED_FROM | IN_DELETE)))
				unwatch_tree(k, rel);
			if ((ev->mask & IN_ISDIR) && (ev->mask & (IN_CREATE | IN_MOVED_TO))) {
				const char *why;
				if (store_folder_kept(k->store, rel, &why)) {
					int made = watch_tree(k, rel, 0);
					if (made >= 0)
						k->watches[made].made = now;
				} else {
					unwatched_add(k, rel);
				}
			}
			dirty_add(k, rel);
			free(rel);
		}
	}
	if (overflow)
		rewatch(k);
}

/* Records what changed, if anything. *made and hex say what was made. */
static int checkpoint(struct keeper *k, const char *kind, const char *line, const char *session, int status,
                      bool *made, char hex[41], size_t *nchanged, size_t *ndeleted)
{
	drain_inotify(k);
	*made = false;
	*nchanged = 0;
	size_t deleted_accepted = 0;
	bool all = k->all_dirty || k->watch_failed;
	if (!all && k->dirty.len == 0)
		return 0;
	struct store_meta m = {.kind = kind, .line = line, .session = session, .status = status};
	struct store_changes changed = {0};
	char *err = NULL;
	int rc = store_checkpoint(k->store, k->dirty.items, k->dirty.len, all, &m, &changed, made, hex, &err);
	if (rc != 0) {
		fprintf(stderr, "sbsh-keeper: %s\n", err);
		free(err);
	}
	*nchanged = changed.len;
	for (size_t i = 0; i < changed.len; i++)
		if (changed.items[i].change == STORE_DELETED && store_accepted_has(k->store, changed.items[i].path))
			deleted_accepted++;
	if (ndeleted)
		*ndeleted = deleted_accepted;
	store_changes_free(&changed);
	strvec_free(&k->dirty);
	strvec_init(&k->dirty);
	k->all_dirty = false;
	return rc;
}

static void send_text(int fd, const char *s)
{
	ssize_t r;
	do
		r = send(fd, s, strlen(s), MSG_NOSIGNAL);
	while (r < 0 && errno == EINTR);
}

/* Whether another session is running a line: what changed since is then
 * that line's, recorded when it (or the first to end) ends. */
static bool others_in_line(const struct keeper *k, size_t i)
{
	for (size_t j = 0; j < k->nclients; j++)
		if (j != i && k->clients[j].in_line)
			return true;
	return false;
}

static void client_drop(struct keeper *k, size_t i)
{
	struct client *c = &k->clients[i];
	bool made;
	char hex[41];
	size_t n;
	c->in_line = false;
	if (c->greeted && !others_in_line(k, i))
		checkpoint(k, "end", NULL, c->session, -1, &made, hex, &n, NULL);
	if (c->ephemeral) {
		struct store_changes done = {0}, skipped = {0};
		char *err = NULL;
		if (store_undo(k->store, 1000000, c->session, false, &done, &skipped, &err) != 0) {
			fprintf(stderr, "sbsh-keeper: ephemeral session %s: %s\n", c->session, err);
			free(err);
		}
		store_changes_free(&done);
		store_changes_free(&skipped);
		drain_inotify(k);
		strvec_free(&k->dirty);
		strvec_init(&k->dirty);
	}
	close(c->fd);
	free(c->session);
	k->clients[i] = k->clients[--k->nclients];
}

/* Read here, outside the sandbox, so that no size limit of a message lets
 * a padded script pass for the human's. */
static const char *program_file_verdict(struct keeper *k, const char *abs)
{
	size_t rn = strlen(k->root);
	char *real = realpath(abs, NULL);
	const char *verdict = "?";
	if (!real || strncmp(real, k->root, rn) != 0 || real[rn] != '/') {
		free(real);
		return "?";
	}
	const char *rel = real + rn + 1;
	int fd = open(real, O_RDONLY | O_NONBLOCK | O_NOFOLLOW | O_CLOEXEC);
	struct stat st;
	drain_inotify(k);
	if (fd >= 0 && fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && !store_not_kept(k->store, rel) &&
	    (uint64_t)st.st_size <= (64u << 20)) {
		size_t len = (size_t)st.st_size, got = 0;
		char *content = xmalloc(len + 1);
		ssize_t r = 1;
		while (got < len && (r = read(fd, content + got, len - got)) > 0)
			got += (size_t)r;
		bool same = false;
		char *accepted = NULL;
		size_t alen = 0;
		if (r >= 0 && got == len) {
			int has = store_accepted_content(k->store, rel, content, len, &same, &accepted, &alen);
			verdict = has && same ? "Y" : "N";
		}
		free(accepted);
		free(content);
	}
	if (fd >= 0)
		close(fd);
	free(real);
	return verdict;
}

/* A sweep's answer: NUL-terminated records, cut into packets of at most
 * SWEEP_PACKET bytes (cut[i] is where packet i ends). */
#define SWEEP_PACKET 60000
struct sweep_reply {
	struct strbuf sb;
	size_t *cut;
	size_t ncut, records;
};

static void sweep_record(struct sweep_reply *r, char kind, const char *path)
{
	size_t n = strlen(path) + 2;
	size_t from = r->ncut ? r->cut[r->ncut - 1] : 0;
	if (r->sb.len - from + n > SWEEP_PACKET) {
		r->cut = xreallocarray(r->cut, r->ncut + 1, sizeof *r->cut);
		r->cut[r->ncut++] = r->sb.len;
	}
	strbuf_addc(&r->sb, kind);
	strbuf_addmem(&r->sb, path, n - 1); /* with its NUL */
	r->records++;
}

/* A warden asks where its session's end-of-session sweep must look
 * (trusted/warden.c): "S SINCE", SINCE the session's start in
 * CLOCK_MONOTONIC ns. The answer is NUL-terminated records in one or more
 * packets: "OK DEV INO" (the project folder the keeper watches), then "A"
 * and a folder to look at alone, "W" and a folder to walk whole, and "."
 * at the end; or "FULL why" alone when the keeper cannot vouch for the
 * whole span since SINCE, and the warden walks the whole project.
 * Alone: every folder holding a name the sweep acts on, and every folder
 * with an event since SINCE. Whole: every folder made or moved in since
 * SINCE (what happened in it before its watch was set is not known), and
 * every folder below a watched one that is not watched. */
static void sweep_answer(struct keeper *k, int fd, const char *arg)
{
	char *end;
	errno = 0;
	long long since = strtoll(arg, &end, 10);
	bool bad = errno || end == arg || *end || since <= 0;
	drain_inotify(k);
	const char *why = NULL;
	if (bad)
		why = "a bad request";
	else if (k->inotify < 0 || k->watch_failed)
		why = "the keeper's watches are incomplete";
	else if (k->root_gone || !root_same(k))
		why = "the project folder is not the one the keeper watches";
	else if (since <= k->watching_since)
		why = "the keeper did not watch the whole session (it started, or lost events, since)";
	else if (k->unwatched.len > UNWATCHED_MAX)
		why = "too many folders are not watched";
	struct sweep_reply r = {0};
	strbuf_init(&r.sb);
	if (!why) {
		char head[64];
		snprintf(head, sizeof head, "OK %llu %llu", (unsigned long long)k->root_dev, (unsigned long long)k->root_ino);
		strbuf_addmem(&r.sb, head, strlen(head) + 1);
		for (size_t wd = 0; wd < k->nwd && r.records <= SWEEP_FOLDERS_MAX; wd++) {
			const struct watch *w = &k->watches[wd];
			if (w->path && w->made >= since)
				sweep_record(&r, 'W', w->path);
			else if (w->path && (w->holds_sweep_name || w->touched >= since))
				sweep_record(&r, 'A', w->path);
		}
		for (size_t i = 0; i < k->unwatched.len; i++)
			sweep_record(&r, 'W', k->unwatched.items[i]);
		sweep_record(&r, '.', "");
		if (r.records > SWEEP_FOLDERS_MAX)
			why = "too many folders to name";
	}
	if (why) {
		strbuf_truncate(&r.sb, 0);
		r.ncut = 0;
		strbuf_adds(&r.sb, "FULL ");
		strbuf_addmem(&r.sb, why, strlen(why) + 1);
	}
	size_t from = 0;
	for (size_t i = 0; i <= r.ncut; i++) {
		size_t to = i < r.ncut ? r.cut[i] : r.sb.len;
		ssize_t sent;
		do
			sent = send(fd, r.sb.data + from, to - from, MSG_NOSIGNAL);
		while (sent < 0 && errno == EINTR);
		if (sent < 0)
			break;
		from = to;
	}
	free(r.cut);
	strbuf_free(&r.sb);
}

/* Whether a folder above root is a project with a store of its own (in
 * the folder beside state_dir): its sessions could write anything in root,
 * a list that would pass for the human's at root's first sight included
 * (a repository made deeper than the warden's walk reaches). */
static bool inside_another_project(const char *root, const char *state_dir)
{
	char *projects = xstrdup(state_dir);
	char *slash = strrchr(projects, '/');
	bool inside = false;
	if (slash && slash != projects) {
		*slash = '\0';
		char *up = xstrdup(root);
		for (char *cut = strrchr(up, '/'); !inside && cut && cut != up; cut = strrchr(up, '/')) {
			*cut = '\0';
			char *dir = protect_state_in(projects, up);
			char *store = xasprintf("%s/store.git", dir);
			struct stat st;
			inside = stat(store, &st) == 0 && S_ISDIR(st.st_mode);
			free(store);
			free(dir);
		}
		free(up);
	}
	free(projects);
	return inside;
}

static void client_message(struct keeper *k, size_t i, char *msg, size_t got_len)
{
	struct client *c = &k->clients[i];
	bool made = false;
	char hex[41] = "";
	size_t n = 0;
	if (msg[0] == 'S' && msg[1] == ' ') {
		sweep_answer(k, c->fd, msg + 2);
		return;
	}
	if (!c->greeted) {
		if (msg[0] != 'H' || msg[1] != ' ') {
			send_text(c->fd, "NO hello first");
			return;
		}
		char *flags = strrchr(msg + 2, ' ');
		if (!flags) {
			send_text(c->fd, "NO bad hello");
			return;
		}
		*flags++ = 0;
		drain_inotify(k);
		if (k->root_gone || !root_same(k)) {
			/* the folder was removed and made again: a new keeper serves
			 * it, found on a new socket */
			k->root_gone = true;
			unlink(k->sock_path);
			send_text(c->fd, "NO RETRY");
			return;
		}
		if (strchr(flags, 'r')) {
			/* the review asking whether it runs outside: it was accepted */
			send_text(c->fd, "OK");
			return;
		}
		c->session = xstrdup(msg + 2);
		c->ephemeral = strchr(flags, 'e') != NULL;
		c->greeted = true;
		/* what changed while no session ran, or since another's last line */
		if (!others_in_line(k, i))
			checkpoint(k, "start", NULL, NULL, -1, &made, hex, &n, NULL);
		send_text(c->fd, "OK");
		return;
	}
	if (msg[0] == 'X') {
		/* the session's end, said before it exits: answered once done */
		int fd = dup(c->fd);
		client_drop(k, i);
		if (fd >= 0) {
			send_text(fd, "K");
			close(fd);
		}
		return;
	}
	if (msg[0] == 'A' && msg[1] == ' ') {
		/* a file whose word counts only as the human accepted it (the
		 * project's allow-list): is this content the accepted one? */
		char *nl = strchr(msg, '\n');
		size_t rn = strlen(k->root);
		const char *abs = msg + 2;
		if (!nl) {
			send_text(c->fd, "N");
			return;
		}
		*nl = 0;
		if (strncmp(abs, k->root, rn) != 0 || abs[rn] != '/') {
			send_text(c->fd, "N");
			return;
		}
		drain_inotify(k);
		bool same;
		char *accepted = NULL;
		size_t alen = 0;
		const char *content = nl + 1;
		int has = store_accepted_content(k->store, abs + rn + 1, content, (size_t)(got_len - (size_t)(content - msg)),
		                                 &same, &accepted, &alen);
		if (has && same) {
			send_text(c->fd, "Y");
		} else if (has && accepted && alen < 60000 && !memchr(accepted, 0, alen)) {
			char *reply = xasprintf("C\n%s", accepted);
			send_text(c->fd, reply);
			free(reply);
		} else {
			send_text(c->fd, "N");
		}
		free(accepted);
		return;
	}
	if (msg[0] == 'F' && msg[1] == ' ') {
		/* a program file the agent runs (sh FILE, ./FILE, python3 FILE):
		 * Y when it is what the human accepted, N when it is new or
		 * differs (the agent's, judged as its text), ? when not kept */
		send_text(c->fd, program_file_verdict(k, msg + 2));
		return;
	}
	if (msg[0] == 'B') {
		if (!others_in_line(k, i))
			checkpoint(k, "between", NULL, c->session, -1, &made, hex, &n, NULL);
		c->in_line = true;
		/* with when the accepted state was recorded: what changed after
		 * it cannot be the human's accepted code (for the shell's
		 * subshells, which cannot ask) */
		char reply[128];
		long long accepted = (long long)store_accepted_time(k->store);
		if (made)
			snprintf(reply, sizeof reply, "K %s %zu 0 T%lld", hex, n, accepted);
		else
			snprintf(reply, sizeof reply, "K T%lld", accepted);
		send_text(c->fd, reply);
	} else if (msg[0] == 'E' && msg[1] == ' ') {
		int status = atoi(msg + 2);
		c->in_line = false;
		char *text = strchr(msg, '\n');
		size_t deleted = 0;
		checkpoint(k, "line", text ? text + 1 : "", c->session, status, &made, hex, &n, &deleted);
		char reply[96];
		if (made)
			snprintf(reply, sizeof reply, "K %s %zu %zu", hex, n, deleted);
		else
			snprintf(reply, sizeof reply, "K");
		send_text(c->fd, reply);
	} else {
		send_text(c->fd, "NO unknown message");
	}
}

/* Reads one message of client i and answers it; one that hung up is
 * dropped. flags: MSG_DONTWAIT when there may be nothing yet. */
static void client_input(struct keeper *k, size_t i, int flags)
{
	char msg[65536];
	ssize_t got = recv(k->clients[i].fd, msg, sizeof msg - 1, flags);
	if (got < 0 && (flags & MSG_DONTWAIT) && (errno == EAGAIN || errno == EWOULDBLOCK))
		return;
	if (got <= 0) {
		client_drop(k, i);
		return;
	}
	msg[got] = 0;
	client_message(k, i, msg, (size_t)got);
}

/* A new client. Its first message was most often sent before the keeper
 * woke up: it is answered at once, not at the next poll. */
static void accept_client(struct keeper *k)
{
	int fd = accept4(k->listen_fd, NULL, NULL, SOCK_CLOEXEC);
	if (fd < 0)
		return;
	pid_t pid;
	struct proc_confinement peer;
	/* A process made inside a sandbox is more confined than the keeper,
	 * which was started by a session before its confinement. */
	bool ok = approver_peer_of(fd, &pid, &peer) && peer.no_new_privs <= k->self.no_new_privs &&
	          peer.seccomp_filters <= k->self.seccomp_filters;
	if (!ok || k->nclients == MAX_CLIENTS) {
		send_text(fd, ok ? "NO too many sessions" : "NO not from inside a sandbox");
		/* what it sent already is read, so that the close does not reset
		 * the connection before it reads the answer */
		char drain[256];
		while (recv(fd, drain, sizeof drain, MSG_DONTWAIT) > 0) {
		}
		close(fd);
		return;
	}
	k->clients[k->nclients++] = (struct client){.fd = fd};
	client_input(k, k->nclients - 1, MSG_DONTWAIT);
}

static volatile sig_atomic_t keeper_stop;
static void on_term(int sig)
{
	(void)sig;
	keeper_stop = 1;
}

/* Keeps the store within its bounds: at a pause, at most once a minute. */
static void maybe_prune(struct keeper *k, int64_t *last)
{
	int64_t now = util_now_ms();
	if (*last && now - *last < 60000)
		return;
	*last = now;
	char *err = NULL;
	if (store_prune(k->store, &err) < 0) {
		fprintf(stderr, "sbsh-keeper: pruning: %s\n", err);
		free(err);
	}
}

int keeper_serve(const char *root, const char *state_dir, int ready_fd, unsigned idle_s, unsigned keep_sessions,
                 uint64_t keep_bytes)
{
	struct keeper k;
	memset(&k, 0, sizeof k);
	k.root = root;
	strvec_init(&k.dirty);
	strvec_init(&k.unwatched);
	proc_confinement_of(0, &k.self);
	signal(SIGPIPE, SIG_IGN);
	struct sigaction sa = {.sa_handler = on_term};
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);

	char *lock = xasprintf("%s/keeper-" KEEPER_PROTOCOL ".lock", state_dir);
	int lock_fd = open(lock, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0600);
	free(lock);
	/* a keeper that is leaving (idle, or its folder made anew) holds the
	 * lock for a moment more */
	bool locked = false;
	for (int i = 0; lock_fd >= 0 && !locked && i < 50; i++) {
		locked = flock(lock_fd, LOCK_EX | LOCK_NB) == 0;
		if (!locked)
			usleep(100000);
	}
	if (!locked) {
		fprintf(stderr, "sbsh-keeper: another keeper serves %s\n", root);
		return 1;
	}
	struct store_limits lim;
	store_limits_default(&lim);
	lim.keep_sessions = keep_sessions;
	lim.keep_bytes = keep_bytes;
	char *git_dir = xasprintf("%s/store.git", state_dir);
	char *err = NULL;
	k.store = store_open(git_dir, root, &lim, true, &err);
	free(git_dir);
	if (!k.store) {
		fprintf(stderr, "sbsh-keeper: %s\n", err);
		return 1;
	}
	store_own_index(k.store);
	if (inside_another_project(root, state_dir))
		store_withhold_list(k.store);
	struct stat rst;
	if (stat(root, &rst) != 0) {
		fprintf(stderr, "sbsh-keeper: %s: %s\n", root, strerror(errno));
		return 1;
	}
	k.root_dev = rst.st_dev;
	k.root_ino = rst.st_ino;
	k.inotify = inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
	if (k.inotify < 0) {
		fprintf(stderr, "sbsh-keeper: inotify: %s\n", strerror(errno));
		k.watch_failed = true;
	} else {
		watch_tree(&k, "", 0);
		k.watching_since = mono_ns();
	}
	char *sock = xasprintf("%s/keeper-" KEEPER_PROTOCOL ".sock", state_dir);
	k.sock_path = sock;
	struct sockaddr_un addr;
	int sock_dir = -1;
	char *name = keeper_socket_name(state_dir, &sock_dir);
	if (!name || !approver_fill_address(&addr, name)) {
		fprintf(stderr, "sbsh-keeper: %s: cannot name the socket\n", sock);
		return 1;
	}
	unlink(sock);
	k.listen_fd = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0);
	mode_t old = umask(077);
	int b = k.listen_fd >= 0 ? bind(k.listen_fd, (struct sockaddr *)&addr, sizeof addr) : -1;
	umask(old);
	free(name);
	if (sock_dir >= 0)
		close(sock_dir);
	if (b != 0 || listen(k.listen_fd, 16) != 0) {
		fprintf(stderr, "sbsh-keeper: %s: %s\n", sock, strerror(errno));
		return 1;
	}
	if (ready_fd >= 0) {
		util_write_all(ready_fd, "r", 1);
		close(ready_fd);
	}
	/* What changed while no keeper ran (or everything, the first time).
	 * The socket listens already: a session that connects meanwhile waits
	 * for its greeting until this is done, so what it changes is never
	 * taken for the start, and a large first checkpoint (150 MB took 15 s)
	 * delays the first sessions rather than leaving them without. */
	k.all_dirty = true;
	bool made;
	char hex[41];
	size_t n;
	if (checkpoint(&k, "start", NULL, NULL, -1, &made, hex, &n, NULL) != 0) {
		unlink(sock);
		return 1;
	}

	int64_t last_use = util_now_ms(), last_prune = 0;
	while (!keeper_stop && !k.root_gone) {
		struct pollfd pfd[MAX_CLIENTS + 2];
		pfd[0] = (struct pollfd){.fd = k.listen_fd, .events = POLLIN};
		pfd[1] = (struct pollfd){.fd = k.inotify, .events = POLLIN};
		for (size_t i = 0; i < k.nclients; i++)
			pfd[i + 2] = (struct pollfd){.fd = k.clients[i].fd, .events = POLLIN};
		int timeout = 1000;
		int r = poll(pfd, k.nclients + 2, timeout);
		if (r < 0 && errno != EINTR)
			break;
		if (r > 0 && (pfd[1].revents & POLLIN)) {
			/* between lines nothing is recorded yet; only the queue is kept short */
			drain_inotify(&k);
		}
		size_t nc = k.nclients;
		for (size_t i = nc; r > 0 && i-- > 0;) {
			short re = pfd[i + 2].revents;
			if (!re)
				continue;
			if (re & POLLIN)
				client_input(&k, i, 0);
			else
				client_drop(&k, i);
			last_use = util_now_ms();
		}
		if (r > 0 && (pfd[0].revents & POLLIN)) {
			accept_client(&k);
			last_use = util_now_ms();
		}
		/* the stat cache is saved when the sessions pause, not per line */
		if (r == 0) {
			if (!store_index_matches_head(k.store)) {
				fprintf(stderr, "sbsh-keeper: the stat cache and the newest checkpoint differ: comparing everything\n");
				k.all_dirty = true;
			}
			store_save_index(k.store);
			maybe_prune(&k, &last_prune);
		}
		if (k.nclients == 0 && util_now_ms() - last_use > (int64_t)idle_s * 1000)
			break;
		if (!root_same(&k))
			k.root_gone = true;
	}
	/* the socket goes first: a session starting now starts a new keeper */
	unlink(sock);
	close(k.listen_fd);
	while (k.nclients)
		client_drop(&k, k.nclients - 1);
	if (!k.root_gone)
		checkpoint(&k, "end", NULL, NULL, -1, &made, hex, &n, NULL);
	store_close(k.store);
	for (size_t i = 0; i < k.nwd; i++)
		free(k.watches[i].path);
	free(k.watches);
	strvec_free(&k.unwatched);
	strvec_free(&k.dirty);
	free(sock);
	close(lock_fd);
	return 0;
}
