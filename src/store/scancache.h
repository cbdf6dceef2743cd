#ifndef SCANCACHE_H
#define SCANCACHE_H

#include <git2.h>
#include <stddef.h>
#include <stdint.h>

#include "base/cachefile.h"
#include "base/sha1.h"

/*
 * What a scan found, kept between runs so that the next run walks only
 * the commits that are new: for a watch set (the subsystems and their
 * paths, by digest) and a range from..to, the walked commits that touch
 * it, newest first, with the subsystems each touches and the first
 * release and release candidate that contain it (soak painting).
 *
 *     struct scancache cache;
 *     scancache_init(&cache, ".git/stablepick/scan-cache");
 *     scancache_load(&cache);           warns and starts empty if bad
 *     m = scancache_find(&cache, key, &from);
 *     ... scan, then scancache_put(&cache, new_memo) ...
 *     scancache_save(&cache);
 *     scancache_release(&cache);
 *
 * The file is binary, in network byte order:
 *
 *     "STABLEPICK-SCAN\n"  16 bytes
 *     u32 version (SCANCACHE_VERSION)
 *     u32 number of memos, then each memo:
 *       20-byte key; u8 has_from; 20-byte from; 20-byte to;
 *       u32 walked; u32 merges; u32 left_out; u8 reaches_from;
 *       u32 names, then each: u32 length, bytes   (subsystem names, or
 *           the directory of one a template derives: "fs/reiserfs/")
 *       u32 tags, then each: u32 length, bytes    (tag names)
 *       u32 hits, then each: 20-byte commit id, u8 settled,
 *           i32 release, i32 rc (indices into tags, -1: none),
 *           u32 touched, then u32 index into names for each,
 *           u8 has_pathkey, 20-byte path key, u8 paths_known,
 *           u32 paths, then each: u32 length, bytes (watched paths),
 *           u32 old paths, then each: u32 length, bytes (those of the
 *           paths that existed before the commit),
 *           u32 length, author ("Name <email>"), u32 high and u32 low
 *           half of the author time, u32 its zone offset in minutes
 *           (two's complement), u32 length, the message
 *       u32 commits, then each 20-byte id (the whole range, sorted)
 *     u32 number of bases, then each: u32 length, branch name, 20-byte
 *       base, u32 commits after the base
 *     u32 number of subjects, then each: 20-byte upstream tip, u32
 *       length, subject, u8 found, 20-byte commit id (zeros: none)
 *     8-byte 64-bit hash of everything before it (cachefile.h)
 *
 * A file with another magic or version, a wrong checksum or a record
 * that runs past the end is not trusted: a warning names it and the run
 * goes on as if there were no cache (the next save replaces it).
 */

#define SCANCACHE_VERSION 5

struct scan_memo_hit {
	git_oid id;
	int settled;			/* release and rc are known */
	int32_t release, rc;		/* into memo->tags; -1: none */
	uint32_t *touched;		/* into memo->names */
	size_t nr_touched;
	int has_pathkey;
	unsigned char pathkey[SHA1_RAWSZ];	/* treediff_pathkey() */
	int paths_known;		/* paths and old_paths are known */
	char **paths;			/* the watched paths it changes */
	size_t nr_paths;
	char **old_paths;		/* of those, the ones it did not add */
	size_t nr_old_paths;
	/* What the scan reads of the commit itself: a run again reads
	   no commit object for it. */
	char *author;			/* "Name <email>" */
	int64_t time;			/* the author date, and its zone */
	int32_t tz_offset;		/* in minutes */
	char *raw;			/* the message */
};

struct scan_memo {
	unsigned char key[SHA1_RAWSZ];
	int has_from;
	git_oid from, to;
	size_t walked, merges, left_out;
	int reaches_from;		/* a commit of it has from as parent */
	char **names;
	size_t nr_names;
	char **tags;
	size_t nr_tags;
	struct scan_memo_hit *hits;	/* newest first */
	size_t nr_hits, alloc_hits;
	git_oid *range;			/* every commit walked, sorted */
	size_t nr_range, alloc_range;
};

/* Whether id is one of m's range; m->range must be sorted. */
int scan_memo_in_range(const struct scan_memo *m, const git_oid *id);

struct scancache {
	char *path;
	struct scan_memo **memos;
	size_t nr, alloc;
	struct scancache_base *bases;
	size_t nr_bases, alloc_bases;
	struct scancache_subject *subjects;	/* the oldest tip's first */
	size_t nr_subjects, alloc_subjects;
	int dirty;
	/* The checksum of the file as loaded: an unchanged cache is not
	   written again (a warm run would rewrite megabytes). */
	unsigned char loaded[CACHEFILE_RAWSZ];
	int has_loaded;
};

void scancache_init(struct scancache *c, const char *path);
void scancache_release(struct scancache *c);

/* Reads the file if there is one; never fails (see above). */
void scancache_load(struct scancache *c);

/* The memo of key and from (NULL: a range with no start), or NULL. */
const struct scan_memo *scancache_find(const struct scancache *c,
				       const unsigned char *key,
				       const git_oid *from);

/*
 * Keeps m (the cache takes it over), in place of the memo of the same
 * key and from.  At most SCANCACHE_MAX memos are kept, the newest.
 */
#define SCANCACHE_MAX 8
void scancache_put(struct scancache *c, struct scan_memo *m);

/*
 * Writes the file if anything changed (what it would write differs from
 * what was loaded): 0, or -1 after an error message.
 */
int scancache_save(struct scancache *c);

/*
 * The base found for a branch last time, to try first (a merge base
 * costs a walk of all history without a commit-graph).  The caller
 * must prove it (see run_scan() in run.c).
 */
struct scancache_base {
	char *branch;
	git_oid base;
	size_t nr_commits;		/* the branch's, after the base */
};
const struct scancache_base *scancache_find_base(const struct scancache *c,
						 const char *branch);
void scancache_put_base(struct scancache *c, const char *branch,
			const git_oid *base, size_t nr_commits);

/*
 * A subject looked for in mainline (a Fixes: tag whose id does not
 * resolve, or names a commit of another subject: deps.c): the first
 * commit of that subject that a walk down from the upstream tip meets,
 * or none.  The answer holds for that tip alone, so it is kept by tip
 * and subject; the subjects of the SCANCACHE_MAX_TIPS tips put last
 * are kept.
 */
struct scancache_subject {
	git_oid tip;
	char *subject;
	int found;
	git_oid id;			/* when found */
};
#define SCANCACHE_MAX_TIPS 8
const struct scancache_subject *scancache_find_subject(const struct scancache *c,
						       const git_oid *tip,
						       const char *subject);
/* id NULL: the walk from tip met no commit of that subject. */
void scancache_put_subject(struct scancache *c, const git_oid *tip,
			   const char *subject, const git_oid *id);

struct scan_memo *scan_memo_new(void);
void scan_memo_free(struct scan_memo *m);
/* The index of name in m->names (or m->tags), added if missing. */
uint32_t scan_memo_name(struct scan_memo *m, const char *name);
uint32_t scan_memo_tag(struct scan_memo *m, const char *name);

#endif
