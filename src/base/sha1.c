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

/* The 64-byte blocks at p into the state h, in plain C. */
static void block_portable(uint32_t h[5], const unsigned char *p, size_t n)
{
	uint32_t w[80], a, b, c, d, e, t;
	int i;

	for (; n--; p += 64) {
		for (i = 0; i < 16; i++)
			w[i] = (uint32_t)p[4 * i] << 24 |
			       (uint32_t)p[4 * i + 1] << 16 |
			       (uint32_t)p[4 * i + 2] << 8 | (uint32_t)p[4 * i + 3];
		for (; i < 80; i++)
			w[i] = ROL(w[i - 3] ^ w[i - 8] ^ w[i - 14] ^ w[i - 16], 1);

		a = h[0];
		b = h[1];
		c = h[2];
		d = h[3];
		e = h[4];
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
		h[0] += a;
		h[1] += b;
		h[2] += c;
		h[3] += d;
		h[4] += e;
	}
}

#if defined(__x86_64__) && defined(__GNUC__)
#include <cpuid.h>
#include <immintrin.h>

#define SHA1_NI 1

/*
 * The same with the CPU's SHA extensions: each sha1rnds4 does four
 * rounds (function f), sha1nexte derives the next four rounds' e from
 * a four rounds before, and sha1msg1, a xor and sha1msg2 expand the
 * message schedule four words at a time.  Group g (rounds 4g..4g+3)
 * uses m[g % 4] and prepares the next three.  A is in the highest
 * lane, as are W[4g] and e.
 */
#define NI_GROUP(f, m, m1, m2, m3, ecur, eother)		\
	do {							\
		ecur = _mm_sha1nexte_epu32(ecur, m);		\
		eother = abcd;					\
		m1 = _mm_sha1msg2_epu32(m1, m);			\
		abcd = _mm_sha1rnds4_epu32(abcd, ecur, f);	\
		m3 = _mm_sha1msg1_epu32(m3, m);			\
		m2 = _mm_xor_si128(m2, m);			\
	} while (0)

__attribute__((target("sha,ssse3,sse4.1")))
static void block_ni(uint32_t h[5], const unsigned char *p, size_t n)
{
	const __m128i swap = _mm_set_epi64x(0x0001020304050607LL,
					    0x08090a0b0c0d0e0fLL);
	__m128i abcd, e0, e1, m0, m1, m2, m3, abcd_was, e0_was;

	abcd = _mm_shuffle_epi32(_mm_loadu_si128((const __m128i *)h), 0x1b);
	e0 = _mm_set_epi32((int)h[4], 0, 0, 0);
	for (; n--; p += 64) {
		abcd_was = abcd;
		e0_was = e0;

		/* Rounds 0-15: the message words as they come. */
		m0 = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)p), swap);
		e0 = _mm_add_epi32(e0, m0);
		e1 = abcd;
		abcd = _mm_sha1rnds4_epu32(abcd, e0, 0);

		m1 = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(p + 16)), swap);
		e1 = _mm_sha1nexte_epu32(e1, m1);
		e0 = abcd;
		abcd = _mm_sha1rnds4_epu32(abcd, e1, 0);
		m0 = _mm_sha1msg1_epu32(m0, m1);

		m2 = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(p + 32)), swap);
		e0 = _mm_sha1nexte_epu32(e0, m2);
		e1 = abcd;
		abcd = _mm_sha1rnds4_epu32(abcd, e0, 0);
		m1 = _mm_sha1msg1_epu32(m1, m2);
		m0 = _mm_xor_si128(m0, m2);

		m3 = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(p + 48)), swap);
		NI_GROUP(0, m3, m0, m1, m2, e1, e0);

		/* Rounds 16-79: the expanded schedule. */
		NI_GROUP(0, m0, m1, m2, m3, e0, e1);
		NI_GROUP(1, m1, m2, m3, m0, e1, e0);
		NI_GROUP(1, m2, m3, m0, m1, e0, e1);
		NI_GROUP(1, m3, m0, m1, m2, e1, e0);
		NI_GROUP(1, m0, m1, m2, m3, e0, e1);
		NI_GROUP(1, m1, m2, m3, m0, e1, e0);
		NI_GROUP(2, m2, m3, m0, m1, e0, e1);
		NI_GROUP(2, m3, m0, m1, m2, e1, e0);
		NI_GROUP(2, m0, m1, m2, m3, e0, e1);
		NI_GROUP(2, m1, m2, m3, m0, e1, e0);
		NI_GROUP(2, m2, m3, m0, m1, e0, e1);
		NI_GROUP(3, m3, m0, m1, m2, e1, e0);
		NI_GROUP(3, m0, m1, m2, m3, e0, e1);
		NI_GROUP(3, m1, m2, m3, m0, e1, e0);
		NI_GROUP(3, m2, m3, m0, m1, e0, e1);
		NI_GROUP(3, m3, m0, m1, m2, e1, e0);

		e0 = _mm_sha1nexte_epu32(e0, e0_was);
		abcd = _mm_add_epi32(abcd, abcd_was);
	}
	_mm_storeu_si128((__m128i *)h, _mm_shuffle_epi32(abcd, 0x1b));
	h[4] = (uint32_t)_mm_extract_epi32(e0, 3);
}

static int cpu_has_sha(void)
{
	unsigned int a, b, c, d;

	if (!__get_cpuid(1, &a, &b, &c, &d) || !(c & bit_SSSE3) ||
	    !(c & bit_SSE4_1))
		return 0;
	return __get_cpuid_count(7, 0, &a, &b, &c, &d) && (b & bit_SHA);
}
#endif

typedef void block_fn(uint32_t h[5], const unsigned char *p, size_t n);

/* The block function, chosen once (threads hash patch-ids). */
static block_fn *chosen;

static block_fn *block_function(void)
{
	block_fn *fn = __atomic_load_n(&chosen, __ATOMIC_RELAXED);

	if (!fn) {
		fn = block_portable;
#ifdef SHA1_NI
		if (cpu_has_sha())
			fn = block_ni;
#endif
		__atomic_store_n(&chosen, fn, __ATOMIC_RELAXED);
	}
	return fn;
}

int sha1_accelerated(void)
{
	return block_function() != block_portable;
}

void sha1_use_portable(int on)
{
	__atomic_store_n(&chosen, on ? block_portable : NULL, __ATOMIC_RELAXED);
}

static void sha1_block(struct sha1 *ctx, const unsigned char *p, size_t n)
{
	block_function()(ctx->h, p, n);
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
		sha1_block(ctx, ctx->block, 1);
	}
	if (len >= 64) {
		sha1_block(ctx, p, len / 64);
		p += len / 64 * 64;
		len %= 64;
	}
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
