/* Shell functions: the table of definitions, and how one is printed. */
#include "shell/funcs.h"

#include <stdlib.h>
#include <string.h>

#include "shell/name_hash.h"

struct func_table {
	struct func **buckets;
	size_t nbuckets, count;
};

static struct func_table *func_table(struct shell *sh)
{
	if (!sh->funcs) {
		sh->funcs = xcalloc(1, sizeof *sh->funcs);
		sh->funcs->nbuckets = 64;
		sh->funcs->buckets = xcalloc(64, sizeof *sh->funcs->buckets);
	}
	return sh->funcs;
}

static struct func **func_slot(struct shell *sh, const char *name)
{
	struct func_table *t = func_table(sh);
	struct func **pp = &t->buckets[name_hash(name) % t->nbuckets];
	while (*pp && strcmp((*pp)->name, name) != 0)
		pp = &(*pp)->next;
	return pp;
}

/* Frees f once it is out of the table and no call holds it. */
static void func_free_unused(struct func *f)
{
	if (f->refs == 0 && f->unlinked) {
		free(f->name);
		free(f->source);
		ast_node_free(f->body);
		free(f);
	}
}

struct func *funcs_find(struct shell *sh, const char *name)
{
	if (!sh->funcs)
		return NULL;
	return *func_slot(sh, name);
}

void funcs_hold(struct func *f)
{
	f->refs++;
}

void funcs_release(struct func *f)
{
	f->refs--;
	func_free_unused(f);
}

const struct node *funcs_lookup(struct shell *sh, const char *name)
{
	struct func *f = funcs_find(sh, name);
	return f ? f->body : NULL;
}

void funcs_define(struct shell *sh, const char *name, const struct node *body)
{
	struct func **pp = func_slot(sh, name);
	struct func *f = xcalloc(1, sizeof *f);
	f->name = xstrdup(name);
	f->source = sh->source_name ? xstrdup(sh->source_name) : NULL;
	f->body = ast_node_copy(body);
	if (*pp) {
		struct func *old = *pp;
		f->next = old->next;
		old->unlinked = true;
		func_free_unused(old);
	} else {
		sh->funcs->count++;
	}
	*pp = f;
}

int funcs_unset(struct shell *sh, const char *name)
{
	if (!sh->funcs)
		return 0;
	struct func **pp = func_slot(sh, name);
	if (*pp) {
		struct func *old = *pp;
		*pp = old->next;
		old->unlinked = true;
		sh->funcs->count--;
		func_free_unused(old);
	}
	return 0;
}

/* A script run by execve's ENOEXEC fallback starts without the parent's
 * functions, as a new shell would. */
void funcs_clear(struct shell *sh)
{
	if (!sh->funcs)
		return;
	struct func_table *t = sh->funcs;
	for (size_t i = 0; i < t->nbuckets; i++) {
		while (t->buckets[i]) {
			struct func *f = t->buckets[i];
			t->buckets[i] = f->next;
			f->unlinked = true;
			func_free_unused(f);
		}
	}
	t->count = 0;
}

static int compare_func_ptr(const void *a, const void *b)
{
	return strcmp((*(struct func *const *)a)->name, (*(struct func *const *)b)->name);
}

void funcs_foreach(struct shell *sh, void (*fn)(const char *name, const struct node *body, void *ctx), void *ctx)
{
	if (!sh->funcs || sh->funcs->count == 0)
		return;
	struct func_table *t = sh->funcs;
	struct func **list = xcalloc(t->count, sizeof *list);
	size_t n = 0;
	for (size_t i = 0; i < t->nbuckets; i++)
		for (struct func *f = t->buckets[i]; f; f = f->next)
			if (n < t->count)
				list[n++] = f;
	qsort(list, n, sizeof *list, compare_func_ptr);
	for (size_t i = 0; i < n; i++) {
		list[i]->refs++;
		fn(list[i]->name, list[i]->body, ctx);
		list[i]->refs--;
	}
	for (size_t i = 0; i < n; i++)
		func_free_unused(list[i]);
	free(list);
}

void funcs_print(struct strbuf *out, const char *name, const struct node *body)
{
	ast_print_function(out, name, body);
}
