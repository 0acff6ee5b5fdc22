/* seq.h - sweeps (sweep.c): an option's values as the user writes them,
 * "128", "64,128,256", "32:1024:32", a block shape "16x16", or a mix;
 * CUDA's limits on a block's shape. */
#ifndef OCC_CLI_SEQ_H
#define OCC_CLI_SEQ_H

#include <stddef.h>
#include <stdint.h>

struct seq_range {
	uint64_t start, end, step;
	uint16_t dim[3];   /* a block shape (16x16: 16, 16, 0), else 0 */
};

struct seq {
	struct seq_range *ranges;
	size_t n;
	int is_sweep;      /* written as a list or range, even of one value */
};

struct seq_iter {
	const struct seq *s;
	size_t range;
	uint64_t value;
};

enum seq_error {
	SEQ_OK = 0,
	SEQ_EMPTY,         /* nothing between the commas */
	SEQ_NOT_NUMBER,
	SEQ_NEGATIVE,
	SEQ_OVERFLOW,      /* beyond 64 bits */
	SEQ_TOO_LARGE,     /* beyond the option's maximum */
	SEQ_TOO_SMALL,     /* below the option's minimum */
	SEQ_STEP_ZERO,
	SEQ_REVERSED,      /* START > END */
	SEQ_NOMEM,
	SEQ_SHAPE,         /* not XxY or XxYxZ */
	SEQ_SHAPE_ZERO,    /* a dimension of 0 */
	SEQ_SHAPE_LARGE    /* beyond CUDA's block limits */
};

/* CUDA's limits on a block's shape, the same on every compute
 * capability from 2.0 (the CUDA C++ Programming Guide, "Technical
 * Specifications per Compute Capability": maximum x- or y-dimension of a
 * block 1024, z-dimension 64, threads per block 1024). */
#define BLOCK_MAX_XY 1024
#define BLOCK_MAX_Z 64
#define BLOCK_MAX_THREADS 1024

/* Parses s into *out, every value within [min, max]. */
enum seq_error seq_parse(const char *s, uint64_t min, uint64_t max,
			 struct seq *out);
/* The same, where an item may also be a block shape (16x16, 8x8x4): its
 * threads, the product, with the shape in its range's dim. */
enum seq_error seq_parse_shapes(const char *s, uint64_t min, uint64_t max,
				struct seq *out);
/* "16x16" for a shape (dim[0] != 0) into buf. */
void seq_shape_text(char *buf, size_t n, const uint16_t dim[3]);
void seq_free(struct seq *s);
int seq_first(struct seq_iter *it, const struct seq *s);
/* How many values s holds (saturating). */
uint64_t seq_count(const struct seq *s);
int seq_next(struct seq_iter *it);

#endif
