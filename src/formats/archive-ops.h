#ifndef ARCHIVE_OPS_H
#define ARCHIVE_OPS_H

#include <sys/stat.h>

#include "formats/archive.h"
#include "formats/mbox.h"
#include "base/strbuf.h"

/*
 * The backends of archive.c, one table entry a kind of archive
 * (archive-pi.c: public-inbox v2 and v1; archive-mbox.c: maildir and
 * mbox), and what archive.c lends them.  Not for other callers: the
 * API is archive.h.
 *
 * archive_add() stats the path and asks each backend in turn, in the
 * order mbox, public-inbox v2, maildir, public-inbox v1, whether the
 * path is of its kind, then has the first that says yes index the
 * source; archive_read() has the source's backend read a message again.
 */
struct archive_ops {
	const char *name;	/* in the cache's "source" line and traces */
	enum archive_kind kind;
	/* Whether path (st: its stat, a file or a directory) is of the kind. */
	int (*detect)(const char *path, const struct stat *st);
	/*
	 * Indexes what is new in source src since its cache (the state
	 * lines it keeps there); 0, or -1 after an error message.
	 */
	int (*index)(struct archive *a, size_t src);
	/* Appends message m, whole, to sb; 0, or -1 after an error message. */
	int (*reread)(struct archive *a, const struct archive_msg *m,
		      struct strbuf *sb);
};

extern const struct archive_ops archive_pi_v2_ops, archive_pi_v1_ops;
extern const struct archive_ops archive_maildir_ops, archive_mbox_ops;

/*
 * Indexes one message read from source src at where (the place
 * reread() is given again); a message without a Message-ID cannot be
 * found by one and is only counted.
 */
void archive_index_message(struct archive *a, size_t src,
			   const struct mbox_msg *mm, const char *where);

/* The same for the one message of buf (a blob, a maildir file). */
void archive_index_buffer(struct archive *a, size_t src, const char *buf,
			  size_t len, const char *where);

/* Marks the messages of src at where removed. */
void archive_remove_where(struct archive *a, size_t src, const char *where);

/* Drops the messages of src whose where begins with prefix (NULL: all). */
void archive_forget_source(struct archive *a, size_t src, const char *prefix);

/*
 * A state line of src's cache, "KEY VALUE": the value of key, or NULL;
 * set (replaced), marking the cache out of date.
 */
const char *archive_state_get(const struct archive_source *s, const char *key);
void archive_state_set(struct archive_source *s, const char *key,
		       const char *value);

#endif
