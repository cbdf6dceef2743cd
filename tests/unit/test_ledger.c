/*
 * Unit tests for the ledger: its file format round-trips, the latest
 * line wins, every malformed line is reported with its place, and an
 * append is all or nothing under its lock.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "store/ledger.h"
#include "base/lockfile.h"
#include "base/strbuf.h"
#include "base/util.h"

#define HEADER "# stablepick ledger 1\n"
#define OID_A "0123456789abcdef0123456789abcdef01234567"
#define OID_B "89abcdef0123456789abcdef0123456789abcdef"

/* 2023-11-14T22:13:20Z */
#define T0 ((git_time_t)1700000000)
/* 2023-11-21T00:00:00Z */
#define NOV21 ((git_time_t)1700524800)

struct fixture {
	char dir[64];
	char *path;		/* dir/sub/ledger: the directory is missing */
	char *errfile;
	int saved_stderr;
};

static int setup(void **state)
{
	struct fixture *f = xcalloc(1, sizeof(*f));

	strcpy(f->dir, "/tmp/test_ledger.XXXXXX");
	if (!mkdtemp(f->dir))
		return -1;
	f->path = xstrfmt("%s/sub/ledger", f->dir);
	f->errfile = xstrfmt("%s/stderr", f->dir);
	f->saved_stderr = -1;
	unsetenv("STABLEPICK_LOCK_TIMEOUT");
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *f = *state;
	char *cmd = xstrfmt("rm -rf '%s'", f->dir);
	int ret = system(cmd);

	free(cmd);
	free(f->path);
	free(f->errfile);
	free(f);
	return ret ? -1 : 0;
}

/* Sends stderr to f->errfile until stderr_end(). */
static void stderr_begin(struct fixture *f)
{
	int fd;

	fflush(stderr);
	f->saved_stderr = dup(2);
	assert_true(f->saved_stderr >= 0);
	fd = open(f->errfile, O_WRONLY | O_CREAT | O_TRUNC, 0666);
	assert_true(fd >= 0);
	assert_int_equal(dup2(fd, 2), 2);
	close(fd);
}

/* Restores stderr and returns what was written to it (caller frees). */
static char *stderr_end(struct fixture *f)
{
	struct strbuf sb = STRBUF_INIT;

	fflush(stderr);
	assert_int_equal(dup2(f->saved_stderr, 2), 2);
	close(f->saved_stderr);
	f->saved_stderr = -1;
	assert_int_equal(strbuf_read_file(&sb, f->errfile), 0);
	return strbuf_detach(&sb, NULL);
}

static void write_text(const char *path, const char *text)
{
	FILE *fp = fopen(path, "wb");

	assert_non_null(fp);
	fputs(text, fp);
	assert_int_equal(fclose(fp), 0);
}

static char *read_text(const char *path)
{
	struct strbuf sb = STRBUF_INIT;

	assert_int_equal(strbuf_read_file(&sb, path), 0);
	return strbuf_detach(&sb, NULL);
}

static void make_sub(struct fixture *f)
{
	char *sub = xstrfmt("%s/sub", f->dir);

	assert_int_equal(mkdir(sub, 0777), 0);
	free(sub);
}

static struct ledger_entry entry(const char *branch, const char *hex,
				 enum decision d, const char *who,
				 const char *reason)
{
	struct ledger_entry e;

	memset(&e, 0, sizeof(e));
	e.branch = (char *)branch;
	assert_int_equal(git_oid_fromstr(&e.commit, hex), 0);
	e.decision = d;
	e.when = T0;
	e.until = d == DECISION_DEFERRED ? NOV21 : 0;
	e.who = (char *)who;
	e.reason = (char *)reason;
	return e;
}

static const struct ledger_entry *find(struct ledger *l,
				       const char *branch, const char *hex)
{
	git_oid oid;

	assert_int_equal(git_oid_fromstr(&oid, hex), 0);
	return ledger_find(l, branch, &oid);
}

static void test_decision_names(void **state)
{
	enum decision d;

	(void)state;
	assert_int_equal(decision_parse("deferred", &d), 0);
	assert_int_equal(d, DECISION_DEFERRED);
	assert_string_equal(decision_name(DECISION_REJECTED), "rejected");
	assert_int_equal(decision_parse("Accepted", &d), -1);
	assert_int_equal(decision_parse("", &d), -1);
}

static void test_dates(void **state)
{
	git_time_t t;
	char buf[11];

	(void)state;
	assert_int_equal(ledger_parse_date("2023-11-21", &t), 0);
	assert_int_equal(t, NOV21);
	assert_int_equal(ledger_parse_date("2024-02-29", &t), 0);
	ledger_format_date(buf, t);
	assert_string_equal(buf, "2024-02-29");
	assert_int_equal(ledger_parse_date("2023-02-29", &t), -1);
	assert_int_equal(ledger_parse_date("2023-13-01", &t), -1);
	assert_int_equal(ledger_parse_date("2023-1-01", &t), -1);
	assert_int_equal(ledger_parse_date("2023-11-21x", &t), -1);
	assert_int_equal(ledger_parse_date("tomorrow", &t), -1);
}

static void test_missing_file(void **state)
{
	struct fixture *f = *state;
	struct ledger l;

	ledger_init(&l, f->path);
	assert_int_equal(ledger_load(&l), 0);
	assert_null(find(&l, "linux-6.6.y", OID_A));
	ledger_release(&l);
}

static void test_round_trip(void **state)
{
	struct fixture *f = *state;
	struct ledger_entry in[] = {
		entry("linux-6.6.y", OID_A, DECISION_REJECTED,
		      "Jöhn Q. Püblic <jq@example.com>",
		      "not needed: the bug came in 6.8 — see  \"xfs: foo\" (v6.8)"),
		entry("linux-6.6.y", OID_B, DECISION_DEFERRED,
		      "名前 <n@example.jp>", ""),
		entry("vendor 5.15", OID_A, DECISION_ACCEPTED, "unknown",
		      "  leading and trailing spaces  "),
	};
	const struct ledger_entry *e;
	struct ledger l;
	char *text;
	size_t i;

	/* The directory "sub" does not exist yet: append creates it. */
	ledger_init(&l, f->path);
	assert_int_equal(ledger_append(&l, in, ARRAY_SIZE(in)), 0);
	ledger_release(&l);

	text = read_text(f->path);
	assert_string_equal(text, HEADER
		"linux-6.6.y\t" OID_A "\trejected\t2023-11-14T22:13:20Z\t-\t"
		"Jöhn Q. Püblic <jq@example.com>\t"
		"not needed: the bug came in 6.8 — see  \"xfs: foo\" (v6.8)\n"
		"linux-6.6.y\t" OID_B "\tdeferred\t2023-11-14T22:13:20Z\t"
		"2023-11-21\t名前 <n@example.jp>\t\n"
		"vendor 5.15\t" OID_A "\taccepted\t2023-11-14T22:13:20Z\t-\t"
		"unknown\t  leading and trailing spaces  \n");
	free(text);
	{
		char *lock = xstrfmt("%s.lock", f->path);

		assert_int_equal(access(lock, F_OK), -1);
		free(lock);
	}

	ledger_init(&l, f->path);
	assert_int_equal(ledger_load(&l), 0);
	for (i = 0; i < ARRAY_SIZE(in); i++) {
		e = ledger_find(&l, in[i].branch, &in[i].commit);
		assert_non_null(e);
		assert_string_equal(e->branch, in[i].branch);
		assert_true(git_oid_equal(&e->commit, &in[i].commit));
		assert_int_equal(e->decision, in[i].decision);
		assert_int_equal(e->when, in[i].when);
		assert_int_equal(e->until, in[i].until);
		assert_string_equal(e->who, in[i].who);
		assert_string_equal(e->reason, in[i].reason);
		assert_int_equal(e->lineno, i + 2);
	}
	assert_null(find(&l, "linux-6.1.y", OID_A));
	ledger_release(&l);
}

/*
 * A decision read from a mail keeps where it came from in an eighth
 * field, '%' and ';' escaped, and reads back whole; a line without
 * one (mark's, an older stablepick's) has none.
 */
static void test_origin(void **state)
{
	struct fixture *f = *state;
	struct ledger_entry in[] = {
		entry("linux-6.6.y", OID_A, DECISION_ACCEPTED,
		      "Rhea <rhea@example.org>", "Acked-by: Rhea"),
		entry("linux-6.6.y", OID_B, DECISION_REJECTED, "Me <me@x>", ""),
	};
	const struct ledger_entry *e;
	struct ledger l;
	char *text;

	in[0].origin.archive = (char *)"/lists/xfs 100%;new.mbox";
	in[0].origin.message_id = (char *)"a;b@example.org";
	in[0].origin.from = (char *)"Mallory <m@evil>, Rhea <rhea@example.org>";
	in[0].origin.date = T0 - 3600;
	ledger_init(&l, f->path);
	assert_int_equal(ledger_append(&l, in, ARRAY_SIZE(in)), 0);
	ledger_release(&l);
	text = read_text(f->path);
	assert_string_equal(text, HEADER
		"linux-6.6.y\t" OID_A "\taccepted\t2023-11-14T22:13:20Z\t-\t"
		"Rhea <rhea@example.org>\tAcked-by: Rhea\t"
		"archive=/lists/xfs 100%25%3Bnew.mbox;message-id=a%3Bb@example.org;"
		"from=Mallory <m@evil>, Rhea <rhea@example.org>;"
		"date=2023-11-14T21:13:20Z\n"
		"linux-6.6.y\t" OID_B "\trejected\t2023-11-14T22:13:20Z\t-\t"
		"Me <me@x>\t\n");
	free(text);

	ledger_init(&l, f->path);
	assert_int_equal(ledger_load(&l), 0);
	e = find(&l, "linux-6.6.y", OID_A);
	assert_non_null(e);
	assert_true(ledger_origin_known(&e->origin));
	assert_string_equal(e->origin.archive, in[0].origin.archive);
	assert_string_equal(e->origin.message_id, in[0].origin.message_id);
	assert_string_equal(e->origin.from, in[0].origin.from);
	assert_int_equal(e->origin.date, T0 - 3600);
	assert_string_equal(e->reason, "Acked-by: Rhea");
	e = find(&l, "linux-6.6.y", OID_B);
	assert_non_null(e);
	assert_false(ledger_origin_known(&e->origin));
	ledger_release(&l);
}

/*
 * A line dated a day or more after now is not counted, with a warning
 * naming it: a later decision wins although its date is earlier; one
 * within the day (another clone's clock) counts.  Appending one later
 * than that is an error.
 */
static void test_future(void **state)
{
	struct fixture *f = *state;
	struct ledger_entry far = entry("b", OID_A, DECISION_REJECTED,
					"Me <me@x>", "mine");
	const struct ledger_entry *e;
	struct strbuf expect = STRBUF_INIT;
	struct ledger l;
	char *err, now[32];

	make_sub(f);
	write_text(f->path, HEADER
		"b\t" OID_A "\taccepted\t2099-01-01T00:00:00Z\t-\tM <m@x>\tforged\n"
		"b\t" OID_B "\taccepted\t2023-11-15T12:00:00Z\t-\tC <c@x>\tskew\n");
	snprintf(now, sizeof(now), "%lld", (long long)T0);
	setenv("STABLEPICK_NOW", now, 1);
	ledger_init(&l, f->path);
	stderr_begin(f);
	assert_int_equal(ledger_load(&l), 0);
	err = stderr_end(f);
	strbuf_addf(&expect, "warning: %s:2: a decision dated "
		    "2099-01-01T00:00:00Z, in the future, is not counted\n",
		    f->path);
	assert_string_equal(err, expect.buf);
	free(err);
	assert_int_equal(l.future, 1);
	assert_null(find(&l, "b", OID_A));
	assert_non_null(find(&l, "b", OID_B));

	/* A mark now wins over the line of 2099, and is not warned twice. */
	stderr_begin(f);
	assert_int_equal(ledger_append(&l, &far, 1), 0);
	err = stderr_end(f);
	assert_string_equal(err, "");
	free(err);
	e = find(&l, "b", OID_A);
	assert_non_null(e);
	assert_string_equal(e->reason, "mine");

	far.when = T0 + 86400 + 1;
	stderr_begin(f);
	assert_int_equal(ledger_append(&l, &far, 1), -1);
	err = stderr_end(f);
	assert_string_equal(err, "error: a decision dated in the future\n");
	free(err);
	ledger_release(&l);
	unsetenv("STABLEPICK_NOW");
	strbuf_release(&expect);
}

static void test_latest_wins(void **state)
{
	struct fixture *f = *state;
	struct ledger_entry more = entry("linux-6.6.y", OID_A,
					 DECISION_ACCEPTED, "B <b@x>", "");
	struct ledger l, other;
	const struct ledger_entry *e;

	make_sub(f);
	write_text(f->path, HEADER
		"# a comment, and a blank line:\n"
		"\n"
		"linux-6.6.y\t" OID_A "\tdeferred\t2023-11-14T22:13:20Z\t"
		"2023-11-21\tA <a@x>\twait for -rc3\n"
		"linux-6.1.y\t" OID_A "\taccepted\t2023-11-14T22:14:20Z\t-\t"
		"A <a@x>\t\n"
		"linux-6.6.y\t" OID_A "\trejected\t2023-11-15T08:00:00Z\t-\t"
		"A <a@x>\tbreaks the build");
	ledger_init(&l, f->path);
	assert_int_equal(ledger_load(&l), 0);
	e = find(&l, "linux-6.6.y", OID_A);
	assert_non_null(e);
	assert_int_equal(e->decision, DECISION_REJECTED);
	assert_int_equal(e->lineno, 6);
	assert_string_equal(e->reason, "breaks the build");
	e = find(&l, "linux-6.1.y", OID_A);
	assert_non_null(e);
	assert_int_equal(e->decision, DECISION_ACCEPTED);

	/*
	 * Another run appends behind l's back; l's own append keeps that
	 * line, ends the unterminated last line and wins over both.
	 */
	ledger_init(&other, f->path);
	more.decision = DECISION_REJECTED;
	more.branch = "linux-5.15.y";
	assert_int_equal(ledger_append(&other, &more, 1), 0);
	ledger_release(&other);
	/* Decided before the line it follows (merged in late): it loses. */
	more.decision = DECISION_ACCEPTED;
	more.branch = "linux-6.6.y";
	assert_int_equal(ledger_append(&l, &more, 1), 0);
	e = find(&l, "linux-6.6.y", OID_A);
	assert_int_equal(e->decision, DECISION_REJECTED);
	assert_int_equal(e->lineno, 6);
	/* Decided later: it wins. */
	more.when = T0 + 86400;
	assert_int_equal(ledger_append(&l, &more, 1), 0);
	e = find(&l, "linux-6.6.y", OID_A);
	assert_int_equal(e->decision, DECISION_ACCEPTED);
	assert_int_equal(e->lineno, 9);
	e = find(&l, "linux-5.15.y", OID_A);
	assert_non_null(e);
	assert_int_equal(e->lineno, 7);
	ledger_release(&l);

	ledger_init(&l, f->path);
	assert_int_equal(ledger_load(&l), 0);
	assert_int_equal(l.lines, 9);
	assert_int_equal(find(&l, "linux-6.6.y", OID_A)->decision,
			 DECISION_ACCEPTED);
	assert_int_equal(find(&l, "linux-5.15.y", OID_A)->decision,
			 DECISION_REJECTED);
	ledger_release(&l);
}

/*
 * Without a repository a key only drops refs/heads/; the entries of a
 * commit for other branches are the evidence, oldest first.
 */
static void test_keys_and_others(void **state)
{
	struct fixture *f = *state;
	const struct ledger_entry **v;
	struct ledger l;
	git_oid oid;
	size_t nr;

	make_sub(f);
	write_text(f->path, HEADER
		"refs/heads/linux-6.6.y\t" OID_A "\trejected\t2023-11-15T08:00:00Z\t-\t"
		"A <a@x>\tno\n"
		"linux-6.1.y\t" OID_A "\taccepted\t2023-11-14T22:14:20Z\t-\t"
		"B <b@x>\t\n"
		"v6.6\t" OID_A "\tdeferred\t2023-11-16T00:00:00Z\t2023-11-21\t"
		"C <c@x>\tlater\n");
	ledger_init(&l, f->path);
	assert_int_equal(ledger_load(&l), 0);
	assert_string_equal(ledger_branch_key(&l, "refs/heads/x"), "x");
	assert_string_equal(ledger_branch_key(&l, "v6.6"), "v6.6");
	assert_string_equal(ledger_branch_key(&l, "origin/x"), "origin/x");
	assert_non_null(find(&l, "linux-6.6.y", OID_A));
	assert_non_null(find(&l, "refs/heads/linux-6.6.y", OID_A));

	assert_int_equal(git_oid_fromstr(&oid, OID_A), 0);
	nr = ledger_find_others(&l, "refs/heads/linux-6.6.y", &oid, &v);
	assert_int_equal(nr, 2);
	assert_string_equal(v[0]->branch, "linux-6.1.y");
	assert_string_equal(v[1]->branch, "v6.6");
	free(v);
	nr = ledger_find_others(&l, "linux-5.15.y", &oid, &v);
	assert_int_equal(nr, 3);
	assert_string_equal(v[2]->branch, "v6.6");
	free(v);
	assert_int_equal(git_oid_fromstr(&oid, OID_B), 0);
	assert_int_equal(ledger_find_others(&l, "linux-5.15.y", &oid, &v), 0);
	assert_null(v);
	ledger_release(&l);
}

static void test_in_force(void **state)
{
	struct ledger_entry d = entry("b", OID_A, DECISION_DEFERRED, "x", "");
	struct ledger_entry r = entry("b", OID_A, DECISION_REJECTED, "x", "");
	struct ledger_entry a = entry("b", OID_A, DECISION_ACCEPTED, "x", "");

	(void)state;
	assert_int_equal(ledger_in_force(&d, T0), 1);
	assert_int_equal(ledger_in_force(&d, NOV21 - 1), 1);
	assert_int_equal(ledger_in_force(&d, NOV21), 0);
	assert_int_equal(ledger_in_force(&d, NOV21 + 86400 * 365), 0);
	assert_int_equal(ledger_in_force(&r, NOV21 + 86400 * 365), 1);
	assert_int_equal(ledger_in_force(&a, NOV21 + 86400 * 365), 1);
	/* Until a tag: whatever the date, until the branch has it. */
	d.until = 0;
	d.until_tag = "v6.6.9";
	assert_int_equal(ledger_in_force(&d, NOV21 + 86400 * 365), 1);
	d.tag_reached = 1;
	assert_int_equal(ledger_in_force(&d, T0), 0);
}

static int has_tag(const char *tag, void *data)
{
	return !strcmp(tag, (const char *)data);
}

/* A deferral until a tag: written, read back, and over with the tag. */
static void test_until_tag(void **state)
{
	struct fixture *f = *state;
	struct ledger_entry in[] = {
		entry("linux-6.6.y", OID_A, DECISION_DEFERRED, "A <a@x>", ""),
		entry("linux-6.1.y", OID_A, DECISION_DEFERRED, "A <a@x>", ""),
		entry("linux-6.6.y", OID_B, DECISION_DEFERRED, "A <a@x>", ""),
	};
	const struct ledger_entry *e;
	struct ledger l;
	char *text;

	in[0].until = in[1].until = 0;
	in[0].until_tag = in[1].until_tag = "v6.6.9";
	ledger_init(&l, f->path);
	assert_int_equal(ledger_append(&l, in, ARRAY_SIZE(in)), 0);
	ledger_release(&l);
	text = read_text(f->path);
	assert_string_equal(text, HEADER
		"linux-6.6.y\t" OID_A "\tdeferred\t2023-11-14T22:13:20Z\t"
		"v6.6.9\tA <a@x>\t\n"
		"linux-6.1.y\t" OID_A "\tdeferred\t2023-11-14T22:13:20Z\t"
		"v6.6.9\tA <a@x>\t\n"
		"linux-6.6.y\t" OID_B "\tdeferred\t2023-11-14T22:13:20Z\t"
		"2023-11-21\tA <a@x>\t\n");
	free(text);

	ledger_init(&l, f->path);
	assert_int_equal(ledger_load(&l), 0);
	e = find(&l, "linux-6.6.y", OID_A);
	assert_string_equal(e->until_tag, "v6.6.9");
	assert_int_equal(e->until, 0);
	assert_int_equal(ledger_in_force(e, NOV21 + 86400), 1);
	/* Only the branch asked about: 6.1.y's tag is its own. */
	ledger_check_tags(&l, "linux-6.6.y", has_tag, "v6.6.9");
	assert_int_equal(ledger_in_force(e, T0), 0);
	assert_int_equal(ledger_in_force(find(&l, "linux-6.1.y", OID_A), T0), 1);
	assert_null(find(&l, "linux-6.6.y", OID_B)->until_tag);
	ledger_release(&l);

	/* A tag shaped as a date is refused. */
	in[0].until_tag = "2023-11-31";
	ledger_init(&l, f->path);
	stderr_begin(f);
	assert_int_equal(ledger_append(&l, in, 1), -1);
	text = stderr_end(f);
	assert_string_equal(text, "error: bad tag '2023-11-31' for a deferral\n");
	free(text);
	ledger_release(&l);
}

static void test_malformed(void **state)
{
	struct fixture *f = *state;
	struct ledger l;
	struct strbuf expect = STRBUF_INIT;
	char *err;

	make_sub(f);
	write_text(f->path,
		/* 1: wrong header */
		"# stablepick ledger 2\n"
		/* 2: good */
		"b\t" OID_A "\taccepted\t2023-11-14T22:13:20Z\t-\tA <a@x>\tok\n"
		/* 3: spaces instead of tabs */
		"b " OID_A " accepted 2023-11-14T22:13:20Z - A <a@x> ok\n"
		/* 4: a tab in the reason makes an eighth field, no origin */
		"b\t" OID_A "\taccepted\t2023-11-14T22:13:20Z\t-\tA <a@x>\to\tk\n"
		/* 5: short id */
		"b\t0123456789ab\taccepted\t2023-11-14T22:13:20Z\t-\tA <a@x>\t\n"
		/* 6: upper-case id */
		"b\t0123456789ABCDEF0123456789abcdef01234567\taccepted\t"
		"2023-11-14T22:13:20Z\t-\tA <a@x>\t\n"
		/* 7: unknown decision */
		"b\t" OID_A "\tmaybe\t2023-11-14T22:13:20Z\t-\tA <a@x>\t\n"
		/* 8: time without Z */
		"b\t" OID_A "\trejected\t2023-11-14T22:13:20\t-\tA <a@x>\t\n"
		/* 9: deferred without a date */
		"b\t" OID_A "\tdeferred\t2023-11-14T22:13:20Z\t-\tA <a@x>\t\n"
		/* 10: accepted with a date */
		"b\t" OID_A "\taccepted\t2023-11-14T22:13:20Z\t2023-11-21\t"
		"A <a@x>\t\n"
		/* 11: empty who */
		"b\t" OID_A "\taccepted\t2023-11-14T22:13:20Z\t-\t\t\n"
		/* 12: a carriage return (DOS line end) */
		"b\t" OID_A "\taccepted\t2023-11-14T22:13:20Z\t-\tA <a@x>\tok\r\n"
		/* 13: empty branch */
		"\t" OID_A "\taccepted\t2023-11-14T22:13:20Z\t-\tA <a@x>\t\n"
		/* 14: 31 November */
		"b\t" OID_A "\tdeferred\t2023-11-14T22:13:20Z\t2023-11-31\t"
		"A <a@x>\t\n"
		/* 15: good, deferred until a tag */
		"b\t" OID_B "\tdeferred\t2023-11-14T22:13:20Z\tv6.6.9\t"
		"A <a@x>\t\n"
		/* 16: no tag's name */
		"b\t" OID_A "\tdeferred\t2023-11-14T22:13:20Z\tv6..9\t"
		"A <a@x>\t\n"
		/* 17: a ninth field */
		"b\t" OID_A "\taccepted\t2023-11-14T22:13:20Z\t-\tA <a@x>\tok\t"
		"from=x\ty\n"
		/* 18: a bad date in the origin */
		"b\t" OID_A "\taccepted\t2023-11-14T22:13:20Z\t-\tA <a@x>\tok\t"
		"from=x;date=yesterday\n"
		/* 19: a newline, escaped, in the origin */
		"b\t" OID_A "\taccepted\t2023-11-14T22:13:20Z\t-\tA <a@x>\tok\t"
		"from=x%0Ab\n");
	strbuf_addf(&expect,
		"error: %1$s:1: not a stablepick ledger (the first line must be "
		"'# stablepick ledger 1')\n"
		"error: %1$s:3: expected 7 tab-separated fields, found 1\n"
		"error: %1$s:4: bad origin 'k' (expected key=value pairs)\n"
		"error: %1$s:5: bad commit id '0123456789ab' (expected 40 "
		"lower-case hex digits)\n"
		"error: %1$s:6: bad commit id "
		"'0123456789ABCDEF0123456789abcdef01234567' (expected 40 "
		"lower-case hex digits)\n"
		"error: %1$s:7: unknown decision 'maybe' (expected accepted, "
		"rejected or deferred)\n"
		"error: %1$s:8: bad time '2023-11-14T22:13:20' (expected "
		"YYYY-MM-DDTHH:MM:SSZ)\n"
		"error: %1$s:9: bad date '-' for deferred (expected YYYY-MM-DD "
		"or a tag)\n"
		"error: %1$s:10: accepted takes '-' as until, not '2023-11-21'\n"
		"error: %1$s:11: empty who\n"
		"error: %1$s:12: control character in reason\n"
		"error: %1$s:13: empty branch\n"
		"error: %1$s:14: bad date '2023-11-31' for deferred (expected "
		"YYYY-MM-DD or a tag)\n"
		"error: %1$s:16: bad date 'v6..9' for deferred (expected "
		"YYYY-MM-DD or a tag)\n"
		"error: %1$s:17: too many fields (expected 7, or 8 with an "
		"origin, separated by tabs)\n"
		"error: %1$s:18: bad date 'yesterday' in the origin (expected "
		"YYYY-MM-DDTHH:MM:SSZ)\n"
		"error: %1$s:19: control character in the origin's from\n",
		f->path);

	ledger_init(&l, f->path);
	stderr_begin(f);
	assert_int_equal(ledger_load(&l), -1);
	err = stderr_end(f);
	assert_string_equal(err, expect.buf);
	free(err);
	/* Nothing of a bad file is used. */
	assert_null(find(&l, "b", OID_A));

	/* Nor appended to: the file stays as it is. */
	{
		struct ledger_entry e = entry("b", OID_B, DECISION_ACCEPTED,
					      "A <a@x>", "");
		char *before = read_text(f->path), *after;

		stderr_begin(f);
		assert_int_equal(ledger_append(&l, &e, 1), -1);
		free(stderr_end(f));
		after = read_text(f->path);
		assert_string_equal(before, after);
		free(before);
		free(after);
	}
	ledger_release(&l);
	strbuf_release(&expect);
}

static void test_bad_input(void **state)
{
	struct fixture *f = *state;
	struct ledger_entry e = entry("b", OID_A, DECISION_REJECTED, "A <a@x>",
				      "two\nlines");
	struct ledger l;
	char *err;

	ledger_init(&l, f->path);
	stderr_begin(f);
	assert_int_equal(ledger_append(&l, &e, 1), -1);
	e.reason = "a\ttab";
	assert_int_equal(ledger_append(&l, &e, 1), -1);
	e.reason = "";
	e.who = "Forged\tname";
	assert_int_equal(ledger_append(&l, &e, 1), -1);
	err = stderr_end(f);
	assert_string_equal(err,
		"error: the reason must be one line without tabs or control "
		"characters\n"
		"error: the reason must be one line without tabs or control "
		"characters\n"
		"error: bad name for the ledger: it must be one line without "
		"tabs\n");
	free(err);
	assert_int_equal(access(f->path, F_OK), -1);
	ledger_release(&l);
}

static void test_locked(void **state)
{
	struct fixture *f = *state;
	struct ledger_entry e = entry("b", OID_A, DECISION_REJECTED, "A <a@x>",
				      "");
	struct strbuf expect = STRBUF_INIT;
	char *lock = xstrfmt("%s.lock", f->path), *err, *text;
	struct ledger l;

	make_sub(f);
	write_text(f->path, HEADER);
	write_text(lock, "");
	setenv("STABLEPICK_LOCK_TIMEOUT", "0.2", 1);
	strbuf_addf(&expect, "error: ledger '%s' is locked by another run "
		    "(remove '%s' if no stablepick is running)\n", f->path, lock);

	ledger_init(&l, f->path);
	stderr_begin(f);
	assert_int_equal(ledger_append(&l, &e, 1), -1);
	err = stderr_end(f);
	assert_string_equal(err, expect.buf);
	free(err);
	text = read_text(f->path);
	assert_string_equal(text, HEADER);
	free(text);
	/* The lock is the other run's: it stays. */
	assert_int_equal(access(lock, F_OK), 0);

	/* Once it is gone, the append goes through. */
	assert_int_equal(unlink(lock), 0);
	assert_int_equal(ledger_append(&l, &e, 1), 0);
	assert_non_null(find(&l, "b", OID_A));

	setenv("STABLEPICK_LOCK_TIMEOUT", "soon", 1);
	stderr_begin(f);
	assert_int_equal(ledger_append(&l, &e, 1), -1);
	err = stderr_end(f);
	assert_string_equal(err, "error: bad STABLEPICK_LOCK_TIMEOUT 'soon' "
			    "(expected seconds)\n");
	free(err);
	unsetenv("STABLEPICK_LOCK_TIMEOUT");
	ledger_release(&l);
	strbuf_release(&expect);
	free(lock);
}

/*
 * A write that fails half-way (here: the file size limit) leaves the old
 * ledger as it was and removes the lock.
 */
static void test_failed_write(void **state)
{
	struct fixture *f = *state;
	struct ledger_entry e = entry("b", OID_A, DECISION_REJECTED, "A <a@x>",
				      NULL);
	char *reason = xcalloc(1, 401);
	char *lock = xstrfmt("%s.lock", f->path), *err, *text, *expect;
	struct rlimit old, small;
	struct ledger l;

	/* The limit holds the error message, not the new ledger. */
	memset(reason, 'r', 400);
	e.reason = reason;
	make_sub(f);
	write_text(f->path, HEADER);
	signal(SIGXFSZ, SIG_IGN);
	assert_int_equal(getrlimit(RLIMIT_FSIZE, &old), 0);
	small = old;
	small.rlim_cur = 300;

	ledger_init(&l, f->path);
	stderr_begin(f);
	assert_int_equal(setrlimit(RLIMIT_FSIZE, &small), 0);
	assert_int_equal(ledger_append(&l, &e, 1), -1);
	assert_int_equal(setrlimit(RLIMIT_FSIZE, &old), 0);
	err = stderr_end(f);
	signal(SIGXFSZ, SIG_DFL);
	expect = xstrfmt("error: cannot write '%s': %s\n", lock,
			 strerror(EFBIG));
	assert_string_equal(err, expect);
	text = read_text(f->path);
	assert_string_equal(text, HEADER);
	assert_int_equal(access(lock, F_OK), -1);
	assert_null(find(&l, "b", OID_A));
	free(err);
	free(expect);
	free(text);
	free(lock);
	free(reason);
	ledger_release(&l);
}

/*
 * A run that dies holding the lock, of a signal or of running out of
 * memory, removes it first: the next run is not told to clean up after
 * it.  The same for a temporary file held (write_file_atomic()'s).
 * Each death is a child process's; its status is what it would be
 * without the clean-up.
 */
static void test_lock_removed_on_death(void **state)
{
	struct fixture *f = *state;
	char *lock = xstrfmt("%s.lock", f->path);
	char *tmp = xstrfmt("%s.tmp.XXXXXX", f->path);
	static const int sigs[] = { SIGTERM, SIGINT, SIGHUP, SIGPIPE, 0 };
	size_t i;

	make_sub(f);
	write_text(f->path, HEADER);
	for (i = 0; i < ARRAY_SIZE(sigs); i++) {
		int status;
		pid_t pid = fork();

		assert_true(pid >= 0);
		if (!pid) {
			struct lockfile lk;
			int fd;

			if (lockfile_take(&lk, f->path, "ledger") < 0)
				_exit(3);
			fd = mkstemp(tmp);
			if (fd < 0)
				_exit(3);
			hold_file(tmp);
			if (sigs[i])
				raise(sigs[i]);
			else
				die_oom();
			_exit(4);
		}
		assert_int_equal(waitpid(pid, &status, 0), pid);
		if (sigs[i]) {
			assert_true(WIFSIGNALED(status));
			assert_int_equal(WTERMSIG(status), sigs[i]);
		} else {
			assert_true(WIFEXITED(status));
			assert_int_equal(WEXITSTATUS(status), 1);
		}
		assert_int_equal(access(lock, F_OK), -1);
		/* The directory holds the ledger, and no lock or temporary file. */
		{
			char *sub = xstrfmt("%s/sub", f->dir), **names;
			size_t nr;

			assert_int_equal(dir_names(sub, 0, &names, &nr), 0);
			assert_int_equal(nr, 1);
			assert_string_equal(names[0], "ledger");
			free_string_array(names, nr);
			free(sub);
		}
		/* mkstemp() replaced the X's: the next child makes its own. */
		strcpy(tmp + strlen(tmp) - 6, "XXXXXX");
	}
	{
		/* The ledger itself is untouched, and the next run gets the lock. */
		char *text = read_text(f->path);
		struct lockfile lk;

		assert_string_equal(text, HEADER);
		free(text);
		assert_int_equal(lockfile_take(&lk, f->path, "ledger"), 0);
		lockfile_rollback(&lk);
	}
	free(lock);
	free(tmp);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_decision_names),
		cmocka_unit_test(test_dates),
		cmocka_unit_test(test_in_force),
		cmocka_unit_test_setup_teardown(test_missing_file, setup, teardown),
		cmocka_unit_test_setup_teardown(test_round_trip, setup, teardown),
		cmocka_unit_test_setup_teardown(test_origin, setup, teardown),
		cmocka_unit_test_setup_teardown(test_future, setup, teardown),
		cmocka_unit_test_setup_teardown(test_latest_wins, setup, teardown),
		cmocka_unit_test_setup_teardown(test_keys_and_others, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_until_tag, setup, teardown),
		cmocka_unit_test_setup_teardown(test_malformed, setup, teardown),
		cmocka_unit_test_setup_teardown(test_bad_input, setup, teardown),
		cmocka_unit_test_setup_teardown(test_locked, setup, teardown),
		cmocka_unit_test_setup_teardown(test_failed_write, setup, teardown),
		cmocka_unit_test_setup_teardown(test_lock_removed_on_death, setup,
						teardown),
	};
	static const int held[] = { SIGTERM, SIGINT, SIGHUP, SIGPIPE };
	size_t i;
	int ret;

	/*
	 * A signal ignored when the program starts stays ignored, as it
	 * should; but a suite run in the background starts with SIGINT
	 * ignored, and test_lock_removed_on_death() raises it.
	 */
	for (i = 0; i < ARRAY_SIZE(held); i++)
		signal(held[i], SIG_DFL);
	git_libgit2_init();
	ret = cmocka_run_group_tests(tests, NULL, NULL);
	git_libgit2_shutdown();
	return ret;
}
