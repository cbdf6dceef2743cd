#include "git/apply.h"
#include "git/apply-internal.h"
#include "base/error.h"
#include "git/malformed.h"
#include "git/renames.h"
#include "base/progress.h"
#include "base/strbuf.h"
#include "git/treediff.h"
#include "git/treememo.h"
#include "base/util.h"

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
	for (i = 0; i < r->nr_changes; i++)
		free(r->changes[i].path);
	free(r->changes);
	apply_series_unref(r->series);
	apply_result_init(r);
}

static int cmp_change(const void *a, const void *b)
{
	return strcmp(((const struct trial_change *)a)->path,
		      ((const struct trial_change *)b)->path);
}

int apply_result_changes(const struct apply_result *r, const char *path)
{
	struct trial_change key;

	if (!r->nr_changes)
		return 0;
	key.path = (char *)path;
	return !!bsearch(&key, r->changes, r->nr_changes, sizeof(key),
			 cmp_change);
}

void apply_add_change(struct apply_result *r, const char *path,
		      uint32_t mode, const git_oid *id)
{
	struct trial_change *ch;

	ALLOC_GROW(r->changes, r->nr_changes, r->alloc_changes);
	ch = &r->changes[r->nr_changes++];
	ch->path = xstrdup(path);
	ch->mode = mode;
	if (id)
		git_oid_cpy(&ch->id, id);
	else
		memset(&ch->id, 0, sizeof(ch->id));
}

static void drop_changes(struct apply_result *r)
{
	size_t i;

	for (i = 0; i < r->nr_changes; i++)
		free(r->changes[i].path);
	r->nr_changes = 0;
}

void apply_add_conflict(struct apply_result *r, const char *path)
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
				apply_add_conflict(out, stage[i]->path);
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

static int same(const git_tree_entry *a, const git_tree_entry *b)
{
	if (!a || !b)
		return !a && !b;
	return git_oid_equal(git_tree_entry_id(a), git_tree_entry_id(b)) &&
	       git_tree_entry_filemode(a) == git_tree_entry_filemode(b);
}

/*
 * Three-way merges one file changed by the pick: base (the pick's
 * parent), ours (the series so far) and theirs (the pick).  Fills *up
 * with the change to make, or returns 1 for a conflict.
 */
static int merge_path(git_repository *repo, const char *path,
		      const git_tree_entry *base, const git_tree_entry *ours,
		      const git_tree_entry *theirs, git_tree_update *up)
{
	git_merge_file_input in_base, in_ours, in_theirs;
	git_blob *b = NULL, *o = NULL, *t = NULL;
	git_merge_file_result res;
	int ret = 1;

	memset(up, 0, sizeof(*up));
	up->path = path;
	if (same(ours, base) || same(ours, theirs)) {
		/* Ours did not touch it, or already has the pick's version. */
		if (same(ours, theirs))
			return 2;	/* nothing to do */
		if (!theirs) {
			up->action = GIT_TREE_UPDATE_REMOVE;
		} else {
			up->action = GIT_TREE_UPDATE_UPSERT;
			git_oid_cpy(&up->id, git_tree_entry_id(theirs));
			up->filemode = git_tree_entry_filemode(theirs);
		}
		return 0;
	}
	/* Both changed it: only a content merge of three blobs can work. */
	if (!base || !ours || !theirs ||
	    git_tree_entry_type(base) != GIT_OBJECT_BLOB ||
	    git_tree_entry_type(ours) != GIT_OBJECT_BLOB ||
	    git_tree_entry_type(theirs) != GIT_OBJECT_BLOB)
		return 1;
	switch (apply_merge_known(repo, git_tree_entry_id(base),
				  git_tree_entry_id(ours),
				  git_tree_entry_id(theirs), &up->id)) {
	case 1:
		up->action = GIT_TREE_UPDATE_UPSERT;
		up->filemode = git_tree_entry_filemode(theirs);
		return 0;
	case 0:
		return 1;
	}
	if (apply_blob_input(&in_base, &b, repo, base, path) < 0 ||
	    apply_blob_input(&in_ours, &o, repo, ours, path) < 0 ||
	    apply_blob_input(&in_theirs, &t, repo, theirs, path) < 0) {
		ret = error_git("cannot read '%s'", path);
		goto out;
	}
	memset(&res, 0, sizeof(res));
	if (git_merge_file(&res, &in_base, &in_ours, &in_theirs, NULL) < 0) {
		ret = error_git("cannot merge '%s'", path);
		goto out;
	}
	if (res.automergeable &&
	    !git_blob_create_from_buffer(&up->id, repo, res.ptr, res.len)) {
		up->action = GIT_TREE_UPDATE_UPSERT;
		up->filemode = git_tree_entry_filemode(theirs);
		ret = 0;
	}
	if (!ret || !res.automergeable)
		apply_merge_keep(git_tree_entry_id(base),
				 git_tree_entry_id(ours),
				 git_tree_entry_id(theirs), !ret, &up->id);
	git_merge_file_result_free(&res);
out:
	git_blob_free(t);
	git_blob_free(o);
	git_blob_free(b);
	return ret;
}

/* Whether the update up makes the entry at its path other than ours. */
static int changes(const git_tree_entry *ours, const git_tree_update *up)
{
	if (up->action == GIT_TREE_UPDATE_REMOVE)
		return !!ours;
	return !ours || !git_oid_equal(git_tree_entry_id(ours), &up->id) ||
	       git_tree_entry_filemode(ours) != up->filemode;
}

/*
 * The files of the pick (pick: its diff against base, its parent) that
 * base has and the branch tip lacks, where tree (the tip after the
 * earlier picks of a series) has them under another name
 * (renames_onto()).  Into out; 0, or -1 after an error message.
 */
static int renamed_on_branch(git_repository *repo, const git_tree *base,
			     const git_tree *tip, const git_tree *tree,
			     const struct treediff *pick, struct renames *out)
{
	char **paths = xcalloc(pick->nr ? pick->nr : 1, sizeof(*paths));
	size_t i, nr = 0;
	int ret;

	for (i = 0; i < pick->nr; i++) {
		git_tree_entry *e;
		uint32_t mode = pick->items[i].old_mode;

		if (!mode || mode == GIT_FILEMODE_COMMIT)
			continue;
		e = treememo_entry_at(tip, pick->items[i].path);
		if (!e)
			paths[nr++] = pick->items[i].path;
		git_tree_entry_free(e);
	}
	ret = renames_onto(out, repo, base, tree, paths, nr);
	free(paths);
	return ret;
}

int apply_pick_onto_tree(struct apply_result *out, git_repository *repo,
			 const git_tree *tip, git_tree **tree,
			 const git_commit *pick)
{
	git_tree *base = NULL, *theirs = NULL, *result = NULL;
	struct treediff d = TREEDIFF_INIT;
	struct renames moved = RENAMES_INIT;
	git_tree_update *ups = NULL;
	char hex[GIT_OID_HEXSZ + 1];
	size_t i, nr_ups = 0;
	git_oid id, ptree;
	int ret = -1;

	git_oid_tostr(hex, sizeof(hex), git_commit_id(pick));
	/* A malformed parent still has its tree. */
	if (git_commit_parentcount(pick) &&
	    malformed_tree_id(&ptree, repo,
			      git_commit_parent_id(pick, 0)) < 0) {
		ret = error_git("cannot read commit %s, the parent of %.12s",
				git_oid_tostr_s(git_commit_parent_id(pick, 0)), hex);
		goto out;
	}
	if (git_commit_parentcount(pick) &&
	    git_tree_lookup(&base, repo, &ptree) < 0) {
		char pid[GIT_OID_HEXSZ + 1];

		git_oid_tostr(pid, sizeof(pid), git_commit_parent_id(pick, 0));
		ret = error_git("cannot read tree %s of commit %.12s, the parent "
				"of %.12s", git_oid_tostr_s(&ptree), pid, hex);
		goto out;
	}
	if (git_commit_tree(&theirs, pick) < 0) {
		ret = error_git("cannot read tree %s of commit %.12s",
				git_oid_tostr_s(git_commit_tree_id(pick)), hex);
		goto out;
	}
	if (treediff_trees(&d, repo, base, theirs) < 0)
		goto out;
	if (base && renamed_on_branch(repo, base, tip, *tree, &d, &moved) < 0)
		goto out;
	ups = xcalloc(d.nr ? d.nr : 1, sizeof(*ups));
	out->applies = 1;
	for (i = 0; i < d.nr; i++) {
		const char *path = d.items[i].path;
		const struct rename *rn = renames_from(&moved, path);
		const char *at = rn ? rn->to : path;
		git_tree_entry *eb = treememo_entry_at(base, path);
		git_tree_entry *eo = treememo_entry_at(*tree, at);
		git_tree_entry *et = treememo_entry_at(theirs, path);
		int r;

		/*
		 * The branch has the file under another name: the change
		 * goes there, as git cherry-pick takes it; the pick removing
		 * it is git's rename/delete conflict.
		 */
		if (rn && !et)
			r = 1;
		else
			r = merge_path(repo, at, eb, eo, et, &ups[nr_ups]);
		if (r == 0 && changes(eo, &ups[nr_ups]))
			apply_add_change(out, at, ups[nr_ups].action ==
					 GIT_TREE_UPDATE_REMOVE ? 0 :
					 (uint32_t)ups[nr_ups].filemode,
					 &ups[nr_ups].id);
		git_tree_entry_free(eb);
		git_tree_entry_free(eo);
		git_tree_entry_free(et);
		if (r < 0)
			goto out;
		if (r == 0)
			nr_ups++;
		else if (r == 1) {
			out->applies = 0;
			apply_add_conflict(out, path);
			if (rn)
				apply_add_conflict(out, at);
		}
	}
	sort_unique(out);
	if (!out->applies) {
		drop_changes(out);
		ret = 0;
		goto out;
	}
	QSORT(out->changes, out->nr_changes, cmp_change);
	if (git_tree_create_updated(&id, repo, *tree, nr_ups, ups) < 0 ||
	    git_tree_lookup(&result, repo, &id) < 0) {
		ret = apply_missing_blob(repo, hex, ups, nr_ups);
		if (!ret)
			ret = error_git("cannot record the tree after %.12s", hex);
		goto out;
	}
	git_oid_cpy(&out->before, git_tree_id(*tree));
	git_oid_cpy(&out->after, &id);
	out->trees = 1;
	git_tree_free(*tree);
	*tree = result;
	ret = 0;
out:
	free(ups);
	renames_release(&moved);
	treediff_release(&d);
	git_tree_free(theirs);
	git_tree_free(base);
	return ret;
}

int apply_series_check(struct apply_result *out, git_repository *repo,
		       const git_commit *onto,
		       const git_commit *const *picks, size_t nr)
{
	char hex[GIT_OID_HEXSZ + 1];
	struct progress progress;
	git_tree *tree = NULL, *tip = NULL;
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
	if (git_commit_tree(&tip, onto) < 0 ||
	    git_commit_tree(&tree, onto) < 0) {
		git_tree_free(tip);
		git_oid_tostr(hex, sizeof(hex), git_commit_id(onto));
		return error_git("cannot read the tree of %.12s", hex);
	}
	progress_start(&progress, "Trial picks", nr);
	for (i = 0; !ret && i < nr; i++) {
		if (interrupted()) {
			ret = -1;
			break;
		}
		ret = apply_pick_onto_tree(&out[i], repo, tip, &tree, picks[i]);
		progress_update(&progress, i + 1);
	}
	progress_stop(&progress);
	git_tree_free(tree);
	git_tree_free(tip);
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
	git_oid before, after;
	char **paths = NULL;
	size_t i;
	int ret = -1;

	if (!r->applies)
		return error("no patch: the pick does not apply");
	git_oid_cpy(&before, &r->before);
	git_oid_cpy(&after, &r->after);
	if (!r->trees && apply_series_make_trees(r, repo, &before, &after) < 0)
		return -1;
	git_diff_options_init(&opts, GIT_DIFF_OPTIONS_VERSION);
	/*
	 * Only the paths the pick changes differ between the trees: named
	 * as a list of paths, the diff reads the trees on their way alone,
	 * not every tree of the branch (tens of thousands of entries on a
	 * kernel, for each patch).  Renames are found among the same
	 * entries either way.
	 */
	if (r->nr_changes) {
		paths = xcalloc(r->nr_changes, sizeof(*paths));
		for (i = 0; i < r->nr_changes; i++)
			paths[i] = r->changes[i].path;
		opts.pathspec.strings = paths;
		opts.pathspec.count = r->nr_changes;
		opts.flags |= GIT_DIFF_DISABLE_PATHSPEC_MATCH;
	}
	if (git_tree_lookup(&a, repo, &before) < 0 ||
	    git_tree_lookup(&b, repo, &after) < 0 ||
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
	free(paths);
	return ret;
}
