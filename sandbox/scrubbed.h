/* Copies of the config files of tools that stop working when theirs is
 * hidden (npm's ~/.npmrc, gh's config folder), without their tokens, in
 * the sandbox's own caches folder; the tools are pointed at them inside.
 * Not for use outside sandbox/ but for sandbox_hidden_match (denial.c). */
#ifndef SBSH_SCRUBBED_H
#define SBSH_SCRUBBED_H

#include <stddef.h>

#include "sandbox/sandbox.h"

/* The entry of hidden (n resolved paths) that path, resolved, lies in;
 * NULL when none, or when path does not resolve. */
const char *sandbox_hidden_match(char *const *hidden, size_t n, const char *path);

/* After the read rules are made (st->hidden filled): the copies made or
 * refreshed, and the variables that point each tool at its copy pushed
 * onto st->env. */
void sandbox_scrubbed_copies(struct sandbox_state *st);

#endif
