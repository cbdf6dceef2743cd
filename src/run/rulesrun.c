#include "run/rulesrun.h"
#include "base/error.h"
#include "base/util.h"
#include "git/history.h"
#include "stages/branch.h"

#include <stdlib.h>
#include <string.h>

void rules_range_release(struct rules_range *r)
{
	free(r->desc);
	free(r->branch_name);
	free(r->upstream_name);
	memset(r, 0, sizeof(*r));
}

static int parse_range(struct run_context *ctx, struct rules_range *r,
		       const char *range)
{
	int ret = scan_resolve_range(ctx->repo, range, &r->from, &r->to);

	r->has_from = 1;
	r->desc = xstrdup(range);
	return ret;
}

int rulesrun_range(struct run_context *ctx, struct rules_range *r,
		   const char *branch, const char *range, const char *upstream)
{
	const char *name;
	char hex[13];
	git_oid up;
	int ret;

	memset(r, 0, sizeof(*r));
	if (!ctx->repo && run_open_repo(ctx) < 0)
		return -1;
	if (run_resolve_upstream(ctx, upstream, &up, &name) < 0)
		return -1;
	r->upstream_name = xstrdup(name);
	r->to = up;
	if (branch) {
		if (branch_resolve_name(&r->branch_name, ctx->repo, branch,
					NULL) < 0 ||
		    scan_resolve(ctx->repo, r->branch_name, "--branch",
				 &r->branch) < 0)
			return -1;
		r->has_branch = 1;
		branch = r->branch_name;
	}
	if (range)
		return parse_range(ctx, r, range);
	if (!branch)
		return 0;
	ret = history_merge_base(&r->from, ctx->repo, &r->branch, &up);
	if (ret == GIT_ENOTFOUND)
		return error("branch '%s' has no common history with '%s'",
			     branch, name);
	if (ret < 0)
		return error("cannot find the base of '%s': %s", branch,
			     git_error_last() ? git_error_last()->message :
			     "unknown error");
	r->has_from = 1;
	git_oid_tostr(hex, sizeof(hex), &r->from);
	r->desc = xstrfmt("%s..%s", hex, name);
	return 0;
}

int rulesrun_gaps(struct run_context *ctx, const struct ruleset *rs,
		  const struct rules_range *r, struct gaps *g)
{
	return gaps_find(g, ctx->repo, rs, r->has_from ? &r->from : NULL,
			 &r->to);
}

int rulesrun_survey(struct run_context *ctx, const struct rules_range *r,
		    const char *spec, struct survey *s)
{
	const git_oid *from = r->has_from ? &r->from : NULL;

	if (survey_tree(s, ctx->repo, &r->to, spec) < 0 ||
	    survey_messages(s, ctx->repo, &r->to, from, 0,
			    from ? 0 : RULESRUN_RECENT) < 0)
		return -1;
	if (r->has_branch &&
	    survey_messages(s, ctx->repo, &r->branch, from, 1,
			    from ? 0 : RULESRUN_RECENT) < 0)
		return -1;
	survey_sort(s);
	return survey_tags(s, ctx->repo);
}
