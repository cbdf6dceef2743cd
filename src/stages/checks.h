#ifndef CHECKS_H
#define CHECKS_H

#include <git2.h>

#include "stages/branch.h"
#include "candidate/candidate.h"
#include "formats/rules.h"
#include "store/trialcache.h"

/*
 * The last checks on what would be proposed, after the verdicts:
 *
 * - soak time: a subsystem may ask that a commit is in a mainline
 *   release tag ("soak release") or has been in mainline for N days
 *   ("soak 14d"); a proposal that does not qualify yet becomes
 *   `waiting` (needs-ack stays needs-ack: the ack comes first), with
 *   the date it will.  "Now" is the commit date of the upstream tip, so
 *   a run on the same repository always gives the same answer.  A
 *   candidate the scan painted (c->soak_settled) is answered from its
 *   mark and painted, the tags the scan loaded; any other asks the
 *   commit graph.
 * - does it apply: the proposed and needs-ack candidates, oldest first,
 *   are cherry-picked in memory onto the branch tip as a series
 *   (src/apply.h); each is marked applies or conflicts, with the paths.
 *   With a trial cache (NULL: none), a pick whose inputs were seen
 *   before is not made again (apply_series_check_cached()): its
 *   result has no trees, and apply_result_patch() makes them when a
 *   patch is written.
 *
 *     checks_run(repo, &branch_index, &upstream_tip, &rules,
 *                &scan.soak_tags, &trials, &candidates);
 */
int checks_run(git_repository *repo, const struct branch_index *branch,
	       const git_oid *upstream, const struct ruleset *rules,
	       const struct soak_tags *painted, struct trialcache *cache,
	       struct candidate_list *l);

/*
 * The soak check alone, as checks_run() makes it first: for the
 * outputs that judge without trial picks (tests, results), so that
 * what waits in propose waits there too.  0 or -1.
 */
int checks_soak(git_repository *repo, const git_oid *upstream,
		const struct ruleset *rules, const struct soak_tags *painted,
		struct candidate_list *l);

#endif
