/* row_compare_int.h - what the sets of rows (row_set.c), their matching
 * (row_compare.c) and the compare kind's fields (row_compare_fields.c)
 * share (internal to the library). */
#ifndef OCC_ROW_COMPARE_INT_H
#define OCC_ROW_COMPARE_INT_H

#include "occcalc.h"
#include "util.h"

/* A row's fields, kept in one block for the million a set may hold:
 * each a name (a static one of the names kept, never the reader's),
 * whether it is null, and its text. */
struct occ_row_set_row {
	char *fields;
	size_t used;
	const char *key[3];         /* kernel, image, block, once prepared */
	size_t order;               /* its place among the rows added */
};

struct occ_row_set {
	struct occ_row_set_row *rows;
	size_t n, cap;
	unsigned prepared;          /* 1 + the flags it was keyed by; 0: not */
};

/* The field's text in r, NULL where null or absent. */
OCC_INTERNAL const char *row_set_get(const struct occ_row_set_row *r,
				     const char *name);
/* s's rows keyed (flags: OCC_COMPARE_BY_BLOCK), their compared numbers
 * checked, sorted: OCC_OK, or a status and diag (row, field). */
OCC_INTERNAL enum occ_status row_set_prepare(struct occ_row_set *s,
		unsigned flags, struct occ_compare_diag *diag);
OCC_INTERNAL int row_set_key_cmp(const struct occ_row_set_row *x,
				 const struct occ_row_set_row *y);

#endif
