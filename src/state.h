#ifndef STATE_H
#define STATE_H

#include <git2.h>

/*
 * What propose remembers between runs, beside the ledger: for each
 * branch, the mainline tip of the last `propose --since last` and the
 * point up to which that run hid candidates, so that the next run lists
 * only what came after, and a second run at the same tip (the mbox
 * after the email) lists the same commits again.
 *
 *     # stablepick state 1
 *     linux-6.6.y<TAB><40-hex hidden up to, or -><TAB><40-hex tip>
 *
 * Reads never fail on a missing file; writes go to a temporary file,
 * synced and renamed over the state, so a crash leaves the old one.
 */

struct state {
	int has_from;		/* 0: the run hid nothing (a first run) */
	git_oid from;		/* what the run hid candidates up to */
	git_oid tip;		/* the mainline tip the run saw */
};

/* The state of branch: 1 and *out set, 0 if none, -1 on error. */
int state_get(const char *path, const char *branch, struct state *out);
/* Records the state of branch (replacing an earlier one); 0 or -1. */
int state_set(const char *path, const char *branch, const struct state *st);

#endif
