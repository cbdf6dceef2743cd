#include "cli.h"
#include "error.h"
#include "json.h"
#include "message.h"
#include "report.h"
#include "strbuf.h"
#include "testannot.h"
#include "trace.h"
#include "util.h"

#include <getopt.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

/*
 * stablepick tests: which fstests and LTP regression tests name, as
 * the fix of their bug, a kernel commit the branch lacks.  The commits
 * the annotations name are judged by the presence machinery of propose
 * (ancestry, upstream lines, patch-id, subject); a test is
 * expected-fail when one is missing, unknown when one cannot be found,
 * else expected-pass.
 */

enum format { FORMAT_TEXT, FORMAT_JSON, FORMAT_EXCLUDE };
static const char *const format_names[] = { "text", "json", "exclude" };

/* Where an annotated commit stands, worst last but one. */
enum fix_state {
	FIX_PRESENT,			/* the branch has it */
	FIX_MAYBE,			/* only its subject is in the branch */
	FIX_NOT_NEEDED,			/* absent, and so is the bug it fixes */
	FIX_MISSING,			/* absent: a backport candidate */
	FIX_UNRESOLVED,			/* no commit found for it */
	FIX_IGNORED,			/* a CVE tag, or another filesystem */
};
static const char *const state_names[] = {
	"present", "maybe-present", "not-needed", "missing", "unresolved",
	"ignored",
};

enum test_status { TEST_PASS, TEST_FAIL, TEST_UNKNOWN };
static const char *const status_names[] = {
	"expected-pass", "expected-fail", "unknown",
};

/* One annotation, judged. */
struct named {
	const struct testannot *a;
	enum fix_state state;
	int resolved;
	git_oid id;			/* the commit judged, when resolved */
	struct candidate *c;		/* its candidate, when judged */
	char *how;			/* how it was resolved, or NULL */
	char *detail;			/* the evidence for the state */
	char *subject;			/* of the commit, when not judged */
};

struct tests_run {
	struct testannot_set set;
	struct named *named;		/* parallel to set.items */
	/* The commits named outside the range, once each. */
	struct candidate_list cands;
	const char *fstyp;		/* --fstyp, or NULL */
};

static void place_added(struct candidate_list *l, size_t added);

static void tests_run_init(struct tests_run *t)
{
	memset(t, 0, sizeof(*t));
	testannot_set_init(&t->set);
	candidate_list_init(&t->cands);
}

static void tests_run_release(struct tests_run *t)
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

/*
 * Reads the annotations of a checkout: suite "fstests" or "ltp", or
 * NULL to tell by its directories (tests/ and common/, or testcases/).
 * Problems in the sources are warnings.
 */
static int read_suite(struct testannot_set *set, const char *dir,
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
	size_t len = strlen(sha);
	git_oid prefix;
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

/*
 * Finds the commit of every annotation (none for CVE tags and for
 * another filesystem than --fstyp).  A linux-stable-git commit stands
 * for itself when the branch has it, else for the mainline commit its
 * upstream line names, when there is one.
 */
static int resolve_all(struct run_context *ctx, struct run *run,
		       struct tests_run *t)
{
	struct match *m = run_match(run, ctx->repo);
	size_t i;

	t->named = xcalloc(t->set.nr ? t->set.nr : 1, sizeof(*t->named));
	for (i = 0; i < t->set.nr; i++) {
		const struct testannot *a = &t->set.items[i];
		struct named *n = &t->named[i];
		struct match_found found;
		struct match_pick pick;
		git_commit *commit = NULL;
		struct message msg;
		const char *raw;
		char *why = NULL;
		int r;

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
		if (r < 0)
			return -1;
		if (!r) {
			n->detail = why;
			continue;
		}
		n->resolved = 1;
		if (a->kind != TESTANNOT_STABLE ||
		    branch_index_has(&run->branch, &n->id) ||
		    git_oid_equal(&n->id, &run->branch.tip))
			continue;
		if (git_commit_lookup(&commit, ctx->repo, &n->id) < 0)
			return error_git("cannot read commit %s", a->sha);
		raw = git_commit_message(commit);
		message_init(&msg);
		message_parse(&msg, raw ? raw : "", raw ? strlen(raw) : 0);
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
			return -1;
	}
	return by_subject(run, t);
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
			if (git_commit_lookup(&commit, ctx->repo, &n->id) < 0)
				return error_git("cannot read commit %s",
						 git_oid_tostr_s(&n->id));
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
		place_added(&run->scan.candidates, added);
	return ret;
}

/*
 * Every commit named is judged as propose judges it: those of the
 * range with the range (every changed path counts for patch-ids: the
 * fixes tests name are in mm/ and net/ too), the others alone.  A
 * missing fix whose bug is not in the branch either (every commit its
 * Fixes: names is absent) is not applicable there: not needed.
 */
static int judge_all(struct run_context *ctx, struct run *run,
		     struct tests_run *t)
{
	int ret = add_named(ctx, run, t, 0);

	if (!ret)
		ret = run_judge_scores(run, ctx->repo, &run->scan.candidates,
				       &run->scan.from);
	trace_stage("the range judged");
	if (!ret && t->cands.nr)
		ret = run_judge_scores(run, ctx->repo, &t->cands, NULL);
	trace_stage("the commits outside the range judged");
	return ret;
}

static void settle_states(struct tests_run *t)
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

/* A test: the annotations [first, first + nr) of the set. */
struct test {
	size_t first, nr;
	enum test_status status;
	int shown;			/* some annotation is not ignored, or a CVE */
};

static void group_tests(const struct tests_run *t, struct test **out,
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

/* The subject to show: the commit's, else the annotation's. */
static const char *subject_of(const struct named *n)
{
	if (n->c && n->c->msg.subject)
		return n->c->msg.subject;
	if (n->subject)
		return n->subject;
	return n->a->subject ? n->a->subject : "";
}

static void add_id(struct strbuf *out, const struct named *n, int full)
{
	if (n->resolved)
		strbuf_addf(out, "%.*s", full ? GIT_OID_HEXSZ : 12,
			    git_oid_tostr_s(&n->id));
	else
		strbuf_addstr(out, n->a->sha);
}

static void text_test(struct strbuf *out, const struct tests_run *t,
		      const struct test *x)
{
	size_t i;

	strbuf_addf(out, "%-14s %s (%s)\n", status_names[x->status],
		    t->set.items[x->first].test, t->set.items[x->first].suite);
	for (i = x->first; i < x->first + x->nr; i++) {
		const struct named *n = &t->named[i];
		const struct testannot *a = n->a;

		strbuf_addf(out, "    %-13s ", state_names[n->state]);
		add_id(out, n, 0);
		if (*subject_of(n))
			strbuf_addf(out, " %s", subject_of(n));
		strbuf_addch(out, '\n');
		strbuf_addf(out, "%18s%s: %s", "", a->how, n->detail ? n->detail : "");
		if (n->how)
			strbuf_addf(out, " (%s)", n->how);
		strbuf_addf(out, "; %s:%u", a->file, a->line);
		if (a->via)
			strbuf_addf(out, " via %s", a->via);
		if (a->fstyp)
			strbuf_addf(out, ", only on %s", a->fstyp);
		strbuf_addch(out, '\n');
	}
}

/* Mainline order, the order to apply them in: oldest first. */
static int cmp_date(const void *a, const void *b)
{
	const struct candidate *x = *(const struct candidate *const *)a;
	const struct candidate *y = *(const struct candidate *const *)b;

	if (x->time != y->time)
		return x->time < y->time ? -1 : 1;
	return git_oid_cmp(&x->id, &y->id);
}

static void text_report(struct strbuf *out, const struct run *run,
			const struct tests_run *t, const struct test *tests,
			size_t nr, unsigned mask)
{
	const struct candidate **by_date;
	size_t count[3] = { 0, 0, 0 }, shown = 0, nr_dated = 0, i, j;
	const char *base = run->branch.base_name ? run->branch.base_name :
			   "its base";

	/* The commits named, once each. */
	by_date = xcalloc(t->set.nr + 1, sizeof(*by_date));
	for (i = 0; i < t->set.nr; i++) {
		const struct candidate *c = t->named[i].c;

		for (j = 0; c && j < nr_dated && by_date[j] != c; j++)
			;
		if (c && j == nr_dated)
			by_date[nr_dated++] = c;
	}
	QSORT(by_date, nr_dated, cmp_date);
	for (i = 0; i < nr; i++)
		if (tests[i].shown) {
			count[tests[i].status]++;
			shown++;
		}
	strbuf_addf(out, "branch %s (base %s) against %s: %zu test files "
		    "read, %zu name kernel commits\n\n", run->branch.name, base,
		    run->scan.range, t->set.nr_tests, shown);
	for (i = 0; i < nr; i++)
		if (tests[i].shown && (mask & 1u << tests[i].status))
			text_test(out, t, &tests[i]);
	strbuf_addf(out, "\n%zu tests: %zu expected-fail, %zu expected-pass, "
		    "%zu unknown\n", shown, count[TEST_FAIL], count[TEST_PASS],
		    count[TEST_UNKNOWN]);
	/* The backport candidates, once each, with the tests naming them. */
	for (i = 0, j = 0; i < nr_dated; i++) {
		const struct candidate *c = by_date[i];
		const char *sep = "";
		size_t k;

		if (c->present || c->maybe_present || c->not_applicable)
			continue;
		if (!j++)
			strbuf_addstr(out, "\nmissing fixes (backport candidates):\n");
		strbuf_addf(out, "    %.12s %s (", c->hex,
			    c->msg.subject ? c->msg.subject : "");
		for (k = 0; k < t->set.nr; k++) {
			if (t->named[k].c != c || t->named[k].state != FIX_MISSING)
				continue;
			if (k && t->named[k - 1].c == c &&
			    !strcmp(t->set.items[k - 1].test, t->set.items[k].test))
				continue;
			strbuf_addf(out, "%s%s", sep, t->set.items[k].test);
			sep = ", ";
		}
		strbuf_addstr(out, ")\n");
	}
	free(by_date);
}

/* One JSON object per test, a line each. */
static void json_test(struct strbuf *out, const struct tests_run *t,
		      const struct test *x)
{
	const struct testannot *first = &t->set.items[x->first];
	struct strbuf id = STRBUF_INIT;
	const char *sep = "";
	size_t i;

	strbuf_addstr(out, "{\"test\":");
	json_add_str(out, first->test);
	strbuf_addstr(out, ",\"suite\":");
	json_add_str(out, first->suite);
	strbuf_addf(out, ",\"status\":\"%s\",\"missing\":[",
		    status_names[x->status]);
	for (i = x->first; i < x->first + x->nr; i++) {
		const struct named *n = &t->named[i];
		size_t k;

		if (n->state != FIX_MISSING)
			continue;
		for (k = x->first; k < i; k++)
			if (t->named[k].state == FIX_MISSING &&
			    git_oid_equal(&t->named[k].id, &n->id))
				break;
		if (k < i)
			continue;
		strbuf_addf(out, "%s\"%s\"", sep, git_oid_tostr_s(&n->id));
		sep = ",";
	}
	strbuf_addstr(out, "],\"annotations\":[");
	for (i = x->first; i < x->first + x->nr; i++) {
		const struct named *n = &t->named[i];
		const struct testannot *a = n->a;

		strbuf_addf(out, "%s{\"kind\":\"%s\",\"how\":",
			    i > x->first ? "," : "", testannot_kind_name(a->kind));
		json_add_str(out, a->how);
		strbuf_addstr(out, ",\"sha\":");
		json_add_str(out, a->sha);
		strbuf_addstr(out, ",\"subject\":");
		json_add_str(out, a->subject);
		strbuf_addstr(out, ",\"fstyp\":");
		json_add_str(out, a->fstyp);
		strbuf_addstr(out, ",\"via\":");
		json_add_str(out, a->via);
		strbuf_addstr(out, ",\"file\":");
		json_add_str(out, a->file);
		strbuf_addf(out, ",\"line\":%u,\"commit\":", a->line);
		strbuf_reset(&id);
		if (n->resolved)
			add_id(&id, n, 1);
		json_add_str(out, n->resolved ? id.buf : NULL);
		strbuf_addf(out, ",\"state\":\"%s\",\"detail\":",
			    state_names[n->state]);
		json_add_str(out, n->detail);
		strbuf_addstr(out, ",\"resolved_by\":");
		json_add_str(out, n->how);
		strbuf_addch(out, '}');
	}
	strbuf_addstr(out, "]}\n");
	strbuf_release(&id);
}

/* "xfs/123 # missing 1a2b3c4d5e6f ("xfs: fix ...")", as fstests -E reads. */
static void exclude_test(struct strbuf *out, const struct tests_run *t,
			 const struct test *x)
{
	const char *sep = " # ";
	size_t i;

	strbuf_addstr(out, t->set.items[x->first].test);
	for (i = x->first; i < x->first + x->nr; i++) {
		const struct named *n = &t->named[i];

		if (n->state == FIX_MISSING) {
			strbuf_addf(out, "%smissing ", sep);
		} else if (n->state == FIX_UNRESOLVED) {
			strbuf_addf(out, "%sunresolved ", sep);
		} else {
			continue;
		}
		add_id(out, n, 0);
		strbuf_addf(out, " (\"%s\")", subject_of(n));
		sep = ", ";
	}
	strbuf_addch(out, '\n');
}

/* --status LIST: a bit per test status. */
static int parse_status(const char *list, unsigned *mask)
{
	char *copy = xstrdup(list), *word, *save = NULL;
	int ret = 0;

	*mask = 0;
	for (word = strtok_r(copy, ",", &save); word && !ret;
	     word = strtok_r(NULL, ",", &save)) {
		size_t i;

		for (i = 0; i < ARRAY_SIZE(status_names); i++)
			if (!strcmp(word, status_names[i]))
				break;
		if (i == ARRAY_SIZE(status_names))
			ret = error("unknown status '%s' (expected expected-fail, "
				    "expected-pass or unknown)", word);
		else
			*mask |= 1u << i;
	}
	free(copy);
	return ret;
}

/*
 * The commits added after the walk (the last added ones of l) go where
 * the walk would have met them, by author date among the others: a fix
 * must come after what it fixes, and the judging relies on it.
 */
static void place_added(struct candidate_list *l, size_t added)
{
	struct candidate **walked = l->items, **extra, **items;
	size_t nr = l->nr - added, i = 0, j = 0, k = 0;

	extra = xcalloc(added + 1, sizeof(*extra));
	memcpy(extra, walked + nr, added * sizeof(*extra));
	QSORT(extra, added, cmp_date);
	items = xcalloc(l->nr + 1, sizeof(*items));
	while (i < nr || j < added) {
		if (j < added && (i == nr || extra[j]->time < walked[i]->time))
			items[k++] = extra[j++];
		else
			items[k++] = walked[i++];
	}
	for (i = 0; i < l->nr; i++) {
		items[i]->order = i;
		l->items[i] = items[i];
	}
	free(items);
	free(extra);
}

int cli_tests_named_by(struct run_context *ctx, struct run *run,
		       const char *dir)
{
	struct tests_run t;
	int ret;

	tests_run_init(&t);
	ret = read_suite(&t.set, dir, NULL);
	if (!ret)
		ret = resolve_all(ctx, run, &t);
	/* Below the base, or beyond upstream: no candidate of the run. */
	if (!ret)
		ret = add_named(ctx, run, &t, 1);
	tests_run_release(&t);
	return ret;
}

static int tests(struct run_context *ctx, int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "branch", required_argument, NULL, 'b' },
		{ "format", required_argument, NULL, 'f' },
		{ "fstests", required_argument, NULL, 'F' },
		{ "fstyp", required_argument, NULL, 't' },
		{ "help", no_argument, NULL, 'h' },
		{ "ltp", required_argument, NULL, 'l' },
		{ "output", required_argument, NULL, 'o' },
		{ "status", required_argument, NULL, 's' },
		{ "upstream", required_argument, NULL, 'u' },
		{ NULL, 0, NULL, 0 }
	};
	const char *branch = NULL, *upstream = NULL, *fstests = NULL;
	const char *ltp = NULL, *output = NULL, *status = NULL;
	enum format format = FORMAT_TEXT;
	struct strbuf out = STRBUF_INIT;
	struct test *list = NULL;
	size_t nr = 0, i;
	unsigned mask = 7;
	struct tests_run t;
	struct run run;
	int opt, f, ret;

	tests_run_init(&t);
	optind = 0;
	while ((opt = getopt_long(argc, argv, "+h", longopts, NULL)) != -1) {
		switch (opt) {
		case 'b': branch = optarg; break;
		case 'f':
			if ((f = cli_format(optarg, format_names,
					      ARRAY_SIZE(format_names))) < 0)
				return cli_usage(&cmd_tests);
			format = (enum format)f;
			break;
		case 'F': fstests = optarg; break;
		case 'h':
			printf("usage: stablepick tests %s\n", cmd_tests.usage);
			return 0;
		case 'l': ltp = optarg; break;
		case 'o': output = optarg; break;
		case 's': status = optarg; break;
		case 't': t.fstyp = optarg; break;
		case 'u': upstream = optarg; break;
		default:
			return cli_usage(&cmd_tests);
		}
	}
	if (optind != argc) {
		error("unexpected argument '%s'", argv[optind]);
		return cli_usage(&cmd_tests);
	}
	if (!branch || (!fstests && !ltp)) {
		error("tests needs --branch, and --fstests or --ltp");
		return cli_usage(&cmd_tests);
	}
	if (status && parse_status(status, &mask) < 0)
		return cli_usage(&cmd_tests);
	if (format == FORMAT_EXCLUDE && !status)
		mask = 1u << TEST_FAIL;

	/* The sources first: a bad checkout needs no repository. */
	ret = fstests ? read_suite(&t.set, fstests, "fstests") : 0;
	if (!ret && ltp)
		ret = read_suite(&t.set, ltp, "ltp");
	if (ret) {
		tests_run_release(&t);
		return 1;
	}
	ret = run_setup(ctx, &run, branch, upstream);
	if (!ret)
		ret = run_scan(ctx, &run);
	trace_stage("scan");
	if (!ret)
		ret = resolve_all(ctx, &run, &t);
	trace_stage("annotations resolved");
	if (!ret)
		ret = judge_all(ctx, &run, &t);
	trace_stage("presence of their bugs");
	if (!ret) {
		settle_states(&t);
		group_tests(&t, &list, &nr);
		if (format == FORMAT_TEXT)
			text_report(&out, &run, &t, list, nr, mask);
		for (i = 0; format != FORMAT_TEXT && i < nr; i++) {
			if (!list[i].shown || !(mask & 1u << list[i].status))
				continue;
			if (format == FORMAT_JSON)
				json_test(&out, &t, &list[i]);
			else
				exclude_test(&out, &t, &list[i]);
		}
	}
	if (!ret && output)
		ret = write_file_atomic(output, out.buf, out.len, "test list");
	else if (!ret)
		ret = report_write(stdout, &out);
	if (!ret)
		ret = run_save(ctx, &run);
	free(list);
	strbuf_release(&out);
	tests_run_release(&t);
	run_release(&run);
	return ret < 0 ? 1 : 0;
}

const struct cli_command cmd_tests = {
	"tests",
	"--branch BRANCH (--fstests DIR | --ltp DIR)...\n"
	"                        [--format text|json|exclude] [--fstyp TYPE]\n"
	"                        [--output FILE] [--status LIST] [--upstream REF]",
	"which fstests and LTP regression tests name fixes the branch lacks",
	tests,
};
