#include "stages/ruletest.h"
#include "base/error.h"
#include "base/json.h"
#include "formats/message.h"
#include "stages/score.h"
#include "base/util.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void ruletest_init(struct ruletest *t, struct ruleset *rules,
		   const char *label)
{
	memset(t, 0, sizeof(*t));
	t->rules = rules;
	t->label = label;
	candidate_list_init(&t->cands);
}

void ruletest_release(struct ruletest *t)
{
	candidate_list_release(&t->cands);
	free(t->items);
	free(t->stats);
	memset(t, 0, sizeof(*t));
}

/* A message's label: -2 when its value is none of the accepted ones. */
static int read_label(const struct json_member *m)
{
	static const char *const yes[] = { "positive", "yes", "true", "1" };
	static const char *const no[] = { "negative", "no", "false", "0" };
	size_t i;

	if (!m || m->type == JSON_NULL)
		return LABEL_NONE;
	if (m->type == JSON_TRUE)
		return LABEL_POSITIVE;
	if (m->type == JSON_FALSE)
		return LABEL_NEGATIVE;
	if (m->type != JSON_STRING && m->type != JSON_NUMBER)
		return -2;
	for (i = 0; i < ARRAY_SIZE(yes); i++) {
		if (!strcmp(m->value, yes[i]))
			return LABEL_POSITIVE;
		if (!strcmp(m->value, no[i]))
			return LABEL_NEGATIVE;
	}
	return -2;
}

/* The subsystem a line names: a defined one, else one a template derives. */
static const struct subsystem *subsystem_of(struct ruleset *rs,
					    const char *name)
{
	struct subsystem *s = ruleset_subsystem(rs, name);
	struct strbuf path = STRBUF_INIT;
	size_t i;

	if (s)
		return s->is_template ? NULL : s;
	/* A directory's name: one component. */
	if (!*name || strchr(name, '/') || !strcmp(name, ".") ||
	    !strcmp(name, ".."))
		return NULL;
	for (i = 0; i < rs->nr_subsystems; i++) {
		const struct subsystem *tmpl = rs->subsystems[i];
		size_t len;

		if (!tmpl->is_template || !tmpl->nr_paths)
			continue;
		/* "fs/\*\/": the directory fs/NAME/, as a scan derives it. */
		len = strlen(tmpl->paths[0]) - 2;
		strbuf_addf(&path, "%.*s%s/", (int)len, tmpl->paths[0], name);
		s = ruleset_add_derived(rs, tmpl, name, path.buf);
		break;
	}
	strbuf_release(&path);
	return s;
}

static void add_strings(char ***v, size_t *nr, size_t *alloc,
			const struct json_member *m)
{
	size_t i;

	for (i = 0; m && m->type == JSON_ARRAY && i < m->nr_items; i++) {
		ALLOC_GROW(*v, *nr, *alloc);
		(*v)[(*nr)++] = xstrdup(m->items[i]);
	}
}

/* One line: 0, or -1 after reporting it. */
static int read_line(struct ruletest *t, const char *line, size_t len,
		     size_t lineno)
{
	const struct json_member *subject, *message, *sub, *facts;
	struct json_object o;
	struct ruletest_item *it;
	struct candidate *c;
	const char *why;
	size_t at, i;
	git_oid id;
	int label = LABEL_NONE, ret = -1;

	json_object_init(&o);
	if (json_object_parse(&o, line, len, &why, &at) < 0) {
		error("%s:%zu: %s (at byte %zu)", t->path, lineno, why, at + 1);
		goto out;
	}
	subject = json_object_get(&o, "subject");
	message = json_object_get(&o, "message");
	sub = json_object_get(&o, "subsystem");
	if ((!message || message->type != JSON_STRING) &&
	    (!subject || subject->type != JSON_STRING)) {
		error("%s:%zu: no \"message\" or \"subject\" string", t->path,
		      lineno);
		goto out;
	}
	if (t->label && (label = read_label(json_object_get(&o, t->label))) == -2) {
		error("%s:%zu: label \"%s\" is neither positive (true, 1, "
		      "\"yes\", \"positive\") nor negative (false, 0, \"no\", "
		      "\"negative\")", t->path, lineno, t->label);
		goto out;
	}
	memset(&id, 0, sizeof(id));
	for (i = 0; i < sizeof(size_t) && i < GIT_OID_RAWSZ; i++)
		id.id[GIT_OID_RAWSZ - 1 - i] = (unsigned char)(lineno >> (8 * i));
	c = candidate_list_add(&t->cands, &id);
	if (sub && sub->type == JSON_STRING) {
		const struct subsystem *s = subsystem_of(t->rules, sub->value);

		if (!s) {
			error("%s:%zu: unknown subsystem '%s'", t->path, lineno,
			      sub->value);
			goto out;
		}
		ALLOC_GROW(c->touched, c->nr_touched, c->alloc_touched);
		c->touched[c->nr_touched++] = s;
	}
	/* A message without its subject line: the subject, a blank line. */
	if (message && message->type == JSON_STRING)
		c->raw = xstrdup(message->value);
	else
		c->raw = xstrfmt("%s\n", subject->value);
	message_parse(&c->msg, c->raw, strlen(c->raw));
	if (subject && subject->type == JSON_STRING && strcmp(c->msg.subject,
							      subject->value)) {
		free(c->msg.subject);
		c->msg.subject = xstrdup(subject->value);
	}
	add_strings(&c->paths, &c->nr_paths, &c->alloc_paths,
		    json_object_get(&o, "paths"));
	c->paths_known = 1;
	facts = json_object_get(&o, "facts");
	for (i = 0; facts && facts->type == JSON_ARRAY && i < facts->nr_items; i++) {
		int f = rule_fact_lookup(facts->items[i]);

		if (f < 0) {
			error("%s:%zu: unknown fact '%s'", t->path, lineno,
			      facts->items[i]);
			goto out;
		}
		candidate_add_fact(c, (enum rule_fact)f);
	}
	ALLOC_GROW(t->items, t->nr, t->alloc);
	it = &t->items[t->nr++];
	memset(it, 0, sizeof(*it));
	it->c = c;
	it->lineno = lineno;
	it->label = (enum ruletest_label)label;
	ret = 0;
out:
	json_object_release(&o);
	return ret;
}

int ruletest_read(struct ruletest *t, const char *path)
{
	struct strbuf sb = STRBUF_INIT;
	const char *line, *end;
	size_t lineno = 0;
	int ret = 0, bad = 0;

	t->path = path;
	if (!strcmp(path, "-")) {
		if (strbuf_read_fd(&sb, 0) < 0)
			ret = error("cannot read the messages from standard input: "
				    "%s", strerror(errno));
	} else if (strbuf_read_file(&sb, path) < 0) {
		ret = error("cannot read '%s': %s", path, strerror(errno));
	}
	for (line = sb.buf; !ret && line < sb.buf + sb.len; line = end + 1) {
		size_t len;

		end = memchr(line, '\n', (size_t)(sb.buf + sb.len - line));
		if (!end)
			end = sb.buf + sb.len;
		len = (size_t)(end - line);
		lineno++;
		if (!len || (len == 1 && *line == '\r'))
			continue;
		if (read_line(t, line, len, lineno) < 0)
			bad = 1;
	}
	if (bad)
		ret = -1;
	if (!ret && !t->nr)
		ret = error("%s: no messages", path);
	strbuf_release(&sb);
	return ret ? -1 : 0;
}

static struct ruletest_rule *stat_of(struct ruletest *t, const struct rule *r,
				     const char *scope)
{
	size_t i;

	for (i = 0; i < t->nr_stats; i++)
		if (t->stats[i].rule == r)
			return &t->stats[i];
	ALLOC_GROW(t->stats, t->nr_stats, t->alloc_stats);
	memset(&t->stats[t->nr_stats], 0, sizeof(*t->stats));
	t->stats[t->nr_stats].rule = r;
	t->stats[t->nr_stats].scope = scope;
	return &t->stats[t->nr_stats++];
}

static void count(struct ruletest *t, const struct ruletest_item *it,
		  const struct rule *r, const char *scope)
{
	struct ruletest_rule *s = stat_of(t, r, scope);

	s->hits++;
	s->positive += it->label == LABEL_POSITIVE;
	s->negative += it->label == LABEL_NEGATIVE;
}

void ruletest_score(struct ruletest *t)
{
	size_t i, j;

	/* Every rule has a row, in the order of the files. */
	for (i = 0; i < t->rules->nr_rules; i++)
		stat_of(t, &t->rules->rules[i], NULL);
	for (i = 0; i < t->rules->nr_subsystems; i++) {
		const struct subsystem *s = t->rules->subsystems[i];

		for (j = 0; !s->is_template && j < s->nr_rules; j++)
			stat_of(t, &s->rules[j], s->name);
	}
	for (i = 0; i < t->nr; i++) {
		struct ruletest_item *it = &t->items[i];
		struct candidate *c = it->c;
		const struct subsystem *s = candidate_subsystem(c);

		score_candidate(t->rules, c);
		it->picked = !c->veto && c->score >= c->threshold;
		t->positives += it->label == LABEL_POSITIVE;
		t->negatives += it->label == LABEL_NEGATIVE;
		for (j = 0; j < c->nr_reasons; j++)
			count(t, it, c->reasons[j].rule,
			      c->reasons[j].rule >= t->rules->rules &&
			      c->reasons[j].rule < t->rules->rules + t->rules->nr_rules ?
			      NULL : s ? s->name : NULL);
		if (c->veto)
			count(t, it, c->veto, NULL);
	}
}
