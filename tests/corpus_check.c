/*
 * corpus_check: runs the message parser over a file of real commit
 * messages (JSON Lines with "commit" and "message" strings) and checks
 * that every Fixes: line and every Cc: line that mentions stable was
 * either parsed or diagnosed.
 *
 *     corpus_check FILE.jsonl
 *
 * Prints each diagnostic as "commit:line: message" and each line the
 * parser neither understood nor described as "commit:line: unaccounted
 * line '...'", then a summary.  Exits 1 if any line went unaccounted or
 * the file is not valid JSON Lines, 129 on bad usage.
 */
#include "base/error.h"
#include "formats/message.h"
#include "base/strbuf.h"
#include "base/util.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

struct totals {
	size_t messages, trailers, fixes, stable, hints, noautosel, diags;
	size_t links, link_ids;
	size_t passed, failed;
};

static int hexval(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

static int read_u16(const char *p, unsigned *out)
{
	unsigned v = 0;
	int i;

	for (i = 0; i < 4; i++) {
		int d = hexval((unsigned char)p[i]);

		if (d < 0)
			return -1;
		v = v * 16 + (unsigned)d;
	}
	*out = v;
	return 0;
}

static void add_utf8(struct strbuf *sb, unsigned cp)
{
	if (cp < 0x80) {
		strbuf_addch(sb, (int)cp);
	} else if (cp < 0x800) {
		strbuf_addch(sb, (int)(0xc0 | (cp >> 6)));
		strbuf_addch(sb, (int)(0x80 | (cp & 0x3f)));
	} else if (cp < 0x10000) {
		strbuf_addch(sb, (int)(0xe0 | (cp >> 12)));
		strbuf_addch(sb, (int)(0x80 | ((cp >> 6) & 0x3f)));
		strbuf_addch(sb, (int)(0x80 | (cp & 0x3f)));
	} else {
		strbuf_addch(sb, (int)(0xf0 | (cp >> 18)));
		strbuf_addch(sb, (int)(0x80 | ((cp >> 12) & 0x3f)));
		strbuf_addch(sb, (int)(0x80 | ((cp >> 6) & 0x3f)));
		strbuf_addch(sb, (int)(0x80 | (cp & 0x3f)));
	}
}

/*
 * Decodes the JSON string starting at *p (on its opening quote) into
 * out and moves *p past the closing quote.  Lone surrogates become
 * U+FFFD.  Returns 0, or -1 on a malformed string.
 */
static int decode_string(const char **p, struct strbuf *out)
{
	const char *s = *p;

	if (*s++ != '"')
		return -1;
	for (;;) {
		unsigned cp, lo;
		char c = *s++;

		if (!c)
			return -1;
		if (c == '"')
			break;
		if (c != '\\') {
			strbuf_addch(out, c);
			continue;
		}
		switch (*s++) {
		case '"': strbuf_addch(out, '"'); break;
		case '\\': strbuf_addch(out, '\\'); break;
		case '/': strbuf_addch(out, '/'); break;
		case 'b': strbuf_addch(out, '\b'); break;
		case 'f': strbuf_addch(out, '\f'); break;
		case 'n': strbuf_addch(out, '\n'); break;
		case 'r': strbuf_addch(out, '\r'); break;
		case 't': strbuf_addch(out, '\t'); break;
		case 'u':
			if (read_u16(s, &cp))
				return -1;
			s += 4;
			if (cp >= 0xd800 && cp < 0xdc00 && s[0] == '\\' &&
			    s[1] == 'u' && !read_u16(s + 2, &lo) &&
			    lo >= 0xdc00 && lo < 0xe000) {
				cp = 0x10000 + ((cp - 0xd800) << 10) +
				     (lo - 0xdc00);
				s += 6;
			} else if (cp >= 0xd800 && cp < 0xe000) {
				cp = 0xfffd;
			}
			add_utf8(out, cp);
			break;
		default:
			return -1;
		}
	}
	*p = s;
	return 0;
}

static const char *skip_blanks(const char *p)
{
	while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r')
		p++;
	return p;
}

/* Skips a number, true, false or null. */
static int skip_scalar(const char **p)
{
	const char *s = *p;

	while (*s && !strchr(",} \t\r\n", *s))
		s++;
	if (s == *p)
		return -1;
	*p = s;
	return 0;
}

/*
 * Reads one flat JSON object and keeps the strings named "commit" and
 * "message".  Returns 0, or -1 if the line is not such an object.
 */
static int parse_record(const char *line, struct strbuf *commit,
			struct strbuf *msg)
{
	struct strbuf key = STRBUF_INIT, val = STRBUF_INIT;
	const char *p = skip_blanks(line);
	int ret = -1;

	if (*p++ != '{')
		goto out;
	p = skip_blanks(p);
	if (*p == '}')
		goto done;
	for (;;) {
		strbuf_reset(&key);
		strbuf_reset(&val);
		if (decode_string(&p, &key))
			goto out;
		p = skip_blanks(p);
		if (*p++ != ':')
			goto out;
		p = skip_blanks(p);
		if (*p == '"') {
			if (decode_string(&p, &val))
				goto out;
			if (!strcmp(key.buf, "commit")) {
				strbuf_reset(commit);
				strbuf_add(commit, val.buf, val.len);
			} else if (!strcmp(key.buf, "message")) {
				strbuf_reset(msg);
				strbuf_add(msg, val.buf, val.len);
			}
		} else if (skip_scalar(&p)) {
			goto out;
		}
		p = skip_blanks(p);
		if (*p == '}')
			break;
		if (*p++ != ',')
			goto out;
		p = skip_blanks(p);
	}
done:
	p = skip_blanks(p + 1);
	ret = *p ? -1 : 0;
out:
	strbuf_release(&key);
	strbuf_release(&val);
	return ret;
}

static int starts_ci(const char *p, size_t len, const char *word)
{
	size_t n = strlen(word);

	return len >= n && !ascii_strncasecmp(p, word, n);
}

static int contains_ci(const char *p, size_t len, const char *word)
{
	size_t n = strlen(word), i;

	for (i = 0; i + n <= len; i++)
		if (!ascii_strncasecmp(p + i, word, n))
			return 1;
	return 0;
}

static int diagnosed(const struct message *m, unsigned lineno)
{
	size_t i;

	for (i = 0; i < m->nr_diags; i++)
		if (m->diags[i].lineno == lineno)
			return 1;
	return 0;
}

static int has_fixes(const struct message *m, unsigned lineno)
{
	size_t i;

	for (i = 0; i < m->nr_fixes; i++)
		if (m->fixes[i].lineno == lineno)
			return 1;
	return 0;
}

static int has_stable(const struct message *m, unsigned lineno)
{
	size_t i;

	for (i = 0; i < m->nr_stable; i++)
		if (m->stable[i].lineno == lineno)
			return 1;
	return 0;
}

/*
 * Walks the lines of the message on its own (the subject aside) and
 * returns how many Fixes: or stable Cc: lines the parser missed.
 */
static size_t check_lines(const char *commit, const char *text, size_t len,
			  const struct message *m)
{
	size_t start = 0, i, missed = 0;
	unsigned lineno = 0;
	int seen_subject = 0;

	for (i = 0; i <= len; i++) {
		const char *p;
		size_t n;

		if (i < len && text[i] != '\n' && text[i] != '\r')
			continue;
		p = text + start;
		n = i - start;
		lineno++;
		if (i < len && text[i] == '\r' && i + 1 < len &&
		    text[i + 1] == '\n')
			i++;
		start = i + 1;
		while (n && (*p == ' ' || *p == '\t')) {
			p++;
			n--;
		}
		if (!seen_subject) {
			seen_subject = n > 0;
			continue;
		}
		if (starts_ci(p, n, "fixes:")) {
			if (has_fixes(m, lineno) || diagnosed(m, lineno))
				continue;
		} else if (starts_ci(p, n, "cc:") && contains_ci(p, n, "stable")) {
			if (has_stable(m, lineno) || diagnosed(m, lineno))
				continue;
		} else {
			continue;
		}
		printf("%s:%u: unaccounted line '%.*s'\n", commit, lineno,
		       (int)n, p);
		missed++;
	}
	return missed;
}

/*
 * The Link: trailers: a URL of the lists' archives (lore, lkml,
 * msgid.link) must give the message-id the list archives look up;
 * returns how many did not (printed).
 */
static size_t check_links(struct totals *t, const char *commit,
			  const struct message *m)
{
	static const char *const archives[] = {
		"lore.kernel.org/", "lkml.kernel.org/", "msgid.link/"
	};
	const struct trailer *tr;
	size_t pos = 0, missed = 0, i;

	while ((tr = message_trailer_next(m, "Link", &pos))) {
		char *id = message_link_id(tr->val);

		t->links++;
		if (id) {
			t->link_ids++;
			free(id);
			continue;
		}
		for (i = 0; i < ARRAY_SIZE(archives); i++)
			if (strstr(tr->val, archives[i]))
				break;
		if (i < ARRAY_SIZE(archives)) {
			printf("%s: Link: no message-id in '%s'\n", commit, tr->val);
			missed++;
		}
	}
	return missed;
}

static void count(struct totals *t, const struct message *m)
{
	size_t i;

	t->messages++;
	t->trailers += m->nr_trailers;
	t->fixes += m->nr_fixes;
	t->stable += m->nr_stable;
	t->diags += m->nr_diags;
	for (i = 0; i < m->nr_stable; i++) {
		if (m->stable[i].hint_major >= 0)
			t->hints++;
		if (m->stable[i].noautosel)
			t->noautosel++;
	}
}

int main(int argc, char **argv)
{
	struct strbuf commit = STRBUF_INIT, text = STRBUF_INIT;
	struct totals t;
	struct message m;
	char *line = NULL;
	size_t cap = 0, lineno = 0, i;
	int bad = 0;
	FILE *fp;

	error_progname = "corpus_check";
	if (argc != 2) {
		fprintf(stderr, "usage: corpus_check FILE.jsonl\n");
		return 129;
	}
	fp = fopen(argv[1], "r");
	if (!fp) {
		error("cannot open '%s': %s", argv[1], strerror(errno));
		return 1;
	}
	memset(&t, 0, sizeof(t));
	message_init(&m);
	while (getline(&line, &cap, fp) >= 0) {
		lineno++;
		if (!*skip_blanks(line))
			continue;
		strbuf_reset(&commit);
		strbuf_reset(&text);
		if (parse_record(line, &commit, &text)) {
			error("%s:%zu: not a JSON object with string values",
			      argv[1], lineno);
			bad = 1;
			t.failed++;
			continue;
		}
		message_parse(&m, text.buf, text.len);
		count(&t, &m);
		for (i = 0; i < m.nr_diags; i++)
			printf("%s:%u: %s\n", commit.buf, m.diags[i].lineno,
			       m.diags[i].msg);
		if (check_lines(commit.buf, text.buf, text.len, &m) +
		    check_links(&t, commit.buf, &m)) {
			bad = 1;
			t.failed++;
		} else {
			t.passed++;
		}
		message_release(&m);
	}
	if (ferror(fp)) {
		error("cannot read '%s': %s", argv[1], strerror(errno));
		bad = 1;
	}
	fclose(fp);
	free(line);
	strbuf_release(&commit);
	strbuf_release(&text);

	printf("messages %zu, trailers %zu, fixes %zu, stable %zu "
	       "(hints %zu, noautosel %zu), diags %zu\n",
	       t.messages, t.trailers, t.fixes, t.stable, t.hints,
	       t.noautosel, t.diags);
	printf("Link: trailers %zu, of which give a message-id %zu\n", t.links,
	       t.link_ids);
	printf("%zu passed, %zu failed\n", t.passed, t.failed);
	return bad;
}
