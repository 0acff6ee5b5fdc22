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

/*
 * One input of the model (registers per thread, or dynamic shared memory)
 * varied over [0, max] with the others fixed. The axis falls into
 * stretches on each of which the block count never rises as the value
 * grows, so the value where it changes is found by bisection: shared
 * memory near 4 GiB takes a few hundred evaluations, not one per
 * allocation unit.
 */
#define MAX_BREAKS (OCC_MAX_CARVEOUTS + 3)

struct axis {
	const struct occ_arch *a;
	struct occ_kernel k;
	uint64_t max;
	int is_smem;
	uint64_t breaks[MAX_BREAKS];  /* where stretches start, ascending */
	int n_breaks;
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

static void add_break(struct axis *x, uint64_t v)
{
	int i = x->n_breaks;

	while (i > 0 && x->breaks[i - 1] > v) {
		x->breaks[i] = x->breaks[i - 1];
		i--;
	}
	if (i > 0 && x->breaks[i - 1] == v) {  /* have it: undo the shift */
		for (; i < x->n_breaks; i++)
			x->breaks[i] = x->breaks[i + 1];
		return;
	}
	x->breaks[i] = v;
	x->n_breaks++;
}

/* The first value whose allocation exceeds c bytes. */
static uint64_t first_above(const struct axis *x, uint64_t c)
{
	uint64_t unit = x->a->smem_alloc_unit;
	uint64_t fixed = x->k.static_smem + x->a->smem_reserved_per_block;
	uint64_t last = c / unit * unit;  /* allocations are whole units */

	return last + 1 > fixed ? last + 1 - fixed : 0;
}

/* Registers only ever cost more. Shared memory may give more blocks
 * where the SM's capacity steps up to hold a larger block (a carveout),
 * and where the per-block limit rises to the opt-in one. */
static void find_breaks(struct axis *x)
{
	const struct occ_arch *a = x->a;
	int i;

	x->n_breaks = 0;
	add_break(x, 0);
	if (!x->is_smem)
		return;
	for (i = 0; i < a->n_smem_carveouts; i++)
		add_break(x, first_above(x, a->smem_carveouts[i]));
	add_break(x, first_above(x, a->smem_per_sm));
	if (x->k.static_smem <= a->smem_per_block)
		add_break(x, a->smem_per_block - x->k.static_smem + 1);
}

/* The last value of v's stretch, no further than max. */
static uint64_t stretch_end(const struct axis *x, uint64_t v)
{
	int i;

	for (i = 0; i < x->n_breaks; i++)
		if (x->breaks[i] > v)
			return x->breaks[i] - 1 < x->max ? x->breaks[i] - 1
							 : x->max;
	return x->max;
}

static uint64_t stretch_start(const struct axis *x, uint64_t v)
{
	int i = x->n_breaks - 1;

	while (i > 0 && x->breaks[i] > v)
		i--;
	return x->breaks[i];
}

/* The first value above `from` whose block count is not b; max + 1 if
 * none. */
static uint64_t next_change(struct axis *x, uint64_t from, int b)
{
	uint64_t lo = from + 1, hi, mid;

	for (; lo <= x->max; lo = hi + 1) {
		hi = stretch_end(x, lo);
		if (axis_blocks(x, lo) != b)
			return lo;
		if (axis_blocks(x, hi) == b)
			continue;
		/* b at lo, fewer at hi: the first fewer lies between. */
		while (hi - lo > 1) {
			mid = lo + (hi - lo) / 2;
			if (axis_blocks(x, mid) == b)
				lo = mid;
			else
				hi = mid;
		}
		return hi;
	}
	return x->max + 1;
}

/* The last value below `below` with more blocks than b, if any. */
static int last_above(struct axis *x, uint64_t below, int b, uint64_t *at)
{
	uint64_t lo, top, mid;

	for (; below > 0; below = lo) {
		top = below - 1;
		lo = stretch_start(x, top);
		if (axis_blocks(x, lo) <= b)
			continue;  /* the stretch's most is at its start */
		/* More than b at lo: the last such lies between lo and top. */
		while (top > lo && axis_blocks(x, top) <= b) {
			mid = lo + (top - lo + 1) / 2;
			if (axis_blocks(x, mid) > b)
				lo = mid;
			else
				top = mid - 1;
		}
		*at = top;
		return 1;
	}
	return 0;
}

static void scan_step(struct axis *x, uint64_t value, struct occ_step *s)
{
	uint64_t v;

	memset(s, 0, sizeof *s);
	find_breaks(x);
	s->value = value;
	s->blocks = axis_blocks(x, value);
	v = next_change(x, value, s->blocks);
	s->keep_max = v - 1;
	if (v <= x->max) {
		s->has_drop = 1;
		s->drop_from = v;
		s->drop_blocks = axis_blocks(x, v);
		s->drop_to = next_change(x, v, s->drop_blocks) - 1;
	}
	s->has_gain = last_above(x, value, s->blocks, &s->gain_at);
	if (s->has_gain)
		s->gain_blocks = axis_blocks(x, s->gain_at);
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
