#include "cli.h"
#include "error.h"
#include "report.h"
#include "report-diff.h"
#include "strbuf.h"
#include "util.h"
#include "vendordiff.h"

#include <getopt.h>
#include <stdio.h>

/* stablepick diff: see vendordiff.h. */

enum format { FORMAT_TEXT, FORMAT_JSON, FORMAT_HTML };
static const char *const format_names[] = { "text", "json", "html" };

static int diff(struct run_context *ctx, int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "against", required_argument, NULL, 'a' },
		{ "branch", required_argument, NULL, 'b' },
		{ "format", required_argument, NULL, 'f' },
		{ "help", no_argument, NULL, 'h' },
		{ "subsystem", required_argument, NULL, 's' },
		{ "upstream", required_argument, NULL, 'u' },
		{ NULL, 0, NULL, 0 }
	};
	const char *branch = NULL, *against = NULL, *subsystems = NULL;
	const char *upstream = NULL;
	enum format format = FORMAT_TEXT;
	struct strbuf out = STRBUF_INIT;
	struct vendordiff d;
	int opt, f, ret;

	optind = 0;
	while ((opt = cli_getopt(argc, argv, "+h", longopts)) != -1) {
		switch (opt) {
		case 'a': against = optarg; break;
		case 'b': branch = optarg; break;
		case 'f':
			if ((f = cli_format(optarg, format_names,
					      ARRAY_SIZE(format_names))) < 0)
				return cli_usage(&cmd_diff);
			format = (enum format)f;
			break;
		case 'h':
			printf("usage: stablepick diff %s\n", cmd_diff.usage);
			return 0;
		case 's': subsystems = optarg; break;
		case 'u': upstream = optarg; break;
		default:
			return cli_usage(&cmd_diff);
		}
	}
	if (optind != argc) {
		error("unexpected argument '%s'", argv[optind]);
		return cli_usage(&cmd_diff);
	}
	if (!branch || !against) {
		error("diff needs --branch and --against");
		return cli_usage(&cmd_diff);
	}

	vendordiff_init(&d);
	ret = vendordiff_run(ctx, &d, branch, against, subsystems, upstream,
			     format != FORMAT_JSON);
	if (!ret) {
		if (format == FORMAT_JSON)
			report_diff_json(&out, &d.rows);
		else if (format == FORMAT_HTML)
			report_diff_html(&out, ctx->repo, &d.rows, &d.rel, branch,
					 against, d.range, &d.stable);
		else
			report_diff_text(&out, &d.rows, &d.rel);
		ret = report_write(stdout, &out);
	}
	if (!ret)
		vendordiff_save(ctx, &d);
	strbuf_release(&out);
	vendordiff_release(&d);
	return ret < 0 ? 1 : 0;
}

const struct cli_command cmd_diff = {
	"diff",
	"--branch VENDOR --against STABLE [--subsystem LIST]\n"
	"                       [--upstream REF] [--format text|json|html]",
	"the fixes of a stable branch a vendor branch lacks, and its own",
	diff,
};
