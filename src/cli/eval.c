#include "cli.h"
#include "error.h"
#include "eval.h"
#include "options.h"
#include "report.h"
#include "report-eval.h"
#include "strbuf.h"
#include "util.h"

#include <stdio.h>
#include <string.h>

/*
 * stablepick eval: the rules measured against what a stable branch
 * took (src/eval.h), with the tags-only baselines beside them, the
 * commits behind the numbers, a threshold sweep and the effect of each
 * rule.
 */

enum format { FORMAT_TEXT, FORMAT_JSON };
static const char *const format_names[] = { "text", "json", NULL };

struct opts {
	int misses, false_picks, sweep, ablation;
};

static int eval(struct run_context *ctx, int argc, char **argv)
{
	struct cli_args a = { 0 };
	struct opts o = { 0, 0, 0, 0 };
	const struct cli_option opts[] = {
		OPT_BRANCH(&a, "the stable branch whose backports are the "
			   "labels (required)"),
		OPT_FORMAT(&a, format_names),
		OPT_BOOL("misses", &o.misses,
			 "the positives the rules do not pick"),
		OPT_BOOL("false-picks", &o.false_picks,
			 "the negatives the rules pick"),
		OPT_BOOL("threshold-sweep", &o.sweep,
			 "precision and recall at each score"),
		OPT_BOOL("ablation", &o.ablation,
			 "the counts without each rule in turn"),
		OPT_RANGE(&a, "the mainline range whose commits are labelled"),
		OPT_SUBSYSTEM(&a),
		OPT_UPSTREAM(&a),
		OPT_END()
	};
	struct strbuf out = STRBUF_INIT;
	struct run run;
	struct eval ev;
	int n, ret;

	if ((n = cli_parse(&cmd_eval, opts, argc, argv, CLI_NO_ARGS)) < 0)
		return cli_parse_status(n);
	if (!a.branch) {
		error("eval needs --branch");
		return cli_usage(&cmd_eval);
	}

	eval_init(&ev);
	ret = cli_run_scan(ctx, &run, &a);
	if (!ret)
		ret = run_judge_scores(&run, ctx->repo, &run.scan.candidates,
				       &run.scan.from);
	if (!ret) {
		int json = a.format == FORMAT_JSON;

		eval_run(&ev, &run.scan.candidates);
		report_eval_table(&out, &run, &ev, json);
		if (o.misses)
			report_eval_items(&out, &ev, EVAL_POSITIVE, json);
		if (o.false_picks)
			report_eval_items(&out, &ev, EVAL_NEGATIVE, json);
		if (o.sweep)
			report_eval_sweep(&out, &ev, json);
		if (o.ablation)
			report_eval_ablation(&out, &ev, &run.rules, json);
	}
	ret = cli_finish(ctx, &run, &out, ret);
	eval_release(&ev);
	return ret < 0 ? 1 : 0;
}

const struct cli_command cmd_eval = {
	"eval",
	"--branch BRANCH [--format text|json] [--misses] [--false-picks]\n"
	"                       [--threshold-sweep] [--ablation] [--range A..B]\n"
	"                       [--subsystem LIST] [--upstream REF]",
	"measure the rules against what a stable branch took",
	eval,
};
