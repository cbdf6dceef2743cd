#include "error.h"
#include "strbuf.h"

#include <git2.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

const char *error_progname = "stablepick";

static struct strbuf *captured;

void error_capture(struct strbuf *sb)
{
	captured = sb;
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

int error_git(const char *fmt, ...)
{
	const git_error *e = git_error_last();
	va_list ap;

	va_start(ap, fmt);
	report("error: ", fmt, ap, e && e->message ? e->message : "unknown libgit2 error");
	va_end(ap);
	return -1;
}
