#include "cli.h"
#include "error.h"
#include "report.h"
#include "report-tests.h"
#include "strbuf.h"
#include "testrun.h"
#include "trace.h"
#include "util.h"

#include <getopt.h>
#include <stdio.h>
#include <string.h>

/* stablepick tests: see testrun.h. */

enum format { FORMAT_TEXT, FORMAT_JSON, FORMAT_EXCLUDE };
static const char *const format_names[] = { "text", "json", "exclude" };

/* --status LIST: a bit per test status. */
static int parse_status(const char *list, unsigned *mask)
{
	char *copy = xstrdup(list), *word, *save = NULL;
	int ret = 0;

	*mask = 0;
	for (word = strtok_r(copy, ",", &save); word && !ret;
	     word = strtok_r(NULL, ",", &save)) {
		size_t i;

		for (i = 0; i < TEST__NR; i++)
			if (!strcmp(word, test_status_name((enum test_status)i)))
				break;
		if (i == TEST__NR)
			ret = error("unknown status '%s' (expected expected-fail, "
				    "expected-pass or unknown)", word);
		else
			*mask |= 1u << i;
	}
	free(copy);
	return ret;
}

static int tests(struct run_context *ctx, int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "branch", required_argument, NULL, 'b' },
		{ "format", required_argument, NULL, 'f' },
		{ "fstests", required_argument, NULL, 'F' },
		{ "fstyp", required_argument, NULL, 't' },
		{ "help", no_argument, NULL, 'h' },
		{ "ltp", required_argument, NULL, 'l' },
		{ "output", required_argument, NULL, 'o' },
		{ "status", required_argument, NULL, 's' },
		{ "upstream", required_argument, NULL, 'u' },
		{ NULL, 0, NULL, 0 }
	};
	const char *branch = NULL, *upstream = NULL, *fstests = NULL;
	const char *ltp = NULL, *output = NULL, *status = NULL;
	enum format format = FORMAT_TEXT;
	struct strbuf out = STRBUF_INIT;
	struct test *list = NULL;
	size_t nr = 0, i;
	unsigned mask = 7;
	struct tests_run t;
	struct run run;
	int opt, f, ret;

	tests_run_init(&t);
	optind = 0;
	while ((opt = cli_getopt(argc, argv, "+h", longopts)) != -1) {
		switch (opt) {
		case 'b': branch = optarg; break;
		case 'f':
			if ((f = cli_format(optarg, format_names,
					      ARRAY_SIZE(format_names))) < 0)
				return cli_usage(&cmd_tests);
			format = (enum format)f;
			break;
		case 'F': fstests = optarg; break;
		case 'h':
			printf("usage: stablepick tests %s\n", cmd_tests.usage);
			return 0;
		case 'l': ltp = optarg; break;
		case 'o': output = optarg; break;
		case 's': status = optarg; break;
		case 't': t.fstyp = optarg; break;
		case 'u': upstream = optarg; break;
		default:
			return cli_usage(&cmd_tests);
		}
	}
	if (optind != argc) {
		error("unexpected argument '%s'", argv[optind]);
		return cli_usage(&cmd_tests);
	}
	if (!branch || (!fstests && !ltp)) {
		error("tests needs --branch, and --fstests or --ltp");
		return cli_usage(&cmd_tests);
	}
	if (status && parse_status(status, &mask) < 0)
		return cli_usage(&cmd_tests);
	if (format == FORMAT_EXCLUDE && !status)
		mask = 1u << TEST_FAIL;

	/* The sources first: a bad checkout needs no repository. */
	ret = fstests ? tests_read_suite(&t.set, fstests, "fstests") : 0;
	if (!ret && ltp)
		ret = tests_read_suite(&t.set, ltp, "ltp");
	if (ret) {
		tests_run_release(&t);
		return 1;
	}
	ret = run_setup(ctx, &run, branch, upstream);
	if (!ret)
		ret = run_scan(ctx, &run);
	trace_stage("scan");
	if (!ret)
		ret = tests_resolve(ctx, &run, &t);
	trace_stage("annotations resolved");
	if (!ret)
		ret = tests_judge(ctx, &run, &t);
	trace_stage("presence of their bugs");
	if (!ret) {
		tests_settle(&t);
		tests_group(&t, &list, &nr);
		if (format == FORMAT_TEXT)
			report_tests_text(&out, &run, &t, list, nr, mask);
		for (i = 0; format != FORMAT_TEXT && i < nr; i++) {
			if (!list[i].shown || !(mask & 1u << list[i].status))
				continue;
			if (format == FORMAT_JSON)
				report_tests_json(&out, &t, &list[i]);
			else
				report_tests_exclude(&out, &t, &list[i]);
		}
	}
	if (!ret && output)
		ret = write_file_atomic(output, out.buf, out.len, "test list");
	else if (!ret)
		ret = report_write(stdout, &out);
	if (!ret)
		ret = run_save(ctx, &run);
	free(list);
	strbuf_release(&out);
	tests_run_release(&t);
	run_release(&run);
	return ret < 0 ? 1 : 0;
}

const struct cli_command cmd_tests = {
	"tests",
	"--branch BRANCH (--fstests DIR | --ltp DIR)...\n"
	"                        [--format text|json|exclude] [--fstyp TYPE]\n"
	"                        [--output FILE] [--status LIST] [--upstream REF]",
	"which fstests and LTP regression tests name fixes the branch lacks",
	tests,
};
