#ifndef REVIEW_H
#define REVIEW_H

#include <git2.h>

#include "formats/archive.h"
#include "formats/mail.h"
#include "formats/rules.h"

/*
 * The review round of an opt-in subsystem (xfs): its needs-ack commits
 * go to its list as a thread (propose --format review), its
 * maintainers answer with Acked-by:, Reviewed-by: or Nacked-by:, and
 * the answers, read back from the list archives (stablepick acks),
 * become decisions in the ledger.
 *
 * The thread's Message-IDs say what they are about, so that an answer
 * found in any archive leads back to its commit and branch without
 * the review mails themselves:
 *
 *     stablepick-review.SUBSYSTEM.BRANCH.TIP12@DOMAIN     the cover
 *     stablepick-review.HEX40.BRANCH.TIP12@DOMAIN         a patch
 *
 * (BRANCH as mail_message_id() writes it, TIP12 the upstream tip.)
 */

/* The ids (without <>) of a review cover and patch; the caller frees. */
char *review_cover_id(const char *branch, const git_oid *tip,
		      const char *subsystem, const char *from_email);
char *review_patch_id(const char *branch, const git_oid *tip,
		      const git_oid *commit, const char *from_email);

/*
 * The addresses whose answer counts for subsystem s: its rule file's
 * "maintainer" lines, and the M: and R: lines of the MAINTAINERS file
 * at tree (upstream's) in every section with an F: pattern inside one
 * of s's paths ("F: fs/xfs/" for paths fs/xfs/; not "F: fs/" and a glob, the
 * VFS's).  A missing MAINTAINERS file is none; returns 0 or -1 after
 * an error message.
 */
int review_maintainers(git_repository *repo, const git_tree *tree,
		       const struct subsystem *s, struct mail_addrs *out);

/* Who is asked to ack for one opt-in subsystem. */
struct review_people {
	const struct subsystem *s;
	struct mail_addrs maintainers;
};

enum review_answer { REVIEW_NONE, REVIEW_ACK, REVIEW_NAK };

/*
 * An answer found in the archives: what posted_review_of() reads in
 * it (a NAK, an ack or a review; a review counts as an ack).
 */
struct review_found {
	git_oid commit;
	enum review_answer answer;
	const struct archive_msg *msg;	/* the reply */
	char *line;			/* "Acked-by: ..." as written */
	int to_cover;			/* answers the cover: every patch */
};

/*
 * Every answer in a to a review mail of branch, oldest first: a reply
 * (or a reply to a reply) to a review patch is about its commit; one
 * to the cover about every patch of the thread found in a.  Returns 0
 * or -1 after an error message.
 */
int review_collect(struct archive *a, const char *branch,
		   struct review_found **out, size_t *nr);
void review_found_release(struct review_found *v, size_t nr);

#endif
