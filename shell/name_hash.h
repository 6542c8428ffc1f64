/* The hash of a name for the shell's tables (variables, functions, the
 * command hash): FNV-1a. */
#ifndef SBSH_NAME_HASH_H
#define SBSH_NAME_HASH_H

#include <stddef.h>

static inline size_t name_hash(const char *s)
{
	size_t h = 1469598103934665603u;
	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211u;
	return h;
}

#endif
