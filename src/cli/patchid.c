#include "cli.h"
#include "error.h"
#include "patchid.h"
#include "strbuf.h"
#include "trace.h"
#include "util.h"

#include <dirent.h>
#include <errno.h>
#include <getopt.h>
#include <git2/sys/repository.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

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

#define MAX_JOBS 64

/*
 * Commits a worker takes at a time: neighbours in the walk often share
 * trees, which stay in the worker's object cache, and the counter's
 * lock is taken rarely.
 */
#define BATCH 16

struct patch_id_args {
	int jobs;			/* 0: one per online CPU */
	char **revs;
	int nr_revs;
};

/* One commit of the walk, and what the workers found out about it. */
struct pid_item {
	git_oid commit;
	git_oid id;			/* its patch-id, if has_id */
	int has_id;			/* 0: a merge or no change, no line */
	git_time_t time;		/* committer date, for the order */
	git_oid *parents;
	size_t nr_parents;
};

/* The commits to show and the revisions they were reached from. */
struct pid_list {
	struct pid_item *items;		/* in libgit2's walk order */
	size_t nr, alloc;
	git_oid *tips;			/* the positive revisions, as given */
	size_t nr_tips, alloc_tips;
};

/* What the workers share. */
struct pid_work {
	struct pid_item *items;
	size_t nr;
	const char *gitdir;		/* each thread opens its own repository */
	char *objdir;			/* the objects directory, no final '/' */
	int private_packs;		/* ... and its own packs (see own_packs) */
	pthread_mutex_t lock;
	size_t next;			/* under lock: the first item not taken */
	int failed;			/* under lock: a worker failed, stop */
};

struct pid_worker {
	struct pid_work *work;
	int nth;			/* 0: the main thread */
	git_repository *repo;		/* the main thread's, or NULL */
	pthread_t thread;
	char *error;			/* the first error, for the main thread */
};

static void pid_list_release(struct pid_list *l)
{
	size_t i;

	for (i = 0; i < l->nr; i++)
		free(l->items[i].parents);
	free(l->items);
	free(l->tips);
	memset(l, 0, sizeof(*l));
}

/* 0 to go on, 1 after --help, else the exit status of a usage error. */
static int parse_args(struct patch_id_args *a, int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "help", no_argument, NULL, 'h' },
		{ "jobs", required_argument, NULL, 'j' },
		{ NULL, 0, NULL, 0 }
	};
	char *end;
	long n;
	int opt;

	memset(a, 0, sizeof(*a));
	optind = 0;
	while ((opt = cli_getopt(argc, argv, "+h", longopts)) != -1) {
		switch (opt) {
		case 'h':
			printf("usage: stablepick patch-id %s\n", cmd_patch_id.usage);
			return 1;
		case 'j':
			errno = 0;
			n = strtol(optarg, &end, 10);
			if (errno || end == optarg || *end || n < 1 || n > MAX_JOBS) {
				error("--jobs takes a number from 1 to %d, not '%s'",
				      MAX_JOBS, optarg);
				return cli_usage(&cmd_patch_id);
			}
			a->jobs = (int)n;
			break;
		default:
			return cli_usage(&cmd_patch_id);
		}
	}
	a->revs = argv + optind;
	a->nr_revs = argc - optind;
	if (!a->nr_revs) {
		error("patch-id needs a revision range");
		return cli_usage(&cmd_patch_id);
	}
	return 0;
}

/* A revision (arg names it in the error) as a commit. */
static int resolve(git_oid *out, git_repository *repo, const char *rev,
		   const char *arg)
{
	git_object *obj = NULL, *peeled = NULL;
	int ret;

	if (git_revparse_single(&obj, repo, rev) < 0) {
		struct strbuf name = STRBUF_INIT;

		git_error_clear();
		strbuf_addf(&name, "revision '%s'", rev);
		ret = scan_ref_error(repo, rev, name.buf, 1);
		strbuf_release(&name);
		return ret ? ret : error("bad revision '%s'", arg);
	}
	ret = git_object_peel(&peeled, obj, GIT_OBJECT_COMMIT);
	git_object_free(obj);
	if (ret < 0) {
		git_error_clear();
		return error("bad revision '%s': not a commit", arg);
	}
	git_oid_cpy(out, git_object_id(peeled));
	git_object_free(peeled);
	return 0;
}

static int push_tip(git_revwalk *walk, struct pid_list *l, const git_oid *id)
{
	ALLOC_GROW(l->tips, l->nr_tips, l->alloc_tips);
	git_oid_cpy(&l->tips[l->nr_tips++], id);
	return git_revwalk_push(walk, id);
}

/* A..B and A...B, as git rev-list takes them (an empty side is HEAD). */
static int push_range(git_revwalk *walk, struct pid_list *l,
		      git_repository *repo, const char *arg, const char *dots)
{
	int symmetric = dots[2] == '.';
	const char *right = dots + (symmetric ? 3 : 2);
	char *left = xstrndup(arg, (size_t)(dots - arg));
	git_oidarray bases = { NULL, 0 };
	git_oid from, to;
	size_t i;
	int ret;

	ret = resolve(&from, repo, *left ? left : "HEAD", arg);
	if (!ret)
		ret = resolve(&to, repo, *right ? right : "HEAD", arg);
	free(left);
	if (ret)
		return ret;
	if (!symmetric) {
		if (git_revwalk_hide(walk, &from) < 0 || push_tip(walk, l, &to) < 0)
			return error_git("cannot walk '%s'", arg);
		return 0;
	}
	/* A...B: what either has and not both, above their merge bases. */
	ret = git_merge_bases(&bases, repo, &from, &to);
	if (ret == GIT_ENOTFOUND) {
		git_error_clear();
		ret = 0;
	} else if (ret < 0) {
		return error_git("cannot find the merge base of '%s'", arg);
	}
	for (i = 0; !ret && i < bases.count; i++)
		ret = git_revwalk_hide(walk, &bases.ids[i]);
	if (!ret)
		ret = push_tip(walk, l, &from);
	if (!ret)
		ret = push_tip(walk, l, &to);
	git_oidarray_dispose(&bases);
	return ret < 0 ? error_git("cannot walk '%s'", arg) : 0;
}

static int push_rev(git_revwalk *walk, struct pid_list *l,
		    git_repository *repo, const char *arg)
{
	const char *dots = strstr(arg, "..");
	git_oid id;
	int ret;

	if (*arg != '^' && dots)
		return push_range(walk, l, repo, arg, dots);
	if (resolve(&id, repo, *arg == '^' ? arg + 1 : arg, arg) < 0)
		return -1;
	if (*arg == '^')
		ret = git_revwalk_hide(walk, &id);
	else
		ret = push_tip(walk, l, &id);
	return ret < 0 ? error_git("cannot walk '%s'", arg) : 0;
}

/* The commits of the revisions: which ones is libgit2's walk. */
static int walk_revs(struct pid_list *l, git_repository *repo,
		     char **revs, int nr_revs)
{
	git_revwalk *walk = NULL;
	git_oid id;
	int i, ret;

	if (git_revwalk_new(&walk, repo) < 0)
		return error_git("cannot walk the history");
	/* Newest first: neighbours share trees, for the workers' caches. */
	ret = git_revwalk_sorting(walk, GIT_SORT_TIME);
	if (ret < 0)
		ret = error_git("cannot walk the history");
	for (i = 0; !ret && i < nr_revs; i++)
		ret = push_rev(walk, l, repo, revs[i]);
	if (ret)
		goto out;
	while (!(ret = git_revwalk_next(&id, walk))) {
		ALLOC_GROW(l->items, l->nr, l->alloc);
		memset(&l->items[l->nr], 0, sizeof(*l->items));
		git_oid_cpy(&l->items[l->nr++].commit, &id);
	}
	if (ret == GIT_ITEROVER)
		ret = 0;
	else
		ret = error_git("cannot walk the history");
out:
	git_revwalk_free(walk);
	return ret;
}

/*
 * Records the worker's first error, with libgit2's message when there is
 * one (it is the thread's own), and tells the others to stop.  error()
 * is not called here: the main thread prints after the join.
 */
__attribute__((format(printf, 2, 3)))
static int worker_fail(struct pid_worker *wk, const char *fmt, ...)
{
	const git_error *e = git_error_last();
	struct strbuf sb = STRBUF_INIT;
	va_list ap;

	va_start(ap, fmt);
	strbuf_vaddf(&sb, fmt, ap);
	va_end(ap);
	if (e && e->message)
		strbuf_addf(&sb, ": %s", e->message);
	git_error_clear();
	if (!wk->error)
		wk->error = strbuf_detach(&sb, NULL);
	strbuf_release(&sb);

	pthread_mutex_lock(&wk->work->lock);
	wk->work->failed = 1;
	pthread_mutex_unlock(&wk->work->lock);
	return -1;
}

/* The next batch, [*begin, *end); 0 when none is left or one failed. */
static int take_batch(struct pid_work *w, size_t *begin, size_t *end)
{
	int ok;

	pthread_mutex_lock(&w->lock);
	ok = !w->failed && w->next < w->nr;
	if (ok) {
		*begin = w->next;
		*end = w->nr - w->next > BATCH ? w->next + BATCH : w->nr;
		w->next = *end;
	}
	pthread_mutex_unlock(&w->lock);
	return ok;
}

static int compute_one(struct pid_worker *wk, git_repository *repo,
		       struct pid_item *it)
{
	char hex[GIT_OID_HEXSZ + 1];
	git_commit *commit = NULL;
	size_t i;
	int ret;

	git_error_clear();
	if (git_commit_lookup(&commit, repo, &it->commit) < 0) {
		git_oid_tostr(hex, sizeof(hex), &it->commit);
		return worker_fail(wk, "cannot read commit %s", hex);
	}
	it->time = git_commit_time(commit);
	it->nr_parents = git_commit_parentcount(commit);
	if (it->nr_parents)
		it->parents = xcalloc(it->nr_parents, sizeof(*it->parents));
	for (i = 0; i < it->nr_parents; i++)
		git_oid_cpy(&it->parents[i],
			    git_commit_parent_id(commit, (unsigned int)i));
	/* git log -p shows no diff for a merge. */
	if (it->nr_parents > 1) {
		git_commit_free(commit);
		return 0;
	}
	ret = patchid_commit(&it->id, repo, commit);
	git_commit_free(commit);
	if (!ret) {
		it->has_id = 1;
	} else if (ret != GIT_ENOTFOUND) {
		/* -1: patchid_commit() has said why, libgit2's words included. */
		if (ret == -1)
			git_error_clear();
		git_oid_tostr(hex, sizeof(hex), &it->commit);
		return worker_fail(wk, "cannot compute the patch-id of %s", hex);
	}
	/* No change: git patch-id prints nothing for it. */
	return 0;
}

/*
 * libgit2 opens each pack once per process, whatever the repository (the
 * pack cache of its mwindow.c, keyed by path), so the threads' own
 * repositories would still share every pack's locks and delta-base
 * cache and wait on each other at each object read: two threads ran
 * hardly faster than one.  A worker therefore reads objects through
 * its own spelling of the objects directory ("objects/.", "objects/./.",
 * ...), which libgit2 takes for other packs.  Should libgit2 ever see
 * through it, the packs are shared again: slower, still right.
 */
static int own_packs(struct pid_worker *wk, git_repository *repo)
{
	struct strbuf dir = STRBUF_INIT;
	git_odb *odb = NULL;
	int i, ret;

	strbuf_addstr(&dir, wk->work->objdir);
	for (i = 0; i < wk->nth; i++)
		strbuf_addstr(&dir, "/.");
	ret = git_odb_open(&odb, dir.buf);
	if (ret < 0)
		ret = worker_fail(wk, "cannot open the object database '%s'",
				  dir.buf);
	else
		ret = git_repository_set_odb(repo, odb);
	git_odb_free(odb);
	strbuf_release(&dir);
	return ret;
}

static void worker_run(struct pid_worker *wk)
{
	struct pid_work *w = wk->work;
	git_repository *repo = wk->repo;
	size_t begin, end, i;

	if (!repo && git_repository_open(&repo, w->gitdir) < 0) {
		worker_fail(wk, "cannot open repository '%s'", w->gitdir);
		return;
	}
	if (!wk->repo && w->private_packs && own_packs(wk, repo) < 0)
		goto out;
	while (take_batch(w, &begin, &end))
		for (i = begin; i < end; i++)
			if (compute_one(wk, repo, &w->items[i]) < 0)
				goto out;
out:
	if (!wk->repo)
		git_repository_free(repo);
}

static void *worker_thread(void *arg)
{
	worker_run(arg);
	/* libgit2 keeps the last error per thread: leave none behind. */
	git_error_clear();
	return NULL;
}

/* Where the objects are: in the common directory of a worktree. */
static char *objects_dir(git_repository *repo)
{
	const char *common = git_repository_commondir(repo);
	size_t len = strlen(common);

	return xstrfmt("%s%sobjects", common,
		       len && common[len - 1] == '/' ? "" : "/");
}

static size_t count_packs(const char *objdir)
{
	char *path = xstrfmt("%s/pack", objdir);
	DIR *dir = opendir(path);
	struct dirent *de;
	size_t nr = 0, len;

	while (dir && (de = readdir(dir)) != NULL) {
		len = strlen(de->d_name);
		nr += len > 5 && !strcmp(de->d_name + len - 5, ".pack");
	}
	if (dir)
		closedir(dir);
	free(path);
	return nr;
}

/*
 * Whether the workers can have packs of their own (see own_packs()):
 * each holds a descriptor per pack, and maps the packs again, so not
 * with more packs than a quarter of the descriptors allow, nor where
 * addresses are short.  Raises libgit2's limit on mapped memory to
 * match, as each worker maps what one thread would.
 */
static int want_private_packs(const char *objdir, int jobs)
{
	size_t limit = 0, packs;
	struct rlimit rl;

	if (jobs < 2 || sizeof(void *) < 8 || getrlimit(RLIMIT_NOFILE, &rl) < 0)
		return 0;
	packs = count_packs(objdir) + 1;
	if (rl.rlim_cur != RLIM_INFINITY &&
	    packs * (size_t)jobs > (size_t)rl.rlim_cur / 4)
		return 0;
	if (git_libgit2_opts(GIT_OPT_GET_MWINDOW_MAPPED_LIMIT, &limit) < 0 ||
	    git_libgit2_opts(GIT_OPT_SET_MWINDOW_MAPPED_LIMIT,
			     limit * (size_t)jobs) < 0) {
		git_error_clear();
		return 0;
	}
	return 1;
}

static int default_jobs(void)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);

	if (n < 1)
		return 1;
	return n > MAX_JOBS ? MAX_JOBS : (int)n;
}

/*
 * Fills in the items with jobs threads: the main thread, with repo, and
 * jobs - 1 more, each with a repository of its own.  Returns 0, or -1
 * after printing every worker's error.
 */
static int compute_all(git_repository *repo, struct pid_item *items,
		       size_t nr, int jobs)
{
	struct pid_worker *workers;
	struct pid_work w;
	int i, started, ret = 0;

	if ((size_t)jobs > nr)
		jobs = nr ? (int)nr : 1;
	/* A libgit2 built without threads must stay in one. */
	if (!(git_libgit2_features() & GIT_FEATURE_THREADS))
		jobs = 1;

	memset(&w, 0, sizeof(w));
	w.items = items;
	w.nr = nr;
	w.gitdir = git_repository_path(repo);
	w.objdir = objects_dir(repo);
	w.private_packs = want_private_packs(w.objdir, jobs);
	trace_printf("patch-id: %zu commits, %d threads, %s packs", nr, jobs,
		     w.private_packs ? "private" : "shared");
	pthread_mutex_init(&w.lock, NULL);
	workers = xcalloc((size_t)jobs, sizeof(*workers));
	for (i = 0; i < jobs; i++) {
		workers[i].work = &w;
		workers[i].nth = i;
	}
	workers[0].repo = repo;

	/*
	 * The workers share out the batches as they go, so a thread that
	 * cannot start costs time, not results.
	 */
	for (started = 1; started < jobs; started++) {
		int err = pthread_create(&workers[started].thread, NULL,
					 worker_thread, &workers[started]);

		if (err) {
			warning("cannot start a thread: %s; going on with %d",
				strerror(err), started);
			break;
		}
	}
	worker_run(&workers[0]);
	for (i = 1; i < started; i++)
		pthread_join(workers[i].thread, NULL);

	for (i = 0; i < started; i++) {
		if (!workers[i].error)
			continue;
		ret = error("%s", workers[i].error);
		free(workers[i].error);
	}
	pthread_mutex_destroy(&w.lock);
	free(w.objdir);
	free(workers);
	return ret;
}

/*
 * git log's order.  git keeps the commits to show in a list sorted by
 * commit date, newest first; a commit joins it behind those of the same
 * date (commit_list_insert_by_date) when the first of its children is
 * shown, the tips at the start in the order given, and the head of the
 * list is shown next.  libgit2's GIT_SORT_TIME orders commits of the
 * same date otherwise, and a kernel has many (a series applied by
 * git am in one second), so the order is worked out here: a heap by
 * (date, time of joining) over the commits libgit2's walk found.
 */

struct pid_slot {
	git_time_t time;
	size_t seq;			/* when it joined */
	size_t index;			/* into the items */
};

struct pid_by_oid {
	git_oid id;
	size_t index;
};

static int by_oid_cmp(const void *a, const void *b)
{
	return git_oid_cmp(&((const struct pid_by_oid *)a)->id,
			   &((const struct pid_by_oid *)b)->id);
}

/* 1 if a comes out of the list before b. */
static int slot_before(const struct pid_slot *a, const struct pid_slot *b)
{
	return a->time > b->time || (a->time == b->time && a->seq < b->seq);
}

static void heap_push(struct pid_slot *heap, size_t *nr, struct pid_slot s)
{
	size_t i = (*nr)++;

	while (i && slot_before(&s, &heap[(i - 1) / 2])) {
		heap[i] = heap[(i - 1) / 2];
		i = (i - 1) / 2;
	}
	heap[i] = s;
}

static struct pid_slot heap_pop(struct pid_slot *heap, size_t *nr)
{
	struct pid_slot top = heap[0], last = heap[--*nr];
	size_t i = 0, child;

	while (2 * i + 1 < *nr) {
		child = 2 * i + 1;
		if (child + 1 < *nr && slot_before(&heap[child + 1], &heap[child]))
			child++;
		if (!slot_before(&heap[child], &last))
			break;
		heap[i] = heap[child];
		i = child;
	}
	heap[i] = last;
	return top;
}

/* Joins the list, unless it is not to be shown or has joined already. */
static void join(struct pid_slot *heap, size_t *nr, size_t *seq,
		 const struct pid_list *l, const struct pid_by_oid *by_oid,
		 unsigned char *seen, const git_oid *id)
{
	struct pid_by_oid key, *found;
	struct pid_slot s;

	git_oid_cpy(&key.id, id);
	found = bsearch(&key, by_oid, l->nr, sizeof(*by_oid), by_oid_cmp);
	if (!found || seen[found->index])
		return;
	seen[found->index] = 1;
	s.time = l->items[found->index].time;
	s.seq = (*seq)++;
	s.index = found->index;
	heap_push(heap, nr, s);
}

/* The indexes of the items in git log's order; l->nr of them. */
static size_t *log_order(const struct pid_list *l)
{
	struct pid_by_oid *by_oid = xcalloc(l->nr ? l->nr : 1, sizeof(*by_oid));
	struct pid_slot *heap = xcalloc(l->nr ? l->nr : 1, sizeof(*heap));
	size_t *order = xcalloc(l->nr ? l->nr : 1, sizeof(*order));
	unsigned char *seen = xcalloc(l->nr ? l->nr : 1, 1);
	size_t i, j, nr_heap = 0, nr_order = 0, seq = 0;

	for (i = 0; i < l->nr; i++) {
		git_oid_cpy(&by_oid[i].id, &l->items[i].commit);
		by_oid[i].index = i;
	}
	QSORT(by_oid, l->nr, by_oid_cmp);
	for (i = 0; i < l->nr_tips; i++)
		join(heap, &nr_heap, &seq, l, by_oid, seen, &l->tips[i]);
	while (nr_heap) {
		const struct pid_item *it = &l->items[heap_pop(heap, &nr_heap).index];

		order[nr_order++] = (size_t)(it - l->items);
		for (j = 0; j < it->nr_parents; j++)
			join(heap, &nr_heap, &seq, l, by_oid, seen, &it->parents[j]);
	}
	/* Every commit of the walk descends from a tip; just in case. */
	for (i = 0; i < l->nr; i++)
		if (!seen[i])
			order[nr_order++] = i;
	free(seen);
	free(heap);
	free(by_oid);
	return order;
}

static int print_ids(const struct pid_list *l, const size_t *order)
{
	char line[2 * GIT_OID_HEXSZ + 2];
	size_t i;

	for (i = 0; i < l->nr; i++) {
		const struct pid_item *it = &l->items[order[i]];

		if (!it->has_id)
			continue;
		git_oid_fmt(line, &it->id);
		line[GIT_OID_HEXSZ] = ' ';
		git_oid_fmt(line + GIT_OID_HEXSZ + 1, &it->commit);
		line[2 * GIT_OID_HEXSZ + 1] = '\n';
		fwrite(line, 1, sizeof(line), stdout);
	}
	if (fflush(stdout) || ferror(stdout))
		return error("cannot write the output: %s", strerror(errno));
	return 0;
}

static int patch_id(struct run_context *ctx, int argc, char **argv)
{
	struct patch_id_args a;
	struct pid_list l;
	size_t *order;
	int ret;

	ret = parse_args(&a, argc, argv);
	if (ret)
		return ret == 1 ? 0 : ret;
	if (run_open_repo(ctx) < 0)
		return 1;
	trace_stage("repository");
	memset(&l, 0, sizeof(l));
	ret = walk_revs(&l, ctx->repo, a.revs, a.nr_revs);
	trace_stage("walk");
	if (!ret)
		ret = compute_all(ctx->repo, l.items, l.nr,
				  a.jobs ? a.jobs : default_jobs());
	trace_stage("patch-ids");
	if (!ret) {
		order = log_order(&l);
		ret = print_ids(&l, order);
		free(order);
	}
	trace_stage("output");
	pid_list_release(&l);
	return ret < 0 ? 1 : 0;
}

const struct cli_command cmd_patch_id = {
	"patch-id",
	"[--jobs N] REVISION...",
	"print the patch-ids of commits, as git patch-id --stable",
	patch_id,
};
