#ifndef MULTIRUN_H
#define MULTIRUN_H

#include "run/run.h"

/*
 * Runs of several branches (propose --branch A --branch 'linux-*.y'):
 * each branch is judged as a run of its own would judge it, newest
 * first, one after the other in one process; the caches a run saves
 * are those the next one loads (the walk of a range, the patch-ids of
 * mainline commits, the trial picks are made once).  Between them, the
 * stable rule that "newer trees first": a candidate that a newer branch
 * of the run carries gets the fact in-newer-branch before it is scored,
 * and a commit an older branch is to take that a newer one lacks is
 * flagged with that branch and its verdict (candidate.h).
 *
 *     multirun_expand(ctx, specs, nr, &names, &n);   names and globs
 *     multirun_order(ctx, names, n);                 newest first
 *     for each i: set up and scan runs[i], then
 *         multirun_mark_newer(&runs[i], runs, i);
 *         judge runs[i];
 *         multirun_flag_newer_lacking(&runs[i], runs, i);
 *         run_save(ctx, &runs[i]);
 */

/*
 * The branches the --branch values name: a name as
 * branch_resolve_name() finds it (origin/NAME for NAME in a fresh
 * clone), or a glob (with * ? [) as branch_glob() matches it, each
 * branch once, in the order given and, for a glob, in name order.  A
 * glob that matches nothing is an error.  *names is the caller's to
 * free (free_string_array()).  Returns 0 or -1.
 */
int multirun_expand(struct run_context *ctx, const char *const *specs,
		    size_t nr, char ***names, size_t *nr_names);

/*
 * Sorts names newest first by the version of each: its
 * stablepick.<branch>.version, else the first "X.Y" in its name
 * ("linux-6.6.y", "vendor-5.15"); those without one last, as given.
 */
void multirun_order(struct run_context *ctx, char **names, size_t nr);

/*
 * The fact in-newer-branch on each candidate of run that one of the
 * judged runs newer[0..nr) of a newer version took after its base (a
 * backport presence found there: its maintainers took it as a fix; a
 * commit below the newer base is mainline history, no signal).  After
 * the scan, before the judging.
 */
void multirun_mark_newer(struct run *run, const struct run *newer, size_t nr);

/*
 * After run is judged: each commit it is to take (proposed, needs-ack,
 * accepted) gets the newer runs whose branch lacks it and is not to
 * take it either (a candidate there, neither present nor maybe-present,
 * below the threshold, rejected, not-applicable, ...), with their
 * verdicts: a user who upgrades would lose the fix.
 */
void multirun_flag_newer_lacking(struct run *run, const struct run *newer,
				 size_t nr);

#endif
