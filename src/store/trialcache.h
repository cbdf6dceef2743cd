#ifndef TRIALCACHE_H
#define TRIALCACHE_H

#include <git2.h>
#include <stddef.h>
#include <stdint.h>

#include "base/sha1.h"

/*
 * What trial picks found, kept between runs: a pick's result is decided
 * by its inputs alone (apply.h, apply_series_check_cached(), says which
 * and how they make its key), so a run that meets the same inputs again
 * takes the result from here instead of merging.  Also the paths each
 * picked commit changes (against its first parent), which its key needs
 * and which never change for a commit id.  And what blame found: the
 * commits that made the lines a pick changes in the files it conflicts
 * on (blame.h), decided by the pick's id, the base and the paths, as a
 * blame walks only the history those ids name.  The series search
 * keeps its answers of ancestry as blames too (applywith.c: "does
 * commit descend from ancestor?", which never changes for two ids).
 *
 *     struct trialcache cache;
 *     trialcache_init(&cache, ".git/stablepick/trial-cache");
 *     trialcache_load(&cache);          warns and starts empty if bad
 *     rec = trialcache_find(&cache, key);
 *     ... or pick, then trialcache_put(&cache, key, &rec) ...
 *     trialcache_save(&cache);
 *     trialcache_release(&cache);
 *
 * The file is binary, in network byte order:
 *
 *     "STABLEPICK-TRIAL"  16 bytes
 *     u32 version (TRIALCACHE_VERSION)
 *     u32 generation (the runs that wrote the file, counted)
 *     u32 number of path lists, then each: 20-byte commit id,
 *       u32 generation last used, u32 paths, then each: u32 length, bytes;
 *       then for each path a byte, 1 when the first parent has a file
 *       (not a gitlink) there
 *     u32 number of results, then each: 20-byte key,
 *       u32 generation last used, u8 applies,
 *       u32 conflicts, then each: u32 length, bytes,
 *       u32 changes, then each: u32 length, bytes (the path),
 *           u32 mode (0: removed), 20-byte id
 *     u32 number of blames, then each: 20-byte key,
 *       u32 generation last used, u32 commits, then each: 20-byte id
 *     8-byte 64-bit hash of everything before it (cachefile.h)
 *
 * Its size is bounded: what no run of the last TRIALCACHE_RUNS that
 * wrote the file used is dropped.  A file with another magic or
 * version, a wrong checksum or a record that runs past the end is not
 * trusted: a warning names it and the run goes on as if there were no
 * cache (the next save replaces it).
 */

#define TRIALCACHE_VERSION 4
#define TRIALCACHE_RUNS 8

/* One entry a pick changed: the path, the new mode (0: removed) and id. */
struct trial_change {
	char *path;
	uint32_t mode;
	git_oid id;
};

/* What a trial pick found. */
struct trial_record {
	int applies;
	char **conflicts;		/* sorted, unique */
	size_t nr_conflicts;
	struct trial_change *changes;	/* sorted by path */
	size_t nr_changes;
};

struct trialcache_result;
struct trialcache_paths;
struct trialcache_blame;
struct trialcache_keyed;

struct trialcache {
	char *path;
	/*
	 * The keys of the last series keyed (apply-keys.c), for the next
	 * one that starts with the same picks onto the same commit, and
	 * the picks whose trees were found: kept for the run, not
	 * written; freed with free_keyed.
	 */
	struct trialcache_keyed *keyed;
	void (*free_keyed)(struct trialcache_keyed *);
	struct trialcache_result *results;	/* uthash by key */
	struct trialcache_paths *paths;		/* uthash by commit id */
	struct trialcache_blame *blames;	/* uthash by key */
	struct trialcache_entry *entries;	/* uthash, this run's only */
	uint32_t generation;		/* as loaded */
	int added;			/* something new to write */
	/*
	 * For the trace: picks taken from here, and picks made; keys
	 * taken from the series keyed before; picks taken from here
	 * whose trees were looked for in the repository.
	 */
	size_t hits, computed, keys_reused, trees_checked;
	size_t blame_hits, blame_computed;	/* the same, of blames */
};

void trialcache_init(struct trialcache *c, const char *path);
void trialcache_release(struct trialcache *c);

/* Reads the file if there is one; never fails (see above). */
void trialcache_load(struct trialcache *c);

/* The result of key (SHA1_RAWSZ bytes), marked used, or NULL. */
const struct trial_record *trialcache_find(struct trialcache *c,
					   const unsigned char *key);

/* Keeps a copy of r under key. */
void trialcache_put(struct trialcache *c, const unsigned char *key,
		    const struct trial_record *r);

/*
 * The paths commit id changes (sorted), marked used; NULL when not
 * known.  With them, if in_parent is not NULL, a flag for each: 1 when
 * its first parent has a file there (not a gitlink), as a trial pick's
 * key asks (apply-keys.c).
 */
char *const *trialcache_find_paths(struct trialcache *c, const git_oid *id,
				   size_t *nr, const unsigned char **in_parent);
/* Keeps a copy of the nr paths of id and of their flags. */
void trialcache_put_paths(struct trialcache *c, const git_oid *id,
			  char *const *paths, const unsigned char *in_parent,
			  size_t nr);

/*
 * What a tree has at a path, as a trial pick's key hashes it
 * (apply-keys.c), and its length in *len; NULL when not known.  Kept
 * for the run, not written: the searches of a run key many series onto
 * the same branch tip, and their picks share files.
 */
const char *trialcache_find_entry(struct trialcache *c, const git_oid *tree,
				  const char *path, size_t *len);
/* Keeps a copy of the len bytes that tree has at path. */
void trialcache_put_entry(struct trialcache *c, const git_oid *tree,
			  const char *path, const char *bytes, size_t len);

/*
 * The commits a blame of key (SHA1_RAWSZ bytes) found, marked used
 * (*nr of them); NULL when not known.
 */
const git_oid *trialcache_find_blame(struct trialcache *c,
				     const unsigned char *key, size_t *nr);
/* Keeps a copy of the nr commits a blame of key found. */
void trialcache_put_blame(struct trialcache *c, const unsigned char *key,
			  const git_oid *ids, size_t nr);

/*
 * Writes the file, unless the run added nothing and used only what the
 * last writer used: 0, or -1 after an error message.
 */
int trialcache_save(struct trialcache *c);

/* Frees what r owns. */
void trial_record_release(struct trial_record *r);

#endif
