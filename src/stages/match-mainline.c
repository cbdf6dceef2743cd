/*
 * The presence engine the other way: which mainline commit a backport,
 * a pick or a pick mail stands for (match_mainline(): by its upstream
 * line, its change, its subject), a branch commit by subject for a
 * posted patch (match_branch_subject()), and subjects looked for in
 * all of the scanned range (match_range_subjects()).
 */
#include "stages/match-internal.h"
#include "base/error.h"
#include "git/history.h"
#include "git/malformed.h"
#include "formats/message.h"
#include "stages/scan.h"
#include "git/treediff.h"
#include "base/util.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

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
int match_mainline_by_upstream_line(struct match *m, const struct match_pick *p,
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
int match_mainline_by_patch_id(struct match *m, const struct match_pick *p,
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

		match_diff_paths(p->diff, &paths, &nr);
		treediff_key_of(key, paths, nr);
		free_string_array(paths, nr);
	} else {
		git_error_clear();
		return 0;
	}
	for (i = 0; i < l->nr; i++) {
		struct candidate *c = l->items[i];

		if (!c->has_pathkey || memcmp(c->pathkey, key, sizeof(key)))
			continue;
		ret = match_same_patch(m, &c->id, &want);
		if (ret < 0)
			return -1;
		if (ret) {
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
int match_mainline_by_subject(struct match *m, const struct match_pick *p,
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
		match_build_subjects(m);
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
	theirs = match_files_of_candidate(m, s->first);
	if (!theirs)
		return -1;
	if (p->commit) {
		const struct match_files *mine = match_files_of(m, p->commit);

		ret = match_share_a_name(mine->names, mine->nr,
					 theirs->names, theirs->nr);
	} else if (p->diff) {
		match_files_of_diff(p->diff, &names, &nr);
		ret = match_share_a_name(names, nr, theirs->names, theirs->nr);
		free_string_array(names, nr);
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

int match_mainline(struct match *m, const struct match_pick *p,
		   struct match_found *out, const char **why)
{
	size_t i;
	int ret;

	memset(out, 0, sizeof(*out));
	/* The methods of match_methods[] that can go the other way. */
	for (i = 0; i < match_nr_methods; i++) {
		const struct match_method *mm = &match_methods[i];

		if (!mm->find_mainline)
			continue;
		ret = mm->find_mainline(m, p, out);
		if (ret < 0)
			return -1;
		if (ret) {
			out->how = mm->kind;
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
	match_tie_named(m);
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
	struct history_walk walk;
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
	history_walk_init(&walk, m->repo, GIT_SORT_NONE);
	if (history_walk_push(&walk, &s->to) < 0 ||
	    (s->has_from && history_walk_hide(&walk, &s->from) < 0)) {
		ret = error_git("cannot walk %s", s->range);
		goto out;
	}
	while (!(ret = history_walk_next(&id, &walk))) {
		git_commit *commit = NULL;
		const char *summary;

		/* Skipped as the scan skips it: it stands for no candidate. */
		if ((ret = malformed_lookup(&commit, m->repo, &id))) {
			if (ret > 0)
				continue;
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
	history_walk_release(&walk);
	HASH_FREE_ALL(index, e, tmp, free);
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
