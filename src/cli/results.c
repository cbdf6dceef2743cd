#include "cli/cli.h"
#include "base/error.h"
#include "cli/options.h"
#include "report/report.h"
#include "report/report-results.h"
#include "run/resultrun.h"
#include "base/strbuf.h"
#include "base/trace.h"
#include "base/util.h"

#include <stdio.h>
#include <string.h>

/* stablepick results: see resultrun.h. */

enum format { FORMAT_TEXT, FORMAT_JSON, FORMAT_EXCLUDE };
static const char *const format_names[] = { "text", "json", "exclude", NULL };

/* For --class: the names of the classes, by number. */
static const char *class_word(int i)
{
	return result_class_name((enum result_class)i);
}

/* The results, the baselines and the test sources: no repository yet. */
static int read_inputs(struct results_run *r, char **files, int nr_files,
		       const struct cli_list *baseline,
		       const struct cli_list *fstests, const struct cli_list *ltp)
{
	size_t i;
	int k;

	for (k = 0; k < nr_files; k++)
		if (result_read(&r->now, files[k], 0) < 0)
			return -1;
	for (i = 0; i < baseline->nr; i++)
		if (result_read(&r->base, baseline->v[i], RESULT_BASELINE) < 0)
			return -1;
	result_set_sort(&r->now);
	result_set_sort(&r->base);
	trace_printf("results: %zu results in %zu configs, baseline %zu and "
		     "%zu expunged", r->now.nr, r->now.nr_configs, r->base.nr,
		     r->base.nr_expunged);
	for (i = 0; i < fstests->nr; i++)
		if (tests_read_suite(&r->t.set, fstests->v[i], "fstests") < 0)
			return -1;
	for (i = 0; i < ltp->nr; i++)
		if (tests_read_suite(&r->t.set, ltp->v[i], "ltp") < 0 ||
		    results_read_runtest(r, ltp->v[i]) < 0)
			return -1;
	trace_stage("results and test annotations read");
	return 0;
}

static int results(struct run_context *ctx, int argc, char **argv)
{
	struct cli_args a = { 0 };
	struct cli_list fstests = { 0 }, ltp = { 0 }, baseline = { 0 };
	const char *output = NULL, *classes = NULL, *config = NULL;
	struct results_run r;
	const struct cli_option opts[] = {
		OPT_BRANCH(&a, "the branch the tested kernel was built from "
			   "(required)"),
		OPT_LIST("fstests", &fstests, "DIR",
			 "an fstests checkout; may be repeated"),
		OPT_LIST("ltp", &ltp, "DIR", "an LTP checkout; may be repeated"),
		OPT_LIST("baseline", &baseline, "RESULTS",
			 "results or an expunge list of the baseline; may be "
			 "repeated"),
		OPT_STRING(0, "baseline-kernel", &r.baseline_kernel, "REV",
			   "the commit the baseline's kernel was built from"),
		OPT_STRING(0, "class", &classes, "LIST",
			   "only tests of these classes (comma-separated)"),
		OPT_STRING(0, "config", &config, "NAME",
			   "only the results of this config (section)"),
		OPT_FORMAT(&a, format_names),
		OPT_STRING(0, "fstyp", &r.fstyp, "TYPE",
			   "the filesystem under test, when the results do "
			   "not say"),
		OPT_STRING(0, "kernel", &r.kernel, "REV",
			   "the commit the tested kernel was built from"),
		OPT_STRING(0, "output", &output, "FILE",
			   "write the report to FILE, whole or not at all"),
		OPT_UPSTREAM(&a),
		OPT_END()
	};
	struct strbuf out = STRBUF_INIT;
	struct cli_end end = { 0 };
	unsigned mask = (1u << CLASS__NR) - 1;
	struct run run;
	int n, ret;

	results_run_init(&r);
	if ((n = cli_parse(&cmd_results, opts, argc, argv, CLI_PERMUTE)) < 0) {
		results_run_release(&r);
		return cli_parse_status(n);
	}
	if (!a.branch || (!fstests.nr && !ltp.nr) || n >= argc) {
		error("results needs --branch, --fstests or --ltp, and the "
		      "results of a run");
		goto usage;
	}
	if (classes && cli_parse_word_list(classes, class_word, CLASS__NR,
					   "class", "baseline, missing-fix, "
					   "fix-present, new, unexplained or "
					   "unexpected-pass", &mask) < 0)
		goto usage;
	ret = read_inputs(&r, argv + n, argc - n, &baseline, &fstests, &ltp);
	cli_list_release(&fstests);
	cli_list_release(&ltp);
	cli_list_release(&baseline);
	if (!ret && config && !result_config_find(&r.now, config))
		ret = error("no config '%.80s' in the results", config);
	if (!ret && a.format == FORMAT_EXCLUDE && !config &&
	    r.now.nr_configs > 1)
		ret = error("an expunge list is of one config, and the results "
			    "have %zu: name one with --config", r.now.nr_configs);
	if (ret) {
		results_run_release(&r);
		return cli_end(ctx, NULL, -1);
	}
	ret = cli_run_scan(ctx, &run, &a);
	if (!ret)
		ret = tests_resolve(ctx, &run, &r.t);
	if (!ret)
		ret = tests_judge(ctx, &run, &r.t);
	if (!ret) {
		tests_settle(&r.t);
		ret = results_classify(ctx, &run, &r);
	}
	if (!ret && a.format == FORMAT_JSON)
		report_results_json(&out, &run, &r, mask, config);
	else if (!ret && a.format == FORMAT_EXCLUDE)
		report_results_exclude(&out, &run, &r, mask, config);
	else if (!ret)
		report_results_text(&out, &run, &r, mask, config);
	if (!ret && a.format != FORMAT_JSON)
		report_visible(&out);
	end.out = &out;
	end.file = output;
	end.file_what = "results report";
	end.run = &run;
	ret = cli_end(ctx, &end, ret);
	trace_stage("report");
	results_run_release(&r);
	return ret;
usage:
	cli_list_release(&fstests);
	cli_list_release(&ltp);
	cli_list_release(&baseline);
	results_run_release(&r);
	return cli_usage(&cmd_results);
}

const struct cli_command cmd_results = {
	"results",
	"--branch BRANCH (--fstests DIR | --ltp DIR)...\n"
	"                          [--baseline RESULTS]... [--baseline-kernel REV]\n"
	"                          [--class LIST] [--config NAME]\n"
	"                          [--format text|json|exclude] [--fstyp TYPE]\n"
	"                          [--kernel REV] [--output FILE] [--upstream REF]\n"
	"                          RESULTS...",
	"what each failure of an fstests or LTP run means for the branch",
	results,
};
