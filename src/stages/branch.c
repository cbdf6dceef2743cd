#include "stages/branch.h"
#include "base/error.h"
#include "git/history.h"
#include "git/malformed.h"
#include "git/treediff.h"
#include "formats/message.h"
#include "base/progress.h"
#include "stages/scan.h"
#include "base/strbuf.h"
#include "base/trace.h"
#include "base/util.h"

#include <ctype.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

void branch_index_init(struct branch_index *bi)
{
	memset(bi, 0, sizeof(*bi));
	bi->major = bi->minor = -1;
}

static void backport_free(struct branch_backport *b)
{
	free(b->all);
	free(b);
}

static void subject_free(struct branch_subject *s)
{
	free(s->subject);
	free(s->commits);
	free(s);
}

void branch_index_release(struct branch_index *bi)
{
	struct branch_backport *b, *tmp;
	struct branch_revert *r, *rtmp;
	struct branch_subject *s, *stmp;

	HASH_FREE_ALL(bi->by_upstream, b, tmp, backport_free);
	HASH_FREE_ALL(bi->reverts, r, rtmp, free);
	HASH_FREE_ALL(bi->subjects, s, stmp, subject_free);
	free(bi->name);
	free(bi->base_name);
	free(bi->commits);
	branch_index_init(bi);
}

int branch_parse_version(const char *s, int *major, int *minor)
{
	const char *p = s;
	char *end;
	long ma, mi;

	/* Skip to the first digit that starts "N.N". */
	for (; *p; p++) {
		if (!isdigit((unsigned char)*p))
			continue;
		ma = strtol(p, &end, 10);
		if (*end != '.' || !isdigit((unsigned char)end[1])) {
			p = end - 1;
			continue;
		}
		mi = strtol(end + 1, &end, 10);
		if (ma > 1000 || mi > 1000)
			return -1;
		*major = (int)ma;
		*minor = (int)mi;
		return 0;
	}
	return -1;
}

/*
 * Whether the tag ref names the commit target.  The peeled id that
 * packed-refs keeps answers without reading the tag object; a ref
 * without one names target itself, or a tag object read and peeled
 * (the header read tells a tag object from a commit).
 */
static int tag_names(git_repository *repo, git_odb *odb,
		     const git_reference *ref, const git_oid *target)
{
	const git_oid *id = git_reference_target(ref);
	const git_oid *peeled = git_reference_target_peel(ref);
	git_object *obj = NULL, *commit = NULL;
	git_object_t type;
	size_t len;
	int ret = 0;

	if (peeled)
		return git_oid_equal(peeled, target);
	if (!id)
		return 0;
	if (git_oid_equal(id, target))
		return 1;
	/* Only a tag object can peel to another commit. */
	if (git_odb_read_header(&len, &type, odb, id) < 0 ||
	    type != GIT_OBJECT_TAG)
		goto out;
	if (git_object_lookup(&obj, repo, id, GIT_OBJECT_TAG) < 0 ||
	    git_object_peel(&commit, obj, GIT_OBJECT_COMMIT) < 0)
		goto out;
	ret = git_oid_equal(git_object_id(commit), target);
out:
	git_object_free(commit);
	git_object_free(obj);
	git_error_clear();
	return ret;
}

/*
 * The name of a tag of the commit target (NULL: none).  Prefers the
 * shortest name, so that "v6.6" wins over a vendor's
 * "v6.6-vendor-base"; of two as short, the first in ref order.
 */
static char *tag_of(git_repository *repo, const git_oid *target)
{
	git_reference_iterator *iter = NULL;
	git_reference *ref = NULL;
	git_odb *odb = NULL;
	char *best = NULL;

	if (git_repository_odb(&odb, repo) < 0 ||
	    git_reference_iterator_new(&iter, repo) < 0)
		goto out;
	while (!git_reference_next(&ref, iter)) {
		const char *name = git_reference_name(ref);
		git_reference *resolved = NULL;

		if (skip_prefix(name, "refs/tags/", &name) &&
		    (!best || strlen(name) < strlen(best)) &&
		    !git_reference_resolve(&resolved, ref) &&
		    tag_names(repo, odb, resolved, target)) {
			free(best);
			best = xstrdup(name);
		}
		git_reference_free(resolved);
		git_reference_free(ref);
	}
out:
	git_reference_iterator_free(iter);
	git_odb_free(odb);
	git_error_clear();
	return best;
}

static void add_backport(struct branch_index *bi, const char *hex,
			 const git_oid *commit)
{
	struct branch_backport *b;
	git_oid up;

	if (git_oid_fromstr(&up, hex) < 0)
		return;
	HASH_FIND(hh, bi->by_upstream, &up, sizeof(up), b);
	if (!b) {
		b = xcalloc(1, sizeof(*b));
		git_oid_cpy(&b->upstream, &up);
		HASH_ADD(hh, bi->by_upstream, upstream, sizeof(git_oid), b);
	}
	ALLOC_GROW(b->all, b->nr_all, b->alloc_all);
	git_oid_cpy(&b->all[b->nr_all++], commit);
}

/* Remembers that branch commit `by` reverts the commit m names. */
static void add_revert(struct branch_index *bi, git_repository *repo,
		       const struct message *m, const git_oid *by)
{
	struct branch_revert *r;
	git_object *obj = NULL;
	git_oid prefix;
	size_t len = m->reverts_id ? strlen(m->reverts_id) : 0;

	if (len < 4 || git_oid_fromstrn(&prefix, m->reverts_id, len) < 0)
		return;
	if (git_object_lookup_prefix(&obj, repo, &prefix, len,
				     GIT_OBJECT_COMMIT) < 0) {
		git_error_clear();
		return;
	}
	r = xcalloc(1, sizeof(*r));
	git_oid_cpy(&r->reverted, git_object_id(obj));
	git_oid_cpy(&r->by, by);
	git_object_free(obj);
	HASH_ADD(hh, bi->reverts, reverted, sizeof(git_oid), r);
}

static void add_subject(struct branch_index *bi, const char *subject,
			const git_oid *commit)
{
	struct branch_subject *s;

	if (!subject || !*subject)
		return;
	HASH_FIND_STR(bi->subjects, subject, s);
	if (!s) {
		s = xcalloc(1, sizeof(*s));
		s->subject = xstrdup(subject);
		HASH_ADD_KEYPTR(hh, bi->subjects, s->subject,
				strlen(s->subject), s);
	}
	/* Walked oldest first. */
	ALLOC_GROW(s->commits, s->nr, s->alloc);
	git_oid_cpy(&s->commits[s->nr++], commit);
}

/* Picks the backport that counts, now that every revert is known. */
static void settle_backports(struct branch_index *bi)
{
	struct branch_backport *b, *tmp;
	struct branch_revert *r;
	size_t i;

	HASH_ITER(hh, bi->by_upstream, b, tmp) {
		git_oid_cpy(&b->commit, &b->all[b->nr_all - 1]);
		b->reverted = 1;
		for (i = b->nr_all; i-- > 0;) {
			HASH_FIND(hh, bi->reverts, &b->all[i], sizeof(git_oid), r);
			if (!r) {
				git_oid_cpy(&b->commit, &b->all[i]);
				b->reverted = 0;
				break;
			}
			if (i == b->nr_all - 1)
				git_oid_cpy(&b->reverted_by, &r->by);
		}
	}
}

static int cmp_oid(const void *a, const void *b)
{
	return git_oid_cmp(a, b);
}

int branch_walk(struct branch_walk *w, const struct branch_index *bi,
		git_repository *repo)
{
	if (history_range(&w->range, repo, &bi->tip, &bi->base, 1) < 0) {
		w->left = 0;
		return error_git("cannot walk branch '%s'", bi->name);
	}
	w->left = w->range.nr;
	return 0;
}

int branch_walk_next(git_oid *id, struct branch_walk *w)
{
	if (!w->left)
		return 0;
	git_oid_cpy(id, &w->range.items[--w->left].id);
	return 1;
}

void branch_walk_release(struct branch_walk *w)
{
	history_range_release(&w->range);
	w->left = 0;
}

/* Reads the branch after bi->base; 1 when it has more than limit. */
static int read_branch(struct branch_index *bi, git_repository *repo,
		       size_t limit)
{
	struct branch_walk walk;
	git_oid id;
	int ret;

	/* Oldest first: the newest backport of a subject wins. */
	if ((ret = branch_walk(&walk, bi, repo)) < 0)
		return ret;
	while (branch_walk_next(&id, &walk)) {
		struct malformed_commit bad;
		git_commit *commit = NULL;
		struct message m;
		const char *raw;
		size_t i;

		/* A malformed one is read from its object: a backport still. */
		if (malformed_lookup_raw(&commit, &bad, repo, &id) < 0) {
			ret = error_git("cannot read a commit of '%s'", bi->name);
			goto out;
		}
		bi->nr_commits++;
		if (bi->nr_commits > limit) {
			git_commit_free(commit);
			malformed_release(&bad);
			ret = 1;
			goto out;
		}
		ALLOC_GROW(bi->commits, bi->nr_sorted, bi->alloc_commits);
		git_oid_cpy(&bi->commits[bi->nr_sorted++], &id);
		if (!bi->reaches_base) {
			unsigned int p, np = commit ?
				git_commit_parentcount(commit) : bad.nr_parents;

			for (p = 0; p < np; p++)
				if (git_oid_equal(commit ?
					git_commit_parent_id(commit, p) :
					&bad.parents[p], &bi->base))
					bi->reaches_base = 1;
		}
		raw = commit ? git_commit_message(commit) : bad.message;
		message_init(&m);
		message_parse(&m, raw ? raw : "", raw ? strlen(raw) : 0);
		message_read_backports(&m, raw ? raw : "", raw ? strlen(raw) : 0,
				       bi->rules);
		if (m.nr_upstream)
			bi->nr_backports++;
		for (i = 0; i < m.nr_upstream; i++)
			add_backport(bi, m.upstream[i], &id);
		if (m.is_revert)
			add_revert(bi, repo, &m, &id);
		add_subject(bi, m.subject, &id);
		message_release(&m);
		git_commit_free(commit);
		malformed_release(&bad);
	}
	ret = 0;
	settle_backports(bi);
	QSORT(bi->commits, bi->nr_sorted, cmp_oid);
	if (git_oid_equal(&bi->tip, &bi->base))
		bi->reaches_base = 1;
out:
	branch_walk_release(&walk);
	return ret;
}

static int resolve_tip(struct branch_index *bi, git_repository *repo,
		       const char *branch)
{
	int ret;

	free(bi->name);

	bi->name = xstrdup(branch);
	/* A malformed commit at the tip is read as the walks read it. */
	ret = malformed_revparse(&bi->tip, repo, branch);
	if (ret == GIT_ENOTFOUND) {
		struct strbuf name = STRBUF_INIT;

		strbuf_addf(&name, "branch '%s'", branch);
		ret = scan_ref_error(repo, branch, name.buf, 1);
		strbuf_release(&name);
		return ret ? ret : error("unknown branch '%s'", branch);
	}
	if (ret == GIT_EPEEL)
		return error("branch '%s' does not point at a commit", branch);
	if (ret < 0)
		return error_git("cannot resolve branch '%s'", branch);
	return 0;
}

/* Names the base (a tag) and reads the branch after it. */
static int read_from_base(struct branch_index *bi, git_repository *repo,
			  const char *branch, size_t limit)
{
	bi->base_name = tag_of(repo, &bi->base);

	if (!bi->base_name ||
	    branch_parse_version(bi->base_name, &bi->major, &bi->minor) < 0)
		branch_parse_version(branch, &bi->major, &bi->minor);
	return read_branch(bi, repo, limit);
}

int branch_index_build_from(struct branch_index *bi, git_repository *repo,
			    const char *branch, const git_oid *guess,
			    size_t limit, const struct ruleset *rules)
{
	bi->rules = rules;
	if (resolve_tip(bi, repo, branch) < 0)
		return -1;
	git_oid_cpy(&bi->base, guess);
	bi->guessed = 1;
	return read_from_base(bi, repo, branch, limit);
}

int branch_index_base_holds(const struct branch_index *bi,
			    const struct scan *mainline)
{
	size_t i;

	if (!bi->reaches_base || !scan_reaches_from(mainline))
		return 0;
	for (i = 0; i < bi->nr_sorted; i++)
		if (scan_in_range(mainline, &bi->commits[i]) != 0)
			return 0;
	return 1;
}

/*
 * The merge base failed on a commit that cannot be read (missing, or in
 * a damaged pack), and libgit2 says neither which nor, often, why: a
 * walk of both histories that reads every commit finds it.  Only on
 * this error path; it may read all of history.
 */
static int base_error(git_repository *repo, const char *branch,
		      const git_oid *tip, const git_oid *upstream)
{
	struct seen {
		git_oid id;
		UT_hash_handle hh;
	} *seen = NULL, *e, *tmp;
	git_oid *todo = NULL, bad;
	size_t nr = 0, alloc = 0;
	int found = 0;

	ALLOC_GROW(todo, nr + 2, alloc);
	git_oid_cpy(&todo[nr++], tip);
	git_oid_cpy(&todo[nr++], upstream);
	while (nr && !found) {
		git_commit *commit = NULL;
		git_oid id = todo[--nr];
		unsigned int i;

		HASH_FIND(hh, seen, &id, sizeof(id), e);
		if (e)
			continue;
		e = xcalloc(1, sizeof(*e));
		git_oid_cpy(&e->id, &id);
		HASH_ADD(hh, seen, id, sizeof(git_oid), e);
		if (git_commit_lookup(&commit, repo, &id) < 0) {
			struct malformed_commit m;

			/* Not the fault: the merge base goes through it. */
			if (malformed_check(&m, repo, &id)) {
				for (i = 0; i < m.nr_parents; i++) {
					ALLOC_GROW(todo, nr + 1, alloc);
					git_oid_cpy(&todo[nr++], &m.parents[i]);
				}
				malformed_release(&m);
				continue;
			}
			git_oid_cpy(&bad, &id);
			found = 1;
			break;
		}
		for (i = 0; i < git_commit_parentcount(commit); i++) {
			ALLOC_GROW(todo, nr + 1, alloc);
			git_oid_cpy(&todo[nr++], git_commit_parent_id(commit, i));
		}
		git_commit_free(commit);
	}
	free(todo);
	HASH_ITER(hh, seen, e, tmp) {
		HASH_DEL(seen, e);
		free(e);
	}
	if (found)
		return error_git("cannot find the base of branch '%s': cannot "
				 "read commit %s", branch, git_oid_tostr_s(&bad));
	return error_git("cannot find the base of branch '%s'", branch);
}

int branch_index_build(struct branch_index *bi, git_repository *repo,
		       const char *branch, const git_oid *upstream_tip,
		       const struct ruleset *rules)
{
	int ret;

	bi->rules = rules;
	if (resolve_tip(bi, repo, branch) < 0)
		return -1;
	ret = history_merge_base(&bi->base, repo, &bi->tip, upstream_tip);
	if (ret == GIT_ENOTFOUND)
		return error("branch '%s' has no history in common with mainline",
			     branch);
	if (ret < 0 && git_repository_is_shallow(repo)) {
		struct strbuf what = STRBUF_INIT;

		git_error_clear();
		strbuf_addf(&what, "'%s' and mainline", branch);
		ret = scan_shallow_error(repo, what.buf);
		strbuf_release(&what);
		return ret;
	}
	if (ret < 0)
		return base_error(repo, branch, &bi->tip, upstream_tip);
	return read_from_base(bi, repo, branch, SIZE_MAX);
}

int branch_index_has(const struct branch_index *bi, const git_oid *id)
{
	return bi->nr_sorted &&
	       bsearch(id, bi->commits, bi->nr_sorted, sizeof(git_oid),
		       cmp_oid) != NULL;
}

const struct branch_backport *branch_index_find(const struct branch_index *bi,
						const git_oid *upstream)
{
	struct branch_backport *b;

	HASH_FIND(hh, bi->by_upstream, upstream, sizeof(*upstream), b);
	return b;
}

const struct branch_subject *branch_index_subject(const struct branch_index *bi,
						  const char *subject)
{
	struct branch_subject *s;

	HASH_FIND_STR(bi->subjects, subject, s);
	return s;
}

const struct branch_revert *branch_index_reverted(const struct branch_index *bi,
						  const git_oid *id)
{
	struct branch_revert *r;

	HASH_FIND(hh, bi->reverts, id, sizeof(*id), r);
	return r;
}
