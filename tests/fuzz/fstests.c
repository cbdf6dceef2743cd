/*
 * Fuzz target: the fstests parsers of testannot.h, a shell lexer and
 * parser for the annotations of tests and helpers in common/.
 *
 * The input is split at its first NUL byte: what comes before is a
 * file of common/ (helpers), what comes after is a test that may call
 * them.  Without a NUL byte, the whole input is the test and there are
 * no helpers.  Both parsers take any bytes and need no NUL at the end,
 * so each part is passed as it lies in the input.
 */
#include "fuzz.h"
#include "formats/testannot.h"

#include <string.h>

static void check(const struct testannot_set *set)
{
	size_t i;

	for (i = 0; i < set->nr; i++) {
		const struct testannot *a = &set->items[i];

		FUZZ_CHECK(a->test && a->suite && a->how && a->sha && a->file);
		FUZZ_CHECK(a->line >= 1);
		FUZZ_CHECK(a->kind == TESTANNOT_FIXED_BY ||
			   a->kind == TESTANNOT_WANTS);
		FUZZ_CHECK(!a->subject || *a->subject);
		(void)testannot_sha_ok(a->sha);
		(void)testannot_kind_name(a->kind);
	}
	for (i = 0; i < set->nr_problems; i++) {
		FUZZ_CHECK(set->problems[i].file && set->problems[i].message);
		FUZZ_CHECK(set->problems[i].line >= 1);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *buf = (const char *)data;
	const char *nul = memchr(buf, '\0', size);
	struct testannot_helpers *h = testannot_helpers_new();
	struct testannot_set set;

	testannot_set_init(&set);
	if (nul) {
		size_t common_len = (size_t)(nul - buf);

		testannot_parse_fstests_common(h, &set, "common/fuzz", buf,
					       common_len);
		buf = nul + 1;
		size -= common_len + 1;
	}
	testannot_helpers_finish(h);
	testannot_parse_fstests(&set, h, "generic/001", "tests/generic/001",
				buf, size);
	testannot_set_sort(&set);
	check(&set);
	testannot_set_release(&set);
	testannot_helpers_free(h);
	return 0;
}
