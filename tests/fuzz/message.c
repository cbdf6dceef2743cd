/*
 * Fuzz target: message_parse(), the commit-message parser (trailers,
 * Fixes:, Cc: stable hints, reverts), with message_read_backports()
 * (the upstream ids, by the kernel's backport lines of default.rules)
 * and message_revert_reason().
 *
 * The input is the message.  message_parse() takes text and length and
 * needs no NUL at the end, so the input is passed as it is: the fuzzer
 * (and ASan) see any read past its end.  What the header promises of
 * the result is checked too.
 */
#include "fuzz.h"
#include "formats/message.h"
#include "formats/rules.h"

#include <stdlib.h>

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

/* The backport lines of the shipped default.rules, and Xen's. */
static const char backport_rules[] =
	"backport upstream-line message /^[ \\t]*commit[ \\t]+([0-9a-f]{40})[ \\t]*upstream(?![0-9a-z])/mi\n"
	"backport upstream-bracket message /\\[[ \\t]*upstream[ \\t]*commit:?[ \\t]*([0-9a-f]{40})/i\n"
	"backport cherry-picked message /cherry picked from commit[ \\t]*([0-9a-f]{40})/i\n"
	"backport xen message /^master commit: (?<id>[0-9a-f]{40})$/m\n";

static const struct ruleset *rules(void)
{
	static struct ruleset rs;
	static int loaded;

	if (!loaded) {
		ruleset_init(&rs);
		FUZZ_CHECK(!ruleset_load_buffer(&rs, "fuzz.rules", backport_rules,
						strlen(backport_rules)));
		loaded = 1;
	}
	return &rs;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct message m;

	message_init(&m);
	message_parse(&m, (const char *)data, size);
	message_read_backports(&m, (const char *)data, size, rules());
	check(&m);
	free(message_revert_reason(&m, rules()));
	/* A second parse into the same message releases the first. */
	message_parse(&m, (const char *)data, size / 2);
	message_read_backports(&m, (const char *)data, size / 2, rules());
	check(&m);
	message_release(&m);
	return 0;
}
