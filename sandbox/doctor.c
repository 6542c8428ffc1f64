/* `sbsh --doctor`: what the sandbox can do on this kernel and terminal, and
 * what still escapes it, in plain words or JSON. The doctor applies the
 * sandbox to itself, so what it reports is what a shell here would get. */
#include "sandbox/doctor.h"
#include "trusted/keeper_start.h"
#include "trusted/isolate.h"

#include "frontend/setup.h"
#include "sandbox/caches.h"
#include "sandbox/hide.h"
#include "sandbox/sandbox.h"
#include "trusted/approver_client.h"
#include "trusted/supervisor.h"

#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>

#ifndef PACKAGE_VERSION
#define PACKAGE_VERSION "0.1"
#endif

struct capability {
	const char *key;
	const char *words;
	bool available;
};

static const char *net_name(enum sandbox_net net)
{
	switch (net) {
	case SANDBOX_NET_OFF:
		return "off";
	case SANDBOX_NET_ALLOW:
		return "allow";
	default:
		return "on";
	}
}

static const char *mode_name(enum sandbox_mode mode)
{
	switch (mode) {
	case SANDBOX_REQUIRED:
		return "required";
	case SANDBOX_OFF:
		return "off";
	default:
		return "auto";
	}
}

/* Pathname unix sockets that a sandboxed command could connect to without
 * the supervisor (Landlock only controls them from ABI 9): the Docker
 * socket, the user's D-Bus bus, a tmux server, an ssh agent... */
static void reachable_sockets(struct strvec *out)
{
	FILE *f = fopen("/proc/net/unix", "re");
	if (!f)
		return;
	char line[4096];
	bool header = true;
	while (fgets(line, sizeof line, f)) {
		if (header) {
			header = false;
			continue;
		}
		line[strcspn(line, "\n")] = '\0';
		char *path = strrchr(line, ' ');
		if (!path || path[1] != '/')
			continue;
		path++;
		struct stat sb;
		if (stat(path, &sb) != 0 || !S_ISSOCK(sb.st_mode) || access(path, W_OK) != 0)
			continue;
		bool seen = false;
		for (size_t i = 0; i < out->len && !seen; i++)
			seen = strcmp(out->items[i], path) == 0;
		if (!seen)
			strvec_push(out, path);
		if (out->len >= 64)
			break;
	}
	fclose(f);
}

/* Whether the human's cache lies beneath a folder the sandbox writes anyway
 * (started in ~/go, or GOMODCACHE under /tmp): then it is not protected. */
static bool writable_anyway(const struct sandbox_state *st, const char *shared, const char **why)
{
	char *real = shared ? realpath(shared, NULL) : NULL;
	bool found = false;
	for (size_t i = 0; real && !found && i < st->ngrants; i++) {
		char *dir = realpath(st->grants[i].path, NULL);
		size_t n = dir ? strlen(dir) : 0;
		if (dir && strncmp(real, dir, n) == 0 && (real[n] == '/' || real[n] == '\0' || n == 1)) {
			found = true;
			*why = st->grants[i].why;
		}
		free(dir);
	}
	free(real);
	return found;
}

static void print_caches(const struct sandbox_caches *c, const struct sandbox_state *st)
{
	printf("\nPackage caches: the human's are read-only, each tool writes its own");
	printf(c->root ? " below\n  %s\n" : "\n", c->root);
	for (size_t i = 0; i < c->len; i++) {
		const struct sandbox_cache *e = &c->items[i];
		const char *why = NULL;
		printf("  %s: ", e->tool);
		if (!e->shared)
			printf("the sandbox's own already (a nested sbsh)");
		else if (writable_anyway(st, e->shared, &why))
			printf("%s is WRITABLE anyway, beneath a writable folder (%s)", e->shared, why);
		else
			printf("%s read-only%s%s", e->shared, e->reads_shared ? ", read " : "",
			       e->reads_shared ? e->reads_shared : "");
		printf("; own: %s\n", e->own);
	}
	for (size_t i = 0; i < c->notes.len; i++)
		printf("  %s\n", c->notes.items[i]);
}

static json_t *caches_json(const struct sandbox_caches *c, const struct sandbox_state *st)
{
	json_t *root = json_object();
	json_object_set_new(root, "private_root", c->root ? json_string(c->root) : json_null());
	json_t *tools = json_array();
	for (size_t i = 0; i < c->len; i++) {
		const struct sandbox_cache *e = &c->items[i];
		const char *why = NULL;
		json_t *t = json_object();
		json_object_set_new(t, "tool", json_string(e->tool));
		json_object_set_new(t, "shared", e->shared ? json_string(e->shared) : json_null());
		json_object_set_new(t, "shared_writable", json_boolean(writable_anyway(st, e->shared, &why)));
		json_object_set_new(t, "own", json_string(e->own));
		json_object_set_new(t, "reads_shared", e->reads_shared ? json_string(e->reads_shared) : json_null());
		json_array_append_new(tools, t);
	}
	json_object_set_new(root, "tools", tools);
	json_t *notes = json_array();
	for (size_t i = 0; i < c->notes.len; i++)
		json_array_append_new(notes, json_string(c->notes.items[i]));
	json_object_set_new(root, "notes", notes);
	return root;
}

static void print_hidden(const struct sandbox_config *cfg, const struct sandbox_state *st)
{
	printf("\nHidden from the sandbox (hide = / unhide = in the config, --no-hide):\n");
	if (cfg->no_hide)
		printf("  nothing: --no-hide\n");
	else if (!st->landlock_applied)
		printf("  nothing: the sandbox does not apply here\n");
	else if (!st->hidden.len && !st->hidden_readable.len)
		printf("  nothing found to hide here\n");
	for (size_t i = 0; i < st->hidden.len; i++) {
		char *shown = hide_home_short(st->hidden.items[i]);
		printf("  %s\n", shown);
		free(shown);
	}
	for (size_t i = 0; i < st->hidden_readable.len; i++)
		printf("  NOT hidden: %s\n", st->hidden_readable.items[i]);
}

static json_t *hidden_json(const struct sandbox_config *cfg, const struct sandbox_state *st)
{
	json_t *o = json_object();
	json_object_set_new(o, "on", json_boolean(!cfg->no_hide && st->landlock_applied));
	json_t *paths = json_array();
	for (size_t i = 0; i < st->hidden.len; i++)
		json_array_append_new(paths, json_string(st->hidden.items[i]));
	json_object_set_new(o, "paths", paths);
	json_t *readable = json_array();
	for (size_t i = 0; i < st->hidden_readable.len; i++)
		json_array_append_new(readable, json_string(st->hidden_readable.items[i]));
	json_object_set_new(o, "readable_anyway", readable);
	return o;
}

/* Whether each agent tool sbsh knows will run its commands through it
 * (frontend/setup.c finds it out). */
static void print_agent_tools(const struct setup_report *r)
{
	printf("\nAgent tools (sbsh --setup TOOL wires one):\n");
	for (size_t i = 0; i < r->len; i++) {
		const struct setup_tool_report *t = &r->tools[i];
		printf("  %s: %s; %s\n", t->tool, t->program ? t->program : "not installed",
		       t->reaches_sbsh ? "reaches sbsh" : "does NOT reach sbsh");
		printf("    %s\n", t->detail ? t->detail : "");
	}
}

static json_t *agent_tools_json(const struct setup_report *r)
{
	json_t *tools = json_array();
	for (size_t i = 0; i < r->len; i++) {
		const struct setup_tool_report *t = &r->tools[i];
		json_t *o = json_object();
		json_object_set_new(o, "tool", json_string(t->tool));
		json_object_set_new(o, "installed", json_boolean(t->program != NULL));
		json_object_set_new(o, "program", t->program ? json_string(t->program) : json_null());
		json_object_set_new(o, "reaches_sbsh", json_boolean(t->reaches_sbsh));
		json_object_set_new(o, "settings", t->settings ? json_string(t->settings) : json_null());
		json_object_set_new(o, "shell", t->shell ? json_string(t->shell) : json_null());
		json_object_set_new(o, "detail", t->detail ? json_string(t->detail) : json_null());
		json_array_append_new(tools, o);
	}
	return tools;
}

static bool can_open_tty(void)
{
	int fd = open("/dev/tty", O_RDWR | O_NOCTTY | O_CLOEXEC);
	if (fd < 0)
		return false;
	close(fd);
	return true;
}

/* The sockets outside that stay reachable with the supervisor: those
 * allowed on purpose, when they exist. */
static void allowed_sockets(const struct strvec *allow, struct strvec *out)
{
	const char *agent = getenv("SSH_AUTH_SOCK");
	struct stat sb;
	if (agent && agent[0] == '/' && stat(agent, &sb) == 0 && S_ISSOCK(sb.st_mode))
		strvec_push(out, agent);
	for (size_t i = 0; allow && i < allow->len; i++)
		strvec_push(out, allow->items[i]);
}

/* One gap that remains, named for --json's "gaps" and said in words. */
struct gap {
	const char *id;
	char *what;
};

static void gap_add(struct gap *gaps, size_t *n, const char *id, char *what)
{
	gaps[*n].id = id;
	gaps[(*n)++].what = what;
}

int doctor_main(const struct sandbox_config *cfg_in, const char *config_path, const struct strvec *allow_sockets,
                bool json, bool no_checkpoints)
{
	struct keeper_report kr;
	keeper_report(no_checkpoints, &kr);
	struct isolate_report ir;
	isolate_report(&ir); /* before confinement: a namespace is tried in a child */
	struct sandbox_config cfg = *cfg_in;
	if (cfg.mode == SANDBOX_REQUIRED)
		cfg.mode = SANDBOX_AUTO; /* report, never refuse */
	struct utsname uts;
	if (uname(&uts) != 0)
		strcpy(uts.release, "unknown");

	bool terminal = can_open_tty();
	bool approver = approver_listening();
	const char *ci = getenv("CI");
	bool in_ci = ci && *ci && strcmp(ci, "0") != 0 && strcmp(ci, "false") != 0;
	struct strvec sockets;
	strvec_init(&sockets);
	reachable_sockets(&sockets); /* before confinement: what exists */
	struct sandbox_caches caches;
	sandbox_caches_plan(&caches); /* as the shell would set them up */
	struct setup_report agents;
	setup_report(&agents);

	cfg.guard_terminal = true; /* probed too: what a terminal would get */
	struct sandbox_state st;
	int applied = cfg.mode == SANDBOX_OFF ? 1 : sandbox_apply(&cfg, &st);
	if (cfg.mode == SANDBOX_OFF) {
		memset(&st, 0, sizeof st);
		sandbox_probe(&st);
		snprintf(st.reason, sizeof st.reason, "turned off (--no-sandbox or config)");
	}
	int abi = st.abi;
	struct supervisor_report sup;
	memset(&sup, 0, sizeof sup);
	sup.yama = -1;
	if (st.landlock_applied)
		supervisor_report(&sup);
	else
		snprintf(sup.why, sizeof sup.why, "%s", "the sandbox does not apply here");
	struct strvec allowed;
	strvec_init(&allowed);
	allowed_sockets(allow_sockets, &allowed);
	/* What still escapes, each named (--json's "gaps"). */
	struct gap gaps[16];
	size_t ngaps = 0;
	bool bare_ports = false;
	for (size_t i = 0; i < cfg.nports; i++)
		bare_ports |= !cfg.port_local[i];
	if (cfg.net == SANDBOX_NET_ON)
		gap_add(gaps, &ngaps, "udp", xstrdup("UDP (name lookups, QUIC) with --net=on"));
	else if (cfg.net == SANDBOX_NET_ALLOW && bare_ports)
		gap_add(gaps, &ngaps, "udp",
		        sup.available ? xstrdup("UDP to port 53 of the nameservers in /etc/resolv.conf (a port "
		                                "allow-list resolves names)")
		                      : xasprintf("UDP to anywhere (no supervisor: %s)", sup.why));
	if (cfg.net == SANDBOX_NET_ON)
		gap_add(gaps, &ngaps, "network", xstrdup("any network with --net=on (the default)"));
	gap_add(gaps, &ngaps, "reading", xstrdup("reading anything the user can read outside /dev (~/.ssh included)"));
	gap_add(gaps, &ngaps, "run_later",
	        xstrdup("files inside a writable folder that run later outside the sandbox (git hooks, "
	                ".git/config): the warden puts them back"));
	if (!sup.available) {
		gap_add(gaps, &ngaps, "metadata",
		        xasprintf("chmod, chown, timestamps and extended attributes outside the writable folders "
		                  "(no supervisor: %s)", sup.why));
		if (abi < 9)
			gap_add(gaps, &ngaps, "unix_sockets",
			        xasprintf("pathname unix sockets anywhere (%zu reachable here; no supervisor: %s)", sockets.len,
			                  sup.why));
	} else {
		strvec_free(&sockets);
		strvec_init(&sockets);
		for (size_t i = 0; i < allowed.len; i++)
			strvec_push(&sockets, allowed.items[i]);
		if (allowed.len)
			gap_add(gaps, &ngaps, "allowed_sockets",
			        xasprintf("%zu unix socket%s outside, allowed on purpose ($SSH_AUTH_SOCK, allow-socket)",
			                  allowed.len, allowed.len == 1 ? "" : "s"));
		if (sup.outer)
			gap_add(gaps, &ngaps, "nested_network",
			        xstrdup("inside another sbsh: the outer session's supervisor makes the covered connections, "
			                "so this session's narrower --net allow-list is not applied to them"));
		if (sup.yama >= 1)
			gap_add(gaps, &ngaps, "leftover_jobs",
			        xstrdup("jobs that outlive the shell cannot be served under Yama (their covered calls are "
			                "refused, not let through)"));
	}
	if (geteuid() != 0)
		gap_add(gaps, &ngaps, "bounding_set", xstrdup("a user that is not root keeps its bounding set (harmless under no_new_privs)"));
	bool net_cut = st.net_handled != 0 || (st.seccomp_applied && cfg.net != SANDBOX_NET_ON);
	struct capability caps[] = {
		{"write_restriction", "writes limited to the project, temp folders and caches", abi >= 1},
		{"cross_folder_rename", "rename and link across folders inside the sandbox", abi >= 2},
		{"truncate", "truncating files outside is blocked", abi >= 3},
		{"tcp_cut", "outgoing and listening TCP can be cut (--net=off)", abi >= 4 || st.seccomp_applied},
		{"port_allow_list", "outgoing TCP limited to chosen ports (--net=allow:)", abi >= 4},
		{"ioctl", "device ioctls blocked on newly opened devices", abi >= 5},
		{"signal_scoping", "cannot signal processes outside the sandbox", abi >= 6},
		{"socket_scoping", "cannot reach abstract unix sockets outside", abi >= 6},
		{"audit_logging", "denials can be logged to the audit log", abi >= 7},
		{"unix_socket_control", "pathname unix sockets are controlled by Landlock", abi >= 9},
		{"supervisor", "connections to unix sockets and metadata changes outside are refused (seccomp supervisor)",
		 sup.available},
		{"seccomp", "seccomp filter for MPTCP and io_uring", st.seccomp_applied},
		{"terminal_guard", "commands cannot type into an inherited terminal (TIOCSTI, seccomp)",
		 st.terminal_guarded},
	};
	size_t ncaps = sizeof caps / sizeof caps[0];
	bool config_exists = config_path && access(config_path, R_OK) == 0;

	if (json) {
		json_t *root = json_object();
		json_object_set_new(root, "version", json_string(PACKAGE_VERSION));
		json_object_set_new(root, "kernel", json_string(uts.release));
		json_t *ll = json_object();
		json_object_set_new(ll, "abi", json_integer(abi));
		json_object_set_new(ll, "errata", json_integer(st.errata));
		json_object_set_new(ll, "available", json_boolean(abi > 0));
		json_object_set_new(root, "landlock", ll);
		json_object_set_new(root, "mode", json_string(mode_name(cfg_in->mode)));
		json_object_set_new(root, "applied", json_boolean(st.landlock_applied));
		json_object_set_new(root, "reason", st.reason[0] ? json_string(st.reason) : json_null());
		json_t *cj = json_object();
		for (size_t i = 0; i < ncaps; i++)
			json_object_set_new(cj, caps[i].key, json_boolean(caps[i].available));
		json_object_set_new(root, "capabilities", cj);
		json_t *w = json_array();
		for (size_t i = 0; i < st.ngrants; i++) {
			json_t *g = json_object();
			json_object_set_new(g, "path", json_string(st.grants[i].path));
			json_object_set_new(g, "why", json_string(st.grants[i].why));
			json_object_set_new(g, "created", json_boolean(st.grants[i].created));
			json_array_append_new(w, g);
		}
		json_object_set_new(root, "writable", w);
		json_t *sk = json_array();
		for (size_t i = 0; i < st.skipped.len; i++)
			json_array_append_new(sk, json_string(st.skipped.items[i]));
		json_object_set_new(root, "not_writable", sk);
		json_object_set_new(root, "caches", caches_json(&caches, &st));
		json_object_set_new(root, "hidden", hidden_json(&cfg, &st));
		json_t *dr = json_array();
		for (size_t i = 0; i < st.dropped.len; i++)
			json_array_append_new(dr, json_string(st.dropped.items[i]));
		json_object_set_new(root, "missing_features", dr);
		json_t *net = json_object();
		json_object_set_new(net, "mode", json_string(net_name(cfg.net)));
		json_object_set_new(net, "tcp_cut", json_boolean(net_cut));
		json_t *ports = json_array();
		for (size_t i = 0; cfg.net == SANDBOX_NET_ALLOW && i < cfg.nports; i++)
			json_array_append_new(ports, json_integer(cfg.ports[i]));
		json_object_set_new(net, "allowed_ports", ports);
		json_t *hosts = json_array();
		for (size_t i = 0; cfg.net == SANDBOX_NET_ALLOW && i < cfg.hosts.len; i++) {
			json_t *h = json_object();
			json_object_set_new(h, "host", json_string(cfg.hosts.items[i]));
			json_object_set_new(h, "port", cfg.host_ports[i] ? json_integer(cfg.host_ports[i]) : json_null());
			json_array_append_new(hosts, h);
		}
		json_object_set_new(net, "allowed_hosts", hosts);
		json_object_set_new(root, "network", net);
		json_t *human = json_object();
		json_object_set_new(human, "terminal", json_boolean(terminal));
		json_object_set_new(human, "ci", json_boolean(in_ci));
		json_object_set_new(human, "approver", json_boolean(approver));
		json_object_set_new(human, "can_ask", json_boolean((terminal || approver) && !in_ci));
		json_object_set_new(root, "human", human);
		json_t *files = json_array();
		if (config_exists)
			json_array_append_new(files, json_string(config_path));
		json_object_set_new(root, "config_files", files);
		json_t *esc = json_object();
		json_t *socks = json_array();
		for (size_t i = 0; i < sockets.len; i++)
			json_array_append_new(socks, json_string(sockets.items[i]));
		json_object_set_new(esc, "unix_sockets", socks);
		json_object_set_new(esc, "udp",
		                    json_boolean(cfg.net == SANDBOX_NET_ON || (cfg.net == SANDBOX_NET_ALLOW && bare_ports)));
		json_object_set_new(esc, "metadata_changes", json_boolean(!sup.available));
		json_t *gj = json_array();
		for (size_t i = 0; i < ngaps; i++) {
			json_t *g = json_object();
			json_object_set_new(g, "id", json_string(gaps[i].id));
			json_object_set_new(g, "what", json_string(gaps[i].what));
			json_array_append_new(gj, g);
		}
		json_object_set_new(esc, "gaps", gj);
		json_object_set_new(root, "escapes", esc);
		json_t *sv = json_object();
		json_object_set_new(sv, "available", json_boolean(sup.available));
		json_object_set_new(sv, "outer", json_boolean(sup.outer));
		json_object_set_new(sv, "yama_ptrace_scope", sup.yama >= 0 ? json_integer(sup.yama) : json_null());
		json_object_set_new(sv, "note", sup.why[0] ? json_string(sup.why) : json_null());
		json_object_set_new(sv, "covers", json_string(SUPERVISOR_COVERS));
		json_t *al = json_array();
		for (size_t i = 0; i < allowed.len; i++)
			json_array_append_new(al, json_string(allowed.items[i]));
		json_object_set_new(sv, "allowed_sockets", al);
		json_object_set_new(root, "supervisor", sv);
		json_t *cp = json_object();
		json_object_set_new(cp, "on", json_boolean(kr.on));
		json_object_set_new(cp, "why_off", kr.why_off ? json_string(kr.why_off) : json_null());
		json_object_set_new(cp, "project", kr.project ? json_string(kr.project) : json_null());
		json_object_set_new(cp, "store", kr.store ? json_string(kr.store) : json_null());
		json_object_set_new(cp, "recorded", json_boolean(kr.recorded));
		json_object_set_new(cp, "keeper_running", json_boolean(kr.running));
		json_object_set_new(cp, "warning", kr.warning ? json_string(kr.warning) : json_null());
		json_object_set_new(root, "checkpoints", cp);
		json_t *iso = json_object();
		json_object_set_new(iso, "available", json_boolean(ir.available));
		json_object_set_new(iso, "how", ir.how ? json_string(ir.how) : json_null());
		json_object_set_new(iso, "why_not", ir.why_not ? json_string(ir.why_not) : json_null());
		json_object_set_new(iso, "layers", ir.layers ? json_string(ir.layers) : json_null());
		json_object_set_new(root, "isolation", iso);
		json_object_set_new(root, "agent_tools", agent_tools_json(&agents));
		json_object_set_new(root, "denial_hints",
		                    json_string("from sbsh's own redirections and the write targets of known programs (cp, mv, touch, tee, dd of=, -o FILE...); Landlock's audit records are not read"));
		char *text = json_dumps(root, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
		puts(text ? text : "{}");
		free(text);
		json_decref(root);
	} else {
		printf("sbsh %s on Linux %s\n", PACKAGE_VERSION, uts.release);
		if (abi > 0)
			printf("Landlock: ABI %d (errata 0x%x)\n", abi, (unsigned)st.errata);
		else
			printf("Landlock: not available (%s)\n", st.reason);
		printf("Sandbox mode: %s; %s\n", mode_name(cfg_in->mode),
		       st.landlock_applied ? "it applies here" : "it does NOT apply here");
		printf("\nWhat it can do:\n");
		for (size_t i = 0; i < ncaps; i++)
			printf("  [%s] %s\n", caps[i].available ? "yes" : " no", caps[i].words);
		printf("\nWritable folders:\n");
		for (size_t i = 0; i < st.ngrants; i++)
			printf("  %s (%s%s)\n", st.grants[i].path, st.grants[i].why,
			       st.grants[i].created ? ", created now" : "");
		for (size_t i = 0; i < st.skipped.len; i++)
			printf("  not granted: %s\n", st.skipped.items[i]);
		print_caches(&caches, &st);
		print_hidden(&cfg, &st);
		printf("\nNetwork: %s", net_name(cfg.net));
		if (cfg.net == SANDBOX_NET_ALLOW) {
			printf(" (TCP ports");
			for (size_t i = 0; i < cfg.nports; i++)
				printf(" %u", cfg.ports[i]);
			if (cfg.hosts.len)
				printf("%shosts", cfg.nports ? "; " : "");
			for (size_t i = 0; i < cfg.hosts.len; i++) {
				printf(" %s", cfg.hosts.items[i]);
				if (cfg.host_ports[i])
					printf(":%u", cfg.host_ports[i]);
			}
			if (cfg.hosts.len && sup.available)
				printf(", through sbsh's proxy; the supervisor refuses other addresses on its port");
			else if (cfg.hosts.len)
				printf(", through sbsh's proxy; without the supervisor (%s) other addresses on its port "
				       "are reached",
				       sup.why);
			printf(")");
		}
		printf("%s\n", net_cut ? ", TCP is cut" : "");
		printf("A human can be asked: %s\n",
		       in_ci      ? "no (CI is set)"
		       : approver ? "yes, through the approver (sbsh --approver)"
		       : terminal ? "yes, on this terminal"
		                  : "no (no terminal, no approver)");
		printf("Config file: %s\n", config_exists ? config_path : "(none)");
		if (kr.on)
			printf("Checkpoints: on, project %s, store %s (%s; keeper %s)\n", kr.project, kr.store,
			       kr.recorded ? "recorded" : "nothing recorded yet", kr.running ? "running" : "not running");
		else
			printf("Checkpoints: off: %s\n", kr.why_off);
		if (kr.warning)
			printf("  warning: %s\n", kr.warning);
		if (ir.available)
			printf("Isolation (--isolate): available, %s and an OverlayFS view%s%s\n", ir.how,
			       ir.layers ? "; layers in " : "", ir.layers ? ir.layers : "");
		else
			printf("Isolation (--isolate): not available: %s\n", ir.why_not);
		print_agent_tools(&agents);
		if (sup.available)
			printf("\nSupervisor: on%s%s%s; it refuses %s\n", sup.why[0] ? " (" : "", sup.why, sup.why[0] ? ")" : "",
			       SUPERVISOR_COVERS);
		else
			printf("\nSupervisor: NOT available: %s\n", sup.why);
		printf("\nWhat still escapes:\n");
		for (size_t i = 0; i < ngaps; i++) {
			printf("  %s\n", gaps[i].what);
			if (strcmp(gaps[i].id, "unix_sockets") == 0 || strcmp(gaps[i].id, "allowed_sockets") == 0)
				for (size_t k = 0; k < sockets.len; k++)
					printf("    %s\n", sockets.items[k]);
		}
		for (size_t i = 0; i < st.dropped.len; i++)
			if (!sup.available || !strstr(st.dropped.items[i], "unix socket"))
				printf("  %s\n", st.dropped.items[i]);
		printf("\nDenied writes are explained after a failed command when sbsh can tell: its own\n"
		       "redirections, and the write targets of known programs (cp, mv, touch, dd of=...).\n"
		       "Landlock's audit records are not read.\n");
	}
	(void)applied;
	for (size_t i = 0; i < ngaps; i++)
		free(gaps[i].what);
	strvec_free(&allowed);
	strvec_free(&sockets);
	sandbox_caches_free(&caches);
	setup_report_free(&agents);
	if (cfg.mode != SANDBOX_OFF)
		sandbox_state_free(&st);
	keeper_report_free(&kr);
	isolate_report_free(&ir);
	return 0;
}
