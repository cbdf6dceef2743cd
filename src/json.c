#include "json.h"

#include <string.h>

/* Length of the valid UTF-8 sequence at s, or 0 if it is not valid. */
static size_t utf8_len(const unsigned char *s, size_t avail)
{
	size_t n, i;
	unsigned cp;

	if (s[0] < 0x80)
		return 1;
	if (s[0] >= 0xc2 && s[0] <= 0xdf)
		n = 2, cp = s[0] & 0x1f;
	else if (s[0] >= 0xe0 && s[0] <= 0xef)
		n = 3, cp = s[0] & 0x0f;
	else if (s[0] >= 0xf0 && s[0] <= 0xf4)
		n = 4, cp = s[0] & 0x07;
	else
		return 0;
	if (n > avail)
		return 0;
	for (i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = (cp << 6) | (s[i] & 0x3f);
	}
	if ((n == 3 && (cp < 0x800 || (cp >= 0xd800 && cp <= 0xdfff))) ||
	    (n == 4 && (cp < 0x10000 || cp > 0x10ffff)))
		return 0;
	return n;
}

void json_add_string(struct strbuf *sb, const char *str, size_t len)
{
	const unsigned char *s = (const unsigned char *)str;
	size_t i = 0;

	strbuf_addch(sb, '"');
	while (i < len) {
		unsigned char ch = s[i];
		size_t n;

		switch (ch) {
		case '"': strbuf_addstr(sb, "\\\""); i++; continue;
		case '\\': strbuf_addstr(sb, "\\\\"); i++; continue;
		case '\n': strbuf_addstr(sb, "\\n"); i++; continue;
		case '\r': strbuf_addstr(sb, "\\r"); i++; continue;
		case '\t': strbuf_addstr(sb, "\\t"); i++; continue;
		}
		if (ch < 0x20 || ch == 0x7f) {
			strbuf_addf(sb, "\\u%04x", ch);
			i++;
			continue;
		}
		n = utf8_len(s + i, len - i);
		if (!n) {
			strbuf_addstr(sb, "\\ufffd");
			i++;
			continue;
		}
		strbuf_add(sb, s + i, n);
		i += n;
	}
	strbuf_addch(sb, '"');
}

void json_add_str(struct strbuf *sb, const char *s)
{
	if (!s)
		strbuf_addstr(sb, "null");
	else
		json_add_string(sb, s, strlen(s));
}
