#ifndef RESULTRUN_H
#define RESULTRUN_H

#include "formats/testresult.h"
#include "run/testrun.h"

/*
 * stablepick results: what each failure of a test run means for the
 * branch.  The annotations of the test sources (testrun.h) are judged
 * as stablepick tests judges them; then each (config, test) of the
 * run's results (testresult.h) gets one class, tried in this order:
 *
 *   baseline         it fails in the baseline too: listed in an
 *                    expunge list of its config (or of all), or failed
 *                    in a baseline run of the same config;
 *   missing-fix      an annotation names a fix the branch lacks: the
 *                    fix, with its verdict (propose's rules);
 *   fix-present      the fixes it names are all in the branch: a
 *                    regression or an incomplete backport, with the
 *                    backport commit;
 *   new              it passed in the baseline run of its config: the
 *                    branch commits between the two runs' kernels that
 *                    touch what the test exercises, newest first;
 *   unexplained      none of these;
 *
 * and a test that passed though a fix it names seems missing is an
 * unexpected-pass: that presence verdict is to be checked.  A baseline
 * failure whose fix is missing keeps that fix in its commits: fixing
 * it is how a baseline shrinks.  Annotations only on another
 * filesystem than the config's FSTYP (or --fstyp) do not count.
 *
 *     struct results_run r;
 *     results_run_init(&r);
 *     result_read(&r.now, ...); result_read(&r.base, ..., RESULT_BASELINE);
 *     tests_read_suite(&r.t.set, dir, ...); results_read_runtest(&r, ltp);
 *     ... run_scan(), tests_resolve/judge/settle(&r.t) ...
 *     results_classify(ctx, run, &r);
 *     ... r.v[0 .. r.nr) ...
 *     results_run_release(&r);
 */

enum result_class {
	CLASS_BASELINE,
	CLASS_MISSING_FIX,
	CLASS_FIX_PRESENT,
	CLASS_NEW,
	CLASS_UNEXPLAINED,
	CLASS_UNEXPECTED_PASS,
	CLASS__NR
};

/* "baseline", "missing-fix", ...: stable names for output. */
const char *result_class_name(enum result_class c);

/* A commit behind a class, and its part in it. */
struct result_commit {
	git_oid id;
	const char *role;		/* "missing-fix", "fix", "backport",
					   "suspect" (static) */
	char *subject;
	char *state;			/* "missing, proposed (score 20)" ... */
	char *detail;			/* presence evidence, or NULL */
	git_time_t time;
};

struct result_verdict {
	const struct result_item *item;	/* in now */
	enum result_class cls;
	struct result_commit *commits;
	size_t nr_commits, alloc_commits;
	size_t nr_suspects_total;	/* new: before the cap of the text */
	char *evidence;			/* one or a few sentences */
};

/* A runtest tag of LTP that runs a test of another name. */
struct runtest_alias {
	char *tag, *test;
};

struct results_run {
	struct tests_run t;
	struct result_set now, base;
	struct result_verdict *v;	/* in the order of now's items */
	size_t nr, alloc;
	struct runtest_alias *aliases;	/* sorted by tag */
	size_t nr_aliases, alloc_aliases;
	const char *kernel;		/* --kernel REV, or NULL */
	const char *baseline_kernel;	/* --baseline-kernel REV, or NULL */
	const char *fstyp;		/* --fstyp, or NULL */
	size_t passed, skipped;		/* items not classified */
};

void results_run_init(struct results_run *r);
void results_run_release(struct results_run *r);

/*
 * The runtest files of an LTP checkout (runtest/NAME: "TAG COMMAND
 * ARGS..." a line): a tag whose command has another name than the tag
 * ("cve-2017-1000380 snd_timer01") finds its annotations under the
 * command's.  0, or -1 after an error.
 */
int results_read_runtest(struct results_run *r, const char *ltp_dir);

/*
 * Classifies every failed and passed item of r->now.  After
 * tests_settle(&r->t) and result_set_sort() of both sets.  0 or -1.
 */
int results_classify(struct run_context *ctx, struct run *run,
		     struct results_run *r);

/*
 * The paths a test exercises, for the suspects of a new failure:
 * "fs/xfs/" for xfs/123, the filesystem's for generic/ and shared/
 * tests (fstyp, or none known: every path); NULL-terminated, static;
 * an empty list for every path.
 */
const char *const *results_test_paths(const char *suite, const char *test,
				      const char *fstyp);

#endif
