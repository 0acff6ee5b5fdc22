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
#include <string.h>

#include "traffic.h"

#define WARP 32
/* Runs of units listed at once, rectangles of an array's count, and
 * (offsets x threads) unit numbers listed for an array's families. */
#define MAX_RUNS (UINT64_C(1) << 20)
#define MAX_RECTS (UINT64_C(1) << 19)
#define MAX_UNITS (UINT64_C(1) << 22)

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

static uint64_t mod_u(__int128 x, uint64_t m)
{
	__int128 r = x % (__int128)m;

	return (uint64_t)(r < 0 ? r + (__int128)m : r);
}

/* ---- Requests: blocks counted by their offset modulo a line ---- */

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

static enum occ_status requests(const struct occ_arch *arch,
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
		residues(g->g[d], mod_u(p->f[d] * p->k->access.elem_size, line),
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
		mv->p[d] = unit / occ_gcd(mod_u(mv->step[d], unit), unit);
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

/* ---- The union's area: rectangles swept ---- */

/* Units r0 <= unit mod M < r1 and q0 <= unit div M < q1. */
struct rect {
	uint64_t r0, r1, q0, q1;
};

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

static enum occ_status area(const struct rect *rc, size_t n,
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
		st = area(rc, nr, count);
	free(rc);
	return st;
}

/* Distinct units of `unit` bytes of one array over its accesses of a
 * kind. */
static enum occ_status array_units(const struct grid *g,
				   const struct placed *p,
				   const uint64_t *bias, size_t n, int array,
				   enum occ_which w, uint64_t unit,
				   uint64_t *count)
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

static enum occ_status add_array(const struct occ_arch *arch,
				 const struct grid *g, const struct placed *p,
				 const uint64_t *bias, size_t n, int array,
				 struct occ_traffic *t, uint64_t *load_lines)
{
	uint64_t sector = (uint64_t)arch->sector_size, ld = 0, st_ = 0,
		 all = 0, ln = 0;
	enum occ_status st;

	st = array_units(g, p, bias, n, array, OCC_LOADS, sector, &ld);
	if (st == OCC_OK)
		st = array_units(g, p, bias, n, array, OCC_STORES, sector, &st_);
	if (st == OCC_OK)
		st = array_units(g, p, bias, n, array, OCC_BOTH, sector, &all);
	if (st == OCC_OK && t->load.l1_lines)
		st = array_units(g, p, bias, n, array, OCC_LOADS,
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
		st = requests(arch, &g, &p[i], t);
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
