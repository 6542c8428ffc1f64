/* `sbsh --approver`: the server that answers the prompts of every sbsh of
 * this user from a terminal of the human's own. Its clients, the
 * brokers, are in approver_client.c; the prompt text it shows,
 * in prompt.c. It answers only brokers: a process made inside a sandbox
 * (same uid; Landlock below ABI 9 does not guard a pathname socket) is
 * refused before it can show anything, see accept_askers. The pid it shows
 * comes from the kernel (SO_PEERCRED), not from the asker. */
#include "trusted/approver.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/ioctl.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

#include "trusted/approver_socket.h"
#include "trusted/broker_proto.h"
#include "trusted/prompt.h"
#include "trusted/session_freeze.h"
#include "lib/proc_status.h"
#include "lib/util.h"

#define APPROVER_ASKERS_MAX 32
/* A connection that has not asked anything by then is dropped (startup's
 * probe connects and leaves at once). */
#define APPROVER_IDLE_MS 10000
/* Connections one process may hold: a broker asks one question at a time;
 * more is a flood, answered busy so that others' questions still come. */
#define APPROVER_PER_PEER 4
/* After the question on screen changes, keys are ignored this long: a y
 * meant for the one that went away does not answer the next. */
#define APPROVER_KEYS_QUIET_MS 500
struct asker {
	int fd;                     /* -1: a free slot */
	pid_t pid;                  /* the broker, from the kernel */
	int64_t since_ms;           /* when it connected */
	struct broker_frame *frame; /* its question, NULL until it came */
	struct approval_question q;
	int64_t deadline_ms;
	uint64_t order;             /* questions are shown in arrival order */
};

struct approver {
	int listener;
	int tty;
	int sigfd;
	char *path;
	dev_t dev; /* of our socket file: only that one is removed */
	ino_t ino;
	struct termios saved;
	bool have_saved;
	bool attrs;
	struct asker askers[APPROVER_ASKERS_MAX];
	int shown; /* the asker whose question is on screen, or -1 */
	char typed[64];
	size_t ntyped;
	char code[5];
	uint64_t next_order;
	struct proc_confinement self; /* the approver's own, to compare askers with */
	int64_t keys_from_ms;         /* keys before this answer nothing */
	bool quiet;                   /* keys_from_ms is still to come: what arrives is dropped then */
	bool told_ignored;            /* the human was told keys were ignored */
	struct session_freeze holders; /* sandboxed holders of tty, paused while a question is up */
};

static void say(struct approver *a, const char *s)
{
	util_write_all(a->tty, s, strlen(s));
}

/* The shown question is over: its screen goes, then why it ended; what
 * was paused while it was up goes on. */
static void unshow(struct approver *a, const char *why)
{
	struct strbuf sb;
	strbuf_init(&sb);
	approval_screen_leave(&sb, a->attrs);
	strbuf_adds(&sb, why);
	say(a, sb.data);
	strbuf_free(&sb);
	session_thaw(&a->holders, 0);
}

static void drop(struct approver *a, int i)
{
	struct asker *k = &a->askers[i];
	close(k->fd);
	free(k->frame);
	memset(k, 0, sizeof *k);
	k->fd = -1;
	if (a->shown == i) {
		a->shown = -1;
		session_thaw(&a->holders, 0);
	}
}

static void answer_and_drop(struct approver *a, int i, int answer)
{
	struct broker_frame f;
	f.magic = BROKER_MAGIC;
	f.type = BROKER_RESULT;
	f.value = answer;
	f.len = 0;
	ssize_t ignored = send(a->askers[i].fd, &f, BROKER_HEADER_SIZE, MSG_NOSIGNAL | MSG_DONTWAIT);
	(void)ignored;
	drop(a, i);
}

/* Takes a question off a connection. Anything but one well-formed ASK
 * closes it: the asker then hears no. */
static void read_question(struct approver *a, int i)
{
	struct asker *k = &a->askers[i];
	struct broker_frame *f = xmalloc(sizeof *f);
	ssize_t n;
	do
		n = recv(k->fd, f, sizeof *f, MSG_DONTWAIT);
	while (n < 0 && errno == EINTR);
	if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
		free(f);
		return;
	}
	const char *fields[BROKER_ASK_FIELDS];
	struct broker_mark marks[BROKER_MARKS_MAX];
	bool ok = n > 0 && !k->frame && broker_frame_check(f, (size_t)n) == 0 && f->type == BROKER_ASK &&
	          f->value > 0 && broker_frame_fields(f, fields, BROKER_ASK_FIELDS) == 0 &&
	          (strcmp(fields[0], "approval") == 0 || strcmp(fields[0], "escape") == 0 ||
	           strcmp(fields[0], "release") == 0) &&
	          broker_frame_marks(fields[5], strlen(fields[3]), marks, BROKER_MARKS_MAX) >= 0;
	if (!ok) {
		free(f);
		if (a->shown == i)
			unshow(a, "sbsh: withdrawn (the session went away).\n");
		drop(a, i);
		return;
	}
	if (strcmp(fields[0], "release") == 0) {
		/* Grants are the session broker's (a nested sbsh asks it, not
		 * us): there is nothing to end here. */
		free(f);
		answer_and_drop(a, i, BROKER_NO);
		return;
	}
	k->frame = f;
	unsigned timeout = f->value > 86400 ? 86400u : (unsigned)f->value;
	k->q = (struct approval_question){
		.escape = strcmp(fields[0], "escape") == 0,
		.folder = fields[1],
		.verdict = fields[2],
		.command = fields[3],
		.reason = fields[4],
		.marks = fields[5],
		.program = fields[6],
		.warning = fields[7],
		.argv0 = fields[8],
		.stdio = fields[9],
		.away = fields[10],
		.timeout_s = timeout,
	};
	k->deadline_ms = util_now_ms() + (int64_t)timeout * 1000;
	k->order = a->next_order++;
}

/* Answers a connection at once, without a slot: it is not asked. */
static void refuse_asker(int fd, int answer)
{
	struct broker_frame f = {.magic = BROKER_MAGIC, .type = BROKER_RESULT, .value = answer, .len = 0};
	ssize_t ignored = send(fd, &f, BROKER_HEADER_SIZE, MSG_NOSIGNAL | MSG_DONTWAIT);
	(void)ignored;
	/* Closed with its question unread, the asker would get ECONNRESET
	 * before the answer: it can send no more, and what it sent is read. */
	shutdown(fd, SHUT_RDWR);
	char sink[64];
	while (recv(fd, sink, sizeof sink, MSG_DONTWAIT) > 0)
		;
	close(fd);
}

/* Takes new connections. Only brokers are asked, and the kernel tells
 * them apart: Landlock requires no_new_privs and sbsh's sandbox always
 * adds a seccomp filter; neither can be undone and both are inherited, so
 * a process made inside a sandbox has no_new_privs where the approver,
 * started by the human in the same environment, lacks it, or (when sbsh
 * and the approver both run with no_new_privs, as under docker's
 * no-new-privileges) more seccomp filters than the approver. A broker is
 * forked before the sandbox is applied: it is no more confined than the
 * approver, unless sbsh was started more confined than the approver was
 * (then start the approver the same way). */
static void accept_askers(struct approver *a)
{
	while (1) {
		int fd = accept4(a->listener, NULL, NULL, SOCK_CLOEXEC | SOCK_NONBLOCK);
		if (fd < 0) {
			if (errno == EINTR)
				continue;
			return;
		}
		pid_t pid = 0;
		struct proc_confinement peer;
		if (!approver_peer_of(fd, &pid, &peer) || proc_outside_sandbox_of(&a->self, &peer)) {
			refuse_asker(fd, BROKER_ONLY_BROKERS);
			continue;
		}
		int slot = -1, same = 0;
		for (int i = 0; i < APPROVER_ASKERS_MAX; i++) {
			if (a->askers[i].fd < 0 && slot < 0)
				slot = i;
			else if (a->askers[i].fd >= 0 && a->askers[i].pid == pid)
				same++;
		}
		if (slot < 0 || same >= APPROVER_PER_PEER) {
			refuse_asker(fd, BROKER_BUSY);
			continue;
		}
		a->askers[slot] = (struct asker){.fd = fd, .pid = pid, .since_ms = util_now_ms()};
	}
}

static void show_next(struct approver *a)
{
	int next = -1;
	size_t queued = 0;
	for (int i = 0; i < APPROVER_ASKERS_MAX; i++) {
		struct asker *k = &a->askers[i];
		if (k->fd < 0 || !k->frame)
			continue;
		queued++;
		if (next < 0 || k->order < a->askers[next].order)
			next = i;
	}
	if (next < 0)
		return;
	struct asker *k = &a->askers[next];
	a->shown = next;
	a->ntyped = 0;
	if (approval_needs_code(&k->q))
		approval_make_code(a->code, sizeof a->code);
	struct approval_question shown = k->q;
	int64_t left = k->deadline_ms - util_now_ms();
	shown.timeout_s = left > 0 ? (unsigned)((left + 999) / 1000) : 0;
	/* A job an earlier sbsh -c left on this terminal could draw over the
	 * question: it pauses while the question is up. */
	if (terminal_freeze(&a->holders, a->tty) != 0) {
		answer_and_drop(a, next, BROKER_SCREEN_HELD);
		return;
	}
	struct approval_screen screen;
	approval_screen_of(a->tty, a->attrs, &screen);
	struct strbuf text, sb;
	strbuf_init(&text);
	strbuf_init(&sb);
	bool fits = approval_prompt(&text, &shown, k->pid, approval_needs_code(&k->q) ? a->code : NULL, queued - 1,
	                            &screen);
	approval_screen_enter(&sb, a->attrs, fits);
	strbuf_addmem(&sb, text.data, text.len);
	/* Keys pressed before the question was on screen do not answer it,
	 * nor those of the moment after: counted from before it is written, so
	 * a slow write cannot shorten that moment. */
	tcflush(a->tty, TCIFLUSH);
	a->keys_from_ms = util_now_ms() + APPROVER_KEYS_QUIET_MS;
	a->quiet = true;
	a->told_ignored = false;
	util_write_all(a->tty, sb.data, sb.len);
	strbuf_free(&text);
	strbuf_free(&sb);
	if (!fits)
		answer_and_drop(a, next, BROKER_TOO_TALL); /* never shown in part, and not the human's no */
}

static void answer_shown(struct approver *a)
{
	struct asker *k = &a->askers[a->shown];
	a->typed[a->ntyped] = '\0';
	int answer;
	if (approval_needs_code(&k->q))
		answer = approval_check_code(&k->q, a->code, a->typed);
	else
		answer = approval_parse_answer(a->typed);
	/* One that took the terminal from another while the question was up
	 * may have drawn what the human read. */
	pid_t newcomer = answer == BROKER_NO ? 0 : terminal_newcomer(&a->holders, a->tty);
	if (newcomer) {
		char note[160];
		snprintf(note, sizeof note, "sbsh: refused: a sandboxed process (pid %ld) took hold of this terminal"
		                            " while you were asked.\n", (long)newcomer);
		unshow(a, note);
		answer_and_drop(a, a->shown, BROKER_NO);
		return;
	}
	unshow(a, answer == BROKER_NO ? "sbsh: refused.\n" : "sbsh: approved.\n");
	answer_and_drop(a, a->shown, answer);
}

/* One key from the human. Returns false to stop the approver. */
static bool take_key(struct approver *a, unsigned char c)
{
	if (c == 3 || c == 4) /* ^C, ^D */
		return false;
	if (a->shown < 0)
		return true; /* nothing is asked: keys mean nothing */
	if (util_now_ms() < a->keys_from_ms) {
		if (!a->told_ignored) {
			say(a, "\nsbsh: the question just changed: what was typed is ignored; answer this one: ");
			a->told_ignored = true;
		}
		return true;
	}
	if (c == '\r' || c == '\n') {
		answer_shown(a);
	} else if ((c == 'n' || c == 'N') && a->ntyped == 0 && !approval_needs_code(&a->askers[a->shown].q)) {
		/* no needs no Enter: a human who typed n and walked away has
		 * answered, and refusing is never the risky mistake */
		a->typed[a->ntyped++] = (char)c;
		util_write_all(a->tty, (const char *)&c, 1);
		answer_shown(a);
	} else if (c == 0x7f || c == 8) {
		if (a->ntyped) {
			a->ntyped--;
			say(a, "\b \b");
		}
	} else if (c >= 0x20 && a->ntyped + 1 < sizeof a->typed) {
		a->typed[a->ntyped++] = (char)c;
		util_write_all(a->tty, (const char *)&c, 1);
	}
	return true;
}

/* The moment after the question changed is over: what was typed in it
 * (whenever this process gets to read it, on a busy machine too) is
 * dropped, so it answers nothing. Returns whether something was. */
static bool end_quiet(struct approver *a)
{
	if (!a->quiet || util_now_ms() < a->keys_from_ms)
		return false;
	a->quiet = false;
	int pending = 0;
	if (ioctl(a->tty, FIONREAD, &pending) != 0 || pending <= 0)
		return false;
	tcflush(a->tty, TCIFLUSH);
	if (!a->told_ignored && a->shown >= 0) {
		say(a, "\nsbsh: the question just changed: what was typed is ignored; answer this one: ");
		a->told_ignored = true;
	}
	return true;
}

static void expire(struct approver *a)
{
	int64_t now = util_now_ms();
	for (int i = 0; i < APPROVER_ASKERS_MAX; i++) {
		struct asker *k = &a->askers[i];
		if (k->fd < 0)
			continue;
		if (k->frame && now >= k->deadline_ms) {
			if (a->shown == i)
				unshow(a, "sbsh: withdrawn (timed out).\n");
			answer_and_drop(a, i, BROKER_TIMEOUT);
		} else if (!k->frame && now >= k->since_ms + APPROVER_IDLE_MS) {
			drop(a, i);
		}
	}
}

static int poll_timeout(struct approver *a)
{
	int64_t now = util_now_ms(), soonest = -1;
	for (int i = 0; i < APPROVER_ASKERS_MAX; i++) {
		struct asker *k = &a->askers[i];
		if (k->fd < 0)
			continue;
		int64_t t = k->frame ? k->deadline_ms : k->since_ms + APPROVER_IDLE_MS;
		if (soonest < 0 || t < soonest)
			soonest = t;
	}
	if (soonest < 0)
		return -1;
	return soonest <= now ? 0 : (int)(soonest - now > 60000 ? 60000 : soonest - now);
}

static void serve(struct approver *a)
{
	while (1) {
		if (a->shown < 0)
			show_next(a);
		struct pollfd pfd[3 + APPROVER_ASKERS_MAX];
		int slot_of[3 + APPROVER_ASKERS_MAX];
		nfds_t n = 0;
		pfd[n++] = (struct pollfd){.fd = a->sigfd, .events = POLLIN};
		pfd[n++] = (struct pollfd){.fd = a->tty, .events = POLLIN};
		pfd[n++] = (struct pollfd){.fd = a->listener, .events = POLLIN};
		for (int i = 0; i < APPROVER_ASKERS_MAX; i++) {
			if (a->askers[i].fd < 0)
				continue;
			slot_of[n] = i;
			pfd[n++] = (struct pollfd){.fd = a->askers[i].fd, .events = POLLIN};
		}
		int timeout = poll_timeout(a);
		if (a->quiet) {
			/* wake when the quiet moment ends, to drop what came in it */
			int64_t left = a->keys_from_ms - util_now_ms();
			int until = left > 0 ? (int)left : 0;
			timeout = timeout < 0 || until < timeout ? until : timeout;
		}
		int r = poll(pfd, n, timeout);
		if (r < 0 && errno != EINTR)
			return;
		if (r < 0)
			continue;
		if (pfd[0].revents)
			return; /* Ctrl-C as a signal, SIGTERM, SIGHUP */
		bool dropped = end_quiet(a);
		if (pfd[1].revents && !dropped) {
			unsigned char keys[64];
			ssize_t got = read(a->tty, keys, sizeof keys);
			if (got == 0 || (got < 0 && errno != EINTR && errno != EAGAIN))
				return; /* the terminal is gone */
			for (ssize_t i = 0; i < got; i++)
				if (!take_key(a, keys[i]))
					return;
		}
		for (nfds_t p = 3; p < n; p++) {
			int i = slot_of[p];
			if (a->askers[i].fd < 0)
				continue; /* answered above by a key */
			if (pfd[p].revents & POLLIN) {
				read_question(a, i);
			} else if (pfd[p].revents & (POLLHUP | POLLERR | POLLNVAL)) {
				if (a->shown == i)
					unshow(a, "sbsh: withdrawn (the session went away).\n");
				drop(a, i);
			}
		}
		/* After the askers: a slot freed above may be taken again, and
		 * this round's events are not the newcomer's. */
		if (pfd[2].revents & POLLIN)
			accept_askers(a);
		expire(a);
	}
}

/* NULL when folder is a folder of ours that nobody else can write; else
 * what is wrong with it (malloc'd). */
static char *folder_problem(const char *what, const char *folder)
{
	struct stat sb;
	if (lstat(folder, &sb) != 0)
		return xasprintf("%s (%s): %s", what, folder, strerror(errno));
	if (!S_ISDIR(sb.st_mode))
		return xasprintf("%s (%s) is not a folder", what, folder);
	if (sb.st_uid != geteuid())
		return xasprintf("%s (%s) is not owned by us", what, folder);
	if (sb.st_mode & (S_IWGRP | S_IWOTH))
		return xasprintf("%s (%s) is writable by group or others", what, folder);
	return NULL;
}

static int open_answer_terminal(void)
{
	int fd = open("/dev/tty", O_RDWR | O_NOCTTY | O_CLOEXEC);
	if (fd < 0 && isatty(0)) {
		const char *name = ttyname(0);
		fd = name ? open(name, O_RDWR | O_NOCTTY | O_CLOEXEC) : -1;
	}
	return fd;
}

/* Makes the socket. Returns the listening fd, or -1 after saying why. */
static int approver_listen(struct approver *a)
{
	const char *rt = getenv("XDG_RUNTIME_DIR");
	if (!rt || !*rt) {
		fprintf(stderr, "sbsh: --approver: XDG_RUNTIME_DIR is not set (the per-user runtime"
		                " folder, such as /run/user/%ld)\n", (long)geteuid());
		return -1;
	}
	if (rt[0] != '/') {
		fprintf(stderr, "sbsh: --approver: XDG_RUNTIME_DIR (%s) is not an absolute path\n", rt);
		return -1;
	}
	char *problem = folder_problem("XDG_RUNTIME_DIR", rt);
	char *dir = approver_dir();
	if (!problem && mkdir(dir, 0700) != 0 && errno != EEXIST)
		problem = xasprintf("cannot make %s: %s", dir, strerror(errno));
	if (!problem)
		problem = folder_problem("the approver's folder", dir);
	a->path = xasprintf("%s/" APPROVER_SOCKET_NAME, dir);
	free(dir);
	struct sockaddr_un addr;
	if (!problem && !approver_fill_address(&addr, a->path))
		problem = xasprintf("the socket path %s is too long", a->path);
	if (problem) {
		fprintf(stderr, "sbsh: --approver: %s\n", problem);
		free(problem);
		return -1;
	}
	int probe = approver_connect_path(a->path);
	if (probe >= 0) {
		close(probe);
		fprintf(stderr, "sbsh: --approver: another approver is already running (%s)\n", a->path);
		return -1;
	}
	struct stat sb;
	if (lstat(a->path, &sb) == 0) {
		/* Nobody listens on it: a stale socket from an approver that died. */
		if (!S_ISSOCK(sb.st_mode)) {
			fprintf(stderr, "sbsh: --approver: %s exists and is not a socket\n", a->path);
			return -1;
		}
		unlink(a->path);
	}
	int fd = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	if (fd < 0) {
		fprintf(stderr, "sbsh: --approver: socket: %s\n", strerror(errno));
		return -1;
	}
	mode_t old_mask = umask(077);
	int r = bind(fd, (struct sockaddr *)&addr, sizeof addr);
	umask(old_mask);
	if (r != 0 || listen(fd, 16) != 0) {
		if (errno == EADDRINUSE)
			fprintf(stderr, "sbsh: --approver: another approver is already running (%s)\n", a->path);
		else
			fprintf(stderr, "sbsh: --approver: %s: %s\n", a->path, strerror(errno));
		close(fd);
		return -1;
	}
	if (lstat(a->path, &sb) == 0) {
		a->dev = sb.st_dev;
		a->ino = sb.st_ino;
	}
	return fd;
}

/* The terminal multiplexer the approver runs in, if any, whose server
 * reads panes and types into them on request through a pathname socket:
 * tmux, screen, zellij, WezTerm's mux, kitty listening for remote control.
 * Its variables, or one of them among the approver's ancestors (a pane
 * started with them unset). NULL when none is seen. */
static const char *multiplexer(void)
{
	static const struct {
		const char *var, *said;
	} vars[] = {
		{"TMUX", "tmux (TMUX is set)"},
		{"STY", "screen (STY is set)"},
		{"ZELLIJ", "zellij (ZELLIJ is set)"},
		{"ZELLIJ_SESSION_NAME", "zellij (ZELLIJ_SESSION_NAME is set)"},
		{"WEZTERM_UNIX_SOCKET", "WezTerm's multiplexer (WEZTERM_UNIX_SOCKET is set)"},
		{"WEZTERM_PANE", "WezTerm (WEZTERM_PANE is set; its mux socket reads and types into panes)"},
		{"KITTY_LISTEN_ON", "kitty with remote control on a socket (KITTY_LISTEN_ON is set)"},
	};
	for (size_t i = 0; i < sizeof vars / sizeof vars[0]; i++) {
		const char *v = getenv(vars[i].var);
		if (v && *v)
			return vars[i].said;
	}
	const char *term = getenv("TERM");
	if (term && strncmp(term, "tmux", 4) == 0)
		return "tmux (TERM is tmux)";
	if (term && strncmp(term, "screen", 6) == 0)
		return "tmux or screen (TERM is screen)";
	static const struct {
		const char *comm, *said;
	} parents[] = {
		{"tmux", "tmux (a tmux process is among its parents)"},
		{"screen", "screen (a screen process is among its parents)"},
		{"zellij", "zellij (a zellij process is among its parents)"},
		{"wezterm", "WezTerm (a wezterm process is among its parents; its mux socket reads and types into panes)"},
	};
	pid_t p = getppid();
	for (int depth = 0; p > 1 && depth < 128; depth++) {
		char path[64], comm[32] = "";
		snprintf(path, sizeof path, "/proc/%ld/comm", (long)p);
		int fd = open(path, O_RDONLY | O_CLOEXEC);
		ssize_t n = fd >= 0 ? read(fd, comm, sizeof comm - 1) : -1;
		if (fd >= 0)
			close(fd);
		comm[n > 0 ? n : 0] = '\0';
		for (size_t i = 0; i < sizeof parents / sizeof parents[0]; i++)
			if (strncasecmp(comm, parents[i].comm, strlen(parents[i].comm)) == 0)
				return parents[i].said;
		p = proc_parent(p);
	}
	return NULL;
}

int approver_main(bool trust_multiplexer)
{
	struct approver a = {.listener = -1, .tty = -1, .sigfd = -1, .shown = -1};
	for (int i = 0; i < APPROVER_ASKERS_MAX; i++)
		a.askers[i].fd = -1;
	/* Anything that reaches the multiplexer's server (a sandboxed copy of
	 * tmux does: its socket is a pathname socket too) can read this pane
	 * and type the answer, a typed code included. */
	const char *in = multiplexer();
	if (in && !trust_multiplexer) {
		fprintf(stderr,
		        "sbsh: --approver: refusing to run inside %s: whatever reaches its server, a sandboxed"
		        " process too, can read this terminal (tmux capture-pane) and type the answers (send-keys)."
		        " Run it in a terminal of its own, or add --trust-multiplexer if nothing sandboxed can"
		        " reach that server.\n",
		        in);
		return 1;
	}
	if (!proc_confinement_of(0, &a.self)) {
		fprintf(stderr, "sbsh: --approver: cannot read /proc/self/status, needed to tell sbsh's brokers from"
		                " sandboxed processes\n");
		return 1;
	}
	a.tty = open_answer_terminal();
	if (a.tty < 0) {
		fprintf(stderr, "sbsh: --approver: needs a terminal to read the answers from\n");
		return 1;
	}
	if (in)
		fprintf(stderr, "sbsh: --approver: warning: running inside %s (--trust-multiplexer): whatever reaches"
		                " its server can read and answer these questions\n", in);
	a.listener = approver_listen(&a);
	if (a.listener < 0) {
		close(a.tty);
		free(a.path);
		return 1;
	}
	sigset_t set;
	sigemptyset(&set);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGHUP);
	sigaddset(&set, SIGQUIT);
	sigprocmask(SIG_BLOCK, &set, NULL);
	signal(SIGPIPE, SIG_IGN);
	a.sigfd = signalfd(-1, &set, SFD_CLOEXEC);
	a.attrs = isatty(a.tty) && approval_terminal_attrs(getenv("TERM"));
	/* Keys come one at a time and are echoed by us; ^C and ^D arrive as
	 * keys, so they stop the approver even while a question is shown. */
	if (tcgetattr(a.tty, &a.saved) == 0) {
		a.have_saved = true;
		struct termios t = a.saved;
		t.c_lflag &= ~(tcflag_t)(ICANON | ECHO | ISIG);
		t.c_iflag |= ICRNL;
		t.c_cc[VMIN] = 1;
		t.c_cc[VTIME] = 0;
		tcsetattr(a.tty, TCSANOW, &t);
	}
	struct strbuf sb;
	strbuf_init(&sb);
	strbuf_adds(&sb, "sbsh: approver ready on ");
	approval_add_visible(&sb, a.path);
	strbuf_adds(&sb, "\nsbsh: it answers for every sbsh of this user; Ctrl-C or Ctrl-D stops it.\n");
	say(&a, sb.data);
	strbuf_free(&sb);

	if (a.sigfd >= 0)
		serve(&a);

	if (a.shown >= 0)
		unshow(&a, "sbsh: refused (the approver stopped).\n");
	for (int i = 0; i < APPROVER_ASKERS_MAX; i++)
		if (a.askers[i].fd >= 0)
			drop(&a, i); /* a vanished approver is a no */
	close(a.listener);
	struct stat st;
	if (lstat(a.path, &st) == 0 && st.st_dev == a.dev && st.st_ino == a.ino)
		unlink(a.path);
	if (a.have_saved)
		tcsetattr(a.tty, TCSANOW, &a.saved);
	say(&a, "sbsh: approver stopped.\n");
	close(a.tty);
	free(a.path);
	return 0;
}
