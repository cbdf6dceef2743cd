/*
 * The public-inbox backends of archive.c (see archive-ops.h): v2, an
 * inbox of epochs git/N.git whose commits each add a message (blob "m")
 * or remove one ("d"), and v1, one repository whose commits add and
 * delete messages at paths.  Each is read from the tip its cache saw.
 */
#include "formats/archive-ops.h"
#include "base/error.h"
#include "git/history.h"
#include "git/malformed.h"
#include "base/strbuf.h"
#include "base/util.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

/* The tip of an inbox repository: HEAD, else refs/heads/master. */
static int repo_tip(git_repository *repo, git_oid *out)
{
	if (!git_reference_name_to_id(out, repo, "HEAD") ||
	    !git_reference_name_to_id(out, repo, "refs/heads/master"))
		return 0;
	git_error_clear();
	return GIT_ENOTFOUND;
}

static int index_blob(struct archive *a, size_t src, git_repository *repo,
		      const git_oid *id, const char *where)
{
	git_blob *blob = NULL;

	if (git_blob_lookup(&blob, repo, id) < 0)
		return error_git("cannot read '%s': message %s", a->sources[src].path,
				 where);
	archive_index_buffer(a, src, git_blob_rawcontent(blob),
			     (size_t)git_blob_rawsize(blob), where);
	git_blob_free(blob);
	return 0;
}

/*
 * One commit of a v2 epoch, whose tree is tree_id: its blob "m" is a
 * message, "d" a removal.
 */
static int v2_commit(struct archive *a, size_t src, git_repository *repo,
		     int epoch, const git_oid *tree_id)
{
	git_tree *tree = NULL;
	const git_tree_entry *e;
	char hex[GIT_OID_HEXSZ + 1], *where;
	int ret = 0;

	if (git_tree_lookup(&tree, repo, tree_id) < 0)
		return error_git("cannot read '%s': a commit of epoch %d",
				 a->sources[src].path, epoch);
	if ((e = git_tree_entry_byname(tree, "m"))) {
		git_oid_tostr(hex, sizeof(hex), git_tree_entry_id(e));
		where = xstrfmt("%d:%s", epoch, hex);
		ret = index_blob(a, src, repo, git_tree_entry_id(e), where);
		free(where);
	} else if ((e = git_tree_entry_byname(tree, "d"))) {
		size_t i;

		/* The removed message may be in any epoch. */
		git_oid_tostr(hex, sizeof(hex), git_tree_entry_id(e));
		for (i = 0; i < a->nr; i++) {
			const char *w = a->msgs[i]->where, *colon = strchr(w, ':');

			if (a->msgs[i]->source == src && colon && !strcmp(colon + 1, hex))
				archive_remove_where(a, src, w);
		}
	}
	git_tree_free(tree);
	return ret;
}

/*
 * One commit of a v1 inbox, from tree ptree_id (NULL: none, the first
 * commit) to tree tree_id: what it adds or changes is a message, what
 * it deletes a removal (its blob id was where the message was).
 */
static int v1_commit(struct archive *a, size_t src, git_repository *repo,
		     const git_oid *tree_id, const git_oid *ptree_id)
{
	git_tree *tree = NULL, *ptree = NULL;
	git_diff *diff = NULL;
	char hex[GIT_OID_HEXSZ + 1];
	size_t i, n;
	int ret = 0;

	if (git_tree_lookup(&tree, repo, tree_id) < 0 ||
	    (ptree_id && git_tree_lookup(&ptree, repo, ptree_id) < 0) ||
	    git_diff_tree_to_tree(&diff, repo, ptree, tree, NULL) < 0) {
		ret = error_git("cannot read '%s': a commit", a->sources[src].path);
		goto out;
	}
	n = git_diff_num_deltas(diff);
	for (i = 0; !ret && i < n; i++) {
		const git_diff_delta *d = git_diff_get_delta(diff, i);

		if (d->status == GIT_DELTA_DELETED || d->status == GIT_DELTA_MODIFIED) {
			git_oid_tostr(hex, sizeof(hex), &d->old_file.id);
			archive_remove_where(a, src, hex);
		}
		if (d->status == GIT_DELTA_ADDED || d->status == GIT_DELTA_MODIFIED) {
			git_oid_tostr(hex, sizeof(hex), &d->new_file.id);
			ret = index_blob(a, src, repo, &d->new_file.id, hex);
		}
	}
out:
	git_diff_free(diff);
	git_tree_free(ptree);
	git_tree_free(tree);
	return ret;
}

/*
 * The tree of commit id and of its first parent (*has_parent 0 when it
 * has none), also of a malformed commit (read from its object, with a
 * warning: nothing of the message it adds is lost).  0, or -1 after an
 * error message.
 */
static int commit_trees(git_repository *repo, const git_oid *id,
			git_oid *tree, git_oid *ptree, int *has_parent,
			const char *path)
{
	struct malformed_commit m;
	git_commit *commit = NULL;
	int ret = 0;

	if (!git_commit_lookup(&commit, repo, id)) {
		git_oid_cpy(tree, git_commit_tree_id(commit));
		*has_parent = git_commit_parentcount(commit) > 0;
		if (*has_parent)
			ret = malformed_tree_id(ptree, repo,
						git_commit_parent_id(commit, 0));
		git_commit_free(commit);
	} else if (malformed_check(&m, repo, id)) {
		malformed_warn(id, m.reason, "its message read from its blob");
		git_oid_cpy(tree, &m.tree);
		*has_parent = m.nr_parents > 0;
		if (*has_parent)
			ret = malformed_tree_id(ptree, repo, &m.parents[0]);
		malformed_release(&m);
	} else {
		ret = -1;
	}
	return ret < 0 ? error_git("cannot read '%s': commit %s", path,
				   git_oid_tostr_s(id)) : 0;
}

/*
 * The commits of repo from the tip the cache saw (state key) to its
 * tip, oldest first; all of them when the cache saw none, or saw a tip
 * that is no longer in the history (rewritten: forget what the cache
 * had of it, prefix of where).
 */
static int read_repo(struct archive *a, size_t src, git_repository *repo,
		     const char *key, const char *prefix, int epoch)
{
	struct archive_source *s = &a->sources[src];
	const char *seen = archive_state_get(s, key);
	struct history_walk walk;
	git_oid tip, old, id, tree, ptree;
	char hex[GIT_OID_HEXSZ + 1];
	int ret, have_old = 0;

	if (repo_tip(repo, &tip) < 0)
		return 0;		/* an epoch with no message yet */
	if (seen && !git_oid_fromstr(&old, seen)) {
		if (git_oid_equal(&old, &tip))
			return 0;
		have_old = history_descendant_of(repo, &tip, &old) > 0;
	}
	git_error_clear();
	if (seen && !have_old)
		archive_forget_source(a, src, prefix);
	history_walk_init(&walk, repo, GIT_SORT_TOPOLOGICAL | GIT_SORT_REVERSE);
	if (history_walk_push(&walk, &tip) < 0 ||
	    (have_old && history_walk_hide(&walk, &old) < 0)) {
		history_walk_release(&walk);
		return error_git("cannot walk '%s'", s->path);
	}
	while (!(ret = history_walk_next(&id, &walk))) {
		int has_parent;

		ret = commit_trees(repo, &id, &tree, &ptree, &has_parent, s->path);
		if (!ret)
			ret = epoch >= 0 ? v2_commit(a, src, repo, epoch, &tree)
					 : v1_commit(a, src, repo, &tree,
						     has_parent ? &ptree : NULL);
		if (ret < 0)
			break;
	}
	history_walk_release(&walk);
	if (ret != GIT_ITEROVER)
		return ret < 0 ? -1 : error_git("cannot walk '%s'", s->path);
	git_oid_tostr(hex, sizeof(hex), &tip);
	archive_state_set(s, key, hex);
	return 0;
}

static int open_repo(struct archive_source *s, const char *path,
		     git_repository **out)
{
	if (git_repository_open_ext(out, path, GIT_REPOSITORY_OPEN_NO_SEARCH |
				    GIT_REPOSITORY_OPEN_BARE, NULL) < 0)
		return error_git("cannot open '%s' of the archive '%s'", path, s->path);
	return 0;
}

/* The epochs of a v2 inbox: the N of git/N.git, ascending. */
static int list_epochs(const char *dir, int **out, size_t *nr)
{
	char *gitdir = xstrfmt("%s/git", dir);
	DIR *d = opendir(gitdir);
	struct dirent *de;
	size_t alloc = 0;

	*out = NULL;
	*nr = 0;
	if (!d) {
		free(gitdir);
		return -1;
	}
	while ((de = readdir(d))) {
		char *end;
		long n = strtol(de->d_name, &end, 10);

		if (end == de->d_name || strcmp(end, ".git") || n < 0 || n > INT_MAX)
			continue;
		ALLOC_GROW(*out, *nr, alloc);
		(*out)[(*nr)++] = (int)n;
	}
	closedir(d);
	free(gitdir);
	QSORT(*out, *nr, cmp_int);
	return 0;
}

static int read_v2(struct archive *a, size_t src)
{
	struct archive_source *s = &a->sources[src];
	int *epochs, ret = 0;
	size_t nr, i;

	if (list_epochs(s->path, &epochs, &nr) < 0)
		return error("cannot read '%s/git': %s", s->path, strerror(errno));
	if (!nr) {
		free(epochs);
		return error("'%s' is not a public-inbox v2 archive: git/ holds "
			     "no epoch (git/0.git, ...)", s->path);
	}
	s->repos = xcalloc((size_t)epochs[nr - 1] + 1, sizeof(*s->repos));
	s->nr_repos = (size_t)epochs[nr - 1] + 1;
	for (i = 0; !ret && i < nr; i++) {
		char *path = xstrfmt("%s/git/%d.git", s->path, epochs[i]);
		char *key = xstrfmt("epoch %d", epochs[i]);
		char *prefix = xstrfmt("%d:", epochs[i]);

		ret = open_repo(s, path, &s->repos[epochs[i]]);
		if (!ret)
			ret = read_repo(a, src, s->repos[epochs[i]], key, prefix,
					epochs[i]);
		free(prefix);
		free(key);
		free(path);
	}
	free(epochs);
	return ret;
}

static int read_v1(struct archive *a, size_t src)
{
	struct archive_source *s = &a->sources[src];

	s->repos = xcalloc(1, sizeof(*s->repos));
	s->nr_repos = 1;
	if (open_repo(s, s->path, &s->repos[0]) < 0)
		return -1;
	return read_repo(a, src, s->repos[0], "tip", NULL, -1);
}


static int detect_v2(const char *path, const struct stat *st)
{
	return S_ISDIR(st->st_mode) && is_dir_in(path, "git");
}

static int detect_v1(const char *path, const struct stat *st)
{
	git_repository *repo = NULL;

	if (!S_ISDIR(st->st_mode))
		return 0;
	if (!git_repository_open_ext(&repo, path, GIT_REPOSITORY_OPEN_NO_SEARCH |
				     GIT_REPOSITORY_OPEN_BARE, NULL)) {
		git_repository_free(repo);
		return 1;
	}
	git_error_clear();
	return 0;
}

/* The blob of m: "N:BLOB" in epoch N (v2), "BLOB" (v1). */
static int reread(struct archive *a, const struct archive_msg *m,
		  struct strbuf *sb)
{
	struct archive_source *s = &a->sources[m->source];
	const char *hex = m->where;
	git_blob *blob = NULL;
	git_oid id;
	size_t epoch = 0;

	if (s->kind == ARCHIVE_PI_V2) {
		epoch = strtoul(m->where, NULL, 10);
		hex = strchr(m->where, ':');
		hex = hex ? hex + 1 : "";
	}
	if (epoch >= s->nr_repos || !s->repos[epoch] ||
	    git_oid_fromstr(&id, hex) < 0 ||
	    git_blob_lookup(&blob, s->repos[epoch], &id) < 0)
		return error_git("cannot read message <%s> of '%s' (%s)",
				 m->message_id, s->path, m->where);
	strbuf_add(sb, git_blob_rawcontent(blob), (size_t)git_blob_rawsize(blob));
	git_blob_free(blob);
	return 0;
}

const struct archive_ops archive_pi_v2_ops = {
	"public-inbox-v2", ARCHIVE_PI_V2, detect_v2, read_v2, reread,
};

const struct archive_ops archive_pi_v1_ops = {
	"public-inbox-v1", ARCHIVE_PI_V1, detect_v1, read_v1, reread,
};
