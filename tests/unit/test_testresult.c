/* Unit tests for the readers of test results (testresult.h). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <string.h>

#include "run/resultrun.h"
#include "formats/testresult.h"

static int xunit(struct result_set *set, const char *text)
{
	return result_parse_xunit(set, "r.xml", text, strlen(text));
}

static void test_xunit_entities_cdata(void **state)
{
	struct result_set set;
	const struct result_item *it;

	(void)state;
	result_set_init(&set);
	assert_int_equal(xunit(&set,
		"<?xml version=\"1.0\"?>\n<!-- a comment <testcase> -->\n"
		"<testsuite name=\"xfstests\">\n"
		" <properties><property name=\"KERNEL\" value=\"6.1.2\"/>"
		"<property name='SECTION' value='ext4&#x5f;1k'/></properties>\n"
		" <testcase classname=\"xfstests.ext4_1k\" name=\"ext4/001\">\n"
		"  <failure message=\"mismatch &lt;see&gt; &quot;x&quot; &#38; y\" "
		"type=\"TestFail\" />\n"
		"  <system-out><![CDATA[<testcase name=\"bogus/1\"/> ]]></system-out>\n"
		" </testcase>\n"
		" <testcase name=\"generic/002\"><skipped message=\"no\"/></testcase>\n"
		" <testcase name=\"generic/003\" time=\"1\"/>\n"
		"</testsuite>\n"), 0);
	result_set_sort(&set);
	assert_int_equal(set.nr, 3);
	assert_int_equal(set.nr_configs, 1);
	assert_string_equal(set.configs[0].name, "ext4_1k");
	assert_string_equal(set.configs[0].kernel, "6.1.2");
	it = result_find(&set, "ext4_1k", "ext4/001");
	assert_non_null(it);
	assert_int_equal(it->outcome, RESULT_FAIL);
	assert_string_equal(it->message, "mismatch <see> \"x\" & y");
	assert_int_equal(it->line, 5);
	assert_int_equal(result_find(&set, "ext4_1k", "generic/002")->outcome,
			 RESULT_SKIP);
	assert_int_equal(result_find(&set, "ext4_1k", "generic/003")->outcome,
			 RESULT_PASS);
	assert_null(result_find(&set, "ext4_1k", "bogus/1"));
	result_set_release(&set);
}

/* Merged shards, retries: a test that failed once of three is flaky. */
static void test_xunit_merged_flaky(void **state)
{
	struct result_set set;
	const struct result_item *it;

	(void)state;
	result_set_init(&set);
	assert_int_equal(xunit(&set,
		"<testsuites>\n"
		"<testsuite><properties><property name=\"TESTCFG\" "
		"value=\"ext4/4k\"/><property name=\"SECTION\" value=\"x\"/>"
		"<property name=\"PLATFORM\" value=\"Linux/x86_64 host "
		"6.6.30-g0123456 #1\"/></properties>\n"
		"<testcase name=\"generic/001\"/>"
		"<testcase name=\"generic/001\"><failure/></testcase>"
		"<testcase name=\"generic/001\"/></testsuite>\n"
		"<testsuite><testcase classname=\"xfstests.global\" "
		"name=\"generic/001\"/></testsuite>\n"
		"</testsuites>\n"), 0);
	result_set_sort(&set);
	assert_int_equal(set.nr, 2);
	it = result_find(&set, "ext4/4k", "generic/001");
	assert_non_null(it);
	assert_int_equal(it->outcome, RESULT_FAIL);
	assert_int_equal(it->runs, 3);
	assert_int_equal(it->failures, 1);
	assert_string_equal(result_config_find(&set, "ext4/4k")->kernel,
			    "6.6.30-g0123456");
	assert_int_equal(result_find(&set, "global", "generic/001")->outcome,
			 RESULT_PASS);
	result_set_release(&set);
}

static void test_xunit_errors(void **state)
{
	static const char *const bad[] = {
		"<html><body/></html>",
		"<testsuite><testcase name=\"x/1\">",
		"<testsuite><testcase/></testsuite>",
		"<testsuite><testcase name=\"a b\"/></testsuite>",
		"<testsuite><testcase name=\"x/1\" time=3/></testsuite>",
		"<testsuite><!-- open",
		"<testsuite></testcase></testsuite>",
		"",
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct result_set set;

		result_set_init(&set);
		assert_int_equal(xunit(&set, bad[i]), -1);
		result_set_release(&set);
	}
}

static void test_check_log(void **state)
{
	static const char log[] =
		"\nMon Nov 30 2026\nRan: generic/001\nFailures: generic/001\n"
		"Failed 1 of 1 tests\n\nTue Dec  1 2026\n"
		"Ran: generic/001 generic/002 generic/003\n"
		"Not run: generic/003\nFailures: generic/002\n"
		"Failed 1 of 2 tests\n";
	struct result_set set;

	(void)state;
	result_set_init(&set);
	assert_int_equal(result_parse_check_log(&set, "check.log", "xfs", log,
						strlen(log)), 0);
	result_set_sort(&set);
	assert_int_equal(set.nr, 3);
	assert_int_equal(result_find(&set, "xfs", "generic/001")->outcome,
			 RESULT_PASS);
	assert_int_equal(result_find(&set, "xfs", "generic/002")->outcome,
			 RESULT_FAIL);
	assert_int_equal(result_find(&set, "xfs", "generic/002")->line, 10);
	assert_int_equal(result_find(&set, "xfs", "generic/003")->outcome,
			 RESULT_SKIP);
	result_set_release(&set);
	result_set_init(&set);
	assert_int_equal(result_parse_check_log(&set, "check.log", "xfs",
						"Failures: x/1\n", 14), -1);
	result_set_release(&set);
}

/* The check.log of a run with sections: a block per section. */
static void test_check_log_sections(void **state)
{
	static const char log[] =
		"\nTue Dec  1 2026\nSECTION       -- xfs_4k\n"
		"=========================\nRan: xfs/001 xfs/002\n"
		"Failures: xfs/001\nFailed 1 of 2 tests\n\n"
		"Tue Dec  1 2026\nSECTION       -- xfs_1k\n"
		"=========================\nRan: xfs/001\n"
		"Passed all 1 tests\n\nWed Dec  2 2026\n"
		"SECTION       -- xfs_4k\n=========================\n"
		"Ran: xfs/002\nFailures: xfs/002\nFailed 1 of 1 tests\n";
	struct result_set set;

	(void)state;
	result_set_init(&set);
	assert_int_equal(result_parse_check_log(&set, "check.log", "global",
						log, strlen(log)), 0);
	result_set_sort(&set);
	assert_int_equal(set.nr, 2);
	assert_int_equal(set.nr_configs, 2);
	assert_int_equal(result_find(&set, "xfs_1k", "xfs/001")->outcome,
			 RESULT_PASS);
	/* The last block of xfs_4k only. */
	assert_null(result_find(&set, "xfs_4k", "xfs/001"));
	assert_int_equal(result_find(&set, "xfs_4k", "xfs/002")->outcome,
			 RESULT_FAIL);
	assert_null(result_config_find(&set, "global"));
	result_set_release(&set);
}

static void test_expunge(void **state)
{
	static const char list[] =
		"# expunges\n\ngeneric/475 # bug 1: flaky\n"
		"  xfs/001\t#  \n generic/999#tight\n";
	struct result_set set;

	(void)state;
	result_set_init(&set);
	assert_int_equal(result_parse_expunge(&set, "all.txt", "all", list,
					      strlen(list)), 0);
	result_set_sort(&set);
	assert_int_equal(set.nr, 0);
	assert_int_equal(set.nr_expunged, 3);
	assert_string_equal(set.expunged[0].test, "generic/475");
	assert_string_equal(set.expunged[0].reason, "bug 1: flaky");
	assert_int_equal(set.expunged[0].line, 3);
	assert_string_equal(set.expunged[1].test, "generic/999");
	assert_string_equal(set.expunged[1].reason, "tight");
	assert_string_equal(set.expunged[2].test, "xfs/001");
	assert_null(set.expunged[2].reason);
	result_set_release(&set);
	result_set_init(&set);
	assert_int_equal(result_parse_expunge(&set, "all.txt", "all",
					      "generic/1 <x>\n", 14), -1);
	result_set_release(&set);
}

static void test_ltp(void **state)
{
	static const char log[] =
		"Testcase   Result   Exit Value\n--------   ------   ------\n"
		"mmap01     PASS     0\nmmap02     BROK     2\n"
		"mmap03     CONF     32\n\n-------\nTotal Tests: 3\n"
		"Kernel Version: 5.15.160-gabcdef0\n";
	static const char kirk[] =
		"{\"results\": [{\"test_fqn\": \"a01\", \"status\": \"pass\"},"
		" {\"test_fqn\": \"a02\", \"status\": \"timeout\"}],"
		" \"environment\": {\"kernel\": \"Linux 6.1.0-13-amd64 #1\"}}";
	struct result_set set;

	(void)state;
	result_set_init(&set);
	assert_int_equal(result_parse_ltp_log(&set, "l", log, strlen(log)), 0);
	assert_int_equal(result_parse_kirk(&set, "k", kirk, strlen(kirk)), 0);
	result_set_sort(&set);
	assert_int_equal(set.nr, 5);
	assert_int_equal(result_find(&set, "ltp", "mmap02")->outcome, RESULT_FAIL);
	assert_int_equal(result_find(&set, "ltp", "mmap03")->outcome, RESULT_SKIP);
	assert_int_equal(result_find(&set, "ltp", "a02")->outcome, RESULT_FAIL);
	assert_string_equal(result_find(&set, "ltp", "a02")->message, "timeout");
	/* One config; the first kernel read stays. */
	assert_int_equal(set.nr_configs, 1);
	assert_string_equal(set.configs[0].kernel, "5.15.160-gabcdef0");
	result_set_release(&set);
}

static void test_paths(void **state)
{
	const char *const *p;

	(void)state;
	p = results_test_paths("fstests", "xfs/123", "ext4");
	assert_string_equal(p[0], "fs/xfs/");
	assert_null(p[1]);
	p = results_test_paths("fstests", "generic/123", "ext4");
	assert_string_equal(p[0], "fs/ext4/");
	p = results_test_paths("fstests", "overlay/001", NULL);
	assert_string_equal(p[0], "fs/overlayfs/");
	p = results_test_paths("fstests", "generic/123", NULL);
	assert_null(p[0]);
	p = results_test_paths("ltp", "fanotify10", "xfs");
	assert_null(p[0]);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_xunit_entities_cdata),
		cmocka_unit_test(test_xunit_merged_flaky),
		cmocka_unit_test(test_xunit_errors),
		cmocka_unit_test(test_check_log),
		cmocka_unit_test(test_check_log_sections),
		cmocka_unit_test(test_expunge),
		cmocka_unit_test(test_ltp),
		cmocka_unit_test(test_paths),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
