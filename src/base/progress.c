#include "base/progress.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/*
 * Seconds before the line shows: half a second, or
 * STABLEPICK_PROGRESS_DELAY (as git's GIT_PROGRESS_DELAY; 0 shows it at
 * once, for the tests).
 */
static double delay(void)
{
	static double d = -1;

	if (d < 0) {
		const char *env = getenv("STABLEPICK_PROGRESS_DELAY");
		char *end;

		d = 0.5;
		if (env && *env) {
			double v = strtod(env, &end);

			if (!*end && v >= 0)
				d = v;
		}
	}
	return d;
}

/*
 * For the tests: STABLEPICK_TEST_INTERRUPT="TITLE N" sends the process
 * a SIGINT when the progress TITLE reaches N, as if Ctrl-C had been
 * pressed then (trace.c does the same at the end of a stage).
 */
static const char *hook;
static size_t hook_len, hook_n;

static void read_hook(void)
{
	static int read;
	const char *env, *sp;

	if (read)
		return;
	read = 1;
	env = getenv("STABLEPICK_TEST_INTERRUPT");
	sp = env ? strrchr(env, ' ') : NULL;
	if (!sp || !sp[1])
		return;
	hook = env;
	hook_len = (size_t)(sp - env);
	hook_n = strtoul(sp + 1, NULL, 10);
}

static void test_interrupt(const struct progress *p)
{
	if (p->n == hook_n && strlen(p->title) == hook_len &&
	    !strncmp(p->title, hook, hook_len))
		raise(SIGINT);
}

/*
 * The progress that has the line: one started while another runs (the
 * trial picks of a series search, of a patch) is silent.
 */
static const struct progress *owner;

void progress_start(struct progress *p, const char *title, size_t total)
{
	read_hook();
	p->title = title;
	p->total = total;
	p->n = 0;
	p->shown = 0;
	p->ticks = 0;
	p->enabled = !owner && isatty(2);
	if (p->enabled)
		owner = p;
	p->start = p->last = p->enabled ? now() : 0;
}

static void show(struct progress *p, const char *end)
{
	if (p->total)
		fprintf(stderr, "\r%s: %3u%% (%zu/%zu)%s", p->title,
			(unsigned int)(p->n * 100 / p->total), p->n, p->total, end);
	else
		fprintf(stderr, "\r%s: %zu%s", p->title, p->n, end);
	fflush(stderr);
	p->shown = 1;
}

void progress_update(struct progress *p, size_t n)
{
	double t;

	p->n = n;
	if (hook)
		test_interrupt(p);
	if (!p->enabled)
		return;
	if (!p->shown && !delay()) {
		p->last = now();
		show(p, "");
		return;
	}
	/* Reading the clock is cheap, but not free: once in 64 calls. */
	if (++p->ticks & 63)
		return;
	t = now();
	if (t - p->start < delay() || t - p->last < 0.1)
		return;
	p->last = t;
	show(p, "");
}

void progress_set_total(struct progress *p, size_t total)
{
	p->total = total;
}

void progress_stop(struct progress *p)
{
	if (p->enabled && p->shown)
		show(p, ", done.\n");
	if (owner == p)
		owner = NULL;
	p->enabled = 0;
}
