#include "trusted/session_freeze.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

#include "lib/proc_status.h"
#include "lib/util.h"

/* Long enough for a loaded machine, short enough that a process stuck in
 * the kernel (a hung network file system) does not hold the human up. */
enum { FREEZE_DEADLINE_MS = 2000 };

struct proc_entry {
	pid_t pid, ppid;
	char state;
	dev_t tty; /* its controlling terminal, 0 for none */
};

struct proc_table {
	struct proc_entry *items; /* by pid */
	size_t len, cap;
};

static bool read_stat(pid_t pid, struct proc_entry *pe)
{
	char path[64], buf[512];
	snprintf(path, sizeof path, "/proc/%ld/stat", (long)pid);
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return false;
	ssize_t n = read(fd, buf, sizeof buf - 1);
	close(fd);
	if (n <= 0)
		return false;
	buf[n] = '\0';
	/* comm may hold anything, ')' included: fields start after the last */
	const char *p = strrchr(buf, ')');
	long parent = 0, tty = 0;
	char st = '?';
	if (!p || sscanf(p + 1, " %c %ld %*d %*d %ld", &st, &parent, &tty) != 3)
		return false;
	*pe = (struct proc_entry){.pid = pid, .ppid = (pid_t)parent, .state = st, .tty = (dev_t)tty};
	return true;
}

static int by_pid(const void *a, const void *b)
{
	pid_t x = ((const struct proc_entry *)a)->pid, y = ((const struct proc_entry *)b)->pid;
	return (x > y) - (x < y);
}

static void scan_processes(struct proc_table *t)
{
	t->len = 0;
	DIR *d = opendir("/proc");
	if (!d)
		return;
	struct dirent *e;
	while ((e = readdir(d))) {
		char *end;
		long pid = strtol(e->d_name, &end, 10);
		struct proc_entry pe;
		if (*end || pid <= 0 || !read_stat((pid_t)pid, &pe))
			continue;
		if (t->len == t->cap) {
			t->cap = t->cap ? t->cap * 2 : 256;
			t->items = xreallocarray(t->items, t->cap, sizeof *t->items);
		}
		t->items[t->len++] = pe;
	}
	closedir(d);
	if (t->len)
		qsort(t->items, t->len, sizeof *t->items, by_pid);
}

static const struct proc_entry *find(const struct proc_table *t, pid_t pid)
{
	struct proc_entry key = {.pid = pid};
	return t->len && t->items ? bsearch(&key, t->items, t->len, sizeof *t->items, by_pid) : NULL;
}

/* Which processes a freeze stops: those a session's escape must not have
 * running, or those holding a terminal. */
struct picker {
	struct proc_confinement self;
	uid_t uid;
	pid_t root;     /* session: its descendants */
	struct stat exe; /* session: our program, to know other sbsh processes */
	bool have_exe;
	bool by_tty;    /* terminal: the holders of tty */
	dev_t tty;
};

static bool ours(const struct picker *k, pid_t pid)
{
	char path[32];
	struct stat st;
	snprintf(path, sizeof path, "/proc/%ld", (long)pid);
	return stat(path, &st) == 0 && st.st_uid == k->uid;
}

/* Made inside a sandbox (more confined than us), and of this user. */
static bool sandboxed(const struct picker *k, pid_t pid)
{
	struct proc_confinement conf;
	return ours(k, pid) && proc_confinement_of(pid, &conf) && proc_outside_sandbox_of(&k->self, &conf);
}

/* Whether pid has the terminal open: a descriptor of the device, or of
 * /dev/tty while the terminal is its controlling one. */
static bool holds_tty(pid_t pid, dev_t tty, dev_t controlling)
{
	char path[48];
	snprintf(path, sizeof path, "/proc/%ld/fd", (long)pid);
	DIR *d = opendir(path);
	if (!d)
		return false;
	bool holds = false;
	struct dirent *e;
	while (!holds && (e = readdir(d))) {
		struct stat st;
		if (e->d_name[0] == '.' || fstatat(dirfd(d), e->d_name, &st, 0) != 0 || !S_ISCHR(st.st_mode))
			continue;
		holds = st.st_rdev == tty || (st.st_rdev == makedev(5, 0) && controlling == tty);
	}
	closedir(d);
	return holds;
}

/* Another sbsh outside any sandbox (a broker, a warden): the jobs its
 * session left become its children. */
static bool other_sbsh(const struct picker *k, pid_t pid)
{
	char path[48];
	struct stat st;
	snprintf(path, sizeof path, "/proc/%ld/exe", (long)pid);
	if (!k->have_exe || pid == getpid() || stat(path, &st) != 0 || st.st_dev != k->exe.st_dev ||
	    st.st_ino != k->exe.st_ino || !ours(k, pid))
		return false;
	struct proc_confinement conf;
	return proc_confinement_of(pid, &conf) && !proc_outside_sandbox_of(&k->self, &conf);
}

/* Marks (mark[i]) the processes of the table k picks, as far as the table
 * tells: take() checks each again once a pidfd holds it. */
static void pick(const struct picker *k, const struct proc_table *t, bool *mark)
{
	for (size_t i = 0; i < t->len; i++)
		mark[i] = false;
	if (k->by_tty) {
		for (size_t i = 0; i < t->len; i++)
			mark[i] = sandboxed(k, t->items[i].pid) && holds_tty(t->items[i].pid, k->tty, t->items[i].tty);
		return;
	}
	bool *root = xcalloc(t->len ? t->len : 1, sizeof *root);
	for (size_t i = 0; i < t->len; i++)
		root[i] = t->items[i].pid == k->root || other_sbsh(k, t->items[i].pid);
	/* Below a root; or an orphan init adopted, made inside a sandbox (a
	 * session without a warden left it). */
	for (size_t i = 0; i < t->len; i++) {
		const struct proc_entry *parent = find(t, t->items[i].ppid);
		mark[i] = (parent && root[parent - t->items]) ||
		          (t->items[i].ppid == 1 && sandboxed(k, t->items[i].pid));
	}
	for (bool grew = true; grew;) {
		grew = false;
		for (size_t i = 0; i < t->len; i++) {
			const struct proc_entry *parent = find(t, t->items[i].ppid);
			if (!mark[i] && parent && mark[parent - t->items])
				grew = mark[i] = true;
		}
	}
	free(root);
}

static bool held(const struct session_freeze *f, pid_t pid)
{
	for (size_t i = 0; i < f->len; i++)
		if (f->items[i].pid == pid)
			return true;
	return false;
}

static bool is_stopped_state(char state)
{
	return state == 'T' || state == 't' || state == 'Z' || state == 'X';
}

static void send_signal(const struct frozen_process *p, int sig)
{
	if (syscall(SYS_pidfd_send_signal, p->pidfd, sig, NULL, 0) != 0 && errno == ENOSYS)
		kill(p->pid, sig);
}

/* Takes pid into f and stops it, if it is still one k picks and was made
 * inside a sandbox. Checked again once the pidfd holds it: the pid read
 * from /proc may have been reused since. */
static void take(struct session_freeze *f, pid_t pid, const struct picker *k)
{
	int pidfd = (int)syscall(SYS_pidfd_open, pid, 0);
	if (pidfd < 0 && errno != ENOSYS)
		return;
	struct proc_entry pe;
	if (!sandboxed(k, pid) || !read_stat(pid, &pe) || pe.state == 'Z' || pe.state == 'X' ||
	    (k->by_tty && !holds_tty(pid, k->tty, pe.tty))) {
		if (pidfd >= 0)
			close(pidfd);
		return;
	}
	if (f->len == f->cap) {
		f->cap = f->cap ? f->cap * 2 : 16;
		f->items = xreallocarray(f->items, f->cap, sizeof *f->items);
	}
	struct frozen_process *p = &f->items[f->len++];
	*p = (struct frozen_process){.pid = pid, .pidfd = pidfd, .stopped_by_us = pe.state != 'T'};
	if (p->stopped_by_us)
		send_signal(p, SIGSTOP);
}

static bool all_stopped(const struct session_freeze *f)
{
	for (size_t i = 0; i < f->len; i++) {
		struct proc_entry pe;
		if (f->items[i].stopped_by_us && read_stat(f->items[i].pid, &pe) && !is_stopped_state(pe.state))
			return false;
	}
	return true;
}

static int freeze(struct session_freeze *f, const struct picker *k, pid_t first_pid)
{
	*f = (struct session_freeze){0};
	if (first_pid > 0)
		take(f, first_pid, k);
	struct proc_table table = {0};
	bool *mark = NULL;
	size_t mark_cap = 0;
	long long deadline = util_now_ms() + FREEZE_DEADLINE_MS;
	int rc = -1;
	while (util_now_ms() < deadline) {
		/* A process not yet stopped may fork: rescan until a round,
		 * taken with everything held stopped, finds nobody new. */
		while (!all_stopped(f) && util_now_ms() < deadline) {
			struct timespec ms = {0, 1000000};
			nanosleep(&ms, NULL);
		}
		if (!all_stopped(f))
			break;
		scan_processes(&table);
		if (table.len > mark_cap) {
			mark_cap = table.len;
			mark = xreallocarray(mark, mark_cap, sizeof *mark);
		}
		pick(k, &table, mark);
		size_t before = f->len;
		for (size_t i = 0; i < table.len; i++) {
			char state = table.items[i].state;
			if (mark[i] && state != 'Z' && state != 'X' && !held(f, table.items[i].pid))
				take(f, table.items[i].pid, k);
		}
		if (f->len == before) {
			rc = 0;
			break;
		}
	}
	free(table.items);
	free(mark);
	if (rc != 0)
		session_thaw(f, first_pid);
	return rc;
}

int session_freeze(struct session_freeze *f, pid_t root, pid_t first_pid)
{
	struct picker k = {.uid = geteuid(), .root = root};
	k.have_exe = stat("/proc/self/exe", &k.exe) == 0;
	if (!proc_confinement_of(0, &k.self)) {
		*f = (struct session_freeze){0};
		return -1;
	}
	return freeze(f, &k, first_pid);
}

/* The terminal device fd is open on: /dev/tty's own node stands for the
 * controlling terminal, which the kernel names. */
static bool terminal_device(int fd, dev_t *dev)
{
	struct stat st;
	if (fstat(fd, &st) != 0 || !S_ISCHR(st.st_mode))
		return false;
	*dev = st.st_rdev;
	unsigned int real;
	if (ioctl(fd, TIOCGDEV, &real) == 0)
		*dev = makedev((real >> 8) & 0xfff, (real & 0xff) | ((real >> 12) & 0xfff00));
	return *dev != makedev(5, 0);
}

int terminal_freeze(struct session_freeze *f, int tty_fd)
{
	struct picker k = {.uid = geteuid(), .by_tty = true};
	if (!terminal_device(tty_fd, &k.tty) || !proc_confinement_of(0, &k.self)) {
		*f = (struct session_freeze){0};
		return -1;
	}
	return freeze(f, &k, 0);
}

pid_t terminal_newcomer(const struct session_freeze *f, int tty_fd)
{
	struct picker k = {.uid = geteuid(), .by_tty = true};
	if (!terminal_device(tty_fd, &k.tty) || !proc_confinement_of(0, &k.self))
		return 0;
	struct proc_table table = {0};
	scan_processes(&table);
	pid_t found = 0;
	for (size_t i = 0; i < table.len && !found; i++) {
		const struct proc_entry *pe = &table.items[i];
		if (pe->state != 'Z' && pe->state != 'X' && !held(f, pe->pid) && sandboxed(&k, pe->pid) &&
		    holds_tty(pe->pid, k.tty, pe->tty))
			found = pe->pid;
	}
	free(table.items);
	return found;
}

void session_thaw(struct session_freeze *f, pid_t first_pid)
{
	/* The shell last, so that it never sees its jobs stopped: continuing
	 * them first takes their stop reports back. */
	for (int pass = 0; pass < 2; pass++)
		for (size_t i = 0; i < f->len; i++) {
			struct frozen_process *p = &f->items[i];
			if (p->stopped_by_us && (p->pid == first_pid) == (pass == 1))
				send_signal(p, SIGCONT);
		}
	for (size_t i = 0; i < f->len; i++)
		if (f->items[i].pidfd >= 0)
			close(f->items[i].pidfd);
	free(f->items);
	*f = (struct session_freeze){0};
}
