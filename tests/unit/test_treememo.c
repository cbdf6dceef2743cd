/*
 * Unit tests for treememo.c: the entry at a path must be libgit2's
 * git_tree_entry_bypath() answer for every kind of path, and the memo
 * must keep the most recently used trees within its bound, dropping
 * the least recently used first, without freeing a tree a caller
 * holds.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "git/treememo.h"
#include "testrepo.h"

static void check_path(const git_tree *tree, const char *path)
{
	git_tree_entry *want = NULL, *got = treememo_entry_at(tree, path);

	if (git_tree_entry_bypath(&want, tree, path) < 0) {
		git_error_clear();
		want = NULL;
	}
	if (!want || !got) {
		if (want || got)
			fail_msg("'%s': libgit2 says %s, the memo %s", path,
				 want ? "an entry" : "none",
				 got ? "an entry" : "none");
	} else {
		assert_true(git_oid_equal(git_tree_entry_id(want),
					  git_tree_entry_id(got)));
		assert_int_equal(git_tree_entry_filemode(want),
				 git_tree_entry_filemode(got));
		assert_string_equal(git_tree_entry_name(want),
				    git_tree_entry_name(got));
	}
	git_tree_entry_free(want);
	git_tree_entry_free(got);
}

static void test_entry_at(void **state)
{
	static const char *const paths[] = {
		"a", "d", "d/e", "d/f", "d/f/g", "d/f/g/h", "a/b", "missing",
		"d/missing", "d/missing/x", "d/", "d/f/", "d/e/", "a/", "",
		"d//e", "/d", "l", "l/x", "s", "s/x",
	};
	char dir[] = "/tmp/test_treememo.XXXXXX";
	long tick = 1700000000;
	git_repository *repo;
	git_tree *tree;
	git_oid id;
	size_t i;

	(void)state;
	testrepo_create(dir);
	testrepo_git(dir, &tick, 60, "init -q -b master");
	testrepo_sh(dir, &tick, 60,
		    "mkdir -p d/f && echo a >a && echo e >d/e && "
		    "echo g >d/f/g && ln -s d l && "
		    "git -c protocol.file.allow=always update-index --add "
		    "--cacheinfo 160000,1234567890123456789012345678901234567890,s && "
		    "git add a d l && git commit -q -m one");
	assert_int_equal(git_repository_open(&repo, dir), 0);
	id = testrepo_rev(repo, "HEAD^{tree}");
	assert_int_equal(git_tree_lookup(&tree, repo, &id), 0);
	/* Twice: the second time the trees come from the memo. */
	for (i = 0; i < 2 * sizeof(paths) / sizeof(*paths); i++)
		check_path(tree, paths[i % (sizeof(paths) / sizeof(*paths))]);
	assert_null(treememo_entry_at(NULL, "a"));
	git_tree_free(tree);
	treememo_forget();
	git_repository_free(repo);
	testrepo_remove(dir);
}

/* A tree of nr entries (all the same empty file), written to repo. */
static git_oid wide_tree(git_repository *repo, size_t nr, const char *prefix)
{
	git_treebuilder *tb;
	git_oid blob, id;
	char name[64];
	size_t i;

	assert_int_equal(git_blob_create_from_buffer(&blob, repo, "", 0), 0);
	assert_int_equal(git_treebuilder_new(&tb, repo, NULL), 0);
	for (i = 0; i < nr; i++) {
		snprintf(name, sizeof(name), "%s%06zu", prefix, i);
		assert_int_equal(git_treebuilder_insert(NULL, tb, name, &blob,
							GIT_FILEMODE_BLOB), 0);
	}
	assert_int_equal(git_treebuilder_write(&id, tb), 0);
	git_treebuilder_free(tb);
	return id;
}

/* Looks id up; 1 when the memo read it, 0 when it had it. */
static int looked_up(git_repository *repo, const git_oid *id, git_tree **keep)
{
	size_t hits, reads, hits2, reads2;
	git_tree *t;

	treememo_counts(&hits, &reads);
	t = treememo_lookup(repo, id);
	assert_non_null(t);
	assert_true(git_oid_equal(git_tree_id(t), id));
	treememo_counts(&hits2, &reads2);
	assert_int_equal(hits2 - hits + reads2 - reads, 1);
	if (keep)
		*keep = t;
	else
		git_tree_free(t);
	return reads2 > reads;
}

static void test_bound(void **state)
{
	/* Each wide tree takes more than half the bound. */
	size_t wide = TREEMEMO_ENTRIES / 2 + 10;
	char dir[] = "/tmp/test_treememo.XXXXXX";
	long tick = 1700000000;
	git_repository *repo, *other;
	git_oid small, b1, b2;
	git_tree *held;

	(void)state;
	testrepo_create(dir);
	testrepo_git(dir, &tick, 60, "init -q -b master");
	assert_int_equal(git_repository_open(&repo, dir), 0);
	small = wide_tree(repo, 3, "s");
	b1 = wide_tree(repo, wide, "b");
	b2 = wide_tree(repo, wide, "c");

	assert_int_equal(looked_up(repo, &small, NULL), 1);
	assert_int_equal(looked_up(repo, &small, NULL), 0);
	assert_int_equal(looked_up(repo, &b1, &held), 1);
	/* Used again: now b1 is the least recently used. */
	assert_int_equal(looked_up(repo, &small, NULL), 0);
	assert_int_equal(looked_up(repo, &b2, NULL), 1);
	/* b1 went, not small (first in, but used since). */
	assert_int_equal(looked_up(repo, &small, NULL), 0);
	/* The reference held outlives its place in the memo. */
	assert_int_equal(git_tree_entrycount(held), wide);
	assert_string_equal(git_tree_entry_name(git_tree_entry_byindex(held, 0)),
			    "b000000");
	git_tree_free(held);
	assert_int_equal(looked_up(repo, &b1, NULL), 1);
	assert_int_equal(looked_up(repo, &b2, NULL), 1);

	/* Another repository: nothing of the first is answered for it. */
	assert_int_equal(git_repository_open(&other, dir), 0);
	assert_int_equal(looked_up(other, &small, NULL), 1);
	assert_int_equal(looked_up(other, &small, NULL), 0);
	treememo_forget();
	assert_int_equal(looked_up(other, &small, NULL), 1);
	treememo_forget();
	git_repository_free(other);
	git_repository_free(repo);
	testrepo_remove(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_entry_at),
		cmocka_unit_test(test_bound),
	};

	git_libgit2_init();
	return cmocka_run_group_tests(tests, NULL, NULL);
}
