#include "git/apply-internal.h"
#include "base/error.h"
#include "base/progress.h"
#include "git/treememo.h"
#include "base/util.h"

#include <stdlib.h>
#include <string.h>
#include <uthash.h>

/*
 * Series kept by their inputs (apply_series_check_cached()): each
 * pick's key (apply-keys.c), the results the trial cache has, the picks made again
 * (with the earlier ones they need) for the others, and for a patch
 * the trees of a result taken from the cache.
 */

static void forget_changes(struct series_pick *p)
{
	size_t i;

	for (i = 0; i < p->nr_changes; i++)
		free(p->changes[i].path);
	free(p->changes);
	p->changes = NULL;
	p->nr_changes = 0;
}

void apply_series_unref(struct apply_series *s)
{
	size_t i;

	if (!s || --s->refs > 0)
		return;
	for (i = 0; i < s->nr; i++) {
		forget_changes(&s->picks[i]);
		pick_deps_unref(s->picks[i].deps);
	}
	free(s->picks);
	free(s->before);
	free(s->after);
	free(s->built);
	free(s->patch);
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

/* What a path holds at a point of a series (mode 0: nothing). */
struct path_state {
	const char *path;		/* borrowed from the picks */
	uint32_t mode;
	git_oid id;
	UT_hash_handle hh;
};

/*
 * Into *out, a tree of the entries states has at the paths of p's
 * changes (with after, once p's changes are made), and nothing else.
 * 0, or libgit2's error.
 */
static int paths_tree(git_oid *out, git_repository *repo,
		      const git_tree *empty, struct path_state *states,
		      const struct series_pick *p, int after)
{
	git_tree_update *ups = xcalloc(p->nr_changes ? p->nr_changes : 1,
				       sizeof(*ups));
	size_t i, nr = 0;
	int ret;

	for (i = 0; i < p->nr_changes; i++) {
		const struct trial_change *ch = &p->changes[i];
		struct path_state *e;
		uint32_t mode = ch->mode;
		const git_oid *id = &ch->id;

		if (!after) {
			HASH_FIND_STR(states, ch->path, e);
			mode = e ? e->mode : 0;
			id = e ? &e->id : NULL;
		}
		if (!mode)
			continue;
		ups[nr].action = GIT_TREE_UPDATE_UPSERT;
		ups[nr].path = ch->path;
		ups[nr].filemode = (git_filemode_t)mode;
		git_oid_cpy(&ups[nr].id, id);
		nr++;
	}
	ret = git_tree_create_updated(out, repo, (git_tree *)empty, nr, ups);
	free(ups);
	return ret;
}

/*
 * The trees of the wanted picks of s when every pick they need is
 * replayed (act): not the branch's tree with the changes of the picks
 * before, which rebuilds directories of hundreds of entries for each
 * pick, but a tree of the pick's paths alone, as the branch and the
 * picks before it left them, and the same with its changes.  The diff
 * of a patch covers the paths of its pick alone, whose entries are the
 * same in both.  0, or -1 after an error message.
 */
static int replay_paths(struct apply_series *s, git_repository *repo,
			const git_tree *tip, const enum series_act *act,
			const char *want, struct apply_result *out)
{
	struct path_state *states = NULL, *e, *tmp;
	git_treebuilder *tb = NULL;
	git_tree *empty = NULL;
	size_t i, j;
	git_oid id;
	int ret = 0;

	if (git_treebuilder_new(&tb, repo, NULL) < 0 ||
	    git_treebuilder_write(&id, tb) < 0 ||
	    git_tree_lookup(&empty, repo, &id) < 0) {
		ret = error_git("cannot write the empty tree");
		goto out;
	}
	for (i = 0; !ret && i < s->nr; i++) {
		const struct series_pick *p = &s->picks[i];

		if (act[i] != ACT_REPLAY)
			continue;
		for (j = 0; j < p->nr_changes; j++) {
			git_tree_entry *te;

			HASH_FIND_STR(states, p->changes[j].path, e);
			if (e)
				continue;
			e = xcalloc(1, sizeof(*e));
			e->path = p->changes[j].path;
			te = treememo_entry_at(tip, e->path);
			if (te && git_tree_entry_type(te) != GIT_OBJECT_TREE) {
				e->mode = (uint32_t)git_tree_entry_filemode(te);
				git_oid_cpy(&e->id, git_tree_entry_id(te));
			}
			git_tree_entry_free(te);
			HASH_ADD_KEYPTR(hh, states, e->path, strlen(e->path), e);
		}
		if (want[i]) {
			apply_result_release(&out[i]);
			if (paths_tree(&out[i].before, repo, empty, states, p, 0) < 0 ||
			    paths_tree(&out[i].after, repo, empty, states, p, 1) < 0) {
				ret = error_git("cannot replay the pick of %s",
						git_oid_tostr_s(&p->id));
				break;
			}
			out[i].applies = out[i].trees = 1;
		}
		for (j = 0; j < p->nr_changes; j++) {
			HASH_FIND_STR(states, p->changes[j].path, e);
			e->mode = p->changes[j].mode;
			git_oid_cpy(&e->id, &p->changes[j].id);
		}
	}
out:
	HASH_ITER(hh, states, e, tmp) {
		HASH_DEL(states, e);
		free(e);
	}
	git_tree_free(empty);
	git_treebuilder_free(tb);
	return ret;
}

/* want[i] of a pick made: its result is in out[i]. */
#define MADE 2

/*
 * Picks onto s->onto the picks of s that want marks, with the earlier
 * ones they need (see apply_series_check_cached()); out[i] gets the
 * result of each pick made (want[i] becomes MADE), *made their number.
 * With trees_only, a wanted pick whose result is known is replayed
 * instead, as its needs are, and out[i] gets its trees alone (see
 * apply_series_make_trees()): when every pick is replayed, trees of
 * its paths alone (replay_paths()).  0, or -1 after an error message
 * or when interrupted (interrupted()).
 */
static int series_build(struct apply_series *s, git_repository *repo,
			char *want, int trees_only,
			struct apply_result *out, size_t *made)
{
	enum series_act *act = xcalloc(s->nr ? s->nr : 1, sizeof(*act));
	git_commit *onto = NULL, *pick = NULL;
	git_tree *tree = NULL, *tip = NULL;
	git_odb *odb = NULL;
	struct progress progress;
	size_t i, j, nr_picks = 0, all_below = SIZE_MAX;
	int ret = 0;

	if (git_repository_odb(&odb, repo) < 0) {
		ret = error_git("cannot open the object database");
		goto out;
	}
	/* Latest first: a pick's needs are settled before its own. */
	for (i = s->nr; i-- > 0;) {
		const struct series_pick *p = &s->picks[i];
		size_t nr_needs;

		if (want[i])
			act[i] = trees_only && p->known && p->applies &&
				 replayable(odb, p) ? ACT_REPLAY : ACT_PICK;
		if (act[i] != ACT_PICK && !want[i])
			continue;
		/*
		 * A pick after all the earlier ones needs each of them:
		 * once for the latest such (the others are below it).
		 */
		nr_needs = p->after_all ? (i < all_below ? i : 0) :
			   p->deps ? p->deps->nr : 0;
		if (p->after_all && i < all_below)
			all_below = i;
		for (j = 0; j < nr_needs; j++) {
			size_t at = p->after_all ? j : p->deps->at[j];
			const struct series_pick *d = &s->picks[at];
			enum series_act *a = &act[at];

			if (*a != ACT_NONE || (d->known && !d->applies))
				continue;
			*a = d->known && replayable(odb, d) ? ACT_REPLAY : ACT_PICK;
		}
	}
	if (git_commit_lookup(&onto, repo, &s->onto) < 0 ||
	    git_commit_tree(&tip, onto) < 0 ||
	    git_commit_tree(&tree, onto) < 0) {
		ret = error_git("cannot read the tree of %s",
				git_oid_tostr_s(&s->onto));
		goto out;
	}
	/* A pick made again needs the whole tree (renames, merges). */
	for (i = 0; i < s->nr && act[i] != ACT_PICK; i++)
		;
	if (trees_only && i == s->nr) {
		ret = replay_paths(s, repo, tip, act, want, out);
		goto out;
	}
	for (i = 0; i < s->nr; i++)
		nr_picks += act[i] == ACT_PICK;
	progress_start(&progress, "Trial picks", nr_picks);
	for (i = 0; !ret && i < s->nr; i++) {
		if (interrupted()) {
			ret = -1;
			break;
		}
		if (act[i] == ACT_REPLAY && want[i]) {
			apply_result_release(&out[i]);
			git_oid_cpy(&out[i].before, git_tree_id(tree));
			ret = replay(repo, &tree, &s->picks[i]);
			git_oid_cpy(&out[i].after, git_tree_id(tree));
			out[i].applies = out[i].trees = !ret;
			continue;
		}
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
		ret = apply_pick_onto_tree(&out[i], repo, tip, &tree, pick);
		git_commit_free(pick);
		if (!ret)
			remember(&s->picks[i], &out[i]);
		if (!ret && want[i])
			want[i] = MADE;
		(*made)++;
		progress_update(&progress, *made);
	}
	progress_stop(&progress);
out:
	git_tree_free(tree);
	git_tree_free(tip);
	git_commit_free(onto);
	git_odb_free(odb);
	free(act);
	return ret;
}

static void from_record(struct apply_result *r, const struct trial_record *rec)
{
	size_t i;

	apply_result_release(r);
	r->applies = rec->applies;
	for (i = 0; i < rec->nr_conflicts; i++)
		apply_add_conflict(r, rec->conflicts[i]);
	for (i = 0; i < rec->nr_changes; i++)
		apply_add_change(r, rec->changes[i].path,
				 rec->changes[i].mode, &rec->changes[i].id);
}

static void to_record(struct trial_record *rec, const struct apply_result *r)
{
	rec->applies = r->applies;
	rec->conflicts = r->conflicts;
	rec->nr_conflicts = r->nr_conflicts;
	rec->changes = r->changes;
	rec->nr_changes = r->nr_changes;
}

int apply_series_check_cached(struct apply_result *out, git_repository *repo,
			      const git_commit *onto,
			      const git_commit *const *picks, size_t nr,
			      struct trialcache *cache)
{
	struct series_keys k;
	struct apply_series *s;
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
	want = xcalloc(nr ? nr : 1, 1);
	series_keys_init(&k, cache, tip, &s->onto, picks, nr);
	for (i = 0; !ret && i < nr; i++) {
		char *const *paths;
		const unsigned char *in_parent;
		const struct trial_record *rec;
		size_t nr_paths;

		git_oid_cpy(&s->picks[i].id, git_commit_id(picks[i]));
		paths = apply_pick_paths(cache, repo, picks[i], &nr_paths,
					 &in_parent);
		if (!paths) {
			ret = -1;
			break;
		}
		series_keys_add(&k, s, i, paths, in_parent, nr_paths);
		rec = trialcache_find(cache, k.keys + i * SHA1_RAWSZ);
		if (!rec) {
			want[i] = 1;
			continue;
		}
		if (apply_cached_trees_at_hand(cache, repo, odb, picks[i]) < 0) {
			ret = -1;
			break;
		}
		from_record(&out[i], rec);
		remember(&s->picks[i], &out[i]);
		cache->hits++;
	}
	if (!ret)
		ret = series_build(s, repo, want, 0, out, &made);
	cache->computed += made;
	/*
	 * Interrupted, the picks made so far are kept: each one's result
	 * is whole, and what it depends on is in its key.
	 */
	for (i = 0; (!ret || interrupted()) && i < nr; i++) {
		struct trial_record rec;

		if (want[i] == MADE) {
			to_record(&rec, &out[i]);
			trialcache_put(cache, k.keys + i * SHA1_RAWSZ, &rec);
		}
		if (ret)
			continue;
		out[i].series = s;
		out[i].pos = i;
		s->refs++;
	}
	apply_series_unref(s);
	series_keys_release(&k);
	git_tree_free(tip);
	git_odb_free(odb);
	free(want);
	return ret;
}

void apply_result_want_patch(const struct apply_result *r)
{
	struct apply_series *s = r->series;

	if (!s || r->trees)
		return;
	if (!s->patch)
		s->patch = xcalloc(s->nr, 1);
	s->patch[r->pos] = 1;
}

/*
 * Whether apply_series_make_trees() makes the trees of pick i now:
 * one that applied, not made yet, asked for (or, when no patch was
 * announced, any).
 */
static int trees_wanted(const struct apply_series *s, size_t i, size_t pos)
{
	return s->picks[i].known && s->picks[i].applies && !s->built[i] &&
	       (i == pos || !s->patch || s->patch[i]);
}

int apply_series_make_trees(const struct apply_result *r,
			    git_repository *repo, git_oid *before,
			    git_oid *after)
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
	}
	if (!s->built[r->pos]) {
		tmp = xcalloc(s->nr, sizeof(*tmp));
		want = xcalloc(s->nr, 1);
		for (i = 0; i < s->nr; i++)
			want[i] = trees_wanted(s, i, r->pos);
		ret = series_build(s, repo, want, 1, tmp, &made);
		for (i = 0; i < s->nr; i++) {
			if (!ret && want[i])
				s->built[i] = tmp[i].trees ? 1 : 2;
			if (!ret && tmp[i].trees) {
				git_oid_cpy(&s->before[i], &tmp[i].before);
				git_oid_cpy(&s->after[i], &tmp[i].after);
			}
			apply_result_release(&tmp[i]);
		}
		free(tmp);
		free(want);
		if (ret)
			return ret;
	}
	if (s->built[r->pos] != 1)
		return error("no patch: %s does not apply when picked again",
			     git_oid_tostr_s(&s->picks[r->pos].id));
	git_oid_cpy(before, &s->before[r->pos]);
	git_oid_cpy(after, &s->after[r->pos]);
	return 0;
}
