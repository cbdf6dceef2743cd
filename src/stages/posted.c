#include "stages/posted.h"
#include "stages/scan.h"
#include "base/ascii.h"
#include "base/error.h"
#include "base/strbuf.h"
#include "base/util.h"

#include <ctype.h>
#include <string.h>

/* Authors are diffed for the patch-id only near a patch mail of theirs. */
#define PATCH_ID_WINDOW (90LL * 86400)
/* Unthreaded series: patches sent by one sender within this long. */
#define UNTHREADED_WINDOW 3600LL

static const char *const how_names[POSTED_HOW__COUNT] = {
	[POSTED_BY_LINK] = "link",
	[POSTED_BY_PATCH_ID] = "patch-id",
	[POSTED_BY_SUBJECT] = "subject",
};

const char *posted_how_name(enum posted_how how)
{
	if ((unsigned)how >= POSTED_HOW__COUNT)
		return "unknown";
	return how_names[how];
}

char *posted_link(const char *message_id)
{
	return xstrfmt("https://lore.kernel.org/r/%s", message_id);
}

void posted_free(struct posted *p)
{
	size_t i;

	if (!p)
		return;
	for (i = 0; i < p->nr_replies; i++)
		free(p->replies[i].text);
	free(p->replies);
	free(p->mates);
	free(p->cover_paragraph);
	free(p);
}

/*
 * Of two patch mails for the same commit: the one posted for mainline
 * rather than a stable backport, then the later revision, then date.
 */
static int better(const struct archive_msg *m, const struct archive_msg *than)
{
	if (!than)
		return 1;
	if (m->backport != than->backport)
		return !m->backport;
	if (m->revision != than->revision)
		return m->revision > than->revision;
	return m->time > than->time;
}

/* A patch, not a cover letter or a reply. */
static int is_patch_mail(const struct archive_msg *m)
{
	return !m->is_reply && (m->number > 0 || !m->total);
}

static int same_series(const struct archive_msg *m, const struct archive_msg *p);

/*
 * A Link: to a cover letter (some maintainers link the series): the
 * patch of its series with the commit's subject, or NULL.
 */
static struct archive_msg *from_cover(struct archive *a, struct archive_msg *cover,
				      const struct candidate *c)
{
	const struct archive_bucket *b = archive_bucket(a->by_thread, cover->thread);
	size_t i;

	for (i = 0; b && c->msg.subject && i < b->nr; i++)
		if (b->items[i]->number > 0 && same_series(b->items[i], cover) &&
		    !strcmp(b->items[i]->title, c->msg.subject))
			return b->items[i];
	return NULL;
}

/* By a Link: (or Message-ID:) trailer. */
static struct archive_msg *by_link(struct archive *a, const struct candidate *c)
{
	static const char *const keys[] = { "Link", "Message-ID" };
	const struct trailer *t;
	struct archive_msg *m;
	size_t i, pos;

	for (i = 0; i < ARRAY_SIZE(keys); i++) {
		for (pos = 0; (t = message_trailer_next(&c->msg, keys[i], &pos)); ) {
			char *id;

			if (i == 0) {
				id = message_link_id(t->val);
			} else {
				const char *v = t->val + (t->val[0] == '<');

				id = xstrndup(v, strcspn(v, ">"));
			}
			m = archive_find(a, id);
			free(id);
			if (m && !m->is_reply && !m->number && m->total)
				m = from_cover(a, m, c);
			if (m && !m->is_reply)
				return m;
		}
	}
	return NULL;
}

/* Whether email posted patches within the window around t. */
static int posted_near(struct archive *a, const char *email, long long t)
{
	const struct archive_bucket *b = archive_bucket(a->by_email, email);
	size_t i;

	for (i = b ? archive_since(b, t - PATCH_ID_WINDOW) : 0;
	     b && i < b->nr && b->items[i]->time < t + PATCH_ID_WINDOW; i++)
		if (b->items[i]->has_patch_id)
			return 1;
	return 0;
}

static struct archive_msg *by_patch_id(struct archive *a, git_repository *repo,
				       struct patchid_cache *cache,
				       const struct candidate *c,
				       const char *email, int *failed)
{
	const struct archive_bucket *b;
	struct archive_msg *best = NULL;
	git_commit *commit = NULL;
	char hex[GIT_OID_HEXSZ + 1];
	git_oid id;
	size_t i;
	int ret;

	if (!*email || !posted_near(a, email, c->time))
		return NULL;
	if (git_commit_lookup(&commit, repo, &c->id) < 0) {
		*failed = error_git("cannot read commit %s", c->hex);
		return NULL;
	}
	ret = patchid_cache_get(cache, repo, commit, &id);
	git_commit_free(commit);
	if (ret == GIT_ENOTFOUND)
		return NULL;
	if (ret < 0) {
		*failed = -1;
		return NULL;
	}
	git_oid_tostr(hex, sizeof(hex), &id);
	b = archive_bucket(a->by_patch_id, hex);
	for (i = 0; b && i < b->nr; i++)
		if (!strcmp(b->items[i]->email, email) && better(b->items[i], best))
			best = b->items[i];
	return best;
}

static struct archive_msg *by_subject(struct archive *a, const struct candidate *c,
				      const char *email)
{
	const struct archive_bucket *b;
	struct archive_msg *best = NULL;
	size_t i;

	if (!*email || !c->msg.subject)
		return NULL;
	b = archive_bucket(a->by_title, c->msg.subject);
	for (i = 0; b && i < b->nr; i++)
		if (is_patch_mail(b->items[i]) && !strcmp(b->items[i]->email, email) &&
		    better(b->items[i], best))
			best = b->items[i];
	return best;
}

/*
 * One of the series of p: same sender, total, revision and kind
 * (mainline or backport), not a reply.
 */
static int same_series(const struct archive_msg *m, const struct archive_msg *p)
{
	return !m->is_reply && m->total == p->total && m->revision == p->revision &&
	       m->backport == p->backport &&
	       m->number >= 0 && m->number <= m->total && !strcmp(m->email, p->email);
}

static void add_member(const struct archive_msg **by_number, const struct archive_msg *m)
{
	/* The first mail of a number counts (a resend of it adds nothing). */
	if (!by_number[m->number] || m->time < by_number[m->number]->time)
		by_number[m->number] = m;
}

/*
 * The series of p, by number (0: the cover letter): from its thread,
 * else from what its sender sent within the hour.
 */
static void find_series(struct archive *a, const struct archive_msg *p,
			const struct archive_msg **by_number)
{
	const struct archive_bucket *b = archive_bucket(a->by_thread, p->thread);
	size_t i;
	int n, found = 0;

	for (i = 0; b && i < b->nr; i++)
		if (same_series(b->items[i], p))
			add_member(by_number, b->items[i]);
	for (n = 0; n <= p->total; n++)
		found += by_number[n] && by_number[n] != p;
	if (found)
		return;
	b = archive_bucket(a->by_email, p->email);
	for (i = b ? archive_since(b, p->time - UNTHREADED_WINDOW) : 0;
	     b && i < b->nr && b->items[i]->time < p->time + UNTHREADED_WINDOW; i++)
		if (same_series(b->items[i], p))
			add_member(by_number, b->items[i]);
}

/* A later revision: a title of the series, sent again as "vN". */
static void find_latest(struct archive *a, struct posted *pp,
			const struct archive_msg **by_number)
{
	const struct archive_msg *p = pp->msg;
	int n;
	size_t i;

	pp->latest_revision = p->revision;
	for (n = 0; n <= pp->total; n++) {
		const struct archive_bucket *b;

		if (!by_number[n])
			continue;
		b = archive_bucket(a->by_title, by_number[n]->title);
		for (i = 0; b && i < b->nr; i++) {
			const struct archive_msg *m = b->items[i];

			if (m->revision <= pp->latest_revision || m->backport ||
			    strcmp(m->email, p->email))
				continue;
			pp->latest_revision = m->revision;
			pp->latest = m;
		}
	}
	/* Name the later revision by its cover letter, or its first patch. */
	if (pp->latest) {
		const struct archive_msg *l = pp->latest, *first = NULL;
		const struct archive_bucket *b = archive_bucket(a->by_thread, l->thread);

		for (i = 0; b && i < b->nr; i++)
			if (same_series(b->items[i], l) &&
			    (!first || b->items[i]->number < first->number))
				first = b->items[i];
		if (first)
			pp->latest = first;
	}
}

/* Whether line is an attribution ("On Mon, ... Dave wrote:"). */
static int is_attribution(const char *line, size_t len)
{
	while (len && (line[len - 1] == ' ' || line[len - 1] == '\t'))
		len--;
	return len >= 6 && !memcmp(line + len - 6, "wrote:", 6);
}

/*
 * Whether line opens an Outlook-style quote: "-----Original
 * Message-----" (or "----- Original Message -----"), in any case.
 */
static int is_original_message(const char *line, size_t len)
{
	static const char word[] = "original message";
	size_t i = 0;

	while (i < len && (line[i] == '-' || is_blank((unsigned char)line[i])))
		i++;
	while (len > i && (line[len - 1] == '-' || is_blank((unsigned char)line[len - 1]) ||
			   line[len - 1] == '\r'))
		len--;
	return i >= 3 && len - i == sizeof(word) - 1 &&
	       !ascii_strncasecmp(line + i, word, sizeof(word) - 1);
}

/*
 * What a reply says: the lines that are not quoted (">"), not an
 * attribution, not after a signature ("-- "), an Outlook-style quote
 * ("-----Original Message-----") or the start of a diff.
 */
char *posted_reply_text(const char *body)
{
	struct strbuf sb = STRBUF_INIT;
	const char *p = body;

	while (*p) {
		size_t len = strcspn(p, "\n");

		if ((len == 3 && !memcmp(p, "-- ", 3)) || starts_with(p, "diff --git ") ||
		    is_original_message(p, len))
			break;
		if (*p != '>' && !is_attribution(p, len)) {
			strbuf_add(&sb, p, len);
			strbuf_addch(&sb, '\n');
		}
		p += len;
		if (*p)
			p++;
	}
	strbuf_trim(&sb);
	return strbuf_detach(&sb, NULL);
}

/* A line of text that starts with the word "NAK" (or "NACK"), or NULL. */
static char *nak_line(const char *text)
{
	const char *p = text;

	while (*p) {
		size_t len = strcspn(p, "\n"), skip = strspn(p, " \t"), w;

		w = starts_with(p + skip, "NAK") ? 3 :
		    starts_with(p + skip, "NACK") ? 4 : 0;
		if (w && skip + w <= len && !isalnum((unsigned char)p[skip + w]) &&
		    p[skip + w] != '-')
			return xstrndup(p + skip, len - skip);
		p += len;
		if (*p)
			p++;
	}
	return NULL;
}

static const char *const keys_of_review[] = {
	"Nacked-by", "Acked-by", "Reviewed-by",
};

/*
 * Takes out of text (in place) the indented lines that start with one
 * of keys and a colon: an "Acked-by:" is the sender's own at the left
 * margin only, not one quoted by indenting it.
 */
static void drop_indented_keys(char *text, const char *const *keys, size_t nr)
{
	char *p = text, *out = text;

	while (*p) {
		size_t len = strcspn(p, "\n"), skip = strspn(p, " \t"), i;
		int drop = 0;

		for (i = 0; skip && skip < len && i < nr && !drop; i++) {
			size_t k = strlen(keys[i]), j = skip + k;

			if (ascii_strncasecmp(p + skip, keys[i], k))
				continue;
			while (j < len && is_blank((unsigned char)p[j]))
				j++;
			drop = j < len && p[j] == ':';
		}
		if (p[len])
			len++;
		if (!drop) {
			memmove(out, p, len);
			out += len;
		}
		p += len;
	}
	*out = '\0';
}

enum posted_review posted_review_of(const char *body, char **line)
{
	static const struct {
		const char *key;
		enum posted_review review;
	} keys[] = {
		{ "Nacked-by", POSTED_NAKED },
		{ "Acked-by", POSTED_ACKED },
		{ "Reviewed-by", POSTED_REVIEWED },
	};
	char *text = posted_reply_text(body), *msg;
	enum posted_review review = POSTED_SILENT;
	const struct trailer *t;
	struct message m;
	size_t i, pos;

	/* The parser takes a first line as the subject: give it one. */
	msg = xstrfmt("reply\n\n%s\n", text);
	drop_indented_keys(msg, keys_of_review, ARRAY_SIZE(keys_of_review));
	message_init(&m);
	message_parse(&m, msg, strlen(msg));
	*line = NULL;
	for (i = 0; i < ARRAY_SIZE(keys) && !*line; i++) {
		pos = 0;
		if ((t = message_trailer_next(&m, keys[i].key, &pos))) {
			*line = xstrfmt("%s: %s", t->key, t->val);
			review = keys[i].review;
		} else if (keys[i].review == POSTED_NAKED &&
			   (*line = nak_line(text))) {
			review = POSTED_NAKED;
		}
	}
	message_release(&m);
	free(msg);
	free(text);
	return review;
}

/* Whether a greeting line ("Hi all,", "Hello Darrick,") opens a text. */
static int is_greeting(const char *para, size_t len)
{
	return len < 40 && !memchr(para, '\n', len) && len &&
	       (para[len - 1] == ',' || para[len - 1] == ':' || para[len - 1] == '!');
}

/* The first paragraph of a cover letter's body, on one line. */
static char *first_paragraph(const char *body)
{
	struct strbuf sb = STRBUF_INIT;
	const char *p = body;

	for (;;) {
		const char *end;

		while (*p == '\n' || *p == ' ' || *p == '\t')
			p++;
		end = strstr(p, "\n\n");
		if (!end)
			end = p + strlen(p);
		if (is_greeting(p, (size_t)(end - p))) {
			p = end;
			continue;
		}
		for (; p < end; p++)
			strbuf_addch(&sb, *p == '\n' ? ' ' : *p);
		break;
	}
	strbuf_trim(&sb);
	if (!sb.len) {
		strbuf_release(&sb);
		return NULL;
	}
	return strbuf_detach(&sb, NULL);
}

/* Reads m's body; NULL (error printed) when it cannot be read. */
static char *read_body(struct archive *a, const struct archive_msg *m, int *failed)
{
	struct mbox mb = MBOX_INIT;
	char *body = NULL;

	if (archive_read(a, m, &mb) < 0)
		*failed = -1;
	else
		body = xstrdup(mb.msgs[0].body);
	mbox_release(&mb);
	return body;
}

static int is_member(const struct archive_msg **by_number, int total,
		     const struct archive_msg *m)
{
	int n;

	for (n = 0; n <= total; n++)
		if (by_number[n] == m)
			return 1;
	return 0;
}

/*
 * The replies of the thread that answer the patch or the cover letter,
 * not through another patch of the series.
 */
static int find_replies(struct archive *a, struct posted *pp,
			const struct archive_msg **by_number)
{
	const struct archive_bucket *b = archive_bucket(a->by_thread, pp->msg->thread);
	size_t i, alloc = 0;
	int failed = 0;

	for (i = 0; b && i < b->nr; i++) {
		const struct archive_msg *m = b->items[i], *up = m;
		int depth, to = 0;
		char *body;

		if (is_member(by_number, pp->total, m))
			continue;
		for (depth = 0; depth < 100 && up->in_reply_to; depth++) {
			up = archive_find(a, up->in_reply_to);
			if (!up)
				break;
			if (up == pp->msg) {
				to = 1;
				break;
			}
			if (pp->cover && up == pp->cover) {
				to = 2;
				break;
			}
			if (is_member(by_number, pp->total, up))
				break;		/* about another patch */
		}
		if (!to)
			continue;
		body = read_body(a, m, &failed);
		if (!body)
			break;
		ALLOC_GROW(pp->replies, pp->nr_replies, alloc);
		pp->replies[pp->nr_replies].msg = m;
		pp->replies[pp->nr_replies].text = posted_reply_text(body);
		pp->replies[pp->nr_replies].to_cover = to == 2;
		pp->nr_replies++;
		free(body);
	}
	return failed;
}

/* The first paragraph of each cover letter read so far in a run. */
struct cover_memo {
	const struct archive_msg *cover;
	char *paragraph;		/* or NULL: none */
	UT_hash_handle hh;
};

/*
 * The first paragraph of cover, read once however many patches of its
 * series are candidates; a new string or NULL.  *failed is set when
 * the cover letter cannot be read.
 */
static char *cover_paragraph(struct archive *a, struct cover_memo **memo,
			     const struct archive_msg *cover, int *failed)
{
	struct cover_memo *e;
	char *body;

	HASH_FIND_PTR(*memo, &cover, e);
	if (!e) {
		body = read_body(a, cover, failed);
		if (!body)
			return NULL;
		e = xcalloc(1, sizeof(*e));
		e->cover = cover;
		e->paragraph = first_paragraph(body);
		free(body);
		HASH_ADD_PTR(*memo, cover, e);
	}
	return e->paragraph ? xstrdup(e->paragraph) : NULL;
}

static int describe(struct archive *a, struct cover_memo **memo,
		    struct posted *pp)
{
	const struct archive_msg *p = pp->msg;
	const struct archive_msg **by_number;
	int n, failed = 0;

	/* "[PATCH 5/3]" is no place in a series: taken as posted alone. */
	int alone = !p->total || p->number < 1 || p->number > p->total;

	pp->position = alone ? 0 : p->number;
	pp->total = alone ? 0 : p->total;
	pp->revision = p->revision;
	pp->latest_revision = p->revision;
	if (alone) {
		pp->series_subject = p->title;
		pp->first = p;
		by_number = xcalloc(1, sizeof(*by_number));
		by_number[0] = p;
		find_latest(a, pp, by_number);
		failed = find_replies(a, pp, by_number);
		free(by_number);
		return failed;
	}
	by_number = xcalloc((size_t)p->total + 1, sizeof(*by_number));
	by_number[p->number] = p;
	find_series(a, p, by_number);
	by_number[p->number] = p;
	pp->cover = by_number[0];
	for (n = 0; !pp->first && n <= p->total; n++)
		pp->first = by_number[n];
	pp->series_subject = pp->first->title;
	pp->mates = xcalloc((size_t)p->total, sizeof(*pp->mates));
	for (n = 1; n <= p->total; n++)
		if (n != p->number && by_number[n])
			pp->mates[pp->nr_mates++].msg = by_number[n];
	find_latest(a, pp, by_number);
	if (pp->cover)
		pp->cover_paragraph = cover_paragraph(a, memo, pp->cover, &failed);
	if (!failed)
		failed = find_replies(a, pp, by_number);
	free(by_number);
	return failed;
}

int posted_attach(struct archive *a, git_repository *repo,
		  struct patchid_cache *patchids, struct candidate_list *l)
{
	struct cover_memo *memo = NULL, *e, *tmp;
	size_t i;
	int failed = 0;

	for (i = 0; !failed && i < l->nr; i++) {
		struct candidate *c = l->items[i];
		struct archive_msg *m;
		enum posted_how how = POSTED_BY_LINK;
		char *email;

		if (c->archive_searched)
			continue;
		c->archive_searched = 1;
		email = archive_email(c->author);
		m = by_link(a, c);
		if (!m) {
			how = POSTED_BY_PATCH_ID;
			m = by_patch_id(a, repo, patchids, c, email, &failed);
		}
		if (!m && !failed) {
			how = POSTED_BY_SUBJECT;
			m = by_subject(a, c, email);
		}
		free(email);
		if (!m)
			continue;
		c->posted = xcalloc(1, sizeof(*c->posted));
		c->free_posted = posted_free;
		c->posted->msg = m;
		c->posted->how = how;
		failed = describe(a, &memo, c->posted);
	}
	HASH_ITER(hh, memo, e, tmp) {
		HASH_DEL(memo, e);
		free(e->paragraph);
		free(e);
	}
	return failed ? -1 : 0;
}

/* The commits of a run by the message-id they were found posted as. */
struct by_msg {
	const char *id;
	struct candidate *c;
	UT_hash_handle hh;
};

static void index_list(struct by_msg **head, const struct candidate_list *l)
{
	size_t i;

	for (i = 0; l && i < l->nr; i++) {
		struct candidate *c = l->items[i];
		struct by_msg *e;

		if (!c->posted)
			continue;
		HASH_FIND_STR(*head, c->posted->msg->message_id, e);
		if (e)
			continue;
		e = xcalloc(1, sizeof(*e));
		e->id = c->posted->msg->message_id;
		e->c = c;
		HASH_ADD_KEYPTR(hh, *head, e->id, strlen(e->id), e);
	}
}

static void free_index(struct by_msg **head)
{
	struct by_msg *e, *tmp;

	HASH_ITER(hh, *head, e, tmp) {
		HASH_DEL(*head, e);
		free(e);
	}
}

/* A subject alone is the same patch only from the same author. */
static struct candidate *mate_commit(struct by_msg *ids, struct match *m,
				     const struct archive_msg *msg)
{
	struct match_found found;
	struct match_pick pick;
	struct by_msg *e;

	HASH_FIND_STR(ids, msg->message_id, e);
	if (e)
		return e->c;
	memset(&pick, 0, sizeof(pick));
	pick.subject = msg->title;
	pick.author_email = msg->email;
	pick.by_author = 1;
	if (match_mainline(m, &pick, &found, NULL) <= 0 ||
	    found.how != EVIDENCE_SUBJECT)
		return NULL;
	return found.cand;
}

void posted_mates(struct candidate_list *l, struct match *m)
{
	struct by_msg *ids = NULL;
	size_t i, j;

	index_list(&ids, l);
	if (m->scan && &m->scan->candidates != l)
		index_list(&ids, &m->scan->candidates);
	for (i = 0; i < l->nr; i++) {
		struct posted *p = l->items[i]->posted;

		for (j = 0; p && j < p->nr_mates; j++) {
			struct posted_mate *mt = &p->mates[j];

			mt->cand = mate_commit(ids, m, mt->msg);
			if (mt->cand && mt->cand->present) {
				mt->status = "present";
			} else if (mt->cand && mt->cand->maybe_present) {
				mt->status = "maybe-present";
			} else if (mt->cand) {
				mt->status = mt->cand->verdict == VERDICT_PROPOSED ||
					     mt->cand->verdict == VERDICT_NEEDS_ACK ?
					     "proposed" : "absent";
			} else {
				mt->status = match_branch_subject(m, mt->msg->title) ?
					     "maybe-present" : "not-found";
			}
		}
	}
	free_index(&ids);
}
