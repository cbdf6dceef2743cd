#ifndef MESSAGE_INTERNAL_H
#define MESSAGE_INTERNAL_H

/*
 * What the files of the message parser share, and nothing else
 * includes: message.c (lines, trailers, reverts, the API),
 * message-tags.c (the Fixes: and Cc: stable tags read from the
 * trailers) and message-backports.c (the upstream ids, by the rules'
 * backport lines).  The API is message.h.
 */

#include "base/ascii.h"
#include "formats/message.h"
#include "base/util.h"

#include <string.h>

/* Length of a full object id in hex. */
#define FULL_HEX 40

/* --- text (static inline: both files use them) ------------------------ */

static inline int is_ws(int c)
{
	return c == ' ' || c == '\t' || c == '\f' || c == '\v';
}

static inline int to_lower(int c)
{
	return (c >= 'A' && c <= 'Z') ? c - 'A' + 'a' : c;
}

static inline const char *skip_ws(const char *p)
{
	while (is_ws((unsigned char)*p))
		p++;
	return p;
}

static inline size_t hex_run(const char *p, size_t len)
{
	size_t n = 0;

	while (n < len && is_hexdigit((unsigned char)p[n]))
		n++;
	return n;
}

static inline char *lower_dup(const char *p, size_t len)
{
	char *s = xstrndup(p, len);
	char *q;

	for (q = s; *q; q++)
		*q = (char)to_lower((unsigned char)*q);
	return s;
}

/* A copy of p[0..len) without whitespace at either end, or NULL if empty. */
static inline char *trimmed_dup(const char *p, size_t len)
{
	while (len && is_ws((unsigned char)*p)) {
		p++;
		len--;
	}
	while (len && is_ws((unsigned char)p[len - 1]))
		len--;
	return len ? xstrndup(p, len) : NULL;
}

/* Non-zero if the span starts with `word`, compared without case. */
static inline int starts_with_ci(const char *p, size_t len, const char *word)
{
	size_t n = strlen(word);

	return len >= n && !ascii_strncasecmp(p, word, n);
}

/* The first occurrence of `needle` (lower case) in p[0..len), or NULL. */
static inline const char *find_ci(const char *p, size_t len, const char *needle)
{
	size_t n = strlen(needle), i;

	if (n > len)
		return NULL;
	for (i = 0; i + n <= len; i++)
		if (to_lower((unsigned char)p[i]) == needle[0] &&
		    !ascii_strncasecmp(p + i, needle, n))
			return p + i;
	return NULL;
}

/* --- the message (message.c) ------------------------------------------ */

/* Adds a diagnostic for line lineno to m->diags. */
void add_diag(struct message *m, unsigned lineno, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* --- the backport lines (message-backports.c) ------------------------ */

struct ruleset;
/*
 * text without the lines on which a backport line of rs (of the field
 * body or message) finds an id: the paragraphs a revert's reason is
 * taken from.  A new string.
 */
char *message_text_without_backports(const char *text,
				     const struct ruleset *rs);

/* --- the tags (message-tags.c) ---------------------------------------- */

/* A Fixes: trailer t, into m->fixes, or a diagnostic. */
void parse_fixes(struct message *m, const struct trailer *t);

/*
 * Non-zero if key (n bytes) is one edit away from "Fixes": "ixes",
 * "Fixed", "Fixess".  Such a trailer is reported, not read as Fixes:.
 */
int misspelt_fixes(const char *key, size_t n);

/* A Cc: trailer t: a stable address, into m->stable, with its comment. */
void parse_cc(struct message *m, const struct trailer *t);

#endif
