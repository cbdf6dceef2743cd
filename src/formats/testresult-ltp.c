/*
 * LTP's results: the log of runltp (ltp-pan -l) and the JSON report of
 * kirk (--json-report); see testresult.h.
 */
#include "formats/testresult-internal.h"
#include "base/ascii.h"
#include "base/error.h"
#include "base/json.h"
#include "base/util.h"

#include <stdlib.h>
#include <string.h>

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
	if (!tag || !result_test_name_ok(tag, tag_len) || stat < 0)
		return error("%s:%u: not a test's line (tag=NAME ... stat=N)",
			     path, lineno);
	if (exit_how && !(exit_len == 6 && !memcmp(exit_how, "exited", 6)))
		o = RESULT_FAIL;	/* signaled, stopped */
	else
		o = stat == 0 ? RESULT_PASS : stat == 32 ? RESULT_SKIP :
		    RESULT_FAIL;
	result_add_item(set, result_ltp_suite, tag, tag_len, o, path, lineno);
	return 0;
}

int result_parse_ltp_log(struct result_set *set, const char *path,
			 const char *buf, size_t len)
{
	const char *p = buf, *end = buf + len, *line;
	struct result_config *c = result_add_config(set, result_ltp_suite,
						    path);
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
			c->kernel = result_release_in(k);
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
		if (ltp_outcome(r, rn, &o) < 0 || !result_test_name_ok(w, wn)) {
			ret = error("%s:%u: not a test's line (TAG RESULT "
				    "EXIT): '%.*s'", path, lineno, SHORT(line, n));
			break;
		}
		result_add_item(set, result_ltp_suite, w, wn, o, path, lineno);
		if (o == RESULT_FAIL)
			set->items[set->nr - 1].message = xstrndup(r, rn);
	}
	if (!ret && !seen)
		ret = error("%s: not an LTP log (no 'Testcase' header, no "
			    "'tag=' line)", path);
	return ret;
}

/* The line number of offset at in buf. */
static unsigned line_at(const char *buf, size_t at)
{
	unsigned line = 1;
	size_t i;

	for (i = 0; i < at; i++)
		line += buf[i] == '\n';
	return line;
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
		struct result_config *c = result_add_config(set,
							    result_ltp_suite,
							    path);

		if (k && k->type == JSON_STRING && !c->kernel)
			c->kernel = result_release_in(k->value);
	} else {
		result_add_config(set, result_ltp_suite, path);
	}
	for (i = 0; !ret && i < results->nr_objects; i++) {
		const struct json_object *r = &results->objects[i];
		const struct json_member *name = json_object_get(r, "test_fqn");
		const struct json_member *status = json_object_get(r, "status");
		enum result_outcome oc = RESULT_FAIL;
		struct result_item *it;

		if (!name || name->type != JSON_STRING || !status ||
		    status->type != JSON_STRING ||
		    !result_test_name_ok(name->value, strlen(name->value))) {
			ret = error("%s: result %zu has no test_fqn and status",
				    path, i + 1);
			break;
		}
		if (ltp_outcome(status->value, strlen(status->value), &oc) < 0)
			oc = RESULT_FAIL;	/* "timeout", a crash ... */
		it = result_add_item(set, result_ltp_suite, name->value,
				     strlen(name->value), oc, path, 0);
		if (oc == RESULT_FAIL)
			it->message = xstrdup(status->value);
	}
out:
	json_object_release(&o);
	return ret;
}
