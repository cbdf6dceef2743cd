#ifndef PATCHID_DIFF_H
#define PATCHID_DIFF_H

#include <git2.h>
#include <stddef.h>
#include <stdint.h>

/*
 * What patchid.c (the diff git show would print) and patchid-rename.c
 * (git's rename detection) share: the file pairs of a change.  Not for
 * other callers: the API is patchid.h.
 *
 *     pairs = ... one a path of the tree diff, in git's order ...
 *     if (patchid_detect_renames(repo, pairs, nr) < 0)
 *             ... error printed ...
 *     ... a destination renamed has its source's side as one, renamed
 *         and score set; its source's pair is marked gone ...
 */

#define MODE_TYPE 0170000
#define MODE_REG 0100000
#define MODE_GITLINK 0160000

struct side {
	const char *path;
	git_oid id;
	uint32_t mode;			/* 0: absent */
};

struct filepair {
	struct side one, two;
	int renamed;
	int score;			/* similarity, of MAX_SCORE */
	int gone;			/* the source of a rename */
};

/* Similarity as git scores it: MAX_SCORE is 100%. */
#define MAX_SCORE 60000

/*
 * Pairs the deleted files of pairs with the added ones as git's
 * diffcore-rename.c does by default (no copies, no breaks, rename
 * limit 1000): a destination renamed gets its source's side as one,
 * renamed and score set; the source's pair is marked gone.  Returns 0, or -1 after an error
 * message (a blob that cannot be read).
 */
int patchid_detect_renames(git_repository *repo, struct filepair *pairs,
			   size_t nr);

/*
 * 1 if no gitattributes file of repo can apply to path (none in its
 * directories, in the working tree or the index, nor outside the tree),
 * so that libgit2 needs not look the "diff" attribute up; 0 if one
 * could, or if that cannot be told (patchid-attr.c).  What it finds is
 * kept per thread and per directory.
 */
int patchid_no_attributes(git_repository *repo, const char *path);

#endif
