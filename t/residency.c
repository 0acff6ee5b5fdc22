/*
 * residency.c - turning what a launch's warps recorded into resident
 * blocks per SM and achieved occupancy, on hand-made timelines.
 */
#include <math.h>

#include "occcalc.h"
#include "tap.h"

#define W(sm, block, start, end) { (start), (end), (sm), (block) }

static struct occ_residency analyse(struct occ_warp_sample *w, size_t n,
				    int max_warps)
{
	struct occ_residency r = { 0 };

	if (occ_residency(w, n, max_warps, &r) != OCC_OK)
		r.max_blocks_per_sm = -1;
	return r;
}

static void two_blocks_side_by_side(void)
{
	struct occ_warp_sample w[] = {
		W(0, 0, 100, 200), W(0, 0, 100, 200),
		W(0, 1, 110, 210), W(0, 1, 110, 210),
	};
	struct occ_residency r = analyse(w, 4, 8);

	tap_ok(r.max_blocks_per_sm == 2,
	       "two overlapping blocks on one SM are two resident (got %d)",
	       r.max_blocks_per_sm);
	tap_ok(r.sms_used == 1, "one SM used (got %d)", r.sms_used);
	tap_ok(r.warp_cycles == 400 && r.active_cycles == 110,
	       "warp-cycles summed over warps (400), active cycles the union "
	       "of the blocks (110): got %llu, %llu",
	       (unsigned long long)r.warp_cycles,
	       (unsigned long long)r.active_cycles);
}

static void successor_not_counted(void)
{
	/* Block 1 starts the cycle block 0's last warp ends: it took the
	 * resources block 0 released, so only one was ever resident. */
	struct occ_warp_sample w[] = {
		W(3, 0, 0, 50), W(3, 0, 0, 100),
		W(3, 1, 100, 200), W(3, 1, 101, 150),
	};
	struct occ_residency r = analyse(w, 4, 4);

	tap_ok(r.max_blocks_per_sm == 1,
	       "a block starting as the previous one's last warp ends is not "
	       "counted beside it (got %d)", r.max_blocks_per_sm);
}

static void block_spans_its_warps(void)
{
	/* Block 0's first warp ends early, but its last warp still holds the
	 * block's resources when block 1 starts. */
	struct occ_warp_sample w[] = {
		W(0, 0, 0, 10), W(0, 0, 0, 100),
		W(0, 1, 50, 150),
	};
	struct occ_residency r = analyse(w, 3, 4);

	tap_ok(r.max_blocks_per_sm == 2,
	       "a block is resident until its last warp ends (got %d)",
	       r.max_blocks_per_sm);
}

static void most_on_any_sm(void)
{
	struct occ_warp_sample w[] = {
		W(0, 0, 0, 100), W(0, 1, 0, 100), W(0, 2, 0, 100),
		W(1, 3, 0, 100),
		/* SM 2's clock is unrelated to SM 0's: its blocks overlap
		 * each other, not SM 0's. */
		W(2, 4, 5000, 6000), W(2, 5, 5100, 6100),
	};
	struct occ_residency r = analyse(w, 6, 4);

	tap_ok(r.max_blocks_per_sm == 3,
	       "the most resident on any SM is reported (got %d)",
	       r.max_blocks_per_sm);
	tap_ok(r.sms_used == 3, "three SMs used (got %d)", r.sms_used);
}

static void achieved_matches_definition(void)
{
	/* SM 0: 4 warps for 100 cycles, then 2 for 100: 600 warp-cycles in
	 * 200 active cycles. SM 1: 1 warp for 100. Of 8 warp slots:
	 * (600 + 100) / (8 x 300) = 29.1666 %. */
	struct occ_warp_sample w[] = {
		W(0, 0, 0, 100), W(0, 0, 0, 100),
		W(0, 1, 0, 200), W(0, 1, 0, 200),
		W(1, 2, 7, 107),
	};
	struct occ_residency r = analyse(w, 5, 8);
	double pct = occ_residency_percent(&r);

	tap_ok(fabs(pct - 700.0 / 24.0) < 1e-9,
	       "achieved occupancy is warp-cycles over slots x active cycles, "
	       "summed over SMs (29.17 %%, got %.4f)", pct);
}

static void idle_gap_not_active(void)
{
	/* Nothing runs between 100 and 1000: not active, not counted. */
	struct occ_warp_sample w[] = {
		W(0, 0, 0, 100), W(0, 1, 1000, 1100),
	};
	struct occ_residency r = analyse(w, 2, 1);

	tap_ok(r.active_cycles == 200 && occ_residency_percent(&r) == 100.0,
	       "cycles with no warp on the SM are not active (got %llu)",
	       (unsigned long long)r.active_cycles);
}

static void order_does_not_matter(void)
{
	struct occ_warp_sample a[] = {
		W(1, 7, 0, 90), W(0, 2, 10, 20), W(1, 6, 5, 95), W(0, 1, 0, 15),
	};
	struct occ_warp_sample b[] = {
		W(0, 1, 0, 15), W(0, 2, 10, 20), W(1, 6, 5, 95), W(1, 7, 0, 90),
	};
	struct occ_residency ra = analyse(a, 4, 4), rb = analyse(b, 4, 4);

	tap_ok(ra.max_blocks_per_sm == rb.max_blocks_per_sm &&
	       ra.warp_cycles == rb.warp_cycles &&
	       ra.active_cycles == rb.active_cycles,
	       "the samples' order does not change the result");
}

static void bad_input_refused(void)
{
	struct occ_warp_sample w[] = { W(0, 0, 10, 5) };
	struct occ_residency r;

	tap_ok(occ_residency(w, 1, 4, &r) == OCC_ERR_INVALID_INPUT,
	       "a warp that ends before it starts is refused");
	tap_ok(occ_residency(w, 0, 4, &r) == OCC_ERR_INVALID_INPUT,
	       "no samples is refused");
	w[0].end = 20;
	tap_ok(occ_residency(w, 1, 0, &r) == OCC_ERR_INVALID_INPUT,
	       "zero warp slots per SM is refused");
}

int main(void)
{
	tap_plan(13);
	two_blocks_side_by_side();
	successor_not_counted();
	block_spans_its_warps();
	most_on_any_sm();
	achieved_matches_definition();
	idle_gap_not_active();
	order_does_not_matter();
	bad_input_refused();
	return tap_done();
}
