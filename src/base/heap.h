#ifndef HEAP_H
#define HEAP_H

#include <stddef.h>
#include <stdint.h>

/*
 * A binary heap of handles (indexes into the caller's arrays), the
 * priority queue of the history walks: before(ctx, a, b) says a comes
 * out first.  With a total order, what comes out never depends on the
 * heap's shape.
 *
 *     struct heap q = { NULL, 0, 0, before_date, h };
 *     heap_push(&q, x);
 *     while (q.nr)
 *             ... heap_pop(&q) ...
 *     free(q.v);
 */
typedef int (*heap_before_fn)(const void *ctx, uint32_t a, uint32_t b);

struct heap {
	uint32_t *v;
	size_t nr, alloc;
	heap_before_fn before;
	const void *ctx;
};

void heap_push(struct heap *q, uint32_t x);
/* The first handle, removed; the heap must not be empty. */
uint32_t heap_pop(struct heap *q);

#endif
