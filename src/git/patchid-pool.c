#include "git/patchid-pool.h"
#include "base/error.h"
#include "base/progress.h"
#include "git/malformed.h"
#include "git/patchid.h"
#include "base/strbuf.h"
#include "base/trace.h"
#include "base/util.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <git2/sys/repository.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

/*
 * Commits a worker takes at a time: neighbours in the walk often share
 * trees, which stay in the worker's object cache, and the counter's
 * lock is taken rarely.
 */
#define BATCH 16

/* What the workers share. */
struct pid_work {
	struct patchid_job *items;
	size_t nr;
	const char *gitdir;		/* each thread opens its own repository */
	char *objdir;			/* the objects directory, no final '/' */
	int private_packs;		/* ... and its own packs (see own_packs) */
	pthread_mutex_t lock;
	size_t next;			/* under lock: the first item not taken */
	struct progress progress;	/* the main thread's alone */
	int failed;			/* under lock: a worker failed, stop */
};

struct pid_worker {
	struct pid_work *work;
	int nth;			/* 0: the main thread */
	git_repository *repo;		/* its own; worker 0's is the caller's */
	pthread_t thread;
	char *error;			/* the first error, for the main thread */
};

/*
 * Records the worker's first error, with libgit2's message when there is
 * one (it is the thread's own), and tells the others to stop.  error()
 * is not called here: the main thread prints after the join.
 */
__attribute__((format(printf, 2, 3)))
static int worker_fail(struct pid_worker *wk, const char *fmt, ...)
{
	struct strbuf sb = STRBUF_INIT;
	va_list ap;

	va_start(ap, fmt);
	strbuf_vaddf(&sb, fmt, ap);
	va_end(ap);
	if (git_error_last())
		strbuf_addf(&sb, ": %s", error_git_cause());
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

/*
 * A malformed commit (src/malformed.h), m what its object says: its
 * parents, date and the patch-id of its trees, as git log -p shows it.
 */
static int compute_malformed(git_repository *repo, struct patchid_job *it,
			     struct malformed_commit *m)
{
	git_tree *a = NULL, *b = NULL;
	git_oid ptree;
	int ret;

	it->time = (git_time_t)m->date;
	it->nr_parents = m->nr_parents;
	it->parents = m->parents;
	m->parents = NULL;
	it->malformed = m->reason;
	m->reason = NULL;
	if (it->nr_parents > 1)
		return 0;
	if ((ret = git_tree_lookup(&b, repo, &m->tree)) < 0 ||
	    (it->nr_parents &&
	     ((ret = malformed_tree_id(&ptree, repo, &it->parents[0])) < 0 ||
	      (ret = git_tree_lookup(&a, repo, &ptree)) < 0)))
		goto out;
	ret = patchid_trees(&it->id, repo, a, b);
out:
	git_tree_free(a);
	git_tree_free(b);
	return ret;
}

static int compute_one(struct pid_worker *wk, git_repository *repo,
		       struct patchid_job *it)
{
	char hex[GIT_OID_HEXSZ + 1];
	git_commit *commit = NULL;
	size_t i;
	int ret;

	git_error_clear();
	if (git_commit_lookup(&commit, repo, &it->commit) < 0) {
		struct malformed_commit m;

		git_oid_tostr(hex, sizeof(hex), &it->commit);
		if (!malformed_check(&m, repo, &it->commit))
			return worker_fail(wk, "cannot read commit %s", hex);
		ret = compute_malformed(repo, it, &m);
		malformed_release(&m);
		goto done;
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
done:
	if (!ret && it->nr_parents > 1)
		return 0;
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
static int own_packs(struct pid_worker *wk)
{
	struct strbuf dir = STRBUF_INIT;
	git_odb *odb = NULL;
	int i, ret;

	strbuf_addstr(&dir, wk->work->objdir);
	for (i = 0; i < wk->nth; i++)
		strbuf_addstr(&dir, "/.");
	ret = git_odb_open(&odb, dir.buf);
	if (ret < 0)
		ret = error_git("cannot open the object database '%s'", dir.buf);
	else if ((ret = git_repository_set_odb(wk->repo, odb)) < 0)
		ret = error_git("cannot open the object database '%s'", dir.buf);
	git_odb_free(odb);
	strbuf_release(&dir);
	return ret;
}

/* Where the objects are: in the common directory of a worktree. */
static char *objects_dir(git_repository *repo)
{
	const char *common = git_repository_commondir(repo);
	size_t len = strlen(common);

	return xstrfmt("%s%sobjects", common,
		       len && common[len - 1] == '/' ? "" : "/");
}

/*
 * The first object the pack index at path lists (version 1 or 2): 1,
 * or 0 when there is none or the file is not an index one can read
 * (libgit2 will say what is wrong with it).
 */
static int first_object(git_oid *id, const char *path)
{
	unsigned char buf[8 + 256 * 4 + 24];
	const unsigned char *fanout, *last;
	int fd = open(path, O_RDONLY), v2;
	ssize_t n;

	if (fd < 0)
		return 0;
	n = pread(fd, buf, sizeof(buf), 0);
	close(fd);
	if (n != (ssize_t)sizeof(buf))
		return 0;
	v2 = !memcmp(buf, "\377tOc", 4);
	fanout = v2 ? buf + 8 : buf;
	last = fanout + 255 * 4;
	if (!(last[0] | last[1] | last[2] | last[3]))
		return 0;
	/* Version 2 lists the ids first; version 1 an offset before each. */
	git_oid_fromraw(id, fanout + 256 * 4 + (v2 ? 0 : 4));
	return 1;
}

/*
 * Why libgit2 cannot open the pack whose index is idx, which it does
 * not say: the same mmap() of the index and open() of the pack again.
 */
static const char *open_error(const char *idx, const char *pack)
{
	struct stat st;
	void *map;
	int fd = open(idx, O_RDONLY), err = 0;

	if (fd < 0)
		return strerror(errno);
	if (fstat(fd, &st) < 0)
		err = errno;
	else if ((map = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE,
			     fd, 0)) == MAP_FAILED)
		err = errno;
	else
		munmap(map, (size_t)st.st_size);
	close(fd);
	if (!err && (fd = open(pack, O_RDONLY)) < 0)
		err = errno;
	else if (!err)
		close(fd);
	if (err == ENOMEM)
		return "out of memory";
	return err ? strerror(err) : "libgit2 cannot read it";
}

/*
 * The packs are tried with a look-up of an id none holds, which libgit2
 * takes to every pack; then the first object of each index must be
 * found.  (One that another pack holds too proves nothing, but its pack
 * was tried all the same.)
 */
int patchid_map_packs(git_repository *repo)
{
	char *objdir = objects_dir(repo), **names;
	char *packdir = xstrfmt("%s/pack", objdir);
	struct strbuf idx = STRBUF_INIT, pack = STRBUF_INIT;
	git_odb *odb = NULL;
	struct stat st;
	git_oid id;
	size_t nr, i, len;
	int ret;

	free(objdir);
	ret = dir_names(packdir, 1, &names, &nr);
	if (ret) {
		free(packdir);
		return ret < 0 ? -1 : 0;
	}
	if (git_repository_odb(&odb, repo) < 0) {
		ret = error_git("cannot open the object database");
		goto out;
	}
	memset(&id, 0xff, sizeof(id));
	git_odb_exists(odb, &id);
	for (i = 0; !ret && i < nr; i++) {
		len = strlen(names[i]);
		if (len < 4 || strcmp(names[i] + len - 4, ".idx"))
			continue;
		strbuf_reset(&idx);
		strbuf_addf(&idx, "%s/%s", packdir, names[i]);
		strbuf_reset(&pack);
		strbuf_addf(&pack, "%s/%.*s.pack", packdir, (int)(len - 4),
			    names[i]);
		/* git and libgit2 pass over an index whose pack is gone. */
		if (stat(pack.buf, &st) < 0 || !first_object(&id, idx.buf))
			continue;
		if (!git_odb_exists(odb, &id))
			ret = error("cannot open pack '%s': %s", pack.buf,
				    open_error(idx.buf, pack.buf));
	}
	git_error_clear();
out:
	git_odb_free(odb);
	strbuf_release(&idx);
	strbuf_release(&pack);
	free_string_array(names, nr);
	free(packdir);
	return ret;
}

/*
 * Opens the repository of each worker but the first (the caller's) and
 * maps the packs of all, one after the other in the main thread before
 * any thread starts: what cannot be opened (memory is short, say) is
 * one error before any work is done, and no two threads are ever inside
 * git_repository_open() at once.  The threads then only read objects.
 */
static int open_repos(struct pid_worker *workers, int jobs)
{
	struct pid_work *w = workers[0].work;
	int i;

	for (i = 0; i < jobs; i++) {
		if (i && git_repository_open(&workers[i].repo, w->gitdir) < 0)
			return error_git("cannot open repository '%s' for thread %d",
					 w->gitdir, i + 1);
		if (i && w->private_packs && own_packs(&workers[i]) < 0)
			return -1;
		if (patchid_map_packs(workers[i].repo) < 0)
			return -1;
	}
	return 0;
}

/* Frees the repositories of workers [from, jobs), from 1 or more. */
static void free_repos(struct pid_worker *workers, int from, int jobs)
{
	int i;

	for (i = from; i < jobs; i++) {
		git_repository_free(workers[i].repo);
		workers[i].repo = NULL;
	}
}

static void worker_run(struct pid_worker *wk)
{
	struct pid_work *w = wk->work;
	size_t begin, end, i;

	while (take_batch(w, &begin, &end))
		for (i = begin; i < end; i++) {
			/* Interrupted: what is done is kept (done). */
			if (interrupted() ||
			    compute_one(wk, wk->repo, &w->items[i]) < 0)
				return;
			w->items[i].done = 1;
			/* The batches are taken in order: about i are done. */
			if (!wk->nth)
				progress_update(&w->progress, i + 1);
		}
}

static void *worker_thread(void *arg)
{
	worker_run(arg);
	/* libgit2 keeps the last error per thread: leave none behind. */
	git_error_clear();
	return NULL;
}

/*
 * A thread that cannot start costs time, not results: the others share
 * out its batches.  glibc says EAGAIN both when the thread's stack
 * cannot be mapped (memory, ulimit -v) and when there are too many
 * threads, so the warning names both.
 */
static void warn_no_thread(int err, int started)
{
	if (err == EAGAIN || err == ENOMEM)
		warning_aside("cannot start a thread (out of memory, or too many "
			      "threads): %s; going on with %d",
			      strerror(err), started);
	else
		warning_aside("cannot start a thread: %s; going on with %d",
			      strerror(err), started);
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
 * addresses are short.
 *
 * Their maps count in libgit2's one limit on mapped memory (set in
 * main()) with the caller's: the least recently used window goes
 * first, whoever mapped it.  The limit was once raised for each
 * worker, and never put back: on the 1,000,000-commit bench that was
 * 300 MB more at the peak of a cold run (the checks after mapped up to
 * twice as much too), for no time the patch-ids took less; on openzfs,
 * whose pack fits in the limit twice, it changes nothing.
 */
static int want_private_packs(const char *objdir, int jobs)
{
	size_t packs;
	struct rlimit rl;

	if (jobs < 2 || sizeof(void *) < 8 || getrlimit(RLIMIT_NOFILE, &rl) < 0)
		return 0;
	packs = count_packs(objdir) + 1;
	return rl.rlim_cur == RLIM_INFINITY ||
	       packs * (size_t)jobs <= (size_t)rl.rlim_cur / 4;
}

int patchid_default_jobs(void)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);

	if (n < 1)
		return 1;
	return n > PATCHID_MAX_JOBS ? PATCHID_MAX_JOBS : (int)n;
}

int patchid_jobs_for(size_t nr)
{
	size_t pay = nr / PATCHID_PER_THREAD + 1;
	int jobs = patchid_default_jobs();

	return pay < (size_t)jobs ? (int)pay : jobs;
}

int patchid_compute_all(git_repository *repo, struct patchid_job *items,
			size_t nr, int jobs)
{
	struct pid_worker *workers;
	struct pid_work w;
	size_t j;
	int i, started, ret = 0;

	if (jobs <= 0)
		jobs = patchid_jobs_for(nr);
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
	trace_printf("patch-id: %zu commits, %d thread%s, %s packs", nr, jobs,
		     jobs == 1 ? "" : "s", w.private_packs ? "private" : "shared");
	pthread_mutex_init(&w.lock, NULL);
	workers = xcalloc((size_t)jobs, sizeof(*workers));
	for (i = 0; i < jobs; i++) {
		workers[i].work = &w;
		workers[i].nth = i;
	}
	workers[0].repo = repo;
	if (open_repos(workers, jobs) < 0) {
		ret = -1;
		goto out;
	}

	for (started = 1; started < jobs; started++) {
		int err = pthread_create(&workers[started].thread, NULL,
					 worker_thread, &workers[started]);

		if (err) {
			warn_no_thread(err, started);
			break;
		}
	}
	/* What the threads that did not start would have used goes back. */
	free_repos(workers, started, jobs);
	progress_start(&w.progress, "Patch ids", nr);
	worker_run(&workers[0]);
	for (i = 1; i < started; i++)
		pthread_join(workers[i].thread, NULL);
	/* The line ends on what was done, not on worker 0's last. */
	for (j = 0, w.progress.n = 0; j < nr; j++)
		w.progress.n += items[j].done;
	progress_stop(&w.progress);
	if (interrupted())
		ret = -1;

	for (i = 0; i < started; i++) {
		if (!workers[i].error)
			continue;
		ret = error("%s", workers[i].error);
		free(workers[i].error);
	}
out:
	/* The workers' threads could not: warned here, in order. */
	for (j = 0; j < nr; j++) {
		if (!items[j].malformed)
			continue;
		if (!ret)
			malformed_warn(&items[j].commit, items[j].malformed,
				       "read without its author or date");
		free(items[j].malformed);
		items[j].malformed = NULL;
	}
	free_repos(workers, 1, jobs);
	pthread_mutex_destroy(&w.lock);
	free(w.objdir);
	free(workers);
	return ret;
}
