#ifndef BLAME_INTERNAL_H
#define BLAME_INTERNAL_H

#include <git2.h>
#include <stddef.h>

#include "stages/match.h"

/*
 * What the files of the blame stage share, and no one else: blame.c
 * blames (libgit2's walk, what is kept in the trial cache, the likely
 * prerequisites), blame-history.c blames from the range's own commits.
 */

/* Lines first..last (from 1) of the preimage, both included. */
struct line_range {
	size_t first, last;
};

struct hunks {
	struct line_range *v;
	size_t nr, alloc;
	size_t lines;			/* how many the preimage has */
};

/* The commits a blame found, each once, in the order found. */
struct found {
	git_oid *v;
	size_t nr, alloc;
};

void found_add(struct found *f, const git_oid *id);

/*
 * The blame of lines first..last of path at parent (pick's first
 * parent), back to base, from the range's own commits, as libgit2's
 * would find it: into f, the commits in the order of the lines of hs.
 * 1 when done; 0 when libgit2 must blame (f is then empty); -1 after an
 * error message.
 */
int blame_history(struct found *f, struct match *m, const git_oid *pick,
		  const git_oid *parent, const git_oid *base, const char *path,
		  const struct hunks *hs, size_t first, size_t last);

/* Drops what blame_history() keeps for the run. */
void blame_history_forget(void);

#endif
