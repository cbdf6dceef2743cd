#ifndef SCAN_H
#define SCAN_H

#include <git2.h>

#include "candidate/candidate.h"
#include "formats/rules.h"
#include "base/progress.h"
#include "store/scancache.h"
#include "formats/soak.h"
#include "git/history.h"

/*
 * The scanner: walks a mainline range and keeps the non-merge commits
 * that change a watched path, as candidates.
 *
 *     struct scan s;
 *     scan_init(&s, repo, &ruleset);
 *     if (scan_set_range(&s, "v6.6..master") < 0 || scan_run(&s) < 0)
 *             ... error already printed ...
 *     for (i = 0; i < s.candidates.nr; i++)
 *             ... s.candidates.items[i] ...
 *     scan_release(&s);
 *
 * "Changes path P" is decided by comparing the ids of the tree entries
 * on the way down to P in the commit and in its first parent, never by
 * diffing trees, so the cost follows the number of commits walked.
 */

struct watch_node;
struct commit_graph_bloom_key;

struct scan {
	git_repository *repo;
	struct ruleset *rules;		/* template subsystems get expanded */
	git_oid from, to;		/* the range from..to */
	int has_from;
	char *range;			/* as the user would write it */
	char **only;			/* --subsystem filter, or NULL */
	size_t nr_only;
	struct watch_node *watch;
	int need_paths;			/* some rule matches touched paths */

	size_t walked;			/* commits walked */
	size_t merges;			/* of which merges (never scored) */
	/*
	 * Of which changed watched paths only of subsystems that are
	 * ignored (policy ignore) or not asked for (--subsystem).
	 */
	size_t left_out;
	/*
	 * Of which malformed commits (src/malformed.h): warned about,
	 * never scored.  A scan that met one is not cached, so that
	 * every run says so again.
	 */
	size_t malformed;
	struct candidate_list candidates;	/* oldest first */
	/*
	 * When a subsystem has a soak policy: every mainline tag, and the
	 * walk paints each candidate with the first that contain it.
	 */
	struct soak_tags soak_tags;
	int soak_painted;

	/*
	 * The cache of earlier scans, or NULL: a range that extends one it
	 * holds walks only the new commits (src/scancache.h).
	 */
	struct scancache *cache;
	size_t replayed;		/* candidates taken from the cache */
	const struct scan_memo *memo;	/* after scan_run(): the range */
	struct scan_memo *own_memo;	/* the same, when there is no cache */
	/*
	 * Without a commit-graph, when the walk read the whole range:
	 * its parent links, by the places of memo->range (src/history.h),
	 * for the series search's ancestry questions (match-ancestry.c).
	 * links.nr is 0 otherwise.
	 */
	struct history_links links;
	struct progress progress;

	/*
	 * The changed-path Bloom filter keys of the watched directories
	 * (when the repository's commit-graph has filters), for the watch
	 * they were made for.
	 */
	struct commit_graph_bloom_key *bloom;
	size_t nr_bloom;
	const struct watch_node *bloom_watch;
};

void scan_init(struct scan *s, git_repository *repo, struct ruleset *rules);
void scan_release(struct scan *s);

/*
 * Resolves a revision to a commit; what names the option it came from
 * in the error ("--branch", "--upstream").  Returns 0 or -1 after an
 * error message.
 */
int scan_resolve(git_repository *repo, const char *rev, const char *what,
		 git_oid *out);

/*
 * For a revision that does not resolve: when rev names a reference that
 * exists but gives no commit, says why and returns -1: the reference
 * points at an object the repository lacks (a ref updated before its
 * objects arrived, a damaged repository), or, with unborn, it is the
 * branch HEAD is on and has no commits yet.  Returns 0 when rev is
 * simply unknown.  name is how the message names it, e.g. "branch
 * 'linux-6.6.y'" or "'master' for --upstream".
 */
int scan_ref_error(git_repository *repo, const char *rev, const char *name,
		   int unborn);

/*
 * Reports that a shallow clone's history stops inside what (a range or
 * a description); returns -1.
 */
int scan_shallow_error(git_repository *repo, const char *what);

/*
 * Resolves "A..B" (--range) to its two commits; returns 0 or -1 after
 * an error message.
 */
int scan_resolve_range(git_repository *repo, const char *range,
		       git_oid *from, git_oid *to);

/* Sets the range from "A..B"; returns 0 or -1 after an error message. */
int scan_set_range(struct scan *s, const char *range);
/* Sets the range from..to, described as desc (e.g. "v6.6..master"). */
void scan_set_range_oids(struct scan *s, const git_oid *from,
			 const git_oid *to, const char *desc);

/*
 * Limits the scan to the named subsystems (comma-separated list);
 * unknown names are an error, reported by scan_run() once templates are
 * expanded.
 */
void scan_set_only(struct scan *s, const char *list);

/*
 * Builds the path index and checks the paths of the rules against the
 * tree of the range's end.  A template stands for the directories a
 * commit changes at that commit, so that one renamed or removed since
 * still counts; those of the range's ends are derived here already,
 * for --subsystem.  scan_run() calls it, explain calls it alone.
 */
int scan_prepare(struct scan *s);

/*
 * 0 when the commit certainly changes no watched path against its
 * first parent (its changed-path Bloom filter says so), 1 when it may:
 * a cheap test before scan_commit_touches(), which reads trees.  After
 * scan_prepare().
 */
int scan_commit_may_touch(struct scan *s, const git_oid *id);

/* Walks the range and fills s->candidates; returns 0 or -1. */
int scan_run(struct scan *s);

/*
 * After scan_run(): 1 if id is a commit of the range (walked now or
 * taken from the cache), 0 if not, -1 if the scan has not run.
 */
int scan_in_range(const struct scan *s, const git_oid *id);

/*
 * After scan_run(): 1 if the range's start is an ancestor of its end
 * (some commit of the range has it as a parent, or they are the same),
 * 0 if not.
 */
int scan_reaches_from(const struct scan *s);

/*
 * Forgets what scan_run() found, so that it can run again (on another
 * range).
 */
void scan_reset(struct scan *s);

/* 1 if commit changes a watched path, 0 if not, -1 on error. */
int scan_commit_touches(struct scan *s, const git_commit *commit);

/*
 * Fills one candidate from its commit: message, author, touched
 * subsystems (possibly none), paths, resolved Fixes: targets.
 */
int scan_fill(struct scan *s, struct candidate *c, const git_commit *commit);

#endif
