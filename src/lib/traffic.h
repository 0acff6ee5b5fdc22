/* traffic.h - what the launch traffic's two counts share: the closed
 * form of a grid numbered block after block (traffic.c) and the count of
 * a grid placed by blockIdx.x/y/z (tiled.c). Internal. */
#ifndef OCC_TRAFFIC_H
#define OCC_TRAFFIC_H

#include <stdint.h>

#include "occcalc.h"
#include "periodic.h"

static inline uint64_t occ_gcd(uint64_t a, uint64_t b)
{
	while (b) {
		uint64_t r = a % b;

		a = b;
		b = r;
	}
	return a;
}

/* Which accesses a distinct count takes. */
enum occ_which { OCC_LOADS, OCC_STORES, OCC_BOTH };

static inline int occ_counts(const struct occ_kernel_access *k,
			     enum occ_which w)
{
	return w == OCC_BOTH ||
	       (k->access.op == OCC_ACCESS_LOAD) == (w == OCC_LOADS);
}

/* What one warp's request costs. */
struct warp_cost {
	uint64_t sectors, lines, requested, thread_bytes;
};

/* Records why the launch is refused (t->fault, the access); returns
 * OCC_ERR_INVALID_INPUT. */
OCC_INTERNAL enum occ_status occ_traffic_fault(struct occ_traffic *t,
					       enum occ_traffic_fault f,
					       size_t i);
/* Whether thread t of a unit of `threads` takes part in k. */
OCC_INTERNAL int occ_lane_active(const struct occ_kernel_access *k,
				 uint64_t t, uint64_t threads);
/* A request of `lanes` addresses of size-byte elements (sorted here):
 * its cost, its sectors and lines added to the lists given (NULL:
 * none); 0 when out of memory. */
OCC_INTERNAL int occ_warp_cost(const struct occ_arch *arch, uint64_t *addr,
			       int lanes, uint64_t size,
			       struct occ_ids *sectors, struct occ_ids *lines,
			       struct warp_cost *cost);
/* Adds a warp's cost, `times` over, to its kind's totals; 0 when a total
 * would not fit. */
OCC_INTERNAL int occ_add_cost(struct occ_traffic_ops *o,
			      const struct warp_cost *w, uint64_t times);

/* Whether the launch needs tiled.c: a grid of more than one block and an
 * access placed by blockIdx's coordinates (bid_dim). */
OCC_INTERNAL int occ_traffic_is_tiled(const struct occ_launch *l,
				      const struct occ_kernel_access *acc,
				      size_t n);
/* Such a launch's requests, distinct sectors (per kind and in all) and,
 * for an L1 that fetches lines, the loads' distinct lines, into t
 * (checked input, t initialised). */
OCC_INTERNAL enum occ_status occ_traffic_tiled(const struct occ_arch *arch,
					       const struct occ_launch *l,
					       const struct occ_kernel_access *acc,
					       size_t n, struct occ_traffic *t,
					       uint64_t *load_lines);

#endif
