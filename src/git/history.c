#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <uthash.h>

#include "base/error.h"
#include "git/history.h"
#include "base/heap.h"
#include "git/malformed.h"
#include "base/util.h"

/*
 * A commit is named by a handle: its position in the commit-graph, or,
 * for a commit the graph does not hold (newer than the graph, or no
 * graph at all), nr_graph plus its index among the commits parsed from
 * their objects.  Facts about a commit id never change, so what was
 * learnt stays valid for the life of the process.
 */
#define NO_HANDLE UINT32_MAX

/* Per-handle flags of one operation, cleared when it ends. */
#define SEEN		(1u << 0)
#define UNINTERESTING	(1u << 1)
#define QUEUED		(1u << 2)
#define IN_SET		(1u << 3)
#define PARENT1		(1u << 4)
#define PARENT2		(1u << 5)
#define STALE		(1u << 6)
#define RESULT		(1u << 7)

struct parsed {
	git_oid id;
	int64_t date;
	unsigned int nr_parents;
	git_oid *parent_ids;
	uint32_t *parents;		/* handles, NO_HANDLE until resolved */
	UT_hash_handle hh;
	uint32_t handle;
};

/* Everything reachable from tip down to generation floor, marked. */
struct reach {
	uint32_t tip;			/* NO_HANDLE when unused */
	uint8_t *marks;			/* a bit per graph position */
	uint32_t *frontier;		/* a heap by generation */
	size_t nr, alloc;
};

#define NR_REACH 4

/*
 * Without the graph: the ancestors of a commit asked about more than
 * once, read in one walk and sorted, so that the next questions are a
 * search each (libgit2 walks for each: a negative answer is a walk of
 * all history).
 */
struct ancestry {
	git_oid tip;
	int asked;			/* questions about tip so far */
	git_oid *ids;			/* sorted; NULL until the second */
	size_t nr;
};

struct history {
	git_repository *repo;
	git_odb *odb;
	char *path;
	struct commit_graph *graph;
	uint32_t nr_graph;
	struct parsed **parsed;
	size_t nr_parsed, alloc_parsed;
	struct parsed *by_id;
	uint8_t *flags;
	size_t alloc_flags;
	uint32_t *touched;
	size_t nr_touched, alloc_touched;
	struct reach reach[NR_REACH];
	unsigned int next_reach;
	struct ancestry ancestry[NR_REACH];
	unsigned int next_ancestry;
	/* The last range asked, when small enough to keep. */
	struct history_range memo;
	git_oid memo_ends[3];		/* the tip, then the hidden ones */
	size_t memo_nr_hide;
	int has_memo;
};

/* Ranges up to this size are kept for the next ask of the same. */
#define MEMO_MAX 200000

static struct history *current;
static int hinted;

static void free_parsed(struct parsed *p)
{
	free(p->parent_ids);
	free(p->parents);
	free(p);
}

/*
 * Without a graph every commit of a range was read into h->parsed;
 * nothing else asks them (ancestry and merge bases are libgit2's
 * then), so they go, not to weigh on the rest of the run.
 */
static void drop_parsed(struct history *h)
{
	size_t i;

	HASH_CLEAR(hh, h->by_id);
	for (i = 0; i < h->nr_parsed; i++)
		free_parsed(h->parsed[i]);
	free(h->parsed);
	h->parsed = NULL;
	h->nr_parsed = h->alloc_parsed = 0;
	free(h->flags);
	h->flags = NULL;
	h->alloc_flags = 0;
}

static void history_free(struct history *h)
{
	size_t i;

	if (!h)
		return;
	drop_parsed(h);
	history_range_release(&h->memo);
	for (i = 0; i < NR_REACH; i++) {
		free(h->reach[i].marks);
		free(h->reach[i].frontier);
		free(h->ancestry[i].ids);
	}
	free(h->touched);
	commit_graph_free(h->graph);
	git_odb_free(h->odb);
	free(h->path);
	free(h);
}

void history_forget(git_repository *repo)
{
	if (current && current->repo == repo) {
		history_free(current);
		current = NULL;
	}
}

/*
 * The history of repo, opened on first use.  The path is compared too:
 * a repository freed without history_forget() may leave its address to
 * another.
 */
static struct history *history_of(git_repository *repo)
{
	const char *path = git_repository_path(repo);
	struct history *h;
	size_t i;

	if (current && current->repo == repo && !strcmp(current->path, path))
		return current;
	history_free(current);
	current = NULL;
	h = xcalloc(1, sizeof(*h));
	h->repo = repo;
	h->path = xstrdup(path);
	if (git_repository_odb(&h->odb, repo) < 0) {
		h->odb = NULL;
		git_error_clear();
	}
	if (commit_graph_open(&h->graph, repo) < 0)
		h->graph = NULL;
	h->nr_graph = h->graph ? commit_graph_nr(h->graph) : 0;
	for (i = 0; i < NR_REACH; i++)
		h->reach[i].tip = NO_HANDLE;
	current = h;
	return h;
}

const struct commit_graph *history_graph(git_repository *repo)
{
	return history_of(repo)->graph;
}

static void grow_flags(struct history *h, uint32_t handle)
{
	size_t want = (size_t)handle + 1, old = h->alloc_flags;

	if (want <= old)
		return;
	h->alloc_flags = want > 2 * old ? want : 2 * old;
	if (h->alloc_flags < h->nr_graph)
		h->alloc_flags = h->nr_graph;
	h->flags = xrealloc(h->flags, h->alloc_flags);
	memset(h->flags + old, 0, h->alloc_flags - old);
}

static void set_flags(struct history *h, uint32_t handle, unsigned int f)
{
	grow_flags(h, handle);
	if (!h->flags[handle]) {
		ALLOC_GROW(h->touched, h->nr_touched, h->alloc_touched);
		h->touched[h->nr_touched++] = handle;
	}
	h->flags[handle] |= f;
}

static unsigned int flags_of(const struct history *h, uint32_t handle)
{
	return handle < h->alloc_flags ? h->flags[handle] : 0;
}

static void clear_flags(struct history *h)
{
	size_t i;

	for (i = 0; i < h->nr_touched; i++)
		h->flags[h->touched[i]] = 0;
	h->nr_touched = 0;
}

static struct parsed *parsed_at(const struct history *h, uint32_t handle)
{
	return handle >= h->nr_graph ? h->parsed[handle - h->nr_graph] : NULL;
}

/* The handle of id if it is known without reading an object. */
static uint32_t known_handle(const struct history *h, const git_oid *id)
{
	struct parsed *p;
	uint32_t pos;

	if (h->graph && commit_graph_find(h->graph, id, &pos))
		return pos;
	HASH_FIND(hh, h->by_id, id, sizeof(*id), p);
	return p ? p->handle : NO_HANDLE;
}

/*
 * The parents and committer date of a commit from its raw object, as
 * libgit2's own walk reads them (the header only: no signature or
 * message is parsed or copied).  0, or -1 when the header is not the
 * usual one, for git_commit_lookup() to read (and judge) it: a parent
 * line that is not one id, which git refuses too, must not pass here
 * as a header of another kind, nor a commit with no author line, which
 * libgit2 refuses and git dates 0 (src/malformed.h).
 */
static int parse_header(struct parsed *p, const char *buf, size_t len)
{
	const char *end = buf + len, *line = buf, *prev = NULL, *eol, *gt;
	git_oid parents[16];
	unsigned int n = 0;
	char *stop;

	if (len < 46 || memcmp(buf, "tree ", 5) || buf[45] != '\n' ||
	    !is_hex(buf + 5, 40))
		return -1;
	while (line < end && *line != '\n') {
		eol = memchr(line, '\n', (size_t)(end - line));
		if (!eol)
			return -1;
		if (eol - line >= 7 && !memcmp(line, "parent ", 7)) {
			if (eol - line != 47 || n == ARRAY_SIZE(parents) ||
			    !is_hex(line + 7, 40) ||
			    git_oid_fromstrn(&parents[n++], line + 7, 40) < 0)
				return -1;	/* the full reader takes it */
		} else if (eol - line > 10 && !memcmp(line, "committer ", 10)) {
			/* Without an author line before, git dates it 0. */
			if (!prev || memcmp(prev, "author ", 7))
				return -1;
			for (gt = eol; gt > line && gt[-1] != '>'; gt--)
				;
			if (gt == line || gt >= eol)
				return -1;
			p->date = strtoll(gt, &stop, 10);
			if (stop == gt)
				return -1;
			p->nr_parents = n;
			p->parent_ids = xcalloc(n ? n : 1, sizeof(*p->parent_ids));
			memcpy(p->parent_ids, parents, n * sizeof(*parents));
			return 0;
		}
		prev = line;
		line = eol + 1;
	}
	return -1;
}

static int read_parsed(struct history *h, struct parsed *p)
{
	git_odb_object *obj = NULL;
	git_commit *commit = NULL;
	unsigned int i;

	if (h->odb && !git_odb_read(&obj, h->odb, &p->id) &&
	    git_odb_object_type(obj) == GIT_OBJECT_COMMIT &&
	    !parse_header(p, git_odb_object_data(obj),
			  git_odb_object_size(obj))) {
		git_odb_object_free(obj);
		return 0;
	}
	git_odb_object_free(obj);
	git_error_clear();
	free(p->parent_ids);
	p->parent_ids = NULL;
	p->nr_parents = 0;
	if (git_commit_lookup(&commit, h->repo, &p->id) < 0) {
		struct malformed_commit m;

		/*
		 * A commit libgit2 cannot parse that git shows: the walk
		 * goes through it, as git log does; its readers say so.
		 */
		if (!malformed_check(&m, h->repo, &p->id)) {
			malformed_name_error(&p->id);
			return -1;
		}
		p->date = m.date;
		p->nr_parents = m.nr_parents;
		p->parent_ids = m.parents;
		m.parents = NULL;
		if (!p->parent_ids)
			p->parent_ids = xcalloc(1, sizeof(*p->parent_ids));
		malformed_release(&m);
		return 0;
	}
	p->date = git_commit_time(commit);
	p->nr_parents = git_commit_parentcount(commit);
	p->parent_ids = xcalloc(p->nr_parents ? p->nr_parents : 1,
				sizeof(*p->parent_ids));
	for (i = 0; i < p->nr_parents; i++)
		git_oid_cpy(&p->parent_ids[i], git_commit_parent_id(commit, i));
	git_commit_free(commit);
	return 0;
}

/* The handle of id, reading the commit when the graph lacks it. */
static int handle_of(struct history *h, const git_oid *id, uint32_t *out)
{
	struct parsed *p;
	unsigned int i;

	if ((*out = known_handle(h, id)) != NO_HANDLE)
		return 0;
	p = xcalloc(1, sizeof(*p));
	git_oid_cpy(&p->id, id);
	if (read_parsed(h, p) < 0) {
		free(p->parent_ids);
		free(p);
		return -1;
	}
	p->parents = xcalloc(p->nr_parents ? p->nr_parents : 1,
			     sizeof(*p->parents));
	for (i = 0; i < p->nr_parents; i++)
		p->parents[i] = NO_HANDLE;
	p->handle = h->nr_graph + (uint32_t)h->nr_parsed;
	ALLOC_GROW(h->parsed, h->nr_parsed, h->alloc_parsed);
	h->parsed[h->nr_parsed++] = p;
	HASH_ADD(hh, h->by_id, id, sizeof(p->id), p);
	*out = p->handle;
	return 0;
}

static void oid_of(const struct history *h, uint32_t handle, git_oid *out)
{
	if (handle < h->nr_graph)
		commit_graph_oid(h->graph, handle, out);
	else
		git_oid_cpy(out, &parsed_at(h, handle)->id);
}

static int64_t date_of(const struct history *h, uint32_t handle)
{
	return handle < h->nr_graph ? commit_graph_date(h->graph, handle)
				    : parsed_at(h, handle)->date;
}

static uint64_t generation_of(const struct history *h, uint32_t handle)
{
	return handle < h->nr_graph ? commit_graph_generation(h->graph, handle)
				    : COMMIT_GRAPH_INFINITY;
}

/* A commit's parents as handles. */
struct parent_buf {
	uint32_t *v;
	unsigned int alloc;
};

/*
 * The parents of handle into buf; their number, or -1 when one outside
 * the graph cannot be read (with resolve; without, such a parent is
 * NO_HANDLE unless it was read before).
 */
static int parents_of(struct history *h, uint32_t handle,
		      struct parent_buf *buf, int resolve)
{
	struct parsed *p;
	unsigned int i, n;

	if (handle < h->nr_graph) {
		n = commit_graph_parents(h->graph, handle, buf->v, buf->alloc);
		if (n > buf->alloc) {
			buf->alloc = n;
			buf->v = xrealloc(buf->v, n * sizeof(*buf->v));
			commit_graph_parents(h->graph, handle, buf->v, n);
		}
		return (int)n;
	}
	p = parsed_at(h, handle);
	if (p->nr_parents > buf->alloc) {
		buf->alloc = p->nr_parents;
		buf->v = xrealloc(buf->v, buf->alloc * sizeof(*buf->v));
	}
	for (i = 0; i < p->nr_parents; i++) {
		if (p->parents[i] == NO_HANDLE) {
			uint32_t got = known_handle(h, &p->parent_ids[i]);

			if (got == NO_HANDLE && resolve &&
			    handle_of(h, &p->parent_ids[i], &got) < 0)
				return -1;
			/* h->parsed may have moved: look p up again. */
			p = parsed_at(h, handle);
			p->parents[i] = got;
		}
		buf->v[i] = p->parents[i];
	}
	return (int)p->nr_parents;
}

/* Higher generation first, then later date, then the handle. */
static int before_generation(const void *ctx, uint32_t a, uint32_t b)
{
	const struct history *h = ctx;
	uint64_t ga = generation_of(h, a), gb = generation_of(h, b);
	int64_t da, db;

	if (ga != gb)
		return ga > gb;
	da = date_of(h, a);
	db = date_of(h, b);
	if (da != db)
		return da > db;
	return a < b;
}

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
		set_flags(h, tips[i], QUEUED);
		ALLOC_GROW(list, nr, alloc);
		list[nr++] = tips[i];
	}
	/* Every commit outside the graph the tips reach through such. */
	for (i = 0; i < nr; i++) {
		if ((n = parents_of(h, list[i], &buf, 1)) < 0) {
			ret = -1;
			goto out;
		}
		for (j = 0; j < (unsigned int)n; j++) {
			uint32_t p = buf.v[j];

			if (p < h->nr_graph || (flags_of(h, p) & QUEUED))
				continue;
			set_flags(h, p, QUEUED);
			ALLOC_GROW(list, nr, alloc);
			list[nr++] = p;
		}
	}
	/* Children before parents: in-degrees among them. */
	indeg = xcalloc(h->nr_parsed ? h->nr_parsed : 1, sizeof(*indeg));
	for (i = 0; i < nr; i++) {
		n = parents_of(h, list[i], &buf, 0);
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
		n = parents_of(h, c, &buf, 0);
		for (j = 0; j < (unsigned int)n; j++) {
			uint32_t p = buf.v[j];

			set_flags(h, p, SEEN | pass);
			if (p >= h->nr_graph) {
				if (!--indeg[p - h->nr_graph]) {
					ALLOC_GROW(ready, nr_ready, alloc_ready);
					ready[nr_ready++] = p;
				}
			} else if (!(flags_of(h, p) & QUEUED)) {
				set_flags(h, p, QUEUED);
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
		set_flags(h, x, UNINTERESTING);
		if (f & QUEUED) {
			(*interesting)--;
			continue;	/* its parents are met when it comes out */
		}
		n = parents_of(h, x, &buf, 0);
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
	if ((n = parents_of(h, c, buf, resolve)) < 0)
		return NO_HANDLE;
	for (j = 0; j < (unsigned int)n; j++) {
		uint32_t p = buf->v[j];
		unsigned int f = flags_of(h, p);

		if (!(f & SEEN)) {
			set_flags(h, p, SEEN | QUEUED | *hidden);
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
	struct heap queue = { NULL, 0, 0, before_generation, h };
	struct parent_buf buf = { NULL, 0 };
	size_t alloc_set = 0, i, interesting = 0;
	unsigned int hidden;

	if (walk_parsed(h, tips, nr_tips, &queue, set, nr_set, &alloc_set) < 0) {
		free(queue.v);
		return -1;
	}
	for (i = 0; i < nr_tips; i++)
		if (tips[i] < h->nr_graph && !(flags_of(h, tips[i]) & QUEUED)) {
			set_flags(h, tips[i], QUEUED);
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

		if (handle_of(h, &ends[i], &x) < 0) {
			ret = -1;
			goto out;
		}
		if (flags_of(h, x) & SEEN) {
			if (f && !(flags_of(h, x) & UNINTERESTING)) {
				set_flags(h, x, UNINTERESTING);
				interesting--;
			}
			continue;
		}
		set_flags(h, x, SEEN | QUEUED | f);
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
		set_flags(h, set[i], IN_SET);
		if (set[i] + 1 > top)
			top = set[i] + 1;
	}
	indeg = xcalloc(top ? top : 1, sizeof(*indeg));
	for (i = 0; i < nr_set; i++) {
		n = parents_of(h, set[i], &buf, 0);
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
		n = parents_of(h, c, &buf, 0);
		item->nr_parents = (unsigned int)n;
		item->parents = out->nr_parents;
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

static void hint_graph(size_t nr)
{
	if (hinted || nr < 10000)
		return;
	hinted = 1;
	fprintf(stderr, "hint: the repository has no commit-graph; "
		"'git commit-graph write --reachable --changed-paths'\n"
		"hint: (or 'git maintenance start') makes stablepick and git "
		"faster on it\n");
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
			ret = handle_of(h, &ends[i], &tips[i]);
			if (!ret)
				set_flags(h, tips[i], SEEN |
					  (i < nr_tips ? 0 : UNINTERESTING));
		}
		if (!ret)
			ret = range_set_graph(h, tips, nr_ends, &set, &nr_set);
		out->from_graph = 1;
	} else {
		ret = range_set_objects(h, ends, nr_tips, nr_ends, &set,
					&nr_set);
	}
	clear_flags(h);
	if (!ret) {
		order_range(h, out, set, nr_set);
		clear_flags(h);
	}
	if (!h->graph) {
		drop_parsed(h);
		if (!ret)
			hint_graph(nr_set);
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
	struct heap queue = { NULL, 0, 0, before_generation, h };
	struct parent_buf buf = { NULL, 0 };
	size_t nonstale = 2, results = 0;
	unsigned int j;
	int n = 0, ret;

	set_flags(h, one, PARENT1 | QUEUED);
	set_flags(h, two, PARENT2 | QUEUED);
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
				set_flags(h, c, RESULT);
				if (!results++)
					*out = c;
			}
			f |= STALE;
		}
		if ((n = parents_of(h, c, &buf, resolve)) < 0)
			break;
		for (j = 0; j < (unsigned int)n; j++) {
			uint32_t p = buf.v[j];
			unsigned int pf = flags_of(h, p);

			if ((pf & f) == f)
				continue;
			if (pf & QUEUED) {
				if ((f & STALE) && !(pf & STALE))
					nonstale--;
				set_flags(h, p, f);
				continue;
			}
			set_flags(h, p, f | QUEUED);
			heap_push(&queue, p);
			if (!((pf | f) & STALE))
				nonstale++;
		}
	}
	ret = n < 0 ? -1 : results > 1 ? 2 : (int)results;
	free(buf.v);
	free(queue.v);
	clear_flags(h);
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
	if (!handle_of(h, one, &a) && !handle_of(h, two, &b)) {
		ret = merge_base_graph(h, a, b, &base, 1);
		if (ret > 0)
			oid_of(h, base, out);
		if (!ret)
			git_error_set_str(GIT_ERROR_INVALID,
					  "no merge base found");
		ret = ret > 0 ? 0 : ret ? -1 : GIT_ENOTFOUND;
	}
	if (!h->graph)
		drop_parsed(h);
	return ret;
}

int history_merge_base(git_oid *out, git_repository *repo,
		       const git_oid *one, const git_oid *two)
{
	struct history *h = history_of(repo);
	uint32_t a, b, base;
	int ret;

	if (h->graph && (a = known_handle(h, one)) < h->nr_graph &&
	    (b = known_handle(h, two)) < h->nr_graph) {
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
	ret = git_merge_base(out, repo, one, two);
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

static int cmp_git_oid(const void *a, const void *b)
{
	return git_oid_cmp(a, b);
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
		QSORT(a->ids, a->nr, cmp_git_oid);
	}
	return bsearch(ancestor, a->ids, a->nr, sizeof(*a->ids),
		       cmp_git_oid) != NULL;
}

int history_descendant_of(git_repository *repo, const git_oid *commit,
			  const git_oid *ancestor)
{
	struct history *h = history_of(repo);
	struct parent_buf buf = { NULL, 0 };
	struct heap frontier = { NULL, 0, 0, before_generation, h };
	uint32_t c, a;
	uint64_t floor;
	struct reach *r;
	unsigned int j;
	int n;

	if (!h->graph || (c = known_handle(h, commit)) >= h->nr_graph ||
	    (a = known_handle(h, ancestor)) >= h->nr_graph)
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

		n = parents_of(h, x, &buf, 0);
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
