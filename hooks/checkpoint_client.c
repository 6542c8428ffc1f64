/* The shell's side of the checkpoints (hooks/checkpoint_client.h). The
 * keeper answers each message once it has recorded what it must, so the
 * next line's changes are never taken for this one's. */
#include "hooks/checkpoint_client.h"

#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "lib/util.h"

/* A keeper that stops answering costs this line, not the session. */
static void lost(struct checkpoint_client *c)
{
	fprintf(stderr, "sbsh: warning: the checkpoint keeper stopped answering; no more checkpoints in this session\n");
	close(c->fd);
	c->fd = -1;
}

static void exchange(struct checkpoint_client *c, const char *msg, size_t len)
{
	if (!c || c->fd < 0 || getpid() != c->pid)
		return;
	ssize_t r;
	do
		r = send(c->fd, msg, len, MSG_NOSIGNAL);
	while (r < 0 && errno == EINTR);
	if (r < 0) {
		lost(c);
		return;
	}
	struct pollfd p = {.fd = c->fd, .events = POLLIN};
	do
		r = poll(&p, 1, 120000);
	while (r < 0 && errno == EINTR);
	char reply[128];
	if (r > 0) {
		do
			r = recv(c->fd, reply, sizeof reply, 0);
		while (r < 0 && errno == EINTR);
	}
	if (r <= 0)
		lost(c);
}

void checkpoint_line_begin(struct checkpoint_client *c)
{
	exchange(c, "B", 1);
}

void checkpoint_line_end(struct checkpoint_client *c, const char *text, int status)
{
	if (!c || c->fd < 0)
		return;
	struct strbuf sb;
	strbuf_init(&sb);
	strbuf_addf(&sb, "E %d\n", status);
	/* a packet holds 64 KiB; the record needs only the line's head */
	size_t n = text ? strlen(text) : 0;
	strbuf_addmem(&sb, text ? text : "", n > 60000 ? 60000 : n);
	exchange(c, sb.data, sb.len);
	strbuf_free(&sb);
}

void checkpoint_session_end(struct checkpoint_client *c)
{
	if (!c || c->fd < 0 || getpid() != c->pid)
		return;
	exchange(c, "X", 1);
	if (c->fd >= 0)
		close(c->fd);
	c->fd = -1;
}
