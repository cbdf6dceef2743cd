#include "run/multirun.h"
#include "base/error.h"
#include "base/util.h"

#include <stdlib.h>
#include <string.h>

static int is_glob(const char *s)
{
	return strpbrk(s, "*?[") != NULL;
}

int multirun_expand(struct run_context *ctx, const char *const *specs,
		    size_t nr, char ***names, size_t *nr_names)
{
	size_t alloc = 0, i;
	char *name;
	int ret = 0;

	*names = NULL;
	*nr_names = 0;
	if (nr && (run_open_repo(ctx) < 0 || run_check_history(ctx->repo) < 0))
		return -1;
	for (i = 0; !ret && i < nr; i++) {
		if (is_glob(specs[i])) {
			ret = branch_glob(ctx->repo, specs[i], names, nr_names,
					  &alloc);
			continue;
		}
		ret = branch_resolve_name(&name, ctx->repo, specs[i], NULL);
		if (!ret)
			add_string_once(names, nr_names, &alloc, name);
		free(name);
	}
	if (ret) {
		free_string_array(*names, *nr_names);
		*names = NULL;
		*nr_names = 0;
	}
	return ret;
}

struct ordered {
	char *name;
	int major, minor;
	size_t given;
};

static int cmp_newest(const void *a, const void *b)
{
	const struct ordered *x = a, *y = b;

	if ((x->major < 0) != (y->major < 0))
		return x->major < 0 ? 1 : -1;
	if (x->major != y->major)
		return x->major > y->major ? -1 : 1;
	if (x->minor != y->minor)
		return x->minor > y->minor ? -1 : 1;
	return x->given < y->given ? -1 : x->given > y->given;
}

void multirun_order(struct run_context *ctx, char **names, size_t nr)
{
	struct ordered *v = xcalloc(nr ? nr : 1, sizeof(*v));
	size_t i;

	for (i = 0; i < nr; i++) {
		char *set = ctx->repo ?
			config_branch_get(&ctx->config, names[i], "version") :
			NULL;

		v[i].name = names[i];
		v[i].given = i;
		if (branch_parse_version(set ? set : names[i], &v[i].major,
					 &v[i].minor) < 0)
			v[i].major = v[i].minor = -1;
		free(set);
	}
	QSORT(v, nr, cmp_newest);
	for (i = 0; i < nr; i++)
		names[i] = v[i].name;
	free(v);
}

/* Whether the branch of b is of a newer version than that of a. */
static int newer_than(const struct branch_index *b,
		      const struct branch_index *a)
{
	if (b->major < 0 || a->major < 0)
		return 0;
	return b->major > a->major ||
	       (b->major == a->major && b->minor > a->minor);
}

/*
 * Whether the branch of r took commit id after its base: a backport
 * that presence found (an upstream line, patch-id, ...).  A commit
 * below its base is in it too, but only as mainline history: that
 * says nothing of the commit being a fix.
 */
static int taken_by(const struct run *r, const git_oid *id)
{
	const struct candidate *c =
		candidate_list_find(&r->scan.candidates, id);

	return c && c->present && !candidate_evidence(c, EVIDENCE_ANCESTOR);
}

void multirun_mark_newer(struct run *run, const struct run *newer, size_t nr)
{
	struct candidate_list *l = &run->scan.candidates;
	size_t i, j;

	for (i = 0; i < l->nr; i++) {
		for (j = 0; j < nr; j++) {
			if (newer_than(&newer[j].branch, &run->branch) &&
			    taken_by(&newer[j], &l->items[i]->id)) {
				candidate_add_fact(l->items[i],
						   FACT_IN_NEWER_BRANCH);
				break;
			}
		}
	}
}

/* Whether the run has the branch take c: proposed, needs-ack, accepted. */
static int takes(const struct candidate *c)
{
	return c->verdict == VERDICT_PROPOSED ||
	       c->verdict == VERDICT_NEEDS_ACK ||
	       c->verdict == VERDICT_ACCEPTED;
}

void multirun_flag_newer_lacking(struct run *run, const struct run *newer,
				 size_t nr)
{
	struct candidate_list *l = &run->scan.candidates;
	size_t i, j;

	for (i = 0; i < l->nr; i++) {
		struct candidate *c = l->items[i];

		if (c->present || !takes(c))
			continue;
		for (j = 0; j < nr; j++) {
			const struct candidate *there;

			if (!newer_than(&newer[j].branch, &run->branch))
				continue;
			there = candidate_list_find(&newer[j].scan.candidates,
						    &c->id);
			if (!there || there->present || there->maybe_present ||
			    takes(there))
				continue;
			ALLOC_GROW(c->newer_lacking, c->nr_newer_lacking,
				   c->alloc_newer_lacking);
			c->newer_lacking[c->nr_newer_lacking].branch =
				newer[j].branch.name;
			c->newer_lacking[c->nr_newer_lacking++].verdict =
				there->verdict;
		}
	}
}
