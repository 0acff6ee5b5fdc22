/*
 * cluster_fields.c - the fields of a cluster launch's row (struct
 * occ_cluster_row, occcalc/cluster_row.h), under the command line's
 * names: the entries are OCC_CLUSTER_FIELDS, which occcalc's occupancy
 * table shares, and the getters here read them.
 */
#include <stdio.h>

#include "occcalc.h"
#include "util.h"

#define GETTER(fn) static void fn(const void *p, const struct occ_field *f, \
				  struct occ_val *v)
#define ROW const struct occ_cluster_row *r = p; (void)f
#define UINT_GETTER(fn, expr) GETTER(fn) { ROW; occ_val_uint(v, (uint64_t)(expr)); }
/* A number there when cond holds, else absent. */
#define OPT_GETTER(fn, cond, expr) GETTER(fn) { ROW; v->type = OCC_VAL_NULL; \
	if (cond) occ_val_uint(v, (uint64_t)(expr)); }
#define STR_GETTER(fn, expr) GETTER(fn) { ROW; v->type = OCC_VAL_STR; \
	v->s = (expr); }
#define BOOL_GETTER(fn, expr) GETTER(fn) { ROW; v->type = OCC_VAL_BOOL; \
	v->u = (expr) != 0; }

STR_GETTER(get_cluster, r->name)
UINT_GETTER(get_cluster_size, r->c.size)
/* What set the row's cluster shape: the kernel, or the caller. */
STR_GETTER(get_cluster_source, r->source ? r->source : "--cluster")
BOOL_GETTER(get_cluster_portable, r->c.portable)
UINT_GETTER(get_cluster_blocks, r->c.blocks_per_sm)
UINT_GETTER(get_max_active_clusters, r->c.max_active_clusters)
UINT_GETTER(get_cluster_active_blocks, r->c.active_blocks)
GETTER(get_cluster_occupancy)
{
	ROW;
	v->type = OCC_VAL_NULL;
	if (r->c.warp_slots > 0)
		occ_val_pct(v, (uint64_t)r->c.active_warps,
			    (uint64_t)r->c.warp_slots);
}
GETTER(get_cluster_limiter)
{
	ROW;
	v->type = OCC_VAL_SET;
	v->n = occ_cluster_limiter_names(r->c.limiters, v->strs);
}
GETTER(get_cluster_reason)
{
	ROW;
	v->type = OCC_VAL_NULL;
	if (r->c.reason != OCC_CLUSTER_FITS) {
		v->type = OCC_VAL_STR;
		v->s = occ_cluster_reason_name(r->c.reason);
	}
}
/* In a text table, no cluster resident shows why. */
GETTER(text_cluster_limiter)
{
	ROW;
	if (r->c.reason != OCC_CLUSTER_FITS)
		get_cluster_reason(p, f, v);
	else
		get_cluster_limiter(p, f, v);
}
UINT_GETTER(get_cluster_gpcs_used, r->c.gpcs_used)
UINT_GETTER(get_cluster_idle_slots, r->c.idle_slots)
/* The sizes the layout recommends: not known without one. */
#define LAID_OUT (!occ_cluster_layout_bound(r->layout))
OPT_GETTER(get_potential, LAID_OUT, r->portable.potential)
OPT_GETTER(get_potential_np, LAID_OUT, r->nonportable.potential)
OPT_GETTER(get_best_size, LAID_OUT, r->portable.most_blocks)
OPT_GETTER(get_best_blocks, LAID_OUT,
	   r->portable.most_blocks_result.active_blocks)
STR_GETTER(get_layout, r->layout->text)
STR_GETTER(get_layout_source, r->layout->source)
BOOL_GETTER(get_cluster_bound, occ_cluster_layout_bound(r->layout))

#define OCC_CLUSTER_TEXT(fn) fn
#define OCC_CLUSTER_FIELD(name, type, desc, get, ...) \
	{ name, type, desc, get, NULL, __VA_ARGS__, 0, 0 },

static const struct occ_field fields[] = { OCC_CLUSTER_FIELDS };

const struct occ_row_kind occ_cluster_kind = {
	"cluster", fields, sizeof fields / sizeof fields[0], NULL
};

/* kind's fields, its base's first, in f (128), each read from row (in
 * rows); how many. */
static size_t fields_of(const struct occ_row_kind *kind, const void *row,
			const struct occ_field **f, const void **rows)
{
	size_t i, n = occ_row_kind_count(kind);

	for (i = 0; i < n && i < 128; i++) {
		f[i] = occ_row_kind_field(kind, i);
		rows[i] = row;
	}
	return i;
}

size_t occ_cluster_config_json(const struct occ_config_row *row,
			       const struct occ_cluster_row *cl, char *buf,
			       size_t cap)
{
	const struct occ_field *f[256];
	const void *rows[256];
	size_t n = fields_of(&occ_config_kind, row, f, rows);

	n += fields_of(&occ_cluster_kind, cl, f + n, rows + n);
	return occ_row_parts_json(f, rows, n, buf, cap);
}
