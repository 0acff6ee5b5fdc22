/*
 * partition_fields.c - the fields of a part of the GPU (struct
 * occ_partition_row, occcalc/partition_row.h), under the command line's
 * names: the entries are OCC_PARTITION_FIELDS and
 * OCC_PARTITION_BOUND_FIELDS, which occcalc's occupancy table shares, and
 * the getters here read them.
 */
#include <stdio.h>

#include "occcalc.h"

#define GETTER(fn) static void fn(const void *p, const struct occ_field *f, \
				  struct occ_val *v)
#define ROW const struct occ_partition_row *r = p; (void)f
#define S r->part.split

GETTER(get_partition_part)
{
	ROW;
	v->type = OCC_VAL_STR;
	v->s = r->name;
}
GETTER(get_partition_flags)
{
	ROW;
	v->type = OCC_VAL_NULL;
	if ((v->s = occ_partition_flags_name(r->part.flags)))
		v->type = OCC_VAL_STR;
}
GETTER(get_partition_groups) { ROW; occ_val_uint(v, (uint64_t)S.groups); }
GETTER(get_partition_sms) { ROW; occ_val_uint(v, (uint64_t)S.group_sms); }
/* The SMs left over: not known where the split is a bound. */
GETTER(get_partition_remaining_sms)
{
	ROW;
	v->type = OCC_VAL_NULL;
	if (!r->bound_remaining)
		occ_val_uint(v, (uint64_t)S.remaining_sms);
}
GETTER(get_partition_part_sms) { ROW; occ_val_uint(v, (uint64_t)r->part.sms); }

/* A layout of the part: only where measured. */
static void measured_layout(const struct occ_partition_row *r,
			    const struct occ_gpc_layout *l, struct occ_val *v)
{
	v->type = OCC_VAL_NULL;
	if (r->part.measured) {
		occ_layout_format(l, v->buf, sizeof v->buf);
		v->type = OCC_VAL_STR;
		v->s = v->buf;
	}
}
GETTER(get_partition_layout) { ROW; measured_layout(r, &r->part.layout, v); }
GETTER(get_partition_api_layout) { ROW; measured_layout(r, &r->part.api, v); }
GETTER(get_partition_bound)
{
	ROW;
	v->type = OCC_VAL_BOOL;
	v->u = r->bound != 0;
}

#define OCC_PARTITION_FIELD(name, type, desc, get) \
	{ name, type, desc, get, NULL, { 0 }, 0, 0 },

static const struct occ_field fields[] = {
	OCC_PARTITION_FIELDS
	OCC_PARTITION_BOUND_FIELDS
};

const struct occ_row_kind occ_partition_kind = {
	"partition", fields, sizeof fields / sizeof fields[0], NULL
};
