/*
 * The tags of a commit message that stable cares about, read from its
 * trailers: Fixes: (the commit id and the subject quoted after it) and
 * Cc: stable (the address, and the version hint or prerequisite in its
 * comment).
 */
#include "formats/message-internal.h"

/* --- Fixes: --------------------------------------------------------- */

/*
 * The subject after a Fixes: id: ("subject"), (subject), "subject" or
 * plain text.  Nested quotes end at the first '")', nested parentheses
 * are matched; an unclosed subject runs to the end of the value.
 */
static char *fixes_subject(const char *p)
{
	const char *start, *end;

	p = skip_ws(p);
	if (*p == '(' && *skip_ws(p + 1) == '"') {
		start = skip_ws(p + 1) + 1;
		end = strstr(start, "\")");
		if (!end)
			end = strrchr(start, '"');
		if (!end) {
			end = start + strlen(start);
			if (end > start && end[-1] == ')')
				end--;
		}
	} else if (*p == '(') {
		int depth = 1;

		start = p + 1;
		for (end = start; *end; end++) {
			if (*end == '(')
				depth++;
			else if (*end == ')' && !--depth)
				break;
		}
	} else if (*p == '"') {
		start = p + 1;
		end = strrchr(start, '"');
		if (!end)
			end = start + strlen(start);
	} else {
		while (*p == ':' || *p == '-' || is_ws((unsigned char)*p))
			p++;
		start = p;
		end = start + strlen(start);
		while (end > start && (end[-1] == '.' || end[-1] == ','))
			end--;
	}
	return trimmed_dup(start, (size_t)(end - start));
}

char *message_fixes_subject(const char *p, int quoted_only)
{
	p = skip_ws(p);
	if (quoted_only && *p != '(' && *p != '"')
		return NULL;
	return fixes_subject(p);
}

static int has_digit(const char *p, size_t n)
{
	while (n--)
		if (is_digit((unsigned char)*p++))
			return 1;
	return 0;
}

void parse_fixes(struct message *m, const struct trailer *t)
{
	const char *p = t->val, *after;
	struct fixes_ref *f;
	size_t n;

	if (starts_with_ci(p, strlen(p), "commit") &&
	    (is_ws((unsigned char)p[6]) || p[6] == ':'))
		p = skip_ws(p + 7);
	n = hex_run(p, strlen(p));
	if (n && (is_alnum((unsigned char)p[n]) || p[n] == '_'))
		n = 0;
	after = skip_ws(p + n);
	/*
	 * "Fixes: added a check" starts with a hex word; an id standing
	 * alone must look like one.
	 */
	if (n && *after != '(' && *after != '"' && n < 12 && !has_digit(p, n))
		n = 0;
	if (!n) {
		add_diag(m, t->lineno, "Fixes: no commit id in '%s'", t->val);
		return;
	}
	if (n < 4 || n > FULL_HEX) {
		add_diag(m, t->lineno,
			 "Fixes: commit id '%.*s' has %zu hex digits, expected 4 to 40",
			 (int)n, p, n);
		return;
	}
	ALLOC_GROW(m->fixes, m->nr_fixes, m->alloc_fixes);
	f = &m->fixes[m->nr_fixes++];
	f->id = lower_dup(p, n);
	f->subject = fixes_subject(after);
	f->lineno = t->lineno;
}

/*
 * Non-zero if key (n bytes) is one edit away from "Fixes": "ixes",
 * "Fixed", "Fixess".  Such a trailer is reported, not read as Fixes:.
 */
int misspelt_fixes(const char *key, size_t n)
{
	static const char word[] = "fixes";
	size_t len = sizeof(word) - 1, i = 0;

	if (n + 1 < len || n > len + 1)
		return 0;
	while (i < n && i < len && to_lower((unsigned char)key[i]) == word[i])
		i++;
	if (n == len)
		return i < n && !ascii_strncasecmp(key + i + 1, word + i + 1,
						   len - i - 1);
	if (n > len)
		return !ascii_strncasecmp(key + i + 1, word + i, len - i);
	return !ascii_strncasecmp(key + i, word + i + 1, len - i - 1);
}

/* --- Cc: stable ----------------------------------------------------- */

static int addr_delim(int c)
{
	return !c || is_ws(c) || c == '<' || c == '>' || c == ',' || c == '@' ||
	       c == ';' || c == '"' || c == '(' || c == ')' || c == '#' ||
	       c == '[' || c == ']';
}

/*
 * Finds a stable address (local part "stable" or "stable+tag") in a Cc
 * value.  Sets *addr and *len; returns the text after it, or NULL.
 */
static const char *find_stable_addr(const char *val, const char **addr,
				    size_t *len)
{
	const char *at;

	for (at = strchr(val, '@'); at; at = strchr(at + 1, '@')) {
		const char *s = at, *e = at + 1;

		while (s > val && !addr_delim((unsigned char)s[-1]))
			s--;
		while (!addr_delim((unsigned char)*e))
			e++;
		if ((at - s == 6 || (at - s > 6 && s[6] == '+')) &&
		    !ascii_strncasecmp(s, "stable", 6)) {
			*addr = s;
			*len = (size_t)(e - s);
			return e;
		}
	}
	return NULL;
}

/*
 * Parses "N.N" with optional further ".N", ".x" or ".y" parts and a
 * final "+", after an optional "v".  Returns the end, or NULL if what
 * is there is not a version.
 */
static const char *parse_version(const char *p, int *major, int *minor)
{
	long part[2] = { 0, 0 };
	int i;

	if (*p == 'v' || *p == 'V')
		p++;
	for (i = 0; i < 2; i++) {
		int digits = 0;

		if (i && *p++ != '.')
			return NULL;
		while (is_digit((unsigned char)*p) && digits < 5) {
			part[i] = part[i] * 10 + (*p++ - '0');
			digits++;
		}
		if (!digits || is_digit((unsigned char)*p))
			return NULL;
	}
	while (*p == '.' && (is_digit((unsigned char)p[1]) ||
			     p[1] == 'x' || p[1] == 'X' || p[1] == 'y' ||
			     p[1] == 'Y')) {
		p += 2;
		while (is_digit((unsigned char)*p))
			p++;
	}
	if (*p == '+')
		p++;
	if (*p == '.' && (!p[1] || is_ws((unsigned char)p[1])))
		p++;
	if (*p && !is_ws((unsigned char)*p) && !strchr(",:;)]/-", *p))
		return NULL;
	*major = (int)part[0];
	*minor = (int)part[1];
	return p;
}

static int version_before(int ma, int mi, int ma2, int mi2)
{
	return ma < ma2 || (ma == ma2 && mi < mi2);
}

/*
 * Reads the version hint at the start of a stable comment: "5.10+",
 * "v6.1", "5.15.x", "v6.6.55+, v6.10.14+" (the oldest counts), and the
 * prerequisite form "3.3.x: a1f84a3: sched: Check for idle".  A comment
 * that does not start with a version has no hint.
 */
static void parse_stable_comment(struct message *m, struct stable_tag *st)
{
	const char *c = st->comment, *p, *q;
	size_t n;

	p = c;
	if (p[0] == '>' && p[1] == '=')
		p = skip_ws(p + 2);
	q = (*p == 'v' || *p == 'V') ? p + 1 : p;
	if (!is_digit((unsigned char)*q))
		return;
	p = parse_version(p, &st->hint_major, &st->hint_minor);
	if (!p) {
		add_diag(m, st->lineno, "Cc: garbled stable version hint '%s'",
			 c);
		st->hint_major = st->hint_minor = -1;
		return;
	}
	for (;;) {
		const char *r = skip_ws(p);
		int ma, mi;

		if (*r != ',' && *r != '/')
			break;
		r = parse_version(skip_ws(r + 1), &ma, &mi);
		if (!r)
			break;
		if (version_before(ma, mi, st->hint_major, st->hint_minor)) {
			st->hint_major = ma;
			st->hint_minor = mi;
		}
		p = r;
	}
	p = skip_ws(p);
	if (*p != ':')
		return;
	p = skip_ws(p + 1);
	n = hex_run(p, strlen(p));
	if (n < 4 || n > FULL_HEX || is_alnum((unsigned char)p[n]) ||
	    (p[n] != ':' && !is_ws((unsigned char)p[n]) && p[n])) {
		add_diag(m, st->lineno,
			 "Cc: no prerequisite commit id in stable hint '%s'", c);
		return;
	}
	st->prereq_id = lower_dup(p, n);
	p = skip_ws(p + n);
	if (*p == ':')
		p++;
	st->prereq_subject = trimmed_dup(p, strlen(p));
}

/* Known homes of the stable list; others are kept but questioned. */
static int stable_domain_ok(const char *addr, size_t len)
{
	const char *at = memchr(addr, '@', len);
	size_t dlen;

	if (!at)
		return 1;
	at++;
	dlen = len - (size_t)(at - addr);
	return (dlen == 15 && !ascii_strncasecmp(at, "vger.kernel.org", 15)) ||
	       (dlen == 10 && !ascii_strncasecmp(at, "kernel.org", 10));
}

void parse_cc(struct message *m, const struct trailer *t)
{
	const char *val = t->val, *addr, *rest;
	struct stable_tag *st;
	size_t len;

	rest = find_stable_addr(val, &addr, &len);
	if (!rest && starts_with_ci(val, strlen(val), "stable") &&
	    !strchr(val, '@') && addr_delim((unsigned char)val[6])) {
		/* A bare "Cc: stable", as some older commits have it. */
		addr = val;
		len = 6;
		rest = val + 6;
	}
	if (!rest) {
		if (find_ci(val, strlen(val), "stable"))
			add_diag(m, t->lineno,
				 "Cc: mentions stable but has no stable address in '%s'",
				 val);
		return;
	}

	ALLOC_GROW(m->stable, m->nr_stable, m->alloc_stable);
	st = &m->stable[m->nr_stable++];
	memset(st, 0, sizeof(*st));
	st->addr = xstrndup(addr, len);
	st->noautosel = len > 16 && addr[16] == '@' &&
			!ascii_strncasecmp(addr, "stable+noautosel", 16);
	st->hint_major = st->hint_minor = -1;
	st->lineno = t->lineno;
	if (!stable_domain_ok(addr, len))
		add_diag(m, t->lineno, "Cc: unexpected stable address '%s'",
			 st->addr);

	/*
	 * The comment: after '#', inside "[...]", or plain text; after a
	 * ',' more addresses follow and only a '#' starts a comment.
	 */
	rest = skip_ws(rest);
	if (*rest == '>')
		rest = skip_ws(rest + 1);
	if (*rest == ',' || *rest == ';')
		rest = strchr(rest, '#');
	if (rest && *rest == '[') {
		const char *close = strchr(++rest, ']');

		st->comment = trimmed_dup(rest, close ? (size_t)(close - rest)
						      : strlen(rest));
	} else if (rest) {
		while (*rest == '#')
			rest++;
		st->comment = trimmed_dup(rest, strlen(rest));
	}
	if (st->comment)
		parse_stable_comment(m, st);
}
