#include "git/apply-internal.h"
#include "base/error.h"
#include "base/progress.h"
#include "base/sha1.h"
#include "git/malformed.h"
#include "base/strbuf.h"
#include "git/treediff.h"
#include "base/util.h"

#include <stdlib.h>
#include <string.h>
#include <uthash.h>

/*
 * Series kept by their inputs (apply_series_check_cached()): each
 * pick's key, the results the trial cache has, the picks made again
 * (with the earlier ones they need) for the others, and for a patch
 * the trees of a result taken from the cache.
 */

/* A pick of a series, as much as making its trees again needs. */
struct series_pick {
	git_oid id;
	int known;			/* applies and changes are known */
	int applies;
	struct trial_change *changes;
	size_t nr_changes;
	size_t *deps;			/* the earlier picks on its paths */
	size_t nr_deps;
	int after_all;			/* or all the earlier picks */
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
	/*
	 * The trees of the picks that applied, as made
	 * (apply_series_make_trees()): built[i] is 1 when they are, 2
	 * when making them failed.  patch[i] marks a pick whose patch
	 * will be asked for (apply_result_want_patch()).
	 */
	git_oid *before, *after;
	char *built;
	char *patch;
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

void apply_series_unref(struct apply_series *s)
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
			te = apply_entry_at(tip, e->path);
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
		nr_needs = p->after_all ? (i < all_below ? i : 0) : p->nr_deps;
		if (p->after_all && i < all_below)
			all_below = i;
		for (j = 0; j < nr_needs; j++) {
			size_t at = p->after_all ? j : p->deps[j];
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

char *const *apply_pick_paths(struct trialcache *cache, git_repository *repo,
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
 * apply.h).  The trial cache keeps it for the run, by tree and path: the
 * picks of a series, and the series a search tries, share their files,
 * and git_tree_entry_bypath() reads every tree on the way down each
 * time.
 */
static void describe_entry(struct strbuf *out, const git_tree *tree,
			   const char *path)
{
	git_tree_entry *e = apply_entry_at(tree, path);
	const char *slash;
	unsigned char mode[4];
	uint32_t m;

	for (slash = strchr(path, '/'); !e && slash;
	     slash = strchr(slash + 1, '/')) {
		char *dir = xstrndup(path, (size_t)(slash - path));

		e = apply_entry_at(tree, dir);
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

/*
 * Hashes what the tree picked onto has at path; 1 when it has nothing
 * there, nor in the way of it.
 */
static int hash_entry(struct sha1 *ctx, const git_tree *tree,
		      const char *path, struct trialcache *cache)
{
	struct strbuf sb = STRBUF_INIT;
	size_t len;
	const char *bytes = trialcache_find_entry(cache, git_tree_id(tree),
						  path, &len);
	int absent;

	if (!bytes) {
		describe_entry(&sb, tree, path);
		trialcache_put_entry(cache, git_tree_id(tree), path, sb.buf,
				     sb.len);
		bytes = sb.buf;
		len = sb.len;
	}
	sha1_update(ctx, bytes, len);
	absent = bytes[0] == 'a';
	strbuf_release(&sb);
	return absent;
}

/*
 * Whether the parent of pick has one of the paths (which the tree
 * picked onto lacks): the pick then follows renames on the branch
 * (apply_pick_onto_tree()).  A parent that cannot be read says yes:
 * the key is only more careful, and the pick reports the error.
 */
static int parent_has_one(const git_commit *pick, char *const *paths,
			  const unsigned char *absent, size_t nr)
{
	git_repository *repo = git_commit_owner(pick);
	git_tree *base = NULL;
	git_oid ptree;
	size_t j;
	int has = 0;

	if (!git_commit_parentcount(pick))
		return 0;
	if (malformed_tree_id(&ptree, repo, git_commit_parent_id(pick, 0)) < 0 ||
	    git_tree_lookup(&base, repo, &ptree) < 0) {
		git_error_clear();
		return 1;
	}
	for (j = 0; !has && j < nr; j++) {
		git_tree_entry *e;

		if (!absent[j])
			continue;
		e = apply_entry_at(base, paths[j]);
		has = e && git_tree_entry_type(e) == GIT_OBJECT_BLOB;
		git_tree_entry_free(e);
	}
	git_tree_free(base);
	return has;
}

/*
 * Registers pick i's paths in files and dirs for the picks after it,
 * and, when it follows renames on the branch, itself in moves.
 */
static void register_pick(size_t i, char *const *paths, size_t nr, int moving,
			  struct path_slot **files, struct path_slot **dirs,
			  struct path_slot **moves)
{
	const char *slash;
	size_t j;

	if (moving)
		add_slot(moves, "", 0, i);
	for (j = 0; j < nr; j++) {
		add_slot(files, paths[j], strlen(paths[j]), i);
		for (slash = strchr(paths[j], '/'); slash;
		     slash = strchr(slash + 1, '/'))
			add_slot(dirs, paths[j], (size_t)(slash - paths[j]), i);
	}
}

/* Adds the last pick of slot e to v (ALLOC_GROW'n), or all of them. */
static void add_key_dep(size_t **v, size_t *nr, size_t *alloc,
			const struct path_slot *e, int all)
{
	size_t k;

	if (!e || !e->nr)
		return;
	for (k = all ? 0 : e->nr - 1; k < e->nr; k++) {
		ALLOC_GROW(*v, *nr, *alloc);
		(*v)[(*nr)++] = e->pos[k];
	}
}

/*
 * Hashes, in order, the keys of the earlier picks a pick's result
 * depends on (p->deps when it follows renames: all of them): of those
 * that changed one of its paths (or a file above one), the last only,
 * since what a path holds after it is decided by its key; every one
 * that changed a path below one; and moved, the digest of the keys of
 * every one that followed renames, in order.  That digest, not each
 * key: a series of 45,000 picks with 500 such ones hashed 20 million
 * keys.
 */
static void key_deps(struct sha1 *ctx, const unsigned char *keys,
		     const struct series_pick *p, char *const *paths,
		     size_t nr, struct path_slot *files, struct path_slot *dirs,
		     const unsigned char *moved)
{
	size_t *v = NULL, n = 0, alloc = 0, j, k, m;
	const char *slash;

	if (p->after_all) {
		for (k = 0; k < p->nr_deps; k++)
			sha1_update(ctx, keys + p->deps[k] * SHA1_RAWSZ,
				    SHA1_RAWSZ);
		return;
	}
	sha1_update(ctx, moved, SHA1_RAWSZ);
	for (j = 0; j < nr; j++) {
		add_key_dep(&v, &n, &alloc, find_slot(&files, paths[j],
				strlen(paths[j]), 0), 0);
		add_key_dep(&v, &n, &alloc, find_slot(&dirs, paths[j],
				strlen(paths[j]), 0), 1);
		for (slash = strchr(paths[j], '/'); slash;
		     slash = strchr(slash + 1, '/'))
			add_key_dep(&v, &n, &alloc, find_slot(&files, paths[j],
					(size_t)(slash - paths[j]), 0), 0);
	}
	QSORT(v, n, cmp_pos);
	for (k = 0, m = 0; k < n; k++)
		if (!m || v[m - 1] != v[k])
			v[m++] = v[k];
	for (k = 0; k < m; k++)
		sha1_update(ctx, keys + v[k] * SHA1_RAWSZ, SHA1_RAWSZ);
	free(v);
}

/*
 * The key of pick i (see apply.h) into keys + i * SHA1_RAWSZ, and its
 * dependencies into s->picks[i].deps; then registers its paths in
 * files and dirs for the picks after it, and, when it follows renames
 * on the branch, itself in moves and its key in moved (the digest of
 * the keys of such picks so far).
 */
static void key_pick(struct apply_series *s, size_t i, unsigned char *keys,
		     const unsigned char *before, const git_tree *tip,
		     struct trialcache *cache, const git_commit *pick,
		     char *const *paths, size_t nr, struct path_slot **files,
		     struct path_slot **dirs, struct path_slot **moves,
		     unsigned char *moved)
{
	static const char salt[] = "stablepick trial pick\n";
	static const char renames[] = "renames on the branch\n";
	struct series_pick *p = &s->picks[i];
	unsigned char *absent = xcalloc(nr ? nr : 1, 1);
	struct sha1 ctx;
	size_t j, k, n, alloc = 0, nr_absent = 0;
	const char *slash;
	int moving;

	sha1_init(&ctx);
	sha1_update(&ctx, salt, sizeof(salt));
	sha1_update(&ctx, p->id.id, GIT_OID_RAWSZ);
	/* Every pick that followed renames may have changed its paths. */
	add_deps(p, &alloc, find_slot(moves, "", 0, 0));
	for (j = 0; j < nr; j++) {
		sha1_update(&ctx, paths[j], strlen(paths[j]) + 1);
		absent[j] = (unsigned char)hash_entry(&ctx, tip, paths[j], cache);
		nr_absent += absent[j];
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
	/*
	 * Following renames reads the whole of the tree picked onto and
	 * of the series so far: its id and every earlier pick are in the
	 * key, the picks as the digest of their keys in order (before),
	 * not each one's: a series of 15,000 with hundreds such hashed
	 * and sorted millions of keys.
	 */
	moving = nr_absent && parent_has_one(pick, paths, absent, nr);
	free(absent);
	if (moving) {
		sha1_update(&ctx, renames, sizeof(renames));
		sha1_update(&ctx, git_tree_id(tip)->id, GIT_OID_RAWSZ);
		sha1_update(&ctx, before, SHA1_RAWSZ);
		p->after_all = 1;
		p->nr_deps = 0;
	}
	QSORT(p->deps, p->nr_deps, cmp_pos);
	for (k = 0, n = 0; k < p->nr_deps; k++)
		if (!n || p->deps[n - 1] != p->deps[k])
			p->deps[n++] = p->deps[k];
	p->nr_deps = n;
	key_deps(&ctx, keys, p, paths, nr, *files, *dirs, moved);
	sha1_final(keys + i * SHA1_RAWSZ, &ctx);
	if (moving) {
		sha1_init(&ctx);
		sha1_update(&ctx, moved, SHA1_RAWSZ);
		sha1_update(&ctx, keys + i * SHA1_RAWSZ, SHA1_RAWSZ);
		sha1_final(moved, &ctx);
	}
	register_pick(i, paths, nr, moving, files, dirs, moves);
}

/*
 * The keys of a series as keyed last (struct trialcache's keyed): the
 * commit picked onto, and for each pick its id, key, dependencies,
 * and the digests of the keys so far and of those that followed
 * renames, after it.  They are what key_pick() finds again for the
 * same picks in the same order onto the same commit: nothing else
 * goes into a key (apply.h).
 */
struct keyed_pick {
	git_oid id;
	unsigned char key[SHA1_RAWSZ];
	unsigned char before[SHA1_RAWSZ], moved[SHA1_RAWSZ];
	size_t *deps, nr_deps;
	int after_all;
};

/* A pick whose trees were found in the repository. */
struct pick_at_hand {
	git_oid id;
	UT_hash_handle hh;
};

struct trialcache_keyed {
	git_oid onto;
	struct keyed_pick *picks;
	size_t nr, alloc;
	/*
	 * The picks taken from the cache whose trees were found, once a
	 * run: a search takes the same proposals before every set.
	 */
	struct pick_at_hand *at_hand;
};

static void keyed_truncate(struct trialcache_keyed *k, size_t nr)
{
	while (k->nr > nr)
		free(k->picks[--k->nr].deps);
}

static void free_keyed(struct trialcache_keyed *k)
{
	struct pick_at_hand *e, *tmp;

	keyed_truncate(k, 0);
	free(k->picks);
	HASH_FREE_ALL(k->at_hand, e, tmp, free);
	free(k);
}

static struct trialcache_keyed *keyed_of(struct trialcache *cache)
{
	if (!cache->keyed) {
		cache->keyed = xcalloc(1, sizeof(*cache->keyed));
		cache->free_keyed = free_keyed;
	}
	return cache->keyed;
}

/*
 * apply_trees_at_hand() for a pick taken from the cache, once a run
 * for each pick (a repack that deletes packs during the run fails it
 * later, with "object not found", as apply-odb.c says).
 */
static int trees_at_hand(struct trialcache *cache, git_repository *repo,
			 git_odb *odb, const git_commit *pick)
{
	struct trialcache_keyed *k = keyed_of(cache);
	struct pick_at_hand *e;

	HASH_FIND(hh, k->at_hand, git_commit_id(pick), sizeof(git_oid), e);
	if (e)
		return 0;
	cache->trees_checked++;
	if (apply_trees_at_hand(repo, odb, pick) < 0)
		return -1;
	e = xcalloc(1, sizeof(*e));
	git_oid_cpy(&e->id, git_commit_id(pick));
	HASH_ADD(hh, k->at_hand, id, sizeof(git_oid), e);
	return 0;
}

/*
 * How many of the first picks of a series onto the commit onto the
 * series keyed last starts with.
 */
static size_t keyed_prefix(const struct trialcache *cache, const git_oid *onto,
			   const git_commit *const *picks, size_t nr)
{
	const struct trialcache_keyed *k = cache->keyed;
	size_t i;

	if (!k || !git_oid_equal(&k->onto, onto))
		return 0;
	for (i = 0; i < nr && i < k->nr; i++)
		if (!git_oid_equal(&k->picks[i].id, git_commit_id(picks[i])))
			break;
	return i;
}

/* Pick i as keyed last, and its paths registered as key_pick() does. */
static void key_again(struct apply_series *s, size_t i, unsigned char *keys,
		      unsigned char *before, unsigned char *moved,
		      const struct trialcache_keyed *k, char *const *paths,
		      size_t nr, struct path_slot **files,
		      struct path_slot **dirs, struct path_slot **moves)
{
	const struct keyed_pick *kp = &k->picks[i];
	struct series_pick *p = &s->picks[i];

	memcpy(keys + i * SHA1_RAWSZ, kp->key, SHA1_RAWSZ);
	memcpy(before, kp->before, SHA1_RAWSZ);
	memcpy(moved, kp->moved, SHA1_RAWSZ);
	p->deps = xcalloc(kp->nr_deps ? kp->nr_deps : 1, sizeof(*p->deps));
	if (kp->nr_deps)
		memcpy(p->deps, kp->deps, kp->nr_deps * sizeof(*p->deps));
	p->nr_deps = kp->nr_deps;
	p->after_all = kp->after_all;
	register_pick(i, paths, nr, kp->after_all, files, dirs, moves);
}

/* Keeps pick i of s, keyed, after the first i in cache->keyed. */
static void keyed_put(struct trialcache *cache, const git_oid *onto,
		      const struct apply_series *s, size_t i,
		      const unsigned char *keys, const unsigned char *before,
		      const unsigned char *moved)
{
	struct trialcache_keyed *k = keyed_of(cache);
	const struct series_pick *p = &s->picks[i];
	struct keyed_pick *kp;

	if (!i)
		git_oid_cpy(&k->onto, onto);
	keyed_truncate(k, i);
	ALLOC_GROW(k->picks, k->nr + 1, k->alloc);
	kp = &k->picks[k->nr++];
	git_oid_cpy(&kp->id, &p->id);
	memcpy(kp->key, keys + i * SHA1_RAWSZ, SHA1_RAWSZ);
	memcpy(kp->before, before, SHA1_RAWSZ);
	memcpy(kp->moved, moved, SHA1_RAWSZ);
	kp->deps = xcalloc(p->nr_deps ? p->nr_deps : 1, sizeof(*kp->deps));
	if (p->nr_deps)
		memcpy(kp->deps, p->deps, p->nr_deps * sizeof(*kp->deps));
	kp->nr_deps = p->nr_deps;
	kp->after_all = p->after_all;
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
	struct path_slot *files = NULL, *dirs = NULL, *moves = NULL, *e, *tmp;
	struct apply_series *s;
	unsigned char *keys, before[SHA1_RAWSZ], moved[SHA1_RAWSZ];
	struct sha1 chain;
	git_tree *tip = NULL;
	git_odb *odb = NULL;
	char *want;
	size_t i, made = 0, reuse;
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
	memset(before, 0, sizeof(before));
	memset(moved, 0, sizeof(moved));
	/*
	 * A search tries sets after the same proposals again and again:
	 * their keys are those of the series keyed before.
	 */
	reuse = keyed_prefix(cache, &s->onto, picks, nr);
	for (i = 0; !ret && i < nr; i++) {
		char *const *paths;
		const struct trial_record *rec;
		size_t nr_paths;

		git_oid_cpy(&s->picks[i].id, git_commit_id(picks[i]));
		paths = apply_pick_paths(cache, repo, picks[i], &nr_paths);
		if (!paths) {
			ret = -1;
			break;
		}
		if (i < reuse) {
			key_again(s, i, keys, before, moved, cache->keyed,
				  paths, nr_paths, &files, &dirs, &moves);
			cache->keys_reused++;
		} else {
			key_pick(s, i, keys, before, tip, cache, picks[i],
				 paths, nr_paths, &files, &dirs, &moves, moved);
			/* The digest of the keys so far, for a pick after all. */
			sha1_init(&chain);
			sha1_update(&chain, before, SHA1_RAWSZ);
			sha1_update(&chain, keys + i * SHA1_RAWSZ, SHA1_RAWSZ);
			sha1_final(before, &chain);
			keyed_put(cache, &s->onto, s, i, keys, before, moved);
		}
		rec = trialcache_find(cache, keys + i * SHA1_RAWSZ);
		if (!rec) {
			want[i] = 1;
			continue;
		}
		if (trees_at_hand(cache, repo, odb, picks[i]) < 0) {
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
			trialcache_put(cache, keys + i * SHA1_RAWSZ, &rec);
		}
		if (ret)
			continue;
		out[i].series = s;
		out[i].pos = i;
		s->refs++;
	}
	apply_series_unref(s);
	HASH_FREE_ALL(files, e, tmp, free_slot);
	HASH_FREE_ALL(dirs, e, tmp, free_slot);
	HASH_FREE_ALL(moves, e, tmp, free_slot);
	git_tree_free(tip);
	git_odb_free(odb);
	free(want);
	free(keys);
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
