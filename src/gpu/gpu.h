/* gpu.h - occcalc on a GPU (internal to the command line): the machine's
 * devices through the CUDA runtime, the occupancy API on calibrated
 * kernels, and launches that measure. Built without the runtime, every
 * call fails with a message saying so. */
#ifndef OCC_GPU_H
#define OCC_GPU_H

#include <stddef.h>
#include <stdint.h>

#include "occcalc.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- What the calls on the GPU share (calib.c) ---- */

/* Register counts a thread can have. */
#define GPU_MAX_REGS 255
/* The calibrated kernel's PTX targets (calib.h): compute_75, compute_90. */
#define GPU_CALIB_TARGETS 2

/* The state of the GPU layer, owned by its caller and passed to every
 * call: the device the calls run on, and the calibrated kernels the
 * driver has compiled, one per PTX target and register count, kept
 * loaded because compiling one takes tens of milliseconds and a sweep
 * asks the same counts again and again. All zeros is an empty context
 * for device 0; the owner sets device, and gpu_ctx_release unloads what
 * the calls loaded. */
struct gpu_ctx {
	int device;
	void *library[GPU_CALIB_TARGETS][GPU_MAX_REGS + 1];  /* cudaLibrary_t */
	void *kernel[GPU_CALIB_TARGETS][GPU_MAX_REGS + 1];   /* cudaKernel_t */
	/* A green context the calls run in (gpu_partition_enter), its
	 * CUcontext and stream, and the driver's calls that keep it. */
	void *green, *green_ctx, *green_stream;
	void *set_current, *green_destroy, *stream_destroy;
};

void gpu_ctx_release(struct gpu_ctx *g);

/* ---- A part of the GPU: a green context (gpu_partition.c) ---- */

/* What the driver made: cuDevSmResourceSplitByCount's groups, their SMs
 * and the remainder's; the green context's SMs
 * (cuGreenCtxGetDevResource) and cudaDevAttrMultiProcessorCount in it. */
struct gpu_partition {
	int groups, group_sms, remaining_sms;
	int part_sms, sm_attr;
};

/* Splits the device's SMs (flags: enum occ_partition_flag, the driver's
 * bits), makes group `group` (OCC_PARTITION_REMAINING: the remainder) a
 * green context and keeps it current for the calls that follow, until
 * gpu_partition_leave (gpu_ctx_release leaves it too). 0, or -1 with a
 * message. */
int gpu_partition_enter(struct gpu_ctx *g, unsigned flags, int min_sms,
			int group, struct gpu_partition *p, char *err,
			size_t n);
/* Makes the green context current again after a cudaSetDevice. */
int gpu_partition_resume(struct gpu_ctx *g, char *err, size_t n);
void gpu_partition_leave(struct gpu_ctx *g);

/* ---- The GPUs of this machine (device.c) ---- */

struct occ_device {
	int index;
	char name[256];
	int cc_major, cc_minor;
	int sms;
	uint64_t total_mem;
	uint64_t l2_cache, persisting_l2_max, access_policy_max_window;
	int bus_width;               /* bits */
	int clock_khz, mem_clock_khz;
	/* What the model takes (occ_target_device), in cudaDeviceProp's
	 * names. */
	struct occ_launch_device props;
	int mig;                     /* a MIG instance, not a whole GPU */
	int mps;                     /* reached through an MPS server */
	/* CUDA_MPS_ACTIVE_THREAD_PERCENTAGE of this process's environment
	 * (1-100), or 0 where it is not set or not a percentage. */
	int mps_pct;
	/* Set by the command line (session_sm_limit): the whole GPU's SMs,
	 * from the GPU list by name (0: not known), and what limits the
	 * SMs this process has. */
	int gpu_sms;
	enum sm_limit {
		SM_LIMIT_NONE,
		SM_LIMIT_MIG,            /* the instance's SMs */
		SM_LIMIT_MPS,            /* an MPS client, all the SMs */
		SM_LIMIT_MPS_CLIENT,     /* its CUDA_MPS_ACTIVE_THREAD_PERCENTAGE */
		SM_LIMIT_MPS_SERVER      /* its server's percentage, lower */
	} sm_limit;
};

/* 0, or -1 with a message in err. */
int device_count(int *count, char *err, size_t n);
int device_query(int index, struct occ_device *d, char *err, size_t n);

/* ---- On the GPU: the occupancy API and measurement (measure.c) ---- */

/* Warps one measurement records at most (24 bytes each). */
#define GPU_MAX_SAMPLES (1 << 22)

struct gpu_measured {
	int64_t grid;                  /* in: blocks launched */
	uint64_t spin_cycles;          /* in: each warp's work, SM cycles */
	struct occ_residency residency;
	double ms;                     /* the whole measurement, wall clock */
};

/* 0, or -1 with a message in err. */
int gpu_kernel_regs(struct gpu_ctx *g, int regs, int *got, char *err,
		    size_t n);
int gpu_api_blocks(struct gpu_ctx *g, const struct occ_kernel *k, int *blocks,
		   char *err, size_t n);
/* cudaOccupancyAvailableDynamicSMemPerBlock: the runtime's most dynamic
 * shared memory per block that still lets `blocks` blocks of k reside on
 * an SM, the kernel allowed as much dynamic memory as k's opt-in permits. */
int gpu_api_dynamic_smem(struct gpu_ctx *g, const struct occ_kernel *k,
			 int blocks, uint64_t *bytes, char *err, size_t n);
int gpu_measure(struct gpu_ctx *g, const struct occ_kernel *k,
		int max_warps_per_sm, struct gpu_measured *m, char *err,
		size_t n);
/* A warp access pattern launched on the GPU: one access per warp. */
struct access_measured {
	uint64_t warps;
	double us;             /* the launch, after a warm-up */
};

/* A buffer re-read beside streaming traffic, without and with the
 * plan's access-policy window: the best of a few runs of each. */
struct persist_measured {
	int launches;          /* each re-reads the data, streams an L2's worth */
	uint64_t streamed;     /* bytes each launch streams */
	double ms_normal, ms_persisting;
};

int gpu_access_measure(struct gpu_ctx *g, const struct occ_access *acc,
		       struct access_measured *m, char *err, size_t n);
int gpu_persist_measure(struct gpu_ctx *g, const struct occ_l2 *l2,
			const struct occ_l2_plan *p, uint64_t data, int sms,
			struct persist_measured *m, char *err, size_t n);

/* ---- Code the user built, through the driver API (module.c) ---- */

/* What the driver says of one function: cuFuncGetAttribute, and
 * cuOccupancyMaxActiveBlocksPerMultiprocessor at a block size. */
struct gpu_func {
	int regs, static_smem, local, max_threads;
	int blocks;
};

struct gpu_loader;

/* The driver, reached through cudaGetDriverEntryPointByVersion (the
 * runtime is linked statically, libcuda is not), on g's device: NULL
 * with a message in err. */
struct gpu_loader *gpu_loader_open(struct gpu_ctx *g, char *err, size_t n);
/* Loads image (a cubin or a fatbin, as cuModuleLoadData takes them;
 * the last one stays loaded) and asks about function `mangled` at
 * `block` threads (0: no occupancy asked, out->blocks -1) (and `dyn` bytes of dynamic shared memory, allowed
 * with the opt-in). 0; 2 when the image does not load, 1 when it lacks
 * the function (err says why); -1 when the driver fails otherwise. */
int gpu_loader_query(struct gpu_loader *l, const void *image,
		     const char *mangled, int block, uint64_t dyn,
		     struct gpu_func *out, char *err, size_t n);
/* Loads images (in the order queries will ask for them) ahead, on
 * `threads` threads, a few at a time; a query for one of them waits for
 * it (calling tick, if not NULL, five times a second with how many are
 * loaded), one for another image loads it then. 0, or -1 (nothing
 * ahead). */
int gpu_loader_preload(struct gpu_loader *l, const void *const *images,
		       size_t n, int threads,
		       void (*tick)(void *ctx, size_t done, size_t total),
		       void *tick_ctx);
/* Of the images given to gpu_loader_preload, how many are loaded. */
void gpu_loader_progress(const struct gpu_loader *l, size_t *done,
			 size_t *total);
/* Unloads the last image and stops loading ahead: the memory of the
 * images is about to be reused. */
void gpu_loader_forget(struct gpu_loader *l);
void gpu_loader_close(struct gpu_loader *l);

#ifdef __cplusplus
}
#endif

#endif
