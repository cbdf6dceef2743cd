#ifndef APPLY_INTERNAL_H
#define APPLY_INTERNAL_H

#include <git2.h>
#include <stdint.h>

#include "git/apply.h"
#include "base/sha1.h"

/*
 * What the files of the apply module share, and no one else: apply.c
 * holds the results and the picks themselves (a cherry-pick by
 * libgit2, or a series picked file by file onto a tree), apply-odb.c
 * the object store behind them (the store in memory, the blobs and
 * trees a trial reads, the objects it cannot find), apply-keys.c the
 * keys of the picks, apply-series.c the series kept by their inputs in
 * the trial cache (apply_series_check_cached()) and made again for a
 * patch.
 */

/* Records that the pick sets path to (mode, id); mode 0 removes it. */
void apply_add_change(struct apply_result *r, const char *path,
		      uint32_t mode, const git_oid *id);
/* Adds path to r's conflicts (apply.c sorts them once a pick is made). */
void apply_add_conflict(struct apply_result *r, const char *path);

/*
 * Picks one commit of a series onto *tree, a tree that no commit has
 * (tip, the tree of the commit the series is picked onto, after the
 * earlier picks).  Only the files the pick changes are merged
 * (three-way, against the pick's parent), so the cost follows the size
 * of the change, not of the tree.  A file the pick changes that its
 * parent has and tip lacks is followed as git cherry-pick follows it:
 * when git's rename detection (git/renames.h) finds it in *tree under
 * another name, among the files the parent lacks, the change goes
 * there (and the pick removing it conflicts, as git's rename/delete
 * does).  Renames the pick itself makes are a removal and an addition.
 * When the pick applies, *tree is replaced by the result.  out must be
 * initialised and empty.  0, or -1 after an error message.
 */
int apply_pick_onto_tree(struct apply_result *out, git_repository *repo,
			 const git_tree *tip, git_tree **tree,
			 const git_commit *pick);

/*
 * Reads the blob of e into *blob and sets up in as one side of the
 * three-way merge of path (in borrows the blob's content).  0, or
 * libgit2's error.
 */
int apply_blob_input(git_merge_file_input *in, git_blob **blob,
		     git_repository *repo, const git_tree_entry *e,
		     const char *path);

/*
 * The file merges kept in memory (apply-odb.c), by the blobs merged:
 * apply_merge_known() says 1 (clean, *result set: the merged blob,
 * which repo has), 0 (a conflict) or -1 (not made yet, or its result
 * is not in repo); apply_merge_keep() keeps a merge just made.
 */
int apply_merge_known(git_repository *repo, const git_oid *base,
		      const git_oid *ours, const git_oid *theirs,
		      git_oid *result);
void apply_merge_keep(const git_oid *base, const git_oid *ours,
		      const git_oid *theirs, int clean, const git_oid *result);

/*
 * Why a tree could not be recorded, when it is that a file the pick
 * brings is missing from the repository (libgit2 names only the file):
 * -1 after naming the blob, else 0.
 */
int apply_missing_blob(git_repository *repo, const char *hex,
		       const git_tree_update *ups, size_t nr);

/*
 * A pick taken from the cache reads nothing of its commit: that the
 * trees it would read are in the repository is checked (an index
 * look-up each), so that a damaged repository is not hidden by a
 * cache, with the errors of apply_pick_onto_tree().  0, or -1 after an
 * error message.
 */
int apply_trees_at_hand(git_repository *repo, git_odb *odb,
			const git_commit *pick);

/*
 * The earlier picks of a series a pick depends on (apply-keys.c), by
 * their positions, ascending: shared, counted, by the series and the
 * keys kept for the series after it.  A series of 15,000 picks has
 * two million of them.  NULL: none.
 */
struct pick_deps {
	unsigned int refs;
	uint32_t nr;
	uint32_t at[];
};

struct pick_deps *pick_deps_ref(struct pick_deps *d);
void pick_deps_unref(struct pick_deps *d);

/* A pick of a series, as much as making its trees again needs. */
struct series_pick {
	git_oid id;
	int known;			/* applies and changes are known */
	int applies;
	struct trial_change *changes;
	size_t nr_changes;
	struct pick_deps *deps;		/* the earlier picks on its paths */
	int after_all;			/* or all the earlier picks */
};

/*
 * A series, shared by the results of its picks (counted references), so
 * that apply_result_patch() can make a result's trees again long after
 * the series was tried.
 */
struct apply_series {
	int refs;
	git_oid onto;			/* the commit picked onto */
	struct series_pick *picks;
	size_t nr;
	/*
	 * The trees of the picks that applied, as made
	 * (apply_series_make_trees()): built[i] is 1 when they are, 2
	 * when making them failed.  patch[i] marks a pick whose patch
	 * will be asked for (apply_result_want_patch()).
	 */
	git_oid *before, *after;
	char *built;
	char *patch;
};

/* Drops a result's reference to its series (NULL: none). */
void apply_series_unref(struct apply_series *s);

/*
 * The keys of a series' picks (apply.h says what a key holds), made in
 * order by series_keys_add(), in apply-keys.c:
 *
 *     series_keys_init(&k, cache, tip, onto, picks, nr);
 *     for each pick i: series_keys_add(&k, s, i, paths, in_parent, n);
 *         ... k.keys + i * SHA1_RAWSZ is its key ...
 *     series_keys_release(&k);
 *
 * The first picks that start the series keyed last onto the same
 * commit take the keys it found (a search tries every set after the
 * same proposals): the cache keeps them for the run.
 */
struct path_slot;
struct series_keys {
	struct trialcache *cache;
	const git_tree *tip;		/* the tree picked onto */
	unsigned char *keys;		/* SHA1_RAWSZ each */
	/* The digests of the keys so far, and of those that follow renames. */
	unsigned char before[SHA1_RAWSZ], moved[SHA1_RAWSZ];
	/* The picks so far that followed renames on the branch; those by
	   the paths they change are the run's (apply-keys.c). */
	struct path_slot *moves;
	size_t reuse;			/* the first picks keyed before */
};

void series_keys_init(struct series_keys *k, struct trialcache *cache,
		      const git_tree *tip, const git_oid *onto,
		      const git_commit *const *picks, size_t nr);
/*
 * The key of pick i of s, whose paths are paths[0..nr) (and in_parent
 * their flags, as apply_pick_paths() gives them), into k->keys, and the
 * earlier picks it depends on into s->picks[i].deps.
 */
void series_keys_add(struct series_keys *k, struct apply_series *s, size_t i,
		     char *const *paths, const unsigned char *in_parent,
		     size_t nr);
void series_keys_release(struct series_keys *k);

/*
 * apply_trees_at_hand() for a pick taken from cache, once a run for
 * each pick (a repack that deletes packs during the run fails it
 * later, with "object not found", as apply-odb.c says).
 */
int apply_cached_trees_at_hand(struct trialcache *cache, git_repository *repo,
			       git_odb *odb, const git_commit *pick);

/*
 * The trees of a result from the cache, by replaying the changes the
 * cache recorded (picking again only a pick whose changes are not
 * known, or whose objects are gone).  The first one asked for makes
 * those of every patch announced (apply_result_want_patch()), or of
 * every pick that applied when none was, in one pass of the series.
 * 0, or -1 after an error message.
 */
int apply_series_make_trees(const struct apply_result *r,
			    git_repository *repo, git_oid *before,
			    git_oid *after);

#endif
