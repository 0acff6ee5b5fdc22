/*
 * l2plan.c - planning L2 persistence: the set-aside, each stream's
 * access-policy window and the hitRatio that keeps them from thrashing.
 */
#include "occcalc.h"

#define MAX_STREAMS 1024

static uint64_t min_u64(uint64_t a, uint64_t b)
{
	return a < b ? a : b;
}

enum occ_status occ_l2_plan(const struct occ_l2 *l2, uint64_t data,
			    int streams, struct occ_l2_plan *p)
{
	uint64_t demand;

	if (data == 0 || streams < 1 || streams > MAX_STREAMS ||
	    l2->persisting_max > l2->size || l2->window_max == 0 ||
	    l2->size > OCC_BYTES_MAX || l2->window_max > OCC_BYTES_MAX)
		return OCC_ERR_INVALID_INPUT;
	if (l2->persisting_max == 0)
		return OCC_ERR_UNSUPPORTED;
	p->window = min_u64(data, l2->window_max);
	p->uncovered = data - p->window;
	demand = p->window * (uint64_t)streams;
	/* A set-aside beyond what the windows use only takes L2 from
	 * normal accesses. */
	p->set_aside = min_u64(demand, l2->persisting_max);
	/* The windows share the set-aside: together they may mark as
	 * persisting no more than it holds, else their lines evict each
	 * other. Rounded down, never up. */
	p->hit_ratio_e4 = (int)min_u64(10000, p->set_aside * 10000 / demand);
	p->persisting = p->window * (uint64_t)p->hit_ratio_e4 / 10000;
	return OCC_OK;
}
