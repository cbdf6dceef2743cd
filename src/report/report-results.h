#ifndef REPORT_RESULTS_H
#define REPORT_RESULTS_H

#include "run/resultrun.h"
#include "base/strbuf.h"

/*
 * The output of stablepick results (resultrun.h), of the verdicts
 * whose class is in mask (a bit per enum result_class) and whose
 * config is config (NULL: every config).
 *
 * Text: a header (branch, configs and their kernels, the baseline), the
 * tests by class (missing-fix, new, fix-present, unexplained,
 * unexpected-pass, baseline), each with its commits and evidence
 * (suspects beyond ten counted, not listed), the tests whose outcome
 * differs between configs, and a count per class and config.
 * JSON Lines: an object per verdict (report_results_json()).
 * Exclude: an expunge list of one config for the next baseline, a
 * failed test a line with its class and reason after "#".
 */
void report_results_text(struct strbuf *out, const struct run *run,
			 const struct results_run *r, unsigned mask,
			 const char *config);
void report_results_json(struct strbuf *out, const struct run *run,
			 const struct results_run *r, unsigned mask,
			 const char *config);
void report_results_exclude(struct strbuf *out, const struct run *run,
			    const struct results_run *r, unsigned mask,
			    const char *config);

#endif
