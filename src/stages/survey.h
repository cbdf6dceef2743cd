#ifndef SURVEY_H
#define SURVEY_H

#include <git2.h>
#include <stddef.h>

/*
 * What `rules init` finds in a repository to write a starter overlay
 * from: the directories of mainline's tree (a subsystem each), the
 * forms of backport lines and of lines that name a fixed commit that
 * the messages of the branch and of mainline use, with their counts,
 * and how the tags name releases.
 *
 *     struct survey s;
 *     survey_init(&s);
 *     if (survey_tree(&s, repo, &upstream, NULL) < 0 ||
 *         survey_messages(&s, repo, &upstream, &base, 0, 0) < 0 ||
 *         survey_messages(&s, repo, &branch, &base, 1, 0) < 0 ||
 *         survey_tags(&s, repo) < 0)
 *             ... error printed ...
 *     ... s.dirs, s.forms, s.links, s.tags_pattern ...
 *     survey_release(&s);
 */

/* A directory of the tree, and the subsystem name it gets. */
struct survey_dir {
	char *name;
	char *path;		/* "libmount/", with its slash */
};

/*
 * A known form of backport line, as the `backport NAME FIELD
 * /PATTERN/FLAGS` directive would read it, and how many messages of
 * each side carry it.
 */
struct survey_form {
	const char *name;
	const char *field;	/* "body" or "trailer:KEY" */
	const char *pattern;	/* the id is the group "id" */
	const char *flags;
	const char *shown;	/* the line as people write it */
	size_t mainline, branch;
};

/* A "Key: <commit id>" line other than a backport line. */
struct survey_link {
	char *key;		/* as first met ("Fixes") */
	size_t mainline, branch;
};

struct survey {
	struct survey_dir *dirs;	/* in tree order */
	size_t nr_dirs, alloc_dirs;
	size_t top_files;		/* files at the top of the tree */
	size_t odd_dirs;		/* names no path spec can hold */
	struct survey_form *forms;	/* every known form, found or not */
	size_t nr_forms;
	struct survey_link *links;	/* most messages first */
	size_t nr_links, alloc_links;
	size_t mainline, branch;	/* the messages read on each side */
	size_t tags;			/* tags of the repository */
	size_t tags_matched;		/* of which tags_pattern reads */
	char *tags_pattern;		/* NULL when no tag looks like one */
	char *tag_examples[4];		/* the last ones by version */
	size_t nr_tag_examples;
	/*
	 * The next most common prefix: how many tags have it, and the
	 * newest of them (NULL if none), which the pattern does not read.
	 */
	size_t tags_other;
	char *tag_other_example;
};

void survey_init(struct survey *s);
void survey_release(struct survey *s);

/*
 * One subsystem per directory at the top of tip's tree (names starting
 * with '.' aside), or, with spec (a template's spec: a directory, then
 * a star and a slash), one per directory of that directory.  Returns
 * 0, or -1 after an error message.
 */
int survey_tree(struct survey *s, git_repository *repo, const git_oid *tip,
		const char *spec);

/*
 * Counts the forms and links in the messages of hide..tip (hide may be
 * NULL: then at most max commits, newest first, when max is not 0),
 * merges aside, as the branch's side or mainline's.  Returns 0, or -1
 * after an error message.
 */
int survey_messages(struct survey *s, git_repository *repo,
		    const git_oid *tip, const git_oid *hide, int branch,
		    size_t max);

/* Sorts s->links: most messages first, then by key. */
void survey_sort(struct survey *s);

/*
 * Guesses a release-tags pattern from the tag names: the most common
 * prefix before MAJOR.MINOR, then .STABLE and -rcN optional.  Returns 0,
 * or -1 after an error message.
 */
int survey_tags(struct survey *s, git_repository *repo);

#endif
