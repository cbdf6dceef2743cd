#ifndef JSON_H
#define JSON_H

#include <stddef.h>

#include "base/strbuf.h"

/*
 * Appends s (len bytes) to sb as a JSON string, quotes included.  Bytes
 * that are not valid UTF-8 become U+FFFD, so that the output is always
 * valid JSON whatever a commit message holds.
 */
void json_add_string(struct strbuf *sb, const char *s, size_t len);
void json_add_str(struct strbuf *sb, const char *s);	/* NULL -> null */

/*
 * Writing JSON (after git's json-writer.h): objects and arrays nested
 * to any depth, written compact into a strbuf, commas and quoting
 * done here, so that a printer names its keys and values and nothing
 * else.  JSON Lines: one jw_object_begin() ... jw_end() and a newline
 * per record.
 *
 *     struct json_writer jw;
 *     jw_init(&jw, out);
 *     jw_object_begin(&jw);
 *     jw_object_string(&jw, "commit", hex);
 *     jw_object_array(&jw, "facts");
 *     for (...) jw_array_string(&jw, fact);
 *     jw_end(&jw);
 *     jw_end(&jw);
 *     strbuf_addch(out, '\n');
 */
#define JSON_WRITER_MAX_DEPTH 16

struct json_writer {
	struct strbuf *out;
	int depth;
	char first[JSON_WRITER_MAX_DEPTH];	/* nothing written yet */
	char close[JSON_WRITER_MAX_DEPTH];	/* '}' or ']' */
};

void jw_init(struct json_writer *jw, struct strbuf *out);
void jw_object_begin(struct json_writer *jw);
void jw_array_begin(struct json_writer *jw);
void jw_end(struct json_writer *jw);

/* Members of the object being written; a NULL string is null. */
void jw_object_string(struct json_writer *jw, const char *key, const char *s);
void jw_object_int(struct json_writer *jw, const char *key, long long n);
/* d with precision digits after the point. */
void jw_object_double(struct json_writer *jw, const char *key,
		      int precision, double d);
void jw_object_bool(struct json_writer *jw, const char *key, int b);
void jw_object_null(struct json_writer *jw, const char *key);
/* A member whose value is written next: an object, an array, raw text. */
void jw_object_object(struct json_writer *jw, const char *key);
void jw_object_array(struct json_writer *jw, const char *key);
void jw_object_key(struct json_writer *jw, const char *key);
/* A member whose value is an array of the nr strings of v. */
void jw_object_strings(struct json_writer *jw, const char *key,
		       const char *const *v, size_t nr);

/* Elements of the array being written. */
void jw_array_string(struct json_writer *jw, const char *s);
void jw_array_int(struct json_writer *jw, long long n);
void jw_array_object(struct json_writer *jw);
void jw_array_array(struct json_writer *jw);

/*
 * Reading one JSON object, as a line of JSON Lines holds it, into its
 * members: those whose value is a string, a number, true, false or
 * null, and those whose value is an array of strings.  A member whose
 * value is an object, or an array of anything else, is JSON_OTHER: the
 * objects it holds (the object, or those of the array) are read into
 * its objects, to any depth; other values are read over.
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

struct json_object;

struct json_member {
	char *key;
	enum json_type type;
	char *value;			/* a string's or a number's text */
	char **items;			/* an array's strings */
	size_t nr_items, alloc_items;
	/*
	 * JSON_OTHER: the value's object, or the objects of its array
	 * (other elements of that array are read over), in order.
	 */
	struct json_object *objects;
	size_t nr_objects, alloc_objects;
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
