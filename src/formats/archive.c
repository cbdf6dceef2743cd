/*
 * The archive index (archive.h): the table of backends (archive-ops.h;
 * archive-pi.c, archive-mbox.c), the messages they index, each
 * source's cache file, and the lookups by id, thread, title, sender
 * and patch-id.
 */
#include "formats/archive.h"
#include "formats/archive-ops.h"
#include "base/cachefile.h"
#include "base/error.h"
#include "git/patchid.h"
#include "base/strbuf.h"
#include "base/trace.h"
#include "base/util.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* A cache file appended to this often is written whole again. */
#define MAX_APPENDS 32

/* The backends, in the order they are asked whether a path is theirs. */
static const struct archive_ops *const backends[] = {
	&archive_mbox_ops,
	&archive_pi_v2_ops,
	&archive_maildir_ops,
	&archive_pi_v1_ops,
};

void archive_init(struct archive *a, const char *cache_dir)
{
	memset(a, 0, sizeof(*a));
	a->cache_dir = cache_dir ? xstrdup(cache_dir) : NULL;
}

static void msg_free(struct archive_msg *m)
{
	free(m->message_id);
	free(m->in_reply_to);
	free(m->first_ref);
	free(m->from);
	free(m->email);
	free(m->subject);
	free(m->title);
	free(m->where);
	free(m);
}

static void buckets_free(struct archive_bucket **head)
{
	struct archive_bucket *b, *tmp;

	HASH_ITER(hh, *head, b, tmp) {
		HASH_DEL(*head, b);
		free(b->key);
		free(b->items);
		free(b);
	}
}

static void lookups_free(struct archive *a)
{
	HASH_CLEAR(hh, a->by_id);
	buckets_free(&a->by_thread);
	buckets_free(&a->by_title);
	buckets_free(&a->by_email);
	buckets_free(&a->by_patch_id);
}

void archive_release(struct archive *a)
{
	size_t i, j;

	lookups_free(a);
	for (i = 0; i < a->nr; i++)
		msg_free(a->msgs[i]);
	free(a->msgs);
	for (i = 0; i < a->nr_sources; i++) {
		struct archive_source *s = &a->sources[i];

		for (j = 0; j < s->nr_repos; j++)
			git_repository_free(s->repos[j]);
		free(s->repos);
		for (j = 0; j < s->nr_state; j++)
			free(s->state[j]);
		free(s->state);
		free(s->path);
		free(s->abs);
		free(s->cache_path);
		if (s->text) {
			strbuf_release(s->text);
			free(s->text);
		}
	}
	free(a->sources);
	free(a->cache_dir);
	memset(a, 0, sizeof(*a));
}

char *archive_email(const char *from)
{
	const char *lt = from ? strrchr(from, '<') : NULL;
	char *email;
	size_t i;

	if (lt)
		email = xstrndup(lt + 1, strcspn(lt + 1, ">"));
	else
		email = xstrdup(from && strchr(from, '@') ? from : "");
	for (i = 0; email[i]; i++)
		if (email[i] >= 'A' && email[i] <= 'Z')
			email[i] = (char)(email[i] - 'A' + 'a');
	return email;
}

/* A header value as the cache keeps it: one line, no tab. */
static char *field(const char *s)
{
	char *v = xstrdup(s ? s : "");
	size_t i;

	for (i = 0; v[i]; i++)
		if (v[i] == '\t' || v[i] == '\n' || v[i] == '\r')
			v[i] = ' ';
	return v;
}

static void add_msg(struct archive *a, struct archive_msg *m)
{
	ALLOC_GROW(a->msgs, a->nr, a->alloc);
	a->msgs[a->nr++] = m;
}

/*
 * Indexes one message read from source src at where; a message without
 * a Message-ID cannot be found by one and is only counted.
 */
void archive_index_message(struct archive *a, size_t src,
			   const struct mbox_msg *mm, const char *where)
{
	struct archive_msg *m;
	long long t;
	int tz;

	if (!mm->message_id || !*mm->message_id) {
		a->sources[src].nr_skipped++;
		return;
	}
	m = xcalloc(1, sizeof(*m));
	m->message_id = field(mm->message_id);
	m->in_reply_to = mm->in_reply_to ? field(mm->in_reply_to) : NULL;
	m->first_ref = mm->nr_references ? field(mm->references[0]) : NULL;
	m->from = field(mm->from);
	m->email = archive_email(m->from);
	m->subject = field(mm->subject);
	m->title = field(mm->title);
	if (!mbox_parse_date(mm->date, &t, &tz))
		m->time = t;
	m->number = mm->number;
	m->total = mm->total;
	m->revision = mm->revision ? mm->revision : 1;
	m->is_reply = mm->is_reply;
	m->backport = mm->version || mm->autosel;
	if (!m->is_reply && mm->diff && !patchid_text(&m->patch_id, mm->diff))
		m->has_patch_id = 1;
	m->source = src;
	m->where = xstrdup(where);
	add_msg(a, m);
	a->sources[src].nr_read++;
	a->sources[src].dirty = 1;
}

/* Indexes the one message of buf (a blob, a maildir file). */
void archive_index_buffer(struct archive *a, size_t src, const char *buf,
			  size_t len, const char *where)
{
	struct mbox mb = MBOX_INIT;

	/* What is not a message at all cannot be indexed: skip it. */
	if (!mbox_read_quiet(&mb, buf, len) && mb.nr)
		archive_index_message(a, src, &mb.msgs[0], where);
	else
		a->sources[src].nr_skipped++;
	mbox_release(&mb);
}

/* Marks the messages of src at where removed. */
void archive_remove_where(struct archive *a, size_t src, const char *where)
{
	size_t i;

	for (i = 0; i < a->nr; i++)
		if (a->msgs[i]->source == src && !a->msgs[i]->removed &&
		    !strcmp(a->msgs[i]->where, where)) {
			a->msgs[i]->removed = 1;
			a->sources[src].dirty = 1;
			a->sources[src].rewrite = 1;
		}
}

/* Drops every message of src (to read it again whole). */
void archive_forget_source(struct archive *a, size_t src, const char *prefix)
{
	size_t i, len = prefix ? strlen(prefix) : 0;

	for (i = 0; i < a->nr; i++)
		if (a->msgs[i]->source == src &&
		    (!prefix || !strncmp(a->msgs[i]->where, prefix, len)))
			a->msgs[i]->removed = 1;
	a->sources[src].dirty = 1;
	a->sources[src].rewrite = 1;
}

/* --- the cache -------------------------------------------------------- */

const char *archive_state_get(const struct archive_source *s, const char *key)
{
	size_t i, len = strlen(key);

	for (i = 0; i < s->nr_state; i++)
		if (!strncmp(s->state[i], key, len) && s->state[i][len] == ' ')
			return s->state[i] + len + 1;
	return NULL;
}

void archive_state_set(struct archive_source *s, const char *key,
		       const char *value)
{
	size_t i, len = strlen(key);
	char *line = xstrfmt("%s %s", key, value);

	s->dirty = 1;
	for (i = 0; i < s->nr_state; i++)
		if (!strncmp(s->state[i], key, len) && s->state[i][len] == ' ') {
			free(s->state[i]);
			s->state[i] = line;
			return;
		}
	ALLOC_GROW(s->state, s->nr_state, s->alloc_state);
	s->state[s->nr_state++] = line;
}

/* The key of a state line: "epoch N", else its first word. */
static size_t state_key_len(const char *line)
{
	size_t len = strcspn(line, " ");

	const char *rest;

	if (skip_prefix(line, "epoch ", &rest))
		len = (size_t)(rest - line) + strcspn(rest, " ");
	return len;
}

/* A state line of the file: a later one of a key replaces an earlier. */
static void state_load(struct archive_source *s, const char *line)
{
	size_t len = state_key_len(line), i;

	for (i = 0; i < s->nr_state; i++)
		if (state_key_len(s->state[i]) == len &&
		    !strncmp(s->state[i], line, len)) {
			free(s->state[i]);
			s->state[i] = xstrdup(line);
			return;
		}
	ALLOC_GROW(s->state, s->nr_state, s->alloc_state);
	s->state[s->nr_state++] = xstrdup(line);
}

/* Splits line at tabs into at most max fields, in place; how many. */
static size_t split_tabs(char *line, char **fields, size_t max)
{
	size_t n = 0;

	while (n < max) {
		fields[n++] = line;
		line = strchr(line, '\t');
		if (!line)
			break;
		*line++ = '\0';
	}
	return n;
}

static int parse_int(const char *s, long long *out)
{
	char *end;

	errno = 0;
	*out = strtoll(s, &end, 10);
	return errno || end == s || *end ? -1 : 0;
}

/* One "m" line of the cache; -1 if it is malformed. */
static int load_msg(struct archive *a, size_t src, char *line)
{
	char *f[15];
	long long v[6];
	struct archive_msg *m;
	size_t i;

	if (split_tabs(line, f, ARRAY_SIZE(f)) != 15 || strcmp(f[0], "m") ||
	    !*f[1] || !*f[2])
		return -1;
	for (i = 0; i < 6; i++)
		if (parse_int(f[6 + i], &v[i]) < 0)
			return -1;
	m = xcalloc(1, sizeof(*m));
	if (*f[12] && (strlen(f[12]) != GIT_OID_HEXSZ ||
		       git_oid_fromstr(&m->patch_id, f[12]) < 0)) {
		git_error_clear();
		free(m);
		return -1;
	}
	m->has_patch_id = !!*f[12];
	m->where = xstrdup(f[1]);
	m->message_id = xstrdup(f[2]);
	m->in_reply_to = *f[3] ? xstrdup(f[3]) : NULL;
	m->first_ref = *f[4] ? xstrdup(f[4]) : NULL;
	m->title = xstrdup(f[5]);
	m->time = v[0];
	m->number = (int)v[1];
	m->total = (int)v[2];
	m->revision = (int)v[3];
	m->is_reply = !!v[4];
	m->backport = !!v[5];
	m->from = xstrdup(f[13]);
	m->email = archive_email(m->from);
	m->subject = xstrdup(f[14]);
	m->source = src;
	add_msg(a, m);
	return 0;
}

static void cache_line_msg(struct strbuf *sb, const struct archive_msg *m)
{
	char hex[GIT_OID_HEXSZ + 1] = "";

	if (m->has_patch_id)
		git_oid_tostr(hex, sizeof(hex), &m->patch_id);
	strbuf_addf(sb, "m\t%s\t%s\t%s\t%s\t%s\t%lld\t%d\t%d\t%d\t%d\t%d\t%s\t%s\t%s\n",
		    m->where, m->message_id, m->in_reply_to ? m->in_reply_to : "",
		    m->first_ref ? m->first_ref : "", m->title, m->time,
		    m->number, m->total, m->revision, m->is_reply, m->backport,
		    hex, m->from, m->subject);
}

/* 40 hex digits of the SHA-1 of buf. */
static void sha1_hex(char *hex, const void *buf, size_t len)
{
	struct cachefile_sum sum;

	cachefile_sum_init(&sum, CACHEFILE_SHA1);
	cachefile_sum_update(&sum, buf, len);
	cachefile_sum_hex(&sum, hex);
}

/*
 * Reads the cache of source src.  Nothing here is fatal: a cache that
 * does not check out is ignored (with a warning) and the archive read
 * again.
 */
static void cache_load(struct archive *a, size_t src)
{
	struct archive_source *s = &a->sources[src];
	struct strbuf sb = STRBUF_INIT;
	char *line, *next;
	size_t first = a->nr, lineno = 0, i, appends = 0, body = 0;
	struct cachefile_sum h;
	const char *why = NULL;

	s->rewrite = 1;
	if (!s->cache_path || strbuf_read_file(&sb, s->cache_path) < 0) {
		strbuf_release(&sb);
		return;
	}
	switch (cachefile_verify(sb.buf, sb.len, CACHEFILE_HASH64, &body, &h)) {
	case CACHEFILE_OK:
		break;
	case CACHEFILE_CUT:
		why = "it is cut short";
		goto out;
	default:
		why = "its checksum does not match";
		goto out;
	}
	/* What an append continues from: every byte of the file. */
	cachefile_sum_update(&h, sb.buf + body, sb.len - body);
	/* The lines are text: a NUL byte would end one early. */
	if (memchr(sb.buf, '\0', body)) {
		why = "it holds a NUL byte";
		goto out;
	}
	sb.buf[body] = '\0';
	for (line = sb.buf; *line; line = next) {
		next = strchr(line, '\n');
		*next++ = '\0';
		lineno++;
		if (lineno == 1) {
			if (cachefile_check_header(line, strlen(line), ARCHIVE_CACHE_MAGIC,
						   ARCHIVE_CACHE_VERSION))
				why = "it is of another version";
		} else if (lineno == 2) {
			char *expect = xstrfmt("source %s %s",
					       s->ops->name, s->abs);

			if (strcmp(line, expect))
				why = "it is of another archive";
			free(expect);
		} else if (line[0] == 'm' && line[1] == '\t') {
			if (load_msg(a, src, line) < 0)
				why = "a line is malformed";
		} else if (starts_with(line, "checksum ")) {
			appends++;	/* where an earlier run appended */
		} else if (*line) {
			state_load(s, line);
		}
		if (why)
			break;
	}
	if (!why) {
		s->loaded_len = sb.len;
		s->loaded_hash = h;
		s->loaded_end = a->nr;
		s->rewrite = appends >= MAX_APPENDS;
	}
out:
	if (why) {
		warning_aside("ignoring the archive cache '%s' of '%s': %s", s->cache_path,
			s->path, why);
		for (i = first; i < a->nr; i++)
			msg_free(a->msgs[i]);
		a->nr = first;
		for (i = 0; i < s->nr_state; i++)
			free(s->state[i]);
		s->nr_state = 0;
		s->dirty = 1;
	}
	strbuf_release(&sb);
}

/*
 * Appends what this run added to the cache file: the state, the new
 * messages and a checksum of the whole.  Returns 0, or -1 when the file
 * is not the one loaded any more (another run wrote it) or the write
 * failed: the caller writes the file whole instead.  A write cut short
 * leaves a file whose last line is no checksum: the next run ignores it.
 */
static int cache_append(struct archive *a, size_t src)
{
	struct archive_source *s = &a->sources[src];
	struct strbuf sb = STRBUF_INIT;
	struct cachefile_sum h = s->loaded_hash;
	struct stat st;
	size_t i;
	int fd, ret = -1;

	for (i = 0; i < s->nr_state; i++)
		strbuf_addf(&sb, "%s\n", s->state[i]);
	for (i = s->loaded_end; i < a->nr; i++)
		if (a->msgs[i]->source == src && !a->msgs[i]->removed)
			cache_line_msg(&sb, a->msgs[i]);
	cachefile_sum_update(&h, sb.buf, sb.len);
	cachefile_add_sum(&sb, &h);
	fd = open(s->cache_path, O_WRONLY | O_APPEND);
	if (fd < 0)
		goto out;
	if (!fstat(fd, &st) && (size_t)st.st_size == s->loaded_len &&
	    !write_in_full(fd, sb.buf, sb.len) && !fsync(fd))
		ret = 0;
	close(fd);
out:
	strbuf_release(&sb);
	return ret;
}

static int cache_save(struct archive *a, size_t src)
{
	struct archive_source *s = &a->sources[src];
	struct strbuf sb = STRBUF_INIT;
	size_t i;
	int ret;

	if (!s->cache_path || !s->dirty)
		return 0;
	if (!s->rewrite && !cache_append(a, src)) {
		s->dirty = 0;
		trace_printf("archive: appended to the cache of '%s'", s->path);
		return 0;
	}
	cachefile_add_header(&sb, ARCHIVE_CACHE_MAGIC, ARCHIVE_CACHE_VERSION);
	strbuf_addf(&sb, "source %s %s\n", s->ops->name, s->abs);
	for (i = 0; i < s->nr_state; i++)
		strbuf_addf(&sb, "%s\n", s->state[i]);
	for (i = 0; i < a->nr; i++)
		if (a->msgs[i]->source == src && !a->msgs[i]->removed)
			cache_line_msg(&sb, a->msgs[i]);
	cachefile_seal(&sb, CACHEFILE_HASH64, NULL);
	ret = cachefile_write(s->cache_path, &sb, "archive cache");
	if (!ret)
		s->dirty = 0;
	strbuf_release(&sb);
	return ret;
}

int archive_save(struct archive *a)
{
	size_t i;
	int ret = 0;

	for (i = 0; i < a->nr_sources; i++)
		if (cache_save(a, i) < 0)
			ret = -1;
	if (ret)
		warning_aside("the next run will read the archives again");
	return ret;
}

/* --- sources ---------------------------------------------------------- */

static int detect(const char *path, const struct archive_ops **out)
{
	struct stat st;
	size_t i;

	if (stat(path, &st) < 0)
		return error("cannot read the archive '%s': %s", path, strerror(errno));
	if (!S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode))
		return error("'%s' is not an archive (neither a file nor a "
			     "directory)", path);
	for (i = 0; i < ARRAY_SIZE(backends); i++)
		if (backends[i]->detect(path, &st)) {
			*out = backends[i];
			return 0;
		}
	return error("'%s' is not an archive: neither a public-inbox repository "
		     "(v2: git/N.git epochs; v1: a git repository), a maildir "
		     "(cur/, new/) nor an mbox file", path);
}

char *archive_cache_path(const char *cache_dir, const char *abs)
{
	char hex[41];

	if (!cache_dir)
		return NULL;
	sha1_hex(hex, abs, strlen(abs));
	return xstrfmt("%s/archive-%.16s", cache_dir, hex);
}

int archive_add(struct archive *a, const char *path)
{
	struct archive_source *s;
	const struct archive_ops *ops = NULL;
	char abs[PATH_MAX];
	size_t src, i;
	int ret;

	if (detect(path, &ops) < 0)
		return -1;
	if (!realpath(path, abs))
		return error("cannot read the archive '%s': %s", path, strerror(errno));
	for (i = 0; i < a->nr_sources; i++)
		if (!strcmp(a->sources[i].abs, abs))
			return 0;	/* given twice */
	ALLOC_GROW(a->sources, a->nr_sources, a->alloc_sources);
	src = a->nr_sources++;
	s = &a->sources[src];
	memset(s, 0, sizeof(*s));
	s->path = xstrdup(path);
	s->abs = xstrdup(abs);
	s->kind = ops->kind;
	s->ops = ops;
	s->cache_path = archive_cache_path(a->cache_dir, abs);
	cache_load(a, src);
	ret = ops->index(a, src);
	if (!ret) {
		size_t nr = 0;
		char skipped[64] = "";

		for (i = 0; i < a->nr; i++)
			nr += a->msgs[i]->source == src && !a->msgs[i]->removed;
		if (s->nr_skipped)
			snprintf(skipped, sizeof(skipped), " (%zu skipped: no "
				 "Message-ID, or not a mail)", s->nr_skipped);
		trace_printf("archive: '%s' (%s): %zu messages, %zu read now%s, "
			     "the others from the cache", path, ops->name,
			     nr, s->nr_read, skipped);
	}
	return ret;
}

/* --- lookups ---------------------------------------------------------- */

struct archive_msg *archive_find(const struct archive *a, const char *id)
{
	struct archive_msg *m;

	if (!id)
		return NULL;
	HASH_FIND_STR(a->by_id, id, m);
	return m;
}

const struct archive_bucket *archive_bucket(const struct archive_bucket *b,
					    const char *key)
{
	struct archive_bucket *found;

	if (!key)
		return NULL;
	HASH_FIND_STR(b, key, found);
	return found;
}

static void bucket_add(struct archive_bucket **head, const char *key,
		       struct archive_msg *m)
{
	struct archive_bucket *b;

	HASH_FIND_STR(*head, key, b);
	if (!b) {
		b = xcalloc(1, sizeof(*b));
		b->key = xstrdup(key);
		HASH_ADD_KEYPTR(hh, *head, b->key, strlen(b->key), b);
	}
	ALLOC_GROW(b->items, b->nr, b->alloc);
	b->items[b->nr++] = m;
}

/*
 * The first message of m's thread: the first id of its References, or
 * else the first of its In-Reply-To ancestors the archive has (an
 * ancestor's own thread), or else m itself.
 */
static const char *thread_of(struct archive *a, struct archive_msg *m)
{
	struct archive_msg *p = m;
	int depth;

	if (m->thread)
		return m->thread;
	for (depth = 0; depth < 1000; depth++) {
		struct archive_msg *up;

		if (p->thread) {
			m->thread = p->thread;
			return m->thread;
		}
		if (p->first_ref) {
			m->thread = p->first_ref;
			return m->thread;
		}
		up = p->in_reply_to ? archive_find(a, p->in_reply_to) : NULL;
		if (!up || up == m) {
			m->thread = p->in_reply_to ? p->in_reply_to : p->message_id;
			return m->thread;
		}
		p = up;
	}
	m->thread = m->message_id;
	return m->thread;
}

static int cmp_time(const void *x, const void *y)
{
	const struct archive_msg *a = *(const struct archive_msg *const *)x;
	const struct archive_msg *b = *(const struct archive_msg *const *)y;

	return a->time < b->time ? -1 : a->time > b->time;
}

size_t archive_since(const struct archive_bucket *b, long long t)
{
	size_t lo = 0, hi = b->nr;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (b->items[mid]->time <= t)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

void archive_finish(struct archive *a)
{
	struct archive_bucket *b, *tmp;
	struct archive_msg *m;
	size_t i;

	lookups_free(a);
	for (i = 0; i < a->nr; i++) {
		m = a->msgs[i];
		m->thread = NULL;
		if (m->removed || archive_find(a, m->message_id))
			continue;	/* the first of an id counts */
		HASH_ADD_KEYPTR(hh, a->by_id, m->message_id, strlen(m->message_id), m);
	}
	for (i = 0; i < a->nr; i++) {
		char hex[GIT_OID_HEXSZ + 1];

		m = a->msgs[i];
		if (m->removed || archive_find(a, m->message_id) != m)
			continue;
		bucket_add(&a->by_thread, thread_of(a, m), m);
		if (m->is_reply)
			continue;
		if (*m->title)
			bucket_add(&a->by_title, m->title, m);
		if (*m->email)
			bucket_add(&a->by_email, m->email, m);
		if (m->has_patch_id) {
			git_oid_tostr(hex, sizeof(hex), &m->patch_id);
			bucket_add(&a->by_patch_id, hex, m);
		}
	}
	/* A sender's mails by date, for archive_since(). */
	HASH_ITER(hh, a->by_email, b, tmp)
		QSORT(b->items, b->nr, cmp_time);
}

/* --- reading a message again ------------------------------------------ */

int archive_read(struct archive *a, const struct archive_msg *m,
		 struct mbox *out)
{
	struct strbuf sb = STRBUF_INIT;
	int ret = a->sources[m->source].ops->reread(a, m, &sb);

	if (!ret && (mbox_read_quiet(out, sb.buf, sb.len) < 0 || !out->nr ||
		     !out->msgs[out->nr - 1].message_id ||
		     strcmp(out->msgs[out->nr - 1].message_id, m->message_id)))
		ret = error("cannot read message <%s> of '%s' again: the archive "
			    "changed", m->message_id, a->sources[m->source].path);
	strbuf_release(&sb);
	return ret;
}
