/* propose with several branches: see multirun.h. */
#include "cli/cli.h"
#include "run/multirun.h"
#include "cli/propose.h"
#include "report/report.h"
#include "report/report-html.h"
#include "report/report-matrix.h"
#include "run/testrun.h"
#include "base/trace.h"
#include "base/util.h"

#include <stdlib.h>

int propose_many(struct run_context *ctx, struct cli_args *a, char **names,
		 size_t nr, int all, const struct cli_list *tests_from,
		 const struct cve_set *cves, struct strbuf *out)
{
	struct run *runs = xcalloc(nr, sizeof(*runs));
	const struct candidate_list **lists = xcalloc(nr, sizeof(*lists));
	struct report *reports = xcalloc(nr, sizeof(*reports));
	const char *given = a->branch;
	size_t i, j, done = 0;
	int ret = 0;

	for (i = 0; !ret && i < nr; i++) {
		struct run *run = &runs[i];

		a->branch = names[i];
		trace_printf("branches: %s (%zu of %zu)", names[i], i + 1, nr);
		ret = cli_run_scan(ctx, run, a);
		done = i + 1;
		for (j = 0; !ret && j < tests_from->nr; j++)
			ret = tests_named_by(ctx, run, tests_from->v[j]);
		if (!ret && cves)
			cve_run_annotate(run, cves);
		if (!ret)
			multirun_mark_newer(run, runs, i);
		if (!ret)
			ret = run_judge_range(ctx, run, a->archives.v,
					      a->archives.nr);
		if (!ret)
			multirun_flag_newer_lacking(run, runs, i);
		/*
		 * The next branch loads what this one found; interrupted,
		 * what it had found is kept (see cli_end()).
		 */
		if (!ret)
			ret = run_save(ctx, run);
		else if (interrupted())
			run_save(ctx, run);
		if (!ret)
			candidate_list_sort(&run->scan.candidates);
	}
	a->branch = given;
	for (i = 0; !ret && i < nr; i++) {
		cli_report(&reports[i], &runs[i]);
		reports[i].all = all;
		lists[i] = &runs[i].scan.candidates;
		if (a->format == FORMAT_JSON)
			report_json(out, &reports[i], lists[i]);
	}
	if (!ret && a->format == FORMAT_TEXT)
		report_matrix(out, reports, lists, nr);
	if (!ret && a->format == FORMAT_HTML)
		report_propose_html(out, reports, lists, nr,
				    ctx->config.commit_url,
				    propose_tip_time(ctx, &runs[0]));
	trace_stage("report");
	for (i = 0; i < done; i++)
		run_release(&runs[i]);
	free(reports);
	free(lists);
	free(runs);
	return ret;
}
