/*
 * Unit tests for the posted patches (src/posted.h): a throwaway
 * mainline and an mbox archive holding a threaded series with a cover
 * letter, a patch posted under a mangled subject (found by its
 * patch-id), a patch found by its subject (the mainline posting, not
 * the stable backport), a subject posted by someone else (not taken),
 * replies to the patch, to the cover letter and to another patch, and
 * a later revision of the series; then the series-mates' status.
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
#include "stages/posted.h"
#include "formats/rules.h"
#include "stages/scan.h"
#include "base/strbuf.h"
#include "testrepo.h"

static const char rules_text[] =
	"version 1\n"
	"subsystem ext4\n"
	"\tpaths fs/ext4/\n"
	"end\n";

#define AUTHOR "From: A U Thor <author@example.com>\n"
#define DATE "Date: Tue, 14 Nov 2023 22:30:00 +0000\n"
#define SEP "From mboxrd@z Thu Jan  1 00:00:00 1970\n"
#define DIFF(file, line) \
	"---\n" \
	"diff --git a/fs/ext4/" file " b/fs/ext4/" file "\n" \
	"--- a/fs/ext4/" file "\n+++ b/fs/ext4/" file "\n" \
	"@@ -1,2 +1,3 @@\n one\n two\n+" line "\n"

/* The series v1 (0/3 to 3/3), replies, v2's cover, s3 twice, s4. */
static const char list_head[] =
	SEP AUTHOR DATE
	"Subject: [PATCH 0/3] ext4: three fixes\n"
	"Message-ID: <cover@example.org>\n"
	"\n"
	"Hi all,\n"
	"\n"
	"These fix three bugs\n"
	"in ext4.\n"
	"\n"
	"More text.\n"
	"\n"
	SEP AUTHOR DATE
	"Subject: [PATCH 1/3] ext4: fix s1\n"
	"Message-ID: <s1@example.org>\n"
	"In-Reply-To: <cover@example.org>\n"
	"\n"
	"The fix.\n"
	DIFF("a.c", "posted s1")
	"\n"
	SEP AUTHOR DATE
	"Subject: [PATCH 3/3] ext4: not merged\n"
	"Message-ID: <s9@example.org>\n"
	"In-Reply-To: <cover@example.org>\n"
	"\n"
	"Never merged.\n"
	DIFF("z.c", "never")
	"\n"
	SEP
	"From: Bob <bob@example.org>\n" DATE
	"Subject: Re: [PATCH 1/3] ext4: fix s1\n"
	"Message-ID: <bob@example.org>\n"
	"In-Reply-To: <s1@example.org>\n"
	"\n"
	"On Tue, 14 Nov 2023, A U Thor wrote:\n"
	"> The fix.\n"
	"\n"
	"NAK, this breaks things.\n"
	"-- \n"
	"Bob's signature\n"
	"\n"
	SEP
	"From: Carol <carol@example.org>\n" DATE
	"Subject: Re: [PATCH 0/3] ext4: three fixes\n"
	"Message-ID: <carol@example.org>\n"
	"In-Reply-To: <cover@example.org>\n"
	"\n"
	"Looks good.\n"
	"\n"
	SEP
	"From: Dave <dave@example.org>\n" DATE
	"Subject: Re: [PATCH 2/3] ext4: fix s2\n"
	"Message-ID: <dave@example.org>\n"
	"In-Reply-To: <s2@example.org>\n"
	"\n"
	"About patch 2 only.\n"
	"\n"
	SEP AUTHOR
	"Date: Wed, 15 Nov 2023 22:30:00 +0000\n"
	"Subject: [PATCH v2 0/3] ext4: three fixes\n"
	"Message-ID: <v2cover@example.org>\n"
	"\n"
	"Again.\n"
	"\n"
	SEP AUTHOR DATE
	"Subject: [PATCH 6.6] ext4: fix s3\n"
	"Message-ID: <s3backport@example.org>\n"
	"\n"
	"The backport.\n"
	DIFF("c.c", "backport")
	"\n"
	SEP AUTHOR DATE
	"Subject: [PATCH] ext4: fix s3\n"
	"Message-ID: <s3main@example.org>\n"
	"\n"
	"The fix, as posted.\n"
	DIFF("c.c", "as posted")
	"\n"
	SEP
	"From: Someone Else <else@example.org>\n" DATE
	"Subject: [PATCH] ext4: fix s4\n"
	"Message-ID: <s4@example.org>\n"
	"\n"
	"Not the author.\n"
	DIFF("d.c", "else")
	"\n"
	/* Patch 2/3, mangled; its body and diff from format-patch follow. */
	SEP AUTHOR DATE
	"Subject: [PATCH 2/3] ext4: fix s2 -- mangled by a gateway\n"
	"Message-ID: <s2@example.org>\n"
	"In-Reply-To: <cover@example.org>\n"
	"\n";

struct fixture {
	char dir[64];
	long tick;
	git_repository *repo;
	struct ruleset rules;
	struct scan scan;
	struct branch_index branch;
	struct patchid_cache patchids;
	struct archive archive;
};

static void sh(struct fixture *f, const char *cmd)
{
	testrepo_sh(f->dir, &f->tick, 60, cmd);
}

/* The object a revision names. */
static git_oid rev(struct fixture *f, const char *name)
{
	return testrepo_rev(f->repo, name);
}

static int setup(void **state)
{
	const char *rs = rules_text;
	struct fixture *f = calloc(1, sizeof(*f));
	struct strbuf sb = STRBUF_INIT;
	FILE *fp;

	assert_non_null(f);
	strcpy(f->dir, "/tmp/test_posted.XXXXXX");
	testrepo_create(f->dir);
	f->tick = 1700000000;
	/*
	 * Two lines per file, so that hunks read "@@ -1,2 +1,3 @@": with
	 * "@@ -1 +1,2 @@" patchid_text() takes the count of the new side
	 * for the old one and hashes format-patch's "-- " signature too.
	 */
	sh(f, "git init -q -b master && mkdir -p fs/ext4 && "
	   "for n in a b c d; do printf 'one\\ntwo\\n' >fs/ext4/$n.c; done && "
	   "git add . && git commit -q -m 'the code' && git tag v6.6 && "
	   "git branch linux-6.6.y");
	sh(f, "echo s1 >>fs/ext4/a.c && git commit -q -a -m 'ext4: fix s1' -m "
	   "'Link: https://lore.kernel.org/r/s1@example.org' && git tag s1");
	sh(f, "echo s2 >>fs/ext4/b.c && git commit -q -a -m 'ext4: fix s2' && "
	   "git tag s2");
	sh(f, "echo s3 >>fs/ext4/c.c && git commit -q -a -m 'ext4: fix s3' && "
	   "git tag s3");
	sh(f, "echo s4 >>fs/ext4/d.c && git commit -q -a -m 'ext4: fix s4' && "
	   "git tag s4");

	/* The archive: the mails above, then 2/3's body as git made it. */
	strbuf_addf(&sb, "%s/list.mbox", f->dir);
	fp = fopen(sb.buf, "w");
	assert_non_null(fp);
	assert_int_equal(fputs(list_head, fp) >= 0, 1);
	assert_int_equal(fclose(fp), 0);
	sh(f, "git format-patch -1 --stdout s2 | sed '1,/^$/d' >>list.mbox");

	assert_true(git_libgit2_init() > 0);
	assert_int_equal(git_repository_open(&f->repo, f->dir), 0);
	ruleset_init(&f->rules);
	assert_int_equal(ruleset_load_buffer(&f->rules, "t.rules", rs,
					     strlen(rs)), 0);
	testrepo_load_backports(&f->rules);
	branch_index_init(&f->branch);
	{
		git_oid tip = rev(f, "master");

		assert_int_equal(branch_index_build(&f->branch, f->repo,
						    "linux-6.6.y", &tip,
						    &f->rules), 0);
		scan_init(&f->scan, f->repo, &f->rules);
		scan_set_range_oids(&f->scan, &f->branch.base, &tip,
				    "v6.6..master");
	}
	assert_int_equal(scan_run(&f->scan), 0);
	assert_int_equal(f->scan.candidates.nr, 4);
	patchid_cache_init(&f->patchids, "");
	archive_init(&f->archive, NULL);
	assert_int_equal(archive_add(&f->archive, sb.buf), 0);
	archive_finish(&f->archive);
	assert_int_equal(f->archive.nr, 11);
	strbuf_release(&sb);
	assert_int_equal(posted_attach(&f->archive, f->repo, &f->patchids,
				       &f->scan.candidates), 0);
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *f = *state;

	scan_release(&f->scan);
	archive_release(&f->archive);
	patchid_cache_release(&f->patchids);
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

static void test_found(void **state)
{
	struct fixture *f = *state;
	const struct posted *p;
	char *link;

	p = cand(f, "s1")->posted;
	assert_non_null(p);
	assert_int_equal(p->how, POSTED_BY_LINK);
	assert_string_equal(posted_how_name(p->how), "link");
	assert_string_equal(p->msg->message_id, "s1@example.org");
	/* A subject a gateway mangled: the change is the same. */
	p = cand(f, "s2")->posted;
	assert_non_null(p);
	assert_int_equal(p->how, POSTED_BY_PATCH_ID);
	assert_string_equal(posted_how_name(p->how), "patch-id");
	assert_string_equal(p->msg->message_id, "s2@example.org");
	/* Another change, the same subject: the mainline posting wins. */
	p = cand(f, "s3")->posted;
	assert_non_null(p);
	assert_int_equal(p->how, POSTED_BY_SUBJECT);
	assert_string_equal(posted_how_name(p->how), "subject");
	assert_string_equal(p->msg->message_id, "s3main@example.org");
	assert_int_equal(p->total, 0);
	assert_null(p->cover);
	assert_int_equal(p->nr_mates, 0);
	/* Its subject, but from someone else: not its patch. */
	assert_null(cand(f, "s4")->posted);
	assert_true(cand(f, "s4")->archive_searched);

	link = posted_link("s1@example.org");
	assert_string_equal(link, "https://lore.kernel.org/r/s1@example.org");
	free(link);
}

static void test_series(void **state)
{
	struct fixture *f = *state;
	const struct posted *p = cand(f, "s1")->posted;

	assert_non_null(p);
	assert_int_equal(p->position, 1);
	assert_int_equal(p->total, 3);
	assert_int_equal(p->revision, 1);
	assert_non_null(p->cover);
	assert_string_equal(p->cover->message_id, "cover@example.org");
	assert_ptr_equal(p->first, p->cover);
	assert_string_equal(p->series_subject, "ext4: three fixes");
	/* The greeting skipped, the lines joined. */
	assert_string_equal(p->cover_paragraph, "These fix three bugs in ext4.");
	/* v2 of the series, named by its cover letter. */
	assert_int_equal(p->latest_revision, 2);
	assert_non_null(p->latest);
	assert_string_equal(p->latest->message_id, "v2cover@example.org");
	/* The mangled 2/3 is a mate all the same: by number, in the thread. */
	assert_int_equal(p->nr_mates, 2);
	assert_string_equal(p->mates[0].msg->message_id, "s2@example.org");
	assert_int_equal(p->mates[0].msg->number, 2);
	assert_string_equal(p->mates[1].msg->message_id, "s9@example.org");
	assert_int_equal(cand(f, "s2")->posted->position, 2);
	assert_ptr_equal(cand(f, "s2")->posted->cover, p->cover);
}

static void test_replies(void **state)
{
	struct fixture *f = *state;
	const struct posted *p = cand(f, "s1")->posted;
	const struct posted *p2 = cand(f, "s2")->posted;
	size_t i;

	assert_non_null(p);
	/* Bob's to the patch, Carol's to the cover; not Dave's, to 2/3. */
	assert_int_equal(p->nr_replies, 2);
	for (i = 0; i < p->nr_replies; i++) {
		const struct posted_reply *r = &p->replies[i];

		if (!strcmp(r->msg->message_id, "bob@example.org")) {
			assert_false(r->to_cover);
			/* No quote, attribution or signature. */
			assert_string_equal(r->text, "NAK, this breaks things.");
		} else {
			assert_string_equal(r->msg->message_id, "carol@example.org");
			assert_true(r->to_cover);
			assert_string_equal(r->text, "Looks good.");
		}
	}
	/* 2/3 has Dave's, and Carol's to the cover, not Bob's. */
	assert_int_equal(p2->nr_replies, 2);
	for (i = 0; i < p2->nr_replies; i++)
		assert_string_not_equal(p2->replies[i].msg->message_id,
					"bob@example.org");
}

static void test_mates(void **state)
{
	struct fixture *f = *state;
	struct patchid_cache ids;
	struct match m;
	const struct posted *p = cand(f, "s1")->posted;

	patchid_cache_init(&ids, "");
	match_init(&m, f->repo, &f->branch, &f->scan, &ids);
	assert_int_equal(match_candidates(&m, &f->scan.candidates,
					  &f->scan.from), 0);
	cand(f, "s2")->verdict = VERDICT_PROPOSED;
	posted_mates(&f->scan.candidates, &m);
	assert_ptr_equal(p->mates[0].cand, cand(f, "s2"));
	assert_string_equal(p->mates[0].status, "proposed");
	assert_null(p->mates[1].cand);
	assert_string_equal(p->mates[1].status, "not-found");
	/* Below the threshold, it is absent. */
	cand(f, "s2")->verdict = VERDICT_BELOW_THRESHOLD;
	posted_mates(&f->scan.candidates, &m);
	assert_string_equal(p->mates[0].status, "absent");
	match_release(&m);
	patchid_cache_release(&ids);
}

/* NAKs, acks and reviews: the reply's own lines, not what it quotes. */
static void test_review_of(void **state)
{
	char *line;

	(void)state;
	assert_int_equal(posted_review_of("On Mon, A wrote:\n> Nacked-by: X <x@y>\n"
					  "> NAK\n\nAcked-by: B <b@y>\n", &line),
			 POSTED_ACKED);
	assert_string_equal(line, "Acked-by: B <b@y>");
	free(line);
	assert_int_equal(posted_review_of("Hi,\n\n  NAK, it breaks 6.6.\n"
					  "Reviewed-by: C <c@y>\n", &line),
			 POSTED_NAKED);
	assert_string_equal(line, "NAK, it breaks 6.6.");
	free(line);
	assert_int_equal(posted_review_of("Reviewed-by: C <c@y>\n\n"
					  "Nacked-by: D <d@y>\n", &line),
			 POSTED_NAKED);
	assert_string_equal(line, "Nacked-by: D <d@y>");
	free(line);
	/* "NAKED" is no NAK, nor is one after the signature. */
	assert_int_equal(posted_review_of("NAKED truth.\n-- \nNAK\n", &line),
			 POSTED_SILENT);
	assert_null(line);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_found, setup, teardown),
		cmocka_unit_test_setup_teardown(test_series, setup, teardown),
		cmocka_unit_test_setup_teardown(test_replies, setup, teardown),
		cmocka_unit_test_setup_teardown(test_mates, setup, teardown),
		cmocka_unit_test(test_review_of),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
