#include "stages/review.h"
#include "base/error.h"
#include "formats/mbox.h"
#include "stages/posted.h"
#include "base/util.h"

#include <ctype.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define REVIEW_PREFIX "stablepick-review."
#define CHECKLIST_PREFIX "stablepick-checklist."

char *review_cover_id(const char *branch, const git_oid *tip,
		      const char *subsystem, const char *from_email)
{
	char hex[GIT_OID_HEXSZ + 1], *local, *id;

	git_oid_tostr(hex, sizeof(hex), tip);
	local = xstrfmt(REVIEW_PREFIX "%s.%s.%.12s", subsystem, branch, hex);
	id = mail_message_id(local, from_email);
	free(local);
	return id;
}

char *review_checklist_id(const char *branch, const git_oid *tip,
			  const char *subsystem, const char *from_email)
{
	char hex[GIT_OID_HEXSZ + 1], *local, *id;

	git_oid_tostr(hex, sizeof(hex), tip);
	local = xstrfmt(CHECKLIST_PREFIX "%s.%s.%.12s", subsystem, branch, hex);
	id = mail_message_id(local, from_email);
	free(local);
	return id;
}

char *review_patch_id(const char *branch, const git_oid *tip,
		      const git_oid *commit, const char *from_email)
{
	char hex[GIT_OID_HEXSZ + 1], c[GIT_OID_HEXSZ + 1], *local, *id;

	git_oid_tostr(hex, sizeof(hex), tip);
	git_oid_tostr(c, sizeof(c), commit);
	local = xstrfmt(REVIEW_PREFIX "%s.%s.%.12s", c, branch, hex);
	id = mail_message_id(local, from_email);
	free(local);
	return id;
}

static int is_hex40(const char *s)
{
	size_t i;

	for (i = 0; i < GIT_OID_HEXSZ; i++)
		if (!isxdigit((unsigned char)s[i]) || isupper((unsigned char)s[i]))
			return 0;
	return s[GIT_OID_HEXSZ] == '.';
}

enum review_id_kind {
	REVIEW_ID_NONE, REVIEW_ID_COVER, REVIEW_ID_PATCH, REVIEW_ID_CHECKLIST
};

/* The branch as a review id spells it (mail_message_id()'s bytes). */
static char *id_branch(const char *branch)
{
	char *want = mail_message_id(branch, NULL);

	*strrchr(want, '@') = '\0';
	return want;
}

/*
 * What the Message-ID id is for the branch as id_branch() spells it: a
 * review patch (*commit set), a review cover, or neither (another
 * branch's, or no review mail).
 */
static enum review_id_kind parse_id(const char *id, const char *want,
				    git_oid *commit)
{
	size_t len = strlen(want);
	const char *p, *at;

	if (!id)
		return REVIEW_ID_NONE;
	if (skip_prefix(id, CHECKLIST_PREFIX, &p)) {
		at = strrchr(p, '@');
		/* SUBSYSTEM.BRANCH.TIP12, as a cover's. */
		if (at && at - p > (ptrdiff_t)(len + 14) &&
		    !strncmp(at - 13 - len, want, len) && at[-13] == '.' &&
		    at[-14 - (ptrdiff_t)len] == '.')
			return REVIEW_ID_CHECKLIST;
		return REVIEW_ID_NONE;
	}
	if (!skip_prefix(id, REVIEW_PREFIX, &p))
		return REVIEW_ID_NONE;
	at = strrchr(p, '@');
	if (!at)
		return REVIEW_ID_NONE;
	/* HEX40.BRANCH.TIP12@: the branch, then 13 bytes before the '@'. */
	if (is_hex40(p)) {
		if (strncmp(p + GIT_OID_HEXSZ + 1, want, len) ||
		    p + GIT_OID_HEXSZ + 1 + len + 13 != at ||
		    p[GIT_OID_HEXSZ + 1 + len] != '.' ||
		    git_oid_fromstrn(commit, p, GIT_OID_HEXSZ) < 0)
			return REVIEW_ID_NONE;
		return REVIEW_ID_PATCH;
	}
	/* SUBSYSTEM.BRANCH.TIP12: the branch ends 13 bytes before the '@'. */
	if (at - p > (ptrdiff_t)(len + 14) &&
	    !strncmp(at - 13 - len, want, len) && at[-13] == '.' &&
	    at[-14 - (ptrdiff_t)len] == '.')
		return REVIEW_ID_COVER;
	return REVIEW_ID_NONE;
}

/* Whether the F: pattern pat lies inside the path spec path. */
static int pattern_inside(const char *pat, const char *path)
{
	size_t len = strlen(path);

	/* "fs/xfs/" holds "fs/xfs/" and "fs/xfs/libxfs/"; "fs/xfs" too. */
	if (len && path[len - 1] == '/' && !strncmp(pat, path, len - 1) &&
	    (!pat[len - 1] || pat[len - 1] == '/'))
		return 1;
	return !strcmp(pat, path);
}

/* The M: and R: addresses of a MAINTAINERS section inside s's paths. */
static void add_section(const char *sec, size_t len, const struct subsystem *s,
			struct mail_addrs *out)
{
	const char *p = sec, *end = sec + len;
	int inside = 0;
	size_t i;

	while (p < end && !inside) {
		size_t n = strcspn(p, "\n");

		if (n > 3 && starts_with(p, "F:")) {
			char *pat = xstrndup(p + 2, n - 2);
			struct strbuf t = STRBUF_INIT;

			strbuf_addstr(&t, pat);
			strbuf_trim(&t);
			for (i = 0; i < s->nr_paths && !inside; i++)
				inside = pattern_inside(t.buf, s->paths[i]);
			strbuf_release(&t);
			free(pat);
		}
		p += n + (p + n < end);
	}
	for (p = sec; inside && p < end;) {
		size_t n = strcspn(p, "\n");

		if (n > 3 && (starts_with(p, "M:") || starts_with(p, "R:"))) {
			char *who = xstrndup(p + 2, n - 2);

			mail_addrs_add(out, who);
			free(who);
		}
		p += n + (p + n < end);
	}
}

int review_maintainers(git_repository *repo, const git_tree *tree,
		       const struct subsystem *s, struct mail_addrs *out)
{
	git_tree_entry *e = NULL;
	git_blob *blob = NULL;
	const char *text, *p, *end;
	size_t i;

	for (i = 0; i < s->nr_maintainers; i++)
		mail_addrs_add(out, s->maintainers[i]);
	if (!tree)
		return 0;
	if (git_tree_entry_bypath(&e, tree, "MAINTAINERS") < 0) {
		git_error_clear();
		return 0;
	}
	if (git_blob_lookup(&blob, repo, git_tree_entry_id(e)) < 0) {
		git_tree_entry_free(e);
		return error_git("cannot read MAINTAINERS");
	}
	text = git_blob_rawcontent(blob);
	end = text + git_blob_rawsize(blob);
	/* Sections are separated by blank lines. */
	for (p = text; p < end;) {
		const char *q = p;

		while (q < end) {
			const char *nl = memchr(q, '\n', (size_t)(end - q));

			if (!nl) {
				q = end;
				break;
			}
			if (nl + 1 < end && nl[1] == '\n') {
				q = nl + 1;
				break;
			}
			q = nl + 1;
		}
		add_section(p, (size_t)(q - p), s, out);
		while (q < end && *q == '\n')
			q++;
		p = q;
	}
	git_blob_free(blob);
	git_tree_entry_free(e);
	return 0;
}

/*
 * The review mail m answers, directly or up a chain of replies: its
 * kind, and the commit of a patch (*commit) or the cover's id (*root).
 */
static enum review_id_kind answered(const struct archive *a,
				    const struct archive_msg *m,
				    const char *want, git_oid *commit,
				    const char **root)
{
	const char *id = m->in_reply_to;
	size_t hops;

	for (hops = 0; id && hops < 64; hops++) {
		enum review_id_kind k = parse_id(id, want, commit);
		const struct archive_msg *up;

		if (k != REVIEW_ID_NONE) {
			*root = id;
			return k;
		}
		up = archive_find(a, id);
		id = up ? up->in_reply_to : NULL;
	}
	/* A reply whose In-Reply-To is lost: its References' first. */
	if (m->first_ref) {
		enum review_id_kind k = parse_id(m->first_ref, want, commit);

		if (k == REVIEW_ID_COVER || k == REVIEW_ID_CHECKLIST) {
			*root = m->first_ref;
			return k;
		}
	}
	return REVIEW_ID_NONE;
}

static void add_found(struct review_found **v, size_t *nr, size_t *alloc,
		      const git_oid *commit, const struct review_said *said,
		      const struct archive_msg *m, int to_cover)
{
	struct review_found *f;

	ALLOC_GROW(*v, *nr + 1, *alloc);
	f = &(*v)[(*nr)++];
	memset(f, 0, sizeof(*f));
	git_oid_cpy(&f->commit, commit);
	f->answer = said->answer;
	f->msg = m;
	f->line = xstrdup(said->line);
	f->until = said->until;
	f->until_tag = said->until_tag ? xstrdup(said->until_tag) : NULL;
	f->to_cover = to_cover;
	f->seq = *nr;
}

/* A mail that cannot be read: listed, with why (skip, taken). */
static void add_skipped(struct review_found **v, size_t *nr, size_t *alloc,
			const git_oid *commit, const struct archive_msg *m,
			char *skip)
{
	struct review_said said = { REVIEW_NONE, (char *)"", 0, NULL };
	git_oid zero;

	memset(&zero, 0, sizeof(zero));
	add_found(v, nr, alloc, commit ? commit : &zero, &said, m, 0);
	(*v)[*nr - 1].skip = skip;
}

static int cmp_found(const void *x, const void *y)
{
	const struct review_found *a = x, *b = y;

	if (a->msg->time != b->msg->time)
		return a->msg->time < b->msg->time ? -1 : 1;
	if (a->msg != b->msg)
		return strcmp(a->msg->message_id, b->msg->message_id);
	return a->seq < b->seq ? -1 : a->seq > b->seq;
}

/*
 * The body of a message of the archive and, if sender, the one address
 * of its From: (lower case; NULL for none or several); the caller
 * frees them.
 */
static int read_body(struct archive *a, const struct archive_msg *m,
		     char **body, char **sender)
{
	struct mbox mb = MBOX_INIT;
	const struct mbox_msg *mm;
	char *p;

	if (archive_read(a, m, &mb) < 0)
		return -1;
	mm = mb.nr ? &mb.msgs[0] : NULL;
	*body = xstrdup(mm && mm->body ? mm->body : "");
	if (sender) {
		*sender = mm && mm->nr_from == 1 && mm->from_addr ?
			  xstrdup(mm->from_addr->email) : NULL;
		for (p = *sender; p && *p; p++)
			*p = (char)tolower((unsigned char)*p);
	}
	mbox_release(&mb);
	return 0;
}

/* A checklist mail's items: the commit of each number (or a zero id). */
struct checklist {
	git_oid *commits;	/* [n - 1] */
	size_t nr;
};

static int read_checklist(struct archive *a, git_repository *repo,
			  const struct archive_msg *m, struct checklist *out)
{
	char *body, *p, hex[13];
	size_t alloc = 0;
	unsigned n;

	memset(out, 0, sizeof(*out));
	if (read_body(a, m, &body, NULL) < 0)
		return -1;
	for (p = body; *p; p += *p == '\n') {
		size_t len = strcspn(p, "\n");
		git_object *obj = NULL;
		git_oid prefix;
		int ok = review_checklist_item(p, &n, hex);

		p += len;
		if (!ok)
			continue;
		if (git_oid_fromstrn(&prefix, hex, 12) < 0 ||
		    git_object_lookup_prefix(&obj, repo, &prefix, 12,
					     GIT_OBJECT_COMMIT) < 0) {
			git_error_clear();
			warning("item %u of the checklist <%s>, %s, is not a "
				"commit of this repository", n, m->message_id,
				hex);
			continue;
		}
		if (n > out->nr) {
			ALLOC_GROW(out->commits, n, alloc);
			memset(out->commits + out->nr, 0,
			       (n - out->nr) * sizeof(git_oid));
			out->nr = n;
		}
		git_oid_cpy(&out->commits[n - 1], git_object_id(obj));
		git_object_free(obj);
	}
	free(body);
	return 0;
}

/* The answers of m to the checklist root, line by line. */
static int collect_checklist(struct archive *a, git_repository *repo,
			     const struct archive_msg *m, const char *root,
			     const char *body, struct review_found **v,
			     size_t *nr, size_t *alloc)
{
	const struct archive_msg *list = archive_find(a, root);
	struct checklist cl;
	struct review_said said;
	char *text, *p;
	size_t before = *nr, i;
	unsigned n;

	if (!list) {
		warning("%s answers the checklist <%s>, which is not in the "
			"archives", m->message_id, root);
		return 0;
	}
	if (read_checklist(a, repo, list, &cl) < 0) {
		add_skipped(v, nr, alloc, NULL, m,
			    xstrfmt("the checklist <%s> it answers cannot be "
				    "read again", root));
		return 0;
	}
	text = posted_reply_text(body);
	for (p = text; *p; ) {
		size_t len = strcspn(p, "\n");
		char *line = xstrndup(p, len);

		if (review_checklist_answer(line, &n, &said)) {
			if (n <= cl.nr && !git_oid_is_zero(&cl.commits[n - 1]))
				add_found(v, nr, alloc, &cl.commits[n - 1],
					  &said, m, 0);
			else
				warning("%s answers item %u of the checklist "
					"<%s>, which has no such item",
					m->message_id, n, root);
			review_said_release(&said);
		}
		free(line);
		p += len;
		if (*p)
			p++;
	}
	/*
	 * Answering no number: as an answer to a cover letter, for every
	 * item; what decides nothing, said once, on the first.
	 */
	if (*nr == before) {
		review_read_reply(body, &said);
		for (i = 0; i < cl.nr; i++) {
			if (git_oid_is_zero(&cl.commits[i]))
				continue;
			add_found(v, nr, alloc, &cl.commits[i], &said, m, 1);
			if (said.answer == REVIEW_NONE)
				break;
		}
		review_said_release(&said);
	}
	free(text);
	free(cl.commits);
	return 0;
}

/* The answer of m to the cover root: for every patch of its thread. */
static void collect_cover(struct archive *a, const struct archive_msg *m,
			  const char *root, const char *want,
			  const struct review_said *said,
			  struct review_found **v, size_t *nr, size_t *alloc)
{
	const struct archive_bucket *thread = archive_bucket(a->by_thread, root);
	git_oid commit;
	size_t j;

	for (j = 0; thread && j < thread->nr; j++) {
		if (parse_id(thread->items[j]->message_id, want,
			     &commit) != REVIEW_ID_PATCH)
			continue;
		add_found(v, nr, alloc, &commit, said, m, 1);
		/* What decides nothing is said once. */
		if (said->answer == REVIEW_NONE)
			break;
	}
	if (!thread)
		warning("%s answers the review letter <%s>, whose "
			"patches are not in the archives",
			m->message_id, root);
}

/*
 * The review mail of id, or the first of its thread (the cover) when
 * that one is dated later: a patch mail carries its commit's date, the
 * cover the day it was sent.
 */
static const struct archive_msg *sent_as(const struct archive *a,
					 const char *id)
{
	const struct archive_msg *m = archive_find(a, id), *top;

	if (!m || !m->thread)
		return m;
	top = archive_find(a, m->thread);
	return top && top->time > m->time ? top : m;
}

int review_collect(struct archive *a, git_repository *repo,
		   const char *branch, struct review_found **out, size_t *nr)
{
	char *want = id_branch(branch);
	size_t i, alloc = 0;
	int ret = 0;

	*out = NULL;
	*nr = 0;
	for (i = 0; !ret && i < a->nr; i++) {
		const struct archive_msg *m = a->msgs[i];
		const char *root = NULL;
		struct review_said said;
		enum review_id_kind kind;
		git_oid commit;
		char *body, *sender = NULL;
		size_t before = *nr, j;

		if (m->removed || !m->in_reply_to ||
		    parse_id(m->message_id, want, &commit) != REVIEW_ID_NONE)
			continue;
		kind = answered(a, m, want, &commit, &root);
		if (kind == REVIEW_ID_NONE)
			continue;
		if (read_body(a, m, &body, &sender) < 0) {
			add_skipped(out, nr, &alloc,
				    kind == REVIEW_ID_PATCH ? &commit : NULL, m,
				    xstrdup("it cannot be read again from its "
					    "archive"));
			continue;
		}
		if (kind == REVIEW_ID_CHECKLIST) {
			ret = collect_checklist(a, repo, m, root, body, out, nr,
						&alloc);
		} else {
			review_read_reply(body, &said);
			if (kind == REVIEW_ID_PATCH)
				add_found(out, nr, &alloc, &commit, &said, m, 0);
			else
				collect_cover(a, m, root, want, &said, out, nr,
					      &alloc);
			review_said_release(&said);
		}
		for (j = before; j < *nr; j++) {
			(*out)[j].sender = sender ? xstrdup(sender) : NULL;
			(*out)[j].asked = sent_as(a, root);
		}
		free(sender);
		free(body);
	}
	free(want);
	if (*nr)
		qsort(*out, *nr, sizeof(**out), cmp_found);
	return ret;
}

/* t as the ledger writes a time, or "after 9999". */
static void format_mail_date(char buf[21], git_time_t t)
{
	if (t > 253402300799LL)
		snprintf(buf, 21, "after 9999");
	else
		ledger_format_when(buf, t);
}

char *review_distrust(const struct review_found *f, git_time_t now,
		      git_time_t *date)
{
	const struct archive_msg *m = f->msg;
	char when[21], asked[21];

	if (f->skip)
		return xstrdup(f->skip);
	if (m->time <= 0)
		return xstrdup("its Date: is missing, before 1970 or cannot "
			       "be read");
	format_mail_date(when, m->time);
	if (m->time > now + REVIEW_DATE_SLACK)
		return xstrfmt("its Date: is in the future (%s)", when);
	if (f->asked && f->asked->time > 0 && m->time < f->asked->time) {
		format_mail_date(asked, f->asked->time);
		return xstrfmt("its Date: (%s) is before the review mail <%s> "
			       "it answers was sent (%s)", when,
			       f->asked->message_id, asked);
	}
	*date = m->time < now ? m->time : now;
	return NULL;
}

const char *review_outranked(const struct ledger_entry *old,
			     const struct review_found *f, git_time_t date,
			     char **mark)
{
	const struct ledger_origin *o;
	char day[11];
	const char *lt;

	if (!old)
		return NULL;
	o = &old->origin;
	/* An answer to the whole series: a NAK of one commit stands. */
	if (f->to_cover)
		return "recorded before";
	if (ledger_origin_known(o)) {
		/* Another answer: the later one, by the mails' dates. */
		if ((o->message_id && !strcmp(o->message_id, f->msg->message_id)) ||
		    (o->date ? o->date : old->when) >= date)
			return "recorded before";
		return NULL;
	}
	/*
	 * A decision by mark (or by an older stablepick): the answer does
	 * not outrank it, even written later; it is listed, and mark
	 * decides again if it should count.
	 */
	if (old->when >= date)
		return "recorded before";
	lt = strstr(old->who, " <");
	ledger_format_date(day, old->when);
	*mark = xstrfmt("kept the mark of %s by %.*s", day,
			lt ? (int)(lt - old->who) : (int)strlen(old->who),
			old->who);
	return *mark;
}

void review_found_release(struct review_found *v, size_t nr)
{
	size_t i;

	for (i = 0; i < nr; i++) {
		free(v[i].line);
		free(v[i].until_tag);
		free(v[i].sender);
		free(v[i].skip);
	}
	free(v);
}
