#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/heap.h"
#include "git/history-internal.h"
#include "base/strbuf.h"
#include "base/util.h"

/*
 * Ranges (history_range(), history_range_tips()): the set of commits a
 * range holds, by the graph or from the objects, then put in date
 * order; the last range asked is kept for the next ask of the same.
 */

/* Ranges up to this size are kept for the next ask of the same. */
#define MEMO_MAX 200000

static int hinted;

/* Later committer date first, then the smaller id. */
static int before_date(const void *ctx, uint32_t a, uint32_t b)
{
	const struct history *h = ctx;
	int64_t da = date_of(h, a), db = date_of(h, b);
	git_oid ia, ib;

	if (da != db)
		return da > db;
	oid_of(h, a, &ia);
	oid_of(h, b, &ib);
	return git_oid_cmp(&ia, &ib) < 0;
}

void history_range_release(struct history_range *r)
{
	free(r->items);
	free(r->parents);
	memset(r, 0, sizeof(*r));
}

struct sorted_item {
	git_oid id;
	uint32_t at;			/* in the range's order */
};

static int cmp_sorted(const void *a, const void *b)
{
	return git_oid_cmp(&((const struct sorted_item *)a)->id,
			   &((const struct sorted_item *)b)->id);
}

void history_range_links(struct history_links *out, git_oid **ids,
			 const struct history_range *r)
{
	struct sorted_item *v = xcalloc(r->nr ? r->nr : 1, sizeof(*v));
	git_oid *sorted = xcalloc(r->nr ? r->nr : 1, sizeof(*sorted));
	size_t i, n = 0;
	unsigned int j;

	for (i = 0; i < r->nr; i++) {
		git_oid_cpy(&v[i].id, &r->items[i].id);
		v[i].at = (uint32_t)i;
	}
	QSORT(v, r->nr, cmp_sorted);
	for (i = 0; i < r->nr; i++)
		git_oid_cpy(&sorted[i], &v[i].id);
	out->nr = r->nr;
	out->first = xcalloc(r->nr + 1, sizeof(*out->first));
	out->parents = xcalloc(r->nr_parents ? r->nr_parents : 1,
			       sizeof(*out->parents));
	for (i = 0; i < r->nr; i++) {
		const struct history_commit *c = &r->items[v[i].at];

		out->first[i] = (uint32_t)n;
		for (j = 0; j < c->nr_parents; j++) {
			const git_oid *id = history_parent(r, c, j);
			uint32_t p = history_links_place(sorted, r->nr, id);

			if (p != UINT32_MAX)
				out->parents[n++] = p;
		}
	}
	out->first[r->nr] = (uint32_t)n;
	free(v);
	if (ids)
		*ids = sorted;
	else
		free(sorted);
}

void history_links_release(struct history_links *l)
{
	free(l->first);
	free(l->parents);
	memset(l, 0, sizeof(*l));
}

int history_cmp_oid(const void *a, const void *b)
{
	return git_oid_cmp(a, b);
}

uint32_t history_links_place(const git_oid *ids, size_t nr, const git_oid *id)
{
	const git_oid *at = nr ? bsearch(id, ids, nr, sizeof(*ids),
					 history_cmp_oid) : NULL;

	return at ? (uint32_t)(at - ids) : UINT32_MAX;
}

/*
 * The commits outside the graph that the tips reach without passing
 * through the graph, children before parents, with UNINTERESTING passed
 * down; their graph parents are queued.  Those commits are few (what
 * was made since the graph was written), so they are all read.
 */
static int walk_parsed(struct history *h, const uint32_t *tips, size_t nr_tips,
		       struct heap *queue, uint32_t **set, size_t *nr_set,
		       size_t *alloc_set)
{
	struct parent_buf buf = { NULL, 0 };
	uint32_t *list = NULL, *indeg = NULL, *ready = NULL;
	size_t nr = 0, alloc = 0, i, nr_ready = 0, alloc_ready = 0;
	int n, ret = 0;
	unsigned int j;

	for (i = 0; i < nr_tips; i++) {
		if (tips[i] < h->nr_graph || (flags_of(h, tips[i]) & QUEUED))
			continue;
		history_set_flags(h, tips[i], QUEUED);
		ALLOC_GROW(list, nr, alloc);
		list[nr++] = tips[i];
	}
	/* Every commit outside the graph the tips reach through such. */
	for (i = 0; i < nr; i++) {
		if ((n = history_parents_of(h, list[i], &buf, 1)) < 0) {
			ret = -1;
			goto out;
		}
		for (j = 0; j < (unsigned int)n; j++) {
			uint32_t p = buf.v[j];

			if (p < h->nr_graph || (flags_of(h, p) & QUEUED))
				continue;
			history_set_flags(h, p, QUEUED);
			ALLOC_GROW(list, nr, alloc);
			list[nr++] = p;
		}
	}
	/* Children before parents: in-degrees among them. */
	indeg = xcalloc(h->nr_parsed ? h->nr_parsed : 1, sizeof(*indeg));
	for (i = 0; i < nr; i++) {
		n = history_parents_of(h, list[i], &buf, 0);
		for (j = 0; j < (unsigned int)n; j++)
			if (buf.v[j] >= h->nr_graph)
				indeg[buf.v[j] - h->nr_graph]++;
	}
	for (i = 0; i < nr; i++)
		if (!indeg[list[i] - h->nr_graph]) {
			ALLOC_GROW(ready, nr_ready, alloc_ready);
			ready[nr_ready++] = list[i];
		}
	while (nr_ready) {
		uint32_t c = ready[--nr_ready];
		unsigned int pass = flags_of(h, c) & UNINTERESTING;

		if (!pass) {
			ALLOC_GROW(*set, *nr_set, *alloc_set);
			(*set)[(*nr_set)++] = c;
		}
		n = history_parents_of(h, c, &buf, 0);
		for (j = 0; j < (unsigned int)n; j++) {
			uint32_t p = buf.v[j];

			history_set_flags(h, p, SEEN | pass);
			if (p >= h->nr_graph) {
				if (!--indeg[p - h->nr_graph]) {
					ALLOC_GROW(ready, nr_ready, alloc_ready);
					ready[nr_ready++] = p;
				}
			} else if (!(flags_of(h, p) & QUEUED)) {
				history_set_flags(h, p, QUEUED);
				heap_push(queue, p);
			}
		}
	}
out:
	free(buf.v);
	free(list);
	free(indeg);
	free(ready);
	return ret;
}

/*
 * Marks handle and what it reaches among the commits read so far as
 * hidden; a queued one that turns hidden no longer counts as
 * interesting.
 */
static void hide_seen(struct history *h, uint32_t handle, size_t *interesting)
{
	struct parent_buf buf = { NULL, 0 };
	uint32_t *stack = NULL;
	size_t nr = 0, alloc = 0;
	unsigned int j;
	int n;

	ALLOC_GROW(stack, nr, alloc);
	stack[nr++] = handle;
	while (nr) {
		uint32_t x = stack[--nr];
		unsigned int f = flags_of(h, x);

		if (f & UNINTERESTING)
			continue;
		history_set_flags(h, x, UNINTERESTING);
		if (f & QUEUED) {
			(*interesting)--;
			continue;	/* its parents are met when it comes out */
		}
		n = history_parents_of(h, x, &buf, 0);
		for (j = 0; j < (unsigned int)n; j++)
			if (buf.v[j] != NO_HANDLE &&
			    (flags_of(h, buf.v[j]) & SEEN)) {
				ALLOC_GROW(stack, nr, alloc);
				stack[nr++] = buf.v[j];
			}
	}
	free(stack);
	free(buf.v);
}

/*
 * Takes the next commit off queue, and queues its parents not met yet
 * with its hiddenness; a parent met already is hidden, with what it
 * reaches, when the commit is (hide_seen()).  *interesting counts the
 * queued commits not hidden.  The commit, with *hidden set; NO_HANDLE
 * when a parent cannot be read (only with resolve).
 */
static uint32_t take_next(struct history *h, struct heap *queue,
			  struct parent_buf *buf, int resolve,
			  size_t *interesting, unsigned int *hidden)
{
	uint32_t c = heap_pop(queue);
	unsigned int j;
	int n;

	h->flags[c] &= ~QUEUED;
	*hidden = h->flags[c] & UNINTERESTING;
	if (!*hidden)
		(*interesting)--;
	if ((n = history_parents_of(h, c, buf, resolve)) < 0)
		return NO_HANDLE;
	for (j = 0; j < (unsigned int)n; j++) {
		uint32_t p = buf->v[j];
		unsigned int f = flags_of(h, p);

		if (!(f & SEEN)) {
			history_set_flags(h, p, SEEN | QUEUED | *hidden);
			heap_push(queue, p);
			if (!*hidden)
				(*interesting)++;
		} else if (*hidden && !(f & UNINTERESTING)) {
			hide_seen(h, p, interesting);
		}
	}
	return c;
}

/*
 * The set of the range by the graph: popped by generation, a commit has
 * met all of its descendants the walk reaches, so whether it is hidden
 * is known when it comes out; the walk ends when only hidden commits
 * are queued.
 */
static int range_set_graph(struct history *h, const uint32_t *tips,
			   size_t nr_tips, uint32_t **set, size_t *nr_set)
{
	struct heap queue = { NULL, 0, 0, history_before_generation, h };
	struct parent_buf buf = { NULL, 0 };
	size_t alloc_set = 0, i, interesting = 0;
	unsigned int hidden;

	if (walk_parsed(h, tips, nr_tips, &queue, set, nr_set, &alloc_set) < 0) {
		free(queue.v);
		return -1;
	}
	for (i = 0; i < nr_tips; i++)
		if (tips[i] < h->nr_graph && !(flags_of(h, tips[i]) & QUEUED)) {
			history_set_flags(h, tips[i], QUEUED);
			heap_push(&queue, tips[i]);
		}
	for (i = 0; i < queue.nr; i++)
		if (!(flags_of(h, queue.v[i]) & UNINTERESTING))
			interesting++;
	while (interesting && queue.nr) {
		/* A parent met already is queued still: its generation is lower. */
		uint32_t c = take_next(h, &queue, &buf, 0, &interesting, &hidden);

		if (!hidden) {
			ALLOC_GROW(*set, *nr_set, alloc_set);
			(*set)[(*nr_set)++] = c;
		}
	}
	free(buf.v);
	free(queue.v);
	return 0;
}

/* Later committer date first, then the smaller handle. */
static int before_date_quick(const void *ctx, uint32_t a, uint32_t b)
{
	const struct history *h = ctx;
	int64_t da = date_of(h, a), db = date_of(h, b);

	if (da != db)
		return da > db;
	return a < b;
}

#define SLOP 5

/*
 * The set of the range without a graph, as git's limit_list() finds
 * it: commits come out latest first, a hidden one hides its parents,
 * and the walk ends a few commits after only hidden ones are queued
 * (clock skew is what the slack is for).  Each commit is read once,
 * its header only.
 */
static int range_set_objects(struct history *h, const git_oid *ends,
			     size_t nr_tips, size_t nr_ends,
			     uint32_t **set, size_t *nr_set)
{
	struct heap queue = { NULL, 0, 0, before_date_quick, h };
	struct parent_buf buf = { NULL, 0 };
	uint32_t *list = NULL, x;
	size_t nr = 0, alloc = 0, alloc_set = 0, interesting = 0, i;
	int64_t date = INT64_MAX;
	int slop = SLOP, ret = 0;
	unsigned int hidden;

	for (i = 0; i < nr_ends; i++) {
		unsigned int f = i < nr_tips ? 0 : UNINTERESTING;

		if (history_handle_of(h, &ends[i], &x) < 0) {
			ret = -1;
			goto out;
		}
		if (flags_of(h, x) & SEEN) {
			if (f && !(flags_of(h, x) & UNINTERESTING)) {
				history_set_flags(h, x, UNINTERESTING);
				interesting--;
			}
			continue;
		}
		history_set_flags(h, x, SEEN | QUEUED | f);
		heap_push(&queue, x);
		if (!f)
			interesting++;
	}
	while (queue.nr) {
		uint32_t c = take_next(h, &queue, &buf, 1, &interesting, &hidden);

		if (c == NO_HANDLE) {
			ret = -1;
			goto out;
		}
		if (hidden) {
			/* As git's still_interesting(). */
			if (!queue.nr)
				break;
			if (date <= date_of(h, queue.v[0]) || interesting)
				slop = SLOP;
			else if (!--slop)
				break;
			continue;
		}
		date = date_of(h, c);
		ALLOC_GROW(list, nr, alloc);
		list[nr++] = c;
	}
	for (i = 0; i < nr; i++)
		if (!(flags_of(h, list[i]) & UNINTERESTING)) {
			ALLOC_GROW(*set, *nr_set, alloc_set);
			(*set)[(*nr_set)++] = list[i];
		}
out:
	free(list);
	free(buf.v);
	free(queue.v);
	return ret;
}

/* The tree of a commit read: 1, or 0 when its walk did not read it. */
static int tree_of(const struct history *h, uint32_t handle, git_oid *out)
{
	const struct parsed *p;

	if (handle < h->nr_graph) {
		commit_graph_tree(h->graph, handle, out);
		return 1;
	}
	p = parsed_at(h, handle);
	if (!p || !p->has_tree)
		return 0;
	git_oid_cpy(out, &p->tree);
	return 1;
}

/* The set in date order, into out. */
static void order_range(struct history *h, struct history_range *out,
			const uint32_t *set, size_t nr_set)
{
	struct heap ready = { NULL, 0, 0, before_date, h };
	struct parent_buf buf = { NULL, 0 };
	uint32_t *indeg;
	size_t i, top = 0;
	unsigned int j;
	int n;

	for (i = 0; i < nr_set; i++) {
		history_set_flags(h, set[i], IN_SET);
		if (set[i] + 1 > top)
			top = set[i] + 1;
	}
	indeg = xcalloc(top ? top : 1, sizeof(*indeg));
	for (i = 0; i < nr_set; i++) {
		n = history_parents_of(h, set[i], &buf, 0);
		for (j = 0; j < (unsigned int)n; j++)
			if (buf.v[j] != NO_HANDLE &&
			    (flags_of(h, buf.v[j]) & IN_SET))
				indeg[buf.v[j]]++;
	}
	for (i = 0; i < nr_set; i++)
		if (!indeg[set[i]])
			heap_push(&ready, set[i]);
	while (ready.nr) {
		uint32_t c = heap_pop(&ready);
		struct history_commit *item;

		ALLOC_GROW(out->items, out->nr, out->alloc);
		item = &out->items[out->nr++];
		oid_of(h, c, &item->id);
		item->graph_pos = c < h->nr_graph ? c : HISTORY_NO_POS;
		n = history_parents_of(h, c, &buf, 0);
		item->nr_parents = (unsigned int)n;
		item->parents = out->nr_parents;
		item->has_trees = tree_of(h, c, &item->tree) &&
				  (!n || (buf.v[0] != NO_HANDLE &&
					  tree_of(h, buf.v[0],
						  &item->parent_tree)));
		if (!n)
			memset(&item->parent_tree, 0,
			       sizeof(item->parent_tree));
		for (j = 0; j < (unsigned int)n; j++) {
			uint32_t p = buf.v[j];

			ALLOC_GROW(out->parents, out->nr_parents,
				   out->alloc_parents);
			if (p == NO_HANDLE)	/* outside the set, unread */
				git_oid_cpy(&out->parents[out->nr_parents++],
					    &parsed_at(h, c)->parent_ids[j]);
			else
				oid_of(h, p, &out->parents[out->nr_parents++]);
			if (p != NO_HANDLE && (flags_of(h, p) & IN_SET) &&
			    !--indeg[p])
				heap_push(&ready, p);
		}
	}
	free(indeg);
	free(buf.v);
	free(ready.v);
}

/*
 * The hint is said once in a repository, not on every run: a file in
 * its stablepick directory remembers that it was.  A repository where
 * the file cannot be made (read-only) hears it again.
 */
#define HINTED_FILE "stablepick/commit-graph-hinted"

static void hint_graph(git_repository *repo, size_t nr)
{
	static const char note[] = "stablepick said that 'git commit-graph "
		"write' would speed it up here; remove this file to hear it "
		"again\n";
	char *dir, *path;
	struct stat st;
	int fd;

	if (hinted || nr < 10000)
		return;
	hinted = 1;
	dir = xstrfmt("%sstablepick", git_repository_commondir(repo));
	path = xstrfmt("%s%s", git_repository_commondir(repo), HINTED_FILE);
	if (stat(path, &st) < 0) {
		fprintf(stderr, "hint: the repository has no commit-graph; "
			"'git commit-graph write --reachable --changed-paths'\n"
			"hint: (or 'git maintenance start') makes stablepick "
			"and git faster on it\n");
		mkdir(dir, 0777);
		fd = open(path, O_WRONLY | O_CREAT | O_EXCL, 0666);
		if (fd >= 0) {
			if (write_in_full(fd, note, sizeof(note) - 1) < 0)
				unlink(path);
			close(fd);
		}
	}
	free(path);
	free(dir);
}

static int is_memo(const struct history *h, const git_oid *tip,
		   const git_oid *hide, size_t nr_hide)
{
	size_t i;

	if (!h->has_memo || h->memo_nr_hide != nr_hide ||
	    !git_oid_equal(&h->memo_ends[0], tip))
		return 0;
	for (i = 0; i < nr_hide; i++)
		if (!git_oid_equal(&h->memo_ends[i + 1], &hide[i]))
			return 0;
	return 1;
}

static void copy_range(struct history_range *to,
		       const struct history_range *from)
{
	*to = *from;
	to->alloc = from->nr;
	to->items = xcalloc(from->nr ? from->nr : 1, sizeof(*to->items));
	if (from->nr)
		memcpy(to->items, from->items, from->nr * sizeof(*to->items));
	to->alloc_parents = from->nr_parents;
	to->parents = xcalloc(from->nr_parents ? from->nr_parents : 1,
			      sizeof(*to->parents));
	if (from->nr_parents)
		memcpy(to->parents, from->parents,
		       from->nr_parents * sizeof(*to->parents));
}

/*
 * Keeps a copy of the range just made: the branch's own commits are
 * walked by the branch index, presence and diff in turn.
 */
static void keep_memo(struct history *h, const struct history_range *r,
		      const git_oid *tip, const git_oid *hide, size_t nr_hide)
{
	size_t i;

	history_range_release(&h->memo);
	h->has_memo = 0;
	if (r->nr > MEMO_MAX || nr_hide + 1 > ARRAY_SIZE(h->memo_ends))
		return;
	copy_range(&h->memo, r);
	git_oid_cpy(&h->memo_ends[0], tip);
	for (i = 0; i < nr_hide; i++)
		git_oid_cpy(&h->memo_ends[i + 1], &hide[i]);
	h->memo_nr_hide = nr_hide;
	h->has_memo = 1;
}

/*
 * The range of ends: the first nr_tips of them the tips, the others
 * hidden.
 */
static int range_of(struct history *h, struct history_range *out,
		    const git_oid *ends, size_t nr_tips, size_t nr_ends)
{
	uint32_t *tips = NULL, *set = NULL;
	size_t nr_set = 0, i;
	int ret = 0;

	memset(out, 0, sizeof(*out));
	if (h->graph) {
		tips = xcalloc(nr_ends, sizeof(*tips));
		for (i = 0; !ret && i < nr_ends; i++) {
			ret = history_handle_of(h, &ends[i], &tips[i]);
			if (!ret)
				history_set_flags(h, tips[i], SEEN |
						  (i < nr_tips ? 0 :
						   UNINTERESTING));
		}
		if (!ret)
			ret = range_set_graph(h, tips, nr_ends, &set, &nr_set);
		out->from_graph = 1;
	} else {
		ret = range_set_objects(h, ends, nr_tips, nr_ends, &set,
					&nr_set);
	}
	history_clear_flags(h);
	if (!ret) {
		order_range(h, out, set, nr_set);
		history_clear_flags(h);
	}
	if (!h->graph) {
		history_drop_parsed(h);
		if (!ret)
			hint_graph(h->repo, nr_set);
	}
	free(tips);
	free(set);
	return ret;
}

/* ends: the tips, then the hidden ones. */
static git_oid *ends_of(const git_oid *tips, size_t nr_tips,
			const git_oid *hide, size_t nr_hide)
{
	git_oid *ends = xcalloc(nr_tips + nr_hide + 1, sizeof(*ends));

	if (nr_tips)
		memcpy(ends, tips, nr_tips * sizeof(*ends));
	if (nr_hide)
		memcpy(ends + nr_tips, hide, nr_hide * sizeof(*ends));
	return ends;
}

int history_range(struct history_range *out, git_repository *repo,
		  const git_oid *tip, const git_oid *hide, size_t nr_hide)
{
	struct history *h = history_of(repo);
	git_oid *ends;
	int ret;

	if (is_memo(h, tip, hide, nr_hide)) {
		memset(out, 0, sizeof(*out));
		copy_range(out, &h->memo);
		return 0;
	}
	ends = ends_of(tip, 1, hide, nr_hide);
	ret = range_of(h, out, ends, 1, nr_hide + 1);
	if (!ret)
		keep_memo(h, out, tip, hide, nr_hide);
	free(ends);
	return ret;
}

int history_range_tips(struct history_range *out, git_repository *repo,
		       const git_oid *tips, size_t nr_tips,
		       const git_oid *hide, size_t nr_hide)
{
	git_oid *ends = ends_of(tips, nr_tips, hide, nr_hide);
	int ret = range_of(history_of(repo), out, ends, nr_tips,
			   nr_tips + nr_hide);

	free(ends);
	return ret;
}
