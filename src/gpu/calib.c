/*
 * calib.c - the calibrated kernel on the GPU: the driver compiles its PTX
 * once per register count asked, with the count as the register cap, and
 * the context keeps what it loaded; each configuration sets the kernel's
 * attributes and launches it, plainly or as clusters. The one place the
 * measuring code gets its kernel.
 */
#include "config.h"

#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "calib_kernel.h"

#if defined(HAVE_CUDART) && defined(HAVE_CALIB_KERNELS)
#include "calib.h"

/* Dynamic shared memory a kernel may use unless it raises the limit. */
#define DEFAULT_DYNAMIC_SMEM (48 * 1024)

/* The PTX of each target (calib.h), by its index in the context, and the
 * compute capability it needs. */
static const struct target {
	const char *ptx;
	int cc_major;
} targets[GPU_CALIB_TARGETS] = {
	{ occ_calib_ptx_75, 7 },
	{ occ_calib_ptx_90, 9 },
};

int gpu_cuda_fail(char *err, size_t n, const char *what, cudaError_t e)
{
	snprintf(err, n, "%s: %s", what, cudaGetErrorString(e));
	return -1;
}

double gpu_now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

/* The newest target the current device runs. */
static int target_of(const struct gpu_ctx *g, char *err, size_t n)
{
	int major = 0, t;
	cudaError_t e = cudaDeviceGetAttribute(&major,
			cudaDevAttrComputeCapabilityMajor, g->device);

	if (e != cudaSuccess)
		return gpu_cuda_fail(err, n, "cudaDeviceGetAttribute", e);
	for (t = GPU_CALIB_TARGETS - 1; t > 0; t--)
		if (major >= targets[t].cc_major)
			break;
	return t;
}

/* The kernel compiled with at most regs registers (0: the fewest), or
 * NULL with a message: the driver compiles the PTX with regs as the cap,
 * and what it loads is what cudaFuncGetAttributes reports. Each count is
 * loaded once and kept in g: compiling takes tens of milliseconds, and a
 * sweep asks the same counts again and again. */
static const void *calib_kernel(struct gpu_ctx *g, int regs, char *err,
				size_t n)
{
	int cap = regs < 1 ? 1 : regs, t;
	enum cudaJitOption opt[] = { cudaJitMaxRegisters };
	void *val[] = { (void *)(uintptr_t)cap };
	cudaLibrary_t lib;
	cudaKernel_t kern;
	cudaError_t e;

	if (cap > GPU_MAX_REGS) {
		snprintf(err, n, "no calibrated kernel has %d registers", regs);
		return NULL;
	}
	if ((t = target_of(g, err, n)) < 0)
		return NULL;
	if (g->kernel[t][cap])
		return g->kernel[t][cap];
	e = cudaLibraryLoadData(&lib, targets[t].ptx, opt, val, 1, NULL, NULL,
				0);
	if (e == cudaSuccess &&
	    (e = cudaLibraryGetKernel(&kern, lib, OCC_CALIB_NAME)) !=
	    cudaSuccess)
		cudaLibraryUnload(lib);
	if (e != cudaSuccess) {
		gpu_cuda_fail(err, n, "loading the calibrated kernel", e);
		return NULL;
	}
	g->library[t][cap] = lib;
	g->kernel[t][cap] = kern;
	return g->kernel[t][cap];
}

void gpu_ctx_release(struct gpu_ctx *g)
{
	int t, r;

	gpu_partition_leave(g);
	for (t = 0; t < GPU_CALIB_TARGETS; t++)
		for (r = 0; r <= GPU_MAX_REGS; r++)
			if (g->library[t][r]) {
				cudaLibraryUnload((cudaLibrary_t)g->library[t][r]);
				g->library[t][r] = g->kernel[t][r] = NULL;
			}
}

/* Attributes outlive a configuration, so each is set every time. A limit
 * the device refuses (above sharedMemPerBlockOptin) is left lower: the
 * configuration cannot launch, and the API says 0 blocks. */
int gpu_calib_prepare(struct gpu_ctx *g, const struct occ_kernel *k,
		      int cluster, const void **fn, char *err, size_t n)
{
	uint64_t smem = k->static_smem + k->dynamic_smem;
	uint64_t limit = k->optin && smem > DEFAULT_DYNAMIC_SMEM
			 ? smem : DEFAULT_DYNAMIC_SMEM;
	cudaError_t e;

	if ((e = cudaSetDevice(g->device)) != cudaSuccess)
		return gpu_cuda_fail(err, n, "cudaSetDevice", e);
	if (gpu_partition_resume(g, err, n) != 0)
		return -1;
	if (!(*fn = calib_kernel(g, k->regs_per_thread, err, n)))
		return -1;
	e = cudaFuncSetAttribute(*fn, cudaFuncAttributeMaxDynamicSharedMemorySize,
				 limit > INT_MAX ? INT_MAX : (int)limit);
	if (e == cudaErrorInvalidValue)
		(void)cudaGetLastError();
	else if (e != cudaSuccess)
		return gpu_cuda_fail(err, n, "cudaFuncSetAttribute", e);
	e = cudaFuncSetAttribute(*fn,
			cudaFuncAttributePreferredSharedMemoryCarveout,
			k->carveout == OCC_CARVEOUT_DEFAULT
			? cudaSharedmemCarveoutDefault : k->carveout);
	if (e == cudaSuccess && cluster)
		e = cudaFuncSetAttribute(*fn,
			cudaFuncAttributeNonPortableClusterSizeAllowed,
			cluster > GPU_PORTABLE_CLUSTER);
	return e == cudaSuccess ? 0
		: gpu_cuda_fail(err, n, "cudaFuncSetAttribute", e);
}

cudaLaunchConfig_t gpu_calib_config(const struct occ_kernel *k,
				    const struct calib_launch *l,
				    cudaLaunchAttribute *attr)
{
	const struct occ_cluster_shape *c = l->cluster;
	cudaLaunchConfig_t cfg;

	memset(&cfg, 0, sizeof cfg);
	cfg.gridDim.x = (unsigned)(c ? c->dims[0] * l->grid : l->grid);
	cfg.gridDim.y = c ? (unsigned)c->dims[1] : 1;
	cfg.gridDim.z = c ? (unsigned)c->dims[2] : 1;
	cfg.blockDim.x = (unsigned)k->block_size;
	cfg.blockDim.y = cfg.blockDim.z = 1;
	cfg.dynamicSmemBytes = (size_t)(k->static_smem + k->dynamic_smem);
	if (c) {
		attr->id = cudaLaunchAttributeClusterDimension;
		attr->val.clusterDim.x = (unsigned)c->dims[0];
		attr->val.clusterDim.y = (unsigned)c->dims[1];
		attr->val.clusterDim.z = (unsigned)c->dims[2];
		cfg.attrs = attr;
		cfg.numAttrs = 1;
	}
	return cfg;
}

int gpu_calib_launch(const struct occ_kernel *k, const struct calib_launch *l,
		     const void *fn, void *host, size_t bytes, char *err,
		     size_t n)
{
	struct calib_args args = { NULL, NULL, l->spin_cycles, 0, NULL };
	void *params[] = { &args }, *records = NULL;
	cudaLaunchAttribute attr;
	cudaLaunchConfig_t cfg = gpu_calib_config(k, l, &attr);
	cudaError_t e;

	args.smem_words = (unsigned)((k->static_smem + k->dynamic_smem) / 4);
	if ((e = cudaMalloc(&records, bytes)) != cudaSuccess)
		return gpu_cuda_fail(err, n, "cudaMalloc", e);
	if ((e = cudaMalloc((void **)&args.sink, sizeof *args.sink)) !=
	    cudaSuccess) {
		cudaFree(records);
		return gpu_cuda_fail(err, n, "cudaMalloc", e);
	}
	if (l->cluster)
		args.clusters = records;
	else
		args.samples = records;
	e = cudaLaunchKernelExC(&cfg, fn, params);
	if (e == cudaSuccess)
		e = cudaDeviceSynchronize();
	if (e == cudaSuccess)
		e = cudaMemcpy(host, records, bytes, cudaMemcpyDeviceToHost);
	else
		(void)cudaGetLastError();
	cudaFree(records);
	cudaFree(args.sink);
	return e == cudaSuccess ? 0 : gpu_cuda_fail(err, n, l->cluster
			? "cluster launch" : "calibrated launch", e);
}

#else

/* Nothing was loaded: there is nothing to load with. */
void gpu_ctx_release(struct gpu_ctx *g)
{
	gpu_partition_leave(g);
}

#endif

int gpu_unavailable(char *err, size_t n)
{
#ifdef HAVE_CUDART
	snprintf(err, n, "this occcalc was built without its calibrated "
		 "kernels (nvcc was not found)");
#else
	snprintf(err, n, "this occcalc was built without the CUDA runtime");
#endif
	return -1;
}
