#include "cli/cli.h"
#include "base/error.h"
#include "run/memo.h"
#include "run/multirun.h"
#include "stages/branch.h"
#include "cli/options.h"
#include "report/report.h"
#include "report/report-diff.h"
#include "base/strbuf.h"
#include "base/util.h"
#include "run/vendordiff.h"

#include <stdio.h>

/* stablepick diff: see vendordiff.h. */

enum format { FORMAT_TEXT, FORMAT_JSON, FORMAT_HTML };
static const char *const format_names[] = { "text", "json", "html", NULL };

/* One vendor branch against the stable one, into out. */
static int diff_one(struct run_context *ctx, const struct cli_args *a,
		    const char *vendor, const char *against,
		    const struct cve_set *cves, struct strbuf *out)
{
	struct vendordiff d;
	int ret;

	vendordiff_init(&d);
	ret = vendordiff_run(ctx, &d, vendor, against, a->subsystems,
			     a->upstream, a->format != FORMAT_JSON);
	if (!ret && cves)
		vendordiff_mark_cves(&d, cves);
	if (!ret) {
		if (a->format == FORMAT_JSON)
			report_diff_json(out, &d.rows, vendor);
		else if (a->format == FORMAT_HTML)
			report_diff_html(out, ctx->repo, &d.rows, &d.rel, vendor,
					 against, d.range, &d.stable,
					 ctx->config.commit_url);
		else
			report_diff_text(out, &d.rows, &d.rel);
	}
	if (!ret)
		vendordiff_save(ctx, &d);
	vendordiff_release(&d);
	return ret;
}

static int diff(struct run_context *ctx, int argc, char **argv)
{
	struct cli_args a = { 0 };
	struct cli_list branches = { 0 };
	const char *against = NULL, *cve_dir = NULL;
	const struct cli_option opts[] = {
		OPT_LIST("branch", &branches, "VENDOR",
			 "the vendor branch (required); may be repeated, or "
			 "a glob"),
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
	struct cli_end end = { 0 };
	struct memo memo;
	struct cve_set cves;
	char **names = NULL, *stable = NULL;
	size_t nr_names = 0, i;
	int n, ret;

	if ((n = cli_parse(&cmd_diff, opts, argc, argv, CLI_NO_ARGS)) < 0)
		return cli_parse_status(n);
	if (!branches.nr || !against) {
		error("diff needs --branch and --against");
		cli_list_release(&branches);
		return cli_usage(&cmd_diff);
	}
	if (multirun_expand(ctx, branches.v, branches.nr, &names,
			    &nr_names) < 0 ||
	    branch_resolve_name(&stable, ctx->repo, against, "--against") < 0) {
		free_string_array(names, nr_names);
		cli_list_release(&branches);
		return cli_end(ctx, NULL, -1);
	}
	cli_list_release(&branches);
	against = stable;
	if (nr_names > 1 && a.format == FORMAT_HTML) {
		free_string_array(names, nr_names);
		free(stable);
		error("several vendor branches take --format text or json");
		return cli_usage(&cmd_diff);
	}
	cve_set_init(&cves);
	if (cve_dir && cve_set_load(&cves, cve_dir) < 0) {
		cve_set_release(&cves);
		free_string_array(names, nr_names);
		free(stable);
		return cli_end(ctx, NULL, -1);
	}
	/*
	 * The answer of an earlier run with the same inputs (memo.h); the
	 * CVE records are not among the inputs the key holds.
	 */
	memo_init(&memo);
	memo_revision(&memo, a.upstream);
	memo_revision(&memo, against);
	for (i = 0; i < nr_names; i++)
		memo_revision(&memo, names[i]);
	ret = cve_dir ? 0 : memo_lookup(&memo, ctx, argc, argv, 0, &out);
	if (ret) {
		memo_release(&memo);
		cve_set_release(&cves);
		free_string_array(names, nr_names);
		free(stable);
		end.out = &out;
		return cli_end(ctx, &end, ret < 0 ? -1 : 0);
	}
	for (i = 0; !ret && i < nr_names; i++) {
		if (nr_names > 1 && a.format == FORMAT_TEXT)
			strbuf_addf(&out, "%s== %s ==\n", i ? "\n" : "",
				    names[i]);
		ret = diff_one(ctx, &a, names[i], against,
			       cve_dir ? &cves : NULL, &out);
	}
	if (!ret && a.format == FORMAT_TEXT)
		report_visible(&out);
	/* Kept before it is written (propose keeps its answer after). */
	if (!ret)
		memo_store(&memo, &out);
	memo_release(&memo);
	cve_set_release(&cves);
	free_string_array(names, nr_names);
	free(stable);
	end.out = &out;
	return cli_end(ctx, &end, ret);
}

const struct cli_command cmd_diff = {
	"diff",
	"--branch VENDOR... --against STABLE [--cve DIR] [--subsystem LIST]\n"
	"                       [--upstream REF] [--format text|json|html]",
	"the fixes of a stable branch a vendor branch lacks, and its own",
	diff,
};
