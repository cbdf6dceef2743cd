#include "archive.h"
#include "cachefile.h"
#include "error.h"
#include "patchid.h"
#include "sha1.h"
#include "strbuf.h"
#include "trace.h"
#include "util.h"

#include <dirent.h>
#include <stdint.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#define CACHE_MAGIC "stablepick archive cache"
#define CACHE_VERSION 2
/* A cache file appended to this often is written whole again. */
#define MAX_APPENDS 32

static const char *const kind_names[] = {
	[ARCHIVE_PI_V2] = "public-inbox-v2",
	[ARCHIVE_PI_V1] = "public-inbox-v1",
	[ARCHIVE_MAILDIR] = "maildir",
	[ARCHIVE_MBOX] = "mbox",
};

void archive_init(struct archive *a, const char *cache_dir)
{
	memset(a, 0, sizeof(*a));
	a->cache_dir = cache_dir ? xstrdup(cache_dir) : NULL;
}

static void msg_free(struct archive_msg *m)
{
	free(m->message_id);
	free(m->in_reply_to);
	free(m->first_ref);
	free(m->from);
	free(m->email);
	free(m->subject);
	free(m->title);
	free(m->where);
	free(m);
}

static void buckets_free(struct archive_bucket **head)
{
	struct archive_bucket *b, *tmp;

	HASH_ITER(hh, *head, b, tmp) {
		HASH_DEL(*head, b);
		free(b->key);
		free(b->items);
		free(b);
	}
}

static void lookups_free(struct archive *a)
{
	HASH_CLEAR(hh, a->by_id);
	buckets_free(&a->by_thread);
	buckets_free(&a->by_title);
	buckets_free(&a->by_email);
	buckets_free(&a->by_patch_id);
}

void archive_release(struct archive *a)
{
	size_t i, j;

	lookups_free(a);
	for (i = 0; i < a->nr; i++)
		msg_free(a->msgs[i]);
	free(a->msgs);
	for (i = 0; i < a->nr_sources; i++) {
		struct archive_source *s = &a->sources[i];

		for (j = 0; j < s->nr_repos; j++)
			git_repository_free(s->repos[j]);
		free(s->repos);
		for (j = 0; j < s->nr_state; j++)
			free(s->state[j]);
		free(s->state);
		free(s->path);
		free(s->abs);
		free(s->cache_path);
		if (s->text) {
			strbuf_release(s->text);
			free(s->text);
		}
	}
	free(a->sources);
	free(a->cache_dir);
	memset(a, 0, sizeof(*a));
}

char *archive_email(const char *from)
{
	const char *lt = from ? strrchr(from, '<') : NULL;
	char *email;
	size_t i;

	if (lt)
		email = xstrndup(lt + 1, strcspn(lt + 1, ">"));
	else
		email = xstrdup(from && strchr(from, '@') ? from : "");
	for (i = 0; email[i]; i++)
		if (email[i] >= 'A' && email[i] <= 'Z')
			email[i] = (char)(email[i] - 'A' + 'a');
	return email;
}

/* A header value as the cache keeps it: one line, no tab. */
static char *field(const char *s)
{
	char *v = xstrdup(s ? s : "");
	size_t i;

	for (i = 0; v[i]; i++)
		if (v[i] == '\t' || v[i] == '\n' || v[i] == '\r')
			v[i] = ' ';
	return v;
}

static void add_msg(struct archive *a, struct archive_msg *m)
{
	ALLOC_GROW(a->msgs, a->nr, a->alloc);
	a->msgs[a->nr++] = m;
}

/*
 * Indexes one message read from source src at where; a message without
 * a Message-ID cannot be found by one and is only counted.
 */
static void index_message(struct archive *a, size_t src, const struct mbox_msg *mm,
			  const char *where)
{
	struct archive_msg *m;
	long long t;
	int tz;

	if (!mm->message_id || !*mm->message_id) {
		a->sources[src].nr_skipped++;
		return;
	}
	m = xcalloc(1, sizeof(*m));
	m->message_id = field(mm->message_id);
	m->in_reply_to = mm->in_reply_to ? field(mm->in_reply_to) : NULL;
	m->first_ref = mm->nr_references ? field(mm->references[0]) : NULL;
	m->from = field(mm->from);
	m->email = archive_email(m->from);
	m->subject = field(mm->subject);
	m->title = field(mm->title);
	if (!mbox_parse_date(mm->date, &t, &tz))
		m->time = t;
	m->number = mm->number;
	m->total = mm->total;
	m->revision = mm->revision ? mm->revision : 1;
	m->is_reply = mm->is_reply;
	m->backport = mm->version || mm->autosel;
	if (!m->is_reply && mm->diff && !patchid_text(&m->patch_id, mm->diff))
		m->has_patch_id = 1;
	m->source = src;
	m->where = xstrdup(where);
	add_msg(a, m);
	a->sources[src].nr_read++;
	a->sources[src].dirty = 1;
}

/* Indexes the one message of buf (a blob, a maildir file). */
static void index_buffer(struct archive *a, size_t src, const char *buf,
			 size_t len, const char *where)
{
	struct mbox mb = MBOX_INIT;

	/* What is not a message at all cannot be indexed: skip it. */
	if (!mbox_read_quiet(&mb, buf, len) && mb.nr)
		index_message(a, src, &mb.msgs[0], where);
	else
		a->sources[src].nr_skipped++;
	mbox_release(&mb);
}

/* Marks the messages of src at where removed. */
static void remove_where(struct archive *a, size_t src, const char *where)
{
	size_t i;

	for (i = 0; i < a->nr; i++)
		if (a->msgs[i]->source == src && !a->msgs[i]->removed &&
		    !strcmp(a->msgs[i]->where, where)) {
			a->msgs[i]->removed = 1;
			a->sources[src].dirty = 1;
			a->sources[src].rewrite = 1;
		}
}

/* Drops every message of src (to read it again whole). */
static void forget_source(struct archive *a, size_t src, const char *prefix)
{
	size_t i, len = prefix ? strlen(prefix) : 0;

	for (i = 0; i < a->nr; i++)
		if (a->msgs[i]->source == src &&
		    (!prefix || !strncmp(a->msgs[i]->where, prefix, len)))
			a->msgs[i]->removed = 1;
	a->sources[src].dirty = 1;
	a->sources[src].rewrite = 1;
}

/* --- the cache -------------------------------------------------------- */

static const char *state_get(const struct archive_source *s, const char *key)
{
	size_t i, len = strlen(key);

	for (i = 0; i < s->nr_state; i++)
		if (!strncmp(s->state[i], key, len) && s->state[i][len] == ' ')
			return s->state[i] + len + 1;
	return NULL;
}

static void state_set(struct archive_source *s, const char *key,
		      const char *value)
{
	size_t i, len = strlen(key);
	char *line = xstrfmt("%s %s", key, value);

	s->dirty = 1;
	for (i = 0; i < s->nr_state; i++)
		if (!strncmp(s->state[i], key, len) && s->state[i][len] == ' ') {
			free(s->state[i]);
			s->state[i] = line;
			return;
		}
	ALLOC_GROW(s->state, s->nr_state, s->alloc_state);
	s->state[s->nr_state++] = line;
}

/* The key of a state line: "epoch N", else its first word. */
static size_t state_key_len(const char *line)
{
	size_t len = strcspn(line, " ");

	if (!strncmp(line, "epoch ", 6))
		len = 6 + strcspn(line + 6, " ");
	return len;
}

/* A state line of the file: a later one of a key replaces an earlier. */
static void state_load(struct archive_source *s, const char *line)
{
	size_t len = state_key_len(line), i;

	for (i = 0; i < s->nr_state; i++)
		if (state_key_len(s->state[i]) == len &&
		    !strncmp(s->state[i], line, len)) {
			free(s->state[i]);
			s->state[i] = xstrdup(line);
			return;
		}
	ALLOC_GROW(s->state, s->nr_state, s->alloc_state);
	s->state[s->nr_state++] = xstrdup(line);
}

/* Splits line at tabs into at most max fields, in place; how many. */
static size_t split_tabs(char *line, char **fields, size_t max)
{
	size_t n = 0;

	while (n < max) {
		fields[n++] = line;
		line = strchr(line, '\t');
		if (!line)
			break;
		*line++ = '\0';
	}
	return n;
}

static int parse_int(const char *s, long long *out)
{
	char *end;

	errno = 0;
	*out = strtoll(s, &end, 10);
	return errno || end == s || *end ? -1 : 0;
}

/* One "m" line of the cache; -1 if it is malformed. */
static int load_msg(struct archive *a, size_t src, char *line)
{
	char *f[15];
	long long v[6];
	struct archive_msg *m;
	size_t i;

	if (split_tabs(line, f, ARRAY_SIZE(f)) != 15 || strcmp(f[0], "m") ||
	    !*f[1] || !*f[2])
		return -1;
	for (i = 0; i < 6; i++)
		if (parse_int(f[6 + i], &v[i]) < 0)
			return -1;
	m = xcalloc(1, sizeof(*m));
	if (*f[12] && (strlen(f[12]) != GIT_OID_HEXSZ ||
		       git_oid_fromstr(&m->patch_id, f[12]) < 0)) {
		git_error_clear();
		free(m);
		return -1;
	}
	m->has_patch_id = !!*f[12];
	m->where = xstrdup(f[1]);
	m->message_id = xstrdup(f[2]);
	m->in_reply_to = *f[3] ? xstrdup(f[3]) : NULL;
	m->first_ref = *f[4] ? xstrdup(f[4]) : NULL;
	m->title = xstrdup(f[5]);
	m->time = v[0];
	m->number = (int)v[1];
	m->total = (int)v[2];
	m->revision = (int)v[3];
	m->is_reply = !!v[4];
	m->backport = !!v[5];
	m->from = xstrdup(f[13]);
	m->email = archive_email(m->from);
	m->subject = xstrdup(f[14]);
	m->source = src;
	add_msg(a, m);
	return 0;
}

static void cache_line_msg(struct strbuf *sb, const struct archive_msg *m)
{
	char hex[GIT_OID_HEXSZ + 1] = "";

	if (m->has_patch_id)
		git_oid_tostr(hex, sizeof(hex), &m->patch_id);
	strbuf_addf(sb, "m\t%s\t%s\t%s\t%s\t%s\t%lld\t%d\t%d\t%d\t%d\t%d\t%s\t%s\t%s\n",
		    m->where, m->message_id, m->in_reply_to ? m->in_reply_to : "",
		    m->first_ref ? m->first_ref : "", m->title, m->time,
		    m->number, m->total, m->revision, m->is_reply, m->backport,
		    hex, m->from, m->subject);
}

/* 40 hex digits of the SHA-1 of buf. */
static void sha1_hex(char *hex, const void *buf, size_t len)
{
	struct cachefile_sum sum;

	cachefile_sum_init(&sum, CACHEFILE_SHA1);
	cachefile_sum_update(&sum, buf, len);
	cachefile_sum_hex(&sum, hex);
}

/*
 * Reads the cache of source src.  Nothing here is fatal: a cache that
 * does not check out is ignored (with a warning) and the archive read
 * again.
 */
static void cache_load(struct archive *a, size_t src)
{
	struct archive_source *s = &a->sources[src];
	struct strbuf sb = STRBUF_INIT;
	char *line, *next;
	size_t first = a->nr, lineno = 0, i, appends = 0, body = 0;
	struct cachefile_sum h;
	const char *why = NULL;

	s->rewrite = 1;
	if (!s->cache_path || strbuf_read_file(&sb, s->cache_path) < 0) {
		strbuf_release(&sb);
		return;
	}
	switch (cachefile_verify(sb.buf, sb.len, CACHEFILE_HASH64, &body, &h)) {
	case CACHEFILE_OK:
		break;
	case CACHEFILE_CUT:
		why = "it is cut short";
		goto out;
	default:
		why = "its checksum does not match";
		goto out;
	}
	/* What an append continues from: every byte of the file. */
	cachefile_sum_update(&h, sb.buf + body, sb.len - body);
	sb.buf[body] = '\0';
	for (line = sb.buf; *line; line = next) {
		next = strchr(line, '\n');
		*next++ = '\0';
		lineno++;
		if (lineno == 1) {
			if (cachefile_check_header(line, strlen(line), CACHE_MAGIC,
						   CACHE_VERSION))
				why = "it is of another version";
		} else if (lineno == 2) {
			char *expect = xstrfmt("source %s %s",
					       kind_names[s->kind], s->abs);

			if (strcmp(line, expect))
				why = "it is of another archive";
			free(expect);
		} else if (line[0] == 'm' && line[1] == '\t') {
			if (load_msg(a, src, line) < 0)
				why = "a line is malformed";
		} else if (!strncmp(line, "checksum ", 9)) {
			appends++;	/* where an earlier run appended */
		} else if (*line) {
			state_load(s, line);
		}
		if (why)
			break;
	}
	if (!why) {
		s->loaded_len = sb.len;
		s->loaded_hash = h;
		s->loaded_end = a->nr;
		s->rewrite = appends >= MAX_APPENDS;
	}
out:
	if (why) {
		warning("ignoring the archive cache '%s' of '%s': %s", s->cache_path,
			s->path, why);
		for (i = first; i < a->nr; i++)
			msg_free(a->msgs[i]);
		a->nr = first;
		for (i = 0; i < s->nr_state; i++)
			free(s->state[i]);
		s->nr_state = 0;
		s->dirty = 1;
	}
	strbuf_release(&sb);
}

/*
 * Appends what this run added to the cache file: the state, the new
 * messages and a checksum of the whole.  Returns 0, or -1 when the file
 * is not the one loaded any more (another run wrote it) or the write
 * failed: the caller writes the file whole instead.  A write cut short
 * leaves a file whose last line is no checksum: the next run ignores it.
 */
static int cache_append(struct archive *a, size_t src)
{
	struct archive_source *s = &a->sources[src];
	struct strbuf sb = STRBUF_INIT;
	struct cachefile_sum h = s->loaded_hash;
	struct stat st;
	size_t i;
	int fd, ret = -1;

	for (i = 0; i < s->nr_state; i++)
		strbuf_addf(&sb, "%s\n", s->state[i]);
	for (i = s->loaded_end; i < a->nr; i++)
		if (a->msgs[i]->source == src && !a->msgs[i]->removed)
			cache_line_msg(&sb, a->msgs[i]);
	cachefile_sum_update(&h, sb.buf, sb.len);
	cachefile_add_sum(&sb, &h);
	fd = open(s->cache_path, O_WRONLY | O_APPEND);
	if (fd < 0)
		goto out;
	if (!fstat(fd, &st) && (size_t)st.st_size == s->loaded_len &&
	    !write_in_full(fd, sb.buf, sb.len) && !fsync(fd))
		ret = 0;
	close(fd);
out:
	strbuf_release(&sb);
	return ret;
}

static int cache_save(struct archive *a, size_t src)
{
	struct archive_source *s = &a->sources[src];
	struct strbuf sb = STRBUF_INIT;
	size_t i;
	int ret;

	if (!s->cache_path || !s->dirty)
		return 0;
	if (!s->rewrite && !cache_append(a, src)) {
		s->dirty = 0;
		trace_printf("archive: appended to the cache of '%s'", s->path);
		return 0;
	}
	cachefile_add_header(&sb, CACHE_MAGIC, CACHE_VERSION);
	strbuf_addf(&sb, "source %s %s\n", kind_names[s->kind], s->abs);
	for (i = 0; i < s->nr_state; i++)
		strbuf_addf(&sb, "%s\n", s->state[i]);
	for (i = 0; i < a->nr; i++)
		if (a->msgs[i]->source == src && !a->msgs[i]->removed)
			cache_line_msg(&sb, a->msgs[i]);
	cachefile_seal(&sb, CACHEFILE_HASH64, NULL);
	ret = cachefile_write(s->cache_path, &sb, "archive cache");
	if (!ret)
		s->dirty = 0;
	strbuf_release(&sb);
	return ret;
}

int archive_save(struct archive *a)
{
	size_t i;
	int ret = 0;

	for (i = 0; i < a->nr_sources; i++)
		if (cache_save(a, i) < 0)
			ret = -1;
	if (ret)
		warning("the next run will read the archives again");
	return ret;
}

/* --- public-inbox ----------------------------------------------------- */

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
	index_buffer(a, src, git_blob_rawcontent(blob), (size_t)git_blob_rawsize(blob),
		     where);
	git_blob_free(blob);
	return 0;
}

/* One commit of a v2 epoch: its blob "m" is a message, "d" a removal. */
static int v2_commit(struct archive *a, size_t src, git_repository *repo,
		     int epoch, const git_commit *commit)
{
	git_tree *tree = NULL;
	const git_tree_entry *e;
	char hex[GIT_OID_HEXSZ + 1], *where;
	int ret = 0;

	if (git_commit_tree(&tree, commit) < 0)
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
				remove_where(a, src, w);
		}
	}
	git_tree_free(tree);
	return ret;
}

/*
 * One commit of a v1 inbox: what it adds or changes is a message, what
 * it deletes a removal (its blob id was where the message was).
 */
static int v1_commit(struct archive *a, size_t src, git_repository *repo,
		     const git_commit *commit)
{
	git_tree *tree = NULL, *ptree = NULL;
	git_commit *parent = NULL;
	git_diff *diff = NULL;
	char hex[GIT_OID_HEXSZ + 1];
	size_t i, n;
	int ret = 0;

	if (git_commit_tree(&tree, commit) < 0 ||
	    (git_commit_parentcount(commit) &&
	     (git_commit_parent(&parent, commit, 0) < 0 ||
	      git_commit_tree(&ptree, parent) < 0)) ||
	    git_diff_tree_to_tree(&diff, repo, ptree, tree, NULL) < 0) {
		ret = error_git("cannot read '%s': a commit", a->sources[src].path);
		goto out;
	}
	n = git_diff_num_deltas(diff);
	for (i = 0; !ret && i < n; i++) {
		const git_diff_delta *d = git_diff_get_delta(diff, i);

		if (d->status == GIT_DELTA_DELETED || d->status == GIT_DELTA_MODIFIED) {
			git_oid_tostr(hex, sizeof(hex), &d->old_file.id);
			remove_where(a, src, hex);
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
	git_commit_free(parent);
	return ret;
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
	const char *seen = state_get(s, key);
	git_revwalk *walk = NULL;
	git_commit *commit = NULL;
	git_oid tip, old, id;
	char hex[GIT_OID_HEXSZ + 1];
	int ret, have_old = 0;

	if (repo_tip(repo, &tip) < 0)
		return 0;		/* an epoch with no message yet */
	if (seen && !git_oid_fromstr(&old, seen)) {
		if (git_oid_equal(&old, &tip))
			return 0;
		have_old = git_graph_descendant_of(repo, &tip, &old) > 0;
	}
	git_error_clear();
	if (seen && !have_old)
		forget_source(a, src, prefix);
	if (git_revwalk_new(&walk, repo) < 0 ||
	    git_revwalk_sorting(walk, GIT_SORT_TOPOLOGICAL | GIT_SORT_REVERSE) < 0 ||
	    git_revwalk_push(walk, &tip) < 0 ||
	    (have_old && git_revwalk_hide(walk, &old) < 0)) {
		git_revwalk_free(walk);
		return error_git("cannot walk '%s'", s->path);
	}
	while (!(ret = git_revwalk_next(&id, walk))) {
		if (git_commit_lookup(&commit, repo, &id) < 0) {
			ret = error_git("cannot read '%s': commit", s->path);
			break;
		}
		ret = epoch >= 0 ? v2_commit(a, src, repo, epoch, commit)
				 : v1_commit(a, src, repo, commit);
		git_commit_free(commit);
		if (ret < 0)
			break;
	}
	git_revwalk_free(walk);
	if (ret != GIT_ITEROVER)
		return ret < 0 ? -1 : error_git("cannot walk '%s'", s->path);
	git_oid_tostr(hex, sizeof(hex), &tip);
	state_set(s, key, hex);
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

/* --- maildir ---------------------------------------------------------- */

static int read_file(struct strbuf *sb, const char *path)
{
	if (strbuf_read_file(sb, path) < 0)
		return error("cannot read '%s': %s", path, strerror(errno));
	return 0;
}

struct seen {
	const char *where;
	UT_hash_handle hh;
};

static int read_maildir(struct archive *a, size_t src)
{
	static const char *const subdirs[] = { "cur", "new" };
	struct archive_source *s = &a->sources[src];
	struct seen *seen = NULL, *e, *tmp, *entries;
	size_t i, nr_entries = 0;
	int ret = 0;

	entries = xcalloc(a->nr ? a->nr : 1, sizeof(*entries));
	for (i = 0; i < a->nr; i++) {
		if (a->msgs[i]->source != src || a->msgs[i]->removed)
			continue;
		e = &entries[nr_entries++];
		e->where = a->msgs[i]->where;
		HASH_ADD_KEYPTR(hh, seen, e->where, strlen(e->where), e);
	}
	for (i = 0; !ret && i < ARRAY_SIZE(subdirs); i++) {
		char *dir = xstrfmt("%s/%s", s->path, subdirs[i]);
		struct dirent **names = NULL;
		int n, j;

		/* Sorted, so that a first reading is in the same order each time. */
		n = scandir(dir, &names, NULL, alphasort);
		if (n < 0)
			ret = error("cannot read '%s': %s", dir, strerror(errno));
		for (j = 0; j < n; j++) {
			char *where = xstrfmt("%s/%s", subdirs[i], names[j]->d_name);
			char *path = xstrfmt("%s/%s", s->path, where);
			struct strbuf sb = STRBUF_INIT;

			HASH_FIND_STR(seen, where, e);
			if (e) {
				HASH_DEL(seen, e);
			} else if (!ret && names[j]->d_name[0] != '.') {
				ret = read_file(&sb, path);
				if (!ret)
					index_buffer(a, src, sb.buf, sb.len, where);
			}
			strbuf_release(&sb);
			free(path);
			free(where);
			free(names[j]);
		}
		free(names);
		free(dir);
	}
	/* What is left was deleted (or moved: read again under its new name). */
	HASH_ITER(hh, seen, e, tmp) {
		HASH_DEL(seen, e);
		if (!ret)
			remove_where(a, src, e->where);
	}
	free(entries);
	return ret;
}

/* --- mbox ------------------------------------------------------------- */

/* A large mbox is parsed this much at a time (where a message starts). */
#define MBOX_PIECE ((size_t)16 << 20)

/* The pages of a mapped file that were read are not needed again. */
static void drop_pages(const char *map, size_t start, size_t end)
{
	long page = sysconf(_SC_PAGESIZE);
	size_t from = start - start % (size_t)page;

	if (end > from)
		madvise((void *)(map + from), end - from, MADV_DONTNEED);
}

/*
 * Indexes the messages of text[start..len), start the beginning of a
 * message, a piece at a time; map: text is a mapped file.
 */
static void index_mbox(struct archive *a, size_t src, const char *text,
		       size_t len, size_t start, int map)
{
	while (start < len) {
		size_t end = len - start <= MBOX_PIECE ? len :
			     mbox_next_message(text, len, start + MBOX_PIECE);
		struct mbox mb = MBOX_INIT;
		size_t i;

		if (!mbox_read_quiet(&mb, text + start, end - start)) {
			for (i = 0; i < mb.nr; i++) {
				char *where = xstrfmt("%zu+%zu",
						      start + mb.msgs[i].offset,
						      mb.msgs[i].length);

				index_message(a, src, &mb.msgs[i], where);
				free(where);
			}
		}
		mbox_release(&mb);
		if (map)
			drop_pages(text, start, end);
		start = end;
	}
}

/* Whether buf starts as gzip does (lore's t.mbox.gz, a saved .mbox.gz). */
static int is_gzip(const char *buf, size_t len)
{
	return len >= 2 && (unsigned char)buf[0] == 0x1f &&
	       (unsigned char)buf[1] == 0x8b;
}

/* Inflates the gzip data of in (every member) into out; 0 or -1. */
static int gunzip(struct strbuf *out, const struct strbuf *in, const char *path)
{
	z_stream z;
	int ret = Z_OK;

	memset(&z, 0, sizeof(z));
	if (inflateInit2(&z, 16 + MAX_WBITS) != Z_OK)
		return error("cannot read '%s': zlib: out of memory", path);
	z.next_in = (unsigned char *)in->buf;
	z.avail_in = (uInt)in->len;
	while (ret != Z_STREAM_END || z.avail_in) {
		if (ret == Z_STREAM_END) {
			/* Another gzip member follows (cat a.gz b.gz). */
			if (inflateReset(&z) != Z_OK)
				break;
		}
		strbuf_grow(out, 65536);
		z.next_out = (unsigned char *)out->buf + out->len;
		z.avail_out = 65536;
		ret = inflate(&z, Z_NO_FLUSH);
		strbuf_setlen(out, out->len + (65536 - z.avail_out));
		if (ret != Z_OK && ret != Z_STREAM_END)
			break;
		if (ret == Z_OK && !z.avail_in && z.avail_out)
			break;		/* cut short */
	}
	inflateEnd(&z);
	if (ret != Z_STREAM_END || z.avail_in)
		return error("cannot read '%s': not a whole gzip file (%s)", path,
			     z.msg ? z.msg : "cut short");
	return 0;
}

/*
 * The text of an mbox file: mapped (so that a file of gigabytes is not
 * copied into memory), or inflated when it is gzip.
 */
struct mbox_text {
	const char *buf;
	size_t len;
	void *map;			/* when mapped */
	struct strbuf sb;		/* when inflated */
};

static int mbox_text_open(struct mbox_text *t, const char *path)
{
	struct strbuf raw = STRBUF_INIT;
	struct stat st;
	int fd, ret;

	memset(t, 0, sizeof(*t));
	strbuf_init(&t->sb, 0);
	t->buf = "";
	fd = open(path, O_RDONLY);
	if (fd < 0 || fstat(fd, &st) < 0) {
		ret = error("cannot read '%s': %s", path, strerror(errno));
		if (fd >= 0)
			close(fd);
		return ret;
	}
	if (st.st_size > 0) {
		t->map = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
		if (t->map == MAP_FAILED) {
			t->map = NULL;
			ret = error("cannot read '%s': %s", path, strerror(errno));
			close(fd);
			return ret;
		}
		t->buf = t->map;
		t->len = (size_t)st.st_size;
	}
	close(fd);
	if (!is_gzip(t->buf, t->len))
		return 0;
	strbuf_add(&raw, t->buf, t->len);
	munmap(t->map, t->len);
	t->map = NULL;
	ret = gunzip(&t->sb, &raw, path);
	strbuf_release(&raw);
	t->buf = t->sb.buf ? t->sb.buf : "";
	t->len = t->sb.len;
	return ret;
}

static void mbox_text_close(struct mbox_text *t)
{
	if (t->map)
		munmap(t->map, t->len);
	strbuf_release(&t->sb);
	memset(t, 0, sizeof(*t));
}

/*
 * An mbox grows at its end: when the bytes the cache saw are unchanged
 * (their hash), only what was appended is read.  A file of the same
 * size and modification time as the cache saw is not read at all (as
 * git trusts its index's stat data).  A gzip file is read inflated, its
 * places counted in the inflated text.  The hashes of what the cache
 * saw and of the whole are made in one pass, a piece at a time.
 */
static int read_mbox(struct archive *a, size_t src)
{
	struct archive_source *s = &a->sources[src];
	const char *seen = state_get(s, "mbox");
	unsigned long long old_size = 0, old_len = 0, size, sec, nsec;
	unsigned long long old_sec = 0, old_nsec = 0;
	char hex[41], old_hex[41] = "", prefix[41] = "", *state;
	struct mbox_text t;
	struct cachefile_sum h;
	struct stat st;
	size_t from = 0, at;
	int have;

	if (stat(s->path, &st) < 0)
		return error("cannot read '%s': %s", s->path, strerror(errno));
	size = (unsigned long long)st.st_size;
	sec = (unsigned long long)st.st_mtim.tv_sec;
	nsec = (unsigned long long)st.st_mtim.tv_nsec;
	have = seen && sscanf(seen, "%llu %llu.%llu %llu %16s", &old_size,
			      &old_sec, &old_nsec, &old_len, old_hex) == 5;
	if (have && old_size == size && old_sec == sec && old_nsec == nsec)
		return 0;
	if (mbox_text_open(&t, s->path) < 0) {
		mbox_text_close(&t);
		return -1;
	}
	cachefile_sum_init(&h, CACHEFILE_HASH64);
	for (at = 0; at < t.len; at += MBOX_PIECE) {
		size_t n = t.len - at < MBOX_PIECE ? t.len - at : MBOX_PIECE;

		if (have && old_len >= at && old_len <= at + n) {
			cachefile_sum_update(&h, t.buf + at, (size_t)old_len - at);
			cachefile_sum_hex(&h, prefix);
			cachefile_sum_update(&h, t.buf + (size_t)old_len,
					     at + n - (size_t)old_len);
		} else {
			cachefile_sum_update(&h, t.buf + at, n);
		}
		if (t.map)
			drop_pages(t.buf, at, at + n);
	}
	if (have && !t.len && !old_len)
		cachefile_sum_hex(&h, prefix);
	cachefile_sum_hex(&h, hex);
	if (have && old_len <= t.len && !strcmp(prefix, old_hex))
		from = (size_t)old_len;
	if (seen && !from)
		forget_source(a, src, NULL);
	if (from < t.len)
		index_mbox(a, src, t.buf, t.len, from, !!t.map);
	state = xstrfmt("%llu %llu.%09llu %zu %s", size, sec, nsec, t.len, hex);
	state_set(s, "mbox", state);
	free(state);
	mbox_text_close(&t);
	return 0;
}

/* --- sources ---------------------------------------------------------- */

static int detect(const char *path, enum archive_kind *kind)
{
	git_repository *repo = NULL;
	struct stat st;

	if (stat(path, &st) < 0)
		return error("cannot read the archive '%s': %s", path, strerror(errno));
	if (S_ISREG(st.st_mode)) {
		*kind = ARCHIVE_MBOX;
		return 0;
	}
	if (!S_ISDIR(st.st_mode))
		return error("'%s' is not an archive (neither a file nor a "
			     "directory)", path);
	if (is_dir_in(path, "git")) {
		*kind = ARCHIVE_PI_V2;
		return 0;
	}
	if (is_dir_in(path, "cur") && is_dir_in(path, "new")) {
		*kind = ARCHIVE_MAILDIR;
		return 0;
	}
	if (!git_repository_open_ext(&repo, path, GIT_REPOSITORY_OPEN_NO_SEARCH |
				     GIT_REPOSITORY_OPEN_BARE, NULL)) {
		git_repository_free(repo);
		*kind = ARCHIVE_PI_V1;
		return 0;
	}
	git_error_clear();
	return error("'%s' is not an archive: neither a public-inbox repository "
		     "(v2: git/N.git epochs; v1: a git repository), a maildir "
		     "(cur/, new/) nor an mbox file", path);
}

static char *cache_file(const struct archive *a, const char *abs)
{
	char hex[41];

	if (!a->cache_dir)
		return NULL;
	sha1_hex(hex, abs, strlen(abs));
	return xstrfmt("%s/archive-%.16s", a->cache_dir, hex);
}

int archive_add(struct archive *a, const char *path)
{
	struct archive_source *s;
	enum archive_kind kind = ARCHIVE_MBOX;	/* detect() sets it */
	char abs[PATH_MAX];
	size_t src, i;
	int ret;

	if (detect(path, &kind) < 0)
		return -1;
	if (!realpath(path, abs))
		return error("cannot read the archive '%s': %s", path, strerror(errno));
	for (i = 0; i < a->nr_sources; i++)
		if (!strcmp(a->sources[i].abs, abs))
			return 0;	/* given twice */
	ALLOC_GROW(a->sources, a->nr_sources, a->alloc_sources);
	src = a->nr_sources++;
	s = &a->sources[src];
	memset(s, 0, sizeof(*s));
	s->path = xstrdup(path);
	s->abs = xstrdup(abs);
	s->kind = kind;
	s->cache_path = cache_file(a, abs);
	cache_load(a, src);
	switch (kind) {
	case ARCHIVE_PI_V2: ret = read_v2(a, src); break;
	case ARCHIVE_PI_V1: ret = read_v1(a, src); break;
	case ARCHIVE_MAILDIR: ret = read_maildir(a, src); break;
	case ARCHIVE_MBOX: ret = read_mbox(a, src); break;
	default: ret = -1; break;
	}
	if (!ret) {
		size_t nr = 0;
		char skipped[64] = "";

		for (i = 0; i < a->nr; i++)
			nr += a->msgs[i]->source == src && !a->msgs[i]->removed;
		if (s->nr_skipped)
			snprintf(skipped, sizeof(skipped), " (%zu skipped: no "
				 "Message-ID, or not a mail)", s->nr_skipped);
		trace_printf("archive: '%s' (%s): %zu messages, %zu read now%s, "
			     "the others from the cache", path, kind_names[kind],
			     nr, s->nr_read, skipped);
	}
	return ret;
}

/* --- lookups ---------------------------------------------------------- */

struct archive_msg *archive_find(const struct archive *a, const char *id)
{
	struct archive_msg *m;

	if (!id)
		return NULL;
	HASH_FIND_STR(a->by_id, id, m);
	return m;
}

const struct archive_bucket *archive_bucket(const struct archive_bucket *b,
					    const char *key)
{
	struct archive_bucket *found;

	if (!key)
		return NULL;
	HASH_FIND_STR(b, key, found);
	return found;
}

static void bucket_add(struct archive_bucket **head, const char *key,
		       struct archive_msg *m)
{
	struct archive_bucket *b;

	HASH_FIND_STR(*head, key, b);
	if (!b) {
		b = xcalloc(1, sizeof(*b));
		b->key = xstrdup(key);
		HASH_ADD_KEYPTR(hh, *head, b->key, strlen(b->key), b);
	}
	ALLOC_GROW(b->items, b->nr, b->alloc);
	b->items[b->nr++] = m;
}

/*
 * The first message of m's thread: the first id of its References, or
 * else the first of its In-Reply-To ancestors the archive has (an
 * ancestor's own thread), or else m itself.
 */
static const char *thread_of(struct archive *a, struct archive_msg *m)
{
	struct archive_msg *p = m;
	int depth;

	if (m->thread)
		return m->thread;
	for (depth = 0; depth < 1000; depth++) {
		struct archive_msg *up;

		if (p->thread) {
			m->thread = p->thread;
			return m->thread;
		}
		if (p->first_ref) {
			m->thread = p->first_ref;
			return m->thread;
		}
		up = p->in_reply_to ? archive_find(a, p->in_reply_to) : NULL;
		if (!up || up == m) {
			m->thread = p->in_reply_to ? p->in_reply_to : p->message_id;
			return m->thread;
		}
		p = up;
	}
	m->thread = m->message_id;
	return m->thread;
}

static int cmp_time(const void *x, const void *y)
{
	const struct archive_msg *a = *(const struct archive_msg *const *)x;
	const struct archive_msg *b = *(const struct archive_msg *const *)y;

	return a->time < b->time ? -1 : a->time > b->time;
}

size_t archive_since(const struct archive_bucket *b, long long t)
{
	size_t lo = 0, hi = b->nr;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (b->items[mid]->time <= t)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

void archive_finish(struct archive *a)
{
	struct archive_bucket *b, *tmp;
	struct archive_msg *m;
	size_t i;

	lookups_free(a);
	for (i = 0; i < a->nr; i++) {
		m = a->msgs[i];
		m->thread = NULL;
		if (m->removed || archive_find(a, m->message_id))
			continue;	/* the first of an id counts */
		HASH_ADD_KEYPTR(hh, a->by_id, m->message_id, strlen(m->message_id), m);
	}
	for (i = 0; i < a->nr; i++) {
		char hex[GIT_OID_HEXSZ + 1];

		m = a->msgs[i];
		if (m->removed || archive_find(a, m->message_id) != m)
			continue;
		bucket_add(&a->by_thread, thread_of(a, m), m);
		if (m->is_reply)
			continue;
		if (*m->title)
			bucket_add(&a->by_title, m->title, m);
		if (*m->email)
			bucket_add(&a->by_email, m->email, m);
		if (m->has_patch_id) {
			git_oid_tostr(hex, sizeof(hex), &m->patch_id);
			bucket_add(&a->by_patch_id, hex, m);
		}
	}
	/* A sender's mails by date, for archive_since(). */
	HASH_ITER(hh, a->by_email, b, tmp)
		QSORT(b->items, b->nr, cmp_time);
}

/* --- reading a message again ------------------------------------------ */

static int read_again(struct archive *a, const struct archive_msg *m,
		      struct strbuf *sb)
{
	struct archive_source *s = &a->sources[m->source];
	const char *hex = m->where;
	git_blob *blob = NULL;
	git_oid id;
	size_t epoch = 0;

	switch (s->kind) {
	case ARCHIVE_PI_V2:
		epoch = strtoul(m->where, NULL, 10);
		hex = strchr(m->where, ':');
		hex = hex ? hex + 1 : "";
		/* fall through */
	case ARCHIVE_PI_V1:
		if (epoch >= s->nr_repos || !s->repos[epoch] ||
		    git_oid_fromstr(&id, hex) < 0 ||
		    git_blob_lookup(&blob, s->repos[epoch], &id) < 0)
			return error_git("cannot read message <%s> of '%s' (%s)",
					 m->message_id, s->path, m->where);
		strbuf_add(sb, git_blob_rawcontent(blob), (size_t)git_blob_rawsize(blob));
		git_blob_free(blob);
		return 0;
	case ARCHIVE_MAILDIR: {
		char *path = xstrfmt("%s/%s", s->path, m->where);
		int ret = read_file(sb, path);

		free(path);
		return ret;
	}
	case ARCHIVE_MBOX: {
		unsigned long long off, len;
		char magic[2];
		struct stat st;
		int fd;
		ssize_t got;

		if (sscanf(m->where, "%llu+%llu", &off, &len) != 2)
			return error("cannot read message <%s> of '%s': bad place '%s'",
				     m->message_id, s->path, m->where);
		fd = open(s->path, O_RDONLY);
		if (fd < 0)
			return error("cannot read '%s': %s", s->path, strerror(errno));
		/* A gzip file is inflated once a run, when first read again. */
		if (!s->text && pread(fd, magic, 2, 0) == 2 && is_gzip(magic, 2)) {
			struct mbox_text t;
			int ret = mbox_text_open(&t, s->path);

			if (ret < 0) {
				mbox_text_close(&t);
				close(fd);
				return -1;
			}
			/* The inflated text is kept: moved, not copied. */
			s->text = xcalloc(1, sizeof(*s->text));
			*s->text = t.sb;
			strbuf_init(&t.sb, 0);
			mbox_text_close(&t);
		}
		if (s->text) {
			close(fd);
			if (off > s->text->len || len > s->text->len - off)
				return error("cannot read message <%s> of '%s': the "
					     "file changed", m->message_id, s->path);
			strbuf_add(sb, s->text->buf + off, (size_t)len);
			return 0;
		}
		if (fstat(fd, &st) < 0 || off > (unsigned long long)st.st_size ||
		    len > (unsigned long long)st.st_size - off) {
			close(fd);
			return error("cannot read message <%s> of '%s': the file "
				     "changed", m->message_id, s->path);
		}
		strbuf_grow(sb, (size_t)len);
		got = pread(fd, sb->buf + sb->len, (size_t)len, (off_t)off);
		close(fd);
		if (got != (ssize_t)len)
			return error("cannot read message <%s> of '%s': the file "
				     "changed", m->message_id, s->path);
		strbuf_setlen(sb, sb->len + (size_t)len);
		return 0;
	}
	}
	return -1;
}

int archive_read(struct archive *a, const struct archive_msg *m,
		 struct mbox *out)
{
	struct strbuf sb = STRBUF_INIT;
	int ret = read_again(a, m, &sb);

	if (!ret && (mbox_read_quiet(out, sb.buf, sb.len) < 0 || !out->nr ||
		     !out->msgs[out->nr - 1].message_id ||
		     strcmp(out->msgs[out->nr - 1].message_id, m->message_id)))
		ret = error("cannot read message <%s> of '%s' again: the archive "
			    "changed", m->message_id, a->sources[m->source].path);
	strbuf_release(&sb);
	return ret;
}
