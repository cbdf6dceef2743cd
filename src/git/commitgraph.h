#ifndef COMMITGRAPH_H
#define COMMITGRAPH_H

#include <git2.h>
#include <stdint.h>
#include <stddef.h>

/*
 * git's commit-graph, read directly (libgit2 1.5 does not use it for
 * walks): parents, root tree, committer date and generation number of
 * a commit without parsing its object, and the changed-path Bloom
 * filters that tell a commit cannot have changed a path without
 * reading a tree.  The format is git's
 * Documentation/gitformat-commit-graph.txt: the single file
 * objects/info/commit-graph, or the split chain listed in
 * objects/info/commit-graphs/commit-graph-chain (base layer first).
 * Only what the repository holds is read; nothing is ever written.
 *
 *     struct commit_graph *g;
 *     uint32_t pos;
 *     if (commit_graph_open(&g, repo) == 0 && g &&
 *         commit_graph_find(g, &id, &pos))
 *             ... commit_graph_parents(g, pos, ...) ...
 *     commit_graph_free(g);
 *
 * A position is the commit's index across the whole chain (the base
 * layer's commits first).  A commit newer than the graph is not in it;
 * the caller then reads the object.  Every commit of the graph has its
 * parents in the graph too.
 */

struct commit_graph;

/*
 * Opens the repository's commit-graph (of its common directory, so a
 * worktree finds its repository's).  *out is NULL when there is none,
 * or when core.commitGraph is false.  A graph that is damaged
 * (bad signature, chunk offsets out of the file, a chain naming a
 * missing layer, checksum of a layer not matching the chain) is
 * ignored with one warning naming the file and the cause, and *out is
 * NULL: the caller reads objects as without a graph.  Returns 0, or -1
 * only when memory runs out.
 */
int commit_graph_open(struct commit_graph **out, git_repository *repo);
void commit_graph_free(struct commit_graph *g);

/* The number of commits of the graph (all layers). */
uint32_t commit_graph_nr(const struct commit_graph *g);

/* 1 and *pos if id is in the graph, else 0.  Binary search on OIDF/OIDL. */
int commit_graph_find(const struct commit_graph *g, const git_oid *id,
		      uint32_t *pos);

void commit_graph_oid(const struct commit_graph *g, uint32_t pos, git_oid *out);
void commit_graph_tree(const struct commit_graph *g, uint32_t pos,
		       git_oid *out);

/* The committer date (seconds since the epoch, the 34 bits of CDAT). */
int64_t commit_graph_date(const struct commit_graph *g, uint32_t pos);

/*
 * A generation number: strictly greater than each parent's.  The
 * corrected commit date (GDA2/GDO2) when every layer has it, else the
 * topological level of CDAT.  Only for comparisons; a commit outside
 * the graph counts as COMMIT_GRAPH_INFINITY.
 */
#define COMMIT_GRAPH_INFINITY UINT64_MAX
uint64_t commit_graph_generation(const struct commit_graph *g, uint32_t pos);

/*
 * The parents' positions, in order, into out (at most max of them);
 * returns how many parents the commit has (octopus merges may have more
 * than max: call again with a larger buffer).
 */
unsigned int commit_graph_parents(const struct commit_graph *g, uint32_t pos,
				  uint32_t *out, unsigned int max);

/*
 * Changed-path Bloom filters.  A key is a path as git adds it (no
 * leading or trailing slash, "fs/xfs" for the directory and every file
 * under it, since git adds each leading directory of a changed path),
 * hashed once for the settings of the graph.
 */
struct commit_graph_bloom_key {
	/*
	 * num_hashes of them; twice that for filters of hash version 1,
	 * whose paths with bytes of 0x80 or more git hashes one way where
	 * char is signed and another where it is not: both are asked.
	 */
	uint32_t *hashes;
};

/*
 * The 32-bit murmur3 hash of the filters, of hash version 1 (git's
 * first, which reads a byte of 0x80 or more as a negative signed char)
 * or 2 (as specified).  Exposed for its tests.
 */
uint32_t commit_graph_murmur3(int version, uint32_t seed, const void *data,
			      size_t len);

/* 1 if the graph has Bloom filters (every layer, same settings). */
int commit_graph_has_bloom(const struct commit_graph *g);

/* Fills key for path; the graph must have Bloom filters. */
void commit_graph_bloom_key(const struct commit_graph *g, const char *path,
			    struct commit_graph_bloom_key *key);
void commit_graph_bloom_key_release(struct commit_graph_bloom_key *key);

/*
 * Whether the commit at pos may have changed one of the keys' paths
 * against its first parent: 1 maybe, 0 certainly none, -1 the graph
 * holds no filter for it (a graph without filters, or one of zero
 * length: not computed), so the caller diffs.  A commit of more than
 * 512 changes has git's one-byte all-ones filter, which answers 1.
 * Never 0 for a path the commit changed.
 */
int commit_graph_bloom_maybe(const struct commit_graph *g, uint32_t pos,
			     const struct commit_graph_bloom_key *keys,
			     size_t nr);

#endif
