/*
 * The names of files, for the presence engine: those a commit or a
 * mail's diff changes (a subject is taken for a commit only with a file
 * of the same name), and whether the branch has a file a candidate
 * changes, at its path or moved within its subsystems' directories
 * (match_branch_has_file()); the names a file had before the renames
 * of the range (match_renamed_from()).
 */
#include "stages/match-internal.h"
#include "base/error.h"
#include "git/malformed.h"
#include "formats/rules.h"
#include "stages/scan.h"
#include "base/strbuf.h"
#include "git/treediff.h"
#include "base/util.h"

#include <stdlib.h>
#include <string.h>

/* --- the files a change touches ---------------------------------------- */

static void add_name(char ***names, size_t *nr, size_t *alloc, const char *path,
		     size_t len)
{
	const char *base;
	size_t i;

	for (base = path + len; base > path && base[-1] != '/'; base--)
		;
	len -= (size_t)(base - path);
	if (!len)
		return;
	for (i = 0; i < *nr; i++)
		if (strlen((*names)[i]) == len && !memcmp((*names)[i], base, len))
			return;
	ALLOC_GROW(*names, *nr, *alloc);
	(*names)[(*nr)++] = xstrndup(base, len);
}

/*
 * The names of the files a commit changes (a rename moves a file, it
 * keeps its name), sorted; NULL for a merge.
 */
const struct match_files *match_files_of(struct match *m, const git_oid *id)
{
	struct match_files *f;
	struct treediff d = TREEDIFF_INIT;
	git_commit *commit = NULL;
	size_t i, alloc = 0;

	HASH_FIND(hh, m->files, id, sizeof(*id), f);
	if (f)
		return f;
	f = xcalloc(1, sizeof(*f));
	git_oid_cpy(&f->id, id);
	HASH_ADD(hh, m->files, id, sizeof(git_oid), f);
	if (git_commit_lookup(&commit, m->repo, id) < 0) {
		git_error_clear();
		return f;
	}
	if (git_commit_parentcount(commit) <= 1 &&
	    !treediff_commit(&d, m->repo, commit))
		for (i = 0; i < d.nr; i++)
			add_name(&f->names, &f->nr, &alloc, d.items[i].path,
				 strlen(d.items[i].path));
	treediff_release(&d);
	git_commit_free(commit);
	QSORT(f->names, f->nr, cmp_str);
	return f;
}

/* The paths of a mail's diff: its "--- a/X" and "+++ b/Y" lines. */
void match_diff_paths(const char *diff, char ***paths, size_t *nr)
{
	const char *line, *end;
	size_t alloc = 0;

	*paths = NULL;
	*nr = 0;
	for (line = diff; line && *line; line = end) {
		size_t len;

		end = strchr(line, '\n');
		end = end ? end + 1 : line + strlen(line);
		if (!starts_with(line, "--- a/") && !starts_with(line, "+++ b/"))
			continue;
		len = (size_t)(end - line) - 6;
		while (len && (line[6 + len - 1] == '\n' ||
			       line[6 + len - 1] == '\r'))
			len--;
		ALLOC_GROW(*paths, *nr, alloc);
		(*paths)[(*nr)++] = xstrndup(line + 6, len);
	}
}

/* The names of the files a mail's diff changes, sorted. */
void match_files_of_diff(const char *diff, char ***names, size_t *nr)
{
	char **paths;
	size_t nr_paths, alloc = 0, i;

	match_diff_paths(diff, &paths, &nr_paths);
	*names = NULL;
	*nr = 0;
	for (i = 0; i < nr_paths; i++)
		add_name(names, nr, &alloc, paths[i], strlen(paths[i]));
	free_string_array(paths, nr_paths);
	QSORT(*names, *nr, cmp_str);
}

int match_share_a_name(char *const *a, size_t na, char *const *b, size_t nb)
{
	size_t i = 0, j = 0;

	while (i < na && j < nb) {
		int cmp = strcmp(a[i], b[j]);

		if (!cmp)
			return 1;
		if (cmp < 0)
			i++;
		else
			j++;
	}
	return 0;
}

/* --- files the branch has ---------------------------------------------- */

static int tip_tree(struct match *m)
{
	if (m->tip_tree)
		return 0;
	if (malformed_commit_tree(&m->tip_tree, m->repo, &m->branch->tip) < 0)
		return error_git("cannot read the tree of '%s'", m->branch->name);
	return 0;
}

static int has_path(struct match *m, const char *path)
{
	struct match_has_path *h;
	git_tree_entry *e = NULL;

	HASH_FIND_STR(m->has_paths, path, h);
	if (h)
		return h->has;
	h = xcalloc(1, sizeof(*h));
	h->path = xstrdup(path);
	h->has = !git_tree_entry_bypath(&e, m->tip_tree, path);
	git_tree_entry_free(e);
	git_error_clear();
	HASH_ADD_KEYPTR(hh, m->has_paths, h->path, strlen(h->path), h);
	return h->has;
}

static int collect_name(const char *root, const git_tree_entry *e, void *data)
{
	struct match_names *n = data;

	(void)root;
	if (git_tree_entry_type(e) == GIT_OBJECT_BLOB) {
		ALLOC_GROW(n->names, n->nr, n->alloc);
		n->names[n->nr++] = xstrdup(git_tree_entry_name(e));
	}
	return 0;
}

/* The names of the files under sub's directories in the branch. */
static const struct match_names *names_of(struct match *m,
					  const struct subsystem *sub)
{
	struct match_names *n;
	size_t i, j;

	HASH_FIND_PTR(m->names, &sub, n);
	if (n)
		return n;
	n = xcalloc(1, sizeof(*n));
	n->sub = sub;
	HASH_ADD_PTR(m->names, sub, n);
	for (i = 0; i < sub->nr_paths; i++) {
		const char *spec = sub->paths[i];
		size_t len = strlen(spec);
		git_tree_entry *e = NULL;
		git_tree *tree = NULL;
		char *dir;

		if (!len || spec[len - 1] != '/')
			continue;
		dir = xstrndup(spec, len - 1);
		if (!git_tree_entry_bypath(&e, m->tip_tree, dir) &&
		    git_tree_entry_type(e) == GIT_OBJECT_TREE &&
		    !git_tree_lookup(&tree, m->repo, git_tree_entry_id(e)))
			git_tree_walk(tree, GIT_TREEWALK_PRE, collect_name, n);
		git_error_clear();
		git_tree_free(tree);
		git_tree_entry_free(e);
		free(dir);
	}
	QSORT(n->names, n->nr, cmp_str);
	for (i = j = 0; i < n->nr; i++) {
		if (j && !strcmp(n->names[j - 1], n->names[i]))
			free(n->names[i]);
		else
			n->names[j++] = n->names[i];
	}
	n->nr = j;
	return n;
}

/*
 * Whether the branch has path, or its file under another name its
 * subsystems give: a former directory of theirs, or a file of the same
 * name in their directories (moved within them).
 */
static int branch_has_file(struct match *m, const struct candidate *c,
			   const char *path)
{
	const char *base = strrchr(path, '/');
	size_t i, j, k;

	if (has_path(m, path))
		return 1;
	base = base ? base + 1 : path;
	for (i = 0; i < c->nr_touched; i++) {
		const struct subsystem *sub = c->touched[i];
		const struct match_names *n;
		int under = 0;

		for (j = 0; j < sub->nr_paths; j++) {
			const char *d = sub->paths[j];
			size_t len = strlen(d);

			if (!len || d[len - 1] != '/' || strncmp(path, d, len))
				continue;
			under = 1;
			for (k = 0; k < sub->nr_paths; k++) {
				struct strbuf sb = STRBUF_INIT;
				const char *o = sub->paths[k];
				int found;

				if (k == j || !*o || o[strlen(o) - 1] != '/')
					continue;
				strbuf_addf(&sb, "%s%s", o, path + len);
				found = has_path(m, sb.buf);
				strbuf_release(&sb);
				if (found)
					return 1;
			}
		}
		if (!under)
			continue;
		n = names_of(m, sub);
		/* An empty subsystem has no array: bsearch() takes none. */
		if (n->nr && bsearch(&base, n->names, n->nr, sizeof(*n->names),
				     cmp_str))
			return 1;
	}
	return 0;
}

int match_branch_has_file(struct match *m, const struct candidate *c,
			  const char *path)
{
	if (tip_tree(m) < 0)
		return -1;
	return branch_has_file(m, c, path);
}

void match_tip_name_free(struct match_tip_name *n)
{
	free_string_array(n->paths, n->nr);
	free(n->name);
	free(n);
}

static int collect_tip_name(const char *root, const git_tree_entry *e,
			    void *data)
{
	struct match *m = data;
	struct match_tip_name *n;
	const char *name = git_tree_entry_name(e);

	if (git_tree_entry_type(e) != GIT_OBJECT_BLOB)
		return 0;
	HASH_FIND_STR(m->tip_names, name, n);
	if (!n) {
		n = xcalloc(1, sizeof(*n));
		n->name = xstrdup(name);
		HASH_ADD_KEYPTR(hh, m->tip_names, n->name, strlen(n->name), n);
	}
	ALLOC_GROW(n->paths, n->nr, n->alloc);
	n->paths[n->nr++] = xstrfmt("%s%s", root, name);
	return 0;
}

int match_branch_has_moved(struct match *m, const struct candidate *c,
			   const char *path)
{
	struct renames r = RENAMES_INIT;
	const struct match_tip_name *n;
	const char *name = strrchr(path, '/');
	git_commit *commit = NULL;
	git_tree *base = NULL;
	char **paths = NULL;
	size_t i, nr = 0;
	git_oid ptree;
	int ret = -1;

	if (tip_tree(m) < 0)
		return -1;
	if (!m->tip_names_built) {
		m->tip_names_built = 1;
		if (git_tree_walk(m->tip_tree, GIT_TREEWALK_PRE,
				  collect_tip_name, m) < 0)
			return error_git("cannot read the tree of '%s'",
					 m->branch->name);
	}
	name = name ? name + 1 : path;
	HASH_FIND_STR(m->tip_names, name, n);
	if (!n)
		return 0;
	if (git_commit_lookup(&commit, m->repo, &c->id) < 0 ||
	    git_commit_parentcount(commit) != 1) {
		git_commit_free(commit);
		git_error_clear();
		return 0;
	}
	if (malformed_tree_id(&ptree, m->repo, git_commit_parent_id(commit, 0)) < 0 ||
	    git_tree_lookup(&base, m->repo, &ptree) < 0) {
		error_git("cannot read the tree of the parent of %.12s", c->hex);
		goto out;
	}
	paths = xcalloc(n->nr + 1, sizeof(*paths));
	paths[nr++] = (char *)path;
	for (i = 0; i < n->nr; i++) {
		git_tree_entry *e = NULL;

		if (git_tree_entry_bypath(&e, base, n->paths[i]) < 0)
			paths[nr++] = n->paths[i];
		git_tree_entry_free(e);
		git_error_clear();
	}
	ret = 0;
	if (nr > 1 && renames_trees(&r, m->repo, base, m->tip_tree, paths, nr) < 0)
		ret = -1;
	else
		ret = r.nr > 0;
out:
	free(paths);
	renames_release(&r);
	git_tree_free(base);
	git_commit_free(commit);
	return ret;
}

/* --- renames of the range ---------------------------------------------- */

void match_renames_free(struct match_renames *r)
{
	renames_release(&r->renames);
	free(r);
}

/* The renames of commit id, read once. */
static const struct renames *renames_of(struct match *m, const git_oid *id)
{
	struct match_renames *r;
	git_commit *commit = NULL;
	int ret;

	HASH_FIND(hh, m->renames, id, sizeof(*id), r);
	if (r)
		return &r->renames;
	if (git_commit_lookup(&commit, m->repo, id) < 0) {
		error_git("cannot read commit %s", git_oid_tostr_s(id));
		return NULL;
	}
	r = xcalloc(1, sizeof(*r));
	git_oid_cpy(&r->id, id);
	ret = renames_commit(&r->renames, m->repo, commit);
	git_commit_free(commit);
	if (ret < 0) {
		match_renames_free(r);
		return NULL;
	}
	HASH_ADD(hh, m->renames, id, sizeof(git_oid), r);
	return &r->renames;
}

int match_renamed_from(struct match *m, const struct candidate_list *l,
		       const struct candidate *c, const char *path,
		       const char **from, const struct candidate **by)
{
	const struct renames *r;
	const struct rename *rn;

	*from = NULL;
	*by = candidate_list_added_before(l, c, path);
	if (!*by)
		return 0;
	r = renames_of(m, &(*by)->id);
	if (!r)
		return -1;
	rn = renames_to(r, path);
	if (rn)
		*from = rn->from;
	return 0;
}

const struct match_files *match_files_of_candidate(struct match *m,
						   const struct candidate *c)
{
	struct match_files *f = (struct match_files *)match_files_of(m, &c->id);
	size_t i, depth, alloc = f->nr;

	if (f->former || !f->nr)
		return f;
	f->former = 1;
	for (i = 0; i < c->nr_paths; i++) {
		const struct candidate *at = c, *by;
		const char *name = c->paths[i], *from;

		for (depth = 0; depth < MATCH_RENAMES_MAX; depth++) {
			if (match_renamed_from(m, &m->scan->candidates, at, name,
					       &from, &by) < 0)
				return NULL;
			if (!from)
				break;
			add_name(&f->names, &f->nr, &alloc, from, strlen(from));
			at = by;
			name = from;
		}
	}
	QSORT(f->names, f->nr, cmp_str);
	return f;
}
