/*
 * occcalc/query_row.h - a configuration's row with what occcalc adds to
 * it, for a program: launched in clusters (--cluster) and computed in a
 * part of the GPU (--partition), the fields of the kinds in play named
 * together (--fields), on an env (occcalc/query.h).
 * Part of the occcalc API: include <occcalc.h>, which includes this.
 */
#ifndef OCCCALC_QUERY_ROW_H
#define OCCCALC_QUERY_ROW_H

#ifndef OCCCALC_H
#error "include <occcalc.h>, not occcalc/query_row.h"
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* What a row adds to the configuration's; zero: nothing. */
struct occ_row_adds {
	int cluster;                     /* launched in clusters (--cluster) */
	struct occ_cluster_shape shape;  /* of this shape, unless best */
	int best;                        /* the portable size with the most
					    CTAs resident (--cluster best) */
	int partition;                   /* computed in a part (--partition) */
	int min_sms;                     /* the split's minCount */
	unsigned flags;                  /* enum occ_partition_flag */
	int group;                       /* the part: a group (0 on), or
					    OCC_PARTITION_REMAINING */
};

/* Its size, for a binding to check its copy of the struct against. */
size_t occ_row_adds_size(void);

/* The row of q on the GPU arch and gpu name (occ_env_gpu; the list's SMs
 * unless q->sms is set) with adds, as occcalc writes it: the fields of
 * occ_config_kind, occ_cluster_kind (with a cluster) and
 * occ_partition_kind (in a part) as the list names them, each name taken
 * from the first of those that has it (NULL: q's default fields, then
 * every field of the cluster launch, then OCC_PARTITION_FIELDS_DEFAULT),
 * into buf as occ_env_config_json writes. In a part the part's SMs are
 * the row's (its min_grid_size, waves and clusters), as
 * occ_partition_row_compute makes it of the GPU's layout (gpu's in the
 * list, as occ_target_layout finds it) and partitions.txt beside the
 * list; clusters run on occ_partition_cluster_layout's GPCs there, else
 * on the GPU's (the SMs, q->sms, as one group where gpu names none).
 * Statuses: occ_env_config_json's; OCC_ERR_MISSING_KEY with diag key
 * "layout" where clusters have no layout, "sms" where a part or a grid
 * has no SMs; OCC_ERR_UNSUPPORTED with the refusal in diag's key for a
 * cluster occ_cluster_refused refuses; OCC_ERR_INCONSISTENT with key
 * "layout" for a list's layout of other SMs than q->sms in a part;
 * occ_partition_row_compute's (OCC_ERR_RANGE with key "min_sms" for a
 * minCount above the GPU's SMs). */
enum occ_status occ_env_row_json(const struct occ_env *env,
				 const char *arch, const char *gpu,
				 const struct occ_config_query *q,
				 const struct occ_row_adds *adds,
				 const char *fields, char *buf, size_t cap,
				 size_t *len, struct occ_diag *diag);

#ifdef __cplusplus
}
#endif

#endif
