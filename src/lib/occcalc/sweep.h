/*
 * occcalc/sweep.h - an option's values as occcalc's command line takes
 * them: "128", "64,128,256", "32:1024:32" (START:END:STEP, END included),
 * a block shape "16x16" or "8x8x4" where shapes are allowed, or a mix,
 * with suffixes K, M, G (occ_parse_size). Parsed once, then generated one
 * value at a time, so a sweep of any length runs in constant memory.
 * Part of the occcalc API: include <occcalc.h>, which includes this.
 */
#ifndef OCCCALC_SWEEP_H
#define OCCCALC_SWEEP_H

#ifndef OCCCALC_H
#error "include <occcalc.h>, not occcalc/sweep.h"
#endif

#ifdef __cplusplus
extern "C" {
#endif

struct occ_seq_range {
	uint64_t start, end, step;
	uint16_t dim[3];   /* a block shape (16x16: 16, 16, 0), else 0 */
};

struct occ_seq {
	struct occ_seq_range *ranges;
	size_t n;
	int is_sweep;      /* written as a list or range, even of one value */
};

struct occ_seq_iter {
	const struct occ_seq *s;
	size_t range;
	uint64_t value;
};

/* Why a text is refused, finer than its status: the command line words
 * each differently. */
enum occ_seq_error {
	OCC_SEQ_OK = 0,
	OCC_SEQ_EMPTY,         /* nothing between the commas */
	OCC_SEQ_NOT_NUMBER,
	OCC_SEQ_NEGATIVE,
	OCC_SEQ_OVERFLOW,      /* beyond 64 bits */
	OCC_SEQ_TOO_LARGE,     /* beyond the option's maximum */
	OCC_SEQ_TOO_SMALL,     /* below the option's minimum */
	OCC_SEQ_STEP_ZERO,
	OCC_SEQ_REVERSED,      /* START > END */
	OCC_SEQ_NOMEM,
	OCC_SEQ_SHAPE,         /* not XxY or XxYxZ */
	OCC_SEQ_SHAPE_ZERO,    /* a dimension of 0 */
	OCC_SEQ_SHAPE_LARGE    /* beyond CUDA's block limits */
};

/* CUDA's limits on a block's shape, the same on every compute
 * capability from 2.0 (the CUDA C++ Programming Guide, "Technical
 * Specifications per Compute Capability": maximum x- or y-dimension of a
 * block 1024, z-dimension 64, threads per block 1024). */
#define OCC_BLOCK_MAX_XY 1024
#define OCC_BLOCK_MAX_Z 64
#define OCC_BLOCK_MAX_THREADS 1024

/* occ_seq_parse's flags: an item may be a block shape (16x16, 8x8x4),
 * its threads the product, the shape in its range's dim. */
#define OCC_SEQ_SHAPES 1u

/* s into *out (to free with occ_seq_free), every value within
 * [min, max]. OCC_OK; else *why (may be NULL) says why and the status is
 * OCC_ERR_SYNTAX (empty, not a number, not a shape), OCC_ERR_RANGE
 * (negative, beyond 64 bits, beyond a bound or CUDA's block limits, a
 * dimension of 0; diag->limit: the bound crossed, for TOO_LARGE and
 * TOO_SMALL), OCC_ERR_INVALID_INPUT (a step of 0, a reversed range) or
 * OCC_ERR_NOMEM. diag may be NULL. */
enum occ_status occ_seq_parse(const char *s, uint64_t min, uint64_t max,
			      unsigned flags, struct occ_seq *out,
			      enum occ_seq_error *why, struct occ_diag *diag);
void occ_seq_free(struct occ_seq *s);
/* How many values s holds (saturating at UINT64_MAX). */
uint64_t occ_seq_count(const struct occ_seq *s);
/* Whether an item of s is a block shape (16x16). */
int occ_seq_has_shape(const struct occ_seq *s);
/* The first value of s into it->value (s holds one at least): 1. */
int occ_seq_first(struct occ_seq_iter *it, const struct occ_seq *s);
/* The next value into it->value: 1, or 0 after the last. */
int occ_seq_next(struct occ_seq_iter *it);
/* Why e refused a text, as occcalc words it ("range reversed: START
 * must not exceed END", "above the maximum of 255" with limit, CUDA's
 * limits after a shape beyond them), into buf (n bytes); "" for
 * OCC_SEQ_OK. */
void occ_seq_refusal(enum occ_seq_error e, uint64_t limit, char *buf,
		     size_t n);
/* "16x16" for a shape (dim[0] != 0) into buf. */
void occ_seq_shape_text(char *buf, size_t n, const uint16_t dim[3]);

#ifdef __cplusplus
}
#endif

#endif
