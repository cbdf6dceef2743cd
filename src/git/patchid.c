/*
 * Patch-ids (patchid.h): git patch-id --stable's reader fed with the
 * lines git show would print, for a commit (patchid_commit()) or a
 * diff in a mail (patchid_text()).  Rename detection is in
 * patchid-rename.c, the cache in patchid-cache.c.
 */
#include "git/patchid.h"
#include "git/patchid-diff.h"
#include "git/treediff.h"
#include "base/error.h"
#include "base/sha1.h"
#include "base/strbuf.h"
#include "base/util.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/*
 * The patch-id reader: git's builtin/patch-id.c, fed with the lines that
 * "git show" would print.  Emulating the reader line by line, rather
 * than hashing what is known to matter, keeps git's quirks for free.
 */

struct idstate {
	git_repository *repo;
	struct sha1 ctx;
	unsigned char sum[SHA1_RAWSZ];	/* of the flushed files */
	int before, after;		/* lines left in the hunk; -1: header */
	size_t hashed;			/* bytes hashed ("patchlen") */
	int binary;			/* skipping a binary file's lines */
	int stopped;			/* git would stop reading here */
	git_oid pre, post;		/* of the last "index" line */
	int abbrev;			/* git's default abbreviation, or 0 */
	struct strbuf line;
};

/* git's own ctype: no locale, and only these four are spaces. */
static int git_isspace(int c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

static int git_isalpha(int c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}


static void idstate_init(struct idstate *st, git_repository *repo)
{
	memset(st, 0, sizeof(*st));
	st->repo = repo;
	sha1_init(&st->ctx);
	st->before = st->after = -1;
	strbuf_init(&st->line, 256);
}

static void idstate_release(struct idstate *st)
{
	strbuf_release(&st->line);
}

/* Adds the SHA-1 of what was hashed since the last flush to the sum. */
static void flush_file(struct idstate *st)
{
	unsigned char digest[SHA1_RAWSZ];
	unsigned carry = 0;
	int i;

	sha1_final(digest, &st->ctx);
	for (i = 0; i < SHA1_RAWSZ; i++) {
		carry += st->sum[i] + digest[i];
		st->sum[i] = (unsigned char)carry;
		carry >>= 8;
	}
}

/* Hashes a line without its whitespace; like git, stops at a NUL. */
static void hash_line(struct idstate *st, const char *line)
{
	char buf[256];
	size_t n = 0;

	for (; *line; line++) {
		if (git_isspace((unsigned char)*line))
			continue;
		buf[n++] = *line;
		if (n == sizeof(buf)) {
			sha1_update(&st->ctx, buf, n);
			st->hashed += n;
			n = 0;
		}
	}
	sha1_update(&st->ctx, buf, n);
	st->hashed += n;
}

/* The hunk header's line counts; the line numbers are not hashed. */
/* The count of one side of a hunk, p at its start line: ",N", or 1. */
static int hunk_count(const char *p)
{
	p += strspn(p, "0123456789");
	return *p == ',' ? atoi(p + 1) : 1;
}

/*
 * "@@ -A[,B] +C[,D] @@": how many lines each side has, as git's
 * patch-id.c reads them.  Each count belongs to its own side: in
 * "@@ -1 +1,2 @@" the old side has 1 line, not 2 (taking the first
 * comma of the line read the new side's count for the old side, and a
 * mail's "-- " signature after the hunk was hashed as a removed line).
 */
static void scan_hunk_header(struct idstate *st, const char *line)
{
	const char *p = strstr(line, " -");

	st->before = p ? hunk_count(p + 2) : 1;
	p = strstr(line, " +");
	st->after = p ? hunk_count(p + 2) : 1;
}

static unsigned long count_packed(const char *objdir, int depth);

static unsigned long count_alternates(const char *objdir, int depth)
{
	struct strbuf path = STRBUF_INIT, list = STRBUF_INIT;
	unsigned long count = 0;
	char *line, *end;

	strbuf_addf(&path, "%s/info/alternates", objdir);
	if (depth > 5 || strbuf_read_file(&list, path.buf) < 0)
		goto out;
	for (line = list.buf; line < list.buf + list.len; line = end + 1) {
		end = strchr(line, '\n');
		if (!end)
			end = list.buf + list.len;
		*end = '\0';
		if (!*line || *line == '#')
			continue;
		strbuf_reset(&path);
		if (*line != '/')
			strbuf_addf(&path, "%s/", objdir);
		strbuf_addstr(&path, line);
		count += count_packed(path.buf, depth + 1);
	}
out:
	strbuf_release(&list);
	strbuf_release(&path);
	return count;
}

/*
 * git's approximate object count: the objects of every pack (the last
 * entry of an index's fan-out table), alternates included, loose
 * objects not.
 */
static unsigned long count_packed(const char *objdir, int depth)
{
	struct strbuf path = STRBUF_INIT;
	unsigned long count = 0;
	struct dirent *de;
	size_t base;
	DIR *dir;

	strbuf_addf(&path, "%s/pack/", objdir);
	base = path.len;
	dir = opendir(path.buf);
	while (dir && (de = readdir(dir)) != NULL) {
		unsigned char hdr[8 + 256 * 4];
		size_t len = strlen(de->d_name);
		const unsigned char *last;
		struct stat st;
		ssize_t got;
		int fd;

		if (len < 5 || strcmp(de->d_name + len - 4, ".idx"))
			continue;
		strbuf_setlen(&path, base);
		strbuf_add(&path, de->d_name, len - 4);
		strbuf_addstr(&path, ".pack");
		if (stat(path.buf, &st) < 0)
			continue;
		strbuf_setlen(&path, path.len - 5);
		strbuf_addstr(&path, ".idx");
		fd = open(path.buf, O_RDONLY);
		if (fd < 0)
			continue;
		got = read(fd, hdr, sizeof(hdr));
		close(fd);
		if (got != (ssize_t)sizeof(hdr))
			continue;
		/* Version 2 starts with "\377tOc" and a version number. */
		if (!memcmp(hdr, "\377tOc", 4))
			last = hdr + 8 + 255 * 4;
		else
			last = hdr + 255 * 4;
		count += (unsigned long)last[0] << 24 | last[1] << 16 |
			 last[2] << 8 | last[3];
	}
	if (dir)
		closedir(dir);
	strbuf_release(&path);
	return count + count_alternates(objdir, depth);
}

/* git's default (core.abbrev=auto) length, before making it unique. */
static int default_abbrev(git_repository *repo)
{
	struct strbuf objdir = STRBUF_INIT;
	unsigned long count;
	int len = 0;

	strbuf_addstr(&objdir, git_repository_commondir(repo));
	if (objdir.len && objdir.buf[objdir.len - 1] == '/')
		strbuf_setlen(&objdir, objdir.len - 1);
	strbuf_addstr(&objdir, "/objects");
	count = count_packed(objdir.buf, 0);
	strbuf_release(&objdir);

	/*
	 * A collision is likely among about sqrt(count) objects: git takes
	 * (log2(count) + 1) / 2 bits' worth of hex digits, rounded up.
	 */
	while (count >>= 1)
		len++;
	len = (len + 2) / 2;
	return len < 7 ? 7 : len;
}

/*
 * The shortest prefix of id, at least st->abbrev long, that no other
 * object shares: git's find_unique_abbrev().
 */
static int abbrev_hex(struct idstate *st, char *hex, const git_oid *id)
{
	git_odb *odb = NULL;
	size_t len;
	int present, ret = 0;

	git_oid_tostr(hex, GIT_OID_HEXSZ + 1, id);
	if (!st->abbrev)
		st->abbrev = default_abbrev(st->repo);
	if (git_repository_odb(&odb, st->repo) < 0)
		return error_git("cannot open the object database");
	present = git_odb_exists(odb, id);
	for (len = (size_t)st->abbrev; len < GIT_OID_HEXSZ; len++) {
		git_oid found;
		int r = git_odb_exists_prefix(&found, odb, id, len);

		if (present ? !r : r == GIT_ENOTFOUND)
			break;
		if (r < 0 && r != GIT_ENOTFOUND && r != GIT_EAMBIGUOUS) {
			ret = error_git("cannot abbreviate %s", hex);
			break;
		}
	}
	git_error_clear();
	git_odb_free(odb);
	hex[len] = '\0';
	return ret;
}

/* A binary file counts as its abbreviated blob ids. */
static int hash_binary(struct idstate *st)
{
	char hex[GIT_OID_HEXSZ + 1];

	if (abbrev_hex(st, hex, &st->pre) < 0)
		return -1;
	sha1_update(&st->ctx, hex, strlen(hex));
	if (abbrev_hex(st, hex, &st->post) < 0)
		return -1;
	sha1_update(&st->ctx, hex, strlen(hex));
	flush_file(st);
	return 0;
}

/* One line of "git show" (with its newline) for the patch-id reader. */
static int read_line(struct idstate *st, const char *line)
{
	if (st->stopped || (!st->hashed && !starts_with(line, "diff ")))
		return 0;

	if (st->before == -1) {
		if (starts_with(line, "Binary files")) {
			st->binary = 1;
			st->before = 0;
			return hash_binary(st);
		} else if (starts_with(line, "--- ")) {
			st->before = st->after = 1;
		} else if (!git_isalpha((unsigned char)line[0])) {
			st->stopped = 1;
			return 0;
		}
	}

	if (st->binary) {
		/* The next file's "diff" line is skipped too. */
		if (starts_with(line, "diff ")) {
			st->binary = 0;
			st->before = -1;
		}
		return 0;
	}

	if (!st->before && !st->after) {
		if (starts_with(line, "@@ -")) {
			scan_hunk_header(st, line);
			return 0;
		}
		if (!starts_with(line, "diff ")) {
			st->stopped = 1;
			return 0;
		}
		flush_file(st);
		st->before = st->after = -1;
	}

	if (line[0] == '-' || line[0] == ' ')
		st->before--;
	if (line[0] == '+' || line[0] == ' ')
		st->after--;
	hash_line(st, line);
	return 0;
}

__attribute__((format(printf, 2, 3)))
static int emit(struct idstate *st, const char *fmt, ...)
{
	va_list ap;

	strbuf_reset(&st->line);
	va_start(ap, fmt);
	strbuf_vaddf(&st->line, fmt, ap);
	va_end(ap);
	return read_line(st, st->line.buf);
}

/*
 * An "index <pre>..<post>" line: the reader keeps the ids for a binary
 * file and hashes nothing.  It always comes in a header.
 */
static void read_index(struct idstate *st, const git_oid *pre,
		       const git_oid *post)
{
	if (st->stopped || st->binary || st->before != -1)
		return;
	git_oid_cpy(&st->pre, pre);
	git_oid_cpy(&st->post, post);
}

/* Sums what was read; GIT_ENOTFOUND if nothing was (git prints nothing). */
static int idstate_finish(struct idstate *st, git_oid *out)
{
	flush_file(st);
	if (!st->hashed)
		return GIT_ENOTFOUND;
	git_oid_fromraw(out, st->sum);
	return 0;
}

/*
 * Printing a diff as git does (diff.c), for what the reader looks at.
 */


static int must_quote(unsigned char c)
{
	return c < 0x20 || c == '"' || c == '\\' || c >= 0x7f;
}

static int needs_quotes(const char *s)
{
	for (; *s; s++)
		if (must_quote((unsigned char)*s))
			return 1;
	return 0;
}

static void add_quoted(struct strbuf *sb, const char *s)
{
	static const char letters[] = "abtnvfr";

	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (!must_quote(c)) {
			strbuf_addch(sb, c);
			continue;
		}
		strbuf_addch(sb, '\\');
		if (c >= '\a' && c <= '\r')
			strbuf_addch(sb, letters[c - '\a']);
		else if (c == '"' || c == '\\')
			strbuf_addch(sb, c);
		else
			strbuf_addf(sb, "%03o", c);
	}
}

/* A path as git prints it: C-quoted if any byte needs it. */
static void add_name(struct strbuf *sb, const char *prefix, const char *name)
{
	if (!needs_quotes(prefix) && !needs_quotes(name)) {
		strbuf_addstr(sb, prefix);
		strbuf_addstr(sb, name);
		return;
	}
	strbuf_addch(sb, '"');
	add_quoted(sb, prefix);
	add_quoted(sb, name);
	strbuf_addch(sb, '"');
}


/*
 * A file's diff.  libgit2's xdiff takes form feeds and vertical tabs for
 * whitespace when it places a change by indentation (git's indent
 * heuristic), git's xdiff does not: content with either is diffed with
 * them replaced by bytes it does not contain, put back in the lines.
 */
struct patch {
	git_patch *patch;		/* its lines point into what follows */
	git_blob *blob_a, *blob_b;
	char *text_a, *text_b;
	int binary;
	int ff, vt;			/* stand-ins for '\f' and '\v', or -1 */
};

static void patch_release(struct patch *p)
{
	git_patch_free(p->patch);
	git_blob_free(p->blob_a);
	git_blob_free(p->blob_b);
	free(p->text_a);
	free(p->text_b);
}

static void diff_opts(git_diff_options *opts)
{
	git_diff_options_init(opts, GIT_DIFF_OPTIONS_VERSION);
	/* As "git show": 3 lines of context, the indent heuristic. */
	opts->flags = GIT_DIFF_INDENT_HEURISTIC;
	opts->context_lines = 3;
	opts->interhunk_lines = 0;
}

/* A submodule reads as "Subproject commit <id>". */
static int patch_gitlinks(struct patch *p, const struct side *a,
			  const struct side *b)
{
	git_diff_options opts;
	char hex[GIT_OID_HEXSZ + 1];

	diff_opts(&opts);
	if (a->mode) {
		git_oid_tostr(hex, sizeof(hex), &a->id);
		p->text_a = xstrfmt("Subproject commit %s\n", hex);
	}
	if (b->mode) {
		git_oid_tostr(hex, sizeof(hex), &b->id);
		p->text_b = xstrfmt("Subproject commit %s\n", hex);
	}
	return git_patch_from_buffers(&p->patch, p->text_a,
				      p->text_a ? strlen(p->text_a) : 0,
				      a->mode ? a->path : NULL, p->text_b,
				      p->text_b ? strlen(p->text_b) : 0,
				      b->mode ? b->path : NULL, &opts);
}

static int has_ff_vt(const git_blob *blob)
{
	const char *buf = blob ? git_blob_rawcontent(blob) : NULL;
	size_t len = blob ? (size_t)git_blob_rawsize(blob) : 0;

	return len && (memchr(buf, '\f', len) || memchr(buf, '\v', len));
}

static char *stand_in_copy(const git_blob *blob, const struct patch *p)
{
	const char *buf = git_blob_rawcontent(blob);
	size_t i, len = (size_t)git_blob_rawsize(blob);
	char *copy = xmalloc(len + 1);

	for (i = 0; i < len; i++)
		copy[i] = buf[i] == '\f' ? (char)p->ff :
			  buf[i] == '\v' ? (char)p->vt : buf[i];
	return copy;
}

/* Diffs the text again with stand-ins for '\f' and '\v', if it can. */
static int patch_stand_ins(struct patch *p, const char *path_a,
			   const char *path_b)
{
	git_blob *blobs[2] = { p->blob_a, p->blob_b };
	size_t len[2] = { 0, 0 };
	char used[256] = { 0 };
	git_diff_options opts;
	int c, i;

	for (i = 0; i < 2; i++) {
		const unsigned char *buf;
		size_t j;

		if (!blobs[i])
			continue;
		buf = git_blob_rawcontent(blobs[i]);
		len[i] = (size_t)git_blob_rawsize(blobs[i]);
		for (j = 0; j < len[i]; j++)
			used[buf[j]] = 1;
	}
	for (c = 1; c < 256 && p->vt < 0; c++) {
		if (used[c] || strchr(" \t\n\v\f\r", c))
			continue;
		if (p->ff < 0)
			p->ff = c;
		else
			p->vt = c;
	}
	if (p->vt < 0) {
		p->ff = -1;
		return 0;	/* every byte is taken: keep the first diff */
	}
	if (p->blob_a)
		p->text_a = stand_in_copy(p->blob_a, p);
	if (p->blob_b)
		p->text_b = stand_in_copy(p->blob_b, p);
	diff_opts(&opts);
	opts.flags |= GIT_DIFF_FORCE_TEXT;
	git_patch_free(p->patch);
	p->patch = NULL;
	return git_patch_from_buffers(&p->patch, p->text_a, len[0], path_a,
				      p->text_b, len[1], path_b, &opts);
}

/* NULL for no side; an empty blob is an empty buffer, not none. */
static const void *blob_text(const git_blob *blob)
{
	const void *text = blob ? git_blob_rawcontent(blob) : NULL;

	return blob && !text ? "" : text;
}

static size_t blob_size(const git_blob *blob)
{
	return blob ? (size_t)git_blob_rawsize(blob) : 0;
}

static int patch_init(struct patch *p, git_repository *repo,
		      const struct side *a, const struct side *b)
{
	const char *path_a = a->mode ? a->path : NULL;
	const char *path_b = b->mode ? b->path : NULL;
	git_diff_options opts;
	int ret;

	memset(p, 0, sizeof(*p));
	p->ff = p->vt = -1;
	if ((a->mode & MODE_TYPE) == MODE_GITLINK ||
	    (b->mode & MODE_TYPE) == MODE_GITLINK)
		return patch_gitlinks(p, a, b);

	diff_opts(&opts);
	ret = a->mode ? git_blob_lookup(&p->blob_a, repo, &a->id) : 0;
	if (!ret && b->mode)
		ret = git_blob_lookup(&p->blob_b, repo, &b->id);
	/*
	 * The first diff also tells binary from text, attributes included.
	 * Where no attributes file can apply, the blobs are diffed as
	 * buffers, which libgit2 diffs with no attribute look-up (no
	 * repository): the same diff without its twenty system calls.
	 */
	if (!ret && (!path_a || patchid_no_attributes(repo, path_a)) &&
	    (!path_b || patchid_no_attributes(repo, path_b)))
		ret = git_patch_from_buffers(&p->patch,
					     blob_text(p->blob_a), blob_size(p->blob_a),
					     path_a,
					     blob_text(p->blob_b), blob_size(p->blob_b),
					     path_b, &opts);
	else if (!ret)
		ret = git_patch_from_blobs(&p->patch, p->blob_a, path_a,
					   p->blob_b, path_b, &opts);
	if (!ret)
		p->binary = !!(git_patch_get_delta(p->patch)->flags &
			       GIT_DIFF_FLAG_BINARY);
	if (!ret && !p->binary &&
	    (has_ff_vt(p->blob_a) || has_ff_vt(p->blob_b)))
		ret = patch_stand_ins(p, path_a, path_b);
	return ret;
}

static void put_back(char *buf, size_t len, const struct patch *p)
{
	size_t i;

	for (i = 0; i < len; i++) {
		if ((unsigned char)buf[i] == p->ff)
			buf[i] = '\f';
		else if ((unsigned char)buf[i] == p->vt)
			buf[i] = '\v';
	}
}

static int emit_line(struct idstate *st, const struct patch *p,
		     const git_diff_line *line)
{
	/* "\ No newline at end of file" is skipped by the reader. */
	if (line->origin != GIT_DIFF_LINE_CONTEXT &&
	    line->origin != GIT_DIFF_LINE_ADDITION &&
	    line->origin != GIT_DIFF_LINE_DELETION)
		return 0;
	strbuf_reset(&st->line);
	strbuf_addch(&st->line, line->origin);
	strbuf_add(&st->line, line->content, line->content_len);
	if (p->ff >= 0)
		put_back(st->line.buf, st->line.len, p);
	return read_line(st, st->line.buf);
}

static int emit_hunks(struct idstate *st, const struct patch *p,
		      const char *label_a, const char *label_b)
{
	size_t h, nr_hunks = git_patch_num_hunks(p->patch);
	int ret = 0;

	if (!nr_hunks)
		return 0;
	ret = emit(st, "--- %s\n", label_a);
	if (!ret)
		ret = emit(st, "+++ %s\n", label_b);
	for (h = 0; !ret && h < nr_hunks; h++) {
		const git_diff_hunk *hunk;
		const git_diff_line *line;
		size_t l, nr_lines;

		if (git_patch_get_hunk(&hunk, &nr_lines, p->patch, h) < 0)
			return error_git("cannot diff '%s'", label_b);
		ret = emit(st, "@@ -%d,%d +%d,%d @@\n",
			   hunk->old_start, hunk->old_lines,
			   hunk->new_start, hunk->new_lines);
		for (l = 0; !ret && l < nr_lines; l++) {
			ret = git_patch_get_line_in_hunk(&line, p->patch, h, l);
			if (ret < 0)
				return error_git("cannot diff '%s'", label_b);
			ret = emit_line(st, p, line);
		}
	}
	return ret;
}

/* Feeds text to the reader line by line. */
static int read_text(struct idstate *st, const char *text)
{
	const char *end;
	int ret = 0;

	for (; !ret && *text; text = end) {
		end = strchr(text, '\n');
		end = end ? end + 1 : text + strlen(text);
		strbuf_reset(&st->line);
		strbuf_add(&st->line, text, (size_t)(end - text));
		ret = read_line(st, st->line.buf);
	}
	return ret;
}

/* One "diff --git" section from a to b, either side possibly absent. */
static int emit_section(struct idstate *st, const struct filepair *p,
			const struct side *a, const struct side *b)
{
	struct strbuf label_a = STRBUF_INIT, label_b = STRBUF_INIT;
	struct strbuf header = STRBUF_INIT;
	struct patch patch = { NULL, NULL, NULL, NULL, NULL, 0, -1, -1 };
	const char *name = b->mode ? b->path : a->path;
	int ret;

	add_name(&label_a, "a/", a->mode ? a->path : b->path);
	add_name(&label_b, "b/", b->mode ? b->path : a->path);
	strbuf_addf(&header, "diff --git %s %s\n", label_a.buf, label_b.buf);
	if (!a->mode)
		strbuf_addf(&header, "new file mode %06o\n", b->mode);
	else if (!b->mode)
		strbuf_addf(&header, "deleted file mode %06o\n", a->mode);
	else if (a->mode != b->mode)
		strbuf_addf(&header, "old mode %06o\nnew mode %06o\n",
			    a->mode, b->mode);
	if (p->renamed) {
		strbuf_addf(&header, "similarity index %d%%\nrename from ",
			    p->score * 100 / MAX_SCORE);
		add_name(&header, "", p->one.path);
		strbuf_addstr(&header, "\nrename to ");
		add_name(&header, "", p->two.path);
		strbuf_addch(&header, '\n');
	}
	ret = read_text(st, header.buf);
	/* Then the "index" line; an absent side has the null id. */
	if (!git_oid_equal(&a->id, &b->id))
		read_index(st, &a->id, &b->id);

	/* The same content (a pure rename or mode change): no more. */
	if (ret || (a->mode && b->mode && git_oid_equal(&a->id, &b->id)))
		goto out;

	if (!a->mode) {
		strbuf_reset(&label_a);
		strbuf_addstr(&label_a, "/dev/null");
	}
	if (!b->mode) {
		strbuf_reset(&label_b);
		strbuf_addstr(&label_b, "/dev/null");
	}
	ret = patch_init(&patch, st->repo, a, b);
	if (ret < 0)
		ret = error_git("cannot diff '%s'", name);
	else if (patch.binary)
		ret = emit(st, "Binary files %s and %s differ\n",
			   label_a.buf, label_b.buf);
	else
		ret = emit_hunks(st, &patch, label_a.buf, label_b.buf);
out:
	patch_release(&patch);
	strbuf_release(&header);
	strbuf_release(&label_a);
	strbuf_release(&label_b);
	return ret;
}


static void set_side(struct side *s, const char *path, const git_oid *id,
		     uint32_t mode)
{
	s->path = path;
	git_oid_cpy(&s->id, id);
	s->mode = mode;
}

/* The file pairs of a change, in git's order (by path). */
static struct filepair *collect_pairs(const struct treediff *d)
{
	struct filepair *pairs = xcalloc(d->nr ? d->nr : 1, sizeof(*pairs));
	size_t i;

	for (i = 0; i < d->nr; i++) {
		const struct treediff_entry *e = &d->items[i];

		if (e->old_mode)
			set_side(&pairs[i].one, e->path, &e->old_id, e->old_mode);
		if (e->new_mode)
			set_side(&pairs[i].two, e->path, &e->new_id, e->new_mode);
	}
	return pairs;
}

static int emit_pair(struct idstate *st, const struct filepair *p)
{
	static const struct side none;
	int ret;

	/* A file that becomes a symlink shows as a deletion and a creation. */
	if (p->one.mode && p->two.mode &&
	    (p->one.mode & MODE_TYPE) != (p->two.mode & MODE_TYPE)) {
		ret = emit_section(st, p, &p->one, &none);
		return ret ? ret : emit_section(st, p, &none, &p->two);
	}
	return emit_section(st, p, &p->one, &p->two);
}

/* The patch-id of the change d; see patchid_commit(). */
static int patchid_of_diff(git_oid *out, git_repository *repo,
			   struct treediff *d)
{
	struct filepair *pairs = NULL;
	struct idstate st;
	size_t i;
	int ret;

	idstate_init(&st, repo);
	pairs = collect_pairs(d);
	ret = patchid_detect_renames(repo, pairs, d->nr);
	for (i = 0; !ret && i < d->nr; i++)
		if (!pairs[i].gone)
			ret = emit_pair(&st, &pairs[i]);
	if (!ret)
		ret = idstate_finish(&st, out);
	free(pairs);
	idstate_release(&st);
	return ret;
}

int patchid_commit(git_oid *out, git_repository *repo,
		   const git_commit *commit)
{
	struct treediff d = TREEDIFF_INIT;
	int ret;

	ret = treediff_commit(&d, repo, commit);
	if (ret >= 0)
		ret = patchid_of_diff(out, repo, &d);
	treediff_release(&d);
	return ret;
}

int patchid_trees(git_oid *out, git_repository *repo, git_tree *a,
		  git_tree *b)
{
	struct treediff d = TREEDIFF_INIT;
	int ret;

	ret = treediff_trees(&d, repo, a, b);
	if (ret >= 0)
		ret = patchid_of_diff(out, repo, &d);
	treediff_release(&d);
	return ret;
}

int patchid_text(git_oid *out, const char *text)
{
	struct idstate st;
	const char *line, *end;
	int ret = 0;

	idstate_init(&st, NULL);
	for (line = text; !ret && *line && !st.stopped; line = end) {
		end = strchr(line, '\n');
		end = end ? end + 1 : line + strlen(line);
		strbuf_reset(&st.line);
		strbuf_add(&st.line, line, (size_t)(end - line));
		if (st.line.len && st.line.buf[st.line.len - 1] != '\n')
			strbuf_addch(&st.line, '\n');
		if (st.hashed && st.before == -1) {
			/* git reads the ids of "index", hashing nothing. */
			if (starts_with(st.line.buf, "index "))
				continue;
			/* A binary file counts by its ids, as abbreviated. */
			if (starts_with(st.line.buf, "Binary files") ||
			    starts_with(st.line.buf, "GIT binary patch")) {
				ret = 1;
				break;
			}
		}
		ret = read_line(&st, st.line.buf);
	}
	if (!ret)
		ret = idstate_finish(&st, out);
	idstate_release(&st);
	return ret == 1 ? GIT_ENOTFOUND : ret;
}
