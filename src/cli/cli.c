#include "cli/cli.h"
#include "base/error.h"
#include "cli/options.h"
#include "run/memo.h"
#include "report/report.h"
#include "base/strbuf.h"
#include "base/trace.h"
#include "base/util.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Sorted by name, as --help lists them. */
const struct cli_command *const cli_commands[] = {
	&cmd_acks,
	&cmd_audit,
	&cmd_cves,
	&cmd_diff,
	&cmd_eval,
	&cmd_explain,
	&cmd_ledger,
	&cmd_mark,
	&cmd_patch_id,
	&cmd_propose,
	&cmd_queue,
	&cmd_results,
	&cmd_rules,
	&cmd_tests,
	NULL
};

const struct cli_command *cli_find(const char *name)
{
	size_t i;

	for (i = 0; cli_commands[i]; i++)
		if (!strcmp(cli_commands[i]->name, name))
			return cli_commands[i];
	return NULL;
}

int cli_getopt(int argc, char **argv, const char *shortopts,
	       const struct option *longopts)
{
	int opt = getopt_long(argc, argv, shortopts, longopts, NULL);
	const char **names, *bad;
	size_t len, i;

	if (opt != '?' || optind < 1 || optind > argc)
		return opt;
	bad = argv[optind - 1];
	if (!starts_with(bad, "--"))
		return opt;
	bad += 2;
	len = strcspn(bad, "=");
	for (i = 0; longopts[i].name; i++)
		if (strlen(longopts[i].name) == len &&
		    !strncmp(longopts[i].name, bad, len))
			return opt;	/* a known option, missing its value */
	names = xcalloc(i + 1, sizeof(*names));
	for (i = 0; longopts[i].name; i++)
		names[i] = longopts[i].name;
	hint_similar(bad, len, names, i, "--");
	free(names);
	return opt;
}

int cli_end(struct run_context *ctx, struct cli_end *end, int status)
{
	int ret = status < 0 ? -1 : 0;

	if (!end)
		return ret ? 1 : status;
	/*
	 * Interrupted (Ctrl-C): no output, memo or state from a run cut
	 * short, but the caches of what was done (each entry is whole and
	 * kept by its inputs); main() then ends by the signal.
	 */
	if (interrupted()) {
		trace_printf("interrupted: saving the caches");
		if (end->run) {
			run_save(ctx, end->run);
			run_release(end->run);
		}
		if (end->out)
			strbuf_release(end->out);
		free(end->note);
		end->note = NULL;
		return 1;
	}
	if (!ret && end->out && end->file)
		ret = write_file_atomic(end->file, end->out->buf, end->out->len,
					end->file_what);
	else if (!ret && end->out)
		ret = report_write(stdout, end->out);
	if (!ret && end->memo && end->out)
		memo_store(end->memo, end->out);
	if (!ret && end->note)
		fprintf(stderr, "%s\n", end->note);
	if (end->trace & CLI_TRACE_REPORT)
		trace_stage("report");
	if (end->run) {
		if (!ret)
			ret = run_save(ctx, end->run);
		if (!ret && end->since)
			ret = run_since_save(end->run, end->since);
		if (end->trace & CLI_TRACE_SAVE)
			trace_stage("save");
		run_release(end->run);
	}
	if (end->out)
		strbuf_release(end->out);
	free(end->note);
	end->note = NULL;
	return ret ? 1 : status;
}

void cli_hint_command(const char *word)
{
	const char *names[32];
	size_t nr = 0, i;

	for (i = 0; cli_commands[i] && nr + 1 < ARRAY_SIZE(names); i++)
		names[nr++] = cli_commands[i]->name;
	names[nr++] = "help";
	hint_similar(word, strlen(word), names, nr, "");
}

int cli_usage(const struct cli_command *cmd)
{
	fprintf(stderr, "usage: stablepick %s %s\n", cmd->name, cmd->usage);
	return 129;
}

void cli_report(struct report *r, struct run *run)
{
	memset(r, 0, sizeof(*r));
	r->scan = &run->scan;
	r->branch = &run->branch;
	r->rules = &run->rules;
	r->upstream = run->upstream_name;
	r->archive = run->archive;
	r->outside = &run->outside;
	r->width = term_columns();
}

int cli_report_sender(struct run_context *ctx, struct run *run,
		      struct report *r, git_signature **me, struct strbuf *cc)
{
	git_time_t now;

	*me = NULL;
	if (ledger_now(&now) < 0)
		return -1;
	r->now = (time_t)now;
	if (git_signature_default(me, ctx->repo) < 0)
		git_error_clear();
	r->from_name = *me ? (*me)->name : "stablepick";
	r->from_email = *me ? (*me)->email : "stablepick@localhost";
	r->to = ctx->config.to;
	r->backport_line = ctx->config.backport_line;
	r->cc = run_mail_cc(ctx, &run->rules, cc);
	return 0;
}

int cli_run_scan(struct run_context *ctx, struct run *run,
		 const struct cli_args *a)
{
	int ret = run_setup(ctx, run, a->branch, a->upstream);

	if (!ret && a->range)
		ret = scan_set_range(&run->scan, a->range);
	if (!ret && a->subsystems)
		scan_set_only(&run->scan, a->subsystems);
	if (!ret)
		ret = run_scan(ctx, run);
	trace_stage("scan");
	return ret;
}
