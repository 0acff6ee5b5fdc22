/*
 * tuning.c - answers built on the model: the block size that maximises
 * occupancy, and how far registers and shared memory can move before the
 * block count does.
 */
#include <string.h>

#include "occcalc.h"
#include "util.h"

uint64_t occ_smem_growth_at(const struct occ_smem_growth *g,
			    const struct occ_arch *a, int block_size)
{
	uint64_t warps = (uint64_t)occ_div_up(block_size, a->warp_size);

	return g->fixed + g->per_thread * (uint64_t)block_size +
	       g->per_warp * warps;
}

/* The largest block to try: maxThreadsPerBlock, or the kernel's bound
 * below it, even when that is no multiple of the warp size (the runtime's
 * cudaOccupancyMaxPotentialBlockSize tries it too). */
static int first_size(const struct occ_arch *a, const struct occ_kernel *k)
{
	if (k->max_threads > 0 && k->max_threads < a->max_threads_per_block)
		return k->max_threads;
	return a->max_threads_per_block;
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
	for (size = first_size(a, kernel); size > 0;
	     size = size % a->warp_size ? size - size % a->warp_size
					: size - a->warp_size) {
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
		size = first_size(a, kernel);
		k.block_size = size < a->warp_size ? size : a->warp_size;
		k.dynamic_smem = occ_smem_growth_at(g, a, k.block_size);
		best->dynamic_smem = k.dynamic_smem;
		return occ_compute(a, &k, &best->result);
	}
	return OCC_OK;
}

/* One input of the model, varied over [0, max] in pieces on which the
 * block count cannot change (an allocation unit of shared memory, one
 * register). */
struct axis {
	const struct occ_arch *a;
	struct occ_kernel k;
	uint64_t max;
	int is_smem;
};

static int axis_blocks(struct axis *x, uint64_t v)
{
	struct occ_result r;

	if (x->is_smem)
		x->k.dynamic_smem = v;
	else
		x->k.regs_per_thread = (int)v;
	if (occ_compute(x->a, &x->k, &r) != OCC_OK)
		return -1;
	return r.blocks_per_sm;
}

/* The last value allocated like v. */
static uint64_t piece_end(const struct axis *x, uint64_t v)
{
	uint64_t fixed, unit = x->a->smem_alloc_unit, end;

	if (!x->is_smem)
		return v;
	fixed = x->k.static_smem + x->a->smem_reserved_per_block;
	end = occ_round_up(fixed + v, unit);
	end = end > fixed ? end - fixed : 0;
	return end < v ? v : (end > x->max ? x->max : end);
}

/* The first value allocated like v. */
static uint64_t piece_start(const struct axis *x, uint64_t v)
{
	uint64_t fixed, unit = x->a->smem_alloc_unit, total;

	if (!x->is_smem || v == 0)
		return v;
	fixed = x->k.static_smem + x->a->smem_reserved_per_block;
	total = occ_round_up(fixed + v, unit);
	return total - unit < fixed ? 0 : total - unit - fixed + 1;
}

static void scan_step(struct axis *x, uint64_t value, struct occ_step *s)
{
	uint64_t v;
	int b;

	memset(s, 0, sizeof *s);
	s->value = value;
	s->blocks = axis_blocks(x, value);
	/* Up: the same count, then the next, lower one. */
	for (v = piece_end(x, value); v < x->max &&
	     axis_blocks(x, v + 1) == s->blocks; v = piece_end(x, v + 1))
		;
	s->keep_max = v;
	if (v < x->max) {
		s->has_drop = 1;
		s->drop_from = v + 1;
		s->drop_blocks = axis_blocks(x, v + 1);
		for (v = piece_end(x, v + 1); v < x->max &&
		     axis_blocks(x, v + 1) == s->drop_blocks;
		     v = piece_end(x, v + 1))
			;
		s->drop_to = v;
	}
	/* Down: the first value with more blocks. */
	for (v = piece_start(x, value); v > 0; v = piece_start(x, v - 1)) {
		b = axis_blocks(x, v - 1);
		if (b > s->blocks) {
			s->has_gain = 1;
			s->gain_at = v - 1;
			s->gain_blocks = b;
			break;
		}
	}
}

enum occ_status occ_headroom(const struct occ_arch *a,
			     const struct occ_kernel *k, struct occ_headroom *h)
{
	struct occ_result r;
	struct axis x;
	uint64_t limit;
	enum occ_status st = occ_compute(a, k, &r);

	if (st != OCC_OK)
		return st;
	x.a = a;
	x.k = *k;
	x.is_smem = 0;
	x.max = (uint64_t)a->max_regs_per_thread;
	if ((uint64_t)k->regs_per_thread > x.max)
		x.max = (uint64_t)k->regs_per_thread;
	scan_step(&x, (uint64_t)k->regs_per_thread, &h->regs);

	x.k = *k;
	x.is_smem = 1;
	/* Beyond the per-block limit nothing launches: the last cliff. */
	limit = k->optin ? a->smem_per_block_optin : a->smem_per_block;
	x.max = (limit > k->static_smem ? limit - k->static_smem : 0) + 1;
	if (k->dynamic_smem > x.max)
		x.max = k->dynamic_smem;
	scan_step(&x, k->dynamic_smem, &h->smem);
	return OCC_OK;
}

static int64_t waves_for(int64_t grid, int64_t per_wave)
{
	return (grid + per_wave - 1) / per_wave;
}

enum occ_status occ_waves(const struct occ_result *r, int64_t grid, int sms,
			  struct occ_waves *w)
{
	int b;

	if (grid < 1 || grid > INT32_MAX || sms < 1 || r->blocks_per_sm < 1)
		return OCC_ERR_INVALID_INPUT;
	w->grid = grid;
	w->sms = sms;
	w->per_wave = (int64_t)r->blocks_per_sm * sms;
	w->full_waves = grid / w->per_wave;
	w->tail_blocks = grid % w->per_wave;
	w->waves = waves_for(grid, w->per_wave);
	w->same_waves_blocks = r->blocks_per_sm;
	w->max_resident_per_sm = grid >= w->per_wave ? r->blocks_per_sm
			       : (int)occ_div_up(grid, sms);
	for (b = r->blocks_per_sm - 1; b >= 1; b--) {
		if (waves_for(grid, (int64_t)b * sms) != w->waves)
			break;
		w->same_waves_blocks = b;
	}
	return OCC_OK;
}

/* Blocks per SM at dynamic shared memory d, the rest of k unchanged. */
static int blocks_at(const struct occ_arch *a, struct occ_kernel k, uint64_t d)
{
	struct occ_result r;

	k.dynamic_smem = d;
	return occ_compute(a, &k, &r) == OCC_OK ? r.blocks_per_sm : 0;
}

/* Where the answer usually is: the SM's shared memory as it is configured
 * now, split in n blocks, in whole allocation units, less what the block
 * holds besides its dynamic memory. */
static uint64_t dyn_guess(const struct occ_arch *a, const struct occ_kernel *k,
			  const struct occ_result *r)
{
	uint64_t unit = a->smem_alloc_unit ? a->smem_alloc_unit : 1;
	uint64_t per_block = r->smem_per_sm / (uint64_t)r->blocks_per_sm /
			     unit * unit;
	uint64_t fixed = k->static_smem + a->smem_reserved_per_block;

	return per_block > fixed ? per_block - fixed : 0;
}

enum occ_status occ_max_dynamic_smem(const struct occ_arch *a,
				     const struct occ_kernel *k,
				     uint64_t *bytes)
{
	struct occ_result r;
	enum occ_status st = occ_compute(a, k, &r);
	uint64_t lo = k->dynamic_smem, hi, guess;

	if (st != OCC_OK)
		return st;
	if (r.blocks_per_sm == 0)
		return OCC_ERR_INVALID_INPUT;
	/* Nothing above the largest per-block limit launches; the block count
	 * only falls as dynamic memory grows: lo keeps it, hi does not. */
	hi = a->smem_per_block_optin > a->smem_per_block
	     ? a->smem_per_block_optin : a->smem_per_block;
	hi = hi > k->static_smem ? hi - k->static_smem + 1 : 1;
	if (hi <= lo)
		hi = lo + 1;
	guess = dyn_guess(a, k, &r);
	if (guess >= hi)
		guess = hi - 1;
	/* Checked, not trusted: the carveout can change with the block. */
	if (guess >= lo && blocks_at(a, *k, guess) >= r.blocks_per_sm &&
	    (guess + 1 == hi || blocks_at(a, *k, guess + 1) < r.blocks_per_sm)) {
		*bytes = guess;
		return OCC_OK;
	}
	while (hi - lo > 1) {
		uint64_t mid = lo + (hi - lo) / 2;

		if (blocks_at(a, *k, mid) >= r.blocks_per_sm)
			lo = mid;
		else
			hi = mid;
	}
	*bytes = lo;
	return OCC_OK;
}
