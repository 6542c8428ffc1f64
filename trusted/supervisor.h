/* The supervisor: seccomp user notification for what Landlock ABI 7 leaves
 * open (docs/sandbox.md, "The supervisor"). The shell loads the filter
 * (sandbox/seccomp.c) before its first program; the calls it names wait
 * for this supervisor, which decides them and carries out the allowed ones
 * itself. How it is started, and why it is the shell's own first process,
 * is supervisor_start's comment. */
#ifndef SBSH_SUPERVISOR_H
#define SBSH_SUPERVISOR_H

#include <stdbool.h>
#include <netinet/in.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "lib/util.h"

/* fchmod(-1, SUPERVISOR_PROBE_MODE): the kernel says EBADF; an sbsh
 * supervisor above this process answers 0. */
#define SUPERVISOR_PROBE_MODE 0x53425356u

/* A writable folder, as the sandbox granted it. */
struct supervisor_grant {
	dev_t dev;
	ino_t ino;
	/* Written by every sandboxed session (temp folders, /dev/shm, the
	 * sandbox's caches): a socket there is reached only when a process of
	 * this session listens on it. */
	bool shared;
	const char *path; /* for messages */
};

/* What inet addresses the network mode leaves open, checked on the address
 * the supervisor itself connects or sends to: Landlock sees only TCP ports,
 * and no UDP. */
enum supervisor_udp {
	SUPERVISOR_UDP_OPEN,   /* --net=on */
	SUPERVISOR_UDP_CLOSED, /* --net=off, a host allow-list without bare ports */
	SUPERVISOR_UDP_DNS,    /* bare ports: port 53 of the nameservers only */
};
enum { SUPERVISOR_NET_PORTS = 64, SUPERVISOR_NAMESERVERS = 8 };
struct supervisor_net {
	bool check_tcp; /* --net=off and allow: TCP only where listed below */
	uint16_t any_ports[SUPERVISOR_NET_PORTS]; /* bare ports: any address */
	size_t nany;
	uint16_t local_ports[SUPERVISOR_NET_PORTS]; /* localhost:PORT: 127.0.0.1 and ::1 */
	size_t nlocal;
	uint16_t proxy_port; /* on 127.0.0.1 only; 0 without a proxy */
	enum supervisor_udp udp;
	struct in6_addr nameservers[SUPERVISOR_NAMESERVERS]; /* IPv4 ones mapped (::ffff:a.b.c.d) */
	size_t nnameservers;
};

struct supervisor_policy {
	struct supervisor_grant *grants;
	size_t ngrants;
	/* Sockets outside that stay reachable, by path (looked up at each
	 * connection, so a restarted agent's new socket counts): $SSH_AUTH_SOCK
	 * as sbsh found it, allow-socket lines, the session's own broker. */
	struct strvec allowed;
	const char *project; /* for messages, or NULL */
	int landlock_abi;
	/* Where refusals are explained (the shell's stderr), or -1. */
	int hint_fd;
	struct supervisor_net net;
};

/* Whether the network mode lets a socket reach a:port (an IPv4 address as
 * ::ffff:a.b.c.d); datagram: UDP's rules, else TCP's. */
bool supervisor_net_allows(const struct supervisor_net *n, bool datagram, const struct in6_addr *a, uint16_t port);

void supervisor_policy_init(struct supervisor_policy *p);
void supervisor_policy_free(struct supervisor_policy *p);

/* Whether an sbsh supervisor already serves this process (a nested sbsh):
 * then the filter cannot be loaded again (one listener per chain) and need
 * not be. Also true when a filter above has a listener nobody serves any
 * more (the kernel answers ENOSYS): one cannot be added either. */
bool supervisor_outer_present(void);

/* Starts the supervisor, from the confined shell before its first program.
 * The process forks; the child goes on as the shell and loads the filter
 * (with the guard's checks in it, SANDBOX_GUARD_*), the parent (the process
 * the caller started, an ancestor of everything the session will run)
 * becomes the supervisor and never returns. Returns 1 in the child, the
 * shell from now on (*why set, malloc'd, when its filter could not be
 * loaded after all); 0 when nothing was started (the same process goes
 * on, with *why set). */
int supervisor_start(const struct supervisor_policy *policy, unsigned guard, char **why);

/* Whether a supervisor would work here, for --doctor: tried for real in a
 * child of this (confined) process, as the shell would. */
struct supervisor_report {
	bool available;
	bool outer;      /* an outer sbsh's supervisor covers this process */
	int yama;        /* Yama's ptrace_scope, or -1 without Yama */
	char why[256];   /* why it is not available, or a note */
};
void supervisor_report(struct supervisor_report *out);

/* What the supervisor covers, in words (docs, --doctor). */
#define SUPERVISOR_COVERS \
	"connect, sendto, sendmsg and sendmmsg to pathname unix sockets outside the writable folders (and " \
	"to sockets in the shared temp folders that this session did not make); chmod, chown, timestamps, " \
	"extended attributes and chattr's inode flags of files outside the writable folders; in --net=off and " \
	"allow: modes, inet addresses the mode does not allow (Landlock sees TCP ports only, and no UDP)"

#endif
