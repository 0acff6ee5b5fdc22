/*
 * occcalc/launch_rows.h - a trace's launches as rows: each launch
 * modelled on the GPU the library's rules pick (the device its trace
 * describes, each distinct one modelled once: its table, GPC layout and
 * partition part; or a GPU named, occ_launch_basis_of), or left without
 * figures for a reason its row gives. It is the row `occcalc --launches
 * FILE` prints, and occ_launch_kind holds its fields under the command
 * line's names (occcalc/fields.h), so a program reads the same values.
 * Rows stream: each is handed over as its launch is read, none held.
 * Part of the occcalc API: include <occcalc.h>, which includes this.
 */
#ifndef OCCCALC_LAUNCH_ROWS_H
#define OCCCALC_LAUNCH_ROWS_H

#ifndef OCCCALC_H
#error "include <occcalc.h>, not occcalc/launch_rows.h"
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* Why a launch is left without figures. */
enum occ_launch_skip {
	OCC_LAUNCH_SKIP_NO_DEVICE,       /* its trace describes no device */
	OCC_LAUNCH_SKIP_NO_TABLE,        /* no table of its compute
					    capability */
	OCC_LAUNCH_SKIP_BAD_DEVICE,      /* its device's properties are no
					    NVIDIA GPU's (dev->fault) */
	OCC_LAUNCH_SKIP_SHAPE,           /* OCC_LAUNCH_FAULT_SHAPE */
	OCC_LAUNCH_SKIP_CLUSTER,         /* OCC_LAUNCH_FAULT_CLUSTER */
	OCC_LAUNCH_SKIP_NO_FIT,          /* OCC_LAUNCH_FAULT_NO_FIT */
	OCC_LAUNCH_SKIP_WHAT_IF_CLUSTER, /* clusters the GPU named does not
					    run */
	OCC_LAUNCH_SKIP_COUNT
};

/* The row's reason for it ("on a device the trace does not describe"),
 * which completes "N launches ...". */
const char *occ_launch_skip_text(enum occ_launch_skip why);

/* A device of the traces read, as modelled; kept until the reader is
 * freed. */
struct occ_launch_dev {
	struct occ_launch_device d;
	struct occ_arch arch;
	enum occ_status arch_status;       /* OCC_OK: arch holds it */
	const char *fault;                 /* the property that fails, or NULL */
	uint64_t skipped;                  /* its launches left without
					      figures for it */
	char tag[16];                      /* sm_90 */
	int have_layout;
	struct occ_gpc_layout layout;      /* for cluster launches */
	int layout_mismatch;               /* the layout given has other SMs */
	/* A partition: its launches computed in this part of it. */
	int in_part;
	struct occ_launch_part part;
	char part_name[24];                /* "group 0", "remaining" */
	/* The GPU named (opts->gpu): launches modelled as they would run on
	 * it (what_if) or, their trace describing no device, as run there
	 * (named_ran). */
	int named;
	uint64_t what_if, named_ran;
};

/* One launch, as a row. */
struct occ_launch_row {
	const char *file;                  /* the name the read was given */
	const struct occ_launch_record *l;
	const struct occ_launch_dev *dev;  /* NULL: the trace has none */
	enum occ_launch_basis basis;       /* what dev is to the launch */
	struct occ_launch_model m;
	const char *not_modelled;          /* why m is not there
					      (occ_launch_skip_text), or NULL */
};

/* Its fields (struct occ_launch_row rows), under the command line's
 * names: file, device, kernel, grid, occupancy_pct, limiter, ... */
extern const struct occ_row_kind occ_launch_kind;

/* What rows are made with. Only tables is required. */
struct occ_launch_rows_opts {
	const struct occ_tables *tables;
	/* The GPU list and its file, for each device's GPC layout (its
	 * 'layout' lines); NULL: none. */
	const struct occ_gpus *gpus;
	const char *gpus_path;
	/* A layout given for every device (occcalc --layout), used on a
	 * device of its SMs; NULL: none. */
	const struct occ_gpc_layout *layout;
	/* A GPU named (occcalc --gpu, occ_launch_device_of_gpu): every
	 * launch modelled on it, as a what-if where its trace describes its
	 * device; with gpu_untraced_only, only the launches whose trace
	 * describes none. NULL: none. */
	const struct occ_launch_device *gpu;
	int gpu_untraced_only;
	/* A partition (occcalc --partition): each device's part, as
	 * occ_target_part makes it with these. */
	int partition;
	const char *parts_path;            /* partitions.txt, or NULL */
	unsigned partition_flags;
	int partition_min_sms, partition_group;
	/* Launches left out before they are modelled (want returns 0), and
	 * counted as filtered; NULL: none. */
	int (*want)(void *ctx, const struct occ_launch_record *l);
	void *want_ctx;
};

/* The fields a launch row shows unless others are asked for, as occcalc
 * --launches' JSON shows them (with a partition, the part's after the
 * device). */
#define OCC_LAUNCH_FIELDS_TAIL "stream,kernel,op,grid,block,cluster_dims," \
	"regs,static_smem,smem,smem_total,smem_executed,blocks_per_sm," \
	"occupancy_pct,limiter,waves_per_multiprocessor,tail_blocks," \
	"max_active_clusters,duration_ns,kineto_est_pct"
#define OCC_LAUNCH_FIELDS "file,device," OCC_LAUNCH_FIELDS_TAIL
#define OCC_LAUNCH_FIELDS_PART "file,device,partition_part," \
	"partition_part_sms," OCC_LAUNCH_FIELDS_TAIL

/* What an annotated trace adds to a launch's event ("occcalc":{...} in
 * its args, occcalc --annotate): these fields, then those of
 * OCC_LAUNCH_ANNOTATION_EXTRA the row has (a cluster of more than one
 * CTA, a measured occupancy, a reason). */
#define OCC_LAUNCH_ANNOTATION_FIELDS "occupancy_pct,blocks_per_sm," \
	"warps_per_sm,limiter,waves,tail_blocks,waves_per_multiprocessor," \
	"unknown"
#define OCC_LAUNCH_ANNOTATION_EXTRA "cluster_size,max_active_clusters," \
	"cluster_occupancy_pct,achieved_occupancy_pct,reason"
#define OCC_LAUNCH_ANNOTATION_MAX 13
/* r's fields of the annotation into f (OCC_LAUNCH_ANNOTATION_MAX);
 * returns how many. */
size_t occ_launch_annotation_fields(const struct occ_launch_row *r,
				    const struct occ_field **f);

/* The most distinct devices one reader keeps (a trace describing a
 * device again costs nothing); past it the read stops. */
#define OCC_LAUNCH_ROWS_DEVICES_MAX 1024

/* Why a read stopped on a device, rather than on the file. */
enum occ_launch_stop {
	OCC_LAUNCH_STOP_NONE = 0,
	OCC_LAUNCH_STOP_GPUS,       /* the GPU list's layouts could not be
				       read (stop_diag, stop_errno) */
	OCC_LAUNCH_STOP_PART,       /* the partition cannot be made on
				       stop_dev (stop_status, stop_diag) */
	OCC_LAUNCH_STOP_DEVICES     /* more than OCC_LAUNCH_ROWS_DEVICES_MAX
				       devices */
};

/* What the reads have counted, all files together. */
struct occ_launch_rows_stats {
	uint64_t launches;                 /* rows handed over */
	uint64_t filtered;                 /* left out by opts->want */
	uint64_t skipped[OCC_LAUNCH_SKIP_COUNT];   /* rows without figures */
	uint64_t part_unmeasured;          /* cluster launches in a part
					      whose GPCs are not measured */
	size_t devices;                    /* distinct devices modelled */
	enum occ_launch_stop stop;
	const struct occ_launch_dev *stop_dev;
	enum occ_status stop_status;
	struct occ_diag stop_diag;
	int stop_errno;
	struct occ_launch_file file;       /* the last file's read, by
					      occ_launch_rows_file or _fd */
};

/* Called with each row as its launch is read; r lasts until it returns.
 * A status other than OCC_OK stops the read, which returns it. */
typedef enum occ_status (*occ_launch_row_fn)(void *ctx,
					     const struct occ_launch_row *r);

/* A reader of traces into rows: the devices it models are kept across
 * the files it reads (at most OCC_LAUNCH_ROWS_DEVICES_MAX), so that a
 * row's dev lasts until it is freed. opts is copied; the tables, list,
 * layout and GPU it points to are used as they are, and must outlast
 * it. The GPU named is modelled at once: OCC_ERR_NOMEM, or the status
 * it stopped on (stats' stop). *out is the reader whatever the status,
 * NULL only where it could not be made (OCC_ERR_NOMEM,
 * OCC_ERR_INVALID_INPUT without tables). */
struct occ_launch_rows;
enum occ_status occ_launch_rows_new(const struct occ_launch_rows_opts *opts,
				    struct occ_launch_rows **out);
void occ_launch_rows_free(struct occ_launch_rows *run);

/* The callbacks that make rows of what a trace reader delivers, given
 * run as their ctx (occ_launches_read_file, occ_launches_read_fd,
 * occ_launches_annotate_file), after occ_launch_rows_begin. */
extern const struct occ_launch_callbacks occ_launch_rows_callbacks;
/* Starts a file named name: its rows go to fn, its devices are known by
 * its own ids. */
void occ_launch_rows_begin(struct occ_launch_rows *run, const char *name,
			   occ_launch_row_fn fn, void *ctx);

/* The file at path (occ_launches_read_file), or the open descriptor fd
 * named name (occ_launches_read_fd), read into rows: errors those of
 * the reader, fn's, and where a device stopped the read (stats' stop)
 * OCC_ERR_RANGE for too many devices, or the list's or the partition's
 * status. info (may be NULL): the read's. */
enum occ_status occ_launch_rows_file(struct occ_launch_rows *run,
				     const char *path, occ_launch_row_fn fn,
				     void *ctx, struct occ_launch_file *info,
				     struct occ_diag *diag);
enum occ_status occ_launch_rows_fd(struct occ_launch_rows *run, int fd,
				   const char *name, occ_launch_row_fn fn,
				   void *ctx, struct occ_launch_file *info,
				   struct occ_diag *diag);

/* The counts so far. */
const struct occ_launch_rows_stats *
occ_launch_rows_stats(const struct occ_launch_rows *run);
/* The i-th device modelled (the GPU named first), NULL past the last;
 * and the GPU named's, or NULL. */
const struct occ_launch_dev *
occ_launch_rows_device(const struct occ_launch_rows *run, size_t i);
const struct occ_launch_dev *
occ_launch_rows_named(const struct occ_launch_rows *run);

/* One file read into rows with opts, at once: occ_launch_rows_new,
 * occ_launch_rows_file (or _fd) and the counts into stats (may be NULL;
 * its stop_dev NULL, the reader being freed). A row's dev lasts until
 * fn returns. */
enum occ_status
occ_launch_rows_read_file(const struct occ_launch_rows_opts *opts,
			  const char *path, occ_launch_row_fn fn, void *ctx,
			  struct occ_launch_rows_stats *stats,
			  struct occ_diag *diag);
enum occ_status
occ_launch_rows_read_fd(const struct occ_launch_rows_opts *opts, int fd,
			const char *name, occ_launch_row_fn fn, void *ctx,
			struct occ_launch_rows_stats *stats,
			struct occ_diag *diag);

#ifdef __cplusplus
}
#endif

#endif
