#ifndef SCAN_INTERNAL_H
#define SCAN_INTERNAL_H

/*
 * What the files of the scan module share, and nothing else includes:
 * scan.c (the walk, the cache replay and filling candidates),
 * scan-paths.c (the watched paths and templates), scan-fixes.c (the
 * commits a candidate names as fixed) and scan-refs.c (revisions, and
 * the errors of refs and shallow clones).  The API is scan.h.
 */

#include "stages/scan.h"

/* --- the watched paths (scan-paths.c) --------------------------------- */

void scan_watch_free(struct watch_node *n);

/*
 * Marks the subsystems whose watched paths differ between trees a (the
 * parent, may be NULL) and b (the commit) as touched by c.  Returns 0,
 * or -1 after an error message.
 */
int scan_watch_diff(struct scan *s, const git_tree *a, const git_tree *b,
		    struct candidate *c);

/*
 * The directories under which every change the watch can see lies, for
 * the changed-path Bloom filters: keys->v (the caller frees them).
 * Returns 0, or -1 when any path may count (a glob or a template at the
 * top of the tree).
 */
struct scan_keys {
	char **v;
	size_t nr, alloc;
};
int scan_watch_keys(const struct scan *s, struct scan_keys *keys);

/* 1 if sub is asked for (no --subsystem, or named by it). */
int scan_wanted(const struct scan *s, const struct subsystem *sub);

/*
 * Counts subsystem sub as changed by c, unless it is ignored (policy
 * ignore) or not asked for (--subsystem): then c->left_out says that a
 * watched path changed all the same.
 */
void scan_touch(const struct scan *s, struct candidate *c,
		const struct subsystem *sub);

/* --- what a candidate fixes (scan-fixes.c) ----------------------------- */

/*
 * The commits c names as those whose bugs it fixes, by the links of the
 * rules: c->msg.fixes, in place of what the message parser read.
 */
void scan_read_links(const struct ruleset *rs, struct candidate *c);

/* c->fixes: c->msg.fixes looked up in repo, with a warning if need be. */
void scan_resolve_fixes(git_repository *repo, struct candidate *c);

/* --- shallow clones (scan-refs.c) ------------------------------------- */

/*
 * The commits a shallow clone lacks the parents of, from .git/shallow,
 * into *out (the caller frees it); none if repo is not shallow.
 * Returns 0, or -1 after an error message.
 */
int scan_read_shallow(git_repository *repo, git_oid **out, size_t *nr);

/* 1 if id is one of the nr commits of shallow. */
int scan_is_shallow(const git_oid *shallow, size_t nr, const git_oid *id);

/*
 * 1 if history stops at commit, one .git/shallow lists: the repository
 * lacks a parent it names.
 */
int scan_history_cut(git_repository *repo, const git_commit *commit);

#endif
