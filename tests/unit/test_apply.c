/*
 * Unit tests for trial cherry-picks.  A throwaway repository is built
 * with the git command (fixed identities and dates, no personal
 * configuration): mainline on "master", a stable branch forked from
 * its first commit, one tag per commit to pick.  The stable branch is
 * checked out with a dirty work tree and a staged change, and must be
 * left exactly as it was.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "git/apply.h"
#include "git/renames.h"
#include "git/treediff.h"
#include "store/trialcache.h"
#include "base/strbuf.h"
#include "testrepo.h"
#include "base/util.h"

struct snapshot {
	struct strbuf status;		/* git status --porcelain */
	struct strbuf index;		/* .git/index, byte for byte */
	struct strbuf head;		/* .git/HEAD and what it resolves to */
	struct strbuf refs;		/* git for-each-ref */
};

struct fixture {
	char dir[64];
	long tick;
	git_repository *repo;
	struct snapshot before;
};

__attribute__((format(printf, 2, 3)))
static void git(struct fixture *f, const char *fmt, ...)
{
	va_list ap;

	/* Like git's test_tick: every command sees a later, fixed date. */
	va_start(ap, fmt);
	testrepo_vgit(f->dir, &f->tick, 60, fmt, ap);
	va_end(ap);
}

/* Runs a shell command in the repository and appends its output. */
static void capture(struct fixture *f, struct strbuf *out, const char *cmd)
{
	struct strbuf full = STRBUF_INIT;
	char buf[4096];
	size_t n;
	FILE *p;

	strbuf_addf(&full, "cd '%s' && %s", f->dir, cmd);
	p = popen(full.buf, "r");
	assert_non_null(p);
	while ((n = fread(buf, 1, sizeof(buf), p)) > 0)
		strbuf_add(out, buf, n);
	assert_int_equal(pclose(p), 0);
	strbuf_release(&full);
}

/* Writes lines "<prefix>1" .. "<prefix>10", with line `at` replaced. */
static void write_file(struct fixture *f, const char *path, const char *prefix,
		       int at, const char *replacement)
{
	struct strbuf full = STRBUF_INIT;
	FILE *fp;
	int i;

	strbuf_addf(&full, "%s/%s", f->dir, path);
	fp = fopen(full.buf, "w");
	assert_non_null(fp);
	for (i = 1; i <= 10; i++) {
		if (i == at)
			fprintf(fp, "%s\n", replacement);
		else
			fprintf(fp, "%s%d\n", prefix, i);
	}
	fclose(fp);
	strbuf_release(&full);
}

static void append_line(struct fixture *f, const char *path, const char *line)
{
	struct strbuf full = STRBUF_INIT;
	FILE *fp;

	strbuf_addf(&full, "%s/%s", f->dir, path);
	fp = fopen(full.buf, "a");
	assert_non_null(fp);
	fprintf(fp, "%s\n", line);
	fclose(fp);
	strbuf_release(&full);
}

static void make_dir(struct fixture *f, const char *path)
{
	struct strbuf full = STRBUF_INIT;

	strbuf_addf(&full, "%s/%s", f->dir, path);
	assert_int_equal(mkdir(full.buf, 0777), 0);
	strbuf_release(&full);
}

static void snapshot_take(struct fixture *f, struct snapshot *s)
{
	struct strbuf path = STRBUF_INIT;

	strbuf_init(&s->status, 0);
	strbuf_init(&s->index, 0);
	strbuf_init(&s->head, 0);
	strbuf_init(&s->refs, 0);
	/* No optional locks: status must not refresh the index itself. */
	capture(f, &s->status,
		"git --no-optional-locks status --porcelain --untracked-files=all");
	capture(f, &s->head, "cat .git/HEAD && git rev-parse HEAD");
	capture(f, &s->refs, "git for-each-ref");
	strbuf_addf(&path, "%s/.git/index", f->dir);
	assert_int_equal(strbuf_read_file(&s->index, path.buf), 0);
	strbuf_release(&path);
}

static void snapshot_release(struct snapshot *s)
{
	strbuf_release(&s->status);
	strbuf_release(&s->index);
	strbuf_release(&s->head);
	strbuf_release(&s->refs);
}

static void snapshot_compare(const struct snapshot *a, const struct snapshot *b)
{
	assert_string_equal(a->status.buf, b->status.buf);
	assert_string_equal(a->head.buf, b->head.buf);
	assert_string_equal(a->refs.buf, b->refs.buf);
	assert_int_equal(a->index.len, b->index.len);
	assert_memory_equal(a->index.buf, b->index.buf, a->index.len);
}

static int setup(void **state)
{
	struct fixture *f = calloc(1, sizeof(*f));

	strcpy(f->dir, "/tmp/test_apply.XXXXXX");
	testrepo_create(f->dir);
	f->tick = 1700000000;

	git(f, "init -q -b master");
	make_dir(f, "fs");
	make_dir(f, "Documentation");
	write_file(f, "fs/a.c", "a", 0, NULL);
	write_file(f, "fs/b.c", "b", 0, NULL);
	write_file(f, "fs/c.c", "c", 0, NULL);
	write_file(f, "fs/d.c", "d", 0, NULL);
	write_file(f, "fs/e.c", "e", 0, NULL);
	write_file(f, "fs/f.c", "f", 0, NULL);
	write_file(f, "Documentation/x.txt", "x", 0, NULL);
	git(f, "add -A && git commit -q -m 'Linux 6.6'");
	git(f, "branch stable");

	/* Mainline: one file (or set of files) per scenario. */
	write_file(f, "fs/a.c", "a", 8, "a8 fixed");
	git(f, "commit -q -am 'fs: clean fix' && git tag p-clean");
	write_file(f, "fs/b.c", "b", 5, "b5 mainline");
	write_file(f, "Documentation/x.txt", "x", 5, "x5 mainline");
	write_file(f, "fs/e.c", "e", 2, "e2 mainline");
	git(f, "commit -q -am 'fs: conflicting fix' && git tag p-conflict");
	make_dir(f, "fs/newfs");
	write_file(f, "fs/newfs/super.c", "s", 0, NULL);
	git(f, "add fs/newfs && git commit -q -m 'newfs: add' && git tag p-newdir");
	write_file(f, "fs/d.c", "d", 3, "d3 fixed");
	git(f, "commit -q -am 'fs: fix d' && git tag p-moddel");
	append_line(f, "fs/c.c", "c11 helper");
	git(f, "commit -q -am 'fs: add helper' && git tag q1");
	write_file(f, "fs/c.c", "c", 0, NULL);
	append_line(f, "fs/c.c", "c11 helper fixed");
	git(f, "commit -q -am 'fs: fix helper' && git tag q2");
	git(f, "checkout -q -b side q2~1");
	write_file(f, "fs/e.c", "e", 9, "e9 side");
	git(f, "commit -q -am 'fs: side' && git checkout -q master");
	git(f, "merge -q --no-ff -m 'Merge side' side && git tag merge");
	/* fs/f.c moves to fs/g/ (a line changed on the way), then a fix. */
	make_dir(f, "fs/g");
	git(f, "mv fs/f.c fs/g/f.c");
	write_file(f, "fs/g/f.c", "f", 10, "f10 moved");
	git(f, "commit -q -am 'g: take f from fs' && git tag r-move");
	write_file(f, "fs/g/f.c", "f", 4, "f4 fixed");
	git(f, "commit -q -am 'g: fix f' && git tag p-moved");
	git(f, "rm -q fs/g/f.c && git commit -q -m 'g: drop f' && git tag p-movedel");

	/* The stable branch: the same files, changed elsewhere or not. */
	git(f, "checkout -q stable");
	write_file(f, "fs/a.c", "a", 2, "a2 stable");
	write_file(f, "fs/b.c", "b", 5, "b5 stable");
	write_file(f, "Documentation/x.txt", "x", 5, "x5 stable");
	git(f, "rm -q fs/d.c && git commit -q -am 'stable: local changes'");

	/* A dirty work tree, a staged change and an untracked file. */
	write_file(f, "fs/e.c", "e", 7, "e7 staged");
	git(f, "add fs/e.c");
	write_file(f, "fs/a.c", "a", 3, "a3 dirty");
	append_line(f, "untracked.txt", "untracked");

	assert_int_equal(git_libgit2_init() > 0, 1);
	assert_int_equal(git_repository_open(&f->repo, f->dir), 0);
	snapshot_take(f, &f->before);
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *f = *state;

	snapshot_release(&f->before);
	git_repository_free(f->repo);
	testrepo_remove(f->dir);
	free(f);
	git_libgit2_shutdown();
	return 0;
}

static git_commit *lookup(struct fixture *f, const char *spec)
{
	git_object *obj, *peeled;

	assert_int_equal(git_revparse_single(&obj, f->repo, spec), 0);
	assert_int_equal(git_object_peel(&peeled, obj, GIT_OBJECT_COMMIT), 0);
	git_object_free(obj);
	return (git_commit *)peeled;
}

/* apply_check of spec onto the stable branch. */
static int check(struct fixture *f, struct apply_result *res, const char *spec)
{
	git_commit *onto = lookup(f, "stable");
	git_commit *pick = lookup(f, spec);
	int ret;

	ret = apply_check(res, f->repo, onto, pick);
	git_commit_free(pick);
	git_commit_free(onto);
	return ret;
}

static void test_clean(void **state)
{
	struct apply_result res;

	apply_result_init(&res);
	assert_int_equal(check(*state, &res, "p-clean"), 0);
	assert_int_equal(res.applies, 1);
	assert_int_equal(res.nr_conflicts, 0);
	assert_null(res.conflicts);
	apply_result_release(&res);
}

static void test_conflict(void **state)
{
	struct apply_result res;

	apply_result_init(&res);
	assert_int_equal(check(*state, &res, "p-conflict"), 0);
	assert_int_equal(res.applies, 0);
	/* Sorted; each path once although it has three stages; e.c merged. */
	assert_int_equal(res.nr_conflicts, 2);
	assert_string_equal(res.conflicts[0], "Documentation/x.txt");
	assert_string_equal(res.conflicts[1], "fs/b.c");

	/* A second check into the same result starts afresh. */
	assert_int_equal(check(*state, &res, "p-clean"), 0);
	assert_int_equal(res.applies, 1);
	assert_int_equal(res.nr_conflicts, 0);
	apply_result_release(&res);
}

static void test_new_directory(void **state)
{
	struct apply_result res;

	apply_result_init(&res);
	assert_int_equal(check(*state, &res, "p-newdir"), 0);
	assert_int_equal(res.applies, 1);
	assert_int_equal(res.nr_conflicts, 0);
	apply_result_release(&res);
}

static void test_modify_deleted(void **state)
{
	struct apply_result res;

	apply_result_init(&res);
	assert_int_equal(check(*state, &res, "p-moddel"), 0);
	assert_int_equal(res.applies, 0);
	assert_int_equal(res.nr_conflicts, 1);
	assert_string_equal(res.conflicts[0], "fs/d.c");
	apply_result_release(&res);
}

static void test_merge_refused(void **state)
{
	struct apply_result res;

	apply_result_init(&res);
	assert_int_equal(check(*state, &res, "merge"), -1);
	assert_int_equal(res.nr_conflicts, 0);
	apply_result_release(&res);
}

/* apply_series_check of the specs onto the stable branch. */
static int series(struct fixture *f, struct apply_result *res,
		  const char **specs, size_t nr)
{
	git_commit *onto = lookup(f, "stable");
	git_commit *picks[8];
	size_t i;
	int ret;

	assert_true(nr <= ARRAY_SIZE(picks));
	for (i = 0; i < nr; i++)
		picks[i] = lookup(f, specs[i]);
	ret = apply_series_check(res, f->repo, onto,
				 (const git_commit *const *)picks, nr);
	for (i = 0; i < nr; i++)
		git_commit_free(picks[i]);
	git_commit_free(onto);
	return ret;
}

static void results_init(struct apply_result *res, size_t nr)
{
	size_t i;

	for (i = 0; i < nr; i++)
		apply_result_init(&res[i]);
}

static void results_release(struct apply_result *res, size_t nr)
{
	size_t i;

	for (i = 0; i < nr; i++)
		apply_result_release(&res[i]);
}

static void test_series_in_order(void **state)
{
	const char *specs[] = { "q1", "q2" };
	struct apply_result res[2], alone;

	/* Alone, the fix conflicts: its context is the helper it fixes. */
	apply_result_init(&alone);
	assert_int_equal(check(*state, &alone, "q2"), 0);
	assert_int_equal(alone.applies, 0);
	assert_int_equal(alone.nr_conflicts, 1);
	assert_string_equal(alone.conflicts[0], "fs/c.c");
	apply_result_release(&alone);

	results_init(res, 2);
	assert_int_equal(series(*state, res, specs, 2), 0);
	assert_int_equal(res[0].applies, 1);
	assert_int_equal(res[1].applies, 1);
	assert_int_equal(res[1].nr_conflicts, 0);
	results_release(res, 2);
}

static void test_series_out_of_order(void **state)
{
	const char *specs[] = { "q2", "q1" };
	struct apply_result res[2];

	results_init(res, 2);
	assert_int_equal(series(*state, res, specs, 2), 0);
	assert_int_equal(res[0].applies, 0);
	assert_int_equal(res[0].nr_conflicts, 1);
	assert_string_equal(res[0].conflicts[0], "fs/c.c");
	assert_int_equal(res[1].applies, 1);
	results_release(res, 2);
}

static void test_series_skips_conflict(void **state)
{
	const char *specs[] = { "p-clean", "p-conflict", "p-newdir", "q1", "q2" };
	struct apply_result res[5];

	results_init(res, 5);
	assert_int_equal(series(*state, res, specs, 5), 0);
	assert_int_equal(res[0].applies, 1);
	assert_int_equal(res[1].applies, 0);
	assert_int_equal(res[1].nr_conflicts, 2);
	assert_int_equal(res[2].applies, 1);
	assert_int_equal(res[3].applies, 1);
	assert_int_equal(res[4].applies, 1);
	results_release(res, 5);
}

static void test_series_merge_refused(void **state)
{
	const char *specs[] = { "q1", "merge" };
	struct apply_result res[2];

	results_init(res, 2);
	assert_int_equal(series(*state, res, specs, 2), -1);
	assert_int_equal(res[0].nr_conflicts, 0);
	results_release(res, 2);
}

static void test_renames_commit(void **state)
{
	struct fixture *f = *state;
	struct renames r = RENAMES_INIT;
	git_commit *c = lookup(f, "r-move");

	/* 90% similar: a rename, as git finds it. */
	assert_int_equal(renames_commit(&r, f->repo, c), 0);
	assert_int_equal(r.nr, 1);
	assert_string_equal(r.items[0].from, "fs/f.c");
	assert_string_equal(r.items[0].to, "fs/g/f.c");
	assert_non_null(renames_to(&r, "fs/g/f.c"));
	assert_null(renames_to(&r, "fs/f.c"));
	renames_release(&r);
	git_commit_free(c);

	/* A fix changes a file: no rename. */
	c = lookup(f, "p-moved");
	assert_int_equal(renames_commit(&r, f->repo, c), 0);
	assert_int_equal(r.nr, 0);
	renames_release(&r);
	git_commit_free(c);
}

static void test_series_follows_rename(void **state)
{
	const char *specs[] = { "p-moved", "p-movedel" };
	struct apply_result res[2], alone;

	/* libgit2's merge follows the rename: so must the series. */
	apply_result_init(&alone);
	assert_int_equal(check(*state, &alone, "p-moved"), 0);
	assert_int_equal(alone.applies, 1);
	apply_result_release(&alone);

	results_init(res, 2);
	assert_int_equal(series(*state, res, specs, 2), 0);
	assert_int_equal(res[0].applies, 1);
	assert_int_equal(res[0].nr_changes, 1);
	assert_true(apply_result_changes(&res[0], "fs/f.c"));
	assert_false(apply_result_changes(&res[0], "fs/g/f.c"));
	/* Removing the file the branch has renamed: git's rename/delete. */
	assert_int_equal(res[1].applies, 0);
	assert_int_equal(res[1].nr_conflicts, 2);
	assert_string_equal(res[1].conflicts[0], "fs/f.c");
	assert_string_equal(res[1].conflicts[1], "fs/g/f.c");
	results_release(res, 2);
}

/*
 * apply_series_check_cached of the specs onto the commit onto names,
 * with cache; each result's applies into applies[].
 */
static void series_cached(struct fixture *f, struct trialcache *cache,
			  const char *onto_spec, const char **specs, size_t nr,
			  int *applies)
{
	git_commit *onto = lookup(f, onto_spec);
	git_commit *picks[8];
	struct apply_result res[8];
	size_t i;

	assert_true(nr <= ARRAY_SIZE(picks));
	for (i = 0; i < nr; i++) {
		picks[i] = lookup(f, specs[i]);
		apply_result_init(&res[i]);
	}
	assert_int_equal(apply_series_check_cached(res, f->repo, onto,
				(const git_commit *const *)picks, nr, cache), 0);
	for (i = 0; i < nr; i++) {
		applies[i] = res[i].applies;
		apply_result_release(&res[i]);
		git_commit_free(picks[i]);
	}
	git_commit_free(onto);
}

/*
 * A series that starts as the one keyed before (onto the same commit)
 * takes those keys, as a search trying sets after the same proposals
 * does: they must be the keys a run without that series finds, or a
 * second run would miss every pick after them (or take wrong ones).
 * The same series again takes its keys and its trees as found.
 * p-moved follows the branch's rename, so the key of q2 after it has
 * the digest of such picks; q2 also depends on q1 (fs/c.c); and
 * p-movedel follows it too, so its key has the digest of all the keys
 * before it.
 */
static void test_series_keys_kept(void **state)
{
	struct fixture *f = *state;
	const char *a[] = { "p-clean", "p-moved", "q1", "p-newdir" };
	const char *b[] = { "p-clean", "p-moved", "q1", "q2", "p-movedel" };
	struct trialcache first, again;
	char *path = xstrfmt("%s/.git/trial-cache", f->dir);
	int applies[5], want[5];
	size_t i;

	trialcache_init(&first, path);
	series_cached(f, &first, "stable", a, 4, applies);
	assert_int_equal(first.keys_reused, 0);
	series_cached(f, &first, "stable", b, 5, applies);
	assert_int_equal(first.keys_reused, 3);
	assert_int_equal(first.computed, 6);
	/* Onto another commit, nothing is taken from the series before. */
	series_cached(f, &first, "stable~1", b, 5, want);
	assert_int_equal(first.keys_reused, 3);
	assert_int_equal(trialcache_save(&first), 0);
	trialcache_release(&first);

	/* A run that keys b afresh finds every pick of it in the cache. */
	trialcache_init(&again, path);
	trialcache_load(&again);
	series_cached(f, &again, "stable", b, 5, want);
	assert_int_equal(again.keys_reused, 0);
	assert_int_equal(again.computed, 0);
	assert_int_equal(again.hits, 5);
	for (i = 0; i < 5; i++)
		assert_int_equal(applies[i], want[i]);
	assert_int_equal(applies[1], 1);
	assert_int_equal(applies[3], 1);
	assert_int_equal(applies[4], 0);
	/* The trees of a pick taken from the cache are looked for once. */
	assert_int_equal(again.trees_checked, 5);
	series_cached(f, &again, "stable", b, 5, want);
	assert_int_equal(again.hits, 10);
	assert_int_equal(again.trees_checked, 5);
	trialcache_release(&again);
	free(path);
}

/*
 * A pick's paths come with whether its parent has a file at each (the
 * key asks it of a path the branch lacks), computed with the paths and
 * kept with them in the file: a moved file's old path yes and new path
 * no, a new directory's file no, a modified or deleted file yes.
 */
static void test_pick_paths_in_parent(void **state)
{
	static const struct {
		const char *spec, *path;
		unsigned char in_parent;
	} want[] = {
		{ "r-move", "fs/f.c", 1 },
		{ "r-move", "fs/g/f.c", 0 },
		{ "p-newdir", "fs/newfs/super.c", 0 },
		{ "p-moved", "fs/g/f.c", 1 },
		{ "p-movedel", "fs/g/f.c", 1 },
	};
	struct fixture *f = *state;
	char *path = xstrfmt("%s/.git/trial-cache-paths", f->dir);
	struct trialcache first, again;
	size_t i, j, nr;

	trialcache_init(&first, path);
	for (i = 0; i < ARRAY_SIZE(want); i++) {
		git_commit *c = lookup(f, want[i].spec);
		const unsigned char *in_parent = NULL;
		char *const *paths = apply_pick_paths(&first, f->repo, c, &nr,
						      &in_parent);

		assert_non_null(paths);
		for (j = 0; j < nr && strcmp(paths[j], want[i].path); j++)
			;
		assert_true(j < nr);
		assert_int_equal(in_parent[j], want[i].in_parent);
		git_commit_free(c);
	}
	assert_int_equal(trialcache_save(&first), 0);
	trialcache_release(&first);

	/* Read back from the file, not found again. */
	trialcache_init(&again, path);
	trialcache_load(&again);
	for (i = 0; i < ARRAY_SIZE(want); i++) {
		git_commit *c = lookup(f, want[i].spec);
		const unsigned char *in_parent = NULL;
		char *const *paths = trialcache_find_paths(&again,
						git_commit_id(c), &nr, &in_parent);

		assert_non_null(paths);
		for (j = 0; j < nr && strcmp(paths[j], want[i].path); j++)
			;
		assert_true(j < nr);
		assert_int_equal(in_parent[j], want[i].in_parent);
		git_commit_free(c);
	}
	trialcache_release(&again);
	free(path);
}

/* The tree of the commit spec names. */
static git_tree *tree_of(struct fixture *f, const char *spec)
{
	git_commit *c = lookup(f, spec);
	git_tree *t;

	assert_int_equal(git_commit_tree(&t, c), 0);
	git_commit_free(c);
	return t;
}

static void test_renames_onto_kept(void **state)
{
	struct fixture *f = *state;
	git_tree *before = tree_of(f, "r-move~1"), *after = tree_of(f, "r-move");
	char *moved[] = { "fs/f.c" }, *kept[] = { "fs/a.c" };
	struct renames r = RENAMES_INIT;
	int i;

	/* Asked twice, the second answer is the kept one: the same. */
	for (i = 0; i < 2; i++) {
		assert_int_equal(renames_onto(&r, f->repo, before, after,
					      moved, 1), 0);
		assert_int_equal(r.nr, 1);
		assert_string_equal(r.items[0].from, "fs/f.c");
		assert_string_equal(r.items[0].to, "fs/g/f.c");
		renames_release(&r);
	}
	/* Other sources, or the trees the other way round: not that one. */
	assert_int_equal(renames_onto(&r, f->repo, before, after, kept, 1), 0);
	assert_int_equal(r.nr, 0);
	assert_int_equal(renames_onto(&r, f->repo, after, before, moved, 1), 0);
	assert_int_equal(r.nr, 0);
	renames_release(&r);
	renames_forget();
	git_tree_free(after);
	git_tree_free(before);
}

/* treediff_added() of a to b against the additions treediff_trees() has. */
static void assert_added(struct fixture *f, git_tree *a, git_tree *b)
{
	struct treediff d = TREEDIFF_INIT;
	char **paths = NULL;
	size_t i, n = 0, nr = 0, alloc = 0;

	assert_int_equal(treediff_trees(&d, f->repo, a, b), 0);
	assert_int_equal(treediff_added(&paths, &nr, &alloc, f->repo, a, b), 0);
	for (i = 0; i < d.nr; i++) {
		if (d.items[i].old_mode ||
		    d.items[i].new_mode == GIT_FILEMODE_COMMIT)
			continue;
		assert_true(n < nr);
		assert_string_equal(paths[n], d.items[i].path);
		n++;
	}
	assert_int_equal(n, nr);
	for (i = 0; i < nr; i++)
		free(paths[i]);
	free(paths);
	treediff_release(&d);
}

static void test_treediff_added(void **state)
{
	struct fixture *f = *state;
	const char *specs[] = { "stable", "p-newdir", "r-move", "p-movedel",
				"master" };
	git_tree *t[ARRAY_SIZE(specs)];
	size_t i, j, round;

	for (i = 0; i < ARRAY_SIZE(specs); i++)
		t[i] = tree_of(f, specs[i]);
	/* Every pair both ways, twice: found, then kept. */
	for (round = 0; round < 2; round++) {
		for (i = 0; i < ARRAY_SIZE(specs); i++) {
			assert_added(f, NULL, t[i]);
			for (j = 0; j < ARRAY_SIZE(specs); j++)
				assert_added(f, t[i], t[j]);
		}
	}
	treediff_forget();
	for (i = 0; i < ARRAY_SIZE(specs); i++)
		git_tree_free(t[i]);
}

static void test_file_merges_kept(void **state)
{
	const char *specs[] = { "p-clean", "p-conflict" };
	size_t made, again, made2, again2, i;
	struct apply_result first, second;

	/* What the tests before merged is forgotten. */
	apply_forget();
	for (i = 0; i < ARRAY_SIZE(specs); i++) {
		apply_result_init(&first);
		apply_result_init(&second);
		apply_merge_counts(&made, &again);
		assert_int_equal(series(*state, &first, &specs[i], 1), 0);
		apply_merge_counts(&made2, &again2);
		/* Its file, changed on both sides, merged. */
		assert_true(made2 > made);
		assert_int_equal(series(*state, &second, &specs[i], 1), 0);
		apply_merge_counts(&made, &again);
		/* The same three blobs again: the merge kept, nothing made. */
		assert_int_equal(made, made2);
		assert_true(again > again2);
		assert_int_equal(second.applies, first.applies);
		assert_int_equal(second.nr_conflicts, first.nr_conflicts);
		assert_true(git_oid_equal(&second.after, &first.after));
		apply_result_release(&first);
		apply_result_release(&second);
	}
	apply_forget();
}

static void test_repository_untouched(void **state)
{
	struct fixture *f = *state;
	const char *specs[] = { "q2", "p-conflict", "p-moddel", "q1", "q2" };
	struct apply_result res[5];
	struct snapshot after;

	results_init(res, 5);
	assert_int_equal(series(f, res, specs, 5), 0);
	results_release(res, 5);
	assert_int_equal(check(f, res, "p-newdir"), 0);
	apply_result_release(res);

	/* After this test and every one before it. */
	snapshot_take(f, &after);
	snapshot_compare(&f->before, &after);
	snapshot_release(&after);
	assert_true(f->before.status.len > 0);
	assert_true(git_repository_state(f->repo) == GIT_REPOSITORY_STATE_NONE);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_clean),
		cmocka_unit_test(test_conflict),
		cmocka_unit_test(test_new_directory),
		cmocka_unit_test(test_modify_deleted),
		cmocka_unit_test(test_merge_refused),
		cmocka_unit_test(test_series_in_order),
		cmocka_unit_test(test_series_out_of_order),
		cmocka_unit_test(test_series_skips_conflict),
		cmocka_unit_test(test_series_merge_refused),
		cmocka_unit_test(test_renames_commit),
		cmocka_unit_test(test_series_follows_rename),
		cmocka_unit_test(test_series_keys_kept),
		cmocka_unit_test(test_pick_paths_in_parent),
		cmocka_unit_test(test_renames_onto_kept),
		cmocka_unit_test(test_file_merges_kept),
		cmocka_unit_test(test_treediff_added),
		cmocka_unit_test(test_repository_untouched),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
