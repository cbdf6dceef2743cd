/*
 * Unit tests for the commit message parser.  The messages are written
 * for these tests in the style of Linux filesystem commits; the ids in
 * them are made up.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <string.h>

#include "formats/message.h"
#include "base/strbuf.h"
#include "base/util.h"

#define ID40 "0123456789abcdef0123456789abcdef01234567"
#define ID40B "fedcba9876543210fedcba9876543210fedcba98"

static void parse(struct message *m, const char *text)
{
	message_init(m);
	assert_int_equal(message_parse(m, text, strlen(text)), 0);
}

static void assert_trailer(const struct message *m, size_t i,
			   const char *key, const char *val, unsigned lineno)
{
	assert_true(i < m->nr_trailers);
	assert_string_equal(m->trailers[i].key, key);
	assert_string_equal(m->trailers[i].val, val);
	assert_int_equal(m->trailers[i].lineno, lineno);
}

static void assert_diag(const struct message *m, size_t i, unsigned lineno,
			const char *msg)
{
	assert_true(i < m->nr_diags);
	assert_int_equal(m->diags[i].lineno, lineno);
	assert_string_equal(m->diags[i].msg, msg);
}

static void assert_fixes(const struct message *m, size_t i, const char *id,
			 const char *subject, unsigned lineno)
{
	assert_true(i < m->nr_fixes);
	assert_string_equal(m->fixes[i].id, id);
	if (subject)
		assert_non_null(m->fixes[i].subject);
	if (subject)
		assert_string_equal(m->fixes[i].subject, subject);
	else
		assert_null(m->fixes[i].subject);
	assert_int_equal(m->fixes[i].lineno, lineno);
}

/* Checks a stable tag; comment may be NULL. */
static void assert_stable(const struct message *m, size_t i, const char *addr,
			  const char *comment, int major, int minor)
{
	const struct stable_tag *t;

	assert_true(i < m->nr_stable);
	t = &m->stable[i];
	assert_string_equal(t->addr, addr);
	if (comment) {
		assert_non_null(t->comment);
		assert_string_equal(t->comment, comment);
	} else {
		assert_null(t->comment);
	}
	assert_int_equal(t->hint_major, major);
	assert_int_equal(t->hint_minor, minor);
}

static void test_subject_and_body(void **state)
{
	struct message m;

	(void)state;
	parse(&m, "  xfs: stop leaking the buffer in xfs_frob_dir  \n"
		  "\n"
		  "\n"
		  "When the lookup fails we return without releasing the\n"
		  "buffer.  Release it.\n"
		  "\n"
		  "Signed-off-by: Ann Author <ann@example.org>\n"
		  "\n\n");
	assert_string_equal(m.subject,
			    "xfs: stop leaking the buffer in xfs_frob_dir");
	assert_string_equal(m.body,
			    "When the lookup fails we return without releasing the\n"
			    "buffer.  Release it.\n"
			    "\n"
			    "Signed-off-by: Ann Author <ann@example.org>");
	assert_int_equal(m.nr_trailers, 1);
	assert_trailer(&m, 0, "Signed-off-by", "Ann Author <ann@example.org>", 7);
	assert_int_equal(m.is_revert, 0);
	assert_null(m.reverts_id);
	assert_null(m.reverts_subject);
	assert_int_equal(m.nr_diags, 0);
	message_release(&m);
}

static void test_empty_and_subject_only(void **state)
{
	struct message m;

	(void)state;
	message_init(&m);
	assert_int_equal(message_parse(&m, NULL, 0), 0);
	assert_string_equal(m.subject, "");
	assert_string_equal(m.body, "");
	message_release(&m);

	parse(&m, "");
	assert_string_equal(m.subject, "");
	assert_string_equal(m.body, "");
	assert_int_equal(m.nr_trailers, 0);
	message_release(&m);

	parse(&m, "\n\n\n");
	assert_string_equal(m.subject, "");
	assert_string_equal(m.body, "");
	message_release(&m);

	parse(&m, "ext4: remove dead code");
	assert_string_equal(m.subject, "ext4: remove dead code");
	assert_string_equal(m.body, "");
	assert_int_equal(m.nr_trailers, 0);
	message_release(&m);

	/* A message of trailers only, right after the subject. */
	parse(&m, "ext4: bump the version\nSigned-off-by: A <a@example.org>\n");
	assert_string_equal(m.body, "Signed-off-by: A <a@example.org>");
	assert_int_equal(m.nr_trailers, 1);
	assert_trailer(&m, 0, "Signed-off-by", "A <a@example.org>", 2);
	message_release(&m);
}

static void test_line_ends(void **state)
{
	static const char *const texts[] = {
		"btrfs: fix the csum tree walk\r\n\r\nIt walked too far.\r\n"
		"\r\nFixes: 0badc0de1234 (\"btrfs: walk\")\r\n"
		"Cc: stable@vger.kernel.org # 6.1+\r\n",
		"btrfs: fix the csum tree walk\r\rIt walked too far.\r"
		"\rFixes: 0badc0de1234 (\"btrfs: walk\")\r"
		"Cc: stable@vger.kernel.org # 6.1+\r",
		"btrfs: fix the csum tree walk\n\r\nIt walked too far.\r\n"
		"\nFixes: 0badc0de1234 (\"btrfs: walk\")\r\n"
		"Cc: stable@vger.kernel.org # 6.1+",
	};
	struct message m;
	size_t i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(texts); i++) {
		parse(&m, texts[i]);
		assert_string_equal(m.subject, "btrfs: fix the csum tree walk");
		assert_int_equal(m.nr_trailers, 2);
		assert_fixes(&m, 0, "0badc0de1234", "btrfs: walk", 5);
		assert_int_equal(m.nr_stable, 1);
		assert_stable(&m, 0, "stable@vger.kernel.org", "6.1+", 6, 1);
		assert_int_equal(m.stable[0].lineno, 6);
		assert_null(strchr(m.body, '\r'));
		assert_null(strchr(m.stable[0].comment, '\r'));
		message_release(&m);
	}
}

static void test_trailer_block(void **state)
{
	struct message m;

	(void)state;
	parse(&m, "xfs: check the attr fork size before use\n"
		  "\n"
		  "Note: this is not the whole story, see the thread.\n"
		  "Outcome: nothing here is a trailer.\n"
		  "\n"
		  "Reported-by: Rita Reporter <rita@example.org>\n"
		  "Bug-tracker: https://bugs.example.org/1234\n"
		  "Link: https://lore.kernel.org/r/20240101000000.1-rita@example.org\n"
		  "  (second posting)\n"
		  "[djwong: tidy up the commit message and\n"
		  "Stated: this line is inside the note]\n"
		  "https://example.org/not-a-trailer\n"
		  "Coverity: 1234567\n"
		  "Signed-off-by: Darla Dev <darla@example.org>\n");
	assert_int_equal(m.nr_trailers, 5);
	assert_trailer(&m, 0, "Reported-by", "Rita Reporter <rita@example.org>", 6);
	assert_trailer(&m, 1, "Bug-tracker", "https://bugs.example.org/1234", 7);
	assert_trailer(&m, 2, "Link",
		       "https://lore.kernel.org/r/20240101000000.1-rita@example.org"
		       " (second posting)", 8);
	assert_trailer(&m, 3, "Coverity", "1234567", 13);
	assert_trailer(&m, 4, "Signed-off-by", "Darla Dev <darla@example.org>", 14);
	assert_int_equal(m.nr_diags, 0);
	message_release(&m);
}

static void test_block_without_known_keys(void **state)
{
	struct message m;

	(void)state;
	/* "Word-word:" keys alone make a trailer block... */
	parse(&m, "ext4: tidy\n\nSome text.\n\nAddresses-Coverity-ID: 1400001\n"
		  "Tested-on: arm64\n");
	assert_int_equal(m.nr_trailers, 2);
	assert_trailer(&m, 0, "Addresses-Coverity-ID", "1400001", 5);
	assert_trailer(&m, 1, "Tested-on", "arm64", 6);
	message_release(&m);

	/* ... but a "subsys: summary" line is not one. */
	parse(&m, "Merge branch 'fs-next'\n\nxfs: release version 6.2\n");
	assert_int_equal(m.nr_trailers, 0);
	message_release(&m);

	/* Nor is a last paragraph of prose. */
	parse(&m, "ext4: tidy\n\nBody.\n\nStill-prose: of course\nthis goes on.\n");
	assert_int_equal(m.nr_trailers, 0);
	message_release(&m);

	/* Prose running into the trailers stays out of them. */
	parse(&m, "ext4: tidy\n\nBody.\n\nOutcome: a faster mount\n"
		  "as measured here.\n"
		  "Acked-by: Al <al@example.org>\n"
		  "Some-thing: else\n");
	assert_int_equal(m.nr_trailers, 2);
	assert_trailer(&m, 0, "Acked-by", "Al <al@example.org>", 7);
	assert_trailer(&m, 1, "Some-thing", "else", 8);
	message_release(&m);
}

static void test_known_keys_in_body(void **state)
{
	struct message m;
	size_t pos = 0;
	const struct trailer *t;

	(void)state;
	parse(&m, "iomap: do not zero past EOF\n"
		  "\n"
		  "We zeroed one block too many.\n"
		  "Fixes: 1111aaaa2222 (\"iomap: zero the tail\")\n"
		  "cc: Jan Tester <jan@example.org>\n"
		  "LINK: https://example.org/thread\n"
		  "Closing-note: this is prose in the middle\n"
		  "\n"
		  "CC: <stable@vger.kernel.org>\n"
		  "link: https://example.org/v2\n"
		  "Signed-off-by: Ivo <ivo@example.org>\n");
	assert_int_equal(m.nr_trailers, 6);
	assert_trailer(&m, 0, "Fixes", "1111aaaa2222 (\"iomap: zero the tail\")", 4);
	assert_trailer(&m, 1, "cc", "Jan Tester <jan@example.org>", 5);
	assert_trailer(&m, 2, "LINK", "https://example.org/thread", 6);
	assert_trailer(&m, 3, "CC", "<stable@vger.kernel.org>", 9);
	assert_fixes(&m, 0, "1111aaaa2222", "iomap: zero the tail", 4);
	assert_int_equal(m.nr_stable, 1);
	assert_stable(&m, 0, "stable@vger.kernel.org", NULL, -1, -1);

	t = message_trailer_next(&m, "Link", &pos);
	assert_non_null(t);
	assert_string_equal(t->val, "https://example.org/thread");
	t = message_trailer_next(&m, "link", &pos);
	assert_non_null(t);
	assert_string_equal(t->val, "https://example.org/v2");
	assert_int_equal(t->lineno, 10);
	assert_null(message_trailer_next(&m, "Link", &pos));
	assert_null(message_trailer_next(&m, "Link", &pos));
	pos = 0;
	assert_null(message_trailer_next(&m, "Reviewed-by", &pos));
	pos = 0;
	t = message_trailer_next(&m, "signed-off-by", &pos);
	assert_non_null(t);
	assert_string_equal(t->key, "Signed-off-by");
	message_release(&m);
}

static void test_fixes_forms(void **state)
{
	struct message m;

	(void)state;
	parse(&m, "xfs: fix several things at once\n"
		  "\n"
		  "Each Fixes: line below is spelled differently.\n"
		  "\n"
		  "Fixes: 1a2b3c4d5e6f (\"xfs: fix the thing\")\n"
		  "Fixes:0a1b2c3d4e5f (\"ext4: no space after the colon\")\n"
		  "Fixes: commit 9f8e7d6c5b4a (\"btrfs: with the word commit\")\n"
		  "Fixes: ABCDEF012345 (\"iomap: upper case\")\n"
		  "Fixes: " ID40 "\n"
		  "Fixes: 1234abcd5678 (\"Revert \"xfs: do the (bad) thing\"\")\n"
		  "Fixes: 2468ace02468 (xfs: no quotes (really))\n"
		  "Fixes: 13579bdf1357 (\"xfs: a subject that goes on and on and\n"
		  "wraps onto the next line\")\n"
		  "fixes: 7c7c7c7 \"xfs: quoted without parentheses\"\n"
		  "Fixes: 8d8d8d8d8d8d (\"xfs: full stop after\").\n"
		  "Fixes: 5a5a5a5a5a5a (\"xfs: never closed\"\n"
		  "Fixes: deadbeef (\"xfs: a word-like id\")\n"
		  "Fixes: 4b4b4b4b: xfs: colon form\n"
		  "Signed-off-by: Fay <fay@example.org>\n");
	assert_int_equal(m.nr_diags, 0);
	assert_int_equal(m.nr_fixes, 13);
	assert_fixes(&m, 0, "1a2b3c4d5e6f", "xfs: fix the thing", 5);
	assert_fixes(&m, 1, "0a1b2c3d4e5f", "ext4: no space after the colon", 6);
	assert_fixes(&m, 2, "9f8e7d6c5b4a", "btrfs: with the word commit", 7);
	assert_fixes(&m, 3, "abcdef012345", "iomap: upper case", 8);
	assert_fixes(&m, 4, ID40, NULL, 9);
	assert_fixes(&m, 5, "1234abcd5678", "Revert \"xfs: do the (bad) thing\"", 10);
	assert_fixes(&m, 6, "2468ace02468", "xfs: no quotes (really)", 11);
	assert_fixes(&m, 7, "13579bdf1357",
		     "xfs: a subject that goes on and on and wraps onto the next line",
		     12);
	assert_fixes(&m, 8, "7c7c7c7", "xfs: quoted without parentheses", 14);
	assert_fixes(&m, 9, "8d8d8d8d8d8d", "xfs: full stop after", 15);
	assert_fixes(&m, 10, "5a5a5a5a5a5a", "xfs: never closed", 16);
	assert_fixes(&m, 11, "deadbeef", "xfs: a word-like id", 17);
	assert_fixes(&m, 12, "4b4b4b4b", "xfs: colon form", 18);
	message_release(&m);
}

static void test_fixes_diags(void **state)
{
	struct message m;

	(void)state;
	parse(&m, "ext4: fix the fix\n"
		  "\n"
		  "Fixes: see above\n"
		  "Fixes: https://bugzilla.kernel.org/show_bug.cgi?id=100001\n"
		  "Fixes: abc (\"ext4: too short\")\n"
		  "Fixes: " ID40 "0\n"
		  "Fixes: added a check for the journal\n"
		  "Fixes:\n"
		  "Fixes: commit\n"
		  "Fixes: 12ab34cd_old (\"ext4: not hex\")\n"
		  "\n"
		  "Signed-off-by: Gus <gus@example.org>\n"
		  "ixes: 1234abcd5678 (\"ext4: first letter lost\")\n"
		  "Fixed: 1234abcd5678 (\"ext4: wrong tense\")\n"
		  "Fixess: 1234abcd5678 (\"ext4: one letter too many\")\n"
		  "Fxes: 1234abcd5678 (\"ext4: one letter too few\")\n"
		  "Fixes-coverity-id: 1400002\n");
	assert_int_equal(m.nr_fixes, 0);
	assert_int_equal(m.nr_trailers, 14);
	assert_trailer(&m, 0, "Fixes", "see above", 3);
	assert_trailer(&m, 5, "Fixes", "", 8);
	assert_int_equal(m.nr_diags, 12);
	assert_diag(&m, 0, 3, "Fixes: no commit id in 'see above'");
	assert_diag(&m, 1, 4, "Fixes: no commit id in "
		    "'https://bugzilla.kernel.org/show_bug.cgi?id=100001'");
	assert_diag(&m, 2, 5,
		    "Fixes: commit id 'abc' has 3 hex digits, expected 4 to 40");
	assert_diag(&m, 3, 6, "Fixes: commit id '" ID40 "0' has 41 hex digits, "
		    "expected 4 to 40");
	assert_diag(&m, 4, 7,
		    "Fixes: no commit id in 'added a check for the journal'");
	assert_diag(&m, 5, 8, "Fixes: no commit id in ''");
	assert_diag(&m, 6, 9, "Fixes: no commit id in 'commit'");
	assert_diag(&m, 7, 10,
		    "Fixes: no commit id in '12ab34cd_old (\"ext4: not hex\")'");
	assert_diag(&m, 8, 13, "Fixes: misspelt key 'ixes', "
		    "line not read as a Fixes: tag");
	assert_diag(&m, 9, 14, "Fixes: misspelt key 'Fixed', "
		    "line not read as a Fixes: tag");
	assert_diag(&m, 10, 15, "Fixes: misspelt key 'Fixess', "
		    "line not read as a Fixes: tag");
	assert_diag(&m, 11, 16, "Fixes: misspelt key 'Fxes', "
		    "line not read as a Fixes: tag");
	message_release(&m);
}

static void test_stable_forms(void **state)
{
	struct message m;
	const struct stable_tag *t;

	(void)state;
	parse(&m, "xfs: fix the log recovery overflow\n"
		  "\n"
		  "Body.\n"
		  "\n"
		  "Cc: stable@vger.kernel.org\n"
		  "Cc: <stable@vger.kernel.org>\n"
		  "Cc: stable <stable@vger.kernel.org>\n"
		  "Cc: stable@kernel.org\n"
		  "cc: stable@vger.kernel.org\n"
		  "Cc: stable@vger.kernel.org # 5.10+\n"
		  "Cc: stable@vger.kernel.org # v6.1\n"
		  "Cc: stable@vger.kernel.org # 5.15.x\n"
		  "Cc: stable@vger.kernel.org #5.10\n"
		  "Cc: <stable@vger.kernel.org> # v5.15+\n"
		  "Cc: stable@vger.kernel.org\t# 6.1.x\n"
		  "Cc: <stable@vger.kernel.org> [4.14+]\n"
		  "Cc: <stable@vger.kernel.org> # 3.3.x: a1f84a3: sched: Check for idle\n"
		  "Cc: stable+noautosel@kernel.org # needs a careful manual backport\n"
		  "Cc: stable@vger.kernel.org # needs backport of the lock rework first\n"
		  "Cc: stable@vger.kernel.org # v6.6.40+, v6.1.99+, v6.9.9+\n"
		  "Cc: stable@vger.kernel.org # 2.6.32+\n"
		  "Cc: stable # 4.4\n"
		  "Cc: stable@vger.kernel.org # after -rc3\n"
		  "Cc: <stable@vger.kernel.org>, linux-xfs@vger.kernel.org\n"
		  "Cc: stable@vger.kernel.org, x@example.org # 6.6.y\n"
		  "Cc: stable@vger.kernel.org 5.4+\n"
		  "Cc: Jan Kara <jack@example.org>\n"
		  "Signed-off-by: Hal <hal@example.org>\n");
	assert_int_equal(m.nr_diags, 0);
	assert_int_equal(m.nr_stable, 22);
	assert_stable(&m, 0, "stable@vger.kernel.org", NULL, -1, -1);
	assert_int_equal(m.stable[0].lineno, 5);
	assert_stable(&m, 1, "stable@vger.kernel.org", NULL, -1, -1);
	assert_stable(&m, 2, "stable@vger.kernel.org", NULL, -1, -1);
	assert_stable(&m, 3, "stable@kernel.org", NULL, -1, -1);
	assert_stable(&m, 4, "stable@vger.kernel.org", NULL, -1, -1);
	assert_stable(&m, 5, "stable@vger.kernel.org", "5.10+", 5, 10);
	assert_stable(&m, 6, "stable@vger.kernel.org", "v6.1", 6, 1);
	assert_stable(&m, 7, "stable@vger.kernel.org", "5.15.x", 5, 15);
	assert_stable(&m, 8, "stable@vger.kernel.org", "5.10", 5, 10);
	assert_stable(&m, 9, "stable@vger.kernel.org", "v5.15+", 5, 15);
	assert_stable(&m, 10, "stable@vger.kernel.org", "6.1.x", 6, 1);
	assert_stable(&m, 11, "stable@vger.kernel.org", "4.14+", 4, 14);

	t = &m.stable[12];
	assert_stable(&m, 12, "stable@vger.kernel.org",
		      "3.3.x: a1f84a3: sched: Check for idle", 3, 3);
	assert_string_equal(t->prereq_id, "a1f84a3");
	assert_string_equal(t->prereq_subject, "sched: Check for idle");
	assert_int_equal(t->lineno, 17);
	assert_null(m.stable[11].prereq_id);
	assert_null(m.stable[11].prereq_subject);

	assert_stable(&m, 13, "stable+noautosel@kernel.org",
		      "needs a careful manual backport", -1, -1);
	assert_int_equal(m.stable[13].noautosel, 1);
	assert_int_equal(m.stable[12].noautosel, 0);
	assert_stable(&m, 14, "stable@vger.kernel.org",
		      "needs backport of the lock rework first", -1, -1);
	assert_stable(&m, 15, "stable@vger.kernel.org",
		      "v6.6.40+, v6.1.99+, v6.9.9+", 6, 1);
	assert_stable(&m, 16, "stable@vger.kernel.org", "2.6.32+", 2, 6);
	assert_stable(&m, 17, "stable", "4.4", 4, 4);
	assert_stable(&m, 18, "stable@vger.kernel.org", "after -rc3", -1, -1);
	assert_int_equal(m.stable[18].lineno, 23);
	assert_stable(&m, 19, "stable@vger.kernel.org", NULL, -1, -1);
	assert_stable(&m, 20, "stable@vger.kernel.org", "6.6.y", 6, 6);
	assert_stable(&m, 21, "stable@vger.kernel.org", "5.4+", 5, 4);
	/* The stable lines and the plain Cc are all trailers. */
	assert_int_equal(m.nr_trailers, 24);
	assert_trailer(&m, 22, "Cc", "Jan Kara <jack@example.org>", 27);
	message_release(&m);
}

static void test_stable_diags(void **state)
{
	struct message m;

	(void)state;
	parse(&m, "ext4: handle the odd case\n"
		  "\n"
		  "Body.\n"
		  "\n"
		  "Cc: stable@vger.kernel.org # 5,10+\n"
		  "Cc: stable@vger.kernel.org # v6\n"
		  "Cc: stable@vger.kernel.org # 5.10: apply after the lock rework\n"
		  "Cc: Greg Kroah-Hartman <greg@example.org> # for stable\n"
		  "Cc: stable@vger.kernel.com\n"
		  "Signed-off-by: Ida <ida@example.org>\n");
	assert_int_equal(m.nr_diags, 5);
	assert_diag(&m, 0, 5, "Cc: garbled stable version hint '5,10+'");
	assert_diag(&m, 1, 6, "Cc: garbled stable version hint 'v6'");
	assert_diag(&m, 2, 7, "Cc: no prerequisite commit id in stable hint "
		    "'5.10: apply after the lock rework'");
	assert_diag(&m, 3, 8, "Cc: mentions stable but has no stable address in "
		    "'Greg Kroah-Hartman <greg@example.org> # for stable'");
	assert_diag(&m, 4, 9,
		    "Cc: unexpected stable address 'stable@vger.kernel.com'");
	/* Garbled hints are still stable tags, without a hint. */
	assert_int_equal(m.nr_stable, 4);
	assert_stable(&m, 0, "stable@vger.kernel.org", "5,10+", -1, -1);
	assert_stable(&m, 1, "stable@vger.kernel.org", "v6", -1, -1);
	assert_stable(&m, 2, "stable@vger.kernel.org",
		      "5.10: apply after the lock rework", 5, 10);
	assert_null(m.stable[2].prereq_id);
	assert_stable(&m, 3, "stable@vger.kernel.com", NULL, -1, -1);
	assert_int_equal(m.nr_trailers, 6);
	message_release(&m);
}

static void test_stable_helpers(void **state)
{
	struct message m;

	(void)state;
	parse(&m, "xfs: a\n\nSigned-off-by: J <j@example.org>\n");
	assert_int_equal(message_cc_stable(&m), 0);
	assert_int_equal(message_noautosel(&m), 0);
	message_release(&m);

	parse(&m, "xfs: a\n\nCc: <stable@vger.kernel.org> # 6.6\n");
	assert_int_equal(message_cc_stable(&m), 1);
	assert_int_equal(message_noautosel(&m), 0);
	message_release(&m);

	parse(&m, "xfs: a\n\nCc: stable+noautosel@kernel.org # risky\n");
	assert_int_equal(message_cc_stable(&m), 0);
	assert_int_equal(message_noautosel(&m), 1);
	message_release(&m);

	parse(&m, "xfs: a\n\nCc: stable+noautosel@kernel.org # risky\n"
		  "Cc: stable@vger.kernel.org # 6.12\n");
	assert_int_equal(message_cc_stable(&m), 1);
	assert_int_equal(message_noautosel(&m), 1);
	message_release(&m);
}

static void test_reverts(void **state)
{
	struct message m;

	(void)state;
	parse(&m, "Revert \"xfs: defer the inode inactivation\"\n"
		  "\n"
		  "This reverts commit " ID40 ".\n"
		  "\n"
		  "It deadlocks under memory pressure.\n"
		  "\n"
		  "Signed-off-by: Lu <lu@example.org>\n");
	assert_int_equal(m.is_revert, 1);
	assert_string_equal(m.reverts_subject,
			    "xfs: defer the inode inactivation");
	assert_string_equal(m.reverts_id, ID40);
	message_release(&m);

	parse(&m, "Revert \"Revert \"ext4: use the new mount API\"\"\n"
		  "\n"
		  "This reverts commit ABCDEF123456.\n");
	assert_int_equal(m.is_revert, 1);
	assert_string_equal(m.reverts_subject,
			    "Revert \"ext4: use the new mount API\"");
	assert_string_equal(m.reverts_id, "abcdef123456");
	message_release(&m);

	parse(&m, "xfs: Revert \"xfs: use the fast path\"\n\nBody.\n");
	assert_int_equal(m.is_revert, 1);
	assert_string_equal(m.reverts_subject, "xfs: use the fast path");
	assert_null(m.reverts_id);
	message_release(&m);
	/* The same notion for a subject alone (deps' later reverts). */
	assert_true(message_subject_is_revert("xfs: Revert \"xfs: use it\""));
	assert_true(message_subject_is_revert("Revert \"xfs: use it\""));
	assert_false(message_subject_is_revert("xfs: revert the fast path"));
	assert_false(message_subject_is_revert(""));

	parse(&m, "btrfs: undo the readahead change\n"
		  "\n"
		  "This reverts commit 4242aaaa4242 because it slowed down scrub.\n");
	assert_int_equal(m.is_revert, 1);
	assert_null(m.reverts_subject);
	assert_string_equal(m.reverts_id, "4242aaaa4242");
	message_release(&m);

	parse(&m, "Reverts are hard\n\nThis reverts nothing.\n");
	assert_int_equal(m.is_revert, 0);
	assert_null(m.reverts_subject);
	assert_null(m.reverts_id);
	message_release(&m);
}

static void test_release_reinitialises(void **state)
{
	struct message m, zero;

	(void)state;
	memset(&zero, 0, sizeof(zero));
	parse(&m, "xfs: x\n\nFixes: see above\nCc: stable@vger.kernel.org # 6.1\n"
		  "commit " ID40 " upstream.\n");
	assert_int_equal(m.nr_diags, 1);
	/* A second parse replaces the first. */
	assert_int_equal(message_parse(&m, "ext4: y", 7), 0);
	assert_string_equal(m.subject, "ext4: y");
	assert_int_equal(m.nr_diags, 0);
	assert_int_equal(m.nr_stable, 0);
	assert_int_equal(m.nr_upstream, 0);
	message_release(&m);
	assert_memory_equal(&m, &zero, sizeof(m));
	message_release(&m);
	assert_memory_equal(&m, &zero, sizeof(m));
}

static void test_many_trailers(void **state)
{
	struct strbuf sb = STRBUF_INIT;
	struct message m;
	int i;

	(void)state;
	strbuf_addstr(&sb, "xfs: a big one\n\nBody.\n\n");
	for (i = 0; i < 5000; i++) {
		strbuf_addf(&sb, "Reviewed-by: R%d <r%d@example.org>\n", i, i);
		strbuf_addf(&sb, "Fixes: %012x (\"xfs: number %d\")\n", i + 1, i);
		strbuf_addf(&sb, "Cc: stable@vger.kernel.org # 6.%d\n", i % 20);
	}
	parse(&m, sb.buf);
	assert_int_equal(m.nr_trailers, 15000);
	assert_int_equal(m.nr_fixes, 5000);
	assert_int_equal(m.nr_stable, 5000);
	assert_string_equal(m.fixes[4999].id, "000000001388");
	assert_string_equal(m.fixes[4999].subject, "xfs: number 4999");
	assert_int_equal(m.fixes[4999].lineno, 5 + 3 * 4999 + 1);
	assert_int_equal(m.stable[4999].hint_minor, 19);
	message_release(&m);
	strbuf_release(&sb);
}

/* Lines built to be slow for a careless parser. */
static void test_pathological_lines(void **state)
{
	static const char *const pieces[] = {
		"@", "[", "[ upstream commit ", "cherry picked from commit ",
		"(", "\"", ": ", "Revert \"", "stable@", "0", " ",
	};
	struct strbuf sb = STRBUF_INIT;
	struct message m;
	size_t i, j;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(pieces); i++) {
		strbuf_reset(&sb);
		for (j = 0; j < 20000; j++)
			strbuf_addstr(&sb, pieces[i]);
		strbuf_addstr(&sb, "\n\nFixes: 1234abcd (");
		for (j = 0; j < 20000; j++)
			strbuf_addstr(&sb, pieces[i]);
		strbuf_addstr(&sb, "\nCc: stable ");
		for (j = 0; j < 20000; j++)
			strbuf_addstr(&sb, pieces[i]);
		strbuf_addstr(&sb, "\n\nSigned-off-by: ");
		for (j = 0; j < 20000; j++)
			strbuf_addstr(&sb, pieces[i]);
		parse(&m, sb.buf);
		assert_true(m.nr_trailers >= 2);
		message_release(&m);
	}
	strbuf_release(&sb);
}

static void test_any_bytes(void **state)
{
	static const char nul_text[] = "ext4: a\0b\n\nFixes: 0a0b0c0d\n";
	static const char alphabet[] = "\0\r\n\t []()\"#:@+.-x0123abcFCcsv\xff\xc3";
	char buf[512], *exact;
	uint32_t seed = 12345;
	struct message m;
	int round;

	(void)state;
	message_init(&m);
	for (round = 0; round < 3000; round++) {
		size_t len = (size_t)(round % (int)sizeof(buf)), i;

		for (i = 0; i < len; i++) {
			seed = seed * 1103515245u + 12345u;
			if (round & 1)
				buf[i] = (char)(seed >> 16);
			else
				buf[i] = alphabet[(seed >> 16) %
						  (sizeof(alphabet) - 1)];
		}
		/* An exact-size copy, so that ASan sees any overread. */
		exact = xmalloc(len);
		memcpy(exact, buf, len);
		assert_int_equal(message_parse(&m, exact, len), 0);
		free(exact);
		assert_non_null(m.subject);
		assert_non_null(m.body);
	}
	message_release(&m);

	/* Known structure around invalid UTF-8 and NUL bytes. */
	parse(&m, "xfs: caf\xe9 \xff\xfe\n\nFixes: 0a0b0c0d (\"xfs: \xc3\x28\")\n");
	assert_string_equal(m.subject, "xfs: caf\xe9 \xff\xfe");
	assert_fixes(&m, 0, "0a0b0c0d", "xfs: \xc3\x28", 3);
	message_release(&m);
	message_init(&m);
	message_parse(&m, nul_text, sizeof(nul_text) - 1);
	assert_string_equal(m.subject, "ext4: a");
	assert_int_equal(m.nr_fixes, 1);
	assert_int_equal(m.fixes[0].lineno, 3);
	message_release(&m);
}

/* The message-id a Link: URL names. */
static void test_link_id(void **state)
{
	static const struct { const char *url, *id; } cases[] = {
		{ "https://lore.kernel.org/r/20231012123456.12345-3-a@host.org",
		  "20231012123456.12345-3-a@host.org" },
		{ "https://patch.msgid.link/20231012-topic-v2-3-abc@kernel.org",
		  "20231012-topic-v2-3-abc@kernel.org" },
		{ "https://lore.kernel.org/linux-xfs/1.2.3@host.org/",
		  "1.2.3@host.org" },
		{ "https://lore.kernel.org/all/1.2.3@host.org/T/#u",
		  "1.2.3@host.org" },
		{ "https://lore.kernel.org/r/1.2.3%40host.org", "1.2.3@host.org" },
		{ "https://lore.kernel.org/r/%3C1.2.3@host.org%3E", "1.2.3@host.org" },
		{ "<https://lore.kernel.org/r/x@y>", "x@y" },
		{ "https://lore.kernel.org/r/x@y?id=1", "x@y" },
		{ "https://bugzilla.kernel.org/show_bug.cgi?id=1", NULL },
		{ "https://lore.kernel.org/r/@host", NULL },
		{ "lore.kernel.org/r/x@y", NULL },
		{ "https://lore.kernel.org/r/a%00b@y", NULL },
		{ "https://lore.kernel.org/r/%4", NULL },
		{ "", NULL },
	};
	size_t i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		char *id = message_link_id(cases[i].url);

		if (cases[i].id) {
			assert_non_null(id);
			assert_string_equal(id, cases[i].id);
		} else {
			assert_null(id);
		}
		free(id);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_link_id),
		cmocka_unit_test(test_subject_and_body),
		cmocka_unit_test(test_empty_and_subject_only),
		cmocka_unit_test(test_line_ends),
		cmocka_unit_test(test_trailer_block),
		cmocka_unit_test(test_block_without_known_keys),
		cmocka_unit_test(test_known_keys_in_body),
		cmocka_unit_test(test_fixes_forms),
		cmocka_unit_test(test_fixes_diags),
		cmocka_unit_test(test_stable_forms),
		cmocka_unit_test(test_stable_diags),
		cmocka_unit_test(test_stable_helpers),
		cmocka_unit_test(test_reverts),
		cmocka_unit_test(test_release_reinitialises),
		cmocka_unit_test(test_many_trailers),
		cmocka_unit_test(test_pathological_lines),
		cmocka_unit_test(test_any_bytes),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
