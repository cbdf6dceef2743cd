#include <stdint.h>
#include <string.h>

#include <uthash.h>

#include "base/error.h"
#include "git/history-internal.h"
#include "git/malformed.h"
#include "base/util.h"

/*
 * The handle on a repository's history (history-internal.h): its
 * commit-graph, the commits read from their objects when the graph
 * lacks them, and the parents and dates of both.
 */

static struct history *current;

static void free_parsed(struct parsed *p)
{
	free(p->parent_ids);
	free(p->parents);
	free(p);
}

void history_drop_parsed(struct history *h)
{
	size_t i;

	HASH_CLEAR(hh, h->by_id);
	for (i = 0; i < h->nr_parsed; i++)
		free_parsed(h->parsed[i]);
	free(h->parsed);
	h->parsed = NULL;
	h->nr_parsed = h->alloc_parsed = 0;
	free(h->flags);
	h->flags = NULL;
	h->alloc_flags = 0;
}

static void history_free(struct history *h)
{
	size_t i;

	if (!h)
		return;
	history_drop_parsed(h);
	history_range_release(&h->memo);
	for (i = 0; i < NR_REACH; i++) {
		free(h->reach[i].marks);
		free(h->reach[i].frontier);
		free(h->ancestry[i].ids);
	}
	free(h->touched);
	commit_graph_free(h->graph);
	git_odb_free(h->odb);
	free(h->path);
	free(h);
}

void history_forget(git_repository *repo)
{
	if (current && current->repo == repo) {
		history_free(current);
		current = NULL;
	}
}

/*
 * The history of repo, opened on first use.  The path is compared too:
 * a repository freed without history_forget() may leave its address to
 * another.
 */
struct history *history_of(git_repository *repo)
{
	const char *path = git_repository_path(repo);
	struct history *h;
	size_t i;

	if (current && current->repo == repo && !strcmp(current->path, path))
		return current;
	history_free(current);
	current = NULL;
	h = xcalloc(1, sizeof(*h));
	h->repo = repo;
	h->path = xstrdup(path);
	if (git_repository_odb(&h->odb, repo) < 0) {
		h->odb = NULL;
		git_error_clear();
	}
	if (commit_graph_open(&h->graph, repo) < 0)
		h->graph = NULL;
	h->nr_graph = h->graph ? commit_graph_nr(h->graph) : 0;
	for (i = 0; i < NR_REACH; i++)
		h->reach[i].tip = NO_HANDLE;
	current = h;
	return h;
}

const struct commit_graph *history_graph(git_repository *repo)
{
	return history_of(repo)->graph;
}

static void grow_flags(struct history *h, uint32_t handle)
{
	size_t want = (size_t)handle + 1, old = h->alloc_flags;

	if (want <= old)
		return;
	h->alloc_flags = want > 2 * old ? want : 2 * old;
	if (h->alloc_flags < h->nr_graph)
		h->alloc_flags = h->nr_graph;
	h->flags = xrealloc(h->flags, h->alloc_flags);
	memset(h->flags + old, 0, h->alloc_flags - old);
}

void history_set_flags(struct history *h, uint32_t handle, unsigned int f)
{
	grow_flags(h, handle);
	if (!h->flags[handle]) {
		ALLOC_GROW(h->touched, h->nr_touched, h->alloc_touched);
		h->touched[h->nr_touched++] = handle;
	}
	h->flags[handle] |= f;
}

void history_clear_flags(struct history *h)
{
	size_t i;

	for (i = 0; i < h->nr_touched; i++)
		h->flags[h->touched[i]] = 0;
	h->nr_touched = 0;
}

uint32_t history_known_handle(const struct history *h, const git_oid *id)
{
	struct parsed *p;
	uint32_t pos;

	if (h->graph && commit_graph_find(h->graph, id, &pos))
		return pos;
	HASH_FIND(hh, h->by_id, id, sizeof(*id), p);
	return p ? p->handle : NO_HANDLE;
}

/*
 * The tree, parents and committer date of a commit from its raw object, as
 * libgit2's own walk reads them (the header only: no signature or
 * message is parsed or copied).  0, or -1 when the header is not the
 * usual one, for git_commit_lookup() to read (and judge) it: a parent
 * line that is not one id, which git refuses too, must not pass here
 * as a header of another kind, nor a commit with no author line, which
 * libgit2 refuses and git dates 0 (src/malformed.h).
 */
static int parse_header(struct parsed *p, const char *buf, size_t len)
{
	const char *end = buf + len, *line = buf, *prev = NULL, *eol, *gt;
	git_oid parents[16];
	unsigned int n = 0;
	char *stop;

	if (len < 46 || memcmp(buf, "tree ", 5) || buf[45] != '\n' ||
	    !is_hex(buf + 5, 40) || git_oid_fromstrn(&p->tree, buf + 5, 40) < 0)
		return -1;
	while (line < end && *line != '\n') {
		eol = memchr(line, '\n', (size_t)(end - line));
		if (!eol)
			return -1;
		if (eol - line >= 7 && !memcmp(line, "parent ", 7)) {
			if (eol - line != 47 || n == ARRAY_SIZE(parents) ||
			    !is_hex(line + 7, 40) ||
			    git_oid_fromstrn(&parents[n++], line + 7, 40) < 0)
				return -1;	/* the full reader takes it */
		} else if (eol - line > 10 && !memcmp(line, "committer ", 10)) {
			/* Without an author line before, git dates it 0. */
			if (!prev || memcmp(prev, "author ", 7))
				return -1;
			for (gt = eol; gt > line && gt[-1] != '>'; gt--)
				;
			if (gt == line || gt >= eol)
				return -1;
			p->date = strtoll(gt, &stop, 10);
			if (stop == gt)
				return -1;
			p->nr_parents = n;
			p->parent_ids = xcalloc(n ? n : 1, sizeof(*p->parent_ids));
			memcpy(p->parent_ids, parents, n * sizeof(*parents));
			p->has_tree = 1;
			return 0;
		}
		prev = line;
		line = eol + 1;
	}
	return -1;
}

static int read_parsed(struct history *h, struct parsed *p)
{
	git_odb_object *obj = NULL;
	git_commit *commit = NULL;
	unsigned int i;

	if (h->odb && !git_odb_read(&obj, h->odb, &p->id) &&
	    git_odb_object_type(obj) == GIT_OBJECT_COMMIT &&
	    !parse_header(p, git_odb_object_data(obj),
			  git_odb_object_size(obj))) {
		git_odb_object_free(obj);
		return 0;
	}
	git_odb_object_free(obj);
	git_error_clear();
	free(p->parent_ids);
	p->parent_ids = NULL;
	p->nr_parents = 0;
	if (git_commit_lookup(&commit, h->repo, &p->id) < 0) {
		struct malformed_commit m;

		/*
		 * A commit libgit2 cannot parse that git shows: the walk
		 * goes through it, as git log does; its readers say so.
		 */
		if (!malformed_check(&m, h->repo, &p->id)) {
			malformed_name_error(&p->id);
			return -1;
		}
		p->date = m.date;
		p->nr_parents = m.nr_parents;
		p->parent_ids = m.parents;
		m.parents = NULL;
		if (!p->parent_ids)
			p->parent_ids = xcalloc(1, sizeof(*p->parent_ids));
		malformed_release(&m);
		return 0;
	}
	p->date = git_commit_time(commit);
	git_oid_cpy(&p->tree, git_commit_tree_id(commit));
	p->has_tree = 1;
	p->nr_parents = git_commit_parentcount(commit);
	p->parent_ids = xcalloc(p->nr_parents ? p->nr_parents : 1,
				sizeof(*p->parent_ids));
	for (i = 0; i < p->nr_parents; i++)
		git_oid_cpy(&p->parent_ids[i], git_commit_parent_id(commit, i));
	git_commit_free(commit);
	return 0;
}

int history_handle_of(struct history *h, const git_oid *id, uint32_t *out)
{
	struct parsed *p;
	unsigned int i;

	if ((*out = history_known_handle(h, id)) != NO_HANDLE)
		return 0;
	p = xcalloc(1, sizeof(*p));
	git_oid_cpy(&p->id, id);
	if (read_parsed(h, p) < 0) {
		free(p->parent_ids);
		free(p);
		return -1;
	}
	p->parents = xcalloc(p->nr_parents ? p->nr_parents : 1,
			     sizeof(*p->parents));
	for (i = 0; i < p->nr_parents; i++)
		p->parents[i] = NO_HANDLE;
	p->handle = h->nr_graph + (uint32_t)h->nr_parsed;
	ALLOC_GROW(h->parsed, h->nr_parsed, h->alloc_parsed);
	h->parsed[h->nr_parsed++] = p;
	HASH_ADD(hh, h->by_id, id, sizeof(p->id), p);
	*out = p->handle;
	return 0;
}

int history_parents_of(struct history *h, uint32_t handle,
		       struct parent_buf *buf, int resolve)
{
	struct parsed *p;
	unsigned int i, n;

	if (handle < h->nr_graph) {
		n = commit_graph_parents(h->graph, handle, buf->v, buf->alloc);
		if (n > buf->alloc) {
			buf->alloc = n;
			buf->v = xrealloc(buf->v, n * sizeof(*buf->v));
			commit_graph_parents(h->graph, handle, buf->v, n);
		}
		return (int)n;
	}
	p = parsed_at(h, handle);
	if (p->nr_parents > buf->alloc) {
		buf->alloc = p->nr_parents;
		buf->v = xrealloc(buf->v, buf->alloc * sizeof(*buf->v));
	}
	for (i = 0; i < p->nr_parents; i++) {
		if (p->parents[i] == NO_HANDLE) {
			uint32_t got;

			got = history_known_handle(h, &p->parent_ids[i]);
			if (got == NO_HANDLE && resolve &&
			    history_handle_of(h, &p->parent_ids[i], &got) < 0)
				return -1;
			/* h->parsed may have moved: look p up again. */
			p = parsed_at(h, handle);
			p->parents[i] = got;
		}
		buf->v[i] = p->parents[i];
	}
	return (int)p->nr_parents;
}

int history_before_generation(const void *ctx, uint32_t a, uint32_t b)
{
	const struct history *h = ctx;
	uint64_t ga = generation_of(h, a), gb = generation_of(h, b);
	int64_t da, db;

	if (ga != gb)
		return ga > gb;
	da = date_of(h, a);
	db = date_of(h, b);
	if (da != db)
		return da > db;
	return a < b;
}
