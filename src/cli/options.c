/*
 * The options of a command as data: parsing argv against them (through
 * getopt_long()).  Their -h listing is options-help.c's.  See options.h.
 */
#include "cli/cli.h"
#include "cli/options-internal.h"
#include "base/error.h"
#include "base/strbuf.h"
#include "base/util.h"

#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

void cli_list_release(struct cli_list *l)
{
	free(l->v);
	l->v = NULL;
	l->nr = l->alloc = 0;
}

void cli_args_release(struct cli_args *a)
{
	cli_list_release(&a->archives);
}

/* The value of a CHOICE option: its index, or -1 after an error. */
static int parse_choice(const struct cli_option *o, const char *arg)
{
	struct strbuf list = STRBUF_INIT;
	size_t nr, i;

	for (nr = 0; o->choices[nr]; nr++)
		if (!strcmp(arg, o->choices[nr]))
			return (int)nr;
	for (i = 0; i < nr; i++)
		strbuf_addf(&list, "%s%s", o->choices[i],
			    i + 2 < nr ? ", " : i + 1 < nr ? " or " : "");
	error("unknown %s '%s' (expected %s)", o->long_name, arg, list.buf);
	strbuf_release(&list);
	return -1;
}

static int set_value(const struct cli_option *o, const char *arg)
{
	struct cli_list *l;
	char *end;
	long n;
	int i;

	switch (o->type) {
	case CLI_OPT_END:
		break;
	case CLI_OPT_BOOL:
		*(int *)o->value = 1;
		break;
	case CLI_OPT_BIT:
		*(int *)o->value |= o->defval;
		break;
	case CLI_OPT_STRING:
		*(const char **)o->value = arg;
		break;
	case CLI_OPT_LIST:
		l = o->value;
		ALLOC_GROW(l->v, l->nr, l->alloc);
		l->v[l->nr++] = arg;
		break;
	case CLI_OPT_CHOICE:
		if ((i = parse_choice(o, arg)) < 0)
			return -1;
		*(int *)o->value = i;
		break;
	case CLI_OPT_INT:
		errno = 0;
		n = strtol(arg, &end, 10);
		if (errno || end == arg || *end || n < 1 || n > o->defval)
			return error("--%s takes a number from 1 to %d, not '%s'",
				     o->long_name, o->defval, arg);
		*(int *)o->value = (int)n;
		break;
	}
	return 0;
}

static void release_lists(const struct cli_option *opts)
{
	size_t i;

	for (i = 0; opts[i].type != CLI_OPT_END; i++)
		if (opts[i].type == CLI_OPT_LIST)
			cli_list_release(opts[i].value);
}

static int cmp_longopt(const void *a, const void *b)
{
	return strcmp(((const struct option *)a)->name,
		      ((const struct option *)b)->name);
}

/* An option's getopt value: its short name, else 256 + its index. */
static const struct cli_option *find_option(const struct cli_option *opts,
					    int val)
{
	size_t i;

	for (i = 0; opts[i].type != CLI_OPT_END; i++)
		if (val == 256 + (int)i || (val < 256 && val == opts[i].short_name))
			return &opts[i];
	return NULL;
}

int cli_parse(const struct cli_command *cmd, const struct cli_option *opts,
	      int argc, char **argv, unsigned flags)
{
	struct strbuf shorts = STRBUF_INIT;
	const struct cli_option *o;
	struct option *longopts;
	size_t nr, i;
	int opt, ret = 0;

	for (nr = 0; opts[nr].type != CLI_OPT_END; nr++)
		;
	longopts = xcalloc(nr + 2, sizeof(*longopts));
	strbuf_addstr(&shorts, flags & CLI_PERMUTE ? "h" : "+h");
	for (i = 0; i < nr; i++) {
		longopts[i].name = opts[i].long_name;
		longopts[i].has_arg = cli_option_takes_value(&opts[i]) ?
				      required_argument : no_argument;
		longopts[i].val = 256 + (int)i;
		if (opts[i].short_name)
			strbuf_addf(&shorts, "%c%s", opts[i].short_name,
				    cli_option_takes_value(&opts[i]) ? ":" : "");
	}
	longopts[nr].name = "help";
	longopts[nr].val = 'h';
	/* In name order, as getopt_long() lists an ambiguous prefix's. */
	qsort(longopts, nr + 1, sizeof(*longopts), cmp_longopt);

	optind = 0;
	while (!ret && (opt = cli_getopt(argc, argv, shorts.buf, longopts)) != -1) {
		if (opt == 'h') {
			cli_print_help(cmd, opts);
			ret = CLI_HELP;
		} else if (!(o = find_option(opts, opt))) {
			cli_usage(cmd);
			ret = CLI_ERROR;
		} else if (set_value(o, optarg) < 0) {
			/* The error says what the option takes. */
			ret = CLI_ERROR;
		}
	}
	if (!ret && flags & CLI_NO_ARGS && optind < argc) {
		error("unexpected argument '%s'", argv[optind]);
		cli_usage(cmd);
		ret = CLI_ERROR;
	}
	free(longopts);
	strbuf_release(&shorts);
	if (ret)
		release_lists(opts);
	return ret ? ret : optind;
}

int cli_parse_word_list(const char *list, const char *(*name)(int), int nr,
			const char *what, const char *expected, unsigned *mask)
{
	char *copy = xstrdup(list), *word, *save = NULL;
	int ret = 0, i;

	*mask = 0;
	for (word = strtok_r(copy, ",", &save); word && !ret;
	     word = strtok_r(NULL, ",", &save)) {
		for (i = 0; i < nr && strcmp(word, name(i)); i++)
			;
		if (i == nr)
			ret = error("unknown %s '%s' (expected %s)", what, word,
				    expected);
		else
			*mask |= 1u << i;
	}
	free(copy);
	return ret;
}
