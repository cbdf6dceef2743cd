#include "candidate/candidate.h"
#include "base/strbuf.h"
#include "base/util.h"

#include <stdarg.h>
#include <string.h>
#include <uthash.h>

static const char *const verdict_names[VERDICT__COUNT] = {
	[VERDICT_PROPOSED] = "proposed",
	[VERDICT_NEEDS_ACK] = "needs-ack",
	[VERDICT_WAITING] = "waiting",
	[VERDICT_MAYBE_PRESENT] = "maybe-present",
	[VERDICT_NOT_APPLICABLE] = "not-applicable",
	[VERDICT_REVERTED] = "reverted",
	[VERDICT_BRANCH_REVERTED] = "reverted-in-branch",
	[VERDICT_VETOED] = "vetoed",
	[VERDICT_ACCEPTED] = "accepted",
	[VERDICT_REJECTED] = "rejected",
	[VERDICT_DEFERRED] = "deferred",
	[VERDICT_PRESENT] = "present",
	[VERDICT_BELOW_THRESHOLD] = "below-threshold",
};

static const char *const evidence_names[EVIDENCE__COUNT] = {
	[EVIDENCE_ANCESTOR] = "ancestor",
	[EVIDENCE_UPSTREAM_LINE] = "upstream-line",
	[EVIDENCE_PATCH_ID] = "patch-id",
	[EVIDENCE_BACKPORT_REVERTED] = "backport-reverted",
	[EVIDENCE_SUBJECT] = "subject",
	[EVIDENCE_SAME_CONTENT] = "same-content",
	[EVIDENCE_ABSENT] = "absent",
};

static const char *const newly_names[NEWLY__COUNT] = {
	[NEWLY_NONE] = "none",
	[NEWLY_SOAKED] = "soaked",
	[NEWLY_DEFERRAL_EXPIRED] = "deferral-expired",
	[NEWLY_LEDGER_CHANGED] = "ledger-changed",
	[NEWLY_PREREQUISITE_PRESENT] = "prerequisite-present",
	[NEWLY_RULES_CHANGED] = "rules-changed",
	[NEWLY_FIXED_SINCE] = "fixed-since",
};

const char *newly_why_name(enum newly_why w)
{
	if ((unsigned)w >= NEWLY__COUNT)
		return "unknown";
	return newly_names[w];
}

static const char *const not_applicable_names[NOT_APPLICABLE__COUNT] = {
	[NOT_APPLICABLE_NONE] = "none",
	[NOT_APPLICABLE_VERSION_HINT] = "version-hint",
	[NOT_APPLICABLE_REVERT_OF_ABSENT] = "revert-of-absent",
	[NOT_APPLICABLE_BUG_NOT_IN_BRANCH] = "bug-not-in-branch",
	[NOT_APPLICABLE_FILE_NOT_IN_BRANCH] = "file-not-in-branch",
};

const char *not_applicable_kind_name(enum not_applicable_kind k)
{
	if ((unsigned)k >= NOT_APPLICABLE__COUNT)
		return "unknown";
	return not_applicable_names[k];
}

const char *evidence_kind_name(enum evidence_kind k)
{
	if ((unsigned)k >= EVIDENCE__COUNT)
		return "unknown";
	return evidence_names[k];
}

const char *verdict_name(enum verdict v)
{
	if ((unsigned)v >= VERDICT__COUNT)
		return "unknown";
	return verdict_names[v];
}

void candidate_list_init(struct candidate_list *l)
{
	memset(l, 0, sizeof(*l));
}

void applies_with_release(struct applies_with *w)
{
	size_t i;

	for (i = 0; i < w->nr; i++)
		free(w->v[i].subject);
	free(w->v);
	free_string_array(w->steps, w->nr_steps);
	memset(w, 0, sizeof(*w));
}

static void candidate_free(struct candidate *c)
{
	size_t i;

	free(c->author);
	free(c->raw);
	message_release(&c->msg);
	free(c->touched);
	free_string_array(c->paths, c->nr_paths);
	free_string_array(c->old_paths, c->nr_old_paths);
	free(c->fixes);
	for (i = 0; i < c->nr_reasons; i++)
		free(c->reasons[i].match);
	free(c->reasons);
	free(c->veto_match);
	free_string_array(c->warnings, c->nr_warnings);
	for (i = 0; i < c->nr_evidence; i++)
		free(c->evidence[i].detail);
	free(c->evidence);
	apply_result_release(&c->apply);
	apply_result_release(&c->queue_apply);
	apply_result_release(&c->mail_apply);
	free(c->patch);
	for (i = 0; i < c->nr_prereqs; i++)
		free(c->prereqs[i].source);
	free(c->prereqs);
	for (i = 0; i < c->nr_likely; i++)
		free(c->likely[i].subject);
	free(c->likely);
	applies_with_release(&c->with);
	free(c->series.id);
	if (c->posted)
		c->free_posted(c->posted);
	free(c->reverted_by);
	free(c->reverted_by_subject);
	free(c->branch_revert_why);
	free(c->facts);
	free_string_array(c->named_by, c->nr_named_by);
	free_string_array(c->cves, c->nr_cves);
	free(c->newer_lacking);
	free(c->not_applicable);
	free(c->lacks);
	free(c->why);
	free(c->other_decisions);
	free(c);
}

/* The candidates that add a path (candidate_list_added_before()). */
struct added_path {
	const char *path;		/* borrowed from a candidate */
	const struct candidate **by;	/* in l's order when made */
	size_t nr, alloc;
	UT_hash_handle hh;
};

struct candidate_added_index {
	struct candidate **items;	/* l's, when it was made */
	size_t nr;
	struct added_path *paths;
};

static void drop_added(struct candidate_list *l)
{
	struct added_path *e, *tmp;

	if (!l->added)
		return;
	HASH_ITER(hh, l->added->paths, e, tmp) {
		HASH_DEL(l->added->paths, e);
		free(e->by);
		free(e);
	}
	free(l->added);
	l->added = NULL;
}

static int is_old_path(const struct candidate *a, const char *path)
{
	size_t k;

	for (k = 0; k < a->nr_old_paths; k++)
		if (!strcmp(a->old_paths[k], path))
			return 1;
	return 0;
}

/* Whether a adds path: one of its paths, not one of its old paths. */
static int adds(const struct candidate *a, const char *path)
{
	size_t j;

	for (j = 0; j < a->nr_paths; j++)
		if (!strcmp(a->paths[j], path) && !is_old_path(a, path))
			return 1;
	return 0;
}

static struct candidate_added_index *added_index(struct candidate_list *l)
{
	struct candidate_added_index *x = l->added;
	size_t i, j;

	if (x && x->items == l->items && x->nr == l->nr)
		return x;
	drop_added(l);
	x = l->added = xcalloc(1, sizeof(*x));
	x->items = l->items;
	x->nr = l->nr;
	for (i = 0; i < l->nr; i++) {
		const struct candidate *a = l->items[i];

		for (j = 0; j < a->nr_paths; j++) {
			const char *path = a->paths[j];
			struct added_path *e;

			if (is_old_path(a, path))
				continue;
			HASH_FIND_STR(x->paths, path, e);
			if (!e) {
				e = xcalloc(1, sizeof(*e));
				e->path = path;
				HASH_ADD_KEYPTR(hh, x->paths, e->path,
						strlen(e->path), e);
			}
			if (e->nr && e->by[e->nr - 1] == a)
				continue;
			ALLOC_GROW(e->by, e->nr + 1, e->alloc);
			e->by[e->nr++] = a;
		}
	}
	return x;
}

/* The answer by a scan of l before pos. */
static const struct candidate *added_before_scan(const struct candidate_list *l,
						 size_t pos, const char *path)
{
	size_t i;

	for (i = pos; i-- > 0;)
		if (adds(l->items[i], path))
			return l->items[i];
	return NULL;
}

const struct candidate *
candidate_list_added_before(const struct candidate_list *l,
			    const struct candidate *c, const char *path)
{
	const struct candidate *best = NULL;
	struct candidate_added_index *x;
	struct added_path *e;
	size_t pos = c->order, k;

	if (pos >= l->nr || l->items[pos] != c) {
		const struct candidate *mine = candidate_list_find(l, &c->id);

		if (!mine || mine->order >= l->nr || l->items[mine->order] != mine)
			return NULL;
		pos = mine->order;
	}
	/* A cache of l's, not a change of it: made again when l changes. */
	x = added_index((struct candidate_list *)l);
	HASH_FIND_STR(x->paths, path, e);
	for (k = 0; e && k < e->nr; k++) {
		const struct candidate *a = e->by[k];

		/* Reordered: the index does not know the places. */
		if (a->order >= l->nr || l->items[a->order] != a)
			return added_before_scan(l, pos, path);
		if (a->order < pos && (!best || a->order > best->order))
			best = a;
	}
	return best;
}

void candidate_list_release(struct candidate_list *l)
{
	size_t i;

	drop_added(l);
	HASH_CLEAR(hh, l->by_id);
	for (i = 0; i < l->nr; i++)
		candidate_free(l->items[i]);
	free(l->items);
	candidate_list_init(l);
}

struct candidate *candidate_list_add(struct candidate_list *l,
				     const git_oid *id)
{
	struct candidate *c = xcalloc(1, sizeof(*c));

	git_oid_cpy(&c->id, id);
	git_oid_tostr(c->hex, sizeof(c->hex), id);
	message_init(&c->msg);
	apply_result_init(&c->apply);
	apply_result_init(&c->queue_apply);
	apply_result_init(&c->mail_apply);
	drop_added(l);
	c->order = l->nr;
	ALLOC_GROW(l->items, l->nr, l->alloc);
	l->items[l->nr++] = c;
	HASH_ADD(hh, l->by_id, id, sizeof(git_oid), c);
	return c;
}

struct candidate *candidate_list_find(const struct candidate_list *l,
				      const git_oid *id)
{
	struct candidate *c;

	HASH_FIND(hh, l->by_id, id, sizeof(git_oid), c);
	return c;
}

const struct subsystem *candidate_subsystem(const struct candidate *c)
{
	return c->nr_touched ? c->touched[0] : NULL;
}

const struct evidence *candidate_evidence(const struct candidate *c,
					  enum evidence_kind kind)
{
	size_t i;

	for (i = 0; i < c->nr_evidence; i++)
		if (c->evidence[i].kind == kind)
			return &c->evidence[i];
	return NULL;
}

const struct evidence *candidate_presence(const struct candidate *c)
{
	size_t i;

	for (i = 0; i < c->nr_evidence; i++)
		if (c->evidence[i].kind != EVIDENCE_ABSENT &&
		    c->evidence[i].kind != EVIDENCE_BACKPORT_REVERTED)
			return &c->evidence[i];
	return NULL;
}

void candidate_add_evidence(struct candidate *c, enum evidence_kind kind,
			    const git_oid *commit, const char *fmt, ...)
{
	struct evidence *e;
	va_list ap;

	ALLOC_GROW(c->evidence, c->nr_evidence, c->alloc_evidence);
	e = &c->evidence[c->nr_evidence++];
	memset(e, 0, sizeof(*e));
	e->kind = kind;
	if (commit) {
		git_oid_cpy(&e->commit, commit);
		e->has_commit = 1;
	}
	va_start(ap, fmt);
	e->detail = xstrvfmt(fmt, ap);
	va_end(ap);
}

void candidate_add_warning(struct candidate *c, const char *fmt, ...)
{
	va_list ap;

	ALLOC_GROW(c->warnings, c->nr_warnings, c->alloc_warnings);
	va_start(ap, fmt);
	c->warnings[c->nr_warnings++] = xstrvfmt(fmt, ap);
	va_end(ap);
}

void candidate_set_verdict(struct candidate *c, enum verdict v,
			   const char *fmt, ...)
{
	va_list ap;
	char *why;

	/* Formatted first: the arguments may be the old why. */
	va_start(ap, fmt);
	why = xstrvfmt(fmt, ap);
	va_end(ap);
	free(c->why);
	c->why = why;
	c->verdict = v;
}

void candidate_add_named_by(struct candidate *c, const char *test)
{
	add_string_once(&c->named_by, &c->nr_named_by, &c->alloc_named_by, test);
}

void candidate_add_cve(struct candidate *c, const char *id)
{
	add_string_once(&c->cves, &c->nr_cves, &c->alloc_cves, id);
}

void candidate_list_place_added(struct candidate_list *l, size_t added)
{
	struct candidate **walked = l->items, **extra, **items;
	size_t nr = l->nr - added, i = 0, j = 0, k = 0;

	drop_added(l);
	extra = xcalloc(added + 1, sizeof(*extra));
	memcpy(extra, walked + nr, added * sizeof(*extra));
	QSORT(extra, added, candidate_cmp_time);
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

void candidate_add_fact(struct candidate *c, enum rule_fact f)
{
	const char *fact = rule_fact_name(f);
	size_t i;

	for (i = 0; i < c->nr_facts; i++)
		if (!strcmp(c->facts[i], fact))
			return;
	ALLOC_GROW(c->facts, c->nr_facts, c->alloc_facts);
	c->facts[c->nr_facts++] = fact;
}

static int compare_candidates(const void *va, const void *vb)
{
	const struct candidate *a = *(const struct candidate *const *)va;
	const struct candidate *b = *(const struct candidate *const *)vb;

	if (a->verdict != b->verdict)
		return a->verdict < b->verdict ? -1 : 1;
	if (a->score != b->score)
		return a->score > b->score ? -1 : 1;
	if (a->order != b->order)
		return a->order < b->order ? -1 : 1;
	return 0;
}

static size_t index_of(const struct candidate_list *l, const struct candidate *c,
		       size_t from)
{
	size_t i;

	for (i = from; i < l->nr; i++)
		if (l->items[i] == c)
			return i;
	return l->nr;
}

/*
 * Moves each prerequisite listed after a commit that needs it to just
 * before that commit, so the list reads in the order to apply.  The
 * commits moved to place i for one commit are the `chain` just after
 * it; a prerequisite found among them needs, through the chain, the
 * commit that needs it (Stable-dep-of and "Cc: stable # X: <id>" can
 * name each other in any order): such a loop has no order to apply
 * and is left as it is, so that this always ends.
 */
static void prereqs_first(struct candidate_list *l)
{
	size_t i = 0, j, k, chain = 0;

	while (i < l->nr) {
		struct candidate *c = l->items[i];
		int moved = 0;

		for (j = 0; j < c->nr_prereqs && !moved; j++) {
			struct candidate *p = c->prereqs[j].cand;

			if (!p || p->verdict != c->verdict ||
			    (k = index_of(l, p, i + 1)) == l->nr ||
			    k <= i + chain)
				continue;
			memmove(&l->items[i + 1], &l->items[i],
				(k - i) * sizeof(*l->items));
			l->items[i] = p;
			moved = 1;
		}
		if (moved) {
			chain++;	/* look at p's own prerequisites */
		} else {
			chain = 0;
			i++;
		}
	}
}

void candidate_list_sort(struct candidate_list *l)
{
	drop_added(l);
	QSORT(l->items, l->nr, compare_candidates);
	prereqs_first(l);
}

int candidate_cmp_time(const void *a, const void *b)
{
	const struct candidate *x = *(const struct candidate *const *)a;
	const struct candidate *y = *(const struct candidate *const *)b;

	if (x->time != y->time)
		return x->time < y->time ? -1 : 1;
	return git_oid_cmp(&x->id, &y->id);
}
