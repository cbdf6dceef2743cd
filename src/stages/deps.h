#ifndef DEPS_H
#define DEPS_H

#include <git2.h>

#include "stages/branch.h"
#include "candidate/candidate.h"
#include "stages/match.h"
#include "stages/scan.h"
#include "store/scancache.h"

/*
 * Links between candidates and applicability to the branch: Fixes:
 * targets (and so follow-up fixes), mainline reverts, and the version
 * hints of Cc: stable tags.
 *
 *     struct deps d;
 *     deps_init(&d, repo, &match, &candidates, &upstream_tip);
 *     deps_link(&d);                    after match_candidates()
 *     deps_later_reverts(&d, &end, &tip);  reverts after the range
 *     for each candidate c, oldest first:
 *             deps_facts(&d, c);        facts the rules can match
 *             score_candidate(&rules, c);
 *             deps_applicable(&d, c);   sets c->not_applicable
 *             score_decide(c);
 *     while ((p = deps_pull_prereq(&d)))
 *             ... score and decide p again ...
 *     for each candidate c: if deps_reconsider(&d, c) == 1, decide c again
 *     deps_finish(&d);
 *     deps_release(&d);
 *
 * Oldest first matters: a Fixes: target is older than its fix, so its
 * verdict is known when the fix is judged (a fix of a proposed commit
 * is a follow-up, proposed too).  deps_link() ignores, with a warning,
 * a Fixes: target or a reverted commit that is the commit itself or
 * comes after it in the list, so that hostile history cannot make
 * links loop or read a verdict not yet decided.
 */

struct subject_entry;

struct ancestry_entry;

struct deps {
	git_repository *repo;
	struct ancestry_entry *ancestry;	/* below the base? answered once */
	struct match *match;		/* presence of commits outside the run */
	const struct branch_index *branch;
	struct candidate_list *cands;
	const git_oid *upstream;	/* for the subject index */
	struct subject_entry *subjects;	/* mainline subjects looked up */
	struct scancache *cache;	/* keeps them, or NULL */
	/*
	 * The scan of base..upstream, when the run scanned exactly that:
	 * it knows every commit above the base, so "below the base?" needs
	 * no walk (see deps_set_range()).
	 */
	const struct scan *range;
	size_t pull_next;		/* deps_pull_prereq()'s place: the */
	size_t pull_prereq;		/* candidate (from the end), its prereq */
	int pull_started;
};

void deps_init(struct deps *d, git_repository *repo, struct match *match,
	       struct candidate_list *cands, const git_oid *upstream);
void deps_release(struct deps *d);

/*
 * Tells d that scan walked base..upstream (and not some other range).
 * A commit outside the run is then below the base when it is not in
 * the range and its commit date is not after the base's (Fixes: and
 * reverts name mainline commits: one that is not above the base is
 * below it); a later one is asked of the commit graph.  Without it, one
 * walk down from the base settles all the questions.
 */
void deps_set_range(struct deps *d, const struct scan *range);

/*
 * Keeps in cache (and reads from it) the commits that Fixes: tags are
 * resolved to through their quoted subjects, by the upstream tip: the
 * walk of mainline they cost is done once a tip.
 */
void deps_set_cache(struct deps *d, struct scancache *cache);

/*
 * Resolves every Fixes: target (a wrong or ambiguous id through its
 * quoted subject, as findmissing does) and every revert, and links the
 * candidates that name each other.  Returns 0 or -1.
 */
int deps_link(struct deps *d);

/* Establishes c's facts; the targets' verdicts must be decided. */
int deps_facts(struct deps *d, struct candidate *c);

/*
 * Decides whether the branch can need c at all: not when its Cc:
 * stable hint excludes the branch, when it reverts what the branch
 * lacks, when every commit it fixes is absent from the branch, or when
 * the branch lacks every watched file it changes (src/match.h).
 * Returns 0, or -1 after an error message.
 */
int deps_applicable(struct deps *d, struct candidate *c);

/*
 * After the prerequisites are pulled in: a candidate not applicable
 * for lack of a file that a pulled prerequisite adds is applicable
 * after all.  1 when c's verdict must be decided again, 0 when not, -1
 * after an error message.
 */
int deps_reconsider(struct deps *d, struct candidate *c);

/*
 * Finds a candidate that a proposed (or needs-ack) candidate needs as a
 * prerequisite but that is neither present nor proposed, gives it the
 * fact "prerequisite" and returns it: the caller scores and decides it
 * again, and calls this until it returns NULL.
 */
struct candidate *deps_pull_prereq(struct deps *d);

/*
 * After every verdict: the status of every prerequisite, and warnings
 * on proposals whose prerequisites or series-mates are missing.
 * Returns 0 or -1 after an error message.
 */
int deps_finish(struct deps *d);

/*
 * Marks the candidates that a mainline commit after the scanned range
 * (from..to, e.g. the range's end..upstream tip) reverts.  Only
 * "Revert" subjects are read.  Returns 0 or -1.
 */
int deps_later_reverts(struct deps *d, const git_oid *from, const git_oid *to);

const char *target_status_name(enum target_status s);

#endif
