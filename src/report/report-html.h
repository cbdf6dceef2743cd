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

/* A bar of a chart: its label, its commits by age. */
struct report_html_bar {
	const char *label, *label2;	/* label2 NULL, or after a space */
	size_t n[REPORT_HTML_AGES], total;
};

/*
 * A chart (inline SVG) of bars of commits by age, the legend first, the
 * count after each bar; aria names it for screen readers.
 */
void report_html_age_chart(struct strbuf *out,
			   const struct report_html_bar *bars, size_t nr,
			   const char *aria);

/*
 * propose --format html, of one or several branches (reports[i] and
 * lists[i], newest first): each branch's range and counts, a chart of
 * what each lacks (proposed, needs-ack, waiting) by subsystem and age
 * (days before tip_time, the upstream tip's date), then the matrix as
 * the text has it (report-matrix.h), each row with its CVE badges, its
 * posted mail (a lore link) and, per branch, the reasons of its
 * verdict.
 */
void report_propose_html(struct strbuf *out, const struct report *reports,
			 const struct candidate_list *const *lists, size_t nr,
			 const char *commit_url, git_time_t tip_time);

#endif
