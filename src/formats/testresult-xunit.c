/*
 * fstests' xunit report (check -R xunit), and xfstests-bld's merge of
 * several: see testresult.h.  base/xml.h reads the tags; this file
 * knows which of them say what.
 */
#include "formats/testresult-internal.h"
#include "base/error.h"
#include "base/strbuf.h"
#include "base/util.h"
#include "base/xml.h"

#include <stdlib.h>
#include <string.h>

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
	const char *section;
	size_t i;

	if (!config && s->classname &&
	    skip_prefix(s->classname, "xfstests.", &section) && *section)
		config = from_class = xstrdup(section);
	if (!config || !strcmp(config, "-no-sections-"))
		config = "global";
	c = result_add_config(set, config, path);
	if (s->props[3])
		result_field_once(&c->kernel, s->props[3]);
	else if (s->props[4] && !c->kernel)
		c->kernel = result_release_in(s->props[4]);
	result_field_once(&c->fstyp, s->props[5]);
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
					result_field_once(&s.props[i],
							  xml_attr(&x, "value"));
		} else if (xml_is(&x, "testcase") && !x.closing) {
			const char *name = xml_attr(&x, "name");

			if (in_case) {
				ret = xml_error(&x, "<testcase> inside another");
				break;
			}
			if (!name || !result_test_name_ok(name, strlen(name))) {
				ret = xml_error(&x, name ? "<testcase> name is "
						"not a test name" :
						"<testcase> without a name");
				break;
			}
			strbuf_reset(&test);
			strbuf_addstr(&test, name);
			strbuf_reset(&message);
			result_field_once(&s.classname,
					  xml_attr(&x, "classname"));
			outcome = RESULT_PASS;
			case_line = xml_line(&x);
			in_case = !x.empty;
			if (x.empty)
				result_add_item(set, NULL, test.buf, test.len,
						outcome, path, case_line);
		} else if (xml_is(&x, "testcase")) {
			struct result_item *it;

			if (!in_case) {
				ret = xml_error(&x, "</testcase> without its "
						"<testcase>");
				break;
			}
			it = result_add_item(set, NULL, test.buf, test.len,
					     outcome, path, case_line);
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
			result_add_config(set, "global", path);
			set->items[first].config = xstrdup("global");
		}
	xml_release(&x);
	suite_release(&s);
	strbuf_release(&test);
	strbuf_release(&message);
	return ret;
}
