#include "report-diff.h"
#include "json.h"
#include "mail.h"
#include "util.h"

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
	for (i = 0; i < r->nr; i++) {
		const struct diff_row *w = &r->v[i];
		char hex[GIT_OID_HEXSZ + 1];

		git_oid_tostr(hex, sizeof(hex), &w->commit);
		strbuf_addf(out, "%-17s %.12s  %-*s %s\n", w->section, hex,
			    wsub, w->subsystem ? w->subsystem : "-",
			    w->subject ? w->subject : "");
		if (w->detail)
			strbuf_addf(out, "%*s%s\n", 21 + wsub, "", w->detail);
	}
	print_summary(out, r, rel);
}

static void html_text(struct strbuf *out, const char *s)
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

/* Ages of missing fixes, in days before the stable tip's date. */
static const struct { const char *label, *color; long days; } ages[] = {
	{ "under 30 days", "#f4a582", 30 },
	{ "30 to 90 days", "#d6604d", 90 },
	{ "90 days to a year", "#b2182b", 365 },
	{ "over a year", "#67001f", 0 },
};

/*
 * One file, no script, no network: a summary table, a chart of the
 * missing fixes by subsystem and age (inline SVG), and every row.
 */
void report_diff_html(struct strbuf *out, git_repository *repo,
		      const struct diff_rows *r, const struct diff_releases *rel,
		      const char *vendor, const char *stable_name,
		      const char *range, const git_oid *stable)
{
	struct tally *t;
	size_t nr = tally(&t, r, rel), i, j, k, max = 1;
	size_t (*age)[ARRAY_SIZE(ages)] = xcalloc(nr ? nr : 1, sizeof(*age));
	git_commit *tip = NULL;
	git_time_t now = 0;

	if (!git_commit_lookup(&tip, repo, stable))
		now = git_commit_time(tip);
	git_commit_free(tip);
	for (i = 0; i < r->nr; i++) {
		const struct diff_row *w = &r->v[i];
		const char *name = w->subsystem ? w->subsystem : "-";
		git_commit *c = NULL;
		long days;

		if (strcmp(w->section, "missing"))
			continue;
		for (j = 0; j < nr && strcmp(t[j].subsystem, name); j++)
			;
		if (j == nr || git_commit_lookup(&c, repo, &w->commit) < 0) {
			git_error_clear();
			continue;
		}
		days = (long)((now - git_commit_time(c)) / 86400);
		git_commit_free(c);
		for (k = 0; ages[k].days && days >= ages[k].days; k++)
			;
		age[j][k]++;
	}
	for (j = 0; j < nr; j++)
		if (t[j].n[0] > max)
			max = t[j].n[0];

	strbuf_addstr(out, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n"
		      "<meta charset=\"utf-8\">\n<title>stablepick diff: ");
	html_text(out, vendor);
	strbuf_addstr(out, " against ");
	html_text(out, stable_name);
	strbuf_addstr(out, "</title>\n<style>\n"
		      "body { font-family: sans-serif; margin: 2em; color: #222; }\n"
		      "table { border-collapse: collapse; margin-bottom: 2em; }\n"
		      "th, td { border: 1px solid #bbb; padding: 0.2em 0.6em; "
		      "text-align: left; vertical-align: top; }\n"
		      "td.n { text-align: right; }\n"
		      "code { font-size: 0.95em; }\n"
		      ".missing { background: #fde0dd; }\n"
		      ".maybe-present { background: #fff7bc; }\n"
		      ".vendor-only { background: #e5f5e0; }\n"
		      ".missing-follow-up { background: #deebf7; }\n"
		      "</style>\n</head>\n<body>\n<h1>");
	html_text(out, vendor);
	strbuf_addstr(out, " against ");
	html_text(out, stable_name);
	strbuf_addstr(out, "</h1>\n<p>Stable range ");
	html_text(out, range);
	strbuf_addstr(out, ", watched paths only; written by stablepick diff.</p>\n"
		      "<h2>Summary</h2>\n<table>\n<tr><th>subsystem</th>");
	for (k = 0; k < ARRAY_SIZE(sections); k++)
		strbuf_addf(out, "<th>%s</th>", sections[k]);
	strbuf_addstr(out, "<th>caught up with</th></tr>\n");
	for (j = 0; j < nr; j++) {
		strbuf_addstr(out, "<tr><td>");
		html_text(out, t[j].subsystem);
		strbuf_addstr(out, "</td>");
		for (k = 0; k < ARRAY_SIZE(sections); k++)
			strbuf_addf(out, "<td class=\"n\">%zu</td>", t[j].n[k]);
		strbuf_addstr(out, "<td>");
		html_text(out, diff_caught_up(rel, t[j].first_missing));
		strbuf_addstr(out, "</td></tr>\n");
	}
	strbuf_addstr(out, "</table>\n<h2>Missing fixes by subsystem and age</h2>\n");
	strbuf_addf(out, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"720\" "
		    "height=\"%zu\" role=\"img\" aria-label=\"missing fixes by "
		    "subsystem and age\">\n", 40 + 24 * (nr ? nr : 1));
	for (k = 0; k < ARRAY_SIZE(ages); k++)
		strbuf_addf(out, "<rect x=\"%zu\" y=\"4\" width=\"12\" height=\"12\" "
			    "fill=\"%s\"/><text x=\"%zu\" y=\"15\" font-size=\"12\">%s"
			    "</text>\n", 10 + 170 * k, ages[k].color, 26 + 170 * k,
			    ages[k].label);
	for (j = 0; j < nr; j++) {
		size_t x = 130, y = 32 + 24 * j;

		strbuf_addf(out, "<text x=\"10\" y=\"%zu\" font-size=\"13\">", y + 14);
		html_text(out, t[j].subsystem);
		strbuf_addstr(out, "</text>\n");
		for (k = 0; k < ARRAY_SIZE(ages); k++) {
			size_t w = age[j][k] * 520 / max;

			if (!age[j][k])
				continue;
			strbuf_addf(out, "<rect x=\"%zu\" y=\"%zu\" width=\"%zu\" "
				    "height=\"18\" fill=\"%s\"><title>%zu %s</title>"
				    "</rect>\n", x, y, w ? w : 1, ages[k].color,
				    age[j][k], ages[k].label);
			x += w ? w : 1;
		}
		strbuf_addf(out, "<text x=\"%zu\" y=\"%zu\" font-size=\"12\">%zu</text>\n",
			    x + 6, y + 14, t[j].n[0]);
	}
	strbuf_addstr(out, "</svg>\n<h2>Commits</h2>\n<table>\n<tr><th>section</th>"
		      "<th>commit</th><th>upstream</th><th>subsystem</th>"
		      "<th>subject</th></tr>\n");
	for (i = 0; i < r->nr; i++) {
		const struct diff_row *w = &r->v[i];
		char hex[GIT_OID_HEXSZ + 1];

		git_oid_tostr(hex, sizeof(hex), &w->commit);
		strbuf_addf(out, "<tr class=\"%s\"><td>%s</td><td><code>%.12s</code>"
			    "</td><td><code>", w->section, w->section, hex);
		if (w->upstream)
			strbuf_addf(out, "%.12s", w->upstream);
		strbuf_addstr(out, "</code></td><td>");
		html_text(out, w->subsystem ? w->subsystem : "-");
		strbuf_addstr(out, "</td><td>");
		html_text(out, w->subject);
		if (w->detail) {
			strbuf_addstr(out, "<br><small>");
			html_text(out, w->detail);
			strbuf_addstr(out, "</small>");
		}
		strbuf_addstr(out, "</td></tr>\n");
	}
	strbuf_addstr(out, "</table>\n</body>\n</html>\n");
	free(age);
	free(t);
}

void report_diff_json(struct strbuf *out, const struct diff_rows *r)
{
	struct json_writer jw;
	size_t i;

	for (i = 0; i < r->nr; i++) {
		const struct diff_row *w = &r->v[i];
		char hex[GIT_OID_HEXSZ + 1];

		jw_init(&jw, out);
		jw_object_begin(&jw);
		jw_object_string(&jw, "section", w->section);
		jw_object_string(&jw, "commit",
				 git_oid_tostr(hex, sizeof(hex), &w->commit));
		jw_object_string(&jw, "upstream", w->upstream);
		jw_object_string(&jw, "subsystem", w->subsystem);
		jw_object_string(&jw, "subject", w->subject);
		jw_object_string(&jw, "detail", w->detail);
		jw_end(&jw);
		strbuf_addch(out, '\n');
	}
}
