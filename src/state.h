#ifndef STATE_H
#define STATE_H

#include <git2.h>

/*
 * What propose remembers between runs, beside the ledger: for each
 * branch, the mainline tip of the last `propose --since last`, so that
 * the next one lists only what came after.
 *
 *     # stablepick state 1
 *     linux-6.6.y<TAB><40-hex mainline tip>
 *
 * Reads never fail on a missing file; writes go to a temporary file,
 * synced and renamed over the state, so a crash leaves the old one.
 */

/* The tip recorded for branch: 1 and *out set, 0 if none, -1 on error. */
int state_get(const char *path, const char *branch, git_oid *out);
/* Records tip for branch (replacing an earlier one); 0 or -1. */
int state_set(const char *path, const char *branch, const git_oid *tip);

#endif
