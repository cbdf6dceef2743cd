#include "report.h"
#include "deps.h"
#include "json.h"
#include "posted.h"
#include "util.h"

#include <string.h>

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
	report_add_date(out, c->time, c->tz_offset);
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
