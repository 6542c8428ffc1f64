#include "hooks/session_client.h"

#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "trusted/approver_client.h"
#include "trusted/approver_socket.h"
#include "trusted/broker_proto.h"
#include "lib/proc_status.h"

/* Connects to path; the listener's pid in *server (from the kernel). */
static int connect_checked(const char *path, pid_t *server)
{
	int fd = approver_connect_path(path);
	if (fd < 0)
		return -1;
	struct ucred cred;
	socklen_t len = sizeof cred;
	if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cred, &len) != 0 || cred.uid != geteuid()) {
		close(fd);
		return -1;
	}
	*server = cred.pid;
	return fd;
}

pid_t session_client_trust(const char *path)
{
	if (!path || path[0] != '/')
		return 0;
	pid_t server = 0;
	int fd = connect_checked(path, &server);
	if (fd < 0)
		return 0;
	close(fd);
	struct proc_confinement self, peer;
	if (server <= 1 || !proc_descends_from(getpid(), server) || !proc_confinement_of(0, &self) ||
	    !proc_confinement_of(server, &peer))
		return 0;
	/* Unconfined, nothing of ours could have been made by a sandboxed
	 * agent; confined, the broker must be outside our sandbox. */
	if (self.no_new_privs && !proc_outside_sandbox_of(&peer, &self))
		return 0;
	return server;
}

int session_client_ask(const char *path, pid_t server, const struct approval_question *q, char *why,
                       size_t size)
{
	snprintf(why, size, "the session's broker is gone");
	pid_t now = 0;
	int fd = connect_checked(path, &now);
	if (fd < 0)
		return -1;
	if (now != server || approver_send(fd, q) != 0) {
		close(fd);
		return -1;
	}
	/* The broker keeps its own time limit; a little longer here, so it is
	 * the one that says so. */
	int64_t deadline = util_now_ms() + ((int64_t)q->timeout_s + 5) * 1000;
	int answer = -1;
	while (1) {
		int64_t left = deadline - util_now_ms();
		if (left <= 0) {
			answer = BROKER_TIMEOUT;
			break;
		}
		struct pollfd pfd = {.fd = fd, .events = POLLIN};
		int r = poll(&pfd, 1, (int)left);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			continue;
		struct broker_frame f;
		ssize_t n = recv(fd, &f, sizeof f, MSG_DONTWAIT);
		if (n < 0 && (errno == EINTR || errno == EAGAIN))
			continue;
		if (n > 0 && broker_frame_check(&f, (size_t)n) == 0 && f.type == BROKER_RESULT) {
			answer = f.value == BROKER_YES_ONCE || f.value == BROKER_YES_SESSION || f.value == BROKER_TIMEOUT
			                 ? f.value
			                 : BROKER_NO;
		} else if (n > 0 && broker_frame_check(&f, (size_t)n) == 0 && f.type == BROKER_REFUSED) {
			snprintf(why, size, "%.*s", (int)(f.len ? f.len - 1 : 0), f.payload);
		}
		break;
	}
	close(fd);
	return answer;
}

void session_client_release(const char *path, pid_t server)
{
	pid_t now = 0;
	int fd = connect_checked(path, &now);
	if (fd < 0)
		return;
	struct approval_question q = {.release = true, .folder = "", .verdict = "", .command = "", .reason = "",
	                              .marks = "", .program = "", .warning = "", .timeout_s = 1};
	/* A moment for the broker's reply, so what comes next is seen after it. */
	struct pollfd pfd = {.fd = fd, .events = POLLIN};
	if (now == server && approver_send(fd, &q) == 0 && poll(&pfd, 1, 1000) > 0) {
		char buf[64];
		ssize_t ignored = recv(fd, buf, sizeof buf, MSG_DONTWAIT);
		(void)ignored;
	}
	close(fd);
}
