#ifndef RENAMES_H
#define RENAMES_H

#include <git2.h>
#include <stddef.h>

/*
 * Renames, found as git finds them: libgit2's rename detection
 * (git_diff_find_similar(), renames only, a file at least 50% similar
 * to one that went away, its default threshold; an identical file
 * first), asked only about the paths that may be a rename's two ends,
 * so that the cost follows the size of the change, not of the tree.
 *
 *     struct renames r = RENAMES_INIT;
 *     if (renames_commit(&r, repo, commit) < 0)
 *             ... error printed ...
 *     for (i = 0; i < r.nr; i++)
 *             ... r.items[i].from became r.items[i].to ...
 *     renames_release(&r);
 *
 * No setting is read (diff.renames, diff.renameLimit): every user of
 * a repository gets the same answer.
 */
struct rename {
	char *from, *to;
};

struct renames {
	struct rename *items;
	size_t nr, alloc;
};

#define RENAMES_INIT { NULL, 0, 0 }

/*
 * The renames of commit against its first parent (none for a root or
 * a merge): among the files it deletes and those it adds.  Appends to
 * out; returns 0, or -1 after an error message.
 */
int renames_commit(struct renames *out, git_repository *repo,
		   const git_commit *commit);

/*
 * The renames from a to b among the paths given: those that only a has
 * are the sources, those that only b has the targets (a path both have
 * is neither).  Appends to out; returns 0, or -1 after an error
 * message.
 */
int renames_trees(struct renames *out, git_repository *repo,
		  const git_tree *a, const git_tree *b,
		  char *const *paths, size_t nr);

/*
 * Where tree has the sources, paths base has and tree lacks, under
 * other names, as git cherry-pick finds them when it picks a commit
 * whose parent is base onto tree: the renames from base to tree, the
 * targets every file tree has and base lacks.  The cost follows the
 * size of the difference of the two trees; an answer is kept, and the
 * same question asked again is answered from it (renames_forget()).
 * Appends to out; returns 0, or -1 after an error message.
 */
int renames_onto(struct renames *out, git_repository *repo,
		 const git_tree *base, const git_tree *tree,
		 char *const *sources, size_t nr);

/*
 * Drops the answers renames_onto() keeps (by the ids of its trees and
 * its sources, for the life of the process).
 */
void renames_forget(void);

/* The rename whose target is path, or NULL. */
const struct rename *renames_to(const struct renames *r, const char *path);

/* The rename whose source is path, or NULL. */
const struct rename *renames_from(const struct renames *r, const char *path);

/* Frees what r owns and initialises it again. */
void renames_release(struct renames *r);

#endif
