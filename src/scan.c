#include "scan.h"
#include "error.h"
#include "trace.h"
#include "treediff.h"
#include "strbuf.h"
#include "util.h"

#include <errno.h>
#include <fnmatch.h>
#include <stdio.h>
#include <string.h>

/*
 * The watched paths as a tree of path components.  A node ends a
 * directory spec ("fs/xfs/") when it has owners; file globs ("fs/\*.c")
 * hang off the node of their directory; a template ("fs/\*\/") hangs
 * off the node of the directory whose directories it stands for.
 *
 * Every subsystem's specs are in the tree, wanted or not, ignored or
 * not: a spec covers its paths, so that a template does not take them
 * for a directory of its own (see watch_diff()).  touch() decides what
 * counts.
 */
struct watch_glob {
	char *pattern;
	const struct subsystem *owner;
};

struct watch_node {
	char *name;
	char *path;			/* "fs/" up to here, with templates */
	struct watch_node **kids;
	size_t nr_kids, alloc_kids;
	const struct subsystem **owners;
	size_t nr_owners, alloc_owners;
	struct watch_glob *globs;
	size_t nr_globs, alloc_globs;
	const struct subsystem **templates;
	size_t nr_templates, alloc_templates;
};

static struct watch_node *watch_new(const char *name, size_t len)
{
	struct watch_node *n = xcalloc(1, sizeof(*n));

	n->name = xstrndup(name, len);
	return n;
}

static void watch_free(struct watch_node *n)
{
	size_t i;

	if (!n)
		return;
	for (i = 0; i < n->nr_kids; i++)
		watch_free(n->kids[i]);
	for (i = 0; i < n->nr_globs; i++)
		free(n->globs[i].pattern);
	free(n->kids);
	free(n->owners);
	free(n->globs);
	free(n->templates);
	free(n->path);
	free(n->name);
	free(n);
}

static struct watch_node *watch_kid(const struct watch_node *n,
				    const char *name, size_t len)
{
	size_t i;

	for (i = 0; i < n->nr_kids; i++)
		if (strlen(n->kids[i]->name) == len &&
		    !memcmp(n->kids[i]->name, name, len))
			return n->kids[i];
	return NULL;
}

static struct watch_node *watch_child(struct watch_node *n, const char *name,
				      size_t len)
{
	struct watch_node *k = watch_kid(n, name, len);

	if (k)
		return k;
	ALLOC_GROW(n->kids, n->nr_kids, n->alloc_kids);
	n->kids[n->nr_kids] = watch_new(name, len);
	return n->kids[n->nr_kids++];
}

/*
 * Adds "a/b/" (a directory), "a/glob" (files in a) or, for a template,
 * "a/\*\/" (every directory in a) for subsystem s.
 */
static void watch_add(struct watch_node *root, const char *spec,
		      const struct subsystem *s)
{
	struct watch_node *n = root;
	const char *p = spec, *slash;

	while ((slash = strchr(p, '/'))) {
		if (s->is_template && !strcmp(p, "*/"))
			break;
		n = watch_child(n, p, (size_t)(slash - p));
		p = slash + 1;
	}
	if (s->is_template) {
		if (!n->path)
			n->path = xstrndup(spec, (size_t)(p - spec));
		ALLOC_GROW(n->templates, n->nr_templates, n->alloc_templates);
		n->templates[n->nr_templates++] = s;
		return;
	}
	if (!*p) {
		ALLOC_GROW(n->owners, n->nr_owners, n->alloc_owners);
		n->owners[n->nr_owners++] = s;
		return;
	}
	ALLOC_GROW(n->globs, n->nr_globs, n->alloc_globs);
	n->globs[n->nr_globs].pattern = xstrdup(p);
	n->globs[n->nr_globs].owner = s;
	n->nr_globs++;
}

static int wanted(const struct scan *s, const struct subsystem *sub)
{
	size_t i;

	if (!s->nr_only)
		return 1;
	for (i = 0; i < s->nr_only; i++)
		if (!strcmp(s->only[i], sub->name))
			return 1;
	return 0;
}

/*
 * Counts subsystem sub as changed by c, unless it is ignored (policy
 * ignore) or not asked for (--subsystem): then c->left_out says that a
 * watched path changed all the same.
 */
static void touch(const struct scan *s, struct candidate *c,
		  const struct subsystem *sub)
{
	size_t i;

	if (sub->policy == POLICY_IGNORE || !wanted(s, sub)) {
		c->left_out = 1;
		return;
	}
	for (i = 0; i < c->nr_touched; i++)
		if (c->touched[i] == sub)
			return;
	ALLOC_GROW(c->touched, c->nr_touched, c->alloc_touched);
	c->touched[c->nr_touched++] = sub;
}

/* The subsystems templates of n derive for its directory `dir`. */
static void touch_derived(struct scan *s, const struct watch_node *n,
			  const char *dir, struct candidate *c)
{
	struct strbuf path = STRBUF_INIT;
	size_t i;

	strbuf_addf(&path, "%s%s/", n->path, dir);
	for (i = 0; i < n->nr_templates; i++)
		touch(s, c, ruleset_add_derived(s->rules, n->templates[i], dir,
						path.buf));
	strbuf_release(&path);
}

static int same_entry(const git_tree_entry *a, const git_tree_entry *b)
{
	if (!a || !b)
		return !a && !b;
	return git_oid_equal(git_tree_entry_id(a), git_tree_entry_id(b)) &&
	       git_tree_entry_filemode(a) == git_tree_entry_filemode(b);
}

static int glob_changed(const struct watch_glob *g, const git_tree *a,
			const git_tree *b)
{
	size_t i, n;

	/* Entries added or changed in b, then entries gone from a. */
	n = b ? git_tree_entrycount(b) : 0;
	for (i = 0; i < n; i++) {
		const git_tree_entry *e = git_tree_entry_byindex(b, i);
		const char *name = git_tree_entry_name(e);

		if (git_tree_entry_type(e) == GIT_OBJECT_TREE ||
		    fnmatch(g->pattern, name, 0))
			continue;
		if (!same_entry(e, a ? git_tree_entry_byname(a, name) : NULL))
			return 1;
	}
	n = a ? git_tree_entrycount(a) : 0;
	for (i = 0; i < n; i++) {
		const git_tree_entry *e = git_tree_entry_byindex(a, i);
		const char *name = git_tree_entry_name(e);

		if (git_tree_entry_type(e) == GIT_OBJECT_TREE ||
		    fnmatch(g->pattern, name, 0))
			continue;
		if (!b || !git_tree_entry_byname(b, name))
			return 1;
	}
	return 0;
}

static int subtree(git_repository *repo, const git_tree_entry *e,
		   git_tree **out)
{
	*out = NULL;
	if (!e || git_tree_entry_type(e) != GIT_OBJECT_TREE)
		return 0;
	return git_tree_lookup(out, repo, git_tree_entry_id(e));
}

static int is_tree(const git_tree_entry *e)
{
	return e && git_tree_entry_type(e) == GIT_OBJECT_TREE;
}

static int watch_diff(struct scan *s, const struct watch_node *n,
		      const git_tree *a, const git_tree *b,
		      struct candidate *c, int *uncovered);

/* Goes down into kid k, for entries ea and eb that differ. */
static int watch_kid_diff(struct scan *s, const struct watch_node *k,
			  const git_tree_entry *ea, const git_tree_entry *eb,
			  struct candidate *c, int *uncovered)
{
	git_tree *ta = NULL, *tb = NULL;
	int ret;

	if (subtree(s->repo, ea, &ta) < 0 || subtree(s->repo, eb, &tb) < 0)
		ret = error_git("cannot read tree '%s' of commit %s",
				k->name, c->hex);
	else
		ret = watch_diff(s, k, ta, tb, c, uncovered);
	git_tree_free(ta);
	git_tree_free(tb);
	return ret;
}

/*
 * An entry of n's directory that differs: the kid of its name (if
 * any) takes it; what no spec covers is a directory of n's templates,
 * if it has some, else uncovered.
 */
static int watch_entry(struct scan *s, const struct watch_node *n,
		       const char *name, const git_tree_entry *ea,
		       const git_tree_entry *eb, struct candidate *c,
		       int *uncovered)
{
	const struct watch_node *k = watch_kid(n, name, strlen(name));
	int dir = is_tree(ea) || is_tree(eb), covered = 0, below = 0;
	int track = uncovered || n->nr_templates;
	size_t i;

	if (k) {
		for (i = 0; i < k->nr_owners; i++)
			touch(s, c, k->owners[i]);
		if (dir && (k->nr_kids || k->nr_globs || k->nr_templates) &&
		    watch_kid_diff(s, k, ea, eb, c,
				   track && !k->nr_owners ? &below : NULL) < 0)
			return -1;
		covered = k->nr_owners || (dir && !below);
	}
	for (i = 0; !covered && !dir && i < n->nr_globs; i++)
		covered = !fnmatch(n->globs[i].pattern, name, 0);
	if (!covered && dir && n->nr_templates) {
		touch_derived(s, n, name, c);
		covered = 1;
	}
	if (!covered && uncovered)
		*uncovered = 1;
	return 0;
}

/*
 * Marks the subsystems whose paths differ between trees a (the parent,
 * may be NULL) and b (the commit), below node n.  Only subtrees whose
 * ids differ are opened.  A template's directories are those of the
 * commit, so that a directory renamed or removed since still counts
 * for the commits that changed it.  With uncovered, sets *uncovered
 * when a change is under no spec: a template above derives a subsystem
 * for what specs leave of its directory (fs/smb/common/ when fs/smb/
 * client/ and fs/smb/server/ have subsystems of their own).
 */
static int watch_diff(struct scan *s, const struct watch_node *n,
		      const git_tree *a, const git_tree *b,
		      struct candidate *c, int *uncovered)
{
	size_t i, nr;

	for (i = 0; i < n->nr_globs; i++)
		if (glob_changed(&n->globs[i], a, b))
			touch(s, c, n->globs[i].owner);

	if (!n->nr_templates && !uncovered) {
		for (i = 0; i < n->nr_kids; i++) {
			const struct watch_node *k = n->kids[i];
			const git_tree_entry *ea, *eb;

			ea = a ? git_tree_entry_byname(a, k->name) : NULL;
			eb = b ? git_tree_entry_byname(b, k->name) : NULL;
			if (!same_entry(ea, eb) &&
			    watch_entry(s, n, k->name, ea, eb, c, NULL) < 0)
				return -1;
		}
		return 0;
	}
	/* Every entry that differs: those of b, then those gone from a. */
	nr = b ? git_tree_entrycount(b) : 0;
	for (i = 0; i < nr; i++) {
		const git_tree_entry *eb = git_tree_entry_byindex(b, i);
		const char *name = git_tree_entry_name(eb);
		const git_tree_entry *ea = a ? git_tree_entry_byname(a, name) : NULL;

		if (!same_entry(ea, eb) &&
		    watch_entry(s, n, name, ea, eb, c, uncovered) < 0)
			return -1;
	}
	nr = a ? git_tree_entrycount(a) : 0;
	for (i = 0; i < nr; i++) {
		const git_tree_entry *ea = git_tree_entry_byindex(a, i);
		const char *name = git_tree_entry_name(ea);

		if ((!b || !git_tree_entry_byname(b, name)) &&
		    watch_entry(s, n, name, ea, NULL, c, uncovered) < 0)
			return -1;
	}
	return 0;
}

void scan_init(struct scan *s, git_repository *repo, struct ruleset *rules)
{
	memset(s, 0, sizeof(*s));
	s->repo = repo;
	s->rules = rules;
	candidate_list_init(&s->candidates);
}

void scan_release(struct scan *s)
{
	size_t i;

	for (i = 0; i < s->nr_only; i++)
		free(s->only[i]);
	free(s->only);
	free(s->range);
	watch_free(s->watch);
	candidate_list_release(&s->candidates);
	soak_tags_release(&s->soak_tags);
	scan_memo_free(s->own_memo);
	memset(s, 0, sizeof(*s));
}

void scan_reset(struct scan *s)
{
	candidate_list_release(&s->candidates);
	candidate_list_init(&s->candidates);
	scan_memo_free(s->own_memo);
	s->own_memo = NULL;
	s->memo = NULL;
	s->walked = s->merges = s->replayed = s->left_out = 0;
}

/* The unborn branch HEAD is on, as "refs/heads/NAME", or NULL. */
static char *unborn_head(git_repository *repo)
{
	git_reference *head = NULL;
	char *name = NULL;

	if (git_repository_head_unborn(repo) == 1 &&
	    !git_reference_lookup(&head, repo, "HEAD") &&
	    git_reference_type(head) == GIT_REFERENCE_SYMBOLIC)
		name = xstrdup(git_reference_symbolic_target(head));
	git_reference_free(head);
	git_error_clear();
	return name;
}

int scan_ref_error(git_repository *repo, const char *rev, const char *name,
		   int unborn)
{
	git_reference *ref = NULL, *resolved = NULL;
	char hex[GIT_OID_HEXSZ + 1];
	git_odb *odb = NULL;
	char *head;
	int ret = 0;

	if (!git_reference_dwim(&ref, repo, rev) &&
	    !git_reference_resolve(&resolved, ref) &&
	    git_reference_target(resolved) &&
	    !git_repository_odb(&odb, repo) &&
	    !git_odb_exists(odb, git_reference_target(resolved))) {
		git_oid_tostr(hex, sizeof(hex), git_reference_target(resolved));
		ret = error("%s points at %s, which is not in the repository",
			    name, hex);
	}
	git_odb_free(odb);
	git_reference_free(resolved);
	git_reference_free(ref);
	git_error_clear();
	if (ret || !unborn || !(head = unborn_head(repo)))
		return ret;
	if (!strcmp(rev, head) || !strcmp(rev, "HEAD") ||
	    (!strncmp(head, "refs/heads/", 11) && !strcmp(rev, head + 11)))
		ret = error("%s has no commits yet", name);
	free(head);
	return ret;
}

int scan_resolve(git_repository *repo, const char *rev, const char *what,
		 git_oid *out)
{
	git_object *obj = NULL, *peeled = NULL;
	int ret;

	ret = git_revparse_single(&obj, repo, rev);
	/* libgit2 calls every hex name shorter than 4 digits ambiguous. */
	if (ret == GIT_EAMBIGUOUS && strlen(rev) < GIT_OID_MINPREFIXLEN)
		ret = GIT_ENOTFOUND;
	if (ret == GIT_ENOTFOUND) {
		struct strbuf name = STRBUF_INIT;

		strbuf_addf(&name, "'%s' for %s", rev, what);
		ret = scan_ref_error(repo, rev, name.buf, 1);
		strbuf_release(&name);
		if (ret)
			return ret;
		return error("unknown revision '%s' for %s", rev, what);
	}
	if (ret == GIT_EAMBIGUOUS)
		return error("ambiguous revision '%s' for %s", rev, what);
	if (ret < 0)
		return error_git("cannot resolve '%s' for %s", rev, what);
	ret = git_object_peel(&peeled, obj, GIT_OBJECT_COMMIT);
	git_object_free(obj);
	if (ret < 0)
		return error("'%s' (%s) is not a commit", rev, what);
	git_oid_cpy(out, git_object_id(peeled));
	git_object_free(peeled);
	return 0;
}

int scan_set_range(struct scan *s, const char *range)
{
	const char *dots = strstr(range, "..");
	char *a, *b;
	int ret;

	if (!dots || dots == range || !dots[2] || dots[2] == '.' ||
	    strstr(dots + 2, ".."))
		return error("'%s' is not a range (expected A..B)", range);
	a = xstrndup(range, (size_t)(dots - range));
	b = xstrdup(dots + 2);
	ret = scan_resolve(s->repo, a, "--range", &s->from);
	if (!ret)
		ret = scan_resolve(s->repo, b, "--range", &s->to);
	free(a);
	free(b);
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

/*
 * Creates one subsystem per directory that template t's specs name in
 * root's tree, so that --subsystem and `rules list` know them before a
 * walk meets them (a walk derives the others as it meets them).
 */
static int expand_template(struct scan *s, const struct subsystem *t,
			   const git_tree *root)
{
	size_t i, j;

	for (i = 0; i < t->nr_paths; i++) {
		const char *spec = t->paths[i];
		size_t len = strlen(spec);
		char *dir;
		git_tree_entry *e = NULL;
		git_tree *tree = NULL;
		int ret;

		/* A template spec is "dir/\*\/" (validated by the loader). */
		if (len < 3 || strcmp(spec + len - 3, "/*/"))
			continue;
		dir = xstrndup(spec, len - 3);
		ret = git_tree_entry_bypath(&e, root, dir);
		if (!ret && git_tree_entry_type(e) == GIT_OBJECT_TREE)
			ret = git_tree_lookup(&tree, s->repo, git_tree_entry_id(e));
		git_tree_entry_free(e);
		if (ret == GIT_ENOTFOUND || (!ret && !tree)) {
			git_error_clear();
			free(dir);
			continue;
		}
		if (ret < 0) {
			free(dir);
			return error_git("cannot read tree '%s'", spec);
		}
		for (j = 0; j < git_tree_entrycount(tree); j++) {
			const git_tree_entry *k = git_tree_entry_byindex(tree, j);
			struct strbuf path = STRBUF_INIT;

			if (git_tree_entry_type(k) != GIT_OBJECT_TREE)
				continue;
			strbuf_addf(&path, "%s/%s/", dir, git_tree_entry_name(k));
			ruleset_add_derived(s->rules, t, git_tree_entry_name(k),
					    path.buf);
			strbuf_release(&path);
		}
		git_tree_free(tree);
		free(dir);
	}
	return 0;
}

static int rules_use_paths(const struct rule *r, size_t nr)
{
	size_t i;

	for (i = 0; i < nr; i++)
		if (r[i].field == FIELD_PATHS)
			return 1;
	return 0;
}

/*
 * A spec without a glob that names a directory of the tree, such as
 * "fs/f2fs" for "fs/f2fs/", watches a file of that name, and so
 * nothing: an error naming the rule file.
 */
static int check_specs(struct scan *s, const git_tree *root)
{
	size_t i, j;
	int ret = 0;

	for (i = 0; i < s->rules->nr_subsystems; i++) {
		const struct subsystem *sub = s->rules->subsystems[i];

		for (j = 0; sub->file && !sub->is_template && j < sub->nr_paths; j++) {
			const char *spec = sub->paths[j];
			git_tree_entry *e = NULL;

			if (spec[strcspn(spec, "*?[")] || spec[strlen(spec) - 1] == '/' ||
			    git_tree_entry_bypath(&e, root, spec) < 0) {
				git_error_clear();
				continue;
			}
			if (git_tree_entry_type(e) == GIT_OBJECT_TREE)
				ret = error("%s:%u: paths '%s' of subsystem '%s' is "
					    "a directory in %s: write '%s/' to "
					    "watch what is in it", sub->file,
					    sub->paths_lineno, spec, sub->name,
					    s->range, spec);
			git_tree_entry_free(e);
		}
	}
	return ret;
}

/* The tree of commit id, or NULL after an error message. */
static git_tree *tree_of(git_repository *repo, const git_oid *id,
			 const char *what)
{
	git_commit *commit = NULL;
	git_tree *tree = NULL;

	if (git_commit_lookup(&commit, repo, id) < 0 ||
	    git_commit_tree(&tree, commit) < 0)
		error_git("cannot read the tree of %s", what);
	git_commit_free(commit);
	return tree;
}

int scan_prepare(struct scan *s)
{
	git_tree *root = NULL, *start = NULL;
	size_t i, j, nr;
	int ret = 0;

	if (s->watch)
		return 0;
	if (!(root = tree_of(s->repo, &s->to, s->range)) ||
	    (s->has_from && !(start = tree_of(s->repo, &s->from, s->range)))) {
		ret = -1;
		goto out;
	}
	if ((ret = check_specs(s, root)) < 0)
		goto out;
	/* Expanding adds subsystems: count the others first. */
	nr = s->rules->nr_subsystems;
	for (i = 0; i < nr && !ret; i++) {
		const struct subsystem *t = s->rules->subsystems[i];

		if (!t->is_template)
			continue;
		ret = expand_template(s, t, root);
		if (!ret && start)
			ret = expand_template(s, t, start);
	}
	if (ret)
		goto out;

	for (i = 0; i < s->nr_only; i++) {
		const struct subsystem *sub = ruleset_subsystem(s->rules, s->only[i]);

		if (!sub || sub->is_template) {
			ret = error("unknown subsystem '%s' for --subsystem", s->only[i]);
			goto out;
		}
	}

	s->watch = watch_new("", 0);
	s->need_paths = rules_use_paths(s->rules->rules, s->rules->nr_rules);
	for (i = 0; i < s->rules->nr_subsystems; i++) {
		const struct subsystem *sub = s->rules->subsystems[i];

		/* Derived ones are their templates' business. */
		if (!sub->file)
			continue;
		for (j = 0; j < sub->nr_paths; j++)
			watch_add(s->watch, sub->paths[j], sub);
		if (rules_use_paths(sub->rules, sub->nr_rules))
			s->need_paths = 1;
	}
out:
	git_tree_free(start);
	git_tree_free(root);
	return ret;
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
 * Why a Fixes: id that the repository has does not name a commit, as a
 * warning: a blob, a tree or a tag (a pasted "git hash-object" or
 * "ls-tree" id), or a prefix of several objects.  An id the repository
 * lacks needs none: the reports say it is not found.
 */
static void warn_unresolved(struct candidate *c, const struct fixes_ref *ref,
			    int ret, const git_object *obj)
{
	struct strbuf sb = STRBUF_INIT;

	strbuf_addf(&sb, "Fixes: %s", ref->id);
	if (ref->subject)
		strbuf_addf(&sb, " (\"%s\")", ref->subject);
	if (ret == GIT_EAMBIGUOUS)
		candidate_add_warning(c, "%s is ambiguous: several objects of "
				      "the repository start with it", sb.buf);
	else if (obj)
		candidate_add_warning(c, "%s names a %s, not a commit", sb.buf,
				      git_object_type2string(git_object_type(obj)));
	strbuf_release(&sb);
}

/* Adds a link to c's list, unless it names that id already. */
static void add_link(struct fixes_ref **v, size_t *nr, size_t *alloc,
		     const char *id, size_t len, char *subject)
{
	size_t i;
	char *hex;

	if (len < 4 || len > GIT_OID_HEXSZ || !is_hex(id, len)) {
		free(subject);
		return;
	}
	hex = xstrndup(id, len);
	for (i = 0; i < len; i++)
		if (hex[i] >= 'A' && hex[i] <= 'F')
			hex[i] = (char)(hex[i] - 'A' + 'a');
	for (i = 0; i < *nr; i++)
		if (!strcmp((*v)[i].id, hex)) {
			free(hex);
			free(subject);
			return;
		}
	ALLOC_GROW(*v, *nr, *alloc);
	memset(&(*v)[*nr], 0, sizeof(**v));
	(*v)[*nr].id = hex;
	(*v)[(*nr)++].subject = subject;
}

/* Every match of link r in text, a trailer's value when in_trailer. */
static void links_in(const struct ruleset *rs, const struct rule *r,
		     const char *text, int in_trailer, struct fixes_ref **v,
		     size_t *nr, size_t *alloc)
{
	size_t len = strlen(text), start = 0, id_len, subject_len, end;
	const char *id, *subject;

	while (rule_match_link(rs, r, text, len, start, &id, &id_len, &subject,
			       &subject_len, &end) == 1) {
		char *quoted;

		if (subject) {
			quoted = xstrndup(subject, subject_len);
		} else {
			/* What follows on the line, as a Fixes: tag quotes it. */
			size_t eol = strcspn(text + end, "\n");
			char *rest = xstrndup(text + end, eol);

			quoted = message_fixes_subject(rest, !in_trailer);
			free(rest);
			if (quoted && !*quoted) {
				free(quoted);
				quoted = NULL;
			}
		}
		add_link(v, nr, alloc, id, id_len, quoted);
		start = end;
	}
}

/*
 * The commits c names as those whose bugs it fixes, by the links of the
 * rules ("link fixes trailer:Fixes /^([0-9a-f]{7,40})\b/i", "Follow-up
 * for <id>" in a body): c->msg.fixes, in place of what the message
 * parser read, so that a project's own forms count and what is not a
 * commit id ("Fixes: #1234", an issue) does not.
 */
static void read_links(const struct ruleset *rs, struct candidate *c)
{
	struct fixes_ref *v = NULL;
	size_t nr = 0, alloc = 0, i, pos;
	const struct trailer *t;

	for (i = 0; i < rs->nr_links; i++) {
		const struct rule *r = &rs->links[i];

		switch (r->field) {
		case FIELD_TRAILER:
			pos = 0;
			while ((t = message_trailer_next(&c->msg, r->trailer, &pos)))
				links_in(rs, r, t->val, 1, &v, &nr, &alloc);
			break;
		case FIELD_SUBJECT:
			links_in(rs, r, c->msg.subject ? c->msg.subject : "", 0,
				 &v, &nr, &alloc);
			break;
		case FIELD_BODY:
			links_in(rs, r, c->msg.text ? c->msg.text : "", 0, &v,
				 &nr, &alloc);
			break;
		case FIELD_MESSAGE:
			links_in(rs, r, c->raw ? c->raw : "", 0, &v, &nr, &alloc);
			break;
		default:
			break;
		}
	}
	for (i = 0; i < c->msg.nr_fixes; i++) {
		free(c->msg.fixes[i].id);
		free(c->msg.fixes[i].subject);
	}
	free(c->msg.fixes);
	c->msg.fixes = v;
	c->msg.nr_fixes = nr;
	c->msg.alloc_fixes = alloc;
}

static void resolve_fixes(git_repository *repo, struct candidate *c)
{
	size_t i;

	if (!c->msg.nr_fixes)
		return;
	c->fixes = xcalloc(c->msg.nr_fixes, sizeof(*c->fixes));
	for (i = 0; i < c->msg.nr_fixes; i++) {
		const struct fixes_ref *ref = &c->msg.fixes[i];
		struct fixes_target *t = &c->fixes[i];
		size_t len = strlen(ref->id);
		git_object *obj = NULL;
		git_oid prefix;
		int ret;

		t->ref = ref;
		if (len < 4 || git_oid_fromstrn(&prefix, ref->id, len) < 0)
			continue;
		ret = git_object_lookup_prefix(&obj, repo, &prefix, len,
					       GIT_OBJECT_ANY);
		git_error_clear();
		if (ret < 0 || git_object_type(obj) != GIT_OBJECT_COMMIT) {
			warn_unresolved(c, ref, ret, ret < 0 ? NULL : obj);
			git_object_free(obj);
			continue;
		}
		git_oid_cpy(&t->id, git_object_id(obj));
		t->resolved = 1;
		git_object_free(obj);
	}
}

/*
 * The trees of a commit and of its first parent (NULL for a root).  An
 * object that cannot be read (missing, or a damaged pack) is named by
 * its id: libgit2 names it only when it is missing.
 */
static int commit_trees(const git_commit *commit, const char *hex,
			git_tree **tree, git_tree **ptree)
{
	char tid[GIT_OID_HEXSZ + 1], pid[GIT_OID_HEXSZ + 1];
	git_commit *parent = NULL;
	int ret = 0;

	*tree = *ptree = NULL;
	git_oid_tostr(tid, sizeof(tid), git_commit_tree_id(commit));
	if (git_commit_tree(tree, commit) < 0)
		return error_git("cannot read tree %s of commit %.12s", tid, hex);
	if (!git_commit_parentcount(commit))
		return 0;
	git_oid_tostr(pid, sizeof(pid), git_commit_parent_id(commit, 0));
	if (git_commit_parent(&parent, commit, 0) < 0)
		return error_git("cannot read commit %s, the parent of %.12s",
				 pid, hex);
	git_oid_tostr(tid, sizeof(tid), git_commit_tree_id(parent));
	if (git_commit_tree(ptree, parent) < 0)
		ret = error_git("cannot read tree %s of commit %.12s, the "
				"parent of %.12s", tid, pid, hex);
	git_commit_free(parent);
	return ret;
}

int scan_fill(struct scan *s, struct candidate *c, const git_commit *commit)
{
	const git_signature *author = git_commit_author(commit);
	const char *raw = git_commit_message(commit);
	git_tree *tree = NULL, *ptree = NULL;
	struct strbuf sb = STRBUF_INIT;
	int ret = 0;

	strbuf_addf(&sb, "%s <%s>", author->name, author->email);
	c->author = strbuf_detach(&sb, NULL);
	c->time = author->when.time;
	c->tz_offset = author->when.offset;
	c->raw = xstrdup(raw ? raw : "");
	message_parse(&c->msg, c->raw, strlen(c->raw));
	read_links(s->rules, c);

	/* The trees only when the cache did not say what they tell. */
	if ((!c->nr_touched || !c->has_pathkey ||
	     !c->paths_known) &&
	    (ret = commit_trees(commit, c->hex, &tree, &ptree)) < 0)
		goto out;
	if (!c->nr_touched)
		ret = watch_diff(s, s->watch, ptree, tree, c, NULL);
	if (ret)
		goto out;
	/* A commit from outside the watch (audit, tests) still fixes. */
	if (c->nr_touched) {
		order_touched(c);
		if ((!c->has_pathkey || !c->paths_known) &&
		    (ret = fill_paths(s, c, ptree, tree)) < 0)
			goto out;
	}
	resolve_fixes(s->repo, c);
out:
	git_tree_free(ptree);
	git_tree_free(tree);
	return ret;
}

/*
 * Which watched subsystems a commit changes, into probe->touched; the
 * cheap test every walked commit goes through.
 */
static int scan_touches(struct scan *s, const git_commit *commit,
			struct candidate *probe)
{
	git_tree *tree = NULL, *ptree = NULL;
	int ret;

	git_oid_tostr(probe->hex, sizeof(probe->hex), git_commit_id(commit));
	ret = commit_trees(commit, probe->hex, &tree, &ptree);
	if (!ret)
		ret = watch_diff(s, s->watch, ptree, tree, probe, NULL);
	git_tree_free(ptree);
	git_tree_free(tree);
	return ret;
}

int scan_commit_touches(struct scan *s, const git_commit *commit)
{
	struct candidate probe;
	int ret;

	memset(&probe, 0, sizeof(probe));
	ret = scan_touches(s, commit, &probe);
	free(probe.touched);
	return ret < 0 ? ret : probe.nr_touched > 0;
}

/* The commits a shallow clone lacks the parents of, from .git/shallow. */
static int read_shallow(git_repository *repo, git_oid **out, size_t *nr)
{
	struct strbuf path = STRBUF_INIT, buf = STRBUF_INIT;
	size_t alloc = 0;
	char *line, *save = NULL;

	*out = NULL;
	*nr = 0;
	if (!git_repository_is_shallow(repo))
		return 0;
	strbuf_addf(&path, "%sshallow", git_repository_path(repo));
	if (strbuf_read_file(&buf, path.buf) < 0) {
		int ret = error("cannot read '%s': %s", path.buf, strerror(errno));

		strbuf_release(&path);
		return ret;
	}
	for (line = strtok_r(buf.buf, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		ALLOC_GROW(*out, *nr, alloc);
		if (!git_oid_fromstr(&(*out)[*nr], line))
			(*nr)++;
	}
	strbuf_release(&path);
	strbuf_release(&buf);
	return 0;
}

static int is_shallow(const git_oid *shallow, size_t nr, const git_oid *id)
{
	size_t i;

	for (i = 0; i < nr; i++)
		if (git_oid_equal(&shallow[i], id))
			return 1;
	return 0;
}

/*
 * Whether history stops at a commit that .git/shallow lists: not when
 * the repository has every parent it names (fetched through another
 * ref, deeper; the parents are checked in turn when the walk gets to
 * them), as when a clone's depth ends exactly at the start of a range.
 */
static int history_cut(git_repository *repo, const git_commit *commit)
{
	unsigned int i, n = git_commit_parentcount(commit);
	git_odb *odb = NULL;
	int cut = 0;

	if (git_repository_odb(&odb, repo) < 0) {
		git_error_clear();
		return 1;
	}
	for (i = 0; i < n && !cut; i++)
		cut = !git_odb_exists(odb, git_commit_parent_id(commit, i));
	git_odb_free(odb);
	return cut;
}

int scan_shallow_error(git_repository *repo, const char *what)
{
	char hex[GIT_OID_HEXSZ + 1];
	git_oid *shallow;
	size_t nr;
	int ret;

	if (read_shallow(repo, &shallow, &nr) < 0)
		return -1;
	if (!nr)
		return error("shallow clone: the history of %s is incomplete "
			     "(run 'git fetch --unshallow')", what);
	git_oid_tostr(hex, sizeof(hex), &shallow[0]);
	ret = error("shallow clone: the history of %s stops at %.12s "
		    "(run 'git fetch --unshallow')", what, hex);
	free(shallow);
	return ret;
}

static int has_parent(const git_commit *commit, const git_oid *id)
{
	unsigned int i, n = git_commit_parentcount(commit);

	for (i = 0; i < n; i++)
		if (git_oid_equal(git_commit_parent_id(commit, i), id))
			return 1;
	return 0;
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
		if (sub->soak_release && (sub->is_template || wanted(s, sub)))
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
			 sub->is_template || wanted(s, sub));
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
		git_commit *commit = NULL;
		struct candidate *c;

		if (git_commit_lookup(&commit, s->repo, &h->id) < 0) {
			ret = error_git("cannot read commit in %s", s->range);
			break;
		}
		c = candidate_list_add(&s->candidates, &h->id);
		for (j = 0; j < h->nr_touched; j++)
			touch(s, c, subs[h->touched[j]]);
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
		ret = scan_fill(s, c, commit);
		git_commit_free(commit);
		if (!ret)
			memo_add(s, into, c);
		s->replayed++;
	}
	free(rel);
	free(rc);
	return ret;
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
	git_revwalk *walk = NULL;
	git_oid id, *shallow = NULL;
	struct soak_paint paint;
	struct soak_mark mark;
	size_t nr_shallow = 0;
	int ret;

	if ((ret = read_shallow(s->repo, &shallow, &nr_shallow)) < 0)
		return ret;
	soak_paint_init(&paint, &s->soak_tags);
	mark.release = mark.rc = -1;
	if (git_revwalk_new(&walk, s->repo) < 0) {
		ret = error_git("cannot walk %s", s->range);
		goto out;
	}
	git_revwalk_sorting(walk, GIT_SORT_TOPOLOGICAL | GIT_SORT_TIME);
	if (git_revwalk_push(walk, &s->to) < 0 ||
	    (s->has_from && git_revwalk_hide(walk, &s->from) < 0) ||
	    (stop && git_revwalk_hide(walk, stop) < 0)) {
		ret = nr_shallow ? scan_shallow_error(s->repo, s->range)
				 : error_git("cannot walk %s", s->range);
		goto out;
	}
	while (!(ret = git_revwalk_next(&id, walk))) {
		git_commit *commit = NULL;
		struct candidate *c, probe;

		s->walked++;
		memo->walked++;
		ALLOC_GROW(memo->range, memo->nr_range, memo->alloc_range);
		git_oid_cpy(&memo->range[memo->nr_range++], &id);
		progress_update(&s->progress, s->walked);
		if (git_commit_lookup(&commit, s->repo, &id) < 0) {
			ret = error_git("cannot read commit %s in %s",
					git_oid_tostr_s(&id), s->range);
			goto out;
		}
		if (nr_shallow && is_shallow(shallow, nr_shallow, &id) &&
		    history_cut(s->repo, commit)) {
			git_commit_free(commit);
			ret = scan_shallow_error(s->repo, s->range);
			goto out;
		}
		if (s->soak_painted)
			soak_paint_visit(&paint, commit, &mark);
		if (s->has_from && !memo->reaches_from)
			memo->reaches_from = has_parent(commit, &s->from);
		if (git_commit_parentcount(commit) > 1) {
			s->merges++;
			memo->merges++;
			git_commit_free(commit);
			continue;
		}
		memset(&probe, 0, sizeof(probe));
		ret = scan_touches(s, commit, &probe);
		if (!ret && !probe.nr_touched && probe.left_out) {
			s->left_out++;
			memo->left_out++;
		}
		if (!ret && probe.nr_touched) {
			c = candidate_list_add(&s->candidates, &id);
			c->touched = probe.touched;
			c->nr_touched = probe.nr_touched;
			c->alloc_touched = probe.alloc_touched;
			probe.touched = NULL;
			c->soak = mark;
			c->soak_settled = s->soak_painted;
			ret = scan_fill(s, c, commit);
			if (!ret)
				memo_add(s, memo, c);
		}
		free(probe.touched);
		git_commit_free(commit);
		if (ret < 0)
			goto out;
	}
	if (ret == GIT_ITEROVER) {
		ret = 0;
	} else {
		ret = nr_shallow ? scan_shallow_error(s->repo, s->range)
				 : error_git("cannot walk %s", s->range);
		goto out;
	}
	*painted_beyond = soak_paint_pending(&paint);
	if (stop)
		*exact = soak_paint_lowest_at(&paint, stop, at_stop);
out:
	soak_paint_release(&paint);
	free(shallow);
	git_revwalk_free(walk);
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
	    git_graph_descendant_of(s->repo, &s->to, &old->to) != 1) {
		git_error_clear();
		old = NULL;
	}
	progress_start(&s->progress, "Scanning", 0);
	if (!old || !git_oid_equal(&old->to, &s->to))
		ret = walk(s, old ? &old->to : NULL, memo, &beyond, &exact,
			   &at_end);
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
	if (s->cache)
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
