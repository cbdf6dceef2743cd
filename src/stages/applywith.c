#include "stages/applywith.h"
#include "stages/blame.h"
#include "base/error.h"
#include "git/apply.h"
#include "git/history.h"
#include "git/treediff.h"
#include "base/strbuf.h"
#include "base/progress.h"
#include "base/util.h"

#include <stdarg.h>

#include <stdint.h>
#include <string.h>
#include <uthash.h>

/* A commit the search may put in a set. */
struct node {
	git_oid id;
	git_commit *commit;
	size_t depth;			/* 1: it made lines the pick changes */
	int alone;			/* applies after the prefix alone */
	/* The nodes that made the lines it conflicts on. */
	size_t *needs;
	size_t nr_needs, alloc_needs;
	char **paths;			/* the paths it changes */
	size_t nr_paths;
};

struct search {
	struct match *m;
	const struct branch_index *branch;
	const struct candidate_list *l;
	struct trialcache *cache;
	const struct applywith_limits *lim;
	git_commit *onto;
	const git_oid *id;		/* the pick */
	char *const *conflicts;		/* where it conflicts alone */
	size_t nr_conflicts;
	struct applies_with *out;
	struct candidate *warn;		/* for blame's warnings, or NULL */
	git_commit *pick;
	char **pick_paths;
	size_t nr_pick_paths;
	/* What is picked before it and applied, oldest first. */
	const struct applywith_prefix *prefix;
	size_t nr_prefix;
	struct node *nodes;
	size_t nr, alloc;
	size_t *first;			/* the nodes that made c's lines */
	size_t nr_first, alloc_first;
	/* The prefix picks the nodes and c need, in order. */
	const git_commit **base;
	size_t nr_base;
	int base_stale;			/* nodes were added since it was made */
	/* above[i * pool + j]: node i descends from j (1, 0; -1 unknown). */
	signed char *above;
	int steps;			/* record them in c->with_steps */
};

__attribute__((format(printf, 2, 3)))
static void step(struct search *s, const char *fmt, ...)
{
	struct strbuf sb = STRBUF_INIT;
	va_list ap;

	if (!s->steps)
		return;
	va_start(ap, fmt);
	strbuf_vaddf(&sb, fmt, ap);
	va_end(ap);
	ALLOC_GROW(s->out->steps, s->out->nr_steps, s->out->alloc_steps);
	s->out->steps[s->out->nr_steps++] = strbuf_detach(&sb, NULL);
}

/* "a1b2c3d4e5f6, 0f9e8d7c6b5a" of the nodes at[0..nr). */
static void add_nodes_hex(struct strbuf *sb, const struct search *s,
			  const size_t *at, size_t nr)
{
	size_t i;

	for (i = 0; i < nr; i++)
		strbuf_addf(sb, "%s%.12s", i ? ", " : "",
			    git_oid_tostr_s(&s->nodes[at[i]].id));
	if (!nr)
		strbuf_addstr(sb, "none");
}

static void add_paths(struct strbuf *sb, char *const *v, size_t nr)
{
	size_t i;

	for (i = 0; i < nr; i++)
		strbuf_addf(sb, "%s%s", i ? ", " : "", v[i]);
}

/*
 * The paths commit changes: those the trial cache keeps when there is
 * one (the keys of its picks want them too, and a second run reads no
 * trees for them), else from a diff.
 */
static int commit_paths(char ***out, size_t *nr, struct trialcache *cache,
			git_repository *repo, const git_commit *commit)
{
	struct treediff d = TREEDIFF_INIT;
	char *const *known = NULL;
	size_t i;

	*out = NULL;
	*nr = 0;
	if (cache) {
		known = apply_pick_paths(cache, repo, commit, nr, NULL);
		if (!known)
			return -1;
	} else {
		if (treediff_commit(&d, repo, commit) < 0)
			return -1;
		*nr = d.nr;
	}
	*out = xcalloc(*nr ? *nr : 1, sizeof(**out));
	for (i = 0; i < *nr; i++)
		(*out)[i] = xstrdup(known ? known[i] : d.items[i].path);
	treediff_release(&d);
	return 0;
}

static int in_prefix(const struct search *s, const git_oid *id)
{
	size_t i;

	for (i = 0; i < s->nr_prefix; i++)
		if (git_oid_equal(&s->prefix[i].id, id))
			return 1;
	return 0;
}

static size_t node_find(const struct search *s, const git_oid *id)
{
	size_t i;

	for (i = 0; i < s->nr; i++)
		if (git_oid_equal(&s->nodes[i].id, id))
			return i;
	return SIZE_MAX;
}

/*
 * Adds the commits of ids as nodes of the given depth (those not the
 * pick, not picked before it, not nodes already) and records each, or
 * the node it already is, as needed by node owner (SIZE_MAX: the pick).
 * Stops at the pool's bound.  The nodes may move: owner is an index.
 */
static int add_nodes(struct search *s, const git_oid *ids, size_t nr,
		     size_t depth, size_t owner)
{
	git_repository *repo = s->m->repo;
	size_t i, at;

	for (i = 0; i < nr; i++) {
		struct node *n;

		if (git_oid_equal(&ids[i], s->id) || in_prefix(s, &ids[i]))
			continue;
		at = node_find(s, &ids[i]);
		if (at == SIZE_MAX) {
			git_commit *commit;

			if (s->nr >= s->lim->pool)
				continue;
			if (git_commit_lookup(&commit, repo, &ids[i]) < 0)
				return error_git("cannot read commit %s",
						 git_oid_tostr_s(&ids[i]));
			/*
			 * Lines a merge made (its resolution) come with no
			 * commit to pick: a backport redoes them by hand.
			 */
			if (git_commit_parentcount(commit) != 1) {
				step(s, "%.12s is a merge: its lines are not "
				     "picked", git_oid_tostr_s(&ids[i]));
				git_commit_free(commit);
				continue;
			}
			ALLOC_GROW(s->nodes, s->nr, s->alloc);
			n = &s->nodes[s->nr];
			memset(n, 0, sizeof(*n));
			git_oid_cpy(&n->id, &ids[i]);
			n->depth = depth;
			n->alone = -1;
			n->commit = commit;
			if (commit_paths(&n->paths, &n->nr_paths, s->cache,
					 repo, n->commit) < 0)
				return -1;
			at = s->nr++;
			s->base_stale = 1;
		}
		if (owner == SIZE_MAX) {
			ALLOC_GROW(s->first, s->nr_first, s->alloc_first);
			s->first[s->nr_first++] = at;
		} else {
			struct node *o = &s->nodes[owner];

			ALLOC_GROW(o->needs, o->nr_needs, o->alloc_needs);
			o->needs[o->nr_needs++] = at;
		}
	}
	return 0;
}

/* A set of paths (build_base()'s: a prefix of hundreds has thousands). */
struct path_set {
	const char *path;		/* borrowed */
	UT_hash_handle hh;
};

static void want_path(struct path_set **set, const char *path)
{
	struct path_set *e;

	HASH_FIND_STR(*set, path, e);
	if (e)
		return;
	e = xcalloc(1, sizeof(*e));
	e->path = path;
	HASH_ADD_KEYPTR(hh, *set, e->path, strlen(e->path), e);
}

static int wants_path(struct path_set *set, const char *path)
{
	struct path_set *e;

	HASH_FIND_STR(set, path, e);
	return !!e;
}

/*
 * The prefix picks that the nodes and the pick can depend on: a pick
 * reads the tree at the paths it changes only, so the ones that change
 * a path of a node or of the pick, or of such a prefix pick, newer
 * first.  The rest cannot change any result and are left out.
 */
static int build_base(struct search *s)
{
	struct path_set *want = NULL, *e, *tmp;
	size_t i, j, k, n = 0;
	unsigned char *take;
	int ret = 0;

	for (i = 0; i < s->nr_base; i++)
		git_commit_free((git_commit *)s->base[i]);
	free(s->base);
	s->nr_base = 0;
	s->base_stale = 0;
	for (i = 0; i < s->nr_pick_paths; i++)
		want_path(&want, s->pick_paths[i]);
	for (i = 0; i < s->nr; i++)
		for (j = 0; j < s->nodes[i].nr_paths; j++)
			want_path(&want, s->nodes[i].paths[j]);
	take = xcalloc(s->nr_prefix ? s->nr_prefix : 1, 1);
	for (i = s->nr_prefix; i-- > 0;) {
		const struct apply_result *r = s->prefix[i].res;

		for (j = 0; j < r->nr_changes && !take[i]; j++)
			take[i] = wants_path(want, r->changes[j].path);
		if (!take[i])
			continue;
		n++;
		for (k = 0; k < r->nr_changes; k++)
			want_path(&want, r->changes[k].path);
	}
	HASH_FREE_ALL(want, e, tmp, free);
	s->base = xcalloc(n ? n : 1, sizeof(*s->base));
	for (i = 0; i < s->nr_prefix && !ret; i++) {
		git_commit *commit;

		if (!take[i])
			continue;
		if (git_commit_lookup(&commit, s->m->repo,
				      &s->prefix[i].id) < 0) {
			ret = error_git("cannot read commit %s",
					git_oid_tostr_s(&s->prefix[i].id));
			break;
		}
		s->base[s->nr_base++] = commit;
	}
	free(take);
	return ret;
}

/*
 * Tries the base, then picks[0..nr), as one series; 1 when all of
 * picks apply, 0 when not (the last one's conflicts in *last when
 * asked), -1 after an error message.
 */
static int try_series(struct search *s, const git_commit *const *picks,
		      size_t nr, struct apply_result *last)
{
	size_t total, i;
	const git_commit **all;
	struct apply_result *res;
	int ret;

	if (s->base_stale && build_base(s) < 0)
		return -1;
	total = s->nr_base + nr;
	all = xcalloc(total, sizeof(*all));
	res = xcalloc(total, sizeof(*res));
	memcpy(all, s->base, s->nr_base * sizeof(*all));
	memcpy(all + s->nr_base, picks, nr * sizeof(*all));
	for (i = 0; i < total; i++)
		apply_result_init(&res[i]);
	ret = apply_series_check_cached(res, s->m->repo, s->onto, all, total,
					s->cache);
	if (!ret) {
		ret = 1;
		for (i = s->nr_base; i < total; i++)
			if (!res[i].applies)
				ret = 0;
	}
	if (ret >= 0 && last) {
		apply_result_release(last);
		*last = res[total - 1];
		apply_result_init(&res[total - 1]);
	}
	for (i = 0; i < total; i++)
		apply_result_release(&res[i]);
	free(res);
	free(all);
	return ret;
}

/*
 * The nodes, breadth first: each that does not apply after the prefix
 * alone is blamed in turn, down to the depth the limits allow.
 */
static int grow(struct search *s)
{
	const git_oid *base = &s->branch->base;
	git_oid *ids = NULL;
	size_t nr_ids = 0, alloc_ids = 0, i;
	int ret;

	ret = blame_missing(s->m, base, s->id, s->conflicts, s->nr_conflicts,
			    &ids, &nr_ids, &alloc_ids, s->cache, s->warn);
	if (!ret)
		ret = add_nodes(s, ids, nr_ids, 1, SIZE_MAX);
	if (!ret && s->steps) {
		struct strbuf sb = STRBUF_INIT;

		add_paths(&sb, s->conflicts, s->nr_conflicts);
		strbuf_addstr(&sb, ": the lines it changes were made by ");
		add_nodes_hex(&sb, s, s->first, s->nr_first);
		step(s, "blame of %s (after the base, not in the branch)",
		     sb.buf);
		strbuf_release(&sb);
	}
	for (i = 0; !ret && i < s->nr; i++) {
		const git_commit *one = s->nodes[i].commit;
		size_t depth = s->nodes[i].depth;
		struct apply_result r;

		if (depth >= s->lim->depth) {
			step(s, "%.12s and the rest: %zu rounds of blame, no "
			     "more", git_oid_tostr_s(&s->nodes[i].id),
			     s->lim->depth);
			break;
		}
		apply_result_init(&r);
		ret = try_series(s, &one, 1, &r);
		if (ret >= 0)
			s->nodes[i].alone = ret;
		if (ret > 0)
			step(s, "%.12s applies alone",
			     git_oid_tostr_s(&s->nodes[i].id));
		if (ret == 0) {
			nr_ids = 0;
			ret = blame_missing(s->m, base, &s->nodes[i].id,
					    r.conflicts, r.nr_conflicts, &ids,
					    &nr_ids, &alloc_ids, s->cache,
					    s->warn);
			if (!ret)
				ret = add_nodes(s, ids, nr_ids, depth + 1, i);
			if (!ret && s->steps) {
				struct strbuf sb = STRBUF_INIT;

				add_paths(&sb, r.conflicts, r.nr_conflicts);
				strbuf_addstr(&sb, "; its lines were made by ");
				add_nodes_hex(&sb, s, s->nodes[i].needs,
					      s->nodes[i].nr_needs);
				step(s, "%.12s does not apply alone: conflicts "
				     "in %s", git_oid_tostr_s(&s->nodes[i].id),
				     sb.buf);
				strbuf_release(&sb);
			}
		}
		apply_result_release(&r);
		ret = ret < 0 ? -1 : 0;
	}
	free(ids);
	return ret;
}

static int needs_met(const struct node *n, const unsigned char *in)
{
	size_t i;

	for (i = 0; i < n->nr_needs; i++)
		if (in[n->needs[i]])
			return 1;
	return 0;
}

/*
 * Whether the set can work: one of the commits that made the pick's
 * lines, and for each member that does not apply alone (or was not
 * tried alone), one of those that made its own.
 */
static int can_work(const struct search *s, const unsigned char *in)
{
	size_t i;

	for (i = 0; i < s->nr_first; i++)
		if (in[s->first[i]])
			break;
	if (i == s->nr_first)
		return 0;
	for (i = 0; i < s->nr; i++)
		if (in[i] && s->nodes[i].alone == 0 &&
		    !needs_met(&s->nodes[i], in))
			return 0;
	return 1;
}

/* A member of a set, with how many of the others it descends from. */
struct ranked {
	size_t node;
	size_t above;
	git_time_t time;
};

static int cmp_ranked(const void *a, const void *b)
{
	const struct ranked *x = a, *y = b;

	if (x->above != y->above)
		return x->above < y->above ? -1 : 1;
	if (x->time != y->time)
		return x->time < y->time ? -1 : 1;
	return x->node < y->node ? -1 : x->node > y->node;
}

/*
 * Without a commit-graph, the first question of ancestry reads the
 * whole range (match-ancestry.c): half a second on 48,000 commits, five
 * on 480,000, in a weekly run whose searches are otherwise all in the
 * trial cache.  An answer never changes for two commit ids: it is kept
 * there too, as the blame of key "descends 1" (commit, ancestor) that
 * found the ancestor, or nothing.
 */
static void descends_key(unsigned char *key, const git_oid *commit,
			 const git_oid *ancestor)
{
	struct sha1 ctx;

	sha1_init(&ctx);
	sha1_update(&ctx, "descends 1", 11);
	sha1_update(&ctx, commit->id, GIT_OID_RAWSZ);
	sha1_update(&ctx, ancestor->id, GIT_OID_RAWSZ);
	sha1_final(key, &ctx);
}

static int descends_kept(struct search *s, const git_oid *commit,
			 const git_oid *ancestor)
{
	unsigned char key[SHA1_RAWSZ];
	const git_oid *kept;
	size_t n;
	int d;

	if (!s->cache || history_graph(s->m->repo))
		return match_descends(s->m, commit, ancestor);
	descends_key(key, commit, ancestor);
	kept = trialcache_find_blame(s->cache, key, &n);
	if (kept)
		return n == 1 && git_oid_equal(kept, ancestor);
	d = match_descends(s->m, commit, ancestor);
	if (d >= 0)
		trialcache_put_blame(s->cache, key, ancestor, d ? 1 : 0);
	return d;
}

/* Whether node i descends from node j, asked once: 1, 0, -1. */
static int descends(struct search *s, size_t i, size_t j)
{
	size_t pool = s->lim->pool;
	signed char *a;
	int d;

	if (!s->above) {
		s->above = xmalloc(pool * pool);
		memset(s->above, -1, pool * pool);
	}
	a = &s->above[i * pool + j];
	if (*a >= 0)
		return *a;
	d = descends_kept(s, &s->nodes[i].id, &s->nodes[j].id);
	if (d < 0)
		return error_git("cannot order %s",
				 git_oid_tostr_s(&s->nodes[i].id));
	*a = (signed char)d;
	return d;
}

/*
 * Puts the set in mainline order: a commit after those it descends
 * from (commit times tie within a series that was applied at once),
 * then by commit time.  0 or -1 after an error message.
 */
static int mainline_order(struct search *s, size_t *set, size_t k)
{
	struct ranked *r = xcalloc(k, sizeof(*r));
	size_t i, j;
	int ret = 0, d;

	for (i = 0; i < k; i++) {
		r[i].node = set[i];
		r[i].time = git_commit_time(s->nodes[set[i]].commit);
		for (j = 0; j < k && !ret; j++) {
			if (i == j)
				continue;
			d = descends(s, set[i], set[j]);
			if (d < 0)
				ret = -1;
			r[i].above += d > 0;
		}
	}
	QSORT(r, k, cmp_ranked);
	for (i = 0; i < k; i++)
		set[i] = r[i].node;
	free(r);
	return ret;
}

/* Tries the set in *pick_set (of k nodes): 1 found, 0 not, -1. */
static int try_set(struct search *s, size_t *set, size_t k)
{
	const git_commit **picks = xcalloc(k + 1, sizeof(*picks));
	size_t i;
	int ret;

	if (mainline_order(s, set, k) < 0) {
		free(picks);
		return -1;
	}
	for (i = 0; i < k; i++)
		picks[i] = s->nodes[set[i]].commit;
	picks[k] = s->pick;
	s->out->tried++;
	ret = try_series(s, picks, k + 1, NULL);
	if (ret >= 0 && s->steps) {
		struct strbuf sb = STRBUF_INIT;

		add_nodes_hex(&sb, s, set, k);
		step(s, "tried %s, then it: %s", sb.buf,
		     ret ? "applies" : "conflicts");
		strbuf_release(&sb);
	}
	free(picks);
	return ret;
}

/*
 * The sets of k nodes in order of index (the nodes are in the order
 * found: nearest the pick first), from index from on, with *chosen
 * picked so far.  1 when one was found (left in chosen), 0, -1.
 */
static int choose(struct search *s, unsigned char *in, size_t *chosen,
		  size_t nr_chosen, size_t k, size_t from)
{
	size_t i;
	int ret;

	if (nr_chosen == k) {
		size_t *set;

		if (!can_work(s, in))
			return 0;
		if (s->out->tried >= s->lim->trials)
			return 0;
		set = xcalloc(k, sizeof(*set));
		memcpy(set, chosen, k * sizeof(*set));
		ret = try_set(s, set, k);
		if (ret > 0)
			memcpy(chosen, set, k * sizeof(*set));
		free(set);
		return ret;
	}
	for (i = from; i + (k - nr_chosen) <= s->nr; i++) {
		if (s->out->tried >= s->lim->trials)
			return 0;
		in[i] = 1;
		chosen[nr_chosen] = i;
		ret = choose(s, in, chosen, nr_chosen + 1, k, i + 1);
		in[i] = 0;
		if (ret)
			return ret;
	}
	return 0;
}

static void found(struct search *s, const size_t *set, size_t k)
{
	struct applies_with *w = s->out;
	size_t i;

	w->state = WITH_FOUND;
	for (i = 0; i < k; i++) {
		const struct node *n = &s->nodes[set[i]];
		struct likely_prereq *p;
		const char *summary = git_commit_summary(n->commit);

		ALLOC_GROW(w->v, w->nr, w->alloc);
		p = &w->v[w->nr++];
		memset(p, 0, sizeof(*p));
		git_oid_cpy(&p->id, &n->id);
		git_oid_tostr(p->hex, sizeof(p->hex), &n->id);
		p->subject = xstrdup(summary ? summary : "");
		p->time = git_commit_time(n->commit);
		p->cand = candidate_list_find(s->l, &n->id);
	}
}

static int search_sets(struct search *s)
{
	unsigned char *in = xcalloc(s->nr ? s->nr : 1, 1);
	size_t *chosen = xcalloc(s->lim->size + 1, sizeof(*chosen));
	size_t k;
	int ret = 0;

	s->out->state = WITH_NONE;
	for (k = 1; k <= s->lim->size && k <= s->nr && !ret; k++) {
		ret = choose(s, in, chosen, 0, k, 0);
		if (ret > 0)
			found(s, chosen, k);
	}
	if (!ret && !s->nr_first)
		step(s, "no commit after the base that the branch lacks made "
		     "those lines: the branch has them otherwise");
	else if (!ret)
		step(s, "no set of %zu commit%s at most applies, %zu tried "
		     "(at most %zu)", s->lim->size,
		     s->lim->size == 1 ? "" : "s", s->out->tried,
		     s->lim->trials);
	free(chosen);
	free(in);
	return ret < 0 ? -1 : 0;
}

/* The proposals before c that applied in c's series, oldest first. */
static struct applywith_prefix *find_prefix(const struct candidate_list *l,
					    const struct candidate *c,
					    size_t *nr)
{
	struct applywith_prefix *v = xcalloc(l->nr ? l->nr : 1, sizeof(*v));
	int review = c->verdict == VERDICT_NEEDS_ACK;
	size_t i;

	*nr = 0;
	for (i = 0; i < l->nr && l->items[i] != c; i++) {
		const struct candidate *p = l->items[i];

		if (p->verdict != VERDICT_PROPOSED &&
		    !(review && p->verdict == VERDICT_NEEDS_ACK))
			continue;
		if (!p->apply_checked || !p->apply.applies)
			continue;
		git_oid_cpy(&v[*nr].id, &p->id);
		v[(*nr)++].res = &p->apply;
	}
	return v;
}

static void search_release(struct search *s)
{
	size_t i;

	for (i = 0; i < s->nr; i++) {
		git_commit_free(s->nodes[i].commit);
		free(s->nodes[i].needs);
		free_string_array(s->nodes[i].paths, s->nodes[i].nr_paths);
	}
	free(s->nodes);
	free(s->above);
	free(s->first);
	for (i = 0; i < s->nr_base; i++)
		git_commit_free((git_commit *)s->base[i]);
	free(s->base);
	free_string_array(s->pick_paths, s->nr_pick_paths);
	git_commit_free(s->pick);
}

static int search_one(struct search *s)
{
	int ret;

	if (git_commit_lookup(&s->pick, s->m->repo, s->id) < 0)
		return error_git("cannot read commit %s",
				 git_oid_tostr_s(s->id));
	if (git_commit_parentcount(s->pick) != 1)
		return 0;
	if (commit_paths(&s->pick_paths, &s->nr_pick_paths, s->cache,
			 s->m->repo, s->pick) < 0)
		return -1;
	s->base_stale = 1;
	ret = grow(s);
	if (!ret)
		ret = search_sets(s);
	return ret;
}

static int search(struct match *m, const struct branch_index *branch,
		  const struct candidate_list *l, struct trialcache *cache,
		  const struct applywith_limits *lim, git_commit *onto,
		  const git_oid *id, char *const *conflicts,
		  size_t nr_conflicts, const struct applywith_prefix *prefix,
		  size_t nr_prefix, struct applies_with *out,
		  struct candidate *warn, int steps)
{
	struct search s;
	int ret;

	memset(&s, 0, sizeof(s));
	s.m = m;
	s.branch = branch;
	s.l = l;
	s.cache = cache;
	s.lim = lim;
	s.onto = onto;
	s.id = id;
	s.conflicts = conflicts;
	s.nr_conflicts = nr_conflicts;
	s.prefix = prefix;
	s.nr_prefix = nr_prefix;
	s.out = out;
	s.warn = warn;
	s.steps = steps;
	ret = search_one(&s);
	search_release(&s);
	return ret;
}

static int wanted(const struct candidate *c, const struct candidate *only)
{
	if (!c->apply_checked || c->apply.applies)
		return 0;
	if (only)
		return c == only;
	if (c->listed_before)
		return 0;
	return c->verdict == VERDICT_PROPOSED ||
	       c->verdict == VERDICT_NEEDS_ACK;
}

int applywith_search(struct match *m, const struct branch_index *branch,
		     struct candidate_list *l, struct trialcache *cache,
		     const struct applywith_limits *lim,
		     struct candidate *only)
{
	git_commit *onto = NULL;
	struct progress progress;
	size_t i, nr = 0, done = 0;
	int ret = 0;

	/* No set to try: no search (stablepick.seriesTrials 0). */
	if (!lim->trials)
		return 0;
	for (i = 0; i < l->nr; i++)
		nr += wanted(l->items[i], only) &&
		      l->items[i]->with.state == WITH_UNSEARCHED;
	if (!only && nr > lim->picks)
		nr = lim->picks;
	progress_start(&progress, "Prerequisite series", nr);
	for (i = 0; i < l->nr && !ret; i++) {
		struct candidate *c = l->items[i];
		struct applywith_prefix *prefix;
		size_t nr_prefix;

		if (!wanted(c, only) || c->with.state != WITH_UNSEARCHED)
			continue;
		/* Over the run's bound: said, not searched. */
		if (!only && done >= lim->picks) {
			c->with.state = WITH_SKIPPED;
			continue;
		}
		if (interrupted()) {
			ret = -1;
			break;
		}
		progress_update(&progress, ++done);
		if (!onto && apply_onto_lookup(&onto, m->repo, &branch->tip) < 0) {
			ret = error_git("cannot read the tip of '%s'",
					branch->name);
			break;
		}
		prefix = find_prefix(l, c, &nr_prefix);
		ret = search(m, branch, l, cache, lim, onto, &c->id,
			     c->apply.conflicts, c->apply.nr_conflicts, prefix,
			     nr_prefix, &c->with, c, only != NULL);
		free(prefix);
	}
	progress_stop(&progress);
	git_commit_free(onto);
	return ret;
}

int applywith_one(struct match *m, const struct branch_index *branch,
		  const struct candidate_list *l, struct trialcache *cache,
		  const struct applywith_limits *lim, const git_oid *id,
		  char *const *conflicts, size_t nr_conflicts,
		  const struct applywith_prefix *prefix, size_t nr_prefix,
		  struct applies_with *out)
{
	git_commit *onto = NULL;
	int ret;

	if (!lim->trials)
		return 0;
	if (apply_onto_lookup(&onto, m->repo, &branch->tip) < 0)
		return error_git("cannot read the tip of '%s'", branch->name);
	ret = search(m, branch, l, cache, lim, onto, id, conflicts,
		     nr_conflicts, prefix, nr_prefix, out, NULL, 0);
	git_commit_free(onto);
	return ret;
}
