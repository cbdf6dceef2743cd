#include "cli/cli.h"
#include "run/cverun.h"
#include "base/error.h"
#include "formats/mail.h"
#include "run/memo.h"
#include "run/multirun.h"
#include "cli/options.h"
#include "cli/propose.h"
#include "report/report.h"
#include "report/report-review.h"
#include "base/strbuf.h"
#include "run/testrun.h"
#include "base/trace.h"
#include "base/util.h"

#include <stdio.h>
#include <string.h>

static const char *const format_names[] = {
	"text", "json", "email", "mbox", "review", "checklist", "failed",
	"html", NULL
};

/* Whether the format prints the time of the run (a mail's Date:). */
static unsigned dated(int format)
{
	return format == FORMAT_EMAIL || format == FORMAT_REVIEW ||
	       format == FORMAT_FAILED || format == FORMAT_CHECKLIST ?
	       MEMO_DATED : 0;
}

static int propose(struct run_context *ctx, int argc, char **argv)
{
	struct cli_args a = { 0 };
	struct cli_list tests_from = { 0 }, branches = { 0 };
	char **names = NULL;
	size_t nr_names = 0;
	const char *since = NULL, *cve_dir = NULL;
	int all = 0, limit = 0;
	const struct cli_option opts[] = {
		OPT_LIST("branch", &branches, "BRANCH",
			 "the stable or vendor branch (required; a remote's "
			 "by its name alone, as git checkout finds it); may "
			 "be repeated, or a glob ('linux-*.y'): several at "
			 "once"),
		OPT_BOOL("all", &all, "also list present and below-threshold "
			 "commits"),
		OPT_ARCHIVE(&a),
		OPT_STRING(0, "cve", &cve_dir, "DIR",
			   "the fixes the kernel's CVE records in DIR (a vulns "
			   "checkout) name carry their CVE ids and the fact cve"),
		OPT_FORMAT(&a, format_names),
		OPT_IN_REPLY_TO(&a, "thread the mbox to this message instead "
				"of the proposal email"),
		OPT_INT("limit", &limit, "N", 1000000,
			"email and mbox: list no more than N candidates, the "
			"oldest first (the rest next time)"),
		OPT_RANGE(&a, "the mainline range to walk (default: from the "
			  "merge base)"),
		OPT_STRING(0, "since", &since, "last|REV",
			   "hide what the last run, or one up to REV, listed "
			   "(last: but what became eligible since)"),
		OPT_SUBSYSTEM(&a),
		OPT_LIST("tests-from", &tests_from, "DIR",
			 "the fixes an fstests or LTP checkout names are "
			 "candidates; may be repeated"),
		OPT_UPSTREAM(&a),
		OPT_END()
	};
	struct state since_state;
	struct strbuf out = STRBUF_INIT;
	struct cli_end end = { 0 };
	struct memo memo;
	struct cve_set cves;
	struct run run;
	size_t i;
	int n, ret;

	if ((n = cli_parse(&cmd_propose, opts, argc, argv, CLI_NO_ARGS)) < 0)
		return cli_parse_status(n);
	state_init(&since_state);
	memo_init(&memo);
	cve_set_init(&cves);
	if (!branches.nr) {
		error("propose needs --branch");
		ret = cli_usage(&cmd_propose);
		goto out;
	}
	if (multirun_expand(ctx, branches.v, branches.nr, &names,
			    &nr_names) < 0) {
		ret = -1;
		goto out;
	}
	if (limit && a.format != FORMAT_EMAIL && a.format != FORMAT_MBOX) {
		error("--limit takes --format email or mbox");
		ret = cli_usage(&cmd_propose);
		goto out;
	}
	if (nr_names > 1 && ((a.format != FORMAT_TEXT &&
			      a.format != FORMAT_JSON &&
			      a.format != FORMAT_HTML) || since ||
			     a.in_reply_to)) {
		error("several branches take --format text, json or html, and "
		      "neither --since nor --in-reply-to");
		ret = cli_usage(&cmd_propose);
		goto out;
	}
	multirun_order(ctx, names, nr_names);
	a.branch = names[0];

	/*
	 * The answer of an earlier run with the same inputs, unless the
	 * run reads what the memo's key does not hold (the list archives,
	 * fstests or LTP checkouts, the state of --since).
	 */
	if (cve_dir && cve_set_load(&cves, cve_dir) < 0) {
		ret = -1;
		goto out;
	}
	if (!since && !tests_from.nr && !a.archives.nr && !cve_dir) {
		ret = run_open_repo(ctx);
		memo_revision(&memo, a.upstream);
		memo_revision(&memo, a.range);
		for (i = 0; i < nr_names; i++)
			memo_revision(&memo, names[i]);
		if (!ret && !ctx->config.nr_archives)
			ret = memo_lookup(&memo, ctx, argc, argv,
					  dated(a.format), &out);
		if (ret) {
			end.out = &out;
			ret = ret < 0 ? -1 : 0;
			goto out;
		}
	}
	/* Computed: the answer is kept once it is written. */
	end.out = &out;
	end.memo = &memo;
	if (nr_names > 1) {
		ret = propose_many(ctx, &a, names, nr_names, all, &tests_from,
				   cve_dir ? &cves : NULL, &out);
		if (!ret && a.format == FORMAT_TEXT)
			report_visible(&out);
		goto out;
	}

	ret = cli_run_scan(ctx, &run, &a);
	for (i = 0; !ret && i < tests_from.nr; i++)
		ret = tests_named_by(ctx, &run, tests_from.v[i]);
	if (!ret && cve_dir)
		cve_run_annotate(&run, &cves);
	if (!ret)
		ret = run_judge_range(ctx, &run, a.archives.v, a.archives.nr);
	if (!ret && since)
		ret = run_since(&run, ctx->repo, since, &since_state);
	/*
	 * The FAILED mails are for the accepted commits that the queue
	 * leaves out too: the queue made with the series found for them.
	 */
	if (!ret && a.format == FORMAT_FAILED)
		ret = run_queue_series(&run, ctx->repo);
	/*
	 * A blame per proposal that does not apply is a long walk each:
	 * on systemd-stable's v254-stable the email took 56 s with them
	 * (63 proposals that do not apply) and 2.3 s without.  Only the
	 * FAILED mails, which name them, look for them (and explain, one
	 * commit at a time).
	 */
	if (!ret && a.format == FORMAT_FAILED)
		ret = run_likely_prereqs(&run, ctx->repo, &run.scan.candidates,
					 NULL);
	/*
	 * The series search blames too, but what it blamed and picked is
	 * kept in the trial cache by its inputs: util-linux's v2.42 took
	 * 2.8 s cold and 0.09 s warm.  Every output that says what does
	 * not apply says what it applies after (not the page).
	 */
	if (!ret && a.format != FORMAT_HTML)
		ret = run_applies_with(&run, ctx->repo, &run.scan.candidates,
				       NULL);
	if (!ret)
		candidate_list_sort(&run.scan.candidates);
	if (!ret)
		ret = propose_render(ctx, &run, (enum propose_format)a.format,
				     all, limit, &a, &out);
	/*
	 * What the mails left for later is listed next time; the other
	 * formats at this tip leave that as it was.
	 */
	if (!ret && since && !strcmp(since, "last") &&
	    (a.format == FORMAT_EMAIL || a.format == FORMAT_MBOX))
		run_since_paged(&run, &since_state);
	/*
	 * Only the text: a mail's bytes are git am's, JSON and HTML escape
	 * their own.
	 */
	if (!ret && a.format == FORMAT_TEXT)
		report_visible(&out);
	end.run = &run;
	if (since && !strcmp(since, "last"))
		end.since = &since_state;
	end.trace = CLI_TRACE_REPORT;
out:
	ret = cli_end(ctx, &end, ret);
	memo_release(&memo);
	state_release(&since_state);
	cve_set_release(&cves);
	strbuf_release(&out);
	free_string_array(names, nr_names);
	cli_args_release(&a);
	cli_list_release(&tests_from);
	cli_list_release(&branches);
	return ret;
}

const struct cli_command cmd_propose = {
	"propose",
	"--branch BRANCH... [--all] [--archive PATH]... [--cve DIR]\n"
	"                          [--format text|json|email|mbox|review|checklist|failed|html]\n"
	"                          [--in-reply-to MSGID] [--limit N] [--range A..B]\n"
	"                          [--since last|REV] [--subsystem LIST]\n"
	"                          [--tests-from DIR]... [--upstream REF]",
	"list the mainline fixes a branch should take",
	propose,
};
