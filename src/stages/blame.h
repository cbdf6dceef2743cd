#ifndef BLAME_H
#define BLAME_H

#include <git2.h>

#include "candidate/candidate.h"
#include "stages/match.h"
#include "store/trialcache.h"

/*
 * The likely prerequisites of a pick that does not apply: the mainline
 * commits after the branch's base that last changed the lines the pick
 * changes (and the lines next to them, which a three-way merge counts
 * as touching), in the files it conflicts on.  A branch that lacks
 * such a commit has other text there, and that is what conflicts.
 *
 * For each conflicting file, the pick's hunks (no context) give the
 * lines of its preimage, the file at the pick's parent; git blame of
 * those lines, back to the base, names the commits that made them.
 * Commits at or below the base are not prerequisites (the branch has
 * them), nor is one the presence engine finds in the branch (a
 * backport): the conflict is then elsewhere, in what the branch does
 * differently.
 *
 *     if (blame_likely_prereqs(&match, &branch_index.base, &candidates,
 *                              NULL) < 0)
 *             ... error printed ...
 *     for (i = 0; i < c->nr_likely; i++)
 *             ... c->likely[i].hex, c->likely[i].subject ...
 *
 * Only the candidates whose trial pick was made and failed are looked
 * at (only one, when only is not NULL), each once: the proposals, and
 * the accepted commits whose pick failed in the queue's series (where
 * they conflict there; not with only).  A blame walks the
 * file's history back to the base, which takes a while on a long
 * range (half a second a file on 10,000 commits), so it is for the
 * outputs that show the result; what a blame found is kept in the trial
 * cache (NULL: none) by its inputs, so a run that meets the same pick,
 * base and files again blames nothing.  The commits of l are the ones
 * that may be named as judged too (likely_prereq.cand).
 */
int blame_likely_prereqs(struct match *m, const git_oid *base,
			 struct candidate_list *l, struct trialcache *cache,
			 struct candidate *only);

/*
 * The same for any mainline commit id, in the files paths[0..nr) (its
 * conflicts): appends to *ids (ALLOC_GROW'n, with *nr_ids and
 * *alloc_ids) the commits after the base, missing from the branch,
 * that made the lines it changes there, each once, in no order.  A
 * history libgit2 cannot blame is a warning of warn (NULL: none), and
 * that blame is not kept in cache.  Returns 0, or -1 after an error
 * message.
 */
int blame_missing(struct match *m, const git_oid *base, const git_oid *id,
		  char *const *paths, size_t nr, git_oid **ids, size_t *nr_ids,
		  size_t *alloc_ids, struct trialcache *cache,
		  struct candidate *warn);

/*
 * How many files this process blamed from their own history (the
 * scan's commits that changed them) and by libgit2's walk.
 */
void blame_counts(size_t *history, size_t *libgit2);

/*
 * Drops what the blames of this process kept of the files' histories
 * (the versions of a file at a commit, the hunks between two
 * versions), before the repository is freed.
 */
void blame_forget(void);

#endif
