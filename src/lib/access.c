/*
 * access.c - how one warp's global memory instruction turns into
 * transactions: the sectors and cache lines its active lanes touch, the
 * bytes they ask for against the bytes the memory system moves.
 */

#include "occcalc.h"
#include "util.h"

#define WARP_LANES 32

static int valid(const struct occ_access *acc)
{
	switch (acc->elem_size) {
	case 1: case 2: case 4: case 8: case 16:
		break;
	default:
		return 0;
	}
	return acc->threads >= 1 && acc->threads <= WARP_LANES &&
	       acc->lane_xor < WARP_LANES &&
	       (acc->op == OCC_ACCESS_LOAD || acc->op == OCC_ACCESS_STORE);
}

/* The lanes' first bytes, moved up by the whole lines that put the
 * lowest at or above 0 (sector and line counts do not change); 0 when
 * the span of addresses does not fit 64 bits. */
static int lane_addresses(const struct occ_access *acc, uint64_t line,
			  uint64_t *addr)
{
	__int128 e = acc->elem_size, b[WARP_LANES], lo = 0, hi = 0, bias = 0;
	int lane;

	for (lane = 0; lane < acc->threads; lane++) {
		__int128 k = lane ^ (int)acc->lane_xor;

		b[lane] = ((__int128)acc->offset + k * acc->stride) * e;
		if (lane == 0 || b[lane] < lo)
			lo = b[lane];
		if (lane == 0 || b[lane] > hi)
			hi = b[lane];
	}
	if (lo < 0)
		bias = (-lo + (__int128)line - 1) / (__int128)line *
		       (__int128)line;
	if (hi + bias + e > (__int128)UINT64_MAX)
		return 0;
	for (lane = 0; lane < acc->threads; lane++)
		addr[lane] = (uint64_t)(b[lane] + bias);
	return 1;
}

enum occ_status occ_access_compute(const struct occ_arch *a,
				   const struct occ_access *acc,
				   struct occ_access_result *r)
{
	uint64_t addr[WARP_LANES], units[2 * WARP_LANES];
	uint64_t e;

	if (!valid(acc))
		return OCC_ERR_INVALID_INPUT;
	if (!a->sector_size || !a->line_size || a->sector_size < 16)
		return OCC_ERR_UNKNOWN_ARCH;
	if (!lane_addresses(acc, (uint64_t)a->line_size, addr))
		return OCC_ERR_INVALID_INPUT;
	e = (uint64_t)acc->elem_size;
	r->thread_bytes = (uint64_t)acc->threads * e;
	r->sectors = occ_lane_units(addr, acc->threads, e,
				    (uint64_t)a->sector_size, units);
	r->lines = occ_lane_units(addr, acc->threads, e,
				  (uint64_t)a->line_size, units);
	r->requested = occ_lane_bytes(addr, acc->threads, e);
	r->moved = (uint64_t)r->sectors * (uint64_t)a->sector_size;
	/* Only loads are cached in L1; stores go to L2 in sectors. */
	r->l1_lines = acc->op == OCC_ACCESS_LOAD &&
		      a->l1_load_transaction == a->line_size;
	r->l1_moved = r->l1_lines ? (uint64_t)r->lines * (uint64_t)a->line_size
				  : r->moved;
	return OCC_OK;
}
