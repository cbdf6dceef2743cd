#ifndef PICKS_H
#define PICKS_H

#include "stages/audit.h"
#include "run/run.h"

/*
 * The readers of audit's picks, each adding to an audit (audit.h) the
 * mainline commit every pick stands for, found by the presence engine
 * of the run (its upstream line, else its change, else its subject).
 * A pick that cannot be understood or matched is a warning naming where
 * it is, counted in *skipped; a source with no pick at all is an error.
 * Each returns 0, or -1 after an error message.
 */

/*
 * A list of picks: one revision a line (its first word: "1a2b3c4d5e6f
 * xfs: fix ..." as git log --oneline writes it), "#" comments and blank
 * lines ignored.  "-" reads standard input.  A bad revision is reported
 * ("FILE:LINE: bad revision 'x', skipped"), as a mail that cannot be
 * matched is, and counted in *skipped; a list with no pick at all is an
 * error.
 */
int picks_read_list(git_repository *repo, const char *path, struct audit *a,
		    size_t *skipped);

/*
 * The pick mails of an mbox (AUTOSEL's, a stable review series): each
 * patch mail is a pick; cover letters (0/N) and replies are not.  Every
 * mail is kept in a->mails (audit.h), for the replies and what the
 * mbox's own replies say; a->thread is set to the cover letter, else
 * the first patch.
 */
int picks_read_mbox(struct run_context *ctx, struct run *run,
		    const char *path, struct audit *a, size_t *skipped);

/*
 * A stable-queue directory: its "series" file names the patch files,
 * one a line, in the order to apply them ("#" comments); each is one
 * mail as git format-patch writes it.
 */
int picks_read_queue(struct run_context *ctx, struct run *run,
		     const char *dir, struct audit *a, size_t *skipped);

/*
 * A range already applied to a branch ("v6.1.60..v6.1.61"): its
 * commits, oldest first, are the picks, and are tried onto the branch
 * as they were applied.  The branch is judged as it was at the range's
 * start.
 */
int picks_read_applied(struct run_context *ctx, struct run *run,
		       const char *range, struct audit *a, size_t *skipped);

/*
 * The picks the range did not judge (below the base, elsewhere), added
 * to extra and judged there, alone.
 */
int picks_judge_outside(struct run_context *ctx, struct run *run,
			const struct audit *a, struct candidate_list *extra);

#endif
