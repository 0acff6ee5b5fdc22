/* brute.h - a launch's traffic counted thread by thread, every address
 * listed, with the library's rules for what L1 and L2 see: what
 * t/traffic.c checks occ_traffic_compute's closed form against. */
#ifndef T_BRUTE_H
#define T_BRUTE_H

#include <stdlib.h>
#include <string.h>

#include "occcalc.h"

struct list {
	uint64_t *v;
	size_t n, cap;
};

/* Doubling: a sanitizer's realloc copies every time, and a launch lists
 * millions of units (one at a time, the random grids took hours). */
static void list_add(struct list *l, uint64_t x)
{
	if (l->n == l->cap) {
		l->cap = l->cap ? 2 * l->cap : 64;
		l->v = realloc(l->v, l->cap * sizeof *l->v);
		if (!l->v)
			exit(99);
	}
	l->v[l->n++] = x;
}

static int cmp_u64(const void *pa, const void *pb)
{
	uint64_t a = *(const uint64_t *)pa, b = *(const uint64_t *)pb;

	return a < b ? -1 : a > b;
}

static uint64_t distinct(struct list *l)
{
	uint64_t n = 0;
	size_t i;

	if (l->n)
		qsort(l->v, l->n, sizeof *l->v, cmp_u64);
	for (i = 0; i < l->n; i++)
		n += i == 0 || l->v[i] != l->v[i - 1];
	free(l->v);
	l->v = NULL;
	l->n = l->cap = 0;
	return n;
}

/* The units of [a, a + e) for every address, into l; how many distinct. */
static uint64_t units(const uint64_t *addr, int n, uint64_t e,
		      uint64_t unit, struct list *l)
{
	struct list mine = { 0 };
	int i;

	for (i = 0; i < n; i++) {
		uint64_t u;

		for (u = addr[i] / unit; u <= (addr[i] + e - 1) / unit; u++) {
			list_add(&mine, u);
			if (l)
				list_add(l, u);
		}
	}
	return distinct(&mine);
}

static uint64_t bytes_covered(const uint64_t *addr, int n, uint64_t e)
{
	struct list b = { 0 };
	int i;
	uint64_t k;

	for (i = 0; i < n; i++)
		for (k = 0; k < e; k++)
			list_add(&b, addr[i] + k);
	return distinct(&b);
}

#define BRUTE_BIAS (INT64_C(1) << 40)

struct brute {
	struct occ_traffic t;
	/* per array: sectors of loads, of stores, of both; lines of loads */
	struct list ld[3], st[3], all[3], lines[3];
};

static void brute_warp(const struct occ_arch *a, const struct occ_launch *l,
		       const struct occ_kernel_access *k, uint64_t b,
		       uint64_t w, struct brute *br)
{
	const struct occ_access *x = &k->access;
	struct occ_traffic_ops *o = x->op == OCC_ACCESS_LOAD ? &br->t.load :
							       &br->t.store;
	uint64_t addr[32], e = (uint64_t)x->elem_size, t;
	uint64_t dx = l->block_x ? l->block_x : l->block;
	uint64_t dy = l->block_x && l->block_y ? l->block_y : 1;
	uint64_t gy = l->grid_y ? l->grid_y : 1, gz = l->grid_z ? l->grid_z : 1;
	uint64_t gx = l->grid / gy / gz;
	int n = 0, arr = k->array;

	for (t = w * 32; t < w * 32 + 32 && t < l->block; t++) {
		uint64_t i = b * l->block + (t ^ x->lane_xor);
		int64_t el = x->offset + (int64_t)(i / k->group) * x->stride +
			     k->tid[0] * (int64_t)(t % dx) +
			     k->tid[1] * (int64_t)(t / dx % dy) +
			     k->tid[2] * (int64_t)(t / dx / dy) +
			     k->bid * (int64_t)b +
			     k->bid_dim[0] * (int64_t)(b % gx) +
			     k->bid_dim[1] * (int64_t)(b / gx % gy) +
			     k->bid_dim[2] * (int64_t)(b / gx / gy);

		/* below element 0 too: lifted by whole lines */
		if ((int)(t % 32) < x->threads)
			addr[n++] = (uint64_t)(el * (int64_t)e + BRUTE_BIAS);
	}
	o->instructions++;
	o->requests++;
	o->thread_bytes += (uint64_t)n * e;
	o->requested += bytes_covered(addr, n, e);
	o->lines += units(addr, n, e, (uint64_t)a->line_size,
			  x->op == OCC_ACCESS_LOAD ? &br->lines[arr] : NULL);
	o->sectors += units(addr, n, e, (uint64_t)a->sector_size,
			    &br->all[arr]);
	units(addr, n, e, (uint64_t)a->sector_size,
	      x->op == OCC_ACCESS_LOAD ? &br->ld[arr] : &br->st[arr]);
}

/* The whole launch, thread by thread, with the library's rules for what
 * L1 and L2 see. */
static void brute(const struct occ_arch *a, const struct occ_launch *l,
		  const struct occ_kernel_access *acc, size_t n,
		  struct occ_traffic *out)
{
	struct brute br;
	uint64_t b, w, per_line = (uint64_t)(a->line_size / a->sector_size);
	uint64_t load_lines = 0;
	size_t i;
	int arr, cached = l->l1 == OCC_L1_CACHE ||
			  (l->l1 == OCC_L1_DEFAULT && a->cc_major >= 7);

	memset(&br, 0, sizeof br);
	for (b = 0; b < l->grid; b++)
		for (w = 0; w * 32 < l->block; w++)
			for (i = 0; i < n; i++)
				brute_warp(a, l, &acc[i], b, w, &br);
	br.t.threads = l->grid * l->block;
	br.t.warps = l->grid * ((l->block + 31) / 32);
	for (arr = 0; arr < 3; arr++) {
		br.t.load.distinct += distinct(&br.ld[arr]);
		br.t.store.distinct += distinct(&br.st[arr]);
		br.t.footprint += distinct(&br.all[arr]);
		load_lines += distinct(&br.lines[arr]);
	}
	br.t.store.l2_max = br.t.store.sectors;
	br.t.store.l2_min = br.t.store.distinct;
	br.t.load.l2_min = br.t.load.l2_max = br.t.load.sectors;
	if (cached && a->l1_load_transaction == a->line_size) {
		br.t.load.l2_max = br.t.load.lines * per_line;
		br.t.load.l2_min = load_lines * per_line;
	} else if (cached) {
		br.t.load.l2_min = br.t.load.distinct;
	}
	*out = br.t;
}

static int same_ops(const struct occ_traffic_ops *x,
		    const struct occ_traffic_ops *y)
{
	return x->instructions == y->instructions &&
	       x->requests == y->requests && x->sectors == y->sectors &&
	       x->lines == y->lines && x->thread_bytes == y->thread_bytes &&
	       x->requested == y->requested && x->l2_max == y->l2_max &&
	       x->l2_min == y->l2_min && x->distinct == y->distinct;
}

/* Whether got has the thread-by-thread count's loads, stores and
 * footprint; that count in want, for what else a test compares. */
static int same_as_brute(const struct occ_arch *a,
			 const struct occ_launch *l,
			 const struct occ_kernel_access *acc, size_t n,
			 const struct occ_traffic *got, struct occ_traffic *want)
{
	brute(a, l, acc, n, want);
	return same_ops(&got->load, &want->load) &&
	       same_ops(&got->store, &want->store) &&
	       got->footprint == want->footprint;
}

#endif
