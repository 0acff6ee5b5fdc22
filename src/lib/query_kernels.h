/*
 * query_kernels.h - occ_env_kernels_json's cluster launches (internal to
 * the library, query_kernels_cluster.c): whether its rows are cluster
 * launches, as occcalc --kernels decides it, and such a row's object.
 */
#ifndef OCC_QUERY_KERNELS_H
#define OCC_QUERY_KERNELS_H

#include "query_int.h"

/* A run's cluster launches: on where a kernel read declares one
 * (occ_kernel_declares_cluster) and a GPU named has a layout to compute
 * it on; then every row carries the cluster fields. Off, fields asked
 * (n: how many) of both kinds are written from it too, the cluster
 * launch's absent. */
struct kernels_clusters {
	int on;
	struct occ_cluster_layout L;
	const struct occ_field *f[FIELDS_MAX];
	unsigned char of_cluster[FIELDS_MAX];  /* f[i] is occ_cluster_kind's */
	struct occ_field absent[FIELDS_MAX];   /* f[i], absent: a row
						  without a cluster launch */
	size_t n;
	unsigned needs;                        /* the configuration's */
};

/* Whether path's kernels (read with opts, whose start takes start_ctx)
 * make kc's run one of cluster launches on gpu (NULL: none, as with
 * only an architecture named: the rows are plain launches), the GPU
 * named's table a with sms SMs; its layout and fields (NULL: the
 * default) then in kc, or without, the fields given (NULL: none, kc->n
 * 0, the kernel kind's to select). Statuses: occ_kernels_read's (diag), the
 * layout's and an unknown field's (diag->data). */
OCC_INTERNAL enum occ_status occ_kernels_clusters_open(
		const struct occ_env *env, const char *path, const char *gpu,
		const struct occ_arch *a, int sms, const char *fields,
		const struct occ_kernels_read_opts *opts, void *start_ctx,
		struct kernels_clusters *kc, struct occ_kernels_diag *diag);

/* k's row (row computed on table a; launch: Triton's, or NULL) with its
 * cluster launch (occ_kernel_cluster_for), handed to fn as JSON. */
OCC_INTERNAL enum occ_status occ_kernels_cluster_hand(
		const struct kernels_clusters *kc, const struct occ_arch *a,
		struct occ_kernel_row *row,
		const struct occ_triton_entry *launch, char *small,
		size_t cap, occ_json_row_fn fn, void *ctx);

#endif
