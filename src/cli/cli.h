#ifndef CLI_H
#define CLI_H

#include <git2.h>

#include "archive.h"
#include "branch.h"
#include "config.h"
#include "match.h"
#include "rules.h"
#include "scan.h"
#include "strbuf.h"

/*
 * Subcommands, as data (after tmux's cmd-*.c): each src/cli/NAME.c
 * defines one `const struct cli_command cmd_NAME` and main() finds it
 * in the table in cli.c.
 */

/* What main() sets up for every subcommand from the global options. */
struct cli_context {
	const char *repo_dir;		/* -C DIR, or NULL for "." */
	const char *config_file;	/* --config FILE, or NULL */
	const char **rules_dirs;	/* --rules DIR, each one given */
	size_t nr_rules_dirs, alloc_rules_dirs;
	const char *cache_dir;		/* --cache DIR, or NULL */
	int no_cache;			/* --no-cache */
	git_repository *repo;		/* opened lazily by cli_open_repo() */
	struct config config;		/* loaded lazily by cli_open_repo() */
};

struct cli_command {
	const char *name;
	const char *usage;		/* after "stablepick NAME " */
	const char *summary;		/* one line for --help */
	int (*fn)(struct cli_context *ctx, int argc, char **argv);
};

extern const struct cli_command cmd_audit;
extern const struct cli_command cmd_diff;
extern const struct cli_command cmd_eval;
extern const struct cli_command cmd_explain;
extern const struct cli_command cmd_mark;
extern const struct cli_command cmd_patch_id;
extern const struct cli_command cmd_propose;
extern const struct cli_command cmd_rules;
extern const struct cli_command cmd_tests;

extern const struct cli_command *const cli_commands[];

const struct cli_command *cli_find(const char *name);

/* Opens the repository and reads the configuration; prints errors. */
int cli_open_repo(struct cli_context *ctx);

/*
 * Loads the rule files: the shipped rules directory, with the
 * directories of --rules (else those of stablepick.rules) laid over
 * it: a file of the same name replaces a shipped one, a new one is
 * added.  Prints every error.
 */
int cli_load_rules(struct cli_context *ctx, struct ruleset *rs);

/*
 * Mainline: upstream when given, else stablepick.upstream, else the
 * first of master, main, origin/master and origin/main that exists.
 * *name is how it was named.  Returns 0 or -1 after an error message.
 */
int cli_resolve_upstream(struct cli_context *ctx, const char *upstream,
			 git_oid *out, const char **name);

/* The directory of the shipped rules (source tree or installed). */
const char *cli_default_rules_dir(void);

/* Prints "usage: stablepick NAME USAGE" to stderr; returns 129 like git. */
int cli_usage(const struct cli_command *cmd);

/*
 * The index of arg in names (nr of them), the values of --format; -1
 * after "unknown format 'x' (expected a, b or c)".
 */
int cli_format(const char *arg, const char *const *names, size_t nr);

void cli_context_release(struct cli_context *ctx);

/*
 * What propose and explain share: the rules, the branch index, and a
 * scanner set up for the range from the branch's base to upstream.
 */
struct cli_run {
	struct ruleset rules;
	struct branch_index branch;
	struct scan scan;
	struct patchid_cache patchids;	/* <cache dir>/patchid-cache */
	struct scancache scans;		/* <cache dir>/scan-cache */
	struct ledger ledger;		/* decisions; stablepick.ledger */
	git_oid upstream;
	const char *upstream_name;
	struct archive *archive;	/* the list archives, or NULL */
	/*
	 * The presence engine, set up by the first judging (after the
	 * scan), so that every later question of the run uses the same
	 * indexes.
	 */
	struct match match;
	int match_ready;
};

/*
 * The presence engine of the run, set up on first use; after
 * cli_scan().
 */
struct match *cli_match(struct cli_run *run, git_repository *repo);

/*
 * The file of a cache: in --cache DIR, else in <gitdir>/stablepick/.
 * NULL with --no-cache.
 */
char *cli_cache_path(struct cli_context *ctx, const char *name);

/*
 * Scans the range set up (scan_run()), then makes sure the branch base
 * taken from the cache is the merge base (see cli_run_setup()).
 * Returns 0 or -1 after an error message.
 */
int cli_scan(struct cli_context *ctx, struct cli_run *run);

/*
 * Opens the repository, loads the rules, resolves upstream (the option,
 * else stablepick.upstream, else the first of master, main,
 * origin/master and origin/main) and indexes the branch.  Returns 0 or
 * -1 after an error message.
 */
int cli_run_setup(struct cli_context *ctx, struct cli_run *run,
		  const char *branch, const char *upstream);
void cli_run_release(struct cli_run *run);

/*
 * The list archives: the paths given (--archive), else every value of
 * stablepick.archive; none, nothing happens.  Indexed (with their
 * caches, <cache dir>/archives/) so that judging finds each
 * candidate's posted patch, series and replies (posted.h).  Returns 0
 * or -1 after an error message.
 */
int cli_open_archives(struct cli_context *ctx, struct cli_run *run,
		      const char *const *paths, size_t nr);

/*
 * Saves what the run learnt (the patch-id and scan caches).  A cache only
 * saves time: a failure to write one is reported and the run goes on.
 */
int cli_run_save(struct cli_context *ctx, struct cli_run *run);

/*
 * The proposal mail's Cc: stablepick.cc (empty for none), else the
 * rules' cc directive ("cc stable@vger.kernel.org" in default.rules),
 * else none.  Written into buf, which the result may point into.
 */
const char *cli_mail_cc(struct cli_context *ctx, const struct ruleset *rs,
			struct strbuf *buf);

/* The ledger file: stablepick.ledger, else <gitdir>/stablepick/ledger. */
char *cli_ledger_path(struct cli_context *ctx);

/*
 * Places, links, scores and judges the candidates of l (in walk order,
 * oldest first): presence in the branch, deps, rules, verdicts.
 * range_from: where the walk started (for ancestry), or NULL to ask
 * the commit graph per candidate.  Returns 0 or -1.
 */
int cli_judge(struct cli_run *run, git_repository *repo,
	      struct candidate_list *l, const git_oid *range_from);

/*
 * The same up to the verdicts from the rules: no prerequisites pulled
 * in, no recorded decisions, no soak or trial picks (eval).
 */
int cli_judge_scores(struct cli_run *run, git_repository *repo,
		     struct candidate_list *l, const git_oid *range_from);

/*
 * propose --tests-from DIR: the commits of the range that the
 * regression tests of DIR (an fstests or LTP checkout) name as their
 * fix become candidates, each with the fact "named-by-test" and the
 * tests in named_by.  After cli_scan(), before cli_judge().  Returns 0
 * or -1 after an error message.
 */
int cli_tests_named_by(struct cli_context *ctx, struct cli_run *run,
		       const char *dir);

#endif
