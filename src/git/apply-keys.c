/*
 * The keys of trial picks (apply.h says what one holds): the paths a
 * pick changes, what the tree picked onto has there, the earlier picks
 * of the series it depends on; and, for the run, the series keyed last
 * and the picks whose trees were found.
 */
#include "git/apply-internal.h"
#include "base/error.h"
#include "base/sha1.h"
#include "base/strbuf.h"
#include "git/treediff.h"
#include "git/treememo.h"
#include "base/util.h"

#include <stdlib.h>
#include <string.h>
#include <uthash.h>

static int cmp_entry_path(const void *a, const void *b)
{
	const struct treediff_entry *x = a, *y = b;

	return strcmp(x->path, y->path);
}

/* Whether a treediff side's mode is a blob's: a file or a symlink. */
static int is_blob_mode(uint32_t mode)
{
	return mode && mode != 0160000;
}

char *const *apply_pick_paths(struct trialcache *cache, git_repository *repo,
			      const git_commit *pick, size_t *nr,
			      const unsigned char **in_parent)
{
	struct treediff d = TREEDIFF_INIT;
	char *const *known;
	char **paths;
	unsigned char *flags;
	size_t i, n = 0;

	known = trialcache_find_paths(cache, git_commit_id(pick), nr, in_parent);
	if (known)
		return known;
	if (treediff_commit(&d, repo, pick) < 0)
		return NULL;
	/* The parent's side comes with each path: no tree read again. */
	QSORT(d.items, d.nr, cmp_entry_path);
	paths = xcalloc(d.nr ? d.nr : 1, sizeof(*paths));
	flags = xcalloc(d.nr ? d.nr : 1, 1);
	for (i = 0; i < d.nr; i++) {
		if (!n || strcmp(paths[n - 1], d.items[i].path))
			paths[n++] = d.items[i].path;
		flags[n - 1] |= is_blob_mode(d.items[i].old_mode);
	}
	trialcache_put_paths(cache, git_commit_id(pick), paths, flags, n);
	free(paths);
	free(flags);
	treediff_release(&d);
	return trialcache_find_paths(cache, git_commit_id(pick), nr, in_parent);
}

/*
 * The picks so far of a series that change a path (or, in dirs, one
 * below it), by the path's number (struct key_names).  A slot of
 * another series (gen) is empty: the arrays are the run's, not made
 * again for each of the thousands of series a search keys.
 */
struct path_slot {
	size_t *pos;
	size_t nr, alloc;
	uint32_t gen;
};

/*
 * The paths, and the directories of paths, the run's keys have met, by
 * number; each pick's paths by number, once a run; and the slots.
 */
struct path_name {
	char *path;
	uint32_t id;
	UT_hash_handle hh;
};

struct pick_names {
	git_oid id;
	/* Path j's number is v[at[j]], its directories' (the shortest
	   first) follow it up to v[at[j + 1]]. */
	uint32_t *v;
	size_t *at;
	UT_hash_handle hh;
};

struct key_names {
	struct path_name *names;
	uint32_t nr;
	struct pick_names *picks;
	struct path_slot *files, *dirs;	/* nr of each */
	size_t alloc;
	uint32_t gen;			/* the series being keyed */
};

static uint32_t name_of(struct key_names *n, const char *path, size_t len)
{
	struct path_name *e;

	HASH_FIND(hh, n->names, path, len, e);
	if (e)
		return e->id;
	if (n->nr == UINT32_MAX)
		BUG("more than %u paths in trial picks", UINT32_MAX);
	e = xcalloc(1, sizeof(*e));
	e->path = xstrndup(path, len);
	e->id = n->nr++;
	HASH_ADD_KEYPTR(hh, n->names, e->path, len, e);
	return e->id;
}

/* The numbers of the paths of pick id (paths[0..nr)), and room for them. */
static const struct pick_names *names_of_pick(struct key_names *n,
					      const git_oid *id,
					      char *const *paths, size_t nr)
{
	struct pick_names *p;
	size_t j, count = 0, alloc = 0;
	const char *slash;

	HASH_FIND(hh, n->picks, id, sizeof(*id), p);
	if (p)
		return p;
	p = xcalloc(1, sizeof(*p));
	git_oid_cpy(&p->id, id);
	p->at = xcalloc(nr + 1, sizeof(*p->at));
	for (j = 0; j < nr; j++) {
		p->at[j] = count;
		ALLOC_GROW(p->v, count + 1, alloc);
		p->v[count++] = name_of(n, paths[j], strlen(paths[j]));
		for (slash = strchr(paths[j], '/'); slash;
		     slash = strchr(slash + 1, '/')) {
			ALLOC_GROW(p->v, count + 1, alloc);
			p->v[count++] = name_of(n, paths[j],
						(size_t)(slash - paths[j]));
		}
	}
	p->at[nr] = count;
	HASH_ADD(hh, n->picks, id, sizeof(p->id), p);
	if (n->nr > n->alloc) {
		size_t was = n->alloc;

		n->alloc = n->nr > 2 * n->alloc ? n->nr : 2 * n->alloc;
		n->files = xrealloc(n->files, n->alloc * sizeof(*n->files));
		n->dirs = xrealloc(n->dirs, n->alloc * sizeof(*n->dirs));
		memset(n->files + was, 0, (n->alloc - was) * sizeof(*n->files));
		memset(n->dirs + was, 0, (n->alloc - was) * sizeof(*n->dirs));
	}
	return p;
}

static void free_name(struct path_name *e)
{
	free(e->path);
	free(e);
}

static void free_pick_names(struct pick_names *p)
{
	free(p->v);
	free(p->at);
	free(p);
}

static void free_names(struct key_names *n)
{
	struct path_name *e, *etmp;
	struct pick_names *p, *ptmp;
	size_t i;

	HASH_FREE_ALL(n->names, e, etmp, free_name);
	HASH_FREE_ALL(n->picks, p, ptmp, free_pick_names);
	for (i = 0; i < n->alloc; i++) {
		free(n->files[i].pos);
		free(n->dirs[i].pos);
	}
	free(n->files);
	free(n->dirs);
	memset(n, 0, sizeof(*n));
}

/* The slot of name in this series, or NULL when it has none (create 0). */
static struct path_slot *slot_at(struct path_slot *slots, uint32_t gen,
				 uint32_t name, int create)
{
	struct path_slot *e = &slots[name];

	if (e->gen != gen) {
		if (!create)
			return NULL;
		e->gen = gen;
		e->nr = 0;
	}
	return e;
}

static void add_pos(struct path_slot *e, size_t pos)
{
	if (e->nr && e->pos[e->nr - 1] == pos)
		return;
	ALLOC_GROW(e->pos, e->nr, e->alloc);
	e->pos[e->nr++] = pos;
}

struct pick_deps *pick_deps_ref(struct pick_deps *d)
{
	if (d)
		d->refs++;
	return d;
}

void pick_deps_unref(struct pick_deps *d)
{
	if (d && !--d->refs)
		free(d);
}

/* The positions v[0..nr), sorted and unique, shared; NULL when none. */
static struct pick_deps *deps_of(const size_t *v, size_t nr)
{
	struct pick_deps *d;
	size_t i;

	if (!nr)
		return NULL;
	if (v[nr - 1] > UINT32_MAX)
		BUG("a series of more than %u picks", UINT32_MAX);
	d = xmalloc(sizeof(*d) + nr * sizeof(*d->at));
	d->refs = 1;
	d->nr = (uint32_t)nr;
	for (i = 0; i < nr; i++)
		d->at[i] = (uint32_t)v[i];
	return d;
}

static int cmp_pos(const void *a, const void *b)
{
	size_t x = *(const size_t *)a, y = *(const size_t *)b;

	return x < y ? -1 : x > y;
}

/* The slots whose picks a pick depends on, before they are merged. */
struct slot_list {
	const struct path_slot **v;
	size_t nr, alloc;
};

static void add_deps(struct slot_list *l, const struct path_slot *e)
{
	if (!e || !e->nr)
		return;
	ALLOC_GROW(l->v, l->nr, l->alloc);
	l->v[l->nr++] = e;
}

/* The sorted union of a and b (each sorted, unique) into out. */
static size_t merge_pos(size_t *out, const size_t *a, size_t na,
			const size_t *b, size_t nb)
{
	size_t i = 0, j = 0, n = 0;

	while (i < na && j < nb) {
		if (a[i] < b[j])
			out[n++] = a[i++];
		else if (b[j] < a[i])
			out[n++] = b[j++];
		else
			out[n++] = a[i++], j++;
	}
	while (i < na)
		out[n++] = a[i++];
	while (j < nb)
		out[n++] = b[j++];
	return n;
}

/*
 * The picks of the slots of l, sorted and unique, shared (NULL: none).
 * A slot's picks are in series order already: a pick that changes one
 * file (most) takes its slot's as they are, a few are merged, and only
 * a pick of many paths sorts them (the sort was 3% of a weekly run on a
 * history of a million commits, 6 million positions).
 */
static struct pick_deps *merge_deps(struct slot_list *l)
{
	size_t *v = NULL, *tmp = NULL, n = 0, total = 0, k, m;
	struct pick_deps *d;

	for (k = 0; k < l->nr; k++)
		total += l->v[k]->nr;
	if (!total)
		return NULL;
	if (l->nr == 1)
		return deps_of(l->v[0]->pos, l->v[0]->nr);
	v = xmalloc(total * sizeof(*v));
	if (l->nr <= 8) {
		tmp = xmalloc(total * sizeof(*tmp));
		for (k = 0; k < l->nr; k++) {
			size_t *t;

			n = merge_pos(tmp, v, n, l->v[k]->pos, l->v[k]->nr);
			t = v;
			v = tmp;
			tmp = t;
		}
		free(tmp);
	} else {
		for (k = 0; k < l->nr; k++) {
			memcpy(v + n, l->v[k]->pos, l->v[k]->nr * sizeof(*v));
			n += l->v[k]->nr;
		}
		QSORT(v, n, cmp_pos);
		for (k = 0, m = 0; k < n; k++)
			if (!m || v[m - 1] != v[k])
				v[m++] = v[k];
		n = m;
	}
	d = deps_of(v, n);
	free(v);
	return d;
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
	git_tree_entry *e = treememo_entry_at(tree, path);
	const char *slash;
	unsigned char mode[4];
	uint32_t m;

	for (slash = strchr(path, '/'); !e && slash;
	     slash = strchr(slash + 1, '/')) {
		char *dir = xstrndup(path, (size_t)(slash - path));

		e = treememo_entry_at(tree, dir);
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
 * Registers pick i's paths (their numbers pn) in files and dirs for the
 * picks after it, and, when it follows renames on the branch, itself
 * in moves.
 */
static void register_pick(size_t i, const struct pick_names *pn, size_t nr,
			  int moving, struct key_names *n,
			  struct path_slot *moves)
{
	size_t j, q;

	if (moving)
		add_pos(moves, i);
	for (j = 0; j < nr; j++) {
		add_pos(slot_at(n->files, n->gen, pn->v[pn->at[j]], 1), i);
		for (q = pn->at[j] + 1; q < pn->at[j + 1]; q++)
			add_pos(slot_at(n->dirs, n->gen, pn->v[q], 1), i);
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
		     const struct series_pick *p, const struct pick_names *pn,
		     size_t nr, struct key_names *n, const unsigned char *moved)
{
	size_t *v = NULL, count = 0, alloc = 0, j, k, m, q;

	if (p->after_all) {
		for (k = 0; p->deps && k < p->deps->nr; k++)
			sha1_update(ctx, keys + p->deps->at[k] * SHA1_RAWSZ,
				    SHA1_RAWSZ);
		return;
	}
	sha1_update(ctx, moved, SHA1_RAWSZ);
	for (j = 0; j < nr; j++) {
		uint32_t self = pn->v[pn->at[j]];

		add_key_dep(&v, &count, &alloc,
			    slot_at(n->files, n->gen, self, 0), 0);
		add_key_dep(&v, &count, &alloc,
			    slot_at(n->dirs, n->gen, self, 0), 1);
		for (q = pn->at[j] + 1; q < pn->at[j + 1]; q++)
			add_key_dep(&v, &count, &alloc,
				    slot_at(n->files, n->gen, pn->v[q], 0), 0);
	}
	QSORT(v, count, cmp_pos);
	for (k = 0, m = 0; k < count; k++)
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
		     struct trialcache *cache, char *const *paths,
		     const unsigned char *in_parent, size_t nr,
		     const struct pick_names *pn, struct key_names *n,
		     struct path_slot *moves, unsigned char *moved)
{
	static const char salt[] = "stablepick trial pick\n";
	static const char renames[] = "renames on the branch\n";
	struct series_pick *p = &s->picks[i];
	struct slot_list deps = { NULL, 0, 0 };
	struct sha1 ctx;
	size_t j, q;
	int moving = 0;

	sha1_init(&ctx);
	sha1_update(&ctx, salt, sizeof(salt));
	sha1_update(&ctx, p->id.id, GIT_OID_RAWSZ);
	/* Every pick that followed renames may have changed its paths. */
	add_deps(&deps, moves);
	for (j = 0; j < nr; j++) {
		uint32_t self = pn->v[pn->at[j]];

		sha1_update(&ctx, paths[j], strlen(paths[j]) + 1);
		/*
		 * A file the parent has and the tree picked onto lacks:
		 * the pick follows renames on the branch
		 * (apply_pick_onto_tree()).
		 */
		if (hash_entry(&ctx, tip, paths[j], cache) && in_parent[j])
			moving = 1;
		add_deps(&deps, slot_at(n->files, n->gen, self, 0));
		add_deps(&deps, slot_at(n->dirs, n->gen, self, 0));
		for (q = pn->at[j] + 1; q < pn->at[j + 1]; q++)
			add_deps(&deps, slot_at(n->files, n->gen, pn->v[q], 0));
	}
	/*
	 * Following renames reads the whole of the tree picked onto and
	 * of the series so far: its id and every earlier pick are in the
	 * key, the picks as the digest of their keys in order (before),
	 * not each one's: a series of 15,000 with hundreds such hashed
	 * and sorted millions of keys.
	 */
	if (moving) {
		sha1_update(&ctx, renames, sizeof(renames));
		sha1_update(&ctx, git_tree_id(tip)->id, GIT_OID_RAWSZ);
		sha1_update(&ctx, before, SHA1_RAWSZ);
		p->after_all = 1;
		deps.nr = 0;
	}
	p->deps = merge_deps(&deps);
	free(deps.v);
	key_deps(&ctx, keys, p, pn, nr, n, moved);
	sha1_final(keys + i * SHA1_RAWSZ, &ctx);
	if (moving) {
		sha1_init(&ctx);
		sha1_update(&ctx, moved, SHA1_RAWSZ);
		sha1_update(&ctx, keys + i * SHA1_RAWSZ, SHA1_RAWSZ);
		sha1_final(moved, &ctx);
	}
	register_pick(i, pn, nr, moving, n, moves);
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
	struct pick_deps *deps;
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
	struct key_names names;		/* the paths the keys met */
	int keying;			/* a series_keys is alive */
};

static void keyed_truncate(struct trialcache_keyed *k, size_t nr)
{
	while (k->nr > nr)
		pick_deps_unref(k->picks[--k->nr].deps);
}

static void free_keyed(struct trialcache_keyed *k)
{
	struct pick_at_hand *e, *tmp;

	keyed_truncate(k, 0);
	free(k->picks);
	HASH_FREE_ALL(k->at_hand, e, tmp, free);
	free_names(&k->names);
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

int apply_cached_trees_at_hand(struct trialcache *cache, git_repository *repo,
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
		      const struct trialcache_keyed *k,
		      const struct pick_names *pn, size_t nr,
		      struct key_names *n, struct path_slot *moves)
{
	const struct keyed_pick *kp = &k->picks[i];
	struct series_pick *p = &s->picks[i];

	memcpy(keys + i * SHA1_RAWSZ, kp->key, SHA1_RAWSZ);
	memcpy(before, kp->before, SHA1_RAWSZ);
	memcpy(moved, kp->moved, SHA1_RAWSZ);
	p->deps = pick_deps_ref(kp->deps);
	p->after_all = kp->after_all;
	register_pick(i, pn, nr, kp->after_all, n, moves);
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
	kp->deps = pick_deps_ref(p->deps);
	kp->after_all = p->after_all;
}

void series_keys_init(struct series_keys *k, struct trialcache *cache,
		      const git_tree *tip, const git_oid *onto,
		      const git_commit *const *picks, size_t nr)
{
	struct trialcache_keyed *kd = keyed_of(cache);

	if (kd->keying)
		BUG("two series keyed at once");
	kd->keying = 1;
	/* The slots of the series before are empty for this one. */
	if (++kd->names.gen == 0)
		BUG("more than %u series keyed", UINT32_MAX - 1);
	memset(k, 0, sizeof(*k));
	k->cache = cache;
	k->tip = tip;
	k->keys = xcalloc(nr ? nr : 1, SHA1_RAWSZ);
	k->moves = xcalloc(1, sizeof(*k->moves));
	k->reuse = keyed_prefix(cache, onto, picks, nr);
}

void series_keys_add(struct series_keys *k, struct apply_series *s, size_t i,
		     char *const *paths, const unsigned char *in_parent,
		     size_t nr)
{
	struct key_names *n = &k->cache->keyed->names;
	const struct pick_names *pn = names_of_pick(n, &s->picks[i].id,
						    paths, nr);
	struct sha1 chain;

	if (i < k->reuse) {
		key_again(s, i, k->keys, k->before, k->moved, k->cache->keyed,
			  pn, nr, n, k->moves);
		k->cache->keys_reused++;
		return;
	}
	key_pick(s, i, k->keys, k->before, k->tip, k->cache, paths, in_parent,
		 nr, pn, n, k->moves, k->moved);
	/* The digest of the keys so far, for a pick after them all. */
	sha1_init(&chain);
	sha1_update(&chain, k->before, SHA1_RAWSZ);
	sha1_update(&chain, k->keys + i * SHA1_RAWSZ, SHA1_RAWSZ);
	sha1_final(k->before, &chain);
	keyed_put(k->cache, &s->onto, s, i, k->keys, k->before, k->moved);
}

void series_keys_release(struct series_keys *k)
{
	if (k->cache && k->cache->keyed)
		k->cache->keyed->keying = 0;
	if (k->moves)
		free(k->moves->pos);
	free(k->moves);
	free(k->keys);
	memset(k, 0, sizeof(*k));
}
