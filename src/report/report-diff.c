#include "report/report-diff.h"
#include "base/json.h"
#include "formats/mail.h"
#include "git/malformed.h"
#include "report/report-html.h"
#include "base/util.h"

#include <stdint.h>
#include <string.h>

static const char *const sections[] = {
	"missing", "maybe-present", "vendor-only", "missing-follow-up",
};

struct tally {
	const char *subsystem;
	size_t n[ARRAY_SIZE(sections)];
	size_t first_missing;		/* position in the stable range */
};

/*
 * Per subsystem (in order of first appearance), the rows of each
 * section, and the newest stable release it is caught up with.
 */
static size_t tally(struct tally **out, const struct diff_rows *r,
		    const struct diff_releases *rel)
{
	struct tally *t = xcalloc(r->nr ? r->nr : 1, sizeof(*t));
	size_t nr = 0, i, j, k;

	for (i = 0; i < r->nr; i++) {
		const char *name = r->v[i].subsystem ? r->v[i].subsystem : "-";

		for (j = 0; j < nr && strcmp(t[j].subsystem, name); j++)
			;
		if (j == nr) {
			t[nr].subsystem = name;
			t[nr++].first_missing = SIZE_MAX;
		}
		for (k = 0; k < ARRAY_SIZE(sections); k++)
			if (!strcmp(sections[k], r->v[i].section))
				t[j].n[k]++;
		if (!strcmp(r->v[i].section, "missing") ||
		    !strcmp(r->v[i].section, "maybe-present")) {
			size_t pos = diff_release_position(rel, &r->v[i].commit);

			if (pos < t[j].first_missing)
				t[j].first_missing = pos;
		}
	}
	*out = t;
	return nr;
}

static void print_summary(struct strbuf *out, const struct diff_rows *r,
			  const struct diff_releases *rel)
{
	struct tally *t;
	size_t nr = tally(&t, r, rel), j;

	int w = 12;

	/* As wide as the longest name: fs/smb/common/'s smb-common, ... */
	for (j = 0; j < nr; j++)
		if ((int)strlen(t[j].subsystem) > w)
			w = (int)strlen(t[j].subsystem);
	strbuf_addf(out, "\n%-*s %8s %14s %12s %18s  %s\n", w, "subsystem",
		    sections[0], sections[1], sections[2], sections[3],
		    "caught up with");
	for (j = 0; j < nr; j++)
		strbuf_addf(out, "%-*s %8zu %14zu %12zu %18zu  %s\n", w,
			    t[j].subsystem, t[j].n[0], t[j].n[1], t[j].n[2],
			    t[j].n[3], diff_caught_up(rel, t[j].first_missing));
	if (!nr)
		strbuf_addstr(out, "nothing to report\n");
	free(t);
}

void report_diff_text(struct strbuf *out, const struct diff_rows *r,
		      const struct diff_releases *rel)
{
	size_t i;
	int wsub = 10;

	for (i = 0; i < r->nr; i++)
		if (r->v[i].subsystem && (int)strlen(r->v[i].subsystem) > wsub)
			wsub = (int)strlen(r->v[i].subsystem);
	if (r->nr)
		strbuf_addf(out, "%-17s %-12s  %-*s %s\n", "SECTION", "COMMIT",
			    wsub, "SUBSYSTEM", "SUBJECT");
	for (i = 0; i < r->nr; i++) {
		const struct diff_row *w = &r->v[i];
		char hex[GIT_OID_HEXSZ + 1];

		git_oid_tostr(hex, sizeof(hex), &w->commit);
		strbuf_addf(out, "%-17s %.12s  %-*s %s\n", w->section, hex,
			    wsub, w->subsystem ? w->subsystem : "-",
			    w->subject ? w->subject : "");
		if (w->detail)
			strbuf_addf(out, "%*s%s\n", 21 + wsub, "", w->detail);
		if (w->nr_cves) {
			size_t k;

			strbuf_addf(out, "%*sfixes", 21 + wsub, "");
			for (k = 0; k < w->nr_cves; k++)
				strbuf_addf(out, "%s %s", k ? "," : "",
					    w->cves[k]->id);
			strbuf_addch(out, '\n');
		}
	}
	print_summary(out, r, rel);
}

/*
 * One file, no script, no network: a summary table, a chart of the
 * missing fixes by subsystem and age (inline SVG), and every row.
 */
void report_diff_html(struct strbuf *out, git_repository *repo,
		      const struct diff_rows *r, const struct diff_releases *rel,
		      const char *vendor, const char *stable_name,
		      const char *range, const git_oid *stable,
		      const char *commit_url)
{
	struct tally *t;
	size_t nr = tally(&t, r, rel), i, j, k;
	struct report_html_bar *bars = xcalloc(nr ? nr : 1, sizeof(*bars));
	size_t nr_bars;
	git_time_t now = 0;

	if (malformed_commit_time(&now, repo, stable) < 0) {
		now = 0;
		git_error_clear();
	}
	for (i = 0; i < r->nr; i++) {
		const struct diff_row *w = &r->v[i];
		const char *name = w->subsystem ? w->subsystem : "-";
		git_commit *c = NULL;
		long days;

		if (strcmp(w->section, "missing") &&
		    strcmp(w->section, "missing-follow-up"))
			continue;
		for (j = 0; j < nr && strcmp(t[j].subsystem, name); j++)
			;
		if (j == nr || git_commit_lookup(&c, repo, &w->commit) < 0) {
			git_error_clear();
			continue;
		}
		days = (long)((now - git_commit_time(c)) / 86400);
		git_commit_free(c);
		bars[j].n[report_html_age(days)]++;
	}
	/* The subsystems that lack something, no rows of zeros. */
	for (j = k = 0; j < nr; j++) {
		if (!t[j].n[0] && !t[j].n[3])
			continue;
		memcpy(bars[k].n, bars[j].n, sizeof(bars[k].n));
		bars[k].label = t[j].subsystem;
		bars[k++].total = t[j].n[0] + t[j].n[3];
	}
	nr_bars = k;

	{
		struct strbuf title = STRBUF_INIT;

		strbuf_addf(&title, "stablepick diff: %s against %s", vendor,
			    stable_name);
		report_html_begin(out, title.buf);
		strbuf_release(&title);
	}
	strbuf_addstr(out, "<p>Stable range ");
	report_html_escape(out, range);
	strbuf_addstr(out, ", watched paths only; written by stablepick diff.</p>\n"
		      "<h2>Summary</h2>\n<table>\n<tr><th>subsystem</th>");
	for (k = 0; k < ARRAY_SIZE(sections); k++)
		strbuf_addf(out, "<th>%s</th>", sections[k]);
	strbuf_addstr(out, "<th>caught up with</th></tr>\n");
	for (j = 0; j < nr; j++) {
		strbuf_addstr(out, "<tr><td>");
		report_html_escape(out, t[j].subsystem);
		strbuf_addstr(out, "</td>");
		for (k = 0; k < ARRAY_SIZE(sections); k++)
			strbuf_addf(out, "<td class=\"n\">%zu</td>", t[j].n[k]);
		strbuf_addstr(out, "<td>");
		report_html_escape(out, diff_caught_up(rel, t[j].first_missing));
		strbuf_addstr(out, "</td></tr>\n");
	}
	strbuf_addstr(out, "</table>\n<h2>Missing fixes and follow-ups by subsystem and age</h2>\n");
	if (nr_bars)
		report_html_age_chart(out, bars, nr_bars, "missing fixes and "
				      "follow-ups by subsystem and age");
	else
		strbuf_addstr(out, "<p>Nothing missing.</p>\n");
	strbuf_addstr(out, "<h2>Commits</h2>\n<table>\n<tr><th>section</th>"
		      "<th>commit</th><th>upstream</th><th>subsystem</th>"
		      "<th>subject</th></tr>\n");
	for (i = 0; i < r->nr; i++) {
		const struct diff_row *w = &r->v[i];
		git_oid up;

		strbuf_addf(out, "<tr class=\"%s\"><td>%s</td><td>", w->section,
			    w->section);
		report_html_commit(out, commit_url, &w->commit);
		strbuf_addstr(out, "</td><td>");
		if (w->upstream && !git_oid_fromstr(&up, w->upstream))
			report_html_commit(out, commit_url, &up);
		git_error_clear();
		strbuf_addstr(out, "</td><td>");
		report_html_escape(out, w->subsystem ? w->subsystem : "-");
		strbuf_addstr(out, "</td><td>");
		report_html_escape(out, w->subject);
		for (k = 0; k < w->nr_cves; k++) {
			strbuf_addstr(out, "<span class=\"badge\">");
			report_html_escape(out, w->cves[k]->id);
			strbuf_addstr(out, "</span>");
		}
		if (w->detail) {
			strbuf_addstr(out, "<br><small>");
			report_html_escape(out, w->detail);
			strbuf_addstr(out, "</small>");
		}
		strbuf_addstr(out, "</td></tr>\n");
	}
	strbuf_addstr(out, "</table>\n");
	report_html_end(out);
	free(bars);
	free(t);
}

void report_diff_json(struct strbuf *out, const struct diff_rows *r,
		      const char *vendor)
{
	struct json_writer jw;
	size_t i, k;

	for (i = 0; i < r->nr; i++) {
		const struct diff_row *w = &r->v[i];
		char hex[GIT_OID_HEXSZ + 1];

		jw_init(&jw, out);
		jw_object_begin(&jw);
		jw_object_string(&jw, "branch", vendor);
		jw_object_string(&jw, "section", w->section);
		jw_object_string(&jw, "commit",
				 git_oid_tostr(hex, sizeof(hex), &w->commit));
		jw_object_string(&jw, "upstream", w->upstream);
		jw_object_string(&jw, "subsystem", w->subsystem);
		jw_object_string(&jw, "subject", w->subject);
		jw_object_string(&jw, "detail", w->detail);
		if (w->verdict) {
			jw_object_string(&jw, "verdict", w->verdict);
			jw_object_int(&jw, "score", w->score);
		} else {
			jw_object_null(&jw, "verdict");
			jw_object_null(&jw, "score");
		}
		jw_object_array(&jw, "cves");
		for (k = 0; k < w->nr_cves; k++)
			jw_array_string(&jw, w->cves[k]->id);
		jw_end(&jw);
		jw_end(&jw);
		strbuf_addch(out, '\n');
	}
}
