#include "cli/cli.h"
#include "base/error.h"
#include "cli/options.h"
#include "report/report.h"
#include "report/report-tests.h"
#include "base/strbuf.h"
#include "run/testrun.h"
#include "base/trace.h"
#include "base/util.h"

#include <stdio.h>
#include <string.h>

/* stablepick tests: see testrun.h. */

enum format { FORMAT_TEXT, FORMAT_JSON, FORMAT_EXCLUDE };
static const char *const format_names[] = { "text", "json", "exclude", NULL };

/* For --status: the names of the statuses, by number. */
static const char *status_word(int i)
{
	return test_status_name((enum test_status)i);
}

static int tests(struct run_context *ctx, int argc, char **argv)
{
	struct cli_args a = { 0 };
	struct cli_list fstests = { 0 }, ltp = { 0 };
	const char *output = NULL, *status = NULL;
	struct tests_run t;
	const struct cli_option opts[] = {
		OPT_BRANCH(&a, "the branch the tests would run on (required)"),
		OPT_LIST("fstests", &fstests, "DIR",
			 "an fstests checkout; may be repeated"),
		OPT_LIST("ltp", &ltp, "DIR", "an LTP checkout; may be repeated"),
		OPT_FORMAT(&a, format_names),
		OPT_STRING(0, "fstyp", &t.fstyp, "TYPE",
			   "the filesystem under test"),
		OPT_STRING(0, "output", &output, "FILE",
			   "write the report to FILE, whole or not at all"),
		OPT_STRING(0, "status", &status, "LIST",
			   "only tests of these statuses (comma-separated)"),
		OPT_STRING(0, "upstream", &a.upstream, "REF",
			   "mainline, where the commits tests name are looked "
			   "for"),
		OPT_END()
	};
	struct strbuf out = STRBUF_INIT;
	struct cli_end end = { 0 };
	struct test *list = NULL;
	size_t nr = 0, i;
	unsigned mask = 7;
	struct run run;
	int n, ret;

	tests_run_init(&t);
	if ((n = cli_parse(&cmd_tests, opts, argc, argv, CLI_NO_ARGS)) < 0)
		return cli_parse_status(n);
	if (!a.branch || (!fstests.nr && !ltp.nr)) {
		error("tests needs --branch, and --fstests or --ltp");
		goto usage;
	}
	if (status && cli_parse_word_list(status, status_word, TEST__NR,
					  "status", "expected-fail, "
					  "expected-pass or unknown",
					  &mask) < 0)
		goto usage;
	if (a.format == FORMAT_EXCLUDE && !status)
		mask = 1u << TEST_FAIL;

	/* The sources first: a bad checkout needs no repository. */
	ret = 0;
	for (i = 0; !ret && i < fstests.nr; i++)
		ret = tests_read_suite(&t.set, fstests.v[i], "fstests");
	for (i = 0; !ret && i < ltp.nr; i++)
		ret = tests_read_suite(&t.set, ltp.v[i], "ltp");
	cli_list_release(&fstests);
	cli_list_release(&ltp);
	trace_stage("test annotations read");
	if (ret) {
		tests_run_release(&t);
		return cli_end(ctx, NULL, -1);
	}
	ret = cli_run_scan(ctx, &run, &a);
	if (!ret)
		ret = tests_resolve(ctx, &run, &t);
	if (!ret)
		ret = tests_judge(ctx, &run, &t);
	if (!ret) {
		tests_settle(&t);
		tests_group(&t, &list, &nr);
		trace_stage("statuses settled");
		if (a.format == FORMAT_TEXT)
			report_tests_text(&out, &run, &t, list, nr, mask);
		for (i = 0; a.format != FORMAT_TEXT && i < nr; i++) {
			if (!list[i].shown || !(mask & 1u << list[i].status))
				continue;
			if (a.format == FORMAT_JSON)
				report_tests_json(&out, &t, &list[i]);
			else
				report_tests_exclude(&out, &t, &list[i]);
		}
	}
	if (!ret && a.format != FORMAT_JSON)
		report_visible(&out);
	free(list);
	end.out = &out;
	end.file = output;
	end.file_what = "test list";
	end.run = &run;
	end.trace = CLI_TRACE_REPORT | CLI_TRACE_SAVE;
	ret = cli_end(ctx, &end, ret);
	tests_run_release(&t);
	return ret;
usage:
	cli_list_release(&fstests);
	cli_list_release(&ltp);
	tests_run_release(&t);
	return cli_usage(&cmd_tests);
}

const struct cli_command cmd_tests = {
	"tests",
	"--branch BRANCH (--fstests DIR | --ltp DIR)...\n"
	"                        [--format text|json|exclude] [--fstyp TYPE]\n"
	"                        [--output FILE] [--status LIST] [--upstream REF]",
	"which fstests and LTP regression tests name fixes the branch lacks",
	tests,
};
