/*
 * fields_cluster.c - the getters of the device's and a cluster launch's
 * fields (--device all, --cluster).
 * Their entries are in the occupancy rows' one field table
 * (fields_occupancy.c), which getters.h declares them to.
 */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "getters.h"

/* Defined here, used by that table. */
#undef GETTER
#define GETTER(fn) GETTER_SIG(fn)

/* ---- The device, and a cluster launch (--cluster) ---- */

OPT_GETTER(get_device, r->dev, r->dev->index)
GETTER(get_device_name)
{
	ROW;
	v->type = OCC_VAL_NULL;
	if (r->dev)
		set_str(v, r->dev->name);
}

#define C r->cl
GETTER(get_cluster)
{
	ROW;
	v->type = OCC_VAL_NULL;
	if (C)
		set_str(v, C->name);
}
OPT_GETTER(get_cluster_size, C, C->c.size)
/* --kernels: what set the row's cluster shape. */
GETTER(get_cluster_source)
{
	ROW;
	v->type = OCC_VAL_NULL;
	if (C)
		set_str(v, C->source ? C->source : "--cluster");
}
GETTER(get_cluster_portable)
{
	ROW;
	v->type = C ? OCC_VAL_BOOL : OCC_VAL_NULL;
	v->u = C && C->c.portable;
}
OPT_GETTER(get_cluster_blocks, C, C->c.blocks_per_sm)
OPT_GETTER(get_max_active_clusters, C, C->c.max_active_clusters)
OPT_GETTER(get_cluster_active_blocks, C, C->c.active_blocks)
GETTER(get_cluster_occupancy)
{
	ROW;
	v->type = OCC_VAL_NULL;
	if (C && C->c.warp_slots > 0)
		occ_val_pct(v, (uint64_t)C->c.active_warps,
			(uint64_t)C->c.warp_slots);
}
GETTER(get_cluster_limiter)
{
	ROW;
	v->type = C ? OCC_VAL_SET : OCC_VAL_NULL;
	v->n = C ? cluster_limiter_names(C->c.limiters, v->strs) : 0;
}
GETTER(get_cluster_reason)
{
	ROW;
	v->type = OCC_VAL_NULL;
	if (C && C->c.reason != OCC_CLUSTER_FITS)
		set_str(v, occ_cluster_reason_name(C->c.reason));
}
/* In a text table, no cluster resident shows why. */
GETTER(text_cluster_limiter)
{
	ROW;
	if (C && C->c.reason != OCC_CLUSTER_FITS)
		get_cluster_reason(p, f, v);
	else
		get_cluster_limiter(p, f, v);
}
OPT_GETTER(get_cluster_gpcs_used, C, C->c.gpcs_used)
OPT_GETTER(get_cluster_idle_slots, C, C->c.idle_slots)
/* The sizes the layout recommends: not known without one. */
#define LAID_OUT (C && !cluster_upper_bound(C->layout))
OPT_GETTER(get_potential, LAID_OUT, C->portable.potential)
OPT_GETTER(get_potential_np, LAID_OUT, C->nonportable.potential)
OPT_GETTER(get_best_size, LAID_OUT, C->portable.most_blocks)
OPT_GETTER(get_best_blocks, LAID_OUT,
	   C->portable.most_blocks_result.active_blocks)
GETTER(get_cluster_bound)
{
	ROW;
	v->type = C ? OCC_VAL_BOOL : OCC_VAL_NULL;
	v->u = C && cluster_upper_bound(C->layout);
}
GETTER(get_layout)
{
	ROW;
	v->type = OCC_VAL_NULL;
	if (C)
		set_str(v, C->layout->text);
}
GETTER(get_layout_source)
{
	ROW;
	v->type = OCC_VAL_NULL;
	if (C)
		set_str(v, C->layout->source);
}
OPT_GETTER(get_cluster_kernel_regs, C && C->have_api, C->api.kernel_regs)
OPT_GETTER(get_api_clusters, C && C->have_api, C->api.clusters)
OPT_GETTER(get_api_potential, C && C->have_api, C->api.potential)
OPT_GETTER(get_api_potential_np, C && C->have_api,
	   C->api.potential_nonportable)
OPT_GETTER(get_clusters_launched, C && C->measured, C->m.clusters)
OPT_GETTER(get_measured_clusters, C && C->measured, C->m.cres.max_clusters)
OPT_GETTER(get_measured_cluster_blocks, C && C->measured,
	   C->m.residency.max_blocks_per_sm)
GETTER(get_cluster_achieved)
{
	ROW;
	v->type = OCC_VAL_NULL;
	if (C && C->measured)
		set_achieved(v, &C->m.residency);
}
GETTER(get_cluster_agrees)
{
	ROW;
	v->type = C && C->have_api ? OCC_VAL_BOOL : OCC_VAL_NULL;
	v->u = C && C->agrees;
}
GETTER(text_cluster_agrees)
{
	ROW;
	set_str(v, C && C->have_api && !C->agrees ? "!" : "");
}
#undef C
