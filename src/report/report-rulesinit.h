#ifndef REPORT_RULESINIT_H
#define REPORT_RULESINIT_H

#include "base/strbuf.h"
#include "run/rulesrun.h"
#include "stages/survey.h"

/*
 * The starter overlay rules init writes (stablepick(1)): standalone,
 * the release-tags guessed, the backport lines and the lines naming a
 * commit found with their counts, one subsystem per directory; every
 * line a maintainer should judge has a comment.  A backport form the
 * shipped default.rules declares (the kernel's three, which a standalone
 * overlay loads) is named as read by it; any other found is declared.
 */
void report_rules_init(struct strbuf *out, const struct survey *s,
		       const struct rules_range *r, const char *spec);

#endif
