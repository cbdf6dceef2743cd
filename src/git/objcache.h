#ifndef OBJCACHE_H
#define OBJCACHE_H

/*
 * libgit2's object cache is process-wide (its size is set in main())
 * and keeps every commit and tree of up to 4 KiB read until it is
 * full.  A walk that reads each tree about once (the scan) would fill
 * it with trees nothing asks for again, and the peak memory with them:
 * on a 100,000-commit history, 90 MiB of 380, for no time saved.  Such
 * a walk reads between objcache_pause_trees() and
 * objcache_resume_trees(); pairs nest.  Only while no other thread
 * reads objects (the patch-id workers run alone).
 *
 * Commits stay cached: a walk reads a parent for its tree id, then the
 * parent itself, and a header read by the history walks (src/history.h)
 * is parsed from the cache; without them the scan takes twice as long.
 */

/* From now on, trees read are not kept. */
void objcache_pause_trees(void);

/* Ends the pause of the matching objcache_pause_trees(). */
void objcache_resume_trees(void);

#endif
