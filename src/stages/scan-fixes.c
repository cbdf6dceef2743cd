/*
 * What a candidate fixes: the commits it names, read by the rules'
 * links (Fixes: trailers and a project's own forms), and looked up in
 * the repository, with a warning for an id that is not a commit.
 */
#include "stages/scan-internal.h"
#include "git/history.h"
#include "base/strbuf.h"
#include "base/util.h"

#include <string.h>

/*
 * Why a Fixes: id that the repository has does not name a commit, as a
 * warning: a blob, a tree or a tag (a pasted "git hash-object" or
 * "ls-tree" id), or a prefix of several objects.  An id the repository
 * lacks needs none: the reports say it is not found.
 */
static void warn_unresolved(struct candidate *c, const struct fixes_ref *ref,
			    int ret, const git_object *obj)
{
	struct strbuf sb = STRBUF_INIT;

	strbuf_addf(&sb, "Fixes: %s", ref->id);
	if (ref->subject)
		strbuf_addf(&sb, " (\"%s\")", ref->subject);
	if (ret == GIT_EAMBIGUOUS)
		candidate_add_warning(c, "%s is ambiguous: several objects of "
				      "the repository start with it", sb.buf);
	else if (obj)
		candidate_add_warning(c, "%s names a %s, not a commit", sb.buf,
				      git_object_type2string(git_object_type(obj)));
	strbuf_release(&sb);
}

/* Adds a link to c's list, unless it names that id already. */
static void add_link(struct fixes_ref **v, size_t *nr, size_t *alloc,
		     const char *id, size_t len, char *subject)
{
	size_t i;
	char *hex;

	if (len < 4 || len > GIT_OID_HEXSZ || !is_hex(id, len)) {
		free(subject);
		return;
	}
	hex = xstrndup(id, len);
	for (i = 0; i < len; i++)
		if (hex[i] >= 'A' && hex[i] <= 'F')
			hex[i] = (char)(hex[i] - 'A' + 'a');
	for (i = 0; i < *nr; i++)
		if (!strcmp((*v)[i].id, hex)) {
			free(hex);
			free(subject);
			return;
		}
	ALLOC_GROW(*v, *nr, *alloc);
	memset(&(*v)[*nr], 0, sizeof(**v));
	(*v)[*nr].id = hex;
	(*v)[(*nr)++].subject = subject;
}

/* Every match of link r in text, a trailer's value when in_trailer. */
static void links_in(const struct ruleset *rs, const struct rule *r,
		     const char *text, int in_trailer, struct fixes_ref **v,
		     size_t *nr, size_t *alloc)
{
	size_t len = strlen(text), start = 0, id_len, subject_len, end;
	const char *id, *subject;

	while (rule_match_link(rs, r, text, len, start, &id, &id_len, &subject,
			       &subject_len, &end) == 1) {
		char *quoted;

		if (subject) {
			quoted = xstrndup(subject, subject_len);
		} else {
			/* What follows on the line, as a Fixes: tag quotes it. */
			size_t eol = strcspn(text + end, "\n");
			char *rest = xstrndup(text + end, eol);

			quoted = message_fixes_subject(rest, !in_trailer);
			free(rest);
			if (quoted && !*quoted) {
				free(quoted);
				quoted = NULL;
			}
		}
		add_link(v, nr, alloc, id, id_len, quoted);
		start = end;
	}
}

/*
 * The commits c names as those whose bugs it fixes, by the links of the
 * rules ("link fixes trailer:Fixes /^([0-9a-f]{7,40})\b/i", "Follow-up
 * for <id>" in a body): c->msg.fixes, in place of what the message
 * parser read, so that a project's own forms count and what is not a
 * commit id ("Fixes: #1234", an issue) does not.
 */
void scan_read_links(const struct ruleset *rs, struct candidate *c)
{
	struct fixes_ref *v = NULL;
	size_t nr = 0, alloc = 0, i, pos;
	const struct trailer *t;

	for (i = 0; i < rs->nr_links; i++) {
		const struct rule *r = &rs->links[i];

		switch (r->field) {
		case FIELD_TRAILER:
			pos = 0;
			while ((t = message_trailer_next(&c->msg, r->trailer, &pos)))
				links_in(rs, r, t->val, 1, &v, &nr, &alloc);
			break;
		case FIELD_SUBJECT:
			links_in(rs, r, c->msg.subject ? c->msg.subject : "", 0,
				 &v, &nr, &alloc);
			break;
		case FIELD_BODY:
			links_in(rs, r, c->msg.text ? c->msg.text : "", 0, &v,
				 &nr, &alloc);
			break;
		case FIELD_MESSAGE:
			links_in(rs, r, c->raw ? c->raw : "", 0, &v, &nr, &alloc);
			break;
		default:
			break;
		}
	}
	for (i = 0; i < c->msg.nr_fixes; i++) {
		free(c->msg.fixes[i].id);
		free(c->msg.fixes[i].subject);
	}
	free(c->msg.fixes);
	c->msg.fixes = v;
	c->msg.nr_fixes = nr;
	c->msg.alloc_fixes = alloc;
}

/*
 * The commit an abbreviated id names, found without reading it: the
 * object store's index gives the full id (or says it is ambiguous or
 * unknown), and the commit-graph, else the object's header, that it is
 * a commit.  0 when that settles it; -1 leaves the case (and its
 * warning) to a full lookup.
 */
static int quick_resolve(git_repository *repo, git_odb *odb,
			 const git_oid *prefix, size_t len, git_oid *out)
{
	const struct commit_graph *g = history_graph(repo);
	git_object_t type;
	size_t size;
	uint32_t pos;

	if (!odb || git_odb_exists_prefix(out, odb, prefix, len) < 0) {
		git_error_clear();
		return -1;
	}
	if (g && commit_graph_find(g, out, &pos))
		return 0;
	if (git_odb_read_header(&size, &type, odb, out) < 0) {
		git_error_clear();
		return -1;
	}
	return type == GIT_OBJECT_COMMIT ? 0 : -1;
}

void scan_resolve_fixes(git_repository *repo, struct candidate *c)
{
	git_odb *odb = NULL;
	size_t i;

	if (!c->msg.nr_fixes)
		return;
	if (git_repository_odb(&odb, repo) < 0)
		git_error_clear();
	c->fixes = xcalloc(c->msg.nr_fixes, sizeof(*c->fixes));
	for (i = 0; i < c->msg.nr_fixes; i++) {
		const struct fixes_ref *ref = &c->msg.fixes[i];
		struct fixes_target *t = &c->fixes[i];
		size_t len = strlen(ref->id);
		git_object *obj = NULL;
		git_oid prefix;
		int ret;

		t->ref = ref;
		if (len < 4 || git_oid_fromstrn(&prefix, ref->id, len) < 0)
			continue;
		if (!quick_resolve(repo, odb, &prefix, len, &t->id)) {
			t->resolved = 1;
			continue;
		}
		ret = git_object_lookup_prefix(&obj, repo, &prefix, len,
					       GIT_OBJECT_ANY);
		git_error_clear();
		if (ret < 0 || git_object_type(obj) != GIT_OBJECT_COMMIT) {
			warn_unresolved(c, ref, ret, ret < 0 ? NULL : obj);
			git_object_free(obj);
			continue;
		}
		git_oid_cpy(&t->id, git_object_id(obj));
		t->resolved = 1;
		git_object_free(obj);
	}
	git_odb_free(odb);
}
