#ifndef PATCHID_POOL_H
#define PATCHID_POOL_H

#include <git2.h>
#include <stddef.h>

/*
 * Patch-ids of many commits on several cores (git patch-id --stable's,
 * see patchid.h).  The workers take the commits in batches from a
 * shared counter, each with its own git_repository (libgit2 objects
 * must not cross threads) and, where the descriptors allow, its own
 * mapping of the packs, and write each result into its commit's job.
 */

#define PATCHID_MAX_JOBS 64

/* One commit, and what the workers found out about it. */
struct patchid_job {
	git_oid commit;
	git_oid id;			/* its patch-id, if has_id */
	int has_id;			/* 0: a merge or no change, no line */
	git_time_t time;		/* committer date, for the order */
	git_oid *parents;
	size_t nr_parents;
	/*
	 * libgit2's reason when the commit is malformed (src/malformed.h):
	 * its patch-id is that of its trees; the main thread warns.
	 */
	char *malformed;
	int done;			/* computed (not when interrupted) */
};

/*
 * Opens every pack of repo now, its index mapped.  libgit2 does that at
 * the first look-up in a pack, and takes a pack it cannot open (its
 * index cannot be mapped when memory is short) for one without the
 * object: "object not found" or "bad revision" for what is there, in
 * the middle of the work.  Returns 0, or -1 after an error message that
 * says why a pack could not be opened.
 */
int patchid_map_packs(git_repository *repo);

/* One per online CPU, at most PATCHID_MAX_JOBS. */
int patchid_default_jobs(void);

/*
 * Each thread past the first costs a repository opened and its packs
 * mapped again: on a 100,000-commit history about 50 ms and 50 MiB,
 * which 121 patch-ids (80 ms on one thread) never win back.  A thread
 * is added for each PATCHID_PER_THREAD commits.
 */
#define PATCHID_PER_THREAD 1024

/* patchid_default_jobs(), but no more than nr commits pay for. */
int patchid_jobs_for(size_t nr);

/*
 * Fills in the jobs (nr) with threads threads: the main thread, with
 * repo, and threads - 1 more, each with a repository of its own;
 * threads 0 for patchid_jobs_for(nr).  A
 * merge gets its parents and no patch-id, nor does a commit with no
 * change; a malformed commit is named in a warning.  Returns 0, or -1
 * after printing every worker's error, or when interrupted (util.h's
 * interrupted(): the jobs marked done are).  A progress line counts
 * them ("Patch ids").
 */
int patchid_compute_all(git_repository *repo, struct patchid_job *jobs,
			size_t nr, int threads);

#endif
