/*
 * occcalc/launches.h - kernel launches as a program ran them: the records
 * of occcalc's trace files (occcalc --trace, docs/trace-format.md) and of
 * PyTorch profiler (Kineto) Chrome traces, read as streams, and each
 * launch's occupancy on the GPU it ran on.
 * Part of the occcalc API: include <occcalc.h>, which includes this.
 */
#ifndef OCCCALC_LAUNCHES_H
#define OCCCALC_LAUNCHES_H

#ifndef OCCCALC_H
#error "include <occcalc.h>, not occcalc/launches.h"
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* A GPU as a trace describes it, in cudaDeviceProp's names; 0 where the
 * trace does not give the property (Kineto gives fewer than occcalc's
 * trace: no maxBlocksPerMultiProcessor, reservedSharedMemPerBlock). */
struct occ_launch_device {
	int device;                             /* the trace's device id */
	char name[256];
	char uuid[80];
	int major, minor;
	int multiProcessorCount;
	int warpSize;
	int maxThreadsPerMultiProcessor;
	int maxThreadsPerBlock;
	int maxBlocksPerMultiProcessor;
	int regsPerMultiprocessor;
	int regsPerBlock;
	uint64_t sharedMemPerMultiprocessor;
	uint64_t sharedMemPerBlock;
	uint64_t sharedMemPerBlockOptin;
	uint64_t reservedSharedMemPerBlock;
	uint64_t l2CacheSize;
};

/* Where a launch came from. */
enum occ_launch_format {
	OCC_LAUNCH_FORMAT_OCCCALC = 1,   /* occcalc --trace's JSON Lines */
	OCC_LAUNCH_FORMAT_KINETO         /* a PyTorch profiler Chrome trace */
};

/* The shared-memory limit the kernel was launched under
 * (CUpti_FuncShmemLimitConfig). */
enum occ_smem_limit {
	OCC_SMEM_LIMIT_UNKNOWN = 0,
	OCC_SMEM_LIMIT_DEFAULT,          /* sharedMemPerBlock (48 KB) */
	OCC_SMEM_LIMIT_OPTIN             /* up to sharedMemPerBlockOptin */
};

enum occ_launch_type {
	OCC_LAUNCH_TYPE_UNKNOWN = 0,
	OCC_LAUNCH_TYPE_REGULAR,
	OCC_LAUNCH_TYPE_COOPERATIVE_SINGLE,
	OCC_LAUNCH_TYPE_COOPERATIVE_MULTI,
	OCC_LAUNCH_TYPE_CBL_COMMANDLIST
};

/* One kernel launch. Names point into the reader's memory and last until
 * the callback returns. A figure the trace does not hold is -1 (Kineto
 * holds no cluster, no static/dynamic split, no carveout). */
struct occ_launch_record {
	enum occ_launch_format format;
	const char *kernel;          /* demangled name */
	const char *mangled;         /* "" where the trace has none */
	int64_t line;                /* line of the record (JSON Lines) */
	uint64_t offset;             /* byte offset of the record, uncompressed */
	int device;
	int64_t context, stream, correlation;
	int64_t grid[3], block[3];
	int64_t cluster[3];          /* {0,0,0}: no cluster; -1s: not recorded */
	int regs;                    /* registers per thread */
	int64_t static_smem;         /* bytes per block; -1: not split */
	int64_t dynamic_smem;        /* -1: not split */
	int64_t smem_total;          /* static + dynamic: always given */
	int64_t local_mem_per_thread, local_mem_total;
	enum occ_smem_limit smem_limit;
	int64_t smem_executed;       /* shared memory per SM it ran with */
	int carveout_requested;      /* percent; -1: none asked */
	int64_t cache_config;
	enum occ_launch_type launch_type;
	int64_t graph_id, graph_node_id;   /* 0 outside a CUDA graph */
	int64_t max_active_clusters;       /* CUPTI's; 0: not given */
	int64_t start_ns, end_ns;
	/* Measured by occcalc --trace --achieved (CUPTI's range profiler, one
	 * range per launch): sm__warps_active.avg.pct_of_peak_sustained_active,
	 * -1 where not measured; and the launch's duration as the profiler
	 * timed it (gpu__time_duration.sum), -1 where not: CUPTI's record
	 * of a profiled launch holds no timestamps (start_ns, end_ns 0). */
	double achieved_occupancy_pct;
	int64_t profiled_duration_ns;
	/* Kineto's own estimate beside it ("est. achieved occupancy %",
	 * "blocks per SM", "warps per SM"): has_kineto's OCC_KINETO_ bits
	 * say which the trace held. */
	unsigned has_kineto;
	double kineto_est_pct, kineto_blocks_per_sm, kineto_warps_per_sm;
	/* The operator that launched it: a Kineto trace's cpu_op of the same
	 * External id (its name; its "Input Dims" as JSON text, up to 4 KB, where
	 * record_shapes kept them; the innermost nn.Module it ran in where
	 * with_modules or with_stack recorded them, as "nn.Module: NAME"),
	 * or an occcalc trace's "op". NULL where not known. */
	const char *op, *op_shapes, *module;
	int64_t external_id;         /* Kineto's "External id"; -1: none */
};

#define OCC_KINETO_EST 1u
#define OCC_KINETO_BLOCKS 2u
#define OCC_KINETO_WARPS 4u

/* What the reader saw of a file, beyond its launches. */
struct occ_launch_file {
	enum occ_launch_format format;
	int complete;            /* occcalc trace: its end record was read */
	int cut_short;           /* occcalc trace: a last line without its
	                            newline skipped; Kineto trace: its JSON
	                            ends inside traceEvents (the file was cut
	                            short), the launches whose events ended
	                            before the cut read, bytes where it ends */
	int64_t pid;             /* occcalc trace: the process; -1 unknown */
	int64_t declared;        /* the end record's launch count; -1 */
	int64_t dropped;         /* records CUPTI could not deliver; -1 */
	uint64_t launches;       /* launches delivered */
	uint64_t skipped;        /* records of a type the reader skips */
	uint64_t devices;        /* device records delivered (a Kineto
	                            trace read again for its devices:
	                            each time) */
	uint64_t bytes;          /* uncompressed bytes read */
	uint64_t after_end;      /* occcalc trace: records after its end
	                            record (a second end record among them),
	                            read as the others; the end record does
	                            not count them */
	uint64_t kernels_left_out;   /* Kineto trace: events that look like a
	                            kernel's (its arguments, or a category
	                            spelt otherwise) but are no complete
	                            ("ph": "X") "kernel" event: not read */
	uint64_t estimates_out_of_range;   /* Kineto trace: launches whose
	                            estimate of achieved occupancy is not a
	                            percentage (0 to 100): not taken (Kineto
	                            writes -100 where it has none) */
	uint64_t ops;            /* Kineto trace: cpu_op events kept */
	uint64_t ops_dropped;    /* Kineto trace: cpu_op events not kept, past
	                            OCC_LAUNCH_OPS_MAX (or its strings' bound) */
	uint64_t kernels_without_op;   /* Kineto trace: launches whose
	                            External id names no cpu_op kept */
	/* The input is no trace at all (an Nsight Compute CSV, a Chrome
	 * trace of another tool, text): the read fails OCC_ERR_SYNTAX, and
	 * diag's key says what it is. */
	int not_trace;
	/* Kineto trace: PyTorch's (its keys, its CPU events), and no
	 * kernel event in it: recorded without ProfilerActivity.CUDA. */
	int no_kernel_events;
	/* Kineto trace: its deviceProperties come after its traceEvents on
	 * input that cannot be read twice (a pipe): the launches before
	 * them were delivered with no device. A regular file is read again,
	 * its devices first, and gets them all (devices_reread). */
	int devices_late, devices_reread;
};

/* Called for each device record and each launch, in file order; device
 * is NULL for a launch on a device the trace has not described (yet). A
 * status other than OCC_OK stops the read, which returns it. */
struct occ_launch_callbacks {
	enum occ_status (*device)(void *ctx, const struct occ_launch_device *d);
	enum occ_status (*launch)(void *ctx, const struct occ_launch_record *l,
				  const struct occ_launch_device *d);
};

/* The longest line of an occcalc trace the reader takes: memory stays
 * bounded whatever the file's size. */
#define OCC_LAUNCH_LINE_MAX (1u << 20)
/* The most operators (cpu_op events) a Kineto trace's read keeps, to give
 * each launch its op: memory stays bounded (about 40 bytes each, with 32
 * MB of distinct names and shapes). A file that can be read twice (a
 * regular file) is: operators first, then launches, as an operator's
 * event may come after its kernels'; a pipe once, its launches getting
 * the operators read before them. */
#define OCC_LAUNCH_OPS_MAX (1u << 20)
/* The most devices one trace may describe. */
#define OCC_LAUNCH_DEVICES_MAX 64

/* Reads an occcalc trace or a Kineto trace, plain or gzip-compressed,
 * told apart by content, delivering each launch as it is read. The
 * path must name a regular file (OCC_ERR_NOT_REGULAR). Errors:
 * OCC_ERR_SYNTAX for JSON that does not parse or a record that is not
 * what the format says (diag: the line, the byte offset, and in key what
 * is wrong), OCC_ERR_MISSING_KEY,
 * OCC_ERR_BAD_VALUE and OCC_ERR_RANGE (key: the key), OCC_ERR_LINE_TOO_LONG,
 * OCC_ERR_CORRUPT for a gzip stream that fails or data after a gzip
 * stream that starts no other (diag: the byte of the file, and in key
 * what is wrong), OCC_ERR_IO (errno), OCC_ERR_NOMEM,
 * or what a callback returned. info (may be NULL) is filled as far as the
 * read went. A file cut short is read up to the cut, without an error:
 * an occcalc trace without its end record (info->complete 0), a Kineto
 * trace whose JSON ends inside traceEvents (info->cut_short, and
 * info->bytes where it ends). */
enum occ_status occ_launches_read_file(const char *path,
				       const struct occ_launch_callbacks *cb,
				       void *ctx, struct occ_launch_file *info,
				       struct occ_diag *diag);

/* The same on an open descriptor (from its current position; a pipe
 * too), named name in diag. It is read, not closed. */
enum occ_status occ_launches_read_fd(int fd, const char *name,
				     const struct occ_launch_callbacks *cb,
				     void *ctx, struct occ_launch_file *info,
				     struct occ_diag *diag);

/* ---- A Kineto trace annotated ---- */

/* Where occ_launches_annotate_file's output goes. */
struct occ_annotate_sink {
	/* After each launch of a Kineto trace is delivered: the members to
	 * add to its event's args, as JSON text without the braces
	 * ("\"occcalc\":{...}"), len 0 for none; text lasts until the
	 * next call. */
	enum occ_status (*members)(void *ctx, const char **text, size_t *len);
	/* The output, n bytes at a time, in order. */
	enum occ_status (*write)(void *ctx, const void *p, size_t n);
	void *ctx;
};

/* Reads the trace at path as occ_launches_read_file does, delivering
 * its devices and launches to cb, and, for a Kineto trace, writes its
 * text to sink byte for byte (decompressed) with sink->members added
 * as the last members of each kernel event's args. The file is read in
 * slices (it is opened twice: the reader's and the copy's), never held
 * whole. An occcalc trace (info->format) is read and nothing written.
 * Errors those of occ_launches_read_file; OCC_ERR_DUPLICATE_KEY for a
 * kernel event whose args hold "occcalc" already (a trace annotated
 * once); OCC_ERR_INCONSISTENT when the file changed as it was read;
 * what sink returned. */
enum occ_status occ_launches_annotate_file(const char *path,
		const struct occ_launch_callbacks *cb, void *ctx,
		const struct occ_annotate_sink *sink,
		struct occ_launch_file *info, struct occ_diag *diag);
/* What the file at path is, from its first bytes (plain or gzip):
 * *format the trace format, or 0 where it is no trace (occcalc's rows,
 * other JSON, text; diag's key says what, where it is no JSON at all).
 * Errors: those of opening and reading it. */
enum occ_status occ_launches_probe(const char *path,
				   enum occ_launch_format *format,
				   struct occ_diag *diag);

/* ---- Each launch on the GPU it ran on ---- */

/* The architecture of a traced device: the table of its compute
 * capability with the properties the trace recorded put over the
 * table's (a trace records the device's own: a part with fewer SMs or
 * less shared memory than the table's chip). OCC_ERR_UNKNOWN_ARCH when
 * no table has that compute capability; OCC_ERR_INCONSISTENT when the
 * recorded properties cannot be those of an NVIDIA GPU of that compute
 * capability: a property outside the range a table may give it, values
 * that contradict each other (occ_arch_check), a warp other than the
 * table's (an AMD GPU of a ROCm trace), no SMs or more than 65536;
 * occ_launch_device_fault names the property. */
enum occ_status occ_launch_arch(const struct occ_tables *t,
				const struct occ_launch_device *d,
				struct occ_arch *arch);

/* The cudaDeviceProp name of the first property of d for which
 * occ_launch_arch answers OCC_ERR_INCONSISTENT, or NULL. */
const char *occ_launch_device_fault(const struct occ_tables *t,
				    const struct occ_launch_device *d);

/* Figures that the trace does not hold, as bits of occ_launch_model.unknown. */
enum occ_launch_unknown {
	OCC_LAUNCH_UNKNOWN_SMEM_SPLIT = 1 << 0,  /* static vs dynamic */
	OCC_LAUNCH_UNKNOWN_CARVEOUT = 1 << 1,    /* the carveout it ran */
	OCC_LAUNCH_UNKNOWN_CLUSTER = 1 << 2,     /* whether it had clusters */
	OCC_LAUNCH_UNKNOWN_LAYOUT = 1 << 3,      /* the GPCs, for clusters */
	OCC_LAUNCH_UNKNOWN_WAVES = 1 << 4,       /* the grid beyond 2^31-1 */
	/* The recorded carveout (smem_executed) was not taken: not one of
	 * the device's, too small for one block of the launch, or of a
	 * launch the range profiler measured (--achieved), whose record
	 * CUPTI does not fill with the carveout it ran; with
	 * OCC_LAUNCH_UNKNOWN_CARVEOUT, as the largest is assumed. */
	OCC_LAUNCH_UNKNOWN_SMEM_EXECUTED = 1 << 5
};

/* Why occ_launch_compute gave a launch no figures. A launch that ran fit
 * on its GPU: a record the model finds could not have is not computed
 * from, rather than called a launch that cannot run. */
enum occ_launch_fault {
	OCC_LAUNCH_FAULT_NONE = 0,
	OCC_LAUNCH_FAULT_SHAPE,    /* a grid or block no GPU launches (0
				      threads, more than 2^31-1), or no SMs */
	OCC_LAUNCH_FAULT_CLUSTER,  /* cluster dimensions with a 0 beside
				      others, not dividing the grid, or over
				      the architecture's largest cluster */
	OCC_LAUNCH_FAULT_NO_FIT    /* no block of it fits the SM it ran on */
};

/* What a launch got. */
struct occ_launch_model {
	struct occ_kernel kernel;        /* what was modelled */
	struct occ_result result;        /* per SM */
	int64_t blocks;                  /* the grid's blocks */
	int64_t threads_per_block;
	int sms;
	/* Waves of the grid: occ_waves, or for a cluster launch whose
	 * clusters are counted occ_cluster_waves (a wave is the blocks its
	 * resident clusters hold); waves_fraction is blocks over blocks per
	 * SM x SMs, cluster launches too (Nsight Compute's
	 * launch__waves_per_multiprocessor). */
	int has_waves;
	struct occ_waves waves;
	double waves_fraction;
	/* A launch with clusters of more than one CTA. */
	int cluster_size;                /* 0: no clusters */
	int has_cluster;                 /* cluster figures computed */
	struct occ_cluster_result cluster;
	unsigned unknown;                /* enum occ_launch_unknown bits */
	enum occ_launch_fault fault;     /* where the status is not OCC_OK */
};

/* The occupancy of launch l on arch (occ_launch_arch's), with sms SMs,
 * and, for a cluster launch, the GPCs of layout (NULL: not known, so that
 * the clusters resident at once are not computed). The shared memory the
 * SM ran with is the launch's smem_executed where recorded and possible
 * (OCC_LAUNCH_UNKNOWN_SMEM_EXECUTED where not); a launch over
 * sharedMemPerBlock opted in, as it ran. Where the launch cannot have
 * run as recorded, m->fault says why: OCC_ERR_INVALID_INPUT for a shape
 * no model takes (OCC_LAUNCH_FAULT_SHAPE), OCC_ERR_INCONSISTENT for
 * impossible clusters or no block that fits (OCC_LAUNCH_FAULT_CLUSTER,
 * OCC_LAUNCH_FAULT_NO_FIT); other errors of occ_compute. */
enum occ_status occ_launch_compute(const struct occ_arch *arch, int sms,
				   const struct occ_launch_record *l,
				   const struct occ_gpc_layout *layout,
				   struct occ_launch_model *m);

/* ---- Inside a part of the GPU (green contexts) ---- */

/* A part of a GPU's SMs (occ_target_part): the split
 * cuDevSmResourceSplitByCount makes of them (occ_partition_split), the
 * part a launch is computed in, and that part's GPCs where measured. */
struct occ_launch_part {
	struct occ_partition_split split;
	unsigned flags;                  /* the split's */
	int group;                       /* or OCC_PARTITION_REMAINING */
	int sms;                         /* the part's */
	int measured;                    /* layout holds its GPCs (hw) */
	struct occ_gpc_layout layout;
	struct occ_gpc_layout api;       /* cudaOccupancyMaxActiveClusters'
					    (measured too) */
	char source[256];                /* where the layout was measured */
};

/* Launch l as if it ran in part p (occ_target_part's): occ_launch_compute
 * with the part's SMs and, where measured, its GPCs; and there a cluster
 * size the runtime refuses in the part (occ_cluster_part_compute) has no
 * cluster resident, m->cluster.reason OCC_CLUSTER_REFUSED_IN_PART, and no
 * waves. Errors as occ_launch_compute's. */
enum occ_status occ_launch_part_compute(const struct occ_arch *arch,
					const struct occ_launch_part *p,
					const struct occ_launch_record *l,
					struct occ_launch_model *m);

/* The headroom of launch l's kernel (occ_headroom) on arch, its
 * carveout free (the driver chooses another for other resources);
 * errors as occ_launch_compute. */
enum occ_status occ_launch_headroom(const struct occ_arch *arch,
				    const struct occ_launch_record *l,
				    struct occ_headroom *h);

/* How long launch l ran, ns: end_ns - start_ns where the trace timed it,
 * else the profiler's duration where --achieved measured it, else -1. */
int64_t occ_launch_duration_ns(const struct occ_launch_record *l);

const char *occ_launch_format_name(enum occ_launch_format f);
const char *occ_launch_type_name(enum occ_launch_type t);
const char *occ_smem_limit_name(enum occ_smem_limit s);

#ifdef __cplusplus
}
#endif

#endif
