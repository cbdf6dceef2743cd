/*
 * The scanner (scan.h): the walk of a range, the candidates filled from
 * their commits, and the replay of what the cache holds of a range.
 * The watched paths are in scan-paths.c, what a candidate fixes in
 * scan-fixes.c, revisions and shallow clones in scan-refs.c.
 */
#include "stages/scan.h"
#include "stages/scan-internal.h"
#include "base/error.h"
#include "git/history.h"
#include "git/malformed.h"
#include "git/objcache.h"
#include "base/trace.h"
#include "git/treediff.h"
#include "base/strbuf.h"
#include "base/util.h"

#include <fnmatch.h>
#include <stdio.h>
#include <string.h>

static void free_bloom_keys(struct scan *s);

void scan_init(struct scan *s, git_repository *repo, struct ruleset *rules)
{
	memset(s, 0, sizeof(*s));
	s->repo = repo;
	s->rules = rules;
	candidate_list_init(&s->candidates);
}

void scan_release(struct scan *s)
{
	free_string_array(s->only, s->nr_only);
	free(s->range);
	scan_watch_free(s->watch);
	candidate_list_release(&s->candidates);
	soak_tags_release(&s->soak_tags);
	scan_memo_free(s->own_memo);
	history_links_release(&s->links);
	free_bloom_keys(s);
	memset(s, 0, sizeof(*s));
}

void scan_reset(struct scan *s)
{
	candidate_list_release(&s->candidates);
	candidate_list_init(&s->candidates);
	scan_memo_free(s->own_memo);
	s->own_memo = NULL;
	s->memo = NULL;
	history_links_release(&s->links);
	s->walked = s->merges = s->replayed = s->left_out = 0;
}

int scan_resolve_range(git_repository *repo, const char *range,
		       git_oid *from, git_oid *to)
{
	const char *dots = strstr(range, "..");
	char *a, *b;
	int ret;

	if (!dots || dots == range || !dots[2] || dots[2] == '.' ||
	    strstr(dots + 2, ".."))
		return error("'%s' is not a range (expected A..B)", range);
	a = xstrndup(range, (size_t)(dots - range));
	b = xstrdup(dots + 2);
	ret = scan_resolve(repo, a, "--range", from);
	if (!ret)
		ret = scan_resolve(repo, b, "--range", to);
	free(a);
	free(b);
	return ret;
}

int scan_set_range(struct scan *s, const char *range)
{
	int ret = scan_resolve_range(s->repo, range, &s->from, &s->to);

	if (ret)
		return ret;
	s->has_from = 1;
	free(s->range);
	s->range = xstrdup(range);
	return 0;
}

void scan_set_range_oids(struct scan *s, const git_oid *from,
			 const git_oid *to, const char *desc)
{
	git_oid_cpy(&s->from, from);
	git_oid_cpy(&s->to, to);
	s->has_from = 1;
	free(s->range);
	s->range = xstrdup(desc);
}

void scan_set_only(struct scan *s, const char *list)
{
	const char *p = list;

	while (*p) {
		size_t len = strcspn(p, ", ");

		if (len) {
			s->only = xrealloc(s->only, (s->nr_only + 1) * sizeof(*s->only));
			s->only[s->nr_only++] = xstrndup(p, len);
		}
		p += len;
		p += strspn(p, ", ");
	}
}

static int policy_rank(enum policy p)
{
	return p == POLICY_OPT_IN ? 0 : 1;
}

/*
 * The primary subsystem is the strictest one touched (opt-in before
 * heuristic), then the first defined: a commit that touches XFS needs
 * XFS's ack even if it also touches iomap.
 */
static void order_touched(struct candidate *c)
{
	size_t i, best = 0;

	for (i = 1; i < c->nr_touched; i++) {
		const struct subsystem *a = c->touched[i], *b = c->touched[best];

		if (policy_rank(a->policy) < policy_rank(b->policy) ||
		    (policy_rank(a->policy) == policy_rank(b->policy) &&
		     subsystem_cmp(a, b) < 0))
			best = i;
	}
	if (best) {
		const struct subsystem *tmp = c->touched[0];

		c->touched[0] = c->touched[best];
		c->touched[best] = tmp;
	}
}

static int spec_matches(const char *spec, const char *path)
{
	size_t len = strlen(spec);
	const char *slash;

	if (len && spec[len - 1] == '/')
		return !strncmp(spec, path, len);
	slash = strrchr(spec, '/');
	if (!slash)
		return !strchr(path, '/') && !fnmatch(spec, path, 0);
	len = (size_t)(slash - spec) + 1;
	return !strncmp(spec, path, len) && !strchr(path + len, '/') &&
	       !fnmatch(slash + 1, path + len, 0);
}


/*
 * From one diff of the change: the touched paths, for rules that match
 * them (the files under a spec of a touched subsystem), and the key of
 * all its paths, for presence by patch-id (treediff_pathkey()).
 */
static int fill_paths(struct scan *s, struct candidate *c, git_tree *a,
		      git_tree *b)
{
	struct treediff d = TREEDIFF_INIT;
	size_t n, i, j;

	if (treediff_trees(&d, s->repo, a, b) < 0) {
		treediff_release(&d);
		return -1;
	}
	for (n = 0; !c->paths_known && n < d.nr; n++) {
		const char *path = d.items[n].path;
		int hit = 0;

		for (i = 0; !hit && i < c->nr_touched; i++)
			for (j = 0; !hit && j < c->touched[i]->nr_paths; j++)
				hit = spec_matches(c->touched[i]->paths[j], path);
		if (!hit)
			continue;
		ALLOC_GROW(c->paths, c->nr_paths, c->alloc_paths);
		c->paths[c->nr_paths++] = xstrdup(path);
		if (!d.items[n].old_mode)
			continue;
		ALLOC_GROW(c->old_paths, c->nr_old_paths, c->alloc_old_paths);
		c->old_paths[c->nr_old_paths++] = xstrdup(path);
	}
	c->paths_known = 1;
	treediff_key(c->pathkey, &d);
	c->has_pathkey = 1;
	treediff_release(&d);
	return 0;
}

/*
 * Reads the tree id into *out; an error names it as the tree of the
 * commit hex (the first parent of child, when child is not NULL).
 */
static int read_tree(git_tree **out, git_repository *repo, const git_oid *id,
		     const char *hex, const git_oid *child)
{
	char tid[GIT_OID_HEXSZ + 1], cid[GIT_OID_HEXSZ + 1];

	if (!git_tree_lookup(out, repo, id))
		return 0;
	git_oid_tostr(tid, sizeof(tid), id);
	if (!child)
		return error_git("cannot read tree %s of commit %.12s", tid,
				 hex);
	git_oid_tostr(cid, sizeof(cid), child);
	return error_git("cannot read tree %s of commit %.12s, the parent "
			 "of %.12s", tid, hex, cid);
}

/*
 * The trees of a commit and of its first parent (NULL for a root).  An
 * object that cannot be read (missing, or a damaged pack) is named by
 * its id: libgit2 names it only when it is missing.
 */
static int commit_trees(const git_commit *commit, const char *hex,
			git_tree **tree, git_tree **ptree)
{
	git_repository *repo = git_commit_owner(commit);
	char pid[GIT_OID_HEXSZ + 1];
	git_oid ptid;

	*tree = *ptree = NULL;
	if (read_tree(tree, repo, git_commit_tree_id(commit), hex, NULL) < 0)
		return -1;
	if (!git_commit_parentcount(commit))
		return 0;
	git_oid_tostr(pid, sizeof(pid), git_commit_parent_id(commit, 0));
	/* A malformed parent still has its tree. */
	if (malformed_tree_id(&ptid, repo, git_commit_parent_id(commit, 0)) < 0)
		return error_git("cannot read commit %s, the parent of %.12s",
				 pid, hex);
	return read_tree(ptree, repo, &ptid, pid, git_commit_id(commit));
}

/*
 * fill() once c has its author, date and message (from the commit or
 * from the scan cache); commit NULL: read when the trees are wanted.
 */
static int fill_parsed(struct scan *s, struct candidate *c,
		       const git_commit *commit, git_tree *have_tree,
		       git_tree *have_ptree)
{
	git_tree *tree = have_tree, *ptree = have_ptree;
	git_commit *read = NULL;
	int ret = 0;

	message_parse(&c->msg, c->raw, strlen(c->raw));
	message_read_backports(&c->msg, c->raw, strlen(c->raw), s->rules);
	scan_read_links(s->rules, c);

	/* The trees only when the cache did not say what they tell. */
	if (!tree && (!c->nr_touched || !c->has_pathkey || !c->paths_known)) {
		if (!commit && git_commit_lookup(&read, s->repo, &c->id) < 0) {
			ret = error_git("cannot read commit %s", c->hex);
			goto out;
		}
		if ((ret = commit_trees(commit ? commit : read, c->hex, &tree,
					&ptree)) < 0)
			goto out;
	}
	if (!c->nr_touched)
		ret = scan_watch_diff(s, ptree, tree, c);
	if (ret)
		goto out;
	/* A commit from outside the watch (audit, tests) still fixes. */
	if (c->nr_touched) {
		order_touched(c);
		if ((!c->has_pathkey || !c->paths_known) &&
		    (ret = fill_paths(s, c, ptree, tree)) < 0)
			goto out;
	}
	scan_resolve_fixes(s->repo, c);
out:
	if (!have_tree) {
		git_tree_free(ptree);
		git_tree_free(tree);
	}
	git_commit_free(read);
	return ret;
}

/*
 * scan_fill() with the commit's trees when the caller has them (tree
 * NULL: read here when needed).
 */
static int fill(struct scan *s, struct candidate *c, const git_commit *commit,
		git_tree *have_tree, git_tree *have_ptree)
{
	const git_signature *author = git_commit_author(commit);
	const char *raw = git_commit_message(commit);
	struct strbuf sb = STRBUF_INIT;

	strbuf_addf(&sb, "%s <%s>", author->name, author->email);
	c->author = strbuf_detach(&sb, NULL);
	c->time = author->when.time;
	c->tz_offset = author->when.offset;
	c->raw = xstrdup(raw ? raw : "");
	return fill_parsed(s, c, commit, have_tree, have_ptree);
}

int scan_fill(struct scan *s, struct candidate *c, const git_commit *commit)
{
	return fill(s, c, commit, NULL, NULL);
}

/*
 * Which watched subsystems a commit changes, into probe->touched; the
 * cheap test every walked commit goes through.
 */
static int scan_touches(struct scan *s, const git_commit *commit,
			struct candidate *probe, git_tree **tree,
			git_tree **ptree)
{
	git_oid_tostr(probe->hex, sizeof(probe->hex), git_commit_id(commit));
	if (commit_trees(commit, probe->hex, tree, ptree) < 0)
		return -1;
	return scan_watch_diff(s, *ptree, *tree, probe);
}

/*
 * The same with the trees the walk read (hc->has_trees): the commit
 * itself is read only when it touches a watched path.
 */
static int range_touches(struct scan *s, const struct history_range *range,
			 const struct history_commit *hc,
			 struct candidate *probe, git_tree **tree,
			 git_tree **ptree)
{
	char pid[GIT_OID_HEXSZ + 1];

	*tree = *ptree = NULL;
	git_oid_tostr(probe->hex, sizeof(probe->hex), &hc->id);
	if (read_tree(tree, s->repo, &hc->tree, probe->hex, NULL) < 0)
		return -1;
	if (hc->nr_parents) {
		git_oid_tostr(pid, sizeof(pid), history_parent(range, hc, 0));
		if (read_tree(ptree, s->repo, &hc->parent_tree, pid,
			      &hc->id) < 0)
			return -1;
	}
	return scan_watch_diff(s, *ptree, *tree, probe);
}

int scan_commit_touches(struct scan *s, const git_commit *commit)
{
	struct candidate probe;
	git_tree *tree = NULL, *ptree = NULL;
	int ret;

	memset(&probe, 0, sizeof(probe));
	ret = scan_touches(s, commit, &probe, &tree, &ptree);
	git_tree_free(ptree);
	git_tree_free(tree);
	free(probe.touched);
	return ret < 0 ? ret : probe.nr_touched > 0;
}

int scan_reaches_from(const struct scan *s)
{
	if (!s->has_from || git_oid_equal(&s->from, &s->to))
		return 1;
	return s->memo && s->memo->reaches_from;
}

static int cmp_oid(const void *a, const void *b)
{
	return git_oid_cmp(a, b);
}

int scan_in_range(const struct scan *s, const git_oid *id)
{
	return s->memo ? scan_memo_in_range(s->memo, id) : -1;
}

static int wants_soak(const struct scan *s)
{
	size_t i;

	for (i = 0; i < s->rules->nr_subsystems; i++) {
		const struct subsystem *sub = s->rules->subsystems[i];

		/* A template's derived ones may be made by the walk. */
		if (sub->soak_release &&
		    (sub->is_template || scan_wanted(s, sub)))
			return 1;
	}
	return 0;
}

/*
 * The digest of what decides which commits a walk keeps and how it
 * describes them: the subsystems the rules define, in order, with
 * their policies, their paths and whether they are wanted, the
 * templates, and whether soak marks are painted.
 */
static void watch_key(const struct scan *s, unsigned char *key)
{
	struct sha1 ctx;
	size_t i, j;
	char buf[32];

	sha1_init(&ctx);
	snprintf(buf, sizeof(buf), "scan %d soak %d\n", SCANCACHE_VERSION,
		 s->soak_painted);
	sha1_update(&ctx, buf, strlen(buf));
	for (i = 0; i < s->rules->nr_subsystems; i++) {
		const struct subsystem *sub = s->rules->subsystems[i];

		if (!sub->file)
			continue;
		sha1_update(&ctx, sub->name, strlen(sub->name) + 1);
		snprintf(buf, sizeof(buf), "%d %d", (int)sub->policy,
			 sub->is_template || scan_wanted(s, sub));
		sha1_update(&ctx, buf, strlen(buf) + 1);
		for (j = 0; j < sub->nr_paths; j++)
			sha1_update(&ctx, sub->paths[j], strlen(sub->paths[j]) + 1);
		sha1_update(&ctx, "\n", 1);
	}
	for (i = 0; i < s->nr_only; i++)
		sha1_update(&ctx, s->only[i], strlen(s->only[i]) + 1);
	sha1_final(key, &ctx);
}

/*
 * How a memo names a subsystem: a defined one by its name, a derived
 * one by its directory ("fs/reiserfs/"), so that a later run can
 * derive it again from its template.
 */
static const char *memo_name(const struct subsystem *sub)
{
	return sub->file || !sub->nr_paths ? sub->name : sub->paths[0];
}

/* The subsystem a memo's name stands for, derived again if need be. */
static const struct subsystem *subsystem_named(const struct scan *s,
					       const char *name)
{
	const char *slash = strrchr(name, '/'), *dir;
	size_t i, j;

	if (!slash)
		return ruleset_subsystem(s->rules, name);
	/* "fs/reiserfs/": a directory of the template of "fs/\*\/". */
	for (dir = slash; dir > name && dir[-1] != '/'; dir--)
		;
	if (dir == slash)
		return NULL;
	for (i = 0; i < s->rules->nr_subsystems; i++) {
		const struct subsystem *t = s->rules->subsystems[i];

		for (j = 0; t->is_template && j < t->nr_paths; j++) {
			size_t plen = strlen(t->paths[j]) - 2;

			if (plen == (size_t)(dir - name) &&
			    !strncmp(t->paths[j], name, plen)) {
				char *sub = xstrndup(dir, (size_t)(slash - dir));
				const struct subsystem *d;

				d = ruleset_add_derived(s->rules, t, sub, name);
				free(sub);
				return d;
			}
		}
	}
	return NULL;
}

static int tag_index(const struct soak_tag *v, size_t nr, const char *name)
{
	size_t i;

	for (i = 0; i < nr; i++)
		if (!strcmp(v[i].name, name))
			return (int)i;
	return -1;
}

/* Records candidate c, just scanned, in the memo being built. */
static void memo_add(struct scan *s, struct scan_memo *m,
		     const struct candidate *c)
{
	struct scan_memo_hit *h;
	size_t i;

	ALLOC_GROW(m->hits, m->nr_hits, m->alloc_hits);
	h = &m->hits[m->nr_hits++];
	memset(h, 0, sizeof(*h));
	git_oid_cpy(&h->id, &c->id);
	h->settled = c->soak_settled;
	h->release = c->soak.release < 0 ? -1 :
		(int32_t)scan_memo_tag(m, s->soak_tags.releases[c->soak.release].name);
	h->rc = c->soak.rc < 0 ? -1 :
		(int32_t)scan_memo_tag(m, s->soak_tags.rcs[c->soak.rc].name);
	h->nr_touched = c->nr_touched;
	h->touched = xcalloc(c->nr_touched ? c->nr_touched : 1,
			     sizeof(*h->touched));
	for (i = 0; i < c->nr_touched; i++)
		h->touched[i] = scan_memo_name(m, memo_name(c->touched[i]));
	h->has_pathkey = c->has_pathkey;
	memcpy(h->pathkey, c->pathkey, sizeof(h->pathkey));
	h->paths_known = c->paths_known;
	h->nr_paths = h->paths_known ? c->nr_paths : 0;
	h->paths = xcalloc(h->nr_paths ? h->nr_paths : 1, sizeof(*h->paths));
	for (i = 0; i < h->nr_paths; i++)
		h->paths[i] = xstrdup(c->paths[i]);
	h->nr_old_paths = h->paths_known ? c->nr_old_paths : 0;
	h->old_paths = xcalloc(h->nr_old_paths ? h->nr_old_paths : 1,
			       sizeof(*h->old_paths));
	for (i = 0; i < h->nr_old_paths; i++)
		h->old_paths[i] = xstrdup(c->old_paths[i]);
	h->author = xstrdup(c->author);
	h->time = c->time;
	h->tz_offset = c->tz_offset;
	h->raw = xstrdup(c->raw);
}

/*
 * The subsystems memo m names, in its order, or NULL when one no longer
 * exists: the memo cannot stand for its part of the range.  (The key
 * already says the watch set is the same; this guards against a digest
 * collision or a bug.)
 */
static const struct subsystem **memo_subsystems(const struct scan *s,
						const struct scan_memo *m)
{
	const struct subsystem **v = xcalloc(m->nr_names ? m->nr_names : 1,
					     sizeof(*v));
	size_t i;

	for (i = 0; i < m->nr_names; i++)
		if (!(v[i] = subsystem_named(s, m->names[i]))) {
			free(v);
			return NULL;
		}
	return v;
}

/*
 * Whether a tag the memo did not know points into its range: a tag
 * pushed after its commit was scanned (v6.7 on a tip already seen),
 * whose marks no walk painted.
 */
static int tagged_inside(const struct scan *s, const struct scan_memo *m)
{
	const struct soak_tag *v[2] = { s->soak_tags.releases, s->soak_tags.rcs };
	size_t nr[2] = { s->soak_tags.nr_releases, s->soak_tags.nr_rcs };
	size_t k, i, j;

	for (k = 0; s->soak_painted && k < 2; k++) {
		for (i = 0; i < nr[k]; i++) {
			for (j = 0; j < m->nr_tags; j++)
				if (!strcmp(m->tags[j], v[k][i].name))
					break;
			if (j == m->nr_tags &&
			    scan_memo_in_range(m, &v[k][i].commit))
				return 1;
		}
	}
	return 0;
}

/*
 * Adds the hits of memo m as candidates, after those the walk found.
 * beyond: the walk painted tags down to the memo's range.  When at_end,
 * the mark at the memo's end, is the lowest so passed on (exact), every
 * cached mark takes it in; else a mark that lacks a release or a release
 * candidate may be out of date, and such candidates ask the commit graph
 * instead; so do those that lack one when tagged, a tag the memo did
 * not know points into its range.
 */
static int replay(struct scan *s, const struct scan_memo *m,
		  const struct subsystem **subs, struct scan_memo *into,
		  int beyond, int exact, const struct soak_mark *at_end,
		  int tagged)
{
	int unsettle = (beyond && !exact) || tagged;
	int *rel = xcalloc(m->nr_tags ? m->nr_tags : 1, sizeof(int));
	int *rc = xcalloc(m->nr_tags ? m->nr_tags : 1, sizeof(int));
	size_t i, j;
	int ret = 0;

	for (i = 0; i < m->nr_tags; i++) {
		rel[i] = tag_index(s->soak_tags.releases, s->soak_tags.nr_releases,
				   m->tags[i]);
		rc[i] = tag_index(s->soak_tags.rcs, s->soak_tags.nr_rcs, m->tags[i]);
	}
	for (i = 0; !ret && i < m->nr_hits; i++) {
		const struct scan_memo_hit *h = &m->hits[i];
		struct candidate *c;

		c = candidate_list_add(&s->candidates, &h->id);
		for (j = 0; j < h->nr_touched; j++)
			scan_touch(s, c, subs[h->touched[j]]);
		c->has_pathkey = h->has_pathkey;
		memcpy(c->pathkey, h->pathkey, sizeof(c->pathkey));
		if (h->paths_known) {
			c->paths_known = 1;
			for (j = 0; j < h->nr_old_paths; j++) {
				ALLOC_GROW(c->old_paths, c->nr_old_paths,
					   c->alloc_old_paths);
				c->old_paths[c->nr_old_paths++] =
					xstrdup(h->old_paths[j]);
			}
			for (j = 0; j < h->nr_paths; j++) {
				ALLOC_GROW(c->paths, c->nr_paths, c->alloc_paths);
				c->paths[c->nr_paths++] = xstrdup(h->paths[j]);
			}
		}
		c->soak.release = h->release < 0 ? -1 : rel[h->release];
		c->soak.rc = h->rc < 0 ? -1 : rc[h->rc];
		if (beyond && exact)
			soak_mark_min(&c->soak, at_end);
		c->soak_settled = h->settled && s->soak_painted &&
			(h->release < 0 || c->soak.release >= 0) &&
			(h->rc < 0 || c->soak.rc >= 0) &&
			!(unsettle && (c->soak.release < 0 || c->soak.rc < 0));
		/* The commit itself is not read: the cache has its text. */
		c->author = xstrdup(h->author);
		c->time = h->time;
		c->tz_offset = h->tz_offset;
		c->raw = xstrdup(h->raw);
		ret = fill_parsed(s, c, NULL, NULL, NULL);
		if (!ret)
			memo_add(s, into, c);
		s->replayed++;
	}
	free(rel);
	free(rc);
	return ret;
}

static void free_bloom_keys(struct scan *s)
{
	size_t i;

	for (i = 0; i < s->nr_bloom; i++)
		commit_graph_bloom_key_release(&s->bloom[i]);
	free(s->bloom);
	s->bloom = NULL;
	s->nr_bloom = 0;
	s->bloom_watch = NULL;
}

/*
 * The Bloom filter keys of the watched paths into s->bloom, when the
 * repository's commit-graph has changed-path filters and the watch is
 * bounded; their number.
 */
static size_t bloom_keys(struct scan *s, const struct commit_graph *g)
{
	struct scan_keys keys = { NULL, 0, 0 };
	size_t i;

	if (s->bloom_watch == s->watch)
		return s->nr_bloom;
	free_bloom_keys(s);
	s->bloom_watch = s->watch;
	if (g && commit_graph_has_bloom(g) && !scan_watch_keys(s, &keys) &&
	    keys.nr) {
		s->bloom = xcalloc(keys.nr, sizeof(*s->bloom));
		for (i = 0; i < keys.nr; i++)
			commit_graph_bloom_key(g, keys.v[i], &s->bloom[i]);
		s->nr_bloom = keys.nr;
	}
	free_string_array(keys.v, keys.nr);
	return s->nr_bloom;
}

/*
 * Whether the commit at graph position pos may change a watched path:
 * 0 only when its Bloom filter says it changed none (a filter never
 * wrongly says no).
 */
static int may_touch(struct scan *s, const struct commit_graph *g,
		     uint32_t pos)
{
	return !s->watch || pos == HISTORY_NO_POS || !bloom_keys(s, g) ||
	       commit_graph_bloom_maybe(g, pos, s->bloom, s->nr_bloom) != 0;
}

int scan_commit_may_touch(struct scan *s, const git_oid *id)
{
	const struct commit_graph *g = history_graph(s->repo);
	uint32_t pos;

	return !g || !commit_graph_find(g, id, &pos) || may_touch(s, g, pos);
}

/*
 * Walks s->to, hiding s->from and (when not NULL) stop, keeping the
 * commits that touch a watched path as candidates, newest first.
 * *painted_beyond tells whether soak marks were passed on to commits
 * the walk did not reach.
 */
static int walk(struct scan *s, const git_oid *stop, struct scan_memo *memo,
		int *painted_beyond, int *exact, struct soak_mark *at_stop)
{
	const struct commit_graph *g = history_graph(s->repo);
	struct history_range range;
	git_oid hide[2], *shallow = NULL;
	struct soak_paint paint;
	struct soak_mark mark;
	size_t nr_shallow = 0, nr_hide = 0, nr_keys = 0, skipped = 0, k;
	int ret, paused = 0;

	if ((ret = scan_read_shallow(s->repo, &shallow, &nr_shallow)) < 0)
		return ret;
	soak_paint_init(&paint, &s->soak_tags);
	mark.release = mark.rc = -1;
	if (s->has_from)
		git_oid_cpy(&hide[nr_hide++], &s->from);
	if (stop)
		git_oid_cpy(&hide[nr_hide++], stop);
	/*
	 * The walk reads each commit of the range once (without a graph),
	 * and the loop below reads again only those that change a watched
	 * path (the walk gave every tree id): no commit is kept in
	 * libgit2's cache.
	 */
	objcache_pause_commits();
	if (history_range(&range, s->repo, &s->to, hide, nr_hide) < 0) {
		ret = nr_shallow ? scan_shallow_error(s->repo, s->range)
				 : error_git("cannot walk %s", s->range);
		goto out;
	}
	nr_keys = bloom_keys(s, g);
	progress_set_total(&s->progress, range.nr);
	/*
	 * Each tree is read about once: none is cached (the trial picks
	 * after keep those they read again in treememo.h).
	 */
	objcache_pause_trees();
	paused = 1;
	for (k = 0; k < range.nr; k++) {
		const struct history_commit *hc = &range.items[k];
		const git_oid *id = &hc->id;
		git_tree *tree = NULL, *ptree = NULL;
		git_commit *commit = NULL;
		struct candidate *c, probe;
		unsigned int i;

		if (interrupted()) {
			ret = -1;
			goto out;
		}
		s->walked++;
		memo->walked++;
		ALLOC_GROW(memo->range, memo->nr_range, memo->alloc_range);
		git_oid_cpy(&memo->range[memo->nr_range++], id);
		progress_update(&s->progress, s->walked);
		if (nr_shallow && scan_is_shallow(shallow, nr_shallow, id)) {
			if (git_commit_lookup(&commit, s->repo, id) < 0) {
				ret = error_git("cannot read commit %s in %s",
						git_oid_tostr_s(id), s->range);
				goto out;
			}
			if (scan_history_cut(s->repo, commit)) {
				git_commit_free(commit);
				ret = scan_shallow_error(s->repo, s->range);
				goto out;
			}
		}
		if (s->soak_painted)
			soak_paint_visit(&paint, id, history_parent(&range, hc, 0),
					 hc->nr_parents, &mark);
		for (i = 0; s->has_from && !memo->reaches_from &&
			    i < hc->nr_parents; i++)
			memo->reaches_from = git_oid_equal(history_parent(&range, hc, i),
							   &s->from);
		if (hc->nr_parents > 1) {
			s->merges++;
			memo->merges++;
			git_commit_free(commit);
			continue;
		}
		if (!may_touch(s, g, hc->graph_pos)) {
			skipped++;
			git_commit_free(commit);
			continue;
		}
		memset(&probe, 0, sizeof(probe));
		/*
		 * With the trees the walk read, a commit is read only when
		 * it touches a watched path (a commit libgit2 cannot parse
		 * is then said and passed over, as below).
		 */
		if (!commit && hc->has_trees) {
			ret = range_touches(s, &range, hc, &probe, &tree,
					    &ptree);
			if (ret < 0 || !probe.nr_touched)
				goto walked;
		}
		if (!commit && (ret = malformed_lookup(&commit, s->repo, id))) {
			free(probe.touched);
			git_tree_free(ptree);
			git_tree_free(tree);
			if (ret > 0) {
				/* Warned; walked through, never scored. */
				s->malformed++;
				ret = 0;
				continue;
			}
			ret = error_git("cannot read commit %s in %s",
					git_oid_tostr_s(id), s->range);
			goto out;
		}
		if (!tree)
			ret = scan_touches(s, commit, &probe, &tree, &ptree);
walked:
		if (!ret && !probe.nr_touched && probe.left_out) {
			s->left_out++;
			memo->left_out++;
		}
		if (!ret && probe.nr_touched) {
			c = candidate_list_add(&s->candidates, id);
			c->touched = probe.touched;
			c->nr_touched = probe.nr_touched;
			c->alloc_touched = probe.alloc_touched;
			probe.touched = NULL;
			c->soak = mark;
			c->soak_settled = s->soak_painted;
			ret = fill(s, c, commit, tree, ptree);
			if (!ret)
				memo_add(s, memo, c);
		}
		free(probe.touched);
		git_tree_free(ptree);
		git_tree_free(tree);
		git_commit_free(commit);
		if (ret < 0)
			goto out;
	}
	trace_printf("walk: %zu commits, %s, %zu of them passed over by "
		     "their Bloom filters%s", range.nr, range.from_graph ?
		     "on the commit-graph" : "read from their objects", skipped,
		     nr_keys ? "" : " (no filters)");
	*painted_beyond = soak_paint_pending(&paint);
	if (stop)
		*exact = soak_paint_lowest_at(&paint, stop, at_stop);
	/* The range is memo->range: its links cost 12 bytes a commit. */
	else if (!g && s->has_from) {
		history_links_release(&s->links);
		history_range_links(&s->links, NULL, &range);
	}
out:
	if (paused)
		objcache_resume_trees();
	objcache_resume_commits();
	history_range_release(&range);
	soak_paint_release(&paint);
	free(shallow);
	return ret;
}

int scan_run(struct scan *s)
{
	const struct scan_memo *old = NULL;
	struct scan_memo *memo;
	struct soak_mark at_end = { -1, -1 };
	const struct subsystem **subs = NULL;
	int ret, beyond = 0, exact = 0;
	size_t i;

	if ((ret = scan_prepare(s)) < 0)
		return ret;
	if (!s->soak_painted && wants_soak(s)) {
		if (soak_tags_load_all(&s->soak_tags, s->repo, s->rules) < 0)
			return -1;
		s->soak_painted = 1;
	}
	memo = scan_memo_new();
	watch_key(s, memo->key);
	memo->has_from = s->has_from;
	git_oid_cpy(&memo->from, &s->from);
	git_oid_cpy(&memo->to, &s->to);
	if (s->cache)
		old = scancache_find(s->cache, memo->key,
				     s->has_from ? &s->from : NULL);
	if (old && !(subs = memo_subsystems(s, old)))
		old = NULL;
	/* Only what is new since the memo's end: it must be an ancestor. */
	if (old && !git_oid_equal(&old->to, &s->to) &&
	    history_descendant_of(s->repo, &s->to, &old->to) != 1) {
		git_error_clear();
		old = NULL;
	}
	progress_start(&s->progress, "Scanning", 0);
	if (!old || !git_oid_equal(&old->to, &s->to)) {
		ret = walk(s, old ? &old->to : NULL, memo, &beyond, &exact,
			   &at_end);
	}
	if (!ret && old) {
		s->walked += old->walked;
		s->merges += old->merges;
		s->left_out += old->left_out;
		memo->walked += old->walked;
		memo->merges += old->merges;
		memo->left_out += old->left_out;
		memo->reaches_from |= old->reaches_from;
		ret = replay(s, old, subs, memo, beyond, exact, &at_end,
			     tagged_inside(s, old));
		ALLOC_GROW_BY(memo->range, memo->nr_range, old->nr_range,
			      memo->alloc_range);
		memcpy(memo->range + memo->nr_range - old->nr_range, old->range,
		       old->nr_range * sizeof(*old->range));
	}
	free(subs);
	/* Every tag known now: the next run tells the new ones by them. */
	for (i = 0; s->soak_painted && i < s->soak_tags.nr_releases; i++)
		scan_memo_tag(memo, s->soak_tags.releases[i].name);
	for (i = 0; s->soak_painted && i < s->soak_tags.nr_rcs; i++)
		scan_memo_tag(memo, s->soak_tags.rcs[i].name);
	QSORT(memo->range, memo->nr_range, cmp_oid);
	progress_stop(&s->progress);
	if (ret < 0) {
		scan_memo_free(memo);
		return ret;
	}
	trace_printf("scan: %zu commits in %s, %zu of them walked, %zu "
		     "candidates from the cache%s", memo->walked, s->range,
		     memo->walked - (old ? old->walked : 0), s->replayed,
		     !old || !beyond ? "" : exact ? " (new tags passed on)" :
		     " (soak marks rechecked)");
	/* The range stays known to the run (deps asks it), cache or not. */
	if (s->cache && !s->malformed)
		scancache_put(s->cache, memo);	/* frees old */
	else
		s->own_memo = memo;
	s->memo = memo;

	/* The walk gives newest first; the pipeline wants oldest first. */
	for (i = 0; i < s->candidates.nr / 2; i++) {
		struct candidate **it = s->candidates.items;
		struct candidate *tmp = it[i];

		it[i] = it[s->candidates.nr - 1 - i];
		it[s->candidates.nr - 1 - i] = tmp;
	}
	for (i = 0; i < s->candidates.nr; i++)
		s->candidates.items[i]->order = i;
	return 0;
}
