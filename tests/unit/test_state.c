/*
 * Unit tests for the state of --since last: what is set is what is
 * got, branch by branch; a version 1 file remembers no verdicts; a bad
 * line is an error naming the file and line.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "capture.h"
#include "store/state.h"
#include "base/strbuf.h"
#include "base/util.h"

static char dir[4096];
static char path[4200];

static void oid(git_oid *id, unsigned char n)
{
	memset(id, 0, sizeof(*id));
	id->id[0] = n;
	id->id[19] = 0x5a;
}

static void write_text(const char *text)
{
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

/* Two branches, each with its tip and verdicts, set and got back. */
static void test_round_trip(void **state)
{
	struct state a, b, got;
	const struct state_seen *s;
	git_oid id;

	(void)state;
	state_init(&a);
	oid(&a.tip, 1);
	a.has_from = 1;
	oid(&a.from, 2);
	a.then_run = 1700000000;
	a.now_run = 1700600000;
	oid(&id, 10);
	state_remember(&a, &id, STATE_WAITING, STATE_NONE);
	oid(&id, 11);
	state_remember(&a, &id, STATE_NONE, STATE_HELD);
	oid(&id, 12);
	state_remember(&a, &id, STATE_NEEDS_ACK, STATE_NEEDS_ACK);
	state_remember(&a, &id, STATE_NONE, STATE_NONE);	/* forgotten */
	assert_int_equal(state_set(path, "linux-6.6.y", &a), 0);
	state_init(&b);
	oid(&b.tip, 3);
	oid(&id, 20);
	state_remember(&b, &id, STATE_DOES_NOT_APPLY, STATE_REJECTED);
	assert_int_equal(state_set(path, "linux-6.1.y", &b), 0);
	/* Setting one again keeps the other. */
	assert_int_equal(state_set(path, "linux-6.6.y", &a), 0);

	assert_int_equal(state_get(path, "linux-6.6.y", &got), 1);
	assert_true(git_oid_equal(&got.tip, &a.tip));
	assert_true(got.has_from && git_oid_equal(&got.from, &a.from));
	assert_int_equal(got.then_run, 1700000000);
	assert_int_equal(got.now_run, 1700600000);
	assert_int_equal(HASH_COUNT(got.seen), 2);
	oid(&id, 10);
	assert_non_null(s = state_find(&got, &id));
	assert_int_equal(s->then, STATE_WAITING);
	assert_int_equal(s->now, STATE_NONE);
	oid(&id, 11);
	assert_non_null(s = state_find(&got, &id));
	assert_int_equal(s->now, STATE_HELD);
	oid(&id, 12);
	assert_null(state_find(&got, &id));
	state_release(&got);

	assert_int_equal(state_get(path, "linux-6.1.y", &got), 1);
	assert_false(got.has_from);
	assert_int_equal(got.then_run, 0);
	assert_int_equal(got.now_run, 0);
	oid(&id, 20);
	assert_non_null(s = state_find(&got, &id));
	assert_int_equal(s->then, STATE_DOES_NOT_APPLY);
	assert_int_equal(s->now, STATE_REJECTED);
	state_release(&got);
	assert_int_equal(state_get(path, "linux-5.15.y", &got), 0);
	state_release(&a);
	state_release(&b);
	assert_int_equal(unlink(path), 0);
}

/* Version 1: the tip and what it hid, nothing remembered. */
static void test_version_1(void **state)
{
	struct strbuf sb = STRBUF_INIT;
	struct state got;
	char hex[GIT_OID_HEXSZ + 1];
	git_oid tip;

	(void)state;
	oid(&tip, 7);
	git_oid_tostr(hex, sizeof(hex), &tip);
	strbuf_addf(&sb, "# stablepick state 1\nlinux-6.6.y\t-\t%s\n"
		    "linux-6.1.y\t%s\t%s\n", hex, hex, hex);
	write_text(sb.buf);
	assert_int_equal(state_get(path, "linux-6.6.y", &got), 1);
	assert_true(git_oid_equal(&got.tip, &tip));
	assert_false(got.has_from);
	assert_null(got.seen);
	/* Written back as version 2, the other branch's line as it was. */
	assert_int_equal(state_set(path, "linux-6.6.y", &got), 0);
	state_release(&got);
	strbuf_reset(&sb);
	assert_int_equal(strbuf_read_file(&sb, path), 0);
	assert_true(!strncmp(sb.buf, "# stablepick state 2\n", 21));
	assert_non_null(strstr(sb.buf, "\nlinux-6.1.y\t"));
	strbuf_release(&sb);
	assert_int_equal(unlink(path), 0);
}

/* "path:line: bad line for branch 'B'"; another branch's line is not read. */
static void expect_bad(const char *text, const char *branch, unsigned line)
{
	struct capture c;
	struct state got;
	char *err, *want;

	write_text(text);
	capture_begin(&c);
	assert_int_equal(state_get(path, branch, &got), -1);
	err = capture_end(&c);
	want = xstrfmt("error: %s:%u: bad line for branch '%s'\n", path, line,
		       branch);
	assert_string_equal(err, want);
	assert_null(got.seen);
	free(want);
	free(err);
}

static void test_bad_lines(void **state)
{
	const char *tip = "0123456789012345678901234567890123456789";
	struct strbuf sb = STRBUF_INIT;
	struct capture c;
	struct state got;
	char *err;

	(void)state;
	/* A verdict that is not one. */
	strbuf_addf(&sb, "# stablepick state 2\nb\t-\t%s\nb\t%s\twaiting\tsoon\n",
		    tip, tip);
	expect_bad(sb.buf, "b", 3);
	/* Verdicts in a version 1 file. */
	strbuf_reset(&sb);
	strbuf_addf(&sb, "# stablepick state 1\nb\t-\t%s\nb\t%s\t-\twaiting\n",
		    tip, tip);
	expect_bad(sb.buf, "b", 3);
	/* The same commit twice, a short id, two runs. */
	strbuf_reset(&sb);
	strbuf_addf(&sb, "# stablepick state 2\nb\t-\t%s\nb\t%s\t-\twaiting\n"
		    "b\t%s\theld\t-\n", tip, tip, tip);
	expect_bad(sb.buf, "b", 4);
	strbuf_reset(&sb);
	strbuf_addf(&sb, "# stablepick state 2\nb\t-\t%.12s\t-\t-\n", tip);
	expect_bad(sb.buf, "b", 2);
	/* A time that is not one. */
	strbuf_reset(&sb);
	strbuf_addf(&sb, "# stablepick state 2\nb\t-\t%s\t-\tmonday\n", tip);
	expect_bad(sb.buf, "b", 2);
	strbuf_reset(&sb);
	strbuf_addf(&sb, "# stablepick state 2\nb\t-\t%s\nb\t-\t%s\n", tip, tip);
	expect_bad(sb.buf, "b", 3);
	/* ... but only the branch's own lines are read. */
	assert_int_equal(state_get(path, "other", &got), 0);
	/* Verdicts without the run. */
	strbuf_reset(&sb);
	strbuf_addf(&sb, "# stablepick state 2\nb\t%s\t-\twaiting\n", tip);
	write_text(sb.buf);
	capture_begin(&c);
	assert_int_equal(state_get(path, "b", &got), -1);
	err = capture_end(&c);
	assert_non_null(strstr(err, "commits remembered for branch 'b' but no run"));
	free(err);
	/* Not a state file, or a newer one. */
	write_text("# stablepick state 3\n");
	capture_begin(&c);
	assert_int_equal(state_get(path, "b", &got), -1);
	err = capture_end(&c);
	assert_non_null(strstr(err, ":1: not a stablepick state file"));
	free(err);
	strbuf_release(&sb);
	assert_int_equal(unlink(path), 0);
}

static int setup(void **state)
{
	const char *tmp = getenv("TMPDIR");

	(void)state;
	snprintf(dir, sizeof(dir), "%s/test_state.XXXXXX",
		 tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(dir))
		return -1;
	snprintf(path, sizeof(path), "%s/state", dir);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	return rmdir(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_round_trip),
		cmocka_unit_test(test_version_1),
		cmocka_unit_test(test_bad_lines),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
