#ifndef GAPS_H
#define GAPS_H

#include <git2.h>
#include <stddef.h>

#include "formats/rules.h"

/*
 * The gaps of the rules in a range: the commits that change files no
 * subsystem watches (whatever its policy, so an ignored subsystem is
 * no gap), by directory, so that a project's overlay that forgets a
 * directory is seen the first day (rules check).
 *
 *     struct gaps g;
 *     gaps_init(&g);
 *     if (gaps_find(&g, repo, &rs, &from, &to) < 0)
 *             ... error printed ...
 *     for (i = 0; i < g.nr; i++)
 *             ... g.dirs[i].dir, g.dirs[i].commits ...
 *     gaps_release(&g);
 *
 * A file is counted in the first directory on its path that no path
 * spec names anything inside ("tests/" when nothing of tests/ is
 * watched), else in its own directory ("src/" for src/main.c when
 * src/core/ is watched but not src/ itself).  Files at the top of the
 * tree, which no path spec can name, are counted apart.  Merges are
 * not walked, as the scan does not score them.
 */
struct gap_dir {
	char *dir;		/* with its trailing '/' */
	size_t commits;		/* commits that change a file of it */
};

struct gaps {
	size_t walked;		/* the commits of the range, merges aside */
	size_t unwatched;	/* of which change a file in a gap */
	size_t unseen;		/* of which change no watched file at all */
	size_t top;		/* commits that change a file at the top */
	struct gap_dir *dirs;	/* most commits first, then by name */
	size_t nr, alloc;
};

void gaps_init(struct gaps *g);
void gaps_release(struct gaps *g);

/*
 * Walks from..to (from may be NULL: all of to's history) and fills g.
 * Returns 0, or -1 after an error message.
 */
int gaps_find(struct gaps *g, git_repository *repo, const struct ruleset *rs,
	      const git_oid *from, const git_oid *to);

#endif
