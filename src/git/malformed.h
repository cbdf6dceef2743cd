#ifndef MALFORMED_H
#define MALFORMED_H

#include <git2.h>
#include <stdint.h>

/*
 * Malformed commits: those git shows (git log goes on) but libgit2
 * refuses to parse, such as an author or committer line without an
 * e-mail address or with a date that is no number, or a missing author
 * or committer line (git fsck: missingEmail, badEmail, badDate,
 * badDateOverflow, missingAuthor, missingCommitter; a header with no
 * end after it is one too).  Their object is whole, so they are no
 * corruption: walks of history go through them, and what reads
 * commits names each in a warning and goes on without it.
 *
 * The object is read as git reads it (parse_commit_buffer()): the tree
 * line and the parent lines must be right, or git cannot show the
 * commit either, and it stays an error, as a missing or damaged object
 * does; the rest is taken as it comes: the committer date is 0 when
 * it cannot be read, the message is what follows the first empty line
 * (nothing when there is none), and author and committer are not read.
 *
 *     git_commit *commit;
 *     int r = malformed_lookup(&commit, repo, &id);
 *     if (r < 0)
 *             return error_git("cannot read commit %s", hex);
 *     if (r > 0)
 *             continue;	(warned: "...; skipped")
 */

/* What a commit's raw object says, without libgit2's parse. */
struct malformed_commit {
	git_oid tree;
	git_oid *parents;
	unsigned int nr_parents;
	int64_t date;			/* the committer date, or 0 */
	char *message;			/* "" when there is none */
	char *summary;			/* as git_commit_summary() */
	char *reason;			/* libgit2's error, when malformed */
};

void malformed_release(struct malformed_commit *m);

/*
 * Parses the raw object buf of a commit into m (message, summary and
 * reason NULL).  0, or -1 when its tree or a parent line is bad.  The
 * header read of the walks that do not ask libgit2.
 */
int malformed_parse(struct malformed_commit *m, const char *buf, size_t len);

/*
 * Call right after git_commit_lookup(repo, id) (or another libgit2 call
 * that read commit id) failed.  1 if the commit is malformed: m (when
 * not NULL) gets what its object says and libgit2's reason, and the
 * error is cleared.  0 if it is not (missing, damaged, not a commit, or
 * a tree or parent line git cannot read either): libgit2's error is as
 * the failed call left it, for the caller to report.
 */
int malformed_check(struct malformed_commit *m, git_repository *repo,
		    const git_oid *id);

/*
 * After malformed_check() said no: when libgit2 read commit id and
 * could not parse it (a tree or parent line that git refuses too),
 * names it in libgit2's error ("commit <id>: <reason>"), for a walk
 * whose caller cannot say which commit it failed on.
 */
void malformed_name_error(const git_oid *id);

/*
 * The same for a name that failed to resolve (git_revparse_single(),
 * git_object_lookup_prefix()): 1 when it is the id of a malformed
 * commit, in full or abbreviated, with *id and m (when not NULL); else
 * 0 with libgit2's error as it was.
 */
int malformed_check_name(struct malformed_commit *m, git_oid *id,
			 git_repository *repo, const char *name);

/*
 * The tree id of commit id, also of a malformed one (from its object,
 * without a warning: nothing of it is lost).  0, or libgit2's error.
 */
int malformed_tree_id(git_oid *out, git_repository *repo, const git_oid *id);

/* The tree of commit id, also of a malformed one; 0, or libgit2's error. */
int malformed_commit_tree(git_tree **out, git_repository *repo,
			  const git_oid *id);

/*
 * The tree of parent n of commit, as git_commit_parent() and
 * git_commit_tree() give it, also when that parent is malformed (then
 * read from its object, without a warning: nothing of it is lost).
 * 0, or libgit2's error.
 */
int malformed_parent_tree(git_tree **out, const git_commit *commit,
			  unsigned int n);

/*
 * The committer date of commit id, also of a malformed one (from its
 * object: 0 when it has none there either, as git says; without a
 * warning: a date a walk stops by).  0, or libgit2's error.
 */
int malformed_commit_time(git_time_t *out, git_repository *repo,
			  const git_oid *id);

/*
 * 1 when libgit2's last error is of the kinds it gives for an object it
 * read and could not parse, as a malformed commit (a walk of libgit2's
 * that failed may then be made again by one that goes through it); 0
 * for a missing or damaged object.
 */
int malformed_suspect(void);

/*
 * Says what was done with the malformed commit id, for reason
 * ("skipped", "read without its author or date"):
 *
 *     warning: cannot parse commit <id>: <reason>; <done>
 *
 * once per commit and run, whatever the later readers do with it.
 */
void malformed_warn(const git_oid *id, const char *reason, const char *done);

/*
 * git_commit_lookup() for a commit met on the way through history:
 * 0 with *out; 1 with *out NULL when the commit is malformed, after
 * malformed_warn(..., "skipped"), for the caller to pass it over; else
 * libgit2's error, unchanged.
 */
int malformed_lookup(git_commit **out, git_repository *repo,
		     const git_oid *id);

/*
 * The same for a reader that needs only the message and the parents
 * (the branch index, subjects, reverts): 0 with *out, or 1 with *out
 * NULL and m filled (malformed_release() it) after malformed_warn(...,
 * "read without its author or date"); else libgit2's error.
 */
int malformed_lookup_raw(git_commit **out, struct malformed_commit *m,
			 git_repository *repo, const git_oid *id);

/*
 * The commit rev names, as git_revparse_single() and a peel to a commit
 * give it, also when a malformed commit is on the way (the commit
 * itself, or one whose parents ~ and ^ follow): then read from the
 * objects, for a ref, an id, a tag and any of ~, ~N, ^, ^N, ^0 and
 * ^{commit} after them, without a warning (nothing of it is lost).
 * 0 with *out, else libgit2's error code (GIT_ENOTFOUND,
 * GIT_EAMBIGUOUS, ...) with its error, as git_revparse_single() or the
 * peel left them; a name that is no commit is GIT_EPEEL.
 */
int malformed_revparse(git_oid *out, git_repository *repo, const char *rev);

#endif
