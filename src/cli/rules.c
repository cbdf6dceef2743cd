#include "cli.h"
#include "error.h"
#include "rules.h"

#include <getopt.h>
#include <stdio.h>
#include <string.h>

/* What one file added to the ruleset, for its summary line. */
struct file_counts {
	size_t subsystems, rules, vetoes;
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
 * Prints "PATH: ok (N subsystems, N rules, N vetoes, version V)"; the
 * rules and vetoes inside the file's subsystem blocks count too, vetoes
 * and version only when there are some.
 */
static void print_summary(const struct ruleset *rs, const struct rule_file *f)
{
	struct file_counts c = { 0, 0, 0 };
	size_t i;

	count_rules(&c, rs->rules, rs->nr_rules, f->path);
	for (i = 0; i < rs->nr_subsystems; i++) {
		const struct subsystem *s = &rs->subsystems[i];

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
	if (f->version)
		printf(", version %s", f->version);
	printf(")\n");
}

/*
 * Without files, checks what propose would load: --rules DIR, else the
 * stablepick.rules setting of the repository here (if there is one),
 * else the shipped rules.
 */
static int load_default(struct cli_context *ctx, struct ruleset *rs)
{
	const char *dir = ctx->repo_dir ? ctx->repo_dir : ".";

	if (!ctx->rules_dir && !ctx->repo &&
	    !git_repository_open_ext(NULL, dir, 0, NULL) &&
	    cli_open_repo(ctx) < 0)
		return -1;
	git_error_clear();
	return cli_load_rules(ctx, rs);
}

static int rules_check(struct cli_context *ctx, int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	struct ruleset rs;
	int opt, i, ret = 0;
	size_t j;

	optind = 0;
	while ((opt = getopt_long(argc, argv, "+h", longopts, NULL)) != -1) {
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
		for (j = 0; j < rs.nr_files; j++)
			print_summary(&rs, &rs.files[j]);
	ruleset_release(&rs);
	return ret < 0 ? 1 : 0;
}

static int rules(struct cli_context *ctx, int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	int opt;

	optind = 0;
	while ((opt = getopt_long(argc, argv, "+h", longopts, NULL)) != -1) {
		switch (opt) {
		case 'h':
			printf("usage: stablepick rules %s\n", cmd_rules.usage);
			return 0;
		default:
			return cli_usage(&cmd_rules);
		}
	}
	if (optind == argc) {
		error("rules needs a subcommand (check)");
		return cli_usage(&cmd_rules);
	}
	if (strcmp(argv[optind], "check")) {
		error("unknown rules subcommand '%s' (expected check)",
		      argv[optind]);
		return cli_usage(&cmd_rules);
	}
	return rules_check(ctx, argc - optind, argv + optind);
}

const struct cli_command cmd_rules = {
	"rules",
	"check [FILE...]",
	"validate rule files",
	rules,
};
