#include "base/lockfile.h"
#include "base/error.h"
#include "base/strbuf.h"
#include "base/util.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define LOCK_TIMEOUT_DEFAULT 5.0

static double monotonic_seconds(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static int lock_timeout(double *out)
{
	const char *env = getenv("STABLEPICK_LOCK_TIMEOUT");
	char *end;

	*out = LOCK_TIMEOUT_DEFAULT;
	if (!env || !*env)
		return 0;
	errno = 0;
	*out = strtod(env, &end);
	if (errno || *end || !(*out >= 0))
		return error("bad STABLEPICK_LOCK_TIMEOUT '%s' (expected "
			     "seconds)", env);
	return 0;
}

static void release(struct lockfile *lk)
{
	if (lk->lock)
		drop_file(lk->lock);
	if (lk->fd >= 0)
		close(lk->fd);
	lk->fd = -1;
	free(lk->path);
	free(lk->lock);
	lk->path = lk->lock = NULL;
}

int lockfile_take(struct lockfile *lk, const char *path, const char *what)
{
	double timeout, start;

	memset(lk, 0, sizeof(*lk));
	lk->fd = -1;
	if (lock_timeout(&timeout) < 0 || mkdir_leading(path) < 0)
		return -1;
	lk->path = xstrdup(path);
	lk->lock = xstrfmt("%s.lock", path);
	lk->what = what;
	start = monotonic_seconds();
	for (;;) {
		lk->fd = open(lk->lock, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC,
			      0666);
		if (lk->fd >= 0)
			break;
		if (errno != EEXIST) {
			error("cannot create '%s': %s", lk->lock, strerror(errno));
			release(lk);
			return -1;
		}
		if (monotonic_seconds() - start >= timeout) {
			error("%s '%s' is locked by another run (remove '%s' if "
			      "no stablepick is running)", what, path, lk->lock);
			release(lk);
			return -1;
		}
		usleep(20000);
	}
	/* A signal or running out of memory must not leave it stale. */
	hold_file(lk->lock);
	return 0;
}

void lockfile_rollback(struct lockfile *lk)
{
	if (lk->lock)
		unlink(lk->lock);
	release(lk);
}

int lockfile_commit(struct lockfile *lk, const void *buf, size_t len)
{
	int fd = lk->fd;

	lk->fd = -1;
	if (write_in_full(fd, buf, len) < 0 || fsync(fd) < 0) {
		error("cannot write '%s': %s", lk->lock, strerror(errno));
		close(fd);
		lockfile_rollback(lk);
		return -1;
	}
	if (close(fd) < 0) {
		error("cannot write '%s': %s", lk->lock, strerror(errno));
		lockfile_rollback(lk);
		return -1;
	}
	if (rename(lk->lock, lk->path) < 0) {
		error("cannot rename '%s' to '%s': %s", lk->lock, lk->path,
		      strerror(errno));
		lockfile_rollback(lk);
		return -1;
	}
	/* Now the next run's lock may have the name: never remove it. */
	drop_file(lk->lock);
	fsync_dir_of(lk->path);
	release(lk);
	return 0;
}
