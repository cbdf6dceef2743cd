#include "report/report-eval.h"
#include "base/json.h"
#include "report/report.h"
#include "base/util.h"

#include <string.h>

static void add_ratio(struct strbuf *out, double v)
{
	if (v < 0)
		strbuf_addstr(out, "      -");
	else
		strbuf_addf(out, "%7.3f", v);
}

static void text_counts(struct strbuf *out, const struct eval_counts *n)
{
	strbuf_addf(out, "%6zu %6zu %6zu %6zu  ", n->tp, n->fp, n->fn, n->tn);
	add_ratio(out, eval_precision(n));
	strbuf_addstr(out, "  ");
	add_ratio(out, eval_recall(n));
	strbuf_addstr(out, "  ");
	add_ratio(out, eval_f1(n));
	strbuf_addch(out, '\n');
}

/* A ratio, null where it is undefined (a zero denominator). */
static void jw_ratio(struct json_writer *jw, const char *key, double v)
{
	if (v < 0)
		jw_object_null(jw, key);
	else
		jw_object_double(jw, key, 4, v);
}

static void json_counts(struct json_writer *jw, const struct eval_counts *n)
{
	jw_object_int(jw, "tp", (long long)n->tp);
	jw_object_int(jw, "fp", (long long)n->fp);
	jw_object_int(jw, "fn", (long long)n->fn);
	jw_object_int(jw, "tn", (long long)n->tn);
	jw_ratio(jw, "precision", eval_precision(n));
	jw_ratio(jw, "recall", eval_recall(n));
	jw_ratio(jw, "f1", eval_f1(n));
}

/* "6 positive, 9 negative, 4 excluded (2 bug-not-in-branch, ...)" */
static void text_labels(struct strbuf *out, const struct eval *ev)
{
	const char *sep = " (";
	size_t i;

	strbuf_addf(out, "labels: %zu positive (the branch carries them), "
		    "%zu negative, %zu excluded", ev->positives, ev->negatives,
		    ev->excluded);
	for (i = 0; i < EVAL__REASONS; i++) {
		if (!ev->by_reason[i])
			continue;
		strbuf_addf(out, "%s%zu %s", sep, ev->by_reason[i],
			    eval_reasons[i]);
		sep = ", ";
	}
	strbuf_addstr(out, *sep == ',' ? ")\n" : "\n");
}

#define COUNTS_HEAD "    TP     FP     FN     TN  PRECISION  RECALL      F1\n"

static void text_table(struct strbuf *out, const struct run *run,
		       const struct eval *ev)
{
	size_t i, s;

	strbuf_addf(out, "eval %s: %s, %zu commits in watched paths\n",
		    run->branch.name, run->scan.range, ev->nr);
	text_labels(out, ev);
	strbuf_addstr(out, "\nSELECTOR     " COUNTS_HEAD);
	for (s = 0; s < EVAL__SELECTORS; s++) {
		strbuf_addf(out, "%-12s ", eval_selector_name(s));
		text_counts(out, &ev->all[s]);
	}
	strbuf_addstr(out, "\nrules by subsystem:\nSUBSYSTEM       POS    NEG "
		      COUNTS_HEAD);
	for (i = 0; i < ev->nr_subsystems; i++) {
		const struct eval_subsystem *sub = &ev->subsystems[i];

		strbuf_addf(out, "%-12s %6zu %6zu ", sub->name, sub->positives,
			    sub->negatives);
		text_counts(out, &sub->sel[EVAL_RULES]);
	}
}

static void json_table(struct strbuf *out, const struct run *run,
		       const struct eval *ev)
{
	struct json_writer jw;
	size_t i, s;

	jw_init(&jw, out);
	jw_object_begin(&jw);
	jw_object_string(&jw, "type", "labels");
	jw_object_string(&jw, "branch", run->branch.name);
	jw_object_string(&jw, "range", run->scan.range);
	jw_object_int(&jw, "commits", (long long)ev->nr);
	jw_object_int(&jw, "positives", (long long)ev->positives);
	jw_object_int(&jw, "negatives", (long long)ev->negatives);
	jw_object_object(&jw, "excluded");
	for (i = 0; i < EVAL__REASONS; i++)
		jw_object_int(&jw, eval_reasons[i], (long long)ev->by_reason[i]);
	jw_end(&jw);
	jw_end(&jw);
	strbuf_addch(out, '\n');
	for (s = 0; s < EVAL__SELECTORS; s++) {
		jw_object_begin(&jw);
		jw_object_string(&jw, "type", "selector");
		jw_object_string(&jw, "branch", ev->branch);
		jw_object_string(&jw, "selector", eval_selector_name(s));
		json_counts(&jw, &ev->all[s]);
		jw_object_object(&jw, "subsystems");
		for (i = 0; i < ev->nr_subsystems; i++) {
			const struct eval_subsystem *sub = &ev->subsystems[i];

			jw_object_object(&jw, sub->name);
			jw_object_int(&jw, "positives", (long long)sub->positives);
			jw_object_int(&jw, "negatives", (long long)sub->negatives);
			json_counts(&jw, &sub->sel[s]);
			jw_end(&jw);
		}
		jw_end(&jw);
		jw_end(&jw);
		strbuf_addch(out, '\n');
	}
}

/* Why the rules do or do not pick it, in a few words. */
static void add_why(struct strbuf *out, const struct candidate *c)
{
	const struct subsystem *s = candidate_subsystem(c);

	if (c->veto)
		strbuf_addf(out, "veto %s; ", c->veto->name);
	else if (c->score >= c->threshold && s && s->policy == POLICY_OPT_IN)
		strbuf_addf(out, "%s is opt-in, no Cc: stable; ", s->name);
	report_reasons(out, c);
}

/* The misses (positives not picked) or the false picks. */
void report_eval_items(struct strbuf *out, const struct eval *ev,
		       enum eval_label label, int json)
{
	const char *name = label == EVAL_POSITIVE ? "miss" : "false-pick";
	size_t i, n = 0;

	for (i = 0; i < ev->nr; i++) {
		const struct eval_item *it = &ev->items[i];
		const struct candidate *c = it->c;
		struct strbuf why = STRBUF_INIT;

		if (it->label != label ||
		    it->pick[EVAL_RULES] != (label == EVAL_NEGATIVE))
			continue;
		add_why(&why, c);
		if (json) {
			struct json_writer jw;

			jw_init(&jw, out);
			jw_object_begin(&jw);
			jw_object_string(&jw, "type", name);
			jw_object_string(&jw, "branch", ev->branch);
			jw_object_string(&jw, "commit", c->hex);
			jw_object_string(&jw, "subsystem", it->subsystem);
			jw_object_string(&jw, "subject", c->msg.subject);
			jw_object_int(&jw, "score", c->score);
			jw_object_int(&jw, "threshold", c->threshold);
			jw_object_string(&jw, "why", why.buf);
			jw_end(&jw);
			strbuf_addch(out, '\n');
		} else {
			if (!n)
				strbuf_addstr(out, label == EVAL_POSITIVE ?
					      "\nmisses (the branch took them, "
					      "the rules do not pick them):\n" :
					      "\nfalse picks (the rules pick them, "
					      "the branch did not take them):\n");
			strbuf_addf(out, "  %.12s %-10s %4lld/%-3d %s\n%21s%s\n",
				    c->hex, it->subsystem, c->score,
				    c->threshold, c->msg.subject ?
				    c->msg.subject : "", "", why.buf);
		}
		n++;
		strbuf_release(&why);
	}
	if (!n && !json)
		strbuf_addf(out, "\nno %s\n", label == EVAL_POSITIVE ?
			    "misses" : "false picks");
}

/* "same change as f0cdf16e1d9d (below the base)" */
static void add_twin(struct strbuf *out, const struct eval_item *it)
{
	strbuf_addf(out, "same change as %.12s (%s)",
		    git_oid_tostr_s(&it->twin), it->twin_cand ?
		    "in the range, carried by the branch" : "below the base");
}

/*
 * The commits the rules pick that the branch has through a twin: no
 * false picks, mainline took their change twice.
 */
void report_eval_twins(struct strbuf *out, const struct eval *ev, int json)
{
	size_t i, n = 0;

	for (i = 0; i < ev->nr; i++) {
		const struct eval_item *it = &ev->items[i];
		const struct candidate *c = it->c;
		struct strbuf why = STRBUF_INIT;

		if (it->label != EVAL_EXCLUDED || !it->pick[EVAL_RULES] ||
		    strcmp(eval_reasons[it->reason], "already-in-branch"))
			continue;
		add_twin(&why, it);
		if (json) {
			struct json_writer jw;

			jw_init(&jw, out);
			jw_object_begin(&jw);
			jw_object_string(&jw, "type", "already-in-branch");
			jw_object_string(&jw, "branch", ev->branch);
			jw_object_string(&jw, "commit", c->hex);
			jw_object_string(&jw, "subsystem", it->subsystem);
			jw_object_string(&jw, "subject", c->msg.subject);
			jw_object_int(&jw, "score", c->score);
			jw_object_int(&jw, "threshold", c->threshold);
			jw_object_string(&jw, "twin", git_oid_tostr_s(&it->twin));
			jw_object_string(&jw, "where", it->twin_cand ?
					 "range" : "below-base");
			jw_object_string(&jw, "why", why.buf);
			jw_end(&jw);
			strbuf_addch(out, '\n');
		} else {
			if (!n)
				strbuf_addstr(out, "\nalready in the branch (the "
					      "rules pick them, the branch has "
					      "the same change; not counted):\n");
			strbuf_addf(out, "  %.12s %-10s %4lld/%-3d %s\n%21s%s\n",
				    c->hex, it->subsystem, c->score,
				    c->threshold, c->msg.subject ?
				    c->msg.subject : "", "", why.buf);
		}
		n++;
		strbuf_release(&why);
	}
}

/*
 * Precision and recall of the rules at each threshold a labelled
 * commit scores (the same threshold for every subsystem).
 */
void report_eval_sweep(struct strbuf *out, const struct eval *ev,
		  int json)
{
	long long *scores = xcalloc(ev->nr + 1, sizeof(*scores));
	size_t nr = 0, i;

	for (i = 0; i < ev->nr; i++)
		if (ev->items[i].label != EVAL_EXCLUDED)
			scores[nr++] = ev->items[i].c->score;
	QSORT(scores, nr, cmp_llong);
	if (!json)
		strbuf_addstr(out, "\nthreshold sweep (rules, one threshold "
			      "for every subsystem):\nTHRESHOLD " COUNTS_HEAD);
	for (i = 0; i < nr; i++) {
		struct eval_counts n;

		if (i && scores[i] == scores[i - 1])
			continue;
		eval_count_rules(ev, scores[i], NULL, &n);
		if (json) {
			struct json_writer jw;

			jw_init(&jw, out);
			jw_object_begin(&jw);
			jw_object_string(&jw, "type", "sweep");
			jw_object_string(&jw, "branch", ev->branch);
			jw_object_int(&jw, "threshold", scores[i]);
			json_counts(&jw, &n);
			jw_end(&jw);
			strbuf_addch(out, '\n');
		} else {
			strbuf_addf(out, "%9lld ", scores[i]);
			text_counts(out, &n);
		}
	}
	free(scores);
}

static void ablate_one(struct strbuf *out, const struct eval *ev,
		       const struct rule *r, int json)
{
	const struct eval_counts *all = &ev->all[EVAL_RULES];
	struct eval_counts n;
	double f1, before = eval_f1(all);

	eval_count_rules(ev, EVAL_OWN_THRESHOLD, r, &n);
	f1 = eval_f1(&n);
	if (json) {
		struct json_writer jw;

		jw_init(&jw, out);
		jw_object_begin(&jw);
		jw_object_string(&jw, "type", "ablation");
		jw_object_string(&jw, "branch", ev->branch);
		jw_object_string(&jw, "rule", r->name);
		jw_object_int(&jw, "weight", r->weight);
		jw_object_bool(&jw, "veto", r->veto);
		jw_object_string(&jw, "file", r->file);
		jw_object_int(&jw, "line", r->lineno);
		json_counts(&jw, &n);
		jw_end(&jw);
		strbuf_addch(out, '\n');
		return;
	}
	strbuf_addf(out, "%-24s ", r->name);
	if (r->veto)
		strbuf_addstr(out, "  veto");
	else
		strbuf_addf(out, "%+6d", r->weight);
	strbuf_addf(out, " %+6ld %+6ld  ", (long)n.tp - (long)all->tp,
		    (long)n.fp - (long)all->fp);
	add_ratio(out, f1);
	if (f1 >= 0 && before >= 0)
		strbuf_addf(out, "  %+.3f", f1 - before);
	else
		strbuf_addstr(out, "       -");
	strbuf_addf(out, "  %s:%u\n", r->file, r->lineno);
}

/* Each rule removed in turn: what the rules selector does without it. */
void report_eval_ablation(struct strbuf *out, const struct eval *ev,
		     const struct ruleset *rs, int json)
{
	size_t i, j;

	if (!json)
		strbuf_addstr(out, "\neach rule removed in turn (rules selector):\n"
			      "RULE                     WEIGHT    TP     FP"
			      "       F1  CHANGE  WHERE\n");
	for (i = 0; i < rs->nr_rules; i++)
		ablate_one(out, ev, &rs->rules[i], json);
	for (i = 0; i < rs->nr_subsystems; i++) {
		const struct subsystem *s = rs->subsystems[i];

		/* A template's rules once, not once per directory. */
		if (!s->file)
			continue;
		for (j = 0; j < s->nr_rules; j++)
			ablate_one(out, ev, &s->rules[j], json);
	}
}

void report_eval_table(struct strbuf *out, const struct run *run,
		       const struct eval *ev, int json)
{
	if (json)
		json_table(out, run, ev);
	else
		text_table(out, run, ev);
}
