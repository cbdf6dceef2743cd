/*
 * Unit tests for the caches' checksums (cachefile.h): every kind is
 * verified right, and one byte changed anywhere, a byte cut or added,
 * is told apart from a good file; a file written in parts is sealed
 * as the same file written whole.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

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

/*
 * A file written from parts is the bytes cachefile_seal() gives of the
 * parts joined, wherever they are cut (empty parts, cuts inside the
 * hash's 8-byte words).
 */
static void test_parts(void **state)
{
	static const enum cachefile_sum_kind kinds[] = {
		CACHEFILE_SHA1, CACHEFILE_HASH64, CACHEFILE_HASH64_RAW,
	};
	char dir[] = "/tmp/test_cachefile.XXXXXX", path[64], got[256];
	struct strbuf sb = STRBUF_INIT;
	struct file_part parts[4];
	size_t k, a, b, len, body;
	FILE *fp;

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/cache", dir);
	for (k = 0; k < 3; k++) {
		sealed(&sb, kinds[k]);
		assert_int_equal(cachefile_verify(sb.buf, sb.len, kinds[k],
						  &body, NULL), CACHEFILE_OK);
		for (a = 0; a <= body; a++)
			for (b = a; b <= body; b++) {
				parts[0].buf = sb.buf;
				parts[0].len = a;
				parts[1].buf = sb.buf + a;
				parts[1].len = 0;
				parts[2].buf = sb.buf + a;
				parts[2].len = b - a;
				parts[3].buf = sb.buf + b;
				parts[3].len = body - b;
				assert_int_equal(cachefile_write_parts(path,
						 parts, 4, kinds[k], "test"), 0);
				fp = fopen(path, "rb");
				assert_non_null(fp);
				len = fread(got, 1, sizeof(got), fp);
				fclose(fp);
				assert_int_equal(len, sb.len);
				assert_memory_equal(got, sb.buf, sb.len);
			}
	}
	assert_int_equal(unlink(path), 0);
	assert_int_equal(rmdir(dir), 0);
	strbuf_release(&sb);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_every_byte),
		cmocka_unit_test(test_kinds_apart),
		cmocka_unit_test(test_parts),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
