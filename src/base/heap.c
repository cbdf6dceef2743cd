#include "base/heap.h"
#include "base/util.h"

void heap_push(struct heap *q, uint32_t x)
{
	size_t i, up;

	ALLOC_GROW(q->v, q->nr, q->alloc);
	i = q->nr++;
	while (i) {
		up = (i - 1) / 2;
		if (!q->before(q->ctx, x, q->v[up]))
			break;
		q->v[i] = q->v[up];
		i = up;
	}
	q->v[i] = x;
}

uint32_t heap_pop(struct heap *q)
{
	uint32_t top = q->v[0], last = q->v[--q->nr];
	size_t i = 0, child;

	while ((child = 2 * i + 1) < q->nr) {
		if (child + 1 < q->nr &&
		    q->before(q->ctx, q->v[child + 1], q->v[child]))
			child++;
		if (!q->before(q->ctx, q->v[child], last))
			break;
		q->v[i] = q->v[child];
		i = child;
	}
	if (q->nr)
		q->v[i] = last;
	return top;
}
