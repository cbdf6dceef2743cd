#ifndef REPORT_TESTS_H
#define REPORT_TESTS_H

#include "base/strbuf.h"
#include "run/testrun.h"

/*
 * The output of stablepick tests (testrun.h).  Text: a header, each
 * test whose status is in mask (a bit per enum test_status) with its
 * annotations, the counts and the backport candidates once each.
 * JSON: one object per test, a line each.  Exclude: "xfs/123 # missing
 * 1a2b3c4d5e6f (...)", as fstests' check -E reads it.
 */
void report_tests_text(struct strbuf *out, const struct run *run,
		       const struct tests_run *t, const struct test *tests,
		       size_t nr, unsigned mask);
void report_tests_json(struct strbuf *out, const struct tests_run *t,
		       const struct test *x);
void report_tests_exclude(struct strbuf *out, const struct tests_run *t,
			  const struct test *x);

#endif
