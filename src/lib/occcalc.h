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
 * OCC_ERR_RANGE and OCC_ERR_LINE_TOO_LONG, the most that is allowed;
 * offset, where a reader gives it (a JSON document that is not read in
 * lines), the byte (uncompressed) where the problem was seen, 0 else. */
struct occ_diag {
	char file[512];
	int line;
	char key[64];
	uint64_t limit;
	uint64_t offset;
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
	/* Its L2, from an 'l2' line of the list (0: not known): bytes of
	 * l2CacheSize, persistingL2CacheMaxSize, accessPolicyMaxWindowSize,
	 * and where they come from. sms is 0 where the list does not know
	 * the shipping part's SM count. */
	uint64_t l2_size, l2_persisting_max, l2_window_max;
	char l2_source[256];
	/* Its GPCs as NVIDIA publishes them, from a 'gpcs' line (0: not
	 * known), and the most SMs one GPC has (0: no such line), for the
	 * most clusters a GPU without a measured layout may hold
	 * (occ_layout_most_clusters). */
	int gpcs, sms_per_gpc_max;
	char gpcs_source[256];
};

/* Finds name in the GPU list at path, as occ_gpus_match does. Returns
 * OCC_ERR_UNKNOWN_ARCH unless exactly one GPU matches; list errors as
 * occ_gpus_load. */
enum occ_status occ_gpu_find(const char *path, const char *name,
			     struct occ_gpu *gpu, struct occ_diag *diag);

/* The whole GPU list, in its order. OCC_ERR_SYNTAX (diag: the line) for a
 * line that is not 'NAME CC SMS SOURCE', 'alias NAME DEVICE NAME', 'l2 ...',
 * 'gpcs ...' or 'layout NAME LAYOUT SOURCE', an alias before its GPU, or a
 * name or alias that reads like another's; diag.key "layout" for a
 * malformed layout line, "NAME", "DEVICE NAME" or "SOURCE" (diag.limit:
 * the most characters) for one too long, "GPUs" (diag.limit) past
 * OCC_GPUS_MAX GPUs. Time linear in the list's lines; memory within
 * OCC_GPUS_MAX GPUs (about 1.3 KB each). */
#define OCC_GPUS_MAX 8192
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
/* NULL when the architecture's values are each within their key's range
 * and agree with each other as the model needs (what a table is checked
 * for when read); else the name of the first key that does not, its
 * cudaDeviceProp name where it has one. Check an architecture built or
 * changed by hand (occ_arch_set, a device's properties) before
 * occ_compute: the model divides by some of these values. */
const char *occ_arch_check(const struct occ_arch *arch);

const char *occ_strerror(enum occ_status status);
/* Its name as the enum spells it ("OCC_ERR_RANGE"); NULL past the last. */
const char *occ_status_name(enum occ_status status);

/* ---- Reading numbers ---- */

enum occ_parse_status { OCC_PARSE_OK = 0, OCC_PARSE_SYNTAX, OCC_PARSE_RANGE,
			 OCC_PARSE_FRACTION };

/* A non-negative decimal integer with an optional binary suffix:
 * K, KB, KiB (x1024) or M, MB, MiB (x1048576), as the tables and
 * occcalc's options write sizes. OCC_PARSE_RANGE beyond 64 bits. */
enum occ_parse_status occ_parse_size(const char *s, uint64_t *out);

/* As occ_parse_size, with a decimal fraction before the suffix, as
 * NVIDIA's documents write cache sizes ("31.25M" is 32768000): at most 9
 * digits after the point. OCC_PARSE_FRACTION when the whole is not a
 * whole number of bytes ("0.1K" would be 102.4). */
enum occ_parse_status occ_parse_size_decimal(const char *s, uint64_t *out);

#ifdef __cplusplus
}
#endif

/* The rest of the API, by subject. */
#include "occcalc/kernels.h"
#include "occcalc/kernel_input.h"
#include "occcalc/memory.h"
#include "occcalc/cluster.h"
#include "occcalc/partition.h"
#include "occcalc/launches.h"
#include "occcalc/launch_target.h"
#include "occcalc/launch_compare.h"
#include "occcalc/target.h"
#include "occcalc/rows.h"
#include "occcalc/fields.h"
#include "occcalc/check.h"
#include "occcalc/config.h"
#include "occcalc/cluster_row.h"
#include "occcalc/partition_row.h"
#include "occcalc/lists.h"
#include "occcalc/launch_rows.h"
#include "occcalc/launch_summary.h"
#include "occcalc/query.h"
#include "occcalc/sweep.h"
#include "occcalc/query_sweep.h"
#include "occcalc/row_compare.h"
#include "occcalc/query_row.h"
#include "occcalc/kernel_row.h"

#endif
