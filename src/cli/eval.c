#include "cli/cli.h"
#include "base/error.h"
#include "stages/eval.h"
#include "run/multirun.h"
#include "cli/options.h"
#include "report/report.h"
#include "report/report-eval.h"
#include "base/strbuf.h"
#include "base/util.h"

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

/* One branch's figures, after its run is judged. */
static int report(struct strbuf *out, git_repository *repo, struct run *run,
		  const struct opts *o, int json)
{
	struct eval ev;

	eval_init(&ev);
	ev.branch = run->branch.name;
	if (eval_run(&ev, &run->scan.candidates, run_match(run, repo)) < 0) {
		eval_release(&ev);
		return -1;
	}
	report_eval_table(out, run, &ev, json);
	if (o->misses)
		report_eval_items(out, &ev, EVAL_POSITIVE, json);
	if (o->false_picks) {
		report_eval_items(out, &ev, EVAL_NEGATIVE, json);
		report_eval_twins(out, &ev, json);
	}
	if (o->sweep)
		report_eval_sweep(out, &ev, json);
	if (o->ablation)
		report_eval_ablation(out, &ev, &run->rules, json);
	eval_release(&ev);
	return 0;
}

static int eval(struct run_context *ctx, int argc, char **argv)
{
	struct cli_args a = { 0 };
	struct cli_list branches = { 0 };
	struct opts o = { 0, 0, 0, 0 };
	const struct cli_option opts[] = {
		OPT_LIST("branch", &branches, "BRANCH",
			 "the stable branch whose backports are the labels "
			 "(required); may be repeated, or a glob"),
		OPT_FORMAT(&a, format_names),
		OPT_BOOL("misses", &o.misses,
			 "the positives the rules do not pick"),
		OPT_BOOL("false-picks", &o.false_picks,
			 "the negatives the rules pick, and apart the "
			 "commits the branch has through a twin"),
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
	struct cli_end end = { 0 };
	struct run *runs;
	char **names = NULL;
	size_t nr_names = 0, done = 0, i;
	int n, ret = 0, json = 0;

	if ((n = cli_parse(&cmd_eval, opts, argc, argv, CLI_NO_ARGS)) < 0)
		return cli_parse_status(n);
	if (!branches.nr) {
		error("eval needs --branch");
		return cli_usage(&cmd_eval);
	}
	if (multirun_expand(ctx, branches.v, branches.nr, &names,
			    &nr_names) < 0) {
		cli_list_release(&branches);
		return cli_end(ctx, NULL, -1);
	}
	multirun_order(ctx, names, nr_names);
	json = a.format == FORMAT_JSON;
	runs = xcalloc(nr_names, sizeof(*runs));
	for (i = 0; !ret && i < nr_names; i++) {
		a.branch = names[i];
		ret = cli_run_scan(ctx, &runs[i], &a);
		done = i + 1;
		if (!ret)
			multirun_mark_newer(&runs[i], runs, i);
		if (!ret)
			ret = run_judge_scores(&runs[i], ctx->repo,
					       &runs[i].scan.candidates,
					       &runs[i].scan.from);
		if (!ret && nr_names > 1 && !json)
			strbuf_addf(&out, "%s== %s ==\n", i ? "\n" : "",
				    names[i]);
		if (!ret)
			ret = report(&out, ctx->repo, &runs[i], &o, json);
		if (!ret)
			ret = run_save(ctx, &runs[i]);
		else if (interrupted())
			run_save(ctx, &runs[i]);	/* see cli_end() */
	}
	if (!json)
		report_visible(&out);
	for (i = 0; i < done; i++)
		run_release(&runs[i]);
	free(runs);
	free_string_array(names, nr_names);
	cli_list_release(&branches);
	end.out = &out;
	return cli_end(ctx, &end, ret);
}

const struct cli_command cmd_eval = {
	"eval",
	"--branch BRANCH... [--format text|json] [--misses] [--false-picks]\n"
	"                       [--threshold-sweep] [--ablation] [--range A..B]\n"
	"                       [--subsystem LIST] [--upstream REF]",
	"measure the rules against what a stable branch took",
	eval,
};
