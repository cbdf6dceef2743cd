#ifndef TESTRUN_H
#define TESTRUN_H

#include "run/run.h"
#include "formats/testannot.h"

/*
 * stablepick tests: which fstests and LTP regression tests name, as
 * the fix of their bug, a kernel commit the branch lacks.  The commits
 * the annotations name are judged by the presence machinery of propose
 * (ancestry, upstream lines, patch-id, subject); a test is
 * expected-fail when one is missing, unknown when one cannot be found,
 * else expected-pass.
 *
 *     struct tests_run t;
 *     tests_run_init(&t);
 *     tests_read_suite(&t.set, "xfstests-dev", "fstests");
 *     run_setup(ctx, &run, branch, NULL); run_scan(ctx, &run);
 *     tests_resolve(ctx, &run, &t);       the commit of each annotation
 *     tests_judge(ctx, &run, &t);         judged as propose judges them
 *     tests_settle(&t);                   each annotation's state
 *     tests_group(&t, &list, &nr);        and each test's status
 *     ... report-tests.h writes them ...
 *     tests_run_release(&t);
 */

/* Where an annotated commit stands, worst last but one. */
enum fix_state {
	FIX_PRESENT,			/* the branch has it */
	FIX_MAYBE,			/* only its subject is in the branch */
	FIX_NOT_NEEDED,			/* absent, and so is the bug it fixes */
	FIX_MISSING,			/* absent: a backport candidate */
	FIX_UNRESOLVED,			/* no commit found for it */
	FIX_IGNORED,			/* a CVE tag, or another filesystem */
};

enum test_status { TEST_PASS, TEST_FAIL, TEST_UNKNOWN, TEST__NR };

/* "present", ...; "expected-pass", "expected-fail", "unknown". */
const char *fix_state_name(enum fix_state s);
const char *test_status_name(enum test_status s);

/* One annotation, judged. */
struct named {
	const struct testannot *a;
	enum fix_state state;
	int resolved;
	git_oid id;			/* the commit judged, when resolved */
	struct candidate *c;		/* its candidate, when judged */
	char *how;			/* how it was resolved, or NULL */
	char *detail;			/* the evidence for the state */
	char *subject;			/* of the commit, when not judged */
};

/* The subject to show: the commit's, else the annotation's, else "". */
const char *named_subject(const struct named *n);

struct tests_run {
	struct testannot_set set;
	struct named *named;		/* parallel to set.items */
	/* The commits named outside the range, once each. */
	struct candidate_list cands;
	const char *fstyp;		/* --fstyp, or NULL */
};

/* A test: the annotations [first, first + nr) of the set. */
struct test {
	size_t first, nr;
	enum test_status status;
	int shown;			/* some annotation is not ignored, or a CVE */
};

void tests_run_init(struct tests_run *t);
void tests_run_release(struct tests_run *t);

/*
 * Reads the annotations of a checkout: suite "fstests" or "ltp", or
 * NULL to tell by its directories (tests/ and common/, or testcases/).
 * Problems in the sources are warnings.
 */
int tests_read_suite(struct testannot_set *set, const char *dir,
		     const char *suite);

/*
 * Finds the commit of every annotation (none for CVE tags and for
 * another filesystem than --fstyp).  A linux-stable-git commit stands
 * for itself when the branch has it, else for the mainline commit its
 * upstream line names, when there is one.  After run_scan().
 */
int tests_resolve(struct run_context *ctx, struct run *run,
		  struct tests_run *t);

/*
 * Every commit named is judged as propose judges it: those of the
 * range with the range (every changed path counts for patch-ids: the
 * fixes tests name are in mm/ and net/ too), the others alone.  A
 * missing fix whose bug is not in the branch either (every commit its
 * Fixes: names is absent) is not applicable there: not needed.
 */
int tests_judge(struct run_context *ctx, struct run *run,
		struct tests_run *t);

/* Each annotation's state and detail, from its judged candidate. */
void tests_settle(struct tests_run *t);

/* The tests (annotations of one test file), with their status. */
void tests_group(const struct tests_run *t, struct test **out,
		 size_t *nr_out);

/*
 * propose --tests-from DIR: the commits of the range that the
 * regression tests of DIR (an fstests or LTP checkout) name as their
 * fix become candidates, each with the fact "named-by-test" and the
 * tests in named_by.  After run_scan(), before run_judge().  Returns 0
 * or -1 after an error message.
 */
int tests_named_by(struct run_context *ctx, struct run *run,
		   const char *dir);

#endif
