/*
 * One message of an mbox: its header block (unfolded, RFC 2047 encoded
 * words decoded) and its text, decoded from MIME: quoted-printable and
 * base64 bodies, multipart messages down to their text/plain part.
 * Every problem met is recorded in the message (the first one), with
 * the line of the file it is on.  mbox.c takes the file apart into
 * messages and hands each one to mbox_parse_mail().
 */
#include "formats/mbox-internal.h"
#include "base/strbuf.h"

#include <stdarg.h>
#include <stdlib.h>

/* Multipart bodies inside multipart bodies, at most. */
#define MAX_DEPTH 8
/* Bytes of a bad line quoted in a problem, at most. */
#define QUOTE_MAX 40

static const char replacement[] = "\xef\xbf\xbd";	/* U+FFFD */

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

/* --- addresses -------------------------------------------------------- */

/* An address being read: the words outside <>, the <addr>, a comment. */
struct addr_ctx {
	struct strbuf display, angle, comment;
	int has_angle;
};

static void addr_release(struct addr_ctx *c)
{
	strbuf_release(&c->display);
	strbuf_release(&c->angle);
	strbuf_release(&c->comment);
	c->has_angle = 0;
}

/* Hands out the address read so far (if it has one) and starts anew. */
static void addr_finish(struct addr_ctx *c, struct mbox_address **out,
			size_t *nr, size_t *alloc)
{
	struct strbuf name = STRBUF_INIT, clean = STRBUF_INIT;
	struct strbuf *email = c->has_angle ? &c->angle : &c->display;
	struct strbuf *shown = c->has_angle && c->display.len ? &c->display
							      : &c->comment;
	size_t i, j;

	/* An address holds no white space; a bare one may be folded. */
	for (i = j = 0; i < email->len; i++)
		if (!is_blank((unsigned char)email->buf[i]))
			email->buf[j++] = email->buf[i];
	strbuf_setlen(email, j);
	if (email->len) {
		ALLOC_GROW(*out, *nr, *alloc);
		decode_header(&name, shown->buf, shown->len);
		add_clean(&clean, name.buf, name.len);
		(*out)[*nr].name = detach_or_null(&clean);
		strbuf_reset(&name);
		add_clean(&name, email->buf, email->len);
		(*out)[*nr].email = strbuf_detach(&name, NULL);
		(*nr)++;
	}
	strbuf_release(&name);
	strbuf_release(&clean);
	addr_release(c);
}

/*
 * The length of the encoded word ("=?cs?Q?text?=") at p, or 0: taken
 * whole, so that a comma some mailers leave in one splits nothing.
 */
static size_t encoded_word_len(const char *p)
{
	const char *q;
	int marks = 0;

	if (p[0] != '=' || p[1] != '?')
		return 0;
	for (q = p + 2; *q && !is_blank((unsigned char)*q); q++) {
		if (*q != '?')
			continue;
		if (++marks == 3 && q[1] == '=')
			return (size_t)(q - p) + 2;
		if (marks == 3)
			return 0;
	}
	return 0;
}

void mbox_address_list(const char *v, struct mbox_address **out, size_t *nr)
{
	struct addr_ctx c = { STRBUF_INIT, STRBUF_INIT, STRBUF_INIT, 0 };
	size_t alloc = *nr, depth;
	const char *p;

	for (p = v; p && *p; p++) {
		struct strbuf *to = c.has_angle == 1 ? &c.angle : &c.display;

		if (*p == '"' && c.has_angle != 1) {
			/* A quoted string: its text, '\' escaping one byte. */
			for (p++; *p && *p != '"'; p++) {
				if (*p == '\\' && p[1])
					p++;
				strbuf_addch(to, *p);
			}
			if (!*p)
				break;
		} else if (*p == '(' && c.has_angle != 1) {
			/* A comment, nested: the first names a bare address. */
			for (depth = 1, p++; *p; p++) {
				if (*p == '\\' && p[1]) {
					strbuf_addch(&c.comment, *++p);
					continue;
				}
				if (*p == '(')
					depth++;
				else if (*p == ')' && !--depth)
					break;
				strbuf_addch(&c.comment, *p);
			}
			if (!*p)
				break;
		} else if (!c.has_angle && encoded_word_len(p)) {
			strbuf_add(to, p, encoded_word_len(p));
			p += encoded_word_len(p) - 1;
		} else if (*p == '<' && !c.has_angle) {
			c.has_angle = 1;
		} else if (*p == '>' && c.has_angle == 1) {
			c.has_angle = 2;
		} else if (c.has_angle == 1) {
			strbuf_addch(&c.angle, *p);
		} else if (*p == ',' || *p == ';') {
			addr_finish(&c, out, nr, &alloc);
		} else if (*p == ':') {
			/* "group: a, b;": the group's name is no address. */
			addr_release(&c);
		} else if (c.has_angle != 2) {
			strbuf_addch(&c.display, *p);
		}
	}
	addr_finish(&c, out, nr, &alloc);
}

void mbox_address_free(struct mbox_address *v, size_t nr)
{
	size_t i;

	for (i = 0; i < nr; i++) {
		free(v[i].name);
		free(v[i].email);
	}
	free(v);
}

/* The addresses of a header (raw: names are decoded one by one). */
static void header_addresses(const struct headers *h, const char *name,
			     struct mbox_address **out, size_t *nr)
{
	const struct strbuf *v = header_get(h, name);

	*out = NULL;
	*nr = 0;
	if (v)
		mbox_address_list(v->buf, out, nr);
}

/* The first address of From, or NULL; *nr how many it has. */
static struct mbox_address *header_sender(const struct headers *h,
					  size_t *nr_out)
{
	struct mbox_address *v, *one = NULL;
	size_t nr;

	header_addresses(h, "From", &v, &nr);
	*nr_out = nr;
	if (nr) {
		one = xcalloc(1, sizeof(*one));
		*one = v[0];
		v[0].name = v[0].email = NULL;
	}
	mbox_address_free(v, nr);
	return one;
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

/* --- the message ---------------------------------------------------- */

void mbox_parse_mail(struct mbox_msg *m, const char *raw, size_t len,
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
	header_addresses(&h, "To", &m->to, &m->nr_to);
	header_addresses(&h, "Cc", &m->cc, &m->nr_cc);
	m->from_addr = header_sender(&h, &m->nr_from);

	decode_entity(&c, &h, raw + off, len - off, 0, &body);
	m->body = finish_body(&c, &body, raw + off);

	strbuf_release(&body);
	headers_release(&h);
}
