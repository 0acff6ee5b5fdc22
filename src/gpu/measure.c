/*
 * measure.c - a configuration on the GPU: the runtime's occupancy API for a
 * calibrated kernel with exactly those resources, and a launch of it that
 * records where and when each warp ran (residency.c turns that into blocks
 * per SM and achieved occupancy). Built without the CUDA runtime or the
 * kernels, every call says so.
 */
#include "config.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "calib_kernel.h"
#include "gpu.h"

#if defined(HAVE_CUDART) && defined(HAVE_CALIB_KERNELS)
#include "memory.h"

int gpu_kernel_regs(struct gpu_ctx *g, int regs, int *got, char *err,
		    size_t n)
{
	struct occ_kernel k;
	struct cudaFuncAttributes fa;
	const void *fn;
	cudaError_t e;

	occ_kernel_init(&k);
	k.regs_per_thread = regs;
	if (gpu_calib_prepare(g, &k, 0, &fn, err, n) != 0)
		return -1;
	if ((e = cudaFuncGetAttributes(&fa, fn)) != cudaSuccess)
		return gpu_cuda_fail(err, n, "cudaFuncGetAttributes", e);
	*got = fa.numRegs;
	return 0;
}

int gpu_api_blocks(struct gpu_ctx *g, const struct occ_kernel *k, int *blocks,
		   char *err, size_t n)
{
	const void *fn;
	cudaError_t e;

	if (gpu_calib_prepare(g, k, 0, &fn, err, n) != 0)
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
		: gpu_cuda_fail(err, n,
				"cudaOccupancyMaxActiveBlocksPerMultiprocessor", e);
}

int gpu_api_dynamic_smem(struct gpu_ctx *g, const struct occ_kernel *k,
			 int blocks, uint64_t *bytes, char *err, size_t n)
{
	const void *fn;
	size_t got = 0;
	int optin = 0;
	cudaError_t e = cudaSuccess;

	if (gpu_calib_prepare(g, k, 0, &fn, err, n) != 0)
		return -1;
	/* Asked of a kernel whose dynamic limit is as high as it may go, so
	 * that the answer is the occupancy's, not the attribute's. */
	if (k->optin &&
	    (e = cudaDeviceGetAttribute(&optin,
			cudaDevAttrMaxSharedMemoryPerBlockOptin, g->device)) ==
	    cudaSuccess && (uint64_t)optin > k->static_smem)
		e = cudaFuncSetAttribute(fn,
			cudaFuncAttributeMaxDynamicSharedMemorySize,
			optin - (int)k->static_smem);
	if (e != cudaSuccess)
		return gpu_cuda_fail(err, n, "cudaFuncSetAttribute", e);
	e = cudaOccupancyAvailableDynamicSMemPerBlock(&got, fn, blocks,
						       k->block_size);
	if (e != cudaSuccess)
		return gpu_cuda_fail(err, n,
				 "cudaOccupancyAvailableDynamicSMemPerBlock", e);
	*bytes = got;
	return 0;
}

int gpu_measure(struct gpu_ctx *g, const struct occ_kernel *k,
		int max_warps_per_sm, struct gpu_measured *m, char *err,
		size_t n)
{
	struct calib_launch l = { NULL, m->grid, m->spin_cycles };
	int warps_per_block = (k->block_size + 31) / 32;
	size_t warps = (size_t)m->grid * (size_t)warps_per_block;
	struct occ_warp_sample *host;
	const void *fn;
	double t0 = gpu_now_ms();
	int st;

	if (warps > GPU_MAX_SAMPLES) {
		snprintf(err, n, "%lld blocks of %d warps are more than the %d "
			 "warps a measurement records", (long long)m->grid,
			 warps_per_block, GPU_MAX_SAMPLES);
		return -1;
	}
	if (gpu_calib_prepare(g, k, 0, &fn, err, n) != 0)
		return -1;
	host = malloc(warps * sizeof *host);
	if (!host) {
		snprintf(err, n, "out of memory");
		return -1;
	}
	st = gpu_calib_launch(k, &l, fn, host, warps * sizeof *host, err, n);
	if (st == 0 && occ_residency(host, warps, max_warps_per_sm,
				     &m->residency) != OCC_OK) {
		snprintf(err, n, "the kernel's warp records are inconsistent");
		st = -1;
	}
	free(host);
	m->ms = gpu_now_ms() - t0;
	return st;
}

/* ---- Memory kernels ---- */

/* Bytes of memory an access measurement may take. */
#define ACCESS_BYTES (UINT64_C(256) << 20)
#define ACCESS_MAX_WARPS (1u << 20)
#define ACCESS_BLOCK 256

static uint64_t round_up(uint64_t x, uint64_t unit)
{
	return (x + unit - 1) / unit * unit;
}

/* Elapsed milliseconds of what runs between two recorded events. */
static int event_ms(cudaEvent_t a, cudaEvent_t b, float *ms)
{
	return cudaEventSynchronize(b) == cudaSuccess &&
	       cudaEventElapsedTime(ms, a, b) == cudaSuccess ? 0 : -1;
}

int gpu_access_measure(struct gpu_ctx *g, const struct occ_access *acc,
		       struct access_measured *m, char *err, size_t n)
{
	/* The memory is zeroed: a load never sees 1. */
	struct access_args a = { NULL, 0, acc->stride, acc->offset,
				 (unsigned)acc->threads, acc->lane_xor, 1, NULL };
	void *params[] = { &a };
	const void *fn = occ_access_kernel(acc->op, acc->elem_size);
	/* The farthest byte a warp touches, from its line-aligned base. */
	uint64_t reach = ((uint64_t)31 * acc->stride + acc->offset + 1) *
			 (uint64_t)acc->elem_size;
	dim3 grid = { 1, 1, 1 }, block = { ACCESS_BLOCK, 1, 1 };
	cudaEvent_t t0 = NULL, t1 = NULL;
	cudaError_t e;
	float ms = 0;

	if (!fn || reach > ACCESS_BYTES / 8) {
		snprintf(err, n, "a warp's access spans %llu bytes, more than a "
			 "measurement lays out", (unsigned long long)reach);
		return -1;
	}
	a.warp_span = round_up(reach, 128);
	m->warps = ACCESS_BYTES / a.warp_span;
	if (m->warps > ACCESS_MAX_WARPS)
		m->warps = ACCESS_MAX_WARPS;
	m->warps -= m->warps % (ACCESS_BLOCK / 32);
	grid.x = (unsigned)(m->warps / (ACCESS_BLOCK / 32));
	if ((e = cudaSetDevice(g->device)) != cudaSuccess ||
	    (e = cudaMalloc((void **)&a.base, m->warps * a.warp_span)) !=
	    cudaSuccess)
		return gpu_cuda_fail(err, n, "cudaMalloc", e);
	if ((e = cudaMalloc((void **)&a.sink, sizeof *a.sink)) == cudaSuccess &&
	    (e = cudaMemset(a.base, 0, m->warps * a.warp_span)) == cudaSuccess &&
	    (e = cudaEventCreate(&t0)) == cudaSuccess &&
	    (e = cudaEventCreate(&t1)) == cudaSuccess &&
	    /* A warm-up first: the kernel's first launch loads it. */
	    (e = cudaLaunchKernel(fn, grid, block, params, 0, 0)) == cudaSuccess &&
	    (e = cudaEventRecord(t0, 0)) == cudaSuccess &&
	    (e = cudaLaunchKernel(fn, grid, block, params, 0, 0)) == cudaSuccess &&
	    (e = cudaEventRecord(t1, 0)) == cudaSuccess &&
	    event_ms(t0, t1, &ms) != 0)
		e = cudaGetLastError();
	m->us = (double)ms * 1e3;
	cudaEventDestroy(t0);
	cudaEventDestroy(t1);
	cudaFree(a.base);
	cudaFree(a.sink);
	return e == cudaSuccess ? 0 : gpu_cuda_fail(err, n, "access launch", e);
}

/* The window on a stream: the plan's, or none (0 bytes). */
static cudaError_t set_window(cudaStream_t s, void *base, uint64_t bytes,
			      int hit_ratio_e4)
{
	cudaStreamAttrValue v;

	memset(&v, 0, sizeof v);
	v.accessPolicyWindow.base_ptr = base;
	v.accessPolicyWindow.num_bytes = (size_t)bytes;
	v.accessPolicyWindow.hitRatio = (float)hit_ratio_e4 / 10000.0f;
	v.accessPolicyWindow.hitProp = cudaAccessPropertyPersisting;
	v.accessPolicyWindow.missProp = cudaAccessPropertyStreaming;
	return cudaStreamSetAttribute(s, cudaStreamAttributeAccessPolicyWindow,
				      &v);
}

#define PERSIST_LAUNCHES 20
#define PERSIST_RUNS 3
#define STREAM_SLICES 4

/* launches of the kernel on s, each streaming the next slice: ms. */
static cudaError_t persist_run(cudaStream_t s, struct persist_args *a,
			       const unsigned long long *stream, int sms,
			       float *ms)
{
	dim3 grid = { (unsigned)sms * 8, 1, 1 }, block = { 256, 1, 1 };
	void *params[] = { a };
	cudaEvent_t t0, t1;
	cudaError_t e;
	int i;

	if ((e = cudaEventCreate(&t0)) != cudaSuccess)
		return e;
	if ((e = cudaEventCreate(&t1)) != cudaSuccess) {
		cudaEventDestroy(t0);
		return e;
	}
	e = cudaEventRecord(t0, s);
	for (i = 0; i < PERSIST_LAUNCHES && e == cudaSuccess; i++) {
		a->stream = stream + (uint64_t)(i % STREAM_SLICES) *
					     a->stream_words;
		e = cudaLaunchKernel(occ_persist_kernel(), grid, block, params,
				     0, s);
	}
	if (e == cudaSuccess)
		e = cudaEventRecord(t1, s);
	if (e == cudaSuccess && event_ms(t0, t1, ms) != 0)
		e = cudaGetLastError();
	cudaEventDestroy(t0);
	cudaEventDestroy(t1);
	return e;
}

/* Alternates runs without and with the window; keeps the best of each. */
static cudaError_t persist_compare(cudaStream_t s, struct persist_args *a,
				   const unsigned long long *stream,
				   const struct occ_l2_plan *p, int sms,
				   struct persist_measured *m)
{
	cudaError_t e = cudaSuccess;
	float ms;
	int run;

	m->ms_normal = m->ms_persisting = 1e30;
	for (run = 0; run < PERSIST_RUNS && e == cudaSuccess; run++) {
		if ((e = set_window(s, (void *)a->data, 0, 0)) != cudaSuccess ||
		    (e = cudaCtxResetPersistingL2Cache()) != cudaSuccess ||
		    (e = persist_run(s, a, stream, sms, &ms)) != cudaSuccess)
			break;
		if (ms < m->ms_normal)
			m->ms_normal = ms;
		if ((e = set_window(s, (void *)a->data, p->window,
				    p->hit_ratio_e4)) != cudaSuccess ||
		    (e = persist_run(s, a, stream, sms, &ms)) != cudaSuccess)
			break;
		if (ms < m->ms_persisting)
			m->ms_persisting = ms;
	}
	return e;
}

int gpu_persist_measure(struct gpu_ctx *g, const struct occ_l2 *l2,
			const struct occ_l2_plan *p, uint64_t data, int sms,
			struct persist_measured *m, char *err, size_t n)
{
	struct persist_args a;
	unsigned long long *stream = NULL, *buf = NULL;
	cudaStream_t s = NULL;
	size_t before = 0;
	cudaError_t e;

	memset(&a, 0, sizeof a);
	m->launches = PERSIST_LAUNCHES;
	m->streamed = round_up(l2->size, 8);
	a.data_words = data / 8;
	a.stream_words = m->streamed / 8;
	if ((e = cudaSetDevice(g->device)) != cudaSuccess ||
	    (e = cudaDeviceGetLimit(&before, cudaLimitPersistingL2CacheSize)) !=
	    cudaSuccess ||
	    (e = cudaMalloc((void **)&buf, round_up(data, 8))) != cudaSuccess)
		return gpu_cuda_fail(err, n, "cudaMalloc", e);
	a.data = buf;
	if ((e = cudaMalloc((void **)&stream, STREAM_SLICES * m->streamed)) ==
	    cudaSuccess &&
	    (e = cudaMalloc((void **)&a.sink, sizeof *a.sink)) == cudaSuccess &&
	    (e = cudaMemset(buf, 1, round_up(data, 8))) == cudaSuccess &&
	    (e = cudaMemset(stream, 2, STREAM_SLICES * m->streamed)) ==
	    cudaSuccess &&
	    (e = cudaStreamCreate(&s)) == cudaSuccess &&
	    (e = cudaDeviceSetLimit(cudaLimitPersistingL2CacheSize,
				    (size_t)p->set_aside)) == cudaSuccess)
		e = persist_compare(s, &a, stream, p, sms, m);
	/* Leave the device as it was found: no window, no persisting lines,
	 * the set-aside it had. */
	if (s) {
		set_window(s, buf, 0, 0);
		cudaStreamDestroy(s);
	}
	cudaCtxResetPersistingL2Cache();
	cudaDeviceSetLimit(cudaLimitPersistingL2CacheSize, before);
	cudaFree(buf);
	cudaFree(stream);
	cudaFree(a.sink);
	return e == cudaSuccess ? 0 : gpu_cuda_fail(err, n, "persistence run", e);
}

#else

int gpu_kernel_regs(struct gpu_ctx *g, int regs, int *got, char *err,
		    size_t n)
{
	(void)g;
	(void)regs;
	(void)got;
	return gpu_unavailable(err, n);
}

int gpu_api_blocks(struct gpu_ctx *g, const struct occ_kernel *k, int *blocks,
		   char *err, size_t n)
{
	(void)g;
	(void)k;
	(void)blocks;
	return gpu_unavailable(err, n);
}

int gpu_api_dynamic_smem(struct gpu_ctx *g, const struct occ_kernel *k,
			 int blocks, uint64_t *bytes, char *err, size_t n)
{
	(void)g;
	(void)k;
	(void)blocks;
	(void)bytes;
	return gpu_unavailable(err, n);
}

int gpu_measure(struct gpu_ctx *g, const struct occ_kernel *k,
		int max_warps_per_sm, struct gpu_measured *m, char *err,
		size_t n)
{
	(void)g;
	(void)k;
	(void)max_warps_per_sm;
	(void)m;
	return gpu_unavailable(err, n);
}

int gpu_access_measure(struct gpu_ctx *g, const struct occ_access *acc,
		       struct access_measured *m, char *err, size_t n)
{
	(void)g;
	(void)acc;
	(void)m;
	return gpu_unavailable(err, n);
}

int gpu_persist_measure(struct gpu_ctx *g, const struct occ_l2 *l2,
			const struct occ_l2_plan *p, uint64_t data, int sms,
			struct persist_measured *m, char *err, size_t n)
{
	(void)g;
	(void)l2;
	(void)p;
	(void)data;
	(void)sms;
	(void)m;
	return gpu_unavailable(err, n);
}

#endif
