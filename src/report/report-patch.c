/*
 * A patch as git format-patch writes it (report_patch_mail()): the mbox
 * of the proposal, the review threads and the queue write their
 * patches with it.
 */
#include <autoconf.h>

#include "report/report.h"
#include "base/ascii.h"
#include "formats/mail.h"
#include "formats/mbox.h"
#include "base/util.h"

#include <stdlib.h>
#include <string.h>

/*
 * A line git mailsplit takes for the start of a message (its
 * is_from_line(): "From ", then a time "hh:mm:ss" followed by a year
 * after 90, as "From 1a2b... Mon Sep 17 00:00:00 2001" has), or
 * one our own mbox reader would (mbox_next_message()).  Only such lines
 * are quoted: git am applies what it reads, so "From the start, it
 * did." in a commit message must reach the backport as it is, as
 * git format-patch leaves it.
 */
static int splits_mbox(const char *line)
{
	size_t len = strlen(line);
	const char *colon;

	if (len < 5 || !starts_with(line, "From "))
		return 0;
	if (mbox_next_message(line, len, 0) == 0)
		return 1;
	/*
	 * git counts the newline, which line lacks: 20 bytes with it, and
	 * the last ':' before the last byte and the newline.
	 */
	if (len + 1 < 20)
		return 0;
	for (colon = line + len - 1;;) {
		if (colon <= line + 5)
			return 0;
		if (*--colon == ':')
			break;
	}
	return is_digit((unsigned char)colon[-4]) &&
	       is_digit((unsigned char)colon[-2]) &&
	       is_digit((unsigned char)colon[-1]) &&
	       is_digit((unsigned char)colon[1]) &&
	       is_digit((unsigned char)colon[2]) && strtol(colon + 3, NULL, 10) > 90;
}

/* Where git mailinfo ends a commit message and starts the patch. */
static int patch_break(const char *line)
{
	return starts_with(line, "diff -") || starts_with(line, "Index: ") ||
	       (starts_with(line, "---") &&
		(!line[3] || line[3] == ' ' || line[3] == '\t'));
}

void report_add_mail_body(struct strbuf *out, const char *body,
			  int quote_all)
{
	const char *p = body ? body : "";

	while (*p) {
		size_t len = strcspn(p, "\n");
		char *line = xstrndup(p, len);

		/*
		 * A line that git am would take for the start of a message
		 * (quoted as mboxrd does), or for the start of the patch:
		 * the lines after it, a diff written into the commit
		 * message, would be applied.  Indented, they stay text.
		 */
		if (quote_all ? starts_with(line, "From ") : splits_mbox(line))
			strbuf_addch(out, '>');
		else if (patch_break(line))
			strbuf_addch(out, ' ');
		mail_clean(out, line);
		strbuf_addch(out, '\n');
		free(line);
		p += len;
		if (*p)
			p++;
	}
}

/*
 * Whether git am (mailinfo) would take the first line of a message
 * body for an in-body header, which replaces the author, the subject
 * or the date; blank lines before it are skipped.
 */
static int is_inbody_header(const char *body)
{
	static const char *const headers[] = { "from:", "subject:", "date:" };
	size_t i;

	body += strspn(body, "\n");
	if (starts_with(body, "[PATCH]") || starts_with(body, ">From"))
		return 1;
	for (i = 0; i < ARRAY_SIZE(headers); i++)
		if (!ascii_strncasecmp(body, headers[i], strlen(headers[i])))
			return 1;
	return 0;
}

/*
 * The message of c's patch with the line naming c in the form the
 * setting asks: first and a blank line ("commit <id> upstream.", "[
 * Upstream commit <id> ]", as the stable kernel writes them), or last
 * as git cherry-pick -x does (after a blank line unless the message
 * ends in trailers, as the message parser finds them).
 */
/*
 * A prerequisite carried for a proposal says so as the stable queue's
 * patches do, in a trailer: "Stable-dep-of: <id> ("subject")".
 */
static void add_stable_dep(struct strbuf *out, const struct candidate *p)
{
	if (p)
		strbuf_addf(out, "Stable-dep-of: %.12s (\"%s\")\n", p->hex,
			    p->msg.subject ? p->msg.subject : "");
}

/* The last line of out from start on, without its newline ("" if none). */
static const char *last_line(const struct strbuf *out, size_t start,
			     size_t *len)
{
	size_t end = out->len, begin;

	if (end > start && out->buf[end - 1] == '\n')
		end--;
	for (begin = end; begin > start && out->buf[begin - 1] != '\n'; begin--)
		;
	*len = end - begin;
	return out->buf + begin;
}

/*
 * Whether a line is one git reads as part of a trailer block: "Key:
 * value" (a key of letters, digits and dashes) or git cherry-pick -x's
 * line.
 */
static int trailer_like(const char *line, size_t len)
{
	size_t k = 0;

	if (len >= 27 && starts_with(line, "(cherry picked from commit "))
		return 1;
	while (k < len && (is_alnum((unsigned char)line[k]) || line[k] == '-'))
		k++;
	return k && k + 1 < len && line[k] == ':' && line[k + 1] == ' ';
}

/* Whether c's message has the trailer "key: val" (key in any case). */
static int has_trailer(const struct candidate *c, const char *key,
		       const char *val)
{
	const struct trailer *t;
	size_t pos = 0;

	while ((t = message_trailer_next(&c->msg, key, &pos)))
		if (!strcmp(t->val, val))
			return 1;
	return 0;
}

/*
 * Appends line (no newline) to the message written into out from
 * start: after a blank line when the message does not end in a
 * trailer block, so that git reads it as a trailer.
 */
static void add_trailer_line(struct strbuf *out, size_t start,
			     const char *line, size_t len)
{
	size_t last_len;
	const char *last = last_line(out, start, &last_len);

	if (last_len && !trailer_like(last, last_len))
		strbuf_addch(out, '\n');
	strbuf_add(out, line, len);
	strbuf_addch(out, '\n');
}

/*
 * The trailers pm adds to c's message written into out from start,
 * then the sign-off (see struct patch_mail).
 */
static void add_more_trailers(struct strbuf *out, size_t start,
			      const struct candidate *c,
			      const struct patch_mail *pm)
{
	const char *p = pm->trailers ? pm->trailers : "";

	while (*p) {
		size_t len = strcspn(p, "\n");
		const char *colon = memchr(p, ':', len);

		if (colon && colon > p && trailer_like(p, len)) {
			char *key = xstrndup(p, (size_t)(colon - p));
			const char *v = colon + 2;
			char *val = xstrndup(v, len - (size_t)(v - p));

			if (!has_trailer(c, key, val))
				add_trailer_line(out, start, p, len);
			free(val);
			free(key);
		}
		p += len + (p[len] == '\n');
	}
	if (pm->signoff) {
		char *line = xstrfmt("Signed-off-by: %s", pm->signoff);
		size_t last_len;
		const char *last = last_line(out, start, &last_len);

		if (last_len != strlen(line) || memcmp(last, line, last_len))
			add_trailer_line(out, start, line, strlen(line));
		free(line);
	}
}

static void add_backport_body(struct strbuf *out, enum backport_line form,
			      const struct candidate *c,
			      const struct candidate *dep_of)
{
	const char *body = c->msg.body ? c->msg.body : "";

	switch (form) {
	case BACKPORT_LINE_UPSTREAM:
		strbuf_addf(out, "commit %s upstream.\n\n", c->hex);
		report_add_mail_body(out, body, 0);
		add_stable_dep(out, dep_of);
		break;
	case BACKPORT_LINE_BRACKET:
		strbuf_addf(out, "[ Upstream commit %s ]\n\n", c->hex);
		report_add_mail_body(out, body, 0);
		add_stable_dep(out, dep_of);
		break;
	case BACKPORT_LINE_CHERRY_PICK: {
		size_t len = strlen(body);
		char *text;

		while (len && body[len - 1] == '\n')
			len--;
		text = xstrndup(body, len);
		/*
		 * With nothing before it, a first line git am reads as an
		 * in-body header ("From: ...": the author) is indented, as
		 * report_add_mail_body() indents a line that would start
		 * the patch.
		 */
		if (is_inbody_header(text))
			strbuf_addch(out, ' ');
		report_add_mail_body(out, text, 0);
		if (len && !c->msg.nr_trailers)
			strbuf_addch(out, '\n');
		add_stable_dep(out, dep_of);
		strbuf_addf(out, "(cherry picked from commit %s)\n", c->hex);
		free(text);
		break;
	}
	}
}

/*
 * To and Cc of c's patch: its subsystems' lists, the Cc of the
 * proposal, its author and those who acked or reviewed it.
 */
static void add_patch_recipients(const struct report *r,
				 const struct candidate *c,
				 struct mail_addrs *to, struct mail_addrs *cc)
{
	static const char *const keys[] = { "Acked-by", "Reviewed-by" };
	const struct trailer *t;
	size_t i, pos;

	report_mail_recipients(r, c->touched, c->nr_touched, to, cc);
	if (c->author)
		mail_addrs_add(cc, c->author);
	for (i = 0; i < ARRAY_SIZE(keys); i++)
		for (pos = 0; (t = message_trailer_next(&c->msg, keys[i], &pos));)
			mail_addrs_add(cc, t->val);
	for (i = 0; i < to->nr; i++)
		mail_addrs_remove(cc, to->v[i].email);
	mail_addrs_remove(cc, r->from_email);
}

void report_patch_mail(struct strbuf *out, const struct report *r,
		       const struct candidate *c, const struct patch_mail *pm)
{
	struct strbuf name = STRBUF_INIT, email = STRBUF_INIT;
	struct strbuf subj = STRBUF_INIT;
	struct mail_addrs to = MAIL_ADDRS_INIT, cc = MAIL_ADDRS_INIT;
	size_t i, body;

	if (c->author && strchr(c->author, '<'))
		mail_split_address(c->author, &name, &email);
	strbuf_addf(out, "From %s Mon Sep 17 00:00:00 2001\n", c->hex);
	mail_address_header(out, "From", name.buf, email.buf);
	mail_date_header(out, c->time, c->tz_offset);
	if (pm->total) {
		strbuf_addstr(&subj, "[PATCH ");
		report_branch_version(&subj, r->branch);
		strbuf_addf(&subj, " %zu/%zu] ", pm->n, pm->total);
	}
	if (pm->message_id) {
		add_patch_recipients(r, c, &to, &cc);
		for (i = 0; pm->cc && i < pm->cc->nr; i++)
			if (!mail_addrs_has(&to, pm->cc->v[i].email))
				mail_addrs_add_pair(&cc, pm->cc->v[i].name,
						    pm->cc->v[i].email);
		mail_addrs_header(out, "To", &to);
		mail_addrs_header(out, "Cc", &cc);
	}
	mail_header(out, "Subject", subj.buf,
		    c->msg.subject ? c->msg.subject : "");
	if (pm->message_id)
		mail_id_header(out, "Message-ID", pm->message_id);
	if (pm->in_reply_to) {
		mail_id_header(out, "In-Reply-To", pm->in_reply_to);
		mail_id_header(out, "References", pm->in_reply_to);
	}
	mail_text_body(out);
	body = out->len;
	add_backport_body(out, r->backport_line, c,
			  pm->dep_of ? pm->dep_of : c->carried_for);
	add_more_trailers(out, body, c, pm);
	strbuf_addstr(out, "---\n");
	if (pm->notes)
		strbuf_addstr(out, pm->notes);
	if (pm->patch)
		strbuf_addstr(out, pm->patch);
	strbuf_addf(out, "-- \nstablepick %s\n\n", PACKAGE_VERSION);
	mail_addrs_release(&to);
	mail_addrs_release(&cc);
	strbuf_release(&subj);
	strbuf_release(&email);
	strbuf_release(&name);
}
