/*
 * The XML pull reader: see xml.h.  One pass over the text, the tags
 * read in place; only the values of attributes are copied, to decode
 * their entities.
 */
#include "base/xml.h"
#include "base/ascii.h"
#include "base/error.h"

#include <string.h>

void xml_init(struct xml *x, const char *path, const char *buf, size_t len)
{
	memset(x, 0, sizeof(*x));
	x->buf = x->p = x->counted = buf;
	x->end = buf + len;
	x->line = 1;
	x->path = path;
}

static void clear_attrs(struct xml *x)
{
	size_t i;

	for (i = 0; i < x->nr_attrs; i++)
		strbuf_release(&x->attrs[i].value);
	x->nr_attrs = 0;
}

void xml_release(struct xml *x)
{
	clear_attrs(x);
}

/* The newlines of [from, to). */
static unsigned newlines(const char *from, const char *to)
{
	unsigned n = 0;

	while (from < to && (from = memchr(from, '\n', (size_t)(to - from)))) {
		n++;
		from++;
	}
	return n;
}

/*
 * The lines are counted from where the tag before this one ended
 * (xml_next() moves that mark on), not from the start of the text: a
 * reader that asks for the line of every tag reads each byte at most
 * twice, and a report of 100,000 test cases reads in one pass.
 */
unsigned xml_line(const struct xml *x)
{
	return x->line + newlines(x->counted, x->p);
}

int xml_error(const struct xml *x, const char *why)
{
	return error("%s:%u: %s", x->path, xml_line(x), why);
}

/* Skips past the first "end" from x->p; -1 when there is none. */
static int skip_to(struct xml *x, const char *end)
{
	size_t n = strlen(end);
	const char *q = x->p;

	for (; (size_t)(x->end - q) >= n; q++)
		if (!memcmp(q, end, n)) {
			x->p = q + n;
			return 0;
		}
	return -1;
}

static int is_name_char(int c)
{
	return is_alnum(c) || c == '_' || c == ':' || c == '-' || c == '.' ||
	       c >= 0x80;
}

static void skip_space(struct xml *x)
{
	while (x->p < x->end && (is_blank((unsigned char)*x->p) ||
				 *x->p == '\n' || *x->p == '\r'))
		x->p++;
}

/* An entity reference at s (after the '&') into sb: its length, or 0. */
static size_t entity(const char *s, const char *end, struct strbuf *sb)
{
	static const struct { const char *name; char c; } named[] = {
		{ "amp;", '&' }, { "lt;", '<' }, { "gt;", '>' },
		{ "quot;", '"' }, { "apos;", '\'' },
	};
	unsigned long cp = 0;
	const char *q = s;
	size_t i;

	for (i = 0; i < sizeof(named) / sizeof(named[0]); i++) {
		size_t n = strlen(named[i].name);

		if ((size_t)(end - s) >= n && !memcmp(s, named[i].name, n)) {
			strbuf_addch(sb, named[i].c);
			return n;
		}
	}
	if (q >= end || *q != '#')
		return 0;
	q++;
	if (q < end && (*q == 'x' || *q == 'X')) {
		for (q++; q < end && is_hexdigit((unsigned char)*q) &&
		     cp <= 0x10ffff; q++)
			cp = cp * 16 + (unsigned long)(is_digit((unsigned char)*q) ?
				*q - '0' : (*q | 0x20) - 'a' + 10);
	} else {
		for (; q < end && is_digit((unsigned char)*q) && cp <= 0x10ffff; q++)
			cp = cp * 10 + (unsigned long)(*q - '0');
	}
	if (q >= end || *q != ';' || q == s + 1 || !cp || cp > 0x10ffff ||
	    (cp >= 0xd800 && cp < 0xe000))
		return 0;
	strbuf_add_utf8(sb, (unsigned)cp);
	return (size_t)(q - s) + 1;
}

/*
 * Reads over comments, CDATA sections and declarations up to the next
 * tag's '<': 1 there, 0 at the end of the text, -1 after an error.
 */
static int skip_to_tag(struct xml *x)
{
	for (;;) {
		const char *lt = memchr(x->p, '<', (size_t)(x->end - x->p));

		if (!lt) {
			x->p = x->end;
			return 0;
		}
		x->p = lt;
		if (x->end - x->p >= 4 && !memcmp(x->p, "<!--", 4)) {
			if (skip_to(x, "-->") < 0)
				return xml_error(x, "comment is not closed");
		} else if (x->end - x->p >= 9 && !memcmp(x->p, "<![CDATA[", 9)) {
			if (skip_to(x, "]]>") < 0)
				return xml_error(x, "CDATA section is not closed");
		} else if (x->end - x->p >= 2 && x->p[1] == '?') {
			if (skip_to(x, "?>") < 0)
				return xml_error(x, "declaration is not closed");
		} else if (x->end - x->p >= 2 && x->p[1] == '!') {
			/* <!DOCTYPE ...>, an internal subset in brackets. */
			int depth = 0;

			for (x->p += 2; x->p < x->end; x->p++) {
				if (*x->p == '[')
					depth++;
				else if (*x->p == ']')
					depth--;
				else if (*x->p == '>' && depth <= 0)
					break;
			}
			if (x->p >= x->end)
				return xml_error(x, "declaration is not closed");
			x->p++;
		} else {
			return 1;
		}
	}
}

/* One attribute, name="value", at x->p into a: 0, or -1 after an error. */
static int read_attr(struct xml *x, struct xml_attr *a)
{
	char quote;

	strbuf_init(&a->value, 0);
	a->name = x->p;
	while (x->p < x->end && is_name_char((unsigned char)*x->p))
		x->p++;
	a->name_len = (size_t)(x->p - a->name);
	skip_space(x);
	if (x->p >= x->end || *x->p != '=')
		return xml_error(x, "attribute without a value");
	x->p++;
	skip_space(x);
	if (x->p >= x->end || (*x->p != '"' && *x->p != '\''))
		return xml_error(x, "attribute value is not quoted");
	quote = *x->p++;
	while (x->p < x->end && *x->p != quote) {
		size_t n;

		if (*x->p == '&' && (n = entity(x->p + 1, x->end, &a->value))) {
			x->p += n + 1;
			continue;
		}
		if (*x->p == '<')
			return xml_error(x, "'<' in an attribute value");
		strbuf_addch(&a->value, *x->p++);
	}
	if (x->p >= x->end)
		return xml_error(x, "attribute value is not closed");
	x->p++;
	return 0;
}

int xml_next(struct xml *x)
{
	int r;

	clear_attrs(x);
	x->line += newlines(x->counted, x->p);
	x->counted = x->p;
	r = skip_to_tag(x);
	if (r <= 0)
		return r;
	x->p++;
	x->closing = x->p < x->end && *x->p == '/';
	x->p += x->closing;
	x->name = x->p;
	while (x->p < x->end && is_name_char((unsigned char)*x->p))
		x->p++;
	x->name_len = (size_t)(x->p - x->name);
	if (!x->name_len)
		return xml_error(x, "'<' not followed by a name");
	x->empty = 0;
	for (;;) {
		skip_space(x);
		if (x->p >= x->end)
			return xml_error(x, "tag is not closed");
		if (*x->p == '>') {
			x->p++;
			return 1;
		}
		if (*x->p == '/' && !x->closing && x->end - x->p >= 2 &&
		    x->p[1] == '>') {
			x->empty = 1;
			x->p += 2;
			return 1;
		}
		if (x->closing || !is_name_char((unsigned char)*x->p))
			return xml_error(x, "bad character in a tag");
		if (x->nr_attrs == XML_MAX_ATTRS)
			return xml_error(x, "too many attributes");
		if (read_attr(x, &x->attrs[x->nr_attrs++]) < 0)
			return -1;
	}
}

int xml_is(const struct xml *x, const char *name)
{
	return x->name_len == strlen(name) && !memcmp(x->name, name, x->name_len);
}

const char *xml_attr(const struct xml *x, const char *name)
{
	size_t i;

	for (i = 0; i < x->nr_attrs; i++)
		if (x->attrs[i].name_len == strlen(name) &&
		    !memcmp(x->attrs[i].name, name, x->attrs[i].name_len))
			return x->attrs[i].value.buf;
	return NULL;
}
