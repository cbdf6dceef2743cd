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
 *
 * The same sources, by name and bytes, make patchid_attributes_key()
 * (patchid.h), which the patch-id cache and the memo are keyed on.
 */
#include "git/patchid-diff.h"
#include "git/patchid.h"
#include "base/sha1.h"
#include "base/strbuf.h"
#include "base/trace.h"
#include "base/util.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
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

/*
 * Calls fn with each path a file named name would have in the
 * directories of a libgit2 search path, until fn returns non-zero:
 * that, 0, or -1 when the search path cannot be read.
 */
static int each_in_search_path(int level, const char *name,
			       int (*fn)(const char *path, void *data),
			       void *data)
{
	git_buf dirs = { NULL, 0, 0 };
	struct strbuf path = STRBUF_INIT;
	const char *p, *end;
	int ret = 0;

	if (git_libgit2_opts(GIT_OPT_GET_SEARCH_PATH, level, &dirs) < 0) {
		git_error_clear();
		return -1;
	}
	for (p = dirs.ptr ? dirs.ptr : ""; *p && !ret; p = *end ? end + 1 : end) {
		end = strchr(p, ':');
		if (!end)
			end = p + strlen(p);
		if (end == p)
			continue;
		strbuf_reset(&path);
		strbuf_add(&path, p, (size_t)(end - p));
		strbuf_addf(&path, "/%s", name);
		ret = fn(path.buf, data);
	}
	strbuf_release(&path);
	git_buf_dispose(&dirs);
	return ret;
}

static int exists_fn(const char *path, void *data)
{
	(void)data;
	return exists(path);
}

/* A file named name in any directory of a libgit2 search path. */
static int in_search_path(int level, const char *name)
{
	/* (Cannot tell: ask libgit2.) */
	return each_in_search_path(level, name, exists_fn, NULL) != 0;
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

/*
 * The key of the attribute files (patchid.h): each source libgit2 reads
 * (attr.c, collect_attr_files(), with GIT_ATTR_CHECK_FILE_THEN_INDEX),
 * by its name and bytes, or that it is missing.
 */

static void key_feed(struct sha1 *ctx, const char *what, const char *s)
{
	sha1_update(ctx, what, strlen(what) + 1);
	sha1_update(ctx, s, strlen(s) + 1);
}

/* A file's bytes, as libgit2 would read them (following a symlink). */
static void key_file(struct sha1 *ctx, const char *what, const char *path)
{
	struct strbuf sb = STRBUF_INIT;
	struct stat st;
	char buf[64];

	key_feed(ctx, what, path);
	if (stat(path, &st) < 0) {
		snprintf(buf, sizeof(buf), "errno %d", errno);
	} else if (!S_ISREG(st.st_mode)) {
		/* Not read (a FIFO would hang us): what it is says enough. */
		snprintf(buf, sizeof(buf), "mode %o", (unsigned)st.st_mode);
	} else if (strbuf_read_file(&sb, path) < 0) {
		snprintf(buf, sizeof(buf), "errno %d", errno);
	} else {
		snprintf(buf, sizeof(buf), "size %zu", sb.len);
		sha1_update(ctx, sb.buf, sb.len);
	}
	key_feed(ctx, "", buf);
	strbuf_release(&sb);
}

/* name in every directory of a libgit2 search path. */
static int key_file_fn(const char *path, void *data)
{
	key_file(data, "search path", path);
	return 0;
}

static void key_search_path(struct sha1 *ctx, int level, const char *name)
{
	if (each_in_search_path(level, name, key_file_fn, ctx) < 0)
		key_feed(ctx, "search path", "unreadable");
}

/* info/attributes, core.attributesFile (else the XDG file), the system's. */
static void key_outside(struct sha1 *ctx, git_repository *repo)
{
	git_buf buf = { NULL, 0, 0 };
	git_config *cfg = NULL;

	if (git_repository_item_path(&buf, repo, GIT_REPOSITORY_ITEM_INFO) < 0) {
		key_feed(ctx, "info", "unreadable");
	} else {
		char *path = xstrfmt("%s%sattributes", buf.ptr,
				     buf.size && buf.ptr[buf.size - 1] == '/' ? "" : "/");

		key_file(ctx, "info", path);
		free(path);
	}
	git_buf_dispose(&buf);
	if (git_repository_config_snapshot(&cfg, repo) < 0) {
		key_feed(ctx, "config", "unreadable");
	} else if (!git_config_get_path(&buf, cfg, "core.attributesfile")) {
		key_file(ctx, "core.attributesFile", buf.ptr);
	} else {
		key_search_path(ctx, GIT_CONFIG_LEVEL_XDG, "attributes");
	}
	git_buf_dispose(&buf);
	git_config_free(cfg);
	key_search_path(ctx, GIT_CONFIG_LEVEL_SYSTEM, "gitattributes");
	git_error_clear();
}

struct seen_dir {
	UT_hash_handle hh;
	char name[];
};

/* What the entries of the index have fed so far. */
struct tree_key {
	struct sha1 *ctx;
	const char *workdir;		/* NULL: a bare repository */
	int fd;				/* the working tree, or AT_FDCWD */
	struct seen_dir *seen;		/* the directories looked into */
	struct strbuf file;		/* scratch */
	struct strbuf last;		/* the directory of the entry before */
};

/* A directory's .gitattributes in the working tree, if it has one. */
static void key_dir(struct tree_key *k, const char *dir, size_t len)
{
	struct seen_dir *d;

	HASH_FIND(hh, k->seen, dir, len, d);
	if (d)
		return;
	d = xcalloc(1, sizeof(*d) + len + 1);
	memcpy(d->name, dir, len);
	HASH_ADD(hh, k->seen, name[0], len, d);
	strbuf_reset(&k->file);
	strbuf_addf(&k->file, "%s%s%s.gitattributes", k->workdir, d->name,
		    len ? "/" : "");
	/* Looked up from the tree's directory: a path walk the shorter. */
	if (!faccessat(k->fd, k->fd == AT_FDCWD ? k->file.buf :
		       k->file.buf + strlen(k->workdir), F_OK, 0))
		key_file(k->ctx, "worktree", k->file.buf);
}

/* An entry of the index: path (len bytes, then a NUL) and its id. */
static void key_entry(struct tree_key *k, const char *path, size_t len,
		      const unsigned char *id)
{
	const char *slash = strrchr(path, '/');
	const char *base = slash ? slash + 1 : path;
	size_t dir_len = slash ? (size_t)(slash - path) : 0, i;

	if ((size_t)(path + len - base) == strlen(".gitattributes") &&
	    !memcmp(base, ".gitattributes", strlen(".gitattributes"))) {
		char hex[2 * SHA1_RAWSZ + 1];

		for (i = 0; i < SHA1_RAWSZ; i++)
			snprintf(hex + 2 * i, 3, "%02x", id[i]);
		key_feed(k->ctx, "index", path);
		key_feed(k->ctx, "", hex);
	}
	/* The index is sorted: a directory's files follow each other. */
	if (!k->workdir || !slash ||
	    (dir_len == k->last.len && !memcmp(k->last.buf, path, dir_len)))
		return;
	strbuf_reset(&k->last);
	strbuf_add(&k->last, path, dir_len);
	for (i = 1; i <= dir_len; i++)
		if (i == dir_len || path[i] == '/')
			key_dir(k, path, i);
}

static uint32_t get_be32(const unsigned char *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 |
	       (uint32_t)p[2] << 8 | (uint32_t)p[3];
}

/*
 * The entries of the index file, read as git's read-cache.c lays them
 * out (versions 2 to 4, SHA-1 ids): libgit2 takes some 200 ms to load
 * an index of 80,000 files (each entry parsed, kept and sorted), for the
 * few names looked at here.  0 (also when there is no index), or -1 for
 * a file not read here (a split index, whose entries are in another
 * file; another version; a file cut short): then libgit2 reads it.
 */
static int key_index_file(struct tree_key *k, const char *path)
{
	struct strbuf sb = STRBUF_INIT, name = STRBUF_INIT;
	const unsigned char *p, *end;
	uint32_t version, nr, i;
	int ret = -1;

	if (strbuf_read_file(&sb, path) < 0) {
		ret = errno == ENOENT ? 0 : -1;
		goto out;
	}
	if (sb.len < 12 + SHA1_RAWSZ || memcmp(sb.buf, "DIRC", 4))
		goto out;
	p = (const unsigned char *)sb.buf;
	end = p + sb.len - SHA1_RAWSZ;	/* the checksum */
	version = get_be32(p + 4);
	nr = get_be32(p + 8);
	if (version < 2 || version > 4)
		goto out;
	for (p += 12, i = 0; i < nr; i++) {
		const unsigned char *entry = p, *nul;
		size_t fixed = 62;	/* times, ids, mode, size, id, flags */

		if (end - p < 62)
			goto out;
		if (p[60] & 0x40) {	/* extended flags */
			if (version < 3)
				goto out;
			fixed += 2;
		}
		if ((size_t)(end - p) < fixed + 1)
			goto out;
		p += fixed;
		if (version == 4) {
			/* How much of the name before to drop (varint.c). */
			uintmax_t strip = *p & 127;

			while (*p++ & 128) {
				if (p >= end || strip >> 50)
					goto out;
				strip = ((strip + 1) << 7) | (*p & 127);
			}
			if (strip > name.len)
				goto out;
			strbuf_setlen(&name, name.len - (size_t)strip);
		} else {
			strbuf_reset(&name);
		}
		nul = memchr(p, '\0', (size_t)(end - p));
		if (!nul)
			goto out;
		strbuf_add(&name, p, (size_t)(nul - p));
		/* Versions 2 and 3 pad an entry with NULs to 8 bytes. */
		p = version == 4 ? nul + 1 :
		    entry + ((fixed + (size_t)(nul - p) + 8) & ~(size_t)7);
		if (p > end)
			goto out;
		key_entry(k, name.buf, name.len, entry + 40);
	}
	for (; end - p >= 8; p += 8 + get_be32(p + 4)) {
		if (!memcmp(p, "link", 4) ||
		    get_be32(p + 4) > (size_t)(end - p) - 8)
			goto out;
	}
	ret = 0;
out:
	strbuf_release(&name);
	strbuf_release(&sb);
	return ret;
}

/* The same from libgit2's index, for a file not read above. */
static void key_index(struct tree_key *k, git_repository *repo)
{
	git_index *index = NULL;
	size_t i, nr;

	trace_printf("attributes: the index is read by libgit2");
	key_feed(k->ctx, "index", "as libgit2 reads it");
	if (git_repository_index(&index, repo) < 0 ||
	    git_index_read(index, 0) < 0) {
		git_error_clear();
		key_feed(k->ctx, "index", "unreadable");
		git_index_free(index);
		return;
	}
	nr = git_index_entrycount(index);
	for (i = 0; i < nr; i++) {
		const git_index_entry *e = git_index_get_byindex(index, i);

		key_entry(k, e->path, strlen(e->path), e->id.id);
	}
	git_index_free(index);
}

/*
 * The working tree's .gitattributes of every directory the index has
 * a file in (and of their parents), and the index's own.
 */
static void key_tree(struct sha1 *ctx, git_repository *repo)
{
	struct tree_key k = { ctx, git_repository_workdir(repo), AT_FDCWD, NULL,
			      STRBUF_INIT, STRBUF_INIT };
	struct seen_dir *d, *tmp;
	char *index = xstrfmt("%sindex", git_repository_path(repo));

	if (k.workdir) {
		k.fd = open(k.workdir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		if (k.fd < 0)
			k.fd = AT_FDCWD;
		key_dir(&k, "", 0);
	}
	if (key_index_file(&k, index) < 0)
		key_index(&k, repo);
	HASH_ITER(hh, k.seen, d, tmp) {
		HASH_DEL(k.seen, d);
		free(d);
	}
	if (k.fd != AT_FDCWD)
		close(k.fd);
	strbuf_release(&k.file);
	strbuf_release(&k.last);
	free(index);
}

void patchid_attributes_key(unsigned char *key, git_repository *repo)
{
	struct sha1 ctx;

	sha1_init(&ctx);
	key_outside(&ctx, repo);
	key_tree(&ctx, repo);
	sha1_final(key, &ctx);
}
