#ifndef TESTRESULT_INTERNAL_H
#define TESTRESULT_INTERNAL_H

/*
 * What the files of the testresult module share, and nothing else
 * includes: testresult.c (the set, telling files apart, sorting),
 * testresult-dir.c (fstests' results/ directories), testresult-xunit.c
 * (fstests' xunit report), testresult-log.c (fstests' check.log),
 * testresult-ltp.c (LTP's runltp log and kirk JSON) and
 * testresult-expunge.c (expunge lists).  The API is testresult.h.
 *
 * A reader adds what its file says to the set with result_add_item()
 * and result_add_config(); an item may be added without a config when
 * the reader learns it later (an xunit suite's properties come after
 * its first test cases) and fills it in before it returns.
 */

#include "formats/testresult.h"

#include <stddef.h>
#include <string.h>

/* The config of LTP's runs, which is also the name of its suite. */
extern const char result_ltp_suite[];

/* --- the set (testresult.c) ------------------------------------------- */

/* The suite of a test by its name: "fstests" for "xfs/123", else "ltp". */
const char *result_suite_of(const char *test);

/*
 * Adds an item of test (test_len bytes) with one run of that outcome
 * (none when skipped); config may be NULL until the reader knows it.
 */
struct result_item *result_add_item(struct result_set *set,
				    const char *config, const char *test,
				    size_t test_len,
				    enum result_outcome outcome,
				    const char *file, unsigned line);

/* The config of that name, added when new; its fields kept when set. */
struct result_config *result_add_config(struct result_set *set,
					const char *name, const char *file);

/* Sets *field to a copy of value when it is unset and value is not empty. */
void result_field_once(char **field, const char *value);

/* A test name as the suites write them: no blanks, no control bytes. */
int result_test_name_ok(const char *s, size_t len);

/* The first word of s that starts with a digit: a kernel release, or NULL. */
char *result_release_in(const char *s);

/*
 * Reads one file, told by its text, into set: result_read() on a file
 * (flags as there).
 */
int result_read_file(struct result_set *set, const char *path,
		     unsigned flags);

/* "'%.*s'" of text shortened for a message: its first 80 bytes. */
#define SHORT(s, n) (int)((n) > 80 ? 80 : (n)), (s)

/* --- fstests' results/ directories (testresult-dir.c) ----------------- */

/* result_read() on a directory. */
int result_read_dir(struct result_set *set, const char *dir);

/*
 * The section of a directory of that name: the name, or "global" for
 * results/ itself (or no name).
 */
char *result_section_of(const char *name);

/* --- lines and words -------------------------------------------------- */

/* The next line of [*p, end) into [*line, *line + *len); 0 at the end. */
static inline int next_line(const char **p, const char *end,
			    const char **line, size_t *len)
{
	const char *nl;

	if (*p >= end)
		return 0;
	nl = memchr(*p, '\n', (size_t)(end - *p));
	*line = *p;
	*len = nl ? (size_t)(nl - *p) : (size_t)(end - *p);
	*p = nl ? nl + 1 : end;
	if (*len && (*line)[*len - 1] == '\r')
		(*len)--;
	return 1;
}

/* Non-zero if the len bytes of line start with prefix. */
static inline int starts(const char *line, size_t len, const char *prefix)
{
	size_t n = strlen(prefix);

	return len >= n && !memcmp(line, prefix, n);
}

/* The word at s (after blanks): its start and length. */
static inline const char *word_at(const char *s, const char *end, size_t *n)
{
	while (s < end && (*s == ' ' || *s == '\t'))
		s++;
	for (*n = 0; s + *n < end && s[*n] != ' ' && s[*n] != '\t'; (*n)++)
		;
	return s;
}

#endif
