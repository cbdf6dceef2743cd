/*
 * What a reply to a review mail says (review.h): an ack, a NAK, a
 * deferral and its condition, or nothing to decide; and the lines of a
 * checklist and of its answers.
 */
#include "stages/review.h"
#include "base/ascii.h"
#include "stages/posted.h"
#include "store/ledger.h"
#include "base/strbuf.h"
#include "base/util.h"

#include <stdlib.h>
#include <string.h>

void review_said_release(struct review_said *s)
{
	free(s->line);
	free(s->until_tag);
	memset(s, 0, sizeof(*s));
}

/* Whether s begins with the word w (any case), *end past it. */
static int word_is(const char *s, const char *w, const char **end)
{
	size_t len = strlen(w);

	if (ascii_strncasecmp(s, w, len) || is_alnum((unsigned char)s[len]))
		return 0;
	*end = s + len;
	return 1;
}

/* Whether tok (len bytes) is a release: "v6.6.9", "6.6.9", "v6.7-rc2". */
static int is_release(const char *tok, size_t len)
{
	size_t i = *tok == 'v' || *tok == 'V', dots = 0;

	if (i >= len || !is_digit((unsigned char)tok[i]))
		return 0;
	for (; i < len && (is_digit((unsigned char)tok[i]) || tok[i] == '.'); i++)
		dots += tok[i] == '.';
	if (i + 3 <= len && !ascii_strncasecmp(tok + i, "-rc", 3)) {
		for (i += 3; i < len && is_digit((unsigned char)tok[i]); i++)
			;
	}
	return i == len && dots && tok[len - 1] != '.';
}

/*
 * The condition of a deferral in text: the first date (YYYY-MM-DD) or
 * release ("v6.6.9", or "6.6.9" for the tag v6.6.9) among its words.
 * Neither leaves out alone.
 */
static void read_condition(const char *text, struct review_said *out)
{
	const char *p = text;

	while (*p) {
		size_t len;
		char *tok;

		while (*p && (is_blank((unsigned char)*p) || *p == '(' ||
			      *p == '"' || *p == '\''))
			p++;
		len = strcspn(p, " \t\"'(),;!?");
		/* A full stop ends a sentence, not a version. */
		while (len && (p[len - 1] == '.' || p[len - 1] == ':'))
			len--;
		tok = xstrndup(p, len);
		if (len == 10 && !ledger_parse_date(tok, &out->until)) {
			free(tok);
			return;
		}
		if (is_release(tok, len)) {
			out->until_tag = *tok == 'v' ? xstrdup(tok) :
				*tok == 'V' ? xstrfmt("v%s", tok + 1) :
				xstrfmt("v%s", tok);
			free(tok);
			return;
		}
		free(tok);
		p += strcspn(p, " \t");
	}
}

/*
 * Whether line (without its leading blanks) defers: "defer ...",
 * "deferred ...", "not yet ...", "postpone ...", "wait for ...",
 * "wait until ..."; *rest past the word.
 */
static int defers(const char *line, const char **rest)
{
	static const char *const words[] = {
		"defer", "deferred", "postpone", "postponed",
	};
	const char *p;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(words); i++)
		if (word_is(line, words[i], rest))
			return 1;
	if (word_is(line, "not", &p)) {
		p += strspn(p, " \t");
		return word_is(p, "yet", rest);
	}
	if (word_is(line, "wait", &p)) {
		p += strspn(p, " \t");
		return word_is(p, "for", rest) || word_is(p, "until", rest) ||
		       word_is(p, "till", rest);
	}
	return 0;
}

/* Whether a line is a greeting ("Hi all,", "Hello Greg,"). */
static int is_greeting(const char *line, size_t len)
{
	return len && len < 40 && (line[len - 1] == ',' || line[len - 1] == '!');
}

void review_read_reply(const char *body, struct review_said *out)
{
	char *text, *line = NULL, *greeting = NULL;
	const char *p, *rest;
	enum posted_review r;

	memset(out, 0, sizeof(*out));
	r = posted_review_of(body, &line);
	if (r == POSTED_NAKED) {
		out->answer = REVIEW_NAK;
		out->line = line;
		return;
	}
	text = posted_reply_text(body);
	for (p = text; *p; ) {
		size_t len = strcspn(p, "\n"), skip = strspn(p, " \t");

		if (!out->line && skip < len && !is_greeting(p + skip, len - skip))
			out->line = xstrndup(p + skip, len - skip);
		else if (!out->line && skip < len) {
			free(greeting);
			greeting = xstrndup(p + skip, len - skip);
		}
		if (skip < len && defers(p + skip, &rest)) {
			char *l = xstrndup(p + skip, len - skip);

			free(out->line);
			out->line = l;
			out->answer = REVIEW_DEFER;
			read_condition(l + (rest - (p + skip)), out);
			break;
		}
		p += len;
		if (*p)
			p++;
	}
	free(text);
	/* A reply that is all greetings ("Hi,", "Thanks!"): its last. */
	if (!out->line)
		out->line = greeting;
	else
		free(greeting);
	if (out->answer == REVIEW_DEFER) {
		free(line);
		return;
	}
	if (r == POSTED_ACKED || r == POSTED_REVIEWED) {
		free(out->line);
		out->answer = REVIEW_ACK;
		out->line = line;
		return;
	}
	free(line);
	if (!out->line)
		out->line = xstrdup("(no text of its own)");
}

int review_checklist_answer(const char *line, unsigned *n,
			    struct review_said *out)
{
	static const struct {
		const char *word;
		enum review_answer answer;
	} words[] = {
		{ "y", REVIEW_ACK }, { "yes", REVIEW_ACK }, { "ack", REVIEW_ACK },
		{ "acked", REVIEW_ACK }, { "ok", REVIEW_ACK },
		{ "n", REVIEW_NAK }, { "no", REVIEW_NAK }, { "nak", REVIEW_NAK },
		{ "nack", REVIEW_NAK }, { "d", REVIEW_DEFER },
	};
	const char *p = line + strspn(line, " \t"), *start = p, *rest = NULL;
	unsigned long num = 0;
	size_t i, len;

	memset(out, 0, sizeof(*out));
	if (*p == '#')
		p++;
	if (!is_digit((unsigned char)*p))
		return 0;
	while (is_digit((unsigned char)*p) && num < 100000)
		num = num * 10 + (unsigned long)(*p++ - '0');
	if (*p == '.' || *p == ')' || *p == ':')
		p++;
	if (!is_blank((unsigned char)*p) || !num || num >= 100000)
		return 0;
	p += strspn(p, " \t");
	if (defers(p, &rest)) {
		out->answer = REVIEW_DEFER;
	} else {
		for (i = 0; i < ARRAY_SIZE(words) && !rest; i++)
			if (word_is(p, words[i].word, &rest))
				out->answer = words[i].answer;
		if (!rest)
			return 0;
	}
	if (out->answer == REVIEW_DEFER)
		read_condition(rest, out);
	len = strcspn(start, "\n");
	while (len && is_blank((unsigned char)start[len - 1]))
		len--;
	out->line = xstrndup(start, len);
	*n = (unsigned)num;
	return 1;
}

int review_checklist_item(const char *line, unsigned *n, char hex[13])
{
	const char *p = line + strspn(line, " \t");
	unsigned long num = 0;

	if (!is_digit((unsigned char)*p))
		return 0;
	while (is_digit((unsigned char)*p) && num < 100000)
		num = num * 10 + (unsigned long)(*p++ - '0');
	if (!num || num >= 100000 || *p != '.' || p[1] != ' ' ||
	    !is_hex(p + 2, 12) || p[14] != ' ')
		return 0;
	memcpy(hex, p + 2, 12);
	hex[12] = '\0';
	*n = (unsigned)num;
	return 1;
}
