#include "base/trace.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/resource.h>
#include <time.h>

static int enabled = -1;
static double start, last;

static double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static int trace_enabled(void)
{
	if (enabled < 0) {
		const char *env = getenv("STABLEPICK_TRACE");

		enabled = env && *env && strcmp(env, "0");
		start = last = now_ms();
	}
	return enabled;
}

void trace_printf(const char *fmt, ...)
{
	va_list ap;

	if (!trace_enabled())
		return;
	fputs("trace: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

/* The peak resident set of the process so far, in MiB; 0 if unknown. */
static double peak_mib(void)
{
	struct rusage ru;

	if (getrusage(RUSAGE_SELF, &ru) < 0)
		return 0;
	return ru.ru_maxrss / 1024.0;	/* Linux counts KiB */
}

/*
 * The resident set now, as /proc/self/status splits it: anonymous
 * memory (the heap) and pages of mapped files (packs, the
 * commit-graph), in MiB; 0 when unknown.
 */
static void rss_now(double *anon, double *file)
{
	FILE *fp = fopen("/proc/self/status", "r");
	char line[256];
	unsigned long kb;

	*anon = *file = 0;
	if (!fp)
		return;
	while (fgets(line, sizeof(line), fp)) {
		if (sscanf(line, "RssAnon: %lu kB", &kb) == 1)
			*anon = kb / 1024.0;
		else if (sscanf(line, "RssFile: %lu kB", &kb) == 1)
			*file = kb / 1024.0;
	}
	fclose(fp);
}

/*
 * For the tests: STABLEPICK_TEST_INTERRUPT=NAME sends the process a
 * SIGINT as stage NAME ends, as if Ctrl-C had been pressed then.
 */
static void test_interrupt(const char *name)
{
	const char *env = getenv("STABLEPICK_TEST_INTERRUPT");

	if (env && !strcmp(env, name))
		raise(SIGINT);
}

void trace_stage(const char *name)
{
	double t, anon, file;

	test_interrupt(name);
	if (!trace_enabled())
		return;
	t = now_ms();
	rss_now(&anon, &file);
	fprintf(stderr, "trace: %-20s %9.1f ms  (total %.1f ms, peak %.1f MiB; "
		"now %.0f heap, %.0f files)\n", name, t - last, t - start,
		peak_mib(), anon, file);
	last = t;
}
