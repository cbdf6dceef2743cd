/*
 * Fuzz target: message_parse(), the commit-message parser (trailers,
 * Fixes:, Cc: stable hints, upstream references, reverts).
 *
 * The input is the message.  message_parse() takes text and length and
 * needs no NUL at the end, so the input is passed as it is: the fuzzer
 * (and ASan) see any read past its end.  What the header promises of
 * the result is checked too.
 */
#include "fuzz.h"
#include "formats/message.h"

#include <string.h>

static int is_lower_hex(const char *s, size_t min, size_t max)
{
	size_t n = strlen(s), i;

	if (n < min || n > max)
		return 0;
	for (i = 0; i < n; i++)
		if (!((s[i] >= '0' && s[i] <= '9') || (s[i] >= 'a' && s[i] <= 'f')))
			return 0;
	return 1;
}

static void check(const struct message *m)
{
	const struct trailer *t;
	size_t i, pos = 0;

	FUZZ_CHECK(m->subject && m->body);
	FUZZ_CHECK(!strchr(m->subject, '\n'));
	for (i = 0; i < m->nr_trailers; i++) {
		FUZZ_CHECK(m->trailers[i].key && m->trailers[i].val);
		FUZZ_CHECK(m->trailers[i].lineno >= 1);
	}
	for (i = 0; i < m->nr_fixes; i++)
		FUZZ_CHECK(is_lower_hex(m->fixes[i].id, 4, 40));
	for (i = 0; i < m->nr_stable; i++) {
		const struct stable_tag *st = &m->stable[i];

		FUZZ_CHECK(st->addr);
		FUZZ_CHECK(!st->prereq_id || is_lower_hex(st->prereq_id, 4, 40));
	}
	for (i = 0; i < m->nr_upstream; i++)
		FUZZ_CHECK(is_lower_hex(m->upstream[i], 40, 40));
	FUZZ_CHECK(!m->reverts_id || is_lower_hex(m->reverts_id, 4, 40));
	for (i = 0; i < m->nr_diags; i++)
		FUZZ_CHECK(m->diags[i].msg);
	while ((t = message_trailer_next(m, "Fixes", &pos)))
		FUZZ_CHECK(t->val);
	(void)message_cc_stable(m);
	(void)message_noautosel(m);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct message m;

	message_init(&m);
	message_parse(&m, (const char *)data, size);
	check(&m);
	/* A second parse into the same message releases the first. */
	message_parse(&m, (const char *)data, size / 2);
	check(&m);
	message_release(&m);
	return 0;
}
