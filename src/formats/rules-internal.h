#ifndef RULES_INTERNAL_H
#define RULES_INTERNAL_H

#include "formats/rules.h"

/*
 * Between rules.c (the ruleset: its names, lifetime, matching, files
 * and directories, derived subsystems) and rules-parse.c (the parser
 * of one rule file): what the parser uses of the ruleset's own
 * functions.  Not an API: the rest of stablepick uses rules.h.
 */

/*
 * ruleset_load_buffer(), with generic_only: the subsystem blocks and
 * cc lines of the text are checked and left out (the base of a
 * standalone directory, see ruleset_load_dirs()).
 */
int rules_parse_buffer(struct ruleset *rs, const char *name,
		       const char *text, size_t len, int generic_only);

/* Frees what a rule or a subsystem owns and zeroes it. */
void rule_release(struct rule *r);
void subsystem_release(struct subsystem *s);

/* A new, empty subsystem at the end of rs->subsystems. */
struct subsystem *ruleset_new_subsystem(struct ruleset *rs);

/* The number of a named group of re, or 0 when it has none. */
int rules_named_group(const pcre2_code *re, const char *name);

/* Appends a copy of s to the array *arr of *nr strings. */
void rules_add_string(char ***arr, size_t *nr, size_t *alloc, const char *s);

#endif
