/* Arrays built before their length is known, in reused scratch vectors. */
#include "shell/builder.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "lib/util.h"

static struct scratch_vec *vec_get(struct scratch *s)
{
	struct scratch_vec *v = s->free_vecs;
	if (v) {
		s->free_vecs = v->next_free;
		return v;
	}
	v = xcalloc(1, sizeof *v);
	if (s->nvecs == s->capvecs) {
		s->capvecs = s->capvecs ? s->capvecs * 2 : 16;
		s->vecs = xreallocarray(s->vecs, s->capvecs, sizeof *s->vecs);
	}
	s->vecs[s->nvecs++] = v;
	return v;
}

void scratch_free(struct scratch *s)
{
	for (size_t i = 0; i < s->nvecs; i++) {
		free(s->vecs[i]->data);
		free(s->vecs[i]);
	}
	free(s->vecs);
	memset(s, 0, sizeof *s);
}

void builder_release(struct scratch *s, struct builder *b)
{
	if (b->v) {
		b->v->next_free = s->free_vecs;
		s->free_vecs = b->v;
	}
	b->v = NULL;
	b->n = 0;
}

void builder_grow(struct scratch *s, struct builder *b, size_t size)
{
	bool small = !b->v;
	if (small)
		b->v = vec_get(s);
	struct scratch_vec *v = b->v;
	if ((b->n + 1) * size > v->cap) {
		size_t cap = v->cap ? v->cap * 2 : 8 * size;
		while (cap < (b->n + 1) * size)
			cap *= 2;
		v->data = xrealloc(v->data, cap);
		v->cap = cap;
	}
	if (small && b->n)
		memcpy(v->data, b->small.bytes, b->n * size);
}

void *builder_finish(struct scratch *s, struct ast_arena *arena, struct builder *b, size_t size,
                     size_t *n)
{
	void *r = NULL;
	*n = b->n;
	if (b->n) {
		r = ast_arena_alloc(arena, b->n * size);
		memcpy(r, builder_data(b), b->n * size);
	}
	builder_release(s, b);
	return r;
}
