#ifndef HISTORY_INTERNAL_H
#define HISTORY_INTERNAL_H

#include <git2.h>
#include <stdint.h>

#include <uthash.h>

#include "git/history.h"

/*
 * What the files of the history module share, and no one else:
 * history.c holds the handle (the repository's commit-graph, or the
 * commit objects read when it lacks them, and what is learnt of each
 * commit: its parents and date), history-range.c the ranges,
 * history-reach.c merge bases and ancestry; history-walk.c uses the
 * public history.h alone.
 */

/*
 * A commit is named by a handle: its position in the commit-graph, or,
 * for a commit the graph does not hold (newer than the graph, or no
 * graph at all), nr_graph plus its index among the commits parsed from
 * their objects.  Facts about a commit id never change, so what was
 * learnt stays valid for the life of the process.
 */
#define NO_HANDLE UINT32_MAX

/* Per-handle flags of one operation, cleared when it ends. */
#define SEEN		(1u << 0)
#define UNINTERESTING	(1u << 1)
#define QUEUED		(1u << 2)
#define IN_SET		(1u << 3)
#define PARENT1		(1u << 4)
#define PARENT2		(1u << 5)
#define STALE		(1u << 6)
#define RESULT		(1u << 7)

/* A commit the graph does not hold, read from its object. */
struct parsed {
	git_oid id;
	git_oid tree;
	int has_tree;			/* 0: tree unknown */
	int64_t date;
	unsigned int nr_parents;
	git_oid *parent_ids;
	uint32_t *parents;		/* handles, NO_HANDLE until resolved */
	UT_hash_handle hh;
	uint32_t handle;
};

/* Everything reachable from tip down to generation floor, marked. */
struct reach {
	uint32_t tip;			/* NO_HANDLE when unused */
	uint8_t *marks;			/* a bit per graph position */
	uint32_t *frontier;		/* a heap by generation */
	size_t nr, alloc;
};

#define NR_REACH 4

/*
 * Without the graph: the ancestors of a commit asked about more than
 * once, read in one walk and sorted, so that the next questions are a
 * search each (libgit2 walks for each: a negative answer is a walk of
 * all history).
 */
struct ancestry {
	git_oid tip;
	int asked;			/* questions about tip so far */
	git_oid *ids;			/* sorted; NULL until the second */
	size_t nr;
};

/*
 * The handle: a repository's graph and what was learnt of its commits,
 * the per-handle flags of the operation under way (each handle set is
 * in touched), the reach and ancestry kept for the next questions, and
 * the last range.
 */
struct history {
	git_repository *repo;
	git_odb *odb;
	char *path;
	struct commit_graph *graph;
	uint32_t nr_graph;
	struct parsed **parsed;
	size_t nr_parsed, alloc_parsed;
	struct parsed *by_id;
	uint8_t *flags;
	size_t alloc_flags;
	uint32_t *touched;
	size_t nr_touched, alloc_touched;
	struct reach reach[NR_REACH];
	unsigned int next_reach;
	struct ancestry ancestry[NR_REACH];
	unsigned int next_ancestry;
	/* The last range asked, when small enough to keep. */
	struct history_range memo;
	git_oid memo_ends[3];		/* the tip, then the hidden ones */
	size_t memo_nr_hide;
	int has_memo;
};

/* A commit's parents as handles. */
struct parent_buf {
	uint32_t *v;
	unsigned int alloc;
};

/*
 * The history of repo, opened on first use and kept until
 * history_forget() (one repository at a time).
 */
struct history *history_of(git_repository *repo);

/*
 * Without a graph every commit of a range was read into h->parsed;
 * nothing else asks them (ancestry and merge bases are libgit2's
 * then), so they go, not to weigh on the rest of the run.
 */
void history_drop_parsed(struct history *h);

/*
 * Per-handle flags: history_set_flags() adds f to handle's (and notes
 * the handle, for history_clear_flags() to clear when the operation
 * ends).
 */
void history_set_flags(struct history *h, uint32_t handle, unsigned int f);
void history_clear_flags(struct history *h);

static inline unsigned int flags_of(const struct history *h, uint32_t handle)
{
	return handle < h->alloc_flags ? h->flags[handle] : 0;
}

/* The handle of id if it is known without reading an object. */
uint32_t history_known_handle(const struct history *h, const git_oid *id);

/*
 * The handle of id, reading the commit when the graph lacks it: 0, or
 * -1 when it cannot be read (a malformed commit named on stderr).
 */
int history_handle_of(struct history *h, const git_oid *id, uint32_t *out);

/*
 * The parents of handle into buf; their number, or -1 when one outside
 * the graph cannot be read (with resolve; without, such a parent is
 * NO_HANDLE unless it was read before).
 */
int history_parents_of(struct history *h, uint32_t handle,
		       struct parent_buf *buf, int resolve);

/*
 * A heap's order (base/heap.h, ctx the history): higher generation
 * first, then later date, then the handle.
 */
int history_before_generation(const void *ctx, uint32_t a, uint32_t b);

/* What a handle names: the commit read, its id, date and generation. */
static inline struct parsed *parsed_at(const struct history *h, uint32_t handle)
{
	return handle >= h->nr_graph ? h->parsed[handle - h->nr_graph] : NULL;
}

static inline void oid_of(const struct history *h, uint32_t handle, git_oid *out)
{
	if (handle < h->nr_graph)
		commit_graph_oid(h->graph, handle, out);
	else
		git_oid_cpy(out, &parsed_at(h, handle)->id);
}

static inline int64_t date_of(const struct history *h, uint32_t handle)
{
	return handle < h->nr_graph ? commit_graph_date(h->graph, handle)
				    : parsed_at(h, handle)->date;
}

static inline uint64_t generation_of(const struct history *h, uint32_t handle)
{
	return handle < h->nr_graph ? commit_graph_generation(h->graph, handle)
				    : COMMIT_GRAPH_INFINITY;
}

#endif
