#ifndef HISTORY_H
#define HISTORY_H

#include <git2.h>
#include <stddef.h>
#include <stdint.h>

#include "git/commitgraph.h"
#include "base/heap.h"

/*
 * Walks and ancestry questions on the commit-graph (src/commitgraph.h)
 * when the repository has one: a range, a merge base and "is A an
 * ancestor of B?" then cost what the commits inside the answer cost,
 * read from the graph, instead of parsing every commit object down the
 * way as libgit2 does.  Without a graph a range is read from the
 * commit objects (each header once, walked as git's limit_list()
 * walks), merge bases and ancestry are libgit2's, and a walk of 10,000
 * commits or more asks once, on stderr, for a graph to be written.
 *
 * The repository's graph and what was learnt of its commits are kept
 * per repository for the life of the process; history_forget() drops
 * them (before git_repository_free()).
 */

/*
 * A commit of a range, its parents and its place in the graph; its tree
 * and its first parent's, as the walk read them (the graph, or the
 * commit's header), so that a walk of the range need not read the
 * commits again.  has_trees is 0 when one of them was not read (a
 * parent outside the range that the walk did not read, or a commit
 * read by libgit2 alone): read the commits then.
 */
#define HISTORY_NO_POS UINT32_MAX
struct history_commit {
	git_oid id;
	uint32_t graph_pos;		/* HISTORY_NO_POS: not in the graph */
	unsigned int nr_parents;
	size_t parents;			/* index of the first in range->parents */
	git_oid tree, parent_tree;	/* parent_tree zero: a root */
	int has_trees;
};

struct history_range {
	struct history_commit *items;	/* children before parents */
	size_t nr, alloc;
	git_oid *parents;
	size_t nr_parents, alloc_parents;
	int from_graph;			/* the set came from the commit-graph */
};

void history_range_release(struct history_range *r);

/*
 * A range's parent links, by the places of its commits in the list of
 * their ids sorted (git_oid_cmp): the parents in the range of the
 * commit at place i are at places parents[first[i]] up to
 * parents[first[i + 1]] (excluded).  Parents outside the range are
 * left out.  12 bytes or so a commit, against the range's 100.
 */
struct history_links {
	uint32_t *first;		/* nr + 1 */
	uint32_t *parents;
	size_t nr;
};

/* The links of r; ids, when not NULL, gets r's ids sorted. */
void history_range_links(struct history_links *out, git_oid **ids,
			 const struct history_range *r);

void history_links_release(struct history_links *l);

/* The place of id in ids (nr of them, sorted), or UINT32_MAX. */
uint32_t history_links_place(const git_oid *ids, size_t nr,
			     const git_oid *id);

/* git_oid_cmp() for QSORT and bsearch() of git_oid arrays. */
int history_cmp_oid(const void *a, const void *b);

/*
 * The commits reachable from tip and from none of hide (as git rev-list
 * tip ^hide...), in date order: each commit before its parents, and of
 * those ready, the latest committer date first, then the smaller id.
 * The order is the same with or without a commit-graph.  Returns 0, or
 * -1 with libgit2's error set (the caller names what it walked).
 */
int history_range(struct history_range *out, git_repository *repo,
		  const git_oid *tip, const git_oid *hide, size_t nr_hide);

/*
 * The same of several tips (as git rev-list A B ^C), never kept for
 * the next ask.
 */
int history_range_tips(struct history_range *out, git_repository *repo,
		       const git_oid *tips, size_t nr_tips,
		       const git_oid *hide, size_t nr_hide);

static inline const git_oid *history_parent(const struct history_range *r,
					    const struct history_commit *c,
					    unsigned int i)
{
	return &r->parents[c->parents + i];
}

/* As git_merge_base(): 0, GIT_ENOTFOUND, or -1 with libgit2's error. */
int history_merge_base(git_oid *out, git_repository *repo,
		       const git_oid *one, const git_oid *two);

/*
 * As git_graph_descendant_of(): 1 if commit descends from ancestor (not
 * equal to it), 0 if not, -1 with libgit2's error.  Questions about the
 * same commit are answered from one walk of its history, extended only
 * as deep as the oldest ancestor asked about.
 */
int history_descendant_of(git_repository *repo, const git_oid *commit,
			  const git_oid *ancestor);

/*
 * A walk as git_revwalk's, for the walks the stages make, that goes
 * through malformed commits (src/malformed.h) as git log does.  It
 * gives libgit2's walk while no malformed commit is in the way.
 * libgit2 reads every commit before it gives the first when the walk
 * is sorted or hides a commit: when it fails there on a commit it
 * cannot parse, history_range_tips() takes the walk over (newest first
 * by committer date, each commit before its parents; reversed with
 * GIT_SORT_REVERSE).  An unsorted walk that hides nothing, which
 * libgit2 reads as it goes and a caller may stop early, is always made
 * here, in libgit2's order: newest first by committer date, of one
 * date the first met first; on the commit-graph when it has the
 * commits.  Only such a walk may be first-parent.
 *
 *     struct history_walk w;
 *     history_walk_init(&w, repo, GIT_SORT_TIME);
 *     if (history_walk_push(&w, &tip) < 0 ||
 *         history_walk_hide(&w, &from) < 0)
 *             ... libgit2's error ...
 *     while (!(ret = history_walk_next(&id, &w)))
 *             ... id ...
 *     history_walk_release(&w);
 *     if (ret != GIT_ITEROVER)
 *             ... libgit2's error ...
 *
 * push and hide take what names a commit (a tag too), and all come
 * before the first next; they, and next, return 0 or libgit2's error.
 */
struct history_walk_entry;
struct history_walk {
	git_repository *repo;
	unsigned int sorting;		/* GIT_SORT_* */
	int first_parent;
	git_oid *tips, *hide;
	size_t nr_tips, alloc_tips, nr_hide, alloc_hide;
	int started, mode;
	size_t given;			/* commits given so far */
	git_revwalk *walk;		/* libgit2's, while it is the walk */
	struct history_range range;	/* or the range, read here */
	size_t next;
	/* Or, unsorted with nothing hidden: the commits met, a queue. */
	struct history_walk_entry *met;
	size_t nr_met, alloc_met;
	uint32_t *slots;		/* indexes into met, by id */
	size_t nr_slots;
	struct heap queue;		/* indexes into met */
	git_odb *odb;
};

void history_walk_init(struct history_walk *w, git_repository *repo,
		       unsigned int sorting);
void history_walk_first_parent(struct history_walk *w);
int history_walk_push(struct history_walk *w, const git_oid *id);
int history_walk_hide(struct history_walk *w, const git_oid *id);
/* "A..B", as git_revwalk_push_range() takes it. */
int history_walk_push_range(struct history_walk *w, const char *range);
int history_walk_next(git_oid *out, struct history_walk *w);
void history_walk_release(struct history_walk *w);

/*
 * Goes on with w, a walk down from a branch's base sorted by date
 * (GIT_SORT_TIME, pushed), to meet pending commits that may be below
 * it, when asking the graph of each may walk most of history: met()
 * says of each commit whether it is one of them (1) or not (0).  The
 * walk stops when all pending ones are met, or when a commit is a
 * month older than oldest, the oldest of them (commit dates are only
 * roughly in order; the date of one commit in 256 is read).  Whether
 * those not met are below is the caller's to decide.  *walked: the
 * commits met that were not pending.  Returns 0, or -1 after an error
 * message (a date that cannot be read) or with libgit2's error set
 * (the walk failed).
 */
int history_walk_below(struct history_walk *w, size_t pending,
		       git_time_t oldest,
		       int (*met)(const git_oid *id, void *data), void *data,
		       size_t *walked);

/* The repository's commit-graph, or NULL. */
const struct commit_graph *history_graph(git_repository *repo);

void history_forget(git_repository *repo);

#endif
