/*
 * Unit tests for the list archive index (archive.h) on mbox files: the
 * fields of each message, threads and lookups, reading a message again,
 * the cache (round trip, growth, damage), and a file that changes under
 * the reader.  The public-inbox and maildir readers are covered end to
 * end by tests/e2e/archive.sh.
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

#include "formats/archive.h"
#include "base/cachefile.h"
#include "capture.h"
#include "base/strbuf.h"
#include "base/util.h"

#define FROM_ "From alice@example.org Tue Nov 14 22:13:20 2023\n"

/* A cover letter, a patch answering it, and a review of the patch. */
static const char list[] =
	FROM_
	"From: Alice <Alice@Example.org>\n"
	"Date: Tue, 14 Nov 2023 22:13:20 +0000\n"
	"Subject: [PATCH v2 0/1] xfs: log fixes\n"
	"Message-ID: <cover@example.org>\n"
	"\n"
	"Why.\n"
	"\n"
	FROM_
	"From: Alice <Alice@Example.org>\n"
	"Date: Tue, 14 Nov 2023 22:13:21 +0000\n"
	"Subject: [PATCH v2 1/1] xfs: fix a leak\n"
	"Message-ID: <patch@example.org>\n"
	"In-Reply-To: <cover@example.org>\n"
	"References: <cover@example.org>\n"
	"\n"
	"The fix.\n"
	"---\n"
	"diff --git a/fs/xfs/a.c b/fs/xfs/a.c\n"
	"--- a/fs/xfs/a.c\n"
	"+++ b/fs/xfs/a.c\n"
	"@@ -1 +1 @@\n"
	"-int a;\n"
	"+int b;\n"
	"\n"
	FROM_
	"From: Bob <bob@example.org>\n"
	"Date: Wed, 15 Nov 2023 00:00:00 +0100\n"
	"Subject: Re: [PATCH v2 1/1] xfs: fix a leak\n"
	"Message-ID: <reply@example.org>\n"
	"In-Reply-To: <patch@example.org>\n"
	"\n"
	"Nacked-by: Bob <bob@example.org>\n";

struct fixture {
	char dir[64];
	char *mbox, *cache;
};

static void write_file(const char *path, const char *text, const char *mode)
{
	FILE *f = fopen(path, mode);

	assert_non_null(f);
	assert_int_equal(fwrite(text, 1, strlen(text), f), strlen(text));
	assert_int_equal(fclose(f), 0);
}

static int setup(void **state)
{
	struct fixture *fx = xcalloc(1, sizeof(*fx));

	strcpy(fx->dir, "/tmp/test_archive.XXXXXX");
	assert_non_null(mkdtemp(fx->dir));
	fx->mbox = xstrfmt("%s/list.mbox", fx->dir);
	fx->cache = xstrfmt("%s/cache", fx->dir);
	write_file(fx->mbox, list, "w");
	*state = fx;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *fx = *state;
	char *cmd = xstrfmt("rm -rf '%s'", fx->dir);

	assert_int_equal(system(cmd), 0);
	free(cmd);
	free(fx->mbox);
	free(fx->cache);
	free(fx);
	return 0;
}

static void test_fields(void **state)
{
	struct fixture *fx = *state;
	const struct archive_bucket *b;
	struct archive_msg *m;
	struct archive a;

	archive_init(&a, NULL);
	assert_int_equal(archive_add(&a, fx->mbox), 0);
	archive_finish(&a);
	assert_int_equal(a.nr, 3);
	assert_int_equal(a.sources[0].kind, ARCHIVE_MBOX);

	m = archive_find(&a, "cover@example.org");
	assert_non_null(m);
	assert_string_equal(m->title, "xfs: log fixes");
	assert_int_equal(m->number, 0);
	assert_int_equal(m->total, 1);
	assert_int_equal(m->revision, 2);
	assert_string_equal(m->email, "alice@example.org");
	assert_int_equal(m->time, 1700000000);
	assert_false(m->has_patch_id);
	assert_string_equal(m->thread, "cover@example.org");

	m = archive_find(&a, "patch@example.org");
	assert_non_null(m);
	assert_int_equal(m->number, 1);
	assert_true(m->has_patch_id);
	assert_string_equal(m->thread, "cover@example.org");

	/* No References: the thread is found up the In-Reply-To chain. */
	m = archive_find(&a, "reply@example.org");
	assert_non_null(m);
	assert_true(m->is_reply);
	assert_false(m->has_patch_id);
	assert_int_equal(m->time, 1700002800);
	assert_string_equal(m->thread, "cover@example.org");

	b = archive_bucket(a.by_thread, "cover@example.org");
	assert_non_null(b);
	assert_int_equal(b->nr, 3);
	b = archive_bucket(a.by_title, "xfs: fix a leak");
	assert_non_null(b);
	assert_int_equal(b->nr, 1);		/* replies are not patches */
	b = archive_bucket(a.by_email, "alice@example.org");
	assert_non_null(b);
	assert_int_equal(b->nr, 2);
	/* By date: the window of a sender's mails is a binary search. */
	assert_true(b->items[0]->time < b->items[1]->time);
	assert_int_equal(archive_since(b, 0), 0);
	assert_int_equal(archive_since(b, 1700000000), 1);
	assert_int_equal(archive_since(b, 1700000001), 2);
	assert_null(archive_find(&a, "nowhere@example.org"));
	archive_release(&a);
}

static void test_read_again(void **state)
{
	struct fixture *fx = *state;
	struct mbox mb = MBOX_INIT;
	struct capture cap;
	struct archive a;
	char *err;

	archive_init(&a, NULL);
	assert_int_equal(archive_add(&a, fx->mbox), 0);
	archive_finish(&a);
	assert_int_equal(archive_read(&a, archive_find(&a, "reply@example.org"),
				      &mb), 0);
	assert_int_equal(mb.nr, 1);
	assert_string_equal(mb.msgs[0].body, "Nacked-by: Bob <bob@example.org>\n");
	mbox_release(&mb);

	/* The file cut short under the reader: an error, not a crash. */
	assert_int_equal(truncate(fx->mbox, 100), 0);
	capture_begin(&cap);
	assert_int_equal(archive_read(&a, archive_find(&a, "reply@example.org"),
				      &mb), -1);
	err = capture_end(&cap);
	assert_non_null(strstr(err, "cannot read message <reply@example.org> of '"));
	assert_non_null(strstr(err, "': the file changed\n"));
	free(err);
	mbox_release(&mb);
	archive_release(&a);
}

/* Adds the mbox to a fresh index with the cache; how many were read. */
static size_t read_with_cache(struct fixture *fx, char **err)
{
	struct capture cap;
	struct archive a;
	size_t nr;

	archive_init(&a, fx->cache);
	capture_begin(&cap);
	assert_int_equal(archive_add(&a, fx->mbox), 0);
	archive_finish(&a);
	assert_non_null(archive_find(&a, "patch@example.org"));
	archive_save(&a);
	*err = capture_end(&cap);
	nr = a.sources[0].nr_read;
	archive_release(&a);
	return nr;
}

static void test_cache(void **state)
{
	struct fixture *fx = *state;
	struct strbuf sb = STRBUF_INIT;
	char *err, *path, *cmd, line[512];
	size_t i, last_sums = 0, rewrites = 0;
	FILE *p;

	assert_int_equal(read_with_cache(fx, &err), 3);
	assert_string_equal(err, "");
	free(err);
	assert_int_equal(read_with_cache(fx, &err), 0);
	free(err);

	/* Appended: only the new message is read. */
	write_file(fx->mbox, "\n" FROM_ "From: c@example.org\nSubject: late\n"
		   "Message-ID: <late@example.org>\n\nlate\n", "a");
	assert_int_equal(read_with_cache(fx, &err), 1);
	free(err);
	assert_int_equal(read_with_cache(fx, &err), 0);
	free(err);

	/* A flipped byte: a warning naming the file, and all read again. */
	cmd = xstrfmt("ls '%s'/archive-*", fx->cache);
	p = popen(cmd, "r");
	assert_non_null(p);
	assert_non_null(fgets(line, sizeof(line), p));
	pclose(p);
	free(cmd);
	line[strcspn(line, "\n")] = '\0';
	path = xstrdup(line);
	assert_int_equal(strbuf_read_file(&sb, path), 0);
	*strstr(sb.buf, "late@") = 'L';
	write_file(path, sb.buf, "w");
	assert_int_equal(read_with_cache(fx, &err), 4);
	assert_non_null(strstr(err, "warning: ignoring the archive cache '"));
	assert_non_null(strstr(err, "': its checksum does not match\n"));
	free(err);
	assert_int_equal(read_with_cache(fx, &err), 0);
	free(err);

	/* Another version (its checksum right): a warning, all read again. */
	strbuf_reset(&sb);
	assert_int_equal(strbuf_read_file(&sb, path), 0);
	assert_int_equal(strncmp(sb.buf, "stablepick archive cache 2\n", 27), 0);
	sb.buf[25] = '9';
	strbuf_setlen(&sb, (size_t)(strstr(sb.buf, "\nchecksum ") + 1 - sb.buf));
	cachefile_seal(&sb, CACHEFILE_HASH64, NULL);
	write_file(path, sb.buf, "w");
	assert_int_equal(read_with_cache(fx, &err), 4);
	assert_non_null(strstr(err, "warning: ignoring the archive cache '"));
	assert_non_null(strstr(err, "': it is of another version\n"));
	free(err);
	assert_int_equal(read_with_cache(fx, &err), 0);
	free(err);

	/* Cut short (a crash while appending): the same. */
	strbuf_reset(&sb);
	assert_int_equal(strbuf_read_file(&sb, path), 0);
	strbuf_setlen(&sb, sb.len - 5);
	write_file(path, sb.buf, "w");
	assert_int_equal(read_with_cache(fx, &err), 4);
	assert_non_null(strstr(err, "warning: ignoring the archive cache '"));
	assert_non_null(strstr(err, "': it is cut short\n"));
	free(err);
	assert_int_equal(read_with_cache(fx, &err), 0);
	free(err);

	/*
	 * Runs that only add append to the file; one in 33 writes it whole
	 * again, so that it does not grow a checksum line a run for ever.
	 */
	for (i = 0; i < 40; i++) {
		char *text = xstrfmt("\n" FROM_ "From: c@example.org\nSubject: "
				     "n%zu\nMessage-ID: <n%zu@example.org>\n\nx\n",
				     i, i);
		size_t sums = 0;
		const char *q;

		write_file(fx->mbox, text, "a");
		free(text);
		assert_int_equal(read_with_cache(fx, &err), 1);
		free(err);
		strbuf_reset(&sb);
		assert_int_equal(strbuf_read_file(&sb, path), 0);
		for (q = sb.buf; (q = strstr(q, "\nchecksum ")); q++)
			sums++;
		assert_true(sums >= 1 && sums <= 33);
		if (sums < last_sums)
			rewrites++;
		last_sums = sums;
	}
	assert_int_equal(rewrites, 1);
	assert_int_equal(read_with_cache(fx, &err), 0);
	free(err);
	strbuf_release(&sb);
	free(path);
}

static void test_not_an_archive(void **state)
{
	struct fixture *fx = *state;
	struct capture cap;
	struct archive a;
	char *err, *expect;

	archive_init(&a, NULL);
	capture_begin(&cap);
	assert_int_equal(archive_add(&a, fx->dir), -1);
	err = capture_end(&cap);
	expect = xstrfmt("error: '%s' is not an archive: neither a public-inbox "
			 "repository (v2: git/N.git epochs; v1: a git repository), "
			 "a maildir (cur/, new/) nor an mbox file\n", fx->dir);
	assert_string_equal(err, expect);
	free(expect);
	free(err);
	archive_release(&a);
}

/* A mail without a Message-ID cannot be found by one: counted, skipped. */
static void test_no_message_id(void **state)
{
	struct fixture *fx = *state;
	struct archive a;

	write_file(fx->mbox, "\n" FROM_ "Subject: [PATCH] no id\n\nbody\n", "a");
	archive_init(&a, NULL);
	assert_int_equal(archive_add(&a, fx->mbox), 0);
	archive_finish(&a);
	assert_int_equal(a.nr, 3);
	assert_int_equal(a.sources[0].nr_read, 3);
	assert_int_equal(a.sources[0].nr_skipped, 1);
	archive_release(&a);
}

static void test_email(void **state)
{
	char *e;

	(void)state;
	e = archive_email("A. Person <A.Person@Example.ORG>");
	assert_string_equal(e, "a.person@example.org");
	free(e);
	e = archive_email("bare@Example.org");
	assert_string_equal(e, "bare@example.org");
	free(e);
	e = archive_email("no address");
	assert_string_equal(e, "");
	free(e);
	e = archive_email(NULL);
	assert_string_equal(e, "");
	free(e);
}

/*
 * An mbox larger than the pieces it is parsed in: every message found
 * once, wherever the pieces split, and each read again whole.
 */
static void test_large_mbox(void **state)
{
	struct fixture *fx = *state;
	struct strbuf big = STRBUF_INIT, body = STRBUF_INIT;
	struct mbox mb = MBOX_INIT;
	struct archive a;
	size_t i, n = 0;
	FILE *f;

	for (i = 0; i < 60; i++)
		strbuf_addstr(&body, "Some words of a patch mail, as a reviewer writes.\n");
	/* Bodies with "From the ..." after an empty line: not a split. */
	strbuf_addstr(&body, "\nFrom the manual, a quote.\n");
	while (big.len < ((size_t)33 << 20)) {
		strbuf_addf(&big, FROM_ "From: a@example.org\nSubject: [PATCH] m%zu\n"
			    "Message-ID: <m%zu@example.org>\n\n%s\n", n, n, body.buf);
		n++;
	}
	f = fopen(fx->mbox, "w");
	assert_non_null(f);
	assert_int_equal(fwrite(big.buf, 1, big.len, f), big.len);
	assert_int_equal(fclose(f), 0);

	archive_init(&a, NULL);
	assert_int_equal(archive_add(&a, fx->mbox), 0);
	archive_finish(&a);
	assert_int_equal(a.nr, n);
	assert_int_equal(HASH_COUNT(a.by_id), n);
	for (i = 0; i < n; i += n / 7) {
		char *id = xstrfmt("m%zu@example.org", i);
		struct archive_msg *m = archive_find(&a, id);

		assert_non_null(m);
		assert_int_equal(archive_read(&a, m, &mb), 0);
		assert_string_equal(mb.msgs[0].message_id, id);
		assert_non_null(strstr(mb.msgs[0].body, "From the manual"));
		mbox_release(&mb);
		free(id);
	}
	archive_release(&a);
	strbuf_release(&body);
	strbuf_release(&big);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_fields, setup, teardown),
		cmocka_unit_test_setup_teardown(test_read_again, setup, teardown),
		cmocka_unit_test_setup_teardown(test_cache, setup, teardown),
		cmocka_unit_test_setup_teardown(test_not_an_archive, setup, teardown),
		cmocka_unit_test_setup_teardown(test_no_message_id, setup, teardown),
		cmocka_unit_test(test_email),
		cmocka_unit_test_setup_teardown(test_large_mbox, setup, teardown),
	};

	git_libgit2_init();
	return cmocka_run_group_tests(tests, NULL, NULL);
}
