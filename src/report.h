#ifndef REPORT_H
#define REPORT_H

#include <stdio.h>

#include "branch.h"
#include "strbuf.h"
#include "candidate.h"
#include "rules.h"
#include "scan.h"

/*
 * Rendering: the only code that writes output.  Each format is one
 * function that reads the finished candidates and appends to a strbuf;
 * report_write() puts the result on a stream and checks for errors.
 */

struct report {
	const struct scan *scan;
	const struct branch_index *branch;
	const struct ruleset *rules;
	const char *upstream;		/* the upstream ref as given */
	int all;			/* text: show present and below-threshold */
};

void report_text(struct strbuf *out, const struct report *r,
		 const struct candidate_list *l);
void report_json(struct strbuf *out, const struct report *r,
		 const struct candidate_list *l);
/* The rule-by-rule breakdown of one candidate. */
void report_explain(struct strbuf *out, const struct report *r,
		    const struct candidate *c);

/* Writes out to f; returns 0 or -1 after an error message. */
int report_write(FILE *f, const struct strbuf *out);

#endif
