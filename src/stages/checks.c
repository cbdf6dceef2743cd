#include "stages/checks.h"
#include "git/apply.h"
#include "base/error.h"
#include "git/malformed.h"
#include "git/objcache.h"
#include "git/treememo.h"
#include "formats/soak.h"
#include "base/trace.h"
#include "base/util.h"

#include <string.h>
#include <time.h>

#define DAY (24 * 60 * 60)

static void format_day(char *buf, size_t size, git_time_t t)
{
	time_t tt = (time_t)t;
	struct tm tm;

	gmtime_r(&tt, &tm);
	strftime(buf, size, "%Y-%m-%d", &tm);
}

static int wants_soak(const struct candidate *c)
{
	const struct subsystem *s = candidate_subsystem(c);

	/* needs-ack stays: the ack is the first thing to get, soak or not. */
	return s && (s->soak_release || s->soak_days) &&
	       c->verdict == VERDICT_PROPOSED;
}

struct soak_ctx {
	git_repository *repo;
	const git_oid *upstream;
	const struct ruleset *rules;	/* how tags name releases */
	const struct soak_tags *painted;	/* or NULL */
	struct soak_tags tags;		/* loaded when first needed */
	int loaded;
};

/*
 * The first tag that contains c, a release (releases_only) or any
 * mainline tag, as soak_first_tag() answers: from c's mark when the
 * scan painted it, else from the tags, loaded when first needed.
 * Returns 0, or -1 after an error message.
 */
static int first_tag(struct soak_ctx *x, const struct candidate *c,
		     int releases_only, const char **tag, git_time_t *when)
{
	if (c->soak_settled && x->painted) {
		soak_mark_first(x->painted, &c->soak, releases_only, tag, when);
		return 0;
	}
	if (!x->loaded) {
		x->loaded = 1;
		if (soak_tags_load(&x->tags, x->repo, x->upstream, x->rules) < 0)
			return -1;
	}
	return soak_first_tag(&x->tags, x->repo, &c->id, releases_only, tag,
			      when);
}

/*
 * Sets c waiting when its subsystem's soak policy is not met yet (not
 * in a release, or in mainline for fewer days than it asks by now).
 */
static int soak_one(struct soak_ctx *x, git_time_t now, struct candidate *c)
{
	git_repository *repo = x->repo;
	const struct subsystem *s = candidate_subsystem(c);
	git_commit *commit = NULL;
	const char *tag = NULL;
	git_time_t when = 0, ready;
	char day[16];

	if (s->soak_release) {
		if (first_tag(x, c, 1, &tag, &when) < 0)
			return -1;
		if (!tag) {
			if (first_tag(x, c, 0, &tag, &when) < 0)
				return -1;
			if (tag)
				candidate_set_verdict(c, VERDICT_WAITING,
						      "%s waits for a release: "
						      "in %s, not in a release "
						      "tag yet", s->name, tag);
			else
				candidate_set_verdict(c, VERDICT_WAITING,
						      "%s waits for a release: "
						      "in no release tag yet",
						      s->name);
			return 0;
		}
	}
	if (!s->soak_days)
		return 0;
	if (git_commit_lookup(&commit, repo, &c->id) < 0)
		return error_git("cannot read commit %s", c->hex);
	ready = git_commit_time(commit) + (git_time_t)s->soak_days * DAY;
	git_commit_free(commit);
	if (ready <= now)
		return 0;
	format_day(day, sizeof(day), ready);
	candidate_set_verdict(c, VERDICT_WAITING,
			      "%s asks for %d days in mainline: qualifies on %s",
			      s->name, s->soak_days, day);
	return 0;
}

int checks_soak(git_repository *repo, const git_oid *upstream,
		const struct ruleset *rules, const struct soak_tags *painted,
		struct candidate_list *l)
{
	struct soak_ctx x = { repo, upstream, rules, painted, { 0 }, 0 };
	git_time_t now = 0;
	int have_now = 0;
	size_t i;
	int ret = 0;

	soak_tags_init(&x.tags);
	for (i = 0; !ret && i < l->nr; i++) {
		if (!wants_soak(l->items[i]))
			continue;
		if (!have_now) {
			if (malformed_commit_time(&now, repo, upstream) < 0) {
				ret = error_git("cannot read the upstream tip");
				break;
			}
			have_now = 1;
		}
		ret = soak_one(&x, now, l->items[i]);
	}
	soak_tags_release(&x.tags);
	return ret;
}

/* Held back, not proposed: a proposal that needs one is held with it. */
static int is_held(enum verdict v)
{
	return v == VERDICT_NEEDS_ACK || v == VERDICT_WAITING ||
	       v == VERDICT_DEFERRED || v == VERDICT_REJECTED;
}

/* One trial series: who was picked, in order, and how each went. */
struct trial {
	struct candidate **who;
	struct apply_result *res;
	size_t nr;
};

/*
 * Which candidates a trial series picks: proposals, needs-ack, held;
 * or the queue of what was accepted.
 */
enum trial_kind { TRIAL_PROPOSED, TRIAL_REVIEW, TRIAL_HELD, TRIAL_QUEUE };

static int in_trial(const struct candidate *c, enum trial_kind kind)
{
	enum verdict v = c->verdict;

	switch (kind) {
	case TRIAL_QUEUE:
		return c->queued;
	case TRIAL_PROPOSED:
		return v == VERDICT_PROPOSED;
	case TRIAL_REVIEW:
		return v == VERDICT_PROPOSED || v == VERDICT_NEEDS_ACK;
	case TRIAL_HELD:
		return v == VERDICT_PROPOSED || is_held(v);
	}
	return 0;
}

/* Cherry-picks onto onto, oldest first, the candidates kind says.  0 or -1. */
static int trial_run(struct trial *t, git_repository *repo,
		     const git_commit *onto, struct candidate_list *l,
		     enum trial_kind kind, struct trialcache *cache)
{
	const git_commit **picks;
	size_t i, n;
	int ret = 0;

	t->who = xcalloc(l->nr ? l->nr : 1, sizeof(*t->who));
	t->nr = 0;
	for (i = 0; i < l->nr; i++)
		if (in_trial(l->items[i], kind))
			t->who[t->nr++] = l->items[i];
	t->res = xcalloc(t->nr ? t->nr : 1, sizeof(*t->res));
	for (i = 0; i < t->nr; i++)
		apply_result_init(&t->res[i]);
	picks = xcalloc(t->nr ? t->nr : 1, sizeof(*picks));
	for (n = 0; n < t->nr; n++) {
		git_commit *commit;

		if (git_commit_lookup(&commit, repo, &t->who[n]->id) < 0) {
			ret = error_git("cannot read commit %s", t->who[n]->hex);
			break;
		}
		picks[n] = commit;
	}
	if (!ret && t->nr)
		ret = apply_series_check_cached(t->res, repo, onto, picks,
						t->nr, cache);
	for (i = 0; i < n; i++)
		git_commit_free((git_commit *)picks[i]);
	free(picks);
	return ret;
}

static void trial_release(struct trial *t)
{
	size_t i;

	for (i = 0; i < t->nr; i++)
		apply_result_release(&t->res[i]);
	free(t->res);
	free(t->who);
}

/* c's result is r (r is left empty). */
static void take_result(struct candidate *c, struct apply_result *r)
{
	apply_result_release(&c->apply);
	c->apply = *r;
	c->apply_checked = 1;
	apply_result_init(r);
}

/*
 * The held commit before index at of the held-inclusive series that a
 * proposal conflicting on the paths of mine needs: the newest one that
 * applied there and changes one of those paths.
 */
static struct candidate *needed_held(const struct trial *all, size_t at,
				     const struct apply_result *mine)
{
	size_t i, j;

	for (i = at; i-- > 0;) {
		if (!is_held(all->who[i]->verdict) || !all->res[i].applies)
			continue;
		for (j = 0; j < mine->nr_conflicts; j++)
			if (apply_result_changes(&all->res[i], mine->conflicts[j]))
				return all->who[i];
	}
	return NULL;
}

/* Holds c, a proposal that applies only after the held commit h. */
static void hold(struct candidate *c, const struct candidate *h)
{
	const struct subsystem *s = candidate_subsystem(h);
	const char *subject = h->msg.subject ? h->msg.subject : "";

	switch (h->verdict) {
	case VERDICT_NEEDS_ACK:
		candidate_set_verdict(c, VERDICT_NEEDS_ACK,
				      "needs %.12s (\"%s\"), which waits for %s's ack",
				      h->hex, subject,
				      s ? s->name : "its subsystem");
		break;
	case VERDICT_REJECTED:
		/* Not held: it does not apply without what was rejected. */
		candidate_add_warning(c, "applies only after %.12s (\"%s\"), "
				      "which is %s", h->hex, subject,
				      h->why ? h->why : "rejected");
		return;
	default:
		candidate_set_verdict(c, VERDICT_WAITING,
				      "needs %.12s (\"%s\"), which is held: %s",
				      h->hex, subject, h->why ? h->why : "");
		break;
	}
	c->held = 1;
}

/*
 * A proposal (or needs-ack commit) whose pick applies but changes
 * nothing: its patch would be empty, and git am stops at an empty
 * patch.  The branch, or a pick before it, already makes its change:
 * maybe present, not sent.
 */
static void check_empty(struct candidate *c)
{
	if ((c->verdict != VERDICT_PROPOSED && c->verdict != VERDICT_NEEDS_ACK) ||
	    !c->apply_checked || !c->apply.applies || c->apply.nr_changes)
		return;
	candidate_add_evidence(c, EVIDENCE_SAME_CONTENT, NULL,
			       "picked onto the branch tip after the "
			       "proposals before it, it changes nothing");
	candidate_set_verdict(c, VERDICT_MAYBE_PRESENT,
			      "its pick changes nothing: the branch (or a "
			      "proposal before it) already makes its change");
	c->maybe_present = 1;
}

/* The index of c in t, from *at on (both in l's order). */
static size_t trial_find(const struct trial *t, const struct candidate *c,
			 size_t *at)
{
	while (t->who[*at] != c)
		(*at)++;
	return *at;
}

/*
 * Does it apply, in three trial series onto the branch tip, oldest
 * first.  The proposals alone are the series the mbox carries: each
 * proposal's result is in that context.  With the needs-ack ones,
 * what the review round would carry: a needs-ack commit's result is in
 * that context (as once acked).  With every held commit (needs-ack,
 * waiting, deferred, rejected): a proposal that conflicts alone but
 * applies there after a held commit changing a path it conflicts on
 * needs that commit, and is held with it ("needs e9fbdb64, which waits
 * for xfs's ack"), its result that series'; one that needs a rejected
 * commit says so.
 */
static int run_apply(git_repository *repo, const struct branch_index *branch,
		     struct candidate_list *l, struct trialcache *cache)
{
	struct trial alone, review, all;
	const struct trial *widest;
	git_commit *onto = NULL;
	size_t i, j, k, nr_ack = 0, nr_held = 0;
	int ret;

	memset(&alone, 0, sizeof(alone));
	memset(&review, 0, sizeof(review));
	memset(&all, 0, sizeof(all));
	for (i = 0; i < l->nr; i++) {
		nr_ack += l->items[i]->verdict == VERDICT_NEEDS_ACK;
		nr_held += is_held(l->items[i]->verdict);
	}
	if (apply_onto_lookup(&onto, repo, &branch->tip) < 0)
		return error_git("cannot read the tip of '%s'", branch->name);
	/*
	 * A series is run only when it picks more than the one before:
	 * with no needs-ack commit the review series is the proposals
	 * alone, with no other held commit the widest is the review.
	 */
	ret = trial_run(&alone, repo, onto, l, TRIAL_PROPOSED, cache);
	if (!ret && nr_ack)
		ret = trial_run(&review, repo, onto, l, TRIAL_REVIEW, cache);
	if (!ret && nr_held > nr_ack)
		ret = trial_run(&all, repo, onto, l, TRIAL_HELD, cache);
	widest = nr_held > nr_ack ? &all : nr_ack ? &review : &alone;
	/*
	 * The proposals that need a held commit: held with it, their
	 * result the widest series'; the other proposals' the series
	 * alone's.  (A proposal is in every series, in the same order.)
	 */
	for (i = 0, j = 0; !ret && i < widest->nr; i++) {
		struct candidate *c = widest->who[i], *h;

		if (c->verdict != VERDICT_PROPOSED)
			continue;
		trial_find(&alone, c, &j);
		if (!alone.res[j].applies && widest->res[i].applies &&
		    (h = needed_held(widest, i, &alone.res[j]))) {
			hold(c, h);
			if (c->verdict != VERDICT_PROPOSED) {
				take_result(c, &widest->res[i]);
				continue;
			}
		}
		take_result(c, &alone.res[j]);
	}
	/* A needs-ack commit's result: the review series'. */
	for (k = 0; !ret && nr_ack && k < review.nr; k++)
		if (review.who[k]->verdict == VERDICT_NEEDS_ACK &&
		    !review.who[k]->apply_checked)
			take_result(review.who[k], &review.res[k]);
	for (i = 0; !ret && i < l->nr; i++)
		check_empty(l->items[i]);
	trial_release(&alone);
	trial_release(&review);
	trial_release(&all);
	git_commit_free(onto);
	return ret;
}

/* Queues c and, before it, the prerequisites it needs that are absent. */
static void queue(struct candidate *c)
{
	size_t i;

	if (c->queued || c->present)
		return;
	c->queued = 1;
	for (i = 0; i < c->nr_prereqs; i++)
		if (c->prereqs[i].cand)
			queue(c->prereqs[i].cand);
}

/*
 * The queue: what was accepted, with its prerequisites, tried as one
 * series onto the branch tip, in mainline order; each result in
 * queue_apply, as a proposal among them keeps its own in apply.
 */
static int run_queue(git_repository *repo, const struct branch_index *branch,
		     struct candidate_list *l, struct trialcache *cache)
{
	struct trial t;
	git_commit *onto = NULL;
	size_t i, nr = 0;
	int ret;

	for (i = 0; i < l->nr; i++)
		if (l->items[i]->verdict == VERDICT_ACCEPTED)
			queue(l->items[i]);
	for (i = 0; i < l->nr; i++)
		nr += l->items[i]->queued;
	if (!nr)
		return 0;
	if (apply_onto_lookup(&onto, repo, &branch->tip) < 0)
		return error_git("cannot read the tip of '%s'", branch->name);
	memset(&t, 0, sizeof(t));
	ret = trial_run(&t, repo, onto, l, TRIAL_QUEUE, cache);
	for (i = 0; !ret && i < t.nr; i++) {
		apply_result_release(&t.who[i]->queue_apply);
		t.who[i]->queue_apply = t.res[i];
		apply_result_init(&t.res[i]);
	}
	trial_release(&t);
	git_commit_free(onto);
	return ret;
}

int checks_run(git_repository *repo, const struct branch_index *branch,
	       const git_oid *upstream, const struct ruleset *rules,
	       const struct soak_tags *painted, struct trialcache *cache,
	       struct candidate_list *l)
{
	size_t hits = cache ? cache->hits : 0;
	size_t computed = cache ? cache->computed : 0;
	size_t memo_hits, memo_reads, memo_hits_before, memo_reads_before;
	int ret;

	if (checks_soak(repo, upstream, rules, painted, l) < 0)
		return -1;
	trace_stage("soak");
	/*
	 * The trial picks read each pick's trees and its parent's once or
	 * twice: libgit2's cache would keep them all (185 MB of a
	 * 1,000,000-commit history's run).  The directories read again
	 * and again are kept by treememo.h, within its bound.
	 */
	treememo_counts(&memo_hits, &memo_reads);
	objcache_pause_trees();
	ret = run_apply(repo, branch, l, cache);
	if (!ret)
		ret = run_queue(repo, branch, l, cache);
	objcache_resume_trees();
	memo_hits_before = memo_hits;
	memo_reads_before = memo_reads;
	treememo_counts(&memo_hits, &memo_reads);
	trace_printf("checks: trees of trial picks: %zu read, %zu again from "
		     "memory", memo_reads - memo_reads_before,
		     memo_hits - memo_hits_before);
	if (cache)
		trace_printf("checks: trial picks: %zu from the cache, %zu "
			     "computed", cache->hits - hits,
			     cache->computed - computed);
	else
		trace_printf("checks: trial picks: no cache");
	return ret;
}
