/*
 * tiled_units.c - a tiled grid's distinct units, sectors or lines
 * (tiled.c says how): each array's accesses as families of a block's
 * units moved whole units along each dimension, listed as runs along
 * all dimensions but the one whose listing would be longest, which is
 * counted as rectangles (tiled_area.c). Apart from tiled.c because the
 * listing and its bounds are a computation of their own.
 */
#include <stdlib.h>
#include <string.h>

#include "tiled_int.h"

/* Runs of units listed at once, rectangles of an array's count, and
 * (offsets x threads) unit numbers listed for an array's families. */
#define MAX_RUNS (UINT64_C(1) << 20)
#define MAX_RECTS (UINT64_C(1) << 19)
#define MAX_UNITS (UINT64_C(1) << 22)

struct run {
	uint64_t a, b;           /* units a to b, both included */
};

struct runs {
	struct run *v;
	size_t n, cap;
};

static int runs_push(struct runs *r, uint64_t a, uint64_t b)
{
	if (r->n == r->cap) {
		size_t cap = r->cap ? r->cap * 2 : 64;
		struct run *v = realloc(r->v, cap * sizeof *v);

		if (!v)
			return 0;
		r->v = v;
		r->cap = cap;
	}
	r->v[r->n].a = a;
	r->v[r->n++].b = b;
	return 1;
}

static int by_start(const void *pa, const void *pb)
{
	const struct run *a = pa, *b = pb;

	return a->a < b->a ? -1 : a->a > b->a;
}

/* Sorts and merges runs that overlap or touch. */
static void runs_merge(struct runs *r)
{
	size_t i, k = 0;

	if (r->n == 0)
		return;
	qsort(r->v, r->n, sizeof r->v[0], by_start);
	for (i = 1; i < r->n; i++) {
		if (r->v[i].a <= r->v[k].b || r->v[i].a - r->v[k].b == 1) {
			if (r->v[i].b > r->v[k].b)
				r->v[k].b = r->v[i].b;
		} else {
			r->v[++k] = r->v[i];
		}
	}
	r->n = k + 1;
}

/* ---- Distinct units: families of a block's units, moved ---- */

/* A block's units, moved k[d] M[d] for k[d] < n[d]. */
struct family {
	struct runs r;
	uint64_t n[3], m[3];
	size_t merged;           /* runs after the last merge */
};

struct families {
	struct family *v;
	size_t n;
};

static void families_free(struct families *f)
{
	size_t i;

	for (i = 0; i < f->n; i++)
		free(f->v[i].r.v);
	free(f->v);
	f->v = NULL;
	f->n = 0;
}

/* How the access moves by whole units along each dimension: after
 * flipping a dimension whose factor is negative (counted from its far
 * end), p[d] steps of step[d] bytes are m[d] units; a dimension whose
 * steps never come round to whole units within the grid is all
 * offsets (p = its size, m = 0). */
struct moves {
	uint64_t p[3], m[3];
	__int128 step[3], origin;        /* bytes */
};

static void make_moves(const struct grid *g, const struct placed *pl,
		       uint64_t unit, struct moves *mv)
{
	__int128 e = pl->k->access.elem_size;
	int d;

	mv->origin = 0;
	for (d = 0; d < 3; d++) {
		__int128 f = g->g[d] > 1 ? pl->f[d] : 0;

		if (f < 0) {
			mv->origin += f * (__int128)(g->g[d] - 1) * e;
			f = -f;
		}
		mv->step[d] = f * e;
		mv->p[d] = unit / occ_gcd(occ_mod_u(mv->step[d], unit), unit);
		mv->m[d] = 0;
		if (mv->p[d] >= g->g[d])
			mv->p[d] = g->g[d];
		else    /* within the grid's bytes: fits */
			mv->m[d] = (uint64_t)(mv->step[d] *
					      (__int128)mv->p[d] /
					      (__int128)unit);
		if (!mv->step[d])
			mv->m[d] = 0;
	}
}

/* The family of offset o's n vector, made if new. */
static struct family *family_of(struct families *fs, const uint64_t *n,
				const uint64_t *m)
{
	size_t i;
	struct family *v;

	for (i = 0; i < fs->n; i++)
		if (!memcmp(fs->v[i].n, n, sizeof fs->v[i].n) &&
		    !memcmp(fs->v[i].m, m, sizeof fs->v[i].m))
			return &fs->v[i];
	v = realloc(fs->v, (fs->n + 1) * sizeof *v);
	if (!v)
		return NULL;
	fs->v = v;
	v = &fs->v[fs->n++];
	memset(v, 0, sizeof *v);
	memcpy(v->n, n, sizeof v->n);
	memcpy(v->m, m, sizeof v->m);
	return v;
}

/* One access's families: the block at each offset within the p's, its
 * units listed into the family of its copy counts. */
static enum occ_status access_families(const struct grid *g,
				       const struct placed *pl, uint64_t bias,
				       uint64_t unit, uint64_t *listed,
				       struct families *fs)
{
	struct moves mv;
	uint64_t o[3], n[3], size = (uint64_t)pl->k->access.elem_size, t;
	uint64_t m[3] = { 0, 0, 0 };
	int d;

	make_moves(g, pl, unit, &mv);
	for (o[2] = 0; o[2] < mv.p[2]; o[2]++)
	for (o[1] = 0; o[1] < mv.p[1]; o[1]++)
	for (o[0] = 0; o[0] < mv.p[0]; o[0]++) {
		struct family *f;
		__int128 shift = mv.origin + (__int128)bias;

		for (d = 0; d < 3; d++) {
			n[d] = (g->g[d] - o[d] + mv.p[d] - 1) / mv.p[d];
			m[d] = n[d] > 1 ? mv.m[d] : 0;
			if (!m[d])
				n[d] = 1;
			shift += (__int128)o[d] * mv.step[d];
		}
		*listed += g->block;
		if (*listed > MAX_UNITS)
			return OCC_ERR_UNSUPPORTED;
		if (!(f = family_of(fs, n, m)))
			return OCC_ERR_NOMEM;
		for (t = 0; t < g->block; t++) {
			uint64_t a;

			if (!occ_lane_active(pl->k, t, g->block))
				continue;
			a = (uint64_t)(pl->e0[t] * (__int128)size + shift);
			if (!runs_push(&f->r, a / unit, (a + size - 1) / unit))
				return OCC_ERR_NOMEM;
		}
		/* a tile's units touch: merged as they come, they stay few */
		if (f->r.n >= 2 * f->merged + 4096) {
			runs_merge(&f->r);
			f->merged = f->r.n;
		}
	}
	return OCC_OK;
}

/* Runs listed if family f were moved along d: what listing d costs. */
static uint64_t listing(const struct family *f, int d)
{
	uint64_t total = 0;
	size_t i;

	if (f->n[d] < 2)
		return 0;
	for (i = 0; i < f->r.n; i++)
		if (__builtin_add_overflow(total, f->r.v[i].b - f->r.v[i].a + 1 >=
					   f->m[d] ? 1 : f->n[d], &total))
			return UINT64_MAX;
	return total;
}

/* The family moved along d, listed: its runs and their copies. */
static enum occ_status list_along(struct family *f, int d)
{
	struct runs out = { 0 };
	uint64_t n = f->n[d], m = f->m[d], k;
	size_t i;

	if (n < 2)
		return OCC_OK;
	if (listing(f, d) > MAX_RUNS)
		return OCC_ERR_UNSUPPORTED;
	for (i = 0; i < f->r.n; i++) {
		struct run r = f->r.v[i];

		if (r.b - r.a + 1 >= m) {
			if (!runs_push(&out, r.a, r.b + (n - 1) * m))
				goto nomem;
			continue;
		}
		for (k = 0; k < n; k++)
			if (!runs_push(&out, r.a + k * m, r.b + k * m))
				goto nomem;
	}
	runs_merge(&out);
	free(f->r.v);
	f->r = out;
	f->n[d] = 1;
	f->m[d] = 0;
	return OCC_OK;
nomem:
	free(out.v);
	return OCC_ERR_NOMEM;
}

/* The dimension counted in closed form: the one whose listing would be
 * longest over the families; -1 when none moves. */
static int closed_dimension(const struct families *fs)
{
	uint64_t best = 0, cost;
	size_t i;
	int d, c = -1;

	for (d = 0; d < 3; d++) {
		cost = 0;
		for (i = 0; i < fs->n; i++)
			if (__builtin_add_overflow(cost, listing(&fs->v[i], d),
						   &cost))
				cost = UINT64_MAX;
		if (cost > best) {
			best = cost;
			c = d;
		}
	}
	return c;
}

/* A run moved k m units (k < n) as rectangles of (unit mod m,
 * unit div m); 0 past MAX_RECTS. */
static int run_rects(struct run r, uint64_t m, uint64_t n, struct rect *rc,
		     size_t *nr)
{
	uint64_t qa = r.a / m, ra = r.a % m, qb = r.b / m, rb = r.b % m;

	if (*nr + 3 > MAX_RECTS)
		return 0;
	if (qa == qb) {
		rc[(*nr)++] = (struct rect){ ra, rb + 1, qa, qa + n };
		return 1;
	}
	rc[(*nr)++] = (struct rect){ ra, m, qa, qa + n };
	if (qb > qa + 1)
		rc[(*nr)++] = (struct rect){ 0, m, qa + 1, qb - 1 + n };
	rc[(*nr)++] = (struct rect){ 0, rb + 1, qb, qb + n };
	return 1;
}

/* The distinct units of families fs: every dimension listed but the
 * closed one, and that one too where a family moves along it by other
 * than the main step. */
static enum occ_status families_count(struct families *fs, uint64_t *count)
{
	int c = closed_dimension(fs), d, order[3] = { 0, 1, 2 }, j;
	uint64_t m = 0, best = 0;
	struct rect *rc;
	size_t i, k, nr = 0, total = 0;
	enum occ_status st = OCC_OK;

	for (i = 0; c >= 0 && i < fs->n; i++)
		if (fs->v[i].n[c] > best) {
			best = fs->v[i].n[c];
			m = fs->v[i].m[c];
		}
	for (i = 0; i < fs->n && st == OCC_OK; i++) {
		struct family *f = &fs->v[i];

		/* the cheaper listing first: what it merges shortens the
		 * next */
		for (j = 0; j < 2; j++)
			for (k = 0; k < 2; k++)
				if (listing(f, order[k]) >
				    listing(f, order[k + 1])) {
					d = order[k];
					order[k] = order[k + 1];
					order[k + 1] = d;
				}
		for (j = 0; j < 3 && st == OCC_OK; j++) {
			d = order[j];
			if (d != c || f->m[d] != m)
				st = list_along(f, d);
		}
		runs_merge(&f->r);
		total += f->r.n;
	}
	if (st != OCC_OK)
		return st;
	if (!m)
		m = 1;
	if (total > MAX_RECTS)
		return OCC_ERR_UNSUPPORTED;
	rc = malloc((3 * total < MAX_RECTS ? 3 * total + 1 : MAX_RECTS) *
		    sizeof *rc);
	if (!rc)
		return OCC_ERR_NOMEM;
	for (i = 0; i < fs->n && st == OCC_OK; i++) {
		struct family *f = &fs->v[i];
		uint64_t n = c >= 0 ? f->n[c] : 1;

		for (k = 0; k < f->r.n && st == OCC_OK; k++)
			if (!run_rects(f->r.v[k], m, n, rc, &nr))
				st = OCC_ERR_UNSUPPORTED;
	}
	if (st == OCC_OK)
		st = occ_rects_area(rc, nr, count);
	free(rc);
	return st;
}

/* Distinct units of `unit` bytes of one array over its accesses of a
 * kind. */
enum occ_status occ_tiled_units(const struct grid *g,
				const struct placed *p, const uint64_t *bias,
				size_t n, int array, enum occ_which w,
				uint64_t unit, uint64_t *count)
{
	struct families fs = { NULL, 0 };
	uint64_t listed = 0;
	enum occ_status st = OCC_OK;
	size_t i;

	for (i = 0; i < n && st == OCC_OK; i++)
		if (p[i].k->array == array && occ_counts(p[i].k, w) && p[i].any)
			st = access_families(g, &p[i], bias[i], unit, &listed,
					     &fs);
	for (i = 0; i < fs.n; i++)
		runs_merge(&fs.v[i].r);
	*count = 0;
	if (st == OCC_OK)
		st = families_count(&fs, count);
	families_free(&fs);
	return st;
}
