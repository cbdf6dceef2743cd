#ifndef CACHEFILE_H
#define CACHEFILE_H

#include <stddef.h>
#include <stdint.h>

#include "base/sha1.h"
#include "base/strbuf.h"
#include "base/util.h"

/*
 * What the cache files have in common (the patch-id cache, the archive
 * indexes, the scan cache): a header naming the file and its version,
 * a checksum at the end, an atomic write, and one warning for a file
 * that does not check out.  A cache only saves time: a file that is
 * foreign, of another version, cut short or damaged is ignored with a
 * warning and rebuilt; it never fails a run.
 *
 * A text cache begins with "<magic> <version>\n" and ends with a line
 * "checksum <hex>\n", the checksum of every byte before that line
 * (SHA-1, or a cheaper 64-bit hash); a binary one begins with a magic
 * of 16 bytes and a 32-bit version in network byte order and ends with
 * the 64-bit hash of every byte before them, in 8 bytes, least
 * significant first.  (SHA-1 there cost a warm run on a history of a
 * million commits 0.2 s, for its 14 MB scan cache read and written.)
 *
 *     writing:
 *         cachefile_add_header(&sb, "stablepick foo cache", 2);
 *         ... the records ...
 *         cachefile_seal(&sb, CACHEFILE_SHA1, NULL);
 *         return cachefile_write(path, &sb, "foo cache");
 *
 *     reading:
 *         if (cachefile_verify(sb.buf, sb.len, CACHEFILE_SHA1, &len,
 *                              NULL) != CACHEFILE_OK)
 *                 ... cachefile_ignore(path, "foo cache", why) ...
 *         ... check the header, parse the len bytes ...
 *
 * The writing goes through write_file_atomic() (util.h): a temporary
 * file of its own, synced and renamed over the cache.  A cache needs no
 * lock (lockfile.h): two runs that write it at once leave one whole
 * file, and a run must not wait for, or fail on, another's cache.
 */

/* The checksum a cache file ends with. */
enum cachefile_sum_kind {
	CACHEFILE_SHA1,		/* a line "checksum <40 hex digits>" */
	CACHEFILE_HASH64,	/* a line "checksum <16 hex digits>" */
	CACHEFILE_HASH64_RAW,	/* 8 bytes (CACHEFILE_RAWSZ), binary files */
};

#define CACHEFILE_RAWSZ 8

/* What cachefile_verify() and the header checks find. */
enum cachefile_status {
	CACHEFILE_OK = 0,
	CACHEFILE_FOREIGN,	/* not a cache of this kind */
	CACHEFILE_OTHER_VERSION, /* of this kind, another version */
	CACHEFILE_CUT,		/* no checksum at the end */
	CACHEFILE_MISMATCH,	/* a checksum that does not match */
};

/*
 * A checksum fed in pieces.  The 64-bit hash tells a damaged file (or
 * a changed mbox) from an intact one as SHA-1 would, at a tenth of the
 * cost; nobody gains by forging a cache.  Its bytes are read as
 * little-endian words, so that the value is the same on every machine.
 */
struct cachefile_sum {
	enum cachefile_sum_kind kind;
	struct sha1 sha1;
	uint64_t h, len;
	unsigned char tail[8];
	size_t ntail;
};

void cachefile_sum_init(struct cachefile_sum *s, enum cachefile_sum_kind kind);
void cachefile_sum_update(struct cachefile_sum *s, const void *buf, size_t len);

/*
 * The checksum so far, s left as it was: in hex (hex holds 41 bytes;
 * 16 digits for CACHEFILE_HASH64, 40 for SHA-1); or, of the 64-bit
 * hash, its CACHEFILE_RAWSZ bytes as a binary cache ends with.
 */
void cachefile_sum_hex(const struct cachefile_sum *s, char *hex);
void cachefile_sum_raw(const struct cachefile_sum *s, unsigned char *raw);

/* Appends a text cache's first line, "<magic> <version>\n". */
void cachefile_add_header(struct strbuf *sb, const char *magic, int version);

/*
 * Whether the first line (line, len bytes, without its newline) is
 * "<magic> <version>": CACHEFILE_OK; CACHEFILE_OTHER_VERSION when it
 * begins with "<magic> " and something follows; else CACHEFILE_FOREIGN.
 */
int cachefile_check_header(const char *line, size_t len, const char *magic,
			   int version);

/* The same for a binary cache: 16 bytes of magic, a u32 version. */
void cachefile_add_binary_header(struct strbuf *sb, const char *magic,
				 uint32_t version);
int cachefile_check_binary_header(const char *buf, size_t len,
				  const char *magic, uint32_t version);

/* Appends a text cache's last line, "checksum <hex of s>\n". */
void cachefile_add_sum(struct strbuf *sb, const struct cachefile_sum *s);

/*
 * Appends the checksum of all of sb (of the kind) and, if digest is not
 * NULL, gives its CACHEFILE_RAWSZ bytes in it (CACHEFILE_HASH64_RAW
 * only).
 */
void cachefile_seal(struct strbuf *sb, enum cachefile_sum_kind kind,
		    unsigned char *digest);

/*
 * Checks the checksum at the end of buf: CACHEFILE_OK, with *body the
 * length before it (and, if state is not NULL, the checksum of those
 * bytes in it, to go on from); CACHEFILE_CUT when buf does not end
 * with a checksum (a text cache: its last line is not "checksum ...",
 * is its first line or lacks its newline; a binary one: shorter than a
 * checksum); CACHEFILE_MISMATCH when the checksum is wrong.
 */
int cachefile_verify(const char *buf, size_t len, enum cachefile_sum_kind kind,
		     size_t *body, struct cachefile_sum *state);

/*
 * Replaces the cache at path with buf, atomically (write_file_atomic());
 * what names the file in messages.  Returns 0, or -1 after a warning
 * (a cache only saves time: the run goes on, and exits 0) with the old
 * file left as it was.
 */
int cachefile_write(const char *path, const struct strbuf *sb, const char *what);

/*
 * cachefile_seal() and cachefile_write() of a file made of parts (nr of
 * them, at most CACHEFILE_MAX_PARTS), never joined in memory: a large
 * one (the memo's answer) is written from where it is.
 */
#define CACHEFILE_MAX_PARTS 8
int cachefile_write_parts(const char *path, const struct file_part *parts,
			  size_t nr, enum cachefile_sum_kind kind,
			  const char *what);

/*
 * The warning for a cache file that is not trusted:
 * "ignoring <what> '<path>': <why>; it will be rebuilt".
 */
void cachefile_ignore(const char *what, const char *path, const char *why);

/* The why of a status, for cachefile_ignore(): "checksum mismatch (corrupt)", ... */
const char *cachefile_why(int status, const char *foreign);

/*
 * The binary caches' records: 32-bit counts and lengths in network
 * order, strings as length and bytes.  A reader is bounded: once a
 * read would pass the end (or a string holds a NUL), r->bad is set and
 * every later read yields nothing.
 */
void cachefile_put_u32(struct strbuf *sb, uint32_t v);
void cachefile_put_str(struct strbuf *sb, const char *s);
void cachefile_put_strings(struct strbuf *sb, char *const *v, size_t nr);

struct cachefile_reader {
	const unsigned char *p, *end;
	int bad;
};

const unsigned char *cachefile_take(struct cachefile_reader *r, size_t n);
uint32_t cachefile_get_u32(struct cachefile_reader *r);
/* A count of records of at least min bytes each that fits the rest. */
size_t cachefile_get_count(struct cachefile_reader *r, size_t min);
char *cachefile_get_str(struct cachefile_reader *r);
char **cachefile_get_strings(struct cachefile_reader *r, size_t *nr);

#endif
