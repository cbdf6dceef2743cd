#ifndef UTIL_H
#define UTIL_H

#include <stddef.h>
#include <stdlib.h>

/*
 * Allocation that never returns NULL: running out of memory is not an
 * error stablepick can recover from, so these end the program with
 * "fatal: out of memory" and exit status 1.
 */
__attribute__((noreturn)) void die_oom(void);
void *xmalloc(size_t size);

/*
 * A file this process is writing and removes if it dies first, as
 * git's tempfile.c does: a lock ("PATH.lock") or a temporary file
 * about to be renamed over another.  SIGHUP, SIGINT, SIGQUIT, SIGTERM,
 * SIGPIPE and die_oom() remove every file held, then the process ends
 * as it would have.  path is borrowed until drop_file(path); at most 8
 * at once.  (kill -9 leaves them; the messages about a lock say what to
 * do.)
 */
void hold_file(const char *path);
void drop_file(const char *path);
/* Removes the files held; async-signal-safe (for die_oom()). */
void remove_held_files(void);
/*
 * Ctrl-C that keeps finished work, as git's long commands do: from
 * interrupt_defer() on, the first SIGINT or SIGTERM is only noted, and
 * interrupted() returns it.  The stages check it between their steps
 * and stop as after an error (returning -1 with no message); the run
 * then saves what its finished steps can be trusted with and main()
 * calls interrupt_raise(), which ends the process as the signal would
 * have (exit status 130 for SIGINT in a shell).  A second signal ends
 * the process at once, removing the files held.
 *
 *     interrupt_defer();
 *     for (...) {
 *             if (interrupted())
 *                     return -1;
 *             ... one step ...
 *     }
 */
void interrupt_defer(void);
int interrupted(void);
/* Ends the process by the signal noted; returns when there is none. */
void interrupt_raise(void);
void *xcalloc(size_t nmemb, size_t size);
void *xrealloc(void *ptr, size_t size);
char *xstrdup(const char *s);
char *xstrndup(const char *s, size_t n);

/*
 * Makes libgit2 allocate with the functions above, after
 * git_libgit2_init().  libgit2 1.5 does not check every allocation (a
 * revision walk stores a failed one as a commit's parent and follows
 * it), and the failures it does check are often reported as something
 * else on the way up; with this, memory running out ends the program
 * as it does in stablepick's own code.
 */
void xmalloc_for_libgit2(void);

/* Frees the nr strings of v, then v itself. */
void free_string_array(char **v, size_t nr);
/* Appends a copy of s to the strings *v unless they hold it already. */
void add_string_once(char ***v, size_t *nr, size_t *alloc, const char *s);

/* Grows *arr (of *alloc elements) so that it holds at least nr + 1. */
#define ALLOC_GROW(arr, nr, alloc) \
	do { \
		if ((nr) >= (alloc)) { \
			(alloc) = (alloc) ? (alloc) * 2 : 8; \
			(arr) = xrealloc((arr), (alloc) * sizeof(*(arr))); \
		} \
	} while (0)

/* Makes room for n more elements and adds n to nr, as git's does. */
#define ALLOC_GROW_BY(arr, nr, n, alloc) \
	do { \
		if ((nr) + (n) > (alloc)) { \
			(alloc) = (nr) + (n) > (alloc) * 2 ? (nr) + (n) : (alloc) * 2; \
			(arr) = xrealloc((arr), ((alloc) ? (alloc) : 1) * sizeof(*(arr))); \
		} \
		(nr) += (n); \
	} while (0)

/*
 * Empties the uthash table head (handle hh) and frees each entry with
 * free_entry: free, or a function that frees what an entry owns, then
 * the entry.  el and tmp are two pointers of the entry's type:
 *
 *     struct entry *e, *tmp;
 *     HASH_FREE_ALL(table, e, tmp, free);
 */
#define HASH_FREE_ALL(head, el, tmp, free_entry) \
	do { \
		HASH_ITER(hh, head, el, tmp) { \
			HASH_DEL(head, el); \
			free_entry(el); \
		} \
	} while (0)

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/*
 * qsort() of nr elements of base, after git's QSORT: an empty array may
 * be NULL, which qsort() itself must not be given.
 */
#define QSORT(base, nr, cmp) \
	do { \
		if ((nr) > 1) \
			qsort((base), (nr), sizeof(*(base)), (cmp)); \
	} while (0)

/* Case-insensitive ASCII comparisons, independent of the locale. */
int ascii_strcasecmp(const char *a, const char *b);
int ascii_strncasecmp(const char *a, const char *b, size_t n);

/*
 * Length of the valid UTF-8 sequence at s (at most avail bytes): 1 to 4,
 * or 0 when it is not valid (overlong, surrogate, truncated, ...).
 */
size_t utf8_seq_len(const unsigned char *s, size_t avail);

/* write(2) until all of buf is written; 0, or -1 with errno set. */
int write_in_full(int fd, const void *buf, size_t len);

/*
 * Creates the directories leading to path (not path itself); 0, or -1
 * after an error message.
 */
int mkdir_leading(const char *path);

/*
 * Syncs the directory that holds path, so that a rename into it is
 * durable; a failure is ignored (it loses nothing that was written).
 */
void fsync_dir_of(const char *path);

/*
 * Replaces the file at path with buf: written to "<path>.tmp.XXXXXX"
 * (a name of its own, mkstemp(3)) in the same directory (created if
 * missing), synced, then renamed over path, so that a crash never
 * leaves a half-written file and two runs writing at once leave one
 * whole file, the last one's (for caches; files that runs read, change
 * and write back take a lock, see lockfile.h).  what names the
 * file in errors ("patch-id cache").  Returns 0, or -1 after an error
 * message with the old file left as it was.
 */
int write_file_atomic(const char *path, const void *buf, size_t len,
		      const char *what);
/*
 * The same for a file that must not exist yet: the whole file appears
 * at path (linked from the temporary one) or nothing does, and a file
 * already there, even one made meanwhile, is an error and left alone.
 */
int write_file_new(const char *path, const void *buf, size_t len,
		   const char *what);
/*
 * The same for a file that only saves time (a cache): what fails is a
 * warning, not kept with a memo's answer, since the run goes on and
 * exits 0.  Returns 0 or -1 after the warning.
 */
int write_file_atomic_warn(const char *path, const void *buf, size_t len,
			   const char *what);

/* A piece of a file written from several buffers, in order. */
struct file_part {
	const void *buf;
	size_t len;
};

/* write_file_atomic_warn() of the parts, one after the other. */
int write_parts_atomic_warn(const char *path, const struct file_part *parts,
			    size_t nr, const char *what);

/* Days from 1970-01-01 to y-m-d in the proleptic Gregorian calendar. */
long long days_from_civil(int y, int m, int d);

/*
 * If str begins with prefix, points *out just past it and returns 1;
 * otherwise returns 0 and leaves *out alone.  As git's skip_prefix():
 *
 *     if (skip_prefix(line, "epoch ", &p))
 *             ... p is what follows "epoch " ...
 */
static inline int skip_prefix(const char *str, const char *prefix,
			      const char **out)
{
	for (; *prefix; str++, prefix++)
		if (*str != *prefix)
			return 0;
	*out = str;
	return 1;
}

/*
 * Whether str begins with prefix, as git's starts_with(); a prefix
 * spelt out in the call instead of a strncmp() with its length counted
 * by hand.
 */
static inline int starts_with(const char *str, const char *prefix)
{
	const char *rest;

	return skip_prefix(str, prefix, &rest);
}

/* Non-zero if s is made of n (or, if n is 0, all) hexadecimal digits. */
int is_hex(const char *s, size_t n);

/*
 * The one of names (nr, NULL-terminated when nr is 0) that word most
 * likely misspells, for a "did you mean": the only name word begins
 * (three letters or more), else the nearest within two edits (a letter
 * added, removed, changed, or two swapped) and fewer than its length;
 * else NULL.
 */
const char *suggest_name(const char *word, const char *const *names,
			 size_t nr);

/*
 * Prints "hint: did you mean 'PREFIXNAME'?" on stderr when the first
 * len bytes of word most likely misspell NAME of names (suggest_name()).
 */
void hint_similar(const char *word, size_t len, const char *const *names,
		  size_t nr, const char *prefix);

/*
 * A "did you mean" that may name several, as git's help.c finds the
 * commands near a misspelt one: each name offered is scored against
 * the word (suggest_score()), and the hint names every one of the
 * lowest score, when that is below SUGGEST_FLOOR.
 *
 *     struct suggest sg = SUGGEST_INIT;
 *     for each name:
 *             suggest_offer(&sg, word, name, name);
 *     suggest_hint(&sg);
 *     suggest_release(&sg);
 */
#define SUGGEST_FLOOR 7

struct suggest {
	char **shown;		/* what the hint would print, as offered */
	int *score;
	size_t nr, alloc;
};

#define SUGGEST_INIT { NULL, NULL, 0, 0 }

/*
 * The weighted edits from a to b (git's levenshtein(), an optimal
 * string alignment): swap costs two adjacent letters swapped, change
 * one replaced, add one added to a, del one deleted from a.
 */
int levenshtein(const char *a, const char *b, int swap, int change, int add,
		int del);

/*
 * How near word is to name, as git's help.c scores a command: 0 when
 * name begins with word, or holds it (three letters or more); else
 * levenshtein(word, name, 0, 2, 1, 3) + 1: a swap is free, an added
 * letter cheap, a deleted one dear.  Lower is nearer.
 */
int suggest_score(const char *word, const char *name);

/*
 * Offers shown, scored by how near word is to name (a name compared
 * may differ from the one shown: "linux-6.6.y" for "origin/linux-6.6.y");
 * offered again, it keeps its best score.
 */
void suggest_offer(struct suggest *sg, const char *word, const char *name,
		   const char *shown);

/*
 * Prints the nearest names on stderr: "hint: did you mean 'NAME'?", or
 * for several "hint: did you mean one of these?" and a line each, in
 * the order offered.  Nothing when none is near enough.  Returns how
 * many it named.
 */
size_t suggest_hint(const struct suggest *sg);

void suggest_release(struct suggest *sg);

/* For QSORT of ints, ascending. */
int cmp_int(const void *a, const void *b);
/* For QSORT of long longs (scores), ascending. */
int cmp_llong(const void *a, const void *b);

/* For QSORT of strings (an array of char *), in strcmp() order. */
int cmp_str(const void *a, const void *b);

/*
 * The names in directory path, sorted, "." and ".." left out, into
 * *names (free_string_array()).  Returns 0, 1 if it does not exist and
 * missing_ok, or -1 after "error: cannot read 'PATH': ...".
 */
int dir_names(const char *path, int missing_ok, char ***names, size_t *nr);

/* Whether dir/name is a directory (following symbolic links). */
int is_dir_in(const char *dir, const char *name);

/*
 * The columns text output fits in, as git's term_columns() finds them:
 * $COLUMNS when it is a number, else the terminal's width when standard
 * output is one, else (a file, a pipe) TERM_COLUMNS_PIPE.  Never fewer
 * than TERM_COLUMNS_MIN.
 */
#define TERM_COLUMNS_PIPE 100
#define TERM_COLUMNS_MIN 40
size_t term_columns(void);

#endif
