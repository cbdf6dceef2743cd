/*
 * The LTP reader: a C lexer that knows comments, string literals and
 * character constants, enough to find the {"tag", "value"} pairs of
 * struct tst_test's .tags (and of arrays of struct tst_tag).
 */
#include "formats/testannot-internal.h"
#include "base/ascii.h"

static const char ltp_suite[] = "ltp";

enum c_tok { C_EOF, C_LBRACE, C_COMMA, C_STRING, C_OTHER };

struct c_lexer {
	const char *buf;
	size_t len, pos;
	unsigned line;
	struct testannot_set *set;
	const char *file;
	struct strbuf str;	/* the string literals last read, joined */
};

static int c_at(const struct c_lexer *lx, size_t off)
{
	return lx->pos + off < lx->len ?
		(unsigned char)lx->buf[lx->pos + off] : -1;
}

/* Skips white space, comments and backslash-newlines. */
static void c_skip_space(struct c_lexer *lx)
{
	for (;;) {
		int c = c_at(lx, 0);

		if (c == '\n') {
			lx->pos++;
			lx->line++;
		} else if (is_space(c)) {
			lx->pos++;
		} else if (c == '\\' && c_at(lx, 1) == '\n') {
			lx->pos += 2;
			lx->line++;
		} else if (c == '/' && c_at(lx, 1) == '*') {
			unsigned line = lx->line;
			int closed = 0;

			for (lx->pos += 2; lx->pos < lx->len; lx->pos++) {
				if (lx->buf[lx->pos] == '\n')
					lx->line++;
				if (lx->buf[lx->pos] == '*' &&
				    c_at(lx, 1) == '/') {
					lx->pos += 2;
					closed = 1;
					break;
				}
			}
			if (!closed)
				testannot_add_problem(lx->set, lx->file, line,
						      "", NULL,
						      "comment is not closed");
		} else if (c == '/' && c_at(lx, 1) == '/') {
			for (; lx->pos < lx->len; lx->pos++) {
				if (lx->buf[lx->pos] != '\n')
					continue;
				if (lx->buf[lx->pos - 1] != '\\')
					break;
				lx->line++;
			}
		} else {
			return;
		}
	}
}

/* At '"': one string literal, and those that follow it. */
static void c_read_strings(struct c_lexer *lx)
{
	strbuf_reset(&lx->str);
	while (c_at(lx, 0) == '"') {
		unsigned line = lx->line;
		int closed = 0;

		lx->pos++;
		while (lx->pos < lx->len) {
			int c = c_at(lx, 0), n = c_at(lx, 1);

			if (c == '"') {
				lx->pos++;
				closed = 1;
				break;
			}
			if (c == '\n')
				break;
			if (!c) {
				/* Ignored, as C compilers do: no NUL in str. */
				lx->pos++;
			} else if (c == '\\' && n == '\n') {
				lx->pos += 2;
				lx->line++;
			} else if (c == '\\' && n > 0) {
				if (!is_one_of(n, "\"\\'?"))
					strbuf_addch(&lx->str, c);
				strbuf_addch(&lx->str, n);
				lx->pos += 2;
			} else {
				strbuf_addch(&lx->str, c);
				lx->pos++;
			}
		}
		if (!closed) {
			testannot_add_problem(lx->set, lx->file, line, "",
					      NULL, "quote is not closed");
			return;
		}
		c_skip_space(lx);
	}
}

static enum c_tok c_next(struct c_lexer *lx, unsigned *line)
{
	int c;

	c_skip_space(lx);
	*line = lx->line;
	c = c_at(lx, 0);
	switch (c) {
	case -1:
		return C_EOF;
	case '{':
		lx->pos++;
		return C_LBRACE;
	case ',':
		lx->pos++;
		return C_COMMA;
	case '"':
		c_read_strings(lx);
		return C_STRING;
	case '\'':
		/* A character constant; one left open ends with its line. */
		for (lx->pos++; lx->pos < lx->len; lx->pos++) {
			c = (unsigned char)lx->buf[lx->pos];
			if (c == '\\' && c_at(lx, 1) >= 0 &&
			    c_at(lx, 1) != '\n') {
				lx->pos++;
			} else if (c == '\'') {
				lx->pos++;
				break;
			} else if (c == '\n') {
				break;
			}
		}
		return C_OTHER;
	}
	if (is_alpha(c) || is_digit(c) || c == '_') {
		while ((c = c_at(lx, 0)) >= 0 &&
		       (is_alpha(c) || is_digit(c) || c == '_'))
			lx->pos++;
		return C_OTHER;
	}
	lx->pos++;
	return C_OTHER;
}

static const struct {
	const char *tag;
	enum testannot_kind kind;
} ltp_tags[] = {
	{ "linux-git", TESTANNOT_FIXED_BY },
	{ "linux-stable-git", TESTANNOT_STABLE },
	{ "CVE", TESTANNOT_CVE },
};

static int find_tag(const struct strbuf *s)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(ltp_tags); i++)
		if (s->len == strlen(ltp_tags[i].tag) &&
		    !memcmp(s->buf, ltp_tags[i].tag, s->len))
			return (int)i;
	return -1;
}

/* An annotation: tag ltp_tags[tag] with value, at file:line. */
static void add_tag(struct testannot_set *set, const char *test,
		    const char *file, unsigned line, int tag, const char *value)
{
	struct testannot a;

	memset(&a, 0, sizeof(a));
	a.test = (char *)test;
	a.suite = (char *)ltp_suite;
	a.kind = ltp_tags[tag].kind;
	a.how = (char *)ltp_tags[tag].tag;
	a.sha = (char *)value;
	a.file = (char *)file;
	a.line = line;
	testannot_add_item(set, &a);
}

void testannot_parse_ltp(struct testannot_set *set, const char *test,
			 const char *file, const char *buf, size_t len)
{
	struct c_lexer lx;
	enum { IDLE, BRACE, TAG, COMMA } state = IDLE;
	unsigned line, brace_line = 0;
	enum c_tok t;
	int tag = -1;

	memset(&lx, 0, sizeof(lx));
	lx.buf = buf;
	lx.len = buf ? len : 0;
	lx.line = 1;
	lx.set = set;
	lx.file = file;
	strbuf_init(&lx.str, 0);
	do {
		t = c_next(&lx, &line);
		if (state == TAG && t == C_COMMA) {
			state = COMMA;
			continue;
		}
		if (state == COMMA && t == C_STRING) {
			add_tag(set, test, file, brace_line, tag, lx.str.buf);
			state = IDLE;
			continue;
		}
		if (state == TAG || state == COMMA)
			testannot_add_problem(set, file, brace_line, "tag ",
					      ltp_tags[tag].tag,
					      " without a value");
		if (t == C_LBRACE) {
			state = BRACE;
			brace_line = line;
		} else if (state == BRACE && t == C_STRING &&
			   (tag = find_tag(&lx.str)) >= 0) {
			state = TAG;
		} else {
			state = IDLE;
		}
	} while (t != C_EOF);
	strbuf_release(&lx.str);
}

/*
 * LTP's shell tests that use the shell loader keep their metadata as
 * JSON in a comment block:
 *
 *     # ---
 *     # env
 *     # {
 *     #  "tags": [
 *     #   ["linux-git", "832478cd342ab"],
 *     #   ["CVE", "2099-999"]
 *     #  ]
 *     # }
 *     # ---
 *
 * The lines of the block, without their "#", are scanned for the
 * "tags" array of [name, value] pairs; the names are those of the C
 * tests' .tags.
 */
struct shell_block {
	struct strbuf text;
	unsigned *lines;		/* the file line of each byte of text */
	size_t alloc_lines;
	size_t at;			/* the scanner's position */
};

static void block_add_line(struct shell_block *b, const char *s, size_t len,
			   unsigned line)
{
	size_t i, need = b->text.len + len + 1;

	if (need >= b->alloc_lines) {
		b->alloc_lines = 2 * need;
		b->lines = xrealloc(b->lines, b->alloc_lines * sizeof(*b->lines));
	}
	for (i = 0; i <= len; i++)
		b->lines[b->text.len + i] = line;
	strbuf_add(&b->text, s, len);
	strbuf_addch(&b->text, '\n');
}

static void block_skip_space(struct shell_block *b)
{
	while (b->at < b->text.len && strchr(" \t\r\n", b->text.buf[b->at]))
		b->at++;
}

static int block_take(struct shell_block *b, char c)
{
	block_skip_space(b);
	if (b->at < b->text.len && b->text.buf[b->at] == c) {
		b->at++;
		return 1;
	}
	return 0;
}

/* A JSON string (simple escapes) into out; 0 when there is none. */
static int block_string(struct shell_block *b, struct strbuf *out)
{
	block_skip_space(b);
	strbuf_reset(out);
	if (b->at >= b->text.len || b->text.buf[b->at] != '"')
		return 0;
	for (b->at++; b->at < b->text.len; b->at++) {
		char c = b->text.buf[b->at];

		if (c == '"') {
			b->at++;
			return 1;
		}
		if (c == '\n')
			return 0;
		if (c == '\\' && b->at + 1 < b->text.len)
			c = b->text.buf[++b->at];
		strbuf_addch(out, c);
	}
	return 0;
}

static unsigned block_line(const struct shell_block *b)
{
	size_t at = b->at < b->text.len ? b->at : b->text.len;

	return b->text.len ? b->lines[at ? at - (at == b->text.len) : 0] : 0;
}

/* The tags of one env block. */
static void block_tags(struct testannot_set *set, struct shell_block *b,
		       const char *test, const char *file)
{
	struct strbuf name = STRBUF_INIT, value = STRBUF_INIT;
	const char *key = strstr(b->text.buf, "\"tags\"");
	unsigned line;
	int tag;

	if (!key)
		goto out;
	b->at = (size_t)(key - b->text.buf) + 6;
	line = block_line(b);
	if (!block_take(b, ':') || !block_take(b, '[')) {
		testannot_add_problem(set, file, line, "", "tags",
				      " of the env block is not an array of "
				      "[name, value] pairs");
		goto out;
	}
	if (block_take(b, ']'))
		goto out;
	do {
		block_skip_space(b);
		line = block_line(b);
		if (!block_take(b, '[') || !block_string(b, &name) ||
		    !block_take(b, ',') || !block_string(b, &value) ||
		    !block_take(b, ']')) {
			testannot_add_problem(set, file, line, "", "tags",
					      " of the env block is not an array "
					      "of [name, value] pairs");
			goto out;
		}
		if ((tag = find_tag(&name)) >= 0)
			add_tag(set, test, file, line, tag, value.buf);
	} while (block_take(b, ','));
	if (!block_take(b, ']'))
		testannot_add_problem(set, file, block_line(b), "", "tags",
				      " of the env block is not closed");
out:
	strbuf_release(&name);
	strbuf_release(&value);
}

/* The text of a comment line after "#" and one blank, or NULL. */
static const char *comment(const char *s, size_t len, size_t *out_len)
{
	if (!len || *s != '#')
		return NULL;
	s++;
	len--;
	if (len && *s == ' ')
		s++, len--;
	*out_len = len;
	return s;
}

int testannot_parse_ltp_shell(struct testannot_set *set, const char *test,
			      const char *file, const char *buf, size_t len)
{
	struct shell_block b = { STRBUF_INIT, NULL, 0, 0 };
	const char *p = buf, *end = buf + (buf ? len : 0), *nl, *text;
	enum { OUTSIDE, OPENED, ENV, OTHER } state = OUTSIDE;
	unsigned line = 0;
	size_t n, tlen;
	int found = 0;

	for (; p < end; p = nl ? nl + 1 : end) {
		nl = memchr(p, '\n', (size_t)(end - p));
		n = nl ? (size_t)(nl - p) : (size_t)(end - p);
		line++;
		text = comment(p, n, &tlen);
		while (text && tlen && (text[tlen - 1] == ' ' ||
					text[tlen - 1] == '\t' ||
					text[tlen - 1] == '\r'))
			tlen--;
		if (!text) {
			state = OUTSIDE;
			continue;
		}
		if (tlen == 3 && !memcmp(text, "---", 3)) {
			if (state == ENV) {
				block_tags(set, &b, test, file);
				found = 1;
			}
			state = state == OUTSIDE ? OPENED : OUTSIDE;
			strbuf_reset(&b.text);
			continue;
		}
		if (state == OPENED) {
			state = tlen == 3 && !memcmp(text, "env", 3) ? ENV : OTHER;
			continue;
		}
		if (state == ENV)
			block_add_line(&b, text, tlen, line);
	}
	strbuf_release(&b.text);
	free(b.lines);
	return found;
}
