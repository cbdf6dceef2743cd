/*
 * The scanner's watched paths: the path tree of the subsystems' specs,
 * the tree comparison that tells which subsystems a commit changes, and
 * the templates, expanded for the tree of the range's ends.
 */
#include "stages/scan-internal.h"
#include "base/error.h"
#include "git/malformed.h"
#include "base/strbuf.h"
#include "base/util.h"

#include <ctype.h>
#include <fnmatch.h>
#include <string.h>
#include <strings.h>

/*
 * The watched paths as a tree of path components.  A node ends a
 * directory spec ("fs/xfs/") when it has owners; file globs ("fs/\*.c")
 * hang off the node of their directory; a template ("fs/\*\/") hangs
 * off the node of the directory whose directories it stands for.
 *
 * Every subsystem's specs are in the tree, wanted or not, ignored or
 * not: a spec covers its paths, so that a template does not take them
 * for a directory of its own (see watch_diff()).  scan_touch() decides
 * what counts.
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

void scan_watch_free(struct watch_node *n)
{
	size_t i;

	if (!n)
		return;
	for (i = 0; i < n->nr_kids; i++)
		scan_watch_free(n->kids[i]);
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

int scan_wanted(const struct scan *s, const struct subsystem *sub)
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
void scan_touch(const struct scan *s, struct candidate *c,
		const struct subsystem *sub)
{
	size_t i;

	if (sub->policy == POLICY_IGNORE || !scan_wanted(s, sub)) {
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
		scan_touch(s, c, ruleset_add_derived(s->rules, n->templates[i],
						     dir, path.buf));
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
			scan_touch(s, c, k->owners[i]);
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
			scan_touch(s, c, n->globs[i].owner);

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

int scan_watch_diff(struct scan *s, const git_tree *a, const git_tree *b,
		    struct candidate *c)
{
	return watch_diff(s, s->watch, a, b, c, NULL);
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
	git_tree *tree = NULL;

	if (malformed_commit_tree(&tree, repo, id) < 0)
		error_git("cannot read the tree of %s", what);
	return tree;
}

static char *lower(const char *s)
{
	char *l = xstrdup(s), *p;

	for (p = l; *p; p++)
		*p = (char)tolower((unsigned char)*p);
	return l;
}

/* The subsystems of rules near name, whatever their case. */
static void hint_subsystems(const struct ruleset *rules, const char *name)
{
	struct suggest sg = SUGGEST_INIT;
	char *word = lower(name), *l;
	size_t i;

	for (i = 0; i < rules->nr_subsystems; i++) {
		const struct subsystem *sub = rules->subsystems[i];

		if (sub->is_template)
			continue;
		l = lower(sub->name);
		suggest_offer(&sg, word, l, sub->name);
		free(l);
	}
	suggest_hint(&sg);
	suggest_release(&sg);
	free(word);
}

/*
 * The i-th --subsystem name as the rules spell it: the same, else the
 * one that differs only in case ("XFS" for xfs); else an error, with
 * the names near it.  One named twice is kept once: 1 when the i-th
 * was dropped so, else 0, or -1 after the error.
 */
static int resolve_only(struct scan *s, size_t i)
{
	const struct subsystem *sub = ruleset_subsystem(s->rules, s->only[i]);
	size_t j;

	for (j = 0; !sub && j < s->rules->nr_subsystems; j++) {
		const struct subsystem *t = s->rules->subsystems[j];

		if (t->is_template || strcasecmp(t->name, s->only[i]))
			continue;
		if (sub)
			return error("subsystem '%s' for --subsystem is "
				     "ambiguous: '%s' or '%s'", s->only[i],
				     sub->name, t->name);
		sub = t;
	}
	if (!sub || sub->is_template) {
		error("unknown subsystem '%s' for --subsystem", s->only[i]);
		hint_subsystems(s->rules, s->only[i]);
		return -1;
	}
	free(s->only[i]);
	s->only[i] = xstrdup(sub->name);
	for (j = 0; j < i; j++) {
		if (strcmp(s->only[j], s->only[i]))
			continue;
		free(s->only[i]);
		memmove(s->only + i, s->only + i + 1,
			(s->nr_only - i - 1) * sizeof(*s->only));
		s->nr_only--;
		return 1;
	}
	return 0;
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

	for (i = 0; i < s->nr_only; i += !ret)
		if ((ret = resolve_only(s, i)) < 0)
			goto out;
	ret = 0;

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

static int watch_keys(const struct watch_node *n, struct strbuf *path,
		      struct scan_keys *keys);

/*
 * The paths under which every change the watch can see lies: the
 * directories of the nodes that own, glob or derive, the shallowest
 * only.  A commit a Bloom filter says changed none of them changed
 * nothing the scan looks at.  -1 when a glob or a template sits at the
 * top (any change may count).
 */
int scan_watch_keys(const struct scan *s, struct scan_keys *keys)
{
	struct strbuf path = STRBUF_INIT;
	int ret;

	if (!s->watch || s->watch->nr_globs || s->watch->nr_templates ||
	    s->watch->nr_owners)
		return -1;
	ret = watch_keys(s->watch, &path, keys);
	strbuf_release(&path);
	return ret;
}

static int watch_keys(const struct watch_node *n, struct strbuf *path,
		      struct scan_keys *keys)
{
	size_t i, len = path->len;

	for (i = 0; i < n->nr_kids; i++) {
		const struct watch_node *k = n->kids[i];

		if (len)
			strbuf_addch(path, '/');
		strbuf_addstr(path, k->name);
		if (k->nr_owners || k->nr_globs || k->nr_templates) {
			ALLOC_GROW(keys->v, keys->nr, keys->alloc);
			keys->v[keys->nr++] = xstrdup(path->buf);
		}
		else
			watch_keys(k, path, keys);
		strbuf_setlen(path, len);
	}
	return 0;
}
