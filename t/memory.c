/*
 * memory.c - the global-memory calculators, on the published worked
 * cases: the Kepler L1 example (L1-cached and L2-only loads, stores), the
 * coalescing study (add1-add5 on a recent GPU), and L2 persistence.
 */
#include <stdlib.h>

#include "occcalc.h"
#include "arch.h"
#include "tap.h"


static struct occ_access_result access(int major, int minor,
				       enum occ_access_op op, int elem,
				       uint64_t stride, uint64_t offset,
				       int threads, unsigned lane_xor)
{
	struct occ_access acc = { op, elem, stride, offset, threads, lane_xor };
	struct occ_access_result r;

	if (occ_access_compute(arch(major, minor), &acc, &r) != OCC_OK)
		r.sectors = -1;
	return r;
}

/* Efficiency in hundredths of a percent, as the examples print it. */
static long pct100(uint64_t requested, uint64_t moved)
{
	return (long)((requested * 20000 / moved + 1) / 2);
}

#define LD OCC_ACCESS_LOAD
#define ST OCC_ACCESS_STORE

static void kepler_l1_example(void)
{
	struct occ_access_result r;

	r = access(3, 7, LD, 4, 1, 0, 32, 0);
	tap_ok(r.lines == 1 && r.l1_moved == 128 && r.requested == 128,
	       "000: a warp loading 128 aligned bytes, L1-cached: 1 "
	       "transaction, 100 %%");
	r = access(3, 7, LD, 4, 1, 0, 1, 0);
	tap_ok(r.l1_lines && r.l1_moved == 128 &&
	       r.requested * 100000 / r.l1_moved == 3125,
	       "000: one thread's 4 bytes, L1-cached: 128 bytes moved, 3.125 %% "
	       "(nvprof: 3.12 %%)");
	tap_ok(r.sectors == 1 && pct100(r.requested, r.moved) == 1250,
	       "000: the same, L2 only: one 32-byte sector, 12.5 %%");
	r = access(3, 7, LD, 4, 1, 0, 9, 0);
	tap_ok(r.sectors == 2 && pct100(r.requested, r.moved) == 5625,
	       "000: 9 threads, 36 bytes, L2 only: 2 sectors, 56.25 %%");
	r = access(3, 7, LD, 4, 1, 0, 17, 0);
	tap_ok(r.sectors == 3 && pct100(r.requested, r.moved) == 7083,
	       "000: 17 threads, 68 bytes, L2 only: 3 sectors, 70.83 %%");
	r = access(3, 7, LD, 4, 1, 0, 25, 0);
	tap_ok(r.sectors == 4 && r.requested * 100000 / r.moved == 78125,
	       "000: 25 threads, 100 bytes, L2 only: 4 sectors, 78.125 %% "
	       "(nvprof: 78.12 %%)");
	r = access(3, 7, LD, 4, 1, 1, 32, 0);
	tap_ok(r.sectors == 5 && r.lines == 2 &&
	       pct100(r.requested, r.moved) == 8000,
	       "000: B[x] = A[x+1], L2 only: 2 transactions, 5 sectors, 80 %%");
	r = access(3, 7, ST, 4, 1, 1, 32, 0);
	tap_ok(r.sectors == 5 && r.lines == 2 && !r.l1_lines &&
	       pct100(r.requested, r.moved) == 8000,
	       "000: B[x+1] = A[x], stores (never L1-cached): 2 transactions, "
	       "5 sectors, 80 %%");
	r = access(3, 7, ST, 4, 1, 0, 24, 0);
	tap_ok(r.sectors == 3 && r.lines == 1 &&
	       pct100(r.requested, r.moved) == 10000,
	       "000: 24 threads store 96 aligned bytes: 1 transaction, 100 %%");
}

static void kepler_two_accesses(void)
{
	struct occ_access_result a = access(3, 7, LD, 4, 0, 3, 32, 0);
	struct occ_access_result b = access(3, 7, LD, 4, 1, 0, 32, 0);

	tap_ok(a.sectors == 1 && a.requested == 4 && b.sectors == 4 &&
	       pct100(a.requested + b.requested, a.moved + b.moved) == 8250,
	       "000: C[x] = A[3] + B[x], L2 only: 1 + 4 sectors, 132 of 160 "
	       "bytes, 82.5 %%");
}

static void coalescing_study_hopper(void)
{
	struct occ_access_result r;

	r = access(9, 0, LD, 4, 1, 0, 32, 0);
	tap_ok(r.sectors == 4 && pct100(r.requested, r.moved) == 10000,
	       "003 add1: x[idx]: 4 sectors per request, 100 %%");
	r = access(9, 0, LD, 4, 1, 1, 32, 0);
	tap_ok(r.sectors == 5 && pct100(r.requested, r.moved) == 8000,
	       "003 add2: x[idx + 1]: 5 sectors per request, 80 %%");
	r = access(9, 0, LD, 4, 1, 0, 32, 1);
	tap_ok(r.sectors == 4 && pct100(r.requested, r.moved) == 10000,
	       "003 add3: x[tid ^ 1]: 4 sectors, 100 %% (order does not "
	       "matter)");
	r = access(9, 0, LD, 4, 0, 0, 32, 0);
	tap_ok(r.sectors == 1 && r.lines == 1 &&
	       pct100(r.requested, r.moved) == 1250 &&
	       r.requested * 100000 / ((uint64_t)r.lines * 128) == 3125,
	       "003 add4: every lane the same float: 1 sector, 12.5 %%; 3.125 %% "
	       "of its 128-byte line");
	r = access(9, 0, LD, 4, 4, 0, 32, 0);
	tap_ok(r.sectors == 16 && r.lines == 4 &&
	       pct100(r.requested, r.moved) == 2500,
	       "003 add5: x[idx * 4]: 16 sectors per request, 25 %%");
	tap_ok(!r.l1_lines && r.l1_moved == r.moved,
	       "sm_90's L1 is sectored: an L1-cached load moves sectors");
}

static void wide_and_narrow(void)
{
	struct occ_access_result r;

	r = access(9, 0, LD, 16, 1, 0, 32, 0);
	tap_ok(r.sectors == 16 && r.lines == 4 && r.requested == 512,
	       "float4 loads of a warp: 512 bytes, 16 sectors, 4 lines");
	r = access(9, 0, LD, 1, 1, 0, 32, 0);
	tap_ok(r.sectors == 1 && r.requested == 32,
	       "bytes of a warp: 32 bytes, 1 sector");
	r = access(9, 0, LD, 8, 1, 3, 32, 0);
	tap_ok(r.sectors == 9 && r.lines == 3,
	       "doubles 24 bytes off the line: 9 sectors over 3 lines");
	r = access(9, 0, LD, 4, 1024, 0, 32, 0);
	tap_ok(r.sectors == 32 && r.lines == 32 &&
	       pct100(r.requested, r.moved) == 1250,
	       "a stride of 4 KB: a sector per lane, 12.5 %%");
}

static void bad_access(void)
{
	struct occ_access acc = { LD, 3, 1, 0, 32, 0 };
	struct occ_access_result r;
	const struct occ_arch *a = arch(9, 0);

	tap_ok(occ_access_compute(a, &acc, &r) == OCC_ERR_INVALID_INPUT,
	       "a 3-byte element is refused");
	acc.elem_size = 4;
	acc.threads = 33;
	tap_ok(occ_access_compute(a, &acc, &r) == OCC_ERR_INVALID_INPUT,
	       "33 threads in a warp are refused");
	acc.threads = 0;
	tap_ok(occ_access_compute(a, &acc, &r) == OCC_ERR_INVALID_INPUT,
	       "no active thread is refused");
	acc.threads = 32;
	acc.stride = UINT64_MAX / 8;
	tap_ok(occ_access_compute(a, &acc, &r) == OCC_ERR_INVALID_INPUT,
	       "a stride whose addresses overflow 64 bits is refused");
}

static void l2_plans(void)
{
	/* The H100's figures (docs/device-query-h100.txt). */
	struct occ_l2 h100 = { 52428800, 32768000, 134217728 };
	struct occ_l2_plan p;
	enum occ_status st;

	tap_ok(occ_l2_plan(&h100, 16 << 20, 1, &p) == OCC_OK &&
	       p.set_aside == 16 << 20 && p.window == 16 << 20 &&
	       p.hit_ratio_e4 == 10000,
	       "16 MiB re-read fits the set-aside: set aside 16 MiB, hitRatio 1");
	st = occ_l2_plan(&h100, 64 << 20, 1, &p);
	tap_ok(st == OCC_OK && p.set_aside == 32768000 && p.hit_ratio_e4 == 4882 &&
	       p.persisting <= 32768000,
	       "64 MiB: the whole set-aside, hitRatio 0.4882 so that what "
	       "persists fits it (got %d)", p.hit_ratio_e4);
	st = occ_l2_plan(&h100, 16 << 20, 2, &p);
	tap_ok(st == OCC_OK && p.set_aside == 32768000 && p.hit_ratio_e4 == 9765 &&
	       2 * p.persisting <= p.set_aside,
	       "two concurrent streams of 16 MiB share the set-aside: hitRatio "
	       "0.9765 each (got %d)", p.hit_ratio_e4);
	tap_ok(occ_l2_plan(&h100, 256 << 20, 1, &p) == OCC_OK &&
	       p.window == 134217728 && p.uncovered == 128 << 20,
	       "256 MiB: the window stops at accessPolicyMaxWindowSize, 128 MiB "
	       "uncovered");
	h100.persisting_max = 0;
	tap_ok(occ_l2_plan(&h100, 1 << 20, 1, &p) == OCC_ERR_UNSUPPORTED,
	       "no set-aside on the device: not supported");
	h100.persisting_max = 32768000;
	tap_ok(occ_l2_plan(&h100, 0, 1, &p) == OCC_ERR_INVALID_INPUT &&
	       occ_l2_plan(&h100, 1, 0, &p) == OCC_ERR_INVALID_INPUT,
	       "no data, or no stream, is refused");
}

int main(void)
{
	load_tables();
	kepler_l1_example();
	kepler_two_accesses();
	coalescing_study_hopper();
	wide_and_narrow();
	bad_access();
	l2_plans();
	printf("1..%d\n", tap_n);
	occ_tables_free(tables);
	return tap_done();
}
