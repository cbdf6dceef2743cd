#include "cli/cli.h"
#include "cli/rules.h"
#include "base/error.h"
#include "cli/options.h"
#include "report/report.h"
#include "report/report-rules.h"
#include "report/report-ruletest.h"
#include "formats/rules.h"
#include "stages/ruletest.h"
#include "stages/scan.h"
#include "run/rulesrun.h"
#include "base/strbuf.h"
#include "base/util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/*
 * rules check [--branch B | --range A..B] [--upstream REF] [FILE...]:
 * every file checked; with a range, in a repository, the commits of
 * it that change files no subsystem watches, by directory.
 */
static int rules_check(struct run_context *ctx, int argc, char **argv)
{
	struct cli_args a = { 0 };
	const struct cli_option opts[] = {
		OPT_BRANCH(&a, "report the gaps in the range from its base "
			   "to upstream"),
		OPT_RANGE(&a, "report the gaps in this range of mainline"),
		OPT_UPSTREAM(&a),
		OPT_END()
	};
	struct strbuf out = STRBUF_INIT;
	struct cli_end end = { 0 };
	struct rules_range range;
	struct ruleset rs;
	struct gaps g;
	int n, i, ret = 0;
	size_t j;

	if ((n = cli_parse(&cmd_rules, opts, argc, argv, 0)) < 0)
		return cli_parse_status(n);
	ruleset_init(&rs);
	gaps_init(&g);
	memset(&range, 0, sizeof(range));
	if (n == argc) {
		ret = run_load_rules_here(ctx, &rs);
	} else {
		/* One ruleset, so that a name defined in two files is found. */
		for (i = n; i < argc; i++)
			if (ruleset_load_file(&rs, argv[i]) < 0)
				ret = -1;
	}
	if (!ret)
		ret = run_check_rule_paths(ctx, &rs);
	if (!ret && (a.branch || a.range)) {
		ret = rulesrun_range(ctx, &range, a.branch, a.range,
				     a.upstream);
		if (!ret)
			ret = rulesrun_gaps(ctx, &rs, &range, &g);
	}
	if (!ret) {
		for (j = 0; j < rs.nr_files; j++)
			report_rule_file(&out, &rs, &rs.files[j]);
		if (a.branch || a.range)
			report_gaps(&out, &g, range.desc);
		report_visible(&out);
	}
	gaps_release(&g);
	rules_range_release(&range);
	ruleset_release(&rs);
	cli_args_release(&a);
	end.out = &out;
	return cli_end(ctx, &end, ret);
}

/*
 * rules test [--label FIELD] [--format text|json] [--messages]
 * [--threshold-sweep] FILE: the loaded rules tried on the messages of
 * FILE (JSON Lines; "-" for standard input), see ruletest.h.
 */
static int rules_test(struct run_context *ctx, int argc, char **argv)
{
	static const char *const formats[] = { "text", "json", NULL };
	const char *label = NULL;
	int flags = 0, json = 0;
	const struct cli_option opts[] = {
		OPT_CHOICE("format", &json, formats, "the output format"),
		OPT_STRING(0, "label", &label, "FIELD",
			   "the member of each message that labels it"),
		OPT_BIT("messages", &flags, RULETEST_MESSAGES,
			"a line per message: score, label, reasons"),
		OPT_BIT("threshold-sweep", &flags, RULETEST_SWEEP,
			"precision and recall at each score (needs --label)"),
		OPT_END()
	};
	struct strbuf out = STRBUF_INIT;
	struct cli_end end = { 0 };
	struct ruletest t;
	struct ruleset rs;
	int n, ret;

	if ((n = cli_parse(&cmd_rules, opts, argc, argv, 0)) < 0)
		return cli_parse_status(n);
	if (n + 1 != argc) {
		error("rules test needs one file of messages (JSON Lines, or - "
		      "for standard input)");
		return cli_usage(&cmd_rules);
	}
	if (flags & RULETEST_SWEEP && !label) {
		error("rules test: --threshold-sweep needs --label");
		return cli_usage(&cmd_rules);
	}
	ruleset_init(&rs);
	ruletest_init(&t, &rs, label);
	ret = run_load_rules_here(ctx, &rs);
	if (!ret)
		ret = ruletest_read(&t, argv[n]);
	if (!ret) {
		ruletest_score(&t);
		if (json)
			report_ruletest_json(&out, &t, flags);
		else
			report_ruletest_text(&out, &t, flags);
		if (!json)
			report_visible(&out);
	}
	ruletest_release(&t);
	ruleset_release(&rs);
	end.out = &out;
	return cli_end(ctx, &end, ret);
}

/*
 * Prints the names --subsystem takes, one a line in byte order: the
 * subsystems the rules define, and, in a repository, those the
 * templates derive from the directories of upstream's tree.
 */
static int rules_list(struct run_context *ctx, int argc, char **argv)
{
	const char *dir = ctx->repo_dir ? ctx->repo_dir : ".";
	const char *upstream = NULL;
	const struct cli_option opts[] = {
		OPT_STRING(0, "upstream", &upstream, "REF",
			   "the tree whose directories the templates stand for"),
		OPT_END()
	};
	struct strbuf out = STRBUF_INIT;
	struct cli_end end = { 0 };
	struct ruleset rs;
	int n, ret = 0;

	if ((n = cli_parse(&cmd_rules, opts, argc, argv, 0)) < 0)
		return cli_parse_status(n);
	if (n < argc) {
		error("rules list takes no arguments");
		return cli_usage(&cmd_rules);
	}

	/* Outside a repository, the rules alone: no template is expanded. */
	if (!git_repository_open_ext(NULL, dir, 0, NULL))
		ret = run_open_repo(ctx);
	git_error_clear();
	ruleset_init(&rs);
	if (!ret)
		ret = run_load_rules(ctx, &rs);
	if (!ret)
		ret = run_expand_templates(ctx, &rs, upstream);
	if (!ret) {
		report_subsystem_names(&out, &rs);
		report_visible(&out);
	}
	ruleset_release(&rs);
	end.out = &out;
	return cli_end(ctx, &end, ret);
}

static int rules(struct run_context *ctx, int argc, char **argv)
{
	const struct cli_option opts[] = { OPT_END() };
	int n;

	if ((n = cli_parse(&cmd_rules, opts, argc, argv, 0)) < 0)
		return cli_parse_status(n);
	if (n == argc) {
		error("rules needs a subcommand (check, init, list or test)");
		return cli_usage(&cmd_rules);
	}
	if (!strcmp(argv[n], "init"))
		return rules_init(ctx, argc - n, argv + n);
	if (!strcmp(argv[n], "list"))
		return rules_list(ctx, argc - n, argv + n);
	if (!strcmp(argv[n], "test"))
		return rules_test(ctx, argc - n, argv + n);
	if (strcmp(argv[n], "check")) {
		static const char *const subs[] = {
			"check", "init", "list", "test"
		};

		error("unknown rules subcommand '%s' (expected check, init, "
		      "list or test)", argv[n]);
		hint_similar(argv[n], strlen(argv[n]), subs,
			     ARRAY_SIZE(subs), "");
		return cli_usage(&cmd_rules);
	}
	return rules_check(ctx, argc - n, argv + n);
}

const struct cli_command cmd_rules = {
	"rules",
	"check [--branch BRANCH | --range A..B] [--upstream REF] [FILE...]\n"
	"                        init [--branch BRANCH | --range A..B] [--upstream REF]\n"
	"                             [--paths DIR/*/] DIR\n"
	"                        list [--upstream REF]\n"
	"                        test [--format text|json] [--label FIELD] [--messages]\n"
	"                             [--threshold-sweep] FILE",
	"validate rule files, write a starter one, list their subsystems, try them",
	rules,
};
