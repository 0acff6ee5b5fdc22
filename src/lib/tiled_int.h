/*
 * tiled_int.h - what the count of a tiled grid's traffic (tiled.c)
 * shares with the three files it is written in: the launch in the
 * grid's terms, each access placed by blockIdx, and the three counts
 * it hands over (requests, distinct units, the union of rectangles).
 * Internal to those four files.
 */
#ifndef OCC_TILED_INT_H
#define OCC_TILED_INT_H

#include <stddef.h>
#include <stdint.h>

#include "traffic.h"

/* The launch in the grid's terms. */
struct grid {
	uint64_t g[3];           /* gridDim */
	uint64_t dim[3];         /* blockDim */
	uint64_t block;
};

/* One access: thread t of the block at blockIdx b touches element
 * e0[t] + f . b; e0 listed for the block's threads (active or not). */
struct placed {
	const struct occ_kernel_access *k;
	__int128 f[3];
	__int128 *e0;
	__int128 lo, hi;         /* e0's extremes over active threads */
	int any;                 /* some thread active */
};

/* x modulo m, from 0 to m - 1 whatever x's sign. */
static inline uint64_t occ_mod_u(__int128 x, uint64_t m)
{
	__int128 r = x % (__int128)m;

	return (uint64_t)(r < 0 ? r + (__int128)m : r);
}

/* tiled_requests.c: access p's requests over the grid, added to t. */
OCC_INTERNAL enum occ_status occ_tiled_requests(const struct occ_arch *arch,
						const struct grid *g,
						const struct placed *p,
						struct occ_traffic *t);

/* tiled_units.c: the distinct units of `unit` bytes of one array over
 * its accesses of a kind (p[0 .. n), each lifted by bias[i]):
 * OCC_ERR_UNSUPPORTED past the listing's bounds, OCC_ERR_RANGE when the
 * count does not fit. */
OCC_INTERNAL enum occ_status occ_tiled_units(const struct grid *g,
					     const struct placed *p,
					     const uint64_t *bias, size_t n,
					     int array, enum occ_which w,
					     uint64_t unit, uint64_t *count);

/* tiled_area.c: units r0 <= unit mod M < r1 and q0 <= unit div M < q1. */
struct rect {
	uint64_t r0, r1, q0, q1;
};

/* The area of the union of rc[0 .. n): OCC_ERR_RANGE past 64 bits. */
OCC_INTERNAL enum occ_status occ_rects_area(const struct rect *rc, size_t n,
					    uint64_t *count);

#endif
