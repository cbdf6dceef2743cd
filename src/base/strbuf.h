#ifndef STRBUF_H
#define STRBUF_H

#include <stdarg.h>
#include <stddef.h>

/*
 * A growable, always NUL-terminated byte buffer, after git's strbuf.
 *
 *     struct strbuf sb = STRBUF_INIT;
 *     strbuf_addf(&sb, "%s:%u: ", path, lineno);
 *     strbuf_addstr(&sb, "message");
 *     puts(sb.buf);
 *     strbuf_release(&sb);
 *
 * `buf` is never NULL: an empty strbuf points at a shared empty string,
 * so it can be printed at once.  Allocation failure aborts.
 */
struct strbuf {
	size_t alloc;
	size_t len;
	char *buf;
};

extern char strbuf_slopbuf[];
#define STRBUF_INIT { 0, 0, strbuf_slopbuf }

void strbuf_init(struct strbuf *sb, size_t hint);
void strbuf_release(struct strbuf *sb);
/* Hands the buffer to the caller (who frees it) and re-initialises sb. */
char *strbuf_detach(struct strbuf *sb, size_t *len);
void strbuf_grow(struct strbuf *sb, size_t extra);
void strbuf_setlen(struct strbuf *sb, size_t len);
#define strbuf_reset(sb) strbuf_setlen((sb), 0)

void strbuf_add(struct strbuf *sb, const void *data, size_t len);
void strbuf_addstr(struct strbuf *sb, const char *s);
void strbuf_addbuf(struct strbuf *sb, const struct strbuf *other);
void strbuf_addch(struct strbuf *sb, int c);
void strbuf_addchars(struct strbuf *sb, int c, size_t n);
/* The code point cp (up to U+10FFFF) encoded in UTF-8. */
void strbuf_add_utf8(struct strbuf *sb, unsigned cp);
__attribute__((format(printf, 2, 3)))
void strbuf_addf(struct strbuf *sb, const char *fmt, ...);
void strbuf_vaddf(struct strbuf *sb, const char *fmt, va_list ap);

/* Removes whitespace at the end, at the start, or both. */
void strbuf_rtrim(struct strbuf *sb);
void strbuf_ltrim(struct strbuf *sb);
void strbuf_trim(struct strbuf *sb);

/* A newly allocated string, formatted like printf. */
__attribute__((format(printf, 1, 2)))
char *xstrfmt(const char *fmt, ...);
char *xstrvfmt(const char *fmt, va_list ap);

/*
 * Reads a whole file into sb (appending).  Returns 0, or -1 with errno
 * set; the caller reports the error.
 */
int strbuf_read_file(struct strbuf *sb, const char *path);
/* The same for what is left to read of fd (0: standard input). */
int strbuf_read_fd(struct strbuf *sb, int fd);

/*
 * Reads a file someone else made, which may be anything: path is read
 * into sb (appending) only when it is a regular file of at most max
 * bytes.  A symbolic link is not followed (it may point at /dev/zero or
 * at a file of the user's), a FIFO is not waited on, a device is not
 * opened (lstat() first, then open() with O_NOFOLLOW | O_NONBLOCK and
 * fstat() of what was opened), and no more than max bytes are read of
 * a file that grows as it is read.
 *
 * Returns 1 when it was read; 0 when it was not, with why (appended)
 * saying what it is, never what it holds: "a FIFO, not a regular
 * file", "larger than 1048576 bytes"; -1 with errno set when it cannot
 * be opened or read (ENOENT when there is none).  The caller names the
 * file, as a warning when it goes on without it:
 *
 *     r = strbuf_read_regular(&sb, path, CAP, &why);
 *     if (r < 0)
 *             return error("cannot read '%s': %s", path, strerror(errno));
 *     if (!r)
 *             warning("skipping '%s': %s", path, why.buf);
 */
int strbuf_read_regular(struct strbuf *sb, const char *path, size_t max,
			struct strbuf *why);

/*
 * Appends p[0..len) to be quoted in a message to the user: at most max
 * bytes of it, then "...", with control characters and bytes that are
 * not UTF-8 as '?'.
 */
void strbuf_add_quoted(struct strbuf *sb, const char *p, size_t len,
		       size_t max);

#endif
