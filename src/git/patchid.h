#ifndef PATCHID_H
#define PATCHID_H

#include <git2.h>
#include <stddef.h>
#include <uthash.h>

/*
 * Patch-ids: an identity of a commit's change that survives a
 * cherry-pick to another base, so that a backport which names no
 * upstream commit can still be recognised.
 *
 * patchid_commit() gives the id that
 *
 *     git show <commit> | git patch-id --stable
 *
 * prints (git 2.39), computed with libgit2 and no git process:
 *
 *   - the diff against the first parent (a root commit: against the
 *     empty tree), with git's default rename detection (diff.renames is
 *     true by default since git 2.9): exact renames, then same-basename
 *     pairs, then the similarity matrix, scored as git scores them, so
 *     the "similarity index" lines agree;
 *   - whitespace is removed from every hashed line and hunk headers
 *     (line numbers) are not hashed;
 *   - "index" lines are not hashed, except that a binary file
 *     contributes the two abbreviated blob ids of its "index" line
 *     (abbreviated as git does by default, from the number of packed
 *     objects and made unique), instead of its content;
 *   - --stable: each file's lines are hashed separately and the SHA-1s
 *     are added as 160-bit numbers, so the order of files does not
 *     matter.  git's quirks are kept: a file with no hunks (a pure mode
 *     change or rename) is hashed together with the file after it, and
 *     the "diff --git" line of a file that follows a binary file is not
 *     hashed.
 *
 * Settings that would change git's output (diff.renames, diff.algorithm,
 * core.abbrev, ...) are not read: the id is that of git without user
 * configuration.  A merge is diffed against its first parent (git show
 * would print a combined diff).
 *
 * Returns 0 and fills *out; GIT_ENOTFOUND if the commit changes nothing
 * (git patch-id prints nothing for it); another negative libgit2 code
 * or -1 after an error message.
 */
int patchid_commit(git_oid *out, git_repository *repo,
		   const git_commit *commit);

/*
 * The same of the change from tree a (NULL: the empty tree) to tree
 * b, for a commit libgit2 cannot parse (src/malformed.h).
 */
int patchid_trees(git_oid *out, git_repository *repo, git_tree *a,
		  git_tree *b);

/*
 * The patch-id of a diff as text ("diff --git ..." lines, as a patch
 * mail carries it after its message), as git patch-id --stable reads
 * it: what comes before the first "diff " line and after the last hunk
 * is not hashed.  Returns 0; GIT_ENOTFOUND when the text holds no diff
 * or a binary file (whose ids a mail abbreviates: not comparable).
 */
int patchid_text(git_oid *out, const char *text);

/*
 * A cache of patch-ids keyed by commit id, so that a re-run does not
 * diff again.  By default it lives in <gitdir>/stablepick/patchid-cache.
 *
 *     struct patchid_cache cache;
 *     patchid_cache_init(&cache, path);
 *     patchid_cache_load(&cache);
 *     for (each commit) {
 *             ret = patchid_cache_get(&cache, repo, commit, &id);
 *             if (ret == GIT_ENOTFOUND)
 *                     ... the commit has no diff ...
 *             else if (ret < 0)
 *                     ... error printed ...
 *     }
 *     patchid_cache_save(&cache);
 *     patchid_cache_release(&cache);
 *
 * The file is text: a first line "stablepick patchid cache 4", a line
 * "attributes <key>" (patchid_attributes_key(), the attributes its
 * patch-ids were computed with; zeros if not known), then one
 * line per commit, "<commit id> <patch-id> [<path key>]", with "-" for
 * the patch-id of a commit that has no diff and "?" for one not
 * computed, and the key of the paths it changes (treediff_pathkey())
 * when known; a last line "checksum <SHA-1 of all the lines before
 * it>".  A file of version 3 (no attributes line) or 2 (no path keys
 * either) is read too, its patch-ids of unknown attributes.  Patch-ids
 * of other attributes than the cache's (patchid_cache_set_attributes())
 * are forgotten as the file is read, and computed again; the path keys
 * are kept.  A file whose checksum does not match (a
 * flipped digit would be a wrong answer) or that has another first line
 * is not trusted at all: a warning names it and it is rebuilt.
 */

struct patchid_cache_entry {
	git_oid commit;
	git_oid id;
	int known;			/* the patch-id was computed */
	int has_diff;			/* 0: no diff, id is zero */
	unsigned char pathkey[20];	/* treediff_pathkey() of the commit */
	int has_pathkey;
	UT_hash_handle hh;
};

struct patchid_cache {
	char *path;
	struct patchid_cache_entry *entries;
	size_t nr;
	int dirty;			/* differs from the file */
	size_t computed;		/* patch-ids computed, not found */
	unsigned char attributes[20];	/* the key the patch-ids are of */
	int has_attributes;		/* 0: not known (the file's, if it says) */
};

void patchid_cache_init(struct patchid_cache *cache, const char *path);
void patchid_cache_release(struct patchid_cache *cache);

/*
 * Reads the file, if there is one.  The cache only saves time, so no
 * problem here is fatal: a file that cannot be read, has a foreign
 * first line or a wrong checksum is ignored, and a malformed line
 * ("path:line: ..." warning) is skipped.  Returns the number of entries
 * read.
 */
int patchid_cache_load(struct patchid_cache *cache);

/*
 * The attributes the cache's patch-ids are for (a patchid_attributes_key()),
 * before patchid_cache_load(): the file's of other attributes are not
 * read as such.
 */
void patchid_cache_set_attributes(struct patchid_cache *cache,
				  const unsigned char *key);

/*
 * patchid_cache_init(), patchid_cache_set_attributes() of repo's
 * attributes and patchid_cache_load() of path; NULL: no file, the cache
 * starts empty (its path is "").
 */
void patchid_cache_open(struct patchid_cache *cache, const char *path,
			git_repository *repo);

/*
 * The key (20 bytes) of every gitattributes file libgit2 reads when it
 * diffs a file of repo (whether it is binary, for a patch-id): by name
 * and bytes, $GIT_DIR/info/attributes, core.attributesFile (else the
 * XDG git/attributes), the system's gitattributes, the .gitattributes
 * of the index and those of the working tree in every directory the
 * index has a file in.  Another key, other patch-ids may be right.
 * (Not looked for: a .gitattributes in a directory of untracked files
 * alone.)
 */
void patchid_attributes_key(unsigned char *key, git_repository *repo);

/*
 * The patch-id of commit, from the cache or computed (and remembered,
 * "no diff" included).  Returns like patchid_commit().
 */
int patchid_cache_get(struct patchid_cache *cache, git_repository *repo,
		      const git_commit *commit, git_oid *out);

/*
 * The same by id, also for a commit libgit2 cannot parse
 * (src/malformed.h), read from its object as patch-id reads it.
 */
int patchid_cache_get_id(struct patchid_cache *cache, git_repository *repo,
			 const git_oid *id, git_oid *out);

/* Whether the cache knows commit's patch-id (or that it has none). */
int patchid_cache_has(const struct patchid_cache *cache, const git_oid *commit);

/*
 * Computes the patch-ids of the commits of ids (nr, repeats allowed)
 * that the cache does not know yet on threads threads (0: as many as
 * pay, patchid-pool.h), and remembers them, so that patchid_cache_get()
 * finds them; merges are left out, as patchid_cache_get() is never
 * asked for one.
 * Returns 0, or -1 after an error message.
 */
int patchid_cache_fill(struct patchid_cache *cache, git_repository *repo,
		       const git_oid *ids, size_t nr, int threads);

/*
 * The key of the paths commit changes against its first parent
 * (treediff_pathkey()), from the cache or computed (a tree diff, no
 * blob read) and remembered.  Returns 0, or -1 after an error message.
 */
int patchid_cache_pathkey(struct patchid_cache *cache, git_repository *repo,
			  const git_commit *commit, unsigned char *key);

/*
 * The same by id, also for a malformed commit; 1 (no key) for a commit
 * that has not one parent.
 */
int patchid_cache_pathkey_id(struct patchid_cache *cache, git_repository *repo,
			     const git_oid *id, unsigned char *key);

/*
 * Writes the file if anything changed: to "<path>.tmp" in the same
 * directory (created if missing), synced, then renamed over the file,
 * so that a crash never leaves a half-written cache.  Returns 0, or -1
 * after an error message with the old file left as it was.
 */
int patchid_cache_save(struct patchid_cache *cache);

#endif
