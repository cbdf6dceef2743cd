#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/heap.h"
#include "git/history-internal.h"
#include "git/objcache.h"
#include "git/malformed.h"
#include "base/util.h"

/*
 * Merge bases (history_merge_base()) and ancestry
 * (history_descendant_of()): on the commit-graph when it holds the
 * commits, libgit2's otherwise, and a walk here of the objects when
 * libgit2 cannot parse a commit on the way.
 */

/*
 * The merge base by the graph, as git's paint_down_to_common() with
 * generation numbers; 1 when the base is unique, 0 when there is none,
 * 2 when there are several (libgit2 then chooses, as before), *out the
 * first found.  With resolve, the commits outside the graph are read
 * on the way (they all come before those of the graph, whose parents
 * are all in it); -1 when one cannot be read.
 */
static int merge_base_graph(struct history *h, uint32_t one, uint32_t two,
			    uint32_t *out, int resolve)
{
	struct heap queue = { NULL, 0, 0, history_before_generation, h };
	struct parent_buf buf = { NULL, 0 };
	size_t nonstale = 2, results = 0;
	unsigned int j;
	int n = 0, ret;

	history_set_flags(h, one, PARENT1 | QUEUED);
	history_set_flags(h, two, PARENT2 | QUEUED);
	heap_push(&queue, one);
	heap_push(&queue, two);
	while (nonstale && queue.nr) {
		uint32_t c = heap_pop(&queue);
		unsigned int f = h->flags[c] & (PARENT1 | PARENT2 | STALE);

		h->flags[c] &= ~QUEUED;
		if (!(f & STALE))
			nonstale--;
		if (f == (PARENT1 | PARENT2)) {
			if (!(h->flags[c] & RESULT)) {
				history_set_flags(h, c, RESULT);
				if (!results++)
					*out = c;
			}
			f |= STALE;
		}
		if ((n = history_parents_of(h, c, &buf, resolve)) < 0)
			break;
		for (j = 0; j < (unsigned int)n; j++) {
			uint32_t p = buf.v[j];
			unsigned int pf = flags_of(h, p);

			if ((pf & f) == f)
				continue;
			if (pf & QUEUED) {
				if ((f & STALE) && !(pf & STALE))
					nonstale--;
				history_set_flags(h, p, f);
				continue;
			}
			history_set_flags(h, p, f | QUEUED);
			heap_push(&queue, p);
			if (!((pf | f) & STALE))
				nonstale++;
		}
	}
	ret = n < 0 ? -1 : results > 1 ? 2 : (int)results;
	free(buf.v);
	free(queue.v);
	history_clear_flags(h);
	return ret;
}

/*
 * The merge base read from the objects, after libgit2's failed on a
 * commit it cannot parse: this walk goes through a malformed commit.
 * Of several bases, the first found, the latest by date (of those
 * libgit2 keeps, it takes the first by date too).
 */
static int merge_base_objects(struct history *h, git_oid *out,
			      const git_oid *one, const git_oid *two)
{
	uint32_t a, b, base;
	int ret = -1;

	git_error_clear();
	if (!history_handle_of(h, one, &a) && !history_handle_of(h, two, &b)) {
		ret = merge_base_graph(h, a, b, &base, 1);
		if (ret > 0)
			oid_of(h, base, out);
		if (!ret)
			git_error_set_str(GIT_ERROR_INVALID,
					  "no merge base found");
		ret = ret > 0 ? 0 : ret ? -1 : GIT_ENOTFOUND;
	}
	if (!h->graph)
		history_drop_parsed(h);
	return ret;
}

int history_merge_base(git_oid *out, git_repository *repo,
		       const git_oid *one, const git_oid *two)
{
	struct history *h = history_of(repo);
	uint32_t a, b, base;
	int ret;

	if (h->graph && (a = history_known_handle(h, one)) < h->nr_graph &&
	    (b = history_known_handle(h, two)) < h->nr_graph) {
		switch (merge_base_graph(h, a, b, &base, 0)) {
		case 1:
			oid_of(h, base, out);
			return 0;
		case 0:
			git_error_set_str(GIT_ERROR_INVALID,
					  "no merge base found");
			return GIT_ENOTFOUND;
		}
	}
	/*
	 * Without a graph it reads every commit down to the base once (the
	 * 484,000 of the 1M bench's LTS range): none is kept in libgit2's
	 * cache, where they would push out what is read again.
	 */
	objcache_pause_commits();
	ret = git_merge_base(out, repo, one, two);
	objcache_resume_commits();
	if (ret < 0 && ret != GIT_ENOTFOUND && malformed_suspect())
		ret = merge_base_objects(h, out, one, two);
	return ret;
}

static int marked(const struct reach *r, uint32_t pos)
{
	return r->marks[pos / 8] & (1u << (pos % 8));
}

static void mark(struct reach *r, uint32_t pos)
{
	r->marks[pos / 8] |= 1u << (pos % 8);
}

static struct reach *reach_of(struct history *h, uint32_t tip)
{
	struct reach *r;
	size_t i;

	for (i = 0; i < NR_REACH; i++)
		if (h->reach[i].tip == tip)
			return &h->reach[i];
	r = &h->reach[h->next_reach++ % NR_REACH];
	r->tip = tip;
	free(r->marks);
	r->marks = xcalloc(h->nr_graph / 8 + 1, 1);
	r->nr = 0;
	ALLOC_GROW(r->frontier, r->nr, r->alloc);
	r->frontier[r->nr++] = tip;
	mark(r, tip);
	return r;
}

static int descendant_without_graph(struct history *h, git_repository *repo,
				    const git_oid *commit,
				    const git_oid *ancestor)
{
	struct history_range r = { 0 };
	struct ancestry *a = NULL;
	size_t i;

	if (git_oid_equal(commit, ancestor))
		return 0;
	for (i = 0; i < NR_REACH && !a; i++)
		if (h->ancestry[i].asked && git_oid_equal(&h->ancestry[i].tip, commit))
			a = &h->ancestry[i];
	if (!a) {
		a = &h->ancestry[h->next_ancestry++ % NR_REACH];
		free(a->ids);
		memset(a, 0, sizeof(*a));
		git_oid_cpy(&a->tip, commit);
	}
	if (!a->ids && a->asked++ == 0) {
		int got = git_graph_descendant_of(repo, commit, ancestor);

		/* libgit2 cannot parse a commit: the walk below can. */
		if (got >= 0 || !malformed_suspect())
			return got;
		git_error_clear();
	}
	if (!a->ids) {
		if (history_range(&r, repo, commit, NULL, 0) < 0) {
			a->asked = 0;
			return -1;
		}
		a->ids = xcalloc(r.nr + 1, sizeof(*a->ids));
		for (i = 0; i < r.nr; i++)
			git_oid_cpy(&a->ids[i], &r.items[i].id);
		a->nr = r.nr;
		history_range_release(&r);
		QSORT(a->ids, a->nr, history_cmp_oid);
	}
	return history_links_place(a->ids, a->nr, ancestor) != UINT32_MAX;
}

int history_descendant_of(git_repository *repo, const git_oid *commit,
			  const git_oid *ancestor)
{
	struct history *h = history_of(repo);
	struct parent_buf buf = { NULL, 0 };
	struct heap frontier = { NULL, 0, 0, history_before_generation, h };
	uint32_t c, a;
	uint64_t floor;
	struct reach *r;
	unsigned int j;
	int n;

	if (!h->graph || (c = history_known_handle(h, commit)) >= h->nr_graph ||
	    (a = history_known_handle(h, ancestor)) >= h->nr_graph)
		return descendant_without_graph(h, repo, commit, ancestor);
	if (a == c)
		return 0;
	floor = generation_of(h, a);
	if (floor >= generation_of(h, c))
		return 0;
	r = reach_of(h, c);
	frontier.v = r->frontier;
	frontier.nr = r->nr;
	frontier.alloc = r->alloc;
	while (!marked(r, a) && frontier.nr &&
	       generation_of(h, frontier.v[0]) > floor) {
		uint32_t x = heap_pop(&frontier);

		n = history_parents_of(h, x, &buf, 0);
		for (j = 0; j < (unsigned int)n; j++)
			if (!marked(r, buf.v[j])) {
				mark(r, buf.v[j]);
				heap_push(&frontier, buf.v[j]);
			}
	}
	r->frontier = frontier.v;
	r->nr = frontier.nr;
	r->alloc = frontier.alloc;
	free(buf.v);
	return marked(r, a) ? 1 : 0;
}
