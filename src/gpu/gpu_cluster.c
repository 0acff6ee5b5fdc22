/*
 * gpu_cluster.c - thread-block clusters on the GPU: the runtime's cluster
 * occupancy API for a calibrated cluster kernel with exactly a
 * configuration's resources, launches that record where and when each
 * warp ran (the library turns them into clusters and blocks resident at
 * once, and into the GPC layout). Built without the CUDA runtime or the
 * kernels, every call says so.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "calib_kernel.h"
#include "gpu.h"
#include "gpu_cluster.h"

#if defined(HAVE_CUDART) && defined(HAVE_CALIB_KERNELS)
#include "calib.h"

#define LAYOUT_SPIN 20000
#define LAYOUT_WAVES 4

static cudaError_t set_nonportable(const void *fn, int on)
{
	return cudaFuncSetAttribute(fn,
		cudaFuncAttributeNonPortableClusterSizeAllowed, on);
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
	return set_nonportable(fn, size > GPU_PORTABLE_CLUSTER);
}

int gpu_cluster_api(struct gpu_ctx *g, const struct occ_kernel *k,
		    const struct occ_cluster_shape *c,
		    struct gpu_cluster_api *out, char *err, size_t n)
{
	struct calib_launch one = { c, 1, 0 };
	struct cudaFuncAttributes fa;
	cudaLaunchAttribute attr;
	cudaLaunchConfig_t cfg;
	const void *fn;
	cudaError_t e;

	if (gpu_api_blocks(g, k, &out->blocks_per_sm, err, n) != 0 ||
	    gpu_calib_prepare(g, k, c->size, &fn, err, n) != 0)
		return -1;
	if ((e = cudaFuncGetAttributes(&fa, fn)) != cudaSuccess)
		return gpu_cuda_fail(err, n, "cudaFuncGetAttributes", e);
	out->kernel_regs = fa.numRegs;
	cfg = gpu_calib_config(k, &one, &attr);
	cfg.stream = (cudaStream_t)g->green_stream;   /* NULL: the device's */
	e = cudaOccupancyMaxActiveClusters(&out->clusters, fn, &cfg);
	if (e != cudaSuccess)
		return gpu_cuda_fail(err, n, "cudaOccupancyMaxActiveClusters", e);
	e = potential(fn, cfg, c->size, out);
	return e == cudaSuccess ? 0
		: gpu_cuda_fail(err, n, "cudaOccupancyMaxPotentialClusterSize", e);
}

/* Each warp as residency.c reads it; each CTA (its warps together) as
 * cluster.c does. */
static void split(const struct calib_cluster_record *r, size_t warps,
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
	struct calib_cluster_record *raw;
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

static int records_launch(struct gpu_ctx *g, const struct occ_kernel *k,
			  const struct occ_cluster_shape *c, int64_t clusters,
			  uint64_t spin, struct records *r, char *err, size_t n)
{
	struct calib_launch l = { c, clusters, spin };
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
	if (gpu_calib_prepare(g, k, c->size, &fn, err, n) != 0)
		return -1;
	r->raw = malloc(r->n_warps * sizeof *r->raw);
	r->warps = malloc(r->n_warps * sizeof *r->warps);
	r->ctas = malloc(r->n_ctas * sizeof *r->ctas);
	if (!r->raw || !r->warps || !r->ctas) {
		records_free(r);
		snprintf(err, n, "out of memory");
		return -1;
	}
	if (gpu_calib_launch(k, &l, fn, r->raw, r->n_warps * sizeof *r->raw,
			     err, n) != 0) {
		records_free(r);
		return -1;
	}
	split(r->raw, r->n_warps, wpb, r->warps, r->ctas);
	return 0;
}

int gpu_cluster_measure(struct gpu_ctx *g, const struct occ_kernel *k,
			const struct occ_cluster_shape *c,
			int max_warps_per_sm, struct gpu_cluster_measured *m,
			char *err, size_t n)
{
	struct records r;
	double t0 = gpu_now_ms();
	int st = 0;

	if (records_launch(g, k, c, m->clusters, m->spin_cycles, &r, err, n) != 0)
		return -1;
	if (occ_residency(r.warps, r.n_warps, max_warps_per_sm,
			  &m->residency) != OCC_OK ||
	    occ_cluster_residency(r.ctas, r.n_ctas, &m->cres) != OCC_OK) {
		snprintf(err, n, "the kernel's warp records are inconsistent");
		st = -1;
	}
	records_free(&r);
	m->ms = gpu_now_ms() - t0;
	return st;
}

/* Clusters of 2 to 16 at one CTA per SM (all the shared memory a block
 * may have), a few waves each, their CTAs appended to *all with cluster
 * numbers made distinct across launches. Sizes that do not launch are
 * passed over. */
static int layout_launches(struct gpu_ctx *g, int sms, int optin, struct occ_cta_sample **all,
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
		if (records_launch(g, &k, &c, LAYOUT_WAVES * (sms / c.size + 1),
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

int gpu_cluster_layout(struct gpu_ctx *g, struct occ_gpc_layout *l, int *gpc_of,
		       int gpc_of_len, char *err, size_t n)
{
	struct occ_cta_sample *all = NULL;
	size_t n_all = 0;
	int sms = 0, optin = 0, *of;
	cudaError_t e;
	enum occ_status st;

	if ((e = cudaSetDevice(g->device)) != cudaSuccess ||
	    (e = cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount,
					g->device)) != cudaSuccess ||
	    (e = cudaDeviceGetAttribute(&optin,
			cudaDevAttrMaxSharedMemoryPerBlockOptin, g->device)) !=
	    cudaSuccess)
		return gpu_cuda_fail(err, n, "the device's attributes", e);
	if (layout_launches(g, sms, optin, &all, &n_all, err, n) != 0) {
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

int gpu_cluster_api(struct gpu_ctx *g, const struct occ_kernel *k,
		    const struct occ_cluster_shape *c,
		    struct gpu_cluster_api *out, char *err, size_t n)
{
	(void)g;
	(void)k;
	(void)c;
	(void)out;
	return gpu_unavailable(err, n);
}

int gpu_cluster_measure(struct gpu_ctx *g, const struct occ_kernel *k,
			const struct occ_cluster_shape *c,
			int max_warps_per_sm, struct gpu_cluster_measured *m,
			char *err, size_t n)
{
	(void)g;
	(void)k;
	(void)c;
	(void)max_warps_per_sm;
	(void)m;
	return gpu_unavailable(err, n);
}

int gpu_cluster_layout(struct gpu_ctx *g, struct occ_gpc_layout *l, int *gpc_of,
		       int gpc_of_len, char *err, size_t n)
{
	(void)g;
	(void)l;
	(void)gpc_of;
	(void)gpc_of_len;
	return gpu_unavailable(err, n);
}

#endif
