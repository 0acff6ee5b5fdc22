/* occupancy.h - occupancy rows: what one holds (occupancy.c computes them,
 * fields_occupancy.c prints them), the run of a sweep that makes them,
 * and the text report of one configuration (report.c). */
#ifndef OCC_CLI_OCCUPANCY_H
#define OCC_CLI_OCCUPANCY_H

#include <stdint.h>
#include <stdio.h>

#include "occcalc.h"
#include "gpu.h"
#include "seq.h"
#include "out.h"

struct session;
struct options;
struct kernel_info;
struct row_cluster;
struct cluster_request;

/* What a row shows beside the model, with --api or --measure. */
struct row_gpu {
	int kernel_regs;       /* the calibrated kernel's, per the runtime */
	int api_blocks;        /* cudaOccupancyMaxActiveBlocksPerMultiprocessor */
	int measured;          /* 0: --api only, or nothing launches */
	int expected;          /* the model's most blocks per SM in this launch */
	struct gpu_measured m;
	int have_api_dyn;      /* the runtime's most dynamic shared memory: */
	uint64_t api_dyn;      /*   cudaOccupancyAvailableDynamicSMemPerBlock */
	int api_dyn_blocks;    /*   and the runtime's blocks with that much */
	int agrees;            /* the API and the measurement agree */
	int have_func;         /* --kernels --api: the driver on the kernel */
	struct gpu_func func;
};

/* A configuration's row: the library's (its first member, so that the
 * library's getters read it), and what the command line adds: the kernel
 * read, the GPU's answers, a cluster launch, a part of the GPU. */
struct occ_row {
	struct occ_config_row c;
	const struct kernel_info *ki;  /* --kernels: the kernel, or NULL */
	const char *kernel;            /* its name, demangled if C++ */
	const struct row_gpu *gpu;     /* with --api or --measure, or NULL */
	const struct occ_device *dev;  /* the GPU it was computed for */
	const struct row_cluster *cl;  /* with --cluster, or NULL */
	const char *gpu_name;          /* --gpu LIST: the row's GPU */
	const struct session_partition *partition;  /* --partition, or NULL */
};

/* The occupancy of every combination the options sweep, for kernel k
 * (its registers, static memory and barriers set), printed as rows of o. */
struct occ_run {
	struct session *s;
	const struct occ_arch *a;
	struct fieldsel sel;
	struct out out;
	int report;                    /* text, one configuration: the report */
	const struct kernel_info *ki;
	const char *kernel;
	const uint16_t *shape;         /* the block's, from --block */
	const struct occ_arch *tag_of; /* tag is this architecture's name */
	char tag[16];
	const char *gpu_name;          /* --gpu LIST: the GPU computed for */
	int launch;                    /* the block is the launch's (Triton's) */
	const struct seq *smem;        /* its dynamic shared memory, or NULL:
	                                  --smem's */
	const struct cluster_request *clusters;  /* the row's cluster launches,
	                                  or NULL: --cluster's */
	/* --kernels: each cluster launch of a row, for its summary. */
	void (*cluster_hook)(struct occ_run *run, const struct occ_row *row);
	/* --kernels: the driver on the row's kernel, and the row counted. */
	void (*hook)(struct occ_run *run, struct occ_row *row,
		     struct row_gpu *g);
	void *hook_ctx;
	/* --compare: each row handed here instead of printed. */
	void (*sink)(struct occ_run *run, const struct occ_row *row);
	void *sink_ctx;
	/* Cluster rows written as upper bounds: CAP_UNKNOWN, LAYOUT_UNKNOWN
	 * bits, for the note under a text table. */
	unsigned cluster_bounds;
	uint64_t configs, launching;   /* configurations computed; launching */
	/* Made on another thread (a piece of a longer run): a configuration
	 * the model refuses ends it here, and the run where it is joined. */
	int piece;
	char failure[512];
};
#define CLUSTER_CAP_UNKNOWN 1u
#define CLUSTER_LAYOUT_UNKNOWN 2u

/* --fields and --check read against occupancy rows, as occ_run_open
 * reads them: called before a --kernels run (not --compare) reads its
 * files, so that a
 * usage error ends it at once rather than after seconds of reading and
 * the reading's warnings. */
void occ_run_check_options(struct session *s);
void occ_run_open(struct occ_run *run, struct session *s, int sweep,
		  int kernels);
void occ_run_blocks(struct occ_run *run, const struct occ_arch *a,
		    const struct seq *blocks, struct occ_kernel *k);
void occ_run_close(struct occ_run *run);
/* Rows of a run made on another thread (pieces.c): piece, a copy of
 * whole, counts and writes its own rows from none, into memory (-1: no
 * memory); ended, it is joined after whole's rows, in order. Joining
 * returns nonzero when the piece failed (whole's failure says why). */
int occ_run_piece(struct occ_run *piece, const struct occ_run *whole);
void occ_run_piece_end(struct occ_run *piece);
int occ_run_join(struct occ_run *run, struct occ_run *piece);
void occ_run_kernel_defaults(const struct options *o, struct occ_kernel *k);

/* The report a person reads for one configuration (report.c). */
void report_occupancy(FILE *f, const struct occ_row *row);
/* The registers' and the dynamic shared memory's steps of h, one line
 * each (--launches' summary shares them). */
void report_headroom_steps(FILE *f, const struct occ_result *r,
			   const struct occ_headroom *h);
void report_gpu(FILE *f, const struct occ_device *d, const struct occ_row *row);
void format_limiters(char *buf, unsigned bits);

#endif
