/*
 * Unit tests for the recorded decisions as a run applies them
 * (src/run/run-judge.c, run_judge()): the ledger of a throwaway
 * repository holds decisions for linux-6.6.y and for another branch,
 * and the verdicts a whole run gives are checked against an identical
 * commit nobody decided on.  A rejection outranks the rules, but not
 * presence; a deferral holds until its date and no longer; a decision
 * for another branch is evidence only.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "candidate/candidate.h"
#include "store/ledger.h"
#include "run/run.h"
#include "base/strbuf.h"
#include "testrepo.h"
#include "base/util.h"

/* 2023-11-16T00:00:00Z: the run's "now". */
#define NOW "1700092800"

struct fixture {
	char dir[64];
	long tick;
	struct run_context ctx;
	struct run run;
};

/* Changes fs/ext4/NAME.c, commits "ext4: fix NAME" for stable, tags NAME. */
static void fix(struct fixture *f, const char *name)
{
	struct strbuf sb = STRBUF_INIT;

	strbuf_addf(&sb, "echo %s >>fs/ext4/%s.c && git add fs/ext4/%s.c && "
		    "git commit -q -m 'ext4: fix %s' -m 'A NULL dereference "
		    "when the journal is aborted.' -m 'Cc: stable@vger.kernel.org' "
		    "&& git tag %s", name, name, name, name, name);
	testrepo_sh(f->dir, &f->tick, 60, sb.buf);
	strbuf_release(&sb);
}

static struct ledger_entry entry(struct fixture *f, const char *branch,
				 const char *tag, enum decision d,
				 const char *until, const char *reason)
{
	struct ledger_entry e = { 0 };

	e.branch = (char *)branch;
	e.commit = testrepo_rev(f->ctx.repo, tag);
	e.decision = d;
	e.when = 1700000000;	/* 2023-11-14T22:13:20Z */
	if (until)
		assert_int_equal(ledger_parse_date(until, &e.until), 0);
	e.who = "Stable Maintainer <sm@example.org>";
	e.reason = (char *)reason;
	return e;
}

static int setup(void **state)
{
	struct fixture *f = calloc(1, sizeof(*f));

	assert_non_null(f);
	strcpy(f->dir, "/tmp/test_run.XXXXXX");
	testrepo_create(f->dir);
	f->tick = 1699000000;
	testrepo_sh(f->dir, &f->tick, 60,
		    "git init -q -b master && mkdir -p fs/ext4 && "
		    "for p in control rejected elsewhere present later expired "
		    "taken; do echo one >fs/ext4/$p.c; done && git add . && "
		    "git commit -q -m 'the code' && git tag v6.6 && "
		    "git branch linux-6.6.y");
	fix(f, "control");
	fix(f, "rejected");
	fix(f, "elsewhere");
	fix(f, "present");
	fix(f, "later");
	fix(f, "expired");
	fix(f, "taken");
	testrepo_sh(f->dir, &f->tick, 60,
		    "git checkout -q linux-6.6.y && git cherry-pick -x present "
		    ">/dev/null && git checkout -q master");
	assert_int_equal(setenv("STABLEPICK_NOW", NOW, 1), 0);
	assert_true(git_libgit2_init() > 0);
	f->ctx.repo_dir = f->dir;
	f->ctx.no_cache = 1;
	assert_int_equal(run_open_repo(&f->ctx), 0);
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *f = *state;

	run_release(&f->run);
	run_context_release(&f->ctx);
	testrepo_remove(f->dir);
	unsetenv("STABLEPICK_NOW");
	free(f);
	git_libgit2_shutdown();
	return 0;
}

/* The decisions, saved as mark saves them, in the run's ledger file. */
static void record(struct fixture *f)
{
	struct ledger_entry in[] = {
		entry(f, "linux-6.6.y", "rejected", DECISION_REJECTED, NULL,
		      "not needed: the bug came in 6.8"),
		entry(f, "linux-6.1.y", "elsewhere", DECISION_REJECTED, NULL,
		      "6.1 has no journal abort"),
		entry(f, "linux-6.6.y", "present", DECISION_REJECTED, NULL,
		      "rejected before the backport"),
		entry(f, "linux-6.6.y", "later", DECISION_DEFERRED, "2023-11-17",
		      "after the merge window"),
		entry(f, "linux-6.6.y", "expired", DECISION_DEFERRED, "2023-11-16",
		      ""),
		entry(f, "linux-6.6.y", "taken", DECISION_ACCEPTED, NULL, ""),
	};
	struct ledger l;
	char *path = run_ledger_path(&f->ctx);

	ledger_init(&l, path);
	assert_int_equal(ledger_append(&l, in, ARRAY_SIZE(in)), 0);
	ledger_release(&l);
	free(path);
}

static void judge(struct fixture *f)
{
	assert_int_equal(run_setup(&f->ctx, &f->run, "linux-6.6.y", "master"), 0);
	assert_int_equal(run_scan(&f->ctx, &f->run), 0);
	assert_int_equal(f->run.scan.candidates.nr, 7);
	assert_int_equal(run_judge_range(&f->ctx, &f->run, NULL, 0), 0);
}

static const struct candidate *find(struct fixture *f, const char *tag)
{
	git_oid id = testrepo_rev(f->ctx.repo, tag);
	const struct candidate *c = candidate_list_find(&f->run.scan.candidates,
							&id);

	assert_non_null(c);
	return c;
}

static void test_decisions(void **state)
{
	struct fixture *f = *state;
	const struct candidate *control, *c;

	record(f);
	judge(f);
	control = find(f, "control");
	/* The rules propose it: what a decision changes is visible. */
	assert_int_equal(control->verdict, VERDICT_PROPOSED);
	assert_null(control->decision);

	c = find(f, "rejected");
	assert_int_equal(c->verdict, VERDICT_REJECTED);
	assert_string_equal(verdict_name(c->verdict), "rejected");
	assert_string_equal(c->why, "rejected on 2023-11-14: not needed: the "
			    "bug came in 6.8");
	assert_non_null(c->decision);
	assert_int_equal(c->decision->decision, DECISION_REJECTED);

	/* Rejected for 6.1.y: evidence for 6.6.y, not its verdict. */
	c = find(f, "elsewhere");
	assert_int_equal(c->verdict, control->verdict);
	assert_null(c->decision);
	assert_int_equal(c->nr_other_decisions, 1);
	assert_string_equal(c->other_decisions[0]->branch, "linux-6.1.y");

	/* Presence wins over a rejection. */
	c = find(f, "present");
	assert_true(c->present);
	assert_int_equal(c->verdict, VERDICT_PRESENT);
	assert_non_null(c->decision);

	/* Deferred until tomorrow: deferred; until today 00:00: over. */
	c = find(f, "later");
	assert_int_equal(c->verdict, VERDICT_DEFERRED);
	assert_string_equal(c->why, "deferred until 2023-11-17: after the "
			    "merge window");
	c = find(f, "expired");
	assert_int_equal(c->verdict, control->verdict);
	assert_non_null(c->decision);

	c = find(f, "taken");
	assert_int_equal(c->verdict, VERDICT_ACCEPTED);
	assert_string_equal(c->why, "accepted on 2023-11-14");
}

/* The same history without a ledger: every fix gets the control's verdict. */
static void test_no_ledger(void **state)
{
	struct fixture *f = *state;
	static const char *const tags[] = {
		"rejected", "elsewhere", "later", "expired", "taken",
	};
	size_t i;

	judge(f);
	for (i = 0; i < ARRAY_SIZE(tags); i++) {
		const struct candidate *c = find(f, tags[i]);

		assert_int_equal(c->verdict, VERDICT_PROPOSED);
		assert_null(c->decision);
		assert_int_equal(c->nr_other_decisions, 0);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_decisions, setup, teardown),
		cmocka_unit_test_setup_teardown(test_no_ledger, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
