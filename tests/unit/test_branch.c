/*
 * Unit tests for the branch index: a throwaway repository is built with
 * libgit2 (fixed identities and dates), then indexed.
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

#include "stages/branch.h"
#include "base/strbuf.h"
#include "formats/rules.h"
#include "testrepo.h"

struct fixture {
	char dir[64];
	git_repository *repo;
	git_time_t tick;
	git_oid a, b, c, d, e;		/* mainline; v6.6 is b */
	git_oid bp_c, bp_d;		/* backports on linux-6.6.y */
	struct ruleset rules;		/* the kernel's backport lines */
};

/* Commits content to path on top of parent (or as a root commit). */
static void commit(struct fixture *f, const char *ref, const git_oid *parent,
		   const char *path, const char *content, const char *msg,
		   git_oid *out)
{
	struct strbuf full = STRBUF_INIT;
	git_signature *sig;
	git_index *index;
	git_tree *tree;
	git_commit *p = NULL;
	git_oid tree_id;
	FILE *fp;

	strbuf_addf(&full, "%s/%s", f->dir, path);
	fp = fopen(full.buf, "w");
	assert_non_null(fp);
	fputs(content, fp);
	fclose(fp);
	strbuf_release(&full);

	assert_int_equal(git_repository_index(&index, f->repo), 0);
	assert_int_equal(git_index_add_bypath(index, path), 0);
	assert_int_equal(git_index_write_tree(&tree_id, index), 0);
	assert_int_equal(git_index_write(index), 0);
	git_index_free(index);
	assert_int_equal(git_tree_lookup(&tree, f->repo, &tree_id), 0);
	if (parent)
		assert_int_equal(git_commit_lookup(&p, f->repo, parent), 0);
	f->tick += 60;
	assert_int_equal(git_signature_new(&sig, "A U Thor", "author@example.com",
					   f->tick, 0), 0);
	assert_int_equal(git_commit_create_v(out, f->repo, ref, sig, sig, NULL,
					     msg, tree, parent ? 1 : 0, p), 0);
	git_signature_free(sig);
	git_commit_free(p);
	git_tree_free(tree);
}

static void set_head(struct fixture *f, const char *ref, const git_oid *at)
{
	git_reference *r;
	git_object *obj;

	assert_int_equal(git_reference_create(&r, f->repo, ref, at, 1, NULL), 0);
	git_reference_free(r);
	assert_int_equal(git_object_lookup(&obj, f->repo, at, GIT_OBJECT_COMMIT), 0);
	assert_int_equal(git_checkout_tree(f->repo, obj, NULL), 0);
	git_object_free(obj);
}

static int setup(void **state)
{
	struct fixture *f = calloc(1, sizeof(*f));
	struct strbuf msg = STRBUF_INIT;
	char hex[GIT_OID_HEXSZ + 1];
	git_object *obj;
	git_oid tag;
	git_signature *sig;

	git_libgit2_init();
	strcpy(f->dir, "/tmp/test_branch.XXXXXX");
	assert_non_null(mkdtemp(f->dir));
	assert_int_equal(git_repository_init(&f->repo, f->dir, 0), 0);
	f->tick = 1700000000;

	commit(f, "refs/heads/master", NULL, "a.c", "a\n", "fs: a\n", &f->a);
	commit(f, "refs/heads/master", &f->a, "a.c", "b\n", "fs: b\n", &f->b);
	assert_int_equal(git_object_lookup(&obj, f->repo, &f->b, GIT_OBJECT_COMMIT), 0);
	assert_int_equal(git_signature_new(&sig, "A U Thor", "author@example.com",
					   f->tick, 0), 0);
	assert_int_equal(git_tag_create(&tag, f->repo, "v6.6", obj, sig,
					"Linux 6.6\n", 0), 0);
	git_signature_free(sig);
	git_object_free(obj);
	commit(f, "refs/heads/master", &f->b, "a.c", "c\n", "fs: fix c\n", &f->c);
	commit(f, "refs/heads/master", &f->c, "a.c", "d\n", "fs: fix d\n", &f->d);
	commit(f, "refs/heads/master", &f->d, "a.c", "e\n", "fs: e\n", &f->e);

	set_head(f, "refs/heads/linux-6.6.y", &f->b);
	git_oid_tostr(hex, sizeof(hex), &f->c);
	strbuf_addf(&msg, "fs: fix c\n\ncommit %s upstream.\n\nbody\n", hex);
	commit(f, "refs/heads/linux-6.6.y", &f->b, "b.c", "c\n", msg.buf, &f->bp_c);
	strbuf_reset(&msg);
	/* Abbreviated: not evidence, ids are compared in full only. */
	git_oid_tostr(hex, sizeof(hex), &f->d);
	strbuf_addf(&msg, "fs: fix d\n\n[ Upstream commit %.12s ]\n", hex);
	commit(f, "refs/heads/linux-6.6.y", &f->bp_c, "b.c", "d\n", msg.buf, &f->bp_d);
	strbuf_release(&msg);
	ruleset_init(&f->rules);
	testrepo_load_backports(&f->rules);
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *f = *state;
	struct strbuf cmd = STRBUF_INIT;

	git_repository_free(f->repo);
	ruleset_release(&f->rules);
	strbuf_addf(&cmd, "rm -rf '%s'", f->dir);
	assert_int_equal(system(cmd.buf), 0);
	strbuf_release(&cmd);
	free(f);
	git_libgit2_shutdown();
	return 0;
}

static void test_index(void **state)
{
	struct fixture *f = *state;
	struct branch_index bi;
	const struct branch_backport *b;

	branch_index_init(&bi);
	assert_int_equal(branch_index_build(&bi, f->repo, "linux-6.6.y", &f->e,
					    &f->rules), 0);
	assert_true(git_oid_equal(&bi.base, &f->b));
	assert_string_equal(bi.base_name, "v6.6");
	assert_int_equal(bi.major, 6);
	assert_int_equal(bi.minor, 6);
	assert_int_equal(bi.nr_commits, 2);
	assert_int_equal(bi.nr_backports, 1);
	b = branch_index_find(&bi, &f->c);
	assert_non_null(b);
	assert_true(git_oid_equal(&b->commit, &f->bp_c));
	assert_null(branch_index_find(&bi, &f->d));
	branch_index_release(&bi);
}

/* The base's name is want, from loose refs, then after git pack-refs. */
static void assert_base_name(struct fixture *f, const char *want)
{
	struct branch_index bi;
	char cmd[300];
	int packed;

	for (packed = 0; packed < 2; packed++) {
		branch_index_init(&bi);
		assert_int_equal(branch_index_build(&bi, f->repo, "linux-6.6.y",
						    &f->e, &f->rules), 0);
		assert_string_equal(bi.base_name, want);
		branch_index_release(&bi);
		snprintf(cmd, sizeof(cmd), "git -C %s pack-refs --all", f->dir);
		assert_int_equal(system(cmd), 0);
	}
}

/* The base's name, from loose tag refs and then from packed-refs. */
static void test_base_name(void **state)
{
	struct fixture *f = *state;
	git_object *b, *c, *v66;
	git_signature *sig;
	git_oid tag, v66_id;

	assert_int_equal(git_object_lookup(&b, f->repo, &f->b, GIT_OBJECT_COMMIT), 0);
	assert_int_equal(git_object_lookup(&c, f->repo, &f->c, GIT_OBJECT_COMMIT), 0);
	assert_int_equal(git_signature_new(&sig, "A U Thor", "author@example.com",
					   f->tick, 0), 0);
	/* Longer names of the base, and short ones of other commits. */
	assert_int_equal(git_tag_create_lightweight(&tag, f->repo,
			 "v6.6-vendor-base", b, 0), 0);
	assert_int_equal(git_tag_create_lightweight(&tag, f->repo, "c", c, 0), 0);
	assert_int_equal(git_tag_create(&tag, f->repo, "d", c, sig, "d\n", 0), 0);
	assert_base_name(f, "v6.6");
	/* A tag of the tag v6.6 names the base too: it peels to it. */
	assert_int_equal(git_reference_name_to_id(&v66_id, f->repo,
						  "refs/tags/v6.6"), 0);
	assert_int_equal(git_object_lookup(&v66, f->repo, &v66_id, GIT_OBJECT_TAG), 0);
	assert_int_equal(git_tag_create(&tag, f->repo, "v6", v66, sig, "v6\n", 0), 0);
	assert_base_name(f, "v6");
	git_object_free(v66);
	git_signature_free(sig);
	git_object_free(c);
	git_object_free(b);
}

static void test_unknown_branch(void **state)
{
	struct fixture *f = *state;
	struct branch_index bi;

	branch_index_init(&bi);
	assert_int_equal(branch_index_build(&bi, f->repo, "linux-9.9.y", &f->e,
					    &f->rules), -1);
	branch_index_release(&bi);
}

static void test_parse_version(void **state)
{
	int ma = -1, mi = -1;

	(void)state;
	assert_int_equal(branch_parse_version("v6.6", &ma, &mi), 0);
	assert_int_equal(ma * 100 + mi, 606);
	assert_int_equal(branch_parse_version("linux-5.15.y", &ma, &mi), 0);
	assert_int_equal(ma * 100 + mi, 515);
	assert_int_equal(branch_parse_version("v6.7-rc2", &ma, &mi), 0);
	assert_int_equal(ma * 100 + mi, 607);
	assert_int_equal(branch_parse_version("vendor-2024", &ma, &mi), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_index),
		cmocka_unit_test(test_base_name),
		cmocka_unit_test(test_unknown_branch),
		cmocka_unit_test(test_parse_version),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
