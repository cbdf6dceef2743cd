#ifndef SCORE_H
#define SCORE_H

#include "candidate/candidate.h"
#include "formats/rules.h"
#include "base/strbuf.h"

/*
 * Scoring and the verdict.  The score is the sum of the weights of the
 * rules that match (global rules and those of every touched subsystem),
 * each counted once and kept as a reason; a matching veto rule is kept
 * apart.  A rule that gives up (match limit) adds a warning, not a hit.
 *
 *     score_candidate(&rs, c);          after the scanner filled c
 *     ... presence evidence added (branch.h) ...
 *     score_decide(c);             sets c->verdict and c->why
 */
void score_candidate(const struct ruleset *rs, struct candidate *c);
void score_decide(struct candidate *c);

/*
 * Appends the names of the rules that applied to c and did not match
 * ("syzbot, reported-by, ..."); returns 0 when there is none.
 */
int score_unmatched(struct strbuf *out, const struct ruleset *rs,
		    const struct candidate *c);

#endif
