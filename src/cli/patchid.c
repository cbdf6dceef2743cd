#include "cli/cli.h"
#include "base/error.h"
#include "cli/options.h"
#include "git/patchid.h"
#include "git/patchid-pool.h"
#include "report/report.h"
#include "stages/revlist.h"
#include "base/strbuf.h"
#include "base/trace.h"
#include "base/util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/*
 * stablepick patch-id: what
 *
 *     git log -p --no-merges REVISION... | git patch-id --stable
 *
 * prints, one "<patch-id> <commit>" line per commit in git log's order,
 * with the diffs computed on several cores.  The walk comes first, in
 * the main thread; then the workers take the commits in batches from a
 * shared counter, each with its own git_repository (libgit2 objects
 * must not cross threads), and write each result into the slot of its
 * commit; once all have joined, the main thread puts the commits in
 * git log's order and prints.
 */

struct patch_id_args {
	int jobs;			/* 0: one per online CPU */
	char **revs;
	int nr_revs;
};

/* 0 to go on, 1 after --help, else the exit status of a usage error. */
static int parse_args(struct patch_id_args *a, int argc, char **argv)
{
	const struct cli_option opts[] = {
		OPT_INT("jobs", &a->jobs, "N", PATCHID_MAX_JOBS,
			"threads for the diffs (default: one a CPU, one per "
			"1024 commits at most)"),
		OPT_END()
	};
	int n;

	memset(a, 0, sizeof(*a));
	if ((n = cli_parse(&cmd_patch_id, opts, argc, argv, 0)) < 0)
		return n == CLI_HELP ? 1 : 129;
	a->revs = argv + n;
	a->nr_revs = argc - n;
	if (!a->nr_revs) {
		error("patch-id needs a revision range");
		return cli_usage(&cmd_patch_id);
	}
	return 0;
}

static int patch_id(struct run_context *ctx, int argc, char **argv)
{
	struct patch_id_args a;
	struct revlist l;
	size_t *order;
	int ret;

	ret = parse_args(&a, argc, argv);
	if (ret)
		return ret == 1 ? 0 : ret;
	/* The packs are opened before the walk's first look-up would. */
	if (run_open_repo(ctx) < 0 || patchid_map_packs(ctx->repo) < 0)
		return cli_end(ctx, NULL, -1);
	trace_stage("repository");
	memset(&l, 0, sizeof(l));
	ret = revlist_walk(&l, ctx->repo, a.revs, a.nr_revs);
	trace_stage("walk");
	if (!ret)
		ret = patchid_compute_all(ctx->repo, l.items, l.nr,
					  a.jobs);
	trace_stage("patch-ids");
	if (!ret) {
		order = revlist_log_order(&l);
		ret = report_patch_ids(stdout, &l, order);
		free(order);
	}
	trace_stage("output");
	revlist_release(&l);
	/* The lines are written already, a chunk at a time: nothing is kept. */
	return cli_end(ctx, NULL, ret);
}

const struct cli_command cmd_patch_id = {
	"patch-id",
	"[--jobs N] REVISION...",
	"print the patch-ids of commits, as git patch-id --stable",
	patch_id,
};
