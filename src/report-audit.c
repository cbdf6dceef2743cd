/*
 * audit's printers: a block per pick, JSON Lines, and the reply to the
 * pick thread.  The picks and their flags are audit.c's.
 */
#include "report-audit.h"
#include "json.h"
#include "mail.h"
#include "score.h"
#include "util.h"

#include <string.h>
#include <strings.h>

/* Worst first; in the order given within a verdict. */
static int cmp_pick(const void *x, const void *y)
{
	const struct audit_pick *const *a = x, *const *b = y;

	if ((*a)->verdict != (*b)->verdict)
		return (*a)->verdict > (*b)->verdict ? -1 : 1;
	return (*a)->position < (*b)->position ? -1 :
	       (*a)->position > (*b)->position;
}

static const struct audit_pick **sorted(const struct audit *a)
{
	const struct audit_pick **v = xcalloc(a->nr ? a->nr : 1, sizeof(*v));
	size_t i;

	for (i = 0; i < a->nr; i++)
		v[i] = &a->picks[i];
	QSORT(v, a->nr, cmp_pick);
	return v;
}

static const char *subject_of(const struct audit_pick *p)
{
	return p->c && p->c->msg.subject ? p->c->msg.subject : "";
}

void audit_text(struct strbuf *out, const struct audit *a)
{
	const struct audit_pick **v = sorted(a);
	size_t i, j;

	for (i = 0; i < a->nr; i++) {
		const struct audit_pick *p = v[i];

		strbuf_addf(out, "%-13s %.12s  %s  (%s)\n",
			    audit_verdict_name(p->verdict), p->hex,
			    subject_of(p), p->source);
		for (j = 0; j < p->nr_flags; j++)
			strbuf_addf(out, "              %s: %s\n", p->flags[j].flag,
				    p->flags[j].evidence);
	}
	free(v);
}

void audit_json(struct strbuf *out, const struct audit *a)
{
	const struct audit_pick **v = sorted(a);
	struct json_writer jw;
	size_t i, j;

	jw_init(&jw, out);
	for (i = 0; i < a->nr; i++) {
		const struct audit_pick *p = v[i];

		jw_object_begin(&jw);
		jw_object_string(&jw, "commit", p->hex);
		jw_object_string(&jw, "verdict", audit_verdict_name(p->verdict));
		jw_object_string(&jw, "subject", p->c ? p->c->msg.subject : NULL);
		jw_object_string(&jw, "input", p->source);
		jw_object_string(&jw, "message_id", p->message_id);
		jw_object_string(&jw, "judged", p->c && p->c->nr_touched ?
				 verdict_name(p->c->verdict) : NULL);
		jw_object_array(&jw, "flags");
		for (j = 0; j < p->nr_flags; j++) {
			jw_array_object(&jw);
			jw_object_string(&jw, "flag", p->flags[j].flag);
			jw_object_string(&jw, "weight",
					 audit_verdict_name(p->flags[j].weight));
			jw_object_string(&jw, "evidence", p->flags[j].evidence);
			jw_end(&jw);
		}
		jw_end(&jw);
		jw_end(&jw);
		strbuf_addch(out, '\n');
	}
	free(v);
}

static void reply_section(struct strbuf *out, const struct audit *a,
			  const struct audit_pick **v, enum audit_verdict which,
			  const char *title)
{
	struct strbuf line = STRBUF_INIT;
	size_t i, j, shown = 0;

	for (i = 0; i < a->nr; i++) {
		const struct audit_pick *p = v[i];

		if (p->verdict != which)
			continue;
		if (!shown++)
			strbuf_addf(out, "\n%s\n\n", title);
		strbuf_reset(&line);
		strbuf_addf(&line, "%.12s (\"%s\")", p->hex, subject_of(p));
		strbuf_addstr(out, "  ");
		mail_wrap(out, line.buf, 2, 4, 72);
		strbuf_addch(out, '\n');
		for (j = 0; j < p->nr_flags; j++) {
			strbuf_reset(&line);
			strbuf_addf(&line, "%s: %s", p->flags[j].flag,
				    p->flags[j].evidence);
			strbuf_addstr(out, "      ");
			mail_wrap(out, line.buf, 6, 8, 72);
			strbuf_addch(out, '\n');
		}
	}
	strbuf_release(&line);
}

void audit_email(struct strbuf *out, const struct audit *a,
		 const struct audit_reply *r)
{
	const struct audit_pick **v = sorted(a);
	struct strbuf subj = STRBUF_INIT, text = STRBUF_INIT;
	size_t counts[3] = { 0, 0, 0 }, i;

	for (i = 0; i < a->nr; i++)
		counts[a->picks[i].verdict]++;
	if (r->subject && strncasecmp(r->subject, "Re:", 3))
		strbuf_addstr(&subj, "Re: ");
	strbuf_addstr(&subj, r->subject ? r->subject : "the picks for ");
	if (!r->subject)
		strbuf_addstr(&subj, r->branch);

	mail_address_header(out, "From", r->from_name, r->from_email);
	if (r->to)
		mail_header(out, "To", r->to);
	if (r->cc && *r->cc)
		mail_header(out, "Cc", r->cc);
	mail_header(out, "Subject", subj.buf);
	strbuf_addstr(out, "Date: ");
	mail_date(out, r->now, 0);
	strbuf_addch(out, '\n');
	mail_id_header(out, "Message-ID", r->message_id);
	if (r->in_reply_to) {
		mail_id_header(out, "In-Reply-To", r->in_reply_to);
		mail_id_header(out, "References", r->in_reply_to);
	}
	strbuf_addstr(out, "MIME-Version: 1.0\n"
		      "Content-Type: text/plain; charset=UTF-8\n"
		      "Content-Transfer-Encoding: 8bit\n\n");

	strbuf_addf(&text, "These %zu picks for %s were judged against mainline "
		    "%s by stablepick: %zu to drop, %zu to check, %zu fine.",
		    a->nr, r->branch, r->range, counts[AUDIT_REJECT],
		    counts[AUDIT_QUESTIONABLE], counts[AUDIT_OK]);
	mail_wrap(out, text.buf, 0, 0, 72);
	strbuf_addch(out, '\n');
	reply_section(out, a, v, AUDIT_REJECT, "Please drop:");
	reply_section(out, a, v, AUDIT_QUESTIONABLE, "Please check:");
	reply_section(out, a, v, AUDIT_OK, "Fine:");
	strbuf_addstr(out, "\n-- \nstablepick audit\n");
	strbuf_release(&subj);
	strbuf_release(&text);
	free(v);
}
