#include "stages/gaps.h"
#include "base/error.h"
#include "base/util.h"
#include "git/history.h"
#include "git/treediff.h"

#include <stdlib.h>
#include <string.h>
#include <uthash.h>

/* A directory met, while the walk counts. */
struct gap_entry {
	char *dir;
	size_t commits;
	size_t last;		/* the commit that counted it last, 1 up */
	UT_hash_handle hh;
};

void gaps_init(struct gaps *g)
{
	memset(g, 0, sizeof(*g));
}

void gaps_release(struct gaps *g)
{
	size_t i;

	for (i = 0; i < g->nr; i++)
		free(g->dirs[i].dir);
	free(g->dirs);
	gaps_init(g);
}

/* The length of the directory path is counted in (with its '/'). */
static size_t gap_of(const struct ruleset *rs, const char *path)
{
	const char *slash = strchr(path, '/'), *last = strrchr(path, '/');

	while (slash && slash != last) {
		if (!ruleset_watches_in(rs, path, (size_t)(slash - path) + 1))
			break;
		slash = strchr(slash + 1, '/');
	}
	return (size_t)(slash - path) + 1;
}

static void count(struct gap_entry **set, const char *path, size_t len,
		  size_t commit)
{
	struct gap_entry *e;

	HASH_FIND(hh, *set, path, len, e);
	if (!e) {
		e = xcalloc(1, sizeof(*e));
		e->dir = xstrndup(path, len);
		HASH_ADD_KEYPTR(hh, *set, e->dir, len, e);
	}
	if (e->last != commit) {
		e->commits++;
		e->last = commit;
	}
}

/* Counts the gaps of one commit; 0 or -1 after an error message. */
static int gaps_commit(struct gaps *g, struct gap_entry **set,
		       git_repository *repo, const struct ruleset *rs,
		       const git_commit *commit)
{
	struct treediff d = TREEDIFF_INIT;
	int watched = 0, gap = 0, top = 0;
	size_t i;

	if (treediff_commit(&d, repo, commit) < 0)
		return -1;
	for (i = 0; i < d.nr; i++) {
		const char *path = d.items[i].path;

		if (!strchr(path, '/')) {
			top = 1;
		} else if (ruleset_watches(rs, path)) {
			watched = 1;
		} else {
			gap = 1;
			count(set, path, gap_of(rs, path), g->walked + 1);
		}
	}
	g->walked++;
	g->unwatched += gap;
	g->unseen += gap && !watched;
	g->top += top;
	treediff_release(&d);
	return 0;
}

static int cmp_gap(const void *a, const void *b)
{
	const struct gap_dir *x = a, *y = b;

	if (x->commits != y->commits)
		return x->commits < y->commits ? 1 : -1;
	return strcmp(x->dir, y->dir);
}

int gaps_find(struct gaps *g, git_repository *repo, const struct ruleset *rs,
	      const git_oid *from, const git_oid *to)
{
	struct gap_entry *set = NULL, *e, *tmp;
	struct history_walk w;
	git_commit *commit;
	git_oid id;
	int ret;

	history_walk_init(&w, repo, GIT_SORT_TOPOLOGICAL | GIT_SORT_TIME);
	ret = history_walk_push(&w, to);
	if (!ret && from)
		ret = history_walk_hide(&w, from);
	while (!ret && !(ret = history_walk_next(&id, &w))) {
		if ((ret = git_commit_lookup(&commit, repo, &id)) < 0)
			break;
		if (git_commit_parentcount(commit) <= 1 &&
		    gaps_commit(g, &set, repo, rs, commit) < 0)
			ret = -2;
		git_commit_free(commit);
	}
	history_walk_release(&w);
	if (ret == GIT_ITEROVER)
		ret = 0;
	else if (ret == -2)
		ret = -1;
	else if (ret < 0)
		ret = error("cannot walk the range for the rules' gaps: %s",
			    git_error_last() ? git_error_last()->message :
			    "unknown error");
	HASH_ITER(hh, set, e, tmp) {
		HASH_DEL(set, e);
		ALLOC_GROW(g->dirs, g->nr, g->alloc);
		g->dirs[g->nr].dir = e->dir;
		g->dirs[g->nr++].commits = e->commits;
		free(e);
	}
	QSORT(g->dirs, g->nr, cmp_gap);
	return ret;
}
