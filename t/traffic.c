/*
 * traffic.c - a launch's memory traffic: the coalescing study's add1-add5
 * (8,388,608 threads in blocks of 64 on sm_90), the Kepler transaction
 * counts of the L1/L2 granularity study, the C-like access text, bad
 * input, and every total against a brute-force count of small launches.
 */
#include <stdlib.h>
#include <string.h>

#include "occcalc.h"
#include "arch.h"
#include "tap.h"
#include "brute.h"

/* Runs text over grid x block; elem 0 keeps 4-byte elements. */
static enum occ_status run(int major, int minor, const char *text,
			   uint64_t grid, uint64_t block,
			   enum occ_l1_policy l1, struct occ_traffic *t)
{
	struct occ_kernel_text k;
	struct occ_launch l = { grid, block, l1, 0, 0, 0, 0 };
	size_t where;
	enum occ_status st = occ_kernel_parse(text, &k, &where);

	if (st != OCC_OK) {
		tap_diag("'%s' does not parse at %zu", text, where);
		return st;
	}
	return occ_traffic_compute(arch(major, minor), &l, k.acc, k.n, t);
}

#define ADD_GRID 131072   /* 32M / 256 blocks of 64: 8,388,608 threads */

static struct occ_traffic add(const char *text)
{
	struct occ_traffic t;

	if (run(9, 0, text, ADD_GRID, 64, OCC_L1_DEFAULT, &t) != OCC_OK)
		memset(&t, 0xff, sizeof t);
	return t;
}

static void add1(void)
{
	struct occ_traffic t = add("z[i] = x[i] + y[i]");

	tap_ok(t.threads == 8388608 && t.warps == 262144,
	       "add1: 8,388,608 threads in blocks of 64 are 262,144 warps");
	tap_ok(t.load.instructions + t.store.instructions == 786432,
	       "add1: 786,432 global instructions (3 per warp)");
	tap_ok(t.load.requests == 524288 && t.store.requests == 262144,
	       "add1: 524,288 load and 262,144 store requests");
	tap_ok(t.load.sectors == 2097152 && t.store.sectors == 1048576,
	       "add1: 2,097,152 load and 1,048,576 store sectors, 4 per "
	       "request");
	tap_ok(t.load.l2_max * 32 == 67108864 && t.load.l2_min == t.load.l2_max &&
	       t.store.l2_max * 32 == 33554432,
	       "add1: 67,108,864 and 33,554,432 bytes from L1 to L2, no L1 "
	       "hit possible");
	tap_ok(t.load.distinct * 32 == 67108864 &&
	       t.store.distinct * 32 == 33554432,
	       "add1: device memory reads 67,108,864 and writes 33,554,432 "
	       "bytes: every sector once");
}

static void add2(void)
{
	struct occ_traffic t = add("z[i + 1] = x[i + 1] + y[i + 1]");

	tap_ok(t.load.sectors == 524288 * 5 && t.store.sectors == 262144 * 5,
	       "add2 (misaligned by one float): 5 sectors per request, 160 B "
	       "for 128 B");
	tap_ok(t.load.distinct == 2097154 && t.load.l2_min == 2097154 &&
	       t.load.l2_max == 2621440,
	       "add2: 2,097,154 distinct load sectors; L1 to L2 between them "
	       "and 2,621,440 as neighbours share a sector");
	tap_ok(t.load.requested == 524288 * 128 && t.load.thread_bytes ==
	       524288 * 128, "add2: 128 bytes asked per request");
	tap_ok(t.store.l2_min == 1048577 && t.store.l2_max == 1310720,
	       "add2: L2 writes between 1,048,577 distinct sectors (neighbours' "
	       "stores to a shared sector merge) and 1,310,720");
}

static void add3(void)
{
	struct occ_traffic t = add("z[(i^1)] = x[(i^1)] + y[(i^1)]");
	struct occ_traffic u = add("z[i^1] = x[i^1] + y[i^1]");

	tap_ok(t.load.sectors == 2097152 && t.store.sectors == 1048576 &&
	       t.load.distinct == 2097152 && u.load.sectors == t.load.sectors,
	       "add3 (lanes swapped in pairs): the same 4 sectors per request "
	       "as add1");
}

static void add4(void)
{
	struct occ_traffic t = add("z[i/32] = x[i/32] + y[i/32]");

	tap_ok(t.load.requests == 524288 && t.load.sectors == 524288 &&
	       t.store.sectors == 262144,
	       "add4 (a warp's lanes share one float): 1 sector per request");
	tap_ok(t.load.requested == 524288 * 4 && t.load.thread_bytes ==
	       524288 * 128, "add4: 4 distinct bytes of the 128 the lanes ask: "
	       "12.5 %% of a sector");
	tap_ok(t.load.distinct * 32 == 2097152 && t.store.distinct * 32 == 1048576,
	       "add4: device memory reads at least 2,097,152 bytes (2.10 MB), "
	       "writes 1,048,576");
	tap_ok(t.load.l2_min == 65536 && t.load.l2_max == 524288,
	       "add4: L1 to L2 between 65,536 sectors (8 warps share one) and "
	       "524,288");
}

static void add5(void)
{
	struct occ_traffic t = add("z[4*i] = x[4*i] + y[4*i]");

	tap_ok(t.load.sectors == 8388608 && t.store.sectors == 4194304,
	       "add5 (stride 4): 16 sectors per request");
	tap_ok(t.load.l2_max * 32 == 268435456 && t.store.l2_max * 32 ==
	       134217728, "add5: 268,435,456 and 134,217,728 bytes from L1 to "
	       "L2 (about 268 MB and 134 MB)");
	tap_ok(t.load.requested * 4 == t.load.sectors * 32,
	       "add5: a quarter of the bytes moved are asked for (25 %%)");
}

/* Kepler's gld/gst_efficiency: asked-for bytes over bytes moved. */
static long pct100(uint64_t requested, uint64_t moved)
{
	return (long)((requested * 20000 / moved + 1) / 2);
}

static struct occ_traffic kepler(const char *text, uint64_t threads,
				 enum occ_l1_policy l1)
{
	struct occ_traffic t;

	if (run(3, 7, text, 1, threads, l1, &t) != OCC_OK)
		memset(&t, 0xff, sizeof t);
	return t;
}

#define CA OCC_L1_CACHE
#define CG OCC_L1_BYPASS

static void kepler_loads(void)
{
	struct occ_traffic t;

	t = kepler("B[i] = A[i]", 32, CA);
	tap_ok(t.load.lines == 1 && pct100(t.load.requested,
					   t.load.l2_max * 32) == 10000,
	       "Kepler, L1-cached, a warp loads 128 aligned bytes: 1 "
	       "transaction, 100 %%");
	t = kepler("B[i] = A[i]", 1, CA);
	tap_ok(t.load.lines == 1 && t.load.l2_max * 32 == 128 &&
	       t.load.requested * 100000 / 128 == 3125,
	       "Kepler, L1-cached, one thread's 4 bytes: a 128-byte "
	       "transaction, 3.12 %%");
	t = kepler("B[i] = A[i]", 1, CG);
	tap_ok(t.load.lines == 1 && pct100(t.load.requested,
					   t.load.l2_max * 32) == 1250,
	       "Kepler, L2 only, one thread: 1 transaction of one sector, "
	       "12.5 %%");
	t = kepler("B[i] = A[i]", 9, CG);
	tap_ok(t.load.lines == 1 && t.load.sectors == 2 &&
	       pct100(t.load.requested, t.load.l2_max * 32) == 5625,
	       "Kepler, L2 only, 9 threads (36 bytes): 1 transaction of 2 "
	       "sectors, 56.25 %%");
	t = kepler("B[i] = A[i]", 17, CG);
	tap_ok(t.load.lines == 1 && t.load.sectors == 3 &&
	       pct100(t.load.requested, t.load.l2_max * 32) == 7083,
	       "Kepler, L2 only, 17 threads (68 bytes): 1 transaction of 3 "
	       "sectors, 70.83 %%");
	t = kepler("B[i] = A[i]", 25, CG);
	tap_ok(t.load.lines == 1 && t.load.sectors == 4 &&
	       t.load.requested * 100000 / (t.load.l2_max * 32) == 78125,
	       "Kepler, L2 only, 25 threads (100 bytes): 1 transaction of 4 "
	       "sectors, 78.12 %%");
	t = kepler("B[i] = A[i + 1]", 32, CG);
	tap_ok(t.load.lines == 2 && t.load.sectors == 5 &&
	       pct100(t.load.requested, t.load.l2_max * 32) == 8000,
	       "Kepler, L2 only, B[x] = A[x+1]: 2 transactions, 5 sectors, "
	       "80 %%");
}

static void kepler_stores(void)
{
	struct occ_traffic t;

	t = kepler("B[i + 1] = A[i]", 32, CA);
	tap_ok(t.store.lines == 2 && t.store.sectors == 5 &&
	       pct100(t.store.requested, t.store.l2_max * 32) == 8000 &&
	       !t.store.l1_cached,
	       "Kepler, B[x+1] = A[x]: stores skip L1, 2 transactions, 80 %%");
	t = kepler("B[i] = A[i]", 24, CA);
	tap_ok(t.store.lines == 1 && pct100(t.store.requested,
					    t.store.l2_max * 32) == 10000,
	       "Kepler, 24 threads store 96 aligned bytes: 1 transaction, "
	       "100 %%");
	t = kepler("C[i] = A[3] + B[i]", 32, CG);
	tap_ok(t.load.sectors == 5 && t.load.requested == 132 &&
	       pct100(t.load.requested, t.load.l2_max * 32) == 8250,
	       "Kepler, C[x] = A[3] + B[x], L2 only: 1 + 4 sectors, 132 of "
	       "160 bytes, 82.5 %%");
}

static void text(void)
{
	struct occ_kernel_text k;
	size_t at;

	tap_ok(occ_kernel_parse("z[i] = x[i] + y[i]", &k, &at) == OCC_OK &&
	       k.n == 3 && k.n_arrays == 3 &&
	       k.acc[0].access.op == OCC_ACCESS_STORE &&
	       k.acc[1].access.op == OCC_ACCESS_LOAD &&
	       k.acc[2].access.stride == 1 && k.acc[2].group == 1,
	       "text: z[i] = x[i] + y[i] is a store and two loads, stride 1");
	tap_ok(occ_kernel_parse("a[2*i + 3] += a[(i^5)/8*3] ; b[7]", &k, &at) ==
	       OCC_OK && k.n == 4 && k.n_arrays == 2 &&
	       k.acc[0].access.op == OCC_ACCESS_STORE &&
	       k.acc[0].access.stride == 2 && k.acc[0].access.offset == 3 &&
	       k.acc[1].access.op == OCC_ACCESS_LOAD &&
	       k.acc[1].access.stride == 2 && k.acc[1].access.offset == 3 &&
	       k.acc[2].access.lane_xor == 5 && k.acc[2].group == 8 &&
	       k.acc[2].access.stride == 3 && k.acc[2].array == 0 &&
	       k.acc[2].access.op == OCC_ACCESS_LOAD && k.acc[3].array == 1 &&
	       k.acc[3].access.stride == 0 && k.acc[3].access.offset == 7,
	       "text: a compound assignment loads and stores; ';' separates; "
	       "(i^X)/G*K and constants");
	tap_ok(occ_kernel_parse("if (x[i] >= y[i]) z[i] = 1", &k, &at) ==
	       OCC_OK && k.n == 3 && k.acc[0].access.op == OCC_ACCESS_LOAD &&
	       k.acc[1].access.op == OCC_ACCESS_LOAD &&
	       k.acc[2].access.op == OCC_ACCESS_STORE,
	       "text: comparisons are not assignments");
	tap_ok(occ_kernel_set_elem(&k, "y", 16) && k.acc[1].access.elem_size ==
	       16 && k.acc[0].access.elem_size == 4 &&
	       !occ_kernel_set_elem(&k, "w", 8),
	       "text: element sizes are set per array by name");
	tap_ok(occ_kernel_parse("C[x] = A[3] + B[x]", &k, &at) == OCC_OK &&
	       k.n == 3 && k.acc[0].access.op == OCC_ACCESS_STORE &&
	       k.acc[1].access.stride == 0 && k.acc[1].access.offset == 3 &&
	       k.acc[2].access.stride == 1,
	       "text: the thread index may have any name (x)");
	tap_ok(occ_kernel_parse("z[j] = x[i]", &k, &at) == OCC_ERR_SYNTAX &&
	       at == 9, "text: a second name for the thread index is refused "
	       "where it is");
	tap_ok(occ_kernel_parse("z[4*i/32]", &k, &at) == OCC_ERR_SYNTAX,
	       "text: K*i/G (C divides the product) is refused");
	tap_ok(occ_kernel_parse("z[i^1 + 2]", &k, &at) == OCC_OK &&
	       k.acc[0].access.lane_xor == 3 && k.acc[0].access.offset == 0,
	       "text: i^1 + 2 is i ^ 3, as C's precedence reads it");
	tap_ok(occ_kernel_parse("z[i/3]", &k, &at) == OCC_ERR_INVALID_INPUT &&
	       occ_kernel_parse("z[(i^32)]", &k, &at) == OCC_ERR_INVALID_INPUT &&
	       occ_kernel_parse("z[18446744073709551616]", &k, &at) ==
	       OCC_ERR_INVALID_INPUT,
	       "text: divisor 3, lane xor 32 and a constant over 64 bits are "
	       "out of range");
	tap_ok(occ_kernel_parse("", &k, &at) == OCC_ERR_SYNTAX &&
	       occ_kernel_parse("z[i", &k, &at) == OCC_ERR_SYNTAX &&
	       occ_kernel_parse("z = 1", &k, &at) == OCC_ERR_SYNTAX,
	       "text: no access, or an unclosed bracket, is a syntax error");
}

/* ---- Every index form, against the brute force ---- */

/* N=4096, stride=4, g=8, m=3, c=5: the --define of the forms. */
static void form_env(struct occ_kernel_env *env, const struct occ_launch *l)
{
	memset(env, 0, sizeof *env);
	occ_kernel_env_define(env, "N", 4096);
	occ_kernel_env_define(env, "stride", 4);
	occ_kernel_env_define(env, "g", 8);
	occ_kernel_env_define(env, "m", 3);
	occ_kernel_env_define(env, "c", 5);
	env->block_dim[0] = l->block_x ? l->block_x : l->block;
	env->block_dim[1] = l->block_x && l->block_y ? l->block_y : 1;
	env->block_dim[2] = l->block / env->block_dim[0] / env->block_dim[1];
	env->grid_dim = l->grid;
}

/* The text over one launch: parsed with the launch's names, computed,
 * and counted thread by thread; 1 when every total agrees. */
static int form_agrees(const char *text, const struct occ_launch *l,
		       const struct occ_arch *a)
{
	struct occ_kernel_env env;
	struct occ_kernel_text k;
	struct occ_traffic got, want;
	size_t at;

	form_env(&env, l);
	if (occ_kernel_parse_env(text, &env, &k, &at) != OCC_OK) {
		tap_diag("'%s' does not parse at %zu", text, at);
		return 0;
	}
	if (occ_traffic_compute(a, l, k.acc, k.n, &got) != OCC_OK)
		return 0;
	return same_as_brute(a, l, k.acc, k.n, &got, &want);
}

/* A form over 1-D blocks (full and partial warps), a thread count when
 * it names no builtin (count 1), and 2-D blocks unless it needs the
 * thread's index to be blockIdx.x x blockDim.x + threadIdx.x (count 2),
 * on sm_90 and Kepler. */
static void form(const char *what, const char *text, int count)
{
	static const struct occ_launch launches[] = {
		{ 37, 96, OCC_L1_DEFAULT, 0, 0, 0, 0 },
		{ 11, 100, OCC_L1_CACHE, 0, 0, 0, 0 },
		{ 9, 256, OCC_L1_DEFAULT, 32, 8, 0, 0 },
		{ 6, 128, OCC_L1_BYPASS, 8, 4, 0, 0 },
		{ 1, 5003, OCC_L1_DEFAULT, 0, 0, 0, 0 },
	};
	size_t i, n = sizeof launches / sizeof launches[0];
	int ok = 1;

	for (i = 0; i < n; i++) {
		if ((launches[i].block_x && count == 2) ||
		    (launches[i].grid == 1 && count != 1))
			continue;
		ok &= form_agrees(text, &launches[i], arch(9, 0)) &&
		      form_agrees(text, &launches[i], arch(3, 7));
	}
	tap_ok(ok, "form %s: '%s' equals the thread-by-thread count over "
	       "blocks of 96, 100%s%s", what, text,
	       count == 2 ? "" : ", 32x8, 8x4x4",
	       count == 1 ? " and 5003 threads" : "");
}

static void forms(void)
{
	form("i+c, i-c", "y[i] = x[i+1] - x[i-1]", 1);
	form("c-i", "y[i] = x[N-i]", 1);
	form("c-1-i (reversed, from the end)", "y[N-1-i] = x[N-1-i]", 1);
	form("i*k", "y[i] = x[i*stride]", 1);
	form("k*i+c", "y[i] = x[3*i+c] + x[stride*i - 2]", 1);
	form("(i^m)", "y[(i^m)] = x[(i^1)]", 1);
	form("i/g", "y[i/g] = x[i/32] + x[(i^m)/g*2]", 1);
	form("negative strides", "y[-i] = x[-2*i + 7] + x[c - 4*i]", 1);
	form("a read-modify-write both ways", "x[i] += x[N - i]", 1);
	form("row*N+col (a transpose)",
	     "int row = blockIdx.x*blockDim.y + threadIdx.y; "
	     "int col = threadIdx.x; a[row*N + col] = b[col*N + row]", 0);
	form("threadIdx.x", "y[threadIdx.x] = x[blockIdx.x*blockDim.x + "
	     "threadIdx.x] + x[threadIdx.y*blockDim.x + threadIdx.x]", 0);
	form("a defined thread index", "int i = blockIdx.x*blockDim.x + "
	     "threadIdx.x; y[(i^1)] = x[i/4] + x[N - i]", 2);
}

static void form_text(void)
{
	struct occ_kernel_env env;
	struct occ_kernel_text k;
	size_t at;

	memset(&env, 0, sizeof env);
	tap_ok(occ_kernel_env_define(&env, "N", 4096) &&
	       !occ_kernel_env_define(&env, "N", 1) &&
	       !occ_kernel_env_define(&env, "threadIdx", 1) &&
	       !occ_kernel_env_define(&env, "2x", 1),
	       "env: a name is defined once, not CUDA's, an identifier");
	tap_ok(occ_kernel_parse_env("y[N - i]", &env, &k, &at) == OCC_OK &&
	       k.acc[0].access.offset == 4096 && k.acc[0].access.stride == -1,
	       "text: N - i is offset N, stride -1");
	tap_ok(occ_kernel_parse("y[N - i]", &k, &at) == OCC_ERR_SYNTAX &&
	       at == 6, "text: without --define, N is the index and i a "
	       "second name, refused where it is");
	tap_ok(occ_kernel_parse("y[threadIdx.x + blockDim.x]", &k, &at) ==
	       OCC_ERR_SYNTAX && at == 16,
	       "text: blockDim.x without a launch is refused where it is");
	tap_ok(occ_kernel_parse("y[i*i]", &k, &at) == OCC_ERR_SYNTAX &&
	       at == 4 && occ_kernel_parse("y[(i+1)/2]", &k, &at) ==
	       OCC_ERR_SYNTAX && occ_kernel_parse("y[(2*i)^1]", &k, &at) ==
	       OCC_ERR_SYNTAX && occ_kernel_parse("y[i % 4]", &k, &at) ==
	       OCC_ERR_SYNTAX,
	       "text: i*i, (i+1)/2, (2*i)^1 and i%%4 are not forms the model "
	       "follows");
	tap_ok(occ_kernel_parse("y[threadIdx.w]", &k, &at) == OCC_ERR_SYNTAX &&
	       occ_kernel_parse("y[9223372036854775807*i*2]", &k, &at) ==
	       OCC_ERR_INVALID_INPUT,
	       "text: threadIdx.w is no name; a factor past 64 bits is out of "
	       "range");
	tap_ok(occ_kernel_parse("float v = x[i]; y[i] = v", &k, &at) ==
	       OCC_OK && k.n == 2 && k.acc[0].access.op == OCC_ACCESS_LOAD,
	       "text: a definition that is not an index is read as text");
	tap_ok(occ_kernel_parse("y[threadIdx.y*32 + threadIdx.x]", &k, &at) ==
	       OCC_OK && k.uses_builtins && k.acc[0].tid[1] == 32,
	       "text: threadIdx names are marked as used");
}

static void bad_launches(void)
{
	struct occ_traffic t;
	const char *k = "z[i] = x[i]";

	tap_ok(run(9, 0, k, UINT64_C(1) << 60, 1024, 0, &t) ==
	       OCC_ERR_INVALID_INPUT && t.fault == OCC_TRAFFIC_THREADS_OVERFLOW,
	       "2^60 blocks of 1024 threads overflow 64 bits");
	tap_ok(run(9, 0, k, 2, 1025, 0, &t) == OCC_ERR_INVALID_INPUT &&
	       t.fault == OCC_TRAFFIC_BLOCK_TOO_LARGE,
	       "a grid of blocks of 1025 threads is refused on sm_90");
	tap_ok(run(9, 0, k, 0, 64, 0, &t) == OCC_ERR_INVALID_INPUT &&
	       t.fault == OCC_TRAFFIC_NO_THREADS, "an empty grid is refused");
	tap_ok(run(9, 0, "z[i] = x[4*i]", 1, UINT64_C(1) << 61, 0, &t) ==
	       OCC_ERR_INVALID_INPUT && t.fault == OCC_TRAFFIC_ADDRESS_OVERFLOW &&
	       t.fault_access == 1,
	       "x[4*i] over 2^61 threads runs past 2^64 bytes: the access is "
	       "named");
	tap_ok(run(9, 0, "z[i] = x[i]", 1, UINT64_C(1) << 62, 0, &t) ==
	       OCC_ERR_INVALID_INPUT && t.fault == OCC_TRAFFIC_ADDRESS_OVERFLOW &&
	       t.fault_access == 0,
	       "2^62 threads of 4-byte elements end exactly past 2^64 bytes");
	tap_ok(run(9, 0, "z[i] = x[i]", 1, (UINT64_C(1) << 62) - 1, 0, &t) ==
	       OCC_OK, "one thread fewer fits");
}

static void large(void)
{
	struct occ_traffic t;
	uint64_t n = UINT64_C(1) << 40;

	tap_ok(run(9, 0, "z[i] = x[i] + y[i]", 1, 8388608, 0, &t) == OCC_OK &&
	       t.load.sectors == 2097152 && t.store.l2_max == 1048576,
	       "8,388,608 threads as a thread count: add1's figures");
	tap_ok(run(9, 0, "z[i] = x[i+1] + x[i] + y[i/32]", 1, n + 7, 0, &t) ==
	       OCC_OK && t.warps == n / 32 + 1 &&
	       t.load.distinct == (n + 8 + 7) / 8 + (n / 32 + 1 + 7) / 8 &&
	       t.store.distinct == (n + 7 + 7) / 8,
	       "2^40 + 7 threads, a stencil and a per-warp read: distinct "
	       "sectors in closed form");
	tap_ok(run(9, 0, "x[i] += 1", 1, n, 0, &t) == OCC_OK &&
	       t.footprint == t.load.distinct && t.footprint == n / 8,
	       "a read-modify-write touches each sector once");
	tap_ok(run(9, 0, "y[i] = x[i+1] - x[i-1]", 1, n, 0, &t) == OCC_OK &&
	       t.load.distinct == n / 8 + 2 && t.store.distinct == n / 8,
	       "2^40 threads, y[i] = x[i+1] - x[i-1]: x's sectors from "
	       "element -1's to element 2^40's, in closed form");
	tap_ok(run(9, 0, "x[1099511627775 - i] += x[i]", UINT64_C(1) << 30,
		   1024, 0, &t) == OCC_OK && t.footprint == n / 8 &&
	       t.load.sectors == n / 8 * 2,
	       "2^40 threads, x reversed and forward: each sector once, in "
	       "closed form");
	tap_ok(run(9, 0, "y[i] = x[i] + x[2*i]", 1, n, 0, &t) ==
	       OCC_ERR_UNSUPPORTED, "2^40 threads, x[i] with x[2*i]: steps of "
	       "two sizes are listed, and too many are refused");
}

static uint64_t pick(unsigned *seed, const uint64_t *v, size_t n)
{
	return v[(size_t)rand_r(seed) % n];
}

/* A factor: mostly small, either sign, some large. */
static int64_t random_factor(unsigned *seed)
{
	static const uint64_t f[] = { 0, 1, 1, 1, 2, 3, 4, 5, 7, 8,
				      16, 32, 33, 100, 1000, 65536 };
	int64_t v = (int64_t)pick(seed, f, 16);

	return rand_r(seed) % 4 ? v : -v;
}

static void random_access(unsigned *seed, struct occ_kernel_access *k)
{
	static const uint64_t elems[] = { 1, 2, 4, 8, 16 };
	static const uint64_t groups[] = { 1, 1, 1, 2, 4, 8, 16, 32 };
	int r = rand_r(seed), j;

	memset(k, 0, sizeof *k);
	k->access.op = r & 1 ? OCC_ACCESS_STORE : OCC_ACCESS_LOAD;
	k->access.elem_size = (int)pick(seed, elems, 5);
	k->access.stride = random_factor(seed);
	k->access.offset = rand_r(seed) % 3 ? rand_r(seed) % 141 - 70 : 0;
	/* threadIdx and blockIdx terms, a quarter of the time */
	for (j = 0; j < 3 && rand_r(seed) % 4 == 0; j++)
		k->tid[j] = random_factor(seed);
	if (rand_r(seed) % 4 == 0)
		k->bid = random_factor(seed) * (1 + rand_r(seed) % 64);
	k->access.threads = rand_r(seed) % 2 ? 32 : 1 + rand_r(seed) % 32;
	k->access.lane_xor = (unsigned)(rand_r(seed) % 3 ? 0 :
					rand_r(seed) % 32);
	k->group = (unsigned)pick(seed, groups, 8);
	k->array = rand_r(seed) % 3;
}

/* A launch of at most ~20,000 threads: many small blocks, a few large
 * ones, or a thread count. */
static void random_launch(unsigned *seed, struct occ_launch *l)
{
	static const uint32_t xs[] = { 1, 2, 3, 4, 8, 16, 24, 32 };
	int shape = rand_r(seed) % 3;

	memset(l, 0, sizeof *l);
	l->l1 = (enum occ_l1_policy)(rand_r(seed) % 3);
	if (shape == 0) {
		l->grid = 1 + (uint64_t)(rand_r(seed) % 300);
		l->block = 1 + (uint64_t)(rand_r(seed) % 64);
	} else if (shape == 1) {
		l->grid = 1 + (uint64_t)(rand_r(seed) % 12);
		l->block = 1 + (uint64_t)(rand_r(seed) % 1024);
	} else {
		l->grid = 1;
		l->block = 1 + (uint64_t)(rand_r(seed) % 20000);
	}
	/* a block of 2 or 3 dimensions, a third of the blocks */
	if (l->block <= 1024 && rand_r(seed) % 3 == 0) {
		uint32_t x = xs[rand_r(seed) % 8], y = 1 + rand_r(seed) % 8;

		if (x * y <= l->block) {
			l->block_x = x;
			l->block_y = y;
			l->block = l->block / (x * y) * (x * y);
		}
	}
}

static void brute_force(int cases)
{
	unsigned seed = 14;
	int c, bad = 0;

	for (c = 0; c < cases; c++) {
		struct occ_kernel_access acc[4];
		struct occ_launch l;
		struct occ_traffic got, want;
		const struct occ_arch *a = c % 4 ? arch(9, 0) : arch(3, 7);
		size_t i, n = 1 + (size_t)(rand_r(&seed) % 4);
		enum occ_status st;

		random_launch(&seed, &l);
		for (i = 0; i < n; i++)
			random_access(&seed, &acc[i]);
		/* blockIdx.x is 0 in a thread count's block, as it is */
		st = occ_traffic_compute(a, &l, acc, n, &got);
		if (st != OCC_OK ||
		    !same_as_brute(a, &l, acc, n, &got, &want) ||
		    got.warps != want.warps) {
			if (bad++ < 5)
				tap_diag("case %d: sm_%d%d grid %llu block %llu, "
					 "%zu accesses: status %d", c,
					 a->cc_major, a->cc_minor,
					 (unsigned long long)l.grid,
					 (unsigned long long)l.block, n, st);
		}
	}
	tap_ok(bad == 0, "brute force: %d random launches (blocks of 1 to 3 "
	       "dimensions, partial warps, thread counts, strides and offsets "
	       "of either sign, threadIdx and blockIdx terms, groups, shared "
	       "arrays) match thread-by-thread counts in every total (%d "
	       "differ)", cases, bad);
}

/* ---- Grids of 2 and 3 dimensions, placed by blockIdx.x/y/z ---- */

/* The text over a launch of a gx x gy x gz grid of bx x by blocks, with
 * --define's N=128, against the brute force; 1 when every total agrees
 * (and the text was placed by coordinates: `tiled`). */
static int grid_agrees(const char *text, uint32_t gx, uint32_t gy,
		       uint32_t gz, uint32_t bx, uint32_t by, int major,
		       int tiled)
{
	struct occ_launch l = { (uint64_t)gx * gy * gz, (uint64_t)bx * by,
				OCC_L1_DEFAULT, bx, by, gy, gz };
	const struct occ_arch *a = arch(major, major == 3 ? 7 : 0);
	struct occ_kernel_env env;
	struct occ_kernel_text k;
	struct occ_traffic got, want;
	size_t at, i;
	int placed = 0;

	memset(&env, 0, sizeof env);
	occ_kernel_env_define(&env, "N", 128);
	env.block_dim[0] = bx;
	env.block_dim[1] = by;
	env.block_dim[2] = 1;
	env.grid_dim = gx;
	env.grid_yz[0] = gy;
	env.grid_yz[1] = gz;
	if (occ_kernel_parse_env(text, &env, &k, &at) != OCC_OK) {
		tap_diag("'%s' does not parse at %zu", text, at);
		return 0;
	}
	for (i = 0; i < k.n; i++)
		placed |= k.acc[i].bid_dim[0] || k.acc[i].bid_dim[1] ||
			  k.acc[i].bid_dim[2];
	if (placed != tiled ||
	    occ_traffic_compute(a, &l, k.acc, k.n, &got) != OCC_OK)
		return 0;
	return same_as_brute(a, &l, k.acc, k.n, &got, &want) &&
	       got.warps == want.warps;
}

static void tile_form(const char *what, const char *text, int tiled)
{
	tap_ok(grid_agrees(text, 8, 8, 1, 16, 16, 9, tiled) &&
	       grid_agrees(text, 5, 3, 1, 16, 16, 9, tiled) &&
	       grid_agrees(text, 8, 8, 1, 16, 16, 3, tiled) &&
	       grid_agrees(text, 3, 4, 2, 8, 4, 9, tiled),
	       "tile %s: '%s' equals the thread-by-thread count over grids of "
	       "8x8 and 5x3 blocks of 16x16 (sm_90, Kepler) and 3x4x2 of "
	       "8x4", what, text);
}

#define ROW "int row = blockIdx.y*blockDim.y + threadIdx.y; "
#define COL "int col = blockIdx.x*blockDim.x + threadIdx.x; "

static void tiles(void)
{
	tile_form("row*N+col", ROW COL "b[row*N + col] = a[row*N + col]", 1);
	tile_form("a transpose", ROW COL "b[row*N + col] = a[col*N + row]", 1);
	tile_form("in place, both ways", ROW COL
		  "a[row*N + col] += a[col*N + row]", 1);
	tile_form("a GEMM's tiles of A and B (one step of k)", ROW COL
		  "int k = 3*blockDim.x; c[row*N + col] = a[row*N + k + "
		  "threadIdx.x] + b[(k + threadIdx.y)*N + col]", 1);
	tile_form("blockIdx.x alone", "a[blockIdx.x*blockDim.x*blockDim.y + "
		  "threadIdx.y*blockDim.x + threadIdx.x]", 1);
	tile_form("blockIdx.y alone", "a[blockIdx.y*N + threadIdx.x]", 1);
	tile_form("reversed rows, offset columns", ROW COL
		  "b[(N - 1 - row)*N + col + 3] = a[row*2*N - col]", 1);
	tile_form("doubles of a padded pitch", ROW COL
		  "b[row*(N + 1) + col] = a[row*(N + 1) + col]", 1);
	tile_form("the block's number (not tiled)",
		  "a[((blockIdx.z*gridDim.y + blockIdx.y)*gridDim.x + "
		  "blockIdx.x)*blockDim.x*blockDim.y + threadIdx.y*blockDim.x "
		  "+ threadIdx.x]", 0);
	tile_form("the thread's index with a tile", ROW COL
		  "b[i] = a[row*N + col] + c[i/2]", 1);
}

/* A grid of at most 12 x 8 x 4 blocks of at most 256 threads. */
static void random_grid(unsigned *seed, struct occ_launch *l)
{
	static const uint32_t xs[] = { 1, 2, 4, 8, 16, 32 };
	uint64_t gx = 1 + (uint64_t)(rand_r(seed) % 12),
		 gy = 1 + (uint64_t)(rand_r(seed) % 8),
		 gz = rand_r(seed) % 3 ? 1 : 1 + (uint64_t)(rand_r(seed) % 4);

	memset(l, 0, sizeof *l);
	l->l1 = (enum occ_l1_policy)(rand_r(seed) % 3);
	l->grid = gx * gy * gz;
	l->grid_y = (uint32_t)gy;
	l->grid_z = gz > 1 || rand_r(seed) % 2 ? (uint32_t)gz : 0;
	l->block = 1 + (uint64_t)(rand_r(seed) % 256);
	if (rand_r(seed) % 2) {
		uint32_t x = xs[rand_r(seed) % 6], y = 1 + rand_r(seed) % 8;

		if (x * y <= l->block) {
			l->block_x = x;
			l->block_y = y;
			l->block = l->block / (x * y) * (x * y);
		}
	}
}

/* Block factors: a tile's (blockDim times a row's pitch), small ones,
 * either sign. */
static void random_placement(unsigned *seed, const struct occ_launch *l,
			     struct occ_kernel_access *k)
{
	static const uint64_t pitch[] = { 1, 2, 3, 16, 32, 100, 128, 1024 };
	int d;

	for (d = 0; d < 3; d++) {
		int r = rand_r(seed) % 4;

		if (r == 0)
			k->bid_dim[d] = random_factor(seed);
		else if (r == 1)
			k->bid_dim[d] = (int64_t)(l->block_x ? l->block_x :
						  l->block) *
					(int64_t)pick(seed, pitch, 8) *
					(rand_r(seed) % 4 ? 1 : -1);
	}
}

static int tile_group(const struct occ_launch *l,
		      const struct occ_kernel_access *acc, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (acc[i].access.stride && l->block % acc[i].group)
			return 1;
	return 0;
}

static void brute_force_grids(int cases)
{
	unsigned seed = 29;
	int c, bad = 0, refused = 0;

	for (c = 0; c < cases; c++) {
		struct occ_kernel_access acc[4];
		struct occ_launch l;
		struct occ_traffic got, want;
		const struct occ_arch *a = c % 4 ? arch(9, 0) : arch(3, 7);
		size_t i, n = 1 + (size_t)(rand_r(&seed) % 4);
		enum occ_status st;
		int tiled = 0;

		random_grid(&seed, &l);
		for (i = 0; i < n; i++) {
			random_access(&seed, &acc[i]);
			/* mostly blocks of whole groups: the rest refused */
			if (l.block % acc[i].group && rand_r(&seed) % 8)
				acc[i].group = 1;
			random_placement(&seed, &l, &acc[i]);
			tiled |= acc[i].bid_dim[0] || acc[i].bid_dim[1] ||
				 acc[i].bid_dim[2];
		}
		st = occ_traffic_compute(a, &l, acc, n, &got);
		if (tiled && l.grid > 1 && tile_group(&l, acc, n)) {
			refused++;
			if (st != OCC_ERR_UNSUPPORTED ||
			    got.fault != OCC_TRAFFIC_TILE_GROUP)
				bad++;
			continue;
		}
		if (st != OCC_OK ||
		    !same_as_brute(a, &l, acc, n, &got, &want) ||
		    got.warps != want.warps) {
			if (bad++ < 5)
				tap_diag("grid case %d: sm_%d%d grid %llu (y %u "
					 "z %u) block %llu (%ux%u), %zu "
					 "accesses: status %d", c, a->cc_major,
					 a->cc_minor,
					 (unsigned long long)l.grid, l.grid_y,
					 l.grid_z, (unsigned long long)l.block,
					 l.block_x, l.block_y, n, st);
		}
	}
	tap_ok(bad == 0 && refused < cases / 8, "brute force: %d random "
	       "launches of grids of 1 to 3 dimensions, accesses placed by "
	       "blockIdx.x/y/z (tiles' factors, small ones, either sign) beside "
	       "every other term, match thread-by-thread counts in every total "
	       "(%d differ; %d refused as the thread's index over G in blocks "
	       "not a multiple of G)", cases, bad, refused);
}

/* Steps of a few bytes in grids longer than a sector's (or a line's)
 * worth of them: many offsets within a unit, each with its copies. */
static void tile_offsets(void)
{
	static const int64_t f[][3] = {
		{ 33, 1057, 0 }, { 1, 3, 5 }, { -7, 100003, 0 }, { 3, -5, 9 },
	};
	static const uint32_t g[][3] = {
		{ 40, 36, 1 }, { 35, 3, 34 }, { 130, 3, 1 }, { 33, 34, 2 },
	};
	int c, ok = 1;

	for (c = 0; c < 4; c++) {
		struct occ_kernel_access acc[2];
		struct occ_launch l = { (uint64_t)g[c][0] * g[c][1] * g[c][2],
					32, OCC_L1_DEFAULT, 0, 0, g[c][1],
					g[c][2] };
		struct occ_traffic got, want;
		int k, major;

		memset(acc, 0, sizeof acc);
		for (k = 0; k < 2; k++) {
			acc[k].access.op = k ? OCC_ACCESS_STORE : OCC_ACCESS_LOAD;
			acc[k].access.elem_size = k ? 2 : 1;
			acc[k].access.threads = 32;
			acc[k].group = 1;
			acc[k].tid[0] = k ? 1 : 1000;
			memcpy(acc[k].bid_dim, f[c], sizeof f[c]);
		}
		for (major = 3; major <= 9; major += 6) {
			const struct occ_arch *a = arch(major, major == 3 ? 7 : 0);

			ok &= occ_traffic_compute(a, &l, acc, 2, &got) == OCC_OK;
			ok &= same_as_brute(a, &l, acc, 2, &got, &want);
		}
	}
	tap_ok(ok, "steps of 1 to 7 bytes over grids of 34 to 130 blocks a "
	       "dimension (every offset within a sector, and a line on "
	       "Kepler, with copies): the thread-by-thread count");
}

/* The 2-D tiles of the CLI's golden figures (t/traffic-cli.sh): a
 * 64 x 64 grid of 16 x 16 blocks over a 1024 x 1024 matrix of floats. */
static void tile_1024(void)
{
	static const char *const text[] = {
		ROW COL "a[row*1024 + col]", ROW COL "a[col*1024 + row]"
	};
	struct occ_launch l = { 4096, 256, OCC_L1_DEFAULT, 16, 16, 64, 0 };
	struct occ_kernel_env env;
	struct occ_kernel_text k;
	struct occ_traffic got, want;
	size_t at;
	int i;

	memset(&env, 0, sizeof env);
	env.block_dim[0] = env.block_dim[1] = 16;
	env.block_dim[2] = 1;
	env.grid_dim = 64;
	env.grid_yz[0] = 64;
	env.grid_yz[1] = 1;
	for (i = 0; i < 2; i++) {
		int ok = occ_kernel_parse_env(text[i], &env, &k, &at) == OCC_OK &&
			 occ_traffic_compute(arch(9, 0), &l, k.acc, k.n,
					     &got) == OCC_OK;

		if (ok)
			brute(arch(9, 0), &l, k.acc, k.n, &want);
		tap_ok(ok && same_ops(&got.load, &want.load) &&
		       got.footprint == want.footprint &&
		       got.load.requests == 32768 &&
		       got.load.sectors == (i ? 524288 : 131072) &&
		       got.load.requested == 4194304 &&
		       got.footprint == 131072,
		       "64x64 blocks of 16x16, '%s': 32,768 requests of %d "
		       "sectors, a 4 MB footprint, as counted thread by thread",
		       text[i], i ? 16 : 4);
	}
}

/* Grids too large to list: closed in one dimension, bounded in the
 * others. */
static void tile_large(void)
{
	struct occ_kernel_access acc;
	struct occ_launch l = { (uint64_t)32768 * 65535, 256, OCC_L1_DEFAULT,
				16, 16, 65535, 0 };
	struct occ_traffic t;

	/* a[row*N + col], N = 32768 x 16: every element once */
	memset(&acc, 0, sizeof acc);
	acc.access.op = OCC_ACCESS_LOAD;
	acc.access.elem_size = 4;
	acc.access.threads = 32;
	acc.group = 1;
	acc.tid[0] = 1;
	acc.tid[1] = 32768 * 16;
	acc.bid_dim[0] = 16;
	acc.bid_dim[1] = (int64_t)32768 * 16 * 16;
	tap_ok(occ_traffic_compute(arch(9, 0), &l, &acc, 1, &t) == OCC_OK &&
	       t.footprint == l.grid * 256 / 8 &&
	       t.load.sectors == l.grid * 8 * 4,
	       "32768x65535 blocks of 16x16 reading a[row*N + col]: each "
	       "sector once, in closed form");
	/* its transpose: columns of 16 floats, each its own run */
	acc.tid[0] = 65535 * 16;
	acc.tid[1] = 1;
	acc.bid_dim[0] = (int64_t)65535 * 16 * 16;
	acc.bid_dim[1] = 16;
	tap_ok(occ_traffic_compute(arch(9, 0), &l, &acc, 1, &t) == OCC_OK &&
	       t.footprint == l.grid * 256 / 8 &&
	       t.load.sectors == l.grid * 8 * 16,
	       "and a[col*N + row]: the same footprint, 16 sectors a request");
	/* every block its own 16 scattered rows: too many runs */
	acc.tid[0] = 1;
	acc.tid[1] = 1000003;
	acc.bid_dim[0] = 7919;
	acc.bid_dim[1] = 104729;
	tap_ok(occ_traffic_compute(arch(9, 0), &l, &acc, 1, &t) ==
	       OCC_ERR_UNSUPPORTED && t.fault == OCC_TRAFFIC_TILE_LISTED,
	       "a tiling whose sectors fall in more than 2^20 runs is refused");
}

int main(void)
{
	load_tables();
	add1();
	add2();
	add3();
	add4();
	add5();
	kepler_loads();
	kepler_stores();
	text();
	form_text();
	forms();
	bad_launches();
	large();
	brute_force(300);
	tiles();
	brute_force_grids(400);
	tile_offsets();
	tile_1024();
	tile_large();
	printf("1..%d\n", tap_n);
	occ_tables_free(tables);
	return tap_done();
}
