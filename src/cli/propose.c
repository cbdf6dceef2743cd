#include "cli.h"
#include "error.h"
#include "mail.h"
#include "options.h"
#include "report.h"
#include "strbuf.h"
#include "testrun.h"
#include "trace.h"
#include "util.h"

#include <stdio.h>
#include <string.h>

enum format { FORMAT_TEXT, FORMAT_JSON, FORMAT_EMAIL, FORMAT_MBOX,
	      FORMAT_FAILED };

static const char *const format_names[] = {
	"text", "json", "email", "mbox", "failed", NULL
};

/*
 * The Message-ID of the proposal email, derived from the branch and the
 * run (the upstream tip), so that the series and the email thread
 * together however often they are made.
 */
static char *proposal_id(const struct run *run, const char *email)
{
	char hex[GIT_OID_HEXSZ + 1];
	char *local, *id;

	git_oid_tostr(hex, sizeof(hex), &run->upstream);
	local = xstrfmt("stablepick.%s.%.12s", run->branch.name, hex);
	id = mail_message_id(local, email);
	free(local);
	return id;
}

/* The patches of the series, in the branch's context. */
static int fill_patches(struct run *run, git_repository *repo)
{
	struct candidate **series;
	size_t nr = report_series(&run->scan.candidates, &series), i;
	int ret = 0;

	for (i = 0; !ret && i < nr; i++) {
		struct strbuf patch = STRBUF_INIT;

		ret = apply_result_patch(&series[i]->apply, repo, &patch);
		series[i]->patch = strbuf_detach(&patch, NULL);
	}
	free(series);
	return ret;
}

static int render(struct run_context *ctx, struct run *run,
		  enum format format, int all, const char *in_reply_to,
		  struct strbuf *out)
{
	git_signature *me = NULL;
	struct strbuf cc = STRBUF_INIT;
	struct report r;
	git_time_t now;
	char *id = NULL;
	int ret = 0;

	memset(&r, 0, sizeof(r));
	r.scan = &run->scan;
	r.branch = &run->branch;
	r.rules = &run->rules;
	r.upstream = run->upstream_name;
	r.archive = run->archive;
	r.all = all;
	switch (format) {
	case FORMAT_TEXT:
		report_text(out, &r, &run->scan.candidates);
		return 0;
	case FORMAT_JSON:
		report_json(out, &r, &run->scan.candidates);
		return 0;
	case FORMAT_EMAIL:
	case FORMAT_MBOX:
	case FORMAT_FAILED:
		break;
	}
	if (git_signature_default(&me, ctx->repo) < 0)
		git_error_clear();
	r.from_name = me ? me->name : "stablepick";
	r.from_email = me ? me->email : "stablepick@localhost";
	r.to = ctx->config.to;
	r.cc = run_mail_cc(ctx, &run->rules, &cc);
	if (ledger_now(&now) < 0) {
		git_signature_free(me);
		strbuf_release(&cc);
		return -1;
	}
	r.now = (time_t)now;
	id = in_reply_to ? xstrndup(in_reply_to + (*in_reply_to == '<'),
				    strcspn(in_reply_to + (*in_reply_to == '<'), ">"))
			 : proposal_id(run, r.from_email);
	r.message_id = id;
	if (format == FORMAT_EMAIL) {
		report_email(out, &r, &run->scan.candidates);
	} else if (format == FORMAT_FAILED) {
		char *url, *branch;

		run_fetch_source(ctx, run, &url, &branch);
		r.fetch_url = url;
		r.fetch_branch = branch;
		/* Nothing failed: no mail, and no error either. */
		if (!report_failed(out, &r, &run->scan.candidates))
			warning("nothing failed to apply to %s: no mail written",
				run->branch.name);
		free(branch);
		free(url);
	} else {
		ret = fill_patches(run, ctx->repo);
		if (!ret)
			report_mbox(out, &r, &run->scan.candidates);
	}
	free(id);
	git_signature_free(me);
	strbuf_release(&cc);
	return ret;
}

static int propose(struct run_context *ctx, int argc, char **argv)
{
	struct cli_args a = { 0 };
	struct cli_list tests_from = { 0 };
	const char *since = NULL;
	int all = 0;
	const struct cli_option opts[] = {
		OPT_BRANCH(&a, "the stable or vendor branch (required)"),
		OPT_BOOL("all", &all, "also list present and below-threshold "
			 "commits"),
		OPT_ARCHIVE(&a),
		OPT_FORMAT(&a, format_names),
		OPT_IN_REPLY_TO(&a, "thread the mbox to this message instead "
				"of the proposal email"),
		OPT_RANGE(&a, "the mainline range to walk (default: from the "
			  "merge base)"),
		OPT_STRING(0, "since", &since, "last|REV",
			   "hide what the last run, or one up to REV, listed"),
		OPT_SUBSYSTEM(&a),
		OPT_LIST("tests-from", &tests_from, "DIR",
			 "the fixes an fstests or LTP checkout names are "
			 "candidates; may be repeated"),
		OPT_UPSTREAM(&a),
		OPT_END()
	};
	struct state since_state;
	struct strbuf out = STRBUF_INIT;
	struct run run;
	size_t i;
	int n, ret;

	if ((n = cli_parse(&cmd_propose, opts, argc, argv, CLI_NO_ARGS)) < 0)
		return cli_parse_status(n);
	if (!a.branch) {
		error("propose needs --branch");
		cli_args_release(&a);
		cli_list_release(&tests_from);
		return cli_usage(&cmd_propose);
	}

	ret = cli_run_scan(ctx, &run, &a);
	for (i = 0; !ret && i < tests_from.nr; i++)
		ret = tests_named_by(ctx, &run, tests_from.v[i]);
	if (!ret)
		ret = run_judge_range(ctx, &run, a.archives.v, a.archives.nr);
	if (!ret && since)
		ret = run_since(&run, ctx->repo, since, &since_state);
	/* The table and the series do not show them; the rest do. */
	if (!ret && a.format != FORMAT_TEXT && a.format != FORMAT_MBOX)
		ret = run_likely_prereqs(&run, ctx->repo, &run.scan.candidates,
					 NULL);
	if (!ret)
		candidate_list_sort(&run.scan.candidates);
	if (!ret)
		ret = render(ctx, &run, (enum format)a.format, all,
			     a.in_reply_to, &out);
	if (!ret)
		ret = report_write(stdout, &out);
	trace_stage("report");
	if (!ret)
		ret = run_save(ctx, &run);
	if (!ret && since && !strcmp(since, "last"))
		ret = run_since_save(&run, &since_state);
	strbuf_release(&out);
	cli_args_release(&a);
	cli_list_release(&tests_from);
	run_release(&run);
	return ret < 0 ? 1 : 0;
}

const struct cli_command cmd_propose = {
	"propose",
	"--branch BRANCH [--all] [--archive PATH]...\n"
	"                          [--format text|json|email|mbox|failed]\n"
	"                          [--in-reply-to MSGID] [--range A..B]\n"
	"                          [--since last|REV] [--subsystem LIST]\n"
	"                          [--tests-from DIR]... [--upstream REF]",
	"list the mainline fixes a branch should take",
	propose,
};
