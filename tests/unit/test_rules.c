/* Unit tests for the rule-file loader and the matcher. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "formats/rules.h"
#include "base/strbuf.h"
#include "base/util.h"

/* What a load printed on stderr, captured through a temporary file. */
struct captured {
	int saved_fd;
	FILE *tmp;
};

static void capture_start(struct captured *c)
{
	fflush(stderr);
	c->tmp = tmpfile();
	assert_non_null(c->tmp);
	c->saved_fd = dup(2);
	assert_true(c->saved_fd >= 0);
	assert_true(dup2(fileno(c->tmp), 2) >= 0);
}

static void capture_end(struct captured *c, struct strbuf *out)
{
	char buf[4096];
	size_t got;

	fflush(stderr);
	assert_true(dup2(c->saved_fd, 2) >= 0);
	close(c->saved_fd);
	rewind(c->tmp);
	while ((got = fread(buf, 1, sizeof(buf), c->tmp)) > 0)
		strbuf_add(out, buf, got);
	fclose(c->tmp);
}

/* Loads text as "t.rules" into rs; returns the result, stderr in *err. */
static int load(struct ruleset *rs, const char *text, struct strbuf *err)
{
	struct captured c;
	int ret;

	capture_start(&c);
	ret = ruleset_load_buffer(rs, "t.rules", text, strlen(text));
	capture_end(&c, err);
	return ret;
}

/* Loads text into a fresh ruleset and checks the exact stderr. */
static void expect_errors(const char *text, const char *expected)
{
	struct strbuf err = STRBUF_INIT;
	struct ruleset rs;
	int ret;

	ruleset_init(&rs);
	ret = load(&rs, text, &err);
	assert_string_equal(err.buf, expected);
	assert_int_equal(ret, *expected ? -1 : 0);
	strbuf_release(&err);
	ruleset_release(&rs);
}

static const char *srcdir(void)
{
	const char *dir = getenv("TEST_SRCDIR");

	return dir && *dir ? dir : ".";
}

static void test_shipped_rules_load(void **state)
{
	struct strbuf dir = STRBUF_INIT;
	const struct subsystem *s;
	struct ruleset rs;

	(void)state;
	strbuf_addf(&dir, "%s/rules", srcdir());
	ruleset_init(&rs);
	assert_int_equal(ruleset_load_dir(&rs, dir.buf), 0);
	assert_true(rs.nr_files >= 5);
	assert_non_null(strstr(rs.files[0].path, "default.rules"));
	assert_int_equal(rs.threshold, 10);

	s = ruleset_subsystem(&rs, "*");
	assert_non_null(s);
	assert_true(s->is_template);
	assert_string_equal(s->paths[0], "fs/*/");

	s = ruleset_subsystem(&rs, "xfs");
	assert_non_null(s);
	assert_int_equal(s->policy, POLICY_OPT_IN);
	assert_int_equal(s->nr_rules, 3);
	s = ruleset_subsystem(&rs, "vfs");
	assert_non_null(s);
	assert_int_equal(s->nr_paths, 2);
	assert_string_equal(s->paths[0], "fs/*.c");
	s = ruleset_subsystem(&rs, "btrfs");
	assert_non_null(s);
	assert_int_equal(ruleset_threshold(&rs, s), 12);
	assert_int_equal(ruleset_threshold(&rs, ruleset_subsystem(&rs, "ext4")),
			 10);
	assert_int_equal(ruleset_threshold(&rs, NULL), 10);
	ruleset_release(&rs);
	strbuf_release(&dir);
}

static void test_rule_parts(void **state)
{
	struct strbuf err = STRBUF_INIT;
	struct ruleset rs;
	const struct rule *r;

	(void)state;
	ruleset_init(&rs);
	assert_int_equal(load(&rs,
		"version 2024-01 (for 6.6)\n"
		"rule plus +8 trailer:Fixes /^[0-9a-f]{12}/i\n"
		"rule minus\t-6\tsubject\t/clean ?up/\n"
		"rule bare 3 paths /^fs/xfs/scrub//\n"
		"veto stop message /noautosel/msx\n", &err), 0);
	assert_string_equal(err.buf, "");
	assert_string_equal(rs.files[0].version, "2024-01 (for 6.6)");
	assert_int_equal(rs.nr_rules, 4);

	r = &rs.rules[0];
	assert_string_equal(r->name, "plus");
	assert_int_equal(r->weight, 8);
	assert_int_equal(r->field, FIELD_TRAILER);
	assert_string_equal(r->trailer, "Fixes");
	assert_string_equal(r->pattern, "^[0-9a-f]{12}");
	assert_string_equal(r->flags, "i");
	assert_string_equal(r->file, "t.rules");
	assert_int_equal(r->lineno, 2);
	assert_false(r->veto);

	r = &rs.rules[1];
	assert_int_equal(r->weight, -6);
	assert_int_equal(r->field, FIELD_SUBJECT);
	assert_null(r->trailer);
	assert_string_equal(r->flags, "");

	/* Unescaped slashes: the pattern runs to the last one. */
	r = &rs.rules[2];
	assert_int_equal(r->weight, 3);
	assert_int_equal(r->field, FIELD_PATHS);
	assert_string_equal(r->pattern, "^fs/xfs/scrub/");

	r = &rs.rules[3];
	assert_true(r->veto);
	assert_int_equal(r->field, FIELD_MESSAGE);
	assert_string_equal(r->flags, "msx");
	assert_int_equal(r->lineno, 5);

	assert_string_equal(rule_field_name(FIELD_BODY), "body");
	assert_string_equal(rule_field_name(FIELD_TRAILER), "trailer");
	assert_string_equal(policy_name(POLICY_OPT_IN), "opt-in");
	assert_string_equal(policy_name(POLICY_IGNORE), "ignore");
	strbuf_release(&err);
	ruleset_release(&rs);
}

static void test_comments_blanks_crlf(void **state)
{
	struct strbuf err = STRBUF_INIT;
	struct ruleset rs;

	(void)state;
	ruleset_init(&rs);
	assert_int_equal(load(&rs,
		"# a comment\n"
		"   \t# an indented comment\r\n"
		"\n"
		"  \t \n"
		"threshold 7\r\n"
		"rule hash +1 body /#[0-9]+/  \r\n"
		"subsystem xfs\n"
		"\t# inside a block\n"
		"\tpaths fs/xfs/\n"
		"end", &err), 0);
	assert_string_equal(err.buf, "");
	assert_int_equal(rs.threshold, 7);
	assert_int_equal(rs.nr_rules, 1);
	assert_string_equal(rs.rules[0].pattern, "#[0-9]+");
	assert_string_equal(rs.rules[0].flags, "");
	assert_int_equal(rs.nr_subsystems, 1);
	strbuf_release(&err);
	ruleset_release(&rs);
}

static void test_subsystem_block(void **state)
{
	struct strbuf err = STRBUF_INIT;
	const struct subsystem *s;
	struct ruleset rs;

	(void)state;
	ruleset_init(&rs);
	assert_int_equal(load(&rs,
		"rule global +1 subject /x/\n"
		"subsystem xfs\n"
		"\tpaths fs/xfs/ fs/*.c\n"
		"\tpolicy opt-in\n"
		"\tlist a@b.org c@d.org\n"
		"\tlist e@f.org\n"
		"\tthreshold -3\n"
		"\trule global +2 body /y/\n"
		"\tveto local paths /^fs\\/xfs\\/scrub\\//\n"
		"end\n"
		"subsystem ext4\n"
		"end\n", &err), 0);
	assert_string_equal(err.buf, "");
	assert_int_equal(rs.nr_rules, 1);
	assert_int_equal(rs.nr_subsystems, 2);
	s = ruleset_subsystem(&rs, "xfs");
	assert_ptr_equal(s, rs.subsystems[0]);
	assert_int_equal(s->nr_paths, 2);
	assert_string_equal(s->paths[1], "fs/*.c");
	assert_true(s->has_policy);
	assert_int_equal(s->policy, POLICY_OPT_IN);
	assert_int_equal(s->nr_lists, 3);
	assert_string_equal(s->lists[2], "e@f.org");
	assert_int_equal(ruleset_threshold(&rs, s), -3);
	assert_int_equal(s->nr_rules, 2);
	assert_true(s->rules[1].veto);
	assert_string_equal(s->file, "t.rules");
	assert_int_equal(s->lineno, 2);
	assert_false(s->is_template);

	s = ruleset_subsystem(&rs, "ext4");
	assert_non_null(s);
	assert_false(s->has_policy);
	assert_false(s->has_threshold);
	assert_int_equal(s->nr_paths, 0);
	assert_null(ruleset_subsystem(&rs, "btrfs"));
	strbuf_release(&err);
	ruleset_release(&rs);
}

static void test_match(void **state)
{
	static const char latin1[] = "xfs: fix caf\xe9 \xff\xfe crash";
	struct strbuf err = STRBUF_INIT;
	struct rule_match_result m;
	struct ruleset rs;

	(void)state;
	ruleset_init(&rs);
	assert_int_equal(load(&rs,
		"rule fix +4 subject /\\b(fix|crash)\\b/i\n"
		"rule bytes +1 subject /\\xff\\xfe/\n"
		"rule lines +1 body /^Call Trace:$/m\n", &err), 0);
	assert_int_equal(rule_match(&rs, &rs.rules[0], "xfs: FIX a leak", 15, &m), 1);
	assert_int_equal(m.start, 5);
	assert_int_equal(m.end, 8);
	assert_int_equal(rule_match(&rs, &rs.rules[0], "xfs: prefix", 11, NULL), 0);
	/* Only len bytes count: "fix" lies beyond them. */
	assert_int_equal(rule_match(&rs, &rs.rules[0], "xfs: fix", 4, NULL), 0);
	assert_int_equal(rule_match(&rs, &rs.rules[0], "", 0, NULL), 0);

	/* Text that is not UTF-8 is matched byte by byte, not refused. */
	assert_int_equal(rule_match(&rs, &rs.rules[0], latin1,
				    sizeof(latin1) - 1, &m), 1);
	assert_int_equal(m.start, 5);
	assert_int_equal(rule_match(&rs, &rs.rules[1], latin1,
				    sizeof(latin1) - 1, &m), 1);
	assert_int_equal(m.end - m.start, 2);

	assert_int_equal(rule_match(&rs, &rs.rules[2],
				    "oops\nCall Trace:\n x\n", 20, &m), 1);
	assert_int_equal(m.start, 5);
	strbuf_release(&err);
	ruleset_release(&rs);
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void test_catastrophic_backtracking_gives_up(void **state)
{
	struct strbuf err = STRBUF_INIT, text = STRBUF_INIT;
	struct ruleset rs;
	double start;
	int ret;

	(void)state;
	ruleset_init(&rs);
	assert_int_equal(load(&rs, "rule evil +1 body /(a+)+$/\n", &err), 0);
	strbuf_addchars(&text, 'a', 30);
	strbuf_addch(&text, 'b');
	start = now();
	ret = rule_match(&rs, &rs.rules[0], text.buf, text.len, NULL);
	assert_int_equal(ret, -1);
	/* Unlimited, this takes minutes; the limits stop it at once. */
	assert_true(now() - start < 1.0);
	/* The ruleset still matches normally afterwards. */
	assert_int_equal(rule_match(&rs, &rs.rules[0], "aaa", 3, NULL), 1);
	strbuf_release(&text);
	strbuf_release(&err);
	ruleset_release(&rs);
}

static void test_errors_rules(void **state)
{
	(void)state;
	expect_errors(
		"bogus 1 2\n"
		"rule a\n"
		"rule a +1 subject\n"
		"rule a +1 /x/\n"
		"veto a\n"
		"rule a plus subject /x/\n"
		"rule a 9999999999 subject /x/\n"
		"rule a + subject /x/\n"
		"rule a +1 title /x/\n"
		"rule a +1 trailer: /x/\n"
		"rule a +1 trailer:Signed_off_by /x/\n"
		"rule a +1 subject x/\n"
		"rule a +1 subject /x\n"
		"rule a +1 subject /x/iq\n"
		"rule a +1 subject /x/i trailing\n"
		"rule a +1 subject /a[b/\n"
		"rule a +1 subject /(*UTF)x/\n"
		"rule a +1 subject //\n"
		"rule a/b +1 subject /x/\n",
		"error: t.rules:1: unknown directive 'bogus'\n"
		"error: t.rules:2: 'rule' needs NAME WEIGHT FIELD /PATTERN/FLAGS\n"
		"error: t.rules:3: 'rule' needs NAME WEIGHT FIELD /PATTERN/FLAGS\n"
		"error: t.rules:4: 'rule' needs NAME WEIGHT FIELD /PATTERN/FLAGS\n"
		"error: t.rules:5: 'veto' needs NAME FIELD /PATTERN/FLAGS\n"
		"error: t.rules:6: bad weight 'plus' (expected an integer such as +8 or -6)\n"
		"error: t.rules:7: weight '9999999999' is out of range (expected -1000000 to +1000000)\n"
		"error: t.rules:8: bad weight '+' (expected an integer such as +8 or -6)\n"
		"error: t.rules:9: unknown field 'title' (expected subject, body, message, paths, fact, reply or trailer:KEY)\n"
		"error: t.rules:10: bad trailer key '' (expected letters, digits and '-', as in trailer:Reported-by)\n"
		"error: t.rules:11: bad trailer key 'Signed_off_by' (expected letters, digits and '-', as in trailer:Reported-by)\n"
		"error: t.rules:12: pattern 'x/' is not enclosed in slashes\n"
		"error: t.rules:13: pattern '/x' is not enclosed in slashes\n"
		"error: t.rules:14: unknown pattern flag 'q' (expected i, m, s or x)\n"
		"error: t.rules:15: unexpected text after pattern flags: 'trailing' (expected unless NAME)\n"
		"error: t.rules:16: cannot compile pattern 'a[b': missing terminating ] for character class at offset 3\n"
		"error: t.rules:17: cannot compile pattern '(*UTF)x': using UTF is disabled by the application at offset 6\n"
		"error: t.rules:18: empty pattern (it would match everything)\n"
		"error: t.rules:19: bad rule name 'a/b' (expected letters, digits, '-', '_' and '.')\n");
}

/*
 * Weights and thresholds stop at a million either way (RULE_WEIGHT_MAX),
 * so that no number of rules overflows a score: the bound itself is
 * good, one past it is an error at its line, as is a number no long
 * holds; a threshold is refused before it is counted as given.
 */
static void test_weight_bounds(void **state)
{
	struct strbuf err = STRBUF_INIT;
	const struct subsystem *s;
	struct ruleset rs;

	(void)state;
	ruleset_init(&rs);
	assert_int_equal(load(&rs,
		"threshold -1000000\n"
		"rule top +1000000 subject /x/\n"
		"rule bottom -1000000 subject /x/\n"
		"subsystem s\n"
		"\tthreshold +1000000\n"
		"end\n", &err), 0);
	assert_string_equal(err.buf, "");
	assert_int_equal(rs.threshold, -1000000);
	assert_int_equal(rs.rules[0].weight, 1000000);
	assert_int_equal(rs.rules[1].weight, -1000000);
	s = ruleset_subsystem(&rs, "s");
	assert_non_null(s);
	assert_int_equal(ruleset_threshold(&rs, s), 1000000);
	strbuf_release(&err);
	ruleset_release(&rs);

	expect_errors(
		"rule a +1000001 subject /x/\n"
		"rule b -1000001 subject /x/\n"
		"rule c 1000001 subject /x/\n"
		"rule d -99999999999999999999999 subject /x/\n"
		"rule e +2147483648 subject /x/\n"
		"threshold 1000001\n"
		"threshold -1000001\n"
		"threshold 10\n"
		"subsystem s\n"
		"\tthreshold +4294967306\n"
		"\tthreshold 12\n"
		"end\n",
		"error: t.rules:1: weight '+1000001' is out of range (expected -1000000 to +1000000)\n"
		"error: t.rules:2: weight '-1000001' is out of range (expected -1000000 to +1000000)\n"
		"error: t.rules:3: weight '1000001' is out of range (expected -1000000 to +1000000)\n"
		"error: t.rules:4: weight '-99999999999999999999999' is out of range (expected -1000000 to +1000000)\n"
		"error: t.rules:5: weight '+2147483648' is out of range (expected -1000000 to +1000000)\n"
		"error: t.rules:6: threshold '1000001' is out of range (expected -1000000 to +1000000)\n"
		"error: t.rules:7: threshold '-1000001' is out of range (expected -1000000 to +1000000)\n"
		"error: t.rules:10: threshold '+4294967306' is out of range (expected -1000000 to +1000000)\n");
}

static void test_errors_duplicates(void **state)
{
	(void)state;
	expect_errors(
		"rule a +1 subject /x/\n"
		"veto a subject /y/\n"
		"subsystem s\n"
		"\trule a +1 subject /x/\n"
		"\trule a +2 body /y/\n"
		"\tthreshold 4\n"
		"\tthreshold 5\n"
		"\tpolicy ignore\n"
		"\tpolicy heuristic\n"
		"\tpaths fs/s/\n"
		"\tpaths fs/t/\n"
		"end\n"
		"subsystem s\n"
		"\trule b +1 subject /x/\n"
		"\trule b +1 subject /x/\n"
		"end\n"
		"version 1\n"
		"version 2\n"
		"threshold 5\n"
		"threshold 5\n",
		"error: t.rules:2: duplicate rule 'a' (first defined at t.rules:1)\n"
		"error: t.rules:5: duplicate rule 'a' in subsystem 's' (first defined at t.rules:4)\n"
		"error: t.rules:7: 'threshold' given twice (first on line 6)\n"
		"error: t.rules:9: 'policy' given twice in subsystem 's' (first on line 8)\n"
		"error: t.rules:11: 'paths' given twice in subsystem 's' (first on line 10)\n"
		"error: t.rules:13: duplicate subsystem 's' (first defined at t.rules:3)\n"
		"error: t.rules:15: duplicate rule 'b' in subsystem 's' (first defined at t.rules:14)\n"
		"error: t.rules:18: 'version' given twice (first on line 17)\n"
		"error: t.rules:20: 'threshold' given twice (first on line 19)\n");
}

static void test_errors_blocks(void **state)
{
	(void)state;
	expect_errors(
		"paths fs/x/\n"
		"policy heuristic\n"
		"list a@b\n"
		"end\n"
		"threshold\n"
		"threshold 1 2\n"
		"threshold 1.5\n"
		"version\n"
		"subsystem\n"
		"end\n"
		"subsystem a b\n"
		"end\n"
		"subsystem a+b\n"
		"end x\n"
		"subsystem open\n"
		"\tpolicy\n"
		"\tpolicy opt-in heuristic\n"
		"\tpolicy optin\n"
		"\tpaths\n"
		"\tlist\n"
		"\tlist @b a@ a@b@c ok@list\n"
		"subsystem next\n"
		"\tpaths fs/next/\n"
		"subsystem last\n",
		"error: t.rules:1: 'paths' outside a subsystem block\n"
		"error: t.rules:2: 'policy' outside a subsystem block\n"
		"error: t.rules:3: 'list' outside a subsystem block\n"
		"error: t.rules:4: 'end' outside a subsystem block\n"
		"error: t.rules:5: 'threshold' needs an integer\n"
		"error: t.rules:6: too many arguments to 'threshold'\n"
		"error: t.rules:7: threshold '1.5' is not an integer\n"
		"error: t.rules:8: 'version' needs a value\n"
		"error: t.rules:9: 'subsystem' needs a name\n"
		"error: t.rules:11: too many arguments to 'subsystem'\n"
		"error: t.rules:13: bad subsystem name 'a+b' (expected letters, digits, '-', '_' and '.', or '*' for a template)\n"
		"error: t.rules:14: too many arguments to 'end'\n"
		"error: t.rules:16: 'policy' needs a value (heuristic, opt-in or ignore)\n"
		"error: t.rules:17: too many arguments to 'policy'\n"
		"error: t.rules:18: unknown policy 'optin' (expected heuristic, opt-in or ignore)\n"
		"error: t.rules:19: 'paths' needs at least one path spec\n"
		"error: t.rules:20: 'list' needs at least one address\n"
		"error: t.rules:21: bad list address '@b' (expected NAME@HOST)\n"
		"error: t.rules:21: bad list address 'a@' (expected NAME@HOST)\n"
		"error: t.rules:21: bad list address 'a@b@c' (expected NAME@HOST)\n"
		"error: t.rules:22: 'subsystem' inside subsystem 'open' (opened on line 15; missing 'end')\n"
		"error: t.rules:24: 'subsystem' inside subsystem 'next' (opened on line 22; missing 'end')\n"
		"error: t.rules:24: subsystem 'last' is not closed (missing 'end')\n");
}

static void test_errors_path_specs(void **state)
{
	(void)state;
	expect_errors(
		"subsystem a\n"
		"\tpaths /fs/a/ fs/../a/ fs/./a/ fs//a/ fs/*/a/ fs/a?/x.c\n"
		"\tlist a@b\n"
		"end\n"
		"subsystem b\n"
		"\tpaths Makefile fs/b/ fs/*.[ch] fs/*/\n"
		"end\n"
		"subsystem *\n"
		"\tpaths fs/*/ fs/ fs/*.c /fs/*/ fs/x*/*/ */\n"
		"end\n",
		"error: t.rules:2: bad path spec '/fs/a/' (must be relative: no leading '/')\n"
		"error: t.rules:2: bad path spec 'fs/../a/' (no '.' or '..' components)\n"
		"error: t.rules:2: bad path spec 'fs/./a/' (no '.' or '..' components)\n"
		"error: t.rules:2: bad path spec 'fs//a/' (empty component)\n"
		"error: t.rules:2: bad path spec 'fs/*/a/' (only the last component may be a glob)\n"
		"error: t.rules:2: bad path spec 'fs/a?/x.c' (only the last component may be a glob)\n"
		"error: t.rules:6: bad path spec 'Makefile' (expected DIR/ or DIR/GLOB)\n"
		"error: t.rules:6: bad path spec 'fs/*/' (only the last component may be a glob)\n"
		"error: t.rules:9: bad path spec 'fs/' for 'subsystem *' (expected DIR/*/, one subsystem per directory in DIR)\n"
		"error: t.rules:9: bad path spec 'fs/*.c' for 'subsystem *' (expected DIR/*/, one subsystem per directory in DIR)\n"
		"error: t.rules:9: bad path spec '/fs/*/' (must be relative: no leading '/')\n"
		"error: t.rules:9: bad path spec 'fs/x*/*/' (only the last component may be a glob)\n"
		"error: t.rules:9: bad path spec '*/' for 'subsystem *' (expected DIR/*/, one subsystem per directory in DIR)\n");
	expect_errors(
		"subsystem *\n"
		"\tpolicy heuristic\n"
		"end\n",
		"error: t.rules:1: template subsystem '*' needs 'paths DIR/*/'\n");
}

static void test_errors_keep_good_lines(void **state)
{
	struct strbuf err = STRBUF_INIT;
	struct ruleset rs;

	(void)state;
	ruleset_init(&rs);
	assert_int_equal(load(&rs,
		"rule good +1 subject /x/\n"
		"rule bad +1 subject /(/\n"
		"subsystem dup\n"
		"end\n"
		"subsystem dup\n"
		"\trule ignored +1 subject /x/\n"
		"end\n"
		"rule good2 -1 subject /y/\n", &err), -1);
	assert_int_equal(rs.nr_rules, 2);
	assert_string_equal(rs.rules[1].name, "good2");
	assert_int_equal(rs.nr_subsystems, 1);
	assert_int_equal(rs.subsystems[0]->nr_rules, 0);
	assert_non_null(strstr(err.buf, "t.rules:2: cannot compile pattern '('"));
	strbuf_release(&err);
	ruleset_release(&rs);
}

static void test_duplicate_across_files(void **state)
{
	struct strbuf err = STRBUF_INIT;
	struct captured c;
	struct ruleset rs;
	static const char a[] = "rule r +1 body /x/\nsubsystem xfs\nend\n";
	static const char b[] = "\nsubsystem xfs\nend\nrule r +2 body /y/\n";

	(void)state;
	ruleset_init(&rs);
	capture_start(&c);
	assert_int_equal(ruleset_load_buffer(&rs, "a.rules", a, strlen(a)), 0);
	assert_int_equal(ruleset_load_buffer(&rs, "b.rules", b, strlen(b)), -1);
	capture_end(&c, &err);
	assert_string_equal(err.buf,
		"error: b.rules:2: duplicate subsystem 'xfs' (first defined at a.rules:2)\n"
		"error: b.rules:4: duplicate rule 'r' (first defined at a.rules:1)\n");
	assert_int_equal(rs.nr_files, 2);
	strbuf_release(&err);
	ruleset_release(&rs);
}

static void test_missing_file(void **state)
{
	struct strbuf err = STRBUF_INIT;
	struct captured c;
	struct ruleset rs;

	(void)state;
	ruleset_init(&rs);
	capture_start(&c);
	assert_int_equal(ruleset_load_file(&rs, "no/such.rules"), -1);
	assert_int_equal(ruleset_load_dir(&rs, "no/such/dir/"), -1);
	capture_end(&c, &err);
	assert_string_equal(err.buf,
		"error: cannot read rule file 'no/such.rules': No such file or directory\n"
		"error: cannot read rule directory 'no/such/dir/': No such file or directory\n");
	strbuf_release(&err);
	ruleset_release(&rs);
}

static void write_file(const char *dir, const char *name, const char *text)
{
	struct strbuf path = STRBUF_INIT;
	FILE *f;

	strbuf_addf(&path, "%s/%s", dir, name);
	f = fopen(path.buf, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
	strbuf_release(&path);
}

static void remove_file(const char *dir, const char *name)
{
	struct strbuf path = STRBUF_INIT;

	strbuf_addf(&path, "%s/%s", dir, name);
	unlink(path.buf);
	strbuf_release(&path);
}

static void test_load_dir_order(void **state)
{
	static const char *const files[] = {
		"default.rules", "b.rules", "a.rules", "a.rules~",
		".#c.rules", "#d.rules#", "e.rules.orig", "notes",
	};
	char dir[] = "/tmp/test_rules.XXXXXX";
	struct strbuf err = STRBUF_INIT;
	struct captured c;
	struct ruleset rs;
	size_t i;
	int ret;

	(void)state;
	assert_non_null(mkdtemp(dir));
	write_file(dir, "default.rules", "version d\nthreshold 20\n");
	write_file(dir, "b.rules", "version b\n");
	write_file(dir, "a.rules", "version a\nsubsystem a\n");
	for (i = 3; i < ARRAY_SIZE(files); i++)
		write_file(dir, files[i], "this is not a rule file\n");

	ruleset_init(&rs);
	capture_start(&c);
	ret = ruleset_load_dir(&rs, dir);
	capture_end(&c, &err);
	/* a.rules is broken, and b.rules is still loaded after it. */
	assert_int_equal(ret, -1);
	assert_int_equal(rs.nr_files, 3);
	assert_string_equal(rs.files[0].version, "d");
	assert_string_equal(rs.files[1].version, "a");
	assert_string_equal(rs.files[2].version, "b");
	assert_non_null(strstr(rs.files[1].path, "/a.rules"));
	assert_int_equal(rs.threshold, 20);
	assert_non_null(strstr(err.buf, "/a.rules:2: subsystem 'a' is not closed"));
	ruleset_release(&rs);

	/* A directory without default.rules is an error. */
	remove_file(dir, "default.rules");
	strbuf_reset(&err);
	ruleset_init(&rs);
	capture_start(&c);
	assert_int_equal(ruleset_load_dir(&rs, dir), -1);
	capture_end(&c, &err);
	assert_int_equal(rs.nr_files, 0);
	assert_non_null(strstr(err.buf, "/default.rules': No such file or directory\n"));
	ruleset_release(&rs);

	for (i = 0; i < ARRAY_SIZE(files); i++)
		remove_file(dir, files[i]);
	assert_int_equal(rmdir(dir), 0);
	strbuf_release(&err);
}

static void test_add_derived(void **state)
{
	struct strbuf err = STRBUF_INIT;
	struct subsystem *s, *tmpl;
	struct ruleset rs;
	char name[32], path[64];
	size_t i;

	(void)state;
	ruleset_init(&rs);
	assert_int_equal(load(&rs,
		"rule g-bug 0 body /leak/\n"
		"subsystem *\n"
		"\tpaths fs/*/\n"
		"\tpolicy opt-in\n"
		"\tlist fsdevel@vger.kernel.org\n"
		"\tthreshold 15\n"
		"\trule t-fix +4 subject /\\bfix\\b/i\n"
		"\tveto t-no trailer:Cc /noautosel/\n"
		"\trule t-tidy -2 subject /tidy/ unless t-fix,g-bug\n"
		"end\n"
		"subsystem ext4\n"
		"\tpolicy ignore\n"
		"end\n"
		"subsystem xfs\n"
		"\tpaths fs/xfs/\n"
		"end\n", &err), 0);
	tmpl = ruleset_subsystem(&rs, "*");
	assert_non_null(tmpl);
	assert_true(tmpl->is_template);

	/*
	 * Passing the template from inside rs->subsystems must survive the
	 * array moving as it grows.
	 */
	for (i = 0; i < 40; i++) {
		snprintf(name, sizeof(name), "fs%zu", i);
		snprintf(path, sizeof(path), "fs/%s/", name);
		s = ruleset_add_derived(&rs, rs.subsystems[0], name, path);
		assert_string_equal(s->name, name);
	}
	assert_int_equal(rs.nr_subsystems, 43);
	s = ruleset_subsystem(&rs, "fs39");
	assert_non_null(s);
	assert_false(s->is_template);
	assert_null(s->file);
	assert_int_equal(s->nr_paths, 1);
	assert_string_equal(s->paths[0], "fs/fs39/");
	assert_int_equal(s->policy, POLICY_OPT_IN);
	assert_int_equal(ruleset_threshold(&rs, s), 15);
	assert_int_equal(s->nr_lists, 1);
	assert_string_equal(s->lists[0], "fsdevel@vger.kernel.org");
	assert_int_equal(s->nr_rules, 3);
	assert_true(s->rules[1].veto);
	assert_string_equal(s->rules[1].trailer, "Cc");
	/* Its unless names, copied. */
	assert_int_equal(s->rules[2].nr_unless, 2);
	assert_string_equal(s->rules[2].unless[0], "t-fix");
	assert_string_equal(s->rules[2].unless[1], "g-bug");
	/* A deep copy: its own compiled pattern, which matches. */
	tmpl = ruleset_subsystem(&rs, "*");
	assert_ptr_not_equal(s->rules[0].re, tmpl->rules[0].re);
	assert_int_equal(rule_match(&rs, &s->rules[0], "xfs: Fix it", 11, NULL), 1);

	/* A subsystem without paths gets the path and keeps the rest. */
	s = ruleset_add_derived(&rs, tmpl, "ext4", "fs/ext4/");
	assert_ptr_equal(s, ruleset_subsystem(&rs, "ext4"));
	assert_int_equal(s->nr_paths, 1);
	assert_string_equal(s->paths[0], "fs/ext4/");
	assert_int_equal(s->policy, POLICY_IGNORE);
	assert_int_equal(s->nr_rules, 0);
	/* One with paths of its own is left alone. */
	s = ruleset_add_derived(&rs, tmpl, "xfs", "fs/xfs/");
	assert_int_equal(s->nr_paths, 1);
	assert_string_equal(s->file, "t.rules");
	assert_int_equal(rs.nr_subsystems, 43);

	strbuf_release(&err);
	ruleset_release(&rs);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_shipped_rules_load),
		cmocka_unit_test(test_rule_parts),
		cmocka_unit_test(test_comments_blanks_crlf),
		cmocka_unit_test(test_subsystem_block),
		cmocka_unit_test(test_match),
		cmocka_unit_test(test_catastrophic_backtracking_gives_up),
		cmocka_unit_test(test_errors_rules),
		cmocka_unit_test(test_weight_bounds),
		cmocka_unit_test(test_errors_duplicates),
		cmocka_unit_test(test_errors_blocks),
		cmocka_unit_test(test_errors_path_specs),
		cmocka_unit_test(test_errors_keep_good_lines),
		cmocka_unit_test(test_duplicate_across_files),
		cmocka_unit_test(test_missing_file),
		cmocka_unit_test(test_load_dir_order),
		cmocka_unit_test(test_add_derived),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
