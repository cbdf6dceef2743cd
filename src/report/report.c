#include "report/report.h"
#include "report/report-ledger.h"
#include "stages/revlist.h"
#include "stages/deps.h"
#include "base/error.h"
#include "stages/posted.h"
#include "stages/score.h"
#include "base/util.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

void report_add_date(struct strbuf *out, git_time_t t, int offset)
{
	time_t local = (time_t)(t + (git_time_t)offset * 60);
	struct tm tm;
	char buf[32];
	int off = offset < 0 ? -offset : offset;

	gmtime_r(&local, &tm);
	strftime(buf, sizeof(buf), "%Y-%m-%dT%H:%M:%S", &tm);
	strbuf_addf(out, "%s%c%02d:%02d", buf, offset < 0 ? '-' : '+',
		    off / 60, off % 60);
}

const char *report_subsystem_name(const struct candidate *c)
{
	const struct subsystem *s = candidate_subsystem(c);

	return s ? s->name : "-";
}

void report_reasons(struct strbuf *out, const struct candidate *c)
{
	size_t i;

	if (!c->nr_reasons)
		strbuf_addstr(out, "no rule matched");
	for (i = 0; i < c->nr_reasons; i++)
		strbuf_addf(out, "%s%s %+d", i ? ", " : "",
			    c->reasons[i].rule->name, c->reasons[i].rule->weight);
	for (i = 0; i < c->nr_named_by; i++)
		strbuf_addf(out, "%s%s", i ? ", " : "; named by ",
			    c->named_by[i]);
	for (i = 0; i < c->nr_cves; i++)
		strbuf_addf(out, "%s%s", i ? ", " : "; fixes ", c->cves[i]);
}

/* "does not apply to linux-6.6.y: conflicts in fs/a.c, fs/b.c" */
void report_add_conflicts(struct strbuf *out, const struct report *r,
			  const struct candidate *c)
{
	size_t i;

	strbuf_addf(out, "does not apply to %s", r->branch->name);
	for (i = 0; i < c->apply.nr_conflicts; i++)
		strbuf_addf(out, "%s%s", i ? ", " : ": conflicts in ",
			    c->apply.conflicts[i]);
	/* A file a later feature added: the likely cause. */
	if (c->lacks)
		strbuf_addf(out, "; it changes %s", c->lacks);
	report_add_applies_with(out, c);
}

/*
 * What the rules made of a member of a series: its verdict and, when
 * that is not to take it, its score and the rules against it
 * ("below-threshold, score -6: subject-cleanup"), or its veto.
 */
void report_add_member_verdict(struct strbuf *out, const struct candidate *m)
{
	const char *sep = ": ";
	size_t i;

	if (!m) {
		strbuf_addstr(out, "not watched, not judged");
		return;
	}
	/* Outside the subsystems the rules watch: judged by the rest. */
	if (!m->nr_touched)
		strbuf_addstr(out, "not watched, ");
	strbuf_addstr(out, verdict_name(m->verdict));
	if (m->veto) {
		strbuf_addf(out, ": veto %s", m->veto->name);
		return;
	}
	if (m->verdict != VERDICT_BELOW_THRESHOLD)
		return;
	strbuf_addf(out, ", score %lld", m->score);
	for (i = 0; i < m->nr_reasons; i++) {
		if (m->reasons[i].rule->weight >= 0)
			continue;
		strbuf_addf(out, "%s%s", sep, m->reasons[i].rule->name);
		sep = ", ";
	}
}

int report_left_out_of_series(const struct candidate *c)
{
	return c->with.state == WITH_FOUND && c->mail_checked &&
	       !c->in_mail && !c->listed_before &&
	       c->verdict == VERDICT_PROPOSED;
}

void report_add_applies_with(struct strbuf *out, const struct candidate *c)
{
	size_t i;

	switch (c->with.state) {
	case WITH_UNSEARCHED:
		break;
	case WITH_SKIPPED:
		strbuf_addstr(out, "; its series not searched: the run "
			      "searches the oldest proposals first, "
			      "stablepick.seriesPicks of them (explain "
			      "searches one)");
		break;
	case WITH_FOUND:
		strbuf_addstr(out, "; applies after ");
		for (i = 0; i < c->with.nr; i++) {
			const struct likely_prereq *p = &c->with.v[i];

			strbuf_addf(out, "%s%.12s (\"%s\", ", i ? ", " : "",
				    p->hex, p->subject);
			report_add_member_verdict(out, p->cand);
			strbuf_addch(out, ')');
		}
		if (report_left_out_of_series(c)) {
			strbuf_addstr(out, "; but not after the patches before "
				      "it in the series");
			for (i = 0; i < c->mail_apply.nr_conflicts; i++)
				strbuf_addf(out, "%s%s", i ? ", " :
					    ": conflicts in ",
					    c->mail_apply.conflicts[i]);
		}
		break;
	case WITH_NONE:
		/* Nothing to try: the branch has those lines, otherwise. */
		if (!c->with.tried)
			strbuf_addstr(out, "; needs a manual backport: no "
				      "mainline commit the branch lacks made "
				      "the lines it changes");
		else
			strbuf_addf(out, "; needs a manual backport: tried %zu "
				    "set%s of the mainline commits it needs",
				    c->with.tried, c->with.tried == 1 ? "" : "s");
		break;
	}
}

void report_add_newly(struct strbuf *out, const struct candidate *c)
{
	strbuf_addf(out, "%s (was %s)", newly_why_name(c->newly), c->newly_was);
}

size_t report_add_likely(struct strbuf *out, const struct candidate *c,
			 const char *prefix, size_t indent)
{
	size_t i;

	for (i = 0; i < c->nr_likely && i < REPORT_LIKELY_SHOWN; i++) {
		const struct likely_prereq *p = &c->likely[i];

		strbuf_addf(out, "%s%.12s %s", prefix, p->hex, p->subject);
		if (p->cand)
			strbuf_addf(out, " (%s%s)", p->cand->nr_touched ? "" :
				    "not watched, ", verdict_name(p->cand->verdict));
		strbuf_addch(out, '\n');
	}
	if (c->nr_likely > i) {
		strbuf_addchars(out, ' ', indent);
		strbuf_addf(out, "and %zu more\n", c->nr_likely - i);
		i++;
	}
	return i;
}

int report_shows(const struct report *r, const struct candidate *c)
{
	if (c->listed_before)
		return 0;
	/* Listed again for a reason, whatever its verdict (accepted). */
	return r->all || c->newly ||
	       (c->verdict != VERDICT_PRESENT &&
		c->verdict != VERDICT_BELOW_THRESHOLD &&
		c->verdict != VERDICT_ACCEPTED &&
		c->verdict != VERDICT_REJECTED &&
		c->verdict != VERDICT_DEFERRED);
}

/*
 * "archives: 2 (15 messages); 7 of 7 candidates found posted (5 by
 * link, 1 by patch-id, 1 by subject)": what the lists could tell.
 */
static void add_archive_line(struct strbuf *out, const struct archive *a,
			     const struct candidate_list *l)
{
	size_t count[POSTED_HOW__COUNT] = { 0 }, found = 0, i;
	int first = 1, how;

	for (i = 0; i < l->nr; i++) {
		const struct posted *p = l->items[i]->posted;

		if (!p)
			continue;
		count[p->how]++;
		found++;
	}
	strbuf_addf(out, "archives: %zu (%u messages); %zu of %zu candidates "
		    "found posted", a->nr_sources, HASH_COUNT(a->by_id), found,
		    l->nr);
	for (how = 0; how < POSTED_HOW__COUNT; how++) {
		if (!count[how])
			continue;
		strbuf_addf(out, "%s%zu by %s", first ? " (" : ", ", count[how],
			    posted_how_name(how));
		first = 0;
	}
	strbuf_addstr(out, first ? "\n" : ")\n");
}

void report_header(struct strbuf *out, const struct report *r,
		   const struct candidate_list *l)
{
	const struct branch_index *b = r->branch;
	size_t named = 0, i;

	strbuf_addf(out, "branch %s", b->name);
	if (b->base_name)
		strbuf_addf(out, " (base %s)", b->base_name);
	strbuf_addf(out, ": %zu %s after the base, %zu %s an upstream commit\n",
		    b->nr_commits, b->nr_commits == 1 ? "commit" : "commits",
		    b->nr_backports, b->nr_backports == 1 ? "names" : "name");
	for (i = 0; i < l->nr; i++)
		named += !l->items[i]->nr_touched && l->items[i]->nr_named_by;
	strbuf_addf(out, "mainline %s: %zu %s walked (%zu %s), "
		    "%zu in watched paths", r->scan->range, r->scan->walked,
		    r->scan->walked == 1 ? "commit" : "commits", r->scan->merges,
		    r->scan->merges == 1 ? "merge" : "merges", l->nr - named);
	if (named)
		strbuf_addf(out, ", %zu more named by tests", named);
	/* Never left out without a word: what --subsystem or policy dropped. */
	if (r->scan->left_out)
		strbuf_addf(out, ", %zu left out (%s)", r->scan->left_out,
			    r->scan->nr_only ? "not in --subsystem, or policy "
			    "ignore" : "policy ignore");
	strbuf_addch(out, '\n');
	if (r->archive)
		add_archive_line(out, r->archive, l);
}

static void add_counts(struct strbuf *out, const struct report *r,
		       const struct candidate_list *l)
{
	size_t count[VERDICT__COUNT] = { 0 }, hidden = 0, before = 0, nr = 0;
	size_t newly = 0, i;
	int first = 1;

	for (i = 0; i < l->nr; i++) {
		if (l->items[i]->listed_before) {
			before++;
			continue;
		}
		nr++;
		newly += l->items[i]->newly != NEWLY_NONE;
		count[l->items[i]->verdict]++;
		hidden += !report_shows(r, l->items[i]);
	}
	strbuf_addf(out, "%zu %s:", nr, nr == 1 ? "candidate" : "candidates");
	for (i = 0; i < VERDICT__COUNT; i++) {
		if (!count[i])
			continue;
		strbuf_addf(out, "%s %zu %s", first ? "" : ",", count[i],
			    verdict_name((enum verdict)i));
		first = 0;
	}
	strbuf_addch(out, '\n');
	if (newly)
		strbuf_addf(out, "(%zu listed by an earlier run and newly eligible)\n",
			    newly);
	if (before)
		strbuf_addf(out, "(%zu listed by an earlier run not shown)\n", before);
	if (hidden)
		strbuf_addf(out, "(%zu present, below-threshold or decided not "
			    "shown; use --all)\n", hidden);
}

/* --- the posted series ------------------------------------------------ */

/* "v2 " when the series was revised (or a later revision exists). */
static void add_revision(struct strbuf *out, const struct posted *p)
{
	if (p->revision > 1 || p->latest_revision > 1)
		strbuf_addf(out, "v%d ", p->revision);
}

/*
 * Appends what the archives say of c's series, on one line: "2/3 of v2
 * "xfs: ..." <https://lore.kernel.org/r/ID>: 1/3 present, 3/3 absent",
 * and a later revision, "; v3 posted later <...>"; of a single patch
 * revised since, its link and the later revision; else nothing.
 */
static void report_series_line(struct strbuf *out, const struct candidate *c)
{
	const struct posted *p = c->posted;
	char *link;
	size_t i;
	int n, any = 0;

	if (!p || (!p->total && !p->latest))
		return;
	link = posted_link(p->first->message_id);
	if (!p->total) {
		strbuf_addf(out, "<%s>", link);
	} else {
		strbuf_addf(out, "%d/%d of ", p->position, p->total);
		add_revision(out, p);
		strbuf_addf(out, "\"%s\" <%s>%s", p->series_subject, link,
			    p->cover ? "" : " (no cover letter)");
	}
	free(link);
	for (i = 0; i < p->nr_mates; i++)
		strbuf_addf(out, "%s%d/%d %s", any++ ? ", " : ": ",
			    p->mates[i].msg->number, p->total,
			    p->mates[i].status ? p->mates[i].status : "unknown");
	/* Patches of the series the archives do not hold. */
	for (n = 1; n <= p->total; n++) {
		int found = n == p->position;

		for (i = 0; !found && i < p->nr_mates; i++)
			found = p->mates[i].msg->number == n;
		if (!found)
			strbuf_addf(out, "%s%d/%d not in the archives",
				    any++ ? ", " : ": ", n, p->total);
	}
	if (p->latest) {
		link = posted_link(p->latest->message_id);
		strbuf_addf(out, "; v%d posted later <%s>", p->latest_revision, link);
		free(link);
	}
}

/* "series: ..." or "posted: ..." (a single patch revised since), or nothing. */
int report_add_posted_line(struct strbuf *out, const struct candidate *c)
{
	const struct posted *p = c->posted;

	if (!p || (!p->total && !p->latest))
		return 0;
	strbuf_addstr(out, p->total ? "series: " : "posted: ");
	report_series_line(out, c);
	return 1;
}

/* Columns of text's n bytes: UTF-8 characters, not bytes. */
static size_t columns(const char *text, size_t n)
{
	size_t i, cols = 0;

	for (i = 0; i < n; i++)
		cols += ((unsigned char)text[i] & 0xc0) != 0x80;
	return cols;
}

/*
 * Appends text and a newline, starting at column col; when width is
 * not 0 and it runs past it, broken at spaces onto lines indented by
 * indent (a word longer than a line stays whole).  The text is
 * otherwise as it was: only the spaces it breaks at go.
 */
static void add_fitted(struct strbuf *out, const char *text, size_t col,
		       size_t indent, size_t width)
{
	const char *p = text;

	while (width && *p && col + columns(p, strlen(p)) > width) {
		const char *brk = NULL, *sep = NULL, *q;
		size_t c = col;

		/* The last space that fits; after a ',' or ';', if one does. */
		for (q = p; *q && (c < width || !brk); q++) {
			if (*q == ' ' && q > p && c <= width) {
				brk = q;
				if (q[-1] == ',' || q[-1] == ';')
					sep = q;
			}
			c += ((unsigned char)*q & 0xc0) != 0x80;
		}
		/* Not so far back that the line is left half empty. */
		if (sep && (size_t)(sep - p) >= (width - col) / 2)
			brk = sep;
		if (!brk)
			break;
		strbuf_add(out, p, (size_t)(brk - p));
		strbuf_addch(out, '\n');
		strbuf_addchars(out, ' ', indent);
		col = indent;
		for (p = brk; *p == ' '; p++)
			;
	}
	strbuf_addstr(out, p);
	strbuf_addch(out, '\n');
}

/* Each line of text fitted to the width, its rest indented by two. */
static void add_fitted_lines(struct strbuf *out, const struct report *r,
			     const struct strbuf *text)
{
	char *copy = xstrdup(text->buf), *p = copy, *nl;

	for (; *p; p = nl + 1) {
		nl = strchr(p, '\n');
		if (!nl) {
			strbuf_addstr(out, p);	/* no newline: as it is */
			break;
		}
		*nl = '\0';
		add_fitted(out, p, 0, 2, r->width);
	}
	free(copy);
}

/* A note under a row: indented, fitted to the width, the line reset. */
static void add_note(struct strbuf *out, const struct report *r,
		     struct strbuf *line, size_t indent)
{
	strbuf_addchars(out, ' ', indent);
	add_fitted(out, line->buf, indent, indent, r->width);
	strbuf_reset(line);
}

/*
 * Whether c's deferral is over: the ledger deferred it and the judging
 * let it go (a deferral in force makes the verdict deferred).
 */
static int deferral_over(const struct candidate *c)
{
	return c->decision && c->decision->decision == DECISION_DEFERRED &&
	       !c->present && c->verdict != VERDICT_DEFERRED &&
	       c->verdict != VERDICT_PRESENT;
}

void report_text(struct strbuf *out, const struct report *r,
		 const struct candidate_list *l)
{
	int wv = (int)strlen("VERDICT"), ws = (int)strlen("SCORE");
	int wsub = (int)strlen("SUBSYSTEM");
	struct strbuf line = STRBUF_INIT;
	size_t i, j;

	report_header(&line, r, l);
	add_fitted_lines(out, r, &line);
	strbuf_reset(&line);
	for (i = 0; i < l->nr; i++) {
		const struct candidate *c = l->items[i];
		char num[24];		/* any long long, its sign and NUL */
		int len;

		if (!report_shows(r, c))
			continue;
		len = (int)strlen(verdict_name(c->verdict));
		wv = len > wv ? len : wv;
		len = snprintf(num, sizeof(num), "%lld", c->score);
		ws = len > ws ? len : ws;
		len = (int)strlen(report_subsystem_name(c));
		wsub = len > wsub ? len : wsub;
	}
	for (i = 0; i < l->nr && !report_shows(r, l->items[i]); i++)
		;
	if (i == l->nr)
		strbuf_addstr(out, "\n(nothing to show)\n");
	else
		strbuf_addf(out, "\n%-*s  %*s  %-12s  %-*s  %s\n", wv, "VERDICT",
			    ws, "SCORE", "COMMIT", wsub, "SUBSYSTEM", "SUBJECT");
	for (i = 0; i < l->nr; i++) {
		const struct candidate *c = l->items[i];
		size_t indent = (size_t)(wv + 2 + ws + 2);
		size_t at;

		if (!report_shows(r, c))
			continue;
		at = out->len;
		strbuf_addf(out, "%-*s  %*lld  %.12s  %-*s  ", wv,
			    verdict_name(c->verdict), ws, c->score, c->hex,
			    wsub, report_subsystem_name(c));
		/*
		 * A long subject goes on under itself, or under the notes
		 * when its column leaves it too few.
		 */
		add_fitted(out, c->msg.subject ? c->msg.subject : "",
			   out->len - at,
			   r->width >= out->len - at + 30 ? out->len - at : indent,
			   r->width);
		if (c->verdict != VERDICT_PROPOSED &&
		    c->verdict != VERDICT_BELOW_THRESHOLD) {
			strbuf_addstr(&line, c->why);
			strbuf_addstr(&line, "; ");
		}
		report_reasons(&line, c);
		add_note(out, r, &line, indent);
		if (c->posted && (c->posted->total || c->posted->latest)) {
			report_add_posted_line(&line, c);
			add_note(out, r, &line, indent);
		}
		if (c->apply_checked && !c->apply.applies) {
			report_add_conflicts(&line, r, c);
			add_note(out, r, &line, indent);
		}
		for (j = 0; j < c->nr_other_decisions; j++) {
			strbuf_addstr(&line, "decided: ");
			report_add_other_decision(&line, c->other_decisions[j], 0);
			add_note(out, r, &line, indent);
		}
		if (deferral_over(c)) {
			report_add_deferral_over(&line, c->decision);
			add_note(out, r, &line, indent);
		}
		if (c->newly) {
			strbuf_addstr(&line, "newly eligible: ");
			report_add_newly(&line, c);
			add_note(out, r, &line, indent);
		}
	}
	strbuf_addch(out, '\n');
	add_counts(&line, r, l);
	add_fitted_lines(out, r, &line);
	strbuf_release(&line);
}

/* The later commits of the run whose Fixes: names c. */
static void add_followups(struct strbuf *out, const struct report *r,
			  const struct candidate *c)
{
	const struct candidate_list *l = &r->scan->candidates;
	size_t i, j;

	for (i = 0; i < l->nr; i++) {
		const struct candidate *f = l->items[i];

		for (j = 0; f->fixes && j < f->msg.nr_fixes; j++)
			if (f->fixes[j].cand == c) {
				strbuf_addf(out, "Fixed by:  %.12s (\"%s\"), %s\n",
					    f->hex, f->msg.subject,
					    verdict_name(f->verdict));
				break;
			}
	}
}

static void explain_rule_line(struct strbuf *out, const struct rule *r,
			      const char *match)
{
	strbuf_addf(out, "  %+5d  %-20s %s:%u", r->weight, r->name, r->file,
		    r->lineno);
	if (match)
		strbuf_addf(out, "  \"%s\"", match);
	strbuf_addch(out, '\n');
}

/* The rules that applied but did not match: what else could have. */
static void add_unmatched(struct strbuf *out, const struct ruleset *rs,
			  const struct candidate *c)
{
	struct strbuf names = STRBUF_INIT;

	if (score_unmatched(&names, rs, c))
		strbuf_addf(out, "  not matched: %s\n", names.buf);
	strbuf_release(&names);
}

/* Where the patch was posted, its series and the replies to it. */
static void explain_posted(struct strbuf *out, const struct candidate *c)
{
	const struct posted *p = c->posted;
	char *link = posted_link(p->msg->message_id);
	size_t i;

	strbuf_addf(out, "Posted:    %s (found by %s)\n", link,
		    posted_how_name(p->how));
	free(link);
	if (p->total) {
		strbuf_addstr(out, "Series:    ");
		report_series_line(out, c);
		strbuf_addch(out, '\n');
	} else if (p->latest) {
		link = posted_link(p->latest->message_id);
		strbuf_addf(out, "Revised:   v%d posted later <%s>\n",
			    p->latest_revision, link);
		free(link);
	}
	for (i = 0; i < p->nr_mates; i++) {
		const struct posted_mate *m = &p->mates[i];

		strbuf_addf(out, "           %d/%d %-12.12s %-9s %s\n", m->msg->number,
			    p->total, m->cand ? m->cand->hex : "-",
			    m->status ? m->status : "unknown", m->msg->title);
	}
	for (i = 0; i < p->nr_replies; i++) {
		const struct archive_msg *m = p->replies[i].msg;

		link = posted_link(m->message_id);
		strbuf_addf(out, "Reply:     %s%s <%s>\n", m->from,
			    p->replies[i].to_cover ? " (to the cover letter)" : "",
			    link);
		free(link);
	}
}

void report_explain(struct strbuf *out, const struct report *r,
		    const struct candidate *c)
{
	const struct subsystem *s = candidate_subsystem(c);
	char hex[GIT_OID_HEXSZ + 1];
	size_t i;

	strbuf_addf(out, "commit %s\n", c->hex);
	strbuf_addf(out, "Subject:   %s\n", c->msg.subject ? c->msg.subject : "");
	strbuf_addf(out, "Author:    %s\nDate:      ", c->author ? c->author : "");
	report_add_date(out, c->time, c->tz_offset);
	strbuf_addch(out, '\n');
	if (!s) {
		strbuf_addstr(out, c->left_out ?
			      "Subsystem: none (the subsystems of the paths it "
			      "changes are ignored by policy)\n" :
			      "Subsystem: none (touches no watched path)\n");
		return;
	}
	strbuf_addf(out, "Subsystem: %s (policy %s", s->name, policy_name(s->policy));
	for (i = 0; i < s->nr_lists; i++)
		strbuf_addf(out, "%s%s", i ? ", " : "; list ", s->lists[i]);
	strbuf_addstr(out, ")");
	for (i = 1; i < c->nr_touched; i++)
		strbuf_addf(out, "%s%s", i == 1 ? "; also " : ", ", c->touched[i]->name);
	strbuf_addch(out, '\n');

	for (i = 0; i < c->msg.nr_fixes; i++) {
		strbuf_addf(out, "Fixes:     %s", c->msg.fixes[i].id);
		if (c->msg.fixes[i].subject)
			strbuf_addf(out, " (\"%s\")", c->msg.fixes[i].subject);
		if (c->fixes && c->fixes[i].resolved) {
			git_oid_tostr(hex, sizeof(hex), &c->fixes[i].id);
			strbuf_addf(out, " -> %s, %s%s\n", hex,
				    target_status_name(c->fixes[i].status),
				    c->fixes[i].by_subject ? " (found by subject)" : "");
		} else {
			strbuf_addstr(out, " -> not found in the repository\n");
		}
	}
	if (c->reverts)
		strbuf_addf(out, "Reverts:   %s (\"%s\")%s\n", c->reverts->hex,
			    c->reverts->msg.subject,
			    c->reverts_in_branch ? ", which the branch carries" : "");
	else if (c->msg.is_revert)
		strbuf_addf(out, "Reverts:   %s%s\n",
			    c->msg.reverts_id ? c->msg.reverts_id : c->msg.reverts_subject,
			    c->reverts_in_branch ? ", which the branch carries" : "");
	if (c->reverted_by)
		strbuf_addf(out, "Reverted:  by %s (\"%s\")\n", c->reverted_by,
			    c->reverted_by_subject);
	add_followups(out, r, c);
	for (i = 0; i < c->nr_prereqs; i++) {
		git_oid_tostr(hex, sizeof(hex), &c->prereqs[i].id);
		strbuf_addf(out, "Needs:     %s (%s), %s\n", hex,
			    c->prereqs[i].source,
			    target_status_name(c->prereqs[i].status));
	}
	if (c->posted)
		explain_posted(out, c);
	else if (c->series.id)
		strbuf_addf(out, "Series:    patch %d of %s\n", c->series.position,
			    c->series.id);
	for (i = 0; i < c->msg.nr_stable; i++) {
		const struct stable_tag *t = &c->msg.stable[i];

		strbuf_addf(out, "Stable:    %s", t->addr);
		if (t->comment)
			strbuf_addf(out, " # %s", t->comment);
		if (t->noautosel)
			strbuf_addstr(out, " (never pick automatically)");
		else if (t->hint_major >= 0)
			strbuf_addf(out, " (for %d.%d and later)", t->hint_major,
				    t->hint_minor);
		strbuf_addch(out, '\n');
	}

	strbuf_addf(out, "\nScore %lld, threshold %d:\n", c->score, c->threshold);
	for (i = 0; i < c->nr_reasons; i++)
		explain_rule_line(out, c->reasons[i].rule, c->reasons[i].match);
	if (!c->nr_reasons)
		strbuf_addstr(out, "  no rule matched\n");
	if (c->veto)
		strbuf_addf(out, "   veto  %-20s %s:%u  \"%s\"\n", c->veto->name,
			    c->veto->file, c->veto->lineno, c->veto_match);
	add_unmatched(out, r->rules, c);
	for (i = 0; i < c->nr_warnings; i++)
		strbuf_addf(out, "  warning: %s\n", c->warnings[i]);

	strbuf_addf(out, "\nPresence in %s:\n", r->branch->name);
	for (i = 0; i < c->nr_evidence; i++) {
		strbuf_addf(out, "  %-14s %s",
			    evidence_kind_name(c->evidence[i].kind),
			    c->evidence[i].detail);
		if (c->evidence[i].has_commit) {
			git_oid_tostr(hex, sizeof(hex), &c->evidence[i].commit);
			strbuf_addf(out, " (%s)", hex);
		}
		strbuf_addch(out, '\n');
	}
	if (c->apply_checked) {
		strbuf_addstr(out, "\nApplies:   ");
		if (c->apply.applies)
			strbuf_addf(out, "yes, onto the tip of %s (after the "
				    "proposals before it)", r->branch->name);
		else
			report_add_conflicts(out, r, c);
		strbuf_addch(out, '\n');
		report_add_likely(out, c, "May need:  ", 11);
		for (i = 0; i < c->with.nr_steps; i++)
			strbuf_addf(out, "Search:    %s\n", c->with.steps[i]);
	}
	if (c->nr_other_decisions)
		strbuf_addstr(out, "\nOther branches (evidence; the verdict is "
			      "this branch's own):\n");
	for (i = 0; i < c->nr_other_decisions; i++) {
		strbuf_addstr(out, "  ");
		report_add_other_decision(out, c->other_decisions[i], 1);
		strbuf_addch(out, '\n');
	}
	for (i = 0; i < c->nr_newer_lacking; i++)
		strbuf_addf(out, "Newer:     %s lacks it and is not to take it "
			    "(%s): take it there first\n",
			    c->newer_lacking[i].branch,
			    verdict_name(c->newer_lacking[i].verdict));
	strbuf_addf(out, "\nVerdict:   %s: %s\n", verdict_name(c->verdict), c->why);
	if (c->decision && ledger_origin_known(&c->decision->origin)) {
		strbuf_addstr(out, "Decision:  ");
		report_add_origin(out, c->decision);
		strbuf_addch(out, '\n');
	}
}

/*
 * What a terminal may be shown of text from history: control characters
 * (ESC starts the sequences that move the cursor, retitle the window or
 * worse) and C1 controls become '?', and so does a byte that is not part
 * of valid UTF-8 (a lone 0x9b is a CSI to some terminals).  Newlines and
 * tabs stay.
 */
static void terminal_safe(struct strbuf *dst, const struct strbuf *src)
{
	const unsigned char *s = (const unsigned char *)src->buf;
	size_t i = 0, n;

	while (i < src->len) {
		if (s[i] == '\n' || s[i] == '\t' || (s[i] >= 0x20 && s[i] < 0x7f)) {
			strbuf_addch(dst, (char)s[i++]);
			continue;
		}
		n = s[i] >= 0x80 ? utf8_seq_len(s + i, src->len - i) : 0;
		/* U+0080 to U+009F, the C1 controls, are 0xc2 0x80-0x9f. */
		if (!n || (n == 2 && s[i] == 0xc2 && s[i + 1] < 0xa0)) {
			strbuf_addch(dst, '?');
			i += n ? n : 1;
			continue;
		}
		strbuf_add(dst, s + i, n);
		i += n;
	}
}

void report_visible(struct strbuf *out)
{
	const unsigned char *s = (const unsigned char *)out->buf;
	struct strbuf dst = STRBUF_INIT;
	size_t i = 0, n, k;

	/* Nothing to do, the common case: no copy. */
	for (i = 0; i < out->len; i++)
		if ((s[i] < 0x20 && s[i] != '\n' && s[i] != '\t') || s[i] >= 0x7f)
			break;
	if (i == out->len)
		return;
	strbuf_add(&dst, out->buf, i);
	while (i < out->len) {
		if (s[i] == '\n' || s[i] == '\t' || (s[i] >= 0x20 && s[i] < 0x7f)) {
			strbuf_addch(&dst, (char)s[i++]);
			continue;
		}
		if (s[i] < 0x20 || s[i] == 0x7f) {
			strbuf_addch(&dst, '^');
			strbuf_addch(&dst, s[i] == 0x7f ? '?' : s[i] + 0x40);
			i++;
			continue;
		}
		n = utf8_seq_len(s + i, out->len - i);
		if (!n || (n == 2 && s[i] == 0xc2 && s[i + 1] < 0xa0)) {
			for (k = 0; k < (n ? n : 1); k++)
				strbuf_addf(&dst, "\\x%02x", s[i + k]);
			i += n ? n : 1;
			continue;
		}
		strbuf_add(&dst, s + i, n);
		i += n;
	}
	strbuf_release(out);
	*out = dst;
}

int report_write(FILE *f, const struct strbuf *out)
{
	struct strbuf safe = STRBUF_INIT;
	const struct strbuf *what = out;
	int ret = 0;

	/* Files and pipes get every byte; a terminal only what is safe. */
	if (isatty(fileno(f))) {
		terminal_safe(&safe, out);
		what = &safe;
	}
	if (fwrite(what->buf, 1, what->len, f) != what->len || fflush(f) ||
	    ferror(f))
		ret = error("cannot write the output: %s", strerror(errno));
	strbuf_release(&safe);
	return ret;
}

int report_patch_ids(FILE *f, const struct revlist *l, const size_t *order)
{
	struct strbuf out = STRBUF_INIT;
	char hex[GIT_OID_HEXSZ + 1];
	size_t i;
	int ret = 0;

	for (i = 0; !ret && i < l->nr; i++) {
		const struct patchid_job *it = &l->items[order[i]];

		if (!it->has_id)
			continue;
		strbuf_addstr(&out, git_oid_tostr(hex, sizeof(hex), &it->id));
		strbuf_addch(&out, ' ');
		strbuf_addstr(&out, git_oid_tostr(hex, sizeof(hex), &it->commit));
		strbuf_addch(&out, '\n');
		if (out.len >= 65536) {
			ret = report_write(f, &out);
			strbuf_reset(&out);
		}
	}
	if (!ret)
		ret = report_write(f, &out);
	strbuf_release(&out);
	return ret;
}
