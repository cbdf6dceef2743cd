#ifndef REPORT_LEDGER_H
#define REPORT_LEDGER_H

#include <git2.h>

#include "store/ledger.h"
#include "base/strbuf.h"

/*
 * What mark prints: one line per decision, e.g. "rejected
 * 1a2b3c4d5e6f for B: subject (why)", the subject read from repo, and
 * for one read from a mail an indented line, its origin
 * (report_add_origin());
 * and the decisions in force for a branch (its key,
 * ledger_branch_key()) at now, in the order they were recorded (mark
 * --list).
 */
/*
 * A deferral that is over, on the commit listed again: "deferral over:
 * deferred until v6.6.9 by Name: reason; the branch has v6.6.9 now"
 * (for a date: "...; 2027-01-15 has come").
 */
void report_add_deferral_over(struct strbuf *out, const struct ledger_entry *e);

/*
 * A decision for another branch, as evidence: "rejected for
 * linux-6.6.y on 2026-11-02 by Name: reason" ("deferred for B on D,
 * until D2, by ..."); with full_who, the name with its <email>.
 */
void report_add_other_decision(struct strbuf *out,
			       const struct ledger_entry *e, int full_who);

/*
 * Where a decision read from a mail came from, when it says:
 * "read from <ID> from FROM, dated DATE, in ARCHIVE (a claim by the
 * mail's sender)"; nothing for a decision by mark.
 */
void report_add_origin(struct strbuf *out, const struct ledger_entry *e);
/*
 * What ledger sync did: the decisions it copied each way (with the new
 * notes commit), and how many both sides now hold.
 */
void report_ledger_sync(struct strbuf *out, const struct ledger_sync *s);

void report_decision(struct strbuf *out, git_repository *repo,
		     const struct ledger_entry *e);
void report_decisions_in_force(struct strbuf *out, git_repository *repo,
			       const struct ledger *l, const char *branch,
			       git_time_t now);

#endif
