/*
 * An fstests results/ directory: each section through its result.xml,
 * else its check.log, else the files its tests left; see testresult.h.
 */
#include "formats/testresult-internal.h"
#include "base/error.h"
#include "base/strbuf.h"
#include "base/util.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

char *result_section_of(const char *name)
{
	return xstrdup(!*name || !strcmp(name, "results") ? "global" : name);
}

static int is_file_in(const char *dir, const char *name)
{
	char *path = xstrfmt("%s/%s", dir, name);
	struct stat st;
	int ok = !stat(path, &st) && S_ISREG(st.st_mode);

	free(path);
	return ok;
}

/* A name and one of the suffixes: the length of the name, or 0. */
static size_t strip_suffix(const char *name, const char *suffix)
{
	size_t n = strlen(name), s = strlen(suffix);

	return n > s && !strcmp(name + n - s, suffix) ? n - s : 0;
}

/* The files of the tests of a section without a report: see .h. */
static int read_test_files(struct result_set *set, const char *dir,
			   const char *config)
{
	static const struct { const char *suffix; enum result_outcome o; } v[] = {
		{ ".out.bad", RESULT_FAIL }, { ".dmesg", RESULT_FAIL },
		{ ".notrun", RESULT_SKIP }, { ".full", RESULT_PASS },
		{ ".out", RESULT_PASS },
	};
	char **groups = NULL;
	size_t nr_groups = 0, g, first = set->nr;
	int ret = dir_names(dir, 0, &groups, &nr_groups);

	for (g = 0; !ret && g < nr_groups; g++) {
		char *gdir = xstrfmt("%s/%s", dir, groups[g]);
		char **names = NULL;
		size_t nr = 0, i, k;

		if (!is_dir_in(dir, groups[g]) ||
		    dir_names(gdir, 0, &names, &nr) < 0) {
			free(gdir);
			continue;
		}
		for (i = 0; i < nr; i++) {
			struct result_item *last = set->nr > first ?
						   &set->items[set->nr - 1] : NULL;
			struct strbuf test = STRBUF_INIT;
			size_t n = 0;
			char *path;

			for (k = 0; k < sizeof(v) / sizeof(v[0]); k++)
				if ((n = strip_suffix(names[i], v[k].suffix)))
					break;
			if (!n)
				continue;
			strbuf_addf(&test, "%s/%.*s", groups[g], (int)n, names[i]);
			if (!result_test_name_ok(test.buf, test.len)) {
				strbuf_release(&test);
				continue;
			}
			path = xstrfmt("%s/%s", gdir, names[i]);
			/*
			 * The files of a test sort together ("123." before
			 * "1234."): a failure outranks not run, which
			 * outranks a pass.
			 */
			if (last && !strcmp(last->test, test.buf)) {
				if (v[k].o == RESULT_FAIL ||
				    (v[k].o == RESULT_SKIP &&
				     last->outcome == RESULT_PASS)) {
					last->outcome = v[k].o;
					last->runs = v[k].o != RESULT_SKIP;
					last->failures = v[k].o == RESULT_FAIL;
					free(last->file);
					last->file = xstrdup(path);
				}
			} else {
				result_add_item(set, config, test.buf,
						test.len, v[k].o, path, 0);
			}
			free(path);
			strbuf_release(&test);
		}
		free_string_array(names, nr);
		free(gdir);
	}
	free_string_array(groups, nr_groups);
	if (!ret && set->nr > first)
		result_add_config(set, config, dir);
	return ret;
}

/* One section: its report, else its check.log, else its files. */
static int read_section(struct result_set *set, const char *dir,
			const char *config)
{
	char *path;
	int ret;

	if (is_file_in(dir, "result.xml")) {
		path = xstrfmt("%s/result.xml", dir);
		ret = result_read_file(set, path, 0);
	} else if (is_file_in(dir, "check.log")) {
		struct strbuf sb = STRBUF_INIT;

		path = xstrfmt("%s/check.log", dir);
		if (strbuf_read_file(&sb, path) < 0)
			ret = error("cannot read '%s': %s", path, strerror(errno));
		else
			ret = result_parse_check_log(set, path, config, sb.buf,
						     sb.len);
		strbuf_release(&sb);
	} else {
		return read_test_files(set, dir, config);
	}
	free(path);
	return ret;
}

/* A section's directory: it has a report, a check.log or subdirectories. */
static int is_section(const char *dir)
{
	char **names = NULL;
	size_t nr = 0, i;
	int yes = is_file_in(dir, "result.xml") || is_file_in(dir, "check.log");

	if (yes || dir_names(dir, 1, &names, &nr))
		return yes;
	for (i = 0; i < nr && !yes; i++)
		yes = is_dir_in(dir, names[i]);
	free_string_array(names, nr);
	return yes;
}

int result_read_dir(struct result_set *set, const char *dir)
{
	char **names = NULL;
	size_t nr = 0, i, before = set->nr, sections = 0;
	char *name;
	int ret = dir_names(dir, 0, &names, &nr);

	/*
	 * results/SECTION/ each, when the run had sections: a section has
	 * a report, a check.log or directories (a group's has files).
	 */
	for (i = 0; !ret && i < nr; i++) {
		char *sub;

		if (!is_dir_in(dir, names[i]))
			continue;
		sub = xstrfmt("%s/%s", dir, names[i]);
		if (is_section(sub)) {
			ret = read_section(set, sub, names[i]);
			sections++;
		}
		free(sub);
	}
	free_string_array(names, nr);
	if (ret || sections)
		return ret;
	name = realpath(dir, NULL);
	if (name) {
		char *slash = strrchr(name, '/'), *config = result_section_of(slash ?
							slash + 1 : name);

		ret = is_section(dir) ? read_section(set, dir, config) : 0;
		free(config);
		free(name);
	}
	if (!ret && set->nr == before && !set->nr_configs)
		ret = error("%s: no test results in this directory (no "
			    "result.xml, check.log or TEST.out.bad files)", dir);
	return ret;
}
