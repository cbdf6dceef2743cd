/*
 * Test results as fstests and LTP leave them: see testresult.h.  This
 * file keeps the set, tells the files apart and sorts; each format
 * has its reader in a testresult-*.c of its own, fstests' results/
 * directories theirs in testresult-dir.c (testresult-internal.h).
 */
#include "formats/testresult-internal.h"
#include "base/ascii.h"
#include "base/error.h"
#include "base/strbuf.h"
#include "base/util.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static const char fstests_suite[] = "fstests";
const char result_ltp_suite[] = "ltp";

static const char *const outcome_names[] = { "pass", "fail", "skip" };

const char *result_outcome_name(enum result_outcome o)
{
	return outcome_names[o];
}

void result_set_init(struct result_set *set)
{
	memset(set, 0, sizeof(*set));
}

static void release_items(struct result_item *v, size_t nr)
{
	size_t i;

	for (i = 0; i < nr; i++) {
		free(v[i].config);
		free(v[i].test);
		free(v[i].message);
		free(v[i].file);
		free(v[i].reason);
	}
	free(v);
}

void result_set_release(struct result_set *set)
{
	size_t i;

	release_items(set->items, set->nr);
	release_items(set->expunged, set->nr_expunged);
	for (i = 0; i < set->nr_configs; i++) {
		free(set->configs[i].name);
		free(set->configs[i].kernel);
		free(set->configs[i].fstyp);
		free(set->configs[i].file);
	}
	free(set->configs);
	result_set_init(set);
}

const char *result_suite_of(const char *test)
{
	return strchr(test, '/') ? fstests_suite : result_ltp_suite;
}

struct result_item *result_add_item(struct result_set *set,
				    const char *config, const char *test,
				    size_t test_len,
				    enum result_outcome outcome,
				    const char *file, unsigned line)
{
	struct result_item *it;

	ALLOC_GROW(set->items, set->nr, set->alloc);
	it = &set->items[set->nr++];
	memset(it, 0, sizeof(*it));
	it->config = config ? xstrdup(config) : NULL;
	it->test = xstrndup(test, test_len);
	it->suite = result_suite_of(it->test);
	it->outcome = outcome;
	it->runs = outcome != RESULT_SKIP;
	it->failures = outcome == RESULT_FAIL;
	it->file = xstrdup(file);
	it->line = line;
	return it;
}

struct result_config *result_add_config(struct result_set *set,
					const char *name, const char *file)
{
	struct result_config *c;
	size_t i;

	for (i = 0; i < set->nr_configs; i++)
		if (!strcmp(set->configs[i].name, name))
			return &set->configs[i];
	ALLOC_GROW(set->configs, set->nr_configs, set->alloc_configs);
	c = &set->configs[set->nr_configs++];
	memset(c, 0, sizeof(*c));
	c->name = xstrdup(name);
	c->file = xstrdup(file);
	return c;
}

const struct result_config *result_config_find(const struct result_set *set,
					       const char *name)
{
	size_t i;

	for (i = 0; i < set->nr_configs; i++)
		if (!strcmp(set->configs[i].name, name))
			return &set->configs[i];
	return NULL;
}

void result_field_once(char **field, const char *value)
{
	if (!*field && value && *value)
		*field = xstrdup(value);
}

int result_test_name_ok(const char *s, size_t len)
{
	size_t i;

	if (!len || len > 255)
		return 0;
	for (i = 0; i < len; i++) {
		unsigned char c = (unsigned char)s[i];

		if (!is_alnum(c) && (!c || !strchr("/._-+:", c)))
			return 0;
	}
	return 1;
}

char *result_release_in(const char *s)
{
	const char *w = s;

	while (w && *w) {
		size_t n;

		while (*w == ' ' || *w == '\t')
			w++;
		n = strcspn(w, " \t");
		if (n && is_digit((unsigned char)*w) && memchr(w, '.', n))
			return xstrndup(w, n);
		w += n;
	}
	return NULL;
}

/* --- telling files apart ---------------------------------------------- */

/* The last component of path's directory, "" when it has none. */
static char *dir_name_of(const char *path)
{
	char *real = realpath(path, NULL), *slash, *name;

	if (!real)
		return xstrdup("");
	slash = strrchr(real, '/');
	*slash = '\0';
	slash = strrchr(real, '/');
	name = xstrdup(slash ? slash + 1 : real);
	free(real);
	return name;
}

/* The name of an expunge list's config: its file name, no extension. */
static char *expunge_config(const char *path)
{
	const char *base = strrchr(path, '/'), *dot;

	base = base ? base + 1 : path;
	dot = strrchr(base, '.');
	return dot && dot != base ? xstrndup(base, (size_t)(dot - base)) :
	       xstrdup(base);
}

/* Every line empty, a comment, or a test name with a comment. */
static int looks_like_expunge(const char *buf, size_t len)
{
	const char *p = buf, *end = buf + len, *line;
	size_t n, tests = 0;

	while (next_line(&p, end, &line, &n)) {
		const char *w, *rest;
		size_t wn, rn;

		w = word_at(line, line + n, &wn);
		if (!wn || *w == '#')
			continue;
		rest = word_at(w + wn, line + n, &rn);
		if (!result_test_name_ok(w, wn) || (rn && *rest != '#'))
			return 0;
		tests++;
	}
	return 1;
}

static int has_line(const char *buf, size_t len, const char *prefix)
{
	const char *p = buf, *end = buf + len, *line;
	size_t n;

	while (next_line(&p, end, &line, &n)) {
		const char *w;
		size_t wn;

		w = word_at(line, line + n, &wn);
		if (starts(w, (size_t)(line + n - w), prefix))
			return 1;
	}
	return 0;
}

static int read_text(struct result_set *set, const char *path,
		     const char *buf, size_t len, unsigned flags)
{
	const char *p = buf, *end = buf + len;
	char *config;
	int ret;

	if (len >= 3 && !memcmp(p, "\xef\xbb\xbf", 3))
		p += 3;
	while (p < end && (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r'))
		p++;
	if (memchr(buf, '\0', len))
		return error("%s: holds a NUL byte: not a results file", path);
	if (p < end && *p == '<')
		return result_parse_xunit(set, path, buf, len);
	if (p < end && *p == '{')
		return result_parse_kirk(set, path, buf, len);
	if (has_line(buf, len, "Ran:")) {
		char *dir = dir_name_of(path);

		config = result_section_of(dir);
		free(dir);
		ret = result_parse_check_log(set, path, config, buf, len);
		free(config);
		return ret;
	}
	if (has_line(buf, len, "Testcase") || has_line(buf, len, "tag="))
		return result_parse_ltp_log(set, path, buf, len);
	if (looks_like_expunge(buf, len)) {
		if (!(flags & RESULT_BASELINE))
			return error("%s: an expunge list is what a baseline "
				     "expects, not what a run did: give it "
				     "with --baseline", path);
		config = expunge_config(path);
		ret = result_parse_expunge(set, path, config, buf, len);
		free(config);
		return ret;
	}
	return error("%s: not a results file stablepick knows (fstests' "
		     "result.xml or check.log, LTP's log or kirk JSON, an "
		     "expunge list)", path);
}

int result_read_file(struct result_set *set, const char *path,
		     unsigned flags)
{
	struct strbuf sb = STRBUF_INIT;
	int ret;

	if (strbuf_read_file(&sb, path) < 0) {
		ret = error("cannot read '%s': %s", path, strerror(errno));
	} else {
		ret = read_text(set, path, sb.buf, sb.len, flags);
	}
	strbuf_release(&sb);
	return ret;
}

int result_read(struct result_set *set, const char *path, unsigned flags)
{
	struct stat st;

	if (stat(path, &st) < 0)
		return error("cannot read '%s': %s", path, strerror(errno));
	if (S_ISDIR(st.st_mode))
		return result_read_dir(set, path);
	if (!S_ISREG(st.st_mode))
		return error("cannot read '%s': not a file or a directory", path);
	return result_read_file(set, path, flags);
}

/* --- sorting ---------------------------------------------------------- */

static int cmp_item(const void *va, const void *vb)
{
	const struct result_item *a = va, *b = vb;
	int c = strcmp(a->config, b->config);

	return c ? c : strcmp(a->test, b->test);
}

static void merge(struct result_item *v, size_t *nr)
{
	size_t i, out = 0;

	if (!*nr)
		return;
	for (i = 1; i < *nr; i++) {
		struct result_item *keep = &v[out], *it = &v[i];

		if (!cmp_item(keep, it)) {
			keep->runs += it->runs;
			keep->failures += it->failures;
			if (it->outcome == RESULT_FAIL ||
			    (it->outcome == RESULT_PASS &&
			     keep->outcome == RESULT_SKIP)) {
				if (keep->outcome != RESULT_FAIL) {
					free(keep->file);
					keep->file = xstrdup(it->file);
					keep->line = it->line;
				}
				keep->outcome = keep->outcome == RESULT_FAIL ?
						RESULT_FAIL : it->outcome;
			}
			if (!keep->message && it->message) {
				keep->message = it->message;
				it->message = NULL;
			}
			if (!keep->reason && it->reason) {
				keep->reason = it->reason;
				it->reason = NULL;
			}
			free(it->config);
			free(it->test);
			free(it->message);
			free(it->file);
			free(it->reason);
			continue;
		}
		v[++out] = *it;
	}
	*nr = out + 1;
}

void result_set_sort(struct result_set *set)
{
	size_t i;

	for (i = 0; i < set->nr; i++)
		if (!set->items[i].config)
			set->items[i].config = xstrdup("global");
	QSORT(set->items, set->nr, cmp_item);
	merge(set->items, &set->nr);
	QSORT(set->expunged, set->nr_expunged, cmp_item);
	merge(set->expunged, &set->nr_expunged);
}

const struct result_item *result_find(const struct result_set *set,
				      const char *config, const char *test)
{
	struct result_item key;

	memset(&key, 0, sizeof(key));
	key.config = (char *)config;
	key.test = (char *)test;
	return set->nr ? bsearch(&key, set->items, set->nr, sizeof(key),
				 cmp_item) : NULL;
}
