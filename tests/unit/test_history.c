/*
 * Unit tests for history.c: ranges, merge bases and ancestry, answered
 * from the commit objects, from a commit-graph, and from a graph older
 * than some of the commits, must be git's answers, and the order of a
 * range must be the same all three ways.
 *
 * The history (fixed identities; dates move on an hour a commit, but
 * some commits share a date and one is dated before its parent):
 * master with two topic branches merged back, an octopus merge, a
 * second root merged in, and a stable branch forked from master that
 * takes commits of its own.
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

#include "git/history.h"
#include "testrepo.h"

struct fixture {
	char dir[64];
	long tick;
	git_repository *repo;
};

__attribute__((format(printf, 3, 4)))
static void git(struct fixture *f, long step, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	testrepo_vgit(f->dir, &f->tick, step, fmt, ap);
	va_end(ap);
}

/* Each commit changes its branch's own file: each has its own tree. */
static void commits(struct fixture *f, const char *prefix, int n, long step)
{
	char path[512];
	FILE *fp;
	int i;

	for (i = 0; i < n; i++) {
		snprintf(path, sizeof(path), "%s/%s.txt", f->dir, prefix);
		fp = fopen(path, "w");
		assert_non_null(fp);
		fprintf(fp, "%s%d\n", prefix, i);
		assert_int_equal(fclose(fp), 0);
		git(f, 0, "add %s.txt", prefix);
		git(f, step, "commit -q -m %s%d", prefix, i);
	}
}

/* The first part of the history: the graph is written after it. */
static void build_old(struct fixture *f)
{
	git(f, 60, "init -q -b master");
	commits(f, "m", 3, 3600);
	git(f, 60, "tag base");
	git(f, 60, "checkout -q -b topic1");
	commits(f, "a", 3, 3600);
	git(f, 60, "checkout -q master");
	commits(f, "m-b", 2, 0);		/* the same date twice */
	git(f, 60, "checkout -q -b topic2 base");
	commits(f, "b", 2, 3600);
	git(f, 60, "checkout -q -b topic3 base");
	commits(f, "c", 1, 3600);
	git(f, 60, "checkout -q master");
	git(f, 3600, "merge -q --no-edit topic1 topic2 topic3");
	git(f, 60, "checkout -q -b stable base");
	commits(f, "s", 3, 3600);
	git(f, 60, "checkout -q --orphan other");
	commits(f, "o", 2, 3600);
	git(f, 60, "checkout -q master");
	git(f, 3600, "merge -q --no-edit --allow-unrelated-histories other");
	commits(f, "m-c", 2, -7200);		/* dated before its parent */
	git(f, 60, "checkout -q stable");
	git(f, 3600, "merge -q --no-edit topic2");
	git(f, 60, "checkout -q master");
}

/* Commits made after the graph was written. */
static void build_new(struct fixture *f)
{
	commits(f, "n", 2, 3600);
	git(f, 60, "checkout -q -b late HEAD~1");
	commits(f, "l", 2, 0);
	git(f, 60, "checkout -q master");
	git(f, 3600, "merge -q --no-edit late");
	git(f, 60, "checkout -q stable");
	commits(f, "t", 1, 3600);
	git(f, 60, "checkout -q master");
}

static git_oid rev(struct fixture *f, const char *name)
{
	return testrepo_rev(f->repo, name);
}

/* git rev-list ARGS, sorted, into out (at most max ids). */
static size_t rev_list(struct fixture *f, const char *args, char out[][41],
		       size_t max)
{
	char cmd[512];
	FILE *p;
	size_t n = 0;

	snprintf(cmd, sizeof(cmd), "git -C %s rev-list %s | sort", f->dir, args);
	p = popen(cmd, "r");
	assert_non_null(p);
	while (n < max && fscanf(p, "%40s", out[n]) == 1)
		n++;
	assert_int_equal(pclose(p), 0);
	return n;
}

static int cmp_hex(const void *a, const void *b)
{
	return strcmp(a, b);
}

static const char *const names[] = {
	"master", "stable", "topic1", "topic2", "topic3", "other", "base",
	"master~1", "master~2", "master^2", "stable~1", "topic1~2", "late",
};

/*
 * The trees a range gives are the commit's and its first parent's, as
 * libgit2 reads them; all of them are given when the range is all the
 * history (every parent read).
 */
static void check_trees(struct fixture *f, const struct history_commit *c,
			int whole)
{
	git_commit *commit = NULL, *parent = NULL;
	git_oid zero;

	if (whole)
		assert_true(c->has_trees);
	if (!c->has_trees)
		return;
	assert_int_equal(git_commit_lookup(&commit, f->repo, &c->id), 0);
	assert_true(git_oid_equal(&c->tree, git_commit_tree_id(commit)));
	if (!git_commit_parentcount(commit)) {
		memset(&zero, 0, sizeof(zero));
		assert_true(git_oid_equal(&c->parent_tree, &zero));
	} else {
		assert_int_equal(git_commit_parent(&parent, commit, 0), 0);
		assert_true(git_oid_equal(&c->parent_tree,
					  git_commit_tree_id(parent)));
	}
	git_commit_free(parent);
	git_commit_free(commit);
}

/* A range's set is git's, and each commit comes before its parents. */
static void check_range(struct fixture *f, const char *tip, const char *hide,
			struct history_range *out)
{
	static char want[256][41], got[256][41];
	git_oid t = rev(f, tip), h;
	char args[128];
	size_t n, i, j, k;

	if (hide) {
		h = rev(f, hide);
		snprintf(args, sizeof(args), "%s ^%s", tip, hide);
	} else {
		snprintf(args, sizeof(args), "%s", tip);
	}
	n = rev_list(f, args, want, 256);
	assert_int_equal(history_range(out, f->repo, &t, hide ? &h : NULL,
				       hide ? 1 : 0), 0);
	assert_int_equal(out->nr, n);
	for (i = 0; i < out->nr; i++)
		git_oid_tostr(got[i], 41, &out->items[i].id);
	qsort(got, out->nr, sizeof(got[0]), cmp_hex);
	for (i = 0; i < n; i++)
		assert_string_equal(got[i], want[i]);
	for (i = 0; i < out->nr; i++) {
		const struct history_commit *c = &out->items[i];

		for (j = 0; j < c->nr_parents; j++)
			for (k = 0; k < i; k++)
				assert_false(git_oid_equal(&out->items[k].id,
							   history_parent(out, c, j)));
		check_trees(f, c, !hide);
	}
}

static int exists(struct fixture *f, const char *name)
{
	git_object *o = NULL;
	int ok = !git_revparse_single(&o, f->repo, name);

	git_object_free(o);
	git_error_clear();
	return ok;
}

/*
 * Every answer of the three kinds for the names; the ranges' orders
 * into orders (one per pair) for comparing between modes.
 */
static void check_all(struct fixture *f, struct history_range *orders,
		      size_t *nr_orders)
{
	size_t a, b;

	*nr_orders = 0;
	for (a = 0; a < sizeof(names) / sizeof(*names); a++) {
		if (!exists(f, names[a]))
			continue;
		check_range(f, names[a], NULL, &orders[(*nr_orders)++]);
		for (b = 0; b < sizeof(names) / sizeof(*names); b++) {
			git_oid x, y, mine, theirs;
			int r1, r2;

			if (!exists(f, names[b]))
				continue;
			check_range(f, names[a], names[b],
				    &orders[(*nr_orders)++]);
			x = rev(f, names[a]);
			y = rev(f, names[b]);
			r1 = history_descendant_of(f->repo, &x, &y);
			r2 = git_graph_descendant_of(f->repo, &x, &y);
			assert_int_equal(r1, r2);
			r1 = history_merge_base(&mine, f->repo, &x, &y);
			r2 = git_merge_base(&theirs, f->repo, &x, &y);
			assert_int_equal(r1, r2);
			if (!r1)
				assert_true(git_oid_equal(&mine, &theirs));
		}
	}
}

#define MAX_ORDERS 256

static void compare_orders(struct history_range *a, struct history_range *b,
			   size_t nr)
{
	size_t i, j;

	for (i = 0; i < nr; i++) {
		assert_int_equal(a[i].nr, b[i].nr);
		for (j = 0; j < a[i].nr; j++)
			assert_true(git_oid_equal(&a[i].items[j].id,
						  &b[i].items[j].id));
	}
}

static void release_orders(struct history_range *o, size_t nr)
{
	size_t i;

	for (i = 0; i < nr; i++)
		history_range_release(&o[i]);
}

static void reopen(struct fixture *f)
{
	history_forget(f->repo);
	git_repository_free(f->repo);
	assert_int_equal(git_repository_open(&f->repo, f->dir), 0);
}

static void test_modes(void **state)
{
	static struct history_range plain[MAX_ORDERS], graph[MAX_ORDERS];
	struct fixture f;
	size_t nr_plain, nr_graph;

	(void)state;
	memset(&f, 0, sizeof(f));
	strcpy(f.dir, "/tmp/test_history.XXXXXX");
	testrepo_create(f.dir);
	f.tick = 1700000000;
	build_old(&f);
	assert_int_equal(git_repository_open(&f.repo, f.dir), 0);

	/* No graph: the commit objects read, the range in date order. */
	assert_null(history_graph(f.repo));
	check_all(&f, plain, &nr_plain);

	/* A graph of everything: the same answers, the same order. */
	git(&f, 0, "commit-graph write --reachable --changed-paths");
	reopen(&f);
	assert_non_null(history_graph(f.repo));
	check_all(&f, graph, &nr_graph);
	assert_int_equal(nr_plain, nr_graph);
	compare_orders(plain, graph, nr_plain);
	release_orders(plain, nr_plain);
	release_orders(graph, nr_graph);

	/* Commits the graph does not hold: read, and still the same. */
	build_new(&f);
	reopen(&f);
	check_all(&f, graph, &nr_graph);
	git(&f, 0, "status -s && rm -f .git/objects/info/commit-graph");
	reopen(&f);
	assert_null(history_graph(f.repo));
	check_all(&f, plain, &nr_plain);
	assert_int_equal(nr_plain, nr_graph);
	compare_orders(plain, graph, nr_plain);
	release_orders(plain, nr_plain);
	release_orders(graph, nr_graph);

	history_forget(f.repo);
	git_repository_free(f.repo);
	testrepo_remove(f.dir);
}

/* A range is in date order: the latest of the ready commits first. */
static void test_date_order(void **state)
{
	struct history_range r;
	struct fixture f;
	git_oid tip;
	char hex[41];
	FILE *p;
	char cmd[256], line[64];
	size_t i = 0;

	(void)state;
	memset(&f, 0, sizeof(f));
	strcpy(f.dir, "/tmp/test_history.XXXXXX");
	testrepo_create(f.dir);
	f.tick = 1700000000;
	build_old(&f);
	assert_int_equal(git_repository_open(&f.repo, f.dir), 0);
	tip = rev(&f, "master");
	assert_int_equal(history_range(&r, f.repo, &tip, NULL, 0), 0);
	/*
	 * git's --date-order breaks ties of date by the order commits
	 * were met; here no two ready commits share a date but the two
	 * made at the same second, one the parent of the other.
	 */
	snprintf(cmd, sizeof(cmd), "git -C %s rev-list --date-order master",
		 f.dir);
	p = popen(cmd, "r");
	assert_non_null(p);
	while (fgets(line, sizeof(line), p)) {
		line[40] = '\0';
		assert_true(i < r.nr);
		git_oid_tostr(hex, sizeof(hex), &r.items[i++].id);
		assert_string_equal(hex, line);
	}
	assert_int_equal(pclose(p), 0);
	assert_int_equal(i, r.nr);
	history_range_release(&r);
	history_forget(f.repo);
	git_repository_free(f.repo);
	testrepo_remove(f.dir);
}

/* history_walk() is libgit2's walk: the same commits, in its order. */
static void check_walk(struct fixture *f, const char *tip, const char *hide,
		       unsigned int sorting, int first_parent)
{
	struct history_walk w;
	git_revwalk *lw = NULL;
	git_oid t = rev(f, tip), h, a, b;
	int ra, rb;

	history_walk_init(&w, f->repo, sorting);
	assert_int_equal(git_revwalk_new(&lw, f->repo), 0);
	assert_int_equal(git_revwalk_sorting(lw, sorting), 0);
	if (first_parent) {
		history_walk_first_parent(&w);
		assert_int_equal(git_revwalk_simplify_first_parent(lw), 0);
	}
	assert_int_equal(history_walk_push(&w, &t), 0);
	assert_int_equal(git_revwalk_push(lw, &t), 0);
	if (hide) {
		h = rev(f, hide);
		assert_int_equal(history_walk_hide(&w, &h), 0);
		assert_int_equal(git_revwalk_hide(lw, &h), 0);
	}
	do {
		ra = history_walk_next(&a, &w);
		rb = git_revwalk_next(&b, lw);
		assert_int_equal(ra, rb);
		if (!ra)
			assert_true(git_oid_equal(&a, &b));
	} while (!ra);
	assert_int_equal(ra, GIT_ITEROVER);
	history_walk_release(&w);
	git_revwalk_free(lw);
}

static const unsigned int sortings[] = {
	GIT_SORT_NONE, GIT_SORT_TIME, GIT_SORT_TOPOLOGICAL | GIT_SORT_TIME,
	GIT_SORT_TOPOLOGICAL | GIT_SORT_REVERSE,
};

static void check_walks(struct fixture *f)
{
	size_t a, b, s;

	for (a = 0; a < sizeof(names) / sizeof(*names); a++) {
		if (!exists(f, names[a]))
			continue;
		check_walk(f, names[a], NULL, GIT_SORT_NONE, 1);
		for (s = 0; s < sizeof(sortings) / sizeof(*sortings); s++) {
			check_walk(f, names[a], NULL, sortings[s], 0);
			for (b = 0; b < sizeof(names) / sizeof(*names); b++)
				if (exists(f, names[b]))
					check_walk(f, names[a], names[b],
						   sortings[s], 0);
		}
	}
}

/*
 * The walks are libgit2's, with and without a graph: an unsorted walk
 * that hides nothing, made by history-walk.c itself, too (same dates,
 * commits met in the same order).
 */
static void test_walk(void **state)
{
	struct fixture f;

	(void)state;
	memset(&f, 0, sizeof(f));
	strcpy(f.dir, "/tmp/test_history.XXXXXX");
	testrepo_create(f.dir);
	f.tick = 1700000000;
	build_old(&f);
	build_new(&f);
	assert_int_equal(git_repository_open(&f.repo, f.dir), 0);
	check_walks(&f);
	git(&f, 0, "commit-graph write --reachable");
	reopen(&f);
	assert_non_null(history_graph(f.repo));
	check_walks(&f);
	history_forget(f.repo);
	git_repository_free(f.repo);
	testrepo_remove(f.dir);
}

/* The output of "git ARGS" in f's repository, ids one a line. */
static size_t git_ids(struct fixture *f, const char *args, git_oid *out,
		      size_t max)
{
	char cmd[512], hex[64];
	FILE *p;
	size_t n = 0;

	snprintf(cmd, sizeof(cmd), "git -C %s %s", f->dir, args);
	p = popen(cmd, "r");
	assert_non_null(p);
	while (n < max && fscanf(p, "%40s", hex) == 1)
		assert_int_equal(git_oid_fromstr(&out[n++], hex), 0);
	pclose(p);
	return n;
}

/*
 * Writes a commit of HEAD's tree on HEAD with the header lines (after
 * the parent) head, and moves the branch to it: what git fsck calls
 * malformed and git log shows.
 */
static void malformed(struct fixture *f, const char *head)
{
	char cmd[512];

	snprintf(cmd, sizeof(cmd), "c=$(printf 'tree %%s\\nparent %%s\\n%s\\n"
		 "malformed\\n' $(git rev-parse HEAD^{tree} HEAD) | "
		 "git hash-object -t commit -w --literally --stdin) && "
		 "git reset -q --soft $c", head);
	testrepo_sh(f->dir, &f->tick, 60, cmd);
}

static void check_malformed(struct fixture *f)
{
	static git_oid want[64], got[64];
	const char *revs[][2] = {
		{ "master", "rev-list master" },
		{ "master ^side~1", "rev-list master ^side~1" },
		{ "side", "rev-list side" },
	};
	struct history_range r;
	struct history_walk w;
	git_oid tip, hide, x, y, base;
	size_t i, n, k;

	/* An unsorted walk is git rev-list's, malformed dates and all. */
	for (k = 0; k < sizeof(revs) / sizeof(*revs); k++) {
		n = git_ids(f, revs[k][1], want, 64);
		tip = rev(f, k == 2 ? "side" : "master");
		history_walk_init(&w, f->repo, GIT_SORT_NONE);
		assert_int_equal(history_walk_push(&w, &tip), 0);
		if (k == 1) {
			/* Malformed: libgit2's revparse cannot read it. */
			assert_int_equal(git_ids(f, "rev-parse side~1", &hide, 1), 1);
			assert_int_equal(history_walk_hide(&w, &hide), 0);
		}
		for (i = 0; !history_walk_next(&got[i], &w); i++)
			assert_true(i < n);
		history_walk_release(&w);
		assert_int_equal(i, n);
		/* libgit2's walk failed, when it hides: the range's order. */
		if (k == 1) {
			n = git_ids(f, "rev-list --date-order master ^side~1",
				    want, 64);
			assert_int_equal(history_range(&r, f->repo, &tip, &hide, 1), 0);
			assert_int_equal(r.nr, n);
			for (i = 0; i < n; i++)
				assert_true(git_oid_equal(&r.items[i].id, &want[i]));
			history_range_release(&r);
			continue;
		}
		for (i = 0; i < n; i++)
			assert_true(git_oid_equal(&got[i], &want[i]));
	}
	/* A sorted walk, taken over by the range: git's --date-order. */
	n = git_ids(f, "rev-list --date-order master", want, 64);
	tip = rev(f, "master");
	history_walk_init(&w, f->repo, GIT_SORT_TOPOLOGICAL | GIT_SORT_TIME);
	assert_int_equal(history_walk_push(&w, &tip), 0);
	for (i = 0; !history_walk_next(&got[i], &w); i++)
		assert_true(git_oid_equal(&got[i], &want[i]));
	history_walk_release(&w);
	assert_int_equal(i, n);

	/* Merge bases and ancestry through them are git's. */
	x = rev(f, "master~1");
	y = rev(f, "side");
	assert_int_equal(git_ids(f, "merge-base master~1 side", want, 1), 1);
	assert_int_equal(history_merge_base(&base, f->repo, &x, &y), 0);
	assert_true(git_oid_equal(&base, &want[0]));
	assert_int_equal(git_ids(f, "rev-parse side~1", want, 1), 1);
	assert_int_equal(history_descendant_of(f->repo, &tip, &want[0]), 1);
	assert_int_equal(history_descendant_of(f->repo, &tip, &want[0]), 1);
	assert_int_equal(git_ids(f, "rev-parse master~3", want, 1), 1);
	assert_int_equal(history_descendant_of(f->repo, &y, &want[0]), 0);
	assert_int_equal(history_descendant_of(f->repo, &y, &want[0]), 0);
}

/*
 * Through malformed commits: one whose author has no e-mail address on
 * master, one whose committer date is no number (git takes it for 0)
 * on a branch merged into it.  (Two commits of one date would be
 * ordered by git as they were met, by history_range() by their ids.)
 */
static void test_malformed(void **state)
{
	struct fixture f;

	(void)state;
	memset(&f, 0, sizeof(f));
	strcpy(f.dir, "/tmp/test_history.XXXXXX");
	testrepo_create(f.dir);
	f.tick = 1700000000;
	git(&f, 60, "init -q -b master");
	commits(&f, "m", 3, 3600);
	git(&f, 60, "tag base");
	malformed(&f, "author A U Thor a@example.com 1700020000 +0000\\n"
		  "committer C O Mitter <c@example.com> 1700020000 +0000");
	commits(&f, "a", 2, 3600);
	git(&f, 60, "checkout -q -b side base");
	commits(&f, "s", 1, 3600);
	malformed(&f, "author A U Thor <a@example.com> 1700030000 +0000\\n"
		  "committer C O Mitter <c@example.com> notadate +0000");
	commits(&f, "t", 1, 3600);
	git(&f, 60, "checkout -q master");
	git(&f, 3600, "merge -q --no-edit side");
	commits(&f, "n", 1, 3600);
	assert_int_equal(git_repository_open(&f.repo, f.dir), 0);
	check_malformed(&f);
	git(&f, 0, "commit-graph write --reachable");
	reopen(&f);
	assert_non_null(history_graph(f.repo));
	check_malformed(&f);
	history_forget(f.repo);
	git_repository_free(f.repo);
	testrepo_remove(f.dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_modes),
		cmocka_unit_test(test_date_order),
		cmocka_unit_test(test_walk),
		cmocka_unit_test(test_malformed),
	};

	git_libgit2_init();
	return cmocka_run_group_tests(tests, NULL, NULL);
}
