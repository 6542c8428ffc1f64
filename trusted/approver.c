/* `sbsh --approver` and what brokers need to use it, plus the prompt text
 * both the approver and the broker's own terminal show.
 *
 * Trust runs one way: a broker answers for its session only with what the
 * approver says, so the broker checks the approver (folder, owner, peer
 * uid). The approver need not trust who asks: asking grants nothing, and
 * the pid it shows comes from the kernel (SO_PEERCRED), not from the asker. */
#include "trusted/approver.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

#include "trusted/broker_proto.h"

#define APPROVER_SOCKET_NAME "approver.sock"
#define APPROVER_ASKERS_MAX 32
/* A connection that has not asked anything by then is dropped (startup's
 * probe connects and leaves at once). */
#define APPROVER_IDLE_MS 10000

/* ---- prompt text -------------------------------------------------------- */

static bool is_invisible_control(unsigned long cp)
{
	/* C1 controls (a terminal may take U+009B as CSI) and the format
	 * characters that reorder or hide text (bidi overrides, zero widths). */
	return (cp >= 0x80 && cp <= 0x9f) || cp == 0x061c || (cp >= 0x200b && cp <= 0x200f) ||
	       (cp >= 0x2028 && cp <= 0x202e) || (cp >= 0x2060 && cp <= 0x206f) || cp == 0xfeff ||
	       (cp >= 0xfff9 && cp <= 0xfffb);
}

/* Columns a printable code point takes: a rough table, enough to keep the
 * caret line under the right word for common scripts. */
static size_t columns_of(unsigned long cp)
{
	if ((cp >= 0x0300 && cp <= 0x036f) || (cp >= 0xfe00 && cp <= 0xfe0f))
		return 0;
	if ((cp >= 0x1100 && cp <= 0x115f) || (cp >= 0x2e80 && cp <= 0xa4cf) ||
	    (cp >= 0xac00 && cp <= 0xd7a3) || (cp >= 0xf900 && cp <= 0xfaff) ||
	    (cp >= 0xfe30 && cp <= 0xfe4f) || (cp >= 0xff00 && cp <= 0xff60) ||
	    (cp >= 0xffe0 && cp <= 0xffe6) || (cp >= 0x1f300 && cp <= 0x1f64f) ||
	    (cp >= 0x1f900 && cp <= 0x1f9ff) || (cp >= 0x20000 && cp <= 0x3fffd))
		return 2;
	return 1;
}

/* Decodes one UTF-8 sequence at s (n bytes left). Returns its length, or 0
 * when the bytes there are not valid UTF-8. */
static size_t utf8_decode(const unsigned char *s, size_t n, unsigned long *cp)
{
	size_t len;
	unsigned long min;
	if (s[0] >= 0xc2 && s[0] <= 0xdf) {
		len = 2, min = 0x80, *cp = s[0] & 0x1fu;
	} else if (s[0] >= 0xe0 && s[0] <= 0xef) {
		len = 3, min = 0x800, *cp = s[0] & 0x0fu;
	} else if (s[0] >= 0xf0 && s[0] <= 0xf4) {
		len = 4, min = 0x10000, *cp = s[0] & 0x07u;
	} else {
		return 0;
	}
	if (n < len)
		return 0;
	for (size_t i = 1; i < len; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		*cp = (*cp << 6) | (s[i] & 0x3fu);
	}
	if (*cp < min || *cp > 0x10ffff || (*cp >= 0xd800 && *cp <= 0xdfff))
		return 0;
	return len;
}

/* Appends n bytes of s so that none of them can act on the terminal:
 * control characters, invalid UTF-8 and invisible format characters are
 * shown as escapes. Returns the columns the text takes. */
static size_t add_visible(struct strbuf *sb, const char *s, size_t n)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t cols = 0;
	for (size_t i = 0; i < n;) {
		unsigned long cp;
		size_t len;
		if (p[i] >= 0x20 && p[i] < 0x7f) {
			strbuf_addc(sb, (char)p[i]);
			cols++;
			i++;
		} else if (p[i] < 0x80 || (len = utf8_decode(p + i, n - i, &cp)) == 0) {
			strbuf_addf(sb, "\\x%02x", p[i]);
			cols += 4;
			i++;
		} else if (is_invisible_control(cp)) {
			strbuf_addf(sb, "\\u%04lx", cp);
			cols += 6;
			i += len;
		} else {
			strbuf_addmem(sb, s + i, len);
			cols += columns_of(cp);
			i += len;
		}
	}
	return cols;
}

static void add_visible_str(struct strbuf *sb, const char *s)
{
	add_visible(sb, s, strlen(s));
}

/* The command on its own line, its marked words in reverse video when the
 * terminal can show it, and a caret line under them either way. */
static void add_marked_command(struct strbuf *sb, const char *command, const char *marks, bool attrs)
{
	struct broker_mark m[BROKER_MARKS_MAX];
	size_t len = strlen(command);
	int n = marks && *marks ? broker_frame_marks(marks, len, m, BROKER_MARKS_MAX) : 0;
	if (n < 0)
		n = 0; /* checked where it was received; here it is only drawn */
	struct strbuf carets;
	strbuf_init(&carets);
	size_t col = 0, at = 0;
	strbuf_adds(sb, "    ");
	for (int i = 0; i < n; i++) {
		col += add_visible(sb, command + at, m[i].at - at);
		while (carets.len < col)
			strbuf_addc(&carets, ' ');
		if (attrs)
			strbuf_adds(sb, "\033[7m");
		size_t width = add_visible(sb, command + m[i].at, m[i].len);
		if (attrs)
			strbuf_adds(sb, "\033[27m");
		col += width;
		for (size_t k = 0; k < (width ? width : 1); k++)
			strbuf_addc(&carets, '^');
		at = m[i].at + m[i].len;
	}
	add_visible(sb, command + at, len - at);
	strbuf_addc(sb, '\n');
	if (n > 0)
		strbuf_addf(sb, "    %s\n", carets.data);
	strbuf_free(&carets);
}

void approval_prompt(struct strbuf *sb, const struct approval_question *q, pid_t from,
                     const char *code, size_t waiting, bool attrs)
{
	if (q->escape)
		strbuf_adds(sb, "\nsbsh: the agent asks to run a command OUTSIDE the sandbox:\n");
	else
		strbuf_adds(sb, "\nsbsh: the agent wants to run a command that needs your approval:\n");
	add_marked_command(sb, q->command, q->marks, attrs);
	if (q->escape) {
		strbuf_adds(sb, "  program: ");
		add_visible_str(sb, q->program);
	} else {
		strbuf_adds(sb, "  verdict: ");
		add_visible_str(sb, q->verdict);
		strbuf_adds(sb, " — ");
		add_visible_str(sb, q->reason);
	}
	strbuf_adds(sb, "\n  in: ");
	add_visible_str(sb, q->folder);
	strbuf_addc(sb, '\n');
	if (from > 0)
		strbuf_addf(sb, "  session: sbsh pid %ld\n", (long)from);
	if (q->escape && q->warning && *q->warning) {
		strbuf_adds(sb, "  WARNING: ");
		add_visible_str(sb, q->warning);
		strbuf_addc(sb, '\n');
	}
	if (waiting)
		strbuf_addf(sb, "  (%zu more waiting)\n", waiting);
	if (q->escape)
		strbuf_addf(sb, "Type %s and Enter to run it; anything else refuses (%u s): ",
		            code ? code : "?", q->timeout_s);
	else
		strbuf_addf(sb, "Allow? [y]es once, yes for this [s]ession, [n]o (%u s): ", q->timeout_s);
}

int approval_parse_answer(const char *typed)
{
	if (strcmp(typed, "y") == 0 || strcmp(typed, "yes") == 0)
		return BROKER_YES_ONCE;
	if (strcmp(typed, "s") == 0 || strcmp(typed, "session") == 0)
		return BROKER_YES_SESSION;
	return BROKER_NO;
}

void approval_make_code(char *code, size_t size)
{
	static const char alphabet[] = "abcdefghjkmnpqrstuvwxyz23456789";
	unsigned char rnd[16];
	if (getrandom(rnd, sizeof rnd, 0) != (ssize_t)sizeof rnd) {
		uint64_t t = (uint64_t)time(NULL) ^ ((uint64_t)getpid() << 32);
		memcpy(rnd, &t, sizeof t);
		memcpy(rnd + 8, &t, sizeof t);
	}
	for (size_t i = 0; i + 1 < size; i++)
		code[i] = alphabet[rnd[i % sizeof rnd] % (sizeof alphabet - 1)];
	code[size - 1] = '\0';
}

bool approval_terminal_attrs(const char *term)
{
	return term && *term && strcmp(term, "dumb") != 0;
}

/* ---- the socket --------------------------------------------------------- */

/* $XDG_RUNTIME_DIR/sbsh, or NULL when XDG_RUNTIME_DIR is not an absolute
 * path. */
static char *approver_dir(void)
{
	const char *rt = getenv("XDG_RUNTIME_DIR");
	if (!rt || rt[0] != '/')
		return NULL;
	return xasprintf("%s/sbsh", rt);
}

static bool fill_address(struct sockaddr_un *addr, const char *path)
{
	memset(addr, 0, sizeof *addr);
	addr->sun_family = AF_UNIX;
	size_t len = strlen(path);
	if (len >= sizeof addr->sun_path)
		return false;
	memcpy(addr->sun_path, path, len + 1);
	return true;
}

static int connect_path(const char *path)
{
	struct sockaddr_un addr;
	if (!fill_address(&addr, path))
		return -1;
	int fd = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -1;
	int r;
	do
		r = connect(fd, (struct sockaddr *)&addr, sizeof addr);
	while (r < 0 && errno == EINTR);
	if (r < 0) {
		int saved = errno;
		close(fd);
		errno = saved;
		return -1;
	}
	return fd;
}

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
		close(fd);
		return -1;
	}
	/* A little longer than the approver's own limit, so it is the one
	 * that withdraws the question and says so. */
	struct timespec now;
	clock_gettime(CLOCK_MONOTONIC, &now);
	int64_t deadline = (int64_t)now.tv_sec * 1000 + now.tv_nsec / 1000000 + ((int64_t)q->timeout_s + 2) * 1000;
	int answer = BROKER_NO;
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
		if (r < 0 && errno != EINTR)
			break;
		if (r <= 0)
			continue;
		if (pfd[0].revents) {
			int got = approver_receive(fd);
			answer = got < 0 ? BROKER_NO : got;
			break;
		}
		for (size_t i = 0; i < nothers; i++)
			others[i].revents = pfd[i + 1].revents;
		if (tend && !tend(ctx, others))
			break;
	}
	close(fd);
	return answer;
}

int approver_ask(const struct approval_question *q, char *const *writable, const char **why)
{
	*why = NULL;
	int fd = approver_connect(writable, why);
	if (fd < 0)
		return -1;
	int answer = approver_await(fd, q, NULL, 0, NULL, NULL);
	if (answer < 0)
		*why = "the approver went away";
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
	int fd = path ? connect_path(path) : -1;
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
	fd = connect_path(path);
	if (fd < 0)
		goto out; /* none listens: not an error */
	struct ucred cred;
	socklen_t len = sizeof cred;
	if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cred, &len) != 0 || cred.uid != geteuid()) {
		*why = "the approver runs as another user";
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
		q->escape ? "escape" : "approval", q->folder, q->verdict, q->command,
		q->reason, q->marks, q->program, q->warning,
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
	do
		n = recv(fd, &f, sizeof f, MSG_DONTWAIT);
	while (n < 0 && errno == EINTR);
	if (n <= 0 || broker_frame_check(&f, (size_t)n) != 0 || f.type != BROKER_RESULT)
		return -1;
	return f.value == BROKER_YES_ONCE || f.value == BROKER_YES_SESSION ? f.value : BROKER_NO;
}

/* ---- the approver ------------------------------------------------------- */

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
};

static int64_t now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static void say(struct approver *a, const char *s)
{
	util_write_all(a->tty, s, strlen(s));
}

static void drop(struct approver *a, int i)
{
	struct asker *k = &a->askers[i];
	close(k->fd);
	free(k->frame);
	memset(k, 0, sizeof *k);
	k->fd = -1;
	if (a->shown == i)
		a->shown = -1;
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
	          (strcmp(fields[0], "approval") == 0 || strcmp(fields[0], "escape") == 0) &&
	          broker_frame_marks(fields[5], strlen(fields[3]), marks, BROKER_MARKS_MAX) >= 0;
	if (!ok) {
		free(f);
		if (a->shown == i)
			say(a, "\nsbsh: withdrawn (the session went away).\n");
		drop(a, i);
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
		.timeout_s = timeout,
	};
	k->deadline_ms = now_ms() + (int64_t)timeout * 1000;
	k->order = a->next_order++;
}

static void accept_askers(struct approver *a)
{
	while (1) {
		int fd = accept4(a->listener, NULL, NULL, SOCK_CLOEXEC | SOCK_NONBLOCK);
		if (fd < 0) {
			if (errno == EINTR)
				continue;
			return;
		}
		struct ucred cred;
		socklen_t len = sizeof cred;
		int slot = -1;
		for (int i = 0; i < APPROVER_ASKERS_MAX && slot < 0; i++)
			if (a->askers[i].fd < 0)
				slot = i;
		if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cred, &len) != 0 || cred.uid != geteuid() ||
		    slot < 0) {
			close(fd);
			continue;
		}
		a->askers[slot] = (struct asker){.fd = fd, .pid = cred.pid, .since_ms = now_ms()};
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
	if (k->q.escape)
		approval_make_code(a->code, sizeof a->code);
	struct approval_question shown = k->q;
	int64_t left = k->deadline_ms - now_ms();
	shown.timeout_s = left > 0 ? (unsigned)((left + 999) / 1000) : 0;
	struct strbuf sb;
	strbuf_init(&sb);
	approval_prompt(&sb, &shown, k->pid, k->q.escape ? a->code : NULL, queued - 1, a->attrs);
	/* Keys pressed before the question was on screen do not answer it. */
	tcflush(a->tty, TCIFLUSH);
	util_write_all(a->tty, sb.data, sb.len);
	strbuf_free(&sb);
}

static void answer_shown(struct approver *a)
{
	struct asker *k = &a->askers[a->shown];
	a->typed[a->ntyped] = '\0';
	int answer;
	if (k->q.escape)
		answer = strcmp(a->typed, a->code) == 0 ? BROKER_YES_ONCE : BROKER_NO;
	else
		answer = approval_parse_answer(a->typed);
	say(a, answer == BROKER_NO ? "\nsbsh: refused.\n" : "\nsbsh: approved.\n");
	answer_and_drop(a, a->shown, answer);
}

/* One key from the human. Returns false to stop the approver. */
static bool take_key(struct approver *a, unsigned char c)
{
	if (c == 3 || c == 4) /* ^C, ^D */
		return false;
	if (a->shown < 0)
		return true; /* nothing is asked: keys mean nothing */
	if (c == '\r' || c == '\n') {
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

static void expire(struct approver *a)
{
	int64_t now = now_ms();
	for (int i = 0; i < APPROVER_ASKERS_MAX; i++) {
		struct asker *k = &a->askers[i];
		if (k->fd < 0)
			continue;
		if (k->frame && now >= k->deadline_ms) {
			if (a->shown == i)
				say(a, "\nsbsh: withdrawn (timed out).\n");
			answer_and_drop(a, i, BROKER_NO);
		} else if (!k->frame && now >= k->since_ms + APPROVER_IDLE_MS) {
			drop(a, i);
		}
	}
}

static int poll_timeout(struct approver *a)
{
	int64_t now = now_ms(), soonest = -1;
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
		int r = poll(pfd, n, poll_timeout(a));
		if (r < 0 && errno != EINTR)
			return;
		if (r < 0)
			continue;
		if (pfd[0].revents)
			return; /* Ctrl-C as a signal, SIGTERM, SIGHUP */
		if (pfd[1].revents) {
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
					say(a, "\nsbsh: withdrawn (the session went away).\n");
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
	if (!problem && !fill_address(&addr, a->path))
		problem = xasprintf("the socket path %s is too long", a->path);
	if (problem) {
		fprintf(stderr, "sbsh: --approver: %s\n", problem);
		free(problem);
		return -1;
	}
	int probe = connect_path(a->path);
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

int approver_main(void)
{
	struct approver a = {.listener = -1, .tty = -1, .sigfd = -1, .shown = -1};
	for (int i = 0; i < APPROVER_ASKERS_MAX; i++)
		a.askers[i].fd = -1;
	a.tty = open_answer_terminal();
	if (a.tty < 0) {
		fprintf(stderr, "sbsh: --approver: needs a terminal to read the answers from\n");
		return 1;
	}
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
	add_visible_str(&sb, a.path);
	strbuf_adds(&sb, "\nsbsh: it answers for every sbsh of this user; Ctrl-C or Ctrl-D stops it.\n");
	say(&a, sb.data);
	strbuf_free(&sb);

	if (a.sigfd >= 0)
		serve(&a);

	if (a.shown >= 0)
		say(&a, "\nsbsh: refused (the approver stopped).\n");
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
