#ifndef REVIEW_H
#define REVIEW_H

#include <git2.h>

#include "formats/archive.h"
#include "formats/mail.h"
#include "formats/rules.h"
#include "store/ledger.h"

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
 *
 * A checklist review (propose --format checklist) is one mail instead
 * of a thread, its candidates numbered, one a line, each with its
 * 12-hex id, which is how acks reads the numbers back from the mail in
 * the archive:
 *
 *     stablepick-checklist.SUBSYSTEM.BRANCH.TIP12@DOMAIN
 *
 *       1. a1b2c3d4e5f6 xfs: fix a crash in the allocator
 *
 * and a maintainer answers it line by line: "1 y", "2 n: needs the
 * prep patch", "3 defer v6.6.9" (review_checklist_answer()).
 */

/* The ids (without <>) of a review cover and patch; the caller frees. */
char *review_cover_id(const char *branch, const git_oid *tip,
		      const char *subsystem, const char *from_email);
char *review_checklist_id(const char *branch, const git_oid *tip,
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

/* REVIEW_NONE: a reply that decides nothing ("looks fine, later"). */
enum review_answer { REVIEW_NONE, REVIEW_ACK, REVIEW_NAK, REVIEW_DEFER };

/* What one reply (or one line of a checklist answer) says. */
struct review_said {
	enum review_answer answer;
	char *line;		/* the line that says so, as written */
	git_time_t until;	/* REVIEW_DEFER: the date (00:00Z), or 0 */
	char *until_tag;	/* or the release tag, "v6.6.9"; or neither */
};
void review_said_release(struct review_said *s);

/*
 * What a reply to a review patch or cover says, from its own text
 * (posted_reply_text(): quoted lines are not read): a NAK
 * (posted_review_of()), else a deferral (a line that starts with
 * "defer", "deferred", "postpone", "not yet", "wait for" or "wait
 * until", its condition the first date, YYYY-MM-DD, or release,
 * "v6.6.9" or "6.6.9", on that line), else an ack or a review
 * (an ack), else nothing, out->line its first line but a greeting.
 */
void review_read_reply(const char *body, struct review_said *out);

/*
 * One line of an answer to a checklist: "N ANSWER [REST]", N the
 * number ("1", "1.", "1)", "#1"), ANSWER y, yes, ack, acked, ok (an
 * ack), n, no, nak, nack (a NAK, REST its reason) or d, defer, "not
 * yet" ... as for review_read_reply() (a deferral, its condition in
 * REST).  Returns 1 and fills *n and out, else 0.
 */
int review_checklist_answer(const char *line, unsigned *n,
			    struct review_said *out);

/* One item of a checklist mail: "  N. HEX12 subject"; 1 or 0. */
int review_checklist_item(const char *line, unsigned *n, char hex[13]);

/*
 * An answer found in the archives: what a reply says of one commit.
 */
struct review_found {
	git_oid commit;
	enum review_answer answer;
	const struct archive_msg *msg;	/* the reply */
	char *line;			/* "Acked-by: ..." as written */
	git_time_t until;		/* a deferral's, as in review_said */
	char *until_tag;
	int to_cover;			/* answers the cover: every patch */
	/*
	 * The one address of its From: as read again from the archive,
	 * lower case; NULL when From: holds none or several ("Mallory
	 * <m@evil>, Rhea <rhea@example.org>" is no one's answer).
	 */
	char *sender;
	/*
	 * The review mail (patch, cover, checklist) it answers, if held;
	 * for a patch, its cover when dated later (a patch mail carries
	 * its commit's date).
	 */
	const struct archive_msg *asked;
	/*
	 * Why the mail could not be read (then answer is REVIEW_NONE and
	 * commit maybe zero), else NULL.
	 */
	char *skip;
	size_t seq;			/* internal: the order found */
};

/*
 * Every answer in a to a review mail of branch, oldest first: a reply
 * (or a reply to a reply) to a review patch is about its commit; one
 * to the cover about every patch of the thread found in a (one that
 * decides nothing: once, on the first patch); the lines of one to a
 * checklist about the commits they number, read from the checklist
 * mail in a, the ids resolved in repo (a reply that answers no number
 * is read as one to a cover, for every item).  A reply that cannot be
 * read again (nor the checklist it answers) is an answer with its
 * skip set, not an error.  Returns 0.
 */
int review_collect(struct archive *a, git_repository *repo,
		   const char *branch, struct review_found **out, size_t *nr);
void review_found_release(struct review_found *v, size_t nr);

/*
 * How far a mail's Date: may be ahead of now and still be read: a
 * sender's clock or time zone set wrong.  Its date then counts as now.
 */
#define REVIEW_DATE_SLACK 86400

/*
 * Why the mail of answer f is not read at all, as acks lists it (the
 * caller frees it): its skip, its Date: missing or before 1970, more
 * than REVIEW_DATE_SLACK after now, or before the review mail it
 * answers was sent (asked).  Else NULL, and *date is its Date:, no
 * later than now.
 */
char *review_distrust(const struct review_found *f, git_time_t now,
		      git_time_t *date);

/*
 * Whether the ledger's decision old (or NULL) outranks answer f dated
 * date: NULL when it does not (the answer is to be recorded), else
 * why, "recorded before" (an answer to the whole series over any
 * decision, another answer dated as late, or the same; a mark made
 * after the answer was written), or for a mark made before it, in
 * *mark, "kept the mark of DAY by NAME" (to free): an answer read
 * from a mail never outranks what the user decided by mark.
 */
const char *review_outranked(const struct ledger_entry *old,
			     const struct review_found *f, git_time_t date,
			     char **mark);

#endif
