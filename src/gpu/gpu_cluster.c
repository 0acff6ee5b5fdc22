/*
 * gpu_cluster.c - thread-block clusters on the GPU: the runtime's cluster
 * occupancy API for a calibrated cluster kernel with exactly a
 * configuration's resources, launches that record where and when each
 * warp ran (the library turns them into clusters and blocks resident at
 * once, and into the GPC layout). Built without the CUDA runtime or the
 * kernels, every call says so.
 */
#include "config.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "gpu.h"
#include "gpu_cluster.h"

#if defined(HAVE_CUDART) && defined(HAVE_CALIB_KERNELS)
#include <cuda_runtime_api.h>

#include "cluster.h"

/* Dynamic shared memory a kernel may use unless it raises the limit. */
#define DEFAULT_DYNAMIC_SMEM (48 * 1024)
/* Clusters above this many CTAs need the non-portable attribute. */
#define PORTABLE_CLUSTER 8
#define LAYOUT_SPIN 20000
#define LAYOUT_WAVES 4

static int cuda_fail(char *err, size_t n, const char *what, cudaError_t e)
{
	snprintf(err, n, "%s: %s", what, cudaGetErrorString(e));
	return -1;
}

static cudaError_t set_nonportable(const void *fn, int on)
{
	return cudaFuncSetAttribute(fn,
		cudaFuncAttributeNonPortableClusterSizeAllowed, on);
}

/* The kernel for k, its attributes set as the configuration asks (see
 * measure.c's prepare): the dynamic limit raised only with opt-in, the
 * carveout, and non-portable sizes allowed when the cluster needs it. */
static int prepare(const struct occ_kernel *k, int size, const void **fn,
		   char *err, size_t n)
{
	uint64_t smem = k->static_smem + k->dynamic_smem;
	uint64_t limit = k->optin && smem > DEFAULT_DYNAMIC_SMEM
			 ? smem : DEFAULT_DYNAMIC_SMEM;
	cudaError_t e;

	*fn = occ_cluster_kernel(k->regs_per_thread < 1 ? 1
						       : k->regs_per_thread);
	if (!*fn) {
		snprintf(err, n, "no calibrated cluster kernel has %d registers",
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
	if (e == cudaSuccess)
		e = set_nonportable(*fn, size > PORTABLE_CLUSTER);
	return e == cudaSuccess ? 0 : cuda_fail(err, n, "cudaFuncSetAttribute", e);
}

static cudaLaunchConfig_t launch_config(const struct occ_kernel *k,
					const struct occ_cluster_shape *c,
					int64_t clusters,
					cudaLaunchAttribute *attr)
{
	cudaLaunchConfig_t cfg;

	memset(&cfg, 0, sizeof cfg);
	cfg.gridDim.x = (unsigned)(c->dims[0] * clusters);
	cfg.gridDim.y = (unsigned)c->dims[1];
	cfg.gridDim.z = (unsigned)c->dims[2];
	cfg.blockDim.x = (unsigned)k->block_size;
	cfg.blockDim.y = cfg.blockDim.z = 1;
	cfg.dynamicSmemBytes = (size_t)(k->static_smem + k->dynamic_smem);
	attr->id = cudaLaunchAttributeClusterDimension;
	attr->val.clusterDim.x = (unsigned)c->dims[0];
	attr->val.clusterDim.y = (unsigned)c->dims[1];
	attr->val.clusterDim.z = (unsigned)c->dims[2];
	cfg.attrs = attr;
	cfg.numAttrs = 1;
	return cfg;
}

/* cudaOccupancyMaxPotentialClusterSize without and with non-portable
 * sizes; the attribute is put back as the configuration has it. */
static cudaError_t potential(const void *fn, cudaLaunchConfig_t cfg,
			     int size, struct gpu_cluster_api *out)
{
	cudaError_t e;

	cfg.numAttrs = 0;   /* the call ignores the cluster's shape */
	if ((e = set_nonportable(fn, 0)) != cudaSuccess ||
	    (e = cudaOccupancyMaxPotentialClusterSize(&out->potential, fn,
						      &cfg)) != cudaSuccess ||
	    (e = set_nonportable(fn, 1)) != cudaSuccess ||
	    (e = cudaOccupancyMaxPotentialClusterSize(
		     &out->potential_nonportable, fn, &cfg)) != cudaSuccess)
		return e;
	return set_nonportable(fn, size > PORTABLE_CLUSTER);
}

int gpu_cluster_api(int device, const struct occ_kernel *k,
		    const struct occ_cluster_shape *c,
		    struct gpu_cluster_api *out, char *err, size_t n)
{
	struct cudaFuncAttributes fa;
	cudaLaunchAttribute attr;
	cudaLaunchConfig_t cfg;
	const void *fn;
	size_t smem = (size_t)(k->static_smem + k->dynamic_smem);
	cudaError_t e;

	if ((e = cudaSetDevice(device)) != cudaSuccess)
		return cuda_fail(err, n, "cudaSetDevice", e);
	if (prepare(k, c->size, &fn, err, n) != 0)
		return -1;
	if ((e = cudaFuncGetAttributes(&fa, fn)) != cudaSuccess)
		return cuda_fail(err, n, "cudaFuncGetAttributes", e);
	out->kernel_regs = fa.numRegs;
	e = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&out->blocks_per_sm,
			fn, k->block_size, smem);
	/* A configuration that cannot launch is 0 blocks, as the model says. */
	if (e == cudaErrorInvalidValue) {
		(void)cudaGetLastError();
		out->blocks_per_sm = 0;
	} else if (e != cudaSuccess) {
		return cuda_fail(err, n,
			"cudaOccupancyMaxActiveBlocksPerMultiprocessor", e);
	}
	cfg = launch_config(k, c, 1, &attr);
	e = cudaOccupancyMaxActiveClusters(&out->clusters, fn, &cfg);
	if (e != cudaSuccess)
		return cuda_fail(err, n, "cudaOccupancyMaxActiveClusters", e);
	e = potential(fn, cfg, c->size, out);
	return e == cudaSuccess ? 0
		: cuda_fail(err, n, "cudaOccupancyMaxPotentialClusterSize", e);
}

static double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

/* Launches clusters of the kernel and copies its warps' records back
 * into host (warps of them). */
static int run(const struct occ_kernel *k, const struct occ_cluster_shape *c,
	       const void *fn, int64_t clusters, uint64_t spin,
	       struct cluster_warp_record *host, size_t warps, char *err,
	       size_t n)
{
	struct cluster_args args = { NULL, spin, 0, NULL };
	void *params[] = { &args };
	size_t bytes = warps * sizeof *host;
	cudaLaunchAttribute attr;
	cudaLaunchConfig_t cfg = launch_config(k, c, clusters, &attr);
	cudaError_t e;

	args.smem_words = (unsigned)((k->static_smem + k->dynamic_smem) / 4);
	if ((e = cudaMalloc((void **)&args.warps, bytes)) != cudaSuccess)
		return cuda_fail(err, n, "cudaMalloc", e);
	if ((e = cudaMalloc((void **)&args.sink, sizeof *args.sink)) !=
	    cudaSuccess) {
		cudaFree(args.warps);
		return cuda_fail(err, n, "cudaMalloc", e);
	}
	e = cudaLaunchKernelExC(&cfg, fn, params);
	if (e == cudaSuccess)
		e = cudaDeviceSynchronize();
	if (e == cudaSuccess)
		e = cudaMemcpy(host, args.warps, bytes, cudaMemcpyDeviceToHost);
	else
		(void)cudaGetLastError();
	cudaFree(args.warps);
	cudaFree(args.sink);
	return e == cudaSuccess ? 0 : cuda_fail(err, n, "cluster launch", e);
}

/* Each warp as residency.c reads it; each CTA (its warps together) as
 * cluster.c does. */
static void split(const struct cluster_warp_record *r, size_t warps,
		  int warps_per_block, struct occ_warp_sample *w,
		  struct occ_cta_sample *cta)
{
	size_t i;

	for (i = 0; i < warps; i++) {
		struct occ_cta_sample *b = &cta[i / (size_t)warps_per_block];

		w[i].start = r[i].clock_start;
		w[i].end = r[i].clock_end;
		w[i].sm = r[i].sm;
		w[i].block = r[i].block;
		if (i % (size_t)warps_per_block == 0) {
			b->start = r[i].timer_start;
			b->end = r[i].timer_end;
			b->sm = r[i].sm;
			b->cluster = r[i].cluster;
		}
		if (r[i].timer_start < b->start)
			b->start = r[i].timer_start;
		if (r[i].timer_end > b->end)
			b->end = r[i].timer_end;
	}
}

/* Records of one launch: warps, and CTAs. */
struct records {
	struct cluster_warp_record *raw;
	struct occ_warp_sample *warps;
	struct occ_cta_sample *ctas;
	size_t n_warps, n_ctas;
};

static void records_free(struct records *r)
{
	free(r->raw);
	free(r->warps);
	free(r->ctas);
}

static int records_launch(const struct occ_kernel *k,
			  const struct occ_cluster_shape *c, int64_t clusters,
			  uint64_t spin, struct records *r, char *err, size_t n)
{
	int wpb = (k->block_size + 31) / 32;
	const void *fn;

	memset(r, 0, sizeof *r);
	r->n_ctas = (size_t)clusters * (size_t)c->size;
	r->n_warps = r->n_ctas * (size_t)wpb;
	if (r->n_warps > GPU_MAX_SAMPLES) {
		snprintf(err, n, "%lld clusters of %d CTAs of %d warps are more "
			 "than the %d warps a measurement records",
			 (long long)clusters, c->size, wpb, GPU_MAX_SAMPLES);
		return -1;
	}
	if (prepare(k, c->size, &fn, err, n) != 0)
		return -1;
	r->raw = malloc(r->n_warps * sizeof *r->raw);
	r->warps = malloc(r->n_warps * sizeof *r->warps);
	r->ctas = malloc(r->n_ctas * sizeof *r->ctas);
	if (!r->raw || !r->warps || !r->ctas) {
		records_free(r);
		snprintf(err, n, "out of memory");
		return -1;
	}
	if (run(k, c, fn, clusters, spin, r->raw, r->n_warps, err, n) != 0) {
		records_free(r);
		return -1;
	}
	split(r->raw, r->n_warps, wpb, r->warps, r->ctas);
	return 0;
}

int gpu_cluster_measure(int device, const struct occ_kernel *k,
			const struct occ_cluster_shape *c,
			int max_warps_per_sm, struct gpu_cluster_measured *m,
			char *err, size_t n)
{
	struct records r;
	double t0 = now_ms();
	cudaError_t e;
	int st = 0;

	if ((e = cudaSetDevice(device)) != cudaSuccess)
		return cuda_fail(err, n, "cudaSetDevice", e);
	if (records_launch(k, c, m->clusters, m->spin_cycles, &r, err, n) != 0)
		return -1;
	if (occ_residency(r.warps, r.n_warps, max_warps_per_sm,
			  &m->residency) != OCC_OK ||
	    occ_cluster_residency(r.ctas, r.n_ctas, &m->cres) != OCC_OK) {
		snprintf(err, n, "the kernel's warp records are inconsistent");
		st = -1;
	}
	records_free(&r);
	m->ms = now_ms() - t0;
	return st;
}

/* Clusters of 2 to 16 at one CTA per SM (all the shared memory a block
 * may have), a few waves each, their CTAs appended to *all with cluster
 * numbers made distinct across launches. Sizes that do not launch are
 * passed over. */
static int layout_launches(int sms, int optin, struct occ_cta_sample **all,
			   size_t *n_all, char *err, size_t n)
{
	struct occ_kernel k;
	struct occ_cluster_shape c = { { 1, 1, 1 }, 1 };
	uint32_t base = 0;
	size_t i;

	occ_kernel_init(&k);
	k.block_size = 32;
	k.regs_per_thread = 32;
	k.dynamic_smem = (uint64_t)optin;
	for (c.size = 2; c.size <= 16; c.size++) {
		struct records r;
		struct occ_cta_sample *grown;

		c.dims[0] = c.size;
		if (records_launch(&k, &c, LAYOUT_WAVES * (sms / c.size + 1),
				   LAYOUT_SPIN, &r, err, n) != 0)
			continue;
		grown = realloc(*all, (*n_all + r.n_ctas) * sizeof **all);
		if (!grown) {
			records_free(&r);
			snprintf(err, n, "out of memory");
			return -1;
		}
		*all = grown;
		for (i = 0; i < r.n_ctas; i++) {
			r.ctas[i].cluster += base;
			(*all)[(*n_all)++] = r.ctas[i];
		}
		base += (uint32_t)(r.n_ctas / (size_t)c.size);
		records_free(&r);
	}
	return *n_all ? 0 : -1;   /* err holds the last failure */
}

int gpu_cluster_layout(int device, struct occ_gpc_layout *l, int *gpc_of,
		       int gpc_of_len, char *err, size_t n)
{
	struct occ_cta_sample *all = NULL;
	size_t n_all = 0;
	int sms = 0, optin = 0, *of;
	cudaError_t e;
	enum occ_status st;

	if ((e = cudaSetDevice(device)) != cudaSuccess ||
	    (e = cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount,
					device)) != cudaSuccess ||
	    (e = cudaDeviceGetAttribute(&optin,
			cudaDevAttrMaxSharedMemoryPerBlockOptin, device)) !=
	    cudaSuccess)
		return cuda_fail(err, n, "the device's attributes", e);
	if (layout_launches(sms, optin, &all, &n_all, err, n) != 0) {
		free(all);
		return -1;
	}
	of = malloc((size_t)sms * sizeof *of);
	st = of ? occ_layout_from_samples(all, n_all, sms, l, of) : OCC_ERR_NOMEM;
	if (st == OCC_OK && gpc_of)
		memcpy(gpc_of, of, (size_t)(gpc_of_len < sms ? gpc_of_len : sms) *
		       sizeof *of);
	free(of);
	free(all);
	if (st != OCC_OK)
		snprintf(err, n, "the layout launches' records: %s",
			 occ_strerror(st));
	return st == OCC_OK ? 0 : -1;
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

int gpu_cluster_api(int device, const struct occ_kernel *k,
		    const struct occ_cluster_shape *c,
		    struct gpu_cluster_api *out, char *err, size_t n)
{
	(void)device;
	(void)k;
	(void)c;
	(void)out;
	return unavailable(err, n);
}

int gpu_cluster_measure(int device, const struct occ_kernel *k,
			const struct occ_cluster_shape *c,
			int max_warps_per_sm, struct gpu_cluster_measured *m,
			char *err, size_t n)
{
	(void)device;
	(void)k;
	(void)c;
	(void)max_warps_per_sm;
	(void)m;
	return unavailable(err, n);
}

int gpu_cluster_layout(int device, struct occ_gpc_layout *l, int *gpc_of,
		       int gpc_of_len, char *err, size_t n)
{
	(void)device;
	(void)l;
	(void)gpc_of;
	(void)gpc_of_len;
	return unavailable(err, n);
}

#endif
