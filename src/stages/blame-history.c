#include "stages/blame-internal.h"
#include "stages/scan.h"
#include "base/error.h"
#include "git/history.h"
#include "git/malformed.h"
#include "git/treediff.h"
#include "base/trace.h"
#include "base/util.h"

#include <stdlib.h>
#include <string.h>
#include <uthash.h>

/*
 * libgit2's blame walks every commit from the pick's parent down to the
 * base and reads the trees along the path at each: on a 100,000-commit
 * history about 300 ms a file, three quarters of a cold run.  The scan
 * knows every commit of the range that changes a watched file (its
 * candidates' paths).  When those that changed the file and lie below
 * the pick's parent form one line of descent, each one's parent holding
 * the version of the next and the oldest one's parent the base's,
 * nothing else between changed the file, and the blame is that of
 * their own diffs, newest first: a line a commit's diff adds is that
 * commit's, the others move by the hunks above them (git's
 * pass_blame_to_parent(), with its tail trimmed as blame trims it).
 * A commit that added the file has the lines left, as libgit2 finds
 * when no rename brought it.  A file outside the watched paths, which
 * no candidate lists, takes the range's commits that changed it
 * (range_history()).  When those commits are not one line of descent
 * (a file both sides of a merge changed), the range's commits, merges
 * included, pass the lines as libgit2's blame_git.c passes them
 * (dag_blame()).  Otherwise (a file renamed in the range, which
 * libgit2 follows, a malformed commit, a range of more than
 * RANGE_HISTORY_MAX commits) libgit2's blame decides (blame.c).
 *
 * STABLEPICK_TEST_BLAME=libgit2 always asks libgit2; =check asks both
 * and fails on a difference (the tests).
 */

/* At most this many commits in a file's history take this way. */
#define CHAIN_MAX 512

struct chain_hunk {
	size_t new_start, new_lines, old_lines;
};

struct chain_hunks {
	struct chain_hunk *v;
	size_t nr, alloc;
};

static int chain_hunk_cb(const git_diff_delta *delta, const git_diff_hunk *h,
			 void *payload)
{
	struct chain_hunks *hs = payload;

	(void)delta;
	ALLOC_GROW(hs->v, hs->nr, hs->alloc);
	hs->v[hs->nr].new_start = h->new_start > 0 ? (size_t)h->new_start : 0;
	hs->v[hs->nr].new_lines = h->new_lines > 0 ? (size_t)h->new_lines : 0;
	hs->v[hs->nr].old_lines = h->old_lines > 0 ? (size_t)h->old_lines : 0;
	hs->nr++;
	return 0;
}

/*
 * Where line of the newer version was in the older one, by the hunks d
 * between them: 1 and *old set when no hunk changed it, 0 when one did
 * (the newer version made it).  Each line against the hunks, in order:
 * the first that does not end above it either added it or lies below
 * it; those above move it.
 */
static int chain_line_before(const struct chain_hunks *d, size_t line,
			     size_t *old)
{
	size_t shift_add = 0, shift_del = 0, k;
	const struct chain_hunk *x = NULL;

	for (k = 0; k < d->nr; k++) {
		x = &d->v[k];
		if (line < x->new_start + (x->new_lines ? x->new_lines : 1))
			break;
		shift_add += x->new_lines;
		shift_del += x->old_lines;
	}
	if (k < d->nr && x->new_lines && line >= x->new_start)
		return 0;
	*old = line - shift_add + shift_del;
	return 1;
}

/*
 * The common tail blame leaves out of its diffs, in blocks of 1024
 * bytes, then up to the end of the line the cut falls in (xdiff-
 * interface.c's trim_common_tail(), which libgit2's blame copies): the
 * hunks must fall where blame's fall.
 */
static void trim_tail(const char *a, size_t *alen, const char *b, size_t *blen)
{
	const size_t blk = 1024;
	size_t trimmed = 0, recovered = 0;
	size_t smaller = *alen < *blen ? *alen : *blen;
	const char *ap = a + *alen, *bp = b + *blen;

	while (blk + trimmed <= smaller && !memcmp(ap - blk, bp - blk, blk)) {
		trimmed += blk;
		ap -= blk;
		bp -= blk;
	}
	while (recovered < trimmed)
		if (ap[recovered++] == '\n')
			break;
	*alen -= trimmed - recovered;
	*blen -= trimmed - recovered;
}

/* The hunks (no context) from blob old to blob new, as blame has them. */
static int chain_diff_read(struct chain_hunks *out, git_repository *repo,
			   const git_oid *old, const git_oid *new)
{
	git_blob *a = NULL, *b = NULL;
	git_diff_options opts;
	size_t alen, blen;
	int ret = -1;

	out->nr = 0;
	if (git_blob_lookup(&a, repo, old) < 0 ||
	    git_blob_lookup(&b, repo, new) < 0)
		goto out;
	alen = (size_t)git_blob_rawsize(a);
	blen = (size_t)git_blob_rawsize(b);
	trim_tail(git_blob_rawcontent(a), &alen, git_blob_rawcontent(b), &blen);
	git_diff_options_init(&opts, GIT_DIFF_OPTIONS_VERSION);
	opts.context_lines = 0;
	opts.interhunk_lines = 0;
	opts.flags = GIT_DIFF_FORCE_TEXT;
	ret = git_diff_buffers(git_blob_rawcontent(a), alen, NULL,
			       git_blob_rawcontent(b), blen, NULL, &opts, NULL,
			       NULL, chain_hunk_cb, NULL, out);
out:
	git_blob_free(b);
	git_blob_free(a);
	return ret;
}

/*
 * What the file histories of this process read, kept: a series search
 * blames the same file at many picks, and those histories share all
 * but their newest commits.  Kept by object ids (a commit and a path,
 * two blobs), so they hold whatever the repository.
 */
struct chain_step_blob {
	char *key;		/* a commit's or tree's raw id, then the path */
	size_t len;
	int found;
	git_oid blob;
	UT_hash_handle hh;
};

struct chain_step_diff {
	git_oid key[2];		/* old, new */
	struct chain_hunks hunks;
	UT_hash_handle hh;
};

static struct chain_step_blob *chain_blobs;
static struct chain_step_diff *chain_diffs;

static int subtree_blob(git_oid *out, git_repository *repo,
			const git_oid *tid, const char *path);

/*
 * The blob at path in tree: 1, 0 (none there), -1.  The subtrees on the
 * way are looked up by their ids (subtree_blob()): the versions of a
 * file at many commits share them.
 */
static int tree_blob(git_oid *out, git_repository *repo,
		     const git_tree *tree, const char *path)
{
	const char *slash = strchr(path, '/');
	const git_tree_entry *e;
	char *name;

	if (!slash) {
		e = git_tree_entry_byname(tree, path);
		if (!e || git_tree_entry_type(e) != GIT_OBJECT_BLOB)
			return 0;
		git_oid_cpy(out, git_tree_entry_id(e));
		return 1;
	}
	name = xstrndup(path, (size_t)(slash - path));
	e = git_tree_entry_byname(tree, name);
	free(name);
	if (!e || git_tree_entry_type(e) != GIT_OBJECT_TREE)
		return 0;
	return subtree_blob(out, repo, git_tree_entry_id(e), slash + 1);
}

/* The blob at path in commit id's tree: 1, 0 (none there), -1. */
static int chain_blob_read(git_oid *out, git_repository *repo,
			   const git_oid *id, const char *path)
{
	git_tree *tree = NULL;
	git_oid tid;
	int ret = -1;

	if (malformed_tree_id(&tid, repo, id) < 0 ||
	    git_tree_lookup(&tree, repo, &tid) < 0)
		goto out;
	ret = tree_blob(out, repo, tree, path);
out:
	git_tree_free(tree);
	git_error_clear();
	return ret;
}

/* The blob at path in the tree tid: 1, 0 (none there), -1. */
static int subtree_blob_read(git_oid *out, git_repository *repo,
			     const git_oid *tid, const char *path)
{
	git_tree *tree = NULL;
	int r;

	if (git_tree_lookup(&tree, repo, tid) < 0)
		return -1;
	r = tree_blob(out, repo, tree, path);
	git_tree_free(tree);
	return r;
}

/*
 * The blob at path in the tree of id, a commit (or a tree, is_tree):
 * 1, 0 (none there), -1; kept by id and path.
 */
static int kept_blob(git_oid *out, git_repository *repo, const git_oid *id,
		     const char *path, int is_tree)
{
	size_t plen = strlen(path), len = GIT_OID_RAWSZ + plen;
	char *key = xmalloc(len);
	struct chain_step_blob *e;
	int r;

	memcpy(key, id->id, GIT_OID_RAWSZ);
	memcpy(key + GIT_OID_RAWSZ, path, plen);
	HASH_FIND(hh, chain_blobs, key, len, e);
	if (e) {
		free(key);
		if (e->found)
			git_oid_cpy(out, &e->blob);
		return e->found;
	}
	r = is_tree ? subtree_blob_read(out, repo, id, path) :
		      chain_blob_read(out, repo, id, path);
	if (r < 0) {
		free(key);
		return r;
	}
	e = xcalloc(1, sizeof(*e));
	e->key = key;
	e->len = len;
	e->found = r;
	if (r)
		git_oid_cpy(&e->blob, out);
	HASH_ADD_KEYPTR(hh, chain_blobs, e->key, e->len, e);
	return r;
}

/* The blob at path in commit id's tree: 1, 0 (none there), -1. */
static int chain_blob(git_oid *out, git_repository *repo, const git_oid *id,
		      const char *path)
{
	return kept_blob(out, repo, id, path, 0);
}

/* tree_blob() of the tree tid, kept by the tree's id and path. */
static int subtree_blob(git_oid *out, git_repository *repo,
			const git_oid *tid, const char *path)
{
	return kept_blob(out, repo, tid, path, 1);
}

/* The hunks (no context) from blob old to blob new, as blame has them. */
static int chain_diff(struct chain_hunks *out, git_repository *repo,
		      const git_oid *old, const git_oid *new)
{
	struct chain_step_diff *e;
	git_oid key[2];

	memset(key, 0, sizeof(key));
	git_oid_cpy(&key[0], old);
	git_oid_cpy(&key[1], new);
	HASH_FIND(hh, chain_diffs, key, sizeof(key), e);
	if (!e) {
		e = xcalloc(1, sizeof(*e));
		if (chain_diff_read(&e->hunks, repo, old, new) < 0) {
			free(e->hunks.v);
			free(e);
			return -1;
		}
		memcpy(e->key, key, sizeof(key));
		HASH_ADD(hh, chain_diffs, key, sizeof(e->key), e);
	}
	if (e->hunks.nr > out->alloc) {
		out->alloc = e->hunks.nr;
		out->v = xrealloc(out->v, out->alloc * sizeof(*out->v));
	}
	if (e->hunks.nr)
		memcpy(out->v, e->hunks.v, e->hunks.nr * sizeof(*out->v));
	out->nr = e->hunks.nr;
	return 0;
}

static void free_step_blob(struct chain_step_blob *e)
{
	free(e->key);
	free(e);
}

static void free_step_diff(struct chain_step_diff *e)
{
	free(e->hunks.v);
	free(e);
}

static int cmp_newest_order(const void *a, const void *b)
{
	const struct candidate *x = *(struct candidate *const *)a;
	const struct candidate *y = *(struct candidate *const *)b;

	return x->order < y->order ? 1 : x->order > y->order ? -1 : 0;
}

/*
 * The candidates that changed path at or below parent, newest first:
 * the number, or -1 when the scan cannot tell (a candidate without its
 * paths, too many of them).
 */
static long chain_history(git_oid **out, struct match *m,
			  const git_oid *parent, const char *path)
{
	const struct candidate_list *l = &m->scan->candidates;
	struct candidate **v = NULL;
	size_t nr = 0, alloc = 0, i, j;
	int r;

	*out = NULL;
	for (i = 0; i < l->nr; i++) {
		struct candidate *c = l->items[i];

		if (!c->paths_known) {
			free(v);
			return -1;
		}
		for (j = 0; j < c->nr_paths; j++)
			if (!strcmp(c->paths[j], path))
				break;
		if (j == c->nr_paths)
			continue;
		r = git_oid_equal(&c->id, parent) ? 1 :
			match_descends(m, parent, &c->id);
		if (r < 0) {
			git_error_clear();
			free(v);
			return -1;
		}
		if (!r)
			continue;
		if (nr == CHAIN_MAX) {
			free(v);
			return -1;
		}
		ALLOC_GROW(v, nr, alloc);
		v[nr++] = c;
	}
	QSORT(v, nr, cmp_newest_order);
	*out = xcalloc(nr ? nr : 1, sizeof(**out));
	for (i = 0; i < nr; i++)
		git_oid_cpy(&(*out)[i], &v[i]->id);
	free(v);
	return (long)nr;
}

/*
 * The commits of the range, newest first (parents after children), each
 * with its parents, read once for the files outside the watched paths
 * (range_history()) and the histories with merges (dag_blame()); none
 * when the range has more than RANGE_HISTORY_MAX commits (libgit2's
 * blame then walks) or cannot be read.
 */
#define RANGE_HISTORY_MAX 20000

struct range_commit {
	git_oid id, parent;		/* parent: the first one */
	unsigned int nr_parents;
	size_t parents;			/* the parents: range_parents[this..] */
	UT_hash_handle hh;		/* range_by_id, by id */
};

static struct range_commit *range_commits, *range_by_id;
static size_t nr_range_commits;
static git_oid *range_parents;
static size_t nr_range_parents;
static int range_commits_read;	/* 1 read, -1 not to be had */

static void range_commits_free(void)
{
	HASH_CLEAR(hh, range_by_id);
	free(range_commits);
	free(range_parents);
	range_commits = NULL;
	range_parents = NULL;
	nr_range_commits = nr_range_parents = 0;
}

static int read_range_commits(struct match *m)
{
	git_revwalk *walk = NULL;
	git_commit *c = NULL;
	size_t alloc = 0, palloc = 0, i;
	unsigned int k;
	git_oid id;
	int r;

	if (range_commits_read)
		return range_commits_read;
	range_commits_read = -1;
	if (!m->scan || !m->scan->has_from ||
	    git_revwalk_new(&walk, m->repo) < 0 ||
	    git_revwalk_sorting(walk, GIT_SORT_TOPOLOGICAL) < 0 ||
	    git_revwalk_push(walk, &m->scan->to) < 0 ||
	    git_revwalk_hide(walk, &m->scan->from) < 0)
		goto out;
	while (!(r = git_revwalk_next(&id, walk))) {
		struct range_commit *rc;

		if (nr_range_commits == RANGE_HISTORY_MAX ||
		    git_commit_lookup(&c, m->repo, &id) < 0)
			goto out;
		ALLOC_GROW(range_commits, nr_range_commits, alloc);
		rc = &range_commits[nr_range_commits++];
		memset(rc, 0, sizeof(*rc));
		git_oid_cpy(&rc->id, &id);
		rc->nr_parents = git_commit_parentcount(c);
		if (rc->nr_parents)
			git_oid_cpy(&rc->parent, git_commit_parent_id(c, 0));
		rc->parents = nr_range_parents;
		for (k = 0; k < rc->nr_parents; k++) {
			ALLOC_GROW(range_parents, nr_range_parents, palloc);
			git_oid_cpy(&range_parents[nr_range_parents++],
				    git_commit_parent_id(c, k));
		}
		git_commit_free(c);
	}
	if (r == GIT_ITEROVER) {
		range_commits_read = 1;
		for (i = 0; i < nr_range_commits; i++)
			HASH_ADD(hh, range_by_id, id, sizeof(git_oid),
				 &range_commits[i]);
		trace_printf("blame: the %zu commits of the range read with "
			     "their parents (merges, files outside the "
			     "watched paths)", nr_range_commits);
	}
out:
	git_revwalk_free(walk);
	git_error_clear();
	if (range_commits_read < 0)
		range_commits_free();
	return range_commits_read;
}

/*
 * For a file no candidate changed (outside the watched paths): the
 * commits of the range at or below parent, not merges, that changed it
 * against their parent, newest first.  The number, or -1 when the range
 * is not to be had.
 */
static long range_history(git_oid **out, struct match *m,
			  const git_oid *parent, const char *path)
{
	git_oid *v = NULL, a, b;
	size_t nr = 0, alloc = 0, i;
	int ra, rb, r;

	*out = NULL;
	if (read_range_commits(m) < 0)
		return -1;
	for (i = 0; i < nr_range_commits; i++) {
		const struct range_commit *rc = &range_commits[i];

		if (rc->nr_parents != 1)
			continue;
		ra = chain_blob(&a, m->repo, &rc->id, path);
		rb = chain_blob(&b, m->repo, &rc->parent, path);
		if (ra < 0 || rb < 0)
			goto fail;
		if (ra == rb && (!ra || git_oid_equal(&a, &b)))
			continue;
		r = git_oid_equal(&rc->id, parent) ? 1 :
			match_descends(m, parent, &rc->id);
		if (r < 0)
			goto fail;
		if (!r)
			continue;
		if (nr == CHAIN_MAX)
			goto fail;
		ALLOC_GROW(v, nr, alloc);
		git_oid_cpy(&v[nr++], &rc->id);
	}
	*out = v;
	return (long)nr;
fail:
	git_error_clear();
	free(v);
	return -1;
}

/*
 * Whether commit id added path from nothing, against its parent nth, as
 * libgit2's blame tells (blame_git.c, find_origin()): the whole diff
 * from that parent, with renames found as it finds them, has path
 * added, not renamed or copied.  1, 0 (its lines came from elsewhere: libgit2 follows),
 * -1 when it cannot be read.
 */
/*
 * The files a commit added against one of its parents, as libgit2's
 * blame sees them (not renamed from a file the parent has), found once
 * for each commit and parent and kept: a series search meets the same
 * merges in many blames.
 */
struct added_set {
	git_oid key[2];		/* the commit, then its nth parent's id */
	char **paths;		/* sorted */
	size_t nr, alloc;
	UT_hash_handle hh;
};

static struct added_set *added_sets;

static void free_added_set(struct added_set *e)
{
	size_t i;

	for (i = 0; i < e->nr; i++)
		free(e->paths[i]);
	free(e->paths);
	free(e);
}

static int cmp_path(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static int read_added(struct added_set *out, git_repository *repo,
		      git_commit *commit, git_commit *parent)
{
	git_tree *tree = NULL, *ptree = NULL;
	struct treediff td = TREEDIFF_INIT;
	git_diff *diff = NULL;
	git_diff_options opts;
	git_diff_find_options find;
	size_t i, n, deleted = 0;
	int ret = -1;

	if (git_commit_tree(&tree, commit) < 0 ||
	    git_commit_tree(&ptree, parent) < 0 ||
	    treediff_trees(&td, repo, ptree, tree) < 0)
		goto out;
	for (i = 0; i < td.nr; i++)
		deleted += td.items[i].old_mode && !td.items[i].new_mode;
	if (!deleted) {
		/* Nothing went away: nothing can be a rename's source. */
		for (i = 0; i < td.nr; i++) {
			if (td.items[i].old_mode)
				continue;
			ALLOC_GROW(out->paths, out->nr, out->alloc);
			out->paths[out->nr++] = xstrdup(td.items[i].path);
		}
		ret = 0;
		goto out;
	}
	git_diff_options_init(&opts, GIT_DIFF_OPTIONS_VERSION);
	opts.context_lines = 0;
	opts.flags = GIT_DIFF_SKIP_BINARY_CHECK;
	git_diff_find_options_init(&find, GIT_DIFF_FIND_OPTIONS_VERSION);
	find.flags = GIT_DIFF_FIND_RENAMES;
	if (git_diff_tree_to_tree(&diff, repo, ptree, tree, &opts) < 0 ||
	    git_diff_find_similar(diff, &find) < 0)
		goto out;
	n = git_diff_num_deltas(diff);
	for (i = 0; i < n; i++) {
		const git_diff_delta *d = git_diff_get_delta(diff, i);

		if (d->status != GIT_DELTA_ADDED || !d->new_file.path)
			continue;
		ALLOC_GROW(out->paths, out->nr, out->alloc);
		out->paths[out->nr++] = xstrdup(d->new_file.path);
	}
	ret = 0;
out:
	QSORT(out->paths, out->nr, cmp_path);
	git_diff_free(diff);
	treediff_release(&td);
	git_tree_free(ptree);
	git_tree_free(tree);
	return ret;
}

static int chain_added_from(git_repository *repo, const git_oid *id,
			    unsigned int nth, const char *path)
{
	git_commit *commit = NULL, *parent = NULL;
	struct added_set *e;
	git_oid key[2];
	int ret = -1;

	if (git_commit_lookup(&commit, repo, id) < 0 ||
	    git_commit_parent(&parent, commit, nth) < 0)
		goto out;
	memset(key, 0, sizeof(key));
	git_oid_cpy(&key[0], id);
	git_oid_cpy(&key[1], git_commit_id(parent));
	HASH_FIND(hh, added_sets, key, sizeof(key), e);
	if (!e) {
		e = xcalloc(1, sizeof(*e));
		if (read_added(e, repo, commit, parent) < 0) {
			free_added_set(e);
			goto out;
		}
		memcpy(e->key, key, sizeof(key));
		HASH_ADD(hh, added_sets, key, sizeof(e->key), e);
	}
	ret = e->nr && bsearch(&path, e->paths, e->nr, sizeof(*e->paths),
					 cmp_path);
out:
	git_commit_free(parent);
	git_commit_free(commit);
	git_error_clear();
	return ret;
}

static int chain_added(git_repository *repo, const git_oid *id,
		       const char *path)
{
	return chain_added_from(repo, id, 0, path);
}


/*
 * The blame of lines first..last of path at parent, from the file's
 * history: into f, as blame_path() would.  1 when done, 0 when the
 * history is not one line of descent (libgit2 then blames), -1 after
 * an error message.
 */
static int chain_blame(struct found *f, struct match *m,
		       const git_oid *parent, const git_oid *base,
		       const char *path, const struct hunks *hs,
		       size_t first, size_t last)
{
	git_repository *repo = m->repo;
	git_oid *h = NULL;
	struct chain_hunks d = { NULL, 0, 0 };
	size_t n = last - first + 1, live = n, i, j;
	size_t *at = xcalloc(n, sizeof(*at));
	long *owner = xcalloc(n, sizeof(*owner));
	git_oid have, want, pblob;
	long nr;
	int ret = 0, r;

	for (j = 0; j < n; j++) {
		at[j] = first + j;
		owner[j] = -1;
	}
	nr = chain_history(&h, m, parent, path);
	if (nr < 0 || chain_blob(&have, repo, parent, path) != 1)
		goto out;
	/* No candidate changed it, yet it changed: outside the watch. */
	if (!nr && (chain_blob(&want, repo, base, path) != 1 ||
		    !git_oid_equal(&want, &have))) {
		free(h);
		nr = range_history(&h, m, parent, path);
		if (nr < 0)
			goto out;
	}
	for (i = 0; live && i < (size_t)nr; i++) {
		const git_oid *pid;
		git_commit *commit = NULL;

		/* One line of descent, each the parent's version of the next. */
		if (i && match_descends(m, &h[i - 1], &h[i]) != 1)
			goto out;
		if (chain_blob(&want, repo, &h[i], path) != 1 ||
		    !git_oid_equal(&want, &have))
			goto out;
		if (git_commit_lookup(&commit, repo, &h[i]) < 0 ||
		    git_commit_parentcount(commit) != 1) {
			git_commit_free(commit);
			goto out;
		}
		pid = git_commit_parent_id(commit, 0);
		r = chain_blob(&pblob, repo, pid, path);
		git_commit_free(commit);
		/*
		 * Added here: every line left is this commit's, unless
		 * libgit2 finds the file renamed, and follows it.
		 */
		if (r == 0 && chain_added(repo, &h[i], path) == 1) {
			for (j = 0; j < n; j++)
				if (owner[j] < 0)
					owner[j] = (long)i;
			live = 0;
			break;
		}
		if (r != 1)
			goto out;
		if (chain_diff(&d, repo, &pblob, &want) < 0)
			goto out;
		/* A line this commit's hunks made is its; the others move. */
		for (j = 0; j < n; j++) {
			if (owner[j] >= 0)
				continue;
			if (!chain_line_before(&d, at[j], &at[j])) {
				owner[j] = (long)i;
				live--;
			}
		}
		git_oid_cpy(&have, &pblob);
	}
	/* Lines left are the base's, if nothing else changed the file. */
	if (live) {
		r = chain_blob(&want, repo, base, path);
		if (r != 1 || !git_oid_equal(&want, &have))
			goto out;
	}
	/* In the order blame_path() meets them. */
	for (i = 0; i < hs->nr; i++)
		for (j = hs->v[i].first; j <= hs->v[i].last; j++)
			if (owner[j - first] >= 0)
				found_add(f, &h[owner[j - first]]);
	ret = 1;
out:
	free(d.v);
	free(h);
	free(at);
	free(owner);
	return ret;
}

/*
 * The blame of lines first..last of path at parent through the range's
 * commits, merges included, as libgit2's blame_git.c passes blame: a
 * commit whose parent (the first such) has the same version passes it
 * all there; else each parent in turn (one whose version an earlier
 * parent has is skipped) takes the lines its diff leaves unchanged,
 * and what no parent takes is the commit's.  Each line goes its own
 * way, so the commits are taken newest first, each once, with the
 * lines that reached it.  A line that reaches a commit below the range
 * is the base's or below (all of them, when pick is of the range and
 * parent is not).  Into f, as chain_blame(): 1 when done, 0 when
 * libgit2 must blame (a file added, or missing from a merge's parent,
 * where libgit2 finds a rename; a root commit in the range; more than
 * RANGE_HISTORY_MAX commits), -1 after an error message.
 */
static int dag_blame(struct found *f, struct match *m,
		     const git_oid *pick, const git_oid *parent,
		     const git_oid *base, const char *path,
		     const struct hunks *hs, size_t first, size_t last)
{
	git_repository *repo = m->repo;
	struct chain_hunks d = { NULL, 0, 0 };
	size_t n = last - first + 1, live = n, i, j, k;
	size_t *at = xcalloc(n, sizeof(*at));
	size_t *where = xcalloc(n, sizeof(*where));	/* range index */
	long *owner = xcalloc(n, sizeof(*owner));
	unsigned char *taken = xcalloc(n, 1);
	git_oid have, pblob[16];
	int pfound[16], ret = 0;
	struct range_commit *rc;

	if (!m->scan || !m->scan->has_from ||
	    !git_oid_equal(base, &m->scan->from) ||
	    read_range_commits(m) < 0)
		goto out;
	HASH_FIND(hh, range_by_id, parent, sizeof(*parent), rc);
	/*
	 * The parent of a pick of the range outside it (a topic forked
	 * below the base): every line is the base's or below.
	 */
	if (!rc && scan_in_range(m->scan, pick) == 1) {
		ret = 1;
		goto out;
	}
	if (!rc)
		goto out;
	for (j = 0; j < n; j++) {
		at[j] = first + j;
		owner[j] = -1;
		where[j] = (size_t)(rc - range_commits);
	}
	for (i = (size_t)(rc - range_commits); live && i < nr_range_commits;
	     i++) {
		const struct range_commit *c = &range_commits[i];
		unsigned int np = c->nr_parents, p;
		size_t here = 0;

		for (j = 0; j < n; j++)
			here += owner[j] < 0 && where[j] == i;
		if (!here)
			continue;
		if (np > ARRAY_SIZE(pblob) ||
		    chain_blob(&have, repo, &c->id, path) != 1)
			goto out;
		for (p = 0; p < np; p++) {
			pfound[p] = chain_blob(&pblob[p], repo,
					       &range_parents[c->parents + p],
					       path);
			if (pfound[p] < 0)
				goto out;
		}
		/*
		 * A merge's parent without the file takes none of it, unless
		 * libgit2 finds it renamed there; a root moves libgit2's stop.
		 */
		for (p = 0; p < np; p++)
			if (!pfound[p] && np > 1 &&
			    chain_added_from(repo, &c->id, p, path) != 1)
				goto out;
		if (!np)
			goto out;
		/* A parent with the same version takes it all. */
		for (p = 0; p < np; p++)
			if (pfound[p] && git_oid_equal(&pblob[p], &have))
				break;
		if (p < np) {
			struct range_commit *to;

			HASH_FIND(hh, range_by_id, &range_parents[c->parents + p],
				  sizeof(git_oid), to);
			for (j = 0; j < n; j++) {
				if (owner[j] >= 0 || where[j] != i)
					continue;
				if (to) {
					where[j] = (size_t)(to - range_commits);
				} else {
					owner[j] = -2;	/* the base's, or below */
					live--;
				}
			}
			continue;
		}
		/* Added here: unless libgit2 finds it renamed, every line. */
		if (!pfound[0] && chain_added(repo, &c->id, path) != 1)
			goto out;
		memset(taken, 0, n);
		for (p = 0; p < np; p++) {
			struct range_commit *to;
			unsigned int q;

			if (!pfound[p])
				continue;
			for (q = 0; q < p; q++)
				if (pfound[q] && git_oid_equal(&pblob[q], &pblob[p]))
					break;
			if (q < p)
				continue;
			if (chain_diff(&d, repo, &pblob[p], &have) < 0)
				goto out;
			HASH_FIND(hh, range_by_id, &range_parents[c->parents + p],
				  sizeof(git_oid), to);
			for (j = 0; j < n; j++) {
				if (owner[j] >= 0 || owner[j] == -2 ||
				    where[j] != i || taken[j])
					continue;
				/* Changed: not this parent's. */
				if (!chain_line_before(&d, at[j], &at[j]))
					continue;
				taken[j] = 1;
				if (to) {
					where[j] = (size_t)(to - range_commits);
				} else {
					owner[j] = -2;
					live--;
				}
			}
		}
		/* What no parent took is this commit's. */
		for (j = 0; j < n; j++)
			if (owner[j] == -1 && where[j] == i && !taken[j]) {
				owner[j] = (long)i;
				live--;
			}
	}
	if (live)
		goto out;
	for (k = 0; k < hs->nr; k++)
		for (j = hs->v[k].first; j <= hs->v[k].last; j++)
			if (owner[j - first] >= 0)
				found_add(f, &range_commits[owner[j - first]].id);
	ret = 1;
out:
	free(d.v);
	free(taken);
	free(owner);
	free(where);
	free(at);
	return ret;
}

int blame_history(struct found *f, struct match *m, const git_oid *pick,
		  const git_oid *parent, const git_oid *base, const char *path,
		  const struct hunks *hs, size_t first, size_t last)
{
	int r = chain_blame(f, m, parent, base, path, hs, first, last);

	if (r)
		return r;
	free(f->v);
	memset(f, 0, sizeof(*f));
	return dag_blame(f, m, pick, parent, base, path, hs, first, last);
}

void blame_history_forget(void)
{
	struct chain_step_blob *b, *btmp;
	struct chain_step_diff *d, *dtmp;
	struct added_set *a, *atmp;

	HASH_FREE_ALL(chain_blobs, b, btmp, free_step_blob);
	HASH_FREE_ALL(chain_diffs, d, dtmp, free_step_diff);
	range_commits_free();
	range_commits_read = 0;
	HASH_FREE_ALL(added_sets, a, atmp, free_added_set);
}
