#ifndef CANDIDATE_H
#define CANDIDATE_H

#include <git2.h>
#include <uthash.h>

#include "git/apply.h"
#include "store/ledger.h"
#include "formats/message.h"
#include "formats/rules.h"
#include "formats/soak.h"

struct posted;

/*
 * The candidate: one mainline commit flowing through the pipeline.  The
 * scanner creates it (id, message, touched subsystems), the scorer adds
 * reasons and a score, the branch index adds presence evidence, and the
 * verdict is decided last.  Report code only reads it.
 */

/* In the order reports list them. */
enum verdict {
	VERDICT_PROPOSED,
	VERDICT_NEEDS_ACK,
	VERDICT_WAITING,
	VERDICT_MAYBE_PRESENT,
	VERDICT_NOT_APPLICABLE,
	VERDICT_REVERTED,
	VERDICT_BRANCH_REVERTED,	/* the branch reverted its backport */
	VERDICT_VETOED,
	VERDICT_ACCEPTED,
	VERDICT_REJECTED,
	VERDICT_DEFERRED,
	VERDICT_PRESENT,
	VERDICT_BELOW_THRESHOLD,
	VERDICT__COUNT
};

/* Stable names, used in text and JSON output; never change them. */
const char *verdict_name(enum verdict v);

/*
 * Why propose --since last lists again a commit an earlier run listed:
 * it was not eligible then and is now.  Stable names, used in text and
 * JSON output (newly_why_name()); never change them.
 */
enum newly_why {
	NEWLY_NONE,
	NEWLY_SOAKED,			/* "soaked": was waiting for soak */
	NEWLY_DEFERRAL_EXPIRED,		/* "deferral-expired" */
	NEWLY_LEDGER_CHANGED,		/* "ledger-changed": e.g. accepted */
	NEWLY_PREREQUISITE_PRESENT,	/* "prerequisite-present" */
	NEWLY_RULES_CHANGED,		/* "rules-changed": needs-ack no more */
	NEWLY_FIXED_SINCE,		/* "fixed-since": reverted-in-branch */
	NEWLY__COUNT
};

const char *newly_why_name(enum newly_why w);

/* One matched rule: why the score is what it is. */
struct reason {
	const struct rule *rule;	/* borrowed from the ruleset */
	char *match;			/* the matched text, shortened */
};

/*
 * What decided presence (src/match.h finds it).  The names are stable,
 * used in text and JSON output: never change them.
 */
enum evidence_kind {
	EVIDENCE_ANCESTOR,		/* in the branch: below its base */
	EVIDENCE_UPSTREAM_LINE,		/* a branch commit names it */
	EVIDENCE_PATCH_ID,		/* a branch commit makes its change */
	EVIDENCE_BACKPORT_REVERTED,	/* backported, then reverted there */
	EVIDENCE_SUBJECT,		/* only subject and paths agree */
	/*
	 * Its trial pick onto the branch changes nothing: the branch (or
	 * a proposal before it) already makes its change.
	 */
	EVIDENCE_SAME_CONTENT,
	EVIDENCE_ABSENT,		/* none of these */
	EVIDENCE__COUNT
};

const char *evidence_kind_name(enum evidence_kind k);

/*
 * Why the branch cannot need a commit: "version-hint",
 * "revert-of-absent", "bug-not-in-branch", "file-not-in-branch" (the
 * reasons eval prints); stable names, never change them.
 */
enum not_applicable_kind {
	NOT_APPLICABLE_NONE,
	NOT_APPLICABLE_VERSION_HINT,
	NOT_APPLICABLE_REVERT_OF_ABSENT,
	NOT_APPLICABLE_BUG_NOT_IN_BRANCH,
	NOT_APPLICABLE_FILE_NOT_IN_BRANCH,
	NOT_APPLICABLE__COUNT
};

const char *not_applicable_kind_name(enum not_applicable_kind k);

struct evidence {
	enum evidence_kind kind;
	git_oid commit;			/* the branch commit, when has_commit */
	int has_commit;
	char *detail;			/* one human-readable sentence */
};

/* Where a Fixes: target stands with respect to the branch. */
enum target_status {
	TARGET_UNKNOWN,			/* not found in the repository */
	TARGET_IN_BRANCH,		/* below the base, or backported */
	TARGET_PROPOSED,		/* proposed in the same run */
	TARGET_ABSENT,			/* the branch lacks it */
};

/* A prerequisite: a commit that must be in the branch before this one. */
struct prereq {
	git_oid id;
	struct candidate *cand;		/* when scanned too */
	char *source;			/* "Cc: stable" or "Stable-dep-of" */
	enum target_status status;
};

/*
 * A likely prerequisite of a pick that does not apply: a mainline commit
 * after the branch's base that changed lines the pick conflicts on, and
 * that the branch lacks (src/blame.h).
 */
struct likely_prereq {
	git_oid id;
	char hex[GIT_OID_HEXSZ + 1];
	char *subject;
	git_time_t time;		/* commit time, for the order */
	/*
	 * When scanned too; for a member of a series found, also one the
	 * scan did not find, judged apart (applywith_members()): its
	 * nr_touched is 0, the rules watch no path it changes.
	 */
	struct candidate *cand;
};

/*
 * The series after which a pick that does not apply alone applies
 * (src/applywith.h): the smallest set of mainline commits, in mainline
 * order, found after tried sets, or none; the search step by step when
 * asked (explain).
 */
struct applies_with {
	enum with_state { WITH_UNSEARCHED, WITH_FOUND, WITH_NONE,
			  WITH_SKIPPED } state;
	struct likely_prereq *v;
	size_t nr, alloc;
	size_t tried;
	char **steps;
	size_t nr_steps, alloc_steps;
};

void applies_with_release(struct applies_with *w);

/*
 * A posted series, from the message-id of a Link: trailer
 * ("20231012123456.12345-3-author@host", "20231012-topic-v2-3-hash@host"
 * are patch 3 of the series "...-author@host", "...-v2-hash@host").
 */
struct series_ref {
	char *id;			/* the message-id without the number */
	int position;
};

/* A Fixes: target resolved in the repository. */
struct fixes_target {
	const struct fixes_ref *ref;	/* borrowed from msg */
	git_oid id;
	int resolved;			/* 0: unknown or ambiguous id */
	int by_subject;			/* resolved through the quoted subject */
	/*
	 * Resolved to the commit itself or to a later one of the walk
	 * (a forged or mistyped id, a reused subject): no link, status
	 * unknown, and a warning says so.
	 */
	int ignored;
	struct candidate *cand;		/* the target, when scanned too */
	enum target_status status;
};

struct candidate {
	git_oid id;
	char hex[GIT_OID_HEXSZ + 1];
	size_t order;			/* position in the walk, oldest 0 */
	char *author;			/* "Name <email>" */
	git_time_t time;		/* author time */
	int tz_offset;			/* minutes */
	char *raw;			/* the raw message */
	struct message msg;

	/* Subsystems whose paths the commit changes; [0] is primary. */
	const struct subsystem **touched;
	size_t nr_touched, alloc_touched;
	/* A watched path changed, of subsystems ignored or not asked for. */
	int left_out;
	char **paths;			/* the watched paths it changes */
	size_t nr_paths, alloc_paths;
	/* Of those, the ones that existed before it (not added by it). */
	char **old_paths;
	size_t nr_old_paths, alloc_old_paths;
	int paths_known;		/* paths and old_paths filled */
	unsigned char pathkey[20];	/* treediff_pathkey() of the change */
	int has_pathkey;

	struct fixes_target *fixes;	/* parallel to msg.fixes */

	/*
	 * The sum of the weights: 64 bits, because a rule set may hold
	 * thousands of rules of up to RULE_WEIGHT_MAX each.
	 */
	long long score;
	int threshold;
	struct reason *reasons;
	size_t nr_reasons, alloc_reasons;
	const struct rule *veto;	/* the veto rule that matched, or NULL */
	char *veto_match;
	char **warnings;		/* rules that gave up, etc. */
	size_t nr_warnings, alloc_warnings;

	struct evidence *evidence;
	size_t nr_evidence, alloc_evidence;
	int present;
	int maybe_present;		/* only a subject matches */

	/*
	 * What the deps stage established, as words rules can match
	 * (field "fact"): "fixes-in-branch", "follow-up", "reverts-present".
	 */
	const char **facts;
	size_t nr_facts, alloc_facts;
	/* A later mainline revert (in the run or after its end), or NULL. */
	char *reverted_by;		/* its full id */
	char *reverted_by_subject;
	struct candidate *reverts;	/* what this revert reverts, if scanned */
	int reverts_in_branch;		/* ... and the branch carries it */
	/*
	 * The branch reverted its backport (backport-reverted evidence):
	 * the reason the revert gives (its first paragraph that says more
	 * than "This reverts commit ..."), or NULL.
	 */
	char *branch_revert_why;
	/* The first later commit of the range whose Fixes: names it. */
	const struct candidate *fixed_later_by;
	char *not_applicable;		/* why the branch cannot need it */
	/*
	 * A watched file it changes that the branch lacks, when others
	 * are there (so it may apply but not as it is): "fs/x/y.c, which
	 * linux-6.6.y does not have (1a2b3c4d5e6f added it)", or NULL.
	 */
	char *lacks;
	/* Its kind, NOT_APPLICABLE_NONE while it may apply. */
	enum not_applicable_kind not_applicable_kind;
	struct prereq *prereqs;
	size_t nr_prereqs, alloc_prereqs;
	struct series_ref series;	/* id NULL when not known */
	int pulled;			/* pulled in as a prerequisite */
	/* Regression tests naming it as their fix: "fstests generic/123". */
	char **named_by;
	size_t nr_named_by, alloc_named_by;
	/* The CVEs it fixes (--cve), "CVE-2024-26581", in order. */
	char **cves;
	size_t nr_cves, alloc_cves;
	/*
	 * Runs of several branches: for a commit this branch is to take
	 * (proposed, needs-ack, accepted), the newer branches of the run
	 * that lack it and are not to take it either, newest first, with
	 * their verdicts ("newer trees first": a user who upgrades must
	 * not lose the fix).
	 */
	struct newer_lack {
		const char *branch;	/* borrowed from the newer branch's run */
		enum verdict verdict;
	} *newer_lacking;
	size_t nr_newer_lacking, alloc_newer_lacking;

	/*
	 * The patch mail in the list archives (posted.h), or NULL; and how
	 * to free it, which the stage that attached it says (the stages
	 * build on this file, not the reverse).
	 */
	struct posted *posted;
	void (*free_posted)(struct posted *p);
	int archive_searched;		/* posted_attach() looked for it */

	/* The trial cherry-pick onto the branch tip (src/checks.h). */
	int apply_checked;
	/* Held back with a held commit it needs to apply (src/checks.h). */
	int held;

	/* The first tags containing it, painted by the scan's walk. */
	struct soak_mark soak;
	int soak_settled;
	struct apply_result apply;
	/*
	 * When it does not apply: the likely prerequisites, newest first
	 * (src/blame.h), all of them; likely_checked once looked for.
	 */
	struct likely_prereq *likely;
	size_t nr_likely, alloc_likely;
	int likely_checked;
	/* When it does not apply: the series after which it does. */
	struct applies_with with;
	/*
	 * The mail series (applywith_carry()): the proposals that apply
	 * and those that apply after a series found for them, with it,
	 * picked as one series onto the branch tip.  mail_checked: the
	 * run made it; in_mail: in it and applies there, with its result
	 * in mail_apply; carried_for: a prerequisite carried for it.
	 */
	int mail_checked;
	int in_mail;
	size_t mail_pos;		/* its place there, from 1 */
	struct apply_result mail_apply;
	const struct candidate *carried_for;
	char *patch;			/* the backport as format-patch shows it */
	const struct ledger_entry *decision;	/* recorded, in force or not */
	/*
	 * Without a decision for the branch, the latest for other branches,
	 * oldest first (ledger_find_others()): evidence only.
	 */
	const struct ledger_entry **other_decisions;
	size_t nr_other_decisions;
	int listed_before;		/* --since: an earlier run listed it */
	/*
	 * The proposal mails: left for the next run, past the mails' size
	 * cap or --limit (report_mail_page()).
	 */
	int paged;
	/*
	 * In the queue of what was accepted: accepted for the branch (in
	 * the ledger), or a prerequisite of one, and not present.  Set by
	 * checks_run(), which tries that series too: queue_apply is the
	 * pick's result there (apply stays the proposal's).
	 */
	int queued;
	struct apply_result queue_apply;
	/*
	 * When an accepted commit does not apply in the queue's series:
	 * the series found that makes it apply is queued before it
	 * (applywith_queue()), each member with queue_for the commit it
	 * came for (a member queued for itself has none); queue_pos is
	 * the place in that series, from 1 (0: in mainline order).
	 */
	const struct candidate *queue_for;
	size_t queue_pos;
	/*
	 * --since last: an earlier run listed it, but it is eligible now
	 * where it was not then, so it is listed again: why, and what it
	 * was then (a name of enum state_was: "waiting", "held" ...).
	 */
	enum newly_why newly;
	const char *newly_was;

	enum verdict verdict;
	char *why;			/* one sentence explaining the verdict */

	UT_hash_handle hh;		/* keyed by id */
};

struct candidate_added_index;
struct candidate_list {
	struct candidate **items;
	size_t nr, alloc;
	struct candidate *by_id;	/* uthash head */
	/* Who adds each path: candidate_list_added_before()'s, or NULL. */
	struct candidate_added_index *added;
};

void candidate_list_init(struct candidate_list *l);
void candidate_list_release(struct candidate_list *l);
struct candidate *candidate_list_add(struct candidate_list *l,
				     const git_oid *id);
struct candidate *candidate_list_find(const struct candidate_list *l,
				      const git_oid *id);

/*
 * The newest candidate of l before c that added path (one of its paths
 * that is not among its old_paths: one that changed it does not count),
 * or NULL; c is l's, or a copy of one of l's (by id), else NULL.
 * "Before" is by position in l, as c->order gives it; once l is
 * reordered without updating the orders (candidate_list_sort()), a
 * candidate is found by id and one whose order does not match its
 * place answers NULL, as a scan of the list would.
 *
 * The answers come from an index of the paths the candidates add, made
 * on first use and made again when l has changed (candidate_list_add()
 * and the others here drop it): the scan of every earlier candidate for
 * each question was 0.2 s of a run over 32,000 candidates.  The paths
 * of l's candidates must not change once asked about.
 */
const struct candidate *
candidate_list_added_before(const struct candidate_list *l,
			    const struct candidate *c, const char *path);

/* The first evidence of that kind, or NULL. */
const struct evidence *candidate_evidence(const struct candidate *c,
					  enum evidence_kind kind);
/* The evidence that decided presence: the first that is not absent. */
const struct evidence *candidate_presence(const struct candidate *c);

/* The primary subsystem, or NULL. */
const struct subsystem *candidate_subsystem(const struct candidate *c);

void candidate_add_evidence(struct candidate *c, enum evidence_kind kind,
			    const git_oid *commit, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
void candidate_add_warning(struct candidate *c, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/*
 * Decides c: sets its verdict and its why, the sentence explaining it
 * (printf-like), in place of the previous ones (the why is freed; the
 * arguments may point into it).  Every verdict is set through it: the
 * stages that decide call it in the order of the judging, a later one
 * overriding an earlier: score_decide() (presence, reverts, the rules),
 * the recorded decisions of the ledger (run_judge()), then checks_run()
 * (soak, held commits, empty picks).  Report code only reads verdict
 * and why.
 */
void candidate_set_verdict(struct candidate *c, enum verdict v,
			   const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* Adds a test that names c as its fix ("fstests xfs/123") once. */
void candidate_add_named_by(struct candidate *c, const char *test);
/* Adds a CVE that c fixes once. */
void candidate_add_cve(struct candidate *c, const char *id);
/*
 * The last added candidates of l (added after a walk) go where the walk
 * would have met them, by author date among the others: a fix must come
 * after what it fixes, and the judging relies on it.  Renumbers order.
 */
void candidate_list_place_added(struct candidate_list *l, size_t added);
/*
 * For QSORT of candidate pointers: mainline order, the order to apply
 * them in, oldest first (by author time, then id).
 */
int candidate_cmp_time(const void *a, const void *b);

/* Adds a fact once (its name, for the rules on the field "fact"). */
void candidate_add_fact(struct candidate *c, enum rule_fact fact);

/*
 * Sorts by verdict, then score (highest first), then walk order; a
 * prerequisite comes just before the first commit of its verdict that
 * needs it.
 */
void candidate_list_sort(struct candidate_list *l);

#endif
