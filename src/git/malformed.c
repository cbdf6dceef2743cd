#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <uthash.h>

#include "base/error.h"
#include "git/malformed.h"
#include "base/strbuf.h"
#include "base/util.h"

void malformed_release(struct malformed_commit *m)
{
	free(m->parents);
	free(m->message);
	free(m->summary);
	free(m->reason);
	memset(m, 0, sizeof(*m));
}

/* The oid of "<prefix><40 hex>\n" at line, or -1. */
static int oid_line(git_oid *out, const char *line, const char *end,
		    const char *prefix)
{
	size_t n = strlen(prefix);

	if ((size_t)(end - line) < n + GIT_OID_HEXSZ + 1 ||
	    memcmp(line, prefix, n) || line[n + GIT_OID_HEXSZ] != '\n' ||
	    !is_hex(line + n, GIT_OID_HEXSZ))
		return -1;
	return git_oid_fromstrn(out, line + n, GIT_OID_HEXSZ);
}

/*
 * The committer date as git's parse_commit_date() reads it, from the
 * line after the parents (line) to the end of the object: 0 unless an
 * author line and a committer line come first, else the number after
 * the first '>' that follows (an overflow is the latest date).
 */
static int64_t git_date(const char *line, const char *end)
{
	const char *p = line, *date;
	int64_t n = 0;

	if (end - p <= 6 || memcmp(p, "author", 6))
		return 0;
	while (p < end && *p++ != '\n')
		;
	if (end - p <= 9 || memcmp(p, "committer", 9))
		return 0;
	while (p < end && *p++ != '>')
		;
	if (p >= end)
		return 0;
	date = p;
	while (p < end && *p++ != '\n')
		;
	if (p >= end)
		return 0;
	for (p = date; *p == ' ' || *p == '\t'; p++)
		;
	for (; *p >= '0' && *p <= '9'; p++) {
		if (n > (INT64_MAX - 9) / 10)
			return INT64_MAX;
		n = n * 10 + (*p - '0');
	}
	return n;
}

int malformed_parse(struct malformed_commit *m, const char *buf, size_t len)
{
	const char *end = buf + len, *line = buf;
	unsigned int alloc = 0;
	git_oid id;

	memset(m, 0, sizeof(*m));
	if (oid_line(&m->tree, line, end, "tree ") < 0)
		return -1;
	line += 5 + GIT_OID_HEXSZ + 1;
	while ((size_t)(end - line) > 7 && !memcmp(line, "parent ", 7)) {
		if (oid_line(&id, line, end, "parent ") < 0) {
			malformed_release(m);
			return -1;
		}
		ALLOC_GROW(m->parents, m->nr_parents, alloc);
		git_oid_cpy(&m->parents[m->nr_parents++], &id);
		line += 7 + GIT_OID_HEXSZ + 1;
	}
	/* git's date: walks then order the commit as git log does. */
	m->date = git_date(line, end);
	return 0;
}

/*
 * The message of a raw commit: what follows the header's empty line,
 * without the empty lines before it, as git_commit_message() gives it.
 */
static char *raw_message(const char *buf, size_t len)
{
	const char *end = buf + len, *p = buf;

	while (p < end) {
		const char *eol = memchr(p, '\n', (size_t)(end - p));

		if (!eol)
			break;
		if (eol == p) {
			while (p < end && *p == '\n')
				p++;
			return xstrndup(p, (size_t)(end - p));
		}
		p = eol + 1;
	}
	return xstrdup("");
}

static int is_space_nonlf(char c)
{
	return c == ' ' || c == '\t' || c == '\v' || c == '\f' || c == '\r';
}

/*
 * The first paragraph of msg, its lines joined by a space, as
 * git_commit_summary() makes it.
 */
static char *summary_of(const char *msg)
{
	struct strbuf sb = STRBUF_INIT;
	const char *space = NULL, *next;
	int newline = 0;

	for (; *msg; msg++) {
		if (*msg == '\n') {
			if (!msg[1] || msg[1] == '\n')
				break;
			for (next = msg + 1; is_space_nonlf(*next); next++)
				;
			if (!*next || *next == '\n')
				break;
		}
		if (*msg == '\n' || is_space_nonlf(*msg)) {
			if (!space) {
				space = msg;
				newline = 0;
			}
			newline |= *msg == '\n';
			continue;
		}
		if (space) {
			if (newline)
				strbuf_addch(&sb, ' ');
			else
				strbuf_add(&sb, space, (size_t)(msg - space));
			space = NULL;
		}
		strbuf_addch(&sb, *msg);
	}
	return strbuf_detach(&sb, NULL);
}

int malformed_suspect(void)
{
	const git_error *e = git_error_last();

	/*
	 * A missing object is GIT_ERROR_ODB, a damaged one GIT_ERROR_ZLIB
	 * or GIT_ERROR_ODB; what libgit2 read and then refused is
	 * GIT_ERROR_INVALID (a signature) or GIT_ERROR_OBJECT.
	 */
	return e && (e->klass == GIT_ERROR_INVALID ||
		     e->klass == GIT_ERROR_OBJECT);
}

/* libgit2's last error, kept while other calls replace it. */
struct kept_error {
	int klass;
	char *message;
};

static void keep_error(struct kept_error *k)
{
	const git_error *e = git_error_last();

	k->klass = e ? e->klass : GIT_ERROR_NONE;
	k->message = xstrdup(e && e->message ? e->message : "");
}

/* Makes the kept error libgit2's last again (restore), or clears it. */
static void put_error(struct kept_error *k, int restore)
{
	if (restore)
		git_error_set_str(k->klass, k->message);
	else
		git_error_clear();
	free(k->message);
	k->message = NULL;
}

/* The one object that 4 to 40 hex digits name: 0, or -1. */
static int hex_name(git_oid *out, git_odb *odb, const char *name)
{
	size_t len = strlen(name);
	git_oid prefix;

	if (len < GIT_OID_MINPREFIXLEN || len > GIT_OID_HEXSZ ||
	    !is_hex(name, len) || git_oid_fromstrn(&prefix, name, len) < 0 ||
	    git_odb_exists_prefix(out, odb, &prefix, len) < 0)
		return -1;
	return 0;
}

int malformed_check(struct malformed_commit *m, git_repository *repo,
		    const git_oid *id)
{
	struct malformed_commit got;
	struct kept_error k;
	git_odb_object *obj = NULL;
	git_odb *odb = NULL;
	int ret = 0;

	if (!malformed_suspect())
		return 0;
	keep_error(&k);
	if (!git_repository_odb(&odb, repo) &&
	    !git_odb_read(&obj, odb, id) &&
	    git_odb_object_type(obj) == GIT_OBJECT_COMMIT &&
	    !malformed_parse(&got, git_odb_object_data(obj),
			     git_odb_object_size(obj))) {
		ret = 1;
		if (m) {
			*m = got;
			m->message = raw_message(git_odb_object_data(obj),
						 git_odb_object_size(obj));
			m->summary = summary_of(m->message);
			m->reason = xstrdup(k.message);
		} else {
			malformed_release(&got);
		}
	}
	git_odb_object_free(obj);
	git_odb_free(odb);
	put_error(&k, !ret);
	return ret;
}

void malformed_name_error(const git_oid *id)
{
	const git_error *e = git_error_last();
	char *msg;

	if (!malformed_suspect())
		return;
	msg = xstrfmt("commit %s: %s", git_oid_tostr_s(id),
		      e->message ? e->message : "");
	git_error_set_str(e->klass, msg);
	free(msg);
}

int malformed_check_name(struct malformed_commit *m, git_oid *id,
			 git_repository *repo, const char *name)
{
	git_commit *commit = NULL;
	git_odb *odb = NULL;
	struct kept_error k;
	int ret = 0;

	if (!malformed_suspect())
		return 0;
	keep_error(&k);
	/* The lookup again, for malformed_check() to judge its error. */
	if (!git_repository_odb(&odb, repo) && !hex_name(id, odb, name) &&
	    git_commit_lookup(&commit, repo, id) < 0)
		ret = malformed_check(m, repo, id);
	git_commit_free(commit);
	git_odb_free(odb);
	if (ret)
		free(k.message);
	else
		put_error(&k, 1);
	return ret;
}

int malformed_tree_id(git_oid *out, git_repository *repo, const git_oid *id)
{
	struct malformed_commit m;
	git_commit *commit = NULL;
	int ret;

	if (!(ret = git_commit_lookup(&commit, repo, id))) {
		git_oid_cpy(out, git_commit_tree_id(commit));
		git_commit_free(commit);
		return 0;
	}
	if (!malformed_check(&m, repo, id))
		return ret;
	git_oid_cpy(out, &m.tree);
	malformed_release(&m);
	return 0;
}

int malformed_commit_tree(git_tree **out, git_repository *repo,
			  const git_oid *id)
{
	git_oid tree;
	int ret = malformed_tree_id(&tree, repo, id);

	return ret < 0 ? ret : git_tree_lookup(out, repo, &tree);
}

int malformed_parent_tree(git_tree **out, const git_commit *commit,
			  unsigned int n)
{
	git_repository *repo = git_commit_owner(commit);
	git_oid tree;
	int ret;

	if ((ret = malformed_tree_id(&tree, repo,
				     git_commit_parent_id(commit, n))) < 0)
		return ret;
	return git_tree_lookup(out, repo, &tree);
}

int malformed_commit_time(git_time_t *out, git_repository *repo,
			  const git_oid *id)
{
	struct malformed_commit m;
	git_commit *commit = NULL;
	int ret;

	if (!(ret = git_commit_lookup(&commit, repo, id))) {
		*out = git_commit_time(commit);
		git_commit_free(commit);
		return 0;
	}
	if (!malformed_check(&m, repo, id))
		return ret;
	*out = (git_time_t)m.date;
	malformed_release(&m);
	return 0;
}

struct warned {
	git_oid id;
	UT_hash_handle hh;
};

static struct warned *warned;

void malformed_warn(const git_oid *id, const char *reason, const char *done)
{
	struct warned *w;

	HASH_FIND(hh, warned, id, sizeof(*id), w);
	if (w)
		return;
	w = xcalloc(1, sizeof(*w));
	git_oid_cpy(&w->id, id);
	HASH_ADD(hh, warned, id, sizeof(w->id), w);
	warning("cannot parse commit %s: %s; %s", git_oid_tostr_s(id), reason,
		done);
}

int malformed_lookup(git_commit **out, git_repository *repo,
		     const git_oid *id)
{
	struct malformed_commit m;
	int ret = git_commit_lookup(out, repo, id);

	if (ret >= 0)
		return 0;
	*out = NULL;
	if (!malformed_check(&m, repo, id))
		return ret;
	malformed_warn(id, m.reason, "skipped");
	malformed_release(&m);
	return 1;
}

int malformed_lookup_raw(git_commit **out, struct malformed_commit *m,
			 git_repository *repo, const git_oid *id)
{
	int ret = git_commit_lookup(out, repo, id);

	memset(m, 0, sizeof(*m));
	if (ret >= 0)
		return 0;
	*out = NULL;
	if (!malformed_check(m, repo, id))
		return ret;
	malformed_warn(id, m->reason, "read without its author or date");
	return 1;
}

/* --- names of malformed commits ---------------------------------------- */

/* The commit id names, through tags; 0 or -1 (libgit2's error set). */
static int peel_raw(git_oid *id, git_repository *repo, git_odb *odb)
{
	int depth;

	for (depth = 0; depth < 32; depth++) {
		git_object_t type;
		git_tag *tag = NULL;
		size_t len;

		if (git_odb_read_header(&len, &type, odb, id) < 0)
			return -1;
		if (type == GIT_OBJECT_COMMIT)
			return 0;
		if (type != GIT_OBJECT_TAG) {
			git_error_set_str(GIT_ERROR_OBJECT,
					  "the object is not a commit");
			return -1;
		}
		if (git_tag_lookup(&tag, repo, id) < 0)
			return -1;
		git_oid_cpy(id, git_tag_target_id(tag));
		git_tag_free(tag);
	}
	git_error_set_str(GIT_ERROR_OBJECT, "too many tags in a row");
	return -1;
}

/* Parent n (from 1) of commit *id, read from its object, into *id. */
static int parent_raw(git_oid *id, git_odb *odb, unsigned long n)
{
	struct malformed_commit m;
	git_odb_object *obj = NULL;
	int ret = -1;

	if (git_odb_read(&obj, odb, id) < 0)
		return -1;
	if (git_odb_object_type(obj) != GIT_OBJECT_COMMIT ||
	    malformed_parse(&m, git_odb_object_data(obj),
			    git_odb_object_size(obj)) < 0) {
		git_error_set_str(GIT_ERROR_OBJECT, "cannot read a commit's parents");
	} else {
		if (n <= m.nr_parents) {
			git_oid_cpy(id, &m.parents[n - 1]);
			ret = 0;
		} else {
			git_error_set_str(GIT_ERROR_REFERENCE,
					  "a commit has fewer parents");
		}
		malformed_release(&m);
	}
	git_odb_object_free(obj);
	return ret;
}

/* The object base names: a ref as git finds it, or an id. */
static int resolve_base(git_oid *out, git_repository *repo, git_odb *odb,
			const char *base)
{
	git_reference *ref = NULL, *resolved = NULL;
	int ret = -1;

	if (!git_reference_dwim(&ref, repo, base) &&
	    !git_reference_resolve(&resolved, ref) &&
	    git_reference_target(resolved)) {
		git_oid_cpy(out, git_reference_target(resolved));
		ret = 0;
	} else {
		ret = hex_name(out, odb, base);
	}
	git_reference_free(resolved);
	git_reference_free(ref);
	return ret;
}

/*
 * rev read as git reads a revision, for the forms that name one
 * commit: BASE (a ref or an id), then any of ~, ~N, ^, ^N, ^0 and
 * ^{commit}.  0; GIT_EPEEL when it ends in ^{tree}; or -1 for what is
 * not of those forms or does not resolve.
 */
static int revparse_raw(git_oid *out, git_repository *repo, const char *rev)
{
	size_t len = strcspn(rev, "~^");
	char *base = xstrndup(rev, len);
	const char *p = rev + len;
	git_odb *odb = NULL;
	int ret = -1;

	if (git_repository_odb(&odb, repo) < 0 ||
	    resolve_base(out, repo, odb, base) < 0 ||
	    peel_raw(out, repo, odb) < 0)
		goto out;
	while (*p) {
		char op = *p++, *end;
		unsigned long n = 1;

		if (op == '^' && *p == '{') {
			/* A commit's tree, as git names it: no commit. */
			if (!strcmp(p, "{tree}")) {
				ret = GIT_EPEEL;
				goto out;
			}
			if (!skip_prefix(p, "{commit}", &p))
				goto out;	/* ^{/text} and the like */
			continue;
		}
		if (*p >= '0' && *p <= '9') {
			errno = 0;
			n = strtoul(p, &end, 10);
			if (errno)
				goto out;
			p = end;
		}
		if (op == '^' && n) {
			if (parent_raw(out, odb, n) < 0)
				goto out;
		} else if (op == '~') {
			for (; n; n--)
				if (parent_raw(out, odb, 1) < 0)
					goto out;
		}
	}
	ret = 0;
out:
	git_odb_free(odb);
	free(base);
	return ret;
}

int malformed_revparse(git_oid *out, git_repository *repo, const char *rev)
{
	git_object *obj = NULL, *peeled = NULL;
	int ret = git_revparse_single(&obj, repo, rev), peeling = 0;

	if (!ret) {
		/* Only a tag can lead to a commit libgit2 cannot parse. */
		int tag = git_object_type(obj) == GIT_OBJECT_TAG;

		ret = git_object_peel(&peeled, obj, GIT_OBJECT_COMMIT);
		if (!ret)
			git_oid_cpy(out, git_object_id(peeled));
		git_object_free(peeled);
		git_object_free(obj);
		if (!ret)
			return 0;
		if (error_git_memory())
			return ret;
		if (!tag || !malformed_suspect())
			return GIT_EPEEL;
		peeling = 1;
	}
	if (malformed_suspect()) {
		struct kept_error k;
		int raw;

		keep_error(&k);
		raw = revparse_raw(out, repo, rev);
		put_error(&k, raw && raw != GIT_EPEEL);
		if (!raw || raw == GIT_EPEEL)
			return raw;
	}
	return peeling ? GIT_EPEEL : ret;
}
