/*
 * Unit tests for patch-ids and their cache.  A throwaway repository is
 * built with the git command (fixed identities and dates, no user
 * configuration), and every patch-id is compared with what
 *
 *     git show <commit> | git patch-id --stable
 *
 * prints for the same commit.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <errno.h>
#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "git/patchid.h"
#include "git/patchid-pool.h"
#include "base/sha1.h"
#include "git/treediff.h"
#include "base/strbuf.h"
#include "base/util.h"

struct fixture {
	char dir[64];			/* the temporary directory */
	char *work;			/* its repository */
	git_repository *repo;
};

__attribute__((format(printf, 2, 3)))
static void run(struct fixture *f, const char *fmt, ...)
{
	struct strbuf cmd = STRBUF_INIT;
	va_list ap;

	strbuf_addf(&cmd, "cd '%s' && { ", f->work);
	va_start(ap, fmt);
	strbuf_vaddf(&cmd, fmt, ap);
	va_end(ap);
	/* TAP owns stdout. */
	strbuf_addstr(&cmd, "; } >/dev/null");
	if (system(cmd.buf))
		fail_msg("command failed: %s", cmd.buf);
	strbuf_release(&cmd);
}

static void write_file(struct fixture *f, const char *path, const void *data,
		       size_t len)
{
	struct strbuf full = STRBUF_INIT;
	FILE *fp;

	strbuf_addf(&full, "%s/%s", f->work, path);
	fp = fopen(full.buf, "wb");
	assert_non_null(fp);
	assert_int_equal(fwrite(data, 1, len, fp), len);
	assert_int_equal(fclose(fp), 0);
	strbuf_release(&full);
}

static void write_text(struct fixture *f, const char *path, const char *text)
{
	write_file(f, path, text, strlen(text));
}

/* A C-like file of n lines; line i reads "line i" with a salt. */
static void write_lines(struct fixture *f, const char *path, int n,
			const char *salt)
{
	struct strbuf sb = STRBUF_INIT;
	int i;

	for (i = 1; i <= n; i++) {
		if (i % 10 == 1)
			strbuf_addf(&sb, "static int func%d(void)\n{\n", i);
		else if (i % 10 == 0)
			strbuf_addstr(&sb, "}\n\n");
		else
			strbuf_addf(&sb, "\tint v%d = %d; /* %s */\n",
				    i, i, salt);
	}
	write_text(f, path, sb.buf);
	strbuf_release(&sb);
}

/* Commits everything and tags the commit with its subject. */
static void commit(struct fixture *f, const char *name)
{
	run(f, "git add -A && git commit -q -m '%s' && git tag '%s'",
	    name, name);
}

/* The first field of "git show <args> | git patch-id --stable", or "". */
static void git_patch_id(struct fixture *f, const char *args, char *hex)
{
	struct strbuf cmd = STRBUF_INIT;
	char line[256];
	FILE *p;

	strbuf_addf(&cmd, "cd '%s' && git show %s | git patch-id --stable",
		    f->work, args);
	p = popen(cmd.buf, "r");
	assert_non_null(p);
	hex[0] = '\0';
	if (fgets(line, sizeof(line), p)) {
		assert_true(strlen(line) > GIT_OID_HEXSZ);
		memcpy(hex, line, GIT_OID_HEXSZ);
		hex[GIT_OID_HEXSZ] = '\0';
	}
	assert_int_equal(pclose(p), 0);
	strbuf_release(&cmd);
}

static git_commit *lookup(struct fixture *f, const char *rev)
{
	git_object *obj, *peeled;

	assert_int_equal(git_revparse_single(&obj, f->repo, rev), 0);
	assert_int_equal(git_object_peel(&peeled, obj, GIT_OBJECT_COMMIT), 0);
	git_object_free(obj);
	return (git_commit *)peeled;
}

/* Our patch-id of rev, or "" if it has none. */
static void our_patch_id(struct fixture *f, const char *rev, char *hex)
{
	git_commit *c = lookup(f, rev);
	git_oid id;
	int ret = patchid_commit(&id, f->repo, c);

	hex[0] = '\0';
	if (ret != GIT_ENOTFOUND) {
		assert_int_equal(ret, 0);
		git_oid_tostr(hex, GIT_OID_HEXSZ + 1, &id);
	}
	git_commit_free(c);
}

/* Ours equals git's; returns it. */
static void check(struct fixture *f, const char *rev, char *hex)
{
	char expect[GIT_OID_HEXSZ + 1];

	git_patch_id(f, rev, expect);
	our_patch_id(f, rev, hex);
	assert_string_equal(hex, expect);
}

/* True if "git show rev" prints a line starting with prefix. */
static int show_has(struct fixture *f, const char *rev, const char *prefix)
{
	struct strbuf cmd = STRBUF_INIT;
	int ret;

	strbuf_addf(&cmd, "cd '%s' && git show %s | grep -q '^%s'",
		    f->work, rev, prefix);
	ret = system(cmd.buf) == 0;
	strbuf_release(&cmd);
	return ret;
}

/* The first line of "git show rev" that starts with prefix, or "". */
static void show_line(struct fixture *f, const char *rev, const char *prefix,
		      char *line, size_t size)
{
	struct strbuf cmd = STRBUF_INIT;
	FILE *p;

	strbuf_addf(&cmd, "cd '%s' && git show %s | grep -m1 '^%s'",
		    f->work, rev, prefix);
	p = popen(cmd.buf, "r");
	assert_non_null(p);
	if (!fgets(line, (int)size, p))
		line[0] = '\0';
	pclose(p);
	strbuf_release(&cmd);
}

static void setenv_all(const char *home)
{
	setenv("HOME", home, 1);
	setenv("XDG_CONFIG_HOME", home, 1);
	setenv("GIT_CONFIG_NOSYSTEM", "1", 1);
	setenv("GIT_CONFIG_GLOBAL", "/dev/null", 1);
	setenv("GIT_AUTHOR_NAME", "A U Thor", 1);
	setenv("GIT_AUTHOR_EMAIL", "author@example.com", 1);
	setenv("GIT_AUTHOR_DATE", "1700000000 +0000", 1);
	setenv("GIT_COMMITTER_NAME", "C O Mitter", 1);
	setenv("GIT_COMMITTER_EMAIL", "committer@example.com", 1);
	setenv("GIT_COMMITTER_DATE", "1700000000 +0000", 1);
	setenv("LC_ALL", "C", 1);
	unsetenv("GIT_DIR");
	unsetenv("GIT_WORK_TREE");
	unsetenv("GIT_INDEX_FILE");
	unsetenv("GIT_OBJECT_DIRECTORY");
}

/*
 * The history: one commit per kind of change, tagged with its name.
 * "stable" branches off at "root" for the cherry-pick test.
 */
static void build_history(struct fixture *f)
{
	static const char bin1[] = { 'B', 0, 1, 2, 3, '\n', (char)0xff };
	static const char bin2[] = { 'B', 0, 1, 9, 3, '\n', (char)0xfe, 7 };

	run(f, "mkdir -p fs scripts");
	write_lines(f, "fs/inode.c", 60, "inode");
	write_lines(f, "fs/super.c", 30, "super");
	write_lines(f, "fs/namei.c", 25, "namei");
	write_text(f, "fs/link.h", "#include \"inode.h\"\n");
	write_text(f, "README", "A file system.\n");
	write_text(f, "scripts/check.sh", "#!/bin/sh\nexit 0\n");
	commit(f, "root");

	/* One line of one file. */
	run(f, "sed -i 's/int v13 = 13;/int v13 = 1313;/' fs/inode.c");
	commit(f, "modify");

	/* Several files, several hunks each. */
	run(f, "sed -i -e 's/v3 = 3;/v3 = 33;/' -e 's/v55 = 55;/v55 = 5;/' "
	    "-e '/v33 = 33;/a\\\tint added = 0;' fs/inode.c");
	run(f, "sed -i -e '2d' -e 's/v28 = 28;/v28 = 2;/' fs/super.c");
	run(f, "echo 'More.' >> README");
	commit(f, "several");

	write_lines(f, "fs/dir.c", 15, "dir");
	commit(f, "add");

	run(f, "git rm -q README");
	commit(f, "delete");

	/* Only whitespace inside a line. */
	run(f, "sed -i 's/int v5 = 5;/int  v5 =\t5;/' fs/super.c");
	commit(f, "whitespace");

	run(f, "chmod +x scripts/check.sh");
	commit(f, "mode");

	run(f, "git mv fs/namei.c fs/lookup.c");
	commit(f, "rename");

	run(f, "mkdir fs/dir && git mv fs/lookup.c fs/dir/lookup.c && "
	    "sed -i 's/v12 = 12;/v12 = 21;/' fs/dir/lookup.c");
	commit(f, "rename-edit");

	write_file(f, "fs/blob.bin", bin1, sizeof(bin1));
	commit(f, "binary");

	write_file(f, "fs/blob.bin", bin2, sizeof(bin2));
	commit(f, "binary-edit");

	run(f, "git commit -q --allow-empty -m empty && git tag empty");

	/* A file becomes a symlink: a deletion and a creation. */
	run(f, "rm fs/link.h && ln -s inode.c fs/link.h");
	commit(f, "symlink");

	/*
	 * git's quirks: a binary file hides the next file's "diff" line,
	 * a mode-only change is hashed with the next file.
	 */
	write_file(f, "fs/blob.bin", bin1, sizeof(bin1));
	run(f, "sed -i 's/v2 = 2;/v2 = 22;/' fs/dir.c && chmod +x fs/dir.c");
	run(f, "sed -i 's/v4 = 4;/v4 = 44;/' fs/inode.c");
	run(f, "chmod -x scripts/check.sh");
	write_text(f, "fs/cache.c", "new\n");
	write_text(f, "scripts/zz.sh", "echo\n");
	commit(f, "quirks");

	/* Quoted names, a form feed, CRLF, no newline at the end. */
	write_text(f, "fs/with space.c", "a\n\fb\n  \f  c\n");
	write_text(f, "fs/\xc3\xbcnicode.c", "x\r\ny\r\n");
	write_text(f, "fs/q\"uote.c", "no newline");
	commit(f, "names");

	/* A fix in a function, and one in two files for the order test. */
	run(f, "sed -i 's/v47 = 47;/v47 = 74;/' fs/inode.c");
	commit(f, "fix");
	run(f, "sed -i 's/v18 = 18;/v18 = 81;/' fs/inode.c fs/super.c");
	commit(f, "two-files");

	/*
	 * The stable branch: the same fix on another base, with other line
	 * numbers and another function name above the hunk.
	 */
	run(f, "git checkout -q -b stable root");
	run(f, "{ printf '/* SPDX */\\n/* stable */\\n\\n'; cat fs/inode.c; } "
	    ">new && mv new fs/inode.c");
	run(f, "sed -i 's/func41(void)/func41_old(void)/' fs/inode.c");
	commit(f, "stable-base");
	run(f, "git cherry-pick fix && git tag fix-backport");
	/* The same fix again, indented differently. */
	run(f, "git revert --no-edit HEAD && "
	    "sed -i 's/\\tint v47 = 47;/    int v47 =   74;/' fs/inode.c");
	commit(f, "fix-respaced");
	run(f, "git checkout -q master");
}

static int setup(void **state)
{
	struct fixture *f = calloc(1, sizeof(*f));
	struct strbuf sb = STRBUF_INIT;

	git_libgit2_init();
	strcpy(f->dir, "/tmp/test_patchid.XXXXXX");
	assert_non_null(mkdtemp(f->dir));
	setenv_all(f->dir);
	strbuf_addf(&sb, "%s/repo", f->dir);
	f->work = strbuf_detach(&sb, NULL);
	strbuf_addf(&sb, "git init -q -b master '%s'", f->work);
	assert_int_equal(system(sb.buf), 0);
	strbuf_release(&sb);
	build_history(f);
	assert_int_equal(git_repository_open(&f->repo, f->work), 0);
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *f = *state;
	struct strbuf cmd = STRBUF_INIT;

	git_repository_free(f->repo);
	strbuf_addf(&cmd, "rm -rf '%s'", f->dir);
	assert_int_equal(system(cmd.buf), 0);
	strbuf_release(&cmd);
	free(f->work);
	free(f);
	git_libgit2_shutdown();
	return 0;
}

#define CHECK_TEST(name, rev) \
	static void name(void **state) \
	{ \
		char hex[GIT_OID_HEXSZ + 1]; \
		check(*state, rev, hex); \
		assert_int_equal(strlen(hex), GIT_OID_HEXSZ); \
	}

CHECK_TEST(test_root, "root")
CHECK_TEST(test_modify, "modify")
CHECK_TEST(test_several, "several")
CHECK_TEST(test_add, "add")
CHECK_TEST(test_delete, "delete")
CHECK_TEST(test_whitespace, "whitespace")
CHECK_TEST(test_mode, "mode")
CHECK_TEST(test_binary_add, "binary")
CHECK_TEST(test_binary_edit, "binary-edit")
CHECK_TEST(test_symlink, "symlink")
CHECK_TEST(test_quirks, "quirks")
CHECK_TEST(test_names, "names")

static void test_rename(void **state)
{
	struct fixture *f = *state;
	char hex[GIT_OID_HEXSZ + 1];

	/* git show detects renames by default; so must we. */
	assert_true(show_has(f, "rename", "similarity index 100%"));
	check(f, "rename", hex);
	assert_true(show_has(f, "rename-edit", "rename from fs/lookup.c"));
	assert_false(show_has(f, "rename-edit", "similarity index 100%"));
	check(f, "rename-edit", hex);
}

static void test_empty(void **state)
{
	char hex[GIT_OID_HEXSZ + 1];

	check(*state, "empty", hex);
	assert_string_equal(hex, "");
}

static void test_cherry_pick(void **state)
{
	struct fixture *f = *state;
	char fix[GIT_OID_HEXSZ + 1], backport[GIT_OID_HEXSZ + 1];
	char respaced[GIT_OID_HEXSZ + 1], other[GIT_OID_HEXSZ + 1];
	char hunk[128], hunk_backport[128];

	check(f, "fix", fix);
	check(f, "fix-backport", backport);
	check(f, "fix-respaced", respaced);
	check(f, "modify", other);
	/* Other line numbers and function name: the same patch. */
	show_line(f, "fix", "@@ ", hunk, sizeof(hunk));
	show_line(f, "fix-backport", "@@ ", hunk_backport,
		  sizeof(hunk_backport));
	assert_non_null(strstr(hunk, "func41(void)"));
	assert_non_null(strstr(hunk_backport, "func41_old(void)"));
	assert_string_not_equal(hunk, hunk_backport);
	assert_string_equal(backport, fix);
	/* Whitespace inside lines does not count either. */
	assert_string_equal(respaced, fix);
	assert_string_not_equal(other, fix);
}

static void test_file_order(void **state)
{
	struct fixture *f = *state;
	char ours[GIT_OID_HEXSZ + 1], reversed[GIT_OID_HEXSZ + 1];

	check(f, "two-files", ours);
	write_text(f, ".git/order", "fs/super.c\nfs/inode.c\n");
	git_patch_id(f, "-O.git/order two-files", reversed);
	assert_string_equal(ours, reversed);
}

/* Pseudo-random edits, each commit compared with git. */
static unsigned long rnd_state = 1;

static unsigned rnd(unsigned n)
{
	rnd_state = rnd_state * 6364136223846793005UL + 1442695040888963407UL;
	return (unsigned)(rnd_state >> 33) % n;
}

static void test_random_edits(void **state)
{
	static const char *const words[] = {
		"int x;", "}", "{", "\treturn 0;", "", "\f", "if (err)",
		"\t\tgoto out;", "static int f(void)", "  x = 1;  ", "/* */",
	};
	static const char *const paths[] = {
		"r/a.c", "r/b.c", "r/sub/c.c", "r/sub/a.c", "r/d.h",
	};
	struct fixture *f = *state;
	char lines[5][120][24];
	const size_t row = sizeof(lines[0][0]);
	int nr[5], i, n, k, c;

	run(f, "git checkout -q -b random master && mkdir -p r/sub");
	for (i = 0; i < 5; i++) {
		nr[i] = 20 + (int)rnd(40);
		for (n = 0; n < nr[i]; n++)
			strcpy(lines[i][n], words[rnd(ARRAY_SIZE(words))]);
	}
	for (c = 0; c < 30; c++) {
		char name[32], hex[GIT_OID_HEXSZ + 1];

		for (k = 1 + (int)rnd(3); k; k--) {
			i = (int)rnd(5);
			n = (int)rnd((unsigned)nr[i]);
			if (rnd(3) == 0 && nr[i] < 110) {
				memmove(lines[i][n + 1], lines[i][n],
					(size_t)(nr[i] - n) * row);
				nr[i]++;
			} else if (rnd(3) == 0 && nr[i] > 5) {
				memmove(lines[i][n], lines[i][n + 1],
					(size_t)(nr[i] - n - 1) * row);
				nr[i]--;
				continue;
			}
			strcpy(lines[i][n], words[rnd(ARRAY_SIZE(words))]);
		}
		for (i = 0; i < 5; i++) {
			struct strbuf sb = STRBUF_INIT;

			for (n = 0; n < nr[i]; n++)
				strbuf_addf(&sb, "%s\n", lines[i][n]);
			write_text(f, paths[i], sb.buf);
			strbuf_release(&sb);
		}
		sprintf(name, "random-%d", c);
		run(f, "git add -A && git commit -q --allow-empty -m %s && "
		    "git tag %s", name, name);
		check(f, name, hex);
	}
	run(f, "git checkout -q master");
}

static void test_sha1(void **state)
{
	static const struct {
		const char *in;
		const char *out;
	} v[] = {
		{ "", "da39a3ee5e6b4b0d3255bfef95601890afd80709" },
		{ "abc", "a9993e364706816aba3e25717850c26c9cd0d89d" },
		{ "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
		  "84983e441c3bd26ebaae4aa1f95129e5e54670f1" },
	};
	unsigned char digest[SHA1_RAWSZ];
	char hex[GIT_OID_HEXSZ + 1];
	struct sha1 ctx;
	git_oid id;
	size_t i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(v); i++) {
		sha1_init(&ctx);
		/* In two pieces, to cross the block boundary unevenly. */
		sha1_update(&ctx, v[i].in, strlen(v[i].in) / 3);
		sha1_update(&ctx, v[i].in + strlen(v[i].in) / 3,
			    strlen(v[i].in) - strlen(v[i].in) / 3);
		sha1_final(digest, &ctx);
		git_oid_fromraw(&id, digest);
		git_oid_tostr(hex, sizeof(hex), &id);
		assert_string_equal(hex, v[i].out);
	}
	sha1_init(&ctx);
	for (i = 0; i < 1000000; i++)
		sha1_update(&ctx, "a", 1);
	sha1_final(digest, &ctx);
	git_oid_fromraw(&id, digest);
	assert_string_equal(git_oid_tostr(hex, sizeof(hex), &id),
			    "34aa973cd4c4daa4f61eeb2bdbad27316534016f");
}

/* A blob's id by sha1.c, as git hashes it: "blob LEN\0" and the bytes. */
static void blob_id(git_oid *out, const unsigned char *buf, size_t len,
		    size_t piece)
{
	unsigned char digest[SHA1_RAWSZ];
	char header[32];
	struct sha1 ctx;
	size_t at;

	sha1_init(&ctx);
	snprintf(header, sizeof(header), "blob %zu", len);
	sha1_update(&ctx, header, strlen(header) + 1);
	for (at = 0; at < len; at += piece)
		sha1_update(&ctx, buf + at, len - at < piece ? len - at : piece);
	sha1_final(digest, &ctx);
	git_oid_fromraw(out, digest);
}

/*
 * Both block functions (the CPU's SHA extensions, when it has them,
 * and plain C) against libgit2's SHA-1, on every length across a few
 * blocks and a long buffer, fed whole and in uneven pieces.
 */
static void test_sha1_blocks(void **state)
{
	static const size_t lens[] = { 1000, 4096, 65536 + 7, 1 << 20 };
	size_t len, i, n, portable;
	unsigned char *buf = xmalloc(1 << 20);
	uint32_t x = 12345;
	git_oid want, got;

	(void)state;
	for (i = 0; i < (1 << 20); i++) {
		x = x * 1103515245 + 12345;
		buf[i] = (unsigned char)(x >> 16);
	}
	print_message("SHA-1 blocks by the CPU's SHA extensions: %s\n",
		      sha1_accelerated() ? "yes" : "no");
	for (portable = 0; portable < 2; portable++) {
		sha1_use_portable((int)portable);
		for (n = 0; n < 200 + ARRAY_SIZE(lens); n++) {
			len = n < 200 ? n : lens[n - 200];
			assert_int_equal(git_odb_hash(&want, buf, len,
						      GIT_OBJECT_BLOB), 0);
			blob_id(&got, buf, len, len ? len : 1);
			assert_true(git_oid_equal(&want, &got));
			blob_id(&got, buf, len, 63);
			assert_true(git_oid_equal(&want, &got));
		}
	}
	sha1_use_portable(0);
	free(buf);
}

/*
 * The cache.  stderr is captured to compare warnings byte for byte.
 */

static int saved_stderr = -1;

static void capture_stderr(struct fixture *f)
{
	struct strbuf path = STRBUF_INIT;
	int fd;

	strbuf_addf(&path, "%s/stderr", f->dir);
	fflush(stderr);
	saved_stderr = dup(2);
	fd = open(path.buf, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	assert_true(fd >= 0 && saved_stderr >= 0);
	dup2(fd, 2);
	close(fd);
	strbuf_release(&path);
}

static char *captured_stderr(struct fixture *f)
{
	struct strbuf path = STRBUF_INIT, sb = STRBUF_INIT;

	fflush(stderr);
	dup2(saved_stderr, 2);
	close(saved_stderr);
	strbuf_addf(&path, "%s/stderr", f->dir);
	assert_int_equal(strbuf_read_file(&sb, path.buf), 0);
	strbuf_release(&path);
	return strbuf_detach(&sb, NULL);
}

static void assert_stderr(struct fixture *f, const char *expect)
{
	char *got = captured_stderr(f);

	assert_string_equal(got, expect);
	free(got);
}

/* What was captured starts with prefix and ends with suffix. */
static void assert_stderr_prefix(struct fixture *f, const char *prefix,
				 const char *suffix)
{
	char *got = captured_stderr(f);
	size_t len = strlen(got), plen = strlen(prefix), slen = strlen(suffix);

	if (len < plen + slen || strncmp(got, prefix, plen) ||
	    strcmp(got + len - slen, suffix))
		fail_msg("stderr '%s' is not '%s...%s'", got, prefix, suffix);
	free(got);
}

/* cache_get() of rev; returns its result, fills hex ("" if no diff). */
static int cache_get(struct fixture *f, struct patchid_cache *cache,
		     const char *rev, char *hex)
{
	git_commit *c = lookup(f, rev);
	git_oid id;
	int ret = patchid_cache_get(cache, f->repo, c, &id);

	hex[0] = '\0';
	if (!ret)
		git_oid_tostr(hex, GIT_OID_HEXSZ + 1, &id);
	git_commit_free(c);
	return ret;
}

static char *cache_path(struct fixture *f, const char *name)
{
	return xstrfmt("%s/%s", f->dir, name);
}

/*
 * A mail's patch: the hunk's counts say where it ends, so the "-- "
 * signature git format-patch adds after it is not part of it, whichever
 * side of "@@ -1 +1,2 @@" has no count.  The ids are git patch-id
 * --stable's for the same text.
 */
static void test_text_counts(void **state)
{
#define HEAD "diff --git a/f b/f\nindex 5626abf..adbc0b6 100644\n--- a/f\n+++ b/f\n"
	static const struct {
		const char *text, *git;
	} cases[] = {
		{ HEAD "@@ -1 +1,2 @@\n one\n+two\n",
		  "9ff1f766203e9f78b5e768639f5c4e6bb5527b01" },
		{ HEAD "@@ -1 +1,2 @@\n one\n+two\n-- \n2.39.5\n",
		  "9ff1f766203e9f78b5e768639f5c4e6bb5527b01" },
		{ HEAD "@@ -1,2 +1 @@\n one\n-two\n-- \n2.39.5\n",
		  "6943ac9c9dd985e54efe477d5bf930495470634c" },
	};
#undef HEAD
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		git_oid id;

		assert_int_equal(patchid_text(&id, cases[i].text), 0);
		assert_string_equal(git_oid_tostr_s(&id), cases[i].git);
	}
}

/*
 * patchid_cache_fill(): the patch-ids of many commits on two threads,
 * each the one patchid_commit() gives, a repeat computed once, and
 * patchid_cache_get() answering from them without diffing again.
 */
static void test_cache_fill(void **state)
{
	static const char *const revs[] = { "modify", "several", "empty",
					    "modify", "rename" };
	struct fixture *f = *state;
	char want[GIT_OID_HEXSZ + 1], hex[GIT_OID_HEXSZ + 1];
	git_oid ids[ARRAY_SIZE(revs)];
	struct patchid_cache cache;
	size_t i, limit = 0, after = 0;

	for (i = 0; i < ARRAY_SIZE(revs); i++) {
		git_commit *c = lookup(f, revs[i]);

		git_oid_cpy(&ids[i], git_commit_id(c));
		git_commit_free(c);
	}
	patchid_cache_init(&cache, "");
	assert_int_equal(git_libgit2_opts(GIT_OPT_GET_MWINDOW_MAPPED_LIMIT,
					  &limit), 0);
	assert_int_equal(patchid_cache_fill(&cache, f->repo, ids,
					    ARRAY_SIZE(ids), 2), 0);
	assert_int_equal(cache.computed, 4);
	/* The workers' maps are counted while they run, not after. */
	assert_int_equal(git_libgit2_opts(GIT_OPT_GET_MWINDOW_MAPPED_LIMIT,
					  &after), 0);
	assert_int_equal(after, limit);
	for (i = 0; i < ARRAY_SIZE(revs); i++) {
		assert_true(patchid_cache_has(&cache, &ids[i]));
		our_patch_id(f, revs[i], want);
		assert_int_equal(cache_get(f, &cache, revs[i], hex),
				 want[0] ? 0 : GIT_ENOTFOUND);
		assert_string_equal(hex, want);
	}
	assert_int_equal(cache.computed, 4);
	/* Filled again: nothing left to compute. */
	assert_int_equal(patchid_cache_fill(&cache, f->repo, ids,
					    ARRAY_SIZE(ids), 2), 0);
	assert_int_equal(cache.computed, 4);
	patchid_cache_release(&cache);
}

static void test_cache(void **state)
{
	static const char *const revs[] = { "modify", "several", "empty" };
	struct fixture *f = *state;
	char *path = cache_path(f, "cache/sub/patchid-cache");
	char *tmp = xstrfmt("%s.tmp", path);
	char want[3][GIT_OID_HEXSZ + 1], hex[GIT_OID_HEXSZ + 1];
	struct patchid_cache cache;
	struct strbuf text = STRBUF_INIT;
	struct stat before, after;
	size_t i;

	/* A missing file (and directory) is no error. */
	patchid_cache_init(&cache, path);
	capture_stderr(f);
	assert_int_equal(patchid_cache_load(&cache), 0);
	assert_stderr(f, "");

	for (i = 0; i < ARRAY_SIZE(revs); i++) {
		our_patch_id(f, revs[i], want[i]);
		assert_int_equal(cache_get(f, &cache, revs[i], hex),
				 want[i][0] ? 0 : GIT_ENOTFOUND);
		assert_string_equal(hex, want[i]);
	}
	assert_int_equal(cache.computed, 3);
	/* Asked again, from memory: "no diff" is remembered too. */
	assert_int_equal(cache_get(f, &cache, "empty", hex), GIT_ENOTFOUND);
	assert_int_equal(cache_get(f, &cache, "modify", hex), 0);
	assert_int_equal(cache.computed, 3);

	assert_int_equal(patchid_cache_save(&cache), 0);
	assert_int_equal(access(tmp, F_OK), -1);
	assert_int_equal(strbuf_read_file(&text, path), 0);
	assert_true(!strncmp(text.buf, "stablepick patchid cache 4\n"
			     "attributes 0000000000000000000000000000000000000000\n",
			     27 + 52));
	/* Three lines (one "-"), then "checksum <40 hex>". */
	assert_int_equal(text.len, 27 + 52 + 3 * 82 - 39 + 50);
	assert_non_null(strstr(text.buf, "\nchecksum "));
	assert_non_null(strstr(text.buf, " -\n"));
	/* Path keys are kept beside, "?" for a patch-id not computed. */
	{
		git_commit *c = lookup(f, "several");
		git_commit *d = lookup(f, "rename");
		unsigned char key[SHA1_RAWSZ], want_key[SHA1_RAWSZ];

		assert_int_equal(patchid_cache_pathkey(&cache, f->repo, c, key), 0);
		assert_int_equal(treediff_pathkey(want_key, f->repo, c), 0);
		assert_memory_equal(key, want_key, SHA1_RAWSZ);
		assert_int_equal(patchid_cache_pathkey(&cache, f->repo, d, key), 0);
		assert_false(patchid_cache_has(&cache, git_commit_id(d)));
		assert_int_equal(patchid_cache_save(&cache), 0);
		strbuf_reset(&text);
		assert_int_equal(strbuf_read_file(&text, path), 0);
		assert_non_null(strstr(text.buf, " ? "));
		patchid_cache_release(&cache);
		patchid_cache_init(&cache, path);
		assert_int_equal(patchid_cache_load(&cache), 4);
		memset(key, 0, sizeof(key));
		assert_int_equal(patchid_cache_pathkey(&cache, f->repo, c, key), 0);
		assert_memory_equal(key, want_key, SHA1_RAWSZ);
		assert_false(patchid_cache_has(&cache, git_commit_id(d)));
		assert_true(patchid_cache_has(&cache, git_commit_id(c)));
		assert_false(cache.dirty);
		git_commit_free(c);
		git_commit_free(d);
	}
	patchid_cache_release(&cache);

	/* A new run answers without diffing. */
	patchid_cache_init(&cache, path);
	assert_int_equal(patchid_cache_load(&cache), 4);
	for (i = 0; i < ARRAY_SIZE(revs); i++) {
		assert_int_equal(cache_get(f, &cache, revs[i], hex),
				 want[i][0] ? 0 : GIT_ENOTFOUND);
		assert_string_equal(hex, want[i]);
	}
	assert_int_equal(cache.computed, 0);

	/* Nothing changed: the file is not rewritten. */
	assert_int_equal(stat(path, &before), 0);
	assert_int_equal(patchid_cache_save(&cache), 0);
	assert_int_equal(stat(path, &after), 0);
	assert_true(before.st_ino == after.st_ino);
	patchid_cache_release(&cache);

	strbuf_release(&text);
	free(tmp);
	free(path);
}

/* Appends the "checksum" line the cache file ends with. */
static void add_checksum(struct strbuf *sb)
{
	unsigned char digest[SHA1_RAWSZ];
	struct sha1 ctx;
	size_t i;

	if (sb->len && sb->buf[sb->len - 1] != '\n')
		strbuf_addch(sb, '\n');
	sha1_init(&ctx);
	sha1_update(&ctx, sb->buf, sb->len);
	sha1_final(digest, &ctx);
	strbuf_addstr(sb, "checksum ");
	for (i = 0; i < SHA1_RAWSZ; i++)
		strbuf_addf(sb, "%02x", digest[i]);
	strbuf_addch(sb, '\n');
}

/* A flipped digit, or a file cut short: nothing of it is trusted. */
static void test_cache_checksum(void **state)
{
	struct fixture *f = *state;
	char *path = cache_path(f, "flipped-cache");
	char *expect = xstrfmt("warning: ignoring patch-id cache '%s': checksum "
			       "mismatch (corrupt); it will be rebuilt\n", path);
	struct patchid_cache cache;
	struct strbuf sb = STRBUF_INIT;
	char hex[GIT_OID_HEXSZ + 1], good[GIT_OID_HEXSZ + 1];
	char *p;
	int round;

	patchid_cache_init(&cache, path);
	assert_int_equal(cache_get(f, &cache, "modify", good), 0);
	assert_int_equal(patchid_cache_save(&cache), 0);
	patchid_cache_release(&cache);
	for (round = 0; round < 2; round++) {
		FILE *fp;

		strbuf_reset(&sb);
		assert_int_equal(strbuf_read_file(&sb, path), 0);
		if (!round) {
			/* The patch-id's last digit, changed. */
			p = strstr(sb.buf, good);
			assert_non_null(p);
			p[GIT_OID_HEXSZ - 1] = p[GIT_OID_HEXSZ - 1] == '0' ? '1' : '0';
		} else {
			strbuf_setlen(&sb, sb.len - 20);
		}
		fp = fopen(path, "w");
		assert_non_null(fp);
		fwrite(sb.buf, 1, sb.len, fp);
		fclose(fp);
		patchid_cache_init(&cache, path);
		capture_stderr(f);
		assert_int_equal(patchid_cache_load(&cache), 0);
		assert_stderr(f, expect);
		/* Computed again, right, and saved whole. */
		assert_int_equal(cache_get(f, &cache, "modify", hex), 0);
		assert_string_equal(hex, good);
		assert_int_equal(cache.computed, 1);
		assert_int_equal(patchid_cache_save(&cache), 0);
		patchid_cache_release(&cache);
	}
	strbuf_release(&sb);
	free(expect);
	free(path);
}

static void test_cache_corrupt(void **state)
{
	struct fixture *f = *state;
	char *path = cache_path(f, "corrupt-cache");
	char modify[GIT_OID_HEXSZ + 1], several[GIT_OID_HEXSZ + 1];
	char add[GIT_OID_HEXSZ + 1], hex[GIT_OID_HEXSZ + 1];
	char c_modify[GIT_OID_HEXSZ + 1], c_several[GIT_OID_HEXSZ + 1];
	char c_add[GIT_OID_HEXSZ + 1];
	struct patchid_cache cache;
	struct strbuf sb = STRBUF_INIT, expect = STRBUF_INIT;
	git_commit *c;
	FILE *fp;

	our_patch_id(f, "modify", modify);
	our_patch_id(f, "several", several);
	our_patch_id(f, "add", add);
	c = lookup(f, "modify");
	git_oid_tostr(c_modify, sizeof(c_modify), git_commit_id(c));
	git_commit_free(c);
	c = lookup(f, "several");
	git_oid_tostr(c_several, sizeof(c_several), git_commit_id(c));
	git_commit_free(c);
	c = lookup(f, "add");
	git_oid_tostr(c_add, sizeof(c_add), git_commit_id(c));
	git_commit_free(c);

	strbuf_addstr(&sb, "stablepick patchid cache 2\n");
	/* Line 2: good. */
	strbuf_addf(&sb, "%s %s\n", c_modify, modify);
	/* Line 3: not hex. */
	strbuf_addf(&sb, "%.39sx %s\n", c_several, several);
	/* Line 4: a patch-id one digit short. */
	strbuf_addf(&sb, "%s %.39s\n", c_several, several);
	/* Line 5: no patch-id. */
	strbuf_addf(&sb, "%s\n", c_several);
	/* Line 6: the good line again. */
	strbuf_addf(&sb, "%s %s\n", c_modify, modify);
	/* Line 7: something after the patch-id. */
	strbuf_addf(&sb, "%s %s extra\n", c_add, add);
	/*
	 * The checksum holds: lines only a bug could write are still
	 * checked one by one.
	 */
	add_checksum(&sb);
	fp = fopen(path, "w");
	assert_non_null(fp);
	fputs(sb.buf, fp);
	fclose(fp);

	strbuf_addf(&expect,
		    "warning: %s:3: malformed line, ignored\n"
		    "warning: %s:4: malformed line, ignored\n"
		    "warning: %s:5: malformed line, ignored\n"
		    "warning: %s:6: commit %s listed again, ignored\n"
		    "warning: %s:7: malformed line, ignored\n",
		    path, path, path, path, c_modify, path);
	patchid_cache_init(&cache, path);
	capture_stderr(f);
	assert_int_equal(patchid_cache_load(&cache), 1);
	assert_stderr(f, expect.buf);

	assert_int_equal(cache_get(f, &cache, "modify", hex), 0);
	assert_string_equal(hex, modify);
	assert_int_equal(cache.computed, 0);
	assert_int_equal(cache_get(f, &cache, "several", hex), 0);
	assert_string_equal(hex, several);
	assert_int_equal(cache_get(f, &cache, "add", hex), 0);
	assert_string_equal(hex, add);
	assert_int_equal(cache.computed, 2);

	/* Saved clean: read back without a word. */
	assert_int_equal(patchid_cache_save(&cache), 0);
	patchid_cache_release(&cache);
	patchid_cache_init(&cache, path);
	capture_stderr(f);
	assert_int_equal(patchid_cache_load(&cache), 3);
	assert_stderr(f, "");
	patchid_cache_release(&cache);

	strbuf_release(&expect);
	strbuf_release(&sb);
	free(path);
}

static void test_cache_foreign(void **state)
{
	struct fixture *f = *state;
	char *path = cache_path(f, "foreign-cache");
	char *expect = xstrfmt("warning: %s:1: written by another version of "
			       "stablepick, ignored; it will be rebuilt\n", path);
	struct patchid_cache cache;
	char hex[GIT_OID_HEXSZ + 1];
	FILE *fp = fopen(path, "w");

	assert_non_null(fp);
	fputs("stablepick patchid cache 5\n", fp);
	fclose(fp);
	patchid_cache_init(&cache, path);
	capture_stderr(f);
	assert_int_equal(patchid_cache_load(&cache), 0);
	assert_stderr(f, expect);
	assert_int_equal(cache_get(f, &cache, "modify", hex), 0);
	assert_int_equal(cache.computed, 1);
	patchid_cache_release(&cache);
	free(expect);

	/* Not a cache at all. */
	expect = xstrfmt("warning: %s:1: not a stablepick patch-id cache, "
			 "ignored\n", path);
	fp = fopen(path, "w");
	assert_non_null(fp);
	fputs("hello\nworld\n", fp);
	fclose(fp);
	patchid_cache_init(&cache, path);
	capture_stderr(f);
	assert_int_equal(patchid_cache_load(&cache), 0);
	assert_stderr(f, expect);
	patchid_cache_release(&cache);
	free(expect);
	free(path);
}

/*
 * The patch-ids of other attributes, or of unknown ones (a version 3
 * file), are forgotten as the file is read; its path keys are kept.
 */
static void test_cache_attributes(void **state)
{
	struct fixture *f = *state;
	char *path = cache_path(f, "attributes-cache");
	unsigned char a[SHA1_RAWSZ], b[SHA1_RAWSZ], key[SHA1_RAWSZ];
	char hex[GIT_OID_HEXSZ + 1], want[GIT_OID_HEXSZ + 1];
	struct patchid_cache cache;
	struct strbuf sb = STRBUF_INIT;
	git_commit *modify = lookup(f, "modify"), *several = lookup(f, "several");
	char *p;
	FILE *fp;

	memset(a, 0xaa, sizeof(a));
	memset(b, 0xbb, sizeof(b));
	our_patch_id(f, "modify", want);
	patchid_cache_init(&cache, path);
	patchid_cache_set_attributes(&cache, a);
	assert_int_equal(cache_get(f, &cache, "modify", hex), 0);
	assert_int_equal(patchid_cache_pathkey(&cache, f->repo, several, key), 0);
	assert_int_equal(cache_get(f, &cache, "several", hex), 0);
	assert_int_equal(patchid_cache_save(&cache), 0);
	patchid_cache_release(&cache);
	assert_int_equal(strbuf_read_file(&sb, path), 0);
	assert_non_null(strstr(sb.buf, "\nattributes aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\n"));

	/* The same attributes: every patch-id read. */
	patchid_cache_init(&cache, path);
	patchid_cache_set_attributes(&cache, a);
	assert_int_equal(patchid_cache_load(&cache), 2);
	assert_true(patchid_cache_has(&cache, git_commit_id(modify)));
	assert_true(patchid_cache_has(&cache, git_commit_id(several)));
	assert_false(cache.dirty);
	patchid_cache_release(&cache);

	/* Other attributes: none, but the path key. */
	patchid_cache_init(&cache, path);
	patchid_cache_set_attributes(&cache, b);
	assert_int_equal(patchid_cache_load(&cache), 2);
	assert_false(patchid_cache_has(&cache, git_commit_id(modify)));
	assert_false(patchid_cache_has(&cache, git_commit_id(several)));
	assert_true(cache.dirty);
	assert_int_equal(cache.nr, 1);
	memset(key, 0, sizeof(key));
	assert_int_equal(patchid_cache_pathkey(&cache, f->repo, several, key), 0);
	assert_false(cache.computed);
	assert_int_equal(cache_get(f, &cache, "modify", hex), 0);
	assert_string_equal(hex, want);
	assert_int_equal(cache.computed, 1);
	assert_int_equal(patchid_cache_save(&cache), 0);
	patchid_cache_release(&cache);
	strbuf_reset(&sb);
	assert_int_equal(strbuf_read_file(&sb, path), 0);
	assert_non_null(strstr(sb.buf, "\nattributes bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb\n"));

	/* Unknown ones (version 3, no attributes line): the same. */
	p = strstr(sb.buf, "attributes ");
	assert_non_null(p);
	memmove(p, p + 52, strlen(p + 52) + 1);
	sb.len -= 52;
	p = strstr(sb.buf, "\nchecksum ");
	assert_non_null(p);
	strbuf_setlen(&sb, (size_t)(p - sb.buf) + 1);
	sb.buf[25] = '3';
	add_checksum(&sb);
	fp = fopen(path, "w");
	assert_non_null(fp);
	fputs(sb.buf, fp);
	fclose(fp);
	patchid_cache_init(&cache, path);
	capture_stderr(f);
	assert_int_equal(patchid_cache_load(&cache), 2);
	assert_stderr(f, "");
	assert_true(patchid_cache_has(&cache, git_commit_id(modify)));
	patchid_cache_release(&cache);
	patchid_cache_init(&cache, path);
	patchid_cache_set_attributes(&cache, b);
	assert_int_equal(patchid_cache_load(&cache), 2);
	assert_false(patchid_cache_has(&cache, git_commit_id(modify)));
	assert_int_equal(cache.nr, 1);
	patchid_cache_release(&cache);

	git_commit_free(modify);
	git_commit_free(several);
	strbuf_release(&sb);
	free(path);
}

static void test_cache_save_fails(void **state)
{
	struct fixture *f = *state;
	char *path = cache_path(f, "kept-cache");
	struct patchid_cache cache;
	struct strbuf old = STRBUF_INIT, now = STRBUF_INIT, err = STRBUF_INIT;
	struct rlimit limit, small;
	char hex[GIT_OID_HEXSZ + 1];
	DIR *dir;
	struct dirent *de;
	size_t left = 0;

	patchid_cache_init(&cache, path);
	assert_int_equal(cache_get(f, &cache, "modify", hex), 0);
	assert_int_equal(patchid_cache_save(&cache), 0);
	patchid_cache_release(&cache);
	assert_int_equal(strbuf_read_file(&old, path), 0);

	/*
	 * The temporary file cannot be written whole (a full disk, here
	 * the file size limit): the old file stays, and so does nothing
	 * else.
	 */
	patchid_cache_init(&cache, path);
	patchid_cache_load(&cache);
	assert_int_equal(cache_get(f, &cache, "several", hex), 0);
	signal(SIGXFSZ, SIG_IGN);
	assert_int_equal(getrlimit(RLIMIT_FSIZE, &limit), 0);
	small = limit;
	small.rlim_cur = old.len;
	capture_stderr(f);
	assert_int_equal(setrlimit(RLIMIT_FSIZE, &small), 0);
	assert_int_equal(patchid_cache_save(&cache), -1);
	assert_int_equal(setrlimit(RLIMIT_FSIZE, &limit), 0);
	signal(SIGXFSZ, SIG_DFL);
	strbuf_addf(&err, "warning: cannot write patch-id cache '%s.tmp.", path);
	assert_stderr_prefix(f, err.buf, ": File too large\n");
	assert_int_equal(strbuf_read_file(&now, path), 0);
	assert_string_equal(now.buf, old.buf);
	dir = opendir(f->dir);
	assert_non_null(dir);
	while ((de = readdir(dir)))
		left += !strncmp(de->d_name, "kept-cache.tmp", 14);
	closedir(dir);
	assert_int_equal(left, 0);

	/* Still to be saved, and saved once possible. */
	assert_int_equal(patchid_cache_save(&cache), 0);
	patchid_cache_release(&cache);
	patchid_cache_init(&cache, path);
	assert_int_equal(patchid_cache_load(&cache), 2);
	patchid_cache_release(&cache);

	strbuf_release(&err);
	strbuf_release(&old);
	strbuf_release(&now);
	free(path);
}

/*
 * A thread past the first pays only for PATCHID_PER_THREAD commits
 * each: fewer are computed on one (the presence stage's 121 on a
 * 100,000-commit history took 80 ms on one thread, 120 on two).
 */
static void test_jobs_for(void **state)
{
	int cpus = patchid_default_jobs();

	(void)state;
	assert_int_equal(patchid_jobs_for(0), 1);
	assert_int_equal(patchid_jobs_for(121), 1);
	assert_int_equal(patchid_jobs_for(PATCHID_PER_THREAD - 1), 1);
	assert_int_equal(patchid_jobs_for(PATCHID_PER_THREAD),
			 cpus < 2 ? cpus : 2);
	assert_int_equal(patchid_jobs_for((size_t)PATCHID_PER_THREAD * 1000),
			 cpus);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sha1),
		cmocka_unit_test(test_sha1_blocks),
		cmocka_unit_test(test_jobs_for),
		cmocka_unit_test(test_root),
		cmocka_unit_test(test_modify),
		cmocka_unit_test(test_several),
		cmocka_unit_test(test_add),
		cmocka_unit_test(test_delete),
		cmocka_unit_test(test_whitespace),
		cmocka_unit_test(test_mode),
		cmocka_unit_test(test_rename),
		cmocka_unit_test(test_binary_add),
		cmocka_unit_test(test_binary_edit),
		cmocka_unit_test(test_empty),
		cmocka_unit_test(test_symlink),
		cmocka_unit_test(test_quirks),
		cmocka_unit_test(test_names),
		cmocka_unit_test(test_cherry_pick),
		cmocka_unit_test(test_file_order),
		cmocka_unit_test(test_random_edits),
		cmocka_unit_test(test_text_counts),
		cmocka_unit_test(test_cache_fill),
		cmocka_unit_test(test_cache),
		cmocka_unit_test(test_cache_checksum),
		cmocka_unit_test(test_cache_corrupt),
		cmocka_unit_test(test_cache_foreign),
		cmocka_unit_test(test_cache_attributes),
		cmocka_unit_test(test_cache_save_fails),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
