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

/*
 * Reading one JSON object, as a line of JSON Lines holds it, into its
 * members: those whose value is a string, a number, true, false or
 * null, and those whose value is an array of strings.  Nested objects
 * and other arrays are read over: their members are JSON_OTHER, with no
 * value.
 *
 *     struct json_object o;
 *     json_object_init(&o);
 *     if (json_object_parse(&o, line, len, &why) < 0)
 *             ... "why" says what is wrong, and at which byte ...
 *     s = json_object_get(&o, "subject");
 *     json_object_release(&o);
 */
enum json_type { JSON_STRING, JSON_NUMBER, JSON_TRUE, JSON_FALSE, JSON_NULL,
		 JSON_ARRAY,	/* of strings only */
		 JSON_OTHER };	/* an object, or an array of other values */

struct json_member {
	char *key;
	enum json_type type;
	char *value;			/* a string's or a number's text */
	char **items;			/* an array's strings */
	size_t nr_items, alloc_items;
};

struct json_object {
	struct json_member *members;
	size_t nr, alloc;
};

void json_object_init(struct json_object *o);
void json_object_release(struct json_object *o);

/*
 * Parses text (len bytes) as one object and nothing else but blanks.
 * Strings are decoded (escapes, \uXXXX and surrogate pairs to UTF-8);
 * a string holding a NUL byte is cut there.  Returns 0, or -1 with *why
 * set to a message (static storage) and *at to the offset of the error.
 */
int json_object_parse(struct json_object *o, const char *text, size_t len,
		      const char **why, size_t *at);

/* The member key, or NULL (the last one, when a key repeats). */
const struct json_member *json_object_get(const struct json_object *o,
					  const char *key);

#endif
