#ifndef FUZZ_H
#define FUZZ_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

/*
 * The fuzz targets of tests/fuzz/: each file defines
 * LLVMFuzzerTestOneInput() around one parser of the library.  They are
 * linked two ways: with libFuzzer by clang (tests/fuzz/run), and with
 * tests/fuzz/replay.c by the normal build, so that `make check` runs
 * the corpus and every regression input through the same code.
 *
 * A target that defines LLVMFuzzerInitialize() has it called once
 * before the first input, by libFuzzer or by the replay.
 */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerInitialize(int *argc, char ***argv);

/*
 * A property the parser promises (in its header) that an input broke:
 * a finding like a crash, so abort() for the fuzzer to keep the input.
 * Written to file descriptor 2 directly, past fuzz_quiet().
 */
#define FUZZ_CHECK(cond) \
	do { \
		if (!(cond)) { \
			dprintf(2, "%s:%d: check failed: %s\n", __FILE__, \
				__LINE__, #cond); \
			abort(); \
		} \
	} while (0)

/*
 * Error messages of the library go to stderr, which would slow the
 * fuzzer down and fill its log: fuzz_quiet() points the stdio stream
 * `stderr` at /dev/null (FUZZ_VERBOSE=1 in the environment keeps it).
 * File descriptor 2 stays open, so the reports of the sanitizers, of
 * libFuzzer and of the replay, written to it directly, are still seen.
 */
static inline void fuzz_quiet(void)
{
	const char *v = getenv("FUZZ_VERBOSE");
	FILE *null;

	if (v && *v && *v != '0')
		return;
	null = fopen("/dev/null", "w");
	if (null)
		stderr = null;
}

#endif
