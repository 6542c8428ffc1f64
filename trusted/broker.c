/* The broker process: terminal owner, prompter, runner of approved escapes.
 * It is forked before the sandbox is applied and never runs shell code; its
 * only input from the sandboxed side is fixed frames on a SEQPACKET socket. */
#include "trusted/broker.h"
#include "trusted/broker_proto.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

#include "trusted/approver_client.h"
#include "trusted/broker_git.h"
#include "trusted/grants.h"
#include "trusted/session_socket.h"
#include "lib/proc_status.h"
#include "trusted/unix_diag.h"
#include "trusted/prompt.h"
#include "sandbox/sandbox.h"
#include "lib/util.h"
#include "lib/events.h"
#include "trusted/session_freeze.h"
#include "trusted/warden_proto.h"

extern char **environ;

/* Encodes a waitpid() status as a shell exit status. */
static int broker_wait_status(int wstatus)
{
	if (WIFEXITED(wstatus))
		return WEXITSTATUS(wstatus);
	if (WIFSIGNALED(wstatus))
		return 128 + WTERMSIG(wstatus);
	return 1;
}

/* ---- the broker's state ---------------------------------------------- */

/* A nested shell connected to the session's socket: at most a few at once,
 * and one that asks nothing for a while is dropped, so connections held
 * open by the agent cannot stop the real ones. */
#define SESSION_PEERS_MAX 8
#define SESSION_IDLE_MS 10000

struct session_peer {
	int fd; /* -1: a free slot */
	pid_t pid; /* from the kernel */
	int64_t since_ms;
};

struct broker {
	const struct broker_options *opts;
	int sock;
	int tty;           /* the human's terminal */
	int sigfd;
	pid_t shell;
	int master;        /* pty master, or -1 */
	bool relay_input;  /* stdin was the terminal: keystrokes go to the pty */
	bool raw;          /* the terminal is in raw mode for the relay */
	struct termios saved;
	char **env;        /* the environment sbsh was started with */
	pid_t escape_pgid; /* a running approved command, or 0 */
	time_t refused_at; /* rate limit after a refusal */
	int shell_status;
	bool shell_done;
	char **writable;   /* the sandbox's writable folders, once needed */
	bool writable_known;
	int session_listener; /* nested shells' questions (session_socket.h), or -1 */
	char *session_path;
	struct session_peer peers[SESSION_PEERS_MAX];
	struct grant_table grants; /* the human's yes, for what runs inside */
};

static void tty_print(struct broker *b, const char *s)
{
	/* In raw mode the terminal does not turn \n into \r\n. */
	for (const char *p = s; *p; p++) {
		if (*p == '\n')
			util_write_all(b->tty, "\r\n", 2);
		else
			util_write_all(b->tty, p, 1);
	}
}

/* A word of an escape's argv as the shell would quote it; the prompt
 * escapes what could act on the terminal. */
static void append_word(struct strbuf *sb, const char *w)
{
	bool plain = *w != '\0';
	for (const char *p = w; *p && plain; p++)
		plain = strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./=:,+@%", *p) != NULL;
	if (plain) {
		strbuf_adds(sb, w);
		return;
	}
	strbuf_add_single_quoted(sb, w, strlen(w));
}

static char *env_lookup(char **env, const char *name)
{
	size_t n = strlen(name);
	for (char **e = env; e && *e; e++)
		if (strncmp(*e, name, n) == 0 && (*e)[n] == '=')
			return *e + n + 1;
	return NULL;
}

/* The program the command names, resolved with the saved PATH (never the
 * agent's) relative to the caller's folder. */
static char *resolve_program(struct broker *b, const char *name, int cwd)
{
	if (strchr(name, '/')) {
		char *path;
		if (name[0] == '/') {
			path = xstrdup(name);
		} else {
			char dir[PATH_MAX];
			char link[64];
			snprintf(link, sizeof link, "/proc/self/fd/%d", cwd);
			ssize_t n = readlink(link, dir, sizeof dir - 1);
			if (n < 0)
				return NULL;
			dir[n] = '\0';
			path = xasprintf("%s/%s", dir, name);
		}
		char *real = realpath(path, NULL);
		free(path);
		return real;
	}
	const char *pathvar = env_lookup(b->env, "PATH");
	if (!pathvar)
		pathvar = "/usr/local/bin:/usr/bin:/bin";
	const char *p = pathvar;
	while (1) {
		size_t n = strcspn(p, ":");
		char *cand = n ? xasprintf("%.*s/%s", (int)n, p, name) : xasprintf("./%s", name);
		struct stat sb;
		if (stat(cand, &sb) == 0 && S_ISREG(sb.st_mode) && access(cand, X_OK) == 0) {
			char *real = realpath(cand, NULL);
			free(cand);
			return real;
		}
		free(cand);
		if (!p[n])
			return NULL;
		p += n + 1;
	}
}

/* Named only when an escape or an approver needs them: most sessions
 * never ask, and the descriptors already fix which folders they are. */
static char **broker_writable(struct broker *b)
{
	if (!b->writable_known) {
		struct strvec v;
		strvec_init(&v);
		if (b->opts->sandbox && b->opts->sandbox->mode != SANDBOX_OFF)
			sandbox_writable_paths(b->opts->sandbox, &v);
		b->writable = strvec_detach(&v);
		b->writable_known = true;
	}
	return b->writable;
}

static bool in_writable_folder(struct broker *b, const char *path)
{
	for (char **w = broker_writable(b); w && *w; w++) {
		size_t n = strlen(*w);
		if (strncmp(path, *w, n) == 0 && (path[n] == '/' || path[n] == '\0'))
			return true;
	}
	return false;
}

/* Reads one line typed by the human, with echo, no signals (^C refuses),
 * and a time limit. Returns false on timeout, EOF or ^C. With bare_no, an
 * n typed first is the whole answer, no Enter needed (refusing is never the
 * risky mistake). */
static bool read_answer(struct broker *b, char *buf, size_t size, bool bare_no, bool *timed_out)
{
	struct termios old, t;
	bool have_termios = tcgetattr(b->tty, &old) == 0;
	if (have_termios) {
		t = old;
		t.c_lflag &= ~(tcflag_t)(ICANON | ISIG | ECHO);
		t.c_iflag |= ICRNL;
		t.c_cc[VMIN] = 1;
		t.c_cc[VTIME] = 0;
		tcsetattr(b->tty, TCSANOW, &t);
	}
	/* Typeahead from before the prompt is not an answer. */
	tcflush(b->tty, TCIFLUSH);
	size_t len = 0;
	bool ok = false;
	*timed_out = false;
	time_t deadline = time(NULL) + (time_t)b->opts->timeout_s;
	while (1) {
		time_t now = time(NULL);
		if (now >= deadline) {
			*timed_out = true;
			break;
		}
		struct pollfd pfd = {.fd = b->tty, .events = POLLIN};
		int r = poll(&pfd, 1, (int)(deadline - now) * 1000);
		if (r < 0 && errno == EINTR)
			continue;
		if (r == 0)
			continue; /* the deadline, checked above */
		if (r < 0 || (pfd.revents & (POLLHUP | POLLERR | POLLNVAL)))
			break;
		char c;
		if (read(b->tty, &c, 1) != 1)
			break;
		if (c == '\r' || c == '\n') {
			ok = true;
			break;
		}
		if (c == 3 || c == 4) /* ^C, ^D */
			break;
		if ((c == 0x7f || c == 8) && len) {
			len--;
			util_write_all(b->tty, "\b \b", 3);
			continue;
		}
		if ((unsigned char)c >= 0x20 && len + 1 < size) {
			buf[len++] = c;
			util_write_all(b->tty, &c, 1);
			if (bare_no && len == 1 && (c == 'n' || c == 'N')) {
				/* the Enter a human types after it is not left for
				 * the command to read (a key that soon is typeahead) */
				struct pollfd more = {.fd = b->tty, .events = POLLIN};
				char e;
				if (poll(&more, 1, 300) == 1 && (more.revents & POLLIN) && read(b->tty, &e, 1) != 1)
					e = 0;
				ok = true;
				break;
			}
		}
	}
	buf[len] = '\0';
	if (have_termios)
		tcsetattr(b->tty, TCSANOW, &old);
	return ok;
}

static int ask_on_screen(struct broker *b, const struct approval_question *q, const char **why);

/* The question on the session's own terminal. Returns a broker_answer,
 * or -1 with *why set when it cannot be put there: it does not fit on the
 * screen (never shown in part), or what could draw over it will not
 * pause. */
static int ask_on_terminal(struct broker *b, const struct approval_question *q, const char **why)
{
	/* Jobs an earlier sbsh -c left on this terminal (it had no broker, so
	 * they hold the terminal itself) could draw a question of their own
	 * over this one once it is on the screen: they pause until it is
	 * answered. */
	struct session_freeze holders;
	if (terminal_freeze(&holders, b->tty) != 0) {
		*why = "a sandboxed process holding the human's terminal would not pause while the question is up";
		return -1;
	}
	int answer = ask_on_screen(b, q, why);
	pid_t newcomer = answer == BROKER_NO || answer < 0 ? 0 : terminal_newcomer(&holders, b->tty);
	session_thaw(&holders, 0);
	if (newcomer) {
		/* It got the terminal from another process while the question
		 * was up: what the human read may have been its drawing. */
		char note[160];
		snprintf(note, sizeof note, "sbsh: not run: a sandboxed process (pid %ld) took hold of this terminal"
		                            " while you were asked\n", (long)newcomer);
		tty_print(b, note);
		answer = BROKER_NO;
	}
	return answer;
}

/* The question on the terminal, once nothing else can write there. */
static int ask_on_screen(struct broker *b, const struct approval_question *q, const char **why)
{
	char code[5];
	if (approval_needs_code(q))
		approval_make_code(code, sizeof code);
	/* The agent's output reached this terminal just before: the question
	 * is put on a screen of its own, in a known state, sized to fit. */
	struct approval_screen screen;
	approval_screen_of(b->tty, approval_terminal_attrs(env_lookup(b->env, "TERM")), &screen);
	struct strbuf text, sb;
	strbuf_init(&text);
	strbuf_init(&sb);
	bool fits = approval_prompt(&text, q, 0, approval_needs_code(q) ? code : NULL, 0, &screen);
	approval_screen_enter(&sb, screen.attrs, fits);
	strbuf_addmem(&sb, text.data, text.len);
	tty_print(b, sb.data);
	strbuf_free(&text);
	strbuf_free(&sb);
	if (!fits) {
		*why = "the question does not fit on the human's terminal, which is too small";
		return -1; /* never shown in part; the screen says why */
	}
	char answer[64];
	int result = BROKER_NO;
	bool timed_out;
	bool answered = read_answer(b, answer, sizeof answer, !approval_needs_code(q), &timed_out);
	strbuf_init(&sb);
	approval_screen_leave(&sb, screen.attrs);
	tty_print(b, sb.data);
	strbuf_free(&sb);
	if (answered) {
		if (approval_needs_code(q))
			result = approval_check_code(q, code, answer);
		else
			result = approval_parse_answer(answer);
	} else if (timed_out) {
		result = BROKER_TIMEOUT;
	}
	tty_print(b, result == BROKER_TIMEOUT ? "\nsbsh: nobody answered in time: refused.\n"
	             : result == BROKER_NO    ? "\nsbsh: refused.\n"
	                                      : "\nsbsh: approved.\n");
	return result;
}

static void handle_signal(struct broker *b, const struct signalfd_siginfo *si);

/* The question through the approver, on fd (closed here). While it waits
 * the broker still reaps and forwards signals; the shell going away, the
 * approver going away or the time running out are a no. */
/* While the approver is asked: signals (reaped and forwarded as ever);
 * the shell exiting, or hanging up its socket, ends the question. */
static bool tend_while_asking(void *ctx, const struct pollfd *others)
{
	struct broker *b = ctx;
	if (others[0].revents & POLLIN) {
		struct signalfd_siginfo si;
		if (read(b->sigfd, &si, sizeof si) == (ssize_t)sizeof si)
			handle_signal(b, &si);
	}
	if (b->sock >= 0 && (others[1].revents & (POLLHUP | POLLERR)))
		return false;
	return !b->shell_done;
}

static int ask_through_approver(struct broker *b, int fd, const struct approval_question *q)
{
	struct pollfd others[2] = {
		{.fd = b->sigfd, .events = POLLIN},
		{.fd = b->sock, .events = 0}, /* only its hangup: the shell is gone */
	};
	return approver_await(fd, q, others, b->sock >= 0 ? 2 : 1, tend_while_asking, b);
}

/* Why the approver did not ask, for an answer of approver_await that is
 * not the human's; NULL for one that is. */
static const char *approver_did_not_ask(int answer)
{
	switch (answer) {
	case BROKER_NO:
	case BROKER_YES_ONCE:
	case BROKER_YES_SESSION:
	case BROKER_YES_AWAY:
	case BROKER_TIMEOUT:
		return NULL;
	case BROKER_BUSY:
		return "the approver is busy (too many connections to it)";
	case BROKER_TOO_TALL:
		return "the question does not fit on the approver's terminal, which is too small";
	case BROKER_SCREEN_HELD:
		return "a sandboxed process holding the approver's terminal would not pause while the question is up";
	case BROKER_ONLY_BROKERS:
		return "the approver answers only sbsh's brokers, and this one was made inside a sandbox or"
		       " started more confined than the approver";
	default:
		return "the approver went away without answering";
	}
}

/* Puts a question to the human: the approver when one runs, else the
 * session's terminal when it has one. Returns a broker_answer, or -1 with
 * *why set when nobody could be asked. */
static int put_question(struct broker *b, const struct approval_question *q, const char **why)
{
	const char *distrust = NULL;
	int fd = approver_connect(broker_writable(b), &distrust);
	if (fd >= 0) {
		int answer = ask_through_approver(b, fd, q);
		distrust = approver_did_not_ask(answer);
		if (!distrust)
			return answer;
	}
	if (b->tty >= 0) {
		if (distrust) {
			tty_print(b, "\nsbsh: not using the approver: ");
			tty_print(b, distrust);
			tty_print(b, "\n");
		}
		return ask_on_terminal(b, q, why);
	}
	*why = distrust ? distrust : "headless, nobody to approve";
	return -1;
}

static void send_frame(int sock, uint32_t type, int32_t value, const char *text)
{
	struct broker_frame f;
	f.magic = BROKER_MAGIC;
	f.type = type;
	f.value = value;
	f.len = text ? (uint32_t)strlen(text) + 1 : 0;
	if (text)
		memcpy(f.payload, text, f.len);
	ssize_t ignored = send(sock, &f, BROKER_HEADER_SIZE + f.len, MSG_NOSIGNAL);
	(void)ignored;
}

static void forward_signal(struct broker *b, int sig)
{
	if (b->escape_pgid > 0)
		kill(-b->escape_pgid, sig);
	else if (b->shell > 0 && !b->shell_done)
		kill(b->shell, sig);
}

/* What the shell's pty shows goes to the human's terminal. */
static void relay_output(struct broker *b)
{
	char buf[8192];
	ssize_t r = read(b->master, buf, sizeof buf);
	if (r > 0) {
		util_write_all(b->tty, buf, (size_t)r);
	} else if (r < 0 && errno != EINTR && errno != EAGAIN) {
		/* EIO: every slave fd is closed; wait for the exit status. */
		close(b->master);
		b->master = -1;
	}
}

/* What the human types goes to the shell's pty. While an escaped command
 * runs (in a process group of ours, not the pty's), the keys that
 * interrupt and quit are its signals: the pty would send them to the
 * shell's jobs instead. */
static void relay_input(struct broker *b)
{
	char buf[4096];
	ssize_t r = read(b->tty, buf, sizeof buf);
	if (r == 0 || (r < 0 && errno != EINTR && errno != EAGAIN)) {
		/* The terminal went away: hang up the shell's too, so a
		 * shell that ignores SIGHUP still reads end of file. */
		b->relay_input = false;
		close(b->master);
		b->master = -1;
		return;
	}
	if (r < 0)
		return;
	if (b->escape_pgid <= 0) {
		util_write_all(b->master, buf, (size_t)r);
		return;
	}
	struct termios t;
	bool have = tcgetattr(b->master, &t) == 0 && (t.c_lflag & ISIG);
	size_t from = 0;
	for (size_t i = 0; i < (size_t)r; i++) {
		unsigned char c = (unsigned char)buf[i];
		int sig = !have ? 0 : c == t.c_cc[VINTR] ? SIGINT : c == t.c_cc[VQUIT] ? SIGQUIT : 0;
		if (!sig)
			continue;
		util_write_all(b->master, buf + from, i - from);
		kill(-b->escape_pgid, sig);
		from = i + 1;
	}
	util_write_all(b->master, buf + from, (size_t)r - from);
}

static void handle_child_exit(struct broker *b, pid_t pid, int wstatus)
{
	if (pid == b->shell) {
		b->shell_done = true;
		b->shell_status = wstatus;
	}
}

/* Runs an approved command and waits for it, forwarding signals. */
/* The environment of an escaped command: sbsh's own, with every git
 * pinned as inside the sandbox (the baseline's hooks, no fsmonitor), so a
 * hook or a monitor planted in the project does not run outside; and
 * Python not importing from the folder it runs in (`python3 -m json.tool`
 * would run the agent's json/__init__.py). */
static char **escape_env(struct broker *b)
{
	struct strvec env;
	strvec_init(&env);
	static char *const always[] = {"PYTHONSAFEPATH=1", NULL};
	struct strvec pins;
	strvec_init(&pins);
	for (char *const *q = b->opts->escape_env; q && *q; q++)
		strvec_push(&pins, *q);
	for (char *const *q = always; *q; q++)
		strvec_push(&pins, *q);
	char *const *pin = pins.items;
	for (char **e = b->env; e && *e; e++) {
		bool overridden = false;
		for (char *const *q = pin; q && *q && !overridden; q++) {
			const char *eq = strchr(*q, '=');
			size_t n = eq ? (size_t)(eq - *q) : strlen(*q);
			overridden = strncmp(*e, *q, n) == 0 && (*e)[n] == '=';
		}
		if (!overridden)
			strvec_push(&env, *e);
	}
	for (char *const *q = pin; q && *q; q++)
		strvec_push(&env, *q);
	strvec_free(&pins);
	return strvec_detach(&env);
}

/* Before an escape, the protected files are put back as the human left
 * them: what the agent planted there would run outside. Says what. */
static void restore_before_escape(struct broker *b)
{
	if (b->opts->protect_fd < 0)
		return;
	struct strvec restored;
	strvec_init(&restored);
	if (warden_ask_check(b->opts->protect_fd, BROKER_CHECK_LINE, &restored) == 0)
		for (size_t i = 0; i < restored.len; i++)
			warden_print_restored(restored.items[i], "changed inside the sandbox, before this escape");
	strvec_free(&restored);
}

static int run_escape(struct broker *b, char *const *argv, const char *program, const int fds[4])
{
	char **env = escape_env(b);
	pid_t pid = fork();
	if (pid < 0)
		return 126;
	if (pid == 0) {
		setpgid(0, 0);
		sigset_t none;
		sigemptyset(&none);
		sigprocmask(SIG_SETMASK, &none, NULL);
		for (int i = 0; i < 3; i++)
			if (fds[i] != i && dup2(fds[i], i) < 0)
				_exit(126);
		if (fchdir(fds[3]) != 0)
			_exit(126);
		execve(program, argv, env);
		_exit(errno == ENOENT ? 127 : 126);
	}
	strv_free(env);
	if (pid < 0)
		return 126;
	setpgid(pid, pid);
	b->escape_pgid = pid;
	int status = 1;
	while (1) {
		/* The relay goes on meanwhile: the command may write more than
		 * the pty holds, and the human may interrupt it. */
		struct signalfd_siginfo si;
		struct pollfd pfd[3] = {{.fd = b->sigfd, .events = POLLIN},
		                        {.fd = b->master, .events = POLLIN},
		                        {.fd = b->relay_input ? b->tty : -1, .events = POLLIN}};
		if (b->master < 0)
			pfd[1].fd = pfd[2].fd = -1;
		if (poll(pfd, 3, -1) < 0) {
			if (errno == EINTR)
				continue;
			break;
		}
		if (pfd[1].fd >= 0 && (pfd[1].revents & (POLLIN | POLLHUP)))
			relay_output(b);
		if (pfd[2].fd >= 0 && b->master >= 0 && (pfd[2].revents & (POLLIN | POLLHUP)))
			relay_input(b);
		if (!(pfd[0].revents & POLLIN))
			continue;
		if (read(b->sigfd, &si, sizeof si) != (ssize_t)sizeof si)
			continue;
		if (si.ssi_signo != SIGCHLD) {
			forward_signal(b, (int)si.ssi_signo);
			continue;
		}
		int ws;
		pid_t done;
		bool finished = false;
		while ((done = waitpid(-1, &ws, WNOHANG)) > 0) {
			if (done == pid) {
				status = broker_wait_status(ws);
				finished = true;
			} else {
				handle_child_exit(b, done, ws);
			}
		}
		if (finished)
			break;
	}
	b->escape_pgid = 0;
	return status;
}

/* The files an escape names, as they were when the human was asked: the
 * agent could swap a script between the question and the run. A change
 * of content or of the file a name leads to changes its inode or ctime,
 * and nothing in the sandbox can set a ctime. */
#define SEAL_MAX 64

struct operand_seal {
	size_t n;
	size_t operands; /* where the operands start (after the program) */
	int cwd;
	struct sealed {
		char *name;
		struct stat link, target; /* lstat, and stat (st_ino 0: none) */
	} files[SEAL_MAX];
};

static bool same_file(const struct stat *a, const struct stat *b)
{
	return a->st_dev == b->st_dev && a->st_ino == b->st_ino && a->st_size == b->st_size &&
	       a->st_ctim.tv_sec == b->st_ctim.tv_sec && a->st_ctim.tv_nsec == b->st_ctim.tv_nsec &&
	       a->st_mode == b->st_mode;
}

static void seal_one(struct operand_seal *s, int cwd, const char *name)
{
	if (!*name || s->n >= SEAL_MAX)
		return;
	struct sealed *f = &s->files[s->n];
	if (fstatat(cwd, name, &f->link, AT_SYMLINK_NOFOLLOW) != 0 || S_ISDIR(f->link.st_mode))
		return;
	if (fstatat(cwd, name, &f->target, 0) != 0)
		memset(&f->target, 0, sizeof f->target);
	f->name = xstrdup(name);
	s->n++;
}

static void seal_operands(struct operand_seal *s, char *const *argv, const char *program, int cwd)
{
	s->n = 0;
	s->cwd = cwd;
	if (program)
		seal_one(s, cwd, program);
	s->operands = s->n;
	for (size_t i = 1; argv[i]; i++) {
		seal_one(s, cwd, argv[i]);
		const char *eq = strchr(argv[i], '=');
		if (argv[i][0] == '-' && eq)
			seal_one(s, cwd, eq + 1); /* --file=script */
	}
}

/* The first sealed name that now leads elsewhere or to other content. */
static const char *seal_broken(const struct operand_seal *s)
{
	for (size_t i = 0; i < s->n; i++) {
		const struct sealed *f = &s->files[i];
		struct stat link, target;
		if (fstatat(s->cwd, f->name, &link, AT_SYMLINK_NOFOLLOW) != 0 || !same_file(&link, &f->link))
			return f->name;
		bool has_target = fstatat(s->cwd, f->name, &target, 0) == 0;
		if (has_target != (f->target.st_ino != 0) || (has_target && !same_file(&target, &f->target)))
			return f->name;
	}
	return NULL;
}

static void seal_free(struct operand_seal *s)
{
	for (size_t i = 0; i < s->n; i++)
		free(s->files[i].name);
	s->n = 0;
}


/* Whether st is the session's terminal: the broker's, the shell's pty, or
 * /dev/tty (which is one of them for whoever opens it). */
static bool is_session_terminal(struct broker *b, const struct stat *st)
{
	if (!S_ISCHR(st->st_mode))
		return false;
	struct stat t;
	if (st->st_rdev == makedev(5, 0) || (b->tty >= 0 && fstat(b->tty, &t) == 0 && t.st_rdev == st->st_rdev))
		return true;
	const char *slave = b->master >= 0 ? ptsname(b->master) : NULL;
	return slave && stat(slave, &t) == 0 && t.st_rdev == st->st_rdev;
}

/* What an escape's stdin, stdout and stderr are when not the terminal, a
 * line each ("stdin: a pipe"): input the human does not see on the screen
 * (a here-document) runs as much as the command does. */
static void describe_stdio(struct broker *b, const int fds[3], struct strbuf *out)
{
	static const char *const names[] = {"stdin", "stdout", "stderr"};
	for (int i = 0; i < 3; i++) {
		struct stat st;
		char path[PATH_MAX] = "?", link[64];
		snprintf(link, sizeof link, "/proc/self/fd/%d", fds[i]);
		ssize_t n = readlink(link, path, sizeof path - 1);
		if (n >= 0)
			path[n] = '\0';
		bool known = fstat(fds[i], &st) == 0;
		if (known && is_session_terminal(b, &st))
			continue;
		strbuf_addf(out, "%s%s: ", out->len ? "\n" : "", names[i]);
		size_t plen = strlen(path);
		bool deleted = plen > 10 && strcmp(path + plen - 10, " (deleted)") == 0;
		if (!known)
			strbuf_adds(out, "unknown");
		else if (S_ISFIFO(st.st_mode) && strncmp(path, "pipe:", 5) == 0)
			strbuf_adds(out, i == 0 ? "a pipe (a here-document or another command's output, not shown)"
			                        : "a pipe (to another command)");
		else if (S_ISFIFO(st.st_mode)) {
			/* a FIFO the agent made: its name says nothing of what comes */
			strbuf_adds(out, "a named pipe, ");
			approval_add_visible(out, path);
			strbuf_adds(out, i == 0 ? " (what comes through it is not shown)" : "");
		} else if (S_ISSOCK(st.st_mode))
			strbuf_adds(out, "a socket");
		else if (S_ISREG(st.st_mode) && (deleted || strncmp(path, "/memfd:", 7) == 0))
			strbuf_addf(out, "a deleted file of %lld bytes (a here-document?, not shown)", (long long)st.st_size);
		else
			approval_add_visible(out, path);
		if (known && S_ISREG(st.st_mode) && !deleted && i == 0)
			strbuf_addf(out, " (%lld bytes, not shown)", (long long)st.st_size);
	}
}

/* Whether a file an escape names (relative to its folder cwd) lies where
 * the sandbox can write, its links followed. */
static bool operand_writable(struct broker *b, const char *cwd, const char *name)
{
	char *path = name[0] == '/' ? xstrdup(name) : xasprintf("%s/%s", cwd, name);
	char *real = realpath(path, NULL);
	bool writable = in_writable_folder(b, real ? real : path);
	free(real);
	free(path);
	return writable;
}

/* What the human should know of where an escape runs: a program, a file
 * it names, or the folder it runs in, that the agent can write. Returns
 * a folder the agent cannot write to offer instead (malloc'd: $HOME, else
 * /), or NULL when the folder is not the agent's. */
/* The folders among an escape's words (and --opt=FOLDER values) that lie
 * where the agent can write, other than the one it runs in: what the
 * command reads there (make -C, npm --prefix) may be the agent's. */
static void writable_folders_named(struct broker *b, char *const *argv, const char *cwd, struct strbuf *out)
{
	size_t named = 0, more = 0;
	struct strbuf names;
	strbuf_init(&names);
	char *here = realpath(cwd, NULL);
	for (size_t i = 1; argv[i]; i++) {
		const char *eq = argv[i][0] == '-' ? strchr(argv[i], '=') : NULL;
		const char *w = eq ? eq + 1 : argv[i];
		char *path = w[0] == '/' ? xstrdup(w) : xasprintf("%s/%s", cwd, w);
		char *real = *w ? realpath(path, NULL) : NULL;
		struct stat st;
		bool folder = real && stat(real, &st) == 0 && S_ISDIR(st.st_mode) && !(here && strcmp(real, here) == 0);
		if (folder && in_writable_folder(b, real) && named++ < 3) {
			strbuf_adds(&names, named > 1 ? ", " : "");
			strbuf_adds(&names, w);
		} else if (folder && in_writable_folder(b, real)) {
			more++;
		}
		free(real);
		free(path);
	}
	free(here);
	if (named) {
		strbuf_addf(out, "%s%s", out->len ? " " : "", names.data);
		if (more)
			strbuf_addf(out, " and %zu more", more);
		strbuf_adds(out, named > 1 ? ": folders the agent can write (what it reads there may be the agent's)."
		                           : ": a folder the agent can write (what it reads there may be the agent's).");
	}
	strbuf_free(&names);
}

static char *escape_warnings(struct broker *b, const struct operand_seal *seal, char *const *argv,
                             const char *program, const char *cwd, struct strbuf *out)
{
	if (program && in_writable_folder(b, program))
		strbuf_adds(out, "this program lives in a folder the sandbox can write: the agent could have replaced it.");
	size_t named = 0, more = 0;
	struct strbuf names;
	strbuf_init(&names);
	for (size_t i = seal->operands; i < seal->n; i++) {
		if (!operand_writable(b, cwd, seal->files[i].name))
			continue;
		if (named++ < 3) {
			strbuf_adds(&names, named > 1 ? ", " : "");
			strbuf_adds(&names, seal->files[i].name);
		} else {
			more++;
		}
	}
	if (named) {
		strbuf_addf(out, "%s%s", out->len ? " " : "", names.data);
		if (more)
			strbuf_addf(out, " and %zu more", more);
		strbuf_adds(out, named > 1 ? ": the agent can write these" : ": the agent can write it");
		strbuf_adds(out, " (it is not run if one changes before it starts).");
	}
	strbuf_free(&names);
	writable_folders_named(b, argv, cwd, out);
	if (!in_writable_folder(b, cwd))
		return NULL;
	strbuf_addf(out, "%sit runs where the agent can write: what it reads there (a .git/config, a Makefile,"
	            " modules, scripts) may be the agent's.", out->len ? " " : "");
	const char *home = env_lookup(b->env, "HOME");
	char *real = home && home[0] == '/' ? realpath(home, NULL) : NULL;
	struct stat st;
	if (real && stat(real, &st) == 0 && S_ISDIR(st.st_mode) && !in_writable_folder(b, real))
		return real;
	free(real);
	return xstrdup("/");
}

static bool writable_for_git(void *ctx, const char *path)
{
	return in_writable_folder(ctx, path);
}

/* What git, run by this escape in folder cwd, would take from a config
 * file the agent could have written and run outside (escape_git_plant's
 * words, malloc'd), or NULL. The project's own git config is the warden's to put
 * back before the escape runs. */
static char *escape_git_danger(struct broker *b, char *const *argv, const char *program, const char *cwd)
{
	char *restored = NULL;
	if (b->opts->protect_root) {
		char *dotgit = xasprintf("%s/.git", b->opts->protect_root);
		restored = realpath(dotgit, NULL);
		free(dotgit);
	}
	char **env = escape_env(b);
	struct escape_git_view v = {.argv = argv, .program = program, .env = env, .cwd = cwd,
	                            .writable = writable_for_git, .ctx = b, .restored_gitdir = restored};
	char *found = escape_git_plant(&v);
	strv_free(env);
	free(restored);
	return found;
}

/* Says on the terminal (when there is one) that an escape is not run. */
static void tell_not_run(struct broker *b, const char *why)
{
	if (b->tty < 0)
		return;
	struct strbuf note;
	strbuf_init(&note);
	strbuf_adds(&note, "sbsh: not run: ");
	approval_add_visible(&note, why); /* it names the agent's files */
	strbuf_adds(&note, "\n");
	tty_print(b, note.data);
	strbuf_free(&note);
}

static void serve_request(struct broker *b)
{
	struct broker_frame f;
	char control[CMSG_SPACE(4 * sizeof(int))];
	struct iovec iov = {.iov_base = &f, .iov_len = sizeof f};
	struct msghdr msg = {.msg_iov = &iov, .msg_iovlen = 1, .msg_control = control,
	                     .msg_controllen = sizeof control};
	ssize_t n = recvmsg(b->sock, &msg, MSG_CMSG_CLOEXEC);
	if (n == 0 || (n < 0 && errno != EINTR && errno != EAGAIN)) {
		close(b->sock); /* the shell exited or exec'd another program */
		b->sock = -1;
		return;
	}
	if (n < 0)
		return;
	int fds[4] = {-1, -1, -1, -1};
	int nfds = 0;
	for (struct cmsghdr *c = CMSG_FIRSTHDR(&msg); c; c = CMSG_NXTHDR(&msg, c)) {
		if (c->cmsg_level == SOL_SOCKET && c->cmsg_type == SCM_RIGHTS) {
			int count = (int)((c->cmsg_len - CMSG_LEN(0)) / sizeof(int));
			for (int i = 0; i < count; i++) {
				int fd;
				memcpy(&fd, CMSG_DATA(c) + i * sizeof(int), sizeof fd);
				if (nfds < 4)
					fds[nfds++] = fd;
				else
					close(fd);
			}
		}
	}
	const char *why = NULL;
	char *argv[256];
	struct stat sb;
	if ((msg.msg_flags & (MSG_CTRUNC | MSG_TRUNC)) || broker_frame_check(&f, (size_t)n) != 0)
		why = "malformed request";
	else if (f.type == BROKER_SIGNAL)
		why = NULL;
	else if (f.type == BROKER_APPROVE || f.type == BROKER_RELEASE)
		why = NULL;
	else if (f.type != BROKER_ESCAPE)
		why = "unexpected request";
	else if (nfds != 4 || fstat(fds[3], &sb) != 0 || !S_ISDIR(sb.st_mode))
		why = "malformed request (file descriptors)";
	else if (broker_frame_argv(&f, argv, sizeof argv / sizeof argv[0]) < 0)
		why = "malformed request (arguments)";
	else if (b->refused_at && time(NULL) - b->refused_at < 2)
		why = "refused: too soon after the last refusal";

	const char *fields[BROKER_APPROVE_FIELDS];
	struct broker_mark marks[BROKER_MARKS_MAX];
	if (!why && f.type == BROKER_SIGNAL) {
		if (f.value > 0 && f.value < 65)
			forward_signal(b, f.value);
	} else if (!why && f.type == BROKER_APPROVE) {
		char cwd[PATH_MAX] = "?";
		if (nfds >= 1) {
			char link[64];
			snprintf(link, sizeof link, "/proc/self/fd/%d", fds[0]);
			ssize_t len = readlink(link, cwd, sizeof cwd - 1);
			if (len >= 0)
				cwd[len] = '\0';
		}
		if (broker_frame_fields(&f, fields, BROKER_APPROVE_FIELDS) != 0 ||
		    broker_frame_marks(fields[3], strlen(fields[1]), marks, BROKER_MARKS_MAX) < 0) {
			send_frame(b->sock, BROKER_REFUSED, 0, "malformed request");
		} else {
			struct approval_question q = {
				.folder = cwd, .verdict = fields[0], .command = fields[1], .reason = fields[2],
				.marks = fields[3], .program = "", .warning = "", .timeout_s = b->opts->timeout_s,
			};
			const char *nobody = NULL;
			int answer = put_question(b, &q, &nobody);
			/* Every process of the session descends from the shell. Noted
			 * before the shell hears the answer: it may exec the command at
			 * once, and the grant keeps the command line it had before. */
			if ((answer == BROKER_YES_ONCE || answer == BROKER_YES_SESSION) && !approval_needs_code(&q))
				grants_remember(&b->grants, b->shell, q.command);
			if (answer < 0)
				send_frame(b->sock, BROKER_REFUSED, 0, nobody);
			else
				send_frame(b->sock, BROKER_RESULT, answer, NULL);
		}
	} else if (!why && f.type == BROKER_RELEASE) {
		grants_release(&b->grants, b->shell);
	} else if (!why) {
		char *program = resolve_program(b, argv[0], fds[3]);
		char cwd[PATH_MAX] = "?";
		char link[64];
		snprintf(link, sizeof link, "/proc/self/fd/%d", fds[3]);
		ssize_t len = readlink(link, cwd, sizeof cwd - 1);
		if (len >= 0)
			cwd[len] = '\0';
		struct strbuf shown;
		strbuf_init(&shown);
		for (size_t i = 0; argv[i]; i++) {
			if (i)
				strbuf_addc(&shown, ' ');
			append_word(&shown, argv[i]);
		}
		struct strbuf stdio;
		strbuf_init(&stdio);
		describe_stdio(b, fds, &stdio);
		struct operand_seal seal;
		seal_operands(&seal, argv, program, fds[3]);
		struct strbuf warning;
		strbuf_init(&warning);
		char *away = escape_warnings(b, &seal, argv, program, cwd, &warning);
		struct approval_question q = {
			.escape = true, .folder = cwd, .verdict = "", .command = shown.data, .reason = "",
			.argv0 = argv[0], .stdio = stdio.data, .away = away ? away : "",
			.marks = "", .program = program ? program : "", .timeout_s = b->opts->timeout_s,
			.warning = warning.data,
		};
		/* A config file the agent wrote would make the escaped git run
		 * its program: not asked at all. */
		char *planted = program ? escape_git_danger(b, argv, program, cwd) : NULL;
		const char *nobody = NULL;
		int answer = program && !planted ? put_question(b, &q, &nobody) : BROKER_NO;
		const char *changed = NULL;
		int run_fds[4] = {fds[0], fds[1], fds[2], fds[3]};
		if (answer == BROKER_YES_AWAY) {
			run_fds[3] = open(away, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
			if (run_fds[3] < 0) {
				run_fds[3] = fds[3];
				answer = BROKER_NO;
			}
		}
		/* From the yes until the command ends, the agent's processes are
		 * paused: none can swap a file it names or plant what it reads. */
		struct session_freeze frozen = {0};
		bool approved = answer == BROKER_YES_ONCE || answer == BROKER_YES_SESSION || answer == BROKER_YES_AWAY;
		bool paused = approved && session_freeze(&frozen, getpid(), b->shell) == 0;
		if (paused)
			changed = seal_broken(&seal);
		if (paused && !changed) {
			/* The protected files as the human left them; then what git
			 * would read where it really runs, once nothing can change it. */
			restore_before_escape(b);
			char run_cwd[PATH_MAX] = "?";
			snprintf(link, sizeof link, "/proc/self/fd/%d", run_fds[3]);
			ssize_t rlen = readlink(link, run_cwd, sizeof run_cwd - 1);
			if (rlen >= 0)
				run_cwd[rlen] = '\0';
			planted = escape_git_danger(b, argv, program, run_cwd);
		}
		strbuf_free(&shown);
		strbuf_free(&stdio);
		strbuf_free(&warning);
		free(away);
		if (!program) {
			send_frame(b->sock, BROKER_RESULT, 127, NULL);
		} else if (planted) {
			events_escape(b->opts->events, argv, "git config of the agent's", -1);
			char *refusal = xasprintf("%s: git would run it outside the sandbox", planted);
			tell_not_run(b, refusal);
			send_frame(b->sock, BROKER_REFUSED, 0, refusal);
			free(refusal);
		} else if (approved && !paused) {
			events_escape(b->opts->events, argv, "session would not pause", -1);
			const char *why_not = "the session's processes would not pause for it";
			if (b->tty >= 0)
				tty_print(b, "sbsh: not run: the session's processes would not pause for it\n");
			send_frame(b->sock, BROKER_REFUSED, 0, why_not);
		} else if (changed) {
			events_escape(b->opts->events, argv, "changed after the question", -1);
			char refusal[PATH_MAX + 96];
			snprintf(refusal, sizeof refusal, "%s changed after the human was asked", changed);
			if (b->tty >= 0) {
				struct strbuf note;
				strbuf_init(&note);
				strbuf_adds(&note, "sbsh: not run: ");
				approval_add_visible(&note, changed); /* the agent's name for it */
				strbuf_adds(&note, " changed after you were asked\n");
				tty_print(b, note.data);
				strbuf_free(&note);
			}
			send_frame(b->sock, BROKER_REFUSED, 0, refusal);
		} else if (answer < 0) {
			events_escape(b->opts->events, argv, "headless refusal", -1);
			send_frame(b->sock, BROKER_REFUSED, 0, nobody);
		} else if (answer == BROKER_YES_ONCE || answer == BROKER_YES_SESSION || answer == BROKER_YES_AWAY) {
			int status = run_escape(b, argv, program, run_fds);
			events_escape(b->opts->events, argv, "approved", status);
			send_frame(b->sock, BROKER_RESULT, status, NULL);
		} else {
			events_escape(b->opts->events, argv, "refused", -1);
			b->refused_at = time(NULL);
			send_frame(b->sock, BROKER_REFUSED, 0,
			           answer == BROKER_TIMEOUT ? "nobody answered in time" : "the human said no");
		}
		session_thaw(&frozen, b->shell);
		free(planted);
		free(program);
		seal_free(&seal);
		if (run_fds[3] != fds[3])
			close(run_fds[3]);
	} else {
		send_frame(b->sock, BROKER_REFUSED, 0, why);
	}
	for (int i = 0; i < nfds; i++)
		close(fds[i]);
}

/* ---- nested shells: the session's socket ------------------------------ */

static void peer_drop(struct session_peer *k)
{
	close(k->fd);
	*k = (struct session_peer){.fd = -1};
}

/* Takes connections from processes of this session only (the kernel says
 * who connects; the shell and everything it starts descend from us). */
static void accept_peers(struct broker *b)
{
	while (1) {
		int fd = accept4(b->session_listener, NULL, NULL, SOCK_CLOEXEC | SOCK_NONBLOCK);
		if (fd < 0) {
			if (errno == EINTR)
				continue;
			return;
		}
		struct ucred cred;
		socklen_t len = sizeof cred;
		struct session_peer *slot = NULL;
		for (int i = 0; i < SESSION_PEERS_MAX && !slot; i++)
			if (b->peers[i].fd < 0)
				slot = &b->peers[i];
		if (!slot || getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cred, &len) != 0 || cred.uid != geteuid() ||
		    !proc_descends_from(cred.pid, getpid())) {
			close(fd);
			continue;
		}
		/* The session's supervisor, our child, connects for the process
		 * that asked (trusted/supervisor.c): the asker is the one below it
		 * that holds the other end of this connection. */
		struct stat st;
		uint64_t peer;
		if (proc_parent(cred.pid) == getpid() && fstat(fd, &st) == 0 && unix_diag_peer(st.st_ino, &peer) == 0)
			cred.pid = proc_deepest_holder(peer, getpid(), cred.pid);
		if (cred.pid <= 0) {
			close(fd);
			continue;
		}
		*slot = (struct session_peer){.fd = fd, .pid = cred.pid, .since_ms = util_now_ms()};
	}
}

static void peer_answer(struct session_peer *k, uint32_t type, int value, const char *why)
{
	send_frame(k->fd, type, value, why);
	peer_drop(k);
}

/* One question from a nested shell: answered by the human's yes to the
 * command it runs inside, else put to the human as the shell's own are.
 * Where it runs is the kernel's word, not the asker's. */
static void serve_peer(struct broker *b, struct session_peer *k)
{
	struct broker_frame f;
	ssize_t n;
	do
		n = recv(k->fd, &f, sizeof f, MSG_DONTWAIT);
	while (n < 0 && errno == EINTR);
	if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
		return;
	const char *fields[BROKER_ASK_FIELDS];
	struct broker_mark marks[BROKER_MARKS_MAX];
	if (n <= 0 || broker_frame_check(&f, (size_t)n) != 0 || f.type != BROKER_ASK ||
	    broker_frame_fields(&f, fields, BROKER_ASK_FIELDS) != 0 ||
	    broker_frame_marks(fields[5], strlen(fields[3]), marks, BROKER_MARKS_MAX) < 0) {
		peer_drop(k);
		return;
	}
	if (strcmp(fields[0], "release") == 0) {
		grants_release(&b->grants, k->pid);
		peer_answer(k, BROKER_RESULT, BROKER_NO, NULL);
		return;
	}
	if (strcmp(fields[0], "approval") != 0) {
		peer_answer(k, BROKER_REFUSED, 0, "a nested sbsh cannot run a command outside the sandbox");
		return;
	}
	char *folder = proc_cwd(k->pid);
	struct approval_question q = {
		.folder = folder ? folder : "?", .verdict = fields[2], .command = fields[3], .reason = fields[4],
		.marks = fields[5], .program = "", .warning = "", .timeout_s = b->opts->timeout_s,
	};
	const struct grant *g = approval_needs_code(&q) ? NULL : grants_find(&b->grants, k->pid, q.command);
	if (g) {
		struct strbuf sb;
		strbuf_init(&sb);
		strbuf_adds(&sb, "sbsh: approved already (you said yes to it): ");
		approval_add_visible(&sb, q.command);
		strbuf_adds(&sb, "\n");
		if (b->tty >= 0)
			tty_print(b, sb.data);
		strbuf_free(&sb);
		peer_answer(k, BROKER_RESULT, BROKER_YES_ONCE, NULL);
	} else {
		const char *nobody = NULL;
		int answer = put_question(b, &q, &nobody);
		if ((answer == BROKER_YES_ONCE || answer == BROKER_YES_SESSION) && !approval_needs_code(&q))
			grants_remember(&b->grants, k->pid, q.command);
		if (answer < 0)
			peer_answer(k, BROKER_REFUSED, 0, nobody);
		else
			peer_answer(k, BROKER_RESULT, answer, NULL);
	}
	free(folder);
}

/* Adds the listener and the connected peers to pfd; returns how many. */
static int poll_peers(struct broker *b, struct pollfd *pfd)
{
	if (b->session_listener < 0)
		return 0;
	int n = 0;
	pfd[n++] = (struct pollfd){.fd = b->session_listener, .events = POLLIN};
	for (int i = 0; i < SESSION_PEERS_MAX; i++)
		pfd[n++] = (struct pollfd){.fd = b->peers[i].fd, .events = POLLIN};
	return n;
}

static void tend_peers(struct broker *b, const struct pollfd *pfd)
{
	if (b->session_listener < 0)
		return;
	int64_t now = util_now_ms();
	for (int i = 0; i < SESSION_PEERS_MAX; i++) {
		struct session_peer *k = &b->peers[i];
		if (k->fd < 0)
			continue;
		if (pfd[1 + i].revents & (POLLIN | POLLHUP | POLLERR))
			serve_peer(b, k);
		else if (now - k->since_ms >= SESSION_IDLE_MS)
			peer_drop(k);
	}
	if (pfd[0].revents & POLLIN)
		accept_peers(b);
}

static void set_raw(struct broker *b)
{
	if (tcgetattr(b->tty, &b->saved) != 0)
		return;
	struct termios t = b->saved;
	cfmakeraw(&t);
	if (tcsetattr(b->tty, TCSANOW, &t) == 0)
		b->raw = true;
}

static void restore_tty(struct broker *b)
{
	if (b->raw)
		tcsetattr(b->tty, TCSANOW, &b->saved);
	b->raw = false;
}

static void copy_winsize(struct broker *b)
{
	struct winsize ws;
	if (b->master >= 0 && ioctl(b->tty, TIOCGWINSZ, &ws) == 0)
		ioctl(b->master, TIOCSWINSZ, &ws);
}

static void handle_signal(struct broker *b, const struct signalfd_siginfo *si)
{
	if (si->ssi_signo == SIGCHLD) {
		int ws;
		pid_t done;
		while ((done = waitpid(-1, &ws, WNOHANG)) > 0)
			handle_child_exit(b, done, ws);
	} else if (si->ssi_signo == SIGWINCH) {
		copy_winsize(b);
	} else if (b->master >= 0 || si->ssi_code == SI_USER || si->ssi_code == SI_QUEUE) {
		/* A terminal's signals already reached the shell, which
		 * shares our process group unless it has a pty. */
		forward_signal(b, (int)si->ssi_signo);
	}
}

static _Noreturn void broker_exit(struct broker *b)
{
	/* Output the shell wrote just before exiting is still in the pty. */
	if (b->master >= 0) {
		char buf[4096];
		ssize_t n;
		int flags = fcntl(b->master, F_GETFL);
		fcntl(b->master, F_SETFL, flags | O_NONBLOCK);
		while ((n = read(b->master, buf, sizeof buf)) > 0)
			util_write_all(b->tty, buf, (size_t)n);
	}
	restore_tty(b);
	if (b->session_path)
		unlink(b->session_path);
	/* The shell is gone: whatever its last commands changed in the
	 * protected files is put back before the caller sees our exit. */
	protect_final_check(b->opts->protect_fd);
	/* Die the same way, so the caller sees what it would see with bash. */
	util_exit_as(b->shell_status);
}

static _Noreturn void broker_loop(struct broker *b)
{
	while (1) {
		if (b->shell_done)
			broker_exit(b);
		struct pollfd pfd[4 + 1 + SESSION_PEERS_MAX];
		int n = 0;
		pfd[n++] = (struct pollfd){.fd = b->sigfd, .events = POLLIN};
		int sock_i = -1, master_i = -1, tty_i = -1;
		if (b->sock >= 0) {
			sock_i = n;
			pfd[n++] = (struct pollfd){.fd = b->sock, .events = POLLIN};
		}
		if (b->master >= 0) {
			master_i = n;
			pfd[n++] = (struct pollfd){.fd = b->master, .events = POLLIN};
			if (b->relay_input) {
				tty_i = n;
				pfd[n++] = (struct pollfd){.fd = b->tty, .events = POLLIN};
			}
		}
		int peers_i = n;
		n += poll_peers(b, pfd + n);
		bool waiting = false; /* a connected peer that has not asked yet */
		for (int i = 0; i < SESSION_PEERS_MAX; i++)
			waiting |= b->session_listener >= 0 && b->peers[i].fd >= 0;
		if (poll(pfd, (nfds_t)n, waiting ? 1000 : -1) < 0) {
			if (errno == EINTR)
				continue;
			break;
		}
		if (pfd[0].revents & POLLIN) {
			struct signalfd_siginfo si;
			if (read(b->sigfd, &si, sizeof si) == (ssize_t)sizeof si)
				handle_signal(b, &si);
		}
		if (master_i >= 0 && (pfd[master_i].revents & (POLLIN | POLLHUP)))
			relay_output(b);
		if (tty_i >= 0 && (pfd[tty_i].revents & (POLLIN | POLLHUP)))
			relay_input(b);
		if (sock_i >= 0 && (pfd[sock_i].revents & (POLLIN | POLLHUP | POLLERR)))
			serve_request(b);
		tend_peers(b, pfd + peers_i);
	}
	broker_exit(b);
}

int broker_start(const struct broker_options *opts, char **pty_path)
{
	*pty_path = NULL;
	int tty = -1;
	if (opts->terminal) {
		tty = open("/dev/tty", O_RDWR | O_NOCTTY | O_CLOEXEC);
		if (tty < 0)
			return -1;
	}
	int sv[2];
	if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv) != 0) {
		close(tty);
		return -1;
	}
	int master = -1;
	char *slave_name = NULL;
	if (opts->pty && tty >= 0) {
		master = posix_openpt(O_RDWR | O_NOCTTY | O_CLOEXEC);
		if (master >= 0 && grantpt(master) == 0 && unlockpt(master) == 0 && ptsname(master)) {
			slave_name = xstrdup(ptsname(master));
		} else if (master >= 0) {
			close(master);
			master = -1;
		}
	}
	sigset_t set, old;
	sigemptyset(&set);
	const int forwarded[] = {SIGCHLD, SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGUSR1, SIGUSR2,
	                         SIGALRM, SIGWINCH, SIGCONT};
	for (size_t i = 0; i < sizeof forwarded / sizeof forwarded[0]; i++)
		sigaddset(&set, forwarded[i]);
	sigprocmask(SIG_BLOCK, &set, &old);
	pid_t parent = getpid();
	/* The session's socket, for nested shells: only where a sandbox
	 * confines them (unconfined, they fork a broker of their own). */
	char *session_path = NULL;
	int session_listener = -1;
	if (opts->sandbox && opts->sandbox->mode != SANDBOX_OFF)
		session_listener = session_socket_listen(parent, &session_path);
	pid_t pid = fork();
	if (pid < 0) {
		sigprocmask(SIG_SETMASK, &old, NULL);
		close(tty);
		close(sv[0]);
		close(sv[1]);
		if (master >= 0)
			close(master);
		free(slave_name);
		if (session_listener >= 0) {
			close(session_listener);
			unlink(session_path);
		}
		free(session_path);
		return -1;
	}
	if (pid == 0) {
		/* The shell. If the broker dies, it hangs up as when its
		 * terminal goes: an interactive shell hangs up its jobs first
		 * (a SIGKILL would leave them running). A shell that ignores
		 * SIGHUP goes on, but finds nobody to approve anything. */
		sigprocmask(SIG_SETMASK, &old, NULL);
		prctl(PR_SET_PDEATHSIG, SIGHUP);
		if (getppid() != parent)
			_exit(1);
		if (tty >= 0)
			close(tty);
		if (session_listener >= 0) {
			close(session_listener);
			setenv(SESSION_SOCKET_ENV, session_path, 1);
		}
		free(session_path);
		close(sv[0]); /* startup closes the broker's end to the warden */
		if (master >= 0) {
			close(master);
			setsid();
			int slave = open(slave_name, O_RDWR | O_CLOEXEC);
			if (slave < 0 || ioctl(slave, TIOCSCTTY, 0) != 0)
				_exit(126);
			for (int fd = 0; fd <= 2; fd++)
				if (isatty(fd))
					dup2(slave, fd);
			close(slave);
			*pty_path = slave_name;
		}
		return sv[1];
	}

	/* The broker. Jobs the shell leaves behind become ours, not init's:
	 * the warden finds them here at the session's end, and watches over
	 * the protected files until they are gone. */
	prctl(PR_SET_CHILD_SUBREAPER, 1);
	close(sv[1]);
	if (opts->protect_shell_fd >= 0)
		close(opts->protect_shell_fd);
	struct broker b = {
		.opts = opts,
		.sock = sv[0],
		.tty = tty,
		.shell = pid,
		.master = master,
		.relay_input = master >= 0 && isatty(0),
		.env = strv_copy(environ),
		.session_listener = session_listener,
		.session_path = session_path,
	};
	for (int i = 0; i < SESSION_PEERS_MAX; i++)
		b.peers[i].fd = -1;
	free(slave_name);
	b.sigfd = signalfd(-1, &set, SFD_CLOEXEC);
	if (b.sigfd < 0) {
		kill(pid, SIGKILL);
		_exit(126);
	}
	/* Only the shell and escapes read or write the caller's stdio. */
	if (master >= 0) {
		copy_winsize(&b);
		if (b.relay_input)
			set_raw(&b);
	}
	broker_loop(&b);
}
