#include <autoconf.h>

#include "report/report-review.h"
#include "base/error.h"
#include "store/ledger.h"
#include "base/lockfile.h"
#include "base/util.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int report_review_sends(const struct candidate *c)
{
	const struct subsystem *s = candidate_subsystem(c);

	return c->verdict == VERDICT_NEEDS_ACK && !c->listed_before &&
	       s && s->policy == POLICY_OPT_IN && c->apply_checked &&
	       c->apply.applies;
}

static int cmp_order(const void *a, const void *b)
{
	const struct candidate *x = *(const struct candidate *const *)a;
	const struct candidate *y = *(const struct candidate *const *)b;

	return x->order < y->order ? -1 : x->order > y->order;
}

/* The candidates of l that sel picks (of subsystem s, if set), in mainline order. */
static size_t pick(const struct candidate_list *l, const struct subsystem *s,
		   int (*sel)(const struct candidate *), struct candidate ***out)
{
	size_t i, nr = 0;

	*out = xcalloc(l->nr ? l->nr : 1, sizeof(**out));
	for (i = 0; i < l->nr; i++)
		if (sel(l->items[i]) &&
		    (!s || candidate_subsystem(l->items[i]) == s))
			(*out)[nr++] = l->items[i];
	QSORT(*out, nr, cmp_order);
	return nr;
}

/* A needs-ack commit of an opt-in subsystem that does not apply. */
static int review_manual(const struct candidate *c)
{
	const struct subsystem *s = candidate_subsystem(c);

	return c->verdict == VERDICT_NEEDS_ACK && !c->listed_before &&
	       s && s->policy == POLICY_OPT_IN && !report_review_sends(c);
}

/* The addresses of s's review mail: its lists, Cc its maintainers. */
static void review_recipients(const struct report *r, const struct subsystem *s,
			      const struct mail_addrs *maintainers,
			      struct mail_addrs *to, struct mail_addrs *cc)
{
	size_t i;

	report_mail_recipients(r, &s, 1, to, cc);
	for (i = 0; maintainers && i < maintainers->nr; i++)
		if (!mail_addrs_has(to, maintainers->v[i].email))
			mail_addrs_add_pair(cc, maintainers->v[i].name,
					    maintainers->v[i].email);
	mail_addrs_remove(cc, r->from_email);
}

static void add_cover(struct strbuf *out, const struct report *r,
		      const struct subsystem *s, struct candidate **sent,
		      size_t nr, const struct candidate_list *l,
		      const char *id, const struct mail_addrs *maintainers)
{
	struct mail_addrs to = MAIL_ADDRS_INIT, cc = MAIL_ADDRS_INIT;
	struct strbuf subj = STRBUF_INIT, text = STRBUF_INIT;
	struct candidate **manual;
	size_t i, nr_manual = pick(l, s, review_manual, &manual);

	review_recipients(r, s, maintainers, &to, &cc);
	strbuf_addstr(&subj, "[PATCH ");
	report_branch_version(&subj, r->branch);
	strbuf_addf(&subj, " 0/%zu] %s: candidates for ", nr, s->name);
	report_branch_version(&subj, r->branch);
	strbuf_addf(&subj, "%s, please ack", r->branch->major >= 0 ? ".y" : "");

	/* As git format-patch starts a cover letter. */
	strbuf_addf(out, "From %040d Mon Sep 17 00:00:00 2001\n", 0);
	mail_address_header(out, "From", r->from_name, r->from_email);
	mail_addrs_header(out, "To", &to);
	mail_addrs_header(out, "Cc", &cc);
	mail_header(out, "Subject", NULL, subj.buf);
	mail_date_header(out, (git_time_t)r->now, 0);
	mail_id_header(out, "Message-ID", id);
	mail_text_body(out);
	strbuf_addf(&text, "These %s commits qualify for %s by the rules, and "
		    "%s takes to stable only what its maintainers approve.  "
		    "The %zu that apply follow in reply.  Please answer a patch "
		    "with Acked-by: or Reviewed-by: to take it, or with "
		    "Nacked-by: and the reason to leave it out; an answer to "
		    "this letter counts for every patch.", s->name,
		    r->branch->name, s->name, nr);
	mail_wrap(out, text.buf, 0, 0, 72);
	strbuf_addstr(out, "\n\n");
	for (i = 0; i < nr; i++) {
		strbuf_reset(&text);
		strbuf_addf(&text, "%zu/%zu %.12s %s", i + 1, nr, sent[i]->hex,
			    sent[i]->msg.subject ? sent[i]->msg.subject : "");
		strbuf_addstr(out, "  ");
		mail_wrap(out, text.buf, 2, 6, 72);
		strbuf_addch(out, '\n');
		strbuf_reset(&text);
		strbuf_addf(&text, "score %lld: ", sent[i]->score);
		report_reasons(&text, sent[i]);
		strbuf_addchars(out, ' ', 6);
		mail_wrap(out, text.buf, 6, 6, 72);
		strbuf_addch(out, '\n');
	}
	if (nr_manual) {
		strbuf_addstr(out, "\nAlso waiting for an ack, but in need of a "
			      "manual backport:\n");
		for (i = 0; i < nr_manual; i++) {
			strbuf_reset(&text);
			strbuf_addf(&text, "%.12s %s", manual[i]->hex,
				    manual[i]->msg.subject ? manual[i]->msg.subject : "");
			strbuf_addstr(out, "  ");
			mail_wrap(out, text.buf, 2, 6, 72);
			strbuf_addch(out, '\n');
		}
	}
	strbuf_addf(out, "\n-- \nstablepick %s\n\n", PACKAGE_VERSION);
	free(manual);
	strbuf_release(&text);
	strbuf_release(&subj);
	mail_addrs_release(&to);
	mail_addrs_release(&cc);
}

/*
 * What a review mail of subsystem s holds: its needs-ack commits that
 * the review sends, in *out (nr of them; none unless s is opt-in), and
 * *maintainers, those of people for s (NULL: none found).
 */
static size_t review_items(const struct candidate_list *l,
			   const struct subsystem *s,
			   const struct review_people *people,
			   size_t nr_people, struct candidate ***out,
			   const struct mail_addrs **maintainers)
{
	size_t i;

	*out = NULL;
	*maintainers = NULL;
	if (s->policy != POLICY_OPT_IN)
		return 0;
	for (i = 0; i < nr_people; i++)
		if (people[i].s == s)
			*maintainers = &people[i].maintainers;
	return pick(l, s, report_review_sends, out);
}

size_t report_review(struct strbuf *out, const struct report *r,
		     const struct candidate_list *l, const git_oid *tip,
		     const struct review_people *people, size_t nr_people)
{
	size_t i, j, threads = 0;

	for (i = 0; i < r->rules->nr_subsystems; i++) {
		const struct subsystem *s = r->rules->subsystems[i];
		const struct mail_addrs *m;
		struct candidate **sent;
		size_t nr = review_items(l, s, people, nr_people, &sent, &m);
		char *cover;

		if (!nr) {
			free(sent);
			continue;
		}
		cover = review_cover_id(r->branch->name, tip, s->name,
					r->from_email);
		add_cover(out, r, s, sent, nr, l, cover, m);
		for (j = 0; j < nr; j++) {
			struct patch_mail pm = { 0 };
			char *id = review_patch_id(r->branch->name, tip,
						   &sent[j]->id, r->from_email);

			pm.n = j + 1;
			pm.total = nr;
			pm.message_id = id;
			pm.in_reply_to = cover;
			pm.cc = m;
			pm.patch = sent[j]->patch;
			report_patch_mail(out, r, sent[j], &pm);
			free(id);
		}
		free(cover);
		free(sent);
		threads++;
	}
	return threads;
}

static void add_checklist(struct strbuf *out, const struct report *r,
			  const struct subsystem *s, struct candidate **items,
			  size_t nr, const char *id,
			  const struct mail_addrs *maintainers)
{
	struct mail_addrs to = MAIL_ADDRS_INIT, cc = MAIL_ADDRS_INIT;
	struct strbuf subj = STRBUF_INIT, text = STRBUF_INIT;
	size_t i;

	review_recipients(r, s, maintainers, &to, &cc);
	strbuf_addstr(&subj, "[CHECKLIST ");
	report_branch_version(&subj, r->branch);
	strbuf_addf(&subj, "] %s: %zu candidate%s for ", s->name, nr,
		    nr == 1 ? "" : "s");
	report_branch_version(&subj, r->branch);
	strbuf_addf(&subj, "%s, please answer by number",
		    r->branch->major >= 0 ? ".y" : "");
	strbuf_addf(out, "From %040d Mon Sep 17 00:00:00 2001\n", 0);
	mail_address_header(out, "From", r->from_name, r->from_email);
	mail_addrs_header(out, "To", &to);
	mail_addrs_header(out, "Cc", &cc);
	mail_header(out, "Subject", NULL, subj.buf);
	mail_date_header(out, (git_time_t)r->now, 0);
	mail_id_header(out, "Message-ID", id);
	mail_text_body(out);
	strbuf_addf(&text, "These %s commits qualify for %s by the rules, and "
		    "%s takes to stable only what its maintainers approve.  "
		    "Please answer this mail with a line for each, its number "
		    "and your answer, as in \"1 y\", \"2 n: needs the prep "
		    "patch\", \"3 defer v6.6.9\": y, yes or ack takes it; n, "
		    "no or nak (and why) leaves it out; defer (or \"not yet\") "
		    "asks again once the branch has the release named, or on "
		    "the date named (YYYY-MM-DD), else in a week.  Quoted "
		    "lines (\"> \") are not read.", s->name, r->branch->name,
		    s->name);
	mail_wrap(out, text.buf, 0, 0, 72);
	strbuf_addstr(out, "\n\n");
	for (i = 0; i < nr; i++) {
		strbuf_reset(&text);
		strbuf_addf(&text, "%zu. %.12s %s", i + 1, items[i]->hex,
			    items[i]->msg.subject ? items[i]->msg.subject : "");
		strbuf_addstr(out, "  ");
		mail_wrap(out, text.buf, 2, 6, 72);
		strbuf_addch(out, '\n');
		strbuf_reset(&text);
		strbuf_addf(&text, "score %lld: ", items[i]->score);
		report_reasons(&text, items[i]);
		strbuf_addchars(out, ' ', 6);
		mail_wrap(out, text.buf, 6, 6, 72);
		strbuf_addch(out, '\n');
	}
	strbuf_addf(out, "\n-- \nstablepick %s\n\n", PACKAGE_VERSION);
	strbuf_release(&text);
	strbuf_release(&subj);
	mail_addrs_release(&to);
	mail_addrs_release(&cc);
}

size_t report_checklist(struct strbuf *out, const struct report *r,
			const struct candidate_list *l, const git_oid *tip,
			const struct review_people *people, size_t nr_people)
{
	size_t i, mails = 0;

	for (i = 0; i < r->rules->nr_subsystems; i++) {
		const struct subsystem *s = r->rules->subsystems[i];
		const struct mail_addrs *m;
		struct candidate **items;
		size_t nr = review_items(l, s, people, nr_people, &items, &m);
		char *id;

		if (nr) {
			id = review_checklist_id(r->branch->name, tip, s->name,
						 r->from_email);
			add_checklist(out, r, s, items, nr, id, m);
			free(id);
			mails++;
		}
		free(items);
	}
	return mails;
}

/* In the queue, applying and changing something (an empty patch stops git am). */
static int in_queue(const struct candidate *c)
{
	return c->queued && c->queue_apply.applies &&
	       c->queue_apply.nr_changes;
}

/* The queue's order when it was made again with series, else mainline's. */
static int cmp_queue(const void *a, const void *b)
{
	const struct candidate *x = *(const struct candidate *const *)a;
	const struct candidate *y = *(const struct candidate *const *)b;

	if (x->queue_pos && y->queue_pos)
		return x->queue_pos < y->queue_pos ? -1 :
		       x->queue_pos > y->queue_pos;
	return x->order < y->order ? -1 : x->order > y->order;
}

size_t report_queue(const struct candidate_list *l,
		    const struct candidate_list *outside,
		    struct candidate ***out)
{
	size_t i, nr = 0, more = outside ? outside->nr : 0;

	*out = xcalloc(l->nr + more ? l->nr + more : 1, sizeof(**out));
	for (i = 0; i < l->nr; i++)
		if (in_queue(l->items[i]))
			(*out)[nr++] = l->items[i];
	for (i = 0; i < more; i++)
		if (in_queue(outside->items[i]))
			(*out)[nr++] = outside->items[i];
	QSORT(*out, nr, cmp_queue);
	return nr;
}

void report_queue_count(const struct candidate_list *l, struct queue_count *n)
{
	size_t i;

	memset(n, 0, sizeof(*n));
	for (i = 0; i < l->nr; i++) {
		const struct candidate *c = l->items[i];

		if (!c->queued || c->verdict != VERDICT_ACCEPTED)
			continue;
		n->accepted++;
		n->left_out += !c->queue_apply.applies;
	}
}

void report_queue_add(struct queue_count *n, const struct candidate *c)
{
	if (c->verdict == VERDICT_ACCEPTED)
		n->added++;
	else
		n->prereqs++;
}

void report_queue_note(struct strbuf *out, const struct queue_count *n,
		       const char *where)
{
	strbuf_addf(out, "%zu of %zu accepted patch%s added to %s", n->added,
		    n->accepted, n->accepted == 1 ? "" : "es", where);
	if (n->prereqs)
		strbuf_addf(out, ", with %zu prerequisite%s", n->prereqs,
			    n->prereqs == 1 ? "" : "s");
	if (n->left_out)
		strbuf_addf(out, "; %zu left out: %s a manual backport",
			    n->left_out,
			    n->left_out == 1 ? "it needs" : "each needs");
}

/*
 * The trailer that acks recorded when c was accepted: the ledger's
 * reason of its decision, when it is one ("Acked-by: Name <email> in
 * <message-id>", as acks writes it, or a reason given to mark in that
 * form), without the message-id; NULL when none.  The caller frees.
 */
static char *recorded_trailer(const struct candidate *c)
{
	static const char *const keys[] = {
		"Acked-by: ", "Reviewed-by: ", "Tested-by: "
	};
	const char *reason, *in;
	size_t i, len;

	if (c->verdict != VERDICT_ACCEPTED || !c->decision ||
	    c->decision->decision != DECISION_ACCEPTED)
		return NULL;
	reason = c->decision->reason;
	for (i = 0; i < ARRAY_SIZE(keys); i++)
		if (!ascii_strncasecmp(reason, keys[i], strlen(keys[i])))
			break;
	if (i == ARRAY_SIZE(keys))
		return NULL;
	len = strlen(reason);
	in = strstr(reason, " in <");
	if (in && reason[len - 1] == '>')
		len = (size_t)(in - reason);
	if (len <= strlen(keys[i]))
		return NULL;
	/* As git writes the key, whatever the case it was written in. */
	return xstrfmt("%s%.*s\n", keys[i], (int)(len - strlen(keys[i])),
		       reason + strlen(keys[i]));
}

/* c's patch mail in the queue: its prerequisite mark and trailers. */
static void queue_patch_mail(struct strbuf *out, const struct report *r,
			     const struct candidate *c, struct patch_mail *pm,
			     const char *signoff)
{
	char *trailer = recorded_trailer(c);

	pm->patch = c->patch;
	pm->dep_of = c->queue_for;
	pm->trailers = trailer;
	pm->signoff = signoff;
	report_patch_mail(out, r, c, pm);
	free(trailer);
}

void report_queue_mbox(struct strbuf *out, const struct report *r,
		       struct candidate **queue, size_t nr, const char *id,
		       const char *signoff)
{
	char *first = NULL;
	size_t i;

	for (i = 0; i < nr; i++) {
		struct patch_mail pm = { 0 };
		char *mine = xstrfmt("%zu-%zu.%s", i + 1, nr, id);

		pm.n = i + 1;
		pm.total = nr;
		pm.message_id = mine;
		pm.in_reply_to = first;
		queue_patch_mail(out, r, queue[i], &pm, signoff);
		if (!first)
			first = mine;
		else
			free(mine);
	}
	free(first);
}

void report_acks(struct strbuf *out, const struct ack_outcome *v, size_t nr,
		 int dry_run)
{
	size_t i;

	if (!nr)
		strbuf_addstr(out, "no answer to a review mail of this branch\n");
	for (i = 0; i < nr; i++) {
		const struct review_found *f = v[i].found;
		const struct ledger_entry *e = v[i].entry;
		char hex[GIT_OID_HEXSZ + 1], day[11];

		git_oid_tostr(hex, sizeof(hex), &f->commit);
		strbuf_addf(out, "%s%s", dry_run && e ? "would be " : "",
			    v[i].what);
		if (e && e->decision == DECISION_DEFERRED)
			strbuf_addf(out, " until %s", ledger_until_text(e, day));
		if (!git_oid_is_zero(&f->commit))
			strbuf_addf(out, " %.12s %s", hex,
				    v[i].cand && v[i].cand->msg.subject ?
				    v[i].cand->msg.subject : "");
		strbuf_addstr(out, "\n    ");
		if (v[i].cause) {
			strbuf_addf(out, "%s (%s, <%s>, in %s at %s)\n",
				    v[i].cause, f->msg->from,
				    f->msg->message_id, v[i].archive,
				    f->msg->where);
			continue;
		}
		strbuf_addstr(out, f->line);
		strbuf_addf(out, " (%s, <%s>%s)\n", f->msg->from,
			    f->msg->message_id, f->to_cover ? ", for the series" : "");
	}
}

/* "xfs: fix the foo (bar)" as stable-queue names it: "xfs-fix-the-foo-bar". */
static void add_slug(struct strbuf *out, const char *subject)
{
	size_t start = out->len;
	int dash = 0;

	for (; *subject && out->len - start < 60; subject++) {
		unsigned char ch = (unsigned char)*subject;

		if ((ch >= 'a' && ch <= 'z') || (ch >= '0' && ch <= '9') ||
		    (ch >= 'A' && ch <= 'Z') || ch == '_') {
			if (dash && out->len > start)
				strbuf_addch(out, '-');
			dash = 0;
			strbuf_addch(out, (char)(ch >= 'A' && ch <= 'Z' ? ch + 32 : ch));
		} else {
			dash = 1;
		}
	}
	if (out->len == start)
		strbuf_addstr(out, "patch");
}

/* Whether series (the file's text) has the line name. */
static int series_has(const struct strbuf *series, const char *name)
{
	size_t len = strlen(name);
	const char *p = series->buf;

	while ((p = strstr(p, name))) {
		if ((p == series->buf || p[-1] == '\n') &&
		    (p[len] == '\n' || !p[len] || p[len] == ' '))
			return 1;
		p += len;
	}
	return 0;
}

/* Whether the commit id is in the queue already, by its upstream line. */
static int queued_before(const char *dir, const struct strbuf *series,
			 const char *hex)
{
	const char *p = series->buf;
	int found = 0;

	while (*p && !found) {
		size_t len = strcspn(p, "\n");
		char *name = xstrndup(p, strcspn(p, " \t\n"));
		char *path = xstrfmt("%s/%s", dir, name);
		struct strbuf text = STRBUF_INIT;

		if (*name && *name != '#' && strbuf_read_file(&text, path) >= 0)
			found = strstr(text.buf, hex) != NULL;
		strbuf_release(&text);
		free(path);
		free(name);
		p += len + (p[len] == '\n');
	}
	return found;
}

int report_queue_quilt(const char *dir, const struct report *r,
		       struct candidate **queue, size_t nr,
		       const char *signoff, struct queue_count *added)
{
	struct strbuf series = STRBUF_INIT, name = STRBUF_INIT;
	struct strbuf patch = STRBUF_INIT;
	struct lockfile lk;
	char *series_path = xstrfmt("%s/series", dir);
	size_t i;
	int ret = 0;

	if (mkdir(dir, 0777) < 0 && errno != EEXIST) {
		ret = error("cannot create '%s': %s", dir, strerror(errno));
		goto out;
	}
	if (lockfile_take(&lk, series_path, "queue") < 0) {
		ret = -1;
		goto out;
	}
	if (strbuf_read_file(&series, series_path) < 0 && errno != ENOENT) {
		lockfile_rollback(&lk);
		ret = error("cannot read '%s': %s", series_path, strerror(errno));
		goto out;
	}
	if (series.len && series.buf[series.len - 1] != '\n')
		strbuf_addch(&series, '\n');
	for (i = 0; !ret && i < nr; i++) {
		struct patch_mail pm = { 0 };
		char *path;
		int n;

		if (queued_before(dir, &series, queue[i]->hex))
			continue;
		strbuf_reset(&name);
		add_slug(&name, queue[i]->msg.subject ? queue[i]->msg.subject : "");
		for (n = 2; ; n++) {
			strbuf_addstr(&name, ".patch");
			path = xstrfmt("%s/%s", dir, name.buf);
			if (!series_has(&series, name.buf) && access(path, F_OK) < 0)
				break;
			free(path);
			strbuf_setlen(&name, name.len - 6);
			if (n > 2)
				strbuf_setlen(&name, strrchr(name.buf, '-') - name.buf);
			strbuf_addf(&name, "-%d", n);
		}
		strbuf_reset(&patch);
		queue_patch_mail(&patch, r, queue[i], &pm, signoff);
		if (write_file_atomic(path, patch.buf, patch.len, "patch") < 0)
			ret = -1;
		else {
			strbuf_addf(&series, "%s\n", name.buf);
			report_queue_add(added, queue[i]);
		}
		free(path);
	}
	/* The series last: a patch it names is always there. */
	if (ret)
		lockfile_rollback(&lk);
	else
		ret = lockfile_commit(&lk, series.buf, series.len);
out:
	free(series_path);
	strbuf_release(&series);
	strbuf_release(&name);
	strbuf_release(&patch);
	return ret;
}
