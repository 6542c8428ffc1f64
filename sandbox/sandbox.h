/* Landlock + seccomp confinement of the shell process, applied once at
 * startup before any user code runs. Children inherit it; it cannot be
 * lifted. See docs/sandbox.md for the facts behind each choice. The order
 * of confinement is sandbox.c; Landlock, seccomp and the writable folders
 * are landlock.c, seccomp.c and writable.c. */
#ifndef SBSH_SANDBOX_H
#define SBSH_SANDBOX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "lib/util.h"

enum sandbox_mode {
	SANDBOX_AUTO,     /* apply where the kernel allows, else run unconfined */
	SANDBOX_REQUIRED, /* apply in full or run nothing: exit 7 */
	SANDBOX_OFF,
};

enum sandbox_net {
	SANDBOX_NET_ON,
	SANDBOX_NET_OFF,   /* no outgoing or listening TCP; UDP (name lookups) works */
	SANDBOX_NET_ALLOW, /* outgoing TCP only to the listed ports, and to the
	                    * listed hosts through sbsh's proxy (trusted/netproxy.h) */
};

#define SANDBOX_MAX_PORTS 64

struct sandbox_config {
	enum sandbox_mode mode;
	enum sandbox_net net;
	uint16_t ports[SANDBOX_MAX_PORTS];
	size_t nports;
	/* ports[i] came as localhost:PORT: Landlock allows it on any address,
	 * the supervisor on loopback only. */
	bool port_local[SANDBOX_MAX_PORTS];
	/* allow:HOST[:PORT]: host names (`github.com`, `*.npmjs.org`, an
	 * address), reached through the proxy; host_ports[i] is 0 for any
	 * port. A loopback host (localhost:5432) is a direct port instead. */
	struct strvec hosts;
	uint16_t host_ports[SANDBOX_MAX_PORTS];
	/* The proxy's port on 127.0.0.1 once it listens (before the rules are
	 * made), else 0: the only port the hosts are reached on. */
	uint16_t proxy_port;
	struct strvec extra_write; /* --allow-write and the config file */
	/* The config's hide and unhide lines in their order, each "hPATH" or
	 * "uPATH" (sandbox/hide.h); no_hide (--no-hide): no secret is hidden. */
	struct strvec hide_rules;
	bool no_hide;
	bool audit;                /* log new execs (ABI 7) */
	/* The pty the broker gave the shell (interactive), or NULL: the shell
	 * then has no terminal it may open, and cannot read the human's. */
	const char *own_pty;
	/* The protected files' baseline hooks (core.hooksPath), in sbsh's state
	 * folder, which is hidden: git inside runs them, so they stay readable.
	 * Known only after the rules are made (protect_start), added at commit. */
	const char *baseline_hooks;
	/* A terminal is among the inherited stdio: nothing in the sandbox may
	 * type into it (TIOCSTI) or paste to it (TIOCLINUX). */
	bool guard_terminal;
	/* The writable folders opened ahead by sandbox_collect (before the
	 * broker is forked), or NULL: sandbox_apply opens them itself. */
	struct sandbox_collected *collected;
};

/* One folder or file the sandbox lets the shell write. */
struct sandbox_grant {
	char *path;      /* as named (environment variables are not resolved further) */
	const char *why; /* "project", "temp", "npm cache", ... */
	uint64_t rights;
	bool created;    /* made at startup so that the rule could exist */
	int fd;          /* O_PATH descriptor while the rules are built, then -1 */
	dev_t dev;
	ino_t ino;
};

/* The parts of the seccomp guard (seccomp.c). */
#define SANDBOX_GUARD_TERMINAL 1u  /* TIOCSTI, TIOCLINUX */
#define SANDBOX_GUARD_PROCESSES 2u /* limits and scheduling of other processes */

struct sandbox_state {
	int abi;          /* 0: no Landlock */
	int errata;
	bool landlock_applied;
	bool seccomp_applied;
	bool terminal_guarded; /* TIOCSTI and TIOCLINUX refused (an inherited terminal) */
	bool processes_guarded; /* no prlimit, renice, sched_* of another process */
	bool guard_pending;    /* the guard is still to load, before the first program */
	unsigned guard_want;   /* what it will hold: SANDBOX_GUARD_* */
	/* The supervisor (trusted/supervisor.c), started with the guard, before
	 * the first program: frontend/startup.c sets the call. It returns 1
	 * when the process is now the shell's child, 0 when nothing changed. */
	bool supervise_pending;
	int (*supervise)(void *ctx);
	void *supervise_ctx;
	bool caps_dropped;     /* no capability left, bounding set emptied when it could be */
	uint64_t fs_handled;
	uint64_t net_handled;
	uint64_t scoped;
	uint32_t restrict_flags;
	bool cut_tcp_seccomp;   /* seccomp cuts TCP (Landlock cannot, or --net=off) */
	int ruleset;            /* made by sandbox_prepare, not yet applied; else -1 */
	enum sandbox_net net;
	struct sandbox_grant *grants;
	size_t ngrants;
	struct strvec skipped;  /* "PATH: reason" for folders not granted */
	struct strvec dropped;  /* features this kernel lacks */
	struct strvec hidden;   /* what no read rule reaches (resolved paths; hide.h) */
	struct strvec hidden_readable; /* "PATH: why" for hidden paths a writable folder holds */
	struct strvec env;      /* NAME=VALUE the shell must export inside */
	char reason[256];       /* why it could not be applied, when it was not */
};

void sandbox_config_init(struct sandbox_config *cfg);
void sandbox_config_free(struct sandbox_config *cfg);
/* Parses "on", "off", "allow:80,443,github.com,*.npmjs.org,localhost:5432"
 * into cfg. Returns 0 or -1. */
int sandbox_parse_net(struct sandbox_config *cfg, const char *spec);
void sandbox_state_free(struct sandbox_state *st);
/* Checks a `hide =` / `unhide =` value: absolute or `~/...`, not `/`.
 * Returns NULL, or why it is refused (a static string; hide.c). */
const char *sandbox_check_hide_path(const char *value);

/* Asks the kernel for the Landlock ABI and errata (no side effects;
 * landlock.c). */
void sandbox_probe(struct sandbox_state *st);

/* Applies the sandbox to the calling (single-threaded) process. Returns 0
 * when applied as configured (or mode is OFF), 1 when AUTO had to run with
 * less or nothing (st->reason says why), -1 when REQUIRED cannot be
 * honoured (st->reason says why; the caller exits 7). */
int sandbox_apply(const struct sandbox_config *cfg, struct sandbox_state *st);

/* sandbox_apply in two steps, so that the processes forked in between
 * (the warden, the broker) do not make the shell copy the pages the rules
 * were built in: sandbox_prepare opens the folders and makes the ruleset
 * (returns as sandbox_apply does; 0 with st->ruleset -1 when there is
 * nothing to apply), sandbox_commit (only after a 0) adds the own pty's
 * rules, drops every capability and confines the process, leaving the
 * seccomp guard pending (sandbox_guard_terminal). */
int sandbox_prepare(const struct sandbox_config *cfg, struct sandbox_state *st);
int sandbox_commit(const struct sandbox_config *cfg, struct sandbox_state *st);

/* Loads the guard sandbox_commit left pending (st->guard_pending;
 * seccomp.c): the terminal's (when one was inherited) and the other
 * processes' (always), then starts the supervisor when one is pending.
 * Called before the shell first starts another program (fork, exec,
 * spawn). Returns 0 (also when nothing was pending), 1 when the supervisor
 * started and this process is now the shell's child (pids it noted as its
 * own are its parent's), or -1 with errno when the guard could not be
 * loaded; it stays pending then. sandbox_apply loads it at once. */
int sandbox_guard_terminal(struct sandbox_state *st);

/* Loads the supervisor's filter in this process, with a new listener in
 * *listener (seccomp.c); guard (SANDBOX_GUARD_*): the guard's checks in
 * the same program. 0, or -1 with errno (EBUSY: a filter above has a
 * listener already). */
int sandbox_supervisor_load(int *listener, unsigned guard);
/* The guard left pending is loaded (the supervisor's filter held it). */
void sandbox_guard_loaded(struct sandbox_state *st);

/* ---- the writable folders (writable.c) ---- */

/* Opens the writable folders now (making missing caches), once, for
 * sandbox_apply and sandbox_writable_paths to share: the broker forked in
 * between then names the very folders the rules are made from. */
void sandbox_collect(struct sandbox_config *cfg);

/* Closes the shell's descriptors of the folders sandbox_collect opened
 * (sandbox_commit does; a sandbox that was not applied leaves them). */
void sandbox_close_collected(const struct sandbox_config *cfg);

/* The folders the sandbox makes writable (resolved paths): those
 * sandbox_collect opened; none when it did not run. */
/* Why folder may never be the writable project, or NULL (malloc'd): it
 * is in, or holds, sbsh's own config, state or cache folder, or it is in a
 * dot-folder of $HOME (~/.ssh, ~/.config, ~/.claude...). */
char *sandbox_project_refusal(const char *folder);

/* What path lies in that every sandboxed session may write, whatever its
 * project ("a temp folder", "the sandbox's package caches"), or NULL. */
const char *sandbox_shared_folder(const char *path);

void sandbox_writable_paths(const struct sandbox_config *cfg, struct strvec *out);

#endif
