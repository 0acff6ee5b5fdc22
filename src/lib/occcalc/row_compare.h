/*
 * occcalc/row_compare.h - two builds' kernel rows set side by side, as
 * --kernels NEW --compare BASELINE does: rows matched by kernel (its
 * symbol, else its name), image (arch) and, if asked, block; for each
 * match the fields that differ, exactly (numbers as decimals), with old,
 * new and the delta; kernels only one side has added or removed. The
 * rows are held as the text occcalc's JSON gives them (occcalc/rows.h):
 * read back from a file, or a program's (the command line's rows just
 * computed, Python's dicts).
 * Part of the occcalc API: include <occcalc.h>, which includes this.
 */
#ifndef OCCCALC_ROW_COMPARE_H
#define OCCCALC_ROW_COMPARE_H

#ifndef OCCCALC_H
#error "include <occcalc.h>, not occcalc/row_compare.h"
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* The fields compared, in --compare's order: block, regs, ...,
 * occupancy_pct, numbers, then limiter, text. */
#define OCC_COMPARE_N 11
/* The i-th (NULL past the last); *numeric (if not NULL) whether it is a
 * number. */
const char *occ_compare_field(size_t i, int *numeric);

/* One side's rows (opaque): of each, the fields that name it (kernel,
 * mangled, arch) and those compared, a copy. */
struct occ_row_set;

/* The most rows a set holds (a baseline of 400,000 kernels is large). */
#define OCC_ROW_SET_MAX 1000000

enum occ_status occ_row_set_new(struct occ_row_set **out);
void occ_row_set_free(struct occ_row_set *s);
size_t occ_row_set_count(const struct occ_row_set *s);
/* Keeps row's fields that count (the first of a name): OCC_OK,
 * OCC_ERR_RANGE past OCC_ROW_SET_MAX rows, OCC_ERR_NOMEM. */
enum occ_status occ_row_set_add(struct occ_row_set *s,
				const struct occ_rows_row *row);
/* Each row of text (JSON or JSON Lines, as occcalc writes rows) added:
 * the statuses of reading rows (diag says where) and of adding them. */
enum occ_status occ_row_set_add_json(struct occ_row_set *s, const char *text,
				     size_t len, struct occ_rows_diag *diag);

/* A match: the compare kind's row (occ_compare_kind). */
struct occ_row_set_row;
struct occ_compare_row {
	const char *change;     /* changed, added, removed or unchanged */
	char changed[256];      /* the fields that differ, '+'-joined */
	const struct occ_row_set_row *old, *cur;   /* NULL: not on that side */
};

/* The field's text in the old (old nonzero) or new row, NULL where null
 * or absent (or the row is). */
const char *occ_compare_row_value(const struct occ_compare_row *r, int old,
				  const char *name);
/* Whether compared field i differs (one side absent, text unlike, or
 * numbers unequal). */
int occ_compare_row_differs(const struct occ_compare_row *r, size_t i);
/* cur - old, numbers as the writers print them, exactly, with the more
 * decimals of the two; plus: a '+' before a positive delta. */
void occ_decimal_delta(const char *old, const char *cur, int plus, char *buf,
		       size_t n);

/* Why two sets do not compare: a row of one side with no key or a
 * compared number that is none. */
struct occ_compare_diag {
	int old;                /* the baseline's side (else the new one) */
	size_t row;             /* the row, from 0, in the order added */
	char field[64];         /* the field, or "kernel or mangled" */
	char value[48];         /* the text that is no number (cut) */
};

#define OCC_COMPARE_BY_BLOCK 1u   /* a kernel's rows matched by block too */

struct occ_compare_stats {
	uint64_t changed, added, removed, unchanged;
};

typedef int (*occ_compare_fn)(void *ctx, const struct occ_compare_row *r);

/* Keys both sides' rows (flags: OCC_COMPARE_BY_BLOCK), checks their
 * compared numbers and sorts them, the new side first: what
 * occ_row_sets_compare does first, for a caller that must know that the
 * sets compare before it writes anything (a set is prepared once until
 * a row is added). OCC_OK; OCC_ERR_MISSING_KEY for a row without mangled
 * or kernel, or arch; OCC_ERR_BAD_VALUE for a compared number that does
 * not read as one; diag says which. */
enum occ_status occ_row_sets_prepare(struct occ_row_set *old,
				     struct occ_row_set *cur, unsigned flags,
				     struct occ_compare_diag *diag);

/* Matches cur against old (both sorted here, by key then order added):
 * fn for each match, in the order of the keys (nonzero stops, and is the
 * caller's to keep). OCC_OK, or occ_row_sets_prepare's refusal. */
enum occ_status occ_row_sets_compare(struct occ_row_set *old,
				     struct occ_row_set *cur, unsigned flags,
				     occ_compare_fn fn, void *ctx,
				     struct occ_compare_stats *stats,
				     struct occ_compare_diag *diag);

/* The kind of --compare's rows, and its default fields. */
extern const struct occ_row_kind occ_compare_kind;
#define OCC_COMPARE_FIELDS "change,kernel,mangled,arch,changed,old_block," \
	"block,d_block,old_regs,regs,d_regs,old_spill_stores,spill_stores," \
	"d_spill_stores,old_spill_loads,spill_loads,d_spill_loads," \
	"old_stack,stack,d_stack,old_static_smem,static_smem," \
	"d_static_smem,old_smem,smem,d_smem,old_blocks_per_sm," \
	"blocks_per_sm,d_blocks_per_sm,old_warps_per_sm,warps_per_sm," \
	"d_warps_per_sm,old_occupancy_pct,occupancy_pct,d_occupancy_pct," \
	"old_limiter,limiter"

#define OCC_COMPARE_ALL 2u        /* unchanged rows written too */

/* --compare -f json's rows of old and cur (fields: as occ_row_kind_select
 * takes them, NULL the defaults), each object handed to fn; with
 * OCC_COMPARE_ALL the unchanged too. Statuses as occ_row_sets_compare
 * (diag), and occ_row_kind_select's for fields. */
enum occ_status occ_row_sets_compare_json(struct occ_row_set *old,
					  struct occ_row_set *cur,
					  unsigned flags, const char *fields,
					  occ_json_row_fn fn, void *ctx,
					  struct occ_compare_stats *stats,
					  struct occ_compare_diag *diag);

#ifdef __cplusplus
}
#endif

#endif
