/*
 * deps-subjects.c: the Fixes: targets looked up by their quoted subject
 * (an id that does not resolve, or names a commit with another
 * subject), all at once: from the scan cache for the same upstream tip,
 * else by one walk of mainline, whose answers the cache then keeps.
 */
#include "stages/deps-internal.h"
#include "base/error.h"
#include "base/strbuf.h"
#include "base/trace.h"
#include "base/util.h"
#include "git/history.h"
#include "git/malformed.h"

#include <stdlib.h>
#include <string.h>

static void subject_entry_free(struct subject_entry *e)
{
	free(e->subject);
	free(e);
}

void deps_subjects_release(struct deps *d)
{
	struct subject_entry *e, *tmp;

	HASH_FREE_ALL(d->subjects, e, tmp, subject_entry_free);
}

/*
 * The subjects of d->subjects not answered yet, looked for in mainline:
 * the first commit of each that a walk down from the upstream tip
 * meets, as an index of every mainline subject would keep.  The walk
 * stops once every subject is found; one that is not found costs a walk
 * of all of mainline.  pending is how many are not answered.
 */
static int walk_for_subjects(struct deps *d, size_t pending, size_t *walked)
{
	struct history_walk walk;
	git_oid id;
	int ret;

	history_walk_init(&walk, d->repo, GIT_SORT_NONE);
	if (history_walk_push(&walk, d->upstream) < 0) {
		history_walk_release(&walk);
		return error_git("cannot walk mainline for subjects");
	}
	while (pending && !(ret = history_walk_next(&id, &walk))) {
		struct malformed_commit bad;
		git_commit *commit = NULL;
		const char *summary;
		struct subject_entry *e = NULL;

		(*walked)++;
		if (malformed_lookup_raw(&commit, &bad, d->repo, &id) < 0) {
			ret = error_git("cannot read a mainline commit");
			break;
		}
		summary = commit ? git_commit_summary(commit) : bad.summary;
		if (summary)
			HASH_FIND_STR(d->subjects, summary, e);
		if (e && !e->answered) {
			e->answered = 1;
			e->found = 1;
			git_oid_cpy(&e->id, &id);
			pending--;
		}
		git_commit_free(commit);
		malformed_release(&bad);
	}
	history_walk_release(&walk);
	if (!pending || ret == GIT_ITEROVER)
		return 0;
	return ret < 0 ? -1 : 0;
}

/*
 * Answers the subjects of d->subjects: from the scan cache, for the
 * same upstream tip; else by walking mainline (and then kept there).
 */
static int answer_subjects(struct deps *d)
{
	struct subject_entry *e, *tmp;
	size_t asked = 0, cached = 0, walked = 0;

	HASH_ITER(hh, d->subjects, e, tmp) {
		const struct scancache_subject *s = d->cache ?
			scancache_find_subject(d->cache, d->upstream, e->subject) : NULL;

		asked++;
		if (!s)
			continue;
		cached++;
		e->answered = 1;
		e->found = s->found;
		git_oid_cpy(&e->id, &s->id);
	}
	if (!asked)
		return 0;
	if (asked > cached && walk_for_subjects(d, asked - cached, &walked) < 0)
		return -1;
	trace_printf("deps: %zu subjects of Fixes: tags looked up, %zu from "
		     "the cache, %zu commits walked", asked, cached, walked);
	HASH_ITER(hh, d->subjects, e, tmp) {
		e->answered = 1;
		if (d->cache)
			scancache_put_subject(d->cache, d->upstream, e->subject,
					      e->found ? &e->id : NULL);
	}
	return 0;
}

static int subject_of(git_repository *repo, const git_oid *id,
		      struct strbuf *out)
{
	struct malformed_commit bad;
	git_commit *commit = NULL;

	if (git_commit_lookup(&commit, repo, id) < 0) {
		if (!malformed_check(&bad, repo, id)) {
			git_error_clear();
			return -1;
		}
		strbuf_addstr(out, bad.summary);
		malformed_release(&bad);
		return 0;
	}
	strbuf_addstr(out, git_commit_summary(commit) ? git_commit_summary(commit) : "");
	git_commit_free(commit);
	return 0;
}

/*
 * A Fixes: id that does not resolve, or resolves to a commit with
 * another subject, is looked up by its quoted subject: 1 when t is
 * such a target, 0 when not.
 */
static int wants_subject(struct deps *d, const struct fixes_target *t)
{
	struct strbuf subject = STRBUF_INIT;
	int same;

	if (!t->ref->subject)
		return 0;
	if (!t->resolved)
		return 1;
	same = !subject_of(d->repo, &t->id, &subject) &&
		!strcmp(subject.buf, t->ref->subject);
	strbuf_release(&subject);
	return !same;
}

/* What the lookup by subject found for t (see wants_subject()). */
void deps_resolve_by_subject(struct deps *d, struct candidate *c,
			     struct fixes_target *t)
{
	struct subject_entry *e;

	HASH_FIND_STR(d->subjects, t->ref->subject, e);
	if (e && e->found) {
		if (!t->resolved || !git_oid_equal(&t->id, &e->id))
			candidate_add_warning(c, "Fixes: %s (\"%s\") resolved "
					      "by its subject", t->ref->id,
					      t->ref->subject);
		git_oid_cpy(&t->id, &e->id);
		t->resolved = 1;
		t->by_subject = 1;
	}
}

/*
 * The Fixes: targets to look up by subject, answered all at once (one
 * walk of mainline at most): wants[k] says whether the k-th target of
 * the candidates, in order, is one.
 */
int deps_find_subjects(struct deps *d, unsigned char **wants)
{
	size_t i, j, k = 0, nr = 0;

	for (i = 0; i < d->cands->nr; i++)
		if (d->cands->items[i]->fixes)
			nr += d->cands->items[i]->msg.nr_fixes;
	*wants = xcalloc(nr ? nr : 1, 1);
	for (i = 0; i < d->cands->nr; i++) {
		struct candidate *c = d->cands->items[i];

		for (j = 0; c->fixes && j < c->msg.nr_fixes; j++, k++) {
			const char *subject = c->fixes[j].ref->subject;
			struct subject_entry *e;

			if (!wants_subject(d, &c->fixes[j]))
				continue;
			(*wants)[k] = 1;
			HASH_FIND_STR(d->subjects, subject, e);
			if (e)
				continue;
			e = xcalloc(1, sizeof(*e));
			e->subject = xstrdup(subject);
			HASH_ADD_KEYPTR(hh, d->subjects, e->subject,
					strlen(e->subject), e);
		}
	}
	return answer_subjects(d);
}
