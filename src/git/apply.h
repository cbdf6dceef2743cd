#ifndef APPLY_H
#define APPLY_H

#include <git2.h>

#include "base/strbuf.h"
#include "store/trialcache.h"
#include <stddef.h>

/*
 * Trial cherry-picks: does a mainline commit apply to a stable branch?
 *
 * Everything happens in memory with libgit2's three-way merge (rename
 * detection on, as git_merge_options has it by default, for
 * apply_check(); a series is picked file by file, and follows a file
 * the branch has under another name: apply_series_check()).  No work tree,
 * index file or reference is read or written.  The merge stores blobs
 * and trees (auto-merged file contents and, for a series, the
 * intermediate trees); after apply_in_memory() they go to an object
 * store in memory that lives as long as the repository object, and the
 * repository on disk is left as it was.  Without it they are written to
 * the object database, where nothing refers to them and "git gc" prunes
 * them in time.
 *
 *     struct apply_result res;
 *     apply_result_init(&res);
 *     if (apply_check(&res, repo, stable_tip, pick) < 0)
 *             ... error printed ...
 *     else if (!res.applies)
 *             for (i = 0; i < res.nr_conflicts; i++)
 *                     ... res.conflicts[i] ...
 *     apply_result_release(&res);
 */

struct apply_series;

struct apply_result {
	int applies;			/* 1 when the pick merges cleanly */
	/*
	 * When it applies and the pick was made by this process (trees
	 * is 1): the tree before and after the pick, in the branch's
	 * context (after the earlier picks of a series).  A result taken
	 * from the trial cache has no trees; apply_result_patch() makes
	 * them again.
	 */
	int trees;
	git_oid before, after;
	char **conflicts;		/* conflicting paths, sorted, unique */
	size_t nr_conflicts, alloc_conflicts;
	/*
	 * When it applies: the entries the pick changes (the path, the
	 * new mode, 0 for a removal, and id), sorted by path; none, the
	 * pick changes nothing (its patch would be empty).
	 */
	struct trial_change *changes;
	size_t nr_changes, alloc_changes;
	/* The series it was picked in, to make its trees again. */
	struct apply_series *series;
	size_t pos;
};

void apply_result_init(struct apply_result *r);

/*
 * Sends the objects trial picks write to an in-memory store of repo
 * (libgit2's mempack backend), so that a run writes nothing to disk and
 * does not pay for compressing loose objects.  Once per repository
 * object; returns 0 or -1 after an error message.
 */
int apply_in_memory(git_repository *repo);

/*
 * The file merges trial picks made (three-way, of three blobs) and
 * those they took from earlier merges of the same blobs, since the
 * process started; for the trace.
 */
void apply_merge_counts(size_t *made, size_t *again);

/*
 * Drops the merges kept in memory and forgets the repository of
 * apply_in_memory(), before that repository is freed.
 */
void apply_forget(void);

/*
 * The commit to pick onto (a branch tip): git_commit_lookup(), or for
 * a malformed commit (malformed.h), once apply_in_memory() was called
 * for repo, a well-formed copy of it in memory (its tree, parents and
 * message; author and committer "unknown"), after a warning that says
 * so.  Nothing is written to the repository.  0, or libgit2's error.
 */
int apply_onto_lookup(git_commit **out, git_repository *repo,
		      const git_oid *id);

/*
 * The change a pick that applies makes to the branch, as git
 * format-patch writes it after "---": a diffstat, a blank line, then the
 * diff.  A result without trees (from the trial cache) has them made
 * again first, with what it needs of its series.  Only the paths the
 * pick changes are diffed.  Appends to out; returns 0 or -1 after an
 * error message.
 */
int apply_result_patch(const struct apply_result *r, git_repository *repo,
		       struct strbuf *out);

/*
 * Says that the patch of r will be asked for.  A result from the trial
 * cache has its trees made again with those of its series: those
 * announced (and what they need of the series) in one pass, or, when
 * none was, every pick of the series that applied.  Announce every
 * patch to be written before the first apply_result_patch():
 *
 *     for (i = 0; i < nr; i++)
 *             apply_result_want_patch(&c[i]->apply);
 *     for (i = 0; i < nr; i++)
 *             if (apply_result_patch(&c[i]->apply, repo, &out) < 0)
 *                     ... error printed ...
 */
void apply_result_want_patch(const struct apply_result *r);

/* Whether the pick r describes (one that applied) changes path. */
int apply_result_changes(const struct apply_result *r, const char *path);

/* Frees what r owns and initialises it again. */
void apply_result_release(struct apply_result *r);

/*
 * Cherry-picks pick onto the tree of onto (in memory) and fills out,
 * which must be initialised; what it held before is released.  A root
 * commit is picked against an empty tree.  Returns 0, or -1 after an
 * error message (a merge commit cannot be trial-picked: which parent
 * is mainline is not ours to guess).
 */
int apply_check(struct apply_result *out, git_repository *repo,
		const git_commit *onto, const git_commit *pick);

/*
 * Picks a series one after another, as "git cherry-pick A B C" would:
 * picks[i] is tried on the tree produced by picks[0..i-1], so a fix
 * that only applies after its preparatory patch is reported correctly.
 * out must hold nr initialised results; out[i] describes picks[i].
 *
 * A pick that conflicts is skipped, as "git cherry-pick --skip" would:
 * the tree stays as it was and the next pick is tried on it, so one
 * conflict does not hide whether the rest of the series applies.
 * A change to a file that the branch has under its former name (git's
 * rename detection, git/renames.h) applies to that file, as it does
 * with git cherry-pick.
 *
 *     struct apply_result *res = xcalloc(nr, sizeof(*res));
 *
 *     for (i = 0; i < nr; i++)
 *             apply_result_init(&res[i]);
 *     if (apply_series_check(res, repo, stable_tip, picks, nr) < 0)
 *             ... error printed ...
 *     for (i = 0; i < nr; i++) {
 *             if (!res[i].applies)
 *                     ... picks[i] conflicts in res[i].conflicts ...
 *             apply_result_release(&res[i]);
 *     }
 *     free(res);
 *
 * Returns 0, or -1 after an error message, in which case the results
 * are partial.  Merge commits in the series are refused before any
 * pick is tried.
 */
int apply_series_check(struct apply_result *out, git_repository *repo,
		       const git_commit *onto,
		       const git_commit *const *picks, size_t nr);

/*
 * apply_series_check() with the results kept in cache (NULL: none, the
 * same as apply_series_check()).  A pick's result is decided by its
 * key, which hashes:
 *
 * - the commit id of the pick: it fixes its tree, its parent and so
 *   the parent's tree, the two sides of the change merged;
 * - the paths the pick changes (against its first parent), each with
 *   the entry of the tree picked onto there (mode and id), or, where
 *   there is none, the entry that stands in the way (a file where a
 *   directory of the path should be) or its absence: a pick reads the
 *   tree picked onto at those paths only (merge_path() in apply.c);
 * - in order, the keys of the earlier picks of the series that change
 *   the tree at those paths: of those that change one of them (or a
 *   file above one, which becomes a directory), the last one, since
 *   what a path holds after a pick is decided by that pick's key (which
 *   has the one before it); every one that changes a path below one.
 *
 * - when the pick changes a file its parent has and the tree picked
 *   onto lacks (one it follows through a rename on the branch, as git
 *   cherry-pick does: rename detection reads the whole tree), the id
 *   of the tree picked onto and the keys of all the earlier picks; and
 *   the key of every pick after such ones has the digest of their
 *   keys, in order.
 *
 * Nothing else is read: no configuration (git_merge_file() and the
 * rename detection with their default options, which no setting
 * changes), nothing of the tree picked onto away from those paths
 * unless renames are followed.  So which series a pick is in (the
 * proposals alone, with the needs-ack ones, ...) is not in its key: a
 * series reaches a pick only through the earlier picks on its paths,
 * or through one that followed renames.
 *
 * Picks whose key the cache has are taken from it (without trees);
 * the others are made, with the earlier picks they need: one that did
 * not apply is left out, as the series leaves it out; one that applied
 * is replayed from its recorded changes when the objects they name are
 * at hand, else picked again.  Counts each result in cache->hits or
 * cache->computed.
 */
int apply_series_check_cached(struct apply_result *out, git_repository *repo,
			      const git_commit *onto,
			      const git_commit *const *picks, size_t nr,
			      struct trialcache *cache);

/*
 * The paths pick changes against its first parent, sorted and unique,
 * as a trial pick's key has them: those cache keeps (borrowed from it,
 * until it is released), else found and kept there.  If in_parent is
 * not NULL, with a flag for each path (borrowed too): 1 when the
 * parent has a file there, not a gitlink.  NULL after an error message.
 */
char *const *apply_pick_paths(struct trialcache *cache, git_repository *repo,
			      const git_commit *pick, size_t *nr,
			      const unsigned char **in_parent);

#endif
