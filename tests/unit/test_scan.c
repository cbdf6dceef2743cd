/*
 * Unit tests for the scanner (src/scan.h): a throwaway mainline with a
 * commit per case, walked from a base tag, and what the walk keeps:
 * commits outside fs/, a directory removed or renamed since (a
 * template's subsystem is the directory as it was then), a file moved
 * out of fs/, a commit touching two subsystems (the opt-in one is
 * primary), a merge and its side commit, a path of a subsystem of
 * policy ignore, --subsystem, and the Fixes: targets it resolves; the
 * trees it read are not left in libgit2's object cache.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "capture.h"
#include "formats/rules.h"
#include "stages/scan.h"
#include "base/strbuf.h"
#include "testrepo.h"
#include "base/util.h"

static const char rules_text[] =
	"version 1\n"
	"subsystem *\n"
	"\tpaths fs/*/\n"
	"\tpolicy heuristic\n"
	"end\n"
	"subsystem xfs\n"
	"\tpaths fs/xfs/\n"
	"\tpolicy opt-in\n"
	"end\n"
	"subsystem junk\n"
	"\tpaths fs/junk/\n"
	"\tpolicy ignore\n"
	"end\n"
	"link fixes trailer:Fixes /^([0-9a-f]{12,40})\\b/i\n";

struct fixture {
	char dir[64];
	long tick;
	git_repository *repo;
	struct ruleset rules;
	struct scan scan;
	long moved_time;
};

/* Runs a shell command in the repository; returns its date. */
static long sh(struct fixture *f, const char *cmd)
{
	return testrepo_sh(f->dir, &f->tick, 60, cmd);
}

/* Writes one line to path, then commits with subject. */
static void change(struct fixture *f, const char *path, const char *line,
		   const char *subject)
{
	testrepo_change(f->dir, &f->tick, 60, path, line, subject);
}

/* The object a revision names. */
static git_oid rev(struct fixture *f, const char *name)
{
	return testrepo_rev(f->repo, name);
}

/*
 * From the tag base, one commit per case (tagged so), in this order:
 *
 *   fixed     fs/ext4/, before base: a Fixes: target
 *   outside   mm/x.c                                    not kept
 *   reiser    fs/reiserfs/r.c                           reiserfs
 *   removed   fs/reiserfs/ removed                      reiserfs
 *   renamed   fs/old/ renamed fs/new/                   new, old
 *   both      fs/ext4/ and fs/xfs/                      xfs first, ext4
 *   side      fs/ext4/, on a branch merged --no-ff      ext4 (the merge: not)
 *   ignored   fs/junk/ (policy ignore)                  not kept, left out
 *   makefile  fs/Makefile (no spec covers it)           not kept
 *   moved     fs/new/o.c moved to lib/o.c               new
 *   fixes     fs/ext4/, with three Fixes: lines         ext4
 */
static int setup(void **state)
{
	struct fixture *f = calloc(1, sizeof(*f));

	assert_non_null(f);
	strcpy(f->dir, "/tmp/test_scan.XXXXXX");
	testrepo_create(f->dir);
	f->tick = 1700000000;
	sh(f, "git init -q -b master && mkdir -p fs/ext4 fs/xfs fs/reiserfs "
	       "fs/old fs/junk mm && for p in fs/ext4/a.c fs/xfs/b.c "
	       "fs/reiserfs/r.c fs/old/o.c fs/junk/j.c fs/Makefile mm/x.c; do "
	       "echo one >$p; done && git add . && git commit -q -m 'initial'");
	change(f, "fs/ext4/a.c", "fixed", "ext4: add a bug");
	sh(f, "git tag fixed && git tag base");

	change(f, "mm/x.c", "two", "mm: outside the watch");
	sh(f, "git tag outside");
	change(f, "fs/reiserfs/r.c", "two", "reiserfs: fix r");
	sh(f, "git tag reiser");
	sh(f, "git rm -q -r fs/reiserfs && git commit -q -m 'reiserfs: remove' "
	       "&& git tag removed");
	sh(f, "git mv fs/old fs/new && git commit -q -m 'old: rename to new' "
	       "&& git tag renamed");
	sh(f, "echo two >fs/ext4/a.c && echo two >fs/xfs/b.c && "
	       "git commit -q -a -m 'ext4, xfs: fix both' && git tag both");
	sh(f, "git checkout -q -b topic");
	change(f, "fs/ext4/side.c", "side", "ext4: side fix");
	sh(f, "git tag side && git checkout -q master && "
	       "git merge -q --no-ff -m 'Merge branch topic' topic && "
	       "git tag merge");
	change(f, "fs/junk/j.c", "two", "junk: ignored");
	sh(f, "git tag ignored");
	change(f, "fs/Makefile", "two", "fs: Makefile");
	sh(f, "git tag makefile");
	f->moved_time = sh(f, "mkdir lib && git mv fs/new/o.c lib/o.c && "
	       "git commit -q -m 'new: move out of fs' && git tag moved");
	sh(f, "echo three >fs/ext4/a.c && git commit -q -a -m 'ext4: fix a' "
	       "-m \"Fixes: $(git rev-parse fixed | cut -c1-12) "
	       "(\\\"ext4: add a bug\\\")\nFixes: 0123456789ab (\\\"not here\\\")\n"
	       "Fixes: $(git rev-parse HEAD:mm/x.c) (\\\"a blob\\\")\" && "
	       "git tag fixes");

	assert_true(git_libgit2_init() > 0);
	assert_int_equal(git_repository_open(&f->repo, f->dir), 0);
	ruleset_init(&f->rules);
	assert_int_equal(ruleset_load_buffer(&f->rules, "t.rules", rules_text,
					     strlen(rules_text)), 0);
	testrepo_load_backports(&f->rules);
	scan_init(&f->scan, f->repo, &f->rules);
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *f = *state;

	scan_release(&f->scan);
	ruleset_release(&f->rules);
	git_repository_free(f->repo);
	testrepo_remove(f->dir);
	free(f);
	git_libgit2_shutdown();
	return 0;
}

static struct candidate *cand(struct fixture *f, const char *name)
{
	git_oid id = rev(f, name);

	return candidate_list_find(&f->scan.candidates, &id);
}

/* The names of c's subsystems, primary first: "xfs,ext4". */
static void assert_touched(struct fixture *f, const char *name,
			   const char *want)
{
	struct candidate *c = cand(f, name);
	struct strbuf sb = STRBUF_INIT;
	size_t i;

	assert_non_null(c);
	for (i = 0; i < c->nr_touched; i++)
		strbuf_addf(&sb, "%s%s", i ? "," : "", c->touched[i]->name);
	assert_string_equal(sb.buf, want);
	strbuf_release(&sb);
}

/* c's watched paths, "path" or "path(new)" for one it added. */
static void assert_paths(struct fixture *f, const char *name,
			 const char *want)
{
	struct candidate *c = cand(f, name);
	struct strbuf sb = STRBUF_INIT;
	size_t i, j;

	assert_non_null(c);
	assert_true(c->paths_known);
	for (i = 0; i < c->nr_paths; i++) {
		int old = 0;

		for (j = 0; j < c->nr_old_paths; j++)
			old |= !strcmp(c->old_paths[j], c->paths[i]);
		strbuf_addf(&sb, "%s%s%s", i ? "," : "", c->paths[i],
			    old ? "" : "(new)");
	}
	assert_string_equal(sb.buf, want);
	strbuf_release(&sb);
}

static void run_base_master(struct fixture *f)
{
	assert_int_equal(scan_set_range(&f->scan, "base..master"), 0);
	assert_int_equal(scan_run(&f->scan), 0);
}

static void test_walk(void **state)
{
	struct fixture *f = *state;
	static const char *const order[] = {
		"reiser", "removed", "renamed", "both", "side", "moved", "fixes",
	};
	size_t i;

	run_base_master(f);
	/* Eleven commits after base, one of them a merge. */
	assert_int_equal(f->scan.walked, 11);
	assert_int_equal(f->scan.merges, 1);
	assert_int_equal(f->scan.left_out, 1);
	/* Oldest first, each knowing its place. */
	assert_int_equal(f->scan.candidates.nr, ARRAY_SIZE(order));
	for (i = 0; i < ARRAY_SIZE(order); i++) {
		git_oid id = rev(f, order[i]);
		const struct candidate *c = f->scan.candidates.items[i];

		assert_true(git_oid_equal(&c->id, &id));
		assert_int_equal(c->order, i);
	}
	assert_null(cand(f, "outside"));
	assert_null(cand(f, "merge"));
	assert_null(cand(f, "ignored"));
	assert_null(cand(f, "makefile"));
	assert_null(cand(f, "base"));
}

/* What libgit2's object cache holds now (its raw sizes), in bytes. */
static ssize_t cached_bytes(void)
{
	ssize_t current = 0, allowed = 0;

	assert_int_equal(git_libgit2_opts(GIT_OPT_GET_CACHED_MEMORY, &current,
					  &allowed), 0);
	return current;
}

/* Whether reading tree id again grew the cache: it was not in it. */
static int tree_was_cached(git_repository *repo, const git_oid *id)
{
	ssize_t before = cached_bytes();
	git_tree *tree = NULL;

	assert_int_equal(git_tree_lookup(&tree, repo, id), 0);
	git_tree_free(tree);
	return cached_bytes() == before;
}

/*
 * The walk reads each tree about once: it leaves none in libgit2's
 * object cache (src/objcache.h), and trees read after it are cached.
 */
static void test_trees_not_cached(void **state)
{
	struct fixture *f = *state;
	git_commit *commit = NULL, *parent = NULL;
	git_oid id = rev(f, "both");

	run_base_master(f);
	assert_int_equal(git_commit_lookup(&commit, f->repo, &id), 0);
	assert_int_equal(git_commit_parent(&parent, commit, 0), 0);
	/* Walked, not kept: read now, then kept. */
	assert_false(tree_was_cached(f->repo, git_commit_tree_id(commit)));
	assert_true(tree_was_cached(f->repo, git_commit_tree_id(commit)));
	assert_false(tree_was_cached(f->repo, git_commit_tree_id(parent)));
	assert_true(tree_was_cached(f->repo, git_commit_tree_id(parent)));
	git_commit_free(parent);
	git_commit_free(commit);
}

static void test_subsystems(void **state)
{
	struct fixture *f = *state;
	struct candidate *c;

	run_base_master(f);
	/* fs/reiserfs/ is gone at the tip: the template derives it anyway. */
	assert_touched(f, "reiser", "reiserfs");
	assert_touched(f, "removed", "reiserfs");
	assert_paths(f, "removed", "fs/reiserfs/r.c");
	/* A rename is both directories; derived ones sort by path. */
	assert_touched(f, "renamed", "new,old");
	assert_paths(f, "renamed", "fs/new/o.c(new),fs/old/o.c");
	/* Opt-in xfs is primary though ext4 sorts first. */
	assert_touched(f, "both", "xfs,ext4");
	assert_paths(f, "both", "fs/ext4/a.c,fs/xfs/b.c");
	c = cand(f, "both");
	assert_string_equal(candidate_subsystem(c)->name, "xfs");
	assert_int_equal(candidate_subsystem(c)->policy, POLICY_OPT_IN);
	/* The side commit of a merge is scanned like any other. */
	assert_touched(f, "side", "ext4");
	assert_paths(f, "side", "fs/ext4/side.c(new)");
	/* Moved out of fs/: the change to fs/new/ counts, lib/ does not. */
	assert_touched(f, "moved", "new");
	assert_paths(f, "moved", "fs/new/o.c");
	c = cand(f, "moved");
	assert_string_equal(c->author, "A U Thor <author@example.com>");
	assert_string_equal(c->msg.subject, "new: move out of fs");
	assert_int_equal(c->time, f->moved_time);
	assert_int_equal(c->tz_offset, 0);
}

static void test_fixes(void **state)
{
	struct fixture *f = *state;
	git_oid fixed;
	struct candidate *c;

	run_base_master(f);
	fixed = rev(f, "fixed");
	c = cand(f, "fixes");
	assert_non_null(c);
	/* The links of the rules read three ids; the fixes array is parallel. */
	assert_int_equal(c->msg.nr_fixes, 3);
	assert_non_null(c->fixes);
	assert_true(c->fixes[0].resolved);
	assert_true(git_oid_equal(&c->fixes[0].id, &fixed));
	assert_string_equal(c->msg.fixes[0].subject, "ext4: add a bug");
	/* An id the repository lacks: unresolved, and no warning. */
	assert_false(c->fixes[1].resolved);
	assert_string_equal(c->msg.fixes[1].id, "0123456789ab");
	/* A blob's id: unresolved, with a warning that says so. */
	assert_false(c->fixes[2].resolved);
	assert_int_equal(c->nr_warnings, 1);
	assert_non_null(strstr(c->warnings[0], "names a blob, not a commit"));
	assert_non_null(strstr(c->warnings[0], "(\"a blob\")"));
}

static void test_in_range(void **state)
{
	struct fixture *f = *state;
	git_oid id;
	git_commit *commit = NULL;

	id = rev(f, "merge");
	assert_int_equal(scan_in_range(&f->scan, &id), -1);
	run_base_master(f);
	assert_int_equal(scan_in_range(&f->scan, &id), 1);
	id = rev(f, "outside");
	assert_int_equal(scan_in_range(&f->scan, &id), 1);
	id = rev(f, "base");
	assert_int_equal(scan_in_range(&f->scan, &id), 0);
	id = rev(f, "base~1");
	assert_int_equal(scan_in_range(&f->scan, &id), 0);
	assert_int_equal(scan_reaches_from(&f->scan), 1);

	/* The cheap test, commit by commit. */
	id = rev(f, "outside");
	assert_int_equal(git_commit_lookup(&commit, f->repo, &id), 0);
	assert_int_equal(scan_commit_touches(&f->scan, commit), 0);
	git_commit_free(commit);
	id = rev(f, "removed");
	assert_int_equal(git_commit_lookup(&commit, f->repo, &id), 0);
	assert_int_equal(scan_commit_touches(&f->scan, commit), 1);
	git_commit_free(commit);
	id = rev(f, "ignored");
	assert_int_equal(git_commit_lookup(&commit, f->repo, &id), 0);
	assert_int_equal(scan_commit_touches(&f->scan, commit), 0);
	git_commit_free(commit);
}

/* A range whose start is not below its end walks nothing, reaches nothing. */
static void test_ranges(void **state)
{
	struct fixture *f = *state;

	assert_int_equal(scan_set_range(&f->scan, "side..makefile"), 0);
	assert_int_equal(scan_run(&f->scan), 0);
	/* merge, ignored, makefile: side is below merge, hidden. */
	assert_int_equal(f->scan.walked, 3);
	assert_int_equal(f->scan.candidates.nr, 0);
	assert_int_equal(scan_reaches_from(&f->scan), 1);
	scan_reset(&f->scan);
	assert_int_equal(scan_set_range(&f->scan, "side..both"), 0);
	assert_int_equal(scan_run(&f->scan), 0);
	assert_int_equal(f->scan.walked, 0);
	assert_int_equal(scan_reaches_from(&f->scan), 0);
}

static void test_only(void **state)
{
	struct fixture *f = *state;
	struct candidate *c;

	scan_set_only(&f->scan, "xfs");
	run_base_master(f);
	/* Only "both" touches xfs; its ext4 half is not counted. */
	assert_int_equal(f->scan.candidates.nr, 1);
	assert_touched(f, "both", "xfs");
	c = cand(f, "both");
	assert_string_equal(candidate_subsystem(c)->name, "xfs");
	/* Six commits of other subsystems, and the ignored one. */
	assert_int_equal(f->scan.left_out, 7);
}

static void test_errors(void **state)
{
	struct fixture *f = *state;
	struct capture cap;
	char *err;

	capture_begin(&cap);
	assert_int_equal(scan_set_range(&f->scan, "base"), -1);
	assert_int_equal(scan_set_range(&f->scan, "base...master"), -1);
	assert_int_equal(scan_set_range(&f->scan, "nosuch..master"), -1);
	err = capture_end(&cap);
	assert_non_null(strstr(err, "'base' is not a range (expected A..B)"));
	assert_non_null(strstr(err, "'base...master' is not a range"));
	assert_non_null(strstr(err, "nosuch"));
	free(err);

	scan_set_only(&f->scan, "ext4, nosuch");
	assert_int_equal(scan_set_range(&f->scan, "base..master"), 0);
	capture_begin(&cap);
	assert_int_equal(scan_run(&f->scan), -1);
	err = capture_end(&cap);
	assert_string_equal(err, "error: unknown subsystem 'nosuch' for "
			    "--subsystem\n");
	free(err);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_walk, setup, teardown),
		cmocka_unit_test_setup_teardown(test_trees_not_cached, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_subsystems, setup, teardown),
		cmocka_unit_test_setup_teardown(test_fixes, setup, teardown),
		cmocka_unit_test_setup_teardown(test_in_range, setup, teardown),
		cmocka_unit_test_setup_teardown(test_ranges, setup, teardown),
		cmocka_unit_test_setup_teardown(test_only, setup, teardown),
		cmocka_unit_test_setup_teardown(test_errors, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
