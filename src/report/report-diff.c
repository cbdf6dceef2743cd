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
	size_t order;			/* of first appearance */
	size_t age[2][REPORT_HTML_AGES];	/* missing, follow-ups */
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
			t[nr].order = nr;
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

/* The sections of a subsystem that lack something, by what to act on. */
static int tally_cmp(const void *va, const void *vb)
{
	const struct tally *a = va, *b = vb;
	static const size_t by[] = { 0, 3, 1, 2 };
	size_t k;

	for (k = 0; k < ARRAY_SIZE(by); k++)
		if (a->n[by[k]] != b->n[by[k]])
			return a->n[by[k]] > b->n[by[k]] ? -1 : 1;
	return a->order < b->order ? -1 : a->order > b->order;
}

/* Nothing to take or to check: vendor-only rows at most. */
static int lacks_nothing(const struct tally *t)
{
	return !t->n[0] && !t->n[1] && !t->n[3];
}

/* The ages of the missing fixes and follow-ups, into each tally. */
static void tally_ages(struct tally *t, size_t nr, git_repository *repo,
		       const struct diff_rows *r, const git_oid *stable)
{
	git_time_t now = 0;
	size_t i, j;

	if (malformed_commit_time(&now, repo, stable) < 0) {
		now = 0;
		git_error_clear();
	}
	for (i = 0; i < r->nr; i++) {
		const struct diff_row *w = &r->v[i];
		const char *name = w->subsystem ? w->subsystem : "-";
		int follow_up = !strcmp(w->section, "missing-follow-up");
		git_commit *c = NULL;
		long days;

		if (strcmp(w->section, "missing") && !follow_up)
			continue;
		for (j = 0; j < nr && strcmp(t[j].subsystem, name); j++)
			;
		if (j == nr || git_commit_lookup(&c, repo, &w->commit) < 0) {
			git_error_clear();
			continue;
		}
		days = (long)((now - git_commit_time(c)) / 86400);
		git_commit_free(c);
		t[j].age[follow_up][report_html_age(days)]++;
	}
}

static void html_tally_row(struct strbuf *out, const struct tally *t,
			   const struct diff_releases *rel, const char *cls)
{
	size_t k;

	strbuf_addf(out, "<tr class=\"%s\"><td>", cls);
	report_html_escape(out, t->subsystem);
	strbuf_addstr(out, "</td>");
	for (k = 0; k < ARRAY_SIZE(sections); k++)
		strbuf_addf(out, "<td class=\"n\">%zu</td>", t->n[k]);
	strbuf_addstr(out, "<td>");
	report_html_escape(out, diff_caught_up(rel, t->first_missing));
	strbuf_addstr(out, "</td></tr>\n");
}

static void html_table_head(struct strbuf *out, const char *id)
{
	size_t k;

	strbuf_addf(out, "<table id=\"%s\">\n<tr><th>subsystem</th>", id);
	for (k = 0; k < ARRAY_SIZE(sections); k++)
		strbuf_addf(out, "<th>%s</th>", sections[k]);
	strbuf_addstr(out, "<th>caught up with</th></tr>\n");
}

/*
 * The totals first, then the subsystems that lack something, the most
 * missing fixes first, then follow-ups; the others folded.
 */
static void html_summary(struct strbuf *out, const struct tally *t,
			 size_t nr, const struct diff_releases *rel)
{
	struct tally total = { 0 };
	struct strbuf name = STRBUF_INIT;
	size_t j, k, folded = 0;

	total.first_missing = SIZE_MAX;
	for (j = 0; j < nr; j++) {
		for (k = 0; k < ARRAY_SIZE(sections); k++)
			total.n[k] += t[j].n[k];
		if (t[j].first_missing < total.first_missing)
			total.first_missing = t[j].first_missing;
		folded += lacks_nothing(&t[j]);
	}
	strbuf_addf(&name, "all %zu subsystems", nr);
	total.subsystem = name.buf;
	strbuf_addstr(out, "<h2>Summary</h2>\n");
	html_table_head(out, "summary");
	html_tally_row(out, &total, rel, "total");
	for (j = 0; j < nr; j++)
		if (!lacks_nothing(&t[j]))
			html_tally_row(out, &t[j], rel, "row");
	strbuf_addstr(out, "</table>\n");
	if (folded) {
		strbuf_addf(out, "<details><summary>%zu subsystem%s with nothing "
			    "missing</summary>\n", folded, folded == 1 ? "" : "s");
		html_table_head(out, "nothing-missing");
		for (j = 0; j < nr; j++)
			if (lacks_nothing(&t[j]))
				html_tally_row(out, &t[j], rel, "row");
		strbuf_addstr(out, "</table>\n</details>\n");
	}
	strbuf_release(&name);
}

/* A chart of one section (0 missing fixes, 1 follow-ups), capped. */
static void html_chart(struct strbuf *out, const struct tally *t, size_t nr,
		       int follow_up)
{
	const char *what = follow_up ? "missing follow-ups" :
				       "missing stable fixes";
	struct report_html_bar *bars = xcalloc(nr ? nr : 1, sizeof(*bars));
	struct strbuf other = STRBUF_INIT, aria = STRBUF_INIT;
	size_t nr_bars = 0, all, j;

	for (j = 0; j < nr; j++) {
		size_t n = t[j].n[follow_up ? 3 : 0];

		if (!n)
			continue;
		memcpy(bars[nr_bars].n, t[j].age[follow_up],
		       sizeof(bars[nr_bars].n));
		bars[nr_bars].label = t[j].subsystem;
		bars[nr_bars++].total = n;
	}
	all = nr_bars;
	nr_bars = report_html_top_bars(bars, nr_bars, REPORT_HTML_TOP_BARS,
				       &other);
	strbuf_addf(out, "<h2 id=\"chart-%s\">M%s by subsystem and age</h2>\n",
		    follow_up ? "follow-ups" : "fixes",
		    what + 1);
	if (nr_bars < all)
		strbuf_addf(out, "<p>The %d subsystems with the most; the other "
			    "%zu are summed in the last bar.</p>\n",
			    REPORT_HTML_TOP_BARS - 1, all - nr_bars + 1);
	strbuf_addf(&aria, "%s by subsystem and age", what);
	if (nr_bars)
		report_html_age_chart(out, bars, nr_bars, aria.buf);
	else
		strbuf_addf(out, "<p>No %s.</p>\n", what);
	strbuf_release(&aria);
	strbuf_release(&other);
	free(bars);
}

static void html_rows(struct strbuf *out, const struct diff_rows *r,
		      const char *commit_url)
{
	size_t i, k;

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
}

/*
 * One file, no script, no network: the totals and the subsystems that
 * lack something, by what to act on, the rest folded; a chart of the
 * missing fixes and one of the missing follow-ups by subsystem and age
 * (inline SVG), the same order; every row.
 */
void report_diff_html(struct strbuf *out, git_repository *repo,
		      const struct diff_rows *r, const struct diff_releases *rel,
		      const char *vendor, const char *stable_name,
		      const char *range, const git_oid *stable,
		      const char *commit_url)
{
	struct tally *t;
	struct strbuf title = STRBUF_INIT;
	size_t nr = tally(&t, r, rel);

	tally_ages(t, nr, repo, r, stable);
	if (nr)
		qsort(t, nr, sizeof(*t), tally_cmp);
	strbuf_addf(&title, "stablepick diff: %s against %s", vendor,
		    stable_name);
	report_html_begin(out, title.buf);
	strbuf_release(&title);
	strbuf_addstr(out, "<p>Stable range ");
	report_html_escape(out, range);
	strbuf_addstr(out, ", watched paths only; written by stablepick diff.</p>\n");
	html_summary(out, t, nr, rel);
	html_chart(out, t, nr, 0);
	html_chart(out, t, nr, 1);
	html_rows(out, r, commit_url);
	report_html_end(out);
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
