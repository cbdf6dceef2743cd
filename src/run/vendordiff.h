#ifndef VENDORDIFF_H
#define VENDORDIFF_H

#include "formats/cve.h"
#include "run/run.h"

/*
 * stablepick diff --branch VENDOR --against STABLE: which fixes of the
 * stable branch (since the two share a base) a vendor branch lacks, and
 * which of the vendor's own changes to watched paths have no stable
 * counterpart.  Whether a stable commit is in the vendor branch is the
 * presence engine's answer (src/match.h), as for a mainline commit in
 * propose: below their merge base (a merged stable release), a vendor
 * commit naming it or the mainline commit it backports, a vendor
 * commit making the same change; a vendor commit of the same subject
 * only makes it maybe-present.  Then mainline's side: the follow-up
 * fixes of what the vendor carries that it lacks, judged as propose
 * judges a branch.
 *
 *     struct vendordiff d;
 *     vendordiff_init(&d);
 *     if (vendordiff_run(ctx, &d, "vendor/6.6", "linux-6.6.y", NULL,
 *                        NULL, 1) < 0)
 *             ... an error was printed ...
 *     ... report-diff.h writes d.rows ...
 *     vendordiff_save(ctx, &d);
 *     vendordiff_release(&d);
 */

struct diff_row {
	const char *section;		/* missing, maybe-present, vendor-only */
	git_oid commit;
	const char *upstream;		/* mainline id, or NULL */
	const char *subsystem;
	const char *subject;
	char *detail;
	/* A missing follow-up, judged as propose judges: its verdict. */
	const char *verdict;		/* NULL for the other sections */
	long long score;
	/* With --cve: the records its upstream commit fixes (borrowed). */
	const struct cve *const *cves;
	size_t nr_cves;
};

struct diff_rows {
	struct diff_row *v;
	size_t nr, alloc;
};

/*
 * The stable releases (vX.Y.Z tags, or what release-tags says) of the
 * range and at its base, by their position in it (oldest first, the
 * base 0), for "caught up with": the newest release before a
 * subsystem's first missing commit.
 */
struct diff_position {
	git_oid id;
	size_t pos;
};

struct diff_release {
	char *name;
	size_t pos;
};

struct diff_releases {
	struct diff_position *order;		/* the range, sorted by id */
	size_t nr_order;
	struct diff_release *v;		/* sorted by position */
	size_t nr, alloc;
	git_repository *repo;
	const struct ruleset *rules;	/* how tags name stable releases */
	struct diff_position *before;	/* releases outside the range, by id */
	char **before_names;		/* their names, pos indexing them */
	size_t nr_before, alloc_before;
};

/* The position of a commit of the stable range (SIZE_MAX: none). */
size_t diff_release_position(const struct diff_releases *rel,
			     const git_oid *id);

/* The newest release before position pos (SIZE_MAX: the newest), or "-". */
const char *diff_caught_up(const struct diff_releases *rel, size_t pos);

struct vendordiff {
	struct diff_rows rows;		/* in the order of the sections */
	struct diff_releases rel;	/* when asked for */
	git_oid stable;			/* the tip of --against */
	char *range;			/* "v6.6..linux-6.6.y" */
	/* What the rows borrow from. */
	struct run run;
	int have_run, opened, matching;
	struct candidate_list vendor;
	struct patchid_cache patchids;
	struct branch_index vbi;
	struct ruleset rules;
	struct match match;
	struct scan scan;
};

void vendordiff_init(struct vendordiff *d);

/*
 * The rows: the stable commits the vendor lacks (missing,
 * maybe-present), the vendor's own (vendor-only), the mainline
 * follow-ups it lacks (missing-follow-up); the releases too when
 * releases is set (for "caught up with").  subsystems: --subsystem, or
 * NULL.  Saves the run's caches.  Returns 0, or -1 after an error.
 */
int vendordiff_run(struct run_context *ctx, struct vendordiff *d,
		   const char *branch, const char *against,
		   const char *subsystems, const char *upstream, int releases);

/* Saves the patch-ids of the stable side; a failure is a warning. */
void vendordiff_save(struct run_context *ctx, struct vendordiff *d);

void vendordiff_release(struct vendordiff *d);

/*
 * Each row whose upstream commit a record of set fixes gets them (set
 * must outlive the rows).
 */
void vendordiff_mark_cves(struct vendordiff *d, const struct cve_set *set);

#endif
