#include "apply.h"
#include "error.h"
#include "progress.h"
#include "treediff.h"
#include "util.h"

#include <git2/sys/mempack.h>
#include <git2/sys/odb_backend.h>

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

/* The entry at path in tree, or NULL (caller frees). */
static git_tree_entry *entry_at(const git_tree *tree, const char *path)
{
	git_tree_entry *e = NULL;

	if (!tree || git_tree_entry_bypath(&e, tree, path) < 0) {
		git_error_clear();
		return NULL;
	}
	return e;
}

static int same(const git_tree_entry *a, const git_tree_entry *b)
{
	if (!a || !b)
		return !a && !b;
	return git_oid_equal(git_tree_entry_id(a), git_tree_entry_id(b)) &&
	       git_tree_entry_filemode(a) == git_tree_entry_filemode(b);
}

static int blob_input(git_merge_file_input *in, git_blob **blob,
		      git_repository *repo, const git_tree_entry *e,
		      const char *path)
{
	git_merge_file_input_init(in, GIT_MERGE_FILE_INPUT_VERSION);
	if (git_blob_lookup(blob, repo, git_tree_entry_id(e)) < 0)
		return -1;
	in->ptr = git_blob_rawcontent(*blob);
	in->size = (size_t)git_blob_rawsize(*blob);
	in->path = path;
	in->mode = git_tree_entry_filemode(e);
	return 0;
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
	if (blob_input(&in_base, &b, repo, base, path) < 0 ||
	    blob_input(&in_ours, &o, repo, ours, path) < 0 ||
	    blob_input(&in_theirs, &t, repo, theirs, path) < 0) {
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
	git_merge_file_result_free(&res);
out:
	git_blob_free(t);
	git_blob_free(o);
	git_blob_free(b);
	return ret;
}

/*
 * Why a tree could not be recorded, when it is that a file the pick
 * brings is missing from the repository (libgit2 names only the file):
 * -1 after naming the blob, else 0.
 */
static int missing_blob(git_repository *repo, const char *hex,
			const git_tree_update *ups, size_t nr)
{
	git_odb *odb = NULL;
	size_t i;
	int ret = 0;

	if (git_repository_odb(&odb, repo) < 0)
		return 0;
	for (i = 0; i < nr && !ret; i++)
		if (ups[i].action == GIT_TREE_UPDATE_UPSERT &&
		    !git_odb_exists(odb, &ups[i].id))
			ret = error("cannot apply %.12s: blob %s ('%s') is not "
				    "in the repository", hex,
				    git_oid_tostr_s(&ups[i].id), ups[i].path);
	git_odb_free(odb);
	return ret;
}

/*
 * Picks one commit of a series onto *tree, a tree that no commit has.
 * Only the files the pick changes are merged (three-way, against the
 * pick's parent), so the cost follows the size of the change, not of
 * the tree.  Renames are not followed: a rename is a removal and an
 * addition.  When the pick applies, *tree is replaced by the result.
 */
static int pick_onto_tree(struct apply_result *out, git_repository *repo,
			  git_tree **tree, const git_commit *pick)
{
	git_commit *parent = NULL;
	git_tree *base = NULL, *theirs = NULL, *result = NULL;
	struct treediff d = TREEDIFF_INIT;
	git_tree_update *ups = NULL;
	char hex[GIT_OID_HEXSZ + 1];
	size_t i, nr_ups = 0;
	git_oid id;
	int ret = -1;

	git_oid_tostr(hex, sizeof(hex), git_commit_id(pick));
	if (git_commit_parentcount(pick) &&
	    git_commit_parent(&parent, pick, 0) < 0) {
		ret = error_git("cannot read commit %s, the parent of %.12s",
				git_oid_tostr_s(git_commit_parent_id(pick, 0)), hex);
		goto out;
	}
	if (parent && git_commit_tree(&base, parent) < 0) {
		char pid[GIT_OID_HEXSZ + 1];

		git_oid_tostr(pid, sizeof(pid), git_commit_id(parent));
		ret = error_git("cannot read tree %s of commit %.12s, the parent "
				"of %.12s", git_oid_tostr_s(git_commit_tree_id(parent)),
				pid, hex);
		goto out;
	}
	if (git_commit_tree(&theirs, pick) < 0) {
		ret = error_git("cannot read tree %s of commit %.12s",
				git_oid_tostr_s(git_commit_tree_id(pick)), hex);
		goto out;
	}
	if (treediff_trees(&d, repo, base, theirs) < 0)
		goto out;
	ups = xcalloc(d.nr ? d.nr : 1, sizeof(*ups));
	out->applies = 1;
	for (i = 0; i < d.nr; i++) {
		const char *path = d.items[i].path;
		git_tree_entry *eb = entry_at(base, path);
		git_tree_entry *eo = entry_at(*tree, path);
		git_tree_entry *et = entry_at(theirs, path);
		int r = merge_path(repo, path, eb, eo, et, &ups[nr_ups]);

		git_tree_entry_free(eb);
		git_tree_entry_free(eo);
		git_tree_entry_free(et);
		if (r < 0)
			goto out;
		if (r == 0)
			nr_ups++;
		else if (r == 1) {
			out->applies = 0;
			add_conflict(out, path);
		}
	}
	sort_unique(out);
	if (!out->applies) {
		ret = 0;
		goto out;
	}
	if (git_tree_create_updated(&id, repo, *tree, nr_ups, ups) < 0 ||
	    git_tree_lookup(&result, repo, &id) < 0) {
		ret = missing_blob(repo, hex, ups, nr_ups);
		if (!ret)
			ret = error_git("cannot record the tree after %.12s", hex);
		goto out;
	}
	git_oid_cpy(&out->before, git_tree_id(*tree));
	git_oid_cpy(&out->after, &id);
	git_tree_free(*tree);
	*tree = result;
	ret = 0;
out:
	free(ups);
	treediff_release(&d);
	git_tree_free(theirs);
	git_tree_free(base);
	git_commit_free(parent);
	return ret;
}

/*
 * The repository's own stores: an object written that one of them
 * holds already is "freshened" (libgit2 sets the mtime of its pack or
 * loose file: a write into the user's repository), and one that none
 * holds makes libgit2 rescan the pack directory first, as does every
 * object looked up and not found.  A trial writes thousands of new
 * objects, all into memory, so the stores neither freshen nor rescan:
 * an object is then looked for in the packs of the start of the run.
 * (A repack that deletes packs while stablepick runs then ends the run
 * with "object not found", never with a wrong answer.)
 */
static void quiet_stores(git_odb *odb)
{
	git_odb_backend *b;
	size_t i, n = git_odb_num_backends(odb);

	for (i = 0; i < n; i++)
		if (!git_odb_get_backend(&b, odb, i)) {
			b->freshen = NULL;
			b->refresh = NULL;
		}
	git_error_clear();
}

int apply_in_memory(git_repository *repo)
{
	git_odb_backend *mem = NULL;
	git_odb *odb = NULL;

	if (git_repository_odb(&odb, repo) < 0)
		return error_git("cannot open the object database");
	quiet_stores(odb);
	/* The highest priority: new objects go there first. */
	if (git_mempack_new(&mem) < 0 || git_odb_add_backend(odb, mem, 1000) < 0) {
		if (mem)
			mem->free(mem);
		git_odb_free(odb);
		return error_git("cannot set up an object store in memory");
	}
	git_odb_free(odb);
	return 0;
}

int apply_series_check(struct apply_result *out, git_repository *repo,
		       const git_commit *onto,
		       const git_commit *const *picks, size_t nr)
{
	char hex[GIT_OID_HEXSZ + 1];
	struct progress progress;
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
	progress_start(&progress, "Trial picks", nr);
	for (i = 0; !ret && i < nr; i++) {
		ret = pick_onto_tree(&out[i], repo, &tree, picks[i]);
		progress_update(&progress, i + 1);
	}
	progress_stop(&progress);
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
