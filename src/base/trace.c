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
	double t;

	test_interrupt(name);
	if (!trace_enabled())
		return;
	t = now_ms();
	fprintf(stderr, "trace: %-20s %9.1f ms  (total %.1f ms, peak %.1f MiB)\n",
		name, t - last, t - start, peak_mib());
	last = t;
}
