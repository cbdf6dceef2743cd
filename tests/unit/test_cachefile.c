/*
 * Unit tests for the caches' checksums (cachefile.h): every kind is
 * verified right, and one byte changed anywhere, a byte cut or added,
 * is told apart from a good file.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <string.h>

#include "base/cachefile.h"
#include "base/strbuf.h"

static void sealed(struct strbuf *sb, enum cachefile_sum_kind kind)
{
	strbuf_reset(sb);
	if (kind == CACHEFILE_HASH64_RAW) {
		cachefile_add_binary_header(sb, "stablepick test", 3);
		strbuf_add(sb, "\0\1\2records\xff", 11);
	} else {
		cachefile_add_header(sb, "stablepick test cache", 3);
		strbuf_addstr(sb, "a 1\nb 2\n");
	}
	cachefile_seal(sb, kind, NULL);
}

static void test_every_byte(void **state)
{
	static const enum cachefile_sum_kind kinds[] = {
		CACHEFILE_SHA1, CACHEFILE_HASH64, CACHEFILE_HASH64_RAW,
	};
	struct strbuf sb = STRBUF_INIT;
	size_t k, i, body;

	(void)state;
	for (k = 0; k < 3; k++) {
		sealed(&sb, kinds[k]);
		assert_int_equal(cachefile_verify(sb.buf, sb.len, kinds[k],
						  &body, NULL), CACHEFILE_OK);
		assert_true(body < sb.len);
		/* Each byte, each of its bits flipped: never OK. */
		for (i = 0; i < sb.len; i++) {
			int bit;

			for (bit = 0; bit < 8; bit++) {
				sb.buf[i] ^= (char)(1 << bit);
				assert_int_not_equal(cachefile_verify(sb.buf, sb.len,
						     kinds[k], &body, NULL),
						     CACHEFILE_OK);
				sb.buf[i] ^= (char)(1 << bit);
			}
		}
		/* Cut short by one byte, and one byte added: never OK. */
		for (i = 0; i < sb.len; i++)
			assert_int_not_equal(cachefile_verify(sb.buf, i, kinds[k],
							      &body, NULL),
					     CACHEFILE_OK);
		strbuf_addch(&sb, kinds[k] == CACHEFILE_HASH64_RAW ? '\0' : '\n');
		assert_int_not_equal(cachefile_verify(sb.buf, sb.len, kinds[k],
						      &body, NULL), CACHEFILE_OK);
	}
	strbuf_release(&sb);
}

/* A text cache whose checksum is of another kind is not trusted. */
static void test_kinds_apart(void **state)
{
	struct strbuf sb = STRBUF_INIT;
	size_t body;

	(void)state;
	sealed(&sb, CACHEFILE_SHA1);
	assert_int_not_equal(cachefile_verify(sb.buf, sb.len, CACHEFILE_HASH64,
					      &body, NULL), CACHEFILE_OK);
	sealed(&sb, CACHEFILE_HASH64);
	assert_int_not_equal(cachefile_verify(sb.buf, sb.len, CACHEFILE_SHA1,
					      &body, NULL), CACHEFILE_OK);
	/* No checksum line at all: cut. */
	strbuf_reset(&sb);
	strbuf_addstr(&sb, "stablepick test cache 3\na 1\n");
	assert_int_equal(cachefile_verify(sb.buf, sb.len, CACHEFILE_SHA1,
					  &body, NULL), CACHEFILE_CUT);
	strbuf_release(&sb);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_every_byte),
		cmocka_unit_test(test_kinds_apart),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
