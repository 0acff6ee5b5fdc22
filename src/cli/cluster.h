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


/* The GPC layout --cluster computes with, and where it comes from. */
struct session_layout {
	struct occ_gpc_layout l;
	char text[512];                /* 8,16x5,18x2,2x4 */
	char source[320];
	int from_list;                 /* the GPU list's: one chip's */
	int bound;                     /* none: each row's most, from counts */
	int whole;                     /* no GPCs known: l is all SMs as one */
	int cap_unknown;               /* the arch's cluster blocks per SM */
	int mps;                       /* measured by an MPS client, whose
					  runtime answers fewer (docs/mps.md) */
	struct occ_gpc_counts counts;
};

/* Whether a row's cluster figures are upper bounds: no layout, no GPCs
 * known, no cluster blocks-per-SM cap known, or an MPS client's
 * (cluster_bound). */
int cluster_upper_bound(const struct session_layout *L);

/* A cluster launch of the row's configuration (cluster.c). */
/* A kind of GPC of the layout (those of one size) and what one holds. */
struct gpc_kind {
	int sms, count;                    /* SMs each; GPCs of the kind */
	struct occ_cluster_result c;       /* one such GPC alone */
};

struct row_cluster {
	struct occ_cluster_shape shape;
	char name[24];                     /* "2x2", "4" */
	int best;                          /* chosen by --cluster best */
	struct occ_cluster_result c;      /* an upper bound with layout->bound */
	struct occ_gpc_layout own;        /* then the layout that gives it */
	const char *source;                /* the item's */
	struct gpc_kind kinds[OCC_MAX_GPCS];   /* in the layout's order */
	int n_kinds;
	struct occ_cluster_best portable, nonportable;
	/* --partition, measured: what the runtime answers in the part. */
	int have_part_api;
	struct occ_cluster_result part_api;
	struct occ_cluster_best part_api_portable, part_api_nonportable;
	const struct session_layout *layout;
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
/* A cluster shape as the user writes it: "4", "2x2", "2x2x2". */
void cluster_shape_name(char *buf, size_t n,
			const struct occ_cluster_shape *c);
/* The names of the limits set in bits (enum occ_cluster_limit), in one
 * order for every output; how many (at most 3). */
size_t cluster_limiter_names(unsigned bits, const char *names[3]);
/* The cluster launch of row for item: the model, and the GPU's answers
 * with --api and --measure. */
void cluster_compute(struct session *s, const struct occ_row *row,
		     const struct cluster_item *item, struct row_cluster *cl);
/* The report's section on it (report_cluster.c). */
void report_cluster(FILE *f, const struct occ_row *row, int recommend);
void report_cluster_gpu(FILE *f, const struct occ_device *d,
			const struct occ_row *row);

#endif
