/*
 * calib.h - the calibrated kernel (calib.cu) as the C side sees it.
 *
 * One kernel, shipped as PTX (occ_calib_ptx, generated from calib.cu at
 * build time) and compiled by the driver when it is loaded, with the
 * register count asked as the JIT's cap (CU_JIT_MAX_REGISTERS): the kernel
 * keeps more values live than any cap allows, so the code loaded has
 * exactly that many registers, from 24 (the fewest ptxas allocates) to
 * 255, and is native code for whatever GPU runs it. A block uses one
 * barrier and the dynamic shared memory it is launched with; each warp
 * spins for a set number of SM cycles and records when it ran and where.
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

/* The kernel's name in the PTX. */
#define OCC_CALIB_NAME "occ_calib"

/* calib.cu as PTX, NUL-terminated (kernels/calib-ptx.c, generated). */
extern const char occ_calib_ptx[];

#ifdef __cplusplus
}
#endif

#endif
