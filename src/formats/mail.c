#include "formats/mail.h"
#include "base/ascii.h"
#include "base/util.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

void mail_clean(struct strbuf *sb, const char *text)
{
	const unsigned char *s = (const unsigned char *)text;
	size_t len = strlen(text), i = 0, n;

	while (i < len) {
		if ((s[i] < 0x20 && s[i] != '\t') || s[i] == 0x7f) {
			strbuf_addch(sb, ' ');
			i++;
			continue;
		}
		n = utf8_seq_len(s + i, len - i);
		if (!n) {
			strbuf_addstr(sb, "\xef\xbf\xbd");
			i++;
			continue;
		}
		strbuf_add(sb, s + i, n);
		i += n;
	}
}

/* The length of the last line of sb: where what is appended starts. */
static size_t last_line_length(const struct strbuf *sb)
{
	size_t i = sb->len;

	while (i && sb->buf[i - 1] != '\n')
		i--;
	return sb->len - i;
}

/*
 * Whether a header value must be written as RFC 2047 encoded words, as
 * git format-patch decides (git's needs_rfc2047_encoding()): for bytes
 * that are not ASCII, and for "=?", with which an encoded word starts.
 * Written as it is, a subject "=?UTF-8?Q?=0D=0ABcc:_x@evil?=" would be
 * decoded by git am (and by mail clients, into a line break and a
 * header), and a lone "=?" makes git mailinfo fail.  Control characters
 * too, so that none is written raw: after mail_clean() that is a tab,
 * which git format-patch writes as it is (git am makes a space of it
 * either way; a mail client shows the tab).
 */
static int needs_rfc2047(const char *s)
{
	const unsigned char *p = (const unsigned char *)s;

	for (; *p; p++)
		if (*p >= 0x80 || *p < 0x20 || *p == 0x7f ||
		    (p[0] == '=' && p[1] == '?'))
			return 1;
	return 0;
}

/* RFC 822's specials: a display name with one is quoted. */
static int needs_rfc822_quoting(const char *s)
{
	return s[strcspn(s, "()<>[]:;@,.\"\\")] != '\0';
}

enum rfc2047_type {
	RFC2047_SUBJECT,
	RFC2047_ADDRESS
};

/* Whether the byte c is written "=XX" in a Q-encoded word (RFC 2047 4.2). */
static int is_rfc2047_special(unsigned char c, enum rfc2047_type type)
{
	/*
	 * A space too: "_" would be shorter, but some readers leave it
	 * as it is (git encodes "=20" for the same reason).
	 */
	if (c <= 0x20 || c >= 0x7f || c == '=' || c == '?' || c == '_')
		return 1;
	/* In a display name (a phrase, RFC 2047 5.3) fewer stay plain. */
	return type == RFC2047_ADDRESS && !is_alnum(c) && !strchr("!*+-/", c);
}

/*
 * Appends clean UTF-8 as Q-encoded words, as git format-patch does
 * (git's add_rfc2047()): a line at most 76 columns long with the
 * column where sb ends counted (RFC 2047 2), the next word on a
 * continuation line, and a character never split between two words
 * (RFC 2047 5.3), so that each word decodes alone.
 */
static void add_rfc2047(struct strbuf *sb, const char *s, size_t len,
			enum rfc2047_type type)
{
	static const char start[] = "=?UTF-8?q?";
	size_t col = last_line_length(sb) + strlen(start), i = 0, n, w, k;

	strbuf_addstr(sb, start);
	while (i < len) {
		const unsigned char *p = (const unsigned char *)s + i;
		int special;

		n = utf8_seq_len(p, len - i);
		if (!n)
			n = 1;
		special = n > 1 || is_rfc2047_special(*p, type);
		w = special ? 3 * n : 1;
		/* What does not fit before "?=" starts the next word. */
		if (i && col + w + 2 > 76) {
			strbuf_addf(sb, "?=\n %s", start);
			col = 1 + strlen(start);
		}
		for (k = 0; k < n; k++) {
			if (special)
				strbuf_addf(sb, "=%02X", p[k]);
			else
				strbuf_addch(sb, (char)p[k]);
		}
		col += w;
		i += n;
	}
	strbuf_addstr(sb, "?=");
}

/*
 * Appends a plain header value, folded before a space where a line
 * would pass 78 columns (RFC 5322's advice); col is where it starts.
 */
static void add_folded(struct strbuf *sb, const char *s, size_t col)
{
	while (*s) {
		size_t len = strlen(s), cut = len;

		if (col + len > 78) {
			/* The last space that keeps the line short, if any. */
			for (cut = 78 - col < len ? 78 - col : len; cut > 0; cut--)
				if (s[cut] == ' ')
					break;
			if (!cut)
				cut = strcspn(s + 1, " ") + 1;
		}
		strbuf_add(sb, s, cut);
		s += cut;
		if (*s) {
			strbuf_addch(sb, '\n');	/* the space starts the next line */
			col = 0;
		}
	}
}

void mail_header(struct strbuf *sb, const char *name, const char *prefix,
		 const char *value)
{
	struct strbuf clean = STRBUF_INIT;

	mail_clean(&clean, value);
	strbuf_addf(sb, "%s: %s", name, prefix ? prefix : "");
	if (needs_rfc2047(clean.buf))
		add_rfc2047(sb, clean.buf, clean.len, RFC2047_SUBJECT);
	else
		add_folded(sb, clean.buf, last_line_length(sb));
	strbuf_addch(sb, '\n');
	strbuf_release(&clean);
}

/*
 * Appends one address, display <email> or email alone, the display
 * name as git format-patch writes an author's (git's pp_user_info()):
 * encoded if it needs it, else quoted if it holds specials, else as it
 * is; " <email>" on a line of its own when it does not fit.
 */
static void add_address(struct strbuf *sb, const char *display,
			const char *email)
{
	struct strbuf clean = STRBUF_INIT, addr = STRBUF_INIT;
	size_t i, max = 78;

	mail_clean(&clean, display ? display : "");
	mail_clean(&addr, email ? email : "");
	/* An address never holds spaces, angle brackets, quotes or commas. */
	for (i = 0; i < addr.len; i++)
		if (strchr(" <>\",;", addr.buf[i]))
			addr.buf[i] = '_';
	if (!clean.len) {
		strbuf_addbuf(sb, &addr);
		goto out;
	}
	if (needs_rfc2047(clean.buf)) {
		add_rfc2047(sb, clean.buf, clean.len, RFC2047_ADDRESS);
		max = 76;
	} else if (needs_rfc822_quoting(clean.buf)) {
		struct strbuf quoted = STRBUF_INIT;

		strbuf_addch(&quoted, '"');
		for (i = 0; i < clean.len; i++) {
			if (clean.buf[i] == '"' || clean.buf[i] == '\\')
				strbuf_addch(&quoted, '\\');
			strbuf_addch(&quoted, clean.buf[i]);
		}
		strbuf_addch(&quoted, '"');
		add_folded(sb, quoted.buf, last_line_length(sb));
		strbuf_release(&quoted);
	} else {
		add_folded(sb, clean.buf, last_line_length(sb));
	}
	if (last_line_length(sb) + strlen(" <>") + addr.len > max)
		strbuf_addch(sb, '\n');
	strbuf_addf(sb, " <%s>", addr.buf);
out:
	strbuf_release(&clean);
	strbuf_release(&addr);
}

void mail_address_header(struct strbuf *sb, const char *name,
			 const char *display, const char *email)
{
	strbuf_addf(sb, "%s: ", name);
	add_address(sb, display, email);
	strbuf_addch(sb, '\n');
}

void mail_split_address(const char *s, struct strbuf *display,
			struct strbuf *email)
{
	const char *lt = strrchr(s, '<');

	strbuf_reset(display);
	strbuf_reset(email);
	if (!lt) {
		strbuf_addstr(email, s);
		strbuf_trim(email);
		return;
	}
	strbuf_add(display, s, (size_t)(lt - s));
	strbuf_trim(display);
	if (display->len >= 2 && display->buf[0] == '"' &&
	    display->buf[display->len - 1] == '"') {
		memmove(display->buf, display->buf + 1, display->len - 2);
		strbuf_setlen(display, display->len - 2);
	}
	strbuf_add(email, lt + 1, strcspn(lt + 1, ">"));
	strbuf_trim(email);
}

/* The index of the address email (without case) in a, or a->nr. */
static size_t find_email(const struct mail_addrs *a, const char *email)
{
	size_t i;

	for (i = 0; i < a->nr; i++)
		if (!strcasecmp(a->v[i].email, email))
			return i;
	return a->nr;
}

int mail_addrs_has(const struct mail_addrs *a, const char *addr)
{
	struct strbuf display = STRBUF_INIT, email = STRBUF_INIT;
	int found;

	mail_split_address(addr, &display, &email);
	found = find_email(a, email.buf) < a->nr;
	strbuf_release(&display);
	strbuf_release(&email);
	return found;
}

/* s without control characters (a line break in a name), trimmed. */
static char *one_line(const char *s, size_t len)
{
	struct strbuf sb = STRBUF_INIT;
	size_t i;

	strbuf_add(&sb, s, len);
	for (i = 0; i < sb.len; i++)
		if ((unsigned char)sb.buf[i] < 0x20 || sb.buf[i] == 0x7f)
			sb.buf[i] = ' ';
	strbuf_trim(&sb);
	return strbuf_detach(&sb, NULL);
}

void mail_addrs_add_pair(struct mail_addrs *a, const char *name,
			 const char *email)
{
	char *e;

	if (!email)
		return;
	e = one_line(email, strlen(email));
	if (!strchr(e, '@') || find_email(a, e) < a->nr) {
		free(e);
		return;
	}
	ALLOC_GROW(a->v, a->nr + 1, a->alloc);
	a->v[a->nr].name = name && *name ? one_line(name, strlen(name)) : NULL;
	a->v[a->nr++].email = e;
}

void mail_addrs_add(struct mail_addrs *a, const char *addr)
{
	struct strbuf display = STRBUF_INIT, email = STRBUF_INIT;

	mail_split_address(addr, &display, &email);
	mail_addrs_add_pair(a, display.buf, email.buf);
	strbuf_release(&display);
	strbuf_release(&email);
}

void mail_addrs_add_list(struct mail_addrs *a, const char *list)
{
	const char *p = list;

	while (p && *p) {
		struct strbuf one = STRBUF_INIT;
		int quoted = 0;

		/* A comma inside a quoted display name does not end it. */
		for (; *p && (quoted || *p != ','); p++) {
			if (*p == '"')
				quoted = !quoted;
			strbuf_addch(&one, *p);
		}
		mail_addrs_add(a, one.buf);
		strbuf_release(&one);
		if (*p)
			p++;
	}
}

void mail_addrs_remove(struct mail_addrs *a, const char *addr)
{
	struct strbuf display = STRBUF_INIT, email = STRBUF_INIT;
	size_t i;

	mail_split_address(addr ? addr : "", &display, &email);
	i = find_email(a, email.buf);
	if (i < a->nr) {
		free(a->v[i].name);
		free(a->v[i].email);
		memmove(a->v + i, a->v + i + 1, (a->nr - i - 1) * sizeof(*a->v));
		a->nr--;
	}
	strbuf_release(&display);
	strbuf_release(&email);
}

void mail_addrs_release(struct mail_addrs *a)
{
	size_t i;

	for (i = 0; i < a->nr; i++) {
		free(a->v[i].name);
		free(a->v[i].email);
	}
	free(a->v);
	memset(a, 0, sizeof(*a));
}

void mail_addrs_header(struct strbuf *sb, const char *name,
		       const struct mail_addrs *a)
{
	struct strbuf one = STRBUF_INIT;
	size_t i;

	if (!a->nr)
		return;
	strbuf_addf(sb, "%s: ", name);
	add_address(sb, a->v[0].name, a->v[0].email);
	for (i = 1; i < a->nr; i++) {
		/*
		 * Folded between addresses: one goes on a line of its own
		 * unless it fits whole after the one before (only one
		 * longer than a line is folded inside).  one: it as it
		 * would be written there, after as many columns.
		 */
		strbuf_reset(&one);
		strbuf_addchars(&one, 'x', last_line_length(sb));
		strbuf_addstr(&one, ", ");
		add_address(&one, a->v[i].name, a->v[i].email);
		if (strchr(one.buf, '\n') || one.len > 78)
			strbuf_addstr(sb, ",\n ");
		else
			strbuf_addstr(sb, ", ");
		add_address(sb, a->v[i].name, a->v[i].email);
	}
	strbuf_addch(sb, '\n');
	strbuf_release(&one);
}

void mail_text_body(struct strbuf *sb)
{
	strbuf_addstr(sb, "MIME-Version: 1.0\n"
		      "Content-Type: text/plain; charset=UTF-8\n"
		      "Content-Transfer-Encoding: 8bit\n\n");
}

void mail_date_header(struct strbuf *sb, git_time_t t, int offset_minutes)
{
	strbuf_addstr(sb, "Date: ");
	mail_date(sb, t, offset_minutes);
	strbuf_addch(sb, '\n');
}

void mail_date(struct strbuf *sb, git_time_t t, int offset_minutes)
{
	static const char *const days[] = { "Sun", "Mon", "Tue", "Wed", "Thu",
					    "Fri", "Sat" };
	static const char *const months[] = { "Jan", "Feb", "Mar", "Apr", "May",
					      "Jun", "Jul", "Aug", "Sep", "Oct",
					      "Nov", "Dec" };
	time_t local = (time_t)(t + (git_time_t)offset_minutes * 60);
	int off = offset_minutes < 0 ? -offset_minutes : offset_minutes;
	struct tm tm;

	gmtime_r(&local, &tm);
	strbuf_addf(sb, "%s, %d %s %d %02d:%02d:%02d %c%02d%02d", days[tm.tm_wday],
		    tm.tm_mday, months[tm.tm_mon], tm.tm_year + 1900, tm.tm_hour,
		    tm.tm_min, tm.tm_sec, offset_minutes < 0 ? '-' : '+',
		    off / 60, off % 60);
}

void mail_wrap(struct strbuf *sb, const char *text, size_t first_indent,
	       size_t indent, size_t width)
{
	struct strbuf clean = STRBUF_INIT;
	size_t col = first_indent, i = 0;
	int line_empty = 1;

	mail_clean(&clean, text);
	while (i < clean.len) {
		size_t start, wlen;

		while (i < clean.len && clean.buf[i] == ' ')
			i++;
		start = i;
		while (i < clean.len && clean.buf[i] != ' ')
			i++;
		wlen = i - start;
		if (!wlen)
			break;
		/* A word longer than the line stays whole, on its own line. */
		if (!line_empty && col + 1 + wlen > width) {
			strbuf_addch(sb, '\n');
			strbuf_addchars(sb, ' ', indent);
			col = indent;
			line_empty = 1;
		}
		if (!line_empty) {
			strbuf_addch(sb, ' ');
			col++;
		}
		strbuf_add(sb, clean.buf + start, wlen);
		col += wlen;
		line_empty = 0;
	}
	strbuf_release(&clean);
}

char *mail_message_id(const char *local, const char *from_email)
{
	const char *at = from_email ? strrchr(from_email, '@') : NULL;
	char *id = xstrfmt("%s@%s", local, at && at[1] ? at + 1 : "localhost");
	char *p;

	for (p = id; *p; p++)
		if (!isalnum((unsigned char)*p) && !strchr(".-_@+", *p))
			*p = '-';
	return id;
}

/* "<id>", of id only the printable ASCII an id may hold. */
static void add_id(struct strbuf *sb, const char *id)
{
	const unsigned char *p = (const unsigned char *)id;

	strbuf_addch(sb, '<');
	for (; *p; p++)
		if (*p > 0x20 && *p < 0x7f && !strchr("<>()[]\\\",;", *p))
			strbuf_addch(sb, (char)*p);
	strbuf_addch(sb, '>');
}

void mail_id_header(struct strbuf *sb, const char *name, const char *id)
{
	strbuf_addf(sb, "%s: ", name);
	add_id(sb, id);
	strbuf_addch(sb, '\n');
}

void mail_ids_header(struct strbuf *sb, const char *name,
		     const char *const *ids, size_t nr)
{
	struct strbuf one = STRBUF_INIT;
	size_t i, col = strlen(name) + 1;

	strbuf_addf(sb, "%s:", name);
	for (i = 0; i < nr; i++) {
		strbuf_reset(&one);
		add_id(&one, ids[i]);
		/* Folded before an id that would pass 78 columns. */
		if (i && col + 1 + one.len > 78) {
			strbuf_addch(sb, '\n');
			col = 0;
		}
		strbuf_addch(sb, ' ');
		strbuf_addbuf(sb, &one);
		col += 1 + one.len;
	}
	strbuf_addch(sb, '\n');
	strbuf_release(&one);
}
