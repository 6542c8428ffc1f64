/* The shell's side of the checkpoints (hooks/checkpoint_client.h). The
 * keeper answers each message once it has recorded what it must, so the
 * next line's changes are never taken for this one's. */
#include "hooks/checkpoint_client.h"

#include <errno.h>
#include <stdbool.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "lib/events.h"
#include "lib/util.h"

/* A keeper that stops answering costs this line, not the session. */
static void lost(struct checkpoint_client *c)
{
	fprintf(stderr, "sbsh: warning: the checkpoint keeper stopped answering; no more checkpoints in this session\n");
	close(c->fd);
	c->fd = -1;
}

/* Sends msg and waits for the answer (into reply, NUL-terminated; "" when
 * the keeper is gone). */
static void exchange(struct checkpoint_client *c, const char *msg, size_t len, char *reply, size_t size)
{
	reply[0] = 0;
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
	if (r > 0) {
		do
			r = recv(c->fd, reply, size - 1, 0);
		while (r < 0 && errno == EINTR);
	}
	if (r <= 0) {
		lost(c);
		return;
	}
	reply[r] = 0;
}

/* "K HEX CHANGED DELETED": a checkpoint was made. */
static void made(struct checkpoint_client *c, const char *kind, const char *reply, bool tell)
{
	char hex[41];
	unsigned changed = 0, deleted = 0;
	if (!c || sscanf(reply, "K %40s %u %u", hex, &changed, &deleted) != 3)
		return;
	events_checkpoint(c->events, kind, hex, changed, deleted);
	if (tell && deleted)
		fprintf(stderr, "sbsh: this line deleted %u file%s the human had accepted; they can bring %s back: "
		                "sbsh --review undo\n",
		        deleted, deleted == 1 ? "" : "s", deleted == 1 ? "it" : "them");
}

void checkpoint_line_begin(struct checkpoint_client *c)
{
	char reply[128];
	exchange(c, "B", 1, reply, sizeof reply);
	const char *t = c && c->fd >= 0 ? strstr(reply, " T") : NULL;
	if (t)
		c->accepted_sec = strtoll(t + 2, NULL, 10);
	made(c, "between", reply, false);
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
	char reply[128];
	exchange(c, sb.data, sb.len, reply, sizeof reply);
	strbuf_free(&sb);
	made(c, "line", reply, true);
}

int checkpoint_program_accepted(struct checkpoint_client *c, const char *abs_path)
{
	if (!c || c->fd < 0 || getpid() != c->pid || strlen(abs_path) > 60000)
		return -1;
	char *msg = xasprintf("F %s", abs_path);
	char reply[16];
	exchange(c, msg, strlen(msg), reply, sizeof reply);
	free(msg);
	return reply[0] == 'Y' ? 1 : reply[0] == 'N' ? 0 : reply[0] == '?' ? -2 : -1;
}

void checkpoint_session_end(struct checkpoint_client *c)
{
	if (!c || c->fd < 0 || getpid() != c->pid)
		return;
	char reply[128];
	exchange(c, "X", 1, reply, sizeof reply);
	if (c->fd >= 0)
		close(c->fd);
	c->fd = -1;
}

int checkpoint_accepted(struct checkpoint_client *c, const char *abs_path, const char *content, size_t len,
                        char **accepted)
{
	*accepted = NULL;
	if (!c || c->fd < 0 || getpid() != c->pid || len > 60000 || memchr(content, 0, len))
		return -1;
	struct strbuf sb;
	strbuf_init(&sb);
	strbuf_addf(&sb, "A %s\n", abs_path);
	strbuf_addmem(&sb, content, len);
	char reply[65536];
	exchange(c, sb.data, sb.len, reply, sizeof reply);
	strbuf_free(&sb);
	if (reply[0] == 'Y')
		return 1;
	if (reply[0] == 'C' && reply[1] == '\n') {
		*accepted = xstrdup(reply + 2);
		return 0;
	}
	return reply[0] == 'N' ? 0 : -1;
}
