/* Unit tests for eval: labels, exclusions, selectors and their counts. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "candidate/candidate.h"
#include "stages/eval.h"
#include "formats/rules.h"
#include "stages/score.h"
#include "base/util.h"

static const char rules_text[] =
	"version 1\n"
	"threshold 10\n"
	"subsystem xfs\n"
	"\tpaths fs/xfs/\n"
	"\tpolicy opt-in\n"
	"end\n"
	"subsystem ext4\n"
	"\tpaths fs/ext4/\n"
	"end\n"
	"rule cc-stable +100 trailer:Cc /stable@vger\\.kernel\\.org/i\n"
	"rule subject-fix +6 subject /\\bfix\\b/i\n"
	"rule subject-bug +5 subject /\\b(leak|crash)\\b/i\n";

struct fixture {
	struct ruleset rs;
	struct candidate_list l;
};

static int setup(void **state)
{
	struct fixture *f = xcalloc(1, sizeof(*f));

	ruleset_init(&f->rs);
	assert_int_equal(ruleset_load_buffer(&f->rs, "t.rules", rules_text,
					     strlen(rules_text)), 0);
	candidate_list_init(&f->l);
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *f = *state;

	candidate_list_release(&f->l);
	ruleset_release(&f->rs);
	free(f);
	return 0;
}

/* The next candidate of the walk, scored. */
static struct candidate *add(struct fixture *f, const char *message,
			     const char *subsystem)
{
	struct candidate *c;
	git_oid id;

	memset(&id, 0, sizeof(id));
	id.id[0] = (unsigned char)(f->l.nr + 1);
	c = candidate_list_add(&f->l, &id);
	c->order = f->l.nr - 1;
	c->raw = xstrdup(message);
	message_parse(&c->msg, c->raw, strlen(c->raw));
	ALLOC_GROW(c->touched, c->nr_touched, c->alloc_touched);
	c->touched[c->nr_touched++] = ruleset_subsystem(&f->rs, subsystem);
	score_candidate(&f->rs, c);
	return c;
}

static void test_labels_and_counts(void **state)
{
	struct fixture *f = *state;
	struct eval_counts n;
	struct eval ev;
	struct candidate *c;

	/* 0: taken, tagged and picked by the rules: true positive. */
	c = add(f, "ext4: fix a leak\n\nx\n\nCc: stable@vger.kernel.org\n", "ext4");
	c->present = 1;
	/* 1: not taken, picked by the rules (11): false positive. */
	add(f, "ext4: fix a crash\n", "ext4");
	/* 2: taken, words only below the threshold: false negative. */
	c = add(f, "ext4: fix it\n", "ext4");
	c->present = 1;
	/* 3: xfs is opt-in: 11 without Cc: stable is not taken: tn. */
	add(f, "xfs: fix a crash\n", "xfs");
	/* 4: a subject only: excluded, whatever the rules say. */
	c = add(f, "ext4: fix a leak\n", "ext4");
	c->maybe_present = 1;
	/* 5: reverted in mainline: excluded. */
	c = add(f, "ext4: fix a crash again\n", "ext4");
	c->reverted_by = xstrdup("0123456789012345678901234567890123456789");
	/* 6: the newest the branch carries: later ones are excluded. */
	c = add(f, "ext4: tidy\n", "ext4");
	c->present = 1;
	/* 7: newer than the branch's last backport. */
	add(f, "ext4: fix a leak too\n", "ext4");
	c = add(f, "ext4: fix a crash in x\n", "ext4");
	c->not_applicable = xstrdup("fixed commit not in branch");
	c->not_applicable_kind = NOT_APPLICABLE_BUG_NOT_IN_BRANCH;

	eval_init(&ev);
	assert_int_equal(eval_run(&ev, &f->l, NULL), 0);
	assert_int_equal(ev.nr, 9);
	assert_int_equal(ev.positives, 3);
	assert_int_equal(ev.negatives, 2);
	assert_int_equal(ev.excluded, 4);
	assert_int_equal(ev.items[4].label, EVAL_EXCLUDED);
	assert_string_equal(eval_reasons[ev.items[4].reason], "subject-only");
	assert_string_equal(eval_reasons[ev.items[5].reason], "reverted");
	assert_string_equal(eval_reasons[ev.items[7].reason], "after-last-backport");
	/* A reason the tool knows outranks "after the last backport". */
	assert_string_equal(eval_reasons[ev.items[8].reason], "bug-not-in-branch");

	n = ev.all[EVAL_RULES];
	assert_int_equal(n.tp, 1);
	assert_int_equal(n.fp, 1);
	assert_int_equal(n.fn, 2);
	assert_int_equal(n.tn, 1);
	assert_true(fabs(eval_precision(&n) - 0.5) < 1e-9);
	assert_true(fabs(eval_recall(&n) - 1.0 / 3) < 1e-9);
	assert_true(fabs(eval_f1(&n) - 0.4) < 1e-9);
	n = ev.all[EVAL_CC_STABLE];
	assert_int_equal(n.tp, 1);
	assert_int_equal(n.fp, 0);
	assert_true(fabs(eval_precision(&n) - 1.0) < 1e-9);

	/* Per subsystem, sorted by name. */
	assert_int_equal(ev.nr_subsystems, 2);
	assert_string_equal(ev.subsystems[0].name, "ext4");
	assert_int_equal(ev.subsystems[0].positives, 3);
	assert_int_equal(ev.subsystems[1].negatives, 1);

	/* The sweep: at 12, the crash fix (11) is no longer a false pick. */
	eval_count_rules(&ev, 12, NULL, &n);
	assert_int_equal(n.fp, 0);
	assert_int_equal(n.tp, 1);
	/* Without subject-bug: neither 11 reaches 10; cc-stable still does. */
	eval_count_rules(&ev, EVAL_OWN_THRESHOLD, &f->rs.rules[2], &n);
	assert_string_equal(f->rs.rules[2].name, "subject-bug");
	assert_int_equal(n.fp, 0);
	assert_int_equal(n.tp, 1);
	eval_release(&ev);
}

/* Each kind of not-applicable is excluded for the reason of its name. */
static void test_not_applicable_reasons(void **state)
{
	struct fixture *f = *state;
	struct eval ev;
	int k;

	add(f, "ext4: tidy\n", "ext4")->present = 1;
	for (k = NOT_APPLICABLE_NONE + 1; k < NOT_APPLICABLE__COUNT; k++)
		add(f, "ext4: fix a crash\n", "ext4")->not_applicable_kind =
			(enum not_applicable_kind)k;
	eval_init(&ev);
	assert_int_equal(eval_run(&ev, &f->l, NULL), 0);
	assert_int_equal(ev.nr, NOT_APPLICABLE__COUNT);
	for (k = NOT_APPLICABLE_NONE + 1; k < NOT_APPLICABLE__COUNT; k++) {
		const struct eval_item *it = &ev.items[k];

		assert_int_equal(it->label, EVAL_EXCLUDED);
		assert_string_equal(eval_reasons[it->reason],
				    not_applicable_kind_name(k));
	}
	eval_release(&ev);
}

static void test_undefined(void **state)
{
	struct eval_counts n = { 0, 0, 0, 0 };

	(void)state;
	assert_true(eval_precision(&n) < 0);
	assert_true(eval_recall(&n) < 0);
	assert_true(eval_f1(&n) < 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_labels_and_counts, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_not_applicable_reasons,
						setup, teardown),
		cmocka_unit_test(test_undefined),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
