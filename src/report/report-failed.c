#include <autoconf.h>

#include "report/report.h"
#include "formats/mail.h"
#include "stages/posted.h"
#include "base/util.h"

#include <stdlib.h>
#include <string.h>

/* The stable team's address, where a backport goes, when no Cc names one. */
#define STABLE_LIST "stable@vger.kernel.org"

/*
 * An accepted commit left out of the queue: it does not apply there,
 * with the series found for it, if any (applywith_queue()).
 */
static int left_out(const struct candidate *c)
{
	return c->verdict == VERDICT_ACCEPTED && c->queued &&
	       !c->queue_apply.applies;
}

/*
 * What the FAILED mails are about: proposals whose trial pick
 * conflicts, and accepted commits left out of the queue.
 */
static int failed(const struct candidate *c)
{
	if (c->listed_before)
		return 0;
	return left_out(c) || (c->verdict == VERDICT_PROPOSED &&
			       c->apply_checked && !c->apply.applies);
}

/* The trial pick that failed: in the queue's series, or alone. */
static const struct apply_result *failed_result(const struct candidate *c)
{
	return left_out(c) ? &c->queue_apply : &c->apply;
}

static int cmp_order(const void *a, const void *b)
{
	const struct candidate *x = *(const struct candidate *const *)a;
	const struct candidate *y = *(const struct candidate *const *)b;

	return x->order < y->order ? -1 : x->order > y->order;
}

/* "6.6" of a branch whose version is known, else its name. */
/* "6.6" and suffix for a branch whose version is known, else its name. */
static void add_version(struct strbuf *out, const struct branch_index *b,
			const char *suffix)
{
	report_branch_version(out, b);
	if (b->major >= 0)
		strbuf_addstr(out, suffix);
}

/*
 * A word of a shell command, quoted when it holds anything but the
 * characters of ids, paths and URLs, so that a branch name or URL
 * pasted into a shell stays one word.
 */
static void add_shell_word(struct strbuf *out, const char *w)
{
	static const char plain[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
		"abcdefghijklmnopqrstuvwxyz0123456789_-+=.,/:@%";

	if (*w && w[strspn(w, plain)] == '\0') {
		strbuf_addstr(out, w);
		return;
	}
	strbuf_addch(out, '\'');
	for (; *w; w++) {
		if (*w == '\'')
			strbuf_addstr(out, "'\\''");
		else
			strbuf_addch(out, *w);
	}
	strbuf_addch(out, '\'');
}

/* One line of the body: text from outside made clean. */
static void add_line(struct strbuf *out, const char *text)
{
	mail_clean(out, text);
	strbuf_addch(out, '\n');
}

/*
 * The first address of a comma-separated list ("Stable
 * <stable@vger.kernel.org>" gives the address alone), or NULL.
 */
static char *first_address(const char *list)
{
	struct mail_addrs a = MAIL_ADDRS_INIT;
	char *first = NULL;

	mail_addrs_add_list(&a, list);
	if (a.nr)
		first = xstrdup(a.v[0].email);
	mail_addrs_release(&a);
	return first;
}

static void add_headers(struct strbuf *out, const struct report *r,
			const struct candidate *c, const char *id)
{
	struct strbuf name = STRBUF_INIT, email = STRBUF_INIT;
	struct strbuf subj = STRBUF_INIT;
	struct mail_addrs cc = MAIL_ADDRS_INIT;
	size_t i, j;

	mail_split_address(c->author ? c->author : "", &name, &email);
	for (i = 0; i < c->nr_touched; i++)
		for (j = 0; j < c->touched[i]->nr_lists; j++)
			mail_addrs_add_list(&cc, c->touched[i]->lists[j]);
	if (r->cc)
		mail_addrs_add_list(&cc, r->cc);
	mail_addrs_remove(&cc, email.buf);
	/* "FAILED: patch" stays plain for the filters that sort these. */
	strbuf_addf(&subj, "%s\" failed to apply to ",
		    c->msg.subject ? c->msg.subject : "");
	add_version(&subj, r->branch, "-stable");
	strbuf_addstr(&subj, " tree");

	strbuf_addf(out, "From %s Mon Sep 17 00:00:00 2001\n", c->hex);
	mail_address_header(out, "From", r->from_name, r->from_email);
	mail_address_header(out, "To", name.buf, email.buf);
	mail_addrs_header(out, "Cc", &cc);
	mail_header(out, "Subject", "FAILED: patch \"[PATCH] ", subj.buf);
	mail_date_header(out, (git_time_t)r->now, 0);
	mail_id_header(out, "Message-ID", id);
	if (c->posted) {
		mail_id_header(out, "In-Reply-To", c->posted->msg->message_id);
		mail_id_header(out, "References", c->posted->msg->message_id);
	}
	mail_text_body(out);
	strbuf_release(&subj);
	mail_addrs_release(&cc);
	strbuf_release(&email);
	strbuf_release(&name);
}

/*
 * The commands that reproduce the conflict and send the backport: a
 * checkout of the branch, the pick, and git send-email threaded to
 * this mail.
 */
static void add_commands(struct strbuf *out, const struct report *r,
			 const struct candidate *c, const char *id,
			 const char *stable)
{
	struct strbuf line = STRBUF_INIT, prefix = STRBUF_INIT;

	if (r->fetch_url) {
		strbuf_addstr(&line, "git fetch ");
		add_shell_word(&line, r->fetch_url);
		strbuf_addch(&line, ' ');
		add_shell_word(&line, r->fetch_branch ? r->fetch_branch
						      : r->branch->name);
		add_line(out, line.buf);
		add_line(out, "git checkout FETCH_HEAD");
	} else {
		strbuf_addstr(&line, "git checkout ");
		add_shell_word(&line, r->branch->name);
		add_line(out, line.buf);
	}
	strbuf_addf(out, "git cherry-pick -x %s\n", c->hex);
	add_line(out, "# <resolve conflicts, build, test, etc.>");
	add_line(out, "git commit -s");
	strbuf_reset(&line);
	strbuf_addstr(&line, "git send-email --to ");
	strbuf_addf(&prefix, "<%s>", stable);
	add_shell_word(&line, prefix.buf);
	strbuf_reset(&prefix);
	strbuf_addstr(&prefix, "PATCH ");
	add_version(&prefix, r->branch, ".y");
	strbuf_addstr(&line, " --in-reply-to ");
	add_shell_word(&line, id);
	strbuf_addstr(&line, " --subject-prefix ");
	add_shell_word(&line, prefix.buf);
	strbuf_addstr(&line, " HEAD^..");
	add_line(out, line.buf);
	strbuf_release(&prefix);
	strbuf_release(&line);
}

/*
 * The series that makes it apply (applywith.h), each commit with what
 * the rules made of it, or how many were tried for none.
 */
static void add_series(struct strbuf *out, const struct candidate *c)
{
	struct strbuf line = STRBUF_INIT;
	size_t i;

	if (c->with.state == WITH_FOUND) {
		strbuf_addf(out, "\nIt applies after these mainline commits, "
			    "picked in this order\n(the smallest of %zu "
			    "series tried in memory):\n\n", c->with.tried);
		for (i = 0; i < c->with.nr; i++) {
			const struct likely_prereq *p = &c->with.v[i];

			strbuf_reset(&line);
			strbuf_addf(&line, "%.12s %s (", p->hex, p->subject);
			report_add_member_verdict(&line, p->cand);
			strbuf_addch(&line, ')');
			add_line(out, line.buf);
		}
		if (report_left_out_of_series(c)) {
			strbuf_reset(&line);
			strbuf_addstr(&line, "But not after the patches "
				      "before it in this run's series");
			for (i = 0; i < c->mail_apply.nr_conflicts; i++)
				strbuf_addf(&line, "%s%s", i ? ", " :
					    " (it conflicts in ",
					    c->mail_apply.conflicts[i]);
			strbuf_addf(&line, "%s: it is left out of the "
				    "mbox.", i ? ")" : "");
			strbuf_addch(out, '\n');
			mail_wrap(out, line.buf, 0, 0, 72);
			strbuf_addch(out, '\n');
		}
	} else if (c->with.state == WITH_SKIPPED) {
		strbuf_addstr(out, "\nThe series that would make it apply was "
			      "not searched: the run searches\nthe oldest "
			      "proposals first, stablepick.seriesPicks of "
			      "them.\n");
	} else if (c->with.state == WITH_NONE && !c->with.tried) {
		strbuf_addstr(out, "\nNo mainline commit the branch lacks made "
			      "the lines it changes: the branch\nhas them "
			      "otherwise, and it needs a manual backport.\n");
	} else if (c->with.state == WITH_NONE) {
		strbuf_addf(out, "\nNo series of the mainline commits it needs "
			    "makes it apply (%zu tried\nin memory): it needs "
			    "a manual backport.\n", c->with.tried);
	}
	strbuf_release(&line);
}

static void add_mail(struct strbuf *out, const struct report *r,
		     const struct candidate *c)
{
	struct strbuf text = STRBUF_INIT, likely = STRBUF_INIT;
	char *local = xstrfmt("stablepick.failed.%s.%.12s", r->branch->name,
			      c->hex);
	char *id = mail_message_id(local, r->from_email);
	char *stable = first_address(r->cc);
	size_t i;

	add_headers(out, r, c, id);
	strbuf_addstr(&text, "The patch below does not apply to the ");
	add_version(&text, r->branch, "-stable");
	strbuf_addf(&text, " tree (%s).  If it should go there, or to any "
		    "other stable or longterm tree, please send a backport that "
		    "names the original commit id to <%s>.", r->branch->name,
		    stable ? stable : STABLE_LIST);
	mail_wrap(out, text.buf, 0, 0, 72);
	strbuf_addstr(out, "\n\nTo reproduce the conflict and send the backport, "
		      "you may use these\ncommands:\n\n");
	add_commands(out, r, c, id, stable ? stable : STABLE_LIST);

	strbuf_addstr(out, "\nIt conflicts in:\n\n");
	for (i = 0; i < failed_result(c)->nr_conflicts; i++)
		add_line(out, failed_result(c)->conflicts[i]);
	if (c->lacks) {
		strbuf_reset(&text);
		strbuf_addf(&text, "It changes %s.", c->lacks);
		strbuf_addch(out, '\n');
		mail_wrap(out, text.buf, 0, 0, 72);
		strbuf_addch(out, '\n');
	}
	if (report_add_likely(&likely, c, "", 0)) {
		strbuf_addstr(out, "\nPossible dependencies (the mainline commits "
			      "since the branch's base\nthat changed the lines "
			      "it conflicts on):\n\n");
		for (i = 0; i < likely.len; ) {
			size_t len = strcspn(likely.buf + i, "\n");
			char *one = xstrndup(likely.buf + i, len);

			add_line(out, one);
			free(one);
			i += len + 1;
		}
	}
	add_series(out, c);
	strbuf_addstr(out, "\nthanks,\n\n");
	add_line(out, r->from_name);

	strbuf_addstr(out, "\n------------------ original commit in mainline "
		      "------------------\n\ncommit ");
	strbuf_addf(out, "%s\n", c->hex);
	strbuf_reset(&text);
	strbuf_addf(&text, "Author: %s", c->author ? c->author : "");
	add_line(out, text.buf);
	strbuf_addstr(out, "Date:   ");
	mail_date(out, c->time, c->tz_offset);
	strbuf_addstr(out, "\n\n");
	add_line(out, c->msg.subject ? c->msg.subject : "");
	strbuf_addch(out, '\n');
	/* Shown to people, not applied: quoted for every mbox reader. */
	report_add_mail_body(out, c->msg.body, 1);
	strbuf_addch(out, '\n');

	free(stable);
	free(id);
	free(local);
	strbuf_release(&likely);
	strbuf_release(&text);
}

size_t report_failed(struct strbuf *out, const struct report *r,
		     const struct candidate_list *l)
{
	struct candidate **v = xcalloc(l->nr ? l->nr : 1, sizeof(*v));
	size_t nr = 0, i;

	for (i = 0; i < l->nr; i++)
		if (failed(l->items[i]))
			v[nr++] = l->items[i];
	QSORT(v, nr, cmp_order);
	for (i = 0; i < nr; i++)
		add_mail(out, r, v[i]);
	free(v);
	return nr;
}
