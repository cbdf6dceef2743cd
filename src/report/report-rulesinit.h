#ifndef REPORT_RULESINIT_H
#define REPORT_RULESINIT_H

#include "base/strbuf.h"
#include "run/rulesrun.h"
#include "stages/survey.h"

/*
 * The starter overlay rules init writes (stablepick(1)): standalone,
 * the release-tags guessed, the backport lines and the lines naming a
 * commit found with their counts, one subsystem per directory; every
 * line a maintainer should judge has a comment.  The backport forms are
 * commented out, each after a line with REPORT_BACKPORT_MARK, until the
 * `backport` directive parses.
 */
#define REPORT_BACKPORT_MARK "# i36: uncomment once backport parses"
void report_rules_init(struct strbuf *out, const struct survey *s,
		       const struct rules_range *r, const char *spec);

#endif
