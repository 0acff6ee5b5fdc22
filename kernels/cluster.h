/*
 * cluster.h - the calibrated cluster kernels (cluster.cu) as the C side
 * sees them.
 *
 * One kernel per register count that occupancy can tell apart on
 * compute capability 9.0 (registers are allocated per warp in units of
 * 256, 8 a thread): 24, 32, ..., 248 and 255, each capped with
 * __maxnreg__ and given more live values than the cap. A CTA uses the
 * dynamic shared memory it is launched with and one barrier; each warp
 * spins for a set number of SM cycles, then the whole cluster waits for
 * its last CTA (so that a cluster leaves the GPU at once), and each warp
 * records where it ran and when, by its SM's clock and by %globaltimer.
 */
#ifndef OCC_CLUSTER_KERNEL_H
#define OCC_CLUSTER_KERNEL_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

struct cluster_warp_record {
	uint64_t clock_start, clock_end;     /* clock64: one SM's cycles */
	uint64_t timer_start, timer_end;     /* %globaltimer, ns: any SM */
	uint32_t sm, block, cluster, rank;   /* block: linear CTA index */
};

struct cluster_args {
	struct cluster_warp_record *warps;   /* one per warp of the grid */
	unsigned long long spin_cycles;
	unsigned smem_words;                 /* dynamic shared memory / 4 */
	unsigned *sink;                      /* never written in practice */
};

/* The kernel with the fewest registers at least regs allocates as many
 * (regs 1-255; fewer than 24 give the 24 one), or NULL. */
const void *occ_cluster_kernel(int regs);

#ifdef __cplusplus
}
#endif

#endif
