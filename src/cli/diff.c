#include "cli.h"
#include "error.h"
#include "memo.h"
#include "options.h"
#include "report.h"
#include "report-diff.h"
#include "strbuf.h"
#include "util.h"
#include "vendordiff.h"

#include <stdio.h>

/* stablepick diff: see vendordiff.h. */

enum format { FORMAT_TEXT, FORMAT_JSON, FORMAT_HTML };
static const char *const format_names[] = { "text", "json", "html", NULL };

static int diff(struct run_context *ctx, int argc, char **argv)
{
	struct cli_args a = { 0 };
	const char *against = NULL, *cve_dir = NULL;
	const struct cli_option opts[] = {
		OPT_STRING(0, "branch", &a.branch, "VENDOR",
			   "the vendor branch (required)"),
		OPT_STRING(0, "against", &against, "STABLE",
			   "the stable branch it follows (required)"),
		OPT_STRING(0, "cve", &cve_dir, "DIR",
			   "the rows whose fix the kernel's CVE records in DIR "
			   "(a vulns checkout) name carry the CVE ids"),
		OPT_FORMAT(&a, format_names),
		OPT_SUBSYSTEM(&a),
		OPT_STRING(0, "upstream", &a.upstream, "REF",
			   "mainline, where missing follow-up fixes are looked "
			   "for"),
		OPT_END()
	};
	struct strbuf out = STRBUF_INIT;
	struct vendordiff d;
	struct memo memo;
	struct cve_set cves;
	int n, ret;

	if ((n = cli_parse(&cmd_diff, opts, argc, argv, CLI_NO_ARGS)) < 0)
		return cli_parse_status(n);
	if (!a.branch || !against) {
		error("diff needs --branch and --against");
		return cli_usage(&cmd_diff);
	}

	cve_set_init(&cves);
	if (cve_dir && cve_set_load(&cves, cve_dir) < 0) {
		cve_set_release(&cves);
		return 1;
	}
	/*
	 * The answer of an earlier run with the same inputs (memo.h); the
	 * CVE records are not among the inputs the key holds.
	 */
	memo_init(&memo);
	ret = cve_dir ? 0 : memo_lookup(&memo, ctx, argc, argv, 0, &out);
	if (ret) {
		memo_release(&memo);
		return cli_output(&out, ret < 0 ? -1 : 0) < 0 || ret < 0;
	}

	vendordiff_init(&d);
	ret = vendordiff_run(ctx, &d, a.branch, against, a.subsystems,
			     a.upstream, a.format != FORMAT_JSON);
	if (!ret && cve_dir)
		vendordiff_mark_cves(&d, &cves);
	if (!ret) {
		if (a.format == FORMAT_JSON)
			report_diff_json(&out, &d.rows);
		else if (a.format == FORMAT_HTML)
			report_diff_html(&out, ctx->repo, &d.rows, &d.rel, a.branch,
					 against, d.range, &d.stable);
		else
			report_diff_text(&out, &d.rows, &d.rel);
	}
	if (!ret)
		memo_store(&memo, &out);
	memo_release(&memo);
	ret = cli_output(&out, ret);
	if (!ret)
		vendordiff_save(ctx, &d);
	vendordiff_release(&d);
	cve_set_release(&cves);
	return ret < 0 ? 1 : 0;
}

const struct cli_command cmd_diff = {
	"diff",
	"--branch VENDOR --against STABLE [--cve DIR] [--subsystem LIST]\n"
	"                       [--upstream REF] [--format text|json|html]",
	"the fixes of a stable branch a vendor branch lacks, and its own",
	diff,
};
