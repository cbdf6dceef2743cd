/* Unit tests for the mail writer: subjects, display names, address lists. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "formats/mail.h"
#include "base/strbuf.h"

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
		" =?UTF-8?q?Zo=C3=AB=20=C3=9Cn=C3=AFcode?= <zoe@example.org>\n");
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
		"To: \"Evil  Bcc: x@y\" <evil@example.org>, Odd <a_b@example.org>\n");
	mail_addrs_release(&a);
	strbuf_release(&sb);
}

/* sb's lines are at most max columns long. */
static void assert_lines_fit(const struct strbuf *sb, size_t max)
{
	const char *p = sb->buf;

	while (*p) {
		size_t len = strcspn(p, "\n");

		if (len > max)
			fail_msg("a line of %zu columns: %.*s", len, (int)len, p);
		p += len + (p[len] == '\n');
	}
}

/*
 * Subjects as git format-patch writes them (checked against it in
 * tests/e2e/mail-headers.sh): Q-encoded when they hold "=?", a control
 * character or non-ASCII, the prefix as it is; never a CR or LF.
 */
static void test_subject(void **state)
{
	struct strbuf sb = STRBUF_INIT;

	(void)state;
	mail_header(&sb, "Subject", "[PATCH 6.6 1/3] ",
		    "=?UTF-8?Q?=0D=0ABcc:_x@evil?=");
	assert_string_equal(sb.buf, "Subject: [PATCH 6.6 1/3] "
		"=?UTF-8?q?=3D=3FUTF-8=3FQ=3F=3D0D=3D0ABcc:=5Fx@ev?=\n"
		" =?UTF-8?q?il=3F=3D?=\n");
	strbuf_reset(&sb);
	mail_header(&sb, "Subject", "[PATCH] ", "ext4: a lone =? here");
	assert_string_equal(sb.buf, "Subject: [PATCH] "
		"=?UTF-8?q?ext4:=20a=20lone=20=3D=3F=20here?=\n");
	strbuf_reset(&sb);
	/* Line breaks become spaces first; a tab is kept, encoded. */
	mail_header(&sb, "Subject", NULL, "ext4: fix\r\nBcc: x@y\ttab");
	assert_string_equal(sb.buf,
		"Subject: =?UTF-8?q?ext4:=20fix=20=20Bcc:=20x@y=09tab?=\n");
	strbuf_reset(&sb);
	/* Plain ASCII stays as it is, quotes and parentheses too. */
	mail_header(&sb, "Subject", "Re: ", "ext4: plain, \"quoted\" (kept)");
	assert_string_equal(sb.buf,
		"Subject: Re: ext4: plain, \"quoted\" (kept)\n");
	strbuf_reset(&sb);
	/* 76 columns a line, no character split between two words. */
	mail_header(&sb, "Subject", NULL,
		    "\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9"
		    "\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9 caf\xc3\xa9 caf\xc3\xa9 "
		    "caf\xc3\xa9 \xe2\x82\xac\xe2\x82\xac\xe2\x82\xac");
	assert_string_equal(sb.buf,
		"Subject: =?UTF-8?q?=C3=A9=C3=A9=C3=A9=C3=A9=C3=A9=C3=A9"
		"=C3=A9=C3=A9=C3=A9?=\n"
		" =?UTF-8?q?=C3=A9=C3=A9=20caf=C3=A9=20caf=C3=A9=20caf=C3=A9"
		"=20=E2=82=AC?=\n"
		" =?UTF-8?q?=E2=82=AC=E2=82=AC?=\n");
	assert_lines_fit(&sb, 76);
	strbuf_release(&sb);
}

/*
 * Display names as git format-patch writes an author's: encoded (with
 * fewer plain characters than a subject), else quoted for specials,
 * else as they are; the address on a line of its own when it does not
 * fit.
 */
static void test_display_names(void **state)
{
	struct strbuf sb = STRBUF_INIT;

	(void)state;
	mail_address_header(&sb, "From", "Jo \"Q\" O\\Back", "jo@example.org");
	mail_address_header(&sb, "From", "Dr. Who", "who@example.org");
	mail_address_header(&sb, "From", "A U Thor", "a@example.org");
	mail_address_header(&sb, "From", "=?UTF-8?Q?Eve?=", "eve@example.org");
	mail_address_header(&sb, "From", "Ren\xc3\xa9 O'Neil", "rene@example.org");
	assert_string_equal(sb.buf,
		"From: \"Jo \\\"Q\\\" O\\\\Back\" <jo@example.org>\n"
		"From: \"Dr. Who\" <who@example.org>\n"
		"From: A U Thor <a@example.org>\n"
		"From: =?UTF-8?q?=3D=3FUTF-8=3FQ=3FEve=3F=3D?= <eve@example.org>\n"
		"From: =?UTF-8?q?Ren=C3=A9=20O=27Neil?= <rene@example.org>\n");
	strbuf_reset(&sb);
	mail_address_header(&sb, "From",
		"\xc3\x8bl\xc3\xab\xc3\xb6n\xc3\xb6r\xc3\xab \xc3\x84nn\xc3\xa4-"
		"M\xc3\xa4r\xc3\xaf\xc3\xa4 \xc3\x87h\xc3\xa2t\xc3\xab",
		"a.very.long.address.indeed@example.org");
	assert_string_equal(sb.buf,
		"From: =?UTF-8?q?=C3=8Bl=C3=AB=C3=B6n=C3=B6r=C3=AB=20=C3=84nn"
		"=C3=A4-M=C3=A4?=\n"
		" =?UTF-8?q?r=C3=AF=C3=A4=20=C3=87h=C3=A2t=C3=AB?=\n"
		" <a.very.long.address.indeed@example.org>\n");
	assert_lines_fit(&sb, 76);
	strbuf_release(&sb);
}

/* An address that does not fit whole after the one before starts a line. */
static void test_addrs_fold(void **state)
{
	struct mail_addrs a = MAIL_ADDRS_INIT;
	struct strbuf sb = STRBUF_INIT;

	(void)state;
	mail_addrs_add_pair(&a, "Wong, Darrick", "djwong@kernel.org");
	mail_addrs_add_pair(&a, "=?x?=", "x@example.org");
	mail_addrs_add_pair(&a, "Plain Name", "plain@example.org");
	mail_addrs_header(&sb, "Cc", &a);
	assert_string_equal(sb.buf,
		"Cc: \"Wong, Darrick\" <djwong@kernel.org>,\n"
		" =?UTF-8?q?=3D=3Fx=3F=3D?= <x@example.org>, "
		"Plain Name <plain@example.org>\n");
	assert_lines_fit(&sb, 78);
	mail_addrs_release(&a);
	strbuf_release(&sb);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_addrs_list),
		cmocka_unit_test(test_addrs_hostile),
		cmocka_unit_test(test_subject),
		cmocka_unit_test(test_display_names),
		cmocka_unit_test(test_addrs_fold),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
