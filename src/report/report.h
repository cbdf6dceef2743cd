#ifndef REPORT_H
#define REPORT_H

#include <stdio.h>

#include "formats/archive.h"
#include "formats/config.h"
#include "stages/branch.h"
#include "formats/mail.h"
#include "base/strbuf.h"
#include "candidate/candidate.h"
#include "formats/rules.h"
#include "stages/scan.h"

/*
 * Rendering: the only code that writes output.  Each format is one
 * function that reads the finished candidates and appends to a strbuf;
 * report_write() puts the result on a stream and checks for errors.
 */

struct report {
	const struct scan *scan;
	const struct branch_index *branch;
	const struct ruleset *rules;
	const char *upstream;		/* the upstream ref as given */
	const struct archive *archive;	/* --archive, or NULL */
	int all;			/* text: show present and below-threshold */
	size_t width;			/* text: the columns to fit in; 0: any */

	/* Mail formats. */
	const char *from_name, *from_email;
	const char *to, *cc;		/* comma-separated; NULL: derived */
	const char *message_id;		/* of the proposal email, no <> */
	int thread_given;		/* message_id is --in-reply-to's */
	const char *fetch_url;		/* FAILED: where the branch is, or NULL */
	const char *fetch_branch;	/* ... and its name there */
	enum backport_line backport_line;	/* a patch's upstream line */
	time_t now;
	/* Prerequisites the mail series carries from outside the scan. */
	const struct candidate_list *outside;
};

/*
 * propose's aligned table: the header, a row per candidate it shows
 * (report_shows()) with its reasons and notes under it, the counts.
 */
void report_text(struct strbuf *out, const struct report *r,
		 const struct candidate_list *l);
/*
 * What the text table shows of a branch: "branch X (base v6.6): ...",
 * "mainline v6.6..master: ..."; and whether it lists c (not present,
 * below the threshold or decided, unless r->all or listed again).
 */
void report_header(struct strbuf *out, const struct report *r,
		   const struct candidate_list *l);
int report_shows(const struct report *r, const struct candidate *c);
/*
 * propose's JSON Lines: an object per candidate, every verdict; its
 * keys, described one by one, are in report-json.c.
 */
void report_json(struct strbuf *out, const struct report *r,
		 const struct candidate_list *l);
/*
 * The weekly proposal mails (RFC 5322, text/plain UTF-8, as an mbox):
 * one per set of lists, the subsystems that go to the same lists
 * together (a subsystem without one to the Cc; all to stablepick.to
 * when set), each with its headers, its candidates grouped by
 * subsystem (a patch that follows in reply on a short line, its mail
 * having the reasons), how many were paged, a footer naming the rule
 * files.
 */
void report_email(struct strbuf *out, const struct report *r,
		  const struct candidate_list *l);
/*
 * Pages what the proposal mails list: in mainline order, oldest first,
 * each candidate goes into its mail while the mail stays under cap
 * bytes (0: no cap; the first of each mail always goes) and fewer than
 * limit (0: no limit) are listed in all; the others get c->paged, and
 * are neither listed nor in the series (left for the next run).
 * Returns how many were paged.  The email and the mbox of one run page
 * alike: the cost of a mail leaves room for what varies (its Date).
 */
size_t report_mail_page(const struct report *r, struct candidate_list *l,
			size_t cap, size_t limit);
/*
 * One git format-patch message per proposed candidate that applies,
 * in the order to apply them, numbered within its proposal mail and
 * threaded to it, the reasons after "---"; c->patch must be filled.
 */
void report_mbox(struct strbuf *out, const struct report *r,
		 const struct candidate_list *l);
/* "6.6" for a branch whose version is known, else its name. */
void report_branch_version(struct strbuf *out, const struct branch_index *b);
/*
 * To and Cc of a mail about the subsystems subs: their lists (or
 * stablepick.to) and stablepick.cc (or the rules' cc); a mail with
 * no To goes to its Cc.
 */
void report_mail_recipients(const struct report *r,
			    const struct subsystem *const *subs, size_t nr,
			    struct mail_addrs *to, struct mail_addrs *cc);

/*
 * One patch as git format-patch writes it, with "commit <id>
 * upstream." first in the body: numbered "[PATCH 6.6 n/total]" (total
 * 0: the bare subject), addressed (To its lists, Cc the proposal's Cc,
 * its author, its reviewers and cc) and threaded when message_id is
 * set; the backport (diffstat and diff) after "---".
 */
struct patch_mail {
	size_t n, total;
	const char *message_id;		/* without <>, or NULL */
	const char *in_reply_to;	/* without <>, or NULL */
	const struct mail_addrs *cc;	/* more Cc, or NULL */
	const char *notes;		/* after "---", before it; or NULL */
	const char *patch;
	/*
	 * The commit it is a prerequisite for ("Stable-dep-of:"), or NULL:
	 * the one the mail series carried it for, if any.
	 */
	const struct candidate *dep_of;
	/*
	 * More trailers for its message, "Key: value" lines (each ending
	 * in a newline), or NULL: after its own, each unless the message
	 * has it already.  Then signoff, "Name <email>", or NULL: a
	 * "Signed-off-by:" line last, as git am -s adds it (not when the
	 * message ends with that very line).
	 */
	const char *trailers;
	const char *signoff;
};
void report_patch_mail(struct strbuf *out, const struct report *r,
		       const struct candidate *c, const struct patch_mail *pm);

/*
 * Whether the proposal email lists c (a proposal, one needing a manual
 * backport or an ack, waiting, maybe present, not applicable; not one
 * an earlier run listed).  No such candidate: no email to send.
 */
int report_mail_lists(const struct candidate *c);

/*
 * The FAILED mails, after the stable team's: one per proposal that
 * does not apply, in mainline order, to its author and its subsystems'
 * lists (Cc r->cc), with the commands that reproduce the conflict
 * (fetching r->fetch_branch from r->fetch_url), the conflicting files,
 * the likely prerequisites and the original commit.  Returns how many.
 */
size_t report_failed(struct strbuf *out, const struct report *r,
		     const struct candidate_list *l);
/*
 * The candidates the series carries, in order: with a mail series made
 * (applywith_carry()), its members, of l and of outside (may be NULL);
 * else the proposals that apply.  Returns how many.
 */
size_t report_series(const struct candidate_list *l,
		     const struct candidate_list *outside,
		     struct candidate ***out);

/* The rule-by-rule breakdown of one candidate. */
void report_explain(struct strbuf *out, const struct report *r,
		    const struct candidate *c);

/*
 * Appends the rules that matched c with their weights, and the tests
 * naming it: "cc-stable +100, fixes-tag +8; named by fstests xfs/1".
 */
void report_reasons(struct strbuf *out, const struct candidate *c);

/*
 * Writes out to f; returns 0 or -1 after an error message.  To a
 * terminal, control characters and bytes that are not UTF-8 (commit
 * text may hold escape sequences) are written as '?'.
 */
int report_write(FILE *f, const struct strbuf *out);

/*
 * Makes a text report (not a mail, whose bytes git am applies) safe to
 * show wherever it goes, a file or a pager as much as a terminal: the
 * control characters a subject or a name may hold become visible, C0
 * ones as cat -v shows them ("^[" for ESC, "^G" for BEL, "^M" for CR,
 * "^?" for DEL), C1 ones (U+0080 to U+009F, "\x9b" is a CSI to some
 * terminals) and bytes that are not UTF-8 as "\xc2\x9b".  Newlines and
 * tabs stay.  Every text format passes its output through it.
 */
void report_visible(struct strbuf *out);

struct revlist;

/*
 * patch-id's output: "<patch-id> <commit>" a line, for the commits of l
 * that have one, in the order of order (indexes into l), as git
 * patch-id --stable prints them; written to f as it goes, in blocks.
 * Returns 0 or -1 after an error message.
 */
int report_patch_ids(FILE *f, const struct revlist *l, const size_t *order);

/*
 * For the writers (report.c: text and explain, report-json.c,
 * report-mail.c: email and mbox):
 *   report_add_date         2026-12-04T09:00:00+00:00
 *   report_subsystem_name   the candidate's subsystem, or "-"
 *   report_add_conflicts    "does not apply to B: conflicts in fs/a.c"
 *   report_add_posted_line  "series: ..." or "posted: ..."; 0 for none
 *   report_add_newly        "soaked (was waiting)": why --since last
 *                           lists it again (c->newly set)
 * and report_add_likely() below.
 */
void report_add_date(struct strbuf *out, git_time_t t, int offset);
const char *report_subsystem_name(const struct candidate *c);
void report_add_conflicts(struct strbuf *out, const struct report *r,
			  const struct candidate *c);

/*
 * "; applies after a1b2c3d4e5f6 ("subject", proposed), ..." when a
 * series was found (applywith.h), and "; but not after the patches
 * before it in the series: conflicts in F" when it was taken out of
 * the mail series; "; needs a manual backport: tried N sets ..." when
 * none was; nothing when it was not searched.
 */
void report_add_applies_with(struct strbuf *out, const struct candidate *c);
/*
 * A proposal with a series found that applywith_carry() took out of
 * the mail series: it conflicts after the patches before it there.
 */
int report_left_out_of_series(const struct candidate *c);
/*
 * What the rules made of m, a member of a series: "proposed",
 * "below-threshold, score -6: subject-cleanup"; "not watched, " first
 * for one outside the watched paths (nr_touched 0), "not watched, not
 * judged" for NULL.
 */
void report_add_member_verdict(struct strbuf *out, const struct candidate *m);
int report_add_posted_line(struct strbuf *out, const struct candidate *c);
void report_add_newly(struct strbuf *out, const struct candidate *c);

/*
 * A commit message's body in a mail, one clean line at a time, with
 * the lines git am would take for a new message or for the patch
 * quoted.  A patch (for git am, which keeps a '>' it finds) quotes only
 * the lines git would split at; a mail for people (quote_all) every
 * line that starts with "From ", as mboxo readers (mutt, Python's
 * mailbox) split at any of them.
 */
void report_add_mail_body(struct strbuf *out, const char *body,
			  int quote_all);

/* How many likely prerequisites a text shows before "and N more". */
#define REPORT_LIKELY_SHOWN 10

/*
 * The likely prerequisites of c (src/blame.h), one a line, each
 * "<prefix>0123456789ab subject" and " (proposed)", its verdict, when
 * the run judged it too, then "<indent>and N more" past
 * REPORT_LIKELY_SHOWN.  Returns how many lines.
 */
size_t report_add_likely(struct strbuf *out, const struct candidate *c,
			 const char *prefix, size_t indent);


#endif
