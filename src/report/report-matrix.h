#ifndef REPORT_MATRIX_H
#define REPORT_MATRIX_H

#include "report/report.h"
#include "base/strbuf.h"

/*
 * The text of a run of several branches (multirun.h): each branch's
 * header lines, then one row per commit that some branch lists (as its
 * own table would, report_shows(); every commit with r->all), in
 * mainline order, and a column per branch, newest first, holding the
 * commit's verdict there: "present" also where the commit lies below
 * the branch's base, "-" where it is not a commit of the branch's
 * range.  A verdict marked "!" is one of a commit an older branch is
 * to take while a newer branch of the run lacks it and is not to take
 * it either (candidate.h, newer_lacking).  The counts of
 * each branch last.  reports[i] describes branch i, lists[i] its
 * candidates.
 */
void report_matrix(struct strbuf *out, const struct report *reports,
		   const struct candidate_list *const *lists, size_t nr);

/*
 * The rows of the matrix: the commits some branch lists, in mainline
 * order (*rows the caller's to free, the candidates borrowed).
 */
size_t report_matrix_rows(const struct report *reports,
			  const struct candidate_list *const *lists, size_t nr,
			  const struct candidate ***rows);
/*
 * The cell of commit id in the branch of r and l: the verdict there,
 * "present" below its base, "-" when not of its range; *flagged when
 * the commit has newer_lacking there.
 */
const char *report_matrix_cell(const struct report *r,
			       const struct candidate_list *l,
			       const git_oid *id, int *flagged);

#endif
