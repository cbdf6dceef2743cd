#include "cli/cli.h"
#include "base/error.h"
#include "store/ledger.h"
#include "cli/options.h"
#include "report/report.h"
#include "report/report-ledger.h"
#include "base/strbuf.h"
#include "base/util.h"

#include <stdlib.h>
#include <string.h>

#define DEFAULT_LEDGER_REF "stablepick"

/*
 * ledger sync [--ref REF]: the ledger file and the notes ref hold the
 * same decisions afterwards (ledger_sync()).  The ref: --ref, else
 * stablepick.ledgerRef, else refs/notes/stablepick.
 */
static int ledger_sync_cmd(struct run_context *ctx, int argc, char **argv)
{
	const char *name = NULL;
	const struct cli_option opts[] = {
		OPT_STRING(0, "ref", &name, "REF",
			   "the notes ref (default: stablepick.ledgerRef, else "
			   "refs/notes/stablepick)"),
		OPT_END()
	};
	struct strbuf out = STRBUF_INIT;
	struct cli_end end = { 0 };
	struct ledger_sync s;
	struct ledger l;
	char *path, *ref;
	int n, ret;

	if ((n = cli_parse(&cmd_ledger, opts, argc, argv, 0)) < 0)
		return cli_parse_status(n);
	if (n != argc) {
		error("ledger sync takes no arguments");
		return cli_usage(&cmd_ledger);
	}
	if (run_open_repo(ctx) < 0)
		return cli_end(ctx, NULL, -1);
	if (!name)
		name = ctx->config.ledger_ref ? ctx->config.ledger_ref
					      : DEFAULT_LEDGER_REF;
	ref = ledger_notes_ref(name);
	if (!ref)
		return cli_end(ctx, NULL, -1);
	path = run_ledger_path(ctx);
	ledger_init(&l, path);
	ledger_set_repo(&l, ctx->repo);
	free(path);
	ret = ledger_sync(&l, ref, &s);
	if (!ret)
		report_ledger_sync(&out, &s);
	/* Lines from the future were named and left out: say so. */
	if (!ret && s.skipped)
		ret = CLI_SKIPPED;
	report_visible(&out);
	ledger_sync_release(&s);
	ledger_release(&l);
	free(ref);
	end.out = &out;
	return cli_end(ctx, &end, ret);
}

static int ledger(struct run_context *ctx, int argc, char **argv)
{
	static const char *const subs[] = { "sync" };
	const struct cli_option opts[] = { OPT_END() };
	int n;

	if ((n = cli_parse(&cmd_ledger, opts, argc, argv, 0)) < 0)
		return cli_parse_status(n);
	if (n == argc) {
		error("ledger needs a subcommand (sync)");
		return cli_usage(&cmd_ledger);
	}
	if (strcmp(argv[n], "sync")) {
		error("unknown ledger subcommand '%s' (expected sync)", argv[n]);
		hint_similar(argv[n], strlen(argv[n]), subs, ARRAY_SIZE(subs),
			     "");
		return cli_usage(&cmd_ledger);
	}
	return ledger_sync_cmd(ctx, argc - n, argv + n);
}

const struct cli_command cmd_ledger = {
	"ledger",
	"sync [--ref REF]",
	"share the ledger through a git notes ref",
	ledger,
};
