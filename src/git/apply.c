#include "git/apply.h"
#include "base/error.h"
#include "git/history.h"
#include "git/malformed.h"
#include "base/progress.h"
#include "base/sha1.h"
#include "base/strbuf.h"
#include "git/treediff.h"
#include "base/util.h"

#include <git2/sys/mempack.h>
#include <git2/sys/odb_backend.h>

#include <stdlib.h>
#include <string.h>
#include <uthash.h>

void apply_result_init(struct apply_result *r)
{
	memset(r, 0, sizeof(*r));
}

static void series_unref(struct apply_series *s);
static int make_trees(const struct apply_result *r, git_repository *repo,
		      git_oid *before, git_oid *after);

void apply_result_release(struct apply_result *r)
{
	size_t i;

	for (i = 0; i < r->nr_conflicts; i++)
		free(r->conflicts[i]);
	free(r->conflicts);
	for (i = 0; i < r->nr_changes; i++)
		free(r->changes[i].path);
	free(r->changes);
	series_unref(r->series);
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

/* Records that the pick sets path to (mode, id); mode 0 removes it. */
static void add_change(struct apply_result *r, const char *path,
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

/* Whether the update up makes the entry at its path other than ours. */
static int changes(const git_tree_entry *ours, const git_tree_update *up)
{
	if (up->action == GIT_TREE_UPDATE_REMOVE)
		return !!ours;
	return !ours || !git_oid_equal(git_tree_entry_id(ours), &up->id) ||
	       git_tree_entry_filemode(ours) != up->filemode;
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
	git_tree *base = NULL, *theirs = NULL, *result = NULL;
	struct treediff d = TREEDIFF_INIT;
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
	ups = xcalloc(d.nr ? d.nr : 1, sizeof(*ups));
	out->applies = 1;
	for (i = 0; i < d.nr; i++) {
		const char *path = d.items[i].path;
		git_tree_entry *eb = entry_at(base, path);
		git_tree_entry *eo = entry_at(*tree, path);
		git_tree_entry *et = entry_at(theirs, path);
		int r = merge_path(repo, path, eb, eo, et, &ups[nr_ups]);

		if (r == 0 && changes(eo, &ups[nr_ups]))
			add_change(out, path, ups[nr_ups].action ==
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
			add_conflict(out, path);
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
		ret = missing_blob(repo, hex, ups, nr_ups);
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
	treediff_release(&d);
	git_tree_free(theirs);
	git_tree_free(base);
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

/* The repository whose new objects go to memory (apply_in_memory()). */
static const git_repository *in_memory;

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
	in_memory = repo;
	return 0;
}

int apply_onto_lookup(git_commit **out, git_repository *repo,
		      const git_oid *id)
{
	struct malformed_commit m;
	struct strbuf sb = STRBUF_INIT;
	git_odb *odb = NULL;
	git_oid copy;
	unsigned int i;
	int ret = git_commit_lookup(out, repo, id);

	if (!ret || repo != in_memory || !malformed_check(&m, repo, id))
		return ret;
	/* What a pick onto it reads: its tree (and its parents, message). */
	strbuf_addf(&sb, "tree %s\n", git_oid_tostr_s(&m.tree));
	for (i = 0; i < m.nr_parents; i++)
		strbuf_addf(&sb, "parent %s\n", git_oid_tostr_s(&m.parents[i]));
	strbuf_addf(&sb, "author unknown <unknown> %lld +0000\n"
		    "committer unknown <unknown> %lld +0000\n\n%s",
		    (long long)m.date, (long long)m.date, m.message);
	malformed_warn(id, m.reason, "picked onto a copy of its tree");
	malformed_release(&m);
	ret = git_repository_odb(&odb, repo);
	if (!ret)
		ret = git_odb_write(&copy, odb, sb.buf, sb.len, GIT_OBJECT_COMMIT);
	if (!ret)
		ret = git_commit_lookup(out, repo, &copy);
	git_odb_free(odb);
	strbuf_release(&sb);
	return ret;
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
	git_oid before, after;
	int ret = -1;

	if (!r->applies)
		return error("no patch: the pick does not apply");
	git_oid_cpy(&before, &r->before);
	git_oid_cpy(&after, &r->after);
	if (!r->trees && make_trees(r, repo, &before, &after) < 0)
		return -1;
	git_diff_options_init(&opts, GIT_DIFF_OPTIONS_VERSION);
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
	return ret;
}

/* --- series kept by their inputs (apply_series_check_cached()) ----- */

/* A pick of a series, as much as making its trees again needs. */
struct series_pick {
	git_oid id;
	int known;			/* applies and changes are known */
	int applies;
	struct trial_change *changes;
	size_t nr_changes;
	size_t *deps;			/* the earlier picks on its paths */
	size_t nr_deps;
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
	/* The trees of the picks that applied, once made (make_trees()). */
	git_oid *before, *after;
	char *built;
};

static void forget_changes(struct series_pick *p)
{
	size_t i;

	for (i = 0; i < p->nr_changes; i++)
		free(p->changes[i].path);
	free(p->changes);
	p->changes = NULL;
	p->nr_changes = 0;
}

static void series_unref(struct apply_series *s)
{
	size_t i;

	if (!s || --s->refs > 0)
		return;
	for (i = 0; i < s->nr; i++) {
		forget_changes(&s->picks[i]);
		free(s->picks[i].deps);
	}
	free(s->picks);
	free(s->before);
	free(s->after);
	free(s->built);
	free(s);
}

/* Keeps in p what r found (r is a result of p's pick). */
static void remember(struct series_pick *p, const struct apply_result *r)
{
	size_t i;

	forget_changes(p);
	p->known = 1;
	p->applies = r->applies;
	p->changes = xcalloc(r->nr_changes ? r->nr_changes : 1,
			     sizeof(*p->changes));
	for (i = 0; i < r->nr_changes; i++) {
		p->changes[i] = r->changes[i];
		p->changes[i].path = xstrdup(r->changes[i].path);
	}
	p->nr_changes = r->nr_changes;
}

/* Whether the objects p's changes name are at hand (a gitlink's never is). */
static int replayable(git_odb *odb, const struct series_pick *p)
{
	size_t i;

	for (i = 0; i < p->nr_changes; i++)
		if (p->changes[i].mode && p->changes[i].mode != GIT_FILEMODE_COMMIT &&
		    !git_odb_exists(odb, &p->changes[i].id))
			return 0;
	return 1;
}

/* Makes on *tree the changes a pick that applied made, as recorded. */
static int replay(git_repository *repo, git_tree **tree,
		  const struct series_pick *p)
{
	git_tree_update *ups = xcalloc(p->nr_changes ? p->nr_changes : 1,
				       sizeof(*ups));
	git_tree *result = NULL;
	git_oid id;
	size_t i;
	int ret = 0;

	for (i = 0; i < p->nr_changes; i++) {
		ups[i].path = p->changes[i].path;
		ups[i].action = p->changes[i].mode ? GIT_TREE_UPDATE_UPSERT :
				GIT_TREE_UPDATE_REMOVE;
		ups[i].filemode = (git_filemode_t)p->changes[i].mode;
		git_oid_cpy(&ups[i].id, &p->changes[i].id);
	}
	if (git_tree_create_updated(&id, repo, *tree, p->nr_changes, ups) < 0 ||
	    git_tree_lookup(&result, repo, &id) < 0) {
		ret = error_git("cannot replay the pick of %s",
				git_oid_tostr_s(&p->id));
	} else {
		git_tree_free(*tree);
		*tree = result;
	}
	free(ups);
	return ret;
}

enum series_act { ACT_NONE, ACT_REPLAY, ACT_PICK };

/*
 * Picks onto s->onto the picks of s that want marks, with the earlier
 * ones they need (see apply_series_check_cached()); out[i] gets the
 * result of each pick made, *made their number.  0, or -1 after an
 * error message.
 */
static int series_build(struct apply_series *s, git_repository *repo,
			const char *want, struct apply_result *out,
			size_t *made)
{
	enum series_act *act = xcalloc(s->nr ? s->nr : 1, sizeof(*act));
	git_commit *onto = NULL, *pick = NULL;
	git_tree *tree = NULL;
	git_odb *odb = NULL;
	size_t i, j;
	int ret = 0;

	if (git_repository_odb(&odb, repo) < 0) {
		ret = error_git("cannot open the object database");
		goto out;
	}
	/* Latest first: a pick's needs are settled before its own. */
	for (i = s->nr; i-- > 0;) {
		if (want[i])
			act[i] = ACT_PICK;
		if (act[i] != ACT_PICK)
			continue;
		for (j = 0; j < s->picks[i].nr_deps; j++) {
			const struct series_pick *d = &s->picks[s->picks[i].deps[j]];
			enum series_act *a = &act[s->picks[i].deps[j]];

			if (*a != ACT_NONE || (d->known && !d->applies))
				continue;
			*a = d->known && replayable(odb, d) ? ACT_REPLAY : ACT_PICK;
		}
	}
	if (git_commit_lookup(&onto, repo, &s->onto) < 0 ||
	    git_commit_tree(&tree, onto) < 0) {
		ret = error_git("cannot read the tree of %s",
				git_oid_tostr_s(&s->onto));
		goto out;
	}
	for (i = 0; !ret && i < s->nr; i++) {
		if (act[i] == ACT_REPLAY) {
			ret = replay(repo, &tree, &s->picks[i]);
			continue;
		}
		if (act[i] != ACT_PICK)
			continue;
		if (git_commit_lookup(&pick, repo, &s->picks[i].id) < 0) {
			ret = error_git("cannot read commit %s",
					git_oid_tostr_s(&s->picks[i].id));
			break;
		}
		apply_result_release(&out[i]);
		ret = pick_onto_tree(&out[i], repo, &tree, pick);
		git_commit_free(pick);
		if (!ret)
			remember(&s->picks[i], &out[i]);
		(*made)++;
	}
out:
	git_tree_free(tree);
	git_commit_free(onto);
	git_odb_free(odb);
	free(act);
	return ret;
}

/*
 * The paths pick changes against its first parent, sorted, as the
 * cache keeps them (borrowed from it).  NULL after an error message.
 */
static char *const *pick_paths(struct trialcache *cache, git_repository *repo,
			       const git_commit *pick, size_t *nr)
{
	struct treediff d = TREEDIFF_INIT;
	char *const *known;
	char **paths;
	size_t i, n = 0;

	known = trialcache_find_paths(cache, git_commit_id(pick), nr);
	if (known)
		return known;
	if (treediff_commit(&d, repo, pick) < 0)
		return NULL;
	paths = xcalloc(d.nr ? d.nr : 1, sizeof(*paths));
	for (i = 0; i < d.nr; i++)
		paths[i] = d.items[i].path;
	QSORT(paths, d.nr, cmp_str);
	for (i = 0; i < d.nr; i++)
		if (!n || strcmp(paths[n - 1], paths[i]))
			paths[n++] = paths[i];
	trialcache_put_paths(cache, git_commit_id(pick), paths, n);
	free(paths);
	treediff_release(&d);
	return trialcache_find_paths(cache, git_commit_id(pick), nr);
}

/* The picks so far that change a path (or, in dirs, one below it). */
struct path_slot {
	const char *path;		/* borrowed from the cache */
	size_t len;
	size_t *pos;
	size_t nr, alloc;
	UT_hash_handle hh;
};

static struct path_slot *find_slot(struct path_slot **map, const char *path,
				   size_t len, int create)
{
	struct path_slot *e;

	HASH_FIND(hh, *map, path, len, e);
	if (e || !create)
		return e;
	e = xcalloc(1, sizeof(*e));
	e->path = path;
	e->len = len;
	HASH_ADD_KEYPTR(hh, *map, e->path, e->len, e);
	return e;
}

static void add_slot(struct path_slot **map, const char *path, size_t len,
		     size_t pos)
{
	struct path_slot *e = find_slot(map, path, len, 1);

	if (e->nr && e->pos[e->nr - 1] == pos)
		return;
	ALLOC_GROW(e->pos, e->nr, e->alloc);
	e->pos[e->nr++] = pos;
}

static void free_slot(struct path_slot *e)
{
	free(e->pos);
	free(e);
}

static void add_deps(struct series_pick *p, size_t *alloc,
		     const struct path_slot *e)
{
	if (!e)
		return;
	ALLOC_GROW_BY(p->deps, p->nr_deps, e->nr, *alloc);
	memcpy(p->deps + p->nr_deps - e->nr, e->pos, e->nr * sizeof(*e->pos));
}

static int cmp_pos(const void *a, const void *b)
{
	size_t x = *(const size_t *)a, y = *(const size_t *)b;

	return x < y ? -1 : x > y;
}

/*
 * What the tree picked onto has at a path, as the key hashes it (see
 * apply.h), kept per path: a series' picks share their files, and
 * git_tree_entry_bypath() reads every tree on the way down each time.
 */
struct tip_entry {
	char *path;
	struct strbuf bytes;
	UT_hash_handle hh;
};

static void describe_entry(struct strbuf *out, const git_tree *tree,
			   const char *path)
{
	git_tree_entry *e = entry_at(tree, path);
	const char *slash;
	unsigned char mode[4];
	uint32_t m;

	for (slash = strchr(path, '/'); !e && slash;
	     slash = strchr(slash + 1, '/')) {
		char *dir = xstrndup(path, (size_t)(slash - path));

		e = entry_at(tree, dir);
		free(dir);
		if (!e)
			break;
		if (git_tree_entry_type(e) != GIT_OBJECT_TREE) {
			/* A file where a directory of the path should be. */
			strbuf_addch(out, 'b');
			strbuf_add(out, path, (size_t)(slash - path) + 1);
			break;
		}
		git_tree_entry_free(e);
		e = NULL;
	}
	if (!e) {
		strbuf_addch(out, 'a');
		return;
	}
	strbuf_addch(out, 'e');
	m = (uint32_t)git_tree_entry_filemode(e);
	mode[0] = m >> 24;
	mode[1] = m >> 16;
	mode[2] = m >> 8;
	mode[3] = m;
	strbuf_add(out, mode, 4);
	strbuf_add(out, git_tree_entry_id(e)->id, GIT_OID_RAWSZ);
	git_tree_entry_free(e);
}

/* Hashes what the tree picked onto has at path. */
static void hash_entry(struct sha1 *ctx, const git_tree *tree,
		       const char *path, struct tip_entry **memo)
{
	struct tip_entry *t;

	HASH_FIND_STR(*memo, path, t);
	if (!t) {
		t = xcalloc(1, sizeof(*t));
		t->path = xstrdup(path);
		strbuf_init(&t->bytes, 0);
		describe_entry(&t->bytes, tree, path);
		HASH_ADD_KEYPTR(hh, *memo, t->path, strlen(t->path), t);
	}
	sha1_update(ctx, t->bytes.buf, t->bytes.len);
}

static void free_tip_entry(struct tip_entry *t)
{
	free(t->path);
	strbuf_release(&t->bytes);
	free(t);
}

/*
 * The key of pick i (see apply.h) into keys + i * SHA1_RAWSZ, and its
 * dependencies into s->picks[i].deps; then registers its paths in
 * files and dirs for the picks after it.
 */
static void key_pick(struct apply_series *s, size_t i, unsigned char *keys,
		     const git_tree *tip, struct tip_entry **memo,
		     char *const *paths, size_t nr,
		     struct path_slot **files, struct path_slot **dirs)
{
	static const char salt[] = "stablepick trial pick\n";
	struct series_pick *p = &s->picks[i];
	struct sha1 ctx;
	size_t j, k, n, alloc = 0;
	const char *slash;

	sha1_init(&ctx);
	sha1_update(&ctx, salt, sizeof(salt));
	sha1_update(&ctx, p->id.id, GIT_OID_RAWSZ);
	for (j = 0; j < nr; j++) {
		sha1_update(&ctx, paths[j], strlen(paths[j]) + 1);
		hash_entry(&ctx, tip, paths[j], memo);
		add_deps(p, &alloc, find_slot(files, paths[j],
					      strlen(paths[j]), 0));
		add_deps(p, &alloc, find_slot(dirs, paths[j],
					      strlen(paths[j]), 0));
		for (slash = strchr(paths[j], '/'); slash;
		     slash = strchr(slash + 1, '/'))
			add_deps(p, &alloc, find_slot(files, paths[j],
						      (size_t)(slash - paths[j]),
						      0));
	}
	QSORT(p->deps, p->nr_deps, cmp_pos);
	for (k = 0, n = 0; k < p->nr_deps; k++)
		if (!n || p->deps[n - 1] != p->deps[k])
			p->deps[n++] = p->deps[k];
	p->nr_deps = n;
	for (k = 0; k < n; k++)
		sha1_update(&ctx, keys + p->deps[k] * SHA1_RAWSZ, SHA1_RAWSZ);
	sha1_final(keys + i * SHA1_RAWSZ, &ctx);
	for (j = 0; j < nr; j++) {
		add_slot(files, paths[j], strlen(paths[j]), i);
		for (slash = strchr(paths[j], '/'); slash;
		     slash = strchr(slash + 1, '/'))
			add_slot(dirs, paths[j], (size_t)(slash - paths[j]), i);
	}
}

static void from_record(struct apply_result *r, const struct trial_record *rec)
{
	size_t i;

	apply_result_release(r);
	r->applies = rec->applies;
	for (i = 0; i < rec->nr_conflicts; i++)
		add_conflict(r, rec->conflicts[i]);
	for (i = 0; i < rec->nr_changes; i++)
		add_change(r, rec->changes[i].path, rec->changes[i].mode,
			   &rec->changes[i].id);
}

static void to_record(struct trial_record *rec, const struct apply_result *r)
{
	rec->applies = r->applies;
	rec->conflicts = r->conflicts;
	rec->nr_conflicts = r->nr_conflicts;
	rec->changes = r->changes;
	rec->nr_changes = r->nr_changes;
}

/*
 * A pick taken from the cache reads nothing of its commit: that the
 * trees it would read are in the repository is checked (an index
 * look-up each), so that a damaged repository is not hidden by a
 * cache, with the errors of pick_onto_tree().  0, or -1 after an
 * error message.
 */
static int trees_at_hand(git_repository *repo, git_odb *odb,
			 const git_commit *pick)
{
	const struct commit_graph *g = history_graph(repo);
	char hex[GIT_OID_HEXSZ + 1], pid[GIT_OID_HEXSZ + 1];
	git_oid ptree;
	uint32_t pos;
	int ret = 0, has_parent = git_commit_parentcount(pick) > 0;

	git_oid_tostr(hex, sizeof(hex), git_commit_id(pick));
	/* The parent's tree id from the commit-graph, else its object. */
	if (has_parent && g &&
	    commit_graph_find(g, git_commit_parent_id(pick, 0), &pos)) {
		commit_graph_tree(g, pos, &ptree);
	} else if (has_parent &&
		   malformed_tree_id(&ptree, repo,
				     git_commit_parent_id(pick, 0)) < 0) {
		return error_git("cannot read commit %s, the parent of %.12s",
				 git_oid_tostr_s(git_commit_parent_id(pick, 0)),
				 hex);
	}
	if (has_parent && !git_odb_exists(odb, &ptree)) {
		git_oid_tostr(pid, sizeof(pid), git_commit_parent_id(pick, 0));
		ret = error("cannot read tree %s of commit %.12s, the parent "
			    "of %.12s: object not found",
			    git_oid_tostr_s(&ptree), pid, hex);
	} else if (!git_odb_exists(odb, git_commit_tree_id(pick))) {
		ret = error("cannot read tree %s of commit %.12s: object not "
			    "found", git_oid_tostr_s(git_commit_tree_id(pick)),
			    hex);
	}
	return ret;
}

int apply_series_check_cached(struct apply_result *out, git_repository *repo,
			      const git_commit *onto,
			      const git_commit *const *picks, size_t nr,
			      struct trialcache *cache)
{
	struct path_slot *files = NULL, *dirs = NULL, *e, *tmp;
	struct tip_entry *memo = NULL, *t, *ttmp;
	struct apply_series *s;
	unsigned char *keys;
	git_tree *tip = NULL;
	git_odb *odb = NULL;
	char *want;
	size_t i, made = 0;
	int ret = 0;

	if (!cache)
		return apply_series_check(out, repo, onto, picks, nr);
	for (i = 0; i < nr; i++) {
		apply_result_release(&out[i]);
		if (git_commit_parentcount(picks[i]) > 1)
			return error("cannot trial-pick merge %.12s",
				     git_oid_tostr_s(git_commit_id(picks[i])));
	}
	if (git_repository_odb(&odb, repo) < 0)
		return error_git("cannot open the object database");
	if (git_commit_tree(&tip, onto) < 0) {
		git_odb_free(odb);
		return error_git("cannot read the tree of %.12s",
				 git_oid_tostr_s(git_commit_id(onto)));
	}
	s = xcalloc(1, sizeof(*s));
	s->refs = 1;
	git_oid_cpy(&s->onto, git_commit_id(onto));
	s->picks = xcalloc(nr ? nr : 1, sizeof(*s->picks));
	s->nr = nr;
	keys = xcalloc(nr ? nr : 1, SHA1_RAWSZ);
	want = xcalloc(nr ? nr : 1, 1);
	for (i = 0; !ret && i < nr; i++) {
		char *const *paths;
		const struct trial_record *rec;
		size_t nr_paths;

		git_oid_cpy(&s->picks[i].id, git_commit_id(picks[i]));
		paths = pick_paths(cache, repo, picks[i], &nr_paths);
		if (!paths) {
			ret = -1;
			break;
		}
		key_pick(s, i, keys, tip, &memo, paths, nr_paths, &files,
			 &dirs);
		rec = trialcache_find(cache, keys + i * SHA1_RAWSZ);
		if (!rec) {
			want[i] = 1;
			continue;
		}
		if (trees_at_hand(repo, odb, picks[i]) < 0) {
			ret = -1;
			break;
		}
		from_record(&out[i], rec);
		remember(&s->picks[i], &out[i]);
		cache->hits++;
	}
	if (!ret)
		ret = series_build(s, repo, want, out, &made);
	cache->computed += made;
	for (i = 0; !ret && i < nr; i++) {
		struct trial_record rec;

		if (want[i]) {
			to_record(&rec, &out[i]);
			trialcache_put(cache, keys + i * SHA1_RAWSZ, &rec);
		}
		out[i].series = s;
		out[i].pos = i;
		s->refs++;
	}
	series_unref(s);
	HASH_FREE_ALL(files, e, tmp, free_slot);
	HASH_FREE_ALL(dirs, e, tmp, free_slot);
	HASH_FREE_ALL(memo, t, ttmp, free_tip_entry);
	git_tree_free(tip);
	git_odb_free(odb);
	free(want);
	free(keys);
	return ret;
}

/*
 * The trees of a result from the cache, by picking it again.  A patch
 * is wanted for most picks that applied (the mbox, the queue): the
 * first one asked for makes them all, in one pass of the series.
 */
static int make_trees(const struct apply_result *r, git_repository *repo,
		      git_oid *before, git_oid *after)
{
	struct apply_series *s = r->series;
	struct apply_result *tmp;
	char *want;
	size_t i, made = 0;
	int ret = 0;

	if (!s)
		return error("no patch: the pick's series is not known");
	if (!s->built) {
		s->built = xcalloc(s->nr, 1);
		s->before = xcalloc(s->nr, sizeof(*s->before));
		s->after = xcalloc(s->nr, sizeof(*s->after));
		tmp = xcalloc(s->nr, sizeof(*tmp));
		want = xcalloc(s->nr, 1);
		for (i = 0; i < s->nr; i++)
			want[i] = s->picks[i].known && s->picks[i].applies;
		ret = series_build(s, repo, want, tmp, &made);
		for (i = 0; i < s->nr; i++) {
			if (!ret && tmp[i].trees) {
				git_oid_cpy(&s->before[i], &tmp[i].before);
				git_oid_cpy(&s->after[i], &tmp[i].after);
				s->built[i] = 1;
			}
			apply_result_release(&tmp[i]);
		}
		free(tmp);
		free(want);
		if (ret)
			return ret;
	}
	if (!s->built[r->pos])
		return error("no patch: %s does not apply when picked again",
			     git_oid_tostr_s(&s->picks[r->pos].id));
	git_oid_cpy(before, &s->before[r->pos]);
	git_oid_cpy(after, &s->after[r->pos]);
	return 0;
}
