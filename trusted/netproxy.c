/* The network proxy of --net=allow:HOST,... (netproxy.h). One process
 * decides, one child per connection relays: a slow download never holds
 * up a decision, and a question to the human holds up only the new
 * connections waiting for one. It sees the host each client names (CONNECT
 * host:port, or the absolute URL of a plain HTTP request) and nothing of
 * what TLS carries. */
#include "trusted/netproxy.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "lib/events.h"
#include "trusted/approver_client.h"
#include "trusted/broker_proto.h"

#ifndef SYS_pidfd_open
#define SYS_pidfd_open 434
#endif

#define NETPROXY_MAX_CLIENTS 128
#define NETPROXY_HEAD_MAX 16384
#define NETPROXY_HEAD_MS 30000
#define NETPROXY_MAX_DECIDED 256

int netproxy_listen(uint16_t *port)
{
	int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -1;
	struct sockaddr_in sa = {.sin_family = AF_INET, .sin_port = 0};
	sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	socklen_t len = sizeof sa;
	if (bind(fd, (struct sockaddr *)&sa, sizeof sa) != 0 || listen(fd, 64) != 0 ||
	    getsockname(fd, (struct sockaddr *)&sa, &len) != 0) {
		int saved = errno;
		close(fd);
		errno = saved;
		return -1;
	}
	*port = ntohs(sa.sin_port);
	return fd;
}

void netproxy_env(uint16_t port, struct strvec *env)
{
	static const char *const names[] = {"HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY",
	                                    "http_proxy", "https_proxy", "all_proxy"};
	for (size_t i = 0; i < sizeof names / sizeof *names; i++)
		strvec_push_owned(env, xasprintf("%s=http://127.0.0.1:%u", names[i], (unsigned)port));
	/* What is listed as localhost:PORT is reached directly, not proxied. */
	strvec_push(env, "NO_PROXY=localhost,127.0.0.1,::1");
	strvec_push(env, "no_proxy=localhost,127.0.0.1,::1");
}

bool netproxy_allowed(const struct netproxy_options *o, const char *host, unsigned port)
{
	size_t hn = strlen(host);
	for (size_t i = 0; i < o->nhosts; i++) {
		const char *p = o->hosts[i];
		if (o->ports[i] && o->ports[i] != port)
			continue;
		if (strcmp(p, host) == 0)
			return true;
		/* *.example.org: any name below example.org, not itself */
		size_t pn = strlen(p);
		if (pn > 2 && p[0] == '*' && hn > pn - 1 && strcmp(host + hn - (pn - 1), p + 1) == 0)
			return true;
	}
	return false;
}

/* ---- one connection (a child of the proxy) ---- */

/* host[:port] or [v6][:port] into host (lower-case, no final dot) and
 * *port (dflt when absent). Returns 0, or -1 for what no allow-list
 * entry could name. */
static int split_authority(const char *s, size_t n, char *host, size_t cap, unsigned dflt, unsigned *port)
{
	const char *end = s + n, *colon = NULL;
	const char *hs = s, *he;
	if (n && *s == '[') {
		he = memchr(s, ']', n);
		if (!he)
			return -1;
		hs = s + 1;
		colon = he + 1 < end && he[1] == ':' ? he + 1 : NULL;
		if (he + 1 < end && !colon)
			return -1;
	} else {
		colon = memchr(s, ':', n);
		he = colon ? colon : end;
	}
	size_t len = (size_t)(he - hs);
	while (len && hs[len - 1] == '.')
		len--;
	if (len == 0 || len >= cap)
		return -1;
	for (size_t i = 0; i < len; i++) {
		char c = hs[i];
		if (c >= 'A' && c <= 'Z')
			c = (char)(c - 'A' + 'a');
		if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '.' ||
		      (c == ':' && *s == '[')))
			return -1;
		host[i] = c;
	}
	host[len] = '\0';
	*port = dflt;
	if (colon) {
		unsigned long v = 0;
		const char *p = colon + 1;
		if (p == end || end - p > 5)
			return -1;
		for (; p < end; p++) {
			if (*p < '0' || *p > '9')
				return -1;
			v = v * 10 + (unsigned long)(*p - '0');
		}
		if (v == 0 || v > 65535)
			return -1;
		*port = (unsigned)v;
	}
	return 0;
}

static void send_all(int fd, const char *s, size_t n)
{
	util_write_all(fd, s, n);
}

static void reply_text(int fd, const char *status, const char *extra_header, const char *body)
{
	char *r = xasprintf("HTTP/1.1 %s\r\nContent-Type: text/plain; charset=utf-8\r\n%sContent-Length: %zu\r\n"
	                    "Connection: close\r\n\r\n%s",
	                    status, extra_header, strlen(body), body);
	send_all(fd, r, strlen(r));
	free(r);
}

/* Reads a request head (up to the blank line); the bytes after it stay in
 * buf. Returns the bytes read, *head the head's length, or -1. */
static ssize_t read_head(int fd, char *buf, size_t cap, size_t *head)
{
	size_t got = 0;
	int64_t deadline = util_now_ms() + NETPROXY_HEAD_MS;
	while (got < cap - 1) {
		int left = (int)(deadline - util_now_ms());
		struct pollfd p = {.fd = fd, .events = POLLIN};
		if (left <= 0 || poll(&p, 1, left) <= 0)
			return -1;
		ssize_t n = read(fd, buf + got, cap - 1 - got);
		if (n <= 0)
			return n < 0 && errno == EINTR ? (ssize_t)0 : -1;
		got += (size_t)n;
		buf[got] = '\0';
		char *end = strstr(buf, "\r\n\r\n");
		if (end) {
			*head = (size_t)(end - buf) + 4;
			return (ssize_t)got;
		}
	}
	return -1;
}

static int connect_upstream(const char *host, unsigned port, int *err)
{
	char service[8];
	snprintf(service, sizeof service, "%u", port);
	/* an address needs no lookup (and no NSS in a static sbsh) */
	unsigned char addr[16];
	bool numeric = inet_pton(AF_INET, host, addr) == 1 || inet_pton(AF_INET6, host, addr) == 1;
	struct addrinfo hints = {.ai_socktype = SOCK_STREAM, .ai_family = AF_UNSPEC,
	                         .ai_flags = numeric ? AI_NUMERICHOST : 0};
	struct addrinfo *res = NULL;
	int rc = getaddrinfo(host, service, &hints, &res);
	if (rc != 0) {
		*err = -rc;
		return -1;
	}
	int fd = -1;
	for (struct addrinfo *a = res; a && fd < 0; a = a->ai_next) {
		fd = socket(a->ai_family, a->ai_socktype | SOCK_CLOEXEC, a->ai_protocol);
		if (fd >= 0 && connect(fd, a->ai_addr, a->ai_addrlen) != 0) {
			*err = errno;
			close(fd);
			fd = -1;
		}
	}
	freeaddrinfo(res);
	return fd;
}

/* Copies both ways until both sides are done. Each write goes out at
 * once: the client wrote it so, and Nagle's algorithm would hold a second
 * small one (an answer's body after its head) for the peer's delayed ACK. */
static void relay(int a, int b)
{
	int one = 1;
	setsockopt(a, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
	setsockopt(b, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
	char buf[16384];
	bool a_open = true, b_open = true;
	while (a_open || b_open) {
		struct pollfd p[2] = {{.fd = a_open ? a : -1, .events = POLLIN}, {.fd = b_open ? b : -1, .events = POLLIN}};
		if (poll(p, 2, -1) < 0) {
			if (errno == EINTR)
				continue;
			return;
		}
		for (int i = 0; i < 2; i++) {
			if (!(p[i].revents & (POLLIN | POLLHUP | POLLERR)))
				continue;
			int from = i ? b : a, to = i ? a : b;
			ssize_t n = read(from, buf, sizeof buf);
			if (n < 0 && errno == EINTR)
				continue;
			if (n > 0 && util_write_all(to, buf, (size_t)n))
				continue;
			if (n != 0)
				return; /* a reset, or the other side is gone */
			shutdown(to, SHUT_WR);
			if (i)
				b_open = false;
			else
				a_open = false;
		}
	}
}

/* Asks the deciding process about host:port over ctl: true for yes. */
static bool ask_parent(int ctl, const char *host, unsigned port)
{
	char q[300];
	int n = snprintf(q, sizeof q, "%u %s", port, host);
	if (n <= 0 || send(ctl, q, (size_t)n, MSG_NOSIGNAL) != n)
		return false;
	char a = 0;
	return recv(ctl, &a, 1, 0) == 1 && a == 'Y';
}

/* Whether a header line is one the proxy drops before forwarding. */
static bool hop_header(const char *line, size_t n)
{
	static const char *const names[] = {"proxy-connection:", "proxy-authorization:", "connection:", "keep-alive:"};
	for (size_t i = 0; i < sizeof names / sizeof *names; i++) {
		size_t k = strlen(names[i]);
		if (n >= k && strncasecmp(line, names[i], k) == 0)
			return true;
	}
	return false;
}

static _Noreturn void serve_client(int fd, int ctl, const struct netproxy_options *o)
{
	char *buf = xmalloc(NETPROXY_HEAD_MAX);
	size_t head = 0;
	ssize_t got = read_head(fd, buf, NETPROXY_HEAD_MAX, &head);
	if (got <= 0)
		_exit(0);
	char *line_end = strstr(buf, "\r\n");
	char *sp1 = memchr(buf, ' ', (size_t)(line_end - buf));
	char *sp2 = sp1 ? memchr(sp1 + 1, ' ', (size_t)(line_end - sp1 - 1)) : NULL;
	if (!sp1 || !sp2) {
		reply_text(fd, "400 Bad Request", "", "sbsh: the network proxy could not read this request\n");
		_exit(0);
	}
	bool tunnel = (size_t)(sp1 - buf) == 7 && memcmp(buf, "CONNECT", 7) == 0;
	const char *target = sp1 + 1;
	size_t tlen = (size_t)(sp2 - target);
	char host[256];
	unsigned port;
	const char *path = "/";
	size_t path_len = 1;
	int bad;
	if (tunnel) {
		bad = split_authority(target, tlen, host, sizeof host, 0, &port) != 0 || port == 0;
	} else if (tlen > 7 && strncasecmp(target, "http://", 7) == 0) {
		const char *auth = target + 7;
		size_t alen = strcspn(auth, "/? ");
		if (auth + alen < sp2) {
			path = auth + alen;
			path_len = (size_t)(sp2 - path);
		}
		bad = split_authority(auth, alen, host, sizeof host, 80, &port) != 0;
	} else {
		reply_text(fd, "400 Bad Request", "",
		           "sbsh: the network proxy takes CONNECT host:port and absolute http:// URLs only\n");
		_exit(0);
	}
	if (bad) {
		reply_text(fd, "400 Bad Request", "", "sbsh: the network proxy could not read the host of this request\n");
		_exit(0);
	}
	if (!ask_parent(ctl, host, port)) {
		char *hint = xasprintf("sbsh: the sandbox refused a connection to %s:%u: not on the network allow-list. "
		                       "Only the human can allow it: network = %s,%s in %s (or --net=%s,%s)\n",
		                       host, port, o->allow_spec, host, o->config_path ? o->config_path : "sbsh's config file",
		                       o->allow_spec, host);
		char *header = xasprintf("X-Sbsh-Refused: %s:%u\r\n", host, port);
		reply_text(fd, "403 Forbidden", header, hint);
		free(header);
		free(hint);
		_exit(0);
	}
	close(ctl);
	int err = 0;
	int up = connect_upstream(host, port, &err);
	if (up < 0) {
		char *msg = xasprintf("sbsh: the network proxy could not connect to %s:%u: %s\n", host, port,
		                      err < 0 ? gai_strerror(-err) : strerror(err));
		reply_text(fd, "502 Bad Gateway", "", msg);
		free(msg);
		_exit(0);
	}
	if (tunnel) {
		static const char ok[] = "HTTP/1.1 200 Connection established\r\n\r\n";
		send_all(fd, ok, sizeof ok - 1);
	} else {
		/* origin-form, the hop-by-hop headers dropped, one request per
		 * connection: a second one on it could name another host */
		struct strbuf out;
		strbuf_init(&out);
		strbuf_addmem(&out, buf, (size_t)(sp1 - buf) + 1);
		if (path[0] != '/')
			strbuf_addc(&out, '/'); /* http://host?q */
		strbuf_addmem(&out, path, path_len);
		strbuf_addmem(&out, sp2, (size_t)(line_end - sp2) + 2);
		for (char *l = line_end + 2; l < buf + head - 2;) {
			char *e = strstr(l, "\r\n");
			if (!hop_header(l, (size_t)(e - l)))
				strbuf_addmem(&out, l, (size_t)(e - l) + 2);
			l = e + 2;
		}
		strbuf_adds(&out, "Connection: close\r\n\r\n");
		send_all(up, out.data, out.len);
		strbuf_free(&out);
	}
	if ((size_t)got > head)
		send_all(up, buf + head, (size_t)got - head);
	free(buf);
	relay(fd, up);
	_exit(0);
}

/* ---- the deciding process ---- */

struct decided {
	char host[256];
	unsigned port;
	bool yes;
};

struct proxy_state {
	const struct netproxy_options *o;
	struct decided table[NETPROXY_MAX_DECIDED];
	size_t ntable;
	struct strvec told; /* hosts whose refusal was said on stderr */
};

static const struct decided *remembered(const struct proxy_state *ps, const char *host, unsigned port)
{
	for (size_t i = 0; i < ps->ntable; i++)
		if (ps->table[i].port == port && strcmp(ps->table[i].host, host) == 0)
			return &ps->table[i];
	return NULL;
}

static void remember(struct proxy_state *ps, const char *host, unsigned port, bool yes)
{
	if (ps->ntable == NETPROXY_MAX_DECIDED)
		return;
	struct decided *d = &ps->table[ps->ntable++];
	snprintf(d->host, sizeof d->host, "%s", host);
	d->port = port;
	d->yes = yes;
}

/* The human, through the approver: a yes for once or the session, or no. */
static bool ask_human(struct proxy_state *ps, const char *host, unsigned port, const char **by)
{
	const char *why = NULL;
	int fd = approver_connect(ps->o->writable, &why);
	if (fd < 0)
		return false;
	char *command = xasprintf("connect %s:%u", host, port);
	struct approval_question q = {
		.folder = ps->o->folder ? ps->o->folder : "", .verdict = "NET", .command = command,
		.reason = "not on the network allow-list", .marks = "", .program = "", .warning = "",
		.argv0 = "", .stdio = "", .away = "", .timeout_s = ps->o->timeout_s ? ps->o->timeout_s : 60};
	int answer = approver_await(fd, &q, NULL, 0, NULL, NULL);
	free(command);
	*by = "human";
	if (answer == BROKER_YES_SESSION || answer == BROKER_NO)
		remember(ps, host, port, answer == BROKER_YES_SESSION);
	return answer == BROKER_YES_ONCE || answer == BROKER_YES_SESSION;
}

static bool decide(struct proxy_state *ps, const char *host, unsigned port)
{
	const char *by = "allow-list";
	bool yes = netproxy_allowed(ps->o, host, port);
	const struct decided *d = yes ? NULL : remembered(ps, host, port);
	if (d) {
		yes = d->yes;
		by = "session";
	} else if (!yes && ps->o->ask) {
		yes = ask_human(ps, host, port, &by);
	} else if (!yes) {
		by = "headless";
	}
	events_net(ps->o->events, host, port, yes ? "allow" : "refuse", by);
	if (!yes) {
		bool said = false;
		for (size_t i = 0; i < ps->told.len && !said; i++)
			said = strcmp(ps->told.items[i], host) == 0;
		if (!said && ps->told.len < 64) {
			strvec_push(&ps->told, host);
			char *line = xasprintf("sbsh: refused a connection to %s:%u (not on the network allow-list: "
			                       "network = %s,%s in %s)\n",
			                       host, port, ps->o->allow_spec, host,
			                       ps->o->config_path ? ps->o->config_path : "sbsh's config file");
			send_all(2, line, strlen(line));
			free(line);
		}
	}
	return yes;
}

/* A child's question: "PORT HOST". Returns false once the child is done
 * with ctl (it closed it, or exited). */
static bool answer_child(struct proxy_state *ps, int ctl)
{
	char q[300];
	ssize_t n = recv(ctl, q, sizeof q - 1, 0);
	if (n <= 0)
		return n < 0 && errno == EINTR;
	q[n] = '\0';
	char *sp = strchr(q, ' ');
	unsigned long port = strtoul(q, NULL, 10);
	bool yes = sp && port > 0 && port < 65536 && decide(ps, sp + 1, (unsigned)port);
	char a = yes ? 'Y' : 'N';
	return send(ctl, &a, 1, MSG_NOSIGNAL) == 1;
}

static _Noreturn void proxy_main(int listen_fd, int shell_fd, const struct netproxy_options *o)
{
	struct proxy_state ps = {.o = o, .ntable = 0};
	strvec_init(&ps.told);
	int ctl[NETPROXY_MAX_CLIENTS] = {0};
	size_t nctl = 0;
	for (;;) {
		while (waitpid(-1, NULL, WNOHANG) > 0)
			;
		struct pollfd p[NETPROXY_MAX_CLIENTS + 2];
		p[0] = (struct pollfd){.fd = shell_fd, .events = POLLIN};
		p[1] = (struct pollfd){.fd = nctl < NETPROXY_MAX_CLIENTS ? listen_fd : -1, .events = POLLIN};
		for (size_t i = 0; i < nctl; i++)
			p[2 + i] = (struct pollfd){.fd = ctl[i], .events = POLLIN};
		/* a second at most, so that finished children are reaped */
		if (poll(p, (nfds_t)(nctl + 2), 1000) < 0 && errno != EINTR)
			_exit(1);
		if (p[0].revents)
			_exit(0); /* the shell has ended: so does the proxy */
		for (size_t i = nctl; i-- > 0;) {
			if (!p[2 + i].revents)
				continue;
			if (!(p[2 + i].revents & POLLIN) || !answer_child(&ps, ctl[i])) {
				close(ctl[i]);
				ctl[i] = ctl[--nctl];
			}
		}
		if (p[1].revents & POLLIN) {
			int c = accept4(listen_fd, NULL, NULL, SOCK_CLOEXEC);
			int pair[2];
			if (c < 0)
				continue;
			if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, pair) != 0) {
				close(c);
				continue;
			}
			pid_t pid = fork();
			if (pid == 0) {
				close(listen_fd);
				close(shell_fd);
				close(pair[0]);
				for (size_t i = 0; i < nctl; i++)
					close(ctl[i]);
				int null = open("/dev/null", O_WRONLY | O_CLOEXEC);
				if (null >= 0)
					dup2(null, 2); /* only the deciding process speaks */
				serve_client(c, pair[1], o);
			}
			close(c);
			close(pair[1]);
			if (pid < 0)
				close(pair[0]);
			else
				ctl[nctl++] = pair[0];
		}
	}
}

/* Closes every descriptor above 2 but those in keep (-1 entries ignored). */
static void close_all_but(int *keep, size_t n)
{
	for (size_t i = 1; i < n; i++)
		for (size_t j = i; j > 0 && keep[j - 1] > keep[j]; j--) {
			int t = keep[j];
			keep[j] = keep[j - 1];
			keep[j - 1] = t;
		}
	unsigned from = 3;
	for (size_t i = 0; i < n; i++) {
		if (keep[i] < (int)from)
			continue;
		if ((unsigned)keep[i] > from)
			close_range(from, (unsigned)keep[i] - 1, 0);
		from = (unsigned)keep[i] + 1;
	}
	close_range(from, ~0U, 0);
}

int netproxy_start(int listen_fd, const struct netproxy_options *o)
{
	int shell_fd = (int)syscall(SYS_pidfd_open, getpid(), 0);
	if (shell_fd < 0) {
		close(listen_fd);
		return -1;
	}
	pid_t mid = fork();
	if (mid < 0) {
		close(shell_fd);
		close(listen_fd);
		return -1;
	}
	if (mid == 0) {
		/* Twice forked, so that it is no child of the shell: a `wait -n`
		 * or the shell's last reaping never meets it. */
		if (fork() != 0)
			_exit(0);
		setpgid(0, 0); /* out of the reach of the terminal's ^C */
		static const int ignored[] = {SIGINT, SIGQUIT, SIGHUP, SIGTSTP, SIGTTIN, SIGTTOU, SIGPIPE};
		for (size_t i = 0; i < sizeof ignored / sizeof *ignored; i++)
			signal(ignored[i], SIG_IGN);
		signal(SIGCHLD, SIG_DFL);
		/* Nothing of the shell's but stderr and the event stream: held
		 * sockets (the warden's, the broker's, the keeper's) would tell
		 * them a session process is still there. */
		int null = open("/dev/null", O_RDWR | O_CLOEXEC);
		if (null >= 0) {
			dup2(null, 0);
			dup2(null, 1);
		}
		int keep[3] = {listen_fd, shell_fd, events_fd(o->events)};
		close_all_but(keep, 3);
		proxy_main(listen_fd, shell_fd, o);
	}
	close(listen_fd);
	close(shell_fd);
	while (waitpid(mid, NULL, 0) < 0 && errno == EINTR)
		;
	return 0;
}
