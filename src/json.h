#ifndef JSON_H
#define JSON_H

#include <stddef.h>

#include "strbuf.h"

/*
 * Appends s (len bytes) to sb as a JSON string, quotes included.  Bytes
 * that are not valid UTF-8 become U+FFFD, so that the output is always
 * valid JSON whatever a commit message holds.
 */
void json_add_string(struct strbuf *sb, const char *s, size_t len);
void json_add_str(struct strbuf *sb, const char *s);	/* NULL -> null */

#endif
