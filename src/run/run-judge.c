/*
 * The judging of a run, in its order: presence (match.h), the posted
 * patches (posted.h), links, facts, scores and verdicts (deps.h,
 * score.h), the prerequisites pulled in, the recorded decisions (the
 * ledger), then soak and trial picks (checks.h); and, for the outputs
 * that show them, the likely prerequisites of what does not apply
 * (blame.h).  run.c sets the run up and saves it.
 */
#include "git/objcache.h"
#include "run/run.h"
#include "stages/applywith.h"
#include "stages/blame.h"
#include "stages/checks.h"
#include "stages/deps.h"
#include "stages/posted.h"
#include "stages/score.h"
#include "base/strbuf.h"
#include "base/trace.h"
#include "base/util.h"

#include <stdlib.h>

/*
 * Recorded decisions outrank the rules: what was accepted or rejected
 * for the branch is not proposed again, and what was deferred comes
 * back once its date has passed.  Presence still wins: a commit the
 * branch carries is present, whatever was decided.  A commit with no
 * decision for the branch gets those for other branches as evidence
 * (other_decisions), which the verdict does not follow: each branch
 * decides for itself.
 */
static int apply_decisions(struct run *run, struct candidate_list *l)
{
	static const enum verdict by_decision[] = {
		[DECISION_ACCEPTED] = VERDICT_ACCEPTED,
		[DECISION_REJECTED] = VERDICT_REJECTED,
		[DECISION_DEFERRED] = VERDICT_DEFERRED,
	};
	git_time_t now;
	size_t i;

	if (ledger_now(&now) < 0)
		return -1;
	for (i = 0; i < l->nr; i++) {
		struct candidate *c = l->items[i];
		const struct ledger_entry *e;
		char day[11];

		e = ledger_find(&run->ledger, run->branch.name, &c->id);
		c->decision = e;
		free(c->other_decisions);
		c->other_decisions = NULL;
		c->nr_other_decisions = 0;
		if (!e)
			c->nr_other_decisions =
				ledger_find_others(&run->ledger, run->branch.name,
						   &c->id, &c->other_decisions);
		if (!e || c->present || !ledger_in_force(e, now))
			continue;
		ledger_format_date(day, e->when);
		candidate_set_verdict(c, by_decision[e->decision],
				      "%s %s %s%s%s",
				      decision_name(e->decision),
				      e->decision == DECISION_DEFERRED ?
				      "until" : "on",
				      e->decision == DECISION_DEFERRED ?
				      ledger_until_text(e, day) : day,
				      *e->reason ? ": " : "", e->reason);
	}
	return 0;
}

struct match *run_match(struct run *run, git_repository *repo)
{
	if (!run->match_ready) {
		match_init(&run->match, repo, &run->branch, &run->scan,
			   &run->patchids);
		run->match_ready = 1;
	}
	return &run->match;
}

/*
 * Presence, links, facts, scores and verdicts; with pull, the
 * prerequisites of what is proposed are pulled in and judged too.
 */
static int judge(struct run *run, git_repository *repo,
		 struct candidate_list *l, const git_oid *range_from, int pull)
{
	struct match *m = run_match(run, repo);
	struct candidate *pulled;
	struct deps d;
	size_t i;
	int ret;

	if (match_candidates(m, l, range_from) < 0)
		return -1;
	trace_stage("presence");
	/* Before the scores: rules on "reply" read the review replies. */
	if (run->archive &&
	    posted_attach(run->archive, repo, &run->patchids, l) < 0)
		return -1;
	if (run->archive)
		trace_stage("posted patches");
	deps_init(&d, repo, m, l, &run->upstream);
	if (run->scan.memo && run->scan.has_from &&
	    git_oid_equal(&run->scan.from, &run->branch.base) &&
	    git_oid_equal(&run->scan.to, &run->upstream))
		deps_set_range(&d, &run->scan);
	deps_set_cache(&d, &run->scans);
	ret = deps_link(&d);
	trace_stage("deps link");
	/* A --range that ends before the tip: reverts may come later. */
	if (!ret && range_from)
		ret = deps_later_reverts(&d, &run->scan.to, &run->upstream);
	for (i = 0; !ret && i < l->nr; i++) {
		struct candidate *c = l->items[i];

		if (interrupted()) {
			ret = -1;
			break;
		}
		ret = deps_facts(&d, c);
		score_candidate(&run->rules, c);
		if (!ret)
			ret = deps_applicable(&d, c);
		score_decide(c);
	}
	trace_stage("facts and scores");
	while (!ret && pull && (pulled = deps_pull_prereq(&d))) {
		if (run->archive)
			ret = posted_attach(run->archive, repo, &run->patchids, l);
		score_candidate(&run->rules, pulled);
		score_decide(pulled);
	}
	for (i = 0; !ret && pull && i < l->nr; i++) {
		ret = deps_reconsider(&d, l->items[i]);
		if (ret > 0)
			score_decide(l->items[i]);
		ret = ret < 0 ? -1 : 0;
	}
	if (!ret)
		ret = deps_finish(&d);
	deps_release(&d);
	trace_stage("prerequisites");
	return ret;
}

int run_judge_scores(struct run *run, git_repository *repo,
		     struct candidate_list *l, const git_oid *range_from)
{
	int ret = judge(run, repo, l, range_from, 0);

	if (!ret && run->archive)
		posted_mates(l, run_match(run, repo));
	return ret;
}

int run_judge_verdicts(struct run *run, git_repository *repo,
		       struct candidate_list *l)
{
	int ret = apply_decisions(run, l);

	if (!ret)
		ret = checks_soak(repo, &run->upstream, &run->rules,
				  run->scan.soak_painted ?
				  &run->scan.soak_tags : NULL, l);
	return ret;
}

int run_judge_range(struct run_context *ctx, struct run *run,
		    const char *const *archives, size_t nr)
{
	int ret = run_open_archives(ctx, run, archives, nr);

	if (!ret)
		ret = run_judge(run, ctx->repo, &run->scan.candidates,
				&run->scan.from);
	return ret;
}

/*
 * A twin of a same-content commit (its pick changes nothing, checks.c):
 * one the branch carries, or a proposal picked before it.
 */
static int picked_before(const struct candidate *twin,
			 const struct candidate *c)
{
	if (twin->present)
		return 1;
	return twin->order < c->order && twin->apply_checked &&
	       twin->apply.applies && (twin->verdict == VERDICT_PROPOSED ||
				       twin->verdict == VERDICT_NEEDS_ACK);
}

/* Names the twin of c's same-content evidence t in its evidence and why. */
static void name_twin(struct run *run, struct candidate *c,
		      const struct match_twin *t)
{
	struct strbuf where = STRBUF_INIT;
	size_t i;

	if (!t->cand)
		strbuf_addf(&where, "below %s", run->branch.base_name ?
			    run->branch.base_name : "the branch base");
	else if (t->cand->present)
		strbuf_addf(&where, "which %s carries", run->branch.name);
	else
		strbuf_addstr(&where, "a proposal before it");
	for (i = 0; i < c->nr_evidence; i++) {
		struct evidence *e = &c->evidence[i];

		if (e->kind != EVIDENCE_SAME_CONTENT || e->has_commit)
			continue;
		git_oid_cpy(&e->commit, &t->id);
		e->has_commit = 1;
		free(e->detail);
		e->detail = xstrfmt("picked onto the branch tip after the "
				    "proposals before it, it changes nothing: "
				    "%.12s (%s) made the same change",
				    git_oid_tostr_s(&t->id), where.buf);
	}
	candidate_set_verdict(c, VERDICT_MAYBE_PRESENT,
			      "its pick changes nothing: %.12s (%s) made the "
			      "same change", git_oid_tostr_s(&t->id), where.buf);
	strbuf_release(&where);
}

/*
 * The twins of the same-content commits (match_twins()): the commit
 * through which the branch, or a proposal before it, already has the
 * change, named in the evidence and the why.
 */
static int name_same_content(struct run *run, git_repository *repo,
			     struct candidate_list *l)
{
	struct candidate **asked = xcalloc(l->nr + 1, sizeof(*asked));
	struct match_twin *twins;
	size_t nr = 0, i, j;
	int ret = 0;

	for (i = 0; i < l->nr; i++)
		for (j = 0; j < l->items[i]->nr_evidence; j++)
			if (l->items[i]->evidence[j].kind == EVIDENCE_SAME_CONTENT &&
			    !l->items[i]->evidence[j].has_commit) {
				asked[nr++] = l->items[i];
				break;
			}
	twins = xcalloc(nr + 1, sizeof(*twins));
	if (nr)
		ret = match_twins(run_match(run, repo), asked, nr,
				  picked_before, twins);
	for (i = 0; !ret && i < nr; i++)
		if (twins[i].found)
			name_twin(run, asked[i], &twins[i]);
	free(asked);
	free(twins);
	return ret;
}

int run_judge(struct run *run, git_repository *repo,
	      struct candidate_list *l, const git_oid *range_from)
{
	int ret = judge(run, repo, l, range_from, 1);

	if (!ret)
		ret = apply_decisions(run, l);
	if (!ret && interrupted())
		ret = -1;
	if (!ret)
		ret = checks_run(repo, &run->branch, &run->upstream, &run->rules,
				 run->scan.soak_painted ? &run->scan.soak_tags : NULL,
				 run->trial_cache, l);
	if (!ret)
		ret = name_same_content(run, repo, l);
	trace_stage("checks");
	if (!ret && run->archive)
		posted_mates(l, run_match(run, repo));
	return ret;
}

int run_likely_prereqs(struct run *run, git_repository *repo,
		       struct candidate_list *l, struct candidate *only)
{
	int ret;

	if (interrupted())
		return -1;
	ret = blame_likely_prereqs(run_match(run, repo), &run->branch.base,
				   l, run->trial_cache, only);
	trace_stage("likely prerequisites");
	return ret;
}

int run_applies_with(struct run *run, git_repository *repo,
		     struct candidate_list *l, struct candidate *only)
{
	const struct applywith_limits *lim = &run->series_limits;
	struct trialcache *cache = run->trial_cache;
	size_t hits = cache ? cache->hits : 0;
	size_t computed = cache ? cache->computed : 0;
	size_t reused = cache ? cache->keys_reused : 0;
	size_t blame_hits = cache ? cache->blame_hits : 0;
	size_t blamed = cache ? cache->blame_computed : 0;
	size_t by_history, by_libgit2, files_history, files_libgit2;
	size_t made, again, made_after, again_after;
	int ret;

	blame_counts(&by_history, &by_libgit2);
	apply_merge_counts(&made, &again);
	/* Trial picks, as in the checks: trees read again are in treememo.h. */
	objcache_pause_trees();
	ret = interrupted() ? -1 :
	      applywith_search(run_match(run, repo), &run->branch, l, cache,
			       lim, only);

	/* Its own line: else the judging below would be charged for it. */
	trace_stage("prerequisite series: search");
	/* The members outside the watched paths, judged by the rules too. */
	if (!ret)
		ret = applywith_members(&run->scan, l, &run->outside);
	if (ret > 0) {
		ret = run_judge_scores(run, repo, &run->outside, NULL);
		if (!ret)
			ret = run_judge_verdicts(run, repo, &run->outside);
	}
	if (!ret && !only)
		ret = applywith_carry(repo, &run->branch, &run->scan, l,
				      &run->outside, cache);
	objcache_resume_trees();

	if (cache)
		trace_printf("prerequisite series: trial picks: %zu from the "
			     "cache, %zu computed; %zu keys as the series "
			     "before's", cache->hits - hits,
			     cache->computed - computed,
			     cache->keys_reused - reused);
	if (cache)
		trace_printf("prerequisite series: blames: %zu from the "
			     "cache, %zu computed",
			     cache->blame_hits - blame_hits,
			     cache->blame_computed - blamed);
	blame_counts(&files_history, &files_libgit2);
	trace_printf("prerequisite series: files blamed: %zu from their "
		     "history in the range, %zu by libgit2's walk",
		     files_history - by_history, files_libgit2 - by_libgit2);
	apply_merge_counts(&made_after, &again_after);
	trace_printf("prerequisite series: file merges: %zu made, %zu "
		     "known from the same three blobs before",
		     made_after - made, again_after - again);
	trace_stage("prerequisite series");
	return ret;
}

int run_queue_series(struct run *run, git_repository *repo)
{
	struct trialcache *cache = run->trial_cache;
	size_t hits = cache ? cache->hits : 0;
	size_t computed = cache ? cache->computed : 0;
	int ret = applywith_queue(run_match(run, repo), &run->branch,
				  &run->scan, &run->scan.candidates,
				  &run->outside, cache, &run->series_limits);

	if (cache)
		trace_printf("queue series: trial picks: %zu from the cache, "
			     "%zu computed", cache->hits - hits,
			     cache->computed - computed);
	trace_stage("queue series");
	return ret;
}
