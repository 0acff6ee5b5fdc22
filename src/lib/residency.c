/*
 * residency.c - what a launch's warps recorded, turned into the figures
 * the model predicts: the most blocks resident at once on an SM, and the
 * achieved occupancy as Nsight Compute defines it.
 */
#include <stdlib.h>

#include "occcalc.h"
#include "util.h"

static int by_sm_block(const void *pa, const void *pb)
{
	const struct occ_warp_sample *a = pa, *b = pb;

	if (a->sm != b->sm)
		return a->sm < b->sm ? -1 : 1;
	if (a->block != b->block)
		return a->block < b->block ? -1 : 1;
	return 0;
}

static int by_value(const void *pa, const void *pb)
{
	uint64_t a = *(const uint64_t *)pa, b = *(const uint64_t *)pb;

	return a < b ? -1 : a > b;
}

/* The most intervals open at once. An interval is [start, end): one that
 * starts when another ends follows it, as a block scheduled onto the
 * resources another just released does. Sorts both arrays. */
int occ_intervals_alloc(uint64_t **starts, uint64_t **ends, size_t n)
{
	*starts = malloc(n * sizeof **starts);
	*ends = malloc(n * sizeof **ends);
	if (*starts && *ends)
		return 1;
	free(*starts);
	free(*ends);
	return 0;
}

int occ_max_overlap(uint64_t *starts, uint64_t *ends, size_t n)
{
	size_t i = 0, j = 0;
	int open = 0, most = 0;

	qsort(starts, n, sizeof *starts, by_value);
	qsort(ends, n, sizeof *ends, by_value);
	while (i < n) {
		if (ends[j] <= starts[i]) {
			open--;
			j++;
		} else {
			open++;
			i++;
			if (open > most)
				most = open;
		}
	}
	return most;
}

/* Cycles covered by at least one interval, given intervals whose starts
 * and ends are each sorted ascending (as max_overlap leaves them): the
 * union is the time between each moment the count rises from zero and the
 * moment it falls back. */
static uint64_t covered(const uint64_t *starts, const uint64_t *ends, size_t n)
{
	size_t i = 0, j = 0;
	int open = 0;
	uint64_t since = 0, total = 0;

	while (j < n) {
		if (i < n && starts[i] < ends[j]) {
			if (open++ == 0)
				since = starts[i];
			i++;
		} else {
			if (--open == 0)
				total += ends[j] - since;
			j++;
		}
	}
	return total;
}

/* One SM's warps, sorted by block: its block intervals into starts/ends. */
static size_t sm_blocks(const struct occ_warp_sample *w, size_t n,
			uint64_t *starts, uint64_t *ends, uint64_t *warp_cycles)
{
	size_t i, blocks = 0;

	for (i = 0; i < n; i++) {
		*warp_cycles += w[i].end - w[i].start;
		if (i == 0 || w[i].block != w[i - 1].block) {
			starts[blocks] = w[i].start;
			ends[blocks] = w[i].end;
			blocks++;
			continue;
		}
		if (w[i].start < starts[blocks - 1])
			starts[blocks - 1] = w[i].start;
		if (w[i].end > ends[blocks - 1])
			ends[blocks - 1] = w[i].end;
	}
	/* A block takes at least a cycle; an empty interval would close
	 * before it opens. */
	for (i = 0; i < blocks; i++)
		if (ends[i] == starts[i])
			ends[i]++;
	return blocks;
}

enum occ_status occ_residency(struct occ_warp_sample *w, size_t n,
			      int max_warps_per_sm, struct occ_residency *out)
{
	uint64_t *starts, *ends;
	size_t i, first;

	if (n == 0 || max_warps_per_sm < 1)
		return OCC_ERR_INVALID_INPUT;
	for (i = 0; i < n; i++)
		if (w[i].end < w[i].start)
			return OCC_ERR_INVALID_INPUT;
	if (!occ_intervals_alloc(&starts, &ends, n))
		return OCC_ERR_NOMEM;
	qsort(w, n, sizeof *w, by_sm_block);
	out->max_blocks_per_sm = 0;
	out->sms_used = 0;
	out->warp_cycles = 0;
	out->active_cycles = 0;
	out->max_warps_per_sm = max_warps_per_sm;
	for (first = 0; first < n; first = i) {
		size_t blocks;
		int most;

		for (i = first; i < n && w[i].sm == w[first].sm; i++)
			;
		blocks = sm_blocks(w + first, i - first, starts, ends,
				   &out->warp_cycles);
		most = occ_max_overlap(starts, ends, blocks);
		if (most > out->max_blocks_per_sm)
			out->max_blocks_per_sm = most;
		out->active_cycles += covered(starts, ends, blocks);
		out->sms_used++;
	}
	free(starts);
	free(ends);
	return OCC_OK;
}

double occ_residency_percent(const struct occ_residency *r)
{
	if (r->active_cycles == 0)
		return 0;
	return 100.0 * (double)r->warp_cycles /
	       ((double)r->max_warps_per_sm * (double)r->active_cycles);
}
