#ifndef LEDGER_H
#define LEDGER_H

#include <git2.h>
#include <stddef.h>
#include <uthash.h>

#include "base/strbuf.h"

/*
 * The ledger: what maintainers decided about mainline commits for a
 * branch, so that propose never proposes again what was accepted or
 * rejected, and deferred commits come back after their date.
 *
 * It lives in <gitdir>/stablepick/ledger, or where stablepick.ledger
 * says, and is a plain-text, line-oriented, append-only file that a
 * team can review, diff and keep in git (with `ledger merge=union` in
 * .gitattributes), or share through a notes ref (ledger_sync()).  The
 * first line is
 *
 *     # stablepick ledger 1
 *
 * and every further line is one decision, seven fields separated by
 * single tabs, the reason last, and for a decision read from elsewhere
 * (acks) an eighth, where it came from:
 *
 *     BRANCH TAB COMMIT TAB DECISION TAB WHEN TAB UNTIL TAB WHO TAB REASON
 *     ... TAB REASON TAB ORIGIN
 *
 *     BRANCH    the branch's key (ledger_branch_key()), e.g. linux-6.6.y
 *     COMMIT    the full 40-hex commit id (lower case)
 *     DECISION  accepted, rejected or deferred
 *     WHEN      when this repository learnt it (mark: when it was
 *               run; acks: when it read the mail), UTC:
 *               2023-11-14T22:13:20Z
 *     UNTIL     for deferred, the date (UTC) it comes back: 2023-11-21,
 *               or the release tag it waits for: v6.6.9 (it comes back
 *               once the branch contains the tag; a value shaped as a
 *               date, NNNN-NN-NN, is a date); "-" for accepted and
 *               rejected
 *     WHO       "Name <email>" of whoever decided
 *     REASON    free text, possibly empty
 *     ORIGIN    "key=value" pairs separated by ';', '%' and ';' in a
 *               value written %25 and %3B: archive= (the path read),
 *               message-id= (without <>), from= (the From: as
 *               written), date= (the mail's Date:, as WHEN, or "-");
 *               unknown keys are skipped.  Absent from the lines of
 *               mark and of older stablepicks, which read as before.
 *
 * No field may hold a tab, a newline or another control character (git
 * forbids them in branch names; ledger_append() rejects them in who and
 * reason), so a line can never be split or forged by its content, and
 * names and reasons with spaces or UTF-8 round-trip unchanged.  Blank
 * lines and lines starting with '#' after the first are comments.  The
 * latest decision for a (branch, commit) pair wins: the one with the
 * latest WHEN, and of two with the same WHEN the later line.  A line
 * whose WHEN is LEDGER_SLACK or more after now (ledger_now()) is not
 * counted, with a warning naming it: no decision from the future (a
 * wrong clock, a forged line) outranks the ones made since for longer
 * than clocks of a team may differ.
 * Re-deciding appends; lines merged from someone else's ledger may come
 * in any order.
 *
 * The branch is keyed as resolved, not as spelled: "linux-6.6.y",
 * "refs/heads/linux-6.6.y", "origin/linux-6.6.y" and
 * "refs/remotes/origin/linux-6.6.y" are all the key "linux-6.6.y" (a
 * local branch and its remote-tracking twin are one branch).  Lines
 * saved under another spelling are keyed as they are read; the file is
 * never rewritten.
 *
 *     struct ledger l;
 *     const struct ledger_entry *e;
 *
 *     ledger_init(&l, path);
 *     ledger_set_repo(&l, repo);          the remotes, for the keys
 *     if (ledger_load(&l) < 0)
 *             ... every malformed line was reported as "path:line: cause" ...
 *     e = ledger_find(&l, "origin/linux-6.6.y", &oid);
 *     if (e && ledger_in_force(e, now))
 *             ... skip it ...
 *     ledger_release(&l);
 */

/* How far after now a decision may be dated and count: a day. */
#define LEDGER_SLACK 86400

enum decision {
	DECISION_ACCEPTED,
	DECISION_REJECTED,
	DECISION_DEFERRED
};

/* "accepted", "rejected", "deferred". */
const char *decision_name(enum decision d);
/* Returns 0, or -1 (printing nothing) for an unknown name. */
int decision_parse(const char *s, enum decision *out);

/*
 * Where a decision read from elsewhere came from: a claim by whoever
 * wrote the mail, kept so that a forged one can be seen and undone.
 */
struct ledger_origin {
	char *archive;		/* the archive it was read from, or NULL */
	char *message_id;	/* the mail, without <>, or NULL */
	char *from;		/* its From:, as written, or NULL */
	git_time_t date;	/* its Date:, at most the WHEN; 0: none */
};

/* Whether o says anything: the entry was read from a mail. */
int ledger_origin_known(const struct ledger_origin *o);

/* "<ID> from FROM, dated DATE, in ARCHIVE" (the parts known). */
void ledger_origin_text(struct strbuf *sb, const struct ledger_origin *o);

struct ledger_entry {
	char *branch;		/* the key, see ledger_branch_key() */
	git_oid commit;
	enum decision decision;
	git_time_t when;
	git_time_t until;	/* 00:00:00Z of the date; 0 unless deferred */
	char *until_tag;	/* or the tag deferred until ("v6.6.9"), or NULL */
	int tag_reached;	/* the branch has until_tag: ledger_check_tags() */
	char *who;
	char *reason;		/* never NULL; "" when none was given */
	struct ledger_origin origin;	/* all NULL for mark's */
	unsigned lineno;	/* in the file; 0 for an entry not yet saved */
	char *key;		/* internal: "BRANCH\tHEX", the hash key */
	UT_hash_handle hh;
};

struct ledger_key;
struct ledger_commit;

struct ledger {
	char *path;
	git_repository *repo;		/* for the keys; NULL: none resolved */
	struct ledger_entry *entries;	/* uthash by (branch, commit) */
	struct ledger_commit *by_commit; /* uthash: the entries by commit */
	struct ledger_key *keys;	/* uthash: spelling -> key, a cache */
	unsigned lines;			/* lines read from the file */
	/*
	 * What is read is read at now (ledger_now(), by ledger_load(),
	 * ledger_append() and ledger_sync()); future is how many lines
	 * dated after it the last read left out.
	 */
	git_time_t now;
	unsigned future;
	int future_said;		/* internal: warned once, not again */
};

void ledger_init(struct ledger *l, const char *path);
void ledger_release(struct ledger *l);

/*
 * The repository whose branches and remotes the keys are resolved in;
 * before ledger_load().  Without it only "refs/heads/" is dropped.
 */
void ledger_set_repo(struct ledger *l, git_repository *repo);

/*
 * The key of a branch as spelled: the branch's name without
 * "refs/heads/", or without "refs/remotes/REMOTE/" or "REMOTE/", REMOTE
 * being a configured remote (the longest that fits) or a directory of
 * refs/remotes/ that holds refs.  The spelling is resolved as git
 * resolves it (a tag "origin/x" is a tag); what is not a branch (a tag,
 * a commit id, HEAD) keeps its spelling, and so does a spelling that no
 * longer resolves unless it names a remote.  Borrowed from l (cached),
 * valid until ledger_release().
 */
const char *ledger_branch_key(struct ledger *l, const char *branch);

/*
 * Reads the file; a missing file is an empty ledger.  Reports every
 * malformed line as "error: PATH:LINE: cause" and then returns -1: the
 * ledger is data people saved and is never silently skipped.  A line
 * dated LEDGER_SLACK or more after now is left out with a warning
 * "PATH:LINE: ..." (and counted in l->future).
 */
int ledger_load(struct ledger *l);

/* The latest decision for (branch, commit), or NULL; branch as spelled. */
const struct ledger_entry *ledger_find(struct ledger *l, const char *branch,
				       const git_oid *commit);

/*
 * The latest decisions about commit for the branches other than branch
 * (as spelled), oldest first (then by branch): evidence, not verdicts,
 * since each branch decides for itself.  Returns how many, with *out an
 * array to free() holding entries borrowed from l; NULL when none.
 */
size_t ledger_find_others(struct ledger *l, const char *branch,
			  const git_oid *commit,
			  const struct ledger_entry ***out);

/*
 * The time to date a decision made now about (branch as spelled,
 * commit) with, so that it outranks what the ledger counts: now,
 * unless the ledger holds a decision dated later (another clone's
 * clock runs ahead, within LEDGER_SLACK); then a second after that
 * one, with a warning.  What mark records: the user's decision is
 * never silently outranked by one read from elsewhere.
 */
git_time_t ledger_time_to_outrank(struct ledger *l, const char *branch,
				  const git_oid *commit, git_time_t now);

/*
 * 1 if the decision still applies at now: accepted and rejected always,
 * deferred while now is before its date, or until its tag was found
 * on the branch (tag_reached); 0 once a deferral expired.
 */
int ledger_in_force(const struct ledger_entry *e, git_time_t now);

/*
 * Sets tag_reached on the decisions for branch (as spelled) deferred
 * until a tag, to what has(tag, data) says: 1 when the branch contains
 * the tag.  The ledger cannot tell by itself: the run asks its branch.
 */
void ledger_check_tags(struct ledger *l, const char *branch,
		       int (*has)(const char *tag, void *data), void *data);

/*
 * What a deferral waits for, as the ledger writes it: its tag, or its
 * date formatted into day.  Returns until_tag or day.
 */
const char *ledger_until_text(const struct ledger_entry *e, char day[11]);

/*
 * Whether s can be the tag of a deferral: refs/tags/s is a valid ref,
 * and s has not a date's shape (NNNN-NN-NN).
 */
int ledger_tag_name_ok(const char *s);

/*
 * Appends entries (their lineno and key are ignored; their branch is
 * written as its key) under the lock
 * "PATH.lock", created with O_CREAT|O_EXCL like git's lockfiles, with
 * the parent directory if missing.  When the lock is taken, retries for
 * 5 seconds (STABLEPICK_LOCK_TIMEOUT, in seconds, overrides) and then
 * fails.  Holding the lock, it re-reads the file (another run may have
 * appended), writes the old content and the new lines to the lock file,
 * fsyncs it and renames it over the ledger: the file is never seen half
 * written, and on any failure the old one is intact and the lock gone.
 * On success l holds the new entries too.  An entry dated more than
 * LEDGER_SLACK after now is an error.  Returns 0 or -1 after an error message.
 */
int ledger_append(struct ledger *l, const struct ledger_entry *entries,
		  size_t nr);

/*
 * The ledger shared through git: a notes ref (by default
 * refs/notes/stablepick) with one note per mainline commit that holds
 * that commit's ledger lines, in the file's format without its first
 * line, sorted, one per line.  Two people's notes merge with
 * `git notes --ref=stablepick merge -s cat_sort_uniq OTHER`, and
 * `git log --notes=stablepick` shows the decisions under each commit.
 *
 * ledger_sync() makes the file and the notes hold the same decisions:
 * under the ledger's lock, the lines of the notes that the file lacks
 * are appended to it, and the lines of the file that the notes lack
 * are written to them as one new notes commit on top of the ref's tip
 * (never rewriting its history), by the repository's identity (else
 * "stablepick"), dated ledger_now().  Lines are compared by key, so a
 * line saved under "origin/linux-6.6.y" and its twin under
 * "linux-6.6.y" are one; the notes get the keys.  Every decision line
 * of the file goes to the notes, superseded ones too: which decision
 * wins is decided by reading, as for the file.  A second sync with
 * nothing new changes nothing.  The ref moving during the sync (another
 * sync) is an error: nothing is lost, run it again.  A line dated
 * LEDGER_SLACK or more after now, on either side, goes nowhere: a
 * warning names it, and skipped counts it.
 */
struct ledger_sync {
	char *ref;		/* the full notes ref */
	size_t to_file;		/* decisions appended to the file */
	size_t to_notes;	/* decisions written to the notes ... */
	size_t notes;		/* ... in that many notes (commits) */
	size_t decisions;	/* decision lines in both, after the sync */
	size_t skipped;		/* lines dated after now, left where they are */
	git_oid commit;		/* the new notes commit, if to_notes */
};

/*
 * "stablepick" -> "refs/notes/stablepick", as git notes --ref expands
 * it ("notes/x" -> "refs/notes/x"; "refs/notes/x" stays).  NULL after
 * an error message for a name that is not a valid ref.
 */
char *ledger_notes_ref(const char *name);

/* Syncs l (with its repository set) and ref; 0, or -1 after an error. */
int ledger_sync(struct ledger *l, const char *ref, struct ledger_sync *out);
void ledger_sync_release(struct ledger_sync *s);

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
/* Formats t as the ledger's WHEN, YYYY-MM-DDTHH:MM:SSZ, into buf. */
void ledger_format_when(char buf[21], git_time_t t);

#endif
