#ifndef MATCH_INTERNAL_H
#define MATCH_INTERNAL_H

#include <uthash.h>

#include "stages/match.h"
#include "git/renames.h"

/*
 * Between the files of the presence engine: match.c (the methods that
 * look for a commit in the branch), match-mainline.c (the other way:
 * which mainline commit a pick stands for) and match-files.c (the
 * names of the files a change touches, the files the branch has).
 * The indexes that struct match keeps, and the functions more than one
 * of them calls.  Not an API: the rest of stablepick uses match.h.
 */

void match_ancestry_free(struct match_ancestry *a);

/* The candidates of the scanned range by subject. */
struct match_subject {
	const char *subject;		/* borrowed from the first's message */
	struct candidate *first;
	size_t count;
	UT_hash_handle hh;
};

/* What a branch commit is known to stand for. */
struct match_tie {
	git_oid commit;
	git_oid named;			/* the first id its upstream lines name */
	int has_named;
	struct candidate *cand;		/* the candidate it was found to be */
	UT_hash_handle hh;
};

/* The names of the files a commit changes, sorted, for subjects. */
struct match_files {
	git_oid id;
	char **names;
	size_t nr;
	int former;			/* with the former names of a candidate's
					   files (match_files_of_candidate()) */
	UT_hash_handle hh;
};

/* The renames of a commit of the range (git/renames.h), read when needed. */
struct match_renames {
	git_oid id;
	struct renames renames;
	UT_hash_handle hh;
};

/* The paths of the files of one name in the branch tip. */
struct match_tip_name {
	char *name;
	char **paths;
	size_t nr, alloc;
	UT_hash_handle hh;
};

/* A candidate of the range by an upstream id it names itself. */
struct match_upstream {
	git_oid id;
	struct candidate *cand;
	UT_hash_handle hh;
};

/* The names of the files under a subsystem's directories in the branch. */
struct match_names {
	const struct subsystem *sub;
	char **names;			/* sorted */
	size_t nr, alloc;
	UT_hash_handle hh;
};

/*
 * Whether the branch tip has a path, by path: a warm run asks the paths
 * of tens of thousands of candidates, many the same, and each answer
 * walks the tip's trees down to it.
 */
struct match_has_path {
	char *path;
	int has;
	UT_hash_handle hh;
};

/* A question: one candidate of a list, with what the list established. */
struct match_question {
	struct candidate *c;
	int below;			/* in the range below the base */
};

/*
 * A presence method: a row of match_methods[] (match.c), in the order
 * the methods are asked; match.h lists them and what else a new one
 * touches.
 */
struct match_method {
	enum evidence_kind kind;	/* its evidence; evidence_kind_name() */
	/*
	 * Looks for q's candidate in the branch: adds its evidence and
	 * says whether that decided (match.c's enum found), or -1 after
	 * an error message.
	 */
	int (*find)(struct match *m, struct match_question *q);
	int second_pass;		/* once the first pass asked all */
	/*
	 * For a method asked before the patch-id method, or NULL: whether
	 * it places c at no cost (no diff read), so that c's patch-id is
	 * not computed ahead for the patch-id method (it may guess: only
	 * work moves).
	 */
	int (*places)(const struct match *m, const struct candidate *c,
		      int below);
	/*
	 * For a method that only ever gives maybe-present, or NULL: what
	 * the verdict says when the candidate has no evidence to quote.
	 */
	const char *maybe;
	/*
	 * The other way, for match_mainline(), or NULL: 1 with *out
	 * filled but for out->how, 0 when it finds nothing, -1 after an
	 * error message (match-mainline.c).
	 */
	int (*find_mainline)(struct match *m, const struct match_pick *p,
			     struct match_found *out);
};

extern const struct match_method match_methods[];
extern const size_t match_nr_methods;

/* The finders of match_mainline(), for the rows (match-mainline.c). */
int match_mainline_by_upstream_line(struct match *m, const struct match_pick *p,
				    struct match_found *out);
int match_mainline_by_patch_id(struct match *m, const struct match_pick *p,
			       struct match_found *out);
int match_mainline_by_subject(struct match *m, const struct match_pick *p,
			      struct match_found *out);

/* Fills m->subjects, the range's candidates by subject (match.c). */
void match_build_subjects(struct match *m);

/*
 * Whether commit id has the patch-id want: 1 or 0 (0 too when it has
 * no diff to compare), -1 after an error.
 */
int match_same_patch(struct match *m, const git_oid *id, const git_oid *want);

/* Ties every branch commit that names an upstream commit, once (match.c). */
void match_tie_named(struct match *m);

/*
 * The names of the files a commit changes (a rename moves a file, it
 * keeps its name), sorted; none for a merge (match-files.c).
 */
const struct match_files *match_files_of(struct match *m, const git_oid *id);

/*
 * match_files_of() for candidate c, with the names its files had before
 * the renames of the range (match_renamed_from()): a branch commit that
 * changed arc_summary3 changed the file c knows as arc_summary.  NULL
 * after an error message.
 */
const struct match_files *match_files_of_candidate(struct match *m,
						   const struct candidate *c);

/* Frees a struct match_renames (match_release()). */
void match_renames_free(struct match_renames *r);

/* Frees a struct match_tip_name (match_release()). */
void match_tip_name_free(struct match_tip_name *n);

/* The paths of a mail's diff: its "--- a/X" and "+++ b/Y" lines. */
void match_diff_paths(const char *diff, char ***paths, size_t *nr);

/* The names of the files a mail's diff changes, sorted. */
void match_files_of_diff(const char *diff, char ***names, size_t *nr);

/* Whether two sorted lists of names have one in common. */
int match_share_a_name(char *const *a, size_t na, char *const *b, size_t nb);

#endif
