#include "report/report-results.h"
#include "base/json.h"
#include "base/util.h"

#include <string.h>

/* The order text lists the classes in: what needs a maintainer first. */
static const enum result_class text_order[CLASS__NR] = {
	CLASS_MISSING_FIX, CLASS_NEW, CLASS_FIX_PRESENT, CLASS_UNEXPLAINED,
	CLASS_UNEXPECTED_PASS, CLASS_BASELINE,
};

#define TEXT_SUSPECTS 10

static int shown(const struct result_verdict *v, unsigned mask,
		 const char *config)
{
	return (mask & 1u << v->cls) &&
	       (!config || !strcmp(config, v->item->config));
}

static void text_verdict(struct strbuf *out, const struct result_verdict *v)
{
	const struct result_item *it = v->item;
	size_t i, suspects = 0;

	strbuf_addf(out, "    %s [%s]\n", it->test, it->config);
	for (i = 0; i < v->nr_commits; i++) {
		const struct result_commit *c = &v->commits[i];

		if (!strcmp(c->role, "suspect") && ++suspects > TEXT_SUSPECTS)
			continue;
		strbuf_addf(out, "        %-11s %.12s %s", c->role,
			    git_oid_tostr_s(&c->id), c->subject);
		if (c->state)
			strbuf_addf(out, " (%s)", c->state);
		strbuf_addch(out, '\n');
	}
	if (suspects > TEXT_SUSPECTS)
		strbuf_addf(out, "        ... and %zu more suspects (--format "
			    "json lists them all)\n", suspects - TEXT_SUSPECTS);
	strbuf_addf(out, "        %s\n", v->evidence);
}

/* The tests whose outcome differs between the configs of the run. */
static void text_differences(struct strbuf *out, const struct result_set *now)
{
	size_t i, j, k, shown_any = 0;

	if (now->nr_configs < 2)
		return;
	for (i = 0; i < now->nr; i++) {
		const struct result_item *it = &now->items[i];
		int differs = 0, first = 1;

		/* Each test once: at its first config in the sort. */
		for (j = 0; j < i; j++)
			if (!strcmp(now->items[j].test, it->test))
				break;
		if (j < i)
			continue;
		for (j = i + 1; j < now->nr; j++)
			if (!strcmp(now->items[j].test, it->test) &&
			    now->items[j].outcome != it->outcome)
				differs = 1;
		if (!differs)
			continue;
		if (!shown_any++)
			strbuf_addstr(out, "\ndiffering between configs:\n");
		strbuf_addf(out, "    %-16s", it->test);
		for (k = 0; k < now->nr_configs; k++) {
			const struct result_item *x =
				result_find(now, now->configs[k].name, it->test);

			strbuf_addf(out, "%s%s %s", first ? " " : ", ",
				    now->configs[k].name,
				    x ? result_outcome_name(x->outcome) : "not run");
			first = 0;
		}
		strbuf_addch(out, '\n');
	}
}

void report_results_text(struct strbuf *out, const struct run *run,
			 const struct results_run *r, unsigned mask,
			 const char *config)
{
	size_t count[CLASS__NR] = { 0 }, i, c;
	const char *base = run->branch.base_name ? run->branch.base_name :
			   "its base";

	strbuf_addf(out, "results on %s (base %s):", run->branch.name, base);
	for (i = 0; i < r->now.nr_configs; i++) {
		const struct result_config *cfg = &r->now.configs[i];

		strbuf_addf(out, "%s config %s (kernel %s)", i ? "," : "",
			    cfg->name, cfg->kernel ? cfg->kernel : "not named");
	}
	strbuf_addch(out, '\n');
	if (r->base.nr_configs || r->base.nr_expunged)
		strbuf_addf(out, "baseline: %zu configs run, %zu tests "
			    "expunged\n", r->base.nr_configs,
			    r->base.nr_expunged);
	else
		strbuf_addstr(out, "baseline: none given\n");
	for (i = 0; i < r->nr; i++)
		if (shown(&r->v[i], mask, config))
			count[r->v[i].cls]++;
	for (c = 0; c < CLASS__NR; c++) {
		enum result_class cls = text_order[c];

		if (!count[cls])
			continue;
		strbuf_addf(out, "\n%s (%zu):\n", result_class_name(cls),
			    count[cls]);
		for (i = 0; i < r->nr; i++)
			if (r->v[i].cls == cls && shown(&r->v[i], mask, config))
				text_verdict(out, &r->v[i]);
	}
	text_differences(out, &r->now);
	strbuf_addf(out, "\n%-16s", "config");
	for (c = 0; c < CLASS__NR; c++)
		strbuf_addf(out, " %s", result_class_name(text_order[c]));
	strbuf_addstr(out, " passed skipped\n");
	for (i = 0; i < r->now.nr_configs; i++) {
		const char *name = r->now.configs[i].name;
		size_t passed = 0, skipped = 0, k;

		if (config && strcmp(config, name))
			continue;
		strbuf_addf(out, "%-16s", name);
		for (c = 0; c < CLASS__NR; c++) {
			const char *cn = result_class_name(text_order[c]);
			size_t n = 0;

			for (k = 0; k < r->nr; k++)
				n += r->v[k].cls == text_order[c] &&
				     !strcmp(r->v[k].item->config, name);
			strbuf_addf(out, " %*zu", (int)strlen(cn), n);
		}
		for (k = 0; k < r->now.nr; k++) {
			const struct result_item *it = &r->now.items[k];

			if (strcmp(it->config, name))
				continue;
			skipped += it->outcome == RESULT_SKIP;
			passed += it->outcome == RESULT_PASS;
		}
		/* An unexpected pass passed too, and is counted there. */
		for (k = 0; k < r->nr; k++)
			passed -= r->v[k].cls == CLASS_UNEXPECTED_PASS &&
				  !strcmp(r->v[k].item->config, name);
		strbuf_addf(out, " %6zu %7zu\n", passed, skipped);
	}
}

void report_results_json(struct strbuf *out, const struct run *run,
			 const struct results_run *r, unsigned mask,
			 const char *config)
{
	size_t i, k;

	for (i = 0; i < r->nr; i++) {
		const struct result_verdict *v = &r->v[i];
		const struct result_item *it = v->item;
		const struct result_config *cfg =
			result_config_find(&r->now, it->config);
		struct json_writer jw;

		if (!shown(v, mask, config))
			continue;
		jw_init(&jw, out);
		jw_object_begin(&jw);
		jw_object_string(&jw, "test", it->test);
		jw_object_string(&jw, "suite", it->suite);
		jw_object_string(&jw, "config", it->config);
		jw_object_string(&jw, "branch", run->branch.name);
		jw_object_string(&jw, "kernel", cfg ? cfg->kernel : NULL);
		jw_object_string(&jw, "class", result_class_name(v->cls));
		jw_object_string(&jw, "outcome", result_outcome_name(it->outcome));
		jw_object_int(&jw, "runs", it->runs);
		jw_object_int(&jw, "failures", it->failures);
		jw_object_string(&jw, "file", it->file);
		if (it->line)
			jw_object_int(&jw, "line", it->line);
		else
			jw_object_null(&jw, "line");
		jw_object_string(&jw, "message", it->message);
		jw_object_array(&jw, "commits");
		for (k = 0; k < v->nr_commits; k++) {
			const struct result_commit *c = &v->commits[k];

			jw_array_object(&jw);
			jw_object_string(&jw, "id", git_oid_tostr_s(&c->id));
			jw_object_string(&jw, "role", c->role);
			jw_object_string(&jw, "subject", c->subject);
			jw_object_string(&jw, "state", c->state);
			jw_object_string(&jw, "detail", c->detail);
			jw_end(&jw);
		}
		jw_end(&jw);
		jw_object_string(&jw, "evidence", v->evidence);
		jw_end(&jw);
		strbuf_addch(out, '\n');
	}
}

void report_results_exclude(struct strbuf *out, const struct run *run,
			    const struct results_run *r, unsigned mask,
			    const char *config)
{
	size_t i, k;

	strbuf_addf(out, "# %s on %s: the tests that failed, from stablepick "
		    "results\n", config ? config : "every config",
		    run->branch.name);
	for (i = 0; i < r->nr; i++) {
		const struct result_verdict *v = &r->v[i];
		const char *sep = " ";

		if (!shown(v, mask, config) || v->cls == CLASS_UNEXPECTED_PASS)
			continue;
		strbuf_addf(out, "%s # %s:", v->item->test,
			    result_class_name(v->cls));
		for (k = 0; k < v->nr_commits; k++) {
			const struct result_commit *c = &v->commits[k];

			if (!strcmp(c->role, "suspect"))
				continue;
			strbuf_addf(out, "%s%s %.12s (\"%s\")", sep, c->role,
				    git_oid_tostr_s(&c->id), c->subject);
			sep = ", ";
		}
		if (v->cls == CLASS_NEW)
			strbuf_addf(out, " passed in the baseline; %zu suspects",
				    v->nr_suspects_total);
		else if (v->cls == CLASS_BASELINE && !v->nr_commits)
			strbuf_addf(out, " %s", v->evidence);
		else if (v->cls == CLASS_UNEXPLAINED)
			strbuf_addstr(out, " no fix known");
		strbuf_addch(out, '\n');
	}
}
