#include "run/testrun.h"
#include "base/error.h"
#include "git/malformed.h"
#include "formats/message.h"
#include "base/progress.h"
#include "base/strbuf.h"
#include "base/trace.h"
#include "base/util.h"

#include <string.h>

static const char *const state_names[] = {
	"present", "maybe-present", "not-needed", "missing", "unresolved",
	"ignored",
};
static const char *const status_names[TEST__NR] = {
	"expected-pass", "expected-fail", "unknown",
};

const char *fix_state_name(enum fix_state s)
{
	return state_names[s];
}

const char *test_status_name(enum test_status s)
{
	return status_names[s];
}

const char *named_subject(const struct named *n)
{
	if (n->c && n->c->msg.subject)
		return n->c->msg.subject;
	if (n->subject)
		return n->subject;
	return n->a->subject ? n->a->subject : "";
}

void tests_run_init(struct tests_run *t)
{
	memset(t, 0, sizeof(*t));
	testannot_set_init(&t->set);
	candidate_list_init(&t->cands);
}

void tests_run_release(struct tests_run *t)
{
	size_t i;

	for (i = 0; t->named && i < t->set.nr; i++) {
		free(t->named[i].how);
		free(t->named[i].detail);
		free(t->named[i].subject);
	}
	free(t->named);
	candidate_list_release(&t->cands);
	testannot_set_release(&t->set);
}

int tests_read_suite(struct testannot_set *set, const char *dir,
		     const char *suite)
{
	size_t first = set->nr_problems, i;
	int ret;

	if (!suite) {
		if (is_dir_in(dir, "tests") && is_dir_in(dir, "common"))
			suite = "fstests";
		else if (is_dir_in(dir, "testcases"))
			suite = "ltp";
		else
			return error("'%s' is neither an fstests checkout (tests/ "
				     "and common/) nor an LTP checkout "
				     "(testcases/)", dir);
	}
	if (!strcmp(suite, "fstests"))
		ret = testannot_read_fstests(set, dir);
	else
		ret = testannot_read_ltp(set, dir);
	for (i = first; i < set->nr_problems; i++)
		warning("%s/%s:%u: %s", dir, set->problems[i].file,
			set->problems[i].line, set->problems[i].message);
	return ret;
}

/* "fstests generic/123": how reports name a test. */
static char *test_label(const struct testannot *a)
{
	return xstrfmt("%s %s", a->suite, a->test);
}

/*
 * The commit an annotation's id names: 1 with *out set, 0 with *why
 * set when it names none (a placeholder, unknown, ambiguous, not a
 * commit), -1 after an error.
 */
static int lookup(git_repository *repo, const char *sha, git_oid *out,
		  char **why)
{
	git_object *obj = NULL, *peeled = NULL;
	struct malformed_commit bad;
	size_t len = strlen(sha);
	git_oid prefix, full;
	int ret;

	if (!testannot_sha_ok(sha)) {
		*why = xstrfmt("'%s' is a placeholder, not a commit id", sha);
		return 0;
	}
	if (git_oid_fromstrn(&prefix, sha, len) < 0)
		return error_git("bad commit id '%s'", sha);
	ret = git_object_lookup_prefix(&obj, repo, &prefix, len, GIT_OBJECT_ANY);
	if (ret == GIT_ENOTFOUND || ret == GIT_EAMBIGUOUS) {
		git_error_clear();
		*why = xstrfmt(ret == GIT_EAMBIGUOUS ?
			       "'%s' is ambiguous in this repository" :
			       "no commit '%s' in this repository", sha);
		return 0;
	}
	/* A malformed commit cannot be judged: the test stays unresolved. */
	if (ret < 0 && malformed_check_name(&bad, &full, repo, sha)) {
		malformed_warn(&full, bad.reason, "skipped");
		malformed_release(&bad);
		*why = xstrfmt("'%s' names a commit that cannot be parsed",
			       sha);
		return 0;
	}
	if (ret < 0)
		return error_git("cannot look up '%s'", sha);
	if (git_object_type(obj) != GIT_OBJECT_COMMIT &&
	    git_object_type(obj) != GIT_OBJECT_TAG) {
		*why = xstrfmt("'%s' names a %s, not a commit", sha,
			       git_object_type2string(git_object_type(obj)));
		git_object_free(obj);
		return 0;
	}
	ret = git_object_peel(&peeled, obj, GIT_OBJECT_COMMIT);
	git_object_free(obj);
	if (ret < 0) {
		git_error_clear();
		*why = xstrfmt("'%s' names a tag of no commit", sha);
		return 0;
	}
	git_oid_cpy(out, git_object_id(peeled));
	git_object_free(peeled);
	return 1;
}

/*
 * The annotations whose id names no commit, by their subject: the one
 * commit of the scanned range with it (the presence engine walks the
 * range once for all of them), else a commit of the branch with it
 * that stands for no other (maybe-present, by subject only).
 */
static int by_subject(struct run *run, struct tests_run *t)
{
	struct match *m = run_match(run, run->scan.repo);
	struct match_wanted *w = NULL;
	size_t nr = 0, alloc = 0, i, j;
	int ret;

	for (i = 0; i < t->set.nr; i++) {
		const struct testannot *a = &t->set.items[i];

		if (t->named[i].resolved || t->named[i].state != FIX_UNRESOLVED ||
		    !a->subject)
			continue;
		for (j = 0; j < nr && strcmp(w[j].subject, a->subject); j++)
			;
		if (j < nr)
			continue;
		ALLOC_GROW(w, nr, alloc);
		memset(&w[nr], 0, sizeof(*w));
		w[nr++].subject = a->subject;
	}
	if (!nr)
		return 0;
	ret = match_range_subjects(m, w, nr);
	for (i = 0; !ret && i < t->set.nr; i++) {
		struct named *n = &t->named[i];
		const git_oid *b;
		struct match_wanted *hit = NULL;

		if (n->resolved || n->state != FIX_UNRESOLVED || !n->a->subject)
			continue;
		for (j = 0; j < nr && !hit; j++)
			if (!strcmp(w[j].subject, n->a->subject))
				hit = &w[j];
		if (hit->found == 1) {
			n->resolved = 1;
			git_oid_cpy(&n->id, &hit->id);
			free(n->how);
			n->how = xstrfmt("%s; found by its subject",
					 n->detail ? n->detail : "no id");
			free(n->detail);
			n->detail = NULL;
			continue;
		}
		if (!hit->found && (b = match_branch_subject(m, n->a->subject))) {
			n->state = FIX_MAYBE;
			free(n->how);
			n->how = n->detail;
			n->detail = xstrfmt("same subject as %.12s in %s",
					    git_oid_tostr_s(b), run->branch.name);
		} else {
			char *why = n->detail;

			n->detail = xstrfmt("%s; %s", why, hit->found ?
					    "several commits have its subject" :
					    "no commit of the range or the "
					    "branch has its subject");
			free(why);
		}
	}
	free(w);
	return ret;
}

int tests_resolve(struct run_context *ctx, struct run *run,
		  struct tests_run *t)
{
	struct match *m = run_match(run, ctx->repo);
	struct progress progress;
	size_t i;
	int ret = 0;

	t->named = xcalloc(t->set.nr ? t->set.nr : 1, sizeof(*t->named));
	progress_start(&progress, "Annotations", t->set.nr);
	for (i = 0; !ret && i < t->set.nr; i++) {
		const struct testannot *a = &t->set.items[i];
		struct named *n = &t->named[i];
		struct match_found found;
		struct match_pick pick;
		git_commit *commit = NULL;
		struct message msg;
		const char *raw;
		char *why = NULL;
		int r;

		progress_update(&progress, i + 1);
		n->a = a;
		n->state = FIX_UNRESOLVED;
		if (a->kind == TESTANNOT_CVE) {
			n->state = FIX_IGNORED;
			n->detail = xstrfmt("CVE-%s names no commit", a->sha);
			continue;
		}
		if (t->fstyp && a->fstyp && strcmp(t->fstyp, a->fstyp)) {
			n->state = FIX_IGNORED;
			n->detail = xstrfmt("only on %s", a->fstyp);
			continue;
		}
		r = lookup(ctx->repo, a->sha, &n->id, &why);
		if (r < 0) {
			ret = -1;
			break;
		}
		if (!r) {
			n->detail = why;
			continue;
		}
		n->resolved = 1;
		if (a->kind != TESTANNOT_STABLE ||
		    branch_index_has(&run->branch, &n->id) ||
		    git_oid_equal(&n->id, &run->branch.tip))
			continue;
		if (git_commit_lookup(&commit, ctx->repo, &n->id) < 0) {
			ret = error_git("cannot read commit %s", a->sha);
			break;
		}
		raw = git_commit_message(commit);
		message_init(&msg);
		message_parse(&msg, raw ? raw : "", raw ? strlen(raw) : 0);
		message_read_backports(&msg, raw ? raw : "",
				       raw ? strlen(raw) : 0, &run->rules);
		memset(&pick, 0, sizeof(pick));
		pick.msg = &msg;
		r = msg.nr_upstream ? match_mainline(m, &pick, &found, NULL) : 0;
		if (r > 0 && found.how == EVIDENCE_UPSTREAM_LINE) {
			n->how = xstrfmt("stable commit %.12s backports %.12s",
					 a->sha, git_oid_tostr_s(&found.id));
			git_oid_cpy(&n->id, &found.id);
		}
		message_release(&msg);
		git_commit_free(commit);
		if (r < 0)
			ret = -1;
	}
	progress_stop(&progress);
	trace_stage("annotations resolved by id");
	if (!ret)
		ret = by_subject(run, t);
	trace_stage("annotations resolved by subject");
	return ret;
}

/*
 * The commits named become candidates: those of the range join the
 * scan's (in the place the walk would have met them), so that they
 * are judged with the range, as propose --tests-from judges them; the
 * others (below the base, beyond upstream) go to t->cands.  Each gets
 * the fact named-by-test and the tests in named_by.  Returns 0 or -1.
 */
static int add_named(struct run_context *ctx, struct run *run,
		     struct tests_run *t, int range_only)
{
	size_t i, added = 0;
	int ret = 0;

	for (i = 0; !ret && i < t->set.nr; i++) {
		struct named *n = &t->named[i];
		struct candidate_list *l = &run->scan.candidates;
		struct candidate *c;
		git_commit *commit = NULL;
		int in_range = scan_in_range(&run->scan, &n->id) == 1;
		char *label;

		if (!n->resolved || n->state != FIX_UNRESOLVED ||
		    (range_only && !in_range))
			continue;
		if (!in_range)
			l = &t->cands;
		c = candidate_list_find(l, &n->id);
		if (!c) {
			int r = malformed_lookup(&commit, ctx->repo, &n->id);

			if (r < 0)
				return error_git("cannot read commit %s",
						 git_oid_tostr_s(&n->id));
			/* Warned: a malformed commit cannot be judged. */
			if (r > 0) {
				n->resolved = 0;
				free(n->detail);
				n->detail = xstrfmt("%.12s cannot be parsed",
						    git_oid_tostr_s(&n->id));
				continue;
			}
			c = candidate_list_add(l, &n->id);
			ret = scan_fill(&run->scan, c, commit);
			git_commit_free(commit);
			added += in_range;
		}
		n->c = c;
		label = test_label(n->a);
		candidate_add_named_by(c, label);
		candidate_add_fact(c, FACT_NAMED_BY_TEST);
		free(label);
	}
	if (!ret && added)
		candidate_list_place_added(&run->scan.candidates, added);
	return ret;
}

int tests_judge(struct run_context *ctx, struct run *run,
		struct tests_run *t)
{
	int ret = add_named(ctx, run, t, 0);

	if (!ret)
		ret = run_judge_scores(run, ctx->repo, &run->scan.candidates,
				       &run->scan.from);
	if (!ret)
		ret = run_judge_verdicts(run, ctx->repo,
					 &run->scan.candidates);
	trace_stage("the range judged");
	if (!ret && t->cands.nr)
		ret = run_judge_scores(run, ctx->repo, &t->cands, NULL);
	if (!ret && t->cands.nr)
		ret = run_judge_verdicts(run, ctx->repo, &t->cands);
	trace_stage("the commits outside the range judged");
	return ret;
}

void tests_settle(struct tests_run *t)
{
	size_t i;

	for (i = 0; i < t->set.nr; i++) {
		struct named *n = &t->named[i];
		const struct candidate *c = n->c;
		const struct evidence *e;

		if (!c)
			continue;
		free(n->detail);
		if (c->present)
			n->state = FIX_PRESENT;
		else if (c->maybe_present)
			n->state = FIX_MAYBE;
		else if (c->not_applicable)
			n->state = FIX_NOT_NEEDED;
		else
			n->state = FIX_MISSING;
		e = candidate_presence(c);
		if (n->state == FIX_NOT_NEEDED)
			n->detail = xstrfmt("absent, but the branch cannot need "
					    "it: %s", c->not_applicable);
		else if (e)
			n->detail = xstrdup(e->detail);
		else
			n->detail = xstrdup(c->nr_evidence ? c->evidence[0].detail : "");
	}
}

void tests_group(const struct tests_run *t, struct test **out,
		 size_t *nr_out)
{
	struct test *tests = NULL;
	size_t nr = 0, alloc = 0, i, j;

	for (i = 0; i < t->set.nr; i = j) {
		struct test *x;
		int missing = 0, unresolved = 0, counted = 0, cve = 0;

		for (j = i; j < t->set.nr &&
		     !strcmp(t->set.items[j].test, t->set.items[i].test) &&
		     !strcmp(t->set.items[j].suite, t->set.items[i].suite); j++) {
			enum fix_state s = t->named[j].state;

			missing += s == FIX_MISSING;
			unresolved += s == FIX_UNRESOLVED;
			counted += s != FIX_IGNORED;
			cve += t->set.items[j].kind == TESTANNOT_CVE;
		}
		ALLOC_GROW(tests, nr, alloc);
		x = &tests[nr++];
		x->first = i;
		x->nr = j - i;
		x->shown = counted || cve;
		if (missing)
			x->status = TEST_FAIL;
		else if (unresolved || !counted)
			x->status = TEST_UNKNOWN;
		else
			x->status = TEST_PASS;
	}
	*out = tests;
	*nr_out = nr;
}

int tests_named_by(struct run_context *ctx, struct run *run,
		   const char *dir)
{
	struct tests_run t;
	int ret;

	tests_run_init(&t);
	ret = tests_read_suite(&t.set, dir, NULL);
	if (!ret)
		ret = tests_resolve(ctx, run, &t);
	/* Below the base, or beyond upstream: no candidate of the run. */
	if (!ret)
		ret = add_named(ctx, run, &t, 1);
	tests_run_release(&t);
	return ret;
}
