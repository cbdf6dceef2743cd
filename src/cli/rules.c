#include "cli.h"
#include "error.h"
#include "report.h"
#include "rules.h"
#include "ruletest.h"
#include "scan.h"
#include "strbuf.h"
#include "util.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* What one file added to the ruleset, for its summary line. */
struct file_counts {
	size_t subsystems, rules, vetoes, links;
};

static void count_rules(struct file_counts *c, const struct rule *rules,
			size_t nr, const char *path)
{
	size_t i;

	for (i = 0; i < nr; i++) {
		if (rules[i].file != path)
			continue;
		if (rules[i].veto)
			c->vetoes++;
		else
			c->rules++;
	}
}

/*
 * Prints "PATH: ok (N subsystems, N rules, N vetoes, N links, version
 * V)"; the rules and vetoes inside the file's subsystem blocks count
 * too, vetoes, links and version only when there are some.
 */
static void print_summary(const struct ruleset *rs, const struct rule_file *f)
{
	struct file_counts c = { 0, 0, 0, 0 };
	size_t i;

	count_rules(&c, rs->rules, rs->nr_rules, f->path);
	for (i = 0; i < rs->nr_links; i++)
		c.links += rs->links[i].file == f->path;
	for (i = 0; i < rs->nr_subsystems; i++) {
		const struct subsystem *s = rs->subsystems[i];

		if (s->file != f->path)
			continue;
		c.subsystems++;
		count_rules(&c, s->rules, s->nr_rules, f->path);
	}
	printf("%s: ok (%zu subsystem%s, %zu rule%s", f->path,
	       c.subsystems, c.subsystems == 1 ? "" : "s",
	       c.rules, c.rules == 1 ? "" : "s");
	if (c.vetoes)
		printf(", %zu veto%s", c.vetoes, c.vetoes == 1 ? "" : "es");
	if (c.links)
		printf(", %zu link%s", c.links, c.links == 1 ? "" : "s");
	if (f->version)
		printf(", version %s", f->version);
	printf(")\n");
}

/*
 * Without files, checks what propose would load: --rules DIR, else the
 * stablepick.rules setting of the repository here (if there is one),
 * else the shipped rules.
 */
static int load_default(struct run_context *ctx, struct ruleset *rs)
{
	const char *dir = ctx->repo_dir ? ctx->repo_dir : ".";

	if (!ctx->nr_rules_dirs && !ctx->repo &&
	    !git_repository_open_ext(NULL, dir, 0, NULL) &&
	    run_open_repo(ctx) < 0)
		return -1;
	git_error_clear();
	return run_load_rules(ctx, rs);
}

/*
 * In a repository with a mainline, the path specs are checked against
 * its tree as a scan checks them: "fs/f2fs" names a directory there,
 * and watches nothing without its slash.  Without a repository or a
 * mainline, there is nothing to check them against.  0 or -1.
 */
static int check_tree(struct run_context *ctx, struct ruleset *rs)
{
	/* The mainline propose would take: the setting, else a default. */
	const char *names[] = {
		NULL, "master", "main", "origin/master", "origin/main"
	};
	const char *dir = ctx->repo_dir ? ctx->repo_dir : ".", *name = NULL;
	git_object *obj = NULL, *peeled = NULL;
	struct scan scan;
	size_t i;
	int ret = 0;

	if (!ctx->repo && (git_repository_open_ext(NULL, dir, 0, NULL) ||
			   run_open_repo(ctx) < 0)) {
		git_error_clear();
		return 0;
	}
	names[0] = ctx->config.upstream;
	for (i = 0; !peeled && i < ARRAY_SIZE(names); i++) {
		if (names[i] && !git_revparse_single(&obj, ctx->repo, names[i]) &&
		    !git_object_peel(&peeled, obj, GIT_OBJECT_COMMIT))
			name = names[i];
		git_object_free(obj);
		obj = NULL;
		git_error_clear();
	}
	if (!peeled)
		return 0;
	scan_init(&scan, ctx->repo, rs);
	scan_set_range_oids(&scan, git_object_id(peeled), git_object_id(peeled),
			    name);
	ret = scan_prepare(&scan);
	scan_release(&scan);
	git_object_free(peeled);
	return ret;
}

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
		ret = load_default(ctx, &rs);
	} else {
		/* One ruleset, so that a name defined in two files is found. */
		for (i = optind; i < argc; i++)
			if (ruleset_load_file(&rs, argv[i]) < 0)
				ret = -1;
	}
	if (!ret)
		ret = check_tree(ctx, &rs);
	if (!ret)
		for (j = 0; j < rs.nr_files; j++)
			print_summary(&rs, &rs.files[j]);
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
	ret = load_default(ctx, &rs);
	if (!ret)
		ret = ruletest_read(&t, argv[optind]);
	if (!ret) {
		ruletest_score(&t);
		if (json)
			ruletest_json(&out, &t, flags);
		else
			ruletest_text(&out, &t, flags);
		ret = report_write(stdout, &out);
	}
	strbuf_release(&out);
	ruletest_release(&t);
	ruleset_release(&rs);
	return ret < 0 ? 1 : 0;
}

static int cmp_name(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/*
 * Prints the names of the subsystems (not the templates), sorted;
 * through report_write(), as a derived name is a directory name of
 * the repository, which a terminal must not take for escapes.
 */
static int print_subsystems(const struct ruleset *rs)
{
	const char **names = xcalloc(rs->nr_subsystems + 1, sizeof(*names));
	struct strbuf out = STRBUF_INIT;
	size_t i, nr = 0;
	int ret;

	for (i = 0; i < rs->nr_subsystems; i++)
		if (!rs->subsystems[i]->is_template)
			names[nr++] = rs->subsystems[i]->name;
	qsort(names, nr, sizeof(*names), cmp_name);
	for (i = 0; i < nr; i++)
		strbuf_addf(&out, "%s\n", names[i]);
	ret = report_write(stdout, &out);
	strbuf_release(&out);
	free(names);
	return ret;
}

/*
 * Adds the subsystems the templates stand for in upstream's tree, as
 * a scan would (scan_prepare()).  In a repository without a mainline
 * to take (no --upstream, no stablepick.upstream, no master or main)
 * that is an error: the list would lack the directories.  Returns 0 or
 * -1 after an error.
 */
static int expand_templates(struct run_context *ctx, struct ruleset *rs,
			    const char *upstream)
{
	const char *name;
	struct scan scan;
	git_oid tip;
	int ret;

	/* Outside a repository, the rules alone. */
	if (!ctx->repo) {
		if (upstream)
			return error("--upstream needs a repository");
		return 0;
	}
	if (run_resolve_upstream(ctx, upstream, &tip, &name) < 0)
		return -1;
	scan_init(&scan, ctx->repo, rs);
	scan_set_range_oids(&scan, &tip, &tip, "upstream");
	ret = scan_prepare(&scan);
	scan_release(&scan);
	return ret;
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
		ret = expand_templates(ctx, &rs, upstream);
	if (!ret)
		ret = print_subsystems(&rs);
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
		const char *hit = suggest_name(argv[optind], subs,
					       ARRAY_SIZE(subs));

		error("unknown rules subcommand '%s' (expected check, list or "
		      "test)", argv[optind]);
		if (hit)
			fprintf(stderr, "hint: did you mean '%s'?\n", hit);
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
