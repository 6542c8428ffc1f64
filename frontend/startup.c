/* The order of startup, all before the shell reads a single line of user
 * input: the config file (config.c), sbsh's own options, the one-shot modes
 * (modes.c), then confinement, with the protection warden and the broker
 * forked before it. */
#include "frontend/startup.h"

#include "frontend/config.h"
#include "frontend/modes.h"
#include "trusted/approver_client.h"
#include "trusted/session_socket.h"
#include "trusted/broker.h"
#include "trusted/warden.h"
#include "trusted/keeper_start.h"
#include "trusted/netproxy.h"
#include "trusted/supervisor.h"
#include "hooks/classify.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <termios.h>
#include <unistd.h>

/* An interactive shell keeps its history in $XDG_STATE_HOME/sbsh/history,
 * a folder the sandbox must not write (the protection baselines live
 * beside it): the file is opened here, before confinement, and written
 * through that descriptor. */
static int open_history(void)
{
	if (!isatty(0) || !isatty(2))
		return -1;
	char *path = util_history_path(getenv("XDG_STATE_HOME"), getenv("HOME"));
	if (!path)
		return -1;
	int fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0600);
	free(path);
	return fd;
}

/* A controlling terminal that stdin, stdout or stderr is on: a human is
 * there. Under an agent tool whose own UI holds the terminal, stdio are
 * pipes, and prompting on /dev/tty would fight that UI. */
static bool stdio_is_terminal(void)
{
	/* TIOCGSID (what tcgetsid() asks) fails unless fd is our controlling
	 * terminal. Asked directly so the answer starts initialised: valgrind
	 * does not know this ioctl writes it. */
	for (int fd = 0; fd <= 2; fd++) {
		pid_t sid = -1;
		if (isatty(fd) && ioctl(fd, TIOCGSID, &sid) == 0 && sid != -1)
			return true;
	}
	return false;
}

/* The text of `sbsh -c TEXT` from the shell options left in argv (main.c
 * parses them again, the same way), or NULL when the shell will run
 * anything else first or instead: a script, stdin, -i, a login shell's
 * profiles. */
static const char *command_text(int argc, char **argv)
{
	bool want_c = false, want_i = false, login = argv[0] && argv[0][0] == '-';
	int i = 1;
	for (; i < argc; i++) {
		const char *a = argv[i];
		if (strcmp(a, "--") == 0 || strcmp(a, "-") == 0) {
			i++;
			break;
		}
		if (a[0] == '-' && a[1] == '-') {
			login = login || strcmp(a, "--login") == 0;
			continue;
		}
		if ((a[0] != '-' && a[0] != '+') || a[1] == '\0')
			break;
		for (const char *p = a + 1; *p; p++) {
			if (*p == 'c')
				want_c = a[0] == '-';
			else if (*p == 'i')
				want_i = a[0] == '-';
			else if (*p == 'l')
				login = a[0] == '-';
			else if (*p == 'o' && i + 1 < argc)
				i++;
		}
	}
	return want_c && !want_i && !login && i < argc ? argv[i] : NULL;
}

/* Whether -c text may need the human: a command the classifier does not
 * judge SAFE as written (escape included, and whatever is unknown until
 * it runs), a sourced file (judged only as it runs), or a cd before a git
 * command (git aliases are the folder's, and the classifier reads those of
 * the starting folder). Text it cannot parse, or very long text, may too.
 * cl is the shell's own classifier (config rules and all), so its git
 * config cache serves the commands as they run. */
static bool text_needs_human(struct classifier *cl, const char *text)
{
	size_t len = strlen(text);
	if (len > 65536 ||
	    (strstr(text, "git") && (strstr(text, "cd") || strstr(text, "pushd") || strstr(text, "popd"))))
		return true;
	struct classify_result r;
	classify_result_init(&r);
	char *err = NULL;
	bool unparsed = classify_text(cl, text, len, &r, &err) != 0;
	bool needs = unparsed || r.verdict != VERDICT_SAFE;
	free(err);
	for (size_t i = 0; i < r.nitems; i++) {
		const char *c = r.items[i].command ? r.items[i].command : "";
		if (strncmp(c, ". ", 2) == 0 || strncmp(c, "source ", 7) == 0)
			needs = true; /* what the file holds is judged as it runs */
	}
	classify_result_free(&r);
	return needs;
}

static void remove_args(int *argc, char **argv, int at, int count)
{
	for (int j = at; j + count <= *argc; j++)
		argv[j] = argv[j + count];
	*argc -= count;
}

/* sbsh's own options, which may stand among the shell's up to the first
 * operand (the script, or the -c string): taken out of argv. A mode's
 * option (modes.c) goes into *mode; one that runs at once ends the reading
 * there, its arguments left in argv. Returns STARTUP_CONTINUE, or the exit
 * status of a wrong option. */
static int take_own_options(struct startup *st, int *argc, char **argv, const char **events_spec,
                            struct mode_call *mode)
{
	const struct mode *found;
	for (int i = 1; i < *argc;) {
		char *a = argv[i];
		if (strcmp(a, "--") == 0 || (a[0] != '-' && a[0] != '+') || strcmp(a, "-") == 0)
			break;
		if (strcmp(a, "--sandbox") == 0) {
			st->sandbox.mode = SANDBOX_REQUIRED;
		} else if (strcmp(a, "--no-sandbox") == 0) {
			st->sandbox.mode = SANDBOX_OFF;
		} else if (strcmp(a, "--headless") == 0) {
			st->headless = true;
		} else if (strcmp(a, "--no-hide") == 0) {
			st->sandbox.no_hide = true;
		} else if (strcmp(a, "--audit") == 0) {
			st->sandbox.audit = true;
		} else if ((found = modes_find(a)) != NULL) {
			*mode = (struct mode_call){.mode = found, .at = found->place == MODE_AFTER ? -1 : i,
			                           .modified = mode->modified};
			if (found->place == MODE_AT_ONCE)
				break;
		} else if (mode->mode && mode->mode->modifier && strcmp(a, mode->mode->modifier) == 0) {
			mode->modified = true;
		} else if (strncmp(a, "--net=", 6) == 0 || strcmp(a, "--net") == 0) {
			const char *spec = a[5] == '=' ? a + 6 : (i + 1 < *argc ? argv[i + 1] : "");
			if (sandbox_parse_net(&st->sandbox, spec) != 0) {
				fprintf(stderr, "sbsh: --net: expected on, off or allow:PORT|HOST[:PORT][,...]\n");
				return STARTUP_USAGE;
			}
			if (a[5] != '=')
				remove_args(argc, argv, i, 1);
		} else if (strncmp(a, "--allow-write=", 14) == 0 || strcmp(a, "--allow-write") == 0) {
			const char *dir = a[13] == '=' ? a + 14 : (i + 1 < *argc ? argv[i + 1] : NULL);
			if (!dir || !*dir) {
				fprintf(stderr, "sbsh: --allow-write: needs a folder\n");
				return STARTUP_USAGE;
			}
			strvec_push(&st->sandbox.extra_write, dir);
			if (a[13] != '=')
				remove_args(argc, argv, i, 1);
		} else if (strcmp(a, "--no-protect") == 0) {
			st->no_protect = true;
		} else if (strcmp(a, "--no-checkpoints") == 0) {
			st->no_checkpoints = true;
		} else if (strcmp(a, "--ephemeral") == 0) {
			st->ephemeral = true;
		} else if (strcmp(a, "--isolate") == 0 || strncmp(a, "--isolate=", 10) == 0) {
			/* the next word is the layer's name unless it is an option */
			st->isolate.wanted = true;
			const char *next = i + 1 < *argc ? argv[i + 1] : NULL;
			if (a[9] == '=')
				st->isolate.name = xstrdup(a + 10);
			else if (next && next[0] != '-' && next[0] != '+') {
				st->isolate.name = xstrdup(next);
				remove_args(argc, argv, i, 1);
			}
		} else if (strncmp(a, "--events=", 9) == 0 || strcmp(a, "--events") == 0) {
			*events_spec = a[8] == '=' ? a + 9 : (i + 1 < *argc ? argv[i + 1] : "");
			if (a[8] != '=')
				remove_args(argc, argv, i, 1);
		} else {
			/* a shell option: -o NAME takes the next word with it */
			if ((strcmp(a, "-o") == 0 || strcmp(a, "+o") == 0) && i + 1 < *argc)
				i++;
			i++;
			continue;
		}
		remove_args(argc, argv, i, 1);
	}
	return STARTUP_CONTINUE;
}

/* The project's keeper, found or started before confinement. Not in a
 * nested sbsh (its outer session records the lines), nor in / or $HOME. */
static void start_checkpoints(struct startup *st)
{
	st->checkpoints.fd = -1;
	st->checkpoints.pid = getpid();
	st->checkpoints.events = st->events;
	/* isolated: nothing reaches the real folder, the layer is the record */
	if ((st->no_checkpoints && !st->ephemeral) || st->isolate.wanted)
		return;
	if (prctl(PR_GET_NO_NEW_PRIVS, 0, 0, 0, 0) == 1) {
		if (st->ephemeral)
			fprintf(stderr, "sbsh: --ephemeral: refused inside a sandbox (the outer session's checkpoints keep these changes)\n");
		return;
	}
	const char *idle_env = getenv("SBSH_KEEPER_IDLE");
	unsigned idle = st->keeper_idle_s ? st->keeper_idle_s : 600;
	if (idle_env && *idle_env) {
		char *end;
		unsigned long v = strtoul(idle_env, &end, 10);
		if (!*end && v > 0 && v < 86400L * 30)
			idle = (unsigned)v;
	}
	char *cwd = getcwd(NULL, 0);
	char *why = NULL;
	struct keeper_options ko = {.ephemeral = st->ephemeral, .idle_s = idle,
	                            .keep_sessions = st->keep_sessions ? st->keep_sessions : 20,
	                            .keep_mib = st->keep_mib ? st->keep_mib : 1024};
	int r = keeper_start(cwd, &ko, &st->checkpoints, &why);
	if (r != 0) {
		/* where none are made by design, --doctor says so */
		if (st->ephemeral || r == -1)
			fprintf(stderr, "sbsh: %s: no checkpoints in this session: %s\n", st->ephemeral ? "--ephemeral" : "warning",
			        why);
	}
	free(why);
	free(cwd);
}

/* --net=allow:HOST: the proxy's socket, made before the rules so that
 * they allow its port. A nested sbsh starts none: it keeps its outer
 * session's (SBSH_NET_PROXY), the only one its outer sandbox reaches.
 * Returns the socket or -1. */
static int netproxy_socket(struct startup *st)
{
	struct sandbox_config *c = &st->sandbox;
	if (c->net != SANDBOX_NET_ALLOW || !c->hosts.len || c->mode == SANDBOX_OFF)
		return -1;
	if (prctl(PR_GET_NO_NEW_PRIVS, 0, 0, 0, 0) == 1) {
		const char *outer = getenv("SBSH_NET_PROXY");
		unsigned long port = outer ? strtoul(outer, NULL, 10) : 0;
		c->proxy_port = port > 0 && port < 65536 ? (uint16_t)port : 0;
		return -1;
	}
	int fd = netproxy_listen(&c->proxy_port);
	if (fd < 0)
		fprintf(stderr, "sbsh: the network proxy cannot listen: %s; the listed hosts are unreachable\n",
		        strerror(errno));
	return fd;
}

/* Forks the proxy (trusted/netproxy.c) and gives the programs inside its
 * variables. */
static void netproxy_run(struct startup *st, int fd)
{
	const struct sandbox_config *c = &st->sandbox;
	struct strbuf spec;
	strbuf_init(&spec);
	strbuf_adds(&spec, "allow:");
	for (size_t i = 0; i < c->nports; i++)
		strbuf_addf(&spec, "%s%u", i ? "," : "", c->ports[i]);
	for (size_t i = 0; i < c->hosts.len; i++) {
		strbuf_addf(&spec, "%s%s", i || c->nports ? "," : "", c->hosts.items[i]);
		if (c->host_ports[i])
			strbuf_addf(&spec, ":%u", c->host_ports[i]);
	}
	struct strvec writable;
	strvec_init(&writable);
	for (size_t i = 0; i < st->state.ngrants; i++)
		strvec_push(&writable, st->state.grants[i].path);
	char *cwd = getcwd(NULL, 0);
	struct netproxy_options o = {.hosts = c->hosts.items, .ports = c->host_ports, .nhosts = c->hosts.len,
	                             .allow_spec = spec.data, .config_path = st->config_path, .events = st->events,
	                             .ask = !st->headless && approver_present(), .writable = writable.items,
	                             .folder = cwd, .timeout_s = st->broker.timeout_s};
	if (netproxy_start(fd, &o) == 0) {
		netproxy_env(c->proxy_port, &st->state.env);
		strvec_push_owned(&st->state.env, xasprintf("SBSH_NET_PROXY=%u", c->proxy_port));
	} else {
		fprintf(stderr, "sbsh: the network proxy cannot start: %s; the listed hosts are unreachable\n",
		        strerror(errno));
	}
	free(cwd);
	strvec_free(&writable);
	strbuf_free(&spec);
}

/* Before the first program (sandbox_guard_terminal): the supervisor, unless
 * an outer sbsh's already covers this one. In the shell that goes on below
 * it, the pids noted as the shell's are its own again. */
static int start_supervisor(void *ctx)
{
	struct startup *st = ctx;
	if (supervisor_outer_present())
		return 0;
	pid_t was = getpid();
	char *why = NULL;
	unsigned guard = st->state.guard_pending ? st->state.guard_want : 0;
	int r = supervisor_start(&st->supervision, guard, &why);
	if (r == 1 && !why)
		sandbox_guard_loaded(&st->state); /* it was in the supervisor's filter */
	free(why); /* --doctor says what is missing, and why */
	if (r == 1) {
		if (st->checkpoints.pid == was)
			st->checkpoints.pid = getpid();
		if (st->protect.shell.pid == was)
			st->protect.shell.pid = getpid();
		events_rebase(st->events, was);
	}
	return r;
}

/* The nameservers of /etc/resolv.conf, as read at start-up: a port
 * allow-list lets UDP reach their port 53 and nothing else. */
static void read_nameservers(struct supervisor_net *n)
{
	FILE *f = fopen("/etc/resolv.conf", "re");
	if (!f)
		return;
	char line[512];
	while (fgets(line, sizeof line, f) && n->nnameservers < SUPERVISOR_NAMESERVERS) {
		char addr[INET6_ADDRSTRLEN + 1];
		if (sscanf(line, " nameserver %46s", addr) != 1)
			continue;
		char *scope = strchr(addr, '%'); /* fe80::1%eth0: the address is enough */
		if (scope)
			*scope = '\0';
		struct in6_addr *a = &n->nameservers[n->nnameservers];
		struct in_addr v4;
		if (inet_pton(AF_INET, addr, &v4) == 1) {
			memset(a, 0, sizeof *a);
			a->s6_addr[10] = a->s6_addr[11] = 0xff;
			memcpy(&a->s6_addr[12], &v4, 4);
		} else if (inet_pton(AF_INET6, addr, a) != 1) {
			continue;
		}
		n->nnameservers++;
	}
	fclose(f);
}

/* The network mode in the supervisor's terms: which addresses TCP and UDP
 * may reach, beyond the ports Landlock sees. */
static void plan_supervisor_net(const struct sandbox_config *c, struct supervisor_net *n)
{
	if (c->net == SANDBOX_NET_ON)
		return; /* zeroed: nothing checked */
	n->check_tcp = true;
	n->udp = SUPERVISOR_UDP_CLOSED;
	if (c->net != SANDBOX_NET_ALLOW)
		return;
	for (size_t i = 0; i < c->nports && i < SUPERVISOR_NET_PORTS; i++) {
		if (c->port_local[i])
			n->local_ports[n->nlocal++] = c->ports[i];
		else
			n->any_ports[n->nany++] = c->ports[i];
	}
	n->proxy_port = c->hosts.len ? c->proxy_port : 0;
	if (n->nany) {
		n->udp = SUPERVISOR_UDP_DNS;
		read_nameservers(n);
	}
}

/* What the supervisor decides with, fixed before user code runs: the
 * writable folders as granted, and the sockets outside that stay
 * reachable ($SSH_AUTH_SOCK and the session's broker, as sbsh found them,
 * and the config's allow-socket lines). */
static void plan_supervisor(struct startup *st)
{
	struct supervisor_policy *p = &st->supervision;
	p->grants = xcalloc(st->state.ngrants ? st->state.ngrants : 1, sizeof *p->grants);
	for (size_t i = 0; i < st->state.ngrants; i++) {
		const struct sandbox_grant *g = &st->state.grants[i];
		bool own = strcmp(g->why, "project") == 0 || strcmp(g->why, "--allow-write") == 0;
		p->grants[p->ngrants++] = (struct supervisor_grant){.dev = g->dev, .ino = g->ino, .shared = !own, .path = g->path};
		if (!p->project && strcmp(g->why, "project") == 0)
			p->project = g->path;
	}
	const char *agent = getenv("SSH_AUTH_SOCK");
	if (agent && agent[0] == '/')
		strvec_push(&p->allowed, agent);
	const char *session = getenv(SESSION_SOCKET_ENV);
	if (session && session[0] == '/')
		strvec_push(&p->allowed, session);
	for (size_t i = 0; i < st->allow_sockets.len; i++)
		strvec_push(&p->allowed, st->allow_sockets.items[i]);
	p->landlock_abi = st->state.abi;
	p->hint_fd = 2;
	plan_supervisor_net(&st->sandbox, &p->net);
	st->state.supervise = start_supervisor;
	st->state.supervise_ctx = st;
	st->state.supervise_pending = true;
}

int startup_run(struct startup *st, int *argc, char ***argvp)
{
	char **argv = *argvp;
	/* jansson seeds its hash tables from /dev/urandom (an open, a read, a
	 * close) unless given a seed: the kernel's per-exec random bytes serve. */
	const unsigned char *random16 = (const unsigned char *)getauxval(AT_RANDOM);
	if (random16) {
		uint32_t seed;
		memcpy(&seed, random16 + 8, sizeof seed);
		json_object_seed(seed ? seed : 1);
	}
	memset(st, 0, sizeof *st);
	st->broker_fd = -1;
	st->history_fd = -1;
	st->protect.shell.fd = -1;
	st->protect.shell.inotify = -1;
	st->protect.broker_fd = -1;
	strvec_init(&st->protect_extra);
	strvec_init(&st->classify_rules);
	strvec_init(&st->allow_sockets);
	supervisor_policy_init(&st->supervision);
	const char *events_spec = getenv("SBSH_EVENTS");
	sandbox_config_init(&st->sandbox);
	st->config_path = config_file_path();
	if (st->config_path && config_read(st, st->config_path) != 0)
		return STARTUP_USAGE;

	const char *ci = getenv("CI");
	st->headless = ci && *ci && strcmp(ci, "0") != 0 && strcmp(ci, "false") != 0;

	/* The one-shot modes (modes.c): one that must come first runs before
	 * sbsh's options are read, the others once those before them are. */
	struct mode_call mode = {.mode = modes_first(*argc, argv), .at = 1};
	if (!mode.mode) {
		int rc = take_own_options(st, argc, argv, &events_spec, &mode);
		if (rc != STARTUP_CONTINUE)
			return rc;
	}
	if (mode.mode)
		return modes_run(&mode, st, *argc, argv);

	/* Who is asked: an approver when one runs, else the terminal stdio is
	 * on; nobody with CI or --headless. Without a terminal, one lstat of
	 * the approver's socket decides whether a broker is forked. */
	/* Inside a session (SBSH_SESSION, which the session's broker sets),
	 * questions go to that broker: the human is asked once whatever the
	 * depth, and this sbsh forks no broker of its own. Who listens there is
	 * checked when the first question is put (hooks/session_client.h):
	 * one lstat here. */
	const char *session = getenv(SESSION_SOCKET_ENV);
	struct stat session_sb;
	if (!st->headless && session && session[0] == '/' && lstat(session, &session_sb) == 0 &&
	    S_ISSOCK(session_sb.st_mode) && session_sb.st_uid == geteuid())
		st->session_socket = xstrdup(session);
	bool terminal = !st->headless && !st->session_socket && stdio_is_terminal();
	st->terminal = terminal;
	if (!st->headless && !terminal && !st->session_socket && !approver_present())
		st->headless = true;

	if (events_spec && *events_spec) {
		const char *err = NULL;
		st->events = events_open(events_spec, &err);
		/* SBSH_EVENTS is inherited by every sbsh a session starts, and a
		 * nested one (no_new_privs: confined already) cannot open a file
		 * outside the writable folders: it warns and runs without events.
		 * Dropping the variable keeps its own children from warning again.
		 * Only --events typed for a first sbsh is a usage error. */
		if (!st->events) {
			bool from_env = events_spec == getenv("SBSH_EVENTS");
			if (!from_env && prctl(PR_GET_NO_NEW_PRIVS, 0, 0, 0, 0) != 1) {
				fprintf(stderr, "sbsh: --events %s: %s\n", events_spec, err);
				return STARTUP_USAGE;
			}
			fprintf(stderr, "sbsh: warning: events %s: %s; no events are written\n", events_spec, err);
			unsetenv("SBSH_EVENTS");
		}
	}
	/* sbsh -c whose text needs nobody as written forks no broker, on a
	 * terminal or with an approver listening (a fork, a pty and a relay
	 * cost more than the rest of sbsh -c here): its commands keep the
	 * terminal, as under bash, and the human is never asked on it; seccomp
	 * stops them typing into it (TIOCSTI). What turns out to need approval
	 * only as it runs is refused, saying why: the approver answers only
	 * brokers, never a process made inside the sandbox such as this shell.
	 * Text that may need the human gets the broker (and on a terminal its
	 * pty), which asks the approver when one runs. */
	const char *text = command_text(*argc, argv);
	if (!st->headless && text) {
		st->classifier = classifier_with_rules(st->classify_rules.items);
		st->quiet = st->text_safe = !text_needs_human(st->classifier, text);
	}
	bool want_broker = !st->headless && !st->quiet && !st->session_socket;

	/* An isolated session enters its layer's view before anything else
	 * is opened in the project: the sandbox's rules below are the view's. */
	if (st->isolate.wanted) {
		if (st->sandbox.mode == SANDBOX_OFF) {
			fprintf(stderr, "sbsh: --isolate needs the sandbox (it keeps the session off the layer's own "
			                "folders): drop --no-sandbox\n");
			return STARTUP_USAGE;
		}
		st->sandbox.mode = SANDBOX_REQUIRED;
		int rc = isolate_begin(&st->isolate, st->ephemeral, &st->sandbox.extra_write);
		if (rc != 0)
			return rc;
	}

	/* The rules are made before anything is forked: a fork makes each
	 * page written after it a copy (~100 us of faults for these). */
	if (want_broker)
		sandbox_collect(&st->sandbox); /* for the shell's rules and the broker's list */
	int proxy_fd = netproxy_socket(st);
	int r = sandbox_prepare(&st->sandbox, &st->state);
	if (r < 0) {
		fprintf(stderr, "sbsh: sandbox requested but unavailable: %s\n", st->state.reason);
		return STARTUP_SANDBOX;
	}

	/* Protected files: the baseline is taken (or enforced) and its warden
	 * started before the broker, so neither the broker's terminal nor the
	 * shell's sandbox is ever in its hands. Only a few stat() calls when
	 * there is no project here. */
	/* Headless, the warden alone keeps the baseline: the shell makes the
	 * session's last check itself before it exits (it never execs its last
	 * command while protecting), so no broker is forked just for that. */
	/* The keeper first: started by a process that is nobody's warden or
	 * subreaper, it is adopted by init, not by this session. */
	start_checkpoints(st);
	if (st->ephemeral && st->checkpoints.fd < 0 && !st->isolate.wanted)
		return STARTUP_CHECKPOINTS;
	if (!st->no_protect)
		protect_start(st->events, want_broker, st->protect_extra.items, &st->protect);
	if (st->isolate.wanted)
		isolate_note_warden(&st->isolate, st->protect.shell.fd >= 0 ? st->protect.shell.warden : 0);

	/* The broker is forked before confinement when a human can be asked. */
	st->broker_fd = -1;
	if (want_broker) {
		st->broker.pty = terminal && (isatty(0) || isatty(1) || isatty(2));
		if (st->broker.timeout_s == 0)
			st->broker.timeout_s = 60;
		st->broker.sandbox = &st->sandbox;
		st->broker.terminal = terminal;
		st->broker.protect_fd = st->protect.broker_fd;
		st->broker.protect_root = st->protect.broker_fd >= 0 ? st->protect.root : NULL;
		st->broker.escape_env = st->protect.env.items;
		st->broker.protect_shell_fd = st->protect.shell.fd;
		st->broker.events = st->events;
		st->broker_fd = broker_start(&st->broker, &st->pty_path);
		st->sandbox.own_pty = st->pty_path;
		if (st->headless && st->broker_fd >= 0) {
			/* nobody to ask: requests are refused in the shell, as before */
			close(st->broker_fd);
			st->broker_fd = -1;
		}
	}
	if (st->protect.broker_fd >= 0) {
		/* the shell (or a shell without a broker) never uses the broker's end */
		close(st->protect.broker_fd);
		st->protect.broker_fd = -1;
	}
	if (proxy_fd >= 0 && r == 0)
		netproxy_run(st, proxy_fd); /* by the shell itself, which it outlives by nothing */
	else if (proxy_fd >= 0)
		close(proxy_fd);
	st->protect.shell.pid = getpid();
	st->checkpoints.pid = getpid(); /* the shell: protect_start may have forked it */
	/* A job that detaches itself (a double fork, `(cmd &)`) would go to
	 * init, out of the warden's sight, and could plant a hook after the
	 * session. Headless, the shell adopts such orphans (the broker does,
	 * when there is one), so the session's last check finds them. */
	if (st->protect.shell.fd >= 0 && st->broker_fd < 0)
		prctl(PR_SET_CHILD_SUBREAPER, 1);

	if (!text)
		st->history_fd = open_history();
	st->sandbox.baseline_hooks = st->protect.hooks; /* git runs them, from the hidden state folder */
	/* Any terminal the sandbox inherits: no command in it may type there. */
	st->sandbox.guard_terminal = isatty(0) || isatty(1) || isatty(2);
	if (r == 0)
		r = sandbox_commit(&st->sandbox, &st->state);
	if (r < 0) {
		fprintf(stderr, "sbsh: sandbox requested but unavailable: %s\n", st->state.reason);
		return STARTUP_SANDBOX;
	}
	if (r > 0)
		sandbox_close_collected(&st->sandbox); /* nothing was applied: no commit closed them */
	if (st->state.landlock_applied)
		plan_supervisor(st);
	if (r > 0 && isatty(0) && isatty(2) && !st->headless)
		fprintf(stderr, "sbsh: running without a sandbox: %s\n", st->state.reason);
	for (size_t i = 0; i < st->state.env.len; i++)
		putenv(st->state.env.items[i]);
	/* Every git the shell starts runs the baseline's hooks, never one
	 * planted earlier in the same command line. */
	for (size_t i = 0; i < st->protect.env.len; i++)
		putenv(st->protect.env.items[i]);
	events_session_start(st->events, &st->sandbox, &st->state, st->headless, st->protect.root);
	return STARTUP_CONTINUE;
}

