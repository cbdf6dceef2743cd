#ifndef APPLYWITH_H
#define APPLYWITH_H

#include <git2.h>

#include "candidate/candidate.h"
#include "stages/match.h"
#include "stages/scan.h"
#include "store/trialcache.h"

/*
 * The series that makes a pick apply: for a proposal whose trial pick
 * conflicts, the smallest ordered set of mainline commits, none of them
 * in the branch, after which it applies, each set tried as a series in
 * memory on the branch tip after the proposals before it.
 *
 * Where to look is what blame says (blame.h): the commits after the
 * base that made the lines the pick conflicts on are the first
 * candidates; those of them that do not apply themselves are blamed in
 * turn, to a bounded depth.  A set is tried only when it can work: it
 * holds one of the commits that made the pick's conflicting lines, and
 * for each member that does not apply alone, one of the commits that
 * made its own.  Sets are tried smallest first (fewest commits, then
 * the closest to the pick), each in mainline order, up to a budget; a
 * set counts when every member and the pick apply.  The trial picks
 * go through the trial cache, so a second run makes none of them again.
 *
 *     struct applywith_limits lim = APPLYWITH_LIMITS_INIT;
 *     if (applywith_search(&match, &branch, &candidates, cache, &lim,
 *                          NULL) < 0)
 *             ... error printed ...
 *     switch (c->with.state) {
 *     case WITH_FOUND:   c->with.v[0 .. c->with.nr), in mainline order
 *     case WITH_NONE:    no set within the bounds (c->with.tried sets)
 *     case WITH_SKIPPED: not searched: lim->picks were searched before it
 *     case WITH_UNSEARCHED: it applies alone, or was not asked about
 *     }
 *
 * Only the proposals and needs-ack commits whose trial pick was made
 * and failed are searched (only one, when only is not NULL), each once,
 * lim->picks of them at most in a run, oldest first (a search blames
 * and picks for a while: a first run's backlog of a thousand would take
 * an hour); the rest are WITH_SKIPPED.  A set
 * member the scan found is named with its candidate (with[i].cand), so
 * its verdict judges the set.
 */

struct applywith_limits {
	size_t size;		/* commits in a set, at most */
	size_t depth;		/* rounds of blame below the pick */
	size_t trials;		/* sets tried for one pick, at most; 0: no search */
	size_t pool;		/* commits considered for one pick, at most */
	size_t picks;		/* picks searched in a run, at most */
};

#define APPLYWITH_LIMITS_INIT { 5, 3, 64, 12, 64 }

/* A pick before the one searched for, and its result in that series. */
struct applywith_prefix {
	git_oid id;
	const struct apply_result *res;
};

/*
 * The search for one pick, id, that conflicts in conflicts[] after the
 * picks of prefix (those that applied, oldest first), as for audit's
 * picks: out gets the series.  l names the members the scan found.
 * 0 or -1 after an error message.
 */
int applywith_one(struct match *m, const struct branch_index *branch,
		  const struct candidate_list *l, struct trialcache *cache,
		  const struct applywith_limits *lim, const git_oid *id,
		  char *const *conflicts, size_t nr_conflicts,
		  const struct applywith_prefix *prefix, size_t nr_prefix,
		  struct applies_with *out);

int applywith_search(struct match *m, const struct branch_index *branch,
		     struct candidate_list *l, struct trialcache *cache,
		     const struct applywith_limits *lim,
		     struct candidate *only);

/*
 * After applywith_search(): each member of a series found that the scan
 * did not find (outside the watched paths) gets its candidate in
 * outside, filled from its commit, as with[i].cand, for the rules to
 * judge (its nr_touched is 0: not watched), and is the likely[i].cand
 * of a pick whose blame named it.  1 when outside grew, 0, or -1 after
 * an error message.
 */
int applywith_members(struct scan *scan, struct candidate_list *l,
		      struct candidate_list *outside);

/*
 * After applywith_search(): the series the mbox carries.  The proposals
 * that apply alone, and those with a series found, each after the
 * members of its series not carried yet (where the search tried them:
 * after the proposals before it), as one series picked onto the branch
 * tip.  A member the scan did not find (outside the watched paths) is
 * added to outside, filled from its commit.  Each candidate of l and
 * outside gets mail_checked; those in the series in_mail, mail_pos and
 * mail_apply, a member carried_for the proposal it came for.  A
 * proposal that does not apply there is left out, and the members
 * carried only for it, and the series tried again.  0 or -1.
 */
int applywith_carry(git_repository *repo, const struct branch_index *branch,
		    struct scan *scan, struct candidate_list *l,
		    struct candidate_list *outside, struct trialcache *cache);

/*
 * After checks_run() (the queue's series, queue_apply): for each
 * accepted commit that does not apply there, the series after which
 * it does, searched after the queued commits before it that applied;
 * the members found are queued before it (queued, queue_for it; a
 * member queued already is reused, one the scan did not find is added
 * to outside), and the queue is picked again as one series, each
 * result in queue_apply and its place in queue_pos.  An accepted
 * commit that does not apply there is taken out with the members
 * carried for it (they are no longer queued), and the series picked
 * again.  0 or -1 after an error message.
 */
int applywith_queue(struct match *m, const struct branch_index *branch,
		    struct scan *scan, struct candidate_list *l,
		    struct candidate_list *outside, struct trialcache *cache,
		    const struct applywith_limits *lim);

#endif
