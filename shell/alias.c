/* The alias table: a sorted array, so listing needs no extra sort and
 * lookups are a binary search (alias tables are small). */
#include "shell/shell.h"
#include "shell/alias.h"

#include <stdlib.h>
#include <string.h>

struct alias {
	char *name;
	char *value;
};

struct alias_table {
	struct alias *items;
	size_t len, cap;
};

static struct alias_table *table(struct shell *sh)
{
	if (!sh->aliases)
		sh->aliases = xcalloc(1, sizeof *sh->aliases);
	return sh->aliases;
}

/* Index of name, or of where it would be inserted (*found false). */
static size_t find_slot(const struct alias_table *t, const char *name, bool *found)
{
	size_t lo = 0, hi = t->len;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int c = strcmp(name, t->items[mid].name);
		if (c == 0) {
			*found = true;
			return mid;
		}
		if (c < 0)
			hi = mid;
		else
			lo = mid + 1;
	}
	*found = false;
	return lo;
}

const char *alias_lookup(struct shell *sh, const char *name)
{
	if (!sh->aliases)
		return NULL;
	bool found;
	size_t i = find_slot(sh->aliases, name, &found);
	return found ? sh->aliases->items[i].value : NULL;
}

const char *alias_lookup_for_parser(void *ctx, const char *name)
{
	struct shell *sh = ctx;
	if (!sh->opt.expand_aliases)
		return NULL;
	return alias_lookup(sh, name);
}

void alias_define(struct shell *sh, const char *name, const char *value)
{
	struct alias_table *t = table(sh);
	bool found;
	size_t i = find_slot(t, name, &found);
	sh->alias_generation++;
	if (found) {
		free(t->items[i].value);
		t->items[i].value = xstrdup(value);
		return;
	}
	if (t->len == t->cap) {
		t->cap = t->cap ? t->cap * 2 : 16;
		t->items = xreallocarray(t->items, t->cap, sizeof *t->items);
	}
	memmove(&t->items[i + 1], &t->items[i], (t->len - i) * sizeof *t->items);
	t->items[i].name = xstrdup(name);
	t->items[i].value = xstrdup(value);
	t->len++;
}

int alias_remove(struct shell *sh, const char *name)
{
	if (!sh->aliases)
		return -1;
	struct alias_table *t = sh->aliases;
	bool found;
	size_t i = find_slot(t, name, &found);
	if (!found)
		return -1;
	free(t->items[i].name);
	free(t->items[i].value);
	memmove(&t->items[i], &t->items[i + 1], (t->len - i - 1) * sizeof *t->items);
	t->len--;
	sh->alias_generation++;
	return 0;
}

void alias_clear(struct shell *sh)
{
	if (!sh->aliases)
		return;
	struct alias_table *t = sh->aliases;
	for (size_t i = 0; i < t->len; i++) {
		free(t->items[i].name);
		free(t->items[i].value);
	}
	t->len = 0;
	sh->alias_generation++;
}

void alias_foreach(struct shell *sh, void (*fn)(const char *name, const char *value, void *ctx), void *ctx)
{
	if (!sh->aliases)
		return;
	/* fn may not change the table; index access stays valid anyway. */
	for (size_t i = 0; i < sh->aliases->len; i++)
		fn(sh->aliases->items[i].name, sh->aliases->items[i].value, ctx);
}
