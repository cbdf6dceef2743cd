#ifndef DEPS_INTERNAL_H
#define DEPS_INTERNAL_H

#include <uthash.h>

#include "stages/deps.h"

/*
 * Between deps.c (links, facts, applicability) and deps-subjects.c (the
 * Fixes: targets found by their quoted subject).  Not an API: the rest
 * of stablepick uses deps.h.
 */

/* A subject looked for in mainline, and what was found. */
struct subject_entry {
	char *subject;
	int answered, found;
	git_oid id;			/* when found */
	UT_hash_handle hh;
};

void deps_subjects_release(struct deps *d);

/*
 * The Fixes: targets to look up by subject, answered all at once (one
 * walk of mainline at most): (*wants)[k] says whether the k-th target
 * of the candidates, in order, is one.  0, or -1 after an error message.
 */
int deps_find_subjects(struct deps *d, unsigned char **wants);

/* What the lookup by subject found for t: its id, with a warning. */
void deps_resolve_by_subject(struct deps *d, struct candidate *c,
			     struct fixes_target *t);

#endif
