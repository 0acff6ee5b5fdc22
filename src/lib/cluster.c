/*
 * cluster.c - thread-block clusters: how many a GPU holds at once.
 *
 * The hardware places all CTAs of a cluster at once, on distinct SMs of
 * one GPC. Measured on an H200 (docs/cluster-validation.md): a GPC of n
 * SMs holds floor(n x b / size) clusters when n >= size and none
 * otherwise, b being the blocks an SM holds in a cluster launch: the
 * plain occupancy, capped at clusterBlocksPerMultiprocessor (8 on sm_90,
 * where a plain launch allows 32). The runtime's
 * cudaOccupancyMaxActiveClusters answers exactly that sum over the GPCs,
 * and launches reach it; the cluster's shape matters only through its
 * number of CTAs.
 */
#include <ctype.h>
#include <stdlib.h>

#include "occcalc.h"
#include "util.h"

#define SHAPE_DIM_MAX 1024

enum occ_status occ_cluster_parse(const char *s, struct occ_cluster_shape *c,
				  size_t *pos)
{
	size_t i = 0;
	int n = 0;

	c->size = 1;
	for (;;) {
		size_t at = i;
		long v = 0;

		while (isdigit((unsigned char)s[i]) && v <= SHAPE_DIM_MAX)
			v = v * 10 + (s[i++] - '0');
		if (i == at || v < 1 || v > SHAPE_DIM_MAX || n == 3) {
			if (pos)
				*pos = at + 1;
			return OCC_ERR_INVALID_INPUT;
		}
		c->dims[n++] = (int)v;
		c->size *= (int)v;   /* at most 1024^3: fits */
		if (s[i] == '\0')
			break;
		if (s[i] != 'x') {
			if (pos)
				*pos = i + 1;
			return OCC_ERR_INVALID_INPUT;
		}
		i++;
	}
	while (n < 3)
		c->dims[n++] = 1;
	return OCC_OK;
}

static int valid_layout(const struct occ_gpc_layout *l)
{
	int i, sum = 0;

	if (l->n_gpcs < 1 || l->n_gpcs > OCC_MAX_GPCS)
		return 0;
	for (i = 0; i < l->n_gpcs; i++) {
		if (l->sms_per_gpc[i] < 1 ||
		    l->sms_per_gpc[i] > OCC_MAX_SMS_PER_GPC)
			return 0;
		sum += l->sms_per_gpc[i];
	}
	return sum == l->sms;
}

int occ_cluster_size_limit(const struct occ_arch *a)
{
	if (a->cc_major < 9)
		return 0;
	return a->cluster_size_max ? a->cluster_size_max
				   : a->cluster_size_portable;
}

static enum occ_status check(const struct occ_arch *a,
			     const struct occ_gpc_layout *l, int size)
{
	if (occ_cluster_size_limit(a) == 0)
		return OCC_ERR_UNSUPPORTED;
	if (size < 1 || size > occ_cluster_size_limit(a) || !valid_layout(l))
		return OCC_ERR_INVALID_INPUT;
	return OCC_OK;
}

int occ_cluster_cap_unknown(const struct occ_arch *a)
{
	return a->cc_major >= 9 && a->cluster_blocks_per_sm == 0 &&
	       a->cluster_size_portable > 0;
}

/* Clusters per GPC, summed; the slots they leave empty. */
static void fill_gpcs(const struct occ_gpc_layout *l, int b, int size,
		      struct occ_cluster_result *c)
{
	int i;

	for (i = 0; i < l->n_gpcs; i++) {
		int64_t n = l->sms_per_gpc[i], k = 0;

		if (n > c->largest_gpc)
			c->largest_gpc = (int)n;
		if (n < size)
			c->gpcs_too_small++;
		else
			k = n * b / size;
		c->max_active_clusters += (int)k;
		c->gpcs_used += k > 0;
		c->idle_slots += n * b - k * size;
	}
}

static unsigned limiters(const struct occ_cluster_result *c, int plain,
			 int cap)
{
	unsigned bits = 0;

	if (c->blocks_per_sm == 0)
		return 0;
	bits |= cap == 0 || plain <= cap ? OCC_CLUSTER_LIMIT_SM : 0;
	bits |= cap <= plain && cap > 0 ? OCC_CLUSTER_LIMIT_CLUSTER_BLOCKS : 0;
	bits |= c->idle_slots > 0 ? OCC_CLUSTER_LIMIT_GPC : 0;
	return bits;
}

enum occ_status occ_cluster_compute(const struct occ_arch *arch,
				    const struct occ_result *r,
				    const struct occ_gpc_layout *layout,
				    int size, struct occ_cluster_result *c)
{
	int cap = arch->cluster_blocks_per_sm;
	enum occ_status st = check(arch, layout, size);

	if (st != OCC_OK)
		return st;
	c->size = size;
	c->portable = size <= arch->cluster_size_portable;
	/* No cap known: a cluster launch holds no more blocks per SM than
	 * the plain launch, so the plain figure bounds it. */
	c->blocks_per_sm = cap == 0 || r->blocks_per_sm < cap
			   ? r->blocks_per_sm : cap;
	c->max_active_clusters = 0;
	c->gpcs_used = c->gpcs_too_small = c->largest_gpc = 0;
	c->idle_slots = 0;
	fill_gpcs(layout, c->blocks_per_sm, size, c);
	c->active_blocks = (int64_t)c->max_active_clusters * size;
	c->limiters = limiters(c, r->blocks_per_sm, cap);
	c->reason = c->blocks_per_sm == 0 ? OCC_CLUSTER_NO_BLOCKS
		    : c->max_active_clusters == 0 ? OCC_CLUSTER_LARGER_THAN_GPCS
						  : OCC_CLUSTER_FITS;
	c->active_warps = c->active_blocks * r->warps_per_block;
	c->warp_slots = (int64_t)layout->sms * r->max_warps_per_sm;
	return OCC_OK;
}

enum occ_status occ_cluster_waves(const struct occ_cluster_result *c,
				  int64_t grid, int sms, struct occ_waves *w)
{
	if (grid < 1 || grid > INT32_MAX || sms < 1 || c->size < 1 ||
	    grid % c->size || c->max_active_clusters < 1 ||
	    c->active_blocks < 1)
		return OCC_ERR_INVALID_INPUT;
	w->grid = grid;
	w->sms = sms;
	w->per_wave = c->active_blocks;
	w->full_waves = grid / w->per_wave;
	w->tail_blocks = grid % w->per_wave;
	w->waves = w->full_waves + (w->tail_blocks > 0);
	w->same_waves_blocks = c->blocks_per_sm;
	w->max_resident_per_sm = c->blocks_per_sm;
	return OCC_OK;
}

double occ_cluster_percent(const struct occ_cluster_result *c)
{
	if (c->warp_slots <= 0)
		return 0;
	return 100.0 * (double)c->active_warps / (double)c->warp_slots;
}

/* The runtime's count in a part decides whether the size launches at
 * all (occ_cluster_part_compute); NULL api: the whole GPU, where every
 * size hw holds launches. */
static enum occ_status compute_in(const struct occ_arch *arch,
				  const struct occ_result *r,
				  const struct occ_gpc_layout *hw,
				  const struct occ_gpc_layout *api, int size,
				  struct occ_cluster_result *c)
{
	struct occ_cluster_result counted;
	enum occ_status st = occ_cluster_compute(arch, r, hw, size, c);

	if (st != OCC_OK || !api)
		return st;
	if ((st = occ_cluster_compute(arch, r, api, size, &counted)) != OCC_OK)
		return st;
	if (counted.max_active_clusters > 0 || c->max_active_clusters == 0)
		return OCC_OK;
	c->idle_slots += c->active_blocks;
	c->max_active_clusters = c->gpcs_used = 0;
	c->active_blocks = c->active_warps = 0;
	c->limiters = limiters(c, r->blocks_per_sm, arch->cluster_blocks_per_sm);
	c->reason = OCC_CLUSTER_REFUSED_IN_PART;
	return OCC_OK;
}

static enum occ_status best_in(const struct occ_arch *arch,
			       const struct occ_result *r,
			       const struct occ_gpc_layout *layout,
			       const struct occ_gpc_layout *api,
			       int nonportable, struct occ_cluster_best *b)
{
	struct occ_cluster_result c;
	enum occ_status st = check(arch, layout, 1);
	int size, limit = nonportable ? occ_cluster_size_limit(arch)
				      : arch->cluster_size_portable;

	if (st != OCC_OK)
		return st;
	if ((st = compute_in(arch, r, layout, api, 1, &b->potential_result))
	    != OCC_OK)
		return st;
	b->potential = b->most_blocks = 0;
	b->most_blocks_result = b->potential_result;
	for (size = 1; size <= limit; size++) {
		compute_in(arch, r, layout, api, size, &c);
		if (c.max_active_clusters == 0)
			continue;
		/* Sizes ascend: the last that fits is the largest. */
		b->potential = size;
		b->potential_result = c;
		if (c.active_blocks >= b->most_blocks_result.active_blocks) {
			b->most_blocks = size;
			b->most_blocks_result = c;
		}
	}
	return OCC_OK;
}

enum occ_status occ_cluster_best(const struct occ_arch *arch,
				 const struct occ_result *r,
				 const struct occ_gpc_layout *layout,
				 int nonportable, struct occ_cluster_best *b)
{
	return best_in(arch, r, layout, NULL, nonportable, b);
}

enum occ_status occ_cluster_part_compute(const struct occ_arch *arch,
					 const struct occ_result *r,
					 const struct occ_gpc_layout *hw,
					 const struct occ_gpc_layout *api,
					 int size,
					 struct occ_cluster_result *out)
{
	if (!api || api->sms != hw->sms)
		return OCC_ERR_INVALID_INPUT;
	return compute_in(arch, r, hw, api, size, out);
}

enum occ_status occ_cluster_part_best(const struct occ_arch *arch,
				      const struct occ_result *r,
				      const struct occ_gpc_layout *hw,
				      const struct occ_gpc_layout *api,
				      int nonportable,
				      struct occ_cluster_best *b)
{
	if (!api || api->sms != hw->sms)
		return OCC_ERR_INVALID_INPUT;
	return best_in(arch, r, hw, api, nonportable, b);
}

/* ---- Measured: clusters resident at once ---- */

static int by_cluster_sm(const void *pa, const void *pb)
{
	const struct occ_cta_sample *a = pa, *b = pb;

	if (a->cluster != b->cluster)
		return a->cluster < b->cluster ? -1 : 1;
	return (a->sm > b->sm) - (a->sm < b->sm);
}

/* One cluster's samples s[0..n): its interval, and whether two of its
 * CTAs shared an SM (they are sorted by SM). */
static int cluster_span(const struct occ_cta_sample *s, size_t n,
			uint64_t *start, uint64_t *end)
{
	size_t i;
	int shared = 0;

	*start = s[0].start;
	*end = s[0].end;
	for (i = 1; i < n; i++) {
		if (s[i].start < *start)
			*start = s[i].start;
		if (s[i].end > *end)
			*end = s[i].end;
		shared |= s[i].sm == s[i - 1].sm;
	}
	/* A cluster is resident for at least a tick of the clock. */
	if (*end == *start)
		(*end)++;
	return shared;
}

enum occ_status occ_cluster_residency(struct occ_cta_sample *s, size_t n,
				      struct occ_cluster_residency *out)
{
	uint64_t *starts, *ends;
	size_t i, first, k = 0;

	if (n == 0)
		return OCC_ERR_INVALID_INPUT;
	for (i = 0; i < n; i++)
		if (s[i].end < s[i].start)
			return OCC_ERR_INVALID_INPUT;
	if (!occ_intervals_alloc(&starts, &ends, n))
		return OCC_ERR_NOMEM;
	qsort(s, n, sizeof *s, by_cluster_sm);
	out->shared_sm = 0;
	for (first = 0; first < n; first = i, k++) {
		for (i = first; i < n && s[i].cluster == s[first].cluster; i++)
			;
		out->shared_sm += cluster_span(s + first, i - first,
					       &starts[k], &ends[k]);
	}
	out->clusters = (int)k;
	out->max_clusters = occ_max_overlap(starts, ends, k);
	free(starts);
	free(ends);
	return OCC_OK;
}

const char *occ_cluster_limit_name(enum occ_cluster_limit bit)
{
	switch (bit) {
	case OCC_CLUSTER_LIMIT_SM: return "sm";
	case OCC_CLUSTER_LIMIT_CLUSTER_BLOCKS: return "cluster_blocks_per_sm";
	case OCC_CLUSTER_LIMIT_GPC: return "gpc";
	}
	return "?";
}

const char *occ_cluster_reason_name(enum occ_cluster_reason reason)
{
	switch (reason) {
	case OCC_CLUSTER_FITS: return "";
	case OCC_CLUSTER_NO_BLOCKS: return "kernel_does_not_launch";
	case OCC_CLUSTER_LARGER_THAN_GPCS: return "cluster_larger_than_gpcs";
	case OCC_CLUSTER_REFUSED_IN_PART: return "runtime_refuses_in_part";
	}
	return "?";
}
