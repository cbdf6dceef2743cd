/* Unit tests for the XML pull reader (base/xml.h). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/xml.h"
#include "capture.h"

static void start(struct xml *x, const char *text)
{
	xml_init(x, "t.xml", text, strlen(text));
}

/* Tags in order, attributes decoded, what lies between read over. */
static void test_tags_and_attributes(void **state)
{
	struct xml x;

	(void)state;
	start(&x, "<?xml version=\"1.0\"?>\n"
		  "<!DOCTYPE r [ <!ENTITY e \"<x>\"> ]>\n"
		  "<!-- <skipped a='1'/> -->\n"
		  "<r one=\"1\" two = 'a &amp; &lt;b&gt; &quot;&apos; &#233;&#x41;'\n"
		  "   three=\"&bogus; &#0; & x\">\n"
		  "text <![CDATA[<skipped/>]]> more\n"
		  "<e/></r>");
	assert_int_equal(xml_next(&x), 1);
	assert_true(xml_is(&x, "r"));
	assert_false(xml_is(&x, "ro"));
	assert_false(x.closing);
	assert_false(x.empty);
	assert_int_equal(x.nr_attrs, 3);
	assert_string_equal(xml_attr(&x, "one"), "1");
	assert_string_equal(xml_attr(&x, "two"),
			    "a & <b> \"' \xc3\xa9" "A");
	/* What is no entity stays as it is. */
	assert_string_equal(xml_attr(&x, "three"), "&bogus; &#0; & x");
	assert_null(xml_attr(&x, "on"));
	assert_int_equal(xml_line(&x), 5);

	assert_int_equal(xml_next(&x), 1);
	assert_true(xml_is(&x, "e"));
	assert_true(x.empty);
	assert_int_equal(x.nr_attrs, 0);
	assert_null(xml_attr(&x, "one"));
	assert_int_equal(xml_line(&x), 7);

	assert_int_equal(xml_next(&x), 1);
	assert_true(xml_is(&x, "r"));
	assert_true(x.closing);

	assert_int_equal(xml_next(&x), 0);
	assert_int_equal(xml_next(&x), 0);
	xml_release(&x);
}

/* Each malformed text fails with its cause, at its line. */
static void test_malformed(void **state)
{
	static const struct { const char *text, *err; } cases[] = {
		{ "<a>\n<!-- open", "error: t.xml:2: comment is not closed\n" },
		{ "<![CDATA[ x", "error: t.xml:1: CDATA section is not closed\n" },
		{ "<?xml", "error: t.xml:1: declaration is not closed\n" },
		{ "<!DOCTYPE [ > ", "error: t.xml:1: declaration is not closed\n" },
		{ "\n< a/>", "error: t.xml:2: '<' not followed by a name\n" },
		{ "<a b='1'", "error: t.xml:1: tag is not closed\n" },
		{ "</a b='1'>", "error: t.xml:1: bad character in a tag\n" },
		{ "<a b>", "error: t.xml:1: attribute without a value\n" },
		{ "<a b=1>", "error: t.xml:1: attribute value is not quoted\n" },
		{ "<a b='\n<'>", "error: t.xml:2: '<' in an attribute value\n" },
		{ "<a b=\"1>", "error: t.xml:1: attribute value is not closed\n" },
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct capture c;
		struct xml x;
		char *err;
		int r;

		start(&x, cases[i].text);
		capture_begin(&c);
		while ((r = xml_next(&x)) > 0)
			;
		err = capture_end(&c);
		xml_release(&x);
		assert_int_equal(r, -1);
		assert_string_equal(err, cases[i].err);
		free(err);
	}
}

/* Attributes past XML_MAX_ATTRS are refused, not dropped. */
static void test_too_many_attributes(void **state)
{
	char text[64 * (XML_MAX_ATTRS + 1) + 8];
	struct capture c;
	struct xml x;
	size_t i, n;
	char *err;

	(void)state;
	n = (size_t)snprintf(text, sizeof(text), "<a");
	for (i = 0; i < XML_MAX_ATTRS; i++)
		n += (size_t)snprintf(text + n, sizeof(text) - n, " k%zu='%zu'",
				      i, i);
	snprintf(text + n, sizeof(text) - n, "/>");
	start(&x, text);
	assert_int_equal(xml_next(&x), 1);
	assert_int_equal(x.nr_attrs, XML_MAX_ATTRS);
	assert_string_equal(xml_attr(&x, "k31"), "31");
	xml_release(&x);

	snprintf(text + n, sizeof(text) - n, " k='x'/>");
	start(&x, text);
	capture_begin(&c);
	assert_int_equal(xml_next(&x), -1);
	err = capture_end(&c);
	xml_release(&x);
	assert_string_equal(err, "error: t.xml:1: too many attributes\n");
	free(err);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_tags_and_attributes),
		cmocka_unit_test(test_malformed),
		cmocka_unit_test(test_too_many_attributes),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
