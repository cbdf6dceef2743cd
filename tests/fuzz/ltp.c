/*
 * Fuzz target: testannot_parse_ltp(), the reader of LTP's .tags
 * ({"linux-git", "SHA"}, {"CVE", "..."}) in C sources.
 *
 * The input is the C file, passed as it is: the parser takes any bytes
 * and needs no NUL at the end.
 */
#include "fuzz.h"
#include "formats/testannot.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct testannot_set set;
	size_t i;

	testannot_set_init(&set);
	testannot_parse_ltp(&set, "fuzz01", "testcases/kernel/fuzz01.c",
			    (const char *)data, size);
	testannot_set_sort(&set);
	for (i = 0; i < set.nr; i++) {
		const struct testannot *a = &set.items[i];

		FUZZ_CHECK(a->test && a->suite && a->how && a->sha && a->file);
		FUZZ_CHECK(a->line >= 1);
		FUZZ_CHECK(!a->subject);
		FUZZ_CHECK(a->kind == TESTANNOT_FIXED_BY ||
			   a->kind == TESTANNOT_STABLE ||
			   a->kind == TESTANNOT_CVE);
	}
	for (i = 0; i < set.nr_problems; i++) {
		FUZZ_CHECK(set.problems[i].file && set.problems[i].message);
		FUZZ_CHECK(set.problems[i].line >= 1);
	}
	testannot_set_release(&set);
	return 0;
}
