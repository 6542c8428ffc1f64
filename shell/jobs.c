/* The job table: background jobs, stopped jobs, their statuses until the
 * script asks for them, job control with process groups and the terminal,
 * and the builtins that live on the table (wait, jobs, fg, bg). */
#include "shell/shell.h"
#include "builtins/builtins.h"
#include "shell/trap.h"
#include "shell/jobs.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <termios.h>
#include <unistd.h>

enum job_state { JOB_RUNNING, JOB_STOPPED, JOB_DONE };

struct proc {
	pid_t pid;
	int wstatus;
	bool done, stopped;
};

struct job {
	int id;
	pid_t pgid;
	struct proc *procs;
	size_t nprocs;
	char *text;
	bool background;
	bool notify;  /* state changed, not yet reported */
	unsigned long stamp; /* recency, for %+ and %- */
	struct termios tmodes; /* terminal modes when it stopped */
	bool has_tmodes;
	struct job *next;
};

struct job_table {
	struct job *head;
	unsigned long clock;
	/* Kept only to bound memory in scripts that never wait. */
	size_t ndone;
};

/* Done background jobs nobody waited for; older ones are forgotten. */
#define JOBS_MAX_DONE 1024

static struct job_table *table(struct shell *sh)
{
	return sh->jobs;
}

void jobs_init(struct shell *sh)
{
	sh->jobs = xcalloc(1, sizeof *sh->jobs);
}

static void job_free(struct job *j)
{
	free(j->procs);
	free(j->text);
	free(j);
}

void jobs_free(struct shell *sh)
{
	struct job_table *t = sh->jobs;
	if (!t)
		return;
	for (struct job *j = t->head, *next; j; j = next) {
		next = j->next;
		job_free(j);
	}
	free(t);
	sh->jobs = NULL;
}

int jobs_status_of(int wstatus)
{
	if (WIFEXITED(wstatus))
		return WEXITSTATUS(wstatus);
	if (WIFSIGNALED(wstatus))
		return 128 + WTERMSIG(wstatus);
	if (WIFSTOPPED(wstatus))
		return 128 + WSTOPSIG(wstatus);
	return 1;
}

static enum job_state job_state(const struct job *j)
{
	bool any_stopped = false;
	for (size_t i = 0; i < j->nprocs; i++) {
		if (!j->procs[i].done) {
			if (!j->procs[i].stopped)
				return JOB_RUNNING;
			any_stopped = true;
		}
	}
	return any_stopped ? JOB_STOPPED : JOB_DONE;
}

static int job_status(struct shell *sh, const struct job *j)
{
	if (j->nprocs == 0)
		return 0;
	if (sh->opt.pipefail) {
		for (size_t i = j->nprocs; i-- > 0;) {
			int st = jobs_status_of(j->procs[i].wstatus);
			if (st != 0)
				return st;
		}
		return 0;
	}
	return jobs_status_of(j->procs[j->nprocs - 1].wstatus);
}

void jobs_pipestatus_push(struct shell *sh, int status, bool reset)
{
	if (reset)
		sh->npipestatus = 0;
	if (sh->npipestatus == sh->pipestatus_cap) {
		sh->pipestatus_cap = sh->pipestatus_cap ? sh->pipestatus_cap * 2 : 8;
		sh->pipestatus = xreallocarray(sh->pipestatus, sh->pipestatus_cap, sizeof *sh->pipestatus);
	}
	sh->pipestatus[sh->npipestatus++] = status;
}

bool jobs_any_stopped(struct shell *sh)
{
	for (struct job *j = table(sh)->head; j; j = j->next)
		if (job_state(j) == JOB_STOPPED)
			return true;
	return false;
}

static void remove_job(struct shell *sh, struct job *job)
{
	struct job_table *t = table(sh);
	for (struct job **pp = &t->head; *pp; pp = &(*pp)->next) {
		if (*pp == job) {
			*pp = job->next;
			if (job_state(job) == JOB_DONE && job->background && t->ndone > 0)
				t->ndone--;
			job_free(job);
			return;
		}
	}
}

static void forget_old_done(struct shell *sh)
{
	struct job_table *t = table(sh);
	while (t->ndone > JOBS_MAX_DONE) {
		struct job *oldest = NULL;
		for (struct job *j = t->head; j; j = j->next)
			if (j->background && job_state(j) == JOB_DONE && (!oldest || j->stamp < oldest->stamp))
				oldest = j;
		if (!oldest)
			break;
		remove_job(sh, oldest);
	}
}

struct job *jobs_add(struct shell *sh, pid_t pgid, const pid_t *pids, size_t npids, const char *text, bool background)
{
	struct job_table *t = table(sh);
	struct job *j = xcalloc(1, sizeof *j);
	/* Like bash: one more than the highest job number in use. The list
	 * is sorted by id, so the new job goes at its end. */
	struct job **pp = &t->head;
	int id = 1;
	while (*pp) {
		id = (*pp)->id + 1;
		pp = &(*pp)->next;
	}
	j->id = id;
	j->pgid = pgid;
	j->procs = xcalloc(npids ? npids : 1, sizeof *j->procs);
	for (size_t i = 0; i < npids; i++)
		j->procs[i].pid = pids[i];
	j->nprocs = npids;
	j->text = xstrdup(text ? text : "");
	j->background = background;
	j->stamp = ++t->clock;
	*pp = j;
	if (background && sh->opt.interactive && !sh->in_subshell && npids) {
		fflush(stdout);
		fprintf(stderr, "[%d] %d\n", id, (int)pids[npids - 1]);
	}
	return j;
}

/* Stores a reaped status in whichever job has that pid. */
static struct job *record_status(struct shell *sh, pid_t pid, int wstatus)
{
	for (struct job *j = table(sh)->head; j; j = j->next) {
		for (size_t i = 0; i < j->nprocs; i++) {
			struct proc *p = &j->procs[i];
			if (p->pid != pid)
				continue;
			enum job_state before = job_state(j);
			p->wstatus = wstatus;
			if (WIFSTOPPED(wstatus)) {
				p->stopped = true;
			} else if (WIFCONTINUED(wstatus)) {
				p->stopped = false;
			} else {
				p->done = true;
				p->stopped = false;
			}
			enum job_state after = job_state(j);
			if (after != before) {
				j->notify = true;
				if (after == JOB_STOPPED)
					j->stamp = ++table(sh)->clock;
				if (after == JOB_DONE && j->background)
					table(sh)->ndone++;
			}
			return j;
		}
	}
	return NULL;
}

static const char *describe_state(const struct job *j, char *buf, size_t size)
{
	switch (job_state(j)) {
	case JOB_RUNNING:
		return "Running";
	case JOB_STOPPED:
		return "Stopped";
	case JOB_DONE:
		break;
	}
	int ws = j->procs[j->nprocs ? j->nprocs - 1 : 0].wstatus;
	if (j->nprocs && WIFSIGNALED(ws)) {
		int sig = WTERMSIG(ws);
		const char *d = strsignal(sig);
		snprintf(buf, size, "%s", d ? d : "Signal");
		return buf;
	}
	int st = j->nprocs ? jobs_status_of(ws) : 0;
	if (st == 0)
		return "Done";
	snprintf(buf, size, "Exit %d", st);
	return buf;
}

/* Ranks jobs for %+ / %-: stopped jobs first, then the most recent. */
static bool ranks_before(const struct job *a, const struct job *b)
{
	bool sa = job_state(a) == JOB_STOPPED, sb = job_state(b) == JOB_STOPPED;
	if (sa != sb)
		return sa;
	return a->stamp > b->stamp;
}

static struct job *current_job(struct shell *sh, int which)
{
	/* which 0: current (+), 1: previous (-). */
	struct job *first = NULL, *second = NULL;
	for (struct job *j = table(sh)->head; j; j = j->next) {
		if (!first || ranks_before(j, first)) {
			second = first;
			first = j;
		} else if (!second || ranks_before(j, second)) {
			second = j;
		}
	}
	return which == 0 ? first : second;
}

static char job_mark(struct shell *sh, const struct job *j)
{
	if (j == current_job(sh, 0))
		return '+';
	if (j == current_job(sh, 1))
		return '-';
	return ' ';
}

static void print_job(struct shell *sh, const struct job *j, FILE *out, bool with_pid)
{
	char buf[64];
	const char *state = describe_state(j, buf, sizeof buf);
	bool amp = job_state(j) == JOB_RUNNING && j->background;
	if (with_pid)
		fprintf(out, "[%d]%c %d %-24s%s%s\n", j->id, job_mark(sh, j), (int)(j->nprocs ? j->procs[0].pid : 0), state, j->text, amp ? " &" : "");
	else
		fprintf(out, "[%d]%c  %-24s%s%s\n", j->id, job_mark(sh, j), state, j->text, amp ? " &" : "");
}

void jobs_reap(struct shell *sh)
{
	int wstatus;
	pid_t pid;
	int flags = WNOHANG | (sh->opt.monitor ? WUNTRACED | WCONTINUED : 0);
	while ((pid = waitpid(-1, &wstatus, flags)) > 0)
		record_status(sh, pid, wstatus);
	/* Interactive shells tell about finished background jobs and forget
	 * them; scripts keep them for `wait`. */
	if (sh->opt.interactive) {
		for (struct job *j = table(sh)->head, *next; j; j = next) {
			next = j->next;
			if (!j->notify)
				continue;
			j->notify = false;
			enum job_state st = job_state(j);
			if (st == JOB_DONE && j->background) {
				fflush(stdout);
				print_job(sh, j, stderr, false);
				remove_job(sh, j);
			} else if (st == JOB_STOPPED) {
				fflush(stdout);
				print_job(sh, j, stderr, false);
			}
		}
	}
	forget_old_done(sh);
}

int jobs_wait_pid(struct shell *sh, pid_t pid)
{
	(void)sh;
	int wstatus;
	for (;;) {
		pid_t r = waitpid(pid, &wstatus, 0);
		if (r == pid)
			return wstatus;
		if (r < 0 && errno != EINTR)
			return -1;
	}
}

void jobs_set_terminal(struct shell *sh, pid_t pgid)
{
	if (!sh->opt.monitor || sh->tty_fd < 0)
		return;
	pid_t target = pgid ? pgid : sh->shell_pgid;
	tcsetpgrp(sh->tty_fd, target);
}

void jobs_hangup(struct shell *sh)
{
	for (struct job *j = table(sh)->head; j; j = j->next) {
		if (job_state(j) == JOB_DONE)
			continue;
		/* SIGCONT: a stopped job must run to hear it. */
		if (j->pgid > 0) {
			kill(-j->pgid, SIGHUP);
			kill(-j->pgid, SIGCONT);
			continue;
		}
		for (size_t i = 0; i < j->nprocs; i++) {
			if (!j->procs[i].done) {
				kill(j->procs[i].pid, SIGHUP);
				kill(j->procs[i].pid, SIGCONT);
			}
		}
	}
}

int jobs_wait_foreground(struct shell *sh, struct job *job)
{
	bool monitor = sh->opt.monitor;
	int flags = monitor ? WUNTRACED : 0;
	while (job_state(job) == JOB_RUNNING) {
		/* Wait for any process of this job; in monitor mode one stop ends
		 * the wait, the rest of the group stops with it. */
		pid_t target = -1;
		for (size_t i = 0; i < job->nprocs; i++)
			if (!job->procs[i].done && !job->procs[i].stopped) {
				target = job->procs[i].pid;
				break;
			}
		int wstatus;
		pid_t r = waitpid(target, &wstatus, flags);
		if (r < 0) {
			/* The terminal went away (trap.c: hup_jobs): the job hears
			 * it now, the shell dies of it once the job is gone. */
			if (errno == EINTR && trap_pending_signal() == SIGHUP)
				jobs_hangup(sh);
			if (errno == EINTR)
				continue;
			/* ECHILD: somebody reaped it; treat as done. */
			for (size_t i = 0; i < job->nprocs; i++)
				if (job->procs[i].pid == target)
					job->procs[i].done = true;
			continue;
		}
		if (!record_status(sh, r, wstatus) && r != target)
			continue;
	}
	int status = job_status(sh, job);
	for (size_t i = 0; i < job->nprocs; i++) {
		int ws = job->procs[i].wstatus;
		int st = job->procs[i].stopped ? 128 + SIGTSTP : jobs_status_of(ws);
		jobs_pipestatus_push(sh, st, i == 0);
	}
	if (monitor) {
		if (sh->tty_fd >= 0 && job_state(job) == JOB_STOPPED) {
			job->has_tmodes = tcgetattr(sh->tty_fd, &job->tmodes) == 0;
		}
		jobs_set_terminal(sh, 0);
	}
	enum job_state st = job_state(job);
	if (st == JOB_STOPPED) {
		job->background = true;
		job->notify = false;
		fflush(stdout);
		fputc('\n', stderr);
		print_job(sh, job, stderr, false);
		return 128 + SIGTSTP;
	}
	/* A foreground job killed by a signal: tell, as shells do, except for
	 * the ones users send on purpose. */
	if (job->nprocs) {
		int ws = job->procs[job->nprocs - 1].wstatus;
		if (WIFSIGNALED(ws)) {
			int sig = WTERMSIG(ws);
			if (sig == SIGINT && sh->opt.interactive) {
				sh->interrupted = true;
				fputc('\n', stderr);
			} else if (sig != SIGINT && sig != SIGPIPE) {
				const char *d = strsignal(sig);
				fflush(stdout);
				fprintf(stderr, "%s%s\n", d ? d : "Killed", WCOREDUMP(ws) ? " (core dumped)" : "");
			}
		}
	}
	remove_job(sh, job);
	return status;
}

void jobs_set_monitor(struct shell *sh, bool on)
{
	if (!on) {
		if (sh->opt.monitor)
			trap_setup_interactive(sh, sh->opt.interactive, false);
		sh->opt.monitor = false;
		return;
	}
	if (sh->tty_fd < 0) {
		/* Kept high, out of the way of fds scripts use (bash: 255). */
		int fd = open("/dev/tty", O_RDWR | O_CLOEXEC);
		int src = fd >= 0 ? fd : (isatty(0) ? 0 : -1);
		int high = -1;
		if (src >= 0) {
			high = fcntl(src, F_DUPFD_CLOEXEC, 255);
			if (high < 0)
				high = fcntl(src, F_DUPFD_CLOEXEC, 10);
		}
		if (fd >= 0)
			close(fd);
		fd = high;
		if (fd < 0) {
			shell_warn("cannot set terminal process group: no terminal; job control off");
			sh->opt.monitor = false;
			return;
		}
		sh->tty_fd = fd;
	}
	/* Wait until we are in the foreground before taking the terminal. */
	for (;;) {
		pid_t fg = tcgetpgrp(sh->tty_fd);
		if (fg < 0) {
			shell_warn("cannot set terminal process group: job control off");
			close(sh->tty_fd);
			sh->tty_fd = -1;
			sh->opt.monitor = false;
			return;
		}
		if (fg == getpgrp())
			break;
		kill(0, SIGTTIN);
	}
	trap_setup_interactive(sh, sh->opt.interactive, true);
	pid_t me = getpid();
	if (getpgrp() != me && setpgid(0, me) < 0) {
		shell_warn("cannot set process group: job control off");
		sh->opt.monitor = false;
		return;
	}
	sh->shell_pgid = me;
	tcsetpgrp(sh->tty_fd, me);
	sh->opt.monitor = true;
}

/* ---- job specs ---------------------------------------------------------- */

static struct job *find_job(struct shell *sh, const char *spec, const char *cmd)
{
	if (spec[0] != '%') {
		char *end;
		long pid = strtol(spec, &end, 10);
		if (*end == '\0' && pid > 0) {
			for (struct job *j = table(sh)->head; j; j = j->next)
				for (size_t i = 0; i < j->nprocs; i++)
					if (j->procs[i].pid == pid)
						return j;
		}
		shell_error(sh, "%s: %s: no such job", cmd, spec);
		return NULL;
	}
	const char *s = spec + 1;
	struct job *found = NULL;
	if (*s == '\0' || strcmp(s, "%") == 0 || strcmp(s, "+") == 0) {
		found = current_job(sh, 0);
	} else if (strcmp(s, "-") == 0) {
		found = current_job(sh, 1);
	} else if (*s >= '0' && *s <= '9') {
		long id = strtol(s, NULL, 10);
		for (struct job *j = table(sh)->head; j; j = j->next)
			if (j->id == id)
				found = j;
	} else {
		bool contains = *s == '?';
		if (contains)
			s++;
		for (struct job *j = table(sh)->head; j; j = j->next) {
			bool match = contains ? strstr(j->text, s) != NULL : strncmp(j->text, s, strlen(s)) == 0;
			if (!match)
				continue;
			if (found) {
				shell_error(sh, "%s: %s: ambiguous job spec", cmd, spec);
				return NULL;
			}
			found = j;
		}
	}
	if (!found)
		shell_error(sh, "%s: %s: no such job", cmd, spec);
	return found;
}

int jobs_signal(struct shell *sh, const char *spec, int sig, const char *cmd)
{
	if (spec[0] == '%') {
		struct job *j = find_job(sh, spec, cmd);
		if (!j)
			return -1;
		int rc = 0;
		if (sh->opt.monitor && j->pgid > 0) {
			rc = kill(-j->pgid, sig);
		} else {
			for (size_t i = 0; i < j->nprocs; i++)
				if (!j->procs[i].done && kill(j->procs[i].pid, sig) < 0)
					rc = -1;
		}
		if (rc < 0) {
			shell_error(sh, "%s: %s: %s", cmd, spec, strerror(errno));
			return -1;
		}
		if (sig == SIGCONT || sig == SIGKILL || sig == SIGTERM)
			for (size_t i = 0; i < j->nprocs; i++)
				if (sig == SIGCONT)
					j->procs[i].stopped = false;
		return 0;
	}
	char *end;
	errno = 0;
	long pid = strtol(spec, &end, 10);
	if (*spec == '\0' || *end != '\0' || errno) {
		shell_error(sh, "%s: %s: arguments must be process or job IDs", cmd, spec);
		return -1;
	}
	if (kill((pid_t)pid, sig) < 0) {
		shell_error(sh, "%s: (%ld) - %s", cmd, pid, strerror(errno));
		return -1;
	}
	return 0;
}

/* ---- builtins: wait, jobs, fg, bg ---------------------------------------- */

/* Blocks until pid changes state; returns false when interrupted by a
 * trapped signal (wait must then return 128+N). */
static bool wait_one(struct shell *sh, pid_t pid, bool *gone)
{
	int wstatus;
	*gone = false;
	for (;;) {
		if (trap_pending_signal())
			return false;
		pid_t r = waitpid(pid, &wstatus, 0);
		if (r > 0) {
			record_status(sh, r, wstatus);
			return true;
		}
		if (r < 0 && errno == EINTR) {
			if (trap_pending_signal())
				return false;
			continue;
		}
		*gone = true;
		return true;
	}
}

/* Waits for every process of a job; -1 when a trap interrupted. */
static int wait_job(struct shell *sh, struct job *j)
{
	for (size_t i = 0; i < j->nprocs; i++) {
		while (!j->procs[i].done) {
			bool gone;
			if (!wait_one(sh, j->procs[i].pid, &gone))
				return -1;
			if (gone) {
				j->procs[i].done = true;
				j->procs[i].wstatus = 127 << 8;
			}
		}
	}
	return job_status(sh, j);
}

static int wait_interrupted(struct shell *sh)
{
	int sig = trap_pending_signal();
	(void)sh;
	return 128 + (sig ? sig : SIGINT);
}

static int wait_builtin(struct shell *sh, int argc, char **argv);

/* bash, non-interactive: a job that `wait` finds killed by a signal is
 * reported ("Killed", "Hangup"), but for the signals a script sends its
 * own jobs as a matter of course (INT, TERM, PIPE). */
static void report_signaled(struct shell *sh, const struct job *j)
{
	if (sh->opt.interactive || !j->background || j->nprocs == 0)
		return;
	const struct proc *p = &j->procs[j->nprocs - 1];
	if (!p->done || !WIFSIGNALED(p->wstatus))
		return;
	int sig = WTERMSIG(p->wstatus);
	if (sig == SIGINT || sig == SIGTERM || sig == SIGPIPE)
		return;
	const char *desc = strsignal(sig);
	shell_error(sh, "%ld %-24s%s", (long)p->pid, desc ? desc : "Killed", j->text ? j->text : "");
}

BUILTIN_FN(wait)
{
	trap_set_interruptible(sh, true);
	int status = wait_builtin(sh, argc, argv);
	trap_set_interruptible(sh, false);
	return status;
}

static int wait_builtin(struct shell *sh, int argc, char **argv)
{
	int i = 1;
	bool any = false;
	while (i < argc && argv[i][0] == '-' && argv[i][1]) {
		if (strcmp(argv[i], "--") == 0) {
			i++;
			break;
		}
		if (strcmp(argv[i], "-n") == 0) {
			any = true;
			i++;
			continue;
		}
		shell_warn("wait: %s: invalid option", argv[i]);
		return 2;
	}
	jobs_reap(sh);
	if (any && i >= argc) {
		/* wait -n: the next job to finish. */
		bool have = false;
		for (struct job *j = table(sh)->head; j; j = j->next)
			if (job_state(j) == JOB_DONE && j->background) {
				int st = job_status(sh, j);
				remove_job(sh, j);
				return st;
			} else if (job_state(j) == JOB_RUNNING) {
				have = true;
			}
		if (!have)
			return 127;
		for (;;) {
			int wstatus;
			pid_t r = waitpid(-1, &wstatus, 0);
			if (r < 0) {
				if (errno == EINTR && trap_pending_signal())
					return wait_interrupted(sh);
				if (errno == EINTR)
					continue;
				return 127;
			}
			struct job *j = record_status(sh, r, wstatus);
			if (j && job_state(j) == JOB_DONE) {
				int st = job_status(sh, j);
				remove_job(sh, j);
				return st;
			}
		}
	}
	if (i >= argc) {
		for (;;) {
			struct job *j = table(sh)->head;
			while (j && job_state(j) != JOB_RUNNING)
				j = j->next;
			if (!j)
				break;
			if (wait_job(sh, j) < 0)
				return wait_interrupted(sh);
		}
		/* Everything waited for is forgotten. */
		for (struct job *j = table(sh)->head, *next; j; j = next) {
			next = j->next;
			if (job_state(j) == JOB_DONE)
				remove_job(sh, j);
		}
		return 0;
	}
	int status = 0;
	for (; i < argc; i++) {
		const char *spec = argv[i];
		struct job *j = NULL;
		pid_t pid = 0;
		if (spec[0] == '%') {
			j = find_job(sh, spec, "wait");
			if (!j) {
				status = 127;
				continue;
			}
		} else {
			char *end;
			long n = strtol(spec, &end, 10);
			if (*spec == '\0' || *end || n <= 0) {
				/* wait -n: no such job, 127, as bash */
				if (any)
					shell_error(sh, "wait: %s: no such job", spec);
				else
					shell_error(sh, "wait: `%s': not a pid or valid job spec", spec);
				status = any ? 127 : 2;
				continue;
			}
			pid = (pid_t)n;
			for (struct job *k = table(sh)->head; k && !j; k = k->next)
				for (size_t p = 0; p < k->nprocs; p++)
					if (k->procs[p].pid == pid)
						j = k;
			if (!j) {
				shell_error(sh, "wait: pid %ld is not a child of this shell", n);
				status = 127;
				continue;
			}
		}
		int st;
		if (pid) {
			/* A pid: its own status, not the job's. */
			/* j was found by this pid: one of its procs has it. */
			struct proc *p = j->procs;
			for (size_t k = 0; k < j->nprocs; k++)
				if (j->procs[k].pid == pid)
					p = &j->procs[k];
			while (!p->done) {
				bool gone;
				if (!wait_one(sh, pid, &gone))
					return wait_interrupted(sh);
				if (gone) {
					p->done = true;
					p->wstatus = 127 << 8;
				}
			}
			st = jobs_status_of(p->wstatus);
		} else {
			st = wait_job(sh, j);
			if (st < 0)
				return wait_interrupted(sh);
		}
		if (job_state(j) == JOB_DONE) {
			report_signaled(sh, j);
			remove_job(sh, j);
		}
		status = st;
	}
	return status;
}

BUILTIN_FN(jobs)
{
	struct builtin_getopt g = {.index = 1};
	bool with_pid = false, only_pid = false;
	int c;
	while ((c = builtin_getopt(&g, argc, argv, "lprs", "jobs")) != -1) {
		if (c == '?')
			return 2;
		if (c == 'l')
			with_pid = true;
		else if (c == 'p')
			only_pid = true;
	}
	jobs_reap(sh);
	int status = 0;
	struct job *only = NULL;
	for (int i = g.index; i <= argc; i++) {
		if (g.index < argc) {
			if (i == argc)
				break;
			only = find_job(sh, argv[i], "jobs");
			if (!only) {
				status = 1;
				continue;
			}
		}
		for (struct job *j = table(sh)->head; j; j = j->next) {
			if (only && j != only)
				continue;
			if (only_pid)
				printf("%d\n", (int)(j->pgid > 0 ? j->pgid : (j->nprocs ? j->procs[0].pid : 0)));
			else
				print_job(sh, j, stdout, with_pid);
			j->notify = false;
		}
		if (g.index >= argc)
			break;
	}
	/* Done jobs are forgotten once listed. */
	for (struct job *j = table(sh)->head, *next; j; j = next) {
		next = j->next;
		if (job_state(j) == JOB_DONE && (!only || j == only))
			remove_job(sh, j);
	}
	return status;
}

static struct job *job_arg(struct shell *sh, int argc, char **argv, const char *cmd)
{
	int i = 1;
	if (i < argc && strcmp(argv[i], "--") == 0)
		i++;
	if (i < argc)
		return find_job(sh, argv[i], cmd);
	struct job *j = current_job(sh, 0);
	if (!j)
		shell_error(sh, "%s: current: no such job", cmd);
	return j;
}

static void continue_job(struct shell *sh, struct job *j)
{
	for (size_t i = 0; i < j->nprocs; i++)
		j->procs[i].stopped = false;
	if (sh->opt.monitor && j->pgid > 0) {
		kill(-j->pgid, SIGCONT);
	} else {
		for (size_t i = 0; i < j->nprocs; i++)
			if (!j->procs[i].done)
				kill(j->procs[i].pid, SIGCONT);
	}
}

BUILTIN_FN(fg)
{
	if (!sh->opt.monitor) {
		shell_error(sh, "fg: no job control");
		return 1;
	}
	struct job *j = job_arg(sh, argc, argv, "fg");
	if (!j)
		return 1;
	printf("%s\n", j->text);
	fflush(stdout);
	j->background = false;
	if (sh->tty_fd >= 0) {
		if (j->has_tmodes)
			tcsetattr(sh->tty_fd, TCSADRAIN, &j->tmodes);
		jobs_set_terminal(sh, j->pgid);
	}
	continue_job(sh, j);
	return jobs_wait_foreground(sh, j);
}

BUILTIN_FN(bg)
{
	if (!sh->opt.monitor) {
		shell_error(sh, "bg: no job control");
		return 1;
	}
	struct job *j = job_arg(sh, argc, argv, "bg");
	if (!j)
		return 1;
	if (job_state(j) == JOB_DONE) {
		shell_error(sh, "bg: job has terminated");
		return 1;
	}
	j->background = true;
	continue_job(sh, j);
	printf("[%d]%c %s &\n", j->id, job_mark(sh, j), j->text);
	return 0;
}
