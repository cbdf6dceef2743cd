#ifndef CONFIG_H
#define CONFIG_H

#include <git2.h>

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
	char **archives;	/* stablepick.archive, every value */
	size_t nr_archives, alloc_archives;
	git_config *snapshot;	/* for per-branch settings */
};

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
