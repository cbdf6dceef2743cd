#include "base/error.h"
#include "base/strbuf.h"
#include "base/util.h"

#include <errno.h>
#include <git2.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *error_progname = "stablepick";

static struct strbuf *captured;

void error_capture(struct strbuf *sb)
{
	captured = sb;
}

/* A byte of a word: a quote next to one is an apostrophe, not a quote. */
static int word_byte(int c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9');
}

void error_shorten(struct strbuf *sb, size_t from)
{
	struct strbuf out = STRBUF_INIT;
	size_t i = from, j, keep;

	strbuf_add(&out, sb->buf, from);
	while (i < sb->len) {
		char q = sb->buf[i];

		if ((q != '\'' && q != '"') ||
		    (i > from && word_byte((unsigned char)sb->buf[i - 1]))) {
			strbuf_addch(&out, q);
			i++;
			continue;
		}
		/* Its closing quote: one not followed by a word's byte. */
		for (j = i + 1; j < sb->len; j++)
			if (sb->buf[j] == q && (j + 1 == sb->len ||
			    !word_byte((unsigned char)sb->buf[j + 1])))
				break;
		if (j == sb->len || j - i - 1 <= ERROR_QUOTE_LONG) {
			strbuf_addch(&out, q);
			i++;
			continue;
		}
		/* Cut at a character's start, not inside a UTF-8 sequence. */
		keep = ERROR_QUOTE_KEEP;
		while (keep && ((unsigned char)sb->buf[i + 1 + keep] & 0xc0) == 0x80)
			keep--;
		strbuf_addch(&out, q);
		strbuf_add(&out, sb->buf + i + 1, keep);
		strbuf_addf(&out, "...%c (%zu bytes)", q, j - i - 1);
		i = j + 1;
	}
	strbuf_release(sb);
	*sb = out;
}

static void report_to(const char *prefix, const char *fmt, va_list ap,
		      const char *tail, int capture)
{
	struct strbuf sb = STRBUF_INIT;

	strbuf_addstr(&sb, prefix);
	strbuf_vaddf(&sb, fmt, ap);
	if (tail && *tail) {
		strbuf_addstr(&sb, ": ");
		strbuf_addstr(&sb, tail);
	}
	/* A 1 MB pattern is not repeated whole in its error. */
	if (sb.len > ERROR_QUOTE_LONG)
		error_shorten(&sb, strlen(prefix));
	strbuf_addch(&sb, '\n');
	fflush(stdout);
	fputs(sb.buf, stderr);
	if (capture && captured)
		strbuf_addbuf(captured, &sb);
	strbuf_release(&sb);
}

static void report(const char *prefix, const char *fmt, va_list ap,
		   const char *tail)
{
	report_to(prefix, fmt, ap, tail, 1);
}

int error(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	report("error: ", fmt, ap, NULL);
	va_end(ap);
	return -1;
}

void warning(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	report("warning: ", fmt, ap, NULL);
	va_end(ap);
}

void warning_aside(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	report_to("warning: ", fmt, ap, NULL, 0);
	va_end(ap);
}

void say(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	report("", fmt, ap, NULL);
	va_end(ap);
}

void bug_fl(const char *file, int line, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "BUG: %s:%d: ", file, line);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	abort();
}

/*
 * libgit2 1.5 words memory running out in several ways: "Out of
 * memory" (GIT_ERROR_NOMEMORY), a pack it cannot map ("failed to mmap.
 * Could not write data: Cannot allocate memory": GIT_ERROR_OS, which
 * ends in strerror(errno)), and zlib's own allocation failing, which it
 * rewrites as "failed to init zlib stream on unpack" (GIT_ERROR_ZLIB;
 * inflateInit() has no other failure at run time).
 */
static int is_memory(const git_error *e)
{
	const char *enomem = strerror(ENOMEM);
	size_t len = strlen(e->message), elen = strlen(enomem);

	switch (e->klass) {
	case GIT_ERROR_NOMEMORY:
		return 1;
	case GIT_ERROR_OS:
		return len >= elen && !strcmp(e->message + len - elen, enomem);
	case GIT_ERROR_ZLIB:
		return starts_with(e->message, "failed to init ");
	}
	return 0;
}

int error_git_memory(void)
{
	const git_error *e = git_error_last();

	return e && e->message && is_memory(e);
}

const char *error_git_cause(void)
{
	const git_error *e = git_error_last();

	if (!e || !e->message)
		return "unknown libgit2 error";
	return is_memory(e) ? "out of memory" : e->message;
}

int error_git(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	report("error: ", fmt, ap, error_git_cause());
	va_end(ap);
	return -1;
}
