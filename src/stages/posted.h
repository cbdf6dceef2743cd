#ifndef POSTED_H
#define POSTED_H

#include "formats/archive.h"
#include "stages/branch.h"
#include "stages/match.h"
#include "candidate/candidate.h"
#include "git/patchid.h"

/*
 * A candidate as it was posted to the list: the patch mail in a local
 * archive (archive.h), its series, cover letter and later revisions,
 * and the replies that reviewed it.
 *
 *     posted_attach(&archive, repo, &patchids, &candidates);
 *     ... score (rules on field "reply"), judge ...
 *     posted_mates(&candidates, &match);
 *     ... c->posted, for each candidate c that was found ...
 *
 * Finding the patch, in this order:
 *
 *   link       the message-id of a Link: trailer (lore.kernel.org/r/,
 *              patch.msgid.link/, a list's lore URL) or of a
 *              Message-ID: trailer (a cover letter's: the patch of
 *              its series with the commit's subject)
 *   patch-id   a patch mail whose diff has the commit's patch-id, from
 *              the commit's author (only authors who posted patches to
 *              the archive within 90 days of the commit are diffed)
 *   subject    a patch mail with the commit's subject from its author
 *
 * Where several revisions match, the latest is taken; a stable backport
 * ("[PATCH 6.6]", AUTOSEL) only when no mail posted for mainline does.
 *
 * The series: the patches of the same revision, total and sender in
 * the patch's thread ("[PATCH v2 3/7]" replying to "[PATCH v2 0/7]",
 * or each to the one before); failing that, those sent by the same
 * sender within an hour, each in a thread of its own.  The cover letter
 * is its "[PATCH 0/N]".  A later revision is a patch or cover letter
 * of the same sender with one of the series' titles and a higher "vN".
 *
 * The replies: the messages of the thread that answer the patch, or its
 * cover letter, directly or down a chain of replies (not those that
 * answer another patch of the series).  Their text, without quoted
 * lines, attributions, diffs and signatures, is what rules on the
 * field "reply" match.
 */

struct posted_reply {
	const struct archive_msg *msg;
	char *text;			/* what the replier wrote */
	int to_cover;			/* answers the cover letter */
};

struct posted_mate {
	const struct archive_msg *msg;
	struct candidate *cand;		/* its mainline commit, or NULL */
	/*
	 * Set by posted_mates(): "present" (the branch has it),
	 * "proposed" (proposed, or needs an ack, in this run), "absent"
	 * (in mainline, neither), "maybe-present" (no commit of the range
	 * has its subject, but a commit of the branch does that stands
	 * for no other), "not-found" (neither: not merged, or outside the
	 * watched paths).
	 */
	const char *status;
};

/*
 * How the patch mail was found, in the order the ways are tried (see
 * above).  posted_how_name() gives the stable names that text and JSON
 * ("found_by") print: "link", "patch-id", "subject"; never change them.
 */
enum posted_how {
	POSTED_BY_LINK,
	POSTED_BY_PATCH_ID,
	POSTED_BY_SUBJECT,
	POSTED_HOW__COUNT
};

const char *posted_how_name(enum posted_how how);

struct posted {
	const struct archive_msg *msg;	/* the patch mail */
	enum posted_how how;

	/* Its series; total 0 when it was posted alone ("[PATCH]"). */
	int position, total, revision;
	const struct archive_msg *cover;	/* "[PATCH 0/N]", or NULL */
	const struct archive_msg *first;	/* the cover, else patch 1/N */
	const char *series_subject;		/* borrowed: the first's title */
	char *cover_paragraph;		/* the first paragraph of the cover */
	int latest_revision;		/* the highest "vN" posted */
	const struct archive_msg *latest;	/* its first, when newer */
	struct posted_mate *mates;	/* the other patches, by position */
	size_t nr_mates;

	struct posted_reply *replies;
	size_t nr_replies;
};

/*
 * Finds the posted patch of every candidate of l (that has none yet),
 * with its series and replies.  Returns 0, or -1 after an error
 * message (a message of the archive that cannot be read again).
 */
int posted_attach(struct archive *a, git_repository *repo,
		  struct patchid_cache *patchids, struct candidate_list *l);

/*
 * Sets each series-mate's commit and status.  After the verdicts; a
 * mate is the commit of l or of the judged range found posted as it,
 * else the one commit of the range with its subject from its sender
 * (the presence engine's answer).
 */
void posted_mates(struct candidate_list *l, struct match *m);

void posted_free(struct posted *p);

/*
 * What a reply wrote itself (the text rules on "reply" match): its
 * lines that are not quoted (">"), not an attribution ("On ..., X
 * wrote:"), not after a signature ("-- ") or the start of a diff.  The
 * caller frees it.
 */
char *posted_reply_text(const char *body);

/*
 * What a reviewer's reply says of the patch, from its own text
 * (posted_reply_text()): a NAK ("Nacked-by:", or "NAK" or "NACK" as the
 * first word of a line), else an ack ("Acked-by:"), else a review
 * ("Reviewed-by:"), the trailers read as the commit message parser
 * reads them.  *line is set to the line that says so (the caller frees
 * it), NULL for POSTED_SILENT.
 */
enum posted_review {
	POSTED_SILENT,
	POSTED_REVIEWED,
	POSTED_ACKED,
	POSTED_NAKED,
};
enum posted_review posted_review_of(const char *body, char **line);

/* "https://lore.kernel.org/r/<id>" */
char *posted_link(const char *message_id);

#endif
