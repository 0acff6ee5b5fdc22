/*
 * lanes.c - what one warp instruction's lanes touch, shared by the
 * per-request calculator (access.c) and the launch totals (traffic.c).
 */
#include <stdlib.h>

#include "util.h"

int occ_u64_cmp(const void *pa, const void *pb)
{
	uint64_t a = *(const uint64_t *)pa, b = *(const uint64_t *)pb;

	return a < b ? -1 : a > b;
}

int occ_lane_units(const uint64_t *addr, int n, uint64_t size,
		   uint64_t unit, uint64_t *ids)
{
	int i, k = 0, count = 0;

	for (i = 0; i < n; i++) {
		ids[k++] = addr[i] / unit;
		if ((addr[i] + size - 1) / unit != addr[i] / unit)
			ids[k++] = (addr[i] + size - 1) / unit;
	}
	qsort(ids, (size_t)k, sizeof ids[0], occ_u64_cmp);
	for (i = 0; i < k; i++)
		if (i == 0 || ids[i] != ids[count - 1])
			ids[count++] = ids[i];
	return count;
}

uint64_t occ_lane_bytes(uint64_t *addr, int n, uint64_t size)
{
	uint64_t total = 0, end = 0;
	int i;

	qsort(addr, (size_t)n, sizeof addr[0], occ_u64_cmp);
	for (i = 0; i < n; i++) {
		uint64_t from = i && addr[i] < end ? end : addr[i];

		if (addr[i] + size > from)
			total += addr[i] + size - from;
		if (addr[i] + size > end)
			end = addr[i] + size;
	}
	return total;
}
