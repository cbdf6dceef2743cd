/*
 * Unit tests for packmaps.c: a repository whose packs fit in half the
 * limit on mapped windows gets windows that map each pack whole; one
 * with more, with none, or borrowing objects from another repository
 * (objects/info/alternates) keeps the small windows.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "git/packmaps.h"
#include "testrepo.h"

static size_t window_of(const char *dir)
{
	git_repository *repo;
	size_t window = 0;

	assert_int_equal(git_repository_open(&repo, dir), 0);
	/* Set to neither answer first: each case must set it. */
	git_libgit2_opts(GIT_OPT_SET_MWINDOW_SIZE, (size_t)12345);
	packmaps_fit(repo);
	git_libgit2_opts(GIT_OPT_GET_MWINDOW_SIZE, &window);
	git_repository_free(repo);
	return window;
}

/* A pack file of len bytes (sparse: only its size is read). */
static void pack_of(const char *dir, const char *name, off_t len)
{
	char path[256];
	FILE *fp;

	snprintf(path, sizeof(path), "%s/.git/objects/pack/%s", dir, name);
	fp = fopen(path, "w");
	assert_non_null(fp);
	assert_int_equal(fclose(fp), 0);
	assert_int_equal(truncate(path, len), 0);
}

static void test_windows(void **state)
{
	char dir[] = "/tmp/test_packmaps.XXXXXX", path[256];
	long tick = 1700000000;
	FILE *fp;

	(void)state;
	testrepo_create(dir);
	testrepo_git(dir, &tick, 60, "init -q -b master");
	/* No pack: nothing to map whole. */
	assert_int_equal(window_of(dir), PACKMAPS_WINDOW);

	/* Real packs, small: each mapped whole. */
	testrepo_sh(dir, &tick, 60, "echo a >a && git add a && "
		    "git commit -q -m a && git repack -q -a -d");
	assert_int_equal(window_of(dir), PACKMAPS_WHOLE);

	/* Two packs that fit in half the limit together, then do not. */
	pack_of(dir, "pack-one.pack", (off_t)(PACKMAPS_LIMIT / 4));
	pack_of(dir, "pack-two.pack", (off_t)(PACKMAPS_LIMIT / 8));
	assert_int_equal(window_of(dir), PACKMAPS_WHOLE);
	pack_of(dir, "pack-two.pack", (off_t)(PACKMAPS_LIMIT / 4) + 1);
	assert_int_equal(window_of(dir), PACKMAPS_WINDOW);
	/* Files that are not packs do not count. */
	pack_of(dir, "pack-two.pack", 0);
	pack_of(dir, "pack-two.idx", (off_t)PACKMAPS_LIMIT);
	assert_int_equal(window_of(dir), PACKMAPS_WHOLE);

	/* Objects borrowed from elsewhere: their packs are not told. */
	snprintf(path, sizeof(path), "%s/.git/objects/info/alternates", dir);
	fp = fopen(path, "w");
	assert_non_null(fp);
	fprintf(fp, "/nonexistent/objects\n");
	assert_int_equal(fclose(fp), 0);
	assert_int_equal(window_of(dir), PACKMAPS_WINDOW);

	testrepo_remove(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_windows),
	};
	int ret;

	git_libgit2_init();
	ret = cmocka_run_group_tests(tests, NULL, NULL);
	git_libgit2_shutdown();
	return ret;
}
