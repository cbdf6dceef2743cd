#include "stages/applywith.h"
#include "base/error.h"
#include "git/apply.h"
#include "base/util.h"

#include <string.h>

/*
 * The series that carry what the search found (applywith.h): the mail
 * series of propose (applywith_carry()) and the queue of what was
 * accepted (applywith_queue()), each picked as one series onto the
 * branch tip, taking out what does not apply there.
 */

/* The series being made: the mail's or the queue's. */
struct carry {
	struct candidate **v;
	size_t nr, alloc;
};

static int carried(const struct carry *m, const struct candidate *c)
{
	size_t i;

	for (i = 0; i < m->nr; i++)
		if (m->v[i] == c)
			return 1;
	return 0;
}

static void carry_add(struct carry *m, struct candidate *c)
{
	if (carried(m, c))
		return;
	ALLOC_GROW(m->v, m->nr, m->alloc);
	m->v[m->nr++] = c;
}

/* The candidate for member p of c's series: of l, else of outside. */
static int member(struct candidate **out, struct scan *scan,
		  struct candidate_list *outside, const struct likely_prereq *p)
{
	git_commit *commit;
	int ret;

	*out = p->cand ? p->cand : candidate_list_find(outside, &p->id);
	if (*out)
		return 0;
	if (git_commit_lookup(&commit, scan->repo, &p->id) < 0)
		return error_git("cannot read commit %s", p->hex);
	*out = candidate_list_add(outside, &p->id);
	ret = scan_fill(scan, *out, commit);
	git_commit_free(commit);
	return ret;
}

int applywith_members(struct scan *scan, struct candidate_list *l,
		      struct candidate_list *outside)
{
	size_t i, j, before = outside->nr;
	int ret = 0;

	for (i = 0; i < l->nr && !ret; i++) {
		struct applies_with *w = &l->items[i]->with;

		for (j = 0; w->state == WITH_FOUND && j < w->nr && !ret; j++)
			if (!w->v[j].cand)
				ret = member(&w->v[j].cand, scan, outside,
					     &w->v[j]);
	}
	/* Blame named them too: the same candidates. */
	for (i = 0; i < l->nr && !ret; i++) {
		struct candidate *c = l->items[i];

		for (j = 0; j < c->nr_likely; j++)
			if (!c->likely[j].cand)
				c->likely[j].cand =
					candidate_list_find(outside,
							    &c->likely[j].id);
	}
	return ret < 0 ? -1 : outside->nr > before;
}

static int in_mail_series(const struct candidate *c)
{
	return c->verdict == VERDICT_PROPOSED && !c->listed_before &&
	       c->apply_checked &&
	       (c->apply.applies || c->with.state == WITH_FOUND);
}

/* Which series a carry makes: the mail's or the queue's. */
enum carry_kind { CARRY_MAIL, CARRY_QUEUE };

/* c's result in the series of that kind. */
static struct apply_result *carry_result(struct candidate *c,
					 enum carry_kind kind)
{
	return kind == CARRY_MAIL ? &c->mail_apply : &c->queue_apply;
}

/* The commit c was carried for in that series, or NULL. */
static const struct candidate *carry_for(const struct candidate *c,
					 enum carry_kind kind)
{
	return kind == CARRY_MAIL ? c->carried_for : c->queue_for;
}

/*
 * Whether c stays in the series of that kind after it was picked
 * there: in the mail, when it applies and changes something; in the
 * queue, when it applies (one that changes nothing is not written,
 * but harms no other).
 */
static int carry_stays(struct candidate *c, enum carry_kind kind)
{
	const struct apply_result *r = carry_result(c, kind);

	if (kind == CARRY_MAIL)
		return c->in_mail = r->applies && r->nr_changes;
	return r->applies;
}

/*
 * Takes c out of the series of that kind: out of the mail; out of the
 * queue, a prerequisite carried for a commit is no longer queued (its
 * result dropped), while a commit queued for itself stays queued with
 * its failed result, for the warning that it needs a manual backport.
 */
static void carry_out(struct candidate *c, enum carry_kind kind)
{
	if (kind == CARRY_MAIL) {
		c->in_mail = 0;
		return;
	}
	if (c->queue_for) {
		apply_result_release(&c->queue_apply);
		apply_result_init(&c->queue_apply);
		c->queued = 0;
		c->queue_for = NULL;
	}
}

/*
 * Picks m onto onto as one series; each one's result in mail_apply
 * (queue_apply for the queue) and whether it stays.  Then takes out
 * what cannot stay: a commit that does not apply there, a
 * prerequisite whose commits all left.  1 when something was taken out
 * (the series must be picked again), 0, or -1 after an error message.
 */
static int carry_try(struct carry *m, git_repository *repo,
		     const git_commit *onto, struct trialcache *cache,
		     enum carry_kind kind)
{
	const git_commit **picks = xcalloc(m->nr ? m->nr : 1, sizeof(*picks));
	struct apply_result *res = xcalloc(m->nr ? m->nr : 1, sizeof(*res));
	unsigned char *stays = xcalloc(m->nr ? m->nr : 1, 1);
	size_t i, n, kept;
	int ret = 0;

	for (n = 0; n < m->nr; n++) {
		git_commit *commit;

		apply_result_init(&res[n]);
		if (git_commit_lookup(&commit, repo, &m->v[n]->id) < 0) {
			ret = error_git("cannot read commit %s", m->v[n]->hex);
			break;
		}
		picks[n] = commit;
	}
	if (!ret && m->nr)
		ret = apply_series_check_cached(res, repo, onto, picks, m->nr,
						cache);
	for (i = 0; !ret && i < m->nr; i++) {
		struct candidate *c = m->v[i];
		struct apply_result *r = carry_result(c, kind);

		apply_result_release(r);
		*r = res[i];
		apply_result_init(&res[i]);
		stays[i] = carry_stays(c, kind);
	}
	for (i = 0; i < m->nr; i++) {
		git_commit_free((git_commit *)picks[i]);
		apply_result_release(&res[i]);
	}
	free(picks);
	free(res);
	if (ret) {
		free(stays);
		return ret;
	}
	/* A prerequisite stays while the commit it was carried for does. */
	for (i = 0, kept = 0; i < m->nr; i++) {
		struct candidate *c = m->v[i];
		const struct candidate *f = carry_for(c, kind);
		size_t j;
		int stay = stays[i];

		for (j = i + 1; stay && f && j < m->nr; j++)
			if (m->v[j] == f)
				stay = stays[j];
		if (stay)
			m->v[kept++] = c;
		else
			carry_out(c, kind);
	}
	free(stays);
	ret = kept != m->nr;
	m->nr = kept;
	return ret;
}

int applywith_carry(git_repository *repo, const struct branch_index *branch,
		    struct scan *scan, struct candidate_list *l,
		    struct candidate_list *outside, struct trialcache *cache)
{
	struct carry m = { NULL, 0, 0 };
	git_commit *onto = NULL;
	size_t i, j;
	int ret = 0;

	for (i = 0; i < l->nr && !ret; i++) {
		struct candidate *c = l->items[i];

		c->mail_checked = 1;
		if (!in_mail_series(c))
			continue;
		for (j = 0; c->with.state == WITH_FOUND && j < c->with.nr; j++) {
			struct candidate *p;

			ret = member(&p, scan, outside, &c->with.v[j]);
			if (ret)
				break;
			if (carried(&m, p))
				continue;
			p->carried_for = c;
			carry_add(&m, p);
		}
		carry_add(&m, c);
	}
	for (i = 0; i < outside->nr; i++)
		outside->items[i]->mail_checked = 1;
	if (!ret && apply_onto_lookup(&onto, repo, &branch->tip) < 0)
		ret = error_git("cannot read the tip of '%s'", branch->name);
	/* Picked again while something was taken out. */
	while (!ret && (ret = carry_try(&m, repo, onto, cache, CARRY_MAIL)) > 0)
		ret = 0;
	for (i = 0; !ret && i < m.nr; i++)
		m.v[i]->mail_pos = i + 1;
	git_commit_free(onto);
	free(m.v);
	return ret;
}

/*
 * The commits queued before c that applied in the queue's series, in
 * the queue's order, oldest first.
 */
static struct applywith_prefix *queue_prefix(const struct candidate_list *l,
					     const struct candidate *c,
					     size_t *nr)
{
	struct applywith_prefix *v = xcalloc(l->nr ? l->nr : 1, sizeof(*v));
	size_t i;

	*nr = 0;
	for (i = 0; i < l->nr && l->items[i] != c; i++) {
		const struct candidate *p = l->items[i];

		if (!p->queued || !p->queue_apply.applies)
			continue;
		git_oid_cpy(&v[*nr].id, &p->id);
		v[(*nr)++].res = &p->queue_apply;
	}
	return v;
}

/*
 * The series found for c, an accepted commit that does not apply in
 * the queue, queued before it in q (a member queued already is reused
 * where it is).  1 when a series was found, 0, or -1.
 */
static int queue_search(struct carry *q, struct match *m,
			const struct branch_index *branch, struct scan *scan,
			struct candidate_list *l, struct candidate_list *outside,
			struct trialcache *cache,
			const struct applywith_limits *lim,
			struct candidate *c)
{
	struct applies_with w;
	struct applywith_prefix *prefix;
	size_t nr_prefix, j;
	int ret;

	memset(&w, 0, sizeof(w));
	prefix = queue_prefix(l, c, &nr_prefix);
	ret = applywith_one(m, branch, l, cache, lim, &c->id,
			    c->queue_apply.conflicts,
			    c->queue_apply.nr_conflicts, prefix, nr_prefix, &w);
	free(prefix);
	for (j = 0; !ret && w.state == WITH_FOUND && j < w.nr; j++) {
		struct candidate *p;

		ret = member(&p, scan, outside, &w.v[j]);
		if (ret || carried(q, p))
			continue;
		if (!p->queued) {
			p->queued = 1;
			p->queue_for = c;
		}
		carry_add(q, p);
	}
	if (!ret)
		ret = w.state == WITH_FOUND;
	applies_with_release(&w);
	return ret;
}

int applywith_queue(struct match *m, const struct branch_index *branch,
		    struct scan *scan, struct candidate_list *l,
		    struct candidate_list *outside, struct trialcache *cache,
		    const struct applywith_limits *lim)
{
	struct carry q = { NULL, 0, 0 };
	git_commit *onto = NULL;
	size_t i, found = 0;
	int ret = 0;

	/* No set to try: no search (stablepick.seriesTrials 0). */
	if (!lim->trials)
		return 0;
	for (i = 0; i < l->nr && ret >= 0; i++) {
		struct candidate *c = l->items[i];

		if (!c->queued)
			continue;
		if (c->verdict == VERDICT_ACCEPTED && !c->queue_apply.applies) {
			ret = queue_search(&q, m, branch, scan, l, outside,
					   cache, lim, c);
			found += ret > 0;
		}
		carry_add(&q, c);
	}
	ret = ret < 0 ? -1 : 0;
	if (!ret && found && apply_onto_lookup(&onto, m->repo,
					       &branch->tip) < 0)
		ret = error_git("cannot read the tip of '%s'", branch->name);
	/* Picked again while something was taken out. */
	while (!ret && found &&
	       (ret = carry_try(&q, m->repo, onto, cache, CARRY_QUEUE)) > 0)
		ret = 0;
	for (i = 0; !ret && found && i < q.nr; i++)
		q.v[i]->queue_pos = i + 1;
	git_commit_free(onto);
	free(q.v);
	return ret;
}
