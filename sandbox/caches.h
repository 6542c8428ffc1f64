/* The package caches inside the sandbox: the human's stay read-only, since
 * what the sandbox wrote there would run later outside it (an extracted
 * npx package, a Go module tree, a crate's sources, a jar); each tool is
 * pointed at a private folder of the sandbox's own instead, through its own
 * variable, and still reads the human's where it can take a second, read-only
 * source. Used by writable.c (the grant and the variables) and doctor.c. */
#ifndef SBSH_CACHES_H
#define SBSH_CACHES_H

#include <stdbool.h>
#include <stddef.h>

#include "lib/util.h"

#define SANDBOX_CACHES_MAX 12

struct sandbox_cache {
	const char *tool;         /* "npm", "Go modules", ... */
	char *shared;             /* the human's, read-only inside; NULL when it is ours already */
	char *own;                /* the sandbox's own, below the private root */
	const char *reads_shared; /* how the tool still reads the human's, or NULL */
};

struct sandbox_caches {
	char *root; /* $XDG_CACHE_HOME/sbsh/sandbox-caches, or NULL without a home */
	struct sandbox_cache items[SANDBOX_CACHES_MAX];
	size_t len;
	struct strvec env;   /* NAME=VALUE the shell exports inside */
	struct strvec notes; /* what could not be set up, for --doctor */
};

/* Works out each tool's caches from the environment; no system call but
 * the read of Go's env file (what `go env -w` set). */
void sandbox_caches_plan(struct sandbox_caches *c);
/* After the root exists: the tools' folders that need the human's config
 * beside the private cache (Cargo's config.toml, Gradle's properties and
 * init.d) get links to it, once, when the folder is made. */
void sandbox_caches_prepare(const struct sandbox_caches *c);
void sandbox_caches_free(struct sandbox_caches *c);

#endif
