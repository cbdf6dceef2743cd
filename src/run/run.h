#ifndef RUN_H
#define RUN_H

#include <git2.h>

#include "formats/archive.h"
#include "stages/applywith.h"
#include "stages/branch.h"
#include "formats/config.h"
#include "store/ledger.h"
#include "stages/match.h"
#include "git/patchid.h"
#include "formats/rules.h"
#include "stages/scan.h"
#include "store/scancache.h"
#include "store/state.h"
#include "base/strbuf.h"
#include "store/trialcache.h"

/*
 * A run of the pipeline, in the order the commands call it:
 *
 *     struct run run;
 *     if (run_setup(ctx, &run, "linux-6.6.y", NULL) < 0 ||   caches, ledger,
 *         run_open_archives(ctx, &run, paths, nr) < 0 ||     rules, branch
 *         run_scan(ctx, &run) < 0 ||                          the candidates
 *         run_judge(&run, ctx->repo, &run.scan.candidates, NULL) < 0)
 *             ... an error was printed ...
 *     ... report what the candidates hold ...
 *     run_save(ctx, &run);                                    the caches
 *     run_release(&run);
 *
 * run_judge() is the judging: presence (match.h), the posted patches
 * (posted.h), links, facts, scores and verdicts (deps.h, score.h), the
 * prerequisites pulled in, the recorded decisions (the ledger), then
 * soak and trial picks (checks.h).  run_judge_scores() stops after the
 * verdicts of the rules (eval).
 */

/* What main() sets up for every command from the global options. */
struct run_context {
	const char *repo_dir;		/* -C DIR, or NULL for "." */
	const char *config_file;	/* --config FILE, or NULL */
	const char **rules_dirs;	/* --rules DIR, each one given */
	size_t nr_rules_dirs, alloc_rules_dirs;
	const char *cache_dir;		/* --cache DIR, or NULL */
	int no_cache;			/* --no-cache */
	git_repository *repo;		/* opened lazily by run_open_repo() */
	struct config config;		/* loaded lazily by run_open_repo() */
};

/* Opens the repository and reads the configuration; prints errors. */
int run_open_repo(struct run_context *ctx);

/*
 * Loads the rule files: the shipped rules directory, with the
 * directories of --rules (else those of stablepick.rules) laid over
 * it: a file of the same name replaces a shipped one, a new one is
 * added.  Prints every error.
 */
int run_load_rules(struct run_context *ctx, struct ruleset *rs);

/*
 * The rules directories run_load_rules() reads, the shipped one first
 * (the array is the caller's to free, the strings are not).
 */
const char **run_rules_dirs(struct run_context *ctx, size_t *nr);

/*
 * Mainline: upstream when given, else stablepick.upstream, else the
 * first of master, main, origin/master and origin/main that exists.
 * *name is how it was named.  Returns 0 or -1 after an error message.
 */
int run_resolve_upstream(struct run_context *ctx, const char *upstream,
			 git_oid *out, const char **name);

/* The directory of the shipped rules (source tree or installed). */
const char *run_default_rules_dir(void);

void run_context_release(struct run_context *ctx);

/*
 * What propose and explain share: the rules, the branch index, and a
 * scanner set up for the range from the branch's base to upstream.
 */
struct run {
	struct ruleset rules;
	struct branch_index branch;
	struct scan scan;
	struct patchid_cache patchids;	/* <cache dir>/patchid-cache */
	struct scancache scans;		/* <cache dir>/scan-cache */
	struct trialcache trials;	/* <cache dir>/trial-cache */
	struct trialcache *trial_cache;	/* &trials, NULL with --no-cache */
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
	/*
	 * Mainline commits the mail series carries as prerequisites that
	 * the scan did not find (outside the watched paths).
	 */
	struct candidate_list outside;
	/* The bounds of that search: the defaults, or the settings. */
	struct applywith_limits series_limits;
};

/*
 * The presence engine of the run, set up on first use; after
 * run_scan().
 */
struct match *run_match(struct run *run, git_repository *repo);

/*
 * The file of a cache: in --cache DIR, else in <gitdir>/stablepick/.
 * NULL with --no-cache.
 */
char *run_cache_path(struct run_context *ctx, const char *name);

/*
 * Scans the range set up (scan_run()), then makes sure the branch base
 * taken from the cache is the merge base (see run_setup()).
 * Returns 0 or -1 after an error message.
 */
int run_scan(struct run_context *ctx, struct run *run);

/*
 * The patch-id cache of the run's cache directory, loaded (empty with
 * --no-cache); for run_setup() and the commands with runs of their own.
 */
void run_open_patchids(struct run_context *ctx, struct patchid_cache *pc);

/*
 * The bounds of the series search (applywith.h): the defaults, with
 * stablepick.seriesSize, seriesDepth and seriesTrials where set.
 */
void run_series_limits(const struct run_context *ctx,
		       struct applywith_limits *lim);

/*
 * A repository just made (git init) has no mainline, no branch and no
 * base: -1 after "the repository has no commits yet", else 0.
 */
int run_check_history(git_repository *repo);

/*
 * Opens the repository, loads the rules, resolves upstream (the option,
 * else stablepick.upstream, else the first of master, main,
 * origin/master and origin/main) and indexes the branch, found as
 * branch_resolve_name() finds it.  Returns 0 or -1 after an error
 * message.
 */
int run_setup(struct run_context *ctx, struct run *run,
		  const char *branch, const char *upstream);
void run_release(struct run *run);

/*
 * The list archives: the paths given (--archive), else every value of
 * stablepick.archive; none, nothing happens.  Indexed (with their
 * caches, <cache dir>/archives/) so that judging finds each
 * candidate's posted patch, series and replies (posted.h).  Returns 0
 * or -1 after an error message.
 */
int run_open_archives(struct run_context *ctx, struct run *run,
		      const char *const *paths, size_t nr);

/*
 * Saves what the run learnt (the patch-id, scan and trial caches).  A cache only
 * saves time: a failure to write one is reported and the run goes on.
 */
int run_save(struct run_context *ctx, struct run *run);

/*
 * The proposal mail's Cc: stablepick.cc (empty for none), else the
 * rules' cc directive ("cc stable@vger.kernel.org" in default.rules),
 * else none.  Written into buf, which the result may point into.
 */
const char *run_mail_cc(struct run_context *ctx, const struct ruleset *rs,
			struct strbuf *buf);

/*
 * Where the FAILED mails tell to fetch the branch from: *url is
 * stablepick.stableUrl, else the URL of the branch's remote (for a
 * remote-tracking branch, or a local one with an upstream), else NULL;
 * *branch is the branch's name there (the name given, without its
 * remote).  The caller frees both.
 */
void run_fetch_source(struct run_context *ctx, const struct run *run,
		      char **url, char **branch);

/* The ledger file: stablepick.ledger, else <gitdir>/stablepick/ledger. */
char *run_ledger_path(struct run_context *ctx);

/*
 * The scanned range judged whole: the list archives of paths opened
 * (run_open_archives()), then run_judge() of every candidate from where
 * the walk started.  Returns 0 or -1.
 */
int run_judge_range(struct run_context *ctx, struct run *run,
		    const char *const *archives, size_t nr);

/*
 * Places, links, scores and judges the candidates of l (in walk order,
 * oldest first): presence in the branch, deps, rules, verdicts.
 * range_from: where the walk started (for ancestry), or NULL to ask
 * the commit graph per candidate.  Returns 0 or -1.
 */
int run_judge(struct run *run, git_repository *repo,
	      struct candidate_list *l, const git_oid *range_from);

/*
 * After run_judge(): the likely prerequisites of the candidates of l
 * that do not apply (only that one, when only is not NULL): see
 * blame.h.  For the outputs that show them (explain, JSON, the mails);
 * a blame per conflicting file is not free.  Returns 0 or -1.
 */
int run_likely_prereqs(struct run *run, git_repository *repo,
		       struct candidate_list *l, struct candidate *only);

/*
 * After run_judge(): for the candidates of l that do not apply (only
 * that one, when only is not NULL), the smallest series of mainline
 * commits after which each does (applywith.h); for all of them, the
 * mail series that carries those series (applywith_carry(), with
 * run->outside).  A blame and trial picks per candidate: for the
 * outputs that show it.  0 or -1.
 */
int run_applies_with(struct run *run, git_repository *repo,
		     struct candidate_list *l, struct candidate *only);

/*
 * After run_judge(), for queue: the series that makes each accepted
 * commit that does not apply in the queue apply, queued before it
 * (applywith_queue(), with run->outside).  0 or -1.
 */
int run_queue_series(struct run *run, git_repository *repo);

/*
 * The same up to the verdicts from the rules: no prerequisites pulled
 * in, no recorded decisions, no soak or trial picks (eval).
 */
int run_judge_scores(struct run *run, git_repository *repo,
		     struct candidate_list *l, const git_oid *range_from);

/*
 * After run_judge_scores(): the recorded decisions (the ledger) and the
 * soak, as run_judge() takes them, without its trial picks: what a
 * command judging without them (tests, results, cves' commits outside
 * the range) says of a commit accepted, rejected, deferred or waiting
 * is what propose says.  0 or -1.
 */
int run_judge_verdicts(struct run *run, git_repository *repo,
		       struct candidate_list *l);

/*
 * propose --since REV|last: the candidates an earlier run already
 * listed (those up to REV, or up to the mainline tip the last --since
 * last run saw) are hidden from every format (listed_before); the
 * judging still saw them, so that links across weeks stay right.  When
 * mainline has not moved since that run, what that run hid is hidden
 * again (the mbox after the email lists the same commits).
 *
 * With "last", a hidden candidate that was not eligible at the tip
 * before (waiting, deferred, needs-ack, held, does not apply ...), or
 * was deferred after its last run, and is now (proposed, or accepted
 * in the ledger) is listed again, with
 * c->newly saying why and c->newly_was what it was; the second run at
 * a tip compares with the same tip before, so it lists the same.
 *
 * After run_judge(); *st (initialized, or zeroed) gets the state to keep
 * with run_since_save() for "last", and is freed with state_release().
 * Returns 0 or -1 after an error message.
 */
int run_since(struct run *run, git_repository *repo, const char *since,
	      struct state *st);
int run_since_save(struct run *run, const struct state *st);
/*
 * After a run that paged (the email, the mbox): records in *st the
 * candidates its mails left for later (c->paged), for the runs at the
 * next tip to list, and forgets the mark of those it listed.  A run
 * that pages nothing keeps the marks as they were (relist()).
 */
void run_since_paged(const struct run *run, struct state *st);

/*
 * The rules propose would load here: --rules DIR, else the
 * stablepick.rules setting of the repository here (if there is one),
 * else the shipped rules.
 */
int run_load_rules_here(struct run_context *ctx, struct ruleset *rs);

/*
 * In a repository with a mainline, the path specs are checked against
 * its tree as a scan checks them: "fs/f2fs" names a directory there,
 * and watches nothing without its slash.  Without a repository or a
 * mainline, there is nothing to check them against.  0 or -1.
 */
int run_check_rule_paths(struct run_context *ctx, struct ruleset *rs);

/*
 * Adds the subsystems the templates stand for in upstream's tree, as
 * a scan would (scan_prepare()).  In a repository without a mainline
 * to take (no --upstream, no stablepick.upstream, no master or main)
 * that is an error: the list would lack the directories.  Returns 0 or
 * -1 after an error.
 */
int run_expand_templates(struct run_context *ctx, struct ruleset *rs,
			 const char *upstream);

/*
 * The maintainers of each opt-in subsystem of the run's rules (its
 * "maintainer" lines and the MAINTAINERS file of upstream's tree:
 * review_maintainers()), for the review round.  *out to free with
 * run_review_people_release().  Returns 0 or -1 after an error.
 */
struct review_people;		/* review.h */
int run_review_people(struct run *run, git_repository *repo,
		      struct review_people **out, size_t *nr);
void run_review_people_release(struct review_people *v, size_t nr);

#endif
