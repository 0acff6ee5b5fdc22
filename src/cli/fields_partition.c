/*
 * fields_partition.c - the getters of a row computed in a part of the GPU
 * (--partition): the split, the part, and with --api the driver's.
 * Their entries are in the occupancy rows' one field table
 * (fields_occupancy.c), which getters.h declares them to.
 */
#include <stdio.h>

#include "cli.h"
#include "getters.h"

#undef GETTER
#define GETTER(fn) GETTER_SIG(fn)

#define P r->partition
GETTER(get_partition_part)
{
	ROW;
	v->type = OCC_VAL_NULL;
	if (P)
		set_str(v, P->name);
}
GETTER(get_partition_flags)
{
	ROW;
	v->type = OCC_VAL_NULL;
	if (P)
		set_str(v, occ_partition_flags_name(P->split_flags));
}
KOPT_GETTER(get_partition_groups, P, P->split.groups)
KOPT_GETTER(get_partition_sms, P, P->split.group_sms)
KOPT_GETTER(get_partition_remaining_sms, P && !P->bound_remaining,
	    P->split.remaining_sms)
KOPT_GETTER(get_partition_part_sms, P, P->part_sms)
GETTER(get_partition_layout)
{
	ROW;
	v->type = OCC_VAL_NULL;
	if (P && P->measured) {
		occ_layout_format(&P->part.hw, v->buf, sizeof v->buf);
		set_str(v, v->buf);
	}
}
GETTER(get_partition_api_layout)
{
	ROW;
	v->type = OCC_VAL_NULL;
	if (P && P->measured) {
		occ_layout_format(&P->part.api, v->buf, sizeof v->buf);
		set_str(v, v->buf);
	}
}
KBOOL_GETTER(get_partition_bound, P, P->bound)
KOPT_GETTER(get_partition_api_clusters, r->cl && r->cl->model.have_part_api,
	    r->cl->model.part_api.max_active_clusters)
KOPT_GETTER(get_api_partition_groups, P && P->have_driver, P->driver_groups)
KOPT_GETTER(get_api_partition_sms, P && P->have_driver,
	    P->driver_group_sms)
KOPT_GETTER(get_api_partition_remaining_sms, P && P->have_driver,
	    P->driver_remaining_sms)
KOPT_GETTER(get_api_partition_part_sms, P && P->have_driver,
	    P->driver_part_sms)
KOPT_GETTER(get_api_partition_sm_count, P && P->have_driver,
	    P->driver_sm_attr)
KBOOL_GETTER(get_partition_agrees, P && P->have_driver, P->agrees)
