#ifndef SOAK_H
#define SOAK_H

#include <git2.h>
#include <stddef.h>

struct ruleset;

/*
 * Soak time: when a mainline commit first reached a release, for
 * policies like "only commits contained in a release (not an -rc)" or
 * "in mainline for N days".
 *
 *     struct soak_tags tags;
 *     const char *name;
 *     git_time_t when;
 *
 *     if (soak_tags_load(&tags, repo, &upstream_tip, &rules) < 0)
 *             ... error printed ...
 *     for (each candidate c) {
 *             if (soak_first_tag(&tags, repo, &c->id, 1, &name, &when) < 0)
 *                     ... error printed ...
 *             else if (!name)
 *                     ... not in a release yet ...
 *             else
 *                     ... released in name, at when ...
 *     }
 *     soak_tags_release(&tags);
 *
 * Which tags are releases is the rules' release-tags pattern (see
 * ruleset_parse_tag(); rules may be NULL for the kernel's).  For the
 * kernel, mainline tags are "vX.Y" (a release) and "vX.Y-rcN" (a release
 * candidate, N > 0).  "vX.Y.Z" is a stable release, not a mainline one,
 * and is never loaded; this also leaves out the 2.6 era, whose mainline
 * releases were "v2.6.Z": a commit older than v3.0 is reported as first
 * contained in v3.0-rc1 (or v3.0), which is late but harmless for a
 * soak-time policy.
 */

struct soak_tag {
	char *name;			/* "v6.6", "v6.7-rc1" */
	int major, minor, rc;		/* rc is 0 for a release */
	git_oid commit;			/* the tag peeled to a commit */
	git_time_t when;		/* tagger date; commit date if none */
};

/*
 * The mainline tags reachable from the upstream tip, releases and
 * release candidates in separate arrays, each sorted by version.
 */
struct soak_tags {
	struct soak_tag *releases;
	size_t nr_releases, alloc_releases;
	struct soak_tag *rcs;
	size_t nr_rcs, alloc_rcs;
};

void soak_tags_init(struct soak_tags *tags);
/* Frees what tags owns and initialises it again. */
void soak_tags_release(struct soak_tags *tags);

/*
 * Initialises tags and loads every mainline tag whose commit is on the
 * first-parent history of upstream_tip.  Linus tags his own "Linux
 * X.Y" commits, so mainline tags are always there; walking first
 * parents only costs one pass over mainline's own history, not over
 * every merged commit.  A tag that does not peel to a commit is left
 * out.  Returns 0, or -1 after an error message; call
 * soak_tags_release() either way.
 */
int soak_tags_load(struct soak_tags *tags, git_repository *repo,
		   const git_oid *upstream_tip, const struct ruleset *rules);

/*
 * Finds the first (lowest version) tag that contains commit, that is
 * whose commit is commit or a descendant of it: among releases only, or
 * among releases and release candidates.  Sets *name (borrowed from
 * tags) and *when, or *name to NULL and *when to 0 when no tag contains
 * commit yet.  Returns 0 either way, or -1 after an error message.
 *
 * This is a binary search: it assumes that containment is monotonic in
 * version order, which holds because each mainline tag descends from
 * the one before it along mainline's first-parent history.  The answer
 * is always verified: the tag found was asked of the commit graph and
 * contains commit, and the tag before it was asked and does not.  A
 * commit that no tag contains (the common case for a fresh fix) costs
 * one question of the graph per array.
 */
int soak_first_tag(const struct soak_tags *tags, git_repository *repo,
		   const git_oid *commit, int releases_only,
		   const char **name, git_time_t *when);

/*
 * The same answers for every commit of a walk at once, by painting: a
 * walk in topological order (children first, as the scanner's is) hands
 * each commit to soak_paint_visit(), which tells the first release and
 * release candidate that contain it and passes them on to its parents.
 * Only the frontier of the walk is kept.  The tags come from
 * soak_tags_load_all(): every mainline tag, reachable or not (a tag the
 * walk never meets paints nothing).
 *
 *     soak_tags_load_all(&tags, repo, &rules);
 *     soak_paint_init(&paint, &tags);
 *     for (each commit of tip, or of base..tip, in topological order)
 *             soak_paint_visit(&paint, &id, parents, nr_parents, &mark);
 *     soak_mark_first(&tags, &mark, releases_only, &name, &when);
 *     soak_paint_release(&paint);
 *
 * For a walk of base..tip the answers are exact: a tag that contains a
 * commit of the range is a descendant of it, so it is in the range too.
 */
struct soak_mark {
	int release, rc;		/* indices into releases, rcs; -1: none */
};

struct soak_paint_entry;
struct soak_paint {
	const struct soak_tags *tags;
	struct soak_paint_entry *frontier;
};

/* Loads every mainline tag, without asking which are reachable. */
int soak_tags_load_all(struct soak_tags *tags, git_repository *repo,
		       const struct ruleset *rules);

void soak_paint_init(struct soak_paint *p, const struct soak_tags *tags);
void soak_paint_release(struct soak_paint *p);
void soak_paint_visit(struct soak_paint *p, const git_oid *id,
		      const git_oid *parents, unsigned int nr_parents,
		      struct soak_mark *out);
/*
 * Whether a visit passed a mark on to a commit the walk has not
 * visited (beyond a hidden boundary, after the walk).
 */
int soak_paint_pending(const struct soak_paint *p);

/*
 * After a walk that hid id (the end of an earlier walk): *out is the
 * mark passed on to id, and the return value says whether it is the
 * lowest passed on to any commit the walk did not reach.  If so, every
 * commit below id is contained, among the tags the walk met, first by
 * *out (a tag that reaches it does so through id or through a commit
 * whose mark is no lower).
 */
int soak_paint_lowest_at(const struct soak_paint *p, const git_oid *id,
			 struct soak_mark *out);

/* Lowers m to the tags of with where they are earlier. */
void soak_mark_min(struct soak_mark *m, const struct soak_mark *with);

/* soak_first_tag()'s answer from a mark. */
void soak_mark_first(const struct soak_tags *tags, const struct soak_mark *m,
		     int releases_only, const char **name, git_time_t *when);

/*
 * Parses a tag name.  Returns 0 for a mainline tag: "v6.6" (rc = 0) or
 * "v6.10-rc3" (rc = 3).  Returns 1 for a stable release "v5.15.120":
 * major 5, minor 15, rc 0; the stable number is not returned.  Returns
 * -1 for anything else ("v6", "6.6", "v6.6-rc0", "v6.6-rc1-dirty",
 * "v6.6.1-rc1", numbers of more than 6 digits); the outputs are then
 * left alone.
 */
int soak_parse_tag(const char *name, int *major, int *minor, int *rc);

#endif
