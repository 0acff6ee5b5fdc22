/*
 * traffic.c - a launch's global memory traffic, level by level: the
 * instructions and requests its warps issue, the sectors each request
 * touches in L1, what goes on to L2, and the range device memory moves.
 *
 * Warps repeat: block after block (or warp after warp of a thread count)
 * the addresses are the same, shifted. A span of units whose shift is a
 * whole number of cache lines repeats every per-request figure exactly,
 * so one span is listed and multiplied; the leftover units and a partial
 * last unit are listed as they are. Distinct sectors come from the
 * span's sectors and their shifted copies (periodic.c), never from
 * listing the launch.
 */
#include <stdlib.h>

#include "occcalc.h"
#include "periodic.h"

#define WARP 32
#define MAX_GROUP 32

/* The launch cut into repeating units of `unit` threads (a block, or a
 * warp of a thread count), `units` of them, then `tail` threads more;
 * spans of `span` units repeat every figure, shifted by whole lines. */
struct plan {
	uint64_t unit, units, tail;
	uint64_t span, spans;
};

/* One access's unit numbers: of the first span (repeated `spans` times)
 * and of the rest of the launch, in sectors and in lines. */
struct access_ids {
	struct occ_ids span_sectors, span_lines, rest_sectors, rest_lines;
	uint64_t shift;          /* bytes between spans */
};

struct ctx {
	const struct occ_arch *arch;
	struct plan p;
	struct occ_traffic *t;
};

static int is_pow2(uint64_t x)
{
	return x && !(x & (x - 1));
}

static uint64_t gcd(uint64_t a, uint64_t b)
{
	while (b) {
		uint64_t r = a % b;

		a = b;
		b = r;
	}
	return a;
}

/* sum += v x times; 0 when it would not fit. */
static int add_times(uint64_t *sum, uint64_t v, uint64_t times)
{
	uint64_t x;

	return !__builtin_mul_overflow(v, times, &x) &&
	       !__builtin_add_overflow(*sum, x, sum);
}

static int access_valid(const struct occ_kernel_access *k)
{
	const struct occ_access *a = &k->access;

	return (a->elem_size == 1 || a->elem_size == 2 || a->elem_size == 4 ||
		a->elem_size == 8 || a->elem_size == 16) &&
	       a->threads >= 1 && a->threads <= WARP && a->lane_xor < WARP &&
	       (a->op == OCC_ACCESS_LOAD || a->op == OCC_ACCESS_STORE) &&
	       is_pow2(k->group) && k->group <= MAX_GROUP;
}

static enum occ_status fault(struct occ_traffic *t, enum occ_traffic_fault f,
			     size_t i)
{
	t->fault = f;
	t->fault_access = i;
	return OCC_ERR_INVALID_INPUT;
}

static enum occ_status check_input(const struct occ_arch *arch,
				   const struct occ_launch *l,
				   const struct occ_kernel_access *acc,
				   size_t n, struct occ_traffic *t)
{
	size_t i;

	if (l->grid == 0 || l->block == 0 || n == 0)
		return fault(t, OCC_TRAFFIC_NO_THREADS, 0);
	if (l->grid > 1 && l->block > (uint64_t)arch->max_threads_per_block)
		return fault(t, OCC_TRAFFIC_BLOCK_TOO_LARGE, 0);
	if (__builtin_mul_overflow(l->grid, l->block, &t->threads))
		return fault(t, OCC_TRAFFIC_THREADS_OVERFLOW, 0);
	for (i = 0; i < n; i++)
		if (!access_valid(&acc[i]))
			return fault(t, OCC_TRAFFIC_BAD_ACCESS, i);
	if (!arch->sector_size || !arch->line_size || arch->sector_size < 16 ||
	    arch->line_size % arch->sector_size)
		return OCC_ERR_UNKNOWN_ARCH;
	return OCC_OK;
}

/* Units of a span for one access: enough that the index advances by
 * whole groups and the address by whole lines. Powers of two. */
static uint64_t access_span(const struct occ_kernel_access *k, uint64_t unit,
			    uint64_t line)
{
	uint64_t g = k->group, c0 = g / gcd(g, unit), moved;

	/* bytes one span of c0 units moves the addresses, modulo a line */
	moved = (uint64_t)k->access.elem_size % line *
		(k->access.stride % line) % line * ((unit * c0 / g) % line) %
		line;
	return c0 * (line / gcd(moved, line));
}

static void make_plan(const struct occ_launch *l,
		      const struct occ_kernel_access *acc, size_t n,
		      uint64_t line, struct plan *p)
{
	size_t i;

	if (l->grid == 1) {     /* a thread count: warp after warp */
		p->unit = WARP;
		p->units = l->block / WARP;
		p->tail = l->block % WARP;
	} else {
		p->unit = l->block;
		p->units = l->grid;
		p->tail = 0;
	}
	p->span = 1;
	for (i = 0; i < n; i++) {
		uint64_t s = access_span(&acc[i], p->unit, line);

		p->span = p->span / gcd(p->span, s) * s;
	}
	p->spans = p->units / p->span;
}

/* Element index of thread t of the unit at first_thread; 0 if it would
 * not fit. */
static int element(const struct occ_kernel_access *k, uint64_t first_thread,
		   uint64_t t, uint64_t *elem)
{
	uint64_t i, e;

	if (__builtin_add_overflow(first_thread, t ^ k->access.lane_xor, &i) ||
	    __builtin_mul_overflow(i / k->group, k->access.stride, &e) ||
	    __builtin_add_overflow(e, k->access.offset, elem))
		return 0;
	return 1;
}

/* Threads in the unit at position u (units, then the tail). */
static uint64_t unit_threads(const struct plan *p, uint64_t u)
{
	return u < p->units ? p->unit : p->tail;
}

static int lane_active(const struct occ_kernel_access *k, uint64_t t,
		       uint64_t threads)
{
	return t < threads && (int)(t % WARP) < k->access.threads;
}

/* Addresses only grow with the thread, so the last unit's largest index
 * bounds them all: it must leave room for a whole element. */
static int addresses_fit(const struct occ_kernel_access *k,
			 const struct plan *p)
{
	uint64_t last = p->tail ? p->units : p->units - 1;
	uint64_t n = unit_threads(p, last), first = last * p->unit;
	uint64_t t, e, bytes, size = (uint64_t)k->access.elem_size;

	for (t = 0; t < (n + WARP - 1) / WARP * WARP; t++) {
		if (!lane_active(k, t, n))
			continue;
		if (!element(k, first, t, &e) ||
		    __builtin_mul_overflow(e, size, &bytes) ||
		    bytes > UINT64_MAX - size)
			return 0;
	}
	return 1;
}

/* What one warp's request costs. */
struct warp_cost {
	uint64_t sectors, lines, requested, thread_bytes;
};

/* Distinct units of `unit` bytes the lanes touch, added to ids. */
static int warp_units(const uint64_t *addr, int n, uint64_t size,
		      uint64_t unit, struct occ_ids *ids, uint64_t *count)
{
	uint64_t u[2 * WARP];
	int i, k = occ_lane_units(addr, n, size, unit, u);

	*count = (uint64_t)k;
	for (i = 0; i < k; i++)
		if (!occ_ids_push(ids, u[i]))
			return 0;
	return 1;
}

/* One warp: lanes 32 w to 32 w + 31 of the unit at first_thread, of n
 * threads. Its sectors and lines go to the id lists. */
static int warp(const struct ctx *c, const struct occ_kernel_access *k,
		uint64_t first_thread, uint64_t n, uint64_t w,
		struct occ_ids *sectors, struct occ_ids *lines,
		struct warp_cost *cost)
{
	uint64_t addr[WARP], e, size = (uint64_t)k->access.elem_size;
	int lanes = 0;
	uint64_t t;

	for (t = w * WARP; t < (w + 1) * WARP; t++)
		if (lane_active(k, t, n) && element(k, first_thread, t, &e))
			addr[lanes++] = e * size;
	if (!warp_units(addr, lanes, size, (uint64_t)c->arch->sector_size,
			sectors, &cost->sectors) ||
	    !warp_units(addr, lanes, size, (uint64_t)c->arch->line_size,
			lines, &cost->lines))
		return 0;
	cost->requested = occ_lane_bytes(addr, lanes, size);
	cost->thread_bytes = (uint64_t)lanes * size;
	return 1;
}

/* Adds a warp's cost, `times` over, to its kind's totals. */
static int add_cost(struct occ_traffic_ops *o, const struct warp_cost *w,
		    uint64_t times)
{
	return add_times(&o->instructions, 1, times) &&
	       add_times(&o->requests, 1, times) &&
	       add_times(&o->sectors, w->sectors, times) &&
	       add_times(&o->lines, w->lines, times) &&
	       add_times(&o->requested, w->requested, times) &&
	       add_times(&o->thread_bytes, w->thread_bytes, times);
}

/* Lists units [from, to) of access k, each `times` over. */
static enum occ_status list_units(const struct ctx *c,
				  const struct occ_kernel_access *k,
				  uint64_t from, uint64_t to, uint64_t times,
				  struct occ_ids *sectors,
				  struct occ_ids *lines)
{
	struct occ_traffic_ops *o = k->access.op == OCC_ACCESS_LOAD ?
				    &c->t->load : &c->t->store;
	uint64_t u, w;

	for (u = from; u < to; u++) {
		uint64_t n = unit_threads(&c->p, u);

		for (w = 0; w < (n + WARP - 1) / WARP; w++) {
			struct warp_cost cost;

			if (!warp(c, k, u * c->p.unit, n, w, sectors, lines,
				  &cost))
				return OCC_ERR_NOMEM;
			if (!add_cost(o, &cost, times))
				return fault(c->t, OCC_TRAFFIC_COUNT_OVERFLOW,
					     0);
		}
	}
	return OCC_OK;
}

static enum occ_status list_access(const struct ctx *c,
				   const struct occ_kernel_access *k,
				   size_t i, struct access_ids *ids)
{
	const struct plan *p = &c->p;
	uint64_t end = p->units + (p->tail ? 1 : 0), done = p->spans * p->span;
	uint64_t step;
	enum occ_status st = OCC_OK;

	if (!addresses_fit(k, p))
		return fault(c->t, OCC_TRAFFIC_ADDRESS_OVERFLOW, i);
	if (p->spans)
		st = list_units(c, k, 0, p->span, p->spans, &ids->span_sectors,
				&ids->span_lines);
	if (st == OCC_OK)
		st = list_units(c, k, done, end, 1, &ids->rest_sectors,
				&ids->rest_lines);
	occ_ids_unique(&ids->span_sectors);
	occ_ids_unique(&ids->span_lines);
	occ_ids_unique(&ids->rest_sectors);
	occ_ids_unique(&ids->rest_lines);
	/* Spans exist up to the last, so its shift fits when there are two. */
	ids->shift = 0;
	step = p->unit * p->span / k->group;
	if (st == OCC_OK && p->spans > 1 &&
	    (__builtin_mul_overflow(step, k->access.stride, &step) ||
	     __builtin_mul_overflow(step, (uint64_t)k->access.elem_size,
				    &ids->shift)))
		return fault(c->t, OCC_TRAFFIC_ADDRESS_OVERFLOW, i);
	return st;
}

enum which { LOADS, STORES, BOTH };

static int counts(const struct occ_kernel_access *k, enum which w)
{
	return w == BOTH || (k->access.op == OCC_ACCESS_LOAD) == (w == LOADS);
}

/* Distinct sectors (or lines) of one array over the accesses of a kind. */
static enum occ_status array_distinct(const struct ctx *c,
				      const struct occ_kernel_access *acc,
				      const struct access_ids *ids, size_t n,
				      int array, enum which w, int lines,
				      uint64_t *count)
{
	uint64_t unit = (uint64_t)(lines ? c->arch->line_size :
				   c->arch->sector_size);
	struct occ_family *f = malloc(n * sizeof *f);
	struct occ_ids extra = { 0 };
	enum occ_status st = f ? OCC_OK : OCC_ERR_NOMEM;
	size_t i, j, nf = 0;

	for (i = 0; i < n && st == OCC_OK; i++) {
		const struct occ_ids *s = lines ? &ids[i].span_lines :
						  &ids[i].span_sectors;
		const struct occ_ids *r = lines ? &ids[i].rest_lines :
						  &ids[i].rest_sectors;

		if (acc[i].array != array || !counts(&acc[i], w))
			continue;
		f[nf].base = s->v;
		f[nf].n = s->n;
		f[nf++].shift = ids[i].shift / unit;
		for (j = 0; j < r->n && st == OCC_OK; j++)
			if (!occ_ids_push(&extra, r->v[j]))
				st = OCC_ERR_NOMEM;
	}
	if (st == OCC_OK)
		st = occ_union_count(f, nf, c->p.spans, extra.v, extra.n,
				     count);
	free(f);
	occ_ids_free(&extra);
	return st;
}

/* Adds array's distinct sectors (and lines, for an L1 that fetches lines)
 * to the totals. */
static enum occ_status add_array(const struct ctx *c,
				 const struct occ_kernel_access *acc,
				 const struct access_ids *ids, size_t n,
				 int array, uint64_t *load_lines)
{
	struct occ_traffic *t = c->t;
	uint64_t ld = 0, st_ = 0, all = 0, ln = 0;
	enum occ_status st;

	st = array_distinct(c, acc, ids, n, array, LOADS, 0, &ld);
	if (st == OCC_OK)
		st = array_distinct(c, acc, ids, n, array, STORES, 0, &st_);
	if (st == OCC_OK)
		st = array_distinct(c, acc, ids, n, array, BOTH, 0, &all);
	if (st == OCC_OK && t->load.l1_lines)
		st = array_distinct(c, acc, ids, n, array, LOADS, 1, &ln);
	if (st != OCC_OK)
		return st;
	if (!add_times(&t->load.distinct, ld, 1) ||
	    !add_times(&t->store.distinct, st_, 1) ||
	    !add_times(&t->footprint, all, 1) || !add_times(load_lines, ln, 1))
		return fault(t, OCC_TRAFFIC_COUNT_OVERFLOW, 0);
	return OCC_OK;
}

static int caches_loads(const struct occ_arch *a, enum occ_l1_policy p)
{
	if (p == OCC_L1_DEFAULT)
		return a->cc_major >= 7;
	return p == OCC_L1_CACHE;
}

/* What goes from L1 to L2, once the totals are in. */
static int l2_sectors(const struct occ_arch *a, struct occ_traffic *t,
		      uint64_t load_lines)
{
	uint64_t per_line = (uint64_t)(a->line_size / a->sector_size);
	struct occ_traffic_ops *ld = &t->load;

	/* Stores of different requests to one sector can reach L2 as one
	 * write (seen on sm_90: docs/traffic-validation.md). */
	t->store.l2_max = t->store.sectors;
	t->store.l2_min = t->store.distinct;
	if (!ld->l1_cached) {
		ld->l2_max = ld->l2_min = ld->sectors;
		return 1;
	}
	if (!ld->l1_lines) {
		ld->l2_max = ld->sectors;
		ld->l2_min = ld->distinct;
		return 1;
	}
	return !__builtin_mul_overflow(ld->lines, per_line, &ld->l2_max) &&
	       !__builtin_mul_overflow(load_lines, per_line, &ld->l2_min);
}

static void init(const struct occ_arch *a, const struct occ_launch *l,
		 struct occ_traffic *t)
{
	static const struct occ_traffic zero;

	*t = zero;
	t->sector_size = a->sector_size;
	t->line_size = a->line_size;
	t->load.l1_cached = caches_loads(a, l->l1);
	t->load.l1_lines = t->load.l1_cached &&
			   a->l1_load_transaction == a->line_size;
}

enum occ_status occ_traffic_compute(const struct occ_arch *arch,
				    const struct occ_launch *launch,
				    const struct occ_kernel_access *acc,
				    size_t n, struct occ_traffic *t)
{
	struct ctx c = { arch, { 0 }, t };
	struct access_ids *ids;
	enum occ_status st;
	uint64_t load_lines = 0;
	size_t i, j;

	init(arch, launch, t);
	st = check_input(arch, launch, acc, n, t);
	if (st != OCC_OK)
		return st;
	t->warps = launch->grid * ((launch->block + WARP - 1) / WARP);
	make_plan(launch, acc, n, (uint64_t)arch->line_size, &c.p);
	ids = calloc(n, sizeof *ids);
	if (!ids)
		return OCC_ERR_NOMEM;
	for (i = 0; i < n && st == OCC_OK; i++)
		st = list_access(&c, &acc[i], i, &ids[i]);
	for (i = 0; i < n && st == OCC_OK; i++) {
		for (j = 0; j < i && acc[j].array != acc[i].array; j++)
			;
		if (j == i)     /* the array's first access */
			st = add_array(&c, acc, ids, n, acc[i].array,
				       &load_lines);
	}
	if (st == OCC_OK && !l2_sectors(arch, t, load_lines))
		st = fault(t, OCC_TRAFFIC_COUNT_OVERFLOW, 0);
	for (i = 0; i < n; i++) {
		occ_ids_free(&ids[i].span_sectors);
		occ_ids_free(&ids[i].span_lines);
		occ_ids_free(&ids[i].rest_sectors);
		occ_ids_free(&ids[i].rest_lines);
	}
	free(ids);
	return st;
}
