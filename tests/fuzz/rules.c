/*
 * Fuzz target: ruleset_load_buffer(), the rule-file parser, and
 * rule_match(), the matcher with its PCRE2 limits.
 *
 * The input is a rule file, optionally followed by a NUL byte and a
 * text: every rule that loaded (global, per subsystem, and those of a
 * subsystem derived from each template) is matched against that text,
 * or against the whole input if there is no NUL.  rule_match() must
 * give up rather than hang on a pattern that backtracks without end;
 * the fuzzer's -timeout makes a hang a finding.  A match that gives up
 * costs the library's match limit, a few milliseconds, so a file of
 * thousands of such rules is slow in proportion: by design, and not
 * what the timeout is for.  At most MATCH_RULES_MAX rules are matched.
 */
#include "fuzz.h"
#include "formats/rules.h"

#include <string.h>

/* The text handed to the matcher, at most (a long commit message). */
#define MATCH_TEXT_MAX 16384
/* Rules matched per input, at most. */
#define MATCH_RULES_MAX 256

static size_t nr_matched;

static void match_rules(const struct ruleset *rs, const struct rule *rules,
			size_t nr, const char *text, size_t len)
{
	struct rule_match_result res;
	size_t i;
	int ret;

	for (i = 0; i < nr && nr_matched < MATCH_RULES_MAX; i++) {
		const struct rule *r = &rules[i];

		FUZZ_CHECK(r->name && r->pattern && r->flags && r->re);
		FUZZ_CHECK(r->field != FIELD_TRAILER || r->trailer);
		ret = rule_match(rs, r, text, len, &res);
		nr_matched++;
		FUZZ_CHECK(ret >= -1 && ret <= 1);
		if (ret == 1)
			FUZZ_CHECK(res.start <= res.end && res.end <= len);
	}
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	fuzz_quiet();
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *buf = (const char *)data;
	const char *nul = memchr(buf, '\0', size);
	size_t rules_len = nul ? (size_t)(nul - buf) : size;
	const char *text = nul ? nul + 1 : buf;
	size_t text_len = nul ? size - rules_len - 1 : size, i, nr;
	struct ruleset rs;

	if (text_len > MATCH_TEXT_MAX)
		text_len = MATCH_TEXT_MAX;
	nr_matched = 0;
	ruleset_init(&rs);
	ruleset_load_buffer(&rs, "fuzz.rules", buf, rules_len);

	/* scan.c derives one subsystem per directory from a template. */
	nr = rs.nr_subsystems;
	for (i = 0; i < nr; i++) {
		const struct subsystem *s = rs.subsystems[i];

		FUZZ_CHECK(s->name);
		if (s->is_template)
			ruleset_add_derived(&rs, s, "fuzz-derived",
					    "fs/fuzz-derived/");
	}
	(void)ruleset_threshold(&rs, NULL);

	match_rules(&rs, rs.rules, rs.nr_rules, text, text_len);
	for (i = 0; i < rs.nr_subsystems; i++) {
		const struct subsystem *s = rs.subsystems[i];

		(void)ruleset_threshold(&rs, s);
		(void)policy_name(s->policy);
		match_rules(&rs, s->rules, s->nr_rules, text, text_len);
	}
	ruleset_release(&rs);
	return 0;
}
