#include <autoconf.h>

#include "report/report.h"
#include "base/ascii.h"
#include "report/report-ledger.h"
#include "base/error.h"
#include "formats/mail.h"
#include "formats/mbox.h"
#include "stages/posted.h"
#include "base/util.h"

#include <stdlib.h>
#include <string.h>

static int in_series(const struct candidate *c)
{
	if (c->mail_checked)
		return c->in_mail;
	return c->verdict == VERDICT_PROPOSED && c->apply_checked &&
	       c->apply.applies && !c->listed_before;
}

/* The mail series' order, else mainline's. */
static int cmp_order(const void *a, const void *b)
{
	const struct candidate *x = *(const struct candidate *const *)a;
	const struct candidate *y = *(const struct candidate *const *)b;

	if (x->mail_checked && y->mail_checked)
		return x->mail_pos < y->mail_pos ? -1 : x->mail_pos > y->mail_pos;
	return x->order < y->order ? -1 : x->order > y->order;
}

/*
 * Mainline order is the order to apply: a prerequisite is older than
 * what needs it, a follow-up newer than what it fixes.
 */
size_t report_series(const struct candidate_list *l,
		     const struct candidate_list *outside,
		     struct candidate ***out)
{
	size_t i, nr = 0, more = outside ? outside->nr : 0;

	*out = xcalloc(l->nr + more ? l->nr + more : 1, sizeof(**out));
	for (i = 0; i < l->nr; i++)
		if (in_series(l->items[i]))
			(*out)[nr++] = l->items[i];
	for (i = 0; i < more; i++)
		if (in_series(outside->items[i]))
			(*out)[nr++] = outside->items[i];
	QSORT(*out, nr, cmp_order);
	return nr;
}

/* "6.6" for a branch whose version is known, else its name. */
void report_branch_version(struct strbuf *out, const struct branch_index *b)
{
	if (b->major >= 0)
		strbuf_addf(out, "%d.%d", b->major, b->minor);
	else
		strbuf_addstr(out, b->name);
}

enum mail_section {
	SECTION_PROPOSED,
	SECTION_NEWLY,
	SECTION_MANUAL,
	SECTION_NEEDS_ACK,
	SECTION_WAITING,
	SECTION_MAYBE,
	SECTION_NOT_APPLICABLE,
	SECTION__COUNT,
	SECTION_NONE = SECTION__COUNT
};

static const char *const section_titles[SECTION__COUNT] = {
	"Proposed (the patches follow in reply)",
	"Newly eligible since the last run (listed before)",
	"Needs a manual backport (does not apply as it is)",
	"Needs the maintainers' ack (opt-in subsystem)",
	"Waiting (not soaked in mainline yet)",
	"Maybe already present (a subject matches, or the pick changes nothing)",
	"Not applicable",
};

static enum mail_section section_of(const struct candidate *c)
{
	if (c->listed_before)
		return SECTION_NONE;
	if (c->newly)
		return SECTION_NEWLY;
	switch (c->verdict) {
	case VERDICT_PROPOSED:
		return in_series(c) ? SECTION_PROPOSED : SECTION_MANUAL;
	case VERDICT_NEEDS_ACK: return SECTION_NEEDS_ACK;
	case VERDICT_WAITING: return SECTION_WAITING;
	case VERDICT_MAYBE_PRESENT: return SECTION_MAYBE;
	case VERDICT_NOT_APPLICABLE: return SECTION_NOT_APPLICABLE;
	default: return SECTION_NONE;
	}
}

static int cmp_subsystem_name(const void *a, const void *b)
{
	const struct subsystem *x = *(const struct subsystem *const *)a;
	const struct subsystem *y = *(const struct subsystem *const *)b;

	return strcmp(x->name, y->name);
}

int report_mail_lists(const struct candidate *c)
{
	return section_of(c) != SECTION_NONE;
}

/* The subsystems with something to say, in name order, unique. */
static size_t mail_subsystems(const struct candidate_list *l,
			      const struct subsystem ***out)
{
	size_t i, j, nr = 0;

	*out = xcalloc(l->nr ? l->nr : 1, sizeof(**out));
	for (i = 0; i < l->nr; i++) {
		const struct subsystem *s = candidate_subsystem(l->items[i]);

		if (!s || section_of(l->items[i]) == SECTION_NONE)
			continue;
		for (j = 0; j < nr && (*out)[j] != s; j++)
			;
		if (j == nr)
			(*out)[nr++] = s;
	}
	QSORT(*out, nr, cmp_subsystem_name);
	return nr;
}

/*
 * To and Cc of a mail about the subsystems subs: their lists (or
 * stablepick.to) and stablepick.cc (or the rules' cc); a mail with
 * no To goes to its Cc.
 */
void report_mail_recipients(const struct report *r,
			   const struct subsystem *const *subs, size_t nr,
			   struct mail_addrs *to, struct mail_addrs *cc)
{
	size_t i, j;

	if (r->to)
		mail_addrs_add_list(to, r->to);
	else
		for (i = 0; i < nr; i++)
			for (j = 0; j < subs[i]->nr_lists; j++)
				mail_addrs_add_list(to, subs[i]->lists[j]);
	if (r->cc)
		mail_addrs_add_list(cc, r->cc);
	if (!to->nr) {
		*to = *cc;
		memset(cc, 0, sizeof(*cc));
	}
	for (i = 0; i < to->nr; i++)
		mail_addrs_remove(cc, to->v[i].email);
}

/*
 * The first paragraph of a series' cover letter, quoted, the first
 * time the email names the series.
 */
static void add_cover(struct strbuf *out, const struct candidate *c,
		      const struct archive_msg ***quoted, size_t *nr)
{
	const struct posted *p = c->posted;
	struct strbuf text = STRBUF_INIT;
	size_t i;

	if (!p || !p->cover || !p->cover_paragraph)
		return;
	for (i = 0; i < *nr; i++)
		if ((*quoted)[i] == p->cover)
			return;
	*quoted = xrealloc(*quoted, (*nr + 1) * sizeof(**quoted));
	(*quoted)[(*nr)++] = p->cover;
	mail_wrap(&text, p->cover_paragraph, 0, 0, 64);
	for (i = 0; i < text.len; ) {
		size_t len = strcspn(text.buf + i, "\n");

		strbuf_addstr(out, "      > ");
		strbuf_add(out, text.buf + i, len);
		strbuf_addch(out, '\n');
		i += len + (i + len < text.len);
	}
	strbuf_release(&text);
}

/* Each line of text wrapped at 72, at indent, its rest at more. */
static void add_wrapped_lines(struct strbuf *out, const char *text,
			      size_t indent, size_t more)
{
	while (*text) {
		size_t len = strcspn(text, "\n");
		char *one = xstrndup(text, len);

		strbuf_addchars(out, ' ', indent);
		mail_wrap(out, one, indent, more, 72);
		strbuf_addch(out, '\n');
		free(one);
		text += len + !!text[len];
	}
}

static void add_candidate_lines(struct strbuf *out, const struct report *r,
				const struct candidate *c, enum mail_section sec,
				const struct archive_msg ***quoted, size_t *nr_quoted)
{
	struct strbuf line = STRBUF_INIT;
	size_t i;

	strbuf_addf(out, "  %.12s ", c->hex);
	mail_wrap(out, c->msg.subject ? c->msg.subject : "", 15, 15, 72);
	strbuf_addch(out, '\n');
	strbuf_addf(&line, "score %lld: ", c->score);
	report_reasons(&line, c);
	if (sec == SECTION_NEWLY) {
		strbuf_addstr(&line, "; ");
		report_add_newly(&line, c);
	}
	if (in_series(c) && c->with.state == WITH_FOUND) {
		report_add_applies_with(&line, c);
		strbuf_addstr(&line, ", in the series before it");
	}
	if (sec != SECTION_PROPOSED) {
		strbuf_addstr(&line, "; ");
		if (sec == SECTION_NEWLY && in_series(c))
			strbuf_addstr(&line, "the patch follows in reply");
		else if (c->verdict == VERDICT_PROPOSED)
			report_add_conflicts(&line, r, c);
		else
			strbuf_addstr(&line, c->why);
	}
	for (i = 0; i < c->nr_warnings; i++)
		strbuf_addf(&line, "; %s", c->warnings[i]);
	strbuf_addchars(out, ' ', 6);
	mail_wrap(out, line.buf, 6, 6, 72);
	strbuf_addch(out, '\n');
	for (i = 0; i < c->nr_other_decisions; i++) {
		strbuf_reset(&line);
		strbuf_addstr(&line, "decided: ");
		report_add_other_decision(&line, c->other_decisions[i], 0);
		strbuf_addchars(out, ' ', 6);
		mail_wrap(out, line.buf, 6, 6, 72);
		strbuf_addch(out, '\n');
	}
	strbuf_reset(&line);
	if (sec == SECTION_MANUAL && report_add_likely(&line, c, "may need: ", 0))
		add_wrapped_lines(out, line.buf, 6, 16);
	strbuf_reset(&line);
	if (report_add_posted_line(&line, c)) {
		strbuf_addchars(out, ' ', 6);
		mail_wrap(out, line.buf, 6, 6, 72);
		strbuf_addch(out, '\n');
		add_cover(out, c, quoted, nr_quoted);
	}
	strbuf_release(&line);
}

/* How many subsystems the subject names before "and N more". */
#define SUBJECT_SUBSYSTEMS 3

void report_email(struct strbuf *out, const struct report *r,
		  const struct candidate_list *l)
{
	const struct subsystem **subs;
	struct mail_addrs to = MAIL_ADDRS_INIT, cc = MAIL_ADDRS_INIT;
	struct strbuf subj = STRBUF_INIT, text = STRBUF_INIT;
	size_t nr_subs, i, j, k, shown_subjects = 0, nr_quoted = 0, *counts;
	const struct archive_msg **quoted = NULL;
	char week[16];
	time_t now = r->now;
	struct tm tm;

	nr_subs = mail_subsystems(l, &subs);
	report_mail_recipients(r, subs, nr_subs, &to, &cc);

	/*
	 * The subsystems with something to take or to ack, on one line:
	 * all of them by name, or, when there are more than one past
	 * SUBJECT_SUBSYSTEMS, those with the most (ties by name), then
	 * "and N more".
	 */
	counts = xcalloc(nr_subs ? nr_subs : 1, sizeof(*counts));
	for (i = 0; i < nr_subs; i++) {
		for (k = 0; k < l->nr; k++) {
			enum mail_section s = section_of(l->items[k]);

			counts[i] += candidate_subsystem(l->items[k]) == subs[i] &&
				     (s == SECTION_PROPOSED || s == SECTION_NEWLY ||
				      s == SECTION_MANUAL || s == SECTION_NEEDS_ACK);
		}
		shown_subjects += counts[i] > 0;
	}
	if (shown_subjects <= SUBJECT_SUBSYSTEMS + 1) {
		/* All of them, by name ("and 1 more" says no less). */
		for (i = 0, k = 0; i < nr_subs; i++)
			if (counts[i])
				strbuf_addf(&subj, "%s%s", k++ ? ", " : "",
					    subs[i]->name);
	} else {
		for (k = 0; k < SUBJECT_SUBSYSTEMS; k++) {
			size_t best = 0;

			for (i = 1; i < nr_subs; i++)
				if (counts[i] > counts[best])
					best = i;
			strbuf_addf(&subj, "%s%s", k ? ", " : "",
				    subs[best]->name);
			counts[best] = 0;
		}
		strbuf_addf(&subj, " and %zu more",
			    shown_subjects - SUBJECT_SUBSYSTEMS);
	}
	free(counts);
	gmtime_r(&now, &tm);
	strftime(week, sizeof(week), "%V", &tm);
	strbuf_addstr(&subj, shown_subjects ? ": candidates for " : "candidates for ");
	report_branch_version(&subj, r->branch);
	strbuf_addf(&subj, "%s, week %d", r->branch->major >= 0 ? ".y" : "",
		    atoi(week));

	mail_address_header(out, "From", r->from_name, r->from_email);
	mail_addrs_header(out, "To", &to);
	mail_addrs_header(out, "Cc", &cc);
	mail_header(out, "Subject", NULL, subj.buf);
	mail_date_header(out, (git_time_t)now, 0);
	mail_id_header(out, "Message-ID", r->message_id);
	mail_text_body(out);

	strbuf_addf(&text, "These mainline commits are candidates for %s", r->branch->name);
	if (r->branch->base_name)
		strbuf_addf(&text, " (base %s)", r->branch->base_name);
	strbuf_addf(&text, ", from mainline %s.  ", r->scan->range);
	for (i = 0, k = 0; i < l->nr && !k; i++)
		k = section_of(l->items[i]) == SECTION_PROPOSED;
	for (i = 0, j = 0; r->outside && i < r->outside->nr && !j; i++)
		j = r->outside->items[i]->in_mail;
	for (i = 0; i < l->nr && !j; i++)
		j = l->items[i]->in_mail && l->items[i]->carried_for;
	strbuf_addstr(&text, !k ? "None of them is a patch to send yet.  " :
		      j ? "The proposed patches that apply follow in reply to "
		      "this message, with the mainline commits some need "
		      "before them (marked Stable-dep-of:), as a series that "
		      "git am takes in order.  " :
		      "The proposed patches that apply follow in reply to "
		      "this message, as a series that git am takes in "
		      "order.  ");
	strbuf_addstr(&text, "Please answer with an ack, a nak, or a reason "
		      "to wait.");
	mail_wrap(out, text.buf, 0, 0, 72);
	strbuf_addstr(out, "\n");
	if (!nr_subs)
		strbuf_addstr(out, "\nNothing to propose this time.\n");

	for (i = 0; i < nr_subs; i++) {
		size_t head;

		strbuf_addch(out, '\n');
		head = out->len;
		strbuf_addstr(out, subs[i]->name);
		for (j = 0; j < subs[i]->nr_lists; j++)
			strbuf_addf(out, "%s%s", j ? ", " : " (", subs[i]->lists[j]);
		strbuf_addstr(out, subs[i]->nr_lists ? ")\n" : "\n");
		strbuf_addchars(out, '=', out->len - head - 1);
		strbuf_addch(out, '\n');
		for (k = 0; k < SECTION__COUNT; k++) {
			int any = 0;

			for (j = 0; j < l->nr; j++) {
				const struct candidate *c = l->items[j];

				if (candidate_subsystem(c) != subs[i] ||
				    section_of(c) != (enum mail_section)k)
					continue;
				if (!any++)
					strbuf_addf(out, "\n%s:\n", section_titles[k]);
				add_candidate_lines(out, r, c, (enum mail_section)k,
						    &quoted, &nr_quoted);
			}
		}
	}

	strbuf_addstr(out, "\n-- \n");
	strbuf_reset(&text);
	strbuf_addf(&text, "Made by stablepick %s with the rules", PACKAGE_VERSION);
	for (i = 0; i < r->rules->nr_files; i++) {
		const char *p = strrchr(r->rules->files[i].path, '/');

		strbuf_addf(&text, "%s %s", i ? "," : "", p ? p + 1 : r->rules->files[i].path);
		if (r->rules->files[i].version)
			strbuf_addf(&text, " (version %s)", r->rules->files[i].version);
	}
	strbuf_addf(&text, "; %zu mainline commits walked, %zu candidates.",
		    r->scan->walked, l->nr);
	mail_wrap(out, text.buf, 0, 0, 72);
	strbuf_addch(out, '\n');

	free(subs);
	free(quoted);
	strbuf_release(&text);
	strbuf_release(&subj);
	mail_addrs_release(&cc);
	mail_addrs_release(&to);
}

/*
 * A line git mailsplit takes for the start of a message (its
 * is_from_line(): "From ", then a time "hh:mm:ss" followed by a year
 * after 1990, as "From 1a2b... Mon Sep 17 00:00:00 2001" has), or
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
	if (len < 20)
		return 0;
	/* The last ':' before the last two bytes, as git looks for it. */
	for (colon = line + len - 2;;) {
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
	if (pm->patch)
		strbuf_addstr(out, pm->patch);
	strbuf_addf(out, "-- \nstablepick %s\n\n", PACKAGE_VERSION);
	mail_addrs_release(&to);
	mail_addrs_release(&cc);
	strbuf_release(&subj);
	strbuf_release(&email);
	strbuf_release(&name);
}

void report_mbox(struct strbuf *out, const struct report *r,
		 const struct candidate_list *l)
{
	struct candidate **series;
	size_t nr = report_series(l, r->outside, &series), i;

	for (i = 0; i < nr; i++) {
		struct patch_mail pm = { 0 };
		char *id = xstrfmt("%zu-%zu.%s", i + 1, nr, r->message_id);

		pm.n = i + 1;
		pm.total = nr;
		pm.message_id = id;
		pm.in_reply_to = r->message_id;
		pm.patch = series[i]->patch;
		report_patch_mail(out, r, series[i], &pm);
		free(id);
	}
	free(series);
}
