#include "store/scancache.h"
#include "base/cachefile.h"
#include "base/error.h"
#include "base/strbuf.h"
#include "base/util.h"

#include <errno.h>
#include <string.h>

static const char magic[16] = "STABLEPICK-SCAN\n";

void scancache_init(struct scancache *c, const char *path)
{
	memset(c, 0, sizeof(*c));
	c->path = xstrdup(path);
}

void scancache_release(struct scancache *c)
{
	size_t i;

	for (i = 0; i < c->nr; i++)
		scan_memo_free(c->memos[i]);
	free(c->memos);
	for (i = 0; i < c->nr_bases; i++)
		free(c->bases[i].branch);
	free(c->bases);
	for (i = 0; i < c->nr_subjects; i++)
		free(c->subjects[i].subject);
	free(c->subjects);
	free(c->path);
	memset(c, 0, sizeof(*c));
}

const struct scancache_base *scancache_find_base(const struct scancache *c,
						 const char *branch)
{
	size_t i;

	for (i = 0; i < c->nr_bases; i++)
		if (!strcmp(c->bases[i].branch, branch))
			return &c->bases[i];
	return NULL;
}

void scancache_put_base(struct scancache *c, const char *branch,
			const git_oid *base, size_t nr_commits)
{
	struct scancache_base *b = (struct scancache_base *)
		scancache_find_base(c, branch);

	if (b && git_oid_equal(&b->base, base) && b->nr_commits == nr_commits)
		return;
	if (!b) {
		ALLOC_GROW(c->bases, c->nr_bases, c->alloc_bases);
		b = &c->bases[c->nr_bases++];
		b->branch = xstrdup(branch);
	}
	git_oid_cpy(&b->base, base);
	b->nr_commits = nr_commits;
	c->dirty = 1;
}

const struct scancache_subject *scancache_find_subject(const struct scancache *c,
						       const git_oid *tip,
						       const char *subject)
{
	size_t i;

	for (i = 0; i < c->nr_subjects; i++)
		if (git_oid_equal(&c->subjects[i].tip, tip) &&
		    !strcmp(c->subjects[i].subject, subject))
			return &c->subjects[i];
	return NULL;
}

static int has_tip(const struct scancache *c, size_t nr, const git_oid *tip)
{
	size_t i;

	for (i = 0; i < nr; i++)
		if (git_oid_equal(&c->subjects[i].tip, tip))
			return 1;
	return 0;
}

/* Drops every subject of tip. */
static void drop_tip(struct scancache *c, const git_oid *tip)
{
	size_t i, kept = 0;

	for (i = 0; i < c->nr_subjects; i++) {
		if (git_oid_equal(&c->subjects[i].tip, tip))
			free(c->subjects[i].subject);
		else
			c->subjects[kept++] = c->subjects[i];
	}
	c->nr_subjects = kept;
}

/* Makes room for a new tip: at most SCANCACHE_MAX_TIPS are kept. */
static void make_room_for_tip(struct scancache *c)
{
	for (;;) {
		size_t i, tips = 0;
		git_oid oldest;

		for (i = 0; i < c->nr_subjects; i++)
			tips += !has_tip(c, i, &c->subjects[i].tip);
		if (tips < SCANCACHE_MAX_TIPS)
			return;
		git_oid_cpy(&oldest, &c->subjects[0].tip);
		drop_tip(c, &oldest);
	}
}

void scancache_put_subject(struct scancache *c, const git_oid *tip,
			   const char *subject, const git_oid *id)
{
	struct scancache_subject *s = (struct scancache_subject *)
		scancache_find_subject(c, tip, subject);

	if (!s) {
		if (!has_tip(c, c->nr_subjects, tip))
			make_room_for_tip(c);
		ALLOC_GROW(c->subjects, c->nr_subjects, c->alloc_subjects);
		s = &c->subjects[c->nr_subjects++];
		git_oid_cpy(&s->tip, tip);
		s->subject = xstrdup(subject);
	} else if (s->found == !!id && (!id || git_oid_equal(&s->id, id))) {
		return;
	}
	s->found = !!id;
	memset(&s->id, 0, sizeof(s->id));
	if (id)
		git_oid_cpy(&s->id, id);
	c->dirty = 1;
}

struct scan_memo *scan_memo_new(void)
{
	return xcalloc(1, sizeof(struct scan_memo));
}

void scan_memo_free(struct scan_memo *m)
{
	size_t i;

	if (!m)
		return;
	for (i = 0; i < m->nr_hits; i++) {
		free(m->hits[i].touched);
		free_string_array(m->hits[i].paths, m->hits[i].nr_paths);
		free_string_array(m->hits[i].old_paths, m->hits[i].nr_old_paths);
		free(m->hits[i].author);
		free(m->hits[i].raw);
	}
	free(m->hits);
	free(m->range);
	free_string_array(m->names, m->nr_names);
	free_string_array(m->tags, m->nr_tags);
	free(m);
}

static uint32_t intern(char ***v, size_t *nr, const char *name)
{
	size_t i;

	for (i = 0; i < *nr; i++)
		if (!strcmp((*v)[i], name))
			return (uint32_t)i;
	*v = xrealloc(*v, (*nr + 1) * sizeof(**v));
	(*v)[*nr] = xstrdup(name);
	return (uint32_t)(*nr)++;
}

uint32_t scan_memo_name(struct scan_memo *m, const char *name)
{
	return intern(&m->names, &m->nr_names, name);
}

uint32_t scan_memo_tag(struct scan_memo *m, const char *name)
{
	return intern(&m->tags, &m->nr_tags, name);
}

const struct scan_memo *scancache_find(const struct scancache *c,
				       const unsigned char *key,
				       const git_oid *from)
{
	size_t i;

	for (i = 0; i < c->nr; i++) {
		const struct scan_memo *m = c->memos[i];

		if (memcmp(m->key, key, SHA1_RAWSZ) || m->has_from != !!from)
			continue;
		if (!from || git_oid_equal(&m->from, from))
			return m;
	}
	return NULL;
}

void scancache_put(struct scancache *c, struct scan_memo *m)
{
	size_t i;

	for (i = 0; i < c->nr; i++) {
		struct scan_memo *old = c->memos[i];

		if (!memcmp(old->key, m->key, SHA1_RAWSZ) &&
		    old->has_from == m->has_from &&
		    (!m->has_from || git_oid_equal(&old->from, &m->from)))
			break;
	}
	if (i < c->nr) {
		scan_memo_free(c->memos[i]);
	} else if (c->nr == SCANCACHE_MAX) {
		scan_memo_free(c->memos[0]);
		i = 0;
	} else {
		ALLOC_GROW(c->memos, c->nr, c->alloc);
		i = c->nr++;
	}
	/* The newest goes last: the first is the one to drop. */
	memmove(c->memos + i, c->memos + i + 1, (c->nr - i - 1) * sizeof(*c->memos));
	c->memos[c->nr - 1] = m;
	c->dirty = 1;
}

/* --- the file -------------------------------------------------------- */

static void format_memo(struct strbuf *sb, const struct scan_memo *m)
{
	size_t i, j;

	strbuf_add(sb, m->key, SHA1_RAWSZ);
	strbuf_addch(sb, m->has_from);
	strbuf_add(sb, m->from.id, GIT_OID_RAWSZ);
	strbuf_add(sb, m->to.id, GIT_OID_RAWSZ);
	cachefile_put_u32(sb, (uint32_t)m->walked);
	cachefile_put_u32(sb, (uint32_t)m->merges);
	cachefile_put_u32(sb, (uint32_t)m->left_out);
	strbuf_addch(sb, m->reaches_from);
	cachefile_put_strings(sb, m->names, m->nr_names);
	cachefile_put_strings(sb, m->tags, m->nr_tags);
	cachefile_put_u32(sb, (uint32_t)m->nr_hits);
	for (i = 0; i < m->nr_hits; i++) {
		const struct scan_memo_hit *h = &m->hits[i];

		strbuf_add(sb, h->id.id, GIT_OID_RAWSZ);
		strbuf_addch(sb, h->settled);
		cachefile_put_u32(sb, (uint32_t)h->release);
		cachefile_put_u32(sb, (uint32_t)h->rc);
		cachefile_put_u32(sb, (uint32_t)h->nr_touched);
		for (j = 0; j < h->nr_touched; j++)
			cachefile_put_u32(sb, h->touched[j]);
		strbuf_addch(sb, h->has_pathkey);
		strbuf_add(sb, h->pathkey, SHA1_RAWSZ);
		strbuf_addch(sb, h->paths_known);
		cachefile_put_strings(sb, h->paths, h->nr_paths);
		cachefile_put_strings(sb, h->old_paths, h->nr_old_paths);
		cachefile_put_str(sb, h->author ? h->author : "");
		cachefile_put_u32(sb, (uint32_t)((uint64_t)h->time >> 32));
		cachefile_put_u32(sb, (uint32_t)h->time);
		cachefile_put_u32(sb, (uint32_t)h->tz_offset);
		cachefile_put_str(sb, h->raw ? h->raw : "");
	}
	cachefile_put_u32(sb, (uint32_t)m->nr_range);
	for (i = 0; i < m->nr_range; i++)
		strbuf_add(sb, m->range[i].id, GIT_OID_RAWSZ);
}

int scan_memo_in_range(const struct scan_memo *m, const git_oid *id)
{
	size_t lo = 0, hi = m->nr_range;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int cmp = git_oid_cmp(&m->range[mid], id);

		if (!cmp)
			return 1;
		if (cmp < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return 0;
}

int scancache_save(struct scancache *c)
{
	struct strbuf sb = STRBUF_INIT;
	unsigned char digest[CACHEFILE_RAWSZ];
	size_t i;
	int ret;

	if (!c->dirty)
		return 0;
	cachefile_add_binary_header(&sb, magic, SCANCACHE_VERSION);
	cachefile_put_u32(&sb, (uint32_t)c->nr);
	for (i = 0; i < c->nr; i++)
		format_memo(&sb, c->memos[i]);
	cachefile_put_u32(&sb, (uint32_t)c->nr_bases);
	for (i = 0; i < c->nr_bases; i++) {
		cachefile_put_str(&sb, c->bases[i].branch);
		strbuf_add(&sb, c->bases[i].base.id, GIT_OID_RAWSZ);
		cachefile_put_u32(&sb, (uint32_t)c->bases[i].nr_commits);
	}
	cachefile_put_u32(&sb, (uint32_t)c->nr_subjects);
	for (i = 0; i < c->nr_subjects; i++) {
		const struct scancache_subject *s = &c->subjects[i];

		strbuf_add(&sb, s->tip.id, GIT_OID_RAWSZ);
		cachefile_put_str(&sb, s->subject);
		strbuf_addch(&sb, s->found);
		strbuf_add(&sb, s->id.id, GIT_OID_RAWSZ);
	}
	cachefile_seal(&sb, CACHEFILE_HASH64_RAW, digest);
	if (c->has_loaded && !memcmp(digest, c->loaded, CACHEFILE_RAWSZ)) {
		c->dirty = 0;
		strbuf_release(&sb);
		return 0;
	}
	ret = cachefile_write(c->path, &sb, "scan cache");
	if (!ret)
		c->dirty = 0;
	strbuf_release(&sb);
	return ret;
}

static int get_u8(struct cachefile_reader *r)
{
	const unsigned char *p = cachefile_take(r, 1);

	return p ? *p : 0;
}

static void get_oid(struct cachefile_reader *r, git_oid *out)
{
	const unsigned char *p = cachefile_take(r, GIT_OID_RAWSZ);

	if (p)
		git_oid_fromraw(out, p);
}

static struct scan_memo *parse_memo(struct cachefile_reader *r)
{
	struct scan_memo *m = scan_memo_new();
	const unsigned char *key = cachefile_take(r, SHA1_RAWSZ);
	size_t i, j, n;
	uint32_t hi;

	if (key)
		memcpy(m->key, key, SHA1_RAWSZ);
	m->has_from = get_u8(r);
	get_oid(r, &m->from);
	get_oid(r, &m->to);
	m->walked = cachefile_get_u32(r);
	m->merges = cachefile_get_u32(r);
	m->left_out = cachefile_get_u32(r);
	m->reaches_from = get_u8(r);
	m->names = cachefile_get_strings(r, &m->nr_names);
	m->tags = cachefile_get_strings(r, &m->nr_tags);
	n = cachefile_get_count(r, GIT_OID_RAWSZ + 59);
	m->hits = xcalloc(n ? n : 1, sizeof(*m->hits));
	m->alloc_hits = n ? n : 1;
	for (i = 0; i < n && !r->bad; i++) {
		struct scan_memo_hit *h = &m->hits[i];

		get_oid(r, &h->id);
		h->settled = get_u8(r);
		h->release = (int32_t)cachefile_get_u32(r);
		h->rc = (int32_t)cachefile_get_u32(r);
		h->nr_touched = cachefile_get_count(r, 4);
		h->touched = xcalloc(h->nr_touched ? h->nr_touched : 1,
				     sizeof(*h->touched));
		for (j = 0; j < h->nr_touched; j++) {
			h->touched[j] = cachefile_get_u32(r);
			if (h->touched[j] >= m->nr_names)
				r->bad = 1;
		}
		h->has_pathkey = get_u8(r);
		key = cachefile_take(r, SHA1_RAWSZ);
		if (key)
			memcpy(h->pathkey, key, SHA1_RAWSZ);
		h->paths_known = get_u8(r);
		h->paths = cachefile_get_strings(r, &h->nr_paths);
		h->old_paths = cachefile_get_strings(r, &h->nr_old_paths);
		h->author = cachefile_get_str(r);
		hi = cachefile_get_u32(r);
		h->time = (int64_t)(((uint64_t)hi << 32) | cachefile_get_u32(r));
		h->tz_offset = (int32_t)cachefile_get_u32(r);
		h->raw = cachefile_get_str(r);
		if ((h->release >= 0 && (size_t)h->release >= m->nr_tags) ||
		    (h->rc >= 0 && (size_t)h->rc >= m->nr_tags) ||
		    h->release < -1 || h->rc < -1)
			r->bad = 1;
		m->nr_hits++;
	}
	n = cachefile_get_count(r, GIT_OID_RAWSZ);
	m->range = xcalloc(n ? n : 1, sizeof(*m->range));
	m->alloc_range = n ? n : 1;
	for (i = 0; i < n && !r->bad; i++) {
		get_oid(r, &m->range[i]);
		if (i && git_oid_cmp(&m->range[i - 1], &m->range[i]) >= 0)
			r->bad = 1;	/* sorted, no duplicates */
		m->nr_range++;
	}
	return m;
}

void scancache_load(struct scancache *c)
{
	struct strbuf sb = STRBUF_INIT;
	struct cachefile_sum sum;
	struct cachefile_reader r;
	const char *why = NULL;
	size_t i, n, body;
	int status;

	if (strbuf_read_file(&sb, c->path) < 0) {
		if (errno != ENOENT)
			warning_aside("cannot read scan cache '%s': %s; scanning "
				"without it", c->path, strerror(errno));
		strbuf_release(&sb);
		return;
	}
	status = cachefile_check_binary_header(sb.buf, sb.len, magic,
					       SCANCACHE_VERSION);
	if (!status)
		status = cachefile_verify(sb.buf, sb.len, CACHEFILE_HASH64_RAW,
					  &body, &sum);
	if (status) {
		why = cachefile_why(status, "not a stablepick scan cache");
		goto out;
	}
	r.p = (const unsigned char *)sb.buf + sizeof(magic) + 4;
	r.end = (const unsigned char *)sb.buf + body;
	r.bad = 0;
	n = cachefile_get_count(&r, SHA1_RAWSZ + 1 + 2 * GIT_OID_RAWSZ + 25);
	for (i = 0; i < n && !r.bad; i++) {
		struct scan_memo *m = parse_memo(&r);

		ALLOC_GROW(c->memos, c->nr, c->alloc);
		c->memos[c->nr++] = m;
	}
	n = cachefile_get_count(&r, 4 + GIT_OID_RAWSZ + 4);
	for (i = 0; i < n && !r.bad; i++) {
		struct scancache_base *b;
		size_t len = cachefile_get_u32(&r);
		const unsigned char *name = cachefile_take(&r, len);
		git_oid base;
		size_t nr;

		get_oid(&r, &base);
		nr = cachefile_get_u32(&r);
		if (r.bad)
			break;
		ALLOC_GROW(c->bases, c->nr_bases, c->alloc_bases);
		b = &c->bases[c->nr_bases++];
		b->branch = xstrndup((const char *)name, len);
		git_oid_cpy(&b->base, &base);
		b->nr_commits = nr;
	}
	n = cachefile_get_count(&r, 2 * GIT_OID_RAWSZ + 4 + 1);
	for (i = 0; i < n && !r.bad; i++) {
		struct scancache_subject s;

		get_oid(&r, &s.tip);
		s.subject = cachefile_get_str(&r);
		s.found = get_u8(&r);
		get_oid(&r, &s.id);
		if (r.bad || s.found > 1) {
			free(s.subject);
			r.bad = 1;
			break;
		}
		ALLOC_GROW(c->subjects, c->nr_subjects, c->alloc_subjects);
		c->subjects[c->nr_subjects++] = s;
	}
	if (r.bad || r.p != r.end)
		why = "malformed records";
	else {
		cachefile_sum_raw(&sum, c->loaded);
		c->has_loaded = 1;
	}
out:
	if (why) {
		for (i = 0; i < c->nr; i++)
			scan_memo_free(c->memos[i]);
		c->nr = 0;
		for (i = 0; i < c->nr_bases; i++)
			free(c->bases[i].branch);
		c->nr_bases = 0;
		for (i = 0; i < c->nr_subjects; i++)
			free(c->subjects[i].subject);
		c->nr_subjects = 0;
		c->dirty = 1;	/* the next save replaces it */
		cachefile_ignore("scan cache", c->path, why);
	}
	strbuf_release(&sb);
}
