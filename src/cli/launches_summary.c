/*
 * launches_summary.c - --launches' summary by kernel (or operator, --by
 * op) and GPU: the library sums the rows (occcalc/launch_summary.h),
 * growing with the kernels and their shapes, never the launches; here
 * it is held for the run, and written as rows (--summary -f json, jsonl,
 * csv) through the library's field table. The text is
 * launches_summary_print.c's.
 */
#include <stdlib.h>

#include "launches_sum.h"

struct launch_summary *launch_summary_new(int by_op, int wide)
{
	struct launch_summary *s = calloc(1, sizeof *s);

	if (!s)
		return NULL;
	s->by_op = by_op;
	s->wide = wide;
	if (occ_launch_summary_new(by_op ? OCC_LAUNCH_BY_OP
				   : OCC_LAUNCH_BY_KERNEL, &s->sum) != OCC_OK) {
		free(s);
		return NULL;
	}
	return s;
}

void launch_summary_file(struct launch_summary *s)
{
	occ_launch_summary_file(s->sum);
}

/* Out of memory is said once the files are read, with the count. */
void launch_summary_add(struct launch_summary *s, const struct occ_launch_row *r)
{
	if (occ_launch_summary_add(s->sum, r) != OCC_OK)
		s->failed = 1;
}

void launch_summary_rows(struct out *out, struct launch_summary *s)
{
	const struct occ_launch_totals *t = occ_launch_summary_totals(s->sum);
	const struct occ_launch_summary_group *const *g;
	struct occ_launch_summary_row row;
	size_t i, n;

	if (s->failed ||
	    occ_launch_summary_groups(s->sum, &g, &n) != OCC_OK)
		die("out of memory for the summary of %zu kernels", t->groups);
	for (i = 0; i < n; i++) {
		occ_launch_summary_row_make(t, g[i], &row);
		out_row(out, &row);
	}
}

void launch_summary_free(struct launch_summary *s)
{
	if (!s)
		return;
	occ_launch_summary_free(s->sum);
	free(s);
}
