#include "cli.h"
#include "error.h"
#include "mail.h"
#include "report.h"
#include "strbuf.h"
#include "testrun.h"
#include "trace.h"
#include "util.h"

#include <getopt.h>
#include <stdio.h>
#include <string.h>

enum format { FORMAT_TEXT, FORMAT_JSON, FORMAT_EMAIL, FORMAT_MBOX };

static const char *const format_names[] = { "text", "json", "email", "mbox" };

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
	static const struct option longopts[] = {
		{ "all", no_argument, NULL, 'a' },
		{ "archive", required_argument, NULL, 'A' },
		{ "branch", required_argument, NULL, 'b' },
		{ "format", required_argument, NULL, 'f' },
		{ "help", no_argument, NULL, 'h' },
		{ "in-reply-to", required_argument, NULL, 'i' },
		{ "range", required_argument, NULL, 'r' },
		{ "since", required_argument, NULL, 'S' },
		{ "subsystem", required_argument, NULL, 's' },
		{ "tests-from", required_argument, NULL, 'T' },
		{ "upstream", required_argument, NULL, 'u' },
		{ NULL, 0, NULL, 0 }
	};
	const char *branch = NULL, *upstream = NULL, *range = NULL;
	const char *subsystems = NULL, *in_reply_to = NULL, *since = NULL;
	const char **tests_from = NULL, **archives = NULL;
	size_t nr_tests_from = 0, alloc_tests_from = 0, i;
	size_t nr_archives = 0, alloc_archives = 0;
	struct state since_state;
	enum format format = FORMAT_TEXT;
	struct strbuf out = STRBUF_INIT;
	struct run run;
	int opt, f, all = 0, ret;

	optind = 0;
	while ((opt = cli_getopt(argc, argv, "+h", longopts)) != -1) {
		switch (opt) {
		case 'a': all = 1; break;
		case 'A':
			ALLOC_GROW(archives, nr_archives, alloc_archives);
			archives[nr_archives++] = optarg;
			break;
		case 'b': branch = optarg; break;
		case 'f':
			if ((f = cli_format(optarg, format_names,
					      ARRAY_SIZE(format_names))) < 0) {
				free(tests_from);
				free(archives);
				return 129;
			}
			format = (enum format)f;
			break;
		case 'h':
			printf("usage: stablepick propose %s\n", cmd_propose.usage);
			free(tests_from);
			free(archives);
			return 0;
		case 'i': in_reply_to = optarg; break;
		case 'r': range = optarg; break;
		case 'S': since = optarg; break;
		case 's': subsystems = optarg; break;
		case 'T':
			ALLOC_GROW(tests_from, nr_tests_from, alloc_tests_from);
			tests_from[nr_tests_from++] = optarg;
			break;
		case 'u': upstream = optarg; break;
		default:
			free(tests_from);
			free(archives);
			return cli_usage(&cmd_propose);
		}
	}
	if (optind != argc || !branch) {
		if (optind != argc)
			error("unexpected argument '%s'", argv[optind]);
		else
			error("propose needs --branch");
		free(tests_from);
		free(archives);
		return cli_usage(&cmd_propose);
	}

	ret = run_setup(ctx, &run, branch, upstream);
	if (!ret && range)
		ret = scan_set_range(&run.scan, range);
	if (!ret && subsystems)
		scan_set_only(&run.scan, subsystems);
	if (!ret)
		ret = run_scan(ctx, &run);
	trace_stage("scan");
	for (i = 0; !ret && i < nr_tests_from; i++)
		ret = tests_named_by(ctx, &run, tests_from[i]);
	if (!ret)
		ret = run_open_archives(ctx, &run, archives, nr_archives);
	if (!ret)
		ret = run_judge(&run, ctx->repo, &run.scan.candidates,
				&run.scan.from);
	if (!ret && since)
		ret = run_since(&run, ctx->repo, since, &since_state);
	if (!ret)
		candidate_list_sort(&run.scan.candidates);
	if (!ret)
		ret = render(ctx, &run, format, all, in_reply_to, &out);
	if (!ret)
		ret = report_write(stdout, &out);
	trace_stage("report");
	if (!ret)
		ret = run_save(ctx, &run);
	if (!ret && since && !strcmp(since, "last"))
		ret = run_since_save(&run, &since_state);
	strbuf_release(&out);
	free(tests_from);
	free(archives);
	run_release(&run);
	return ret < 0 ? 1 : 0;
}

const struct cli_command cmd_propose = {
	"propose",
	"--branch BRANCH [--all] [--archive PATH]...\n"
	"                          [--format text|json|email|mbox]\n"
	"                          [--in-reply-to MSGID] [--range A..B]\n"
	"                          [--since last|REV] [--subsystem LIST]\n"
	"                          [--tests-from DIR]... [--upstream REF]",
	"list the mainline fixes a branch should take",
	propose,
};
