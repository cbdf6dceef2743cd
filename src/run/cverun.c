#include "run/cverun.h"
#include "base/error.h"
#include "git/history.h"
#include "git/malformed.h"
#include "base/strbuf.h"
#include "base/trace.h"
#include "base/util.h"

#include <stdlib.h>
#include <string.h>

static const char *const status_names[CVE__NR] = {
	[CVE_UNFIXED] = "unfixed",
	[CVE_FIXED] = "fixed",
	[CVE_NOT_AFFECTED] = "not-affected",
};

const char *cve_status_name(enum cve_status s)
{
	return (unsigned)s < CVE__NR ? status_names[s] : "unknown";
}

void cve_run_init(struct cve_run *cr)
{
	memset(cr, 0, sizeof(*cr));
	cve_set_init(&cr->set);
	candidate_list_init(&cr->cands);
	candidate_list_init(&cr->vulnerable);
}

void cve_run_release(struct cve_run *cr)
{
	size_t i;

	for (i = 0; cr->rows && i < cr->set.nr; i++)
		free(cr->rows[i].detail);
	free(cr->rows);
	candidate_list_release(&cr->cands);
	candidate_list_release(&cr->vulnerable);
	cve_set_release(&cr->set);
	cve_run_init(cr);
}

static void add_ids(struct candidate *c, const struct cve_set *set)
{
	const struct cve *const *hits;
	size_t n = cve_set_fixed_by(set, &c->id, &hits), i;

	for (i = 0; i < n; i++)
		candidate_add_cve(c, hits[i]->id);
	if (n)
		candidate_add_fact(c, FACT_CVE);
}

void cve_run_annotate(struct run *run, const struct cve_set *set)
{
	size_t i;

	for (i = 0; i < run->scan.candidates.nr; i++)
		add_ids(run->scan.candidates.items[i], set);
}

/* Whether the repository has the commit. */
static int have(git_repository *repo, const git_oid *id)
{
	git_odb *odb;
	int ret;

	if (git_repository_odb(&odb, repo) < 0) {
		git_error_clear();
		return 0;
	}
	ret = git_odb_exists(odb, id);
	git_odb_free(odb);
	return ret;
}

/*
 * The candidate of id in l, made from its commit if need be; 1 when
 * the commit is malformed (src/malformed.h): warned, not judged.
 */
static int candidate_of(struct run *run, git_repository *repo,
			struct candidate_list *l, const git_oid *id,
			struct candidate **out, int *added)
{
	git_commit *commit;
	int ret;

	*added = 0;
	if ((*out = candidate_list_find(l, id)))
		return 0;
	if ((ret = malformed_lookup(&commit, repo, id)))
		return ret > 0 ? 1 : error_git("cannot read commit %s",
					       git_oid_tostr_s(id));
	*out = candidate_list_add(l, id);
	ret = scan_fill(&run->scan, *out, commit);
	git_commit_free(commit);
	*added = 1;
	return ret;
}

int cve_run_add(struct run_context *ctx, struct run *run, struct cve_run *cr)
{
	size_t i, j, k, added = 0;
	int ret = 0, one;

	for (i = 0; !ret && i < cr->set.nr; i++) {
		const struct cve *cve = &cr->set.items[i];

		for (j = 0; !ret && j < cve->nr_fixes; j++) {
			const git_oid *id = &cve->fixes[j];
			int in_range = scan_in_range(&run->scan, id) == 1;
			struct candidate *c;

			if (!have(ctx->repo, id))
				continue;
			ret = candidate_of(run, ctx->repo, in_range ?
					   &run->scan.candidates : &cr->cands,
					   id, &c, &one);
			added += in_range && one;
			if (!ret)
				add_ids(c, &cr->set);
			if (ret > 0)
				ret = 0;
		}
		/*
		 * A vulnerable commit of the range is in the branch only as a
		 * backport: presence tells, apart from the judged fixes (a
		 * fix of a proposed commit would be a follow-up).
		 */
		for (k = 0; !ret && k < cve->nr_pairs; k++) {
			const struct cve_pair *p = &cve->pairs[k];
			struct candidate *c;

			if (!p->has_vulnerable ||
			    scan_in_range(&run->scan, &p->vulnerable) != 1 ||
			    candidate_list_find(&run->scan.candidates,
						&p->vulnerable))
				continue;
			ret = candidate_of(run, ctx->repo, &cr->vulnerable,
					   &p->vulnerable, &c, &one);
			if (ret > 0)
				ret = 0;
		}
	}
	if (!ret && added)
		candidate_list_place_added(&run->scan.candidates, added);
	if (!ret && cr->cands.nr)
		ret = run_judge_scores(run, ctx->repo, &cr->cands, NULL);
	if (!ret && cr->cands.nr)
		ret = run_judge_verdicts(run, ctx->repo, &cr->cands);
	if (!ret && cr->vulnerable.nr)
		ret = run_judge_scores(run, ctx->repo, &cr->vulnerable, NULL);
	trace_stage("CVE fixes and vulnerable commits outside the range");
	return ret;
}

/* The judged candidate of id, in whichever list holds it. */
static const struct candidate *judged(const struct run *run,
				      const struct cve_run *cr,
				      const git_oid *id)
{
	const struct candidate *c;

	if ((c = candidate_list_find(&run->scan.candidates, id)) ||
	    (c = candidate_list_find(&cr->cands, id)))
		return c;
	return candidate_list_find(&cr->vulnerable, id);
}

static const char *evidence_of(const struct candidate *c)
{
	const struct evidence *e = candidate_presence(c);

	return e ? e->detail : "present";
}

/*
 * Whether the branch has commit id: its tip or an ancestor of it, or,
 * for a judged commit of the range, a backport of it.  1 with *why set,
 * 0, or -1.
 */
static int in_branch(struct run_context *ctx, const struct run *run,
		     const struct cve_run *cr, const git_oid *id,
		     const char *version, char **why)
{
	const git_oid *tip = &run->branch.tip;
	const struct candidate *c;
	int r;

	if (git_oid_equal(id, tip)) {
		r = 1;
	} else if (!have(ctx->repo, id)) {
		return 0;
	} else if ((r = history_descendant_of(ctx->repo, tip, id)) < 0) {
		return error_git("cannot tell whether %s has %s",
				 run->branch.name, git_oid_tostr_s(id));
	}
	if (r) {
		*why = xstrfmt("%.12s (%s) is in %s", git_oid_tostr_s(id),
			       version, run->branch.name);
		return 1;
	}
	c = judged(run, cr, id);
	if (c && c->present) {
		*why = xstrfmt("%.12s (%s): %s", git_oid_tostr_s(id), version,
			       evidence_of(c));
		return 1;
	}
	return 0;
}

static int settle(struct run_context *ctx, struct run *run,
		  struct cve_run *cr, struct cve_row *row)
{
	const struct cve *cve = row->cve;
	char *why = NULL;
	size_t i;
	int named = 0, r;

	for (i = 0; i < cve->nr_fixes; i++) {
		const struct candidate *c = judged(run, cr, &cve->fixes[i]);

		if (!c)
			continue;
		if (!row->fix)
			row->fix = c;
		if (c->present) {
			row->status = CVE_FIXED;
			row->fix = c;
			row->detail = xstrfmt("fix %.12s: %s",
					      git_oid_tostr_s(&c->id),
					      evidence_of(c));
			return 0;
		}
	}
	for (i = 0; i < cve->nr_pairs; i++) {
		const struct cve_pair *p = &cve->pairs[i];

		if (!p->has_fixed)
			continue;
		r = in_branch(ctx, run, cr, &p->fixed, p->fixed_version, &why);
		if (r < 0)
			return -1;
		if (r) {
			row->status = CVE_FIXED;
			row->detail = xstrfmt("fixed by %s", why);
			free(why);
			return 0;
		}
	}
	for (i = 0; i < cve->nr_pairs; i++) {
		const struct cve_pair *p = &cve->pairs[i];
		size_t j;

		if (!p->has_vulnerable)
			continue;
		/* The same commit opens several lines: ask once. */
		for (j = 0; j < i; j++)
			if (cve->pairs[j].has_vulnerable &&
			    git_oid_equal(&cve->pairs[j].vulnerable, &p->vulnerable))
				break;
		named = 1;
		if (j < i)
			continue;
		r = in_branch(ctx, run, cr, &p->vulnerable,
			      p->vulnerable_version, &why);
		if (r < 0)
			return -1;
		if (r)
			break;
	}
	if (named && !why) {
		row->status = CVE_NOT_AFFECTED;
		row->detail = xstrfmt("%s has none of the commits that brought "
				      "it in", run->branch.name);
		return 0;
	}
	row->status = CVE_UNFIXED;
	/* A fix in the repository that was not judged is malformed. */
	if (!row->fix)
		row->detail = xstrfmt("%s%s; the fix %.12s %s",
				      named ? "vulnerable: " : "",
				      named ? why : "no vulnerable commit named",
				      git_oid_tostr_s(&cve->fixes[0]),
				      have(ctx->repo, &cve->fixes[0]) ?
				      "cannot be parsed" :
				      "is not in the repository");
	else
		row->detail = xstrfmt("%s%s", named ? "vulnerable: " : "",
				      named ? why : "no vulnerable commit "
				      "named: taken to be in every branch");
	free(why);
	return 0;
}

int cve_run_settle(struct run_context *ctx, struct run *run,
		   struct cve_run *cr)
{
	size_t i;
	int ret = 0;

	cr->rows = xcalloc(cr->set.nr ? cr->set.nr : 1, sizeof(*cr->rows));
	for (i = 0; !ret && i < cr->set.nr; i++) {
		cr->rows[i].cve = &cr->set.items[i];
		ret = settle(ctx, run, cr, &cr->rows[i]);
	}
	trace_stage("CVE statuses");
	return ret;
}
