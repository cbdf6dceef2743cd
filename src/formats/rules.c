#include "formats/rules.h"
#include "formats/rules-internal.h"
#include "base/error.h"
#include "base/sha1.h"
#include "formats/soak.h"
#include "base/strbuf.h"
#include "base/util.h"

#include <dirent.h>
#include <fnmatch.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/*
 * The ruleset: the names of policies, facts and fields, its lifetime,
 * matching a rule or a link against a commit's text, tags by the
 * release-tags pattern, loading rule files and directories laid over
 * each other, and subsystems derived from templates.  The parser of a
 * rule file's text is rules-parse.c's.
 */

/*
 * Limits for one match: enough for any sane pattern on a commit message,
 * small enough that a catastrophically backtracking one gives up in a
 * fraction of a second.
 */
#define MATCH_LIMIT 1000000
#define DEPTH_LIMIT 10000
#define JIT_STACK_START (32 * 1024)
#define JIT_STACK_MAX (1024 * 1024)

const char *policy_name(enum policy pol)
{
	switch (pol) {
	case POLICY_HEURISTIC: return "heuristic";
	case POLICY_OPT_IN: return "opt-in";
	case POLICY_IGNORE: return "ignore";
	}
	return "unknown";
}

static const char *const fact_names[FACT__NR] = {
	[FACT_FIXES_IN_BRANCH] = "fixes-in-branch",
	[FACT_FOLLOW_UP] = "follow-up",
	[FACT_REVERTS_PRESENT] = "reverts-present",
	[FACT_PREREQUISITE] = "prerequisite",
	[FACT_NAMED_BY_TEST] = "named-by-test",
	[FACT_CVE] = "cve",
	[FACT_IN_NEWER_BRANCH] = "in-newer-branch",
};

const char *rule_fact_name(enum rule_fact f)
{
	return (unsigned)f < FACT__NR ? fact_names[f] : "unknown";
}

int rule_fact_lookup(const char *name)
{
	int i;

	for (i = 0; i < FACT__NR; i++)
		if (!strcmp(fact_names[i], name))
			return i;
	return -1;
}

const char *rule_field_name(enum rule_field f)
{
	switch (f) {
	case FIELD_SUBJECT: return "subject";
	case FIELD_BODY: return "body";
	case FIELD_MESSAGE: return "message";
	case FIELD_TRAILER: return "trailer";
	case FIELD_PATHS: return "paths";
	case FIELD_FACT: return "fact";
	case FIELD_REPLY: return "reply";
	}
	return "unknown";
}

void rule_release(struct rule *r)
{
	free(r->name);
	free(r->trailer);
	free(r->pattern);
	free(r->flags);
	pcre2_code_free(r->re);
	free_string_array(r->unless, r->nr_unless);
	memset(r, 0, sizeof(*r));
}

void subsystem_release(struct subsystem *s)
{
	size_t i;

	free(s->name);
	free_string_array(s->paths, s->nr_paths);
	free_string_array(s->lists, s->nr_lists);
	free_string_array(s->maintainers, s->nr_maintainers);
	for (i = 0; i < s->nr_rules; i++)
		rule_release(&s->rules[i]);
	free(s->rules);
	memset(s, 0, sizeof(*s));
}

void ruleset_init(struct ruleset *rs)
{
	memset(rs, 0, sizeof(*rs));
	rs->threshold = 10;
	rs->mctx = pcre2_match_context_create(NULL);
	rs->md = pcre2_match_data_create(16, NULL);
	if (!rs->mctx || !rs->md)
		die_oom();
	pcre2_set_match_limit(rs->mctx, MATCH_LIMIT);
	pcre2_set_depth_limit(rs->mctx, DEPTH_LIMIT);
	/* NULL when this PCRE2 has no JIT; matching then interprets. */
	rs->jit_stack = pcre2_jit_stack_create(JIT_STACK_START, JIT_STACK_MAX,
					       NULL);
	if (rs->jit_stack)
		pcre2_jit_stack_assign(rs->mctx, NULL, rs->jit_stack);
}

void ruleset_release(struct ruleset *rs)
{
	size_t i;

	for (i = 0; i < rs->nr_files; i++) {
		free(rs->files[i].path);
		free(rs->files[i].version);
	}
	free(rs->files);
	for (i = 0; i < rs->nr_subsystems; i++) {
		subsystem_release(rs->subsystems[i]);
		free(rs->subsystems[i]);
	}
	free(rs->subsystems);
	for (i = 0; i < rs->nr_rules; i++)
		rule_release(&rs->rules[i]);
	free(rs->rules);
	for (i = 0; i < rs->nr_links; i++)
		rule_release(&rs->links[i]);
	free(rs->links);
	for (i = 0; i < rs->nr_backports; i++)
		rule_release(&rs->backports[i]);
	free(rs->backports);
	free_string_array(rs->cc, rs->nr_cc);
	pcre2_code_free(rs->release_tags);
	free(rs->release_tags_pattern);
	pcre2_match_data_free(rs->md);
	pcre2_jit_stack_free(rs->jit_stack);
	pcre2_match_context_free(rs->mctx);
	memset(rs, 0, sizeof(*rs));
}

struct subsystem *ruleset_subsystem(const struct ruleset *rs, const char *name)
{
	size_t i;

	for (i = 0; i < rs->nr_subsystems; i++)
		if (!strcmp(rs->subsystems[i]->name, name))
			return rs->subsystems[i];
	return NULL;
}

int subsystem_cmp(const struct subsystem *a, const struct subsystem *b)
{
	int da = !a->file, db = !b->file;

	if (da != db)
		return da - db;
	if (!da)
		return a->order < b->order ? -1 : a->order > b->order;
	return strcmp(a->nr_paths ? a->paths[0] : a->name,
		      b->nr_paths ? b->paths[0] : b->name);
}

struct subsystem *ruleset_new_subsystem(struct ruleset *rs)
{
	struct subsystem *s = xcalloc(1, sizeof(*s));

	ALLOC_GROW(rs->subsystems, rs->nr_subsystems, rs->alloc_subsystems);
	s->order = rs->nr_subsystems;
	rs->subsystems[rs->nr_subsystems++] = s;
	return s;
}

int ruleset_threshold(const struct ruleset *rs, const struct subsystem *s)
{
	if (s && s->has_threshold)
		return s->threshold;
	return rs->threshold;
}

int rule_match(const struct ruleset *rs, const struct rule *r,
	       const char *text, size_t len, struct rule_match_result *res)
{
	PCRE2_SIZE *ov;
	int rc;

	if (!r->re)
		return 0;
	if (!text) {
		text = "";
		len = 0;
	}
	rc = pcre2_match(r->re, (PCRE2_SPTR)text, len, 0, 0, rs->md, rs->mctx);
	if (rc == PCRE2_ERROR_NOMATCH)
		return 0;
	if (rc < 0)
		return -1;
	if (res) {
		ov = pcre2_get_ovector_pointer(rs->md);
		res->start = ov[0];
		res->end = ov[1];
		/* \K can set the start after the end. */
		if (res->start > res->end)
			res->start = res->end;
	}
	return 1;
}

int rules_named_group(const pcre2_code *re, const char *name)
{
	int n = pcre2_substring_number_from_name(re, (PCRE2_SPTR)name);

	return n > 0 ? n : 0;
}

int rule_match_link(const struct ruleset *rs, const struct rule *r,
		    const char *text, size_t len, size_t start,
		    const char **id, size_t *id_len, const char **subject,
		    size_t *subject_len, size_t *end)
{
	PCRE2_SIZE *ov;
	int rc, g;

	if (!r->re || start > len)
		return 0;
	rc = pcre2_match(r->re, (PCRE2_SPTR)text, len, start, 0, rs->md, rs->mctx);
	if (rc == PCRE2_ERROR_NOMATCH)
		return 0;
	if (rc < 0)
		return -1;
	ov = pcre2_get_ovector_pointer(rs->md);
	/* An empty match moves on by one, or the caller would loop. */
	*end = ov[1] > start ? ov[1] : start + 1;
	if (!(g = rules_named_group(r->re, "id")))
		g = 1;
	if (g >= rc || ov[2 * g] == PCRE2_UNSET)
		return rule_match_link(rs, r, text, len, *end, id, id_len,
				       subject, subject_len, end);
	*id = text + ov[2 * g];
	*id_len = ov[2 * g + 1] - ov[2 * g];
	*subject = NULL;
	*subject_len = 0;
	g = rules_named_group(r->re, "subject");
	if (g && g < rc && ov[2 * g] != PCRE2_UNSET) {
		*subject = text + ov[2 * g];
		*subject_len = ov[2 * g + 1] - ov[2 * g];
	}
	return 1;
}

/* The number a named group of a tag holds: 0 when it took no part. */
static int tag_group(const struct ruleset *rs, const char *name,
		     const char *tag, int rc, int *out)
{
	PCRE2_SIZE *ov = pcre2_get_ovector_pointer(rs->md);
	int g = rules_named_group(rs->release_tags, name);
	long v = 0;
	size_t i;

	*out = 0;
	if (!g || g >= rc || ov[2 * g] == PCRE2_UNSET)
		return 0;
	for (i = ov[2 * g]; i < ov[2 * g + 1]; i++) {
		if (tag[i] < '0' || tag[i] > '9' || v > 100000)
			return -1;
		v = v * 10 + (tag[i] - '0');
	}
	*out = (int)v;
	return 1;
}

int ruleset_parse_tag(const struct ruleset *rs, const char *name,
		      int *major, int *minor, int *rc)
{
	int n, ret, stable;

	if (!rs || !rs->release_tags)
		return soak_parse_tag(name, major, minor, rc);
	n = pcre2_match(rs->release_tags, (PCRE2_SPTR)name, strlen(name), 0, 0,
			rs->md, rs->mctx);
	if (n < 0)
		return -1;
	if (tag_group(rs, "major", name, n, major) <= 0 ||
	    tag_group(rs, "minor", name, n, minor) < 0 ||
	    tag_group(rs, "rc", name, n, rc) < 0 ||
	    (ret = tag_group(rs, "stable", name, n, &stable)) < 0)
		return -1;
	/* "zfs-2.2.0" is the release, "zfs-2.2.4" a stable release. */
	if (ret && stable && !*rc)
		return 1;
	return 0;
}

void rules_add_string(char ***arr, size_t *nr, size_t *alloc, const char *s)
{
	ALLOC_GROW(*arr, *nr, *alloc);
	(*arr)[(*nr)++] = xstrdup(s);
}

/*
 * As ruleset_load_file(), only the generic part with generic_only (see
 * rules_parse_buffer()); -2 (after the message) if it cannot be read.
 */
static int load_file(struct ruleset *rs, const char *path, int generic_only)
{
	struct strbuf sb = STRBUF_INIT;
	int ret;

	if (strbuf_read_file(&sb, path) < 0) {
		error("cannot read rule file '%s': %s", path, strerror(errno));
		strbuf_release(&sb);
		return -2;
	}
	ret = rules_parse_buffer(rs, path, sb.buf, sb.len, generic_only);
	strbuf_release(&sb);
	return ret;
}

int ruleset_load_file(struct ruleset *rs, const char *path)
{
	return load_file(rs, path, 0) < 0 ? -1 : 0;
}

/*
 * A rule file other than default.rules: "NAME.rules", not hidden and not
 * an editor's lock or autosave file (".#x.rules", "#x.rules#").
 */
static int is_rule_file(const char *name)
{
	size_t len = strlen(name);

	if (name[0] == '.' || name[0] == '#' || !strcmp(name, "default.rules"))
		return 0;
	return len > 6 && !strcmp(name + len - 6, ".rules");
}

/*
 * A rule file of an overlay: its name, the directory it comes from, and
 * the number of that directory in the list.
 */
struct overlay_file {
	char *name;
	const char *dir;
	size_t dir_nr;
};

static int cmp_overlay(const void *a, const void *b)
{
	const struct overlay_file *x = a, *y = b;
	int dx = !strcmp(x->name, "default.rules");
	int dy = !strcmp(y->name, "default.rules");

	if (dx != dy)
		return dy - dx;
	return strcmp(x->name, y->name);
}

/*
 * Adds the rule files of dir, in place of those of the same name;
 * -1 (errno set) when dir cannot be read.
 */
static int list_dir_quiet(const char *dir, size_t dir_nr,
			  struct overlay_file **v, size_t *nr, size_t *alloc)
{
	struct dirent *de;
	size_t i;
	DIR *d = opendir(dir);

	if (!d)
		return -1;
	while ((de = readdir(d))) {
		if (strcmp(de->d_name, "default.rules") &&
		    !is_rule_file(de->d_name))
			continue;
		for (i = 0; i < *nr; i++)
			if (!strcmp((*v)[i].name, de->d_name))
				break;
		if (i == *nr) {
			ALLOC_GROW(*v, *nr, *alloc);
			(*v)[(*nr)++].name = xstrdup(de->d_name);
		}
		(*v)[i].dir = dir;
		(*v)[i].dir_nr = dir_nr;
	}
	closedir(d);
	return 0;
}

static int list_dir(const char *dir, size_t dir_nr, struct overlay_file **v,
		    size_t *nr, size_t *alloc)
{
	if (list_dir_quiet(dir, dir_nr, v, nr, alloc) < 0)
		return error("cannot read rule directory '%s': %s", dir,
			     strerror(errno));
	return 0;
}

/*
 * 1 if a line of text says `standalone`: a look at the words, before
 * the parser (which reports what is wrong with the line) reads it.
 */
static int says_standalone(const char *text)
{
	const char *p = text, *w;

	while (*p) {
		while (*p == ' ' || *p == '\t')
			p++;
		w = p;
		if (skip_prefix(w, "standalone", &w) &&
		    (!*w || *w == '\n' || *w == ' ' || *w == '\t' ||
		     *w == '\r'))
			return 1;
		p = strchr(p, '\n');
		if (!p)
			break;
		p++;
	}
	return 0;
}

/* 1 if a rule file of the list from directory dir_nr says standalone. */
static int dir_standalone(const struct overlay_file *v, size_t n,
			  size_t dir_nr)
{
	struct strbuf path = STRBUF_INIT, text = STRBUF_INIT;
	size_t i;
	int yes = 0;

	for (i = 0; !yes && i < n; i++) {
		if (v[i].dir_nr != dir_nr)
			continue;
		strbuf_reset(&path);
		strbuf_reset(&text);
		strbuf_addf(&path, "%s/%s", v[i].dir, v[i].name);
		/* What cannot be read here, the loader reports. */
		if (strbuf_read_file(&text, path.buf) < 0)
			continue;
		yes = says_standalone(text.buf);
	}
	strbuf_release(&path);
	strbuf_release(&text);
	return yes;
}

/*
 * The directory the loading starts from: the last that stands alone,
 * else the first.  The files of each directory are listed anew on
 * top of the list, so v holds each name once, from the last directory
 * that has it.
 */
static size_t base_dir(const char *const *dirs, size_t nr)
{
	struct overlay_file *v = NULL;
	size_t n = 0, alloc = 0, i, j, base = 0;

	for (i = 1; i < nr; i++) {
		for (j = 0; j < n; j++)
			free(v[j].name);
		n = 0;
		if (list_dir_quiet(dirs[i], i, &v, &n, &alloc) < 0)
			continue;
		if (dir_standalone(v, n, i))
			base = i;
	}
	for (j = 0; j < n; j++)
		free(v[j].name);
	free(v);
	return base;
}

int ruleset_load_dirs(struct ruleset *rs, const char *const *dirs, size_t nr)
{
	struct strbuf path = STRBUF_INIT;
	struct overlay_file *v = NULL;
	size_t n = 0, alloc = 0, i, base = base_dir(dirs, nr);
	int ret = 0;

	for (i = 0; i < nr; i++)
		if (list_dir(dirs[i], i, &v, &n, &alloc) < 0)
			ret = -1;
	if (ret)
		goto out;
	/*
	 * Below a standalone directory only default.rules stays, for its
	 * generic part.
	 */
	for (i = 0; base && i < n; i++) {
		if (v[i].dir_nr >= base || !strcmp(v[i].name, "default.rules"))
			continue;
		free(v[i].name);
		v[i--] = v[--n];
	}
	QSORT(v, n, cmp_overlay);
	if (!n || strcmp(v[0].name, "default.rules")) {
		ret = error("cannot read rule file '%s/default.rules': %s",
			    nr ? dirs[0] : ".", strerror(ENOENT));
		goto out;
	}
	for (i = 0; i < n; i++) {
		size_t len = strlen(v[i].dir);

		while (len > 1 && v[i].dir[len - 1] == '/')
			len--;
		strbuf_reset(&path);
		strbuf_add(&path, v[i].dir, len);
		strbuf_addf(&path, "/%s", v[i].name);
		if (load_file(rs, path.buf, v[i].dir_nr < base) < 0)
			ret = -1;
	}
out:
	for (i = 0; i < n; i++)
		free(v[i].name);
	free(v);
	strbuf_release(&path);
	return ret < 0 ? -1 : 0;
}

void ruleset_digest_dirs(const char *const *dirs, size_t nr,
			 struct sha1 *ctx)
{
	struct strbuf path = STRBUF_INIT, text = STRBUF_INIT;
	struct overlay_file *v = NULL;
	size_t n = 0, alloc = 0, i;
	char buf[32];

	for (i = 0; i < nr; i++) {
		sha1_update(ctx, dirs[i], strlen(dirs[i]) + 1);
		/* A directory that cannot be read fails the run anyway. */
		if (list_dir_quiet(dirs[i], i, &v, &n, &alloc) < 0)
			sha1_update(ctx, "?", 2);
	}
	QSORT(v, n, cmp_overlay);
	for (i = 0; i < n; i++) {
		strbuf_reset(&path);
		strbuf_addf(&path, "%s/%s", v[i].dir, v[i].name);
		strbuf_reset(&text);
		sha1_update(ctx, path.buf, path.len + 1);
		if (strbuf_read_file(&text, path.buf) < 0)
			snprintf(buf, sizeof(buf), "unread %d", errno);
		else
			snprintf(buf, sizeof(buf), "%zu", text.len);
		sha1_update(ctx, buf, strlen(buf) + 1);
		sha1_update(ctx, text.buf, text.len);
		free(v[i].name);
	}
	free(v);
	strbuf_release(&path);
	strbuf_release(&text);
}

int ruleset_load_dir(struct ruleset *rs, const char *dir)
{
	return ruleset_load_dirs(rs, &dir, 1);
}

static void copy_rule(struct rule *dst, const struct rule *src)
{
	size_t i;

	*dst = *src;
	dst->name = xstrdup(src->name);
	dst->trailer = src->trailer ? xstrdup(src->trailer) : NULL;
	dst->pattern = xstrdup(src->pattern);
	dst->flags = xstrdup(src->flags);
	dst->unless = NULL;
	if (src->nr_unless) {
		dst->unless = xcalloc(src->nr_unless, sizeof(*dst->unless));
		for (i = 0; i < src->nr_unless; i++)
			dst->unless[i] = xstrdup(src->unless[i]);
	}
	dst->re = NULL;
	if (src->re) {
		/* Compiled with the default tables, so they need no copy. */
		dst->re = pcre2_code_copy(src->re);
		if (!dst->re)
			die_oom();
		pcre2_jit_compile(dst->re, PCRE2_JIT_COMPLETE);
	}
}

struct subsystem *ruleset_add_derived(struct ruleset *rs,
				      const struct subsystem *tmpl,
				      const char *name, const char *path)
{
	struct subsystem *s = ruleset_subsystem(rs, name);
	size_t i;

	if (s) {
		for (i = 0; i < s->nr_paths; i++)
			if (!strcmp(s->paths[i], path))
				return s;
		if (!s->nr_paths || !s->file)
			rules_add_string(&s->paths, &s->nr_paths,
					 &s->alloc_paths, path);
		return s;
	}
	s = ruleset_new_subsystem(rs);
	s->name = xstrdup(name);
	rules_add_string(&s->paths, &s->nr_paths, &s->alloc_paths, path);
	s->policy = tmpl->policy;
	s->has_policy = tmpl->has_policy;
	for (i = 0; i < tmpl->nr_lists; i++)
		rules_add_string(&s->lists, &s->nr_lists, &s->alloc_lists,
				 tmpl->lists[i]);
	for (i = 0; i < tmpl->nr_maintainers; i++)
		rules_add_string(&s->maintainers, &s->nr_maintainers,
				 &s->alloc_maintainers, tmpl->maintainers[i]);
	s->threshold = tmpl->threshold;
	s->has_threshold = tmpl->has_threshold;
	s->soak_release = tmpl->soak_release;
	s->soak_days = tmpl->soak_days;
	if (tmpl->nr_rules) {
		s->alloc_rules = tmpl->nr_rules;
		s->rules = xcalloc(s->alloc_rules, sizeof(*s->rules));
		for (i = 0; i < tmpl->nr_rules; i++)
			copy_rule(&s->rules[i], &tmpl->rules[i]);
		s->nr_rules = tmpl->nr_rules;
	}
	return s;
}

static int spec_watches(const char *spec, int is_template, const char *path)
{
	const char *slash = strrchr(spec, '/'), *rest;
	size_t dir;

	if (!slash)
		return 0;
	if (is_template) {
		/* A template's DIR + "*" + "/": a file in a directory of DIR. */
		dir = strlen(spec) - 2;
		if (strncmp(path, spec, dir))
			return 0;
		rest = strchr(path + dir, '/');
		return rest && rest > path + dir;
	}
	dir = (size_t)(slash - spec) + 1;
	if (strncmp(path, spec, dir))
		return 0;
	if (!slash[1])
		return 1;
	rest = path + dir;
	return !strchr(rest, '/') && !fnmatch(slash + 1, rest, 0);
}

int subsystem_watches(const struct subsystem *sub, const char *path)
{
	size_t i;

	for (i = 0; i < sub->nr_paths; i++)
		if (spec_watches(sub->paths[i], sub->is_template, path))
			return 1;
	return 0;
}

int ruleset_watches(const struct ruleset *rs, const char *path)
{
	size_t i;

	for (i = 0; i < rs->nr_subsystems; i++)
		if (subsystem_watches(rs->subsystems[i], path))
			return 1;
	return 0;
}

int ruleset_watches_in(const struct ruleset *rs, const char *dir, size_t len)
{
	const struct subsystem *sub;
	size_t i, j;

	for (i = 0; i < rs->nr_subsystems; i++) {
		sub = rs->subsystems[i];
		for (j = 0; j < sub->nr_paths; j++)
			if (!strncmp(sub->paths[j], dir, len))
				return 1;
	}
	return 0;
}
