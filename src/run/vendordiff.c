#include "run/vendordiff.h"
#include "git/apply.h"
#include "base/error.h"
#include "git/history.h"
#include "git/malformed.h"
#include "base/strbuf.h"
#include "base/trace.h"
#include "base/util.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static void add_row(struct diff_rows *r, const char *section,
		    const git_oid *commit, const char *upstream,
		    const char *subsystem, const char *subject, char *detail)
{
	struct diff_row *w;

	ALLOC_GROW(r->v, r->nr, r->alloc);
	w = &r->v[r->nr++];
	w->section = section;
	git_oid_cpy(&w->commit, commit);
	w->upstream = upstream;
	w->subsystem = subsystem;
	w->subject = subject;
	w->detail = detail;
	w->cves = NULL;
	w->nr_cves = 0;
	w->verdict = NULL;
	w->score = 0;
}

/* The stable side: what the vendor lacks. */
static void stable_rows(struct diff_rows *r, struct candidate_list *l)
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
static int vendor_rows(struct diff_rows *r, git_repository *repo,
		       struct match *m, const struct branch_index *v,
		       struct candidate_list *vendor)
{
	struct scan *scan = m->scan;
	struct branch_walk walk;
	git_oid id;
	int ret = 0;

	if (branch_walk(&walk, v, repo) < 0)
		return -1;
	while (branch_walk_next(&id, &walk)) {
		git_commit *commit = NULL;
		struct match_pick pick;
		struct match_found found;
		struct candidate *c;
		const struct subsystem *s;
		const char *up;

		if (!scan_commit_may_touch(scan, &id))
			continue;
		/* A malformed commit cannot be scanned: warned, passed over. */
		if ((ret = malformed_lookup(&commit, repo, &id))) {
			if (ret > 0) {
				ret = 0;
				continue;
			}
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
	branch_walk_release(&walk);
	return ret < 0 ? -1 : 0;
}

/*
 * The findmissing question: mainline commits (base..upstream) whose
 * Fixes: names a commit the vendor carries (merged, or backported under
 * any id), and which it lacks; each trial-picked alone onto its tip.
 */
static int follow_up_rows(struct diff_rows *r, struct run_context *ctx,
			  struct run *run, const char *vendor)
{
	struct candidate_list *l = &run->scan.candidates;
	git_commit *onto = NULL;
	size_t i, j;
	int ret;

	if ((ret = run_scan(ctx, run)) < 0 ||
	    (ret = run_judge(run, ctx->repo, l, &run->scan.from)) < 0)
		return ret;
	if (apply_onto_lookup(&onto, ctx->repo, &run->branch.tip) < 0)
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
		/*
		 * Picked as propose's trial series pick (per path, from the
		 * pick's own changes), not by git_cherrypick_commit(),
		 * whose merge of the whole trees costs seconds on a vendor
		 * far from mainline, and which follows renames that propose
		 * does not: both commands say the same of a pick.
		 */
		{
			const git_commit *one = pick;

			ret = apply_series_check_cached(&res, ctx->repo, onto,
							&one, 1, run->trial_cache);
		}
		git_commit_free(pick);
		git_oid_tostr(hex, sizeof(hex), &t->id);
		/* Judged: "make ... static" follows up, and is no fix. */
		if (!ret) {
			add_row(r, "missing-follow-up", &c->id, c->hex,
				s ? s->name : NULL, c->msg.subject,
				xstrfmt("fixes %.12s, which %s carries; %s; %s, "
					"score %lld", hex, vendor, res.applies ?
					"applies to its tip" :
					"does not apply to its tip",
					verdict_name(c->verdict), c->score));
			r->v[r->nr - 1].verdict = verdict_name(c->verdict);
			r->v[r->nr - 1].score = c->score;
		}
		apply_result_release(&res);
	}
	git_commit_free(onto);
	return ret;
}

/*
 * The vendor's own commits that mainline's side found by their change:
 * a mainline commit the vendor picked without a line naming it, as
 * explain --branch VENDOR finds it (same presence engine, same
 * patch-id), so that diff names the same commit.
 */
static void name_mainline_twins(struct diff_rows *r, struct run *run)
{
	size_t i;

	for (i = 0; i < r->nr; i++) {
		struct diff_row *w = &r->v[i];
		const struct candidate *c;
		const struct evidence *e;

		if (strcmp(w->section, "vendor-only") || w->upstream)
			continue;
		c = match_taken_by(&run->match, &w->commit);
		e = c ? candidate_evidence(c, EVIDENCE_PATCH_ID) : NULL;
		if (!e || !e->has_commit || !git_oid_equal(&e->commit, &w->commit))
			continue;
		w->upstream = c->hex;
		free(w->detail);
		w->detail = xstrfmt("the same change as mainline %.12s, ahead "
				    "of stable", c->hex);
	}
}

static int cmp_position(const void *a, const void *b)
{
	return git_oid_cmp(&((const struct diff_position *)a)->id,
			   &((const struct diff_position *)b)->id);
}

static int cmp_release(const void *a, const void *b)
{
	const struct diff_release *x = a, *y = b;

	return x->pos < y->pos ? -1 : x->pos > y->pos;
}

size_t diff_release_position(const struct diff_releases *rel,
			     const git_oid *id)
{
	struct diff_position key, *p;

	git_oid_cpy(&key.id, id);
	p = rel->nr_order ? bsearch(&key, rel->order, rel->nr_order,
				    sizeof(*rel->order), cmp_position) : NULL;
	return p ? p->pos : SIZE_MAX;
}

static int add_release(const char *refname, git_oid *oid, void *data)
{
	struct diff_releases *rel = data;
	git_object *obj = NULL, *peeled = NULL;
	int major, minor, rc;
	size_t pos = SIZE_MAX;

	if (!skip_prefix(refname, "refs/tags/", &refname) ||
	    ruleset_parse_tag(rel->rules, refname, &major, &minor, &rc) != 1)
		return 0;	/* only stable releases: vX.Y.Z */
	if (!git_object_lookup(&obj, rel->repo, oid, GIT_OBJECT_ANY) &&
	    !git_object_peel(&peeled, obj, GIT_OBJECT_COMMIT))
		pos = diff_release_position(rel, git_object_id(peeled));
	git_error_clear();
	if (pos == SIZE_MAX && peeled) {
		/* Perhaps the release the base stands on (load_releases()). */
		ALLOC_GROW(rel->before, rel->nr_before, rel->alloc_before);
		rel->before_names = xrealloc(rel->before_names,
					     rel->alloc_before *
					     sizeof(*rel->before_names));
		git_oid_cpy(&rel->before[rel->nr_before].id,
			    git_object_id(peeled));
		rel->before[rel->nr_before].pos = rel->nr_before;
		rel->before_names[rel->nr_before] = xstrdup(refname);
		rel->nr_before++;
	}
	git_object_free(peeled);
	git_object_free(obj);
	if (pos == SIZE_MAX)
		return 0;
	ALLOC_GROW(rel->v, rel->nr, rel->alloc);
	rel->v[rel->nr].name = xstrdup(refname);
	rel->v[rel->nr++].pos = pos;
	return 0;
}

/*
 * A vendor branch forked between two releases is caught up with the one
 * before the fork: the newest release tag on the first-parent line
 * down from the base (as git describe finds it) counts as at the base,
 * position 0.  Without it, a subsystem whose first missing commit comes
 * before the next release was caught up with "-".
 */
#define DESCRIBE_DEPTH 100000

static void release_at_base(struct diff_releases *rel, git_repository *repo,
			    const git_oid *base)
{
	git_commit *c = NULL, *parent;
	struct diff_position key, *hit = NULL;
	size_t steps;

	if (!rel->nr_before)
		return;
	QSORT(rel->before, rel->nr_before, cmp_position);
	if (git_commit_lookup(&c, repo, base) < 0) {
		git_error_clear();
		return;
	}
	for (steps = 0; c && !hit && steps < DESCRIBE_DEPTH; steps++) {
		git_oid_cpy(&key.id, git_commit_id(c));
		hit = bsearch(&key, rel->before, rel->nr_before,
			      sizeof(*rel->before), cmp_position);
		if (hit || !git_commit_parentcount(c))
			break;
		if (git_commit_parent(&parent, c, 0) < 0) {
			git_error_clear();
			parent = NULL;
		}
		git_commit_free(c);
		c = parent;
	}
	git_commit_free(c);
	if (!hit)
		return;
	ALLOC_GROW(rel->v, rel->nr, rel->alloc);
	rel->v[rel->nr].name = xstrdup(rel->before_names[hit->pos]);
	rel->v[rel->nr++].pos = 0;
}

static int load_releases(struct diff_releases *rel, git_repository *repo,
			 const struct ruleset *rules, const git_oid *base,
			 const git_oid *tip)
{
	struct history_walk walk;
	size_t alloc = 0;
	git_oid id;
	int ret;

	memset(rel, 0, sizeof(*rel));
	rel->repo = repo;
	rel->rules = rules;
	history_walk_init(&walk, repo, GIT_SORT_TOPOLOGICAL | GIT_SORT_REVERSE);
	if (history_walk_push(&walk, tip) < 0 ||
	    history_walk_hide(&walk, base) < 0) {
		history_walk_release(&walk);
		return error_git("cannot walk the stable branch");
	}
	/* The base first: a vendor branch at v6.6.12 is caught up with it. */
	ALLOC_GROW(rel->order, rel->nr_order, alloc);
	git_oid_cpy(&rel->order[0].id, base);
	rel->order[rel->nr_order++].pos = 0;
	while (!(ret = history_walk_next(&id, &walk))) {
		ALLOC_GROW(rel->order, rel->nr_order, alloc);
		git_oid_cpy(&rel->order[rel->nr_order].id, &id);
		rel->order[rel->nr_order].pos = rel->nr_order;
		rel->nr_order++;
	}
	history_walk_release(&walk);
	if (ret != GIT_ITEROVER)
		return error_git("cannot walk the stable branch");
	QSORT(rel->order, rel->nr_order, cmp_position);
	if (git_tag_foreach(repo, add_release, rel) < 0)
		return error_git("cannot list the tags");
	QSORT(rel->v, rel->nr, cmp_release);
	/* The base itself a release: nothing older counts. */
	if (!rel->nr || rel->v[0].pos) {
		release_at_base(rel, repo, base);
		QSORT(rel->v, rel->nr, cmp_release);
	}
	return 0;
}

static void release_releases(struct diff_releases *rel)
{
	size_t i;

	for (i = 0; i < rel->nr; i++)
		free(rel->v[i].name);
	free(rel->v);
	free(rel->order);
	free_string_array(rel->before_names, rel->nr_before);
	free(rel->before);
}

void vendordiff_mark_cves(struct vendordiff *d, const struct cve_set *set)
{
	size_t i;

	for (i = 0; i < d->rows.nr; i++) {
		struct diff_row *w = &d->rows.v[i];
		git_oid id;

		if (!w->upstream || git_oid_fromstr(&id, w->upstream) < 0) {
			git_error_clear();
			continue;
		}
		w->nr_cves = cve_set_fixed_by(set, &id, &w->cves);
	}
}

const char *diff_caught_up(const struct diff_releases *rel, size_t pos)
{
	const char *name = "-";
	size_t i;

	for (i = 0; i < rel->nr && rel->v[i].pos < pos; i++)
		name = rel->v[i].name;
	return name;
}

void vendordiff_init(struct vendordiff *d)
{
	memset(d, 0, sizeof(*d));
	ruleset_init(&d->rules);
	branch_index_init(&d->vbi);
	candidate_list_init(&d->vendor);
}

int vendordiff_run(struct run_context *ctx, struct vendordiff *d,
		   const char *branch, const char *against,
		   const char *subsystems, const char *upstream, int releases)
{
	int ret;

	if (run_open_repo(ctx) < 0)
		return -1;
	run_open_patchids(ctx, &d->patchids);
	scan_init(&d->scan, ctx->repo, &d->rules);
	d->opened = 1;
	ret = run_load_rules(ctx, &d->rules);
	if (!ret)
		ret = scan_resolve(ctx->repo, against, "--against", &d->stable);
	/* The vendor indexed from its base with the stable branch. */
	if (!ret)
		ret = branch_index_build(&d->vbi, ctx->repo, branch, &d->stable,
					 &d->rules);
	if (!ret) {
		char hex[GIT_OID_HEXSZ + 1];

		git_oid_tostr(hex, sizeof(hex), &d->vbi.base);
		d->range = d->vbi.base_name ?
			   xstrfmt("%s..%s", d->vbi.base_name, against) :
			   xstrfmt("%.12s..%s", hex, against);
		scan_set_range_oids(&d->scan, &d->vbi.base, &d->stable, d->range);
		if (subsystems)
			scan_set_only(&d->scan, subsystems);
		trace_stage("diff: vendor index");
		ret = scan_run(&d->scan);
		trace_stage("diff: stable scan");
	}
	match_init(&d->match, ctx->repo, &d->vbi, &d->scan, &d->patchids);
	d->matching = 1;
	if (!ret)
		ret = match_candidates(&d->match, &d->scan.candidates,
				       &d->scan.from);
	trace_stage("diff: stable fixes in the vendor");
	if (!ret && releases)
		ret = load_releases(&d->rel, ctx->repo, &d->rules, &d->vbi.base,
				    &d->stable);
	if (!ret) {
		stable_rows(&d->rows, &d->scan.candidates);
		ret = vendor_rows(&d->rows, ctx->repo, &d->match, &d->vbi,
				  &d->vendor);
	}
	trace_stage("diff: the vendor's own");
	/* Mainline's side: the vendor judged as propose judges a branch. */
	if (!ret) {
		d->have_run = 1;
		ret = run_setup(ctx, &d->run, branch, upstream);
	}
	if (!ret && subsystems)
		scan_set_only(&d->run.scan, subsystems);
	if (!ret)
		ret = follow_up_rows(&d->rows, ctx, &d->run, branch);
	if (!ret)
		name_mainline_twins(&d->rows, &d->run);
	trace_stage("diff: missing follow-ups");
	if (!ret)
		ret = run_save(ctx, &d->run);
	return ret;
}

void vendordiff_save(struct run_context *ctx, struct vendordiff *d)
{
	if (!ctx->no_cache && patchid_cache_save(&d->patchids) < 0)
		warning_aside("the next run will be slower");
}

void vendordiff_release(struct vendordiff *d)
{
	size_t i;

	/* The rows borrow from both runs: freed first. */
	for (i = 0; i < d->rows.nr; i++)
		free(d->rows.v[i].detail);
	free(d->rows.v);
	if (d->have_run)
		run_release(&d->run);
	release_releases(&d->rel);
	free(d->range);
	candidate_list_release(&d->vendor);
	if (d->matching)
		match_release(&d->match);
	if (d->opened) {
		scan_release(&d->scan);
		patchid_cache_release(&d->patchids);
	}
	branch_index_release(&d->vbi);
	ruleset_release(&d->rules);
}
