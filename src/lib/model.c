/*
 * model.c - theoretical occupancy of one SM.
 *
 * Each resource of the SM (warp slots, the register file, shared memory,
 * block slots, block barriers) alone allows some number of resident blocks;
 * the SM holds the smallest of these. The rules are those of the CUDA C++
 * Programming Guide ("Hardware Multithreading", "Compute Capabilities") and
 * of the CUDA Occupancy Calculator; every number comes from the table.
 */
#include "occcalc.h"
#include "util.h"

void occ_kernel_init(struct occ_kernel *k)
{
	k->block_size = 0;
	k->regs_per_thread = 0;
	k->static_smem = 0;
	k->dynamic_smem = 0;
	k->barriers = 1;
	k->carveout = OCC_CARVEOUT_DEFAULT;
	k->optin = 1;
	k->max_threads = 0;
}

static int clamp_int(int64_t v)
{
	return v > OCC_UNLIMITED ? OCC_UNLIMITED : (int)v;
}

/* Warp slots: a block occupies whole warps, the last one maybe partial. */
static int occ_limit_warps(const struct occ_arch *a, int block_size,
			   int warps_per_block)
{
	if (block_size > a->max_threads_per_block)
		return 0;
	return (a->max_threads_per_sm / a->warp_size) / warps_per_block;
}

/* Registers are allocated per warp, rounded up to the allocation unit, and
 * each warp's registers come from one sub-partition of the register file.
 * (32-bit arithmetic: registers are few, and this runs millions of times.) */
static int64_t regs_per_warp(const struct occ_arch *a, int regs)
{
	uint32_t unit = (uint32_t)a->reg_alloc_unit;

	if (regs > 65535)
		return (int64_t)occ_round_up((uint64_t)regs *
					     (uint64_t)a->warp_size, unit);
	return (int64_t)(((uint32_t)regs * (uint32_t)a->warp_size + unit - 1) /
			 unit * unit);
}

static int regs_fit_block(const struct occ_arch *a, int64_t per_warp,
			  int warps_per_block, int sub_partitions)
{
	/* The launch check assumes every sub-partition receives as many warps
	 * as the busiest one: warps rounded up to a multiple of them. */
	int64_t assumed = per_warp * (int64_t)occ_round_up(
		(uint64_t)warps_per_block, (uint64_t)sub_partitions);

	return assumed <= a->regs_per_block &&
	       per_warp * warps_per_block <= a->regs_per_block;
}

static int regs_blocks(const struct occ_arch *a, int64_t per_warp,
		       int warps_per_block, int sub_partitions)
{
	uint32_t warps_per_part;

	if (!regs_fit_block(a, per_warp, warps_per_block, sub_partitions))
		return 0;
	if (per_warp == 0)
		return OCC_UNLIMITED;
	/* per_warp <= regsPerBlock here, so 32 bits hold everything. */
	warps_per_part = ((uint32_t)a->regs_per_sm / (uint32_t)sub_partitions) /
			 (uint32_t)per_warp;
	return (int)(warps_per_part * (uint32_t)sub_partitions /
		     (uint32_t)warps_per_block);
}

static int occ_limit_registers(const struct occ_arch *a, int regs,
			       int warps_per_block, int *allocated,
			       enum occ_reason *reason)
{
	int64_t per_warp = regs_per_warp(a, regs);
	int blocks;

	*allocated = clamp_int(per_warp * warps_per_block);
	if (regs > a->max_regs_per_thread) {
		*reason = OCC_TOO_MANY_REGS_THREAD;
		return 0;
	}
	blocks = regs_blocks(a, per_warp, warps_per_block,
			     a->reg_sub_partitions);
	if (blocks > 0 && a->reg_launch_check_sub_partitions &&
	    regs_blocks(a, per_warp, warps_per_block,
			a->reg_launch_check_sub_partitions) == 0)
		blocks = 0;
	if (blocks == 0)
		*reason = regs_fit_block(a, per_warp, warps_per_block,
					 a->reg_sub_partitions)
			  ? OCC_REGS_DO_NOT_FIT_SM : OCC_TOO_MANY_REGS_BLOCK;
	return blocks;
}

/* The smallest carveout holding at least 'bytes', or 0 if none does. */
static uint64_t carveout_at_least(const struct occ_arch *a, uint64_t bytes)
{
	int i;

	for (i = 0; i < a->n_smem_carveouts; i++)
		if (a->smem_carveouts[i] >= bytes)
			return a->smem_carveouts[i];
	return 0;
}

/* The shared memory an SM is configured with for a carveout preference:
 * the percentage of the maximum, rounded up to a supported capacity. */
static uint64_t preferred_smem_per_sm(const struct occ_arch *a, int carveout)
{
	if (a->n_smem_carveouts == 0 || carveout == OCC_CARVEOUT_DEFAULT)
		return a->smem_per_sm;
	return carveout_at_least(a, (uint64_t)carveout * a->smem_per_sm / 100);
}

/* Whether the block's shared memory is allowed at all; sets the reason if
 * not. Above sharedMemPerBlock a kernel must raise its dynamic limit
 * (cudaFuncAttributeMaxDynamicSharedMemorySize), up to the opt-in limit. */
static int smem_fits_block(const struct occ_arch *a,
			   const struct occ_kernel *k, uint64_t allocated,
			   enum occ_reason *reason)
{
	int opted_in = k->optin && k->static_smem + k->dynamic_smem >
				   a->smem_per_block;
	uint64_t limit = (opted_in ? a->smem_per_block_optin
				   : a->smem_per_block) +
			 a->smem_reserved_per_block;

	if (k->static_smem > a->smem_per_block)
		*reason = OCC_STATIC_SMEM_TOO_LARGE;
	else if (!k->optin && k->static_smem + k->dynamic_smem >
			      a->smem_per_block)
		*reason = OCC_SMEM_NEEDS_OPTIN;
	else if (allocated > limit)
		*reason = OCC_SMEM_TOO_LARGE;
	else
		return 1;
	return 0;
}

static int occ_limit_shared_memory(const struct occ_arch *a,
				   const struct occ_kernel *k,
				   uint64_t *allocated, uint64_t *smem_per_sm,
				   enum occ_reason *reason)
{
	uint64_t per_sm = preferred_smem_per_sm(a, k->carveout);

	*allocated = occ_round_up(k->static_smem + k->dynamic_smem +
				  a->smem_reserved_per_block,
				  a->smem_alloc_unit);
	*smem_per_sm = per_sm;
	if (!smem_fits_block(a, k, *allocated, reason))
		return 0;
	/* The preference yields when a single block would not fit. */
	if (per_sm < *allocated)
		per_sm = a->n_smem_carveouts ? carveout_at_least(a, *allocated)
					     : a->smem_per_sm;
	*smem_per_sm = per_sm;
	if (*allocated == 0)
		return OCC_UNLIMITED;
	/* In 64 bits: an architecture not checked (occ_arch_check) may
	 * hold sizes beyond 32. */
	return per_sm / *allocated > INT_MAX ? INT_MAX
					      : (int)(per_sm / *allocated);
}

static int occ_limit_barriers(const struct occ_arch *a, int barriers)
{
	if (a->max_barriers_per_sm == 0 || barriers == 0)
		return OCC_UNLIMITED;
	return a->max_barriers_per_sm / barriers;
}

static int valid_kernel(const struct occ_kernel *k)
{
	return k->block_size >= 1 && k->regs_per_thread >= 0 &&
	       k->barriers >= 0 && k->barriers <= OCC_MAX_BARRIERS_PER_BLOCK &&
	       k->max_threads >= 0 &&
	       k->carveout >= OCC_CARVEOUT_DEFAULT && k->carveout <= 100 &&
	       k->static_smem <= OCC_BYTES_MAX &&
	       k->dynamic_smem <= OCC_BYTES_MAX;
}

static int min_int(int a, int b)
{
	return a < b ? a : b;
}

static unsigned limiters_at(const struct occ_result *r, int blocks)
{
	unsigned bits = 0;

	bits |= r->limit_warps == blocks ? OCC_RESOURCE_WARPS : 0;
	bits |= r->limit_registers == blocks ? OCC_RESOURCE_REGISTERS : 0;
	bits |= r->limit_shared_memory == blocks ? OCC_RESOURCE_SHARED_MEMORY : 0;
	bits |= r->limit_blocks == blocks ? OCC_RESOURCE_BLOCKS : 0;
	bits |= r->limit_barriers == blocks ? OCC_RESOURCE_BARRIERS : 0;
	return bits;
}

enum occ_status occ_compute(const struct occ_arch *a,
			    const struct occ_kernel *k, struct occ_result *r)
{
	enum occ_reason regs_reason = OCC_LAUNCHES, smem_reason = OCC_LAUNCHES;
	int blocks;

	if (!valid_kernel(k))
		return OCC_ERR_INVALID_INPUT;
	r->warps_per_block = (int)occ_div_up(k->block_size, a->warp_size);
	r->max_warps_per_sm = a->max_threads_per_sm / a->warp_size;
	r->limit_warps = occ_limit_warps(a, k->block_size, r->warps_per_block);
	r->limit_registers = occ_limit_registers(a, k->regs_per_thread,
						 r->warps_per_block,
						 &r->regs_per_block,
						 &regs_reason);
	r->limit_shared_memory = occ_limit_shared_memory(a, k,
							 &r->smem_per_block,
							 &r->smem_per_sm,
							 &smem_reason);
	r->limit_blocks = a->max_blocks_per_sm;
	r->limit_barriers = occ_limit_barriers(a, k->barriers);
	r->needs_optin = k->static_smem + k->dynamic_smem > a->smem_per_block;

	blocks = min_int(min_int(r->limit_warps, r->limit_registers),
			 min_int(min_int(r->limit_shared_memory,
					 r->limit_blocks), r->limit_barriers));
	/* The driver refuses a block above the kernel's bound (the occupancy
	 * API answers 0), whatever the SM could hold. */
	if (k->max_threads > 0 && k->block_size > k->max_threads)
		blocks = 0;
	r->blocks_per_sm = blocks;
	r->warps_per_sm = blocks * r->warps_per_block;
	r->limiters = limiters_at(r, blocks);
	if (blocks > 0)
		r->reason = OCC_LAUNCHES;
	else if (k->max_threads > 0 && k->block_size > k->max_threads)
		r->reason = OCC_ABOVE_LAUNCH_BOUNDS;
	else if (r->limit_warps == 0)
		r->reason = OCC_BLOCK_TOO_LARGE;
	else if (r->limit_registers == 0)
		r->reason = regs_reason;
	else
		r->reason = smem_reason;
	return OCC_OK;
}

double occ_percent(const struct occ_result *r)
{
	return 100.0 * r->warps_per_sm / r->max_warps_per_sm;
}

const char *occ_resource_name(enum occ_resource bit)
{
	switch (bit) {
	case OCC_RESOURCE_WARPS: return "warps";
	case OCC_RESOURCE_REGISTERS: return "registers";
	case OCC_RESOURCE_SHARED_MEMORY: return "shared_memory";
	case OCC_RESOURCE_BLOCKS: return "blocks";
	case OCC_RESOURCE_BARRIERS: return "barriers";
	}
	return "?";
}

const char *occ_reason_name(enum occ_reason reason)
{
	switch (reason) {
	case OCC_LAUNCHES: return "";
	case OCC_BLOCK_TOO_LARGE: return "block_too_large";
	case OCC_TOO_MANY_REGS_THREAD: return "registers_per_thread";
	case OCC_TOO_MANY_REGS_BLOCK: return "registers_per_block";
	case OCC_REGS_DO_NOT_FIT_SM: return "registers_per_sm";
	case OCC_STATIC_SMEM_TOO_LARGE: return "static_shared_memory";
	case OCC_SMEM_NEEDS_OPTIN: return "shared_memory_needs_optin";
	case OCC_SMEM_TOO_LARGE: return "shared_memory_per_block";
	case OCC_ABOVE_LAUNCH_BOUNDS: return "launch_bounds";
	}
	return "?";
}
