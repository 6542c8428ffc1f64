/* Landlock + seccomp for the shell process: the order of confinement and
 * what a missing piece means (a record for --doctor, or with --sandbox a
 * refusal). Best effort across ABI 1..9: every right the kernel knows is
 * handled, and whatever it lacks is recorded instead of silently assumed.
 * The mechanisms are landlock.c, seccomp.c and writable.c. */
#include "sandbox/sandbox.h"

#include <errno.h>
#include <linux/capability.h>
#include <linux/securebits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "lib/util.h"
#include "sandbox/landlock.h"
#include "sandbox/scrubbed.h"
#include "sandbox/seccomp.h"
#include "sandbox/writable.h"

void sandbox_config_init(struct sandbox_config *cfg)
{
	memset(cfg, 0, sizeof *cfg);
	cfg->mode = SANDBOX_AUTO;
	cfg->net = SANDBOX_NET_ON;
	strvec_init(&cfg->extra_write);
	strvec_init(&cfg->hide_rules);
	strvec_init(&cfg->hosts);
}

void sandbox_config_free(struct sandbox_config *cfg)
{
	strvec_free(&cfg->extra_write);
	strvec_free(&cfg->hide_rules);
	strvec_free(&cfg->hosts);
}

void sandbox_state_free(struct sandbox_state *st)
{
	for (size_t i = 0; i < st->ngrants; i++)
		free(st->grants[i].path);
	free(st->grants);
	st->grants = NULL;
	st->ngrants = 0;
	strvec_free(&st->skipped);
	strvec_free(&st->dropped);
	strvec_free(&st->hidden);
	strvec_free(&st->hidden_readable);
	strvec_free(&st->env);
}

/* A host of the allow-list, lower-cased into out: a name (letters,
 * digits, '-', dots between labels), `*.` and a name, or an IPv4 address.
 * Returns 0 or -1. */
static int parse_host(const char *s, size_t n, char *out, size_t cap)
{
	if (n == 0 || n >= cap)
		return -1;
	size_t at = 0;
	if (n > 2 && s[0] == '*' && s[1] == '.') {
		out[at++] = '*';
		out[at++] = '.';
	}
	bool label_start = true;
	for (size_t i = at; i < n; i++) {
		char c = s[i];
		if (c >= 'A' && c <= 'Z')
			c = (char)(c - 'A' + 'a');
		if (c == '.') {
			if (label_start)
				return -1;
			label_start = true;
		} else if ((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || (c == '-' && !label_start)) {
			label_start = false;
		} else {
			return -1;
		}
		out[at++] = c;
	}
	if (label_start)
		return -1;
	out[at] = '\0';
	return 0;
}

static bool loopback_host(const char *host)
{
	return strcmp(host, "localhost") == 0 || strcmp(host, "127.0.0.1") == 0;
}

static int parse_port(const char *s, size_t n, uint16_t *port)
{
	unsigned long v = 0;
	if (n == 0 || n > 5)
		return -1;
	for (size_t i = 0; i < n; i++) {
		if (s[i] < '0' || s[i] > '9')
			return -1;
		v = v * 10 + (unsigned long)(s[i] - '0');
	}
	if (v == 0 || v > 65535)
		return -1;
	*port = (uint16_t)v;
	return 0;
}

int sandbox_parse_net(struct sandbox_config *cfg, const char *spec)
{
	if (strcmp(spec, "on") == 0) {
		cfg->net = SANDBOX_NET_ON;
		return 0;
	}
	if (strcmp(spec, "off") == 0) {
		cfg->net = SANDBOX_NET_OFF;
		return 0;
	}
	if (strncmp(spec, "allow:", 6) != 0)
		return -1;
	cfg->nports = 0;
	strvec_free(&cfg->hosts);
	strvec_init(&cfg->hosts);
	for (const char *p = spec + 6; *p;) {
		size_t len = strcspn(p, ",");
		const char *colon = memchr(p, ':', len);
		uint16_t port = 0;
		char host[256];
		if (parse_port(p, len, &port) == 0) {
			host[0] = '\0'; /* a bare number stays a port */
		} else if (parse_host(p, colon ? (size_t)(colon - p) : len, host, sizeof host) != 0 ||
		           (colon && parse_port(colon + 1, len - (size_t)(colon - p) - 1, &port) != 0)) {
			return -1;
		}
		bool local = host[0] && loopback_host(host);
		if (local) {
			/* clients of a local database speak no HTTP proxy: its port
			 * is reached directly, which Landlock allows on any address
			 * and the supervisor on loopback only */
			if (!port)
				return -1;
			host[0] = '\0';
		}
		if (!host[0]) {
			if (cfg->nports == SANDBOX_MAX_PORTS)
				return -1;
			cfg->port_local[cfg->nports] = local;
			cfg->ports[cfg->nports++] = port;
		} else {
			if (cfg->hosts.len == SANDBOX_MAX_PORTS)
				return -1;
			cfg->host_ports[cfg->hosts.len] = port;
			strvec_push(&cfg->hosts, host);
		}
		p += len;
		if (*p == ',' && *++p == '\0')
			return -1;
	}
	if (cfg->nports == 0 && cfg->hosts.len == 0)
		return -1;
	cfg->net = SANDBOX_NET_ALLOW;
	return 0;
}

static int fail(struct sandbox_state *st, const struct sandbox_config *cfg, const char *fmt,
                const char *arg)
{
	snprintf(st->reason, sizeof st->reason, fmt, arg);
	return cfg->mode == SANDBOX_REQUIRED ? -1 : 1;
}

int sandbox_prepare(const struct sandbox_config *cfg, struct sandbox_state *st)
{
	memset(st, 0, sizeof *st);
	st->ruleset = -1;
	strvec_init(&st->skipped);
	strvec_init(&st->dropped);
	strvec_init(&st->hidden);
	strvec_init(&st->hidden_readable);
	strvec_init(&st->env);
	st->net = cfg->net;
	sandbox_probe(st);
	if (cfg->mode == SANDBOX_OFF)
		return 0;
	if (st->abi == 0) {
		int err = errno;
		return fail(st, cfg, "Landlock is not available in this kernel (%s)",
		            err == EOPNOTSUPP ? "disabled at boot" : "not built in or blocked by seccomp");
	}

	st->fs_handled = sandbox_fs_rights_for_abi(st->abi);
	st->scoped = sandbox_scopes_for_abi(st->abi);
	st->restrict_flags = st->abi >= 7 ? LL_RESTRICT_LOG_SAME_EXEC_OFF : 0;
	if (cfg->audit && st->abi >= 7)
		st->restrict_flags |= LL_RESTRICT_LOG_NEW_EXEC_ON;
	if (st->abi < 2)
		strvec_push(&st->dropped, "cross-folder rename and link (needs ABI 2): mv copies instead");
	if (st->abi < 3)
		strvec_push(&st->dropped, "truncate control (needs ABI 3)");
	if (st->abi < 5)
		strvec_push(&st->dropped, "device ioctl control (needs ABI 5)");
	if (st->abi < 6)
		strvec_push(&st->dropped, "signal and abstract socket scoping (needs ABI 6)");
	if (st->abi < 9)
		strvec_push(&st->dropped, "pathname unix socket control (needs ABI 9)");

	if (cfg->net == SANDBOX_NET_OFF) {
		if (st->abi >= 4)
			st->net_handled = LL_NET_BIND_TCP | LL_NET_CONNECT_TCP;
		st->cut_tcp_seccomp = true; /* also covers listen() without bind() */
	} else if (cfg->net == SANDBOX_NET_ALLOW) {
		if (st->abi < 4) {
			if (cfg->mode == SANDBOX_REQUIRED)
				return fail(st, cfg, "%s", "a TCP port allow-list needs Landlock ABI 4 (Linux 6.7)");
			strvec_push(&st->dropped, "TCP port allow-list (needs ABI 4): all TCP cut instead");
			st->cut_tcp_seccomp = true;
		} else {
			st->net_handled = LL_NET_BIND_TCP | LL_NET_CONNECT_TCP;
		}
	}

	int ruleset = sandbox_landlock_ruleset(st);
	if (ruleset < 0)
		return fail(st, cfg, "landlock_create_ruleset failed: %s", strerror(errno));

	struct sandbox_grant_list list = {0};
	bool own_fds = sandbox_take_writable(cfg, st, &list);
	int rc = sandbox_landlock_add_rules(ruleset, cfg, st, list.items, list.len, own_fds);
	st->grants = list.items;
	st->ngrants = list.len;
	if (rc != 0) {
		close(ruleset);
		return fail(st, cfg, "landlock_add_rule failed: %s", strerror(errno));
	}
	sandbox_scrubbed_copies(st);
	st->ruleset = ruleset;
	return 0;
}

/* Root in a container keeps every capability a sandbox does not take:
 * device nodes onto the host's disks, the hostname, addresses, immutable
 * files, raw packets, other processes' limits. All go, for every user.
 * The securebits first, since setting them needs CAP_SETPCAP: root then
 * gets nothing back from an exec (NNP already stops setuid files). A user
 * without CAP_SETPCAP keeps the bounding set, and has nothing to drop.
 * Each change of the credentials costs ~2 us here (a copy, an RCU free and
 * whatever the host hooks on commit_creds): none is made that changes
 * nothing, so a user without capabilities, or a nested sbsh, pays one
 * capget. */
static int drop_capabilities(void)
{
	struct __user_cap_header_struct hdr = {.version = _LINUX_CAPABILITY_VERSION_3, .pid = 0};
	struct __user_cap_data_struct data[2];
	memset(data, 0, sizeof data);
	if (syscall(SYS_capget, &hdr, data) != 0)
		return -1;
	if (data[0].effective & (1u << CAP_SETPCAP)) {
		const int pairs[] = {SECBIT_NOROOT | SECBIT_NOROOT_LOCKED,
		                     SECBIT_NO_SETUID_FIXUP | SECBIT_NO_SETUID_FIXUP_LOCKED,
		                     SECBIT_KEEP_CAPS_LOCKED,
		                     SECBIT_NO_CAP_AMBIENT_RAISE | SECBIT_NO_CAP_AMBIENT_RAISE_LOCKED};
		int all = 0;
		for (size_t i = 0; i < sizeof pairs / sizeof pairs[0]; i++)
			all |= pairs[i];
		int bits = prctl(PR_GET_SECUREBITS, 0, 0, 0, 0);
		/* All at once; else one pair at a time, so that a bit an outer
		 * program locked off does not keep the others from being set. */
		if (bits >= 0 && (bits & all) != all && prctl(PR_SET_SECUREBITS, (unsigned long)(bits | all), 0, 0, 0) != 0)
			for (size_t i = 0; i < sizeof pairs / sizeof pairs[0]; i++) {
				bits = prctl(PR_GET_SECUREBITS, 0, 0, 0, 0);
				if (bits >= 0 && (bits & pairs[i]) != pairs[i])
					prctl(PR_SET_SECUREBITS, (unsigned long)(bits | pairs[i]), 0, 0, 0);
			}
		/* Up to the last capability this kernel knows, which answers
		 * EINVAL past it. Reading costs a sixth of a drop: one not
		 * permitted (out of the bounding set too, as a rule: a
		 * container's) is read first and dropped only if still there. */
		for (int cap = 0; cap < 64; cap++) {
			if (!(data[cap / 32].permitted & (1u << (cap % 32)))) {
				int in = prctl(PR_CAPBSET_READ, cap, 0, 0, 0);
				if (in < 0 && errno == EINVAL)
					break;
				if (in == 0)
					continue;
			}
			if (prctl(PR_CAPBSET_DROP, cap, 0, 0, 0) != 0) {
				if (errno == EINVAL)
					break;
				return -1;
			}
		}
	}
	/* The ambient set lies within the inheritable one: with none
	 * inheritable, there is nothing ambient to clear. */
	if ((data[0].inheritable || data[1].inheritable) && prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0) != 0 &&
	    errno != EINVAL) /* EINVAL before Linux 4.3, which had no ambient set */
		return -1;
	bool any = false;
	for (int i = 0; i < 2; i++)
		any = any || data[i].effective || data[i].permitted || data[i].inheritable;
	if (any) {
		memset(data, 0, sizeof data);
		if (syscall(SYS_capset, &hdr, data) != 0)
			return -1;
	}
	return 0;
}

/* GNU tar run by root restores each file's owner, and without CAP_CHOWN
 * every foreign-owned file is an error and tar exits 2: root then
 * extracts as anybody does, owning what it writes. An explicit
 * --same-owner still wins, being later on the command line. */
static void tar_as_anybody(struct sandbox_state *st)
{
	if (geteuid() != 0)
		return;
	const char *old = getenv("TAR_OPTIONS");
	if (old && *old)
		strvec_push_owned(&st->env, xasprintf("TAR_OPTIONS=--no-same-owner %s", old));
	else
		strvec_push(&st->env, "TAR_OPTIONS=--no-same-owner");
}

/* Which parts of the guard this shell still has to load: the processes'
 * always, the terminal's when one was inherited; an outer sbsh's count. */
static int plan_guard(const struct sandbox_config *cfg, struct sandbox_state *st)
{
	unsigned want = SANDBOX_GUARD_PROCESSES | (cfg->guard_terminal ? SANDBOX_GUARD_TERMINAL : 0);
	unsigned have = sandbox_guard_inherited(want);
	st->terminal_guarded = (have & SANDBOX_GUARD_TERMINAL) != 0;
	st->processes_guarded = (have & SANDBOX_GUARD_PROCESSES) != 0;
	want &= ~have;
	if (!want)
		return 0;
	/* Loading it waits for the first program (sandbox_guard_terminal): it
	 * costs ~100 us with its freeing at exit, and until a program runs
	 * only the shell's own code does, which does neither. */
	if (prctl(PR_GET_SECCOMP, 0, 0, 0, 0) >= 0) {
		st->guard_pending = true;
		st->guard_want = want;
		return 0;
	}
	if (cfg->mode == SANDBOX_REQUIRED)
		return fail(st, cfg, "the seccomp guard is unavailable: %s", strerror(errno));
	if (want & SANDBOX_GUARD_TERMINAL)
		strvec_push(&st->dropped, "terminal guard (seccomp: no typing into the terminal) could not be loaded");
	strvec_push(&st->dropped, "process guard (seccomp: no prlimit or renice of other processes) could not be loaded");
	return 0;
}

int sandbox_commit(const struct sandbox_config *cfg, struct sandbox_state *st)
{
	if (st->ruleset < 0)
		return 0;
	int ruleset = st->ruleset;
	st->ruleset = -1;
	sandbox_close_collected(cfg);
	if (cfg->own_pty)
		sandbox_landlock_add_own_terminal(ruleset, cfg->own_pty, st->fs_handled);
	if (cfg->baseline_hooks)
		sandbox_landlock_add_readable(ruleset, cfg->baseline_hooks, st->fs_handled);
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0) {
		close(ruleset);
		return fail(st, cfg, "PR_SET_NO_NEW_PRIVS failed: %s", strerror(errno));
	}
	/* With the network on, the filter would guard nothing Landlock cares
	 * about, and loading it costs more than the rest of the sandbox. */
	if (cfg->net != SANDBOX_NET_ON && sandbox_seccomp_network(cfg, st, st->cut_tcp_seccomp) != 0) {
		bool net_lost = st->cut_tcp_seccomp && st->net_handled == 0;
		if (net_lost || (st->cut_tcp_seccomp && cfg->mode == SANDBOX_REQUIRED)) {
			close(ruleset);
			return fail(st, cfg, "%s", "the seccomp network filter could not be loaded");
		}
		strvec_push(&st->dropped, "seccomp filter (MPTCP, io_uring) could not be loaded");
	}
	if (plan_guard(cfg, st) != 0) {
		close(ruleset);
		return -1;
	}
	if (drop_capabilities() == 0) {
		st->caps_dropped = true;
		tar_as_anybody(st);
	} else if (cfg->mode == SANDBOX_REQUIRED) {
		close(ruleset);
		return fail(st, cfg, "the capabilities could not be dropped: %s", strerror(errno));
	} else {
		strvec_push(&st->dropped, "capabilities could not be dropped");
	}
	long r = sandbox_landlock_confine(ruleset, &st->restrict_flags);
	int saved = errno;
	close(ruleset);
	if (r != 0) {
		errno = saved;
		if (saved == E2BIG)
			return fail(st, cfg, "%s", "too many nested sandboxes (Landlock allows 16 layers)");
		return fail(st, cfg, "landlock_restrict_self failed: %s", strerror(saved));
	}
	st->landlock_applied = true;
	return 0;
}

int sandbox_apply(const struct sandbox_config *cfg, struct sandbox_state *st)
{
	int r = sandbox_prepare(cfg, st);
	if (r == 0)
		r = sandbox_commit(cfg, st);
	if (r == 0 && sandbox_guard_terminal(st) != 0) {
		if (cfg->mode == SANDBOX_REQUIRED)
			return fail(st, cfg, "the seccomp guard could not be loaded: %s", strerror(errno));
		st->guard_pending = false;
		strvec_push(&st->dropped, "seccomp guard (terminal, other processes) could not be loaded");
	}
	return r;
}
