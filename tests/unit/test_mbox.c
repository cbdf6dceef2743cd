/*
 * Unit tests for the mbox reader.  The mails are written for these
 * tests in the style of AUTOSEL picks and stable review series; people,
 * addresses and commit ids are made up.  Comments give the line of the
 * file a string starts, where a test checks line numbers.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "formats/mbox.h"
#include "formats/message.h"
#include "report/report.h"
#include "formats/rules.h"
#include "capture.h"
#include "testrepo.h"
#include "base/strbuf.h"
#include "base/util.h"

#define ID1 "0123456789abcdef0123456789abcdef01234567"
#define ID2 "fedcba9876543210fedcba9876543210fedcba98"
#define FROM_ "From git@z Thu Jan  1 00:00:00 1970\n"

/* Three messages: two AUTOSEL picks and a reply to the first. */
static const char series[] =
	FROM_							/* 1 */
	"From: Sam Picker <picker@example.org>\n"
	"To: stable@vger.kernel.org\n"
	"Cc: Ann Author <ann@example.org>,\n"
	"\tlinux-xfs@vger.kernel.org\n"				/* 5 */
	"Subject: [PATCH AUTOSEL 6.1 03/12] xfs: fix a leak in\n"
	" xfs_attr_list\n"
	"Date: Mon, 15 Jan 2024 10:00:03 -0500\n"
	"Message-Id: <20240115150003.1000-3-picker@example.org>\n"
	"In-Reply-To: <20240115150003.1000-1-picker@example.org>\n" /* 10 */
	"X-stable: review\n"
	"Content-Transfer-Encoding: 8bit\n"
	"\n"
	"From: Ann Author <ann@example.org>\n"
	"\n"							/* 15 */
	"[ Upstream commit " ID1 " ]\n"
	"\n"
	"The error path forgets to free the buffer.\n"
	"\n"
	"Signed-off-by: Ann Author <ann@example.org>\n"		/* 20 */
	"Signed-off-by: Sam Picker <picker@example.org>\n"
	"---\n"
	" fs/xfs/xfs_attr_list.c | 1 +\n"
	" 1 file changed, 1 insertion(+)\n"
	"\n"							/* 25 */
	"diff --git a/fs/xfs/xfs_attr_list.c b/fs/xfs/xfs_attr_list.c\n"
	"index 1111111..2222222 100644\n"
	"--- a/fs/xfs/xfs_attr_list.c\n"
	"+++ b/fs/xfs/xfs_attr_list.c\n"
	"@@ -10,6 +10,7 @@\n"					/* 30 */
	" \tif (error)\n"
	"+\t\tkfree(buf);\n"
	" \treturn error;\n"
	"-- \n"
	"2.43.0\n"						/* 35 */
	"\n"
	FROM_
	"From: Sam Picker <picker@example.org>\n"
	"Subject: [PATCH AUTOSEL 6.1 04/12] xfs: check the log size\n"
	"Message-Id: <20240115150003.1000-4-picker@example.org>\n" /* 40 */
	"\n"
	"From: Ann Author <ann@example.org>\n"
	"\n"
	"[ Upstream commit " ID2 " ]\n"
	"\n"							/* 45 */
	">From the log recovery code: the size is never checked.\n"
	">>From here on, quoted.\n"
	"\n"
	"Signed-off-by: Ann Author <ann@example.org>\n"
	"\n"							/* 50 */
	FROM_
	"From: Rita Reviewer <rita@example.org>\n"
	"Subject: Re: [PATCH AUTOSEL 6.1 03/12] xfs: fix a leak in\n"
	" xfs_attr_list\n"
	"Message-Id: <abc@example.org>\n"			/* 55 */
	"In-Reply-To: <20240115150003.1000-3-picker@example.org>\n"
	"\n"
	"Not for 6.1: the leak came with 6.3.\n";

/* Reads text, which must be an mbox; nothing may go to stderr. */
static void read_ok(struct mbox *mb, const char *text, size_t len)
{
	struct capture c;
	char *err;

	mbox_init(mb);
	capture_begin(&c);
	assert_int_equal(mbox_read(mb, "test.mbox", text, len), 0);
	err = capture_end(&c);
	assert_string_equal(err, "");
	free(err);
}

static void read_str(struct mbox *mb, const char *text)
{
	read_ok(mb, text, strlen(text));
}

/* Reads text, which must fail with exactly the error expect. */
static void read_fails(const char *text, size_t len, const char *expect)
{
	struct mbox mb = MBOX_INIT;
	struct capture c;
	char *err;

	capture_begin(&c);
	assert_int_equal(mbox_read(&mb, "test.mbox", text, len), -1);
	err = capture_end(&c);
	assert_string_equal(err, expect);
	assert_int_equal(mb.nr, 0);
	free(err);
	mbox_release(&mb);
}

static void assert_str_or_null(const char *actual, const char *expect)
{
	if (!expect) {
		assert_null(actual);
		return;
	}
	assert_non_null(actual);
	assert_string_equal(actual, expect);
}

static void test_series(void **state)
{
	struct mbox mb;
	const struct mbox_msg *m;
	struct message cm;
	struct ruleset rs;

	read_str(&mb, series);
	assert_int_equal(mb.nr, 3);

	m = &mb.msgs[0];
	assert_int_equal(m->index, 1);
	assert_int_equal(m->line, 1);
	assert_string_equal(m->message_id, "20240115150003.1000-3-picker@example.org");
	assert_string_equal(m->in_reply_to, "20240115150003.1000-1-picker@example.org");
	assert_string_equal(m->subject,
		"[PATCH AUTOSEL 6.1 03/12] xfs: fix a leak in xfs_attr_list");
	assert_string_equal(m->title, "xfs: fix a leak in xfs_attr_list");
	assert_string_equal(m->from, "Sam Picker <picker@example.org>");
	assert_string_equal(m->date, "Mon, 15 Jan 2024 10:00:03 -0500");
	assert_string_equal(m->version, "6.1");
	assert_int_equal(m->number, 3);
	assert_int_equal(m->total, 12);
	assert_true(m->autosel);
	assert_false(m->is_reply);
	assert_null(m->problem);
	assert_int_equal(m->problem_line, 0);
	/* The body starts after the blank line and keeps its own From:. */
	assert_true(!strncmp(m->body, "From: Ann Author <ann@example.org>\n"
			     "\n[ Upstream commit ", 54));
	/* It ends with the message, not with the blank line before From_. */
	assert_true(strlen(m->body) > 11);
	assert_string_equal(m->body + strlen(m->body) - 11, "-- \n2.43.0\n");
	assert_non_null(m->diff);
	assert_true(!strncmp(m->diff, "diff --git a/fs/xfs/xfs_attr_list.c ", 36));
	assert_string_equal(m->diff + strlen(m->diff) - 11, "-- \n2.43.0\n");

	/* The commit message is message_parse()'s to read. */
	message_init(&cm);
	assert_int_equal(message_parse(&cm, m->body, strlen(m->body)), 0);
	ruleset_init(&rs);
	testrepo_load_backports(&rs);
	message_read_backports(&cm, m->body, strlen(m->body), &rs);
	ruleset_release(&rs);
	assert_int_equal(cm.nr_upstream, 1);
	assert_string_equal(cm.upstream[0], ID1);
	message_release(&cm);

	m = &mb.msgs[1];
	assert_int_equal(m->index, 2);
	assert_int_equal(m->line, 37);
	assert_int_equal(m->number, 4);
	assert_null(m->in_reply_to);
	assert_null(m->date);
	assert_null(m->diff);
	assert_string_equal(m->body,
		"From: Ann Author <ann@example.org>\n"
		"\n"
		"[ Upstream commit " ID2 " ]\n"
		"\n"
		"From the log recovery code: the size is never checked.\n"
		">From here on, quoted.\n"
		"\n"
		"Signed-off-by: Ann Author <ann@example.org>\n");

	m = &mb.msgs[2];
	assert_int_equal(m->index, 3);
	assert_int_equal(m->line, 51);
	assert_true(m->is_reply);
	assert_true(m->autosel);
	assert_string_equal(m->title, "xfs: fix a leak in xfs_attr_list");
	assert_string_equal(m->in_reply_to, mb.msgs[0].message_id);
	assert_string_equal(m->message_id, "abc@example.org");
	assert_string_equal(m->body, "Not for 6.1: the leak came with 6.3.\n");
	mbox_release(&mb);
	assert_int_equal(mb.nr, 0);
	assert_null(mb.msgs);
}

/*
 * From_ lines: only after an empty line, and (after the first) only in
 * the form mbox writers use, so that git format-patch output, which
 * escapes nothing, is not cut at a paragraph starting with "From ".
 */
static void test_from_lines(void **state)
{
	static const char text[] =
		"\n"
		"  \n"
		"From 1234567890abcdef Mon Sep 17 00:00:00 2001\n" /* 3 */
		"Subject: [PATCH] fs: one\n"
		"\n"
		"From the manual, see above.\n"
		"\n"
		"From 12:00 on, it hangs.\n"
		"From 1234567890abcdef Mon Sep 17 00:00:00 2001\n"
		"\n"
		"From someone Tue Feb  3 04:05:06 2015\n"	/* 11 */
		"\n"
		"From MAILER-DAEMON Fri Jul  8 12:08:34 2011\n"	/* 13 */
		"Subject: three\n";
	struct mbox mb;

	read_str(&mb, text);
	assert_int_equal(mb.nr, 3);
	assert_int_equal(mb.msgs[0].line, 3);
	assert_string_equal(mb.msgs[0].title, "fs: one");
	assert_string_equal(mb.msgs[0].body,
		"From the manual, see above.\n"
		"\n"
		"From 12:00 on, it hangs.\n"
		"From 1234567890abcdef Mon Sep 17 00:00:00 2001\n");
	/* A message with nothing in it. */
	assert_int_equal(mb.msgs[1].line, 11);
	assert_null(mb.msgs[1].subject);
	assert_null(mb.msgs[1].title);
	assert_string_equal(mb.msgs[1].body, "");
	assert_null(mb.msgs[1].problem);
	assert_int_equal(mb.msgs[2].line, 13);
	assert_string_equal(mb.msgs[2].subject, "three");
	assert_string_equal(mb.msgs[2].body, "");
	mbox_release(&mb);
}

/*
 * ">From " quoting both ways: the mail writer (report_add_mail_body(),
 * for every patch and FAILED mail) quotes a body line that starts with
 * "From ", so that one that looks like a From_ line after an empty
 * line does not start a message, and the reader takes the '>' off.
 */
static void test_from_quoting(void **state)
{
	static const char body[] =
		"From the start, it did.\n"
		"\n"
		"From 1234567890abcdef Mon Sep 17 00:00:00 2001\n"
		"From someone at 10:12:30 2024\n"
		"From: Not A Header <x@example.org>\n"
		"From 10:30 to 1989 is not a date.\n"
		"Fromage, and \"From \" inside a line, stay.\n";
	struct strbuf text = STRBUF_INIT;
	struct mbox mb;

	(void)state;
	strbuf_addstr(&text, FROM_ "Subject: [PATCH] ext4: fix\n\n");
	report_add_mail_body(&text, body, 0);
	/*
	 * Only what git mailsplit (or our reader) would split at is
	 * quoted: git am keeps the rest of a commit message as it is.
	 */
	assert_string_equal(text.buf, FROM_ "Subject: [PATCH] ext4: fix\n\n"
		"From the start, it did.\n"
		"\n"
		">From 1234567890abcdef Mon Sep 17 00:00:00 2001\n"
		">From someone at 10:12:30 2024\n"
		"From: Not A Header <x@example.org>\n"
		"From 10:30 to 1989 is not a date.\n"
		"Fromage, and \"From \" inside a line, stay.\n");
	read_ok(&mb, text.buf, text.len);
	assert_int_equal(mb.nr, 1);
	assert_string_equal(mb.msgs[0].body, body);
	mbox_release(&mb);
	/* A mail for people: every "From " line, for mboxo readers. */
	strbuf_reset(&text);
	report_add_mail_body(&text, body, 1);
	assert_string_equal(text.buf,
		">From the start, it did.\n"
		"\n"
		">From 1234567890abcdef Mon Sep 17 00:00:00 2001\n"
		">From someone at 10:12:30 2024\n"
		"From: Not A Header <x@example.org>\n"
		">From 10:30 to 1989 is not a date.\n"
		"Fromage, and \"From \" inside a line, stay.\n");
	strbuf_release(&text);
}

/* Replaces every "\n" of text with "\r\n" (all), or every other one. */
static char *to_crlf(const char *text, int all)
{
	struct strbuf sb = STRBUF_INIT;
	int n = 0;

	for (; *text; text++) {
		if (*text == '\n' && (all || n++ % 2))
			strbuf_addch(&sb, '\r');
		strbuf_addch(&sb, *text);
	}
	return strbuf_detach(&sb, NULL);
}

static void assert_same_msgs(const struct mbox *a, const struct mbox *b)
{
	size_t i;

	assert_int_equal(a->nr, b->nr);
	for (i = 0; i < a->nr; i++) {
		const struct mbox_msg *x = &a->msgs[i], *y = &b->msgs[i];

		assert_int_equal(x->line, y->line);
		assert_str_or_null(x->subject, y->subject);
		assert_str_or_null(x->message_id, y->message_id);
		assert_str_or_null(x->in_reply_to, y->in_reply_to);
		assert_str_or_null(x->date, y->date);
		assert_string_equal(x->body, y->body);
		assert_str_or_null(x->diff, y->diff);
		assert_str_or_null(x->problem, y->problem);
	}
}

static void test_crlf(void **state)
{
	char *all = to_crlf(series, 1), *mixed = to_crlf(series, 0);
	struct mbox lf, crlf, half;

	read_str(&lf, series);
	read_str(&crlf, all);
	read_str(&half, mixed);
	assert_int_equal(lf.nr, 3);
	assert_same_msgs(&lf, &crlf);
	assert_same_msgs(&lf, &half);
	assert_null(strchr(crlf.msgs[0].body, '\r'));
	mbox_release(&lf);
	mbox_release(&crlf);
	mbox_release(&half);
	free(all);
	free(mixed);
}

static void test_headers(void **state)
{
	static const char text[] =
		FROM_
		"sUbJeCt: =?UTF-8?Q?xfs:_fix_caf=C3=A9?=\n"
		"\t=?utf-8?B?IGFuZCBuYcOv?=\n"
		"  =?UTF-8?q?ve?= code\n"
		"FROM: =?ISO-8859-1?Q?J=F6rg?= Tester <jt@example.org>\n"
		"message-id:   <id-1@example.org>  \n"
		"In-Reply-To: <parent@example.org> (Rita's message of Monday)\n"
		"Subject: the second subject is ignored\n"
		"\n"
		"body\n"
		"\n"
		FROM_
		"Subject: =?UTF-8?B?w6k=?==?UTF-8?B?w6k=?= plain =?UTF-8?Q?=C3?=\n"
		" =?UTF-8?Q?=A9?= =?KOI8-R?B?8NLJ18XU?=\n"
		"From: =?utf-8?Q?broken?=?= a\tb\x01" "c \xff!\n"
		"Message-ID: bare@example.org\n"
		"Date: Tue, 16 Jan 2024 09:00:00\n"
		" +0100\n"
		"\n";
	struct mbox mb;
	const struct mbox_msg *m;

	read_str(&mb, text);
	assert_int_equal(mb.nr, 2);
	m = &mb.msgs[0];
	/* Folded, encoded in three words, the white space between them gone. */
	assert_string_equal(m->subject, "xfs: fix caf\xc3\xa9 and na\xc3\xafve code");
	assert_string_equal(m->title, m->subject);
	assert_string_equal(m->from, "J\xc3\xb6rg Tester <jt@example.org>");
	assert_string_equal(m->message_id, "id-1@example.org");
	assert_string_equal(m->in_reply_to, "parent@example.org");
	assert_null(m->problem);

	m = &mb.msgs[1];
	/*
	 * A UTF-8 sequence cut between two words comes back whole; a word
	 * in a charset we do not know stays as written.
	 */
	assert_string_equal(m->subject,
			    "\xc3\xa9\xc3\xa9 plain \xc3\xa9 =?KOI8-R?B?8NLJ18XU?=");
	/* Control characters become spaces, bad UTF-8 U+FFFD. */
	assert_string_equal(m->from, "broken?= a b c \xef\xbf\xbd!");
	assert_string_equal(m->message_id, "bare@example.org");
	assert_string_equal(m->date, "Tue, 16 Jan 2024 09:00:00 +0100");
	mbox_release(&mb);
}

/* Missing headers give NULL fields; the message is still there. */
static void test_missing_headers(void **state)
{
	static const char text[] =
		FROM_
		"From: Ann Author <ann@example.org>\n"
		"\n"
		"No subject, no Message-ID.\n"
		"\n"
		FROM_
		"\n"
		"No headers at all.\n"
		"\n"
		FROM_
		"Subject:\n"
		"Message-ID: <>\n"
		"\n"
		"Empty ones.\n"
		"\n"
		FROM_;
	struct mbox mb;
	size_t i;

	read_str(&mb, text);
	assert_int_equal(mb.nr, 4);
	assert_string_equal(mb.msgs[0].from, "Ann Author <ann@example.org>");
	assert_string_equal(mb.msgs[0].body, "No subject, no Message-ID.\n");
	assert_string_equal(mb.msgs[1].body, "No headers at all.\n");
	assert_null(mb.msgs[1].from);
	assert_string_equal(mb.msgs[2].body, "Empty ones.\n");
	assert_string_equal(mb.msgs[3].body, "");
	assert_int_equal(mb.msgs[3].line, 16);
	for (i = 0; i < mb.nr; i++) {
		const struct mbox_msg *m = &mb.msgs[i];

		assert_int_equal(m->index, i + 1);
		assert_null(m->subject);
		assert_null(m->title);
		assert_null(m->message_id);
		assert_null(m->in_reply_to);
		assert_null(m->date);
		assert_null(m->version);
		assert_int_equal(m->number, 0);
		assert_int_equal(m->total, 0);
		assert_null(m->problem);
	}
	mbox_release(&mb);
}

static void test_transfer_encodings(void **state)
{
	static const char text[] =
		FROM_						/* 1 */
		"Subject: qp\n"
		"Content-Transfer-Encoding: Quoted-Printable\n"
		"\n"
		"a =3D b, caf=C3=A9 and a very long line that was cut=\n" /* 5 */
		" here=  \n"
		"tab=09end=0D=0Anext=\n"
		"\n"
		"stray = and =ZZ stay\n"
		"\n"						/* 10 */
		FROM_
		"Subject: base64\n"
		"Content-Transfer-Encoding: base64\n"
		"\n"
		/* "line one\r\nline two\r\n" */
		"bGluZSBvbmUNCmxp\n"				/* 15 */
		"bmUgdHdvDQo=\n"
		"\n"
		FROM_
		"Subject: 8bit\n"
		"Content-Transfer-Encoding: 8bit\n"		/* 20 */
		"\n"
		"caf\xc3\xa9 =3D as is\n"
		"\n"
		FROM_
		"Subject: bad base64\n"				/* 25 */
		"Content-Transfer-Encoding: base64\n"
		"\n"
		"aGVs*bG8=\n"
		"\n"
		FROM_						/* 30 */
		"Subject: uuencode\n"
		"Content-Transfer-Encoding: x-uuencode\n"
		"\n"
		"begin 644 x\n";
	struct mbox mb;

	read_str(&mb, text);
	assert_int_equal(mb.nr, 5);
	assert_string_equal(mb.msgs[0].body,
		"a = b, caf\xc3\xa9 and a very long line that was cut here"
		"tab\tend\nnext\n"
		"stray = and =ZZ stay\n");
	assert_null(mb.msgs[0].problem);
	assert_string_equal(mb.msgs[1].body, "line one\nline two\n");
	assert_null(mb.msgs[1].problem);
	assert_string_equal(mb.msgs[2].body, "caf\xc3\xa9 =3D as is\n");
	/* What can be decoded is; the problem says where the body is. */
	assert_string_equal(mb.msgs[3].body, "hello");
	assert_string_equal(mb.msgs[3].problem, "bad base64 in the body");
	assert_int_equal(mb.msgs[3].problem_line, 28);
	assert_string_equal(mb.msgs[4].body, "begin 644 x\n");
	assert_string_equal(mb.msgs[4].problem,
			    "unknown Content-Transfer-Encoding 'x-uuencode'");
	assert_int_equal(mb.msgs[4].problem_line, 34);
	mbox_release(&mb);
}

static void test_multipart(void **state)
{
	static const char text[] =
		FROM_						/* 1 */
		"Subject: [PATCH 6.6 1/1] ext4: mixed\n"
		"MIME-Version: 1.0\n"
		"Content-Type: multipart/mixed; charset=\"x;y\";\n"
		" boundary=\"==b1==\"\n"			/* 5 */
		"\n"
		"This is a multi-part message in MIME format.\n"
		"--==b1==\n"
		"Content-Type: multipart/alternative; boundary=b2\n"
		"\n"						/* 10 */
		"--b2\n"
		"Content-Type: text/html\n"
		"\n"
		"<p>not this</p>\n"
		"--b2\n"					/* 15 */
		"Content-Type: TEXT/PLAIN; charset=utf-8\n"
		"Content-Transfer-Encoding: quoted-printable\n"
		"\n"
		"caf=C3=A9\n"
		"diff --git a/x b/x\n"				/* 20 */
		"--b2--\n"
		"--==b1==\n"
		"Content-Type: text/plain\n"
		"\n"
		"not this either\n"				/* 25 */
		"--==b1==--\n"
		"epilogue\n"
		"\n"
		FROM_
		"Subject: html only\n"				/* 30 */
		"Content-Type: multipart/alternative; boundary=\"b\"\n"
		"\n"
		"--b\n"
		"Content-Type: text/html\n"
		"\n"						/* 35 */
		"<p>x</p>\n"
		"--b--\n"
		"\n"
		FROM_
		"Subject: no boundary\n"			/* 40 */
		"Content-Type: multipart/mixed\n"
		"\n"
		"raw text\n"
		"\n"
		FROM_						/* 45 */
		"Subject: cut short\n"
		"Content-Type: multipart/mixed; boundary=c\n"
		"\n"
		"--c\n"
		"\n"						/* 50 */
		"the part has no headers, so it is text/plain\n";
	struct mbox mb;

	read_str(&mb, text);
	assert_int_equal(mb.nr, 4);
	assert_string_equal(mb.msgs[0].body, "caf\xc3\xa9\ndiff --git a/x b/x\n");
	assert_string_equal(mb.msgs[0].diff, "diff --git a/x b/x\n");
	assert_null(mb.msgs[0].problem);
	assert_string_equal(mb.msgs[1].body, "");
	assert_string_equal(mb.msgs[1].problem,
			    "multipart message without a text/plain part");
	assert_int_equal(mb.msgs[1].problem_line, 33);
	assert_string_equal(mb.msgs[2].body, "raw text\n");
	assert_string_equal(mb.msgs[2].problem,
			    "multipart message without a boundary");
	assert_int_equal(mb.msgs[2].problem_line, 43);
	assert_string_equal(mb.msgs[3].body,
			    "the part has no headers, so it is text/plain\n");
	assert_null(mb.msgs[3].problem);
	mbox_release(&mb);
}

/* Multiparts nested deeper than the reader follows: no crash. */
static void test_multipart_nested(void **state)
{
	struct strbuf sb = STRBUF_INIT;
	struct mbox mb;
	int i;

	strbuf_addstr(&sb, FROM_ "Subject: deep\n");
	for (i = 0; i < 200; i++)
		strbuf_addf(&sb, "Content-Type: multipart/mixed; boundary=b%d\n"
			    "\n--b%d\n", i, i);
	strbuf_addstr(&sb, "\ntext\n");
	read_str(&mb, sb.buf);
	assert_int_equal(mb.nr, 1);
	assert_string_equal(mb.msgs[0].body, "");
	assert_string_equal(mb.msgs[0].problem,
			    "multipart parts nested more than 8 deep");
	/* Each level takes three lines; level 8 has its body on line 29. */
	assert_int_equal(mb.msgs[0].problem_line, 5 + 3 * 8);
	mbox_release(&mb);
	strbuf_release(&sb);
}

static size_t count_lines(const char *p, size_t len)
{
	size_t n = 0;

	while (len--)
		n += *p++ == '\n';
	return n;
}

static void test_not_mbox(void **state)
{
	static const char nul[] = FROM_ "Subject: x\n\nbin\0ary\n";
	struct strbuf late = STRBUF_INIT;
	struct mbox mb;
	size_t nul_at;

	read_fails("", 0, "error: 'test.mbox' is not an mbox (empty file)\n");
	read_fails("\n \n\t\n", 5,
		   "error: 'test.mbox' is not an mbox (only blank lines)\n");
	read_fails(nul, sizeof(nul) - 1, "error: 'test.mbox' is not an mbox "
		   "(binary: NUL byte on line 4)\n");
	read_fails("\r\n\nHello,\nFrom me Mon Jan  1 00:00:00 2024\n", 43,
		   "error: 'test.mbox' is not an mbox (line 3 starts with "
		   "neither 'From ' nor a header)\n");
	read_fails(" Subject: indented\n", 19,
		   "error: 'test.mbox' is not an mbox (line 1 starts with "
		   "neither 'From ' nor a header)\n");

	/* A NUL byte after the first 8000 bytes marks only its message. */
	strbuf_addstr(&late, FROM_ "Subject: long\n\n");
	while (late.len < 9000)
		strbuf_addstr(&late, "0123456789abcdef\n");
	strbuf_addstr(&late, "x\n");
	strbuf_addch(&late, '\0');
	strbuf_addstr(&late, "y\n\n" FROM_ "Subject: fine\n");
	read_ok(&mb, late.buf, late.len);
	assert_int_equal(mb.nr, 2);
	assert_string_equal(mb.msgs[0].problem, "NUL byte");
	nul_at = (size_t)(strchr(late.buf, '\0') - late.buf);
	assert_int_equal(mb.msgs[0].problem_line,
			 1 + count_lines(late.buf, nul_at));
	assert_string_equal(mb.msgs[0].body + strlen(mb.msgs[0].body) - 7,
			    "x\n\xef\xbf\xbdy\n");
	assert_null(mb.msgs[1].problem);
	assert_string_equal(mb.msgs[1].subject, "fine");
	mbox_release(&mb);
	strbuf_release(&late);
}

/* A mail saved on its own, starting with its headers, as git am takes. */
static void test_single_message(void **state)
{
	static const char text[] =
		"\n"
		"From: Ann Author <ann@example.org>\n"
		"Subject: [PATCH 5.15.y] btrfs: fix the tree log\n"
		"\n"
		">From the tree log: no escapes here.\n"
		"\n"
		"From git@z Thu Jan  1 00:00:00 1970\n"
		"Subject: not a second message\n";
	struct mbox mb;

	read_str(&mb, text);
	assert_int_equal(mb.nr, 1);
	assert_int_equal(mb.msgs[0].index, 1);
	assert_int_equal(mb.msgs[0].line, 2);
	assert_string_equal(mb.msgs[0].version, "5.15");
	assert_string_equal(mb.msgs[0].title, "btrfs: fix the tree log");
	assert_string_equal(mb.msgs[0].body,
		">From the tree log: no escapes here.\n"
		"\n"
		"From git@z Thu Jan  1 00:00:00 1970\n"
		"Subject: not a second message\n");
	mbox_release(&mb);
}

/* Messages that cannot be understood are kept, with what is wrong. */
static void test_problems(void **state)
{
	static const char text[] =
		FROM_						/* 1 */
		"Subject: [PATCH 6.1 1/3] fine\n"
		"Message-ID: <m1@example.org>\n"
		"\n"
		"one\n"						/* 5 */
		"\n"
		FROM_
		"This is not a header, and it is much longer than forty bytes\n"
		"Subject: [PATCH 6.1 2/3] lost\n"
		"\n"						/* 10 */
		"two\n"
		"\n"
		FROM_
		"Message-ID: <m3@example.org>\n"
		"Subject: [PATCH 6.1 3/3]\n"			/* 15 */
		"  folded\n"
		"X-Bad\x01header: x\n"
		"\n"
		"three\n"
		"\n"						/* 20 */
		FROM_
		"\tcontinued\n"
		"\n";
	struct mbox mb;
	const struct mbox_msg *m;

	read_str(&mb, text);
	assert_int_equal(mb.nr, 4);
	assert_null(mb.msgs[0].problem);

	m = &mb.msgs[1];
	assert_int_equal(m->index, 2);
	assert_null(m->subject);
	assert_null(m->message_id);
	assert_string_equal(m->problem, "bad header line 'This is not a header, "
			    "and it is much lon...' (expected 'Name: value' "
			    "or a blank line)");
	assert_int_equal(m->problem_line, 8);
	/* The rest is the body, so that nothing is lost. */
	assert_true(!strncmp(m->body, "This is not a header", 20));

	m = &mb.msgs[2];
	assert_string_equal(m->message_id, "m3@example.org");
	assert_string_equal(m->title, "folded");
	assert_int_equal(m->number, 3);
	assert_string_equal(m->problem, "bad header line 'X-Bad?header: x' "
			    "(expected 'Name: value' or a blank line)");
	assert_int_equal(m->problem_line, 17);

	m = &mb.msgs[3];
	assert_string_equal(m->problem, "continuation line '?continued' "
			    "without a header before it");
	assert_int_equal(m->problem_line, 22);
	mbox_release(&mb);
}

struct subject_case {
	const char *subject;
	const char *title;
	const char *version;
	int number, total, is_reply, autosel;
};

static void test_subjects(void **state)
{
	static const struct subject_case cases[] = {
		{ "[PATCH AUTOSEL 6.1 03/12] xfs: fix a leak",
		  "xfs: fix a leak", "6.1", 3, 12, 0, 1 },
		{ "[PATCH 6.6 012/123] ext4: avoid a deadlock in the journal",
		  "ext4: avoid a deadlock in the journal", "6.6", 12, 123, 0, 0 },
		{ "[PATCH 5.15.y] btrfs: fix the tree log",
		  "btrfs: fix the tree log", "5.15", 0, 0, 0, 0 },
		{ "[PATCH v2 6.1 1/3] iomap: fix the bounds",
		  "iomap: fix the bounds", "6.1", 1, 3, 0, 0 },
		{ "Re: [PATCH 6.1 03/12] xfs: fix a leak",
		  "xfs: fix a leak", "6.1", 3, 12, 1, 0 },
		{ "[PATCH] fs: fix a race", "fs: fix a race", NULL, 0, 0, 0, 0 },
		{ "[PATCH AUTOSEL 6.12 17/25] xfs: check the size",
		  "xfs: check the size", "6.12", 17, 25, 0, 1 },
		{ "xfs: fix a leak", "xfs: fix a leak", NULL, 0, 0, 0, 0 },
		{ "[PATCH 6.6-stable] ext4: x", "ext4: x", "6.6", 0, 0, 0, 0 },
		{ "[PATCH AUTOSEL 6.19-6.12] alpha: fix compaction",
		  "alpha: fix compaction", "6.19", 0, 0, 0, 1 },
		{ "RE: re:[PATCH 5.10 2/2] nfs: y", "nfs: y", "5.10", 2, 2, 1, 0 },
		{ "[f2fs-dev] [PATCH 6.1,v3 1/2] f2fs: z", "f2fs: z", "6.1", 1, 2,
		  0, 0 },
		{ "[PATCH v6.6 2/4] xfs: v and a version", "xfs: v and a version",
		  "6.6", 2, 4, 0, 0 },
		{ "[PATCH v3] xfs: revision only", "xfs: revision only", NULL,
		  0, 0, 0, 0 },
		{ "[PATCH 0/3] cover letter", "cover letter", NULL, 0, 3, 0, 0 },
		{ "[PATCH 6.1 03/12 xfs: unclosed", "[PATCH 6.1 03/12 xfs: unclosed",
		  NULL, 0, 0, 0, 0 },
		{ "[PATCH 6.1.70 1/1]  ", "", "6.1", 1, 1, 0, 0 },
		{ "[PATCH 6.1a 1/123456] no", "no", NULL, 0, 0, 0, 0 },
		{ "[GIT PULL] Linux 6.1.70", "Linux 6.1.70", NULL, 0, 0, 0, 0 },
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		const struct subject_case *c = &cases[i];
		char *text = xstrfmt(FROM_ "Subject: %s\n\nbody\n", c->subject);
		struct mbox mb;
		const struct mbox_msg *m;

		read_str(&mb, text);
		assert_int_equal(mb.nr, 1);
		m = &mb.msgs[0];
		assert_string_equal(m->title, c->title);
		assert_str_or_null(m->version, c->version);
		assert_int_equal(m->number, c->number);
		assert_int_equal(m->total, c->total);
		assert_int_equal(m->is_reply, c->is_reply);
		assert_int_equal(m->autosel, c->autosel);
		mbox_release(&mb);
		free(text);
	}
}

/* What the list archives need: revisions, References, offsets, dates. */
static void test_revisions(void **state)
{
	static const struct { const char *subject; int revision, number, total; } cases[] = {
		{ "[PATCH v3] xfs: revision only", 3, 0, 0 },
		{ "[PATCH v2 0/7] xfs: log fixes", 2, 0, 7 },
		{ "[PATCH V12 3/7] xfs: a capital V", 12, 3, 7 },
		{ "[PATCH 6.1,v3 1/2] f2fs: z", 3, 1, 2 },
		{ "[PATCH v6.6 2/4] xfs: a version, not a revision", 0, 2, 4 },
		{ "Re: [PATCH v2 1/2] ext4: a reply", 2, 1, 2 },
		{ "[PATCH vv2] odd", 0, 0, 0 },
		{ "[PATCH v1234] too many digits", 0, 0, 0 },
		{ "[PATCH] none", 0, 0, 0 },
	};
	size_t i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		char *text = xstrfmt(FROM_ "Subject: %s\n\nbody\n", cases[i].subject);
		struct mbox mb;

		read_str(&mb, text);
		assert_int_equal(mb.msgs[0].revision, cases[i].revision);
		assert_int_equal(mb.msgs[0].number, cases[i].number);
		assert_int_equal(mb.msgs[0].total, cases[i].total);
		mbox_release(&mb);
		free(text);
	}
}

static void test_references(void **state)
{
	static const char text[] =
		"From: a@example.org\n"
		"Subject: Re: [PATCH 2/3] x\n"
		"References: <root@example.org>\n"
		"\t<2-bad id@example.org> <>\n"
		" <20240115150003.1000-2-a@example.org>  <unclosed@example.org\n"
		"\n"
		"body\n";
	struct mbox mb;

	(void)state;
	read_str(&mb, text);
	assert_int_equal(mb.msgs[0].nr_references, 2);
	assert_string_equal(mb.msgs[0].references[0], "root@example.org");
	assert_string_equal(mb.msgs[0].references[1],
			    "20240115150003.1000-2-a@example.org");
	mbox_release(&mb);

	read_str(&mb, "From: a@example.org\nSubject: x\n\nbody\n");
	assert_int_equal(mb.msgs[0].nr_references, 0);
	assert_null(mb.msgs[0].references);
	mbox_release(&mb);
}

/* To, Cc and From as addresses: names decoded one by one, after the split. */
static void test_addresses(void **state)
{
	static const char text[] =
		"From: =?UTF-8?Q?Ren=C3=A9_Ts=27o?= <rene@example.org>\n"
		"To: stable@vger.kernel.org, \"Wong, Darrick\" <djwong@kernel.org>\n"
		"Cc: =?UTF-8?Q?Wong,_D?= <d@k.org>,\n"
		" jack@suse.cz (Jan \\(Kara\\)), list: a@x.org, b@x.org;,\n"
		" undisclosed-recipients:;\n"
		"Subject: x\n"
		"\n"
		"body\n";
	struct mbox_address *v = NULL;
	struct mbox mb;
	size_t nr = 0;

	(void)state;
	read_str(&mb, text);
	assert_string_equal(mb.msgs[0].from_addr->name, "Ren\xc3\xa9 Ts'o");
	assert_string_equal(mb.msgs[0].from_addr->email, "rene@example.org");
	assert_int_equal(mb.msgs[0].nr_to, 2);
	assert_null(mb.msgs[0].to[0].name);
	assert_string_equal(mb.msgs[0].to[0].email, "stable@vger.kernel.org");
	assert_string_equal(mb.msgs[0].to[1].name, "Wong, Darrick");
	assert_int_equal(mb.msgs[0].nr_cc, 4);
	assert_string_equal(mb.msgs[0].cc[0].name, "Wong, D");
	assert_string_equal(mb.msgs[0].cc[0].email, "d@k.org");
	assert_string_equal(mb.msgs[0].cc[1].name, "Jan (Kara)");
	assert_string_equal(mb.msgs[0].cc[1].email, "jack@suse.cz");
	assert_null(mb.msgs[0].cc[2].name);
	assert_string_equal(mb.msgs[0].cc[2].email, "a@x.org");
	assert_string_equal(mb.msgs[0].cc[3].email, "b@x.org");
	mbox_release(&mb);

	/* A body's "From:" line, UTF-8 as written. */
	mbox_address_list(" Ren\xc3\xa9 <r@x.org>", &v, &nr);
	assert_int_equal(nr, 1);
	assert_string_equal(v[0].name, "Ren\xc3\xa9");
	mbox_address_free(v, nr);
}

/* Each message's bytes, read on their own, give the message again. */
static void test_offsets(void **state)
{
	char *crlf = to_crlf(series, 0);
	const char *texts[] = { series, crlf };
	size_t t, i;

	(void)state;
	for (t = 0; t < ARRAY_SIZE(texts); t++) {
		struct mbox mb, one;

		read_str(&mb, texts[t]);
		assert_int_equal(mb.nr, 3);
		assert_int_equal(mb.msgs[0].offset, 0);
		for (i = 0; i < mb.nr; i++) {
			const struct mbox_msg *m = &mb.msgs[i];

			assert_true(m->offset + m->length <= strlen(texts[t]));
			assert_memory_equal(texts[t] + m->offset, "From ", 5);
			if (i + 1 < mb.nr)
				assert_true(m->offset + m->length <=
					    mb.msgs[i + 1].offset);
			mbox_init(&one);
			assert_int_equal(mbox_read_quiet(&one, texts[t] + m->offset,
							 m->length), 0);
			assert_int_equal(one.nr, 1);
			assert_string_equal(one.msgs[0].message_id, m->message_id);
			assert_string_equal(one.msgs[0].body, m->body);
			mbox_release(&one);
		}
		mbox_release(&mb);
	}
	free(crlf);
}

static void test_dates(void **state)
{
	static const struct { const char *date; long long time; int tz; } ok[] = {
		{ "Tue, 14 Nov 2023 22:13:20 +0000", 1700000000, 0 },
		{ "14 Nov 2023 22:13:20 +0000", 1700000000, 0 },
		{ "Tue, 14 Nov 2023 17:13:20 -0500", 1700000000, -300 },
		{ "Wed, 15 Nov 2023 03:43:20 +0530", 1700000000, 330 },
		{ "Tue, 14 Nov 2023 22:13 +0000", 1699999980, 0 },
		{ "Tue, 14 Nov 2023 22:13:20 GMT", 1700000000, 0 },
		{ "Tue, 14 Nov 2023 14:13:20 PST", 1700000000, -480 },
		{ "Tue, 14 Nov 23 22:13:20 +0000", 1700000000, 0 },
		{ "Tue,  14 Nov 2023 22:13:20 +0000 (UTC)", 1700000000, 0 },
		{ "Thu, 1 Jan 1970 00:00:00 +0000", 0, 0 },
		{ "Mon, 29 Feb 2016 12:00:00 +0000", 1456747200, 0 },
	};
	static const char *const bad[] = {
		"", "yesterday", "Tue, 14 Foo 2023 22:13:20 +0000",
		"Tue, 32 Nov 2023 22:13:20 +0000", "Tue, 14 Nov 2023 25:13:20 +0000",
		"Tue, 14 Nov 2023 22:13:20 +00", "Tue, 14 Nov 2023",
	};
	long long t;
	int tz;
	size_t i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(ok); i++) {
		assert_int_equal(mbox_parse_date(ok[i].date, &t, &tz), 0);
		assert_int_equal(t, ok[i].time);
		assert_int_equal(tz, ok[i].tz);
	}
	for (i = 0; i < ARRAY_SIZE(bad); i++)
		assert_int_equal(mbox_parse_date(bad[i], &t, &tz), -1);
	assert_int_equal(mbox_parse_date(NULL, &t, &tz), -1);
}

/* Where mbox_read() would split, found from any offset. */
static void test_next_message(void **state)
{
	static const char text[] =
		FROM_ "Subject: one\n\nFrom the manual, a line.\n\n"
		"From the manual again\n" FROM_ "not after an empty line\n\n"
		FROM_ "Subject: two\n\nbody\n";
	static const char crlf[] = "\r\n" FROM_ "x\r\n\r\n" FROM_ "y\r\n";
	size_t len = strlen(text), two = strstr(text, "\n\n" FROM_ "Subject: two") +
		     2 - text;

	(void)state;
	assert_int_equal(mbox_next_message(text, len, 0), 0);
	assert_int_equal(mbox_next_message(text, len, 1), two);
	assert_int_equal(mbox_next_message(text, len, two), two);
	assert_int_equal(mbox_next_message(text, len, two + 1), len);
	assert_int_equal(mbox_next_message(text, len, len), len);
	assert_int_equal(mbox_next_message(crlf, strlen(crlf), 0), 2);
	assert_int_equal(mbox_next_message(crlf, strlen(crlf), 3),
			 strstr(crlf, "x\r\n\r\n") + 5 - crlf);
	assert_int_equal(mbox_next_message("", 0, 0), 0);
}

static void test_read_file(void **state)
{
	char path[] = "/tmp/test_mbox.XXXXXX";
	struct mbox mb = MBOX_INIT;
	struct capture c;
	char *err, *expect;
	int fd = mkstemp(path), saved;

	assert_true(fd >= 0);
	assert_int_equal(write(fd, series, sizeof(series) - 1),
			 (ssize_t)(sizeof(series) - 1));
	close(fd);

	assert_int_equal(mbox_read_file(&mb, path), 0);
	assert_int_equal(mb.nr, 3);
	/* A second file appends; indexes count in each file. */
	assert_int_equal(mbox_read_file(&mb, path), 0);
	assert_int_equal(mb.nr, 6);
	assert_int_equal(mb.msgs[3].index, 1);
	mbox_release(&mb);

	/* "-" is standard input. */
	saved = dup(0);
	fd = open(path, O_RDONLY);
	assert_true(saved >= 0 && fd >= 0);
	assert_int_equal(dup2(fd, 0), 0);
	close(fd);
	assert_int_equal(mbox_read_file(&mb, "-"), 0);
	assert_int_equal(dup2(saved, 0), 0);
	close(saved);
	assert_int_equal(mb.nr, 3);
	mbox_release(&mb);

	assert_int_equal(unlink(path), 0);
	capture_begin(&c);
	assert_int_equal(mbox_read_file(&mb, path), -1);
	err = capture_end(&c);
	expect = xstrfmt("error: cannot read '%s': No such file or directory\n",
			 path);
	assert_string_equal(err, expect);
	assert_int_equal(mb.nr, 0);
	free(err);
	free(expect);
}

/* Checks what any successful read must give. */
static void assert_sane(const struct mbox *mb, int ret, size_t len)
{
	size_t i;

	assert_true(ret == 0 || ret == -1);
	if (ret) {
		assert_int_equal(mb->nr, 0);
		return;
	}
	assert_true(mb->nr >= 1);
	for (i = 0; i < mb->nr; i++) {
		const struct mbox_msg *m = &mb->msgs[i];

		assert_int_equal(m->index, i + 1);
		assert_true(m->line >= 1);
		assert_non_null(m->body);
		assert_true(!m->subject == !m->title);
		assert_true(!m->problem == !m->problem_line);
		assert_true(m->number >= 0 && m->total >= 0);
		if (m->diff)
			assert_non_null(strstr(m->body, m->diff));
	}
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
 * Every prefix of an mbox (cut anywhere, in a header, an encoded word,
 * a base64 body, a multipart delimiter), then random text made of
 * pieces of mail syntax and random bytes: no crash, no leak, a sane
 * result.
 */
static void test_robustness(void **state)
{
	static const char *const pieces[] = {
		FROM_, "\n", "\r\n", "\n\n", "From ", ">From ", "Subject: ",
		"Content-Type: multipart/mixed; boundary=q\n", "--q\n",
		"--q--\n", "Content-Transfer-Encoding: base64\n",
		"Content-Transfer-Encoding: quoted-printable\n", "=?UTF-8?B?",
		"=?UTF-8?Q?", "?=", "=", "=C3", " ", "\t", "[PATCH 6.1 1/2] ",
		"Re: ", "diff --git ", "x", "\xc3", "\xff", "<", ">",
		"Message-ID: <", "In-Reply-To: ", "\"", ";", "AUTOSEL",
	};
	struct strbuf all = STRBUF_INIT, text = STRBUF_INIT;
	struct mbox mb = MBOX_INIT;
	struct capture c;
	uint32_t seed = 2463534242u;
	size_t len, i;
	int round, ret;
	char *err;

	strbuf_addstr(&all, series);
	strbuf_addstr(&all,
		"\n" FROM_
		"Subject: =?UTF-8?B?w6k=?= =?UTF-8?Q?caf=C3=A9?=\n"
		"Content-Type: multipart/mixed; boundary=\"b\"\n"
		"\n"
		"--b\n"
		"Content-Type: text/plain\n"
		"Content-Transfer-Encoding: base64\n"
		"\n"
		"bGluZSBvbmUNCmxp\n"
		"--b\n"
		"Content-Transfer-Encoding: quoted-printable\n"
		"\n"
		"a=3Db=\n"
		"--b--\n");

	capture_begin(&c);
	for (len = 0; len <= all.len; len++) {
		ret = mbox_read(&mb, "cut.mbox", all.buf, len);
		assert_sane(&mb, ret, len);
		mbox_release(&mb);
	}
	for (round = 0; round < 3000; round++) {
		size_t n = next_random(&seed) % 64;

		strbuf_reset(&text);
		if (round % 2)
			strbuf_addstr(&text, FROM_);
		for (i = 0; i < n; i++) {
			uint32_t r = next_random(&seed);

			if (r % 4)
				strbuf_addstr(&text, pieces[(r >> 8) %
							    ARRAY_SIZE(pieces)]);
			else
				strbuf_addch(&text, (int)(r >> 8) & 0xff);
		}
		ret = mbox_read(&mb, "random.mbox", text.buf, text.len);
		assert_sane(&mb, ret, text.len);
		mbox_release(&mb);
	}
	err = capture_end(&c);
	/* Failures say so, and nothing else is written. */
	for (i = 0; err[i]; i = (size_t)(strchr(err + i, '\n') - err) + 1)
		assert_true(!strncmp(err + i, "error: '", 8));
	free(err);
	strbuf_release(&all);
	strbuf_release(&text);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_series),
		cmocka_unit_test(test_from_lines),
		cmocka_unit_test(test_from_quoting),
		cmocka_unit_test(test_crlf),
		cmocka_unit_test(test_headers),
		cmocka_unit_test(test_missing_headers),
		cmocka_unit_test(test_transfer_encodings),
		cmocka_unit_test(test_multipart),
		cmocka_unit_test(test_multipart_nested),
		cmocka_unit_test(test_not_mbox),
		cmocka_unit_test(test_single_message),
		cmocka_unit_test(test_problems),
		cmocka_unit_test(test_subjects),
		cmocka_unit_test(test_read_file),
		cmocka_unit_test(test_robustness),
		cmocka_unit_test(test_revisions),
		cmocka_unit_test(test_references),
		cmocka_unit_test(test_addresses),
		cmocka_unit_test(test_offsets),
		cmocka_unit_test(test_dates),
		cmocka_unit_test(test_next_message),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
