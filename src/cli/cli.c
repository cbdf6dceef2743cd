#include "cli.h"
#include "error.h"
#include "strbuf.h"

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

int cli_usage(const struct cli_command *cmd)
{
	fprintf(stderr, "usage: stablepick %s %s\n", cmd->name, cmd->usage);
	return 129;
}

int cli_format(const char *arg, const char *const *names, size_t nr)
{
	struct strbuf list = STRBUF_INIT;
	size_t i;

	for (i = 0; i < nr; i++)
		if (!strcmp(arg, names[i]))
			return (int)i;
	for (i = 0; i < nr; i++)
		strbuf_addf(&list, "%s%s", names[i],
			    i + 2 < nr ? ", " : i + 1 < nr ? " or " : "");
	error("unknown format '%s' (expected %s)", arg, list.buf);
	strbuf_release(&list);
	return -1;
}
