/*
 * info.c - an architecture's record (occcalc/lists.h, --info): its table
 * keys under their cudaDeviceProp names, and for a device's properties
 * put over its table, the table's values it contradicts. The fields are
 * the keys the table has, so they are made for each record.
 */
#include <stdio.h>
#include <string.h>

#include "occcalc.h"

#define GETTER(fn) static void fn(const void *p, const struct occ_field *f, \
				  struct occ_val *v)
#define ROW const struct occ_info_row *r = p; (void)f

void occ_info_row_init(struct occ_info_row *row, const struct occ_arch *a,
		       const struct occ_arch *table)
{
	row->a = a;
	row->table = table ? table : a;
	row->contradictions = 0;
}

/* A table key's value (arg: its index). */
GETTER(get_key)
{
	ROW;
	const struct occ_key *key = occ_arch_key(f->arg);

	switch (key->type) {
	case OCC_KEY_CC:
		snprintf(v->buf, sizeof v->buf, "%d.%d", r->a->cc_major,
			 r->a->cc_minor);
		v->type = OCC_VAL_STR;
		v->s = v->buf;
		break;
	case OCC_KEY_STRING:
		v->type = OCC_VAL_STR;
		v->s = strcmp(key->name, "name") == 0 ? r->a->name
						       : r->a->products;
		break;
	case OCC_KEY_INT:
	case OCC_KEY_BYTES:
		occ_val_uint(v, occ_arch_value(r->a, key));
		break;
	case OCC_KEY_BYTES_LIST:
		v->type = OCC_VAL_LIST;
		v->list = r->a->smem_carveouts;
		v->n = (size_t)r->a->n_smem_carveouts;
		break;
	}
}

/* A device value the table says otherwise: the table's (arg: key). */
GETTER(get_table_key)
{
	ROW;
	occ_val_uint(v, occ_arch_value(r->table, occ_arch_key(f->arg)));
}

GETTER(get_contradictions) { ROW; occ_val_uint(v, (uint64_t)r->contradictions); }
GETTER(get_source)
{
	ROW;
	v->type = OCC_VAL_STR;
	v->s = r->table->source;
}

#define F(name, type, desc, get) { name, type, desc, get, NULL, { 0 }, 0, 0 }

static const struct occ_field fields[] = {
	F("tableContradictions", OCC_FT_INT, "table values the device "
	  "contradicts, each given as table.KEY", get_contradictions),
	F("source", OCC_FT_STR, "the table's file", get_source),
};
enum { CONTRADICTIONS, SOURCE };

const struct occ_row_kind occ_info_kind = {
	"info", fields, sizeof fields / sizeof fields[0], NULL
};

void occ_info_add(struct occ_info_fields *x, const struct occ_field *f)
{
	if (x->n < OCC_INFO_MAX_FIELDS)
		x->f[x->n++] = *f;
}

void occ_info_add_keys(struct occ_info_fields *x, const struct occ_arch *a)
{
	struct occ_field f = F(NULL, OCC_FT_INT, "", get_key);
	size_t i;

	for (i = 0; i < occ_arch_key_count(); i++)
		if (occ_arch_has(a, occ_arch_key(i))) {
			f.name = occ_arch_key(i)->name;
			f.arg = i;
			occ_info_add(x, &f);
		}
}

/* Where the table says otherwise: the device's value was used. */
void occ_info_add_contradictions(struct occ_info_fields *x,
				 struct occ_info_row *row)
{
	struct occ_field f = F(NULL, OCC_FT_INT, "", get_table_key);
	size_t i;

	row->contradictions = 0;
	for (i = 0; i < occ_arch_key_count(); i++) {
		const struct occ_key *k = occ_arch_key(i);

		if (!occ_target_device_key(k) ||
		    x->n_names == OCC_INFO_MAX_CONTRADICTIONS ||
		    occ_arch_value(row->table, k) == occ_arch_value(row->a, k))
			continue;
		snprintf(x->names[x->n_names], sizeof x->names[0], "table.%s",
			 k->name);
		f.name = x->names[x->n_names++];
		f.arg = i;
		occ_info_add(x, &f);
		row->contradictions++;
	}
}

void occ_info_fields_make(struct occ_info_fields *x, struct occ_info_row *row)
{
	x->n = x->n_names = 0;
	occ_info_add_keys(x, row->a);
	if (row->table != row->a) {
		occ_info_add_contradictions(x, row);
		occ_info_add(x, &fields[CONTRADICTIONS]);
	}
	occ_info_add(x, &fields[SOURCE]);
}

size_t occ_info_json(struct occ_info_row *row, char *buf, size_t cap)
{
	struct occ_info_fields x;
	const struct occ_field *f[OCC_INFO_MAX_FIELDS];
	size_t i;

	occ_info_fields_make(&x, row);
	for (i = 0; i < x.n; i++)
		f[i] = &x.f[i];
	return occ_row_json(f, x.n, row, buf, cap);
}
