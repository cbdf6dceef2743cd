#include "stages/match.h"
#include "stages/match-internal.h"
#include "base/error.h"
#include "git/history.h"
#include "stages/scan.h"
#include "base/trace.h"
#include "base/util.h"

#include <string.h>

/*
 * Twins: a commit of the range whose change the branch has under
 * another commit of the same subject and patch-id, below the base or
 * among the range's (match_twins(), match.h).
 */

/* The questions (or the candidates) of one subject. */
struct twin_subject {
	const char *subject;		/* borrowed from a message */
	size_t *idx;
	size_t nr, alloc;
	UT_hash_handle hh;
};

static void subject_free(struct twin_subject *s)
{
	free(s->idx);
	free(s);
}

static void subject_add(struct twin_subject **head, const char *subject,
			size_t i)
{
	struct twin_subject *s;

	HASH_FIND_STR(*head, subject, s);
	if (!s) {
		s = xcalloc(1, sizeof(*s));
		s->subject = subject;
		HASH_ADD_KEYPTR(hh, *head, s->subject, strlen(s->subject), s);
	}
	ALLOC_GROW(s->idx, s->nr, s->alloc);
	s->idx[s->nr++] = i;
}

/*
 * The questions' patch-ids, computed when a commit of the same subject
 * is met: most questions meet none, and a diff is what costs.
 */
struct twin_pids {
	struct match *m;
	struct candidate *const *cands;
	git_oid *pids;
	int *state;			/* 0 not yet, 1 known, -1 no diff */
};

/* The patch-id of question i: 1 with *out, 0 for none, -1 on error. */
static int pid_of(struct twin_pids *p, size_t i, const git_oid **out)
{
	if (!p->state[i]) {
		int ret = patchid_cache_get_id(p->m->patchids, p->m->repo,
					       &p->cands[i]->id, &p->pids[i]);

		if (ret < 0 && ret != GIT_ENOTFOUND)
			return -1;
		p->state[i] = ret ? -1 : 1;
	}
	*out = &p->pids[i];
	return p->state[i] > 0;
}

/* What the walk below the base looks for. */
struct twin_walk {
	struct match *m;
	struct twin_subject *pending;	/* questions by subject */
	struct twin_pids *pids;
	struct match_twin *out;
	int err;
};

/* The first line of a message, trimmed: *len bytes from the result. */
static const char *first_line(const char *msg, size_t *len)
{
	const char *end;

	while (*msg == ' ' || *msg == '\t' || *msg == '\n')
		msg++;
	end = strchr(msg, '\n');
	if (!end)
		end = msg + strlen(msg);
	while (end > msg && (end[-1] == ' ' || end[-1] == '\t' ||
			     end[-1] == '\r'))
		end--;
	*len = (size_t)(end - msg);
	return msg;
}

/* A commit below the base: the twin of the questions it has the change of. */
static int met_twin(const git_oid *id, void *data)
{
	struct twin_walk *w = data;
	struct twin_subject *s;
	git_commit *commit = NULL;
	const char *msg, *line;
	size_t len, i;
	git_oid pid;
	int ret, met = 0;

	if (git_commit_lookup(&commit, w->m->repo, id) < 0) {
		git_error_clear();	/* a malformed commit: no twin */
		return 0;
	}
	msg = git_commit_message(commit);
	line = first_line(msg ? msg : "", &len);
	HASH_FIND(hh, w->pending, line, len, s);
	ret = s && git_commit_parentcount(commit) == 1 ?
	      patchid_cache_get(w->m->patchids, w->m->repo, commit, &pid) :
	      GIT_ENOTFOUND;
	git_commit_free(commit);
	if (ret < 0 && ret != GIT_ENOTFOUND)
		w->err = -1;
	if (ret < 0)
		return 0;
	for (i = 0; i < s->nr; i++) {
		struct match_twin *t = &w->out[s->idx[i]];
		const git_oid *want;

		if (t->found)
			continue;
		ret = pid_of(w->pids, s->idx[i], &want);
		if (ret < 0)
			w->err = -1;
		if (ret <= 0 || !git_oid_equal(&pid, want))
			continue;
		git_oid_cpy(&t->id, id);
		t->found = 1;
		met = 1;
	}
	return met;
}

/* The twins below the base of the questions not answered yet. */
static int twins_below(struct match *m, struct candidate *const *cands,
		       size_t nr, struct twin_pids *pids, struct match_twin *out)
{
	struct twin_walk w = { m, NULL, pids, out, 0 };
	struct twin_subject *s, *tmp;
	struct history_walk walk;
	git_time_t oldest = 0;
	size_t pending = 0, walked = 0, i;
	int ret = 0;

	for (i = 0; i < nr; i++) {
		if (out[i].found || pids->state[i] < 0)
			continue;
		subject_add(&w.pending, cands[i]->msg.subject, i);
		if (!pending++ || cands[i]->time < oldest)
			oldest = cands[i]->time;
	}
	if (!pending)
		return 0;
	/*
	 * A twin below the base was committed after its change was
	 * written: the walk down by date stops a month before the oldest
	 * author date asked about.
	 */
	history_walk_init(&walk, m->repo, GIT_SORT_TIME);
	if (history_walk_push(&walk, &m->branch->base) < 0)
		ret = error_git("cannot walk below the base of '%s'",
				m->branch->name);
	else if (history_walk_below(&walk, pending, oldest, met_twin, &w,
				    &walked) < 0)
		ret = error_git("cannot walk below the base of '%s'",
				m->branch->name);
	else if (w.err)
		ret = -1;
	trace_printf("presence: twins of %zu commits looked for in %zu "
		     "commits below the base", pending, walked);
	history_walk_release(&walk);
	HASH_FREE_ALL(w.pending, s, tmp, subject_free);
	return ret;
}

/* The twins among the range's candidates that accept() takes. */
static int twins_in_range(struct match *m, struct candidate *const *cands,
			  size_t nr, struct twin_pids *pids,
			  int (*accept)(const struct candidate *twin,
					const struct candidate *c),
			  struct match_twin *out)
{
	const struct candidate_list *l = &m->scan->candidates;
	struct twin_subject *by_subject = NULL, *s, *tmp;
	size_t i, j;
	int ret = 0;

	for (i = 0; i < l->nr; i++)
		if (l->items[i]->msg.subject && *l->items[i]->msg.subject)
			subject_add(&by_subject, l->items[i]->msg.subject, i);
	for (i = 0; !ret && i < nr; i++) {
		if (pids->state[i] < 0)
			continue;
		HASH_FIND_STR(by_subject, cands[i]->msg.subject, s);
		for (j = 0; s && j < s->nr && !out[i].found; j++) {
			struct candidate *d = l->items[s->idx[j]];
			const git_oid *want;

			if (d == cands[i] || !accept(d, cands[i]))
				continue;
			ret = pid_of(pids, i, &want);
			if (ret <= 0)
				break;
			ret = match_same_patch(m, &d->id, want);
			if (ret < 0)
				break;
			if (!ret)
				continue;
			ret = 0;
			git_oid_cpy(&out[i].id, &d->id);
			out[i].cand = d;
			out[i].found = 1;
		}
	}
	HASH_FREE_ALL(by_subject, s, tmp, subject_free);
	return ret < 0 ? -1 : 0;
}

int match_twins(struct match *m, struct candidate *const *cands, size_t nr,
		int (*accept)(const struct candidate *twin,
			      const struct candidate *c),
		struct match_twin *out)
{
	struct twin_pids pids = { m, cands, NULL, NULL };
	int ret;
	size_t i;

	memset(out, 0, nr * sizeof(*out));
	if (!m->patchids || !nr)
		return 0;
	pids.pids = xcalloc(nr, sizeof(*pids.pids));
	pids.state = xcalloc(nr, sizeof(*pids.state));
	/* Without a subject, no twin. */
	for (i = 0; i < nr; i++)
		if (!cands[i]->msg.subject || !*cands[i]->msg.subject)
			pids.state[i] = -1;
	ret = twins_in_range(m, cands, nr, &pids, accept, out);
	if (!ret)
		ret = twins_below(m, cands, nr, &pids, out);
	free(pids.pids);
	free(pids.state);
	return ret;
}
