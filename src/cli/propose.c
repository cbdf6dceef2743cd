#include "cli.h"
#include "error.h"
#include "report.h"
#include "strbuf.h"

#include <getopt.h>
#include <stdio.h>
#include <string.h>

enum format { FORMAT_TEXT, FORMAT_JSON };

static int parse_format(const char *arg, enum format *out)
{
	if (!strcmp(arg, "text"))
		*out = FORMAT_TEXT;
	else if (!strcmp(arg, "json"))
		*out = FORMAT_JSON;
	else
		return error("unknown format '%s' (expected text or json)", arg);
	return 0;
}

static int propose(struct cli_context *ctx, int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "all", no_argument, NULL, 'a' },
		{ "branch", required_argument, NULL, 'b' },
		{ "format", required_argument, NULL, 'f' },
		{ "help", no_argument, NULL, 'h' },
		{ "range", required_argument, NULL, 'r' },
		{ "subsystem", required_argument, NULL, 's' },
		{ "upstream", required_argument, NULL, 'u' },
		{ NULL, 0, NULL, 0 }
	};
	const char *branch = NULL, *upstream = NULL, *range = NULL;
	const char *subsystems = NULL;
	enum format format = FORMAT_TEXT;
	struct strbuf out = STRBUF_INIT;
	struct cli_run run;
	struct report r;
	int opt, all = 0, ret;

	optind = 0;
	while ((opt = getopt_long(argc, argv, "+h", longopts, NULL)) != -1) {
		switch (opt) {
		case 'a': all = 1; break;
		case 'b': branch = optarg; break;
		case 'f':
			if (parse_format(optarg, &format) < 0)
				return 129;
			break;
		case 'h':
			printf("usage: stablepick propose %s\n", cmd_propose.usage);
			return 0;
		case 'r': range = optarg; break;
		case 's': subsystems = optarg; break;
		case 'u': upstream = optarg; break;
		default:
			return cli_usage(&cmd_propose);
		}
	}
	if (optind != argc) {
		error("unexpected argument '%s'", argv[optind]);
		return cli_usage(&cmd_propose);
	}
	if (!branch) {
		error("propose needs --branch");
		return cli_usage(&cmd_propose);
	}

	ret = cli_run_setup(ctx, &run, branch, upstream);
	if (!ret && range)
		ret = scan_set_range(&run.scan, range);
	if (!ret && subsystems)
		scan_set_only(&run.scan, subsystems);
	if (!ret)
		ret = scan_run(&run.scan);
	if (!ret)
		ret = cli_judge(&run, ctx->repo, &run.scan.candidates,
				&run.scan.from);
	if (!ret)
		candidate_list_sort(&run.scan.candidates);
	if (!ret) {
		memset(&r, 0, sizeof(r));
		r.scan = &run.scan;
		r.branch = &run.branch;
		r.rules = &run.rules;
		r.upstream = run.upstream_name;
		r.all = all;
		if (format == FORMAT_JSON)
			report_json(&out, &r, &run.scan.candidates);
		else
			report_text(&out, &r, &run.scan.candidates);
		ret = report_write(stdout, &out);
	}
	if (!ret)
		ret = cli_run_save(&run);
	strbuf_release(&out);
	cli_run_release(&run);
	return ret < 0 ? 1 : 0;
}

const struct cli_command cmd_propose = {
	"propose",
	"--branch BRANCH [--all] [--format text|json] [--range A..B]\n"
	"                          [--subsystem LIST] [--upstream REF]",
	"list the mainline fixes a branch should take",
	propose,
};
