#include "cli/cli.h"
#include "base/error.h"
#include "base/util.h"
#include "git/packmaps.h"

#include <autoconf.h>
#include <git2.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>

static const char usage_head[] =
	"usage: stablepick [-C DIR] [--config FILE] [--rules DIR]... [--cache DIR]\n"
	"                  [--no-cache] COMMAND [ARGS]\n"
	"       stablepick --help | --version\n"
	"\n"
	"Finds the mainline filesystem fixes a stable or vendor kernel branch\n"
	"should take, and says why.\n"
	"\n"
	"Options:\n"
	"  -C DIR          run as if started in DIR\n"
	"  --config FILE   read settings from FILE too (git config format)\n"
	"  --rules DIR     lay the rule files of DIR over the shipped ones\n"
	"  --cache DIR     keep the caches in DIR (default: .git/stablepick)\n"
	"  --no-cache      neither read nor write the caches\n"
	"  -h, --help      show this help\n"
	"  --version       show the version\n"
	"\n"
	"Commands:\n";

static void print_help(FILE *f)
{
	size_t i;

	fputs(usage_head, f);
	for (i = 0; cli_commands[i]; i++)
		fprintf(f, "  %-9s %s\n", cli_commands[i]->name,
			cli_commands[i]->summary);
	fputs("\nRun 'stablepick COMMAND --help' for a command's options; "
	      "see stablepick(1),\nand stablepick-rules(5) for the rule files.\n",
	      f);
}

/* Takes the value of "--opt VALUE" or "--opt=VALUE" at argv[*i]. */
static const char *take_value(int argc, char **argv, int *i, const char *opt)
{
	size_t len = strlen(opt);

	if (!strncmp(argv[*i], opt, len) && argv[*i][len] == '=')
		return argv[*i] + len + 1;
	if (*i + 1 >= argc) {
		error("option '%s' needs a value", opt);
		return NULL;
	}
	return argv[++*i];
}

static int is_opt(const char *arg, const char *opt)
{
	size_t len = strlen(opt);

	return !strncmp(arg, opt, len) && (!arg[len] || arg[len] == '=');
}

int main(int argc, char **argv)
{
	struct run_context ctx;
	const struct cli_command *cmd;
	const char **slot, *opt;
	int i, ret;

	/*
	 * Past the file size limit (ulimit -f), a write fails with EFBIG
	 * and is reported, with the old file kept, instead of the signal
	 * killing the process mid-way.
	 */
	signal(SIGXFSZ, SIG_IGN);
	memset(&ctx, 0, sizeof(ctx));
	config_init(&ctx.config);
	for (i = 1; i < argc && argv[i][0] == '-'; i++) {
		const char *arg = argv[i];

		if (!strcmp(arg, "-h") || !strcmp(arg, "--help")) {
			print_help(stdout);
			return 0;
		}
		if (!strcmp(arg, "--version")) {
			printf("stablepick %s\n", PACKAGE_VERSION);
			return 0;
		}
		if (!strcmp(arg, "--no-cache")) {
			ctx.no_cache = 1;
			continue;
		}
		if (!strcmp(arg, "-C")) {
			opt = "-C";
			slot = &ctx.repo_dir;
		} else if (is_opt(arg, "--config")) {
			opt = "--config";
			slot = &ctx.config_file;
		} else if (is_opt(arg, "--cache")) {
			opt = "--cache";
			slot = &ctx.cache_dir;
		} else if (is_opt(arg, "--rules")) {
			const char *dir = take_value(argc, argv, &i, "--rules");

			if (!dir)
				return 129;
			ALLOC_GROW(ctx.rules_dirs, ctx.nr_rules_dirs,
				   ctx.alloc_rules_dirs);
			ctx.rules_dirs[ctx.nr_rules_dirs++] = dir;
			continue;
		} else {
			static const char *const globals[] = {
				"--cache", "--config", "--help", "--no-cache",
				"--rules", "--version",
			};
			error("unknown option '%s'", arg);
			hint_similar(arg, strcspn(arg, "="), globals,
				     ARRAY_SIZE(globals), "");
			print_help(stderr);
			return 129;
		}
		if (!(*slot = take_value(argc, argv, &i, opt)))
			return 129;
	}
	if (i >= argc) {
		print_help(stderr);
		return 129;
	}
	if (!strcmp(argv[i], "help")) {
		print_help(stdout);
		return 0;
	}
	cmd = cli_find(argv[i]);
	if (!cmd) {
		error("'%s' is not a stablepick command (see 'stablepick --help')",
		      argv[i]);
		cli_hint_command(argv[i]);
		return 129;
	}

	git_libgit2_init();
	xmalloc_for_libgit2();
	/*
	 * Objects are read, never trusted for anything a hash would catch
	 * that git fsck does not: skip hashing each one again on read, as
	 * git does for packed objects.  (libgit2 hashes every object it
	 * reads by default: an eighth of a kernel-sized scan.)
	 */
	git_libgit2_opts(GIT_OPT_ENABLE_STRICT_HASH_VERIFICATION, 0);
	/*
	 * Memory: libgit2 maps up to 8 GiB of pack files (in 1 GiB
	 * windows) and caches up to 256 MiB of parsed objects by default,
	 * and the mapped pack counts in the resident size.  On the
	 * 1,000,000-commit bench (a 900 MB pack), 512 MiB of maps in 32 MiB
	 * windows and a 128 MiB cache take a warm run from 1,106 MB to
	 * 825 MB for 6% more time; a 64 MiB cache doubles the time.  A
	 * repository whose packs fit in the limit is mapped whole
	 * (packmaps.h).
	 */
	git_libgit2_opts(GIT_OPT_SET_MWINDOW_SIZE, PACKMAPS_WINDOW);
	git_libgit2_opts(GIT_OPT_SET_MWINDOW_MAPPED_LIMIT, PACKMAPS_LIMIT);
	git_libgit2_opts(GIT_OPT_SET_CACHE_MAX_SIZE, (ssize_t)128 << 20);
	ret = cmd->fn(&ctx, argc - i, argv + i);
	run_context_release(&ctx);
	/* libgit2 1.5 keeps the last error message until it is cleared. */
	git_error_clear();
	git_libgit2_shutdown();
	/* Interrupted: what could be kept is saved; end as the signal. */
	interrupt_raise();
	return ret < 0 ? 1 : ret;
}
