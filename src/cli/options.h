#ifndef CLI_OPTIONS_H
#define CLI_OPTIONS_H

#include <stddef.h>

struct cli_command;

/*
 * The options of a command, declared as data (after git's
 * parse-options.h): a command lists its options in an array ending in
 * OPT_END(), and cli_parse() both parses argv against it and, for -h or
 * --help, prints the command's synopsis and a line of help per option.
 * The options most commands share (--branch, --upstream, --archive,
 * --range, --subsystem, --in-reply-to) are declared once, below, and
 * parse into one struct cli_args.
 */

enum cli_option_type {
	CLI_OPT_END,
	CLI_OPT_BOOL,		/* int *: set to 1 */
	CLI_OPT_BIT,		/* int *: or'ed with defval */
	CLI_OPT_STRING,		/* const char **: the last value given */
	CLI_OPT_LIST,		/* struct cli_list *: every value given */
	CLI_OPT_CHOICE,		/* int *: the index of the value in choices */
	CLI_OPT_INT		/* int *: a number from 1 to defval */
};

struct cli_option {
	enum cli_option_type type;
	int short_name;			/* 0: none */
	const char *long_name;		/* without the "--" */
	void *value;
	const char *argh;		/* the value's name in the help */
	const char *help;
	const char *const *choices;	/* CHOICE: NULL-terminated */
	int defval;
};

/* The values of an option that may be given more than once. */
struct cli_list {
	const char **v;
	size_t nr, alloc;
};

void cli_list_release(struct cli_list *l);

#define OPT_END() { CLI_OPT_END, 0, NULL, NULL, NULL, NULL, NULL, 0 }
#define OPT_BOOL(l, v, h) { CLI_OPT_BOOL, 0, (l), (v), NULL, (h), NULL, 0 }
#define OPT_BIT(l, v, bit, h) \
	{ CLI_OPT_BIT, 0, (l), (v), NULL, (h), NULL, (bit) }
#define OPT_STRING(s, l, v, a, h) \
	{ CLI_OPT_STRING, (s), (l), (v), (a), (h), NULL, 0 }
#define OPT_LIST(l, v, a, h) { CLI_OPT_LIST, 0, (l), (v), (a), (h), NULL, 0 }
#define OPT_CHOICE(l, v, choices, h) \
	{ CLI_OPT_CHOICE, 0, (l), (v), NULL, (h), (choices), 0 }
#define OPT_INT(l, v, a, max, h) \
	{ CLI_OPT_INT, 0, (l), (v), (a), (h), NULL, (max) }

/* The options most commands take; each command says which. */
struct cli_args {
	const char *branch;
	const char *upstream;
	const char *range;
	const char *subsystems;
	const char *in_reply_to;
	struct cli_list archives;
	int format;			/* the index in the command's formats */
};

#define OPT_BRANCH(a, h) OPT_STRING(0, "branch", &(a)->branch, "BRANCH", (h))
#define OPT_UPSTREAM(a) \
	OPT_STRING(0, "upstream", &(a)->upstream, "REF", \
		   "mainline (default: stablepick.upstream, else the first " \
		   "of master, main, origin/master, origin/main)")
#define OPT_ARCHIVE(a) \
	OPT_LIST("archive", &(a)->archives, "PATH", \
		 "a list archive where patches are looked up (public-inbox, " \
		 "maildir or mbox); may be repeated")
#define OPT_RANGE(a, h) OPT_STRING(0, "range", &(a)->range, "A..B", (h))
#define OPT_SUBSYSTEM(a) \
	OPT_STRING(0, "subsystem", &(a)->subsystems, "LIST", \
		   "only these subsystems (comma-separated, in any case)")
#define OPT_IN_REPLY_TO(a, h) \
	OPT_STRING(0, "in-reply-to", &(a)->in_reply_to, "MSGID", (h))
#define OPT_FORMAT(a, formats) \
	OPT_CHOICE("format", &(a)->format, (formats), "the output format")

void cli_args_release(struct cli_args *a);

/*
 * cli_parse() flags: options may follow other arguments (as for mark);
 * the command takes no arguments but options ("unexpected argument").
 */
#define CLI_PERMUTE 1
#define CLI_NO_ARGS 2

/* What cli_parse() returns besides an index. */
#define CLI_ERROR (-1)
#define CLI_HELP (-2)

/*
 * Parses the options of argv (argv[0] the command's name) against
 * opts.  Returns the index of the first argument that is not an option
 * (options stop there unless CLI_PERMUTE, which moves the others to the
 * end as getopt_long() does); CLI_HELP after -h or --help printed the
 * synopsis of cmd and a line per option to standard output; CLI_ERROR
 * after an error on standard error (the command exits 129): an unknown
 * option is followed by the synopsis, a bad value's error says what
 * the option takes.  On either, the lists opts filled are released.
 * An unknown option gets a "did you mean", a bad value of a CHOICE or
 * INT option an error naming what it takes.
 */
int cli_parse(const struct cli_command *cmd, const struct cli_option *opts,
	      int argc, char **argv, unsigned flags);

/*
 * A comma-separated list of the names name(0) .. name(nr - 1) (--status,
 * --class) as a bit per name in *mask.  0, or -1 after "error: unknown
 * WHAT 'WORD' (expected EXPECTED)".
 */
int cli_parse_word_list(const char *list, const char *(*name)(int), int nr,
			const char *what, const char *expected, unsigned *mask);

/* Exit status for what cli_parse() returned when it is not an index. */
static inline int cli_parse_status(int parsed)
{
	return parsed == CLI_HELP ? 0 : 129;
}

#endif
