#include "formats/cve.h"
#include "base/error.h"
#include "base/strbuf.h"
#include "base/util.h"

#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <uthash.h>

struct cve_by_fix {
	git_oid id;
	const struct cve **items;
	size_t nr, alloc;
	UT_hash_handle hh;
};

void cve_set_init(struct cve_set *s)
{
	memset(s, 0, sizeof(*s));
}

static void free_index(struct cve_set *s)
{
	struct cve_by_fix *f, *tmp;

	HASH_ITER(hh, s->by_fix, f, tmp) {
		HASH_DEL(s->by_fix, f);
		free(f->items);
		free(f);
	}
}

void cve_set_release(struct cve_set *s)
{
	size_t i, j;

	free_index(s);
	for (i = 0; i < s->nr; i++) {
		struct cve *c = &s->items[i];

		for (j = 0; j < c->nr_pairs; j++) {
			free(c->pairs[j].vulnerable_version);
			free(c->pairs[j].fixed_version);
		}
		free(c->pairs);
		free(c->fixes);
		free(c->id);
		free(c->path);
	}
	free(s->items);
	cve_set_init(s);
}

/* The next line of buf (without its newline); 0 at the end. */
static int next_line(const char **p, const char *end, const char **line,
		     size_t *len)
{
	const char *nl;

	if (*p >= end)
		return 0;
	nl = memchr(*p, '\n', (size_t)(end - *p));
	*line = *p;
	*len = nl ? (size_t)(nl - *p) : (size_t)(end - *p);
	*p = nl ? nl + 1 : end;
	while (*len && ((*line)[*len - 1] == '\r' || (*line)[*len - 1] == ' ' ||
			(*line)[*len - 1] == '\t'))
		(*len)--;
	return 1;
}

static int parse_id(const char *s, size_t len, git_oid *out)
{
	return len == GIT_OID_HEXSZ && is_hex(s, len) &&
	       !git_oid_fromstrn(out, s, len);
}

static int read_sha1(struct cve *c, const char *path, const char *buf,
		     size_t len)
{
	const char *p = buf, *end = buf + len, *line;
	size_t n, alloc = 0;
	unsigned lineno = 0;
	int ret = 0;
	git_oid id;

	while (next_line(&p, end, &line, &n)) {
		lineno++;
		if (!n)
			continue;
		if (!parse_id(line, n, &id)) {
			ret = error("%s:%u: not a full commit id: '%.*s'", path,
				    lineno, (int)(n > 60 ? 60 : n), line);
			continue;
		}
		ALLOC_GROW(c->fixes, c->nr_fixes, alloc);
		git_oid_cpy(&c->fixes[c->nr_fixes++], &id);
	}
	if (!ret && !c->nr_fixes)
		ret = error("%s: names no commit", path);
	return ret;
}

/* "VERSION:ID" of a dyad line: 0 or -1 with *why set. */
static int parse_side(const char *s, size_t len, char **version, git_oid *id,
		      int *has, const char **why)
{
	const char *colon = memchr(s, ':', len);
	size_t vlen;

	if (!colon) {
		*why = "expected VERSION:ID:VERSION:ID";
		return -1;
	}
	vlen = (size_t)(colon - s);
	if (!vlen) {
		*why = "an empty version";
		return -1;
	}
	s = colon + 1;
	len -= vlen + 1;
	if (len == 1 && *s == '0') {
		*has = 0;
	} else if (parse_id(s, len, id)) {
		*has = 1;
	} else {
		*why = "an id that is neither 0 nor a full commit id";
		return -1;
	}
	*version = xstrndup(colon - vlen, vlen);
	return 0;
}

static int read_dyad(struct cve *c, const char *path, const char *buf,
		     size_t len)
{
	const char *p = buf, *end = buf + len, *line;
	size_t n, alloc = 0;
	unsigned lineno = 0;
	int ret = 0;

	while (next_line(&p, end, &line, &n)) {
		struct cve_pair pair = { 0 };
		const char *mid, *why = NULL;
		size_t first;

		lineno++;
		if (!n || *line == '#')
			continue;
		/* The second colon ends the vulnerable side. */
		mid = memchr(line, ':', n);
		mid = mid ? memchr(mid + 1, ':', n - (size_t)(mid + 1 - line)) : NULL;
		if (!mid) {
			why = "expected VERSION:ID:VERSION:ID";
		} else {
			first = (size_t)(mid - line);
			if (!parse_side(line, first, &pair.vulnerable_version,
					&pair.vulnerable, &pair.has_vulnerable,
					&why) &&
			    parse_side(mid + 1, n - first - 1, &pair.fixed_version,
				       &pair.fixed, &pair.has_fixed, &why) < 0) {
				free(pair.vulnerable_version);
				pair.vulnerable_version = NULL;
			}
		}
		if (why) {
			ret = error("%s:%u: %s: '%.*s'", path, lineno, why,
				    (int)(n > 100 ? 100 : n), line);
			continue;
		}
		ALLOC_GROW(c->pairs, c->nr_pairs, alloc);
		c->pairs[c->nr_pairs++] = pair;
	}
	return ret;
}

int cve_set_add(struct cve_set *s, const char *name, const char *sha1_path,
		const char *sha1, size_t sha1_len, const char *dyad_path,
		const char *dyad, size_t dyad_len)
{
	struct cve c = { 0 };
	int ret;

	c.id = xstrdup(name);
	c.path = xstrdup(sha1_path);
	ret = read_sha1(&c, sha1_path, sha1, sha1_len);
	if (dyad && read_dyad(&c, dyad_path, dyad, dyad_len) < 0)
		ret = -1;
	ALLOC_GROW(s->items, s->nr, s->alloc);
	s->items[s->nr++] = c;
	return ret;
}

/* "CVE-2021-46906": year and number; 0 when not of that form. */
static int cve_name(const char *name, size_t len, unsigned long *year,
		    unsigned long *number)
{
	char *end;

	if (len < 10 || !starts_with(name, "CVE-"))
		return 0;
	errno = 0;
	*year = strtoul(name + 4, &end, 10);
	if (errno || end != name + 8 || *end != '-')
		return 0;
	*number = strtoul(end + 1, &end, 10);
	return !errno && end == name + len && end > name + 9;
}

static int cmp_cve(const void *a, const void *b)
{
	const struct cve *x = a, *y = b;
	unsigned long xy = 0, xn = 0, yy = 0, yn = 0;

	cve_name(x->id, strlen(x->id), &xy, &xn);
	cve_name(y->id, strlen(y->id), &yy, &yn);
	if (xy != yy)
		return xy < yy ? -1 : 1;
	if (xn != yn)
		return xn < yn ? -1 : 1;
	return strcmp(x->id, y->id);
}

void cve_set_finish(struct cve_set *s)
{
	size_t i, j;

	free_index(s);
	QSORT(s->items, s->nr, cmp_cve);
	for (i = 0; i < s->nr; i++) {
		const struct cve *c = &s->items[i];

		for (j = 0; j < c->nr_fixes; j++) {
			struct cve_by_fix *f;

			HASH_FIND(hh, s->by_fix, &c->fixes[j], sizeof(git_oid), f);
			if (!f) {
				f = xcalloc(1, sizeof(*f));
				git_oid_cpy(&f->id, &c->fixes[j]);
				HASH_ADD(hh, s->by_fix, id, sizeof(git_oid), f);
			}
			if (f->nr && f->items[f->nr - 1] == c)
				continue;
			ALLOC_GROW(f->items, f->nr, f->alloc);
			f->items[f->nr++] = c;
		}
	}
}

size_t cve_set_fixed_by(const struct cve_set *s, const git_oid *id,
			const struct cve *const **out)
{
	struct cve_by_fix *f;

	HASH_FIND(hh, s->by_fix, id, sizeof(git_oid), f);
	*out = f ? f->items : NULL;
	return f ? f->nr : 0;
}

/*
 * A record's file names a few commits: one of a megabyte is no record.
 * What a checkout holds is read as regular files alone (a .sha1 that
 * is a symbolic link to /dev/zero, or a FIFO, is skipped and named).
 */
#define CVE_FILE_MAX ((size_t)1 << 20)

/* The records of one year's directory. */
static int load_year(struct cve_set *s, const char *dir)
{
	struct strbuf path = STRBUF_INIT, sha1 = STRBUF_INIT, dyad = STRBUF_INIT;
	struct strbuf why = STRBUF_INIT;
	struct dirent *de;
	char **names = NULL;
	size_t nr = 0, alloc = 0, i;
	int ret = 0, r;
	DIR *d = opendir(dir);

	if (!d)
		return error("cannot read CVE directory '%s': %s", dir,
			     strerror(errno));
	while ((de = readdir(d))) {
		size_t len = strlen(de->d_name);
		unsigned long y, n;

		if (len < 6 || strcmp(de->d_name + len - 5, ".sha1") ||
		    !cve_name(de->d_name, len - 5, &y, &n))
			continue;
		ALLOC_GROW(names, nr, alloc);
		names[nr++] = xstrndup(de->d_name, len - 5);
	}
	closedir(d);
	QSORT(names, nr, cmp_str);
	for (i = 0; i < nr; i++) {
		char *dyad_path;
		int has_dyad;

		strbuf_reset(&path);
		strbuf_addf(&path, "%s/%s.sha1", dir, names[i]);
		strbuf_reset(&sha1);
		strbuf_reset(&why);
		r = strbuf_read_regular(&sha1, path.buf, CVE_FILE_MAX, &why);
		if (r <= 0) {
			if (r < 0)
				ret = error("cannot read '%s': %s", path.buf,
					    strerror(errno));
			else
				warning("skipping '%s': %s", path.buf, why.buf);
			continue;
		}
		dyad_path = xstrfmt("%s/%s.dyad", dir, names[i]);
		strbuf_reset(&dyad);
		strbuf_reset(&why);
		r = strbuf_read_regular(&dyad, dyad_path, CVE_FILE_MAX, &why);
		has_dyad = r > 0;
		if (r < 0 && errno != ENOENT)
			ret = error("cannot read '%s': %s", dyad_path,
				    strerror(errno));
		else if (!r)
			warning("skipping '%s': %s; the record is read without "
				"it", dyad_path, why.buf);
		if (cve_set_add(s, names[i], path.buf, sha1.buf, sha1.len,
				dyad_path, has_dyad ? dyad.buf : NULL,
				dyad.len) < 0)
			ret = -1;
		free(dyad_path);
	}
	free_string_array(names, nr);
	strbuf_release(&path);
	strbuf_release(&sha1);
	strbuf_release(&dyad);
	strbuf_release(&why);
	return ret;
}

int cve_set_load(struct cve_set *s, const char *dir)
{
	char *published = xstrfmt("%s/cve/published", dir);
	struct dirent *de;
	char **years = NULL;
	size_t nr = 0, alloc = 0, i;
	int ret = 0;
	DIR *d = opendir(published);

	if (!d) {
		ret = error("cannot read '%s': %s (--cve wants a checkout of "
			    "the kernel's vulns repository)", published,
			    strerror(errno));
		free(published);
		return ret;
	}
	while ((de = readdir(d))) {
		if (strlen(de->d_name) != 4 || !strspn(de->d_name, "0123456789") ||
		    strspn(de->d_name, "0123456789") != 4)
			continue;
		ALLOC_GROW(years, nr, alloc);
		years[nr++] = xstrfmt("%s/%s", published, de->d_name);
	}
	closedir(d);
	QSORT(years, nr, cmp_str);
	for (i = 0; i < nr; i++)
		if (load_year(s, years[i]) < 0)
			ret = -1;
	free_string_array(years, nr);
	free(published);
	cve_set_finish(s);
	return ret;
}
