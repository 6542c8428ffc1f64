/* The writable folders, as sandbox.c makes its rules from them. Not for use
 * outside sandbox/ (sandbox_collect and the others the front end and the
 * broker call are in sandbox.h). */
#ifndef SBSH_WRITABLE_H
#define SBSH_WRITABLE_H

#include <stdbool.h>
#include <stddef.h>

#include "sandbox/sandbox.h"

struct sandbox_grant_list {
	struct sandbox_grant *items;
	size_t len, cap;
};

/* Fills list with the folders to grant: opened now, or a copy of those
 * sandbox_collect opened, whose descriptors stay open (a broker forked
 * before sandbox_commit names its folders by them); what was skipped and
 * the variables to export go into st. Returns whether the descriptors are
 * the list's own. */
bool sandbox_take_writable(const struct sandbox_config *cfg, struct sandbox_state *st,
                           struct sandbox_grant_list *list);

#endif
