#ifndef RULES_PARSE_H
#define RULES_PARSE_H

#include "formats/rules-internal.h"

/*
 * Between rules-parse.c (the parser: its tables, the directives outside
 * a block, rules, links and backport lines) and rules-parse-block.c
 * (the directives of a subsystem block: paths, policy, soak, list,
 * maintainer).  Not for other modules.
 */

/* The parser's state for one file: tig-style, it reports and goes on. */
struct parser {
	struct ruleset *rs;
	const char *path;		/* borrowed from rs->files */
	struct rule_file *file;		/* valid until rs->files grows */
	unsigned lineno;
	int errors;
	/*
	 * The open block: a subsystem of rs->subsystems, or `scratch`
	 * when the block's header was bad, so that its lines are still
	 * checked and then dropped.
	 */
	struct subsystem *cur;
	struct subsystem scratch;
	unsigned paths_line, policy_line, block_threshold_line;
	unsigned version_line, threshold_line, release_tags_line;
	int cc_seen;			/* this file set the Cc: */
	unsigned standalone_line;
	int generic_only;		/* see rules_parse_buffer() */
};

/* An error at line lineno of the file; the parser goes on. */
__attribute__((format(printf, 3, 4)))
void report_at(struct parser *p, unsigned lineno, const char *fmt, ...);
#define report(p, ...) report_at((p), (p)->lineno, __VA_ARGS__)

/* Cuts the next word out of *pp (NUL-terminating it); NULL at the end. */
char *next_word(char **pp);

/* The directives of a block; p->cur is the open subsystem. */
void block_paths(struct parser *p, char *s);
void block_policy(struct parser *p, char *s);
void block_soak(struct parser *p, char *s);
void block_list(struct parser *p, char *s);
void block_maintainer(struct parser *p, char *s);

#endif
