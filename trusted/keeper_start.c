/* Finding and starting a project's keeper (trusted/keeper.h), from sbsh's
 * front end before confinement, and handing `sbsh --review` to it. The
 * keeper is the program sbsh-keeper beside sbsh (or in pkglibexecdir). */
#include "trusted/keeper_start.h"
#include "lib/project.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "lib/util.h"
#include "trusted/approver_socket.h"
#include "sandbox/sandbox.h"
#include "trusted/baseline.h"
#include "trusted/keeper.h"

#ifndef SBSH_PKGLIBEXECDIR
#define SBSH_PKGLIBEXECDIR "/usr/local/libexec/sbsh"
#endif

char *keeper_state_dir(const char *root)
{
	return protect_state_dir(root);
}

char *keeper_project_root(const char *cwd)
{
	return project_top(cwd);
}

char *keeper_program(void)
{
	char self[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
	if (n > 0) {
		self[n] = 0;
		char *slash = strrchr(self, '/');
		if (slash) {
			*slash = 0;
			char *beside = xasprintf("%s/sbsh-keeper", self);
			if (access(beside, X_OK) == 0)
				return beside;
			free(beside);
		}
	}
	char *installed = xasprintf("%s/sbsh-keeper", SBSH_PKGLIBEXECDIR);
	if (access(installed, X_OK) == 0)
		return installed;
	free(installed);
	return NULL;
}

char *keeper_socket_name(const char *state, int *dir_fd)
{
	*dir_fd = -1;
	char *sock = xasprintf("%s/keeper-" KEEPER_PROTOCOL ".sock", state);
	struct sockaddr_un addr;
	if (sizeof addr.sun_path > strlen(sock))
		return sock;
	/* too long for a socket address: the same file through a descriptor
	 * of its folder */
	free(sock);
	*dir_fd = open(state, O_PATH | O_DIRECTORY | O_CLOEXEC);
	return *dir_fd < 0 ? NULL : xasprintf("/proc/self/fd/%d/keeper-" KEEPER_PROTOCOL ".sock", *dir_fd);
}

static int connect_keeper(const char *state)
{
	int dir_fd;
	char *sock = keeper_socket_name(state, &dir_fd);
	int fd = sock ? approver_connect_path(sock) : -1;
	int saved = errno;
	free(sock);
	if (dir_fd >= 0)
		close(dir_fd);
	errno = saved;
	return fd;
}

/* Starts sbsh-keeper serve in a session of its own, detached from every
 * descriptor of ours, and waits until it listens. */
static int spawn_keeper(const char *program, const char *root, const char *state, const struct keeper_options *o,
                        char **why)
{
	int ready[2];
	if (pipe2(ready, O_CLOEXEC) != 0) {
		*why = xasprintf("pipe: %s", strerror(errno));
		return -1;
	}
	char *log = xasprintf("%s/keeper.log", state);
	char idle[24], sessions[24], mib[24];
	snprintf(idle, sizeof idle, "%u", o->idle_s);
	snprintf(sessions, sizeof sessions, "%u", o->keep_sessions);
	snprintf(mib, sizeof mib, "%u", o->keep_mib);
	pid_t mid = fork();
	if (mid < 0) {
		*why = xasprintf("fork: %s", strerror(errno));
		close(ready[0]);
		close(ready[1]);
		free(log);
		return -1;
	}
	if (mid == 0) {
		setsid();
		if (fork() != 0)
			_exit(0);
		int null = open("/dev/null", O_RDWR | O_CLOEXEC);
		int logfd = open(log, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC | O_NOFOLLOW, 0600);
		if (null < 0 || dup2(null, 0) < 0 || dup2(null, 1) < 0 || dup2(logfd >= 0 ? logfd : null, 2) < 0 ||
		    dup2(ready[1], 3) < 0)
			_exit(127);
		closefrom(4);
		char *const argv[] = {(char *)"sbsh-keeper", (char *)"serve", (char *)root, (char *)state, idle, sessions, mib, NULL};
		/* no environment: nothing of the session steers the keeper */
		char *const envp[] = {NULL};
		execve(program, argv, envp);
		_exit(127);
	}
	close(ready[1]);
	free(log);
	int status;
	while (waitpid(mid, &status, 0) < 0 && errno == EINTR) {
	}
	struct pollfd p = {.fd = ready[0], .events = POLLIN};
	char byte = 0;
	int r;
	do
		r = poll(&p, 1, 10000);
	while (r < 0 && errno == EINTR);
	bool ok = r > 0 && read(ready[0], &byte, 1) == 1;
	close(ready[0]);
	if (!ok) {
		*why = xasprintf("the keeper did not start (see %s/keeper.log)", state);
		return -1;
	}
	return 0;
}

/* Sends msg and waits up to timeout_ms for the answer; *timed_out (when
 * given) tells a keeper that is busy from one that is gone. After
 * note_after_ms of silence, note (when given) is printed once. */
static bool send_recv_noting(int fd, const char *msg, char *reply, size_t size, int timeout_ms, bool *timed_out,
                             int note_after_ms, const char *note)
{
	if (timed_out)
		*timed_out = false;
	ssize_t r;
	do
		r = send(fd, msg, strlen(msg), MSG_NOSIGNAL);
	while (r < 0 && errno == EINTR);
	if (r < 0)
		return false;
	struct pollfd p = {.fd = fd, .events = POLLIN};
	int64_t start = util_now_ms();
	bool noted = !note;
	for (;;) {
		int64_t waited = util_now_ms() - start;
		if (waited >= timeout_ms) {
			r = 0;
			break;
		}
		int64_t until = !noted && note_after_ms < timeout_ms ? note_after_ms : timeout_ms;
		if (until <= waited) {
			fputs(note, stderr);
			noted = true;
			continue;
		}
		r = poll(&p, 1, (int)(until - waited));
		if (r > 0 || (r < 0 && errno != EINTR))
			break;
	}
	if (r == 0 && timed_out)
		*timed_out = true;
	if (r <= 0)
		return false;
	do
		r = recv(fd, reply, size - 1, 0);
	while (r < 0 && errno == EINTR);
	if (r <= 0)
		return false;
	reply[r] = 0;
	return true;
}

/* A keeper answers a greeting once its start checkpoint is made, which
 * for a large project seen the first time takes a while (150 MB, 15 s). */
#define KEEPER_GREETING_WAIT_MS 60000
#define KEEPER_GREETING_NOTE_MS 5000

int keeper_start(const char *cwd, const struct keeper_options *o, struct checkpoint_client *out, char **why)
{
	out->fd = -1;
	out->pid = getpid();
	*why = NULL;
	char *root = keeper_project_root(cwd);
	if (!root) {
		*why = xstrdup("not in a project (/ or $HOME itself)");
		return -2;
	}
	char *state = keeper_state_dir(root);
	int fd = -1;
	int lock = -1;
	bool by_design = false;
	if (!state) {
		/* no $HOME and no XDG_STATE_HOME: nowhere to keep them */
		*why = xstrdup("no state folder ($HOME and XDG_STATE_HOME are unset)");
		free(root);
		return -2;
	}
	if (util_mkdir_private(state) != 0) {
		*why = xasprintf("cannot make the state folder %s", state);
		goto out;
	}
	fd = connect_keeper(state);
	if (fd < 0) {
		/* one starter at a time; the others find its keeper */
		char *lp = xasprintf("%s/spawn.lock", state);
		lock = open(lp, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0600);
		free(lp);
		if (lock >= 0)
			while (flock(lock, LOCK_EX) != 0 && errno == EINTR) {
			}
		fd = connect_keeper(state);
	}
	for (int attempt = 0; fd < 0 && attempt < 2; attempt++) {
		char *program = keeper_program();
		if (!program) {
			*why = xstrdup("sbsh-keeper is not installed beside sbsh");
			goto out;
		}
		free(*why);
		*why = NULL;
		int r = spawn_keeper(program, root, state, o, why);
		free(program);
		if (r == 0)
			fd = connect_keeper(state);
		else if (attempt == 0)
			usleep(200000); /* a keeper that was just leaving */
	}
	if (fd < 0) {
		if (!*why)
			*why = xasprintf("cannot reach the keeper of %s", root);
		goto out;
	}
	free(*why);
	*why = NULL;
	char hello[160], reply[256];
	snprintf(hello, sizeof hello, "H %d-%lld %s", (int)getpid(), (long long)util_now_ms(), o->ephemeral ? "e" : "-");
	reply[0] = 0;
	char *note = xasprintf("sbsh: waiting for the first checkpoint of %s (once per project; up to %d s)\n", root,
	                       KEEPER_GREETING_WAIT_MS / 1000);
	bool busy = false;
	bool greeted = send_recv_noting(fd, hello, reply, sizeof reply, KEEPER_GREETING_WAIT_MS, &busy,
	                                KEEPER_GREETING_NOTE_MS, note) &&
	               strncmp(reply, "OK", 2) == 0;
	free(note);
	/* a keeper of a folder since removed and made again leaves (it says
	 * so, or it was leaving and the connection drops): the next one is
	 * this folder's; one that is still busy is not asked again */
	for (int attempt = 0; !greeted && !busy && (strcmp(reply, "NO RETRY") == 0 || !reply[0]) && attempt < 3;
	     attempt++) {
		close(fd);
		usleep(100000);
		fd = connect_keeper(state);
		if (fd < 0) {
			char *program = keeper_program();
			if (program && spawn_keeper(program, root, state, o, why) == 0)
				fd = connect_keeper(state);
			free(program);
		}
		reply[0] = 0;
		greeted = fd >= 0 && send_recv_noting(fd, hello, reply, sizeof reply, KEEPER_GREETING_WAIT_MS, &busy, 0, NULL) &&
		          strncmp(reply, "OK", 2) == 0;
	}
	if (!greeted) {
		free(*why);
		*why = busy ? xasprintf("the keeper gave no answer in %d s", KEEPER_GREETING_WAIT_MS / 1000)
		            : xasprintf("the keeper refused: %s", reply[0] ? reply : "no answer");
		if (fd >= 0)
			close(fd);
		fd = -1;
		goto out;
	}
	/* out of the way of the descriptors scripts name; where the limit
	 * leaves no room up there, the session goes without (said by --doctor) */
	int high = fcntl(fd, F_DUPFD_CLOEXEC, 100);
	close(fd);
	fd = high;
	if (fd < 0) {
		*why = xstrdup("too few file descriptors (ulimit -n) to keep one for the keeper");
		by_design = true;
		goto out;
	}
	out->fd = fd;
out:
	if (lock >= 0)
		close(lock);
	free(state);
	free(root);
	return fd >= 0 ? 0 : by_design ? -2 : -1;
}

int keeper_exec_review(int argc, char **argv, int at)
{
	char *program = keeper_program();
	if (!program) {
		fprintf(stderr, "sbsh: --review: sbsh-keeper is not installed beside sbsh\n");
		return 1;
	}
	char **args = xcalloc((size_t)(argc - at) + 2, sizeof *args);
	size_t n = 0;
	args[n++] = (char *)"sbsh-keeper";
	args[n++] = (char *)"review";
	for (int i = at + 1; i < argc; i++)
		args[n++] = argv[i];
	args[n] = NULL;
	execv(program, args);
	fprintf(stderr, "sbsh: --review: %s: %s\n", program, strerror(errno));
	free(program);
	free(args);
	return 1;
}

int keeper_probe_outside(const char *state)
{
	int fd = connect_keeper(state);
	if (fd < 0)
		return -1;
	char reply[256] = "";
	/* a keeper busy with its first checkpoint answers once it is made */
	bool answered = send_recv_noting(fd, "H review r", reply, sizeof reply, KEEPER_GREETING_WAIT_MS, NULL,
	                                 KEEPER_GREETING_NOTE_MS,
	                                 "sbsh: waiting for the keeper's first checkpoint of this project\n");
	close(fd);
	if (!answered)
		return -1;
	return strncmp(reply, "OK", 2) == 0 ? 1 : 0;
}

void keeper_report(bool off, struct keeper_report *out)
{
	memset(out, 0, sizeof *out);
	char *cwd = getcwd(NULL, 0);
	out->project = cwd ? keeper_project_root(cwd) : NULL;
	free(cwd);
	char *state = out->project ? keeper_state_dir(out->project) : NULL;
	if (off)
		out->why_off = xstrdup("turned off (--no-checkpoints or checkpoints = off)");
	else if (prctl(PR_GET_NO_NEW_PRIVS, 0, 0, 0, 0) == 1)
		out->why_off = xstrdup("inside a sandbox: the outer session records the lines");
	else if (!out->project)
		out->why_off = xstrdup("not in a project (/ or $HOME itself)");
	else if (!state)
		out->why_off = xstrdup("no state folder ($HOME and XDG_STATE_HOME unset)");
	else {
		char *program = keeper_program();
		if (!program)
			out->why_off = xstrdup("sbsh-keeper is not installed beside sbsh");
		free(program);
	}
	out->on = out->why_off == NULL;
	if (state) {
		out->store = xasprintf("%s/store.git", state);
		out->recorded = access(out->store, F_OK) == 0;
		/* inside a sandbox the supervisor refuses the keeper's socket */
		int fd = prctl(PR_GET_NO_NEW_PRIVS, 0, 0, 0, 0) == 1 ? -1 : connect_keeper(state);
		out->running = fd >= 0;
		if (fd >= 0)
			close(fd);
		const char *shared = sandbox_shared_folder(state);
		if (shared)
			out->warning = xasprintf("the store is in %s, which every sandboxed session may write: "
			                         "set XDG_STATE_HOME outside it",
			                         shared);
	}
	free(state);
}

void keeper_report_free(struct keeper_report *r)
{
	free(r->why_off);
	free(r->project);
	free(r->store);
	free(r->warning);
}
