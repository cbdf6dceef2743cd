#ifndef XML_H
#define XML_H

#include <stddef.h>

#include "base/strbuf.h"

/*
 * A small XML pull reader: it hands out the tags of a text one at a
 * time, each with its name and its attributes, entities decoded.  What
 * lies between the tags (text, CDATA sections, comments, the <?xml?>
 * declaration, a <!DOCTYPE> with its internal subset) is read over:
 * the readers of reports that need elements and attributes alone
 * (fstests' xunit files) need nothing more, and well-formed XML is all
 * it has to read.  It checks each tag's syntax, not that the tags
 * nest: the caller knows which elements it expects inside which.
 *
 *     struct xml x;
 *     int r;
 *
 *     xml_init(&x, "result.xml", buf, len);
 *     while ((r = xml_next(&x)) > 0) {
 *             if (xml_is(&x, "testcase") && !x.closing)
 *                     ... xml_attr(&x, "name"), x.empty ...
 *     }
 *     xml_release(&x);
 *     if (r < 0)
 *             ... "result.xml:LINE: cause" printed ...
 *
 * Names are compared byte for byte (no namespaces).  Entities are the
 * five XML names (&amp; &lt; &gt; &quot; &apos;) and character
 * references (&#233; &#xe9;), written as UTF-8; an '&' that starts
 * none of them is kept as it is.
 */

#define XML_MAX_ATTRS 32

struct xml_attr {
	const char *name;		/* in the text, not NUL-terminated */
	size_t name_len;
	struct strbuf value;		/* entities decoded */
};

struct xml {
	const char *buf, *p, *end;	/* the text and where the reader is */
	const char *path;		/* names the text in messages */
	const char *counted;		/* the lines before it are counted, */
	unsigned line;			/* and it is on this one */

	/* The tag xml_next() read last. */
	const char *name;		/* in the text, not NUL-terminated */
	size_t name_len;
	int closing;			/* </name> */
	int empty;			/* <name/> */
	struct xml_attr attrs[XML_MAX_ATTRS];
	size_t nr_attrs;
};

/*
 * Reads the len bytes of buf (no NUL needed at the end), which must
 * outlive x; path names it in messages.
 */
void xml_init(struct xml *x, const char *path, const char *buf, size_t len);

/* Frees what x owns (the values of the attributes). */
void xml_release(struct xml *x);

/*
 * Reads the next tag into x: 1, 0 at the end of the text, or -1 after
 * "error: PATH:LINE: cause" (a comment, CDATA section or declaration
 * left open, a tag that is not closed or not well formed, more than
 * XML_MAX_ATTRS attributes).
 */
int xml_next(struct xml *x);

/* Non-zero if the tag read last is named name. */
int xml_is(const struct xml *x, const char *name);

/* The value of the attribute name of the tag read last, or NULL. */
const char *xml_attr(const struct xml *x, const char *name);

/* The line (from 1) the reader is on: just after the tag read last. */
unsigned xml_line(const struct xml *x);

/* Prints "error: PATH:LINE: why" at the reader's line; returns -1. */
int xml_error(const struct xml *x, const char *why);

#endif
