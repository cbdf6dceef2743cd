#include "run/memo.h"
#include "base/cachefile.h"
#include "base/error.h"
#include "git/malformed.h"
#include "git/patchid.h"
#include "store/ledger.h"
#include "base/trace.h"
#include "base/util.h"

#include <autoconf.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

extern char **environ;

#define MEMO_MAGIC "stablepick memo"
#define MEMO_VERSION 1

void memo_init(struct memo *m)
{
	m->path = NULL;
	strbuf_init(&m->said, 0);
	m->revs = NULL;
	m->nr_revs = m->alloc_revs = 0;
}

void memo_revision(struct memo *m, const char *rev)
{
	if (!rev)
		return;
	ALLOC_GROW(m->revs, m->nr_revs, m->alloc_revs);
	m->revs[m->nr_revs++] = xstrdup(rev);
}

void memo_release(struct memo *m)
{
	error_capture(NULL);
	free(m->path);
	m->path = NULL;
	strbuf_release(&m->said);
	free_string_array(m->revs, m->nr_revs);
	m->revs = NULL;
	m->nr_revs = m->alloc_revs = 0;
}

static void feed(struct sha1 *ctx, const char *what, const char *s)
{
	sha1_update(ctx, what, strlen(what) + 1);
	sha1_update(ctx, s ? s : "", s ? strlen(s) + 1 : 0);
	sha1_update(ctx, "\n", 1);
}

static void feed_number(struct sha1 *ctx, const char *what, intmax_t v)
{
	char buf[32];

	snprintf(buf, sizeof(buf), "%jd", v);
	feed(ctx, what, buf);
}

/* A file's bytes, or that it is missing or cannot be read. */
static void feed_file(struct sha1 *ctx, const char *what, const char *path)
{
	struct strbuf sb = STRBUF_INIT;

	feed(ctx, what, path);
	if (strbuf_read_file(&sb, path) < 0)
		feed_number(ctx, "errno", errno);
	else
		sha1_update(ctx, sb.buf, sb.len);
	strbuf_release(&sb);
}

/* The program: another build is another answer. */
static void feed_program(struct sha1 *ctx)
{
	struct stat st;

	feed(ctx, "version", PACKAGE_VERSION);
	if (stat("/proc/self/exe", &st) < 0) {
		feed_number(ctx, "exe errno", errno);
		return;
	}
	feed_number(ctx, "dev", (intmax_t)st.st_dev);
	feed_number(ctx, "ino", (intmax_t)st.st_ino);
	feed_number(ctx, "size", (intmax_t)st.st_size);
	feed_number(ctx, "mtime", (intmax_t)st.st_mtim.tv_sec);
	feed_number(ctx, "mtime ns", (intmax_t)st.st_mtim.tv_nsec);
}

/* What ref points at: a ref's name, or an id in hex (into hex). */
static const char *target_of(git_reference *ref, char *hex, size_t size)
{
	if (git_reference_type(ref) == GIT_REFERENCE_SYMBOLIC)
		return git_reference_symbolic_target(ref);
	git_oid_tostr(hex, size, git_reference_target(ref));
	return hex;
}

/* Every ref, sorted by name, with what it points at. */
static int feed_refs(struct sha1 *ctx, git_repository *repo)
{
	git_reference_iterator *it;
	git_reference *ref;
	char **v = NULL, hex[GIT_OID_HEXSZ + 1];
	size_t nr = 0, alloc = 0, i;
	int ret;

	if (git_reference_iterator_new(&it, repo) < 0)
		return -1;
	while (!(ret = git_reference_next(&ref, it))) {
		ALLOC_GROW(v, nr, alloc);
		v[nr++] = xstrfmt("%s%c%s", git_reference_name(ref), '\0',
				  target_of(ref, hex, sizeof(hex)));
		git_reference_free(ref);
	}
	git_reference_iterator_free(it);
	QSORT(v, nr, cmp_str);
	for (i = 0; i < nr; i++) {
		const char *name = v[i];

		feed(ctx, name, name + strlen(name) + 1);
	}
	free_string_array(v, nr);
	if (ret != GIT_ITEROVER)
		return -1;
	/* HEAD is not among the refs the iterator lists. */
	if (!git_reference_lookup(&ref, repo, "HEAD")) {
		feed(ctx, "HEAD", target_of(ref, hex, sizeof(hex)));
		git_reference_free(ref);
	}
	git_error_clear();
	return 0;
}

static void feed_oid(struct sha1 *ctx, const char *what, const git_object *obj)
{
	char hex[GIT_OID_HEXSZ + 1];

	feed(ctx, what, obj ? git_oid_tostr(hex, sizeof(hex),
					    git_object_id(obj)) : NULL);
}

/*
 * What a revision resolves to now: a name outside refs/ (FETCH_HEAD,
 * ORIG_HEAD, a reflog's master@{1}, a time, :/text) is not among the
 * refs fed, nor is what it names.
 */
static void feed_revision(struct sha1 *ctx, git_repository *repo,
			  const char *rev)
{
	git_revspec spec;
	git_oid id;
	int ret;

	if (!rev)
		return;
	feed(ctx, "revision", rev);
	if (!git_revparse(&spec, repo, rev)) {
		feed_number(ctx, "flags", (intmax_t)spec.flags);
		feed_oid(ctx, "from", spec.from);
		feed_oid(ctx, "to", spec.to);
		git_object_free(spec.from);
		git_object_free(spec.to);
		return;
	}
	/* A malformed commit on the way: read as the run reads it. */
	ret = malformed_revparse(&id, repo, rev);
	if (ret < 0) {
		feed_number(ctx, "unresolved", ret);
	} else {
		char hex[GIT_OID_HEXSZ + 1];

		feed(ctx, "commit", git_oid_tostr(hex, sizeof(hex), &id));
	}
	git_error_clear();
}

/* The gitattributes files: whether a file diffs as binary (patchid.h). */
static void feed_attributes(struct sha1 *ctx, git_repository *repo)
{
	unsigned char key[SHA1_RAWSZ];
	char hex[2 * SHA1_RAWSZ + 1];
	size_t i;

	patchid_attributes_key(key, repo);
	for (i = 0; i < SHA1_RAWSZ; i++)
		snprintf(hex + 2 * i, 3, "%02x", key[i]);
	feed(ctx, "attributes", hex);
}

/* Every configuration entry, of every level, with --config's. */
static int feed_config(struct sha1 *ctx, git_config *cfg)
{
	git_config_iterator *it;
	git_config_entry *e;
	int ret;

	if (!cfg)
		return 0;
	if (git_config_iterator_new(&it, cfg) < 0)
		return -1;
	while (!(ret = git_config_next(&e, it))) {
		feed(ctx, e->name, e->value);
		feed_number(ctx, "level", e->level);
	}
	git_config_iterator_free(it);
	return ret == GIT_ITEROVER ? 0 : -1;
}

/*
 * STABLEPICK_* but the tracing, progress and locking ones and the time (the day
 * and the second are fed as such), and TZ, sorted.
 */
static void feed_environment(struct sha1 *ctx)
{
	char **v = NULL, **e;
	size_t nr = 0, alloc = 0, i;

	for (e = environ; e && *e; e++) {
		if (!starts_with(*e, "STABLEPICK_") && !starts_with(*e, "TZ="))
			continue;
		if (starts_with(*e, "STABLEPICK_TRACE=") ||
		    starts_with(*e, "STABLEPICK_NOW=") ||
		    starts_with(*e, "STABLEPICK_PROGRESS_DELAY=") ||
		    starts_with(*e, "STABLEPICK_LOCK_TIMEOUT="))
			continue;
		ALLOC_GROW(v, nr, alloc);
		v[nr++] = *e;
	}
	QSORT(v, nr, cmp_str);
	for (i = 0; i < nr; i++)
		feed(ctx, "env", v[i]);
	free(v);
}

static int compute_key(const struct memo *m, struct run_context *ctx,
		       int argc, char **argv, unsigned flags,
		       unsigned char *key)
{
	git_repository *repo = ctx->repo;
	struct sha1 sha;
	const char **dirs;
	char *path;
	size_t nr, r;
	git_time_t now;
	int i;

	sha1_init(&sha);
	feed_number(&sha, MEMO_MAGIC, MEMO_VERSION);
	feed_program(&sha);
	feed(&sha, "gitdir", git_repository_path(repo));
	feed(&sha, "workdir", git_repository_workdir(repo));
	for (i = 0; i < argc; i++)
		feed(&sha, "arg", argv[i]);
	if (feed_refs(&sha, repo) < 0 ||
	    feed_config(&sha, ctx->config.snapshot) < 0)
		return -1;
	/* Those the command names, and mainline's by its setting. */
	for (r = 0; r < m->nr_revs; r++)
		feed_revision(&sha, repo, m->revs[r]);
	feed_revision(&sha, repo, ctx->config.upstream);
	feed_attributes(&sha, repo);
	dirs = run_rules_dirs(ctx, &nr);
	ruleset_digest_dirs(dirs, nr, &sha);
	free(dirs);
	path = run_ledger_path(ctx);
	feed_file(&sha, "ledger", path);
	free(path);
	path = xstrfmt("%sshallow", git_repository_path(repo));
	feed_file(&sha, "shallow", path);
	free(path);
	path = xstrfmt("%sinfo/grafts", git_repository_commondir(repo));
	feed_file(&sha, "grafts", path);
	free(path);
	feed_environment(&sha);
	/* The text fits the terminal (util.h): another width, other lines. */
	feed_number(&sha, "columns", (intmax_t)term_columns());
	if (ledger_now(&now) < 0)
		return -1;
	/* Deferrals end at 00:00 UTC: the day decides which are in force. */
	feed_number(&sha, "day", (intmax_t)(now / 86400));
	if (flags & MEMO_DATED)
		feed_number(&sha, "now", (intmax_t)now);
	sha1_final(key, &sha);
	return 0;
}

/* "out <len>\n" and the bytes; NULL when the file does not have them. */
static const char *take_part(const char *p, const char *end, const char *name,
			     struct strbuf *to)
{
	size_t nlen = strlen(name);
	uintmax_t len;
	char *stop;

	if ((size_t)(end - p) < nlen + 2 || memcmp(p, name, nlen) ||
	    p[nlen] != ' ')
		return NULL;
	p += nlen + 1;
	errno = 0;
	len = strtoumax(p, &stop, 10);
	if (errno || stop == p || *stop != '\n' ||
	    len > (uintmax_t)(end - stop - 1))
		return NULL;
	p = stop + 1;
	strbuf_add(to, p, (size_t)len);
	return p + len;
}

/* The stored answer; 1 when there is one, 0 when not (or not usable). */
static int read_memo(const struct memo *m, struct strbuf *out,
		     struct strbuf *said)
{
	struct strbuf sb = STRBUF_INIT;
	const char *p, *end, *why = NULL;
	size_t body;
	int status;

	if (strbuf_read_file(&sb, m->path) < 0) {
		if (errno != ENOENT)
			warning_aside("cannot read memo '%s': %s", m->path,
				      strerror(errno));
		strbuf_release(&sb);
		return 0;
	}
	p = memchr(sb.buf, '\n', sb.len);
	status = p ? cachefile_check_header(sb.buf, (size_t)(p - sb.buf),
					    MEMO_MAGIC, MEMO_VERSION) :
		     CACHEFILE_FOREIGN;
	if (!status)
		status = cachefile_verify(sb.buf, sb.len, CACHEFILE_HASH64,
					  &body, NULL);
	if (status) {
		why = cachefile_why(status, "not a stablepick memo");
		goto out;
	}
	end = sb.buf + body;
	p = take_part(p + 1, end, "out", out);
	if (p)
		p = take_part(p, end, "said", said);
	if (!p || p != end)
		why = "malformed";
out:
	if (why) {
		strbuf_reset(out);
		strbuf_reset(said);
		cachefile_ignore("memo", m->path, why);
	}
	strbuf_release(&sb);
	return !why;
}

int memo_lookup(struct memo *m, struct run_context *ctx, int argc,
		char **argv, unsigned flags, struct strbuf *out)
{
	unsigned char key[SHA1_RAWSZ];
	char hex[2 * SHA1_RAWSZ + 1];
	struct strbuf said = STRBUF_INIT;
	char *dir;
	size_t i;

	free(m->path);
	m->path = NULL;
	strbuf_reset(&m->said);
	if (run_open_repo(ctx) < 0)
		return -1;
	dir = run_cache_path(ctx, "memo");
	if (!dir)
		return 0;
	if (compute_key(m, ctx, argc, argv, flags, key) < 0) {
		git_error_clear();
		free(dir);
		trace_printf("memo: the inputs could not be read; computing");
		return 0;
	}
	for (i = 0; i < SHA1_RAWSZ; i++)
		snprintf(hex + 2 * i, 3, "%02x", key[i]);
	m->path = xstrfmt("%s/%s", dir, hex);
	free(dir);
	strbuf_reset(out);
	if (read_memo(m, out, &said)) {
		trace_printf("memo: %s holds the answer of these inputs",
			     m->path);
		/* Used: the oldest go first, this one is not the oldest. */
		utimensat(AT_FDCWD, m->path, NULL, 0);
		fflush(stdout);
		fputs(said.buf, stderr);
		strbuf_release(&said);
		free(m->path);
		m->path = NULL;
		return 1;
	}
	strbuf_release(&said);
	trace_printf("memo: no answer for these inputs yet");
	error_capture(&m->said);
	return 0;
}

struct memo_file {
	char *path;
	struct timespec when;
};

static int cmp_oldest_last(const void *a, const void *b)
{
	const struct memo_file *x = a, *y = b;

	if (x->when.tv_sec != y->when.tv_sec)
		return x->when.tv_sec < y->when.tv_sec ? 1 : -1;
	if (x->when.tv_nsec != y->when.tv_nsec)
		return x->when.tv_nsec < y->when.tv_nsec ? 1 : -1;
	return strcmp(x->path, y->path);
}

/* Removes all but the MEMO_KEEP answers used last. */
static void prune(const char *path)
{
	char *dir = xstrdup(path), *slash = strrchr(dir, '/');
	struct memo_file *v = NULL;
	size_t nr = 0, alloc = 0, i;
	struct dirent *de;
	DIR *d;

	*slash = '\0';
	if (!(d = opendir(dir))) {
		free(dir);
		return;
	}
	while ((de = readdir(d))) {
		struct stat st;
		char *p;

		if (strlen(de->d_name) != 2 * SHA1_RAWSZ ||
		    !is_hex(de->d_name, 2 * SHA1_RAWSZ))
			continue;
		p = xstrfmt("%s/%s", dir, de->d_name);
		if (stat(p, &st) < 0) {
			free(p);
			continue;
		}
		ALLOC_GROW(v, nr, alloc);
		v[nr].path = p;
		v[nr++].when = st.st_mtim;
	}
	closedir(d);
	QSORT(v, nr, cmp_oldest_last);
	for (i = 0; i < nr; i++) {
		if (i >= MEMO_KEEP)
			unlink(v[i].path);
		free(v[i].path);
	}
	free(v);
	free(dir);
}

void memo_store(struct memo *m, const struct strbuf *out)
{
	struct strbuf head = STRBUF_INIT, tail = STRBUF_INIT;
	struct file_part parts[3];

	error_capture(NULL);
	if (!m->path)
		return;
	cachefile_add_header(&head, MEMO_MAGIC, MEMO_VERSION);
	strbuf_addf(&head, "out %zu\n", out->len);
	strbuf_addf(&tail, "said %zu\n", m->said.len);
	strbuf_addbuf(&tail, &m->said);
	/* The answer is written from out, not copied (39 MB at 1M). */
	parts[0].buf = head.buf;
	parts[0].len = head.len;
	parts[1].buf = out->buf;
	parts[1].len = out->len;
	parts[2].buf = tail.buf;
	parts[2].len = tail.len;
	/* A memo only saves time: failing to write one fails nothing. */
	if (!cachefile_write_parts(m->path, parts, 3, CACHEFILE_HASH64,
				   "memo"))
		prune(m->path);
	strbuf_release(&head);
	strbuf_release(&tail);
}
