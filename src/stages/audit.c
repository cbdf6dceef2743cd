#include "stages/audit.h"
#include "git/apply.h"
#include "stages/applywith.h"
#include "base/error.h"
#include "store/ledger.h"
#include "stages/posted.h"
#include "stages/score.h"
#include "base/util.h"

#include <stdint.h>
#include <string.h>

static const char *const verdict_names[] = {
	[AUDIT_OK] = "ok",
	[AUDIT_QUESTIONABLE] = "questionable",
	[AUDIT_REJECT] = "reject",
};

const char *audit_verdict_name(enum audit_verdict v)
{
	return verdict_names[v];
}

void audit_init(struct audit *a)
{
	memset(a, 0, sizeof(*a));
}

static void address_release(struct audit_address *ad)
{
	free(ad->name);
	free(ad->email);
}

static void mail_free(struct audit_mail *m)
{
	size_t i;

	free(m->source);
	free(m->message_id);
	free(m->in_reply_to);
	free_string_array(m->references, m->nr_references);
	free(m->subject);
	free(m->title);
	free(m->date);
	address_release(&m->from);
	address_release(&m->author);
	for (i = 0; i < m->nr_rcpt; i++)
		address_release(&m->rcpt[i]);
	free(m->rcpt);
	free(m->why);
	free(m->review_line);
	free(m);
}

struct audit_mail *audit_mail_add(struct audit *a)
{
	struct audit_mail *m = xcalloc(1, sizeof(*m));

	ALLOC_GROW(a->mails, a->nr_mails, a->alloc_mails);
	a->mails[a->nr_mails++] = m;
	m->index = a->nr_mails;
	return m;
}

void audit_release(struct audit *a)
{
	size_t i, j;

	for (i = 0; i < a->nr_mails; i++)
		mail_free(a->mails[i]);
	free(a->mails);
	for (i = 0; i < a->nr; i++) {
		for (j = 0; j < a->picks[i].nr_flags; j++)
			free(a->picks[i].flags[j].evidence);
		free(a->picks[i].flags);
		applies_with_release(&a->picks[i].with);
		free(a->picks[i].source);
		free(a->picks[i].message_id);
	}
	free(a->picks);
	audit_init(a);
}

struct audit_pick *audit_add(struct audit *a, const git_oid *id,
			     const char *source)
{
	struct audit_pick *p;

	ALLOC_GROW(a->picks, a->nr, a->alloc);
	p = &a->picks[a->nr];
	memset(p, 0, sizeof(*p));
	git_oid_cpy(&p->id, id);
	git_oid_tostr(p->hex, sizeof(p->hex), id);
	p->source = xstrdup(source);
	p->position = a->nr++;
	return p;
}

__attribute__((format(printf, 4, 5)))
static void flag(struct audit_pick *p, const char *name,
		 enum audit_verdict weight, const char *fmt, ...)
{
	struct strbuf sb = STRBUF_INIT;
	va_list ap;

	va_start(ap, fmt);
	strbuf_vaddf(&sb, fmt, ap);
	va_end(ap);
	ALLOC_GROW(p->flags, p->nr_flags, p->alloc_flags);
	p->flags[p->nr_flags].flag = name;
	p->flags[p->nr_flags].weight = weight;
	p->flags[p->nr_flags].evidence = strbuf_detach(&sb, NULL);
	p->flags[p->nr_flags].brief = 0;
	p->nr_flags++;
	if (weight > p->verdict)
		p->verdict = weight;
}

static int digits(size_t n)
{
	int d = 1;

	while (n >= 10) {
		n /= 10;
		d++;
	}
	return d;
}

void audit_cite(struct strbuf *sb, const struct audit *a,
		const struct audit_mail *m)
{
	if (m->total)
		strbuf_addf(sb, "%0*d/%d", digits((size_t)m->total), m->number,
			    m->total);
	else if (m->position)
		strbuf_addf(sb, "%0*zu/%zu*", digits(a->nr_patches), m->position,
			    a->nr_patches);
	else
		strbuf_addf(sb, "mail %zu", m->index);
}

static const struct audit_pick *find_pick(const struct audit *a,
					  const git_oid *id)
{
	size_t i;

	for (i = 0; i < a->nr; i++)
		if (git_oid_equal(&a->picks[i].id, id))
			return &a->picks[i];
	return NULL;
}

static void short_hex(char *buf, const git_oid *id)
{
	git_oid_tostr(buf, 13, id);
}

/* The rules that scored it, for "not-a-fix". */
static void add_reasons(struct strbuf *sb, const struct candidate *c)
{
	size_t i;

	if (!c->nr_reasons) {
		strbuf_addstr(sb, "no rule matched");
		return;
	}
	strbuf_addstr(sb, "matched ");
	for (i = 0; i < c->nr_reasons; i++)
		strbuf_addf(sb, "%s%s %+d", i ? ", " : "",
			    c->reasons[i].rule->name, c->reasons[i].rule->weight);
}

/* The series as the list archives show it: mates left behind. */
static void posted_flags(struct audit_pick *p, const struct candidate *c,
			 const struct audit *a)
{
	const struct posted *pp = c->posted;
	struct strbuf series = STRBUF_INIT;
	char hex[GIT_OID_HEXSZ + 1];
	size_t i;

	strbuf_addf(&series, "\"%s\"", pp->series_subject);
	if (pp->revision > 1)
		strbuf_addf(&series, " (v%d)", pp->revision);
	for (i = 0; i < pp->nr_mates; i++) {
		const struct posted_mate *m = &pp->mates[i];

		if ((m->status && !strcmp(m->status, "present")) ||
		    (m->cand && find_pick(a, &m->cand->id)))
			continue;
		if (m->cand) {
			short_hex(hex, &m->cand->id);
			flag(p, "series-mate-missing", AUDIT_QUESTIONABLE,
			     "patch %d/%d of the series %s, %s (\"%s\"), is neither "
			     "in the picks nor in the branch", m->msg->number,
			     pp->total, series.buf, hex, m->msg->title);
		} else {
			flag(p, "series-mate-missing", AUDIT_QUESTIONABLE,
			     "patch %d/%d of the series %s, \"%s\", is neither in "
			     "the picks nor in the branch, and no mainline commit "
			     "of the range has its subject", m->msg->number,
			     pp->total, series.buf, m->msg->title);
		}
	}
	strbuf_release(&series);
}

/* Replies in the review thread that the rules count against it. */
static void reply_flags(struct audit_pick *p, const struct candidate *c,
			const struct ruleset *rules)
{
	const struct posted *pp = c->posted;
	size_t i, j;

	for (i = 0; i < c->nr_reasons; i++) {
		const struct rule *r = c->reasons[i].rule;

		if (r->field != FIELD_REPLY || r->weight >= 0)
			continue;
		for (j = 0; j < pp->nr_replies; j++) {
			const struct posted_reply *re = &pp->replies[j];
			char *link;

			if (rule_match(rules, r, re->text, strlen(re->text), NULL) != 1)
				continue;
			link = posted_link(re->msg->message_id);
			flag(p, "review-objection", AUDIT_QUESTIONABLE,
			     "%s answered the %s <%s>: \"%s\" (rule %s %+d)",
			     re->msg->from, re->to_cover ? "cover letter" : "patch",
			     link, c->reasons[i].match, r->name, r->weight);
			free(link);
			break;
		}
	}
}

/* What the judging of the range says of the pick. */
static void judged_flags(struct audit_pick *p, const struct candidate *c,
			 const struct audit *a, const struct candidate_list *judged,
			 const struct ruleset *rules)
{
	const struct subsystem *s = candidate_subsystem(c);
	char hex[GIT_OID_HEXSZ + 1];
	struct strbuf sb = STRBUF_INIT;
	size_t i, j, brief;

	if (c->present || c->verdict == VERDICT_PRESENT)
		flag(p, "already-present", AUDIT_REJECT, "%s",
		     c->nr_evidence ? c->evidence[0].detail : "in the branch");
	else if (c->maybe_present)
		flag(p, "maybe-present", AUDIT_QUESTIONABLE, "%s; check that "
		     "it is the same fix", candidate_evidence(c, EVIDENCE_SUBJECT) ?
		     candidate_evidence(c, EVIDENCE_SUBJECT)->detail : c->why);
	if (c->decision && c->decision->decision == DECISION_REJECTED)
		flag(p, "rejected-before", AUDIT_REJECT, "%s", c->why);
	if (c->reverted_by)
		flag(p, "reverted", AUDIT_REJECT, "reverted in mainline by %.12s "
		     "(\"%s\")", c->reverted_by,
		     c->reverted_by_subject ? c->reverted_by_subject : "");
	if (c->verdict == VERDICT_NOT_APPLICABLE)
		flag(p, c->not_applicable_kind ==
		     NOT_APPLICABLE_FILE_NOT_IN_BRANCH ? "file-not-in-branch" :
		     "bug-not-in-branch", AUDIT_REJECT, "%s",
		     c->not_applicable ? c->not_applicable : c->why);
	if (c->verdict == VERDICT_BRANCH_REVERTED)
		flag(p, "reverted-in-branch", AUDIT_QUESTIONABLE, "%s; what "
		     "changed since?", c->why);
	if (c->verdict == VERDICT_VETOED)
		flag(p, "policy", AUDIT_REJECT, "%s", c->why);
	if (c->verdict == VERDICT_NEEDS_ACK)
		flag(p, "policy", AUDIT_QUESTIONABLE, "%s", c->why);
	if (c->verdict == VERDICT_WAITING)
		flag(p, "too-fresh", AUDIT_QUESTIONABLE, "%s", c->why);
	if (c->verdict == VERDICT_BELOW_THRESHOLD) {
		strbuf_addf(&sb, "score %lld below the threshold %d of %s; ",
			    c->score, c->threshold, s ? s->name : "the rules");
		add_reasons(&sb, c);
		brief = sb.len;
		strbuf_addstr(&sb, "; not matched: ");
		if (!score_unmatched(&sb, rules, c))
			strbuf_addstr(&sb, "none");
		flag(p, "not-a-fix", AUDIT_QUESTIONABLE, "%s", sb.buf);
		p->flags[p->nr_flags - 1].brief = brief;
		strbuf_reset(&sb);
	}

	/* A later fix of it, in neither the picks nor the branch. */
	for (i = 0; i < judged->nr; i++) {
		const struct candidate *f = judged->items[i];

		for (j = 0; f->fixes && j < f->msg.nr_fixes; j++) {
			if (f->fixes[j].cand != c || f->present ||
			    find_pick(a, &f->id))
				continue;
			short_hex(hex, &f->id);
			flag(p, "follow-up-missing", AUDIT_QUESTIONABLE,
			     "%s (\"%s\") fixes it, and is neither in the picks "
			     "nor in the branch", hex,
			     f->msg.subject ? f->msg.subject : "");
		}
	}
	/* The bug it fixes came in with a commit the rules propose. */
	for (i = 0; c->fixes && i < c->msg.nr_fixes; i++) {
		const struct fixes_target *t = &c->fixes[i];

		if (t->status != TARGET_PROPOSED || find_pick(a, &t->id))
			continue;
		short_hex(hex, &t->id);
		flag(p, "fixed-commit-not-picked", AUDIT_QUESTIONABLE,
		     "it fixes %s (\"%s\"), which is neither in the branch nor "
		     "in the picks, and which the rules propose: pick both or "
		     "neither", hex, t->cand && t->cand->msg.subject ?
		     t->cand->msg.subject : t->ref->subject ? t->ref->subject : "");
	}
	/* Patches posted in the same series, left behind. */
	if (c->posted && c->posted->total)
		posted_flags(p, c, a);
	for (i = 0; !c->posted && c->series.id && i < judged->nr; i++) {
		const struct candidate *m = judged->items[i];

		if (m == c || !m->series.id || strcmp(m->series.id, c->series.id) ||
		    m->present || find_pick(a, &m->id))
			continue;
		short_hex(hex, &m->id);
		flag(p, "series-mate-missing", AUDIT_QUESTIONABLE,
		     "patch %d of its series, %s (\"%s\"), is neither in the "
		     "picks nor in the branch", m->series.position, hex,
		     m->msg.subject ? m->msg.subject : "");
	}
	if (c->posted)
		reply_flags(p, c, rules);
	for (i = 0; i < c->nr_prereqs; i++) {
		const struct prereq *q = &c->prereqs[i];

		if (q->status == TARGET_IN_BRANCH || find_pick(a, &q->id))
			continue;
		short_hex(hex, &q->id);
		flag(p, "prerequisite-missing", AUDIT_QUESTIONABLE,
		     "%s (%s) is neither in the picks nor in the branch", hex,
		     q->source);
	}
	strbuf_release(&sb);
}

/*
 * Mainline order (as "git cherry-pick $(git rev-list --reverse ...)"
 * would apply them), whatever order the picks were listed in; picks
 * from outside the range last, in the order given.
 */
struct apply_order {
	struct audit_pick *p;
	size_t key;			/* walk position; SIZE_MAX: outside */
};

static int cmp_apply_order(const void *x, const void *y)
{
	const struct apply_order *a = x, *b = y;

	if (a->key != b->key)
		return a->key < b->key ? -1 : 1;
	return a->p->position < b->p->position ? -1 :
	       a->p->position > b->p->position;
}

/*
 * For pick i, which does not apply after the picks before it: the
 * mainline commits the picks lack after which it does, flagged
 * prerequisite-not-picked, or the sets tried for none, said in its
 * does-not-apply flag.
 */
static int search_prereqs(struct audit_pick **who, const git_commit **commits,
			  const struct apply_result *res, size_t i,
			  struct match *m, const struct branch_index *branch,
			  const struct candidate_list *judged,
			  struct trialcache *cache,
			  const struct applywith_limits *lim)
{
	struct applywith_prefix *pre = xcalloc(i ? i : 1, sizeof(*pre));
	struct audit_pick *p = who[i];
	struct strbuf sb = STRBUF_INIT;
	size_t j, n = 0;
	int ret;

	for (j = 0; j < i; j++) {
		if (!res[j].applies)
			continue;
		git_oid_cpy(&pre[n].id, git_commit_id(commits[j]));
		pre[n++].res = &res[j];
	}
	ret = applywith_one(m, branch, judged, cache, lim, &p->id,
			    res[i].conflicts, res[i].nr_conflicts, pre, n,
			    &p->with);
	free(pre);
	if (ret)
		return ret;
	if (p->with.state == WITH_NONE) {
		struct audit_flag *f = &p->flags[p->nr_flags - 1];
		char *more = xstrfmt("%s; no series of mainline commits the "
				     "picks lack makes it apply (%zu tried): "
				     "a manual backport", f->evidence,
				     p->with.tried);

		free(f->evidence);
		f->evidence = more;
		return 0;
	}
	for (j = 0; j < p->with.nr; j++) {
		const struct likely_prereq *q = &p->with.v[j];

		strbuf_addf(&sb, "%s%.12s (\"%s\"", j ? ", " : "", q->hex,
			    q->subject);
		if (q->cand)
			strbuf_addf(&sb, ", %s", verdict_name(q->cand->verdict));
		strbuf_addch(&sb, ')');
	}
	flag(p, "prerequisite-not-picked", AUDIT_QUESTIONABLE,
	     "it applies after %s, which the picks do not hold: pick %s "
	     "before it", sb.buf, p->with.nr == 1 ? "it" : "them");
	strbuf_release(&sb);
	return 0;
}

/* The picks that would be applied, in mainline order, onto the branch tip. */
static int trial_pick(struct audit *a, git_repository *repo,
		      const struct branch_index *branch,
		      const struct candidate_list *judged, struct match *m,
		      struct trialcache *cache, const struct applywith_limits *lim)
{
	const git_commit **commits = xcalloc(a->nr ? a->nr : 1, sizeof(*commits));
	struct audit_pick **who = xcalloc(a->nr ? a->nr : 1, sizeof(*who));
	struct apply_order *v = xcalloc(a->nr ? a->nr : 1, sizeof(*v));
	struct apply_result *res = NULL;
	git_commit *onto = NULL;
	size_t i, nr = 0;
	int ret = 0;

	for (i = 0; i < a->nr; i++) {
		v[i].p = &a->picks[i];
		v[i].key = !v[i].p->has_applied && v[i].p->c &&
			   candidate_list_find(judged, &v[i].p->id) ?
			   v[i].p->c->order : SIZE_MAX;
	}
	QSORT(v, a->nr, cmp_apply_order);
	for (i = 0; i < a->nr; i++) {
		struct audit_pick *p = v[i].p;
		git_commit *commit;
		size_t j;

		/* What is present, or listed twice, is not applied (again). */
		if (p->c && p->c->present)
			continue;
		for (j = 0; j < p->nr_flags; j++)
			if (!strcmp(p->flags[j].flag, "duplicate-pick"))
				break;
		if (j < p->nr_flags)
			continue;
		/* A backport folding two picks is applied once. */
		for (j = 0; p->has_applied && j < nr; j++)
			if (who[j]->has_applied &&
			    git_oid_equal(&who[j]->applied, &p->applied))
				break;
		if (p->has_applied && j < nr)
			continue;
		if (git_commit_lookup(&commit, repo, p->has_applied ? &p->applied
							      : &p->id) < 0) {
			ret = error_git("cannot read commit %s", p->has_applied ?
					git_oid_tostr_s(&p->applied) : p->hex);
			goto out;
		}
		if (git_commit_parentcount(commit) > 1) {
			git_commit_free(commit);
			continue;
		}
		commits[nr] = commit;
		who[nr++] = p;
	}
	if (!nr)
		goto out;
	if (apply_onto_lookup(&onto, repo, &branch->tip) < 0) {
		ret = error_git("cannot read the tip of '%s'", branch->name);
		goto out;
	}
	res = xcalloc(nr, sizeof(*res));
	for (i = 0; i < nr; i++)
		apply_result_init(&res[i]);
	ret = apply_series_check(res, repo, onto, commits, nr);
	for (i = 0; !ret && i < nr; i++) {
		struct strbuf sb = STRBUF_INIT;
		size_t j;

		if (res[i].applies)
			continue;
		for (j = 0; j < res[i].nr_conflicts; j++)
			strbuf_addf(&sb, "%s%s", j ? ", " : "", res[i].conflicts[j]);
		flag(who[i], "does-not-apply", AUDIT_REJECT,
		     "conflicts in %s with %s and the picks before it in "
		     "%s order", sb.buf, branch->name,
		     who[i]->has_applied ? "the applied" : "mainline");
		strbuf_release(&sb);
		if (m && lim && !who[i]->has_applied)
			ret = search_prereqs(who, commits, res, i, m, branch,
					     judged, cache, lim);
	}
	for (i = 0; i < nr; i++)
		apply_result_release(&res[i]);
out:
	for (i = 0; i < nr; i++)
		git_commit_free((git_commit *)commits[i]);
	git_commit_free(onto);
	free(res);
	free(commits);
	free(who);
	free(v);
	return ret;
}

static const struct audit_mail *find_mail(const struct audit *a,
					  const char *id)
{
	size_t i;

	for (i = 0; id && i < a->nr_mails; i++)
		if (a->mails[i]->message_id && !strcmp(a->mails[i]->message_id, id))
			return a->mails[i];
	return NULL;
}

/*
 * The pick a reply answers: the nearest mail up its thread (In-Reply-To,
 * then References from the last) that is not a reply, if it is a pick.
 */
static struct audit_pick *answered(struct audit *a, const struct audit_mail *re)
{
	const struct audit_mail *up = find_mail(a, re->in_reply_to);
	size_t i, r = re->nr_references;

	while ((!up || up->kind == AUDIT_MAIL_REPLY) && r)
		up = find_mail(a, re->references[--r]);
	if (up && up->kind == AUDIT_MAIL_REPLY)
		up = NULL;
	for (i = 0; up && i < a->nr; i++)
		if (a->picks[i].mail == up)
			return &a->picks[i];
	return NULL;
}

/* The NAKs, acks and reviews of the audited mbox's own replies. */
static void review_flags(struct audit *a)
{
	static const char *const names[] = {
		[POSTED_REVIEWED] = "reviewed",
		[POSTED_ACKED] = "acked",
		[POSTED_NAKED] = "rejected-by-review",
	};
	size_t i;

	for (i = 0; i < a->nr_mails; i++) {
		const struct audit_mail *m = a->mails[i];
		struct audit_pick *p;

		if (m->kind != AUDIT_MAIL_REPLY || m->review == POSTED_SILENT ||
		    !(p = answered(a, m)))
			continue;
		flag(p, names[m->review], m->review == POSTED_NAKED ?
		     AUDIT_REJECT : AUDIT_OK, "%s%s<%s> wrote \"%s\" in <%s>",
		     m->from.name ? m->from.name : "", m->from.name ? " " : "",
		     m->from.email ? m->from.email : "", m->review_line,
		     m->message_id ? m->message_id : "no Message-ID");
	}
}

int audit_run(struct audit *a, git_repository *repo,
	      const struct ruleset *rules, const struct branch_index *branch,
	      const struct candidate_list *judged,
	      const struct candidate_list *extra, struct match *m,
	      struct trialcache *cache, const struct applywith_limits *lim)
{
	size_t i, j;

	for (i = 0; i < a->nr; i++) {
		struct audit_pick *p = &a->picks[i];
		const struct candidate *c = candidate_list_find(judged, &p->id);

		if (!c && extra)
			c = candidate_list_find(extra, &p->id);
		p->c = c;
		for (j = 0; j < i; j++)
			if (git_oid_equal(&a->picks[j].id, &p->id))
				break;
		if (j < i) {
			struct strbuf as = STRBUF_INIT;

			/* In the thread's numbering, when it came in a mail. */
			if (a->picks[j].mail)
				audit_cite(&as, a, a->picks[j].mail);
			else
				strbuf_addstr(&as, a->picks[j].source);
			flag(p, "duplicate-pick", AUDIT_REJECT, "listed before, "
			     "as %s", as.buf);
			strbuf_release(&as);
			continue;
		}
		if (!c || !c->nr_touched) {
			flag(p, "not-watched", AUDIT_QUESTIONABLE,
			     "it changes no path the rules watch: not judged");
			continue;
		}
		judged_flags(p, c, a, judged, rules);
	}
	review_flags(a);
	return trial_pick(a, repo, branch, judged, m, cache, lim);
}

enum audit_verdict audit_worst(const struct audit *a)
{
	enum audit_verdict worst = AUDIT_OK;
	size_t i;

	for (i = 0; i < a->nr; i++)
		if (a->picks[i].verdict > worst)
			worst = a->picks[i].verdict;
	return worst;
}
