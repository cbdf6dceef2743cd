#ifndef APPLY_H
#define APPLY_H

#include <git2.h>

#include "strbuf.h"
#include <stddef.h>

/*
 * Trial cherry-picks: does a mainline commit apply to a stable branch?
 *
 * Everything happens in memory with libgit2's three-way merge (rename
 * detection on, as git_merge_options has it by default).  No work tree,
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

struct apply_result {
	int applies;			/* 1 when the pick merges cleanly */
	/*
	 * When it applies: the tree before and after the pick, in the
	 * branch's context (after the earlier picks of a series).
	 */
	git_oid before, after;
	char **conflicts;		/* conflicting paths, sorted, unique */
	size_t nr_conflicts, alloc_conflicts;
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
 * The change a pick that applies makes to the branch, as git
 * format-patch writes it after "---": a diffstat, a blank line, then the
 * diff.  Appends to out; returns 0 or -1 after an error message.
 */
int apply_result_patch(const struct apply_result *r, git_repository *repo,
		       struct strbuf *out);
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

#endif
