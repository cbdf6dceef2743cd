#ifndef CLI_H
#define CLI_H

#include "run/run.h"

/*
 * Subcommands, as data (after tmux's cmd-*.c): each src/cli/NAME.c
 * defines one `const struct cli_command cmd_NAME` and main() finds it
 * in the table in cli.c.  A command parses its options, drives a run
 * (run.h) and hands what it judged to the report writers (report.h).
 */
struct cli_command {
	const char *name;
	const char *usage;		/* after "stablepick NAME " */
	const char *summary;		/* one line for --help */
	int (*fn)(struct run_context *ctx, int argc, char **argv);
};

extern const struct cli_command cmd_acks;
extern const struct cli_command cmd_audit;
extern const struct cli_command cmd_cves;
extern const struct cli_command cmd_diff;
extern const struct cli_command cmd_eval;
extern const struct cli_command cmd_explain;
extern const struct cli_command cmd_ledger;
extern const struct cli_command cmd_mark;
extern const struct cli_command cmd_patch_id;
extern const struct cli_command cmd_propose;
extern const struct cli_command cmd_queue;
extern const struct cli_command cmd_results;
extern const struct cli_command cmd_rules;
extern const struct cli_command cmd_tests;

extern const struct cli_command *const cli_commands[];

const struct cli_command *cli_find(const char *name);

struct option;

/*
 * getopt_long() for cli_parse() (options.h), which adds to its message
 * for an unknown long option a "did you mean" naming the option of
 * longopts it most likely misspells.
 */
int cli_getopt(int argc, char **argv, const char *shortopts,
	       const struct option *longopts);

/*
 * A "did you mean" for word, when it most likely misspells a command
 * of cli_commands or "help".
 */
void cli_hint_command(const char *word);

/* Prints "usage: stablepick NAME USAGE" to stderr; returns 129 like git. */
int cli_usage(const struct cli_command *cmd);

struct cli_args;

/*
 * The end of a command: out written to standard output (unless ret
 * says an error came first), then, for cli_finish(), the run's caches
 * and ledger saved and the run released.  out is released.  Returns
 * ret, or -1 when the writing or the saving failed.
 */
int cli_output(struct strbuf *out, int ret);
int cli_finish(struct run_context *ctx, struct run *run, struct strbuf *out,
	       int ret);


struct report;

/* A report of what run judged: its candidates, branch, rules, archives. */
void cli_report(struct report *r, struct run *run);
/*
 * The rest a mail needs: the sender (the repository's identity, else
 * "stablepick"; *me to free with git_signature_free()), To
 * (stablepick.to), Cc (run_mail_cc(), written into cc) and the date
 * (ledger_now()).  0, or -1 after an error message.
 */
int cli_report_sender(struct run_context *ctx, struct run *run,
		      struct report *r, git_signature **me, struct strbuf *cc);

/*
 * The run's set-up and mainline walk as the options a ask: the branch
 * and upstream, --range, --subsystem.  0 or -1 after an error message.
 */
int cli_run_scan(struct run_context *ctx, struct run *run,
		 const struct cli_args *a);

#endif
