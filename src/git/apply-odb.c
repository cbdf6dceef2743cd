#include "git/apply-internal.h"
#include "base/error.h"
#include "git/history.h"
#include "git/malformed.h"
#include "git/treememo.h"
#include "base/strbuf.h"
#include "base/util.h"

#include <git2/sys/mempack.h>
#include <git2/sys/odb_backend.h>
#include <string.h>
#include <uthash.h>

/*
 * The object store behind the trial picks (apply-internal.h): the
 * store in memory new objects go to, the commit picked onto, and the
 * blobs and trees a trial reads, with what it says when one is
 * missing.
 */

int apply_blob_input(git_merge_file_input *in, git_blob **blob,
		     git_repository *repo, const git_tree_entry *e,
		     const char *path)
{
	git_merge_file_input_init(in, GIT_MERGE_FILE_INPUT_VERSION);
	if (git_blob_lookup(blob, repo, git_tree_entry_id(e)) < 0)
		return -1;
	in->ptr = git_blob_rawcontent(*blob);
	in->size = (size_t)git_blob_rawsize(*blob);
	in->path = path;
	in->mode = git_tree_entry_filemode(e);
	return 0;
}

int apply_missing_blob(git_repository *repo, const char *hex,
		       const git_tree_update *ups, size_t nr)
{
	git_odb *odb = NULL;
	size_t i;
	int ret = 0;

	if (git_repository_odb(&odb, repo) < 0)
		return 0;
	for (i = 0; i < nr && !ret; i++)
		if (ups[i].action == GIT_TREE_UPDATE_UPSERT &&
		    !git_odb_exists(odb, &ups[i].id))
			ret = error("cannot apply %.12s: blob %s ('%s') is not "
				    "in the repository", hex,
				    git_oid_tostr_s(&ups[i].id), ups[i].path);
	git_odb_free(odb);
	return ret;
}

int apply_trees_at_hand(git_repository *repo, git_odb *odb,
			const git_commit *pick)
{
	const struct commit_graph *g = history_graph(repo);
	char hex[GIT_OID_HEXSZ + 1], pid[GIT_OID_HEXSZ + 1];
	git_oid ptree;
	uint32_t pos;
	int ret = 0, has_parent = git_commit_parentcount(pick) > 0;

	git_oid_tostr(hex, sizeof(hex), git_commit_id(pick));
	/* The parent's tree id from the commit-graph, else its object. */
	if (has_parent && g &&
	    commit_graph_find(g, git_commit_parent_id(pick, 0), &pos)) {
		commit_graph_tree(g, pos, &ptree);
	} else if (has_parent &&
		   malformed_tree_id(&ptree, repo,
				     git_commit_parent_id(pick, 0)) < 0) {
		return error_git("cannot read commit %s, the parent of %.12s",
				 git_oid_tostr_s(git_commit_parent_id(pick, 0)),
				 hex);
	}
	if (has_parent && !git_odb_exists(odb, &ptree)) {
		git_oid_tostr(pid, sizeof(pid), git_commit_parent_id(pick, 0));
		ret = error("cannot read tree %s of commit %.12s, the parent "
			    "of %.12s: object not found",
			    git_oid_tostr_s(&ptree), pid, hex);
	} else if (!git_odb_exists(odb, git_commit_tree_id(pick))) {
		ret = error("cannot read tree %s of commit %.12s: object not "
			    "found", git_oid_tostr_s(git_commit_tree_id(pick)),
			    hex);
	}
	return ret;
}

/*
 * The repository's own stores: an object written that one of them
 * holds already is "freshened" (libgit2 sets the mtime of its pack or
 * loose file: a write into the user's repository), and one that none
 * holds makes libgit2 rescan the pack directory first, as does every
 * object looked up and not found.  A trial writes thousands of new
 * objects, all into memory, so the stores neither freshen nor rescan:
 * an object is then looked for in the packs of the start of the run.
 * (A repack that deletes packs while stablepick runs then ends the run
 * with "object not found", never with a wrong answer.)
 */
static void quiet_stores(git_odb *odb)
{
	git_odb_backend *b;
	size_t i, n = git_odb_num_backends(odb);

	for (i = 0; i < n; i++)
		if (!git_odb_get_backend(&b, odb, i)) {
			b->freshen = NULL;
			b->refresh = NULL;
		}
	git_error_clear();
}

/* The repository whose new objects go to memory (apply_in_memory()). */
static const git_repository *in_memory;

int apply_in_memory(git_repository *repo)
{
	git_odb_backend *mem = NULL;
	git_odb *odb = NULL;

	if (git_repository_odb(&odb, repo) < 0)
		return error_git("cannot open the object database");
	quiet_stores(odb);
	/* The highest priority: new objects go there first. */
	if (git_mempack_new(&mem) < 0 || git_odb_add_backend(odb, mem, 1000) < 0) {
		if (mem)
			mem->free(mem);
		git_odb_free(odb);
		return error_git("cannot set up an object store in memory");
	}
	git_odb_free(odb);
	in_memory = repo;
	return 0;
}

int apply_onto_lookup(git_commit **out, git_repository *repo,
		      const git_oid *id)
{
	struct malformed_commit m;
	struct strbuf sb = STRBUF_INIT;
	git_odb *odb = NULL;
	git_oid copy;
	unsigned int i;
	int ret = git_commit_lookup(out, repo, id);

	if (!ret || repo != in_memory || !malformed_check(&m, repo, id))
		return ret;
	/* What a pick onto it reads: its tree (and its parents, message). */
	strbuf_addf(&sb, "tree %s\n", git_oid_tostr_s(&m.tree));
	for (i = 0; i < m.nr_parents; i++)
		strbuf_addf(&sb, "parent %s\n", git_oid_tostr_s(&m.parents[i]));
	strbuf_addf(&sb, "author unknown <unknown> %lld +0000\n"
		    "committer unknown <unknown> %lld +0000\n\n%s",
		    (long long)m.date, (long long)m.date, m.message);
	malformed_warn(id, m.reason, "picked onto a copy of its tree");
	malformed_release(&m);
	ret = git_repository_odb(&odb, repo);
	if (!ret)
		ret = git_odb_write(&copy, odb, sb.buf, sb.len, GIT_OBJECT_COMMIT);
	if (!ret)
		ret = git_commit_lookup(out, repo, &copy);
	git_odb_free(odb);
	strbuf_release(&sb);
	return ret;
}

/*
 * The file merges made in this process, by the three blobs merged: a
 * series search picks the same pick onto the same version of a file
 * again and again (in other sets, after picks that change other
 * files), and each merge reads three blobs and diffs them twice.  A
 * merge of three blobs is the same whatever the repository; what a
 * repository may lack is the result, which apply_merge_known() checks.
 */
struct merge_memo {
	git_oid key[3];		/* base, ours, theirs */
	git_oid result;
	int clean;
	UT_hash_handle hh;
};

static struct merge_memo *merges;
static size_t merges_made, merges_again;

static void merge_key(git_oid key[3], const git_oid *base,
		      const git_oid *ours, const git_oid *theirs)
{
	memset(key, 0, 3 * sizeof(*key));
	git_oid_cpy(&key[0], base);
	git_oid_cpy(&key[1], ours);
	git_oid_cpy(&key[2], theirs);
}

int apply_merge_known(git_repository *repo, const git_oid *base,
		      const git_oid *ours, const git_oid *theirs,
		      git_oid *result)
{
	struct merge_memo *m;
	git_oid key[3];
	git_odb *odb = NULL;
	int found;

	merge_key(key, base, ours, theirs);
	HASH_FIND(hh, merges, key, sizeof(key), m);
	if (!m)
		return -1;
	if (m->clean) {
		/* Made for another repository, or its store is gone. */
		if (git_repository_odb(&odb, repo) < 0) {
			git_error_clear();
			return -1;
		}
		found = git_odb_exists(odb, &m->result);
		git_odb_free(odb);
		if (!found)
			return -1;
		git_oid_cpy(result, &m->result);
	}
	merges_again++;
	return m->clean;
}

void apply_merge_keep(const git_oid *base, const git_oid *ours,
		      const git_oid *theirs, int clean, const git_oid *result)
{
	struct merge_memo *m;
	git_oid key[3];

	merges_made++;
	merge_key(key, base, ours, theirs);
	HASH_FIND(hh, merges, key, sizeof(key), m);
	if (!m) {
		m = xcalloc(1, sizeof(*m));
		memcpy(m->key, key, sizeof(key));
		HASH_ADD(hh, merges, key, sizeof(m->key), m);
	}
	m->clean = clean;
	if (clean)
		git_oid_cpy(&m->result, result);
}

void apply_merge_counts(size_t *made, size_t *again)
{
	*made = merges_made;
	*again = merges_again;
}

void apply_forget(void)
{
	struct merge_memo *m, *tmp;

	HASH_FREE_ALL(merges, m, tmp, free);
	treememo_forget();
	in_memory = NULL;
}
