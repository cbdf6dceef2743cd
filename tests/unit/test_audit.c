/*
 * Unit tests for judging someone else's picks (src/audit.h): a
 * throwaway mainline and linux-6.6.y, judged as run.c judges them,
 * then picks listed out of mainline order (applied in it), twice, one
 * already in the branch, one that conflicts, one reverted, one below
 * the threshold, one outside the watched paths, one whose follow-up
 * is missing; the verdicts, the text, the JSON and the reply mail.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stages/audit.h"
#include "report/report-audit.h"
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
	"rule follow-up +100 fact /^follow-up$/\n";

struct fixture {
	char dir[64];
	long tick;
	git_repository *repo;
	struct ruleset rules;
	struct scan scan;
	struct branch_index branch;
	struct patchid_cache patchids;
	struct match m;
	git_oid tip;
	struct audit a;
};

static void sh(struct fixture *f, const char *cmd)
{
	testrepo_sh(f->dir, &f->tick, 60, cmd);
}

/* Appends tag to path, commits with message (double-quoted), tags. */
static void commit(struct fixture *f, const char *tag, const char *path,
		   const char *message)
{
	struct strbuf sb = STRBUF_INIT;

	strbuf_addf(&sb, "echo %s >>%s && git add %s && git commit -q -m \"%s\" "
		    "&& git tag %s", tag, path, path, message, tag);
	sh(f, sb.buf);
	strbuf_release(&sb);
}

/* The object a revision names. */
static git_oid rev(struct fixture *f, const char *name)
{
	return testrepo_rev(f->repo, name);
}

static void hex12(struct fixture *f, const char *name, char *buf)
{
	git_oid id = rev(f, name);

	git_oid_tostr(buf, 13, &id);
}

/*
 * Mainline after v6.6:
 *
 *   present   a.c, cherry-picked -x into linux-6.6.y
 *   one       b.c
 *   again     b.c, on top of one
 *   harder    c.c, Fixes: one
 *   conflict  d.c, which linux-6.6.y changed its own way
 *   undone    e.c, then reverted (undonerev)
 *   tidy      f.c, below the threshold
 *   outside   mm/m.c
 */
static int setup(void **state)
{
	const char *rs = rules_text;
	struct fixture *f = calloc(1, sizeof(*f));
	struct candidate_list *l;
	struct candidate *pulled;
	struct deps d;
	size_t i;

	assert_non_null(f);
	strcpy(f->dir, "/tmp/test_audit.XXXXXX");
	testrepo_create(f->dir);
	f->tick = 1700000000;
	sh(f, "git init -q -b master && mkdir -p fs/ext4 mm && "
	   "for p in fs/ext4/a.c fs/ext4/b.c fs/ext4/c.c fs/ext4/d.c "
	   "fs/ext4/e.c fs/ext4/f.c mm/m.c; do echo one >$p; done && git add . && "
	   "git commit -q -m 'the code' && git tag v6.6 && "
	   "git branch linux-6.6.y");
	commit(f, "present", "fs/ext4/a.c", "ext4: fix present");
	commit(f, "one", "fs/ext4/b.c", "ext4: fix one");
	commit(f, "again", "fs/ext4/b.c", "ext4: fix one again");
	commit(f, "harder", "fs/ext4/c.c", "ext4: fix one harder\n\nFixes: "
	       "$(git rev-parse one | cut -c1-12) (\\\"ext4: fix one\\\")");
	commit(f, "conflict", "fs/ext4/d.c", "ext4: fix d");
	commit(f, "undone", "fs/ext4/e.c", "ext4: fix undone");
	sh(f, "git revert --no-edit undone && git tag undonerev");
	commit(f, "tidy", "fs/ext4/f.c", "ext4: tidy");
	commit(f, "outside", "mm/m.c", "mm: fix m");
	sh(f, "git checkout -q linux-6.6.y && git cherry-pick -x present && "
	   "echo branch >fs/ext4/d.c && git commit -q -a -m 'ext4: d, the "
	   "branch way' && git checkout -q master");

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
	patchid_cache_init(&f->patchids, "");
	match_init(&f->m, f->repo, &f->branch, &f->scan, &f->patchids);

	/* Judged as run.c judges. */
	l = &f->scan.candidates;
	assert_int_equal(match_candidates(&f->m, l, &f->scan.from), 0);
	deps_init(&d, f->repo, &f->m, l, &f->tip);
	deps_set_range(&d, &f->scan);
	assert_int_equal(deps_link(&d), 0);
	for (i = 0; i < l->nr; i++) {
		assert_int_equal(deps_facts(&d, l->items[i]), 0);
		score_candidate(&f->rules, l->items[i]);
		assert_int_equal(deps_applicable(&d, l->items[i]), 0);
		score_decide(l->items[i]);
	}
	while ((pulled = deps_pull_prereq(&d))) {
		score_candidate(&f->rules, pulled);
		score_decide(pulled);
	}
	assert_int_equal(deps_finish(&d), 0);
	deps_release(&d);
	audit_init(&f->a);
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *f = *state;

	audit_release(&f->a);
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

static void pick(struct fixture *f, const char *name, const char *source)
{
	git_oid id = rev(f, name);

	audit_add(&f->a, &id, source);
}

/* "flag,flag" of pick i. */
static void assert_flags(struct fixture *f, size_t i, enum audit_verdict v,
			 const char *want)
{
	const struct audit_pick *p = &f->a.picks[i];
	struct strbuf sb = STRBUF_INIT;
	size_t j;

	for (j = 0; j < p->nr_flags; j++)
		strbuf_addf(&sb, "%s%s", j ? "," : "", p->flags[j].flag);
	assert_string_equal(sb.buf, want);
	assert_int_equal(p->verdict, v);
	strbuf_release(&sb);
}

/* The picks, "again" before "one": listed out of mainline order. */
static void pick_all(struct fixture *f)
{
	pick(f, "again", "picks:1");
	pick(f, "one", "picks:2");
	pick(f, "present", "picks:3");
	pick(f, "conflict", "picks:4");
	pick(f, "undone", "picks:5");
	pick(f, "tidy", "picks:6");
	pick(f, "outside", "picks:7");
	pick(f, "one", "picks:8");
	assert_int_equal(audit_run(&f->a, f->repo, &f->rules, &f->branch,
				   &f->scan.candidates, NULL, NULL, NULL, NULL), 0);
}

static void test_flags(void **state)
{
	struct fixture *f = *state;
	char hex[13], want[256];

	pick_all(f);
	/* Applied in mainline order, "again" finds "one" before it. */
	assert_flags(f, 0, AUDIT_OK, "");
	assert_flags(f, 1, AUDIT_QUESTIONABLE, "follow-up-missing");
	hex12(f, "harder", hex);
	snprintf(want, sizeof(want), "%s (\"ext4: fix one harder\") fixes it, "
		 "and is neither in the picks nor in the branch", hex);
	assert_string_equal(f->a.picks[1].flags[0].evidence, want);
	assert_flags(f, 2, AUDIT_REJECT, "already-present");
	assert_flags(f, 3, AUDIT_REJECT, "does-not-apply");
	assert_string_equal(f->a.picks[3].flags[0].evidence, "conflicts in "
			    "fs/ext4/d.c with linux-6.6.y and the picks before "
			    "it in mainline order");
	assert_flags(f, 4, AUDIT_REJECT, "reverted");
	hex12(f, "undonerev", hex);
	snprintf(want, sizeof(want), "reverted in mainline by %s (\"Revert "
		 "\"ext4: fix undone\"\")", hex);
	assert_string_equal(f->a.picks[4].flags[0].evidence, want);
	assert_flags(f, 5, AUDIT_QUESTIONABLE, "not-a-fix");
	assert_string_equal(f->a.picks[5].flags[0].evidence, "score 0 below the "
			    "threshold 10 of ext4; no rule matched; not matched: "
			    "fix, follow-up");
	assert_flags(f, 6, AUDIT_QUESTIONABLE, "not-watched");
	assert_null(f->a.picks[6].c);
	assert_flags(f, 7, AUDIT_REJECT, "duplicate-pick");
	assert_string_equal(f->a.picks[7].flags[0].evidence,
			    "listed before, as picks:2");
	assert_int_equal(audit_worst(&f->a), AUDIT_REJECT);
}

/* The follow-up picked too: nothing is missing any more. */
static void test_follow_up_picked(void **state)
{
	struct fixture *f = *state;

	pick(f, "one", "queue:1");
	pick(f, "harder", "queue:2");
	assert_int_equal(audit_run(&f->a, f->repo, &f->rules, &f->branch,
				   &f->scan.candidates, NULL, NULL, NULL, NULL), 0);
	assert_flags(f, 0, AUDIT_OK, "");
	assert_flags(f, 1, AUDIT_OK, "");
	assert_int_equal(audit_worst(&f->a), AUDIT_OK);
}

/*
 * Listed twice, or three times: the first listing is judged (and
 * applied), the later ones are rejected as duplicates and not applied
 * again, whatever their place in mainline order; a present commit
 * listed twice is present once and a duplicate once.
 */
static void test_duplicate_picks(void **state)
{
	struct fixture *f = *state;

	pick(f, "again", "queue:1");
	pick(f, "one", "queue:2");
	pick(f, "again", "queue:3");
	pick(f, "present", "queue:4");
	pick(f, "one", "queue:5");
	pick(f, "present", "queue:6");
	pick(f, "again", "queue:7");
	assert_int_equal(audit_run(&f->a, f->repo, &f->rules, &f->branch,
				   &f->scan.candidates, NULL, NULL, NULL, NULL), 0);
	assert_flags(f, 0, AUDIT_OK, "");
	assert_flags(f, 1, AUDIT_QUESTIONABLE, "follow-up-missing");
	assert_flags(f, 2, AUDIT_REJECT, "duplicate-pick");
	assert_string_equal(f->a.picks[2].flags[0].evidence,
			    "listed before, as queue:1");
	assert_flags(f, 3, AUDIT_REJECT, "already-present");
	assert_flags(f, 4, AUDIT_REJECT, "duplicate-pick");
	assert_string_equal(f->a.picks[4].flags[0].evidence,
			    "listed before, as queue:2");
	assert_flags(f, 5, AUDIT_REJECT, "duplicate-pick");
	assert_string_equal(f->a.picks[5].flags[0].evidence,
			    "listed before, as queue:4");
	assert_flags(f, 6, AUDIT_REJECT, "duplicate-pick");
	assert_string_equal(f->a.picks[6].flags[0].evidence,
			    "listed before, as queue:1");
	assert_int_equal(audit_worst(&f->a), AUDIT_REJECT);
}

/* Without "one", "again" conflicts: only the picks are applied. */
static void test_missing_base(void **state)
{
	struct fixture *f = *state;

	pick(f, "again", "queue:1");
	assert_int_equal(audit_run(&f->a, f->repo, &f->rules, &f->branch,
				   &f->scan.candidates, NULL, NULL, NULL, NULL), 0);
	assert_flags(f, 0, AUDIT_REJECT, "does-not-apply");
}

static void test_text_json(void **state)
{
	struct fixture *f = *state;
	struct strbuf out = STRBUF_INIT, want = STRBUF_INIT;
	char hex[13];
	git_oid id;
	const char *p;

	pick_all(f);
	audit_text(&out, &f->a);
	/* Worst first; in the order given within a verdict. */
	p = out.buf;
	hex12(f, "present", hex);
	strbuf_addf(&want, "reject        %s  ext4: fix present  (picks:3)\n"
		    "              already-present: ", hex);
	assert_memory_equal(p, want.buf, want.len);
	p = strstr(p, "\nreject        ");
	assert_non_null(p);
	hex12(f, "conflict", hex);
	assert_memory_equal(p + 15, hex, 12);
	assert_true(strstr(out.buf, "(picks:5)") < strstr(out.buf, "(picks:8)"));
	assert_true(strstr(out.buf, "(picks:8)") < strstr(out.buf, "(picks:2)"));
	assert_true(strstr(out.buf, "(picks:7)") < strstr(out.buf, "(picks:1)"));
	assert_non_null(strstr(out.buf, "              not-watched: it changes no "
			       "path the rules watch: not judged\n"));
	hex12(f, "again", hex);
	strbuf_reset(&want);
	strbuf_addf(&want, "ok            %s  ext4: fix one again  (picks:1)\n",
		    hex);
	assert_string_equal(out.buf + out.len - want.len, want.buf);

	strbuf_reset(&out);
	audit_json(&out, &f->a);
	id = rev(f, "outside");
	strbuf_reset(&want);
	strbuf_addf(&want, "{\"commit\":\"%s\",\"verdict\":\"questionable\","
		    "\"subject\":null,\"input\":\"picks:7\",\"message_id\":null,"
		    "\"judged\":null,\"flags\":[{\"flag\":\"not-watched\","
		    "\"weight\":\"questionable\",\"evidence\":\"it changes no "
		    "path the rules watch: not judged\"}],"
		    "\"applies_with\":null}\n",
		    git_oid_tostr_s(&id));
	assert_non_null(strstr(out.buf, want.buf));
	assert_non_null(strstr(out.buf, "\"subject\":\"ext4: fix one again\","
			       "\"input\":\"picks:1\",\"message_id\":null,"
			       "\"judged\":\"proposed\",\"flags\":[],"
			       "\"applies_with\":null}\n"));
	strbuf_release(&out);
	strbuf_release(&want);
}

static void test_email(void **state)
{
	struct fixture *f = *state;
	struct strbuf out = STRBUF_INIT;
	struct audit_reply r;
	const char *drop, *check, *fine;

	pick_all(f);
	memset(&r, 0, sizeof(r));
	r.from_name = "A Maintainer";
	r.from_email = "maint@example.com";
	r.to = "Sasha <sasha@example.com>";
	r.cc = "stable@vger.kernel.org, Ren\xc3\xa9 <rene@example.org>";
	r.subject = "[PATCH AUTOSEL 6.6 0/8] picks";
	r.in_reply_to = "autosel@example.com";
	r.message_id = "reply@example.com";
	r.now = 1700000000;
	r.branch = "linux-6.6.y";
	r.range = "v6.6..master";
	audit_email(&out, &f->a, &r);
	assert_non_null(strstr(out.buf, "\nSubject: Re: [PATCH AUTOSEL 6.6 0/8] "
			       "picks\n"));
	/* Lists of addresses: each display name encoded on its own. */
	assert_non_null(strstr(out.buf, "\nTo: Sasha <sasha@example.com>\n"
			       "Cc: stable@vger.kernel.org, "
			       "=?UTF-8?q?Ren=C3=A9?= <rene@example.org>\n"));
	assert_non_null(strstr(out.buf, "\nIn-Reply-To: <autosel@example.com>\n"));
	assert_non_null(strstr(out.buf, "\nThese 8 picks for linux-6.6.y were "
			       "judged against mainline v6.6..master\n"
			       "by stablepick: 4 to drop, 3 to check, 1 fine.\n"));
	drop = strstr(out.buf, "\nPlease drop:\n");
	check = strstr(out.buf, "\nPlease check:\n");
	fine = strstr(out.buf, "\nFine:\n");
	assert_non_null(drop);
	assert_true(drop < check && check < fine);
	/* Long evidence is wrapped under its flag. */
	assert_non_null(strstr(drop, "\n      does-not-apply: conflicts in "
			       "fs/ext4/d.c with linux-6.6.y and the\n"
			       "        picks before it in mainline order\n"));
	assert_true(out.len > 22);
	assert_string_equal(out.buf + out.len - 22, "\n-- \nstablepick audit\n");
	strbuf_release(&out);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_flags, setup, teardown),
		cmocka_unit_test_setup_teardown(test_follow_up_picked, setup, teardown),
		cmocka_unit_test_setup_teardown(test_duplicate_picks, setup, teardown),
		cmocka_unit_test_setup_teardown(test_missing_base, setup, teardown),
		cmocka_unit_test_setup_teardown(test_text_json, setup, teardown),
		cmocka_unit_test_setup_teardown(test_email, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
