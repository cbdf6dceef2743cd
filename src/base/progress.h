#ifndef PROGRESS_H
#define PROGRESS_H

#include <stddef.h>

/*
 * A progress line on stderr for long runs, as git prints one:
 *
 *     Scanning: 43% (301234/700000)
 *     Scanning: 301234 commits           (when the total is not known)
 *
 * redrawn in place at most ten times a second, and ended with ", done."
 * Nothing is printed when stderr is not a terminal, or before half a
 * second has passed (a quick run stays quiet; STABLEPICK_PROGRESS_DELAY
 * sets another delay in seconds, as GIT_PROGRESS_DELAY does git's).
 * A progress started while another runs (a stage's inner loop) prints
 * nothing: the outer one has the line.  Every progress_start() needs
 * its progress_stop().
 *
 *     struct progress p;
 *     progress_start(&p, "Scanning", total_or_0);
 *     for (...)
 *             progress_update(&p, n);
 *     progress_stop(&p);
 */
struct progress {
	const char *title;
	size_t total, n;
	int enabled, shown;
	double start, last;
	unsigned int ticks;
};

void progress_start(struct progress *p, const char *title, size_t total);
void progress_update(struct progress *p, size_t n);
/* The total, once it is known (0: none). */
void progress_set_total(struct progress *p, size_t total);
void progress_stop(struct progress *p);

#endif
