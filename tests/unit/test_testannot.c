/*
 * Unit tests for the fstests and LTP annotation reader.  The test
 * scripts, helpers and C files are written for these tests in the
 * style of fstests and LTP; commit ids, subjects and names are made
 * up.  Comments give the line of a file a string starts, where a test
 * checks line numbers.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "capture.h"
#include "base/strbuf.h"
#include "formats/testannot.h"
#include "base/util.h"

static void check_str(int at, const char *what, const char *actual,
		      const char *expect)
{
	if ((!actual && !expect) ||
	    (actual && expect && !strcmp(actual, expect)))
		return;
	print_error("checked at line %d: %s is %s%s%s, expected %s%s%s\n",
		    at, what, actual ? "'" : "", actual ? actual : "NULL",
		    actual ? "'" : "", expect ? "'" : "",
		    expect ? expect : "NULL", expect ? "'" : "");
	fail();
}

static void check_item_at(int at, const struct testannot *a,
			  const char *test, enum testannot_kind kind,
			  const char *how, const char *sha,
			  const char *subject, const char *fstyp,
			  const char *file, unsigned line, const char *via)
{
	check_str(at, "test", a->test, test);
	check_str(at, "suite", a->suite,
		  strchr(test, '/') ? "fstests" : "ltp");
	check_str(at, "kind", testannot_kind_name(a->kind),
		  testannot_kind_name(kind));
	check_str(at, "how", a->how, how);
	check_str(at, "sha", a->sha, sha);
	check_str(at, "subject", a->subject, subject);
	check_str(at, "fstyp", a->fstyp, fstyp);
	check_str(at, "file", a->file, file);
	check_str(at, "via", a->via, via);
	if (a->line != line) {
		print_error("checked at line %d: line is %u, expected %u\n",
			    at, a->line, line);
		fail();
	}
}

#define check_item(a, ...) check_item_at(__LINE__, (a), __VA_ARGS__)

static void check_problem_at(int at, const struct testannot_problem *pr,
			     const char *file, unsigned line,
			     const char *message)
{
	check_str(at, "problem file", pr->file, file);
	check_str(at, "problem message", pr->message, message);
	if (pr->line != line) {
		print_error("checked at line %d: problem line is %u, "
			    "expected %u\n", at, pr->line, line);
		fail();
	}
}

#define check_problem(pr, ...) check_problem_at(__LINE__, (pr), __VA_ARGS__)

#define FIXED TESTANNOT_FIXED_BY
#define WANTS TESTANNOT_WANTS
#define KCOMMIT "_fixed_by_kernel_commit"

/* Parses text as the test "tests/<test>". */
static void parse_test(struct testannot_set *set,
		       const struct testannot_helpers *h, const char *test,
		       const char *text)
{
	char *file = xstrfmt("tests/%s", test);

	testannot_parse_fstests(set, h, test, file, text, strlen(text));
	free(file);
}

static void parse_common(struct testannot_helpers *h,
			 struct testannot_set *set, const char *file,
			 const char *text)
{
	testannot_parse_fstests_common(h, set, file, text, strlen(text));
}

static void parse_ltp(struct testannot_set *set, const char *test,
		      const char *file, const char *text)
{
	testannot_parse_ltp(set, test, file, text, strlen(text));
}

static void test_kind_names(void **state)
{
	(void)state;
	assert_string_equal(testannot_kind_name(TESTANNOT_FIXED_BY),
			    "fixed-by");
	assert_string_equal(testannot_kind_name(TESTANNOT_WANTS), "wants");
	assert_string_equal(testannot_kind_name(TESTANNOT_STABLE),
			    "stable-fix");
	assert_string_equal(testannot_kind_name(TESTANNOT_CVE), "cve");
}

static void test_sha_ok(void **state)
{
	(void)state;
	assert_int_equal(testannot_sha_ok("0123456"), 1);
	assert_int_equal(testannot_sha_ok("0123456789ab"), 1);
	assert_int_equal(testannot_sha_ok("ABCDEF0123"), 1);
	assert_int_equal(testannot_sha_ok(
		"0123456789abcdef0123456789abcdef01234567"), 1);
	/* Too short, too long, not hexadecimal, placeholders. */
	assert_int_equal(testannot_sha_ok(""), 0);
	assert_int_equal(testannot_sha_ok("012345"), 0);
	assert_int_equal(testannot_sha_ok(
		"0123456789abcdef0123456789abcdef012345678"), 0);
	assert_int_equal(testannot_sha_ok("0123456789abg"), 0);
	assert_int_equal(testannot_sha_ok("xxxxxxxxxxxx"), 0);
	assert_int_equal(testannot_sha_ok("XXXXXXXXXXXX"), 0);
	assert_int_equal(testannot_sha_ok("<pending-upstream>"), 0);
	assert_int_equal(testannot_sha_ok("TBD"), 0);
	assert_int_equal(testannot_sha_ok("$sha"), 0);
	assert_int_equal(testannot_sha_ok(" 0123456789ab"), 0);
}

/* Every way of writing an annotation, in one test. */
static const char forms_test[] =
	"#! /bin/bash\n"					/* 1 */
	"# SPDX-License-Identifier: GPL-2.0\n"
	"# FS QA Test 101\n"
	"#\n"
	"# Check that the widget does not leak.\n"		/* 5 */
	"#\n"
	". ./common/preamble\n"
	"_begin_fstest auto quick\n"
	"\n"
	"_require_scratch\n"					/* 10 */
	"_fixed_by_kernel_commit 0123456789ab \"xfs: fix widget leak\"\n"
	"_fixed_by_kernel_commit 1123456789ab \\\n"
	"\t\"xfs: fix the second leak\"\n"
	"_fixed_by_git_commit kernel 2123456789ab xfs: unquoted  subject\n"
	"_wants_kernel_commit 3123456789ab 'xfs: single quoted'\n" /* 15 */
	"_wants_git_commit kernel 4123456789ab \"xfs: say \\\"hi\\\" twice\"\n"
	"_fixed_by_git_commit xfsprogs 5123456789ab \"xfs_repair: not kernel\"\n"
	"_fixed_by_kernel_commit 6123456789ab \"a: one\"; "
	"_fixed_by_kernel_commit 7123456789ab \"a: two\"\n"
	"_fixed_by_kernel_commit \\\n"
	"\t8123456789ab \\\n"					/* 20 */
	"\t\"xfs: three\" \\\n"
	"\t\"lines\"\n"
	"_fixed_by_kernel_commit 9123456789ab \"it's \"'mixed'\" quoting\"\n"
	"_wants_git_commit e2fsprogs a123456789ab \"e2fsck: not kernel\"\n"
	"_fixed_by_kernel_commit b123456789ab\n"		/* 25 */
	"FOO=bar _fixed_by_kernel_commit c123456789ab 'after an assignment'\n"
	"_fixed_by_kernel_commit d123456789ab \"\"\n"
	"\n"
	"echo \"Silence is golden\"\n"
	"status=0\n"						/* 30 */
	"exit\n";

static void test_fstests_forms(void **state)
{
	struct testannot_set set;
	const struct testannot *it;

	(void)state;
	testannot_set_init(&set);
	parse_test(&set, NULL, "xfs/101", forms_test);
	assert_int_equal(set.nr_problems, 0);
	assert_int_equal(set.nr, 12);
	it = set.items;
	check_item(&it[0], "xfs/101", FIXED, KCOMMIT, "0123456789ab",
		   "xfs: fix widget leak", NULL, "tests/xfs/101", 11, NULL);
	check_item(&it[1], "xfs/101", FIXED, KCOMMIT, "1123456789ab",
		   "xfs: fix the second leak", NULL, "tests/xfs/101", 12,
		   NULL);
	/* An unquoted subject: its words joined by one space. */
	check_item(&it[2], "xfs/101", FIXED, "_fixed_by_git_commit kernel",
		   "2123456789ab", "xfs: unquoted subject", NULL,
		   "tests/xfs/101", 14, NULL);
	check_item(&it[3], "xfs/101", WANTS, "_wants_kernel_commit",
		   "3123456789ab", "xfs: single quoted", NULL,
		   "tests/xfs/101", 15, NULL);
	check_item(&it[4], "xfs/101", WANTS, "_wants_git_commit kernel",
		   "4123456789ab", "xfs: say \"hi\" twice", NULL,
		   "tests/xfs/101", 16, NULL);
	/* Line 17, xfsprogs, is skipped; two commands on line 18. */
	check_item(&it[5], "xfs/101", FIXED, KCOMMIT, "6123456789ab",
		   "a: one", NULL, "tests/xfs/101", 18, NULL);
	check_item(&it[6], "xfs/101", FIXED, KCOMMIT, "7123456789ab",
		   "a: two", NULL, "tests/xfs/101", 18, NULL);
	check_item(&it[7], "xfs/101", FIXED, KCOMMIT, "8123456789ab",
		   "xfs: three lines", NULL, "tests/xfs/101", 19, NULL);
	check_item(&it[8], "xfs/101", FIXED, KCOMMIT, "9123456789ab",
		   "it's mixed quoting", NULL, "tests/xfs/101", 23, NULL);
	/* Line 24, e2fsprogs, is skipped; no subject at all. */
	check_item(&it[9], "xfs/101", FIXED, KCOMMIT, "b123456789ab",
		   NULL, NULL, "tests/xfs/101", 25, NULL);
	check_item(&it[10], "xfs/101", FIXED, KCOMMIT, "c123456789ab",
		   "after an assignment", NULL, "tests/xfs/101", 26, NULL);
	/* An empty subject is none. */
	check_item(&it[11], "xfs/101", FIXED, KCOMMIT, "d123456789ab",
		   NULL, NULL, "tests/xfs/101", 27, NULL);
	testannot_set_release(&set);
	assert_int_equal(set.nr, 0);
	assert_null(set.items);
}

static const char fstyp_test[] =
	"#! /bin/bash\n"					/* 1 */
	". ./common/preamble\n"
	"_begin_fstest auto\n"
	"_fixed_by_fs_commit btrfs a1b2c3d4e5f6 \"btrfs: fix the thing\"\n"
	"[ $FSTYP = btrfs ] && _fixed_by_kernel_commit b1b2c3d4e5f6 \"btrfs: another\"\n"
	"[ \"$FSTYP\" == \"xfs\" ] && \\\n"
	"\t_fixed_by_kernel_commit c1b2c3d4e5f6 \"xfs: continued\"\n"
	"test \"$FSTYP\" = ext4 && _wants_kernel_commit d1b2c3d4e5f6 \"ext4: feature\"\n"
	"if [ \"$FSTYP\" = \"xfs\" ]; then\n"
	"\t_fixed_by_kernel_commit e1b2c3d4e5f6 \"xfs: in if\"\n" /* 10 */
	"\t[ -n \"$SCRATCH_RTDEV\" ] && _fixed_by_kernel_commit f1b2c3d4e5f6 \"xfs: rt\"\n"
	"else\n"
	"\t_fixed_by_kernel_commit 01b2c3d4e5f6 \"generic: in else\"\n"
	"fi\n"
	"if [ ${FSTYP} != \"ext4\" ]; then\n"			/* 15 */
	"\t:\n"
	"else\n"
	"\t_fixed_by_kernel_commit 11b2c3d4e5f6 \"ext4: in else of !=\"\n"
	"fi\n"
	"[ \"xfs\" = \"$FSTYP\" ] || _fixed_by_kernel_commit 21b2c3d4e5f6 \"not only xfs\"\n"
	"[ $FSTYP != btrfs ] || _fixed_by_kernel_commit 31b2c3d4e5f6 \"btrfs: via ||\"\n"
	"_fixed_by_kernel_commit 41b2c3d4e5f6 \"everywhere\"\n"
	"if [ \"$FSTYP\" = \"xfs\" ] || [ \"$FSTYP\" = \"ext4\" ]; then\n"
	"\t_fixed_by_kernel_commit 51b2c3d4e5f6 \"either\"\n"
	"fi\n"							/* 25 */
	"[[ $FSTYP == ext4 ]] && _fixed_by_kernel_commit 61b2c3d4e5f6 \"ext4: double brackets\"\n"
	"if [ \"$FSTYP\" = \"xfs\" ]\n"
	"then\n"
	"\tif [ -n \"$X\" ]; then\n"
	"\t\t_fixed_by_kernel_commit 71b2c3d4e5f6 \"xfs: nested\"\n" /* 30 */
	"\tfi\n"
	"\t_fixed_by_fs_commit ext4 81b2c3d4e5f6 \"ext4: own word wins\"\n"
	"fi\n"
	"_fixed_by_kernel_commit 91b2c3d4e5f6 \"after\"\n";

static void test_fstests_fstyp(void **state)
{
	static const struct {
		const char *sha, *fstyp;
		unsigned line;
	} expect[] = {
		{ "a1b2c3d4e5f6", "btrfs", 4 },
		{ "b1b2c3d4e5f6", "btrfs", 5 },
		{ "c1b2c3d4e5f6", "xfs", 7 },
		{ "d1b2c3d4e5f6", "ext4", 8 },
		{ "e1b2c3d4e5f6", "xfs", 10 },
		{ "f1b2c3d4e5f6", "xfs", 11 },
		{ "01b2c3d4e5f6", NULL, 13 },
		{ "11b2c3d4e5f6", "ext4", 18 },
		{ "21b2c3d4e5f6", NULL, 20 },
		{ "31b2c3d4e5f6", "btrfs", 21 },
		{ "41b2c3d4e5f6", NULL, 22 },
		{ "51b2c3d4e5f6", NULL, 24 },
		{ "61b2c3d4e5f6", "ext4", 26 },
		{ "71b2c3d4e5f6", "xfs", 30 },
		{ "81b2c3d4e5f6", "ext4", 32 },
		{ "91b2c3d4e5f6", NULL, 34 },
	};
	struct testannot_set set;
	size_t i;

	(void)state;
	testannot_set_init(&set);
	parse_test(&set, NULL, "generic/201", fstyp_test);
	assert_int_equal(set.nr_problems, 0);
	assert_int_equal(set.nr, ARRAY_SIZE(expect));
	check_item(&set.items[0], "generic/201", FIXED,
		   "_fixed_by_fs_commit btrfs", "a1b2c3d4e5f6",
		   "btrfs: fix the thing", "btrfs", "tests/generic/201", 4,
		   NULL);
	check_item(&set.items[3], "generic/201", WANTS,
		   "_wants_kernel_commit", "d1b2c3d4e5f6", "ext4: feature",
		   "ext4", "tests/generic/201", 8, NULL);
	for (i = 0; i < ARRAY_SIZE(expect); i++) {
		const struct testannot *a = &set.items[i];

		check_str(__LINE__, "sha", a->sha, expect[i].sha);
		check_str(__LINE__, "fstyp", a->fstyp, expect[i].fstyp);
		assert_int_equal(a->line, expect[i].line);
	}
	testannot_set_release(&set);
}

/* Text that only looks like annotations; the last line is one. */
static const char not_annotations_test[] =
	"#! /bin/bash\n"					/* 1 */
	"# _fixed_by_kernel_commit abc1234 \"in a comment\"\n"
	"\t# _fixed_by_kernel_commit abc1235 \"indented comment\"\n"
	"echo \"_fixed_by_kernel_commit abc1236 not a command\"\n"
	"echo _fixed_by_kernel_commit abc1237\n"		/* 5 */
	"_require_scratch # _fixed_by_kernel_commit abc1238 \"trailing\"\n"
	"cat > $tmp.conf <<EOF\n"
	"_fixed_by_kernel_commit abc1239 \"in a here-document\"\n"
	"don't stop\n"
	"EOF\n"							/* 10 */
	"cat <<-'END' | grep foo\n"
	"\t_fixed_by_kernel_commit abc1240 \"in an indented one\"\n"
	"\tEND\n"
	"x=\"multi\n"
	"_fixed_by_kernel_commit abc1241 in a string\n"	/* 15 */
	"\"\n"
	"msg=$(echo \"it's\" | sed -e 's/a/b/')\n"
	"out=$(cat <<EOF2\n"
	"_fixed_by_kernel_commit abc1242 \"here-document in \\$(...)\"\n"
	"it's\n"						/* 20 */
	"EOF2\n"
	")\n"
	"n=$((1 << 3)); (( n <<= 1 )) # it's\n"
	"printf '%s\\n' \"${msg:-it's}\" `echo \"it's\"`\n"
	"_fixed_by_kernel_commit abc1243 \"real one\"\n";	/* 25 */

static void test_fstests_not_annotations(void **state)
{
	struct testannot_set set;

	(void)state;
	testannot_set_init(&set);
	parse_test(&set, NULL, "xfs/301", not_annotations_test);
	assert_int_equal(set.nr_problems, 0);
	assert_int_equal(set.nr, 1);
	check_item(&set.items[0], "xfs/301", FIXED, KCOMMIT, "abc1243",
		   "real one", NULL, "tests/xfs/301", 25, NULL);
	testannot_set_release(&set);
}

static void test_fstests_placeholders(void **state)
{
	static const char text[] =
		"_fixed_by_kernel_commit xxxxxxxxxxxx \"btrfs: fix pending\"\n" /* 1 */
		"_fixed_by_kernel_commit \"<pending-upstream>\" \"btrfs: not merged\"\n"
		"_wants_kernel_commit TBD btrfs: some day\n"
		"_fixed_by_kernel_commit $sha \"btrfs: a variable\"\n"
		"_fixed_by_kernel_commit \"2a2b2c2d2e2f \\\n"	/* 5 */
		"\t\t\tbtrfs: commit and subject \\\n"
		"\t\t\tin one word\"\n"
		"_fixed_by_kernel_commit '3a3b3c3d3e3f btrfs:' and more\n"
		"_fixed_by_kernel_commit ' 4a4b4c4d4e4f' \"btrfs: blank first\"\n";
	struct testannot_set set;
	const struct testannot *it;

	(void)state;
	testannot_set_init(&set);
	parse_test(&set, NULL, "btrfs/401", text);
	assert_int_equal(set.nr_problems, 0);
	assert_int_equal(set.nr, 7);
	it = set.items;
	check_item(&it[0], "btrfs/401", FIXED, KCOMMIT, "xxxxxxxxxxxx",
		   "btrfs: fix pending", NULL, "tests/btrfs/401", 1, NULL);
	check_item(&it[1], "btrfs/401", FIXED, KCOMMIT, "<pending-upstream>",
		   "btrfs: not merged", NULL, "tests/btrfs/401", 2, NULL);
	check_item(&it[2], "btrfs/401", WANTS, "_wants_kernel_commit", "TBD",
		   "btrfs: some day", NULL, "tests/btrfs/401", 3, NULL);
	check_item(&it[3], "btrfs/401", FIXED, KCOMMIT, "$sha",
		   "btrfs: a variable", NULL, "tests/btrfs/401", 4, NULL);
	assert_int_equal(testannot_sha_ok(it[0].sha), 0);
	assert_int_equal(testannot_sha_ok(it[1].sha), 0);
	assert_int_equal(testannot_sha_ok(it[2].sha), 0);
	assert_int_equal(testannot_sha_ok(it[3].sha), 0);
	/* A commit and its subject in one quoted word: split. */
	check_item(&it[4], "btrfs/401", FIXED, KCOMMIT, "2a2b2c2d2e2f",
		   "btrfs: commit and subject in one word", NULL,
		   "tests/btrfs/401", 5, NULL);
	assert_int_equal(testannot_sha_ok(it[4].sha), 1);
	check_item(&it[5], "btrfs/401", FIXED, KCOMMIT, "3a3b3c3d3e3f",
		   "btrfs: and more", NULL, "tests/btrfs/401", 8, NULL);
	/* Not split where the word starts with a blank: as written. */
	check_item(&it[6], "btrfs/401", FIXED, KCOMMIT, " 4a4b4c4d4e4f",
		   "btrfs: blank first", NULL, "tests/btrfs/401", 9, NULL);
	assert_int_equal(testannot_sha_ok(it[6].sha), 0);
	testannot_set_release(&set);
}

/*
 * NUL bytes are dropped, as bash drops them from a script and C
 * compilers from a source file: a word or string that held one is
 * read whole, not cut short (found by tests/fuzz/fstests).
 */
static void test_nul_bytes(void **state)
{
	static const char sh[] =
		"_fixed_by_kernel_commit 0a0b\0" "0c0d0e0f \"\0fix \0it\"\n"
		"_fixed_by_fs_commit 0 \0 \0\n";
	static const char c[] =
		"{\"linux-\0git\", \"1a1b\0" "1c1d1e1f\"},\n";
	struct testannot_set set;

	(void)state;
	testannot_set_init(&set);
	testannot_parse_fstests(&set, NULL, "xfs/1", "tests/xfs/1", sh,
				sizeof(sh) - 1);
	assert_int_equal(set.nr_problems, 0);
	assert_int_equal(set.nr, 2);
	check_item(&set.items[0], "xfs/1", FIXED, KCOMMIT, "0a0b0c0d0e0f",
		   "fix it", NULL, "tests/xfs/1", 1, NULL);
	/* Words of NUL bytes alone are empty: no subject. */
	check_item(&set.items[1], "xfs/1", FIXED, "_fixed_by_fs_commit 0",
		   "", NULL, "0", "tests/xfs/1", 2, NULL);
	testannot_set_release(&set);

	testannot_set_init(&set);
	testannot_parse_ltp(&set, "x01", "testcases/x01.c", c, sizeof(c) - 1);
	assert_int_equal(set.nr_problems, 0);
	assert_int_equal(set.nr, 1);
	check_item(&set.items[0], "x01", FIXED, "linux-git", "1a1b1c1d1e1f",
		   NULL, NULL, "testcases/x01.c", 1, NULL);
	testannot_set_release(&set);
}

static void test_fstests_problems(void **state)
{
	static const char text[] =
		"#! /bin/bash\n"				/* 1 */
		"_fixed_by_kernel_commit\n"
		"_fixed_by_git_commit kernel\n"
		"_fixed_by_kernel_commit 0a0b0c0d0e0f \"ext4: before\"\n"
		"_fixed_by_fs_commit ext4\n"			/* 5 */
		"_wants_git_commit\n"
		"_fixed_by_kernel_commit <pending-upstream> \"as bash reads it\"\n"
		"echo 'unterminated\n"
		"_fixed_by_kernel_commit 1a0b0c0d0e0f \"ext4: after\"\n"
		"cat <<EOF\n"					/* 10 */
		"never ends\n";
	static const char open_dq[] =
		"_wants_kernel_commit 2a0b0c0d0e0f\n"		/* 1 */
		"_fixed_by_kernel_commit 3a0b0c0d0e0f \"never closed\n";
	static const char open_subst[] =
		"x=$(echo a\n"					/* 1 */
		"_fixed_by_kernel_commit 4a0b0c0d0e0f \"ext4: after $(\"\n";
	struct testannot_set set;
	const struct testannot_problem *pr;

	(void)state;
	testannot_set_init(&set);
	parse_test(&set, NULL, "ext4/501", text);
	assert_int_equal(set.nr_problems, 6);
	pr = set.problems;
	check_problem(&pr[0], "tests/ext4/501", 2,
		      "'_fixed_by_kernel_commit' without a commit");
	check_problem(&pr[1], "tests/ext4/501", 3,
		      "'_fixed_by_git_commit kernel' without a commit");
	check_problem(&pr[2], "tests/ext4/501", 5,
		      "'_fixed_by_fs_commit ext4' without a commit");
	check_problem(&pr[3], "tests/ext4/501", 6,
		      "'_wants_git_commit' without a commit");
	check_problem(&pr[4], "tests/ext4/501", 8, "quote is not closed");
	check_problem(&pr[5], "tests/ext4/501", 10,
		      "here-document 'EOF' is not closed");
	/* Reading went on after each; an unquoted "<pending-upstream>" is
	 * the placeholder, not two redirections. */
	assert_int_equal(set.nr, 3);
	check_item(&set.items[0], "ext4/501", FIXED, KCOMMIT,
		   "0a0b0c0d0e0f", "ext4: before", NULL, "tests/ext4/501", 4,
		   NULL);
	check_item(&set.items[1], "ext4/501", FIXED, KCOMMIT,
		   "<pending-upstream>", "as bash reads it", NULL,
		   "tests/ext4/501", 7, NULL);
	check_item(&set.items[2], "ext4/501", FIXED, KCOMMIT,
		   "1a0b0c0d0e0f", "ext4: after", NULL, "tests/ext4/501", 9,
		   NULL);
	testannot_set_release(&set);

	/* The quote that does not close is text, from where it opens. */
	testannot_set_init(&set);
	parse_test(&set, NULL, "ext4/502", open_dq);
	assert_int_equal(set.nr_problems, 1);
	check_problem(&set.problems[0], "tests/ext4/502", 2,
		      "quote is not closed");
	assert_int_equal(set.nr, 2);
	check_item(&set.items[0], "ext4/502", WANTS, "_wants_kernel_commit",
		   "2a0b0c0d0e0f", NULL, NULL, "tests/ext4/502", 1, NULL);
	check_item(&set.items[1], "ext4/502", FIXED, KCOMMIT,
		   "3a0b0c0d0e0f", "\"never closed", NULL, "tests/ext4/502",
		   2, NULL);
	testannot_set_release(&set);

	testannot_set_init(&set);
	parse_test(&set, NULL, "ext4/503", open_subst);
	assert_int_equal(set.nr_problems, 1);
	check_problem(&set.problems[0], "tests/ext4/503", 1,
		      "'$(' is not closed");
	assert_int_equal(set.nr, 1);
	check_item(&set.items[0], "ext4/503", FIXED, KCOMMIT,
		   "4a0b0c0d0e0f", "ext4: after $(", NULL, "tests/ext4/503",
		   2, NULL);
	testannot_set_release(&set);
}

static const char common_rc[] =
	"# Common functions, made up for the tests.\n"		/* 1 */
	"_fixed_by_git_commit()\n"
	"{\n"
	"\tlocal package=$1\n"
	"\tshift\n"						/* 5 */
	"\techo \"$package $*\" >> $tmp.fixes\n"
	"}\n"
	"\n"
	"_fixed_by_kernel_commit()\n"
	"{\n"							/* 10 */
	"\t_fixed_by_git_commit kernel $*\n"
	"}\n"
	"\n"
	"_fixed_by_fs_commit()\n"
	"{\n"							/* 15 */
	"\t[ \"$FSTYP\" = \"$1\" ] || return\n"
	"\tshift\n"
	"\t_fixed_by_kernel_commit \"$@\"\n"
	"}\n"
	"\n"							/* 20 */
	"_fixed_by_kernel_commit aaaa00000001 \"outside any helper\"\n"
	"\n"
	"_require_widget()\n"
	"{\n"
	"\t_fixed_by_kernel_commit aaaa00000002 \"widget: fix probe\"\n" /* 25 */
	"\t_require_gadget\n"
	"}\n"
	"\n"
	"function _require_gadget {\n"
	"\t[ $FSTYP = xfs ] && \\\n"				/* 30 */
	"\t\t_wants_kernel_commit aaaa00000003 \"gadget: add ioctl\"\n"
	"\t_require_widget\n"
	"}\n"
	"\n"
	"_require_plain()\n"					/* 35 */
	"{\n"
	"\tif [ -z \"$X\" ]; then\n"
	"\t\techo \"no { here }\"\n"
	"\tfi\n"
	"}\n"							/* 40 */
	"\n"
	"_require_outer()\n"
	"{\n"
	"\t_require_plain\n"
	"\t[ $FSTYP = btrfs ] && _require_far\n"		/* 45 */
	"\t_require_gadget\n"
	"}\n"
	"_require_far() { _wants_kernel_commit aaaa00000004 far; }\n";

static const char common_xfs[] =
	"_require_xfs_thing() {\n"				/* 1 */
	"\t_fixed_by_kernel_commit bbbb00000001 \"xfs: thing\"\n"
	"}\n"
	"\n"
	"_unclosed_helper()\n"					/* 5 */
	"{\n"
	"\tif true; then\n"
	"\t\t_fixed_by_kernel_commit bbbb00000002 \"xfs: unclosed\"\n"
	"\tfi\n";

static struct testannot_helpers *load_helpers(struct testannot_set *set)
{
	struct testannot_helpers *h = testannot_helpers_new();

	parse_common(h, set, "common/rc", common_rc);
	parse_common(h, set, "common/xfs", common_xfs);
	testannot_helpers_finish(h);
	return h;
}

static void test_fstests_helpers(void **state)
{
	static const char test1[] =
		". ./common/preamble\n"				/* 1 */
		"_begin_fstest auto\n"
		"_require_widget\n"
		"_require_widget\n"
		"_require_xfs_thing\n"				/* 5 */
		"_fixed_by_kernel_commit cccc00000001 \"direct\"\n";
	static const char test2[] =
		"_require_outer\n"				/* 1 */
		"_unclosed_helper\n"
		"_require_undefined\n";
	static const char test3[] =
		"[ $FSTYP = btrfs ] && _require_widget\n"	/* 1 */
		"_fixed_by_kernel_commit cccc00000002 \"the wrapper\"\n";
	static const char test4[] = "_require_plain\n";
	struct testannot_set set;
	struct testannot_helpers *h;
	const struct testannot *it;

	(void)state;
	testannot_set_init(&set);
	h = load_helpers(&set);
	/* Only the helper body that does not close is a problem. */
	assert_int_equal(set.nr_problems, 1);
	check_problem(&set.problems[0], "common/xfs", 5,
		      "helper '_unclosed_helper' is not closed");
	assert_int_equal(set.nr, 0);

	/* Direct, through a cycle, each once: sorted by file and line. */
	parse_test(&set, h, "xfs/601", test1);
	testannot_set_sort(&set);
	assert_int_equal(set.nr, 4);
	it = set.items;
	check_item(&it[0], "xfs/601", FIXED, KCOMMIT, "aaaa00000002",
		   "widget: fix probe", NULL, "common/rc", 25,
		   "common/rc:_require_widget");
	check_item(&it[1], "xfs/601", WANTS, "_wants_kernel_commit",
		   "aaaa00000003", "gadget: add ioctl", "xfs", "common/rc", 31,
		   "common/rc:_require_widget");
	check_item(&it[2], "xfs/601", FIXED, KCOMMIT, "bbbb00000001",
		   "xfs: thing", NULL, "common/xfs", 2,
		   "common/xfs:_require_xfs_thing");
	check_item(&it[3], "xfs/601", FIXED, KCOMMIT, "cccc00000001",
		   "direct", NULL, "tests/xfs/601", 6, NULL);
	testannot_set_release(&set);

	/* Transitive: via names the helper the test calls. */
	parse_test(&set, h, "xfs/602", test2);
	testannot_set_sort(&set);
	assert_int_equal(set.nr, 4);
	it = set.items;
	check_item(&it[0], "xfs/602", FIXED, KCOMMIT, "aaaa00000002",
		   "widget: fix probe", NULL, "common/rc", 25,
		   "common/rc:_require_outer");
	check_item(&it[1], "xfs/602", WANTS, "_wants_kernel_commit",
		   "aaaa00000003", "gadget: add ioctl", "xfs", "common/rc", 31,
		   "common/rc:_require_outer");
	/* Called only on btrfs, by _require_outer. */
	check_item(&it[2], "xfs/602", WANTS, "_wants_kernel_commit",
		   "aaaa00000004", "far", "btrfs", "common/rc", 48,
		   "common/rc:_require_outer");
	/* A helper whose body does not close still passes on what it has. */
	check_item(&it[3], "xfs/602", FIXED, KCOMMIT, "bbbb00000002",
		   "xfs: unclosed", NULL, "common/xfs", 8,
		   "common/xfs:_unclosed_helper");
	testannot_set_release(&set);

	/*
	 * A call only on btrfs: its annotations get btrfs, unless they
	 * have a filesystem of their own.  _fixed_by_kernel_commit is
	 * an annotation, not a call of the wrapper of that name.
	 */
	parse_test(&set, h, "generic/603", test3);
	testannot_set_sort(&set);
	assert_int_equal(set.nr, 3);
	it = set.items;
	check_item(&it[0], "generic/603", FIXED, KCOMMIT, "aaaa00000002",
		   "widget: fix probe", "btrfs", "common/rc", 25,
		   "common/rc:_require_widget");
	check_item(&it[1], "generic/603", WANTS, "_wants_kernel_commit",
		   "aaaa00000003", "gadget: add ioctl", "xfs", "common/rc", 31,
		   "common/rc:_require_widget");
	check_item(&it[2], "generic/603", FIXED, KCOMMIT, "cccc00000002",
		   "the wrapper", NULL, "tests/generic/603", 2, NULL);
	testannot_set_release(&set);

	/* A helper without annotations passes nothing on. */
	parse_test(&set, h, "generic/604", test4);
	assert_int_equal(set.nr, 0);
	assert_int_equal(set.nr_problems, 0);
	testannot_set_release(&set);

	/* Without helpers, only what the test itself says. */
	parse_test(&set, NULL, "xfs/601", test1);
	assert_int_equal(set.nr, 1);
	assert_string_equal(set.items[0].sha, "cccc00000001");
	testannot_set_release(&set);
	testannot_helpers_free(h);
}

/* Helpers that call each other in a long ring, and a deep chain. */
static void test_fstests_helper_graph(void **state)
{
	struct strbuf common = STRBUF_INIT;
	struct testannot_set set;
	struct testannot_helpers *h;
	size_t i, n = 2000;

	(void)state;
	for (i = 0; i < n; i++) {
		strbuf_addf(&common, "_ring_%zu()\n{\n", i);
		if (i % 500 == 250)
			strbuf_addf(&common,
				    "\t_fixed_by_kernel_commit %012zx \"ring %zu\"\n",
				    i, i);
		strbuf_addf(&common, "\t_ring_%zu\n\t_ring_%zu\n}\n",
			    (i + 1) % n, (i * 7) % n);
	}
	testannot_set_init(&set);
	h = testannot_helpers_new();
	testannot_parse_fstests_common(h, &set, "common/ring", common.buf,
				       common.len);
	testannot_helpers_finish(h);
	assert_int_equal(set.nr_problems, 0);
	parse_test(&set, h, "generic/700", "_ring_1999\n_ring_3\n");
	testannot_set_sort(&set);
	assert_int_equal(set.nr, 4);
	for (i = 0; i < 4; i++) {
		char sha[16];

		snprintf(sha, sizeof(sha), "%012zx", 250 + 500 * i);
		assert_string_equal(set.items[i].sha, sha);
		assert_string_equal(set.items[i].via, "common/ring:_ring_1999");
	}
	testannot_set_release(&set);
	testannot_helpers_free(h);
	strbuf_release(&common);
}

static const char ltp_widget01[] =
	"// SPDX-License-Identifier: GPL-2.0-or-later\n"	/* 1 */
	"/*\n"
	" * Copyright (c) 2099 Nobody\n"
	" *\n"
	" * Regression test for {\"linux-git\", \"000000000000\"}.\n" /* 5 */
	" */\n"
	"\n"
	"#include \"tst_test.h\"\n"
	"\n"
	"static void run(void)\n"				/* 10 */
	"{\n"
	"\ttst_res(TPASS, \"{\\\"linux-git\\\", \\\"111111111111\\\"}\");\n"
	"}\n"
	"\n"
	"static struct tst_test test = {\n"			/* 15 */
	"\t.test_all = run,\n"
	"\t.tags = (const struct tst_tag[]) {\n"
	"\t\t{\"linux-git\", \"aaaa11112222\"},\n"
	"\t\t{\"linux-stable-git\", \"bbbb11112222\"},\n"
	"\t\t{\"CVE\", \"2099-12345\"},\n"			/* 20 */
	"\t\t// {\"linux-git\", \"cccc11112222\"},\n"
	"\t\t{\"linux-git\", \"dddd1111\" /* split */ \"2222\"},\n"
	"\t\t{\"linux-git\",\n"
	"\t\t \"eeee11112222\"},\n"
	"\t\t{\"glibc-git\", \"ffff11112222\"},\n"		/* 25 */
	"\t\t{\"linux-\" \"git\", \"abab11112222\"},\n"
	"\t\t{}\n"
	"\t}\n"
	"};\n";

static const char ltp_widget02[] =
	"#include \"tst_test.h\"\n"				/* 1 */
	"\n"
	"static struct tst_tag tags[] = {\n"
	"\t{\"linux-git\", \"abcdef012345\"},\n"
	"\t{\"CVE\", \"2098-\"\n"				/* 5 */
	"\t\t\"00001\"},\n"
	"\t{NULL, NULL}\n"
	"};\n"
	"\n"
	"/* {\"CVE\", \"2097-0001\"} is not here. */\n"		/* 10 */
	"static struct tst_test test = {\n"
	"\t.tags = tags,\n"
	"};\n";

static void test_ltp_tags(void **state)
{
	struct testannot_set set;
	const struct testannot *it;
	const char *f1 = "testcases/kernel/syscalls/widget/widget01.c";
	const char *f2 = "testcases/kernel/syscalls/widget/widget02.c";

	(void)state;
	testannot_set_init(&set);
	parse_ltp(&set, "widget01", f1, ltp_widget01);
	assert_int_equal(set.nr_problems, 0);
	assert_int_equal(set.nr, 6);
	it = set.items;
	check_item(&it[0], "widget01", FIXED, "linux-git", "aaaa11112222",
		   NULL, NULL, f1, 18, NULL);
	check_item(&it[1], "widget01", TESTANNOT_STABLE, "linux-stable-git",
		   "bbbb11112222", NULL, NULL, f1, 19, NULL);
	check_item(&it[2], "widget01", TESTANNOT_CVE, "CVE", "2099-12345",
		   NULL, NULL, f1, 20, NULL);
	check_item(&it[3], "widget01", FIXED, "linux-git", "dddd11112222",
		   NULL, NULL, f1, 22, NULL);
	check_item(&it[4], "widget01", FIXED, "linux-git", "eeee11112222",
		   NULL, NULL, f1, 23, NULL);
	check_item(&it[5], "widget01", FIXED, "linux-git", "abab11112222",
		   NULL, NULL, f1, 26, NULL);
	testannot_set_release(&set);

	testannot_set_init(&set);
	parse_ltp(&set, "widget02", f2, ltp_widget02);
	assert_int_equal(set.nr_problems, 0);
	assert_int_equal(set.nr, 2);
	check_item(&set.items[0], "widget02", FIXED, "linux-git",
		   "abcdef012345", NULL, NULL, f2, 4, NULL);
	check_item(&set.items[1], "widget02", TESTANNOT_CVE, "CVE",
		   "2098-00001", NULL, NULL, f2, 5, NULL);
	testannot_set_release(&set);
}

static void test_ltp_problems(void **state)
{
	static const char text[] =
		"static struct tst_tag tags[] = {\n"		/* 1 */
		"\t{\"linux-git\"},\n"
		"\t{\"linux-git\", SHA_FROM_A_MACRO},\n"
		"\t{\"CVE\", },\n"
		"\t{\"linux-git\", \"012345678901\"},\n"	/* 5 */
		"\tchar c = '\"';\n"
		"\t{\"linux-stable-git\",\n";
	static const char open_comment[] =
		"{\"linux-git\", \"0a0a0a0a0a0a\"}\n"		/* 1 */
		"/* never\n"
		"   closed {\"linux-git\", \"0b0b0b0b0b0b\"}\n";
	static const char open_string[] =
		"{\"linux-git\", \"0c0c0c0c\n"			/* 1 */
		"{\"linux-git\", \"0d0d0d0d0d0d\"}\n";
	struct testannot_set set;
	const char *f = "testcases/kernel/broken/broken01.c";

	(void)state;
	testannot_set_init(&set);
	parse_ltp(&set, "broken01", f, text);
	assert_int_equal(set.nr_problems, 4);
	check_problem(&set.problems[0], f, 2,
		      "tag 'linux-git' without a value");
	check_problem(&set.problems[1], f, 3,
		      "tag 'linux-git' without a value");
	check_problem(&set.problems[2], f, 4, "tag 'CVE' without a value");
	check_problem(&set.problems[3], f, 7,
		      "tag 'linux-stable-git' without a value");
	assert_int_equal(set.nr, 1);
	check_item(&set.items[0], "broken01", FIXED, "linux-git",
		   "012345678901", NULL, NULL, f, 5, NULL);
	testannot_set_release(&set);

	testannot_set_init(&set);
	parse_ltp(&set, "broken02", f, open_comment);
	assert_int_equal(set.nr_problems, 1);
	check_problem(&set.problems[0], f, 2, "comment is not closed");
	assert_int_equal(set.nr, 1);
	assert_string_equal(set.items[0].sha, "0a0a0a0a0a0a");
	testannot_set_release(&set);

	/* A string literal ends with its line, as a problem. */
	testannot_set_init(&set);
	parse_ltp(&set, "broken03", f, open_string);
	assert_int_equal(set.nr_problems, 1);
	check_problem(&set.problems[0], f, 1, "quote is not closed");
	assert_int_equal(set.nr, 2);
	check_item(&set.items[0], "broken03", FIXED, "linux-git", "0c0c0c0c",
		   NULL, NULL, f, 1, NULL);
	check_item(&set.items[1], "broken03", FIXED, "linux-git",
		   "0d0d0d0d0d0d", NULL, NULL, f, 2, NULL);
	testannot_set_release(&set);
}

/* The shell loader's metadata: the "# env" JSON comment block. */
static void test_ltp_shell(void **state)
{
	static const char good[] =
		"#!/bin/sh\n"						/* 1 */
		"# SPDX-License-Identifier: GPL-2.0-or-later\n"
		"#\n"
		"# ---\n"
		"# doc\n"						/* 5 */
		"# [\"linux-git\", \"0000deadbeef\"] in the doc block\n"
		"# ---\n"
		"#\n"
		"# ---\n"
		"# env\n"						/* 10 */
		"# {\n"
		"#  \"needs_root\": true,\n"
		"#  \"tags\": [\n"
		"#   [\"linux-git\", \"832478cd342ab\"],\n"
		"#   [\"glibc-git\", \"aaaa0000bbbb\"],\n"		/* 15 */
		"#   [\"linux-stable-git\", \"1234567890ab\"], \r\n"
		"#   [\"CVE\", \"2099-999\"]\n"
		"#  ]\n"
		"# }\n"
		"# ---\n"						/* 20 */
		"\n"
		". tst_loader.sh\n"
		"tst_res TFAIL \"[\\\"linux-git\\\", \\\"ffff00000000\\\"]\"\n";
	static const char bad[] =
		"# ---\n"						/* 1 */
		"# env\n"
		"# {\n"
		"#  \"tags\": [\n"
		"#   [\"linux-git\"],\n"				/* 5 */
		"#   [\"CVE\", \"2099-1\"]\n"
		"#  ]\n"
		"# }\n"
		"# ---\n";
	static const char none[] =
		"#!/bin/sh\n"
		"# a helper: no metadata\n"
		"tst_res TINFO \"[\\\"linux-git\\\", \\\"0123456789ab\\\"]\"\n";
	struct testannot_set set;
	const char *f = "testcases/kernel/fs/shelly/shelly01.sh";

	(void)state;
	testannot_set_init(&set);
	assert_int_equal(testannot_parse_ltp_shell(&set, "shelly01", f, good,
						   strlen(good)), 1);
	assert_int_equal(set.nr_problems, 0);
	assert_int_equal(set.nr, 3);
	check_item(&set.items[0], "shelly01", FIXED, "linux-git",
		   "832478cd342ab", NULL, NULL, f, 14, NULL);
	check_item(&set.items[1], "shelly01", TESTANNOT_STABLE,
		   "linux-stable-git", "1234567890ab", NULL, NULL, f, 16, NULL);
	check_item(&set.items[2], "shelly01", TESTANNOT_CVE, "CVE", "2099-999",
		   NULL, NULL, f, 17, NULL);
	testannot_set_release(&set);

	testannot_set_init(&set);
	assert_int_equal(testannot_parse_ltp_shell(&set, "shelly02", f, bad,
						   strlen(bad)), 1);
	assert_int_equal(set.nr_problems, 1);
	check_problem(&set.problems[0], f, 5, "'tags' of the env block is not "
		      "an array of [name, value] pairs");
	assert_int_equal(set.nr, 0);
	testannot_set_release(&set);

	testannot_set_init(&set);
	assert_int_equal(testannot_parse_ltp_shell(&set, "helper", f, none,
						   strlen(none)), 0);
	assert_int_equal(set.nr + set.nr_problems, 0);
	testannot_set_release(&set);
}

static void test_sort(void **state)
{
	static const char two_on_a_line[] =
		"_fixed_by_kernel_commit 2222222 b; _fixed_by_kernel_commit 1111111 a\n";
	struct testannot_set set;
	struct testannot_helpers *h;

	(void)state;
	testannot_set_init(&set);
	h = load_helpers(&set);
	testannot_set_release(&set);
	parse_test(&set, h, "xfs/2", "_fixed_by_kernel_commit 3333333 c\n");
	parse_test(&set, h, "xfs/1", two_on_a_line);
	parse_ltp(&set, "abc01", "testcases/abc01.c",
		  "{\"linux-git\", \"4444444\"}\n");
	parse_test(&set, h, "xfs/1", "\n_require_xfs_thing\n");
	testannot_set_sort(&set);
	assert_int_equal(set.nr, 5);
	/* By test, then file, then line, then as read. */
	assert_string_equal(set.items[0].sha, "4444444");
	assert_string_equal(set.items[1].sha, "bbbb00000001");
	assert_string_equal(set.items[2].sha, "2222222");
	assert_string_equal(set.items[3].sha, "1111111");
	assert_string_equal(set.items[4].sha, "3333333");
	testannot_set_release(&set);
	testannot_helpers_free(h);

	/* Nothing to sort. */
	testannot_set_init(&set);
	testannot_set_sort(&set);
	assert_null(set.items);
	testannot_set_release(&set);
}

/* --- checkouts on disk ------------------------------------------------- */

static void write_file(const char *dir, const char *name, const char *text)
{
	char *path = xstrfmt("%s/%s", dir, name);
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	size_t len = strlen(text);

	assert_true(fd >= 0);
	assert_int_equal(write(fd, text, len), (ssize_t)len);
	close(fd);
	free(path);
}

static void make_dir(const char *dir, const char *name)
{
	char *path = xstrfmt("%s/%s", dir, name);

	assert_int_equal(mkdir(path, 0755), 0);
	free(path);
}

static void make_link(const char *dir, const char *name, const char *target)
{
	char *path = xstrfmt("%s/%s", dir, name);

	assert_int_equal(symlink(target, path), 0);
	free(path);
}

/* rm -r of what the tests make: directories, files and links. */
static void remove_tree(const char *path)
{
	struct strbuf cmd = STRBUF_INIT;

	assert_non_null(strstr(path, "/tmp/test_testannot."));
	strbuf_addf(&cmd, "rm -rf '%s'", path);
	assert_int_equal(system(cmd.buf), 0);
	strbuf_release(&cmd);
}

static void test_read_fstests(void **state)
{
	char dir[] = "/tmp/test_testannot.XXXXXX";
	struct testannot_set set;
	struct capture c;
	char *err, *expect, *slash;
	const struct testannot *it;

	(void)state;
	assert_non_null(mkdtemp(dir));
	make_dir(dir, "common");
	write_file(dir, "common/rc", common_rc);
	write_file(dir, "common/xfs", common_xfs);
	make_dir(dir, "common/subdir");
	write_file(dir, "common/subdir/nested",
		   "_require_widget() { _fixed_by_kernel_commit 999999999 no; }\n");
	make_dir(dir, "tests");
	make_dir(dir, "tests/xfs");
	make_dir(dir, "tests/generic");
	make_dir(dir, "tests/btrfs");
	write_file(dir, "tests/xfs/002",
		   "_fixed_by_kernel_commit 0200000002 \"xfs: two\"\n");
	write_file(dir, "tests/xfs/001",
		   "#! /bin/bash\n"
		   "_require_xfs_thing\n"
		   "_fixed_by_kernel_commit 0100000001 \"xfs: one\"\n");
	write_file(dir, "tests/xfs/001.out", "QA output created by 001\n");
	write_file(dir, "tests/xfs/Makefile",
		   "_fixed_by_kernel_commit 0300000003 \"not a test\"\n");
	write_file(dir, "tests/generic/010", "echo nothing to see\n");
	write_file(dir, "tests/README", "tests/DIR/NNN\n");
	make_link(dir, "tests/generic/011", "../xfs/001");
	make_link(dir, "tests/linked", "xfs");
	make_dir(dir, "tests/generic/012");

	testannot_set_init(&set);
	capture_begin(&c);
	assert_int_equal(testannot_read_fstests(&set, dir), 0);
	err = capture_end(&c);
	/* The link where a test would be is named; directories are not. */
	expect = xstrfmt("warning: skipping '%s/tests/generic/011': a symbolic "
			 "link, not a regular file\n", dir);
	assert_string_equal(err, expect);
	free(expect);
	free(err);
	/* xfs/001, xfs/002, generic/010; no link, no directory. */
	assert_int_equal(set.nr_tests, 3);
	assert_int_equal(set.nr_problems, 1);
	check_problem(&set.problems[0], "common/xfs", 5,
		      "helper '_unclosed_helper' is not closed");
	assert_int_equal(set.nr, 3);
	it = set.items;
	check_item(&it[0], "xfs/001", FIXED, KCOMMIT, "bbbb00000001",
		   "xfs: thing", NULL, "common/xfs", 2,
		   "common/xfs:_require_xfs_thing");
	check_item(&it[1], "xfs/001", FIXED, KCOMMIT, "0100000001",
		   "xfs: one", NULL, "tests/xfs/001", 3, NULL);
	check_item(&it[2], "xfs/002", FIXED, KCOMMIT, "0200000002",
		   "xfs: two", NULL, "tests/xfs/002", 1, NULL);
	testannot_set_release(&set);

	/* A file that cannot be read (unless root, who reads it anyway). */
	if (geteuid()) {
		char *path = xstrfmt("%s/tests/xfs/001", dir);

		assert_int_equal(chmod(path, 0), 0);
		testannot_set_init(&set);
		capture_begin(&c);
		assert_int_equal(testannot_read_fstests(&set, dir), -1);
		err = capture_end(&c);
		expect = xstrfmt("error: cannot read '%s': %s\n", path,
				 strerror(EACCES));
		assert_string_equal(err, expect);
		/* The other tests are read. */
		assert_int_equal(set.nr_tests, 2);
		assert_int_equal(set.nr, 1);
		testannot_set_release(&set);
		assert_int_equal(chmod(path, 0644), 0);
		free(err);
		free(expect);
		free(path);
	}

	/* Without common/, there are no helpers; a trailing slash is fine. */
	remove_tree(dir);
	assert_int_equal(mkdir(dir, 0755), 0);
	make_dir(dir, "tests");
	make_dir(dir, "tests/xfs");
	write_file(dir, "tests/xfs/001", "_require_xfs_thing\n");
	slash = xstrfmt("%s//", dir);
	testannot_set_init(&set);
	assert_int_equal(testannot_read_fstests(&set, slash), 0);
	assert_int_equal(set.nr_tests, 1);
	assert_int_equal(set.nr, 0);
	testannot_set_release(&set);
	free(slash);

	/* Without tests/, an error. */
	remove_tree(dir);
	assert_int_equal(mkdir(dir, 0755), 0);
	make_dir(dir, "common");
	testannot_set_init(&set);
	capture_begin(&c);
	assert_int_equal(testannot_read_fstests(&set, dir), -1);
	err = capture_end(&c);
	expect = xstrfmt("error: cannot read '%s/tests': "
			 "No such file or directory\n", dir);
	assert_string_equal(err, expect);
	assert_int_equal(set.nr_tests, 0);
	testannot_set_release(&set);
	free(err);
	free(expect);
	remove_tree(dir);
}

static void test_read_ltp(void **state)
{
	char dir[] = "/tmp/test_testannot.XXXXXX";
	struct testannot_set set;
	struct capture c;
	char *err, *expect;
	const struct testannot *it;

	(void)state;
	assert_non_null(mkdtemp(dir));
	make_dir(dir, "testcases");
	make_dir(dir, "testcases/kernel");
	make_dir(dir, "testcases/kernel/syscalls");
	make_dir(dir, "testcases/kernel/syscalls/widget");
	make_dir(dir, "testcases/kernel/fs");
	make_dir(dir, "testcases/kernel/fs/aaa");
	make_dir(dir, "testcases/cve");
	write_file(dir, "testcases/kernel/syscalls/widget/widget02.c",
		   ltp_widget02);
	write_file(dir, "testcases/kernel/syscalls/widget/widget01.c",
		   ltp_widget01);
	write_file(dir, "testcases/kernel/syscalls/widget/widget.h",
		   "{\"linux-git\", \"0e0e0e0e0e0e\"}\n");
	write_file(dir, "testcases/kernel/syscalls/widget/Makefile",
		   "include $(top_srcdir)/include/mk/testcases.mk\n");
	write_file(dir, "testcases/kernel/fs/aaa/aaa01.c",
		   "static struct tst_test test = {\n"
		   "\t.tags = (const struct tst_tag[]) {\n"
		   "\t\t{\"linux-git\", \"0f0f0f0f0f0f\"},\n"
		   "\t\t{}\n"
		   "\t},\n"
		   "};\n");
	write_file(dir, "testcases/cve/cve-2099-0001.c",
		   "\t\t{\"CVE\", \"2099-0001\"},\n");
	write_file(dir, "testcases/kernel/.c", "{\"CVE\", \"2099-0002\"}\n");
	make_link(dir, "testcases/linked", "kernel");
	make_link(dir, "testcases/cve/linked.c", "cve-2099-0001.c");

	testannot_set_init(&set);
	capture_begin(&c);
	assert_int_equal(testannot_read_ltp(&set, dir), 0);
	err = capture_end(&c);
	expect = xstrfmt("warning: skipping '%s/testcases/cve/linked.c': a "
			 "symbolic link, not a regular file\n", dir);
	assert_string_equal(err, expect);
	free(expect);
	free(err);
	assert_int_equal(set.nr_tests, 4);
	assert_int_equal(set.nr_problems, 0);
	assert_int_equal(set.nr, 10);
	it = set.items;
	check_item(&it[0], "aaa01", FIXED, "linux-git", "0f0f0f0f0f0f", NULL,
		   NULL, "testcases/kernel/fs/aaa/aaa01.c", 3, NULL);
	check_item(&it[1], "cve-2099-0001", TESTANNOT_CVE, "CVE", "2099-0001",
		   NULL, NULL, "testcases/cve/cve-2099-0001.c", 1, NULL);
	check_item(&it[2], "widget01", FIXED, "linux-git", "aaaa11112222",
		   NULL, NULL, "testcases/kernel/syscalls/widget/widget01.c",
		   18, NULL);
	assert_string_equal(it[7].test, "widget01");
	assert_int_equal(it[7].line, 26);
	check_item(&it[8], "widget02", FIXED, "linux-git", "abcdef012345",
		   NULL, NULL, "testcases/kernel/syscalls/widget/widget02.c",
		   4, NULL);
	check_item(&it[9], "widget02", TESTANNOT_CVE, "CVE", "2098-00001",
		   NULL, NULL, "testcases/kernel/syscalls/widget/widget02.c",
		   5, NULL);

	/* A second checkout adds to the set, which stays sorted. */
	remove_tree(dir);
	assert_int_equal(mkdir(dir, 0755), 0);
	make_dir(dir, "testcases");
	write_file(dir, "testcases/bbb01.c", "{\"linux-git\", \"0123456\"}\n");
	assert_int_equal(testannot_read_ltp(&set, dir), 0);
	assert_int_equal(set.nr_tests, 5);
	assert_int_equal(set.nr, 11);
	assert_string_equal(set.items[1].test, "bbb01");
	testannot_set_release(&set);

	/* Without testcases/, an error. */
	remove_tree(dir);
	assert_int_equal(mkdir(dir, 0755), 0);
	testannot_set_init(&set);
	capture_begin(&c);
	assert_int_equal(testannot_read_ltp(&set, dir), -1);
	err = capture_end(&c);
	expect = xstrfmt("error: cannot read '%s/testcases': "
			 "No such file or directory\n", dir);
	assert_string_equal(err, expect);
	assert_int_equal(set.nr_tests, 0);
	assert_int_equal(set.nr, 0);
	testannot_set_release(&set);
	free(err);
	free(expect);
	remove_tree(dir);
}

/* --- robustness -------------------------------------------------------- */

static void assert_sane(const struct testannot_set *set)
{
	size_t i;

	for (i = 0; i < set->nr; i++) {
		const struct testannot *a = &set->items[i];

		assert_non_null(a->test);
		assert_non_null(a->suite);
		assert_non_null(a->how);
		assert_non_null(a->sha);
		assert_non_null(a->file);
		assert_true(a->line >= 1);
	}
	for (i = 0; i < set->nr_problems; i++) {
		assert_non_null(set->problems[i].file);
		assert_non_null(set->problems[i].message);
		assert_true(set->problems[i].line >= 1);
	}
}

/* Parses buf[0..len) every way there is. */
static void parse_all_ways(const char *buf, size_t len)
{
	struct testannot_set set;
	struct testannot_helpers *h = testannot_helpers_new();

	testannot_set_init(&set);
	testannot_parse_fstests_common(h, &set, "common/x", buf, len);
	testannot_parse_fstests_common(h, &set, "common/y", buf, len);
	testannot_helpers_finish(h);
	testannot_parse_fstests(&set, h, "x/1", "tests/x/1", buf, len);
	testannot_parse_ltp(&set, "x01", "testcases/x01.c", buf, len);
	assert_sane(&set);
	testannot_set_sort(&set);
	testannot_set_release(&set);
	testannot_helpers_free(h);
}

/* A small xorshift generator, so that every run reads the same bytes. */
static uint32_t next_random(uint32_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 17;
	*s ^= *s << 5;
	return *s;
}

/*
 * Every prefix of each fixture (cut in a quote, a helper body, a tag
 * pair), random text made of pieces of shell and C syntax, and deep
 * nesting: no crash, no hang, no leak, a sane result.
 */
static void test_robustness(void **state)
{
	static const char *const fixtures[] = {
		forms_test, fstyp_test, not_annotations_test, common_rc,
		common_xfs, ltp_widget01, ltp_widget02,
	};
	static const char *const pieces[] = {
		"\"", "'", "`", "$(", "${", "$((", "((", "))", "(", ")", "{",
		"}", "{ ", " }", "\\", "\\\n", "\n", " ", "#", ";", ";;", "&&",
		"||", "|", "<<EOF\n", "<<-E\n", "\nEOF\n", "\tE\n", "<", ">",
		"2>&1", "if ", "then ", "else ", "elif ", "fi", "case ", " in ",
		"esac", "for ", "do ", "done", "while ", "function ", "f() ",
		"f", "g() {\n", "_fixed_by_kernel_commit ",
		"_wants_git_commit ", "_fixed_by_fs_commit ", "kernel ",
		"abc1234 ", "$FSTYP", "[ ", " ]", " = ", "xfs", "!", "$'",
		"a=(", "/*", "*/", "//",
		"{\"linux-git\", ", "\"CVE\"", ", ", "\"0123456\"}", "'\"'",
		"\0",
	};
	struct strbuf text = STRBUF_INIT;
	uint32_t seed = 0x5eed1234;
	size_t i, j, n;
	char *deep;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(fixtures); i++)
		for (n = 0; n <= strlen(fixtures[i]); n++)
			parse_all_ways(fixtures[i], n);

	for (i = 0; i < 3000; i++) {
		strbuf_reset(&text);
		n = next_random(&seed) % 60;
		for (j = 0; j < n; j++) {
			uint32_t r = next_random(&seed);

			if (r % 8) {
				const char *p = pieces[(r >> 8) %
						       ARRAY_SIZE(pieces)];

				strbuf_add(&text, p, *p ? strlen(p) : 1);
			} else {
				strbuf_addch(&text, (int)(r >> 8) & 0xff);
			}
		}
		parse_all_ways(text.buf, text.len);
	}

	/* Nesting as deep as the input: no recursion to run out of. */
	n = 200000;
	deep = xmalloc(n);
	for (i = 0; i < n; i++)
		deep[i] = "$(\"`{("[i % 6];
	parse_all_ways(deep, n);
	for (i = 0; i < n; i++)
		deep[i] = i % 2 ? '\n' : '{';
	parse_all_ways(deep, n);
	for (i = 0; i < n; i++)
		deep[i] = "if x\nthen\n"[i % 10];
	parse_all_ways(deep, n);
	/* Quotes that never close, over and over. */
	for (i = 0; i < n; i++)
		deep[i] = "'\"`$(${"[i % 7];
	parse_all_ways(deep, n);
	free(deep);
	strbuf_release(&text);

	/* A buffer that is NULL or empty. */
	parse_all_ways(NULL, 0);
	parse_all_ways("", 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_kind_names),
		cmocka_unit_test(test_sha_ok),
		cmocka_unit_test(test_fstests_forms),
		cmocka_unit_test(test_fstests_fstyp),
		cmocka_unit_test(test_fstests_not_annotations),
		cmocka_unit_test(test_fstests_placeholders),
		cmocka_unit_test(test_nul_bytes),
		cmocka_unit_test(test_fstests_problems),
		cmocka_unit_test(test_fstests_helpers),
		cmocka_unit_test(test_fstests_helper_graph),
		cmocka_unit_test(test_ltp_tags),
		cmocka_unit_test(test_ltp_problems),
		cmocka_unit_test(test_sort),
		cmocka_unit_test(test_read_fstests),
		cmocka_unit_test(test_read_ltp),
		cmocka_unit_test(test_ltp_shell),
		cmocka_unit_test(test_robustness),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
