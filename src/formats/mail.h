#ifndef MAIL_H
#define MAIL_H

#include <git2.h>
#include <time.h>

#include "base/strbuf.h"

/*
 * Writing mail (RFC 5322) from text that comes from untrusted history:
 * commit subjects and author names may hold newlines, carriage returns,
 * control characters or bytes that are not UTF-8.  Nothing written here
 * can end a header early or start a new one.
 *
 * Subjects and display names are written as git format-patch writes
 * them, so that git am and git mailinfo read back what history has:
 * line breaks and control characters become spaces, invalid UTF-8
 * U+FFFD; then a value with bytes that are not ASCII, a control
 * character (a tab) or "=?" (which would read as the start of an RFC
 * 2047 encoded word) is written as Q-encoded UTF-8 words, folded to 76
 * columns; else a display name with RFC 822 specials is quoted ("..."
 * with backslashes before '"' and '\\'); else the value is written as it
 * is, folded before a space at 78 columns.
 *
 *     mail_header(&sb, "Subject", "[PATCH 6.6 1/3] ", subject);
 *     mail_address_header(&sb, "From", name, email);
 *     mail_addrs_header(&sb, "Cc", &addrs);       see struct mail_addrs
 *     mail_date(&sb, t, offset_minutes);
 *     mail_body_line(&sb, text);                one clean UTF-8 line
 *     mail_wrap(&sb, text, indent, 72);         wrapped paragraph
 */

/*
 * "Name: prefix value\n": prefix (ours: plain ASCII ending in a space, or
 * NULL) as it is, value (a subject) encoded or folded.  As git
 * format-patch writes "[PATCH] " before an encoded title, so that the
 * prefix stays readable to people and to mail filters.
 */
void mail_header(struct strbuf *sb, const char *name, const char *prefix,
		 const char *value);
/* "Name: display <email>\n"; the display name is encoded or quoted. */
void mail_address_header(struct strbuf *sb, const char *name,
			 const char *display, const char *email);
/*
 * A list of recipients, each address once (compared without case): To
 * and Cc of a mail.
 *
 *     struct mail_addrs to = MAIL_ADDRS_INIT;
 *     mail_addrs_add_list(&to, "linux-xfs@vger.kernel.org, A <a@b>");
 *     mail_addrs_add(&to, commit_author);          "Name <addr>"
 *     mail_addrs_add_pair(&to, name, email);       as a mail gave them
 *     mail_addrs_remove(&to, my_email);
 *     mail_addrs_header(&sb, "To", &to);           nothing when empty
 *     mail_addrs_release(&to);
 */
struct mail_address {
	char *name;			/* or NULL */
	char *email;
};
struct mail_addrs {
	struct mail_address *v;
	size_t nr, alloc;
};
#define MAIL_ADDRS_INIT { NULL, 0, 0 }

/* Adds "Name <addr>" or "addr" (without an '@', or already there: nothing). */
void mail_addrs_add(struct mail_addrs *a, const char *addr);
/* The same for a display name (or NULL) and an address apart. */
void mail_addrs_add_pair(struct mail_addrs *a, const char *name,
			 const char *email);
/* Adds each of a comma-separated list (commas in quotes do not split). */
void mail_addrs_add_list(struct mail_addrs *a, const char *list);
/* Whether the address of addr ("Name <addr>" or "addr") is in a. */
int mail_addrs_has(const struct mail_addrs *a, const char *addr);
void mail_addrs_remove(struct mail_addrs *a, const char *addr);
void mail_addrs_release(struct mail_addrs *a);
/*
 * "Name: a, b,\n c\n", each display name encoded or quoted on its own,
 * folded between addresses (inside one only when it is longer than a
 * line); nothing for an empty list.
 */
void mail_addrs_header(struct strbuf *sb, const char *name,
		       const struct mail_addrs *a);

/*
 * Ends the headers of a text/plain UTF-8 mail (MIME-Version,
 * Content-Type, 8bit Content-Transfer-Encoding) and starts its body.
 */
void mail_text_body(struct strbuf *sb);

/* An RFC 5322 date: "Thu, 3 Dec 2026 10:00:00 +0000". */
void mail_date(struct strbuf *sb, git_time_t t, int offset_minutes);
/* "Date: <mail_date()>\n". */
void mail_date_header(struct strbuf *sb, git_time_t t, int offset_minutes);
/*
 * Splits "Name <addr>", "\"Name\" <addr>" or a bare "addr" into its
 * display name (unquoted, trimmed) and address (appended to the
 * strbufs, which are reset first).
 */
void mail_split_address(const char *s, struct strbuf *display,
			struct strbuf *email);

/*
 * Appends text as one line of a text/plain UTF-8 body: line breaks and
 * control characters but tabs become spaces, invalid UTF-8 becomes
 * U+FFFD.
 */
void mail_clean(struct strbuf *sb, const char *text);
/*
 * A Message-ID (without <>) "local@domain", the domain taken from
 * from_email ("localhost" without one); bytes a Message-ID may not hold
 * become '-'.  The caller frees it.
 */
char *mail_message_id(const char *local, const char *from_email);

/*
 * "Name: <id>\n" for Message-ID, In-Reply-To and References: of id
 * (without <>, as a pick mail or --in-reply-to gave it) only the
 * printable ASCII an id may hold, so that no text from outside can end
 * the header or add one.
 */
void mail_id_header(struct strbuf *sb, const char *name, const char *id);

/*
 * "Name: <id1> <id2> ...\n" (References), each id as mail_id_header()
 * writes it, folded between ids.
 */
void mail_ids_header(struct strbuf *sb, const char *name,
		     const char *const *ids, size_t nr);

/* Appends text word-wrapped at width, every line after the first indented. */
void mail_wrap(struct strbuf *sb, const char *text, size_t first_indent,
	       size_t indent, size_t width);

#endif
