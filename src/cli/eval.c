#include "cli.h"
#include "error.h"
#include "eval.h"
#include "report.h"
#include "report-eval.h"
#include "strbuf.h"
#include "trace.h"
#include "util.h"

#include <getopt.h>
#include <stdio.h>
#include <string.h>

/*
 * stablepick eval: the rules measured against what a stable branch
 * took (src/eval.h), with the tags-only baselines beside them, the
 * commits behind the numbers, a threshold sweep and the effect of each
 * rule.
 */

enum format { FORMAT_TEXT, FORMAT_JSON };
static const char *const format_names[] = { "text", "json" };

struct opts {
	int misses, false_picks, sweep, ablation;
	enum format format;
};

static int eval(struct run_context *ctx, int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "ablation", no_argument, NULL, 'A' },
		{ "branch", required_argument, NULL, 'b' },
		{ "false-picks", no_argument, NULL, 'P' },
		{ "format", required_argument, NULL, 'f' },
		{ "help", no_argument, NULL, 'h' },
		{ "misses", no_argument, NULL, 'M' },
		{ "range", required_argument, NULL, 'r' },
		{ "subsystem", required_argument, NULL, 's' },
		{ "threshold-sweep", no_argument, NULL, 'S' },
		{ "upstream", required_argument, NULL, 'u' },
		{ NULL, 0, NULL, 0 }
	};
	const char *branch = NULL, *upstream = NULL, *range = NULL;
	const char *subsystems = NULL;
	struct opts o = { 0, 0, 0, 0, FORMAT_TEXT };
	struct strbuf out = STRBUF_INIT;
	struct run run;
	struct eval ev;
	int opt, f, ret;

	optind = 0;
	while ((opt = cli_getopt(argc, argv, "+h", longopts)) != -1) {
		switch (opt) {
		case 'A': o.ablation = 1; break;
		case 'b': branch = optarg; break;
		case 'f':
			if ((f = cli_format(optarg, format_names,
					      ARRAY_SIZE(format_names))) < 0)
				return cli_usage(&cmd_eval);
			o.format = (enum format)f;
			break;
		case 'h':
			printf("usage: stablepick eval %s\n", cmd_eval.usage);
			return 0;
		case 'M': o.misses = 1; break;
		case 'P': o.false_picks = 1; break;
		case 'r': range = optarg; break;
		case 's': subsystems = optarg; break;
		case 'S': o.sweep = 1; break;
		case 'u': upstream = optarg; break;
		default:
			return cli_usage(&cmd_eval);
		}
	}
	if (optind != argc) {
		error("unexpected argument '%s'", argv[optind]);
		return cli_usage(&cmd_eval);
	}
	if (!branch) {
		error("eval needs --branch");
		return cli_usage(&cmd_eval);
	}

	eval_init(&ev);
	ret = run_setup(ctx, &run, branch, upstream);
	if (!ret && range)
		ret = scan_set_range(&run.scan, range);
	if (!ret && subsystems)
		scan_set_only(&run.scan, subsystems);
	if (!ret)
		ret = run_scan(ctx, &run);
	trace_stage("scan");
	if (!ret)
		ret = run_judge_scores(&run, ctx->repo, &run.scan.candidates,
				       &run.scan.from);
	if (!ret) {
		int json = o.format == FORMAT_JSON;

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
		ret = report_write(stdout, &out);
	}
	if (!ret)
		ret = run_save(ctx, &run);
	strbuf_release(&out);
	eval_release(&ev);
	run_release(&run);
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
