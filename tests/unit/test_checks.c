/*
 * Unit tests for the last checks (src/checks.h): soak times (days in
 * mainline, counted to the upstream tip's date, to the second; a
 * release tag, not a release candidate) with the tags loaded by the
 * checks or painted by the scan, needs-ack left alone, and the trial
 * cherry-pick of what is proposed, as a series in mainline order onto
 * the branch tip.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stages/checks.h"
#include "formats/rules.h"
#include "stages/scan.h"
#include "base/strbuf.h"
#include "testrepo.h"
#include "base/util.h"

#define DAY 86400L

static const char rules_text[] =
	"version 1\n"
	"release-tags /^v(?<major>[0-9]+)\\.(?<minor>[0-9]+)"
	"(?:-rc(?<rc>[0-9]+))?$/\n"
	"subsystem ext4\n"
	"\tpaths fs/ext4/\n"
	"\tsoak 14d\n"
	"end\n"
	"subsystem xfs\n"
	"\tpaths fs/xfs/\n"
	"\tsoak release\n"
	"end\n";

struct fixture {
	char dir[64];
	long tick;
	git_repository *repo;
	struct ruleset rules;
	struct scan scan;
	struct branch_index branch;
	git_oid tip;
};

static void sh(struct fixture *f, long step, const char *cmd)
{
	testrepo_sh(f->dir, &f->tick, step, cmd);
}

/* Writes text to path, commits with subject, tags the commit. */
static void commit(struct fixture *f, long step, const char *tag,
		   const char *path, const char *text, const char *subject)
{
	struct strbuf sb = STRBUF_INIT;

	strbuf_addf(&sb, "printf '%s' >%s && git add %s && "
		    "git commit -q -m '%s' && git tag %s", text, path, path,
		    subject, tag);
	sh(f, step, sb.buf);
	strbuf_release(&sb);
}

/* The object a revision names. */
static git_oid rev(struct fixture *f, const char *name)
{
	return testrepo_rev(f->repo, name);
}

/* Opens the repository f->dir and scans v6.6..master: nr candidates. */
static void open_fixture(struct fixture *f, size_t nr)
{
	const char *rs = rules_text;

	assert_true(git_libgit2_init() > 0);
	assert_int_equal(git_repository_open(&f->repo, f->dir), 0);
	ruleset_init(&f->rules);
	assert_int_equal(ruleset_load_buffer(&f->rules, "t.rules", rs,
					     strlen(rs)), 0);
	testrepo_load_backports(&f->rules);
	f->tip = rev(f, "master");
	branch_index_init(&f->branch);
	assert_int_equal(branch_index_build(&f->branch, f->repo, "linux-6.6.y",
					    &f->tip, &f->rules), 0);
	scan_init(&f->scan, f->repo, &f->rules);
	scan_set_range_oids(&f->scan, &f->branch.base, &f->tip, "v6.6..master");
	assert_int_equal(scan_run(&f->scan), 0);
	assert_int_equal(f->scan.candidates.nr, nr);
}

/*
 * From v6.6 (1700000000 + 60, 2023-11-14), linux-6.6.y changes b.c;
 * mainline (days after v6.6):
 *
 *   x1  xfs, then tagged v6.7                  (0)  a release: proposed
 *   e1  ext4 a.c                               (1)  old enough, applies
 *   x2  xfs, then tagged v6.8-rc1              (2)  waiting: rc only
 *   x3  xfs                                    (3)  waiting: no tag
 *   e4  ext4 b.c, as the branch did not        (4)  conflicts
 *   e5  ext4 a.c on top of e1                  (5)  applies after e1
 *   e6  ext4 b.c, below the threshold          (6)  not tried
 *   e2  ext4                                  (26)  waiting: 5 days old
 *   e3  ext4 c.c on top of e2, needs-ack      (27)  stays needs-ack
 *   tip mm                                    (31)  the upstream tip
 */
static int setup(void **state)
{
	struct fixture *f = calloc(1, sizeof(*f));

	assert_non_null(f);
	strcpy(f->dir, "/tmp/test_checks.XXXXXX");
	testrepo_create(f->dir);
	f->tick = 1700000000;
	sh(f, 60, "git init -q -b master && mkdir -p fs/ext4 fs/xfs mm && "
	   "for p in fs/ext4/a.c fs/ext4/b.c fs/ext4/c.c fs/xfs/x.c mm/m.c; "
	   "do printf 'one\\n' >$p; done && git add . && "
	   "git commit -q -m 'the code' && git tag v6.6 && "
	   "git checkout -q -b linux-6.6.y");
	commit(f, 1, "bp", "fs/ext4/b.c", "branch\\n", "ext4: change b in the branch");
	sh(f, 1, "git checkout -q master");

	commit(f, 60, "x1", "fs/xfs/x.c", "x1\\n", "xfs: fix x1");
	sh(f, 1, "git tag v6.7");
	commit(f, DAY, "e1", "fs/ext4/a.c", "e1\\n", "ext4: fix e1");
	commit(f, DAY, "x2", "fs/xfs/x.c", "x2\\n", "xfs: fix x2");
	sh(f, 1, "git tag v6.8-rc1");
	commit(f, DAY, "x3", "fs/xfs/x.c", "x3\\n", "xfs: fix x3");
	commit(f, DAY, "e4", "fs/ext4/b.c", "e4\\n", "ext4: fix e4");
	commit(f, DAY, "e5", "fs/ext4/a.c", "e5\\n", "ext4: fix e5");
	commit(f, DAY, "e6", "fs/ext4/b.c", "e6\\n", "ext4: tidy e6");
	commit(f, 20 * DAY, "e2", "fs/ext4/c.c", "e2\\n", "ext4: fix e2");
	commit(f, DAY, "e3", "fs/ext4/c.c", "e3\\n", "ext4: fix e3");
	commit(f, 4 * DAY, "tip", "mm/m.c", "tip\\n", "mm: later");
	open_fixture(f, 9);
	*state = f;
	return 0;
}

/*
 * The end of a soak: mainline's tip is 14 days to the second after s0,
 * and one second short of that after s1.
 */
static int setup_soak_boundary(void **state)
{
	struct fixture *f = calloc(1, sizeof(*f));

	assert_non_null(f);
	strcpy(f->dir, "/tmp/test_checks.XXXXXX");
	testrepo_create(f->dir);
	f->tick = 1700000000;
	sh(f, 60, "git init -q -b master && mkdir -p fs/ext4 mm && "
	   "printf 'one\\n' >fs/ext4/a.c && printf 'one\\n' >mm/m.c && "
	   "git add . && git commit -q -m 'the code' && git tag v6.6 && "
	   "git branch linux-6.6.y");
	commit(f, 60, "s0", "fs/ext4/a.c", "s0\\n", "ext4: fix s0");
	commit(f, 1, "s1", "fs/ext4/a.c", "s1\\n", "ext4: fix s1");
	commit(f, 14 * DAY - 1, "tip", "mm/m.c", "tip\\n", "mm: later");
	open_fixture(f, 2);
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *f = *state;

	scan_release(&f->scan);
	branch_index_release(&f->branch);
	ruleset_release(&f->rules);
	git_repository_free(f->repo);
	testrepo_remove(f->dir);
	free(f);
	git_libgit2_shutdown();
	return 0;
}

static struct candidate *cand(struct fixture *f, const char *name)
{
	git_oid id = rev(f, name);
	struct candidate *c = candidate_list_find(&f->scan.candidates, &id);

	assert_non_null(c);
	return c;
}

/* Every candidate proposed but e6 (below the threshold), e3 (needs-ack). */
static void decide(struct fixture *f)
{
	size_t i;

	for (i = 0; i < f->scan.candidates.nr; i++) {
		struct candidate *c = f->scan.candidates.items[i];

		c->verdict = VERDICT_PROPOSED;
		free(c->why);
		c->why = strdup("proposed by the test");
	}
	cand(f, "e6")->verdict = VERDICT_BELOW_THRESHOLD;
	cand(f, "e3")->verdict = VERDICT_NEEDS_ACK;
}

static void assert_soak(struct fixture *f)
{
	struct candidate *c;

	assert_int_equal(cand(f, "x1")->verdict, VERDICT_PROPOSED);
	c = cand(f, "x2");
	assert_int_equal(c->verdict, VERDICT_WAITING);
	assert_string_equal(c->why, "xfs waits for a release: in v6.8-rc1, not "
			    "in a release tag yet");
	c = cand(f, "x3");
	assert_int_equal(c->verdict, VERDICT_WAITING);
	assert_string_equal(c->why, "xfs waits for a release: in no release "
			    "tag yet");
	assert_int_equal(cand(f, "e1")->verdict, VERDICT_PROPOSED);
	/* e2: 2023-12-10 plus 14 days; the tip is 2023-12-15. */
	c = cand(f, "e2");
	assert_int_equal(c->verdict, VERDICT_WAITING);
	assert_string_equal(c->why, "ext4 asks for 14 days in mainline: "
			    "qualifies on 2023-12-24");
	c = cand(f, "e3");
	assert_int_equal(c->verdict, VERDICT_NEEDS_ACK);
	assert_string_equal(c->why, "proposed by the test");
	assert_int_equal(cand(f, "e6")->verdict, VERDICT_BELOW_THRESHOLD);
}

static void test_soak_loaded(void **state)
{
	struct fixture *f = *state;

	decide(f);
	assert_int_equal(checks_run(f->repo, &f->branch, &f->tip, &f->rules,
				    NULL, NULL, &f->scan.candidates), 0);
	assert_soak(f);
}

/* The scan painted the candidates with their first tags: same answers. */
static void test_soak_painted(void **state)
{
	struct fixture *f = *state;

	assert_true(f->scan.soak_painted);
	assert_true(cand(f, "x2")->soak_settled);
	decide(f);
	assert_int_equal(checks_run(f->repo, &f->branch, &f->tip, &f->rules,
				    &f->scan.soak_tags, NULL, &f->scan.candidates), 0);
	assert_soak(f);
}

/*
 * A soak ends when the tip's date reaches the commit's plus the days:
 * at s0's, not a second before at s1's.
 */
static void test_soak_boundary(void **state)
{
	struct fixture *f = *state;
	struct candidate *c;
	size_t i;

	for (i = 0; i < f->scan.candidates.nr; i++) {
		c = f->scan.candidates.items[i];
		c->verdict = VERDICT_PROPOSED;
		free(c->why);
		c->why = strdup("proposed by the test");
	}
	assert_int_equal(checks_run(f->repo, &f->branch, &f->tip, &f->rules,
				    NULL, NULL, &f->scan.candidates), 0);
	c = cand(f, "s0");
	assert_int_equal(c->verdict, VERDICT_PROPOSED);
	assert_string_equal(c->why, "proposed by the test");
	/* 2023-11-14 22:15:21 plus 14 days; the tip is a second earlier. */
	c = cand(f, "s1");
	assert_int_equal(c->verdict, VERDICT_WAITING);
	assert_string_equal(c->why, "ext4 asks for 14 days in mainline: "
			    "qualifies on 2023-11-28");
}

static void test_apply(void **state)
{
	struct fixture *f = *state;
	struct candidate *c;

	decide(f);
	assert_int_equal(checks_run(f->repo, &f->branch, &f->tip, &f->rules,
				    NULL, NULL, &f->scan.candidates), 0);
	assert_true(cand(f, "x1")->apply_checked);
	assert_true(cand(f, "x1")->apply.applies);
	assert_true(cand(f, "e1")->apply.applies);
	/* e5 changes what e1 wrote: it applies after e1, in the series. */
	assert_true(cand(f, "e5")->apply_checked);
	assert_true(cand(f, "e5")->apply.applies);
	/* The branch changed b.c its own way. */
	c = cand(f, "e4");
	assert_true(c->apply_checked);
	assert_false(c->apply.applies);
	assert_int_equal(c->apply.nr_conflicts, 1);
	assert_string_equal(c->apply.conflicts[0], "fs/ext4/b.c");
	/*
	 * needs-ack is tried too; waiting and below the threshold are
	 * not, so e3, on top of e2 (waiting), conflicts.
	 */
	c = cand(f, "e3");
	assert_true(c->apply_checked);
	assert_false(c->apply.applies);
	assert_string_equal(c->apply.conflicts[0], "fs/ext4/c.c");
	assert_false(cand(f, "e2")->apply_checked);
	assert_false(cand(f, "x2")->apply_checked);
	assert_false(cand(f, "e6")->apply_checked);
}

/* Without e1, e5 does not apply: the series order is what made it. */
static void test_apply_alone(void **state)
{
	struct fixture *f = *state;

	decide(f);
	cand(f, "e1")->verdict = VERDICT_BELOW_THRESHOLD;
	assert_int_equal(checks_run(f->repo, &f->branch, &f->tip, &f->rules,
				    NULL, NULL, &f->scan.candidates), 0);
	assert_false(cand(f, "e1")->apply_checked);
	assert_true(cand(f, "e5")->apply_checked);
	assert_false(cand(f, "e5")->apply.applies);
	assert_string_equal(cand(f, "e5")->apply.conflicts[0], "fs/ext4/a.c");
}

/*
 * e5 applies only after e1: while e1 is held, so is e5, with e1 named;
 * after a rejected e1 it stays a proposal that does not apply, and
 * says why.  The mbox series (the proposals alone) never needs a
 * commit it does not carry.
 */
static void expect_held(struct fixture *f, enum verdict e1, enum verdict e5,
			const char *verb, const char *rest)
{
	struct candidate *c;
	char *want;

	decide(f);
	cand(f, "e1")->verdict = e1;
	free(cand(f, "e1")->why);
	cand(f, "e1")->why = strdup("held by the test");
	assert_int_equal(checks_run(f->repo, &f->branch, &f->tip, &f->rules,
				    NULL, NULL, &f->scan.candidates), 0);
	c = cand(f, "e5");
	assert_int_equal(c->verdict, e5);
	assert_true(c->apply_checked);
	want = xstrfmt("%s %.12s%s", verb, cand(f, "e1")->hex, rest);
	if (e5 == VERDICT_PROPOSED) {
		/* Alone, it conflicts; the warning names what it needs. */
		assert_false(c->apply.applies);
		assert_false(c->held);
		assert_int_equal(c->nr_warnings, 1);
		assert_true(!strncmp(c->warnings[0], want, strlen(want)));
	} else {
		/* Its result is the one after e1, where it applies. */
		assert_true(c->apply.applies);
		assert_true(c->held);
		assert_true(!strncmp(c->why, want, strlen(want)));
	}
	free(want);
	/* A proposal that needs nothing held is untouched. */
	assert_int_equal(cand(f, "x1")->verdict, VERDICT_PROPOSED);
	assert_true(cand(f, "x1")->apply.applies);
	assert_false(cand(f, "x1")->held);
}

static void test_hold_needs_ack(void **state)
{
	expect_held(*state, VERDICT_NEEDS_ACK, VERDICT_NEEDS_ACK, "needs",
		    " (\"ext4: fix e1\"), which waits for ext4's ack");
}

static void test_hold_waiting(void **state)
{
	expect_held(*state, VERDICT_WAITING, VERDICT_WAITING, "needs",
		    " (\"ext4: fix e1\"), which is held: held by the test");
}

static void test_hold_rejected(void **state)
{
	expect_held(*state, VERDICT_REJECTED, VERDICT_PROPOSED,
		    "applies only after",
		    " (\"ext4: fix e1\"), which is held by the test");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_soak_loaded, setup, teardown),
		cmocka_unit_test_setup_teardown(test_soak_painted, setup, teardown),
		cmocka_unit_test_setup_teardown(test_soak_boundary,
						setup_soak_boundary, teardown),
		cmocka_unit_test_setup_teardown(test_apply, setup, teardown),
		cmocka_unit_test_setup_teardown(test_apply_alone, setup, teardown),
		cmocka_unit_test_setup_teardown(test_hold_needs_ack, setup, teardown),
		cmocka_unit_test_setup_teardown(test_hold_waiting, setup, teardown),
		cmocka_unit_test_setup_teardown(test_hold_rejected, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
