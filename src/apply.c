#include "apply.h"
#include "error.h"
#include "util.h"

#include <stdlib.h>
#include <string.h>

void apply_result_init(struct apply_result *r)
{
	memset(r, 0, sizeof(*r));
}

void apply_result_release(struct apply_result *r)
{
	size_t i;

	for (i = 0; i < r->nr_conflicts; i++)
		free(r->conflicts[i]);
	free(r->conflicts);
	apply_result_init(r);
}

static void add_conflict(struct apply_result *r, const char *path)
{
	ALLOC_GROW(r->conflicts, r->nr_conflicts, r->alloc_conflicts);
	r->conflicts[r->nr_conflicts++] = xstrdup(path);
}

static int cmp_path(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void sort_unique(struct apply_result *r)
{
	size_t i, nr = 0;

	if (!r->nr_conflicts)
		return;
	QSORT(r->conflicts, r->nr_conflicts, cmp_path);
	for (i = 0; i < r->nr_conflicts; i++) {
		if (nr && !strcmp(r->conflicts[nr - 1], r->conflicts[i])) {
			free(r->conflicts[i]);
			continue;
		}
		r->conflicts[nr++] = r->conflicts[i];
	}
	r->nr_conflicts = nr;
}

/*
 * Fills out from the index a merge produced.  With renames, the stages
 * of one conflict may name different paths: every one of them is a
 * path the backporter has to look at, so all are listed.
 */
static int collect(struct apply_result *out, git_index *index,
		   const char *hex)
{
	git_index_conflict_iterator *it = NULL;
	const git_index_entry *stage[3];
	size_t i;
	int ret;

	out->applies = !git_index_has_conflicts(index);
	if (out->applies)
		return 0;
	if (git_index_conflict_iterator_new(&it, index) < 0)
		return error_git("cannot list the conflicts of %.12s", hex);
	for (;;) {
		ret = git_index_conflict_next(&stage[0], &stage[1], &stage[2],
					      it);
		if (ret)
			break;
		for (i = 0; i < ARRAY_SIZE(stage); i++)
			if (stage[i] && stage[i]->path)
				add_conflict(out, stage[i]->path);
	}
	if (ret == GIT_ITEROVER)
		ret = 0;
	else
		ret = error_git("cannot list the conflicts of %.12s", hex);
	git_index_conflict_iterator_free(it);
	sort_unique(out);
	return ret;
}

int apply_check(struct apply_result *out, git_repository *repo,
		const git_commit *onto, const git_commit *pick)
{
	char hex[GIT_OID_HEXSZ + 1];
	git_index *index = NULL;
	int ret;

	apply_result_release(out);
	git_oid_tostr(hex, sizeof(hex), git_commit_id(pick));
	if (git_commit_parentcount(pick) > 1)
		return error("cannot trial-pick merge %.12s", hex);
	/* libgit2 takes non-const commits but does not modify them. */
	if (git_cherrypick_commit(&index, repo, (git_commit *)pick,
				  (git_commit *)onto, 0, NULL) < 0)
		return error_git("cannot trial-pick %.12s", hex);
	ret = collect(out, index, hex);
	git_index_free(index);
	return ret;
}

/*
 * Picks one commit of a series onto *tree, as git_cherrypick_commit()
 * does but against a tree that no commit has: the pick's parent is the
 * merge base, the current tree is ours, the pick's tree is theirs.
 * When the pick applies, *tree is replaced by the result.
 */
static int pick_onto_tree(struct apply_result *out, git_repository *repo,
			  git_tree **tree, const git_commit *pick)
{
	git_commit *parent = NULL;
	git_tree *base = NULL, *theirs = NULL, *result = NULL;
	git_index *index = NULL;
	char hex[GIT_OID_HEXSZ + 1];
	git_oid id;
	int ret = -1;

	git_oid_tostr(hex, sizeof(hex), git_commit_id(pick));
	if (git_commit_parentcount(pick) &&
	    (git_commit_parent(&parent, pick, 0) < 0 ||
	     git_commit_tree(&base, parent) < 0)) {
		ret = error_git("cannot read the parent of %.12s", hex);
		goto out;
	}
	if (git_commit_tree(&theirs, pick) < 0) {
		ret = error_git("cannot read the tree of %.12s", hex);
		goto out;
	}
	if (git_merge_trees(&index, repo, base, *tree, theirs, NULL) < 0) {
		ret = error_git("cannot trial-pick %.12s", hex);
		goto out;
	}
	ret = collect(out, index, hex);
	if (ret < 0 || !out->applies)
		goto out;
	if (git_index_write_tree_to(&id, index, repo) < 0 ||
	    git_tree_lookup(&result, repo, &id) < 0) {
		ret = error_git("cannot record the tree after %.12s", hex);
		goto out;
	}
	git_oid_cpy(&out->before, git_tree_id(*tree));
	git_oid_cpy(&out->after, &id);
	git_tree_free(*tree);
	*tree = result;
out:
	git_index_free(index);
	git_tree_free(theirs);
	git_tree_free(base);
	git_commit_free(parent);
	return ret;
}

int apply_series_check(struct apply_result *out, git_repository *repo,
		       const git_commit *onto,
		       const git_commit *const *picks, size_t nr)
{
	char hex[GIT_OID_HEXSZ + 1];
	git_tree *tree = NULL;
	size_t i;
	int ret = 0;

	for (i = 0; i < nr; i++) {
		const git_commit *pick = picks[i];

		apply_result_release(&out[i]);
		if (git_commit_parentcount(pick) > 1) {
			git_oid_tostr(hex, sizeof(hex), git_commit_id(pick));
			return error("cannot trial-pick merge %.12s", hex);
		}
	}
	if (git_commit_tree(&tree, onto) < 0) {
		git_oid_tostr(hex, sizeof(hex), git_commit_id(onto));
		return error_git("cannot read the tree of %.12s", hex);
	}
	for (i = 0; !ret && i < nr; i++)
		ret = pick_onto_tree(&out[i], repo, &tree, picks[i]);
	git_tree_free(tree);
	return ret;
}

int apply_result_patch(const struct apply_result *r, git_repository *repo,
		       struct strbuf *out)
{
	git_diff_options opts;
	git_tree *a = NULL, *b = NULL;
	git_diff *diff = NULL;
	git_diff_stats *stats = NULL;
	git_buf buf = GIT_BUF_INIT;
	int ret = -1;

	if (!r->applies)
		return error("no patch: the pick does not apply");
	git_diff_options_init(&opts, GIT_DIFF_OPTIONS_VERSION);
	if (git_tree_lookup(&a, repo, &r->before) < 0 ||
	    git_tree_lookup(&b, repo, &r->after) < 0 ||
	    git_diff_tree_to_tree(&diff, repo, a, b, &opts) < 0 ||
	    git_diff_find_similar(diff, NULL) < 0 ||
	    git_diff_get_stats(&stats, diff) < 0 ||
	    git_diff_stats_to_buf(&buf, stats, GIT_DIFF_STATS_FULL |
				  GIT_DIFF_STATS_INCLUDE_SUMMARY, 72) < 0) {
		ret = error_git("cannot diff the backport");
		goto out;
	}
	strbuf_add(out, buf.ptr, buf.size);
	strbuf_addch(out, '\n');
	git_buf_dispose(&buf);
	if (git_diff_to_buf(&buf, diff, GIT_DIFF_FORMAT_PATCH) < 0) {
		ret = error_git("cannot format the backport");
		goto out;
	}
	strbuf_add(out, buf.ptr, buf.size);
	ret = 0;
out:
	git_buf_dispose(&buf);
	git_diff_stats_free(stats);
	git_diff_free(diff);
	git_tree_free(b);
	git_tree_free(a);
	return ret;
}
