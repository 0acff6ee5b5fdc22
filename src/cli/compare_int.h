/* compare_int.h - --kernels --compare's two sides (internal to
 * compare.c, which matches and writes them, and compare_read.c, which
 * reads them into keyed rows). */
#ifndef OCC_CLI_COMPARE_INT_H
#define OCC_CLI_COMPARE_INT_H

#include "cli.h"
#include "baseline.h"

/* The fields compared (compare.c), numbers unless named in TEXT_FIELD. */
#define N_CMP 11
#define TEXT_FIELD "limiter"
extern const char *const cmp_fields[];

struct compare {
	struct baseline now, base;
	struct kernel_list base_kernels;
	uint64_t changed, added, removed, unchanged;
};

/* A row's field's text, or NULL (null or absent). */
const char *cmp_get(const struct base_row *r, const char *name);
/* The order of rows by their keys: kernel, image, block. */
int cmp_key_cmp(const struct base_row *x, const struct base_row *y);
/* One side's rows (compare_read.c): what occcalc wrote before (the
 * baseline only, c->base), or the binaries, directories or caches at
 * path and the more paths after it, read into l and computed into b. */
void cmp_read_side(struct session *s, struct compare *c, const char *path,
		   const char *const *more, int n_more,
		   struct kernel_list *l, struct baseline *b);
/* b's rows keyed, their numbers checked, sorted by key (what: the side
 * as messages name it). */
void cmp_prepare(const struct session *s, const char *what,
		 struct baseline *b);

#endif
