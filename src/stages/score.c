#include "stages/score.h"
#include "stages/match.h"
#include "stages/posted.h"
#include "base/strbuf.h"
#include "base/util.h"

#include <string.h>

/* The matched text as a reason shows it: one line, at most 60 bytes. */
static char *shorten(const char *text, size_t start, size_t end)
{
	struct strbuf sb = STRBUF_INIT;
	size_t i;

	if (end - start > 60)
		end = start + 60;
	for (i = start; i < end; i++) {
		unsigned char ch = (unsigned char)text[i];

		strbuf_addch(&sb, ch == '\n' || ch == '\r' || ch == '\t' ? ' ' : ch);
	}
	return strbuf_detach(&sb, NULL);
}

/* Matches r against one text; 1 with *match set, 0, or -1 (gave up). */
static int match_one(const struct ruleset *rs, const struct rule *r,
		     const char *text, char **match)
{
	struct rule_match_result res;
	int ret = rule_match(rs, r, text, strlen(text), &res);

	if (ret == 1)
		*match = shorten(text, res.start, res.end);
	return ret;
}

/* The first of the nr values of v the rule matches (or gives up on). */
static int match_any(const struct ruleset *rs, const struct rule *r,
		     const char *const *v, size_t nr, char **match)
{
	size_t i;
	int ret = 0;

	for (i = 0; !ret && i < nr; i++)
		ret = match_one(rs, r, v[i], match);
	return ret;
}

/*
 * Matches a rule against the field it names.  A rule that gives up on
 * one value (a trailer, a path) does not count, whatever the others
 * hold, so the values after it are not tried: each give-up costs the
 * whole match limit, and 5,000 trailers of a hostile message would
 * cost it 5,000 times.
 */
static int match_rule(const struct ruleset *rs, const struct rule *r,
		      const struct candidate *c, char **match)
{
	const struct trailer *t;
	size_t pos = 0, i;
	int ret;

	switch (r->field) {
	case FIELD_SUBJECT:
		return match_one(rs, r, c->msg.subject ? c->msg.subject : "", match);
	case FIELD_BODY:
		return match_one(rs, r, c->msg.text ? c->msg.text : "", match);
	case FIELD_MESSAGE:
		return match_one(rs, r, c->raw ? c->raw : "", match);
	case FIELD_TRAILER:
		while ((t = message_trailer_next(&c->msg, r->trailer, &pos))) {
			ret = match_one(rs, r, t->val, match);
			if (ret)
				return ret;
		}
		return 0;
	case FIELD_PATHS:
		return match_any(rs, r, (const char *const *)c->paths,
				 c->nr_paths, match);
	case FIELD_FACT:
		return match_any(rs, r, c->facts, c->nr_facts, match);
	case FIELD_REPLY:
		for (i = 0; c->posted && i < c->posted->nr_replies; i++) {
			ret = match_one(rs, r, c->posted->replies[i].text, match);
			if (ret)
				return ret;
		}
		return 0;
	}
	return 0;
}

/* Whether a rule named in r's "unless" counted for c. */
static int unless_counted(const struct rule *r, const struct candidate *c)
{
	size_t i, j;

	for (i = 0; i < r->nr_unless; i++)
		for (j = 0; j < c->nr_reasons; j++)
			if (!strcmp(c->reasons[j].rule->name, r->unless[i]))
				return 1;
	return 0;
}

static void apply_rules(const struct ruleset *rs, struct candidate *c,
			const struct rule *rules, size_t nr)
{
	size_t i;

	for (i = 0; i < nr; i++) {
		const struct rule *r = &rules[i];
		char *match = NULL;
		int ret;

		if (r->nr_unless && unless_counted(r, c))
			continue;
		ret = match_rule(rs, r, c, &match);

		if (ret < 0) {
			candidate_add_warning(c, "rule '%s' (%s:%u) gave up: "
					      "match limit reached", r->name,
					      r->file, r->lineno);
			continue;
		}
		if (!ret)
			continue;
		if (r->veto) {
			if (!c->veto) {
				c->veto = r;
				c->veto_match = match;
			} else {
				free(match);
			}
			continue;
		}
		ALLOC_GROW(c->reasons, c->nr_reasons, c->alloc_reasons);
		c->reasons[c->nr_reasons].rule = r;
		c->reasons[c->nr_reasons].match = match;
		c->nr_reasons++;
		c->score += r->weight;
	}
}

void score_candidate(const struct ruleset *rs, struct candidate *c)
{
	size_t i;

	/* Scoring again (a prerequisite pulled in) starts afresh. */
	for (i = 0; i < c->nr_reasons; i++)
		free(c->reasons[i].match);
	c->nr_reasons = 0;
	free(c->veto_match);
	c->veto_match = NULL;
	c->veto = NULL;
	c->score = 0;
	apply_rules(rs, c, rs->rules, rs->nr_rules);
	for (i = 0; i < c->nr_touched; i++)
		apply_rules(rs, c, c->touched[i]->rules, c->touched[i]->nr_rules);
	c->threshold = ruleset_threshold(rs, candidate_subsystem(c));
}

/* The reason a stable+noautosel tag gives, if any. */
static const char *noautosel_reason(const struct message *m)
{
	size_t i;

	for (i = 0; i < m->nr_stable; i++)
		if (m->stable[i].noautosel && m->stable[i].comment)
			return m->stable[i].comment;
	return NULL;
}

/*
 * A commit whose backport the branch reverted, proposed again because
 * mainline fixed it since: the why keeps what the branch said.
 */
static void propose_again(struct candidate *c, const struct evidence *e,
			  const char *name)
{
	struct strbuf why = STRBUF_INIT;

	strbuf_addf(&why, "score %lld reaches the threshold %d of %s; %s",
		    c->score, c->threshold, name, e->detail);
	if (c->branch_revert_why)
		strbuf_addf(&why, ": \"%s\"", c->branch_revert_why);
	strbuf_addf(&why, "; fixed since in mainline by %.12s",
		    c->fixed_later_by->hex);
	candidate_set_verdict(c, VERDICT_PROPOSED, "%s", why.buf);
	strbuf_release(&why);
}

void score_decide(struct candidate *c)
{
	const struct subsystem *s = candidate_subsystem(c);
	const char *name = s ? s->name : "?";
	const struct evidence *e;

	if (c->present) {
		e = candidate_presence(c);
		candidate_set_verdict(c, VERDICT_PRESENT, "%s",
				      e ? e->detail : "already in the branch");
		return;
	}
	if (c->maybe_present) {
		candidate_set_verdict(c, VERDICT_MAYBE_PRESENT, "%s",
				      match_maybe_why(c));
		return;
	}
	if (c->reverted_by) {
		candidate_set_verdict(c, VERDICT_REVERTED,
				      "reverted in mainline by %.12s",
				      c->reverted_by);
		return;
	}
	if (c->not_applicable) {
		candidate_set_verdict(c, VERDICT_NOT_APPLICABLE, "%s",
				      c->not_applicable);
		return;
	}
	/*
	 * The branch took it and reverted it on purpose: not proposed
	 * again until mainline fixes it (or a decision says otherwise).
	 */
	e = candidate_evidence(c, EVIDENCE_BACKPORT_REVERTED);
	if (e && !c->fixed_later_by) {
		if (c->branch_revert_why)
			candidate_set_verdict(c, VERDICT_BRANCH_REVERTED,
					      "%s: \"%s\"", e->detail,
					      c->branch_revert_why);
		else
			candidate_set_verdict(c, VERDICT_BRANCH_REVERTED, "%s",
					      e->detail);
		return;
	}
	if (c->veto) {
		const char *reason = noautosel_reason(&c->msg);

		if (reason)
			candidate_set_verdict(c, VERDICT_VETOED,
					      "stable+noautosel: %s", reason);
		else
			candidate_set_verdict(c, VERDICT_VETOED,
					      "veto rule '%s' matched \"%s\"",
					      c->veto->name, c->veto_match);
		return;
	}
	if (c->score < c->threshold) {
		candidate_set_verdict(c, VERDICT_BELOW_THRESHOLD,
				      "score %lld is below the threshold %d of %s",
				      c->score, c->threshold, name);
		return;
	}
	if (s && s->policy == POLICY_OPT_IN && !message_cc_stable(&c->msg)) {
		candidate_set_verdict(c, VERDICT_NEEDS_ACK,
				      "%s is opt-in and no Cc: stable tag approves it",
				      name);
		return;
	}
	e = candidate_evidence(c, EVIDENCE_BACKPORT_REVERTED);
	if (e)
		propose_again(c, e, name);
	else
		candidate_set_verdict(c, VERDICT_PROPOSED,
				      "score %lld reaches the threshold %d of %s",
				      c->score, c->threshold, name);
}

static int rule_hit(const struct candidate *c, const struct rule *rule)
{
	size_t i;

	for (i = 0; i < c->nr_reasons; i++)
		if (c->reasons[i].rule == rule)
			return 1;
	return c->veto == rule;
}

static void add_unmatched_from(struct strbuf *out, const struct candidate *c,
			       const struct rule *rules, size_t nr, int *first)
{
	size_t i;

	for (i = 0; i < nr; i++) {
		/* Without a posted patch, replies could not match. */
		if (rule_hit(c, &rules[i]) ||
		    (rules[i].field == FIELD_REPLY && !c->posted))
			continue;
		if (!*first)
			strbuf_addstr(out, ", ");
		strbuf_addstr(out, rules[i].name);
		*first = 0;
	}
}

int score_unmatched(struct strbuf *out, const struct ruleset *rs,
		    const struct candidate *c)
{
	int first = 1;
	size_t i;

	add_unmatched_from(out, c, rs->rules, rs->nr_rules, &first);
	for (i = 0; i < c->nr_touched; i++)
		add_unmatched_from(out, c, c->touched[i]->rules,
				   c->touched[i]->nr_rules, &first);
	return !first;
}
