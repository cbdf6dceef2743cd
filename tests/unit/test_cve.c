/*
 * Unit tests for cve.c: a record's .sha1 and .dyad text, as the kernel
 * CVE team writes them (comments, 0:0, several fixes, CRLF and trailing
 * blanks), give its fixes and pairs; records sort by year and number;
 * a commit finds the records it fixes; a malformed line is an error
 * naming the file and line, and every one is reported.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "capture.h"
#include "formats/cve.h"

#define A "1da177e4c3f41524e886b7f1b8a0c1fc7321cac2"
#define B "6be388f4a35d2ce5ef7dbf635a8964a5da7f799f"
#define C "b1e3596416d74ce95cc0b7b38472329a3818f8a9"

static int add(struct cve_set *s, const char *name, const char *sha1,
	       const char *dyad)
{
	return cve_set_add(s, name, "x.sha1", sha1, strlen(sha1), "x.dyad",
			   dyad, dyad ? strlen(dyad) : 0);
}

static void test_record(void **state)
{
	struct cve_set s;
	const struct cve *c;
	git_oid b;

	(void)state;
	cve_set_init(&s);
	assert_int_equal(add(&s, "CVE-2021-46906", B "\r\n\n" C " \n",
			     "# dyad version: 1.2.0\n"
			     "# \tgetting vulnerable:fixed pairs\n"
			     "2.6.12:" A ":5.10.45:" C "\n"
			     "\n"
			     "5.13:" B ":0:0\r\n"), 0);
	cve_set_finish(&s);
	assert_int_equal(s.nr, 1);
	c = &s.items[0];
	assert_string_equal(c->id, "CVE-2021-46906");
	assert_int_equal(c->nr_fixes, 2);
	assert_string_equal(git_oid_tostr_s(&c->fixes[1]), C);
	assert_int_equal(c->nr_pairs, 2);
	assert_string_equal(c->pairs[0].vulnerable_version, "2.6.12");
	assert_true(c->pairs[0].has_vulnerable);
	assert_string_equal(git_oid_tostr_s(&c->pairs[0].vulnerable), A);
	assert_string_equal(c->pairs[0].fixed_version, "5.10.45");
	assert_true(c->pairs[0].has_fixed);
	assert_string_equal(c->pairs[1].fixed_version, "0");
	assert_false(c->pairs[1].has_fixed);
	assert_true(c->pairs[1].has_vulnerable);
	git_oid_fromstr(&b, B);
	{
		const struct cve *const *hits;

		assert_int_equal(cve_set_fixed_by(&s, &b, &hits), 1);
		assert_ptr_equal(hits[0], c);
		git_oid_fromstr(&b, A);
		assert_int_equal(cve_set_fixed_by(&s, &b, &hits), 0);
	}
	cve_set_release(&s);
}

static void test_order_and_index(void **state)
{
	const struct cve *const *hits;
	struct cve_set s;
	git_oid b;

	(void)state;
	cve_set_init(&s);
	assert_int_equal(add(&s, "CVE-2024-1001", B "\n", NULL), 0);
	assert_int_equal(add(&s, "CVE-2024-999", C "\n", NULL), 0);
	assert_int_equal(add(&s, "CVE-2023-52434", B "\n", NULL), 0);
	cve_set_finish(&s);
	assert_string_equal(s.items[0].id, "CVE-2023-52434");
	assert_string_equal(s.items[1].id, "CVE-2024-999");
	assert_string_equal(s.items[2].id, "CVE-2024-1001");
	assert_int_equal(s.items[0].nr_pairs, 0);
	git_oid_fromstr(&b, B);
	assert_int_equal(cve_set_fixed_by(&s, &b, &hits), 2);
	assert_string_equal(hits[0]->id, "CVE-2023-52434");
	assert_string_equal(hits[1]->id, "CVE-2024-1001");
	cve_set_release(&s);
}

static void test_malformed(void **state)
{
	struct capture cap;
	struct cve_set s;
	char *err;

	(void)state;
	cve_set_init(&s);
	capture_begin(&cap);
	assert_int_equal(add(&s, "CVE-2024-1", B "\n6be388f4a35d\n",
			     "5.13:" B ":0\n"
			     ":" B ":0:0\n"
			     "5.13:0:6.1:" B "x\n"
			     "5.13:" B ":6.1:" C "\n"), -1);
	assert_int_equal(add(&s, "CVE-2024-2", "\n", NULL), -1);
	err = capture_end(&cap);
	assert_string_equal(err,
		"error: x.sha1:2: not a full commit id: '6be388f4a35d'\n"
		"error: x.dyad:1: expected VERSION:ID:VERSION:ID: '5.13:" B ":0'\n"
		"error: x.dyad:2: an empty version: ':" B ":0:0'\n"
		"error: x.dyad:3: an id that is neither 0 nor a full commit id: "
		"'5.13:0:6.1:" B "x'\n"
		"error: x.sha1: names no commit\n");
	free(err);
	/* What could be read was kept: one fix, the good pair. */
	assert_int_equal(s.items[0].nr_fixes, 1);
	assert_int_equal(s.items[0].nr_pairs, 1);
	cve_set_release(&s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_record),
		cmocka_unit_test(test_order_and_index),
		cmocka_unit_test(test_malformed),
	};

	int ret;

	git_libgit2_init();
	ret = cmocka_run_group_tests(tests, NULL, NULL);
	git_libgit2_shutdown();
	return ret;
}
