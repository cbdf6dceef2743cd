#ifndef REPORT_RULES_H
#define REPORT_RULES_H

#include "formats/rules.h"
#include "base/strbuf.h"

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

#endif
