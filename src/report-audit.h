#ifndef REPORT_AUDIT_H
#define REPORT_AUDIT_H

#include "audit.h"
#include "strbuf.h"

/* What audit prints: see audit.h for the picks, flags and verdicts. */

/* One block per pick, worst first; JSON Lines, one object per pick. */
void audit_text(struct strbuf *out, const struct audit *a);
void audit_json(struct strbuf *out, const struct audit *a);

/*
 * A reply to the pick thread (RFC 5322, text/plain UTF-8): the picks to
 * drop and why, those to check, and those that are fine.
 */
struct audit_reply {
	const char *from_name, *from_email;
	const char *to;			/* the thread's sender, or NULL */
	const char *cc;			/* NULL or "": no Cc: */
	const char *subject;		/* the thread's, "Re: " is added */
	const char *in_reply_to;	/* the thread's Message-ID */
	const char *message_id;
	git_time_t now;
	const char *branch, *range;
};
void audit_email(struct strbuf *out, const struct audit *a,
		 const struct audit_reply *r);

#endif
