#ifndef SHA1_H
#define SHA1_H

#include <stddef.h>
#include <stdint.h>

/*
 * SHA-1 (FIPS 180-4), for patch-ids: libgit2 has no public hashing API
 * for arbitrary data.  Not for security.
 *
 *     struct sha1 ctx;
 *     unsigned char digest[SHA1_RAWSZ];
 *     sha1_init(&ctx);
 *     sha1_update(&ctx, buf, len);
 *     sha1_final(digest, &ctx);
 *
 * sha1_final() leaves ctx initialised again, ready for the next message.
 */

#define SHA1_RAWSZ 20

struct sha1 {
	uint32_t h[5];
	uint64_t len;			/* bytes hashed so far */
	unsigned char block[64];	/* partial block, len % 64 bytes used */
};

void sha1_init(struct sha1 *ctx);
void sha1_update(struct sha1 *ctx, const void *data, size_t len);
void sha1_final(unsigned char *digest, struct sha1 *ctx);

/*
 * Whether the blocks go through the CPU's SHA extensions (x86-64 with
 * SHA-NI), else plain C.  sha1_use_portable(1) makes every later hash
 * take the plain C, (0) the CPU's choice again: for tests, which
 * compare the two.
 */
int sha1_accelerated(void);
void sha1_use_portable(int on);

#endif
