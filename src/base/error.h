#ifndef ERROR_H
#define ERROR_H

#include <stddef.h>

/*
 * Error reporting, after git's usage.c.  error() prints
 * "error: <message>" to stderr and returns -1, so callers write
 *
 *     if (!f)
 *             return error("cannot read '%s': %s", path, strerror(errno));
 *
 * Messages are lower case, with no full stop, the failed action first
 * and names quoted.  warning() prints "warning: <message>".
 *
 * error_git() appends libgit2's last error message, error_git_cause();
 * call either only right after the libgit2 call that failed.  That is
 * "out of memory" whatever libgit2's words for it (a pack that cannot
 * be mapped, zlib that cannot start), so that the message says what
 * went wrong.  error_git_memory() tells whether it is, for a caller
 * that words a failure itself ("bad revision"), which must not hide it.
 */
__attribute__((format(printf, 1, 2))) int error(const char *fmt, ...);
__attribute__((format(printf, 1, 2))) void warning(const char *fmt, ...);
__attribute__((format(printf, 1, 2))) int error_git(const char *fmt, ...);
const char *error_git_cause(void);
int error_git_memory(void);

/*
 * say() prints a line that is part of the answer (on stderr: "nothing
 * to propose for X: no mail written").  warning_aside() is a warning
 * about this machine's files (a damaged cache, one that could not be
 * written), not about the answer.
 *
 * While error_capture() has set a buffer, the lines of error(),
 * warning(), error_git() and say() are also appended to it, so that a
 * kept answer (memo.h) shows them again; those of warning_aside() are
 * not.  error_capture(NULL) stops it.
 */
__attribute__((format(printf, 1, 2))) void say(const char *fmt, ...);
__attribute__((format(printf, 1, 2))) void warning_aside(const char *fmt, ...);
struct strbuf;
void error_capture(struct strbuf *sb);

/*
 * Messages quote what they are about ('%s', "%s"), and what a user or
 * a repository gave may be megabytes: every quoted part of a message
 * longer than ERROR_QUOTE_LONG bytes (longer than a path one would
 * type) keeps its first ERROR_QUOTE_KEEP (whole characters) and says
 * its length: "bad pattern 'aaaa...' (1048576 bytes)".  error(),
 * warning() and the others do it to their messages; error_shorten()
 * does it to sb from offset from, for tests.
 */
#define ERROR_QUOTE_LONG 256
#define ERROR_QUOTE_KEEP 80
void error_shorten(struct strbuf *sb, size_t from);

/*
 * BUG("...") for what cannot happen unless the code is wrong: prints
 * "BUG: file:line: message" and aborts.
 */
#define BUG(...) bug_fl(__FILE__, __LINE__, __VA_ARGS__)
__attribute__((format(printf, 3, 4), noreturn))
void bug_fl(const char *file, int line, const char *fmt, ...);

/* The program name printed before messages; "stablepick" by default. */
extern const char *error_progname;

#endif
