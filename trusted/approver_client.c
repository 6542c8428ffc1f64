/* What brokers need to ask the approver. A shell never asks it itself:
 * the approver answers only processes made outside the sandbox.
 *
 * A broker answers for its session only with what the approver says, so it
 * checks the approver: the folder (ours, not open to others, not one of the
 * session's writable folders) and above all the process listening, from
 * the kernel: our uid, and made outside any sandbox we are not in. */
#include "trusted/approver_client.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "trusted/approver_socket.h"
#include "trusted/broker_proto.h"
#include "lib/proc_status.h"
#include "lib/util.h"

/* The approver's socket path, when a socket of ours is there. */
static char *approver_socket(void)
{
	char *dir = approver_dir();
	if (!dir)
		return NULL;
	char *path = xasprintf("%s/" APPROVER_SOCKET_NAME, dir);
	free(dir);
	struct stat sb;
	if (lstat(path, &sb) == 0 && S_ISSOCK(sb.st_mode) && sb.st_uid == geteuid())
		return path;
	free(path);
	return NULL;
}

int approver_await(int fd, const struct approval_question *q, struct pollfd *others, size_t nothers,
                   bool (*tend)(void *ctx, const struct pollfd *others), void *ctx)
{
	if (approver_send(fd, q) != 0) {
		/* Refused at once (busy, or not a broker): its answer waits. */
		int refused = approver_receive(fd);
		close(fd);
		return refused;
	}
	/* A little longer than the approver's own limit, so it is the one
	 * that withdraws the question and says so. */
	struct timespec now;
	clock_gettime(CLOCK_MONOTONIC, &now);
	int64_t deadline = (int64_t)now.tv_sec * 1000 + now.tv_nsec / 1000000 + ((int64_t)q->timeout_s + 2) * 1000;
	int answer = BROKER_TIMEOUT; /* unless something else ends the wait first */
	/* The approver going away unanswered is -1, never the human's no. */
	struct pollfd pfd[4];
	if (nothers > 3)
		nothers = 3;
	while (1) {
		clock_gettime(CLOCK_MONOTONIC, &now);
		int64_t left = deadline - ((int64_t)now.tv_sec * 1000 + now.tv_nsec / 1000000);
		if (left <= 0)
			break;
		pfd[0] = (struct pollfd){.fd = fd, .events = POLLIN};
		for (size_t i = 0; i < nothers; i++)
			pfd[i + 1] = others[i];
		int r = poll(pfd, (nfds_t)(nothers + 1), left > 60000 ? 60000 : (int)left);
		if (r < 0 && errno != EINTR) {
			answer = -1;
			break;
		}
		if (r <= 0)
			continue;
		if (pfd[0].revents) {
			answer = approver_receive(fd);
			break;
		}
		for (size_t i = 0; i < nothers; i++)
			others[i].revents = pfd[i + 1].revents;
		if (tend && !tend(ctx, others)) {
			answer = BROKER_NO;
			break;
		}
	}
	close(fd);
	return answer;
}

bool approver_present(void)
{
	char *path = approver_socket();
	free(path);
	return path != NULL;
}

bool approver_listening(void)
{
	char *path = approver_socket();
	int fd = path ? approver_connect_path(path) : -1;
	free(path);
	if (fd < 0)
		return false;
	close(fd);
	return true;
}

static bool inside_any(const char *path, char *const *folders)
{
	for (char *const *w = folders; w && *w; w++) {
		size_t n = strlen(*w);
		while (n > 1 && (*w)[n - 1] == '/')
			n--;
		if (strncmp(path, *w, n) == 0 && (path[n] == '/' || path[n] == '\0' || n == 1))
			return true;
	}
	return false;
}

int approver_connect(char *const *writable, const char **why)
{
	*why = NULL;
	char *dir = approver_dir();
	char *real = dir ? realpath(dir, NULL) : NULL;
	free(dir);
	if (!real)
		return -1;
	/* Checked and connected through one descriptor of the folder, so the
	 * folder checked is the folder used. */
	int dfd = open(real, O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	struct stat sb, sock;
	int fd = -1;
	if (dfd < 0 || fstat(dfd, &sb) != 0)
		goto out;
	if (fstatat(dfd, APPROVER_SOCKET_NAME, &sock, AT_SYMLINK_NOFOLLOW) != 0 || !S_ISSOCK(sock.st_mode))
		goto out; /* none runs: nothing to distrust */
	if (inside_any(real, writable)) {
		*why = "the approver's socket is in a folder the sandbox can write";
		goto out;
	}
	if (sb.st_uid != geteuid()) {
		*why = "the approver's folder belongs to another user";
		goto out;
	}
	if (sb.st_mode & (S_IWGRP | S_IWOTH)) {
		*why = "the approver's folder is writable by group or others";
		goto out;
	}
	char path[64];
	snprintf(path, sizeof path, "/proc/self/fd/%d/" APPROVER_SOCKET_NAME, dfd);
	fd = approver_connect_path(path);
	if (fd < 0)
		goto out; /* none listens: not an error */
	/* Whoever could write the folder, the socket is the listener's: one
	 * made inside a sandbox (ours, an outer one, another session's) is more
	 * confined than we are. The rule is accept_askers' (approver.c). */
	pid_t pid;
	struct proc_confinement listener, self;
	if (!approver_peer_of(fd, &pid, &listener))
		*why = "the approver runs as another user, or is gone";
	else if (!proc_confinement_of(0, &self))
		*why = "cannot read /proc/self/status to check the approver";
	else if (proc_outside_sandbox_of(&self, &listener))
		*why = "the approver's socket was made inside a sandbox";
	if (*why) {
		close(fd);
		fd = -1;
	}
out:
	if (dfd >= 0)
		close(dfd);
	free(real);
	return fd;
}

int approver_send(int fd, const struct approval_question *q)
{
	struct broker_frame f;
	memset(&f, 0, BROKER_HEADER_SIZE);
	f.magic = BROKER_MAGIC;
	f.type = BROKER_ASK;
	f.value = (int32_t)q->timeout_s;
	const char *parts[BROKER_ASK_FIELDS] = {
		q->release ? "release" : q->escape ? "escape" : "approval", q->folder, q->verdict, q->command,
		q->reason, q->marks, q->program, q->warning, q->argv0, q->stdio, q->away,
	};
	size_t off = 0;
	for (size_t i = 0; i < BROKER_ASK_FIELDS; i++) {
		const char *s = parts[i] ? parts[i] : "";
		size_t n = strlen(s) + 1;
		if (n > BROKER_PAYLOAD_MAX - off)
			return -1;
		memcpy(f.payload + off, s, n);
		off += n;
	}
	f.len = (uint32_t)off;
	ssize_t sent;
	do
		sent = send(fd, &f, BROKER_HEADER_SIZE + off, MSG_NOSIGNAL);
	while (sent < 0 && errno == EINTR);
	return sent == (ssize_t)(BROKER_HEADER_SIZE + off) ? 0 : -1;
}

int approver_receive(int fd)
{
	struct broker_frame f;
	ssize_t n;
	/* A reset is reported before what arrived ahead of it: read again. */
	int resets = 0;
	do
		n = recv(fd, &f, sizeof f, MSG_DONTWAIT);
	while (n < 0 && (errno == EINTR || (errno == ECONNRESET && resets++ == 0)));
	if (n <= 0 || broker_frame_check(&f, (size_t)n) != 0 || f.type != BROKER_RESULT)
		return -1;
	switch (f.value) {
	case BROKER_YES_ONCE:
	case BROKER_YES_SESSION:
	case BROKER_YES_AWAY:
	case BROKER_TIMEOUT:
	case BROKER_BUSY:
	case BROKER_ONLY_BROKERS:
	case BROKER_TOO_TALL:
	case BROKER_SCREEN_HELD:
		return f.value;
	default:
		return BROKER_NO;
	}
}
