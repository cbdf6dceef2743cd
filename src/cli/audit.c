#include "cli/cli.h"
#include "stages/audit.h"
#include "stages/branch.h"
#include "base/error.h"
#include "store/ledger.h"
#include "formats/mail.h"
#include "cli/options.h"
#include "run/picks.h"
#include "report/report.h"
#include "report/report-audit.h"
#include "base/sha1.h"
#include "base/strbuf.h"
#include "base/util.h"

#include <stdio.h>
#include <string.h>

/*
 * Exit status when a pick is rejected, or a pick mail could not be
 * judged (1 is an error, 129 usage).
 */
#define EXIT_REJECTED 2

enum format { FORMAT_TEXT, FORMAT_JSON, FORMAT_EMAIL };
static const char *const format_names[] = { "text", "json", "email", NULL };

/*
 * The reply, or the replies to the mails of --mbox (report-audit.h),
 * from the user's identity; Message-IDs from the branch and the thread
 * (or first pick), the same for the same input.
 */
static int reply(struct run_context *ctx, struct run *run,
		 const struct audit *a, const char *in_reply_to,
		 struct strbuf *out)
{
	struct audit_reply r;
	git_signature *me = NULL;
	struct strbuf cc = STRBUF_INIT;
	char hex[GIT_OID_HEXSZ + 1];
	char *id, *local, *bare = NULL;
	git_time_t now;

	if (ledger_now(&now) < 0)
		return -1;
	if (git_signature_default(&me, ctx->repo) < 0)
		git_error_clear();
	memset(&r, 0, sizeof(r));
	r.from_name = me ? me->name : "stablepick";
	r.from_email = me ? me->email : "stablepick@localhost";
	r.cc = run_mail_cc(ctx, &run->rules, &cc);
	/* "<id>" as given on the command line: the brackets are ours. */
	if (in_reply_to) {
		in_reply_to += *in_reply_to == '<';
		bare = xstrndup(in_reply_to, strcspn(in_reply_to, ">"));
		r.in_reply_to = bare;
	}
	r.now = now;
	r.branch = run->branch.name;
	r.range = run->scan.range;
	git_oid_tostr(hex, sizeof(hex), a->nr ? &a->picks[0].id : &run->upstream);
	if (a->thread && a->thread->message_id) {
		unsigned char digest[SHA1_RAWSZ];
		struct sha1 sha;

		/* Another thread with the same first pick: other ids. */
		sha1_init(&sha);
		sha1_update(&sha, a->thread->message_id,
			    strlen(a->thread->message_id));
		sha1_final(digest, &sha);
		local = xstrfmt("stablepick.audit.%s.%.12s.%02x%02x%02x%02x",
				run->branch.name, hex, digest[0], digest[1],
				digest[2], digest[3]);
	} else
		local = xstrfmt("stablepick.audit.%s.%.12s", run->branch.name, hex);
	id = mail_message_id(local, r.from_email);
	free(local);
	r.message_id = id;
	audit_email(out, a, &r);
	free(bare);
	free(id);
	git_signature_free(me);
	strbuf_release(&cc);
	return 0;
}

static int audit(struct run_context *ctx, int argc, char **argv)
{
	struct cli_args o = { 0 };
	const char *picks = NULL, *mbox = NULL, *queue = NULL;
	const struct cli_option opts[] = {
		OPT_BRANCH(&o, "the branch the picks are for (required)"),
		OPT_STRING(0, "picks", &picks, "FILE|-",
			   "the picks, one revision a line"),
		OPT_STRING(0, "mbox", &mbox, "FILE|-",
			   "the pick mails, as an mbox or one message"),
		OPT_STRING(0, "queue", &queue, "DIR",
			   "a stable-queue directory (its series file)"),
		OPT_RANGE(&o, "the commits applied to the branch after A"),
		OPT_ARCHIVE(&o),
		OPT_FORMAT(&o, format_names),
		OPT_IN_REPLY_TO(&o, "the message the summary replies to "
				"(default: the cover letter, else patch 1)"),
		OPT_UPSTREAM(&o),
		OPT_END()
	};
	const char *applied;
	char *start = NULL;
	size_t skipped = 0;
	struct candidate_list extra;
	struct strbuf out = STRBUF_INIT;
	struct cli_end end = { 0 };
	struct run run;
	struct audit a;
	int n, ret;

	if ((n = cli_parse(&cmd_audit, opts, argc, argv, CLI_NO_ARGS)) < 0)
		return cli_parse_status(n);
	applied = o.range;
	if (!o.branch || !!picks + !!mbox + !!queue + !!applied != 1) {
		error("audit needs --branch, and one of --picks, --mbox, --queue, "
		      "--range");
		goto usage;
	}
	if (applied) {
		const char *dots = strstr(applied, "..");

		if (!dots || dots == applied || strstr(dots + 2, "..") ||
		    dots[2] == '.' || !dots[2]) {
			error("--range needs A..B, the commits applied to the "
			      "branch after A");
			goto usage;
		}
		start = xstrndup(applied, (size_t)(dots - applied));
	}

	audit_init(&a);
	candidate_list_init(&extra);
	/* An applied range is judged against the branch as it was before. */
	ret = run_setup(ctx, &run, start ? start : o.branch, o.upstream);
	if (!ret && start) {
		free(run.branch.name);
		ret = branch_resolve_name(&run.branch.name, ctx->repo, o.branch,
					  NULL);
	}
	if (!ret && picks)
		ret = picks_read_list(ctx->repo, picks, &a, &skipped);
	if (!ret)
		ret = run_scan(ctx, &run);
	if (!ret)
		ret = run_judge_range(ctx, &run, o.archives.v, o.archives.nr);
	/* Mails are matched by subject too: after the scan. */
	if (!ret && mbox)
		ret = picks_read_mbox(ctx, &run, mbox, &a, &skipped);
	if (!ret && queue)
		ret = picks_read_queue(ctx, &run, queue, &a, &skipped);
	if (!ret && applied)
		ret = picks_read_applied(ctx, &run, applied, &a, &skipped);
	if (!ret)
		ret = picks_judge_outside(ctx, &run, &a, &extra);
	if (!ret)
		ret = audit_run(&a, ctx->repo, &run.rules, &run.branch,
				&run.scan.candidates, &extra,
				run_match(&run, ctx->repo), run.trial_cache,
				&run.series_limits);
	if (!ret) {
		if (o.format == FORMAT_JSON)
			audit_json(&out, &a);
		else if (o.format == FORMAT_EMAIL)
			ret = reply(ctx, &run, &a, o.in_reply_to, &out);
		else
			audit_text(&out, &a);
		/* A reply's bytes are the mail's; JSON escapes its own. */
		if (o.format == FORMAT_TEXT)
			report_visible(&out);
	}
	if (!ret && (audit_worst(&a) == AUDIT_REJECT || skipped))
		ret = EXIT_REJECTED;
	free(start);
	candidate_list_release(&extra);
	audit_release(&a);
	cli_args_release(&o);
	end.out = &out;
	end.run = &run;
	return cli_end(ctx, &end, ret);
usage:
	cli_args_release(&o);
	return cli_usage(&cmd_audit);
}

const struct cli_command cmd_audit = {
	"audit",
	"--branch BRANCH (--picks FILE|- | --mbox FILE|- | --queue DIR |\n"
	"                        --range A..B) [--archive PATH]...\n"
	"                        [--format text|json|email] [--in-reply-to MSGID]\n"
	"                        [--upstream REF]",
	"judge someone else's picks: ok, questionable or reject, and why",
	audit,
};
