#ifndef EVAL_H
#define EVAL_H

#include <limits.h>
#include <stddef.h>

#include "candidate/candidate.h"
#include "formats/rules.h"
#include "stages/match.h"

/*
 * Measuring the rules against what a stable branch took: the judged
 * candidates of a range (presence, links and scores done, see
 * run_judge_scores()) become a labelled set, and each selector's
 * decision is counted against the labels.
 *
 *     struct eval ev;
 *     eval_init(&ev);
 *     if (eval_run(&ev, &candidates, &match) < 0)
 *             ... error printed ...
 *     ... ev.all[EVAL_RULES].tp, eval_precision(&ev.all[EVAL_RULES]) ...
 *     eval_release(&ev);
 *
 * Labels.  A candidate the branch carries (ancestry, an upstream line,
 * the same change by patch-id) is positive.  One it does not carry is
 * excluded when the tool knows why the branch could not have taken it
 * (the reasons below), else negative:
 *
 *   subject-only         only a commit of the same subject is in the
 *                        branch: carried or not, nobody can say
 *   reverted             mainline reverted it
 *   version-hint         its Cc: stable tag asks for later versions
 *   revert-of-absent     it reverts a commit the branch lacks
 *   bug-not-in-branch    every commit its Fixes: tags name is absent
 *   file-not-in-branch   the branch lacks every watched file it changes
 *   already-in-branch    the branch has its change through a twin
 *                        (match_twins()): a commit of its subject and
 *                        patch-id below the base, or a candidate of the
 *                        range the branch carries; mainline took the
 *                        change twice, and the branch has it once
 *   after-last-backport  newer than the newest candidate the branch
 *                        carries: the branch has not got that far
 *
 * Selectors, each a "should the branch take it" that ignores whether it
 * has it (that would make the question trivial):
 *
 *   rules        the loaded rules: the score reaches the threshold of
 *                its subsystem, no veto matched, and an opt-in
 *                subsystem's commit has a Cc: stable tag (a commit
 *                that needs an ack is not taken)
 *   cc-stable    a Cc: stable tag
 *   fixes        a Fixes: tag naming a commit the branch carries
 *   cc-or-fixes  either
 */

enum eval_label { EVAL_POSITIVE, EVAL_NEGATIVE, EVAL_EXCLUDED };

enum eval_selector {
	EVAL_RULES,
	EVAL_CC_STABLE,
	EVAL_FIXES,
	EVAL_CC_OR_FIXES,
	EVAL__SELECTORS
};

/* "rules", "cc-stable", "fixes", "cc-or-fixes". */
const char *eval_selector_name(enum eval_selector s);

/* The exclusion reasons, in the order above; NULL after the last. */
extern const char *const eval_reasons[];
#define EVAL__REASONS 8

struct eval_counts {
	size_t tp, fp, fn, tn;
};

/* tp / (tp + fp), tp / (tp + fn), their harmonic mean; -1 if undefined. */
double eval_precision(const struct eval_counts *c);
double eval_recall(const struct eval_counts *c);
double eval_f1(const struct eval_counts *c);

struct eval_item {
	struct candidate *c;
	enum eval_label label;
	size_t reason;			/* index in eval_reasons when excluded */
	const char *subsystem;		/* primary, "-" for none */
	int pick[EVAL__SELECTORS];
	/* already-in-branch: the twin, its candidate when in the range. */
	git_oid twin;
	const struct candidate *twin_cand;
};

struct eval_subsystem {
	const char *name;
	struct eval_counts sel[EVAL__SELECTORS];
	size_t positives, negatives;
};

struct eval {
	const char *branch;		/* for the JSON objects; borrowed */
	struct eval_item *items;	/* in walk order */
	size_t nr, alloc;
	size_t positives, negatives, excluded;
	size_t by_reason[EVAL__REASONS];
	struct eval_counts all[EVAL__SELECTORS];
	struct eval_subsystem *subsystems;	/* by name */
	size_t nr_subsystems, alloc_subsystems;
};

void eval_init(struct eval *ev);
void eval_release(struct eval *ev);

/*
 * Labels the judged candidates and counts every selector; m, the
 * presence engine that judged them, finds the twins (NULL: none are
 * looked for).  Returns 0, or -1 after an error message.
 */
int eval_run(struct eval *ev, const struct candidate_list *l,
	     struct match *m);

/*
 * Counts the rules selector over the labelled items, as above, with
 * threshold for every subsystem, or with each candidate's own when it
 * is EVAL_OWN_THRESHOLD (LLONG_MIN, which no sum of weights reaches: a
 * sweep tries every score as a threshold), and without the rule
 * without (NULL: all rules count).
 */
#define EVAL_OWN_THRESHOLD LLONG_MIN
void eval_count_rules(const struct eval *ev, long long threshold,
		      const struct rule *without, struct eval_counts *out);

#endif
