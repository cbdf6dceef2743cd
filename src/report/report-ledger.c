#include "report/report-ledger.h"
#include "git/malformed.h"
#include "base/util.h"

#include <string.h>

void report_add_other_decision(struct strbuf *out,
			       const struct ledger_entry *e, int full_who)
{
	const char *lt = full_who ? NULL : strstr(e->who, " <");
	char day[11];

	ledger_format_date(day, e->when);
	strbuf_addf(out, "%s for %s on %s", decision_name(e->decision),
		    e->branch, day);
	if (e->decision == DECISION_DEFERRED)
		strbuf_addf(out, ", until %s,", ledger_until_text(e, day));
	strbuf_addf(out, " by %.*s", lt ? (int)(lt - e->who) : (int)strlen(e->who),
		    e->who);
	if (*e->reason)
		strbuf_addf(out, ": %s", e->reason);
	if (full_who && ledger_origin_known(&e->origin)) {
		strbuf_addstr(out, "; ");
		report_add_origin(out, e);
	}
}

void report_add_origin(struct strbuf *out, const struct ledger_entry *e)
{
	if (!ledger_origin_known(&e->origin))
		return;
	strbuf_addstr(out, "read from ");
	ledger_origin_text(out, &e->origin);
	strbuf_addstr(out, " (a claim by the mail's sender)");
}

void report_add_deferral_over(struct strbuf *out, const struct ledger_entry *e)
{
	const char *lt = strstr(e->who, " <");
	char day[11];
	const char *until = ledger_until_text(e, day);

	strbuf_addf(out, "deferral over: deferred until %s by %.*s", until,
		    lt ? (int)(lt - e->who) : (int)strlen(e->who), e->who);
	if (*e->reason)
		strbuf_addf(out, ": %s", e->reason);
	if (e->until_tag)
		strbuf_addf(out, "; the branch has %s now", until);
	else
		strbuf_addf(out, "; %s has come", until);
}

static const char *plural(size_t n)
{
	return n == 1 ? "" : "s";
}

void report_ledger_sync(struct strbuf *out, const struct ledger_sync *s)
{
	char hex[GIT_OID_HEXSZ + 1];

	if (s->to_file)
		strbuf_addf(out, "%zu decision%s from %s added to the ledger\n",
			    s->to_file, plural(s->to_file), s->ref);
	if (s->to_notes) {
		git_oid_tostr(hex, 13, &s->commit);
		strbuf_addf(out, "%zu decision%s added to %s in %zu note%s "
			    "(commit %s)\n", s->to_notes, plural(s->to_notes),
			    s->ref, s->notes, plural(s->notes), hex);
	}
	strbuf_addf(out, "the ledger and %s hold the same %zu decision%s\n",
		    s->ref, s->decisions, plural(s->decisions));
	if (s->skipped)
		strbuf_addf(out, "%zu decision%s dated in the future left out (see "
			    "the warnings)\n", s->skipped, plural(s->skipped));
}

void report_decision(struct strbuf *out, git_repository *repo,
		     const struct ledger_entry *e)
{
	char hex[GIT_OID_HEXSZ + 1], date[11];
	struct malformed_commit bad;
	git_commit *commit = NULL;
	const char *subject = NULL;
	int ret;

	git_oid_tostr(hex, 13, &e->commit);
	strbuf_addf(out, "%s %s for %s", decision_name(e->decision), hex,
		    e->branch);
	if (e->decision == DECISION_DEFERRED)
		strbuf_addf(out, " until %s", ledger_until_text(e, date));
	/* A malformed commit is in the repository: its subject, read raw. */
	ret = malformed_lookup_raw(&commit, &bad, repo, &e->commit);
	if (ret < 0)
		git_error_clear();
	else
		subject = ret ? bad.summary : git_commit_summary(commit);
	strbuf_addf(out, ": %s", subject ? subject : "(not in this repository)");
	if (*e->reason)
		strbuf_addf(out, " (%s)", e->reason);
	strbuf_addch(out, '\n');
	if (ledger_origin_known(&e->origin)) {
		strbuf_addstr(out, "    ");
		report_add_origin(out, e);
		strbuf_addch(out, '\n');
	}
	if (ret > 0)
		malformed_release(&bad);
	git_commit_free(commit);
}

static int by_lineno(const void *a, const void *b)
{
	const struct ledger_entry *x = *(const struct ledger_entry *const *)a;
	const struct ledger_entry *y = *(const struct ledger_entry *const *)b;

	return x->lineno < y->lineno ? -1 : x->lineno > y->lineno;
}

void report_decisions_in_force(struct strbuf *out, git_repository *repo,
			       const struct ledger *l, const char *branch,
			       git_time_t now)
{
	const struct ledger_entry **v = NULL;
	struct ledger_entry *e, *tmp;
	size_t nr = 0, alloc = 0, i;

	HASH_ITER(hh, l->entries, e, tmp) {
		if (strcmp(e->branch, branch) || !ledger_in_force(e, now))
			continue;
		ALLOC_GROW(v, nr, alloc);
		v[nr++] = e;
	}
	QSORT(v, nr, by_lineno);
	for (i = 0; i < nr; i++)
		report_decision(out, repo, v[i]);
	free(v);
}
