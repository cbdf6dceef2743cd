#include "mbox.h"
#include "ascii.h"
#include "error.h"
#include "strbuf.h"
#include "util.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <string.h>
#include <unistd.h>

/*
 * The reader first takes the file apart into lines (after turning
 * "\r\n" into "\n") and those into messages; each message is then
 * parsed on its own text, which keeps pointers into it, so that a
 * problem can be traced back to its line of the file.  Every pass is
 * linear in the size of the file.
 */

/* git's buffer_is_binary() looks this far for a NUL byte. */
#define BINARY_PROBE 8000
/* Multipart bodies inside multipart bodies, at most. */
#define MAX_DEPTH 8
/* Bytes of a bad line quoted in a problem, at most. */
#define QUOTE_MAX 40

static const char replacement[] = "\xef\xbf\xbd";	/* U+FFFD */

struct span {
	const char *p;
	size_t len;
};

struct header {
	const char *name;	/* points into the message */
	size_t name_len;
	struct strbuf val;	/* unfolded, not trimmed */
};

struct headers {
	struct header *v;
	size_t nr, alloc;
};

/* A message being parsed. */
struct msg_ctx {
	struct mbox_msg *msg;
	const char *raw;	/* its text, after the From_ line */
	size_t len;
	size_t lineno;		/* the line of the file raw starts on */
};

/* --- characters and lines ------------------------------------------- */

static int hex_val(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

static int span_is_blank(struct span s)
{
	size_t i;

	for (i = 0; i < s.len; i++)
		if (!is_blank((unsigned char)s.p[i]))
			return 0;
	return 1;
}

static int span_starts_with(struct span s, const char *prefix)
{
	size_t n = strlen(prefix);

	return s.len >= n && !memcmp(s.p, prefix, n);
}

/* Non-zero if p[0..len) equals word, compared without case. */
static int span_eq_ci(const char *p, size_t len, const char *word)
{
	return strlen(word) == len && !ascii_strncasecmp(p, word, len);
}

/*
 * The line at *pos of buf[0..len), without its "\n", in *line; moves
 * *pos past it.  Returns 0 at the end.
 */
static int next_line(const char *buf, size_t len, size_t *pos,
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

static size_t count_lines(const char *p, size_t len)
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

/*
 * Appends p[0..len) as UTF-8 on one line: control characters become
 * spaces, bytes that are not UTF-8 become U+FFFD.
 */
static void add_clean(struct strbuf *sb, const char *p, size_t len)
{
	size_t i = 0, n;

	while (i < len) {
		unsigned char c = (unsigned char)p[i];

		if (c < 0x20 || c == 0x7f) {
			strbuf_addch(sb, ' ');
			i++;
			continue;
		}
		n = utf8_seq_len((const unsigned char *)p + i, len - i);
		if (!n) {
			strbuf_addstr(sb, replacement);
			i++;
		} else {
			strbuf_add(sb, p + i, n);
			i += n;
		}
	}
}

/* Hands out sb trimmed, or NULL (releasing it) if that is empty. */
static char *detach_or_null(struct strbuf *sb)
{
	strbuf_trim(sb);
	if (!sb->len) {
		strbuf_release(sb);
		return NULL;
	}
	return strbuf_detach(sb, NULL);
}

static void set_problem(struct msg_ctx *c, const char *at, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* Records the first problem of the message; at points into c->raw. */
static void set_problem(struct msg_ctx *c, const char *at, const char *fmt, ...)
{
	va_list ap;

	if (c->msg->problem)
		return;
	if (at < c->raw || at > c->raw + c->len)
		at = c->raw;
	va_start(ap, fmt);
	c->msg->problem = xstrvfmt(fmt, ap);
	va_end(ap);
	c->msg->problem_line = c->lineno + count_lines(c->raw,
						       (size_t)(at - c->raw));
}

/* --- decoding --------------------------------------------------------- */

/*
 * Quoted-printable (RFC 2045 6.7): "=XX" is a byte, "=" at the end of a
 * line (white space may follow it) joins the line to the next.  In an
 * encoded word (header != 0), '_' is a space.  Anything else, a stray
 * '=' included, is taken as it is.
 */
static void decode_qp(struct strbuf *out, const char *p, size_t len,
		      int header)
{
	size_t i = 0, j;
	int hi, lo;

	while (i < len) {
		char c = p[i];

		if (c == '_' && header) {
			strbuf_addch(out, ' ');
			i++;
			continue;
		}
		if (c != '=') {
			strbuf_addch(out, c);
			i++;
			continue;
		}
		hi = i + 2 < len ? hex_val((unsigned char)p[i + 1]) : -1;
		lo = i + 2 < len ? hex_val((unsigned char)p[i + 2]) : -1;
		if (hi >= 0 && lo >= 0) {
			strbuf_addch(out, hi * 16 + lo);
			i += 3;
			continue;
		}
		for (j = i + 1; j < len && is_blank((unsigned char)p[j]); j++)
			;
		if (j == len) {
			i = j;
		} else if (p[j] == '\n') {
			i = j + 1;
		} else {
			strbuf_addch(out, '=');
			i++;
		}
	}
}

static int base64_val(int c)
{
	if (c >= 'A' && c <= 'Z')
		return c - 'A';
	if (c >= 'a' && c <= 'z')
		return c - 'a' + 26;
	if (is_digit(c))
		return c - '0' + 52;
	if (c == '+')
		return 62;
	if (c == '/')
		return 63;
	return -1;
}

/*
 * Base64 (RFC 2045 6.8), white space skipped.  Decodes what it can and
 * returns -1 if anything is wrong: a character outside the alphabet,
 * data after the padding, or a group cut short; else 0.
 */
static int decode_base64(struct strbuf *out, const char *p, size_t len)
{
	unsigned acc = 0;
	int bits = 0, chars = 0, padded = 0, ret = 0;
	size_t i;

	for (i = 0; i < len; i++) {
		int c = (unsigned char)p[i], v;

		if (is_blank(c) || c == '\n' || c == '\r')
			continue;
		if (c == '=') {
			padded = 1;
			continue;
		}
		v = base64_val(c);
		if (v < 0 || padded) {
			ret = -1;
			if (v < 0)
				continue;
			/* A second base64 text after the first: start over. */
			padded = 0;
			bits = 0;
			chars = 0;
		}
		acc = ((acc << 6) | (unsigned)v) & 0xffffff;
		bits += 6;
		chars++;
		if (bits >= 8) {
			bits -= 8;
			strbuf_addch(out, (int)((acc >> bits) & 0xff));
		}
	}
	if (chars % 4 == 1)
		ret = -1;
	return ret;
}

static void add_latin1(struct strbuf *out, const char *p, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++) {
		unsigned char c = (unsigned char)p[i];

		if (c < 0x80) {
			strbuf_addch(out, c);
		} else {
			strbuf_addch(out, 0xc0 | (c >> 6));
			strbuf_addch(out, 0x80 | (c & 0x3f));
		}
	}
}

enum charset { CS_UNKNOWN, CS_UTF8, CS_LATIN1 };

static enum charset charset_of(const char *p, size_t len)
{
	static const char *const utf8[] = { "utf-8", "utf8", "us-ascii" };
	static const char *const latin1[] = {
		"iso-8859-1", "iso8859-1", "latin1", "latin-1"
	};
	const char *star = memchr(p, '*', len);
	size_t i;

	/* RFC 2231: "=?UTF-8*en?Q?...?=" names a language. */
	if (star)
		len = (size_t)(star - p);
	for (i = 0; i < ARRAY_SIZE(utf8); i++)
		if (span_eq_ci(p, len, utf8[i]))
			return CS_UTF8;
	for (i = 0; i < ARRAY_SIZE(latin1); i++)
		if (span_eq_ci(p, len, latin1[i]))
			return CS_LATIN1;
	return CS_UNKNOWN;
}

/*
 * If p[0..len) starts with an RFC 2047 encoded word
 * "=?charset?Q?text?=" or "=?charset?B?text?=" in a charset we know,
 * appends its text to out as UTF-8 and returns its length; else 0.
 */
static size_t decode_word(struct strbuf *out, const char *p, size_t len)
{
	struct strbuf raw = STRBUF_INIT;
	size_t i = 2, text;
	enum charset cs;
	int enc, ok = 1;

	if (len < 2 || p[0] != '=' || p[1] != '?')
		return 0;
	while (i < len && p[i] != '?' && !is_blank((unsigned char)p[i]))
		i++;
	if (i >= len || p[i] != '?')
		return 0;
	cs = charset_of(p + 2, i - 2);
	if (cs == CS_UNKNOWN || i + 2 >= len || p[i + 2] != '?')
		return 0;
	enc = p[i + 1];
	if (enc != 'q' && enc != 'Q' && enc != 'b' && enc != 'B')
		return 0;
	i += 3;
	text = i;
	while (i < len && p[i] != '?' && !is_blank((unsigned char)p[i]))
		i++;
	if (i + 1 >= len || p[i] != '?' || p[i + 1] != '=')
		return 0;
	if (enc == 'q' || enc == 'Q')
		decode_qp(&raw, p + text, i - text, 1);
	else
		ok = !decode_base64(&raw, p + text, i - text);
	if (ok) {
		if (cs == CS_LATIN1)
			add_latin1(out, raw.buf, raw.len);
		else
			strbuf_addbuf(out, &raw);
	}
	strbuf_release(&raw);
	return ok ? i + 2 : 0;
}

/*
 * Appends a header value with its encoded words decoded.  White space
 * between two encoded words goes (RFC 2047 6.2), so that a subject cut
 * into several words, even inside a UTF-8 sequence, comes back whole.
 */
static void decode_header(struct strbuf *out, const char *v, size_t len)
{
	struct strbuf word = STRBUF_INIT;
	size_t i = 0, n, ws_start = 0;
	int after_word = 0;

	while (i < len) {
		strbuf_reset(&word);
		n = decode_word(&word, v + i, len - i);
		if (n) {
			if (after_word)
				strbuf_setlen(out, ws_start);
			strbuf_addbuf(out, &word);
			i += n;
			after_word = 1;
			ws_start = out->len;
			continue;
		}
		if (!is_blank((unsigned char)v[i]))
			after_word = 0;
		strbuf_addch(out, v[i]);
		i++;
	}
	strbuf_release(&word);
}

/* --- headers ---------------------------------------------------------- */

/* The length of the field name of "Name: value", or 0. */
static size_t header_name_len(struct span line)
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

static void headers_release(struct headers *h)
{
	size_t i;

	for (i = 0; i < h->nr; i++)
		strbuf_release(&h->v[i].val);
	free(h->v);
	h->v = NULL;
	h->nr = h->alloc = 0;
}

/* The first header called name, or NULL. */
static const struct strbuf *header_get(const struct headers *h,
				       const char *name)
{
	size_t i;

	for (i = 0; i < h->nr; i++)
		if (span_eq_ci(h->v[i].name, h->v[i].name_len, name))
			return &h->v[i].val;
	return NULL;
}

/*
 * Reads the header block at the start of buf[0..len) (which points into
 * c->raw) into h.  Returns the offset of the body: after the first
 * blank line, or at the first line that is neither a header nor a
 * continuation line (a problem for the message).
 */
static size_t parse_headers(struct msg_ctx *c, const char *buf, size_t len,
			    struct headers *h)
{
	struct span line;
	size_t pos = 0, start, n;

	for (;;) {
		start = pos;
		if (!next_line(buf, len, &pos, &line))
			return len;
		if (span_is_blank(line))
			return pos;
		if (is_blank((unsigned char)line.p[0])) {
			if (h->nr) {
				strbuf_add(&h->v[h->nr - 1].val, line.p,
					   line.len);
				continue;
			}
			n = 0;
		} else {
			n = header_name_len(line);
		}
		if (!n) {
			struct strbuf q = STRBUF_INIT;

			strbuf_add_quoted(&q, line.p, line.len, QUOTE_MAX);
			if (is_blank((unsigned char)line.p[0]))
				set_problem(c, line.p, "continuation line "
					    "'%s' without a header before it",
					    q.buf);
			else
				set_problem(c, line.p, "bad header line '%s' "
					    "(expected 'Name: value' or a "
					    "blank line)", q.buf);
			strbuf_release(&q);
			return start;
		}
		ALLOC_GROW(h->v, h->nr, h->alloc);
		h->v[h->nr].name = line.p;
		h->v[h->nr].name_len = n;
		strbuf_init(&h->v[h->nr].val, 0);
		strbuf_add(&h->v[h->nr].val, line.p + n + 1, line.len - n - 1);
		h->nr++;
	}
}

/* A header's value, decoded (if decode) and clean, or NULL. */
static char *header_value(const struct headers *h, const char *name,
			  int decode)
{
	const struct strbuf *v = header_get(h, name);
	struct strbuf decoded = STRBUF_INIT, out = STRBUF_INIT;

	if (!v)
		return NULL;
	if (decode) {
		decode_header(&decoded, v->buf, v->len);
		add_clean(&out, decoded.buf, decoded.len);
		strbuf_release(&decoded);
	} else {
		add_clean(&out, v->buf, v->len);
	}
	return detach_or_null(&out);
}

/*
 * A message id: what is inside the first "<...>", or the first word if
 * there is no '<'; NULL if that is empty.
 */
static char *header_id(const struct headers *h, const char *name)
{
	char *v = header_value(h, name, 0), *id = NULL;
	const char *open, *close, *end;

	if (!v)
		return NULL;
	open = strchr(v, '<');
	if (open) {
		close = strchr(open + 1, '>');
		if (close && close > open + 1)
			id = xstrndup(open + 1, (size_t)(close - open - 1));
	} else {
		for (end = v; *end && *end != ' '; end++)
			;
		id = xstrndup(v, (size_t)(end - v));
	}
	free(v);
	return id;
}

/* Every "<id>" of a header (References), in order; *nr of them. */
static char **header_ids(const struct headers *h, const char *name, size_t *nr)
{
	char *v = header_value(h, name, 0), **ids = NULL;
	const char *p, *close;
	size_t alloc = 0;

	*nr = 0;
	for (p = v; p && (p = strchr(p, '<')); p = close + 1) {
		close = strchr(p + 1, '>');
		if (!close)
			break;
		if (close == p + 1 || memchr(p + 1, ' ', (size_t)(close - p - 1)))
			continue;
		ALLOC_GROW(ids, *nr, alloc);
		ids[(*nr)++] = xstrndup(p + 1, (size_t)(close - p - 1));
	}
	free(v);
	return ids;
}

/* --- Content-Type ----------------------------------------------------- */

/* The media type ("text/plain") of a Content-Type value, in span form. */
static struct span content_type(const char *v)
{
	struct span s;

	while (is_blank((unsigned char)*v))
		v++;
	s.p = v;
	s.len = strcspn(v, "; \t");
	return s;
}

static int is_type(const struct strbuf *ct, const char *type)
{
	struct span s;

	if (!ct)
		return !strcmp(type, "text/plain");
	s = content_type(ct->buf);
	return span_eq_ci(s.p, s.len, type);
}

static int is_multipart(const struct strbuf *ct)
{
	struct span s;

	if (!ct)
		return 0;
	s = content_type(ct->buf);
	return s.len >= 10 && !ascii_strncasecmp(s.p, "multipart/", 10);
}

/*
 * The value of the parameter name of a Content-Type value (a token or
 * a quoted string), or NULL.
 */
static char *content_type_param(const char *v, const char *name)
{
	const char *p = strchr(v, ';'), *key;
	struct strbuf val = STRBUF_INIT;
	size_t key_len;

	while (p && *p == ';') {
		p++;
		while (is_blank((unsigned char)*p))
			p++;
		key = p;
		while (*p && *p != '=' && *p != ';' &&
		       !is_blank((unsigned char)*p))
			p++;
		key_len = (size_t)(p - key);
		while (is_blank((unsigned char)*p))
			p++;
		if (*p != '=') {
			p = strchr(p, ';');
			continue;
		}
		p++;
		while (is_blank((unsigned char)*p))
			p++;
		strbuf_reset(&val);
		if (*p == '"') {
			for (p++; *p && *p != '"'; p++) {
				if (*p == '\\' && p[1])
					p++;
				strbuf_addch(&val, *p);
			}
			if (*p == '"')
				p++;
		} else {
			for (; *p && *p != ';' &&
			       !is_blank((unsigned char)*p); p++)
				strbuf_addch(&val, *p);
		}
		if (span_eq_ci(key, key_len, name))
			return strbuf_detach(&val, NULL);
		p = strchr(p, ';');
	}
	strbuf_release(&val);
	return NULL;
}

/* --- bodies ----------------------------------------------------------- */

/* Appends body[0..len) decoded according to its Content-Transfer-Encoding. */
static void decode_body(struct msg_ctx *c, const struct strbuf *cte,
			const char *body, size_t len, struct strbuf *out)
{
	struct span s = { "", 0 };

	if (cte)
		s = content_type(cte->buf);
	if (!s.len || span_eq_ci(s.p, s.len, "7bit") ||
	    span_eq_ci(s.p, s.len, "8bit") ||
	    span_eq_ci(s.p, s.len, "binary")) {
		strbuf_add(out, body, len);
	} else if (span_eq_ci(s.p, s.len, "quoted-printable")) {
		decode_qp(out, body, len, 0);
	} else if (span_eq_ci(s.p, s.len, "base64")) {
		if (decode_base64(out, body, len))
			set_problem(c, body, "bad base64 in the body");
	} else {
		struct strbuf q = STRBUF_INIT;

		strbuf_add_quoted(&q, s.p, s.len, QUOTE_MAX);
		set_problem(c, body, "unknown Content-Transfer-Encoding '%s'",
			    q.buf);
		strbuf_release(&q);
		strbuf_add(out, body, len);
	}
}

/* Non-zero if line is "--boundary" or "--boundary--" (*last set). */
static int is_delimiter(struct span line, const char *boundary, int *last)
{
	size_t n = strlen(boundary), i;

	if (line.len < n + 2 || line.p[0] != '-' || line.p[1] != '-' ||
	    memcmp(line.p + 2, boundary, n))
		return 0;
	i = n + 2;
	*last = i + 1 < line.len && line.p[i] == '-' && line.p[i + 1] == '-';
	if (*last)
		i += 2;
	for (; i < line.len; i++)
		if (!is_blank((unsigned char)line.p[i]))
			return 0;
	return 1;
}

static int decode_entity(struct msg_ctx *c, const struct headers *h,
			 const char *body, size_t len, int depth,
			 struct strbuf *out);

/* Decodes the part p[0..len) if it is (or holds) text/plain; 1 if so. */
static int decode_part(struct msg_ctx *c, const char *p, size_t len,
		       int depth, struct strbuf *out)
{
	struct headers h = { NULL, 0, 0 };
	size_t off = parse_headers(c, p, len, &h);
	int found = decode_entity(c, &h, p + off, len - off, depth, out);

	headers_release(&h);
	return found;
}

/*
 * Walks the parts of a multipart body; 1 once one of them gave the
 * text.  A body cut before its last delimiter ends its last part.
 */
static int decode_multipart(struct msg_ctx *c, const char *body, size_t len,
			    const char *boundary, int depth,
			    struct strbuf *out)
{
	struct span line;
	size_t pos = 0, start = 0;
	int in_part = 0, last;

	while (next_line(body, len, &pos, &line)) {
		if (!is_delimiter(line, boundary, &last))
			continue;
		if (in_part && decode_part(c, body + start,
					   (size_t)(line.p - body) - start,
					   depth + 1, out))
			return 1;
		if (last)
			return 0;
		in_part = 1;
		start = pos;
	}
	return in_part && decode_part(c, body + start, len - start, depth + 1,
				      out);
}

/*
 * Appends the text of an entity (a message or a part: headers h, body
 * body[0..len)) to out and returns 1 if it is text/plain or holds a
 * text/plain part; else returns 0.  The message itself (depth 0) is
 * text unless it is multipart.
 */
static int decode_entity(struct msg_ctx *c, const struct headers *h,
			 const char *body, size_t len, int depth,
			 struct strbuf *out)
{
	const struct strbuf *ct = header_get(h, "Content-Type");
	char *boundary;
	int found;

	if (!is_multipart(ct)) {
		if (depth && !is_type(ct, "text/plain"))
			return 0;
		decode_body(c, header_get(h, "Content-Transfer-Encoding"),
			    body, len, out);
		return 1;
	}
	if (depth >= MAX_DEPTH) {
		set_problem(c, body, "multipart parts nested more than %d deep",
			    MAX_DEPTH);
		return 0;
	}
	boundary = content_type_param(ct->buf, "boundary");
	if (!boundary || !*boundary) {
		set_problem(c, body, "multipart message without a boundary");
		free(boundary);
		if (depth)
			return 0;
		strbuf_add(out, body, len);
		return 1;
	}
	found = decode_multipart(c, body, len, boundary, depth, out);
	free(boundary);
	if (!found && !depth)
		set_problem(c, body, "multipart message without a text/plain "
			    "part");
	return found;
}

/* The body as handed out: "\r\n" as "\n", a NUL byte as U+FFFD. */
static char *finish_body(struct msg_ctx *c, const struct strbuf *body,
			 const char *at)
{
	struct strbuf out = STRBUF_INIT;
	size_t i;
	int nul = 0;

	strbuf_grow(&out, body->len);
	for (i = 0; i < body->len; i++) {
		size_t run = strcspn(body->buf + i, "\r");
		char ch;

		/* strcspn() stops at '\r' and at a NUL byte. */
		strbuf_add(&out, body->buf + i, run);
		i += run;
		if (i == body->len)
			break;
		ch = body->buf[i];
		if (ch == '\r' && i + 1 < body->len && body->buf[i + 1] == '\n')
			continue;
		if (ch == '\0') {
			strbuf_addstr(&out, replacement);
			nul = 1;
		} else {
			strbuf_addch(&out, ch);
		}
	}
	if (nul)
		set_problem(c, at, "NUL byte in the decoded body");
	return strbuf_detach(&out, NULL);
}

static char *find_diff(const char *body)
{
	const char *p = body;

	for (;;) {
		if (!strncmp(p, "diff --git ", 11))
			return xstrdup(p);
		p = strchr(p, '\n');
		if (!p)
			return NULL;
		p++;
	}
}

/* --- subjects --------------------------------------------------------- */

static size_t digit_run(const char *p, size_t len)
{
	size_t n = 0;

	while (n < len && is_digit((unsigned char)p[n]))
		n++;
	return n;
}

/*
 * "6.1", "5.15.y", "6.6-stable", "v6.1", "6.19-6.12", "6.1.70" give
 * "6.1", "5.15", ...; "v2" (a revision) and "1/3" give NULL.
 */
static char *parse_version(const char *p, size_t len)
{
	size_t i = 0, start, n;

	if (len && (p[0] == 'v' || p[0] == 'V'))
		i++;
	start = i;
	n = digit_run(p + i, len - i);
	if (!n || n > 3)
		return NULL;
	i += n;
	if (i >= len || p[i] != '.')
		return NULL;
	i++;
	n = digit_run(p + i, len - i);
	if (!n || n > 3)
		return NULL;
	i += n;
	if (i < len && p[i] != '.' && p[i] != '-' && p[i] != '/' && p[i] != '+')
		return NULL;
	return xstrndup(p + start, i - start);
}

/* "03/12" gives 3 and 12. */
static int parse_n_of_m(const char *p, size_t len, int *n, int *m)
{
	size_t a = digit_run(p, len), b;

	if (!a || a > 5 || a >= len || p[a] != '/')
		return 0;
	b = digit_run(p + a + 1, len - a - 1);
	if (!b || b > 5 || a + 1 + b != len)
		return 0;
	*n = atoi(p);
	*m = atoi(p + a + 1);
	return 1;
}

/* "v3" or "V3" gives 3; anything else 0. */
static int parse_revision(const char *p, size_t len)
{
	size_t n;

	if (len < 2 || (p[0] != 'v' && p[0] != 'V'))
		return 0;
	n = digit_run(p + 1, len - 1);
	if (n != len - 1 || n > 3)
		return 0;
	return atoi(p + 1);
}

/* Reads the tokens of one "[...]" group, p[0..len). */
static void parse_bracket(struct mbox_msg *m, const char *p, size_t len)
{
	size_t i = 0, start;

	while (i < len) {
		while (i < len && (p[i] == ' ' || p[i] == ','))
			i++;
		start = i;
		while (i < len && p[i] != ' ' && p[i] != ',')
			i++;
		if (i == start)
			continue;
		if (span_eq_ci(p + start, i - start, "AUTOSEL"))
			m->autosel = 1;
		else if (!m->revision &&
			 (m->revision = parse_revision(p + start, i - start)))
			;
		else if (!m->total && !m->number &&
			 parse_n_of_m(p + start, i - start, &m->number,
				      &m->total))
			;
		else if (!m->version)
			m->version = parse_version(p + start, i - start);
	}
}

static void parse_subject(struct mbox_msg *m)
{
	const char *p = m->subject, *close;
	struct strbuf title = STRBUF_INIT;

	if (!p)
		return;
	for (;;) {
		while (*p == ' ')
			p++;
		if (!ascii_strncasecmp(p, "re:", 3)) {
			m->is_reply = 1;
			p += 3;
		} else if (*p == '[' && (close = strchr(p, ']'))) {
			parse_bracket(m, p + 1, (size_t)(close - p - 1));
			p = close + 1;
		} else {
			break;
		}
	}
	strbuf_addstr(&title, p);
	strbuf_trim(&title);
	m->title = strbuf_detach(&title, NULL);
}

/* --- messages --------------------------------------------------------- */

/* Parses one message, raw[0..len) starting on line lineno of the file. */
static void parse_message(struct mbox_msg *m, const char *raw, size_t len,
			  size_t lineno)
{
	struct msg_ctx c = { m, raw, len, lineno };
	struct headers h = { NULL, 0, 0 };
	struct strbuf body = STRBUF_INIT;
	const char *nul = memchr(raw, '\0', len);
	size_t off;

	if (nul)
		set_problem(&c, nul, "NUL byte");
	off = parse_headers(&c, raw, len, &h);
	m->message_id = header_id(&h, "Message-ID");
	m->in_reply_to = header_id(&h, "In-Reply-To");
	m->references = header_ids(&h, "References", &m->nr_references);
	m->subject = header_value(&h, "Subject", 1);
	m->from = header_value(&h, "From", 1);
	m->date = header_value(&h, "Date", 0);

	decode_entity(&c, &h, raw + off, len - off, 0, &body);
	m->body = finish_body(&c, &body, raw + off);
	m->diff = find_diff(m->body);
	parse_subject(m);

	strbuf_release(&body);
	headers_release(&h);
}

static void add_message(struct mbox *mb, size_t index, size_t line,
			const char *raw, size_t len, size_t lineno)
{
	struct mbox_msg *m;

	ALLOC_GROW(mb->msgs, mb->nr, mb->alloc);
	m = &mb->msgs[mb->nr++];
	memset(m, 0, sizeof(*m));
	m->index = index;
	m->line = line;
	parse_message(m, raw, len, lineno);
}

/* --- the file --------------------------------------------------------- */

static int is_name(const char *p, const char *const names[], size_t nr)
{
	size_t i;

	for (i = 0; i < nr; i++)
		if (!ascii_strncasecmp(p, names[i], 3))
			return 1;
	return 0;
}

/*
 * Non-zero if line is a From_ line as mbox writers write it:
 * "From SENDER Www Mmm dd hh:mm:ss yyyy", perhaps with more after the
 * time; only the names of the day and month and the time are checked.
 */
static int is_from_line(struct span line)
{
	static const char *const days[] = {
		"Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"
	};
	static const char *const months[] = {
		"Jan", "Feb", "Mar", "Apr", "May", "Jun",
		"Jul", "Aug", "Sep", "Oct", "Nov", "Dec"
	};
	const char *p = line.p, *end = line.p + line.len;

	if (!span_starts_with(line, "From "))
		return 0;
	p += 5;
	if (p == end || *p == ' ')
		return 0;
	while (p < end && *p != ' ')
		p++;
	while (p < end && *p == ' ')
		p++;
	if (end - p < 8 || p[3] != ' ' || !is_name(p, days, ARRAY_SIZE(days)))
		return 0;
	p += 4;
	while (p < end && *p == ' ')
		p++;
	if (end - p < 4 || p[3] != ' ' ||
	    !is_name(p, months, ARRAY_SIZE(months)))
		return 0;
	for (p += 4; end - p >= 4; p++)
		if (is_digit((unsigned char)p[0]) && p[1] == ':' &&
		    is_digit((unsigned char)p[2]) &&
		    is_digit((unsigned char)p[3]))
			return 1;
	return 0;
}

size_t mbox_next_message(const char *buf, size_t len, size_t at)
{
	const char *nl;
	size_t p = at;

	/* From the start of the next line, when at is inside one. */
	if (p > 0 && p < len && buf[p - 1] != '\n') {
		nl = memchr(buf + p, '\n', len - p);
		p = nl ? (size_t)(nl - buf) + 1 : len;
	}
	while (p < len) {
		size_t end;
		struct span line;

		nl = memchr(buf + p, '\n', len - p);
		end = nl ? (size_t)(nl - buf) : len;
		line.p = buf + p;
		line.len = end - p;
		if (line.len && line.p[line.len - 1] == '\r')
			line.len--;
		/* At the start, or after an empty line ("\n\n", "\n\r\n"). */
		if ((p <= 1 || buf[p - 2] == '\n' ||
		     (buf[p - 2] == '\r' && (p == 2 || buf[p - 3] == '\n'))) &&
		    is_from_line(line))
			return p;
		p = nl ? end + 1 : len;
	}
	return len;
}

/* ">From ", ">>From ", ...: mboxrd's escape. */
static int is_escaped_from(struct span line)
{
	size_t i = 0;

	while (i < line.len && line.p[i] == '>')
		i++;
	return i && line.len - i >= 5 && !memcmp(line.p + i, "From ", 5);
}

/*
 * Where "\r" were dropped from the text (see normalize()): offsets in
 * the text, ascending, so that an offset in the text maps back to the
 * buffer the caller gave.
 */
struct crs {
	size_t *at;
	size_t nr, alloc;
};

static size_t buffer_offset(const struct crs *crs, size_t off)
{
	size_t lo = 0, hi = crs->nr;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (crs->at[mid] < off)
			lo = mid + 1;
		else
			hi = mid;
	}
	return off + lo;
}

/* Sets the bytes of the message text[start..end) in the caller's buffer. */
static void set_range(struct mbox *mb, const struct crs *crs, size_t start,
		      size_t end)
{
	struct mbox_msg *m = &mb->msgs[mb->nr - 1];

	m->offset = buffer_offset(crs, start);
	m->length = buffer_offset(crs, end) - m->offset;
}

/*
 * Splits the lines lines[first..nr) (lines[first] a From_ line) of text
 * into messages and adds them.
 */
static void split_mbox(struct mbox *mb, const struct strbuf *text,
		       const struct crs *crs, const struct span *lines,
		       size_t nr, size_t first)
{
	struct strbuf raw = STRBUF_INIT;
	size_t i = first, j, k, end, index = 0;

	while (i < nr) {
		for (j = i + 1; j < nr; j++)
			if (!lines[j - 1].len && is_from_line(lines[j]))
				break;
		end = j;
		if (end > i + 1 && !lines[end - 1].len)
			end--;
		strbuf_reset(&raw);
		for (k = i + 1; k < end; k++) {
			size_t skip = is_escaped_from(lines[k]);

			strbuf_add(&raw, lines[k].p + skip,
				   lines[k].len - skip);
			strbuf_addch(&raw, '\n');
		}
		add_message(mb, ++index, i + 1, raw.buf, raw.len, i + 2);
		set_range(mb, crs, (size_t)(lines[i].p - text->buf),
			  j < nr ? (size_t)(lines[j].p - text->buf) : text->len);
		i = j;
	}
	strbuf_release(&raw);
}

/*
 * The text with "\r\n" as "\n" (and a "\r" that ends it dropped);
 * crs gets where.
 */
static void normalize(struct strbuf *out, struct crs *crs, const char *buf,
		      size_t len)
{
	const char *end = buf + len, *cr;

	strbuf_grow(out, len);
	while ((cr = memchr(buf, '\r', (size_t)(end - buf)))) {
		strbuf_add(out, buf, (size_t)(cr - buf));
		if (cr + 1 < end && cr[1] != '\n') {
			strbuf_addch(out, '\r');
		} else {
			ALLOC_GROW(crs->at, crs->nr, crs->alloc);
			crs->at[crs->nr++] = out->len;
		}
		buf = cr + 1;
	}
	strbuf_add(out, buf, (size_t)(end - buf));
}

void mbox_init(struct mbox *mb)
{
	mb->msgs = NULL;
	mb->nr = mb->alloc = 0;
}

/* mbox_read(); quiet: fail without a message. */
static int read_buffer(struct mbox *out, const char *path, const char *buf,
		       size_t len, int quiet)
{
	struct strbuf text = STRBUF_INIT;
	struct crs crs = { NULL, 0, 0 };
	struct span *lines = NULL, line;
	size_t nr = 0, alloc = 0, pos = 0, first;
	const char *nul;
	int ret = 0;

	if (!len)
		return quiet ? -1 : error("'%s' is not an mbox (empty file)", path);
	nul = memchr(buf, '\0', len < BINARY_PROBE ? len : BINARY_PROBE);
	if (nul)
		return quiet ? -1 :
		       error("'%s' is not an mbox (binary: NUL byte on "
			     "line %zu)", path,
			     1 + count_lines(buf, (size_t)(nul - buf)));

	normalize(&text, &crs, buf, len);
	while (next_line(text.buf, text.len, &pos, &line)) {
		ALLOC_GROW(lines, nr, alloc);
		lines[nr++] = line;
	}
	for (first = 0; first < nr && span_is_blank(lines[first]); first++)
		;
	if (first == nr) {
		ret = quiet ? -1 : error("'%s' is not an mbox (only blank lines)",
					 path);
	} else if (span_starts_with(lines[first], "From ")) {
		split_mbox(out, &text, &crs, lines, nr, first);
	} else if (header_name_len(lines[first])) {
		const char *start = lines[first].p;

		add_message(out, 1, first + 1, start,
			    text.len - (size_t)(start - text.buf), first + 1);
		set_range(out, &crs, (size_t)(start - text.buf), text.len);
	} else {
		ret = quiet ? -1 :
		      error("'%s' is not an mbox (line %zu starts with neither "
			    "'From ' nor a header)", path, first + 1);
	}
	free(lines);
	free(crs.at);
	strbuf_release(&text);
	return ret;
}

int mbox_read(struct mbox *out, const char *path, const char *buf, size_t len)
{
	return read_buffer(out, path, buf, len, 0);
}

int mbox_read_quiet(struct mbox *out, const char *buf, size_t len)
{
	return read_buffer(out, "", buf, len, 1);
}

/* Reads all of fd into sb; 0, or -1 with errno set. */
static int read_fd(struct strbuf *sb, int fd)
{
	char chunk[8192];
	ssize_t got;

	for (;;) {
		got = read(fd, chunk, sizeof(chunk));
		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0)
			return -1;
		if (!got)
			return 0;
		strbuf_add(sb, chunk, (size_t)got);
	}
}

int mbox_read_file(struct mbox *out, const char *path)
{
	struct strbuf sb = STRBUF_INIT;
	int ret;

	if (!strcmp(path, "-")) {
		path = "<stdin>";
		ret = read_fd(&sb, 0);
	} else {
		ret = strbuf_read_file(&sb, path);
	}
	if (ret < 0)
		ret = error("cannot read '%s': %s", path, strerror(errno));
	else
		ret = mbox_read(out, path, sb.buf, sb.len);
	strbuf_release(&sb);
	return ret;
}

static void msg_release(struct mbox_msg *m)
{
	size_t i;

	free(m->message_id);
	free(m->in_reply_to);
	for (i = 0; i < m->nr_references; i++)
		free(m->references[i]);
	free(m->references);
	free(m->subject);
	free(m->from);
	free(m->date);
	free(m->body);
	free(m->diff);
	free(m->title);
	free(m->version);
	free(m->problem);
}

void mbox_release(struct mbox *mb)
{
	size_t i;

	for (i = 0; i < mb->nr; i++)
		msg_release(&mb->msgs[i]);
	free(mb->msgs);
	mbox_init(mb);
}

/* --- dates ------------------------------------------------------------ */

static const char *skip_cfws(const char *p)
{
	int depth = 0;

	for (; *p; p++) {
		if (*p == '(')
			depth++;
		else if (*p == ')' && depth)
			depth--;
		else if (!depth && *p != ' ' && *p != '\t' && *p != ',')
			break;
	}
	return p;
}

/* The number at *p (at most max digits); -1 if none. */
static long date_number(const char **p, int max)
{
	long v = 0;
	int n = 0;

	while (n < max && is_digit((unsigned char)**p)) {
		v = v * 10 + (**p - '0');
		(*p)++;
		n++;
	}
	return n ? v : -1;
}

int mbox_parse_date(const char *s, long long *time, int *offset_minutes)
{
	static const char *const months[] = {
		"Jan", "Feb", "Mar", "Apr", "May", "Jun",
		"Jul", "Aug", "Sep", "Oct", "Nov", "Dec"
	};
	static const struct { const char *name; int hours; } zones[] = {
		{ "UT", 0 }, { "GMT", 0 }, { "Z", 0 }, { "EST", -5 },
		{ "EDT", -4 }, { "CST", -6 }, { "CDT", -5 }, { "MST", -7 },
		{ "MDT", -6 }, { "PST", -8 }, { "PDT", -7 },
	};
	const char *p;
	long day, mon = -1, year, hh, mm, ss = 0, zone = 0;
	size_t i;

	if (!s)
		return -1;
	p = skip_cfws(s);
	/* A day name, "Tue,", is optional. */
	if ((*p | 0x20) >= 'a' && (*p | 0x20) <= 'z')
		p = skip_cfws(p + strcspn(p, ", \t"));
	if ((day = date_number(&p, 2)) < 1 || day > 31)
		return -1;
	p = skip_cfws(p);
	for (i = 0; i < ARRAY_SIZE(months); i++)
		if (!ascii_strncasecmp(p, months[i], 3))
			mon = (long)i + 1;
	if (mon < 0)
		return -1;
	p = skip_cfws(p + 3);
	if ((year = date_number(&p, 4)) < 0)
		return -1;
	if (year < 50)
		year += 2000;
	else if (year < 1000)
		year += 1900;
	p = skip_cfws(p);
	if ((hh = date_number(&p, 2)) < 0 || hh > 23 || *p++ != ':' ||
	    (mm = date_number(&p, 2)) < 0 || mm > 59)
		return -1;
	if (*p == ':' && (p++, (ss = date_number(&p, 2)) < 0 || ss > 60))
		return -1;
	p = skip_cfws(p);
	if (*p == '+' || *p == '-') {
		const char *q = p + 1;
		long v = date_number(&q, 4);

		if (v < 0 || q - p != 5)
			return -1;
		zone = (v / 100 * 60 + v % 100) * (*p == '-' ? -1 : 1);
	} else {
		for (i = 0; i < ARRAY_SIZE(zones); i++)
			if (!ascii_strncasecmp(p, zones[i].name, strlen(zones[i].name)))
				break;
		/* An unknown zone name is "-0000": the time is UTC. */
		zone = i < ARRAY_SIZE(zones) ? zones[i].hours * 60 : 0;
	}
	*time = days_from_civil((int)year, (int)mon, (int)day) * 86400 +
		hh * 3600 + mm * 60 + ss - zone * 60;
	*offset_minutes = (int)zone;
	return 0;
}
