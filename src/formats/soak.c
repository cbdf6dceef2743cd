#include "formats/soak.h"
#include "base/error.h"
#include "git/history.h"
#include "git/malformed.h"
#include "formats/rules.h"
#include "base/strbuf.h"
#include "base/util.h"

#include <uthash.h>

#include <limits.h>
#include <stdlib.h>
#include <string.h>

void soak_tags_init(struct soak_tags *tags)
{
	memset(tags, 0, sizeof(*tags));
}

static void free_tags(struct soak_tag *v, size_t nr)
{
	size_t i;

	for (i = 0; i < nr; i++)
		free(v[i].name);
	free(v);
}

void soak_tags_release(struct soak_tags *tags)
{
	free_tags(tags->releases, tags->nr_releases);
	free_tags(tags->rcs, tags->nr_rcs);
	soak_tags_init(tags);
}

/* Up to 6 decimal digits; the end of them, or NULL. */
static const char *parse_num(const char *p, int *out)
{
	int n = 0, digits = 0;

	for (; *p >= '0' && *p <= '9'; p++) {
		if (++digits > 6)
			return NULL;
		n = n * 10 + (*p - '0');
	}
	if (!digits)
		return NULL;
	*out = n;
	return p;
}

int soak_parse_tag(const char *name, int *major, int *minor, int *rc)
{
	const char *p = name;
	int ma, mi, n = 0, kind = 0;

	if (*p++ != 'v')
		return -1;
	p = parse_num(p, &ma);
	if (!p || *p++ != '.')
		return -1;
	p = parse_num(p, &mi);
	if (!p)
		return -1;
	if (skip_prefix(p, "-rc", &p)) {
		p = parse_num(p, &n);
		if (!p || !n)
			return -1;
	} else if (*p == '.') {
		int stable;

		p = parse_num(p + 1, &stable);
		if (!p)
			return -1;
		kind = 1;
	}
	if (*p)
		return -1;
	*major = ma;
	*minor = mi;
	*rc = n;
	return kind;
}

/* Release candidates sort before their release. */
static int cmp_version(const struct soak_tag *a, const struct soak_tag *b)
{
	int rc_a = a->rc ? a->rc : INT_MAX;
	int rc_b = b->rc ? b->rc : INT_MAX;

	if (a->major != b->major)
		return a->major < b->major ? -1 : 1;
	if (a->minor != b->minor)
		return a->minor < b->minor ? -1 : 1;
	if (rc_a != rc_b)
		return rc_a < rc_b ? -1 : 1;
	return strcmp(a->name, b->name);
}

static int cmp_tag_version(const void *a, const void *b)
{
	return cmp_version(a, b);
}

static int cmp_tag_commit(const void *a, const void *b)
{
	const struct soak_tag *ta = a, *tb = b;

	return git_oid_cmp(&ta->commit, &tb->commit);
}

/*
 * A tag of commit id, which libgit2 could not read: 1 when the commit
 * is malformed (src/malformed.h), a release all the same, t dated by
 * tagger, else as git dates the commit; 0 when it is not, with
 * libgit2's error.
 */
static int malformed_tagged(struct soak_tag *t, git_repository *repo,
			    const git_oid *id, const git_signature *tagger)
{
	struct malformed_commit m;

	if (!malformed_check(&m, repo, id))
		return 0;
	git_oid_cpy(&t->commit, id);
	t->when = tagger ? tagger->when.time : (git_time_t)m.date;
	malformed_release(&m);
	return 1;
}

/*
 * Reads a tag: the commit it peels to and its date.  Returns 1 when
 * the tag was read, 0 when it does not peel to a commit (a tag of a
 * tree or blob: not a release), -1 after an error message.
 */
static int read_tag(struct soak_tag *t, git_repository *repo)
{
	struct strbuf refname = STRBUF_INIT;
	git_reference *ref = NULL, *resolved = NULL;
	git_object *obj = NULL, *peeled = NULL;
	const git_signature *tagger = NULL;
	int ret;

	strbuf_addf(&refname, "refs/tags/%s", t->name);
	if (git_reference_lookup(&ref, repo, refname.buf) < 0 ||
	    git_reference_resolve(&resolved, ref) < 0) {
		ret = error_git("cannot read tag '%s'", t->name);
		goto out;
	}
	if (git_object_lookup(&obj, repo, git_reference_target(resolved),
			      GIT_OBJECT_ANY) < 0) {
		if (!(ret = malformed_tagged(t, repo,
					     git_reference_target(resolved),
					     NULL)))
			ret = error_git("cannot read tag '%s'", t->name);
		goto out;
	}
	if (git_object_peel(&peeled, obj, GIT_OBJECT_COMMIT) < 0) {
		ret = git_object_type(obj) == GIT_OBJECT_TAG &&
		      git_tag_target_type((git_tag *)obj) == GIT_OBJECT_COMMIT &&
		      malformed_tagged(t, repo, git_tag_target_id((git_tag *)obj),
				       git_tag_tagger((git_tag *)obj));
		if (!ret)
			git_error_clear();
		goto out;
	}
	git_oid_cpy(&t->commit, git_object_id(peeled));
	if (git_object_type(obj) == GIT_OBJECT_TAG)
		tagger = git_tag_tagger((git_tag *)obj);
	if (tagger)
		t->when = tagger->when.time;
	else
		t->when = git_commit_time((git_commit *)peeled);
	ret = 1;
out:
	git_object_free(peeled);
	git_object_free(obj);
	git_reference_free(resolved);
	git_reference_free(ref);
	strbuf_release(&refname);
	return ret;
}

/*
 * Walks the first-parent history of tip and sets found[i] for every tag
 * on it.  tags is sorted by commit; the walk stops once all are found.
 */
static int mark_reachable(git_repository *repo, const git_oid *tip,
			  const struct soak_tag *tags, size_t nr, char *found)
{
	char hex[GIT_OID_HEXSZ + 1];
	size_t nr_found = 0;
	struct history_walk walk;
	struct soak_tag key;
	git_oid id;
	int ret = 0;

	git_oid_tostr(hex, sizeof(hex), tip);
	history_walk_init(&walk, repo, GIT_SORT_NONE);
	history_walk_first_parent(&walk);
	if (history_walk_push(&walk, tip) < 0) {
		ret = error_git("cannot walk mainline from %.12s", hex);
		goto out;
	}
	while (nr_found < nr && !(ret = history_walk_next(&id, &walk))) {
		const struct soak_tag *t;
		size_t i;

		git_oid_cpy(&key.commit, &id);
		t = bsearch(&key, tags, nr, sizeof(*tags), cmp_tag_commit);
		if (!t)
			continue;
		/* Several tags may name one commit: mark them all. */
		i = t - tags;
		while (i > 0 && git_oid_equal(&tags[i - 1].commit, &id))
			i--;
		for (; i < nr && git_oid_equal(&tags[i].commit, &id); i++) {
			found[i] = 1;
			nr_found++;
		}
	}
	if (nr_found == nr || ret == GIT_ITEROVER)
		ret = 0;
	else
		ret = error_git("cannot walk mainline from %.12s", hex);
out:
	history_walk_release(&walk);
	return ret;
}

static void add_tag(struct soak_tags *tags, struct soak_tag *t)
{
	if (t->rc) {
		ALLOC_GROW(tags->rcs, tags->nr_rcs, tags->alloc_rcs);
		tags->rcs[tags->nr_rcs++] = *t;
	} else {
		ALLOC_GROW(tags->releases, tags->nr_releases,
			   tags->alloc_releases);
		tags->releases[tags->nr_releases++] = *t;
	}
}

/*
 * Reads every mainline tag into *out (sorted by commit) and keeps those
 * on the first-parent history of tip, or all of them when tip is NULL.
 */
static int load(struct soak_tags *tags, git_repository *repo,
		const git_oid *tip, const struct ruleset *rules)
{
	git_strarray names = { NULL, 0 };
	struct soak_tag *pending = NULL;
	size_t i, nr = 0;
	char *found = NULL;
	int ret = 0;

	soak_tags_init(tags);
	if (git_tag_list_match(&names, rules && rules->release_tags ? "*" : "v*",
			       repo) < 0)
		return error_git("cannot list tags");
	pending = xcalloc(names.count ? names.count : 1, sizeof(*pending));
	for (i = 0; i < names.count; i++) {
		struct soak_tag *t = &pending[nr];

		if (ruleset_parse_tag(rules, names.strings[i], &t->major,
				      &t->minor, &t->rc))
			continue;
		t->name = xstrdup(names.strings[i]);
		ret = read_tag(t, repo);
		if (ret > 0) {
			nr++;
			continue;
		}
		free(t->name);
		t->name = NULL;
		if (ret < 0)
			goto out;
	}
	ret = 0;
	QSORT(pending, nr, cmp_tag_commit);
	found = xcalloc(nr ? nr : 1, 1);
	if (!tip)
		memset(found, 1, nr);
	else if ((ret = mark_reachable(repo, tip, pending, nr, found)) < 0)
		goto out;
	for (i = 0; i < nr; i++) {
		if (found[i])
			add_tag(tags, &pending[i]);
		else
			free(pending[i].name);
		pending[i].name = NULL;
	}
	nr = 0;
	QSORT(tags->releases, tags->nr_releases, cmp_tag_version);
	QSORT(tags->rcs, tags->nr_rcs, cmp_tag_version);
out:
	free_tags(pending, nr);
	free(found);
	git_strarray_dispose(&names);
	return ret;
}

int soak_tags_load(struct soak_tags *tags, git_repository *repo,
		   const git_oid *upstream_tip, const struct ruleset *rules)
{
	return load(tags, repo, upstream_tip, rules);
}

int soak_tags_load_all(struct soak_tags *tags, git_repository *repo,
		       const struct ruleset *rules)
{
	return load(tags, repo, NULL, rules);
}

/*
 * Painting.  The frontier holds the commits a visited child has painted
 * and the walk has not reached yet: in topological order every child
 * comes before its parents, so a commit's mark is final when it is
 * visited, and it leaves the frontier then.
 */
struct soak_paint_entry {
	git_oid id;
	struct soak_mark mark;
	int passed;			/* by a visit, not a tag of its own */
	UT_hash_handle hh;
};

void soak_mark_min(struct soak_mark *m, const struct soak_mark *with)
{
	if (with->release >= 0 && (m->release < 0 || with->release < m->release))
		m->release = with->release;
	if (with->rc >= 0 && (m->rc < 0 || with->rc < m->rc))
		m->rc = with->rc;
}

static struct soak_paint_entry *paint_entry(struct soak_paint *p,
					    const git_oid *id)
{
	struct soak_paint_entry *e;

	HASH_FIND(hh, p->frontier, id, sizeof(*id), e);
	if (!e) {
		e = xcalloc(1, sizeof(*e));
		git_oid_cpy(&e->id, id);
		e->mark.release = e->mark.rc = -1;
		HASH_ADD(hh, p->frontier, id, sizeof(e->id), e);
	}
	return e;
}

void soak_paint_init(struct soak_paint *p, const struct soak_tags *tags)
{
	struct soak_mark m;
	size_t i;

	p->tags = tags;
	p->frontier = NULL;
	for (i = 0; i < tags->nr_releases; i++) {
		m.release = (int)i;
		m.rc = -1;
		soak_mark_min(&paint_entry(p, &tags->releases[i].commit)->mark, &m);
	}
	for (i = 0; i < tags->nr_rcs; i++) {
		m.release = -1;
		m.rc = (int)i;
		soak_mark_min(&paint_entry(p, &tags->rcs[i].commit)->mark, &m);
	}
}

void soak_paint_release(struct soak_paint *p)
{
	struct soak_paint_entry *e, *tmp;

	HASH_ITER(hh, p->frontier, e, tmp) {
		HASH_DEL(p->frontier, e);
		free(e);
	}
}

void soak_paint_visit(struct soak_paint *p, const git_oid *id,
		      const git_oid *parents, unsigned int nr_parents,
		      struct soak_mark *out)
{
	struct soak_paint_entry *e;
	unsigned int i;

	out->release = out->rc = -1;
	HASH_FIND(hh, p->frontier, id, sizeof(*id), e);
	if (!e)
		return;		/* no tag above it: nothing to pass on */
	*out = e->mark;
	HASH_DEL(p->frontier, e);
	free(e);
	for (i = 0; i < nr_parents; i++) {
		e = paint_entry(p, &parents[i]);
		soak_mark_min(&e->mark, out);
		e->passed = 1;
	}
}

int soak_paint_lowest_at(const struct soak_paint *p, const git_oid *id,
			 struct soak_mark *out)
{
	const struct soak_paint_entry *e;

	out->release = out->rc = -1;
	HASH_FIND(hh, p->frontier, id, sizeof(*id), e);
	if (e && e->passed)
		*out = e->mark;
	for (e = p->frontier; e; e = e->hh.next) {
		if (!e->passed)
			continue;
		if (e->mark.release >= 0 &&
		    (out->release < 0 || e->mark.release < out->release))
			return 0;
		if (e->mark.rc >= 0 && (out->rc < 0 || e->mark.rc < out->rc))
			return 0;
	}
	return 1;
}

int soak_paint_pending(const struct soak_paint *p)
{
	const struct soak_paint_entry *e;

	for (e = p->frontier; e; e = e->hh.next)
		if (e->passed)
			return 1;
	return 0;
}

void soak_mark_first(const struct soak_tags *tags, const struct soak_mark *m,
		     int releases_only, const char **name, git_time_t *when)
{
	const struct soak_tag *best = NULL;

	if (m->release >= 0)
		best = &tags->releases[m->release];
	if (!releases_only && m->rc >= 0 &&
	    (!best || cmp_version(&tags->rcs[m->rc], best) < 0))
		best = &tags->rcs[m->rc];
	*name = best ? best->name : NULL;
	*when = best ? best->when : 0;
}

/* 1 if the tag contains commit, 0 if not, -1 after an error message. */
static int contains(git_repository *repo, const struct soak_tag *t,
		    const git_oid *commit)
{
	char hex[GIT_OID_HEXSZ + 1];
	int ret;

	if (git_oid_equal(&t->commit, commit))
		return 1;
	ret = history_descendant_of(repo, &t->commit, commit);
	if (ret >= 0)
		return ret;
	git_oid_tostr(hex, sizeof(hex), commit);
	return error_git("cannot tell whether %s contains %.12s", t->name, hex);
}

/*
 * The first tag of v (sorted by version) that contains commit, or NULL.
 * The last tag is asked first: a commit that no tag contains yet is
 * answered at once.  From then on v[hi] is known to contain commit and
 * v[lo - 1] is known not to.
 */
static int first_containing(const struct soak_tag **out, git_repository *repo,
			    const struct soak_tag *v, size_t nr,
			    const git_oid *commit)
{
	size_t lo = 0, hi;
	int ret;

	*out = NULL;
	if (!nr)
		return 0;
	hi = nr - 1;
	ret = contains(repo, &v[hi], commit);
	if (ret <= 0)
		return ret;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		ret = contains(repo, &v[mid], commit);
		if (ret < 0)
			return ret;
		if (ret)
			hi = mid;
		else
			lo = mid + 1;
	}
	*out = &v[lo];
	return 0;
}

int soak_first_tag(const struct soak_tags *tags, git_repository *repo,
		   const git_oid *commit, int releases_only,
		   const char **name, git_time_t *when)
{
	const struct soak_tag *release, *rc = NULL, *best;

	*name = NULL;
	*when = 0;
	if (first_containing(&release, repo, tags->releases,
			     tags->nr_releases, commit) < 0)
		return -1;
	if (!releases_only &&
	    first_containing(&rc, repo, tags->rcs, tags->nr_rcs, commit) < 0)
		return -1;
	best = release;
	if (rc && (!best || cmp_version(rc, best) < 0))
		best = rc;
	if (best) {
		*name = best->name;
		*when = best->when;
	}
	return 0;
}
