#ifndef TESTREPO_H
#define TESTREPO_H

#include <stdarg.h>

/*
 * Throwaway repositories for unit tests, built with the git command at
 * fixed dates and identities, after git's test-lib:
 *
 *     char dir[] = "/tmp/test_x.XXXXXX";
 *     long tick = 1700000000;
 *     testrepo_create(dir);
 *     testrepo_git(dir, &tick, 60, "init -q -b master");
 *     ...
 *     testrepo_remove(dir);
 *
 * testrepo_create() points HOME at the directory and keeps the user's
 * and the system's configuration out.  Failures fail the running test.
 */
void testrepo_create(char *dir_template);

/*
 * Runs "git ARGS" in dir (stdout discarded) after moving *tick on by
 * step seconds, with that date as author and committer date; returns
 * the date.
 */
__attribute__((format(printf, 4, 5)))
long testrepo_git(const char *dir, long *tick, long step, const char *fmt, ...);
long testrepo_vgit(const char *dir, long *tick, long step, const char *fmt,
		   va_list ap);

void testrepo_remove(const char *dir);

#endif
