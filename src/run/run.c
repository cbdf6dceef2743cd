#include "run/run.h"
#include "stages/review.h"
#include "git/apply.h"
#include "stages/blame.h"
#include "stages/checks.h"
#include "stages/deps.h"
#include "base/error.h"
#include "git/malformed.h"
#include "git/history.h"
#include "base/paths.h"
#include "stages/posted.h"
#include "stages/score.h"
#include "store/state.h"
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

/* The branch's version from stablepick.<branch>.version, when set. */
static int configured_version(struct run_context *ctx, struct branch_index *bi)
{
	char *version = config_branch_get(&ctx->config, bi->name, "version");
	int ret = 0;

	if (version && branch_parse_version(version, &bi->major, &bi->minor) < 0)
		ret = error("bad stablepick.%s.version '%s' (expected X.Y)",
			    bi->name, version);
	free(version);
	return ret;
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
					      &b->base, 2 * b->nr_commits + 10000);
		if (ret <= 0)
			return ret;
		branch_index_release(&run->branch);
		branch_index_init(&run->branch);
	}
	return branch_index_build(&run->branch, ctx->repo, branch, &run->upstream);
}

/* A repository just made (git init): no mainline, no branch, no base. */
static int no_history(git_repository *repo)
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

		if (!strncmp(name, "refs/heads/", 11))
			name += 11;
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

	patchid_cache_open(pc, path);
	free(path);
}

int run_setup(struct run_context *ctx, struct run *run,
		  const char *branch, const char *upstream)
{
	char *path;

	memset(run, 0, sizeof(*run));
	ruleset_init(&run->rules);
	branch_index_init(&run->branch);
	if (run_open_repo(ctx) < 0 || apply_in_memory(ctx->repo) < 0 ||
	    no_history(ctx->repo) < 0)
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
	    index_branch(ctx, run, branch) < 0 ||
	    configured_version(ctx, &run->branch) < 0)
		return -1;
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
	if (branch_index_build(bi, ctx->repo, name, &run->upstream) < 0 ||
	    configured_version(ctx, bi) < 0) {
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
	const char *name;

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
		   !strncmp(merge.ptr, "refs/heads/", 11)) {
		*url = remote_url(ctx->repo, remote.ptr);
		if (*url) {
			free(*branch);
			*branch = xstrdup(merge.ptr + 11);
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

/*
 * Recorded decisions outrank the rules: what was accepted or rejected
 * for the branch is not proposed again, and what was deferred comes
 * back once its date has passed.  Presence still wins: a commit the
 * branch carries is present, whatever was decided.  A commit with no
 * decision for the branch gets those for other branches as evidence
 * (other_decisions), which the verdict does not follow: each branch
 * decides for itself.
 */
static int apply_decisions(struct run *run, struct candidate_list *l)
{
	static const enum verdict by_decision[] = {
		[DECISION_ACCEPTED] = VERDICT_ACCEPTED,
		[DECISION_REJECTED] = VERDICT_REJECTED,
		[DECISION_DEFERRED] = VERDICT_DEFERRED,
	};
	git_time_t now;
	size_t i;

	if (ledger_now(&now) < 0)
		return -1;
	for (i = 0; i < l->nr; i++) {
		struct candidate *c = l->items[i];
		const struct ledger_entry *e;
		char day[11];

		e = ledger_find(&run->ledger, run->branch.name, &c->id);
		c->decision = e;
		free(c->other_decisions);
		c->other_decisions = NULL;
		c->nr_other_decisions = 0;
		if (!e)
			c->nr_other_decisions =
				ledger_find_others(&run->ledger, run->branch.name,
						   &c->id, &c->other_decisions);
		if (!e || c->present || !ledger_in_force(e, now))
			continue;
		ledger_format_date(day, e->decision == DECISION_DEFERRED ? e->until
									  : e->when);
		free(c->why);
		c->why = xstrfmt("%s %s %s%s%s", decision_name(e->decision),
				 e->decision == DECISION_DEFERRED ? "until" : "on",
				 day, *e->reason ? ": " : "", e->reason);
		c->verdict = by_decision[e->decision];
	}
	return 0;
}

struct match *run_match(struct run *run, git_repository *repo)
{
	if (!run->match_ready) {
		match_init(&run->match, repo, &run->branch, &run->scan,
			   &run->patchids);
		run->match_ready = 1;
	}
	return &run->match;
}

/*
 * Presence, links, facts, scores and verdicts; with pull, the
 * prerequisites of what is proposed are pulled in and judged too.
 */
static int judge(struct run *run, git_repository *repo,
		 struct candidate_list *l, const git_oid *range_from, int pull)
{
	struct match *m = run_match(run, repo);
	struct candidate *pulled;
	struct deps d;
	size_t i;
	int ret;

	if (match_candidates(m, l, range_from) < 0)
		return -1;
	trace_stage("presence");
	/* Before the scores: rules on "reply" read the review replies. */
	if (run->archive &&
	    posted_attach(run->archive, repo, &run->patchids, l) < 0)
		return -1;
	if (run->archive)
		trace_stage("posted patches");
	deps_init(&d, repo, m, l, &run->upstream);
	if (run->scan.memo && run->scan.has_from &&
	    git_oid_equal(&run->scan.from, &run->branch.base) &&
	    git_oid_equal(&run->scan.to, &run->upstream))
		deps_set_range(&d, &run->scan);
	ret = deps_link(&d);
	trace_stage("deps link");
	/* A --range that ends before the tip: reverts may come later. */
	if (!ret && range_from)
		ret = deps_later_reverts(&d, &run->scan.to, &run->upstream);
	for (i = 0; !ret && i < l->nr; i++) {
		struct candidate *c = l->items[i];

		ret = deps_facts(&d, c);
		score_candidate(&run->rules, c);
		if (!ret)
			ret = deps_applicable(&d, c);
		score_decide(c);
	}
	trace_stage("facts and scores");
	while (!ret && pull && (pulled = deps_pull_prereq(&d))) {
		if (run->archive)
			ret = posted_attach(run->archive, repo, &run->patchids, l);
		score_candidate(&run->rules, pulled);
		score_decide(pulled);
	}
	for (i = 0; !ret && pull && i < l->nr; i++) {
		ret = deps_reconsider(&d, l->items[i]);
		if (ret > 0)
			score_decide(l->items[i]);
		ret = ret < 0 ? -1 : 0;
	}
	if (!ret)
		ret = deps_finish(&d);
	deps_release(&d);
	trace_stage("prerequisites");
	return ret;
}

int run_judge_scores(struct run *run, git_repository *repo,
		     struct candidate_list *l, const git_oid *range_from)
{
	int ret = judge(run, repo, l, range_from, 0);

	if (!ret && run->archive)
		posted_mates(l, run_match(run, repo));
	return ret;
}

int run_judge_range(struct run_context *ctx, struct run *run,
		    const char *const *archives, size_t nr)
{
	int ret = run_open_archives(ctx, run, archives, nr);

	if (!ret)
		ret = run_judge(run, ctx->repo, &run->scan.candidates,
				&run->scan.from);
	return ret;
}

int run_judge(struct run *run, git_repository *repo,
	      struct candidate_list *l, const git_oid *range_from)
{
	int ret = judge(run, repo, l, range_from, 1);

	if (!ret)
		ret = apply_decisions(run, l);
	if (!ret)
		ret = checks_run(repo, &run->branch, &run->upstream, &run->rules,
				 run->scan.soak_painted ? &run->scan.soak_tags : NULL,
				 run->trial_cache, l);
	trace_stage("checks");
	if (!ret && run->archive)
		posted_mates(l, run_match(run, repo));
	return ret;
}

int run_likely_prereqs(struct run *run, git_repository *repo,
		       struct candidate_list *l, struct candidate *only)
{
	int ret = blame_likely_prereqs(run_match(run, repo), &run->branch.base,
				       l, only);

	trace_stage("likely prerequisites");
	return ret;
}

/* The state file: beside the ledger. */
static char *state_path(const struct run *run)
{
	const char *slash = strrchr(run->ledger.path, '/');

	if (!slash)
		return xstrdup("state");
	return xstrfmt("%.*s/state", (int)(slash - run->ledger.path),
		       run->ledger.path);
}

/*
 * --since: the candidates an earlier run already listed (those up to
 * the mainline tip it saw) are hidden from every format.  The judging
 * still sees them, so that links (follow-ups, prerequisites, reverts)
 * across weeks stay right: the result is the full run minus what was
 * listed before.
 */
static int hide_listed(struct run *run, git_repository *repo,
		       const git_oid *since)
{
	struct candidate_list *l = &run->scan.candidates;
	struct history_walk walk;
	git_oid id;
	int ret;

	history_walk_init(&walk, repo, GIT_SORT_NONE);
	if (history_walk_push(&walk, since) < 0 ||
	    history_walk_hide(&walk, &run->scan.from) < 0) {
		history_walk_release(&walk);
		return error_git("cannot walk to the last run's tip");
	}
	while (!(ret = history_walk_next(&id, &walk))) {
		struct candidate *c = candidate_list_find(l, &id);

		if (c)
			c->listed_before = 1;
	}
	history_walk_release(&walk);
	return ret == GIT_ITEROVER ? 0 : error_git("cannot walk to the last run's tip");
}

/*
 * Where --since hides candidates up to.  For "last": the tip of the
 * last --since last run for the branch; but when mainline has not moved
 * since that run, what that run hid, so that running again (the mbox
 * after the email) lists the same commits.  *st gets the new state,
 * with, as "then" of each commit, what the runs at the tip before this
 * one remembered of it: the last run's "now" when mainline moved, its
 * "then" when it did not (the same again).
 */
static int resolve_since(struct run *run, git_repository *repo,
			 const char *since, git_oid *out, int *found,
			 struct state *st, git_time_t now)
{
	const struct state_seen *s, *tmp;
	struct state old;
	int ret, same = 0, moved = 0;
	char *path;

	*found = 0;
	if (strcmp(since, "last")) {
		*found = 1;
		return scan_resolve(repo, since, "--since", out);
	}
	path = state_path(run);
	ret = state_get(path, run->branch.name, &old);
	free(path);
	if (ret < 0)
		return -1;
	git_oid_cpy(&st->tip, &run->upstream);
	st->now_run = now;
	if (!ret)
		return 0;		/* the first run lists everything */
	if (git_oid_equal(&old.tip, &run->upstream)) {
		same = 1;
		st->has_from = old.has_from;
		git_oid_cpy(&st->from, &old.from);
		st->then_run = old.then_run;
	} else if (history_descendant_of(repo, &run->upstream, &old.tip) > 0) {
		moved = 1;
		st->has_from = 1;
		git_oid_cpy(&st->from, &old.tip);
		st->then_run = old.now_run;
	}
	/* (A tip mainline no longer has, after a rebase: list everything.) */
	git_error_clear();
	/*
	 * At the same tip, "now" too, for the commits this run does not
	 * judge (another --subsystem): relist() replaces the others'.
	 */
	HASH_ITER(hh, old.seen, s, tmp)
		state_remember(st, &s->commit, same ? s->then :
			       moved ? s->now : STATE_NONE,
			       same ? s->now : STATE_NONE);
	state_release(&old);
	if (st->has_from) {
		*found = 1;
		git_oid_cpy(out, &st->from);
	}
	return 0;
}

/* Why c is not in the proposal, as the state keeps it; NONE if it is. */
static enum state_was was_of(const struct candidate *c)
{
	switch (c->verdict) {
	case VERDICT_PROPOSED:
		return c->apply_checked && !c->apply.applies ?
		       STATE_DOES_NOT_APPLY : STATE_NONE;
	case VERDICT_NEEDS_ACK:
		return c->held ? STATE_HELD : STATE_NEEDS_ACK;
	case VERDICT_WAITING:
		return c->held ? STATE_HELD : STATE_WAITING;
	case VERDICT_DEFERRED:
		return STATE_DEFERRED;
	case VERDICT_REJECTED:
		return STATE_REJECTED;
	case VERDICT_ACCEPTED:
		return STATE_ACCEPTED;
	case VERDICT_NOT_APPLICABLE:
		return STATE_NOT_APPLICABLE;
	default:
		/* Present, below the threshold ...: nothing a week changes. */
		return STATE_NONE;
	}
}

/*
 * Whether c's deferral ended since the run at then_run (the last at the
 * tip before): one recorded after that run, which saw it proposed, and
 * ended before this one, kept it from the list all the same.
 */
static int deferral_ended(const struct candidate *c, git_time_t then_run,
			  git_time_t now)
{
	const struct ledger_entry *e = c->decision;

	return e && e->decision == DECISION_DEFERRED &&
	       !ledger_in_force(e, now) && then_run && e->until > then_run;
}

/*
 * Why c, which was "was" when the runs at the tip before (the last at
 * then_run) saw it, is eligible now (proposed, or accepted in the
 * ledger) where it was not then, or not since; NEWLY_NONE if it is
 * not.  *was_out gets what it was.
 */
static enum newly_why newly_eligible(const struct candidate *c,
				     enum state_was was, git_time_t then_run,
				     git_time_t now, enum state_was *was_out)
{
	const struct ledger_entry *e = c->decision;
	int applies = !c->apply_checked || c->apply.applies;

	*was_out = was;
	if (was == STATE_NONE && c->verdict == VERDICT_PROPOSED &&
	    deferral_ended(c, then_run, now)) {
		*was_out = STATE_DEFERRED;
		return NEWLY_DEFERRAL_EXPIRED;
	}
	if (was == STATE_NONE)
		return NEWLY_NONE;
	if (c->verdict == VERDICT_ACCEPTED)
		return was == STATE_ACCEPTED ? NEWLY_NONE : NEWLY_LEDGER_CHANGED;
	if (c->verdict != VERDICT_PROPOSED)
		return NEWLY_NONE;
	switch (was) {
	case STATE_DEFERRED:
	case STATE_REJECTED:
	case STATE_ACCEPTED:
		return e && e->decision == DECISION_DEFERRED &&
		       !ledger_in_force(e, now) ? NEWLY_DEFERRAL_EXPIRED :
		       NEWLY_LEDGER_CHANGED;
	case STATE_WAITING:
		return NEWLY_SOAKED;
	case STATE_NEEDS_ACK:
		/* Not approved by the ledger: the rules (policy, threshold). */
		return e && e->decision == DECISION_ACCEPTED ?
		       NEWLY_LEDGER_CHANGED : NEWLY_RULES_CHANGED;
	case STATE_HELD:
	case STATE_DOES_NOT_APPLY:
		/* Still not applying as it is, it is no more eligible. */
		return applies ? NEWLY_PREREQUISITE_PRESENT : NEWLY_NONE;
	case STATE_NOT_APPLICABLE:
		return NEWLY_PREREQUISITE_PRESENT;
	case STATE_NONE:
	case STATE__COUNT:
		break;
	}
	return NEWLY_NONE;
}

/*
 * --since last: what an earlier run listed but is eligible now where
 * it was not at the tip before is listed again, marked; and *st keeps
 * what this run did not propose, for the next tip's runs.
 */
static void relist(struct run *run, struct state *st, git_time_t now)
{
	struct candidate_list *l = &run->scan.candidates;
	size_t i;

	for (i = 0; i < l->nr; i++) {
		struct candidate *c = l->items[i];
		const struct state_seen *s = state_find(st, &c->id);
		enum state_was then = s ? s->then : STATE_NONE, was;

		if (c->listed_before &&
		    (c->newly = newly_eligible(c, then, st->then_run, now,
					       &was)) != NEWLY_NONE) {
			c->listed_before = 0;
			c->newly_was = state_was_name(was);
		}
		state_remember(st, &c->id, then, was_of(c));
	}
}

int run_since(struct run *run, git_repository *repo, const char *since,
	      struct state *st)
{
	git_time_t now;
	git_oid tip;
	int found = 0;

	state_release(st);
	if (ledger_now(&now) < 0 ||
	    resolve_since(run, repo, since, &tip, &found, st, now) < 0)
		return -1;
	if (found && hide_listed(run, repo, &tip) < 0)
		return -1;
	if (!strcmp(since, "last"))
		relist(run, st, now);
	return 0;
}

int run_since_save(struct run *run, const struct state *st)
{
	char *path = state_path(run);
	int ret = state_set(path, run->branch.name, st);

	free(path);
	return ret;
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
