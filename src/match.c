#include "match.h"
#include "error.h"
#include "message.h"
#include "progress.h"
#include "scan.h"
#include "strbuf.h"
#include "trace.h"
#include "treediff.h"
#include "util.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <uthash.h>

/* The candidates of the scanned range by subject. */
struct match_subject {
	const char *subject;		/* borrowed from the first's message */
	struct candidate *first;
	size_t count;
	UT_hash_handle hh;
};

/* What a branch commit is known to stand for. */
struct match_tie {
	git_oid commit;
	git_oid named;			/* the first id its upstream lines name */
	int has_named;
	struct candidate *cand;		/* the candidate it was found to be */
	UT_hash_handle hh;
};

/*
 * The branch commits that change one set of paths (treediff_pathkey()):
 * a commit with the same patch-id changes the same paths, so only
 * these are diffed for it.
 */
struct match_pathkey {
	unsigned char key[SHA1_RAWSZ];
	git_oid *commits;		/* oldest first */
	size_t nr, alloc;
	UT_hash_handle hh;
};

/* The names of the files a commit changes, sorted, for subjects. */
struct match_files {
	git_oid id;
	char **names;
	size_t nr;
	UT_hash_handle hh;
};

/* A candidate of the range by an upstream id it names itself. */
struct match_upstream {
	git_oid id;
	struct candidate *cand;
	UT_hash_handle hh;
};

struct oid_entry {
	git_oid id;
	UT_hash_handle hh;
};

/* The names of the files under a subsystem's directories in the branch. */
struct match_names {
	const struct subsystem *sub;
	char **names;			/* sorted */
	size_t nr, alloc;
	UT_hash_handle hh;
};

void match_init(struct match *m, git_repository *repo,
		const struct branch_index *branch, struct scan *scan,
		struct patchid_cache *patchids)
{
	memset(m, 0, sizeof(*m));
	m->repo = repo;
	m->branch = branch;
	m->scan = scan;
	m->patchids = patchids;
}

static void free_names(char **names, size_t nr)
{
	size_t i;

	for (i = 0; i < nr; i++)
		free(names[i]);
	free(names);
}

void match_release(struct match *m)
{
	struct match_subject *s, *stmp;
	struct match_tie *t, *ttmp;
	struct match_pathkey *k, *ktmp;
	struct match_files *f, *ftmp;
	struct match_upstream *u, *utmp;
	struct match_names *n, *ntmp;

	HASH_ITER(hh, m->subjects, s, stmp) {
		HASH_DEL(m->subjects, s);
		free(s);
	}
	HASH_ITER(hh, m->ties, t, ttmp) {
		HASH_DEL(m->ties, t);
		free(t);
	}
	HASH_ITER(hh, m->by_pathkey, k, ktmp) {
		HASH_DEL(m->by_pathkey, k);
		free(k->commits);
		free(k);
	}
	HASH_ITER(hh, m->files, f, ftmp) {
		HASH_DEL(m->files, f);
		free_names(f->names, f->nr);
		free(f);
	}
	HASH_ITER(hh, m->named, u, utmp) {
		HASH_DEL(m->named, u);
		free(u);
	}
	HASH_ITER(hh, m->names, n, ntmp) {
		HASH_DEL(m->names, n);
		free_names(n->names, n->nr);
		free(n);
	}
	git_tree_free(m->tip_tree);
	memset(m, 0, sizeof(*m));
}

/* --- indexes ---------------------------------------------------------- */

static void build_subjects(struct match *m)
{
	const struct candidate_list *l = &m->scan->candidates;
	size_t i;

	m->subjects_built = 1;
	for (i = 0; m->scan->memo && i < l->nr; i++) {
		struct candidate *c = l->items[i];
		struct match_subject *s;

		if (!c->msg.subject || !*c->msg.subject)
			continue;
		HASH_FIND_STR(m->subjects, c->msg.subject, s);
		if (!s) {
			s = xcalloc(1, sizeof(*s));
			s->subject = c->msg.subject;
			s->first = c;
			HASH_ADD_KEYPTR(hh, m->subjects, s->subject,
					strlen(s->subject), s);
		}
		s->count++;
	}
}

/* How many commits of the range other than c have this subject. */
static size_t others_with_subject(struct match *m, const struct candidate *c,
				  const char *subject)
{
	struct match_subject *s;

	if (!m->subjects_built)
		build_subjects(m);
	HASH_FIND_STR(m->subjects, subject, s);
	if (!s)
		return 0;
	if (c && (c == s->first ||
		  (m->scan->memo && candidate_list_find(&m->scan->candidates,
							 &c->id))))
		return s->count - 1;
	return s->count;
}

static struct match_tie *tie_of(struct match *m, const git_oid *commit)
{
	struct match_tie *t;

	HASH_FIND(hh, m->ties, commit, sizeof(*commit), t);
	if (!t) {
		t = xcalloc(1, sizeof(*t));
		git_oid_cpy(&t->commit, commit);
		HASH_ADD(hh, m->ties, commit, sizeof(git_oid), t);
	}
	return t;
}

/* Branch commit `commit` was found to be candidate c. */
static void take(struct match *m, const git_oid *commit, struct candidate *c)
{
	struct match_tie *t = tie_of(m, commit);

	if (!t->cand)
		t->cand = c;
}

/* Every branch commit that names an upstream commit, once. */
static void tie_named(struct match *m)
{
	const struct branch_backport *b, *tmp;
	size_t i;

	if (m->ties_named)
		return;
	m->ties_named = 1;
	HASH_ITER(hh, m->branch->by_upstream, b, tmp) {
		for (i = 0; i < b->nr_all; i++) {
			struct match_tie *t = tie_of(m, &b->all[i]);

			if (!t->has_named) {
				git_oid_cpy(&t->named, &b->upstream);
				t->has_named = 1;
			}
		}
	}
}

/*
 * Whether branch commit `commit` stands for a mainline commit other
 * than c: it names one in an upstream line that is neither c nor what
 * c backports, or was found to be another candidate.
 */
static int taken_by_other(struct match *m, const git_oid *commit,
			  const struct candidate *c)
{
	struct match_tie *t;
	size_t i;
	git_oid up;

	tie_named(m);
	HASH_FIND(hh, m->ties, commit, sizeof(*commit), t);
	if (!t)
		return 0;
	if (t->cand && t->cand != c)
		return 1;
	if (!t->has_named || git_oid_equal(&t->named, &c->id))
		return 0;
	for (i = 0; i < c->msg.nr_upstream; i++)
		if (!git_oid_fromstr(&up, c->msg.upstream[i]) &&
		    git_oid_equal(&up, &t->named))
			return 0;
	return 1;
}

struct candidate *match_taken_by(const struct match *m, const git_oid *id)
{
	struct match_tie *t;

	HASH_FIND(hh, m->ties, id, sizeof(*id), t);
	return t ? t->cand : NULL;
}

/* --- the files a change touches ---------------------------------------- */

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void add_name(char ***names, size_t *nr, size_t *alloc, const char *path,
		     size_t len)
{
	const char *base;
	size_t i;

	for (base = path + len; base > path && base[-1] != '/'; base--)
		;
	len -= (size_t)(base - path);
	if (!len)
		return;
	for (i = 0; i < *nr; i++)
		if (strlen((*names)[i]) == len && !memcmp((*names)[i], base, len))
			return;
	ALLOC_GROW(*names, *nr, *alloc);
	(*names)[(*nr)++] = xstrndup(base, len);
}

/*
 * The names of the files a commit changes (a rename moves a file, it
 * keeps its name), sorted; NULL for a merge.
 */
static const struct match_files *files_of(struct match *m, const git_oid *id)
{
	struct match_files *f;
	struct treediff d = TREEDIFF_INIT;
	git_commit *commit = NULL;
	size_t i, alloc = 0;

	HASH_FIND(hh, m->files, id, sizeof(*id), f);
	if (f)
		return f;
	f = xcalloc(1, sizeof(*f));
	git_oid_cpy(&f->id, id);
	HASH_ADD(hh, m->files, id, sizeof(git_oid), f);
	if (git_commit_lookup(&commit, m->repo, id) < 0) {
		git_error_clear();
		return f;
	}
	if (git_commit_parentcount(commit) <= 1 &&
	    !treediff_commit(&d, m->repo, commit))
		for (i = 0; i < d.nr; i++)
			add_name(&f->names, &f->nr, &alloc, d.items[i].path,
				 strlen(d.items[i].path));
	treediff_release(&d);
	git_commit_free(commit);
	QSORT(f->names, f->nr, cmp_str);
	return f;
}

/* The paths of a mail's diff: its "--- a/X" and "+++ b/Y" lines. */
static void diff_paths(const char *diff, char ***paths, size_t *nr)
{
	const char *line, *end;
	size_t alloc = 0;

	*paths = NULL;
	*nr = 0;
	for (line = diff; line && *line; line = end) {
		size_t len;

		end = strchr(line, '\n');
		end = end ? end + 1 : line + strlen(line);
		if (strncmp(line, "--- a/", 6) && strncmp(line, "+++ b/", 6))
			continue;
		len = (size_t)(end - line) - 6;
		while (len && (line[6 + len - 1] == '\n' ||
			       line[6 + len - 1] == '\r'))
			len--;
		ALLOC_GROW(*paths, *nr, alloc);
		(*paths)[(*nr)++] = xstrndup(line + 6, len);
	}
}

/* The names of the files a mail's diff changes, sorted. */
static void files_of_diff(const char *diff, char ***names, size_t *nr)
{
	char **paths;
	size_t nr_paths, alloc = 0, i;

	diff_paths(diff, &paths, &nr_paths);
	*names = NULL;
	*nr = 0;
	for (i = 0; i < nr_paths; i++)
		add_name(names, nr, &alloc, paths[i], strlen(paths[i]));
	free_names(paths, nr_paths);
	QSORT(*names, *nr, cmp_str);
}

static int share_a_name(char *const *a, size_t na, char *const *b, size_t nb)
{
	size_t i = 0, j = 0;

	while (i < na && j < nb) {
		int cmp = strcmp(a[i], b[j]);

		if (!cmp)
			return 1;
		if (cmp < 0)
			i++;
		else
			j++;
	}
	return 0;
}

/* --- ancestry ------------------------------------------------------------ */

/* The commits of range_from..base: in the range and below the base. */
static int below_base(struct match *m, const git_oid *range_from,
		      struct oid_entry **set)
{
	git_revwalk *walk = NULL;
	git_oid id;
	int ret;

	if (git_revwalk_new(&walk, m->repo) < 0 ||
	    git_revwalk_push(walk, &m->branch->base) < 0 ||
	    git_revwalk_hide(walk, range_from) < 0) {
		git_revwalk_free(walk);
		return error_git("cannot walk to the branch base");
	}
	while (!(ret = git_revwalk_next(&id, walk))) {
		struct oid_entry *e = xmalloc(sizeof(*e));

		git_oid_cpy(&e->id, &id);
		HASH_ADD(hh, *set, id, sizeof(git_oid), e);
	}
	git_revwalk_free(walk);
	if (ret != GIT_ITEROVER)
		return error_git("cannot walk to the branch base");
	return 0;
}

/*
 * The candidates below the base when no scanned range start says it
 * (explain, audit, tests: a few hundred commits from anywhere).  One
 * asked of the commit graph may walk most of history, so: a commit the
 * scan of base..upstream walked is not below; the rest are looked for
 * in one walk down from the base, newest first, which stops when all
 * are met or it is a day older than the oldest of them; those it did
 * not meet are asked of the graph, so the answer does not depend on
 * commit dates being in order.
 */
static int below_base_of(struct match *m, const struct candidate_list *l,
			 struct oid_entry **set)
{
	const struct branch_index *bi = m->branch;
	const struct scan *scan = m->scan;
	struct oid_entry *pending = NULL, *e, *tmp;
	git_revwalk *walk = NULL;
	git_time_t oldest = 0;
	size_t nr = 0, walked = 0, asked, i;
	git_oid id;
	int ret = 0;

	for (i = 0; i < l->nr; i++) {
		const struct candidate *c = l->items[i];
		git_commit *commit = NULL;

		if (scan && scan->memo && scan->has_from &&
		    git_oid_equal(&scan->from, &bi->base) &&
		    scan_in_range(scan, &c->id) == 1)
			continue;
		HASH_FIND(hh, pending, &c->id, sizeof(git_oid), e);
		if (e)
			continue;
		if (git_commit_lookup(&commit, m->repo, &c->id) < 0) {
			ret = error_git("cannot read commit %s", c->hex);
			goto out;
		}
		if (!nr++ || git_commit_time(commit) < oldest)
			oldest = git_commit_time(commit);
		git_commit_free(commit);
		e = xmalloc(sizeof(*e));
		git_oid_cpy(&e->id, &c->id);
		HASH_ADD(hh, pending, id, sizeof(git_oid), e);
	}
	if (!(asked = nr))
		goto out;
	if (git_revwalk_new(&walk, m->repo) < 0 ||
	    git_revwalk_push(walk, &bi->base) < 0) {
		ret = error_git("cannot walk below the base of '%s'", bi->name);
		goto out;
	}
	git_revwalk_sorting(walk, GIT_SORT_TIME);
	while (nr && !(ret = git_revwalk_next(&id, walk))) {
		git_commit *commit = NULL;

		HASH_FIND(hh, pending, &id, sizeof(git_oid), e);
		if (e) {
			HASH_DEL(pending, e);
			HASH_ADD(hh, *set, id, sizeof(git_oid), e);
			nr--;
			continue;
		}
		/* The date check parses a commit: once in 64 is enough. */
		if (++walked % 64)
			continue;
		if (git_commit_lookup(&commit, m->repo, &id) < 0) {
			ret = error_git("cannot read a commit below the base");
			goto out;
		}
		if (git_commit_time(commit) < oldest - 24 * 3600)
			nr = 0;
		git_commit_free(commit);
	}
	if (ret == GIT_ITEROVER)
		ret = 0;
	else if (ret < 0)
		goto out;
	trace_printf("presence: %zu commits outside the scanned range, "
		     "%zu walked below the base, %u left for the graph", asked,
		     walked, HASH_COUNT(pending));
	HASH_ITER(hh, pending, e, tmp) {
		int r = git_graph_descendant_of(m->repo, &bi->base, &e->id);

		if (r < 0) {
			ret = error_git("cannot tell whether %s is in %s",
					git_oid_tostr_s(&e->id), bi->name);
			goto out;
		}
		if (r) {
			HASH_DEL(pending, e);
			HASH_ADD(hh, *set, id, sizeof(git_oid), e);
		}
	}
out:
	git_revwalk_free(walk);
	HASH_ITER(hh, pending, e, tmp) {
		HASH_DEL(pending, e);
		free(e);
	}
	return ret < 0 ? -1 : 0;
}

/* --- patch-ids ------------------------------------------------------------ */

/*
 * The branch commits after the base (not merges) by the key of their
 * paths: a tree diff each, no blob read, kept in the patch-id cache.
 * Those that change a watched path answer every candidate of the scan
 * (a commit with a candidate's patch-id changes its paths); with
 * every, all of them, for a commit outside the watch (a test's mm/
 * fix, a Fixes: target in net/): the cost of a tree diff per commit
 * of the branch, once.
 */
static int build_pathkeys(struct match *m, int every)
{
	const struct branch_index *bi = m->branch;
	struct match_pathkey *k, *ktmp;
	git_revwalk *walk = NULL;
	git_oid id;
	int ret;

	HASH_ITER(hh, m->by_pathkey, k, ktmp) {
		HASH_DEL(m->by_pathkey, k);
		free(k->commits);
		free(k);
	}
	m->pathkeys_built = every ? 2 : 1;
	if (git_revwalk_new(&walk, m->repo) < 0 ||
	    git_revwalk_push(walk, &bi->tip) < 0 ||
	    git_revwalk_hide(walk, &bi->base) < 0) {
		git_revwalk_free(walk);
		return error_git("cannot walk branch '%s'", bi->name);
	}
	git_revwalk_sorting(walk, GIT_SORT_TOPOLOGICAL | GIT_SORT_REVERSE);
	while (!(ret = git_revwalk_next(&id, walk))) {
		git_commit *commit = NULL;
		unsigned char key[SHA1_RAWSZ];

		if (git_commit_lookup(&commit, m->repo, &id) < 0) {
			ret = error_git("cannot read a commit of '%s'", bi->name);
			break;
		}
		if (git_commit_parentcount(commit) != 1)
			ret = 1;
		else if (!every && (ret = scan_commit_touches(m->scan, commit)) >= 0)
			ret = !ret;
		if (!ret)
			ret = patchid_cache_pathkey(m->patchids, m->repo, commit, key);
		git_commit_free(commit);
		if (ret < 0)
			break;
		if (ret)
			continue;
		HASH_FIND(hh, m->by_pathkey, key, sizeof(key), k);
		if (!k) {
			k = xcalloc(1, sizeof(*k));
			memcpy(k->key, key, sizeof(key));
			HASH_ADD(hh, m->by_pathkey, key, sizeof(k->key), k);
		}
		ALLOC_GROW(k->commits, k->nr, k->alloc);
		git_oid_cpy(&k->commits[k->nr++], &id);
	}
	git_revwalk_free(walk);
	trace_printf("presence: the paths of %u sets of commits of %s%s",
		     HASH_COUNT(m->by_pathkey), bi->name,
		     every ? ", watched or not" : "");
	return ret == GIT_ITEROVER ? 0 : -1;
}

/*
 * The branch commit with the patch-id of commit id (whose path key is
 * key, or computed when NULL): 1 with *out set, the newest one not
 * reverted in the branch, else the newest reverted one; 0 when none
 * has it; -1 after an error message.  Only the branch commits that
 * change the same paths are diffed.  watched: the commit changes a
 * watched path (else every branch commit is keyed).
 */
static int same_change(struct match *m, const git_oid *id,
		       const unsigned char *key, int watched, git_oid *out)
{
	unsigned char own[SHA1_RAWSZ];
	struct match_pathkey *k;
	git_commit *commit = NULL;
	git_oid want;
	size_t i;
	int ret, found = 0;

	if (!m->patchids)
		return 0;
	if (m->pathkeys_built < (watched ? 1 : 2) && build_pathkeys(m, !watched) < 0)
		return -1;
	if (git_commit_lookup(&commit, m->repo, id) < 0)
		return error_git("cannot read commit %s", git_oid_tostr_s(id));
	if (git_commit_parentcount(commit) != 1) {
		git_commit_free(commit);
		return 0;
	}
	if (!key) {
		if (patchid_cache_pathkey(m->patchids, m->repo, commit, own) < 0) {
			git_commit_free(commit);
			return -1;
		}
		key = own;
	}
	HASH_FIND(hh, m->by_pathkey, key, SHA1_RAWSZ, k);
	if (!k) {
		git_commit_free(commit);
		return 0;
	}
	ret = patchid_cache_get(m->patchids, m->repo, commit, &want);
	git_commit_free(commit);
	if (ret == GIT_ENOTFOUND)
		return 0;
	if (ret < 0)
		return -1;
	for (i = k->nr; i-- > 0;) {
		git_oid pid;

		if (git_commit_lookup(&commit, m->repo, &k->commits[i]) < 0)
			return error_git("cannot read a commit of '%s'",
					 m->branch->name);
		ret = patchid_cache_get(m->patchids, m->repo, commit, &pid);
		git_commit_free(commit);
		if (ret == GIT_ENOTFOUND)
			continue;
		if (ret < 0)
			return -1;
		if (!git_oid_equal(&pid, &want))
			continue;
		if (!branch_index_reverted(m->branch, &k->commits[i])) {
			git_oid_cpy(out, &k->commits[i]);
			return 1;
		}
		if (!found++)
			git_oid_cpy(out, &k->commits[i]);
	}
	return found ? 1 : 0;
}

/* --- the methods ---------------------------------------------------------- */

/* What a method says of a candidate. */
enum found {
	FOUND_NOTHING,			/* ask the next method */
	FOUND_PRESENT,
	FOUND_MAYBE,			/* only the subject: maybe-present */
};

/* A question: one candidate of a list, with what the list established. */
struct question {
	struct candidate *c;
	int below;			/* in the range below the base */
};

static const char *base_name(const struct match *m)
{
	return m->branch->base_name ? m->branch->base_name : "the branch base";
}

static int by_ancestry(struct match *m, struct question *q)
{
	struct candidate *c = q->c;

	if (q->below || git_oid_equal(&c->id, &m->branch->base)) {
		candidate_add_evidence(c, EVIDENCE_ANCESTOR, NULL,
				       "in %s already (below %s)",
				       m->branch->name, base_name(m));
		return FOUND_PRESENT;
	}
	if (branch_index_has(m->branch, &c->id) ||
	    git_oid_equal(&c->id, &m->branch->tip)) {
		candidate_add_evidence(c, EVIDENCE_ANCESTOR, &c->id,
				       "%s has this commit itself",
				       m->branch->name);
		return FOUND_PRESENT;
	}
	return FOUND_NOTHING;
}

/* The backport of id in the branch, or of what c backports itself. */
static const struct branch_backport *backport_of(const struct match *m,
						 const struct candidate *c)
{
	const struct branch_backport *b = branch_index_find(m->branch, &c->id);
	const struct branch_backport *reverted = b && b->reverted ? b : NULL;
	size_t i;
	git_oid up;

	if (b && !b->reverted)
		return b;
	for (i = 0; i < c->msg.nr_upstream; i++) {
		if (git_oid_fromstr(&up, c->msg.upstream[i]) < 0)
			continue;
		b = branch_index_find(m->branch, &up);
		if (b && !b->reverted)
			return b;
		if (b && !reverted)
			reverted = b;
	}
	return reverted;
}

/*
 * Candidate c is branch commit b, found by an upstream line or a
 * patch-id (kind): present, unless the branch reverted b (by
 * *reverted_by): then evidence says so, once, and the search goes on.
 */
static int found(struct match *m, struct candidate *c, enum evidence_kind kind,
		 const git_oid *b, const git_oid *reverted_by)
{
	const char *as = kind == EVIDENCE_PATCH_ID ? "same change as" :
			 "backported as";
	char hex[GIT_OID_HEXSZ + 1], by[GIT_OID_HEXSZ + 1];
	const struct evidence *e;

	git_oid_tostr(hex, sizeof(hex), b);
	take(m, b, c);
	if (!reverted_by) {
		if (kind == EVIDENCE_PATCH_ID)
			candidate_add_evidence(c, kind, b, "%s %.12s in %s", as,
					       hex, m->branch->name);
		else
			candidate_add_evidence(c, kind, b, "%s %.12s", as, hex);
		return FOUND_PRESENT;
	}
	/* The backport its upstream line names, reverted: said already. */
	e = candidate_evidence(c, EVIDENCE_BACKPORT_REVERTED);
	if (e && git_oid_equal(&e->commit, reverted_by))
		return FOUND_NOTHING;
	git_oid_tostr(by, sizeof(by), reverted_by);
	candidate_add_evidence(c, EVIDENCE_BACKPORT_REVERTED, reverted_by,
			       "%s %.12s, reverted in %s by %.12s", as, hex,
			       m->branch->name, by);
	return FOUND_NOTHING;
}

static int by_upstream_line(struct match *m, struct question *q)
{
	const struct branch_backport *b = backport_of(m, q->c);

	if (!b)
		return FOUND_NOTHING;
	return found(m, q->c, EVIDENCE_UPSTREAM_LINE, &b->commit,
		     b->reverted ? &b->reverted_by : NULL);
}

/*
 * A branch commit with c's patch-id: one that changes the same paths
 * (the candidate's path key, from the scan) and makes the same change.
 */
static int by_patch_id(struct match *m, struct question *q)
{
	struct candidate *c = q->c;
	const struct branch_revert *r;
	git_oid b;
	int ret;

	ret = same_change(m, &c->id, c->has_pathkey ? c->pathkey : NULL,
			  c->nr_touched > 0, &b);
	if (ret <= 0)
		return ret < 0 ? -1 : FOUND_NOTHING;
	r = branch_index_reverted(m->branch, &b);
	return found(m, c, EVIDENCE_PATCH_ID, &b, r ? &r->by : NULL);
}

/*
 * The newest branch commit with c's subject that the branch did not
 * revert (one it reverted is backport-reverted evidence), that stands
 * for no other mainline commit and changes a file of a name c changes;
 * only when no other commit of the range has the subject.  Not proof (subjects repeat, "ext4: fix typo"): the
 * candidate is maybe-present, shown with the match; never dropped.
 */
static int by_subject(struct match *m, struct question *q)
{
	struct candidate *c = q->c;
	const struct branch_subject *s;
	const struct match_files *mine = NULL;
	char hex[GIT_OID_HEXSZ + 1];
	size_t i;

	if (!c->msg.subject || !*c->msg.subject ||
	    !(s = branch_index_subject(m->branch, c->msg.subject)))
		return FOUND_NOTHING;
	if (others_with_subject(m, c, c->msg.subject))
		return FOUND_NOTHING;
	for (i = s->nr; i-- > 0;) {
		const git_oid *b = &s->commits[i];
		const struct match_files *theirs;
		const struct branch_revert *r;

		if (taken_by_other(m, b, c))
			continue;
		if (!mine)
			mine = files_of(m, &c->id);
		theirs = files_of(m, b);
		if (!share_a_name(mine->names, mine->nr, theirs->names,
				  theirs->nr))
			continue;
		take(m, b, c);
		git_oid_tostr(hex, sizeof(hex), b);
		/* An adapted backport, then its revert: say so, go on. */
		if ((r = branch_index_reverted(m->branch, b))) {
			if (!candidate_evidence(c, EVIDENCE_BACKPORT_REVERTED))
				candidate_add_evidence(c, EVIDENCE_BACKPORT_REVERTED,
						       &r->by, "same subject as "
						       "%.12s, reverted in %s by "
						       "%.12s", hex, m->branch->name,
						       git_oid_tostr_s(&r->by));
			continue;
		}
		candidate_add_evidence(c, EVIDENCE_SUBJECT, b,
				       "same subject as %.12s in %s", hex,
				       m->branch->name);
		return FOUND_MAYBE;
	}
	return FOUND_NOTHING;
}

/*
 * The methods, in order.  Those of the second pass run once the first
 * pass has run for every commit asked about.
 */
static const struct {
	const char *name;
	int (*find)(struct match *m, struct question *q);
	int second_pass;
} methods[] = {
	{ "ancestor", by_ancestry, 0 },
	{ "upstream-line", by_upstream_line, 0 },
	{ "patch-id", by_patch_id, 0 },
	{ "subject", by_subject, 1 },
};

static int ask(struct match *m, struct question *q, int pass)
{
	size_t i;
	int ret;

	for (i = 0; i < ARRAY_SIZE(methods); i++) {
		if (methods[i].second_pass != pass)
			continue;
		ret = methods[i].find(m, q);
		if (ret < 0)
			return -1;
		if (ret == FOUND_PRESENT) {
			q->c->present = 1;
			return 1;
		}
		if (ret == FOUND_MAYBE) {
			q->c->maybe_present = 1;
			return 1;
		}
	}
	return 0;
}

int match_candidates(struct match *m, struct candidate_list *l,
		     const git_oid *range_from)
{
	struct oid_entry *below = NULL, *e, *tmp;
	struct progress progress;
	unsigned char *decided = xcalloc(l->nr ? l->nr : 1, 1);
	size_t i;
	int ret = 0, pass;

	if (range_from)
		ret = below_base(m, range_from, &below);
	else
		ret = below_base_of(m, l, &below);
	progress_start(&progress, "Presence", l->nr);
	for (pass = 0; pass < 2 && !ret; pass++) {
		for (i = 0; !ret && i < l->nr; i++) {
			struct question q;
			int r;

			if (decided[i])
				continue;
			memset(&q, 0, sizeof(q));
			q.c = l->items[i];
			HASH_FIND(hh, below, &q.c->id, sizeof(git_oid), e);
			q.below = e != NULL;
			if (!pass)
				progress_update(&progress, i + 1);
			r = ask(m, &q, pass);
			if (r < 0)
				ret = -1;
			else
				decided[i] = (unsigned char)r;
		}
	}
	for (i = 0; !ret && i < l->nr; i++)
		if (!decided[i])
			candidate_add_evidence(l->items[i], EVIDENCE_ABSENT, NULL,
					       "no commit of %s after %s names it",
					       m->branch->name, base_name(m));
	progress_stop(&progress);
	HASH_ITER(hh, below, e, tmp) {
		HASH_DEL(below, e);
		free(e);
	}
	free(decided);
	return ret;
}

int match_commit_in_branch(struct match *m, const git_oid *id, int ask_graph)
{
	const struct branch_backport *bp = branch_index_find(m->branch, id);
	git_commit *commit = NULL;
	git_oid b;
	int ret, watched;

	if (git_oid_equal(id, &m->branch->base) || (bp && !bp->reverted) ||
	    branch_index_has(m->branch, id))
		return 1;
	if (ask_graph) {
		ret = git_graph_descendant_of(m->repo, &m->branch->base, id);
		if (ret > 0)
			return 1;
		git_error_clear();
	}
	/* Only a commit of the range can have been backported. */
	if (!m->scan || scan_in_range(m->scan, id) != 1)
		return 0;
	if (git_commit_lookup(&commit, m->repo, id) < 0)
		return error_git("cannot read commit %s", git_oid_tostr_s(id));
	watched = scan_commit_touches(m->scan, commit);
	git_commit_free(commit);
	if (watched < 0)
		return -1;
	ret = same_change(m, id, NULL, watched, &b);
	if (ret <= 0)
		return ret;
	return !branch_index_reverted(m->branch, &b);
}

/* --- the other way: which mainline commit is this? ------------------------ */

static void build_named(struct match *m)
{
	const struct candidate_list *l = &m->scan->candidates;
	size_t i, j;

	m->named_built = 1;
	for (i = 0; m->scan->memo && i < l->nr; i++) {
		struct candidate *c = l->items[i];

		for (j = 0; j < c->msg.nr_upstream; j++) {
			struct match_upstream *u;
			git_oid id;

			if (git_oid_fromstr(&id, c->msg.upstream[j]) < 0)
				continue;
			HASH_FIND(hh, m->named, &id, sizeof(id), u);
			if (u)
				continue;
			u = xcalloc(1, sizeof(*u));
			git_oid_cpy(&u->id, &id);
			u->cand = c;
			HASH_ADD(hh, m->named, id, sizeof(git_oid), u);
		}
	}
}

static struct candidate *range_candidate(struct match *m, const git_oid *id)
{
	return m->scan->memo ? candidate_list_find(&m->scan->candidates, id)
			     : NULL;
}

/* A commit its upstream lines name: of the range, else of the repository. */
static int rev_upstream_line(struct match *m, const struct match_pick *p,
			     struct match_found *out)
{
	git_commit *commit = NULL;
	size_t i;
	git_oid id;

	for (i = 0; p->msg && i < p->msg->nr_upstream; i++) {
		struct match_upstream *u;
		struct candidate *c;

		if (git_oid_fromstr(&id, p->msg->upstream[i]) < 0)
			continue;
		if ((c = range_candidate(m, &id))) {
			git_oid_cpy(&out->id, &id);
			out->cand = c;
			return 1;
		}
		/* A range of stable commits: one that backports it. */
		if (!m->named_built)
			build_named(m);
		HASH_FIND(hh, m->named, &id, sizeof(id), u);
		if (u) {
			git_oid_cpy(&out->id, &u->cand->id);
			out->cand = u->cand;
			return 1;
		}
		if (!git_commit_lookup(&commit, m->repo, &id)) {
			git_commit_free(commit);
			git_oid_cpy(&out->id, &id);
			out->cand = NULL;
			return 1;
		}
		git_error_clear();
	}
	return 0;
}

/* The candidate of the range with the pick's change: paths and patch-id. */
static int rev_patch_id(struct match *m, const struct match_pick *p,
			struct match_found *out)
{
	const struct candidate_list *l = &m->scan->candidates;
	unsigned char key[SHA1_RAWSZ];
	git_commit *commit = NULL;
	git_oid want;
	size_t i;
	int ret;

	if (!m->patchids || !m->scan->memo)
		return 0;
	if (p->commit) {
		if (git_commit_lookup(&commit, m->repo, p->commit) < 0)
			return error_git("cannot read commit %s",
					 git_oid_tostr_s(p->commit));
		ret = git_commit_parentcount(commit) == 1 ?
		      patchid_cache_get(m->patchids, m->repo, commit, &want) :
		      GIT_ENOTFOUND;
		if (!ret)
			ret = treediff_pathkey(key, m->repo, commit);
		git_commit_free(commit);
		if (ret == GIT_ENOTFOUND)
			return 0;
		if (ret < 0)
			return -1;
	} else if (p->diff && !patchid_text(&want, p->diff)) {
		char **paths;
		size_t nr;

		diff_paths(p->diff, &paths, &nr);
		treediff_key_of(key, paths, nr);
		free_names(paths, nr);
	} else {
		git_error_clear();
		return 0;
	}
	for (i = 0; i < l->nr; i++) {
		struct candidate *c = l->items[i];
		git_oid pid;

		if (!c->has_pathkey || memcmp(c->pathkey, key, sizeof(key)))
			continue;
		if (git_commit_lookup(&commit, m->repo, &c->id) < 0)
			return error_git("cannot read commit %s", c->hex);
		ret = patchid_cache_get(m->patchids, m->repo, commit, &pid);
		git_commit_free(commit);
		if (ret == GIT_ENOTFOUND)
			continue;
		if (ret < 0)
			return -1;
		if (git_oid_equal(&pid, &want)) {
			git_oid_cpy(&out->id, &c->id);
			out->cand = c;
			return 1;
		}
	}
	return 0;
}

/*
 * The one candidate of the range with the pick's subject (and, with
 * by_author, its author), changing a file of a name the pick changes.
 */
static int rev_subject(struct match *m, const struct match_pick *p,
		       struct match_found *out)
{
	struct match_subject *s;
	const struct match_files *theirs;
	char **names = NULL;
	size_t nr = 0;
	int ret;

	if (!p->subject || !*p->subject || !m->scan->memo)
		return 0;
	if (!m->subjects_built)
		build_subjects(m);
	HASH_FIND_STR(m->subjects, p->subject, s);
	if (!s || s->count != 1)
		return 0;
	if (p->by_author) {
		const char *lt = strrchr(s->first->author, '<');
		size_t len = p->author_email ? strlen(p->author_email) : 0;

		if (!lt || strncasecmp(lt + 1, p->author_email ? p->author_email : "",
				       len) || lt[1 + len] != '>')
			return 0;
	}
	theirs = files_of(m, &s->first->id);
	if (p->commit) {
		const struct match_files *mine = files_of(m, p->commit);

		ret = share_a_name(mine->names, mine->nr, theirs->names,
				   theirs->nr);
	} else if (p->diff) {
		files_of_diff(p->diff, &names, &nr);
		ret = share_a_name(names, nr, theirs->names, theirs->nr);
		free_names(names, nr);
	} else {
		/* Nothing to compare the files with: the subject alone. */
		ret = 1;
	}
	if (!ret)
		return 0;
	git_oid_cpy(&out->id, &s->first->id);
	out->cand = s->first;
	return 1;
}

static const struct {
	enum evidence_kind how;
	int (*find)(struct match *m, const struct match_pick *p,
		    struct match_found *out);
} rev_methods[] = {
	{ EVIDENCE_UPSTREAM_LINE, rev_upstream_line },
	{ EVIDENCE_PATCH_ID, rev_patch_id },
	{ EVIDENCE_SUBJECT, rev_subject },
};

int match_mainline(struct match *m, const struct match_pick *p,
		   struct match_found *out, const char **why)
{
	size_t i;
	int ret;

	memset(out, 0, sizeof(*out));
	for (i = 0; i < ARRAY_SIZE(rev_methods); i++) {
		ret = rev_methods[i].find(m, p, out);
		if (ret < 0)
			return -1;
		if (ret) {
			out->how = rev_methods[i].how;
			return 1;
		}
	}
	if (why)
		*why = p->msg && p->msg->nr_upstream ?
		       "its upstream line names no commit here" :
		       "no upstream line";
	return 0;
}

const git_oid *match_branch_subject(struct match *m, const char *subject)
{
	const struct branch_subject *s;
	size_t i;

	if (!subject || !(s = branch_index_subject(m->branch, subject)))
		return NULL;
	tie_named(m);
	for (i = s->nr; i-- > 0;) {
		struct match_tie *t;

		if (branch_index_reverted(m->branch, &s->commits[i]))
			continue;
		HASH_FIND(hh, m->ties, &s->commits[i], sizeof(git_oid), t);
		if (t && (t->cand || t->has_named))
			continue;
		return &s->commits[i];
	}
	return NULL;
}

int match_range_subjects(struct match *m, struct match_wanted *w, size_t nr)
{
	struct idx {
		const char *subject;
		struct match_wanted *w;
		UT_hash_handle hh;
	} *index = NULL, *e, *tmp;
	const struct scan *s = m->scan;
	git_revwalk *walk = NULL;
	git_oid id;
	size_t i;
	int ret;

	for (i = 0; i < nr; i++) {
		HASH_FIND_STR(index, w[i].subject, e);
		if (e)
			continue;
		e = xcalloc(1, sizeof(*e));
		e->subject = w[i].subject;
		e->w = &w[i];
		HASH_ADD_KEYPTR(hh, index, e->subject, strlen(e->subject), e);
	}
	if (git_revwalk_new(&walk, m->repo) < 0 ||
	    git_revwalk_push(walk, &s->to) < 0 ||
	    (s->has_from && git_revwalk_hide(walk, &s->from) < 0)) {
		ret = error_git("cannot walk %s", s->range);
		goto out;
	}
	while (!(ret = git_revwalk_next(&id, walk))) {
		git_commit *commit = NULL;
		const char *summary;

		if (git_commit_lookup(&commit, m->repo, &id) < 0) {
			ret = error_git("cannot read a commit of %s", s->range);
			goto out;
		}
		summary = git_commit_summary(commit);
		e = NULL;
		if (summary)
			HASH_FIND_STR(index, summary, e);
		if (e && !e->w->found)
			git_oid_cpy(&e->w->id, &id);
		if (e && e->w->found < 2)
			e->w->found++;
		git_commit_free(commit);
	}
	if (ret != GIT_ITEROVER) {
		ret = error_git("cannot walk %s", s->range);
		goto out;
	}
	ret = 0;
out:
	git_revwalk_free(walk);
	HASH_ITER(hh, index, e, tmp) {
		HASH_DEL(index, e);
		free(e);
	}
	/* Several asked for the same subject: the first one was filled. */
	for (i = 0; !ret && i < nr; i++) {
		size_t j;

		for (j = 0; j < i; j++)
			if (!strcmp(w[j].subject, w[i].subject)) {
				w[i] = w[j];
				break;
			}
	}
	return ret;
}

/* --- files the branch has ---------------------------------------------- */

static int tip_tree(struct match *m)
{
	git_commit *tip = NULL;

	if (m->tip_tree)
		return 0;
	if (git_commit_lookup(&tip, m->repo, &m->branch->tip) < 0 ||
	    git_commit_tree(&m->tip_tree, tip) < 0) {
		git_commit_free(tip);
		return error_git("cannot read the tree of '%s'", m->branch->name);
	}
	git_commit_free(tip);
	return 0;
}

static int has_path(struct match *m, const char *path)
{
	git_tree_entry *e = NULL;
	int ret = git_tree_entry_bypath(&e, m->tip_tree, path);

	git_tree_entry_free(e);
	git_error_clear();
	return !ret;
}

static int collect_name(const char *root, const git_tree_entry *e, void *data)
{
	struct match_names *n = data;

	(void)root;
	if (git_tree_entry_type(e) == GIT_OBJECT_BLOB) {
		ALLOC_GROW(n->names, n->nr, n->alloc);
		n->names[n->nr++] = xstrdup(git_tree_entry_name(e));
	}
	return 0;
}

/* The names of the files under sub's directories in the branch. */
static const struct match_names *names_of(struct match *m,
					  const struct subsystem *sub)
{
	struct match_names *n;
	size_t i, j;

	HASH_FIND_PTR(m->names, &sub, n);
	if (n)
		return n;
	n = xcalloc(1, sizeof(*n));
	n->sub = sub;
	HASH_ADD_PTR(m->names, sub, n);
	for (i = 0; i < sub->nr_paths; i++) {
		const char *spec = sub->paths[i];
		size_t len = strlen(spec);
		git_tree_entry *e = NULL;
		git_tree *tree = NULL;
		char *dir;

		if (!len || spec[len - 1] != '/')
			continue;
		dir = xstrndup(spec, len - 1);
		if (!git_tree_entry_bypath(&e, m->tip_tree, dir) &&
		    git_tree_entry_type(e) == GIT_OBJECT_TREE &&
		    !git_tree_lookup(&tree, m->repo, git_tree_entry_id(e)))
			git_tree_walk(tree, GIT_TREEWALK_PRE, collect_name, n);
		git_error_clear();
		git_tree_free(tree);
		git_tree_entry_free(e);
		free(dir);
	}
	QSORT(n->names, n->nr, cmp_str);
	for (i = j = 0; i < n->nr; i++) {
		if (j && !strcmp(n->names[j - 1], n->names[i]))
			free(n->names[i]);
		else
			n->names[j++] = n->names[i];
	}
	n->nr = j;
	return n;
}

/*
 * Whether the branch has path, or its file under another name its
 * subsystems give: a former directory of theirs, or a file of the same
 * name in their directories (moved within them).
 */
static int branch_has_file(struct match *m, const struct candidate *c,
			   const char *path)
{
	const char *base = strrchr(path, '/');
	size_t i, j, k;

	if (has_path(m, path))
		return 1;
	base = base ? base + 1 : path;
	for (i = 0; i < c->nr_touched; i++) {
		const struct subsystem *sub = c->touched[i];
		const struct match_names *n;
		int under = 0;

		for (j = 0; j < sub->nr_paths; j++) {
			const char *d = sub->paths[j];
			size_t len = strlen(d);

			if (!len || d[len - 1] != '/' || strncmp(path, d, len))
				continue;
			under = 1;
			for (k = 0; k < sub->nr_paths; k++) {
				struct strbuf sb = STRBUF_INIT;
				const char *o = sub->paths[k];
				int found;

				if (k == j || !*o || o[strlen(o) - 1] != '/')
					continue;
				strbuf_addf(&sb, "%s%s", o, path + len);
				found = has_path(m, sb.buf);
				strbuf_release(&sb);
				if (found)
					return 1;
			}
		}
		if (!under)
			continue;
		n = names_of(m, sub);
		if (bsearch(&base, n->names, n->nr, sizeof(*n->names), cmp_str))
			return 1;
	}
	return 0;
}

int match_branch_has_file(struct match *m, const struct candidate *c,
			  const char *path)
{
	if (tip_tree(m) < 0)
		return -1;
	return branch_has_file(m, c, path);
}
