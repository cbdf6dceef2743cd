#include "stages/review.h"
#include "base/error.h"
#include "formats/mbox.h"
#include "stages/posted.h"
#include "base/util.h"

#include <ctype.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#define REVIEW_PREFIX "stablepick-review."

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

enum review_id_kind { REVIEW_ID_NONE, REVIEW_ID_COVER, REVIEW_ID_PATCH };

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

	if (!id || strncmp(id, REVIEW_PREFIX, strlen(REVIEW_PREFIX)))
		return REVIEW_ID_NONE;
	p = id + strlen(REVIEW_PREFIX);
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

		if (k == REVIEW_ID_COVER) {
			*root = m->first_ref;
			return k;
		}
	}
	return REVIEW_ID_NONE;
}

static void add_found(struct review_found **v, size_t *nr, size_t *alloc,
		      const git_oid *commit, enum review_answer ans,
		      const struct archive_msg *m, const char *line, int to_cover)
{
	struct review_found *f;

	ALLOC_GROW(*v, *nr + 1, *alloc);
	f = &(*v)[(*nr)++];
	git_oid_cpy(&f->commit, commit);
	f->answer = ans;
	f->msg = m;
	f->line = xstrdup(line);
	f->to_cover = to_cover;
}

static int cmp_found(const void *x, const void *y)
{
	const struct review_found *a = x, *b = y;

	if (a->msg->time != b->msg->time)
		return a->msg->time < b->msg->time ? -1 : 1;
	return strcmp(a->msg->message_id, b->msg->message_id);
}

int review_collect(struct archive *a, const char *branch,
		   struct review_found **out, size_t *nr)
{
	char *want = id_branch(branch);
	size_t i, j, alloc = 0;
	int ret = 0;

	*out = NULL;
	*nr = 0;
	for (i = 0; !ret && i < a->nr; i++) {
		const struct archive_msg *m = a->msgs[i];
		const struct archive_bucket *thread;
		const char *root = NULL;
		struct mbox mb = MBOX_INIT;
		enum review_id_kind kind;
		enum review_answer ans;
		char *line;
		git_oid commit;

		if (m->removed || !m->in_reply_to ||
		    parse_id(m->message_id, want, &commit) != REVIEW_ID_NONE)
			continue;
		kind = answered(a, m, want, &commit, &root);
		if (kind == REVIEW_ID_NONE)
			continue;
		if (archive_read(a, m, &mb) < 0) {
			ret = -1;
			break;
		}
		/* A NAK outweighs an ack in the same reply. */
		switch (posted_review_of(mb.nr ? mb.msgs[0].body : "", &line)) {
		case POSTED_NAKED:
			ans = REVIEW_NAK;
			break;
		case POSTED_ACKED:
		case POSTED_REVIEWED:
			ans = REVIEW_ACK;
			break;
		default:
			ans = REVIEW_NONE;
			break;
		}
		mbox_release(&mb);
		if (ans == REVIEW_NONE)
			continue;
		if (kind == REVIEW_ID_PATCH) {
			add_found(out, nr, &alloc, &commit, ans, m, line, 0);
		} else {
			/* For the cover: every patch of its thread. */
			thread = archive_bucket(a->by_thread, root);
			for (j = 0; thread && j < thread->nr; j++)
				if (parse_id(thread->items[j]->message_id, want,
					     &commit) == REVIEW_ID_PATCH)
					add_found(out, nr, &alloc, &commit, ans, m,
						  line, 1);
			if (!thread)
				warning("%s answers the review letter <%s>, whose "
					"patches are not in the archives",
					m->message_id, root);
		}
		free(line);
	}
	free(want);
	if (*nr)
		qsort(*out, *nr, sizeof(**out), cmp_found);
	return ret;
}

void review_found_release(struct review_found *v, size_t nr)
{
	size_t i;

	for (i = 0; i < nr; i++)
		free(v[i].line);
	free(v);
}
