#include "report/report-matrix.h"
#include "base/util.h"

#include <string.h>

struct row {
	const struct candidate *c;	/* the first branch's that has it */
};

static int cmp_row(const void *a, const void *b)
{
	const struct row *x = a, *y = b;

	if (x->c->time != y->c->time)
		return x->c->time < y->c->time ? -1 : 1;
	return memcmp(x->c->id.id, y->c->id.id, GIT_OID_RAWSZ);
}

const char *report_matrix_cell(const struct report *r,
			       const struct candidate_list *l,
			       const git_oid *id, int *flagged)
{
	const struct candidate *c = candidate_list_find(l, id);

	*flagged = 0;
	if (c) {
		*flagged = c->nr_newer_lacking > 0;
		return verdict_name(c->verdict);
	}
	/* Not of its range: below its base (the ranges end at upstream). */
	return scan_in_range(r->scan, id) == 1 ? "-" : "present";
}

size_t report_matrix_rows(const struct report *reports,
			  const struct candidate_list *const *lists, size_t nr,
			  const struct candidate ***out)
{
	struct row *rows = NULL;
	size_t nr_rows = 0, alloc = 0, i, j, k;

	/* The rows: a commit any branch lists, once. */
	for (i = 0; i < nr; i++) {
		for (j = 0; j < lists[i]->nr; j++) {
			const struct candidate *c = lists[i]->items[j];

			if (!report_shows(&reports[i], c))
				continue;
			/* Added by an earlier branch that lists it too. */
			for (k = 0; k < i; k++) {
				const struct candidate *o =
					candidate_list_find(lists[k], &c->id);

				if (o && report_shows(&reports[k], o))
					break;
			}
			if (k < i)
				continue;
			ALLOC_GROW(rows, nr_rows, alloc);
			rows[nr_rows++].c = c;
		}
	}
	QSORT(rows, nr_rows, cmp_row);
	*out = xcalloc(nr_rows + 1, sizeof(**out));
	for (k = 0; k < nr_rows; k++)
		(*out)[k] = rows[k].c;
	free(rows);
	return nr_rows;
}

void report_matrix(struct strbuf *out, const struct report *reports,
		   const struct candidate_list *const *lists, size_t nr)
{
	const struct candidate **rows;
	size_t nr_rows, i, j, k, flagged_rows = 0;
	int *width = xcalloc(nr ? nr : 1, sizeof(*width));

	for (i = 0; i < nr; i++) {
		if (i)
			strbuf_addch(out, '\n');
		report_header(out, &reports[i], lists[i]);
	}
	nr_rows = report_matrix_rows(reports, lists, nr, &rows);
	for (i = 0; i < nr; i++) {
		width[i] = (int)strlen(reports[i].branch->name);
		for (k = 0; k < nr_rows; k++) {
			int flag, len = (int)strlen(report_matrix_cell(&reports[i], lists[i],
							 &rows[k]->id, &flag));

			len += flag;
			width[i] = len > width[i] ? len : width[i];
		}
	}
	if (!nr_rows) {
		strbuf_addstr(out, "\n(nothing to show)\n");
	} else {
		strbuf_addf(out, "\n%-12s", "COMMIT");
		for (i = 0; i < nr; i++)
			strbuf_addf(out, "  %-*s", width[i],
				    reports[i].branch->name);
		strbuf_addstr(out, "  SUBJECT\n");
	}
	for (k = 0; k < nr_rows; k++) {
		const struct candidate *c = rows[k];
		int any = 0;

		strbuf_addf(out, "%.12s", c->hex);
		for (i = 0; i < nr; i++) {
			int flag;
			const char *v = report_matrix_cell(&reports[i], lists[i], &c->id, &flag);

			strbuf_addf(out, "  %s%s%*s", v, flag ? "!" : "",
				    width[i] - (int)strlen(v) - flag, "");
			any |= flag;
		}
		flagged_rows += any;
		strbuf_addf(out, "  %s\n", c->msg.subject ? c->msg.subject : "");
	}
	strbuf_addch(out, '\n');
	for (i = 0; i < nr; i++) {
		size_t count[VERDICT__COUNT] = { 0 };
		int first = 1;

		for (j = 0; j < lists[i]->nr; j++)
			count[lists[i]->items[j]->verdict]++;
		strbuf_addf(out, "%s:", reports[i].branch->name);
		for (j = 0; j < VERDICT__COUNT; j++) {
			if (!count[j])
				continue;
			strbuf_addf(out, "%s %zu %s", first ? "" : ",", count[j],
				    verdict_name((enum verdict)j));
			first = 0;
		}
		strbuf_addstr(out, first ? " no candidates\n" : "\n");
	}
	if (flagged_rows)
		strbuf_addf(out, "!: %zu commit%s to take that a newer branch "
			    "lacks and is not to take (newer trees first)\n",
			    flagged_rows, flagged_rows == 1 ? "" : "s");
	if (!reports[0].all)
		strbuf_addstr(out, "(commits present or below the threshold in "
			      "every branch not shown; use --all)\n");
	free(rows);
	free(width);
}
