#ifndef ERROR_H
#define ERROR_H

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
 * error_git() appends libgit2's last error message; call it only right
 * after the libgit2 call that failed.
 */
__attribute__((format(printf, 1, 2))) int error(const char *fmt, ...);
__attribute__((format(printf, 1, 2))) void warning(const char *fmt, ...);
__attribute__((format(printf, 1, 2))) int error_git(const char *fmt, ...);

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
