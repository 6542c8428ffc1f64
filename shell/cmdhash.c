/* Command search: PATH lookup and the hash of programs found. */
#include "shell/cmdhash.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "shell/name_hash.h"
#include "shell/vars.h"

struct hash_entry {
	char *name;
	char *path;
	unsigned hits;
	struct hash_entry *next;
};

struct hash_table {
	struct hash_entry *buckets[128];
};

static void hash_entry_free(struct hash_entry *e)
{
	free(e->name);
	free(e->path);
	free(e);
}

void exec_hash_clear(struct shell *sh)
{
	if (!sh->cmd_hash)
		return;
	for (size_t i = 0; i < 128; i++) {
		for (struct hash_entry *e = sh->cmd_hash->buckets[i], *next; e; e = next) {
			next = e->next;
			hash_entry_free(e);
		}
		sh->cmd_hash->buckets[i] = NULL;
	}
}

static struct hash_entry **hash_slot(struct shell *sh, const char *name)
{
	if (!sh->cmd_hash)
		sh->cmd_hash = xcalloc(1, sizeof *sh->cmd_hash);
	struct hash_entry **pp = &sh->cmd_hash->buckets[name_hash(name) % 128];
	while (*pp && strcmp((*pp)->name, name) != 0)
		pp = &(*pp)->next;
	return pp;
}

static int compare_hash_ptr(const void *a, const void *b)
{
	return strcmp((*(struct hash_entry *const *)a)->name, (*(struct hash_entry *const *)b)->name);
}

void exec_hash_foreach(struct shell *sh, void (*fn)(const char *name, const char *path, unsigned hits, void *ctx), void *ctx)
{
	if (!sh->cmd_hash)
		return;
	size_t n = 0, cap = 0;
	struct hash_entry **list = NULL;
	for (size_t i = 0; i < 128; i++)
		for (struct hash_entry *e = sh->cmd_hash->buckets[i]; e; e = e->next) {
			if (n == cap) {
				cap = cap ? cap * 2 : 16;
				list = xreallocarray(list, cap, sizeof *list);
			}
			list[n++] = e;
		}
	if (n)
		qsort(list, n, sizeof *list, compare_hash_ptr);
	for (size_t i = 0; i < n; i++)
		fn(list[i]->name, list[i]->path, list[i]->hits, ctx);
	free(list);
}

const char *exec_default_path(void)
{
	return "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin";
}

static bool is_executable_file(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0 && S_ISREG(st.st_mode) && access(path, X_OK) == 0;
}

static bool is_regular_file(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

/* The first dir/name of the PATH entries in path_var that passes test, as
 * a malloc'd path, or NULL. An empty entry is the current directory. */
static char *search_path(const char *name, const char *path_var, bool (*test)(const char *path))
{
	size_t nlen = strlen(name);
	char buf[PATH_MAX];
	const char *p = path_var;
	for (;;) {
		size_t dlen = strcspn(p, ":");
		const char *colon = p[dlen] == ':' ? p + dlen : NULL;
		if (dlen + nlen + 2 <= sizeof buf) {
			if (dlen == 0) {
				memcpy(buf, name, nlen + 1); /* empty entry: the current directory */
			} else {
				memcpy(buf, p, dlen);
				buf[dlen] = '/';
				memcpy(buf + dlen + 1, name, nlen + 1);
			}
			if (test(buf))
				return xstrdup(buf);
		}
		if (!colon)
			break;
		p = colon + 1;
	}
	return NULL;
}

char *exec_find_program(struct shell *sh, const char *name, const char *path_var)
{
	bool use_hash = sh->opt.hashall && path_var == NULL;
	if (!path_var)
		path_var = vars_get(sh, "PATH");
	if (use_hash) {
		struct hash_entry **pp = hash_slot(sh, name);
		if (*pp) {
			if (access((*pp)->path, X_OK) == 0) {
				(*pp)->hits++;
				return xstrdup((*pp)->path);
			}
			struct hash_entry *stale = *pp;
			*pp = stale->next;
			hash_entry_free(stale);
		}
	}
	char *found = search_path(name, path_var ? path_var : exec_default_path(), is_executable_file);
	/* Relative PATH entries depend on the cwd: do not remember them. */
	if (found && use_hash && found[0] == '/') {
		struct hash_entry **pp = hash_slot(sh, name);
		struct hash_entry *e = xcalloc(1, sizeof *e);
		e->name = xstrdup(name);
		e->path = xstrdup(found);
		e->hits = 1;
		*pp = e;
	}
	return found;
}

char *exec_find_command(struct shell *sh, const char *name, const char *path_var, int *status)
{
	if (strchr(name, '/'))
		return xstrdup(name);
	char *path = exec_find_program(sh, name, path_var);
	if (path)
		return path;
	*status = STATUS_NOTFOUND;
	/* A file that exists but is not executable is 126, as bash says. */
	const char *pv = path_var ? path_var : vars_get(sh, "PATH");
	char *plain = pv ? search_path(name, pv, is_regular_file) : NULL;
	if (plain) {
		free(plain);
		*status = STATUS_NOEXEC;
	}
	return NULL;
}
