/* getters.h - how a field table's getters are written (internal to the
 * command line): one function per field, reading a row into a val. The
 * occupancy rows' getters live in three files (fields_occupancy.c, and
 * fields_kernel.c and fields_cluster.c for --kernels and --cluster), their
 * one table in the first. */
#ifndef OCC_GETTERS_H
#define OCC_GETTERS_H

#include "cli.h"
#include "occupancy.h"

#define GETTER_SIG(fn) void fn(const void *p, const struct occ_field *f, \
			       struct occ_val *v)
#define ROW const struct occ_row *r = p; (void)f
/* The model's values: absent from a row without one (PTX only). */
#define MODEL_ROW ROW; if (r->c.no_model) { v->type = OCC_VAL_NULL; return; }
#define GETTER(fn) static GETTER_SIG(fn)
/* A number of the row, always there. */
#define UINT_GETTER(fn, expr) GETTER(fn) { MODEL_ROW; v->type = OCC_VAL_UINT; \
	v->u = (uint64_t)(expr); }
/* A number there when cond holds, else absent. */
#define OPT_GETTER(fn, cond, expr) GETTER(fn) { MODEL_ROW; \
	v->type = (cond) ? OCC_VAL_UINT : OCC_VAL_NULL; if (cond) v->u = (uint64_t)(expr); }
#define BOOL_GETTER(fn, expr) GETTER(fn) { MODEL_ROW; v->type = OCC_VAL_BOOL; \
	v->u = (expr) != 0; }

/* A value of the kernel there when cond holds. */
#define KOPT_GETTER(fn, cond, expr) GETTER(fn) { ROW; \
	v->type = (cond) ? OCC_VAL_UINT : OCC_VAL_NULL; if (cond) v->u = (uint64_t)(expr); }
#define KBOOL_GETTER(fn, cond, expr) GETTER(fn) { ROW; \
	v->type = (cond) ? OCC_VAL_BOOL : OCC_VAL_NULL; v->u = (cond) && (expr); }

/* Achieved occupancy as measured: warp-cycles over the SMs' slots. */
static inline void set_achieved(struct occ_val *v, const struct occ_residency *m)
{
	occ_val_pct(v, m->warp_cycles,
		(uint64_t)m->max_warps_per_sm * m->active_cycles);
}

static inline void set_str(struct occ_val *v, const char *s)
{
	v->type = OCC_VAL_STR;
	v->s = s;
}

/* fields_partition.c: --partition's split, part and driver. */
GETTER_SIG(get_partition_model); GETTER_SIG(get_partition_api_clusters);
GETTER_SIG(get_api_partition_groups); GETTER_SIG(get_api_partition_sms);
GETTER_SIG(get_api_partition_remaining_sms);
GETTER_SIG(get_api_partition_part_sms);
GETTER_SIG(get_api_partition_sm_count); GETTER_SIG(get_partition_agrees);

/* fields_kernel.c: a kernel's own fields (--kernels), the library's
 * (any of OCC_KERNEL_FIELDS, read by its id in the entry's arg), and the
 * driver's reading. */
GETTER_SIG(get_kernel_field); GETTER_SIG(text_kernel_field);
GETTER_SIG(get_api_regs); GETTER_SIG(get_api_static_smem);
GETTER_SIG(get_api_stack); GETTER_SIG(get_api_max_threads);

/* fields_cluster.c: the device, and a cluster launch (--cluster): the
 * library's fields of the model (any of OCC_CLUSTER_FIELDS), and the
 * GPU's. */
GETTER_SIG(get_device); GETTER_SIG(get_device_name);
GETTER_SIG(get_cluster_model); GETTER_SIG(text_cluster_model);
GETTER_SIG(get_cluster_kernel_regs); GETTER_SIG(get_api_clusters);
GETTER_SIG(get_api_potential); GETTER_SIG(get_api_potential_np);
GETTER_SIG(get_clusters_launched); GETTER_SIG(get_measured_clusters);
GETTER_SIG(get_measured_cluster_blocks); GETTER_SIG(get_cluster_achieved);
GETTER_SIG(get_cluster_agrees); GETTER_SIG(text_cluster_agrees);

#endif
