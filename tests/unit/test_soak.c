/*
 * Unit tests for soak-time facts.  A throwaway mainline is built with
 * the git command (fixed identities and dates, no personal
 * configuration):
 *
 *   c1 (v6.5, annotated) - c2 - c3 (v6.6-rc1, lightweight) - c4
 *   - c5 (v6.6-rc2, annotated) - m6 (merges side s1) - c7 (v6.6,
 *   annotated) - c8 - c9 (v6.7-rc1, lightweight) - c10 (tip)
 *
 * with tags that must not count: v6.6.1 (stable) on a stable branch,
 * v6.8 on a commit mainline does not reach, v6.4 on a tree and "vfoo".
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

#include "formats/soak.h"
#include "testrepo.h"
#include "base/strbuf.h"

struct fixture {
	char dir[64];
	long tick;
	git_repository *repo;
	/* Dates of the tags: the tagger's, or the commit's if lightweight. */
	long t_v6_5, t_rc1, t_rc2, t_v6_6, t_v6_7_rc1;
};

/* Runs git in the repository at the next fixed date; returns the date. */
__attribute__((format(printf, 2, 3)))
static long git(struct fixture *f, const char *fmt, ...)
{
	va_list ap;
	long t;

	va_start(ap, fmt);
	t = testrepo_vgit(f->dir, &f->tick, 3600, fmt, ap);
	va_end(ap);
	return t;
}

/* An empty commit, tagged (lightweight) with its message; its date. */
static long commit(struct fixture *f, const char *name)
{
	return git(f, "commit -q --allow-empty -m %s && git tag %s",
		   name, name);
}

static void oid_of(struct fixture *f, const char *spec, git_oid *out)
{
	git_object *obj, *peeled;

	assert_int_equal(git_revparse_single(&obj, f->repo, spec), 0);
	assert_int_equal(git_object_peel(&peeled, obj, GIT_OBJECT_COMMIT), 0);
	git_oid_cpy(out, git_object_id(peeled));
	git_object_free(peeled);
	git_object_free(obj);
}

static int setup(void **state)
{
	struct fixture *f = calloc(1, sizeof(*f));

	strcpy(f->dir, "/tmp/test_soak.XXXXXX");
	testrepo_create(f->dir);
	f->tick = 1690000000;

	git(f, "init -q -b master");
	commit(f, "c1");
	f->t_v6_5 = git(f, "tag -a -m 'Linux 6.5' v6.5");
	commit(f, "c2");
	f->t_rc1 = commit(f, "c3");
	git(f, "tag v6.6-rc1 c3");
	commit(f, "c4");
	commit(f, "c5");
	f->t_rc2 = git(f, "tag -a -m 'Linux 6.6-rc2' v6.6-rc2");
	git(f, "checkout -q -b side c4");
	commit(f, "s1");
	git(f, "checkout -q master");
	git(f, "merge -q --no-ff -m m6 side && git tag m6");
	commit(f, "c7");
	f->t_v6_6 = git(f, "tag -a -m 'Linux 6.6' v6.6");
	commit(f, "c8");
	f->t_v6_7_rc1 = commit(f, "c9");
	git(f, "tag v6.7-rc1 c9");
	commit(f, "c10");

	/* Tags that are not mainline's, or not reachable from c10. */
	git(f, "checkout -q -b linux-6.6.y c7");
	commit(f, "stable");
	git(f, "tag -a -m 'Linux 6.6.1' v6.6.1 && git tag v6.6.1-lw");
	git(f, "checkout -q -b next c10");
	commit(f, "future");
	git(f, "tag -a -m 'Linux 6.8' v6.8 && git tag vfoo");
	git(f, "tag v6.4 'c1^{tree}' && git checkout -q master");

	assert_int_equal(git_libgit2_init() > 0, 1);
	assert_int_equal(git_repository_open(&f->repo, f->dir), 0);
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *f = *state;

	git_repository_free(f->repo);
	testrepo_remove(f->dir);
	free(f);
	git_libgit2_shutdown();
	return 0;
}

static void load(struct fixture *f, struct soak_tags *tags, const char *tip)
{
	git_oid id;

	oid_of(f, tip, &id);
	assert_int_equal(soak_tags_load(tags, f->repo, &id, NULL), 0);
}

static void test_load(void **state)
{
	struct fixture *f = *state;
	struct soak_tags tags;
	git_oid id;

	load(f, &tags, "c10");
	assert_int_equal(tags.nr_releases, 2);
	assert_string_equal(tags.releases[0].name, "v6.5");
	assert_string_equal(tags.releases[1].name, "v6.6");
	assert_int_equal(tags.releases[1].major, 6);
	assert_int_equal(tags.releases[1].minor, 6);
	assert_int_equal(tags.releases[1].rc, 0);
	oid_of(f, "c7", &id);
	assert_true(git_oid_equal(&tags.releases[1].commit, &id));
	assert_int_equal(tags.releases[0].when, f->t_v6_5);
	assert_int_equal(tags.releases[1].when, f->t_v6_6);

	assert_int_equal(tags.nr_rcs, 3);
	assert_string_equal(tags.rcs[0].name, "v6.6-rc1");
	assert_string_equal(tags.rcs[1].name, "v6.6-rc2");
	assert_string_equal(tags.rcs[2].name, "v6.7-rc1");
	assert_int_equal(tags.rcs[1].rc, 2);
	/* Lightweight: the commit's date; annotated: the tagger's. */
	assert_int_equal(tags.rcs[0].when, f->t_rc1);
	assert_int_equal(tags.rcs[1].when, f->t_rc2);
	assert_int_equal(tags.rcs[2].when, f->t_v6_7_rc1);
	soak_tags_release(&tags);
	assert_int_equal(tags.nr_releases, 0);
	assert_null(tags.rcs);
}

static void test_load_older_tip(void **state)
{
	struct soak_tags tags;

	load(*state, &tags, "v6.6");
	assert_int_equal(tags.nr_releases, 2);
	assert_int_equal(tags.nr_rcs, 2);
	assert_string_equal(tags.rcs[1].name, "v6.6-rc2");
	soak_tags_release(&tags);
}

static void test_load_unknown_tip(void **state)
{
	struct fixture *f = *state;
	struct soak_tags tags;
	git_oid id;

	assert_int_equal(git_oid_fromstr(&id,
			"0123456789012345678901234567890123456789"), 0);
	assert_int_equal(soak_tags_load(&tags, f->repo, &id, NULL), -1);
	soak_tags_release(&tags);
}

/* The first tag containing commit spec, with releases only or not. */
static void expect(struct fixture *f, const struct soak_tags *tags,
		   const char *spec, int releases_only, const char *want,
		   long when_want)
{
	const char *name = "unset";
	git_time_t when = -1;
	git_oid id;

	oid_of(f, spec, &id);
	assert_int_equal(soak_first_tag(tags, f->repo, &id, releases_only,
					&name, &when), 0);
	if (!want) {
		if (name)
			fail_msg("%s: expected no tag, got %s", spec, name);
		assert_int_equal(when, 0);
		return;
	}
	if (!name)
		fail_msg("%s: expected %s, got no tag", spec, want);
	if (strcmp(name, want))
		fail_msg("%s (releases_only %d): expected %s, got %s",
			 spec, releases_only, want, name);
	assert_int_equal(when, when_want);
}

static void test_first_tag(void **state)
{
	struct fixture *f = *state;
	struct soak_tags tags;

	load(f, &tags, "c10");

	expect(f, &tags, "c1", 0, "v6.5", f->t_v6_5);
	expect(f, &tags, "c1", 1, "v6.5", f->t_v6_5);
	expect(f, &tags, "c2", 0, "v6.6-rc1", f->t_rc1);
	expect(f, &tags, "c2", 1, "v6.6", f->t_v6_6);
	expect(f, &tags, "c3", 0, "v6.6-rc1", f->t_rc1);
	expect(f, &tags, "c3", 1, "v6.6", f->t_v6_6);
	expect(f, &tags, "c4", 0, "v6.6-rc2", f->t_rc2);
	expect(f, &tags, "c5", 0, "v6.6-rc2", f->t_rc2);
	expect(f, &tags, "c5", 1, "v6.6", f->t_v6_6);
	/* Merged from a side branch after -rc2: in no release candidate. */
	expect(f, &tags, "s1", 0, "v6.6", f->t_v6_6);
	expect(f, &tags, "s1", 1, "v6.6", f->t_v6_6);
	expect(f, &tags, "m6", 0, "v6.6", f->t_v6_6);
	expect(f, &tags, "c7", 0, "v6.6", f->t_v6_6);
	expect(f, &tags, "c8", 0, "v6.7-rc1", f->t_v6_7_rc1);
	expect(f, &tags, "c8", 1, NULL, 0);
	expect(f, &tags, "c9", 0, "v6.7-rc1", f->t_v6_7_rc1);
	expect(f, &tags, "c9", 1, NULL, 0);
	/* The untagged tip, and commits mainline does not have. */
	expect(f, &tags, "c10", 0, NULL, 0);
	expect(f, &tags, "c10", 1, NULL, 0);
	expect(f, &tags, "v6.8", 0, NULL, 0);
	expect(f, &tags, "linux-6.6.y", 0, NULL, 0);
	soak_tags_release(&tags);
}

static void test_first_tag_older_tip(void **state)
{
	struct fixture *f = *state;
	struct soak_tags tags;

	load(f, &tags, "c8");
	expect(f, &tags, "c2", 0, "v6.6-rc1", f->t_rc1);
	expect(f, &tags, "c7", 1, "v6.6", f->t_v6_6);
	expect(f, &tags, "c8", 0, NULL, 0);
	soak_tags_release(&tags);
}

static void test_first_tag_no_tags(void **state)
{
	struct fixture *f = *state;
	struct soak_tags tags;
	const char *name = "unset";
	git_time_t when = -1;
	git_oid id;

	soak_tags_init(&tags);
	oid_of(f, "c1", &id);
	assert_int_equal(soak_first_tag(&tags, f->repo, &id, 0, &name, &when),
			 0);
	assert_null(name);
	assert_int_equal(when, 0);
	soak_tags_release(&tags);
}

static void parses(const char *name, int kind, int major, int minor, int rc)
{
	int ma = -1, mi = -1, r = -1;

	if (soak_parse_tag(name, &ma, &mi, &r) != kind)
		fail_msg("'%s': expected kind %d", name, kind);
	assert_int_equal(ma, major);
	assert_int_equal(mi, minor);
	assert_int_equal(r, rc);
}

static void rejects(const char *name)
{
	int ma = -1, mi = -1, r = -1;

	if (soak_parse_tag(name, &ma, &mi, &r) != -1)
		fail_msg("'%s': expected to be rejected", name);
	/* The outputs are left alone. */
	assert_int_equal(ma, -1);
	assert_int_equal(mi, -1);
	assert_int_equal(r, -1);
}

static void test_parse_tag(void **state)
{
	(void)state;
	parses("v6.6", 0, 6, 6, 0);
	parses("v6.10-rc3", 0, 6, 10, 3);
	parses("v3.0", 0, 3, 0, 0);
	/* A stable release: kind 1, never a mainline release tag. */
	parses("v5.15.120", 1, 5, 15, 0);
	parses("v2.6.39", 1, 2, 6, 0);

	rejects("");
	rejects("v");
	rejects("v6");
	rejects("v6.");
	rejects("6.6");
	rejects("V6.6");
	rejects("v6.6.");
	rejects("v6.6-rc");
	rejects("v6.6-rc0");
	rejects("v6.6-rc1-dirty");
	rejects("v6.6.1-rc1");
	rejects("v6.6.1.2");
	rejects("v6.6-next");
	rejects("v6.x");
	rejects("v-6.6");
	rejects("v+6.6");
	rejects("v 6.6");
	rejects("v6.6 ");
	rejects("v1234567.1");
	rejects("v99999999999999999999.1");
	rejects("vfoo");
	rejects("next-20231020");
}

/*
 * Painting a walk gives, for every commit, what soak_first_tag() finds
 * by asking the graph; also for a walk limited to a range.
 */
static void paint_and_compare(struct fixture *f, const char *tip,
			      const char *hide, size_t want_walked)
{
	struct soak_tags all, reach;
	struct soak_paint paint;
	git_revwalk *walk;
	git_oid id, tip_id, hide_id;
	size_t walked = 0;
	int ro;

	oid_of(f, tip, &tip_id);
	assert_int_equal(soak_tags_load_all(&all, f->repo, NULL), 0);
	assert_int_equal(all.nr_releases, 3);	/* v6.8 too: not reachable */
	assert_int_equal(soak_tags_load(&reach, f->repo, &tip_id, NULL), 0);
	soak_paint_init(&paint, &all);
	assert_int_equal(git_revwalk_new(&walk, f->repo), 0);
	git_revwalk_sorting(walk, GIT_SORT_TOPOLOGICAL | GIT_SORT_TIME);
	assert_int_equal(git_revwalk_push(walk, &tip_id), 0);
	if (hide) {
		oid_of(f, hide, &hide_id);
		assert_int_equal(git_revwalk_hide(walk, &hide_id), 0);
	}
	while (!git_revwalk_next(&id, walk)) {
		git_commit *c;
		struct soak_mark m;
		char hex[GIT_OID_HEXSZ + 1];

		assert_int_equal(git_commit_lookup(&c, f->repo, &id), 0);
		{
			git_oid parents[8];
			unsigned int i, n = git_commit_parentcount(c);

			assert_true(n <= 8);
			for (i = 0; i < n; i++)
				git_oid_cpy(&parents[i], git_commit_parent_id(c, i));
			soak_paint_visit(&paint, &id, parents, n, &m);
		}
		git_commit_free(c);
		git_oid_tostr(hex, sizeof(hex), &id);
		for (ro = 0; ro < 2; ro++) {
			const char *n1, *n2;
			git_time_t w1, w2;

			soak_mark_first(&all, &m, ro, &n1, &w1);
			assert_int_equal(soak_first_tag(&reach, f->repo, &id,
							ro, &n2, &w2), 0);
			if ((n1 == NULL) != (n2 == NULL) ||
			    (n1 && strcmp(n1, n2)))
				fail_msg("%s (releases_only %d): painted %s, "
					 "asked %s", hex, ro, n1 ? n1 : "none",
					 n2 ? n2 : "none");
			assert_int_equal(w1, w2);
		}
		walked++;
	}
	assert_int_equal(walked, want_walked);
	git_revwalk_free(walk);
	soak_paint_release(&paint);
	soak_tags_release(&all);
	soak_tags_release(&reach);
}

static void test_paint(void **state)
{
	/* c1..c5, c7..c10, s1 and the merge m6: 11 commits. */
	paint_and_compare(*state, "c10", NULL, 11);
	paint_and_compare(*state, "c8", "c3", 6);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_load),
		cmocka_unit_test(test_load_older_tip),
		cmocka_unit_test(test_load_unknown_tip),
		cmocka_unit_test(test_first_tag),
		cmocka_unit_test(test_first_tag_older_tip),
		cmocka_unit_test(test_first_tag_no_tags),
		cmocka_unit_test(test_paint),
		cmocka_unit_test(test_parse_tag),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
