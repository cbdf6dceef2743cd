#include "stages/revlist.h"
#include "base/error.h"
#include "git/history.h"
#include "git/malformed.h"
#include "stages/scan.h"
#include "base/strbuf.h"
#include "base/util.h"

#include <stdlib.h>
#include <string.h>

void revlist_release(struct revlist *l)
{
	size_t i;

	for (i = 0; i < l->nr; i++)
		free(l->items[i].parents);
	free(l->items);
	free(l->tips);
	memset(l, 0, sizeof(*l));
}

/* A revision (arg names it in the error) as a commit. */
static int resolve(git_oid *out, git_repository *repo, const char *rev,
		   const char *arg)
{
	struct strbuf name = STRBUF_INIT;
	int ret = malformed_revparse(out, repo, rev);

	if (!ret)
		return 0;
	if (error_git_memory())
		return error_git("cannot read revision '%s'", arg);
	git_error_clear();
	if (ret == GIT_EPEEL)
		return error("bad revision '%s': not a commit", arg);
	strbuf_addf(&name, "revision '%s'", rev);
	ret = scan_ref_error(repo, rev, name.buf, 1);
	strbuf_release(&name);
	return ret ? ret : error("bad revision '%s'", arg);
}

static int push_tip(struct history_walk *walk, struct revlist *l,
		    const git_oid *id)
{
	ALLOC_GROW(l->tips, l->nr_tips, l->alloc_tips);
	git_oid_cpy(&l->tips[l->nr_tips++], id);
	return history_walk_push(walk, id);
}

/* A..B and A...B, as git rev-list takes them (an empty side is HEAD). */
static int push_range(struct history_walk *walk, struct revlist *l,
		      git_repository *repo, const char *arg, const char *dots)
{
	int symmetric = dots[2] == '.';
	const char *right = dots + (symmetric ? 3 : 2);
	char *left = xstrndup(arg, (size_t)(dots - arg));
	git_oidarray bases = { NULL, 0 };
	git_oid from, to, base;
	size_t i;
	int ret;

	ret = resolve(&from, repo, *left ? left : "HEAD", arg);
	if (!ret)
		ret = resolve(&to, repo, *right ? right : "HEAD", arg);
	free(left);
	if (ret)
		return ret;
	if (!symmetric) {
		if (history_walk_hide(walk, &from) < 0 ||
		    push_tip(walk, l, &to) < 0)
			return error_git("cannot walk '%s'", arg);
		return 0;
	}
	/* A...B: what either has and not both, above their merge bases. */
	ret = git_merge_bases(&bases, repo, &from, &to);
	if (ret < 0 && ret != GIT_ENOTFOUND && malformed_suspect()) {
		/* libgit2 cannot go through a malformed commit; history.c can. */
		ret = history_merge_base(&base, repo, &from, &to);
		if (!ret)
			ret = history_walk_hide(walk, &base);
		if (ret < 0 && ret != GIT_ENOTFOUND)
			return error_git("cannot find the merge base of '%s'",
					 arg);
	}
	if (ret == GIT_ENOTFOUND) {
		git_error_clear();
		ret = 0;
	} else if (ret < 0) {
		return error_git("cannot find the merge base of '%s'", arg);
	}
	for (i = 0; !ret && i < bases.count; i++)
		ret = history_walk_hide(walk, &bases.ids[i]);
	if (!ret)
		ret = push_tip(walk, l, &from);
	if (!ret)
		ret = push_tip(walk, l, &to);
	git_oidarray_dispose(&bases);
	return ret < 0 ? error_git("cannot walk '%s'", arg) : 0;
}

static int push_rev(struct history_walk *walk, struct revlist *l,
		    git_repository *repo, const char *arg)
{
	const char *dots = strstr(arg, "..");
	git_oid id;
	int ret;

	if (*arg != '^' && dots)
		return push_range(walk, l, repo, arg, dots);
	if (resolve(&id, repo, *arg == '^' ? arg + 1 : arg, arg) < 0)
		return -1;
	if (*arg == '^')
		ret = history_walk_hide(walk, &id);
	else
		ret = push_tip(walk, l, &id);
	return ret < 0 ? error_git("cannot walk '%s'", arg) : 0;
}

int revlist_walk(struct revlist *l, git_repository *repo, char **revs,
		 int nr_revs)
{
	struct history_walk walk;
	git_oid id;
	int i, ret = 0;

	/* Newest first: neighbours share trees, for the workers' caches. */
	history_walk_init(&walk, repo, GIT_SORT_TIME);
	for (i = 0; !ret && i < nr_revs; i++)
		ret = push_rev(&walk, l, repo, revs[i]);
	if (ret)
		goto out;
	while (!(ret = history_walk_next(&id, &walk))) {
		ALLOC_GROW(l->items, l->nr, l->alloc);
		memset(&l->items[l->nr], 0, sizeof(*l->items));
		git_oid_cpy(&l->items[l->nr++].commit, &id);
	}
	if (ret == GIT_ITEROVER)
		ret = 0;
	else
		ret = error_git("cannot walk the history");
out:
	history_walk_release(&walk);
	return ret;
}

/*
 * git log's order.  git keeps the commits to show in a list sorted by
 * commit date, newest first; a commit joins it behind those of the same
 * date (commit_list_insert_by_date) when the first of its children is
 * shown, the tips at the start in the order given, and the head of the
 * list is shown next.  libgit2's GIT_SORT_TIME orders commits of the
 * same date otherwise, and a kernel has many (a series applied by
 * git am in one second), so the order is worked out here: a heap by
 * (date, time of joining) over the commits libgit2's walk found.
 */

struct pid_slot {
	git_time_t time;
	size_t seq;			/* when it joined */
	size_t index;			/* into the items */
};

struct pid_by_oid {
	git_oid id;
	size_t index;
};

static int by_oid_cmp(const void *a, const void *b)
{
	return git_oid_cmp(&((const struct pid_by_oid *)a)->id,
			   &((const struct pid_by_oid *)b)->id);
}

/* 1 if a comes out of the list before b. */
static int slot_before(const struct pid_slot *a, const struct pid_slot *b)
{
	return a->time > b->time || (a->time == b->time && a->seq < b->seq);
}

static void slot_push(struct pid_slot *heap, size_t *nr, struct pid_slot s)
{
	size_t i = (*nr)++;

	while (i && slot_before(&s, &heap[(i - 1) / 2])) {
		heap[i] = heap[(i - 1) / 2];
		i = (i - 1) / 2;
	}
	heap[i] = s;
}

static struct pid_slot slot_pop(struct pid_slot *heap, size_t *nr)
{
	struct pid_slot top = heap[0], last = heap[--*nr];
	size_t i = 0, child;

	while (2 * i + 1 < *nr) {
		child = 2 * i + 1;
		if (child + 1 < *nr && slot_before(&heap[child + 1], &heap[child]))
			child++;
		if (!slot_before(&heap[child], &last))
			break;
		heap[i] = heap[child];
		i = child;
	}
	heap[i] = last;
	return top;
}

/* Joins the list, unless it is not to be shown or has joined already. */
static void join(struct pid_slot *heap, size_t *nr, size_t *seq,
		 const struct revlist *l, const struct pid_by_oid *by_oid,
		 unsigned char *seen, const git_oid *id)
{
	struct pid_by_oid key, *found;
	struct pid_slot s;

	git_oid_cpy(&key.id, id);
	found = bsearch(&key, by_oid, l->nr, sizeof(*by_oid), by_oid_cmp);
	if (!found || seen[found->index])
		return;
	seen[found->index] = 1;
	s.time = l->items[found->index].time;
	s.seq = (*seq)++;
	s.index = found->index;
	slot_push(heap, nr, s);
}

size_t *revlist_log_order(const struct revlist *l)
{
	struct pid_by_oid *by_oid = xcalloc(l->nr ? l->nr : 1, sizeof(*by_oid));
	struct pid_slot *heap = xcalloc(l->nr ? l->nr : 1, sizeof(*heap));
	size_t *order = xcalloc(l->nr ? l->nr : 1, sizeof(*order));
	unsigned char *seen = xcalloc(l->nr ? l->nr : 1, 1);
	size_t i, j, nr_heap = 0, nr_order = 0, seq = 0;

	for (i = 0; i < l->nr; i++) {
		git_oid_cpy(&by_oid[i].id, &l->items[i].commit);
		by_oid[i].index = i;
	}
	QSORT(by_oid, l->nr, by_oid_cmp);
	for (i = 0; i < l->nr_tips; i++)
		join(heap, &nr_heap, &seq, l, by_oid, seen, &l->tips[i]);
	while (nr_heap) {
		const struct patchid_job *it = &l->items[slot_pop(heap, &nr_heap).index];

		order[nr_order++] = (size_t)(it - l->items);
		for (j = 0; j < it->nr_parents; j++)
			join(heap, &nr_heap, &seq, l, by_oid, seen, &it->parents[j]);
	}
	/* Every commit of the walk descends from a tip; just in case. */
	for (i = 0; i < l->nr; i++)
		if (!seen[i])
			order[nr_order++] = i;
	free(seen);
	free(heap);
	free(by_oid);
	return order;
}
