/* kernels_report.h - a --kernels run's rows (internal to mode_kernels.c,
 * which opens the run, and kernels_rows.c, which makes its rows). */
#ifndef OCC_CLI_KERNELS_REPORT_H
#define OCC_CLI_KERNELS_REPORT_H

#include "cli.h"
#include "occupancy.h"
#include "kernels.h"

struct report {
	struct occ_run run;
	int clusters;                 /* cluster launches computed */
	struct kernel_list *l;        /* the session's */
	struct kernel_summary sum;
	struct api api;
	const struct occ_arch *gpu_table;   /* --gpu LIST: this GPU's */
	int gpu;                     /* and its index, or -1 */
	/* One GPU named (--gpu, --arch, --api's device): its table, whose
	 * limits any image that runs there runs with, and its compute
	 * capability (major * 10 + minor); NULL, 0: none named. */
	const struct occ_arch *named;
	int named_cc;
	/* Rows written as kernels are read: the run opened; the kernels
	 * declaring a cluster no layout computes (warned of at the end). */
	struct session *s;
	int open;
	size_t declared;
};

/* The run's hooks: each computed row (the driver's reading with --api,
 * then the summary), and each cluster launch (the summary's lowest, and
 * --gpu LIST's matrix). */
void report_row(struct occ_run *run, struct occ_row *row,
		struct row_gpu *g);
void report_cluster_row(struct occ_run *run, const struct occ_row *row);
/* A kernel's rows: each of its images' (ki's), or of its PTX. */
void report_kernel_rows(struct report *rep, const struct kernel_info *ki);
/* A row saying that no image of k runs on the GPU. */
void report_no_image_row(struct report *rep, const struct kernel_info *k);
/* Every kernel's rows, on threads when there are many; exits with the
 * run's failure. */
void report_all_rows(struct report *rep, struct session *s);

#endif
