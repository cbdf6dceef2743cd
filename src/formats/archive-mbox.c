/*
 * The file backends of archive.c (see archive-ops.h): a maildir (a
 * file a message in cur/ and new/; what is new is the names not seen
 * before) and an mbox, plain or gzip (what is new is what was appended
 * to the bytes the cache saw).
 */
#include "formats/archive-ops.h"
#include "base/cachefile.h"
#include "base/error.h"
#include "base/strbuf.h"
#include "base/util.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include <zlib.h>

/* --- maildir ---------------------------------------------------------- */

/*
 * A message of a maildir is a file the mail delivery wrote: a regular
 * file, of this much at most (lore's messages stay far below it).
 * Anything else in cur/ or new/ (a symbolic link to /dev/zero or to a
 * file of the user's, a FIFO) is not a message and is not read.
 */
#define MAILDIR_MSG_MAX ((size_t)64 << 20)

/* A message into sb: 1; 0 when it is no regular file (why says what); -1. */
static int read_file(struct strbuf *sb, const char *path, struct strbuf *why)
{
	int r = strbuf_read_regular(sb, path, MAILDIR_MSG_MAX, why);

	if (r < 0)
		return error("cannot read '%s': %s", path, strerror(errno));
	return r;
}

struct seen {
	const char *where;
	UT_hash_handle hh;
};

static int read_maildir(struct archive *a, size_t src)
{
	static const char *const subdirs[] = { "cur", "new" };
	struct archive_source *s = &a->sources[src];
	struct seen *seen = NULL, *e, *tmp, *entries;
	size_t i, nr_entries = 0;
	int ret = 0;

	entries = xcalloc(a->nr ? a->nr : 1, sizeof(*entries));
	for (i = 0; i < a->nr; i++) {
		if (a->msgs[i]->source != src || a->msgs[i]->removed)
			continue;
		/* A place the cache lists twice is one file. */
		HASH_FIND_STR(seen, a->msgs[i]->where, e);
		if (e)
			continue;
		e = &entries[nr_entries++];
		e->where = a->msgs[i]->where;
		HASH_ADD_KEYPTR(hh, seen, e->where, strlen(e->where), e);
	}
	for (i = 0; !ret && i < ARRAY_SIZE(subdirs); i++) {
		char *dir = xstrfmt("%s/%s", s->path, subdirs[i]);
		struct dirent **names = NULL;
		int n, j;

		/* Sorted, so that a first reading is in the same order each time. */
		n = scandir(dir, &names, NULL, alphasort);
		if (n < 0)
			ret = error("cannot read '%s': %s", dir, strerror(errno));
		for (j = 0; j < n; j++) {
			char *where = xstrfmt("%s/%s", subdirs[i], names[j]->d_name);
			char *path = xstrfmt("%s/%s", s->path, where);
			struct strbuf sb = STRBUF_INIT;

			HASH_FIND_STR(seen, where, e);
			if (e) {
				HASH_DEL(seen, e);
			} else if (!ret && names[j]->d_name[0] != '.') {
				struct strbuf why = STRBUF_INIT;
				int r = read_file(&sb, path, &why);

				if (r > 0)
					archive_index_buffer(a, src, sb.buf, sb.len, where);
				else if (!r)
					warning("skipping '%s': %s", path, why.buf);
				ret = r < 0 ? -1 : 0;
				strbuf_release(&why);
			}
			strbuf_release(&sb);
			free(path);
			free(where);
			free(names[j]);
		}
		free(names);
		free(dir);
	}
	/* What is left was deleted (or moved: read again under its new name). */
	HASH_ITER(hh, seen, e, tmp) {
		HASH_DEL(seen, e);
		if (!ret)
			archive_remove_where(a, src, e->where);
	}
	free(entries);
	return ret;
}

/* --- mbox ------------------------------------------------------------- */

/* A large mbox is parsed this much at a time (where a message starts). */
#define MBOX_PIECE ((size_t)16 << 20)

/* The pages of a mapped file that were read are not needed again. */
static void drop_pages(const char *map, size_t start, size_t end)
{
	long page = sysconf(_SC_PAGESIZE);
	size_t from = start - start % (size_t)page;

	if (end > from)
		madvise((void *)(map + from), end - from, MADV_DONTNEED);
}

/*
 * Indexes the messages of text[start..len), start the beginning of a
 * message, a piece at a time; map: text is a mapped file.
 */
static void index_mbox(struct archive *a, size_t src, const char *text,
		       size_t len, size_t start, int map)
{
	while (start < len) {
		size_t end = len - start <= MBOX_PIECE ? len :
			     mbox_next_message(text, len, start + MBOX_PIECE);
		struct mbox mb = MBOX_INIT;
		size_t i;

		if (!mbox_read_quiet(&mb, text + start, end - start)) {
			for (i = 0; i < mb.nr; i++) {
				char *where = xstrfmt("%zu+%zu",
						      start + mb.msgs[i].offset,
						      mb.msgs[i].length);

				archive_index_message(a, src, &mb.msgs[i], where);
				free(where);
			}
		}
		mbox_release(&mb);
		if (map)
			drop_pages(text, start, end);
		start = end;
	}
}

/* Whether buf starts as gzip does (lore's t.mbox.gz, a saved .mbox.gz). */
static int is_gzip(const char *buf, size_t len)
{
	return len >= 2 && (unsigned char)buf[0] == 0x1f &&
	       (unsigned char)buf[1] == 0x8b;
}

/* Inflates the gzip data of in (every member) into out; 0 or -1. */
static int gunzip(struct strbuf *out, const struct strbuf *in, const char *path)
{
	z_stream z;
	int ret = Z_OK;

	memset(&z, 0, sizeof(z));
	if (inflateInit2(&z, 16 + MAX_WBITS) != Z_OK)
		return error("cannot read '%s': zlib: out of memory", path);
	z.next_in = (unsigned char *)in->buf;
	z.avail_in = (uInt)in->len;
	while (ret != Z_STREAM_END || z.avail_in) {
		if (ret == Z_STREAM_END) {
			/* Another gzip member follows (cat a.gz b.gz). */
			if (inflateReset(&z) != Z_OK)
				break;
		}
		strbuf_grow(out, 65536);
		z.next_out = (unsigned char *)out->buf + out->len;
		z.avail_out = 65536;
		ret = inflate(&z, Z_NO_FLUSH);
		strbuf_setlen(out, out->len + (65536 - z.avail_out));
		if (ret != Z_OK && ret != Z_STREAM_END)
			break;
		if (ret == Z_OK && !z.avail_in && z.avail_out)
			break;		/* cut short */
	}
	inflateEnd(&z);
	if (ret != Z_STREAM_END || z.avail_in)
		return error("cannot read '%s': not a whole gzip file (%s)", path,
			     z.msg ? z.msg : "cut short");
	return 0;
}

/*
 * The text of an mbox file: mapped (so that a file of gigabytes is not
 * copied into memory), or inflated when it is gzip.
 */
struct mbox_text {
	const char *buf;
	size_t len;
	void *map;			/* when mapped */
	struct strbuf sb;		/* when inflated */
};

static int mbox_text_open(struct mbox_text *t, const char *path)
{
	struct strbuf raw = STRBUF_INIT;
	struct stat st;
	int fd, ret;

	memset(t, 0, sizeof(*t));
	strbuf_init(&t->sb, 0);
	t->buf = "";
	fd = open(path, O_RDONLY);
	if (fd < 0 || fstat(fd, &st) < 0) {
		ret = error("cannot read '%s': %s", path, strerror(errno));
		if (fd >= 0)
			close(fd);
		return ret;
	}
	if (st.st_size > 0) {
		t->map = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
		if (t->map == MAP_FAILED) {
			t->map = NULL;
			ret = error("cannot read '%s': %s", path, strerror(errno));
			close(fd);
			return ret;
		}
		t->buf = t->map;
		t->len = (size_t)st.st_size;
	}
	close(fd);
	if (!is_gzip(t->buf, t->len))
		return 0;
	strbuf_add(&raw, t->buf, t->len);
	munmap(t->map, t->len);
	t->map = NULL;
	ret = gunzip(&t->sb, &raw, path);
	strbuf_release(&raw);
	t->buf = t->sb.buf ? t->sb.buf : "";
	t->len = t->sb.len;
	return ret;
}

static void mbox_text_close(struct mbox_text *t)
{
	if (t->map)
		munmap(t->map, t->len);
	strbuf_release(&t->sb);
	memset(t, 0, sizeof(*t));
}

/*
 * An mbox grows at its end: when the bytes the cache saw are unchanged
 * (their hash), only what was appended is read.  A file of the same
 * size and modification time as the cache saw is not read at all (as
 * git trusts its index's stat data).  A gzip file is read inflated, its
 * places counted in the inflated text.  The hashes of what the cache
 * saw and of the whole are made in one pass, a piece at a time.
 */
static int read_mbox(struct archive *a, size_t src)
{
	struct archive_source *s = &a->sources[src];
	const char *seen = archive_state_get(s, "mbox");
	unsigned long long old_size = 0, old_len = 0, size, sec, nsec;
	unsigned long long old_sec = 0, old_nsec = 0;
	char hex[41], old_hex[41] = "", prefix[41] = "", *state;
	struct mbox_text t;
	struct cachefile_sum h;
	struct stat st;
	size_t from = 0, at;
	int have;

	if (stat(s->path, &st) < 0)
		return error("cannot read '%s': %s", s->path, strerror(errno));
	size = (unsigned long long)st.st_size;
	sec = (unsigned long long)st.st_mtim.tv_sec;
	nsec = (unsigned long long)st.st_mtim.tv_nsec;
	have = seen && sscanf(seen, "%llu %llu.%llu %llu %16s", &old_size,
			      &old_sec, &old_nsec, &old_len, old_hex) == 5;
	if (have && old_size == size && old_sec == sec && old_nsec == nsec)
		return 0;
	/* A binary file is no mbox, as audit --mbox says of it too. */
	if (mbox_text_open(&t, s->path) < 0 ||
	    mbox_check_text(s->path, t.buf, t.len) < 0) {
		mbox_text_close(&t);
		return -1;
	}
	cachefile_sum_init(&h, CACHEFILE_HASH64);
	for (at = 0; at < t.len; at += MBOX_PIECE) {
		size_t n = t.len - at < MBOX_PIECE ? t.len - at : MBOX_PIECE;

		if (have && old_len >= at && old_len <= at + n) {
			cachefile_sum_update(&h, t.buf + at, (size_t)old_len - at);
			cachefile_sum_hex(&h, prefix);
			cachefile_sum_update(&h, t.buf + (size_t)old_len,
					     at + n - (size_t)old_len);
		} else {
			cachefile_sum_update(&h, t.buf + at, n);
		}
		if (t.map)
			drop_pages(t.buf, at, at + n);
	}
	if (have && !t.len && !old_len)
		cachefile_sum_hex(&h, prefix);
	cachefile_sum_hex(&h, hex);
	if (have && old_len <= t.len && !strcmp(prefix, old_hex))
		from = (size_t)old_len;
	if (seen && !from)
		archive_forget_source(a, src, NULL);
	if (from < t.len)
		index_mbox(a, src, t.buf, t.len, from, !!t.map);
	state = xstrfmt("%llu %llu.%09llu %zu %s", size, sec, nsec, t.len, hex);
	archive_state_set(s, "mbox", state);
	free(state);
	mbox_text_close(&t);
	return 0;
}

/* --- the table -------------------------------------------------------- */

static int detect_maildir(const char *path, const struct stat *st)
{
	return S_ISDIR(st->st_mode) && is_dir_in(path, "cur") &&
	       is_dir_in(path, "new");
}

static int reread_maildir(struct archive *a, const struct archive_msg *m,
			  struct strbuf *sb)
{
	char *path = xstrfmt("%s/%s", a->sources[m->source].path, m->where);
	struct strbuf why = STRBUF_INIT;
	int ret = read_file(sb, path, &why);

	/* It was a message when it was indexed: it changed since. */
	if (!ret)
		ret = error("cannot read message <%s> of '%s': %s", m->message_id,
			    path, why.buf);
	free(path);
	strbuf_release(&why);
	return ret < 0 ? -1 : 0;
}

static int detect_mbox(const char *path, const struct stat *st)
{
	(void)path;
	return S_ISREG(st->st_mode);
}

/* The message at "OFFSET+LENGTH" of the file, or of its inflated text. */
static int reread_mbox(struct archive *a, const struct archive_msg *m,
		       struct strbuf *sb)
{
	struct archive_source *s = &a->sources[m->source];
	unsigned long long off, len;
	char magic[2];
	struct stat st;
	int fd;
	ssize_t got;

	if (sscanf(m->where, "%llu+%llu", &off, &len) != 2)
		return error("cannot read message <%s> of '%s': bad place '%s'",
			     m->message_id, s->path, m->where);
	fd = open(s->path, O_RDONLY);
	if (fd < 0)
		return error("cannot read '%s': %s", s->path, strerror(errno));
	/* A gzip file is inflated once a run, when first read again. */
	if (!s->text && pread(fd, magic, 2, 0) == 2 && is_gzip(magic, 2)) {
		struct mbox_text t;
		int ret = mbox_text_open(&t, s->path);

		if (ret < 0) {
			mbox_text_close(&t);
			close(fd);
			return -1;
		}
		/* The inflated text is kept: moved, not copied. */
		s->text = xcalloc(1, sizeof(*s->text));
		*s->text = t.sb;
		strbuf_init(&t.sb, 0);
		mbox_text_close(&t);
	}
	if (s->text) {
		close(fd);
		if (off > s->text->len || len > s->text->len - off)
			return error("cannot read message <%s> of '%s': the "
				     "file changed", m->message_id, s->path);
		strbuf_add(sb, s->text->buf + off, (size_t)len);
		return 0;
	}
	if (fstat(fd, &st) < 0 || off > (unsigned long long)st.st_size ||
	    len > (unsigned long long)st.st_size - off) {
		close(fd);
		return error("cannot read message <%s> of '%s': the file "
			     "changed", m->message_id, s->path);
	}
	strbuf_grow(sb, (size_t)len);
	got = pread(fd, sb->buf + sb->len, (size_t)len, (off_t)off);
	close(fd);
	if (got != (ssize_t)len)
		return error("cannot read message <%s> of '%s': the file "
			     "changed", m->message_id, s->path);
	strbuf_setlen(sb, sb->len + (size_t)len);
	return 0;
}

const struct archive_ops archive_maildir_ops = {
	"maildir", ARCHIVE_MAILDIR, detect_maildir, read_maildir, reread_maildir,
};

const struct archive_ops archive_mbox_ops = {
	"mbox", ARCHIVE_MBOX, detect_mbox, read_mbox, reread_mbox,
};
