#ifndef REPORT_AUDIT_H
#define REPORT_AUDIT_H

#include "stages/audit.h"
#include "base/strbuf.h"

/* What audit prints: see audit.h for the picks, flags and verdicts. */

/* One block per pick, worst first; JSON Lines, one object per pick. */
void audit_text(struct strbuf *out, const struct audit *a);
void audit_json(struct strbuf *out, const struct audit *a);

/*
 * The replies (RFC 5322, text/plain UTF-8) a maintainer writes:
 *
 * To the mails of an mbox (a->thread set), an mbox of replies: one to
 * the cover letter (or the first patch), the summary, with every pick
 * cited as its subject numbers it ("04/12 subject: reject, why"), to
 * drop, to check or fine, and the mails not judged (the cover, patches
 * that match no mainline commit); and one to each pick to drop or
 * check, threaded to its mail (In-Reply-To, and References: its own
 * and its id), quoting its subject.  Each is a reply-all: To the
 * sender, Cc every To and Cc of the mail and the patch's author, once
 * each, never from_email; Subject "Re: " and the mail's.  The
 * summary's Message-ID is message_id, the others add ".N" (N the
 * mail's place in the mbox) before its '@'.
 *
 * Without mails (--picks, --queue, --range), one message: the summary,
 * picks cited by commit, To to, Cc cc, Subject "Re: " subject.
 */
struct audit_reply {
	const char *from_name, *from_email;
	const char *to;			/* without mails: or NULL */
	const char *cc;			/* without mails: NULL or "": no Cc: */
	const char *subject;		/* without mails: NULL: "the picks for B" */
	const char *in_reply_to;	/* --in-reply-to, or NULL */
	const char *message_id;		/* the summary's */
	git_time_t now;
	const char *branch, *range;
};
void audit_email(struct strbuf *out, const struct audit *a,
		 const struct audit_reply *r);

#endif
