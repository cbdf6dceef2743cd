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
 * Trees: the scan reads each tree about once, and the checks keep the
 * trees they read again in treememo.h; on a 100,000-commit history,
 * 90 MiB of a peak of 380, for no time saved.
 *
 * Commits: the scan's loop reads a commit only when it changes a
 * watched path (the history walk gave every tree id: src/history.h),
 * once; the checks after read the candidates again.
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
