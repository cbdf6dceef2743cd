#ifndef REPORT_HTML_H
#define REPORT_HTML_H

#include <git2.h>

#include "report/report.h"
#include "base/strbuf.h"

/*
 * The pages a team publishes: one self-contained HTML file each (the
 * style inline, no script, nothing fetched), readable in any browser.
 */

/* s as HTML text: one line of valid UTF-8, & < > " escaped. */
void report_html_escape(struct strbuf *out, const char *s);

/*
 * A commit id as a link when url (stablepick.commitUrl, "%H" standing
 * for the full id) is set, else as code: the first 12 digits shown.
 */
void report_html_commit(struct strbuf *out, const char *url,
			const git_oid *id);

/* The page's head: the title, the style; then <body> and an <h1>. */
void report_html_begin(struct strbuf *out, const char *title);
void report_html_end(struct strbuf *out);

/* The ages of a commit a branch lacks, in days before a date. */
#define REPORT_HTML_AGES 4
size_t report_html_age(long days);

/*
 * A bar of a chart: its label, its commits by age, and how many of them
 * do not apply (a thin grey bar under it; 0 on pages that do not try).
 */
struct report_html_bar {
	const char *label, *label2;	/* label2 NULL, or after a space */
	size_t n[REPORT_HTML_AGES], total, stuck;
	int rest;			/* the sum of the bars past the top */
};

/* The most bars a chart of one branch draws: 24 and the rest summed. */
#define REPORT_HTML_TOP_BARS 25

/*
 * Sorts bars by what to act on (the largest total first, ties by
 * label), and sums those past the first cap - 1 (when there are more
 * than cap, cap at least 2) into one last bar labelled other ("and N
 * more": its label2 if it has one, else its label), which other must
 * outlive.  Returns the number of bars left.
 */
size_t report_html_top_bars(struct report_html_bar *bars, size_t nr,
			    size_t cap, struct strbuf *other);

/*
 * A chart (inline SVG) of bars of commits by age, the legend first, the
 * count after each bar (and how many do not apply, when some do not);
 * aria names it for screen readers.  The longest bar but the rest's
 * sets the scale (the rest's is cut at the chart's edge); every bar
 * drawn is at least 3 pixels wide, one row of 24 pixels a bar.
 */
void report_html_age_chart(struct strbuf *out,
			   const struct report_html_bar *bars, size_t nr,
			   const char *aria);

/*
 * propose --format html, of one or several branches (reports[i] and
 * lists[i], newest first): each branch's range and counts by verdict,
 * with, next to proposed, how many of what it lacks do not apply (the
 * trial pick failed); a chart of what each lacks (proposed, needs-ack,
 * waiting) by subsystem and age (days before tip_time, the upstream
 * tip's date), each branch's largest first, capped
 * (report_html_top_bars(): REPORT_HTML_TOP_BARS of one branch, a share
 * of them, 8 at least, of several), the ones that do not apply under
 * each bar; then the matrix as
 * the text has it (report-matrix.h), each row with its CVE badges, its
 * posted mail (a lore link) and, per branch, the reasons of its
 * verdict.
 */
void report_propose_html(struct strbuf *out, const struct report *reports,
			 const struct candidate_list *const *lists, size_t nr,
			 const char *commit_url, git_time_t tip_time);

#endif
