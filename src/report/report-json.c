#include "report/report.h"
#include "stages/deps.h"
#include "base/json.h"
#include "stages/posted.h"
#include "base/util.h"

#include <string.h>

/* An id as JSON: the hex, or null. */
static void jw_oid(struct json_writer *jw, const char *key, const git_oid *id)
{
	char hex[GIT_OID_HEXSZ + 1];

	jw_object_string(jw, key, id ? git_oid_tostr(hex, sizeof(hex), id) : NULL);
}

static void json_series(struct json_writer *jw, const struct posted *p)
{
	char *link = posted_link(p->first->message_id);
	size_t i;

	jw_object_object(jw, "series");
	jw_object_string(jw, "subject", p->series_subject);
	jw_object_string(jw, "cover", p->cover ? p->cover->message_id : NULL);
	jw_object_string(jw, "link", link);
	free(link);
	jw_object_int(jw, "position", p->position);
	jw_object_int(jw, "total", p->total);
	jw_object_array(jw, "mates");
	for (i = 0; i < p->nr_mates; i++) {
		const struct posted_mate *m = &p->mates[i];

		jw_array_object(jw);
		jw_object_int(jw, "position", m->msg->number);
		jw_object_string(jw, "message_id", m->msg->message_id);
		jw_object_string(jw, "subject", m->msg->title);
		jw_object_string(jw, "commit", m->cand ? m->cand->hex : NULL);
		jw_object_string(jw, "status", m->status);
		jw_end(jw);
	}
	jw_end(jw);
	jw_end(jw);
}

static void json_posted(struct json_writer *jw, const struct candidate *c)
{
	const struct posted *p = c->posted;
	size_t i;

	if (!p) {
		jw_object_null(jw, "posted");
		return;
	}
	jw_object_object(jw, "posted");
	jw_object_string(jw, "message_id", p->msg->message_id);
	jw_object_string(jw, "found_by", posted_how_name(p->how));
	jw_object_string(jw, "subject", p->msg->subject);
	jw_object_string(jw, "from", p->msg->from);
	jw_object_int(jw, "revision", p->revision);
	jw_object_int(jw, "latest_revision", p->latest_revision);
	jw_object_string(jw, "latest", p->latest ? p->latest->message_id : NULL);
	if (p->total)
		json_series(jw, p);
	else
		jw_object_null(jw, "series");
	jw_object_array(jw, "replies");
	for (i = 0; i < p->nr_replies; i++) {
		const struct posted_reply *re = &p->replies[i];

		jw_array_object(jw);
		jw_object_string(jw, "message_id", re->msg->message_id);
		jw_object_string(jw, "from", re->msg->from);
		jw_object_string(jw, "subject", re->msg->subject);
		jw_object_bool(jw, "to_cover", re->to_cover);
		jw_end(jw);
	}
	jw_end(jw);
	jw_end(jw);
}

static void json_reasons(struct json_writer *jw, const struct candidate *c)
{
	size_t i;

	jw_object_array(jw, "reasons");
	for (i = 0; i < c->nr_reasons; i++) {
		const struct reason *re = &c->reasons[i];

		jw_array_object(jw);
		jw_object_string(jw, "rule", re->rule->name);
		jw_object_int(jw, "weight", re->rule->weight);
		if (re->rule->field == FIELD_TRAILER) {
			char *f = xstrfmt("trailer:%s", re->rule->trailer);

			jw_object_string(jw, "field", f);
			free(f);
		} else {
			jw_object_string(jw, "field",
					 rule_field_name(re->rule->field));
		}
		jw_object_string(jw, "match", re->match);
		jw_end(jw);
	}
	jw_end(jw);
}

static void json_evidence(struct json_writer *jw, const struct candidate *c)
{
	size_t i;

	jw_object_array(jw, "evidence");
	for (i = 0; i < c->nr_evidence; i++) {
		const struct evidence *e = &c->evidence[i];

		jw_array_object(jw);
		jw_object_string(jw, "kind", evidence_kind_name(e->kind));
		jw_oid(jw, "commit", e->has_commit ? &e->commit : NULL);
		jw_object_string(jw, "detail", e->detail);
		jw_end(jw);
	}
	jw_end(jw);
}

static void json_tags(struct json_writer *jw, const struct candidate *c)
{
	size_t i;

	jw_object_array(jw, "fixes");
	for (i = 0; i < c->msg.nr_fixes; i++) {
		int resolved = c->fixes && c->fixes[i].resolved;

		jw_array_object(jw);
		jw_object_string(jw, "id", c->msg.fixes[i].id);
		jw_object_string(jw, "subject", c->msg.fixes[i].subject);
		jw_oid(jw, "commit", resolved ? &c->fixes[i].id : NULL);
		jw_object_string(jw, "status",
				 target_status_name(c->fixes ? c->fixes[i].status
							     : TARGET_UNKNOWN));
		jw_end(jw);
	}
	jw_end(jw);
	jw_object_array(jw, "stable");
	for (i = 0; i < c->msg.nr_stable; i++) {
		const struct stable_tag *t = &c->msg.stable[i];

		jw_array_object(jw);
		jw_object_string(jw, "address", t->addr);
		jw_object_string(jw, "comment", t->comment);
		if (t->hint_major >= 0) {
			char *since = xstrfmt("%d.%d", t->hint_major,
					      t->hint_minor);

			jw_object_string(jw, "since", since);
			free(since);
		} else {
			jw_object_null(jw, "since");
		}
		jw_object_bool(jw, "noautosel", t->noautosel);
		jw_end(jw);
	}
	jw_end(jw);
}

/* The decisions for other branches (ledger_find_others()). */
static void json_other_decisions(struct json_writer *jw,
				 const struct candidate *c)
{
	char when[21], until[11];
	size_t i;

	jw_object_array(jw, "other_decisions");
	for (i = 0; i < c->nr_other_decisions; i++) {
		const struct ledger_entry *e = c->other_decisions[i];

		jw_array_object(jw);
		jw_object_string(jw, "branch", e->branch);
		jw_object_string(jw, "decision", decision_name(e->decision));
		ledger_format_when(when, e->when);
		jw_object_string(jw, "when", when);
		if (e->decision == DECISION_DEFERRED) {
			ledger_format_date(until, e->until);
			jw_object_string(jw, "until", until);
		} else {
			jw_object_null(jw, "until");
		}
		jw_object_string(jw, "who", e->who);
		jw_object_string(jw, "reason", e->reason);
		jw_end(jw);
	}
	jw_end(jw);
}

static void json_candidate(struct strbuf *out, const struct candidate *c,
			   const char *branch)
{
	const struct subsystem *s = candidate_subsystem(c);
	struct strbuf date = STRBUF_INIT;
	struct json_writer jw;
	size_t i;

	jw_init(&jw, out);
	jw_object_begin(&jw);
	jw_object_string(&jw, "commit", c->hex);
	jw_object_string(&jw, "branch", branch);
	jw_object_string(&jw, "subject", c->msg.subject);
	jw_object_string(&jw, "author", c->author);
	report_add_date(&date, c->time, c->tz_offset);
	jw_object_string(&jw, "date", date.buf);
	strbuf_release(&date);
	jw_object_string(&jw, "subsystem", s ? s->name : NULL);
	jw_object_array(&jw, "subsystems");
	for (i = 0; i < c->nr_touched; i++)
		jw_array_string(&jw, c->touched[i]->name);
	jw_end(&jw);
	jw_object_string(&jw, "policy", s ? policy_name(s->policy) : NULL);
	jw_object_int(&jw, "score", c->score);
	jw_object_int(&jw, "threshold", c->threshold);
	jw_object_string(&jw, "verdict", verdict_name(c->verdict));
	jw_object_string(&jw, "why", c->why);
	json_reasons(&jw, c);
	if (c->veto) {
		jw_object_object(&jw, "veto");
		jw_object_string(&jw, "rule", c->veto->name);
		jw_object_string(&jw, "match", c->veto_match);
		jw_end(&jw);
	} else {
		jw_object_null(&jw, "veto");
	}
	json_evidence(&jw, c);
	json_tags(&jw, c);
	jw_object_strings(&jw, "facts", c->facts, c->nr_facts);
	jw_object_strings(&jw, "named_by", (const char *const *)c->named_by,
			  c->nr_named_by);
	jw_object_strings(&jw, "cves", (const char *const *)c->cves, c->nr_cves);
	jw_object_array(&jw, "newer_lacking");
	for (i = 0; i < c->nr_newer_lacking; i++) {
		jw_array_object(&jw);
		jw_object_string(&jw, "branch", c->newer_lacking[i].branch);
		jw_object_string(&jw, "verdict",
				 verdict_name(c->newer_lacking[i].verdict));
		jw_end(&jw);
	}
	jw_end(&jw);
	jw_object_array(&jw, "prerequisites");
	for (i = 0; i < c->nr_prereqs; i++) {
		jw_array_object(&jw);
		jw_oid(&jw, "commit", &c->prereqs[i].id);
		jw_object_string(&jw, "source", c->prereqs[i].source);
		jw_object_string(&jw, "status",
				 target_status_name(c->prereqs[i].status));
		jw_end(&jw);
	}
	jw_end(&jw);
	if (c->series.id) {
		jw_object_object(&jw, "series");
		jw_object_string(&jw, "id", c->series.id);
		jw_object_int(&jw, "position", c->series.position);
		jw_end(&jw);
	} else {
		jw_object_null(&jw, "series");
	}
	json_posted(&jw, c);
	if (c->apply_checked)
		jw_object_bool(&jw, "applies", c->apply.applies);
	else
		jw_object_null(&jw, "applies");
	jw_object_strings(&jw, "conflicts",
			  (const char *const *)c->apply.conflicts,
			  c->apply.nr_conflicts);
	/* null: not looked for (only explain and --format failed look). */
	if (c->likely_checked) {
		jw_object_array(&jw, "likely_prerequisites");
		for (i = 0; i < c->nr_likely; i++) {
			jw_array_object(&jw);
			jw_object_string(&jw, "commit", c->likely[i].hex);
			jw_object_string(&jw, "subject", c->likely[i].subject);
			jw_object_string(&jw, "verdict", c->likely[i].cand ?
					 verdict_name(c->likely[i].cand->verdict) :
					 NULL);
			jw_end(&jw);
		}
		jw_end(&jw);
	} else {
		jw_object_null(&jw, "likely_prerequisites");
	}
	jw_object_string(&jw, "reverted_by", c->reverted_by);
	jw_object_string(&jw, "reverts", c->reverts ? c->reverts->hex : NULL);
	json_other_decisions(&jw, c);
	jw_object_strings(&jw, "warnings", (const char *const *)c->warnings,
			  c->nr_warnings);
	/* Only on what --since last lists again: a full run is unchanged. */
	if (c->newly) {
		jw_object_object(&jw, "newly_eligible");
		jw_object_string(&jw, "why", newly_why_name(c->newly));
		jw_object_string(&jw, "was", c->newly_was);
		jw_end(&jw);
	}
	jw_end(&jw);
	strbuf_addch(out, '\n');
}

void report_json(struct strbuf *out, const struct report *r,
		 const struct candidate_list *l)
{
	size_t i;

	for (i = 0; i < l->nr; i++)
		if (!l->items[i]->listed_before)
			json_candidate(out, l->items[i],
				       r->branch ? r->branch->name : NULL);
}
