#include "stages/survey.h"
#include "base/ascii.h"
#include "base/error.h"
#include "base/strbuf.h"
#include "base/util.h"
#include "git/history.h"

#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>
#include <stdlib.h>
#include <string.h>

/*
 * The backport lines projects write (issue 36 lists them): the
 * kernel's three, Xen's, Ubuntu's, and two free forms.  count, when
 * set, finds the line in the whole message where pattern reads a
 * trailer's value.
 */
static const struct {
	const char *name, *field, *pattern, *flags, *shown, *count;
} known_forms[] = {
	{ "cherry-picked", "body",
	  "^\\(cherry picked from commit (?<id>[0-9a-f]{40})\\)", "m",
	  "(cherry picked from commit <id>)", NULL },
	{ "upstream-bracket", "body",
	  "^\\[ *upstream commit (?<id>[0-9a-f]{12,40}) *\\]", "mi",
	  "[ Upstream commit <id> ]", NULL },
	{ "upstream-line", "body",
	  "^commit (?<id>[0-9a-f]{40}) upstream\\.?$", "mi",
	  "commit <id> upstream.", NULL },
	{ "master-commit", "body",
	  "^master commit: (?<id>[0-9a-f]{40})$", "m",
	  "master commit: <id>", NULL },
	{ "backported-from", "body",
	  "^\\(backported from commit (?<id>[0-9a-f]{40})\\)", "m",
	  "(backported from commit <id>)", NULL },
	{ "upstream-commit", "trailer:Upstream-commit",
	  "^(?<id>[0-9a-f]{7,40})\\b", "i",
	  "Upstream-commit: <id>",
	  "^Upstream-commit:[ \\t]*[0-9a-f]{7,40}\\b" },
	{ "backport-of", "body",
	  "^Backport of (?:commit )?(?<id>[0-9a-f]{7,40})\\b", "mi",
	  "Backport of <id>", NULL },
};

/* A line "Key: <id>", the id with a letter in it (not an issue number). */
static const char link_line[] =
	"^([A-Za-z][A-Za-z0-9-]*):[ \\t]*(?:commit[ \\t]+)?"
	"(?=[0-9a-f]{0,39}[a-f])[0-9a-f]{7,40}\\b";

/* A tag of a release: a prefix, MAJOR.MINOR, then .STABLE, -rcN. */
static const char tag_shape[] =
	"^([^0-9]*)([0-9]+)\\.([0-9]+)(?:\\.([0-9]+))?(?:-rc([0-9]+))?$";

void survey_init(struct survey *s)
{
	size_t i;

	memset(s, 0, sizeof(*s));
	s->nr_forms = ARRAY_SIZE(known_forms);
	s->forms = xcalloc(s->nr_forms, sizeof(*s->forms));
	for (i = 0; i < s->nr_forms; i++) {
		s->forms[i].name = known_forms[i].name;
		s->forms[i].field = known_forms[i].field;
		s->forms[i].pattern = known_forms[i].pattern;
		s->forms[i].flags = known_forms[i].flags;
		s->forms[i].shown = known_forms[i].shown;
	}
}

void survey_release(struct survey *s)
{
	size_t i;

	for (i = 0; i < s->nr_dirs; i++) {
		free(s->dirs[i].name);
		free(s->dirs[i].path);
	}
	free(s->dirs);
	free(s->forms);
	for (i = 0; i < s->nr_links; i++)
		free(s->links[i].key);
	free(s->links);
	free(s->tags_pattern);
	free(s->tag_other_example);
	for (i = 0; i < s->nr_tag_examples; i++)
		free(s->tag_examples[i]);
	memset(s, 0, sizeof(*s));
}

static pcre2_code *compile(const char *pattern, const char *flags)
{
	uint32_t options = PCRE2_UTF | PCRE2_MATCH_INVALID_UTF;
	PCRE2_SIZE off;
	int err;

	if (strchr(flags, 'm'))
		options |= PCRE2_MULTILINE;
	if (strchr(flags, 'i'))
		options |= PCRE2_CASELESS;
	return pcre2_compile((PCRE2_SPTR)pattern, PCRE2_ZERO_TERMINATED,
			     options, &err, &off, NULL);
}

/* --- the tree ------------------------------------------------------ */

static int has_name(const struct survey *s, const char *name)
{
	size_t i;

	for (i = 0; i < s->nr_dirs; i++)
		if (!strcmp(s->dirs[i].name, name))
			return 1;
	return 0;
}

/* A subsystem name for directory name: what rules allow, and unique. */
static char *dir_name(const struct survey *s, const char *name)
{
	char *v = xstrdup(name), *p, *u;
	int n = 2;

	for (p = v; *p; p++)
		if (!is_alnum(*p) && *p != '-' && *p != '_' && *p != '.')
			*p = '-';
	if (!has_name(s, v))
		return v;
	for (;; n++) {
		u = xstrfmt("%s-%d", v, n);
		if (!has_name(s, u))
			break;
		free(u);
	}
	free(v);
	return u;
}

/* 1 if a path spec can hold name: no blank, glob or control byte. */
static int plain_name(const char *name)
{
	for (; *name; name++)
		if ((unsigned char)*name <= ' ' || *name == 0x7f ||
		    strchr("#*?[]\\", *name))
			return 0;
	return 1;
}

int survey_tree(struct survey *s, git_repository *repo, const git_oid *tip,
		const char *spec)
{
	git_commit *commit = NULL;
	git_tree *root = NULL, *tree = NULL;
	git_tree_entry *sub = NULL;
	char *dir = NULL;
	size_t i, n;
	int ret = -1;

	if (spec) {
		size_t len = strlen(spec);

		if (len < 4 || strcmp(spec + len - 3, "/*/") || spec[0] == '/')
			return error("bad --paths '%s' (expected DIR/*/, a "
				     "subsystem per directory of DIR)", spec);
		dir = xstrndup(spec, len - 2);
	}
	if (git_commit_lookup(&commit, repo, tip) < 0 ||
	    git_commit_tree(&root, commit) < 0)
		goto git_error;
	tree = root;
	if (dir) {
		dir[strlen(dir) - 1] = '\0';
		if (git_tree_entry_bypath(&sub, root, dir) < 0 ||
		    git_tree_entry_type(sub) != GIT_OBJECT_TREE) {
			ret = error("--paths '%s': no directory '%s' in "
				    "upstream's tree", spec, dir);
			goto out;
		}
		if (git_tree_lookup(&tree, repo, git_tree_entry_id(sub)) < 0)
			goto git_error;
		strcat(dir, "/");
	}
	n = git_tree_entrycount(tree);
	for (i = 0; i < n; i++) {
		const git_tree_entry *e = git_tree_entry_byindex(tree, i);
		const char *name = git_tree_entry_name(e);

		if (git_tree_entry_type(e) != GIT_OBJECT_TREE) {
			s->top_files += !dir;
			continue;
		}
		if (name[0] == '.')
			continue;
		if (!plain_name(name)) {
			s->odd_dirs++;
			continue;
		}
		ALLOC_GROW(s->dirs, s->nr_dirs, s->alloc_dirs);
		s->dirs[s->nr_dirs].name = dir_name(s, name);
		s->dirs[s->nr_dirs++].path = xstrfmt("%s%s/", dir ? dir : "",
						     name);
	}
	ret = 0;
	goto out;
git_error:
	ret = error("cannot read upstream's tree: %s", git_error_last() ?
		    git_error_last()->message : "unknown error");
out:
	if (tree != root)
		git_tree_free(tree);
	git_tree_free(root);
	git_tree_entry_free(sub);
	git_commit_free(commit);
	free(dir);
	return ret;
}

/* --- the messages -------------------------------------------------- */

struct survey_res {
	pcre2_code **forms;
	pcre2_code *link;
	pcre2_match_data *md;
};

/* The index of the link of key in s->links, added if new. */
static size_t link_of(struct survey *s, const char *key, size_t len)
{
	size_t i;

	for (i = 0; i < s->nr_links; i++)
		if (strlen(s->links[i].key) == len &&
		    !strncasecmp(s->links[i].key, key, len))
			return i;
	ALLOC_GROW(s->links, s->nr_links, s->alloc_links);
	memset(&s->links[i], 0, sizeof(s->links[i]));
	s->links[s->nr_links++].key = xstrndup(key, len);
	return i;
}

/* 1 if the form with the name counts a trailer of this key. */
static int is_form_key(const char *key, size_t len)
{
	return len == strlen("Upstream-commit") &&
	       !strncasecmp(key, "Upstream-commit", len);
}

static void survey_message(struct survey *s, struct survey_res *res,
			   const char *msg, int branch)
{
	size_t len = strlen(msg), i, j, start = 0, seen[32], nr_seen = 0;
	PCRE2_SIZE *ov = pcre2_get_ovector_pointer(res->md);

	for (i = 0; i < s->nr_forms; i++) {
		if (!res->forms[i] ||
		    pcre2_match(res->forms[i], (PCRE2_SPTR)msg, len, 0, 0,
				res->md, NULL) < 0)
			continue;
		if (branch)
			s->forms[i].branch++;
		else
			s->forms[i].mainline++;
	}
	/* Each key once a message, however many lines have it. */
	while (start < len && nr_seen < ARRAY_SIZE(seen) &&
	       pcre2_match(res->link, (PCRE2_SPTR)msg, len, start, 0,
			   res->md, NULL) > 1) {
		const char *key = msg + ov[2];
		size_t klen = ov[3] - ov[2];

		start = ov[1] > start ? ov[1] : start + 1;
		if (is_form_key(key, klen))
			continue;
		i = link_of(s, key, klen);
		for (j = 0; j < nr_seen && seen[j] != i; j++)
			;
		if (j < nr_seen)
			continue;
		seen[nr_seen++] = i;
		if (branch)
			s->links[i].branch++;
		else
			s->links[i].mainline++;
	}
}

int survey_messages(struct survey *s, git_repository *repo,
		    const git_oid *tip, const git_oid *hide, int branch,
		    size_t max)
{
	struct survey_res res = { NULL, NULL, NULL };
	struct history_walk w;
	git_commit *commit;
	git_oid id;
	size_t i;
	int ret;

	res.forms = xcalloc(s->nr_forms, sizeof(*res.forms));
	for (i = 0; i < s->nr_forms; i++)
		res.forms[i] = known_forms[i].count ?
			compile(known_forms[i].count, "mi") :
			compile(known_forms[i].pattern, known_forms[i].flags);
	res.link = compile(link_line, "m");
	res.md = pcre2_match_data_create(16, NULL);
	if (!res.link || !res.md)
		die_oom();

	/* Unsorted and hiding nothing, a walk gives commits as it goes. */
	history_walk_init(&w, repo, hide ? GIT_SORT_TIME : GIT_SORT_NONE);
	ret = history_walk_push(&w, tip);
	if (!ret && hide)
		ret = history_walk_hide(&w, hide);
	while (!ret && (!max || (branch ? s->branch : s->mainline) < max) &&
	       !(ret = history_walk_next(&id, &w))) {
		if ((ret = git_commit_lookup(&commit, repo, &id)) < 0)
			break;
		if (git_commit_parentcount(commit) <= 1) {
			survey_message(s, &res, git_commit_message(commit),
				       branch);
			if (branch)
				s->branch++;
			else
				s->mainline++;
		}
		git_commit_free(commit);
	}
	history_walk_release(&w);
	if (ret == GIT_ITEROVER)
		ret = 0;
	else if (ret < 0)
		ret = error("cannot walk the commits of %s: %s",
			    branch ? "the branch" : "mainline",
			    git_error_last() ? git_error_last()->message :
			    "unknown error");
	for (i = 0; i < s->nr_forms; i++)
		pcre2_code_free(res.forms[i]);
	free(res.forms);
	pcre2_code_free(res.link);
	pcre2_match_data_free(res.md);
	return ret;
}

static int cmp_link(const void *a, const void *b)
{
	const struct survey_link *x = a, *y = b;
	size_t nx = x->mainline + x->branch, ny = y->mainline + y->branch;

	if (nx != ny)
		return nx < ny ? 1 : -1;
	return strcmp(x->key, y->key);
}

void survey_sort(struct survey *s)
{
	QSORT(s->links, s->nr_links, cmp_link);
}

/* --- the tags ------------------------------------------------------ */

struct tag_version {
	const char *name;
	long v[4];		/* major, minor, stable, rc (none: a lot) */
};

static int cmp_version_desc(const void *a, const void *b)
{
	const struct tag_version *x = a, *y = b;
	int i;

	for (i = 0; i < 4; i++)
		if (x->v[i] != y->v[i])
			return x->v[i] < y->v[i] ? 1 : -1;
	return strcmp(x->name, y->name);
}

/* The pattern of the tags of prefix, the prefix quoted for PCRE2. */
static char *tags_pattern(const char *prefix, size_t len)
{
	struct strbuf sb = STRBUF_INIT;
	size_t i;

	strbuf_addch(&sb, '^');
	for (i = 0; i < len; i++) {
		if (!is_alnum(prefix[i]))
			strbuf_addch(&sb, '\\');
		strbuf_addch(&sb, prefix[i]);
	}
	strbuf_addstr(&sb, "(?<major>[0-9]+)\\.(?<minor>[0-9]+)"
		      "(?:\\.(?<stable>[0-9]+))?(?:-rc(?<rc>[0-9]+))?$");
	return strbuf_detach(&sb, NULL);
}

/*
 * The index of the prefix most tags have, but not but (when given), of
 * as many the first met; *count, how many have it (0: none).
 */
static size_t best_prefix(char **prefix, size_t nr, const char *but,
			  size_t *count)
{
	size_t i, j, n, best = 0;

	*count = 0;
	for (i = 0; i < nr; i++) {
		if (but && !strcmp(prefix[i], but))
			continue;
		for (n = 0, j = 0; j < nr; j++)
			n += !strcmp(prefix[i], prefix[j]);
		if (n > *count) {
			*count = n;
			best = i;
		}
	}
	return best;
}

/*
 * Moves the versions of the tags of prefix p to the front of v, newest
 * first, and returns how many there are.  v and prefix stay parallel.
 */
static size_t newest(struct tag_version *v, char **prefix, size_t nr,
		     const char *p)
{
	struct tag_version t;
	char *tp, *keep = xstrdup(p);
	size_t i, n = 0;

	for (i = 0; i < nr; i++) {
		if (strcmp(prefix[i], keep))
			continue;
		t = v[n], v[n] = v[i], v[i] = t;
		tp = prefix[n], prefix[n] = prefix[i], prefix[i] = tp;
		n++;
	}
	QSORT(v, n, cmp_version_desc);
	free(keep);
	return n;
}

int survey_tags(struct survey *s, git_repository *repo)
{
	git_strarray names = { NULL, 0 };
	pcre2_code *re = compile(tag_shape, "");
	pcre2_match_data *md = pcre2_match_data_create(8, NULL);
	struct tag_version *v;
	char **prefix;
	size_t i, j, nr = 0, best, best_nr, other, n;

	if (!re || !md)
		die_oom();
	if (git_tag_list(&names, repo) < 0) {
		pcre2_code_free(re);
		pcre2_match_data_free(md);
		return error("cannot list the tags: %s", git_error_last() ?
			     git_error_last()->message : "unknown error");
	}
	s->tags = names.count;
	v = xcalloc(names.count + 1, sizeof(*v));
	prefix = xcalloc(names.count + 1, sizeof(*prefix));
	for (i = 0; i < names.count; i++) {
		PCRE2_SIZE *ov = pcre2_get_ovector_pointer(md);
		const char *t = names.strings[i];
		int rc = pcre2_match(re, (PCRE2_SPTR)t, strlen(t), 0, 0, md,
				     NULL);
		int g;

		if (rc < 0)
			continue;
		prefix[nr] = xstrndup(t, ov[3] - ov[2]);
		v[nr].name = t;
		for (g = 0; g < 4; g++)
			v[nr].v[g] = g + 2 < rc && ov[2 * (g + 2)] != PCRE2_UNSET ?
				strtol(t + ov[2 * (g + 2)], NULL, 10) :
				(g == 3 ? 1000000 : 0);
		nr++;
	}
	/* The prefix most release tags have; of as many, the first met. */
	best = best_prefix(prefix, nr, NULL, &best_nr);
	if (best_nr) {
		char *p = xstrdup(prefix[best]), *q;

		s->tags_matched = best_nr;
		s->tags_pattern = tags_pattern(p, strlen(p));
		other = best_prefix(prefix, nr, p, &s->tags_other);
		q = xstrdup(prefix[other]);
		n = newest(v, prefix, nr, p);
		for (j = 0; j < n && j < ARRAY_SIZE(s->tag_examples); j++)
			s->tag_examples[s->nr_tag_examples++] =
				xstrdup(v[j].name);
		if (s->tags_other && newest(v, prefix, nr, q))
			s->tag_other_example = xstrdup(v[0].name);
		free(p);
		free(q);
	}
	for (i = 0; i < nr; i++)
		free(prefix[i]);
	free(prefix);
	free(v);
	git_strarray_dispose(&names);
	pcre2_code_free(re);
	pcre2_match_data_free(md);
	return 0;
}
