/* The JSON-lines event stream for agent tools and audits. */
#include "lib/events.h"

#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "shell/ast.h"
#include "sandbox/sandbox.h"
#include "lib/util.h"

struct events {
	int fd;
	pid_t line_pid;            /* the process that began the current line */
	struct timespec line_start;
	char *line_text;
};

struct events *events_open(const char *spec, const char **err)
{
	int fd;
	if (strncmp(spec, "fd:", 3) == 0) {
		char *end;
		long n = strtol(spec + 3, &end, 10);
		if (spec[3] == '\0' || *end || n < 0 || n > 1000000) {
			*err = "expected fd:N";
			return NULL;
		}
		/* A private copy, CLOEXEC, so programs the shell runs cannot
		 * write forged events through it; the caller's N is closed, or
		 * `echo '{...}' >&N` would forge them (not 0-2: the stream may
		 * be the caller's stdout or stderr). */
		fd = fcntl((int)n, F_DUPFD_CLOEXEC, 10);
		if (fd >= 0 && n > 2)
			close((int)n);
	} else if (*spec) {
		/* At 10 or above, as the shell's other own descriptors: out of
		 * the way of `exec 3>file` and refused to redirections. */
		int low = open(spec, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC | O_NOCTTY, 0600);
		fd = low < 0 || low >= 10 ? low : fcntl(low, F_DUPFD_CLOEXEC, 10);
		if (fd != low) {
			int saved = errno;
			close(low);
			errno = saved;
		}
	} else {
		*err = "needs a file or fd:N";
		return NULL;
	}
	if (fd < 0) {
		*err = strerror(errno);
		return NULL;
	}
	struct events *ev = xcalloc(1, sizeof *ev);
	ev->fd = fd;
	return ev;
}

/* Adds the common fields and writes the object as one line; takes obj. */
static void emit(struct events *ev, const char *type, json_t *obj)
{
	struct timespec now;
	clock_gettime(CLOCK_REALTIME, &now);
	json_object_set_new(obj, "v", json_integer(1));
	json_object_set_new(obj, "event", json_string(type));
	json_object_set_new(obj, "time", json_real((double)now.tv_sec + (double)now.tv_nsec / 1e9));
	json_object_set_new(obj, "pid", json_integer(getpid()));
	char *text = json_dumps(obj, JSON_COMPACT | JSON_PRESERVE_ORDER | JSON_ENSURE_ASCII);
	json_decref(obj);
	if (!text)
		return;
	size_t n = strlen(text);
	text[n] = '\n'; /* json_dumps leaves room only for the NUL: reuse it */
	util_write_all(ev->fd, text, n + 1);
	free(text);
}

/* Strings from the agent may hold any bytes; invalid UTF-8 is replaced
 * rather than dropping the event. */
static json_t *text_value(const char *s)
{
	json_t *v = json_string(s);
	if (v)
		return v;
	char *copy = xstrdup(s);
	for (char *p = copy; *p; p++)
		if ((unsigned char)*p >= 0x80)
			*p = '?';
	v = json_string(copy);
	free(copy);
	return v ? v : json_string("");
}

static json_t *argv_value(char *const *argv)
{
	json_t *a = json_array();
	for (size_t i = 0; argv && argv[i]; i++)
		json_array_append_new(a, text_value(argv[i]));
	return a;
}

void events_session_start(struct events *ev, const struct sandbox_config *cfg,
                          const struct sandbox_state *st, bool headless, const char *protected_root)
{
	if (!ev)
		return;
	json_t *o = json_object();
	json_t *ll = json_object();
	json_object_set_new(ll, "abi", json_integer(st->abi));
	json_object_set_new(ll, "available", json_boolean(st->abi > 0));
	json_object_set_new(o, "landlock", ll);
	const char *mode = cfg->mode == SANDBOX_REQUIRED ? "required" : cfg->mode == SANDBOX_OFF ? "off" : "auto";
	json_object_set_new(o, "mode", json_string(mode));
	json_object_set_new(o, "applied", json_boolean(st->landlock_applied));
	json_object_set_new(o, "seccomp", json_boolean(st->seccomp_applied));
	json_object_set_new(o, "reason", st->reason[0] ? text_value(st->reason) : json_null());
	json_t *w = json_array();
	for (size_t i = 0; i < st->ngrants; i++) {
		json_t *g = json_object();
		json_object_set_new(g, "path", text_value(st->grants[i].path));
		json_object_set_new(g, "why", json_string(st->grants[i].why));
		json_array_append_new(w, g);
	}
	json_object_set_new(o, "writable", w);
	const char *net = cfg->net == SANDBOX_NET_OFF ? "off" : cfg->net == SANDBOX_NET_ALLOW ? "allow" : "on";
	json_object_set_new(o, "network", json_string(net));
	json_object_set_new(o, "headless", json_boolean(headless));
	json_object_set_new(o, "protected", protected_root ? text_value(protected_root) : json_null());
	emit(ev, "session", o);
}

void events_command(struct events *ev, char *const *argv, const char *verdict, const char *decision,
                    const char *by)
{
	if (!ev)
		return;
	json_t *o = json_object();
	json_object_set_new(o, "argv", argv_value(argv));
	json_object_set_new(o, "verdict", json_string(verdict));
	json_object_set_new(o, "decision", json_string(decision));
	json_object_set_new(o, "by", json_string(by));
	emit(ev, "command", o);
}

void events_line_begin(struct events *ev, const struct node *line)
{
	if (!ev)
		return;
	ev->line_pid = getpid();
	clock_gettime(CLOCK_MONOTONIC, &ev->line_start);
	free(ev->line_text);
	ev->line_text = ast_line_text(line);
}

void events_checkpoint(struct events *ev, const char *kind, const char *id, unsigned changed, unsigned deleted)
{
	if (!ev)
		return;
	json_t *o = json_object();
	json_object_set_new(o, "kind", json_string(kind));
	json_object_set_new(o, "id", json_string(id));
	json_object_set_new(o, "changed", json_integer(changed));
	json_object_set_new(o, "deleted", json_integer(deleted));
	emit(ev, "checkpoint", o);
}

void events_rebase(struct events *ev, pid_t was)
{
	if (ev && ev->line_pid == was)
		ev->line_pid = getpid();
}

void events_line_end(struct events *ev, int status)
{
	if (!ev || !ev->line_text || ev->line_pid != getpid())
		return;
	struct timespec now;
	clock_gettime(CLOCK_MONOTONIC, &now);
	double ms = (double)(now.tv_sec - ev->line_start.tv_sec) * 1e3 +
	            (double)(now.tv_nsec - ev->line_start.tv_nsec) / 1e6;
	json_t *o = json_object();
	json_object_set_new(o, "command", text_value(ev->line_text));
	json_object_set_new(o, "status", json_integer(status));
	json_object_set_new(o, "duration_ms", json_real(ms));
	emit(ev, "line", o);
	free(ev->line_text);
	ev->line_text = NULL;
}

void events_restore(struct events *ev, const char *path, const char *origin)
{
	if (!ev)
		return;
	json_t *o = json_object();
	json_object_set_new(o, "path", text_value(path));
	json_object_set_new(o, "origin", json_string(origin));
	emit(ev, "restore", o);
}

void events_escape(struct events *ev, char *const *argv, const char *decision, int status)
{
	if (!ev)
		return;
	json_t *o = json_object();
	json_object_set_new(o, "argv", argv_value(argv));
	json_object_set_new(o, "decision", json_string(decision));
	json_object_set_new(o, "status", status >= 0 ? json_integer(status) : json_null());
	emit(ev, "escape", o);
}

void events_net(struct events *ev, const char *host, unsigned port, const char *decision, const char *by)
{
	if (!ev)
		return;
	json_t *o = json_object();
	json_object_set_new(o, "host", json_string(host));
	json_object_set_new(o, "port", json_integer(port));
	json_object_set_new(o, "decision", json_string(decision));
	json_object_set_new(o, "by", json_string(by));
	emit(ev, "net", o);
}

int events_fd(const struct events *ev)
{
	return ev ? ev->fd : -1;
}
