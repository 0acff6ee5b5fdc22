/* periodic.h - counting the distinct units (sectors, lines) of sets that
 * repeat with a shift, without listing the repeats (internal). */
#ifndef OCC_PERIODIC_H
#define OCC_PERIODIC_H

#include <stddef.h>
#include <stdint.h>

#include "occcalc.h"
#include "util.h"

/* What the lists of one count may hold at once, all together (their
 * capacity, in numbers); over: a list would have passed it. */
struct occ_ids_budget {
	size_t held, max;
	int over;
};

/* A growable list of unit numbers, within budget where it has one. A
 * full list sheds its repeats before it grows, so that it holds at most
 * about four times its distinct numbers: only the set it lists counts,
 * never the order or the repeats. */
struct occ_ids {
	uint64_t *v;
	size_t n, cap;
	struct occ_ids_budget *budget;
};

/* 0: no memory, or past the budget (budget->over). */
OCC_INTERNAL int occ_ids_push(struct occ_ids *ids, uint64_t x);
/* Sorts and drops repeats. */
OCC_INTERNAL void occ_ids_unique(struct occ_ids *ids);
OCC_INTERNAL void occ_ids_free(struct occ_ids *ids);

/* A family: the set base (sorted, no repeats) and its copies shifted by
 * shift, 2 x shift, ..., (copies - 1) x shift. */
struct occ_family {
	const uint64_t *base;
	size_t n;
	uint64_t shift;
};

/* The number of distinct units in the union of nf families, each with
 * `copies` copies, and the n_extra units of extra, what it lists within
 * budget b. OCC_ERR_UNSUPPORTED when two families have different
 * non-zero shifts and their copies are too many to list; OCC_ERR_NOMEM
 * also past the budget (b->over). */
OCC_INTERNAL enum occ_status occ_union_count(const struct occ_family *f, size_t nf,
				uint64_t copies, const uint64_t *extra,
				size_t n_extra, struct occ_ids_budget *b,
				uint64_t *count);

#endif
