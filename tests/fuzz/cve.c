/*
 * Fuzz target: the reader of the kernel CVE team's records
 * (cve_set_add(): a .sha1 file and a .dyad file).
 *
 * The input is the .sha1 text, a NUL byte, then the .dyad text (no NUL:
 * a record without a .dyad file).  What cve.h promises is checked:
 * a record read has a fix, its pairs name versions, and every fix is
 * found again by cve_set_fixed_by().
 */
#include "fuzz.h"
#include "formats/cve.h"

#include <string.h>

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	fuzz_quiet();
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *buf = (const char *)data;
	const char *nul = memchr(buf, '\0', size);
	size_t sha1_len = nul ? (size_t)(nul - buf) : size;
	struct cve_set s;
	size_t i, j;

	cve_set_init(&s);
	if (!cve_set_add(&s, "CVE-2024-26581", "CVE-2024-26581.sha1", buf,
			 sha1_len, nul ? "CVE-2024-26581.dyad" : NULL,
			 nul ? nul + 1 : NULL, nul ? size - sha1_len - 1 : 0)) {
		cve_set_finish(&s);
		for (i = 0; i < s.nr; i++) {
			const struct cve *c = &s.items[i];

			FUZZ_CHECK(c->id && c->nr_fixes);
			for (j = 0; j < c->nr_pairs; j++)
				FUZZ_CHECK(c->pairs[j].vulnerable_version &&
					   c->pairs[j].fixed_version);
			for (j = 0; j < c->nr_fixes; j++) {
				const struct cve *const *out;

				FUZZ_CHECK(cve_set_fixed_by(&s, &c->fixes[j],
							    &out) >= 1);
			}
		}
	}
	cve_set_release(&s);
	return 0;
}
