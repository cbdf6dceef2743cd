/*
 * Unit tests for the presence engine (src/match.h): a throwaway
 * repository with one mainline commit per case and a branch that
 * carries them in every way a real one does (named, unnamed, reverted,
 * adapted, under a subject other commits share, tied to another
 * commit, after a rename), scanned and judged both ways.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stages/match.h"
#include "stages/match-internal.h"
#include "formats/rules.h"
#include "stages/scan.h"
#include "base/strbuf.h"
#include "base/util.h"
#include "testrepo.h"

struct fixture {
	char dir[64];
	long tick;
	git_repository *repo;
	struct ruleset rules;
	struct scan scan;
	struct branch_index branch;
	struct patchid_cache patchids;
	struct match m;
};

/* Writes one line to path, then commits with subject (and body). */
static void change(struct fixture *f, const char *path, const char *line,
		   const char *message)
{
	testrepo_change(f->dir, &f->tick, 60, path, line, message);
}

/* Runs a shell command in the repository, its output discarded. */
static void sh(struct fixture *f, const char *cmd)
{
	testrepo_sh(f->dir, &f->tick, 60, cmd);
}

/* Runs git with cmd ("tag x", "cherry-pick y && git ..."). */
static void git(struct fixture *f, const char *cmd)
{
	struct strbuf sb = STRBUF_INIT;

	strbuf_addf(&sb, "git %s", cmd);
	sh(f, sb.buf);
	strbuf_release(&sb);
}

/* The object a revision names. */
static git_oid rev(struct fixture *f, const char *name)
{
	return testrepo_rev(f->repo, name);
}

/*
 * Mainline, one tagged commit per case, and linux-6.6.y from v6.6:
 *
 *   named     cherry-picked with -x                 present, upstream-line
 *   unnamed   cherry-picked, retitled, no line      present, patch-id
 *   reverted  picked with -x, then reverted         backport-reverted
 *   unrevert  picked without a line, then reverted  backport-reverted
 *   typo1/2   "ext4: fix typo" twice; the branch    absent: shared subject
 *             has one, adapted
 *   elsewhere the branch's commit of its subject    absent: no file in
 *             changes another file                  common
 *   adapted   the branch's commit of its subject    maybe-present
 *             changes the file differently
 *   tied      the branch's commit of its subject    absent: it stands for
 *             names rework in an upstream line      "rework"
 *   rework    named by that commit                  present
 *   moved     the file moved after v6.6; the        maybe-present
 *             branch changes it where it was
 *   undone    the branch's commit of its subject    backport-reverted
 *             is reverted there
 */
/*
 * Opens the repository made in f->dir, linux-6.6.y branched at v6.6,
 * and scans v6.6..master with one ext4 subsystem and the backport
 * lines of default.rules.
 */
static void open_and_scan(struct fixture *f)
{
	static const char rules[] = "subsystem ext4\n\tpaths fs/ext4/\nend\n";
	git_oid base, tip;

	assert_int_equal(git_libgit2_init() > 0, 1);
	assert_int_equal(git_repository_open(&f->repo, f->dir), 0);
	ruleset_init(&f->rules);
	assert_int_equal(ruleset_load_buffer(&f->rules, "t.rules", rules,
					     strlen(rules)), 0);
	testrepo_load_backports(&f->rules);
	base = rev(f, "v6.6");
	tip = rev(f, "master");
	branch_index_init(&f->branch);
	assert_int_equal(branch_index_build(&f->branch, f->repo, "linux-6.6.y",
					    &tip, &f->rules), 0);
	assert_true(git_oid_equal(&f->branch.base, &base));
	scan_init(&f->scan, f->repo, &f->rules);
	scan_set_range_oids(&f->scan, &base, &tip, "v6.6..master");
	assert_int_equal(scan_run(&f->scan), 0);
	patchid_cache_init(&f->patchids, "");
	match_init(&f->m, f->repo, &f->branch, &f->scan, &f->patchids);
}

static int setup(void **state)
{
	struct fixture *f = calloc(1, sizeof(*f));

	assert_non_null(f);
	strcpy(f->dir, "/tmp/test_match.XXXXXX");
	testrepo_create(f->dir);
	f->tick = 1700000000;
	git(f, "init -q -b master");
	sh(f, "mkdir -p fs/ext4 && for n in a b c d e g h j k shared other; do "
	       "printf '%s\\n' one two three >fs/ext4/$n.c; done && "
	       "mkdir mm && printf 'one\\n' >mm/filemap.c && "
	       "git add fs mm && git commit -q -m 'ext4: add the code'");
	git(f, "tag v6.6 && git branch linux-6.6.y");

	change(f, "fs/ext4/a.c", "named", "ext4: fix a");
	git(f, "tag named");
	change(f, "fs/ext4/b.c", "unnamed", "ext4: fix b");
	git(f, "tag unnamed");
	change(f, "fs/ext4/c.c", "reverted", "ext4: fix c");
	git(f, "tag reverted");
	change(f, "fs/ext4/d.c", "unrevert", "ext4: fix d");
	git(f, "tag unrevert");
	change(f, "fs/ext4/e.c", "typo one", "ext4: fix typo");
	git(f, "tag typo1");
	change(f, "fs/ext4/a.c", "typo two", "ext4: fix typo");
	git(f, "tag typo2");
	change(f, "fs/ext4/shared.c", "elsewhere", "ext4: fix the shared helper");
	git(f, "tag elsewhere");
	change(f, "fs/ext4/g.c", "adapted", "ext4: fix g");
	git(f, "tag adapted");
	change(f, "fs/ext4/h.c", "rework", "ext4: rework h");
	git(f, "tag rework");
	change(f, "fs/ext4/h.c", "tied", "ext4: fix h");
	git(f, "tag tied");
	change(f, "fs/ext4/j.c", "undone", "ext4: fix j");
	git(f, "tag undone");
	sh(f, "mkdir -p fs/ext4/sub && git mv fs/ext4/k.c fs/ext4/sub/k.c && "
	       "git commit -q -m 'ext4: move k'");
	change(f, "fs/ext4/sub/k.c", "moved", "ext4: fix k");
	git(f, "tag moved");
	change(f, "mm/filemap.c", "unwatched", "mm: fix a leak in filemap");
	git(f, "tag unwatched");

	git(f, "checkout -q linux-6.6.y");
	git(f, "cherry-pick -x named && git tag named-bp");
	git(f, "cherry-pick unnamed && git commit -q --amend -m 'VENDOR: b' && "
	       "git tag unnamed-bp");
	git(f, "cherry-pick -x reverted && git revert --no-edit HEAD");
	git(f, "cherry-pick unrevert && git revert --no-edit HEAD");
	change(f, "fs/ext4/e.c", "typo, adapted", "ext4: fix typo");
	git(f, "tag typo-bp");
	change(f, "fs/ext4/other.c", "elsewhere", "ext4: fix the shared helper");
	git(f, "tag elsewhere-bp");
	change(f, "fs/ext4/g.c", "adapted for 6.6", "ext4: fix g");
	git(f, "tag adapted-bp");
	sh(f, "printf 'tied\\n' >fs/ext4/h.c && git add fs/ext4/h.c && "
	       "git commit -q -m 'ext4: fix h' -m \"(cherry picked from "
	       "commit $(git rev-parse rework))\"");
	git(f, "tag tied-bp");
	change(f, "fs/ext4/k.c", "moved, where it was", "ext4: fix k");
	git(f, "tag moved-bp");
	change(f, "fs/ext4/j.c", "undone, adapted", "ext4: fix j");
	git(f, "revert --no-edit HEAD");
	git(f, "cherry-pick unwatched && git commit -q --amend -m 'VENDOR: filemap'");
	change(f, "fs/ext4/other.c", "branch only", "ext4: a change of the branch only");
	git(f, "tag branch-only");
	git(f, "checkout -q master");

	open_and_scan(f);
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *f = *state;

	match_release(&f->m);
	patchid_cache_release(&f->patchids);
	scan_release(&f->scan);
	branch_index_release(&f->branch);
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
	struct candidate *c = candidate_list_find(&f->scan.candidates, &id);

	assert_non_null(c);
	return c;
}

/* "kind,kind" of c's evidence, and whether the branch commit is `by`. */
static void assert_evidence(struct fixture *f, const char *name,
			    const char *kinds, const char *by)
{
	struct candidate *c = cand(f, name);
	struct strbuf sb = STRBUF_INIT;
	size_t i;

	for (i = 0; i < c->nr_evidence; i++)
		strbuf_addf(&sb, "%s%s", i ? "," : "",
			    evidence_kind_name(c->evidence[i].kind));
	assert_string_equal(sb.buf, kinds);
	strbuf_release(&sb);
	if (by) {
		git_oid id = rev(f, by);
		const struct evidence *e = candidate_presence(c);

		assert_non_null(e);
		assert_true(e->has_commit);
		assert_true(git_oid_equal(&e->commit, &id));
	}
}

static void test_candidates(void **state)
{
	struct fixture *f = *state;

	assert_int_equal(f->scan.candidates.nr, 13);
	assert_int_equal(match_candidates(&f->m, &f->scan.candidates,
					  &f->scan.from), 0);
	assert_evidence(f, "named", "upstream-line", "named-bp");
	assert_true(cand(f, "named")->present);
	assert_evidence(f, "unnamed", "patch-id", "unnamed-bp");
	assert_true(cand(f, "unnamed")->present);
	/* Found, but reverted: the search goes on, and finds nothing. */
	assert_evidence(f, "reverted", "backport-reverted,absent", NULL);
	assert_evidence(f, "unrevert", "backport-reverted,absent", NULL);
	assert_false(cand(f, "unrevert")->present);
	/* Two mainline commits of that subject: not evidence for either. */
	assert_evidence(f, "typo1", "absent", NULL);
	assert_evidence(f, "typo2", "absent", NULL);
	/* The same subject on another file. */
	assert_evidence(f, "elsewhere", "absent", NULL);
	assert_evidence(f, "adapted", "subject", "adapted-bp");
	assert_true(cand(f, "adapted")->maybe_present);
	assert_false(cand(f, "adapted")->present);
	/* Its branch commit stands for "rework", named in it. */
	assert_evidence(f, "tied", "absent", NULL);
	assert_evidence(f, "rework", "upstream-line", "tied-bp");
	/* A file of the same name, where it was before the move. */
	assert_evidence(f, "moved", "subject", "moved-bp");
	/* An adapted backport the branch reverted. */
	assert_evidence(f, "undone", "backport-reverted,absent", NULL);
	assert_false(cand(f, "undone")->maybe_present);
	/* Below the base is present: v6.6 itself. */
	{
		struct candidate_list l;
		struct candidate *c;
		git_oid id = rev(f, "v6.6");

		candidate_list_init(&l);
		c = candidate_list_add(&l, &id);
		assert_int_equal(match_candidates(&f->m, &l, NULL), 0);
		assert_true(c->present);
		assert_int_equal(c->evidence[0].kind, EVIDENCE_ANCESTOR);
		candidate_list_release(&l);
	}
	assert_ptr_equal(match_taken_by(&f->m, &(git_oid){ 0 }), NULL);
	{
		git_oid id = rev(f, "adapted-bp");

		assert_ptr_equal(match_taken_by(&f->m, &id), cand(f, "adapted"));
	}
}

static void test_commit_in_branch(void **state)
{
	struct fixture *f = *state;
	git_oid id;

	id = rev(f, "named");
	assert_int_equal(match_commit_in_branch(&f->m, &id, 1), 1);
	id = rev(f, "v6.6");
	assert_int_equal(match_commit_in_branch(&f->m, &id, 1), 1);
	/* Made again without a line: patch-ids of every branch commit. */
	id = rev(f, "unnamed");
	assert_int_equal(match_commit_in_branch(&f->m, &id, 1), 1);
	id = rev(f, "reverted");
	assert_int_equal(match_commit_in_branch(&f->m, &id, 1), 0);
	id = rev(f, "unrevert");
	assert_int_equal(match_commit_in_branch(&f->m, &id, 1), 0);
	id = rev(f, "adapted");
	assert_int_equal(match_commit_in_branch(&f->m, &id, 1), 0);
	/* Outside the watch: every branch commit is keyed, then found. */
	id = rev(f, "unwatched");
	assert_int_equal(match_commit_in_branch(&f->m, &id, 1), 1);
}

static void test_mainline(void **state)
{
	struct fixture *f = *state;
	struct match_found found;
	struct match_pick pick;
	struct message msg;
	const char *why = NULL;
	git_oid id, want;
	char *text;

	/* An upstream line. */
	want = rev(f, "named");
	text = NULL;
	message_init(&msg);
	{
		struct strbuf sb = STRBUF_INIT;

		strbuf_addf(&sb, "ext4: fix a\n\ncommit %s upstream.\n",
			    git_oid_tostr_s(&want));
		text = strbuf_detach(&sb, NULL);
	}
	message_parse(&msg, text, strlen(text));
	message_read_backports(&msg, text, strlen(text), &f->rules);
	memset(&pick, 0, sizeof(pick));
	pick.msg = &msg;
	assert_int_equal(match_mainline(&f->m, &pick, &found, &why), 1);
	assert_int_equal(found.how, EVIDENCE_UPSTREAM_LINE);
	assert_true(git_oid_equal(&found.id, &want));
	assert_ptr_equal(found.cand, cand(f, "named"));
	message_release(&msg);
	free(text);

	/* The change: a retitled backport. */
	id = rev(f, "unnamed-bp");
	want = rev(f, "unnamed");
	memset(&pick, 0, sizeof(pick));
	pick.commit = &id;
	pick.subject = "VENDOR: b";
	assert_int_equal(match_mainline(&f->m, &pick, &found, &why), 1);
	assert_int_equal(found.how, EVIDENCE_PATCH_ID);
	assert_true(git_oid_equal(&found.id, &want));

	/* The subject, with a file of the same name. */
	id = rev(f, "adapted-bp");
	memset(&pick, 0, sizeof(pick));
	pick.commit = &id;
	pick.subject = "ext4: fix g";
	assert_int_equal(match_mainline(&f->m, &pick, &found, &why), 1);
	assert_int_equal(found.how, EVIDENCE_SUBJECT);
	assert_ptr_equal(found.cand, cand(f, "adapted"));

	/* A subject two commits share, or on another file: nothing. */
	id = rev(f, "typo-bp");
	memset(&pick, 0, sizeof(pick));
	pick.commit = &id;
	pick.subject = "ext4: fix typo";
	assert_int_equal(match_mainline(&f->m, &pick, &found, &why), 0);
	assert_non_null(why);
	id = rev(f, "elsewhere-bp");
	pick.commit = &id;
	pick.subject = "ext4: fix the shared helper";
	assert_int_equal(match_mainline(&f->m, &pick, &found, &why), 0);

	/* A mail: its diff's files stand for the commit's. */
	memset(&pick, 0, sizeof(pick));
	pick.subject = "ext4: fix g";
	pick.diff = "diff --git a/fs/ext4/g.c b/fs/ext4/g.c\n"
		    "--- a/fs/ext4/g.c\n+++ b/fs/ext4/g.c\n"
		    "@@ -1,3 +1 @@\n-one\n-two\n-three\n+adapted again\n";
	assert_int_equal(match_mainline(&f->m, &pick, &found, &why), 1);
	assert_ptr_equal(found.cand, cand(f, "adapted"));
	pick.diff = "diff --git a/fs/ext4/x.c b/fs/ext4/x.c\n"
		    "--- a/fs/ext4/x.c\n+++ b/fs/ext4/x.c\n"
		    "@@ -1 +1 @@\n-one\n+two\n";
	assert_int_equal(match_mainline(&f->m, &pick, &found, &why), 0);

	/* Only from its author, when asked so. */
	memset(&pick, 0, sizeof(pick));
	pick.subject = "ext4: fix g";
	pick.by_author = 1;
	pick.author_email = "someone@example.com";
	assert_int_equal(match_mainline(&f->m, &pick, &found, &why), 0);
	pick.author_email = "author@example.com";
	assert_int_equal(match_mainline(&f->m, &pick, &found, &why), 1);
}

static void test_branch_subject(void **state)
{
	struct fixture *f = *state;
	git_oid want = rev(f, "branch-only");
	const git_oid *b;

	assert_int_equal(match_candidates(&f->m, &f->scan.candidates,
					  &f->scan.from), 0);
	b = match_branch_subject(&f->m, "ext4: a change of the branch only");
	assert_non_null(b);
	assert_true(git_oid_equal(b, &want));
	/* Taken: by an upstream line, or by a subject match. */
	assert_null(match_branch_subject(&f->m, "ext4: fix h"));
	assert_null(match_branch_subject(&f->m, "ext4: fix g"));
	assert_null(match_branch_subject(&f->m, "no such subject"));
}

static void test_range_subjects(void **state)
{
	struct fixture *f = *state;
	struct match_wanted w[4];
	git_oid id = rev(f, "rework");

	memset(w, 0, sizeof(w));
	w[0].subject = "ext4: rework h";
	w[1].subject = "ext4: fix typo";
	w[2].subject = "ext4: move k";
	w[3].subject = "nowhere";
	assert_int_equal(match_range_subjects(&f->m, w, 4), 0);
	assert_int_equal(w[0].found, 1);
	assert_true(git_oid_equal(&w[0].id, &id));
	assert_int_equal(w[1].found, 2);
	assert_int_equal(w[2].found, 1);
	assert_int_equal(w[3].found, 0);
}

/*
 * Without a commit-graph, match_descends() answers from one read of the
 * range: for every two commits of a history with a topic forked below
 * the base and merged above it, the same as libgit2's walk.
 *
 *   root - old - v6.6 - m1 - M1 - m2 - M2 - m3    (master)
 *             \            /     \   /
 *              t1a ---- t1b       t2a
 */
static int setup_topics(void **state)
{
	struct fixture *f = calloc(1, sizeof(*f));

	assert_non_null(f);
	strcpy(f->dir, "/tmp/test_match.XXXXXX");
	testrepo_create(f->dir);
	f->tick = 1700000000;
	git(f, "init -q -b master");
	change(f, "fs/ext4/a.c", "root", "ext4: add a");
	change(f, "fs/ext4/b.c", "old", "ext4: add b");
	git(f, "tag old");
	change(f, "fs/ext4/c.c", "base", "ext4: add c");
	git(f, "tag v6.6 && git branch linux-6.6.y");
	git(f, "checkout -q -b topic1 old");
	change(f, "fs/ext4/t.c", "t1a", "ext4: topic one");
	git(f, "tag t1a");
	change(f, "fs/ext4/t.c", "t1b", "ext4: topic one, more");
	git(f, "tag t1b");
	git(f, "checkout -q master");
	change(f, "fs/ext4/a.c", "m1", "ext4: fix a");
	git(f, "tag m1");
	git(f, "merge -q --no-ff -m 'Merge topic one' topic1 && git tag M1");
	change(f, "fs/ext4/b.c", "m2", "ext4: fix b");
	git(f, "tag m2");
	git(f, "checkout -q -b topic2 m1");
	change(f, "fs/ext4/u.c", "t2a", "ext4: topic two");
	git(f, "tag t2a");
	git(f, "checkout -q master");
	git(f, "merge -q --no-ff -m 'Merge topic two' topic2 && git tag M2");
	change(f, "fs/ext4/c.c", "m3", "ext4: fix c");
	git(f, "tag m3");

	open_and_scan(f);
	*state = f;
	return 0;
}

static void check_descends(struct fixture *f)
{
	static const char *const names[] = {
		"old", "v6.6", "t1a", "t1b", "m1", "M1", "m2", "t2a", "M2", "m3",
	};
	size_t i, j, nr = sizeof(names) / sizeof(*names);

	for (i = 0; i < nr; i++)
		for (j = 0; j < nr; j++) {
			git_oid x = rev(f, names[i]), y = rev(f, names[j]);
			int want = git_graph_descendant_of(f->repo, &x, &y);
			int got = match_descends(&f->m, &x, &y);

			if (got != want)
				fail_msg("%s descends from %s: %d, not %d",
					 names[i], names[j], got, want);
		}
	/* It was the range's answer, not a walk of all history. */
	assert_non_null(f->m.ancestry);
	assert_int_equal(match_descends(&f->m, &f->scan.from,
					&f->scan.candidates.items[0]->id), 0);
}

static void test_descends(void **state)
{
	struct fixture *f = *state;

	/* The links of the scan's walk of the whole range. */
	assert_int_equal(f->scan.links.nr, f->scan.memo->nr_range);
	check_descends(f);
	/* A scan that walked part of it (a cache): the range is read. */
	match_ancestry_free(f->m.ancestry);
	f->m.ancestry = NULL;
	history_links_release(&f->scan.links);
	check_descends(f);
}

/* What candidate_list_added_before() answers, by a scan of l. */
static const struct candidate *added_by_scan(const struct candidate_list *l,
					     size_t pos, const char *path)
{
	size_t i, j, k;

	for (i = pos; i-- > 0;) {
		const struct candidate *a = l->items[i];

		for (j = 0; j < a->nr_paths; j++) {
			if (strcmp(a->paths[j], path))
				continue;
			for (k = 0; k < a->nr_old_paths; k++)
				if (!strcmp(a->old_paths[k], path))
					break;
			if (k == a->nr_old_paths)
				return a;
		}
	}
	return NULL;
}

static void add_path(struct candidate *c, const char *path, int old)
{
	ALLOC_GROW(c->paths, c->nr_paths + 1, c->alloc_paths);
	c->paths[c->nr_paths++] = xstrdup(path);
	if (!old)
		return;
	ALLOC_GROW(c->old_paths, c->nr_old_paths + 1, c->alloc_old_paths);
	c->old_paths[c->nr_old_paths++] = xstrdup(path);
}

/* Every candidate, every path: the index answers as a scan does. */
static void check_added_all(const struct candidate_list *l,
			    const char *const *paths, size_t nr_paths)
{
	size_t i, p;

	for (i = 0; i < l->nr; i++) {
		const struct candidate *c = l->items[i];
		int placed = c->order < l->nr && l->items[c->order] == c;

		for (p = 0; p < nr_paths; p++)
			assert_ptr_equal(candidate_list_added_before(l, c, paths[p]),
					 placed ? added_by_scan(l, c->order, paths[p])
						: NULL);
	}
}

/*
 * The newest earlier candidate that added a path: one that changed it
 * does not count, a file added, deleted and added again is the later
 * one's; after an add, the index is made again; after a reorder that
 * leaves the orders as they were, it answers as the scan of the list
 * by position does.  Against a scan, over random lists.
 */
static void test_added_before(void **state)
{
	static const char *const paths[] = { "fs/a.c", "fs/b.c", "fs/x/c.c",
					     "fs/d.h", "fs/none.c" };
	struct candidate_list l;
	unsigned seed = 12345;
	size_t round, i, p;

	(void)state;
	for (round = 0; round < 20; round++) {
		candidate_list_init(&l);
		for (i = 0; i < 60; i++) {
			git_oid id;
			struct candidate *c;

			memset(&id, 0, sizeof(id));
			id.id[0] = (unsigned char)round;
			id.id[1] = (unsigned char)i;
			c = candidate_list_add(&l, &id);
			for (p = 0; p < 4; p++) {
				seed = seed * 1103515245 + 12345;
				/* none, added, changed */
				switch ((seed >> 16) % 4) {
				case 1:
					add_path(c, paths[p], 0);
					break;
				case 2:
					add_path(c, paths[p], 1);
					break;
				}
			}
			if (i == 40)
				check_added_all(&l, paths, ARRAY_SIZE(paths));
		}
		check_added_all(&l, paths, ARRAY_SIZE(paths));
		/* Two swapped, orders left (as a sort does): the scan's answer. */
		{
			struct candidate *t = l.items[5];

			l.items[5] = l.items[30];
			l.items[30] = t;
			check_added_all(&l, paths, ARRAY_SIZE(paths));
		}
		candidate_list_sort(&l);
		check_added_all(&l, paths, ARRAY_SIZE(paths));
		candidate_list_release(&l);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_candidates, setup, teardown),
		cmocka_unit_test_setup_teardown(test_commit_in_branch, setup, teardown),
		cmocka_unit_test_setup_teardown(test_mainline, setup, teardown),
		cmocka_unit_test_setup_teardown(test_branch_subject, setup, teardown),
		cmocka_unit_test_setup_teardown(test_range_subjects, setup, teardown),
		cmocka_unit_test_setup_teardown(test_descends, setup_topics, teardown),
		cmocka_unit_test(test_added_before),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
