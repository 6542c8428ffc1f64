/* Arrays built before their length is known, for the lexer and the
 * parser: the elements grow in scratch vectors that are reused from parse
 * to parse, then are copied to the AST arena at their final size. */
#ifndef SBSH_BUILDER_H
#define SBSH_BUILDER_H

#include <stddef.h>
#include <string.h>

#include "shell/ast.h"

/* A growable scratch array. */
struct scratch_vec {
	char *data;
	size_t cap; /* bytes */
	struct scratch_vec *next_free;
};

/* The scratch vectors of one parser, free ones on a list. */
struct scratch {
	struct scratch_vec **vecs; /* every one, for scratch_free() */
	size_t nvecs, capvecs;
	struct scratch_vec *free_vecs;
};

/* An array being built; {0} is an empty one. */
struct builder {
	struct scratch_vec *v;
	size_t n;
};

void scratch_free(struct scratch *s);

/* Makes room in b for one more element (a vector first, if it has none). */
void builder_grow(struct scratch *s, struct builder *b, size_t size);

/* A new zeroed element at the end; valid until the next push to b. Inline:
 * the lexer pushes every word part. */
static inline void *builder_push(struct scratch *s, struct builder *b, size_t size)
{
	if (!b->v || (b->n + 1) * size > b->v->cap)
		builder_grow(s, b, size);
	void *e = b->v->data + b->n * size;
	memset(e, 0, size);
	b->n++;
	return e;
}

static inline void *builder_at(const struct builder *b, size_t i, size_t size)
{
	return b->v->data + i * size;
}

/* The elements, copied to the arena (NULL when there are none); b is
 * released. */
void *builder_finish(struct scratch *s, struct ast_arena *arena, struct builder *b, size_t size,
                     size_t *n);
/* Gives the builder's vector back; a builder abandoned on an error path
 * is freed with the scratch instead. */
void builder_release(struct scratch *s, struct builder *b);

#endif
