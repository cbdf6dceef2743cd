/*
 * The branch a --branch value names, found as git checkout finds one:
 * the name as given when it resolves, else the remote-tracking branch
 * of that name of the one remote that has it; and the names near a
 * misspelt one.
 */
#include "stages/branch.h"
#include "base/error.h"
#include "git/malformed.h"
#include "stages/scan.h"
#include "base/strbuf.h"
#include "base/util.h"

#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

int branch_list_names(git_repository *repo, char ***out, size_t *nr)
{
	git_branch_iterator *it;
	git_reference *ref;
	git_branch_t type;
	size_t alloc = 0;
	int ret;

	*out = NULL;
	*nr = 0;
	if (git_branch_iterator_new(&it, repo, GIT_BRANCH_ALL) < 0)
		return error_git("cannot list the branches");
	while (!(ret = git_branch_next(&ref, &type, it))) {
		/* "origin/HEAD" is no branch of its own. */
		if (git_reference_type(ref) == GIT_REFERENCE_DIRECT)
			add_string_once(out, nr, &alloc,
					git_reference_shorthand(ref));
		git_reference_free(ref);
	}
	git_branch_iterator_free(it);
	if (ret != GIT_ITEROVER) {
		free_string_array(*out, *nr);
		*out = NULL;
		*nr = 0;
		return error_git("cannot list the branches");
	}
	git_error_clear();
	QSORT(*out, *nr, cmp_str);
	return 0;
}

/* "origin/X" of "refs/remotes/origin/X". */
static const char *remote_short(const char *refname)
{
	skip_prefix(refname, "refs/remotes/", &refname);
	return refname;
}

/* The remote-tracking branches of one name, one per remote. */
struct tracking {
	char **refs;		/* full names, "refs/remotes/origin/X" */
	char **remotes;		/* "origin" */
	size_t nr, alloc, alloc_remotes;
};

static void tracking_release(struct tracking *t)
{
	free_string_array(t->refs, t->nr);
	free_string_array(t->remotes, t->nr);
	memset(t, 0, sizeof(*t));
}

/*
 * The names of the remotes configured (a key "remote.NAME.url" or
 * "remote.NAME.pushurl"), read entry by entry: git_remote_list()
 * matches with a regex whose match data libgit2 1.5 never frees.
 */
static void remote_names(git_repository *repo, char ***names, size_t *nr)
{
	git_config *cfg = NULL;
	git_config_iterator *it = NULL;
	git_config_entry *e;
	size_t alloc = 0;

	*names = NULL;
	*nr = 0;
	if (git_repository_config_snapshot(&cfg, repo) < 0 ||
	    git_config_iterator_new(&it, cfg) < 0) {
		git_config_free(cfg);
		git_error_clear();
		return;
	}
	while (!git_config_next(&e, it)) {
		const char *dot = strrchr(e->name, '.');

		if (!strncasecmp(e->name, "remote.", 7) && dot > e->name + 7 &&
		    (!strcasecmp(dot, ".url") || !strcasecmp(dot, ".pushurl"))) {
			char *name = xstrndup(e->name + 7,
					      (size_t)(dot - e->name - 7));

			add_string_once(names, nr, &alloc, name);
			free(name);
		}
	}
	git_config_iterator_free(it);
	git_config_free(cfg);
	git_error_clear();
}

static int is_remote(char *const *remotes, size_t nr, const char *s,
		     size_t len)
{
	size_t i;

	for (i = 0; i < nr; i++)
		if (strlen(remotes[i]) == len && !strncmp(remotes[i], s, len))
			return 1;
	return 0;
}

/*
 * The refs refs/remotes/REMOTE/name: REMOTE a configured remote, or
 * one word (the refs of a fetch without a remote configured).
 */
static int find_tracking(struct tracking *t, git_repository *repo,
			 const char *name)
{
	git_reference_iterator *it;
	git_reference *ref;
	char **remotes;
	size_t len = strlen(name), nr_remotes;
	int ret;

	memset(t, 0, sizeof(*t));
	if (git_reference_iterator_glob_new(&it, repo, "refs/remotes/*") < 0)
		return error_git("cannot list the remote-tracking branches");
	remote_names(repo, &remotes, &nr_remotes);
	while (!(ret = git_reference_next(&ref, it))) {
		const char *rest = remote_short(git_reference_name(ref));
		size_t n = strlen(rest);

		if (git_reference_type(ref) == GIT_REFERENCE_DIRECT &&
		    n > len + 1 && rest[n - len - 1] == '/' &&
		    !strcmp(rest + n - len, name) &&
		    (is_remote(remotes, nr_remotes, rest, n - len - 1) ||
		     !memchr(rest, '/', n - len - 1))) {
			ALLOC_GROW(t->refs, t->nr + 1, t->alloc);
			ALLOC_GROW(t->remotes, t->nr + 1, t->alloc_remotes);
			t->refs[t->nr] = xstrdup(git_reference_name(ref));
			t->remotes[t->nr++] = xstrndup(rest, n - len - 1);
		}
		git_reference_free(ref);
	}
	git_reference_iterator_free(it);
	free_string_array(remotes, nr_remotes);
	if (ret != GIT_ITEROVER) {
		tracking_release(t);
		return error_git("cannot list the remote-tracking branches");
	}
	git_error_clear();
	return 0;
}

/* The one of t that checkout.defaultRemote names, or -1. */
static int default_remote(git_repository *repo, const struct tracking *t)
{
	git_config *cfg = NULL;
	const char *remote = NULL;
	int found = -1;
	size_t i;

	if (!git_repository_config_snapshot(&cfg, repo) &&
	    !git_config_get_string(&remote, cfg, "checkout.defaultRemote"))
		for (i = 0; found < 0 && i < t->nr; i++)
			if (!strcmp(t->remotes[i], remote))
				found = (int)i;
	git_config_free(cfg);
	git_error_clear();
	return found;
}

/*
 * The name to use for a full ref: its short name when that resolves to
 * it ("origin/X"), else the full one (a local branch "origin/X" hides
 * the remote's).
 */
static char *usable_name(git_repository *repo, const char *refname)
{
	const char *shorthand = remote_short(refname);
	git_reference *ref = NULL;
	char *out;

	if (!git_reference_dwim(&ref, repo, shorthand) &&
	    !strcmp(git_reference_name(ref), refname))
		out = xstrdup(shorthand);
	else
		out = xstrdup(refname);
	git_reference_free(ref);
	git_error_clear();
	return out;
}

static void for_what(struct strbuf *sb, const char *name, const char *what)
{
	strbuf_addf(sb, "branch '%s'", name);
	if (what)
		strbuf_addf(sb, " for %s", what);
}

static int ambiguous(const struct tracking *t, const char *name,
		     const char *what)
{
	struct strbuf msg = STRBUF_INIT;
	size_t i;
	int ret;

	for_what(&msg, name, what);
	strbuf_addstr(&msg, " is ambiguous: it is ");
	for (i = 0; i < t->nr; i++)
		strbuf_addf(&msg, "%s'%s'", !i ? "" : i + 1 < t->nr ? ", " :
			    " and ", remote_short(t->refs[i]));
	ret = error("%s; name one", msg.buf);
	strbuf_release(&msg);
	return ret;
}

/*
 * The branches near name: each by its short name and by what follows
 * each '/' in it, so that "origin/linux-6.6.y" is near "linux-6.6y"
 * (and shown as it is, which resolves), unless a branch of its own has
 * that name; and each near what follows a '/' in name.
 */
static void hint_branches(git_repository *repo, const char *name)
{
	struct suggest sg = SUGGEST_INIT;
	const char *p;
	char **all;
	size_t nr, i;

	if (branch_list_names(repo, &all, &nr) < 0)
		return;
	for (i = 0; i < nr; i++) {
		suggest_offer(&sg, name, all[i], all[i]);
		/* "linux-6.6.y" for "origin/linux-6.6.y" without a remote. */
		for (p = strchr(name, '/'); p; p = strchr(p + 1, '/'))
			suggest_offer(&sg, p + 1, all[i], all[i]);
		for (p = strchr(all[i], '/'); p; p = strchr(p + 1, '/')) {
			const char *tail = p + 1;

			/* "master" near "mastr", not also "origin/master". */
			if (!bsearch(&tail, all, nr, sizeof(*all), cmp_str))
				suggest_offer(&sg, name, tail, all[i]);
		}
	}
	suggest_hint(&sg);
	suggest_release(&sg);
	free_string_array(all, nr);
}

int branch_resolve_name(char **out, git_repository *repo, const char *name,
			const char *what)
{
	struct strbuf msg = STRBUF_INIT;
	struct tracking t;
	git_oid id;
	int ret, pick;

	*out = NULL;
	ret = malformed_revparse(&id, repo, name);
	git_error_clear();
	/* What resolves, or fails otherwise, is the branch's reader's. */
	if (ret != GIT_ENOTFOUND) {
		*out = xstrdup(name);
		return 0;
	}
	for_what(&msg, name, what);
	ret = scan_ref_error(repo, name, msg.buf, 1);
	if (!ret && (ret = find_tracking(&t, repo, name)) == 0) {
		pick = t.nr == 1 ? 0 : default_remote(repo, &t);
		if (pick >= 0) {
			*out = usable_name(repo, t.refs[pick]);
			say("%s taken as '%s'", msg.buf, *out);
		} else if (t.nr) {
			ret = ambiguous(&t, name, what);
		} else {
			ret = error("unknown %s", msg.buf);
			hint_branches(repo, name);
		}
		tracking_release(&t);
	}
	strbuf_release(&msg);
	return ret;
}

int branch_glob(git_repository *repo, const char *glob, char ***names,
		size_t *nr, size_t *alloc)
{
	char **all, **tails = NULL, **remotes, *name;
	size_t nr_all, nr_tails = 0, alloc_tails = 0, nr_remotes, i, j, seen;
	size_t before = *nr;
	int ret = 0;

	if (branch_list_names(repo, &all, &nr_all) < 0)
		return -1;
	for (i = 0; i < nr_all; i++)
		if (!fnmatch(glob, all[i], 0))
			add_string_once(names, nr, alloc, all[i]);
	remote_names(repo, &remotes, &nr_remotes);
	/*
	 * A remote's branch by its name alone, as --branch NAME takes it,
	 * unless a local branch has that name.
	 */
	for (i = 0; !ret && i < nr_all; i++) {
		const char *tail = NULL;

		for (j = 0; !tail && j < nr_remotes; j++)
			if (skip_prefix(all[i], remotes[j], &tail) &&
			    *tail++ != '/')
				tail = NULL;
		if (!tail || fnmatch(glob, tail, 0) ||
		    bsearch(&tail, all, nr_all, sizeof(*all), cmp_str))
			continue;
		seen = nr_tails;
		add_string_once(&tails, &nr_tails, &alloc_tails, tail);
		if (seen == nr_tails)
			continue;
		ret = branch_resolve_name(&name, repo, tail, NULL);
		if (!ret)
			add_string_once(names, nr, alloc, name);
		free(name);
	}
	free_string_array(remotes, nr_remotes);
	free_string_array(tails, nr_tails);
	free_string_array(all, nr_all);
	if (!ret && *nr == before)
		ret = error("no branch matches '%s'", glob);
	return ret;
}
