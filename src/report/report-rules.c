#include "report/report-rules.h"
#include "base/util.h"

#include <stdlib.h>
#include <string.h>

/* What one file added to the ruleset, for its summary line. */
struct file_counts {
	size_t subsystems, rules, vetoes, links, backports;
};

static void count_rules(struct file_counts *c, const struct rule *rules,
			size_t nr, const char *path)
{
	size_t i;

	for (i = 0; i < nr; i++) {
		if (rules[i].file != path)
			continue;
		if (rules[i].veto)
			c->vetoes++;
		else
			c->rules++;
	}
}

void report_rule_file(struct strbuf *out, const struct ruleset *rs,
		      const struct rule_file *f)
{
	struct file_counts c = { 0, 0, 0, 0, 0 };
	size_t i;

	count_rules(&c, rs->rules, rs->nr_rules, f->path);
	for (i = 0; i < rs->nr_links; i++)
		c.links += rs->links[i].file == f->path;
	for (i = 0; i < rs->nr_backports; i++)
		c.backports += rs->backports[i].file == f->path;
	for (i = 0; i < rs->nr_subsystems; i++) {
		const struct subsystem *s = rs->subsystems[i];

		if (s->file != f->path)
			continue;
		c.subsystems++;
		count_rules(&c, s->rules, s->nr_rules, f->path);
	}
	strbuf_addf(out, "%s: ok (%zu subsystem%s, %zu rule%s", f->path,
		    c.subsystems, c.subsystems == 1 ? "" : "s",
		    c.rules, c.rules == 1 ? "" : "s");
	if (c.vetoes)
		strbuf_addf(out, ", %zu veto%s", c.vetoes,
			    c.vetoes == 1 ? "" : "es");
	if (c.links)
		strbuf_addf(out, ", %zu link%s", c.links,
			    c.links == 1 ? "" : "s");
	if (c.backports)
		strbuf_addf(out, ", %zu backport line%s", c.backports,
			    c.backports == 1 ? "" : "s");
	if (f->version)
		strbuf_addf(out, ", version %s", f->version);
	if (f->standalone)
		strbuf_addstr(out, ", standalone");
	if (f->generic_only)
		strbuf_addstr(out, ", generic part only");
	strbuf_addstr(out, ")\n");
}

void report_subsystem_names(struct strbuf *out, const struct ruleset *rs)
{
	const char **names = xcalloc(rs->nr_subsystems + 1, sizeof(*names));
	size_t i, nr = 0;

	for (i = 0; i < rs->nr_subsystems; i++)
		if (!rs->subsystems[i]->is_template)
			names[nr++] = rs->subsystems[i]->name;
	qsort(names, nr, sizeof(*names), cmp_str);
	for (i = 0; i < nr; i++)
		strbuf_addf(out, "%s\n", names[i]);
	free(names);
}

void report_gaps(struct strbuf *out, const struct gaps *g, const char *range)
{
	size_t i, rest = 0;

	if (!g->unwatched) {
		strbuf_addf(out, "no gaps in %s: every file its %zu commit%s "
			    "change%s is watched\n", range, g->walked,
			    g->walked == 1 ? "" : "s",
			    g->walked == 1 ? "s" : "");
	} else {
		strbuf_addf(out, "gaps in %s: %zu of %zu commit%s change "
			    "files no subsystem watches, %zu of them no "
			    "watched file at all\n", range, g->unwatched,
			    g->walked, g->walked == 1 ? "" : "s", g->unseen);
	}
	for (i = 0; i < g->nr; i++) {
		if (i < REPORT_GAPS_TOP)
			strbuf_addf(out, "%7zu  %s\n", g->dirs[i].commits,
				    g->dirs[i].dir);
		else
			rest++;
	}
	if (rest)
		strbuf_addf(out, "         and %zu more director%s\n", rest,
			    rest == 1 ? "y" : "ies");
	if (g->top)
		strbuf_addf(out, "%zu commit%s change%s files at the top of "
			    "the tree, which no path spec names\n", g->top,
			    g->top == 1 ? "" : "s", g->top == 1 ? "s" : "");
}
