/*
 * Unit tests for the backport lines: the rule-file directive `backport`
 * and message_read_backports(), which reads the upstream ids a message
 * names by them, and the reason of a revert without them.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "formats/message.h"
#include "formats/rules.h"
#include "base/strbuf.h"
#include "base/util.h"
#include "capture.h"
#include "testrepo.h"

#define ID40 "0123456789abcdef0123456789abcdef01234567"
#define ID40B "fedcba9876543210fedcba9876543210fedcba98"

/* Xen's form: a line of its own, after the trailers. */
#define XEN_RULES "backport master message /^master commit: (?<id>[0-9a-f]{40})$/m\n"
static const char xen_line[] = "x\n\nmaster commit: " ID40 "\n";

static void load_rules(struct ruleset *rs, const char *text)
{
	ruleset_init(rs);
	assert_int_equal(ruleset_load_buffer(rs, "t.rules", text, strlen(text)),
			 0);
}

/* Parses text and reads its backport lines by rs. */
static void read_msg(struct message *m, const char *text,
		     const struct ruleset *rs)
{
	message_init(m);
	assert_int_equal(message_parse(m, text, strlen(text)), 0);
	assert_int_equal(message_read_backports(m, text, strlen(text), rs), 0);
}

/* The kernel's three forms, as shipped in default.rules. */
static void test_kernel_forms(void **state)
{
	static const char kernel_line[] = "ext4: a\n\ncommit " ID40 " upstream.\n";
	struct ruleset rs;
	struct message m;

	(void)state;
	ruleset_init(&rs);
	testrepo_load_backports(&rs);
	assert_int_equal(rs.nr_backports, 3);
	read_msg(&m, "xfs: fix the quota reservation leak\n"
		 "\n"
		 "commit " ID40 " upstream.\n"
		 "\n"
		 "[ Upstream commit " ID40B " ]\n"
		 "  commit " ID40 " upstream\n"
		 "[upstream commit 00112233445566778899AABBCCDDEEFF00112233]\n"
		 "[ Upstream commit 1234567890ab ]\n"
		 "commit " ID40 "a upstream.\n"
		 "\n"
		 "The body mentions commit 5555555555555555555555555555555555555555"
		 " upstream.\n"
		 "\n"
		 "Signed-off-by: Kit <kit@example.org>\n"
		 "(cherry picked from commit 99887766554433221100ffeeddccbbaa99887766)\n",
		 &rs);
	assert_int_equal(m.nr_upstream, 4);
	assert_string_equal(m.upstream[0], ID40);
	assert_string_equal(m.upstream[1], ID40B);
	assert_string_equal(m.upstream[2],
			    "00112233445566778899aabbccddeeff00112233");
	assert_string_equal(m.upstream[3],
			    "99887766554433221100ffeeddccbbaa99887766");
	message_release(&m);

	read_msg(&m, "ext4: a\n\nNo backport here: commit 1234 upstream.\n", &rs);
	assert_int_equal(m.nr_upstream, 0);
	message_release(&m);

	/* The parser alone reads none: the forms are the rules'. */
	message_init(&m);
	message_parse(&m, kernel_line, strlen(kernel_line));
	assert_int_equal(m.nr_upstream, 0);
	message_release(&m);
	ruleset_release(&rs);
}

/*
 * The bracket form with a colon, "[ Upstream commit: <id> ]", as some
 * backports write it, and without spaces inside the brackets: each
 * names its commit.
 */
static void test_bracket_colon(void **state)
{
	struct ruleset rs;
	struct message m;

	(void)state;
	ruleset_init(&rs);
	testrepo_load_backports(&rs);
	read_msg(&m, "ext4: a\n\n[ Upstream commit: " ID40 " ]\n", &rs);
	assert_int_equal(m.nr_upstream, 1);
	assert_string_equal(m.upstream[0], ID40);
	message_release(&m);
	read_msg(&m, "ext4: a\n\n[Upstream commit:" ID40B "]\n", &rs);
	assert_int_equal(m.nr_upstream, 1);
	assert_string_equal(m.upstream[0], ID40B);
	message_release(&m);
	ruleset_release(&rs);
}

/* Xen folds a fix and its follow-up into one backport: both count. */
static void test_every_match(void **state)
{
	struct ruleset rs;
	struct message m;

	(void)state;
	load_rules(&rs, XEN_RULES);
	read_msg(&m, "xen/efi: fix boot\n\nBody.\n\n"
		 "Signed-off-by: A U Thor <author@example.com>\n"
		 "master commit: " ID40 "\n"
		 "master date: 2026-05-28 16:19:16 +0100\n"
		 "master commit: " ID40B "\n"
		 "master date: 2026-06-03 08:17:56 +0200\n"
		 "master commit: " ID40 "\n", &rs);
	assert_int_equal(m.nr_upstream, 2);
	assert_string_equal(m.upstream[0], ID40);
	assert_string_equal(m.upstream[1], ID40B);
	message_release(&m);

	/* A second read replaces the first. */
	read_msg(&m, xen_line, &rs);
	message_read_backports(&m, xen_line, strlen(xen_line), &rs);
	assert_int_equal(m.nr_upstream, 1);
	message_read_backports(&m, "x\n", 2, &rs);
	assert_int_equal(m.nr_upstream, 0);
	message_release(&m);
	ruleset_release(&rs);
}

/* Only a full id names a commit: a short one, a longer run, names none. */
static void test_short_ids_ignored(void **state)
{
	struct ruleset rs;
	struct message m;

	(void)state;
	load_rules(&rs, "backport up body /Upstream-commit: ([0-9a-f]{7,})/i\n"
		   "backport from body /Backport of ([0-9a-f]+)/\n");
	read_msg(&m, "x\n\nUpstream-commit: 0123456789ab\n"
		 "Upstream-commit: " ID40 "ff\n"
		 "Backport of " ID40B "\n"
		 "Backport of 1234567\n", &rs);
	assert_int_equal(m.nr_upstream, 1);
	assert_string_equal(m.upstream[0], ID40B);
	message_release(&m);

	/* A group of 40 inside a longer run of hex is no id either. */
	ruleset_release(&rs);
	load_rules(&rs, "backport mid body /[0-9a-f]([0-9a-f]{40})/\n");
	read_msg(&m, "x\n\na" ID40 "\n", &rs);
	assert_int_equal(m.nr_upstream, 0);
	message_release(&m);
	ruleset_release(&rs);
}

/* The group "id" when there is one, else the first. */
static void test_named_group(void **state)
{
	struct ruleset rs;
	struct message m;

	(void)state;
	load_rules(&rs, "backport jira body /^JIRA: ([A-Z]+-[0-9]+)\\ncommit (?<id>[0-9a-f]{40})$/m\n"
		   "backport first message /^Picked-from: ([0-9a-f]{40}) ([0-9a-f]{40})$/m\n");
	read_msg(&m, "x\n\nJIRA: RHEL-1234\ncommit " ID40 "\n\n"
		 "Picked-from: " ID40B " 00112233445566778899aabbccddeeff00112233\n",
		 &rs);
	assert_int_equal(m.nr_upstream, 2);
	assert_string_equal(m.upstream[0], ID40);
	assert_string_equal(m.upstream[1], ID40B);
	message_release(&m);
	ruleset_release(&rs);
}

/* Each field reads its part: a trailer's values, the subject, the body. */
static void test_fields(void **state)
{
	struct ruleset rs;
	struct message m;

	(void)state;
	load_rules(&rs, "backport trailer trailer:Upstream-commit /^([0-9a-f]{40})$/\n"
		   "backport subj subject /^\\[backport ([0-9a-f]{40})\\]/\n"
		   "backport text body /^Origin: ([0-9a-f]{40})$/m\n");
	read_msg(&m, "[backport " ID40 "] x\n\nOrigin: " ID40B "\n\n"
		 "Signed-off-by: A <a@example.com>\n"
		 "Upstream-commit: 00112233445566778899aabbccddeeff00112233\n"
		 "Origin: 99887766554433221100ffeeddccbbaa99887766\n", &rs);
	/* The last Origin: is a trailer, which the body does not hold. */
	assert_int_equal(m.nr_upstream, 3);
	assert_string_equal(m.upstream[0],
			    "00112233445566778899aabbccddeeff00112233");
	assert_string_equal(m.upstream[1], ID40);
	assert_string_equal(m.upstream[2], ID40B);
	message_release(&m);

	/* Without the raw text, "message" is the subject and the body. */
	ruleset_release(&rs);
	load_rules(&rs, XEN_RULES);
	message_init(&m);
	message_parse(&m, xen_line, strlen(xen_line));
	message_read_backports(&m, NULL, 0, &rs);
	assert_int_equal(m.nr_upstream, 1);
	message_release(&m);
	ruleset_release(&rs);
}

/* Loads text and checks the exact stderr of the loader. */
static void expect_errors(const char *text, const char *expected)
{
	struct ruleset rs;
	struct capture c;
	char *err;
	int ret;

	ruleset_init(&rs);
	capture_begin(&c);
	ret = ruleset_load_buffer(&rs, "t.rules", text, strlen(text));
	err = capture_end(&c);
	assert_string_equal(err, expected);
	assert_int_equal(ret, *expected ? -1 : 0);
	free(err);
	ruleset_release(&rs);
}

static void test_directive_errors(void **state)
{
	(void)state;
	expect_errors(XEN_RULES "backport cherry message /cherry picked from "
		      "commit ([0-9a-f]{40})/i\n", "");
	expect_errors(
		/* 1: no pattern */
		"backport a message\n"
		/* 2: no group for the id */
		"backport b message /master commit: [0-9a-f]{40}/\n"
		/* 3: a pattern that does not compile */
		"backport c message /master commit: ([0-9a-f]{40}/\n"
		/* 4: a field no message has */
		"backport d paths /^([0-9a-f]{40})/\n"
		/* 5: unless is for rules */
		"backport e message /x ([0-9a-f]{40})/ unless f\n"
		/* 6: a name used twice */
		"backport g message /y ([0-9a-f]{40})/\n"
		"backport g message /z ([0-9a-f]{40})/\n"
		/* 8: in a block */
		"subsystem s\npaths s/\n"
		"backport h message /w ([0-9a-f]{40})/\n"
		"end\n",
		"error: t.rules:1: 'backport' needs NAME FIELD /PATTERN/FLAGS\n"
		"error: t.rules:2: backport 'b' has no group for the commit id "
		"(as in /^master commit: (?<id>[0-9a-f]{40})$/m)\n"
		"error: t.rules:3: cannot compile pattern 'master commit: "
		"([0-9a-f]{40}': missing closing parenthesis at offset 28\n"
		"error: t.rules:4: backport 'd' reads field 'paths': a commit "
		"names commits in its subject, body, message or trailers\n"
		"error: t.rules:5: 'unless' is for rules: a backport applies "
		"whatever else matched\n"
		"error: t.rules:7: duplicate rule 'g' (first defined at "
		"t.rules:6)\n"
		"error: t.rules:10: 'backport' inside subsystem 's': backports "
		"are for every commit\n");
}

/* Why a revert says it reverts: the backport lines are not a reason. */
static void test_revert_reason(void **state)
{
	struct ruleset kernel, xen;
	struct message m;
	char *why, *long_msg;
	size_t i;

	(void)state;
	ruleset_init(&kernel);
	testrepo_load_backports(&kernel);
	load_rules(&xen, XEN_RULES);
	read_msg(&m, "Revert \"xen: fix the grant table\"\n\n"
		 "commit " ID40 " upstream.\n\n"
		 "This reverts commit " ID40 ".\n\n"
		 "Further fixes are needed\nbefore these can be considered.\n\n"
		 "A second paragraph.\n\n"
		 "Signed-off-by: A U Thor <author@example.com>\n", &kernel);
	why = message_revert_reason(&m, &kernel);
	assert_string_equal(why, "Further fixes are needed before these can "
			    "be considered.");
	free(why);
	/* Without the rules the line is the reason. */
	why = message_revert_reason(&m, NULL);
	assert_string_equal(why, "commit " ID40 " upstream.");
	free(why);
	message_release(&m);

	/* A project's form, in the middle of a paragraph (Xen). */
	read_msg(&m, "Revert \"xen/mm: allow deferred scrub\"\n\n"
		 "master commit: " ID40 "\n"
		 "This reverts commit 6228ea8acddadbd815f958fb1a867f54c01ddf78 and its\n"
		 "prereq 15cd2b8f1bac5f4adf0f8303ae79298a612b53e1 (\"xen/mm: remove\n"
		 "aliasing. of PGC_need_scrub\"). Further fixes are\n"
		 "needed before these can be considered for backporting.\n\n"
		 "Signed-off-by: A U Thor <author@example.com>\n", &xen);
	why = message_revert_reason(&m, &xen);
	assert_string_equal(why, "Further fixes are needed before these can "
			    "be considered for backporting.");
	free(why);
	message_release(&m);

	/* git revert --no-edit: no reason. */
	read_msg(&m, "Revert \"ext4: x\"\n\nThis reverts commit " ID40 ".\n",
		 &kernel);
	assert_null(message_revert_reason(&m, &kernel));
	message_release(&m);

	/* A long reason is cut at 300 bytes, never inside a character. */
	long_msg = xstrdup("Revert \"x\"\n\n");
	for (i = 0; i < 200; i++) {
		char *t = xstrfmt("%s\xc3\xa9", long_msg);

		free(long_msg);
		long_msg = t;
	}
	read_msg(&m, long_msg, &kernel);
	why = message_revert_reason(&m, &kernel);
	assert_int_equal(strlen(why), 299);
	assert_string_equal(why + 296, "...");
	free(why);
	message_release(&m);
	free(long_msg);
	ruleset_release(&kernel);
	ruleset_release(&xen);
}

/* Many ids, and lines built to be slow: the cost stays linear. */
static void test_many_ids(void **state)
{
	struct strbuf sb = STRBUF_INIT;
	struct ruleset rs;
	struct message m;
	int i;

	(void)state;
	ruleset_init(&rs);
	testrepo_load_backports(&rs);
	strbuf_addstr(&sb, "xfs: a big one\n\nBody.\n\n");
	for (i = 0; i < 5000; i++)
		strbuf_addf(&sb, "commit %040x upstream.\n", i % 100);
	for (i = 0; i < 20000; i++)
		strbuf_addstr(&sb, "[ upstream commit ");
	strbuf_addstr(&sb, "\n");
	for (i = 0; i < 20000; i++)
		strbuf_addstr(&sb, "cherry picked from commit ");
	read_msg(&m, sb.buf, &rs);
	assert_int_equal(m.nr_upstream, 100);
	assert_string_equal(m.upstream[99],
			    "0000000000000000000000000000000000000063");
	message_release(&m);
	strbuf_release(&sb);
	ruleset_release(&rs);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_kernel_forms),
		cmocka_unit_test(test_bracket_colon),
		cmocka_unit_test(test_every_match),
		cmocka_unit_test(test_short_ids_ignored),
		cmocka_unit_test(test_named_group),
		cmocka_unit_test(test_fields),
		cmocka_unit_test(test_directive_errors),
		cmocka_unit_test(test_revert_reason),
		cmocka_unit_test(test_many_ids),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
