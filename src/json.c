#include "json.h"
#include "util.h"

#include <string.h>

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
		n = utf8_seq_len(s + i, len - i);
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
