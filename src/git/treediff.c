#include "git/treediff.h"
#include "git/treememo.h"
#include "base/error.h"
#include "git/malformed.h"
#include "base/strbuf.h"
#include "base/util.h"

#include <ctype.h>
#include <string.h>
#include <uthash.h>

void treediff_release(struct treediff *d)
{
	size_t i;

	for (i = 0; i < d->nr; i++)
		free(d->items[i].path);
	free(d->items);
	memset(d, 0, sizeof(*d));
}

static int is_tree(const git_tree_entry *e)
{
	return git_tree_entry_type(e) == GIT_OBJECT_TREE;
}

/*
 * git's order of two entries of one tree: by name, a tree's name read
 * as if it ended in '/' (base_name_compare), so that the order of the
 * entries is the order of the full paths beneath them.
 */
static int entry_cmp(const git_tree_entry *a, const git_tree_entry *b)
{
	const char *na = git_tree_entry_name(a), *nb = git_tree_entry_name(b);
	size_t la = strlen(na), lb = strlen(nb);
	size_t len = la < lb ? la : lb;
	int cmp = memcmp(na, nb, len);
	unsigned char ca, cb;

	if (cmp)
		return cmp;
	ca = la > len ? (unsigned char)na[len] : is_tree(a) ? '/' : '\0';
	cb = lb > len ? (unsigned char)nb[len] : is_tree(b) ? '/' : '\0';
	return ca < cb ? -1 : ca > cb ? 1 : 0;
}

/* Two entries of the same name that hold the same object, same mode. */
static int same_entry(const git_tree_entry *a, const git_tree_entry *b)
{
	return git_oid_equal(git_tree_entry_id(a), git_tree_entry_id(b)) &&
	       git_tree_entry_filemode(a) == git_tree_entry_filemode(b);
}

static void add(struct treediff *out, const struct strbuf *prefix,
		const git_tree_entry *a, const git_tree_entry *b)
{
	struct treediff_entry *e;
	const git_tree_entry *named = a ? a : b;

	ALLOC_GROW(out->items, out->nr, out->alloc);
	e = &out->items[out->nr++];
	memset(e, 0, sizeof(*e));
	e->path = xstrfmt("%s%s", prefix->buf, git_tree_entry_name(named));
	if (a) {
		git_oid_cpy(&e->old_id, git_tree_entry_id(a));
		e->old_mode = (uint32_t)git_tree_entry_filemode(a);
	}
	if (b) {
		git_oid_cpy(&e->new_id, git_tree_entry_id(b));
		e->new_mode = (uint32_t)git_tree_entry_filemode(b);
	}
}

static int diff_trees(struct treediff *out, git_repository *repo,
		      const git_tree *a, const git_tree *b,
		      struct strbuf *prefix);

/* Opens the subtrees of a pair of entries (either may be NULL). */
static int descend(struct treediff *out, git_repository *repo,
		   const git_tree_entry *a, const git_tree_entry *b,
		   struct strbuf *prefix)
{
	const git_tree_entry *named = a ? a : b;
	git_tree *ta = NULL, *tb = NULL;
	size_t len = prefix->len;
	int ret = 0;

	if ((a && git_tree_lookup(&ta, repo, git_tree_entry_id(a)) < 0) ||
	    (b && git_tree_lookup(&tb, repo, git_tree_entry_id(b)) < 0)) {
		/* The side that failed: ta is NULL only if a's did. */
		const git_tree_entry *bad = a && !ta ? a : b;

		ret = error_git("cannot read tree %s ('%s%s')",
				git_oid_tostr_s(git_tree_entry_id(bad)),
				prefix->buf, git_tree_entry_name(named));
		goto out;
	}
	strbuf_addstr(prefix, git_tree_entry_name(named));
	strbuf_addch(prefix, '/');
	ret = diff_trees(out, repo, ta, tb, prefix);
	strbuf_setlen(prefix, len);
out:
	git_tree_free(ta);
	git_tree_free(tb);
	return ret;
}

/* One side only: every file beneath it is added or removed. */
static int one_side(struct treediff *out, git_repository *repo,
		    const git_tree_entry *a, const git_tree_entry *b,
		    struct strbuf *prefix)
{
	const git_tree_entry *e = a ? a : b;

	if (is_tree(e))
		return descend(out, repo, a, b, prefix);
	add(out, prefix, a, b);
	return 0;
}

static int diff_trees(struct treediff *out, git_repository *repo,
		      const git_tree *a, const git_tree *b,
		      struct strbuf *prefix)
{
	size_t na = a ? git_tree_entrycount(a) : 0;
	size_t nb = b ? git_tree_entrycount(b) : 0;
	size_t i = 0, j = 0;
	int ret = 0;

	while (!ret && (i < na || j < nb)) {
		const git_tree_entry *ea = i < na ? git_tree_entry_byindex(a, i) : NULL;
		const git_tree_entry *eb = j < nb ? git_tree_entry_byindex(b, j) : NULL;
		int cmp = !ea ? 1 : !eb ? -1 : entry_cmp(ea, eb);

		if (cmp < 0) {
			ret = one_side(out, repo, ea, NULL, prefix);
			i++;
		} else if (cmp > 0) {
			ret = one_side(out, repo, NULL, eb, prefix);
			j++;
		} else {
			i++;
			j++;
			if (same_entry(ea, eb))
				continue;
			if (is_tree(ea))	/* so is eb: they compared equal */
				ret = descend(out, repo, ea, eb, prefix);
			else
				add(out, prefix, ea, eb);
		}
	}
	return ret;
}

int treediff_trees(struct treediff *out, git_repository *repo,
		   const git_tree *a, const git_tree *b)
{
	struct strbuf prefix = STRBUF_INIT;
	int ret;

	ret = diff_trees(out, repo, a, b, &prefix);
	strbuf_release(&prefix);
	return ret;
}

/*
 * What treediff_added() found for a pair of subtrees: the entries of b
 * a lacks, in tree order, each a file or the pair of subtrees beneath
 * (kept too, and shared by every pair of trees that holds it).
 */
struct added_item {
	char *name;
	struct added_pair *sub;		/* NULL: a file */
};

struct added_pair {
	git_oid key[2];			/* a's id (zero: none), b's */
	struct added_item *items;
	size_t nr, alloc;
	int any;			/* holds a file, at any depth */
	UT_hash_handle hh;
};

static struct added_pair *added_pairs;

static void free_added(struct added_pair *p);

static int added_of(struct added_pair **out, git_repository *repo,
		    const git_oid *a, const git_oid *b, const char *path);

static int added_item(struct added_pair *p, git_repository *repo,
		      const git_tree_entry *ea, const git_tree_entry *eb,
		      const char *path)
{
	struct added_pair *sub = NULL;
	uint32_t mode = (uint32_t)git_tree_entry_filemode(eb);
	char *sub_path;
	int ret;

	if (is_tree(eb)) {
		sub_path = xstrfmt("%s%s/", path, git_tree_entry_name(eb));
		ret = added_of(&sub, repo, ea ? git_tree_entry_id(ea) : NULL,
			       git_tree_entry_id(eb), sub_path);
		free(sub_path);
		if (ret < 0)
			return -1;
		if (!sub->any)
			return 0;
	} else if (ea || mode == GIT_FILEMODE_COMMIT) {
		return 0;	/* changed, or a gitlink */
	}
	ALLOC_GROW(p->items, p->nr, p->alloc);
	p->items[p->nr].name = xstrdup(git_tree_entry_name(eb));
	p->items[p->nr].sub = sub;
	p->nr++;
	p->any = 1;
	return 0;
}

/* The pair of a (NULL: none) and b, found now or kept. */
static int added_of(struct added_pair **out, git_repository *repo,
		    const git_oid *a, const git_oid *b, const char *path)
{
	struct added_pair *p;
	git_tree *ta = NULL, *tb = NULL;
	git_oid key[2];
	size_t na, nb, i = 0, j = 0;
	int ret = 0;

	memset(key, 0, sizeof(key));
	if (a)
		git_oid_cpy(&key[0], a);
	git_oid_cpy(&key[1], b);
	HASH_FIND(hh, added_pairs, key, sizeof(key), p);
	if (p) {
		*out = p;
		return 0;
	}
	if ((a && !(ta = treememo_lookup(repo, a))) ||
	    !(tb = treememo_lookup(repo, b))) {
		ret = error_git("cannot read tree %s ('%s')",
				git_oid_tostr_s(a && !ta ? a : b), path);
		goto out;
	}
	p = xcalloc(1, sizeof(*p));
	memcpy(p->key, key, sizeof(key));
	na = ta ? git_tree_entrycount(ta) : 0;
	nb = git_tree_entrycount(tb);
	while (!ret && j < nb) {
		const git_tree_entry *ea = i < na ? git_tree_entry_byindex(ta, i) : NULL;
		const git_tree_entry *eb = git_tree_entry_byindex(tb, j);
		int cmp = !ea ? 1 : entry_cmp(ea, eb);

		if (cmp < 0) {
			i++;	/* a's alone: nothing added */
		} else if (cmp > 0) {
			ret = added_item(p, repo, NULL, eb, path);
			j++;
		} else {
			i++;
			j++;
			if (same_entry(ea, eb))
				continue;
			ret = added_item(p, repo, ea, eb, path);
		}
	}
	if (ret < 0) {
		free_added(p);
		goto out;
	}
	HASH_ADD(hh, added_pairs, key, sizeof(p->key), p);
	*out = p;
out:
	git_tree_free(ta);
	git_tree_free(tb);
	return ret;
}

static void added_emit(const struct added_pair *p, struct strbuf *prefix,
		       char ***paths, size_t *nr, size_t *alloc)
{
	size_t i, len = prefix->len;

	for (i = 0; i < p->nr; i++) {
		strbuf_addstr(prefix, p->items[i].name);
		if (p->items[i].sub) {
			strbuf_addch(prefix, '/');
			added_emit(p->items[i].sub, prefix, paths, nr, alloc);
		} else {
			ALLOC_GROW(*paths, *nr, *alloc);
			(*paths)[(*nr)++] = xstrdup(prefix->buf);
		}
		strbuf_setlen(prefix, len);
	}
}

int treediff_added(char ***paths, size_t *nr, size_t *alloc,
		   git_repository *repo, const git_tree *a, const git_tree *b)
{
	struct strbuf prefix = STRBUF_INIT;
	struct added_pair *p;

	if (!b)
		return 0;
	if (added_of(&p, repo, a ? git_tree_id(a) : NULL, git_tree_id(b),
		     "") < 0)
		return -1;
	added_emit(p, &prefix, paths, nr, alloc);
	strbuf_release(&prefix);
	return 0;
}

static void free_added(struct added_pair *p)
{
	size_t i;

	for (i = 0; i < p->nr; i++)
		free(p->items[i].name);
	free(p->items);
	free(p);
}

void treediff_forget(void)
{
	struct added_pair *p, *tmp;

	HASH_FREE_ALL(added_pairs, p, tmp, free_added);
	treememo_forget();
}

int treediff_commit(struct treediff *out, git_repository *repo,
		    const git_commit *commit)
{
	git_tree *a = NULL, *b = NULL;
	char hex[GIT_OID_HEXSZ + 1];
	int ret;

	git_oid_tostr(hex, sizeof(hex), git_commit_id(commit));
	if (git_commit_tree(&b, commit) < 0 ||
	    (git_commit_parentcount(commit) &&
	     malformed_parent_tree(&a, commit, 0) < 0)) {
		ret = error_git("cannot read the trees of %.12s", hex);
		goto out;
	}
	ret = treediff_trees(out, repo, a, b);
out:
	git_tree_free(a);
	git_tree_free(b);
	return ret;
}

void treediff_key_of(unsigned char *key, char **paths, size_t nr)
{
	struct sha1 ctx;
	size_t i;

	for (i = 0; i < nr; i++) {
		char *p = paths[i], *q = p;

		for (; *p; p++)
			if (!isspace((unsigned char)*p))
				*q++ = *p;
		*q = '\0';
	}
	QSORT(paths, nr, cmp_str);
	sha1_init(&ctx);
	for (i = 0; i < nr; i++)
		if (!i || strcmp(paths[i], paths[i - 1]))
			sha1_update(&ctx, paths[i], strlen(paths[i]) + 1);
	sha1_final(key, &ctx);
}

void treediff_key(unsigned char *key, struct treediff *d)
{
	char **paths = xcalloc(d->nr ? d->nr : 1, sizeof(*paths));
	size_t i;

	for (i = 0; i < d->nr; i++)
		paths[i] = d->items[i].path;
	treediff_key_of(key, paths, d->nr);
	free(paths);
}

int treediff_pathkey(unsigned char *key, git_repository *repo,
		     const git_commit *commit)
{
	struct treediff d = TREEDIFF_INIT;
	int ret = treediff_commit(&d, repo, commit);

	if (!ret)
		treediff_key(key, &d);
	treediff_release(&d);
	return ret;
}
