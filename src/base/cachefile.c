/*
 * The cache files' header, checksum, atomic write and "ignoring"
 * warning (see cachefile.h).
 */
#include "base/cachefile.h"
#include "base/error.h"
#include "base/util.h"

#include <arpa/inet.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

#define CHECKSUM "checksum "
#define MAGIC_LEN 16

static void hash_word(struct cachefile_sum *s, const unsigned char *p, size_t n)
{
	uint64_t k = 0;
	size_t i;

	for (i = 0; i < n; i++)
		k |= (uint64_t)p[i] << (8 * i);
	k *= 0xff51afd7ed558ccdULL;
	k ^= k >> 33;
	s->h = (s->h ^ k) * 0xc4ceb9fe1a85ec53ULL;
	s->h ^= s->h >> 29;
}

void cachefile_sum_init(struct cachefile_sum *s, enum cachefile_sum_kind kind)
{
	memset(s, 0, sizeof(*s));
	s->kind = kind;
	s->h = 0x9e3779b97f4a7c15ULL;
	sha1_init(&s->sha1);
}

static int is_hash64(enum cachefile_sum_kind kind)
{
	return kind == CACHEFILE_HASH64 || kind == CACHEFILE_HASH64_RAW;
}

void cachefile_sum_update(struct cachefile_sum *s, const void *buf, size_t len)
{
	const unsigned char *p = buf;

	if (!is_hash64(s->kind)) {
		sha1_update(&s->sha1, buf, len);
		return;
	}
	s->len += len;
	while (len) {
		size_t n = 8 - s->ntail < len ? 8 - s->ntail : len;

		if (!s->ntail && len >= 8) {
			hash_word(s, p, 8);
			p += 8;
			len -= 8;
			continue;
		}
		memcpy(s->tail + s->ntail, p, n);
		s->ntail += n;
		p += n;
		len -= n;
		if (s->ntail == 8) {
			hash_word(s, s->tail, 8);
			s->ntail = 0;
		}
	}
}

/* The 64-bit hash of what was fed so far, s left as it was. */
static uint64_t hash64_of(const struct cachefile_sum *s)
{
	struct cachefile_sum y = *s;

	hash_word(&y, y.tail, y.ntail);
	y.h ^= y.len;
	y.h ^= y.h >> 33;
	y.h *= 0xff51afd7ed558ccdULL;
	y.h ^= y.h >> 33;
	return y.h;
}

void cachefile_sum_raw(const struct cachefile_sum *s, unsigned char *raw)
{
	uint64_t h = hash64_of(s);
	size_t i;

	for (i = 0; i < CACHEFILE_RAWSZ; i++)
		raw[i] = (unsigned char)(h >> (8 * i));
}

void cachefile_sum_hex(const struct cachefile_sum *s, char *hex)
{
	unsigned char raw[SHA1_RAWSZ];
	struct sha1 ctx = s->sha1;
	size_t i;

	if (s->kind == CACHEFILE_HASH64) {
		snprintf(hex, 17, "%016llx", (unsigned long long)hash64_of(s));
		return;
	}
	sha1_final(raw, &ctx);
	for (i = 0; i < SHA1_RAWSZ; i++)
		snprintf(hex + 2 * i, 3, "%02x", raw[i]);
}

/* The digits of a checksum line of the kind. */
static size_t hex_len(enum cachefile_sum_kind kind)
{
	return kind == CACHEFILE_HASH64 ? 16 : 2 * SHA1_RAWSZ;
}

void cachefile_add_header(struct strbuf *sb, const char *magic, int version)
{
	strbuf_addf(sb, "%s %d\n", magic, version);
}

int cachefile_check_header(const char *line, size_t len, const char *magic,
			   int version)
{
	size_t stem = strlen(magic);
	char *want = xstrfmt("%s %d", magic, version);
	int ret;

	if (len == strlen(want) && !memcmp(line, want, len))
		ret = CACHEFILE_OK;
	else if (len > stem + 1 && !memcmp(line, magic, stem) && line[stem] == ' ')
		ret = CACHEFILE_OTHER_VERSION;
	else
		ret = CACHEFILE_FOREIGN;
	free(want);
	return ret;
}

void cachefile_add_binary_header(struct strbuf *sb, const char *magic,
				 uint32_t version)
{
	uint32_t v = htonl(version);

	strbuf_add(sb, magic, MAGIC_LEN);
	strbuf_add(sb, &v, 4);
}

int cachefile_check_binary_header(const char *buf, size_t len,
				  const char *magic, uint32_t version)
{
	uint32_t v;

	if (len < MAGIC_LEN + 4 || memcmp(buf, magic, MAGIC_LEN))
		return CACHEFILE_FOREIGN;
	memcpy(&v, buf + MAGIC_LEN, 4);
	return ntohl(v) == version ? CACHEFILE_OK : CACHEFILE_OTHER_VERSION;
}

void cachefile_add_sum(struct strbuf *sb, const struct cachefile_sum *s)
{
	char hex[2 * SHA1_RAWSZ + 1];

	cachefile_sum_hex(s, hex);
	strbuf_addf(sb, CHECKSUM "%s\n", hex);
}

void cachefile_seal(struct strbuf *sb, enum cachefile_sum_kind kind,
		    unsigned char *digest)
{
	struct cachefile_sum s;

	cachefile_sum_init(&s, kind);
	cachefile_sum_update(&s, sb->buf, sb->len);
	if (kind == CACHEFILE_HASH64_RAW) {
		unsigned char raw[CACHEFILE_RAWSZ];

		cachefile_sum_raw(&s, raw);
		if (digest)
			memcpy(digest, raw, CACHEFILE_RAWSZ);
		strbuf_add(sb, raw, CACHEFILE_RAWSZ);
		return;
	}
	cachefile_add_sum(sb, &s);
}

static int verify_raw(const char *buf, size_t len, size_t *body,
		      struct cachefile_sum *s)
{
	unsigned char raw[CACHEFILE_RAWSZ];

	if (len < CACHEFILE_RAWSZ)
		return CACHEFILE_CUT;
	*body = len - CACHEFILE_RAWSZ;
	cachefile_sum_update(s, buf, *body);
	cachefile_sum_raw(s, raw);
	return memcmp(raw, buf + *body, CACHEFILE_RAWSZ) ? CACHEFILE_MISMATCH :
						      CACHEFILE_OK;
}

int cachefile_verify(const char *buf, size_t len, enum cachefile_sum_kind kind,
		     size_t *body, struct cachefile_sum *state)
{
	struct cachefile_sum s;
	const char *last;
	char hex[2 * SHA1_RAWSZ + 1];
	size_t digits = hex_len(kind);
	int ret;

	cachefile_sum_init(&s, kind);
	if (kind == CACHEFILE_HASH64_RAW) {
		ret = verify_raw(buf, len, body, &s);
	} else {
		/* The last line, not the first, "checksum ..." with its newline. */
		for (last = len > 1 ? buf + len - 2 : NULL;
		     last && last > buf && *last != '\n'; last--)
			;
		if (!last || last == buf || buf[len - 1] != '\n' ||
		    !starts_with(last + 1, CHECKSUM))
			return CACHEFILE_CUT;
		last++;
		*body = (size_t)(last - buf);
		cachefile_sum_update(&s, buf, *body);
		cachefile_sum_hex(&s, hex);
		last += strlen(CHECKSUM);
		ret = strncmp(last, hex, digits) || last[digits] != '\n' ?
		      CACHEFILE_MISMATCH : CACHEFILE_OK;
	}
	if (state)
		*state = s;
	return ret;
}

int cachefile_write(const char *path, const struct strbuf *sb, const char *what)
{
	return write_file_atomic_warn(path, sb->buf, sb->len, what);
}

int cachefile_write_parts(const char *path, const struct file_part *parts,
			  size_t nr, enum cachefile_sum_kind kind,
			  const char *what)
{
	struct file_part all[CACHEFILE_MAX_PARTS + 1];
	struct strbuf seal = STRBUF_INIT;
	struct cachefile_sum s;
	unsigned char raw[CACHEFILE_RAWSZ];
	size_t i;
	int ret;

	if (nr > CACHEFILE_MAX_PARTS)
		BUG("%zu parts of a cache file", nr);
	cachefile_sum_init(&s, kind);
	for (i = 0; i < nr; i++) {
		cachefile_sum_update(&s, parts[i].buf, parts[i].len);
		all[i] = parts[i];
	}
	if (kind == CACHEFILE_HASH64_RAW) {
		cachefile_sum_raw(&s, raw);
		strbuf_add(&seal, raw, CACHEFILE_RAWSZ);
	} else {
		cachefile_add_sum(&seal, &s);
	}
	all[nr].buf = seal.buf;
	all[nr].len = seal.len;
	ret = write_parts_atomic_warn(path, all, nr + 1, what);
	strbuf_release(&seal);
	return ret;
}

void cachefile_ignore(const char *what, const char *path, const char *why)
{
	warning_aside("ignoring %s '%s': %s; it will be rebuilt", what, path, why);
}

const char *cachefile_why(int status, const char *foreign)
{
	switch (status) {
	case CACHEFILE_FOREIGN:
		return foreign;
	case CACHEFILE_OTHER_VERSION:
		return "written by another version of stablepick";
	default:
		return "checksum mismatch (corrupt)";
	}
}

void cachefile_put_u32(struct strbuf *sb, uint32_t v)
{
	v = htonl(v);
	strbuf_add(sb, &v, 4);
}

void cachefile_put_str(struct strbuf *sb, const char *s)
{
	size_t len = strlen(s);

	cachefile_put_u32(sb, (uint32_t)len);
	strbuf_add(sb, s, len);
}

void cachefile_put_strings(struct strbuf *sb, char *const *v, size_t nr)
{
	size_t i;

	cachefile_put_u32(sb, (uint32_t)nr);
	for (i = 0; i < nr; i++)
		cachefile_put_str(sb, v[i]);
}

const unsigned char *cachefile_take(struct cachefile_reader *r, size_t n)
{
	const unsigned char *p = r->p;

	if (r->bad || (size_t)(r->end - r->p) < n) {
		r->bad = 1;
		return NULL;
	}
	r->p += n;
	return p;
}

uint32_t cachefile_get_u32(struct cachefile_reader *r)
{
	const unsigned char *p = cachefile_take(r, 4);
	uint32_t v;

	if (!p)
		return 0;
	memcpy(&v, p, 4);
	return ntohl(v);
}

size_t cachefile_get_count(struct cachefile_reader *r, size_t min)
{
	uint32_t n = cachefile_get_u32(r);

	if (!r->bad && (size_t)(r->end - r->p) / min < n)
		r->bad = 1;
	return r->bad ? 0 : n;
}

char *cachefile_get_str(struct cachefile_reader *r)
{
	size_t len = cachefile_get_u32(r);
	const unsigned char *p = cachefile_take(r, len);

	if (p && memchr(p, '\0', len))
		r->bad = 1;
	return p ? xstrndup((const char *)p, len) : xstrdup("");
}

char **cachefile_get_strings(struct cachefile_reader *r, size_t *nr)
{
	size_t i, n = cachefile_get_count(r, 4);
	char **v = xcalloc(n ? n : 1, sizeof(*v));

	for (i = 0; i < n; i++)
		v[i] = cachefile_get_str(r);
	*nr = n;
	return v;
}
