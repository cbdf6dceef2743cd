/*
 * The patch-id cache (patchid.h): commit ids to patch-ids and path
 * keys, kept in a text file through cachefile.h.
 */
#include "git/patchid.h"
#include "git/patchid-pool.h"
#include "base/cachefile.h"
#include "base/error.h"
#include "git/malformed.h"
#include "base/sha1.h"
#include "base/strbuf.h"
#include "base/trace.h"
#include "git/treediff.h"
#include "base/util.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/*
 * The cache.
 */

#define CACHE_MAGIC "stablepick patchid cache"
#define CACHE_VERSION 4
/*
 * Version 3 is version 4 without the line of the attributes, and
 * version 2 lines are version 3 lines without path keys: both are read,
 * their patch-ids of unknown attributes.
 */
#define CACHE_VERSION_3 3
#define CACHE_VERSION_2 2

void patchid_cache_init(struct patchid_cache *cache, const char *path)
{
	memset(cache, 0, sizeof(*cache));
	cache->path = xstrdup(path);
}

void patchid_cache_release(struct patchid_cache *cache)
{
	struct patchid_cache_entry *e, *tmp;

	HASH_ITER(hh, cache->entries, e, tmp) {
		HASH_DEL(cache->entries, e);
		free(e);
	}
	free(cache->path);
	memset(cache, 0, sizeof(*cache));
}

/* A new entry for commit, its patch-id not known yet. */
static struct patchid_cache_entry *cache_add(struct patchid_cache *cache,
					     const git_oid *commit)
{
	struct patchid_cache_entry *e = xcalloc(1, sizeof(*e));

	git_oid_cpy(&e->commit, commit);
	HASH_ADD(hh, cache->entries, commit, sizeof(git_oid), e);
	cache->nr++;
	return e;
}

static struct patchid_cache_entry *cache_add_or_find(struct patchid_cache *cache,
						     const git_oid *commit)
{
	struct patchid_cache_entry *e;

	HASH_FIND(hh, cache->entries, commit, sizeof(*commit), e);
	return e ? e : cache_add(cache, commit);
}

/* Its patch-id: id, or NULL for a commit with no diff. */
static void set_id(struct patchid_cache_entry *e, const git_oid *id)
{
	e->known = 1;
	e->has_diff = id != NULL;
	if (id)
		git_oid_cpy(&e->id, id);
}

/* 40 hex digits into 20 bytes. */
static int parse_key(unsigned char *key, const char *hex)
{
	size_t i;

	if (!is_hex(hex, 2 * SHA1_RAWSZ))
		return -1;
	for (i = 0; i < SHA1_RAWSZ; i++) {
		char two[3] = { hex[2 * i], hex[2 * i + 1], 0 };

		key[i] = (unsigned char)strtoul(two, NULL, 16);
	}
	return 0;
}

/*
 * "<commit> <patch-id, - or ?>[ <path key>]"; 0, or -1 after a
 * warning.
 */
static int cache_parse(struct patchid_cache *cache, const char *line,
		       size_t len, size_t lineno)
{
	struct patchid_cache_entry *e;
	unsigned char key[SHA1_RAWSZ];
	const char *p = line + GIT_OID_HEXSZ + 1;
	size_t rest;
	git_oid commit, id;
	int has_diff = 0, known = 1, has_key;

	if (len < GIT_OID_HEXSZ + 2 || line[GIT_OID_HEXSZ] != ' ' ||
	    !is_hex(line, GIT_OID_HEXSZ))
		goto bad;
	rest = len - GIT_OID_HEXSZ - 1;
	if (*p == '-' || *p == '?') {
		known = *p == '-';
		p++;
		rest--;
	} else if (rest >= GIT_OID_HEXSZ && is_hex(p, GIT_OID_HEXSZ) &&
		   !git_oid_fromstrn(&id, p, GIT_OID_HEXSZ)) {
		has_diff = 1;
		p += GIT_OID_HEXSZ;
		rest -= GIT_OID_HEXSZ;
	} else {
		goto bad;
	}
	has_key = rest == 2 * SHA1_RAWSZ + 1;
	if ((rest && !has_key) || (has_key && (*p != ' ' || parse_key(key, p + 1))))
		goto bad;
	if (git_oid_fromstrn(&commit, line, GIT_OID_HEXSZ) < 0) {
		git_error_clear();
		goto bad;
	}
	HASH_FIND(hh, cache->entries, &commit, sizeof(commit), e);
	if (e) {
		warning_aside("%s:%zu: commit %.*s listed again, ignored",
			cache->path, lineno, GIT_OID_HEXSZ, line);
		return -1;
	}
	e = cache_add(cache, &commit);
	if (known)
		set_id(e, has_diff ? &id : NULL);
	if (has_key) {
		memcpy(e->pathkey, key, sizeof(key));
		e->has_pathkey = 1;
	}
	return 0;
bad:
	warning_aside("%s:%zu: malformed line, ignored", cache->path, lineno);
	return -1;
}

/*
 * Whether the file begins with the first line of this cache (either
 * version): only then is its checksum checked, so that a foreign file
 * is named as such.
 */
static int is_ours(const char *buf, size_t len)
{
	const char *nl = memchr(buf, '\n', len);
	size_t first = nl ? (size_t)(nl - buf) : len;

	return nl && (cachefile_check_header(buf, first, CACHE_MAGIC,
					     CACHE_VERSION) == CACHEFILE_OK ||
		      cachefile_check_header(buf, first, CACHE_MAGIC,
					     CACHE_VERSION_3) == CACHEFILE_OK ||
		      cachefile_check_header(buf, first, CACHE_MAGIC,
					     CACHE_VERSION_2) == CACHEFILE_OK);
}

void patchid_cache_set_attributes(struct patchid_cache *cache,
				  const unsigned char *key)
{
	memcpy(cache->attributes, key, SHA1_RAWSZ);
	cache->has_attributes = 1;
}

/*
 * The patch-ids of other attributes are not these: forgotten, and
 * computed again when asked; the path keys (no attribute reads them)
 * are kept.
 */
static void forget_ids(struct patchid_cache *cache)
{
	struct patchid_cache_entry *e, *tmp;

	HASH_ITER(hh, cache->entries, e, tmp) {
		if (e->has_pathkey) {
			e->known = 0;
			e->has_diff = 0;
			continue;
		}
		HASH_DEL(cache->entries, e);
		free(e);
		cache->nr--;
	}
	cache->dirty = 1;
}

/* "attributes <key>", the second line of version 4; -1 if it is not. */
static int parse_attributes(unsigned char *key, const char *line, size_t len)
{
	const char *p;

	if (!skip_prefix(line, "attributes ", &p) ||
	    (size_t)(line + len - p) != 2 * SHA1_RAWSZ)
		return -1;
	return parse_key(key, p);
}

int patchid_cache_load(struct patchid_cache *cache)
{
	struct strbuf sb = STRBUF_INIT;
	const char *line, *end;
	size_t lineno = 0, body = 0;
	unsigned char file_key[SHA1_RAWSZ];
	int nr = 0, version = 0, file_has_key = 0;

	if (strbuf_read_file(&sb, cache->path) < 0) {
		if (errno != ENOENT)
			warning_aside("cannot read patch-id cache '%s': %s",
				cache->path, strerror(errno));
		strbuf_release(&sb);
		return 0;
	}
	if (!sb.len) {
		warning_aside("%s: empty file, ignored", cache->path);
		cache->dirty = 1;
		strbuf_release(&sb);
		return 0;
	}
	if (is_ours(sb.buf, sb.len) &&
	    cachefile_verify(sb.buf, sb.len, CACHEFILE_SHA1, &body,
			     NULL) != CACHEFILE_OK) {
		cachefile_ignore("patch-id cache", cache->path,
				 cachefile_why(CACHEFILE_MISMATCH, NULL));
		cache->dirty = 1;
		strbuf_release(&sb);
		return 0;
	}
	if (is_ours(sb.buf, sb.len))
		strbuf_setlen(&sb, body);
	for (line = sb.buf; line < sb.buf + sb.len; line = end + 1) {
		end = memchr(line, '\n', sb.buf + sb.len - line);
		lineno++;
		if (!end) {
			warning_aside("%s:%zu: truncated line, ignored",
				cache->path, lineno);
			cache->dirty = 1;
			break;
		}
		if (lineno == 1) {
			size_t len = (size_t)(end - line);

			if (cachefile_check_header(line, len, CACHE_MAGIC,
						   CACHE_VERSION_2) == CACHEFILE_OK ||
			    cachefile_check_header(line, len, CACHE_MAGIC,
						   CACHE_VERSION_3) == CACHEFILE_OK) {
				cache->dirty = 1;
				continue;
			}
			switch (cachefile_check_header(line, len, CACHE_MAGIC,
						       CACHE_VERSION)) {
			case CACHEFILE_OK:
				version = CACHE_VERSION;
				continue;
			case CACHEFILE_OTHER_VERSION:
				warning_aside("%s:1: written by another version "
					"of stablepick, ignored; it will be "
					"rebuilt", cache->path);
				break;
			default:
				warning_aside("%s:1: not a stablepick patch-id "
					"cache, ignored", cache->path);
				break;
			}
			cache->dirty = 1;
			break;
		}
		if (lineno == 2 && version == CACHE_VERSION) {
			if (parse_attributes(file_key, line, (size_t)(end - line)) < 0) {
				warning_aside("%s:2: malformed line, ignored",
					cache->path);
				cache->dirty = 1;
			} else {
				file_has_key = 1;
			}
			continue;
		}
		if (cache_parse(cache, line, (size_t)(end - line), lineno) < 0)
			cache->dirty = 1;
		else
			nr++;
	}
	if (!lineno) {
		warning_aside("%s: empty file, ignored", cache->path);
		cache->dirty = 1;
	}
	strbuf_release(&sb);
	if (!cache->has_attributes && file_has_key)
		patchid_cache_set_attributes(cache, file_key);
	else if (cache->has_attributes && cache->nr &&
		 (!file_has_key || memcmp(file_key, cache->attributes, SHA1_RAWSZ))) {
		trace_printf("patch-id cache: other attributes than when "
			     "computed; the patch-ids are computed again");
		forget_ids(cache);
	}
	return nr;
}

void patchid_cache_open(struct patchid_cache *cache, const char *path,
			git_repository *repo)
{
	unsigned char key[SHA1_RAWSZ];

	patchid_cache_init(cache, path ? path : "");
	if (!path)
		return;
	patchid_attributes_key(key, repo);
	patchid_cache_set_attributes(cache, key);
	patchid_cache_load(cache);
}

int patchid_cache_has(const struct patchid_cache *cache, const git_oid *commit)
{
	struct patchid_cache_entry *e;

	HASH_FIND(hh, cache->entries, commit, sizeof(*commit), e);
	return e && e->known;
}

int patchid_cache_fill(struct patchid_cache *cache, git_repository *repo,
		       const git_oid *ids, size_t nr, int threads)
{
	struct patchid_job *jobs = xcalloc(nr ? nr : 1, sizeof(*jobs));
	size_t n = 0, i;
	int ret;

	for (i = 0; i < nr; i++) {
		if (patchid_cache_has(cache, &ids[i]))
			continue;
		/* Known now: a repeat is not computed twice. */
		set_id(cache_add_or_find(cache, &ids[i]), NULL);
		git_oid_cpy(&jobs[n++].commit, &ids[i]);
	}
	ret = n ? patchid_compute_all(repo, jobs, n, threads) : 0;
	for (i = 0; i < n; i++) {
		struct patchid_cache_entry *e;

		HASH_FIND(hh, cache->entries, &jobs[i].commit, sizeof(git_oid), e);
		/* Interrupted, those done are as good as any. */
		if ((ret && !(interrupted() && jobs[i].done)) ||
		    jobs[i].nr_parents > 1) {
			e->known = 0;	/* asked again, one at a time */
		} else {
			set_id(e, jobs[i].has_id ? &jobs[i].id : NULL);
			cache->computed++;
			cache->dirty = 1;
		}
		free(jobs[i].parents);
	}
	free(jobs);
	return ret;
}

int patchid_cache_pathkey(struct patchid_cache *cache, git_repository *repo,
			  const git_commit *commit, unsigned char *key)
{
	const git_oid *cid = git_commit_id(commit);
	struct patchid_cache_entry *e;

	e = cache_add_or_find(cache, cid);
	if (!e->has_pathkey) {
		if (treediff_pathkey(e->pathkey, repo, commit) < 0)
			return -1;
		e->has_pathkey = 1;
		cache->dirty = 1;
	}
	memcpy(key, e->pathkey, SHA1_RAWSZ);
	return 0;
}

int patchid_cache_pathkey_id(struct patchid_cache *cache, git_repository *repo,
			     const git_oid *id, unsigned char *key)
{
	struct patchid_cache_entry *e;
	struct malformed_commit m;
	git_commit *commit = NULL;
	struct treediff d = TREEDIFF_INIT;
	git_tree *a = NULL, *b = NULL;
	int ret;

	HASH_FIND(hh, cache->entries, id, sizeof(*id), e);
	if (e && e->has_pathkey) {
		memcpy(key, e->pathkey, SHA1_RAWSZ);
		return 0;
	}
	if (!git_commit_lookup(&commit, repo, id)) {
		ret = git_commit_parentcount(commit) != 1 ? 1 :
		      patchid_cache_pathkey(cache, repo, commit, key);
		git_commit_free(commit);
		return ret;
	}
	if (!malformed_check(&m, repo, id))
		return error_git("cannot read commit %s", git_oid_tostr_s(id));
	ret = 1;
	if (m.nr_parents == 1) {
		git_oid ptree;

		ret = malformed_tree_id(&ptree, repo, &m.parents[0]);
		if (!ret)
			ret = git_tree_lookup(&a, repo, &ptree);
		if (!ret)
			ret = git_tree_lookup(&b, repo, &m.tree);
		if (!ret)
			ret = treediff_trees(&d, repo, a, b);
		if (ret < 0) {
			ret = error_git("cannot diff commit %s", git_oid_tostr_s(id));
		} else {
			e = cache_add_or_find(cache, id);
			treediff_key(e->pathkey, &d);
			e->has_pathkey = 1;
			cache->dirty = 1;
			memcpy(key, e->pathkey, SHA1_RAWSZ);
		}
	}
	treediff_release(&d);
	git_tree_free(a);
	git_tree_free(b);
	malformed_release(&m);
	return ret;
}

int patchid_cache_get_id(struct patchid_cache *cache, git_repository *repo,
			 const git_oid *id, git_oid *out)
{
	struct patchid_cache_entry *e;
	git_commit *commit = NULL;
	int ret;

	HASH_FIND(hh, cache->entries, id, sizeof(*id), e);
	if (!e || !e->known) {
		if (!git_commit_lookup(&commit, repo, id)) {
			ret = patchid_cache_get(cache, repo, commit, out);
			git_commit_free(commit);
			return ret;
		}
		if (!malformed_check(NULL, repo, id))
			return error_git("cannot read commit %s",
					 git_oid_tostr_s(id));
		/* The pool reads a malformed commit from its object. */
		if (patchid_cache_fill(cache, repo, id, 1, 1) < 0)
			return -1;
		HASH_FIND(hh, cache->entries, id, sizeof(*id), e);
		if (!e || !e->known)
			return GIT_ENOTFOUND;	/* a merge */
	}
	if (!e->has_diff)
		return GIT_ENOTFOUND;
	git_oid_cpy(out, &e->id);
	return 0;
}

int patchid_cache_get(struct patchid_cache *cache, git_repository *repo,
		      const git_commit *commit, git_oid *out)
{
	const git_oid *cid = git_commit_id(commit);
	struct patchid_cache_entry *e;

	HASH_FIND(hh, cache->entries, cid, sizeof(*cid), e);
	if (!e || !e->known) {
		git_oid id;
		int ret = patchid_commit(&id, repo, commit);

		if (ret < 0 && ret != GIT_ENOTFOUND)
			return ret;
		if (!e)
			e = cache_add(cache, cid);
		set_id(e, ret ? NULL : &id);
		cache->computed++;
		cache->dirty = 1;
	}
	if (!e->has_diff)
		return GIT_ENOTFOUND;
	git_oid_cpy(out, &e->id);
	return 0;
}

static int entry_cmp(const void *a_, const void *b_)
{
	const struct patchid_cache_entry *const *a = a_, *const *b = b_;

	return git_oid_cmp(&(*a)->commit, &(*b)->commit);
}

/* The file's text: the header, then the entries sorted by commit. */
static void cache_format(struct patchid_cache *cache, struct strbuf *sb)
{
	struct patchid_cache_entry **v, *e, *tmp;
	char hex[GIT_OID_HEXSZ + 1];
	size_t nr = 0, i;

	v = xcalloc(cache->nr, sizeof(*v));
	HASH_ITER(hh, cache->entries, e, tmp)
		v[nr++] = e;
	QSORT(v, nr, entry_cmp);
	strbuf_grow(sb, (nr + 1) * (3 * GIT_OID_HEXSZ + 3));
	cachefile_add_header(sb, CACHE_MAGIC, CACHE_VERSION);
	/* A cache of unknown attributes says zeros: no key is that. */
	strbuf_addstr(sb, "attributes ");
	for (i = 0; i < SHA1_RAWSZ; i++)
		strbuf_addf(sb, "%02x", cache->attributes[i]);
	strbuf_addch(sb, '\n');
	for (i = 0; i < nr; i++) {
		git_oid_tostr(hex, sizeof(hex), &v[i]->commit);
		strbuf_addstr(sb, hex);
		strbuf_addch(sb, ' ');
		if (!v[i]->known) {
			strbuf_addch(sb, '?');
		} else if (v[i]->has_diff) {
			git_oid_tostr(hex, sizeof(hex), &v[i]->id);
			strbuf_addstr(sb, hex);
		} else {
			strbuf_addch(sb, '-');
		}
		if (v[i]->has_pathkey) {
			size_t k;

			strbuf_addch(sb, ' ');
			for (k = 0; k < SHA1_RAWSZ; k++)
				strbuf_addf(sb, "%02x", v[i]->pathkey[k]);
		}
		strbuf_addch(sb, '\n');
	}
	free(v);
	cachefile_seal(sb, CACHEFILE_SHA1, NULL);
}

/* Writes and syncs a file; -1 with errno set on failure. */
int patchid_cache_save(struct patchid_cache *cache)
{
	struct strbuf text = STRBUF_INIT;
	int ret;

	if (!cache->dirty)
		return 0;
	cache_format(cache, &text);
	ret = cachefile_write(cache->path, &text, "patch-id cache");
	if (!ret)
		cache->dirty = 0;
	strbuf_release(&text);
	return ret;
}
