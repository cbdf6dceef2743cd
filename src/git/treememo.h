#ifndef TREEMEMO_H
#define TREEMEMO_H

#include <git2.h>

/*
 * Trees read again and again, the most recently used kept up to a
 * bound (TREEMEMO_ENTRIES).  The trial picks read the same directories
 * for pick after pick: the branch's fs/ for every pick that changes a
 * file below it (6,335 times on the 100,000-commit bench, and at 4.7 KB
 * it is too big for libgit2's cache), and the rename check of a pick
 * (renames.h) walks the pick's parent against the branch, directory by
 * directory.  libgit2's cache, in turn, keeps every small tree read
 * until it is full: during the checks, 185 MB of the run on the
 * 1,000,000-commit bench, most of them one pick's trees.  The checks
 * pause it for trees (objcache.h) and keep these alone; they run as
 * fast as before with a tenth of the memory.
 *
 *     git_tree *t = treememo_lookup(repo, id);
 *     if (!t)
 *             ... libgit2's error ...
 *     ... read t ...
 *     git_tree_free(t);
 *     ...
 *     treememo_forget();        before repo is freed
 *
 * For one thread at a time (the trial picks' and the checks'); the
 * patch-id workers do not use it.
 */

/* About 64 bytes an entry, as read and parsed: 8 MB. */
#define TREEMEMO_ENTRIES ((size_t)1 << 17)

/* The tree id of repo, a reference of the caller's, or NULL. */
git_tree *treememo_lookup(git_repository *repo, const git_oid *id);

/*
 * As git_tree_entry_bypath(), with the trees on the way down from the
 * memo: the entry at path in tree, or NULL (no such entry, or an error,
 * cleared).  The caller frees it.
 */
git_tree_entry *treememo_entry_at(const git_tree *tree, const char *path);

/* The lookups the memo answered, and those it read; for the trace. */
void treememo_counts(size_t *hits, size_t *reads);

/* Drops every tree kept. */
void treememo_forget(void);

#endif
