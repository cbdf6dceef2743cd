/*
 * Unit tests for the links between candidates (src/deps.h): Fixes:
 * targets below the base, absent, proposed, unknown and found by their
 * subject; a revert of a revert; a revert of a commit the branch
 * carries; a revert after the range, also one after a subsystem
 * prefix ("ext4: Revert "...""); a version hint that excludes the
 * branch, and hints just above, at and below its version; prerequisites
 * pulled in, below the base and newer than what
 * needs them; a file the branch lacks; a posted series left half
 * proposed.  A throwaway mainline and a linux-6.6.y judged as run.c
 * judges them (presence, links, facts, scores, verdicts, pulls).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stages/deps.h"
#include "stages/match.h"
#include "formats/rules.h"
#include "stages/scan.h"
#include "stages/score.h"
#include "base/strbuf.h"
#include "testrepo.h"

static const char rules_text[] =
	"version 1\n"
	"threshold 10\n"
	"subsystem ext4\n"
	"\tpaths fs/ext4/\n"
	"end\n"
	"link fixes trailer:Fixes /^([0-9a-f]{12,40})\\b/i\n"
	"rule fix +10 subject /\\bfix\\b/i\n"
	"rule follow-up +100 fact /^follow-up$/\n"
	"rule prerequisite +100 fact /^prerequisite$/\n"
	"rule reverts-present +100 fact /^reverts-present$/\n";

struct fixture {
	char dir[64];
	long tick;
	git_repository *repo;
	struct ruleset rules;
	struct scan scan;
	struct branch_index branch;
	struct patchid_cache patchids;
	struct match m;
	git_oid tip, end;
	int match_ready;
};

/* The 12-digit id of a revision, in a commit message. */
#define ID(rev) "$(git rev-parse " rev " | cut -c1-12)"

static void sh(struct fixture *f, const char *cmd)
{
	testrepo_sh(f->dir, &f->tick, 60, cmd);
}

/*
 * Appends a line to fs/ext4/FILE, commits with message (shell text in
 * double quotes: $(...) works, \" is a quote) and tags the commit.
 */
static void commit(struct fixture *f, const char *tag, const char *file,
		   const char *message)
{
	struct strbuf sb = STRBUF_INIT;

	strbuf_addf(&sb, "echo %s >>fs/ext4/%s && git add fs/ext4/%s && "
		    "git commit -q -m \"%s\" && git tag %s", tag, file, file,
		    message, tag);
	sh(f, sb.buf);
	strbuf_release(&sb);
}

/* The object a revision names. */
static git_oid rev(struct fixture *f, const char *name)
{
	return testrepo_rev(f->repo, name);
}

static char *hex12(struct fixture *f, const char *name)
{
	git_oid id = rev(f, name);
	char *hex = malloc(13);

	assert_non_null(hex);
	git_oid_tostr(hex, 13, &id);
	return hex;
}

/*
 * Mainline (tags), from v6.6 (linux-6.6.y's base):
 *
 *   old        below the base: a bug the branch has
 *   feat       a feature, below the threshold
 *   fixfeat    Fixes: feat                    bug-not-in-branch
 *   fixold     Fixes: old                     fixes-in-branch
 *   p          a fix                          proposed
 *   followup   Fixes: p                       follow-up
 *   unknown    Fixes: an id nowhere           target unknown
 *   bysubject  Fixes: a wrong id, old's subject
 *   r, r1, r2  a fix, its revert, the revert of the revert
 *   m, mrev    a fix linux-6.6.y has (-x), its revert in mainline
 *   hint       Cc: stable # 6.8+              version-hint
 *   hintabove, hintnewmajor
 *              Cc: stable # 6.7+, # 7.0+      version-hint
 *   hintsame, hintbelow, hintoldmajor
 *              Cc: stable # 6.6+, 6.5+, 5.15+ proposed
 *   helper     below the threshold
 *   needs      Cc: stable # 6.1.x: helper, and # 6.1.x: old
 *   addfile    adds fs/ext4/new.c, below the threshold
 *   fixfile    changes new.c                  file-not-in-branch
 *   s1, s2     a posted series (Link:), s2 below the threshold
 *   late, late2
 *              fixes                          <- the range ends here
 *   laterev    late's revert, after the range
 *   laterev2   late2's, "ext4: Revert "..."", after the range
 */
static int setup(void **state)
{
	const char *rs = rules_text;
	struct fixture *f = calloc(1, sizeof(*f));

	assert_non_null(f);
	strcpy(f->dir, "/tmp/test_deps.XXXXXX");
	testrepo_create(f->dir);
	f->tick = 1700000000;
	sh(f, "git init -q -b master && mkdir -p fs/ext4 && "
	       "for n in a b c d e f g h i j; do echo one >fs/ext4/$n.c; done && "
	       "git add fs && git commit -q -m 'ext4: the code'");
	commit(f, "old", "a.c", "ext4: old bug");
	sh(f, "git tag v6.6 && git branch linux-6.6.y");

	commit(f, "feat", "b.c", "ext4: add feature");
	commit(f, "fixfeat", "b.c", "ext4: fix feature\n\nFixes: " ID("feat")
	       " (\\\"ext4: add feature\\\")");
	commit(f, "fixold", "a.c", "ext4: fix old bug\n\nFixes: " ID("old")
	       " (\\\"ext4: old bug\\\")");
	commit(f, "p", "c.c", "ext4: fix p");
	commit(f, "followup", "c.c", "ext4: fix p harder\n\nFixes: " ID("p")
	       " (\\\"ext4: fix p\\\")");
	commit(f, "unknown", "d.c", "ext4: fix unknown\n\nFixes: "
	       "0123456789ab (\\\"ext4: no such commit\\\")");
	commit(f, "bysubject", "d.c", "ext4: fix by subject\n\nFixes: "
	       "fedcba987654 (\\\"ext4: old bug\\\")");
	commit(f, "r", "e.c", "ext4: fix r");
	sh(f, "git revert --no-edit r && git tag r1 && "
	       "git revert --no-edit r1 && git tag r2");
	commit(f, "m", "f.c", "ext4: fix m");
	sh(f, "git revert --no-edit m && git tag mrev");
	commit(f, "hint", "g.c", "ext4: fix hint\n\n"
	       "Cc: stable@vger.kernel.org # 6.8+");
	commit(f, "hintabove", "g.c", "ext4: fix hintabove\n\n"
	       "Cc: stable@vger.kernel.org # 6.7+");
	commit(f, "hintnewmajor", "g.c", "ext4: fix hintnewmajor\n\n"
	       "Cc: stable@vger.kernel.org # 7.0+");
	commit(f, "hintsame", "g.c", "ext4: fix hintsame\n\n"
	       "Cc: stable@vger.kernel.org # 6.6+");
	commit(f, "hintbelow", "g.c", "ext4: fix hintbelow\n\n"
	       "Cc: stable@vger.kernel.org # 6.5+");
	commit(f, "hintoldmajor", "g.c", "ext4: fix hintoldmajor\n\n"
	       "Cc: stable@vger.kernel.org # 5.15+");
	commit(f, "helper", "h.c", "ext4: add helper");
	commit(f, "needs", "h.c", "ext4: fix with helper\n\n"
	       "Cc: stable@vger.kernel.org # 6.1.x: " ID("helper")
	       ": ext4: add helper\n"
	       "Cc: stable@vger.kernel.org # 6.1.x: " ID("old") ": ext4: old bug");
	sh(f, "echo new >fs/ext4/new.c && git add fs/ext4/new.c && "
	       "git commit -q -m 'ext4: add new file' && git tag addfile");
	commit(f, "fixfile", "new.c", "ext4: fix new file");
	commit(f, "s1", "i.c", "ext4: fix s1\n\n"
	       "Link: https://lore.kernel.org/r/20231012123456.12345-1-a@host");
	commit(f, "s2", "i.c", "ext4: tidy s2\n\n"
	       "Link: https://lore.kernel.org/r/20231012123456.12345-2-a@host");
	commit(f, "late", "j.c", "ext4: fix late");
	commit(f, "late2", "e.c", "ext4: fix late2");
	sh(f, "git tag end && git revert --no-edit late && git tag laterev");
	sh(f, "git revert --no-edit late2 && git commit -q --amend "
	       "-m 'ext4: Revert \"ext4: fix late2\"' "
	       "-m \"This reverts commit $(git rev-parse late2).\" && "
	       "git tag laterev2");

	sh(f, "git checkout -q linux-6.6.y && git cherry-pick -x m && "
	       "git checkout -q master");

	assert_true(git_libgit2_init() > 0);
	assert_int_equal(git_repository_open(&f->repo, f->dir), 0);
	ruleset_init(&f->rules);
	assert_int_equal(ruleset_load_buffer(&f->rules, "t.rules", rs,
					     strlen(rs)), 0);
	testrepo_load_backports(&f->rules);
	f->tip = rev(f, "master");
	f->end = rev(f, "end");
	branch_index_init(&f->branch);
	assert_int_equal(branch_index_build(&f->branch, f->repo, "linux-6.6.y",
					    &f->tip, &f->rules), 0);
	assert_int_equal(f->branch.major, 6);
	assert_int_equal(f->branch.minor, 6);
	scan_init(&f->scan, f->repo, &f->rules);
	patchid_cache_init(&f->patchids, "");
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *f = *state;

	if (f->match_ready)
		match_release(&f->m);
	patchid_cache_release(&f->patchids);
	scan_release(&f->scan);
	branch_index_release(&f->branch);
	ruleset_release(&f->rules);
	git_repository_free(f->repo);
	testrepo_remove(f->dir);
	free(f);
	git_libgit2_shutdown();
	return 0;
}

/*
 * Scans base..to and judges the candidates as run.c does; with
 * range, deps is told that the scan is base..tip.
 */
static void judge(struct fixture *f, const git_oid *to, int range)
{
	struct candidate_list *l = &f->scan.candidates;
	struct candidate *pulled;
	struct deps d;
	size_t i;

	scan_set_range_oids(&f->scan, &f->branch.base, to, "v6.6..x");
	assert_int_equal(scan_run(&f->scan), 0);
	match_init(&f->m, f->repo, &f->branch, &f->scan, &f->patchids);
	f->match_ready = 1;
	assert_int_equal(match_candidates(&f->m, l, &f->scan.from), 0);
	deps_init(&d, f->repo, &f->m, l, &f->tip);
	if (range)
		deps_set_range(&d, &f->scan);
	assert_int_equal(deps_link(&d), 0);
	if (!git_oid_equal(to, &f->tip))
		assert_int_equal(deps_later_reverts(&d, to, &f->tip), 0);
	for (i = 0; i < l->nr; i++) {
		struct candidate *c = l->items[i];

		assert_int_equal(deps_facts(&d, c), 0);
		score_candidate(&f->rules, c);
		assert_int_equal(deps_applicable(&d, c), 0);
		score_decide(c);
	}
	while ((pulled = deps_pull_prereq(&d))) {
		score_candidate(&f->rules, pulled);
		score_decide(pulled);
	}
	for (i = 0; i < l->nr; i++)
		if (deps_reconsider(&d, l->items[i]) > 0)
			score_decide(l->items[i]);
	assert_int_equal(deps_finish(&d), 0);
	deps_release(&d);
}

static struct candidate *cand(struct fixture *f, const char *name)
{
	git_oid id = rev(f, name);
	struct candidate *c = candidate_list_find(&f->scan.candidates, &id);

	assert_non_null(c);
	return c;
}

static const char *verdict(struct fixture *f, const char *name)
{
	return verdict_name(cand(f, name)->verdict);
}

static int has_fact(const struct candidate *c, const char *fact)
{
	size_t i;

	for (i = 0; i < c->nr_facts; i++)
		if (!strcmp(c->facts[i], fact))
			return 1;
	return 0;
}

static int has_warning(const struct candidate *c, const char *text)
{
	size_t i;

	for (i = 0; i < c->nr_warnings; i++)
		if (!strcmp(c->warnings[i], text))
			return 1;
	return 0;
}

static void assert_target(struct fixture *f, const char *name, size_t i,
			  const char *target, enum target_status status)
{
	struct candidate *c = cand(f, name);

	assert_true(i < c->msg.nr_fixes);
	assert_non_null(c->fixes);
	if (target) {
		git_oid id = rev(f, target);

		assert_true(c->fixes[i].resolved);
		assert_true(git_oid_equal(&c->fixes[i].id, &id));
	} else {
		assert_false(c->fixes[i].resolved);
	}
	assert_string_equal(target_status_name(c->fixes[i].status),
			    target_status_name(status));
}

static void test_fixes(void **state)
{
	struct fixture *f = *state;
	char *hex;

	judge(f, &f->end, 0);
	/* The target below the threshold: the bug never got in. */
	assert_string_equal(verdict(f, "feat"), "below-threshold");
	assert_target(f, "fixfeat", 0, "feat", TARGET_ABSENT);
	assert_ptr_equal(cand(f, "fixfeat")->fixes[0].cand, cand(f, "feat"));
	assert_string_equal(verdict(f, "fixfeat"), "not-applicable");
	assert_string_equal(not_applicable_kind_name(cand(f, "fixfeat")->
						     not_applicable_kind),
			    "bug-not-in-branch");
	hex = hex12(f, "feat");
	{
		char *want = malloc(64);

		assert_non_null(want);
		snprintf(want, 64, "fixed commit %s not in branch", hex);
		assert_string_equal(cand(f, "fixfeat")->why, want);
		free(want);
	}
	free(hex);

	/* Below the base: outside the run, found by the walk from the base. */
	assert_target(f, "fixold", 0, "old", TARGET_IN_BRANCH);
	assert_null(cand(f, "fixold")->fixes[0].cand);
	assert_true(has_fact(cand(f, "fixold"), "fixes-in-branch"));
	assert_string_equal(verdict(f, "fixold"), "proposed");

	/* A fix of a proposal is a follow-up, proposed with it. */
	assert_string_equal(verdict(f, "p"), "proposed");
	assert_target(f, "followup", 0, "p", TARGET_PROPOSED);
	assert_true(has_fact(cand(f, "followup"), "follow-up"));
	assert_int_equal(cand(f, "followup")->score, 110);

	/* An id nowhere, whose subject is nowhere either: not judged by it. */
	assert_target(f, "unknown", 0, NULL, TARGET_UNKNOWN);
	assert_null(cand(f, "unknown")->not_applicable);
	assert_string_equal(verdict(f, "unknown"), "proposed");
	assert_int_equal(cand(f, "unknown")->nr_facts, 0);

	/* A wrong id, a right subject: resolved by it, with a warning. */
	assert_target(f, "bysubject", 0, "old", TARGET_IN_BRANCH);
	assert_true(cand(f, "bysubject")->fixes[0].by_subject);
	assert_true(has_warning(cand(f, "bysubject"), "Fixes: fedcba987654 "
				"(\"ext4: old bug\") resolved by its subject"));
}

static void test_reverts(void **state)
{
	struct fixture *f = *state;
	struct candidate *r, *r1, *r2, *m, *mrev;

	judge(f, &f->end, 0);
	r = cand(f, "r");
	r1 = cand(f, "r1");
	r2 = cand(f, "r2");
	/* The revert of a revert reverts the revert, not the fix. */
	assert_true(r1->msg.is_revert);
	assert_ptr_equal(r1->reverts, r);
	assert_ptr_equal(r2->reverts, r1);
	assert_null(r->reverts);
	assert_string_equal(r->reverted_by, r1->hex);
	assert_string_equal(r->reverted_by_subject, "Revert \"ext4: fix r\"");
	assert_string_equal(r1->reverted_by, r2->hex);
	assert_null(r2->reverted_by);
	assert_string_equal(verdict(f, "r"), "reverted");
	assert_string_equal(verdict(f, "r1"), "reverted");
	assert_false(r2->reverts_in_branch);

	/* A revert of what the branch carries is wanted there too. */
	m = cand(f, "m");
	mrev = cand(f, "mrev");
	assert_true(m->present);
	assert_ptr_equal(mrev->reverts, m);
	assert_true(mrev->reverts_in_branch);
	assert_true(has_fact(mrev, "reverts-present"));
	assert_string_equal(verdict(f, "m"), "present");
	assert_string_equal(verdict(f, "mrev"), "proposed");

	/* Reverted after the range's end: only deps_later_reverts() sees it. */
	{
		git_oid id = rev(f, "laterev");
		char hex[GIT_OID_HEXSZ + 1];

		git_oid_tostr(hex, sizeof(hex), &id);
		assert_string_equal(cand(f, "late")->reverted_by, hex);
		assert_string_equal(verdict(f, "late"), "reverted");
	}
	/* A revert after a subsystem prefix is one too, as for the parser. */
	{
		git_oid id = rev(f, "laterev2");
		char hex[GIT_OID_HEXSZ + 1];

		git_oid_tostr(hex, sizeof(hex), &id);
		assert_string_equal(cand(f, "late2")->reverted_by, hex);
		assert_string_equal(cand(f, "late2")->reverted_by_subject,
				    "ext4: Revert \"ext4: fix late2\"");
		assert_string_equal(verdict(f, "late2"), "reverted");
	}
}

/* The same links when the scan is base..tip and deps is told so. */
static void test_range(void **state)
{
	struct fixture *f = *state;
	git_oid id = rev(f, "laterev");

	judge(f, &f->tip, 1);
	assert_target(f, "fixold", 0, "old", TARGET_IN_BRANCH);
	assert_target(f, "fixfeat", 0, "feat", TARGET_ABSENT);
	assert_target(f, "bysubject", 0, "old", TARGET_IN_BRANCH);
	assert_ptr_equal(cand(f, "laterev")->reverts, cand(f, "late"));
	assert_ptr_equal(cand(f, "laterev2")->reverts, cand(f, "late2"));
	assert_string_equal(verdict(f, "late2"), "reverted");
	assert_true(git_oid_equal(&cand(f, "laterev")->id, &id));
	assert_string_equal(verdict(f, "late"), "reverted");
	assert_string_equal(verdict(f, "needs"), "proposed");
	assert_int_equal(cand(f, "needs")->prereqs[1].status, TARGET_IN_BRANCH);
}

static void test_applicable(void **state)
{
	struct fixture *f = *state;
	struct candidate *c;
	char *hex, *want;

	judge(f, &f->end, 0);
	c = cand(f, "hint");
	assert_string_equal(verdict_name(c->verdict), "not-applicable");
	assert_string_equal(not_applicable_kind_name(c->not_applicable_kind),
			    "version-hint");
	assert_string_equal(c->why, "stable tag asks for 6.8 and later; "
			    "linux-6.6.y is 6.6");

	c = cand(f, "fixfile");
	assert_string_equal(verdict_name(c->verdict), "not-applicable");
	assert_string_equal(not_applicable_kind_name(c->not_applicable_kind),
			    "file-not-in-branch");
	hex = hex12(f, "addfile");
	want = malloc(128);
	assert_non_null(want);
	snprintf(want, 128, "changes fs/ext4/new.c, which linux-6.6.y does "
		 "not have (%s added it: not proposed)", hex);
	assert_string_equal(c->why, want);
	free(want);
	free(hex);
}

/*
 * A hint names the oldest version the fix is for: the branch's own
 * version is one (6.6+ on linux-6.6.y), and a minor above it is not,
 * nor a major above it whatever its minor (7.0+), while an older major
 * is whatever its minor (5.15+).
 */
static void test_version_hints(void **state)
{
	struct fixture *f = *state;
	struct candidate *c;

	judge(f, &f->end, 0);
	c = cand(f, "hintabove");
	assert_string_equal(verdict_name(c->verdict), "not-applicable");
	assert_int_equal(c->not_applicable_kind, NOT_APPLICABLE_VERSION_HINT);
	assert_string_equal(c->why, "stable tag asks for 6.7 and later; "
			    "linux-6.6.y is 6.6");
	c = cand(f, "hintnewmajor");
	assert_string_equal(verdict_name(c->verdict), "not-applicable");
	assert_string_equal(c->why, "stable tag asks for 7.0 and later; "
			    "linux-6.6.y is 6.6");
	assert_string_equal(verdict(f, "hintsame"), "proposed");
	assert_int_equal(cand(f, "hintsame")->not_applicable_kind,
			 NOT_APPLICABLE_NONE);
	assert_string_equal(verdict(f, "hintbelow"), "proposed");
	assert_int_equal(cand(f, "hintbelow")->not_applicable_kind,
			 NOT_APPLICABLE_NONE);
	assert_string_equal(verdict(f, "hintoldmajor"), "proposed");
	assert_int_equal(cand(f, "hintoldmajor")->not_applicable_kind,
			 NOT_APPLICABLE_NONE);
}

static void test_prereqs(void **state)
{
	struct fixture *f = *state;
	struct candidate *needs, *helper;
	git_oid old = rev(f, "old");

	judge(f, &f->end, 0);
	needs = cand(f, "needs");
	helper = cand(f, "helper");
	assert_int_equal(needs->nr_prereqs, 2);
	/* In the run: pulled in, and proposed for the fact. */
	assert_ptr_equal(needs->prereqs[0].cand, helper);
	assert_string_equal(needs->prereqs[0].source, "Cc: stable");
	assert_true(helper->pulled);
	assert_true(has_fact(helper, "prerequisite"));
	assert_string_equal(verdict(f, "helper"), "proposed");
	assert_int_equal(needs->prereqs[0].status, TARGET_PROPOSED);
	/* Below the base: in the branch already, nothing to pull. */
	assert_null(needs->prereqs[1].cand);
	assert_true(git_oid_equal(&needs->prereqs[1].id, &old));
	assert_int_equal(needs->prereqs[1].status, TARGET_IN_BRANCH);
	assert_int_equal(needs->nr_warnings, 0);
	assert_string_equal(verdict(f, "needs"), "proposed");
}

/* A series proposed in part: the proposed patch says what is left. */
static void test_series(void **state)
{
	struct fixture *f = *state;
	struct candidate *s1, *s2;
	char want[128];

	judge(f, &f->end, 0);
	s1 = cand(f, "s1");
	s2 = cand(f, "s2");
	assert_string_equal(s1->series.id, "20231012123456.12345-a@host");
	assert_int_equal(s1->series.position, 1);
	assert_string_equal(s2->series.id, s1->series.id);
	assert_int_equal(s2->series.position, 2);
	assert_string_equal(verdict(f, "s1"), "proposed");
	assert_string_equal(verdict(f, "s2"), "below-threshold");
	snprintf(want, sizeof(want), "series-mate 2, %.12s, is below-threshold",
		 s2->hex);
	assert_true(has_warning(s1, want));
	assert_int_equal(s2->nr_warnings, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_fixes, setup, teardown),
		cmocka_unit_test_setup_teardown(test_reverts, setup, teardown),
		cmocka_unit_test_setup_teardown(test_range, setup, teardown),
		cmocka_unit_test_setup_teardown(test_applicable, setup, teardown),
		cmocka_unit_test_setup_teardown(test_version_hints, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_prereqs, setup, teardown),
		cmocka_unit_test_setup_teardown(test_series, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
