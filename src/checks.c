#include "checks.h"
#include "apply.h"
#include "error.h"
#include "soak.h"
#include "strbuf.h"
#include "trace.h"
#include "util.h"

#include <string.h>
#include <time.h>

#define DAY (24 * 60 * 60)

static void format_day(char *buf, size_t size, git_time_t t)
{
	time_t tt = (time_t)t;
	struct tm tm;

	gmtime_r(&tt, &tm);
	strftime(buf, size, "%Y-%m-%d", &tm);
}

static int wants_soak(const struct candidate *c)
{
	const struct subsystem *s = candidate_subsystem(c);

	/* needs-ack stays: the ack is the first thing to get, soak or not. */
	return s && (s->soak_release || s->soak_days) &&
	       c->verdict == VERDICT_PROPOSED;
}

struct soak_ctx {
	git_repository *repo;
	const git_oid *upstream;
	const struct ruleset *rules;	/* how tags name releases */
	const struct soak_tags *painted;	/* or NULL */
	struct soak_tags tags;		/* loaded when first needed */
	int loaded;
};

/* Sets c waiting when its subsystem's soak policy is not met yet. */
static int first_tag(struct soak_ctx *x, const struct candidate *c,
		     int releases_only, const char **tag, git_time_t *when)
{
	if (c->soak_settled && x->painted) {
		soak_mark_first(x->painted, &c->soak, releases_only, tag, when);
		return 0;
	}
	if (!x->loaded) {
		x->loaded = 1;
		if (soak_tags_load(&x->tags, x->repo, x->upstream, x->rules) < 0)
			return -1;
	}
	return soak_first_tag(&x->tags, x->repo, &c->id, releases_only, tag,
			      when);
}

static int soak_one(struct soak_ctx *x, git_time_t now, struct candidate *c)
{
	git_repository *repo = x->repo;
	const struct subsystem *s = candidate_subsystem(c);
	git_commit *commit = NULL;
	const char *tag = NULL;
	git_time_t when = 0, ready;
	char day[16];

	if (s->soak_release) {
		if (first_tag(x, c, 1, &tag, &when) < 0)
			return -1;
		if (!tag) {
			if (first_tag(x, c, 0, &tag, &when) < 0)
				return -1;
			free(c->why);
			c->why = tag ? xstrfmt("%s waits for a release: in %s, not in "
					       "a release tag yet", s->name, tag)
				     : xstrfmt("%s waits for a release: in no "
					       "release tag yet", s->name);
			c->verdict = VERDICT_WAITING;
			return 0;
		}
	}
	if (!s->soak_days)
		return 0;
	if (git_commit_lookup(&commit, repo, &c->id) < 0)
		return error_git("cannot read commit %s", c->hex);
	ready = git_commit_time(commit) + (git_time_t)s->soak_days * DAY;
	git_commit_free(commit);
	if (ready <= now)
		return 0;
	format_day(day, sizeof(day), ready);
	free(c->why);
	c->why = xstrfmt("%s asks for %d days in mainline: qualifies on %s",
			 s->name, s->soak_days, day);
	c->verdict = VERDICT_WAITING;
	return 0;
}

static int run_soak(git_repository *repo, const git_oid *upstream,
		    const struct ruleset *rules, const struct soak_tags *painted,
		    struct candidate_list *l)
{
	struct soak_ctx x = { repo, upstream, rules, painted, { 0 }, 0 };
	git_commit *tip = NULL;
	git_time_t now = 0;
	size_t i;
	int ret = 0;

	soak_tags_init(&x.tags);
	for (i = 0; !ret && i < l->nr; i++) {
		if (!wants_soak(l->items[i]))
			continue;
		if (!tip) {
			if (git_commit_lookup(&tip, repo, upstream) < 0) {
				ret = error_git("cannot read the upstream tip");
				break;
			}
			now = git_commit_time(tip);
		}
		ret = soak_one(&x, now, l->items[i]);
	}
	git_commit_free(tip);
	soak_tags_release(&x.tags);
	return ret;
}

static int run_apply(git_repository *repo, const struct branch_index *branch,
		     struct candidate_list *l)
{
	const git_commit **picks = NULL;
	struct candidate **who = NULL;
	struct apply_result *res = NULL;
	git_commit *onto = NULL;
	size_t nr = 0, i, j;
	int ret = 0;

	for (i = 0; i < l->nr; i++) {
		enum verdict v = l->items[i]->verdict;

		nr += v == VERDICT_PROPOSED || v == VERDICT_NEEDS_ACK;
	}
	if (!nr)
		return 0;
	picks = xcalloc(nr, sizeof(*picks));
	who = xcalloc(nr, sizeof(*who));
	res = xcalloc(nr, sizeof(*res));
	for (i = 0, j = 0; i < l->nr; i++) {
		struct candidate *c = l->items[i];
		git_commit *commit;

		if (c->verdict != VERDICT_PROPOSED && c->verdict != VERDICT_NEEDS_ACK)
			continue;
		if (git_commit_lookup(&commit, repo, &c->id) < 0) {
			ret = error_git("cannot read commit %s", c->hex);
			goto out;
		}
		picks[j] = commit;
		who[j] = c;
		apply_result_init(&res[j]);
		j++;
	}
	if (git_commit_lookup(&onto, repo, &branch->tip) < 0) {
		ret = error_git("cannot read the tip of '%s'", branch->name);
		goto out;
	}
	ret = apply_series_check(res, repo, onto, picks, nr);
	for (i = 0; !ret && i < nr; i++) {
		who[i]->apply = res[i];
		who[i]->apply_checked = 1;
		apply_result_init(&res[i]);
	}
out:
	for (i = 0; i < nr; i++) {
		git_commit_free((git_commit *)picks[i]);
		apply_result_release(&res[i]);
	}
	git_commit_free(onto);
	free(picks);
	free(who);
	free(res);
	return ret;
}

int checks_run(git_repository *repo, const struct branch_index *branch,
	       const git_oid *upstream, const struct ruleset *rules,
	       const struct soak_tags *painted, struct candidate_list *l)
{
	if (run_soak(repo, upstream, rules, painted, l) < 0)
		return -1;
	trace_stage("soak");
	return run_apply(repo, branch, l);
}
