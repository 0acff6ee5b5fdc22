/*
 * reference.c - occcalc's model against NVIDIA's cuda_occupancy.h.
 *
 * For every architecture table, random configurations spanning the legal
 * range (block sizes, registers, static and dynamic shared memory,
 * carveouts, opt-in on and off) must give the same blocks per SM, the same
 * per-resource limits, the same limiters and the same allocations as
 * cudaOccMaxActiveBlocksPerMultiprocessor from the local CUDA toolkit, and
 * the same best block size as cudaOccMaxPotentialOccupancyBlockSize.
 *
 * Environment: OCCCALC_TABLES (the tables), OCC_SEED (the random seed),
 * OCC_CONFIGS (configurations per architecture, default 10000).
 */
#include "config.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "occcalc.h"
#include "tap.h"

#ifdef HAVE_CUDA_OCCUPANCY_H
#include <cuda_occupancy.h>

#include "cuda_reference.h"

static uint64_t rng_state;

/* splitmix64: reproducible from the seed printed in the TAP output. */
static uint64_t rng(void)
{
	uint64_t z = (rng_state += UINT64_C(0x9e3779b97f4a7c15));

	z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
	z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
	return z ^ (z >> 31);
}

static uint64_t rng_upto(uint64_t max) /* 0..max */
{
	return rng() % (max + 1);
}

static int chance(int percent)
{
	return (int)rng_upto(99) < percent;
}

static void random_kernel(const struct occ_arch *a, struct occ_kernel *k,
			  int vary_barriers)
{
	occ_kernel_init(k);
	/* Mostly legal block sizes, some beyond maxThreadsPerBlock. */
	k->block_size = 1 + (int)rng_upto(chance(95) ? a->max_threads_per_block - 1
					  : 2 * a->max_threads_per_block);
	k->regs_per_thread = (int)rng_upto(a->max_regs_per_thread);
	k->static_smem = chance(40) ? 0 : rng_upto(a->smem_per_block);
	k->dynamic_smem = chance(30) ? 0
			  : rng_upto(a->smem_per_block_optin + 4096);
	if (chance(10))  /* small sizes, where granularity shows */
		k->dynamic_smem = rng_upto(2048);
	k->carveout = chance(30) ? OCC_CARVEOUT_DEFAULT : (int)rng_upto(100);
	k->optin = chance(80);
	if (vary_barriers)
		k->barriers = (int)rng_upto(OCC_MAX_BARRIERS_PER_BLOCK);
}

static void reference(const struct occ_arch *a, const struct occ_kernel *k,
		      cudaOccResult *res, cudaOccError *err)
{
	cudaOccDeviceProp prop;
	cudaOccFuncAttributes attr;
	cudaOccDeviceState state;

	reference_setup(a, k, &prop, &attr, &state);
	memset(res, 0, sizeof *res);
	*err = cudaOccMaxActiveBlocksPerMultiprocessor(res, &prop, &attr, &state,
						       k->block_size,
						       k->dynamic_smem);
}

static int min5(const struct occ_result *r)
{
	int m = r->limit_warps;

	if (r->limit_registers < m) m = r->limit_registers;
	if (r->limit_shared_memory < m) m = r->limit_shared_memory;
	if (r->limit_blocks < m) m = r->limit_blocks;
	return m;
}

/* cuda_occupancy.h picks its limiters before it applies the barrier limit,
 * so when barriers alone cut the count it also names the resources that
 * would have limited without them. occcalc names only the real limiter;
 * this is the one place the two differ, by design. */
static unsigned expected_reference_limiters(const struct occ_result *r)
{
	int before = min5(r);
	unsigned bits = r->limiters;

	if (r->limit_barriers < before) {
		bits |= r->limit_warps == before ? OCC_RESOURCE_WARPS : 0;
		bits |= r->limit_registers == before ? OCC_RESOURCE_REGISTERS : 0;
		bits |= r->limit_shared_memory == before ? OCC_RESOURCE_SHARED_MEMORY : 0;
		bits |= r->limit_blocks == before ? OCC_RESOURCE_BLOCKS : 0;
	}
	return bits;
}

static int agrees(const struct occ_result *r, const cudaOccResult *c)
{
	return r->blocks_per_sm == c->activeBlocksPerMultiprocessor &&
	       r->limit_warps == c->blockLimitWarps &&
	       r->limit_registers == c->blockLimitRegs &&
	       r->limit_shared_memory == c->blockLimitSharedMem &&
	       r->limit_blocks == c->blockLimitBlocks &&
	       r->limit_barriers == c->blockLimitBarriers &&
	       expected_reference_limiters(r) == c->limitingFactors &&
	       r->regs_per_block == c->allocatedRegistersPerBlock &&
	       r->smem_per_block == c->allocatedSharedMemPerBlock;
}

static void show_mismatch(const struct occ_arch *a, const struct occ_kernel *k,
			  const struct occ_result *r, const cudaOccResult *c)
{
	tap_diag("sm_%d%d block=%d regs=%d static=%llu dyn=%llu carveout=%d "
		 "optin=%d barriers=%d", a->cc_major, a->cc_minor,
		 k->block_size, k->regs_per_thread,
		 (unsigned long long)k->static_smem,
		 (unsigned long long)k->dynamic_smem, k->carveout, k->optin,
		 k->barriers);
	tap_diag("  occcalc:   blocks=%d warps=%d regs=%d smem=%d blocks=%d "
		 "bars=%d limiters=%#x alloc regs=%d smem=%llu",
		 r->blocks_per_sm, r->limit_warps, r->limit_registers,
		 r->limit_shared_memory, r->limit_blocks, r->limit_barriers,
		 r->limiters, r->regs_per_block,
		 (unsigned long long)r->smem_per_block);
	tap_diag("  reference: blocks=%d warps=%d regs=%d smem=%d blocks=%d "
		 "bars=%d limiters=%#x alloc regs=%d smem=%llu",
		 c->activeBlocksPerMultiprocessor, c->blockLimitWarps,
		 c->blockLimitRegs, c->blockLimitSharedMem,
		 c->blockLimitBlocks, c->blockLimitBarriers,
		 c->limitingFactors, c->allocatedRegistersPerBlock,
		 (unsigned long long)c->allocatedSharedMemPerBlock);
}

/* Runs n random configurations; returns how many disagreed. */
static int compare_arch(const struct occ_arch *a, int n, int vary_barriers,
			int *launchable)
{
	int i, bad = 0;

	*launchable = 0;
	for (i = 0; i < n; i++) {
		struct occ_kernel k;
		struct occ_result r;
		cudaOccResult c;
		cudaOccError err;

		random_kernel(a, &k, vary_barriers);
		if (occ_compute(a, &k, &r) != OCC_OK) {
			tap_diag("occ_compute refused a legal configuration");
			bad++;
			continue;
		}
		reference(a, &k, &c, &err);
		if (err != CUDA_OCC_SUCCESS) {
			tap_diag("cuda_occupancy.h returned error %d", err);
			bad++;
			continue;
		}
		*launchable += r.blocks_per_sm > 0;
		if (!agrees(&r, &c) && bad++ < 5)
			show_mismatch(a, &k, &r, &c);
	}
	return bad;
}

/* Blocks per SM cuda_occupancy.h gives k with d bytes of dynamic shared
 * memory (0 where it refuses the configuration). */
static int reference_blocks(const struct occ_arch *a, struct occ_kernel k,
			    uint64_t d)
{
	cudaOccResult c;
	cudaOccError err;

	k.dynamic_smem = d;
	reference(a, &k, &c, &err);
	return err == CUDA_OCC_SUCCESS ? c.activeBlocksPerMultiprocessor : 0;
}

/* occ_max_dynamic_smem for n random launchable kernels: with that much,
 * cuda_occupancy.h gives as many blocks; with one byte or one allocation
 * unit more, fewer. Counts where cudaOccAvailableDynamicSMemPerBlock's
 * answer, asked for as many blocks, loses one. Returns the failures. */
static int compare_max_dyn(const struct occ_arch *a, int n, int *checked,
			   int *nvidia_loses)
{
	int i, bad = 0;

	*checked = *nvidia_loses = 0;
	for (i = 0; i < n; i++) {
		struct occ_kernel k;
		struct occ_result r;
		cudaOccDeviceProp prop;
		cudaOccFuncAttributes attr;
		cudaOccDeviceState state;
		size_t nv = 0;
		uint64_t d;
		int keeps, above, unit_above;

		random_kernel(a, &k, 1);
		if (occ_compute(a, &k, &r) != OCC_OK || r.blocks_per_sm == 0)
			continue;
		if (occ_max_dynamic_smem(a, &k, &d) != OCC_OK) {
			bad++;
			continue;
		}
		(*checked)++;
		keeps = reference_blocks(a, k, d);
		above = reference_blocks(a, k, d + 1);
		unit_above = reference_blocks(a, k, d + a->smem_alloc_unit);
		if ((keeps != r.blocks_per_sm || above >= r.blocks_per_sm ||
		     unit_above >= r.blocks_per_sm) && bad++ < 5)
			tap_diag("sm_%d%d block=%d regs=%d static=%llu dyn=%llu: "
				 "%d blocks, max %llu gives %d, +1 B %d, +unit %d",
				 a->cc_major, a->cc_minor, k.block_size,
				 k.regs_per_thread,
				 (unsigned long long)k.static_smem,
				 (unsigned long long)k.dynamic_smem,
				 r.blocks_per_sm, (unsigned long long)d, keeps,
				 above, unit_above);
		reference_setup(a, &k, &prop, &attr, &state);
		if (cudaOccAvailableDynamicSMemPerBlock(&nv, &prop, &attr, &state,
				r.blocks_per_sm, k.block_size) == CUDA_OCC_SUCCESS &&
		    reference_blocks(a, k, nv) < r.blocks_per_sm)
			(*nvidia_loses)++;
	}
	return bad;
}

/* The H200's case: 12 blocks of 128 threads (40 registers each). */
static void h200_case(const struct occ_tables *t)
{
	const struct occ_arch *a = occ_tables_find(t, 9, 0);
	cudaOccDeviceProp prop;
	cudaOccFuncAttributes attr;
	cudaOccDeviceState state;
	struct occ_kernel k;
	size_t nv = 0;
	uint64_t d = 0;

	occ_kernel_init(&k);
	k.block_size = 128;
	k.regs_per_thread = 40;
	reference_setup(a, &k, &prop, &attr, &state);
	cudaOccAvailableDynamicSMemPerBlock(&nv, &prop, &attr, &state, 12, 128);
	occ_max_dynamic_smem(a, &k, &d);
	tap_ok(d == 18432 && reference_blocks(a, k, d) == 12 && nv == 19456 &&
	       reference_blocks(a, k, nv) == 11, "sm_90, 12 blocks of 128 "
	       "threads: occcalc keeps them with %llu B; "
	       "cudaOccAvailableDynamicSMemPerBlock's %zu B gives %d blocks",
	       (unsigned long long)d, nv, reference_blocks(a, k, nv));
}

/* cudaOccMaxPotentialOccupancyBlockSize takes a plain function: its
 * shared-memory growth lives here. */
static struct occ_smem_growth growth;
static int growth_warp_size;

static size_t smem_for_block(int block_size)
{
	uint64_t warps = (uint64_t)(block_size + growth_warp_size - 1) /
			 (uint64_t)growth_warp_size;

	return growth.fixed + growth.per_thread * (uint64_t)block_size +
	       growth.per_warp * warps;
}

/* Best block sizes for n random kernels; returns how many disagreed. */
static int compare_best(const struct occ_arch *a, int n, int *launchable)
{
	int i, bad = 0;

	*launchable = 0;
	growth_warp_size = a->warp_size;
	for (i = 0; i < n; i++) {
		struct occ_kernel k;
		struct occ_best best;
		cudaOccDeviceProp prop;
		cudaOccFuncAttributes attr;
		cudaOccDeviceState state;
		int min_grid = -1, block = -1;

		random_kernel(a, &k, 0);
		/* Some with __launch_bounds__, multiples of the warp or not. */
		if (chance(30))
			k.max_threads = 1 + (int)rng_upto(a->max_threads_per_block +
							  a->warp_size);
		growth.fixed = chance(50) ? 0 : rng_upto(16384);
		growth.per_thread = chance(50) ? 0 : rng_upto(256);
		growth.per_warp = chance(70) ? 0 : rng_upto(4096);
		if (occ_best_block_size(a, &k, &growth, &best) != OCC_OK) {
			bad++;
			continue;
		}
		reference_setup(a, &k, &prop, &attr, &state);
		if (cudaOccMaxPotentialOccupancyBlockSize(&min_grid, &block,
				&prop, &attr, &state, smem_for_block, 0) !=
		    CUDA_OCC_SUCCESS) {
			bad++;
			continue;
		}
		*launchable += best.block_size > 0;
		if ((best.block_size != block ||
		     (block && best.result.blocks_per_sm != min_grid)) &&
		    bad++ < 5)
			tap_diag("sm_%d%d regs=%d static=%llu smem=%llu+%llu/thread"
				 "+%llu/warp: occcalc %d x %d, reference %d x %d",
				 a->cc_major, a->cc_minor, k.regs_per_thread,
				 (unsigned long long)k.static_smem,
				 (unsigned long long)growth.fixed,
				 (unsigned long long)growth.per_thread,
				 (unsigned long long)growth.per_warp,
				 best.block_size, best.result.blocks_per_sm,
				 block, min_grid);
	}
	return bad;
}

int main(void)
{
	const char *dir = getenv("OCCCALC_TABLES");
	const char *seed = getenv("OCC_SEED");
	const char *configs = getenv("OCC_CONFIGS");
	int n = configs ? atoi(configs) : 10000;
	struct occ_tables *t;
	struct occ_diag diag;
	size_t i;

	if (!dir || occ_tables_load(dir, &t, &diag) != OCC_OK) {
		printf("1..1\nnot ok 1 - load the tables from OCCCALC_TABLES\n");
		return 1;
	}
	rng_state = seed ? strtoull(seed, NULL, 0) : UINT64_C(20261122);
	tap_plan((int)(4 * occ_tables_count(t)) + 1);
	tap_diag("seed %llu, %d configurations per architecture and pass",
		 (unsigned long long)rng_state, n);
	for (i = 0; i < occ_tables_count(t); i++) {
		const struct occ_arch *a = occ_tables_get(t, i);
		int launchable, bad, loses;

		bad = compare_arch(a, n, 0, &launchable);
		tap_ok(bad == 0 && launchable > n / 10,
		       "sm_%d%d: %d random configurations (%d launchable) agree "
		       "with cuda_occupancy.h on every field", a->cc_major,
		       a->cc_minor, n, launchable);
		bad = compare_arch(a, n, 1, &launchable);
		tap_ok(bad == 0, "sm_%d%d: with 0-16 barriers per block, all "
		       "fields agree (limiters as documented above)",
		       a->cc_major, a->cc_minor);
		bad = compare_best(a, n / 5, &launchable);
		tap_ok(bad == 0 && launchable > n / 50,
		       "sm_%d%d: %d best block sizes (%d launchable) agree with "
		       "cudaOccMaxPotentialOccupancyBlockSize, shared memory "
		       "growing with the block, some under __launch_bounds__", a->cc_major, a->cc_minor,
		       n / 5, launchable);
		bad = compare_max_dyn(a, n / 5, &launchable, &loses);
		tap_ok(bad == 0 && launchable > n / 50, "sm_%d%d: %d most dynamic "
		       "shared memory keep their blocks in cuda_occupancy.h, and "
		       "1 B or an allocation unit more loses one (its own "
		       "cudaOccAvailableDynamicSMemPerBlock loses one in %d)",
		       a->cc_major, a->cc_minor, launchable, loses);
	}
	h200_case(t);
	occ_tables_free(t);
	return tap_done();
}

#else

int main(void)
{
	tap_skip_all("cuda_occupancy.h not found: configure --with-cuda=DIR");
	return 0;
}

#endif
