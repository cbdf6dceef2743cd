/* propose: the output of a run of one branch, in each format. */
#include "cli/cli.h"
#include "base/error.h"
#include "formats/mail.h"
#include "cli/propose.h"
#include "report/report.h"
#include "report/report-html.h"
#include "report/report-review.h"
#include "base/strbuf.h"
#include "base/progress.h"
#include "base/util.h"

#include <stdio.h>
#include <string.h>

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
 * The result whose patch c's mail holds: the mail series' (with the
 * prerequisites it carries) when the run made one and c is in it, else
 * the series of the proposals (or, for a review thread, of the
 * review); NULL when it has none, or has it already.
 */
static const struct apply_result *patch_of(const struct candidate *c)
{
	if (c->patch)
		return NULL;
	if (c->in_mail)
		return &c->mail_apply;
	if (!c->apply_checked || !c->apply.applies ||
	    (c->verdict != VERDICT_PROPOSED && !report_review_sends(c)))
		return NULL;
	return &c->apply;
}

static int fill_patch(struct candidate *c, git_repository *repo,
		      struct progress *progress, size_t *done)
{
	const struct apply_result *res = patch_of(c);
	struct strbuf patch = STRBUF_INIT;
	int ret;

	if (!res)
		return 0;
	if (interrupted())
		return -1;
	progress_update(progress, ++*done);
	ret = apply_result_patch(res, repo, &patch);
	c->patch = strbuf_detach(&patch, NULL);
	return ret;
}

/* Whether fill_patches() makes the patch of c. */
static int wants_patch(const struct candidate *c, int review_only)
{
	return patch_of(c) && (!review_only || report_review_sends(c));
}

/*
 * The patches of the series and of the review threads (only those of
 * the review threads with review_only: a patch is a replay and a diff
 * of its own, not worth making for the proposals the review mails do
 * not carry).
 */
static int fill_patches(struct run *run, git_repository *repo,
			int review_only)
{
	struct candidate_list *l = &run->scan.candidates;
	struct progress progress;
	size_t i, nr = 0, done = 0;
	int ret = 0;

	/* Announced first: each series makes its patches in one pass. */
	for (i = 0; i < l->nr; i++)
		if (wants_patch(l->items[i], review_only)) {
			apply_result_want_patch(patch_of(l->items[i]));
			nr++;
		}
	for (i = 0; i < run->outside.nr; i++)
		if (wants_patch(run->outside.items[i], review_only)) {
			apply_result_want_patch(patch_of(run->outside.items[i]));
			nr++;
		}
	progress_start(&progress, "Patches", nr);
	for (i = 0; !ret && i < l->nr; i++)
		if (wants_patch(l->items[i], review_only))
			ret = fill_patch(l->items[i], repo, &progress, &done);
	for (i = 0; !ret && i < run->outside.nr; i++)
		if (wants_patch(run->outside.items[i], review_only))
			ret = fill_patch(run->outside.items[i], repo, &progress,
					 &done);
	progress_stop(&progress);
	return ret;
}

/* The review threads (or checklists) of the opt-in subsystems. */
static int render_review(struct run *run, git_repository *repo,
			 const struct report *r, int checklist,
			 struct strbuf *out)
{
	struct review_people *people;
	size_t nr, mails = 0;
	int ret;

	ret = run_review_people(run, repo, &people, &nr);
	if (!ret && !checklist)
		ret = fill_patches(run, repo, 1);
	if (!ret)
		mails = checklist ?
			report_checklist(out, r, &run->scan.candidates,
					 &run->upstream, people, nr) :
			report_review(out, r, &run->scan.candidates,
				      &run->upstream, people, nr);
	if (!ret && !mails)
		say("nothing for %s waits for an ack: no mail written",
		    run->branch.name);
	run_review_people_release(people, nr);
	return ret;
}

int propose_render(struct run_context *ctx, struct run *run,
		   enum propose_format format, int all, int limit,
		   const struct cli_args *a, struct strbuf *out)
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
	case FORMAT_HTML: {
		const struct candidate_list *l = &run->scan.candidates;

		report_propose_html(out, &r, &l, 1, ctx->config.commit_url,
				    propose_tip_time(ctx, run));
		return 0;
	}
	case FORMAT_EMAIL:
	case FORMAT_MBOX:
	case FORMAT_REVIEW:
	case FORMAT_CHECKLIST:
	case FORMAT_FAILED:
		break;
	}
	/*
	 * Nothing to send is no mail: a script that mails what propose
	 * wrote tests for an empty file (exit status 0, as for a mail).
	 * The FAILED mails are also for accepted commits, which no
	 * proposal lists: they say for themselves when there is none.
	 */
	if (format != FORMAT_FAILED &&
	    !mail_has_content(&run->scan.candidates)) {
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
	r.thread_given = !!a->in_reply_to;
	/*
	 * The email and the mbox page alike, so that the patches are those
	 * the mails list; the id is of what they list.
	 */
	if ((format == FORMAT_EMAIL || format == FORMAT_MBOX) &&
	    report_mail_page(&r, &run->scan.candidates,
			     ctx->config.mail_size_cap, (size_t)limit) &&
	    !a->in_reply_to) {
		free(id);
		id = proposal_id(run, a->subsystems, r.from_email);
		r.message_id = id;
	}
	if (format == FORMAT_EMAIL) {
		report_email(out, &r, &run->scan.candidates);
	} else if (format == FORMAT_REVIEW || format == FORMAT_CHECKLIST) {
		ret = render_review(run, ctx->repo, &r,
				    format == FORMAT_CHECKLIST, out);
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
		ret = fill_patches(run, ctx->repo, 0);
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

git_time_t propose_tip_time(struct run_context *ctx, const struct run *run)
{
	git_commit *tip;
	git_time_t t = 0;

	if (!git_commit_lookup(&tip, ctx->repo, &run->upstream)) {
		t = git_commit_time(tip);
		git_commit_free(tip);
	}
	git_error_clear();
	return t;
}
