#ifndef ARCHIVE_H
#define ARCHIVE_H

#include <git2.h>
#include <stdint.h>
#include <uthash.h>

#include "base/cachefile.h"
#include "formats/mbox.h"
#include "base/strbuf.h"

/*
 * A local copy of mailing-list archives, indexed by Message-ID and by
 * thread, read without network access:
 *
 *   public-inbox v2   a directory with git/0.git, git/1.git, ... (the
 *                     epochs): each commit holds one message as the
 *                     blob "m" (or, to remove one, the blob "d")
 *   public-inbox v1   one git repository: each commit adds a message
 *                     as a blob at a path made of the SHA-1 of its
 *                     Message-ID, or deletes one
 *   maildir           a directory with cur/ and new/, a file a message
 *   mbox              a file (see mbox.h), plain or gzip (as lore's
 *                     t.mbox.gz)
 *
 *     struct archive a;
 *     archive_init(&a, cache_dir);             NULL: no cache
 *     if (archive_add(&a, path) < 0)           for each archive
 *             ... error printed ...
 *     archive_finish(&a);                      threads, lookups
 *     m = archive_find(&a, "20231012123456.123-3-a@host");
 *     archive_read(&a, m, &mb);                the message again, whole
 *     archive_save(&a);                        the caches
 *     archive_release(&a);
 *
 * The index keeps the headers of every message (ids, sender, subject,
 * date, the patch-id of a posted patch), not its body: archive_read()
 * reads a message again from where it is, when its text is wanted (a
 * cover letter, a review reply).
 *
 * The cache
 *
 * Indexing a list's archive takes a while, so each archive's index is
 * kept in a file of its own in the cache directory, "archive-" and 16
 * hex digits of the SHA-1 of its absolute path, and only what is new
 * is read the next time: the commits of each epoch after the tip the
 * cache saw (a history rewritten since, as public-inbox-purge does, is
 * read again whole), the bytes appended to an mbox (when those before
 * are unchanged; nothing when its size and modification time are those
 * the cache saw), the files of a maildir not seen before.  The file is
 * text: a first line "stablepick archive cache 2", a line "source KIND
 * PATH", lines of state ("epoch N TIP", "tip TIP", "mbox SIZE
 * MTIME LENGTH HASH"), one line per message ("m" and tab-separated fields),
 * and a last line "checksum <a 64-bit hash of all the lines before it,
 * in hex>".  A run that only adds messages appends them, with the state
 * (a later state line overrides an earlier one) and a new checksum line,
 * rather than writing the file again; after a removal, or 32 appends,
 * the file is written whole again.  A file that does not
 * check out is not trusted: a warning names it and the archive is read
 * again.
 */
#define ARCHIVE_CACHE_MAGIC "stablepick archive cache"
#define ARCHIVE_CACHE_VERSION 2

enum archive_kind {
	ARCHIVE_PI_V2,
	ARCHIVE_PI_V1,
	ARCHIVE_MAILDIR,
	ARCHIVE_MBOX,
};

struct archive_msg {
	char *message_id;		/* without <> */
	char *in_reply_to;		/* or NULL */
	char *first_ref;		/* the first id of References, or NULL */
	char *from;			/* "Name <addr>", decoded, or "" */
	char *email;			/* the address, lower case, or "" */
	char *subject;			/* decoded, or "" */
	char *title;			/* the subject without "Re:", "[...]" */
	long long time;			/* of its Date:, or 0 */
	int number, total;		/* "3/7": 3 and 7; 0 and 0 */
	int revision;			/* "v2": 2; 1 when none is written */
	int is_reply;			/* "Re:" */
	/*
	 * The subject names a kernel version ("[PATCH 6.6 2/5]", AUTOSEL):
	 * a stable backport, not the patch as posted for mainline.
	 */
	int backport;
	int has_patch_id;		/* it carries a diff: */
	git_oid patch_id;		/* ... its patch-id (patchid_text()) */

	size_t source;			/* index in archive.sources */
	/*
	 * Where it is in its source: "N:BLOB" (epoch N of a v2 inbox),
	 * "BLOB" (v1), "OFFSET+LENGTH" (mbox), "cur/NAME" (maildir).
	 */
	char *where;
	int removed;			/* deleted from the archive since */

	/* Set by archive_finish(). */
	const char *thread;		/* the id of the thread's first message */
	UT_hash_handle hh;		/* by message_id */
};

/* Messages sharing a key (a thread, a title, a sender, a patch-id). */
struct archive_bucket {
	char *key;
	struct archive_msg **items;
	size_t nr, alloc;
	UT_hash_handle hh;
};

struct archive_ops;

struct archive_source {
	char *path;			/* as given */
	char *abs;			/* absolute */
	enum archive_kind kind;
	const struct archive_ops *ops;	/* its backend (archive-ops.h) */
	char *cache_path;		/* NULL: no cache */
	char **state;			/* the state lines of the cache */
	size_t nr_state, alloc_state;
	int dirty;			/* the cache file is out of date */
	/*
	 * How the cache file can be brought up to date: by appending the
	 * new messages and the state (loaded_len bytes were read and
	 * checked, loaded_hash is their hash, loaded_end the end of what
	 * they gave in archive.msgs), or, when rewrite is set (a message
	 * was removed, no valid file, many appends), by writing it whole.
	 */
	size_t loaded_len, loaded_end;
	struct cachefile_sum loaded_hash;
	int rewrite;
	size_t nr_read;			/* messages read this run (not cached) */
	size_t nr_skipped;		/* ... and skipped: no Message-ID, not a mail */
	git_repository **repos;		/* v2: by epoch; v1: [0] */
	size_t nr_repos;
	struct strbuf *text;		/* a gzip mbox, inflated, or NULL */
};

struct archive {
	char *cache_dir;
	struct archive_source *sources;
	size_t nr_sources, alloc_sources;
	struct archive_msg **msgs;	/* every message, in reading order */
	size_t nr, alloc;
	struct archive_msg *by_id;
	/* Lookups by thread, title and patch-id (not replies), sender (by date). */
	struct archive_bucket *by_thread, *by_title, *by_email, *by_patch_id;
};

void archive_init(struct archive *a, const char *cache_dir);
void archive_release(struct archive *a);

/*
 * Adds the archive at path (its kind is told by what is there), from
 * its cache and what is new in it.  Returns 0, or -1 after an error
 * message naming path and the cause.
 */
int archive_add(struct archive *a, const char *path);

/* Computes threads and the lookups below; after the last archive_add(). */
void archive_finish(struct archive *a);

/* The message of that Message-ID (without <>), or NULL. */
struct archive_msg *archive_find(const struct archive *a, const char *id);

/* The bucket of key in one of the lookups, or NULL. */
const struct archive_bucket *archive_bucket(const struct archive_bucket *b,
					    const char *key);

/*
 * The first of b's messages dated after t (b->nr if none): the
 * buckets of by_email are sorted by date, so that a window of a
 * prolific sender's mails costs a binary search.
 */
size_t archive_since(const struct archive_bucket *b, long long t);

/*
 * Reads message m again, whole, into out (one message).  Returns 0, or
 * -1 after an error message.
 */
int archive_read(struct archive *a, const struct archive_msg *m,
		 struct mbox *out);

/*
 * Writes the caches that changed.  A cache only saves time: a failure
 * is a warning and returns -1; nothing else is affected.
 */
int archive_save(struct archive *a);

/*
 * The cache file of the archive at absolute path abs (see "The cache"
 * above), or NULL when cache_dir is NULL.  Free it.
 */
char *archive_cache_path(const char *cache_dir, const char *abs);

/* The address of "Name <addr>" (or a bare addr), lower case; never NULL. */
char *archive_email(const char *from);

#endif
