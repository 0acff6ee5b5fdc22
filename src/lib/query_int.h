/* query_int.h - what query.c and query_launches.c share (internal to the
 * library): the environment, and how the GPU list names a GPU. */
#ifndef OCC_QUERY_INT_H
#define OCC_QUERY_INT_H

#include "occcalc.h"
#include "util.h"

#define FIELDS_MAX 128

/* Fields of a kind, chosen. */
struct selection {
	const struct occ_field *f[FIELDS_MAX];
	size_t n;
	unsigned needs;
};

/* A GPU of the list and its layout line. */
struct env_layout {
	const struct occ_gpu *gpu;
	struct occ_gpu_layout layout;
};

/* The default selections are made once: a tuner asks millions of rows,
 * and reading a list of names each time cost as much as the row. So are
 * the list's layouts: reading the file for a cluster row took half its
 * time, and the env, shared between threads, is never written after. */
struct occ_env {
	struct occ_tables *tables;
	struct occ_gpus *gpus;
	char gpus_path[4096];
	char parts_path[4096];             /* partitions.txt beside it */
	struct selection defaults[4];      /* by shape given, headroom */
	struct env_layout *layouts;        /* the GPUs that have one */
	size_t n_layouts;
};

/* The default fields of q's row. */
OCC_INTERNAL const struct selection *occ_query_defaults(
		const struct occ_env *env, const struct occ_config_query *q);
/* gpu's name in the list (NULL: none, or not one GPU of it). */
OCC_INTERNAL const char *occ_query_gpu_name(const struct occ_env *env,
		const char *gpu);
/* The GPU of table a that gpu names (or none) with sms SMs, its layout
 * by the target module's rule (occ_target_layout with flags), the list's
 * as the env read it. */
OCC_INTERNAL enum occ_status occ_query_target(const struct occ_env *env,
		const struct occ_arch *a, const char *gpu, int sms,
		unsigned flags, struct occ_target *t, struct occ_diag *diag);
/* That layout for clusters (strict: a layout of other SMs refused),
 * worded as occcalc words it; OCC_ERR_MISSING_KEY (key "layout") for
 * none. */
OCC_INTERNAL enum occ_status occ_query_cluster_layout(
		const struct occ_env *env, const struct occ_arch *a,
		const char *gpu, int sms, struct occ_cluster_layout *L,
		struct occ_diag *diag);
OCC_INTERNAL enum occ_status occ_query_listed_gpu(const struct occ_env *env,
		const char *gpu, const struct occ_gpu **g, struct occ_diag *diag);
/* row's object (sel's fields) handed to fn, written into small (cap
 * bytes) when it fits and to the heap when not. */
OCC_INTERNAL enum occ_status occ_query_hand_json(const struct selection *sel,
		const void *row, char *small, size_t cap, occ_json_row_fn fn,
		void *ctx);
/* diag cleared, what in its key. */
OCC_INTERNAL void occ_query_diag_key(struct occ_diag *diag, const char *what);
/* The --gpu what-if device of opts, from the list's gpu (dev: its room). */
OCC_INTERNAL enum occ_status occ_query_what_if(const struct occ_env *env,
		const char *gpu, struct occ_launch_rows_opts *opts,
		struct occ_launch_device *dev, struct occ_diag *diag);

#endif
