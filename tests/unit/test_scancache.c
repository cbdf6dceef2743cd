/* Unit tests for the scan cache: what is saved is what is loaded. */
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

#include "capture.h"
#include "store/scancache.h"
#include "base/strbuf.h"
#include "base/util.h"

static char dir[4096];

static void oid(git_oid *id, unsigned char n)
{
	memset(id, 0, sizeof(*id));
	id->id[0] = n;
	id->id[19] = 0x5a;
}

/* A memo of key k from 1 to 2, with two hits and a range of three. */
static struct scan_memo *memo(unsigned char k)
{
	struct scan_memo *m = scan_memo_new();
	struct scan_memo_hit *h;

	memset(m->key, k, sizeof(m->key));
	m->has_from = 1;
	oid(&m->from, 1);
	oid(&m->to, 2);
	m->walked = 3;
	m->merges = 1;
	m->left_out = 4;
	m->reaches_from = 1;
	ALLOC_GROW(m->hits, m->nr_hits, m->alloc_hits);
	h = &m->hits[m->nr_hits++];
	memset(h, 0, sizeof(*h));
	oid(&h->id, 10);
	h->settled = 1;
	h->release = (int32_t)scan_memo_tag(m, "v6.7");
	h->rc = (int32_t)scan_memo_tag(m, "v6.7-rc2");
	h->touched = xcalloc(2, sizeof(*h->touched));
	h->touched[h->nr_touched++] = scan_memo_name(m, "xfs");
	h->touched[h->nr_touched++] = scan_memo_name(m, "fs/reiserfs/");
	h->has_pathkey = 1;
	memset(h->pathkey, 0xab, sizeof(h->pathkey));
	h->paths_known = 1;
	h->paths = xcalloc(2, sizeof(*h->paths));
	h->paths[h->nr_paths++] = xstrdup("fs/xfs/xfs_log.c");
	h->paths[h->nr_paths++] = xstrdup("fs/reiserfs/super.c");
	h->old_paths = xcalloc(1, sizeof(*h->old_paths));
	h->old_paths[h->nr_old_paths++] = xstrdup("fs/xfs/xfs_log.c");
	h->author = xstrdup("A U Thor <author@example.com>");
	h->time = INT64_C(0x1234567890);	/* past 2038: both halves */
	h->tz_offset = -330;
	h->raw = xstrdup("xfs: fix the log\n\nCc: stable@vger.kernel.org\n");
	ALLOC_GROW(m->hits, m->nr_hits, m->alloc_hits);
	h = &m->hits[m->nr_hits++];
	memset(h, 0, sizeof(*h));
	oid(&h->id, 11);
	h->release = h->rc = -1;
	ALLOC_GROW(m->range, m->nr_range, m->alloc_range);
	oid(&m->range[m->nr_range++], 10);
	ALLOC_GROW(m->range, m->nr_range, m->alloc_range);
	oid(&m->range[m->nr_range++], 11);
	ALLOC_GROW(m->range, m->nr_range, m->alloc_range);
	oid(&m->range[m->nr_range++], 12);
	return m;
}

static char *cache_path(const char *name)
{
	return xstrfmt("%s/%s", dir, name);
}

static void test_round_trip(void **state)
{
	unsigned char key[SHA1_RAWSZ];
	const struct scancache_base *b;
	const struct scan_memo *m;
	struct scancache c;
	struct stat st1, st2;
	char *path = cache_path("round-trip");
	git_oid from, id;

	(void)state;
	scancache_init(&c, path);
	scancache_load(&c);		/* no file: empty */
	assert_int_equal(c.nr, 0);
	scancache_put(&c, memo(7));
	oid(&id, 30);
	scancache_put_base(&c, "linux-6.6.y", &id, 1234);
	assert_int_equal(scancache_save(&c), 0);
	scancache_release(&c);

	scancache_init(&c, path);
	scancache_load(&c);
	memset(key, 7, sizeof(key));
	oid(&from, 1);
	m = scancache_find(&c, key, &from);
	assert_non_null(m);
	assert_null(scancache_find(&c, key, NULL));
	assert_int_equal(m->walked, 3);
	assert_int_equal(m->merges, 1);
	assert_int_equal(m->left_out, 4);
	assert_true(m->reaches_from);
	assert_int_equal(m->nr_hits, 2);
	assert_true(m->hits[0].settled);
	assert_string_equal(m->tags[m->hits[0].release], "v6.7");
	assert_string_equal(m->tags[m->hits[0].rc], "v6.7-rc2");
	assert_int_equal(m->hits[0].nr_touched, 2);
	assert_string_equal(m->names[m->hits[0].touched[1]], "fs/reiserfs/");
	assert_true(m->hits[0].has_pathkey);
	assert_int_equal(m->hits[0].pathkey[5], 0xab);
	assert_int_equal(m->hits[0].nr_paths, 2);
	assert_string_equal(m->hits[0].paths[1], "fs/reiserfs/super.c");
	assert_int_equal(m->hits[0].nr_old_paths, 1);
	assert_string_equal(m->hits[0].author, "A U Thor <author@example.com>");
	assert_true(m->hits[0].time == INT64_C(0x1234567890));
	assert_int_equal(m->hits[0].tz_offset, -330);
	assert_string_equal(m->hits[0].raw,
			    "xfs: fix the log\n\nCc: stable@vger.kernel.org\n");
	/* A hit without its text (none in a scan's memo) reads back empty. */
	assert_string_equal(m->hits[1].author, "");
	assert_string_equal(m->hits[1].raw, "");
	assert_false(m->hits[1].settled);
	assert_int_equal(m->hits[1].release, -1);
	assert_int_equal(m->nr_range, 3);
	oid(&id, 12);
	assert_true(scan_memo_in_range(m, &id));
	oid(&id, 13);
	assert_false(scan_memo_in_range(m, &id));
	b = scancache_find_base(&c, "linux-6.6.y");
	assert_non_null(b);
	assert_int_equal(b->nr_commits, 1234);
	assert_int_equal(b->base.id[0], 30);
	assert_null(scancache_find_base(&c, "linux-6.1.y"));

	/* Nothing changed: the file is not written again. */
	assert_int_equal(stat(path, &st1), 0);
	sleep(1);
	assert_int_equal(scancache_save(&c), 0);
	assert_int_equal(stat(path, &st2), 0);
	assert_int_equal(st1.st_mtime, st2.st_mtime);
	assert_int_equal(st1.st_ino, st2.st_ino);
	scancache_release(&c);
	unlink(path);
	free(path);
}

/*
 * A file cut short, with a flipped byte, a foreign magic or another
 * version: the one warning of the cache files, an empty cache, and a
 * save that rebuilds it.
 */
static void test_bad_files(void **state)
{
	static const char *const damage[] = {
		"truncated", "flipped", "magic", "version",
	};
	static const char *const why[] = {
		"checksum mismatch (corrupt)", "checksum mismatch (corrupt)",
		"not a stablepick scan cache",
		"written by another version of stablepick",
	};
	char *path = cache_path("bad");
	struct strbuf sb = STRBUF_INIT;
	struct scancache c;
	struct capture cap;
	size_t i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(damage); i++) {
		char *err, *expect;
		FILE *f;

		scancache_init(&c, path);
		scancache_put(&c, memo(9));
		assert_int_equal(scancache_save(&c), 0);
		scancache_release(&c);
		strbuf_reset(&sb);
		assert_int_equal(strbuf_read_file(&sb, path), 0);
		if (!strcmp(damage[i], "truncated"))
			sb.len -= 30;
		else if (!strcmp(damage[i], "flipped"))
			sb.buf[sb.len / 2] ^= 1;
		else if (!strcmp(damage[i], "magic"))
			sb.buf[0] = 'X';
		else
			sb.buf[16 + 3] = SCANCACHE_VERSION + 1;
		f = fopen(path, "wb");
		assert_non_null(f);
		assert_int_equal(fwrite(sb.buf, 1, sb.len, f), sb.len);
		fclose(f);

		/* Not trusted: a warning, and an empty cache. */
		scancache_init(&c, path);
		capture_begin(&cap);
		scancache_load(&c);
		err = capture_end(&cap);
		expect = xstrfmt("warning: ignoring scan cache '%s': %s; it "
				 "will be rebuilt\n", path, why[i]);
		assert_string_equal(err, expect);
		free(expect);
		free(err);
		assert_int_equal(c.nr, 0);
		assert_int_equal(c.nr_bases, 0);

		/* Rebuilt: the next save writes a file that loads. */
		scancache_put(&c, memo(9));
		assert_int_equal(scancache_save(&c), 0);
		scancache_release(&c);
		scancache_init(&c, path);
		capture_begin(&cap);
		scancache_load(&c);
		err = capture_end(&cap);
		assert_string_equal(err, "");
		free(err);
		assert_int_equal(c.nr, 1);
		scancache_release(&c);
	}
	strbuf_release(&sb);
	unlink(path);
	free(path);
}

static void test_newest_kept(void **state)
{
	unsigned char key[SHA1_RAWSZ];
	struct scancache c;
	git_oid from;
	unsigned char k;

	(void)state;
	scancache_init(&c, "");
	for (k = 1; k <= SCANCACHE_MAX + 2; k++)
		scancache_put(&c, memo(k));
	assert_int_equal(c.nr, SCANCACHE_MAX);
	oid(&from, 1);
	memset(key, 1, sizeof(key));
	assert_null(scancache_find(&c, key, &from));
	memset(key, SCANCACHE_MAX + 2, sizeof(key));
	assert_non_null(scancache_find(&c, key, &from));
	/* The same key and from again: replaced, not added. */
	scancache_put(&c, memo(SCANCACHE_MAX + 2));
	assert_int_equal(c.nr, SCANCACHE_MAX);
	scancache_release(&c);
}

/*
 * The subjects looked up in mainline: kept by tip and subject, found or
 * not, across a save; those of the oldest tips dropped.
 */
static void test_subjects(void **state)
{
	const struct scancache_subject *s;
	struct scancache c;
	char *path = cache_path("subjects");
	git_oid tip, id;
	unsigned char t;

	(void)state;
	scancache_init(&c, path);
	oid(&tip, 40);
	oid(&id, 41);
	scancache_put_subject(&c, &tip, "xfs: add the log", &id);
	scancache_put_subject(&c, &tip, "xfs: never was", NULL);
	assert_int_equal(scancache_save(&c), 0);
	scancache_release(&c);

	scancache_init(&c, path);
	scancache_load(&c);
	s = scancache_find_subject(&c, &tip, "xfs: add the log");
	assert_non_null(s);
	assert_true(s->found);
	assert_true(git_oid_equal(&s->id, &id));
	s = scancache_find_subject(&c, &tip, "xfs: never was");
	assert_non_null(s);
	assert_false(s->found);
	assert_null(scancache_find_subject(&c, &tip, "xfs: add the"));
	oid(&id, 42);
	assert_null(scancache_find_subject(&c, &id, "xfs: add the log"));

	/* A tip more than SCANCACHE_MAX_TIPS: the oldest one's go. */
	for (t = 0; t < SCANCACHE_MAX_TIPS; t++) {
		oid(&id, 50 + t);
		scancache_put_subject(&c, &id, "xfs: add the log", NULL);
	}
	assert_null(scancache_find_subject(&c, &tip, "xfs: add the log"));
	assert_null(scancache_find_subject(&c, &tip, "xfs: never was"));
	oid(&id, 50);
	assert_non_null(scancache_find_subject(&c, &id, "xfs: add the log"));
	assert_int_equal(c.nr_subjects, SCANCACHE_MAX_TIPS);
	scancache_release(&c);
	unlink(path);
	free(path);
}

static int setup(void **state)
{
	const char *tmp = getenv("TMPDIR");

	(void)state;
	snprintf(dir, sizeof(dir), "%s/test_scancache.XXXXXX",
		 tmp && *tmp ? tmp : "/tmp");
	return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **state)
{
	(void)state;
	return rmdir(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_round_trip),
		cmocka_unit_test(test_bad_files),
		cmocka_unit_test(test_newest_kept),
		cmocka_unit_test(test_subjects),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
