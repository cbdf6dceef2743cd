#include "report-cves.h"
#include "json.h"
#include "util.h"

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
