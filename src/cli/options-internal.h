#ifndef CLI_OPTIONS_INTERNAL_H
#define CLI_OPTIONS_INTERNAL_H

#include "cli/options.h"

/*
 * What the two halves of options.h share: options.c parses argv
 * against a command's options, options-help.c prints their -h
 * listing.  The rest of src/ includes options.h alone.
 */

/* Whether the option takes a value ("--format json"), as getopt asks. */
static inline int cli_option_takes_value(const struct cli_option *o)
{
	return o->type != CLI_OPT_BOOL && o->type != CLI_OPT_BIT;
}

/*
 * Prints, for -h or --help, "usage: stablepick NAME USAGE" and a line
 * of help per option of opts (and one for -h itself) to standard
 * output.
 */
void cli_print_help(const struct cli_command *cmd,
		    const struct cli_option *opts);

#endif
