#ifndef CVE_H
#define CVE_H

#include <git2.h>

/*
 * The Linux kernel CVE team's published records: a checkout of the
 * vulns repository (git.kernel.org/pub/scm/linux/security/vulns.git),
 * of which two files of each record in cve/published/YEAR/ are read:
 *
 *   CVE-2021-46906.sha1   the mainline commits that fix it, one full
 *                         id a line
 *   CVE-2021-46906.dyad   the pairs vulnerable:fixed of each line of
 *                         releases, one a line, '#' comments:
 *
 *       2.6.12:1da177e4c3f4...:5.10.45:b1e3596416d7...
 *       5.13:50e2fc36e72d...:0:0
 *
 *     VERSION:ID:VERSION:ID, the release and commit that brought the
 *     bug in, then the release and commit that fixed it on that line;
 *     0:0 for "none" (not fixed there, or since an unknown commit).
 *
 * The .json and .mbox records add nothing stablepick needs.  A record
 * without a .dyad file has no pairs (what it fixes is then taken to be
 * in every branch).
 */
struct cve_pair {
	char *vulnerable_version;	/* "2.6.12"; "0" for none */
	char *fixed_version;		/* "5.10.45"; "0" for none */
	git_oid vulnerable, fixed;
	int has_vulnerable, has_fixed;	/* the ids are not 0 */
};

struct cve {
	char *id;			/* "CVE-2021-46906" */
	char *path;			/* of the .sha1 file, for messages */
	git_oid *fixes;			/* the mainline fixes */
	size_t nr_fixes;
	struct cve_pair *pairs;
	size_t nr_pairs;
};

struct cve_by_fix;

struct cve_set {
	struct cve *items;		/* by year, then number */
	size_t nr, alloc;
	struct cve_by_fix *by_fix;	/* uthash: fix id -> records */
};

void cve_set_init(struct cve_set *s);
void cve_set_release(struct cve_set *s);

/*
 * Reads the records of dir (a checkout holding cve/published/).
 * Returns 0, or -1 after printing "error: FILE:LINE: cause" for every
 * malformed line (the files are data someone published: none is
 * skipped silently).  Only regular files are read, of a megabyte at
 * most: a record's file that is anything else (a symbolic link, a
 * FIFO) is skipped, with a warning naming it and what it is.
 */
int cve_set_load(struct cve_set *s, const char *dir);

/*
 * Reads one record from its files' text (for tests and the loader):
 * name is "CVE-YEAR-N", paths name the files in messages; dyad may be
 * NULL.  Returns 0 or -1 after the errors.
 */
int cve_set_add(struct cve_set *s, const char *name, const char *sha1_path,
		const char *sha1, size_t sha1_len, const char *dyad_path,
		const char *dyad, size_t dyad_len);

/* Sorts the records (by year, then number) and indexes their fixes. */
void cve_set_finish(struct cve_set *s);

/* The records a commit fixes, in order: *out borrowed from s. */
size_t cve_set_fixed_by(const struct cve_set *s, const git_oid *id,
			const struct cve *const **out);

#endif
