/* The warden's protocol, on both sides of the sandbox: a CHECK frame
 * asks the warden to compare the protected files, a RESTORED frame
 * answers with what it put back, and the asker tells the agent. The
 * shell's client (hooks/protect_client.c) runs this inside the sandbox,
 * the broker's last check (protect_final_check) and the warden outside.
 * Nothing here forks or execs. */
#include "trusted/warden_proto.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "lib/util.h"
#include "trusted/baseline.h"

/* ---- the frames ---------------------------------------------------------- */

int warden_send_check(int fd, enum broker_check_kind kind)
{
	struct broker_frame f;
	memset(&f, 0, BROKER_HEADER_SIZE);
	f.magic = BROKER_MAGIC;
	f.type = BROKER_CHECK;
	f.value = kind;
	f.len = 0;
	ssize_t sent;
	do
		sent = send(fd, &f, BROKER_HEADER_SIZE, MSG_NOSIGNAL);
	while (sent < 0 && errno == EINTR);
	return sent < 0 ? -1 : 0;
}

int warden_ask_check(int fd, enum broker_check_kind kind, struct strvec *out)
{
	struct broker_frame f;
	/* an answer nobody read (to a frame forged from inside the sandbox)
	 * must not pass for this one */
	while (recv(fd, &f, sizeof f, MSG_DONTWAIT) > 0)
		continue;
	if (warden_send_check(fd, kind) != 0)
		return -1;
	while (1) {
		struct pollfd pfd = {.fd = fd, .events = POLLIN};
		int r = poll(&pfd, 1, 10000);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			return -1;
		ssize_t n = recv(fd, &f, sizeof f, 0);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0 || broker_frame_check(&f, (size_t)n) != 0)
			return -1;
		if (f.type != BROKER_RESTORED)
			continue;
		size_t off = 0;
		while (off < f.len) {
			const char *end = memchr(f.payload + off, '\0', f.len - off);
			if (!end)
				break;
			strvec_push(out, f.payload + off);
			off = (size_t)(end - f.payload) + 1;
		}
		if (f.value > (int32_t)out->len)
			strvec_push_owned(out, xasprintf("(%ld more)", (long)f.value - (long)out->len));
		return 0;
	}
}

/* The warden's answer: the paths it put back, as many as fit. */
void warden_reply(int fd, const struct strvec *restored)
{
	struct broker_frame f;
	f.magic = BROKER_MAGIC;
	f.type = BROKER_RESTORED;
	f.value = (int32_t)restored->len;
	size_t off = 0;
	for (size_t i = 0; i < restored->len; i++) {
		size_t n = strlen(restored->items[i]) + 1;
		if (off + n > BROKER_PAYLOAD_MAX)
			break;
		memcpy(f.payload + off, restored->items[i], n);
		off += n;
	}
	f.len = (uint32_t)off;
	ssize_t ignored = send(fd, &f, BROKER_HEADER_SIZE + off, MSG_NOSIGNAL);
	(void)ignored;
}

/* ---- telling the agent --------------------------------------------------- */

static const char *why_protected(const char *path)
{
	const char *base = strrchr(path, '/');
	base = base ? base + 1 : path;
	if (strcmp(base, ".agentcommands.json") == 0)
		return "it is sbsh's allow-list";
	if (protect_is_agent_file(path))
		return "an agent tool runs what it names outside the sandbox";
	if (strcmp(base, ".git") == 0)
		return "git follows it outside the sandbox";
	if (strcmp(base, "config") == 0 || strcmp(base, "attributes") == 0 ||
	    strcmp(base, "commondir") == 0 || strcmp(base, "config.worktree") == 0)
		return "git reads it outside the sandbox";
	if (strstr(path, "hooks/") || strncmp(path, ".git/", 5) == 0 || strstr(path, "/.git/") ||
	    strncmp(path, ".husky/", 7) == 0)
		return "hooks run outside the sandbox";
	/* a protect-path of the config, or a hooks folder of another name */
	return "protected: it runs or is read outside the sandbox";
}

char *warden_note_path(const char *entry)
{
	const char *sep = strchr(entry, WARDEN_NOTE_SEP);
	return sep ? xstrndup(entry, (size_t)(sep - entry)) : xstrdup(entry);
}

void warden_print_restored(const char *entry, const char *origin)
{
	char *path = warden_note_path(entry);
	const char *sep = strchr(entry, WARDEN_NOTE_SEP);
	char kind = sep ? sep[1] : 0;
	const char *detail = kind && sep[2] == WARDEN_NOTE_SEP ? sep + 3 : "";
	const char *why = why_protected(path);
	if (kind == WARDEN_NOTE_QUARANTINED)
		fprintf(stderr, "sbsh: moved to quarantine: %s (%s; %s); the human can recover it from %s\n", path,
		        origin, why, detail);
	else if (kind == WARDEN_NOTE_KEPT)
		fprintf(stderr, "sbsh: restored %s (%s; %s); what was there is in quarantine: %s\n", path, origin, why,
		        detail);
	else if (kind == WARDEN_NOTE_FAILED)
		fprintf(stderr,
		        "sbsh: FAILED TO RESTORE %s (%s; %s): %s; it stays as the sandbox left it, is tried again "
		        "after every line, and is not taken as the baseline\n",
		        path, origin, why, detail);
	else
		fprintf(stderr, "sbsh: restored %s (%s; %s)\n", path, origin, why);
	fflush(stderr);
	free(path);
}

/* ---- the session's end --------------------------------------------------- */

void protect_final_check(int fd)
{
	if (fd < 0)
		return;
	struct strvec restored;
	strvec_init(&restored);
	if (warden_ask_check(fd, BROKER_CHECK_FINAL, &restored) == 0)
		for (size_t i = 0; i < restored.len; i++)
			warden_print_restored(restored.items[i], "changed by the last command");
	strvec_free(&restored);
}

void protect_client_unwatch(struct protect_client *c)
{
	if (c->inotify >= 0)
		close(c->inotify);
	c->inotify = -1;
	for (size_t i = 0; i < c->nwatches; i++)
		if (c->watches[i].names)
			strv_free(c->watches[i].names);
	free(c->watches);
	c->watches = NULL;
	c->nwatches = 0;
}

ssize_t warden_read_children(pid_t pid, pid_t tid, char *buf, size_t size)
{
	char path[64];
	snprintf(path, sizeof path, "/proc/%ld/task/%ld/children", (long)pid, (long)tid);
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	ssize_t n = read(fd, buf, size - 1);
	close(fd);
	if (n < 0)
		return -1;
	buf[n] = '\0';
	return n;
}
