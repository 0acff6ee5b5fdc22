/*
 * tiled_requests.c - a tiled grid's requests (tiled.c): every block
 * runs one pattern moved by its offset, and a request costs what the
 * pattern costs moved by that offset modulo a line, so the blocks are
 * counted by their residue (each dimension's counts convolved) and one
 * block of each residue is costed, warp by warp. Apart from the
 * distinct units (tiled_units.c): requests are counted per access, with
 * no listing at all.
 */
#include <stdlib.h>
#include <string.h>

#include "tiled_int.h"

#define WARP 32

/* h[r]: blocks of one dimension (g of them, `step` bytes apart) whose
 * offset is r modulo `line`. */
static void residues(uint64_t g, uint64_t step, uint64_t line, uint64_t *h)
{
	uint64_t period = line / occ_gcd(step, line), j;

	memset(h, 0, line * sizeof *h);
	for (j = 0; j < period && j < g; j++)
		h[(j * step) % line] += g / period + (j < g % period ? 1 : 0);
}

/* c = a * b, residues added modulo line. */
static void convolve(const uint64_t *a, const uint64_t *b, uint64_t line,
		     uint64_t *c)
{
	uint64_t i, j;

	memset(c, 0, line * sizeof *c);
	for (i = 0; i < line; i++)
		for (j = 0; a[i] && j < line; j++)
			c[(i + j) % line] += a[i] * b[j];
}

/* The block's requests with its pattern moved by r bytes (modulo a
 * line), `times` over. */
static enum occ_status block_requests(const struct occ_arch *arch,
				      const struct grid *g,
				      const struct placed *p, uint64_t r,
				      uint64_t times, struct occ_traffic *t)
{
	const struct occ_kernel_access *k = p->k;
	struct occ_traffic_ops *o = k->access.op == OCC_ACCESS_LOAD ?
				    &t->load : &t->store;
	uint64_t size = (uint64_t)k->access.elem_size, w, tt;
	__int128 line = arch->line_size, low = p->lo * (__int128)size, base;

	/* whole lines below the lowest byte: the block's own origin */
	base = low >= 0 ? low / line * line : -((-low + line - 1) / line) *
					      line;
	for (w = 0; w < (g->block + WARP - 1) / WARP; w++) {
		uint64_t addr[WARP];
		struct warp_cost cost;
		int lanes = 0;

		for (tt = w * WARP; tt < (w + 1) * WARP; tt++)
			if (occ_lane_active(k, tt, g->block))
				addr[lanes++] = (uint64_t)(p->e0[tt] *
							   (__int128)size -
							   base) + r;
		if (!occ_warp_cost(arch, addr, lanes, size, NULL, NULL, &cost))
			return OCC_ERR_NOMEM;
		if (!occ_add_cost(o, &cost, times))
			return occ_traffic_fault(t, OCC_TRAFFIC_COUNT_OVERFLOW,
						 0);
	}
	return OCC_OK;
}

enum occ_status occ_tiled_requests(const struct occ_arch *arch,
				   const struct grid *g, const struct placed *p,
				   struct occ_traffic *t)
{
	uint64_t line = (uint64_t)arch->line_size, r, d;
	uint64_t *h = calloc(4 * line, sizeof *h);
	uint64_t *acc = h + line, *tmp = h + 2 * line, *one = h + 3 * line;
	enum occ_status st = h ? OCC_OK : OCC_ERR_NOMEM;

	if (st != OCC_OK)
		return st;
	acc[0] = 1;
	for (d = 0; d < 3; d++) {
		residues(g->g[d],
			 occ_mod_u(p->f[d] * p->k->access.elem_size, line),
			 line, one);
		convolve(acc, one, line, tmp);
		memcpy(acc, tmp, line * sizeof *acc);
	}
	for (r = 0; r < line && st == OCC_OK; r++)
		if (acc[r])
			st = block_requests(arch, g, p, r, acc[r], t);
	free(h);
	return st;
}
