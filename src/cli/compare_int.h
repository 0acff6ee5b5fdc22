/* compare_int.h - --kernels --compare's two sides (internal to
 * compare.c, which has the library match them and writes the matches,
 * and compare_read.c, which reads them into the library's sets of rows,
 * occcalc/row_compare.h). */
#ifndef OCC_CLI_COMPARE_INT_H
#define OCC_CLI_COMPARE_INT_H

#include "cli.h"

struct compare {
	struct occ_row_set *now, *base;
	struct kernel_list base_kernels;
	struct occ_compare_stats stats;
};

/* One side's rows (compare_read.c): what occcalc wrote before (the
 * baseline only, c->base), or the binaries, directories or caches at
 * path and the more paths after it, read into l and computed into b. */
void cmp_read_side(struct session *s, struct compare *c, const char *path,
		   const char *const *more, int n_more,
		   struct kernel_list *l, struct occ_row_set *b);

#endif
