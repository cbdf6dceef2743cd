/*
 * The commit message parser (message.h): lines, trailers and reverts.
 * The Fixes: and Cc: stable tags are read in message-tags.c, the
 * upstream ids of a backport by the rules in message-backports.c.
 */
#include "formats/message.h"
#include "formats/message-internal.h"
#include "base/ascii.h"
#include "base/strbuf.h"
#include "base/util.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/*
 * The parser works on an array of line spans (pointers into the text,
 * line ends excluded) and makes a fixed number of passes over it, each
 * looking at a bounded neighbourhood of a line, so that its cost grows
 * with the length of the message and nothing else.
 */
struct span {
	const char *p;
	size_t len;
};

/*
 * Trailer keys recognised at the start of any line of the body.  Other
 * "Key: value" lines count only inside the final trailer block.
 */
static const char *const known_keys[] = {
	"Acked-by",
	"Analysed-by",
	"Analyzed-by",
	"Bisected-by",
	"Cc",
	"Closes",
	"Co-authored-by",
	"Co-developed-by",
	"Debugged-by",
	"Depends-on",
	"Diagnosed-by",
	"Fixes",
	"Helped-by",
	"Link",
	"Message-ID",
	"Nacked-by",
	"Noticed-by",
	"Originally-by",
	"Originally-from",
	"Reported-and-tested-by",
	"Reported-by",
	"Requested-by",
	"Reviewed-and-tested-by",
	"Reviewed-by",
	"Signed-off-by",
	"Stable-dep-of",
	"Suggested-by",
	"Tested-by",
};

/* Lines scanned past an unclosed Fixes: subject, at most. */
#define FIXES_WRAP_LINES 2

static struct span span_trim(struct span s)
{
	while (s.len && is_ws((unsigned char)*s.p)) {
		s.p++;
		s.len--;
	}
	while (s.len && is_ws((unsigned char)s.p[s.len - 1]))
		s.len--;
	return s;
}

static size_t span_indent(struct span s)
{
	size_t i = 0;

	while (i < s.len && is_ws((unsigned char)s.p[i]))
		i++;
	return i;
}

static int span_blank(struct span s)
{
	return span_indent(s) == s.len;
}

void add_diag(struct message *m, unsigned lineno, const char *fmt, ...)
{
	va_list ap;

	ALLOC_GROW(m->diags, m->nr_diags, m->alloc_diags);
	m->diags[m->nr_diags].lineno = lineno;
	va_start(ap, fmt);
	m->diags[m->nr_diags].msg = xstrvfmt(fmt, ap);
	va_end(ap);
	m->nr_diags++;
}

/* Lines end at "\n", "\r\n" or a lone "\r". */
static void split_lines(const char *text, size_t len,
			struct span **lines, size_t *nr)
{
	size_t alloc = 0, start = 0, i;

	*lines = NULL;
	*nr = 0;
	for (i = 0; i <= len; i++) {
		if (i < len && text[i] != '\n' && text[i] != '\r')
			continue;
		if (i == len && start == len)
			break;
		ALLOC_GROW(*lines, *nr, alloc);
		(*lines)[*nr].p = text + start;
		(*lines)[*nr].len = i - start;
		(*nr)++;
		if (i < len && text[i] == '\r' && i + 1 < len &&
		    text[i + 1] == '\n')
			i++;
		start = i + 1;
	}
}

/* --- trailer lines -------------------------------------------------- */

static int is_known_key(const char *p, size_t len)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(known_keys); i++)
		if (strlen(known_keys[i]) == len &&
		    !ascii_strncasecmp(p, known_keys[i], len))
			return 1;
	return 0;
}

struct key_line {
	size_t key_off, key_len;	/* the key, within the line */
	size_t val_off;			/* the value starts here */
	int known;			/* one of known_keys[] */
	int dashed;			/* "Word-word", not a single word */
};

/*
 * Where a line stands: in the body, or in a trailer block that has a
 * known trailer (any key counts there) or has none ("Word-word" keys
 * count, single words like "cifsd: release 3.3.2" do not).
 */
enum place {
	IN_BODY,
	IN_BLOCK_DASHED,
	IN_BLOCK
};

/*
 * Recognises "Key: value" at the start of a line, after any indent.  A
 * known key may be followed by blanks before the colon and needs
 * nothing after it ("Fixes:abc", "Cc :x"); any other key must be a
 * word of letters, digits and dashes followed by ": " and a value,
 * which keeps "https://..." and "Call Trace:" out.
 */
static int parse_key_line(struct span l, struct key_line *kl)
{
	size_t i = span_indent(l), k, j;

	if (i >= l.len || !is_alpha((unsigned char)l.p[i]))
		return 0;
	for (k = i; k < l.len && (is_alnum((unsigned char)l.p[k]) ||
				  l.p[k] == '-'); k++)
		;
	kl->key_off = i;
	kl->key_len = k - i;
	kl->known = is_known_key(l.p + i, k - i);
	kl->dashed = memchr(l.p + i, '-', k - i) != NULL;
	j = k;
	if (kl->known)
		while (j < l.len && is_ws((unsigned char)l.p[j]))
			j++;
	if (j >= l.len || l.p[j] != ':')
		return 0;
	kl->val_off = j + 1;
	if (kl->known)
		return 1;
	if (kl->val_off >= l.len || !is_ws((unsigned char)l.p[kl->val_off]))
		return 0;
	return !span_blank((struct span){ l.p + kl->val_off,
					  l.len - kl->val_off });
}

/*
 * Whether line l is a trailer: a known key anywhere, another key at
 * the left margin of the trailer block.
 */
static int trailer_line(struct span l, enum place where, struct key_line *kl)
{
	if (!parse_key_line(l, kl))
		return 0;
	if (kl->known)
		return 1;
	if (kl->key_off)
		return 0;
	return where == IN_BLOCK || (where == IN_BLOCK_DASHED && kl->dashed);
}

/*
 * The trailer block is the end of the last paragraph of the body: it
 * starts at the first trailer after the prose that leads up to the
 * first known trailer, and takes "[name: note]" annotations (possibly
 * wrapped), indented continuations and the odd stray line.  With a known trailer in the paragraph any key counts; without
 * one, only "Word-word:" keys do and the paragraph must hold nothing
 * else.  Returns the first line of the block (`nr` if there is none)
 * and sets *where to the kind of block.
 */
static size_t find_trailer_block(const struct span *lines, size_t nr,
				 size_t subject, enum place *where)
{
	size_t end = nr, start, i, first = nr;
	int prose = 0, note = 0, seen_known = 0;
	struct key_line kl;

	*where = IN_BLOCK_DASHED;
	while (end > subject + 1 && span_blank(lines[end - 1]))
		end--;
	start = end;
	while (start > subject + 1 && !span_blank(lines[start - 1]))
		start--;
	if (start >= end || start <= subject + 1)
		return nr;
	for (i = start; i < end; i++)
		if (parse_key_line(lines[i], &kl) && kl.known)
			*where = IN_BLOCK;
	for (i = start; i < end; i++) {
		struct span t = span_trim(lines[i]);
		int is_trailer = trailer_line(lines[i], *where, &kl);

		if (note && !(is_trailer && kl.known)) {
			note = !memchr(t.p, ']', t.len);
			continue;
		}
		note = 0;
		if (is_trailer) {
			if (first == nr)
				first = i;
			seen_known |= kl.known;
		} else if (t.p[0] == '[') {
			note = !memchr(t.p, ']', t.len);
		} else if (!span_indent(lines[i])) {
			prose = 1;
			if (!seen_known)
				first = nr;
		}
	}
	if (prose && *where != IN_BLOCK)
		return nr;
	return first;
}

/*
 * A Fixes: value whose subject is still open: an unmatched "(" or an
 * odd number of double quotes.
 */
static int fixes_unclosed(const char *val)
{
	int depth = 0, quotes = 0;

	for (; *val; val++) {
		if (*val == '(')
			depth++;
		else if (*val == ')' && depth)
			depth--;
		else if (*val == '"')
			quotes++;
	}
	return depth || (quotes & 1);
}

static void add_trailer(struct message *m, struct span l,
			const struct key_line *kl, struct strbuf *val,
			unsigned lineno)
{
	struct trailer *t;

	ALLOC_GROW(m->trailers, m->nr_trailers, m->alloc_trailers);
	t = &m->trailers[m->nr_trailers++];
	t->key = xstrndup(l.p + kl->key_off, kl->key_len);
	t->val = strbuf_detach(val, NULL);
	t->lineno = lineno;
}

/*
 * Collects the trailers of lines [body, nr).  A trailer in the block
 * takes the indented lines that follow it as continuations; a Fixes:
 * anywhere whose subject is left open takes the next line or two.
 */
static void collect_trailers(struct message *m, const struct span *lines,
			     size_t nr, size_t body, size_t block,
			     enum place block_place, unsigned char *taken)
{
	struct strbuf val = STRBUF_INIT;
	int in_note = 0;
	size_t i, j;

	for (i = body; i < nr; i++) {
		enum place where = i >= block ? block_place : IN_BODY;
		struct key_line kl, next;
		struct span l = lines[i], t = span_trim(l);
		int is_fixes, is_trailer, wrapped = 0;

		is_trailer = trailer_line(l, where, &kl);
		if (in_note && !(is_trailer && kl.known)) {
			/* Inside "[djwong: note]", which may be wrapped. */
			in_note = !span_blank(l) && !memchr(t.p, ']', t.len);
			continue;
		}
		in_note = 0;
		if (!is_trailer) {
			if (where != IN_BODY && t.len && t.p[0] == '[')
				in_note = !memchr(t.p, ']', t.len);
			continue;
		}

		strbuf_reset(&val);
		t = span_trim((struct span){ l.p + kl.val_off,
					     l.len - kl.val_off });
		strbuf_add(&val, t.p, t.len);
		is_fixes = kl.key_len == 5 &&
			   !ascii_strncasecmp(l.p + kl.key_off, "fixes", 5);
		for (j = i + 1; j < nr; j++) {
			struct span c = lines[j];
			enum place where_c = j >= block ? block_place : IN_BODY;

			if (span_blank(c) || trailer_line(c, where_c, &next))
				break;
			if (where_c != IN_BODY && span_indent(c))
				;
			else if (is_fixes && wrapped < FIXES_WRAP_LINES &&
				 fixes_unclosed(val.buf))
				wrapped++;
			else
				break;
			c = span_trim(c);
			if (val.len)
				strbuf_addch(&val, ' ');
			strbuf_add(&val, c.p, c.len);
		}
		add_trailer(m, l, &kl, &val, (unsigned)i + 1);
		memset(taken + i, 1, j - i);
		i = j - 1;
	}
	strbuf_release(&val);
}

/* --- reverts --------------------------------------------------------- */

/* Skips blanks, then `word` (without case); NULL if it is not there. */
static const char *skip_word(const char *p, const char *end, const char *word)
{
	while (p < end && is_ws((unsigned char)*p))
		p++;
	if (!starts_with_ci(p, (size_t)(end - p), word))
		return NULL;
	return p + strlen(word);
}

/*
 * Where the first sentence of p (len bytes) ends: after the first '.'
 * followed by a blank or the end, outside quotes and parentheses (a
 * quoted subject may hold a full stop); len when there is none.
 */
static size_t first_sentence_len(const char *p, size_t len)
{
	int depth = 0, quoted = 0;
	size_t i;

	for (i = 0; i < len; i++) {
		if (p[i] == '"')
			quoted = !quoted;
		else if (p[i] == '(' && !quoted)
			depth++;
		else if (p[i] == ')' && !quoted && depth)
			depth--;
		else if (p[i] == '.' && !quoted && !depth &&
			 (i + 1 == len || is_ws((unsigned char)p[i + 1])))
			return i + 1;
	}
	return len;
}

char *message_revert_reason(const struct message *m,
			    const struct ruleset *rs)
{
	char *text = message_text_without_backports(m->text ? m->text : "", rs);
	struct strbuf sb = STRBUF_INIT;
	const char *p = text + strspn(text, "\n");

	while (*p) {
		const char *end = strstr(p, "\n\n");
		size_t len = end ? (size_t)(end - p) : strlen(p), i, skip = 0;

		/* git's line, and what the author added after it. */
		if (starts_with_ci(p, len, "This reverts commit"))
			skip = first_sentence_len(p, len);
		for (i = skip; i < len; i++)
			if (p[i] == '\n' || p[i] == '\t')
				strbuf_addch(&sb, ' ');
			else
				strbuf_addch(&sb, p[i]);
		strbuf_trim(&sb);
		if (sb.len)
			break;
		p += len;
		p += strspn(p, "\n");
	}
	free(text);
	if (!sb.len) {
		strbuf_release(&sb);
		return NULL;
	}
	if (sb.len > 300) {
		size_t cut = 297;

		/* Not inside a UTF-8 sequence. */
		while (cut && ((unsigned char)sb.buf[cut] & 0xc0) == 0x80)
			cut--;
		strbuf_setlen(&sb, cut);
		strbuf_addstr(&sb, "...");
	}
	return strbuf_detach(&sb, NULL);
}

/*
 * Where the reverted subject starts in a revert's subject, after the
 * opening quote of Revert "subject", also after a subsystem prefix
 * ("xfs: Revert "...""); NULL when it is not a revert's.
 */
static const char *revert_quote(const char *subject)
{
	const char *p;

	for (p = subject; p; ) {
		if (!ascii_strncasecmp(p, "revert", 6) &&
		    *skip_ws(p + 6) == '"')
			return skip_ws(p + 6) + 1;
		p = strstr(p, ": ");
		if (p)
			p = skip_ws(p + 1);
	}
	return NULL;
}

int message_subject_is_revert(const char *subject)
{
	return revert_quote(subject) != NULL;
}

/*
 * The reverted subject is the text between the first and the last
 * quote, so Revert "Revert "x"" gives Revert "x".
 */
static void parse_revert_subject(struct message *m)
{
	const char *open = revert_quote(m->subject), *close;

	if (!open)
		return;
	close = strrchr(open, '"');
	if (!close)
		close = open + strlen(open);
	m->is_revert = 1;
	m->reverts_subject = trimmed_dup(open, (size_t)(close - open));
}

/* This reverts commit <id>. */
static void scan_reverts(struct message *m, struct span l)
{
	struct span t = span_trim(l);
	const char *end = t.p + t.len, *p;
	size_t n;

	if (m->reverts_id || !(p = skip_word(t.p, end, "this reverts commit")))
		return;
	while (p < end && is_ws((unsigned char)*p))
		p++;
	n = hex_run(p, (size_t)(end - p));
	if (n < 4 || n > FULL_HEX || (p + n < end && is_alnum((unsigned char)p[n])))
		return;
	m->is_revert = 1;
	m->reverts_id = lower_dup(p, n);
}

/* --- the message ----------------------------------------------------- */

void message_init(struct message *m)
{
	memset(m, 0, sizeof(*m));
}

int message_parse(struct message *m, const char *text, size_t len)
{
	struct strbuf body = STRBUF_INIT;
	enum place place;
	struct span *lines;
	unsigned char *taken;
	size_t nr, subject, first, block, i;

	message_release(m);
	split_lines(text ? text : "", text ? len : 0, &lines, &nr);

	/* Blank lines before the subject are skipped, like git does. */
	for (subject = 0; subject < nr && span_blank(lines[subject]); subject++)
		;
	if (subject < nr) {
		struct span s = span_trim(lines[subject]);

		m->subject = xstrndup(s.p, s.len);
	} else {
		m->subject = xstrdup("");
	}
	for (first = subject + 1; first < nr && span_blank(lines[first]); first++)
		;
	for (i = first; i < nr; i++) {
		strbuf_add(&body, lines[i].p, lines[i].len);
		strbuf_addch(&body, '\n');
	}
	strbuf_rtrim(&body);
	m->body = strbuf_detach(&body, NULL);

	taken = xcalloc(nr ? nr : 1, 1);
	if (subject < nr) {
		block = find_trailer_block(lines, nr, subject, &place);
		collect_trailers(m, lines, nr, first, block, place, taken);
	}
	/* The body without the trailer lines: what rules on "body" read. */
	for (i = first; i < nr; i++) {
		if (taken[i])
			continue;
		strbuf_add(&body, lines[i].p, lines[i].len);
		strbuf_addch(&body, '\n');
	}
	strbuf_rtrim(&body);
	m->text = strbuf_detach(&body, NULL);
	free(taken);
	for (i = 0; i < m->nr_trailers; i++) {
		const struct trailer *t = &m->trailers[i];

		if (!ascii_strcasecmp(t->key, "fixes"))
			parse_fixes(m, t);
		else if (!ascii_strcasecmp(t->key, "cc"))
			parse_cc(m, t);
		else if (misspelt_fixes(t->key, strlen(t->key)))
			add_diag(m, t->lineno,
				 "Fixes: misspelt key '%s', line not read as a Fixes: tag",
				 t->key);
	}

	parse_revert_subject(m);
	for (i = subject + 1; i < nr; i++)
		scan_reverts(m, lines[i]);
	free(lines);
	return 0;
}

void message_release(struct message *m)
{
	size_t i;

	free(m->subject);
	free(m->body);
	free(m->text);
	for (i = 0; i < m->nr_trailers; i++) {
		free(m->trailers[i].key);
		free(m->trailers[i].val);
	}
	free(m->trailers);
	for (i = 0; i < m->nr_fixes; i++) {
		free(m->fixes[i].id);
		free(m->fixes[i].subject);
	}
	free(m->fixes);
	for (i = 0; i < m->nr_stable; i++) {
		free(m->stable[i].addr);
		free(m->stable[i].comment);
		free(m->stable[i].prereq_id);
		free(m->stable[i].prereq_subject);
	}
	free(m->stable);
	free_string_array(m->upstream, m->nr_upstream);
	free(m->reverts_id);
	free(m->reverts_subject);
	for (i = 0; i < m->nr_diags; i++)
		free(m->diags[i].msg);
	free(m->diags);
	message_init(m);
}

const struct trailer *message_trailer_next(const struct message *m,
					   const char *key, size_t *pos)
{
	while (*pos < m->nr_trailers) {
		const struct trailer *t = &m->trailers[(*pos)++];

		if (!ascii_strcasecmp(t->key, key))
			return t;
	}
	return NULL;
}

int message_cc_stable(const struct message *m)
{
	size_t i;

	for (i = 0; i < m->nr_stable; i++)
		if (!m->stable[i].noautosel)
			return 1;
	return 0;
}

int message_noautosel(const struct message *m)
{
	size_t i;

	for (i = 0; i < m->nr_stable; i++)
		if (m->stable[i].noautosel)
			return 1;
	return 0;
}

static int hex_value(int ch)
{
	if (ch >= '0' && ch <= '9')
		return ch - '0';
	if ((ch | 0x20) >= 'a' && (ch | 0x20) <= 'f')
		return (ch | 0x20) - 'a' + 10;
	return -1;
}

char *message_link_id(const char *url)
{
	const char *p = strstr(url, "://");
	struct strbuf id = STRBUF_INIT;

	if (!p)
		return NULL;
	for (p += 3; (p = strchr(p, '/')); ) {
		size_t n = strcspn(++p, "/ >?#"), i;

		strbuf_reset(&id);
		for (i = 0; i < n; i++) {
			int hi, lo;

			if (p[i] == '%' && i + 2 < n &&
			    (hi = hex_value((unsigned char)p[i + 1])) >= 0 &&
			    (lo = hex_value((unsigned char)p[i + 2])) >= 0) {
				strbuf_addch(&id, hi * 16 + lo);
				i += 2;
			} else {
				strbuf_addch(&id, p[i]);
			}
		}
		if (id.len > 2 && id.buf[0] == '<' && id.buf[id.len - 1] == '>') {
			memmove(id.buf, id.buf + 1, id.len - 2);
			strbuf_setlen(&id, id.len - 2);
		}
		if (memchr(id.buf, '@', id.len) && id.buf[0] != '@' &&
		    !memchr(id.buf, '\0', id.len))
			return strbuf_detach(&id, NULL);
	}
	strbuf_release(&id);
	return NULL;
}
