#ifndef AUDIT_H
#define AUDIT_H

#include <git2.h>

#include "stages/branch.h"
#include "candidate/candidate.h"
#include "stages/applywith.h"
#include "stages/match.h"
#include "stages/posted.h"
#include "store/trialcache.h"
#include "base/strbuf.h"

/*
 * Judging someone else's picks (AUTOSEL mails, a stable queue): each
 * pick gets a verdict, ok, questionable or reject, with every red flag
 * that applies and its evidence.  The picks are judged by the same
 * pipeline as a proposal (scan, rules, presence, links), over the
 * branch's whole range, so that follow-ups and reverts are known.
 *
 *     struct audit a;
 *     audit_init(&a);
 *     audit_add(&a, &id, "picks:3");           ... for each pick
 *     ... judge the range (run_judge), then:
 *     audit_run(&a, repo, &rules, &branch, &judged, NULL, &match, cache,
 *               &limits);
 *     audit_text(&out, &a); or audit_json(&out, &a);   (report-audit.h)
 *     audit_release(&a);
 *
 * The flags, and the verdict each forces at least:
 *
 *   already-present       reject        the branch has it (or a duplicate pick)
 *   maybe-present         questionable  a branch commit has its subject and
 *                                       changes a file of the same name
 *   duplicate-pick        reject        listed twice
 *   rejected-before       reject        the ledger says rejected
 *   reverted              reject        mainline reverted it
 *   bug-not-in-branch     reject        no Fixes: target is in the branch
 *                                       (or another reason the branch
 *                                       cannot need it: a version hint, a
 *                                       revert of what it lacks)
 *   file-not-in-branch    reject        the branch lacks every watched
 *                                       file it changes (the feature came
 *                                       later)
 *   policy                reject        a veto rule matched (questionable:
 *                                       the subsystem wants an ack)
 *   does-not-apply        reject        the picks, cherry-picked in mainline
 *                                       order onto the tip, conflict
 *   prerequisite-not-picked questionable it applies after mainline commits
 *                                       the picks do not hold (named:
 *                                       the series applywith.h finds)
 *   not-a-fix             questionable  the rules do not reach the threshold
 *   follow-up-missing     questionable  a later fix of it is neither in the
 *                                       picks nor in the branch
 *   fixed-commit-not-picked questionable the commit it fixes is neither in
 *                                       the branch nor in the picks, and
 *                                       the rules propose it: the picks
 *                                       as given fix a bug the branch
 *                                       does not have
 *   prerequisite-missing  questionable  a prerequisite its tags name is missing
 *   series-mate-missing   questionable  a patch of the same posted series
 *                                       (the list archives, else Link:
 *                                       message-ids) is missing
 *   review-objection      questionable  a reply to the posted patch or its
 *                                       cover letter matches a rule on
 *                                       "reply" with a negative weight
 *   too-fresh             questionable  the subsystem's soak time is not over
 *   not-watched           questionable  it changes no watched path
 *   rejected-by-review    reject        a reply to its mail in the audited
 *                                       mbox NAKs it ("Nacked-by:", or
 *                                       "NAK" opening a line of its own)
 *   acked, reviewed       ok            a reply to its mail in the audited
 *                                       mbox acks it ("Acked-by:") or
 *                                       reviews it ("Reviewed-by:")
 *
 * The mails of an audited mbox (audit --mbox) are kept, each with what
 * a reply to it needs (its sender, recipients, threading) and what it
 * is: a pick, a patch that matches no mainline commit, a mail that
 * cannot be read, the cover letter, or a reply, whose NAK or ack
 * counts for the pick it answers.
 */
enum audit_verdict {
	AUDIT_OK,
	AUDIT_QUESTIONABLE,
	AUDIT_REJECT,
};

struct audit_flag {
	const char *flag;		/* static */
	enum audit_verdict weight;
	char *evidence;
	/*
	 * What a reply to the list quotes: evidence's first brief bytes
	 * (0: all of it).  The rest (not-a-fix's rules that did not
	 * match) is for text and JSON, not for a public thread.
	 */
	size_t brief;
};

struct audit_address {
	char *name;			/* or NULL */
	char *email;			/* NULL: none */
};

enum audit_mail_kind {
	AUDIT_MAIL_PICK,		/* a patch, matched: a pick */
	AUDIT_MAIL_UNMATCHED,		/* a patch no mainline commit matches */
	AUDIT_MAIL_UNREADABLE,		/* not understood (mbox.h's problem) */
	AUDIT_MAIL_COVER,		/* "[PATCH 0/N]" */
	AUDIT_MAIL_REPLY,		/* "Re:", not a pick */
};

struct audit_mail {
	enum audit_mail_kind kind;
	size_t index;			/* in the mbox, from 1 */
	char *source;			/* "FILE#N" */
	char *message_id;		/* without <>, or NULL */
	char *in_reply_to;		/* or NULL */
	char **references;		/* in order */
	size_t nr_references;
	char *subject;			/* as written (decoded), or NULL */
	char *title;			/* without "Re:" and "[...]", or NULL */
	char *date;			/* as written, or NULL */
	struct audit_address from;	/* its sender */
	struct audit_address *rcpt;	/* its To, then its Cc */
	size_t nr_rcpt;
	/*
	 * A patch's author: the "From:" opening its body, else the author
	 * of the mainline commit it stands for.
	 */
	struct audit_address author;
	int number, total;		/* "[PATCH 04/12]": 4 and 12, or 0 */
	size_t position;		/* a patch's place among them, from 1 */
	char *why;			/* unmatched, unreadable: why */
	enum posted_review review;	/* a reply: what it says */
	char *review_line;		/* ... the line that says so */
};

struct audit_pick {
	git_oid id;
	char hex[GIT_OID_HEXSZ + 1];
	char *source;			/* where it was listed: "picks:3" */
	char *message_id;		/* the pick's mail, or NULL */
	const struct audit_mail *mail;	/* ... that mail, audit --mbox */
	/*
	 * The commit as applied to the branch (audit --range): tried
	 * onto the branch as it is, not the mainline commit, which the
	 * backport may have adapted.
	 */
	git_oid applied;
	int has_applied;
	size_t position;		/* in the input, from 0 */
	const struct candidate *c;	/* as judged; NULL if it was not */
	/*
	 * When it does not apply after the picks before it: the mainline
	 * commits the picks lack after which it does (applywith.h).
	 */
	struct applies_with with;
	struct audit_flag *flags;
	size_t nr_flags, alloc_flags;
	enum audit_verdict verdict;
};

struct audit {
	struct audit_pick *picks;
	size_t nr, alloc;
	struct audit_mail **mails;	/* of the mbox, in order */
	size_t nr_mails, alloc_mails;
	size_t nr_patches;		/* of the mails: not cover, not reply */
	/* What a reply to the whole thread answers: the cover, else patch 1. */
	const struct audit_mail *thread;
};

void audit_init(struct audit *a);
void audit_release(struct audit *a);
struct audit_pick *audit_add(struct audit *a, const git_oid *id,
			     const char *source);
/* A new mail of the audited mbox, zeroed but for its index. */
struct audit_mail *audit_mail_add(struct audit *a);

/*
 * How a maintainer cites a mail of the thread: "04/12" as its subject
 * numbers it (as wide as git format-patch writes it); a patch whose
 * subject has none by its place among the patches, marked "*"; a reply
 * by its place in the mbox ("mail 14").
 */
void audit_cite(struct strbuf *sb, const struct audit *a,
		const struct audit_mail *m);

/*
 * Sets the flags and verdicts.  judged holds the judged candidates of
 * the branch's range (a pick outside it must have been judged into
 * extra); the picks are trial-picked onto the branch tip in mainline
 * order (those from outside the range last, as listed; applied ones,
 * as they were applied, in the order given).  With m (else NULL), a
 * mainline pick that does not apply gets the search for the series
 * that makes it apply (applywith.h, through cache, within lim).  Returns 0, or -1
 * after an error message.
 */
int audit_run(struct audit *a, git_repository *repo,
	      const struct ruleset *rules, const struct branch_index *branch,
	      const struct candidate_list *judged,
	      const struct candidate_list *extra, struct match *m,
	      struct trialcache *cache, const struct applywith_limits *lim);

/* "ok", "questionable" or "reject". */
const char *audit_verdict_name(enum audit_verdict v);

/* The worst verdict of all the picks (AUDIT_OK when there is none). */
enum audit_verdict audit_worst(const struct audit *a);

#endif
