/*
 * fields_partition.c - the getters of a row computed in a part of the GPU
 * (--partition): the split, the part, and with --api the driver's.
 * Their entries are in the occupancy rows' one field table
 * (fields_occupancy.c), which getters.h declares them to.
 */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "getters.h"

#undef GETTER
#define GETTER(fn) GETTER_SIG(fn)

#define P r->partition

/* The model's fields of the part are the library's (occ_partition_kind,
 * OCC_PARTITION_FIELDS in this kind's table): each read from the row's
 * part by the library's field of its name. */
GETTER(get_partition_model)
{
	const struct occ_field *m = occ_field_find(&occ_partition_kind,
						   f->name, strlen(f->name));

	ROW;
	v->type = OCC_VAL_NULL;
	if (P && m)
		m->get(&P->m, m, v);
}
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
