#include "cli/cli.h"
#include "base/error.h"
#include "git/malformed.h"
#include "run/multirun.h"
#include "cli/options.h"
#include "report/report.h"
#include "base/strbuf.h"
#include "base/util.h"

#include <stdio.h>
#include <string.h>

static void render(struct run *run, const struct candidate *c,
		   struct strbuf *out)
{
	struct report r;

	if (out->len)
		strbuf_addch(out, '\n');
	memset(&r, 0, sizeof(r));
	r.scan = &run->scan;
	r.branch = &run->branch;
	r.rules = &run->rules;
	r.upstream = run->upstream_name;
	report_explain(out, &r, c);
}

/*
 * Explains one commit: as propose judged it when it is in the range,
 * else judged alone (a commit outside the range, e.g. below the base).
 */
static int explain_one(struct run_context *ctx, struct run *run,
		       const char *rev, struct strbuf *out)
{
	struct candidate_list one;
	struct candidate *c;
	git_commit *commit = NULL;
	git_oid id;
	int ret;

	if (scan_resolve(ctx->repo, rev, "explain", &id) < 0)
		return -1;
	c = candidate_list_find(&run->scan.candidates, &id);
	if (c) {
		if (run_likely_prereqs(run, ctx->repo, &run->scan.candidates,
				       c) < 0 ||
		    run_applies_with(run, ctx->repo, &run->scan.candidates,
				     c) < 0)
			return -1;
		render(run, c, out);
		return 0;
	}
	if (git_commit_lookup(&commit, ctx->repo, &id) < 0)
		return error_git(malformed_suspect() ? "cannot parse commit '%s' "
				 "for explain" : "cannot read commit '%s'", rev);
	if (git_commit_parentcount(commit) > 1) {
		git_commit_free(commit);
		return error("'%s' is a merge; explain the commits it brings in",
			     rev);
	}
	candidate_list_init(&one);
	c = candidate_list_add(&one, &id);
	ret = scan_fill(&run->scan, c, commit);
	git_commit_free(commit);
	if (!ret && c->nr_touched)
		ret = run_judge(run, ctx->repo, &one, NULL);
	if (!ret && c->nr_touched)
		ret = run_likely_prereqs(run, ctx->repo, &one, c);
	if (!ret && c->nr_touched)
		ret = run_applies_with(run, ctx->repo, &one, c);
	if (!ret)
		render(run, c, out);
	candidate_list_release(&one);
	return ret;
}

static int explain(struct run_context *ctx, int argc, char **argv)
{
	struct cli_args a = { 0 };
	struct cli_list branches = { 0 };
	const struct cli_option opts[] = {
		OPT_LIST("branch", &branches, "BRANCH",
			 "the branch the commits are judged for (required); "
			 "may be repeated, or a glob: newest first"),
		OPT_ARCHIVE(&a),
		OPT_UPSTREAM(&a),
		OPT_END()
	};
	struct strbuf out = STRBUF_INIT;
	struct cli_end end = { 0 };
	struct run *runs = NULL;
	char **names = NULL;
	size_t nr_names = 0, done = 0, i;
	int n, ret = 0, failed = 0, first;

	if ((n = cli_parse(&cmd_explain, opts, argc, argv, 0)) < 0)
		return cli_parse_status(n);
	if (!branches.nr || n == argc) {
		if (!branches.nr)
			error("explain needs --branch");
		else
			error("explain needs at least one commit");
		cli_args_release(&a);
		cli_list_release(&branches);
		return cli_usage(&cmd_explain);
	}
	if (multirun_expand(ctx, branches.v, branches.nr, &names,
			    &nr_names) < 0) {
		cli_args_release(&a);
		cli_list_release(&branches);
		return cli_end(ctx, NULL, -1);
	}
	multirun_order(ctx, names, nr_names);
	runs = xcalloc(nr_names, sizeof(*runs));
	first = n;
	for (i = 0; !ret && i < nr_names; i++) {
		struct run *run = &runs[i];

		/* Judge the whole range, so that links between commits count. */
		ret = run_setup(ctx, run, names[i], a.upstream);
		done = i + 1;
		if (!ret)
			ret = run_scan(ctx, run);
		if (!ret)
			multirun_mark_newer(run, runs, i);
		if (!ret)
			ret = run_judge_range(ctx, run, a.archives.v,
					      a.archives.nr);
		if (!ret)
			multirun_flag_newer_lacking(run, runs, i);
		if (!ret && nr_names > 1)
			strbuf_addf(&out, "%s== %s ==\n", i ? "\n" : "",
				    names[i]);
		for (n = first; !ret && n < argc; n++) {
			/* A bad commit is reported; the others are still explained. */
			if (explain_one(ctx, run, argv[n], &out) < 0)
				failed = 1;
		}
		if (!ret)
			ret = run_save(ctx, run);
		else if (interrupted())
			run_save(ctx, run);	/* see cli_end() */
	}
	report_visible(&out);
	for (i = 0; i < done; i++)
		run_release(&runs[i]);
	free(runs);
	free_string_array(names, nr_names);
	cli_args_release(&a);
	cli_list_release(&branches);
	/* What was explained is written, and the status says what was not. */
	if (!ret && failed)
		ret = 1;
	end.out = &out;
	return cli_end(ctx, &end, ret);
}

const struct cli_command cmd_explain = {
	"explain",
	"--branch BRANCH... [--archive PATH]... [--upstream REF] COMMIT...",
	"show the score of commits rule by rule, and their presence",
	explain,
};
