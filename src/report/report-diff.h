#ifndef REPORT_DIFF_H
#define REPORT_DIFF_H

#include "base/strbuf.h"
#include "run/vendordiff.h"

/*
 * The output of stablepick diff (vendordiff.h).  Text: every row, then
 * per subsystem the rows of each section and the newest stable release
 * it is caught up with.  JSON: a row a line, each naming its vendor
 * branch ("branch").  HTML: one file, no
 * script, no network: the summary, a chart of the missing fixes and
 * follow-ups by subsystem and age (inline SVG), every row (its commits
 * linked with commit_url, stablepick.commitUrl, when set).
 */
void report_diff_text(struct strbuf *out, const struct diff_rows *r,
		      const struct diff_releases *rel);
void report_diff_json(struct strbuf *out, const struct diff_rows *r,
		      const char *vendor);
void report_diff_html(struct strbuf *out, git_repository *repo,
		      const struct diff_rows *r, const struct diff_releases *rel,
		      const char *vendor, const char *stable_name,
		      const char *range, const git_oid *stable,
		      const char *commit_url);

#endif
