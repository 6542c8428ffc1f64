/* The shell's client of the broker (trusted/broker.h): requests sent from
 * inside the sandbox over the socket broker_start returned. It only sends
 * frames and waits for the answer: it never forks or execs. */
#include "hooks/broker_client.h"

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "trusted/broker_proto.h"
#include "lib/util.h"

/* Sends a request frame of len payload bytes with nfds descriptors, then
 * waits for its answer: 0 with *value from RESULT, or -1 with *why (the
 * broker's refusal, kept in why_buf, or that it is gone). */
static int broker_ask(int fd, struct broker_frame *f, size_t len, const int *fds, size_t nfds,
                      int32_t *value, char *why_buf, size_t why_size, const char **why)
{
	char control[CMSG_SPACE(4 * sizeof(int))];
	memset(control, 0, sizeof control);
	struct iovec iov = {.iov_base = f, .iov_len = BROKER_HEADER_SIZE + len};
	struct msghdr msg = {.msg_iov = &iov, .msg_iovlen = 1};
	if (nfds > 0 && nfds <= 4) {
		msg.msg_control = control;
		msg.msg_controllen = CMSG_SPACE(nfds * sizeof(int));
		struct cmsghdr *c = CMSG_FIRSTHDR(&msg);
		c->cmsg_level = SOL_SOCKET;
		c->cmsg_type = SCM_RIGHTS;
		c->cmsg_len = CMSG_LEN(nfds * sizeof(int));
		memcpy(CMSG_DATA(c), fds, nfds * sizeof(int));
	}
	ssize_t sent;
	do
		sent = sendmsg(fd, &msg, MSG_NOSIGNAL);
	while (sent < 0 && errno == EINTR);
	if (sent < 0) {
		*why = "the broker is gone";
		return -1;
	}
	while (1) {
		ssize_t n = recv(fd, f, sizeof *f, 0);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0 || broker_frame_check(f, (size_t)n) != 0) {
			*why = "the broker is gone";
			return -1;
		}
		if (f->type == BROKER_RESULT) {
			*value = f->value;
			return 0;
		}
		if (f->type == BROKER_REFUSED) {
			snprintf(why_buf, why_size, "%.*s", (int)(f->len ? f->len - 1 : 0), f->payload);
			*why = why_buf;
			return -1;
		}
	}
}

/* Puts NUL-terminated strings one after the other in f's payload; false
 * when they do not fit. */
static bool put_strings(struct broker_frame *f, const char *const *parts, size_t n, size_t *len)
{
	size_t off = 0;
	for (size_t i = 0; i < n; i++) {
		size_t k = strlen(parts[i]) + 1;
		if (off + k > BROKER_PAYLOAD_MAX)
			return false;
		memcpy(f->payload + off, parts[i], k);
		off += k;
	}
	*len = off;
	f->len = (uint32_t)off;
	return true;
}

int broker_request_escape(int fd, char *const *argv, const char **why)
{
	static char reason[256];
	struct broker_frame f;
	memset(&f, 0, BROKER_HEADER_SIZE);
	f.magic = BROKER_MAGIC;
	f.type = BROKER_ESCAPE;
	size_t argc = strv_len(argv), len;
	if (argc >= 250 || !put_strings(&f, (const char *const *)argv, argc, &len)) {
		*why = "the command is too long to ask about";
		return -1;
	}
	f.value = (int32_t)argc;
	int cwd = open(".", O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (cwd < 0) {
		*why = "the current folder cannot be opened";
		return -1;
	}
	/* the caller's stdio and folder: the command runs with them */
	int fds[4] = {0, 1, 2, cwd};
	int32_t status;
	int r = broker_ask(fd, &f, len, fds, 4, &status, reason, sizeof reason, why);
	close(cwd);
	return r == 0 ? status : -1;
}

int broker_request_approval(int fd, const char *verdict, const char *command, const char *reason,
                            const char *marks, const char **why)
{
	static char why_buf[256];
	struct broker_frame f;
	memset(&f, 0, BROKER_HEADER_SIZE);
	f.magic = BROKER_MAGIC;
	f.type = BROKER_APPROVE;
	const char *parts[BROKER_APPROVE_FIELDS] = {verdict, command, reason, marks ? marks : ""};
	size_t len;
	if (!put_strings(&f, parts, BROKER_APPROVE_FIELDS, &len)) {
		*why = "the command is too long to ask about";
		return -1;
	}
	/* The folder goes along as a descriptor: the broker shows where. */
	int cwd = open(".", O_PATH | O_DIRECTORY | O_CLOEXEC);
	int32_t answer;
	int r = broker_ask(fd, &f, len, &cwd, cwd >= 0 ? 1 : 0, &answer, why_buf, sizeof why_buf, why);
	if (cwd >= 0)
		close(cwd);
	if (r != 0)
		return -1;
	return answer == BROKER_YES_ONCE || answer == BROKER_YES_SESSION || answer == BROKER_TIMEOUT ? answer
	                                                                                              : BROKER_NO;
}

void broker_request_release(int fd)
{
	struct broker_frame f;
	memset(&f, 0, BROKER_HEADER_SIZE);
	f.magic = BROKER_MAGIC;
	f.type = BROKER_RELEASE;
	ssize_t ignored;
	do
		ignored = send(fd, &f, BROKER_HEADER_SIZE, MSG_NOSIGNAL);
	while (ignored < 0 && errno == EINTR);
}
