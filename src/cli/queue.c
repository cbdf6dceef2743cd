#include "cli/cli.h"
#include "git/apply.h"
#include "base/error.h"
#include "store/ledger.h"
#include "formats/mail.h"
#include "cli/options.h"
#include "report/report.h"
#include "report/report-review.h"
#include "base/strbuf.h"
#include "base/util.h"

#include <stdio.h>
#include <string.h>

enum format { FORMAT_MBOX, FORMAT_QUILT };

static const char *const format_names[] = { "mbox", "quilt", NULL };

/*
 * The accepted commits that do not apply in the queue's series: said
 * on stderr, as they need a manual backport.
 */
static void warn_left_out(const struct candidate_list *l)
{
	size_t i, j;

	for (i = 0; i < l->nr; i++) {
		const struct candidate *c = l->items[i];
		struct strbuf paths = STRBUF_INIT;

		if (!c->queued || c->queue_apply.applies)
			continue;
		for (j = 0; j < c->queue_apply.nr_conflicts; j++)
			strbuf_addf(&paths, "%s%s", j ? ", " : "",
				    c->queue_apply.conflicts[j]);
		warning("%.12s (\"%s\") does not apply to %s%s%s: left out, "
			"it needs a manual backport", c->hex,
			c->msg.subject ? c->msg.subject : "",
			"the branch",
			paths.len ? "; conflicts in " : "", paths.buf);
		strbuf_release(&paths);
	}
}

static int fill_patches(git_repository *repo, struct candidate **q, size_t nr)
{
	size_t i;
	int ret = 0;

	for (i = 0; !ret && i < nr; i++) {
		struct strbuf patch = STRBUF_INIT;

		ret = apply_result_patch(&q[i]->queue_apply, repo, &patch);
		free(q[i]->patch);
		q[i]->patch = strbuf_detach(&patch, NULL);
	}
	return ret;
}

static int queue(struct run_context *ctx, int argc, char **argv)
{
	struct cli_args a = { 0 };
	const char *output = NULL;
	int signoff = 0;
	const struct cli_option opts[] = {
		OPT_BRANCH(&a, "the branch the queue is for (required)"),
		OPT_ARCHIVE(&a),
		OPT_FORMAT(&a, format_names),
		OPT_STRING('o', "output", &output, "DIR",
			   "with --format quilt: the queue directory (its "
			   "series file and patches), created if missing"),
		OPT_RANGE(&a, "the mainline range to walk (default: from the "
			  "merge base)"),
		OPT_BOOL("signoff", &signoff, "add your Signed-off-by: line "
			 "last to each patch, as git am -s does"),
		OPT_UPSTREAM(&a),
		OPT_END()
	};
	struct strbuf out = STRBUF_INIT, cc = STRBUF_INIT, note = STRBUF_INIT;
	struct queue_count count;
	struct cli_end end = { 0 };
	struct candidate **q = NULL;
	git_signature *me = NULL;
	struct report r;
	struct run run;
	size_t nr = 0, i;
	char *id = NULL, *me_line = NULL;
	int n, ret;

	if ((n = cli_parse(&cmd_queue, opts, argc, argv, CLI_NO_ARGS)) < 0)
		return cli_parse_status(n);
	if (!a.branch || (a.format == FORMAT_QUILT) != !!output) {
		error(!a.branch ? "queue needs --branch" :
		      output ? "--output goes with --format quilt" :
		      "--format quilt needs --output DIR");
		cli_args_release(&a);
		return cli_usage(&cmd_queue);
	}
	ret = cli_run_scan(ctx, &run, &a);
	if (!ret)
		ret = run_judge_range(ctx, &run, a.archives.v, a.archives.nr);
	if (!ret)
		ret = run_queue_series(&run, ctx->repo);
	if (!ret) {
		warn_left_out(&run.scan.candidates);
		nr = report_queue(&run.scan.candidates, &run.outside, &q);
		ret = fill_patches(ctx->repo, q, nr);
	}
	if (!ret) {
		char hex[GIT_OID_HEXSZ + 1];
		char *local;

		cli_report(&r, &run);
		ret = cli_report_sender(ctx, &run, &r, &me, &cc);
		git_oid_tostr(hex, sizeof(hex), &run.upstream);
		local = xstrfmt("stablepick-queue.%s.%.12s", run.branch.name, hex);
		if (!ret)
			id = mail_message_id(local, r.from_email);
		if (!ret && signoff)
			me_line = xstrfmt("%s <%s>", r.from_name, r.from_email);
		free(local);
	}
	/* The quilt is written here; the mbox, to stdout, by cli_end(). */
	if (!ret)
		report_queue_count(&run.scan.candidates, &count);
	if (!ret && a.format == FORMAT_QUILT) {
		char *where = xstrfmt("%s/series", output);

		ret = report_queue_quilt(output, &r, q, nr, me_line, &count);
		report_queue_note(&note, &count, where);
		free(where);
	} else if (!ret) {
		report_queue_mbox(&out, &r, q, nr, id, me_line);
		end.out = &out;
		for (i = 0; i < nr; i++)
			report_queue_add(&count, q[i]);
		if (!count.accepted)
			strbuf_addf(&note, "nothing accepted for %s waits to "
				    "be applied", run.branch.name);
		else
			report_queue_note(&note, &count, "the mbox");
	}
	if (!ret && note.len)
		end.note = strbuf_detach(&note, NULL);
	strbuf_release(&note);
	free(id);
	free(me_line);
	free(q);
	strbuf_release(&cc);
	git_signature_free(me);
	cli_args_release(&a);
	end.run = &run;
	return cli_end(ctx, &end, ret);
}

const struct cli_command cmd_queue = {
	"queue",
	"--branch BRANCH [--archive PATH]... [--format mbox|quilt]\n"
	"                        [--output DIR] [--range A..B] [--signoff]\n"
	"                        [--upstream REF]",
	"write what was accepted, ready to apply",
	queue,
};
