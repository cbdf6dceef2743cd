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
