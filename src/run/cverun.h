#ifndef CVERUN_H
#define CVERUN_H

#include "formats/cve.h"
#include "run/run.h"

/*
 * The CVE question, "which CVE fixes does the branch lack?", answered
 * from the kernel CVE team's records (cve.h) by the presence machinery
 * of propose.  For each record:
 *
 *   fixed         the branch has one of its mainline fixes (ancestry,
 *                 upstream line, patch-id), or the fix a .dyad line
 *                 names for a line of releases is in the branch;
 *   not-affected  else, none of the commits that brought the bug in
 *                 (the .dyad's vulnerable ids) is in the branch;
 *   unfixed       else; with the verdict propose gives its fix.
 *
 * A record that names no vulnerable commit (no .dyad, or 0:0 only) is
 * taken to affect every branch.
 *
 *     struct cve_run cr;
 *     cve_run_init(&cr);
 *     cve_set_load(&cr.set, dir);
 *     cli_run_scan(ctx, &run, &a);
 *     cve_run_add(ctx, &run, &cr);       the fixes become candidates
 *     run_judge_range(ctx, &run, NULL, 0);  as propose judges them
 *     cve_run_settle(ctx, &run, &cr);    each record's status
 *     ... report-cves.h writes cr.rows ...
 *     cve_run_release(&cr);
 */
enum cve_status { CVE_UNFIXED, CVE_FIXED, CVE_NOT_AFFECTED, CVE__NR };

/* "unfixed", "fixed", "not-affected": stable names, used in output. */
const char *cve_status_name(enum cve_status s);

struct cve_row {
	const struct cve *cve;
	enum cve_status status;
	/* Its first fix the repository has, judged; NULL if none. */
	const struct candidate *fix;
	char *detail;			/* the evidence for the status */
};

struct cve_run {
	struct cve_set set;
	struct cve_row *rows;		/* parallel to set.items */
	/* The fixes outside the range, and the vulnerable commits of it. */
	struct candidate_list cands, vulnerable;
};

void cve_run_init(struct cve_run *cr);
void cve_run_release(struct cve_run *cr);

/*
 * propose --cve: each candidate of the scan that a record names as its
 * fix carries the record's id and the fact "cve".  After run_scan(),
 * before judging.
 */
void cve_run_annotate(struct run *run, const struct cve_set *set);

/*
 * The fixes the repository has become candidates: those of the range
 * join the scan's (in the place the walk would have met them), whatever
 * paths they change, with the fact "cve"; the others are judged on
 * their own (below the base, the branch has them).  After run_scan(),
 * before run_judge_range().  Returns 0 or -1.
 */
int cve_run_add(struct run_context *ctx, struct run *run, struct cve_run *cr);

/* Each record's status; after the judging.  Returns 0 or -1. */
int cve_run_settle(struct run_context *ctx, struct run *run,
		   struct cve_run *cr);

#endif
