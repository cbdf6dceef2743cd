/*
 * The -h listing of a command's options: its synopsis and a line of
 * help per option, wrapped as git's are.  See options-internal.h.
 */
#include "cli/cli.h"
#include "cli/options-internal.h"
#include "report/report.h"
#include "base/strbuf.h"

#include <stdio.h>
#include <string.h>

/* Where the help of an option starts, as in git's "-h" listings. */
#define HELP_COLUMN 26

/* "a|b|c" for a choice, the value's name otherwise. */
static void add_value_name(struct strbuf *sb, const struct cli_option *o)
{
	size_t i;

	if (o->type != CLI_OPT_CHOICE) {
		strbuf_addstr(sb, o->argh);
		return;
	}
	for (i = 0; o->choices[i]; i++)
		strbuf_addf(sb, "%s%s", i ? "|" : "", o->choices[i]);
}

static void add_help_line(struct strbuf *out, int short_name,
			  const char *long_name, const struct cli_option *o,
			  const char *help)
{
	size_t start = out->len;

	strbuf_addstr(out, "    ");
	if (short_name)
		strbuf_addf(out, "-%c, ", short_name);
	strbuf_addf(out, "--%s", long_name);
	if (o && cli_option_takes_value(o)) {
		strbuf_addch(out, ' ');
		add_value_name(out, o);
	}
	if (out->len - start + 1 >= HELP_COLUMN) {
		strbuf_addch(out, '\n');
		start = out->len;
	}
	while (out->len - start < HELP_COLUMN)
		strbuf_addch(out, ' ');
	/* The help in words, wrapped before column 80. */
	while (*help) {
		size_t word = strcspn(help, " ");

		if (out->len - start > HELP_COLUMN &&
		    out->len - start + 1 + word >= 80) {
			strbuf_addch(out, '\n');
			start = out->len;
			strbuf_addchars(out, ' ', HELP_COLUMN);
		} else if (out->len - start > HELP_COLUMN) {
			strbuf_addch(out, ' ');
		}
		strbuf_add(out, help, word);
		help += word;
		help += strspn(help, " ");
	}
	strbuf_addch(out, '\n');
}

void cli_print_help(const struct cli_command *cmd,
		    const struct cli_option *opts)
{
	struct strbuf out = STRBUF_INIT;
	size_t i;

	strbuf_addf(&out, "usage: stablepick %s %s\n\n", cmd->name, cmd->usage);
	for (i = 0; opts[i].type != CLI_OPT_END; i++)
		add_help_line(&out, opts[i].short_name, opts[i].long_name,
			      &opts[i], opts[i].help);
	add_help_line(&out, 'h', "help", NULL, "show this help");
	report_write(stdout, &out);
	strbuf_release(&out);
}
