#include "cli/cli.h"
#include "base/error.h"
#include "store/ledger.h"
#include "git/malformed.h"
#include "stages/branch.h"
#include "cli/options.h"
#include "report/report.h"
#include "report/report-ledger.h"
#include "base/strbuf.h"
#include "base/util.h"

#include <stdio.h>
#include <string.h>

#define DEFER_DAYS 7

/* Declared in cli.h too; parse_args() prints its usage. */
extern const struct cli_command cmd_mark;

/* What the command line asked for, checked before the repository opens. */
struct mark_args {
	const char *branch;
	const char *reason;
	const char *until;
	enum decision decision;
	int list;
	char **revs;
	int nr_revs;
};

static int has_control(const char *s)
{
	for (; *s; s++)
		if ((unsigned char)*s < 0x20 || *s == 0x7f)
			return 1;
	return 0;
}

/* 0 to go on, 1 after --help, else the exit status of a usage error. */
static int parse_args(struct mark_args *a, int argc, char **argv)
{
	const struct cli_option opts[] = {
		OPT_STRING(0, "branch", &a->branch, "BRANCH",
			   "the branch the decision is for (required)"),
		OPT_STRING('m', "message", &a->reason, "REASON",
			   "why, one line without tabs"),
		OPT_STRING(0, "until", &a->until, "DATE|TAG",
			   "for deferred: the day (YYYY-MM-DD) the commits come "
			   "back, or the release tag (v6.6.9) the branch must "
			   "contain first (default: in a week)"),
		OPT_BOOL("list", &a->list,
			 "print the decisions in force for the branch"),
		OPT_END()
	};
	int n;

	memset(a, 0, sizeof(*a));
	if ((n = cli_parse(&cmd_mark, opts, argc, argv, CLI_PERMUTE)) < 0)
		return n == CLI_HELP ? 1 : 129;
	a->revs = argv + n;
	a->nr_revs = argc - n;
	if (!a->branch) {
		error("mark needs --branch");
		return cli_usage(&cmd_mark);
	}
	if (a->list) {
		if (a->nr_revs || a->reason || a->until) {
			error("--list takes only --branch");
			return cli_usage(&cmd_mark);
		}
		return 0;
	}
	if (a->nr_revs < 2) {
		error("mark needs commits and a decision "
		      "(accepted, rejected or deferred)");
		return cli_usage(&cmd_mark);
	}
	a->nr_revs--;
	if (decision_parse(a->revs[a->nr_revs], &a->decision) < 0) {
		error("unknown decision '%s' (expected accepted, rejected or "
		      "deferred)", a->revs[a->nr_revs]);
		return 129;
	}
	if (a->until && a->decision != DECISION_DEFERRED) {
		error("--until is only for deferred");
		return 129;
	}
	if (a->reason && has_control(a->reason)) {
		error("the reason must be one line without tabs");
		return 129;
	}
	return 0;
}

/*
 * When a deferral ends: the date of --until, or its tag (*tag, not
 * checked: the release may be to come), else DEFER_DAYS from now.
 */
static int deferral_date(git_time_t *out, const char **tag, const char *until,
			 git_time_t now)
{
	git_time_t today = now - now % 86400;

	*tag = NULL;
	if (!until) {
		*out = today + DEFER_DAYS * 86400;
		return 0;
	}
	if (ledger_tag_name_ok(until)) {
		*out = 0;
		*tag = until;
		return 0;
	}
	if (ledger_parse_date(until, out) < 0)
		return error("bad date '%s' for --until (expected YYYY-MM-DD "
			     "or a tag)", until);
	if (*out <= today)
		return error("--until %s is not after today", until);
	return 0;
}

/* "Name <email>" of the repository's user, or "unknown". */
static char *default_who(git_repository *repo)
{
	git_signature *sig = NULL;
	char *who, *p;

	if (git_signature_default(&sig, repo) < 0) {
		git_error_clear();
		return xstrdup("unknown");
	}
	who = xstrfmt("%s <%s>", sig->name, sig->email);
	git_signature_free(sig);
	for (p = who; *p; p++)
		if ((unsigned char)*p < 0x20 || *p == 0x7f)
			*p = ' ';
	return who;
}

static int record(struct strbuf *out, struct run_context *ctx,
		  struct ledger *l, const struct mark_args *a, git_time_t now)
{
	struct ledger_entry *entries = xcalloc((size_t)a->nr_revs,
					       sizeof(*entries));
	git_time_t until = 0;
	const char *tag = NULL;
	char *who = NULL;
	int i, ret = 0;

	if (a->decision == DECISION_DEFERRED)
		ret = deferral_date(&until, &tag, a->until, now);
	if (!ret)
		ret = ledger_load(l);
	for (i = 0; !ret && i < a->nr_revs; i++) {
		ret = scan_resolve(ctx->repo, a->revs[i], "mark",
				   &entries[i].commit);
		/* origin/linux-6.6.y is saved as linux-6.6.y: one branch. */
		entries[i].branch = (char *)ledger_branch_key(l, a->branch);
		entries[i].decision = a->decision;
		entries[i].when = ret ? now :
			ledger_time_to_outrank(l, a->branch, &entries[i].commit,
					       now);
		entries[i].until = until;
		entries[i].until_tag = (char *)tag;
		entries[i].reason = (char *)(a->reason ? a->reason : "");
	}
	if (ret)
		goto out;
	who = default_who(ctx->repo);
	for (i = 0; i < a->nr_revs; i++)
		entries[i].who = who;
	ret = ledger_append(l, entries, (size_t)a->nr_revs);
	for (i = 0; !ret && i < a->nr_revs; i++)
		report_decision(out, ctx->repo, &entries[i]);
out:
	free(who);
	free(entries);
	return ret;
}

static int mark(struct run_context *ctx, int argc, char **argv)
{
	struct strbuf out = STRBUF_INIT;
	struct cli_end end = { 0 };
	struct mark_args a;
	git_oid tip;
	struct ledger l;
	git_time_t now;
	char *path, *branch;
	int ret;

	ret = parse_args(&a, argc, argv);
	if (ret)
		return ret == 1 ? 0 : ret;
	if (ledger_now(&now) < 0 || run_open_repo(ctx) < 0)
		return cli_end(ctx, NULL, -1);
	if (branch_resolve_name(&branch, ctx->repo, a.branch, NULL) < 0)
		return cli_end(ctx, NULL, -1);
	a.branch = branch;
	ret = malformed_revparse(&tip, ctx->repo, a.branch);
	if (ret < 0) {
		if (ret == GIT_EPEEL)
			error("branch '%s' does not point at a commit", a.branch);
		else
			error_git("cannot resolve branch '%s'", a.branch);
		free(branch);
		return cli_end(ctx, NULL, -1);
	}

	path = run_ledger_path(ctx);
	ledger_init(&l, path);
	ledger_set_repo(&l, ctx->repo);
	free(path);
	if (a.list) {
		ret = ledger_load(&l);
		if (!ret)
			report_decisions_in_force(&out, ctx->repo, &l,
						  ledger_branch_key(&l, a.branch),
						  now);
	} else {
		ret = record(&out, ctx, &l, &a, now);
	}
	report_visible(&out);
	ledger_release(&l);
	free(branch);
	end.out = &out;
	return cli_end(ctx, &end, ret);
}

const struct cli_command cmd_mark = {
	"mark",
	"--branch BRANCH [-m|--message REASON] [--until DATE|TAG] COMMIT... "
	"accepted|rejected|deferred\n"
	"                       --branch BRANCH --list",
	"record decisions about commits for a branch",
	mark,
};
