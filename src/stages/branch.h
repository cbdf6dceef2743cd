#ifndef BRANCH_H
#define BRANCH_H

#include <git2.h>

#include "git/history.h"
#include <uthash.h>

#include "candidate/candidate.h"

struct scan;

/*
 * The index of a stable (or vendor) branch: its base, its commits, the
 * upstream commits they name, their reverts and their subjects.
 *
 *     struct branch_index bi;
 *     branch_index_init(&bi);
 *     if (branch_index_build(&bi, repo, "linux-6.6.y", &upstream_tip) < 0)
 *             ... error printed ...
 *     b = branch_index_find(&bi, &mainline_id);
 *     branch_index_release(&bi);
 *
 * What it says of a mainline commit (below the base? backported?) is
 * for the presence engine to weigh (src/match.h), not for its callers.
 */

struct branch_backport {
	git_oid upstream;		/* the mainline id named */
	/*
	 * The branch commit naming it: the newest one not reverted in the
	 * branch, or, when every backport was reverted, the newest.
	 */
	git_oid commit;
	int reverted;			/* every backport was reverted */
	git_oid reverted_by;		/* the revert of `commit` */
	git_oid *all;			/* every backport, oldest first */
	size_t nr_all, alloc_all;
	UT_hash_handle hh;
};

/* A revert in the branch: commit `by` reverts branch commit `reverted`. */
struct branch_revert {
	git_oid reverted;
	git_oid by;
	UT_hash_handle hh;
};

/* The commits of the branch with one subject, oldest first. */
struct branch_subject {
	char *subject;
	git_oid *commits;
	size_t nr, alloc;
	UT_hash_handle hh;
};

struct branch_index {
	char *name;			/* as given, e.g. "linux-6.6.y" */
	git_oid tip;
	git_oid base;			/* merge base with mainline */
	char *base_name;		/* a tag at the base ("v6.6"), or NULL */
	int major, minor;		/* the branch's version, or -1 */
	size_t nr_commits;		/* commits after the base */
	size_t nr_backports;		/* of which name an upstream id */
	struct branch_backport *by_upstream;
	struct branch_revert *reverts;
	struct branch_subject *subjects;
	git_oid *commits;		/* after the base, sorted */
	size_t nr_sorted, alloc_commits;
	int guessed;			/* base taken on trust, not computed */
	int reaches_base;		/* a commit has the base as a parent */
	/* Borrowed: whose backport lines name the upstream ids. */
	const struct ruleset *rules;
};

void branch_index_init(struct branch_index *bi);
void branch_index_release(struct branch_index *bi);

struct ruleset;
/*
 * Resolves the branch, finds its base against upstream_tip and reads
 * every commit after the base, the upstream ids by the backport lines
 * of rules (message_read_backports()), which must outlive bi.  Returns
 * 0 or -1 after an error message.
 */
int branch_index_build(struct branch_index *bi, git_repository *repo,
		       const char *branch, const git_oid *upstream_tip,
		       const struct ruleset *rules);

/*
 * The same, with the base taken from a guess (the base found last time)
 * instead of computed; bi->guessed is set.  The guess must then be
 * proven, see branch_index_base_holds().  Reading stops when the branch
 * has more than limit commits after the guess (the guess is then far
 * off): returns 1, with bi to be released.  Else 0, or -1 after an error
 * message.
 */
int branch_index_build_from(struct branch_index *bi, git_repository *repo,
			    const char *branch, const git_oid *guess,
			    size_t limit, const struct ruleset *rules);

/*
 * Whether bi->base is the merge base of the branch and upstream, given
 * mainline, the scan of bi->base..upstream: the base is an ancestor of
 * both, and no commit after it is in both (then every common ancestor
 * is an ancestor of the base).  1 if so, 0 if not.
 */
int branch_index_base_holds(const struct branch_index *bi,
			    const struct scan *mainline);

/* 1 if id is a commit of the branch after its base, else 0. */
int branch_index_has(const struct branch_index *bi, const git_oid *id);

/*
 * The backport of a mainline commit, or NULL; check ->reverted before
 * counting it as present.
 */
const struct branch_backport *branch_index_find(const struct branch_index *bi,
						const git_oid *upstream);

/* The commits of the branch with this subject, or NULL. */
const struct branch_subject *branch_index_subject(const struct branch_index *bi,
						  const char *subject);

/* The revert of branch commit id in the branch, or NULL. */
const struct branch_revert *branch_index_reverted(const struct branch_index *bi,
						  const git_oid *id);

/*
 * The branch a --branch value names, as git checkout finds one: name
 * itself when it resolves (a local branch, any ref or revision), else
 * the remote-tracking branch REMOTE/name of the one remote that has a
 * branch of that name (of several, the one checkout.defaultRemote
 * names), saying so on stderr ("branch 'X' taken as 'origin/X'").
 * *out, the caller's to free, is the name to read from then on: the
 * same ref on every later resolution.  Else -1 after an error: several
 * remotes have it (each named), a ref without its commit
 * (scan_ref_error()), or nothing has it ("unknown branch 'X'", with
 * the nearest branch names as a hint).  what names the option in the
 * messages ("--against"), NULL for --branch.
 */
int branch_resolve_name(char **out, git_repository *repo, const char *name,
			const char *what);

/*
 * The short names of the local and remote-tracking branches, sorted,
 * without a symbolic one (origin/HEAD); *names is the caller's to free
 * (free_string_array()).  0, or -1 after an error.
 */
int branch_list_names(git_repository *repo, char ***names, size_t *nr);

/*
 * Adds to *names (add_string_once()) the branches glob (fnmatch())
 * matches: local and remote-tracking ones by their short name, and a
 * remote's branch by its name alone, resolved as branch_resolve_name()
 * resolves it, unless a local branch has that name.  0, or -1 after an
 * error ("no branch matches 'GLOB'" when it adds none).
 */
int branch_glob(git_repository *repo, const char *glob, char ***names,
		size_t *nr, size_t *alloc);

/* Parses a version from "v6.6", "v6.6-rc3", "linux-6.6.y", "6.1". */
int branch_parse_version(const char *s, int *major, int *minor);

/*
 * A walk of the branch's own commits (base..tip), oldest first: the
 * reverse of history_range()'s date order, so each commit after its
 * parents (on the commit-graph when the repository has one).
 *
 *     struct branch_walk w;
 *     if (branch_walk(&w, bi, repo) < 0)
 *             return -1;
 *     while (branch_walk_next(&id, &w))
 *             ...
 *     branch_walk_release(&w);
 */
struct branch_walk {
	struct history_range range;
	size_t left;
};

/* 0, or -1 after "cannot walk branch". */
int branch_walk(struct branch_walk *w, const struct branch_index *bi,
		git_repository *repo);
/* 1 and *id, or 0 at the end. */
int branch_walk_next(git_oid *id, struct branch_walk *w);
void branch_walk_release(struct branch_walk *w);

#endif
