/*
 * fstests' check.log, the summary a run appends to results/ (or to
 * results/SECTION/): see testresult.h.
 */
#include "formats/testresult-internal.h"
#include "base/ascii.h"
#include "base/error.h"
#include "base/util.h"

#include <stdlib.h>
#include <string.h>

/* The words of [s, s + len) as test names into *v; -1 on a bad word. */
static int split_tests(const char *s, size_t len, char ***v, size_t *nr,
		       size_t *alloc)
{
	const char *end = s + len;

	while (s < end) {
		size_t n;

		while (s < end && (*s == ' ' || *s == '\t'))
			s++;
		for (n = 0; s + n < end && s[n] != ' ' && s[n] != '\t'; n++)
			;
		if (!n)
			break;
		if (!result_test_name_ok(s, n))
			return -1;
		ALLOC_GROW(*v, *nr, *alloc);
		(*v)[(*nr)++] = xstrndup(s, n);
		s += n;
	}
	return 0;
}

static int in_list(char **v, size_t nr, const char *s)
{
	size_t i;

	for (i = 0; i < nr; i++)
		if (!strcmp(v[i], s))
			return 1;
	return 0;
}

/* The last block of one section in a check.log. */
struct log_block {
	char *section;
	char **ran, **notrun, **failed;
	size_t nr_ran, nr_notrun, nr_failed, a1, a2, a3;
	unsigned ran_line, fail_line;
};

static void block_clear(struct log_block *b)
{
	free_string_array(b->ran, b->nr_ran);
	free_string_array(b->notrun, b->nr_notrun);
	free_string_array(b->failed, b->nr_failed);
	b->ran = b->notrun = b->failed = NULL;
	b->nr_ran = b->nr_notrun = b->nr_failed = b->a1 = b->a2 = b->a3 = 0;
}

static void block_items(struct result_set *set, const char *path,
			const struct log_block *b)
{
	size_t i;

	result_add_config(set, b->section, path);
	for (i = 0; i < b->nr_ran; i++) {
		int bad = in_list(b->failed, b->nr_failed, b->ran[i]);

		if (!in_list(b->notrun, b->nr_notrun, b->ran[i]))
			result_add_item(set, b->section, b->ran[i],
					strlen(b->ran[i]),
					bad ? RESULT_FAIL : RESULT_PASS, path,
					bad ? b->fail_line : b->ran_line);
	}
	for (i = 0; i < b->nr_failed; i++)
		if (!in_list(b->ran, b->nr_ran, b->failed[i]))
			result_add_item(set, b->section, b->failed[i],
					strlen(b->failed[i]), RESULT_FAIL, path,
					b->fail_line);
	for (i = 0; i < b->nr_notrun; i++)
		result_add_item(set, b->section, b->notrun[i],
				strlen(b->notrun[i]), RESULT_SKIP, path,
				b->ran_line);
}

/*
 * check.log: a run appends, for each section it ran, the date, with
 * sections a "SECTION       -- NAME" line, then "Ran:", "Not run:",
 * "Failures:".  The last block of each section counts.
 */
int result_parse_check_log(struct result_set *set, const char *path,
			   const char *config, const char *buf, size_t len)
{
	const char *p = buf, *end = buf + len, *line;
	struct log_block *blocks = NULL, *b = NULL;
	size_t nr = 0, alloc = 0, n, i;
	char *section = xstrdup(config);
	unsigned lineno = 0;
	int ret = 0;

	while (!ret && next_line(&p, end, &line, &n)) {
		lineno++;
		if (starts(line, n, "SECTION") && n > 7 &&
		    is_blank((unsigned char)line[7])) {
			const char *w = line + 7, *name;
			size_t wn;

			w = word_at(w, line + n, &wn);
			if (wn == 2 && !memcmp(w, "--", 2)) {
				name = word_at(w + 2, line + n, &wn);
				if (!result_test_name_ok(name, wn)) {
					ret = error("%s:%u: not a section name",
						    path, lineno);
					break;
				}
				free(section);
				section = xstrndup(name, wn);
				b = NULL;
			}
			continue;
		}
		if (starts(line, n, "Ran:")) {
			for (i = 0; i < nr && strcmp(blocks[i].section, section); i++)
				;
			if (i == nr) {
				ALLOC_GROW(blocks, nr, alloc);
				memset(&blocks[nr], 0, sizeof(*blocks));
				blocks[nr++].section = xstrdup(section);
			}
			b = &blocks[i];
			block_clear(b);
			b->ran_line = b->fail_line = lineno;
			if (split_tests(line + 4, n - 4, &b->ran, &b->nr_ran,
					&b->a1) < 0)
				ret = error("%s:%u: 'Ran:' names something that "
					    "is not a test", path, lineno);
		} else if (b && starts(line, n, "Not run:")) {
			if (split_tests(line + 8, n - 8, &b->notrun,
					&b->nr_notrun, &b->a2) < 0)
				ret = error("%s:%u: 'Not run:' names something "
					    "that is not a test", path, lineno);
		} else if (b && starts(line, n, "Failures:")) {
			b->fail_line = lineno;
			if (split_tests(line + 9, n - 9, &b->failed,
					&b->nr_failed, &b->a3) < 0)
				ret = error("%s:%u: 'Failures:' names something "
					    "that is not a test", path, lineno);
		}
	}
	if (!ret && !nr)
		ret = error("%s: not a check.log (no 'Ran:' line)", path);
	for (i = 0; i < nr; i++) {
		if (!ret)
			block_items(set, path, &blocks[i]);
		block_clear(&blocks[i]);
		free(blocks[i].section);
	}
	free(blocks);
	free(section);
	return ret;
}
