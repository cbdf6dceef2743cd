#include "stages/match.h"
#include "stages/match-internal.h"
#include "base/error.h"
#include "git/history.h"
#include "git/malformed.h"
#include "formats/message.h"
#include "git/patchid-pool.h"
#include "base/progress.h"
#include "stages/scan.h"
#include "base/strbuf.h"
#include "base/trace.h"
#include "git/treediff.h"
#include "base/util.h"

#include <stdlib.h>
#include <string.h>

/*
 * The presence engine's methods: ancestry, upstream lines, patch-ids
 * (the branch's commits by the paths they change) and subjects, asked
 * in order for every candidate, and match_commit_in_branch().  The
 * other way (match_mainline()) is match-mainline.c's; the files a
 * change touches and the branch has, match-files.c's.
 */

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

struct oid_entry {
	git_oid id;
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

static void pathkey_free(struct match_pathkey *k)
{
	free(k->commits);
	free(k);
}

static void files_free(struct match_files *f)
{
	free_string_array(f->names, f->nr);
	free(f);
}

static void names_free(struct match_names *n)
{
	free_string_array(n->names, n->nr);
	free(n);
}

static void has_path_free(struct match_has_path *h)
{
	free(h->path);
	free(h);
}

void match_release(struct match *m)
{
	struct match_subject *s, *stmp;
	struct match_tie *t, *ttmp;
	struct match_pathkey *k, *ktmp;
	struct match_files *f, *ftmp;
	struct match_upstream *u, *utmp;
	struct match_names *n, *ntmp;
	struct match_has_path *hp, *hptmp;
	struct match_renames *r, *rtmp;
	struct match_tip_name *tn, *tntmp;

	HASH_FREE_ALL(m->subjects, s, stmp, free);
	HASH_FREE_ALL(m->ties, t, ttmp, free);
	HASH_FREE_ALL(m->by_pathkey, k, ktmp, pathkey_free);
	HASH_FREE_ALL(m->files, f, ftmp, files_free);
	HASH_FREE_ALL(m->named, u, utmp, free);
	HASH_FREE_ALL(m->names, n, ntmp, names_free);
	HASH_FREE_ALL(m->has_paths, hp, hptmp, has_path_free);
	HASH_FREE_ALL(m->renames, r, rtmp, match_renames_free);
	HASH_FREE_ALL(m->tip_names, tn, tntmp, match_tip_name_free);
	git_tree_free(m->tip_tree);
	match_ancestry_free(m->ancestry);
	memset(m, 0, sizeof(*m));
}

/* --- indexes ---------------------------------------------------------- */

void match_build_subjects(struct match *m)
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
		match_build_subjects(m);
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
void match_tie_named(struct match *m)
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

	match_tie_named(m);
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

/* --- ancestry ------------------------------------------------------------ */

/*
 * The commits of base ^range_from: in the range and below the base.
 * None when the range starts at the base, or above it (--range A..B,
 * A after it): the commit-graph says so from generation numbers, where
 * the walk would read all of history between the two to hide A's.
 */
static int below_base(struct match *m, const git_oid *range_from,
		      struct oid_entry **set)
{
	struct history_walk walk;
	git_oid id;
	int ret;

	/*
	 * The range starts at the base (v5.10..master for 5.10.y): nothing
	 * below.  libgit2's walk of base ^base took 0.19 s to say so on a
	 * history of a million commits.
	 */
	if (git_oid_equal(range_from, &m->branch->base))
		return 0;
	if (history_graph(m->repo) &&
	    (ret = history_descendant_of(m->repo, range_from,
					 &m->branch->base)) != 0) {
		if (ret < 0)
			return error_git("cannot walk to the branch base");
		trace_printf("presence: the range starts above the base: "
			     "none of it below");
		return 0;
	}
	history_walk_init(&walk, m->repo, GIT_SORT_NONE);
	if (history_walk_push(&walk, &m->branch->base) < 0 ||
	    history_walk_hide(&walk, range_from) < 0) {
		history_walk_release(&walk);
		return error_git("cannot walk to the branch base");
	}
	while (!(ret = history_walk_next(&id, &walk))) {
		struct oid_entry *e = xmalloc(sizeof(*e));

		git_oid_cpy(&e->id, &id);
		HASH_ADD(hh, *set, id, sizeof(git_oid), e);
	}
	history_walk_release(&walk);
	if (ret != GIT_ITEROVER)
		return error_git("cannot walk to the branch base");
	return 0;
}

/* What the walk below the base meets: those pending go to the set. */
struct below_walk {
	struct oid_entry **pending, **set;
};

static int met_below(const git_oid *id, void *data)
{
	struct below_walk *b = data;
	struct oid_entry *e;

	HASH_FIND(hh, *b->pending, id, sizeof(git_oid), e);
	if (!e)
		return 0;
	HASH_DEL(*b->pending, e);
	HASH_ADD(hh, *b->set, id, sizeof(git_oid), e);
	return 1;
}

/*
 * The candidates below the base when no scanned range start says it
 * (explain, audit, tests: a few hundred commits from anywhere).  One
 * asked of the commit graph may walk most of history, so: a commit the
 * scan of base..upstream walked is not below; the rest are looked for
 * in one walk down from the base (history_walk_below()); those it did
 * not meet are asked of the graph, so the answer does not depend on
 * where the walk stops nor on commit dates being in order.
 */
static int below_base_of(struct match *m, const struct candidate_list *l,
			 struct oid_entry **set)
{
	const struct branch_index *bi = m->branch;
	const struct scan *scan = m->scan;
	struct oid_entry *pending = NULL, *e, *tmp;
	struct below_walk below = { &pending, set };
	struct history_walk walk;
	git_time_t oldest = 0;
	size_t nr = 0, walked = 0, asked, i;
	int ret = 0;

	history_walk_init(&walk, m->repo, GIT_SORT_TIME);
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
	if (history_walk_push(&walk, &bi->base) < 0) {
		ret = error_git("cannot walk below the base of '%s'", bi->name);
		goto out;
	}
	ret = history_walk_below(&walk, nr, oldest, met_below, &below, &walked);
	if (ret < 0)
		goto out;
	trace_printf("presence: %zu commits outside the scanned range, "
		     "%zu walked below the base, %u left for the graph", asked,
		     walked, HASH_COUNT(pending));
	HASH_ITER(hh, pending, e, tmp) {
		int r = history_descendant_of(m->repo, &bi->base, &e->id);

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
	history_walk_release(&walk);
	HASH_FREE_ALL(pending, e, tmp, free);
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
	struct branch_walk walk;
	git_oid id;
	int ret = 0;

	HASH_FREE_ALL(m->by_pathkey, k, ktmp, pathkey_free);
	m->pathkeys_built = every ? 2 : 1;
	if (branch_walk(&walk, bi, m->repo) < 0)
		return -1;
	while (branch_walk_next(&id, &walk)) {
		git_commit *commit = NULL;
		unsigned char key[SHA1_RAWSZ];

		if (!every && !scan_commit_may_touch(m->scan, &id))
			continue;
		if (git_commit_lookup(&commit, m->repo, &id) < 0) {
			/*
			 * A malformed commit (the branch index said so): its
			 * paths from its trees, watched or not.
			 */
			if (!malformed_suspect()) {
				ret = error_git("cannot read a commit of '%s'",
						bi->name);
				break;
			}
			git_error_clear();
			ret = patchid_cache_pathkey_id(m->patchids, m->repo, &id,
						       key);
		} else {
			if (git_commit_parentcount(commit) != 1)
				ret = 1;
			else if (!every &&
				 (ret = scan_commit_touches(m->scan, commit)) >= 0)
				ret = !ret;
			if (!ret)
				ret = patchid_cache_pathkey(m->patchids, m->repo,
							    commit, key);
			git_commit_free(commit);
		}
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
	branch_walk_release(&walk);
	trace_printf("presence: the paths of %u sets of commits of %s%s",
		     HASH_COUNT(m->by_pathkey), bi->name,
		     every ? ", watched or not" : "");
	return ret < 0 ? -1 : 0;
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
	/* A key no branch commit has: the commit itself is not read. */
	k = NULL;
	if (key) {
		HASH_FIND(hh, m->by_pathkey, key, SHA1_RAWSZ, k);
		if (!k)
			return 0;
	}
	if (git_commit_lookup(&commit, m->repo, id) < 0)
		return error_git("cannot read commit %s", git_oid_tostr_s(id));
	if (git_commit_parentcount(commit) != 1) {
		git_commit_free(commit);
		return 0;
	}
	if (!k) {
		if (patchid_cache_pathkey(m->patchids, m->repo, commit, own) < 0) {
			git_commit_free(commit);
			return -1;
		}
		HASH_FIND(hh, m->by_pathkey, own, SHA1_RAWSZ, k);
		if (!k) {
			git_commit_free(commit);
			return 0;
		}
	}
	ret = patchid_cache_get(m->patchids, m->repo, commit, &want);
	git_commit_free(commit);
	if (ret == GIT_ENOTFOUND)
		return 0;
	if (ret < 0)
		return -1;
	for (i = k->nr; i-- > 0;) {
		ret = match_same_patch(m, &k->commits[i], &want);
		if (ret < 0)
			return -1;
		if (!ret)
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

int match_same_patch(struct match *m, const git_oid *id, const git_oid *want)
{
	git_oid pid;
	int ret = patchid_cache_get_id(m->patchids, m->repo, id, &pid);

	if (ret == GIT_ENOTFOUND)
		return 0;
	return ret < 0 ? -1 : git_oid_equal(&pid, want);
}

/* --- the methods ---------------------------------------------------------- */

/* What a method says of a candidate. */
enum found {
	FOUND_NOTHING,			/* ask the next method */
	FOUND_PRESENT,
	FOUND_MAYBE,			/* it may be: maybe-present */
};

static const char *base_name(const struct match *m)
{
	return m->branch->base_name ? m->branch->base_name : "the branch base";
}

static int by_ancestry(struct match *m, struct match_question *q)
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

/* The backport of c in the branch, or of what c backports itself. */
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

/* The reason branch commit id, a revert, gives (or NULL). */
static char *revert_reason(const struct match *m, const git_oid *id)
{
	git_repository *repo = m->repo;
	git_commit *commit = NULL;
	struct message msg;
	const char *text;
	char *why = NULL;

	if (malformed_lookup(&commit, repo, id)) {
		git_error_clear();
		return NULL;
	}
	text = git_commit_message(commit);
	message_init(&msg);
	if (text && !message_parse(&msg, text, strlen(text)))
		why = message_revert_reason(&msg, m->scan ? m->scan->rules :
						  NULL);
	message_release(&msg);
	git_commit_free(commit);
	return why;
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
	if (!c->branch_revert_why)
		c->branch_revert_why = revert_reason(m, reverted_by);
	return FOUND_NOTHING;
}

static int by_upstream_line(struct match *m, struct match_question *q)
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
static int by_patch_id(struct match *m, struct match_question *q)
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
 * only when no other commit of the range has the subject.  Not proof
 * (subjects repeat, "ext4: fix typo"): the candidate is maybe-present,
 * shown with the match; never dropped.
 */
static int by_subject(struct match *m, struct match_question *q)
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
		if (!mine && !(mine = match_files_of_candidate(m, c)))
			return -1;
		theirs = match_files_of(m, b);
		if (!match_share_a_name(mine->names, mine->nr, theirs->names,
					theirs->nr))
			continue;
		take(m, b, c);
		git_oid_tostr(hex, sizeof(hex), b);
		/* An adapted backport, then its revert: say so, go on. */
		if ((r = branch_index_reverted(m->branch, b))) {
			if (candidate_evidence(c, EVIDENCE_BACKPORT_REVERTED))
				continue;
			candidate_add_evidence(c, EVIDENCE_BACKPORT_REVERTED,
					       &r->by, "same subject as %.12s, "
					       "reverted in %s by %.12s", hex,
					       m->branch->name,
					       git_oid_tostr_s(&r->by));
			if (!c->branch_revert_why)
				c->branch_revert_why = revert_reason(m,
								     &r->by);
			continue;
		}
		candidate_add_evidence(c, EVIDENCE_SUBJECT, b,
				       "same subject as %.12s in %s", hex,
				       m->branch->name);
		return FOUND_MAYBE;
	}
	return FOUND_NOTHING;
}

/* Placed by ancestry at no cost: below the base, or a branch commit. */
static int places_by_ancestry(const struct match *m, const struct candidate *c,
			      int below)
{
	return below || branch_index_has(m->branch, &c->id);
}

/* Named by a backport, which by_upstream_line() reads (reverted or not). */
static int places_by_upstream_line(const struct match *m,
				   const struct candidate *c, int below)
{
	(void)below;
	return backport_of(m, c) != NULL;
}

/*
 * The methods, in order (match.h).  Those of the second pass run once
 * the first pass has run for every commit asked about.
 */
const struct match_method match_methods[] = {
	{
		.kind = EVIDENCE_ANCESTOR,
		.find = by_ancestry,
		.places = places_by_ancestry,
	},
	{
		.kind = EVIDENCE_UPSTREAM_LINE,
		.find = by_upstream_line,
		.places = places_by_upstream_line,
		.find_mainline = match_mainline_by_upstream_line,
	},
	{
		.kind = EVIDENCE_PATCH_ID,
		.find = by_patch_id,
		.find_mainline = match_mainline_by_patch_id,
	},
	{
		.kind = EVIDENCE_SUBJECT,
		.find = by_subject,
		.second_pass = 1,
		.maybe = "a commit of the branch has its subject",
		.find_mainline = match_mainline_by_subject,
	},
};
const size_t match_nr_methods = ARRAY_SIZE(match_methods);

const char *match_maybe_why(const struct candidate *c)
{
	const struct evidence *e = candidate_presence(c);
	size_t i;

	if (e)
		return e->detail;
	for (i = 0; i < match_nr_methods; i++)
		if (match_methods[i].maybe)
			return match_methods[i].maybe;
	return "";
}

static int ask(struct match *m, struct match_question *q, int pass)
{
	size_t i;
	int ret;

	for (i = 0; i < match_nr_methods; i++) {
		const struct match_method *mm = &match_methods[i];

		if (mm->second_pass != pass)
			continue;
		ret = mm->find(m, q);
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

/*
 * Whether the patch-id method will ask about c, with the path key of
 * the scan: no method before it places c (their places()).
 */
static int asks_patch_id(const struct match *m, const struct candidate *c,
			 struct oid_entry *below)
{
	struct oid_entry *e;
	size_t i;

	if (!c->has_pathkey || !c->nr_touched)
		return 0;
	HASH_FIND(hh, below, &c->id, sizeof(git_oid), e);
	for (i = 0; match_methods[i].kind != EVIDENCE_PATCH_ID; i++)
		if (match_methods[i].places &&
		    match_methods[i].places(m, c, e != NULL))
			return 0;
	return 1;
}

/*
 * The patch-ids the patch-id method is going to ask for, computed first
 * on every core (patchid_cache_fill()): those of the candidates that
 * ancestry and the upstream lines do not place and whose path key
 * branch commits share, and those branch commits'.  Only the work is
 * moved: each answer is the one patchid_cache_get() would compute.
 */
static int prefetch_patch_ids(struct match *m, const struct candidate_list *l,
			      struct oid_entry *below)
{
	git_oid *ids = NULL;
	size_t nr = 0, alloc = 0, i, j;
	int ret;

	if (!m->patchids)
		return 0;
	/* The branch's path keys cost a walk: only when some will be asked. */
	for (i = 0; i < l->nr && !asks_patch_id(m, l->items[i], below); i++)
		;
	if (i == l->nr)
		return 0;
	if (m->pathkeys_built < 1 && build_pathkeys(m, 0) < 0)
		return -1;
	for (; i < l->nr; i++) {
		const struct candidate *c = l->items[i];
		struct match_pathkey *k;
		size_t at = nr;

		if (!asks_patch_id(m, c, below))
			continue;
		HASH_FIND(hh, m->by_pathkey, c->pathkey, SHA1_RAWSZ, k);
		if (!k)
			continue;
		ALLOC_GROW_BY(ids, nr, 1 + k->nr, alloc);
		git_oid_cpy(&ids[at], &c->id);
		for (j = 0; j < k->nr; j++)
			git_oid_cpy(&ids[at + 1 + j], &k->commits[j]);
	}
	ret = patchid_cache_fill(m->patchids, m->repo, ids, nr, 0);
	free(ids);
	return ret;
}

int match_candidates(struct match *m, struct candidate_list *l,
		     const git_oid *range_from)
{
	struct oid_entry *below = NULL, *e, *tmp;
	struct progress progress;
	unsigned char *decided = xcalloc(l->nr ? l->nr : 1, 1);
	size_t computed = m->patchids ? m->patchids->computed : 0, i;
	int ret = 0, pass;

	if (range_from)
		ret = below_base(m, range_from, &below);
	else
		ret = below_base_of(m, l, &below);
	if (!ret)
		ret = prefetch_patch_ids(m, l, below);
	progress_start(&progress, "Presence", l->nr);
	for (pass = 0; pass < 2 && !ret; pass++) {
		for (i = 0; !ret && i < l->nr; i++) {
			struct match_question q;
			int r;

			if (decided[i])
				continue;
			if (interrupted()) {
				ret = -1;
				break;
			}
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
	if (m->patchids)
		trace_printf("presence: %zu patch-ids computed for %zu commits "
			     "asked about", m->patchids->computed - computed,
			     l->nr);
	HASH_FREE_ALL(below, e, tmp, free);
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
		ret = history_descendant_of(m->repo, &m->branch->base, id);
		if (ret > 0)
			return 1;
		git_error_clear();
	}
	/* Only a commit of the range can have been backported. */
	if (!m->scan || scan_in_range(m->scan, id) != 1)
		return 0;
	/* A malformed commit has no patch-id to look for. */
	if ((ret = malformed_lookup(&commit, m->repo, id)))
		return ret > 0 ? 0 : error_git("cannot read commit %s",
					       git_oid_tostr_s(id));
	watched = scan_commit_touches(m->scan, commit);
	git_commit_free(commit);
	if (watched < 0)
		return -1;
	ret = same_change(m, id, NULL, watched, &b);
	if (ret <= 0)
		return ret;
	return !branch_index_reverted(m->branch, &b);
}
