#include "report/report-ruletest.h"
#include "base/json.h"
#include "base/util.h"

#include <string.h>

/* The counts of the picks at threshold (all: every message's own). */
struct tally {
	size_t tp, fp, fn, tn, picked;
};

static struct tally tally_at(const struct ruletest *t, int use_own,
			     long long threshold)
{
	struct tally y = { 0, 0, 0, 0, 0 };
	size_t i;

	for (i = 0; i < t->nr; i++) {
		const struct ruletest_item *it = &t->items[i];
		int picked = use_own ? it->picked :
			     !it->c->veto && it->c->score >= threshold;

		y.picked += picked;
		if (it->label == LABEL_POSITIVE) {
			if (picked)
				y.tp++;
			else
				y.fn++;
		} else if (it->label == LABEL_NEGATIVE) {
			if (picked)
				y.fp++;
			else
				y.tn++;
		}
	}
	return y;
}

static double ratio(size_t a, size_t b)
{
	return b ? (double)a / (double)b : 0.0;
}

static void add_ratio(struct strbuf *out, size_t a, size_t b)
{
	if (b)
		strbuf_addf(out, "%.3f", ratio(a, b));
	else
		strbuf_addch(out, '-');
}

static const char *label_name(enum ruletest_label l)
{
	return l == LABEL_POSITIVE ? "positive" :
	       l == LABEL_NEGATIVE ? "negative" : "-";
}

/* Every score a labelled message has, sorted and once each. */
static size_t sweep_points(const struct ruletest *t, long long **out)
{
	long long *v = xcalloc(t->nr ? t->nr : 1, sizeof(*v));
	size_t nr = 0, i, j = 0;

	for (i = 0; i < t->nr; i++)
		if (t->items[i].label != LABEL_NONE && !t->items[i].c->veto)
			v[nr++] = t->items[i].c->score;
	QSORT(v, nr, cmp_llong);
	for (i = 0; i < nr; i++)
		if (!j || v[j - 1] != v[i])
			v[j++] = v[i];
	*out = v;
	return j;
}

static void rule_place(struct strbuf *out, const struct rule *r)
{
	const char *slash = strrchr(r->file, '/');

	strbuf_addf(out, "%s:%u", slash ? slash + 1 : r->file, r->lineno);
}

void report_ruletest_text(struct strbuf *out, const struct ruletest *t,
			  int flags)
{
	struct tally y = tally_at(t, 1, 0);
	size_t i;
	int w = 4;

	strbuf_addf(out, "%s: %zu message%s", t->path, t->nr,
		    t->nr == 1 ? "" : "s");
	if (t->label)
		strbuf_addf(out, ", %zu positive, %zu negative, %zu unlabelled "
			    "(label \"%s\")", t->positives, t->negatives,
			    t->nr - t->positives - t->negatives, t->label);
	strbuf_addf(out, "; threshold %d\n", t->rules->threshold);
	strbuf_addf(out, "picked: %zu", y.picked);
	if (t->label) {
		strbuf_addf(out, "; %zu of %zu positive (recall ", y.tp, t->positives);
		add_ratio(out, y.tp, t->positives);
		strbuf_addf(out, "), %zu of %zu negative (", y.fp, t->negatives);
		add_ratio(out, y.fp, t->negatives);
		strbuf_addstr(out, "); precision ");
		add_ratio(out, y.tp, y.tp + y.fp);
	}
	strbuf_addch(out, '\n');

	for (i = 0; i < t->nr_stats; i++) {
		size_t len = strlen(t->stats[i].rule->name) +
			     (t->stats[i].scope ? strlen(t->stats[i].scope) + 1 : 0);

		if ((int)len > w)
			w = (int)len;
	}
	strbuf_addf(out, "\n%-*s %6s %6s", w, "RULE", "WEIGHT", "HITS");
	if (t->label)
		strbuf_addf(out, " %6s %6s  %9s  %6s", "POS", "NEG", "PRECISION",
			    "RECALL");
	strbuf_addstr(out, "  WHERE\n");
	for (i = 0; i < t->nr_stats; i++) {
		const struct ruletest_rule *s = &t->stats[i];
		struct strbuf name = STRBUF_INIT;

		if (s->scope)
			strbuf_addf(&name, "%s/", s->scope);
		strbuf_addstr(&name, s->rule->name);
		if (s->rule->veto)
			strbuf_addf(out, "%-*s %6s %6zu", w, name.buf, "veto",
				    s->hits);
		else
			strbuf_addf(out, "%-*s %+6d %6zu", w, name.buf,
				    s->rule->weight, s->hits);
		if (t->label) {
			struct strbuf p = STRBUF_INIT, r = STRBUF_INIT;

			add_ratio(&p, s->positive, s->positive + s->negative);
			add_ratio(&r, s->positive, t->positives);
			strbuf_addf(out, " %6zu %6zu  %9s  %6s", s->positive,
				    s->negative, p.buf, r.buf);
			strbuf_release(&p);
			strbuf_release(&r);
		}
		strbuf_addstr(out, "  ");
		rule_place(out, s->rule);
		strbuf_addch(out, '\n');
		strbuf_release(&name);
	}

	if (flags & RULETEST_SWEEP && t->label) {
		long long *v;
		size_t nr = sweep_points(t, &v);

		strbuf_addf(out, "\n%9s %6s %6s %6s %6s  %9s  %6s\n", "THRESHOLD",
			    "TP", "FP", "FN", "TN", "PRECISION", "RECALL");
		for (i = 0; i < nr; i++) {
			struct tally at = tally_at(t, 0, v[i]);
			struct strbuf p = STRBUF_INIT, r = STRBUF_INIT;

			add_ratio(&p, at.tp, at.tp + at.fp);
			add_ratio(&r, at.tp, t->positives);
			strbuf_addf(out, "%9lld %6zu %6zu %6zu %6zu  %9s  %6s\n", v[i],
				    at.tp, at.fp, at.fn, at.tn, p.buf, r.buf);
			strbuf_release(&p);
			strbuf_release(&r);
		}
		free(v);
	}

	if (flags & RULETEST_MESSAGES) {
		strbuf_addf(out, "\n%6s %5s  %-8s  %-8s  %s\n", "LINE", "SCORE",
			    "PICKED", "LABEL", "SUBJECT");
		for (i = 0; i < t->nr; i++) {
			const struct ruletest_item *it = &t->items[i];
			const struct candidate *c = it->c;
			size_t j;

			strbuf_addf(out, "%6zu %5lld  %-8s  %-8s  %s\n", it->lineno,
				    c->score, it->picked ? "yes" : "no",
				    label_name(it->label), c->msg.subject);
			strbuf_addf(out, "%23s", "");
			for (j = 0; j < c->nr_reasons; j++)
				strbuf_addf(out, "%s%s %+d", j ? ", " : "",
					    c->reasons[j].rule->name,
					    c->reasons[j].rule->weight);
			if (!c->nr_reasons)
				strbuf_addstr(out, "no rule matched");
			if (c->veto)
				strbuf_addf(out, "; veto %s", c->veto->name);
			strbuf_addch(out, '\n');
		}
	}
}

static void json_ratio(struct json_writer *jw, const char *key, size_t a,
		       size_t b)
{
	if (b)
		jw_object_double(jw, key, 4, ratio(a, b));
	else
		jw_object_null(jw, key);
}

/* The counts of a tally: tp, fp, fn, tn. */
static void json_tally(struct json_writer *jw, const struct tally *y)
{
	jw_object_int(jw, "tp", (long long)y->tp);
	jw_object_int(jw, "fp", (long long)y->fp);
	jw_object_int(jw, "fn", (long long)y->fn);
	jw_object_int(jw, "tn", (long long)y->tn);
}

static void json_rule(struct json_writer *jw, const struct ruletest *t,
		      const struct ruletest_rule *s)
{
	jw_object_begin(jw);
	jw_object_string(jw, "type", "rule");
	jw_object_string(jw, "rule", s->rule->name);
	jw_object_string(jw, "subsystem", s->scope);
	jw_object_bool(jw, "veto", s->rule->veto);
	if (s->rule->veto)
		jw_object_null(jw, "weight");
	else
		jw_object_int(jw, "weight", s->rule->weight);
	jw_object_string(jw, "file", s->rule->file);
	jw_object_int(jw, "line", s->rule->lineno);
	jw_object_int(jw, "hits", (long long)s->hits);
	if (t->label) {
		jw_object_int(jw, "positive", (long long)s->positive);
		jw_object_int(jw, "negative", (long long)s->negative);
		json_ratio(jw, "precision", s->positive,
			   s->positive + s->negative);
		json_ratio(jw, "recall", s->positive, t->positives);
	}
	jw_end(jw);
}

static void json_message(struct json_writer *jw,
			 const struct ruletest_item *it)
{
	const struct candidate *c = it->c;
	size_t j;

	jw_object_begin(jw);
	jw_object_string(jw, "type", "message");
	jw_object_int(jw, "line", (long long)it->lineno);
	jw_object_string(jw, "subject", c->msg.subject);
	jw_object_int(jw, "score", c->score);
	jw_object_int(jw, "threshold", c->threshold);
	jw_object_bool(jw, "picked", it->picked);
	jw_object_string(jw, "label", it->label == LABEL_NONE ? NULL
						 : label_name(it->label));
	jw_object_array(jw, "reasons");
	for (j = 0; j < c->nr_reasons; j++) {
		jw_array_object(jw);
		jw_object_string(jw, "rule", c->reasons[j].rule->name);
		jw_object_int(jw, "weight", c->reasons[j].rule->weight);
		jw_object_string(jw, "match", c->reasons[j].match);
		jw_end(jw);
	}
	jw_end(jw);
	jw_object_string(jw, "veto", c->veto ? c->veto->name : NULL);
	jw_end(jw);
}

void report_ruletest_json(struct strbuf *out, const struct ruletest *t,
			  int flags)
{
	struct tally y = tally_at(t, 1, 0);
	struct json_writer jw;
	size_t i;

	jw_init(&jw, out);
	jw_object_begin(&jw);
	jw_object_string(&jw, "type", "summary");
	jw_object_string(&jw, "file", t->path);
	jw_object_int(&jw, "messages", (long long)t->nr);
	jw_object_int(&jw, "threshold", t->rules->threshold);
	jw_object_int(&jw, "picked", (long long)y.picked);
	jw_object_string(&jw, "label", t->label);
	if (t->label) {
		jw_object_int(&jw, "positives", (long long)t->positives);
		jw_object_int(&jw, "negatives", (long long)t->negatives);
		json_tally(&jw, &y);
		json_ratio(&jw, "precision", y.tp, y.tp + y.fp);
		json_ratio(&jw, "recall", y.tp, t->positives);
		json_ratio(&jw, "negatives_picked", y.fp, t->negatives);
	}
	jw_end(&jw);
	strbuf_addch(out, '\n');
	for (i = 0; i < t->nr_stats; i++) {
		json_rule(&jw, t, &t->stats[i]);
		strbuf_addch(out, '\n');
	}
	if (flags & RULETEST_SWEEP && t->label) {
		long long *v;
		size_t nr = sweep_points(t, &v);

		for (i = 0; i < nr; i++) {
			struct tally at = tally_at(t, 0, v[i]);

			jw_object_begin(&jw);
			jw_object_string(&jw, "type", "sweep");
			jw_object_int(&jw, "threshold", v[i]);
			json_tally(&jw, &at);
			json_ratio(&jw, "precision", at.tp, at.tp + at.fp);
			json_ratio(&jw, "recall", at.tp, t->positives);
			jw_end(&jw);
			strbuf_addch(out, '\n');
		}
		free(v);
	}
	for (i = 0; flags & RULETEST_MESSAGES && i < t->nr; i++) {
		json_message(&jw, &t->items[i]);
		strbuf_addch(out, '\n');
	}
}
