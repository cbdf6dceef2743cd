/*
 * Fuzz target: json_object_parse(), the reader of a JSON Lines line
 * (rules test's messages).
 *
 * The input is the line, passed as it is, without a NUL after it: the
 * fuzzer (and ASan) see any read past its end.  What json.h promises of
 * the result is checked too.
 */
#include "fuzz.h"
#include "base/json.h"

#include <string.h>

static void check(const struct json_object *o, int ret, const char *why,
		  size_t at, size_t size)
{
	size_t i, j;

	if (ret < 0) {
		FUZZ_CHECK(why && *why);
		FUZZ_CHECK(at <= size);
		return;
	}
	for (i = 0; i < o->nr; i++) {
		const struct json_member *m = &o->members[i];

		FUZZ_CHECK(m->key);
		FUZZ_CHECK(json_object_get(o, m->key));
		switch (m->type) {
		case JSON_STRING:
		case JSON_NUMBER:
			FUZZ_CHECK(m->value);
			break;
		case JSON_ARRAY:
			for (j = 0; j < m->nr_items; j++)
				FUZZ_CHECK(m->items[j]);
			break;
		default:
			FUZZ_CHECK(!m->nr_items);
		}
		/* A string is never longer than the text it came from. */
		FUZZ_CHECK(!m->value || strlen(m->value) <= size);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct json_object o;
	const char *why = NULL;
	size_t at = 0;
	int ret;

	json_object_init(&o);
	ret = json_object_parse(&o, (const char *)data, size, &why, &at);
	check(&o, ret, why, at, size);
	json_object_release(&o);
	return 0;
}
