#ifndef CLI_RULES_H
#define CLI_RULES_H

#include "cli/cli.h"

/*
 * stablepick rules: the command (rules.c) and its subcommand init
 * (rules-init.c), which writes a starter overlay.
 */
int rules_init(struct run_context *ctx, int argc, char **argv);

#endif
