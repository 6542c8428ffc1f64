/* The supervisor's process: how it starts, and its loop.
 *
 * Where it sits, and why. To read a call's arguments the supervisor reads
 * the caller's memory and copies its descriptors, which the kernel allows
 * only with ptrace access. Under Yama's ptrace_scope 1 (Ubuntu's default)
 * that means an ancestor of the caller, and PR_SET_PTRACER cannot name one
 * for processes not yet born. So the supervisor is the process the caller
 * started: at the shell's first program (so that `sbsh -c true`, which runs
 * none, forks nothing), it forks, the child goes on as the shell and loads
 * the filter, and the parent, now an ancestor of everything the session
 * will run, serves the filter's listener. It is a child subreaper, so jobs
 * that detach stay below it. It was forked after confinement: it is in the
 * sandbox's own Landlock domain, so the connections it makes for callers
 * obey the sandbox's TCP port rules and abstract-socket scope as theirs
 * would, and it holds no capability. It is not dumpable, so no process of
 * the sandbox can ptrace it, read or write its memory or take its
 * descriptors (they all run as its user).
 *
 * It also stands in for the shell towards the caller: it passes on the
 * signals a process sends it (those of the terminal reach the shell's group
 * already), and ends as the shell did. Jobs the shell left behind still
 * need answers: the supervisor then forks once more, ends as the shell did,
 * and the fork serves until the last of them is gone (the listener's
 * POLLHUP). That fork is no longer their ancestor: where Yama restricts
 * ptrace it cannot read their memory, and their covered calls are refused. */
#include "trusted/supervisor.h"
#include "trusted/supervisor_int.h"

#include <errno.h>
#include <linux/filter.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <unistd.h>

#include "lib/util.h"
#include "sandbox/sandbox.h"

void supervisor_policy_init(struct supervisor_policy *p)
{
	memset(p, 0, sizeof *p);
	strvec_init(&p->allowed);
	p->hint_fd = -1;
}

void supervisor_policy_free(struct supervisor_policy *p)
{
	free(p->grants);
	strvec_free(&p->allowed);
	memset(p, 0, sizeof *p);
	p->hint_fd = -1;
}

bool supervisor_outer_present(void)
{
	return syscall(SYS_fchmod, -1, SUPERVISOR_PROBE_MODE) == 0 || errno == ENOSYS;
}

static const int forwarded[] = {SIGTERM, SIGINT, SIGHUP, SIGQUIT, SIGUSR1, SIGUSR2, SIGALRM};

/* The terminal's signals reach the shell's group, the shell included;
 * but its hangup goes to the session's leader, which the supervisor is
 * when the shell had a terminal of its own (the broker's pty). */
static bool hangup_is_ours(const struct signalfd_siginfo *si)
{
	return si->ssi_signo == SIGHUP && getsid(0) == getpid();
}


/* Only the listener, the hint descriptor and the signals stay: the shell's
 * sockets (broker, warden, keeper), its history and events are the shell's,
 * and a supervisor that outlives it must not hold the caller's pipes. */
static void keep_only(const int *keep, size_t n)
{
	int null = open("/dev/null", O_RDWR | O_CLOEXEC);
	for (int fd = 0; fd <= 2; fd++)
		if (null >= 0 && null != fd)
			dup2(null, fd);
	int low = 3;
	while (1) {
		int next = -1;
		for (size_t i = 0; i < n; i++)
			if (keep[i] >= low && (next < 0 || keep[i] < next))
				next = keep[i];
		if (next < 0) {
			syscall(SYS_close_range, (unsigned)low, ~0u, 0u);
			return;
		}
		if (next > low)
			syscall(SYS_close_range, (unsigned)low, (unsigned)next - 1, 0u);
		low = next + 1;
	}
}

static void note_child(int sig)
{
	(void)sig;
}

static int above_stdio(int fd)
{
	if (fd < 0 || fd > 2)
		return fd;
	int moved = fcntl(fd, F_DUPFD_CLOEXEC, 3);
	close(fd);
	return moved;
}

static void drop_pending(struct supervisor *s, size_t i)
{
	pending_free(&s->pend[i]);
	s->pend[i] = s->pend[--s->npend];
}

/* The loop: calls, pending calls, signals, the shell's end. shell is 0 in
 * the fork that serves jobs left behind. */
static _Noreturn void serve(struct supervisor *s, int sigfd, pid_t shell)
{
	int shell_status = 0;
	bool shell_done = shell == 0;
	int64_t last_check = util_now_ms();
	size_t cap = 16;
	struct pollfd *pfd = xreallocarray(NULL, cap, sizeof *pfd);
	while (1) {
		if (cap < s->npend + 2) {
			cap = s->npend + 16;
			pfd = xreallocarray(pfd, cap, sizeof *pfd);
		}
		pfd[0] = (struct pollfd){.fd = s->listener, .events = POLLIN};
		pfd[1] = (struct pollfd){.fd = sigfd, .events = POLLIN};
		int64_t now = util_now_ms();
		int timeout = -1;
		for (size_t i = 0; i < s->npend; i++) {
			struct pending *p = &s->pend[i];
			bool waits_time = p->kind == PENDING_CONNECT && !p->in_progress;
			pfd[2 + i] = (struct pollfd){.fd = waits_time ? -1 : p->fd, .events = POLLOUT};
			int t = waits_time ? (int)(p->retry_ms > now ? p->retry_ms - now : 0) : 1000;
			if (timeout < 0 || t < timeout)
				timeout = t;
		}
		int n = poll(pfd, 2 + s->npend, timeout);
		if (n < 0 && errno != EINTR)
			_exit(70);
		now = util_now_ms();
		/* Signals first (one read may take the SIGCHLD of a child that
		 * ends after the sweep below, which then finds it), then the
		 * children: on a SIGCHLD, or when the listener hangs up (nobody
		 * left: the shell has gone too, whether its SIGCHLD was read or
		 * not). */
		bool sweep = n > 0 && (pfd[0].revents & POLLHUP);
		if (n > 0 && (pfd[1].revents & POLLIN)) {
			struct signalfd_siginfo si;
			while (read(sigfd, &si, sizeof si) == (ssize_t)sizeof si) {
				if (si.ssi_signo == SIGCHLD)
					sweep = true;
				else if (!shell_done && (si.ssi_code != SI_KERNEL || hangup_is_ours(&si)))
					kill(shell, (int)si.ssi_signo);
			}
		}
		if (sweep) {
			int st;
			pid_t pid;
			while ((pid = waitpid(-1, &st, WNOHANG)) > 0)
				if (pid == shell) {
					shell_status = st;
					shell_done = true;
				}
		}
		if (n > 0 && (pfd[0].revents & POLLIN)) {
			memset(s->req, 0, s->req_size);
			if (ioctl(s->listener, SECCOMP_IOCTL_NOTIF_RECV, s->req) == 0)
				supervise_call(s);
		}
		size_t np = s->npend;
		for (size_t i = np; i-- > 0;) {
			short rev = n > 0 ? pfd[2 + i].revents : 0;
			struct pending *p = &s->pend[i];
			bool due = p->kind == PENDING_CONNECT && !p->in_progress && p->retry_ms <= now;
			if ((rev || due) && pending_step(s, p, rev, now))
				drop_pending(s, i);
		}
		if (now - last_check >= 1000) {
			/* a caller killed while its call waited: nobody to answer */
			last_check = now;
			for (size_t i = s->npend; i-- > 0;)
				if (!caller_waiting(s, &s->pend[i].who))
					drop_pending(s, i);
		}
		struct pollfd hup = {.fd = s->listener, .events = POLLIN};
		bool nobody = poll(&hup, 1, 0) >= 0 && (hup.revents & POLLHUP) && !(hup.revents & POLLIN);
		if (shell_done && shell != 0) {
			if (nobody)
				util_exit_as(shell_status);
			/* jobs outlive the shell: a fork serves them, out of the
			 * caller's way (its own session, no stdio, no hints) */
			pid_t pid = fork();
			if (pid == 0) {
				setsid();
				if (s->hint_fd >= 0)
					close(s->hint_fd);
				s->hint_fd = -1;
				s->self = getpid();
				shell = 0;
				continue;
			}
			util_exit_as(shell_status);
		}
		if (shell_done && nobody) {
			/* nobody left to answer: calls still pending were of callers
			 * killed meanwhile */
			while (s->npend > 0)
				drop_pending(s, s->npend - 1);
			_exit(0);
		}
	}
}

/* The child passes the listener's number, and the parent copies it with
 * pidfd_getfd: sendmsg, which SCM_RIGHTS would need, is one of the calls
 * the filter sends to the listener nobody serves yet. */
struct handover {
	int fd;  /* the listener's number in the child, or -1 */
	int err; /* why there is none */
};

static int take_listener(int sock, pid_t child, int *err)
{
	struct handover h = {.fd = -1, .err = EPIPE};
	ssize_t n;
	do
		n = read(sock, &h, sizeof h);
	while (n < 0 && errno == EINTR);
	*err = n == (ssize_t)sizeof h ? h.err : EPIPE;
	int fd = -1;
	if (n == (ssize_t)sizeof h && h.fd >= 0) {
		int pidfd = (int)syscall(SYS_pidfd_open, child, 0);
		fd = pidfd >= 0 ? (int)syscall(SYS_pidfd_getfd, pidfd, h.fd, 0) : -1;
		if (fd < 0)
			*err = errno;
		if (pidfd >= 0)
			close(pidfd);
	}
	char done = 1;
	ssize_t ignored = write(sock, &done, 1);
	(void)ignored;
	return fd;
}

/* The parent, once the shell runs in the child: never returns. */
static _Noreturn void become_supervisor(const struct supervisor_policy *pol, pid_t shell, int sock)
{
	/* The shell's end and the signals to pass on wait from now on: a
	 * SIGCHLD that came while this process still took the shell's
	 * dispositions would be lost (its default is to drop it). */
	sigset_t set;
	sigemptyset(&set);
	for (size_t i = 0; i < sizeof forwarded / sizeof *forwarded; i++)
		sigaddset(&set, forwarded[i]);
	sigaddset(&set, SIGCHLD);
	sigprocmask(SIG_SETMASK, &set, NULL);
	int err = 0;
	int listener = take_listener(sock, shell, &err);
	close(sock);
	prctl(PR_SET_DUMPABLE, 0);
	/* The shell's filter is its child's now. A process made in the sandbox
	 * has at least one filter more than one made outside: the approver and
	 * the keeper tell them apart so (lib/proc_status.h), and the
	 * connections this process makes for callers must not pass for the
	 * human's. A filter that allows everything keeps that true. */
	struct sock_filter allow = BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW);
	struct sock_fprog marker = {.len = 1, .filter = &allow};
	syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, 0, &marker);
	prctl(PR_SET_CHILD_SUBREAPER, 1);
	/* The shell's handlers go. SIGCHLD keeps one (never run: it is
	 * blocked): set to its default, ignore, a pending one would be dropped,
	 * the shell's end with it. */
	for (int sig = 1; sig < NSIG; sig++)
		if (sig != SIGKILL && sig != SIGSTOP && sig != SIGCHLD)
			signal(sig, SIG_DFL);
	signal(SIGCHLD, note_child);
	/* the terminal's stop keys stop the shell's group, not its stand-in */
	signal(SIGPIPE, SIG_IGN);
	signal(SIGTSTP, SIG_IGN);
	signal(SIGTTIN, SIG_IGN);
	signal(SIGTTOU, SIG_IGN);
	int sigfd = signalfd(-1, &set, SFD_CLOEXEC | SFD_NONBLOCK);
	int hint = pol->hint_fd >= 0 ? fcntl(pol->hint_fd, F_DUPFD_CLOEXEC, 3) : -1;
	/* above stdio, which keep_only points at /dev/null (a shell started
	 * with stdin closed gets descriptors from 0) */
	listener = above_stdio(listener);
	sigfd = above_stdio(sigfd);
	int keep[] = {listener, sigfd, hint};
	keep_only(keep, sizeof keep / sizeof *keep);
	struct supervisor s = {.listener = listener, .pol = pol, .hint_fd = hint, .self = getpid()};
	strvec_init(&s.explained);
	struct seccomp_notif_sizes sizes = {0};
	if (listener < 0 || syscall(SYS_seccomp, SECCOMP_GET_NOTIF_SIZES, 0, &sizes) != 0) {
		/* no listener after all: only the stand-in is left to be */
		s.listener = -1;
		if (listener >= 0)
			close(listener);
		int st;
		while (1) {
			struct signalfd_siginfo si;
			struct pollfd p = {.fd = sigfd, .events = POLLIN};
			poll(&p, 1, -1);
			while (read(sigfd, &si, sizeof si) == (ssize_t)sizeof si) {
				if (si.ssi_signo != SIGCHLD && (si.ssi_code != SI_KERNEL || hangup_is_ours(&si)))
					kill(shell, (int)si.ssi_signo);
			}
			pid_t pid;
			while ((pid = waitpid(-1, &st, WNOHANG)) > 0)
				if (pid == shell)
					util_exit_as(st);
		}
	}
	s.req_size = sizes.seccomp_notif > sizeof *s.req ? sizes.seccomp_notif : sizeof *s.req;
	s.resp_size = sizes.seccomp_notif_resp > sizeof *s.resp ? sizes.seccomp_notif_resp : sizeof *s.resp;
	s.req = xcalloc(1, s.req_size);
	s.resp = xcalloc(1, s.resp_size);
	serve(&s, sigfd, shell);
}

int supervisor_start(const struct supervisor_policy *policy, unsigned guard, char **why)
{
	*why = NULL;
	/* no fork for a supervisor the kernel could not give work to */
	uint32_t notif = SECCOMP_RET_USER_NOTIF;
	if (syscall(SYS_seccomp, SECCOMP_GET_ACTION_AVAIL, 0, &notif) != 0) {
		*why = xasprintf("seccomp user notification is not available: %s", strerror(errno));
		return 0;
	}
	int sv[2];
	if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv) != 0) {
		*why = xasprintf("socketpair: %s", strerror(errno));
		return 0;
	}
	int subreaper = 0;
	prctl(PR_GET_CHILD_SUBREAPER, &subreaper);
	fflush(stdout);
	fflush(stderr);
	pid_t parent = getpid();
	pid_t pid = fork();
	if (pid < 0) {
		*why = xasprintf("fork: %s", strerror(errno));
		close(sv[0]);
		close(sv[1]);
		return 0;
	}
	if (pid > 0) {
		close(sv[1]);
		become_supervisor(policy, pid, sv[0]);
	}
	/* the shell, from now on: it dies with its stand-in */
	close(sv[0]);
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (getppid() != parent)
		_exit(128 + SIGKILL);
	if (subreaper)
		prctl(PR_SET_CHILD_SUBREAPER, 1);
	int listener = -1;
	int err = sandbox_supervisor_load(&listener, guard) == 0 ? 0 : errno;
	struct handover h = {.fd = listener, .err = err};
	char done;
	if (write(sv[1], &h, sizeof h) == (ssize_t)sizeof h)
		while (read(sv[1], &done, 1) < 0 && errno == EINTR) {
		}
	close(sv[1]);
	if (listener >= 0)
		close(listener);
	if (err)
		*why = xasprintf("the supervisor's filter could not be loaded: %s", strerror(err));
	return 1;
}

static int yama_scope(void)
{
	int scope = -1;
	FILE *f = fopen("/proc/sys/kernel/yama/ptrace_scope", "re");
	if (f) {
		if (fscanf(f, "%d", &scope) != 1)
			scope = -1;
		fclose(f);
	}
	return scope;
}

void supervisor_report(struct supervisor_report *out)
{
	memset(out, 0, sizeof *out);
	out->yama = yama_scope();
	if (supervisor_outer_present()) {
		out->outer = out->available = true;
		snprintf(out->why, sizeof out->why, "an outer sbsh's supervisor covers this session");
		return;
	}
	/* A child loads the filter and waits; this process, its parent as the
	 * supervisor is the shell's, reads a word of its memory. */
	int pipefd[2];
	if (pipe2(pipefd, O_CLOEXEC) != 0) {
		snprintf(out->why, sizeof out->why, "pipe: %s", strerror(errno));
		return;
	}
	static volatile int marker = 0x53425356;
	pid_t pid = fork();
	if (pid == 0) {
		int listener = -1;
		int err = sandbox_supervisor_load(&listener, 0) == 0 ? 0 : errno;
		ssize_t ignored = write(pipefd[1], &err, sizeof err);
		(void)ignored;
		pause();
		_exit(0);
	}
	close(pipefd[1]);
	int err = EPIPE;
	if (pid < 0 || read(pipefd[0], &err, sizeof err) != (ssize_t)sizeof err)
		err = pid < 0 ? errno : EPIPE;
	close(pipefd[0]);
	int seen = 0;
	bool readable = false;
	if (pid > 0) {
		struct iovec local = {.iov_base = &seen, .iov_len = sizeof seen};
		struct iovec remote = {.iov_base = (void *)&marker, .iov_len = sizeof marker};
		readable = process_vm_readv(pid, &local, 1, &remote, 1, 0) == (ssize_t)sizeof seen && seen == marker;
		int saved = errno;
		kill(pid, SIGKILL);
		while (waitpid(pid, NULL, 0) < 0 && errno == EINTR) {
		}
		errno = saved;
	}
	if (err == EBUSY)
		snprintf(out->why, sizeof out->why, "another program's seccomp listener already covers this process");
	else if (err == EINVAL || err == ENOSYS || err == EOPNOTSUPP)
		snprintf(out->why, sizeof out->why,
		         "this kernel lacks seccomp user notification with WAIT_KILLABLE_RECV (Linux 5.19): %s",
		         strerror(err));
	else if (err)
		snprintf(out->why, sizeof out->why, "the filter could not be loaded: %s", strerror(err));
	else if (!readable)
		snprintf(out->why, sizeof out->why, "the supervisor cannot read its children's memory%s",
		         out->yama >= 2 ? " (Yama's ptrace_scope is 2 or more: only CAP_SYS_PTRACE may)" : "");
	else
		out->available = true;
	if (out->available && out->yama == 1)
		snprintf(out->why, sizeof out->why,
		         "Yama's ptrace_scope is 1: jobs that outlive the shell have their covered calls refused");
}
