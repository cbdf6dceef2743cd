/*
 * Unit tests for the report writers (src/report.h): the text table
 * with and without --all, explain, JSON Lines, and report_write() to a
 * file, to a full device and to a terminal.  The candidates are made
 * by hand, as the stages leave them (fixed ids, dates and zones), one
 * of them with a hostile subject: escape sequences, quotes, a
 * backslash, a tab and a byte that is not UTF-8.
 */
/* posix_openpt() and its kin, cfmakeraw(). */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <termios.h>
#include <unistd.h>

#include "capture.h"
#include "base/json.h"
#include "formats/mail.h"
#include "report/report.h"
#include "formats/rules.h"
#include "stages/score.h"
#include "base/strbuf.h"
#include "base/util.h"

static const char rules_text[] =
	"version 1\n"
	"threshold 10\n"
	"subsystem ext4\n"
	"\tpaths fs/ext4/\n"
	"\tlist linux-ext4@vger.kernel.org\n"
	"end\n"
	"rule fix +10 subject /\\bfix\\b/i\n"
	"rule cc-stable +100 trailer:Cc /stable@vger\\.kernel\\.org/i\n"
	"rule leak +3 body /\\bleak\\w*/i\n";

/* ESC ] 0 ; ... BEL retitles a terminal; 0xff is not UTF-8. */
#define HOSTILE "ext4: fix \033]0;owned\007 \"it\" \\ a\ttab \xff"

struct fixture {
	struct ruleset rs;
	struct scan scan;
	struct branch_index branch;
	struct report r;
	struct candidate *leak, *hostile, *tidy, *followup;
};

static struct candidate *make(struct fixture *f, unsigned char byte,
			      const char *raw, int tz)
{
	struct candidate *c;
	git_oid id;

	memset(id.id, byte, sizeof(id.id));
	c = candidate_list_add(&f->scan.candidates, &id);
	c->raw = xstrdup(raw);
	message_parse(&c->msg, c->raw, strlen(c->raw));
	c->author = xstrdup("A U Thor <author@example.com>");
	c->time = 1700000000;		/* 2023-11-14T22:13:20Z */
	c->tz_offset = tz;
	c->touched = xcalloc(1, sizeof(*c->touched));
	c->touched[0] = ruleset_subsystem(&f->rs, "ext4");
	assert_non_null(c->touched[0]);
	c->nr_touched = c->alloc_touched = 1;
	score_candidate(&f->rs, c);
	return c;
}

/*
 *   111...  ext4: fix a leak    proposed (113), absent from the branch
 *   222...  HOSTILE             present: a branch commit names it
 *   333...  ext4: tidy          below the threshold
 *   444...  ext4: fix the fix   proposed, Fixes: 111... (a follow-up)
 */
static int setup(void **state)
{
	struct fixture *f = xcalloc(1, sizeof(*f));
	git_oid bp;
	struct candidate *c;

	ruleset_init(&f->rs);
	assert_int_equal(ruleset_load_buffer(&f->rs, "t.rules", rules_text,
					     strlen(rules_text)), 0);
	scan_init(&f->scan, NULL, &f->rs);
	f->scan.range = xstrdup("v6.6..master");
	f->scan.walked = 10;
	f->scan.merges = 1;
	branch_index_init(&f->branch);
	f->branch.name = xstrdup("linux-6.6.y");
	f->branch.base_name = xstrdup("v6.6");
	f->branch.nr_commits = 3;
	f->branch.nr_backports = 1;
	f->r.scan = &f->scan;
	f->r.branch = &f->branch;
	f->r.rules = &f->rs;
	f->r.upstream = "master";

	c = f->leak = make(f, 0x11, "ext4: fix a leak\n\nIt leaked an inode.\n\n"
			   "Cc: stable@vger.kernel.org # 6.1+\n", 60);
	candidate_add_evidence(c, EVIDENCE_ABSENT, NULL, "no branch commit "
			       "names it or makes its change");
	score_decide(c);

	c = f->hostile = make(f, 0x22, HOSTILE "\n", -330);
	memset(bp.id, 0xab, sizeof(bp.id));
	candidate_add_evidence(c, EVIDENCE_UPSTREAM_LINE, &bp,
			       "abababababab names it");
	c->present = 1;
	score_decide(c);

	c = f->tidy = make(f, 0x33, "ext4: tidy\n", 0);
	candidate_add_evidence(c, EVIDENCE_ABSENT, NULL, "not in the branch");
	score_decide(c);

	c = f->followup = make(f, 0x44, "ext4: fix the fix\n\n"
			       "Fixes: 111111111111 (\"ext4: fix a leak\")\n", 0);
	c->fixes = xcalloc(c->msg.nr_fixes, sizeof(*c->fixes));
	assert_int_equal(c->msg.nr_fixes, 1);
	c->fixes[0].ref = &c->msg.fixes[0];
	c->fixes[0].id = f->leak->id;
	c->fixes[0].resolved = 1;
	c->fixes[0].cand = f->leak;
	c->fixes[0].status = TARGET_PROPOSED;
	candidate_add_evidence(c, EVIDENCE_ABSENT, NULL, "not in the branch");
	score_decide(c);
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *f = *state;

	scan_release(&f->scan);
	branch_index_release(&f->branch);
	ruleset_release(&f->rs);
	free(f);
	return 0;
}

static void test_verdicts(void **state)
{
	struct fixture *f = *state;

	/* What the table shows comes from these: check them first. */
	assert_int_equal(f->leak->score, 113);
	assert_int_equal(f->leak->verdict, VERDICT_PROPOSED);
	assert_int_equal(f->hostile->verdict, VERDICT_PRESENT);
	assert_int_equal(f->tidy->verdict, VERDICT_BELOW_THRESHOLD);
	assert_int_equal(f->followup->verdict, VERDICT_PROPOSED);
}

static void test_text(void **state)
{
	struct fixture *f = *state;
	struct strbuf out = STRBUF_INIT;

	report_text(&out, &f->r, &f->scan.candidates);
	assert_string_equal(out.buf,
		"branch linux-6.6.y (base v6.6): 3 commits after the base, "
		"1 names an upstream commit\n"
		"mainline v6.6..master: 10 commits walked (1 merge), "
		"4 in watched paths\n"
		"\n"
		"VERDICT   SCORE  COMMIT        SUBSYSTEM  SUBJECT\n"
		"proposed    113  111111111111  ext4       ext4: fix a leak\n"
		"                 fix +10, cc-stable +100, leak +3\n"
		"proposed     10  444444444444  ext4       ext4: fix the fix\n"
		"                 fix +10\n"
		"\n"
		"4 candidates: 2 proposed, 1 present, 1 below-threshold\n"
		"(2 present, below-threshold or decided not shown; use --all)\n");
	strbuf_release(&out);
}

/* --all: every verdict, the hostile subject as it is (a file gets bytes). */
static void test_text_all(void **state)
{
	struct fixture *f = *state;
	struct strbuf out = STRBUF_INIT;
	const char *table;

	f->r.all = 1;
	report_text(&out, &f->r, &f->scan.candidates);
	table = strstr(out.buf, "\n\nVERDICT");
	assert_non_null(table);
	assert_string_equal(table,
		"\n\nVERDICT          SCORE  COMMIT        SUBSYSTEM  SUBJECT\n"
		"proposed           113  111111111111  ext4       ext4: fix a leak\n"
		"                        fix +10, cc-stable +100, leak +3\n"
		"present             10  222222222222  ext4       " HOSTILE "\n"
		"                        abababababab names it; fix +10\n"
		"below-threshold      0  333333333333  ext4       ext4: tidy\n"
		"                        no rule matched\n"
		"proposed            10  444444444444  ext4       ext4: fix the fix\n"
		"                        fix +10\n"
		"\n"
		"4 candidates: 2 proposed, 1 present, 1 below-threshold\n");
	strbuf_release(&out);
}

static void test_explain(void **state)
{
	struct fixture *f = *state;
	struct strbuf out = STRBUF_INIT;

	report_explain(&out, &f->r, f->leak);
	assert_string_equal(out.buf,
		"commit 1111111111111111111111111111111111111111\n"
		"Subject:   ext4: fix a leak\n"
		"Author:    A U Thor <author@example.com>\n"
		"Date:      2023-11-14T23:13:20+01:00\n"
		"Subsystem: ext4 (policy heuristic; list linux-ext4@vger.kernel.org)\n"
		"Fixed by:  444444444444 (\"ext4: fix the fix\"), proposed\n"
		"Stable:    stable@vger.kernel.org # 6.1+ (for 6.1 and later)\n"
		"\n"
		"Score 113, threshold 10:\n"
		"    +10  fix                  t.rules:7  \"fix\"\n"
		"   +100  cc-stable            t.rules:8  \"stable@vger.kernel.org\"\n"
		"     +3  leak                 t.rules:9  \"leaked\"\n"
		"\n"
		"Presence in linux-6.6.y:\n"
		"  absent         no branch commit names it or makes its change\n"
		"\n"
		"Verdict:   proposed: score 113 reaches the threshold 10 of ext4\n");
	strbuf_reset(&out);

	/* The follow-up: its target, resolved, and what is not matched. */
	report_explain(&out, &f->r, f->followup);
	assert_non_null(strstr(out.buf, "Date:      2023-11-14T22:13:20+00:00\n"
			       "Subsystem: ext4"));
	assert_non_null(strstr(out.buf, "\nFixes:     111111111111 "
			       "(\"ext4: fix a leak\") -> "
			       "1111111111111111111111111111111111111111, "
			       "proposed\n"));
	assert_non_null(strstr(out.buf, "  not matched: cc-stable, leak\n"));
	assert_null(strstr(out.buf, "Fixed by:"));
	strbuf_reset(&out);

	/* West of UTC, and the presence evidence with its commit. */
	report_explain(&out, &f->r, f->hostile);
	assert_non_null(strstr(out.buf, "Date:      2023-11-14T16:43:20-05:30\n"));
	assert_non_null(strstr(out.buf, "\n  upstream-line  abababababab names it "
			       "(abababababababababababababababababababab)\n"));
	assert_non_null(strstr(out.buf, "\nVerdict:   present: abababababab "
			       "names it\n"));
	strbuf_release(&out);
}

/* One line per candidate; each parses, and gives the subject back. */
static void test_json(void **state)
{
	struct fixture *f = *state;
	struct strbuf out = STRBUF_INIT;
	const struct json_member *mb;
	struct json_object o;
	const char *line, *nl, *why;
	size_t at;

	report_json(&out, &f->r, &f->scan.candidates);
	line = out.buf;
	/* The below-threshold one, whole: the layout is an interface. */
	line = strstr(out.buf, "{\"commit\":\"3333");
	assert_non_null(line);
	nl = strchr(line, '\n');
	assert_non_null(nl);
	assert_memory_equal(line,
		"{\"commit\":\"3333333333333333333333333333333333333333\","
		"\"branch\":\"linux-6.6.y\",\"subject\":\"ext4: tidy\",\"author\":\"A U Thor <author@example.com>\","
		"\"date\":\"2023-11-14T22:13:20+00:00\",\"subsystem\":\"ext4\","
		"\"subsystems\":[\"ext4\"],\"policy\":\"heuristic\",\"score\":0,"
		"\"threshold\":10,\"verdict\":\"below-threshold\","
		"\"why\":\"score 0 is below the threshold 10 of ext4\","
		"\"reasons\":[],\"veto\":null,\"decision_origin\":null,"
		"\"evidence\":[{\"kind\":\"absent\","
		"\"commit\":null,\"detail\":\"not in the branch\"}],\"fixes\":[],"
		"\"stable\":[],\"facts\":[],\"named_by\":[],\"cves\":[],\"newer_lacking\":[],"
		"\"prerequisites\":[],"
		"\"series\":null,\"posted\":null,\"applies\":null,\"conflicts\":[],"
		"\"applies_with\":null,\"applies_with_tried\":0,\"applies_with_searched\":false,"
		"\"applies_with_members\":[],\"likely_prerequisites\":null,"
		"\"reverted_by\":null,\"reverts\":null,\"other_decisions\":[],\"warnings\":[]}\n",
		(size_t)(nl - line + 1));

	/* The hostile subject: escaped, and the byte that is not UTF-8 replaced. */
	line = strstr(out.buf, "{\"commit\":\"2222");
	assert_non_null(line);
	nl = strchr(line, '\n');
	assert_non_null(strstr(line, "\"subject\":\"ext4: fix \\u001b]0;owned"
			       "\\u0007 \\\"it\\\" \\\\ a\\ttab \\ufffd\","));
	json_object_init(&o);
	assert_int_equal(json_object_parse(&o, line, (size_t)(nl - line), &why,
					   &at), 0);
	mb = json_object_get(&o, "subject");
	assert_non_null(mb);
	assert_int_equal(mb->type, JSON_STRING);
	assert_string_equal(mb->value, "ext4: fix \033]0;owned\007 \"it\" \\ "
			    "a\ttab \xef\xbf\xbd");
	mb = json_object_get(&o, "verdict");
	assert_string_equal(mb->value, "present");
	json_object_release(&o);

	/* The follow-up's target and the stable hint. */
	assert_non_null(strstr(out.buf, "\"fixes\":[{\"id\":\"111111111111\","
			       "\"subject\":\"ext4: fix a leak\",\"commit\":"
			       "\"1111111111111111111111111111111111111111\","
			       "\"status\":\"proposed\"}]"));
	assert_non_null(strstr(out.buf, "\"stable\":[{\"address\":"
			       "\"stable@vger.kernel.org\",\"comment\":\"6.1+\","
			       "\"since\":\"6.1\",\"noautosel\":false}]"));
	/* Listed by an earlier run: not written. */
	f->tidy->listed_before = 1;
	strbuf_reset(&out);
	report_json(&out, &f->r, &f->scan.candidates);
	assert_null(strstr(out.buf, "3333"));
	assert_non_null(strstr(out.buf, "4444"));
	strbuf_release(&out);
}

static char *read_all(FILE *fp)
{
	struct strbuf sb = STRBUF_INIT;
	char chunk[256];
	size_t got;

	rewind(fp);
	while ((got = fread(chunk, 1, sizeof(chunk), fp)) > 0)
		strbuf_add(&sb, chunk, got);
	return strbuf_detach(&sb, NULL);
}

static void test_write(void **state)
{
	struct strbuf out = STRBUF_INIT;
	struct capture cap;
	FILE *fp;
	char *got;

	(void)state;
	strbuf_addstr(&out, HOSTILE "\n\xc2\x9b" "2J\n");
	/* A file gets every byte. */
	fp = tmpfile();
	assert_non_null(fp);
	assert_int_equal(report_write(fp, &out), 0);
	got = read_all(fp);
	assert_string_equal(got, out.buf);
	free(got);
	fclose(fp);

	/* A full device: an error, not silence. */
	fp = fopen("/dev/full", "w");
	if (fp) {
		capture_begin(&cap);
		assert_int_equal(report_write(fp, &out), -1);
		got = capture_end(&cap);
		assert_string_equal(got, "error: cannot write the output: "
				    "No space left on device\n");
		free(got);
		fclose(fp);
	}
	strbuf_release(&out);
}

/* A terminal gets '?' for controls, C1 controls and bad bytes. */
static void test_write_terminal(void **state)
{
	struct strbuf out = STRBUF_INIT;
	struct termios tio;
	char buf[256];
	ssize_t got;
	size_t len = 0;
	int master, slave;
	FILE *fp;
	const char *want = "ext4: fix ?]0;owned? \"it\" \\ a\ttab ?\n"
			   "?2J caf\xc3\xa9\n";

	(void)state;
	master = posix_openpt(O_RDWR | O_NOCTTY);
	if (master < 0 || grantpt(master) || unlockpt(master)) {
		if (master >= 0)
			close(master);
		skip();
	}
	slave = open(ptsname(master), O_RDWR | O_NOCTTY);
	assert_true(slave >= 0);
	assert_int_equal(tcgetattr(slave, &tio), 0);
	cfmakeraw(&tio);
	assert_int_equal(tcsetattr(slave, TCSANOW, &tio), 0);
	fp = fdopen(slave, "w");
	assert_non_null(fp);
	strbuf_addstr(&out, HOSTILE "\n\xc2\x9b" "2J caf\xc3\xa9\n");
	assert_int_equal(report_write(fp, &out), 0);
	while (len < strlen(want)) {
		got = read(master, buf + len, sizeof(buf) - 1 - len);
		assert_true(got > 0);
		len += (size_t)got;
	}
	buf[len] = '\0';
	assert_string_equal(buf, want);
	fclose(fp);
	close(master);
	strbuf_release(&out);
}

/*
 * The proposal mail's subject stays one line: with more than four
 * subsystems, the three with the most to take or ack (ties by name),
 * then "and N more"; with four or fewer, all of them by name.
 */
static void subject_of_mail(const char *const *subs, const int *nr,
			    size_t n, const char *want)
{
	struct ruleset rs;
	struct scan scan;
	struct branch_index bi;
	struct report r;
	struct strbuf rules = STRBUF_INIT, out = STRBUF_INIT;
	const char *subject, *end;
	unsigned char byte = 1;
	size_t i;
	int j;

	strbuf_addstr(&rules, "version 1\nthreshold 10\n");
	for (i = 0; i < n; i++)
		strbuf_addf(&rules, "subsystem %s\n\tpaths fs/%s/\nend\n",
			    subs[i], subs[i]);
	ruleset_init(&rs);
	assert_int_equal(ruleset_load_buffer(&rs, "t.rules", rules.buf,
					     rules.len), 0);
	scan_init(&scan, NULL, &rs);
	scan.range = xstrdup("v6.6..master");
	branch_index_init(&bi);
	bi.name = xstrdup("linux-6.6.y");
	bi.major = 6;
	bi.minor = 6;
	for (i = 0; i < n; i++) {
		for (j = 0; j < nr[i]; j++) {
			struct candidate *c;
			git_oid id;

			memset(id.id, byte++, sizeof(id.id));
			c = candidate_list_add(&scan.candidates, &id);
			c->touched = xcalloc(1, sizeof(*c->touched));
			c->touched[0] = ruleset_subsystem(&rs, subs[i]);
			c->nr_touched = c->alloc_touched = 1;
			c->verdict = VERDICT_PROPOSED;
		}
	}
	memset(&r, 0, sizeof(r));
	r.scan = &scan;
	r.branch = &bi;
	r.rules = &rs;
	r.from_name = "T";
	r.from_email = "t@example.com";
	r.message_id = "id@example.com";
	r.now = 1764806400;		/* 2025-12-04, week 49 */
	report_email(&out, &r, &scan.candidates);
	subject = strstr(out.buf, "\nSubject: ");
	assert_non_null(subject);
	subject += strlen("\nSubject: ");
	end = strchr(subject, '\n');
	assert_non_null(end);
	assert_int_equal(end - subject, strlen(want));
	assert_memory_equal(subject, want, strlen(want));
	strbuf_release(&out);
	strbuf_release(&rules);
	scan_release(&scan);
	branch_index_release(&bi);
	ruleset_release(&rs);
}

static void test_email_subject(void **state)
{
	static const char *const subs[] = { "btrfs", "ext4", "f2fs", "nfs",
					    "xfs", "zonefs" };
	static const int many[] = { 1, 2, 1, 2, 3, 1 };
	static const int four[] = { 1, 3, 0, 0, 1, 2 };

	(void)state;
	subject_of_mail(subs, many, 6,
			"xfs, ext4, nfs and 3 more: candidates for 6.6.y, week 49");
	subject_of_mail(subs, four, 6,
			"btrfs, ext4, xfs, zonefs: candidates for 6.6.y, week 49");
}

/* Address lists: each address whole, folded between them, names encoded. */
static void test_address_list(void **state)
{
	static const char *const ids[] = { "a@x", "b@x" };
	struct mail_addrs v = MAIL_ADDRS_INIT;
	struct strbuf out = STRBUF_INIT;

	(void)state;
	mail_addrs_add_pair(&v, "Sasha Levin", "sashal@kernel.org");
	mail_addrs_add_pair(&v, NULL, "stable@vger.kernel.org");
	mail_addrs_add_pair(&v, "Wong, Darrick", "djwong@kernel.org");
	mail_addrs_add_pair(&v, "Ren\xc3\xa9", "rene@example.org");
	mail_addrs_header(&out, "Cc", &v);
	mail_addrs_release(&v);
	assert_string_equal(out.buf, "Cc: Sasha Levin <sashal@kernel.org>, "
			    "stable@vger.kernel.org,\n \"Wong, Darrick\" "
			    "<djwong@kernel.org>,\n =?UTF-8?q?Ren=C3=A9?= "
			    "<rene@example.org>\n");
	strbuf_reset(&out);
	mail_ids_header(&out, "References", ids, 2);
	assert_string_equal(out.buf, "References: <a@x> <b@x>\n");
	strbuf_release(&out);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_verdicts, setup, teardown),
		cmocka_unit_test_setup_teardown(test_text, setup, teardown),
		cmocka_unit_test_setup_teardown(test_text_all, setup, teardown),
		cmocka_unit_test_setup_teardown(test_explain, setup, teardown),
		cmocka_unit_test_setup_teardown(test_json, setup, teardown),
		cmocka_unit_test_setup_teardown(test_write, setup, teardown),
		cmocka_unit_test_setup_teardown(test_write_terminal, setup, teardown),
		cmocka_unit_test(test_email_subject),
		cmocka_unit_test(test_address_list),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
