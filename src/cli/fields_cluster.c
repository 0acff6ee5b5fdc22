/*
 * fields_cluster.c - the getters of the device's and a cluster launch's
 * fields (--device all, --cluster): the library's for the model's, and
 * the GPU's answers.
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

/* The model's fields of the launch are the library's (occ_cluster_kind,
 * OCC_CLUSTER_FIELDS in this kind's table): each read from the row's
 * launch by the library's field of its name. */
static const struct occ_field *model_field(const struct occ_field *f)
{
	return occ_field_find(&occ_cluster_kind, f->name, strlen(f->name));
}

GETTER(get_cluster_model)
{
	const struct occ_field *m = model_field(f);

	ROW;
	v->type = OCC_VAL_NULL;
	if (r->cl && m)
		m->get(&r->cl->model, m, v);
}
GETTER(text_cluster_model)
{
	const struct occ_field *m = model_field(f);

	ROW;
	v->type = OCC_VAL_NULL;
	if (r->cl && m)
		(m->text.get ? m->text.get : m->get)(&r->cl->model, m, v);
}

#define C r->cl
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
