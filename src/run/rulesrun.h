#ifndef RULESRUN_H
#define RULESRUN_H

#include <git2.h>

#include "run/run.h"
#include "stages/gaps.h"
#include "stages/survey.h"

/*
 * What `rules check` and `rules init` look at in a repository: a range
 * (--range A..B, else the branch's base..upstream), the gaps the rules
 * leave in it, and the survey a starter overlay is written from.
 *
 *     struct rules_range r;
 *     if (rulesrun_range(ctx, &r, branch, range, upstream) < 0)
 *             ... error printed ...
 *     if (rulesrun_gaps(ctx, &rs, &r, &gaps) < 0) ...
 *     rules_range_release(&r);
 */
struct rules_range {
	git_oid from, to;	/* the mainline range from..to */
	int has_from;
	git_oid branch;		/* the branch's tip, with has_branch */
	int has_branch;
	char *desc;		/* "v2.42..master", as the user would write */
	char *branch_name;	/* the branch as resolved, or NULL */
	char *upstream_name;	/* mainline's name */
};

void rules_range_release(struct rules_range *r);

/*
 * Resolves the range in the repository (opened here): range "A..B",
 * else base..upstream of branch, else (neither given) nothing, has_from
 * 0 and to upstream's tip.  Returns 0, or -1 after an error message.
 */
int rulesrun_range(struct run_context *ctx, struct rules_range *r,
		   const char *branch, const char *range, const char *upstream);

/* The gaps of rs in r's range (gaps.h); 0 or -1 after an error message. */
int rulesrun_gaps(struct run_context *ctx, const struct ruleset *rs,
		  const struct rules_range *r, struct gaps *g);

/*
 * The survey of the repository for rules init: the directories of the
 * range's end (spec: a template's, or NULL for the top), the messages
 * of the range and of the branch (without a range, the latest
 * RULESRUN_RECENT of mainline), the tags.  0 or -1 after an error
 * message.
 */
#define RULESRUN_RECENT 10000
int rulesrun_survey(struct run_context *ctx, const struct rules_range *r,
		    const char *spec, struct survey *s);

#endif
