/* Arrays built before their length is known, for the lexer and the
 * parser: the elements grow in the builder itself while they are few (most
 * arrays: a word's parts, a command's words), then in scratch vectors that
 * are reused from parse to parse, and are copied to the AST arena at their
 * final size. */
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

/* Bytes of elements a builder holds in itself. */
#define BUILDER_SMALL 64

/* An array being built; {0} is an empty one. Not to be copied while in
 * use: its first elements may be inside it. */
struct builder {
	struct scratch_vec *v; /* NULL while the elements fit in small */
	size_t n;
	union {
		char bytes[BUILDER_SMALL];
		union ast_arena_align align;
	} small;
};

void scratch_free(struct scratch *s);

/* Makes room in b for one more element, moving the elements to a vector
 * when they no longer fit in b. */
void builder_grow(struct scratch *s, struct builder *b, size_t size);

static inline char *builder_data(struct builder *b)
{
	return b->v ? b->v->data : b->small.bytes;
}

/* A new zeroed element at the end; valid until the next push to b. Inline:
 * the lexer pushes every word part. */
static inline void *builder_push(struct scratch *s, struct builder *b, size_t size)
{
	if (b->v ? (b->n + 1) * size > b->v->cap : (b->n + 1) * size > BUILDER_SMALL)
		builder_grow(s, b, size);
	void *e = builder_data(b) + b->n * size;
	memset(e, 0, size);
	b->n++;
	return e;
}

static inline void *builder_at(const struct builder *b, size_t i, size_t size)
{
	/* (const as strchr's argument: the caller owns the builder) */
	return (b->v ? b->v->data : (char *)b->small.bytes) + i * size;
}

/* The elements, copied to the arena (NULL when there are none); b is
 * released. */
void *builder_finish(struct scratch *s, struct ast_arena *arena, struct builder *b, size_t size,
                     size_t *n);
/* Gives the builder's vector back; a builder abandoned on an error path
 * is freed with the scratch instead. */
void builder_release(struct scratch *s, struct builder *b);

#endif
