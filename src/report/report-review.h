#ifndef REPORT_REVIEW_H
#define REPORT_REVIEW_H

#include "report/report.h"
#include "stages/review.h"

/*
 * The review round and the queue (review.h): what propose --format
 * review, stablepick acks and stablepick queue write.
 */

/*
 * The review threads, one per opt-in subsystem with needs-ack commits
 * that apply (in the review series: after the proposals and the
 * needs-ack commits before them): a cover "[PATCH 6.6 0/N] xfs:
 * candidates for 6.6.y, please ack" To the subsystem's lists, Cc its
 * maintainers and the proposal's Cc, and the N patches in reply, with
 * the Message-IDs review.h describes.  c->patch must be filled for
 * those; tip is the upstream tip, people[] the maintainers.  Returns
 * the number of threads written.
 */
size_t report_review(struct strbuf *out, const struct report *r,
		     const struct candidate_list *l, const git_oid *tip,
		     const struct review_people *people, size_t nr_people);

/* Whether report_review() sends c (a needs-ack commit that applies). */
int report_review_sends(const struct candidate *c);

/*
 * The queue: what was accepted for the branch, with its prerequisites
 * and the series found for what does not apply alone (of l and of
 * outside, which may be NULL), that applies in that series
 * (queue_apply), in the queue's order.  Returns how many; *out to free.
 */
size_t report_queue(const struct candidate_list *l,
		    const struct candidate_list *outside,
		    struct candidate ***out);
/*
 * What a queue holds, for the line that says so: the accepted commits
 * queued for the branch (not in it), how many of them were added and
 * how many prerequisites with them (report_queue_add(), or
 * report_queue_quilt()), and how many are left out as they do not
 * apply (a manual backport).
 */
struct queue_count {
	size_t accepted;
	size_t added;
	size_t prereqs;
	size_t left_out;
};

/* The accepted and left-out commits of l into n (added and prereqs: 0). */
void report_queue_count(const struct candidate_list *l, struct queue_count *n);
/* Counts c, written to the queue, as added or as a prerequisite. */
void report_queue_add(struct queue_count *n, const struct candidate *c);
/*
 * "3 of 4 accepted patches added to WHERE, with 1 prerequisite; 1 left
 * out: it needs a manual backport", without a newline.
 */
void report_queue_note(struct strbuf *out, const struct queue_count *n,
		       const char *where);

/*
 * The queue as an mbox, "[PATCH 6.6 n/N]", each patch addressed and
 * threaded to the first (message ids from id); c->patch filled.  Each
 * message gets the trailer acks recorded for its acceptance
 * ("Acked-by:", "Reviewed-by:", "Tested-by:", unless it has it), a
 * member of a series found for another "Stable-dep-of:", and with
 * signoff ("Name <email>", or NULL) a "Signed-off-by:" line last, as
 * git am -s adds it.
 */
void report_queue_mbox(struct strbuf *out, const struct report *r,
		       struct candidate **queue, size_t nr, const char *id,
		       const char *signoff);

/*
 * The queue as the stable team keeps one: dir/series (quilt's) and a
 * patch file per commit named after its subject ("xfs-fix-foo.patch"),
 * as report_patch_mail() writes it without a number or addressing, with
 * the trailers and sign-off of report_queue_mbox().
 * A commit the queue has already (a patch of the series names its id)
 * is not added again; new patches are written first, the series last,
 * each file atomically.  Each one added is counted in *added
 * (report_queue_add()).  Returns 0 or -1 after an
 * error message.
 */
int report_queue_quilt(const char *dir, const struct report *r,
		       struct candidate **queue, size_t nr,
		       const char *signoff, struct queue_count *added);

/* What stablepick acks found and did with one answer. */
struct ack_outcome {
	const struct review_found *found;
	const struct candidate *cand;	/* its commit in the range, or NULL */
	/*
	 * "accepted", "rejected", "deferred": recorded (entry); "noted, no
	 * decision": a maintainer's reply that decides nothing; "recorded
	 * before": the ledger has a decision as late; "kept the mark of
	 * DAY by NAME": mark decided before the answer was written, and
	 * an answer read from a mail does not outrank it; "not a
	 * maintainer": of the subsystem; "not one sender": its From: has
	 * several addresses (or none); "not a candidate": the commit is
	 * not in the range walked; "skipped": the mail cannot be trusted
	 * or read (cause says why).
	 */
	const char *what;
	char *cause;			/* "skipped": why; freed by the caller */
	const char *archive;		/* the archive the mail was read from */
	const struct ledger_entry *entry;	/* what is recorded, or NULL */
};
/*
 * One answer a line ("deferred until v6.6.9 HEX12 subject", "would be
 * accepted ..." with dry_run), then, indented, the line that says so,
 * its sender and Message-ID; for one skipped, the cause instead of the
 * line, and the archive and where in it.
 */
void report_acks(struct strbuf *out, const struct ack_outcome *v, size_t nr,
		 int dry_run);

/*
 * The checklist review: for each opt-in subsystem with needs-ack
 * commits that apply, one mail (no patches) To its lists, Cc its
 * maintainers, that numbers them ("  1. HEX12 subject", review.h) and
 * says how to answer line by line.  Returns the number of mails.
 */
size_t report_checklist(struct strbuf *out, const struct report *r,
			const struct candidate_list *l, const git_oid *tip,
			const struct review_people *people, size_t nr_people);

#endif
