#include "run/picks.h"
#include "base/error.h"
#include "git/history.h"
#include "git/malformed.h"
#include "formats/mbox.h"
#include "formats/message.h"
#include "base/strbuf.h"
#include "base/util.h"

#include <errno.h>
#include <string.h>

/* A line's first word, "#" starting a comment; cut in place. */
static char *first_word(char *line)
{
	char *word;

	line[strcspn(line, "#")] = '\0';
	word = line + strspn(line, " \t\r");
	word[strcspn(word, " \t\r")] = '\0';
	return word;
}

int picks_read_list(git_repository *repo, const char *path, struct audit *a,
		    size_t *skipped)
{
	struct strbuf sb = STRBUF_INIT, src = STRBUF_INIT;
	char *line, *save = NULL;
	size_t lineno = 0;
	int ret = 0;

	if (!strcmp(path, "-")) {
		if (strbuf_read_fd(&sb, 0) < 0)
			ret = error("cannot read the picks from standard input: %s",
				    strerror(errno));
	} else if (strbuf_read_file(&sb, path) < 0) {
		ret = error("cannot read '%s': %s", path, strerror(errno));
	}
	if (ret)
		goto out;
	/* strtok_r() would skip empty lines: walk them by hand. */
	for (line = sb.buf; !ret && line && line < sb.buf + sb.len; line = save) {
		char *end = strchr(line, '\n');
		char *word;
		git_object *obj = NULL, *peeled = NULL;

		save = end ? end + 1 : NULL;
		if (end)
			*end = '\0';
		lineno++;
		word = first_word(line);
		if (!*word)
			continue;
		if (git_revparse_single(&obj, repo, word) < 0 ||
		    git_object_peel(&peeled, obj, GIT_OBJECT_COMMIT) < 0) {
			struct malformed_commit bad;
			git_oid id;

			if (malformed_check_name(&bad, &id, repo, word)) {
				char *done = xstrfmt("the pick of %s:%zu "
						     "skipped", path, lineno);

				malformed_warn(&id, bad.reason, done);
				malformed_release(&bad);
				free(done);
			} else {
				warning("%s:%zu: bad revision '%s', skipped",
					path, lineno, word);
			}
			git_error_clear();
			(*skipped)++;
		} else {
			strbuf_reset(&src);
			strbuf_addf(&src, "%s:%zu", path, lineno);
			audit_add(a, git_object_id(peeled), src.buf);
		}
		git_object_free(peeled);
		git_object_free(obj);
	}
	if (!ret && !a->nr)
		ret = error("%s: no picks", path);
out:
	strbuf_release(&src);
	strbuf_release(&sb);
	return ret;
}

static void set_address(struct audit_address *to, const char *name,
			const char *email)
{
	free(to->name);
	free(to->email);
	to->name = name && *name ? xstrdup(name) : NULL;
	to->email = email && *email ? xstrdup(email) : NULL;
}

/*
 * A patch's author as git am takes it: a "From:" line opening its body
 * (blank lines before it allowed).
 */
static void body_author(struct audit_address *out, const char *body)
{
	struct mbox_address *v = NULL;
	size_t nr = 0;
	char *line;

	body += strspn(body, "\n");
	if (!skip_prefix(body, "From:", &body))
		return;
	line = xstrndup(body, strcspn(body, "\n"));
	mbox_address_list(line, &v, &nr);
	if (nr)
		set_address(out, v[0].name, v[0].email);
	mbox_address_free(v, nr);
	free(line);
}

/* What a reply to m needs of it, and what it is, for audit --mbox. */
static void keep_mail(struct audit_mail *am, const struct mbox_msg *m,
		      const char *source)
{
	size_t i;

	am->source = xstrdup(source);
	am->message_id = m->message_id ? xstrdup(m->message_id) : NULL;
	am->in_reply_to = m->in_reply_to ? xstrdup(m->in_reply_to) : NULL;
	am->references = xcalloc(m->nr_references + 1, sizeof(*am->references));
	for (i = 0; i < m->nr_references; i++)
		am->references[i] = xstrdup(m->references[i]);
	am->nr_references = m->nr_references;
	am->subject = m->subject ? xstrdup(m->subject) : NULL;
	am->title = m->title ? xstrdup(m->title) : NULL;
	am->date = m->date ? xstrdup(m->date) : NULL;
	if (m->from_addr)
		set_address(&am->from, m->from_addr->name, m->from_addr->email);
	am->rcpt = xcalloc(m->nr_to + m->nr_cc + 1, sizeof(*am->rcpt));
	for (i = 0; i < m->nr_to + m->nr_cc; i++) {
		const struct mbox_address *ad = i < m->nr_to ? &m->to[i] :
						 &m->cc[i - m->nr_to];

		set_address(&am->rcpt[am->nr_rcpt++], ad->name, ad->email);
	}
	am->number = m->number;
	am->total = m->total;
	if (m->problem)
		am->kind = AUDIT_MAIL_UNREADABLE;
	else if (m->is_reply)
		am->kind = AUDIT_MAIL_REPLY;
	else if (m->total && !m->number)
		am->kind = AUDIT_MAIL_COVER;
	else
		am->kind = AUDIT_MAIL_UNMATCHED;	/* until it matches */
	if (am->kind == AUDIT_MAIL_REPLY)
		am->review = posted_review_of(m->body, &am->review_line);
	else
		body_author(&am->author, m->body);
}

/* The author of the mainline commit, when the body names none. */
static int commit_author(struct audit_address *out, git_repository *repo,
			 const git_oid *id)
{
	const git_signature *sig;
	git_commit *commit;

	if (out->email)
		return 0;
	if (git_commit_lookup(&commit, repo, id) < 0)
		return error_git("cannot read commit %s", git_oid_tostr_s(id));
	sig = git_commit_author(commit);
	set_address(out, sig->name, sig->email);
	git_commit_free(commit);
	return 0;
}

/*
 * A pick mail: its mainline commit is the one the presence engine
 * finds for it: the commit its upstream line names ("commit X
 * upstream.", "[ Upstream commit X ]"), else the commit of the range
 * with its change (paths and patch-id), else the one commit of the
 * range with its subject and a file of the same name.  Cover letters
 * (0/N) and replies are not picks.  A message that cannot be
 * understood or matched is reported (where: "FILE:LINE: message N",
 * with its Message-ID) and counted in *skipped.  am, when not NULL,
 * is the mail kept for the audit: it learns what the mail is.
 */
static int pick_from_mail(struct run_context *ctx, struct run *run,
			  const struct mbox_msg *m, const char *where,
			  const char *source, struct audit *a, size_t *skipped,
			  struct audit_mail *am)
{
	const char *msgid = m->message_id ? m->message_id : "no Message-ID";
	struct match_found found;
	struct match_pick pick;
	struct audit_pick *p;
	struct message parsed;
	const char *why = NULL;
	int r;

	if (m->problem) {
		warning("%s <%s>: %s; skipped", where, msgid, m->problem);
		if (am)
			am->why = xstrfmt("cannot be read: %s", m->problem);
		(*skipped)++;
		return 0;
	}
	if (m->is_reply || (m->total && !m->number))
		return 0;
	message_init(&parsed);
	message_parse(&parsed, m->body, strlen(m->body));
	message_read_backports(&parsed, m->body, strlen(m->body), &run->rules);
	memset(&pick, 0, sizeof(pick));
	pick.msg = &parsed;
	pick.diff = m->diff;
	pick.subject = m->title;
	r = match_mainline(run_match(run, ctx->repo), &pick, &found, &why);
	if (!r) {
		warning("%s <%s> (\"%s\"): no mainline commit found (%s; no "
			"commit of %s has its change or, alone, its subject); "
			"skipped", where, msgid, m->title ? m->title : "no subject",
			why, run->scan.range);
		if (am)
			am->why = xstrfmt("no mainline commit found (upstream "
					  "line, patch-id and subject all tried "
					  "in %s: %s)", run->scan.range, why);
		(*skipped)++;
	} else if (r > 0) {
		p = audit_add(a, &found.id, source);
		if (m->message_id)
			p->message_id = xstrdup(m->message_id);
		if (am) {
			am->kind = AUDIT_MAIL_PICK;
			p->mail = am;
			r = commit_author(&am->author, ctx->repo, &found.id);
		}
	}
	message_release(&parsed);
	return r < 0 ? -1 : 0;
}

int picks_read_mbox(struct run_context *ctx, struct run *run,
		    const char *path, struct audit *a, size_t *skipped)
{
	struct strbuf src = STRBUF_INIT, where = STRBUF_INIT;
	const struct audit_mail *first = NULL;
	struct mbox mb;
	size_t i;
	int ret;

	mbox_init(&mb);
	if ((ret = mbox_read_file(&mb, path)) < 0)
		goto out;
	for (i = 0; i < mb.nr; i++) {
		const struct mbox_msg *m = &mb.msgs[i];
		struct audit_mail *am = audit_mail_add(a);

		strbuf_reset(&src);
		strbuf_addf(&src, "%s#%zu", path, m->index);
		strbuf_reset(&where);
		strbuf_addf(&where, "%s:%zu: message %zu", path,
			    m->problem && m->problem_line ? m->problem_line : m->line,
			    m->index);
		keep_mail(am, m, src.buf);
		if (am->kind == AUDIT_MAIL_UNMATCHED ||
		    (am->kind == AUDIT_MAIL_UNREADABLE && !m->is_reply &&
		     (m->number || !m->total)))
			am->position = ++a->nr_patches;
		if ((ret = pick_from_mail(ctx, run, m, where.buf, src.buf, a,
					  skipped, am)) < 0)
			break;
		/* The thread: the cover letter, else the first mail. */
		if (m->message_id && !m->is_reply && !m->problem &&
		    (!first || am->kind == AUDIT_MAIL_COVER) &&
		    (!first || first->kind != AUDIT_MAIL_COVER))
			first = am;
	}
	a->thread = first;
	if (!ret && !a->nr && !*skipped)
		ret = error("%s: no pick mails", path);
out:
	strbuf_release(&src);
	strbuf_release(&where);
	mbox_release(&mb);
	return ret;
}

int picks_read_queue(struct run_context *ctx, struct run *run,
		     const char *dir, struct audit *a, size_t *skipped)
{
	struct strbuf series = STRBUF_INIT, path = STRBUF_INIT;
	char *line, *next;
	size_t lineno = 0;
	int ret = 0;

	strbuf_addf(&path, "%s/series", dir);
	if (strbuf_read_file(&series, path.buf) < 0) {
		ret = error("cannot read '%s': %s", path.buf, strerror(errno));
		goto out;
	}
	for (line = series.buf; !ret && line < series.buf + series.len;
	     line = next) {
		char *end = strchr(line, '\n'), *name;
		struct mbox mb;

		next = end ? end + 1 : series.buf + series.len;
		if (end)
			*end = '\0';
		lineno++;
		name = first_word(line);
		if (!*name)
			continue;
		strbuf_reset(&path);
		strbuf_addf(&path, "%s/%s", dir, name);
		mbox_init(&mb);
		if (mbox_read_file(&mb, path.buf) < 0) {
			ret = error("%s/series:%zu: cannot read the patch '%s'",
				    dir, lineno, name);
		} else if (mb.nr != 1) {
			ret = error("%s/series:%zu: '%s' holds %zu messages, not "
				    "one patch", dir, lineno, name, mb.nr);
		} else {
			ret = pick_from_mail(ctx, run, &mb.msgs[0], path.buf,
					     path.buf, a, skipped, NULL);
		}
		mbox_release(&mb);
	}
	if (!ret && !a->nr && !*skipped)
		ret = error("%s/series: no patches", dir);
out:
	strbuf_release(&series);
	strbuf_release(&path);
	return ret;
}

/*
 * A backport that folds several upstream commits (Xen's "master commit:
 * A" and "master commit: B", a fix and its follow-up) is a pick of
 * each: the commits its other upstream lines name, besides first, the
 * one found.  Returns 1, or -1 after an error message.
 */
static int add_folded(struct match *mt, struct audit *a,
		      const struct message *m, const git_oid *first,
		      const git_oid *applied, const char *source)
{
	struct message one = *m;
	struct match_found found;
	struct match_pick pick;
	struct audit_pick *p;
	size_t i;
	int r;

	for (i = 0; i < m->nr_upstream; i++) {
		one.upstream = &m->upstream[i];
		one.nr_upstream = 1;
		memset(&pick, 0, sizeof(pick));
		pick.msg = &one;
		r = match_mainline(mt, &pick, &found, NULL);
		if (r < 0)
			return -1;
		if (!r || found.how != EVIDENCE_UPSTREAM_LINE ||
		    git_oid_equal(&found.id, first))
			continue;
		p = audit_add(a, &found.id, source);
		if (applied)
			git_oid_cpy(&p->applied, applied);
		p->has_applied = applied != NULL;
	}
	return 1;
}

int picks_read_applied(struct run_context *ctx, struct run *run,
		       const char *range, struct audit *a, size_t *skipped)
{
	struct match *mt = run_match(run, ctx->repo);
	struct history_walk walk;
	struct strbuf src = STRBUF_INIT;
	git_oid id;
	int ret;

	history_walk_init(&walk, ctx->repo,
			  GIT_SORT_TOPOLOGICAL | GIT_SORT_REVERSE);
	if (history_walk_push_range(&walk, range) < 0) {
		history_walk_release(&walk);
		return error_git("bad range '%s'", range);
	}
	while (!(ret = history_walk_next(&id, &walk))) {
		struct malformed_commit bad;
		git_commit *commit = NULL;
		struct match_found found;
		struct match_pick pick;
		struct audit_pick *p;
		const char *raw, *why = NULL;
		char hex[GIT_OID_HEXSZ + 1];
		struct message m;
		int r;

		/*
		 * A malformed pick is judged by its message alone: its
		 * change is not read, the mainline commit's is tried.
		 */
		if (malformed_lookup_raw(&commit, &bad, ctx->repo, &id) < 0) {
			ret = error_git("cannot read a commit of %s", range);
			break;
		}
		git_oid_tostr(hex, sizeof(hex), &id);
		if ((commit ? git_commit_parentcount(commit)
			    : bad.nr_parents) > 1) {
			git_commit_free(commit);
			malformed_release(&bad);
			continue;
		}
		raw = commit ? git_commit_message(commit) : bad.message;
		message_init(&m);
		message_parse(&m, raw ? raw : "", raw ? strlen(raw) : 0);
		message_read_backports(&m, raw ? raw : "", raw ? strlen(raw) : 0,
				       &run->rules);
		memset(&pick, 0, sizeof(pick));
		pick.msg = &m;
		pick.commit = commit ? &id : NULL;
		pick.subject = m.subject;
		r = match_mainline(mt, &pick, &found, &why);
		if (r > 0) {
			strbuf_reset(&src);
			strbuf_addf(&src, "%s:%.12s", range, hex);
			p = audit_add(a, &found.id, src.buf);
			git_oid_cpy(&p->applied, &id);
			p->has_applied = commit != NULL;
			if (found.how == EVIDENCE_UPSTREAM_LINE)
				r = add_folded(mt, a, &m, &found.id, commit ?
					       &id : NULL, src.buf);
		} else if (!r && (!m.subject || !starts_with(m.subject, "Linux "))) {
			/* "Linux 6.1.61", the release commit, is no pick. */
			warning("%s: %.12s (\"%s\"): no mainline commit found "
				"(%s; no commit of %s has its change or, alone, "
				"its subject); skipped", range, hex,
				m.subject ? m.subject : "", why, run->scan.range);
			(*skipped)++;
		}
		message_release(&m);
		git_commit_free(commit);
		malformed_release(&bad);
		if (r < 0) {
			ret = -1;
			break;
		}
	}
	history_walk_release(&walk);
	strbuf_release(&src);
	if (ret != GIT_ITEROVER)
		return ret < 0 ? -1 : ret;
	if (!a->nr && !*skipped)
		return error("%s: no commits", range);
	return 0;
}

int picks_judge_outside(struct run_context *ctx, struct run *run,
			const struct audit *a, struct candidate_list *extra)
{
	size_t i;
	int ret = 0;

	for (i = 0; !ret && i < a->nr; i++) {
		const struct audit_pick *p = &a->picks[i];
		git_commit *commit = NULL;
		struct candidate *c;

		if (candidate_list_find(&run->scan.candidates, &p->id) ||
		    candidate_list_find(extra, &p->id))
			continue;
		if (git_commit_lookup(&commit, ctx->repo, &p->id) < 0)
			return error_git("cannot read commit %s", p->hex);
		if (git_commit_parentcount(commit) > 1) {
			git_commit_free(commit);
			return error("%s: %.12s is a merge; list the commits it "
				     "brings in", p->source, p->hex);
		}
		c = candidate_list_add(extra, &p->id);
		ret = scan_fill(&run->scan, c, commit);
		git_commit_free(commit);
	}
	if (!ret && extra->nr)
		ret = run_judge(run, ctx->repo, extra, NULL);
	return ret;
}
