#ifndef TRACE_H
#define TRACE_H

/*
 * Stage timings for whoever tunes stablepick: with STABLEPICK_TRACE set
 * (to anything but "0" or empty), each trace_stage() prints the time since
 * the previous one, and since the start, and the process's peak resident
 * memory so far (getrusage()'s ru_maxrss: the stage that raises it is the
 * one that needed it), to stderr:
 *
 *   trace: scan         812.4 ms  (total 901.0 ms, peak 212.3 MiB)
 *
 * as GIT_TRACE_PERFORMANCE does for git.  Without it, nothing is printed
 * and a call costs one branch.
 */
void trace_stage(const char *name);

/* A line of its own, "trace: ...", under the same switch. */
__attribute__((format(printf, 1, 2)))
void trace_printf(const char *fmt, ...);

#endif
