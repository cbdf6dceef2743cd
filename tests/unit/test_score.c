/*
 * Unit tests for the scorer: weights, unless, vetoes, verdicts; a score
 * at the threshold and one short of it; sums of weights at the bound
 * (RULE_WEIGHT_MAX) beyond what 32 bits hold.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "candidate/candidate.h"
#include "formats/rules.h"
#include "stages/score.h"
#include "base/strbuf.h"
#include "base/util.h"

static const char rules_text[] =
	"version 1\n"
	"threshold 10\n"
	"subsystem xfs\n"
	"\tpaths fs/xfs/\n"
	"\tpolicy opt-in\n"
	"\tthreshold 12\n"
	"\trule xfs-scrub -6 paths /^fs\\/xfs\\/scrub\\// unless xfs-crash\n"
	"end\n"
	"subsystem ext4\n"
	"\tpaths fs/ext4/\n"
	"end\n"
	"rule cc-stable +100 trailer:Cc /stable@vger\\.kernel\\.org/i\n"
	"rule subject-fix +6 subject /\\bfix\\b/i\n"
	"rule subject-bug +5 subject /\\b(leak|crash)\\b/i\n"
	"rule named 0 body /\\bleaks?\\b/i\n"
	"rule cleanup -6 subject /\\bclean ?up\\b/i unless subject-bug,named\n"
	"rule in-branch +6 fact /^fixes-in-branch$/\n"
	"veto noautosel trailer:Cc /stable\\+noautosel@kernel\\.org/i\n";

struct fixture {
	struct ruleset rs;
	struct candidate_list l;
	unsigned char next;
};

static struct fixture *fixture_new(const char *text)
{
	struct fixture *f = xcalloc(1, sizeof(*f));

	ruleset_init(&f->rs);
	assert_int_equal(ruleset_load_buffer(&f->rs, "t.rules", text,
					     strlen(text)), 0);
	candidate_list_init(&f->l);
	return f;
}

static int setup(void **state)
{
	/* The xfs block names xfs-crash, defined in it before the rule. */
	char *text = xstrfmt("%.*s\trule xfs-crash 0 body /call trace:/i\n%s",
			     (int)(strstr(rules_text, "\trule xfs-scrub") - rules_text),
			     rules_text, strstr(rules_text, "\trule xfs-scrub"));

	*state = fixture_new(text);
	free(text);
	return 0;
}

/*
 * 2,200 rules of weight +1000000 on "up", then as many of -1000000 on
 * "down": at the bound, where one commit's score is 2.2e9 either way,
 * more than an int holds (2,148 rules would do).  Summed in an int,
 * "down" would wrap to +2094967296 and be proposed.
 */
#define NR_BIG 2200

static const char bounds_text[] =
	"threshold 10\n"
	"subsystem ext4\n"
	"\tpaths fs/ext4/\n"
	"end\n"
	"subsystem big\n"
	"\tpaths fs/big/\n"
	"\tthreshold 1000000\n"
	"end\n"
	"rule fix +10 subject /\\bfix\\b/\n"
	"rule minor -1 subject /\\bminor\\b/\n"
	"rule top +1000000 subject /\\btop\\b/\n";

static int setup_bounds(void **state)
{
	struct strbuf sb = STRBUF_INIT;
	int i;

	strbuf_addstr(&sb, bounds_text);
	for (i = 0; i < NR_BIG; i++)
		strbuf_addf(&sb, "rule up%d +1000000 subject /\\bup\\b/\n", i);
	for (i = 0; i < NR_BIG; i++)
		strbuf_addf(&sb, "rule down%d -1000000 subject "
			    "/\\bdown\\b/\n", i);
	*state = fixture_new(sb.buf);
	strbuf_release(&sb);
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

/* A candidate of message (and a subsystem, and a path, or NULL), scored. */
static struct candidate *scored(struct fixture *f, const char *message,
				const char *subsystem, const char *path)
{
	struct candidate *c;
	git_oid id;

	memset(&id, 0, sizeof(id));
	id.id[0] = ++f->next;
	c = candidate_list_add(&f->l, &id);
	c->raw = xstrdup(message);
	message_parse(&c->msg, c->raw, strlen(c->raw));
	if (subsystem) {
		ALLOC_GROW(c->touched, c->nr_touched, c->alloc_touched);
		c->touched[c->nr_touched++] = ruleset_subsystem(&f->rs, subsystem);
		assert_non_null(c->touched[0]);
	}
	if (path) {
		ALLOC_GROW(c->paths, c->nr_paths, c->alloc_paths);
		c->paths[c->nr_paths++] = xstrdup(path);
		c->paths_known = 1;
	}
	score_candidate(&f->rs, c);
	return c;
}

static void reasons(const struct candidate *c, const char *want)
{
	struct strbuf sb = STRBUF_INIT;
	size_t i;

	for (i = 0; i < c->nr_reasons; i++)
		strbuf_addf(&sb, "%s%s=%s", i ? "," : "",
			    c->reasons[i].rule->name, c->reasons[i].match);
	assert_string_equal(sb.buf, want);
	strbuf_release(&sb);
}

static void test_weights(void **state)
{
	struct fixture *f = *state;
	struct candidate *c;

	c = scored(f, "ext4: fix a leak\n\nThe put is missing.\n", "ext4", NULL);
	assert_int_equal(c->score, 11);
	assert_int_equal(c->threshold, 10);
	reasons(c, "subject-fix=fix,subject-bug=leak");

	/* The subsystem's threshold; a fact counts once. */
	c = scored(f, "xfs: fix it\n", "xfs", NULL);
	candidate_add_fact(c, FACT_FIXES_IN_BRANCH);
	candidate_add_fact(c, FACT_FIXES_IN_BRANCH);
	score_candidate(&f->rs, c);
	assert_int_equal(c->score, 12);
	assert_int_equal(c->threshold, 12);
	reasons(c, "subject-fix=fix,in-branch=fixes-in-branch");

	/* Scoring again starts afresh. */
	score_candidate(&f->rs, c);
	assert_int_equal(c->score, 12);
	assert_int_equal(c->nr_reasons, 2);
}

static void test_unless(void **state)
{
	struct fixture *f = *state;
	struct candidate *c;

	c = scored(f, "ext4: clean up the mount code\n", NULL, NULL);
	assert_int_equal(c->score, -6);

	/* A bug named in the subject, or by a weight-0 rule of the body. */
	c = scored(f, "ext4: clean up potential refcount leak\n", NULL, NULL);
	assert_int_equal(c->score, 5);
	reasons(c, "subject-bug=leak");
	c = scored(f, "ext4: clean up the error paths\n\nTwo of them leak.\n",
		   NULL, NULL);
	assert_int_equal(c->score, 0);
	reasons(c, "named=leak");

	/* A subsystem rule naming its own rule. */
	c = scored(f, "xfs: fix scrub\n", "xfs", "fs/xfs/scrub/agheader.c");
	assert_int_equal(c->score, 0);
	c = scored(f, "xfs: fix scrub\n\nCall trace:\n", "xfs",
		   "fs/xfs/scrub/agheader.c");
	assert_int_equal(c->score, 6);
	reasons(c, "subject-fix=fix,xfs-crash=Call trace:");
}

static void test_verdicts(void **state)
{
	struct fixture *f = *state;
	struct candidate *c;

	c = scored(f, "ext4: fix a leak\n", "ext4", NULL);
	score_decide(c);
	assert_int_equal(c->verdict, VERDICT_PROPOSED);
	assert_string_equal(c->why, "score 11 reaches the threshold 10 of ext4");

	c = scored(f, "ext4: fix it\n", "ext4", NULL);
	score_decide(c);
	assert_int_equal(c->verdict, VERDICT_BELOW_THRESHOLD);
	assert_string_equal(c->why, "score 6 is below the threshold 10 of ext4");

	/* Opt-in: the rules' pick needs an ack, unless Cc: stable says so. */
	c = scored(f, "xfs: fix a crash\n\nthe end\n", "xfs", NULL);
	score_decide(c);
	assert_int_equal(c->verdict, VERDICT_BELOW_THRESHOLD);
	c = scored(f, "xfs: fix a crash\n\nCall trace:\n", "xfs", NULL);
	candidate_add_fact(c, FACT_FIXES_IN_BRANCH);
	score_candidate(&f->rs, c);
	score_decide(c);
	assert_int_equal(c->score, 17);
	assert_int_equal(c->verdict, VERDICT_NEEDS_ACK);
	c = scored(f, "xfs: fix a crash\n\nx\n\nCc: stable@vger.kernel.org\n",
		   "xfs", NULL);
	score_decide(c);
	assert_int_equal(c->verdict, VERDICT_PROPOSED);

	/* A veto outweighs the score; presence outweighs everything. */
	c = scored(f, "ext4: fix a leak\n\nx\n\nCc: stable+noautosel@kernel.org "
		   "# needs a manual backport\n", "ext4", NULL);
	score_decide(c);
	assert_int_equal(c->verdict, VERDICT_VETOED);
	assert_string_equal(c->why, "stable+noautosel: needs a manual backport");
	c->present = 1;
	score_decide(c);
	assert_int_equal(c->verdict, VERDICT_PRESENT);

	c = scored(f, "ext4: fix a leak\n", "ext4", NULL);
	c->reverted_by = xstrdup("0123456789abcdef0123456789abcdef01234567");
	score_decide(c);
	assert_int_equal(c->verdict, VERDICT_REVERTED);
	assert_string_equal(c->why, "reverted in mainline by 0123456789ab");
	free(c->reverted_by);
	c->reverted_by = NULL;
	c->not_applicable = xstrdup("fixed commit 0123456789ab not in branch");
	score_decide(c);
	assert_int_equal(c->verdict, VERDICT_NOT_APPLICABLE);
}

/*
 * The threshold is reached by a score equal to it: 10 of 10 proposes, 9
 * does not; the same at the bound, 1000000 of 1000000.
 */
static void test_threshold_boundary(void **state)
{
	struct fixture *f = *state;
	struct candidate *c;

	c = scored(f, "ext4: fix it\n", "ext4", NULL);
	score_decide(c);
	assert_int_equal(c->score, 10);
	assert_int_equal(c->verdict, VERDICT_PROPOSED);
	assert_string_equal(c->why, "score 10 reaches the threshold 10 of ext4");

	c = scored(f, "ext4: fix a minor thing\n", "ext4", NULL);
	score_decide(c);
	assert_int_equal(c->score, 9);
	assert_int_equal(c->verdict, VERDICT_BELOW_THRESHOLD);
	assert_string_equal(c->why, "score 9 is below the threshold 10 of ext4");

	c = scored(f, "big: top\n", "big", NULL);
	score_decide(c);
	assert_int_equal(c->verdict, VERDICT_PROPOSED);
	assert_string_equal(c->why, "score 1000000 reaches the threshold "
			    "1000000 of big");

	c = scored(f, "big: top, minor\n", "big", NULL);
	score_decide(c);
	assert_int_equal(c->verdict, VERDICT_BELOW_THRESHOLD);
	assert_string_equal(c->why, "score 999999 is below the threshold "
			    "1000000 of big");
}

/* Thousands of weights at the bound add up exactly, past 32 bits. */
static void test_big_sums(void **state)
{
	struct fixture *f = *state;
	struct candidate *c;

	c = scored(f, "ext4: up\n", "ext4", NULL);
	score_decide(c);
	assert_true(c->score == 2200000000LL);
	assert_int_equal(c->nr_reasons, NR_BIG);
	assert_int_equal(c->verdict, VERDICT_PROPOSED);
	assert_string_equal(c->why, "score 2200000000 reaches the threshold "
			    "10 of ext4");

	c = scored(f, "ext4: down\n", "ext4", NULL);
	score_decide(c);
	assert_true(c->score == -2200000000LL);
	assert_int_equal(c->verdict, VERDICT_BELOW_THRESHOLD);
	assert_string_equal(c->why, "score -2200000000 is below the threshold "
			    "10 of ext4");

	/* Up past INT_MAX, then back down: 4,401 weights, one of them +10. */
	c = scored(f, "ext4: fix up and down\n", "ext4", NULL);
	score_decide(c);
	assert_true(c->score == 10);
	assert_int_equal(c->nr_reasons, 2 * NR_BIG + 1);
	assert_int_equal(c->verdict, VERDICT_PROPOSED);
}

static void test_unmatched(void **state)
{
	struct fixture *f = *state;
	struct strbuf sb = STRBUF_INIT;
	struct candidate *c;

	c = scored(f, "ext4: fix a leak\n", "ext4", NULL);
	assert_int_equal(score_unmatched(&sb, &f->rs, c), 1);
	assert_string_equal(sb.buf, "cc-stable, named, cleanup, in-branch, noautosel");
	strbuf_release(&sb);
}

/*
 * A later stage's verdict replaces the scorer's, and its why may quote
 * the one it replaces.
 */
static void test_set_verdict(void **state)
{
	struct fixture *f = *state;
	struct candidate *c;

	c = scored(f, "ext4: fix a crash\n", "ext4", NULL);
	score_decide(c);
	assert_int_equal(c->verdict, VERDICT_PROPOSED);
	candidate_set_verdict(c, VERDICT_WAITING, "held: %s", c->why);
	assert_int_equal(c->verdict, VERDICT_WAITING);
	assert_string_equal(c->why, "held: score 11 reaches the threshold 10 of ext4");
	candidate_set_verdict(c, VERDICT_MAYBE_PRESENT, "its pick changes nothing");
	assert_int_equal(c->verdict, VERDICT_MAYBE_PRESENT);
	assert_string_equal(c->why, "its pick changes nothing");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_weights, setup, teardown),
		cmocka_unit_test_setup_teardown(test_unless, setup, teardown),
		cmocka_unit_test_setup_teardown(test_verdicts, setup, teardown),
		cmocka_unit_test_setup_teardown(test_unmatched, setup, teardown),
		cmocka_unit_test_setup_teardown(test_set_verdict, setup, teardown),
		cmocka_unit_test_setup_teardown(test_threshold_boundary,
						setup_bounds, teardown),
		cmocka_unit_test_setup_teardown(test_big_sums, setup_bounds,
						teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
