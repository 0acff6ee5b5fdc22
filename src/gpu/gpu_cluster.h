/* gpu_cluster.h - thread-block clusters on the GPU (internal to the command
 * line): the chip's GPC layout, the runtime's cluster occupancy API for a
 * calibrated cluster kernel, and launches that measure the clusters
 * resident at once. Built without the runtime or the kernels, every call
 * fails with a message saying so. */
#ifndef OCC_GPU_CLUSTER_H
#define OCC_GPU_CLUSTER_H

#include <stddef.h>
#include <stdint.h>

#include "gpu.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The runtime's answers for the calibrated cluster kernel. */
struct gpu_cluster_api {
	int kernel_regs;          /* the loaded kernel's */
	int blocks_per_sm;        /* cudaOccupancyMaxActiveBlocksPerMultiprocessor */
	int clusters;             /* cudaOccupancyMaxActiveClusters */
	int potential;            /* cudaOccupancyMaxPotentialClusterSize */
	int potential_nonportable;    /* the same, non-portable allowed */
};

struct gpu_cluster_measured {
	int64_t clusters;                  /* in: clusters launched */
	uint64_t spin_cycles;              /* in: each warp's work */
	struct occ_residency residency;    /* blocks per SM, achieved */
	struct occ_cluster_residency cres; /* clusters resident at once */
	double ms;                         /* the whole measurement */
};

/* 0, or -1 with a message in err. */
int gpu_cluster_api(struct gpu_ctx *g, const struct occ_kernel *k,
		    const struct occ_cluster_shape *c,
		    struct gpu_cluster_api *out, char *err, size_t n);
int gpu_cluster_measure(struct gpu_ctx *g, const struct occ_kernel *k,
			const struct occ_cluster_shape *c,
			int max_warps_per_sm, struct gpu_cluster_measured *m,
			char *err, size_t n);
/* The layout the cluster scheduler uses on this device, found by
 * launching clusters of 2 to 16 one CTA per SM and joining the SMs that
 * hold CTAs of one cluster. gpc_of (the device's SMs, or NULL) receives
 * each SM's GPC. */
int gpu_cluster_layout(struct gpu_ctx *g, struct occ_gpc_layout *l, int *gpc_of,
		       int gpc_of_len, char *err, size_t n);

#ifdef __cplusplus
}
#endif

#endif
