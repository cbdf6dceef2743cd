#ifndef TREEDIFF_H
#define TREEDIFF_H

#include <git2.h>
#include <stddef.h>
#include <stdint.h>

#include "base/sha1.h"

/*
 * The files two trees disagree on, found the way git's diff-tree finds
 * them: entries are merged in tree order and a subtree is opened only
 * when its id differs on the two sides, so the cost follows the size of
 * the change, not of the tree (libgit2's git_diff_tree_to_tree visits
 * every entry of both trees, 30,000 for a kernel).
 *
 *     struct treediff d = TREEDIFF_INIT;
 *     if (treediff_commit(&d, repo, commit) < 0)
 *             ... error printed ...
 *     for (i = 0; i < d.nr; i++)
 *             ... d.items[i].path, old_mode 0 for an added file ...
 *     treediff_release(&d);
 *
 * Entries come in git's order (by full path).  No rename detection:
 * a rename is a deletion and an addition.  A path whose type changes
 * between a file and a directory is a deletion of the one and
 * additions (or deletions) of the files of the other; a regular file
 * that becomes a symlink or changes mode is one entry with both sides.
 * Submodules (gitlinks) are files here.
 */
struct treediff_entry {
	char *path;
	git_oid old_id, new_id;
	uint32_t old_mode, new_mode;	/* 0: absent on that side; else
					   normalised as git does (0100644,
					   0100755, 0120000, 0160000) */
};

struct treediff {
	struct treediff_entry *items;
	size_t nr, alloc;
};

#define TREEDIFF_INIT { NULL, 0, 0 }

/*
 * Appends to out the differences from a to b; either may be NULL (an
 * empty tree).  Returns 0, or -1 after an error message.
 */
int treediff_trees(struct treediff *out, git_repository *repo,
		   const git_tree *a, const git_tree *b);

/*
 * The files b has and a (NULL: an empty tree) lacks: the entries
 * treediff_trees() gives with old_mode 0, gitlinks left out, in its
 * order.  Appended to *paths (ALLOC_GROW'n, with *nr and *alloc; the
 * caller frees each).  What is found for a pair of subtrees is kept
 * for the life of the process (treediff_forget()): many questions
 * against one tree (the branch tip, against each pick's parent) read
 * each pair of subtrees once.  0, or -1 after an error message.
 */
int treediff_added(char ***paths, size_t *nr, size_t *alloc,
		   git_repository *repo, const git_tree *a, const git_tree *b);

/* Drops what treediff_added() keeps. */
void treediff_forget(void);

/* The change of commit against its first parent (a root: all added). */
int treediff_commit(struct treediff *out, git_repository *repo,
		    const git_commit *commit);

/*
 * A digest of the paths commit changes (against its first parent),
 * with whitespace taken out as the patch-id does: two commits with the
 * same patch-id have the same key, since a patch-id hashes the
 * "diff --git a/X b/Y" line of every file it changes.  So a key that no
 * other commit has rules a patch-id match out, without a diff.
 * Returns 0, or -1 after an error message.
 */
int treediff_pathkey(unsigned char *key, git_repository *repo,
		     const git_commit *commit);

/* The same key from a diff at hand (d's paths lose their whitespace). */
void treediff_key(unsigned char *key, struct treediff *d);

/* The same key from a list of paths (changed in place, and sorted). */
void treediff_key_of(unsigned char *key, char **paths, size_t nr);

/* Frees what d owns and initialises it again. */
void treediff_release(struct treediff *d);

#endif
