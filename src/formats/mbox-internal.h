#ifndef MBOX_INTERNAL_H
#define MBOX_INTERNAL_H

#include <string.h>

#include "base/ascii.h"
#include "formats/mbox.h"
#include "base/util.h"

/*
 * Between mbox.c (the file: From_ lines, messages, subjects, dates) and
 * mbox-mime.c (one message's headers and text): the lines both read,
 * and the one call from the first into the second.  Not an API: the
 * rest of stablepick reads mails through mbox.h.
 */

struct span {
	const char *p;
	size_t len;
};

static inline int span_is_blank(struct span s)
{
	size_t i;

	for (i = 0; i < s.len; i++)
		if (!is_blank((unsigned char)s.p[i]))
			return 0;
	return 1;
}

/* Non-zero if p[0..len) equals word, compared without case. */
static inline int span_eq_ci(const char *p, size_t len, const char *word)
{
	return strlen(word) == len && !ascii_strncasecmp(p, word, len);
}

/*
 * The line at *pos of buf[0..len), without its "\n", in *line; moves
 * *pos past it.  Returns 0 at the end.
 */
static inline int next_line(const char *buf, size_t len, size_t *pos,
			    struct span *line)
{
	const char *nl;

	if (*pos >= len)
		return 0;
	line->p = buf + *pos;
	nl = memchr(line->p, '\n', len - *pos);
	line->len = nl ? (size_t)(nl - line->p) : len - *pos;
	*pos += line->len + (nl ? 1 : 0);
	return 1;
}

static inline size_t count_lines(const char *p, size_t len)
{
	size_t n = 0;
	const char *nl;

	while (len && (nl = memchr(p, '\n', len))) {
		n++;
		len -= (size_t)(nl - p) + 1;
		p = nl + 1;
	}
	return n;
}

/* The length of the field name of "Name: value", or 0. */
static inline size_t header_name_len(struct span line)
{
	size_t i;

	for (i = 0; i < line.len; i++) {
		unsigned char c = (unsigned char)line.p[i];

		if (c == ':')
			return i;
		if (c <= ' ' || c > '~')
			return 0;
	}
	return 0;
}

/*
 * Reads the headers and the text of one message, raw[0..len) starting
 * on line lineno of the file, into m: its ids, subject, from, date and
 * body (decoded from MIME), and the first problem met.  The subject's
 * tags and the diff are mbox.c's.
 */
void mbox_parse_mail(struct mbox_msg *m, const char *raw, size_t len,
		     size_t lineno);

#endif
