#ifndef RULES_H
#define RULES_H

#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>
#include <stddef.h>

/*
 * Compiled rule files (see rules/README for the language).
 *
 *     struct ruleset rs;
 *     ruleset_init(&rs);
 *     if (ruleset_load_dir(&rs, "rules") < 0)
 *             ... every error was already printed as path:line: message ...
 *     for (size_t i = 0; i < rs.nr_rules; i++)
 *             switch (rule_match(&rs, &rs.rules[i], text, len, &m)) ...
 *     ruleset_release(&rs);
 *
 * The loader reports every error of a file, as "path:line: message" on
 * stderr, before it returns -1, so one run shows them all.
 */

enum rule_field {
	FIELD_SUBJECT,		/* the subject line */
	FIELD_BODY,		/* the message after the subject */
	FIELD_MESSAGE,		/* the whole message */
	FIELD_TRAILER,		/* each value of trailer `trailer` */
	FIELD_PATHS,		/* each touched path, one at a time */
	FIELD_FACT,		/* each fact the pipeline established */
	FIELD_REPLY,		/* each review reply in the list archives */
};

/*
 * The facts the pipeline establishes about a commit and the branch, one
 * word each, that rules on the field "fact" match (rule_fact_name()).
 * A fact rule whose pattern matches none of them is an error.
 */
enum rule_fact {
	FACT_FIXES_IN_BRANCH,	/* a Fixes: target is in the branch */
	FACT_FOLLOW_UP,		/* a Fixes: target is proposed in the run */
	FACT_REVERTS_PRESENT,	/* it reverts a commit the branch carries */
	FACT_PREREQUISITE,	/* a proposed commit needs it first */
	FACT_NAMED_BY_TEST,	/* a regression test names it as its fix */
	FACT_CVE,		/* the kernel's CVE records name it as a fix */
	FACT_IN_NEWER_BRANCH,	/* a newer branch of the run carries it */
	FACT__NR
};

/* "fixes-in-branch" ...; rule_fact_lookup() is the reverse, -1 if none. */
const char *rule_fact_name(enum rule_fact f);
int rule_fact_lookup(const char *name);

enum policy {
	POLICY_HEURISTIC,	/* heuristic picks are welcome */
	POLICY_OPT_IN,		/* only Cc: stable or an explicit ack */
	POLICY_IGNORE,		/* never propose from this subsystem */
};

/*
 * How far from 0 a weight or a threshold may be; the parser refuses
 * more.  The shipped rules use single digits, so a million is a typo
 * (or a try at overflow), and with the bound a score, a sum of weights
 * in 64 bits, stays exact whatever the number of rules: it would take
 * 9e12 of them to overflow.
 */
#define RULE_WEIGHT_MAX 1000000

struct rule {
	char *name;
	int weight;		/* signed; unused for a veto or a link */
	int veto;
	int link;		/* a link: its first group is a commit id */
	int backport;		/* a backport line: its group names upstream */
	enum rule_field field;
	char *trailer;		/* key for FIELD_TRAILER, as written */
	char *pattern;		/* the pattern as written, without slashes */
	char *flags;		/* the flags as written ("i", ""), never NULL */
	pcre2_code *re;
	/*
	 * "unless NAME[,NAME...]": the rule does not count for a commit
	 * that a rule of one of these names counted for (a rule above it,
	 * of its subsystem or a global one).
	 */
	char **unless;
	size_t nr_unless;
	const char *file;	/* borrowed from ruleset.files */
	unsigned lineno;
};

struct subsystem {
	char *name;		/* "*" for a template, see `paths` */
	/*
	 * Path specs: "fs/xfs/" (a directory and all below it) or a
	 * directory followed by a glob without '/' (files directly in that
	 * directory whose names match, e.g. every .c file of fs).  A
	 * template subsystem ("subsystem *") has a spec of a directory
	 * followed by "*" and "/", and stands for one subsystem per
	 * directory in it, named after it: see ruleset_add_derived().
	 */
	char **paths;
	size_t nr_paths, alloc_paths;
	enum policy policy;
	int has_policy;
	char **lists;		/* mailing lists */
	size_t nr_lists, alloc_lists;
	/*
	 * Addresses whose ack or NAK of a review thread counts (with the
	 * M: and R: of the tree's MAINTAINERS for the paths: review.h).
	 */
	char **maintainers;
	size_t nr_maintainers, alloc_maintainers;
	int soak_release;	/* wait for a mainline release tag */
	int soak_days;		/* wait this long in mainline; 0: no wait */
	int threshold;		/* used when has_threshold */
	int has_threshold;
	struct rule *rules;	/* rules that apply to this subsystem only */
	size_t nr_rules, alloc_rules;
	int is_template;
	const char *file;	/* where defined; NULL for derived */
	unsigned lineno;
	unsigned paths_lineno;	/* the line of `paths` */
	/*
	 * Its place in the definition order: defined subsystems first, in
	 * the order the files define them; derived ones after, by path
	 * (see subsystem_cmp()).  Subsystems never move in memory, so a
	 * pointer to one stays valid while the ruleset lives.
	 */
	size_t order;
};

struct rule_file {
	char *path;
	char *version;		/* the `version` directive, or NULL */
	int standalone;		/* it says `standalone` */
	/*
	 * Loaded as the base of a standalone directory: its subsystems
	 * and its cc were left out (ruleset_load_dirs()).
	 */
	int generic_only;
};

struct ruleset {
	struct rule_file *files;
	size_t nr_files, alloc_files;
	struct subsystem **subsystems;	/* in definition order, then derived */
	size_t nr_subsystems, alloc_subsystems;
	struct rule *rules;		/* global rules */
	size_t nr_rules, alloc_rules;
	/*
	 * How a commit names a commit whose bug it fixes ("link fixes
	 * trailer:Fixes /^([0-9a-f]{7,40})\b/i"): the pattern's group
	 * "id", else its first, is the id; the group "subject", else a
	 * quoted subject after the match, its subject.
	 */
	struct rule *links;
	size_t nr_links, alloc_links;
	/*
	 * How a backport names the upstream commit it stands for
	 * ("backport cherry-picked message /cherry picked from commit
	 * ([0-9a-f]{40})/i"): the group "id", else the first, every match
	 * of it; only a full 40-digit id counts (message_read_backports()).
	 */
	struct rule *backports;
	size_t nr_backports, alloc_backports;
	/*
	 * How tags name releases ("release-tags /^v(?<major>...)/"): the
	 * groups major (required), minor, rc (a release candidate) and
	 * stable (a stable release); NULL for the kernel's vX.Y, vX.Y-rcN
	 * and vX.Y.Z.
	 */
	pcre2_code *release_tags;
	char *release_tags_pattern;
	/* The proposal mail's Cc: when stablepick.cc is not set. */
	char **cc;
	size_t nr_cc, alloc_cc;
	int threshold;			/* global; default 10 */
	pcre2_match_context *mctx;
	pcre2_jit_stack *jit_stack;
	pcre2_match_data *md;
};

struct rule_match_result {
	size_t start, end;	/* byte offsets of the match in the text */
};

void ruleset_init(struct ruleset *rs);
void ruleset_release(struct ruleset *rs);

/*
 * Loads one file into rs.  Returns 0, or -1 after printing every error
 * of the file.  A subsystem name defined twice (in any loaded file) is
 * an error naming both places; templates ("subsystem *") may be many.
 */
int ruleset_load_file(struct ruleset *rs, const char *path);

/*
 * Loads default.rules from dir first, then every other "*.rules" file in
 * it in name order.  Returns 0 or -1 (after loading and reporting all).
 */
int ruleset_load_dir(struct ruleset *rs, const char *dir);

/*
 * The same for directories laid over each other: a file of a later
 * directory replaces the file of the same name of an earlier one, a
 * new name adds a file (an empty file takes one away).  The shipped
 * rules come first, then a project's or a user's.
 *
 * A directory one of whose files says `standalone` stands alone: of
 * the directories before it only default.rules is loaded (the last
 * one's, as always), and of it only what any project shares: the
 * threshold, links, release-tags, rules and vetoes, not its subsystems
 * nor its cc.  A default.rules of the standalone directory itself
 * replaces that one whole, as without it.
 */
int ruleset_load_dirs(struct ruleset *rs, const char *const *dirs, size_t nr);

struct sha1;
/*
 * Feeds ctx with the rule files ruleset_load_dirs() would read from
 * dirs: their paths and contents, in the order it reads them.
 */
void ruleset_digest_dirs(const char *const *dirs, size_t nr,
			 struct sha1 *ctx);

/* Parses rule-file text directly (for tests); name is used in messages. */
int ruleset_load_buffer(struct ruleset *rs, const char *name,
			const char *text, size_t len);

/*
 * Matches rule r against text.  Returns 1 (match; *res filled when not
 * NULL), 0 (no match), or -1 when the match gave up (match or depth
 * limit reached, e.g. on a catastrophically backtracking pattern); the
 * caller decides how to report that.  Never hangs.
 */
int rule_match(const struct ruleset *rs, const struct rule *r,
	       const char *text, size_t len, struct rule_match_result *res);

/*
 * Matches link or backport line r against text from offset start: 1 with the id at
 * [*id, *id + *id_len) and, when the pattern has a group "subject",
 * the subject at [*subject, ...), else *subject NULL; *end is where to
 * look for the next match.  0 when there is no more, -1 when the match
 * gave up.
 */
int rule_match_link(const struct ruleset *rs, const struct rule *r,
		    const char *text, size_t len, size_t start,
		    const char **id, size_t *id_len, const char **subject,
		    size_t *subject_len, size_t *end);

/*
 * Parses a tag name with the rules' release-tags pattern (or the
 * kernel's): 0 for a release or a release candidate (*rc > 0), 1 for a
 * stable release, -1 for any other tag.
 */
int ruleset_parse_tag(const struct ruleset *rs, const char *name,
		      int *major, int *minor, int *rc);

/* Finds a subsystem by name; NULL if none. */
struct subsystem *ruleset_subsystem(const struct ruleset *rs, const char *name);

/*
 * Adds a subsystem derived from a template for directory `dir` (e.g.
 * name "ext4", path "fs/ext4/"), copying the template's policy, lists,
 * threshold and rules.  If a subsystem of that name already exists, it
 * is returned: a defined one without paths gets the derived path and
 * keeps everything else; a derived one gets the path too when it is
 * new (a directory of the same name under another template's
 * directory).  Returns the subsystem, whose address never changes.
 */
struct subsystem *ruleset_add_derived(struct ruleset *rs,
				      const struct subsystem *tmpl,
				      const char *name, const char *path);

/*
 * The order of subsystems: defined ones first, in definition order,
 * then derived ones by their first path.  The same whatever order the
 * derived ones were made in (a walk, a cache), so that a commit's
 * primary subsystem does not depend on it.
 */
int subsystem_cmp(const struct subsystem *a, const struct subsystem *b);

/*
 * 1 if a path spec of sub names path (a file's path in the tree): a
 * directory spec ("src/") whatever is below it, a glob after a
 * directory ("*.c" after "src/") the files directly in it that match,
 * a template's spec whatever is in a directory of its directory.
 * Whatever the subsystem's policy.
 */
int subsystem_watches(const struct subsystem *sub, const char *path);

/* 1 if a subsystem of rs watches path, 0 if none does. */
int ruleset_watches(const struct ruleset *rs, const char *path);

/*
 * 1 if a path spec of rs names something inside dir (len bytes, with
 * its trailing '/'), so that a file of dir that no subsystem watches is
 * a gap of dir itself, not of all of it.
 */
int ruleset_watches_in(const struct ruleset *rs, const char *dir, size_t len);

/* The effective threshold and policy of a subsystem (or the global ones). */
int ruleset_threshold(const struct ruleset *rs, const struct subsystem *s);

const char *policy_name(enum policy p);
const char *rule_field_name(enum rule_field f);

#endif
