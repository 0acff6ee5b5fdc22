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
 * listing the launch. A span that moves the addresses down (x[N - i]) is
 * the same copies counted from the last: shifted up from there.
 *
 * Addresses may run below an array's element 0 (x[i - 1]): each array's
 * addresses are moved up by whole lines, the same for all its accesses,
 * so that the lowest any can touch is at or above 0; sector and line
 * counts do not change.
 */
#include <stdlib.h>

#include "occcalc.h"
#include "periodic.h"
#include "traffic.h"

#define WARP 32
#define MAX_GROUP 32

/* The launch cut into repeating units of `unit` threads (a block, or a
 * warp of a thread count), `units` of them, then `tail` threads more;
 * spans of `span` units repeat every figure, shifted by whole lines. */
struct plan {
	uint64_t unit, units, tail;
	uint64_t span, spans;
	int blocks;              /* units are blocks (else warps of block 0) */
	uint64_t dim[3];         /* the block's shape */
};

/* One access's unit numbers: of the first span (repeated `spans` times)
 * and of the rest of the launch, in sectors and in lines. */
struct access_ids {
	struct occ_ids span_sectors, span_lines, rest_sectors, rest_lines;
	int64_t shift;           /* bytes between spans, either way */
};

struct ctx {
	const struct occ_arch *arch;
	const struct occ_launch *l;
	struct plan p;
	struct occ_traffic *t;
	uint64_t *bias;          /* per access: its array's, in bytes */
	struct occ_ids_budget budget;   /* every list's, together */
};

/* The sector and line numbers listed at once, every access's together
 * (128 MB): a span of up to 4096 blocks of 32 warps whose lanes touch
 * millions of distinct sectors is refused (OCC_TRAFFIC_SPAN_LISTED)
 * rather than held. Repeats are shed as they come (periodic.c), so
 * that only distinct numbers count. */
#define IDS_MAX ((size_t)1 << 24)

static int is_pow2(uint64_t x)
{
	return x && !(x & (x - 1));
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

enum occ_status occ_traffic_fault(struct occ_traffic *t,
				  enum occ_traffic_fault f, size_t i)
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
		return occ_traffic_fault(t, OCC_TRAFFIC_NO_THREADS, 0);
	if (l->grid > 1 && l->block > (uint64_t)arch->max_threads_per_block)
		return occ_traffic_fault(t, OCC_TRAFFIC_BLOCK_TOO_LARGE, 0);
	if (__builtin_mul_overflow(l->grid, l->block, &t->threads))
		return occ_traffic_fault(t, OCC_TRAFFIC_THREADS_OVERFLOW, 0);
	if (l->block_x && (l->block % ((uint64_t)l->block_x *
				       (l->block_y ? l->block_y : 1)) != 0))
		return occ_traffic_fault(t, OCC_TRAFFIC_BAD_SHAPE, 0);
	if (l->grid % ((uint64_t)(l->grid_y ? l->grid_y : 1) *
		       (l->grid_z ? l->grid_z : 1)) != 0)
		return occ_traffic_fault(t, OCC_TRAFFIC_BAD_SHAPE, 0);
	for (i = 0; i < n; i++)
		if (!access_valid(&acc[i]))
			return occ_traffic_fault(t, OCC_TRAFFIC_BAD_ACCESS, i);
	if (!arch->sector_size || !arch->line_size || arch->sector_size < 16 ||
	    arch->line_size % arch->sector_size)
		return OCC_ERR_UNKNOWN_ARCH;
	return OCC_OK;
}

static uint64_t mod_line(__int128 x, uint64_t line)
{
	__int128 m = x % (__int128)line;

	return (uint64_t)(m < 0 ? m + (__int128)line : m);
}

/* Elements the index moves over c units (c x unit a whole number of
 * groups): the block's factor per block, or threadIdx.x's per thread of
 * a thread count, and the thread index's term. */
static __int128 units_step(const struct occ_kernel_access *k,
			   const struct plan *p, uint64_t c)
{
	__int128 per = p->blocks ? k->bid : (__int128)k->tid[0] * p->unit;

	return per * c + (__int128)k->access.stride * (c * p->unit / k->group);
}

/* Units of a span for one access: enough that the index advances by
 * whole groups and the address by whole lines. Powers of two. */
static uint64_t access_span(const struct occ_kernel_access *k,
			    const struct plan *p, uint64_t line)
{
	uint64_t g = k->group, c0 = g / occ_gcd(g, p->unit), moved;

	/* bytes one span of c0 units moves the addresses, modulo a line */
	moved = mod_line(units_step(k, p, c0) % (__int128)line *
			 k->access.elem_size, line);
	return c0 * (line / occ_gcd(moved, line));
}

static void make_plan(const struct occ_launch *l,
		      const struct occ_kernel_access *acc, size_t n,
		      uint64_t line, struct plan *p)
{
	size_t i;

	p->dim[0] = l->block_x ? l->block_x : l->block;
	p->dim[1] = l->block_x && l->block_y ? l->block_y : 1;
	p->dim[2] = l->block / p->dim[0] / p->dim[1];
	p->blocks = l->grid > 1 || l->block_x;
	if (!p->blocks) {     /* a thread count: warp after warp */
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
		uint64_t s = access_span(&acc[i], p, line);

		p->span = p->span / occ_gcd(p->span, s) * s;
	}
	p->spans = p->units / p->span;
}

/* The element thread t of unit u touches (it fits: access_bounds). */
static __int128 element(const struct occ_kernel_access *k,
			const struct plan *p, uint64_t u, uint64_t t)
{
	/* A thread count's units are warps of its one block: b is 0. */
	uint64_t b = p->blocks ? u : 0, tb = p->blocks ? t : u * p->unit + t;
	uint64_t i = b * p->unit + (tb ^ k->access.lane_xor);
	__int128 e;

	e = (__int128)k->access.offset +
	    (__int128)(i / k->group) * k->access.stride +
	    (__int128)k->tid[0] * (tb % p->dim[0]) +
	    (__int128)k->tid[1] * (tb / p->dim[0] % p->dim[1]) +
	    (__int128)k->tid[2] * (tb / p->dim[0] / p->dim[1]) +
	    (__int128)k->bid * b;
	return e;
}

/* Threads in the unit at position u (units, then the tail). */
static uint64_t unit_threads(const struct plan *p, uint64_t u)
{
	return u < p->units ? p->unit : p->tail;
}

int occ_lane_active(const struct occ_kernel_access *k, uint64_t t,
		    uint64_t threads)
{
	return t < threads && (int)(t % WARP) < k->access.threads;
}

/* The lowest and highest element any thread can touch, bounded term by
 * term (each term's extremes). */
static void access_bounds(const struct occ_kernel_access *k,
			  const struct occ_launch *l, const struct plan *p,
			  __int128 *lo, __int128 *hi)
{
	uint64_t last_t = k->access.lane_xor ?
			  (l->block + WARP - 1) / WARP * WARP - 1 : l->block - 1;
	__int128 top[5], f[5];
	int j;

	top[0] = ((__int128)(l->grid - 1) * l->block + last_t) / k->group;
	top[1] = p->dim[0] - 1;
	top[2] = p->dim[1] - 1;
	top[3] = p->dim[2] - 1;
	top[4] = (__int128)l->grid - 1;
	f[0] = k->access.stride;
	f[1] = k->tid[0];
	f[2] = k->tid[1];
	f[3] = k->tid[2];
	f[4] = k->bid;
	*lo = *hi = k->access.offset;
	for (j = 0; j < 5; j++) {
		if (f[j] < 0)
			*lo += f[j] * top[j];
		else
			*hi += f[j] * top[j];
	}
}

/* Each array's bias: the whole lines that lift its lowest address to 0
 * or above; ADDRESS_OVERFLOW when its highest does not then fit. */
static enum occ_status make_bias(struct ctx *c,
				 const struct occ_kernel_access *acc,
				 size_t n)
{
	__int128 lo, line = c->arch->line_size, low, bias;
	__int128 (*bytes)[2] = malloc(n * sizeof *bytes);  /* lowest, end */
	enum occ_status st = bytes ? OCC_OK : OCC_ERR_NOMEM;
	size_t i, j;

	for (i = 0; bytes && i < n; i++) {
		access_bounds(&acc[i], c->l, &c->p, &lo, &bytes[i][1]);
		bytes[i][0] = lo * acc[i].access.elem_size;
		bytes[i][1] = (bytes[i][1] + 1) * acc[i].access.elem_size;
	}
	for (i = 0; st == OCC_OK && i < n; i++) {
		low = 0;
		for (j = 0; j < n; j++)
			if (acc[j].array == acc[i].array && bytes[j][0] < low)
				low = bytes[j][0];
		bias = (-low + line - 1) / line * line;
		/* Both ways alike: a byte offset below -(2^64 - 1) no
		 * more fits 64 bits than one above 2^64 - 1. */
		if (bytes[i][1] + bias > (__int128)UINT64_MAX ||
		    bytes[i][0] < -(__int128)UINT64_MAX)
			st = occ_traffic_fault(c->t, OCC_TRAFFIC_ADDRESS_OVERFLOW, i);
		else
			c->bias[i] = (uint64_t)bias;
	}
	free(bytes);
	return st;
}

/* Distinct units of `unit` bytes the lanes touch, added to ids (if
 * any). */
static int warp_units(const uint64_t *addr, int n, uint64_t size,
		      uint64_t unit, struct occ_ids *ids, uint64_t *count)
{
	uint64_t u[2 * WARP];
	int i, k = occ_lane_units(addr, n, size, unit, u);

	*count = (uint64_t)k;
	for (i = 0; ids && i < k; i++)
		if (!occ_ids_push(ids, u[i]))
			return 0;
	return 1;
}

int occ_warp_cost(const struct occ_arch *arch, uint64_t *addr, int lanes,
		  uint64_t size, struct occ_ids *sectors, struct occ_ids *lines,
		  struct warp_cost *cost)
{
	if (!warp_units(addr, lanes, size, (uint64_t)arch->sector_size,
			sectors, &cost->sectors) ||
	    !warp_units(addr, lanes, size, (uint64_t)arch->line_size,
			lines, &cost->lines))
		return 0;
	cost->requested = occ_lane_bytes(addr, lanes, size);
	cost->thread_bytes = (uint64_t)lanes * size;
	return 1;
}

/* One warp: lanes 32 w to 32 w + 31 of unit u, of n threads, its
 * addresses lifted by bias. Its sectors and lines go to the id lists. */
static int warp(const struct ctx *c, const struct occ_kernel_access *k,
		uint64_t bias, uint64_t u, uint64_t n, uint64_t w,
		struct occ_ids *sectors, struct occ_ids *lines,
		struct warp_cost *cost)
{
	uint64_t addr[WARP], size = (uint64_t)k->access.elem_size;
	int lanes = 0;
	uint64_t t;

	for (t = w * WARP; t < (w + 1) * WARP; t++)
		if (occ_lane_active(k, t, n))
			addr[lanes++] = (uint64_t)(element(k, &c->p, u, t) *
						   k->access.elem_size + bias);
	return occ_warp_cost(c->arch, addr, lanes, size, sectors, lines, cost);
}

int occ_add_cost(struct occ_traffic_ops *o, const struct warp_cost *w,
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
				  uint64_t bias, uint64_t from, uint64_t to, uint64_t times,
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

			if (!warp(c, k, bias, u, n, w, sectors, lines, &cost))
				return OCC_ERR_NOMEM;
			if (!occ_add_cost(o, &cost, times))
				return occ_traffic_fault(c->t, OCC_TRAFFIC_COUNT_OVERFLOW,
					     0);
		}
	}
	return OCC_OK;
}

static void lower(struct occ_ids *ids, uint64_t by)
{
	size_t j;

	for (j = 0; j < ids->n; j++)
		ids->v[j] -= by;
}

/* Spans that move down by `down` bytes: the last span's units, moved up
 * span after span, are the same copies. */
static void reverse_span(const struct ctx *c, struct access_ids *ids,
			 uint64_t down)
{
	uint64_t copies = c->p.spans - 1;

	lower(&ids->span_sectors,
	      copies * (down / (uint64_t)c->arch->sector_size));
	lower(&ids->span_lines, copies * (down / (uint64_t)c->arch->line_size));
	ids->shift = (int64_t)down;
}

static enum occ_status list_access(const struct ctx *c,
				   const struct occ_kernel_access *k,
				   size_t i, struct access_ids *ids)
{
	const struct plan *p = &c->p;
	uint64_t end = p->units + (p->tail ? 1 : 0), done = p->spans * p->span;
	__int128 step;
	enum occ_status st = OCC_OK;

	if (p->spans)
		st = list_units(c, k, c->bias[i], 0, p->span, p->spans,
				&ids->span_sectors, &ids->span_lines);
	if (st == OCC_OK)
		st = list_units(c, k, c->bias[i], done, end, 1,
				&ids->rest_sectors, &ids->rest_lines);
	occ_ids_unique(&ids->span_sectors);
	occ_ids_unique(&ids->span_lines);
	occ_ids_unique(&ids->rest_sectors);
	occ_ids_unique(&ids->rest_lines);
	/* Spans exist up to the last, so the shift is within the bounds'
	 * 64 bits when there are two. */
	ids->shift = 0;
	step = units_step(k, p, p->span) * k->access.elem_size;
	if (st == OCC_OK && p->spans > 1 &&
	    (step > INT64_MAX || step < -INT64_MAX))
		return occ_traffic_fault(c->t, OCC_TRAFFIC_ADDRESS_OVERFLOW, i);
	if (st == OCC_OK && p->spans > 1 && step < 0)
		reverse_span(c, ids, (uint64_t)-step);
	else if (p->spans > 1)
		ids->shift = (int64_t)step;
	return st;
}

/* Distinct sectors (or lines) of one array over the accesses of a kind. */
static enum occ_status array_distinct(struct ctx *c,
				      const struct occ_kernel_access *acc,
				      const struct access_ids *ids, size_t n,
				      int array, enum occ_which w, int lines,
				      uint64_t *count)
{
	uint64_t unit = (uint64_t)(lines ? c->arch->line_size :
				   c->arch->sector_size);
	struct occ_family *f = malloc(n * sizeof *f);
	struct occ_ids extra = { NULL, 0, 0, &c->budget };
	enum occ_status st = f ? OCC_OK : OCC_ERR_NOMEM;
	size_t i, j, nf = 0;

	for (i = 0; i < n && st == OCC_OK; i++) {
		const struct occ_ids *s = lines ? &ids[i].span_lines :
						  &ids[i].span_sectors;
		const struct occ_ids *r = lines ? &ids[i].rest_lines :
						  &ids[i].rest_sectors;

		if (acc[i].array != array || !occ_counts(&acc[i], w))
			continue;
		f[nf].base = s->v;
		f[nf].n = s->n;
		f[nf++].shift = (uint64_t)ids[i].shift / unit;
		for (j = 0; j < r->n && st == OCC_OK; j++)
			if (!occ_ids_push(&extra, r->v[j]))
				st = OCC_ERR_NOMEM;
	}
	if (st == OCC_OK)
		st = occ_union_count(f, nf, c->p.spans, extra.v, extra.n,
				     &c->budget, count);
	free(f);
	occ_ids_free(&extra);
	return st;
}

/* Adds array's distinct sectors (and lines, for an L1 that fetches lines)
 * to the totals. */
static enum occ_status add_array(struct ctx *c,
				 const struct occ_kernel_access *acc,
				 const struct access_ids *ids, size_t n,
				 int array, uint64_t *load_lines)
{
	struct occ_traffic *t = c->t;
	uint64_t ld = 0, st_ = 0, all = 0, ln = 0;
	enum occ_status st;

	st = array_distinct(c, acc, ids, n, array, OCC_LOADS, 0, &ld);
	if (st == OCC_OK)
		st = array_distinct(c, acc, ids, n, array, OCC_STORES, 0, &st_);
	if (st == OCC_OK)
		st = array_distinct(c, acc, ids, n, array, OCC_BOTH, 0, &all);
	if (st == OCC_OK && t->load.l1_lines)
		st = array_distinct(c, acc, ids, n, array, OCC_LOADS, 1, &ln);
	if (st != OCC_OK)
		return st;
	if (!add_times(&t->load.distinct, ld, 1) ||
	    !add_times(&t->store.distinct, st_, 1) ||
	    !add_times(&t->footprint, all, 1) || !add_times(load_lines, ln, 1))
		return occ_traffic_fault(t, OCC_TRAFFIC_COUNT_OVERFLOW, 0);
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
	struct ctx c = { arch, launch, { 0 }, t, NULL, { 0, IDS_MAX, 0 } };
	struct access_ids *ids;
	enum occ_status st;
	uint64_t load_lines = 0;
	size_t i, j;

	init(arch, launch, t);
	st = check_input(arch, launch, acc, n, t);
	if (st != OCC_OK)
		return st;
	t->warps = launch->grid * ((launch->block + WARP - 1) / WARP);
	if (occ_traffic_is_tiled(launch, acc, n)) {
		st = occ_traffic_tiled(arch, launch, acc, n, t, &load_lines);
		if (st == OCC_OK && !l2_sectors(arch, t, load_lines))
			st = occ_traffic_fault(t, OCC_TRAFFIC_COUNT_OVERFLOW, 0);
		return st;
	}
	make_plan(launch, acc, n, (uint64_t)arch->line_size, &c.p);
	ids = calloc(n, sizeof *ids);
	c.bias = calloc(n, sizeof *c.bias);
	for (i = 0; ids && i < n; i++)
		ids[i].span_sectors.budget = ids[i].span_lines.budget =
		ids[i].rest_sectors.budget = ids[i].rest_lines.budget =
			&c.budget;
	st = ids && c.bias ? make_bias(&c, acc, n) : OCC_ERR_NOMEM;
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
		st = occ_traffic_fault(t, OCC_TRAFFIC_COUNT_OVERFLOW, 0);
	if (st == OCC_ERR_NOMEM && c.budget.over) {
		st = OCC_ERR_UNSUPPORTED;
		t->fault = OCC_TRAFFIC_SPAN_LISTED;
	}
	for (i = 0; ids && i < n; i++) {
		occ_ids_free(&ids[i].span_sectors);
		occ_ids_free(&ids[i].span_lines);
		occ_ids_free(&ids[i].rest_sectors);
		occ_ids_free(&ids[i].rest_lines);
	}
	free(ids);
	free(c.bias);
	return st;
}
