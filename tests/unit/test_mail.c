/* Unit tests for the mail writer's address lists. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "mail.h"
#include "strbuf.h"

/* Each address once, compared without case; a comma in quotes stays. */
static void test_addrs_list(void **state)
{
	struct mail_addrs a = MAIL_ADDRS_INIT;
	struct strbuf sb = STRBUF_INIT;

	(void)state;
	mail_addrs_add_list(&a, "linux-xfs@vger.kernel.org, \"Doe, Jane\" "
			    "<jane@example.org>,, no-at-sign");
	mail_addrs_add(&a, "Jane Doe <JANE@example.org>");
	mail_addrs_add(&a, "Zoë Ünïcode <zoe@example.org>");
	assert_int_equal(a.nr, 3);
	assert_true(mail_addrs_has(&a, "jane@EXAMPLE.org"));
	mail_addrs_header(&sb, "Cc", &a);
	assert_string_equal(sb.buf,
		"Cc: linux-xfs@vger.kernel.org, \"Doe, Jane\" <jane@example.org>,\n"
		" =?UTF-8?B?Wm/DqyDDnG7Dr2NvZGU=?= <zoe@example.org>\n");
	mail_addrs_remove(&a, "<jane@example.org>");
	assert_int_equal(a.nr, 2);
	assert_false(mail_addrs_has(&a, "jane@example.org"));
	mail_addrs_release(&a);
	strbuf_reset(&sb);
	mail_addrs_header(&sb, "To", &a);
	assert_string_equal(sb.buf, "");
	strbuf_release(&sb);
}

/* Nothing from outside ends a header or adds one. */
static void test_addrs_hostile(void **state)
{
	struct mail_addrs a = MAIL_ADDRS_INIT;
	struct strbuf sb = STRBUF_INIT;

	(void)state;
	mail_addrs_add(&a, "Evil\r\nBcc: x@y <evil@example.org>");
	mail_addrs_add(&a, "Odd <a b@example.org>");
	mail_addrs_header(&sb, "To", &a);
	assert_string_equal(sb.buf,
		"To: \"Evil  Bcc: x@y\" <evil@example.org>, \"Odd\" <a_b@example.org>\n");
	mail_addrs_release(&a);
	strbuf_release(&sb);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_addrs_list),
		cmocka_unit_test(test_addrs_hostile),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
