#include "report/report-html.h"
#include "formats/mail.h"
#include "stages/posted.h"
#include "report/report-matrix.h"
#include "base/util.h"

#include <string.h>

void report_html_escape(struct strbuf *out, const char *s)
{
	struct strbuf clean = STRBUF_INIT;
	size_t i;

	mail_clean(&clean, s ? s : "");	/* one line of valid UTF-8 */
	for (i = 0; i < clean.len; i++) {
		switch (clean.buf[i]) {
		case '&': strbuf_addstr(out, "&amp;"); break;
		case '<': strbuf_addstr(out, "&lt;"); break;
		case '>': strbuf_addstr(out, "&gt;"); break;
		case '"': strbuf_addstr(out, "&quot;"); break;
		default: strbuf_addch(out, clean.buf[i]);
		}
	}
	strbuf_release(&clean);
}

void report_html_commit(struct strbuf *out, const char *url, const git_oid *id)
{
	char hex[GIT_OID_HEXSZ + 1];
	const char *p;

	git_oid_tostr(hex, sizeof(hex), id);
	if (!url || !*url) {
		strbuf_addf(out, "<code>%.12s</code>", hex);
		return;
	}
	strbuf_addstr(out, "<a href=\"");
	for (p = url; *p; p++) {
		if (p[0] == '%' && p[1] == 'H') {
			strbuf_addstr(out, hex);
			p++;
			continue;
		}
		switch (*p) {
		case '&': strbuf_addstr(out, "&amp;"); break;
		case '"': strbuf_addstr(out, "%22"); break;
		case '<': strbuf_addstr(out, "%3C"); break;
		case '>': strbuf_addstr(out, "%3E"); break;
		default: strbuf_addch(out, *p);
		}
	}
	strbuf_addf(out, "\"><code>%.12s</code></a>", hex);
}

void report_html_begin(struct strbuf *out, const char *title)
{
	strbuf_addstr(out, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n"
		      "<meta charset=\"utf-8\">\n<title>");
	report_html_escape(out, title);
	strbuf_addstr(out, "</title>\n<style>\n"
		      "body { font-family: sans-serif; margin: 2em; color: #222; }\n"
		      "table { border-collapse: collapse; margin-bottom: 2em; }\n"
		      "th, td { border: 1px solid #bbb; padding: 0.2em 0.6em; "
		      "text-align: left; vertical-align: top; }\n"
		      "td.n { text-align: right; }\n"
		      "tr.total td { font-weight: bold; }\n"
		      "code { font-size: 0.95em; }\n"
		      "details { font-size: 0.9em; }\n"
		      ".badge { display: inline-block; background: #b2182b; "
		      "color: #fff; border-radius: 0.3em; padding: 0 0.4em; "
		      "margin-left: 0.3em; font-size: 0.8em; text-decoration: none; }\n"
		      ".proposed, .unfixed, .missing { background: #fde0dd; }\n"
		      ".vendor-only { background: #e5f5e0; }\n"
		      ".missing-follow-up { background: #deebf7; }\n"
		      ".needs-ack, .waiting { background: #fff7bc; }\n"
		      ".present, .fixed, .accepted { background: #e5f5e0; }\n"
		      ".not-applicable, .not-affected, .below-threshold { "
		      "background: #f0f0f0; color: #666; }\n"
		      ".rejected, .vetoed, .reverted, .reverted-in-branch,\n"
		      ".deferred { background: #deebf7; }\n"
		      ".maybe-present { background: #fee8c8; }\n"
		      ".flag { color: #b2182b; font-weight: bold; }\n"
		      "</style>\n</head>\n<body>\n<h1>");
	report_html_escape(out, title);
	strbuf_addstr(out, "</h1>\n");
}

void report_html_end(struct strbuf *out)
{
	strbuf_addstr(out, "</body>\n</html>\n");
}

/* Ages of what a branch lacks, in days before the upstream tip. */
static const struct { const char *label, *color; long days; } ages[] = {
	{ "under 30 days", "#f4a582", 30 },
	{ "30 to 90 days", "#d6604d", 90 },
	{ "90 days to a year", "#b2182b", 365 },
	{ "over a year", "#67001f", 0 },
};

size_t report_html_age(long days)
{
	size_t k;

	for (k = 0; ages[k].days && days >= ages[k].days; k++)
		;
	return k;
}

static int bar_cmp(const void *va, const void *vb)
{
	const struct report_html_bar *a = va, *b = vb;
	int d;

	if (a->total != b->total)
		return a->total > b->total ? -1 : 1;
	d = strcmp(a->label, b->label);
	if (d)
		return d;
	return strcmp(a->label2 ? a->label2 : "", b->label2 ? b->label2 : "");
}

size_t report_html_top_bars(struct report_html_bar *bars, size_t nr,
			    size_t cap, struct strbuf *other)
{
	size_t keep = cap - 1, i, k;

	if (nr)
		qsort(bars, nr, sizeof(*bars), bar_cmp);
	if (nr <= cap)
		return nr;
	for (i = keep + 1; i < nr; i++) {
		for (k = 0; k < REPORT_HTML_AGES; k++)
			bars[keep].n[k] += bars[i].n[k];
		bars[keep].total += bars[i].total;
		bars[keep].stuck += bars[i].stuck;
	}
	strbuf_reset(other);
	strbuf_addf(other, "and %zu more", nr - keep);
	if (bars[keep].label2)
		bars[keep].label2 = other->buf;
	else
		bars[keep].label = other->buf;
	bars[keep].rest = 1;
	return keep + 1;
}

#define BAR_X 270
#define BAR_WIDTH 460

/* The width of n of max in a bar of BAR_WIDTH pixels: 3 at least. */
static size_t bar_width(size_t n, size_t max)
{
	size_t w = n * BAR_WIDTH / max;

	return w < 3 ? 3 : w;
}

void report_html_age_chart(struct strbuf *out,
			   const struct report_html_bar *bars, size_t nr,
			   const char *aria)
{
	size_t max = 1, i, k;
	int stuck = 0;

	for (i = 0; i < nr; i++) {
		if (!bars[i].rest && bars[i].total > max)
			max = bars[i].total;
		stuck |= bars[i].stuck > 0;
	}
	strbuf_addf(out, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"900\" "
		    "height=\"%zu\" role=\"img\" aria-label=\"%s\">\n",
		    40 + 24 * (nr ? nr : 1), aria);
	for (k = 0; k < ARRAY_SIZE(ages); k++)
		strbuf_addf(out, "<rect x=\"%zu\" y=\"4\" width=\"12\" height=\"12\" "
			    "fill=\"%s\"/><text x=\"%zu\" y=\"15\" font-size=\"12\">%s"
			    "</text>\n", 10 + 170 * k, ages[k].color, 26 + 170 * k,
			    ages[k].label);
	if (stuck)
		strbuf_addf(out, "<rect x=\"%d\" y=\"10\" width=\"12\" height=\"4\" "
			    "fill=\"#777\"/><text x=\"%d\" y=\"15\" "
			    "font-size=\"12\">does not apply</text>\n",
			    10 + 170 * 4, 26 + 170 * 4);
	for (i = 0; i < nr; i++) {
		size_t x = BAR_X, y = 32 + 24 * i;

		strbuf_addf(out, "<text x=\"10\" y=\"%zu\" font-size=\"13\">", y + 14);
		report_html_escape(out, bars[i].label);
		if (bars[i].label2) {
			strbuf_addch(out, ' ');
			report_html_escape(out, bars[i].label2);
		}
		strbuf_addstr(out, "</text>\n");
		for (k = 0; k < ARRAY_SIZE(ages); k++) {
			size_t w = bar_width(bars[i].n[k], max);

			if (!bars[i].n[k] || x >= BAR_X + BAR_WIDTH)
				continue;
			if (x + w > BAR_X + BAR_WIDTH)
				w = BAR_X + BAR_WIDTH - x;
			strbuf_addf(out, "<rect x=\"%zu\" y=\"%zu\" width=\"%zu\" "
				    "height=\"18\" fill=\"%s\"><title>%zu %s</title>"
				    "</rect>\n", x, y, w, ages[k].color,
				    bars[i].n[k], ages[k].label);
			x += w;
		}
		if (bars[i].stuck) {
			size_t w = bar_width(bars[i].stuck, max);

			strbuf_addf(out, "<rect x=\"%d\" y=\"%zu\" width=\"%zu\" "
				    "height=\"4\" fill=\"#777\"><title>%zu do not "
				    "apply</title></rect>\n", BAR_X, y + 19,
				    w < BAR_WIDTH ? w : BAR_WIDTH, bars[i].stuck);
		}
		strbuf_addf(out, "<text x=\"%zu\" y=\"%zu\" font-size=\"12\">%zu",
			    x + 6, y + 14, bars[i].total);
		if (bars[i].stuck)
			strbuf_addf(out, ", %zu not applying", bars[i].stuck);
		strbuf_addstr(out, "</text>\n");
	}
	strbuf_addstr(out, "</svg>\n");
}

/* The absent commits a branch is to take. */
static int lacks(const struct candidate *c)
{
	return c->verdict == VERDICT_PROPOSED ||
	       c->verdict == VERDICT_NEEDS_ACK || c->verdict == VERDICT_WAITING;
}

/* One the branch lacks whose trial pick failed. */
static int stuck(const struct candidate *c)
{
	return lacks(c) && c->apply_checked && !c->apply.applies;
}

static void add_bars(struct report_html_bar **bars, size_t *nr,
		     size_t *alloc, const struct report *r,
		     const struct candidate_list *l, git_time_t tip_time)
{
	size_t first = *nr, i, j;

	for (i = 0; i < l->nr; i++) {
		const struct candidate *c = l->items[i];
		const struct subsystem *s = candidate_subsystem(c);
		const char *name = s ? s->name : "-";

		if (!lacks(c))
			continue;
		for (j = first; j < *nr && strcmp((*bars)[j].label2, name); j++)
			;
		if (j == *nr) {
			ALLOC_GROW(*bars, *nr, *alloc);
			memset(&(*bars)[j], 0, sizeof(**bars));
			(*bars)[j].label = r->branch->name;
			(*bars)[j].label2 = name;
			(*nr)++;
		}
		(*bars)[j].n[report_html_age((long)((tip_time - c->time) /
						    86400))]++;
		(*bars)[j].total++;
		(*bars)[j].stuck += stuck(c);
	}
}

/*
 * Each branch's bars, its largest first, capped: REPORT_HTML_TOP_BARS
 * of one branch, a share of them (8 at least) of several.
 */
static void chart(struct strbuf *out, const struct report *reports,
		  const struct candidate_list *const *lists, size_t nr,
		  git_time_t tip_time)
{
	struct report_html_bar *bars = NULL;
	struct strbuf *others = xcalloc(nr ? nr : 1, sizeof(*others));
	size_t cap = nr > 1 ? REPORT_HTML_TOP_BARS / nr : REPORT_HTML_TOP_BARS;
	size_t nr_bars = 0, alloc = 0, all = 0, i;

	if (cap < 8)
		cap = 8;
	for (i = 0; i < nr; i++) {
		size_t first = nr_bars;

		strbuf_init(&others[i], 0);
		add_bars(&bars, &nr_bars, &alloc, &reports[i], lists[i],
			 tip_time);
		all += nr_bars - first;
		nr_bars = first + report_html_top_bars(bars + first,
						       nr_bars - first, cap,
						       &others[i]);
	}
	strbuf_addstr(out, "<h2>What each branch lacks, by subsystem and age</h2>\n");
	if (nr_bars < all && nr == 1)
		strbuf_addf(out, "<p>The %zu subsystems that lack the most; the "
			    "other %zu are summed in the last bar.</p>\n",
			    cap - 1, all - nr_bars + 1);
	else if (nr_bars < all)
		strbuf_addf(out, "<p>Of each branch, at most the %zu subsystems "
			    "that lack the most; the others are summed in its "
			    "last bar.</p>\n", cap - 1);
	if (!nr_bars)
		strbuf_addstr(out, "<p>Nothing: no branch lacks a commit it is "
			      "to take.</p>\n");
	else
		report_html_age_chart(out, bars, nr_bars, "what each branch "
				      "lacks by subsystem and age");
	free(bars);
	for (i = 0; i < nr; i++)
		strbuf_release(&others[i]);
	free(others);
}

/*
 * The totals: a column per branch, a row per verdict (with "does not
 * apply" after proposed), so that the table stays as narrow as the
 * first screen at 17 rows (a row per branch ran to 1,520 pixels).
 */
static void summary(struct strbuf *out, const struct report *reports,
		    const struct candidate_list *const *lists, size_t nr)
{
	size_t (*count)[VERDICT__COUNT + 1] = xcalloc(nr ? nr : 1,
						      sizeof(*count));
	size_t i, j, v;

	for (i = 0; i < nr; i++)
		for (j = 0; j < lists[i]->nr; j++) {
			count[i][lists[i]->items[j]->verdict]++;
			count[i][VERDICT__COUNT] += stuck(lists[i]->items[j]);
		}
	strbuf_addstr(out, "<h2>Branches</h2>\n<table id=\"branches\">\n"
		      "<tr><th>branch</th>");
	for (i = 0; i < nr; i++) {
		strbuf_addstr(out, "<th>");
		report_html_escape(out, reports[i].branch->name);
		strbuf_addstr(out, "</th>");
	}
	strbuf_addstr(out, "</tr>\n<tr><th>base</th>");
	for (i = 0; i < nr; i++) {
		strbuf_addstr(out, "<td>");
		report_html_escape(out, reports[i].branch->base_name ?
				   reports[i].branch->base_name : "");
		strbuf_addstr(out, "</td>");
	}
	strbuf_addstr(out, "</tr>\n<tr><th>mainline range</th>");
	for (i = 0; i < nr; i++) {
		strbuf_addstr(out, "<td>");
		report_html_escape(out, reports[i].scan->range);
		strbuf_addstr(out, "</td>");
	}
	strbuf_addstr(out, "</tr>\n");
	for (v = 0; v < VERDICT__COUNT; v++) {
		strbuf_addf(out, "<tr><th>%s</th>",
			    verdict_name((enum verdict)v));
		for (i = 0; i < nr; i++)
			strbuf_addf(out, "<td class=\"n\">%zu</td>", count[i][v]);
		strbuf_addstr(out, "</tr>\n");
		if (v != VERDICT_PROPOSED)
			continue;
		strbuf_addstr(out, "<tr><th title=\"of the proposed, needs-ack "
			      "and waiting, those whose trial pick fails\">"
			      "does not apply</th>");
		for (i = 0; i < nr; i++)
			strbuf_addf(out, "<td class=\"n stuck\">%zu</td>",
				    count[i][VERDICT__COUNT]);
		strbuf_addstr(out, "</tr>\n");
	}
	strbuf_addstr(out, "</table>\n");
	free(count);
}

/* CVE badges, the posted mail and the reasons of each branch's verdict. */
static void row_details(struct strbuf *out, const struct report *reports,
			const struct candidate_list *const *lists, size_t nr,
			const struct candidate *c)
{
	size_t i;

	for (i = 0; i < c->nr_cves; i++) {
		strbuf_addstr(out, "<a class=\"badge\" href=\"https://www.cve.org/"
			      "CVERecord?id=");
		report_html_escape(out, c->cves[i]);
		strbuf_addstr(out, "\">");
		report_html_escape(out, c->cves[i]);
		strbuf_addstr(out, "</a>");
	}
	if (c->posted && c->posted->msg && c->posted->msg->message_id) {
		strbuf_addstr(out, " <a href=\"https://lore.kernel.org/r/");
		report_html_escape(out, c->posted->msg->message_id);
		strbuf_addstr(out, "\">posted</a>");
	}
	strbuf_addstr(out, "<details><summary>why</summary>\n");
	for (i = 0; i < nr; i++) {
		const struct candidate *o = candidate_list_find(lists[i], &c->id);
		struct strbuf why = STRBUF_INIT;

		if (!o)
			continue;
		if (o->why && o->verdict != VERDICT_PROPOSED &&
		    o->verdict != VERDICT_BELOW_THRESHOLD)
			strbuf_addf(&why, "%s; ", o->why);
		report_reasons(&why, o);
		strbuf_addstr(out, "<div>");
		report_html_escape(out, reports[i].branch->name);
		strbuf_addf(out, ": %s (score %lld): ", verdict_name(o->verdict),
			    o->score);
		report_html_escape(out, why.buf);
		strbuf_addstr(out, "</div>\n");
		strbuf_release(&why);
	}
	strbuf_addstr(out, "</details>");
}

void report_propose_html(struct strbuf *out, const struct report *reports,
			 const struct candidate_list *const *lists, size_t nr,
			 const char *commit_url, git_time_t tip_time)
{
	const struct candidate **rows;
	struct strbuf title = STRBUF_INIT;
	size_t nr_rows, i, k;

	strbuf_addstr(&title, "stablepick: ");
	for (i = 0; i < nr; i++)
		strbuf_addf(&title, "%s%s", i ? ", " : "", reports[i].branch->name);
	report_html_begin(out, title.buf);
	strbuf_release(&title);
	strbuf_addstr(out, "<p>The mainline commits each branch should take, "
		      "newest branch first; written by stablepick propose.</p>\n");
	summary(out, reports, lists, nr);
	chart(out, reports, lists, nr, tip_time);
	nr_rows = report_matrix_rows(reports, lists, nr, &rows);
	strbuf_addf(out, "<h2>Commits (%zu)</h2>\n<table id=\"commits\">\n"
		    "<tr><th>commit</th><th>subsystem</th>", nr_rows);
	for (i = 0; i < nr; i++) {
		strbuf_addstr(out, "<th>");
		report_html_escape(out, reports[i].branch->name);
		strbuf_addstr(out, "</th>");
	}
	strbuf_addstr(out, "<th>subject</th></tr>\n");
	for (k = 0; k < nr_rows; k++) {
		const struct candidate *c = rows[k];
		const struct subsystem *s = candidate_subsystem(c);

		strbuf_addf(out, "<tr class=\"row\" id=\"c%.12s\"><td>", c->hex);
		report_html_commit(out, commit_url, &c->id);
		strbuf_addstr(out, "</td><td>");
		report_html_escape(out, s ? s->name : "-");
		strbuf_addstr(out, "</td>");
		for (i = 0; i < nr; i++) {
			int flag;
			const char *v = report_matrix_cell(&reports[i], lists[i],
							   &c->id, &flag);

			strbuf_addf(out, "<td class=\"%s\">%s%s</td>",
				    strcmp(v, "-") ? v : "none", v,
				    flag ? "<span class=\"flag\" title=\"a newer "
				    "branch lacks it and is not to take it\">!"
				    "</span>" : "");
		}
		strbuf_addstr(out, "<td>");
		report_html_escape(out, c->msg.subject ? c->msg.subject : "");
		row_details(out, reports, lists, nr, c);
		strbuf_addstr(out, "</td></tr>\n");
	}
	strbuf_addstr(out, "</table>\n");
	if (!reports[0].all)
		strbuf_addstr(out, "<p>Commits present or below the threshold "
			      "in every branch are not shown (--all shows "
			      "them).</p>\n");
	report_html_end(out);
	free(rows);
}
