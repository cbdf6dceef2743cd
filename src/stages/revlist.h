#ifndef REVLIST_H
#define REVLIST_H

#include <git2.h>
#include <stddef.h>

#include "git/patchid-pool.h"

/*
 * The commits that git log REVISION... shows, and git log's order of
 * them, for patch-id (git log -p | git patch-id --stable).  Revisions
 * are as git rev-list takes them: X, ^X, A..B and A...B (an empty side
 * is HEAD).  The walk is libgit2's, newest first (neighbours share
 * trees, for the workers' caches); the order git log would print them
 * in is worked out after, as git keeps its list by commit date with
 * ties in the order commits joined it.
 */

/* The commits to show and the revisions they were reached from. */
struct revlist {
	struct patchid_job *items;		/* in libgit2's walk order */
	size_t nr, alloc;
	git_oid *tips;			/* the positive revisions, as given */
	size_t nr_tips, alloc_tips;
};

void revlist_release(struct revlist *l);

/* The commits of the revisions; 0, or -1 after an error naming the one. */
int revlist_walk(struct revlist *l, git_repository *repo, char **revs,
		 int nr_revs);

/*
 * The indexes of the items in git log's order; l->nr of them.  After
 * patchid_compute_all(), which reads each commit's date and parents.
 */
size_t *revlist_log_order(const struct revlist *l);

#endif
