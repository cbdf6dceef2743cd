/*
 * Behaviour that one-line slips left unpinned (issue 39's mutation
 * rounds), where a unit is the place to see it; the end-to-end ones are
 * in tests/e2e/pins*.sh.  Each check fails with its slip applied.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <string.h>

#include "stages/review.h"

/* The line review_read_reply() shows for a reply without an answer. */
static void check_remark(const char *body, const char *line)
{
	struct review_said s;

	review_read_reply(body, &s);
	assert_int_equal(s.answer, REVIEW_NONE);
	assert_string_equal(s.line, line);
	review_said_release(&s);
}

/* A greeting ends in ',' or '!': either way the remark after it shows. */
static void test_greetings(void **state)
{
	(void)state;
	check_remark("Hi all!\n\nLooks good to me.\n", "Looks good to me.");
	check_remark("Hello Greg,\nLooks good to me.\n", "Looks good to me.");
	/* Forty bytes or more is a sentence, not a greeting. */
	check_remark("This one breaks the build on arm64 for me!\nThanks,\n",
		     "This one breaks the build on arm64 for me!");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_greetings),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
