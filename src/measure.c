/*
 * measure.c - a configuration on the GPU: the runtime's occupancy API for a
 * calibrated kernel with exactly those resources, and a launch of it that
 * records where and when each warp ran (residency.c turns that into blocks
 * per SM and achieved occupancy). Built without the CUDA runtime or the
 * kernels, every call says so.
 */
#include "config.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli.h"

#if defined(HAVE_CUDART) && defined(HAVE_CALIB_KERNELS)
#include <cuda_runtime_api.h>

#include "calib.h"

static int cuda_fail(char *err, size_t n, const char *what, cudaError_t e)
{
	snprintf(err, n, "%s: %s", what, cudaGetErrorString(e));
	return -1;
}

int gpu_kernel_regs(int device, int regs, int *got, char *err, size_t n)
{
	struct cudaFuncAttributes fa;
	const void *fn = occ_calib_kernel(regs < 1 ? 1 : regs);
	cudaError_t e;

	if (!fn) {
		snprintf(err, n, "no calibrated kernel has %d registers", regs);
		return -1;
	}
	if ((e = cudaSetDevice(device)) != cudaSuccess)
		return cuda_fail(err, n, "cudaSetDevice", e);
	if ((e = cudaFuncGetAttributes(&fa, fn)) != cudaSuccess)
		return cuda_fail(err, n, "cudaFuncGetAttributes", e);
	*got = fa.numRegs;
	return 0;
}

/* Dynamic shared memory a kernel may use unless it raises the limit. */
#define DEFAULT_DYNAMIC_SMEM (48 * 1024)

/* The kernel's launch attributes as the configuration asks: its dynamic
 * limit raised to what it uses only with opt-in (else the default), and the
 * carveout preference. Attributes outlive a row, so each is set every
 * time. A limit the device refuses (above sharedMemPerBlockOptin) is left
 * lower: the configuration cannot launch, and the API says 0 blocks. */
static int prepare(const struct occ_kernel *k, const void **fn, char *err,
		   size_t n)
{
	uint64_t smem = k->static_smem + k->dynamic_smem;
	uint64_t limit = k->optin && smem > DEFAULT_DYNAMIC_SMEM
			 ? smem : DEFAULT_DYNAMIC_SMEM;
	cudaError_t e;

	*fn = occ_calib_kernel(k->regs_per_thread < 1 ? 1 : k->regs_per_thread);
	if (!*fn) {
		snprintf(err, n, "no calibrated kernel has %d registers",
			 k->regs_per_thread);
		return -1;
	}
	e = cudaFuncSetAttribute(*fn, cudaFuncAttributeMaxDynamicSharedMemorySize,
				 limit > INT_MAX ? INT_MAX : (int)limit);
	if (e == cudaErrorInvalidValue)
		(void)cudaGetLastError();
	else if (e != cudaSuccess)
		return cuda_fail(err, n, "cudaFuncSetAttribute", e);
	e = cudaFuncSetAttribute(*fn,
			cudaFuncAttributePreferredSharedMemoryCarveout,
			k->carveout == OCC_CARVEOUT_DEFAULT
			? cudaSharedmemCarveoutDefault : k->carveout);
	if (e != cudaSuccess)
		return cuda_fail(err, n, "cudaFuncSetAttribute", e);
	return 0;
}

int gpu_api_blocks(int device, const struct occ_kernel *k, int *blocks,
		   char *err, size_t n)
{
	const void *fn;
	cudaError_t e;

	if ((e = cudaSetDevice(device)) != cudaSuccess)
		return cuda_fail(err, n, "cudaSetDevice", e);
	if (prepare(k, &fn, err, n) != 0)
		return -1;
	e = cudaOccupancyMaxActiveBlocksPerMultiprocessor(blocks, fn,
			k->block_size, k->static_smem + k->dynamic_smem);
	/* A configuration that cannot launch is 0 blocks, as the model says. */
	if (e == cudaErrorInvalidValue) {
		(void)cudaGetLastError();
		*blocks = 0;
		return 0;
	}
	return e == cudaSuccess ? 0
		: cuda_fail(err, n, "cudaOccupancyMaxActiveBlocksPerMultiprocessor",
			    e);
}

static double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

/* Launches the kernel and copies its samples back. */
static int run(const struct occ_kernel *k, const void *fn, int64_t grid,
	       uint64_t spin, struct occ_warp_sample *host, size_t warps,
	       char *err, size_t n)
{
	struct calib_args args = { NULL, spin, 0, NULL };
	void *params[] = { &args };
	dim3 grid_dim = { (unsigned)grid, 1, 1 };
	dim3 block_dim = { (unsigned)k->block_size, 1, 1 };
	size_t bytes = warps * sizeof *host;
	cudaError_t e;

	args.smem_words = (unsigned)((k->static_smem + k->dynamic_smem) / 4);
	if ((e = cudaMalloc((void **)&args.samples, bytes)) != cudaSuccess)
		return cuda_fail(err, n, "cudaMalloc", e);
	if ((e = cudaMalloc((void **)&args.sink, sizeof *args.sink)) !=
	    cudaSuccess) {
		cudaFree(args.samples);
		return cuda_fail(err, n, "cudaMalloc", e);
	}
	e = cudaLaunchKernel(fn, grid_dim, block_dim, params,
			     (size_t)(k->static_smem + k->dynamic_smem), 0);
	if (e == cudaSuccess)
		e = cudaDeviceSynchronize();
	if (e == cudaSuccess)
		e = cudaMemcpy(host, args.samples, bytes, cudaMemcpyDeviceToHost);
	cudaFree(args.samples);
	cudaFree(args.sink);
	return e == cudaSuccess ? 0 : cuda_fail(err, n, "calibrated launch", e);
}

int gpu_measure(int device, const struct occ_kernel *k, int max_warps_per_sm,
		struct gpu_measured *m, char *err, size_t n)
{
	int warps_per_block = (k->block_size + 31) / 32;
	size_t warps = (size_t)m->grid * (size_t)warps_per_block;
	struct occ_warp_sample *host;
	const void *fn;
	double t0 = now_ms();
	cudaError_t e;
	int st;

	if (warps > GPU_MAX_SAMPLES) {
		snprintf(err, n, "%lld blocks of %d warps are more than the %d "
			 "warps a measurement records", (long long)m->grid,
			 warps_per_block, GPU_MAX_SAMPLES);
		return -1;
	}
	if ((e = cudaSetDevice(device)) != cudaSuccess)
		return cuda_fail(err, n, "cudaSetDevice", e);
	if (prepare(k, &fn, err, n) != 0)
		return -1;
	host = malloc(warps * sizeof *host);
	if (!host) {
		snprintf(err, n, "out of memory");
		return -1;
	}
	st = run(k, fn, m->grid, m->spin_cycles, host, warps, err, n);
	if (st == 0 && occ_residency(host, warps, max_warps_per_sm,
				     &m->residency) != OCC_OK) {
		snprintf(err, n, "the kernel's warp records are inconsistent");
		st = -1;
	}
	free(host);
	m->ms = now_ms() - t0;
	return st;
}

#else

static int unavailable(char *err, size_t n)
{
#ifdef HAVE_CUDART
	snprintf(err, n, "this occcalc was built without its calibrated "
		 "kernels (nvcc was not found)");
#else
	snprintf(err, n, "this occcalc was built without the CUDA runtime");
#endif
	return -1;
}

int gpu_kernel_regs(int device, int regs, int *got, char *err, size_t n)
{
	(void)device;
	(void)regs;
	(void)got;
	return unavailable(err, n);
}

int gpu_api_blocks(int device, const struct occ_kernel *k, int *blocks,
		   char *err, size_t n)
{
	(void)device;
	(void)k;
	(void)blocks;
	return unavailable(err, n);
}

int gpu_measure(int device, const struct occ_kernel *k, int max_warps_per_sm,
		struct gpu_measured *m, char *err, size_t n)
{
	(void)device;
	(void)k;
	(void)max_warps_per_sm;
	(void)m;
	return unavailable(err, n);
}

#endif

int row_gpu_agrees(const struct row_gpu *g, const struct occ_result *r)
{
	if (g->api_blocks != r->blocks_per_sm)
		return 0;
	return !g->measured || g->m.residency.max_blocks_per_sm == g->expected;
}
