/*
 * What a reply to a review mail says (review-reply.c): acks, NAKs,
 * deferrals and their conditions, remarks; a checklist's items and the
 * lines that answer them.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <string.h>
#include "stages/review.h"
#include "store/ledger.h"

static git_time_t day(const char *s)
{
	git_time_t t;

	assert_int_equal(ledger_parse_date(s, &t), 0);
	return t;
}

/* What review_read_reply() reads in body: its answer and condition. */
static void check_reply(const char *body, enum review_answer answer,
			const char *line, git_time_t until, const char *tag)
{
	struct review_said s;

	review_read_reply(body, &s);
	assert_int_equal(s.answer, answer);
	assert_string_equal(s.line, line);
	assert_int_equal(s.until, until);
	if (tag)
		assert_string_equal(s.until_tag, tag);
	else
		assert_null(s.until_tag);
	review_said_release(&s);
}

static void test_reply(void **state)
{
	(void)state;
	check_reply("Acked-by: Rhea <rhea@example.org>\n", REVIEW_ACK,
		    "Acked-by: Rhea <rhea@example.org>", 0, NULL);
	check_reply("NAK, the log changed too much.\n", REVIEW_NAK,
		    "NAK, the log changed too much.", 0, NULL);
	/* A remark: its first line, a greeting skipped. */
	check_reply("Hi Greg,\n\nLooks fine, I will test it.\nThanks\n",
		    REVIEW_NONE, "Looks fine, I will test it.", 0, NULL);
	check_reply("Hi,\n\nThanks!\n", REVIEW_NONE, "Thanks!", 0, NULL);
	check_reply("> Acked-by: Quoted <q@example.org>\n", REVIEW_NONE,
		    "(no text of its own)", 0, NULL);
	/* Deferrals, with no condition, a date or a release. */
	check_reply("Not yet.\n", REVIEW_DEFER, "Not yet.", 0, NULL);
	check_reply("Hello,\n  not yet, wait for 6.6.9.\n", REVIEW_DEFER,
		    "not yet, wait for 6.6.9.", 0, "v6.6.9");
	check_reply("Defer until v6.6.9, it needs the rework.\n", REVIEW_DEFER,
		    "Defer until v6.6.9, it needs the rework.", 0, "v6.6.9");
	check_reply("defer 2027-01-15: after the merge window\n", REVIEW_DEFER,
		    "defer 2027-01-15: after the merge window",
		    day("2027-01-15"), NULL);
	check_reply("Wait until v6.7-rc2 is out (see the thread).\n",
		    REVIEW_DEFER, "Wait until v6.7-rc2 is out (see the thread).",
		    0, "v6.7-rc2");
	check_reply("Postponed till (2027-02-01).\n", REVIEW_DEFER,
		    "Postponed till (2027-02-01).", day("2027-02-01"), NULL);
	/* A deferral outweighs an ack; a NAK outweighs both. */
	check_reply("Acked-by: R <r@x>\n\nNot yet though.\n", REVIEW_DEFER,
		    "Not yet though.", 0, NULL);
	check_reply("Not yet.\n\nNacked-by: R <r@x>\n", REVIEW_NAK,
		    "Nacked-by: R <r@x>", 0, NULL);
	/* Words that only begin like one: no deferral. */
	check_reply("Deferring to Darrick here.\n", REVIEW_NONE,
		    "Deferring to Darrick here.", 0, NULL);
	check_reply("Nothing yet.\n", REVIEW_NONE, "Nothing yet.", 0, NULL);
	check_reply("Wait, is this the right fix?\n", REVIEW_NONE,
		    "Wait, is this the right fix?", 0, NULL);
}

/* What review_checklist_answer() reads in line (0: not an answer). */
static void check_answer(const char *line, unsigned n,
			 enum review_answer answer, git_time_t until,
			 const char *tag)
{
	struct review_said s;
	unsigned got = 0;

	if (!n) {
		assert_int_equal(review_checklist_answer(line, &got, &s), 0);
		return;
	}
	assert_int_equal(review_checklist_answer(line, &got, &s), 1);
	assert_int_equal(got, n);
	assert_int_equal(s.answer, answer);
	assert_int_equal(s.until, until);
	if (tag)
		assert_string_equal(s.until_tag, tag);
	else
		assert_null(s.until_tag);
	review_said_release(&s);
}

static void test_checklist_answer(void **state)
{
	struct review_said s;
	unsigned n;

	(void)state;
	check_answer("1 y", 1, REVIEW_ACK, 0, NULL);
	check_answer("  2. yes", 2, REVIEW_ACK, 0, NULL);
	check_answer("3) Ack", 3, REVIEW_ACK, 0, NULL);
	check_answer("#4: ok, thanks", 4, REVIEW_ACK, 0, NULL);
	check_answer("5 n: needs the prep patch", 5, REVIEW_NAK, 0, NULL);
	check_answer("6 no", 6, REVIEW_NAK, 0, NULL);
	check_answer("7 NAK - broke xfstests", 7, REVIEW_NAK, 0, NULL);
	check_answer("8 defer 6.6.9", 8, REVIEW_DEFER, 0, "v6.6.9");
	check_answer("9 defer until v6.6.9.", 9, REVIEW_DEFER, 0, "v6.6.9");
	check_answer("10 d 2027-01-15", 10, REVIEW_DEFER, day("2027-01-15"),
		     NULL);
	check_answer("11 not yet", 11, REVIEW_DEFER, 0, NULL);
	/* Not answers: no number, no answer word, a checklist item. */
	check_answer("y", 0, 0, 0, NULL);
	check_answer("1y", 0, 0, 0, NULL);
	check_answer("1 yellow", 0, 0, 0, NULL);
	check_answer("1. a1b2c3d4e5f6 xfs: fix a crash", 0, 0, 0, NULL);
	check_answer("2023 was a good year", 0, 0, 0, NULL);
	check_answer("0 y", 0, 0, 0, NULL);
	/* The line as written, without its trailing blanks. */
	assert_int_equal(review_checklist_answer("2 n: needs the prep patch  ",
						 &n, &s), 1);
	assert_string_equal(s.line, "2 n: needs the prep patch");
	review_said_release(&s);
}

static void test_checklist_item(void **state)
{
	char hex[13];
	unsigned n = 0;

	(void)state;
	assert_int_equal(review_checklist_item("  12. a1b2c3d4e5f6 xfs: fix",
					       &n, hex), 1);
	assert_int_equal(n, 12);
	assert_string_equal(hex, "a1b2c3d4e5f6");
	assert_int_equal(review_checklist_item("  1/3 a1b2c3d4e5f6 xfs: fix",
					       &n, hex), 0);
	assert_int_equal(review_checklist_item("  1. a1b2c3d4e5 xfs: fix",
					       &n, hex), 0);
	assert_int_equal(review_checklist_item("1 y", &n, hex), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_reply),
		cmocka_unit_test(test_checklist_answer),
		cmocka_unit_test(test_checklist_item),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
