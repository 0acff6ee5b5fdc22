/* cluster.h - --cluster: the shapes asked for, the GPC layout computed
 * with, and a row's cluster launch (cluster.c); the report's section on
 * it (report_cluster.c). */
#ifndef OCC_CLI_CLUSTER_H
#define OCC_CLI_CLUSTER_H

#include <stddef.h>
#include <stdio.h>

#include "occcalc.h"
#include "gpu_cluster.h"

struct session;
struct occ_row;

/* --cluster: the shapes asked for, in order (cluster.c). */
#define MAX_CLUSTER_ITEMS 64

struct cluster_item {
	struct occ_cluster_shape shape;
	int best;                      /* 'best': the size is the model's */
	char name[24];                 /* as given: "4", "2x2", "best" */
	const char *source;            /* NULL: --cluster; else what declares */
};

struct cluster_request {
	struct cluster_item items[MAX_CLUSTER_ITEMS];
	int n;
};

/* The GPC layout --cluster computes with is the session's struct
 * occ_cluster_layout (the library's, occcalc/cluster_row.h). A row's cluster launch: the model's (the library's, read by its
 * fields), and the GPU's answers with --api and --measure. */
struct row_cluster {
	struct occ_cluster_row model;
	int have_api;                      /* --api: */
	struct gpu_cluster_api api;
	int measured;                      /* --measure, where one fits: */
	struct gpu_cluster_measured m;
	int agrees;
};

/* --cluster: refuses an architecture without clusters and sizes beyond
 * its table, and finds the layout (--layout, the device's measured, or
 * --gpu's in the GPU list), before any row is printed. */
void cluster_prepare(struct session *s, const struct occ_arch *a);
/* The cluster launch of row for item: the model, and the GPU's answers
 * with --api and --measure. */
void cluster_compute(struct session *s, const struct occ_row *row,
		     const struct cluster_item *item, struct row_cluster *cl);
/* The report's section on it (report_cluster.c). */
void report_cluster(FILE *f, const struct occ_row *row, int recommend);
void report_cluster_gpu(FILE *f, const struct occ_device *d,
			const struct occ_row *row);

#endif
