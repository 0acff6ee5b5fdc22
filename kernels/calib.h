/*
 * calib.h - the calibrated kernel (calib.cu) as the C side sees it.
 *
 * One kernel, shipped as PTX (generated from calib.cu at build time) and
 * compiled by the driver when it is loaded, with the register count asked
 * as the JIT's cap (CU_JIT_MAX_REGISTERS): the kernel keeps more values
 * live than any cap allows, so the code loaded has exactly that many
 * registers, from 24 (the fewest ptxas allocates) to 255, and is native
 * code for whatever GPU runs it. A block uses one barrier and the dynamic
 * shared memory it is launched with; each warp spins for a set number of
 * SM cycles and records when it ran and where.
 *
 * Launched plainly it writes one struct occ_warp_sample per warp, what
 * residency needs. Launched as clusters (given cluster records) it waits
 * for its cluster's last CTA before it leaves (so that a cluster leaves
 * the GPU at once) and writes one struct calib_cluster_record per warp,
 * with its cluster and rank and %globaltimer, which any SM can compare.
 * Clusters exist from compute capability 9.0, so the PTX comes in two
 * targets from the same source: compute_75 without the cluster records,
 * for every GPU from Turing on, and compute_90 with them.
 */
#ifndef OCC_CALIB_H
#define OCC_CALIB_H

#include "occcalc.h"

#ifdef __cplusplus
extern "C" {
#endif

struct calib_cluster_record {
	uint64_t clock_start, clock_end;     /* clock64: one SM's cycles */
	uint64_t timer_start, timer_end;     /* %globaltimer, ns: any SM */
	uint32_t sm, block, cluster, rank;   /* block: linear CTA index */
};

struct calib_args {
	struct occ_warp_sample *samples;           /* plain: one per warp */
	struct calib_cluster_record *clusters;     /* clusters: one per warp */
	unsigned long long spin_cycles;   /* each warp's work, SM cycles */
	unsigned smem_words;              /* dynamic shared memory / 4 */
	unsigned *sink;                   /* never written in practice */
};

/* The kernel's name in the PTX. */
#define OCC_CALIB_NAME "occ_calib"

/* calib.cu as PTX, NUL-terminated (kernels/calib-ptx.c, generated): for
 * compute capability 7.5 and up, and for 9.0 and up with clusters. */
extern const char occ_calib_ptx_75[];
extern const char occ_calib_ptx_90[];

#ifdef __cplusplus
}
#endif

#endif
