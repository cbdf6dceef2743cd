#include "git/renames.h"
#include "base/error.h"
#include "git/malformed.h"
#include "git/treediff.h"
#include "base/util.h"

#include <stdlib.h>
#include <string.h>
#include <uthash.h>

void renames_release(struct renames *r)
{
	size_t i;

	for (i = 0; i < r->nr; i++) {
		free(r->items[i].from);
		free(r->items[i].to);
	}
	free(r->items);
	memset(r, 0, sizeof(*r));
}

const struct rename *renames_to(const struct renames *r, const char *path)
{
	size_t i;

	for (i = 0; i < r->nr; i++)
		if (!strcmp(r->items[i].to, path))
			return &r->items[i];
	return NULL;
}

const struct rename *renames_from(const struct renames *r, const char *path)
{
	size_t i;

	for (i = 0; i < r->nr; i++)
		if (!strcmp(r->items[i].from, path))
			return &r->items[i];
	return NULL;
}

int renames_trees(struct renames *out, git_repository *repo,
		  const git_tree *a, const git_tree *b,
		  char *const *paths, size_t nr)
{
	git_diff_options opts;
	git_diff_find_options find;
	git_diff *diff = NULL;
	size_t i, n;
	int ret = 0;

	if (!nr)
		return 0;
	git_diff_options_init(&opts, GIT_DIFF_OPTIONS_VERSION);
	opts.flags |= GIT_DIFF_DISABLE_PATHSPEC_MATCH;
	opts.pathspec.strings = (char **)paths;
	opts.pathspec.count = nr;
	git_diff_find_options_init(&find, GIT_DIFF_FIND_OPTIONS_VERSION);
	/* Renames alone, at libgit2's (and git's) default threshold. */
	find.flags = GIT_DIFF_FIND_RENAMES;
	find.rename_threshold = 50;
	find.rename_limit = 1000;
	/* libgit2 takes non-const trees but does not modify them. */
	if (git_diff_tree_to_tree(&diff, repo, (git_tree *)a, (git_tree *)b,
				  &opts) < 0 ||
	    git_diff_find_similar(diff, &find) < 0) {
		ret = error_git("cannot look for renames");
		goto out;
	}
	n = git_diff_num_deltas(diff);
	for (i = 0; i < n; i++) {
		const git_diff_delta *d = git_diff_get_delta(diff, i);
		struct rename *r;

		if (d->status != GIT_DELTA_RENAMED)
			continue;
		ALLOC_GROW(out->items, out->nr, out->alloc);
		r = &out->items[out->nr++];
		r->from = xstrdup(d->old_file.path);
		r->to = xstrdup(d->new_file.path);
	}
out:
	git_diff_free(diff);
	return ret;
}

/*
 * The answers of renames_onto() in this process, by its inputs (the two
 * trees' ids and the sources, in order): a series search picks the
 * same pick onto the same tree in many sets, and each answer diffs two
 * whole trees and reads the blobs of every file one of them added.
 */
struct onto_memo {
	char *key;
	size_t len;
	struct renames found;
	UT_hash_handle hh;
};

static struct onto_memo *ontos;

static void renames_append(struct renames *out, const struct renames *r)
{
	size_t i;

	for (i = 0; i < r->nr; i++) {
		ALLOC_GROW(out->items, out->nr, out->alloc);
		out->items[out->nr].from = xstrdup(r->items[i].from);
		out->items[out->nr].to = xstrdup(r->items[i].to);
		out->nr++;
	}
}

static int onto_read(struct renames *out, git_repository *repo,
		     const git_tree *base, const git_tree *tree,
		     char *const *sources, size_t nr)
{
	char **paths = xcalloc(nr, sizeof(*paths));
	size_t i, n = nr, alloc = nr;
	int ret;

	memcpy(paths, sources, nr * sizeof(*paths));
	ret = treediff_added(&paths, &n, &alloc, repo, base, tree);
	if (!ret && n > nr)
		ret = renames_trees(out, repo, base, tree, paths, n);
	for (i = nr; i < n; i++)
		free(paths[i]);
	free(paths);
	return ret;
}

int renames_onto(struct renames *out, git_repository *repo,
		 const git_tree *base, const git_tree *tree,
		 char *const *sources, size_t nr)
{
	struct onto_memo *e;
	char *key, *p;
	size_t i, len = 2 * GIT_OID_RAWSZ;

	if (!nr)
		return 0;
	for (i = 0; i < nr; i++)
		len += strlen(sources[i]) + 1;
	p = key = xmalloc(len);
	memcpy(p, git_tree_id(base)->id, GIT_OID_RAWSZ);
	memcpy(p + GIT_OID_RAWSZ, git_tree_id(tree)->id, GIT_OID_RAWSZ);
	p += 2 * GIT_OID_RAWSZ;
	for (i = 0; i < nr; i++) {
		size_t n = strlen(sources[i]) + 1;

		memcpy(p, sources[i], n);
		p += n;
	}
	HASH_FIND(hh, ontos, key, len, e);
	if (!e) {
		e = xcalloc(1, sizeof(*e));
		if (onto_read(&e->found, repo, base, tree, sources, nr) < 0) {
			renames_release(&e->found);
			free(e);
			free(key);
			return -1;
		}
		e->key = key;
		e->len = len;
		HASH_ADD_KEYPTR(hh, ontos, e->key, e->len, e);
	} else {
		free(key);
	}
	renames_append(out, &e->found);
	return 0;
}

static void free_onto(struct onto_memo *e)
{
	renames_release(&e->found);
	free(e->key);
	free(e);
}

void renames_forget(void)
{
	struct onto_memo *e, *tmp;

	HASH_FREE_ALL(ontos, e, tmp, free_onto);
	treediff_forget();
}

int renames_commit(struct renames *out, git_repository *repo,
		   const git_commit *commit)
{
	struct treediff d = TREEDIFF_INIT;
	git_tree *a = NULL, *b = NULL;
	char **paths = NULL;
	size_t i, nr = 0, added = 0, deleted = 0;
	git_oid ptree;
	int ret = -1;

	if (git_commit_parentcount(commit) != 1)
		return 0;
	if (treediff_commit(&d, repo, commit) < 0)
		return -1;
	paths = xcalloc(d.nr ? d.nr : 1, sizeof(*paths));
	for (i = 0; i < d.nr; i++) {
		if (d.items[i].old_mode && d.items[i].new_mode)
			continue;
		if (d.items[i].old_mode)
			deleted++;
		else
			added++;
		paths[nr++] = d.items[i].path;
	}
	if (!added || !deleted) {
		ret = 0;
		goto out;
	}
	if (malformed_tree_id(&ptree, repo, git_commit_parent_id(commit, 0)) < 0 ||
	    git_tree_lookup(&a, repo, &ptree) < 0 ||
	    git_commit_tree(&b, commit) < 0) {
		ret = error_git("cannot read the trees of %s",
				git_oid_tostr_s(git_commit_id(commit)));
		goto out;
	}
	ret = renames_trees(out, repo, a, b, paths, nr);
out:
	git_tree_free(b);
	git_tree_free(a);
	free(paths);
	treediff_release(&d);
	return ret;
}
