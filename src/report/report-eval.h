#ifndef REPORT_EVAL_H
#define REPORT_EVAL_H

#include "stages/eval.h"
#include "run/run.h"
#include "base/strbuf.h"

/*
 * The output of stablepick eval (eval.h), as text or (json set) JSON
 * Lines with a "type" each: the labels and the table of the selectors,
 * overall and per subsystem; the commits behind a label's numbers (the
 * misses of the positives, the false picks of the negatives, and
 * apart the commits the rules pick that the branch has through a
 * twin, already-in-branch); the
 * counts at every threshold; the counts without each rule in turn.
 */
void report_eval_table(struct strbuf *out, const struct run *run,
		       const struct eval *ev, int json);
void report_eval_items(struct strbuf *out, const struct eval *ev,
		       enum eval_label label, int json);
void report_eval_twins(struct strbuf *out, const struct eval *ev, int json);
void report_eval_sweep(struct strbuf *out, const struct eval *ev, int json);
void report_eval_ablation(struct strbuf *out, const struct eval *ev,
			  const struct ruleset *rs, int json);

#endif
