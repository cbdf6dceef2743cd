#include "cli.h"
#include "apply.h"
#include "error.h"
#include "json.h"
#include "mail.h"
#include "message.h"
#include "report.h"
#include "soak.h"
#include "strbuf.h"
#include "util.h"

#include <getopt.h>
#include <stdint.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

/*
 * stablepick diff --branch VENDOR --against STABLE: which fixes of the
 * stable branch (since the two share a base) a vendor branch lacks, and
 * which of the vendor's own changes to watched paths have no stable
 * counterpart.  Whether a stable commit is in the vendor branch is the
 * presence engine's answer (src/match.h), as for a mainline commit in
 * propose: below their merge base (a merged stable release), a vendor
 * commit naming it or the mainline commit it backports, a vendor
 * commit making the same change; a vendor commit of the same subject
 * only makes it maybe-present.
 */

enum format { FORMAT_TEXT, FORMAT_JSON, FORMAT_HTML };
static const char *const format_names[] = { "text", "json", "html" };

struct row {
	const char *section;		/* missing, maybe-present, vendor-only */
	git_oid commit;
	const char *upstream;		/* mainline id, or NULL */
	const char *subsystem;
	const char *subject;
	char *detail;
};

struct report_rows {
	struct row *v;
	size_t nr, alloc;
};

static void add_row(struct report_rows *r, const char *section,
		    const git_oid *commit, const char *upstream,
		    const char *subsystem, const char *subject, char *detail)
{
	struct row *w;

	ALLOC_GROW(r->v, r->nr, r->alloc);
	w = &r->v[r->nr++];
	w->section = section;
	git_oid_cpy(&w->commit, commit);
	w->upstream = upstream;
	w->subsystem = subsystem;
	w->subject = subject;
	w->detail = detail;
}

/* The stable side: what the vendor lacks. */
static void stable_rows(struct report_rows *r, struct candidate_list *l)
{
	size_t i;

	for (i = 0; i < l->nr; i++) {
		struct candidate *c = l->items[i];
		const struct subsystem *s = candidate_subsystem(c);
		const struct evidence *e = candidate_evidence(c, EVIDENCE_SUBJECT);

		if (c->present)
			continue;
		add_row(r, c->maybe_present ? "maybe-present" : "missing", &c->id,
			c->msg.nr_upstream ? c->msg.upstream[0] : NULL,
			s ? s->name : NULL, c->msg.subject,
			e ? xstrdup(e->detail) : NULL);
	}
}

/*
 * The vendor side: its commits to watched paths that no stable commit
 * stands for; those that name a mainline commit were taken from
 * mainline ahead of stable.
 */
static int vendor_rows(struct report_rows *r, git_repository *repo,
		       struct match *m, const struct branch_index *v,
		       struct candidate_list *vendor)
{
	struct scan *scan = m->scan;
	git_revwalk *walk = NULL;
	git_oid id;
	int ret;

	if (git_revwalk_new(&walk, repo) < 0 ||
	    git_revwalk_push(walk, &v->tip) < 0 ||
	    git_revwalk_hide(walk, &v->base) < 0) {
		git_revwalk_free(walk);
		return error_git("cannot walk branch '%s'", v->name);
	}
	git_revwalk_sorting(walk, GIT_SORT_TOPOLOGICAL | GIT_SORT_REVERSE);
	while (!(ret = git_revwalk_next(&id, walk))) {
		git_commit *commit = NULL;
		struct match_pick pick;
		struct match_found found;
		struct candidate *c;
		const struct subsystem *s;
		const char *up;

		if (git_commit_lookup(&commit, repo, &id) < 0) {
			ret = error_git("cannot read a commit of '%s'", v->name);
			break;
		}
		if (git_commit_parentcount(commit) > 1 ||
		    scan_commit_touches(scan, commit) <= 0 ||
		    match_taken_by(m, &id)) {
			git_commit_free(commit);
			continue;
		}
		c = candidate_list_add(vendor, &id);
		ret = scan_fill(scan, c, commit);
		git_commit_free(commit);
		if (ret < 0)
			break;
		memset(&pick, 0, sizeof(pick));
		pick.msg = &c->msg;
		pick.commit = &c->id;
		pick.subject = c->msg.subject;
		ret = match_mainline(m, &pick, &found, NULL);
		if (ret < 0)
			break;
		/* A stable commit stands for it: not the vendor's own. */
		if (ret && found.cand)
			continue;
		up = ret && found.how == EVIDENCE_UPSTREAM_LINE ?
		     c->msg.upstream[0] : NULL;
		s = candidate_subsystem(c);
		add_row(r, "vendor-only", &id, up, s ? s->name : NULL,
			c->msg.subject, xstrdup(up ? "taken from mainline, "
						"ahead of stable" :
						"no upstream counterpart"));
	}
	git_revwalk_free(walk);
	return ret == GIT_ITEROVER ? 0 : ret < 0 ? -1 : ret;
}

/*
 * The findmissing question: mainline commits (base..upstream) whose
 * Fixes: names a commit the vendor carries (merged, or backported under
 * any id), and which it lacks; each trial-picked alone onto its tip.
 */
static int follow_up_rows(struct report_rows *r, struct run_context *ctx,
			  struct run *run, const char *vendor)
{
	struct candidate_list *l = &run->scan.candidates;
	git_commit *onto = NULL;
	size_t i, j;
	int ret;

	if ((ret = run_scan(ctx, run)) < 0 ||
	    (ret = run_judge(run, ctx->repo, l, &run->scan.from)) < 0)
		return ret;
	if (git_commit_lookup(&onto, ctx->repo, &run->branch.tip) < 0)
		return error_git("cannot read the tip of '%s'", vendor);
	for (i = 0; !ret && i < l->nr; i++) {
		struct candidate *c = l->items[i];
		const struct subsystem *s = candidate_subsystem(c);
		const struct fixes_target *t = NULL;
		struct apply_result res;
		git_commit *pick = NULL;
		char hex[GIT_OID_HEXSZ + 1];

		if (c->present || c->maybe_present || !c->fixes)
			continue;
		for (j = 0; j < c->msg.nr_fixes; j++)
			if (c->fixes[j].status == TARGET_IN_BRANCH)
				t = &c->fixes[j];
		if (!t)
			continue;
		apply_result_init(&res);
		if (git_commit_lookup(&pick, ctx->repo, &c->id) < 0) {
			ret = error_git("cannot read commit %s", c->hex);
			break;
		}
		ret = apply_check(&res, ctx->repo, onto, pick);
		git_commit_free(pick);
		git_oid_tostr(hex, sizeof(hex), &t->id);
		if (!ret)
			add_row(r, "missing-follow-up", &c->id, c->hex,
				s ? s->name : NULL, c->msg.subject,
				xstrfmt("fixes %.12s, which %s carries; %s", hex,
					vendor, res.applies ? "applies to its tip" :
					"does not apply to its tip"));
		apply_result_release(&res);
	}
	git_commit_free(onto);
	return ret;
}

/*
 * The stable releases (vX.Y.Z tags, or what release-tags says) of the
 * range and at its base, by their position in it (oldest first, the
 * base 0), for "caught up with": the newest release before a
 * subsystem's first missing commit.
 */
struct position {
	git_oid id;
	size_t pos;
};

struct release {
	char *name;
	size_t pos;
};

struct releases {
	struct position *order;		/* the range, sorted by id */
	size_t nr_order;
	struct release *v;		/* sorted by position */
	size_t nr, alloc;
	git_repository *repo;
	const struct ruleset *rules;	/* how tags name stable releases */
};

static int cmp_position(const void *a, const void *b)
{
	return git_oid_cmp(&((const struct position *)a)->id,
			   &((const struct position *)b)->id);
}

static int cmp_release(const void *a, const void *b)
{
	const struct release *x = a, *y = b;

	return x->pos < y->pos ? -1 : x->pos > y->pos;
}

static size_t position_of(const struct releases *rel, const git_oid *id)
{
	struct position key, *p;

	git_oid_cpy(&key.id, id);
	p = rel->nr_order ? bsearch(&key, rel->order, rel->nr_order,
				    sizeof(*rel->order), cmp_position) : NULL;
	return p ? p->pos : SIZE_MAX;
}

static int add_release(const char *refname, git_oid *oid, void *data)
{
	struct releases *rel = data;
	git_object *obj = NULL, *peeled = NULL;
	int major, minor, rc;
	size_t pos = SIZE_MAX;

	if (strncmp(refname, "refs/tags/", 10) ||
	    ruleset_parse_tag(rel->rules, refname + 10, &major, &minor, &rc) != 1)
		return 0;	/* only stable releases: vX.Y.Z */
	if (!git_object_lookup(&obj, rel->repo, oid, GIT_OBJECT_ANY) &&
	    !git_object_peel(&peeled, obj, GIT_OBJECT_COMMIT))
		pos = position_of(rel, git_object_id(peeled));
	git_error_clear();
	git_object_free(peeled);
	git_object_free(obj);
	if (pos == SIZE_MAX)
		return 0;
	ALLOC_GROW(rel->v, rel->nr, rel->alloc);
	rel->v[rel->nr].name = xstrdup(refname + 10);
	rel->v[rel->nr++].pos = pos;
	return 0;
}

static int load_releases(struct releases *rel, git_repository *repo,
			 const struct ruleset *rules, const git_oid *base,
			 const git_oid *tip)
{
	git_revwalk *walk = NULL;
	size_t alloc = 0;
	git_oid id;
	int ret;

	memset(rel, 0, sizeof(*rel));
	rel->repo = repo;
	rel->rules = rules;
	if (git_revwalk_new(&walk, repo) < 0 || git_revwalk_push(walk, tip) < 0 ||
	    git_revwalk_hide(walk, base) < 0) {
		git_revwalk_free(walk);
		return error_git("cannot walk the stable branch");
	}
	git_revwalk_sorting(walk, GIT_SORT_TOPOLOGICAL | GIT_SORT_REVERSE);
	/* The base first: a vendor branch at v6.6.12 is caught up with it. */
	ALLOC_GROW(rel->order, rel->nr_order, alloc);
	git_oid_cpy(&rel->order[0].id, base);
	rel->order[rel->nr_order++].pos = 0;
	while (!(ret = git_revwalk_next(&id, walk))) {
		ALLOC_GROW(rel->order, rel->nr_order, alloc);
		git_oid_cpy(&rel->order[rel->nr_order].id, &id);
		rel->order[rel->nr_order].pos = rel->nr_order;
		rel->nr_order++;
	}
	git_revwalk_free(walk);
	if (ret != GIT_ITEROVER)
		return error_git("cannot walk the stable branch");
	QSORT(rel->order, rel->nr_order, cmp_position);
	if (git_tag_foreach(repo, add_release, rel) < 0)
		return error_git("cannot list the tags");
	QSORT(rel->v, rel->nr, cmp_release);
	return 0;
}

static void release_releases(struct releases *rel)
{
	size_t i;

	for (i = 0; i < rel->nr; i++)
		free(rel->v[i].name);
	free(rel->v);
	free(rel->order);
}

/* The newest release before position pos (SIZE_MAX: the newest), or "-". */
static const char *caught_up(const struct releases *rel, size_t pos)
{
	const char *name = "-";
	size_t i;

	for (i = 0; i < rel->nr && rel->v[i].pos < pos; i++)
		name = rel->v[i].name;
	return name;
}

static const char *const sections[] = {
	"missing", "maybe-present", "vendor-only", "missing-follow-up",
};

struct tally {
	const char *subsystem;
	size_t n[ARRAY_SIZE(sections)];
	size_t first_missing;		/* position in the stable range */
};

/*
 * Per subsystem (in order of first appearance), the rows of each
 * section, and the newest stable release it is caught up with.
 */
static size_t tally(struct tally **out, const struct report_rows *r,
		    const struct releases *rel)
{
	struct tally *t = xcalloc(r->nr ? r->nr : 1, sizeof(*t));
	size_t nr = 0, i, j, k;

	for (i = 0; i < r->nr; i++) {
		const char *name = r->v[i].subsystem ? r->v[i].subsystem : "-";

		for (j = 0; j < nr && strcmp(t[j].subsystem, name); j++)
			;
		if (j == nr) {
			t[nr].subsystem = name;
			t[nr++].first_missing = SIZE_MAX;
		}
		for (k = 0; k < ARRAY_SIZE(sections); k++)
			if (!strcmp(sections[k], r->v[i].section))
				t[j].n[k]++;
		if (!strcmp(r->v[i].section, "missing") ||
		    !strcmp(r->v[i].section, "maybe-present")) {
			size_t pos = position_of(rel, &r->v[i].commit);

			if (pos < t[j].first_missing)
				t[j].first_missing = pos;
		}
	}
	*out = t;
	return nr;
}

static void print_summary(struct strbuf *out, const struct report_rows *r,
			  const struct releases *rel)
{
	struct tally *t;
	size_t nr = tally(&t, r, rel), j;

	int w = 12;

	/* As wide as the longest name: fs/smb/common/'s smb-common, ... */
	for (j = 0; j < nr; j++)
		if ((int)strlen(t[j].subsystem) > w)
			w = (int)strlen(t[j].subsystem);
	strbuf_addf(out, "\n%-*s %8s %14s %12s %18s  %s\n", w, "subsystem",
		    sections[0], sections[1], sections[2], sections[3],
		    "caught up with");
	for (j = 0; j < nr; j++)
		strbuf_addf(out, "%-*s %8zu %14zu %12zu %18zu  %s\n", w,
			    t[j].subsystem, t[j].n[0], t[j].n[1], t[j].n[2],
			    t[j].n[3], caught_up(rel, t[j].first_missing));
	if (!nr)
		strbuf_addstr(out, "nothing to report\n");
	free(t);
}

static void print_text(struct strbuf *out, const struct report_rows *r,
		       const struct releases *rel)
{
	size_t i;
	int wsub = 10;

	for (i = 0; i < r->nr; i++)
		if (r->v[i].subsystem && (int)strlen(r->v[i].subsystem) > wsub)
			wsub = (int)strlen(r->v[i].subsystem);
	for (i = 0; i < r->nr; i++) {
		const struct row *w = &r->v[i];
		char hex[GIT_OID_HEXSZ + 1];

		git_oid_tostr(hex, sizeof(hex), &w->commit);
		strbuf_addf(out, "%-17s %.12s  %-*s %s\n", w->section, hex,
			    wsub, w->subsystem ? w->subsystem : "-",
			    w->subject ? w->subject : "");
		if (w->detail)
			strbuf_addf(out, "%*s%s\n", 21 + wsub, "", w->detail);
	}
	print_summary(out, r, rel);
}

static void html_text(struct strbuf *out, const char *s)
{
	struct strbuf clean = STRBUF_INIT;
	size_t i;

	mail_clean(&clean, s ? s : "");	/* one line of valid UTF-8 */
	for (i = 0; i < clean.len; i++) {
		switch (clean.buf[i]) {
		case '&': strbuf_addstr(out, "&amp;"); break;
		case '<': strbuf_addstr(out, "&lt;"); break;
		case '>': strbuf_addstr(out, "&gt;"); break;
		case '"': strbuf_addstr(out, "&quot;"); break;
		default: strbuf_addch(out, clean.buf[i]);
		}
	}
	strbuf_release(&clean);
}

/* Ages of missing fixes, in days before the stable tip's date. */
static const struct { const char *label, *color; long days; } ages[] = {
	{ "under 30 days", "#f4a582", 30 },
	{ "30 to 90 days", "#d6604d", 90 },
	{ "90 days to a year", "#b2182b", 365 },
	{ "over a year", "#67001f", 0 },
};

/*
 * One file, no script, no network: a summary table, a chart of the
 * missing fixes by subsystem and age (inline SVG), and every row.
 */
static void print_html(struct strbuf *out, git_repository *repo,
		       const struct report_rows *r, const struct releases *rel,
		       const char *vendor, const char *stable_name,
		       const char *range, const git_oid *stable)
{
	struct tally *t;
	size_t nr = tally(&t, r, rel), i, j, k, max = 1;
	size_t (*age)[ARRAY_SIZE(ages)] = xcalloc(nr ? nr : 1, sizeof(*age));
	git_commit *tip = NULL;
	git_time_t now = 0;

	if (!git_commit_lookup(&tip, repo, stable))
		now = git_commit_time(tip);
	git_commit_free(tip);
	for (i = 0; i < r->nr; i++) {
		const struct row *w = &r->v[i];
		const char *name = w->subsystem ? w->subsystem : "-";
		git_commit *c = NULL;
		long days;

		if (strcmp(w->section, "missing"))
			continue;
		for (j = 0; j < nr && strcmp(t[j].subsystem, name); j++)
			;
		if (j == nr || git_commit_lookup(&c, repo, &w->commit) < 0) {
			git_error_clear();
			continue;
		}
		days = (long)((now - git_commit_time(c)) / 86400);
		git_commit_free(c);
		for (k = 0; ages[k].days && days >= ages[k].days; k++)
			;
		age[j][k]++;
	}
	for (j = 0; j < nr; j++)
		if (t[j].n[0] > max)
			max = t[j].n[0];

	strbuf_addstr(out, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n"
		      "<meta charset=\"utf-8\">\n<title>stablepick diff: ");
	html_text(out, vendor);
	strbuf_addstr(out, " against ");
	html_text(out, stable_name);
	strbuf_addstr(out, "</title>\n<style>\n"
		      "body { font-family: sans-serif; margin: 2em; color: #222; }\n"
		      "table { border-collapse: collapse; margin-bottom: 2em; }\n"
		      "th, td { border: 1px solid #bbb; padding: 0.2em 0.6em; "
		      "text-align: left; vertical-align: top; }\n"
		      "td.n { text-align: right; }\n"
		      "code { font-size: 0.95em; }\n"
		      ".missing { background: #fde0dd; }\n"
		      ".maybe-present { background: #fff7bc; }\n"
		      ".vendor-only { background: #e5f5e0; }\n"
		      ".missing-follow-up { background: #deebf7; }\n"
		      "</style>\n</head>\n<body>\n<h1>");
	html_text(out, vendor);
	strbuf_addstr(out, " against ");
	html_text(out, stable_name);
	strbuf_addstr(out, "</h1>\n<p>Stable range ");
	html_text(out, range);
	strbuf_addstr(out, ", watched paths only; written by stablepick diff.</p>\n"
		      "<h2>Summary</h2>\n<table>\n<tr><th>subsystem</th>");
	for (k = 0; k < ARRAY_SIZE(sections); k++)
		strbuf_addf(out, "<th>%s</th>", sections[k]);
	strbuf_addstr(out, "<th>caught up with</th></tr>\n");
	for (j = 0; j < nr; j++) {
		strbuf_addstr(out, "<tr><td>");
		html_text(out, t[j].subsystem);
		strbuf_addstr(out, "</td>");
		for (k = 0; k < ARRAY_SIZE(sections); k++)
			strbuf_addf(out, "<td class=\"n\">%zu</td>", t[j].n[k]);
		strbuf_addstr(out, "<td>");
		html_text(out, caught_up(rel, t[j].first_missing));
		strbuf_addstr(out, "</td></tr>\n");
	}
	strbuf_addstr(out, "</table>\n<h2>Missing fixes by subsystem and age</h2>\n");
	strbuf_addf(out, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"720\" "
		    "height=\"%zu\" role=\"img\" aria-label=\"missing fixes by "
		    "subsystem and age\">\n", 40 + 24 * (nr ? nr : 1));
	for (k = 0; k < ARRAY_SIZE(ages); k++)
		strbuf_addf(out, "<rect x=\"%zu\" y=\"4\" width=\"12\" height=\"12\" "
			    "fill=\"%s\"/><text x=\"%zu\" y=\"15\" font-size=\"12\">%s"
			    "</text>\n", 10 + 170 * k, ages[k].color, 26 + 170 * k,
			    ages[k].label);
	for (j = 0; j < nr; j++) {
		size_t x = 130, y = 32 + 24 * j;

		strbuf_addf(out, "<text x=\"10\" y=\"%zu\" font-size=\"13\">", y + 14);
		html_text(out, t[j].subsystem);
		strbuf_addstr(out, "</text>\n");
		for (k = 0; k < ARRAY_SIZE(ages); k++) {
			size_t w = age[j][k] * 520 / max;

			if (!age[j][k])
				continue;
			strbuf_addf(out, "<rect x=\"%zu\" y=\"%zu\" width=\"%zu\" "
				    "height=\"18\" fill=\"%s\"><title>%zu %s</title>"
				    "</rect>\n", x, y, w ? w : 1, ages[k].color,
				    age[j][k], ages[k].label);
			x += w ? w : 1;
		}
		strbuf_addf(out, "<text x=\"%zu\" y=\"%zu\" font-size=\"12\">%zu</text>\n",
			    x + 6, y + 14, t[j].n[0]);
	}
	strbuf_addstr(out, "</svg>\n<h2>Commits</h2>\n<table>\n<tr><th>section</th>"
		      "<th>commit</th><th>upstream</th><th>subsystem</th>"
		      "<th>subject</th></tr>\n");
	for (i = 0; i < r->nr; i++) {
		const struct row *w = &r->v[i];
		char hex[GIT_OID_HEXSZ + 1];

		git_oid_tostr(hex, sizeof(hex), &w->commit);
		strbuf_addf(out, "<tr class=\"%s\"><td>%s</td><td><code>%.12s</code>"
			    "</td><td><code>", w->section, w->section, hex);
		if (w->upstream)
			strbuf_addf(out, "%.12s", w->upstream);
		strbuf_addstr(out, "</code></td><td>");
		html_text(out, w->subsystem ? w->subsystem : "-");
		strbuf_addstr(out, "</td><td>");
		html_text(out, w->subject);
		if (w->detail) {
			strbuf_addstr(out, "<br><small>");
			html_text(out, w->detail);
			strbuf_addstr(out, "</small>");
		}
		strbuf_addstr(out, "</td></tr>\n");
	}
	strbuf_addstr(out, "</table>\n</body>\n</html>\n");
	free(age);
	free(t);
}

static void print_json(struct strbuf *out, const struct report_rows *r)
{
	size_t i;

	for (i = 0; i < r->nr; i++) {
		const struct row *w = &r->v[i];
		char hex[GIT_OID_HEXSZ + 1];

		git_oid_tostr(hex, sizeof(hex), &w->commit);
		strbuf_addstr(out, "{\"section\":");
		json_add_str(out, w->section);
		strbuf_addstr(out, ",\"commit\":");
		json_add_str(out, hex);
		strbuf_addstr(out, ",\"upstream\":");
		json_add_str(out, w->upstream);
		strbuf_addstr(out, ",\"subsystem\":");
		json_add_str(out, w->subsystem);
		strbuf_addstr(out, ",\"subject\":");
		json_add_str(out, w->subject);
		strbuf_addstr(out, ",\"detail\":");
		json_add_str(out, w->detail);
		strbuf_addstr(out, "}\n");
	}
}

static int diff(struct run_context *ctx, int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "against", required_argument, NULL, 'a' },
		{ "branch", required_argument, NULL, 'b' },
		{ "format", required_argument, NULL, 'f' },
		{ "help", no_argument, NULL, 'h' },
		{ "subsystem", required_argument, NULL, 's' },
		{ "upstream", required_argument, NULL, 'u' },
		{ NULL, 0, NULL, 0 }
	};
	const char *branch = NULL, *against = NULL, *subsystems = NULL;
	const char *upstream = NULL;
	struct run run;
	struct releases rel;
	int have_run = 0;
	enum format format = FORMAT_TEXT;
	struct report_rows rows = { NULL, 0, 0 };

	struct candidate_list vendor;
	struct patchid_cache patchids;
	struct branch_index vbi;
	struct ruleset rules;
	struct strbuf out = STRBUF_INIT;
	struct match match;
	struct scan scan;
	git_oid stable;
	char *path, *range = NULL;
	size_t i;
	int opt, f, ret;

	optind = 0;
	while ((opt = getopt_long(argc, argv, "+h", longopts, NULL)) != -1) {
		switch (opt) {
		case 'a': against = optarg; break;
		case 'b': branch = optarg; break;
		case 'f':
			if ((f = cli_format(optarg, format_names,
					      ARRAY_SIZE(format_names))) < 0)
				return cli_usage(&cmd_diff);
			format = (enum format)f;
			break;
		case 'h':
			printf("usage: stablepick diff %s\n", cmd_diff.usage);
			return 0;
		case 's': subsystems = optarg; break;
		case 'u': upstream = optarg; break;
		default:
			return cli_usage(&cmd_diff);
		}
	}
	if (optind != argc) {
		error("unexpected argument '%s'", argv[optind]);
		return cli_usage(&cmd_diff);
	}
	if (!branch || !against) {
		error("diff needs --branch and --against");
		return cli_usage(&cmd_diff);
	}

	memset(&rel, 0, sizeof(rel));
	ruleset_init(&rules);
	branch_index_init(&vbi);
	candidate_list_init(&vendor);
	memset(&scan, 0, sizeof(scan));
	ret = run_open_repo(ctx);
	if (ret)
		return 1;
	path = run_cache_path(ctx, "patchid-cache");
	patchid_cache_init(&patchids, path ? path : "");
	if (path)
		patchid_cache_load(&patchids);
	free(path);
	scan_init(&scan, ctx->repo, &rules);
	ret = run_load_rules(ctx, &rules);
	if (!ret)
		ret = scan_resolve(ctx->repo, against, "--against", &stable);
	/* The vendor indexed from its base with the stable branch. */
	if (!ret)
		ret = branch_index_build(&vbi, ctx->repo, branch, &stable);
	if (!ret) {
		char hex[GIT_OID_HEXSZ + 1];

		git_oid_tostr(hex, sizeof(hex), &vbi.base);
		range = vbi.base_name ? xstrfmt("%s..%s", vbi.base_name, against)
				      : xstrfmt("%.12s..%s", hex, against);
		scan_set_range_oids(&scan, &vbi.base, &stable, range);
		if (subsystems)
			scan_set_only(&scan, subsystems);
		ret = scan_run(&scan);
	}
	match_init(&match, ctx->repo, &vbi, &scan, &patchids);
	if (!ret)
		ret = match_candidates(&match, &scan.candidates, &scan.from);
	if (!ret && format != FORMAT_JSON)
		ret = load_releases(&rel, ctx->repo, &rules, &vbi.base, &stable);
	if (!ret) {
		stable_rows(&rows, &scan.candidates);
		ret = vendor_rows(&rows, ctx->repo, &match, &vbi, &vendor);
	}
	/* Mainline's side: the vendor judged as propose judges a branch. */
	if (!ret) {
		have_run = 1;
		ret = run_setup(ctx, &run, branch, upstream);
	}
	if (!ret && subsystems)
		scan_set_only(&run.scan, subsystems);
	if (!ret)
		ret = follow_up_rows(&rows, ctx, &run, branch);
	if (!ret)
		ret = run_save(ctx, &run);
	if (!ret) {
		if (format == FORMAT_JSON)
			print_json(&out, &rows);
		else if (format == FORMAT_HTML)
			print_html(&out, ctx->repo, &rows, &rel, branch, against,
				   range, &stable);
		else
			print_text(&out, &rows, &rel);
		ret = report_write(stdout, &out);
	}
	if (!ret && !ctx->no_cache && patchid_cache_save(&patchids) < 0)
		warning("the next run will be slower");
	/* The rows borrow from both runs: freed after printing. */
	if (have_run)
		run_release(&run);
	for (i = 0; i < rows.nr; i++)
		free(rows.v[i].detail);
	free(rows.v);
	release_releases(&rel);
	free(range);
	strbuf_release(&out);
	candidate_list_release(&vendor);
	match_release(&match);
	scan_release(&scan);
	branch_index_release(&vbi);
	patchid_cache_release(&patchids);
	ruleset_release(&rules);
	return ret < 0 ? 1 : 0;
}

const struct cli_command cmd_diff = {
	"diff",
	"--branch VENDOR --against STABLE [--subsystem LIST]\n"
	"                       [--upstream REF] [--format text|json|html]",
	"the fixes of a stable branch a vendor branch lacks, and its own",
	diff,
};
