#include "mail.h"
#include "util.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

static const char base64[] =
	"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

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

static int is_plain(const char *s)
{
	for (; *s; s++)
		if ((unsigned char)*s >= 0x80)
			return 0;
	return 1;
}

/* RFC 2047 encoded words of at most 45 bytes of UTF-8 each. */
static void encode_words(struct strbuf *sb, const char *s, size_t len)
{
	size_t i = 0;

	while (i < len) {
		size_t chunk = 0, j;

		/* Whole UTF-8 sequences only, so every word decodes alone. */
		while (i + chunk < len && chunk < 45) {
			size_t n = utf8_seq_len((const unsigned char *)s + i + chunk,
					    len - i - chunk);

			if (!n || chunk + n > 45)
				break;
			chunk += n;
		}
		if (!chunk)
			chunk = 1;
		strbuf_addstr(sb, i ? "\n =?UTF-8?B?" : "=?UTF-8?B?");
		for (j = 0; j < chunk; j += 3) {
			const unsigned char *p = (const unsigned char *)s + i + j;
			unsigned v = p[0] << 16;
			size_t left = chunk - j;

			if (left > 1)
				v |= p[1] << 8;
			if (left > 2)
				v |= p[2];
			strbuf_addch(sb, base64[(v >> 18) & 63]);
			strbuf_addch(sb, base64[(v >> 12) & 63]);
			strbuf_addch(sb, left > 1 ? base64[(v >> 6) & 63] : '=');
			strbuf_addch(sb, left > 2 ? base64[v & 63] : '=');
		}
		strbuf_addstr(sb, "?=");
		i += chunk;
	}
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

void mail_header(struct strbuf *sb, const char *name, const char *value)
{
	struct strbuf clean = STRBUF_INIT;

	mail_clean(&clean, value);
	strbuf_addf(sb, "%s: ", name);
	if (is_plain(clean.buf))
		add_folded(sb, clean.buf, strlen(name) + 2);
	else
		encode_words(sb, clean.buf, clean.len);
	strbuf_addch(sb, '\n');
	strbuf_release(&clean);
}

/* Appends one address: display (quoted or encoded) <email>, or email. */
static void add_address(struct strbuf *sb, const char *display,
			const char *email)
{
	struct strbuf clean = STRBUF_INIT, addr = STRBUF_INIT;
	size_t i;

	mail_clean(&clean, display ? display : "");
	mail_clean(&addr, email ? email : "");
	/* An address never holds spaces, angle brackets, quotes or commas. */
	for (i = 0; i < addr.len; i++)
		if (strchr(" <>\",;", addr.buf[i]))
			addr.buf[i] = '_';
	if (!clean.len) {
		strbuf_addbuf(sb, &addr);
	} else {
		if (!is_plain(clean.buf)) {
			encode_words(sb, clean.buf, clean.len);
		} else {
			strbuf_addch(sb, '"');
			for (i = 0; i < clean.len; i++) {
				if (clean.buf[i] == '"' || clean.buf[i] == '\\')
					strbuf_addch(sb, '\\');
				strbuf_addch(sb, clean.buf[i]);
			}
			strbuf_addch(sb, '"');
		}
		strbuf_addf(sb, " <%s>", addr.buf);
	}
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
	size_t i, col = strlen(name) + 2;

	if (!a->nr)
		return;
	strbuf_addf(sb, "%s: ", name);
	for (i = 0; i < a->nr; i++) {
		const char *nl;

		strbuf_reset(&one);
		add_address(&one, a->v[i].name, a->v[i].email);
		/* Folded between addresses, never inside one. */
		if (i && col + 2 + one.len > 78) {
			strbuf_addstr(sb, ",\n ");
			col = 1;
		} else if (i) {
			strbuf_addstr(sb, ", ");
			col += 2;
		}
		strbuf_addbuf(sb, &one);
		nl = strrchr(one.buf, '\n');
		col = nl ? one.len - (size_t)(nl - one.buf) - 1 : col + one.len;
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
