#ifndef MATCH_H
#define MATCH_H

#include <git2.h>

#include "stages/branch.h"
#include "candidate/candidate.h"
#include "git/patchid.h"

struct scan;

/*
 * The presence engine: the one place that answers "is this commit in
 * the branch?" and "which commit of the range is this backport?", for
 * every command, so that they never disagree.
 *
 *     struct match m;
 *     match_init(&m, repo, &branch_index, &scan, &patchid_cache);
 *     if (match_candidates(&m, &candidates, &scan.from) < 0)
 *             ... error printed ...
 *     r = match_mainline(&m, &pick, &found);     a backport, a mail
 *     match_release(&m);
 *
 * A commit is looked for in the branch by the methods of a table, in
 * order, until one decides:
 *
 *   ancestor       it is below the branch's base, or one of its commits
 *   upstream-line  a branch commit names it ("commit <id> upstream.",
 *                  "[ Upstream commit <id> ]", "(cherry picked from
 *                  commit <id>)"), or names what it backports itself
 *   patch-id       a branch commit makes the same change (git patch-id
 *                  --stable); only the branch commits that change the
 *                  same paths are diffed
 *   subject        a branch commit has its subject, and only then: no
 *                  other commit of the mainline range has that subject,
 *                  the two change a file of the same name (a path, or
 *                  its new place after a rename), and the branch commit
 *                  stands for no other mainline commit (by an upstream
 *                  line, or by patch-id); only ever maybe-present
 *
 * A backport found by upstream line or patch-id that the branch
 * reverted adds "backport-reverted" evidence and the search goes on.
 * The subject method runs after every other method has run for every
 * commit asked about, so that it knows which branch commits are taken.
 *
 * The other way, match_mainline() finds the mainline commit a backport,
 * a pick or a pick mail stands for, by the same means: the commit its
 * upstream line names, else the commit of the range with its change,
 * else the one commit of the range with its subject and a file of the
 * same name.
 *
 * The indexes (the range's subjects, the branch's patch-ids, the
 * branch commits taken) are built once, when first needed, and serve
 * every later question of the run.
 *
 * A method is a row of match_methods[] in match.c (match-internal.h
 * describes the row): its evidence kind, its finder, its pass, whether
 * it places a commit at no cost (before the patch-id method), what a
 * maybe-present verdict says when it gives only that, and its finder
 * the other way (match-mainline.c).  A new method also needs:
 *
 *   - its kind in enum evidence_kind (src/candidate/candidate.h) and
 *     its stable name in evidence_names[] (src/candidate/candidate.c);
 *   - its line in the list above and in the README (the presence
 *     methods, and the kinds of the JSON "evidence");
 *   - tests: tests/unit/test_match.c, tests/e2e/presence.sh.
 *
 * The report writers name evidence by its kind (evidence_kind_name()),
 * and score.c quotes it (match_maybe_why()): neither names a method.
 */

struct match_subject;
struct match_tie;
struct match_pathkey;
struct match_files;
struct match_upstream;
struct match_names;
struct match_has_path;
struct match_renames;
struct match_tip_name;

struct match {
	git_repository *repo;
	const struct branch_index *branch;
	struct scan *scan;		/* the mainline range and its watch */
	struct patchid_cache *patchids;	/* NULL: no patch-ids */

	struct match_subject *subjects;	/* the range's, built lazily */
	int subjects_built;
	struct match_tie *ties;		/* branch commit -> what it is */
	int ties_named;			/* the upstream lines are in ties */
	/* The branch's commits by the paths they change (treediff.h). */
	struct match_pathkey *by_pathkey;
	int pathkeys_built;
	struct match_files *files;	/* changed paths, read when needed */
	struct match_upstream *named;	/* the range's upstream lines */
	int named_built;
	git_tree *tip_tree;		/* the branch's, when asked */
	struct match_names *names;	/* file names of a subsystem there */
	struct match_has_path *has_paths;	/* paths asked of it */
	struct match_renames *renames;	/* of the range's commits, by id */
	struct match_tip_name *tip_names;	/* the tip's files by name, */
	int tip_names_built;		/* read when first needed */
	/* Without a commit-graph, the range's ancestry (match-ancestry.c). */
	struct match_ancestry *ancestry;
};

void match_init(struct match *m, git_repository *repo,
		const struct branch_index *branch, struct scan *scan,
		struct patchid_cache *patchids);
void match_release(struct match *m);

/*
 * As history_descendant_of() (1, 0, or -1 with libgit2's error), for
 * the commits of the scanned range answered from one read of it when
 * the repository has no commit-graph.
 */
int match_descends(struct match *m, const git_oid *commit,
		   const git_oid *ancestor);

/*
 * Looks for every candidate of l in the branch: adds its evidence and
 * sets c->present or c->maybe_present.  range_from: where the walk of
 * l started (its commits between range_from and the base are below the
 * base), or NULL for commits from anywhere (explain, audit, tests),
 * which are asked of the commit graph.  Returns 0 or -1 after an error
 * message.
 */
int match_candidates(struct match *m, struct candidate_list *l,
		     const git_oid *range_from);

/*
 * Why c is maybe-present, for its verdict: the sentence of the evidence
 * that decided it (candidate_presence()), whatever found it; without
 * one, what the method that gives only maybe-present says.  Borrowed.
 */
const char *match_maybe_why(const struct candidate *c);

/*
 * Whether a commit outside the candidates (a Fixes: target, a
 * prerequisite, what a revert reverts) is in the branch: the base or
 * below it (asked of the commit graph with ask_graph; the caller may
 * know it already), named by a backport the branch did not revert, or,
 * for a commit of the range, made again by a branch commit (patch-ids
 * of every branch commit, whatever it changes, so that the answer is
 * the same in every command).  1, 0, or -1 after an error message.
 */
int match_commit_in_branch(struct match *m, const git_oid *id, int ask_graph);

/*
 * Whether the branch has path, a watched file c changes: at that path,
 * at the path the former directories of c's subsystems give, or as a
 * file of that name somewhere in them (moved within them).  1, 0, or
 * -1 after an error message.
 */
int match_branch_has_file(struct match *m, const struct candidate *c,
			  const char *path);

/*
 * Whether the branch has path, a file c changes that c's parent has,
 * elsewhere under the same file name, as git cherry-pick of c onto the
 * branch tip finds it: git's rename detection from c's parent to the
 * tip, its targets the files of that name the tip has and the parent
 * lacks (merge-ort's first guess, by name; the whole tree would cost a
 * signature of every file the two do not share).  For a file whose
 * coming the range does not tell (match_renamed_from() finds no commit
 * that added it: a subtree's commit, a file older than the range).  1,
 * 0, or -1 after an error message.
 */
int match_branch_has_moved(struct match *m, const struct candidate *c,
			   const char *path);

/* How many renames match_renamed_from() is followed back through. */
#define MATCH_RENAMES_MAX 8

/*
 * The name path had before a rename of the range: *by is
 * candidate_list_added_before(l, c, path), and *from, when *by deleted
 * a file at least 50% similar as it added path (git's rename
 * detection: git/renames.h), that file's path (borrowed from m), else
 * NULL.  0, or -1 after an error message.  Called again with *by and *from, it
 * follows a chain of renames back.
 */
int match_renamed_from(struct match *m, const struct candidate_list *l,
		       const struct candidate *c, const char *path,
		       const char **from, const struct candidate **by);

/* What a backport, a pick or a pick mail offers to be recognised by. */
struct match_pick {
	const struct message *msg;	/* its message, for upstream lines */
	const git_oid *commit;		/* the commit itself, or NULL */
	const char *diff;		/* or the diff of a mail, or NULL */
	const char *subject;		/* its subject ([PATCH] taken off) */
	const char *author_email;	/* with by_author: only this author's */
	int by_author;
};

/* How match_mainline() found a commit. */
struct match_found {
	git_oid id;
	struct candidate *cand;		/* the range's candidate, or NULL */
	enum evidence_kind how;		/* upstream-line, patch-id, subject */
};

/*
 * The mainline commit a pick stands for: 1 with *out filled, 0 when
 * none is found (*why, when not NULL, says what its upstream lines
 * gave; neither the change nor the subject led to a commit of the
 * range), -1 after an error message.  An upstream line may name any
 * commit of the repository (or one a candidate of the range backports,
 * for a range of stable commits); the change and the subject are
 * looked for among the candidates of the range.
 */
int match_mainline(struct match *m, const struct match_pick *p,
		   struct match_found *out, const char **why);

/*
 * A twin: a commit with the same subject and the same change (the
 * patch-id method's patch-id) as a candidate, through which the branch
 * has that change although it has not the candidate: mainline took the
 * change twice, once below the branch's base (in the release the
 * branch forked from) and again in the range, or twice in the range.
 */
struct match_twin {
	git_oid id;
	struct candidate *cand;		/* the twin's candidate; NULL: below */
	int found;
};

/*
 * The twins of the nr candidates of cands, in out[i] for cands[i]: a
 * candidate of the range that accept(twin, cands[i]) takes (eval: one
 * the branch carries; a trial pick: also a proposal picked before it),
 * else a commit below the base, found in one walk down from it by date
 * that stops a month before the oldest author date asked about (a twin
 * is committed after its change was written).  No patch-id cache: no
 * twins.  Returns 0, or -1 after an error message.
 */
int match_twins(struct match *m, struct candidate *const *cands, size_t nr,
		int (*accept)(const struct candidate *twin,
			      const struct candidate *c),
		struct match_twin *out);

/* A subject looked for in all of the range: match_range_subjects(). */
struct match_wanted {
	const char *subject;
	git_oid id;			/* the first commit found with it */
	int found;			/* commits with it: 0, 1, or 2 for more */
};

/*
 * Looks the subjects up among every commit of the scanned range,
 * watched or not, in one walk (a commit a test names may fix mm/).
 * Returns 0 or -1 after an error message.
 */
int match_range_subjects(struct match *m, struct match_wanted *w, size_t nr);

/*
 * A branch commit with this subject that stands for no commit of the
 * range, or NULL: what a posted patch whose commit is not in the range
 * may have become.
 */
const git_oid *match_branch_subject(struct match *m, const char *subject);

/*
 * The candidate that branch commit id was found to stand for (by an
 * upstream line, a patch-id or a subject), or NULL.
 */
struct candidate *match_taken_by(const struct match *m, const git_oid *id);

#endif
