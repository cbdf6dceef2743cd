/*
 * Test results as fstests and LTP leave them: see testresult.h.  The
 * xunit reader reads its tags through base/xml.h.
 */
#include "formats/testresult.h"
#include "base/ascii.h"
#include "base/error.h"
#include "base/json.h"
#include "base/strbuf.h"
#include "base/util.h"
#include "base/xml.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static const char fstests_suite[] = "fstests";
static const char ltp_suite[] = "ltp";

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

static const char *suite_of(const char *test)
{
	return strchr(test, '/') ? fstests_suite : ltp_suite;
}

static struct result_item *add_item(struct result_set *set, const char *config,
				    const char *test, size_t test_len,
				    enum result_outcome outcome,
				    const char *file, unsigned line)
{
	struct result_item *it;

	ALLOC_GROW(set->items, set->nr, set->alloc);
	it = &set->items[set->nr++];
	memset(it, 0, sizeof(*it));
	it->config = config ? xstrdup(config) : NULL;
	it->test = xstrndup(test, test_len);
	it->suite = suite_of(it->test);
	it->outcome = outcome;
	it->runs = outcome != RESULT_SKIP;
	it->failures = outcome == RESULT_FAIL;
	it->file = xstrdup(file);
	it->line = line;
	return it;
}

/* The config of that name, added when new; its fields kept when set. */
static struct result_config *add_config(struct result_set *set,
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

static void set_once(char **field, const char *value)
{
	if (!*field && value && *value)
		*field = xstrdup(value);
}

/* A test name as the suites write them: no blanks, no control bytes. */
static int test_name_ok(const char *s, size_t len)
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

/* "'text'" shortened for a message: its first 80 bytes. */
#define SHORT(s, n) (int)((n) > 80 ? 80 : (n)), (s)

/* The line number of offset at in buf. */
static unsigned line_at(const char *buf, size_t at)
{
	unsigned line = 1;
	size_t i;

	for (i = 0; i < at; i++)
		line += buf[i] == '\n';
	return line;
}

/* The first word of s that starts with a digit: a kernel release. */
static char *release_in(const char *s)
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

/* What a <testsuite> said of itself, until it closes. */
struct suite {
	size_t first;			/* its first item */
	char *props[6];
	char *classname;		/* of its first testcase */
};

static const char *const suite_props[] = {
	"TESTCFG", "FSTESTCFG", "SECTION", "KERNEL", "PLATFORM", "FSTYP",
};

static void suite_release(struct suite *s)
{
	size_t i;

	for (i = 0; i < 6; i++)
		free(s->props[i]);
	free(s->classname);
	memset(s, 0, sizeof(*s));
}

static void suite_close(struct result_set *set, struct suite *s,
			const char *path)
{
	const char *config = s->props[0] ? s->props[0] :
			     s->props[1] ? s->props[1] :
			     s->props[2] ? s->props[2] : NULL;
	struct result_config *c;
	char *from_class = NULL;
	size_t i;

	if (!config && s->classname && !strncmp(s->classname, "xfstests.", 9) &&
	    s->classname[9])
		config = from_class = xstrdup(s->classname + 9);
	if (!config || !strcmp(config, "-no-sections-"))
		config = "global";
	c = add_config(set, config, path);
	if (s->props[3])
		set_once(&c->kernel, s->props[3]);
	else if (s->props[4] && !c->kernel)
		c->kernel = release_in(s->props[4]);
	set_once(&c->fstyp, s->props[5]);
	for (i = s->first; i < set->nr; i++)
		if (!set->items[i].config)
			set->items[i].config = xstrdup(config);
	free(from_class);
	suite_release(s);
}

int result_parse_xunit(struct result_set *set, const char *path,
		       const char *buf, size_t len)
{
	struct xml x;
	struct suite s;
	struct strbuf test = STRBUF_INIT, message = STRBUF_INIT;
	int in_suite = 0, in_case = 0, seen_root = 0, ret = 0, r;
	enum result_outcome outcome = RESULT_PASS;
	unsigned case_line = 0;
	size_t first = set->nr;

	memset(&s, 0, sizeof(s));
	xml_init(&x, path, buf, len);
	while ((r = xml_next(&x)) > 0) {
		if (!seen_root) {
			seen_root = 1;
			if (!xml_is(&x, "testsuite") && !xml_is(&x, "testsuites")) {
				ret = error("%s: not an xunit report (its root "
					    "is <%.*s>, not <testsuite>)", path,
					    SHORT(x.name, x.name_len));
				break;
			}
		}
		if (xml_is(&x, "testsuite") && !x.closing) {
			if (in_suite) {
				ret = xml_error(&x, "<testsuite> inside another");
				break;
			}
			in_suite = !x.empty;
			s.first = set->nr;
			if (x.empty)
				suite_close(set, &s, path);
		} else if (xml_is(&x, "testsuite")) {
			if (!in_suite || in_case) {
				ret = xml_error(&x, "</testsuite> without its "
						"<testsuite>");
				break;
			}
			suite_close(set, &s, path);
			in_suite = 0;
		} else if (xml_is(&x, "property") && in_suite && !in_case &&
			   !x.closing) {
			const char *name = xml_attr(&x, "name");
			size_t i;

			for (i = 0; name && i < 6; i++)
				if (!strcmp(name, suite_props[i]))
					set_once(&s.props[i], xml_attr(&x, "value"));
		} else if (xml_is(&x, "testcase") && !x.closing) {
			const char *name = xml_attr(&x, "name");

			if (in_case) {
				ret = xml_error(&x, "<testcase> inside another");
				break;
			}
			if (!name || !test_name_ok(name, strlen(name))) {
				ret = xml_error(&x, name ? "<testcase> name is "
						"not a test name" :
						"<testcase> without a name");
				break;
			}
			strbuf_reset(&test);
			strbuf_addstr(&test, name);
			strbuf_reset(&message);
			set_once(&s.classname, xml_attr(&x, "classname"));
			outcome = RESULT_PASS;
			case_line = xml_line(&x);
			in_case = !x.empty;
			if (x.empty)
				add_item(set, NULL, test.buf, test.len, outcome,
					 path, case_line);
		} else if (xml_is(&x, "testcase")) {
			struct result_item *it;

			if (!in_case) {
				ret = xml_error(&x, "</testcase> without its "
						"<testcase>");
				break;
			}
			it = add_item(set, NULL, test.buf, test.len, outcome,
				      path, case_line);
			if (message.len)
				it->message = xstrdup(message.buf);
			in_case = 0;
		} else if (in_case && !x.closing &&
			   (xml_is(&x, "failure") || xml_is(&x, "error"))) {
			const char *m = xml_attr(&x, "message");

			outcome = RESULT_FAIL;
			if (m && !message.len)
				strbuf_addstr(&message, m);
		} else if (in_case && !x.closing && xml_is(&x, "skipped")) {
			if (outcome != RESULT_FAIL)
				outcome = RESULT_SKIP;
		}
	}
	if (r < 0)
		ret = -1;
	if (!ret && !seen_root)
		ret = error("%s: not an xunit report (no element)", path);
	if (!ret && (in_suite || in_case))
		ret = error("%s: the report ends inside <%s>: was the run cut "
			    "short?", path, in_case ? "testcase" : "testsuite");
	/* Test cases outside a suite (a bare <testsuites>): "global". */
	for (; !ret && first < set->nr; first++)
		if (!set->items[first].config) {
			add_config(set, "global", path);
			set->items[first].config = xstrdup("global");
		}
	xml_release(&x);
	suite_release(&s);
	strbuf_release(&test);
	strbuf_release(&message);
	return ret;
}

/* --- line formats ----------------------------------------------------- */

/* The next line of [*p, end) into [*line, *line + *len); 0 at the end. */
static int next_line(const char **p, const char *end, const char **line,
		     size_t *len)
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

static int starts(const char *line, size_t len, const char *prefix)
{
	size_t n = strlen(prefix);

	return len >= n && !memcmp(line, prefix, n);
}

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
		if (!test_name_ok(s, n))
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

/* The word at s (after blanks): its start and length. */
static const char *word_at(const char *s, const char *end, size_t *n)
{
	while (s < end && (*s == ' ' || *s == '\t'))
		s++;
	for (*n = 0; s + *n < end && s[*n] != ' ' && s[*n] != '\t'; (*n)++)
		;
	return s;
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

	add_config(set, b->section, path);
	for (i = 0; i < b->nr_ran; i++) {
		int bad = in_list(b->failed, b->nr_failed, b->ran[i]);

		if (!in_list(b->notrun, b->nr_notrun, b->ran[i]))
			add_item(set, b->section, b->ran[i], strlen(b->ran[i]),
				 bad ? RESULT_FAIL : RESULT_PASS, path,
				 bad ? b->fail_line : b->ran_line);
	}
	for (i = 0; i < b->nr_failed; i++)
		if (!in_list(b->ran, b->nr_ran, b->failed[i]))
			add_item(set, b->section, b->failed[i],
				 strlen(b->failed[i]), RESULT_FAIL, path,
				 b->fail_line);
	for (i = 0; i < b->nr_notrun; i++)
		add_item(set, b->section, b->notrun[i], strlen(b->notrun[i]),
			 RESULT_SKIP, path, b->ran_line);
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
				if (!test_name_ok(name, wn)) {
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

/* An LTP result word: 0 with *o set, -1 when it is none. */
static int ltp_outcome(const char *w, size_t n, enum result_outcome *o)
{
	static const struct { const char *word; enum result_outcome o; } v[] = {
		{ "pass", RESULT_PASS }, { "fail", RESULT_FAIL },
		{ "brok", RESULT_FAIL }, { "warn", RESULT_FAIL },
		{ "conf", RESULT_SKIP },
	};
	size_t i;

	for (i = 0; i < sizeof(v) / sizeof(v[0]); i++)
		if (n == 4 && !ascii_strncasecmp(w, v[i].word, 4)) {
			*o = v[i].o;
			return 0;
		}
	return -1;
}


/* "tag=NAME stime=... exit=exited stat=N ...": ltp-pan without -p. */
static int ltp_tag_line(struct result_set *set, const char *path,
			const char *line, size_t n, unsigned lineno)
{
	const char *end = line + n, *w = line;
	const char *tag = NULL, *exit_how = NULL;
	size_t tag_len = 0, exit_len = 0, wn;
	long stat = -1;
	enum result_outcome o;

	while ((w = word_at(w, end, &wn)) < end && wn) {
		if (wn > 4 && !memcmp(w, "tag=", 4)) {
			tag = w + 4;
			tag_len = wn - 4;
		} else if (wn > 5 && !memcmp(w, "stat=", 5)) {
			char *num = xstrndup(w + 5, wn - 5), *e;

			stat = strtol(num, &e, 10);
			if (*e)
				stat = -1;
			free(num);
		} else if (wn > 5 && !memcmp(w, "exit=", 5)) {
			exit_how = w + 5;
			exit_len = wn - 5;
		}
		w += wn;
	}
	if (!tag || !test_name_ok(tag, tag_len) || stat < 0)
		return error("%s:%u: not a test's line (tag=NAME ... stat=N)",
			     path, lineno);
	if (exit_how && !(exit_len == 6 && !memcmp(exit_how, "exited", 6)))
		o = RESULT_FAIL;	/* signaled, stopped */
	else
		o = stat == 0 ? RESULT_PASS : stat == 32 ? RESULT_SKIP :
		    RESULT_FAIL;
	add_item(set, ltp_suite, tag, tag_len, o, path, lineno);
	return 0;
}

int result_parse_ltp_log(struct result_set *set, const char *path,
			 const char *buf, size_t len)
{
	const char *p = buf, *end = buf + len, *line;
	struct result_config *c = add_config(set, ltp_suite, path);
	int in_table = 0, seen = 0, rows = 0, ret = 0;
	unsigned lineno = 0;
	size_t n;

	while (!ret && next_line(&p, end, &line, &n)) {
		const char *w, *r, *lend = line + n;
		size_t wn, rn;
		enum result_outcome o;

		lineno++;
		w = word_at(line, lend, &wn);
		if (!wn)
			continue;
		if (starts(line, n, "Kernel Version:")) {
			char *k = xstrndup(line + 15, n - 15);

			free(c->kernel);
			c->kernel = release_in(k);
			free(k);
			continue;
		}
		if (starts(w, wn, "tag=")) {
			ret = ltp_tag_line(set, path, line, n, lineno);
			seen = 1;
			continue;
		}
		if (wn == 8 && !memcmp(w, "Testcase", 8)) {
			in_table = 1;
			rows = 0;
			seen = 1;
			continue;
		}
		if (!in_table)
			continue;
		if (*w == '-') {
			/* The header's underline, or the end of the table. */
			in_table = !rows;
			continue;
		}
		rows++;
		r = word_at(w + wn, lend, &rn);
		if (ltp_outcome(r, rn, &o) < 0 || !test_name_ok(w, wn)) {
			ret = error("%s:%u: not a test's line (TAG RESULT "
				    "EXIT): '%.*s'", path, lineno, SHORT(line, n));
			break;
		}
		add_item(set, ltp_suite, w, wn, o, path, lineno);
		if (o == RESULT_FAIL)
			set->items[set->nr - 1].message = xstrndup(r, rn);
	}
	if (!ret && !seen)
		ret = error("%s: not an LTP log (no 'Testcase' header, no "
			    "'tag=' line)", path);
	return ret;
}

int result_parse_kirk(struct result_set *set, const char *path,
		      const char *buf, size_t len)
{
	struct json_object o;
	const struct json_member *results, *env;
	const char *why;
	size_t at, i;
	int ret = 0;

	json_object_init(&o);
	if (json_object_parse(&o, buf, len, &why, &at) < 0) {
		ret = error("%s:%u: %s", path, line_at(buf, at), why);
		goto out;
	}
	results = json_object_get(&o, "results");
	if (!results || (results->type != JSON_OTHER &&
			 results->type != JSON_ARRAY)) {
		ret = error("%s: not a kirk report (no \"results\" array)", path);
		goto out;
	}
	env = json_object_get(&o, "environment");
	if (env && env->nr_objects) {
		const struct json_member *k = json_object_get(&env->objects[0],
							      "kernel");
		struct result_config *c = add_config(set, ltp_suite, path);

		if (k && k->type == JSON_STRING && !c->kernel)
			c->kernel = release_in(k->value);
	} else {
		add_config(set, ltp_suite, path);
	}
	for (i = 0; !ret && i < results->nr_objects; i++) {
		const struct json_object *r = &results->objects[i];
		const struct json_member *name = json_object_get(r, "test_fqn");
		const struct json_member *status = json_object_get(r, "status");
		enum result_outcome oc = RESULT_FAIL;
		struct result_item *it;

		if (!name || name->type != JSON_STRING || !status ||
		    status->type != JSON_STRING ||
		    !test_name_ok(name->value, strlen(name->value))) {
			ret = error("%s: result %zu has no test_fqn and status",
				    path, i + 1);
			break;
		}
		if (ltp_outcome(status->value, strlen(status->value), &oc) < 0)
			oc = RESULT_FAIL;	/* "timeout", a crash ... */
		it = add_item(set, ltp_suite, name->value, strlen(name->value),
			      oc, path, 0);
		if (oc == RESULT_FAIL)
			it->message = xstrdup(status->value);
	}
out:
	json_object_release(&o);
	return ret;
}

int result_parse_expunge(struct result_set *set, const char *path,
			 const char *config, const char *buf, size_t len)
{
	const char *p = buf, *end = buf + len, *line;
	unsigned lineno = 0;
	size_t n;

	while (next_line(&p, end, &line, &n)) {
		const char *lend = line + n, *w, *hash, *rest;
		size_t wn, rn;
		struct result_item *it;

		lineno++;
		w = word_at(line, lend, &wn);
		if (!wn || *w == '#')
			continue;
		hash = memchr(w, '#', (size_t)(lend - w));
		if (hash && hash < w + wn)
			wn = (size_t)(hash - w);
		if (!test_name_ok(w, wn))
			return error("%s:%u: not a test name: '%.*s'", path,
				     lineno, SHORT(w, wn));
		rest = word_at(w + wn, lend, &rn);
		if (rn && *rest != '#')
			return error("%s:%u: '%.*s' after the test is not a "
				     "comment (they start with '#')", path,
				     lineno, SHORT(rest, (size_t)(lend - rest)));
		ALLOC_GROW(set->expunged, set->nr_expunged,
			   set->alloc_expunged);
		it = &set->expunged[set->nr_expunged++];
		memset(it, 0, sizeof(*it));
		it->config = xstrdup(config);
		it->test = xstrndup(w, wn);
		it->suite = suite_of(it->test);
		it->outcome = RESULT_FAIL;
		it->file = xstrdup(path);
		it->line = lineno;
		if (hash) {
			struct strbuf sb = STRBUF_INIT;

			strbuf_add(&sb, hash + 1, (size_t)(lend - hash - 1));
			strbuf_trim(&sb);
			if (sb.len)
				it->reason = strbuf_detach(&sb, NULL);
			strbuf_release(&sb);
		}
	}
	return 0;
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

/* A section's name from its directory: "global" for results/ itself. */
static char *section_of(const char *name)
{
	return xstrdup(!*name || !strcmp(name, "results") ? "global" : name);
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
		if (!test_name_ok(w, wn) || (rn && *rest != '#'))
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

		config = section_of(dir);
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

static int read_file_at(struct result_set *set, const char *path,
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
			if (!test_name_ok(test.buf, test.len)) {
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
				add_item(set, config, test.buf, test.len, v[k].o,
					 path, 0);
			}
			free(path);
			strbuf_release(&test);
		}
		free_string_array(names, nr);
		free(gdir);
	}
	free_string_array(groups, nr_groups);
	if (!ret && set->nr > first)
		add_config(set, config, dir);
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
		ret = read_file_at(set, path, 0);
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

static int read_results_dir(struct result_set *set, const char *dir)
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
		char *slash = strrchr(name, '/'), *config = section_of(slash ?
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

int result_read(struct result_set *set, const char *path, unsigned flags)
{
	struct stat st;

	if (stat(path, &st) < 0)
		return error("cannot read '%s': %s", path, strerror(errno));
	if (S_ISDIR(st.st_mode))
		return read_results_dir(set, path);
	if (!S_ISREG(st.st_mode))
		return error("cannot read '%s': not a file or a directory", path);
	return read_file_at(set, path, flags);
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
