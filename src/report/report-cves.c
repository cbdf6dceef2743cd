#include "report/report-cves.h"
#include "base/json.h"
#include "report/report-html.h"
#include "base/util.h"

#include <string.h>

static void text_row(struct strbuf *out, const struct cve_row *row)
{
	const struct candidate *c = row->fix;

	strbuf_addf(out, "%-16s %-13s %.12s  %-16s %s\n", row->cve->id,
		    cve_status_name(row->status),
		    git_oid_tostr_s(c ? &c->id : &row->cve->fixes[0]),
		    c && row->status == CVE_UNFIXED ? verdict_name(c->verdict) :
		    "-", c && c->msg.subject ? c->msg.subject : "");
	strbuf_addf(out, "%16s %s\n", "", row->detail);
}

void report_cves_text(struct strbuf *out, const struct run *run,
		      const struct cve_run *cr, int all)
{
	static const enum cve_status order[] = {
		CVE_UNFIXED, CVE_FIXED, CVE_NOT_AFFECTED
	};
	size_t count[CVE__NR] = { 0 }, i, k;

	for (i = 0; i < cr->set.nr; i++)
		count[cr->rows[i].status]++;
	strbuf_addf(out, "CVEs for %s (tip %.12s), from %zu records\n\n",
		    run->branch.name, git_oid_tostr_s(&run->branch.tip),
		    cr->set.nr);
	strbuf_addf(out, "%-16s %-13s %-12s  %-16s %s\n", "CVE", "STATUS",
		    "FIX", "VERDICT", "SUBJECT");
	for (k = 0; k < ARRAY_SIZE(order); k++) {
		if (order[k] == CVE_NOT_AFFECTED && !all)
			continue;
		for (i = 0; i < cr->set.nr; i++)
			if (cr->rows[i].status == order[k])
				text_row(out, &cr->rows[i]);
	}
	strbuf_addf(out, "\n%s: %zu unfixed, %zu fixed, %zu not affected%s\n",
		    run->branch.name, count[CVE_UNFIXED], count[CVE_FIXED],
		    count[CVE_NOT_AFFECTED],
		    count[CVE_NOT_AFFECTED] && !all ? " (--all lists them)" : "");
}

void report_cves_json(struct strbuf *out, const struct run *run,
		      const struct cve_run *cr)
{
	size_t i, j;

	for (i = 0; i < cr->set.nr; i++) {
		const struct cve_row *row = &cr->rows[i];
		const struct candidate *c = row->fix;
		struct json_writer jw;

		jw_init(&jw, out);
		jw_object_begin(&jw);
		jw_object_string(&jw, "cve", row->cve->id);
		jw_object_string(&jw, "branch", run->branch.name);
		jw_object_string(&jw, "status", cve_status_name(row->status));
		jw_object_array(&jw, "fixes");
		for (j = 0; j < row->cve->nr_fixes; j++)
			jw_array_string(&jw, git_oid_tostr_s(&row->cve->fixes[j]));
		jw_end(&jw);
		if (c && row->status == CVE_UNFIXED)
			jw_object_string(&jw, "verdict", verdict_name(c->verdict));
		else
			jw_object_null(&jw, "verdict");
		if (c && c->msg.subject)
			jw_object_string(&jw, "subject", c->msg.subject);
		else
			jw_object_null(&jw, "subject");
		jw_object_string(&jw, "detail", row->detail);
		jw_end(&jw);
		strbuf_addch(out, '\n');
	}
}

void report_cves_html(struct strbuf *out, const struct run *run,
		      const struct cve_run *cr, int all, const char *commit_url)
{
	static const char *const colors[CVE__NR] = {
		[CVE_UNFIXED] = "#b2182b", [CVE_FIXED] = "#1a9850",
		[CVE_NOT_AFFECTED] = "#999999",
	};
	size_t count[CVE__NR] = { 0 }, i, k, max = 1, shown = 0;
	struct strbuf title = STRBUF_INIT;

	for (i = 0; i < cr->set.nr; i++)
		count[cr->rows[i].status]++;
	for (k = 0; k < CVE__NR; k++)
		max = count[k] > max ? count[k] : max;
	strbuf_addf(&title, "stablepick cves: %s", run->branch.name);
	report_html_begin(out, title.buf);
	strbuf_release(&title);
	strbuf_addf(out, "<p>%zu CVE records against ", cr->set.nr);
	report_html_escape(out, run->branch.name);
	strbuf_addf(out, " (tip <code>%.12s</code>); written by stablepick "
		    "cves.</p>\n<svg xmlns=\"http://www.w3.org/2000/svg\" "
		    "width=\"720\" height=\"90\" role=\"img\" "
		    "aria-label=\"records by status\">\n",
		    git_oid_tostr_s(&run->branch.tip));
	for (k = 0; k < CVE__NR; k++) {
		size_t w = count[k] * 520 / max, y = 4 + 28 * k;

		strbuf_addf(out, "<text x=\"10\" y=\"%zu\" font-size=\"13\">%s"
			    "</text><rect x=\"120\" y=\"%zu\" width=\"%zu\" "
			    "height=\"20\" fill=\"%s\"/><text x=\"%zu\" "
			    "y=\"%zu\" font-size=\"12\">%zu</text>\n", y + 15,
			    cve_status_name((enum cve_status)k), y, w ? w : 1,
			    colors[k], 126 + (w ? w : 1), y + 15, count[k]);
	}
	strbuf_addstr(out, "</svg>\n<table id=\"cves\">\n<tr><th>CVE</th>"
		      "<th>status</th><th>fix</th><th>verdict</th>"
		      "<th>subject</th></tr>\n");
	for (i = 0; i < cr->set.nr; i++) {
		const struct cve_row *row = &cr->rows[i];
		const struct candidate *c = row->fix;

		if (row->status == CVE_NOT_AFFECTED && !all)
			continue;
		shown++;
		strbuf_addf(out, "<tr class=\"row %s\"><td><a class=\"badge\" "
			    "href=\"https://www.cve.org/CVERecord?id=",
			    cve_status_name(row->status));
		report_html_escape(out, row->cve->id);
		strbuf_addstr(out, "\">");
		report_html_escape(out, row->cve->id);
		strbuf_addf(out, "</a></td><td>%s</td><td>",
			    cve_status_name(row->status));
		report_html_commit(out, commit_url,
				   c ? &c->id : &row->cve->fixes[0]);
		strbuf_addf(out, "</td><td>%s</td><td>",
			    c && row->status == CVE_UNFIXED ?
			    verdict_name(c->verdict) : "-");
		report_html_escape(out, c && c->msg.subject ? c->msg.subject : "");
		strbuf_addstr(out, "<br><small>");
		report_html_escape(out, row->detail);
		strbuf_addstr(out, "</small></td></tr>\n");
	}
	strbuf_addf(out, "</table>\n<p>%zu of %zu records shown%s.</p>\n",
		    shown, cr->set.nr, all ? "" : " (--all shows those that "
		    "do not affect the branch)");
	report_html_end(out);
}
