#ifndef OBJCACHE_H
#define OBJCACHE_H

/*
 * libgit2's object cache is process-wide (its size is set in main())
 * and keeps every commit and tree of up to 4 KiB read until it is
 * full.  A walk that reads each object about once would fill it with
 * objects nothing asks for again, and the peak memory with them.  Such
 * a walk reads between a pause and its resume; pairs nest.  Only while
 * no other thread reads objects (the patch-id workers run alone).
 *
 * Trees: the scan reads each tree about once, and the trial picks (the
 * checks, the series search) keep the trees they read again in
 * treememo.h; on a 100,000-commit history, 90 MiB of a peak of 380,
 * for no time saved.
 *
 * Commits: without a commit-graph, a merge base and the scan's walk
 * each read every commit of the range once, and the scan's loop reads
 * again only those that change a watched path (the walk gave every
 * tree id: src/history.h).  Kept, they held 25 MiB of the 100,000-
 * commit bench's peak, and up to the whole cache (128 MiB) at 1M.
 */

/* From now on, trees read are not kept. */
void objcache_pause_trees(void);

/* Ends the pause of the matching objcache_pause_trees(). */
void objcache_resume_trees(void);

/* From now on, commits parsed are not kept, nor raw ones read. */
void objcache_pause_commits(void);

/* Ends the pause of the matching objcache_pause_commits(). */
void objcache_resume_commits(void);

#endif
