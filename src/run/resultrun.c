#include "run/resultrun.h"
#include "base/ascii.h"
#include "base/error.h"
#include "git/history.h"
#include "git/malformed.h"
#include "base/strbuf.h"
#include "base/trace.h"
#include "git/treediff.h"
#include "base/util.h"

#include <stdlib.h>
#include <string.h>

static const char *const class_names[CLASS__NR] = {
	"baseline", "missing-fix", "fix-present", "new", "unexplained",
	"unexpected-pass",
};

const char *result_class_name(enum result_class c)
{
	return class_names[c];
}

void results_run_init(struct results_run *r)
{
	memset(r, 0, sizeof(*r));
	tests_run_init(&r->t);
	result_set_init(&r->now);
	result_set_init(&r->base);
}

static void release_verdict(struct result_verdict *v)
{
	size_t i;

	for (i = 0; i < v->nr_commits; i++) {
		free(v->commits[i].subject);
		free(v->commits[i].state);
		free(v->commits[i].detail);
	}
	free(v->commits);
	free(v->evidence);
}

void results_run_release(struct results_run *r)
{
	size_t i;

	for (i = 0; i < r->nr; i++)
		release_verdict(&r->v[i]);
	free(r->v);
	for (i = 0; i < r->nr_aliases; i++) {
		free(r->aliases[i].tag);
		free(r->aliases[i].test);
	}
	free(r->aliases);
	tests_run_release(&r->t);
	result_set_release(&r->now);
	result_set_release(&r->base);
}

/* --- LTP runtest files ------------------------------------------------ */

static int cmp_alias(const void *va, const void *vb)
{
	const struct runtest_alias *a = va, *b = vb;

	return strcmp(a->tag, b->tag);
}

static void add_alias(struct results_run *r, const char *tag, size_t tag_len,
		      const char *cmd, size_t cmd_len)
{
	const char *slash = NULL, *q;
	struct runtest_alias *a;

	for (q = cmd; q < cmd + cmd_len; q++)
		if (*q == '/')
			slash = q;
	if (slash) {
		cmd_len -= (size_t)(slash + 1 - cmd);
		cmd = slash + 1;
	}
	if (!cmd_len || (cmd_len == tag_len && !memcmp(tag, cmd, tag_len)))
		return;
	ALLOC_GROW(r->aliases, r->nr_aliases, r->alloc_aliases);
	a = &r->aliases[r->nr_aliases++];
	a->tag = xstrndup(tag, tag_len);
	a->test = xstrndup(cmd, cmd_len);
}

int results_read_runtest(struct results_run *r, const char *ltp_dir)
{
	char *dir = xstrfmt("%s/runtest", ltp_dir), **names = NULL;
	size_t nr = 0, i, out;
	int ret = dir_names(dir, 1, &names, &nr);

	for (i = 0; !ret && i < nr; i++) {
		char *path = xstrfmt("%s/%s", dir, names[i]);
		struct strbuf sb = STRBUF_INIT;
		const char *p, *end;

		if (!is_dir_in(dir, names[i]) && strbuf_read_file(&sb, path) >= 0) {
			for (p = sb.buf, end = sb.buf + sb.len; p < end;) {
				const char *nl = memchr(p, '\n', (size_t)(end - p));
				const char *e = nl ? nl : end, *tag, *cmd;
				size_t tn, cn;

				for (tag = p; tag < e && is_blank((unsigned char)*tag);
				     tag++)
					;
				for (tn = 0; tag + tn < e &&
				     !is_blank((unsigned char)tag[tn]); tn++)
					;
				for (cmd = tag + tn; cmd < e &&
				     is_blank((unsigned char)*cmd); cmd++)
					;
				for (cn = 0; cmd + cn < e &&
				     !is_blank((unsigned char)cmd[cn]); cn++)
					;
				if (tn && *tag != '#' && cn)
					add_alias(r, tag, tn, cmd, cn);
				p = nl ? nl + 1 : end;
			}
		}
		strbuf_release(&sb);
		free(path);
	}
	free_string_array(names, nr);
	free(dir);
	QSORT(r->aliases, r->nr_aliases, cmp_alias);
	/* A tag in two runtest files: the first one read. */
	for (i = out = 0; i < r->nr_aliases; i++) {
		if (out && !strcmp(r->aliases[out - 1].tag, r->aliases[i].tag)) {
			free(r->aliases[i].tag);
			free(r->aliases[i].test);
			continue;
		}
		r->aliases[out++] = r->aliases[i];
	}
	r->nr_aliases = out;
	return ret < 0 ? -1 : 0;
}

static const char *alias_of(const struct results_run *r, const char *tag)
{
	struct runtest_alias key = { (char *)tag, NULL }, *a;

	a = r->nr_aliases ? bsearch(&key, r->aliases, r->nr_aliases,
				    sizeof(key), cmp_alias) : NULL;
	return a ? a->test : NULL;
}

/* --- what a test exercises -------------------------------------------- */

static const struct {
	const char *name;		/* an fstests group, or an FSTYP */
	const char *paths[3];
} fs_paths[] = {
	{ "xfs", { "fs/xfs/", NULL } },
	{ "ext2", { "fs/ext2/", NULL } },
	{ "ext3", { "fs/ext4/", NULL } },
	{ "ext4", { "fs/ext4/", NULL } },
	{ "btrfs", { "fs/btrfs/", NULL } },
	{ "f2fs", { "fs/f2fs/", NULL } },
	{ "overlay", { "fs/overlayfs/", NULL } },
	{ "nfs", { "fs/nfs/", "fs/nfs_common/", NULL } },
	{ "cifs", { "fs/smb/client/", "fs/cifs/", NULL } },
	{ "smb3", { "fs/smb/client/", "fs/cifs/", NULL } },
	{ "ceph", { "fs/ceph/", NULL } },
	{ "ocfs2", { "fs/ocfs2/", NULL } },
	{ "udf", { "fs/udf/", NULL } },
	{ "tmpfs", { "mm/shmem.c", NULL } },
	{ "gfs2", { "fs/gfs2/", NULL } },
	{ "bcachefs", { "fs/bcachefs/", NULL } },
	{ "exfat", { "fs/exfat/", NULL } },
	{ "fuse", { "fs/fuse/", NULL } },
	{ "virtiofs", { "fs/fuse/", NULL } },
	{ "9p", { "fs/9p/", NULL } },
	{ "zonefs", { "fs/zonefs/", NULL } },
};

const char *const *results_test_paths(const char *suite, const char *test,
				      const char *fstyp)
{
	static const char *const every[] = { NULL };
	const char *slash = strchr(test, '/');
	size_t i, n = slash ? (size_t)(slash - test) : 0;

	if (strcmp(suite, "fstests") || !slash)
		return every;
	for (i = 0; i < sizeof(fs_paths) / sizeof(fs_paths[0]); i++)
		if (strlen(fs_paths[i].name) == n &&
		    !memcmp(fs_paths[i].name, test, n))
			return fs_paths[i].paths;
	/* generic/, shared/, perf/: the filesystem under test. */
	for (i = 0; fstyp && i < sizeof(fs_paths) / sizeof(fs_paths[0]); i++)
		if (!strcmp(fs_paths[i].name, fstyp))
			return fs_paths[i].paths;
	return every;
}

/* --- the kernels of the runs ------------------------------------------ */

/*
 * The commit of a kernel release as uname -r gives it: the id of a
 * "-gSHA" part (CONFIG_LOCALVERSION_AUTO), else the tag of its
 * version ("6.1.55-foo" -> v6.1.55, "6.2.0-rc1" -> v6.2-rc1).  1 with
 * *out and *how set, 0 when none is found here.
 */
static int kernel_commit(git_repository *repo, const char *release,
			 git_oid *out, char **how)
{
	const char *g = release, *s;
	struct strbuf tag = STRBUF_INIT;
	git_object *obj = NULL;
	unsigned long part[3] = { 0, 0, 0 };
	int nr = 0, found = 0;

	while ((g = strstr(g, "-g"))) {
		size_t n;

		for (n = 0; is_hexdigit((unsigned char)g[2 + n]); n++)
			;
		if (n >= 7 && n <= 40 && (!g[2 + n] || strchr("+-.", g[2 + n]))) {
			char *hex = xstrndup(g + 2, n);
			git_oid prefix;

			if (!git_oid_fromstrn(&prefix, hex, n) &&
			    !git_object_lookup_prefix(&obj, repo, &prefix, n,
						      GIT_OBJECT_COMMIT)) {
				git_oid_cpy(out, git_object_id(obj));
				*how = xstrfmt("%.12s", git_oid_tostr_s(out));
				found = 1;
			}
			git_error_clear();
			git_object_free(obj);
			obj = NULL;
			free(hex);
			if (found)
				return 1;
		}
		g += 2;
	}
	for (s = release; nr < 3 && is_digit((unsigned char)*s);) {
		char *e;

		part[nr++] = strtoul(s, &e, 10);
		s = e;
		if (*s != '.')
			break;
		s++;
	}
	if (nr < 2)
		return 0;
	strbuf_addf(&tag, "refs/tags/v%lu.%lu", part[0], part[1]);
	if (nr == 3 && part[2])
		strbuf_addf(&tag, ".%lu", part[2]);
	while (*s && *s != '-')
		s++;
	if (skip_prefix(s, "-rc", &s) && is_digit((unsigned char)*s))
		strbuf_addf(&tag, "-rc%lu", strtoul(s, NULL, 10));
	if (!git_revparse_single(&obj, repo, tag.buf)) {
		git_object *c = NULL;

		if (!git_object_peel(&c, obj, GIT_OBJECT_COMMIT)) {
			git_oid_cpy(out, git_object_id(c));
			*how = xstrdup(tag.buf + 10);
			found = 1;
		}
		git_object_free(c);
	}
	git_error_clear();
	git_object_free(obj);
	strbuf_release(&tag);
	return found;
}

/* A revision the user named: 1, or -1 after an error. */
static int named_commit(git_repository *repo, const char *rev, git_oid *out,
			char **how)
{
	int ret = malformed_revparse(out, repo, rev);

	if (ret == GIT_EPEEL)
		return error_git("'%.80s' is not a commit", rev);
	if (ret < 0)
		return error_git("cannot find revision '%.80s'", rev);
	*how = xstrdup(rev);
	return 1;
}

/* A commit between two kernels, with the paths it changes. */
struct between {
	git_oid id;
	git_time_t time;
	char *subject;
	char **paths;
	size_t nr_paths;
};

/* The commits of from..to of one config pair, walked once. */
struct range {
	char *config;
	int known;			/* both kernels found */
	char *why;			/* when not known */
	char *label;			/* "v6.1.54..v6.1.55" */
	struct between *v;
	size_t nr, alloc;
};

static void range_release(struct range *g)
{
	size_t i;

	for (i = 0; i < g->nr; i++) {
		free(g->v[i].subject);
		free_string_array(g->v[i].paths, g->v[i].nr_paths);
	}
	free(g->v);
	free(g->config);
	free(g->why);
	free(g->label);
}

/*
 * The paths c changes against its first parent, by treediff (the cost of
 * the change, not of the tree: libgit2's diff visits every entry of a
 * kernel's trees).  No renames, so one path an entry.
 */
static int changed_paths(git_repository *repo, git_commit *c,
			 struct between *b)
{
	struct treediff d = TREEDIFF_INIT;
	git_tree *t = NULL, *pt = NULL;
	size_t i;
	int ret = -1;

	if (git_commit_tree(&t, c) < 0 ||
	    (git_commit_parentcount(c) &&
	     malformed_parent_tree(&pt, c, 0) < 0)) {
		error_git("cannot diff commit %s", git_oid_tostr_s(&b->id));
		goto out;
	}
	if (treediff_trees(&d, repo, pt, t) < 0)
		goto out;
	b->paths = xcalloc(d.nr + 1, sizeof(*b->paths));
	for (i = 0; i < d.nr; i++) {
		b->paths[i] = d.items[i].path;
		d.items[i].path = NULL;
	}
	b->nr_paths = d.nr;
	ret = 0;
out:
	treediff_release(&d);
	git_tree_free(t);
	git_tree_free(pt);
	return ret;
}

static int walk_range(git_repository *repo, struct range *g,
		      const git_oid *from, const git_oid *to)
{
	struct history_walk walk;
	git_oid id;
	int ret = 0, r;

	history_walk_init(&walk, repo, GIT_SORT_TOPOLOGICAL | GIT_SORT_TIME);
	if (history_walk_push(&walk, to) < 0 ||
	    history_walk_hide(&walk, from) < 0) {
		history_walk_release(&walk);
		return error_git("cannot walk the commits between the kernels");
	}
	while (!ret && !(r = history_walk_next(&id, &walk))) {
		git_commit *c = NULL;
		struct between *b;
		int got;

		/* A malformed commit is warned about, and passed over. */
		if ((got = malformed_lookup(&c, repo, &id))) {
			if (got > 0)
				continue;
			ret = error_git("cannot read commit %s", git_oid_tostr_s(&id));
			break;
		}
		if (git_commit_parentcount(c) > 1) {
			git_commit_free(c);
			continue;
		}
		ALLOC_GROW(g->v, g->nr, g->alloc);
		b = &g->v[g->nr++];
		memset(b, 0, sizeof(*b));
		git_oid_cpy(&b->id, &id);
		b->time = git_commit_time(c);
		b->subject = xstrdup(git_commit_summary(c) ?
				     git_commit_summary(c) : "");
		ret = changed_paths(repo, c, b);
		git_commit_free(c);
	}
	if (!ret && r != GIT_ITEROVER)
		ret = error_git("cannot walk the commits between the kernels");
	history_walk_release(&walk);
	return ret;
}

/* The kernel of one side: --kernel REV, else the run's reported one. */
static int side_commit(git_repository *repo, const char *rev,
		       const struct result_config *c, git_oid *out, char **how)
{
	if (rev)
		return named_commit(repo, rev, out, how);
	if (!c || !c->kernel)
		return 0;
	return kernel_commit(repo, c->kernel, out, how);
}

static int range_setup(git_repository *repo, struct results_run *r,
		       struct run *run, struct range *g, const char *config)
{
	const struct result_config *now = result_config_find(&r->now, config);
	const struct result_config *base = result_config_find(&r->base, config);
	char *now_how = NULL, *base_how = NULL;
	git_oid from, to;
	int a, b;

	g->config = xstrdup(config);
	a = side_commit(repo, r->kernel, now, &to, &now_how);
	if (a < 0)
		return -1;
	if (!a) {
		/* The run names no kernel found here: the branch's tip. */
		git_oid_cpy(&to, &run->branch.tip);
		now_how = xstrfmt("%s (the tip: the run names no kernel "
				  "found here%s%s)", run->branch.name,
				  now && now->kernel ? ", " : "",
				  now && now->kernel ? now->kernel : "");
	}
	b = side_commit(repo, r->baseline_kernel, base, &from, &base_how);
	if (b < 0) {
		free(now_how);
		return -1;
	}
	if (!b) {
		g->why = xstrfmt("the baseline run's kernel%s%s%s is not found "
				 "here (give --baseline-kernel REV)",
				 base && base->kernel ? " (" : "",
				 base && base->kernel ? base->kernel : "",
				 base && base->kernel ? ")" : "");
		free(now_how);
		return 0;
	}
	g->label = xstrfmt("%s..%s", base_how, now_how);
	free(now_how);
	free(base_how);
	g->known = 1;
	return walk_range(repo, g, &from, &to);
}

static int path_in(const char *path, const char *const *prefixes)
{
	size_t i;

	if (!prefixes[0])
		return 1;
	for (i = 0; prefixes[i]; i++) {
		size_t n = strlen(prefixes[i]);

		if (!strncmp(path, prefixes[i], n) &&
		    (prefixes[i][n - 1] == '/' || !path[n]))
			return 1;
	}
	return 0;
}

/* --- classifying ------------------------------------------------------ */

/* Where the annotations of a test are: tests of t, by suite and name. */
struct by_name {
	const struct test **v;
	size_t nr;
	const struct tests_run *t;
};

static const struct tests_run *sort_t;

static int cmp_test(const void *va, const void *vb)
{
	const struct test *a = *(const struct test *const *)va;
	const struct test *b = *(const struct test *const *)vb;
	const struct testannot *x = &sort_t->set.items[a->first];
	const struct testannot *y = &sort_t->set.items[b->first];
	int c = strcmp(x->suite, y->suite);

	return c ? c : strcmp(x->test, y->test);
}

static const struct test *find_test(const struct by_name *bn, const char *suite,
				    const char *name)
{
	size_t lo = 0, hi = bn->nr;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		const struct testannot *a = &bn->t->set.items[bn->v[mid]->first];
		int c = strcmp(a->suite, suite);

		if (!c)
			c = strcmp(a->test, name);
		if (!c)
			return bn->v[mid];
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

static struct result_commit *add_commit(struct result_verdict *v,
					const git_oid *id, const char *role,
					const char *subject)
{
	struct result_commit *rc;
	size_t i;

	for (i = 0; i < v->nr_commits; i++)
		if (git_oid_equal(&v->commits[i].id, id) &&
		    !strcmp(v->commits[i].role, role))
			return NULL;
	ALLOC_GROW(v->commits, v->nr_commits, v->alloc_commits);
	rc = &v->commits[v->nr_commits++];
	memset(rc, 0, sizeof(*rc));
	git_oid_cpy(&rc->id, id);
	rc->role = role;
	rc->subject = xstrdup(subject ? subject : "");
	return rc;
}

/* A missing fix, with what propose makes of it. */
static void add_missing(struct result_verdict *v, const struct named *n,
			const struct run *run, struct strbuf *ev)
{
	const struct candidate *c = n->c;
	struct result_commit *rc = add_commit(v, &n->id, "missing-fix",
					      named_subject(n));
	int in_range = c && scan_in_range(&run->scan, &c->id) == 1;

	if (!rc)
		return;
	rc->time = c ? c->time : 0;
	if (c)
		rc->state = xstrfmt("missing, %s, score %lld",
				    verdict_name(c->verdict), c->score);
	else
		rc->state = xstrdup("missing");
	rc->detail = xstrdup(n->detail ? n->detail : "");
	strbuf_addf(ev, "%s%s names %.12s (\"%s\") as its fix, which %s "
		    "lacks", ev->len ? "; " : "", n->a->how,
		    git_oid_tostr_s(&n->id), named_subject(n), run->branch.name);
	if (c && c->why)
		strbuf_addf(ev, " (%s: %s)", verdict_name(c->verdict), c->why);
	else if (c)
		strbuf_addf(ev, " (%s)", verdict_name(c->verdict));
	if (in_range)
		strbuf_addstr(ev, "; propose --tests-from takes it up");
	else
		strbuf_addstr(ev, "; it is outside the range propose scans");
}

static void add_present(git_repository *repo, struct result_verdict *v,
			const struct named *n, struct strbuf *ev)
{
	const struct evidence *e = n->c ? candidate_presence(n->c) : NULL;
	struct result_commit *rc = add_commit(v, &n->id, "fix", named_subject(n));

	if (rc) {
		rc->state = xstrdup("present");
		rc->detail = xstrdup(n->detail ? n->detail : "");
		rc->time = n->c ? n->c->time : 0;
	}
	strbuf_addf(ev, "%s%s names %.12s (\"%s\"), which is in the branch "
		    "(%s)", ev->len ? "; " : "", n->a->how,
		    git_oid_tostr_s(&n->id), named_subject(n),
		    n->detail && *n->detail ? n->detail : "present");
	if (e && e->has_commit) {
		git_commit *bc = NULL;
		const char *s = "";

		if (!git_commit_lookup(&bc, repo, &e->commit) &&
		    git_commit_summary(bc))
			s = git_commit_summary(bc);
		git_error_clear();
		rc = add_commit(v, &e->commit, "backport", s);
		if (rc)
			rc->state = xstrdup("in the branch");
		git_commit_free(bc);
	}
}

/* The expunge list entry of (config, test) in base, or NULL. */
static const struct result_item *expunged(const struct results_run *r,
					  const struct result_item *it)
{
	size_t i;

	for (i = 0; i < r->base.nr_expunged; i++) {
		const struct result_item *e = &r->base.expunged[i];

		if (strcmp(e->test, it->test))
			continue;
		if (!strcmp(e->config, it->config) || !strcmp(e->config, "all") ||
		    !result_config_find(&r->now, e->config))
			return e;
	}
	return NULL;
}

static void add_suspects(struct result_verdict *v, const struct range *g,
			 const struct result_item *it, const char *fstyp,
			 struct strbuf *ev)
{
	const char *const *paths = results_test_paths(it->suite, it->test, fstyp);
	struct strbuf where = STRBUF_INIT;
	size_t i, j;

	for (i = 0; paths[i]; i++)
		strbuf_addf(&where, "%s%s", i ? ", " : "", paths[i]);
	if (!g->known) {
		strbuf_addf(ev, "; suspects unknown: %s", g->why);
		strbuf_release(&where);
		return;
	}
	for (i = 0; i < g->nr; i++) {
		const struct between *b = &g->v[i];
		struct result_commit *rc;

		for (j = 0; j < b->nr_paths && !path_in(b->paths[j], paths); j++)
			;
		if (j == b->nr_paths)
			continue;
		rc = add_commit(v, &b->id, "suspect", b->subject);
		if (rc) {
			rc->time = b->time;
			rc->state = xstrdup("between the kernels");
			rc->detail = xstrfmt("changes %s", b->paths[j]);
		}
	}
	v->nr_suspects_total = v->nr_commits;
	strbuf_addf(ev, "; %zu of the %zu commits of %s touch %s", v->nr_commits,
		    g->nr, g->label, where.len ? where.buf :
		    "the tree (the test names no subsystem)");
	strbuf_release(&where);
}

static int classify_one(struct run_context *ctx, struct run *run,
			struct results_run *r, const struct by_name *bn,
			const struct result_item *it, struct range **ranges,
			size_t *nr_ranges, size_t *alloc_ranges)
{
	const struct result_config *cfg = result_config_find(&r->now, it->config);
	const char *fstyp = r->fstyp ? r->fstyp : cfg ? cfg->fstyp : NULL;
	const struct test *x = find_test(bn, it->suite, it->test);
	const struct named **missing, **present, **other;
	size_t nr_missing = 0, nr_present = 0, nr_other = 0, k;
	const struct result_item *ex = NULL, *bi = NULL;
	struct strbuf ev = STRBUF_INIT;
	struct result_verdict *v;
	const char *alias = NULL;
	int ret = 0;

	if (!x && !strcmp(it->suite, "ltp") && (alias = alias_of(r, it->test)))
		x = find_test(bn, it->suite, alias);
	/* The annotations that count, by the state of their fix. */
	missing = xcalloc(x ? x->nr + 1 : 1, sizeof(*missing));
	present = xcalloc(x ? x->nr + 1 : 1, sizeof(*present));
	other = xcalloc(x ? x->nr + 1 : 1, sizeof(*other));
	for (k = 0; x && k < x->nr; k++) {
		const struct named *n = &r->t.named[x->first + k];
		const struct testannot *a = n->a;

		if (n->state == FIX_IGNORED || a->kind == TESTANNOT_CVE ||
		    (fstyp && a->fstyp && strcmp(fstyp, a->fstyp)))
			continue;
		if (n->state == FIX_MISSING)
			missing[nr_missing++] = n;
		else if (n->state == FIX_PRESENT)
			present[nr_present++] = n;
		else
			other[nr_other++] = n;
	}
	if (it->outcome == RESULT_SKIP || (it->outcome == RESULT_PASS &&
					   !nr_missing)) {
		if (it->outcome == RESULT_SKIP)
			r->skipped++;
		else
			r->passed++;
		goto out;
	}
	ALLOC_GROW(r->v, r->nr, r->alloc);
	v = &r->v[r->nr++];
	memset(v, 0, sizeof(*v));
	v->item = it;
	if (it->outcome == RESULT_PASS) {
		v->cls = CLASS_UNEXPECTED_PASS;
		for (k = 0; k < nr_missing; k++)
			add_missing(v, missing[k], run, &ev);
		strbuf_addstr(&ev, "; yet it passed: check that presence "
			      "verdict (stablepick explain), or whether the "
			      "test reproduces the bug on this config");
		goto done;
	}
	ex = expunged(r, it);
	bi = result_find(&r->base, it->config, it->test);
	if (ex || (bi && bi->outcome == RESULT_FAIL)) {
		v->cls = CLASS_BASELINE;
		if (ex)
			strbuf_addf(&ev, "expunged in %s:%u%s%s", ex->file,
				    ex->line, ex->reason ? " # " : "",
				    ex->reason ? ex->reason : "");
		else
			strbuf_addf(&ev, "failed in the baseline run too (%s)",
				    bi->file);
		for (k = 0; k < nr_missing; k++)
			add_missing(v, missing[k], run, &ev);
	} else if (nr_missing) {
		v->cls = CLASS_MISSING_FIX;
		for (k = 0; k < nr_missing; k++)
			add_missing(v, missing[k], run, &ev);
	} else if (nr_present) {
		v->cls = CLASS_FIX_PRESENT;
		for (k = 0; k < nr_present; k++)
			add_present(ctx->repo, v, present[k], &ev);
		strbuf_addstr(&ev, "; still failing: a regression, or an "
			      "incomplete backport");
	} else if (bi && bi->outcome == RESULT_PASS) {
		struct range *g = NULL;

		v->cls = CLASS_NEW;
		strbuf_addf(&ev, "passed in the baseline run (%s)", bi->file);
		for (k = 0; k < *nr_ranges; k++)
			if (!strcmp((*ranges)[k].config, it->config))
				g = &(*ranges)[k];
		if (!g) {
			ALLOC_GROW(*ranges, *nr_ranges, *alloc_ranges);
			g = &(*ranges)[(*nr_ranges)++];
			memset(g, 0, sizeof(*g));
			if (range_setup(ctx->repo, r, run, g, it->config) < 0) {
				strbuf_release(&ev);
				ret = -1;
				goto out;
			}
		}
		add_suspects(v, g, it, fstyp, &ev);
	} else {
		v->cls = CLASS_UNEXPLAINED;
		if (!x)
			strbuf_addstr(&ev, "no annotation of the test sources "
				      "names a fix for it");
		if (!r->base.nr && !r->base.nr_expunged)
			strbuf_addf(&ev, "%sno baseline given", ev.len ? "; " : "");
		else if (!bi)
			strbuf_addf(&ev, "%snot in the baseline", ev.len ? "; " : "");
		else
			strbuf_addf(&ev, "%snot run in the baseline",
				    ev.len ? "; " : "");
	}
	for (k = 0; k < nr_other && v->cls != CLASS_MISSING_FIX; k++)
		strbuf_addf(&ev, "; %s names %s, %s: %s", other[k]->a->how,
			    other[k]->resolved ?
			    git_oid_tostr_s(&other[k]->id) : other[k]->a->sha,
			    fix_state_name(other[k]->state),
			    other[k]->detail ? other[k]->detail : "");
	if (alias)
		strbuf_addf(&ev, "; runtest tag of %s", alias);
done:
	if (it->failures && it->failures < it->runs)
		strbuf_addf(&ev, "; failed %u of %u runs (flaky)", it->failures,
			    it->runs);
	v->evidence = strbuf_detach(&ev, NULL);
out:
	free(missing);
	free(present);
	free(other);
	return ret;
}

int results_classify(struct run_context *ctx, struct run *run,
		     struct results_run *r)
{
	struct test *tests = NULL;
	struct by_name bn;
	struct range *ranges = NULL;
	size_t nr_tests = 0, nr_ranges = 0, alloc_ranges = 0, i;
	int ret = 0;

	tests_group(&r->t, &tests, &nr_tests);
	bn.v = xcalloc(nr_tests + 1, sizeof(*bn.v));
	bn.nr = nr_tests;
	bn.t = &r->t;
	for (i = 0; i < nr_tests; i++)
		bn.v[i] = &tests[i];
	sort_t = &r->t;
	QSORT(bn.v, bn.nr, cmp_test);
	sort_t = NULL;
	for (i = 0; !ret && i < r->now.nr; i++)
		ret = classify_one(ctx, run, r, &bn, &r->now.items[i], &ranges,
				   &nr_ranges, &alloc_ranges);
	trace_stage("results classified");
	for (i = 0; i < nr_ranges; i++)
		range_release(&ranges[i]);
	free(ranges);
	free(bn.v);
	free(tests);
	return ret;
}
