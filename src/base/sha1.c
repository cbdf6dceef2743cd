#include "base/sha1.h"

#include <string.h>

#define ROL(x, n) (((x) << (n)) | ((x) >> (32 - (n))))

void sha1_init(struct sha1 *ctx)
{
	ctx->h[0] = 0x67452301;
	ctx->h[1] = 0xefcdab89;
	ctx->h[2] = 0x98badcfe;
	ctx->h[3] = 0x10325476;
	ctx->h[4] = 0xc3d2e1f0;
	ctx->len = 0;
}

static void sha1_block(struct sha1 *ctx, const unsigned char *p)
{
	uint32_t w[80], a, b, c, d, e, t;
	int i;

	for (i = 0; i < 16; i++)
		w[i] = (uint32_t)p[4 * i] << 24 | (uint32_t)p[4 * i + 1] << 16 |
		       (uint32_t)p[4 * i + 2] << 8 | (uint32_t)p[4 * i + 3];
	for (; i < 80; i++)
		w[i] = ROL(w[i - 3] ^ w[i - 8] ^ w[i - 14] ^ w[i - 16], 1);

	a = ctx->h[0];
	b = ctx->h[1];
	c = ctx->h[2];
	d = ctx->h[3];
	e = ctx->h[4];
	for (i = 0; i < 80; i++) {
		uint32_t f, k;

		if (i < 20) {
			f = (b & c) | (~b & d);
			k = 0x5a827999;
		} else if (i < 40) {
			f = b ^ c ^ d;
			k = 0x6ed9eba1;
		} else if (i < 60) {
			f = (b & c) | (b & d) | (c & d);
			k = 0x8f1bbcdc;
		} else {
			f = b ^ c ^ d;
			k = 0xca62c1d6;
		}
		t = ROL(a, 5) + f + e + k + w[i];
		e = d;
		d = c;
		c = ROL(b, 30);
		b = a;
		a = t;
	}
	ctx->h[0] += a;
	ctx->h[1] += b;
	ctx->h[2] += c;
	ctx->h[3] += d;
	ctx->h[4] += e;
}

void sha1_update(struct sha1 *ctx, const void *data, size_t len)
{
	const unsigned char *p = data;
	size_t used = ctx->len % 64;

	ctx->len += len;
	if (used) {
		size_t take = 64 - used < len ? 64 - used : len;

		memcpy(ctx->block + used, p, take);
		p += take;
		len -= take;
		if (used + take < 64)
			return;
		sha1_block(ctx, ctx->block);
	}
	for (; len >= 64; p += 64, len -= 64)
		sha1_block(ctx, p);
	if (len)
		memcpy(ctx->block, p, len);
}

void sha1_final(unsigned char *digest, struct sha1 *ctx)
{
	static const unsigned char pad[64] = { 0x80 };
	unsigned char bits[8];
	uint64_t nbits = ctx->len * 8;
	size_t used = ctx->len % 64;
	int i;

	for (i = 0; i < 8; i++)
		bits[i] = (unsigned char)(nbits >> (56 - 8 * i));
	/* Pad to 56 bytes modulo 64, then append the length in bits. */
	sha1_update(ctx, pad, used < 56 ? 56 - used : 120 - used);
	sha1_update(ctx, bits, 8);
	for (i = 0; i < 5; i++) {
		digest[4 * i] = (unsigned char)(ctx->h[i] >> 24);
		digest[4 * i + 1] = (unsigned char)(ctx->h[i] >> 16);
		digest[4 * i + 2] = (unsigned char)(ctx->h[i] >> 8);
		digest[4 * i + 3] = (unsigned char)ctx->h[i];
	}
	sha1_init(ctx);
}
