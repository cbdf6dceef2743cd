#include "store/ledger.h"
#include "store/ledger-internal.h"
#include "base/error.h"
#include "base/lockfile.h"
#include "base/strbuf.h"
#include "base/util.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define LEDGER_FIELDS 7
/* ... and an eighth, the origin, optional. */
#define LEDGER_MAX_FIELDS 8

/* A spelling of a branch and its key (ledger_branch_key()). */
struct ledger_key {
	char *spelling;
	char *key;
	UT_hash_handle hh;
};

/* The latest decisions about one commit, oldest first. */
struct ledger_commit {
	git_oid id;
	const struct ledger_entry **v;
	size_t nr, alloc;
	UT_hash_handle hh;
};

static const char *const decision_names[] = {
	[DECISION_ACCEPTED] = "accepted",
	[DECISION_REJECTED] = "rejected",
	[DECISION_DEFERRED] = "deferred",
};

const char *decision_name(enum decision d)
{
	if ((size_t)d < ARRAY_SIZE(decision_names))
		return decision_names[d];
	return "unknown";
}

int decision_parse(const char *s, enum decision *out)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(decision_names); i++) {
		if (!strcmp(s, decision_names[i])) {
			*out = (enum decision)i;
			return 0;
		}
	}
	return -1;
}

/* --- dates ------------------------------------------------------------ */

static int days_in_month(int y, int m)
{
	static const int days[] = { 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31 };

	if (m == 2 && ((y % 4 == 0 && y % 100 != 0) || y % 400 == 0))
		return 29;
	return days[m - 1];
}

static int parse_digits(const char *s, int n, int *out)
{
	int i, v = 0;

	for (i = 0; i < n; i++) {
		if (s[i] < '0' || s[i] > '9')
			return -1;
		v = v * 10 + (s[i] - '0');
	}
	*out = v;
	return 0;
}

/* Parses "YYYY-MM-DD" at the start of s; the caller checks what follows. */
static int parse_day(const char *s, git_time_t *out)
{
	int y, m, d;

	if (parse_digits(s, 4, &y) || s[4] != '-' ||
	    parse_digits(s + 5, 2, &m) || s[7] != '-' ||
	    parse_digits(s + 8, 2, &d))
		return -1;
	if (y < 1970 || m < 1 || m > 12 || d < 1 || d > days_in_month(y, m))
		return -1;
	*out = (git_time_t)days_from_civil(y, m, d) * 86400;
	return 0;
}

int ledger_parse_date(const char *s, git_time_t *out)
{
	if (strlen(s) != 10)
		return -1;
	return parse_day(s, out);
}

static int parse_when(const char *s, git_time_t *out)
{
	git_time_t day;
	int h, m, sec;

	if (strlen(s) != 20 || parse_day(s, &day) || s[10] != 'T' ||
	    parse_digits(s + 11, 2, &h) || s[13] != ':' ||
	    parse_digits(s + 14, 2, &m) || s[16] != ':' ||
	    parse_digits(s + 17, 2, &sec) || s[19] != 'Z' ||
	    h > 23 || m > 59 || sec > 59)
		return -1;
	*out = day + h * 3600 + m * 60 + sec;
	return 0;
}

/* "YYYY-MM-DD", and with_time "YYYY-MM-DDTHH:MM:SSZ", in UTC. */
static void format_time(char *buf, size_t size, int with_time, git_time_t t)
{
	time_t tt = (time_t)t;
	struct tm tm;

	if (!gmtime_r(&tt, &tm)) {
		snprintf(buf, size, "?");
		return;
	}
	if (with_time)
		strftime(buf, size, "%Y-%m-%dT%H:%M:%SZ", &tm);
	else
		strftime(buf, size, "%Y-%m-%d", &tm);
}

void ledger_format_date(char buf[11], git_time_t t)
{
	format_time(buf, 11, 0, t);
}

void ledger_format_when(char buf[21], git_time_t t)
{
	format_time(buf, 21, 1, t);
}

int ledger_now(git_time_t *out)
{
	const char *env = getenv("STABLEPICK_NOW");
	char *end;
	long long v;

	if (!env || !*env) {
		*out = (git_time_t)time(NULL);
		return 0;
	}
	errno = 0;
	v = strtoll(env, &end, 10);
	if (errno || *end || v < 0 || v > 253402300799LL)
		return error("bad STABLEPICK_NOW '%s' (expected a Unix time)", env);
	*out = (git_time_t)v;
	return 0;
}

/* --- entries ---------------------------------------------------------- */

void ledger_init(struct ledger *l, const char *path)
{
	memset(l, 0, sizeof(*l));
	l->path = xstrdup(path);
}

static void origin_release(struct ledger_origin *o)
{
	free(o->archive);
	free(o->message_id);
	free(o->from);
	memset(o, 0, sizeof(*o));
}

static void origin_copy(struct ledger_origin *dst,
			const struct ledger_origin *src)
{
	dst->archive = src->archive ? xstrdup(src->archive) : NULL;
	dst->message_id = src->message_id ? xstrdup(src->message_id) : NULL;
	dst->from = src->from ? xstrdup(src->from) : NULL;
	dst->date = src->date;
}

int ledger_origin_known(const struct ledger_origin *o)
{
	return o->archive || o->message_id || o->from || o->date;
}

void ledger_origin_text(struct strbuf *sb, const struct ledger_origin *o)
{
	char when[21];
	const char *sep = "";

	if (o->message_id) {
		strbuf_addf(sb, "<%s>", o->message_id);
		sep = " ";
	}
	if (o->from) {
		strbuf_addf(sb, "%sfrom %s", sep, o->from);
		sep = ", ";
	}
	if (o->date) {
		ledger_format_when(when, o->date);
		strbuf_addf(sb, "%sdated %s", sep, when);
		sep = ", ";
	}
	if (o->archive)
		strbuf_addf(sb, "%sin %s", sep, o->archive);
}

static void entry_free(struct ledger_entry *e)
{
	free(e->branch);
	free(e->who);
	free(e->reason);
	free(e->until_tag);
	origin_release(&e->origin);
	free(e->key);
	free(e);
}

static void entries_free(struct ledger_entry **head)
{
	struct ledger_entry *e, *tmp;

	HASH_FREE_ALL(*head, e, tmp, entry_free);
}

static void commit_free(struct ledger_commit *c)
{
	free(c->v);
	free(c);
}

static void key_free(struct ledger_key *k)
{
	free(k->spelling);
	free(k->key);
	free(k);
}

static void by_commit_free(struct ledger *l)
{
	struct ledger_commit *c, *tmp;

	HASH_FREE_ALL(l->by_commit, c, tmp, commit_free);
}

void ledger_release(struct ledger *l)
{
	struct ledger_key *k, *tmp;

	entries_free(&l->entries);
	by_commit_free(l);
	HASH_FREE_ALL(l->keys, k, tmp, key_free);
	free(l->path);
	l->path = NULL;
	l->repo = NULL;
	l->lines = 0;
}

/* --- keys ------------------------------------------------------------- */

void ledger_set_repo(struct ledger *l, git_repository *repo)
{
	struct ledger_key *k, *tmp;

	/* Keys resolved without the repository may differ. */
	HASH_FREE_ALL(l->keys, k, tmp, key_free);
	l->repo = repo;
}

/* Whether some ref lies under refs/remotes/NAME/, NAME the first len bytes. */
static int has_remote_refs(git_repository *repo, const char *name, size_t len)
{
	git_reference_iterator *it = NULL;
	git_reference *ref = NULL;
	char *glob = xstrfmt("refs/remotes/%.*s/*", (int)len, name);
	int found = 0;

	if (!git_reference_iterator_glob_new(&it, repo, glob) &&
	    !git_reference_next(&ref, it))
		found = 1;
	git_error_clear();
	git_reference_free(ref);
	git_reference_iterator_free(it);
	free(glob);
	return found;
}

/*
 * Whether the configuration names the remote s[0..len) (a key
 * "remote.NAME.url" or "remote.NAME.pushurl").  Read entry by entry:
 * git_remote_list() matches with a regex whose match data libgit2 1.5
 * never frees (LeakSanitizer finds it on every call).
 */
static int configured_remote(git_repository *repo, const char *s, size_t len)
{
	git_config *cfg = NULL;
	git_config_iterator *it = NULL;
	git_config_entry *e;
	int found = 0;

	if (git_repository_config_snapshot(&cfg, repo) < 0 ||
	    git_config_iterator_new(&it, cfg) < 0) {
		git_config_free(cfg);
		git_error_clear();
		return 0;
	}
	while (!found && !git_config_next(&e, it)) {
		const char *name = e->name, *rest;

		if (strncasecmp(name, "remote.", 7) || strncmp(name + 7, s, len) ||
		    name[7 + len] != '.')
			continue;
		rest = name + 7 + len + 1;
		found = !strcasecmp(rest, "url") || !strcasecmp(rest, "pushurl");
	}
	git_config_iterator_free(it);
	git_config_free(cfg);
	git_error_clear();
	return found;
}

/*
 * The length of REMOTE in "REMOTE/BRANCH": the longest configured
 * remote that fits, else the first component if refs/remotes/ has refs
 * under it; 0 when s names no remote.
 */
static size_t remote_len(git_repository *repo, const char *s)
{
	const char *slash = strchr(s, '/');
	size_t best = 0, n;

	if (!repo || !slash)
		return 0;
	/* Remote names may hold '/': the longest that fits, from the end. */
	for (n = strlen(s); n > 0 && !best; n--)
		if (s[n] == '/' && configured_remote(repo, s, n))
			best = n;
	if (!best && has_remote_refs(repo, s, (size_t)(slash - s)))
		best = (size_t)(slash - s);
	return best;
}

/* BRANCH of "REMOTE/BRANCH", or NULL ("REMOTE/HEAD" is no branch). */
static char *strip_remote(git_repository *repo, const char *s)
{
	size_t len = remote_len(repo, s);

	if (!len || !s[len + 1] || !strcmp(s + len + 1, "HEAD"))
		return NULL;
	return xstrdup(s + len + 1);
}

/* The key of a full ref name, or NULL if it is no branch. */
static char *key_of_refname(git_repository *repo, const char *name)
{
	const char *rest;

	if (skip_prefix(name, "refs/heads/", &rest))
		return *rest ? xstrdup(rest) : NULL;
	if (skip_prefix(name, "refs/remotes/", &rest))
		return strip_remote(repo, rest);
	return NULL;
}

static char *compute_key(git_repository *repo, const char *s)
{
	git_reference *ref = NULL;
	char *key;

	if (repo && !git_reference_dwim(&ref, repo, s)) {
		key = key_of_refname(repo, git_reference_name(ref));
		git_reference_free(ref);
		return key ? key : xstrdup(s);
	}
	git_error_clear();
	/* Not a ref (any more): a commit id, or a branch as once spelled. */
	key = key_of_refname(repo, s);
	if (!key && !starts_with(s, "refs/"))
		key = strip_remote(repo, s);
	return key ? key : xstrdup(s);
}

const char *ledger_branch_key(struct ledger *l, const char *branch)
{
	struct ledger_key *k;

	HASH_FIND_STR(l->keys, branch, k);
	if (k)
		return k->key;
	k = xcalloc(1, sizeof(*k));
	k->spelling = xstrdup(branch);
	k->key = compute_key(l->repo, branch);
	HASH_ADD_KEYPTR(hh, l->keys, k->spelling, strlen(k->spelling), k);
	return k->key;
}

static char *make_key(const char *branch, const git_oid *commit)
{
	char hex[GIT_OID_HEXSZ + 1];

	git_oid_tostr(hex, sizeof(hex), commit);
	return xstrfmt("%s\t%s", branch, hex);
}

/* Adds a copy of src to *head, unless the decision there is later. */
static void entries_put(struct ledger_entry **head,
			const struct ledger_entry *src, unsigned lineno)
{
	struct ledger_entry *e = xcalloc(1, sizeof(*e)), *old;

	e->branch = xstrdup(src->branch);
	git_oid_cpy(&e->commit, &src->commit);
	e->decision = src->decision;
	e->when = src->when;
	e->until = src->until;
	e->until_tag = src->until_tag ? xstrdup(src->until_tag) : NULL;
	e->who = xstrdup(src->who);
	e->reason = xstrdup(src->reason ? src->reason : "");
	origin_copy(&e->origin, &src->origin);
	e->lineno = lineno;
	e->key = make_key(e->branch, &e->commit);
	HASH_FIND(hh, *head, e->key, strlen(e->key), old);
	/* Lines merged from others come in any order: the latest WHEN wins. */
	if (old && old->when > e->when) {
		entry_free(e);
		return;
	}
	if (old) {
		HASH_DEL(*head, old);
		entry_free(old);
	}
	HASH_ADD_KEYPTR(hh, *head, e->key, strlen(e->key), e);
}

/* Oldest first, then by branch. */
static int by_when(const void *a, const void *b)
{
	const struct ledger_entry *x = *(const struct ledger_entry *const *)a;
	const struct ledger_entry *y = *(const struct ledger_entry *const *)b;

	if (x->when != y->when)
		return x->when < y->when ? -1 : 1;
	return strcmp(x->branch, y->branch);
}

/* The entries again by commit, for ledger_find_others(). */
static void index_by_commit(struct ledger *l)
{
	struct ledger_entry *e, *tmp;
	struct ledger_commit *c, *ctmp;

	by_commit_free(l);
	HASH_ITER(hh, l->entries, e, tmp) {
		HASH_FIND(hh, l->by_commit, &e->commit, sizeof(git_oid), c);
		if (!c) {
			c = xcalloc(1, sizeof(*c));
			git_oid_cpy(&c->id, &e->commit);
			HASH_ADD(hh, l->by_commit, id, sizeof(git_oid), c);
		}
		ALLOC_GROW(c->v, c->nr, c->alloc);
		c->v[c->nr++] = e;
	}
	HASH_ITER(hh, l->by_commit, c, ctmp)
		QSORT(c->v, c->nr, by_when);
}

const struct ledger_entry *ledger_find(struct ledger *l, const char *branch,
				       const git_oid *commit)
{
	struct ledger_entry *e;
	char *key = make_key(ledger_branch_key(l, branch), commit);

	HASH_FIND(hh, l->entries, key, strlen(key), e);
	free(key);
	return e;
}

size_t ledger_find_others(struct ledger *l, const char *branch,
			  const git_oid *commit,
			  const struct ledger_entry ***out)
{
	const char *key = ledger_branch_key(l, branch);
	struct ledger_commit *c;
	size_t i, nr = 0;

	*out = NULL;
	HASH_FIND(hh, l->by_commit, commit, sizeof(git_oid), c);
	if (!c)
		return 0;
	for (i = 0; i < c->nr; i++) {
		if (!strcmp(c->v[i]->branch, key))
			continue;
		if (!*out)
			*out = xcalloc(c->nr, sizeof(**out));
		(*out)[nr++] = c->v[i];
	}
	return nr;
}

git_time_t ledger_time_to_outrank(struct ledger *l, const char *branch,
				  const git_oid *commit, git_time_t now)
{
	const struct ledger_entry *e = ledger_find(l, branch, commit);
	char hex[GIT_OID_HEXSZ + 1], when[21];

	if (!e || e->when <= now)
		return now;
	git_oid_tostr(hex, 13, commit);
	ledger_format_when(when, e->when);
	warning("the ledger's decision about %s is dated %s, after now (by "
		"%s): this one is dated a second later, to outrank it", hex,
		when, e->who);
	return e->when + 1;
}

int ledger_in_force(const struct ledger_entry *e, git_time_t now)
{
	if (e->decision != DECISION_DEFERRED)
		return 1;
	if (e->until_tag)
		return !e->tag_reached;
	return now < e->until;
}

void ledger_check_tags(struct ledger *l, const char *branch,
		       int (*has)(const char *tag, void *data), void *data)
{
	const char *key = ledger_branch_key(l, branch);
	struct ledger_entry *e, *tmp;

	HASH_ITER(hh, l->entries, e, tmp)
		if (e->until_tag && !strcmp(e->branch, key))
			e->tag_reached = has(e->until_tag, data);
}

const char *ledger_until_text(const struct ledger_entry *e, char day[11])
{
	if (e->until_tag)
		return e->until_tag;
	ledger_format_date(day, e->until);
	return day;
}

/* Whether s has a date's shape, NNNN-NN-NN: a date or an error. */
static int date_shaped(const char *s)
{
	static const char shape[] = "0000-00-00";
	size_t i;

	for (i = 0; shape[i]; i++)
		if (shape[i] == '-' ? s[i] != '-' :
		    !(s[i] >= '0' && s[i] <= '9'))
			return 0;
	return !s[i];
}

int ledger_tag_name_ok(const char *s)
{
	char *ref;
	int ok = 0;

	if (!*s || *s == '-' || date_shaped(s))
		return 0;
	ref = xstrfmt("refs/tags/%s", s);
	if (git_reference_name_is_valid(&ok, ref) < 0) {
		git_error_clear();
		ok = 0;
	}
	free(ref);
	return ok;
}

/* --- reading ---------------------------------------------------------- */

/* The first control character (tab, newline, DEL, ...) in s, or NULL. */
static const char *find_control(const char *s)
{
	for (; *s; s++)
		if ((unsigned char)*s < 0x20 || *s == 0x7f)
			return s;
	return NULL;
}

static const char *const field_names[LEDGER_MAX_FIELDS] = {
	"branch", "commit", "decision", "when", "until", "who", "reason",
	"origin"
};

static int hex_value(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	return -1;
}

/*
 * Decodes %XX in place (the origin's values); a bad escape stays.
 * Returns -1 if that makes a control character (a tab or a newline
 * would split the line when it is written again).
 */
static int unescape(char *s)
{
	char *start = s, *out = s;

	for (; *s; s++) {
		int hi = *s == '%' ? hex_value(s[1]) : -1;
		int lo = hi >= 0 ? hex_value(s[2]) : -1;

		if (lo < 0) {
			*out++ = *s;
			continue;
		}
		*out++ = (char)(hi * 16 + lo);
		s += 2;
	}
	*out = '\0';
	return find_control(start) ? -1 : 0;
}

/* Parses the origin field (modified in place) into o, borrowing it. */
static int parse_origin(struct ledger_origin *o, char *s, const char *path,
			unsigned lineno)
{
	char *p = s;

	while (p && *p) {
		char *semi = strchr(p, ';'), *eq;

		if (semi)
			*semi = '\0';
		eq = strchr(p, '=');
		if (!eq)
			return error("%s:%u: bad origin '%s' (expected "
				     "key=value pairs)", path, lineno, p);
		*eq++ = '\0';
		if (unescape(eq) < 0)
			return error("%s:%u: control character in the origin's "
				     "%s", path, lineno, p);
		if (!strcmp(p, "archive"))
			o->archive = eq;
		else if (!strcmp(p, "message-id"))
			o->message_id = eq;
		else if (!strcmp(p, "from"))
			o->from = eq;
		else if (!strcmp(p, "date") && strcmp(eq, "-") &&
			 parse_when(eq, &o->date) < 0)
			return error("%s:%u: bad date '%s' in the origin "
				     "(expected YYYY-MM-DDTHH:MM:SSZ)", path,
				     lineno, eq);
		p = semi ? semi + 1 : NULL;
	}
	return 0;
}

/*
 * Parses one decision line (modified in place); reports "path:line:".
 * With no_reason_ok, a line without its last tab is one with no reason:
 * git notes add and edit strip trailing whitespace from a note.
 */
static int parse_line(struct ledger_entry *e, char *line, const char *path,
		      unsigned lineno, int no_reason_ok)
{
	char *field[LEDGER_MAX_FIELDS];
	int i, nr = 0;
	char *p = line;

	for (;;) {
		char *tab = strchr(p, '\t');

		if (nr == LEDGER_MAX_FIELDS)
			return error("%s:%u: too many fields (expected %d, "
				     "or %d with an origin, separated by tabs)",
				     path, lineno, LEDGER_FIELDS,
				     LEDGER_MAX_FIELDS);
		field[nr++] = p;
		if (!tab)
			break;
		*tab = '\0';
		p = tab + 1;
	}
	if (nr == LEDGER_FIELDS - 1 && no_reason_ok)
		field[nr++] = p + strlen(p);
	if (nr < LEDGER_FIELDS)
		return error("%s:%u: expected %d tab-separated fields, found %d",
			     path, lineno, LEDGER_FIELDS, nr);
	for (i = 0; i < nr; i++)
		if (find_control(field[i]))
			return error("%s:%u: control character in %s",
				     path, lineno, field_names[i]);

	memset(e, 0, sizeof(*e));
	e->branch = field[0];
	if (!*e->branch)
		return error("%s:%u: empty branch", path, lineno);
	if (strlen(field[1]) != GIT_OID_HEXSZ ||
	    strspn(field[1], "0123456789abcdef") != GIT_OID_HEXSZ ||
	    git_oid_fromstr(&e->commit, field[1]) < 0)
		return error("%s:%u: bad commit id '%s' (expected 40 lower-case "
			     "hex digits)", path, lineno, field[1]);
	if (decision_parse(field[2], &e->decision) < 0)
		return error("%s:%u: unknown decision '%s' (expected accepted, "
			     "rejected or deferred)", path, lineno, field[2]);
	if (parse_when(field[3], &e->when) < 0)
		return error("%s:%u: bad time '%s' (expected "
			     "YYYY-MM-DDTHH:MM:SSZ)", path, lineno, field[3]);
	if (e->decision == DECISION_DEFERRED) {
		/* A date, else a tag: "v6.6.9". */
		if (ledger_parse_date(field[4], &e->until) < 0) {
			if (!ledger_tag_name_ok(field[4]))
				return error("%s:%u: bad date '%s' for deferred "
					     "(expected YYYY-MM-DD or a tag)",
					     path, lineno, field[4]);
			e->until_tag = field[4];
		}
	} else if (strcmp(field[4], "-")) {
		return error("%s:%u: %s takes '-' as until, not '%s'",
			     path, lineno, field[2], field[4]);
	}
	e->who = field[5];
	if (!*e->who)
		return error("%s:%u: empty who", path, lineno);
	e->reason = field[6];
	if (nr > LEDGER_FIELDS)
		return parse_origin(&e->origin, field[7], path, lineno);
	return 0;
}

int ledger_parse(struct ledger *l, const char *text, size_t len,
		 const char *label, int header, ledger_line_fn fn, void *data,
		 unsigned *lines)
{
	struct strbuf copy = STRBUF_INIT;
	char *p, *end;
	unsigned lineno = 0;
	int ret = 0;

	*lines = 0;
	if (len && memchr(text, '\0', len))
		return error("%s: binary data in ledger", label);
	/* parse_line() cuts the fields with NULs: work on a copy. */
	strbuf_add(&copy, text, len);
	p = copy.buf;
	end = copy.buf + copy.len;
	while (p < end) {
		char *nl = memchr(p, '\n', (size_t)(end - p));
		struct ledger_entry e;

		if (nl)
			*nl = '\0';
		lineno++;
		if (header && lineno == 1) {
			if (strcmp(p, LEDGER_HEADER))
				ret = error("%s:1: not a stablepick ledger "
					    "(the first line must be '%s')",
					    label, LEDGER_HEADER);
		} else if (*p && *p != '#') {
			if (parse_line(&e, p, label, lineno, !header) < 0) {
				ret = -1;
			} else if (e.when >= l->now + LEDGER_SLACK) {
				char when[21];

				ledger_format_when(when, e.when);
				if (!l->future_said)
					warning("%s:%u: a decision dated %s, in "
						"the future, is not counted",
						label, lineno, when);
				l->future++;
			} else {
				e.branch = (char *)ledger_branch_key(l, e.branch);
				fn(&e, lineno, data);
			}
		}
		if (!nl)
			break;
		p = nl + 1;
	}
	*lines = lineno;
	strbuf_release(&copy);
	return ret;
}

static void put_line(const struct ledger_entry *e, unsigned lineno, void *data)
{
	entries_put(data, e, lineno);
}

static int load_text(struct ledger *l, struct ledger_entry **head,
		     unsigned *lines, const struct strbuf *text)
{
	return ledger_parse(l, text->buf, text->len, l->path, 1, put_line, head,
			    lines);
}

int ledger_read_file(struct strbuf *text, const char *path)
{
	if (strbuf_read_file(text, path) < 0) {
		if (errno == ENOENT) {
			strbuf_reset(text);
			return 0;
		}
		return error("cannot read ledger '%s': %s", path,
			     strerror(errno));
	}
	return 0;
}

/*
 * The end of a load or an append: what was read (head, lines) replaces
 * l's entries if it all went well (ret 0), else it is dropped and l is
 * left as it was.
 */
static void keep_entries(struct ledger *l, struct ledger_entry **head,
			 unsigned lines, int ret)
{
	if (ret) {
		entries_free(head);
		return;
	}
	entries_free(&l->entries);
	l->entries = *head;
	l->lines = lines;
	index_by_commit(l);
}

int ledger_load(struct ledger *l)
{
	struct strbuf text = STRBUF_INIT;
	struct ledger_entry *head = NULL;
	unsigned lines = 0;
	int ret;

	l->future = 0;
	ret = ledger_now(&l->now);
	if (!ret)
		ret = ledger_read_file(&text, l->path);
	if (!ret)
		ret = load_text(l, &head, &lines, &text);
	keep_entries(l, &head, lines, ret);
	l->future_said |= l->future > 0;
	strbuf_release(&text);
	return ret;
}

/* --- writing ---------------------------------------------------------- */

/* Whether s holds a control character; NULL is none. */
static int has_control(const char *s)
{
	return s && find_control(s);
}

static int check_entry(const struct ledger_entry *e, git_time_t now)
{
	const char *reason = e->reason ? e->reason : "";
	const struct ledger_origin *o = &e->origin;

	if (!e->branch || !*e->branch || find_control(e->branch))
		return error("bad branch name for the ledger");
	if (!e->who || !*e->who || find_control(e->who))
		return error("bad name for the ledger: it must be one line "
			     "without tabs");
	if (find_control(reason))
		return error("the reason must be one line without tabs or "
			     "control characters");
	if (e->when < 0 || e->when > 253402300799LL)
		return error("decision time out of range");
	if (e->when > now + LEDGER_SLACK)
		return error("a decision dated in the future");
	if (has_control(o->archive) || has_control(o->message_id) ||
	    has_control(o->from))
		return error("the origin must be one line without tabs or "
			     "control characters");
	if (o->date < 0 || o->date > e->when)
		return error("the origin's date is after the decision's");
	if (e->decision == DECISION_DEFERRED && e->until_tag) {
		if (e->until || !ledger_tag_name_ok(e->until_tag))
			return error("bad tag '%s' for a deferral", e->until_tag);
	} else if (e->decision == DECISION_DEFERRED &&
	    (e->until <= 0 || e->until > 253402300799LL || e->until % 86400)) {
		return error("a deferral needs a date");
	}
	if (e->decision != DECISION_DEFERRED && (e->until || e->until_tag))
		return error("only a deferral has a date");
	if ((size_t)e->decision >= ARRAY_SIZE(decision_names))
		return error("unknown decision %d", (int)e->decision);
	return 0;
}

/* One value of the origin: '%' and ';' escaped. */
static void add_value(struct strbuf *sb, const char *key, const char *v,
		      const char **sep)
{
	if (!v)
		return;
	strbuf_addf(sb, "%s%s=", *sep, key);
	for (; *v; v++)
		if (*v == '%' || *v == ';')
			strbuf_addf(sb, "%%%02X", (unsigned char)*v);
		else
			strbuf_addch(sb, *v);
	*sep = ";";
}

/* "\tarchive=...;message-id=...;from=...;date=...". */
static void format_origin(struct strbuf *sb, const struct ledger_origin *o)
{
	const char *sep = "";
	char when[32];

	strbuf_addch(sb, '\t');
	add_value(sb, "archive", o->archive, &sep);
	add_value(sb, "message-id", o->message_id, &sep);
	add_value(sb, "from", o->from, &sep);
	if (o->date)
		format_time(when, sizeof(when), 1, o->date);
	add_value(sb, "date", o->date ? when : "-", &sep);
}

void ledger_format_entry(struct strbuf *sb, const struct ledger_entry *e)
{
	char hex[GIT_OID_HEXSZ + 1], when[32], day[11];
	const char *until = "-";

	git_oid_tostr(hex, sizeof(hex), &e->commit);
	format_time(when, sizeof(when), 1, e->when);
	if (e->decision == DECISION_DEFERRED)
		until = ledger_until_text(e, day);
	strbuf_addf(sb, "%s\t%s\t%s\t%s\t%s\t%s\t%s", e->branch, hex,
		    decision_name(e->decision), when, until, e->who,
		    e->reason ? e->reason : "");
	if (ledger_origin_known(&e->origin))
		format_origin(sb, &e->origin);
	strbuf_addch(sb, '\n');
}

int ledger_append(struct ledger *l, const struct ledger_entry *entries,
		  size_t nr)
{
	struct strbuf text = STRBUF_INIT;
	struct ledger_entry *head = NULL;
	struct lockfile lk;
	unsigned lines = 0;
	size_t i;
	int ret = 0;

	l->future = 0;
	if (ledger_now(&l->now) < 0)
		return -1;
	for (i = 0; i < nr; i++)
		if (check_entry(&entries[i], l->now) < 0)
			return -1;
	if (lockfile_take(&lk, l->path, "ledger") < 0)
		return -1;

	/* Another run may have appended since l was loaded. */
	ret = ledger_read_file(&text, l->path);
	if (!ret)
		ret = load_text(l, &head, &lines, &text);
	if (ret) {
		lockfile_rollback(&lk);
		goto out;
	}
	if (!text.len) {
		strbuf_addstr(&text, LEDGER_HEADER "\n");
		lines = 1;
	} else if (text.buf[text.len - 1] != '\n') {
		strbuf_addch(&text, '\n');
	}
	for (i = 0; i < nr; i++) {
		struct ledger_entry e = entries[i];

		e.branch = (char *)ledger_branch_key(l, e.branch);
		ledger_format_entry(&text, &e);
		entries_put(&head, &e, ++lines);
	}
	ret = lockfile_commit(&lk, text.buf, text.len);
out:
	keep_entries(l, &head, lines, ret);
	l->future_said |= l->future > 0;
	strbuf_release(&text);
	return ret;
}
