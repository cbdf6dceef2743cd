#include "cli/cli.h"
#include "run/cverun.h"
#include "base/error.h"
#include "cli/options.h"
#include "report/report.h"
#include "report/report-cves.h"
#include "base/strbuf.h"
#include "base/trace.h"

#include <stdio.h>

/* stablepick cves: see cverun.h. */

enum format { FORMAT_TEXT, FORMAT_JSON, FORMAT_HTML };
static const char *const format_names[] = { "text", "json", "html", NULL };

static int cves(struct run_context *ctx, int argc, char **argv)
{
	struct cli_args a = { 0 };
	const char *dir = NULL;
	int all = 0;
	const struct cli_option opts[] = {
		OPT_BRANCH(&a, "the branch asked about (required)"),
		OPT_BOOL("all", &all, "also list the CVEs that do not affect "
			 "the branch"),
		OPT_STRING(0, "cve", &dir, "DIR",
			   "a checkout of the kernel's vulns repository "
			   "(required)"),
		OPT_FORMAT(&a, format_names),
		OPT_UPSTREAM(&a),
		OPT_END()
	};
	struct strbuf out = STRBUF_INIT;
	struct cli_end end = { 0 };
	struct cve_run cr;
	struct run run;
	int n, ret;

	if ((n = cli_parse(&cmd_cves, opts, argc, argv, CLI_NO_ARGS)) < 0)
		return cli_parse_status(n);
	if (!a.branch || !dir) {
		error("cves needs --branch and --cve");
		return cli_usage(&cmd_cves);
	}
	/* The records first: a bad checkout needs no repository. */
	cve_run_init(&cr);
	if (cve_set_load(&cr.set, dir) < 0) {
		cve_run_release(&cr);
		return cli_end(ctx, NULL, -1);
	}
	trace_printf("cves: %zu records read", cr.set.nr);
	trace_stage("CVE records read");
	ret = cli_run_scan(ctx, &run, &a);
	if (!ret)
		ret = cve_run_add(ctx, &run, &cr);
	if (!ret)
		ret = run_judge_range(ctx, &run, NULL, 0);
	if (!ret)
		ret = cve_run_settle(ctx, &run, &cr);
	if (!ret && a.format == FORMAT_JSON)
		report_cves_json(&out, &run, &cr);
	else if (!ret && a.format == FORMAT_HTML)
		report_cves_html(&out, &run, &cr, all, ctx->config.commit_url);
	else if (!ret)
		report_cves_text(&out, &run, &cr, all);
	if (!ret && a.format == FORMAT_TEXT)
		report_visible(&out);
	end.out = &out;
	end.run = &run;
	ret = cli_end(ctx, &end, ret);
	trace_stage("report");
	cve_run_release(&cr);
	return ret;
}

const struct cli_command cmd_cves = {
	"cves",
	"--branch BRANCH --cve DIR [--all] [--format text|json|html]\n"
	"                       [--upstream REF]",
	"which CVEs affect the branch, and the verdicts of their fixes",
	cves,
};
