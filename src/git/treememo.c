#include "git/treememo.h"
#include "base/util.h"

#include <stdlib.h>
#include <string.h>
#include <uthash.h>

struct memo_tree {
	git_oid id;
	git_tree *tree;
	size_t entries;
	UT_hash_handle hh;
};

/* In the order of their last use: the least recently used first. */
static struct memo_tree *memo;
static git_repository *memo_repo;
static size_t memo_entries, memo_hits, memo_reads;

static void drop(struct memo_tree *m)
{
	HASH_DEL(memo, m);
	memo_entries -= m->entries;
	git_tree_free(m->tree);
	free(m);
}

void treememo_forget(void)
{
	struct memo_tree *m, *tmp;

	HASH_ITER(hh, memo, m, tmp)
		drop(m);
	memo_repo = NULL;
}

git_tree *treememo_lookup(git_repository *repo, const git_oid *id)
{
	struct memo_tree *m;
	git_tree *t = NULL;

	if (repo != memo_repo) {
		treememo_forget();
		memo_repo = repo;
	}
	HASH_FIND(hh, memo, id, sizeof(*id), m);
	if (m) {
		memo_hits++;
		HASH_DEL(memo, m);
		HASH_ADD(hh, memo, id, sizeof(m->id), m);
	} else {
		if (git_tree_lookup(&t, repo, id) < 0)
			return NULL;
		memo_reads++;
		m = xcalloc(1, sizeof(*m));
		git_oid_cpy(&m->id, id);
		m->tree = t;
		/* Its header counts as an entry: empty trees are kept too. */
		m->entries = git_tree_entrycount(t) + 1;
		HASH_ADD(hh, memo, id, sizeof(m->id), m);
		memo_entries += m->entries;
		while (memo_entries > TREEMEMO_ENTRIES && memo != m)
			drop(memo);
	}
	git_tree_dup(&t, m->tree);
	return t;
}

git_tree_entry *treememo_entry_at(const git_tree *tree, const char *path)
{
	git_repository *repo;
	const git_tree_entry *e = NULL;
	git_tree_entry *out = NULL;
	git_tree *cur, *next;
	char *copy, *name, *slash;

	if (!tree)
		return NULL;
	repo = git_tree_owner(tree);
	copy = xstrdup(path);
	git_tree_dup(&cur, (git_tree *)tree);
	for (name = copy; cur; name = slash + 1) {
		slash = strchr(name, '/');
		if (slash)
			*slash = '\0';
		e = git_tree_entry_byname(cur, name);
		if (!e || !slash)
			break;
		/* "dir/" names a directory alone, as for libgit2. */
		if (!slash[1]) {
			if (git_tree_entry_type(e) != GIT_OBJECT_TREE)
				e = NULL;
			break;
		}
		next = git_tree_entry_type(e) == GIT_OBJECT_TREE ?
		       treememo_lookup(repo, git_tree_entry_id(e)) : NULL;
		git_tree_free(cur);
		cur = next;
		e = NULL;
	}
	if (e && git_tree_entry_dup(&out, e) < 0)
		out = NULL;
	git_tree_free(cur);
	free(copy);
	git_error_clear();
	return out;
}

void treememo_counts(size_t *hits, size_t *reads)
{
	*hits = memo_hits;
	*reads = memo_reads;
}
