/*
 * tiled_area.c - the area of a union of rectangles, swept along r with
 * a segment tree over the q's: the count of distinct units along the
 * dimension tiled_units.c leaves unlisted, whose runs moved k M units
 * are rectangles in (unit mod M, unit div M). Apart because it is plain
 * geometry, knowing nothing of grids or accesses.
 */
#include <stdlib.h>

#include "tiled_int.h"

/* ---- The union's area: rectangles swept ---- */

struct event {
	uint64_t r;
	uint32_t i0, i1;         /* q0 and q1 as indices into the q's */
	int add;
};

static int by_r(const void *pa, const void *pb)
{
	const struct event *a = pa, *b = pb;

	return a->r < b->r ? -1 : a->r > b->r;
}

/* A segment tree over the q's: how often each node's span is covered
 * whole, and the length covered beneath it. */
struct cover {
	const uint64_t *q;
	uint32_t *count;
	uint64_t *len;
};

static void cover_update(struct cover *c, size_t node, uint32_t lo,
			 uint32_t hi, uint32_t i0, uint32_t i1, int add)
{
	uint32_t mid = lo + (hi - lo) / 2;

	if (i1 <= lo || hi <= i0)
		return;
	if (i0 <= lo && hi <= i1) {
		c->count[node] += add ? 1 : (uint32_t)-1;
	} else {
		cover_update(c, 2 * node, lo, mid, i0, i1, add);
		cover_update(c, 2 * node + 1, mid, hi, i0, i1, add);
	}
	if (c->count[node])
		c->len[node] = c->q[hi] - c->q[lo];
	else if (hi - lo == 1)
		c->len[node] = 0;
	else
		c->len[node] = c->len[2 * node] + c->len[2 * node + 1];
}

static size_t q_index(const uint64_t *q, size_t n, uint64_t x)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (q[mid] < x)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

enum occ_status occ_rects_area(const struct rect *rc, size_t n,
			       uint64_t *count)
{
	struct event *ev = malloc(2 * n * sizeof *ev);
	uint64_t *q = malloc(2 * n * sizeof *q);
	struct cover c = { q, NULL, NULL };
	size_t i, nq = 0, k;
	unsigned __int128 total = 0;
	enum occ_status st = OCC_OK;

	*count = 0;
	if (!n) {
		free(ev);
		free(q);
		return OCC_OK;
	}
	if (!ev || !q)
		goto nomem;
	for (i = 0; i < n; i++) {
		q[nq++] = rc[i].q0;
		q[nq++] = rc[i].q1;
	}
	qsort(q, nq, sizeof *q, occ_u64_cmp);
	for (i = k = 0; i < nq; i++)
		if (k == 0 || q[i] != q[k - 1])
			q[k++] = q[i];
	nq = k;
	c.count = calloc(4 * nq, sizeof *c.count);
	c.len = calloc(4 * nq, sizeof *c.len);
	if (!c.count || !c.len)
		goto nomem;
	for (i = 0; i < n; i++) {
		uint32_t i0 = (uint32_t)q_index(q, nq, rc[i].q0);
		uint32_t i1 = (uint32_t)q_index(q, nq, rc[i].q1);

		ev[2 * i] = (struct event){ rc[i].r0, i0, i1, 1 };
		ev[2 * i + 1] = (struct event){ rc[i].r1, i0, i1, 0 };
	}
	qsort(ev, 2 * n, sizeof *ev, by_r);
	for (i = 0; i < 2 * n; i++) {
		if (i > 0)
			total += (unsigned __int128)c.len[1] *
				 (ev[i].r - ev[i - 1].r);
		if (nq > 1)
			cover_update(&c, 1, 0, (uint32_t)(nq - 1), ev[i].i0,
				     ev[i].i1, ev[i].add);
	}
	if (total > UINT64_MAX)
		st = OCC_ERR_RANGE;
	else
		*count = (uint64_t)total;
	goto done;
nomem:
	st = OCC_ERR_NOMEM;
done:
	free(ev);
	free(q);
	free(c.count);
	free(c.len);
	return st;
}
