/*
 * Unit tests for the commit-graph reader: what it says of every commit
 * of a history git wrote a graph of is what git log says, its Bloom
 * filters never deny a path the commit changed and mostly deny those
 * it did not, and a damaged graph is ignored with a warning.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "capture.h"
#include "git/commitgraph.h"
#include "base/strbuf.h"
#include "testrepo.h"
#include "base/util.h"

#define MAX_PARENTS 8

struct commit {
	git_oid id, tree;
	git_oid parents[MAX_PARENTS];
	unsigned int nr_parents;
	long date;
	uint64_t level, corrected;	/* the generations git computes */
};

struct history {
	struct commit *c;
	size_t nr, alloc;
};

/* The output of "git CMD" in dir (which must succeed). */
static char *git_out(const char *dir, const char *cmd, size_t *len)
{
	struct strbuf sb = STRBUF_INIT;
	char buf[8192];
	size_t got;
	FILE *fp;
	char *line = xstrfmt("cd '%s' && git %s", dir, cmd);

	fp = popen(line, "r");
	assert_non_null(fp);
	while ((got = fread(buf, 1, sizeof(buf), fp)) > 0)
		strbuf_add(&sb, buf, got);
	assert_int_equal(pclose(fp), 0);
	free(line);
	if (len)
		*len = sb.len;
	return strbuf_detach(&sb, NULL);
}

static struct commit *history_find(struct history *h, const git_oid *id)
{
	size_t i;

	for (i = 0; i < h->nr; i++)
		if (git_oid_equal(&h->c[i].id, id))
			return &h->c[i];
	fail_msg("commit %s not in git log", git_oid_tostr_s(id));
	return NULL;
}

/*
 * git log's commits, children first, with the topological level and
 * corrected commit date computed here from the parents, as the format
 * defines them.
 */
static void history_load(struct history *h, const char *dir)
{
	char *out = git_out(dir, "log --all --topo-order "
			    "--format='%H %P %T %ct'", NULL);
	char *line, *save = NULL;
	size_t i;

	memset(h, 0, sizeof(*h));
	for (line = strtok_r(out, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		char *tok[MAX_PARENTS + 3], *s = NULL, *t;
		unsigned int n = 0, j;
		struct commit *c;

		for (t = strtok_r(line, " ", &s); t; t = strtok_r(NULL, " ", &s)) {
			assert_true(n < ARRAY_SIZE(tok));
			tok[n++] = t;
		}
		assert_true(n >= 3);
		ALLOC_GROW(h->c, h->nr, h->alloc);
		c = &h->c[h->nr++];
		memset(c, 0, sizeof(*c));
		assert_int_equal(git_oid_fromstr(&c->id, tok[0]), 0);
		c->nr_parents = n - 3;
		for (j = 0; j < c->nr_parents; j++)
			assert_int_equal(git_oid_fromstr(&c->parents[j],
							 tok[1 + j]), 0);
		assert_int_equal(git_oid_fromstr(&c->tree, tok[n - 2]), 0);
		c->date = atol(tok[n - 1]);
	}
	free(out);
	/* Parents come after their children: compute from the end. */
	for (i = h->nr; i > 0; i--) {
		struct commit *c = &h->c[i - 1];
		unsigned int j;

		c->level = 1;
		c->corrected = c->date;
		for (j = 0; j < c->nr_parents; j++) {
			struct commit *p = history_find(h, &c->parents[j]);

			if (p->level + 1 > c->level)
				c->level = p->level + 1;
			if (p->corrected + 1 > c->corrected)
				c->corrected = p->corrected + 1;
		}
	}
}

static uint32_t must_find(const struct commit_graph *g, const git_oid *id)
{
	uint32_t pos;

	if (!commit_graph_find(g, id, &pos))
		fail_msg("commit %s not in the graph", git_oid_tostr_s(id));
	return pos;
}

/* Parents (in order), tree, date and generation of every commit. */
static void check_commits(const struct commit_graph *g, struct history *h,
			  int corrected)
{
	size_t i;

	assert_int_equal(commit_graph_nr(g), h->nr);
	for (i = 0; i < h->nr; i++) {
		const struct commit *c = &h->c[i];
		uint32_t pos = must_find(g, &c->id), one, all[MAX_PARENTS];
		unsigned int nr, j;
		git_oid id;

		commit_graph_oid(g, pos, &id);
		assert_true(git_oid_equal(&id, &c->id));
		commit_graph_tree(g, pos, &id);
		assert_true(git_oid_equal(&id, &c->tree));
		assert_int_equal(commit_graph_date(g, pos), c->date);
		assert_int_equal(commit_graph_generation(g, pos),
				 corrected ? c->corrected : c->level);

		/* A small buffer tells how many there are. */
		nr = commit_graph_parents(g, pos, &one, 1);
		assert_int_equal(nr, c->nr_parents);
		nr = commit_graph_parents(g, pos, all, MAX_PARENTS);
		assert_int_equal(nr, c->nr_parents);
		if (nr)
			assert_int_equal(one, all[0]);
		for (j = 0; j < nr; j++) {
			commit_graph_oid(g, all[j], &id);
			assert_true(git_oid_equal(&id, &c->parents[j]));
			assert_true(commit_graph_generation(g, pos) >
				    commit_graph_generation(g, all[j]));
		}
	}
}

/* NUL-separated paths of out, with each leading directory, into set. */
static size_t add_paths(char ***set, size_t *nr, size_t *alloc,
			const char *out, size_t len)
{
	const char *p = out;
	size_t files = 0;

	while (p < out + len) {
		size_t plen = strlen(p);
		char *path = xstrndup(p, plen), *slash;

		files++;
		do {
			size_t i;

			for (i = 0; i < *nr; i++)
				if (!strcmp((*set)[i], path))
					break;
			if (i == *nr) {
				ALLOC_GROW(*set, *nr, *alloc);
				(*set)[(*nr)++] = xstrdup(path);
			}
			slash = strrchr(path, '/');
			if (slash)
				*slash = '\0';
		} while (slash);
		free(path);
		p += plen + 1;
	}
	return files;
}

struct changes {
	char **paths;	/* and their leading directories */
	size_t nr, alloc;
	size_t files;
};

/* What c changed against its first parent, as git diff-tree says. */
static void changes_of(struct changes *ch, const char *dir,
		       const struct commit *c)
{
	char *cmd, *out;
	size_t len;
	char hex[GIT_OID_HEXSZ + 1];

	git_oid_tostr(hex, sizeof(hex), &c->id);
	if (c->nr_parents)
		cmd = xstrfmt("diff-tree --no-commit-id -r --name-only -z "
			      "%s^ %s", hex, hex);
	else
		cmd = xstrfmt("diff-tree --root --no-commit-id -r "
			      "--name-only -z %s", hex);
	out = git_out(dir, cmd, &len);
	memset(ch, 0, sizeof(*ch));
	ch->files = add_paths(&ch->paths, &ch->nr, &ch->alloc, out, len);
	free(out);
	free(cmd);
}

static int changed(const struct changes *ch, const char *path)
{
	size_t i;

	for (i = 0; i < ch->nr; i++)
		if (!strcmp(ch->paths[i], path))
			return 1;
	return 0;
}

static int maybe(const struct commit_graph *g, uint32_t pos, const char *path)
{
	struct commit_graph_bloom_key key;
	int ret;

	commit_graph_bloom_key(g, path, &key);
	ret = commit_graph_bloom_maybe(g, pos, &key, 1);
	commit_graph_bloom_key_release(&key);
	return ret;
}

/*
 * Every path and leading directory a commit changed is a maybe; of the
 * paths of the history it did not change (and some never there), most
 * are a certain no (here 10105 of 10666: git's double hashing modulo
 * the 16 bits of a one-path filter often lands on few bits, so such a
 * filter says maybe to about one path in ten).  The commit of more
 * than 512 changes has the all-ones filter: maybe for everything.
 */
static void check_bloom(const struct commit_graph *g, const char *dir,
			struct history *h)
{
	struct changes *ch = xcalloc(h->nr, sizeof(*ch));
	struct changes all = { 0 };
	size_t i, j, no = 0, asked = 0, big = 0;

	assert_true(commit_graph_has_bloom(g));
	for (i = 0; i < h->nr; i++) {
		changes_of(&ch[i], dir, &h->c[i]);
		for (j = 0; j < ch[i].nr; j++) {
			const char *p = ch[i].paths[j];

			add_paths(&all.paths, &all.nr, &all.alloc, p,
				  strlen(p) + 1);
		}
	}
	for (i = 0; i < 40; i++) {
		char *p = xstrfmt("absent/file%zu", i);

		add_paths(&all.paths, &all.nr, &all.alloc, p, strlen(p) + 1);
		free(p);
	}
	for (i = 0; i < h->nr; i++) {
		uint32_t pos = must_find(g, &h->c[i].id);

		for (j = 0; j < ch[i].nr; j++)
			if (maybe(g, pos, ch[i].paths[j]) != 1)
				fail_msg("commit %s changed '%s': not a maybe",
					 git_oid_tostr_s(&h->c[i].id),
					 ch[i].paths[j]);
		if (ch[i].files > 512)
			big++;
		for (j = 0; j < all.nr; j++) {
			int m;

			if (changed(&ch[i], all.paths[j]))
				continue;
			m = maybe(g, pos, all.paths[j]);
			if (ch[i].files > 512) {
				assert_int_equal(m, 1);
				continue;
			}
			assert_true(m == 0 || m == 1);
			asked++;
			no += !m;
		}
		free_string_array(ch[i].paths, ch[i].nr);
	}
	free(ch);
	free_string_array(all.paths, all.nr);
	assert_int_equal(big, 1);
	assert_true(asked > 1000);
	if (no * 100 <= asked * 90)
		fail_msg("only %zu of %zu unchanged paths denied", no, asked);
}

static void check_keys(const struct commit_graph *g, struct history *h)
{
	struct commit_graph_bloom_key keys[2];
	uint32_t pos = must_find(g, &h->c[h->nr - 1].id);	/* the root */

	/* Of several keys, one changed is enough. */
	commit_graph_bloom_key(g, "absent/none", &keys[0]);
	commit_graph_bloom_key(g, "a", &keys[1]);
	assert_int_equal(commit_graph_bloom_maybe(g, pos, keys, 2), 1);
	commit_graph_bloom_key_release(&keys[0]);
	commit_graph_bloom_key_release(&keys[1]);
}

/*
 * The history, in three parts so that a split graph can be written
 * between them: merges (one of four parents), two roots, a rename, a
 * deletion, names with bytes of 0x80 and more (which git's first
 * murmur3 read as negative, in blocks and in the tail), a commit of 600
 * files, dates out of order and one past 2^32.
 */
static void history_part1(const char *dir, long *tick)
{
	testrepo_git(dir, tick, 0, "init -q -b master");
	testrepo_sh(dir, tick, 60,
		    "mkdir -p dir '\xc3\xa9t\xc3\xa9' && echo a >a && "
		    "echo b >dir/b && echo c >'dir/caf\xc3\xa9' && "
		    "echo e >'dir/\xe2\x82\xac' && echo x >'dir/x\xc3\xa9' && "
		    "echo y >'\xc3\xa9t\xc3\xa9/y' && git add . && "
		    "git commit -q -m root");
	testrepo_change(dir, tick, 60, "a", "a2", "change a");
	testrepo_git(dir, tick, 60, "checkout -q -b side");
	testrepo_change(dir, tick, 60, "dir/b", "b2", "change b");
	testrepo_change(dir, tick, 60, "side/deep/file", "s", "add side");
	testrepo_git(dir, tick, 60, "checkout -q master");
	testrepo_git(dir, tick, 60, "mv a a-renamed");
	testrepo_git(dir, tick, 0, "commit -q -m rename");
	testrepo_git(dir, tick, 60, "rm -q 'dir/x\xc3\xa9'");
	testrepo_git(dir, tick, 0, "commit -q -m delete");
	testrepo_git(dir, tick, 60, "merge -q --no-ff side -m merge");
}

static void history_part2(const char *dir, long *tick)
{
	int i;

	for (i = 1; i <= 3; i++) {
		char path[32], branch[8];

		snprintf(branch, sizeof(branch), "o%d", i);
		snprintf(path, sizeof(path), "oct/o%d", i);
		testrepo_git(dir, tick, 60, "checkout -q -b %s master", branch);
		testrepo_change(dir, tick, 60, path, branch, branch);
	}
	testrepo_git(dir, tick, 60, "checkout -q master");
	testrepo_git(dir, tick, 60, "merge -q --no-ff o1 o2 o3 -m octopus");
	testrepo_sh(dir, tick, 60,
		    "for i in $(seq 1 600); do mkdir -p many/d$((i % 7)) && "
		    "echo $i >many/d$((i % 7))/f$i; done && git add many && "
		    "git commit -q -m many");
}

static void history_part3(const char *dir, long *tick)
{
	long saved;

	testrepo_git(dir, tick, 60, "checkout -q --orphan other");
	testrepo_sh(dir, tick, 60, "git rm -rqf . && echo o >other-root && "
		    "git add other-root && git commit -q -m other-root");
	testrepo_git(dir, tick, 60, "checkout -q master");
	testrepo_git(dir, tick, 60,
		     "merge -q --allow-unrelated-histories other -m unrelated");
	/* A clock set back: the corrected date is not the date. */
	testrepo_change(dir, tick, -100000, "skew", "s", "skewed");
	/* Past 2^32 seconds, then back: a GDO2 offset. */
	saved = *tick;
	*tick = 5000000000L;
	testrepo_change(dir, tick, 0, "future", "f", "future");
	*tick = saved;
	testrepo_change(dir, tick, 60, "past", "p", "back from the future");
}

static void full_history(const char *dir, long *tick)
{
	history_part1(dir, tick);
	history_part2(dir, tick);
	history_part3(dir, tick);
}

static struct commit_graph *open_graph(const char *path)
{
	git_repository *repo;
	struct commit_graph *g;

	assert_int_equal(git_repository_open(&repo, path), 0);
	assert_int_equal(commit_graph_open(&g, repo), 0);
	git_repository_free(repo);
	return g;
}

static void test_single(void **state)
{
	char dir[] = "/tmp/test_commitgraph.XXXXXX";
	long tick = 1700000000;
	struct commit_graph *g;
	struct history h;
	git_repository *repo;
	git_oid later, head;
	uint32_t pos;
	char *wt;

	(void)state;
	testrepo_create(dir);
	full_history(dir, &tick);
	testrepo_git(dir, &tick, 0,
		     "commit-graph write --reachable --changed-paths");
	history_load(&h, dir);
	assert_true(h.nr > 15);

	g = open_graph(dir);
	assert_non_null(g);
	check_commits(g, &h, 1);
	check_bloom(g, dir, &h);
	check_keys(g, &h);

	/* A commit made after the graph is not in it; its parent is. */
	testrepo_change(dir, &tick, 60, "later", "l", "later");
	assert_int_equal(git_repository_open(&repo, dir), 0);
	later = testrepo_rev(repo, "HEAD");
	head = testrepo_rev(repo, "HEAD^");
	git_repository_free(repo);
	assert_false(commit_graph_find(g, &later, &pos));
	assert_true(commit_graph_find(g, &head, &pos));
	commit_graph_free(g);

	/* A worktree reads its repository's graph. */
	testrepo_git(dir, &tick, 0, "worktree add -q --detach wt HEAD~2");
	wt = xstrfmt("%s/wt", dir);
	g = open_graph(wt);
	assert_non_null(g);
	assert_int_equal(commit_graph_nr(g), h.nr);
	commit_graph_free(g);
	free(wt);

	/* core.commitGraph=false: none, and nothing said. */
	testrepo_git(dir, &tick, 0, "config core.commitGraph false");
	g = open_graph(dir);
	assert_null(g);
	testrepo_git(dir, &tick, 0, "config core.commitGraph true");
	g = open_graph(dir);
	assert_non_null(g);
	commit_graph_free(g);

	free(h.c);
	testrepo_remove(dir);
}

/*
 * Generation numbers of CDAT when the graph has no corrected dates; no
 * filters, then filters never computed.
 */
static void test_topological_levels(void **state)
{
	char dir[] = "/tmp/test_commitgraph.XXXXXX";
	long tick = 1700000000;
	struct commit_graph *g;
	struct history h;
	uint32_t pos;

	(void)state;
	testrepo_create(dir);
	full_history(dir, &tick);
	testrepo_git(dir, &tick, 0, "-c commitGraph.generationVersion=1 "
		     "commit-graph write --reachable");
	history_load(&h, dir);
	g = open_graph(dir);
	assert_non_null(g);
	check_commits(g, &h, 0);
	assert_false(commit_graph_has_bloom(g));
	assert_int_equal(commit_graph_bloom_maybe(g, 0, NULL, 0), -1);
	commit_graph_free(g);

	/* Filters not computed (of zero length): no answer. */
	testrepo_git(dir, &tick, 0, "commit-graph write --reachable "
		     "--changed-paths --max-new-filters=0");
	g = open_graph(dir);
	assert_non_null(g);
	assert_true(commit_graph_has_bloom(g));
	for (pos = 0; pos < commit_graph_nr(g); pos++)
		assert_int_equal(maybe(g, pos, "a"), -1);
	commit_graph_free(g);
	free(h.c);
	testrepo_remove(dir);
}

static void write_split(const char *dir, long *tick)
{
	testrepo_git(dir, tick, 0, "commit-graph write --reachable "
		     "--split=no-merge --changed-paths");
}

static void test_split(void **state)
{
	char dir[] = "/tmp/test_commitgraph.XXXXXX";
	long tick = 1700000000;
	struct commit_graph *g;
	struct history h;
	char *chain;
	size_t len, i, layers = 0;

	(void)state;
	testrepo_create(dir);
	history_part1(dir, &tick);
	write_split(dir, &tick);
	history_part2(dir, &tick);
	write_split(dir, &tick);
	history_part3(dir, &tick);
	write_split(dir, &tick);
	chain = git_out(dir, "--version >/dev/null && "
			"cat .git/objects/info/commit-graphs/commit-graph-chain",
			&len);
	for (i = 0; i < len; i++)
		layers += chain[i] == '\n';
	free(chain);
	assert_int_equal(layers, 3);

	history_load(&h, dir);
	g = open_graph(dir);
	assert_non_null(g);
	check_commits(g, &h, 1);
	check_bloom(g, dir, &h);
	commit_graph_free(g);
	free(h.c);
	testrepo_remove(dir);
}

/* A damaged file: ignored, with one warning naming it and the cause. */
static void expect_damage(const char *dir, const char *file, const char *cause)
{
	struct capture cap;
	struct commit_graph *g;
	char *err, *want;

	capture_begin(&cap);
	g = open_graph(dir);
	err = capture_end(&cap);
	assert_null(g);
	want = xstrfmt("warning: ignoring commit-graph '%s/.git/objects/info/%s': ",
		       dir, file);
	if (strncmp(err, want, strlen(want)) || !strstr(err, cause) ||
	    strchr(err, '\n') != err + strlen(err) - 1)
		fail_msg("unexpected warning: %s", err);
	free(want);
	free(err);
}

static void test_damaged(void **state)
{
	char dir[] = "/tmp/test_commitgraph.XXXXXX";
	long tick = 1700000000;
	struct strbuf cmd = STRBUF_INIT;
	struct commit_graph *g;
	char *out, *layer;

	(void)state;
	testrepo_create(dir);
	history_part1(dir, &tick);
	testrepo_git(dir, &tick, 0,
		     "commit-graph write --reachable --changed-paths");
	testrepo_sh(dir, &tick, 0, "cp .git/objects/info/commit-graph ../cg.keep");

	testrepo_sh(dir, &tick, 0, "f=.git/objects/info/commit-graph && "
		    "head -c 200 ../cg.keep >$f.tmp && rm -f $f && mv $f.tmp $f");
	expect_damage(dir, "commit-graph", "out of the file");

	testrepo_sh(dir, &tick, 0, "f=.git/objects/info/commit-graph && "
		    "head -c 10 ../cg.keep >$f.tmp && rm -f $f && mv $f.tmp $f");
	expect_damage(dir, "commit-graph", "file too short");

	testrepo_sh(dir, &tick, 0, "f=.git/objects/info/commit-graph && "
		    "{ printf XGPH; tail -c +5 ../cg.keep; } >$f.tmp && "
		    "rm -f $f && mv $f.tmp $f");
	expect_damage(dir, "commit-graph", "bad signature");

	/* The fan-out's first entry made larger than the rest. */
	testrepo_sh(dir, &tick, 0, "f=.git/objects/info/commit-graph && "
		    "o=$(od -An -tu1 -j 19 -N 1 ../cg.keep) && "
		    "{ head -c $o ../cg.keep; printf '\\377\\377\\377\\377'; "
		    "tail -c +$((o + 5)) ../cg.keep; } >$f.tmp && "
		    "rm -f $f && mv $f.tmp $f");
	expect_damage(dir, "commit-graph", "OIDF decreases");

	/* Intact again: read. */
	testrepo_sh(dir, &tick, 0, "f=.git/objects/info/commit-graph && "
		    "rm -f $f && cp ../cg.keep $f");
	g = open_graph(dir);
	assert_non_null(g);
	commit_graph_free(g);

	/* A chain: a layer of another checksum, then a missing layer. */
	history_part2(dir, &tick);
	testrepo_sh(dir, &tick, 0, "rm -f .git/objects/info/commit-graph");
	write_split(dir, &tick);
	testrepo_change(dir, &tick, 60, "more", "m", "more");
	write_split(dir, &tick);
	g = open_graph(dir);
	assert_non_null(g);
	commit_graph_free(g);
	out = git_out(dir, "--version >/dev/null && "
		      "head -n 1 .git/objects/info/commit-graphs/commit-graph-chain",
		      NULL);
	out[strcspn(out, "\n")] = '\0';
	layer = xstrfmt("commit-graphs/graph-%s.graph", out);
	strbuf_addf(&cmd, "f=.git/objects/info/%s && cp $f ../layer.keep && "
		    "{ head -c -20 ../layer.keep; head -c 20 /dev/zero; } >$f.tmp && "
		    "rm -f $f && mv $f.tmp $f", layer);
	testrepo_sh(dir, &tick, 0, cmd.buf);
	expect_damage(dir, layer, "checksum does not match the chain");
	strbuf_reset(&cmd);
	strbuf_addf(&cmd, "rm -f .git/objects/info/%s", layer);
	testrepo_sh(dir, &tick, 0, cmd.buf);
	expect_damage(dir, layer, "a layer of the chain is missing");

	strbuf_release(&cmd);
	free(layer);
	free(out);
	testrepo_remove(dir);
	testrepo_sh("/tmp", &tick, 0, "rm -f /tmp/cg.keep /tmp/layer.keep");
}

/*
 * murmur3 against the published vectors, and the two versions on names
 * with bytes of 0x80 or more.  The git here (2.39) writes only version
 * 1 filters, which test_single reads; the version 2 values below come
 * from the algorithm as specified, worked out apart from this code (a
 * few lines of Python), version 1's with those bytes sign-extended as
 * git's first implementation did.
 */
static void test_murmur3(void **state)
{
	static const struct {
		const char *data;
		uint32_t seed, v1, v2;
	} vec[] = {
		{ "", 1, 0x514e28b7, 0x514e28b7 },
		{ "aaaa", 0x9747b28c, 0x5a97808a, 0x5a97808a },
		{ "abc", 0x9747b28c, 0xc84a62dd, 0xc84a62dd },
		{ "The quick brown fox jumps over the lazy dog", 0x9747b28c,
		  0x2fa826cd, 0x2fa826cd },
		/* High bytes in the body are read right by both. */
		{ "\xff\xff\xff\xff", 0, 0x76293b50, 0x76293b50 },
		{ "dir/caf\xc3\xa9", 0x293ae76f, 0x1866e62d, 0x0f7e6558 },
		{ "dir/caf\xc3\xa9", 0x7e646e2c, 0x5d517b64, 0xfa2f7e84 },
		{ "dir/\xe2\x82\xac", 0x293ae76f, 0x203e8f9b, 0xe27b4514 },
		{ "\xc3\xa9t\xc3\xa9", 0x7e646e2c, 0x630554f6, 0xd61074f2 },
		{ "\xc3\xa9t\xc3\xa9/y", 0x293ae76f, 0x933129db, 0x64cb919e },
		{ "x\x80yz", 0x293ae76f, 0x07b05f5b, 0xbf8c234c },
	};
	size_t i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(vec); i++) {
		size_t len = strlen(vec[i].data);

		assert_int_equal(commit_graph_murmur3(1, vec[i].seed,
						      vec[i].data, len), vec[i].v1);
		assert_int_equal(commit_graph_murmur3(2, vec[i].seed,
						      vec[i].data, len), vec[i].v2);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_murmur3),
		cmocka_unit_test(test_single),
		cmocka_unit_test(test_topological_levels),
		cmocka_unit_test(test_split),
		cmocka_unit_test(test_damaged),
	};
	int ret;

	git_libgit2_init();
	ret = cmocka_run_group_tests(tests, NULL, NULL);
	git_libgit2_shutdown();
	return ret;
}
