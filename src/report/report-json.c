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

/*
 * propose --format json: JSON Lines, one object per candidate that no
 * earlier run listed (--since), whatever its verdict, in the list's
 * order.  The keys are a released interface, read by scripts: a key
 * is never renamed, retyped or dropped.  Every key below is always
 * written, null or an empty array when there is nothing to say; only
 * newly_eligible comes and goes.  An id is 40 hex digits; the names in
 * quotes are the values a key takes, stable names like the keys.
 *
 * The object is written by the writers below, one per group of keys,
 * each called in its turn by json_candidate().  A new key goes into
 * the writer of its group and onto this list; a new group gets a
 * writer of its own.  Keys go through json.h's writer (jw_*), never
 * by hand.
 *
 * json_identity(): the commit, as the scan found it.
 *   commit          string: the mainline commit's id
 *   branch          string: the branch it is judged for
 *   subject         string: its subject (the first line of its message)
 *   author          string: "Name <email>"
 *   date            string: its author date at its author's offset,
 *                   "2023-11-13T09:00:00+00:00"
 *   subsystem       string: its primary subsystem (the rule files'
 *                   name), null when it changes none of their paths
 *                   (a commit --tests-from adds)
 *   subsystems      array of strings: every subsystem whose watched
 *                   paths it changes, the primary first
 *   policy          string: the primary subsystem's policy,
 *                   "heuristic", "opt-in" or "ignore"; null with none
 *
 * json_verdict(): its score (score_candidate()) and its verdict,
 * decided by score_decide(), then by the decisions the ledger holds
 * for the branch (run-judge.c), then by the checks (checks.h: soak time, a
 * held commit it needs, a pick that changes nothing).
 *   score           integer: the sum of the weights of the rules that
 *                   matched
 *   threshold       integer: what its subsystem's rules ask for (else
 *                   the rule files')
 *   verdict         string: "proposed", "needs-ack", "waiting",
 *                   "maybe-present", "not-applicable", "reverted",
 *                   "reverted-in-branch",
 *                   "vetoed", "accepted", "rejected", "deferred",
 *                   "present", "below-threshold" (verdict_name())
 *   why             string: one sentence saying why
 *   reasons         array of objects, one per rule that matched, in
 *                   the order they matched:
 *     rule          string: the rule's name
 *     weight        integer: its weight
 *     field         string: what it matches, "subject", "body",
 *                   "message", "paths", "fact", "reply", or
 *                   "trailer:KEY" ("trailer:Cc")
 *     match         string: the text it matched, shortened
 *   veto            null, or the veto rule that matched: an object
 *                   with rule and match, as in reasons
 *   decision_origin null, or for a decision of the ledger read from a
 *                   mail (acks), where it came from, a claim by the
 *                   mail's sender: an object with
 *     archive       string: the archive it was read from, or null
 *     message_id    string: the mail's Message-ID, without <>, or null
 *     from          string: its From:, as written, or null
 *     date          string: its Date:, "2026-11-02T10:00:00Z", or null
 *
 * json_evidence(): what the presence engine (match.h) found, and the
 * checks' "same-content".
 *   evidence        array of objects, in the order found:
 *     kind          string: "ancestor", "upstream-line", "patch-id",
 *                   "backport-reverted", "subject", "same-content",
 *                   "absent" (evidence_kind_name())
 *     commit        string: the branch commit that shows it, or null;
 *                   for same-content, the twin that made the same
 *                   change (below the base, carried by the branch, or
 *                   a proposal before it), or null when none is found
 *     detail        string: one sentence
 *
 * json_tags(): the tags of its message (message.h), Fixes: targets
 * resolved and placed by the deps stage.
 *   fixes           array of objects, one per Fixes: tag:
 *     id            string: the id as written (lower case, 4 to 40
 *                   hex digits)
 *     subject       string: the subject quoted after it, or null
 *     commit        string: the commit it names, or null (not found,
 *                   ambiguous, or ignored: see warnings)
 *     status        string: "in-branch", "proposed", "absent" or
 *                   "unknown" (target_status_name())
 *   stable          array of objects, one per Cc: stable tag:
 *     address       string: "stable@vger.kernel.org"
 *     comment       string: the text after '#', or null
 *     since         string: the oldest version it asks for, "6.1",
 *                   or null
 *     noautosel     boolean: stable+noautosel, never picked by itself
 *
 * json_facts(): what stages and runs established besides the message.
 *   facts           array of strings: the rule facts (field "fact")
 *                   set: "fixes-in-branch", "follow-up",
 *                   "reverts-present", "prerequisite" (deps),
 *                   "named-by-test" (--tests-from), "cve" (--cve),
 *                   "in-newer-branch" (several branches)
 *   named_by        array of strings: the tests that name it as their
 *                   fix, "fstests generic/123" (--tests-from)
 *   cves            array of strings: the CVEs it fixes (--cve),
 *                   "CVE-2024-26581"
 *   newer_lacking   array of objects: in a run of several branches,
 *                   for a commit this branch is to take (proposed,
 *                   needs-ack, accepted), each newer branch of the run
 *                   that lacks it and is not to take it either, newest
 *                   first (multirun.h):
 *     branch        string: that branch
 *     verdict       string: its verdict there
 *
 * json_dependencies(): what must come with it (the deps stage).
 *   prerequisites   array of objects, one per commit the branch needs
 *                   first:
 *     commit        string: its id
 *     source        string: what says so, "Cc: stable" (the comment
 *                   of its Cc: stable line names it) or "Stable-dep-of"
 *                   (that commit's Stable-dep-of: trailer names this one)
 *     status        string: as in fixes
 *   series          null, or the posted series its Link: trailer's
 *                   message-id names:
 *     id            string: that message-id without the patch's number
 *     position      integer: the patch's number in it
 *
 * json_posted(): its patch mail in the list archives (posted.h), with
 * --archive or stablepick.archive.
 *   posted          null (no archive, or not found there), or:
 *     message_id    string: the patch mail's Message-ID, without <>
 *     found_by      string: "link", "patch-id" or "subject"
 *                   (posted_how_name())
 *     subject       string: the mail's subject
 *     from          string: its sender, "Name <addr>"
 *     revision      integer: its "vN", 1 when it has none
 *     latest_revision  integer: the highest "vN" posted
 *     latest        string: the Message-ID of the later revision (its
 *                   cover letter, else its first patch), or null
 *     series        null for a patch posted alone, else:
 *       subject     string: the series' title (its first mail's)
 *       cover       string: the Message-ID of its cover letter, or null
 *       link        string: the lore link of the cover letter, else of
 *                   its first patch
 *       position    integer: this patch's number, the 3 of "3/7"
 *       total       integer: the 7 of "3/7"
 *       mates       array of objects, the other patches by number:
 *         position    integer: its number
 *         message_id  string: its Message-ID
 *         subject     string: its title (the subject without "[...]")
 *         commit      string: its mainline commit, or null
 *         status      string: "present", "maybe-present", "proposed",
 *                     "absent" or "not-found" (posted_mates())
 *     replies       array of objects, the replies to the patch or its
 *                   cover letter:
 *       message_id  string: its Message-ID
 *       from        string: its sender
 *       subject     string: its subject
 *       to_cover    boolean: it answers the cover letter
 *
 * json_checks(): its trial pick onto the branch tip (checks.h) and,
 * when that conflicts, what it may need (blame.h).
 *   applies         boolean: whether it applies; null when it was not
 *                   tried (only what the checks found proposed or
 *                   needing an ack is)
 *   conflicts       array of strings: the paths it conflicts in
 *   likely_prerequisites  null when not looked for (only explain and
 *                   --format failed look, so propose's JSON has null),
 *                   else an array of objects, newest first:
 *     commit        string: the mainline commit's id
 *     subject       string: its subject
 *     verdict       string: its verdict in the run, or null when the
 *                   run did not judge it
 *     watched       boolean: false when the rules watch no path it
 *                   changes (a member of applies_with the scan did not
 *                   find, judged apart: its verdict the rules' all the
 *                   same); null when not judged
 *     score         number: its score by the rules, or null
 *   applies_with    when it does not apply: the smallest series of
 *                   mainline commits after which it does (applywith.h),
 *                   oldest first, the commit itself not included; []
 *                   when it applies alone; null when no series was
 *                   found within the bounds, or none was looked for
 *                   (applies_with_tried 0)
 *   applies_with_tried  number: the series tried
 *   applies_with_searched  boolean: whether the series was looked for
 *                   (false: it applies alone, the format does not look,
 *                   or the run's stablepick.seriesPicks were spent on
 *                   older proposals)
 *   applies_with_members  array of objects, for applies_with: commit,
 *                   subject, verdict (as likely_prerequisites)
 *
 * json_reverts(): reverts in mainline (the deps stage).
 *   reverted_by     string: the later mainline commit that reverts it
 *                   (in the run's range or after it), or null
 *   reverts         string: the commit it reverts, when the run
 *                   scanned that one, or null
 *
 * json_notes(): what is said besides the verdict.
 *   other_decisions array of objects: when the ledger holds no decision
 *                   for the branch, the latest for each other branch,
 *                   oldest first (ledger_find_others()); evidence only:
 *     branch        string: the branch decided for
 *     decision      string: "accepted", "rejected" or "deferred"
 *     when          string: as in the ledger, "2026-11-02T10:00:00Z"
 *     until         string: a deferral's date, "2026-12-17", or tag,
 *                   "v6.6.9"; else null
 *     who           string: who decided
 *     reason        string: why
 *     origin        null, or an object as decision_origin
 *   warnings        array of strings: what a stage could not settle or
 *                   wants seen (a rule that gave up, an ambiguous
 *                   Fixes: id, a prerequisite neither in the branch nor
 *                   proposed ...)
 *   newly_eligible  only on what --since last lists again (nothing
 *                   else has the key), an object:
 *     why           string: "soaked", "deferral-expired",
 *                   "ledger-changed", "prerequisite-present",
 *                   "rules-changed", "fixed-since" (newly_why_name())
 *     was           string: what it was at the earlier run, "waiting",
 *                   "held" ...
 */

static void json_identity(struct json_writer *jw, const struct candidate *c,
			  const char *branch)
{
	const struct subsystem *s = candidate_subsystem(c);
	struct strbuf date = STRBUF_INIT;
	size_t i;

	jw_object_string(jw, "commit", c->hex);
	jw_object_string(jw, "branch", branch);
	jw_object_string(jw, "subject", c->msg.subject);
	jw_object_string(jw, "author", c->author);
	report_add_date(&date, c->time, c->tz_offset);
	jw_object_string(jw, "date", date.buf);
	strbuf_release(&date);
	jw_object_string(jw, "subsystem", s ? s->name : NULL);
	jw_object_array(jw, "subsystems");
	for (i = 0; i < c->nr_touched; i++)
		jw_array_string(jw, c->touched[i]->name);
	jw_end(jw);
	jw_object_string(jw, "policy", s ? policy_name(s->policy) : NULL);
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

/* The origin of a decision (key), or null: see decision_origin. */
static void json_origin(struct json_writer *jw, const char *key,
			const struct ledger_entry *e)
{
	const struct ledger_origin *o = e ? &e->origin : NULL;
	char when[21];

	if (!o || !ledger_origin_known(o)) {
		jw_object_null(jw, key);
		return;
	}
	jw_object_object(jw, key);
	jw_object_string(jw, "archive", o->archive);
	jw_object_string(jw, "message_id", o->message_id);
	jw_object_string(jw, "from", o->from);
	if (o->date) {
		ledger_format_when(when, o->date);
		jw_object_string(jw, "date", when);
	} else {
		jw_object_null(jw, "date");
	}
	jw_end(jw);
}

static void json_verdict(struct json_writer *jw, const struct candidate *c)
{
	jw_object_int(jw, "score", c->score);
	jw_object_int(jw, "threshold", c->threshold);
	jw_object_string(jw, "verdict", verdict_name(c->verdict));
	jw_object_string(jw, "why", c->why);
	json_reasons(jw, c);
	if (c->veto) {
		jw_object_object(jw, "veto");
		jw_object_string(jw, "rule", c->veto->name);
		jw_object_string(jw, "match", c->veto_match);
		jw_end(jw);
	} else {
		jw_object_null(jw, "veto");
	}
	json_origin(jw, "decision_origin", c->decision);
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

static void json_facts(struct json_writer *jw, const struct candidate *c)
{
	size_t i;

	jw_object_strings(jw, "facts", c->facts, c->nr_facts);
	jw_object_strings(jw, "named_by", (const char *const *)c->named_by,
			  c->nr_named_by);
	jw_object_strings(jw, "cves", (const char *const *)c->cves, c->nr_cves);
	jw_object_array(jw, "newer_lacking");
	for (i = 0; i < c->nr_newer_lacking; i++) {
		jw_array_object(jw);
		jw_object_string(jw, "branch", c->newer_lacking[i].branch);
		jw_object_string(jw, "verdict",
				 verdict_name(c->newer_lacking[i].verdict));
		jw_end(jw);
	}
	jw_end(jw);
}

static void json_dependencies(struct json_writer *jw,
			      const struct candidate *c)
{
	size_t i;

	jw_object_array(jw, "prerequisites");
	for (i = 0; i < c->nr_prereqs; i++) {
		jw_array_object(jw);
		jw_oid(jw, "commit", &c->prereqs[i].id);
		jw_object_string(jw, "source", c->prereqs[i].source);
		jw_object_string(jw, "status",
				 target_status_name(c->prereqs[i].status));
		jw_end(jw);
	}
	jw_end(jw);
	if (c->series.id) {
		jw_object_object(jw, "series");
		jw_object_string(jw, "id", c->series.id);
		jw_object_int(jw, "position", c->series.position);
		jw_end(jw);
	} else {
		jw_object_null(jw, "series");
	}
}

/* posted's series: the patches posted with it ("[PATCH v2 3/7]"). */
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

static void json_members(struct json_writer *jw,
			 const struct likely_prereq *v, size_t nr)
{
	size_t i;

	for (i = 0; i < nr; i++) {
		jw_array_object(jw);
		jw_object_string(jw, "commit", v[i].hex);
		jw_object_string(jw, "subject", v[i].subject);
		jw_object_string(jw, "verdict", v[i].cand ?
				 verdict_name(v[i].cand->verdict) : NULL);
		if (v[i].cand)
			jw_object_bool(jw, "watched", v[i].cand->nr_touched > 0);
		else
			jw_object_null(jw, "watched");
		if (v[i].cand)
			jw_object_int(jw, "score", v[i].cand->score);
		else
			jw_object_null(jw, "score");
		jw_end(jw);
	}
}

static void json_applies_with(struct json_writer *jw,
			      const struct candidate *c)
{
	size_t i;

	if (c->apply_checked && c->apply.applies) {
		jw_object_array(jw, "applies_with");
		jw_end(jw);
	} else if (c->with.state == WITH_FOUND) {
		jw_object_array(jw, "applies_with");
		for (i = 0; i < c->with.nr; i++)
			jw_array_string(jw, c->with.v[i].hex);
		jw_end(jw);
	} else {
		jw_object_null(jw, "applies_with");
	}
	jw_object_int(jw, "applies_with_tried", (long long)c->with.tried);
	jw_object_bool(jw, "applies_with_searched",
		       c->with.state == WITH_FOUND || c->with.state == WITH_NONE);
	jw_object_array(jw, "applies_with_members");
	json_members(jw, c->with.v, c->with.nr);
	jw_end(jw);
}

static void json_checks(struct json_writer *jw, const struct candidate *c)
{
	if (c->apply_checked)
		jw_object_bool(jw, "applies", c->apply.applies);
	else
		jw_object_null(jw, "applies");
	jw_object_strings(jw, "conflicts",
			  (const char *const *)c->apply.conflicts,
			  c->apply.nr_conflicts);
	json_applies_with(jw, c);
	/* null: not looked for (only explain and --format failed look). */
	if (!c->likely_checked) {
		jw_object_null(jw, "likely_prerequisites");
		return;
	}
	jw_object_array(jw, "likely_prerequisites");
	json_members(jw, c->likely, c->nr_likely);
	jw_end(jw);
}

static void json_reverts(struct json_writer *jw, const struct candidate *c)
{
	jw_object_string(jw, "reverted_by", c->reverted_by);
	jw_object_string(jw, "reverts", c->reverts ? c->reverts->hex : NULL);
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
			jw_object_string(jw, "until",
					 ledger_until_text(e, until));
		} else {
			jw_object_null(jw, "until");
		}
		jw_object_string(jw, "who", e->who);
		jw_object_string(jw, "reason", e->reason);
		json_origin(jw, "origin", e);
		jw_end(jw);
	}
	jw_end(jw);
}

static void json_notes(struct json_writer *jw, const struct candidate *c)
{
	json_other_decisions(jw, c);
	jw_object_strings(jw, "warnings", (const char *const *)c->warnings,
			  c->nr_warnings);
	/* Only on what --since last lists again: a full run is unchanged. */
	if (c->newly) {
		jw_object_object(jw, "newly_eligible");
		jw_object_string(jw, "why", newly_why_name(c->newly));
		jw_object_string(jw, "was", c->newly_was);
		jw_end(jw);
	}
}

/* One candidate's object, its groups in the order listed above. */
static void json_candidate(struct strbuf *out, const struct candidate *c,
			   const char *branch)
{
	struct json_writer jw;

	jw_init(&jw, out);
	jw_object_begin(&jw);
	json_identity(&jw, c, branch);
	json_verdict(&jw, c);
	json_evidence(&jw, c);
	json_tags(&jw, c);
	json_facts(&jw, c);
	json_dependencies(&jw, c);
	json_posted(&jw, c);
	json_checks(&jw, c);
	json_reverts(&jw, c);
	json_notes(&jw, c);
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
