#include <autoconf.h>

#include "report/report.h"
#include "report/report-ledger.h"
#include "base/error.h"
#include "formats/mail.h"
#include "stages/posted.h"
#include "base/util.h"

#include <stdlib.h>
#include <string.h>

/*
 * Whether c is a patch of the series: not paged, nor carried for a
 * proposal that is (report_mail_page()).
 */
static int in_series(const struct candidate *c)
{
	const struct candidate *p;

	for (p = c; p; p = p->carried_for)
		if (p->paged)
			return 0;
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
	if (c->listed_before || c->paged)
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

/*
 * Why c is proposed, at length: the rules with their weights, why it
 * is listed again, the series it applies after, its warnings.
 */
static void add_reasons_line(struct strbuf *line, const struct report *r,
			     const struct candidate *c, enum mail_section sec)
{
	size_t i;

	strbuf_addf(line, "score %lld: ", c->score);
	report_reasons(line, c);
	if (sec == SECTION_NEWLY) {
		strbuf_addstr(line, "; ");
		report_add_newly(line, c);
	}
	if (in_series(c) && c->with.state == WITH_FOUND) {
		report_add_applies_with(line, c);
		strbuf_addstr(line, ", in the series before it");
	}
	if (sec != SECTION_PROPOSED) {
		strbuf_addstr(line, "; ");
		if (sec == SECTION_NEWLY && in_series(c))
			strbuf_addstr(line, "the patch follows in reply");
		else if (c->verdict == VERDICT_PROPOSED)
			report_add_conflicts(line, r, c);
		else
			strbuf_addstr(line, c->why);
	}
	for (i = 0; i < c->nr_warnings; i++)
		strbuf_addf(line, "; %s", c->warnings[i]);
}

/*
 * The short reason of a patch that follows in reply, whose mail has
 * the long one: its score and first rule ("score 24: fixes-tag +8,
 * ..."), and why it is listed again.
 */
static void add_short_line(struct strbuf *line, const struct candidate *c,
			   enum mail_section sec)
{
	struct strbuf reasons = STRBUF_INIT;
	size_t len;

	report_reasons(&reasons, c);
	len = strcspn(reasons.buf, ",;");
	strbuf_addf(line, "score %lld", c->score);
	if (len)
		strbuf_addf(line, ": %.*s%s", (int)len, reasons.buf,
			    reasons.buf[len] ? ", ..." : "");
	if (sec == SECTION_NEWLY) {
		strbuf_addstr(line, "; ");
		report_add_newly(line, c);
		strbuf_addstr(line, "; the patch follows in reply");
	}
	strbuf_release(&reasons);
}

/*
 * A candidate in the proposal mail: its subject, and a short reason
 * when its patch follows in reply, else the whole of why.
 */
static void add_candidate_lines(struct strbuf *out, const struct report *r,
				const struct candidate *c, enum mail_section sec,
				const struct archive_msg ***quoted, size_t *nr_quoted)
{
	struct strbuf line = STRBUF_INIT;
	size_t i;

	strbuf_addf(out, "  %.12s ", c->hex);
	mail_wrap(out, c->msg.subject ? c->msg.subject : "", 15, 15, 72);
	strbuf_addch(out, '\n');
	if (in_series(c)) {
		add_short_line(&line, c, sec);
		strbuf_addchars(out, ' ', 6);
		mail_wrap(out, line.buf, 6, 6, 72);
		strbuf_addch(out, '\n');
		strbuf_release(&line);
		return;
	}
	add_reasons_line(&line, r, c, sec);
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

/*
 * What the patch mail of a proposal says after "---" (git am reads no
 * further than the diff): why it is proposed, at length, as the
 * proposal mail would without the patch, and what was decided or
 * posted of it.
 */
static void add_patch_notes(struct strbuf *out, const struct report *r,
			    const struct candidate *c)
{
	struct strbuf line = STRBUF_INIT;
	enum mail_section sec = section_of(c);
	size_t i;

	if (c->verdict != VERDICT_PROPOSED || c->carried_for)
		return;
	strbuf_addstr(&line, "stablepick: ");
	add_reasons_line(&line, r, c, sec == SECTION_NEWLY ? sec :
			 SECTION_PROPOSED);
	mail_wrap(out, line.buf, 0, 2, 72);
	strbuf_addch(out, '\n');
	for (i = 0; i < c->nr_other_decisions; i++) {
		strbuf_reset(&line);
		strbuf_addstr(&line, "decided: ");
		report_add_other_decision(&line, c->other_decisions[i], 0);
		mail_wrap(out, line.buf, 0, 2, 72);
		strbuf_addch(out, '\n');
	}
	strbuf_reset(&line);
	if (report_add_posted_line(&line, c)) {
		mail_wrap(out, line.buf, 0, 2, 72);
		strbuf_addch(out, '\n');
	}
	strbuf_addch(out, '\n');
	strbuf_release(&line);
}

/*
 * The proposal mails: one per set of lists, the subsystems that go to
 * the same lists (stablepick.to, or none: the Cc) together.
 */
struct mail_group {
	char *key;			/* the lists, ", "-joined; "" */
	const struct subsystem **subs;	/* in name order */
	size_t nr_subs;
	size_t nr_listed, nr_paged;
	size_t nr_patches;		/* of the series, in reply to it */
	int carried;			/* some of them prerequisites */
	char *id;			/* its Message-ID, without <> */
};

static char *group_key(const struct report *r, const struct subsystem *s)
{
	struct strbuf key = STRBUF_INIT;
	size_t i;

	for (i = 0; !r->to && i < s->nr_lists; i++)
		strbuf_addf(&key, "%s%s", i ? ", " : "", s->lists[i]);
	return strbuf_detach(&key, NULL);
}

static struct mail_group *find_group(struct mail_group *g, size_t nr,
				     const struct report *r,
				     const struct subsystem *s)
{
	char *key = group_key(r, s);
	size_t i;

	for (i = 0; i < nr && strcmp(g[i].key, key); i++)
		;
	free(key);
	return i < nr ? &g[i] : NULL;
}

static void groups_free(struct mail_group *g, size_t nr)
{
	size_t i;

	for (i = 0; i < nr; i++) {
		free(g[i].key);
		free(g[i].subs);
		free(g[i].id);
	}
	free(g);
}

/* Whether c is in the proposal mails, or would be but for paging. */
static int listed_or_paged(const struct candidate *c)
{
	int ret;
	struct candidate copy;

	if (!c->paged)
		return section_of(c) != SECTION_NONE;
	copy = *c;
	copy.paged = 0;
	ret = section_of(&copy) != SECTION_NONE;
	return ret;
}

/* The group of a patch of the series: its proposal's. */
static struct mail_group *patch_group(struct mail_group *g, size_t nr,
				      const struct report *r,
				      const struct candidate *c)
{
	const struct subsystem *s;
	struct mail_group *found = NULL;

	while (c->carried_for)
		c = c->carried_for;
	s = candidate_subsystem(c);
	if (s)
		found = find_group(g, nr, r, s);
	return found ? found : &g[0];
}

/*
 * The groups of the candidates of l that the mails list or page, in
 * the order of their first subsystem's name; with their counts and
 * Message-IDs (r->message_id when there is one mail, else made of it
 * and the group's first list).  Returns how many.
 */
static size_t mail_groups(const struct report *r,
			  const struct candidate_list *l,
			  struct mail_group **out)
{
	const struct subsystem **subs;
	struct mail_group *g;
	struct candidate **series;
	size_t i, j, nr = 0, nr_subs, nr_series;

	subs = xcalloc(l->nr ? l->nr : 1, sizeof(*subs));
	for (i = nr_subs = 0; i < l->nr; i++) {
		const struct subsystem *s = candidate_subsystem(l->items[i]);

		if (!s || !listed_or_paged(l->items[i]))
			continue;
		for (j = 0; j < nr_subs && subs[j] != s; j++)
			;
		if (j == nr_subs)
			subs[nr_subs++] = s;
	}
	QSORT(subs, nr_subs, cmp_subsystem_name);
	g = xcalloc(nr_subs ? nr_subs : 1, sizeof(*g));
	for (i = 0; i < nr_subs; i++) {
		struct mail_group *one = find_group(g, nr, r, subs[i]);

		if (!one) {
			one = &g[nr++];
			one->key = group_key(r, subs[i]);
			one->subs = xcalloc(nr_subs, sizeof(*one->subs));
		}
		one->subs[one->nr_subs++] = subs[i];
	}
	for (i = 0; i < l->nr; i++) {
		const struct subsystem *s = candidate_subsystem(l->items[i]);
		struct mail_group *one;

		if (!s || !listed_or_paged(l->items[i]))
			continue;
		one = find_group(g, nr, r, s);
		if (l->items[i]->paged)
			one->nr_paged++;
		else
			one->nr_listed++;
	}
	nr_series = report_series(l, r->outside, &series);
	for (i = 0; nr && i < nr_series; i++) {
		struct mail_group *one = patch_group(g, nr, r, series[i]);

		one->nr_patches++;
		one->carried |= !!series[i]->carried_for;
	}
	free(series);
	for (i = 0; i < nr; i++) {
		const char *at = strrchr(r->message_id, '@');
		const char *list = g[i].key;
		size_t len = strcspn(list, "@,");

		if (nr == 1 || !at)
			g[i].id = xstrdup(r->message_id);
		else
			g[i].id = xstrfmt("%.*s.%zu-%.*s%s",
					  (int)(at - r->message_id),
					  r->message_id, i + 1,
					  (int)(len ? len : 5),
					  len ? list : "other", at);
	}
	free(subs);
	*out = g;
	return nr;
}

/*
 * The candidates of l that group g's mail lists, by subsystem (in
 * g->subs' order) and section, each bucket in l's order: bucket
 * i * SECTION__COUNT + k is items[at[i * SECTION__COUNT + k]] up to
 * the next bucket's first.
 * One pass over l, not one a subsystem and section: the 1M bench's
 * mails made 25 million tests of 32,677 candidates.
 */
struct group_buckets {
	const struct candidate **items;
	size_t *at;
};

static void group_buckets(struct group_buckets *b, const struct mail_group *g,
			  const struct candidate_list *l)
{
	size_t nb = g->nr_subs * SECTION__COUNT, *place, *in, i, j, nr = 0;

	in = xcalloc(l->nr ? l->nr : 1, sizeof(*in));
	b->at = xcalloc(nb + 1, sizeof(*b->at));
	for (j = 0; j < l->nr; j++) {
		const struct candidate *c = l->items[j];
		const struct subsystem *sub;
		enum mail_section k = section_of(c);

		in[j] = nb;
		if (k == SECTION_NONE || !(sub = candidate_subsystem(c)))
			continue;
		for (i = 0; i < g->nr_subs && g->subs[i] != sub; i++)
			;
		if (i == g->nr_subs)
			continue;
		in[j] = i * SECTION__COUNT + (size_t)k;
		b->at[in[j] + 1]++;
		nr++;
	}
	for (i = 0; i < nb; i++)
		b->at[i + 1] += b->at[i];
	place = xmalloc((nb + 1) * sizeof(*place));
	memcpy(place, b->at, (nb + 1) * sizeof(*place));
	b->items = xcalloc(nr ? nr : 1, sizeof(*b->items));
	for (j = 0; j < l->nr; j++)
		if (in[j] < nb)
			b->items[place[in[j]]++] = l->items[j];
	free(place);
	free(in);
}

static void group_buckets_release(struct group_buckets *b)
{
	free(b->items);
	free(b->at);
}

/* How many of bucket (sub, k) there are. */
static size_t bucket_nr(const struct group_buckets *b, size_t sub,
			enum mail_section k)
{
	size_t at = sub * SECTION__COUNT + (size_t)k;

	return b->at[at + 1] - b->at[at];
}

/* How many subsystems the subject names before "and N more". */
#define SUBJECT_SUBSYSTEMS 3

/*
 * The Subject of a group's mail: the subsystems with something to take
 * or to ack, all of them by name, or, when there are more than one
 * past SUBJECT_SUBSYSTEMS, those with the most (ties by name), then
 * "and N more"; and what it holds: "[PATCH 6.6 0/N] xfs: N patches
 * proposed for 6.6.y, week 48", or, with no patch, "xfs: candidates
 * for 6.6.y, week 48".
 */
static void add_subject(struct strbuf *subj, const struct report *r,
			const struct mail_group *g,
			const struct group_buckets *b)
{
	size_t i, k, shown = 0, *counts;
	char week[16];
	time_t now = r->now;
	struct tm tm;

	counts = xcalloc(g->nr_subs ? g->nr_subs : 1, sizeof(*counts));
	for (i = 0; i < g->nr_subs; i++) {
		counts[i] = bucket_nr(b, i, SECTION_PROPOSED) +
			    bucket_nr(b, i, SECTION_NEWLY) +
			    bucket_nr(b, i, SECTION_MANUAL) +
			    bucket_nr(b, i, SECTION_NEEDS_ACK);
		shown += counts[i] > 0;
	}
	if (shown <= SUBJECT_SUBSYSTEMS + 1) {
		/* All of them, by name ("and 1 more" says no less). */
		for (i = 0, k = 0; i < g->nr_subs; i++)
			if (counts[i])
				strbuf_addf(subj, "%s%s", k++ ? ", " : "",
					    g->subs[i]->name);
	} else {
		for (k = 0; k < SUBJECT_SUBSYSTEMS; k++) {
			size_t best = 0;

			for (i = 1; i < g->nr_subs; i++)
				if (counts[i] > counts[best])
					best = i;
			strbuf_addf(subj, "%s%s", k ? ", " : "",
				    g->subs[best]->name);
			counts[best] = 0;
		}
		strbuf_addf(subj, " and %zu more", shown - SUBJECT_SUBSYSTEMS);
	}
	free(counts);
	gmtime_r(&now, &tm);
	strftime(week, sizeof(week), "%V", &tm);
	if (g->nr_patches)
		strbuf_addf(subj, "%s%zu patch%s proposed for ", shown ? ": " : "",
			    g->nr_patches, g->nr_patches == 1 ? "" : "es");
	else
		strbuf_addstr(subj, shown ? ": candidates for " : "candidates for ");
	report_branch_version(subj, r->branch);
	strbuf_addf(subj, "%s, week %d", r->branch->major >= 0 ? ".y" : "",
		    atoi(week));
}

/* The first paragraph of a group's mail: what it lists, what follows. */
static void add_intro(struct strbuf *out, const struct report *r,
		      const struct mail_group *g)
{
	struct strbuf text = STRBUF_INIT;

	strbuf_addf(&text, "These mainline commits are candidates for %s", r->branch->name);
	if (r->branch->base_name)
		strbuf_addf(&text, " (base %s)", r->branch->base_name);
	strbuf_addf(&text, ", from mainline %s.  ", r->scan->range);
	strbuf_addstr(&text, !g->nr_patches ? "None of them is a patch to send yet.  " :
		      g->carried ? "The proposed patches that apply follow in reply to "
		      "this message, with the mainline commits some need "
		      "before them (marked Stable-dep-of:), as a series that "
		      "git am takes in order; the reasons for each are in "
		      "its mail, after the \"---\".  " :
		      "The proposed patches that apply follow in reply to "
		      "this message, as a series that git am takes in "
		      "order; the reasons for each are in its mail, after "
		      "the \"---\".  ");
	strbuf_addstr(&text, "Please answer with an ack, a nak, or a reason "
		      "to wait.");
	mail_wrap(out, text.buf, 0, 0, 72);
	strbuf_addstr(out, "\n");
	strbuf_release(&text);
}

/* A subsystem's heading: "xfs (linux-xfs@vger.kernel.org)", underlined. */
static void add_heading(struct strbuf *out, const struct subsystem *s)
{
	size_t head, j;

	strbuf_addch(out, '\n');
	head = out->len;
	strbuf_addstr(out, s->name);
	for (j = 0; j < s->nr_lists; j++)
		strbuf_addf(out, "%s%s", j ? ", " : " (", s->lists[j]);
	strbuf_addstr(out, s->nr_lists ? ")\n" : "\n");
	strbuf_addchars(out, '=', out->len - head - 1);
	strbuf_addch(out, '\n');
}

static void add_footer(struct strbuf *out, const struct report *r,
		       const struct candidate_list *l,
		       const struct mail_group *g)
{
	struct strbuf text = STRBUF_INIT;
	size_t i;

	if (g->nr_paged) {
		strbuf_addf(&text, "%zu more next week: a mail holds no more "
			    "than the lists take, the oldest first.",
			    g->nr_paged);
		strbuf_addch(out, '\n');
		mail_wrap(out, text.buf, 0, 0, 72);
		strbuf_addch(out, '\n');
		strbuf_reset(&text);
	}
	strbuf_addstr(out, "\n-- \n");
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
	strbuf_release(&text);
}

/*
 * The mail of group g: its headers, its first paragraph, each of its
 * subsystems' candidates by section (none when entries is 0: what the
 * mail costs without them), its footer.
 */
static void add_group_mail(struct strbuf *out, const struct report *r,
			   const struct candidate_list *l,
			   const struct mail_group *g, int entries)
{
	struct mail_addrs to = MAIL_ADDRS_INIT, cc = MAIL_ADDRS_INIT;
	struct strbuf subj = STRBUF_INIT;
	const struct archive_msg **quoted = NULL;
	struct group_buckets b;
	size_t i, j, k, nr_quoted = 0;

	group_buckets(&b, g, l);
	report_mail_recipients(r, g->subs, g->nr_subs, &to, &cc);
	add_subject(&subj, r, g, &b);
	strbuf_addstr(out, "From stablepick Mon Sep 17 00:00:00 2001\n");
	mail_address_header(out, "From", r->from_name, r->from_email);
	mail_addrs_header(out, "To", &to);
	mail_addrs_header(out, "Cc", &cc);
	if (g->nr_patches) {
		struct strbuf prefix = STRBUF_INIT;

		strbuf_addstr(&prefix, "[PATCH ");
		report_branch_version(&prefix, r->branch);
		strbuf_addf(&prefix, " 0/%zu] ", g->nr_patches);
		mail_header(out, "Subject", prefix.buf, subj.buf);
		strbuf_release(&prefix);
	} else {
		mail_header(out, "Subject", NULL, subj.buf);
	}
	mail_date_header(out, (git_time_t)r->now, 0);
	mail_id_header(out, "Message-ID", g->id);
	mail_text_body(out);
	add_intro(out, r, g);

	for (i = 0; entries && i < g->nr_subs; i++) {
		int heading = 0;

		for (k = 0; k < SECTION__COUNT; k++) {
			size_t at = i * SECTION__COUNT + k;

			for (j = b.at[at]; j < b.at[at + 1]; j++) {
				if (!heading++)
					add_heading(out, g->subs[i]);
				if (j == b.at[at])
					strbuf_addf(out, "\n%s:\n", section_titles[k]);
				add_candidate_lines(out, r, b.items[j],
						    (enum mail_section)k,
						    &quoted, &nr_quoted);
			}
		}
	}
	add_footer(out, r, l, g);
	group_buckets_release(&b);
	free(quoted);
	strbuf_release(&subj);
	mail_addrs_release(&cc);
	mail_addrs_release(&to);
}

void report_email(struct strbuf *out, const struct report *r,
		  const struct candidate_list *l)
{
	struct mail_group *g;
	size_t nr = mail_groups(r, l, &g), i;

	for (i = 0; i < nr; i++)
		if (g[i].nr_listed)
			add_group_mail(out, r, l, &g[i], 1);
	groups_free(g, nr);
}

/* Room for what the cost of a mail without entries leaves out. */
#define PAGE_SLACK 256

/* The oldest first (mainline's walk order). */
static int cmp_walk_order(const void *a, const void *b)
{
	const struct candidate *x = *(const struct candidate *const *)a;
	const struct candidate *y = *(const struct candidate *const *)b;

	return x->order < y->order ? -1 : x->order > y->order;
}

size_t report_mail_page(const struct report *r, struct candidate_list *l,
			size_t cap, size_t limit)
{
	struct mail_group *g;
	struct candidate **order;
	struct strbuf one = STRBUF_INIT;
	size_t i, nr, nr_order = 0, taken = 0, paged = 0;
	size_t *used, *first;
	unsigned char *seen, *full;
	const struct archive_msg **quoted = NULL;
	size_t nr_quoted = 0;

	for (i = 0; i < l->nr; i++)
		l->items[i]->paged = 0;
	nr = mail_groups(r, l, &g);
	used = xcalloc(nr ? nr : 1, sizeof(*used));
	full = xcalloc(nr ? nr : 1, 1);
	for (i = 0; i < nr; i++) {
		add_group_mail(&one, r, l, &g[i], 0);
		used[i] = one.len + PAGE_SLACK;
		g[i].nr_listed = 0;
		strbuf_reset(&one);
	}
	/*
	 * Which subsystem heading and section title is written already:
	 * SECTION__COUNT + 1 flags a subsystem, those of group i from
	 * first[i].
	 */
	first = xcalloc(nr ? nr : 1, sizeof(*first));
	for (i = 1; i < nr; i++)
		first[i] = first[i - 1] + g[i - 1].nr_subs;
	seen = xcalloc(nr ? (first[nr - 1] + g[nr - 1].nr_subs) *
		       (SECTION__COUNT + 1) : 1, 1);
	order = xcalloc(l->nr ? l->nr : 1, sizeof(*order));
	for (i = 0; i < l->nr; i++)
		if (candidate_subsystem(l->items[i]) &&
		    section_of(l->items[i]) != SECTION_NONE)
			order[nr_order++] = l->items[i];
	QSORT(order, nr_order, cmp_walk_order);
	for (i = 0; i < nr_order; i++) {
		struct candidate *c = order[i];
		const struct subsystem *s = candidate_subsystem(c);
		struct mail_group *grp = find_group(g, nr, r, s);
		size_t gi = (size_t)(grp - g), cost, si;
		enum mail_section sec = section_of(c);

		/* s's place among all the groups' subsystems. */
		for (si = 0; grp->subs[si] != s; si++)
			;
		si += first[gi];
		strbuf_reset(&one);
		nr_quoted = 0;
		add_candidate_lines(&one, r, c, sec, &quoted, &nr_quoted);
		cost = one.len;
		if (!seen[si * (SECTION__COUNT + 1) + SECTION__COUNT]) {
			strbuf_reset(&one);
			add_heading(&one, s);
			cost += one.len;
		}
		if (!seen[si * (SECTION__COUNT + 1) + sec])
			cost += strlen(section_titles[sec]) + 3;
		if ((limit && taken >= limit) || full[gi] ||
		    (cap && used[gi] && used[gi] + cost > cap &&
		     grp->nr_listed)) {
			full[gi] = 1;
			c->paged = 1;
			paged++;
			continue;
		}
		grp->nr_listed++;
		used[gi] += cost;
		seen[si * (SECTION__COUNT + 1) + SECTION__COUNT] = 1;
		seen[si * (SECTION__COUNT + 1) + sec] = 1;
		taken++;
	}
	free(quoted);
	free(order);
	free(first);
	free(seen);
	free(full);
	free(used);
	strbuf_release(&one);
	groups_free(g, nr);
	return paged;
}

void report_mbox(struct strbuf *out, const struct report *r,
		 const struct candidate_list *l)
{
	struct candidate **series;
	struct mail_group *g;
	size_t nr = report_series(l, r->outside, &series), i;
	size_t nr_groups = mail_groups(r, l, &g), *n;
	struct strbuf notes = STRBUF_INIT;

	n = xcalloc(nr_groups ? nr_groups : 1, sizeof(*n));
	for (i = 0; nr_groups && i < nr; i++) {
		struct patch_mail pm = { 0 };
		struct mail_group *one = patch_group(g, nr_groups, r, series[i]);
		size_t gi = (size_t)(one - g);
		char *id;

		pm.n = ++n[gi];
		pm.total = one->nr_patches;
		id = xstrfmt("%zu-%zu.%s", pm.n, pm.total, one->id);
		pm.message_id = id;
		pm.in_reply_to = r->thread_given ? r->message_id : one->id;
		pm.patch = series[i]->patch;
		strbuf_reset(&notes);
		add_patch_notes(&notes, r, series[i]);
		pm.notes = notes.buf;
		report_patch_mail(out, r, series[i], &pm);
		free(id);
	}
	strbuf_release(&notes);
	free(n);
	groups_free(g, nr_groups);
	free(series);
}
