#include <stdint.h>
#include <string.h>

#include "base/error.h"
#include "git/history.h"
#include "git/malformed.h"
#include "base/util.h"

/* A commit met by a walk made here, as it goes. */
struct history_walk_entry {
	git_oid id;
	int64_t date;
	git_oid *parents;		/* until it comes out */
	unsigned int nr_parents;
};

static int before(const void *ctx, uint32_t a, uint32_t b);

void history_walk_init(struct history_walk *w, git_repository *repo,
		       unsigned int sorting)
{
	memset(w, 0, sizeof(*w));
	w->repo = repo;
	w->sorting = sorting;
	w->queue.before = before;
}

void history_walk_first_parent(struct history_walk *w)
{
	w->first_parent = 1;
}

void history_walk_release(struct history_walk *w)
{
	size_t i;

	git_revwalk_free(w->walk);
	history_range_release(&w->range);
	for (i = 0; i < w->nr_met; i++)
		free(w->met[i].parents);
	free(w->met);
	free(w->slots);
	free(w->queue.v);
	free(w->tips);
	free(w->hide);
	git_odb_free(w->odb);
	memset(w, 0, sizeof(*w));
}

/*
 * The commit id names (through tags), without libgit2's parse of the
 * commit, which a malformed one fails.
 */
static int commit_of(struct history_walk *w, const git_oid *id, git_oid *out)
{
	git_object *obj = NULL, *peeled = NULL;
	git_object_t type;
	size_t len;
	int ret;

	if (!w->odb && (ret = git_repository_odb(&w->odb, w->repo)) < 0)
		return ret;
	if ((ret = git_odb_read_header(&len, &type, w->odb, id)) < 0)
		return ret;
	if (type == GIT_OBJECT_COMMIT) {
		git_oid_cpy(out, id);
		return 0;
	}
	if ((ret = git_object_lookup(&obj, w->repo, id, GIT_OBJECT_ANY)) < 0)
		return ret;
	ret = git_object_peel(&peeled, obj, GIT_OBJECT_COMMIT);
	if (!ret)
		git_oid_cpy(out, git_object_id(peeled));
	git_object_free(peeled);
	git_object_free(obj);
	return ret;
}

static int add_end(struct history_walk *w, const git_oid *id, int hide)
{
	git_oid commit;
	int ret;

	if (w->started)
		BUG("a history walk is given a commit after its first");
	if ((ret = commit_of(w, id, &commit)) < 0)
		return ret;
	if (hide) {
		ALLOC_GROW(w->hide, w->nr_hide, w->alloc_hide);
		git_oid_cpy(&w->hide[w->nr_hide++], &commit);
	} else {
		ALLOC_GROW(w->tips, w->nr_tips, w->alloc_tips);
		git_oid_cpy(&w->tips[w->nr_tips++], &commit);
	}
	return 0;
}

int history_walk_push(struct history_walk *w, const git_oid *id)
{
	return add_end(w, id, 0);
}

int history_walk_hide(struct history_walk *w, const git_oid *id)
{
	return add_end(w, id, 1);
}

int history_walk_push_range(struct history_walk *w, const char *range)
{
	git_revspec spec;
	int ret;

	if ((ret = git_revparse(&spec, w->repo, range)) < 0)
		return ret;
	if (!(spec.flags & GIT_REVSPEC_RANGE) ||
	    (spec.flags & GIT_REVSPEC_MERGE_BASE)) {
		/* libgit2's words for the same. */
		git_error_set_str(GIT_ERROR_INVALID,
				  (spec.flags & GIT_REVSPEC_MERGE_BASE) ?
				  "symmetric differences not implemented in "
				  "revwalk" : "invalid revspec: range not provided");
		ret = GIT_EINVALIDSPEC;
	} else if (!(ret = add_end(w, git_object_id(spec.from), 1))) {
		ret = add_end(w, git_object_id(spec.to), 0);
	}
	git_object_free(spec.from);
	git_object_free(spec.to);
	return ret;
}

/* libgit2's walk of the ends; 0, or its error. */
static int start_libgit2(struct history_walk *w)
{
	size_t i;
	int ret;

	if ((ret = git_revwalk_new(&w->walk, w->repo)) < 0 ||
	    (ret = git_revwalk_sorting(w->walk, w->sorting)) < 0)
		return ret;
	if (w->first_parent &&
	    (ret = git_revwalk_simplify_first_parent(w->walk)) < 0)
		return ret;
	for (i = 0; i < w->nr_tips; i++)
		if ((ret = git_revwalk_push(w->walk, &w->tips[i])) < 0)
			return ret;
	for (i = 0; i < w->nr_hide; i++)
		if ((ret = git_revwalk_hide(w->walk, &w->hide[i])) < 0)
			return ret;
	return 0;
}

/* --- unsorted, nothing hidden: libgit2's order, made here --------------- */

/*
 * The commits met, in the order met (their index breaks a tie of
 * dates), and an open-addressing table of their indexes by id: a walk
 * of all of a kernel's history meets a million of them.
 */
#define NO_ENTRY UINT32_MAX

static size_t slot_of(const struct history_walk *w, const git_oid *id)
{
	uint32_t h;

	memcpy(&h, id->id, sizeof(h));
	return h & (w->nr_slots - 1);
}

/* The index of the commit id met, or NO_ENTRY. */
static uint32_t met_index(const struct history_walk *w, const git_oid *id)
{
	size_t i;

	if (!w->nr_slots)
		return NO_ENTRY;
	for (i = slot_of(w, id); w->slots[i] != NO_ENTRY;
	     i = (i + 1) & (w->nr_slots - 1))
		if (git_oid_equal(&w->met[w->slots[i]].id, id))
			return w->slots[i];
	return NO_ENTRY;
}

static void slot_add(struct history_walk *w, uint32_t index)
{
	size_t i;

	for (i = slot_of(w, &w->met[index].id); w->slots[i] != NO_ENTRY;
	     i = (i + 1) & (w->nr_slots - 1))
		;
	w->slots[i] = index;
}

/* Keeps the table at most half full. */
static void grow_slots(struct history_walk *w)
{
	size_t i;

	if (2 * (w->nr_met + 1) <= w->nr_slots)
		return;
	free(w->slots);
	w->nr_slots = w->nr_slots ? 2 * w->nr_slots : 64;
	w->slots = xmalloc(w->nr_slots * sizeof(*w->slots));
	memset(w->slots, 0xff, w->nr_slots * sizeof(*w->slots));
	for (i = 0; i < w->nr_met; i++)
		slot_add(w, (uint32_t)i);
}

/* Newest first; of the same date, the first met. */
static int before(const void *ctx, uint32_t a, uint32_t b)
{
	const struct history_walk *w = ctx;

	if (w->met[a].date != w->met[b].date)
		return w->met[a].date > w->met[b].date;
	return a < b;
}

/*
 * The date and parents of e->id: from the commit-graph when it has
 * the commit, else from the object's header, as libgit2's walk reads
 * it, but through a malformed commit.  A header git cannot read either
 * is libgit2's to judge, and its error.
 */
static int read_entry(struct history_walk *w, struct history_walk_entry *e)
{
	const struct commit_graph *g = history_graph(w->repo);
	struct malformed_commit m;
	git_odb_object *obj = NULL;
	git_commit *commit = NULL;
	uint32_t pos, two[2], *v;
	unsigned int i, n;
	int ret;

	if (g && commit_graph_find(g, &e->id, &pos)) {
		e->date = commit_graph_date(g, pos);
		n = commit_graph_parents(g, pos, two, ARRAY_SIZE(two));
		v = two;
		if (n > ARRAY_SIZE(two)) {
			v = xcalloc(n, sizeof(*v));
			commit_graph_parents(g, pos, v, n);
		}
		e->parents = xcalloc(n ? n : 1, sizeof(*e->parents));
		for (i = 0; i < n; i++)
			commit_graph_oid(g, v[i], &e->parents[i]);
		e->nr_parents = n;
		if (v != two)
			free(v);
		return 0;
	}
	if (!w->odb && (ret = git_repository_odb(&w->odb, w->repo)) < 0)
		return ret;
	if ((ret = git_odb_read(&obj, w->odb, &e->id)) < 0)
		return ret;
	ret = git_odb_object_type(obj) == GIT_OBJECT_COMMIT ?
	      malformed_parse(&m, git_odb_object_data(obj),
			      git_odb_object_size(obj)) : -1;
	git_odb_object_free(obj);
	if (!ret) {
		e->date = m.date;
		e->parents = m.parents;
		e->nr_parents = m.nr_parents;
		return 0;
	}
	if ((ret = git_commit_lookup(&commit, w->repo, &e->id)) < 0) {
		malformed_name_error(&e->id);
		return ret;
	}
	e->date = git_commit_time(commit);
	e->nr_parents = git_commit_parentcount(commit);
	e->parents = xcalloc(e->nr_parents ? e->nr_parents : 1,
			     sizeof(*e->parents));
	for (i = 0; i < e->nr_parents; i++)
		git_oid_cpy(&e->parents[i], git_commit_parent_id(commit, i));
	git_commit_free(commit);
	return 0;
}

/* Queues id unless it was met before. */
static int meet(struct history_walk *w, const git_oid *id)
{
	struct history_walk_entry *e;
	int ret;

	if (met_index(w, id) != NO_ENTRY)
		return 0;
	if (w->nr_met == NO_ENTRY)
		BUG("a history walk of more than 2^32 commits");
	grow_slots(w);
	ALLOC_GROW(w->met, w->nr_met, w->alloc_met);
	e = &w->met[w->nr_met];
	memset(e, 0, sizeof(*e));
	git_oid_cpy(&e->id, id);
	if ((ret = read_entry(w, e)) < 0)
		return ret;
	slot_add(w, (uint32_t)w->nr_met);
	w->queue.ctx = w;
	heap_push(&w->queue, (uint32_t)w->nr_met++);
	return 0;
}

static int next_here(git_oid *out, struct history_walk *w)
{
	struct history_walk_entry *e;
	git_oid *parents;
	unsigned int i, n;
	uint32_t x;
	int ret;

	if (!w->queue.nr)
		return GIT_ITEROVER;
	w->queue.ctx = w;
	x = heap_pop(&w->queue);
	/* Parents are met here: w->met may move. */
	parents = w->met[x].parents;
	n = w->met[x].nr_parents;
	if (w->first_parent && n)
		n = 1;
	w->met[x].parents = NULL;
	for (i = 0, ret = 0; !ret && i < n; i++)
		ret = meet(w, &parents[i]);
	free(parents);
	if (ret < 0)
		return ret;
	e = &w->met[x];
	git_oid_cpy(out, &e->id);
	return 0;
}

/* --- the start ---------------------------------------------------------- */

enum { WALK_LIBGIT2 = 1, WALK_RANGE, WALK_HERE };

/*
 * The walk from history_range_tips(), after libgit2's failed on a
 * commit it cannot parse before giving any.
 */
static int start_range(struct history_walk *w)
{
	if (w->first_parent)
		BUG("a first-parent walk must be unsorted and hide nothing");
	git_revwalk_free(w->walk);
	w->walk = NULL;
	w->mode = WALK_RANGE;
	w->next = 0;
	git_error_clear();
	return history_range_tips(&w->range, w->repo, w->tips, w->nr_tips,
				  w->hide, w->nr_hide) < 0 ? -1 : 0;
}

static int start(struct history_walk *w)
{
	size_t i;
	int ret;

	w->started = 1;
	if (w->sorting == GIT_SORT_NONE && !w->nr_hide) {
		w->mode = WALK_HERE;
		for (i = 0; i < w->nr_tips; i++)
			if ((ret = meet(w, &w->tips[i])) < 0)
				return ret;
		return 0;
	}
	w->mode = WALK_LIBGIT2;
	if ((ret = start_libgit2(w)) < 0)
		return malformed_suspect() ? start_range(w) : ret;
	return 0;
}

int history_walk_next(git_oid *out, struct history_walk *w)
{
	int ret;

	if (!w->started && (ret = start(w)) < 0)
		return ret;
	switch (w->mode) {
	case WALK_HERE:
		return next_here(out, w);
	case WALK_LIBGIT2:
		ret = git_revwalk_next(out, w->walk);
		/*
		 * A sorted walk, or one that hides, reads every commit
		 * before it gives the first (libgit2 1.5), so a malformed
		 * commit stops it before it gave any: the range takes it
		 * over whole.  Had it given some, its error would stand.
		 */
		if (ret < 0 && ret != GIT_ITEROVER && !w->given &&
		    malformed_suspect()) {
			if ((ret = start_range(w)) < 0)
				return ret;
			return history_walk_next(out, w);
		}
		if (!ret)
			w->given++;
		return ret;
	}
	if (w->next == w->range.nr)
		return GIT_ITEROVER;
	if (w->sorting & GIT_SORT_REVERSE)
		git_oid_cpy(out, &w->range.items[w->range.nr - ++w->next].id);
	else
		git_oid_cpy(out, &w->range.items[w->next++].id);
	w->given++;
	return 0;
}

/* Of the commits walked below the base, one in this many is dated. */
#define BELOW_DATE_EVERY 256
/* How much older than the oldest commit looked for the walk may go. */
#define BELOW_SLACK (30 * 24 * 3600)

int history_walk_below(struct history_walk *w, size_t pending,
		       git_time_t oldest,
		       int (*met)(const git_oid *id, void *data), void *data,
		       size_t *walked)
{
	git_oid id;
	int ret = 0;

	*walked = 0;
	while (pending && !(ret = history_walk_next(&id, w))) {
		git_time_t time;

		if (met(&id, data)) {
			pending--;
			continue;
		}
		/* The date check parses a commit: not for every one. */
		if (++*walked % BELOW_DATE_EVERY)
			continue;
		if (malformed_commit_time(&time, w->repo, &id) < 0)
			return error_git("cannot read a commit below the base");
		if (time < oldest - BELOW_SLACK)
			pending = 0;
	}
	return ret < 0 && ret != GIT_ITEROVER ? -1 : 0;
}
