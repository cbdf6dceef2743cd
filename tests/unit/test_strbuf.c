/*
 * Unit tests for the byte buffer, the JSON string writer and the
 * scores of a "did you mean".
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/error.h"
#include "base/json.h"
#include "base/strbuf.h"
#include "base/util.h"

static void test_empty_is_printable(void **state)
{
	struct strbuf sb = STRBUF_INIT;

	(void)state;
	assert_string_equal(sb.buf, "");
	assert_int_equal(sb.len, 0);
	strbuf_release(&sb);
	assert_string_equal(sb.buf, "");
}

static void test_add_and_grow(void **state)
{
	struct strbuf sb = STRBUF_INIT;
	size_t i;

	(void)state;
	for (i = 0; i < 1000; i++)
		strbuf_addch(&sb, 'a' + (char)(i % 26));
	assert_int_equal(sb.len, 1000);
	assert_int_equal(sb.buf[1000], '\0');
	assert_int_equal(sb.buf[27], 'b');
	strbuf_addf(&sb, "%s:%u", "file", 12u);
	assert_string_equal(sb.buf + 1000, "file:12");
	strbuf_release(&sb);
}

static void test_addf_long(void **state)
{
	struct strbuf sb = STRBUF_INIT;
	char big[5000];

	(void)state;
	memset(big, 'x', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	strbuf_addstr(&sb, "<");
	strbuf_addf(&sb, "%s>", big);
	assert_int_equal(sb.len, 5001);
	assert_int_equal(sb.buf[5000], '>');
	strbuf_release(&sb);
}

static void test_trim_and_detach(void **state)
{
	struct strbuf sb = STRBUF_INIT;
	size_t len;
	char *s;

	(void)state;
	strbuf_addstr(&sb, " \t value \n");
	strbuf_trim(&sb);
	assert_string_equal(sb.buf, "value");
	s = strbuf_detach(&sb, &len);
	assert_int_equal(len, 5);
	assert_string_equal(s, "value");
	assert_string_equal(sb.buf, "");
	free(s);
}

static void test_json_escapes(void **state)
{
	struct strbuf sb = STRBUF_INIT;
	const char in[] = "a\"b\\c\nd\te\x01";

	(void)state;
	json_add_string(&sb, in, sizeof(in) - 1);
	assert_string_equal(sb.buf, "\"a\\\"b\\\\c\\nd\\te\\u0001\"");
	strbuf_release(&sb);
}

static void test_json_invalid_utf8(void **state)
{
	struct strbuf sb = STRBUF_INIT;

	(void)state;
	/* Latin-1 "é", a valid "é", a truncated sequence, a surrogate. */
	json_add_str(&sb, "caf\xe9 caf\xc3\xa9 \xe2\x82 \xed\xa0\x80");
	assert_string_equal(sb.buf, "\"caf\\ufffd caf\xc3\xa9 \\ufffd\\ufffd "
			    "\\ufffd\\ufffd\\ufffd\"");
	strbuf_reset(&sb);
	json_add_str(&sb, NULL);
	assert_string_equal(sb.buf, "null");
	strbuf_release(&sb);
}

/* Long quoted inputs are cut in messages; short ones and paths stay. */
static void test_error_shorten(void **state)
{
	struct strbuf sb = STRBUF_INIT, want = STRBUF_INIT;
	size_t i;

	(void)state;
	strbuf_addstr(&sb, "error: rules:3: cannot compile pattern '");
	for (i = 0; i < 1000; i++)
		strbuf_addch(&sb, 'a');
	strbuf_addstr(&sb, "': missing ) and 'don't' 'x'");
	error_shorten(&sb, 7);
	strbuf_addstr(&want, "error: rules:3: cannot compile pattern '");
	for (i = 0; i < ERROR_QUOTE_KEEP; i++)
		strbuf_addch(&want, 'a');
	strbuf_addstr(&want, "...' (1000 bytes): missing ) and 'don't' 'x'");
	assert_string_equal(sb.buf, want.buf);

	/* At the limit: kept whole; a double quote too; UTF-8 not cut. */
	strbuf_reset(&sb);
	strbuf_reset(&want);
	strbuf_addch(&sb, '"');
	for (i = 0; i < ERROR_QUOTE_LONG; i++)
		strbuf_addch(&sb, 'b');
	strbuf_addstr(&sb, "\" and \"");
	for (i = 0; i < ERROR_QUOTE_LONG; i++)
		strbuf_addstr(&sb, "\xc3\xa9");
	strbuf_addch(&sb, '"');
	strbuf_addbuf(&want, &sb);
	error_shorten(&sb, 0);
	assert_int_equal(strncmp(sb.buf, want.buf, ERROR_QUOTE_LONG + 8), 0);
	assert_non_null(strstr(sb.buf, "...\" (512 bytes)"));
	/* 40 whole characters of two bytes, not 39 and a half. */
	assert_int_equal(strlen(strstr(sb.buf, " and \"")) - strlen("...\" (512 bytes)"),
			 5 + 1 + ERROR_QUOTE_KEEP);
	strbuf_release(&sb);
	strbuf_release(&want);
}

/* git's weights: a swap free, an added letter 1, a change 2, a deletion 3. */
static void test_suggest_score(void **state)
{
	(void)state;
	assert_int_equal(levenshtein("xsf", "xfs", 0, 2, 1, 3), 0);
	assert_int_equal(levenshtein("linux-6.6y", "linux-6.6.y", 0, 2, 1, 3), 1);
	assert_int_equal(levenshtein("linux-9.9.y", "linux-6.6.y", 0, 2, 1, 3), 4);
	assert_int_equal(levenshtein("xfss", "xfs", 0, 2, 1, 3), 3);
	assert_int_equal(levenshtein("", "abc", 0, 2, 1, 3), 3);
	assert_int_equal(levenshtein("abc", "", 0, 2, 1, 3), 9);
	/* A prefix, or a part of three letters or more, is the nearest. */
	assert_int_equal(suggest_score("ext", "ext4"), 0);
	assert_int_equal(suggest_score("6.6", "origin/linux-6.6.y"), 0);
	assert_int_equal(suggest_score("XFS", "xfs"), 7);
	assert_int_equal(suggest_score("mastr", "master"), 2);
	assert_true(suggest_score("zzzzzzzz", "master") >= SUGGEST_FLOOR);
}

/*
 * strbuf_read_regular(): a regular file up to the cap is read; a
 * symbolic link (to /dev/zero or to a file), a FIFO, a directory or a
 * file over the cap is not, and why says what it is, not what it holds.
 */
static void test_read_regular(void **state)
{
	char dir[] = "/tmp/test_strbuf.XXXXXX";
	struct strbuf sb = STRBUF_INIT, why = STRBUF_INIT;
	char *file, *link, *zero, *fifo, *sub, *missing;
	FILE *f;

	(void)state;
	assert_non_null(mkdtemp(dir));
	file = xstrfmt("%s/file", dir);
	link = xstrfmt("%s/link", dir);
	zero = xstrfmt("%s/zero", dir);
	fifo = xstrfmt("%s/fifo", dir);
	sub = xstrfmt("%s/sub", dir);
	missing = xstrfmt("%s/missing", dir);
	f = fopen(file, "w");
	assert_non_null(f);
	fputs("secret\n", f);
	fclose(f);
	assert_int_equal(symlink(file, link), 0);
	assert_int_equal(symlink("/dev/zero", zero), 0);
	assert_int_equal(mkfifo(fifo, 0600), 0);
	assert_int_equal(mkdir(sub, 0700), 0);

	strbuf_addstr(&sb, ">");
	assert_int_equal(strbuf_read_regular(&sb, file, 7, &why), 1);
	assert_string_equal(sb.buf, ">secret\n");
	assert_int_equal(why.len, 0);
	/* One byte over the cap: not read, and sb as it was. */
	assert_int_equal(strbuf_read_regular(&sb, file, 6, &why), 0);
	assert_string_equal(sb.buf, ">secret\n");
	assert_string_equal(why.buf, "larger than 6 bytes");
	strbuf_reset(&why);
	assert_int_equal(strbuf_read_regular(&sb, link, 100, &why), 0);
	assert_string_equal(why.buf, "a symbolic link, not a regular file");
	strbuf_reset(&why);
	assert_int_equal(strbuf_read_regular(&sb, zero, 100, &why), 0);
	assert_string_equal(why.buf, "a symbolic link, not a regular file");
	strbuf_reset(&why);
	assert_int_equal(strbuf_read_regular(&sb, fifo, 100, &why), 0);
	assert_string_equal(why.buf, "a FIFO, not a regular file");
	strbuf_reset(&why);
	assert_int_equal(strbuf_read_regular(&sb, sub, 100, &why), 0);
	assert_string_equal(why.buf, "a directory, not a regular file");
	strbuf_reset(&why);
	assert_int_equal(strbuf_read_regular(&sb, missing, 100, &why), -1);
	assert_int_equal(errno, ENOENT);
	assert_int_equal(why.len, 0);
	assert_string_equal(sb.buf, ">secret\n");

	unlink(file);
	unlink(link);
	unlink(zero);
	unlink(fifo);
	rmdir(sub);
	rmdir(dir);
	free(file);
	free(link);
	free(zero);
	free(fifo);
	free(sub);
	free(missing);
	strbuf_release(&sb);
	strbuf_release(&why);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_empty_is_printable),
		cmocka_unit_test(test_error_shorten),
		cmocka_unit_test(test_add_and_grow),
		cmocka_unit_test(test_addf_long),
		cmocka_unit_test(test_trim_and_detach),
		cmocka_unit_test(test_json_escapes),
		cmocka_unit_test(test_json_invalid_utf8),
		cmocka_unit_test(test_suggest_score),
		cmocka_unit_test(test_read_regular),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
