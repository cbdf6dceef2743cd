#ifndef MBOX_H
#define MBOX_H

#include <stddef.h>

/*
 * Reading mbox files: AUTOSEL pick mails ("[PATCH AUTOSEL 6.1 03/12]
 * xfs: fix a leak") and stable review series, as saved from a mail
 * client, lore.kernel.org (t.mbox) or b4, or as written by git
 * format-patch.  No network, no external program.
 *
 *     struct mbox mb = MBOX_INIT;
 *     if (mbox_read_file(&mb, path) < 0)
 *             return -1;
 *     for (size_t i = 0; i < mb.nr; i++) {
 *             const struct mbox_msg *m = &mb.msgs[i];
 *             if (m->problem)
 *                     ... report "%s:%zu: message %zu (%s): %s" with
 *                         path, m->problem_line, m->index,
 *                         m->message_id, m->problem ...
 *             ... m->title, m->version, m->number, m->body, m->diff ...
 *     }
 *     mbox_release(&mb);
 *
 * The commit message in the body (upstream references, Fixes:, Cc:
 * stable) is for message_parse() in message.h; this module only takes
 * the mail apart.
 *
 * The file format
 *
 * A message starts at a "From " line (the From_ line) that opens the
 * file (blank lines before it are allowed) or follows an empty line.
 * Bodies are read as mboxrd: a line ">From ", ">>From ", ... loses one
 * '>'.  That is right for mboxrd files, where the writer added exactly
 * one '>', and for mboxo files, where the writer turned "From " into
 * ">From " and left ">From " alone: mboxo cannot tell the two apart,
 * and of the two, "From " is what a commit message holds (">From " is
 * a quote of a mail header, which nobody writes into a commit).
 *
 * git format-patch escapes nothing, so a paragraph of a commit message
 * that starts with "From the manual, ..." may follow an empty line.  As
 * git mailsplit does, a From_ line after the first must therefore look
 * like one: "From SENDER Www Mmm ..." with the day and month names of
 * a ctime(3) date and a time ("hh:mm"), as mutt, git, b4 and
 * public-inbox write it.  The empty line before a From_ line belongs
 * to the mbox format, not to the message before it.
 *
 * A file whose first line that is not blank is a header ("From: ...",
 * "Subject: ...", as a mail saved on its own) is read as one message,
 * as git am does; it is not split and nothing in it is unescaped.
 *
 * "\r\n" reads as "\n" everywhere, in the file and in decoded bodies.
 *
 * What fails and what does not
 *
 * mbox_read() fails, with "error: '<path>' is not an mbox (<why>)",
 * for an empty file, a file of blank lines, a binary file (a NUL byte
 * in its first 8000 bytes, git's test), and a file whose first line
 * that is not blank is neither a From_ line nor a header.
 *
 * Once the file is an mbox, every message in it is returned, however
 * broken: a message that cannot be fully understood carries `problem`
 * (what is wrong, the first thing found) and `problem_line` (the line
 * of the file it is about), so that the caller can report it with the
 * message's index and Message-ID.  Nothing is printed for them here.
 * Problems are: a header block with a line that is neither a header
 * nor blank, or a continuation line with no header before it (the body
 * then starts at that line, so that no text is lost); bad base64; an
 * unknown Content-Transfer-Encoding; a multipart message without a
 * boundary or a text/plain part; a NUL byte (after the first 8000
 * bytes; it becomes U+FFFD).
 *
 * Headers
 *
 * Names compare without case; continuation lines are unfolded; the
 * first of repeated headers counts.  Subject and From are decoded from
 * RFC 2047 encoded words in UTF-8, US-ASCII or ISO-8859-1 (an encoded
 * word in another charset is left as written); white space between
 * adjacent encoded words is dropped.  All header strings are UTF-8 on
 * one line: control characters become spaces and bytes that are not
 * UTF-8 become U+FFFD.  A header that is missing or empty gives NULL.
 *
 * Bodies
 *
 * The body is decoded from quoted-printable or base64 according to
 * Content-Transfer-Encoding (7bit, 8bit and binary are taken as they
 * are); its charset is not converted.  Of a multipart message, the body
 * is the first text/plain part, depth first (nested multiparts are
 * followed eight levels deep); git send-email never writes multipart,
 * some mail clients do.
 */

/* One address of From, To or Cc. */
struct mbox_address {
	char *name;		/* the display name, decoded, or NULL */
	char *email;		/* "user@host" as written; never NULL */
};

struct mbox_msg {
	size_t index;		/* 1-based position in the file */
	size_t line;		/* its From_ line, or its first line */

	/*
	 * The bytes of the message in the buffer given to mbox_read(),
	 * its From_ line included (and "\r\n" counted as written), so
	 * that it can be read again on its own.
	 */
	size_t offset, length;

	char *message_id;	/* without <>, or NULL */
	char *in_reply_to;	/* the first id, without <>, or NULL */
	char **references;	/* the ids of References, without <>, in order */
	size_t nr_references;
	char *subject;		/* unfolded, decoded, or NULL */
	char *from;		/* decoded, or NULL */
	/*
	 * The addresses of From, To and Cc, read before their display
	 * names are decoded (so that "=?UTF-8?Q?Wong,_D?= <d@k.org>" stays
	 * one address); a group ("undisclosed-recipients:;") gives its
	 * members.
	 */
	struct mbox_address *from_addr;	/* the first of From, or NULL */
	size_t nr_from;			/* how many addresses From has */
	struct mbox_address *to, *cc;
	size_t nr_to, nr_cc;
	char *date;		/* as written (unfolded), or NULL */
	char *body;		/* decoded; never NULL, maybe "" */
	char *diff;		/* from the first "diff --git ", or NULL */

	/*
	 * What the subject says.  Leading "Re:" and "[...]" groups, in any
	 * order and number, are taken off; the tokens in the brackets are
	 * read for AUTOSEL, a version and "N/M":
	 *
	 *     [PATCH AUTOSEL 6.1 03/12] xfs: fix a leak
	 *         title "xfs: fix a leak", version "6.1", 3 of 12, autosel
	 *     Re: [PATCH 6.6 012/123] ext4: ...    version "6.6", reply
	 *     [PATCH v2 5.15.y 1/3] ...            version "5.15" ("v2" is
	 *                                          a revision, not a version)
	 *     [PATCH 6.6-stable] ...               version "6.6"
	 *     [PATCH AUTOSEL 6.19-6.12] ...        version "6.19", the first
	 *                                          of a range
	 *     [PATCH v3 0/7] xfs: ...              revision 3, 0 of 7 (a
	 *                                          cover letter)
	 */
	char *title;		/* the rest; NULL only if subject is */
	char *version;		/* "6.1", "5.15", or NULL */
	int number, total;	/* 3 and 12, or 0 */
	int revision;		/* 3 for "v3"; 0 when none is written */
	int is_reply;		/* a "Re:" was taken off */
	int autosel;		/* a bracket holds AUTOSEL */

	char *problem;		/* what is not understood, or NULL */
	size_t problem_line;	/* the line of the file it is about, or 0 */
};

struct mbox {
	struct mbox_msg *msgs;
	size_t nr, alloc;
};

#define MBOX_INIT { NULL, 0, 0 }

void mbox_init(struct mbox *mb);

/*
 * Appends the messages of buf (len bytes, NUL not required) to out.
 * path names the file in error messages.  Returns 0, or -1 after an
 * error message with out as it was.
 */
int mbox_read(struct mbox *out, const char *path, const char *buf,
	      size_t len);

/*
 * Where the first message of the mbox text buf[0..len) that starts at
 * or after offset at begins (its From_ line, where mbox_read() would
 * split), or len: to read a large file in pieces.
 */
size_t mbox_next_message(const char *buf, size_t len, size_t at);

/*
 * 0 when buf looks like text as git's buffer_is_binary() tells it (no
 * NUL byte in its first 8000), else -1 after "error: 'PATH' is not an
 * mbox (binary: NUL byte on line N)": mbox_read() and the list
 * archives' mbox reader give one answer for one file.
 */
int mbox_check_text(const char *path, const char *buf, size_t len);

/* The same, failing with -1 and no message (an archive's blobs). */
int mbox_read_quiet(struct mbox *out, const char *buf, size_t len);

/* Reads the file at path ("-": standard input) with mbox_read(). */
int mbox_read_file(struct mbox *out, const char *path);

/*
 * The time of an RFC 5322 date ("Tue, 14 Nov 2023 22:13:20 +0000", the
 * day name and seconds optional, obsolete zone names and two-digit
 * years read as RFC 5322 says).  Returns 0, or -1 when s is not one.
 */
int mbox_parse_date(const char *s, long long *time, int *offset_minutes);

/*
 * The addresses of an address list as written in a header (RFC 5322:
 * "Name <addr>", "\"Last, First\" <addr>", "addr (Name)", a bare addr,
 * groups), their display names decoded from RFC 2047, appended to
 * *out.  Also reads a line of a body ("From: Name <addr>").
 */
void mbox_address_list(const char *value, struct mbox_address **out,
		       size_t *nr);
void mbox_address_free(struct mbox_address *v, size_t nr);

/* Frees the messages; mb is empty and can be used again. */
void mbox_release(struct mbox *mb);

#endif
