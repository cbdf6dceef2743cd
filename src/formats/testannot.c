/*
 * Regression-test annotations (testannot.h): the set of items and
 * problems, and reading a checkout's directories.  The readers of one
 * file are testannot-fstests.c (with the shell lexer,
 * testannot-shlex.c) and testannot-ltp.c.
 */
#include "formats/testannot.h"
#include "formats/testannot-internal.h"
#include "base/ascii.h"
#include "base/error.h"
#include "base/strbuf.h"
#include "base/util.h"

#include <dirent.h>
#include <errno.h>
#include <stdarg.h>
#include <string.h>
#include <sys/stat.h>

/* Bytes of a name quoted in a problem, at most. */
#define QUOTE_MAX 40

/* --- the set ---------------------------------------------------------- */

const char *testannot_kind_name(enum testannot_kind kind)
{
	switch (kind) {
	case TESTANNOT_FIXED_BY:
		return "fixed-by";
	case TESTANNOT_WANTS:
		return "wants";
	case TESTANNOT_STABLE:
		return "stable-fix";
	case TESTANNOT_CVE:
		return "cve";
	}
	return "unknown";
}

void testannot_set_init(struct testannot_set *set)
{
	memset(set, 0, sizeof(*set));
}

void testannot_release(struct testannot *a)
{
	free(a->test);
	free(a->how);
	free(a->sha);
	free(a->subject);
	free(a->fstyp);
	free(a->file);
	free(a->via);
}

void testannot_set_release(struct testannot_set *set)
{
	size_t i;

	for (i = 0; i < set->nr; i++)
		testannot_release(&set->items[i]);
	free(set->items);
	for (i = 0; i < set->nr_problems; i++) {
		free(set->problems[i].file);
		free(set->problems[i].message);
	}
	free(set->problems);
	testannot_set_init(set);
}

void testannot_copy(struct testannot *dst, const struct testannot *a)
{
	dst->test = xstrdup_or_null(a->test);
	dst->suite = a->suite;
	dst->kind = a->kind;
	dst->how = xstrdup_or_null(a->how);
	dst->sha = xstrdup_or_null(a->sha);
	dst->subject = xstrdup_or_null(a->subject);
	dst->fstyp = xstrdup_or_null(a->fstyp);
	dst->file = xstrdup_or_null(a->file);
	dst->line = a->line;
	dst->via = xstrdup_or_null(a->via);
}

void testannot_add_item(struct testannot_set *set, const struct testannot *a)
{
	ALLOC_GROW(set->items, set->nr, set->alloc);
	testannot_copy(&set->items[set->nr++], a);
}

void testannot_add_problem(struct testannot_set *set, const char *file,
			   unsigned line, const char *prefix, const char *name,
			   const char *suffix)
{
	struct testannot_problem *pr;
	struct strbuf sb = STRBUF_INIT;

	strbuf_addstr(&sb, prefix);
	if (name) {
		strbuf_addch(&sb, '\'');
		strbuf_add_quoted(&sb, name, strlen(name), QUOTE_MAX);
		strbuf_addch(&sb, '\'');
	}
	strbuf_addstr(&sb, suffix);
	ALLOC_GROW(set->problems, set->nr_problems, set->alloc_problems);
	pr = &set->problems[set->nr_problems++];
	pr->file = xstrdup(file);
	pr->line = line;
	pr->message = strbuf_detach(&sb, NULL);
}

struct sort_entry {
	struct testannot item;
	size_t seq;
};

static int cmp_entry(const void *va, const void *vb)
{
	const struct sort_entry *a = va, *b = vb;
	int c = strcmp(a->item.test, b->item.test);

	if (c)
		return c;
	c = strcmp(a->item.file, b->item.file);
	if (c)
		return c;
	if (a->item.line != b->item.line)
		return a->item.line < b->item.line ? -1 : 1;
	return a->seq < b->seq ? -1 : a->seq > b->seq;
}

void testannot_set_sort(struct testannot_set *set)
{
	struct sort_entry *v;
	size_t i;

	if (set->nr < 2)
		return;
	v = xmalloc(set->nr * sizeof(*v));
	for (i = 0; i < set->nr; i++) {
		v[i].item = set->items[i];
		v[i].seq = i;
	}
	QSORT(v, set->nr, cmp_entry);
	for (i = 0; i < set->nr; i++)
		set->items[i] = v[i].item;
	free(v);
}

int testannot_sha_ok(const char *sha)
{
	size_t n = strlen(sha);

	return n >= 7 && n <= 40 && is_hex(sha, n);
}

/* --- reading a checkout ----------------------------------------------- */

/* The mode of path, not following a symbolic link; -1 after an error. */
static int lstat_mode(const char *path, mode_t *mode)
{
	struct stat st;

	if (lstat(path, &st) < 0)
		return error("cannot read '%s': %s", path, strerror(errno));
	*mode = st.st_mode;
	return 0;
}

/* A test or a helper is a script or a C file: none is near this. */
#define TEST_FILE_MAX ((size_t)16 << 20)

/*
 * A regular file into sb: 1; 0 for anything else, skipped: a FIFO
 * would block the read, a device is no test, and a symbolic link may
 * point anywhere (or loop), all named; a directory is no file, and
 * nothing is said of it.  -1 after an error.
 */
static int read_regular(struct strbuf *sb, const char *path)
{
	struct strbuf why = STRBUF_INIT;
	mode_t mode;
	int r;

	if (lstat_mode(path, &mode) < 0)
		return -1;
	if (S_ISDIR(mode))
		return 0;
	strbuf_reset(sb);
	r = strbuf_read_regular(sb, path, TEST_FILE_MAX, &why);
	if (r < 0)
		error("cannot read '%s': %s", path, strerror(errno));
	else if (!r)
		warning("skipping '%s': %s", path, why.buf);
	strbuf_release(&why);
	return r;
}

static int all_digits(const char *s)
{
	if (!*s)
		return 0;
	for (; *s; s++)
		if (!is_digit((unsigned char)*s))
			return 0;
	return 1;
}

/* Reads common/ into h; a checkout without it has no helpers. */
static int read_common(struct testannot_set *set, struct testannot_helpers *h,
		       struct strbuf *path, size_t base)
{
	struct strbuf buf = STRBUF_INIT;
	char **names, *rel;
	size_t nr, i;
	int ret = 0, r;

	strbuf_setlen(path, base);
	strbuf_addstr(path, "/common");
	ret = dir_names(path->buf, 1, &names, &nr);
	if (ret)
		return ret < 0 ? -1 : 0;
	for (i = 0; i < nr; i++) {
		strbuf_setlen(path, base);
		strbuf_addf(path, "/common/%s", names[i]);
		r = read_regular(&buf, path->buf);
		if (r <= 0) {
			ret = r < 0 ? -1 : ret;
			continue;
		}
		rel = xstrfmt("common/%s", names[i]);
		testannot_parse_fstests_common(h, set, rel, buf.buf, buf.len);
		free(rel);
	}
	free_string_array(names, nr);
	strbuf_release(&buf);
	return ret;
}

/* Reads the tests of tests/DIR. */
static int read_fstests_dir(struct testannot_set *set,
			    const struct testannot_helpers *h,
			    struct strbuf *path, size_t base, const char *dir)
{
	struct strbuf buf = STRBUF_INIT;
	char **names, *test, *rel;
	size_t nr, i;
	int ret, r;

	strbuf_setlen(path, base);
	strbuf_addf(path, "/tests/%s", dir);
	if (dir_names(path->buf, 0, &names, &nr) < 0)
		return -1;
	ret = 0;
	for (i = 0; i < nr; i++) {
		if (!all_digits(names[i]))
			continue;
		strbuf_setlen(path, base);
		strbuf_addf(path, "/tests/%s/%s", dir, names[i]);
		r = read_regular(&buf, path->buf);
		if (r <= 0) {
			ret = r < 0 ? -1 : ret;
			continue;
		}
		test = xstrfmt("%s/%s", dir, names[i]);
		rel = xstrfmt("tests/%s", test);
		testannot_parse_fstests(set, h, test, rel, buf.buf, buf.len);
		set->nr_tests++;
		free(test);
		free(rel);
	}
	free_string_array(names, nr);
	strbuf_release(&buf);
	return ret;
}

/* dir without the slashes it ends with, for paths under it. */
static void checkout_path(struct strbuf *path, const char *dir)
{
	size_t len = strlen(dir);

	while (len > 1 && dir[len - 1] == '/')
		len--;
	strbuf_add(path, dir, len);
}

int testannot_read_fstests(struct testannot_set *set, const char *dir)
{
	struct testannot_helpers *h = testannot_helpers_new();
	struct strbuf path = STRBUF_INIT;
	char **names = NULL;
	size_t nr = 0, base, i;
	mode_t mode;
	int ret;

	checkout_path(&path, dir);
	base = path.len;
	ret = read_common(set, h, &path, base);
	testannot_helpers_finish(h);

	strbuf_setlen(&path, base);
	strbuf_addstr(&path, "/tests");
	if (dir_names(path.buf, 0, &names, &nr) < 0) {
		ret = -1;
		goto out;
	}
	for (i = 0; i < nr; i++) {
		strbuf_setlen(&path, base);
		strbuf_addf(&path, "/tests/%s", names[i]);
		if (lstat_mode(path.buf, &mode) < 0) {
			ret = -1;
			continue;
		}
		if (!S_ISDIR(mode))
			continue;
		if (read_fstests_dir(set, h, &path, base, names[i]) < 0)
			ret = -1;
	}
out:
	testannot_set_sort(set);
	free_string_array(names, nr);
	testannot_helpers_free(h);
	strbuf_release(&path);
	return ret < 0 ? -1 : 0;
}

/* An LTP test file: "NAME.c"; its test name, or NULL. */
static char *ltp_test_name(const char *rel, int *shell)
{
	const char *base = strrchr(rel, '/');
	size_t len;

	base = base ? base + 1 : rel;
	len = strlen(base);
	*shell = len > 3 && !strcmp(base + len - 3, ".sh");
	if (*shell)
		return xstrndup(base, len - 3);
	if (len < 3 || strcmp(base + len - 2, ".c"))
		return NULL;
	return xstrndup(base, len - 2);
}

/*
 * Pushes the entries of rel, a directory under the checkout, on the
 * stack in reverse order, so that they come off it sorted.
 */
static int push_entries(struct strbuf *path, size_t base, const char *rel,
			char ***stack, size_t *nr, size_t *alloc)
{
	char **names;
	size_t n, i;

	strbuf_setlen(path, base);
	strbuf_addf(path, "/%s", rel);
	if (dir_names(path->buf, 0, &names, &n) < 0)
		return -1;
	for (i = n; i-- > 0; ) {
		ALLOC_GROW(*stack, *nr, *alloc);
		(*stack)[(*nr)++] = xstrfmt("%s/%s", rel, names[i]);
	}
	free_string_array(names, n);
	return 0;
}

int testannot_read_ltp(struct testannot_set *set, const char *dir)
{
	struct strbuf path = STRBUF_INIT, buf = STRBUF_INIT;
	char **stack = NULL, *rel, *test;
	size_t nr = 0, alloc = 0, base;
	mode_t mode;
	int ret = 0, shell;

	checkout_path(&path, dir);
	base = path.len;
	if (push_entries(&path, base, "testcases", &stack, &nr, &alloc) < 0)
		ret = -1;
	while (nr) {
		rel = stack[--nr];
		strbuf_setlen(&path, base);
		strbuf_addf(&path, "/%s", rel);
		if (lstat_mode(path.buf, &mode) < 0) {
			ret = -1;
		} else if (S_ISDIR(mode)) {
			if (push_entries(&path, base, rel, &stack, &nr,
					 &alloc) < 0)
				ret = -1;
		} else if ((test = ltp_test_name(rel, &shell))) {
			int r = read_regular(&buf, path.buf);

			if (r < 0) {
				ret = -1;
			} else if (r && shell) {
				/* A test when it has the loader's metadata. */
				set->nr_tests += testannot_parse_ltp_shell(
					set, test, rel, buf.buf, buf.len);
			} else if (r) {
				testannot_parse_ltp(set, test, rel, buf.buf,
						    buf.len);
				set->nr_tests++;
			}
			free(test);
		}
		free(rel);
	}
	testannot_set_sort(set);
	free(stack);
	strbuf_release(&path);
	strbuf_release(&buf);
	return ret;
}
