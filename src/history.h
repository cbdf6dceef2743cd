#ifndef HISTORY_H
#define HISTORY_H

#include <git2.h>
#include <stddef.h>
#include <stdint.h>

#include "commitgraph.h"

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

/* A commit of a range, its parents and its place in the graph. */
#define HISTORY_NO_POS UINT32_MAX
struct history_commit {
	git_oid id;
	uint32_t graph_pos;		/* HISTORY_NO_POS: not in the graph */
	unsigned int nr_parents;
	size_t parents;			/* index of the first in range->parents */
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
 * The commits reachable from tip and from none of hide (as git rev-list
 * tip ^hide...), in date order: each commit before its parents, and of
 * those ready, the latest committer date first, then the smaller id.
 * The order is the same with or without a commit-graph.  Returns 0, or
 * -1 with libgit2's error set (the caller names what it walked).
 */
int history_range(struct history_range *out, git_repository *repo,
		  const git_oid *tip, const git_oid *hide, size_t nr_hide);

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

/* The repository's commit-graph, or NULL. */
const struct commit_graph *history_graph(git_repository *repo);

void history_forget(git_repository *repo);

#endif
