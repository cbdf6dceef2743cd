/*
 * Fuzz target: the index of a list archive as its cache file keeps it
 * between runs (archive.c's cache_load(), then the backend that reads
 * what is new from the state lines the cache holds).
 *
 * Two small archives are made once: an mbox and a maildir, each of
 * two messages (the maildir also holds what is no message and is
 * never read: a symbolic link to /dev/zero, one to a file, a FIFO).
 * The first byte of the input picks one (bit 0: the maildir) and says
 * how the rest is written as that archive's cache file: bit 1 puts the
 * first two lines a run writes ahead of it (the header and "source
 * KIND PATH", which a fuzzer cannot guess, as the path is this
 * process's), bit 2 seals it with the checksum the reader expects.  The mbox's size and modification time are fixed, so that
 * a state line "mbox 779 1700000000.000000000 ..." of the corpus
 * matches it and the messages come from the cache alone.
 *
 * Nothing a cache holds may crash the reader: a damaged one is a
 * warning and the archive is read again.  What is checked: each
 * message read has an id and a place; and what a run saves, the next
 * run reads back the same (as many messages, each found by its id).
 */
#include "fuzz.h"
#include "formats/archive.h"
#include "base/cachefile.h"
#include "formats/mbox.h"
#include "base/strbuf.h"
#include "base/util.h"

#include <errno.h>
#include <fcntl.h>
#include <git2.h>
#include <limits.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static char dir[PATH_MAX], cache_dir[PATH_MAX + 8];
static char *paths[2], *kinds[2], *cache_paths[2];

static const char msg1[] =
	"From: Ann Author <ann@example.org>\n"
	"To: linux-xfs@vger.kernel.org\n"
	"Subject: [PATCH 6.6 1/2] xfs: fix the log recovery of a unit\n"
	"Date: Tue, 14 Nov 2023 22:13:20 +0000\n"
	"Message-ID: <20231114221320.1-1-ann@example.org>\n"
	"\n"
	"commit 0123456789abcdef0123456789abcdef01234567 upstream.\n"
	"\n"
	"---\n"
	"diff --git a/fs/xfs/a.c b/fs/xfs/a.c\n"
	"--- a/fs/xfs/a.c\n"
	"+++ b/fs/xfs/a.c\n"
	"@@ -1 +1 @@\n"
	"-old\n"
	"+new\n";

static const char msg2[] =
	"From: Bob Reviewer <bob@example.org>\n"
	"Subject: Re: [PATCH 6.6 1/2] xfs: fix the log recovery of a unit\n"
	"Date: Wed, 15 Nov 2023 08:00:00 +0100\n"
	"Message-ID: <87a.fsf@example.org>\n"
	"In-Reply-To: <20231114221320.1-1-ann@example.org>\n"
	"References: <20231114221320.1-1-ann@example.org>\n"
	"\n"
	"Acked-by: Bob Reviewer <bob@example.org>\n";

static void write_path(const char *path, const char *buf, size_t len)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);

	FUZZ_CHECK(fd >= 0);
	FUZZ_CHECK(!write_in_full(fd, buf, len));
	FUZZ_CHECK(!close(fd));
}

/* The archives and the cache go when the process does. */
static void clean_up(void)
{
	static const char *const files[] = {
		"Maildir/cur/1700000000.1.host:2,S", "Maildir/new/1700000001.2.host",
		"Maildir/cur/1700000002.zero.host:2,S",
		"Maildir/cur/1700000003.secret.host:2,S",
		"Maildir/new/1700000004.fifo.host", "secret",
		"Maildir/cur", "Maildir/new", "Maildir/tmp", "Maildir",
		"list.mbox",
	};
	size_t i;

	for (i = 0; i < 2; i++)
		if (cache_paths[i])
			unlink(cache_paths[i]);
	rmdir(cache_dir);
	for (i = 0; i < ARRAY_SIZE(files); i++) {
		char *p = xstrfmt("%s/%s", dir, files[i]);

		if (remove(p) < 0 && errno != ENOENT)
			dprintf(2, "cannot remove %s: %s\n", p, strerror(errno));
		free(p);
	}
	rmdir(dir);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	const char *tmp = getenv("TMPDIR");
	struct strbuf sb = STRBUF_INIT;
	struct timespec times[2] = {{1700000000, 0}, {1700000000, 0}};
	char real[PATH_MAX];
	int i;

	fuzz_quiet();
	git_libgit2_init();
	snprintf(dir, sizeof(dir), "%s/stablepick-fuzz-archive-%ld",
		 tmp && *tmp && strlen(tmp) < 200 ? tmp : "/tmp", (long)getpid());
	FUZZ_CHECK(!mkdir(dir, 0700) || errno == EEXIST);
	FUZZ_CHECK(realpath(dir, real));
	snprintf(cache_dir, sizeof(cache_dir), "%s/cache", real);
	FUZZ_CHECK(!mkdir(cache_dir, 0700) || errno == EEXIST);

	paths[0] = xstrfmt("%s/list.mbox", real);
	strbuf_addf(&sb, "From ann@example.org Tue Nov 14 22:13:20 2023\n%s\n",
		    msg1);
	strbuf_addf(&sb, "From bob@example.org Wed Nov 15 07:00:00 2023\n%s\n",
		    msg2);
	write_path(paths[0], sb.buf, sb.len);
	FUZZ_CHECK(!utimensat(AT_FDCWD, paths[0], times, 0));
	strbuf_release(&sb);

	paths[1] = xstrfmt("%s/Maildir", real);
	FUZZ_CHECK(!mkdir(paths[1], 0700) || errno == EEXIST);
	for (i = 0; i < 3; i++) {
		static const char *const sub[] = { "cur", "new", "tmp" };
		char *p = xstrfmt("%s/%s", paths[1], sub[i]);

		FUZZ_CHECK(!mkdir(p, 0700) || errno == EEXIST);
		free(p);
	}
	{
		char *p = xstrfmt("%s/cur/1700000000.1.host:2,S", paths[1]);

		write_path(p, msg1, sizeof(msg1) - 1);
		free(p);
		p = xstrfmt("%s/new/1700000001.2.host", paths[1]);
		write_path(p, msg2, sizeof(msg2) - 1);
		free(p);
	}
	/*
	 * What is no message is never read, first or again (a cache may
	 * list its name): a link to /dev/zero, a link to a file of the
	 * user's, a FIFO.
	 */
	{
		char *p = xstrfmt("%s/cur/1700000002.zero.host:2,S", paths[1]);
		char *secret = xstrfmt("%s/secret", real);

		FUZZ_CHECK(!symlink("/dev/zero", p) || errno == EEXIST);
		free(p);
		write_path(secret, msg1, sizeof(msg1) - 1);
		p = xstrfmt("%s/cur/1700000003.secret.host:2,S", paths[1]);
		FUZZ_CHECK(!symlink(secret, p) || errno == EEXIST);
		free(p);
		free(secret);
		p = xstrfmt("%s/new/1700000004.fifo.host", paths[1]);
		FUZZ_CHECK(!mkfifo(p, 0600) || errno == EEXIST);
		free(p);
	}
	kinds[0] = "mbox";
	kinds[1] = "maildir";
	for (i = 0; i < 2; i++)
		cache_paths[i] = archive_cache_path(cache_dir, paths[i]);
	atexit(clean_up);
	return 0;
}

/* The messages of the one archive of a: how many, each checked. */
static size_t count(struct archive *a)
{
	size_t i, nr = 0;

	for (i = 0; i < a->nr; i++) {
		const struct archive_msg *m = a->msgs[i];

		if (m->removed)
			continue;
		FUZZ_CHECK(m->message_id && m->where && m->from && m->email &&
			   m->subject && m->title);
		nr++;
	}
	return nr;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct strbuf sb = STRBUF_INIT;
	struct archive a, again;
	size_t which, nr, i;
	int ret;

	if (!size)
		return 0;
	which = data[0] & 1;
	if (data[0] & 2) {
		cachefile_add_header(&sb, ARCHIVE_CACHE_MAGIC,
				     ARCHIVE_CACHE_VERSION);
		strbuf_addf(&sb, "source %s %s\n", kinds[which], paths[which]);
	}
	strbuf_add(&sb, data + 1, size - 1);
	if (data[0] & 4)
		cachefile_seal(&sb, CACHEFILE_HASH64, NULL);
	write_path(cache_paths[which], sb.buf, sb.len);
	strbuf_release(&sb);

	archive_init(&a, cache_dir);
	ret = archive_add(&a, paths[which]);
	FUZZ_CHECK(!ret);
	archive_finish(&a);
	nr = count(&a);
	/* Each message again, whole, from the place the cache gives. */
	for (i = 0; i < a.nr && i < 8; i++) {
		struct mbox mb = MBOX_INIT;

		if (!a.msgs[i]->removed)
			(void)archive_read(&a, a.msgs[i], &mb);
		mbox_release(&mb);
	}
	(void)archive_save(&a);

	/* What was saved reads back the same. */
	archive_init(&again, cache_dir);
	FUZZ_CHECK(!archive_add(&again, paths[which]));
	archive_finish(&again);
	FUZZ_CHECK(count(&again) == nr);
	for (i = 0; i < a.nr; i++)
		if (!a.msgs[i]->removed)
			FUZZ_CHECK(archive_find(&again, a.msgs[i]->message_id));
	archive_release(&again);
	archive_release(&a);
	unlink(cache_paths[which]);
	return 0;
}
