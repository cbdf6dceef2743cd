#ifndef REPORT_RULES_H
#define REPORT_RULES_H

#include "formats/rules.h"
#include "base/strbuf.h"
#include "stages/gaps.h"

/*
 * What rules check and rules list print.  report_rule_file(): "PATH:
 * ok (N subsystems, N rules, N vetoes, N links, version V)", the rules
 * and vetoes inside the file's subsystem blocks counted too, vetoes,
 * links and version only when there are some, then "standalone" for a
 * file that says so and "generic part only" for the default.rules a
 * standalone directory keeps the generic part of (rules.h).  report_subsystem_names():
 * the names of the subsystems (not the templates), sorted, a line each
 * (written through report_write(): a derived name is a directory name
 * of the repository, which a terminal must not take for escapes).
 */
void report_rule_file(struct strbuf *out, const struct ruleset *rs,
		      const struct rule_file *f);
void report_subsystem_names(struct strbuf *out, const struct ruleset *rs);

/*
 * What rules check says of the gaps of the rules in range (gaps.h):
 *
 *     gaps in v1.0..master: 5 of 12 commits change files no subsystem
 *     watches, 3 of them no watched file at all
 *           4  src/
 *           2  tests/
 *     2 commits change files at the top of the tree, which no path spec names
 *
 * (the first two lines are one), the REPORT_GAPS_TOP directories with
 * the most commits, then how many more; or "no gaps in RANGE: every
 * file its N commits change is watched".
 */
#define REPORT_GAPS_TOP 10
void report_gaps(struct strbuf *out, const struct gaps *g, const char *range);

#endif
