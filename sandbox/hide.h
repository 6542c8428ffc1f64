/* What the sandbox may not read: the human's secrets (a default list, the
 * keys ~/.ssh/config names, sbsh's own state folder) and the config's
 * `hide =` and `unhide =` lines. Landlock only grants, so the read rules
 * (landlock.c) grant each entry of every folder on the way to a hidden
 * path but the hidden ones; this file says which those are. Not for use
 * outside sandbox/. */
#ifndef SBSH_HIDE_H
#define SBSH_HIDE_H

#include <stdbool.h>
#include <stddef.h>

#include "sandbox/sandbox.h"

/* One rule: an entry of a folder (or a glob over its entries) hidden, or
 * let through again. Of the rules that match an entry the last decides;
 * a rule drops the earlier ones it covers whole, so `unhide = ~/.ssh`
 * lets the keys through too. */
struct hide_rule {
	char *dir;  /* resolved, no trailing slash ("/" for the root) */
	char *name; /* one entry's name, or an fnmatch() glob */
	bool hide;
	const char *why; /* "a default", "the config", "IdentityFile in ~/.ssh/config"... */
};

struct hide_plan {
	struct hide_rule *rules;
	size_t len, cap;
};

/* The rules for cfg: the defaults, the keys ~/.ssh/config names, then the
 * config's lines in their order; none with cfg->no_hide. Paths are looked
 * at now (a rule whose path does not exist is left out), links followed:
 * a hidden link hides its target too. */
void hide_plan_make(const struct sandbox_config *cfg, struct hide_plan *plan);
void hide_plan_free(struct hide_plan *plan);

/* The rules that bear on one folder of the walk: those naming its
 * entries, and the first names of the paths of those deeper down. */
struct hide_folder {
	size_t *here;   /* indices into plan->rules */
	size_t nhere;
	const char **below; /* each a name, not NUL-terminated: below_len */
	size_t *below_len;
	size_t nbelow;
};

/* For the folder at path (resolved); empty when no rule bears on it. */
void hide_folder_at(const struct hide_plan *plan, const char *path, struct hide_folder *f);
void hide_folder_free(struct hide_folder *f);
/* Whether the entry name is hidden, given whether its folder is. */
bool hide_folder_hides(const struct hide_plan *plan, const struct hide_folder *f, const char *name,
                       bool folder_hidden);
/* Whether some rule lies below the entry name: the walk must list it. */
bool hide_folder_below(const struct hide_folder *f, const char *name);


/* ~/x for a path under $HOME, else the path (malloc'd): how a hidden file
 * is named to the human. */
char *hide_home_short(const char *path);

#endif
