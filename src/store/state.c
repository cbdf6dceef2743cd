#include "store/state.h"
#include "base/lockfile.h"
#include "base/error.h"
#include "base/strbuf.h"
#include "base/util.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#define HEADER_V1 "# stablepick state 1\n"
#define HEADER "# stablepick state 2\n"

static const char *const was_names[STATE__COUNT] = {
	[STATE_NONE] = "-",
	[STATE_WAITING] = "waiting",
	[STATE_HELD] = "held",
	[STATE_NEEDS_ACK] = "needs-ack",
	[STATE_DEFERRED] = "deferred",
	[STATE_REJECTED] = "rejected",
	[STATE_ACCEPTED] = "accepted",
	[STATE_DOES_NOT_APPLY] = "does-not-apply",
	[STATE_NOT_APPLICABLE] = "not-applicable",
	[STATE_BRANCH_REVERTED] = "reverted-in-branch",
	[STATE_PAGED] = "paged",
};

const char *state_was_name(enum state_was w)
{
	return w < STATE__COUNT ? was_names[w] : "?";
}

static int parse_was(const char *s, size_t len, enum state_was *out)
{
	size_t i;

	for (i = 0; i < STATE__COUNT; i++)
		if (strlen(was_names[i]) == len && !strncmp(s, was_names[i], len)) {
			*out = (enum state_was)i;
			return 0;
		}
	return -1;
}

void state_init(struct state *st)
{
	memset(st, 0, sizeof(*st));
}

void state_release(struct state *st)
{
	struct state_seen *s, *tmp;

	HASH_ITER(hh, st->seen, s, tmp) {
		HASH_DEL(st->seen, s);
		free(s);
	}
	state_init(st);
}

const struct state_seen *state_find(const struct state *st, const git_oid *commit)
{
	struct state_seen *s;

	HASH_FIND(hh, st->seen, commit, sizeof(*commit), s);
	return s;
}

void state_remember(struct state *st, const git_oid *commit,
		    enum state_was then, enum state_was now)
{
	struct state_seen *s;

	HASH_FIND(hh, st->seen, commit, sizeof(*commit), s);
	if (!s && then == STATE_NONE && now == STATE_NONE)
		return;
	if (!s) {
		s = xcalloc(1, sizeof(*s));
		git_oid_cpy(&s->commit, commit);
		HASH_ADD(hh, st->seen, commit, sizeof(s->commit), s);
	}
	if (then == STATE_NONE && now == STATE_NONE) {
		HASH_DEL(st->seen, s);
		free(s);
		return;
	}
	s->then = then;
	s->now = now;
}

/*
 * Reads the state file into sb; a missing file reads as empty.  *version
 * gets the version of its header (0 for an empty file).
 */
static int read_state(const char *path, struct strbuf *sb, int *version)
{
	*version = 0;
	if (strbuf_read_file(sb, path) < 0) {
		if (errno == ENOENT)
			return 0;
		return error("cannot read state '%s': %s", path, strerror(errno));
	}
	if (!sb->len)
		return 0;
	if (starts_with(sb->buf, HEADER))
		*version = 2;
	else if (starts_with(sb->buf, HEADER_V1))
		*version = 1;
	else
		return error("%s:1: not a stablepick state file (or a newer "
			     "version's)", path);
	return 0;
}

/* The length of the line at p, and where the next one starts (or NULL). */
static size_t line_at(const char *p, const char **next)
{
	const char *nl = strchr(p, '\n');

	*next = nl ? nl + 1 : NULL;
	return nl ? (size_t)(nl - p) : strlen(p);
}

/* Whether the line at p, of length len, is one of branch's. */
static int of_branch(const char *p, size_t len, const char *branch)
{
	size_t blen = strlen(branch);

	return len > blen && !strncmp(p, branch, blen) && p[blen] == '\t';
}

/* Splits the line after the branch into at most 4 tab-separated fields. */
static size_t split_fields(const char *p, size_t len, const char **f,
			   size_t *flen)
{
	size_t n = 0;

	while (n < 4) {
		const char *tab = memchr(p, '\t', len);
		size_t l = tab ? (size_t)(tab - p) : len;

		f[n] = p;
		flen[n++] = l;
		if (!tab)
			return n;
		len -= l + 1;
		p = tab + 1;
	}
	return n + 1;		/* too many */
}

static int parse_oid(git_oid *out, const char *s, size_t len)
{
	return len == GIT_OID_HEXSZ ? git_oid_fromstrn(out, s, len) : -1;
}

/* A time of a run: decimal seconds, or "-" for none (0). */
static int parse_time(git_time_t *out, const char *s, size_t len)
{
	git_time_t t = 0;
	size_t i;

	*out = 0;
	if (len == 1 && *s == '-')
		return 0;
	if (!len || len > 18)
		return -1;
	for (i = 0; i < len; i++) {
		if (s[i] < '0' || s[i] > '9')
			return -1;
		t = t * 10 + (s[i] - '0');
	}
	*out = t;
	return t ? 0 : -1;
}

static void add_time(struct strbuf *out, git_time_t t)
{
	if (t > 0)
		strbuf_addf(out, "\t%lld", (long long)t);
	else
		strbuf_addstr(out, "\t-");
}

/* One line of branch (without the branch and its tab) into st. */
static int parse_line(struct state *st, int *has_run, int version,
		      const char *p, size_t len)
{
	const char *f[4];
	size_t flen[4];
	size_t n = split_fields(p, len, f, flen);
	enum state_was then, now;
	git_oid id;

	if (n == 2 || (n == 4 && version >= 2)) {
		if (*has_run || parse_oid(&st->tip, f[1], flen[1]) < 0)
			return -1;
		if (n == 4 && (parse_time(&st->then_run, f[2], flen[2]) < 0 ||
			       parse_time(&st->now_run, f[3], flen[3]) < 0))
			return -1;
		*has_run = 1;
		if (flen[0] == 1 && *f[0] == '-')
			return 0;
		st->has_from = 1;
		return parse_oid(&st->from, f[0], flen[0]);
	}
	if (n != 3 || version < 2 || parse_oid(&id, f[0], flen[0]) < 0 ||
	    parse_was(f[1], flen[1], &then) < 0 ||
	    parse_was(f[2], flen[2], &now) < 0 || state_find(st, &id))
		return -1;
	state_remember(st, &id, then, now);
	return 0;
}

int state_get(const char *path, const char *branch, struct state *st)
{
	struct strbuf sb = STRBUF_INIT;
	const char *p, *next;
	unsigned lineno = 1;
	int version, has_run = 0, ret;

	state_init(st);
	ret = read_state(path, &sb, &version);
	for (p = version ? strchr(sb.buf, '\n') + 1 : NULL; !ret && p && *p;
	     p = next) {
		size_t len = line_at(p, &next);

		lineno++;
		if (!of_branch(p, len, branch))
			continue;
		if (parse_line(st, &has_run, version, p + strlen(branch) + 1,
			       len - strlen(branch) - 1) < 0)
			ret = error("%s:%u: bad line for branch '%s'", path,
				    lineno, branch);
	}
	if (!ret && st->seen && !has_run)
		ret = error("%s: commits remembered for branch '%s' but no "
			    "run", path, branch);
	strbuf_release(&sb);
	if (ret < 0) {
		state_release(st);
		return -1;
	}
	return has_run;
}

static int cmp_seen(const void *a, const void *b)
{
	const struct state_seen *x = *(const struct state_seen *const *)a;
	const struct state_seen *y = *(const struct state_seen *const *)b;

	return git_oid_cmp(&x->commit, &y->commit);
}

/* The lines of branch's state, the commits in id order. */
static void add_branch_lines(struct strbuf *out, const char *branch,
			     const struct state *st)
{
	char hex[GIT_OID_HEXSZ + 1], from[GIT_OID_HEXSZ + 1] = "-";
	const struct state_seen **seen, *s, *tmp;
	size_t nr = 0, i;

	git_oid_tostr(hex, sizeof(hex), &st->tip);
	if (st->has_from)
		git_oid_tostr(from, sizeof(from), &st->from);
	strbuf_addf(out, "%s\t%s\t%s", branch, from, hex);
	add_time(out, st->then_run);
	add_time(out, st->now_run);
	strbuf_addch(out, '\n');
	seen = xcalloc(HASH_COUNT(st->seen) + 1, sizeof(*seen));
	HASH_ITER(hh, st->seen, s, tmp)
		seen[nr++] = s;
	QSORT(seen, nr, cmp_seen);
	for (i = 0; i < nr; i++) {
		git_oid_tostr(hex, sizeof(hex), &seen[i]->commit);
		strbuf_addf(out, "%s\t%s\t%s\t%s\n", branch, hex,
			    state_was_name(seen[i]->then),
			    state_was_name(seen[i]->now));
	}
	free(seen);
}

int state_set(const char *path, const char *branch, const struct state *st)
{
	struct strbuf sb = STRBUF_INIT, out = STRBUF_INIT;
	const char *p, *next;
	struct lockfile lk;
	int ret, version, done = 0;

	/* Read under the lock: another run may be setting another branch. */
	if (lockfile_take(&lk, path, "state") < 0)
		return -1;
	if ((ret = read_state(path, &sb, &version)) < 0) {
		lockfile_rollback(&lk);
		goto out;
	}
	/* The other branches' lines as they were (a version 1 line is one of 2). */
	strbuf_addstr(&out, HEADER);
	for (p = version ? strchr(sb.buf, '\n') + 1 : NULL; p && *p; p = next) {
		size_t len = line_at(p, &next);

		if (!of_branch(p, len, branch)) {
			strbuf_add(&out, p, len);
			strbuf_addch(&out, '\n');
		} else if (!done++) {
			add_branch_lines(&out, branch, st);
		}
	}
	if (!done)
		add_branch_lines(&out, branch, st);
	ret = lockfile_commit(&lk, out.buf, out.len);
out:
	strbuf_release(&out);
	strbuf_release(&sb);
	return ret < 0 ? -1 : 0;
}
