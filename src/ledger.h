#ifndef LEDGER_H
#define LEDGER_H

#include <git2.h>
#include <stddef.h>
#include <uthash.h>

/*
 * The ledger: what maintainers decided about mainline commits for a
 * branch, so that propose never proposes again what was accepted or
 * rejected, and deferred commits come back after their date.
 *
 * It lives in <gitdir>/stablepick/ledger, or where stablepick.ledger
 * says, and is a plain-text, line-oriented, append-only file that a
 * team can review, diff and keep in git (with `ledger merge=union` in
 * .gitattributes).  The first line is
 *
 *     # stablepick ledger 1
 *
 * and every further line is one decision, seven fields separated by
 * single tabs, the reason last:
 *
 *     BRANCH TAB COMMIT TAB DECISION TAB WHEN TAB UNTIL TAB WHO TAB REASON
 *
 *     BRANCH    the branch as given to --branch, e.g. linux-6.6.y
 *     COMMIT    the full 40-hex commit id (lower case)
 *     DECISION  accepted, rejected or deferred
 *     WHEN      when it was decided, UTC: 2023-11-14T22:13:20Z
 *     UNTIL     for deferred, the date (UTC) it comes back: 2023-11-21;
 *               "-" for accepted and rejected
 *     WHO       "Name <email>" of whoever decided
 *     REASON    free text, possibly empty
 *
 * No field may hold a tab, a newline or another control character (git
 * forbids them in branch names; ledger_append() rejects them in who and
 * reason), so a line can never be split or forged by its content, and
 * names and reasons with spaces or UTF-8 round-trip unchanged.  Blank
 * lines and lines starting with '#' after the first are comments.  The
 * latest line for a (branch, commit) pair wins: re-deciding appends.
 *
 *     struct ledger l;
 *     const struct ledger_entry *e;
 *
 *     ledger_init(&l, path);
 *     if (ledger_load(&l) < 0)
 *             ... every malformed line was reported as "path:line: cause" ...
 *     e = ledger_find(&l, "linux-6.6.y", &oid);
 *     if (e && ledger_in_force(e, now))
 *             ... skip it ...
 *     ledger_release(&l);
 */

enum decision {
	DECISION_ACCEPTED,
	DECISION_REJECTED,
	DECISION_DEFERRED
};

/* "accepted", "rejected", "deferred". */
const char *decision_name(enum decision d);
/* Returns 0, or -1 (printing nothing) for an unknown name. */
int decision_parse(const char *s, enum decision *out);

struct ledger_entry {
	char *branch;
	git_oid commit;
	enum decision decision;
	git_time_t when;
	git_time_t until;	/* 00:00:00Z of the date; 0 unless deferred */
	char *who;
	char *reason;		/* never NULL; "" when none was given */
	unsigned lineno;	/* in the file; 0 for an entry not yet saved */
	char *key;		/* internal: "BRANCH\tHEX", the hash key */
	UT_hash_handle hh;
};

struct ledger {
	char *path;
	struct ledger_entry *entries;	/* uthash by (branch, commit) */
	unsigned lines;			/* lines read from the file */
};

void ledger_init(struct ledger *l, const char *path);
void ledger_release(struct ledger *l);

/*
 * Reads the file; a missing file is an empty ledger.  Reports every
 * malformed line as "error: PATH:LINE: cause" and then returns -1: the
 * ledger is data people saved and is never silently skipped.
 */
int ledger_load(struct ledger *l);

/* The latest decision for (branch, commit), or NULL. */
const struct ledger_entry *ledger_find(const struct ledger *l,
				       const char *branch,
				       const git_oid *commit);

/*
 * 1 if the decision still applies at now: accepted and rejected always,
 * deferred while now is before its date; 0 once a deferral expired.
 */
int ledger_in_force(const struct ledger_entry *e, git_time_t now);

/*
 * Appends entries (their lineno and key are ignored) under the lock
 * "PATH.lock", created with O_CREAT|O_EXCL like git's lockfiles, with
 * the parent directory if missing.  When the lock is taken, retries for
 * 5 seconds (STABLEPICK_LOCK_TIMEOUT, in seconds, overrides) and then
 * fails.  Holding the lock, it re-reads the file (another run may have
 * appended), writes the old content and the new lines to the lock file,
 * fsyncs it and renames it over the ledger: the file is never seen half
 * written, and on any failure the old one is intact and the lock gone.
 * On success l holds the new entries too.  Returns 0 or -1 after an
 * error message.
 */
int ledger_append(struct ledger *l, const struct ledger_entry *entries,
		  size_t nr);

/*
 * "Now" for decisions: the Unix time in STABLEPICK_NOW when set (tests
 * and reproducible runs), else time(NULL).  Returns 0, or -1 after an
 * error message for a bad STABLEPICK_NOW.
 */
int ledger_now(git_time_t *out);

/* Parses YYYY-MM-DD to 00:00:00Z of that day; 0, or -1 printing nothing. */
int ledger_parse_date(const char *s, git_time_t *out);
/* Formats t as YYYY-MM-DD (UTC) into buf. */
void ledger_format_date(char buf[11], git_time_t t);

#endif
