/*
 * tiled.c - the traffic of accesses placed by the block's coordinates in
 * a grid of 2 or 3 dimensions, as a matrix tile is (row = blockIdx.y x 16
 * + threadIdx.y, col = blockIdx.x x 16 + threadIdx.x), counted exactly.
 *
 * Every block runs one pattern, moved by f . blockIdx elements. A
 * request costs what the pattern costs moved by the block's offset
 * modulo a line, so blocks are counted by that residue (at most a line's
 * bytes of residues, each dimension's counts convolved) and one block of
 * each residue is listed.
 *
 * Distinct units (sectors, or lines): along dimension d, p_d steps move
 * the pattern by whole units, M_d of them. The grid is then at most
 * p_x p_y p_z families, each a block's units (of one offset o within
 * the p's) moved k_d M_d, k_d < n_d. Every dimension but one is listed,
 * as runs of consecutive units, merged as they touch; the one whose
 * listing would be longest is counted in closed form: a run moved k M
 * units, k < n, is at most three rectangles in (unit mod M, unit div M),
 * and the union's area is the count. Listings and rectangles are
 * bounded; past the bounds the launch is refused (OCC_TRAFFIC_TILE_LISTED).
 */
#include <stdlib.h>

#include "tiled_int.h"

int occ_traffic_is_tiled(const struct occ_launch *l,
			 const struct occ_kernel_access *acc, size_t n)
{
	size_t i;

	for (i = 0; l->grid > 1 && i < n; i++)
		if (acc[i].bid_dim[0] || acc[i].bid_dim[1] || acc[i].bid_dim[2])
			return 1;
	return 0;
}

static void make_grid(const struct occ_launch *l, struct grid *g)
{
	g->g[1] = l->grid_y ? l->grid_y : 1;
	g->g[2] = l->grid_z ? l->grid_z : 1;
	g->g[0] = l->grid / g->g[1] / g->g[2];
	g->dim[0] = l->block_x ? l->block_x : l->block;
	g->dim[1] = l->block_x && l->block_y ? l->block_y : 1;
	g->dim[2] = l->block / g->dim[0] / g->dim[1];
	g->block = l->block;
}

/* The access in blockIdx's terms: the block number's factor (the
 * thread's index's share of it too) spread over x, y and z. A factor
 * that moves the last block past 2^64 bytes is ADDRESS_OVERFLOW; the
 * thread's index over G in blocks not a multiple of G, TILE_GROUP. */
static enum occ_status place(const struct grid *g, size_t i,
			     const struct occ_kernel_access *k,
			     struct placed *p, struct occ_traffic *tr)
{
	const struct occ_access *a = &k->access;
	__int128 per_block, rows[3], f;
	uint64_t t;
	int d;

	p->k = k;
	if (a->stride && g->block % k->group) {
		tr->fault = OCC_TRAFFIC_TILE_GROUP;
		tr->fault_access = i;
		return OCC_ERR_UNSUPPORTED;
	}
	/* blocks of at most maxThreadsPerBlock: no overflow here */
	per_block = (__int128)k->bid +
		    (__int128)a->stride * (__int128)(g->block / k->group);
	rows[0] = 1;
	rows[1] = g->g[0];
	rows[2] = (__int128)g->g[0] * g->g[1];
	for (d = 0; d < 3; d++) {
		__int128 lim = (__int128)UINT64_MAX /
			       (__int128)(g->g[d] > 1 ? g->g[d] - 1 : 1);

		p->f[d] = 0;
		if (g->g[d] == 1)
			continue;
		if (__builtin_mul_overflow(per_block, rows[d], &f) ||
		    __builtin_add_overflow(f, (__int128)k->bid_dim[d], &f) ||
		    f > lim || f < -lim)
			return occ_traffic_fault(tr, OCC_TRAFFIC_ADDRESS_OVERFLOW,
						 i);
		p->f[d] = f;
	}
	p->any = 0;
	p->e0 = malloc(g->block * sizeof *p->e0);
	if (!p->e0)
		return OCC_ERR_NOMEM;
	for (t = 0; t < g->block; t++) {
		uint64_t ti = t ^ a->lane_xor;
		__int128 e = (__int128)a->offset +
			     (__int128)(ti / k->group) * a->stride +
			     (__int128)k->tid[0] * (t % g->dim[0]) +
			     (__int128)k->tid[1] * (t / g->dim[0] % g->dim[1]) +
			     (__int128)k->tid[2] * (t / g->dim[0] / g->dim[1]);

		p->e0[t] = e;
		if (!occ_lane_active(k, t, g->block))
			continue;
		if (!p->any || e < p->lo)
			p->lo = e;
		if (!p->any || e > p->hi)
			p->hi = e;
		p->any = 1;
	}
	return OCC_OK;
}

/* The lowest and highest byte offset (the end, excluded) the access
 * reaches over the grid. */
static void bytes_reached(const struct grid *g, const struct placed *p,
			  __int128 *lo, __int128 *end)
{
	__int128 e = p->k->access.elem_size, l = p->lo, h = p->hi;
	int d;

	for (d = 0; d < 3; d++) {
		__int128 far = p->f[d] * (__int128)(g->g[d] - 1);

		if (far < 0)
			l += far;
		else
			h += far;
	}
	*lo = l * e;
	*end = (h + 1) * e;
}

/* Each array's bias, whole lines lifting its lowest byte to 0 or above;
 * ADDRESS_OVERFLOW when its highest does not then fit 64 bits. */
static enum occ_status make_bias(const struct occ_arch *arch,
				 const struct grid *g, const struct placed *p,
				 size_t n, struct occ_traffic *t,
				 uint64_t *bias)
{
	__int128 line = arch->line_size, lo, end, low, b;
	size_t i, j;

	for (i = 0; i < n; i++) {
		low = 0;
		for (j = 0; j < n; j++) {
			if (p[j].k->array != p[i].k->array || !p[j].any)
				continue;
			bytes_reached(g, &p[j], &lo, &end);
			if (lo < low)
				low = lo;
		}
		b = (-low + line - 1) / line * line;
		if (!p[i].any) {
			bias[i] = 0;
			continue;
		}
		bytes_reached(g, &p[i], &lo, &end);
		if (end + b > (__int128)UINT64_MAX || lo < -(__int128)UINT64_MAX)
			return occ_traffic_fault(t, OCC_TRAFFIC_ADDRESS_OVERFLOW,
						 i);
		bias[i] = (uint64_t)b;
	}
	return OCC_OK;
}

static enum occ_status add_array(const struct occ_arch *arch,
				 const struct grid *g, const struct placed *p,
				 const uint64_t *bias, size_t n, int array,
				 struct occ_traffic *t, uint64_t *load_lines)
{
	uint64_t sector = (uint64_t)arch->sector_size, ld = 0, st_ = 0,
		 all = 0, ln = 0;
	enum occ_status st;

	st = occ_tiled_units(g, p, bias, n, array, OCC_LOADS, sector, &ld);
	if (st == OCC_OK)
		st = occ_tiled_units(g, p, bias, n, array, OCC_STORES, sector,
				     &st_);
	if (st == OCC_OK)
		st = occ_tiled_units(g, p, bias, n, array, OCC_BOTH, sector,
				     &all);
	if (st == OCC_OK && t->load.l1_lines)
		st = occ_tiled_units(g, p, bias, n, array, OCC_LOADS,
				     (uint64_t)arch->line_size, &ln);
	if (st == OCC_ERR_UNSUPPORTED)
		t->fault = OCC_TRAFFIC_TILE_LISTED;
	if (st == OCC_ERR_RANGE ||
	    (st == OCC_OK &&
	     (__builtin_add_overflow(t->load.distinct, ld, &t->load.distinct) ||
	      __builtin_add_overflow(t->store.distinct, st_,
				     &t->store.distinct) ||
	      __builtin_add_overflow(t->footprint, all, &t->footprint) ||
	      __builtin_add_overflow(*load_lines, ln, load_lines))))
		return occ_traffic_fault(t, OCC_TRAFFIC_COUNT_OVERFLOW, 0);
	return st;
}

enum occ_status occ_traffic_tiled(const struct occ_arch *arch,
				  const struct occ_launch *l,
				  const struct occ_kernel_access *acc,
				  size_t n, struct occ_traffic *t,
				  uint64_t *load_lines)
{
	struct grid g;
	struct placed *p = calloc(n, sizeof *p);
	uint64_t *bias = calloc(n, sizeof *bias);
	enum occ_status st = p && bias ? OCC_OK : OCC_ERR_NOMEM;
	size_t i, j;

	make_grid(l, &g);
	for (i = 0; i < n && st == OCC_OK; i++)
		st = place(&g, i, &acc[i], &p[i], t);
	if (st == OCC_OK)
		st = make_bias(arch, &g, p, n, t, bias);
	for (i = 0; i < n && st == OCC_OK; i++)
		st = occ_tiled_requests(arch, &g, &p[i], t);
	for (i = 0; i < n && st == OCC_OK; i++) {
		for (j = 0; j < i && acc[j].array != acc[i].array; j++)
			;
		if (j == i)     /* the array's first access */
			st = add_array(arch, &g, p, bias, n, acc[i].array, t,
				       load_lines);
	}
	for (i = 0; p && i < n; i++)
		free(p[i].e0);
	free(p);
	free(bias);
	return st;
}

