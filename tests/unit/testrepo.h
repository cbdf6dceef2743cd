#ifndef TESTREPO_H
#define TESTREPO_H

#include <git2.h>
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

/*
 * Runs the shell command cmd in dir, dated as testrepo_git() dates
 * ("echo x >a && git add a && git commit -q -m x"); returns the date.
 */
long testrepo_sh(const char *dir, long *tick, long step, const char *cmd);

/*
 * Writes line (a line of text) to path, making its directories, and
 * commits it with message, step seconds on.  Neither may hold a "'".
 */
long testrepo_change(const char *dir, long *tick, long step, const char *path,
		     const char *line, const char *message);

/* The object name names in repo (a revision that does not resolve fails). */
git_oid testrepo_rev(git_repository *repo, const char *name);

void testrepo_remove(const char *dir);

struct ruleset;
/*
 * Loads into rs the backport lines of the shipped default.rules (under
 * TEST_SRCDIR): the kernel's forms, which the branch index and the
 * presence engine read the upstream ids by.
 */
void testrepo_load_backports(struct ruleset *rs);

#endif
