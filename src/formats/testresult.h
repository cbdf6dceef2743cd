#ifndef TESTRESULT_H
#define TESTRESULT_H

#include <stddef.h>

/*
 * What a test run did: the files fstests and LTP leave, read into one
 * list of (config, test, outcome).  No repository; src/resultrun.h
 * judges them against a branch.
 *
 *     struct result_set set;
 *     result_set_init(&set);
 *     if (result_read(&set, "results/xfs_4k/result.xml", 0) < 0)
 *             ... error printed ...
 *     for (i = 0; i < set.nr; i++)
 *             ... set.items[i].config, .test, .outcome ...
 *     result_set_release(&set);
 *
 * Each file is told by its text, not by its name:
 *
 * fstests' xunit report (check -R xunit: results/SECTION/result.xml),
 *     one <testsuite> with a <testcase name="xfs/123"> per test, a
 *     <failure> or <error> child when it failed, <skipped> when it was
 *     not run; or a <testsuites> root holding one <testsuite> per
 *     config (xfstests-bld's merged results.xml).  The config is the
 *     suite's TESTCFG or FSTESTCFG property (xfstests-bld), else
 *     SECTION, else the "xfstests.SECTION" of the first classname,
 *     else "global"; the kernel is the KERNEL property, else the
 *     release in PLATFORM ("Linux/x86_64 host 6.1.55 ..."); the
 *     filesystem is FSTYP.  A test listed several times (retried,
 *     merged shards) failed when any run failed: "flaky" when another
 *     passed.
 * fstests' check.log: blocks of "Ran:", "Not run:" and "Failures:"
 *     lines, a run appending one per section, after a "SECTION       --
 *     NAME" line when the run had sections; the last block of each
 *     section is read.  A block without a SECTION line is of the
 *     directory holding the file (results/SECTION/check.log), or of
 *     "global" in results/.
 * an fstests results/ directory: each section (results/SECTION/, or
 *     results/ itself without sections) through its result.xml, else
 *     its check.log, else its files: TEST.out.bad or TEST.dmesg failed,
 *     TEST.notrun skipped, TEST.full or TEST.out passed.
 * LTP's runltp log (ltp-pan -l): "TAG  PASS|FAIL|BROK|CONF|WARN  EXIT"
 *     lines after the "Testcase  Result  Exit Value" header, or the
 *     "tag=TAG ... stat=N" lines without -p; "Kernel Version:" in its
 *     summary.  Config "ltp".
 * LTP's kirk report (--json-report): results[].test_fqn and .status
 *     ("pass", "fail", "brok", "conf", "warn"), environment.kernel.
 *     Config "ltp".
 * an expunge list (kdevops expunges/, xfstests-bld *.exclude): a test a
 *     line, "#" starts a comment, the comment after a test is its
 *     reason.  Only as a baseline (expunge set).  Its config is its
 *     file name without the extension; "all" (and any name no config
 *     of the run has) stands for every config.
 *
 * Tests are named as the suite names them: "xfs/123" for fstests (the
 * suite "fstests"), the runtest tag for LTP ("ltp").
 */

enum result_outcome { RESULT_PASS, RESULT_FAIL, RESULT_SKIP };

struct result_item {
	char *config;
	char *test;
	const char *suite;		/* "fstests" or "ltp" (static) */
	enum result_outcome outcome;
	unsigned runs, failures;	/* runs that failed: flaky if < runs */
	char *message;			/* the failure's message, or NULL */
	char *file;			/* the file that said so */
	unsigned line;			/* where, when the format has lines */
	char *reason;			/* an expunge list's comment, or NULL */
};

/* What a file says of the run of one config. */
struct result_config {
	char *name;
	char *kernel;			/* "6.1.55-00012-gabc..." or NULL */
	char *fstyp;			/* FSTYP, or NULL */
	char *file;
};

struct result_set {
	struct result_item *items;	/* sorted: result_set_sort() */
	size_t nr, alloc;
	struct result_config *configs;
	size_t nr_configs, alloc_configs;
	struct result_item *expunged;	/* from expunge lists */
	size_t nr_expunged, alloc_expunged;
};

void result_set_init(struct result_set *set);
void result_set_release(struct result_set *set);

#define RESULT_BASELINE 1		/* expunge lists allowed */

/*
 * Reads one results file or directory into set.  Returns 0, or -1
 * after "error: FILE[:LINE]: cause" (a file that cannot be read, is
 * none of the forms above, or is not well formed; an expunge list
 * without RESULT_BASELINE).
 */
int result_read(struct result_set *set, const char *path, unsigned flags);

/*
 * The parsers result_read() uses, on text in memory (for tests and
 * fuzzing): path names the file in items and messages; config is the
 * config a format without one gets (check.log, expunge lists).  buf
 * needs no NUL at the end.  Return 0, or -1 after an error.
 */
int result_parse_xunit(struct result_set *set, const char *path,
		       const char *buf, size_t len);
int result_parse_check_log(struct result_set *set, const char *path,
			   const char *config, const char *buf, size_t len);
int result_parse_ltp_log(struct result_set *set, const char *path,
			 const char *buf, size_t len);
int result_parse_kirk(struct result_set *set, const char *path,
		      const char *buf, size_t len);
int result_parse_expunge(struct result_set *set, const char *path,
			 const char *config, const char *buf, size_t len);

/*
 * Merges repeated (config, test) items (runs and failures added) and
 * sorts by config, then test.  After the last read.
 */
void result_set_sort(struct result_set *set);

/* The config named, or NULL. */
const struct result_config *result_config_find(const struct result_set *set,
					       const char *name);

/* The item of (config, test), or NULL; after result_set_sort(). */
const struct result_item *result_find(const struct result_set *set,
				      const char *config, const char *test);

const char *result_outcome_name(enum result_outcome o);

#endif
