#ifndef LOCKFILE_H
#define LOCKFILE_H

#include <stddef.h>

/*
 * Replacing a file that runs read, change and write back (the ledger,
 * the state of --since last), as git's lockfile.c does: "PATH.lock" is
 * created with O_CREAT|O_EXCL, so that a second run waits for the first;
 * the new content is written to it, synced, and renamed over PATH.
 * Readers see the old file or the new one, never half of one; a failure
 * or a crash at any point leaves the old file as it was.
 *
 *     struct lockfile lk;
 *     if (lockfile_take(&lk, path, "ledger") < 0)
 *             return -1;
 *     ... read path again (another run may have changed it) ...
 *     return lockfile_commit(&lk, buf, len);   or lockfile_rollback(&lk)
 *
 * A run that finds the lock taken retries for 5 seconds
 * (STABLEPICK_LOCK_TIMEOUT, in seconds, overrides) and then fails with
 * "<what> 'PATH' is locked by another run (remove 'PATH.lock' if no
 * stablepick is running)".  SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGPIPE
 * and running out of memory remove the lock before the process dies
 * (hold_file() in util.h); after a kill -9 the lock stays, and the
 * message says what to do, as git's does.  One lock at a time.
 */
struct lockfile {
	char *path;
	char *lock;
	const char *what;
	int fd;
};

/* Returns 0, or -1 after an error message. */
int lockfile_take(struct lockfile *lk, const char *path, const char *what);

/*
 * Writes buf to the lock, syncs it, renames it over the file and syncs
 * the directory; the lock is released either way.  Returns 0, or -1
 * after an error message with the old file intact.
 */
int lockfile_commit(struct lockfile *lk, const void *buf, size_t len);

/* Removes the lock, leaving the file as it was. */
void lockfile_rollback(struct lockfile *lk);

#endif
