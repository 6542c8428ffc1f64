#include "trusted/session_freeze.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
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
};

struct proc_table {
	struct proc_entry *items;
	size_t len, cap;
};

static bool read_stat(pid_t pid, pid_t *ppid, char *state)
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
	long parent = 0;
	char st = '?';
	if (!p || sscanf(p + 1, " %c %ld", &st, &parent) != 2)
		return false;
	*ppid = (pid_t)parent;
	*state = st;
	return true;
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
		if (*end || pid <= 0)
			continue;
		struct proc_entry pe = {.pid = (pid_t)pid};
		if (!read_stat(pe.pid, &pe.ppid, &pe.state))
			continue;
		if (t->len == t->cap) {
			t->cap = t->cap ? t->cap * 2 : 256;
			t->items = xreallocarray(t->items, t->cap, sizeof *t->items);
		}
		t->items[t->len++] = pe;
	}
	closedir(d);
}

/* Marks the descendants of root in the table (mark[i] true). */
static void mark_descendants(const struct proc_table *t, pid_t root, bool *mark)
{
	for (size_t i = 0; i < t->len; i++)
		mark[i] = false;
	bool grew = true;
	while (grew) {
		grew = false;
		for (size_t i = 0; i < t->len; i++) {
			if (mark[i])
				continue;
			pid_t parent = t->items[i].ppid;
			bool under = parent == root;
			for (size_t j = 0; !under && j < t->len; j++)
				under = mark[j] && t->items[j].pid == parent;
			if (under) {
				mark[i] = true;
				grew = true;
			}
		}
	}
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

/* Takes pid into f and stops it, if it is one of the session's sandboxed
 * processes. Checked again once the pidfd holds it: the pid read from
 * /proc may have been reused since. */
static void take(struct session_freeze *f, pid_t pid, pid_t root, const struct proc_confinement *self)
{
	int pidfd = (int)syscall(SYS_pidfd_open, pid, 0);
	if (pidfd < 0 && errno != ENOSYS)
		return;
	struct proc_confinement conf;
	pid_t ppid;
	char state;
	if (!proc_descends_from(pid, root) || !proc_confinement_of(pid, &conf) ||
	    !proc_outside_sandbox_of(self, &conf) || !read_stat(pid, &ppid, &state) || state == 'Z' || state == 'X') {
		if (pidfd >= 0)
			close(pidfd);
		return;
	}
	if (f->len == f->cap) {
		f->cap = f->cap ? f->cap * 2 : 16;
		f->items = xreallocarray(f->items, f->cap, sizeof *f->items);
	}
	struct frozen_process *p = &f->items[f->len++];
	*p = (struct frozen_process){.pid = pid, .pidfd = pidfd, .stopped_by_us = state != 'T'};
	if (p->stopped_by_us)
		send_signal(p, SIGSTOP);
}

static bool all_stopped(const struct session_freeze *f)
{
	for (size_t i = 0; i < f->len; i++) {
		pid_t ppid;
		char state;
		if (f->items[i].stopped_by_us && read_stat(f->items[i].pid, &ppid, &state) && !is_stopped_state(state))
			return false;
	}
	return true;
}

int session_freeze(struct session_freeze *f, pid_t root, pid_t first_pid)
{
	*f = (struct session_freeze){0};
	struct proc_confinement self;
	if (!proc_confinement_of(0, &self))
		return -1;
	if (first_pid > 0)
		take(f, first_pid, root, &self);
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
		mark_descendants(&table, root, mark);
		size_t before = f->len;
		for (size_t i = 0; i < table.len; i++) {
			char state = table.items[i].state;
			if (mark[i] && state != 'Z' && state != 'X' && !held(f, table.items[i].pid))
				take(f, table.items[i].pid, root, &self);
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
