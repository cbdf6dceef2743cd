#include "base/json.h"
#include "base/error.h"
#include "base/util.h"

#include <string.h>

void json_add_string(struct strbuf *sb, const char *str, size_t len)
{
	const unsigned char *s = (const unsigned char *)str;
	size_t i = 0;

	strbuf_addch(sb, '"');
	while (i < len) {
		unsigned char ch = s[i];
		size_t n;

		/* A run of printable ASCII goes as it is, in one piece. */
		for (n = i; n < len && s[n] >= 0x20 && s[n] < 0x7f &&
			    s[n] != '"' && s[n] != '\\'; n++)
			;
		if (n > i) {
			strbuf_add(sb, s + i, n - i);
			i = n;
			continue;
		}
		switch (ch) {
		case '"': strbuf_addstr(sb, "\\\""); i++; continue;
		case '\\': strbuf_addstr(sb, "\\\\"); i++; continue;
		case '\n': strbuf_addstr(sb, "\\n"); i++; continue;
		case '\r': strbuf_addstr(sb, "\\r"); i++; continue;
		case '\t': strbuf_addstr(sb, "\\t"); i++; continue;
		}
		if (ch < 0x20 || ch == 0x7f) {
			strbuf_addf(sb, "\\u%04x", ch);
			i++;
			continue;
		}
		n = utf8_seq_len(s + i, len - i);
		if (!n) {
			strbuf_addstr(sb, "\\ufffd");
			i++;
			continue;
		}
		strbuf_add(sb, s + i, n);
		i += n;
	}
	strbuf_addch(sb, '"');
}

void json_add_str(struct strbuf *sb, const char *s)
{
	if (!s)
		strbuf_addstr(sb, "null");
	else
		json_add_string(sb, s, strlen(s));
}

void jw_init(struct json_writer *jw, struct strbuf *out)
{
	memset(jw, 0, sizeof(*jw));
	jw->out = out;
}

/* The comma before a member or an element, but the first. */
static void jw_next(struct json_writer *jw)
{
	if (!jw->depth)
		return;
	if (!jw->first[jw->depth - 1])
		strbuf_addch(jw->out, ',');
	jw->first[jw->depth - 1] = 0;
}

static void jw_open(struct json_writer *jw, char open, char close)
{
	if (jw->depth >= JSON_WRITER_MAX_DEPTH)
		BUG("JSON nested deeper than %d", JSON_WRITER_MAX_DEPTH);
	strbuf_addch(jw->out, open);
	jw->first[jw->depth] = 1;
	jw->close[jw->depth] = close;
	jw->depth++;
}

void jw_object_begin(struct json_writer *jw)
{
	jw_next(jw);
	jw_open(jw, '{', '}');
}

void jw_array_begin(struct json_writer *jw)
{
	jw_next(jw);
	jw_open(jw, '[', ']');
}

void jw_end(struct json_writer *jw)
{
	if (!jw->depth)
		BUG("jw_end() with nothing open");
	jw->depth--;
	strbuf_addch(jw->out, jw->close[jw->depth]);
}

void jw_object_key(struct json_writer *jw, const char *key)
{
	jw_next(jw);
	json_add_str(jw->out, key);
	strbuf_addch(jw->out, ':');
}

void jw_object_string(struct json_writer *jw, const char *key, const char *s)
{
	jw_object_key(jw, key);
	json_add_str(jw->out, s);
}

void jw_object_int(struct json_writer *jw, const char *key, long long n)
{
	jw_object_key(jw, key);
	strbuf_addf(jw->out, "%lld", n);
}

void jw_object_double(struct json_writer *jw, const char *key,
		      int precision, double d)
{
	jw_object_key(jw, key);
	strbuf_addf(jw->out, "%.*f", precision, d);
}

void jw_object_bool(struct json_writer *jw, const char *key, int b)
{
	jw_object_key(jw, key);
	strbuf_addstr(jw->out, b ? "true" : "false");
}

void jw_object_null(struct json_writer *jw, const char *key)
{
	jw_object_key(jw, key);
	strbuf_addstr(jw->out, "null");
}

void jw_object_object(struct json_writer *jw, const char *key)
{
	jw_object_key(jw, key);
	jw_open(jw, '{', '}');
}

void jw_object_array(struct json_writer *jw, const char *key)
{
	jw_object_key(jw, key);
	jw_open(jw, '[', ']');
}

void jw_object_strings(struct json_writer *jw, const char *key,
		       const char *const *v, size_t nr)
{
	size_t i;

	jw_object_array(jw, key);
	for (i = 0; i < nr; i++)
		jw_array_string(jw, v[i]);
	jw_end(jw);
}

void jw_array_string(struct json_writer *jw, const char *s)
{
	jw_next(jw);
	json_add_str(jw->out, s);
}

void jw_array_int(struct json_writer *jw, long long n)
{
	jw_next(jw);
	strbuf_addf(jw->out, "%lld", n);
}

void jw_array_object(struct json_writer *jw)
{
	jw_object_begin(jw);
}

void jw_array_array(struct json_writer *jw)
{
	jw_array_begin(jw);
}

void json_object_init(struct json_object *o)
{
	memset(o, 0, sizeof(*o));
}

void json_object_release(struct json_object *o)
{
	size_t i, j;

	for (i = 0; i < o->nr; i++) {
		free(o->members[i].key);
		free(o->members[i].value);
		for (j = 0; j < o->members[i].nr_items; j++)
			free(o->members[i].items[j]);
		free(o->members[i].items);
		for (j = 0; j < o->members[i].nr_objects; j++)
			json_object_release(&o->members[i].objects[j]);
		free(o->members[i].objects);
	}
	free(o->members);
	json_object_init(o);
}

const struct json_member *json_object_get(const struct json_object *o,
					  const char *key)
{
	size_t i;

	for (i = o->nr; i-- > 0;)
		if (!strcmp(o->members[i].key, key))
			return &o->members[i];
	return NULL;
}

/* The reader: the text, where it is, and the first error met. */
struct reader {
	const char *p, *end, *start;
	const char *why;
	size_t at;
	int depth;
};

#define JSON_MAX_DEPTH 64

static int fail(struct reader *r, const char *why)
{
	if (!r->why) {
		r->why = why;
		r->at = (size_t)(r->p - r->start);
	}
	return -1;
}

static void blanks(struct reader *r)
{
	while (r->p < r->end && (*r->p == ' ' || *r->p == '\t' ||
				 *r->p == '\n' || *r->p == '\r'))
		r->p++;
}

static int hex4(struct reader *r, unsigned *out)
{
	unsigned v = 0;
	int i;

	if (r->end - r->p < 4)
		return fail(r, "short \\u escape");
	for (i = 0; i < 4; i++) {
		char c = r->p[i];

		v <<= 4;
		if (c >= '0' && c <= '9')
			v |= (unsigned)(c - '0');
		else if (c >= 'a' && c <= 'f')
			v |= (unsigned)(c - 'a' + 10);
		else if (c >= 'A' && c <= 'F')
			v |= (unsigned)(c - 'A' + 10);
		else
			return fail(r, "bad \\u escape");
	}
	r->p += 4;
	*out = v;
	return 0;
}

/* A string, the opening quote at r->p, into sb (NULL: read over it). */
static int string(struct reader *r, struct strbuf *sb)
{
	r->p++;
	while (r->p < r->end && *r->p != '"') {
		unsigned char c = (unsigned char)*r->p;
		unsigned cp, lo;

		if (c < 0x20)
			return fail(r, "control character in a string");
		if (c != '\\') {
			if (sb)
				strbuf_addch(sb, (char)c);
			r->p++;
			continue;
		}
		if (++r->p >= r->end)
			return fail(r, "unterminated string");
		switch (*r->p++) {
		case '"': cp = '"'; break;
		case '\\': cp = '\\'; break;
		case '/': cp = '/'; break;
		case 'b': cp = '\b'; break;
		case 'f': cp = '\f'; break;
		case 'n': cp = '\n'; break;
		case 'r': cp = '\r'; break;
		case 't': cp = '\t'; break;
		case 'u':
			if (hex4(r, &cp) < 0)
				return -1;
			if (cp >= 0xd800 && cp < 0xdc00 && r->end - r->p >= 6 &&
			    r->p[0] == '\\' && r->p[1] == 'u') {
				r->p += 2;
				if (hex4(r, &lo) < 0)
					return -1;
				if (lo >= 0xdc00 && lo < 0xe000) {
					cp = 0x10000 + ((cp - 0xd800) << 10) +
					     (lo - 0xdc00);
				} else {
					/* A lone high surrogate, then lo. */
					if (sb)
						strbuf_add_utf8(sb, 0xfffd);
					cp = lo >= 0xd800 && lo < 0xe000 ?
					     0xfffd : lo;
				}
			} else if (cp >= 0xd800 && cp < 0xe000) {
				cp = 0xfffd;
			}
			break;
		default:
			r->p--;
			return fail(r, "bad escape in a string");
		}
		if (sb)
			strbuf_add_utf8(sb, cp);
	}
	if (r->p >= r->end)
		return fail(r, "unterminated string");
	r->p++;
	return 0;
}

static int literal(struct reader *r, const char *word)
{
	size_t n = strlen(word);

	if ((size_t)(r->end - r->p) < n || memcmp(r->p, word, n))
		return fail(r, "unexpected text");
	r->p += n;
	return 0;
}

static int number(struct reader *r, struct strbuf *sb)
{
	const char *s = r->p;

	if (r->p < r->end && *r->p == '-')
		r->p++;
	if (r->p >= r->end || *r->p < '0' || *r->p > '9')
		return fail(r, "bad number");
	while (r->p < r->end && ((*r->p >= '0' && *r->p <= '9') || *r->p == '.' ||
				 *r->p == 'e' || *r->p == 'E' || *r->p == '+' ||
				 *r->p == '-'))
		r->p++;
	if (sb)
		strbuf_add(sb, s, (size_t)(r->p - s));
	return 0;
}

static int value(struct reader *r, struct json_member *m);
static int object(struct reader *r, struct json_object *o);

/* A new object of m's objects, to read into. */
static struct json_object *new_object(struct json_member *m)
{
	struct json_object *o;

	ALLOC_GROW(m->objects, m->nr_objects, m->alloc_objects);
	o = &m->objects[m->nr_objects++];
	json_object_init(o);
	return o;
}

/*
 * An array: of strings into m (when not NULL and it holds only those);
 * the objects of any other array into m's objects.
 */
static int array(struct reader *r, struct json_member *m)
{
	int strings = 1;

	r->p++;
	blanks(r);
	if (r->p < r->end && *r->p == ']') {
		r->p++;
		return 0;
	}
	for (;;) {
		blanks(r);
		if (r->p < r->end && *r->p == '"' && m && strings) {
			struct strbuf sb = STRBUF_INIT;

			if (string(r, &sb) < 0) {
				strbuf_release(&sb);
				return -1;
			}
			ALLOC_GROW(m->items, m->nr_items, m->alloc_items);
			m->items[m->nr_items++] = strbuf_detach(&sb, NULL);
		} else if (r->p < r->end && *r->p == '{' && m) {
			int ret;

			strings = 0;
			if (++r->depth > JSON_MAX_DEPTH)
				return fail(r, "too deeply nested");
			ret = object(r, new_object(m));
			r->depth--;
			if (ret < 0)
				return -1;
		} else {
			strings = 0;
			if (value(r, NULL) < 0)
				return -1;
		}
		blanks(r);
		if (r->p < r->end && *r->p == ',') {
			r->p++;
			continue;
		}
		if (r->p < r->end && *r->p == ']') {
			r->p++;
			break;
		}
		return fail(r, "expected ',' or ']' in an array");
	}
	if (m && !strings) {
		size_t i;

		for (i = 0; i < m->nr_items; i++)
			free(m->items[i]);
		m->nr_items = 0;
		m->type = JSON_OTHER;
	}
	return 0;
}

/* A value into m, or read over when m is NULL. */
static int value(struct reader *r, struct json_member *m)
{
	struct strbuf sb = STRBUF_INIT;
	int ret;

	blanks(r);
	if (r->p >= r->end || *r->p == '}' || *r->p == ']' || *r->p == ',')
		return fail(r, "missing value");
	if (++r->depth > JSON_MAX_DEPTH)
		return fail(r, "too deeply nested");
	switch (*r->p) {
	case '"':
		ret = string(r, m ? &sb : NULL);
		if (m) {
			m->type = JSON_STRING;
			m->value = strbuf_detach(&sb, NULL);
		}
		break;
	case '{':
		ret = object(r, m ? new_object(m) : NULL);
		if (m)
			m->type = JSON_OTHER;
		break;
	case '[':
		if (m)
			m->type = JSON_ARRAY;
		ret = array(r, m);
		break;
	case 't':
		ret = literal(r, "true");
		if (m)
			m->type = JSON_TRUE;
		break;
	case 'f':
		ret = literal(r, "false");
		if (m)
			m->type = JSON_FALSE;
		break;
	case 'n':
		ret = literal(r, "null");
		if (m)
			m->type = JSON_NULL;
		break;
	default:
		ret = number(r, m ? &sb : NULL);
		if (m) {
			m->type = JSON_NUMBER;
			m->value = strbuf_detach(&sb, NULL);
		}
	}
	strbuf_release(&sb);
	r->depth--;
	return ret;
}

/* An object: its members into o, or read over when o is NULL. */
static int object(struct reader *r, struct json_object *o)
{
	r->p++;
	blanks(r);
	if (r->p < r->end && *r->p == '}') {
		r->p++;
		return 0;
	}
	for (;;) {
		struct strbuf key = STRBUF_INIT;
		struct json_member *m = NULL;

		blanks(r);
		if (r->p >= r->end || *r->p != '"') {
			strbuf_release(&key);
			return fail(r, "expected a member name");
		}
		if (string(r, &key) < 0) {
			strbuf_release(&key);
			return -1;
		}
		blanks(r);
		if (r->p >= r->end || *r->p != ':') {
			strbuf_release(&key);
			return fail(r, "expected ':'");
		}
		r->p++;
		if (o) {
			ALLOC_GROW(o->members, o->nr, o->alloc);
			m = &o->members[o->nr++];
			memset(m, 0, sizeof(*m));
			m->key = strbuf_detach(&key, NULL);
		}
		strbuf_release(&key);
		if (value(r, m) < 0)
			return -1;
		blanks(r);
		if (r->p < r->end && *r->p == ',') {
			r->p++;
			continue;
		}
		if (r->p < r->end && *r->p == '}') {
			r->p++;
			return 0;
		}
		return fail(r, "expected ',' or '}' in an object");
	}
}

int json_object_parse(struct json_object *o, const char *text, size_t len,
		      const char **why, size_t *at)
{
	struct reader r = { text, text + len, text, NULL, 0, 0 };

	blanks(&r);
	if (r.p >= r.end || *r.p != '{')
		fail(&r, "not a JSON object");
	else if (!object(&r, o)) {
		blanks(&r);
		if (r.p < r.end)
			fail(&r, "text after the object");
	}
	if (!r.why)
		return 0;
	*why = r.why;
	*at = r.at;
	return -1;
}
