#include "report/report-tests.h"
#include "base/json.h"
#include "base/util.h"

#include <string.h>

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

	strbuf_addf(out, "%-14s %s (%s)\n", test_status_name(x->status),
		    t->set.items[x->first].test, t->set.items[x->first].suite);
	for (i = x->first; i < x->first + x->nr; i++) {
		const struct named *n = &t->named[i];
		const struct testannot *a = n->a;

		strbuf_addf(out, "    %-13s ", fix_state_name(n->state));
		add_id(out, n, 0);
		if (*named_subject(n))
			strbuf_addf(out, " %s", named_subject(n));
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

/* A verdict a recorded decision set (run_judge_decisions()). */
static int is_decided(enum verdict v)
{
	return v == VERDICT_ACCEPTED || v == VERDICT_REJECTED ||
	       v == VERDICT_DEFERRED;
}

void report_tests_text(struct strbuf *out, const struct run *run,
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
	QSORT(by_date, nr_dated, candidate_cmp_time);
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
		strbuf_addch(out, ')');
		/* What was decided for the branch, as propose says it. */
		if (c->decision && is_decided(c->verdict))
			strbuf_addf(out, ": %s", c->why);
		strbuf_addch(out, '\n');
	}
	free(by_date);
}

void report_tests_json(struct strbuf *out, const struct tests_run *t,
		       const struct test *x)
{
	const struct testannot *first = &t->set.items[x->first];
	struct strbuf id = STRBUF_INIT;
	struct json_writer jw;
	size_t i;

	jw_init(&jw, out);
	jw_object_begin(&jw);
	jw_object_string(&jw, "test", first->test);
	jw_object_string(&jw, "suite", first->suite);
	jw_object_string(&jw, "status", test_status_name(x->status));
	jw_object_array(&jw, "missing");
	for (i = x->first; i < x->first + x->nr; i++) {
		const struct named *n = &t->named[i];
		size_t k;

		if (n->state != FIX_MISSING)
			continue;
		for (k = x->first; k < i; k++)
			if (t->named[k].state == FIX_MISSING &&
			    git_oid_equal(&t->named[k].id, &n->id))
				break;
		if (k == i)
			jw_array_string(&jw, git_oid_tostr_s(&n->id));
	}
	jw_end(&jw);
	jw_object_array(&jw, "annotations");
	for (i = x->first; i < x->first + x->nr; i++) {
		const struct named *n = &t->named[i];
		const struct testannot *a = n->a;

		jw_array_object(&jw);
		jw_object_string(&jw, "kind", testannot_kind_name(a->kind));
		jw_object_string(&jw, "how", a->how);
		jw_object_string(&jw, "sha", a->sha);
		jw_object_string(&jw, "subject", a->subject);
		jw_object_string(&jw, "fstyp", a->fstyp);
		jw_object_string(&jw, "via", a->via);
		jw_object_string(&jw, "file", a->file);
		jw_object_int(&jw, "line", a->line);
		strbuf_reset(&id);
		if (n->resolved)
			add_id(&id, n, 1);
		jw_object_string(&jw, "commit", n->resolved ? id.buf : NULL);
		jw_object_string(&jw, "state", fix_state_name(n->state));
		jw_object_string(&jw, "detail", n->detail);
		jw_object_string(&jw, "resolved_by", n->how);
		jw_object_string(&jw, "verdict",
				 n->c ? verdict_name(n->c->verdict) : NULL);
		jw_end(&jw);
	}
	jw_end(&jw);
	jw_end(&jw);
	strbuf_addch(out, '\n');
	strbuf_release(&id);
}

void report_tests_exclude(struct strbuf *out, const struct tests_run *t,
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
		strbuf_addf(out, " (\"%s\")", named_subject(n));
		sep = ", ";
	}
	strbuf_addch(out, '\n');
}
