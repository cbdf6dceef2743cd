/*
 * Fuzz target: the readers of test results (testresult.h): fstests'
 * xunit report and check.log, LTP's runltp log and kirk JSON, expunge
 * lists.
 *
 * The first byte picks the reader (its value modulo 5), the rest is the
 * file, passed without a NUL after it.  What testresult.h promises of
 * the set is checked too: every item has a config and a test name of
 * the characters test names have, and sorting keeps each (config,
 * test) once.
 */
#include "fuzz.h"
#include "formats/testresult.h"

#include <string.h>

static void check_items(const struct result_item *v, size_t nr, int run)
{
	size_t i, j;

	for (i = 0; i < nr; i++) {
		FUZZ_CHECK(v[i].config && *v[i].config);
		FUZZ_CHECK(v[i].test && *v[i].test);
		FUZZ_CHECK(!strpbrk(v[i].test, " \t\n\r<>&\"'#"));
		FUZZ_CHECK(v[i].suite);
		FUZZ_CHECK(v[i].failures <= v[i].runs ||
			   v[i].outcome == RESULT_FAIL);
		FUZZ_CHECK(!run || v[i].outcome != RESULT_FAIL || v[i].failures);
		for (j = 0; j < i; j++)
			FUZZ_CHECK(strcmp(v[j].config, v[i].config) ||
				   strcmp(v[j].test, v[i].test));
	}
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	fuzz_quiet();
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct result_set set;
	const char *buf = (const char *)data + 1;
	size_t len = size ? size - 1 : 0;
	int ret;

	if (!size)
		return 0;
	result_set_init(&set);
	switch (data[0] % 5) {
	case 0:
		ret = result_parse_xunit(&set, "result.xml", buf, len);
		break;
	case 1:
		ret = result_parse_check_log(&set, "check.log", "global", buf, len);
		break;
	case 2:
		ret = result_parse_ltp_log(&set, "ltp.log", buf, len);
		break;
	case 3:
		ret = result_parse_kirk(&set, "results.json", buf, len);
		break;
	default:
		ret = result_parse_expunge(&set, "all.txt", "all", buf, len);
	}
	if (!ret) {
		result_set_sort(&set);
		check_items(set.items, set.nr, 1);
		check_items(set.expunged, set.nr_expunged, 0);
	}
	result_set_release(&set);
	return 0;
}
