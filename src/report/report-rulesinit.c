#include "report/report-rulesinit.h"
#include "base/ascii.h"
#include "base/util.h"

#include <string.h>

/* At most this many keys of lines naming a commit are listed. */
#define MAX_LINKS 8

static const char *plural(size_t n)
{
	return n == 1 ? "" : "s";
}

static void init_head(struct strbuf *out, const struct survey *s,
		      const struct rules_range *r)
{
	strbuf_addstr(out, "# A starter overlay that `stablepick rules init` "
		      "wrote for this repository,\n# from ");
	if (r->desc)
		strbuf_addf(out, "the %zu commit%s of %s", s->mainline,
			    plural(s->mainline), r->desc);
	else
		strbuf_addf(out, "the latest %zu commit%s of %s", s->mainline,
			    plural(s->mainline), r->upstream_name);
	if (r->has_branch)
		strbuf_addf(out, "\n# and the %zu of %s", s->branch,
			    r->branch_name);
	strbuf_addstr(out, ".  Edit it: the counts say what the\n"
		      "# messages hold, not what to do.  The language is in "
		      "stablepick-rules(5).\n\n"
		      "version 1\n\n"
		      "# This directory stands alone: the kernel's "
		      "subsystems (btrfs, ext4, xfs\n# and the others) are "
		      "not loaded; the shipped scoring is (default.rules:\n"
		      "# its threshold, `link fixes`, the words of a fix).  "
		      "Declare a threshold\n# here to change it.\n"
		      "standalone\n");
}

static void init_tags(struct strbuf *out, const struct survey *s)
{
	size_t i;

	strbuf_addch(out, '\n');
	if (!s->tags_pattern) {
		strbuf_addf(out, "# Release tags: none of the %zu tag%s reads "
			    "as MAJOR.MINOR; the kernel's\n# form (v6.6, "
			    "v6.6-rc3, v6.6.12) stays.\n", s->tags,
			    plural(s->tags));
		return;
	}
	strbuf_addf(out, "# Release tags: %zu of the %zu tag%s read so, the "
		    "newest:\n#  ", s->tags_matched, s->tags, plural(s->tags));
	for (i = 0; i < s->nr_tag_examples; i++)
		strbuf_addf(out, "%s %s", i ? "," : "", s->tag_examples[i]);
	strbuf_addf(out, ".\n# Soak times and diff's \"caught up with\" "
		    "read them: major, minor, rc, stable.\n"
		    "release-tags /%s/\n", s->tags_pattern);
	if (s->tag_other_example)
		strbuf_addf(out, "# %zu other tag%s read so after another "
			    "prefix (the newest: %s): edit\n# the pattern "
			    "if %s name%s releases.\n", s->tags_other,
			    plural(s->tags_other), s->tag_other_example,
			    s->tags_other == 1 ? "it" : "they",
			    s->tags_other == 1 ? "s" : "");
}

static void counts(struct strbuf *out, size_t mainline, size_t branch,
		   const struct rules_range *r)
{
	strbuf_addf(out, "%zu in %s", mainline, r->upstream_name);
	if (r->has_branch)
		strbuf_addf(out, ", %zu in %s", branch, r->branch_name);
}

/*
 * The kernel's three forms, which default.rules declares under these
 * names: a standalone overlay loads them with its generic part, and a
 * second declaration of a name is an error.
 */
static int shipped_form(const char *name)
{
	return !strcmp(name, "upstream-line") ||
	       !strcmp(name, "upstream-bracket") ||
	       !strcmp(name, "cherry-picked");
}

static void init_backports(struct strbuf *out, const struct survey *s,
			   const struct rules_range *r)
{
	size_t i, found = 0;

	strbuf_addstr(out, "\n# Backport lines: how a commit of a branch "
		      "names the mainline commit it\n# was taken from.  "
		      "Messages with each form:\n");
	for (i = 0; i < s->nr_forms; i++) {
		const struct survey_form *f = &s->forms[i];

		if (!f->mainline && !f->branch)
			continue;
		found++;
		strbuf_addf(out, "#   %s: ", f->shown);
		counts(out, f->mainline, f->branch, r);
		if (shipped_form(f->name)) {
			strbuf_addf(out, " (the shipped `backport %s` reads "
				    "it)\n", f->name);
			continue;
		}
		strbuf_addf(out, "\nbackport %s\t%s\t/%s/%s\n", f->name,
			    f->field, f->pattern, f->flags);
	}
	if (!found)
		strbuf_addstr(out, "#   none of a known form (cherry picked "
			      "from, Upstream commit, master\n#   commit, "
			      "backported from, Upstream-commit:, Backport "
			      "of).\n");
}

static void init_links(struct strbuf *out, const struct survey *s,
		       const struct rules_range *r)
{
	size_t i;
	char *name, *p;

	strbuf_addstr(out, "\n# Lines that name a commit (Key: <id>), as a "
		      "Fixes: tag names the commit\n# whose bug it fixes.  "
		      "Messages with each key:\n");
	if (!s->nr_links)
		strbuf_addstr(out, "#   none.\n");
	for (i = 0; i < s->nr_links && i < MAX_LINKS; i++) {
		const struct survey_link *l = &s->links[i];

		strbuf_addf(out, "#   %s: ", l->key);
		counts(out, l->mainline, l->branch, r);
		if (!strcasecmp(l->key, "Fixes")) {
			strbuf_addstr(out, " (the shipped `link fixes` reads "
				      "it)\n");
			continue;
		}
		strbuf_addstr(out, "\n# If it names the commit a fix is "
			      "for, uncomment:\n");
		name = xstrdup(l->key);
		for (p = name; *p; p++)
			if (*p >= 'A' && *p <= 'Z')
				*p = (char)(*p - 'A' + 'a');
		strbuf_addf(out, "#link %s\ttrailer:%s\t/^([0-9a-f]{7,40})\\b/i\n",
			    name, l->key);
		free(name);
	}
	if (s->nr_links > MAX_LINKS)
		strbuf_addf(out, "#   and %zu more key%s.\n",
			    s->nr_links - MAX_LINKS,
			    plural(s->nr_links - MAX_LINKS));
}

static void init_subsystems(struct strbuf *out, const struct survey *s,
			    const struct rules_range *r, const char *spec)
{
	size_t i;

	strbuf_addch(out, '\n');
	if (spec)
		strbuf_addf(out, "# One subsystem per directory of %.*s in "
			    "%s's tree.", (int)(strlen(spec) - 2), spec,
			    r->upstream_name);
	else
		strbuf_addf(out, "# One subsystem per directory at the top of "
			    "%s's tree.", r->upstream_name);
	strbuf_addstr(out, "  Give each\n# its policy: heuristic (the rules "
		      "pick fixes by their words), opt-in\n# (only Cc: stable "
		      "or an ack), ignore (left out); merge or split\n"
		      "# blocks as the project's maintainers divide the "
		      "work, and run\n# `stablepick rules check --branch "
		      "BRANCH` to see what no block watches.\n");
	if (s->odd_dirs)
		strbuf_addf(out, "# %zu director%s with a blank, a glob or "
			    "a control character in the name\n# %s left out: "
			    "a path spec cannot name %s.\n", s->odd_dirs,
			    s->odd_dirs == 1 ? "y" : "ies",
			    s->odd_dirs == 1 ? "is" : "are",
			    s->odd_dirs == 1 ? "it" : "them");
	if (s->top_files)
		strbuf_addf(out, "# The %zu file%s at the top of the tree %s "
			    "in none: no path spec names %s.\n",
			    s->top_files, plural(s->top_files),
			    s->top_files == 1 ? "is" : "are",
			    s->top_files == 1 ? "it" : "them");
	for (i = 0; i < s->nr_dirs; i++)
		strbuf_addf(out, "\nsubsystem %s\n\tpaths %s\n\tpolicy "
			    "heuristic\nend\n", s->dirs[i].name,
			    s->dirs[i].path);
}

void report_rules_init(struct strbuf *out, const struct survey *s,
		       const struct rules_range *r, const char *spec)
{
	init_head(out, s, r);
	init_tags(out, s);
	init_backports(out, s, r);
	init_links(out, s, r);
	init_subsystems(out, s, r, spec);
}
