#include "cli/rules.h"
#include "base/error.h"
#include "base/strbuf.h"
#include "base/util.h"
#include "cli/options.h"
#include "report/report-rulesinit.h"
#include "run/rulesrun.h"

#include <stdlib.h>

/* The file rules init writes in the directory given. */
#define INIT_FILE "project.rules"

/*
 * rules init [--branch B | --range A..B] [--upstream REF] [--paths
 * DIR/(star)/] DIR: a starter overlay for the repository here, written
 * to DIR/project.rules whole or not at all, never over a file.
 */
int rules_init(struct run_context *ctx, int argc, char **argv)
{
	struct cli_args a = { 0 };
	const char *spec = NULL;
	const struct cli_option opts[] = {
		OPT_BRANCH(&a, "the branch, whose messages are read too"),
		OPT_STRING(0, "paths", &spec, "DIR/*/",
			   "a subsystem per directory of DIR, not of the top"),
		OPT_RANGE(&a, "the range of mainline whose messages are read"),
		OPT_UPSTREAM(&a),
		OPT_END()
	};
	struct strbuf out = STRBUF_INIT;
	struct cli_end end = { 0 };
	struct rules_range range;
	struct survey s;
	char *path = NULL;
	int n, ret;

	if ((n = cli_parse(&cmd_rules, opts, argc, argv, 0)) < 0)
		return cli_parse_status(n);
	if (n + 1 != argc) {
		error("rules init needs one directory to write %s into",
		      INIT_FILE);
		cli_args_release(&a);
		return cli_usage(&cmd_rules);
	}
	survey_init(&s);
	ret = rulesrun_range(ctx, &range, a.branch, a.range, a.upstream);
	if (!ret)
		ret = rulesrun_survey(ctx, &range, spec, &s);
	if (!ret) {
		report_rules_init(&out, &s, &range, spec);
		path = xstrfmt("%s/%s", argv[n], INIT_FILE);
		ret = write_file_new(path, out.buf, out.len, "rule file");
	}
	strbuf_reset(&out);
	if (!ret)
		strbuf_addf(&out, "wrote %s: %zu subsystem%s; try it with "
			    "`stablepick --rules %s rules check`\n", path,
			    s.nr_dirs, s.nr_dirs == 1 ? "" : "s", argv[n]);
	free(path);
	survey_release(&s);
	rules_range_release(&range);
	cli_args_release(&a);
	end.out = &out;
	return cli_end(ctx, &end, ret);
}
