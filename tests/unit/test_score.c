/* Unit tests for the scorer: weights, unless, vetoes, verdicts. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "candidate.h"
#include "rules.h"
#include "score.h"
#include "strbuf.h"
#include "util.h"

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

static int setup(void **state)
{
	struct fixture *f = xcalloc(1, sizeof(*f));
	/* The xfs block names xfs-crash, defined in it before the rule. */
	char *text = xstrfmt("%.*s\trule xfs-crash 0 body /call trace:/i\n%s",
			     (int)(strstr(rules_text, "\trule xfs-scrub") - rules_text),
			     rules_text, strstr(rules_text, "\trule xfs-scrub"));

	ruleset_init(&f->rs);
	assert_int_equal(ruleset_load_buffer(&f->rs, "t.rules", text,
					     strlen(text)), 0);
	free(text);
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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_weights, setup, teardown),
		cmocka_unit_test_setup_teardown(test_unless, setup, teardown),
		cmocka_unit_test_setup_teardown(test_verdicts, setup, teardown),
		cmocka_unit_test_setup_teardown(test_unmatched, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
