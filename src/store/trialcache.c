#include "store/trialcache.h"
#include "base/cachefile.h"
#include "base/error.h"
#include "base/strbuf.h"
#include "base/util.h"

#include <errno.h>
#include <string.h>
#include <uthash.h>

static const char magic[16] = "STABLEPICK-TRIAL";

struct trialcache_result {
	unsigned char key[SHA1_RAWSZ];
	uint32_t stamp;			/* the generation that last used it */
	int used;			/* by this run */
	struct trial_record rec;
	UT_hash_handle hh;
};

struct trialcache_paths {
	git_oid id;
	uint32_t stamp;
	int used;
	char **paths;
	unsigned char *in_parent;	/* per path: a blob in the parent */
	size_t nr;
	UT_hash_handle hh;
};

struct trialcache_blame {
	unsigned char key[SHA1_RAWSZ];
	uint32_t stamp;
	int used;
	git_oid *ids;
	size_t nr;
	UT_hash_handle hh;
};

static char **copy_strings(char *const *v, size_t nr)
{
	char **copy = xcalloc(nr ? nr : 1, sizeof(*copy));
	size_t i;

	for (i = 0; i < nr; i++)
		copy[i] = xstrdup(v[i]);
	return copy;
}

/* A copy of nr bytes of v; zeros when v is NULL. */
static unsigned char *copy_flags(const unsigned char *v, size_t nr)
{
	unsigned char *copy = xcalloc(nr ? nr : 1, 1);

	if (v && nr)
		memcpy(copy, v, nr);
	return copy;
}

void trial_record_release(struct trial_record *r)
{
	size_t i;

	free_string_array(r->conflicts, r->nr_conflicts);
	for (i = 0; i < r->nr_changes; i++)
		free(r->changes[i].path);
	free(r->changes);
	memset(r, 0, sizeof(*r));
}

static void free_result(struct trialcache_result *e)
{
	trial_record_release(&e->rec);
	free(e);
}

static void free_paths(struct trialcache_paths *e)
{
	free_string_array(e->paths, e->nr);
	free(e->in_parent);
	free(e);
}

static void free_blame(struct trialcache_blame *e)
{
	free(e->ids);
	free(e);
}

void trialcache_init(struct trialcache *c, const char *path)
{
	memset(c, 0, sizeof(*c));
	c->path = xstrdup(path);
}

/* A tree's entry at a path: the key is the tree id, then the path. */
struct trialcache_entry {
	char *key;
	size_t key_len;
	char *bytes;
	size_t len;
	UT_hash_handle hh;
};

static void free_entry(struct trialcache_entry *e)
{
	free(e->key);
	free(e->bytes);
	free(e);
}

static char *entry_key(const git_oid *tree, const char *path, size_t *len)
{
	size_t n = strlen(path);
	char *key = xmalloc(GIT_OID_RAWSZ + n);

	memcpy(key, tree->id, GIT_OID_RAWSZ);
	memcpy(key + GIT_OID_RAWSZ, path, n);
	*len = GIT_OID_RAWSZ + n;
	return key;
}

const char *trialcache_find_entry(struct trialcache *c, const git_oid *tree,
				  const char *path, size_t *len)
{
	struct trialcache_entry *e;
	size_t key_len;
	char *key = entry_key(tree, path, &key_len);

	HASH_FIND(hh, c->entries, key, key_len, e);
	free(key);
	if (!e)
		return NULL;
	*len = e->len;
	return e->bytes;
}

void trialcache_put_entry(struct trialcache *c, const git_oid *tree,
			  const char *path, const char *bytes, size_t len)
{
	struct trialcache_entry *e = xcalloc(1, sizeof(*e));

	e->key = entry_key(tree, path, &e->key_len);
	e->bytes = xmalloc(len ? len : 1);
	memcpy(e->bytes, bytes, len);
	e->len = len;
	HASH_ADD_KEYPTR(hh, c->entries, e->key, e->key_len, e);
}

void trialcache_release(struct trialcache *c)
{
	struct trialcache_result *r, *rtmp;
	struct trialcache_paths *p, *ptmp;
	struct trialcache_blame *b, *btmp;
	struct trialcache_entry *e, *etmp;

	HASH_FREE_ALL(c->results, r, rtmp, free_result);
	HASH_FREE_ALL(c->paths, p, ptmp, free_paths);
	HASH_FREE_ALL(c->blames, b, btmp, free_blame);
	HASH_FREE_ALL(c->entries, e, etmp, free_entry);
	if (c->keyed)
		c->free_keyed(c->keyed);
	free(c->path);
	memset(c, 0, sizeof(*c));
}

const struct trial_record *trialcache_find(struct trialcache *c,
					   const unsigned char *key)
{
	struct trialcache_result *e;

	HASH_FIND(hh, c->results, key, SHA1_RAWSZ, e);
	if (!e)
		return NULL;
	e->used = 1;
	return &e->rec;
}

void trialcache_put(struct trialcache *c, const unsigned char *key,
		    const struct trial_record *r)
{
	struct trialcache_result *e;
	size_t i;

	HASH_FIND(hh, c->results, key, SHA1_RAWSZ, e);
	if (e) {
		e->used = 1;
		return;		/* the same key is the same result */
	}
	e = xcalloc(1, sizeof(*e));
	memcpy(e->key, key, SHA1_RAWSZ);
	e->used = 1;
	e->rec.applies = r->applies;
	e->rec.conflicts = copy_strings(r->conflicts, r->nr_conflicts);
	e->rec.nr_conflicts = r->nr_conflicts;
	e->rec.changes = xcalloc(r->nr_changes ? r->nr_changes : 1,
				 sizeof(*e->rec.changes));
	for (i = 0; i < r->nr_changes; i++) {
		e->rec.changes[i] = r->changes[i];
		e->rec.changes[i].path = xstrdup(r->changes[i].path);
	}
	e->rec.nr_changes = r->nr_changes;
	HASH_ADD(hh, c->results, key, SHA1_RAWSZ, e);
	c->added = 1;
}

char *const *trialcache_find_paths(struct trialcache *c, const git_oid *id,
				   size_t *nr, const unsigned char **in_parent)
{
	struct trialcache_paths *e;

	HASH_FIND(hh, c->paths, id, sizeof(*id), e);
	if (!e)
		return NULL;
	e->used = 1;
	*nr = e->nr;
	if (in_parent)
		*in_parent = e->in_parent;
	return e->paths;
}

void trialcache_put_paths(struct trialcache *c, const git_oid *id,
			  char *const *paths, const unsigned char *in_parent,
			  size_t nr)
{
	struct trialcache_paths *e;

	HASH_FIND(hh, c->paths, id, sizeof(*id), e);
	if (e)
		return;
	e = xcalloc(1, sizeof(*e));
	git_oid_cpy(&e->id, id);
	e->used = 1;
	e->paths = copy_strings(paths, nr);
	e->in_parent = copy_flags(in_parent, nr);
	e->nr = nr;
	HASH_ADD(hh, c->paths, id, sizeof(e->id), e);
	c->added = 1;
}

const git_oid *trialcache_find_blame(struct trialcache *c,
				     const unsigned char *key, size_t *nr)
{
	struct trialcache_blame *e;

	HASH_FIND(hh, c->blames, key, SHA1_RAWSZ, e);
	if (!e)
		return NULL;
	e->used = 1;
	*nr = e->nr;
	return e->ids;
}

void trialcache_put_blame(struct trialcache *c, const unsigned char *key,
			  const git_oid *ids, size_t nr)
{
	struct trialcache_blame *e;

	HASH_FIND(hh, c->blames, key, SHA1_RAWSZ, e);
	if (e)
		return;
	e = xcalloc(1, sizeof(*e));
	memcpy(e->key, key, SHA1_RAWSZ);
	e->used = 1;
	e->ids = xcalloc(nr ? nr : 1, sizeof(*e->ids));
	if (nr)
		memcpy(e->ids, ids, nr * sizeof(*ids));
	e->nr = nr;
	HASH_ADD(hh, c->blames, key, SHA1_RAWSZ, e);
	c->added = 1;
}

/* --- the file -------------------------------------------------------- */

/*
 * Whether an entry is kept by the save of generation gen: used by this
 * run (it then takes gen), or by one of the TRIALCACHE_RUNS - 1 writers
 * before.
 */
static int keep(uint32_t *stamp, int used, uint32_t gen)
{
	if (used)
		*stamp = gen;
	return gen - *stamp < TRIALCACHE_RUNS;
}

/* Whether the run used only what the last writer used, and added nothing. */
static int unchanged(const struct trialcache *c)
{
	const struct trialcache_result *r;
	const struct trialcache_paths *p;
	const struct trialcache_blame *b;

	if (c->added)
		return 0;
	for (b = c->blames; b; b = b->hh.next)
		if (b->used && b->stamp != c->generation)
			return 0;
	for (r = c->results; r; r = r->hh.next)
		if (r->used && r->stamp != c->generation)
			return 0;
	for (p = c->paths; p; p = p->hh.next)
		if (p->used && p->stamp != c->generation)
			return 0;
	return 1;
}

int trialcache_save(struct trialcache *c)
{
	struct strbuf sb = STRBUF_INIT, body = STRBUF_INIT;
	struct trialcache_result *r, *rtmp;
	struct trialcache_paths *p, *ptmp;
	struct trialcache_blame *b, *btmp;
	uint32_t gen, n;
	size_t i;
	int ret;

	if (unchanged(c))
		return 0;
	gen = c->generation + 1;
	cachefile_add_binary_header(&sb, magic, TRIALCACHE_VERSION);
	cachefile_put_u32(&sb, gen);
	n = 0;
	HASH_ITER(hh, c->paths, p, ptmp) {
		if (!keep(&p->stamp, p->used, gen))
			continue;
		strbuf_add(&body, p->id.id, GIT_OID_RAWSZ);
		cachefile_put_u32(&body, p->stamp);
		cachefile_put_strings(&body, p->paths, p->nr);
		strbuf_add(&body, p->in_parent, p->nr);
		n++;
	}
	cachefile_put_u32(&sb, n);
	strbuf_add(&sb, body.buf, body.len);
	strbuf_reset(&body);
	n = 0;
	HASH_ITER(hh, c->results, r, rtmp) {
		if (!keep(&r->stamp, r->used, gen))
			continue;
		strbuf_add(&body, r->key, SHA1_RAWSZ);
		cachefile_put_u32(&body, r->stamp);
		strbuf_addch(&body, r->rec.applies);
		cachefile_put_strings(&body, r->rec.conflicts, r->rec.nr_conflicts);
		cachefile_put_u32(&body, (uint32_t)r->rec.nr_changes);
		for (i = 0; i < r->rec.nr_changes; i++) {
			cachefile_put_str(&body, r->rec.changes[i].path);
			cachefile_put_u32(&body, r->rec.changes[i].mode);
			strbuf_add(&body, r->rec.changes[i].id.id, GIT_OID_RAWSZ);
		}
		n++;
	}
	cachefile_put_u32(&sb, n);
	strbuf_add(&sb, body.buf, body.len);
	strbuf_reset(&body);
	n = 0;
	HASH_ITER(hh, c->blames, b, btmp) {
		if (!keep(&b->stamp, b->used, gen))
			continue;
		strbuf_add(&body, b->key, SHA1_RAWSZ);
		cachefile_put_u32(&body, b->stamp);
		cachefile_put_u32(&body, (uint32_t)b->nr);
		for (i = 0; i < b->nr; i++)
			strbuf_add(&body, b->ids[i].id, GIT_OID_RAWSZ);
		n++;
	}
	cachefile_put_u32(&sb, n);
	strbuf_add(&sb, body.buf, body.len);
	cachefile_seal(&sb, CACHEFILE_HASH64_RAW, NULL);
	ret = cachefile_write(c->path, &sb, "trial cache");
	if (!ret) {
		c->generation = gen;
		c->added = 0;
	}
	strbuf_release(&body);
	strbuf_release(&sb);
	return ret;
}

static void parse_paths(struct trialcache *c, struct cachefile_reader *r)
{
	struct trialcache_paths *e = xcalloc(1, sizeof(*e)), *old;
	const unsigned char *id = cachefile_take(r, GIT_OID_RAWSZ), *flags;
	size_t i;

	if (id)
		git_oid_fromraw(&e->id, id);
	e->stamp = cachefile_get_u32(r);
	e->paths = cachefile_get_strings(r, &e->nr);
	flags = cachefile_take(r, e->nr);
	for (i = 0; flags && i < e->nr; i++)
		if (flags[i] > 1)
			r->bad = 1;
	e->in_parent = copy_flags(flags, e->nr);
	HASH_FIND(hh, c->paths, &e->id, sizeof(e->id), old);
	if (r->bad || old) {
		r->bad = 1;
		free_paths(e);
		return;
	}
	HASH_ADD(hh, c->paths, id, sizeof(e->id), e);
}

static void parse_result(struct trialcache *c, struct cachefile_reader *r)
{
	struct trialcache_result *e = xcalloc(1, sizeof(*e)), *old;
	const unsigned char *key = cachefile_take(r, SHA1_RAWSZ);
	const unsigned char *p;
	size_t i, n;

	if (key)
		memcpy(e->key, key, SHA1_RAWSZ);
	e->stamp = cachefile_get_u32(r);
	p = cachefile_take(r, 1);
	e->rec.applies = p && *p;
	e->rec.conflicts = cachefile_get_strings(r, &e->rec.nr_conflicts);
	n = cachefile_get_count(r, 4 + 4 + GIT_OID_RAWSZ);
	e->rec.changes = xcalloc(n ? n : 1, sizeof(*e->rec.changes));
	for (i = 0; i < n && !r->bad; i++) {
		struct trial_change *ch = &e->rec.changes[i];

		ch->path = cachefile_get_str(r);
		ch->mode = cachefile_get_u32(r);
		p = cachefile_take(r, GIT_OID_RAWSZ);
		if (p)
			git_oid_fromraw(&ch->id, p);
		e->rec.nr_changes++;
	}
	HASH_FIND(hh, c->results, e->key, SHA1_RAWSZ, old);
	if (r->bad || old) {
		r->bad = 1;
		free_result(e);
		return;
	}
	HASH_ADD(hh, c->results, key, SHA1_RAWSZ, e);
}

static void parse_blame(struct trialcache *c, struct cachefile_reader *r)
{
	struct trialcache_blame *e = xcalloc(1, sizeof(*e)), *old;
	const unsigned char *key = cachefile_take(r, SHA1_RAWSZ);
	const unsigned char *p;
	size_t i, n;

	if (key)
		memcpy(e->key, key, SHA1_RAWSZ);
	e->stamp = cachefile_get_u32(r);
	n = cachefile_get_count(r, GIT_OID_RAWSZ);
	e->ids = xcalloc(n ? n : 1, sizeof(*e->ids));
	for (i = 0; i < n && !r->bad; i++) {
		p = cachefile_take(r, GIT_OID_RAWSZ);
		if (p)
			git_oid_fromraw(&e->ids[e->nr++], p);
	}
	HASH_FIND(hh, c->blames, e->key, SHA1_RAWSZ, old);
	if (r->bad || old) {
		r->bad = 1;
		free_blame(e);
		return;
	}
	HASH_ADD(hh, c->blames, key, SHA1_RAWSZ, e);
}

void trialcache_load(struct trialcache *c)
{
	struct trialcache_result *r, *rtmp;
	struct trialcache_paths *p, *ptmp;
	struct trialcache_blame *b, *btmp;
	struct strbuf sb = STRBUF_INIT;
	const char *why = NULL;
	struct cachefile_reader rd;
	size_t i, n, body;
	int status;

	if (strbuf_read_file(&sb, c->path) < 0) {
		if (errno != ENOENT)
			warning_aside("cannot read trial cache '%s': %s; picking "
				"without it", c->path, strerror(errno));
		strbuf_release(&sb);
		return;
	}
	status = cachefile_check_binary_header(sb.buf, sb.len, magic,
					       TRIALCACHE_VERSION);
	if (!status)
		status = cachefile_verify(sb.buf, sb.len, CACHEFILE_HASH64_RAW,
					  &body, NULL);
	if (status) {
		why = cachefile_why(status, "not a stablepick trial cache");
		goto out;
	}
	rd.p = (const unsigned char *)sb.buf + sizeof(magic) + 4;
	rd.end = (const unsigned char *)sb.buf + body;
	rd.bad = 0;
	c->generation = cachefile_get_u32(&rd);
	n = cachefile_get_count(&rd, GIT_OID_RAWSZ + 8);
	for (i = 0; i < n && !rd.bad; i++)
		parse_paths(c, &rd);
	n = cachefile_get_count(&rd, SHA1_RAWSZ + 13);
	for (i = 0; i < n && !rd.bad; i++)
		parse_result(c, &rd);
	n = cachefile_get_count(&rd, SHA1_RAWSZ + 8);
	for (i = 0; i < n && !rd.bad; i++)
		parse_blame(c, &rd);
	if (rd.bad || rd.p != rd.end)
		why = "malformed records";
out:
	if (why) {
		HASH_FREE_ALL(c->results, r, rtmp, free_result);
		HASH_FREE_ALL(c->paths, p, ptmp, free_paths);
		HASH_FREE_ALL(c->blames, b, btmp, free_blame);
		c->generation = 0;
		c->added = 1;	/* the next save replaces it */
		cachefile_ignore("trial cache", c->path, why);
	}
	strbuf_release(&sb);
}
