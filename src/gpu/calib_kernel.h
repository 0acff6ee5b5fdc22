/* calib_kernel.h - the calibrated kernel inside the GPU layer (calib.c):
 * loaded from its PTX for a register count and kept in the context,
 * prepared with a configuration's attributes, launched plainly or as
 * clusters. measure.c and gpu_cluster.c share it. */
#ifndef OCC_CALIB_KERNEL_H
#define OCC_CALIB_KERNEL_H

#include <stddef.h>
#include <stdint.h>

#include "gpu.h"

/* Clusters above this many CTAs need the non-portable attribute. */
#define GPU_PORTABLE_CLUSTER 8

/* The message for a build without the runtime or the kernels: -1. */
int gpu_unavailable(char *err, size_t n);

#if defined(HAVE_CUDART) && defined(HAVE_CALIB_KERNELS)
#include <cuda_runtime_api.h>

/* "what: the runtime's words" in err: -1. */
int gpu_cuda_fail(char *err, size_t n, const char *what, cudaError_t e);
double gpu_now_ms(void);

/* The calibrated kernel for k on g's device (made current), its
 * attributes set as the configuration asks: the dynamic shared memory
 * limit raised to what k uses only with opt-in, the carveout, and for a
 * cluster launch of cluster CTAs (0: not one), whether non-portable sizes
 * are allowed. 0, or -1 with a message. */
int gpu_calib_prepare(struct gpu_ctx *g, const struct occ_kernel *k,
		      int cluster, const void **fn, char *err, size_t n);

/* The shape of a cluster launch (NULL: a plain launch), and the grid's
 * blocks or clusters. */
struct calib_launch {
	const struct occ_cluster_shape *cluster;
	int64_t grid;
	uint64_t spin_cycles;
};

/* The launch's grid, block, memory and (for clusters) shape, as
 * cudaLaunchKernelExC and the cluster occupancy calls take it; attr holds
 * the cluster's dimension. */
cudaLaunchConfig_t gpu_calib_config(const struct occ_kernel *k,
				    const struct calib_launch *l,
				    cudaLaunchAttribute *attr);

/* Launches fn (from gpu_calib_prepare) for k as l says and copies each
 * warp's record (struct occ_warp_sample plainly, struct
 * calib_cluster_record for clusters) into host, bytes of them. */
int gpu_calib_launch(const struct occ_kernel *k, const struct calib_launch *l,
		     const void *fn, void *host, size_t bytes, char *err,
		     size_t n);
#endif

#endif
