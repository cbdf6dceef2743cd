#ifndef LEDGER_INTERNAL_H
#define LEDGER_INTERNAL_H

#include "store/ledger.h"
#include "base/strbuf.h"

/* What ledger.c and ledger-notes.c (the notes ref) share. */

#define LEDGER_HEADER "# stablepick ledger 1"

/* One decision line read, its fields borrowed for the call. */
typedef void (*ledger_line_fn)(const struct ledger_entry *e, unsigned lineno,
			       void *data);

/*
 * Parses the len bytes of text: with header, its first line must be
 * LEDGER_HEADER (a file; a note has none).  Each decision line goes to
 * fn with its branch turned into its key (ledger_branch_key() of l);
 * in a note, a line without a reason may lack its last tab (git notes
 * add strips it).
 * Reports every bad line as "label:LINE: cause" and then returns -1;
 * *lines is set to the number of lines.
 */
int ledger_parse(struct ledger *l, const char *text, size_t len,
		 const char *label, int header, ledger_line_fn fn, void *data,
		 unsigned *lines);

/* Appends e as a line of the file, newline included. */
void ledger_format_entry(struct strbuf *sb, const struct ledger_entry *e);

/* Reads the file into text; a missing file is empty.  0 or -1. */
int ledger_read_file(struct strbuf *text, const char *path);

#endif
