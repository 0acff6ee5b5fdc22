/*
 * occcalc/memory.h - global memory: a warp's transactions, a launch's traffic, L2
 * persistence.
 * Part of the occcalc API: include <occcalc.h>, which includes this.
 */
#ifndef OCCCALC_MEMORY_H
#define OCCCALC_MEMORY_H

#ifndef OCCCALC_H
#error "include <occcalc.h>, not occcalc/memory.h"
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* ---- Global memory: how a warp's access becomes transactions ---- */

enum occ_access_op { OCC_ACCESS_LOAD, OCC_ACCESS_STORE };

/* One warp-wide load or store instruction: active lane i (of the first
 * `threads`) touches element offset + (i ^ lane_xor) * stride of an array
 * whose base is aligned to a cache line. A broadcast is stride 0; a
 * negative stride reverses the lanes (sectors are counted on the
 * addresses touched, below the base as well). */
struct occ_access {
	enum occ_access_op op;
	int elem_size;           /* bytes: 1, 2, 4, 8 or 16 */
	int64_t stride;          /* elements between consecutive lanes */
	int64_t offset;          /* elements from the aligned base */
	int threads;             /* active lanes, 1 to 32 */
	unsigned lane_xor;       /* lane permutation, 0 to 31 */
};

struct occ_access_result {
	uint64_t thread_bytes;   /* threads x elem_size */
	uint64_t requested;      /* distinct bytes the lanes touch */
	int sectors;             /* distinct sectors touched: per request */
	int lines;               /* distinct cache lines touched */
	uint64_t moved;          /* sectors x sector size */
	/* A load cached in L1 moves l1_moved: sectors where the L1 is
	 * sectored, whole lines where it is not (Kepler). Stores: moved. */
	uint64_t l1_moved;
	int l1_lines;            /* a load here moves lines when L1-cached */
};

/* OCC_ERR_INVALID_INPUT for an element size other than 1, 2, 4, 8 or 16,
 * threads outside 1-32, lane_xor above 31, or an access whose addresses
 * do not fit 64 bits; OCC_ERR_UNKNOWN_ARCH when the table has no
 * sector and line sizes. */
enum occ_status occ_access_compute(const struct occ_arch *arch,
				   const struct occ_access *access,
				   struct occ_access_result *result);

/* ---- A launch's global memory traffic, level by level ---- */

/* One global load or store of a kernel, as every thread of the launch runs
 * it. Thread t of block b (blockIdx.x b; t counts the block's threads
 * x fastest, so threadIdx is t % X, t / X % Y, t / (X Y) for a block of
 * X x Y x Z) uses the index i = b x block + (t ^ lane_xor) and touches
 * element
 *     offset + (i / group) x stride
 *            + tid[0] threadIdx.x + tid[1] threadIdx.y + tid[2] threadIdx.z
 *            + bid blockIdx.x
 * of its array (every factor signed: reversed accesses, and elements
 * below the array's base, are counted on the addresses touched); it
 * takes part when its lane (t % 32) is below access.threads. So x[i] is
 * stride 1, x[i + 1] offset 1, x[N - i] offset N stride -1, x[4 * i]
 * stride 4, x[3] stride 0 offset 3, x[i / 32] (a warp's own element)
 * stride 1 group 32, and a[row * N + col] with row = threadIdx.y and
 * col = blockIdx.x X + threadIdx.x is tid { 1, N, 0 }, bid X, stride 0.
 * Within one warp of a 1-D block this is occ_access's pattern. Each
 * array's element 0 is on a cache line; accesses naming the same array
 * share its memory (a read-modify-write touches the same sectors twice),
 * different arrays never alias. */
struct occ_kernel_access {
	struct occ_access access;
	unsigned group;          /* 1 to 32 consecutive threads per index */
	int array;               /* any number; equal numbers, same array */
	int64_t tid[3];          /* factors of threadIdx.x, .y, .z */
	int64_t bid;             /* factor of blockIdx.x: the block's number
	                            b, x fastest, in a grid of 2 or 3 dims */
	/* Factors of blockIdx.x, .y and .z of a grid of 2 or 3 dimensions
	 * (occ_launch's grid_y, grid_z), added to the above: an index that
	 * tiles the grid by rows and columns (row = blockIdx.y x 16 +
	 * threadIdx.y, col = blockIdx.x x 16 + threadIdx.x). 0 otherwise. */
	int64_t bid_dim[3];
};

/* Whether loads are cached in L1 (stores never are). */
enum occ_l1_policy {
	/* As the architecture does without options: from compute capability
	 * 7.0 the L1 caches global loads (PTX's default ld.ca); before, only
	 * when asked. */
	OCC_L1_DEFAULT = 0,
	OCC_L1_CACHE,            /* -Xptxas -dlcm=ca */
	OCC_L1_BYPASS            /* -Xptxas -dlcm=cg, ld.global.cg */
};

/* A launch: grid blocks of block threads, warps of 32 threads counted
 * from each block's first thread, the last warp of a block partial when
 * block is not a multiple of 32. A thread count N is grid 1, block N
 * (any N): N threads in consecutive warps, the last partial. */
struct occ_launch {
	uint64_t grid;
	uint64_t block;          /* up to maxThreadsPerBlock when grid > 1 */
	enum occ_l1_policy l1;
	/* The block's shape X x Y (x Z, the rest): 0, 0 for a 1-D block of
	 * `block` threads. A thread count (grid 1) is 1-D. */
	uint32_t block_x, block_y;
	/* The grid's gridDim.y and .z (gridDim.x is grid / (y x z)): 0, 0
	 * for a 1-D grid. Blocks are numbered x fastest. */
	uint32_t grid_y, grid_z;
};

/* Loads or stores of a launch, in the terms of Nsight Compute's Memory
 * Tables. Counts of sectors are in the architecture's sector size. */
struct occ_traffic_ops {
	/* Warp-level instructions (smsp__inst_executed_op_global_ld/st) and
	 * L1/TEX requests, one per instruction. */
	uint64_t instructions;
	uint64_t requests;
	uint64_t sectors;        /* distinct per request, summed: L1/TEX */
	uint64_t lines;          /* distinct lines per request, summed (the
	                            transactions of an L1 that fetches lines) */
	uint64_t thread_bytes;   /* active threads x element size */
	uint64_t requested;      /* distinct bytes per request, summed */
	int l1_cached;           /* loads kept in L1 (stores: 0) */
	int l1_lines;            /* that L1 fetches whole lines (Kepler) */
	/* Sectors from L1 to L2: l2_max when nothing hits in L1; l2_min
	 * when every access that can hit does (each distinct sector, or line,
	 * of an array once). For loads not cached in L1 they are equal; for
	 * stores l2_min is the distinct sectors, as stores of different
	 * requests to one sector can reach L2 as one write. */
	uint64_t l2_max;
	uint64_t l2_min;
	/* Distinct sectors of the launch: each array's sectors counted once,
	 * over all its accesses of this kind. Device memory moves at least
	 * these (unless the L2 already holds them), at most l2_max. */
	uint64_t distinct;
};

/* Why occ_traffic_compute refused a launch (OCC_ERR_INVALID_INPUT). */
enum occ_traffic_fault {
	OCC_TRAFFIC_OK = 0,
	OCC_TRAFFIC_NO_THREADS,        /* grid or block is 0, or no access */
	OCC_TRAFFIC_BLOCK_TOO_LARGE,   /* grid > 1, block > maxThreadsPerBlock */
	OCC_TRAFFIC_THREADS_OVERFLOW,  /* grid x block does not fit 64 bits */
	OCC_TRAFFIC_BAD_ACCESS,        /* as occ_access_compute, or group */
	OCC_TRAFFIC_ADDRESS_OVERFLOW,  /* an address does not fit 64 bits */
	OCC_TRAFFIC_BAD_SHAPE,         /* block_x x block_y does not divide
	                                  block, or grid_y x grid_z grid */
	OCC_TRAFFIC_COUNT_OVERFLOW,    /* a total does not fit 64 bits */
	/* With OCC_ERR_UNSUPPORTED, an access placed by blockIdx.x/y/z
	 * (bid_dim) whose sectors the model does not count: */
	OCC_TRAFFIC_TILE_GROUP,        /* the thread's index over G (i / G)
	                                  in blocks not a multiple of G */
	OCC_TRAFFIC_TILE_LISTED,       /* sectors in more runs than are
	                                  listed (2^20; tiled_units.c) */
	/* With OCC_ERR_UNSUPPORTED, any launch: */
	OCC_TRAFFIC_SPAN_LISTED        /* a repeating span's distinct
	                                  sectors and lines more than are
	                                  held (2^24 numbers, 128 MB) */
};

struct occ_traffic {
	struct occ_traffic_ops load, store;
	uint64_t threads;        /* grid x block */
	uint64_t warps;          /* warps launched, partial ones included */
	uint64_t footprint;      /* distinct sectors, loads and stores */
	int sector_size, line_size;
	enum occ_traffic_fault fault;
	size_t fault_access;     /* the access at fault, for BAD_ACCESS and
	                            ADDRESS_OVERFLOW */
};

/* The traffic of n accesses over a launch, counted in closed form (per
 * repeating span of threads), whatever the thread count, when each
 * array's accesses move by one step from span to span, either way
 * (x[i] with x[i + 1], or with x[N - i]); an array accessed with steps
 * of different sizes (x[i] and x[2 * i]) has its copies listed, up to
 * 2^24 of them. A block of 2-D or 3-D shape is listed thread by thread,
 * block after block when grid is 1. Accesses placed by blockIdx.x/y/z
 * (bid_dim) are counted exactly too: requests by the blocks' offsets
 * modulo a line, distinct sectors as runs listed along every dimension
 * but one and counted in closed form along it. OCC_ERR_INVALID_INPUT
 * with t->fault saying why; OCC_ERR_UNKNOWN_ARCH when the table has no
 * sector and line sizes; OCC_ERR_UNSUPPORTED when the copies are too
 * many to list (t->fault OK), an access placed by blockIdx.x/y/z is
 * not counted (t->fault TILE_GROUP or TILE_LISTED), or the sectors and
 * lines to list are more than are held (SPAN_LISTED); OCC_ERR_NOMEM. */
enum occ_status occ_traffic_compute(const struct occ_arch *arch,
				    const struct occ_launch *launch,
				    const struct occ_kernel_access *acc,
				    size_t n, struct occ_traffic *t);

/* A kernel's global accesses written as C: statements separated by ';',
 * each NAME[INDEX] an access. One left of '=' is a store, one left of a
 * compound assignment ('+=', ...) a load and a store, every other a load:
 * "z[i] = x[i] + y[i]" is add1, "C[i] = A[3] + B[i]" two loads and a
 * store. INDEX is an affine expression, read with C's precedence, of
 * integer constants, names given in the environment (--define N=4096),
 * CUDA's threadIdx.x/y/z, blockIdx.x, blockDim.x/y/z and gridDim.x when
 * the environment gives the launch, blockIdx.y/z and gridDim.y/z when it
 * gives a grid with those dimensions (grid_yz; block terms that are a
 * multiple of the block's number in the grid, x fastest, are bid, any
 * others, a tile's, bid_dim), warpSize, names defined by an earlier statement
 * ("int row = threadIdx.y; int col = threadIdx.x"), and the thread's
 * index: any other name (i, x, tid), the same in every access, standing
 * for blockIdx.x x blockDim.x + threadIdx.x of a 1-D block (the thread's
 * place in the launch). Sums, differences and products by constants
 * are allowed anywhere; (i ^ X) (X up to 31) and i / G (G a power of two
 * up to 32), with a factor (k * (i / G)), only on the thread's index
 * itself (or a definition, or blockIdx.x * blockDim.x + threadIdx.x,
 * equal to it). So "i+1", "i-1", "N-i", "4*i+3", "(i^1)", "i/32",
 * "row*N+col", "threadIdx.x", "3". Each distinct NAME is an array.
 * Accesses get 4-byte elements and 32 active lanes; the caller sets
 * other element sizes per array (elem_size), or lanes. */
#define OCC_MAX_KERNEL_ACCESSES 64
#define OCC_MAX_KERNEL_ARRAYS 32
#define OCC_MAX_KERNEL_NAMES 32
/* Parentheses and signs an index may nest, as --check's expressions. */
#define OCC_MAX_KERNEL_NESTING 64

struct occ_kernel_text {
	struct occ_kernel_access acc[OCC_MAX_KERNEL_ACCESSES];
	size_t n;
	char names[OCC_MAX_KERNEL_ARRAYS][32];   /* by array number */
	int n_arrays;
	/* Whether an index names threadIdx, blockIdx, blockDim or gridDim
	 * (a launch of blocks, not a thread count). */
	int uses_builtins;
	char index_name[32];     /* the thread index's name, or "" */
};

/* Named constants for the index: --define's, and the launch's. */
struct occ_kernel_env {
	size_t n;
	char names[OCC_MAX_KERNEL_NAMES][32];
	int64_t values[OCC_MAX_KERNEL_NAMES];
	/* The launch's block shape (blockDim) and grid (gridDim.x); 0 when
	 * not known (then the text may not name them). */
	uint64_t block_dim[3], grid_dim;
	/* gridDim.y and .z of a grid that has them, else 0 (then the text
	 * may not name blockIdx.y or gridDim.y). */
	uint64_t grid_yz[2];
};

/* Adds NAME = value to env: 0 when the name is not an identifier of at
 * most 31 characters, is CUDA's (threadIdx...), is defined already, or
 * env is full. */
int occ_kernel_env_define(struct occ_kernel_env *env, const char *name,
			  int64_t value);

/* OCC_ERR_SYNTAX, with *where the offset of the first character not
 * understood, for text that is not such a list or an index that is not
 * one of these forms; OCC_ERR_INVALID_INPUT (*where likewise) for a
 * constant or factor that does not fit 64 bits, a divisor that is not a
 * power of two up to 32, an X above 31, a name over 31 characters, or
 * more accesses, arrays or definitions than the limits;
 * OCC_ERR_DUPLICATE_KEY (*where at the name) for a definition of a name
 * that is CUDA's, env's, or declared already; OCC_ERR_RANGE
 * (*where at the parenthesis or sign) for an index nested more than
 * OCC_MAX_KERNEL_NESTING deep. env may be NULL (no names, launch
 * unknown). */
enum occ_status occ_kernel_parse_env(const char *text,
				     const struct occ_kernel_env *env,
				     struct occ_kernel_text *k, size_t *where);
/* The same without names. */
enum occ_status occ_kernel_parse(const char *text, struct occ_kernel_text *k,
				 size_t *where);

/* Sets the element size of every access to the named array; 0 when the
 * text has no such array. */
int occ_kernel_set_elem(struct occ_kernel_text *k, const char *name,
			int elem_size);

/* ---- L2 persistence: a set-aside and access-policy windows ---- */

/* The device's L2 figures, as cudaDeviceProp names them. */
struct occ_l2 {
	uint64_t size;             /* l2CacheSize */
	uint64_t persisting_max;   /* persistingL2CacheMaxSize */
	uint64_t window_max;       /* accessPolicyMaxWindowSize */
};

/* Keeping `data` bytes re-read by each of `streams` concurrent streams in
 * the L2 set-aside: the set-aside to request (no more than the windows
 * need, no more than the device allows), each stream's window (the data,
 * or as much as a window may cover), and the hitRatio that keeps the
 * windows' persisting lines within the set-aside, so that they do not
 * evict each other (CUDA Programming Guide, "L2 Persistence Example" and
 * "Managing Utilization of L2 set-aside cache"). */
struct occ_l2_plan {
	uint64_t set_aside;        /* cudaLimitPersistingL2CacheSize */
	uint64_t window;           /* accessPolicyWindow.num_bytes, each */
	uint64_t uncovered;        /* data beyond the window, each stream */
	/* accessPolicyWindow.hitRatio, in ten-thousandths (rounded down so
	 * that the windows never ask for more than the set-aside). */
	int hit_ratio_e4;
	uint64_t persisting;       /* bytes of each window that persist */
};

/* OCC_ERR_INVALID_INPUT for no data, streams outside 1-1024, or L2
 * figures that contradict each other; OCC_ERR_UNSUPPORTED when the
 * device has no set-aside (persisting_max 0). */
enum occ_status occ_l2_plan(const struct occ_l2 *l2, uint64_t data,
			    int streams, struct occ_l2_plan *plan);

#ifdef __cplusplus
}
#endif

#endif
