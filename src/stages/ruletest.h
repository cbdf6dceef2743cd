#ifndef RULETEST_H
#define RULETEST_H

#include "candidate/candidate.h"
#include "formats/rules.h"
#include "base/strbuf.h"

/*
 * Trying rules on commit messages without a repository: what a rule
 * author runs before changing a weight.  The messages come as JSON
 * Lines, one object a line:
 *
 *     {"subject": "xfs: fix ...", "message": "xfs: fix ...\n\n...",
 *      "subsystem": "xfs", "paths": ["fs/xfs/xfs_log.c"],
 *      "facts": ["fixes-in-branch"], "fix": true}
 *
 * subject or message is needed (the subject is the message's first line
 * when it is missing); subsystem (a defined one, or a directory name a
 * template stands for: "ext2" for fs/ext2/), paths and facts are
 * optional, for the rules on those fields (paths do not choose the
 * subsystem).  With a label field, each message is
 * positive (true, 1, "yes", "positive"), negative (false, 0, "no",
 * "negative") or unlabelled (null, missing).
 *
 *     struct ruletest t;
 *     ruletest_init(&t, &rules, "fix");
 *     if (ruletest_read(&t, "messages.jsonl") < 0)
 *             ... every bad line was reported as file:line: message ...
 *     ruletest_score(&t);
 *     report_ruletest_text(&out, &t, RULETEST_MESSAGES | RULETEST_SWEEP);
 *     ruletest_release(&t);
 *
 * A message is picked when its score reaches the threshold (its
 * subsystem's, else the global one) and no veto matched.  Facts the
 * pipeline would establish against a branch (fixes-in-branch, ...) are
 * only those a line gives.
 */

enum ruletest_label { LABEL_NONE = -1, LABEL_NEGATIVE, LABEL_POSITIVE };

struct ruletest_item {
	struct candidate *c;
	size_t lineno;
	enum ruletest_label label;
	int picked;
};

/* What one rule did over all the messages. */
struct ruletest_rule {
	const struct rule *rule;
	const char *scope;		/* its subsystem's name, or NULL */
	size_t hits, positive, negative;
};

struct ruletest {
	struct ruleset *rules;
	const char *label;		/* the label field, or NULL */
	const char *path;		/* for messages: file:line */
	struct candidate_list cands;	/* one per message, in order */
	struct ruletest_item *items;
	size_t nr, alloc;
	struct ruletest_rule *stats;
	size_t nr_stats, alloc_stats;
	size_t positives, negatives;
};

void ruletest_init(struct ruletest *t, struct ruleset *rules,
		   const char *label);
void ruletest_release(struct ruletest *t);

/*
 * Reads the messages of path ("-": standard input).  Every line that is
 * not a JSON object, lacks a message, names an unknown subsystem or
 * holds a label that is neither positive nor negative is reported as
 * "path:line: why" and the others are read; returns -1 when there was
 * one, else 0.
 */
int ruletest_read(struct ruletest *t, const char *path);

/* Scores every message and counts what each rule did. */
void ruletest_score(struct ruletest *t);

#endif
