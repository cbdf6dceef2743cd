#include <autoconf.h>

#include "report.h"
#include "deps.h"
#include "error.h"
#include "json.h"
#include "mail.h"
#include "posted.h"
#include "score.h"
#include "util.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static void add_date(struct strbuf *out, git_time_t t, int offset)
{
	time_t local = (time_t)(t + (git_time_t)offset * 60);
	struct tm tm;
	char buf[32];
	int off = offset < 0 ? -offset : offset;

	gmtime_r(&local, &tm);
	strftime(buf, sizeof(buf), "%Y-%m-%dT%H:%M:%S", &tm);
	strbuf_addf(out, "%s%c%02d:%02d", buf, offset < 0 ? '-' : '+',
		    off / 60, off % 60);
}

static const char *subsystem_name(const struct candidate *c)
{
	const struct subsystem *s = candidate_subsystem(c);

	return s ? s->name : "-";
}

void report_reasons(struct strbuf *out, const struct candidate *c)
{
	size_t i;

	if (!c->nr_reasons)
		strbuf_addstr(out, "no rule matched");
	for (i = 0; i < c->nr_reasons; i++)
		strbuf_addf(out, "%s%s %+d", i ? ", " : "",
			    c->reasons[i].rule->name, c->reasons[i].rule->weight);
	for (i = 0; i < c->nr_named_by; i++)
		strbuf_addf(out, "%s%s", i ? ", " : "; named by ",
			    c->named_by[i]);
}

/* "does not apply to linux-6.6.y: conflicts in fs/a.c, fs/b.c" */
static void add_conflicts(struct strbuf *out, const struct report *r,
			  const struct candidate *c)
{
	size_t i;

	strbuf_addf(out, "does not apply to %s", r->branch->name);
	for (i = 0; i < c->apply.nr_conflicts; i++)
		strbuf_addf(out, "%s%s", i ? ", " : ": conflicts in ",
			    c->apply.conflicts[i]);
	/* A file a later feature added: the likely cause. */
	if (c->lacks)
		strbuf_addf(out, "; it changes %s", c->lacks);
}

static int shown(const struct report *r, const struct candidate *c)
{
	if (c->listed_before)
		return 0;
	return r->all || (c->verdict != VERDICT_PRESENT &&
			  c->verdict != VERDICT_BELOW_THRESHOLD &&
			  c->verdict != VERDICT_ACCEPTED &&
			  c->verdict != VERDICT_REJECTED &&
			  c->verdict != VERDICT_DEFERRED);
}

/*
 * "archives: 2 (15 messages); 7 of 7 candidates found posted (5 by
 * link, 1 by patch-id, 1 by subject)": what the lists could tell.
 */
static void add_archive_line(struct strbuf *out, const struct archive *a,
			     const struct candidate_list *l)
{
	static const char *const hows[] = { "link", "patch-id", "subject" };
	size_t count[ARRAY_SIZE(hows)] = { 0 }, found = 0, i, j;
	int first = 1;

	for (i = 0; i < l->nr; i++) {
		const struct posted *p = l->items[i]->posted;

		for (j = 0; p && j < ARRAY_SIZE(hows); j++)
			if (!strcmp(p->how, hows[j]))
				count[j]++;
		found += !!p;
	}
	strbuf_addf(out, "archives: %zu (%u messages); %zu of %zu candidates "
		    "found posted", a->nr_sources, HASH_COUNT(a->by_id), found,
		    l->nr);
	for (j = 0; j < ARRAY_SIZE(hows); j++) {
		if (!count[j])
			continue;
		strbuf_addf(out, "%s%zu by %s", first ? " (" : ", ", count[j],
			    hows[j]);
		first = 0;
	}
	strbuf_addstr(out, first ? "\n" : ")\n");
}

static void add_header(struct strbuf *out, const struct report *r,
		       const struct candidate_list *l)
{
	const struct branch_index *b = r->branch;
	size_t named = 0, i;

	strbuf_addf(out, "branch %s", b->name);
	if (b->base_name)
		strbuf_addf(out, " (base %s)", b->base_name);
	strbuf_addf(out, ": %zu %s after the base, %zu %s an upstream commit\n",
		    b->nr_commits, b->nr_commits == 1 ? "commit" : "commits",
		    b->nr_backports, b->nr_backports == 1 ? "names" : "name");
	for (i = 0; i < l->nr; i++)
		named += !l->items[i]->nr_touched && l->items[i]->nr_named_by;
	strbuf_addf(out, "mainline %s: %zu %s walked (%zu %s), "
		    "%zu in watched paths", r->scan->range, r->scan->walked,
		    r->scan->walked == 1 ? "commit" : "commits", r->scan->merges,
		    r->scan->merges == 1 ? "merge" : "merges", l->nr - named);
	if (named)
		strbuf_addf(out, ", %zu more named by tests", named);
	/* Never left out without a word: what --subsystem or policy dropped. */
	if (r->scan->left_out)
		strbuf_addf(out, ", %zu left out (%s)", r->scan->left_out,
			    r->scan->nr_only ? "not in --subsystem, or policy "
			    "ignore" : "policy ignore");
	strbuf_addch(out, '\n');
	if (r->archive)
		add_archive_line(out, r->archive, l);
}

static void add_counts(struct strbuf *out, const struct report *r,
		       const struct candidate_list *l)
{
	size_t count[VERDICT__COUNT] = { 0 }, hidden = 0, before = 0, nr = 0, i;
	int first = 1;

	for (i = 0; i < l->nr; i++) {
		if (l->items[i]->listed_before) {
			before++;
			continue;
		}
		nr++;
		count[l->items[i]->verdict]++;
		hidden += !shown(r, l->items[i]);
	}
	strbuf_addf(out, "%zu %s:", nr, nr == 1 ? "candidate" : "candidates");
	for (i = 0; i < VERDICT__COUNT; i++) {
		if (!count[i])
			continue;
		strbuf_addf(out, "%s %zu %s", first ? "" : ",", count[i],
			    verdict_name((enum verdict)i));
		first = 0;
	}
	strbuf_addch(out, '\n');
	if (before)
		strbuf_addf(out, "(%zu listed by an earlier run not shown)\n", before);
	if (hidden)
		strbuf_addf(out, "(%zu present, below-threshold or decided not "
			    "shown; use --all)\n", hidden);
}

/* --- the posted series ------------------------------------------------ */

/* "v2 " when the series was revised (or a later revision exists). */
static void add_revision(struct strbuf *out, const struct posted *p)
{
	if (p->revision > 1 || p->latest_revision > 1)
		strbuf_addf(out, "v%d ", p->revision);
}

/*
 * Appends what the archives say of c's series, on one line: "2/3 of v2
 * "xfs: ..." <https://lore.kernel.org/r/ID>: 1/3 present, 3/3 absent",
 * and a later revision, "; v3 posted later <...>"; of a single patch
 * revised since, its link and the later revision; else nothing.
 */
static void report_series_line(struct strbuf *out, const struct candidate *c)
{
	const struct posted *p = c->posted;
	char *link;
	size_t i;
	int n, any = 0;

	if (!p || (!p->total && !p->latest))
		return;
	link = posted_link(p->first->message_id);
	if (!p->total) {
		strbuf_addf(out, "<%s>", link);
	} else {
		strbuf_addf(out, "%d/%d of ", p->position, p->total);
		add_revision(out, p);
		strbuf_addf(out, "\"%s\" <%s>%s", p->series_subject, link,
			    p->cover ? "" : " (no cover letter)");
	}
	free(link);
	for (i = 0; i < p->nr_mates; i++)
		strbuf_addf(out, "%s%d/%d %s", any++ ? ", " : ": ",
			    p->mates[i].msg->number, p->total,
			    p->mates[i].status ? p->mates[i].status : "unknown");
	/* Patches of the series the archives do not hold. */
	for (n = 1; n <= p->total; n++) {
		int found = n == p->position;

		for (i = 0; !found && i < p->nr_mates; i++)
			found = p->mates[i].msg->number == n;
		if (!found)
			strbuf_addf(out, "%s%d/%d not in the archives",
				    any++ ? ", " : ": ", n, p->total);
	}
	if (p->latest) {
		link = posted_link(p->latest->message_id);
		strbuf_addf(out, "; v%d posted later <%s>", p->latest_revision, link);
		free(link);
	}
}

/* "series: ..." or "posted: ..." (a single patch revised since), or nothing. */
static int add_posted_line(struct strbuf *out, const struct candidate *c)
{
	const struct posted *p = c->posted;

	if (!p || (!p->total && !p->latest))
		return 0;
	strbuf_addstr(out, p->total ? "series: " : "posted: ");
	report_series_line(out, c);
	return 1;
}

void report_text(struct strbuf *out, const struct report *r,
		 const struct candidate_list *l)
{
	int wv = (int)strlen("VERDICT"), ws = (int)strlen("SCORE");
	int wsub = (int)strlen("SUBSYSTEM");
	size_t i;

	add_header(out, r, l);
	for (i = 0; i < l->nr; i++) {
		const struct candidate *c = l->items[i];
		char num[16];
		int len;

		if (!shown(r, c))
			continue;
		len = (int)strlen(verdict_name(c->verdict));
		wv = len > wv ? len : wv;
		len = snprintf(num, sizeof(num), "%d", c->score);
		ws = len > ws ? len : ws;
		len = (int)strlen(subsystem_name(c));
		wsub = len > wsub ? len : wsub;
	}
	for (i = 0; i < l->nr && !shown(r, l->items[i]); i++)
		;
	if (i == l->nr)
		strbuf_addstr(out, "\n(nothing to show)\n");
	else
		strbuf_addf(out, "\n%-*s  %*s  %-12s  %-*s  %s\n", wv, "VERDICT",
			    ws, "SCORE", "COMMIT", wsub, "SUBSYSTEM", "SUBJECT");
	for (i = 0; i < l->nr; i++) {
		const struct candidate *c = l->items[i];
		int indent = wv + 2 + ws + 2;

		if (!shown(r, c))
			continue;
		strbuf_addf(out, "%-*s  %*d  %.12s  %-*s  %s\n", wv,
			    verdict_name(c->verdict), ws, c->score, c->hex,
			    wsub, subsystem_name(c),
			    c->msg.subject ? c->msg.subject : "");
		strbuf_addchars(out, ' ', (size_t)indent);
		if (c->verdict != VERDICT_PROPOSED &&
		    c->verdict != VERDICT_BELOW_THRESHOLD) {
			strbuf_addstr(out, c->why);
			strbuf_addstr(out, "; ");
		}
		report_reasons(out, c);
		strbuf_addch(out, '\n');
		if (c->posted && (c->posted->total || c->posted->latest)) {
			strbuf_addchars(out, ' ', (size_t)indent);
			add_posted_line(out, c);
			strbuf_addch(out, '\n');
		}
		if (c->apply_checked && !c->apply.applies) {
			strbuf_addchars(out, ' ', (size_t)indent);
			add_conflicts(out, r, c);
			strbuf_addch(out, '\n');
		}
	}
	strbuf_addch(out, '\n');
	add_counts(out, r, l);
}

static void json_posted(struct strbuf *out, const struct candidate *c)
{
	const struct posted *p = c->posted;
	size_t i;

	strbuf_addstr(out, ",\"posted\":");
	if (!p) {
		strbuf_addstr(out, "null");
		return;
	}
	strbuf_addstr(out, "{\"message_id\":");
	json_add_str(out, p->msg->message_id);
	strbuf_addstr(out, ",\"found_by\":");
	json_add_str(out, p->how);
	strbuf_addstr(out, ",\"subject\":");
	json_add_str(out, p->msg->subject);
	strbuf_addstr(out, ",\"from\":");
	json_add_str(out, p->msg->from);
	strbuf_addf(out, ",\"revision\":%d,\"latest_revision\":%d,\"latest\":",
		    p->revision, p->latest_revision);
	json_add_str(out, p->latest ? p->latest->message_id : NULL);
	strbuf_addstr(out, ",\"series\":");
	if (!p->total) {
		strbuf_addstr(out, "null");
	} else {
		char *link = posted_link(p->first->message_id);

		strbuf_addstr(out, "{\"subject\":");
		json_add_str(out, p->series_subject);
		strbuf_addstr(out, ",\"cover\":");
		json_add_str(out, p->cover ? p->cover->message_id : NULL);
		strbuf_addstr(out, ",\"link\":");
		json_add_str(out, link);
		free(link);
		strbuf_addf(out, ",\"position\":%d,\"total\":%d,\"mates\":[",
			    p->position, p->total);
		for (i = 0; i < p->nr_mates; i++) {
			const struct posted_mate *m = &p->mates[i];

			strbuf_addf(out, "%s{\"position\":%d,\"message_id\":",
				    i ? "," : "", m->msg->number);
			json_add_str(out, m->msg->message_id);
			strbuf_addstr(out, ",\"subject\":");
			json_add_str(out, m->msg->title);
			strbuf_addstr(out, ",\"commit\":");
			json_add_str(out, m->cand ? m->cand->hex : NULL);
			strbuf_addstr(out, ",\"status\":");
			json_add_str(out, m->status);
			strbuf_addch(out, '}');
		}
		strbuf_addstr(out, "]}");
	}
	strbuf_addstr(out, ",\"replies\":[");
	for (i = 0; i < p->nr_replies; i++) {
		const struct posted_reply *re = &p->replies[i];

		strbuf_addstr(out, i ? ",{\"message_id\":" : "{\"message_id\":");
		json_add_str(out, re->msg->message_id);
		strbuf_addstr(out, ",\"from\":");
		json_add_str(out, re->msg->from);
		strbuf_addstr(out, ",\"subject\":");
		json_add_str(out, re->msg->subject);
		strbuf_addf(out, ",\"to_cover\":%s}", re->to_cover ? "true" : "false");
	}
	strbuf_addstr(out, "]}");
}

static void json_reasons(struct strbuf *out, const struct candidate *c)
{
	size_t i;

	strbuf_addstr(out, "\"reasons\":[");
	for (i = 0; i < c->nr_reasons; i++) {
		const struct reason *re = &c->reasons[i];

		strbuf_addf(out, "%s{\"rule\":", i ? "," : "");
		json_add_str(out, re->rule->name);
		strbuf_addf(out, ",\"weight\":%d,\"field\":", re->rule->weight);
		if (re->rule->field == FIELD_TRAILER) {
			struct strbuf f = STRBUF_INIT;

			strbuf_addf(&f, "trailer:%s", re->rule->trailer);
			json_add_str(out, f.buf);
			strbuf_release(&f);
		} else {
			json_add_str(out, rule_field_name(re->rule->field));
		}
		strbuf_addstr(out, ",\"match\":");
		json_add_str(out, re->match);
		strbuf_addch(out, '}');
	}
	strbuf_addch(out, ']');
}

static void json_evidence(struct strbuf *out, const struct candidate *c)
{
	char hex[GIT_OID_HEXSZ + 1];
	size_t i;

	strbuf_addstr(out, "\"evidence\":[");
	for (i = 0; i < c->nr_evidence; i++) {
		const struct evidence *e = &c->evidence[i];

		strbuf_addf(out, "%s{\"kind\":", i ? "," : "");
		json_add_str(out, evidence_kind_name(e->kind));
		strbuf_addstr(out, ",\"commit\":");
		if (e->has_commit) {
			git_oid_tostr(hex, sizeof(hex), &e->commit);
			json_add_str(out, hex);
		} else {
			strbuf_addstr(out, "null");
		}
		strbuf_addstr(out, ",\"detail\":");
		json_add_str(out, e->detail);
		strbuf_addch(out, '}');
	}
	strbuf_addch(out, ']');
}

static void json_tags(struct strbuf *out, const struct candidate *c)
{
	char hex[GIT_OID_HEXSZ + 1];
	size_t i;

	strbuf_addstr(out, "\"fixes\":[");
	for (i = 0; i < c->msg.nr_fixes; i++) {
		strbuf_addf(out, "%s{\"id\":", i ? "," : "");
		json_add_str(out, c->msg.fixes[i].id);
		strbuf_addstr(out, ",\"subject\":");
		json_add_str(out, c->msg.fixes[i].subject);
		strbuf_addstr(out, ",\"commit\":");
		if (c->fixes && c->fixes[i].resolved) {
			git_oid_tostr(hex, sizeof(hex), &c->fixes[i].id);
			json_add_str(out, hex);
		} else {
			strbuf_addstr(out, "null");
		}
		strbuf_addstr(out, ",\"status\":");
		json_add_str(out, target_status_name(c->fixes ? c->fixes[i].status
							      : TARGET_UNKNOWN));
		strbuf_addch(out, '}');
	}
	strbuf_addstr(out, "],\"stable\":[");
	for (i = 0; i < c->msg.nr_stable; i++) {
		const struct stable_tag *t = &c->msg.stable[i];

		strbuf_addf(out, "%s{\"address\":", i ? "," : "");
		json_add_str(out, t->addr);
		strbuf_addstr(out, ",\"comment\":");
		json_add_str(out, t->comment);
		if (t->hint_major >= 0)
			strbuf_addf(out, ",\"since\":\"%d.%d\"", t->hint_major,
				    t->hint_minor);
		else
			strbuf_addstr(out, ",\"since\":null");
		strbuf_addf(out, ",\"noautosel\":%s}", t->noautosel ? "true" : "false");
	}
	strbuf_addch(out, ']');
}

static void json_candidate(struct strbuf *out, const struct candidate *c)
{
	const struct subsystem *s = candidate_subsystem(c);
	size_t i;

	strbuf_addstr(out, "{\"commit\":");
	json_add_str(out, c->hex);
	strbuf_addstr(out, ",\"subject\":");
	json_add_str(out, c->msg.subject);
	strbuf_addstr(out, ",\"author\":");
	json_add_str(out, c->author);
	strbuf_addstr(out, ",\"date\":\"");
	add_date(out, c->time, c->tz_offset);
	strbuf_addstr(out, "\",\"subsystem\":");
	json_add_str(out, s ? s->name : NULL);
	strbuf_addstr(out, ",\"subsystems\":[");
	for (i = 0; i < c->nr_touched; i++) {
		if (i)
			strbuf_addch(out, ',');
		json_add_str(out, c->touched[i]->name);
	}
	strbuf_addstr(out, "],\"policy\":");
	json_add_str(out, s ? policy_name(s->policy) : NULL);
	strbuf_addf(out, ",\"score\":%d,\"threshold\":%d,\"verdict\":",
		    c->score, c->threshold);
	json_add_str(out, verdict_name(c->verdict));
	strbuf_addstr(out, ",\"why\":");
	json_add_str(out, c->why);
	strbuf_addch(out, ',');
	json_reasons(out, c);
	strbuf_addstr(out, ",\"veto\":");
	if (c->veto) {
		strbuf_addstr(out, "{\"rule\":");
		json_add_str(out, c->veto->name);
		strbuf_addstr(out, ",\"match\":");
		json_add_str(out, c->veto_match);
		strbuf_addch(out, '}');
	} else {
		strbuf_addstr(out, "null");
	}
	strbuf_addch(out, ',');
	json_evidence(out, c);
	strbuf_addch(out, ',');
	json_tags(out, c);
	strbuf_addstr(out, ",\"facts\":[");
	for (i = 0; i < c->nr_facts; i++) {
		if (i)
			strbuf_addch(out, ',');
		json_add_str(out, c->facts[i]);
	}
	strbuf_addstr(out, "],\"named_by\":[");
	for (i = 0; i < c->nr_named_by; i++) {
		if (i)
			strbuf_addch(out, ',');
		json_add_str(out, c->named_by[i]);
	}
	strbuf_addstr(out, "],\"prerequisites\":[");
	for (i = 0; i < c->nr_prereqs; i++) {
		char hex[GIT_OID_HEXSZ + 1];

		git_oid_tostr(hex, sizeof(hex), &c->prereqs[i].id);
		strbuf_addstr(out, i ? ",{\"commit\":" : "{\"commit\":");
		json_add_str(out, hex);
		strbuf_addstr(out, ",\"source\":");
		json_add_str(out, c->prereqs[i].source);
		strbuf_addstr(out, ",\"status\":");
		json_add_str(out, target_status_name(c->prereqs[i].status));
		strbuf_addch(out, '}');
	}
	strbuf_addstr(out, "],\"series\":");
	if (c->series.id) {
		strbuf_addstr(out, "{\"id\":");
		json_add_str(out, c->series.id);
		strbuf_addf(out, ",\"position\":%d}", c->series.position);
	} else {
		strbuf_addstr(out, "null");
	}
	json_posted(out, c);
	strbuf_addstr(out, ",\"applies\":");
	strbuf_addstr(out, !c->apply_checked ? "null" :
			   c->apply.applies ? "true" : "false");
	strbuf_addstr(out, ",\"conflicts\":[");
	for (i = 0; i < c->apply.nr_conflicts; i++) {
		if (i)
			strbuf_addch(out, ',');
		json_add_str(out, c->apply.conflicts[i]);
	}
	strbuf_addstr(out, "],\"reverted_by\":");
	json_add_str(out, c->reverted_by);
	strbuf_addstr(out, ",\"reverts\":");
	json_add_str(out, c->reverts ? c->reverts->hex : NULL);
	strbuf_addstr(out, ",\"warnings\":[");
	for (i = 0; i < c->nr_warnings; i++) {
		if (i)
			strbuf_addch(out, ',');
		json_add_str(out, c->warnings[i]);
	}
	strbuf_addstr(out, "]}\n");
}

void report_json(struct strbuf *out, const struct report *r,
		 const struct candidate_list *l)
{
	size_t i;

	(void)r;
	for (i = 0; i < l->nr; i++)
		if (!l->items[i]->listed_before)
			json_candidate(out, l->items[i]);
}

/* The later commits of the run whose Fixes: names c. */
static void add_followups(struct strbuf *out, const struct report *r,
			  const struct candidate *c)
{
	const struct candidate_list *l = &r->scan->candidates;
	size_t i, j;

	for (i = 0; i < l->nr; i++) {
		const struct candidate *f = l->items[i];

		for (j = 0; f->fixes && j < f->msg.nr_fixes; j++)
			if (f->fixes[j].cand == c) {
				strbuf_addf(out, "Fixed by:  %.12s (\"%s\"), %s\n",
					    f->hex, f->msg.subject,
					    verdict_name(f->verdict));
				break;
			}
	}
}

static void explain_rule_line(struct strbuf *out, const struct rule *r,
			      const char *match)
{
	strbuf_addf(out, "  %+5d  %-20s %s:%u", r->weight, r->name, r->file,
		    r->lineno);
	if (match)
		strbuf_addf(out, "  \"%s\"", match);
	strbuf_addch(out, '\n');
}

/* The rules that applied but did not match: what else could have. */
static void add_unmatched(struct strbuf *out, const struct ruleset *rs,
			  const struct candidate *c)
{
	struct strbuf names = STRBUF_INIT;

	if (score_unmatched(&names, rs, c))
		strbuf_addf(out, "  not matched: %s\n", names.buf);
	strbuf_release(&names);
}

/* Where the patch was posted, its series and the replies to it. */
static void explain_posted(struct strbuf *out, const struct candidate *c)
{
	const struct posted *p = c->posted;
	char *link = posted_link(p->msg->message_id);
	size_t i;

	strbuf_addf(out, "Posted:    %s (found by %s)\n", link, p->how);
	free(link);
	if (p->total) {
		strbuf_addstr(out, "Series:    ");
		report_series_line(out, c);
		strbuf_addch(out, '\n');
	} else if (p->latest) {
		link = posted_link(p->latest->message_id);
		strbuf_addf(out, "Revised:   v%d posted later <%s>\n",
			    p->latest_revision, link);
		free(link);
	}
	for (i = 0; i < p->nr_mates; i++) {
		const struct posted_mate *m = &p->mates[i];

		strbuf_addf(out, "           %d/%d %-12.12s %-9s %s\n", m->msg->number,
			    p->total, m->cand ? m->cand->hex : "-",
			    m->status ? m->status : "unknown", m->msg->title);
	}
	for (i = 0; i < p->nr_replies; i++) {
		const struct archive_msg *m = p->replies[i].msg;

		link = posted_link(m->message_id);
		strbuf_addf(out, "Reply:     %s%s <%s>\n", m->from,
			    p->replies[i].to_cover ? " (to the cover letter)" : "",
			    link);
		free(link);
	}
}

void report_explain(struct strbuf *out, const struct report *r,
		    const struct candidate *c)
{
	const struct subsystem *s = candidate_subsystem(c);
	char hex[GIT_OID_HEXSZ + 1];
	size_t i;

	strbuf_addf(out, "commit %s\n", c->hex);
	strbuf_addf(out, "Subject:   %s\n", c->msg.subject ? c->msg.subject : "");
	strbuf_addf(out, "Author:    %s\nDate:      ", c->author ? c->author : "");
	add_date(out, c->time, c->tz_offset);
	strbuf_addch(out, '\n');
	if (!s) {
		strbuf_addstr(out, c->left_out ?
			      "Subsystem: none (the subsystems of the paths it "
			      "changes are ignored by policy)\n" :
			      "Subsystem: none (touches no watched path)\n");
		return;
	}
	strbuf_addf(out, "Subsystem: %s (policy %s", s->name, policy_name(s->policy));
	for (i = 0; i < s->nr_lists; i++)
		strbuf_addf(out, "%s%s", i ? ", " : "; list ", s->lists[i]);
	strbuf_addstr(out, ")");
	for (i = 1; i < c->nr_touched; i++)
		strbuf_addf(out, "%s%s", i == 1 ? "; also " : ", ", c->touched[i]->name);
	strbuf_addch(out, '\n');

	for (i = 0; i < c->msg.nr_fixes; i++) {
		strbuf_addf(out, "Fixes:     %s", c->msg.fixes[i].id);
		if (c->msg.fixes[i].subject)
			strbuf_addf(out, " (\"%s\")", c->msg.fixes[i].subject);
		if (c->fixes && c->fixes[i].resolved) {
			git_oid_tostr(hex, sizeof(hex), &c->fixes[i].id);
			strbuf_addf(out, " -> %s, %s%s\n", hex,
				    target_status_name(c->fixes[i].status),
				    c->fixes[i].by_subject ? " (found by subject)" : "");
		} else {
			strbuf_addstr(out, " -> not found in the repository\n");
		}
	}
	if (c->reverts)
		strbuf_addf(out, "Reverts:   %s (\"%s\")%s\n", c->reverts->hex,
			    c->reverts->msg.subject,
			    c->reverts_in_branch ? ", which the branch carries" : "");
	else if (c->msg.is_revert)
		strbuf_addf(out, "Reverts:   %s%s\n",
			    c->msg.reverts_id ? c->msg.reverts_id : c->msg.reverts_subject,
			    c->reverts_in_branch ? ", which the branch carries" : "");
	if (c->reverted_by)
		strbuf_addf(out, "Reverted:  by %s (\"%s\")\n", c->reverted_by,
			    c->reverted_by_subject);
	add_followups(out, r, c);
	for (i = 0; i < c->nr_prereqs; i++) {
		git_oid_tostr(hex, sizeof(hex), &c->prereqs[i].id);
		strbuf_addf(out, "Needs:     %s (%s), %s\n", hex,
			    c->prereqs[i].source,
			    target_status_name(c->prereqs[i].status));
	}
	if (c->posted)
		explain_posted(out, c);
	else if (c->series.id)
		strbuf_addf(out, "Series:    patch %d of %s\n", c->series.position,
			    c->series.id);
	for (i = 0; i < c->msg.nr_stable; i++) {
		const struct stable_tag *t = &c->msg.stable[i];

		strbuf_addf(out, "Stable:    %s", t->addr);
		if (t->comment)
			strbuf_addf(out, " # %s", t->comment);
		if (t->noautosel)
			strbuf_addstr(out, " (never pick automatically)");
		else if (t->hint_major >= 0)
			strbuf_addf(out, " (for %d.%d and later)", t->hint_major,
				    t->hint_minor);
		strbuf_addch(out, '\n');
	}

	strbuf_addf(out, "\nScore %d, threshold %d:\n", c->score, c->threshold);
	for (i = 0; i < c->nr_reasons; i++)
		explain_rule_line(out, c->reasons[i].rule, c->reasons[i].match);
	if (!c->nr_reasons)
		strbuf_addstr(out, "  no rule matched\n");
	if (c->veto)
		strbuf_addf(out, "   veto  %-20s %s:%u  \"%s\"\n", c->veto->name,
			    c->veto->file, c->veto->lineno, c->veto_match);
	add_unmatched(out, r->rules, c);
	for (i = 0; i < c->nr_warnings; i++)
		strbuf_addf(out, "  warning: %s\n", c->warnings[i]);

	strbuf_addf(out, "\nPresence in %s:\n", r->branch->name);
	for (i = 0; i < c->nr_evidence; i++) {
		strbuf_addf(out, "  %-14s %s",
			    evidence_kind_name(c->evidence[i].kind),
			    c->evidence[i].detail);
		if (c->evidence[i].has_commit) {
			git_oid_tostr(hex, sizeof(hex), &c->evidence[i].commit);
			strbuf_addf(out, " (%s)", hex);
		}
		strbuf_addch(out, '\n');
	}
	if (c->apply_checked) {
		strbuf_addstr(out, "\nApplies:   ");
		if (c->apply.applies)
			strbuf_addf(out, "yes, onto the tip of %s (after the "
				    "proposals before it)", r->branch->name);
		else
			add_conflicts(out, r, c);
		strbuf_addch(out, '\n');
	}
	strbuf_addf(out, "\nVerdict:   %s: %s\n", verdict_name(c->verdict), c->why);
}

/*
 * What a terminal may be shown of text from history: control characters
 * (ESC starts the sequences that move the cursor, retitle the window or
 * worse) and C1 controls become '?', and so does a byte that is not part
 * of valid UTF-8 (a lone 0x9b is a CSI to some terminals).  Newlines and
 * tabs stay.
 */
static void terminal_safe(struct strbuf *dst, const struct strbuf *src)
{
	const unsigned char *s = (const unsigned char *)src->buf;
	size_t i = 0, n;

	while (i < src->len) {
		if (s[i] == '\n' || s[i] == '\t' || (s[i] >= 0x20 && s[i] < 0x7f)) {
			strbuf_addch(dst, (char)s[i++]);
			continue;
		}
		n = s[i] >= 0x80 ? utf8_seq_len(s + i, src->len - i) : 0;
		/* U+0080 to U+009F, the C1 controls, are 0xc2 0x80-0x9f. */
		if (!n || (n == 2 && s[i] == 0xc2 && s[i + 1] < 0xa0)) {
			strbuf_addch(dst, '?');
			i += n ? n : 1;
			continue;
		}
		strbuf_add(dst, s + i, n);
		i += n;
	}
}

int report_write(FILE *f, const struct strbuf *out)
{
	struct strbuf safe = STRBUF_INIT;
	const struct strbuf *what = out;
	int ret = 0;

	/* Files and pipes get every byte; a terminal only what is safe. */
	if (isatty(fileno(f))) {
		terminal_safe(&safe, out);
		what = &safe;
	}
	if (fwrite(what->buf, 1, what->len, f) != what->len || fflush(f) ||
	    ferror(f))
		ret = error("cannot write the output: %s", strerror(errno));
	strbuf_release(&safe);
	return ret;
}

/* --- mail -------------------------------------------------------------- */

static int in_series(const struct candidate *c)
{
	return c->verdict == VERDICT_PROPOSED && c->apply_checked &&
	       c->apply.applies && !c->listed_before;
}

static int cmp_order(const void *a, const void *b)
{
	const struct candidate *x = *(const struct candidate *const *)a;
	const struct candidate *y = *(const struct candidate *const *)b;

	return x->order < y->order ? -1 : x->order > y->order;
}

/*
 * Mainline order is the order to apply: a prerequisite is older than
 * what needs it, a follow-up newer than what it fixes.
 */
size_t report_series(const struct candidate_list *l, struct candidate ***out)
{
	size_t i, nr = 0;

	*out = xcalloc(l->nr ? l->nr : 1, sizeof(**out));
	for (i = 0; i < l->nr; i++)
		if (in_series(l->items[i]))
			(*out)[nr++] = l->items[i];
	QSORT(*out, nr, cmp_order);
	return nr;
}

/* "6.6" for a branch whose version is known, else its name. */
static void add_branch_version(struct strbuf *out, const struct branch_index *b)
{
	if (b->major >= 0)
		strbuf_addf(out, "%d.%d", b->major, b->minor);
	else
		strbuf_addstr(out, b->name);
}

enum mail_section {
	SECTION_PROPOSED,
	SECTION_MANUAL,
	SECTION_NEEDS_ACK,
	SECTION_WAITING,
	SECTION_MAYBE,
	SECTION_NOT_APPLICABLE,
	SECTION__COUNT,
	SECTION_NONE = SECTION__COUNT
};

static const char *const section_titles[SECTION__COUNT] = {
	"Proposed (the patches follow in reply)",
	"Needs a manual backport (does not apply as it is)",
	"Needs the maintainers' ack (opt-in subsystem)",
	"Waiting (not soaked in mainline yet)",
	"Maybe already present (only the subject matches)",
	"Not applicable",
};

static enum mail_section section_of(const struct candidate *c)
{
	if (c->listed_before)
		return SECTION_NONE;
	switch (c->verdict) {
	case VERDICT_PROPOSED:
		return in_series(c) ? SECTION_PROPOSED : SECTION_MANUAL;
	case VERDICT_NEEDS_ACK: return SECTION_NEEDS_ACK;
	case VERDICT_WAITING: return SECTION_WAITING;
	case VERDICT_MAYBE_PRESENT: return SECTION_MAYBE;
	case VERDICT_NOT_APPLICABLE: return SECTION_NOT_APPLICABLE;
	default: return SECTION_NONE;
	}
}

static int cmp_subsystem_name(const void *a, const void *b)
{
	const struct subsystem *x = *(const struct subsystem *const *)a;
	const struct subsystem *y = *(const struct subsystem *const *)b;

	return strcmp(x->name, y->name);
}

/* The subsystems with something to say, in name order, unique. */
static size_t mail_subsystems(const struct candidate_list *l,
			      const struct subsystem ***out)
{
	size_t i, j, nr = 0;

	*out = xcalloc(l->nr ? l->nr : 1, sizeof(**out));
	for (i = 0; i < l->nr; i++) {
		const struct subsystem *s = candidate_subsystem(l->items[i]);

		if (!s || section_of(l->items[i]) == SECTION_NONE)
			continue;
		for (j = 0; j < nr && (*out)[j] != s; j++)
			;
		if (j == nr)
			(*out)[nr++] = s;
	}
	QSORT(*out, nr, cmp_subsystem_name);
	return nr;
}

/* Whether sb, a ", "-separated list, holds addr as a whole item. */
static int has_address(const struct strbuf *sb, const char *addr)
{
	size_t len = strlen(addr);
	const char *p = sb->buf;

	while ((p = strstr(p, addr))) {
		if ((p == sb->buf || p[-1] == ' ') && (!p[len] || p[len] == ','))
			return 1;
		p++;
	}
	return 0;
}

/* Adds each address of list (comma-separated) once to sb. */
static void add_addresses(struct strbuf *sb, const char *list)
{
	const char *p = list;

	while (*p) {
		size_t len = strcspn(p, ",");
		struct strbuf one = STRBUF_INIT;

		strbuf_add(&one, p, len);
		strbuf_trim(&one);
		if (one.len && !has_address(sb, one.buf)) {
			if (sb->len)
				strbuf_addstr(sb, ", ");
			strbuf_addbuf(sb, &one);
		}
		strbuf_release(&one);
		p += len;
		if (*p)
			p++;
	}
}

/*
 * The first paragraph of a series' cover letter, quoted, the first
 * time the email names the series.
 */
static void add_cover(struct strbuf *out, const struct candidate *c,
		      const struct archive_msg ***quoted, size_t *nr)
{
	const struct posted *p = c->posted;
	struct strbuf text = STRBUF_INIT;
	size_t i;

	if (!p || !p->cover || !p->cover_paragraph)
		return;
	for (i = 0; i < *nr; i++)
		if ((*quoted)[i] == p->cover)
			return;
	*quoted = xrealloc(*quoted, (*nr + 1) * sizeof(**quoted));
	(*quoted)[(*nr)++] = p->cover;
	mail_wrap(&text, p->cover_paragraph, 0, 0, 64);
	for (i = 0; i < text.len; ) {
		size_t len = strcspn(text.buf + i, "\n");

		strbuf_addstr(out, "      > ");
		strbuf_add(out, text.buf + i, len);
		strbuf_addch(out, '\n');
		i += len + (i + len < text.len);
	}
	strbuf_release(&text);
}

static void add_candidate_lines(struct strbuf *out, const struct report *r,
				const struct candidate *c, enum mail_section sec,
				const struct archive_msg ***quoted, size_t *nr_quoted)
{
	struct strbuf line = STRBUF_INIT;
	size_t i;

	strbuf_addf(out, "  %.12s ", c->hex);
	mail_wrap(out, c->msg.subject ? c->msg.subject : "", 15, 15, 72);
	strbuf_addch(out, '\n');
	strbuf_addf(&line, "score %d: ", c->score);
	report_reasons(&line, c);
	if (sec != SECTION_PROPOSED) {
		strbuf_addstr(&line, "; ");
		if (sec == SECTION_MANUAL)
			add_conflicts(&line, r, c);
		else
			strbuf_addstr(&line, c->why);
	}
	for (i = 0; i < c->nr_warnings; i++)
		strbuf_addf(&line, "; %s", c->warnings[i]);
	strbuf_addchars(out, ' ', 6);
	mail_wrap(out, line.buf, 6, 6, 72);
	strbuf_addch(out, '\n');
	strbuf_reset(&line);
	if (add_posted_line(&line, c)) {
		strbuf_addchars(out, ' ', 6);
		mail_wrap(out, line.buf, 6, 6, 72);
		strbuf_addch(out, '\n');
		add_cover(out, c, quoted, nr_quoted);
	}
	strbuf_release(&line);
}

void report_email(struct strbuf *out, const struct report *r,
		  const struct candidate_list *l)
{
	const struct subsystem **subs;
	struct strbuf to = STRBUF_INIT, cc = STRBUF_INIT, subj = STRBUF_INIT;
	struct strbuf text = STRBUF_INIT;
	size_t nr_subs, i, j, k, shown_subjects = 0, nr_quoted = 0;
	const struct archive_msg **quoted = NULL;
	char week[16];
	time_t now = r->now;
	struct tm tm;

	nr_subs = mail_subsystems(l, &subs);
	for (i = 0; i < nr_subs; i++)
		for (j = 0; j < subs[i]->nr_lists; j++)
			add_addresses(&to, subs[i]->lists[j]);
	if (r->to) {
		strbuf_reset(&to);
		add_addresses(&to, r->to);
	}
	if (r->cc)
		add_addresses(&cc, r->cc);

	for (i = 0; i < nr_subs; i++) {
		for (k = 0; k < l->nr; k++) {
			enum mail_section s = section_of(l->items[k]);

			if (candidate_subsystem(l->items[k]) == subs[i] &&
			    (s == SECTION_PROPOSED || s == SECTION_MANUAL ||
			     s == SECTION_NEEDS_ACK))
				break;
		}
		if (k == l->nr)
			continue;
		strbuf_addf(&subj, "%s%s", shown_subjects++ ? ", " : "", subs[i]->name);
	}
	gmtime_r(&now, &tm);
	strftime(week, sizeof(week), "%V", &tm);
	strbuf_addstr(&subj, shown_subjects ? ": candidates for " : "candidates for ");
	add_branch_version(&subj, r->branch);
	strbuf_addf(&subj, "%s, week %d", r->branch->major >= 0 ? ".y" : "",
		    atoi(week));

	mail_address_header(out, "From", r->from_name, r->from_email);
	if (to.len)
		mail_header(out, "To", to.buf);
	if (cc.len)
		mail_header(out, "Cc", cc.buf);
	mail_header(out, "Subject", subj.buf);
	strbuf_addstr(out, "Date: ");
	mail_date(out, (git_time_t)now, 0);
	strbuf_addch(out, '\n');
	mail_id_header(out, "Message-ID", r->message_id);
	strbuf_addstr(out, "MIME-Version: 1.0\n"
		      "Content-Type: text/plain; charset=UTF-8\n"
		      "Content-Transfer-Encoding: 8bit\n\n");

	strbuf_addf(&text, "These mainline commits are candidates for %s", r->branch->name);
	if (r->branch->base_name)
		strbuf_addf(&text, " (base %s)", r->branch->base_name);
	strbuf_addf(&text, ", from mainline %s.  The proposed patches that apply "
		    "follow in reply to this message, as a series that git am "
		    "takes in order.  Please answer with an ack, a nak, or a "
		    "reason to wait.", r->scan->range);
	mail_wrap(out, text.buf, 0, 0, 72);
	strbuf_addstr(out, "\n");
	if (!nr_subs)
		strbuf_addstr(out, "\nNothing to propose this time.\n");

	for (i = 0; i < nr_subs; i++) {
		size_t head;

		strbuf_addch(out, '\n');
		head = out->len;
		strbuf_addstr(out, subs[i]->name);
		for (j = 0; j < subs[i]->nr_lists; j++)
			strbuf_addf(out, "%s%s", j ? ", " : " (", subs[i]->lists[j]);
		strbuf_addstr(out, subs[i]->nr_lists ? ")\n" : "\n");
		strbuf_addchars(out, '=', out->len - head - 1);
		strbuf_addch(out, '\n');
		for (k = 0; k < SECTION__COUNT; k++) {
			int any = 0;

			for (j = 0; j < l->nr; j++) {
				const struct candidate *c = l->items[j];

				if (candidate_subsystem(c) != subs[i] ||
				    section_of(c) != (enum mail_section)k)
					continue;
				if (!any++)
					strbuf_addf(out, "\n%s:\n", section_titles[k]);
				add_candidate_lines(out, r, c, (enum mail_section)k,
						    &quoted, &nr_quoted);
			}
		}
	}

	strbuf_addstr(out, "\n-- \n");
	strbuf_reset(&text);
	strbuf_addf(&text, "Made by stablepick %s with the rules", PACKAGE_VERSION);
	for (i = 0; i < r->rules->nr_files; i++) {
		const char *p = strrchr(r->rules->files[i].path, '/');

		strbuf_addf(&text, "%s %s", i ? "," : "", p ? p + 1 : r->rules->files[i].path);
		if (r->rules->files[i].version)
			strbuf_addf(&text, " (version %s)", r->rules->files[i].version);
	}
	strbuf_addf(&text, "; %zu mainline commits walked, %zu candidates.",
		    r->scan->walked, l->nr);
	mail_wrap(out, text.buf, 0, 0, 72);
	strbuf_addch(out, '\n');

	free(subs);
	free(quoted);
	strbuf_release(&text);
	strbuf_release(&subj);
	strbuf_release(&cc);
	strbuf_release(&to);
}

/* Where git mailinfo ends a commit message and starts the patch. */
static int patch_break(const char *line)
{
	return !strncmp(line, "diff -", 6) || !strncmp(line, "Index: ", 7) ||
	       (!strncmp(line, "---", 3) &&
		(!line[3] || line[3] == ' ' || line[3] == '\t'));
}

/* The body of a commit message, one clean line at a time. */
static void add_body(struct strbuf *out, const char *body)
{
	const char *p = body ? body : "";

	while (*p) {
		size_t len = strcspn(p, "\n");
		char *line = xstrndup(p, len);

		/*
		 * A line that git am would take for the start of a message
		 * (git's mboxo quoting), or for the start of the patch: the
		 * lines after it, a diff written into the commit message,
		 * would be applied.  Indented, they stay text.
		 */
		if (!strncmp(line, "From ", 5))
			strbuf_addch(out, '>');
		else if (patch_break(line))
			strbuf_addch(out, ' ');
		mail_clean(out, line);
		strbuf_addch(out, '\n');
		free(line);
		p += len;
		if (*p)
			p++;
	}
}

void report_mbox(struct strbuf *out, const struct report *r,
		 const struct candidate_list *l)
{
	struct candidate **series;
	size_t nr = report_series(l, &series), i;

	for (i = 0; i < nr; i++) {
		const struct candidate *c = series[i];
		const char *lt = c->author ? strrchr(c->author, '<') : NULL;
		struct strbuf name = STRBUF_INIT, email = STRBUF_INIT;
		struct strbuf subj = STRBUF_INIT, id = STRBUF_INIT;

		if (lt) {
			strbuf_add(&name, c->author, (size_t)(lt - c->author));
			strbuf_trim(&name);
			strbuf_addstr(&email, lt + 1);
			if (email.len && email.buf[email.len - 1] == '>')
				strbuf_setlen(&email, email.len - 1);
		}
		strbuf_addf(out, "From %s Mon Sep 17 00:00:00 2001\n", c->hex);
		mail_address_header(out, "From", name.buf, email.buf);
		strbuf_addstr(out, "Date: ");
		mail_date(out, c->time, c->tz_offset);
		strbuf_addstr(&subj, "[PATCH ");
		add_branch_version(&subj, r->branch);
		strbuf_addf(&subj, " %zu/%zu] %s", i + 1, nr,
			    c->msg.subject ? c->msg.subject : "");
		strbuf_addch(out, '\n');
		mail_header(out, "Subject", subj.buf);
		strbuf_reset(&id);
		strbuf_addf(&id, "%zu-%zu.%s", i + 1, nr, r->message_id);
		mail_id_header(out, "Message-ID", id.buf);
		mail_id_header(out, "In-Reply-To", r->message_id);
		mail_id_header(out, "References", r->message_id);
		strbuf_addstr(out, "MIME-Version: 1.0\n"
			      "Content-Type: text/plain; charset=UTF-8\n"
			      "Content-Transfer-Encoding: 8bit\n\n");
		strbuf_addf(out, "commit %s upstream.\n\n", c->hex);
		add_body(out, c->msg.body);
		strbuf_addstr(out, "---\n");
		if (c->patch)
			strbuf_addstr(out, c->patch);
		strbuf_addf(out, "-- \nstablepick %s\n\n", PACKAGE_VERSION);
		strbuf_release(&id);
		strbuf_release(&subj);
		strbuf_release(&email);
		strbuf_release(&name);
	}
	free(series);
}
