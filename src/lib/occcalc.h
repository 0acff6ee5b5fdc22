/*
 * occcalc.h - the occcalc library: CUDA theoretical occupancy from
 * per-architecture tables.
 *
 * The library reads architecture tables (one file per compute capability,
 * see occcalc(1) and data/arch-tables/) and computes, for a kernel's block
 * size, registers per thread and shared memory per block, how many blocks
 * and warps each streaming multiprocessor (SM) can hold, and which resource
 * limits it.
 *
 * Every function reports failure through its return value (an enum
 * occ_status); none prints anything. Functions that read files also fill a
 * struct occ_diag saying where the problem is, for the caller to report.
 */
#ifndef OCCCALC_H
#define OCCCALC_H

#include <limits.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

#define OCC_VERSION "0.1.0"

/* A per-resource block limit that does not constrain: the resource is not
 * used (no registers, no shared memory) or not limited on this architecture. */
#define OCC_UNLIMITED INT_MAX

/* Most registers per thread any NVIDIA architecture allows. */
#define OCC_MAX_REGS_ANY_ARCH 255
/* Hardware barriers (bar.sync ids) a block can use. */
#define OCC_MAX_BARRIERS_PER_BLOCK 16

enum occ_status {
	OCC_OK = 0,
	OCC_ERR_NOMEM,          /* out of memory */
	OCC_ERR_IO,             /* a file or directory could not be read */
	OCC_ERR_NO_TABLES,      /* the table directory holds no table */
	OCC_ERR_SYNTAX,         /* a table line is not 'key = value' */
	OCC_ERR_UNKNOWN_KEY,    /* a table key occcalc does not know */
	OCC_ERR_DUPLICATE_KEY,  /* a table key given twice */
	OCC_ERR_MISSING_KEY,    /* a required table key is absent */
	OCC_ERR_BAD_VALUE,      /* a table value is malformed or out of range */
	OCC_ERR_INCONSISTENT,   /* table values contradict each other */
	OCC_ERR_MISNAMED,       /* sm_XY.arch does not hold X.Y */
	OCC_ERR_UNKNOWN_ARCH,   /* no table for that compute capability */
	OCC_ERR_BAD_ARCH_NAME,  /* not an architecture name (sm_90, 90, 9.0) */
	OCC_ERR_INVALID_INPUT,  /* kernel parameters out of their domain */
	OCC_ERR_UNSUPPORTED,    /* the device or architecture lacks it */
	OCC_ERR_CORRUPT,        /* a binary is truncated or malformed */
	OCC_ERR_NOT_BINARY,     /* no cubin, fatbin or ELF file */
	OCC_ERR_NOT_REGULAR,    /* a data file that is not a regular file */
	OCC_ERR_LINE_TOO_LONG,  /* a data file's line longer than diag.limit */
	OCC_ERR_RANGE           /* a report's figure above diag.limit */
};

/* Where a problem in a file was found: file, line (0: the whole file), key
 * (for a compiler report: the figure, e.g. "registers") and, for
 * OCC_ERR_RANGE and OCC_ERR_LINE_TOO_LONG, the most that is allowed. */
struct occ_diag {
	char file[512];
	int line;
	char key[64];
	uint64_t limit;
};

/* The largest byte count (shared memory, L2 sizes) the library takes:
 * far beyond any GPU, and small enough that its arithmetic cannot wrap. */
#define OCC_BYTES_MAX ((UINT64_C(1) << 48) - 1)

#define OCC_MAX_CARVEOUTS 16

/* One architecture table. Field names follow cudaDeviceProp where it has
 * the value; byte counts are bytes. */
struct occ_arch {
	int cc_major, cc_minor;
	char name[32];           /* architecture family, e.g. "Hopper" */
	char products[160];      /* informational: chips or boards */
	char source[512];        /* the file it was read from */

	int warp_size;                          /* warpSize */
	int max_threads_per_block;              /* maxThreadsPerBlock */
	int max_threads_per_sm;                 /* maxThreadsPerMultiProcessor */
	int max_blocks_per_sm;                  /* maxBlocksPerMultiProcessor */
	int regs_per_sm;                        /* regsPerMultiprocessor */
	int regs_per_block;                     /* regsPerBlock */
	int max_regs_per_thread;
	int reg_alloc_unit;          /* registers, allocated per warp */
	int reg_sub_partitions;      /* register file split into this many */
	/* GP100 refuses blocks GP10x (4 sub-partitions) would refuse, so that
	 * Pascal binaries stay portable; 0 when no such check applies. */
	int reg_launch_check_sub_partitions;
	uint64_t smem_per_sm;                   /* sharedMemPerMultiprocessor */
	uint64_t smem_per_block;                /* sharedMemPerBlock */
	uint64_t smem_per_block_optin;          /* sharedMemPerBlockOptin */
	uint64_t smem_reserved_per_block;       /* reservedSharedMemPerBlock */
	uint64_t smem_alloc_unit;
	/* Shared-memory capacities the L1/shared split can be set to,
	 * ascending; none when the split is fixed. */
	uint64_t smem_carveouts[OCC_MAX_CARVEOUTS];
	int n_smem_carveouts;
	/* Block barriers an SM provides; 0 when they do not limit occupancy. */
	int max_barriers_per_sm;
	/* cuobjdump's SHARED figure includes reservedSharedMemPerBlock. */
	int cubin_smem_includes_reserved;
	/* Global memory transactions, bytes (0: not in the table): the L2's
	 * sector, the cache line, and what a load cached in L1 moves. */
	int sector_size;
	int line_size;
	int l1_load_transaction;
	/* An L2 set-aside for persisting accesses exists. */
	int l2_persisting;
	/* Thread-block clusters (0: none, or not known for this table): the
	 * most CTAs a portable cluster has, the most with
	 * cudaFuncAttributeNonPortableClusterSizeAllowed, and the most blocks
	 * an SM holds in a cluster launch whatever its resources allow. */
	int cluster_size_portable;
	int cluster_size_max;
	int cluster_blocks_per_sm;
};

/* What a kernel launch asks of one SM. */
struct occ_kernel {
	int block_size;          /* threads per block */
	int regs_per_thread;
	uint64_t static_smem;    /* __shared__ arrays, bytes */
	uint64_t dynamic_smem;   /* launch-time shared memory, bytes */
	int barriers;            /* block barriers used; kernels use 1 */
	int carveout;            /* shared-memory carveout preference:
	                            OCC_CARVEOUT_DEFAULT or a percentage 0-100 */
	int optin;               /* nonzero: the kernel raises
	                            cudaFuncAttributeMaxDynamicSharedMemorySize
	                            when it needs more than sharedMemPerBlock */
	int max_threads;         /* __launch_bounds__' maximum threads per
	                            block (cudaFuncAttributes'
	                            maxThreadsPerBlock); 0: no bound */
};

#define OCC_CARVEOUT_DEFAULT (-1)

/* Resources, as bits of occ_result.limiters. */
enum occ_resource {
	OCC_RESOURCE_WARPS = 1 << 0,
	OCC_RESOURCE_REGISTERS = 1 << 1,
	OCC_RESOURCE_SHARED_MEMORY = 1 << 2,
	OCC_RESOURCE_BLOCKS = 1 << 3,
	OCC_RESOURCE_BARRIERS = 1 << 4
};

/* Why a configuration cannot launch (blocks_per_sm == 0). */
enum occ_reason {
	OCC_LAUNCHES = 0,
	OCC_BLOCK_TOO_LARGE,        /* block_size > maxThreadsPerBlock */
	OCC_TOO_MANY_REGS_THREAD,   /* regs_per_thread > max for the arch */
	OCC_TOO_MANY_REGS_BLOCK,    /* the block's registers > regsPerBlock */
	OCC_REGS_DO_NOT_FIT_SM,     /* one block's warps do not fit the file */
	OCC_STATIC_SMEM_TOO_LARGE,  /* static shared memory > sharedMemPerBlock */
	OCC_SMEM_NEEDS_OPTIN,       /* over sharedMemPerBlock, opt-in refused */
	OCC_SMEM_TOO_LARGE,         /* over sharedMemPerBlockOptin */
	OCC_ABOVE_LAUNCH_BOUNDS     /* block_size > the kernel's max_threads */
};

struct occ_result {
	int blocks_per_sm;         /* active blocks per SM */
	int warps_per_block;
	int warps_per_sm;          /* active warps per SM */
	int max_warps_per_sm;
	unsigned limiters;         /* enum occ_resource bits */
	enum occ_reason reason;    /* OCC_LAUNCHES unless blocks_per_sm == 0 */

	/* Blocks per SM each resource alone allows (or OCC_UNLIMITED). */
	int limit_warps;
	int limit_registers;
	int limit_shared_memory;
	int limit_blocks;
	int limit_barriers;

	int regs_per_block;        /* allocated, after granularity */
	uint64_t smem_per_block;   /* allocated, reserved memory included */
	uint64_t smem_per_sm;      /* the carveout the SM runs with */
	int needs_optin;           /* static + dynamic > sharedMemPerBlock */
};

/* Occupancy of one configuration. Returns OCC_ERR_INVALID_INPUT for a
 * block size below 1, negative counts, or a carveout outside -1..100. */
enum occ_status occ_compute(const struct occ_arch *arch,
			    const struct occ_kernel *kernel,
			    struct occ_result *result);

/* Fills *k with a launch's defaults: one barrier, default carveout,
 * opt-in allowed, nothing else used. */
void occ_kernel_init(struct occ_kernel *k);

/* Dynamic shared memory that grows with the block:
 * fixed + per_thread x threads + per_warp x warps, bytes. */
struct occ_smem_growth {
	uint64_t fixed;
	uint64_t per_thread;
	uint64_t per_warp;
};

/* The dynamic shared memory of a block of block_size threads. */
uint64_t occ_smem_growth_at(const struct occ_smem_growth *g,
			    const struct occ_arch *arch, int block_size);

#define OCC_MAX_TIES 64

/* The block size that maximises occupancy. */
struct occ_best {
	int block_size;             /* 0: no block size can launch */
	uint64_t dynamic_smem;      /* at that block size */
	struct occ_result result;   /* at that block size */
	int n_ties;                 /* block sizes with the same occupancy */
	int ties[OCC_MAX_TIES];     /* descending, block_size first */
};

/* Tries every multiple of the warp size up to maxThreadsPerBlock (or the
 * kernel's max_threads, itself tried when it is no multiple), as
 * cudaOccupancyMaxPotentialBlockSize does, and keeps the one with the most
 * resident threads; of equals, the largest, which is what that runtime
 * call returns. k's block size and dynamic shared memory are ignored. */
enum occ_status occ_best_block_size(const struct occ_arch *arch,
				    const struct occ_kernel *kernel,
				    const struct occ_smem_growth *smem,
				    struct occ_best *best);

/* How the block count moves as one input (registers per thread, or dynamic
 * shared memory bytes) changes while the others stay put. */
struct occ_step {
	uint64_t value;        /* the configuration's value */
	int blocks;            /* its blocks per SM */
	uint64_t keep_max;     /* the largest value with as many blocks */
	int has_gain;          /* a smaller value gives more blocks: */
	uint64_t gain_at;      /*   the largest such value */
	int gain_blocks;       /*   and its blocks per SM */
	int has_drop;          /* values above keep_max exist: */
	uint64_t drop_from;    /*   keep_max + 1 */
	uint64_t drop_to;      /*   the last value with drop_blocks */
	int drop_blocks;       /*   fewer blocks (0: cannot launch) */
};

struct occ_headroom {
	struct occ_step regs;  /* registers per thread */
	struct occ_step smem;  /* dynamic shared memory per block, bytes */
};

/* The configuration's headroom and cliffs in registers and shared memory. */
enum occ_status occ_headroom(const struct occ_arch *arch,
			     const struct occ_kernel *kernel,
			     struct occ_headroom *h);

/* The most dynamic shared memory a block of this kernel can take and still
 * keep the blocks per SM it has with kernel->dynamic_smem (the kernel's
 * other inputs unchanged): what cudaOccupancyAvailableDynamicSMemPerBlock
 * is asked for, but counting the shared memory the driver reserves per
 * block (reservedSharedMemPerBlock), which that call and cuda_occupancy.h's
 * cudaOccAvailableDynamicSMemPerBlock leave out, so that their answer
 * loses a block wherever the reserve is not 0. OCC_ERR_INVALID_INPUT as
 * occ_compute, and for a configuration that does not launch. */
enum occ_status occ_max_dynamic_smem(const struct occ_arch *arch,
				     const struct occ_kernel *kernel,
				     uint64_t *bytes);

/* A grid on a whole GPU: blocks fill SMs in waves of sms x blocks_per_sm,
 * and the last wave may be partial. Blocks are taken to run equally long. */
struct occ_waves {
	int64_t grid;             /* blocks launched */
	int sms;
	int64_t per_wave;         /* blocks resident on the GPU at once */
	int64_t full_waves;
	int64_t tail_blocks;      /* blocks of the last, partial wave; 0: none */
	int64_t waves;            /* full waves, plus one if a tail */
	/* The fewest blocks per SM that finish in as many waves: when it is
	 * below blocks_per_sm, the tail costs what the extra occupancy gains. */
	int same_waves_blocks;
	/* The most blocks an SM holds at once: blocks_per_sm, or fewer when
	 * the grid is smaller than a wave, since the hardware spreads a grid's
	 * blocks evenly over the SMs (seen on H100: docs/gpu-validation.md). */
	int max_resident_per_sm;
};

/* Waves of a grid; OCC_ERR_INVALID_INPUT for a grid outside 1..2^31-1,
 * fewer than 1 SM, or a configuration that does not launch. */
enum occ_status occ_waves(const struct occ_result *r, int64_t grid, int sms,
			  struct occ_waves *w);

/* A GPU model from the list beside the tables (gpus.txt). */
#define OCC_GPU_MAX_ALIASES 6
struct occ_gpu {
	char name[48];
	int cc_major, cc_minor;
	int sms;
	char source[256];
	/* Other names it goes by: the device name cudaGetDeviceProperties
	 * and nvidia-smi print ("NVIDIA H100 80GB HBM3"). */
	char aliases[OCC_GPU_MAX_ALIASES][64];
	int n_aliases;
};

/* Finds name in the GPU list at path, as occ_gpus_match does. Returns
 * OCC_ERR_UNKNOWN_ARCH unless exactly one GPU matches; list errors as
 * occ_gpus_load. */
enum occ_status occ_gpu_find(const char *path, const char *name,
			     struct occ_gpu *gpu, struct occ_diag *diag);

/* The whole GPU list, in its order. OCC_ERR_SYNTAX (diag: the line) for a
 * line that is not 'NAME CC SMS SOURCE' or 'alias NAME DEVICE NAME', an
 * alias before its GPU, or a name or alias that reads like another's. */
struct occ_gpus;
enum occ_status occ_gpus_load(const char *path, struct occ_gpus **out,
			      struct occ_diag *diag);
void occ_gpus_free(struct occ_gpus *g);
size_t occ_gpus_count(const struct occ_gpus *g);
const struct occ_gpu *occ_gpus_get(const struct occ_gpus *g, size_t i);

/* What a name matches. Names compare normalised: case ignored, the words
 * NVIDIA, GeForce and Tesla dropped, and everything but letters and
 * digits ("H100 PCIe", "h100-pcie" and "NVIDIA H100 PCIe" are one name).
 * A GPU whose name or alias equals it matches alone; else one whose name
 * or alias ends with it ("1080" is GTX-1080, not GTX-1080-Ti); else every
 * GPU whose name or alias contains it ("4090"; "H100" is two). */
#define OCC_GPU_MAX_MATCHES 8
struct occ_gpu_match {
	size_t n;             /* GPUs in gpu[]: the matches, or suggestions */
	size_t more;          /* matches beyond those */
	int ambiguous;        /* n > 1 matches; else n are the closest names */
	const struct occ_gpu *gpu[OCC_GPU_MAX_MATCHES];
};

/* OCC_OK with m->gpu[0] when exactly one GPU matches. Else
 * OCC_ERR_UNKNOWN_ARCH, and m holds the matches (m->ambiguous) or the
 * GPUs whose names begin most like it (at least two characters). */
enum occ_status occ_gpus_match(const struct occ_gpus *g, const char *name,
			       struct occ_gpu_match *m);

/* ---- Thread-block clusters (compute capability 9.0 on) ---- */

/* A cluster's CTAs run at once on distinct SMs of one GPC; a layout lists
 * the SMs each GPC offers the cluster scheduler. */
#define OCC_MAX_GPCS 128
#define OCC_MAX_SMS_PER_GPC 256

struct occ_gpc_layout {
	int n_gpcs;
	int sms_per_gpc[OCC_MAX_GPCS];  /* in the order given or measured */
	int sms;                        /* their sum */
};

/* Parses a layout: comma-separated entries, each N (one GPC of N SMs) or
 * NxK (K GPCs of N SMs each), e.g. "8,16x5,18x2,2x4". N is 1-256, at most
 * 128 GPCs in all, no spaces. OCC_ERR_INVALID_INPUT with *pos the 1-based
 * column of the first character that is wrong (pos may be NULL). */
enum occ_status occ_layout_parse(const char *s, struct occ_gpc_layout *l,
				 size_t *pos);

/* The layout in that syntax, runs of equal GPCs as NxK; as snprintf. */
int occ_layout_format(const struct occ_gpc_layout *l, char *buf, size_t n);

/* A GPU's layout from the GPU list ("layout NAME LAYOUT SOURCE"). */
struct occ_gpu_layout {
	struct occ_gpc_layout layout;
	char source[256];
};

/* OCC_ERR_UNKNOWN_ARCH when the list has no layout for name (any case);
 * OCC_ERR_SYNTAX (diag: the line) for a malformed layout line; OCC_ERR_IO. */
enum occ_status occ_gpu_layout_find(const char *path, const char *name,
				    struct occ_gpu_layout *out,
				    struct occ_diag *diag);

/* A cluster's shape: x, y, z CTAs; size is their product. */
struct occ_cluster_shape {
	int dims[3];
	int size;
};

/* Parses "N", "AxB" or "AxBxC" (each 1-1024); errors as occ_layout_parse.
 * Whether the size is allowed is occ_cluster_compute's to say. */
enum occ_status occ_cluster_parse(const char *s, struct occ_cluster_shape *c,
				  size_t *pos);

/* What limits the clusters resident at once, as bits: the SM's resources
 * (occ_result.limiters say which), the most blocks an SM holds in a
 * cluster launch, and GPCs (a cluster stays in one: slots are left over in
 * a GPC, or a GPC has fewer SMs than the cluster has CTAs). */
enum occ_cluster_limit {
	OCC_CLUSTER_LIMIT_SM = 1 << 0,
	OCC_CLUSTER_LIMIT_CLUSTER_BLOCKS = 1 << 1,
	OCC_CLUSTER_LIMIT_GPC = 1 << 2
};

/* Why no cluster is resident (max_active_clusters == 0). */
enum occ_cluster_reason {
	OCC_CLUSTER_FITS = 0,
	OCC_CLUSTER_NO_BLOCKS,          /* the kernel does not launch at all */
	OCC_CLUSTER_LARGER_THAN_GPCS    /* more CTAs than any GPC has SMs */
};

struct occ_cluster_result {
	int size, portable;        /* CTAs; size <= clusterSizePortable */
	int blocks_per_sm;         /* an SM's blocks in a cluster launch */
	int max_active_clusters;   /* resident on the GPU at once */
	int64_t active_blocks;     /* max_active_clusters x size */
	unsigned limiters;         /* enum occ_cluster_limit bits */
	enum occ_cluster_reason reason;
	int gpcs_used, gpcs_too_small;  /* holding a cluster; below size */
	int64_t idle_slots;        /* cluster-launch block slots left empty */
	int largest_gpc;           /* SMs */
	int64_t active_warps;      /* active_blocks x warps per block */
	int64_t warp_slots;        /* the GPU's: SMs x max warps per SM */
};

/* Clusters of `size` CTAs of a kernel whose plain occupancy is r, on a GPU
 * of that layout: each GPC of n >= size SMs holds floor(n x b / size), b
 * being r's blocks per SM capped at clusterBlocksPerMultiprocessor (the
 * runtime's rule, which an H200 reaches: docs/cluster-research.md).
 * OCC_ERR_UNSUPPORTED below compute capability 9.0 or for a table without
 * cluster figures; OCC_ERR_INVALID_INPUT for a size outside
 * 1..clusterSizeMax or a bad layout. */
enum occ_status occ_cluster_compute(const struct occ_arch *arch,
				    const struct occ_result *r,
				    const struct occ_gpc_layout *layout,
				    int size, struct occ_cluster_result *out);

/* Occupancy over the whole GPU, percent: active warps over warp slots. */
double occ_cluster_percent(const struct occ_cluster_result *c);

/* potential: what cudaOccupancyMaxPotentialClusterSize answers, the
 * largest size (up to clusterSizePortable, or clusterSizeMax when
 * non-portable sizes are allowed) with a cluster resident (0: none);
 * most_blocks: the size with the most CTAs resident (of equals, the
 * largest). */
struct occ_cluster_best {
	int potential;
	struct occ_cluster_result potential_result;
	int most_blocks;
	struct occ_cluster_result most_blocks_result;
};

enum occ_status occ_cluster_best(const struct occ_arch *arch,
				 const struct occ_result *r,
				 const struct occ_gpc_layout *layout,
				 int nonportable, struct occ_cluster_best *b);

/* A CTA of a measured cluster launch: SM, cluster, and when it started and
 * ended by a clock common to all SMs (%globaltimer, ns). */
struct occ_cta_sample {
	uint64_t start, end;
	uint32_t sm, cluster;
};

struct occ_cluster_residency {
	/* The most clusters resident at once: a cluster is resident from its
	 * first CTA's start to its last CTA's end; one that starts when
	 * another ends is not beside it. */
	int max_clusters;
	int clusters;              /* clusters seen */
	int shared_sm;             /* clusters with two CTAs on one SM */
};

/* Reorders s. OCC_ERR_INVALID_INPUT for n == 0 or a sample ending before
 * it starts; OCC_ERR_NOMEM. */
enum occ_status occ_cluster_residency(struct occ_cta_sample *s, size_t n,
				      struct occ_cluster_residency *out);

/* The layout that launches reveal: SMs below `sms` that ever held CTAs of
 * one cluster are joined into one GPC; GPCs are ordered by their lowest
 * SM. gpc_of (sms entries, or NULL) receives each SM's GPC, -1 for an SM
 * no sample ran on. OCC_ERR_INVALID_INPUT for an SM number >= sms or more
 * than OCC_MAX_GPCS groups; OCC_ERR_NOMEM. */
enum occ_status occ_layout_from_samples(const struct occ_cta_sample *s,
					size_t n, int sms,
					struct occ_gpc_layout *l, int *gpc_of);

const char *occ_cluster_limit_name(enum occ_cluster_limit bit);
const char *occ_cluster_reason_name(enum occ_cluster_reason reason);

/* ---- Real kernels: the resource usage the toolchain reports ---- */

struct occ_usage {
	char mangled[2048];     /* the kernel's symbol */
	int cc_major, cc_minor; /* compiled for */
	int regs;
	uint64_t static_smem;
	int barriers;           /* -1: not reported (cuobjdump) */
	uint64_t stack;         /* stack frame, bytes */
	uint64_t spill_stores, spill_loads;  /* bytes; ptxas only */
	int line;               /* where the kernel's report ends */
	int from_cuobjdump;     /* else from ptxas */
	char arch[16];          /* the target as written: "sm_90a" */
};

/* Called for each kernel; a nonzero return stops the parse and is
 * returned. */
typedef int (*occ_usage_fn)(const struct occ_usage *u, void *ctx);

/* Reads 'nvcc -Xptxas -v' or 'cuobjdump --dump-resource-usage' output and
 * calls fn for each kernel as soon as its report is complete. Returns
 * OCC_ERR_SYNTAX (diag: the line) for a malformed report, a truncated one
 * (a kernel without its usage line), or input holding no kernel report at
 * all; OCC_ERR_RANGE (diag: the line, the figure as key, the limit) for a
 * figure above what any GPU allows (registers above 1024, barriers above
 * OCC_MAX_BARRIERS_PER_BLOCK, shared memory above OCC_BYTES_MAX, a kernel
 * name longer than occ_usage.mangled holds); OCC_ERR_LINE_TOO_LONG for a
 * line of 8192 characters or more; OCC_ERR_IO when reading fails. */
enum occ_status occ_usage_parse(FILE *f, const char *name, occ_usage_fn fn,
				void *ctx, int *fn_status,
				struct occ_diag *diag);

/* occ_usage_parse on the file at path, which must be a regular file
 * (OCC_ERR_NOT_REGULAR otherwise, never blocking on a FIFO); OCC_ERR_IO
 * with errno set when it cannot be opened. */
enum occ_status occ_usage_parse_file(const char *path, occ_usage_fn fn,
				     void *ctx, int *fn_status,
				     struct occ_diag *diag);

/* ---- Kernels from binaries: cubins, fatbins and host ELF files ---- */

/* How a fatbin entry was stored. */
enum occ_bin_compression {
	OCC_BIN_STORED = 0,
	OCC_BIN_LZ4,            /* nvcc -compress-mode=speed */
	OCC_BIN_ZSTD            /* default, balance and size */
};

/* Where a kernel was found, outermost first. */
enum occ_bin_container {
	OCC_BIN_CUBIN = 1,      /* a bare cubin (CUDA ELF) */
	OCC_BIN_FATBIN,         /* a bare fatbin */
	OCC_BIN_HOST_ELF        /* an object, executable or shared library */
};

/* One kernel of one architecture, as the binary records it. Fields the
 * binary does not hold are -1 (see each). */
struct occ_bin_kernel {
	const char *mangled;    /* valid during the callback only */
	/* The target as compiled, suffix kept: "sm_90a", "sm_120f"; for a PTX
	 * entry "compute_90". */
	char arch[16];
	int cc_major, cc_minor;
	int ptx_only;           /* PTX: resources are decided by the driver's
	                           JIT; regs, smem, barriers, stack are -1 */
	int regs;
	/* The kernel's .nv.shared section: its static shared memory, plus,
	 * from compute capability 9.0, the driver's reserved 1024 bytes (as
	 * cuobjdump's SHARED); occ_bin_static_smem takes the reserve out. */
	int64_t shared_section;
	/* From a relocatable cubin (nvcc -rdc): device code still to be
	 * linked, whose shared section does not include the reserve yet. */
	int relocatable;
	int barriers;           /* block barriers (EIATTR_NUM_BARRIERS) */
	int64_t frame;          /* stack frame, bytes per thread */
	int64_t stack;          /* cumulative stack size (calls included) */
	/* __launch_bounds__: its maximum threads (0: none) as x, y, z, and
	 * the minimum blocks per SM (0: none). A cubin does not record the
	 * minimum (ptxas folds it into max_regs): -1 there. */
	int max_threads[3];
	int min_blocks;
	int req_threads[3];     /* an exact block shape required; 0: none */
	int max_regs;           /* register cap ptxas honoured; 0: none */
	int cluster[3];         /* __cluster_dims__; 0: none */
	int max_cluster_rank;   /* 0: none */
	/* Where: the outer container, the fatbin (byte offset in the file,
	 * -1 when none) and how the entry was stored. */
	enum occ_bin_container container;
	int64_t fatbin_offset;
	enum occ_bin_compression compression;
	/* The file it was read from (occ_bin_read's name; in a walk, the
	 * path): valid during the callback only. */
	const char *file;
};

/* What is wrong with a binary: the file, the byte offset (in the file) of
 * the part at fault, and a sentence naming it. */
struct occ_bin_diag {
	char file[512];
	uint64_t offset;
	char what[256];
};

/* Called for each kernel; a nonzero return stops reading and is given
 * back through fn_status. */
typedef int (*occ_bin_fn)(const struct occ_bin_kernel *k, void *ctx);

/* Whether buf starts like something occ_bin_read reads: an ELF file or a
 * fatbin. */
int occ_bin_sniff(const void *buf, size_t len);

/* Reads every kernel of a cubin, fatbin or host ELF file held in memory,
 * recognised by content. Never reads outside buf. Returns
 * OCC_ERR_NOT_BINARY for other data, OCC_ERR_CORRUPT for a truncated or
 * malformed one (nothing past the fault is reported), OCC_ERR_UNSUPPORTED
 * for an entry compressed with an algorithm this build cannot decompress
 * (Zstandard without libzstd), OCC_ERR_NOMEM; diag says what and where.
 * name is the file name put in diag. */
enum occ_status occ_bin_read(const void *buf, size_t len, const char *name,
			     occ_bin_fn fn, void *ctx, int *fn_status,
			     struct occ_bin_diag *diag);

/* The same for a file, which must be a regular file (a FIFO or device is
 * refused without blocking): OCC_ERR_IO when it cannot be read. */
enum occ_status occ_bin_read_file(const char *path, occ_bin_fn fn,
				  void *ctx, int *fn_status,
				  struct occ_bin_diag *diag);

/* Called for each file of a directory that could not be read; reading
 * goes on unless it returns nonzero. */
typedef int (*occ_bin_warn_fn)(enum occ_status st,
			       const struct occ_bin_diag *diag, void *ctx);

struct occ_bin_walk_stats {
	int files_read;         /* binaries read */
	int files_skipped;      /* files that are no binary, and symlinks */
	int files_bad;          /* given to warn: unreadable, corrupt, or
	                           not a regular file (a FIFO) */
};

/* Reads every binary under dir (a Triton cache, a build tree), in name
 * order, directories depth-first; symbolic links are not followed. Bad
 * files go to warn and the walk goes on. Returns OCC_ERR_IO when dir
 * itself cannot be read. */
enum occ_status occ_bin_walk(const char *dir, occ_bin_fn fn,
			     occ_bin_warn_fn warn, void *ctx, int *fn_status,
			     struct occ_bin_walk_stats *stats,
			     struct occ_bin_diag *diag);

/* Whether this build decompresses Zstandard (fatbins nvcc writes by
 * default and with -compress-mode=size or balance). */
int occ_bin_has_zstd(void);

/* The static shared memory ptxas reports (cudaFuncGetAttributes'
 * sharedSizeBytes): the section less the reserve where the table says the
 * cubin includes it. */
uint64_t occ_bin_static_smem(const struct occ_arch *arch,
			     const struct occ_bin_kernel *k);

/* ---- Global memory: how a warp's access becomes transactions ---- */

enum occ_access_op { OCC_ACCESS_LOAD, OCC_ACCESS_STORE };

/* One warp-wide load or store instruction: active lane i (of the first
 * `threads`) touches element offset + (i ^ lane_xor) * stride of an array
 * whose base is aligned to a cache line. A broadcast is stride 0. */
struct occ_access {
	enum occ_access_op op;
	int elem_size;           /* bytes: 1, 2, 4, 8 or 16 */
	uint64_t stride;         /* elements between consecutive lanes */
	uint64_t offset;         /* elements from the aligned base */
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
 * it. Thread t of block b (threadIdx t, blockIdx b) uses the index
 * i = b x block + (t ^ lane_xor) and touches element
 * offset + (i / group) x stride of its array; it takes part when its lane
 * (t % 32) is below access.threads. So x[i] is stride 1, x[i + 1] offset 1,
 * x[4 * i] stride 4, x[3] stride 0 offset 3, and x[i / 32] (a warp's own
 * element) stride 1 group 32. Within one warp this is occ_access's
 * pattern. Each array starts on a cache line; accesses naming the same
 * array share its memory (a read-modify-write touches the same sectors
 * twice), different arrays never alias. */
struct occ_kernel_access {
	struct occ_access access;
	unsigned group;          /* 1 to 32 consecutive threads per index */
	int array;               /* any number; equal numbers, same array */
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
	OCC_TRAFFIC_COUNT_OVERFLOW     /* a total does not fit 64 bits */
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
 * repeating span of threads), whatever the thread count.
 * OCC_ERR_INVALID_INPUT with t->fault saying why; OCC_ERR_UNKNOWN_ARCH
 * when the table has no sector and line sizes; OCC_ERR_UNSUPPORTED when
 * one array is accessed with two different non-zero steps (x[i] and
 * x[2 * i]) over too many threads to list; OCC_ERR_NOMEM. */
enum occ_status occ_traffic_compute(const struct occ_arch *arch,
				    const struct occ_launch *launch,
				    const struct occ_kernel_access *acc,
				    size_t n, struct occ_traffic *t);

/* A kernel's global accesses written as C: statements separated by ';',
 * each NAME[INDEX] an access. One left of '=' is a store, one left of a
 * compound assignment ('+=', ...) a load and a store, every other a load:
 * "z[i] = x[i] + y[i]" is add1, "C[i] = A[3] + B[i]" two loads and a
 * store. INDEX is a sum of constants and at most one term in the thread's
 * index: i, (i ^ X), with a factor K (K * i, i * K) and a divisor G
 * (i / G); so "4*i", "i + 1", "(i^1)", "i/32", "3". The index may have
 * any name (i, x, tid), the same in every access. Each distinct NAME is
 * an array. Accesses get 4-byte elements and 32 active lanes; the caller
 * sets other element sizes per array (elem_size), or lanes. */
#define OCC_MAX_KERNEL_ACCESSES 64
#define OCC_MAX_KERNEL_ARRAYS 32

struct occ_kernel_text {
	struct occ_kernel_access acc[OCC_MAX_KERNEL_ACCESSES];
	size_t n;
	char names[OCC_MAX_KERNEL_ARRAYS][32];   /* by array number */
	int n_arrays;
};

/* OCC_ERR_SYNTAX, with *where the offset of the first character not
 * understood, for text that is not such a list; OCC_ERR_INVALID_INPUT
 * (*where likewise) for a constant that does not fit, a divisor that is
 * not a power of two up to 32, an X above 31, a name over 31 characters,
 * or more accesses or arrays than the limits. */
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

/* ---- Measured residency: what a launch's warps recorded ---- */

/* One warp of a launch, as the calibrated kernel records it: the SM it ran
 * on, its block, and the SM's clock (clock64) when it started and when it
 * finished its work. Clocks compare only within one SM. */
struct occ_warp_sample {
	uint64_t start, end;
	uint32_t sm, block;
};

struct occ_residency {
	/* The most blocks resident at once on any SM. A block's interval runs
	 * from its first warp's start to its last warp's end; one that starts
	 * when another ends is not counted as beside it. */
	int max_blocks_per_sm;
	int sms_used;               /* SMs that ran at least one warp */
	/* Achieved occupancy as Nsight Compute's
	 * sm__warps_active.avg.pct_of_peak_sustained_active: warp-cycles over
	 * all SMs, over max warps per SM x cycles the SMs had a warp. */
	uint64_t warp_cycles;
	uint64_t active_cycles;
	int max_warps_per_sm;
};

/* Analyses n warp samples (reordered in place). OCC_ERR_INVALID_INPUT for
 * n == 0, max_warps_per_sm < 1, or a sample that ends before it starts;
 * OCC_ERR_NOMEM. */
enum occ_status occ_residency(struct occ_warp_sample *w, size_t n,
			      int max_warps_per_sm, struct occ_residency *out);

/* Achieved occupancy in percent. */
double occ_residency_percent(const struct occ_residency *r);

/* Occupancy in percent of the SM's warp slots. */
double occ_percent(const struct occ_result *r);

/* Names of resources and reasons, as used in occcalc's output. */
const char *occ_resource_name(enum occ_resource bit);
const char *occ_reason_name(enum occ_reason reason);

/* ---- Architecture tables ---- */

/* Reads one table file. Data files (tables, the GPU list) must be regular
 * files (OCC_ERR_NOT_REGULAR) with lines shorter than 1024 characters
 * (OCC_ERR_LINE_TOO_LONG). */
enum occ_status occ_arch_load(const char *path, struct occ_arch *arch,
			      struct occ_diag *diag);

/* A set of tables, read from a directory of '*.arch' files. */
struct occ_tables;

enum occ_status occ_tables_load(const char *dir, struct occ_tables **out,
				struct occ_diag *diag);
/* Where 'make install' put the tables (and gpus.txt): the library's
 * $(datadir)/occcalc/arch-tables, which 'pkg-config --variable=
 * archtablesdir occcalc' also prints. occ_tables_load(occ_tables_dir(),
 * ...) reads them without a path written into the program; occcalc lets
 * $OCCCALC_TABLES override it, and a program may do the same. */
const char *occ_tables_dir(void);
void occ_tables_free(struct occ_tables *t);
size_t occ_tables_count(const struct occ_tables *t);
/* Tables in ascending compute capability. */
const struct occ_arch *occ_tables_get(const struct occ_tables *t, size_t i);
const struct occ_arch *occ_tables_find(const struct occ_tables *t,
				       int major, int minor);

/* Parses "sm_90", "sm_90a", "compute_90", "90", "9.0". */
enum occ_status occ_arch_parse_name(const char *s, int *major, int *minor);

/* The table keys, for listing a table's values (--info). */
enum occ_key_type { OCC_KEY_CC, OCC_KEY_STRING, OCC_KEY_INT, OCC_KEY_BYTES,
		    OCC_KEY_BYTES_LIST };

struct occ_key {
	const char *name;
	enum occ_key_type type;
	int required;
};

size_t occ_arch_key_count(void);
const struct occ_key *occ_arch_key(size_t i);
/* Whether the table gave the key a value (optional keys may be unset). */
int occ_arch_has(const struct occ_arch *arch, const struct occ_key *key);
/* Integer value of an OCC_KEY_INT or OCC_KEY_BYTES key. */
uint64_t occ_arch_value(const struct occ_arch *arch, const struct occ_key *key);
/* Sets it (other key types are left alone). */
void occ_arch_set(struct occ_arch *arch, const struct occ_key *key,
		  uint64_t value);

const char *occ_strerror(enum occ_status status);

/* ---- Reading numbers ---- */

enum occ_parse_status { OCC_PARSE_OK = 0, OCC_PARSE_SYNTAX, OCC_PARSE_RANGE };

/* A non-negative decimal integer with an optional binary suffix:
 * K, KB, KiB (x1024) or M, MB, MiB (x1048576), as the tables and
 * occcalc's options write sizes. OCC_PARSE_RANGE beyond 64 bits. */
enum occ_parse_status occ_parse_size(const char *s, uint64_t *out);

#ifdef __cplusplus
}
#endif

#endif
