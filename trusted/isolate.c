/* Isolated sessions (isolate.h): the layer's folder and lock, the mount
 * namespace and the view, and the holder, a process outside the sandbox
 * that waits for every process of the session before it lets the layer
 * go. The layer itself is read and applied by trusted/layer.c. */
#include "trusted/isolate.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/random.h>
#include <sys/signalfd.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "lib/project.h"
#include "lib/util.h"
#include "sandbox/sandbox.h"
#include "trusted/keeper.h"
#include "trusted/layer.h"
#include "trusted/warden.h"

#define OVERLAYFS_MAGIC 0x794c7630L

/* The review's command words: `sbsh --review --isolate NAME CMD` must
 * never read a command as a name. */
static const char *const review_words[] = {"status", "diff", "accept", "reject", "discard", "list", NULL};

bool isolate_name_valid(const char *name)
{
	size_t n = strlen(name);
	if (n == 0 || n > 64 || name[0] == '.' || name[0] == '-')
		return false;
	for (const char *p = name; *p; p++) {
		bool ok = (*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') || *p == '.' ||
		          *p == '_' || *p == '-';
		if (!ok)
			return false;
	}
	for (const char *const *w = review_words; *w; w++)
		if (strcmp(name, *w) == 0)
			return false;
	return true;
}

char *isolate_layers_dir(const char *state)
{
	return xasprintf("%s/layers", state);
}

/* A new layer's name: when it was made, and four random hex digits so
 * that two made in the same second differ. */
static char *new_name(void)
{
	unsigned char rnd[2] = {0, 0};
	if (getrandom(rnd, sizeof rnd, GRND_NONBLOCK) != (ssize_t)sizeof rnd) {
		long ns = (long)(util_now_ms() ^ getpid());
		rnd[0] = (unsigned char)ns;
		rnd[1] = (unsigned char)(ns >> 8);
	}
	time_t now = time(NULL);
	struct tm tm;
	localtime_r(&now, &tm);
	char when[32];
	strftime(when, sizeof when, "%Y%m%d-%H%M%S", &tm);
	return xasprintf("%s-%02x%02x", when, rnd[0], rnd[1]);
}

int isolate_lock(const char *dir, bool create, pid_t *holder)
{
	*holder = 0;
	char *path = xasprintf("%s/lock", dir);
	int fd = open(path, O_RDWR | O_CLOEXEC | O_NOFOLLOW | (create ? O_CREAT : 0), 0600);
	free(path);
	if (fd < 0)
		return -1;
	if (flock(fd, LOCK_EX | LOCK_NB) != 0) {
		int saved = errno;
		char buf[32];
		ssize_t r = pread(fd, buf, sizeof buf - 1, 0);
		if (r > 0) {
			buf[r] = 0;
			*holder = (pid_t)strtol(buf, NULL, 10);
		}
		close(fd);
		errno = saved;
		return -1;
	}
	return fd;
}

/* Who holds the lock, for the message of whoever finds it taken; jobs:
 * the session has ended and only jobs it left keep the layer. */
static void lock_note_holder(int fd, pid_t pid, bool jobs)
{
	char buf[32];
	int n = snprintf(buf, sizeof buf, "%ld%s\n", (long)pid, jobs ? " jobs" : "");
	if (ftruncate(fd, 0) == 0 && pwrite(fd, buf, (size_t)n, 0) < 0)
		return;
}

static bool holder_waits_for_jobs(const char *dir)
{
	char *path = xasprintf("%s/lock", dir);
	size_t len = 0;
	char *text = util_read_file(path, O_NOFOLLOW, 64, &len);
	bool jobs = text && strstr(text, " jobs") != NULL;
	free(text);
	free(path);
	return jobs;
}

static bool write_small_file(const char *path, const char *text)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return false;
	bool ok = util_write_all(fd, text, strlen(text));
	return close(fd) == 0 && ok;
}

/* Why a mount namespace cannot be had, with what would allow one here. */
static char *namespace_refusal(const char *what, int err)
{
	size_t len = 0;
	char *restrict_flag = util_read_file("/proc/sys/kernel/apparmor_restrict_unprivileged_userns", 0, 16, &len);
	bool apparmor = restrict_flag && restrict_flag[0] == '1' && geteuid() != 0;
	free(restrict_flag);
	return xasprintf("cannot make a mount namespace (%s: %s)%s", what, strerror(err),
	                 apparmor ? "; AppArmor restricts user namespaces here: install sbsh's profile "
	                            "(make install puts it in /etc/apparmor.d, see docs/isolation.md)"
	                 : err == EPERM || err == ENOSYS
	                     ? "; a container's seccomp profile (Docker's default) or a policy forbids it"
	                     : "");
}

/* A mount namespace of this process's own, where mounts made stay here
 * and those of the host still come in. As root (or with CAP_SYS_ADMIN)
 * only that; as a user, in a user namespace of its own too, where it is
 * root mapped to itself. */
static int enter_namespace(char **why)
{
	uid_t uid = geteuid();
	gid_t gid = getegid();
	if (unshare(CLONE_NEWNS) != 0) {
		int first = errno;
		if (unshare(CLONE_NEWUSER | CLONE_NEWNS) != 0) {
			*why = namespace_refusal("unshare", first == EPERM ? errno : first);
			return -1;
		}
		char map[64];
		snprintf(map, sizeof map, "%lu %lu 1\n", (unsigned long)uid, (unsigned long)uid);
		bool ok = write_small_file("/proc/self/setgroups", "deny") && write_small_file("/proc/self/uid_map", map);
		snprintf(map, sizeof map, "%lu %lu 1\n", (unsigned long)gid, (unsigned long)gid);
		if (!ok || !write_small_file("/proc/self/gid_map", map)) {
			*why = namespace_refusal("the user namespace's id maps", errno);
			return -1;
		}
	}
	if (mount(NULL, "/", NULL, MS_REC | MS_SLAVE, NULL) != 0) {
		*why = namespace_refusal("mount --make-rslave /", errno);
		return -1;
	}
	return 0;
}

/* The view: an overlay of the upper folder on the real one, mounted on
 * the real one. Named through descriptors, so that no path needs the
 * escaping of the option string. redirect_dir stays off (a folder of the
 * real project renamed in the view is copied), metacopy off (a copy up
 * copies the data), and the user.overlay.* attributes are used as root
 * too, so a layer reads the same whoever mounted it. */
static int mount_view(const char *root, const char *upper, const char *work, char **why)
{
	int lo = open(root, O_PATH | O_DIRECTORY | O_CLOEXEC);
	int up = open(upper, O_RDONLY | O_DIRECTORY | O_CLOEXEC | O_NOFOLLOW);
	int wk = open(work, O_PATH | O_DIRECTORY | O_CLOEXEC | O_NOFOLLOW);
	int rc = -1;
	struct stat rs;
	if (lo < 0 || up < 0 || wk < 0 || fstat(lo, &rs) != 0) {
		*why = xasprintf("cannot open the project or the layer: %s", strerror(errno));
		goto out;
	}
	/* the view's top shows the upper folder's owner and mode: the project's */
	if ((fchown(up, rs.st_uid, rs.st_gid) != 0 && errno != EPERM && errno != EINVAL) ||
	    fchmod(up, rs.st_mode & 07777) != 0) {
		*why = xasprintf("cannot give %s the project's owner and mode: %s", upper, strerror(errno));
		goto out;
	}
	char target[64], opts[256];
	snprintf(target, sizeof target, "/proc/self/fd/%d", lo);
	snprintf(opts, sizeof opts,
	         "lowerdir=/proc/self/fd/%d,upperdir=/proc/self/fd/%d,workdir=/proc/self/fd/%d,userxattr,metacopy=off,"
	         "index=off",
	         lo, up, wk);
	if (mount("overlay", target, "overlay", MS_NOSUID | MS_NODEV, opts) != 0) {
		int err = errno;
		struct statfs sf;
		bool upper_on_overlay = statfs(upper, &sf) == 0 && sf.f_type == OVERLAYFS_MAGIC;
		*why = xasprintf("cannot mount the view (OverlayFS: %s)%s", strerror(err),
		                 upper_on_overlay ? ": the state folder is itself on OverlayFS (a container's root?), "
		                                    "which cannot hold an upper layer; set XDG_STATE_HOME on another filesystem"
		                 : err == ENODEV ? ": this kernel has no OverlayFS"
		                 : err == EINVAL ? ": the state folder's filesystem cannot hold an upper layer (ext4, xfs, "
		                                   "btrfs and tmpfs can)"
		                                 : "");
		goto out;
	}
	rc = 0;
out:
	if (lo >= 0)
		close(lo);
	if (up >= 0)
		close(up);
	if (wk >= 0)
		close(wk);
	return rc;
}

/* ---- the front end and the holder --------------------------------------- */


/* Accepts made while a session ran left their files in the upper folder
 * (a mounted layer is not changed under OverlayFS): once unmounted, they
 * go. Nothing recorded, nothing to walk. */
static void tidy_if_accepted(const struct layer *l)
{
	char *records = xasprintf("%s/accepted.json", l->dir);
	if (access(records, F_OK) == 0)
		layer_tidy(l);
	free(records);
}

struct holder {
	pid_t session, front;
	int report_fd; /* to the front end: the session's pid, then its status; -1 once sent */
	int note_fd;   /* from the session: its warden's pid */
	int lock_fd;
	int sigfd;     /* SIGCHLD, and SIGUSR1 when the front end dies */
	bool ephemeral;
	bool session_done;
	pid_t warden;  /* the session's warden, once the session's first process ended */
	int status;
	struct layer layer;
};

static void holder_report(struct holder *h)
{
	if (h->report_fd < 0)
		return;
	ssize_t told = write(h->report_fd, &h->status, sizeof h->status);
	(void)told;
	close(h->report_fd);
	h->report_fd = -1;
}

/* Whether pid, a process of ours, has children of its own (a warden with
 * jobs to outlive, or walking the project in a child). Unreadable: yes. */
static bool has_children(pid_t pid)
{
	char path[64];
	snprintf(path, sizeof path, "/proc/%ld/task", (long)pid);
	DIR *d = opendir(path);
	if (!d)
		return false; /* gone */
	bool any = false;
	struct dirent *e;
	while (!any && (e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		char *kids = xasprintf("/proc/%ld/task/%s/children", (long)pid, e->d_name);
		size_t len = 0;
		char *text = util_read_file(kids, 0, 65536, &len);
		any = !text || len > 0;
		free(text);
		free(kids);
	}
	closedir(d);
	return any;
}

/* Every process of the session is gone: the layer is tidied (or
 * discarded, when ephemeral) and let go, and only then is the status
 * handed on, so that the next session of the same name finds it free.
 * The view goes with the namespace when the holder exits (an unmount
 * here would make the caller wait for the kernel's grace period). */
static _Noreturn void holder_finish(struct holder *h)
{
	/* after a review still at work on the layer (an accept) */
	char *review_lock = xasprintf("%s/review.lock", h->layer.dir);
	int rl = open(review_lock, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0600);
	free(review_lock);
	while (rl >= 0 && flock(rl, LOCK_EX) != 0 && errno == EINTR)
		continue;
	if (h->ephemeral) {
		char *err = NULL;
		if (layer_discard(h->layer.dir, &err) != 0) {
			fprintf(stderr, "sbsh: --isolate: the ephemeral layer %s could not be removed: %s\n", h->layer.name, err);
			free(err);
		}
	} else {
		tidy_if_accepted(&h->layer);
	}
	if (rl >= 0)
		close(rl);
	close(h->lock_fd);
	holder_report(h);
	_exit(0);
}

/* Whether any process of ours is still at work: a child other than the
 * warden, or a warden with children of its own (jobs it outlives, or its
 * walk of the project). A warden without them has reported and leaves:
 * it does nothing more in the view, and its exit (the release of its
 * inotify watches) is not waited for. */
static bool session_busy(pid_t warden)
{
	char *path = xasprintf("/proc/%ld/task/%ld/children", (long)getpid(), (long)getpid());
	size_t len = 0;
	char *kids = util_read_file(path, 0, 1 << 20, &len);
	free(path);
	if (!kids) {
		pid_t r;
		while ((r = waitpid(-1, NULL, WNOHANG)) < 0 && errno == EINTR)
			continue;
		return !(r < 0 && errno == ECHILD);
	}
	bool busy = false;
	for (char *p = kids, *end; !busy && *p; p = end) {
		long pid = strtol(p, &end, 10);
		if (end == p)
			break;
		busy = pid != (long)warden || has_children(warden);
	}
	free(kids);
	return busy;
}

/* The session's first process has ended: the layer is let go at once,
 * unless jobs it left run on in the view; then the caller has its status
 * and the holder stays for them. */
static void holder_session_ended(struct holder *h)
{
	pid_t warden = 0;
	if (read(h->note_fd, &warden, sizeof warden) != (ssize_t)sizeof warden)
		warden = 0;
	h->warden = warden;
	if (!session_busy(warden))
		holder_finish(h);
	lock_note_holder(h->lock_fd, getpid(), true);
	holder_report(h);
	/* Whoever reads sbsh's stderr through a pipe waits for every writer:
	 * an agent tool would wait for the jobs. */
	if (!isatty(2)) {
		int null = open("/dev/null", O_WRONLY | O_CLOEXEC);
		if (null >= 0) {
			dup2(null, 2);
			close(null);
		}
	}
}

static _Noreturn void holder_main(struct holder *h)
{
	int null = open("/dev/null", O_RDWR | O_CLOEXEC);
	if (null >= 0) {
		dup2(null, 0);
		dup2(null, 1);
		close(null);
	}
	static const int ignored[] = {SIGINT, SIGQUIT, SIGHUP, SIGTTOU, SIGTSTP, SIGPIPE};
	for (size_t i = 0; i < sizeof ignored / sizeof *ignored; i++)
		signal(ignored[i], SIG_IGN);
	for (;;) {
		/* without a signalfd (no descriptor left), a look every second */
		struct pollfd p = {.fd = h->sigfd, .events = POLLIN};
		if (poll(&p, 1, h->sigfd >= 0 ? -1 : 1000) < 0 && errno != EINTR)
			break;
		struct signalfd_siginfo si;
		while (read(h->sigfd, &si, sizeof si) == (ssize_t)sizeof si)
			if (si.ssi_signo == SIGUSR1 && !h->session_done)
				kill(h->session, SIGKILL); /* the front end was killed: as if the shell was */
		for (;;) {
			int status;
			pid_t r = waitpid(-1, &status, WNOHANG);
			if (r == 0)
				break;
			if (r < 0 && errno == EINTR)
				continue;
			if (r < 0)
				holder_finish(h);
			if (r == h->session) {
				h->session_done = true;
				h->status = status;
				holder_session_ended(h);
			} else if (h->session_done && !session_busy(h->warden)) {
				holder_finish(h); /* the last job ended */
			}
		}
	}
	holder_finish(h);
}

/* ---- the start -------------------------------------------------------- */

struct begin {
	char *cwd, *root, *state, *layers, *dir;
	bool created;
	int lock;
};

static void begin_free(struct begin *b)
{
	free(b->cwd);
	free(b->root);
	free(b->state);
	free(b->layers);
	free(b->dir);
}

/* The layer's record of which project it is a view of. */
static int layer_record(struct begin *b, char **why)
{
	char *path = xasprintf("%s/layer.json", b->dir);
	int rc = 0;
	if (b->created) {
		json_t *o = json_pack("{s:s, s:I}", "project", b->root, "created", (json_int_t)time(NULL));
		char *tmp = xasprintf("%s.tmp", path);
		if (!o || json_dump_file(o, tmp, JSON_INDENT(2)) != 0 || rename(tmp, path) != 0) {
			*why = xasprintf("cannot write %s: %s", path, strerror(errno));
			rc = -1;
		}
		json_decref(o);
		free(tmp);
	} else {
		json_t *o = json_load_file(path, 0, NULL);
		const char *project = o ? json_string_value(json_object_get(o, "project")) : NULL;
		if (project && strcmp(project, b->root) != 0) {
			*why = xasprintf("the layer %s is a view of %s, not of %s", b->dir, project, b->root);
			rc = -1;
		}
		json_decref(o);
	}
	free(path);
	return rc;
}

/* Everything up to the namespace: where the layer is, made when new, and
 * locked. Returns 0, or -1 with *why (exit 7). */
static int begin_layer(struct isolate_session *is, struct begin *b, const struct strvec *allow_write, char **why)
{
	b->cwd = getcwd(NULL, 0);
	b->root = b->cwd ? project_top(b->cwd) : NULL;
	if (!b->root) {
		*why = xstrdup("not in a project (/ or $HOME itself): start it in the project's folder");
		return -1;
	}
	char *refused = sandbox_project_refusal(b->root);
	if (refused) {
		*why = xasprintf("%s cannot be the project: %s", b->root, refused);
		free(refused);
		return -1;
	}
	b->state = keeper_state_dir(b->root);
	if (!b->state) {
		*why = xstrdup("no state folder to keep the layer in ($HOME and XDG_STATE_HOME are unset)");
		return -1;
	}
	const char *shared = sandbox_shared_folder(b->state);
	if (shared) {
		*why = xasprintf("the state folder %s is in %s, which the sandbox may write: set XDG_STATE_HOME outside it",
		                 b->state, shared);
		return -1;
	}
	b->layers = isolate_layers_dir(b->state);
	if (util_mkdir_private(b->layers) != 0) {
		*why = xasprintf("cannot make %s: %s", b->layers, strerror(errno));
		return -1;
	}
	/* nor a folder the session is let write by name */
	char *layers_real = realpath(b->layers, NULL);
	for (size_t i = 0; layers_real && i < allow_write->len; i++) {
		char *granted = realpath(allow_write->items[i], NULL);
		size_t n = granted ? strlen(granted) : 0;
		bool inside = granted && strncmp(layers_real, granted, n) == 0 &&
		              (layers_real[n] == '/' || layers_real[n] == 0 || n == 1);
		free(granted);
		if (inside) {
			*why = xasprintf("the state folder %s is in --allow-write %s, which the sandbox may write: set "
			                 "XDG_STATE_HOME outside it",
			                 b->state, allow_write->items[i]);
			free(layers_real);
			return -1;
		}
	}
	free(layers_real);
	if (!is->name)
		is->name = new_name();
	b->dir = xasprintf("%s/%s", b->layers, is->name);
	b->created = mkdir(b->dir, 0700) == 0;
	if (!b->created && errno != EEXIST) {
		*why = xasprintf("cannot make %s: %s", b->dir, strerror(errno));
		return -1;
	}
	pid_t holder;
	b->lock = isolate_lock(b->dir, true, &holder);
	if (b->lock < 0) {
		if (errno == EWOULDBLOCK && holder > 0 && holder_waits_for_jobs(b->dir))
			*why = xasprintf("the layer %s is in use: jobs an ended session left still run in it (its holder is "
			                 "pid %ld): end them first, or use another name",
			                 is->name, (long)holder);
		else if (errno == EWOULDBLOCK)
			*why = holder > 0 ? xasprintf("the layer %s is in use by another session (pid %ld): end it first, "
			                              "or use another name",
			                              is->name, (long)holder)
			                  : xasprintf("the layer %s is in use (a review?): try again", is->name);
		else
			*why = xasprintf("cannot lock %s/lock: %s", b->dir, strerror(errno));
		return -1;
	}
	futimens(b->lock, NULL); /* when it was last used, for the list */
	char *upper = xasprintf("%s/upper", b->dir), *work = xasprintf("%s/work", b->dir);
	bool made = (mkdir(upper, 0755) == 0 || errno == EEXIST) && (mkdir(work, 0700) == 0 || errno == EEXIST);
	if (!made)
		*why = xasprintf("cannot make the layer's folders in %s: %s", b->dir, strerror(errno));
	free(upper);
	free(work);
	return made ? layer_record(b, why) : -1;
}

int isolate_begin(struct isolate_session *is, bool ephemeral, const struct strvec *allow_write)
{
	is->note_fd = -1;
	struct begin b = {.lock = -1};
	char *why = NULL;
	if (is->name && !isolate_name_valid(is->name)) {
		fprintf(stderr, "sbsh: --isolate: %s: a layer's name is 1 to 64 letters, digits, '.', '_' or '-', not "
		                "starting with '.' or '-', and not status, diff, accept, reject, discard or list\n",
		        is->name);
		return 2;
	}
	bool named = is->name != NULL;
	if (prctl(PR_GET_NO_NEW_PRIVS, 0, 0, 0, 0) == 1) {
		why = xstrdup("refused inside a sandbox (its mounts cannot change): start it outside");
		goto fail;
	}
	if (begin_layer(is, &b, allow_write, &why) != 0)
		goto fail;
	struct layer l = {0};
	if (layer_open(b.root, b.state, is->name, &l, &why) != 0)
		goto fail;
	tidy_if_accepted(&l); /* what reviews accepted while the last session ran */
	int report[2], note[2];
	if (pipe2(report, O_CLOEXEC) != 0 || pipe2(note, O_CLOEXEC | O_NONBLOCK) != 0) {
		why = xasprintf("pipe: %s", strerror(errno));
		layer_close(&l);
		goto fail;
	}
	pid_t front = getpid(), group = getpgrp();
	sigset_t mask, old;
	sigemptyset(&mask);
	sigaddset(&mask, SIGCHLD);
	sigaddset(&mask, SIGUSR1);
	fflush(stdout);
	fflush(stderr);
	pid_t holder = fork();
	if (holder < 0) {
		why = xasprintf("fork: %s", strerror(errno));
		layer_close(&l);
		goto fail;
	}
	if (holder > 0) {
		/* out of the caller's group at once: a kill of the whole group
		 * (an agent tool's timeout) must not take the holder with it */
		setpgid(holder, holder);
		close(report[1]);
		close(note[0]);
		close(note[1]);
		close(b.lock);
		warden_front_wait(report[0], "--isolate: ");
	}
	/* The holder makes the namespace, so that the front end, which the
	 * caller waits for, is never the last process in it (whose exit waits
	 * for the kernel to take the view down). */
	close(report[0]);
	setpgid(0, 0);
	signal(SIGTTOU, SIG_IGN); /* saying why, from a group of its own */
	char *work = xasprintf("%s/work", b.dir);
	int entered = enter_namespace(&why) == 0 && mount_view(b.root, l.upper, work, &why) == 0 ? 0 : -1;
	free(work);
	/* never the real folder: the shell must start in the view */
	struct statfs sf;
	if (entered == 0 && (chdir(b.cwd) != 0 || statfs(".", &sf) != 0 || sf.f_type != OVERLAYFS_MAGIC)) {
		why = xasprintf("the view is not where the project is (%s)", b.cwd);
		entered = -1;
	}
	if (entered != 0) {
		fprintf(stderr, "sbsh: --isolate: %s; nothing was run\n", why);
		if (b.created) {
			char *err = NULL;
			if (layer_discard(b.dir, &err) != 0)
				free(err);
		}
		pid_t none = 0;
		int status = 7 << 8; /* as a wait status: exited with 7 */
		if (write(report[1], &none, sizeof none) == (ssize_t)sizeof none)
			status = write(report[1], &status, sizeof status) == (ssize_t)sizeof status ? 0 : 1;
		_exit(status);
	}
	if (!named)
		fprintf(stderr, "sbsh: --isolate: new layer %s (sbsh --review --isolate %s to see it)\n", is->name,
		        is->name);
	prctl(PR_SET_CHILD_SUBREAPER, 1);
	sigprocmask(SIG_BLOCK, &mask, &old);
	prctl(PR_SET_PDEATHSIG, SIGUSR1);
	struct holder h = {.front = front, .report_fd = report[1], .note_fd = note[0], .lock_fd = b.lock,
	                   .sigfd = signalfd(-1, &mask, SFD_CLOEXEC | SFD_NONBLOCK), .ephemeral = ephemeral, .layer = l};
	if (getppid() != front)
		kill(getpid(), SIGUSR1); /* it was gone before the death signal was asked for */
	lock_note_holder(b.lock, getpid(), false);
	h.session = fork();
	if (h.session < 0)
		_exit(70); /* the front end sees no session, and says so */
	if (h.session > 0) {
		close(note[1]);
		ssize_t told = write(report[1], &h.session, sizeof h.session);
		(void)told;
		begin_free(&b);
		holder_main(&h);
	}
	/* The session: back in the caller's process group, on with the start-up. */
	sigprocmask(SIG_SETMASK, &old, NULL);
	if (h.sigfd >= 0)
		close(h.sigfd);
	close(report[1]);
	close(note[0]);
	close(b.lock);
	setpgid(0, group);
	is->note_fd = fcntl(note[1], F_DUPFD_CLOEXEC, 10);
	close(note[1]);
	/* No keeper serves an isolated session: the shell tells the agent's
	 * program files by the layer's upper folder, where what a session of
	 * this layer wrote lies (hooks/approve.c). Only ever more of them. */
	setenv("SBSH_ISOLATED_UPPER", l.upper, 1);
	layer_close(&l);
	begin_free(&b);
	return 0;

fail:
	fprintf(stderr, "sbsh: --isolate: %s; nothing was run\n", why);
	if (b.created && b.dir) {
		char *err = NULL;
		if (layer_discard(b.dir, &err) != 0)
			free(err);
	}
	if (b.lock >= 0)
		close(b.lock);
	free(why);
	begin_free(&b);
	return 7;
}

void isolate_note_warden(struct isolate_session *is, pid_t warden)
{
	if (is->note_fd < 0)
		return;
	ssize_t told = write(is->note_fd, &warden, sizeof warden);
	(void)told;
	close(is->note_fd);
	is->note_fd = -1;
}

/* ---- --doctor ----------------------------------------------------------- */

/* In a child: a namespace, a tmpfs, and an overlay on it, as a session
 * would make them. Returns NULL when all could be made, else why not. */
static char *probe_isolation(void)
{
	int pipefd[2];
	if (pipe2(pipefd, O_CLOEXEC) != 0)
		return xasprintf("pipe: %s", strerror(errno));
	pid_t pid = fork();
	if (pid < 0) {
		close(pipefd[0]);
		close(pipefd[1]);
		return xasprintf("fork: %s", strerror(errno));
	}
	if (pid == 0) {
		close(pipefd[0]);
		char *why = NULL;
		const char *where = access("/tmp", F_OK) == 0 ? "/tmp" : "/mnt";
		if (enter_namespace(&why) == 0) {
			if (mount("tmpfs", where, "tmpfs", 0, "size=64k") != 0) {
				why = namespace_refusal("mount tmpfs", errno);
			} else {
				char *dirs[4];
				const char *names[4] = {"l", "u", "w", "m"};
				for (int i = 0; i < 4; i++) {
					dirs[i] = xasprintf("%s/%s", where, names[i]);
					mkdir(dirs[i], 0700);
				}
				char *opts = xasprintf("lowerdir=%s,upperdir=%s,workdir=%s,userxattr,metacopy=off,index=off", dirs[0],
				                       dirs[1], dirs[2]);
				if (mount("overlay", dirs[3], "overlay", 0, opts) != 0)
					why = xasprintf("cannot mount OverlayFS in the namespace: %s", strerror(errno));
			}
		}
		if (why && !util_write_all(pipefd[1], why, strlen(why)))
			_exit(2);
		_exit(why ? 1 : 0);
	}
	close(pipefd[1]);
	struct strbuf sb;
	strbuf_init(&sb);
	char buf[512];
	ssize_t n;
	while ((n = read(pipefd[0], buf, sizeof buf)) > 0 || (n < 0 && errno == EINTR))
		if (n > 0)
			strbuf_addmem(&sb, buf, (size_t)n);
	close(pipefd[0]);
	int status = 0;
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		continue;
	if (WIFEXITED(status) && WEXITSTATUS(status) == 0) {
		strbuf_free(&sb);
		return NULL;
	}
	char *why = strbuf_detach(&sb);
	if (!why || !*why) {
		free(why);
		why = xstrdup("the probe failed");
	}
	return why;
}

void isolate_report(struct isolate_report *r)
{
	memset(r, 0, sizeof *r);
	char *cwd = getcwd(NULL, 0);
	char *root = cwd ? project_top(cwd) : NULL;
	char *state = root ? keeper_state_dir(root) : NULL;
	if (state)
		r->layers = isolate_layers_dir(state);
	const char *shared = state ? sandbox_shared_folder(state) : NULL;
	struct statfs sf;
	char *probe = NULL;
	if (prctl(PR_GET_NO_NEW_PRIVS, 0, 0, 0, 0) == 1)
		r->why_not = xstrdup("inside a sandbox: an isolated session is started outside");
	else if (shared)
		r->why_not = xasprintf("the state folder %s is in %s, which the sandbox may write", state, shared);
	else if ((probe = probe_isolation()) != NULL)
		r->why_not = probe;
	else if (state && statfs(state, &sf) == 0 && sf.f_type == OVERLAYFS_MAGIC)
		r->why_not = xasprintf("the state folder %s is on OverlayFS, which cannot hold an upper layer", state);
	r->available = r->why_not == NULL;
	if (r->available)
		r->how = xstrdup(geteuid() == 0 ? "as root: a mount namespace" : "in a user namespace of its own");
	free(state);
	free(root);
	free(cwd);
}

void isolate_report_free(struct isolate_report *r)
{
	free(r->how);
	free(r->why_not);
	free(r->layers);
}
