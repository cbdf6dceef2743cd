/*
 * A run: the context every command sets up (repository, configuration,
 * rules), the run's setup (caches, ledger, rules, branch index), the
 * archives, the scan, and saving what it learnt; with the questions
 * the commands ask of it (the mail's Cc:, where to fetch the branch,
 * the rules here, the review's maintainers).  run-judge.c judges the
 * candidates, run-since.c is propose --since.
 */
#include "run/run.h"
#include "stages/blame.h"
#include "stages/review.h"
#include "git/apply.h"
#include "base/error.h"
#include "git/malformed.h"
#include "git/packmaps.h"
#include "git/renames.h"
#include "git/history.h"
#include "base/paths.h"
#include "base/strbuf.h"
#include "base/trace.h"
#include "base/util.h"

#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

int run_open_repo(struct run_context *ctx)
{
	const char *dir = ctx->repo_dir ? ctx->repo_dir : ".";
	int ret;

	if (ctx->repo)
		return 0;
	ret = git_repository_open_ext(&ctx->repo, dir, 0, NULL);
	if (ret == GIT_ENOTFOUND)
		return error("not a git repository: '%s'", dir);
	if (ret < 0)
		return error_git("cannot open repository '%s'", dir);
	packmaps_fit(ctx->repo);
	return config_load(&ctx->config, ctx->repo, ctx->config_file);
}

static int is_file(const char *dir, const char *name)
{
	struct strbuf sb = STRBUF_INIT;
	int ok;

	strbuf_addf(&sb, "%s/%s", dir, name);
	ok = !access(sb.buf, R_OK);
	strbuf_release(&sb);
	return ok;
}

/*
 * The installed program uses the installed rules; a program run from
 * the build tree uses the source tree's, so that a change to a rule file
 * takes effect without installing.  STABLEPICK_DATADIR overrides both.
 */
const char *run_default_rules_dir(void)
{
	static char buf[PATH_MAX + 16];
	const char *env = getenv("STABLEPICK_DATADIR");
	char exe[PATH_MAX];
	ssize_t len;

	if (env && *env) {
		snprintf(buf, sizeof(buf), "%s/rules", env);
		return buf;
	}
	len = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (len > 0) {
		exe[len] = '\0';
		if (strcmp(dirname(exe), BINDIR) &&
		    is_file(SRCDATADIR "/rules", "default.rules"))
			return SRCDATADIR "/rules";
	}
	return PKGDATADIR "/rules";
}

const char **run_rules_dirs(struct run_context *ctx, size_t *nr)
{
	const char *const *over = ctx->rules_dirs;
	size_t n = ctx->nr_rules_dirs, i;
	const char **dirs;

	if (!n && ctx->repo) {
		over = (const char *const *)ctx->config.rules;
		n = ctx->config.nr_rules;
	}
	dirs = xcalloc(n + 1, sizeof(*dirs));
	dirs[0] = run_default_rules_dir();
	for (i = 0; i < n; i++)
		dirs[i + 1] = over[i];
	*nr = n + 1;
	return dirs;
}

int run_load_rules(struct run_context *ctx, struct ruleset *rs)
{
	size_t nr;
	const char **dirs = run_rules_dirs(ctx, &nr);
	int ret = ruleset_load_dirs(rs, dirs, nr);

	free(dirs);
	return ret;
}

void run_context_release(struct run_context *ctx)
{
	free(ctx->rules_dirs);
	ctx->rules_dirs = NULL;
	ctx->nr_rules_dirs = ctx->alloc_rules_dirs = 0;
	history_forget(ctx->repo);
	apply_forget();
	blame_forget();
	renames_forget();
	git_repository_free(ctx->repo);
	ctx->repo = NULL;
	config_release(&ctx->config);
}

int run_resolve_upstream(struct run_context *ctx, const char *upstream,
			 git_oid *out, const char **name)
{
	static const char *const fallback[] = {
		"master", "main", "origin/master", "origin/main", NULL
	};
	size_t i;

	if (!upstream)
		upstream = ctx->config.upstream;
	if (upstream) {
		*name = upstream;
		return scan_resolve(ctx->repo, upstream, "--upstream", out);
	}
	for (i = 0; fallback[i]; i++) {
		git_oid id;

		if (malformed_revparse(&id, ctx->repo, fallback[i]) < 0) {
			struct strbuf sb = STRBUF_INIT;
			int ret;

			/* A ref that exists but dangles: no other one will do. */
			git_error_clear();
			strbuf_addf(&sb, "mainline '%s'", fallback[i]);
			ret = scan_ref_error(ctx->repo, fallback[i], sb.buf, 0);
			strbuf_release(&sb);
			if (ret)
				return ret;
			continue;
		}
		*name = fallback[i];
		return scan_resolve(ctx->repo, fallback[i], "--upstream", out);
	}
	return error("no mainline branch: none of 'master', 'main', "
		     "'origin/master' and 'origin/main' exists; give --upstream "
		     "REF or set stablepick.upstream");
}

static int resolve_upstream(struct run_context *ctx, struct run *run,
			    const char *upstream)
{
	return run_resolve_upstream(ctx, upstream, &run->upstream,
				    &run->upstream_name);
}

/*
 * The branch's version from stablepick.<branch>.version, when set; for
 * a remote-tracking branch (origin/linux-6.6.y), also under the name
 * without the remote, as the ledger keys it: the setting a maintainer
 * wrote for linux-6.6.y holds in a fresh clone too.
 */
static int configured_version(struct run_context *ctx, struct run *run)
{
	struct branch_index *bi = &run->branch;
	const char *name = bi->name;
	char *version = config_branch_get(&ctx->config, name, "version");
	int ret = 0;

	if (!version) {
		name = ledger_branch_key(&run->ledger, bi->name);
		version = config_branch_get(&ctx->config, name, "version");
	}
	if (version && branch_parse_version(version, &bi->major, &bi->minor) < 0)
		ret = error("bad stablepick.%s.version '%s' (expected X.Y)",
			    name, version);
	free(version);
	return ret;
}

/*
 * A branch that is mainline, or one of its commits, has nothing
 * backported to it: its range would be mainline's own history, empty
 * or the commits after it.  A branch still at a release tag (a stable
 * branch just cut at v6.7, before its first backport) is one.  With a
 * base taken from the cache, the base is what the branch index says
 * only once proven (run_scan()); a guess at the tip is asked of the
 * graph.
 */
static int check_not_mainline(struct run_context *ctx, const struct run *run)
{
	const struct branch_index *bi = &run->branch;

	if (git_oid_equal(&bi->tip, &run->upstream))
		return error("branch '%s' is mainline itself (upstream '%s')",
			     bi->name, run->upstream_name);
	if (!git_oid_equal(&bi->base, &bi->tip) || bi->base_name)
		return 0;
	if (bi->guessed &&
	    history_descendant_of(ctx->repo, &run->upstream, &bi->tip) != 1) {
		git_error_clear();
		return 0;
	}
	return error("branch '%s' is an ancestor of mainline (upstream "
		     "'%s'): nothing is backported to it", bi->name,
		     run->upstream_name);
}

/* The range base..upstream, named as a maintainer would ("v6.6..master"). */
static void set_default_range(struct run *run)
{
	char hex[GIT_OID_HEXSZ + 1];
	char *desc;

	git_oid_tostr(hex, sizeof(hex), &run->branch.base);
	if (!run->branch.base_name)
		hex[12] = '\0';
	desc = xstrfmt("%s..%s", run->branch.base_name ? run->branch.base_name : hex,
		       run->upstream_name);
	scan_set_range_oids(&run->scan, &run->branch.base, &run->upstream, desc);
	free(desc);
}

/*
 * Indexes the branch.  A merge base walks all of history when there is
 * no commit-graph (5 s on a million commits, as "git merge-base"), so
 * the base found last time is tried first; run_scan() proves it or
 * replaces it.
 */
static int index_branch(struct run_context *ctx, struct run *run,
			const char *branch)
{
	const struct scancache_base *b = scancache_find_base(&run->scans, branch);
	git_odb *odb = NULL;
	int ret, have;

	/* A base pruned since (history rewritten, then gc) is no guess. */
	if (b) {
		have = !git_repository_odb(&odb, ctx->repo) &&
		       git_odb_exists(odb, &b->base);
		git_odb_free(odb);
		git_error_clear();
		if (!have)
			b = NULL;
	}
	if (b) {
		ret = branch_index_build_from(&run->branch, ctx->repo, branch,
					      &b->base, 2 * b->nr_commits + 10000,
					      &run->rules);
		if (ret <= 0)
			return ret;
		branch_index_release(&run->branch);
		branch_index_init(&run->branch);
	}
	return branch_index_build(&run->branch, ctx->repo, branch, &run->upstream,
				  &run->rules);
}

int run_check_history(git_repository *repo)
{
	git_reference *head = NULL;
	int ret = 0;

	if (git_repository_is_empty(repo) != 1) {
		git_error_clear();
		return 0;
	}
	if (!git_reference_lookup(&head, repo, "HEAD") &&
	    git_reference_type(head) == GIT_REFERENCE_SYMBOLIC) {
		const char *name = git_reference_symbolic_target(head);

		skip_prefix(name, "refs/heads/", &name);
		ret = error("the repository has no commits yet (HEAD is the "
			    "unborn branch '%s')", name);
	} else {
		ret = error("the repository has no commits yet");
	}
	git_reference_free(head);
	git_error_clear();
	return ret;
}

void run_open_patchids(struct run_context *ctx, struct patchid_cache *pc)
{
	char *path = run_cache_path(ctx, "patchid-cache");

	patchid_cache_open(pc, path, ctx->repo);
	free(path);
}

void run_series_limits(const struct run_context *ctx,
		       struct applywith_limits *lim)
{
	const struct config *c = &ctx->config;
	struct applywith_limits def = APPLYWITH_LIMITS_INIT;

	*lim = def;
	if (c->series_size)
		lim->size = c->series_size;
	if (c->series_depth)
		lim->depth = c->series_depth;
	if (c->series_trials_set)
		lim->trials = c->series_trials;
	if (c->series_picks)
		lim->picks = c->series_picks;
	if (lim->pool < lim->size)
		lim->pool = lim->size;
}

/*
 * Whether the branch contains the tag (a deferral "until v6.6.9" ends):
 * the tag's commit is the tip or one of its ancestors.  A tag that does
 * not exist (yet) is not contained.
 */
struct tag_check {
	git_repository *repo;
	const git_oid *tip;
};

static int branch_has_tag(const char *tag, void *data)
{
	struct tag_check *tc = data;
	git_object *obj = NULL;
	git_oid at;
	char *ref = xstrfmt("refs/tags/%s", tag);
	int ret = 0;

	if (git_revparse_single(&obj, tc->repo, ref) < 0 ||
	    git_object_peel(&obj, obj, GIT_OBJECT_COMMIT) < 0) {
		git_error_clear();
		goto out;
	}
	git_oid_cpy(&at, git_object_id(obj));
	ret = git_oid_equal(&at, tc->tip) ||
	      git_graph_descendant_of(tc->repo, tc->tip, &at) == 1;
	git_error_clear();
out:
	git_object_free(obj);
	free(ref);
	return ret;
}

int run_setup(struct run_context *ctx, struct run *run,
		  const char *branch, const char *upstream)
{
	struct tag_check tc;
	char *path, *name;
	int ret;

	memset(run, 0, sizeof(*run));
	/* Ctrl-C from here on keeps what the finished stages found. */
	interrupt_defer();
	run_series_limits(ctx, &run->series_limits);
	ruleset_init(&run->rules);
	branch_index_init(&run->branch);
	if (run_open_repo(ctx) < 0 || apply_in_memory(ctx->repo) < 0 ||
	    run_check_history(ctx->repo) < 0)
		return -1;
	run_open_patchids(ctx, &run->patchids);
	scan_init(&run->scan, ctx->repo, &run->rules);
	path = run_cache_path(ctx, "scan-cache");
	scancache_init(&run->scans, path ? path : "");
	if (path) {
		scancache_load(&run->scans);
		run->scan.cache = &run->scans;
	}
	free(path);
	path = run_cache_path(ctx, "trial-cache");
	trialcache_init(&run->trials, path ? path : "");
	if (path) {
		trialcache_load(&run->trials);
		run->trial_cache = &run->trials;
	}
	free(path);
	path = run_ledger_path(ctx);
	ledger_init(&run->ledger, path);
	ledger_set_repo(&run->ledger, ctx->repo);
	free(path);
	if (ledger_load(&run->ledger) < 0)
		return -1;
	trace_stage("caches and ledger");
	if (run_load_rules(ctx, &run->rules) < 0 ||
	    resolve_upstream(ctx, run, upstream) < 0 ||
	    branch_resolve_name(&name, ctx->repo, branch, NULL) < 0)
		return -1;
	ret = index_branch(ctx, run, name);
	free(name);
	if (ret < 0 || check_not_mainline(ctx, run) < 0 ||
	    configured_version(ctx, run) < 0)
		return -1;
	tc.repo = ctx->repo;
	tc.tip = &run->branch.tip;
	ledger_check_tags(&run->ledger, run->branch.name, branch_has_tag, &tc);
	trace_stage("branch index");
	set_default_range(run);
	return 0;
}

/*
 * A proven base needs a scan of base..upstream; a guess that is not
 * proven is replaced by the merge base, computed, and the default range
 * scanned again.
 */
int run_scan(struct run_context *ctx, struct run *run)
{
	struct branch_index *bi = &run->branch;
	int is_default, holds;
	char *name;
	git_oid base;

	if (scan_run(&run->scan) < 0)
		return -1;
	if (!bi->guessed)
		goto out;
	is_default = run->scan.has_from &&
		     git_oid_equal(&run->scan.from, &bi->base) &&
		     git_oid_equal(&run->scan.to, &run->upstream);
	if (is_default) {
		holds = branch_index_base_holds(bi, &run->scan);
	} else {
		/* Another range (--range): only the merge base itself tells. */
		holds = !history_merge_base(&base, ctx->repo, &bi->tip, &run->upstream) &&
			git_oid_equal(&base, &bi->base);
		git_error_clear();
	}
	trace_printf("branch: the base of %s from the cache %s", bi->name,
		     holds ? "holds" : "does not hold: computing it");
	if (holds)
		goto out;
	name = xstrdup(bi->name);
	branch_index_release(bi);
	branch_index_init(bi);
	if (branch_index_build(bi, ctx->repo, name, &run->upstream,
			       &run->rules) < 0 ||
	    check_not_mainline(ctx, run) < 0 ||
	    configured_version(ctx, run) < 0) {
		free(name);
		return -1;
	}
	free(name);
	if (is_default) {
		set_default_range(run);
		scan_reset(&run->scan);
		if (scan_run(&run->scan) < 0)
			return -1;
	}
out:
	scancache_put_base(&run->scans, bi->name, &bi->base, bi->nr_commits);
	/*
	 * Saved now, not with the other caches at the end: the scan is
	 * the long part of a first run, and what comes after may be
	 * interrupted or fail.
	 */
	if (!ctx->no_cache && scancache_save(&run->scans) < 0) {
		warning_aside("the next run will be slower");
		run->scans.dirty = 0;	/* not tried, and warned, again */
	}
	return 0;
}

char *run_cache_path(struct run_context *ctx, const char *name)
{
	if (ctx->no_cache)
		return NULL;
	if (ctx->cache_dir)
		return xstrfmt("%s/%s", ctx->cache_dir, name);
	return xstrfmt("%sstablepick/%s", git_repository_path(ctx->repo), name);
}

int run_save(struct run_context *ctx, struct run *run)
{
	int ret = 0;

	if (ctx->no_cache)
		return 0;
	/* A cache only saves time: failing to write one fails nothing. */
	if (patchid_cache_save(&run->patchids) < 0)
		ret = -1;
	if (scancache_save(&run->scans) < 0)
		ret = -1;
	if (run->trial_cache && trialcache_save(run->trial_cache) < 0)
		ret = -1;
	if (run->archive)
		archive_save(run->archive);
	if (ret)
		warning_aside("the next run will be slower");
	return 0;
}

void run_release(struct run *run)
{
	if (run->match_ready)
		match_release(&run->match);
	run->match_ready = 0;
	if (run->archive) {
		archive_release(run->archive);
		free(run->archive);
		run->archive = NULL;
	}
	ledger_release(&run->ledger);
	patchid_cache_release(&run->patchids);
	scan_release(&run->scan);
	candidate_list_release(&run->outside);
	scancache_release(&run->scans);
	trialcache_release(&run->trials);
	run->trial_cache = NULL;
	branch_index_release(&run->branch);
	ruleset_release(&run->rules);
}

int run_open_archives(struct run_context *ctx, struct run *run,
		      const char *const *paths, size_t nr)
{
	char *dir;
	size_t i;

	if (!nr) {
		paths = (const char *const *)ctx->config.archives;
		nr = ctx->config.nr_archives;
	}
	if (!nr)
		return 0;
	dir = run_cache_path(ctx, "archives");
	run->archive = xcalloc(1, sizeof(*run->archive));
	archive_init(run->archive, dir);
	free(dir);
	for (i = 0; i < nr; i++)
		if (archive_add(run->archive, paths[i]) < 0)
			return -1;
	archive_finish(run->archive);
	trace_printf("archive: %u messages in %zu archives",
		     HASH_COUNT(run->archive->by_id), run->archive->nr_sources);
	trace_stage("archives");
	return 0;
}

const char *run_mail_cc(struct run_context *ctx, const struct ruleset *rs,
			struct strbuf *buf)
{
	size_t i;

	if (ctx->config.cc)
		return ctx->config.cc;
	strbuf_reset(buf);
	for (i = 0; i < rs->nr_cc; i++)
		strbuf_addf(buf, "%s%s", i ? ", " : "", rs->cc[i]);
	return buf->buf;
}

/* The URL of remote, or NULL ("." is this repository: no URL). */
static char *remote_url(git_repository *repo, const char *remote)
{
	git_remote *r = NULL;
	const char *url;
	char *ret = NULL;

	if (strcmp(remote, ".") && !git_remote_lookup(&r, repo, remote)) {
		url = git_remote_url(r);
		ret = url && *url ? xstrdup(url) : NULL;
	}
	git_remote_free(r);
	git_error_clear();
	return ret;
}

void run_fetch_source(struct run_context *ctx, const struct run *run,
		      char **url, char **branch)
{
	git_buf remote = GIT_BUF_INIT, merge = GIT_BUF_INIT;
	git_reference *ref = NULL;
	const char *name, *short_name;

	*url = NULL;
	*branch = xstrdup(run->branch.name);
	if (git_reference_dwim(&ref, ctx->repo, run->branch.name) < 0)
		goto out;
	name = git_reference_name(ref);
	if (git_reference_is_remote(ref) &&
	    !git_branch_remote_name(&remote, ctx->repo, name)) {
		free(*branch);
		*branch = xstrdup(name + strlen("refs/remotes/") + remote.size + 1);
		*url = remote_url(ctx->repo, remote.ptr);
	} else if (git_reference_is_branch(ref) &&
		   !git_branch_upstream_remote(&remote, ctx->repo, name) &&
		   !git_branch_upstream_merge(&merge, ctx->repo, name) &&
		   skip_prefix(merge.ptr, "refs/heads/", &short_name)) {
		*url = remote_url(ctx->repo, remote.ptr);
		if (*url) {
			free(*branch);
			*branch = xstrdup(short_name);
		}
	}
out:
	git_error_clear();
	if (ctx->config.stable_url) {
		free(*url);
		*url = xstrdup(ctx->config.stable_url);
	}
	git_buf_dispose(&merge);
	git_buf_dispose(&remote);
	git_reference_free(ref);
}

char *run_ledger_path(struct run_context *ctx)
{
	if (ctx->config.ledger)
		return xstrdup(ctx->config.ledger);
	return xstrfmt("%sstablepick/ledger", git_repository_path(ctx->repo));
}

int run_load_rules_here(struct run_context *ctx, struct ruleset *rs)
{
	const char *dir = ctx->repo_dir ? ctx->repo_dir : ".";

	if (!ctx->nr_rules_dirs && !ctx->repo &&
	    !git_repository_open_ext(NULL, dir, 0, NULL) &&
	    run_open_repo(ctx) < 0)
		return -1;
	git_error_clear();
	return run_load_rules(ctx, rs);
}

int run_check_rule_paths(struct run_context *ctx, struct ruleset *rs)
{
	/* The mainline propose would take: the setting, else a default. */
	const char *names[] = {
		NULL, "master", "main", "origin/master", "origin/main"
	};
	const char *dir = ctx->repo_dir ? ctx->repo_dir : ".", *name = NULL;
	struct scan scan;
	git_oid tip;
	size_t i;
	int ret = 0;

	if (!ctx->repo && (git_repository_open_ext(NULL, dir, 0, NULL) ||
			   run_open_repo(ctx) < 0)) {
		git_error_clear();
		return 0;
	}
	names[0] = ctx->config.upstream;
	for (i = 0; !name && i < ARRAY_SIZE(names); i++) {
		if (names[i] && !malformed_revparse(&tip, ctx->repo, names[i]))
			name = names[i];
		git_error_clear();
	}
	if (!name)
		return 0;
	scan_init(&scan, ctx->repo, rs);
	scan_set_range_oids(&scan, &tip, &tip, name);
	ret = scan_prepare(&scan);
	scan_release(&scan);
	return ret;
}

int run_expand_templates(struct run_context *ctx, struct ruleset *rs,
			 const char *upstream)
{
	const char *name;
	struct scan scan;
	git_oid tip;
	int ret;

	/* Outside a repository, the rules alone. */
	if (!ctx->repo) {
		if (upstream)
			return error("--upstream needs a repository");
		return 0;
	}
	if (run_resolve_upstream(ctx, upstream, &tip, &name) < 0)
		return -1;
	scan_init(&scan, ctx->repo, rs);
	scan_set_range_oids(&scan, &tip, &tip, "upstream");
	ret = scan_prepare(&scan);
	scan_release(&scan);
	return ret;
}

int run_review_people(struct run *run, git_repository *repo,
		      struct review_people **out, size_t *nr)
{
	git_tree *tree = NULL;
	size_t i;
	int ret = 0;

	*out = NULL;
	*nr = 0;
	if (malformed_commit_tree(&tree, repo, &run->upstream) < 0)
		return error_git("cannot read the tree of '%s'", run->upstream_name);
	*out = xcalloc(run->rules.nr_subsystems ? run->rules.nr_subsystems : 1,
		       sizeof(**out));
	for (i = 0; !ret && i < run->rules.nr_subsystems; i++) {
		const struct subsystem *s = run->rules.subsystems[i];
		struct review_people *p;

		if (s->policy != POLICY_OPT_IN)
			continue;
		p = &(*out)[(*nr)++];
		p->s = s;
		ret = review_maintainers(repo, tree, s, &p->maintainers);
	}
	git_tree_free(tree);
	return ret;
}

void run_review_people_release(struct review_people *v, size_t nr)
{
	size_t i;

	for (i = 0; i < nr; i++)
		mail_addrs_release(&v[i].maintainers);
	free(v);
}
