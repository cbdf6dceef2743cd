#ifndef TESTANNOT_H
#define TESTANNOT_H

#include <stddef.h>

/*
 * Regression-test annotations: the kernel commits that fstests and LTP
 * tests name as the fix for the bug they reproduce.  This module only
 * reads them from the test sources; whether a branch has those commits
 * is for src/cli/tests.c.  No repository, no network.
 *
 *     struct testannot_set set;
 *     testannot_set_init(&set);
 *     if (testannot_read_fstests(&set, "xfstests-dev") < 0 ||
 *         testannot_read_ltp(&set, "ltp") < 0)
 *             ... error printed ...
 *     for (size_t i = 0; i < set.nr_problems; i++)
 *             ... warn "%s:%u: %s", file, line, message ...
 *     for (size_t i = 0; i < set.nr; i++)
 *             ... set.items[i].test, .kind, .sha, .subject ...
 *     testannot_set_release(&set);
 *
 * fstests (a checkout of xfstests-dev)
 *
 * Tests are the files tests/DIR/NAME whose NAME is all digits; the test
 * is called "DIR/NAME" ("xfs/123", "generic/001").  A test script is
 * read as shell: logical lines (a backslash at the end of a line joins
 * the next), words with '...' and "..." quoting and backslash escapes
 * ($(...), ${...} and `...` are part of a word), "#" comments outside
 * quotes, here-documents skipped, and commands separated by ";", "&&",
 * "||", "|", "then", "else", "do".  These commands are annotations:
 *
 *     _fixed_by_kernel_commit SHA "subject"
 *     _fixed_by_git_commit kernel SHA "subject"
 *     _wants_kernel_commit SHA "subject"        (kind TESTANNOT_WANTS)
 *     _wants_git_commit kernel SHA "subject"    (kind TESTANNOT_WANTS)
 *     _fixed_by_fs_commit FSTYP SHA "subject"   (only on that filesystem)
 *
 * The subject is the rest of the command's words joined by one space
 * (most quote it; some do not), or NULL if that is empty.  how is the
 * words before SHA ("_fixed_by_git_commit kernel", "_fixed_by_fs_commit
 * btrfs").  _fixed_by_git_commit and _wants_git_commit for another
 * package (xfsprogs, e2fsprogs, ...) are not kernel commits and are
 * skipped.  An annotation only on one filesystem ("[ $FSTYP = btrfs ]
 * && _fixed_by_kernel_commit ...", '[ "$FSTYP" == "xfs" ]', 'test
 * "$FSTYP" = ext4 && ...', "[ $FSTYP != xfs ] || ...", or inside
 * 'if [ "$FSTYP" = "btrfs" ]; then ... fi', or the else branch of a
 * "!=" test) gets that filesystem in fstyp; _fixed_by_fs_commit's own
 * filesystem wins.  A condition that also has "||" names none.  SHA
 * is the word as the shell reads it, but for an unquoted word in angle
 * brackets ("<pending-upstream>", "<hash>"): two redirections to the
 * shell, and a placeholder to whoever wrote it, so one word here.  A
 * SHA word with blanks after its first character ("SHA subject" quoted
 * as one argument) is split there, the rest starting the subject.
 *
 * The files common/NAME (regular files; common/ may be missing) hold
 * helper functions, "NAME()" or "function NAME" followed by a body in
 * braces.  A helper whose body has an annotation with a literal commit
 * passes it on to every test that calls the helper, directly or
 * through helpers that call it, cycles and all; each annotation once a
 * test.  Such an item keeps file and line of the annotation in
 * common/, and via names the helper the test itself calls, as
 * "common/xfs:_require_foo".  A call only on one filesystem passes
 * that on in fstyp, to annotations without one of their own.  A name
 * defined in two files has the annotations of both (via names the
 * first file read).  Annotations in common/ outside a helper, and
 * those whose package or SHA is a shell variable ("$1", "$*"), are
 * wrappers or library code: skipped.
 *
 * LTP (a checkout of linux-test-project/ltp)
 *
 * Tests are the C files under testcases/, at any depth; the test is the
 * file name without ".c" ("fanotify10").  Comments are skipped; every
 * brace pair of two string literals whose first is one of these tags
 * is an annotation, wherever it is (in .tags of struct tst_test, or in
 * a separate array of struct tst_tag); its line is that of the "{":
 *
 *     {"linux-git", "SHA"}           TESTANNOT_FIXED_BY
 *     {"linux-stable-git", "SHA"}    TESTANNOT_STABLE (a stable-tree commit)
 *     {"CVE", "2017-1000380"}        TESTANNOT_CVE (sha holds the number)
 *
 * Adjacent string literals concatenate, as in C.  Other tags
 * ("glibc-git") are skipped.  LTP annotations have no subject.
 *
 * Commits as written
 *
 * sha is kept as written.  testannot_sha_ok() tells an abbreviated or
 * full hexadecimal id from a placeholder ("xxxxxxxxxxxx",
 * "<pending-upstream>", "TBD"), which the caller reports as an
 * annotation it cannot resolve, trying the subject instead.
 *
 * Problems
 *
 * Nothing in the sources makes reading fail: an annotation command
 * without a commit, a quote left open at the end of a file, a helper
 * body that does not close, or a tag pair with a missing string is
 * recorded as a problem (file, line, message) and reading goes on.
 * The messages:
 *
 *     '_fixed_by_git_commit kernel' without a commit
 *     quote is not closed               (also '$(' / '${' / '(' ...)
 *     here-document 'EOF' is not closed
 *     helper '_require_foo' is not closed
 *     tag 'linux-git' without a value
 *     comment is not closed
 *
 * A quote left open is reported where it opens; the rest of the file
 * is then read with that quote character as text, so that the
 * annotations after it are still found.  Only a directory or file that
 * cannot be read is an error.
 */

enum testannot_kind {
	TESTANNOT_FIXED_BY,		/* the test reproduces a bug SHA fixed */
	TESTANNOT_WANTS,		/* a feature test needs SHA */
	TESTANNOT_STABLE,		/* LTP linux-stable-git: a stable commit */
	TESTANNOT_CVE,			/* LTP CVE tag: sha is the CVE number */
};

/* "fixed-by", "wants", "stable-fix", "cve": stable names for output. */
const char *testannot_kind_name(enum testannot_kind kind);

struct testannot {
	char *test;			/* "xfs/123", "fanotify10" */
	char *suite;			/* "fstests" or "ltp" (static) */
	enum testannot_kind kind;
	char *how;			/* as written: "_fixed_by_kernel_commit",
					   "_fixed_by_git_commit kernel",
					   "linux-git", ... */
	char *sha;			/* as written */
	char *subject;			/* or NULL */
	char *fstyp;			/* only on this filesystem, or NULL */
	char *file;			/* where written (the test, or common/X) */
	unsigned line;			/* the line the command starts on */
	char *via;			/* "common/xfs:_require_foo", or NULL */
};

struct testannot_problem {
	char *file;
	unsigned line;
	char *message;
};

struct testannot_set {
	struct testannot *items;	/* see testannot_set_sort() */
	size_t nr, alloc;
	struct testannot_problem *problems;
	size_t nr_problems, alloc_problems;
	size_t nr_tests;		/* test files read, annotated or not */
};

void testannot_set_init(struct testannot_set *set);
void testannot_set_release(struct testannot_set *set);

/*
 * Reads every test of a checkout (and, for fstests, its common/
 * helpers first), adding to set; file and problems name paths relative
 * to dir ("tests/xfs/123", "common/rc").  Directories are read in name
 * order; symbolic links and other files that are not regular (FIFOs,
 * devices) are skipped, each with "warning: skipping 'PATH': a FIFO,
 * not a regular file" (where a test or a helper would be).  The items end up sorted by test name, then by file and
 * line.  Returns 0, or -1 after "error: cannot read '<path>': ..." when
 * a directory or file cannot be read (or the checkout has no tests/ or
 * testcases/ directory); the other files are still read.
 */
int testannot_read_fstests(struct testannot_set *set, const char *dir);
int testannot_read_ltp(struct testannot_set *set, const char *dir);

/*
 * The same, for one file already in memory: the parsers the readers
 * use, for tests and fuzzing.  file is used in items and problems.
 * Helpers found by testannot_parse_fstests_common() into helpers apply
 * to every later testannot_parse_fstests() with the same helpers (h
 * may be NULL: no helpers).  Items are added as found, not sorted.
 * buf needs no NUL at the end, and may hold any bytes.
 */
struct testannot_helpers;
struct testannot_helpers *testannot_helpers_new(void);
void testannot_helpers_free(struct testannot_helpers *h);
void testannot_parse_fstests_common(struct testannot_helpers *h,
				    struct testannot_set *set,
				    const char *file, const char *buf,
				    size_t len);
/*
 * Resolves helpers that call helpers; after the last common file.
 * Until then a test gets only the annotations of the helpers it calls
 * itself.
 */
void testannot_helpers_finish(struct testannot_helpers *h);
void testannot_parse_fstests(struct testannot_set *set,
			     const struct testannot_helpers *h,
			     const char *test, const char *file,
			     const char *buf, size_t len);
void testannot_parse_ltp(struct testannot_set *set, const char *test,
			 const char *file, const char *buf, size_t len);
/*
 * The tags of an LTP shell test's metadata (the "# env" JSON comment
 * block of the shell loader); 1 when the file has such a block.
 */
int testannot_parse_ltp_shell(struct testannot_set *set, const char *test,
			      const char *file, const char *buf, size_t len);

/*
 * Sorts the items by test name, then file, then line; items on the
 * same line stay in the order they were found.
 */
void testannot_set_sort(struct testannot_set *set);

/* 1 if sha is 7 to 40 hexadecimal digits, else 0 (a placeholder). */
int testannot_sha_ok(const char *sha);

#endif
