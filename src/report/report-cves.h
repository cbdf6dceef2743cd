#ifndef REPORT_CVES_H
#define REPORT_CVES_H

#include "run/cverun.h"
#include "base/strbuf.h"

/*
 * The output of stablepick cves (cverun.h).  Text: a header, the
 * unfixed records (the fix, its verdict and subject, why the branch is
 * affected), then the fixed ones, then, with all, those that do not
 * affect the branch; the counts last.  JSON: one object per record, a
 * line each: cve, branch, status, fixes (the mainline ids), verdict
 * (of the fix, where unfixed and the repository has it; else null),
 * subject, detail.
 */
void report_cves_text(struct strbuf *out, const struct run *run,
		      const struct cve_run *cr, int all);
void report_cves_json(struct strbuf *out, const struct run *run,
		      const struct cve_run *cr);
/*
 * The page: the counts, a chart of the records by status, and every
 * record (with --all, or but the not-affected ones): a CVE badge
 * linking to its record at cve.org, the status, the fix (a link with
 * stablepick.commitUrl), its verdict, subject and the evidence.
 */
void report_cves_html(struct strbuf *out, const struct run *run,
		      const struct cve_run *cr, int all, const char *commit_url);

#endif
