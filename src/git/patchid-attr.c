/*
 * Whether any gitattributes file could apply to a path (patchid-diff.h),
 * for patchid.c: libgit2 looks the "diff" attribute up for each side of
 * each file it diffs, and each look-up stats every attribute file from
 * the path's directory up, the system's and the user's, and resolves
 * the working tree's path again: some twenty system calls a file, a
 * third of the time of a patch-id.  git keeps what it found per
 * directory; so does this, per thread, knowing only whether the files
 * exist.  A file that exists sends the path back to libgit2, which
 * reads it: the answer is always libgit2's.
 *
 * The sources are libgit2's (attr.c, collect_attr_files()):
 * $GIT_DIR/info/attributes, a ".gitattributes" of each directory of the
 * path in the working tree and in the index, core.attributesFile (or
 * the XDG "git/attributes"), and the system's "gitattributes".
 */
#include "git/patchid-diff.h"
#include "base/strbuf.h"
#include "base/util.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <uthash.h>

struct attr_dir {
	UT_hash_handle hh;
	int has;			/* a .gitattributes of its own */
	char *name;			/* "" for the top, else "a/b" */
};

struct attr_probe {
	git_repository *repo;
	char *gitdir;			/* to tell a repository at the same address */
	int everywhere;			/* a file outside the tree, or unsure */
	git_index *index;		/* NULL if none could be read */
	struct attr_dir *dirs;
};

static pthread_key_t probe_key;
static pthread_once_t probe_once = PTHREAD_ONCE_INIT;

static int exists(const char *path)
{
	struct stat st;

	return !lstat(path, &st);
}

/* A file named name in any directory of a libgit2 search path. */
static int in_search_path(int level, const char *name)
{
	git_buf dirs = { NULL, 0, 0 };
	struct strbuf path = STRBUF_INIT;
	const char *p, *end;
	int found = 0;

	if (git_libgit2_opts(GIT_OPT_GET_SEARCH_PATH, level, &dirs) < 0) {
		git_error_clear();
		return 1;	/* cannot tell: ask libgit2 */
	}
	for (p = dirs.ptr ? dirs.ptr : ""; *p && !found; p = *end ? end + 1 : end) {
		end = strchr(p, ':');
		if (!end)
			end = p + strlen(p);
		if (end == p)
			continue;
		strbuf_reset(&path);
		strbuf_add(&path, p, (size_t)(end - p));
		strbuf_addf(&path, "/%s", name);
		found = exists(path.buf);
	}
	strbuf_release(&path);
	git_buf_dispose(&dirs);
	return found;
}

/* Whether a file outside the tree could hold attributes. */
static int attributes_everywhere(git_repository *repo)
{
	git_buf info = { NULL, 0, 0 };
	git_config *cfg = NULL;
	git_buf file = { NULL, 0, 0 };
	int ret = 0;

	if (git_repository_item_path(&info, repo, GIT_REPOSITORY_ITEM_INFO) < 0) {
		ret = 1;
	} else {
		char *path = xstrfmt("%s%sattributes", info.ptr,
				     info.size && info.ptr[info.size - 1] == '/' ? "" : "/");

		ret = exists(path);
		free(path);
	}
	git_buf_dispose(&info);
	if (ret)
		goto out;
	if (git_repository_config_snapshot(&cfg, repo) < 0) {
		ret = 1;
		goto out;
	}
	/* core.attributesFile, set at all, replaces the XDG file. */
	if (git_config_get_path(&file, cfg, "core.attributesfile") != GIT_ENOTFOUND)
		ret = 1;
	else
		ret = in_search_path(GIT_CONFIG_LEVEL_XDG, "attributes") ||
		      in_search_path(GIT_CONFIG_LEVEL_SYSTEM, "gitattributes");
	git_buf_dispose(&file);
	git_config_free(cfg);
out:
	git_error_clear();
	return ret;
}

static void probe_free(void *p)
{
	struct attr_probe *probe = p;
	struct attr_dir *d, *tmp;

	if (!probe)
		return;
	HASH_ITER(hh, probe->dirs, d, tmp) {
		HASH_DEL(probe->dirs, d);
		free(d->name);
		free(d);
	}
	git_index_free(probe->index);
	free(probe->gitdir);
	free(probe);
}

static void make_key(void)
{
	pthread_key_create(&probe_key, probe_free);
}

/* The thread's probe of repo, set up again for another repository. */
static struct attr_probe *get_probe(git_repository *repo)
{
	struct attr_probe *probe;

	pthread_once(&probe_once, make_key);
	probe = pthread_getspecific(probe_key);
	if (probe && probe->repo == repo &&
	    !strcmp(probe->gitdir, git_repository_path(repo)))
		return probe;
	probe_free(probe);
	probe = xcalloc(1, sizeof(*probe));
	probe->repo = repo;
	probe->gitdir = xstrdup(git_repository_path(repo));
	probe->everywhere = attributes_everywhere(repo);
	if (!probe->everywhere && git_repository_index(&probe->index, repo) < 0) {
		git_error_clear();
		probe->everywhere = 1;
	}
	pthread_setspecific(probe_key, probe);
	return probe;
}

/* Whether the directory (len bytes of path) has a .gitattributes. */
static int dir_has_file(struct attr_probe *probe, const char *path, size_t len)
{
	const char *workdir = git_repository_workdir(probe->repo);
	struct strbuf file = STRBUF_INIT;
	struct attr_dir *d;

	HASH_FIND(hh, probe->dirs, path, len, d);
	if (d)
		return d->has;
	d = xcalloc(1, sizeof(*d));
	d->name = xstrndup(path, len);
	if (workdir)
		strbuf_addstr(&file, workdir);
	strbuf_add(&file, path, len);
	strbuf_addstr(&file, len ? "/.gitattributes" : ".gitattributes");
	d->has = !!git_index_get_bypath(probe->index,
					file.buf + (workdir ? strlen(workdir) : 0), 0);
	if (!d->has && workdir)
		d->has = exists(file.buf);
	strbuf_release(&file);
	HASH_ADD_KEYPTR(hh, probe->dirs, d->name, len, d);
	return d->has;
}

int patchid_no_attributes(git_repository *repo, const char *path)
{
	struct attr_probe *probe = get_probe(repo);
	const char *slash;

	if (probe->everywhere || dir_has_file(probe, "", 0))
		return 0;
	for (slash = strchr(path, '/'); slash; slash = strchr(slash + 1, '/'))
		if (dir_has_file(probe, path, (size_t)(slash - path)))
			return 0;
	return 1;
}
