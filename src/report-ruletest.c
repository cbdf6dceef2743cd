#include "report-ruletest.h"
#include "json.h"
#include "util.h"

#include <string.h>

/* The counts of the picks at threshold (all: every message's own). */
struct tally {
	size_t tp, fp, fn, tn, picked;
};

static struct tally tally_at(const struct ruletest *t, int use_own, int threshold)
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
static size_t sweep_points(const struct ruletest *t, int **out)
{
	int *v = xcalloc(t->nr ? t->nr : 1, sizeof(*v));
	size_t nr = 0, i, j = 0;

	for (i = 0; i < t->nr; i++)
		if (t->items[i].label != LABEL_NONE && !t->items[i].c->veto)
			v[nr++] = t->items[i].c->score;
	QSORT(v, nr, cmp_int);
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
		int *v;
		size_t nr = sweep_points(t, &v);

		strbuf_addf(out, "\n%9s %6s %6s %6s %6s  %9s  %6s\n", "THRESHOLD",
			    "TP", "FP", "FN", "TN", "PRECISION", "RECALL");
		for (i = 0; i < nr; i++) {
			struct tally at = tally_at(t, 0, v[i]);
			struct strbuf p = STRBUF_INIT, r = STRBUF_INIT;

			add_ratio(&p, at.tp, at.tp + at.fp);
			add_ratio(&r, at.tp, t->positives);
			strbuf_addf(out, "%9d %6zu %6zu %6zu %6zu  %9s  %6s\n", v[i],
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

			strbuf_addf(out, "%6zu %5d  %-8s  %-8s  %s\n", it->lineno,
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

static void json_ratio(struct strbuf *out, const char *key, size_t a, size_t b)
{
	strbuf_addf(out, ",\"%s\":", key);
	if (b)
		strbuf_addf(out, "%.4f", ratio(a, b));
	else
		strbuf_addstr(out, "null");
}

void report_ruletest_json(struct strbuf *out, const struct ruletest *t,
			  int flags)
{
	struct tally y = tally_at(t, 1, 0);
	size_t i, j;

	strbuf_addstr(out, "{\"type\":\"summary\",\"file\":");
	json_add_str(out, t->path);
	strbuf_addf(out, ",\"messages\":%zu,\"threshold\":%d,\"picked\":%zu",
		    t->nr, t->rules->threshold, y.picked);
	strbuf_addstr(out, ",\"label\":");
	json_add_str(out, t->label);
	if (t->label) {
		strbuf_addf(out, ",\"positives\":%zu,\"negatives\":%zu,\"tp\":%zu,"
			    "\"fp\":%zu,\"fn\":%zu,\"tn\":%zu", t->positives,
			    t->negatives, y.tp, y.fp, y.fn, y.tn);
		json_ratio(out, "precision", y.tp, y.tp + y.fp);
		json_ratio(out, "recall", y.tp, t->positives);
		json_ratio(out, "negatives_picked", y.fp, t->negatives);
	}
	strbuf_addstr(out, "}\n");
	for (i = 0; i < t->nr_stats; i++) {
		const struct ruletest_rule *s = &t->stats[i];

		strbuf_addstr(out, "{\"type\":\"rule\",\"rule\":");
		json_add_str(out, s->rule->name);
		strbuf_addstr(out, ",\"subsystem\":");
		json_add_str(out, s->scope);
		if (s->rule->veto)
			strbuf_addstr(out, ",\"veto\":true,\"weight\":null");
		else
			strbuf_addf(out, ",\"veto\":false,\"weight\":%d",
				    s->rule->weight);
		strbuf_addstr(out, ",\"file\":");
		json_add_str(out, s->rule->file);
		strbuf_addf(out, ",\"line\":%u,\"hits\":%zu", s->rule->lineno, s->hits);
		if (t->label) {
			strbuf_addf(out, ",\"positive\":%zu,\"negative\":%zu",
				    s->positive, s->negative);
			json_ratio(out, "precision", s->positive,
				   s->positive + s->negative);
			json_ratio(out, "recall", s->positive, t->positives);
		}
		strbuf_addstr(out, "}\n");
	}
	if (flags & RULETEST_SWEEP && t->label) {
		int *v;
		size_t nr = sweep_points(t, &v);

		for (i = 0; i < nr; i++) {
			struct tally at = tally_at(t, 0, v[i]);

			strbuf_addf(out, "{\"type\":\"sweep\",\"threshold\":%d,"
				    "\"tp\":%zu,\"fp\":%zu,\"fn\":%zu,\"tn\":%zu",
				    v[i], at.tp, at.fp, at.fn, at.tn);
			json_ratio(out, "precision", at.tp, at.tp + at.fp);
			json_ratio(out, "recall", at.tp, t->positives);
			strbuf_addstr(out, "}\n");
		}
		free(v);
	}
	for (i = 0; flags & RULETEST_MESSAGES && i < t->nr; i++) {
		const struct ruletest_item *it = &t->items[i];
		const struct candidate *c = it->c;

		strbuf_addf(out, "{\"type\":\"message\",\"line\":%zu,\"subject\":",
			    it->lineno);
		json_add_str(out, c->msg.subject);
		strbuf_addf(out, ",\"score\":%d,\"threshold\":%d,\"picked\":%s,"
			    "\"label\":", c->score, c->threshold,
			    it->picked ? "true" : "false");
		if (it->label == LABEL_NONE)
			strbuf_addstr(out, "null");
		else
			json_add_str(out, label_name(it->label));
		strbuf_addstr(out, ",\"reasons\":[");
		for (j = 0; j < c->nr_reasons; j++) {
			strbuf_addf(out, "%s{\"rule\":", j ? "," : "");
			json_add_str(out, c->reasons[j].rule->name);
			strbuf_addf(out, ",\"weight\":%d,\"match\":",
				    c->reasons[j].rule->weight);
			json_add_str(out, c->reasons[j].match);
			strbuf_addch(out, '}');
		}
		strbuf_addstr(out, "],\"veto\":");
		json_add_str(out, c->veto ? c->veto->name : NULL);
		strbuf_addstr(out, "}\n");
	}
}
