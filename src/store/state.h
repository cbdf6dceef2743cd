#ifndef STATE_H
#define STATE_H

#include <git2.h>
#include <uthash.h>

/*
 * What propose remembers between runs, beside the ledger: for each
 * branch, the mainline tip of the last `propose --since last` and the
 * point up to which that run hid candidates, so that the next run lists
 * only what came after, and a second run at the same tip (the mbox
 * after the email) lists the same commits again.
 *
 * And, so that what becomes eligible later (a commit that soaked, a
 * deferral that ended, an acceptance, a prerequisite backported) is
 * listed again, what the runs did not propose: per commit, what it was
 * at the tip before this one ("then": what a run at this tip compares
 * with, so that the second run at a tip lists what the first did) and
 * at this tip ("now": what the run at the next tip compares with).
 *
 *     # stablepick state 2
 *     linux-6.6.y<TAB><40-hex hidden up to, or -><TAB><40-hex tip><TAB>
 *         <then-run><TAB><now-run>
 *     linux-6.6.y<TAB><40-hex commit><TAB><then><TAB><now>
 *
 * (the first on one line).  then-run and now-run are when (Unix time,
 * "now" as the ledger has it) the last run at the tip before and at
 * this tip ran, or "-": a deferral that ended since then-run ends after
 * what that run saw.  then and now are names of enum state_was, or "-"
 * for nothing to remember (proposed, present, below the threshold ...).
 * A version 1 file has the run's line without the times only: nothing
 * remembered.
 *
 * Reads never fail on a missing file; writes go to a temporary file,
 * synced and renamed over the state, so a crash leaves the old one.
 *
 *     struct state st;
 *     state_init(&st);
 *     if (state_get(path, "linux-6.6.y", &st) > 0)
 *             ... st.tip, st.from, state_find(&st, &id) ...
 *     state_remember(&st, &id, STATE_NONE, STATE_WAITING);
 *     state_set(path, "linux-6.6.y", &st);
 *     state_release(&st);
 */

/* Why a run did not propose a commit; names stable (state_was_name()). */
enum state_was {
	STATE_NONE,		/* nothing to remember: "-" */
	STATE_WAITING,		/* waiting for its soak time */
	STATE_HELD,		/* held with a held commit it needs */
	STATE_NEEDS_ACK,
	STATE_DEFERRED,
	STATE_REJECTED,
	STATE_ACCEPTED,
	STATE_DOES_NOT_APPLY,	/* proposed, but does not apply as it is */
	STATE_NOT_APPLICABLE,
	STATE_BRANCH_REVERTED,	/* the branch reverted its backport */
	STATE_PAGED,		/* left out of a full proposal mail */
	STATE__COUNT
};

/* "waiting", "held", "needs-ack", ...; "-" for STATE_NONE. */
const char *state_was_name(enum state_was w);

struct state_seen {
	git_oid commit;
	enum state_was then;	/* at the tip before this one */
	enum state_was now;	/* at this tip */
	UT_hash_handle hh;	/* keyed by commit */
};

struct state {
	int has_from;		/* 0: the run hid nothing (a first run) */
	git_oid from;		/* what the run hid candidates up to */
	git_oid tip;		/* the mainline tip the run saw */
	git_time_t then_run;	/* the last run at the tip before; 0: none */
	git_time_t now_run;	/* the last run at this tip; 0: unknown */
	struct state_seen *seen;	/* uthash head */
};

void state_init(struct state *st);
void state_release(struct state *st);

/* What st remembers of commit, or NULL. */
const struct state_seen *state_find(const struct state *st, const git_oid *commit);
/* Records then and now for commit (replacing what st had); both NONE drops it. */
void state_remember(struct state *st, const git_oid *commit,
		    enum state_was then, enum state_was now);

/*
 * The state of branch into st (initialized): 1 and st set, 0 if none,
 * -1 after an error message naming the file and line.
 */
int state_get(const char *path, const char *branch, struct state *st);
/* Records the state of branch (replacing an earlier one); 0 or -1. */
int state_set(const char *path, const char *branch, const struct state *st);

#endif
