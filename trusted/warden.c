/* The warden: a process forked before confinement (protect_start) that
 * holds the protected files' baseline outside the sandbox and puts back
 * what the session changed, when the shell or the broker asks (a CHECK,
 * trusted/warden_proto.h), when the shell has exited, and for as long as
 * jobs the session left still run. One server; all of it runs unconfined. */
#include "trusted/warden.h"
#include "trusted/baseline.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/inotify.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "trusted/approver_socket.h"
#include "trusted/broker_proto.h"
#include "trusted/keeper_start.h"
#include "lib/events.h"
#include "lib/proc_status.h"

/* ---- the warden ---------------------------------------------------------- */

struct watch {
	int wd;
	int dir;          /* index of the folder, or of the file's folder */
	bool names_only;  /* a folder of named files: only their names count */
	bool is_file;     /* a named file (its inode, which a rename replaces) */
};

struct warden {
	struct protect *p;
	int fds[2];       /* the shell's and the broker's sockets, -1 once closed */
	int pidfd;        /* headless, no broker: the shell, watched until it exits; else -1 */
	bool no_broker;   /* nobody makes the final check but the warden */
	pid_t shell_pid;
	pid_t origin;     /* the sbsh that forked us: the shell, or the broker; its
	                   * children at the session's end are jobs it left */
	int sigfd;
	int inotify;      /* -1: every check is a full one */
	bool pending;     /* the watches saw something, read between checks */
	uint32_t *saw;    /* shared with the shell (read-only there): ask at the next line end */
	bool dirty;       /* the last check could not put everything back */
	struct watch *watches;
	size_t nwatches;
	pid_t session;    /* the sbsh below the warden (the shell, or the broker) */
	int report_fd;    /* to the front end: the session's wait status, once; -1 after */
	int front_pidfd;  /* the front end, which the caller waits for; -1 once gone */
	struct timespec since; /* the session's start, for protect_sweep */
	int64_t since_mono;    /* the same, in CLOCK_MONOTONIC ns: for the keeper */
	int keeper_fd;         /* to the project's keeper (keeper_ask), or -1 */
	int retired[16];  /* old inotify instances, not yet closed */
	size_t nretired;
};

/* Destroying an inotify instance waits for an SRCU grace period (~10 ms
 * here): not while someone waits for an answer. Old instances are kept
 * and go when the warden exits, after it has handed on the session's
 * status; only past 16 is the oldest closed. */
static void retire_watches(struct warden *w)
{
	if (w->inotify < 0)
		return;
	if (w->nretired == sizeof w->retired / sizeof *w->retired) {
		close(w->retired[0]);
		memmove(w->retired, w->retired + 1, (w->nretired - 1) * sizeof *w->retired);
		w->nretired--;
	}
	w->retired[w->nretired++] = w->inotify;
	w->inotify = -1;
}

static void add_watch(struct warden *w, int ifd, const char *path, uint32_t mask, int dir,
                      bool names_only, bool is_file)
{
	int wd = inotify_add_watch(ifd, path, mask);
	if (wd < 0)
		return;
	w->watches = xreallocarray(w->watches, w->nwatches + 1, sizeof *w->watches);
	w->watches[w->nwatches++] =
		(struct watch){.wd = wd, .dir = dir, .names_only = names_only, .is_file = is_file};
}

/* A fresh inotify instance on every protected folder and named file: as
 * long as it stays silent, nothing protected changed and a check costs
 * one read(). Opens count too, so a file opened for writing and changed
 * later through a mapping is compared at the next boundary. */
static int watch_all(struct warden *w)
{
	free(w->watches);
	w->watches = NULL;
	w->nwatches = 0;
	int ifd = inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
	if (ifd < 0)
		return -1;
	const uint32_t content = IN_MODIFY | IN_ATTRIB | IN_OPEN | IN_CLOSE_WRITE | IN_CREATE | IN_DELETE |
	                         IN_MOVED_FROM | IN_MOVED_TO | IN_DELETE_SELF | IN_MOVE_SELF;
	const uint32_t names = IN_ATTRIB | IN_CREATE | IN_DELETE | IN_MOVED_FROM | IN_MOVED_TO |
	                       IN_DELETE_SELF | IN_MOVE_SELF;
	/* Each folder is named by its descriptor. Made the working folder for
	 * the moment, it costs a short lookup per watch; a /proc/self/fd/N/
	 * path cost ~15 us per watch here, 18 watches per start. */
	int home = open(".", O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (home >= 0 && fchdir(home) != 0) { /* the way back must work first */
		close(home);
		home = -1;
	}
	for (size_t i = 0; i < w->p->ndirs; i++) {
		struct pdir *d = &w->p->dirs[i];
		if (d->fd < 0)
			continue;
		char path[64];
		const char *dir = path;
		snprintf(path, sizeof path, "/proc/self/fd/%d", d->fd);
		if (home >= 0 && fchdir(d->fd) == 0)
			dir = ".";
		/* in a modules folder any new name may be a submodule's git dir */
		bool names_only = !d->all && !protect_modules_folder(w->p, (int)i);
		add_watch(w, ifd, dir, d->all ? content : names, (int)i, names_only, false);
		if (d->all)
			continue;
		for (size_t j = 0; j < d->nfiles; j++) {
			char *fp = dir == path ? xasprintf("%s/%s", path, d->files[j].name)
			                       : xstrdup(d->files[j].name);
			add_watch(w, ifd, fp, content | IN_DONT_FOLLOW, (int)i, false, true);
			free(fp);
		}
	}
	if (home >= 0) {
		if (fchdir(home) != 0) {
			/* It worked a moment ago; the shell must not go on in the
			 * wrong folder. */
			fprintf(stderr, "sbsh: cannot return to the working folder: %s\n", strerror(errno));
			_exit(1);
		}
		close(home);
	}
	return ifd;
}

/* Reads the warden's own watches: whether they saw anything protected
 * that may have moved; *changed: more than an open (a write, a name, a
 * mode), which the shell is told of through the shared page. */
static bool read_watches(struct warden *w, bool *changed)
{
	bool dirty = false;
	*changed = false;
	char buf[8192] __attribute__((aligned(__alignof__(struct inotify_event))));
	ssize_t n;
	while ((n = read(w->inotify, buf, sizeof buf)) > 0) {
		for (char *at = buf; at < buf + n;) {
			struct inotify_event *e = (struct inotify_event *)at;
			at += sizeof *e + e->len;
			if (e->mask & IN_Q_OVERFLOW) {
				dirty = *changed = true;
				continue;
			}
			const struct watch *wt = NULL;
			for (size_t i = 0; i < w->nwatches && !wt; i++)
				if (w->watches[i].wd == e->wd)
					wt = &w->watches[i];
			if (!wt)
				continue;
			/* in a folder of named files (the project folder) only
			 * those names matter, not the agent's own files */
			if (wt->names_only && e->len && !protect_known_name(w->p, wt->dir, e->name))
				continue;
			dirty = true;
			if (e->mask & ~(uint32_t)(IN_OPEN | IN_ISDIR))
				*changed = true;
		}
	}
	return dirty;
}

/* Tells the shell, through the page it reads at every line's end, that
 * its next line end must ask (1), or need not (0). */
static void tell_shell(struct warden *w, uint32_t ask)
{
	if (w->saw)
		__atomic_store_n(w->saw, ask, __ATOMIC_RELEASE);
}

/* Whether anything protected may have moved since the last check. */
static bool warden_dirty(struct warden *w)
{
	if (w->inotify < 0)
		return true;
	bool changed;
	bool dirty = read_watches(w, &changed) || w->pending;
	w->pending = false;
	return dirty;
}

/* The warden's watches woke it between checks: the shell must ask at
 * its next line end, whatever its own watches (which the agent can
 * blind) say. */
static void warden_saw_something(struct warden *w)
{
	bool changed;
	if (read_watches(w, &changed))
		w->pending = true;
	if (changed)
		tell_shell(w, 1);
}

/* The next session starts from the grown set, not from a scan that would
 * take what is in the new modules for a human's. Under the state lock,
 * which a starting session holds while it reads the baseline. */
static void save_grown(struct protect *p)
{
	int lock = protect_lock_state(p->state);
	if (lock < 0)
		return;
	if (protect_need_all_data(p))
		protect_write_mirror(p);
	close(lock);
}

static void warden_check(struct warden *w, struct strvec *restored, const char *origin)
{
	if (!warden_dirty(w))
		return;
	/* watch first, then compare: a change during the comparison is
	 * caught next time */
	tell_shell(w, 0); /* what moves from now on is seen by the watches set here */
	int fresh = watch_all(w);
	w->p->failed = 0;
	protect_check(w->p, restored);
	if (w->inotify >= 0)
		retire_watches(w);
	w->inotify = fresh;
	if (w->p->failed || w->dirty) {
		/* a failed restore is tried again at every check, each a full
		 * one (nothing may move meanwhile), and the next session is
		 * told not to take what is there for the human's */
		int lock = protect_lock_state(w->p->state);
		protect_set_dirty(w->p->state, restored);
		if (lock >= 0)
			close(lock);
		w->dirty = w->p->failed > 0;
		if (w->dirty) {
			if (w->inotify >= 0)
				retire_watches(w);
			w->inotify = -1;
		}
	}
	if (w->p->grown) {
		/* the watches were set before the new modules joined: the
		 * next check is a full one, and sets them anew */
		if (w->inotify >= 0)
			retire_watches(w);
		w->inotify = -1;
		save_grown(w->p);
	}
	if (w->p->rewatch) {
		/* a folder that appeared (.claude) is watched from the next check */
		w->p->rewatch = false;
		if (w->inotify >= 0)
			retire_watches(w);
		w->inotify = -1;
	}
	if (w->inotify < 0)
		tell_shell(w, 1); /* every line end asks until the watches are set again */
	for (size_t i = 0; i < restored->len; i++) {
		char *path = warden_note_path(restored->items[i]);
		events_restore(w->p->ev, path, origin);
		free(path);
	}
}

/* ---- where the sweep looks: the keeper's word ----------------------------- */

#define KEEPER_ANSWER_MS 2000

/* A folder the keeper named: relative, no step that is empty, . or .. */
static bool plain_rel(const char *rel)
{
	if (!*rel)
		return true; /* the project's top */
	for (const char *at = rel;;) {
		const char *slash = strchr(at, '/');
		size_t n = slash ? (size_t)(slash - at) : strlen(at);
		if (n == 0 || (n == 1 && at[0] == '.') || (n == 2 && at[0] == '.' && at[1] == '.'))
			return false;
		if (!slash)
			return true;
		at = slash + 1;
	}
}

/* Takes one packet of the keeper's answer: false when it is malformed or
 * says FULL; *done once its last record came. */
static bool plan_packet(struct warden *w, const char *buf, size_t len, bool first, struct sweep_plan *plan, bool *done)
{
	if (len == 0 || buf[len - 1] != 0)
		return false;
	for (size_t at = 0; at < len; at += strlen(buf + at) + 1) {
		const char *rec = buf + at;
		if (*done)
			return false; /* nothing after the end */
		if (first && at == 0) {
			/* the project folder the keeper watches must be the very one
			 * swept (not one an isolated session's view lays over it) */
			unsigned long long dev, ino;
			struct stat st;
			if (sscanf(rec, "OK %llu %llu", &dev, &ino) != 2 || fstat(w->p->dirs[0].fd, &st) != 0 ||
			    (unsigned long long)st.st_dev != dev || (unsigned long long)st.st_ino != ino)
				return false;
			continue;
		}
		if (rec[0] == '.' && rec[1] == 0)
			*done = true;
		else if ((rec[0] == 'A' || rec[0] == 'W') && plain_rel(rec + 1))
			strvec_push(rec[0] == 'A' ? &plan->alone : &plan->whole, rec + 1);
		else
			return false;
	}
	return true;
}

/* A connection to the project's keeper, made when the warden starts (so
 * that only a question is left for the session's end), or -1. Whoever
 * answers must be no more confined than the warden: a process made
 * inside a sandbox would say that nothing changed. */
static int keeper_connect(struct warden *w)
{
	if (!w->p->state)
		return -1;
	int dir_fd;
	char *name = keeper_socket_name(w->p->state, &dir_fd);
	int fd = name ? approver_connect_path(name) : -1;
	free(name);
	if (dir_fd >= 0)
		close(dir_fd);
	if (fd < 0)
		return -1;
	pid_t pid;
	struct proc_confinement peer, self;
	if (!approver_peer_of(fd, &pid, &peer) || !proc_confinement_of(0, &self) ||
	    peer.no_new_privs > self.no_new_privs || peer.seccomp_filters > self.seccomp_filters) {
		close(fd);
		return -1;
	}
	return fd;
}

static void keeper_close(struct warden *w)
{
	if (w->keeper_fd >= 0)
		close(w->keeper_fd);
	w->keeper_fd = -1;
}

/* Asks the keeper where the end-of-session sweep must look (sweep_answer
 * in trusted/keeper.c): its descriptor, readable once the answer is
 * there, or -1 when no keeper can be asked. */
static int keeper_ask(struct warden *w)
{
	if (w->since_mono <= 0 || w->p->ndirs == 0 || w->p->dirs[0].fd < 0)
		return -1;
	if (w->keeper_fd < 0)
		w->keeper_fd = keeper_connect(w);
	char ask[48];
	int n = snprintf(ask, sizeof ask, "S %lld", (long long)w->since_mono);
	if (w->keeper_fd >= 0 && send(w->keeper_fd, ask, (size_t)n, MSG_NOSIGNAL) != n)
		keeper_close(w);
	return w->keeper_fd;
}

/* Reads the keeper's answer: false when it cannot vouch for the whole
 * session or its answer is not to be taken. The connection is spent. */
static bool keeper_answer(struct warden *w, struct sweep_plan *plan)
{
	char *buf = xmalloc(65536);
	int64_t deadline = util_now_ms() + KEEPER_ANSWER_MS;
	bool ok = w->keeper_fd >= 0, done = false;
	for (bool first = true; ok && !done; first = false) {
		int64_t left = deadline - util_now_ms();
		struct pollfd pfd = {.fd = w->keeper_fd, .events = POLLIN};
		int r;
		do
			r = poll(&pfd, 1, left > 0 ? (int)left : 0);
		while (r < 0 && errno == EINTR);
		ssize_t got = r > 0 ? recv(w->keeper_fd, buf, 65536, 0) : -1;
		ok = got > 0 && plan_packet(w, buf, (size_t)got, first, plan, &done);
	}
	free(buf);
	keeper_close(w);
	return ok && done;
}

/* At the session's end: what it made elsewhere in the tree (repositories,
 * .git files, nested allow-lists), as protect_sweep says. The keeper is
 * asked where to look; meanwhile the whole project is walked, which in a
 * small one ends first. When the answer comes first (or the walk ends at
 * its bounds), the folders the keeper names are looked at, and the walk
 * goes no further (it starts again when the keeper cannot vouch for the
 * session). */
static void warden_sweep(struct warden *w, struct strvec *restored)
{
	size_t before = restored->len;
	bool background = false, stopped = false;
	int answer = keeper_ask(w);
	bool whole = protect_sweep(w->p, w->since, NULL, answer, restored, &background, &stopped);
	/* a walk that stopped at its bounds leaves folders the keeper may name */
	if (stopped || (!whole && !background && answer >= 0)) {
		struct sweep_plan plan;
		strvec_init(&plan.alone);
		strvec_init(&plan.whole);
		bool planned = keeper_answer(w, &plan);
		whole = protect_sweep(w->p, w->since, planned ? &plan : NULL, -1, restored, &background, NULL);
		strvec_free(&plan.alone);
		strvec_free(&plan.whole);
	}
	keeper_close(w); /* an answer not read: a later sweep asks anew */
	if (background)
		before = 0; /* the child's list holds only what it found */
	if (!whole)
		fprintf(stderr, "sbsh: the project has too many folders: repositories made deep inside it during the "
		                "session were not all checked\n");
	for (size_t i = before; i < restored->len; i++) {
		char *path = warden_note_path(restored->items[i]);
		events_restore(w->p->ev, path, "session end");
		free(path);
	}
	if (background)
		_exit(0); /* the rest of a large tree: in the quarantine and the events, no stdio */
}

/* The baseline was accepted anew (`sbsh --protect accept`): take it. */
static void warden_reload(struct warden *w)
{
	struct protect *fresh = protect_load_mirror(w->p->state);
	if (!fresh)
		return;
	fresh->ev = w->p->ev;
	protect_free(w->p);
	w->p = fresh;
	if (w->inotify >= 0)
		retire_watches(w);
	w->inotify = -1;
	struct strvec restored;
	strvec_init(&restored);
	warden_check(w, &restored, "accepted baseline");
	strvec_free(&restored);
}

/* The session's last checks, when nobody waits for an answer: what the
 * last command (exec'd by the shell, or run by a job it left) changed. */
static void warden_final(struct warden *w, const char *message)
{
	struct strvec restored;
	strvec_init(&restored);
	warden_check(w, &restored, "session end");
	warden_sweep(w, &restored);
	for (size_t i = 0; i < restored.len; i++)
		warden_print_restored(restored.items[i], message);
	strvec_free(&restored);
}

/* The shell closed its socket: exiting (its last line was checked just
 * before), or exec'ing its last command, which must run first. An exiting
 * process has already dropped its memory, so /proc/PID/exe is gone; after
 * an exec it names the new program. */
static bool shell_exiting(struct warden *w)
{
	struct pollfd pfd = {.fd = w->pidfd, .events = POLLIN};
	if (poll(&pfd, 1, 0) > 0)
		return true;
	char path[64], target[16];
	snprintf(path, sizeof path, "/proc/%ld/exe", (long)w->shell_pid);
	return readlink(path, target, sizeof target) < 0;
}

/* A signal the warden takes: SIGUSR1, the baseline was accepted anew;
 * SIGTERM, stop (returns false). */
static bool warden_signal(struct warden *w)
{
	struct signalfd_siginfo si;
	if (read(w->sigfd, &si, sizeof si) != (ssize_t)sizeof si)
		return true;
	if (si.ssi_signo == SIGTERM)
		return false;
	warden_reload(w);
	return true;
}

/* ---- the session below the warden ---------------------------------------- */

/* The session (shell or broker) runs below the warden, a child subreaper,
 * so that every job it leaves, however detached (a double fork after the
 * session ended), becomes the warden's child when its parent dies, and
 * the warden leaves only when none is left. The front end the caller
 * started waits for the session's status from the warden (warden_front_wait). */

/* Once the session's process has exited: reaps it and hands its status
 * to the front end. block: wait for that exit. */
static void report_session(struct warden *w, bool block)
{
	if (w->report_fd < 0)
		return;
	int status;
	pid_t r;
	while ((r = waitpid(w->session, &status, block ? 0 : WNOHANG)) < 0 && errno == EINTR)
		continue;
	if (r == 0)
		return;
	if (r == w->session) {
		ssize_t ignored = write(w->report_fd, &status, sizeof status);
		(void)ignored;
	}
	close(w->report_fd);
	w->report_fd = -1;
}

/* The front end died (SIGKILL) before the session: the session goes with
 * it, as when the caller killed the shell itself. */
static void front_gone(struct warden *w)
{
	close(w->front_pidfd);
	w->front_pidfd = -1;
	report_session(w, false);
	if (w->report_fd >= 0)
		kill(w->session, SIGKILL);
}

/* Whether the session's process exits within ms milliseconds (it stays
 * a zombie, unreaped, for report_session). */
static bool session_exits_within(struct warden *w, int ms)
{
	if (w->pidfd >= 0) {
		struct pollfd gone = {.fd = w->pidfd, .events = POLLIN};
		int r;
		while ((r = poll(&gone, 1, ms)) < 0 && errno == EINTR)
			continue;
		return r > 0;
	}
	/* no pidfd (before Linux 5.3): asked every millisecond */
	for (int waited = 0; waited <= ms; waited++) {
		siginfo_t si = {0};
		if (waitid(P_PID, (id_t)w->session, &si, WEXITED | WNOHANG | WNOWAIT) != 0 || si.si_pid != 0)
			return true;
		struct timespec one = {.tv_sec = 0, .tv_nsec = 1000000};
		nanosleep(&one, NULL);
	}
	return false;
}

/* The warden leaves: the session's status is handed on first. */
static _Noreturn void warden_exit(struct warden *w)
{
	report_session(w, true);
	_exit(0);
}

/* ---- after the session: the jobs it left ------------------------------- */

#define PROTECT_JOBS_MAX 1024

struct jobs {
	pid_t pid[PROTECT_JOBS_MAX];
	int fd[PROTECT_JOBS_MAX]; /* pidfds: a pid reused later is not ours */
	size_t n;
};

static bool jobs_has(const struct jobs *j, pid_t pid)
{
	for (size_t i = 0; i < j->n; i++)
		if (j->pid[i] == pid)
			return true;
	return false;
}

/* Adds the children thread tid of process pid started (as /proc lists
 * them now) but skip. */
static void jobs_add_thread_children(struct jobs *j, pid_t pid, pid_t tid, pid_t skip)
{
	char buf[4096];
	if (warden_read_children(pid, tid, buf, sizeof buf) <= 0)
		return;
	for (char *s = buf, *end; *s && j->n < PROTECT_JOBS_MAX; s = end) {
		long child = strtol(s, &end, 10);
		if (end == s)
			break;
		if (child <= 0 || child == skip || jobs_has(j, (pid_t)child))
			continue;
		int pfd = (int)syscall(SYS_pidfd_open, (pid_t)child, 0);
		if (pfd < 0)
			continue;
		j->pid[j->n] = (pid_t)child;
		j->fd[j->n++] = pfd;
	}
}

/* Adds parent's children but skip: those of its every thread (a job that
 * is a threaded program may start processes from any of them). */
static void jobs_add_children(struct jobs *j, pid_t parent, pid_t skip)
{
	char path[64];
	snprintf(path, sizeof path, "/proc/%ld/task", (long)parent);
	DIR *dir = opendir(path);
	if (!dir) {
		jobs_add_thread_children(j, parent, parent, skip);
		return;
	}
	struct dirent *e;
	while ((e = readdir(dir))) {
		long tid = strtol(e->d_name, NULL, 10);
		if (tid > 0)
			jobs_add_thread_children(j, parent, (pid_t)tid, skip);
	}
	closedir(dir);
}

/* Adds the warden's own children but skip: the orphans that came to it,
 * a subreaper. It has one thread, so one read, not a walk of its tasks. */
static void jobs_add_orphans(struct jobs *j, pid_t skip)
{
	jobs_add_thread_children(j, getpid(), getpid(), skip);
}

/* Drops the jobs that have exited; the children of those still running
 * join first (an exited job's children are no longer found below it). */
static void jobs_refresh(struct jobs *j, pid_t session)
{
	for (size_t i = 0; i < j->n; i++)
		jobs_add_children(j, j->pid[i], getpid());
	size_t k = 0;
	for (size_t i = 0; i < j->n; i++) {
		struct pollfd pfd = {.fd = j->fd[i], .events = POLLIN};
		if (poll(&pfd, 1, 0) > 0) {
			close(j->fd[i]);
			waitpid(j->pid[i], NULL, WNOHANG); /* an orphan that came to us */
			continue;
		}
		j->pid[k] = j->pid[i];
		j->fd[k++] = j->fd[i];
	}
	j->n = k;
	/* Orphans come to the warden, a subreaper, when their parent dies,
	 * before that death is seen: a job whose parent was just dropped is
	 * among these. */
	jobs_add_orphans(j, session);
}

/* The session is over but jobs it left still run (`cmd &`): what changes
 * now is still the sandbox's, not the human's. The warden stays, keeps
 * putting changes back as they come, and keeps the session's marker, so a
 * session started meanwhile takes what differs for this one's. It leaves
 * when the last job (or a child it started) has exited. A job that
 * detached itself during the session is found too: the shell (headless)
 * or the broker adopts orphans. */
static _Noreturn void warden_linger(struct warden *w, struct jobs *j)
{
	keeper_close(w); /* jobs may run for long: the keeper is not held up for them */
	for (int i = 0; i < 2; i++)
		if (w->fds[i] >= 0) {
			close(w->fds[i]);
			w->fds[i] = -1;
		}
	/* Whoever reads sbsh's stderr through a pipe waits for every writer
	 * to close it: an agent tool would wait for the job. A terminal stays,
	 * to show what is put back. */
	if (!isatty(2)) {
		int null = open("/dev/null", O_WRONLY | O_CLOEXEC);
		if (null >= 0) {
			dup2(null, 2);
			close(null);
		}
	}
	const char *why = "changed by a job the session left running";
	struct strvec restored;
	strvec_init(&restored);
	while (j->n > 0) {
		struct pollfd pfd[4 + PROTECT_JOBS_MAX];
		nfds_t n = 0;
		int ino_i = -1, sig_i = -1, front_i = -1;
		if (w->front_pidfd >= 0) {
			front_i = (int)n;
			pfd[n++] = (struct pollfd){.fd = w->front_pidfd, .events = POLLIN};
		}
		if (w->report_fd >= 0 && w->pidfd >= 0)
			pfd[n++] = (struct pollfd){.fd = w->pidfd, .events = POLLIN};
		if (w->inotify >= 0) {
			ino_i = (int)n;
			pfd[n++] = (struct pollfd){.fd = w->inotify, .events = POLLIN};
		}
		if (w->sigfd >= 0) {
			sig_i = (int)n;
			pfd[n++] = (struct pollfd){.fd = w->sigfd, .events = POLLIN};
		}
		for (size_t i = 0; i < j->n; i++)
			pfd[n++] = (struct pollfd){.fd = j->fd[i], .events = POLLIN};
		/* children a job starts are looked for once a second */
		int r = poll(pfd, n, w->inotify >= 0 ? 1000 : 200);
		if (r < 0 && errno != EINTR)
			break;
		if (sig_i >= 0 && (pfd[sig_i].revents & POLLIN) && !warden_signal(w))
			break;
		if (ino_i < 0 || (pfd[ino_i].revents & POLLIN)) {
			strvec_free(&restored);
			warden_check(w, &restored, "after the session");
			for (size_t i = 0; i < restored.len; i++)
				warden_print_restored(restored.items[i], why);
		}
		report_session(w, false);
		if (front_i >= 0 && (pfd[front_i].revents & POLLIN))
			front_gone(w);
		jobs_refresh(j, w->session);
	}
	warden_final(w, why);
	strvec_free(&restored);
	protect_remove_marker(w->p->state, getpid());
	warden_exit(w);
}

/* The session's marker again, after it was taken down for an end that
 * did not come (forged), or for jobs that outlive the session. */
static void republish_marker(struct warden *w)
{
	char *tmp = NULL;
	int fd = protect_marker_prepare(w->p->state, &tmp);
	if (fd < 0)
		return;
	char *path = xasprintf("%s/sessions/%ld", w->p->state, (long)getpid());
	/* fd stays open until the warden exits: its lock is the marker's life */
	if (rename(tmp, path) != 0) {
		unlink(tmp);
		close(fd);
	}
	free(path);
	free(tmp);
}

static _Noreturn void warden_main(struct warden *w)
{
	/* Its own session, unless the parent made it a group leader first
	 * (then it stays in the caller's session, in a group of its own). */
	setsid();
	int null = open("/dev/null", O_RDWR | O_CLOEXEC);
	if (null >= 0) {
		dup2(null, 0);
		dup2(null, 1);
		close(null);
	}
	signal(SIGPIPE, SIG_IGN);
	signal(SIGINT, SIG_IGN);
	signal(SIGHUP, SIG_IGN);
	signal(SIGQUIT, SIG_IGN);
	signal(SIGTTOU, SIG_IGN); /* saying what it restored, from a background group */
	sigset_t set;
	sigemptyset(&set);
	sigaddset(&set, SIGUSR1);
	sigaddset(&set, SIGTERM);
	sigprocmask(SIG_BLOCK, &set, NULL);
	w->sigfd = signalfd(-1, &set, SFD_CLOEXEC);
	/* each protected folder is an open descriptor, and submodules may
	 * add folders (dirs_budget in trusted/baseline.c) */
	struct rlimit rl;
	if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur < rl.rlim_max) {
		rl.rlim_cur = rl.rlim_max;
		setrlimit(RLIMIT_NOFILE, &rl);
	}
	/* while the session starts, not at its end, where it is waited for */
	w->keeper_fd = keeper_connect(w);
	struct strvec restored;
	strvec_init(&restored);
	bool clients_gone = false;
	while (w->fds[0] >= 0 || w->fds[1] >= 0 || w->pidfd >= 0) {
		if (!clients_gone && w->fds[0] < 0 && w->fds[1] < 0) {
			/* The shell closed its end: it exited, or exec'd its last
			 * command (the socket is close-on-exec). Check now, and once
			 * more when a still running shell has exited. */
			clients_gone = true;
			if (w->pidfd >= 0 && !shell_exiting(w))
				continue; /* checked when it has exited */
			if (w->pidfd >= 0) {
				close(w->pidfd);
				w->pidfd = -1;
			}
			if (!w->no_broker) {
				/* the broker never asked: killed along with the shell */
				if (w->inotify >= 0)
					retire_watches(w);
				w->inotify = -1;
			}
			warden_final(w, w->no_broker ? "changed by the last command"
			                             : "changed by a session that ended before it could check");
			continue;
		}
		struct pollfd pfd[6];
		int n = 0, map[6];
		for (int i = 0; i < 2; i++) {
			if (w->fds[i] >= 0) {
				map[n] = i;
				pfd[n++] = (struct pollfd){.fd = w->fds[i], .events = POLLIN};
			}
		}
		int sig_i = -1, pid_i = -1, ino_i = -1;
		if (w->sigfd >= 0) {
			sig_i = n;
			map[n] = -1;
			pfd[n++] = (struct pollfd){.fd = w->sigfd, .events = POLLIN};
		}
		if (w->inotify >= 0) {
			ino_i = n;
			map[n] = -1;
			pfd[n++] = (struct pollfd){.fd = w->inotify, .events = POLLIN};
		}
		int front_i = -1;
		if (w->front_pidfd >= 0) {
			front_i = n;
			map[n] = -1;
			pfd[n++] = (struct pollfd){.fd = w->front_pidfd, .events = POLLIN};
		}
		if (w->pidfd >= 0) {
			pid_i = n;
			map[n] = -1;
			pfd[n++] = (struct pollfd){.fd = w->pidfd, .events = POLLIN};
		}
		if (poll(pfd, (nfds_t)n, -1) < 0) {
			if (errno == EINTR)
				continue;
			break;
		}
		if (sig_i >= 0 && (pfd[sig_i].revents & POLLIN) && !warden_signal(w))
			break;
		if (ino_i >= 0 && (pfd[ino_i].revents & POLLIN))
			warden_saw_something(w);
		if (front_i >= 0 && (pfd[front_i].revents & POLLIN))
			front_gone(w);
		/* What the shell sent comes before its exit: an end read after
		 * the exit's check would have been missed. The front end hears
		 * of the exit only once these checks are over (below). */
		for (int k = 0; k < n; k++) {
			if (map[k] < 0 || !(pfd[k].revents & (POLLIN | POLLHUP | POLLERR)))
				continue;
			int *fd = &w->fds[map[k]];
			struct broker_frame f;
			ssize_t got = recv(*fd, &f, sizeof f, MSG_DONTWAIT);
			if (got < 0 && (errno == EINTR || errno == EAGAIN))
				continue;
			if (got <= 0) {
				close(*fd);
				*fd = -1;
				continue;
			}
			if (broker_frame_check(&f, (size_t)got) != 0 || f.type != BROKER_CHECK)
				continue;
			strvec_free(&restored);
			int kind = f.value;
			/* The shell runs in the sandbox: its frames may be forged
			 * (a builtin's `>&N`) and its watches blinded (`exec N<`).
			 * A quiet end is never taken as "nothing changed": the
			 * warden looks itself, with its own watches; nobody waits
			 * for that answer, so it tells the agent itself. */
			bool quiet = kind == BROKER_CHECK_QUIET;
			bool ending = kind == BROKER_CHECK_FINAL || kind == BROKER_CHECK_QUIET;
			/* Only the broker (outside) ends a session that has one;
			 * headless, the shell's end counts once it has exited. */
			bool ends = ending && (w->no_broker || map[k] == 1);
			/* A told end (QUIET, unanswered; no sbsh sends it now: the
			 * shell asks, a told end having cost more on a busy machine)
			 * counts once the shell has exited, and is checked then, before
			 * the front end is told. One that does not exit forged the end:
			 * checked as a line. */
			bool told = ends && quiet && w->no_broker;
			if (told && !session_exits_within(w, 2000)) {
				warden_check(w, &restored, "command");
				for (size_t i = 0; i < restored.len; i++)
					warden_print_restored(restored.items[i], "changed by the last command");
				continue;
			}
			warden_check(w, &restored, ending ? "session end" : "command");
			if (ends)
				warden_sweep(w, &restored);
			if (quiet)
				for (size_t i = 0; i < restored.len; i++)
					warden_print_restored(restored.items[i], "changed by the last command");
			if (!ends) {
				if (!quiet)
					warden_reply(*fd, &restored);
				continue;
			}
			/* Jobs the session leaves are found while their parent (the
			 * broker that adopted them) still waits for this answer, or
			 * once the shell that told its end has left them to us: one
			 * read when there are none. */
			static struct jobs left;
			if (!told)
				jobs_add_thread_children(&left, w->origin, w->origin, getpid()); /* sbsh has one thread */
			jobs_add_orphans(&left, w->session);
			/* the marker goes before the answer: a session started the
			 * moment this one returns must find it over */
			protect_remove_marker(w->p->state, getpid());
			if (!quiet)
				warden_reply(*fd, &restored);
			/* Headless, the asker is the shell itself: wait for its exit.
			 * One that does not exit sent a forged end: the session goes
			 * on. Outliving it also destroys the inotify instance it
			 * shares with us (its watches) here, not in its exit, where
			 * the SRCU grace period that costs (~10 ms) would hold up
			 * whoever waits for the shell. */
			if (w->pidfd >= 0 && !session_exits_within(w, 2000)) {
				republish_marker(w);
				continue;
			}
			/* Below a supervisor the shell is the session's child, found
			 * among the jobs while it waited for this answer: gone now,
			 * like any job that ended meanwhile (trusted/supervisor.c). */
			if (left.n > 0)
				jobs_refresh(&left, w->session);
			if (left.n > 0) {
				republish_marker(w); /* the jobs' changes are still the session's */
				warden_linger(w, &left);
			}
			/* The session is over. Staying would race the human, whose
			 * changes from now on are theirs. */
			warden_exit(w);
		}
		if (pid_i >= 0 && (pfd[pid_i].revents & (POLLIN | POLLHUP | POLLERR))) {
			/* The shell (or what it exec'd) has exited without a last
			 * check. Jobs it left may still hold its socket: they are
			 * checked when they close it. */
			close(w->pidfd);
			w->pidfd = -1;
			warden_final(w, "changed by the last command");
		}
		report_session(w, false);
	}
	/* Everybody who could ask is gone (exited, or killed with the whole
	 * process group): one last check, told on stderr when it finds anything. */
	strvec_free(&restored);
	if (!clients_gone) {
		if (w->inotify >= 0)
			retire_watches(w);
		w->inotify = -1; /* the last check is a full one */
		warden_check(w, &restored, "after the session");
		for (size_t i = 0; i < restored.len; i++)
			warden_print_restored(restored.items[i], "changed by a session that ended before it could check");
		strvec_free(&restored);
	}
	/* jobs left by a shell that exec'd its last command, or was killed:
	 * orphans are ours (report_session), followed like any others */
	static struct jobs orphans;
	report_session(w, true);
	jobs_add_orphans(&orphans, w->session);
	if (orphans.n > 0)
		warden_linger(w, &orphans);
	protect_remove_marker(w->p->state, getpid());
	warden_exit(w);
}

/* ---- the start: before the fork, before confinement --------------------- */

/* What the front end becomes once the session runs below the warden (or
 * in its isolated view): it waits for the session's wait status, passes
 * on the signals sent to it (not those of the terminal, which reach the
 * session's group too), and ends as the session did, by the same signal
 * if so. */
_Noreturn void warden_front_wait(int fd, const char *what)
{
	static const int forwarded[] = {SIGTERM, SIGINT, SIGHUP, SIGQUIT, SIGUSR1, SIGUSR2, SIGALRM};
	sigset_t set;
	sigemptyset(&set);
	for (size_t i = 0; i < sizeof forwarded / sizeof *forwarded; i++)
		sigaddset(&set, forwarded[i]);
	sigprocmask(SIG_BLOCK, &set, NULL);
	int sigfd = signalfd(-1, &set, SFD_CLOEXEC);
	pid_t session = 0;
	ssize_t got;
	while ((got = read(fd, &session, sizeof session)) < 0 && errno == EINTR)
		continue;
	if (got != (ssize_t)sizeof session) {
		fprintf(stderr, "sbsh: %sthe session could not be started\n", what);
		_exit(70);
	}
	/* 0: no session could be made (the other side said why); its status follows */
	for (;;) {
		struct pollfd pfd[2] = {{.fd = fd, .events = POLLIN}, {.fd = sigfd, .events = POLLIN}};
		if (poll(pfd, sigfd >= 0 ? 2 : 1, -1) < 0)
			continue;
		struct signalfd_siginfo si;
		if (sigfd >= 0 && (pfd[1].revents & POLLIN) && read(sigfd, &si, sizeof si) == (ssize_t)sizeof si &&
		    si.ssi_code != SI_KERNEL && session > 0)
			kill(session, (int)si.ssi_signo);
		if (!(pfd[0].revents & (POLLIN | POLLHUP)))
			continue;
		int status;
		if (read(fd, &status, sizeof status) != (ssize_t)sizeof status)
			_exit(1); /* the other side died first */
		util_exit_as(status);
	}
}

/* The shell's own copy of the warden's watches, taken before confinement
 * (inotify needs no write access, and the instance is the shell's alone). */
/* The shell's own descriptors stay out of 0-9, which scripts use by number
 * (configure's `exec 5>>config.log 7<&0`), as bash keeps its own. */
static int above_script_fds(int fd)
{
	if (fd < 0 || fd >= 10)
		return fd;
	int high = fcntl(fd, F_DUPFD_CLOEXEC, 10);
	if (high < 0)
		return fd;
	close(fd);
	return high;
}

static void client_watch(struct protect_client *c, struct protect *p)
{
	struct warden tmp = {.p = p};
	int ifd = above_script_fds(watch_all(&tmp));
	if (ifd < 0) {
		free(tmp.watches);
		return;
	}
	c->watches = xcalloc(tmp.nwatches ? tmp.nwatches : 1, sizeof *c->watches);
	for (size_t i = 0; i < tmp.nwatches; i++) {
		const struct watch *w = &tmp.watches[i];
		struct protect_watch *cw = &c->watches[i];
		*cw = (struct protect_watch){.wd = w->wd, .names_only = w->names_only, .is_file = w->is_file};
		if (!w->names_only)
			continue;
		struct strvec names;
		strvec_init(&names);
		const struct pdir *d = &p->dirs[w->dir];
		for (size_t j = 0; j < d->nfiles; j++)
			strvec_push(&names, d->files[j].name);
		for (size_t j = 0; j < p->ndirs; j++)
			if (p->dirs[j].parent == w->dir)
				strvec_push(&names, p->dirs[j].name);
		cw->names = strvec_detach(&names);
	}
	c->nwatches = tmp.nwatches;
	c->inotify = ifd;
	free(tmp.watches);
}

/* GIT_CONFIG_KEY_n / VALUE_n after any the caller already set. */
static void git_env(struct protect *p, struct strvec *env)
{
	const char *count = getenv("GIT_CONFIG_COUNT");
	char *end;
	long n = count && *count ? strtol(count, &end, 10) : 0;
	if (n < 0 || n > 1000 || (count && *count && *end))
		n = 0;
	if (p->hooks_rel) {
		char *hooks = protect_saved_path(p, p->hooks_rel);
		strvec_push_owned(env, xasprintf("GIT_CONFIG_KEY_%ld=core.hooksPath", n));
		strvec_push_owned(env, xasprintf("GIT_CONFIG_VALUE_%ld=%s", n, hooks));
		n++;
		free(hooks);
	}
	strvec_push_owned(env, xasprintf("GIT_CONFIG_KEY_%ld=core.fsmonitor", n));
	strvec_push_owned(env, xasprintf("GIT_CONFIG_VALUE_%ld=false", n));
	n++;
	strvec_push_owned(env, xasprintf("GIT_CONFIG_COUNT=%ld", n));
}

int protect_start(struct events *ev, bool broker, char *const *extra, struct protect_start_result *out)
{
	memset(out, 0, sizeof *out);
	out->shell.fd = -1;
	out->shell.inotify = -1;
	out->broker_fd = -1;
	strvec_init(&out->env);
	struct protect *live = protect_discover(extra);
	if (!live)
		return -1;
	char *state = protect_state_dir(live->root);
	/* Inside another sbsh's sandbox the state folder is read-only: the
	 * outer session protects the project. */
	int lock = state ? protect_open_state(state) : -1;
	if (lock < 0) {
		free(state);
		protect_free(live);
		return -1;
	}
	live->state = state;
	/* always: a dead session's marker must not outlive the start that
	 * found nothing of its to restore */
	int nlive, ndead;
	protect_sessions(state, &nlive, &ndead, NULL);
	struct protect *saved = protect_load_mirror(state);
	if (saved && !protect_covers(saved, live))
		saved->moved = true; /* the set grew: take it anew */
	struct protect *base;
	/* a restore that failed left the sandbox's files: never the baseline */
	bool dirty = protect_is_dirty(state);
	if (saved && !saved->moved && !dirty) {
		/* The usual start: every protected file has the metadata it had
		 * when last found equal to the baseline. Nothing to read. */
		base = saved;
		protect_free(live);
	} else {
		if (saved && (nlive || ndead || dirty) && protect_need_all_data(saved)) {
			/* A session still running, or one that died before it could
			 * check: what differs from the baseline is theirs, not a human's. */
			base = saved;
			struct strvec restored;
			strvec_init(&restored);
			base->failed = 0;
			protect_check(base, &restored);
			if (dirty || base->failed)
				protect_set_dirty(state, &restored); /* the warden keeps trying */
			const char *origin = dirty ? "left by an earlier sbsh session whose restore failed"
			                     : ndead ? "changed by an earlier sbsh session that did not finish"
			                             : "changed inside another running sbsh session";
			for (size_t i = 0; i < restored.len; i++) {
				warden_print_restored(restored.items[i], origin);
				char *path = warden_note_path(restored.items[i]);
				events_restore(ev, path, "earlier session");
				free(path);
			}
			strvec_free(&restored);
			if (base->grown)
				protect_write_mirror(base); /* submodules it added joined the set */
			protect_free(live);
		} else {
			/* No session ran since the last one ended: the files as they
			 * are are the human's, and the new baseline. */
			protect_scan(live);
			if (!saved || !protect_need_all_data(saved) || !protect_same_baseline(live, saved))
				protect_write_mirror(live);
			else
				protect_write_manifest(live); /* same contents, new metadata */
			protect_free(saved);
			base = live;
		}
	}
	base->ev = ev;
	state = NULL; /* freed with whichever set was not kept */
	int shell_sv[2], broker_sv[2] = {-1, -1};
	if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, shell_sv) != 0) {
		close(lock);
		protect_free(base);
		return -1;
	}
	shell_sv[1] = above_script_fds(shell_sv[1]);
	if (broker && socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, broker_sv) != 0) {
		close(shell_sv[0]);
		close(shell_sv[1]);
		close(lock);
		protect_free(base);
		return -1;
	}
	/* The warden's own watches, set before anything runs: it never takes
	 * the shell's word (whose watches the agent can blind) that nothing
	 * changed. What they see between checks is put in a page shared with
	 * the shell, read-only there, which the shell reads at every line's
	 * end: a line that changed nothing still costs no round trip. */
	struct warden w = {.p = base, .fds = {shell_sv[0], broker_sv[0]}, .pidfd = -1, .sigfd = -1,
	                   .inotify = -1, .no_broker = !broker, .dirty = base->failed > 0, .keeper_fd = -1,
	                   .report_fd = -1, .front_pidfd = -1};
	long page = sysconf(_SC_PAGESIZE);
	void *saw = mmap(NULL, (size_t)page, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	w.saw = saw == MAP_FAILED ? NULL : saw;
	clock_gettime(CLOCK_REALTIME_COARSE, &w.since); /* what the kernel stamps inodes with */
	struct timespec mono;
	clock_gettime(CLOCK_MONOTONIC, &mono);
	w.since_mono = (int64_t)mono.tv_sec * 1000000000 + mono.tv_nsec;
	w.inotify = w.dirty ? -1 : watch_all(&w);
	tell_shell(&w, w.inotify < 0);
	char *marker_tmp = NULL;
	int marker = protect_marker_prepare(base->state, &marker_tmp);
	fflush(stderr);
	/* The shell's own watches, made before the fork so that the warden
	 * holds them too (see the session's last check). */
	client_watch(&out->shell, base);
	/* The front end (this process, which the caller waits for) forks the
	 * warden, and the warden forks the session, which goes on from here:
	 * see report_session. */
	int status_pipe[2] = {-1, -1};
	pid_t front = getpid(), group = getpgrp();
	pid_t pid = pipe2(status_pipe, O_CLOEXEC) == 0 ? fork() : -1;
	if (pid == 0) {
		close(status_pipe[0]);
		prctl(PR_SET_CHILD_SUBREAPER, 1);
		pid_t session = fork();
		if (session > 0) {
			close(lock);
			close(shell_sv[1]);
			if (broker_sv[1] >= 0)
				close(broker_sv[1]);
			/* marker stays open: its lock says this warden is alive */
			w.session = w.origin = session;
			w.report_fd = status_pipe[1];
			w.front_pidfd = (int)syscall(SYS_pidfd_open, front, 0);
			if (w.front_pidfd >= 0 && getppid() != front) {
				close(w.front_pidfd); /* already gone */
				w.front_pidfd = -1;
				kill(session, SIGKILL);
			}
			if (!broker) {
				w.shell_pid = session;
				w.pidfd = (int)syscall(SYS_pidfd_open, session, 0);
			}
			ssize_t told = write(status_pipe[1], &session, sizeof session);
			(void)told;
			warden_main(&w);
		}
		if (session < 0)
			_exit(70); /* the front end sees no session, and says so */
		/* The session: back in the caller's process group (the warden
		 * leaves it), and on with the start-up. */
		close(status_pipe[1]);
		setpgid(0, group);
		pid = getppid();
	} else if (pid > 0) {
		/* Out of our process group at once, not only when the warden
		 * gets to its setsid(): a kill of the whole group (an agent
		 * tool's timeout) right after the start must not take the
		 * warden with it. */
		setpgid(pid, pid);
		close(status_pipe[1]);
		close(lock);
		close(shell_sv[0]);
		close(shell_sv[1]);
		if (broker_sv[0] >= 0) {
			close(broker_sv[0]);
			close(broker_sv[1]);
		}
		if (marker >= 0)
			close(marker);
		/* the inotify instances are the warden's and the shell's: the
		 * last reference must not go with this process, which the
		 * caller waits for (see retire_watches) */
		if (w.inotify >= 0)
			close(w.inotify);
		protect_client_unwatch(&out->shell);
		warden_front_wait(status_pipe[0], "");
	}
	if (w.inotify >= 0)
		close(w.inotify);
	free(w.watches);
	close(shell_sv[0]);
	if (broker_sv[0] >= 0)
		close(broker_sv[0]);
	if (pid < 0) {
		for (int i = 0; i < 2; i++)
			if (status_pipe[i] >= 0)
				close(status_pipe[i]);
		protect_client_unwatch(&out->shell);
		close(shell_sv[1]);
		if (broker_sv[1] >= 0)
			close(broker_sv[1]);
		if (marker >= 0) {
			unlink(marker_tmp);
			free(marker_tmp);
			close(marker);
		}
		close(lock);
		protect_free(base);
		return -1;
	}
	protect_marker_publish(base->state, marker_tmp, marker, pid);
	close(lock); /* releases the lock */
	if (w.saw) {
		mprotect(w.saw, (size_t)page, PROT_READ);
		out->shell.warden_saw = w.saw;
	}
	out->shell.fd = shell_sv[1];
	out->shell.pid = getpid();
	out->shell.warden = pid;
	out->broker_fd = broker_sv[1];
	out->root = xstrdup(base->root);
	out->hooks = base->hooks_rel ? protect_saved_path(base, base->hooks_rel) : NULL;
	git_env(base, &out->env);
	protect_free(base); /* the warden has it; the shell must not hold its folders */
	return 0;
}
