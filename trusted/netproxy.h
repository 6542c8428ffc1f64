/* The network proxy of --net=allow:HOST,...: a process outside the
 * sandbox, on 127.0.0.1, that speaks HTTP CONNECT and plain HTTP and
 * connects only to the hosts of the allow-list (or those the human allows
 * through the approver). Landlock lets the sandbox connect to its port
 * only; it never decrypts anything. See docs/sandbox.md, "Host allow-list". */
#ifndef SBSH_NETPROXY_H
#define SBSH_NETPROXY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lib/util.h"

struct events;

struct netproxy_options {
	char *const *hosts;       /* patterns: name, *.suffix, address */
	const uint16_t *ports;    /* each host's port, 0 for any */
	size_t nhosts;
	const char *allow_spec;   /* the network = value in force, for refusals */
	const char *config_path;  /* the config file, named in refusals, or NULL */
	struct events *events;
	bool ask;                 /* a human can be asked, through the approver */
	char *const *writable;    /* the sandbox's folders: an approver socket there is not trusted */
	const char *folder;       /* shown with a question */
	unsigned timeout_s;       /* for a question */
};

/* Binds the proxy's socket on 127.0.0.1 (a port the kernel picks) and
 * listens, before the sandbox's rules are made: they allow its port.
 * Returns the socket (close-on-exec) and sets *port, or -1. */
int netproxy_listen(uint16_t *port);

/* Forks the proxy on listen_fd, which it closes here. The proxy ends when
 * the calling process does (it follows a pidfd of it), is no child of it,
 * and holds none of its descriptors but stderr (for its refusals) and the
 * event stream. Returns 0, or -1 with errno. */
int netproxy_start(int listen_fd, const struct netproxy_options *o);

/* HTTP_PROXY, HTTPS_PROXY, ALL_PROXY and NO_PROXY, in both cases, as
 * NAME=VALUE for the programs inside. */
void netproxy_env(uint16_t port, struct strvec *env);

/* Whether host:port is on the allow-list (host lower-case, no final dot). */
bool netproxy_allowed(const struct netproxy_options *o, const char *host, unsigned port);

#endif
