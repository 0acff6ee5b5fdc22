/* affine.h - reading a kernel's index expressions as affine forms in the
 * thread's coordinates (internal, shared by kernel_text.c and affine.c). */
#ifndef OCC_AFFINE_H
#define OCC_AFFINE_H

#include <stddef.h>
#include <stdint.h>

#include "occcalc.h"
#include "util.h"

/* c + tid . threadIdx + bid blockIdx.x + s ((i ^ lane_xor) / group), with
 * i the thread's index in the launch (occ_kernel_access's terms). */
struct occ_affine {
	int64_t c, tid[3], bid, s;
	unsigned lane_xor, group;
	int64_t bid_yz[2];       /* factors of blockIdx.y, .z */
};

#define OCC_MAX_LOCALS 16

/* Where reading is, what it has seen, and why it stopped. */
struct occ_cursor {
	const char *s;
	size_t at;
	size_t bad;              /* where the text stopped making sense */
	enum occ_status st;
	size_t index, index_len; /* the thread index's name, once seen */
	int builtins;            /* threadIdx... named */
	const struct occ_kernel_env *env;
	char local_names[OCC_MAX_LOCALS][32];   /* "int row = ...;" */
	struct occ_affine locals[OCC_MAX_LOCALS];
	int n_locals;
	int depth;               /* parentheses and signs open */
};

OCC_INTERNAL void occ_cur_space(struct occ_cursor *c);
/* Records the first failure, where the cursor is; returns 0. */
OCC_INTERNAL int occ_cur_fail(struct occ_cursor *c, enum occ_status st);
/* The next character, if it is ch (after spaces). */
OCC_INTERNAL int occ_cur_accept(struct occ_cursor *c, char ch);

/* An index expression, C's precedence (^ below + -, below * /), into a;
 * 0 (the failure recorded) when it is not an affine form this model
 * reads. */
OCC_INTERNAL int occ_affine_read(struct occ_cursor *c, struct occ_affine *a);
/* Whether a's block terms are a multiple of the block's linear number in
 * e's grid (blockIdx.x + gridDim.x blockIdx.y + gridDim.x gridDim.y
 * blockIdx.z, block after block as occ_kernel_access counts them): then
 * folded into a->bid. An index that tiles a 2-D or 3-D grid otherwise
 * (row = blockIdx.y blockDim.y + threadIdx.y, or blockIdx.x alone) is
 * not: its terms stay by coordinate. */
OCC_INTERNAL int occ_affine_linear(const struct occ_kernel_env *e,
				   struct occ_affine *a);

#endif
