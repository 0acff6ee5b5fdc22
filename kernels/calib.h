/*
 * calib.h - the calibrated kernels (calib.cu) as the C side sees them.
 *
 * One kernel per register count from 24 (the fewest ptxas allocates on
 * every architecture CUDA 13 builds for) to 255, each capped with
 * __maxnreg__ and given more live values than the cap, so that ptxas
 * allocates exactly that many. A block uses one barrier and the dynamic shared memory it
 * is launched with; each warp spins for a set number of SM cycles and
 * records when it ran and where.
 */
#ifndef OCC_CALIB_H
#define OCC_CALIB_H

#include "occcalc.h"

#ifdef __cplusplus
extern "C" {
#endif

struct calib_args {
	struct occ_warp_sample *samples;  /* one per warp of the grid */
	unsigned long long spin_cycles;   /* each warp's work, SM cycles */
	unsigned smem_words;              /* dynamic shared memory / 4 */
	unsigned *sink;                   /* never written in practice */
};

/* The kernel capped at regs registers (1-255; below 24, the 24 one), or
 * NULL. */
const void *occ_calib_kernel(int regs);

#ifdef __cplusplus
}
#endif

#endif
