#include "stages/deps-internal.h"
#include "base/error.h"
#include "formats/message.h"
#include "git/history.h"
#include "git/malformed.h"
#include "base/strbuf.h"
#include "base/trace.h"
#include "base/util.h"

#include <string.h>
#include <uthash.h>

/* Whether a commit outside the run is below the branch base. */
struct ancestry_entry {
	git_oid id;
	git_time_t time;
	int below;
	UT_hash_handle hh;
};

void deps_init(struct deps *d, git_repository *repo, struct match *match,
	       struct candidate_list *cands, const git_oid *upstream)
{
	memset(d, 0, sizeof(*d));
	d->repo = repo;
	d->match = match;
	d->branch = match->branch;
	d->cands = cands;
	d->upstream = upstream;
}

void deps_set_range(struct deps *d, const struct scan *range)
{
	d->range = range;
}

void deps_set_cache(struct deps *d, struct scancache *cache)
{
	d->cache = cache;
}

void deps_release(struct deps *d)
{
	struct ancestry_entry *a, *atmp;

	HASH_FREE_ALL(d->ancestry, a, atmp, free);
	deps_subjects_release(d);
	memset(d, 0, sizeof(*d));
}

const char *target_status_name(enum target_status s)
{
	switch (s) {
	case TARGET_IN_BRANCH: return "in-branch";
	case TARGET_PROPOSED: return "proposed";
	case TARGET_ABSENT: return "absent";
	case TARGET_UNKNOWN: break;
	}
	return "unknown";
}

/* Resolves what a revert reverts: its id, else its quoted subject. */
static struct candidate *revert_target(struct deps *d, struct candidate *r,
				       git_oid *id, int *found)
{
	git_object *obj = NULL;
	git_oid prefix;
	size_t i, len;

	*found = 0;
	if (r->msg.reverts_id) {
		len = strlen(r->msg.reverts_id);
		if (len >= 4 && !git_oid_fromstrn(&prefix, r->msg.reverts_id, len) &&
		    !git_object_lookup_prefix(&obj, d->repo, &prefix, len,
					      GIT_OBJECT_COMMIT)) {
			git_oid_cpy(id, git_object_id(obj));
			git_object_free(obj);
			*found = 1;
			return candidate_list_find(d->cands, id);
		}
		git_error_clear();
	}
	if (!r->msg.reverts_subject)
		return NULL;
	/* Newest first: the latest commit of that subject before r. */
	for (i = r->order; i-- > 0;) {
		struct candidate *c = d->cands->items[i];

		if (c->msg.subject && !strcmp(c->msg.subject, r->msg.reverts_subject)) {
			git_oid_cpy(id, &c->id);
			*found = 1;
			return c;
		}
	}
	return NULL;
}

static void mark_reverted(struct candidate *c, const char *hex,
			  const char *subject)
{
	if (c->reverted_by)
		return;
	c->reverted_by = xstrdup(hex);
	c->reverted_by_subject = xstrdup(subject ? subject : "");
}

/*
 * Is a commit outside this run in the branch?  The presence engine
 * says, with what the walk below the base found already.  1, 0, or -1
 * after an error message.
 */
static int in_branch(struct deps *d, const git_oid *id)
{
	struct ancestry_entry *a;

	HASH_FIND(hh, d->ancestry, id, sizeof(*id), a);
	if (a && a->below)
		return 1;
	return match_commit_in_branch(d->match, id, !a);
}

/* Resolves an abbreviated commit id; 1 when found. */
static int resolve_prefix(struct deps *d, const char *hex, size_t len,
			  git_oid *id)
{
	git_object *obj = NULL;
	git_oid prefix;

	if (len < 4 || len > GIT_OID_HEXSZ || !is_hex(hex, len) ||
	    git_oid_fromstrn(&prefix, hex, len) < 0)
		return 0;
	if (git_object_lookup_prefix(&obj, d->repo, &prefix, len,
				     GIT_OBJECT_COMMIT) < 0) {
		git_error_clear();
		return 0;
	}
	git_oid_cpy(id, git_object_id(obj));
	git_object_free(obj);
	return 1;
}

static void add_prereq(struct candidate *c, const git_oid *id,
		       struct candidate *cand, const char *source)
{
	size_t i;

	for (i = 0; i < c->nr_prereqs; i++)
		if (git_oid_equal(&c->prereqs[i].id, id))
			return;
	ALLOC_GROW(c->prereqs, c->nr_prereqs, c->alloc_prereqs);
	memset(&c->prereqs[c->nr_prereqs], 0, sizeof(*c->prereqs));
	git_oid_cpy(&c->prereqs[c->nr_prereqs].id, id);
	c->prereqs[c->nr_prereqs].cand = cand;
	c->prereqs[c->nr_prereqs].source = xstrdup(source);
	c->nr_prereqs++;
}

/*
 * Prerequisites: "Cc: stable # 6.1.x: <id>: subject" names one of c;
 * "Stable-dep-of: <id>" on c says c is one of <id>.
 */
static void link_prereqs(struct deps *d, struct candidate *c)
{
	const struct trailer *t;
	size_t i, pos = 0;
	git_oid id;

	for (i = 0; i < c->msg.nr_stable; i++) {
		const char *hex = c->msg.stable[i].prereq_id;

		if (hex && resolve_prefix(d, hex, strlen(hex), &id))
			add_prereq(c, &id, candidate_list_find(d->cands, &id),
				   "Cc: stable");
	}
	while ((t = message_trailer_next(&c->msg, "Stable-dep-of", &pos))) {
		size_t len = strspn(t->val, "0123456789abcdefABCDEF");
		struct candidate *x;

		if (!resolve_prefix(d, t->val, len, &id))
			continue;
		x = candidate_list_find(d->cands, &id);
		if (x && x != c)
			add_prereq(x, &c->id, c, "Stable-dep-of");
	}
}

/*
 * The series of a Link: message-id: the id without the patch number,
 * which is the last-but-one '-' component of the local part
 * ("...12345-3-author@host" is patch 3 of "...12345-author@host").
 */
static void link_series(struct candidate *c)
{
	const struct trailer *t;
	size_t pos = 0;

	while ((t = message_trailer_next(&c->msg, "Link", &pos))) {
		const char *at, *last = NULL, *prev = NULL, *p;
		char *id = message_link_id(t->val), *end;
		size_t len;
		long n;

		if (!id)
			continue;
		len = strlen(id);
		at = memchr(id, '@', len);
		for (p = at; p > id; p--) {
			if (p[-1] != '-')
				continue;
			if (!last) {
				last = p - 1;
			} else {
				prev = p - 1;
				break;
			}
		}
		n = prev ? strtol(prev + 1, &end, 10) : 0;
		if (!prev || end != last || n < 1 || n > 999) {
			free(id);
			continue;
		}
		c->series.position = (int)n;
		c->series.id = xstrfmt("%.*s%.*s", (int)(prev - id), id,
				       (int)(id + len - last), last);
		free(id);
		return;
	}
}

static void ask_ancestry(struct deps *d, const git_oid *id)
{
	struct ancestry_entry *a;
	git_time_t time;

	if (candidate_list_find(d->cands, id))
		return;
	HASH_FIND(hh, d->ancestry, id, sizeof(*id), a);
	if (a || malformed_commit_time(&time, d->repo, id) < 0) {
		git_error_clear();
		return;
	}
	a = xcalloc(1, sizeof(*a));
	git_oid_cpy(&a->id, id);
	a->time = time;
	HASH_ADD(hh, d->ancestry, id, sizeof(git_oid), a);
}

/* See deps_set_range(). */
static int settle_by_range(struct deps *d)
{
	struct ancestry_entry *a, *tmp;
	git_time_t base_time;
	size_t asked = 0, graph = 0;

	if (malformed_commit_time(&base_time, d->repo, &d->branch->base) < 0)
		return error_git("cannot read the branch base");
	HASH_ITER(hh, d->ancestry, a, tmp) {
		int r;

		asked++;
		if (scan_in_range(d->range, &a->id) == 1) {
			a->below = 0;
			continue;
		}
		if (a->time <= base_time) {
			a->below = 1;
			continue;
		}
		graph++;
		r = history_descendant_of(d->repo, &d->branch->base, &a->id);
		if (r < 0)
			git_error_clear();
		a->below = r > 0;
	}
	trace_printf("deps: %zu commits outside the run asked about, %zu "
		     "of them of the graph", asked, graph);
	return 0;
}

/* A commit the walk below the base meets: one asked about is below. */
static int met_below(const git_oid *id, void *data)
{
	struct deps *d = data;
	struct ancestry_entry *a;

	HASH_FIND(hh, d->ancestry, id, sizeof(*id), a);
	if (!a || a->below)
		return 0;
	a->below = 1;
	return 1;
}

/*
 * Answers "is it below the base?" for every commit outside the run that
 * a Fixes:, a revert or a prerequisite names, with one walk down from
 * the base instead of one graph query each (each of which may walk
 * most of history): history_walk_below(), which stops when every
 * commit is found or when it is a month older than the oldest of them;
 * the rest are not below the base.
 */
static int settle_ancestry(struct deps *d)
{
	struct ancestry_entry *a, *tmp;
	struct history_walk walk;
	git_time_t oldest = 0;
	size_t pending = 0, walked = 0, asked;
	int ret;

	HASH_ITER(hh, d->ancestry, a, tmp) {
		if (!pending++ || a->time < oldest)
			oldest = a->time;
	}
	asked = pending;
	if (!pending)
		return 0;
	if (d->range)
		return settle_by_range(d);
	history_walk_init(&walk, d->repo, GIT_SORT_TIME);
	if (history_walk_push(&walk, &d->branch->base) < 0) {
		history_walk_release(&walk);
		return error_git("cannot walk below the branch base");
	}
	ret = history_walk_below(&walk, pending, oldest, met_below, d, &walked);
	history_walk_release(&walk);
	trace_printf("deps: %zu commits outside the range asked about, "
		     "%zu walked below the base", asked, walked);
	return ret;
}

/* The commits outside the run that judging will ask about. */
static int collect_ancestry(struct deps *d)
{
	size_t i, j;
	git_oid id;

	for (i = 0; i < d->cands->nr; i++) {
		struct candidate *c = d->cands->items[i];

		for (j = 0; c->fixes && j < c->msg.nr_fixes; j++)
			if (c->fixes[j].resolved && !c->fixes[j].cand &&
			    !c->fixes[j].ignored)
				ask_ancestry(d, &c->fixes[j].id);
		for (j = 0; j < c->nr_prereqs; j++)
			if (!c->prereqs[j].cand)
				ask_ancestry(d, &c->prereqs[j].id);
		if (c->msg.is_revert && !c->reverts && c->msg.reverts_id &&
		    resolve_prefix(d, c->msg.reverts_id, strlen(c->msg.reverts_id), &id))
			ask_ancestry(d, &id);
	}
	return settle_ancestry(d);
}

/* "Fixes: <id> (\"subject\")" as the message wrote it, for warnings. */
static void describe_ref(struct strbuf *sb, const struct fixes_ref *ref)
{
	strbuf_addf(sb, "Fixes: %s", ref->id);
	if (ref->subject)
		strbuf_addf(sb, " (\"%s\")", ref->subject);
}

/*
 * A fix comes after the commit it fixes.  A target that is the commit
 * itself, or a commit the walk reaches later (only a forged or
 * mistyped id, or a subject a later commit reused, resolves so), is
 * ignored: fixes then cannot form a loop, and every target is judged
 * before its fix, as deps_facts() needs.
 */
static void drop_bad_target(struct candidate *c, struct fixes_target *t)
{
	struct strbuf sb = STRBUF_INIT;

	if (!t->resolved)
		return;
	if (git_oid_equal(&t->id, &c->id)) {
		describe_ref(&sb, t->ref);
		candidate_add_warning(c, "%s names this commit itself; ignored",
				      sb.buf);
	} else if (t->cand && t->cand->order > c->order) {
		describe_ref(&sb, t->ref);
		candidate_add_warning(c, "%s names %.12s, which comes after it "
				      "in mainline; ignored", sb.buf, t->cand->hex);
	} else {
		return;
	}
	strbuf_release(&sb);
	t->cand = NULL;
	t->ignored = 1;
}

/* The same for a revert: it reverts an earlier commit, not itself. */
static struct candidate *drop_bad_revert(struct candidate *r,
					 struct candidate *target, int *found)
{
	if (!target || (target != r && target->order < r->order))
		return target;
	candidate_add_warning(r, "reverts %.12s (\"%s\"), which %s; ignored",
			      target->hex, target->msg.subject ?
			      target->msg.subject : "",
			      target == r ? "is this commit itself" :
			      "comes after it in mainline");
	*found = 0;
	return NULL;
}

int deps_link(struct deps *d)
{
	struct candidate **items = d->cands->items;
	unsigned char *wants;
	size_t i, j, k = 0;

	if (deps_find_subjects(d, &wants) < 0) {
		free(wants);
		return -1;
	}
	/* Walk order, oldest first: c->order is the index. */
	for (i = 0; i < d->cands->nr; i++) {
		struct candidate *c = items[i];

		for (j = 0; j < c->msg.nr_fixes && c->fixes; j++, k++) {
			struct fixes_target *t = &c->fixes[j];

			if (wants[k])
				deps_resolve_by_subject(d, c, t);
			if (t->resolved)
				t->cand = candidate_list_find(d->cands, &t->id);
			drop_bad_target(c, t);
			if (t->cand && !t->ignored && !t->cand->fixed_later_by)
				t->cand->fixed_later_by = c;
		}
		link_prereqs(d, c);
		link_series(c);
		if (c->msg.is_revert) {
			git_oid id;
			int found;
			struct candidate *target = revert_target(d, c, &id, &found);

			target = drop_bad_revert(c, target, &found);
			if (target) {
				c->reverts = target;
				mark_reverted(target, c->hex, c->msg.subject);
			}
			c->reverts_in_branch = target ? target->present : found;
		}
	}
	free(wants);
	trace_stage("deps: targets");
	if (collect_ancestry(d) < 0)
		return -1;
	trace_stage("deps: ancestry");
	/* A revert of a commit outside the run: is that commit in the branch? */
	for (i = 0; i < d->cands->nr; i++) {
		struct candidate *c = items[i];
		git_oid id;
		int found, r;

		if (!c->msg.is_revert || c->reverts || !c->reverts_in_branch)
			continue;
		revert_target(d, c, &id, &found);
		r = found ? in_branch(d, &id) : 0;
		if (r < 0)
			return -1;
		c->reverts_in_branch = r;
	}
	return 0;
}

int deps_facts(struct deps *d, struct candidate *c)
{
	size_t i;

	for (i = 0; c->fixes && i < c->msg.nr_fixes; i++) {
		struct fixes_target *t = &c->fixes[i];

		if (!t->resolved || t->ignored) {
			t->status = TARGET_UNKNOWN;
		} else if (t->cand) {
			/* A subject match is not proof either way. */
			if (t->cand->maybe_present)
				t->status = TARGET_UNKNOWN;
			else if (t->cand->present)
				t->status = TARGET_IN_BRANCH;
			else if (t->cand->verdict == VERDICT_PROPOSED ||
				 t->cand->verdict == VERDICT_NEEDS_ACK)
				t->status = TARGET_PROPOSED;
			else
				t->status = TARGET_ABSENT;
		} else {
			int r = in_branch(d, &t->id);

			if (r < 0)
				return -1;
			t->status = r ? TARGET_IN_BRANCH : TARGET_ABSENT;
		}
		if (t->status == TARGET_IN_BRANCH)
			candidate_add_fact(c, FACT_FIXES_IN_BRANCH);
		else if (t->status == TARGET_PROPOSED)
			candidate_add_fact(c, FACT_FOLLOW_UP);
	}
	if (c->msg.is_revert && c->reverts_in_branch)
		candidate_add_fact(c, FACT_REVERTS_PRESENT);
	return 0;
}

/* The oldest version any Cc: stable tag asks for, or -1 for any. */
static int stable_since(const struct message *m, int *major, int *minor)
{
	size_t i;
	int found = 0;

	for (i = 0; i < m->nr_stable; i++) {
		const struct stable_tag *t = &m->stable[i];

		if (t->noautosel)
			continue;
		if (t->hint_major < 0)
			return -1;	/* a plain Cc: stable asks for every branch */
		if (!found || t->hint_major < *major ||
		    (t->hint_major == *major && t->hint_minor < *minor)) {
			*major = t->hint_major;
			*minor = t->hint_minor;
		}
		found = 1;
	}
	return found ? 0 : -1;
}

static int wanted(const struct candidate *c);

/* Whether c names a as its prerequisite: a comes along. */
static int is_prereq(const struct candidate *c, const struct candidate *a)
{
	size_t i;

	for (i = 0; i < c->nr_prereqs; i++)
		if (c->prereqs[i].cand == a)
			return 1;
	return 0;
}

/*
 * Whether the branch has path by the time c applies: it has the file,
 * at path or under a name it had before a rename of the range (git's
 * rename detection, as a cherry-pick follows it: the trial pick), or a
 * commit present, proposed or named as c's prerequisite adds it; when
 * no commit of the range added it, where git cherry-pick would find it
 * (match_branch_has_moved()).  1 or
 * 0 with *creator the commit of the range that added path (or NULL),
 * -1 after an error message.
 */
static int will_have(struct deps *d, const struct candidate *c,
		     const char *path, const struct candidate **creator)
{
	const struct candidate *at = c, *a;
	const char *name = path, *from;
	int depth, r;

	*creator = NULL;
	for (depth = 0; depth <= MATCH_RENAMES_MAX; depth++) {
		r = match_branch_has_file(d->match, c, name);
		if (r)
			return r;
		if (match_renamed_from(d->match, d->cands, at, name, &from,
				       &a) < 0)
			return -1;
		if (!depth)
			*creator = a;
		/* The range does not tell where it came from: ask git. */
		if (!a)
			return match_branch_has_moved(d->match, c, path);
		if (a->present || a->maybe_present || wanted(a) || a->pulled ||
		    is_prereq(c, a))
			return 1;
		if (!from)
			break;
		at = a;
		name = from;
	}
	return 0;
}

/*
 * Whether the branch lacks every watched file c changes that existed
 * before it, and will go on lacking it (will_have()).  1 with *path
 * the first such file and *creator the commit that added it (or
 * NULL); 2 with the same when it lacks some and has others (it may
 * apply, but not as it is); 0 when every file is there; -1 after an
 * error message.  A commit that only adds files never lacks them.
 */
static int files_missing(struct deps *d, const struct candidate *c,
			 const char **path, const struct candidate **creator)
{
	size_t i, there = 0;

	*path = NULL;
	*creator = NULL;
	if (!c->paths_known || !c->nr_old_paths ||
	    c->order >= d->cands->nr || d->cands->items[c->order] != c)
		return 0;
	for (i = 0; i < c->nr_old_paths; i++) {
		const struct candidate *a;
		int r = will_have(d, c, c->old_paths[i], &a);

		if (r < 0)
			return -1;
		if (r) {
			there++;
			continue;
		}
		if (!*path) {
			*path = c->old_paths[i];
			*creator = a;
		}
	}
	/* Some there, some not: it may apply, but not as it is. */
	if (there && *path)
		return 2;
	return !there;
}

int deps_applicable(struct deps *d, struct candidate *c)
{
	const struct branch_index *b = d->branch;
	struct strbuf why = STRBUF_INIT;
	size_t i, known = 0, absent = 0;
	int major = 0, minor = 0, ret;
	const struct candidate *creator;
	const char *path;

	if (c->present || c->maybe_present || c->not_applicable)
		return 0;
	if (b->major >= 0 && !stable_since(&c->msg, &major, &minor) &&
	    (b->major < major || (b->major == major && b->minor < minor))) {
		c->not_applicable_kind = NOT_APPLICABLE_VERSION_HINT;
		c->not_applicable = xstrfmt("stable tag asks for %d.%d and later; "
					    "%s is %d.%d", major, minor, b->name,
					    b->major, b->minor);
		return 0;
	}
	if (c->reverts && !c->reverts_in_branch) {
		c->not_applicable_kind = NOT_APPLICABLE_REVERT_OF_ABSENT;
		c->not_applicable = xstrfmt("reverts %.12s, which %s does not carry",
					    c->reverts->hex, b->name);
		return 0;
	}
	for (i = 0; c->fixes && i < c->msg.nr_fixes; i++) {
		if (c->fixes[i].status == TARGET_UNKNOWN)
			continue;
		known++;
		if (c->fixes[i].status == TARGET_ABSENT) {
			char hex[GIT_OID_HEXSZ + 1];

			git_oid_tostr(hex, sizeof(hex), &c->fixes[i].id);
			if (!absent++)
				strbuf_addf(&why, "fixed commit %.12s not in branch", hex);
			else
				strbuf_addf(&why, ", nor %.12s", hex);
		}
	}
	/* Only when every known target is absent: the bug never got in. */
	if (known && absent == known) {
		c->not_applicable_kind = NOT_APPLICABLE_BUG_NOT_IN_BRANCH;
		c->not_applicable = strbuf_detach(&why, NULL);
		return 0;
	}
	strbuf_release(&why);
	/* The feature it changes came after the branch point. */
	ret = files_missing(d, c, &path, &creator);
	if (ret == 2) {
		free(c->lacks);
		c->lacks = creator ?
			xstrfmt("%s, which %s does not have (%.12s added it)",
				path, b->name, creator->hex) :
			xstrfmt("%s, which %s does not have", path, b->name);
		return 0;
	}
	if (ret <= 0)
		return ret;
	c->not_applicable_kind = NOT_APPLICABLE_FILE_NOT_IN_BRANCH;
	strbuf_addf(&why, "changes %s, which %s does not have", path, b->name);
	if (creator)
		strbuf_addf(&why, " (%.12s added it: not proposed)", creator->hex);
	if (c->nr_old_paths > 1)
		strbuf_addf(&why, ", nor the %zu other files it changes",
			    c->nr_old_paths - 1);
	c->not_applicable = strbuf_detach(&why, NULL);
	return 0;
}

int deps_reconsider(struct deps *d, struct candidate *c)
{
	const struct candidate *creator;
	const char *path;
	int ret;

	if (c->not_applicable_kind != NOT_APPLICABLE_FILE_NOT_IN_BRANCH)
		return 0;
	ret = files_missing(d, c, &path, &creator);
	if (ret == 1)
		return 0;
	if (ret < 0)
		return -1;
	free(c->not_applicable);
	c->not_applicable = NULL;
	c->not_applicable_kind = NOT_APPLICABLE_NONE;
	return 1;
}

static int wanted(const struct candidate *c)
{
	return c->verdict == VERDICT_PROPOSED || c->verdict == VERDICT_NEEDS_ACK;
}

/*
 * Newest first, as a maintainer reads the list.  The place is kept
 * between calls, so that all the pulls cost one pass; a prerequisite
 * newer than the candidate that needs it sends the pass back to it.
 */
struct candidate *deps_pull_prereq(struct deps *d)
{
	if (!d->pull_started) {
		d->pull_started = 1;
		d->pull_next = d->cands->nr;
		d->pull_prereq = 0;
	}
	for (; d->pull_next > 0; d->pull_next--, d->pull_prereq = 0) {
		struct candidate *c = d->cands->items[d->pull_next - 1];

		if (!wanted(c))
			continue;
		for (; d->pull_prereq < c->nr_prereqs; d->pull_prereq++) {
			struct candidate *p = c->prereqs[d->pull_prereq].cand;

			if (!p || p->present || wanted(p) || p->pulled)
				continue;
			p->pulled = 1;
			candidate_add_fact(p, FACT_PREREQUISITE);
			if (p->order >= d->pull_next - 1) {
				d->pull_next = p->order + 1;
				d->pull_prereq = 0;
			} else {
				d->pull_prereq++;
			}
			return p;
		}
	}
	return NULL;
}

/* The candidates of one posted series, in walk order. */
struct series_group {
	const char *id;
	struct candidate **items;
	size_t nr, alloc;
	UT_hash_handle hh;
};

int deps_finish(struct deps *d)
{
	struct candidate **items = d->cands->items;
	struct series_group *series = NULL, *s, *stmp;
	size_t i, j;
	int ret = 0, r;

	for (i = 0; i < d->cands->nr; i++) {
		struct candidate *c = items[i];

		if (!c->series.id)
			continue;
		HASH_FIND_STR(series, c->series.id, s);
		if (!s) {
			s = xcalloc(1, sizeof(*s));
			s->id = c->series.id;
			HASH_ADD_KEYPTR(hh, series, s->id, strlen(s->id), s);
		}
		ALLOC_GROW(s->items, s->nr, s->alloc);
		s->items[s->nr++] = c;
	}

	for (i = 0; i < d->cands->nr; i++) {
		struct candidate *c = items[i];

		for (j = 0; j < c->nr_prereqs; j++) {
			struct prereq *p = &c->prereqs[j];

			if (p->cand)
				p->status = p->cand->present ? TARGET_IN_BRANCH :
					    wanted(p->cand) ? TARGET_PROPOSED :
					    TARGET_ABSENT;
			else if ((r = in_branch(d, &p->id)) < 0)
				ret = -1;
			else
				p->status = r ? TARGET_IN_BRANCH : TARGET_ABSENT;
			if (wanted(c) && p->status == TARGET_ABSENT) {
				char hex[GIT_OID_HEXSZ + 1];

				git_oid_tostr(hex, sizeof(hex), &p->id);
				candidate_add_warning(c, "prerequisite %.12s (%s) is "
						      "neither in %s nor proposed",
						      hex, p->source, d->branch->name);
			}
		}
		if (!c->series.id || !wanted(c))
			continue;
		HASH_FIND_STR(series, c->series.id, s);
		for (j = 0; s && j < s->nr; j++) {
			struct candidate *m = s->items[j];

			if (m == c || m->present || wanted(m))
				continue;
			candidate_add_warning(c, "series-mate %d, %.12s, is %s",
					      m->series.position, m->hex,
					      verdict_name(m->verdict));
		}
	}
	HASH_ITER(hh, series, s, stmp) {
		HASH_DEL(series, s);
		free(s->items);
		free(s);
	}
	return ret;
}

int deps_later_reverts(struct deps *d, const git_oid *from, const git_oid *to)
{
	struct history_walk walk;
	git_oid id;
	int ret;

	if (git_oid_equal(from, to))
		return 0;
	history_walk_init(&walk, d->repo, GIT_SORT_NONE);
	if (history_walk_push(&walk, to) < 0 ||
	    history_walk_hide(&walk, from) < 0) {
		history_walk_release(&walk);
		return error_git("cannot walk mainline after the range");
	}
	while (!(ret = history_walk_next(&id, &walk))) {
		struct malformed_commit bad;
		git_commit *commit = NULL;
		const char *summary, *raw;
		struct candidate *target = NULL;
		struct message m;
		char hex[GIT_OID_HEXSZ + 1];
		git_oid rid;
		size_t i;

		if (malformed_lookup_raw(&commit, &bad, d->repo, &id) < 0) {
			ret = error_git("cannot read a mainline commit");
			break;
		}
		summary = commit ? git_commit_summary(commit) : bad.summary;
		/* Only a revert's subject is worth parsing the message for. */
		if (!summary || !message_subject_is_revert(summary)) {
			git_commit_free(commit);
			malformed_release(&bad);
			continue;
		}
		raw = commit ? git_commit_message(commit) : bad.message;
		message_init(&m);
		message_parse(&m, raw, strlen(raw));
		if (m.reverts_id &&
		    resolve_prefix(d, m.reverts_id, strlen(m.reverts_id), &rid))
			target = candidate_list_find(d->cands, &rid);
		for (i = 0; !target && m.reverts_subject && i < d->cands->nr; i++)
			if (d->cands->items[i]->msg.subject &&
			    !strcmp(d->cands->items[i]->msg.subject, m.reverts_subject))
				target = d->cands->items[i];
		if (target) {
			git_oid_tostr(hex, sizeof(hex), &id);
			mark_reverted(target, hex, m.subject);
		}
		message_release(&m);
		git_commit_free(commit);
		malformed_release(&bad);
	}
	history_walk_release(&walk);
	return ret == GIT_ITEROVER ? 0 : -1;
}
