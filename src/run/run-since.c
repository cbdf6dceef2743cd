/*
 * propose --since: hiding what an earlier run listed, listing again
 * what has become eligible since, and the state kept between the runs
 * of --since last (state.h) beside the ledger.
 */
#include "run/run.h"
#include "base/error.h"
#include "git/history.h"
#include "store/state.h"
#include "base/strbuf.h"
#include "base/util.h"

#include <string.h>

/* The state file: beside the ledger. */
static char *state_path(const struct run *run)
{
	const char *slash = strrchr(run->ledger.path, '/');

	if (!slash)
		return xstrdup("state");
	return xstrfmt("%.*s/state", (int)(slash - run->ledger.path),
		       run->ledger.path);
}

/*
 * --since: the candidates an earlier run already listed (those up to
 * the mainline tip it saw) are hidden from every format.  The judging
 * still sees them, so that links (follow-ups, prerequisites, reverts)
 * across weeks stay right: the result is the full run minus what was
 * listed before.
 */
static int hide_listed(struct run *run, git_repository *repo,
		       const git_oid *since)
{
	struct candidate_list *l = &run->scan.candidates;
	struct history_walk walk;
	git_oid id;
	int ret;

	history_walk_init(&walk, repo, GIT_SORT_NONE);
	if (history_walk_push(&walk, since) < 0 ||
	    history_walk_hide(&walk, &run->scan.from) < 0) {
		history_walk_release(&walk);
		return error_git("cannot walk to the last run's tip");
	}
	while (!(ret = history_walk_next(&id, &walk))) {
		struct candidate *c = candidate_list_find(l, &id);

		if (c)
			c->listed_before = 1;
	}
	history_walk_release(&walk);
	return ret == GIT_ITEROVER ? 0 : error_git("cannot walk to the last run's tip");
}

/*
 * Where --since hides candidates up to.  For "last": the tip of the
 * last --since last run for the branch; but when mainline has not moved
 * since that run, what that run hid, so that running again (the mbox
 * after the email) lists the same commits.  *st gets the new state,
 * with, as "then" of each commit, what the runs at the tip before this
 * one remembered of it: the last run's "now" when mainline moved, its
 * "then" when it did not (the same again).
 */
static int resolve_since(struct run *run, git_repository *repo,
			 const char *since, git_oid *out, int *found,
			 struct state *st, git_time_t now)
{
	const struct state_seen *s, *tmp;
	struct state old;
	int ret, same = 0, moved = 0;
	char *path;

	*found = 0;
	if (strcmp(since, "last")) {
		*found = 1;
		return scan_resolve(repo, since, "--since", out);
	}
	path = state_path(run);
	ret = state_get(path, run->branch.name, &old);
	free(path);
	if (ret < 0)
		return -1;
	git_oid_cpy(&st->tip, &run->upstream);
	st->now_run = now;
	if (!ret)
		return 0;		/* the first run lists everything */
	if (git_oid_equal(&old.tip, &run->upstream)) {
		same = 1;
		st->has_from = old.has_from;
		git_oid_cpy(&st->from, &old.from);
		st->then_run = old.then_run;
	} else if (history_descendant_of(repo, &run->upstream, &old.tip) > 0) {
		moved = 1;
		st->has_from = 1;
		git_oid_cpy(&st->from, &old.tip);
		st->then_run = old.now_run;
	}
	/* (A tip mainline no longer has, after a rebase: list everything.) */
	git_error_clear();
	/*
	 * At the same tip, "now" too, for the commits this run does not
	 * judge (another --subsystem): relist() replaces the others'.
	 */
	HASH_ITER(hh, old.seen, s, tmp)
		state_remember(st, &s->commit, same ? s->then :
			       moved ? s->now : STATE_NONE,
			       same ? s->now : STATE_NONE);
	state_release(&old);
	if (st->has_from) {
		*found = 1;
		git_oid_cpy(out, &st->from);
	}
	return 0;
}

/* Why c is not in the proposal, as the state keeps it; NONE if it is. */
static enum state_was was_of(const struct candidate *c)
{
	switch (c->verdict) {
	case VERDICT_PROPOSED:
		return c->apply_checked && !c->apply.applies ?
		       STATE_DOES_NOT_APPLY : STATE_NONE;
	case VERDICT_NEEDS_ACK:
		return c->held ? STATE_HELD : STATE_NEEDS_ACK;
	case VERDICT_WAITING:
		return c->held ? STATE_HELD : STATE_WAITING;
	case VERDICT_DEFERRED:
		return STATE_DEFERRED;
	case VERDICT_REJECTED:
		return STATE_REJECTED;
	case VERDICT_ACCEPTED:
		return STATE_ACCEPTED;
	case VERDICT_NOT_APPLICABLE:
		return STATE_NOT_APPLICABLE;
	case VERDICT_BRANCH_REVERTED:
		return STATE_BRANCH_REVERTED;
	default:
		/* Present, below the threshold ...: nothing a week changes. */
		return STATE_NONE;
	}
}

/*
 * Whether c's deferral ended since the run at then_run (the last at the
 * tip before): one recorded after that run, which saw it proposed, and
 * ended before this one, kept it from the list all the same.
 */
static int deferral_ended(const struct candidate *c, git_time_t then_run,
			  git_time_t now)
{
	const struct ledger_entry *e = c->decision;

	return e && e->decision == DECISION_DEFERRED &&
	       !ledger_in_force(e, now) && then_run && e->until > then_run;
}

/*
 * Why c, which was "was" when the runs at the tip before (the last at
 * then_run) saw it, is eligible now (proposed, or accepted in the
 * ledger, or to be asked about again: a needs-ack whose deferral
 * ended) where it was not then, or not since; NEWLY_NONE if it is
 * not.  *was_out gets what it was.
 */
static enum newly_why newly_eligible(const struct candidate *c,
				     enum state_was was, git_time_t then_run,
				     git_time_t now, enum state_was *was_out)
{
	const struct ledger_entry *e = c->decision;
	int applies = !c->apply_checked || c->apply.applies;

	*was_out = was;
	if (was == STATE_NONE && (c->verdict == VERDICT_PROPOSED ||
				  c->verdict == VERDICT_NEEDS_ACK) &&
	    deferral_ended(c, then_run, now)) {
		*was_out = STATE_DEFERRED;
		return NEWLY_DEFERRAL_EXPIRED;
	}
	if (was == STATE_NONE)
		return NEWLY_NONE;
	if (c->verdict == VERDICT_ACCEPTED)
		return was == STATE_ACCEPTED ? NEWLY_NONE : NEWLY_LEDGER_CHANGED;
	/*
	 * A maintainer's "not yet" of a commit that needs the ack: once
	 * it ends, the commit is asked about again (the review lists it).
	 */
	if (c->verdict == VERDICT_NEEDS_ACK)
		return was == STATE_DEFERRED && e &&
		       e->decision == DECISION_DEFERRED &&
		       !ledger_in_force(e, now) ? NEWLY_DEFERRAL_EXPIRED :
		       NEWLY_NONE;
	if (c->verdict != VERDICT_PROPOSED)
		return NEWLY_NONE;
	switch (was) {
	case STATE_DEFERRED:
	case STATE_REJECTED:
	case STATE_ACCEPTED:
		return e && e->decision == DECISION_DEFERRED &&
		       !ledger_in_force(e, now) ? NEWLY_DEFERRAL_EXPIRED :
		       NEWLY_LEDGER_CHANGED;
	case STATE_WAITING:
		return NEWLY_SOAKED;
	case STATE_NEEDS_ACK:
		/* Not approved by the ledger: the rules (policy, threshold). */
		return e && e->decision == DECISION_ACCEPTED ?
		       NEWLY_LEDGER_CHANGED : NEWLY_RULES_CHANGED;
	case STATE_HELD:
	case STATE_DOES_NOT_APPLY:
		/* Still not applying as it is, it is no more eligible. */
		return applies ? NEWLY_PREREQUISITE_PRESENT : NEWLY_NONE;
	case STATE_NOT_APPLICABLE:
		return NEWLY_PREREQUISITE_PRESENT;
	case STATE_BRANCH_REVERTED:
		/* Proposed again: mainline fixed it since the revert. */
		return NEWLY_FIXED_SINCE;
	case STATE_NONE:
	case STATE_PAGED:	/* listed as it is (relist()) */
	case STATE__COUNT:
		break;
	}
	return NEWLY_NONE;
}

/*
 * --since last: what an earlier run listed but is eligible now where
 * it was not at the tip before is listed again, marked; and *st keeps
 * what this run did not propose, for the next tip's runs.
 */
static void relist(struct run *run, struct state *st, git_time_t now)
{
	struct candidate_list *l = &run->scan.candidates;
	size_t i;

	for (i = 0; i < l->nr; i++) {
		struct candidate *c = l->items[i];
		const struct state_seen *s = state_find(st, &c->id);
		enum state_was then = s ? s->then : STATE_NONE, was;
		/*
		 * Left out of a mail by an earlier run at this tip: still
		 * so for a run that pages nothing (JSON, the review), so
		 * that the next tip's runs list it.
		 */
		enum state_was left = s && s->now == STATE_PAGED ?
				      STATE_PAGED : was_of(c);

		/*
		 * Left out of a full mail at the tip before: listed as it
		 * is now (and again by the second run at this tip).
		 */
		if (then == STATE_PAGED)
			c->listed_before = 0;
		if (c->listed_before &&
		    (c->newly = newly_eligible(c, then, st->then_run, now,
					       &was)) != NEWLY_NONE) {
			c->listed_before = 0;
			c->newly_was = state_was_name(was);
		}
		state_remember(st, &c->id, then, left);
	}
}

int run_since(struct run *run, git_repository *repo, const char *since,
	      struct state *st)
{
	git_time_t now;
	git_oid tip;
	int found = 0;

	state_release(st);
	if (ledger_now(&now) < 0 ||
	    resolve_since(run, repo, since, &tip, &found, st, now) < 0)
		return -1;
	if (found && hide_listed(run, repo, &tip) < 0)
		return -1;
	if (!strcmp(since, "last"))
		relist(run, st, now);
	return 0;
}

void run_since_paged(const struct run *run, struct state *st)
{
	const struct candidate_list *l = &run->scan.candidates;
	size_t i;

	for (i = 0; i < l->nr; i++) {
		const struct candidate *c = l->items[i];
		const struct state_seen *s = state_find(st, &c->id);

		if (c->paged)
			state_remember(st, &c->id, s ? s->then : STATE_NONE,
				       STATE_PAGED);
		else if (s && s->now == STATE_PAGED)
			state_remember(st, &c->id, s->then, was_of(c));
	}
}

int run_since_save(struct run *run, const struct state *st)
{
	char *path = state_path(run);
	int ret = state_set(path, run->branch.name, st);

	free(path);
	return ret;
}
