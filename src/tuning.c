/*
 * tuning.c - answers built on the model: the block size that maximises
 * occupancy.
 */
#include "occcalc.h"
#include "util.h"

uint64_t occ_smem_growth_at(const struct occ_smem_growth *g,
			    const struct occ_arch *a, int block_size)
{
	uint64_t warps = (uint64_t)occ_div_up(block_size, a->warp_size);

	return g->fixed + g->per_thread * (uint64_t)block_size +
	       g->per_warp * warps;
}

enum occ_status occ_best_block_size(const struct occ_arch *a,
				    const struct occ_kernel *kernel,
				    const struct occ_smem_growth *g,
				    struct occ_best *best)
{
	struct occ_kernel k = *kernel;
	int64_t best_threads = 0;
	int size;

	best->block_size = 0;
	best->n_ties = 0;
	for (size = a->max_threads_per_block; size >= a->warp_size;
	     size -= a->warp_size) {
		struct occ_result r;
		enum occ_status st;
		int64_t threads;

		k.block_size = size;
		k.dynamic_smem = occ_smem_growth_at(g, a, size);
		st = occ_compute(a, &k, &r);
		if (st != OCC_OK)
			return st;
		threads = (int64_t)size * r.blocks_per_sm;
		if (threads > best_threads) {
			best_threads = threads;
			best->block_size = size;
			best->dynamic_smem = k.dynamic_smem;
			best->result = r;
			best->n_ties = 0;
		}
		if (threads == best_threads && threads > 0 &&
		    best->n_ties < OCC_MAX_TIES)
			best->ties[best->n_ties++] = size;
	}
	if (best->block_size == 0) {
		/* Report why the smallest block cannot launch. */
		k.block_size = a->warp_size;
		k.dynamic_smem = occ_smem_growth_at(g, a, a->warp_size);
		best->dynamic_smem = k.dynamic_smem;
		return occ_compute(a, &k, &best->result);
	}
	return OCC_OK;
}
