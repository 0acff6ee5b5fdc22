/*
 * gpu_partition.c - a green context on the device: the split
 * cuDevSmResourceSplitByCount makes, one part of it made a green context,
 * and that context kept current for the GPU layer's later calls (their
 * occupancy API then answers for the part). The driver's green-context
 * calls are reached through the runtime (cudaGetDriverEntryPointByVersion),
 * so that occcalc links no more than the runtime. Built without the
 * runtime, every call says so.
 */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "calib_kernel.h"
#include "gpu.h"

#if defined(HAVE_CUDART) && defined(HAVE_CALIB_KERNELS)
#include <cuda.h>

/* The driver's calls this file makes, found once per call of enter. */
struct driver {
	CUresult (*get_resource)(CUdevice, CUdevResource *, CUdevResourceType);
	CUresult (*split)(CUdevResource *, unsigned *, const CUdevResource *,
			  CUdevResource *, unsigned, unsigned);
	CUresult (*desc)(CUdevResourceDesc *, CUdevResource *, unsigned);
	CUresult (*create)(CUgreenCtx *, CUdevResourceDesc, CUdevice, unsigned);
	CUresult (*to_ctx)(CUcontext *, CUgreenCtx);
	CUresult (*green_resource)(CUgreenCtx, CUdevResource *,
				   CUdevResourceType);
	CUresult (*stream)(CUstream *, CUgreenCtx, unsigned, int);
	CUresult (*set_current)(CUcontext);
	CUresult (*destroy)(CUgreenCtx);
	CUresult (*stream_destroy)(CUstream);
};

/* The calls as this toolkit's cuda.h declares them (green contexts came
 * with 12.4, their streams with 12.5: the driver must be as new). */
#define DRIVER_VERSION CUDART_VERSION

static int entry(const char *name, void **fn, char *err, size_t n)
{
	enum cudaDriverEntryPointQueryResult q;
	cudaError_t e = cudaGetDriverEntryPointByVersion(name, fn, DRIVER_VERSION,
							 cudaEnableDefault, &q);

	if (e != cudaSuccess)
		return gpu_cuda_fail(err, n, name, e);
	if (q != cudaDriverEntryPointSuccess || !*fn) {
		snprintf(err, n, "%s: not in this driver", name);
		return -1;
	}
	return 0;
}

static int driver_find(struct driver *d, char *err, size_t n)
{
	return entry("cuDeviceGetDevResource", (void **)&d->get_resource, err, n) ||
	       entry("cuDevSmResourceSplitByCount", (void **)&d->split, err, n) ||
	       entry("cuDevResourceGenerateDesc", (void **)&d->desc, err, n) ||
	       entry("cuGreenCtxCreate", (void **)&d->create, err, n) ||
	       entry("cuCtxFromGreenCtx", (void **)&d->to_ctx, err, n) ||
	       entry("cuGreenCtxGetDevResource", (void **)&d->green_resource,
		     err, n) ||
	       entry("cuGreenCtxStreamCreate", (void **)&d->stream, err, n) ||
	       entry("cuCtxSetCurrent", (void **)&d->set_current, err, n) ||
	       entry("cuGreenCtxDestroy", (void **)&d->destroy, err, n) ||
	       entry("cuStreamDestroy", (void **)&d->stream_destroy, err, n)
	       ? -1 : 0;
}

static int cu_fail(char *err, size_t n, const char *what, CUresult r)
{
	snprintf(err, n, "%s: CUresult %d", what, (int)r);
	return -1;
}

#define MAX_GROUPS 1024

int gpu_partition_enter(struct gpu_ctx *g, unsigned flags, int min_sms,
			int group, struct gpu_partition *p, char *err, size_t n)
{
	static CUdevResource groups[MAX_GROUPS];
	struct driver d;
	CUdevResource all, rest, got, *part;
	CUdevResourceDesc desc;
	CUgreenCtx green = NULL;
	CUcontext ctx;
	CUstream st;
	unsigned count = MAX_GROUPS;
	cudaError_t e;
	CUresult r;

	memset(p, 0, sizeof *p);
	if ((e = cudaSetDevice(g->device)) != cudaSuccess ||
	    (e = cudaFree(0)) != cudaSuccess)
		return gpu_cuda_fail(err, n, "cudaSetDevice", e);
	if (driver_find(&d, err, n) != 0)
		return -1;
	memset(&rest, 0, sizeof rest);
	if ((r = d.get_resource(g->device, &all, CU_DEV_RESOURCE_TYPE_SM)) !=
	    CUDA_SUCCESS)
		return cu_fail(err, n, "cuDeviceGetDevResource", r);
	if ((r = d.split(groups, &count, &all, &rest, flags, (unsigned)min_sms))
	    != CUDA_SUCCESS)
		return cu_fail(err, n, "cuDevSmResourceSplitByCount", r);
	p->groups = (int)count;
	p->group_sms = count ? (int)groups[0].sm.smCount : 0;
	p->remaining_sms = rest.type == CU_DEV_RESOURCE_TYPE_SM
			   ? (int)rest.sm.smCount : 0;
	if (group >= (int)count || (group < 0 && p->remaining_sms == 0)) {
		snprintf(err, n, "the driver made %u group%s of %d SMs and %d "
			 "left over: no such part", count, count == 1 ? "" : "s",
			 p->group_sms, p->remaining_sms);
		return -1;
	}
	part = group < 0 ? &rest : &groups[group];
	if ((r = d.desc(&desc, part, 1)) != CUDA_SUCCESS)
		return cu_fail(err, n, "cuDevResourceGenerateDesc", r);
	if ((r = d.create(&green, desc, g->device, CU_GREEN_CTX_DEFAULT_STREAM))
	    != CUDA_SUCCESS)
		return cu_fail(err, n, "cuGreenCtxCreate", r);
	if ((r = d.to_ctx(&ctx, green)) != CUDA_SUCCESS ||
	    (r = d.green_resource(green, &got, CU_DEV_RESOURCE_TYPE_SM)) !=
	    CUDA_SUCCESS ||
	    (r = d.stream(&st, green, CU_STREAM_NON_BLOCKING, 0)) !=
	    CUDA_SUCCESS) {
		d.destroy(green);
		return cu_fail(err, n, "the green context", r);
	}
	g->green = green;
	g->green_ctx = ctx;
	g->green_stream = st;
	g->set_current = (void *)d.set_current;
	g->green_destroy = (void *)d.destroy;
	g->stream_destroy = (void *)d.stream_destroy;
	p->part_sms = (int)got.sm.smCount;
	if (gpu_partition_resume(g, err, n) != 0)
		return -1;
	if ((e = cudaDeviceGetAttribute(&p->sm_attr,
					cudaDevAttrMultiProcessorCount,
					g->device)) != cudaSuccess)
		return gpu_cuda_fail(err, n, "cudaDeviceGetAttribute", e);
	return 0;
}

int gpu_partition_resume(struct gpu_ctx *g, char *err, size_t n)
{
	CUresult (*set)(CUcontext) = (CUresult (*)(CUcontext))g->set_current;
	CUresult r;

	if (!g->green)
		return 0;
	if ((r = set((CUcontext)g->green_ctx)) != CUDA_SUCCESS)
		return cu_fail(err, n, "cuCtxSetCurrent", r);
	return 0;
}

void gpu_partition_leave(struct gpu_ctx *g)
{
	CUresult (*destroy)(CUgreenCtx) = (CUresult (*)(CUgreenCtx))
					  g->green_destroy;
	CUresult (*sdestroy)(CUstream) = (CUresult (*)(CUstream))
					 g->stream_destroy;
	CUresult (*set)(CUcontext) = (CUresult (*)(CUcontext))g->set_current;

	if (!g->green)
		return;
	sdestroy((CUstream)g->green_stream);
	set(NULL);
	destroy((CUgreenCtx)g->green);
	g->green = g->green_ctx = g->green_stream = NULL;
}

#else

int gpu_partition_enter(struct gpu_ctx *g, unsigned flags, int min_sms,
			int group, struct gpu_partition *p, char *err, size_t n)
{
	(void)g;
	(void)flags;
	(void)min_sms;
	(void)group;
	(void)p;
	return gpu_unavailable(err, n);
}

int gpu_partition_resume(struct gpu_ctx *g, char *err, size_t n)
{
	(void)g;
	(void)err;
	(void)n;
	return 0;
}

void gpu_partition_leave(struct gpu_ctx *g)
{
	(void)g;
}

#endif
