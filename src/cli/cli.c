#include "cli.h"
#include "error.h"
#include "options.h"
#include "strbuf.h"
#include "trace.h"
#include "util.h"

#include <stdio.h>
#include <string.h>

/* Sorted by name, as --help lists them. */
const struct cli_command *const cli_commands[] = {
	&cmd_audit,
	&cmd_diff,
	&cmd_eval,
	&cmd_explain,
	&cmd_mark,
	&cmd_patch_id,
	&cmd_propose,
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
