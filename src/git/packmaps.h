#ifndef PACKMAPS_H
#define PACKMAPS_H

#include <git2.h>

/*
 * libgit2 reads a pack through windows it maps: 32 MiB each (set in
 * main(), with a limit of 512 MiB mapped in all, past which the least
 * recently used window is unmapped).  A window starts at a multiple of
 * half its size and spans its whole size, so windows overlap by half,
 * and a page read through two of them counts twice in the resident
 * size: on the 100,000-commit bench (a 76 MB pack), 120 MiB of mapped
 * pages for 95 MiB of pack and index.  When all the repository's packs
 * fit in the limit together, nothing is ever unmapped anyway: each is
 * then mapped whole, in one window, as git maps it (its windows are
 * 1 GiB).  Larger repositories keep the small windows, which the limit
 * can unmap, as do those that borrow objects from another one
 * (objects/info/alternates: git clone --reference), whose packs are
 * not counted.
 */

/*
 * Sizes the windows for repo's packs (GIT_OPT_SET_MWINDOW_SIZE, for the
 * process); before its objects are read.
 */
void packmaps_fit(git_repository *repo);

/* The window size for packs that fit: twice the largest that fits. */
#define PACKMAPS_WHOLE ((size_t)1 << 30)

/* The limit on mapped pack windows main() sets. */
#define PACKMAPS_LIMIT ((size_t)512 << 20)

/* The window size main() sets, for packs that do not fit the limit. */
#define PACKMAPS_WINDOW ((size_t)32 << 20)

#endif
