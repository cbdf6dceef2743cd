#include "cli.h"
#include "cverun.h"
#include "error.h"
#include "mail.h"
#include "memo.h"
#include "options.h"
#include "report.h"
#include "report-review.h"
#include "strbuf.h"
#include "testrun.h"
#include "trace.h"
#include "util.h"

#include <stdio.h>
#include <string.h>

enum format { FORMAT_TEXT, FORMAT_JSON, FORMAT_EMAIL, FORMAT_MBOX,
	      FORMAT_REVIEW, FORMAT_FAILED };

static const char *const format_names[] = {
	"text", "json", "email", "mbox", "review", "failed", NULL
};

/*
 * The Message-ID of the proposal email: the branch, the upstream tip,
 * and a digest of what the mail lists (and the subsystems asked for),
 * so that the email and the series made from the same run thread
 * together however often they are made, and two different mails
 * (--subsystem xfs and the full run) never share an id.
 */
static char *proposal_id(const struct run *run, const char *subsystems,
			 const char *email)
{
	struct strbuf what = STRBUF_INIT;
	char hex[GIT_OID_HEXSZ + 1], sum[GIT_OID_HEXSZ + 1];
	const struct candidate_list *l = &run->scan.candidates;
	char *local, *id;
	git_oid digest;
	size_t i;

	strbuf_addf(&what, "%s\n%s\n", run->branch.name,
		    subsystems ? subsystems : "");
	for (i = 0; i < l->nr; i++)
		if (report_mail_lists(l->items[i]))
			strbuf_addf(&what, "%s %s\n", l->items[i]->hex,
				    verdict_name(l->items[i]->verdict));
	if (git_odb_hash(&digest, what.buf, what.len, GIT_OBJECT_BLOB) < 0)
		git_error_clear();
	git_oid_tostr(hex, sizeof(hex), &run->upstream);
	git_oid_tostr(sum, sizeof(sum), &digest);
	local = xstrfmt("stablepick.%s.%.12s.%.8s", run->branch.name, hex, sum);
	id = mail_message_id(local, email);
	free(local);
	strbuf_release(&what);
	return id;
}

/* Whether the email has anything to say (else none is written). */
static int mail_has_content(const struct candidate_list *l)
{
	size_t i;

	for (i = 0; i < l->nr; i++)
		if (report_mail_lists(l->items[i]))
			return 1;
	return 0;
}

/*
 * The patches of the series (and of the review threads), in the
 * branch's context.
 */
static int fill_patches(struct run *run, git_repository *repo)
{
	struct candidate_list *l = &run->scan.candidates;
	size_t i;
	int ret = 0;

	for (i = 0; !ret && i < l->nr; i++) {
		struct candidate *c = l->items[i];
		struct strbuf patch = STRBUF_INIT;

		if (c->patch || !c->apply_checked || !c->apply.applies ||
		    (c->verdict != VERDICT_PROPOSED && !report_review_sends(c)))
			continue;
		ret = apply_result_patch(&c->apply, repo, &patch);
		c->patch = strbuf_detach(&patch, NULL);
	}
	return ret;
}

/* The review threads of the opt-in subsystems. */
static int render_review(struct run *run, git_repository *repo,
			 const struct report *r, struct strbuf *out)
{
	struct review_people *people;
	size_t nr;
	int ret;

	ret = run_review_people(run, repo, &people, &nr);
	if (!ret)
		ret = fill_patches(run, repo);
	if (!ret && !report_review(out, r, &run->scan.candidates,
				   &run->upstream, people, nr))
		say("nothing for %s waits for an ack: no mail written",
		    run->branch.name);
	run_review_people_release(people, nr);
	return ret;
}

static int render(struct run_context *ctx, struct run *run,
		  enum format format, int all, const struct cli_args *a,
		  struct strbuf *out)
{
	git_signature *me = NULL;
	struct strbuf cc = STRBUF_INIT;
	struct report r;
	char *id = NULL;
	int ret = 0;

	cli_report(&r, run);
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
	case FORMAT_REVIEW:
	case FORMAT_FAILED:
		break;
	}
	/*
	 * Nothing to send is no mail: a script that mails what propose
	 * wrote tests for an empty file (exit status 0, as for a mail).
	 */
	if (!mail_has_content(&run->scan.candidates)) {
		say("nothing to propose for %s: no mail written",
		    run->branch.name);
		return 0;
	}
	if (cli_report_sender(ctx, run, &r, &me, &cc) < 0) {
		strbuf_release(&cc);
		return -1;
	}
	id = a->in_reply_to ?
		xstrndup(a->in_reply_to + (*a->in_reply_to == '<'),
			 strcspn(a->in_reply_to + (*a->in_reply_to == '<'), ">")) :
		proposal_id(run, a->subsystems, r.from_email);
	r.message_id = id;
	if (format == FORMAT_EMAIL) {
		report_email(out, &r, &run->scan.candidates);
	} else if (format == FORMAT_REVIEW) {
		ret = render_review(run, ctx->repo, &r, out);
	} else if (format == FORMAT_FAILED) {
		char *url, *branch;

		run_fetch_source(ctx, run, &url, &branch);
		r.fetch_url = url;
		r.fetch_branch = branch;
		/* Nothing failed: no mail, and no error either. */
		if (!report_failed(out, &r, &run->scan.candidates))
			say("nothing failed to apply to %s: no mail written",
			    run->branch.name);
		free(branch);
		free(url);
	} else {
		ret = fill_patches(run, ctx->repo);
		if (!ret)
			report_mbox(out, &r, &run->scan.candidates);
		if (!ret && !out->len)
			say("no patch for %s applies as it is: no mail written",
			    run->branch.name);
	}
	free(id);
	git_signature_free(me);
	strbuf_release(&cc);
	return ret;
}

/* Whether the format prints the time of the run (a mail's Date:). */
static unsigned dated(int format)
{
	return format == FORMAT_EMAIL || format == FORMAT_REVIEW ||
	       format == FORMAT_FAILED ? MEMO_DATED : 0;
}

static int propose(struct run_context *ctx, int argc, char **argv)
{
	struct cli_args a = { 0 };
	struct cli_list tests_from = { 0 };
	const char *since = NULL, *cve_dir = NULL;
	int all = 0;
	const struct cli_option opts[] = {
		OPT_BRANCH(&a, "the stable or vendor branch (required)"),
		OPT_BOOL("all", &all, "also list present and below-threshold "
			 "commits"),
		OPT_ARCHIVE(&a),
		OPT_STRING(0, "cve", &cve_dir, "DIR",
			   "the fixes the kernel's CVE records in DIR (a vulns "
			   "checkout) name carry their CVE ids and the fact cve"),
		OPT_FORMAT(&a, format_names),
		OPT_IN_REPLY_TO(&a, "thread the mbox to this message instead "
				"of the proposal email"),
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
	struct memo memo;
	struct cve_set cves;
	struct run run;
	size_t i;
	int n, ret;

	if ((n = cli_parse(&cmd_propose, opts, argc, argv, CLI_NO_ARGS)) < 0)
		return cli_parse_status(n);
	state_init(&since_state);
	if (!a.branch) {
		error("propose needs --branch");
		cli_args_release(&a);
		cli_list_release(&tests_from);
		return cli_usage(&cmd_propose);
	}

	/*
	 * The answer of an earlier run with the same inputs, unless the
	 * run reads what the memo's key does not hold (the list archives,
	 * fstests or LTP checkouts, the state of --since).
	 */
	memo_init(&memo);
	cve_set_init(&cves);
	if (cve_dir && cve_set_load(&cves, cve_dir) < 0) {
		cve_set_release(&cves);
		cli_args_release(&a);
		cli_list_release(&tests_from);
		return 1;
	}
	if (!since && !tests_from.nr && !a.archives.nr && !cve_dir) {
		ret = run_open_repo(ctx);
		if (!ret && !ctx->config.nr_archives)
			ret = memo_lookup(&memo, ctx, argc, argv,
					  dated(a.format), &out);
		if (ret) {
			if (ret > 0)
				ret = report_write(stdout, &out);
			memo_release(&memo);
			strbuf_release(&out);
			cli_args_release(&a);
			cli_list_release(&tests_from);
			return ret < 0 ? 1 : 0;
		}
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
	 * A blame per proposal that does not apply is a long walk each:
	 * on systemd-stable's v254-stable the email took 56 s with them
	 * (63 proposals that do not apply) and 2.3 s without.  Only the
	 * FAILED mails, which name them, look for them (and explain, one
	 * commit at a time).
	 */
	if (!ret && a.format == FORMAT_FAILED)
		ret = run_likely_prereqs(&run, ctx->repo, &run.scan.candidates,
					 NULL);
	if (!ret)
		candidate_list_sort(&run.scan.candidates);
	if (!ret)
		ret = render(ctx, &run, (enum format)a.format, all, &a, &out);
	if (!ret)
		ret = report_write(stdout, &out);
	if (!ret)
		memo_store(&memo, &out);
	memo_release(&memo);
	trace_stage("report");
	if (!ret)
		ret = run_save(ctx, &run);
	if (!ret && since && !strcmp(since, "last"))
		ret = run_since_save(&run, &since_state);
	state_release(&since_state);
	cve_set_release(&cves);
	strbuf_release(&out);
	cli_args_release(&a);
	cli_list_release(&tests_from);
	run_release(&run);
	return ret < 0 ? 1 : 0;
}

const struct cli_command cmd_propose = {
	"propose",
	"--branch BRANCH [--all] [--archive PATH]... [--cve DIR]\n"
	"                          [--format text|json|email|mbox|review|failed]\n"
	"                          [--in-reply-to MSGID] [--range A..B]\n"
	"                          [--since last|REV] [--subsystem LIST]\n"
	"                          [--tests-from DIR]... [--upstream REF]",
	"list the mainline fixes a branch should take",
	propose,
};
