#include "cli/cli.h"
#include "base/error.h"
#include "store/ledger.h"
#include "cli/options.h"
#include "report/report.h"
#include "report/report-review.h"
#include "stages/review.h"
#include "base/strbuf.h"
#include "base/util.h"

#include <string.h>

/* A copy of s, control characters (a tab, a line break) made spaces. */
static char *one_line(const char *s)
{
	char *out = xstrdup(s ? s : ""), *p;

	for (p = out; *p; p++)
		if ((unsigned char)*p < 0x20 || *p == 0x7f)
			*p = ' ';
	return out;
}

static const struct mail_addrs *maintainers_of(const struct review_people *v,
					       size_t nr,
					       const struct subsystem *s)
{
	size_t i;

	for (i = 0; i < nr; i++)
		if (v[i].s == s)
			return &v[i].maintainers;
	return NULL;
}

/* A deferral that names no condition ("not yet"): a week, as mark's. */
#define DEFER_DAYS 7

/*
 * What to do with one answer: a decision to record (in *e, returning
 * "accepted", "rejected" or "deferred"), "noted, no decision" for a
 * maintainer's reply that decides nothing, or why not ("skipped", the
 * cause in o->cause); NULL for what is not listed (someone else's
 * reply that decides nothing).
 */
static const char *judge_answer(struct run *run,
				const struct review_people *people, size_t nr,
				struct ack_outcome *o, git_time_t now,
				struct ledger_entry *e, char **what)
{
	const struct review_found *f = o->found;
	const struct candidate *c = o->cand;
	const struct mail_addrs *m;
	const char *why;
	git_time_t date = 0;
	char *line;

	o->cause = review_distrust(f, now, &date);
	if (o->cause)
		return "skipped";
	if (!c)
		return f->answer == REVIEW_NONE ? NULL : "not a candidate";
	if (!f->sender)
		return f->answer == REVIEW_NONE ? NULL : "not one sender";
	m = maintainers_of(people, nr, candidate_subsystem(c));
	if (!m || !mail_addrs_has(m, f->sender))
		return f->answer == REVIEW_NONE ? NULL : "not a maintainer";
	if (f->answer == REVIEW_NONE)
		return "noted, no decision";
	why = review_outranked(ledger_find(&run->ledger, run->branch.name,
					   &f->commit), f, date, what);
	if (why)
		return why;
	memset(e, 0, sizeof(*e));
	e->decision = f->answer == REVIEW_NAK ? DECISION_REJECTED :
		      f->answer == REVIEW_DEFER ? DECISION_DEFERRED :
		      DECISION_ACCEPTED;
	if (f->answer == REVIEW_DEFER && f->until_tag)
		e->until_tag = xstrdup(f->until_tag);
	else if (f->answer == REVIEW_DEFER)
		e->until = f->until ? f->until :
			(date / 86400 + DEFER_DAYS) * 86400;
	/* Learnt now: the mail's date is only evidence, in its origin. */
	e->when = now;
	e->branch = xstrdup(run->branch.name);
	git_oid_cpy(&e->commit, &f->commit);
	e->who = one_line(f->msg->from);
	line = one_line(f->line);
	e->reason = xstrfmt("%s in <%s>", line, f->msg->message_id);
	free(line);
	e->origin.archive = one_line(o->archive);
	e->origin.message_id = one_line(f->msg->message_id);
	e->origin.from = one_line(f->msg->from);
	e->origin.date = date;
	return decision_name(e->decision);
}

/* Whether o is a skip of the mail the outcome before it skipped too. */
static int skipped_before(const struct ack_outcome *v, size_t nr,
			  const struct ack_outcome *o)
{
	return nr && v[nr - 1].cause && o->cause &&
	       v[nr - 1].found->msg == o->found->msg;
}

static int acks(struct run_context *ctx, int argc, char **argv)
{
	struct cli_args a = { 0 };
	int dry_run = 0;
	const struct cli_option opts[] = {
		OPT_BRANCH(&a, "the branch the review round was for (required)"),
		OPT_ARCHIVE(&a),
		OPT_BOOL("dry-run", &dry_run, "say what would be recorded, "
			 "record nothing"),
		OPT_UPSTREAM(&a),
		OPT_END()
	};
	struct review_people *people = NULL;
	struct review_found *found = NULL;
	struct ack_outcome *outcomes = NULL;
	struct ledger_entry *entries = NULL;
	size_t nr_people = 0, nr_found = 0, nr_entries = 0, nr_outcomes = 0;
	size_t i, skipped = 0;
	char **whats = NULL;
	struct strbuf out = STRBUF_INIT;
	struct cli_end end = { 0 };
	struct run run;
	git_time_t now = 0;
	int n, ret;

	if ((n = cli_parse(&cmd_acks, opts, argc, argv, CLI_NO_ARGS)) < 0)
		return cli_parse_status(n);
	if (!a.branch) {
		error("acks needs --branch");
		cli_args_release(&a);
		return cli_usage(&cmd_acks);
	}
	ret = cli_run_scan(ctx, &run, &a);
	if (!ret)
		ret = run_open_archives(ctx, &run, a.archives.v, a.archives.nr);
	if (!ret && !run.archive)
		ret = error("acks needs the list archives: --archive PATH or "
			    "stablepick.archive");
	if (!ret)
		ret = ledger_now(&now);
	if (!ret)
		ret = run_review_people(&run, ctx->repo, &people, &nr_people);
	if (!ret)
		ret = review_collect(run.archive, ctx->repo, run.branch.name,
				     &found, &nr_found);
	if (!ret) {
		outcomes = xcalloc(nr_found ? nr_found : 1, sizeof(*outcomes));
		entries = xcalloc(nr_found ? nr_found : 1, sizeof(*entries));
		whats = xcalloc(nr_found ? nr_found : 1, sizeof(*whats));
	}
	for (i = 0; !ret && i < nr_found; i++) {
		struct ack_outcome *o = &outcomes[nr_outcomes];
		enum decision d;

		memset(o, 0, sizeof(*o));
		o->found = &found[i];
		o->archive = run.archive->sources[found[i].msg->source].path;
		o->cand = candidate_list_find(&run.scan.candidates,
					      &found[i].commit);
		o->what = judge_answer(&run, people, nr_people, o, now,
				       &entries[nr_entries], &whats[i]);
		if (skipped_before(outcomes, nr_outcomes, o)) {
			free(o->cause);
			continue;
		}
		if (!o->what)
			continue;
		nr_outcomes++;
		skipped += !!o->cause;
		if (!decision_parse(o->what, &d))
			o->entry = &entries[nr_entries++];
	}
	if (!ret && nr_entries && !dry_run)
		ret = ledger_append(&run.ledger, entries, nr_entries);
	if (!ret) {
		report_acks(&out, outcomes, nr_outcomes, dry_run);
		report_visible(&out);
	}
	for (i = 0; i < nr_entries; i++) {
		free(entries[i].branch);
		free(entries[i].who);
		free(entries[i].reason);
		free(entries[i].until_tag);
		free(entries[i].origin.archive);
		free(entries[i].origin.message_id);
		free(entries[i].origin.from);
	}
	for (i = 0; i < nr_outcomes; i++)
		free(outcomes[i].cause);
	for (i = 0; i < nr_found; i++)
		free(whats ? whats[i] : NULL);
	free(whats);
	free(entries);
	free(outcomes);
	review_found_release(found, nr_found);
	run_review_people_release(people, nr_people);
	cli_args_release(&a);
	/* Something was skipped: the rest is recorded, the status says so. */
	if (!ret && skipped)
		ret = CLI_SKIPPED;
	end.out = &out;
	end.run = &run;
	return cli_end(ctx, &end, ret);
}

const struct cli_command cmd_acks = {
	"acks",
	"--branch BRANCH [--archive PATH]... [--dry-run] [--upstream REF]",
	"record the acks, NAKs and deferrals the review mails got",
	acks,
};
