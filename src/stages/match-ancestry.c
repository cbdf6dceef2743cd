/*
 * Whether one mainline commit descends from another, asked many times
 * by the series search (the order of a set, whether a blamed commit is
 * below the base).  With a commit-graph history_descendant_of() answers
 * each from generation numbers.  Without one, each new commit it is
 * asked about costs a walk of all its history (on a generated 100k
 * history the series stage took 43 s, 94% of it in such walks, where
 * it took 58 ms with a commit-graph).  So, without a graph: the parent
 * links of the scanned range (to ^from), as the scan's walk left them
 * (else the range is read once with its parents), and a question about
 * two of its commits is a walk of the range in memory.  That answer is
 * exact: a path from commit down to ancestor runs through descendants
 * of ancestor, none of them below from (ancestor is not), all of them
 * below to (commit is): the path lies in the range.
 */
#include "stages/match-internal.h"
#include "base/error.h"
#include "base/trace.h"
#include "base/util.h"
#include "git/history.h"
#include "stages/scan.h"

#include <stdlib.h>
#include <string.h>

struct match_ancestry {
	/*
	 * The range's ids, sorted, and its links by their places: the
	 * scan's (its memo's range, the links its walk left) or, when the
	 * scan did not walk it all (a range it had kept), our own.
	 */
	const git_oid *ids;
	const struct history_links *links;
	git_oid *own_ids;
	struct history_links own_links;
	uint32_t *stamp;		/* per commit: the walk that reached it */
	uint32_t *queue;
	uint32_t walk;			/* the last walk's number */
	uint32_t walked_from;		/* its start, or UINT32_MAX */
	int failed;			/* the range could not be read */
};

#define NOT_IN_RANGE UINT32_MAX

static uint32_t pos_of(const struct match_ancestry *a, const git_oid *id)
{
	return history_links_place(a->ids, a->links->nr, id);
}

static int build(struct match *m)
{
	struct match_ancestry *a = xcalloc(1, sizeof(*a));
	const struct scan *s = m->scan;
	struct history_range r;
	size_t nr;

	m->ancestry = a;
	a->walked_from = NOT_IN_RANGE;
	if (s->links.nr && s->memo && s->links.nr == s->memo->nr_range) {
		a->ids = s->memo->range;
		a->links = &s->links;
		trace_printf("ancestry: the %zu commits of the range, linked "
			     "by the scan's walk (no commit-graph)",
			     s->links.nr);
	} else {
		if (history_range(&r, m->repo, &s->to, &s->from, 1) < 0) {
			git_error_clear();
			a->failed = 1;
			return 0;
		}
		history_range_links(&a->own_links, &a->own_ids, &r);
		history_range_release(&r);
		a->ids = a->own_ids;
		a->links = &a->own_links;
		trace_printf("ancestry: the %zu commits of the range read "
			     "with their parents (no commit-graph)",
			     a->links->nr);
	}
	nr = a->links->nr;
	a->stamp = xcalloc(nr ? nr : 1, sizeof(*a->stamp));
	a->queue = xcalloc(nr ? nr : 1, sizeof(*a->queue));
	return 0;
}

/* Marks what c reaches in the range with a new walk number. */
static void walk_from(struct match_ancestry *a, uint32_t c)
{
	size_t head = 0, tail = 0;
	uint32_t k;

	if (a->walked_from == c)
		return;
	a->walk++;
	a->walked_from = c;
	a->stamp[c] = a->walk;
	a->queue[tail++] = c;
	while (head < tail) {
		uint32_t x = a->queue[head++];

		for (k = a->links->first[x]; k < a->links->first[x + 1];
		     k++) {
			uint32_t p = a->links->parents[k];

			if (a->stamp[p] != a->walk) {
				a->stamp[p] = a->walk;
				a->queue[tail++] = p;
			}
		}
	}
}

int match_descends(struct match *m, const git_oid *commit,
		   const git_oid *ancestor)
{
	struct match_ancestry *a;
	uint32_t c, p;

	if (history_graph(m->repo) || !m->scan || !m->scan->has_from ||
	    git_oid_equal(commit, ancestor))
		return history_descendant_of(m->repo, commit, ancestor);
	/*
	 * Nothing of the range is below its start: the question blame asks
	 * of every commit it found, answered without reading the range.
	 */
	if (git_oid_equal(commit, &m->scan->from) &&
	    scan_in_range(m->scan, ancestor) == 1)
		return 0;
	if (!m->ancestry && build(m) < 0)
		return -1;
	a = m->ancestry;
	if (a->failed || (p = pos_of(a, ancestor)) == NOT_IN_RANGE)
		return history_descendant_of(m->repo, commit, ancestor);
	/* What the range holds is not below its start. */
	if (git_oid_equal(commit, &m->scan->from))
		return 0;
	if ((c = pos_of(a, commit)) == NOT_IN_RANGE)
		return history_descendant_of(m->repo, commit, ancestor);
	walk_from(a, c);
	return a->stamp[p] == a->walk;
}

void match_ancestry_free(struct match_ancestry *a)
{
	if (!a)
		return;
	free(a->own_ids);
	history_links_release(&a->own_links);
	free(a->stamp);
	free(a->queue);
	free(a);
}
