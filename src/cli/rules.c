#include "cli.h"
#include "error.h"
#include "report.h"
#include "report-rules.h"
#include "report-ruletest.h"
#include "rules.h"
#include "ruletest.h"
#include "scan.h"
#include "strbuf.h"
#include "util.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int rules_check(struct run_context *ctx, int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	struct ruleset rs;
	int opt, i, ret = 0;
	size_t j;

	optind = 0;
	while ((opt = cli_getopt(argc, argv, "+h", longopts)) != -1) {
		switch (opt) {
		case 'h':
			printf("usage: stablepick rules %s\n", cmd_rules.usage);
			return 0;
		default:
			return cli_usage(&cmd_rules);
		}
	}

	ruleset_init(&rs);
	if (optind == argc) {
		ret = run_load_rules_here(ctx, &rs);
	} else {
		/* One ruleset, so that a name defined in two files is found. */
		for (i = optind; i < argc; i++)
			if (ruleset_load_file(&rs, argv[i]) < 0)
				ret = -1;
	}
	if (!ret)
		ret = run_check_rule_paths(ctx, &rs);
	if (!ret) {
		struct strbuf out = STRBUF_INIT;

		for (j = 0; j < rs.nr_files; j++)
			report_rule_file(&out, &rs, &rs.files[j]);
		ret = report_write(stdout, &out);
		strbuf_release(&out);
	}
	ruleset_release(&rs);
	return ret < 0 ? 1 : 0;
}

/*
 * rules test [--label FIELD] [--format text|json] [--messages]
 * [--threshold-sweep] FILE: the loaded rules tried on the messages of
 * FILE (JSON Lines; "-" for standard input), see ruletest.h.
 */
static int rules_test(struct run_context *ctx, int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "format", required_argument, NULL, 'f' },
		{ "help", no_argument, NULL, 'h' },
		{ "label", required_argument, NULL, 'l' },
		{ "messages", no_argument, NULL, 'm' },
		{ "threshold-sweep", no_argument, NULL, 's' },
		{ NULL, 0, NULL, 0 }
	};
	static const char *const formats[] = { "text", "json" };
	const char *label = NULL;
	struct strbuf out = STRBUF_INIT;
	struct ruletest t;
	struct ruleset rs;
	int opt, flags = 0, json = 0, ret;

	optind = 0;
	while ((opt = cli_getopt(argc, argv, "+h", longopts)) != -1) {
		switch (opt) {
		case 'f':
			if ((json = cli_format(optarg, formats, ARRAY_SIZE(formats))) < 0)
				return cli_usage(&cmd_rules);
			break;
		case 'h':
			printf("usage: stablepick rules %s\n", cmd_rules.usage);
			return 0;
		case 'l': label = optarg; break;
		case 'm': flags |= RULETEST_MESSAGES; break;
		case 's': flags |= RULETEST_SWEEP; break;
		default:
			return cli_usage(&cmd_rules);
		}
	}
	if (optind + 1 != argc) {
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
		ret = ruletest_read(&t, argv[optind]);
	if (!ret) {
		ruletest_score(&t);
		if (json)
			report_ruletest_json(&out, &t, flags);
		else
			report_ruletest_text(&out, &t, flags);
		ret = report_write(stdout, &out);
	}
	strbuf_release(&out);
	ruletest_release(&t);
	ruleset_release(&rs);
	return ret < 0 ? 1 : 0;
}

/*
 * Prints the names --subsystem takes, one a line in byte order: the
 * subsystems the rules define, and, in a repository, those the
 * templates derive from the directories of upstream's tree.
 */
static int rules_list(struct run_context *ctx, int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "help", no_argument, NULL, 'h' },
		{ "upstream", required_argument, NULL, 'u' },
		{ NULL, 0, NULL, 0 }
	};
	const char *dir = ctx->repo_dir ? ctx->repo_dir : ".";
	const char *upstream = NULL;
	struct ruleset rs;
	int opt, ret = 0;

	optind = 0;
	while ((opt = cli_getopt(argc, argv, "+h", longopts)) != -1) {
		switch (opt) {
		case 'h':
			printf("usage: stablepick rules %s\n", cmd_rules.usage);
			return 0;
		case 'u': upstream = optarg; break;
		default:
			return cli_usage(&cmd_rules);
		}
	}
	if (optind < argc) {
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
		struct strbuf out = STRBUF_INIT;

		report_subsystem_names(&out, &rs);
		ret = report_write(stdout, &out);
		strbuf_release(&out);
	}
	ruleset_release(&rs);
	return ret < 0 ? 1 : 0;
}

static int rules(struct run_context *ctx, int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	int opt;

	optind = 0;
	while ((opt = cli_getopt(argc, argv, "+h", longopts)) != -1) {
		switch (opt) {
		case 'h':
			printf("usage: stablepick rules %s\n", cmd_rules.usage);
			return 0;
		default:
			return cli_usage(&cmd_rules);
		}
	}
	if (optind == argc) {
		error("rules needs a subcommand (check, list or test)");
		return cli_usage(&cmd_rules);
	}
	if (!strcmp(argv[optind], "list"))
		return rules_list(ctx, argc - optind, argv + optind);
	if (!strcmp(argv[optind], "test"))
		return rules_test(ctx, argc - optind, argv + optind);
	if (strcmp(argv[optind], "check")) {
		static const char *const subs[] = { "check", "list", "test" };

		error("unknown rules subcommand '%s' (expected check, list or "
		      "test)", argv[optind]);
		hint_similar(argv[optind], strlen(argv[optind]), subs,
			     ARRAY_SIZE(subs), "");
		return cli_usage(&cmd_rules);
	}
	return rules_check(ctx, argc - optind, argv + optind);
}

const struct cli_command cmd_rules = {
	"rules",
	"check [FILE...]\n"
	"                        list [--upstream REF]\n"
	"                        test [--format text|json] [--label FIELD] [--messages]\n"
	"                             [--threshold-sweep] FILE",
	"validate rule files, list their subsystems, try them on messages",
	rules,
};
