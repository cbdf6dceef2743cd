#ifndef CLI_PROPOSE_H
#define CLI_PROPOSE_H

#include "cli/cli.h"
#include "run/cverun.h"
#include "cli/options.h"
#include "run/run.h"
#include "base/strbuf.h"

/* stablepick propose: the command (propose.c) and its two halves. */

enum propose_format { FORMAT_TEXT, FORMAT_JSON, FORMAT_EMAIL, FORMAT_MBOX,
		      FORMAT_REVIEW, FORMAT_CHECKLIST, FORMAT_FAILED,
		      FORMAT_HTML };

/* The upstream tip's committer date (for the ages of the HTML page). */
git_time_t propose_tip_time(struct run_context *ctx, const struct run *run);

/*
 * The output of a judged run of one branch (propose-render.c); the
 * email and the mbox list no more than limit candidates (0: all) and
 * what stablepick.mailSizeCap lets them hold, the rest paged.
 */
int propose_render(struct run_context *ctx, struct run *run,
		   enum propose_format format, int all, int limit,
		   const struct cli_args *a, struct strbuf *out);

/*
 * A run of several branches, newest first (multirun.h), written to
 * out as text (a matrix), JSON Lines or HTML (propose-many.c).  tests_from
 * and cves (or NULL) as for one branch.  Returns 0 or -1.
 */
int propose_many(struct run_context *ctx, struct cli_args *a, char **names,
		 size_t nr, int all, const struct cli_list *tests_from,
		 const struct cve_set *cves, struct strbuf *out);

#endif
