#ifndef MEMO_H
#define MEMO_H

#include "run/run.h"
#include "base/sha1.h"
#include "base/strbuf.h"

/*
 * The answer of a run, kept by its inputs: a run whose inputs are those
 * of an earlier one prints what that one printed, without walking,
 * judging or picking anything (<cache dir>/memo/<key>).
 *
 * The key is a digest of everything the answer is made of: the program
 * itself (its file), the repository, the command line, every ref and
 * what it points at (branches, tags, notes, HEAD; the commits behind
 * them never change), what each revision the command names
 * (memo_revision()) and stablepick.upstream resolve to (FETCH_HEAD,
 * ORIG_HEAD, master@{1} are no refs under refs/), the gitattributes
 * files (patchid_attributes_key()), the whole configuration with
 * --config, the rule files of every rules directory, the ledger file,
 * the shallow file, the STABLEPICK_* variables and TZ, the day (a
 * deferral ends at 00:00 UTC) and, for an answer that prints the time
 * (a mail's Date:), the second.  Anything else a command reads
 * (--archive, --tests-from, --since and its state) makes it ask for no
 * memo at all.
 *
 *     memo_init(&m);
 *     memo_revision(&m, upstream);
 *     if (memo_lookup(&m, ctx, argc, argv, 0, &out) > 0)
 *             ... write out; done ...
 *     ... compute out ...
 *     memo_store(&m, &out);
 *     memo_release(&m);
 *
 * The warnings and errors of the computed run are kept and shown again
 * (error_capture()); those of warning_aside(), about this machine's
 * caches, are not.  A run that failed is not kept.
 * Like every cache, a memo only saves time: one that cannot be read or
 * written is ignored with a warning, and the answer computed.
 */
struct memo {
	char *path;		/* <cache dir>/memo/<key hex>; NULL: no memo */
	struct strbuf said;	/* the run's warnings, captured */
	char **revs;		/* the revisions named (memo_revision()) */
	size_t nr_revs, alloc_revs;
};

/* What a command's answer depends on beyond the common inputs. */
enum memo_flags {
	MEMO_DATED = 1 << 0,	/* prints the time: the second is an input */
};

void memo_init(struct memo *m);

/*
 * A revision the command names (--branch, --upstream, --range A..B,
 * --against), before memo_lookup(): what it resolves to then is an
 * input.  NULL is none.
 */
void memo_revision(struct memo *m, const char *rev);

/*
 * Opens the repository (run_open_repo()) and computes the key; returns
 * 1 with the stored answer in out (and its warnings shown again on
 * stderr), or 0 when the run must compute it (then the warnings it
 * prints are captured for memo_store()); -1 only when the repository
 * or the configuration cannot be read (the error printed).  Without a
 * cache directory (--no-cache) it returns 0.
 */
int memo_lookup(struct memo *m, struct run_context *ctx, int argc,
		char **argv, unsigned flags, struct strbuf *out);

/* Keeps out as the answer of the key memo_lookup() computed. */
void memo_store(struct memo *m, const struct strbuf *out);

void memo_release(struct memo *m);

/* How many answers a cache directory keeps; the oldest go first. */
#define MEMO_KEEP 16

#endif
