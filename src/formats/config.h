#ifndef CONFIG_H
#define CONFIG_H

#include <git2.h>

/*
 * The line naming the mainline commit that a proposed patch carries
 * (the mbox, the review and queue mails, quilt), one of the forms the
 * message parser reads back as an upstream line:
 *
 *   BACKPORT_LINE_UPSTREAM      "commit <id> upstream." first (the
 *                               stable kernel's; the default)
 *   BACKPORT_LINE_BRACKET       "[ Upstream commit <id> ]" first
 *   BACKPORT_LINE_CHERRY_PICK   "(cherry picked from commit <id>)"
 *                               last, as git cherry-pick -x writes it
 */
enum backport_line {
	BACKPORT_LINE_UPSTREAM,
	BACKPORT_LINE_BRACKET,
	BACKPORT_LINE_CHERRY_PICK,
};

/* The setting's value for each (stable names). */
extern const char *const backport_line_names[];

/*
 * stablepick's settings, in git's config format:
 *
 *     [stablepick]
 *             upstream = origin/master
 *             rules = /path/to/rules
 *
 * read from the repository's configuration (which includes the user's
 * and the system's) and, when given, a --config FILE that takes
 * precedence.
 */
struct config {
	char *upstream;		/* stablepick.upstream; NULL if unset */
	char **rules;		/* stablepick.rules, every value */
	size_t nr_rules, alloc_rules;
	char *ledger;		/* stablepick.ledger; NULL if unset */
	char *ledger_ref;	/* stablepick.ledgerRef; NULL if unset */
	char *to, *cc;		/* stablepick.to, stablepick.cc: mail addresses */
	char *stable_url;	/* stablepick.stableUrl: where to fetch branches */
	char *commit_url;	/* stablepick.commitUrl: a commit's page, %H */
	/* stablepick.backportLine: the line a proposed patch carries. */
	enum backport_line backport_line;
	/*
	 * The search for the series that makes a pick apply (applywith.h):
	 * stablepick.seriesSize, seriesDepth, seriesTrials; 0: unset.
	 */
	unsigned series_size, series_depth, series_trials, series_picks;
	int series_trials_set;		/* seriesTrials given (it may be 0) */
	/*
	 * stablepick.mailSizeCap: the bytes a proposal mail may hold
	 * (CONFIG_MAIL_SIZE_CAP unless set; 0: no cap).
	 */
	unsigned mail_size_cap;
	char **archives;	/* stablepick.archive, every value */
	size_t nr_archives, alloc_archives;
	git_config *snapshot;	/* for per-branch settings */
};

/* What a mailing list takes (vger's limit is about 100 KB). */
#define CONFIG_MAIL_SIZE_CAP 100000

void config_init(struct config *c);
/* Reads the settings; returns 0 or -1 after printing an error. */
int config_load(struct config *c, git_repository *repo, const char *file);
void config_release(struct config *c);

/*
 * A per-branch setting, e.g. the version of a vendor branch whose base
 * has no vX.Y tag:
 *
 *     [stablepick "vendor-5.15"]
 *             version = 5.15
 *
 * Returns the value (owned by the caller) or NULL when unset.
 */
char *config_branch_get(const struct config *c, const char *branch,
			const char *key);

#endif
