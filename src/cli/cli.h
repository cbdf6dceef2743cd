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
struct memo;

/*
 * The end of a command, the same for all of them: cli_end() alone
 * writes what a command computed, saves what its run learnt and turns
 * the outcome into the exit status.  A command says what it has (a
 * member it has not stays 0) and returns what cli_end() returns:
 *
 *     struct cli_end end = { 0 };
 *
 *     ret = cli_run_scan(ctx, &run, &a);
 *     ... judge, then render into out ...
 *     end.out = &out;
 *     end.run = &run;
 *     return cli_end(ctx, &end, ret);
 *
 * A command that fails before it has anything to write or save returns
 * cli_end(ctx, NULL, -1); one given a wrong command line, cli_usage()
 * or cli_parse_status() (129, or 0 after -h).  A command of several
 * runs (eval, explain, propose of several branches) saves each before
 * the next starts, and releases them itself; patch-id, which writes
 * its lines itself a chunk at a time, passes no end.
 */
struct cli_end {
	struct strbuf *out;	/* the output, for standard output; released */
	const char *file;	/* --output FILE: out goes there instead */
	const char *file_what;	/* the file in its errors ("test list") */
	struct memo *memo;	/* keeps out as the answer once written */
	char *note;		/* a line for stderr once out is written; freed */
	struct run *run;	/* its caches saved, then released */
	const struct state *since;	/* propose --since last: saved after */
	unsigned trace;		/* CLI_TRACE_*: the stages traced */
};

/*
 * The status of acks and ledger sync when they skipped something (a
 * mail they cannot trust or read, a decision dated in the future),
 * named in a warning or their output, and did the rest.
 */
#define CLI_SKIPPED 3

/* The stages cli_end() traces (trace.h), whether or not all went well. */
#define CLI_TRACE_REPORT 1	/* "report", after the writing */
#define CLI_TRACE_SAVE 2	/* "save", after the saving */

/*
 * Ends a command.  A status below 0 says an error came first (and was
 * reported): nothing is written or saved.  Otherwise, in this order,
 * each only when all before it went well: out is written to standard
 * output (through report_write()) or, with file, to that file whole or
 * not at all (write_file_atomic()); memo keeps it; note goes to
 * stderr; the run's caches are saved (run_save()) and then since
 * (run_since_save()).  What fails says so on stderr where it fails.
 * out, note and the run are released whatever happened; end may be
 * NULL for none of them.
 *
 * Returns the exit status: status when all went well (0, or one the
 * command gives its result: 2 when audit rejects a pick, 1 when
 * explain could not explain a commit, CLI_SKIPPED), else 1.
 */
int cli_end(struct run_context *ctx, struct cli_end *end, int status);


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
