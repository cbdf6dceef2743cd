#include "stages/eval.h"
#include "formats/message.h"
#include "base/util.h"

#include <string.h>

static const char *const selector_names[EVAL__SELECTORS] = {
	"rules", "cc-stable", "fixes", "cc-or-fixes",
};

/*
 * From FIRST_KIND on, the names of enum not_applicable_kind in its
 * order (test_eval checks that they agree).
 */
const char *const eval_reasons[EVAL__REASONS + 1] = {
	"subject-only", "reverted", "version-hint", "revert-of-absent",
	"bug-not-in-branch", "file-not-in-branch", "already-in-branch",
	"after-last-backport", NULL,
};
#define FIRST_KIND 2
#define ALREADY_IN_BRANCH (EVAL__REASONS - 2)
#define AFTER_LAST_BACKPORT (EVAL__REASONS - 1)

const char *eval_selector_name(enum eval_selector s)
{
	return selector_names[s];
}

double eval_precision(const struct eval_counts *c)
{
	return c->tp + c->fp ? (double)c->tp / (double)(c->tp + c->fp) : -1;
}

double eval_recall(const struct eval_counts *c)
{
	return c->tp + c->fn ? (double)c->tp / (double)(c->tp + c->fn) : -1;
}

double eval_f1(const struct eval_counts *c)
{
	double p = eval_precision(c), r = eval_recall(c);

	if (p < 0 || r < 0 || p + r == 0)
		return -1;
	return 2 * p * r / (p + r);
}

void eval_init(struct eval *ev)
{
	memset(ev, 0, sizeof(*ev));
}

void eval_release(struct eval *ev)
{
	free(ev->items);
	free(ev->subsystems);
	eval_init(ev);
}

/* The same rule, or a copy of it in a subsystem made from a template. */
static int same_rule(const struct rule *a, const struct rule *b)
{
	return a == b || (a && b && a->file == b->file && a->lineno == b->lineno);
}

/*
 * The rules' decision with the threshold replaced by threshold (for
 * every subsystem), or the candidate's own when threshold is
 * EVAL_OWN_THRESHOLD, and without the rule without (NULL: all rules
 * count; the copies of a template's rule in the subsystems made from
 * it count as one).
 */
static int eval_pick_rules(const struct candidate *c, long long threshold,
			   const struct rule *without)
{
	const struct subsystem *s = candidate_subsystem(c);
	long long score = c->score;
	size_t i;

	if (c->veto && !same_rule(c->veto, without))
		return 0;
	for (i = 0; without && i < c->nr_reasons; i++)
		if (same_rule(c->reasons[i].rule, without))
			score -= c->reasons[i].rule->weight;
	if (threshold == EVAL_OWN_THRESHOLD)
		threshold = c->threshold;
	if (score < threshold)
		return 0;
	if (s && s->policy == POLICY_IGNORE)
		return 0;
	return !(s && s->policy == POLICY_OPT_IN && !message_cc_stable(&c->msg));
}

static int fixes_in_branch(const struct candidate *c)
{
	size_t i;

	for (i = 0; c->fixes && i < c->msg.nr_fixes; i++)
		if (c->fixes[i].status == TARGET_IN_BRANCH)
			return 1;
	return 0;
}

static void count(struct eval_counts *n, enum eval_label label, int pick)
{
	if (label == EVAL_POSITIVE)
		pick ? n->tp++ : n->fn++;
	else
		pick ? n->fp++ : n->tn++;
}

static struct eval_subsystem *subsystem_of(struct eval *ev, const char *name)
{
	size_t lo = 0, hi = ev->nr_subsystems;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int cmp = strcmp(ev->subsystems[mid].name, name);

		if (!cmp)
			return &ev->subsystems[mid];
		if (cmp < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	ALLOC_GROW(ev->subsystems, ev->nr_subsystems, ev->alloc_subsystems);
	memmove(ev->subsystems + lo + 1, ev->subsystems + lo,
		(ev->nr_subsystems - lo) * sizeof(*ev->subsystems));
	ev->nr_subsystems++;
	memset(&ev->subsystems[lo], 0, sizeof(*ev->subsystems));
	ev->subsystems[lo].name = name;
	return &ev->subsystems[lo];
}

/* Why the branch could not have taken c, as an eval_reasons index. */
static int reason_of(const struct candidate *c)
{
	if (c->maybe_present)
		return 0;
	if (c->reverted_by)
		return 1;
	if (c->not_applicable_kind != NOT_APPLICABLE_NONE)
		return FIRST_KIND + (int)c->not_applicable_kind -
		       NOT_APPLICABLE_VERSION_HINT;
	return -1;
}

/* A twin that counts for eval: a candidate the branch carries. */
static int carried(const struct candidate *twin, const struct candidate *c)
{
	(void)c;
	return twin->present;
}

/*
 * The twins of the candidates that would be negative (absent, for no
 * reason known, before the last backport): twins[i] for l->items[i].
 */
static int find_twins(const struct candidate_list *l, struct match *m,
		      int any, size_t last, struct match_twin *twins)
{
	struct candidate **asked = xcalloc(l->nr + 1, sizeof(*asked));
	struct match_twin *found = xcalloc(l->nr + 1, sizeof(*found));
	size_t *at = xcalloc(l->nr + 1, sizeof(*at));
	size_t nr = 0, i;
	int ret = 0;

	for (i = 0; m && i < l->nr; i++) {
		struct candidate *c = l->items[i];

		if (c->present || reason_of(c) >= 0 || !any || c->order > last)
			continue;
		at[nr] = i;
		asked[nr++] = c;
	}
	if (nr)
		ret = match_twins(m, asked, nr, carried, found);
	for (i = 0; !ret && i < nr; i++)
		twins[at[i]] = found[i];
	free(asked);
	free(found);
	free(at);
	return ret;
}

int eval_run(struct eval *ev, const struct candidate_list *l, struct match *m)
{
	struct match_twin *twins;
	size_t last = 0, i, s;
	int any = 0;

	/* How far the branch has got: its newest candidate. */
	for (i = 0; i < l->nr; i++)
		if (l->items[i]->present && (!any++ || l->items[i]->order > last))
			last = l->items[i]->order;
	twins = xcalloc(l->nr + 1, sizeof(*twins));
	if (find_twins(l, m, any, last, twins) < 0) {
		free(twins);
		return -1;
	}
	for (i = 0; i < l->nr; i++) {
		struct candidate *c = l->items[i];
		const struct subsystem *sub = candidate_subsystem(c);
		struct eval_item *it;
		int reason = -1;

		ALLOC_GROW(ev->items, ev->nr, ev->alloc);
		it = &ev->items[ev->nr++];
		memset(it, 0, sizeof(*it));
		it->c = c;
		it->subsystem = sub ? sub->name : "-";
		if (twins[i].found) {
			reason = ALREADY_IN_BRANCH;
			git_oid_cpy(&it->twin, &twins[i].id);
			it->twin_cand = twins[i].cand;
		}
		if (c->present) {
			it->label = EVAL_POSITIVE;
		} else if (reason >= 0 || (reason = reason_of(c)) >= 0 ||
			   !any || c->order > last) {
			it->label = EVAL_EXCLUDED;
			it->reason = reason >= 0 ? (size_t)reason :
				     AFTER_LAST_BACKPORT;
			ev->by_reason[it->reason]++;
			ev->excluded++;
		} else {
			it->label = EVAL_NEGATIVE;
		}
		/* An excluded twin is picked or not, as report_eval_twins() says. */
		if (it->label == EVAL_EXCLUDED && reason != ALREADY_IN_BRANCH)
			continue;
		it->pick[EVAL_RULES] = eval_pick_rules(c, EVAL_OWN_THRESHOLD,
						       NULL);
		it->pick[EVAL_CC_STABLE] = message_cc_stable(&c->msg);
		it->pick[EVAL_FIXES] = fixes_in_branch(c);
		it->pick[EVAL_CC_OR_FIXES] = it->pick[EVAL_CC_STABLE] ||
					     it->pick[EVAL_FIXES];
		if (it->label == EVAL_POSITIVE)
			ev->positives++;
		else if (it->label == EVAL_NEGATIVE)
			ev->negatives++;
	}
	free(twins);
	/* The subsystems once all are known: their array moves as it grows. */
	for (i = 0; i < ev->nr; i++) {
		const struct eval_item *it = &ev->items[i];
		struct eval_subsystem *sub;

		if (it->label == EVAL_EXCLUDED)
			continue;
		sub = subsystem_of(ev, it->subsystem);
		if (it->label == EVAL_POSITIVE)
			sub->positives++;
		else
			sub->negatives++;
		for (s = 0; s < EVAL__SELECTORS; s++) {
			count(&ev->all[s], it->label, it->pick[s]);
			count(&sub->sel[s], it->label, it->pick[s]);
		}
	}
	return 0;
}

void eval_count_rules(const struct eval *ev, long long threshold,
		      const struct rule *without, struct eval_counts *out)
{
	size_t i;

	memset(out, 0, sizeof(*out));
	for (i = 0; i < ev->nr; i++) {
		const struct eval_item *it = &ev->items[i];

		if (it->label != EVAL_EXCLUDED)
			count(out, it->label,
			      eval_pick_rules(it->c, threshold, without));
	}
}
