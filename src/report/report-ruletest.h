#ifndef REPORT_RULETEST_H
#define REPORT_RULETEST_H

#include "stages/ruletest.h"
#include "base/strbuf.h"

/* What rules test prints (ruletest.h). */
#define RULETEST_MESSAGES 1	/* a line per message, with its reasons */
#define RULETEST_SWEEP 2	/* the counts at every score as threshold */

/* The summary, the rules, and what the flags ask for. */
void report_ruletest_text(struct strbuf *out, const struct ruletest *t,
			  int flags);
/* The same as JSON Lines: "summary", "rule", "message", "sweep" objects. */
void report_ruletest_json(struct strbuf *out, const struct ruletest *t,
			  int flags);

#endif
