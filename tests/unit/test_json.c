/* Unit tests for the JSON object reader of rules test. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <string.h>

#include "base/json.h"
#include "base/strbuf.h"
#include "base/util.h"

static int parse(struct json_object *o, const char *text, const char **why,
		 size_t *at)
{
	json_object_init(o);
	return json_object_parse(o, text, strlen(text), why, at);
}

static void test_members(void **state)
{
	struct json_object o;
	const struct json_member *m;
	const char *why = NULL;
	size_t at = 0;

	(void)state;
	assert_int_equal(parse(&o, " {\"subject\": \"xfs: fix\", \"n\": -1.5e3,"
			       " \"t\": true, \"f\": false, \"z\": null,"
			       " \"paths\": [\"fs/a.c\", \"fs/b.c\"],"
			       " \"nested\": {\"x\": [1, {\"y\": []}]},"
			       " \"mixed\": [\"a\", 1],"
			       " \"n\": 2 }\r\n", &why, &at), 0);
	m = json_object_get(&o, "subject");
	assert_non_null(m);
	assert_int_equal(m->type, JSON_STRING);
	assert_string_equal(m->value, "xfs: fix");
	/* A repeated key: the last one. */
	m = json_object_get(&o, "n");
	assert_int_equal(m->type, JSON_NUMBER);
	assert_string_equal(m->value, "2");
	assert_int_equal(json_object_get(&o, "t")->type, JSON_TRUE);
	assert_int_equal(json_object_get(&o, "f")->type, JSON_FALSE);
	assert_int_equal(json_object_get(&o, "z")->type, JSON_NULL);
	m = json_object_get(&o, "paths");
	assert_int_equal(m->type, JSON_ARRAY);
	assert_int_equal(m->nr_items, 2);
	assert_string_equal(m->items[1], "fs/b.c");
	/* A nested object is kept; so are the objects of an array. */
	m = json_object_get(&o, "nested");
	assert_int_equal(m->type, JSON_OTHER);
	assert_null(m->value);
	assert_int_equal(m->nr_objects, 1);
	m = json_object_get(&m->objects[0], "x");
	assert_non_null(m);
	assert_int_equal(m->type, JSON_OTHER);
	assert_int_equal(m->nr_objects, 1);
	m = json_object_get(&m->objects[0], "y");
	assert_int_equal(m->type, JSON_ARRAY);
	assert_int_equal(m->nr_items, 0);
	m = json_object_get(&o, "mixed");
	assert_int_equal(m->type, JSON_OTHER);
	assert_int_equal(m->nr_items, 0);
	assert_int_equal(m->nr_objects, 0);
	assert_null(json_object_get(&o, "x"));
	json_object_release(&o);
}

static void test_escapes(void **state)
{
	struct json_object o;
	const char *why = NULL;
	size_t at = 0;

	(void)state;
	assert_int_equal(parse(&o, "{\"s\": \"a\\\"b\\\\c\\/d\\n\\t"
			       "\\u00e9\\u20ac\\ud83d\\ude00\"}", &why, &at), 0);
	assert_string_equal(json_object_get(&o, "s")->value,
			    "a\"b\\c/d\n\t\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80");
	json_object_release(&o);

	/* A lone surrogate is U+FFFD; the unit after it is kept. */
	assert_int_equal(parse(&o, "{\"s\": \"\\ud83dx\\ud83d\\u0041\\ude00\"}",
			       &why, &at), 0);
	assert_string_equal(json_object_get(&o, "s")->value,
			    "\xef\xbf\xbdx\xef\xbf\xbd" "A\xef\xbf\xbd");
	json_object_release(&o);

	/* A NUL cuts the string; bytes that are not UTF-8 pass through. */
	assert_int_equal(parse(&o, "{\"s\": \"ab\\u0000cd\", \"t\": \"\xff\"}",
			       &why, &at), 0);
	assert_string_equal(json_object_get(&o, "s")->value, "ab");
	assert_string_equal(json_object_get(&o, "t")->value, "\xff");
	json_object_release(&o);
}

static void expect_error(const char *text, const char *want, size_t want_at)
{
	struct json_object o;
	const char *why = NULL;
	size_t at = 0;

	assert_int_equal(parse(&o, text, &why, &at), -1);
	assert_non_null(why);
	if (strcmp(why, want) || at != want_at)
		print_error("'%s': %s at %zu\n", text, why, at);
	assert_string_equal(why, want);
	assert_int_equal(at, want_at);
	json_object_release(&o);
}

/*
 * The escaping, one character at a time, as JSON defines it: what
 * json_add_string() must write, however it goes about it.
 */
static void escape_slowly(struct strbuf *sb, const unsigned char *s,
			  size_t len)
{
	size_t i = 0, n;

	strbuf_addch(sb, '"');
	while (i < len) {
		unsigned char ch = s[i];

		if (ch == '"' || ch == '\\') {
			strbuf_addch(sb, '\\');
			strbuf_addch(sb, (char)ch);
			i++;
		} else if (ch == '\n' || ch == '\r' || ch == '\t') {
			strbuf_addch(sb, '\\');
			strbuf_addch(sb, ch == '\n' ? 'n' : ch == '\r' ? 'r' : 't');
			i++;
		} else if (ch < 0x20 || ch == 0x7f) {
			strbuf_addf(sb, "\\u%04x", ch);
			i++;
		} else if (!(n = utf8_seq_len(s + i, len - i))) {
			strbuf_addstr(sb, "\\ufffd");
			i++;
		} else {
			strbuf_add(sb, s + i, n);
			i += n;
		}
	}
	strbuf_addch(sb, '"');
}

/*
 * Strings of printable runs, escapes, control bytes, valid and broken
 * UTF-8 (a fixed sequence of pseudo-random picks): the same bytes as
 * the character-at-a-time escaping.
 */
static void test_escapes_random(void **state)
{
	static const char *const pieces[] = {
		"plain ascii text ", "\"", "\\", "\n", "\r", "\t", "\x01",
		"\x7f", "\xc3\xa9", "\xe2\x82\xac", "\xf0\x9f\x98\x80",
		"\xc3", "\xe2\x82", "\xff", "\x80", "~", " ", "{}[]:,",
	};
	struct strbuf in = STRBUF_INIT, fast = STRBUF_INIT, slow = STRBUF_INIT;
	uint32_t seed = 12345;
	size_t round, k;

	(void)state;
	for (round = 0; round < 2000; round++) {
		strbuf_reset(&in);
		strbuf_reset(&fast);
		strbuf_reset(&slow);
		for (k = 0; k < round % 23; k++) {
			seed = seed * 1103515245u + 12345u;
			strbuf_addstr(&in, pieces[(seed >> 16) %
						  (sizeof(pieces) / sizeof(*pieces))]);
		}
		json_add_string(&fast, in.buf, in.len);
		escape_slowly(&slow, (const unsigned char *)in.buf, in.len);
		assert_int_equal(fast.len, slow.len);
		assert_memory_equal(fast.buf, slow.buf, fast.len);
	}
	strbuf_release(&in);
	strbuf_release(&fast);
	strbuf_release(&slow);
}

static void test_errors(void **state)
{
	struct strbuf deep = STRBUF_INIT;
	int i;

	(void)state;
	expect_error("", "not a JSON object", 0);
	expect_error("[1]", "not a JSON object", 0);
	expect_error("{\"a\": 1} x", "text after the object", 9);
	expect_error("{\"a\" 1}", "expected ':'", 5);
	expect_error("{\"a\": 1 \"b\": 2}", "expected ',' or '}' in an object", 8);
	expect_error("{a: 1}", "expected a member name", 1);
	expect_error("{\"a\": \"x", "unterminated string", 8);
	expect_error("{\"a\": \"x\ty\"}", "control character in a string", 8);
	expect_error("{\"a\": \"\\q\"}", "bad escape in a string", 8);
	expect_error("{\"a\": \"\\u12g4\"}", "bad \\u escape", 9);
	expect_error("{\"a\": \"\\u12", "short \\u escape", 9);
	expect_error("{\"a\": tru}", "unexpected text", 6);
	expect_error("{\"a\": -}", "bad number", 7);
	expect_error("{\"a\": [1 2]}", "expected ',' or ']' in an array", 9);
	expect_error("{\"a\": }", "missing value", 6);

	/* Nesting is bounded (64 values deep, the object's own aside): a
	 * hostile line cannot exhaust the stack. */
	strbuf_addstr(&deep, "{\"a\": ");
	for (i = 0; i < 100000; i++)
		strbuf_addch(&deep, '[');
	expect_error(deep.buf, "too deeply nested", 6 + 64);
	strbuf_release(&deep);
}

/* The writer: commas, nesting, null, numbers, and what it writes reads back. */
static void test_writer(void **state)
{
	static const char *const facts[] = { "follow-up", "cve" };
	struct strbuf out = STRBUF_INIT;
	struct json_object o;
	struct json_writer jw;
	const char *why = NULL;
	size_t at = 0;

	(void)state;
	jw_init(&jw, &out);
	jw_object_begin(&jw);
	jw_object_string(&jw, "subject", "xfs: \"quoted\"\n\x01");
	jw_object_string(&jw, "none", NULL);
	jw_object_int(&jw, "score", -12);
	jw_object_double(&jw, "recall", 4, 2.0 / 3);
	jw_object_bool(&jw, "applies", 0);
	jw_object_strings(&jw, "facts", facts, 2);
	jw_object_strings(&jw, "empty", NULL, 0);
	jw_object_array(&jw, "nested");
	jw_array_object(&jw);
	jw_object_null(&jw, "x");
	jw_end(&jw);
	jw_array_int(&jw, 7);
	jw_array_array(&jw);
	jw_end(&jw);
	jw_end(&jw);
	jw_object_object(&jw, "series");
	jw_end(&jw);
	jw_end(&jw);
	assert_int_equal(jw.depth, 0);
	assert_string_equal(out.buf,
		"{\"subject\":\"xfs: \\\"quoted\\\"\\n\\u0001\",\"none\":null,"
		"\"score\":-12,\"recall\":0.6667,\"applies\":false,"
		"\"facts\":[\"follow-up\",\"cve\"],\"empty\":[],"
		"\"nested\":[{\"x\":null},7,[]],\"series\":{}}");

	/* The reader takes what the writer wrote. */
	json_object_init(&o);
	assert_int_equal(json_object_parse(&o, out.buf, out.len, &why, &at), 0);
	assert_string_equal(json_object_get(&o, "subject")->value,
			    "xfs: \"quoted\"\n\x01");
	assert_int_equal(json_object_get(&o, "none")->type, JSON_NULL);
	assert_int_equal(json_object_get(&o, "facts")->nr_items, 2);
	json_object_release(&o);

	/* A second record after the first: no comma between them. */
	strbuf_reset(&out);
	jw_object_begin(&jw);
	jw_end(&jw);
	jw_object_begin(&jw);
	jw_object_int(&jw, "n", 1);
	jw_end(&jw);
	assert_string_equal(out.buf, "{}{\"n\":1}");
	strbuf_release(&out);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_members),
		cmocka_unit_test(test_escapes),
		cmocka_unit_test(test_escapes_random),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_writer),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
