#ifndef MESSAGE_H
#define MESSAGE_H

#include <stddef.h>

/*
 * A kernel commit message taken apart: subject, body, trailers, and the
 * trailers stablepick reasons about (Fixes:, Cc: stable, reverts, and
 * the upstream references that backports carry).
 *
 *     struct message m;
 *     message_init(&m);
 *     message_parse(&m, text, len);
 *     for (size_t i = 0; i < m.nr_fixes; i++)
 *             ... m.fixes[i].id, m.fixes[i].subject ...
 *     size_t pos = 0;
 *     const struct trailer *t;
 *     while ((t = message_trailer_next(&m, "Link", &pos)))
 *             ... t->val ...
 *     message_release(&m);
 *
 * The parser never fails on content: a trailer line it cannot make
 * sense of (a Fixes: without a commit id, a stable Cc with a garbled
 * version hint) is kept as a trailer and described in `diags`.
 * All strings are owned by the message and NUL-terminated.
 */

struct trailer {
	char *key;		/* as written, e.g. "Reported-by" */
	char *val;		/* trimmed value */
	unsigned lineno;	/* 1-based line in the message */
};

/* Fixes: <id> ("subject") */
struct fixes_ref {
	char *id;		/* hex as written, lower-cased, 4..40 digits */
	char *subject;		/* the quoted subject, or NULL */
	unsigned lineno;
};

/*
 * Cc: stable@vger.kernel.org and its variants, after
 * Documentation/process/stable-kernel-rules.rst:
 *
 *     Cc: <stable@vger.kernel.org> # 5.10+
 *     Cc: stable@vger.kernel.org # v6.1
 *     Cc: stable@kernel.org # 5.15.x
 *     Cc: <stable@vger.kernel.org> # 3.3.x: a1f84a3: sched: Check for idle
 *     Cc: stable+noautosel@kernel.org # reason
 */
struct stable_tag {
	char *addr;		/* the address, e.g. "stable@vger.kernel.org" */
	int noautosel;		/* stable+noautosel: never pick automatically */
	char *comment;		/* text after '#', trimmed, or NULL */
	int hint_major;		/* oldest version the fix is for, or -1 */
	int hint_minor;
	char *prereq_id;	/* "# 3.3.x: a1f84a3: subject" -> "a1f84a3" */
	char *prereq_subject;	/* -> "sched: Check for idle" */
	unsigned lineno;
};

struct message_diag {
	unsigned lineno;
	char *msg;		/* e.g. "Fixes: no commit id in 'see above'" */
};

struct message {
	char *subject;		/* the first line, trimmed */
	char *body;		/* everything after the subject and blank line */
	char *text;		/* the body without its trailer lines */

	struct trailer *trailers;
	size_t nr_trailers, alloc_trailers;

	struct fixes_ref *fixes;
	size_t nr_fixes, alloc_fixes;

	struct stable_tag *stable;
	size_t nr_stable, alloc_stable;

	/*
	 * Full 40-hex upstream ids named by a backport, lower case, as
	 * the rules' backport lines read them (the kernel's "commit <id>
	 * upstream.", "[ Upstream commit <id> ]", "(cherry picked from
	 * commit <id>)"): empty until message_read_backports().
	 */
	char **upstream;
	size_t nr_upstream, alloc_upstream;

	/* Revert "subject" / This reverts commit <id>. */
	int is_revert;
	char *reverts_id;	/* hex, lower-cased, or NULL */
	char *reverts_subject;	/* the quoted subject, or NULL */

	struct message_diag *diags;
	size_t nr_diags, alloc_diags;
};

void message_init(struct message *m);
/* Parses text (len bytes, NUL not required); returns 0. */
int message_parse(struct message *m, const char *text, size_t len);
void message_release(struct message *m);

struct ruleset;
/*
 * Reads the upstream ids a parsed message names into m->upstream (in
 * place of any there), by the backport lines of rs ("backport NAME
 * FIELD /PATTERN/FLAGS", stablepick-rules(5)): every match of each, in
 * the order of the rules, then of the text; the group "id", else the
 * first, is the id, and only a full 40-digit one counts.  raw is the
 * message as parsed (len bytes), for the field "message"; NULL makes
 * it of the subject and body.  Returns 0; a match that gives up ends
 * that line's reading.
 *
 *     message_parse(&m, raw, len);
 *     message_read_backports(&m, raw, len, &rules);
 *     for (size_t i = 0; i < m.nr_upstream; i++)
 *             ... m.upstream[i] ...
 */
int message_read_backports(struct message *m, const char *raw, size_t len,
			   const struct ruleset *rs);

/*
 * Iterates over the trailers whose key equals `key` (ASCII
 * case-insensitive); *pos starts at 0.  Returns NULL at the end.
 */
const struct trailer *message_trailer_next(const struct message *m,
					   const char *key, size_t *pos);

/*
 * The message-id a Link: URL names ("https://lore.kernel.org/r/ID",
 * "https://lore.kernel.org/linux-xfs/ID/", "https://patch.msgid.link/ID"):
 * its first path component with an '@' ("%40" counts), percent-decoded
 * and without <>.  Returns a new string, or NULL when there is none.
 */
char *message_link_id(const char *url);

/*
 * The subject quoted after a commit id, as a Fixes: tag quotes it
 * (("subject"), (subject), "subject"); with quoted_only, NULL when it
 * is not quoted, else the rest as plain text.  A new string.
 */
char *message_fixes_subject(const char *p, int quoted_only);

/*
 * Whether a subject is a revert's: Revert "subject", also after a
 * subsystem prefix (xfs: Revert "..."), "revert" in any case; what sets
 * is_revert and reverts_subject in message_parse().
 */
int message_subject_is_revert(const char *subject);

/*
 * Why a revert says it reverts: the first paragraph of its text (no
 * trailers) other than git's "This reverts commit <id>." and the lines
 * a backport line of rs (of the field body or message) reads, its lines
 * joined by spaces and cut at 300 bytes with "...", to free; NULL when
 * it gives no reason.
 */
char *message_revert_reason(const struct message *m,
			    const struct ruleset *rs);

/* Non-zero if the message has a stable tag that is not noautosel. */
int message_cc_stable(const struct message *m);
/* Non-zero if any stable tag is stable+noautosel. */
int message_noautosel(const struct message *m);

#endif
