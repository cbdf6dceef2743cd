/*
 * audit's printers: a block per pick, JSON Lines, and the reply to the
 * pick thread.  The picks and their flags are audit.c's.
 */
#include "report/report-audit.h"
#include "base/json.h"
#include "formats/mail.h"
#include "stages/score.h"
#include "base/util.h"

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

/* A flag as a reply to the list says it: what a reader acts on. */
static void add_flag_brief(struct strbuf *sb, const struct audit_flag *f)
{
	strbuf_addf(sb, "%s: ", f->flag);
	if (f->brief)
		strbuf_add(sb, f->evidence, f->brief);
	else
		strbuf_addstr(sb, f->evidence);
}

/* A mail that is neither a pick nor a reply: listed as not judged. */
static int not_judged(const struct audit_mail *m)
{
	return m->kind == AUDIT_MAIL_UNMATCHED || m->kind == AUDIT_MAIL_UNREADABLE;
}

static const char *mail_status(const struct audit_mail *m)
{
	return m->kind == AUDIT_MAIL_UNREADABLE ? "unreadable" : "unmatched";
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
	/* The mails that could not be judged: a maintainer asks about them. */
	for (i = 0; i < a->nr_mails; i++) {
		const struct audit_mail *m = a->mails[i];

		if (!not_judged(m))
			continue;
		strbuf_addf(out, "%-13s %-12s  ", mail_status(m), "-");
		mail_clean(out, m->title ? m->title : "no subject");
		strbuf_addf(out, "  (%s)\n              ", m->source);
		mail_clean(out, m->why);
		strbuf_addch(out, '\n');
	}
	free(v);
}

void audit_json(struct strbuf *out, const struct audit *a)
{
	const struct audit_pick **v = sorted(a);
	struct strbuf number = STRBUF_INIT;
	struct json_writer jw;
	size_t i, j;

	jw_init(&jw, out);
	for (i = 0; i < a->nr; i++) {
		const struct audit_pick *p = v[i];

		strbuf_reset(&number);
		if (p->mail)
			audit_cite(&number, a, p->mail);
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
		if (p->with.state == WITH_FOUND) {
			jw_object_array(&jw, "applies_with");
			for (j = 0; j < p->with.nr; j++)
				jw_array_string(&jw, p->with.v[j].hex);
			jw_end(&jw);
		} else {
			jw_object_null(&jw, "applies_with");
		}
		if (p->mail)
			jw_object_string(&jw, "number", number.buf);
		jw_end(&jw);
		strbuf_addch(out, '\n');
	}
	for (i = 0; i < a->nr_mails; i++) {
		const struct audit_mail *m = a->mails[i];

		if (!not_judged(m))
			continue;
		strbuf_reset(&number);
		audit_cite(&number, a, m);
		jw_object_begin(&jw);
		jw_object_string(&jw, "status", mail_status(m));
		jw_object_string(&jw, "number", number.buf);
		jw_object_string(&jw, "subject", m->title);
		jw_object_string(&jw, "input", m->source);
		jw_object_string(&jw, "message_id", m->message_id);
		jw_object_string(&jw, "why", m->why);
		jw_end(&jw);
		strbuf_addch(out, '\n');
	}
	strbuf_release(&number);
	free(v);
}

/*
 * A pick in a reply: "04/12 ext4: fix foo: reject, flag: evidence",
 * its other flags below it; without a mail (--picks), its commit.
 */
static void reply_item(struct strbuf *out, const struct audit *a,
		       const struct audit_pick *p)
{
	struct strbuf line = STRBUF_INIT;
	size_t j = 0;

	if (p->mail) {
		audit_cite(&line, a, p->mail);
		strbuf_addf(&line, " %s: %s", p->mail->title ? p->mail->title :
			    subject_of(p), audit_verdict_name(p->verdict));
		if (p->nr_flags) {
			strbuf_addstr(&line, ", ");
			add_flag_brief(&line, &p->flags[0]);
			j = 1;
		}
	} else {
		strbuf_addf(&line, "%.12s (\"%s\")", p->hex, subject_of(p));
	}
	strbuf_addstr(out, "  ");
	mail_wrap(out, line.buf, 2, p->mail ? 6 : 4, 72);
	strbuf_addch(out, '\n');
	for (; j < p->nr_flags; j++) {
		strbuf_reset(&line);
		add_flag_brief(&line, &p->flags[j]);
		strbuf_addstr(out, "      ");
		mail_wrap(out, line.buf, 6, 8, 72);
		strbuf_addch(out, '\n');
	}
	strbuf_release(&line);
}

static void reply_section(struct strbuf *out, const struct audit *a,
			  const struct audit_pick **v, enum audit_verdict which,
			  const char *title)
{
	size_t i, shown = 0;

	for (i = 0; i < a->nr; i++) {
		if (v[i]->verdict != which)
			continue;
		if (!shown++)
			strbuf_addf(out, "\n%s\n\n", title);
		reply_item(out, a, v[i]);
	}
}

/* The mails of the thread that are no pick: the cover, the unmatched. */
static void not_judged_section(struct strbuf *out, const struct audit *a)
{
	struct strbuf line = STRBUF_INIT;
	size_t i, shown = 0;

	for (i = 0; i < a->nr_mails; i++) {
		const struct audit_mail *m = a->mails[i];

		if (!not_judged(m) && m->kind != AUDIT_MAIL_COVER)
			continue;
		if (!shown++)
			strbuf_addstr(out, "\nNot judged:\n\n");
		strbuf_reset(&line);
		audit_cite(&line, a, m);
		strbuf_addf(&line, " %s: %s", m->title ? m->title : "no subject",
			    m->kind == AUDIT_MAIL_COVER ? "the cover letter, no patch"
							: m->why);
		strbuf_addstr(out, "  ");
		mail_wrap(out, line.buf, 2, 6, 72);
		strbuf_addch(out, '\n');
	}
	strbuf_release(&line);
}

/* The verdicts' counts, and what was not judged, in a sentence. */
static void summary_intro(struct strbuf *out, const struct audit *a,
			  const struct audit_reply *r)
{
	struct strbuf text = STRBUF_INIT;
	size_t counts[3] = { 0, 0, 0 }, unmatched = 0, by_position = 0, i;

	for (i = 0; i < a->nr; i++)
		counts[a->picks[i].verdict]++;
	for (i = 0; i < a->nr_mails; i++) {
		unmatched += not_judged(a->mails[i]);
		by_position += a->mails[i]->position && !a->mails[i]->total;
	}
	strbuf_addf(&text, "These %zu picks for %s were judged against mainline "
		    "%s by stablepick: %zu to drop, %zu to check, %zu fine",
		    a->nr, r->branch, r->range, counts[AUDIT_REJECT],
		    counts[AUDIT_QUESTIONABLE], counts[AUDIT_OK]);
	if (unmatched)
		strbuf_addf(&text, "; %zu %s of the thread %s not judged", unmatched,
			    unmatched == 1 ? "patch" : "patches",
			    unmatched == 1 ? "was" : "were");
	strbuf_addch(&text, '.');
	if (by_position)
		strbuf_addstr(&text, " A patch marked * has no N/M in its "
			      "subject: it is cited by its place among the "
			      "patches of the thread.");
	mail_wrap(out, text.buf, 0, 0, 72);
	strbuf_addch(out, '\n');
	strbuf_release(&text);
}

/*
 * Reply-all: To the sender, Cc every To and Cc of the mail and the
 * patch's author, each address once, never the user's own (when the
 * user sent it, the first other address is the To).
 */
static void reply_recipients(const struct audit_mail *m, const char *me,
			     struct mail_addrs *to, struct mail_addrs *cc)
{
	size_t i;

	mail_addrs_add_pair(cc, m->from.name, m->from.email);
	for (i = 0; i < m->nr_rcpt; i++)
		mail_addrs_add_pair(cc, m->rcpt[i].name, m->rcpt[i].email);
	mail_addrs_add_pair(cc, m->author.name, m->author.email);
	if (me)
		mail_addrs_remove(cc, me);
	if (cc->nr) {
		char *first = xstrdup(cc->v[0].email);

		mail_addrs_add_pair(to, cc->v[0].name, first);
		mail_addrs_remove(cc, first);
		free(first);
	}
}

/* "Re: " and the subject, never "Re: Re:". */
static void reply_subject(struct strbuf *out, const char *subject)
{
	const char *re = strncasecmp(subject, "Re:", 3) ? "Re: " : NULL;

	mail_header(out, "Subject", re, subject);
}

static void reply_headers(struct strbuf *out, const struct audit_mail *m,
			  const struct audit_reply *r, const char *message_id,
			  const char *in_reply_to)
{
	struct mail_addrs to = MAIL_ADDRS_INIT, cc = MAIL_ADDRS_INIT;
	const char **refs;
	size_t i, nr_refs = 0;

	reply_recipients(m, r->from_email, &to, &cc);
	mail_address_header(out, "From", r->from_name, r->from_email);
	mail_addrs_header(out, "To", &to);
	mail_addrs_header(out, "Cc", &cc);
	mail_addrs_release(&to);
	mail_addrs_release(&cc);
	reply_subject(out, m->subject ? m->subject : "");
	mail_date_header(out, r->now, 0);
	mail_id_header(out, "Message-ID", message_id);
	/* References: the mail's own chain, then the mail. */
	refs = xcalloc(m->nr_references + 2, sizeof(*refs));
	for (i = 0; !in_reply_to && i < m->nr_references; i++)
		refs[nr_refs++] = m->references[i];
	if (!in_reply_to && !nr_refs && m->in_reply_to)
		refs[nr_refs++] = m->in_reply_to;
	refs[nr_refs++] = in_reply_to ? in_reply_to : m->message_id;
	mail_id_header(out, "In-Reply-To", refs[nr_refs - 1]);
	mail_ids_header(out, "References", refs, nr_refs);
	mail_text_body(out);
	free(refs);
}

/* "On DATE, NAME wrote:" and the subject quoted, as a mail client does. */
static void quote_subject(struct strbuf *out, const struct audit_mail *m)
{
	const char *who = m->from.name ? m->from.name :
			  m->from.email ? m->from.email : "you";

	if (m->date) {
		strbuf_addstr(out, "On ");
		mail_clean(out, m->date);
		strbuf_addstr(out, ", ");
	}
	mail_clean(out, who);
	strbuf_addstr(out, " wrote:\n> ");
	mail_clean(out, m->subject ? m->subject : "");
	strbuf_addstr(out, "\n\n");
}

static const char signature[] = "\n-- \nstablepick audit\n";

/* The reply to one pick's mail: what is wrong with it. */
static void pick_reply(struct strbuf *out, const struct audit_pick *p,
		       const struct audit_reply *r, const char *message_id)
{
	struct strbuf text = STRBUF_INIT;
	size_t j;

	reply_headers(out, p->mail, r, message_id, NULL);
	quote_subject(out, p->mail);
	if (p->verdict == AUDIT_REJECT)
		strbuf_addf(&text, "Please drop this one from %s", r->branch);
	else
		strbuf_addf(&text, "Please check this one before it goes into %s",
			    r->branch);
	strbuf_addf(&text, " (stablepick judged it against mainline %s: %s):",
		    r->range, audit_verdict_name(p->verdict));
	mail_wrap(out, text.buf, 0, 0, 72);
	strbuf_addstr(out, "\n\n");
	for (j = 0; j < p->nr_flags; j++) {
		strbuf_reset(&text);
		add_flag_brief(&text, &p->flags[j]);
		strbuf_addstr(out, "  ");
		mail_wrap(out, text.buf, 2, 4, 72);
		strbuf_addch(out, '\n');
	}
	strbuf_addstr(out, signature);
	strbuf_release(&text);
}

static void summary_body(struct strbuf *out, const struct audit *a,
			 const struct audit_reply *r)
{
	const struct audit_pick **v = sorted(a);

	summary_intro(out, a, r);
	reply_section(out, a, v, AUDIT_REJECT, "Please drop:");
	reply_section(out, a, v, AUDIT_QUESTIONABLE, "Please check:");
	reply_section(out, a, v, AUDIT_OK, "Fine:");
	not_judged_section(out, a);
	strbuf_addstr(out, signature);
	free(v);
}

/* One message of an mbox: its From_ line, lines that look like one escaped. */
static void mbox_add(struct strbuf *out, const struct strbuf *msg)
{
	const char *p = msg->buf;

	strbuf_addstr(out, "From stablepick Mon Sep 17 00:00:00 2001\n");
	while (*p) {
		size_t len = strcspn(p, "\n");

		if (starts_with(p + strspn(p, ">"), "From "))
			strbuf_addch(out, '>');
		strbuf_add(out, p, len);
		strbuf_addch(out, '\n');
		p += len + (p[len] == '\n');
	}
	strbuf_addch(out, '\n');
}

/* The Message-ID of the reply to mail n: the summary's, ".n" before '@'. */
static char *nth_id(const char *summary, size_t n)
{
	const char *at = strrchr(summary, '@');

	if (!at)
		return xstrfmt("%s.%zu", summary, n);
	return xstrfmt("%.*s.%zu%s", (int)(at - summary), summary, n, at);
}

/* The replies to the thread of an mbox: the summary, a reply per bad pick. */
static void thread_replies(struct strbuf *out, const struct audit *a,
			   const struct audit_reply *r)
{
	struct strbuf msg = STRBUF_INIT;
	size_t i;

	reply_headers(&msg, a->thread, r, r->message_id, r->in_reply_to);
	if (!r->in_reply_to)
		quote_subject(&msg, a->thread);
	summary_body(&msg, a, r);
	mbox_add(out, &msg);
	for (i = 0; i < a->nr; i++) {
		const struct audit_pick *p = &a->picks[i];
		char *id;

		if (p->verdict == AUDIT_OK || !p->mail || !p->mail->message_id)
			continue;
		strbuf_reset(&msg);
		id = nth_id(r->message_id, p->mail->index);
		pick_reply(&msg, p, r, id);
		mbox_add(out, &msg);
		free(id);
	}
	strbuf_release(&msg);
}

void audit_email(struct strbuf *out, const struct audit *a,
		 const struct audit_reply *r)
{
	struct mail_addrs to = MAIL_ADDRS_INIT, cc = MAIL_ADDRS_INIT;

	if (a->thread && a->thread->message_id) {
		thread_replies(out, a, r);
		return;
	}
	/* Lists of addresses, each display name encoded on its own. */
	if (r->to)
		mail_addrs_add_list(&to, r->to);
	if (r->cc)
		mail_addrs_add_list(&cc, r->cc);
	mail_address_header(out, "From", r->from_name, r->from_email);
	mail_addrs_header(out, "To", &to);
	mail_addrs_header(out, "Cc", &cc);
	mail_addrs_release(&to);
	mail_addrs_release(&cc);
	if (r->subject) {
		reply_subject(out, r->subject);
	} else {
		struct strbuf subj = STRBUF_INIT;

		strbuf_addf(&subj, "the picks for %s", r->branch);
		mail_header(out, "Subject", NULL, subj.buf);
		strbuf_release(&subj);
	}
	mail_date_header(out, r->now, 0);
	mail_id_header(out, "Message-ID", r->message_id);
	if (r->in_reply_to) {
		mail_id_header(out, "In-Reply-To", r->in_reply_to);
		mail_id_header(out, "References", r->in_reply_to);
	}
	mail_text_body(out);
	summary_body(out, a, r);
}
