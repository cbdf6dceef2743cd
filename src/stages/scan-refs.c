/*
 * The scanner's revisions: resolving them, and saying what is wrong when
 * they do not resolve (a ref to an object the repository lacks, an
 * unborn branch) or when a shallow clone's history stops inside a range.
 */
#include "stages/scan-internal.h"
#include "base/error.h"
#include "git/malformed.h"
#include "base/strbuf.h"
#include "base/util.h"

#include <errno.h>
#include <string.h>

/* The unborn branch HEAD is on, as "refs/heads/NAME", or NULL. */
static char *unborn_head(git_repository *repo)
{
	git_reference *head = NULL;
	char *name = NULL;

	if (git_repository_head_unborn(repo) == 1 &&
	    !git_reference_lookup(&head, repo, "HEAD") &&
	    git_reference_type(head) == GIT_REFERENCE_SYMBOLIC)
		name = xstrdup(git_reference_symbolic_target(head));
	git_reference_free(head);
	git_error_clear();
	return name;
}

int scan_ref_error(git_repository *repo, const char *rev, const char *name,
		   int unborn)
{
	git_reference *ref = NULL, *resolved = NULL;
	char hex[GIT_OID_HEXSZ + 1];
	git_odb *odb = NULL;
	char *head;
	int ret = 0;

	if (!git_reference_dwim(&ref, repo, rev) &&
	    !git_reference_resolve(&resolved, ref) &&
	    git_reference_target(resolved) &&
	    !git_repository_odb(&odb, repo) &&
	    !git_odb_exists(odb, git_reference_target(resolved))) {
		git_oid_tostr(hex, sizeof(hex), git_reference_target(resolved));
		ret = error("%s points at %s, which is not in the repository",
			    name, hex);
	}
	git_odb_free(odb);
	git_reference_free(resolved);
	git_reference_free(ref);
	git_error_clear();
	if (ret || !unborn || !(head = unborn_head(repo)))
		return ret;
	if (!strcmp(rev, head) || !strcmp(rev, "HEAD") ||
	    (starts_with(head, "refs/heads/") && !strcmp(rev, head + 11)))
		ret = error("%s has no commits yet", name);
	free(head);
	return ret;
}

int scan_resolve(git_repository *repo, const char *rev, const char *what,
		 git_oid *out)
{
	int ret;

	ret = malformed_revparse(out, repo, rev);
	/* libgit2 calls every hex name shorter than 4 digits ambiguous. */
	if (ret == GIT_EAMBIGUOUS && strlen(rev) < GIT_OID_MINPREFIXLEN)
		ret = GIT_ENOTFOUND;
	if (ret == GIT_ENOTFOUND) {
		struct strbuf name = STRBUF_INIT;

		strbuf_addf(&name, "'%s' for %s", rev, what);
		ret = scan_ref_error(repo, rev, name.buf, 1);
		strbuf_release(&name);
		if (ret)
			return ret;
		return error("unknown revision '%s' for %s", rev, what);
	}
	if (ret == GIT_EAMBIGUOUS)
		return error("ambiguous revision '%s' for %s", rev, what);
	if (ret == GIT_EPEEL)
		return error("'%s' (%s) is not a commit", rev, what);
	if (ret < 0 && malformed_suspect())
		return error_git("cannot parse commit '%s' for %s", rev, what);
	if (ret < 0)
		return error_git("cannot resolve '%s' for %s", rev, what);
	return 0;
}

/* The commits a shallow clone lacks the parents of, from .git/shallow. */
int scan_read_shallow(git_repository *repo, git_oid **out, size_t *nr)
{
	struct strbuf path = STRBUF_INIT, buf = STRBUF_INIT;
	size_t alloc = 0;
	char *line, *save = NULL;

	*out = NULL;
	*nr = 0;
	if (!git_repository_is_shallow(repo))
		return 0;
	strbuf_addf(&path, "%sshallow", git_repository_path(repo));
	if (strbuf_read_file(&buf, path.buf) < 0) {
		int ret = error("cannot read '%s': %s", path.buf, strerror(errno));

		strbuf_release(&path);
		return ret;
	}
	for (line = strtok_r(buf.buf, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		ALLOC_GROW(*out, *nr, alloc);
		if (!git_oid_fromstr(&(*out)[*nr], line))
			(*nr)++;
	}
	strbuf_release(&path);
	strbuf_release(&buf);
	return 0;
}

int scan_is_shallow(const git_oid *shallow, size_t nr, const git_oid *id)
{
	size_t i;

	for (i = 0; i < nr; i++)
		if (git_oid_equal(&shallow[i], id))
			return 1;
	return 0;
}

/*
 * Whether history stops at a commit that .git/shallow lists: not when
 * the repository has every parent it names (fetched through another
 * ref, deeper; the parents are checked in turn when the walk gets to
 * them), as when a clone's depth ends exactly at the start of a range.
 */
int scan_history_cut(git_repository *repo, const git_commit *commit)
{
	unsigned int i, n = git_commit_parentcount(commit);
	git_odb *odb = NULL;
	int cut = 0;

	if (git_repository_odb(&odb, repo) < 0) {
		git_error_clear();
		return 1;
	}
	for (i = 0; i < n && !cut; i++)
		cut = !git_odb_exists(odb, git_commit_parent_id(commit, i));
	git_odb_free(odb);
	return cut;
}

int scan_shallow_error(git_repository *repo, const char *what)
{
	char hex[GIT_OID_HEXSZ + 1];
	git_oid *shallow;
	size_t nr;
	int ret;

	if (scan_read_shallow(repo, &shallow, &nr) < 0)
		return -1;
	if (!nr)
		return error("shallow clone: the history of %s is incomplete "
			     "(run 'git fetch --unshallow')", what);
	git_oid_tostr(hex, sizeof(hex), &shallow[0]);
	ret = error("shallow clone: the history of %s stops at %.12s "
		    "(run 'git fetch --unshallow')", what, hex);
	free(shallow);
	return ret;
}
