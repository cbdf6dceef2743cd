#include "stages/blame.h"
#include "stages/blame-internal.h"
#include "stages/scan.h"
#include "base/error.h"
#include "git/history.h"
#include "git/malformed.h"
#include "base/sha1.h"
#include "base/progress.h"
#include "base/strbuf.h"
#include "base/util.h"

#include <string.h>

static size_t count_lines(const char *buf, size_t len)
{
	size_t n = 0, i;

	for (i = 0; i < len; i++)
		n += buf[i] == '\n';
	return n + (len && buf[len - 1] != '\n');
}

/*
 * One hunk of the pick: the lines it removes or changes, or the two
 * it inserts between, and one more each side, since a change next to
 * the pick's conflicts as much as one under it.
 */
static int hunk_cb(const git_diff_delta *delta, const git_diff_hunk *h,
		   void *payload)
{
	struct hunks *hs = payload;
	size_t start = h->old_start > 0 ? (size_t)h->old_start : 0;
	size_t first, last;

	(void)delta;
	if (!hs->lines)
		return 0;
	if (h->old_lines) {
		first = start > 1 ? start - 1 : 1;
		last = start + (size_t)h->old_lines;
	} else {
		first = start ? start : 1;
		last = start + 1;
	}
	if (last > hs->lines)
		last = hs->lines;
	if (first > last)
		return 0;
	ALLOC_GROW(hs->v, hs->nr, hs->alloc);
	hs->v[hs->nr].first = first;
	hs->v[hs->nr].last = last;
	hs->nr++;
	return 0;
}

/* The blob at path in tree, or NULL (none there, or not a file). */
static git_blob *blob_at(git_repository *repo, const git_tree *tree,
			 const char *path)
{
	git_tree_entry *e = NULL;
	git_blob *b = NULL;

	if (git_tree_entry_bypath(&e, tree, path) < 0) {
		git_error_clear();
		return NULL;
	}
	if (git_tree_entry_type(e) == GIT_OBJECT_BLOB &&
	    git_blob_lookup(&b, repo, git_tree_entry_id(e)) < 0) {
		git_error_clear();
		b = NULL;
	}
	git_tree_entry_free(e);
	return b;
}

/* The ranges of the parent's path that the pick changes. */
static int pick_hunks(struct hunks *hs, git_repository *repo,
		      const git_tree *before, const git_tree *after,
		      const char *path, const char *hex)
{
	git_blob *old = blob_at(repo, before, path);
	git_blob *new = blob_at(repo, after, path);
	git_diff_options opts;
	int ret = 0;

	memset(hs, 0, sizeof(*hs));
	/* A file the pick adds: no line of it was there before. */
	if (!old)
		goto out;
	hs->lines = count_lines(git_blob_rawcontent(old),
				(size_t)git_blob_rawsize(old));
	git_diff_options_init(&opts, GIT_DIFF_OPTIONS_VERSION);
	opts.context_lines = 0;
	opts.interhunk_lines = 0;
	if (git_diff_blobs(old, path, new, path, &opts, NULL, NULL, hunk_cb,
			   NULL, hs) < 0)
		ret = error_git("cannot diff '%s' in %.12s", path, hex);
out:
	git_blob_free(new);
	git_blob_free(old);
	return ret;
}

void found_add(struct found *f, const git_oid *id)
{
	size_t i;

	for (i = 0; i < f->nr; i++)
		if (git_oid_equal(&f->v[i], id))
			return;
	ALLOC_GROW(f->v, f->nr, f->alloc);
	git_oid_cpy(&f->v[f->nr++], id);
}

/* The files blamed each way, for the trace. */
static size_t blamed_chain, blamed_libgit2;

void blame_counts(size_t *history, size_t *libgit2)
{
	*history = blamed_chain;
	*libgit2 = blamed_libgit2;
}

/*
 * libgit2's blame of lines first..last of path at the parent, back to
 * the base, into f.  0; 1 when it fails on a malformed commit
 * (src/malformed.h), which it cannot go through: a warning of warn
 * says so; -1 after an error message.
 */
static int libgit2_blame(struct found *f, git_repository *repo,
			 const git_oid *parent, const git_oid *base,
			 const char *path, const struct hunks *hs,
			 size_t first, size_t last, const char *hex,
			 struct candidate *warn)
{
	git_blame_options opts;
	git_blame *blame = NULL;
	size_t i, line;

	git_blame_options_init(&opts, GIT_BLAME_OPTIONS_VERSION);
	git_oid_cpy(&opts.newest_commit, parent);
	git_oid_cpy(&opts.oldest_commit, base);
	opts.min_line = first;
	opts.max_line = last;
	if (git_blame_file(&blame, repo, path, &opts) < 0) {
		const git_error *e = git_error_last();

		if (!malformed_suspect())
			return error_git("cannot blame '%s' for %.12s", path,
					 hex);
		if (warn)
			candidate_add_warning(warn, "its likely prerequisites in '%s' "
				      "are not known: its history has a "
				      "commit libgit2 cannot parse (%s)", path,
				      e->message);
		git_error_clear();
		return 1;
	}
	for (i = 0; i < hs->nr; i++) {
		for (line = hs->v[i].first; line <= hs->v[i].last; line++) {
			const git_blame_hunk *h =
				git_blame_get_hunk_byline(blame, line);

			if (!h)
				continue;
			if (!h->boundary)
				found_add(f, &h->final_commit_id);
			/* The rest of the hunk is the same commit's. */
			if (h->final_start_line_number + h->lines_in_hunk > line + 1)
				line = h->final_start_line_number +
				       h->lines_in_hunk - 1;
		}
	}
	git_blame_free(blame);
	return 0;
}

static const char *blame_mode(void)
{
	const char *env = getenv("STABLEPICK_TEST_BLAME");

	return env ? env : "";
}

/*
 * Whether id, a commit named by a blame from tip (a pick or its parent:
 * id is tip's ancestor), is the base or below it, never a
 * prerequisite: 1, 0, or -1 with libgit2's error.  When the base is
 * where the scan's range starts and tip is of the range, every
 * ancestor of tip is of the range or below its start, so the range
 * answers, without a walk.
 */
static int at_or_below(struct match *m, const git_oid *base,
		       const git_oid *tip, const git_oid *id)
{
	int r;

	if (git_oid_equal(id, base))
		return 1;
	if (m->scan && m->scan->has_from &&
	    git_oid_equal(base, &m->scan->from) &&
	    scan_in_range(m->scan, tip) == 1) {
		r = scan_in_range(m->scan, id);
		if (r >= 0)
			return !r;
	}
	return match_descends(m, base, id);
}

/*
 * For =check: what libgit2 found after the base (those at or below it
 * are never prerequisites, and the file's history does not name them)
 * must be what the history found, in the same order.
 */
static int check_same(struct match *m, const git_oid *base,
		      const git_oid *parent, const struct found *mine, const struct found *theirs,
		      const char *path, const char *hex)
{
	size_t i, j = 0;
	int r;

	for (i = 0; i < theirs->nr; i++) {
		r = at_or_below(m, base, parent, &theirs->v[i]);
		if (r < 0)
			return error_git("cannot walk to the base");
		if (r)
			continue;
		if (j >= mine->nr || !git_oid_equal(&mine->v[j], &theirs->v[i]))
			break;
		j++;
	}
	if (i == theirs->nr && j == mine->nr)
		return 0;
	return error("blame of '%s' for %.12s: the file's history and "
		     "libgit2 differ", path, hex);
}

/*
 * Blames the ranges of path at the parent, back to the base: from the
 * file's own history where it can tell (chain_blame()), else by
 * libgit2.  0; 1 when libgit2's blame fails on a malformed commit; -1
 * after an error message.
 */
static int blame_path(struct found *f, struct match *m,
		      const git_oid *pick, const git_oid *parent,
		      const git_oid *base, const char *path,
		      const struct hunks *hs, const char *hex,
		      struct candidate *warn)
{
	const char *mode = blame_mode();
	struct found mine = { NULL, 0, 0 }, theirs = { NULL, 0, 0 };
	size_t first, last, i;
	int r, ret;

	if (!hs->nr)
		return 0;
	first = hs->v[0].first;
	last = hs->v[0].last;
	for (i = 1; i < hs->nr; i++) {
		if (hs->v[i].first < first)
			first = hs->v[i].first;
		if (hs->v[i].last > last)
			last = hs->v[i].last;
	}
	if (strcmp(mode, "libgit2")) {
		r = blame_history(&mine, m, pick, parent, base, path, hs,
				  first, last);
		if (r < 0)
			return -1;
		if (r && strcmp(mode, "check")) {
			for (i = 0; i < mine.nr; i++)
				found_add(f, &mine.v[i]);
			free(mine.v);
			blamed_chain++;
			return 0;
		}
		if (!r) {
			free(mine.v);
			mine.v = NULL;
			mine.nr = mine.alloc = 0;
			r = -2;
		}
	} else {
		r = -2;
	}
	blamed_libgit2++;
	ret = libgit2_blame(&theirs, m->repo, parent, base, path, hs, first,
			    last, hex, warn);
	if (!ret && r == 1 &&
	    check_same(m, base, parent, &mine, &theirs, path, hex) < 0)
		ret = -1;
	for (i = 0; ret >= 0 && i < theirs.nr; i++)
		found_add(f, &theirs.v[i]);
	free(theirs.v);
	free(mine.v);
	return ret;
}

/*
 * Whether id, named by the blame of pick, is a missing prerequisite:
 * after the base (not it, not below it) and not in the branch.  1, 0,
 * or -1 after an error message.
 */
static int missing(struct match *m, const git_oid *base,
		   const git_oid *pick, const git_oid *id)
{
	int r = at_or_below(m, base, pick, id);

	if (r < 0)
		return error_git("cannot tell whether %s is below the base",
				 git_oid_tostr_s(id));
	if (r)
		return 0;
	r = match_commit_in_branch(m, id, 0);
	return r < 0 ? -1 : !r;
}

static int cmp_newest(const void *a, const void *b)
{
	const struct likely_prereq *x = a, *y = b;

	if (x->time != y->time)
		return x->time > y->time ? -1 : 1;
	return strcmp(x->hex, y->hex);
}

static int add_likely(struct candidate *c, git_repository *repo,
		      struct candidate_list *l, const git_oid *id)
{
	struct likely_prereq *p;
	git_commit *commit = NULL;
	const char *summary;

	if (git_commit_lookup(&commit, repo, id) < 0)
		return error_git("cannot read commit %s", git_oid_tostr_s(id));
	ALLOC_GROW(c->likely, c->nr_likely, c->alloc_likely);
	p = &c->likely[c->nr_likely++];
	memset(p, 0, sizeof(*p));
	git_oid_cpy(&p->id, id);
	git_oid_tostr(p->hex, sizeof(p->hex), id);
	summary = git_commit_summary(commit);
	p->subject = xstrdup(summary ? summary : "");
	p->time = git_commit_time(commit);
	p->cand = candidate_list_find(l, id);
	git_commit_free(commit);
	return 0;
}

/*
 * The key of a blame in the trial cache: what decides what it finds
 * (the pick, which names its parent and trees, the base it stops at,
 * and the files).
 */
static void blame_key(unsigned char *key, const git_oid *id,
		      const git_oid *base, char *const *paths, size_t nr)
{
	struct sha1 ctx;
	size_t i;

	sha1_init(&ctx);
	sha1_update(&ctx, "blame 1", 8);
	sha1_update(&ctx, id->id, GIT_OID_RAWSZ);
	sha1_update(&ctx, base->id, GIT_OID_RAWSZ);
	for (i = 0; i < nr; i++)
		sha1_update(&ctx, paths[i], strlen(paths[i]) + 1);
	sha1_final(key, &ctx);
}

/*
 * The commits that made the lines id changes in paths, back to the
 * base (boundary commits not counted), into f: from the cache when it
 * has them.  0, or -1 after an error message.
 */
static int blame_found(struct found *f, struct match *m,
		       const git_oid *base, const git_oid *id,
		       char *const *paths, size_t nr, struct trialcache *cache,
		       struct candidate *warn)
{
	git_repository *repo = m->repo;
	unsigned char key[SHA1_RAWSZ];
	git_commit *pick = NULL;
	git_tree *before = NULL, *after = NULL;
	char hex[GIT_OID_HEXSZ + 1];
	const git_oid *kept;
	size_t i, n;
	int ret = -1, r, whole = 1;

	if (cache) {
		blame_key(key, id, base, paths, nr);
		kept = trialcache_find_blame(cache, key, &n);
		if (kept) {
			for (i = 0; i < n; i++)
				found_add(f, &kept[i]);
			cache->blame_hits++;
			return 0;
		}
	}
	git_oid_tostr(hex, sizeof(hex), id);
	if (git_commit_lookup(&pick, repo, id) < 0) {
		ret = error_git("cannot read commit %s", hex);
		goto out;
	}
	if (git_commit_parentcount(pick) != 1) {
		ret = 0;
		goto out;
	}
	/* A malformed parent still has its tree. */
	if (malformed_parent_tree(&before, pick, 0) < 0 ||
	    git_commit_tree(&after, pick) < 0) {
		ret = error_git("cannot read the trees of %.12s and its parent",
				hex);
		goto out;
	}
	for (i = 0; i < nr; i++) {
		struct hunks hs;

		r = pick_hunks(&hs, repo, before, after, paths[i], hex);
		if (!r)
			r = blame_path(f, m, id, git_commit_parent_id(pick, 0),
				       base, paths[i], &hs, hex, warn);
		free(hs.v);
		if (r < 0)
			goto out;
		/* What a blame could not go through is not kept. */
		whole &= !r;
	}
	if (cache && whole) {
		trialcache_put_blame(cache, key, f->v, f->nr);
		cache->blame_computed++;
	}
	ret = 0;
out:
	git_tree_free(after);
	git_tree_free(before);
	git_commit_free(pick);
	return ret;
}

int blame_missing(struct match *m, const git_oid *base, const git_oid *id,
		  char *const *paths, size_t nr, git_oid **ids, size_t *nr_ids,
		  size_t *alloc_ids, struct trialcache *cache,
		  struct candidate *warn)
{
	struct found f = { NULL, 0, 0 };
	size_t i, j;
	int ret = -1, r;

	if (blame_found(&f, m, base, id, paths, nr, cache, warn) < 0)
		goto out;
	for (i = 0; i < f.nr; i++) {
		r = missing(m, base, id, &f.v[i]);
		if (r < 0)
			goto out;
		if (!r)
			continue;
		for (j = 0; j < *nr_ids; j++)
			if (git_oid_equal(&(*ids)[j], &f.v[i]))
				break;
		if (j < *nr_ids)
			continue;
		ALLOC_GROW(*ids, *nr_ids, *alloc_ids);
		git_oid_cpy(&(*ids)[(*nr_ids)++], &f.v[i]);
	}
	ret = 0;
out:
	free(f.v);
	return ret;
}

static int likely_one(struct match *m, const git_oid *base,
		      struct candidate_list *l, struct trialcache *cache,
		      struct candidate *c, const struct apply_result *res)
{
	git_oid *ids = NULL;
	size_t nr = 0, alloc = 0, i;
	int ret;

	c->likely_checked = 1;
	ret = blame_missing(m, base, &c->id, res->conflicts,
			    res->nr_conflicts, &ids, &nr, &alloc, cache, c);
	for (i = 0; !ret && i < nr; i++)
		ret = add_likely(c, m->repo, l, &ids[i]);
	if (!ret)
		QSORT(c->likely, c->nr_likely, cmp_newest);
	free(ids);
	return ret;
}

/* Whether c's likely prerequisites are looked for now. */
/*
 * What c is blamed with: its result in the checks, or for an accepted
 * commit left out of the queue, where it conflicts there (its FAILED
 * mail); NULL when it is not blamed.
 */
static const struct apply_result *blamed(const struct candidate *c,
					 const struct candidate *only)
{
	if (only && c != only)
		return NULL;
	if (c->likely_checked || (!only && c->listed_before))
		return NULL;
	if (!only && c->verdict == VERDICT_ACCEPTED && c->queued &&
	    !c->queue_apply.applies)
		return &c->queue_apply;
	/* A run's: the proposals it shows (the email, the FAILED mails). */
	if (!only && c->verdict != VERDICT_PROPOSED)
		return NULL;
	if (!c->apply_checked || c->apply.applies)
		return NULL;
	return &c->apply;
}

int blame_likely_prereqs(struct match *m, const git_oid *base,
			 struct candidate_list *l, struct trialcache *cache,
			 struct candidate *only)
{
	struct progress progress;
	size_t i, nr = 0, done = 0;
	int ret = 0;

	for (i = 0; i < l->nr; i++)
		nr += blamed(l->items[i], only) != NULL;
	progress_start(&progress, "Likely prerequisites", nr);
	for (i = 0; !ret && i < l->nr; i++) {
		struct candidate *c = l->items[i];
		const struct apply_result *res = blamed(c, only);

		if (!res)
			continue;
		if (interrupted()) {
			ret = -1;
			break;
		}
		progress_update(&progress, ++done);
		ret = likely_one(m, base, l, cache, c, res) < 0 ? -1 : 0;
	}
	progress_stop(&progress);
	return ret;
}

void blame_forget(void)
{
	blame_history_forget();
}
